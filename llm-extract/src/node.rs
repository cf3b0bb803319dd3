//! The parse tree: what `serde_json::Value` keeps, plus what later stages need.
//!
//! A [`Node`] keeps object entries in order with duplicates, whether a string was quoted,
//! whether a value was complete or closed by repair (truncated input), and the byte span of
//! every value and key, so coercion can report `line:column` for any path.

use crate::span::Span;
use std::borrow::Cow;

/// A number as written, kept exact: integers that fit `u64`/`i64` stay integers, everything
/// else is a correctly rounded `f64` (non-finite values come from `NaN`/`Infinity` literals).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// A non-negative integer.
    PosInt(u64),
    /// A negative integer.
    NegInt(i64),
    /// Anything else.
    Float(f64),
}

impl Number {
    /// The number as `f64` (possibly rounded).
    pub fn as_f64(self) -> f64 {
        match self {
            Number::PosInt(n) => n as f64,
            Number::NegInt(n) => n as f64,
            Number::Float(f) => f,
        }
    }

    /// The `serde_json::Number`, or `None` for NaN and infinities.
    pub fn to_json(self) -> Option<serde_json::Number> {
        match self {
            Number::PosInt(n) => Some(n.into()),
            Number::NegInt(n) => Some(n.into()),
            Number::Float(f) => serde_json::Number::from_f64(f),
        }
    }
}

impl From<&serde_json::Number> for Number {
    fn from(n: &serde_json::Number) -> Number {
        if let Some(u) = n.as_u64() {
            Number::PosInt(u)
        } else if let Some(i) = n.as_i64() {
            Number::NegInt(i)
        } else {
            // With `arbitrary_precision`, `as_f64` is `None` beyond f64's range (`1e400`).
            Number::Float(
                n.as_f64()
                    .unwrap_or_else(|| n.to_string().parse::<f64>().unwrap_or(f64::NAN)),
            )
        }
    }
}

/// How a string was written in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quoting {
    /// `"..."`, as JSON requires.
    Double,
    /// `'...'`, a backtick pair, or typographic quotes.
    Other,
    /// No quotes at all: a bare word or phrase.
    Unquoted,
}

/// A string value or an object key.
#[derive(Clone, Debug, PartialEq)]
pub struct Str<'a> {
    /// The decoded text.
    pub text: Cow<'a, str>,
    /// How it was quoted.
    pub quoting: Quoting,
}

impl Str<'_> {
    /// Whether the string was written with quotes of any kind.
    pub fn is_quoted(&self) -> bool {
        self.quoting != Quoting::Unquoted
    }

    /// An owned copy that no longer borrows the input.
    pub fn into_owned(self) -> Str<'static> {
        Str {
            text: Cow::Owned(self.text.into_owned()),
            quoting: self.quoting,
        }
    }
}

/// One `key: value` member of an object, in source order.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry<'a> {
    /// The key as written.
    pub key: Str<'a>,
    /// Where the key is in the source.
    pub key_span: Span,
    /// The value.
    pub value: Node<'a>,
}

impl Entry<'_> {
    /// Whether the key was written without a value: the parser put a `null` of no width in
    /// its place. Such a member never replaces one the key was written with before.
    pub(crate) fn value_missing(&self) -> bool {
        matches!(self.value.kind, NodeKind::Null)
            && self.value.span.is_empty()
            && !self.key_span.is_empty()
    }

    /// Whether the member was written without a key: the parser put the empty key of no
    /// width before its value. Such a member never replaces one written with that key.
    pub(crate) fn key_missing(&self) -> bool {
        self.key.text.is_empty() && self.key_span.is_empty() && !self.value.span.is_empty()
    }
}

/// What kind of value a [`Node`] is.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind<'a> {
    /// `null`, `None`, `undefined`, or a missing value.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string (quoted or not).
    String(Str<'a>),
    /// An array.
    Array(Vec<Node<'a>>),
    /// An object: entries in source order, duplicates kept.
    Object(Vec<Entry<'a>>),
}

/// A value found in the text, with its source span.
#[derive(Debug, PartialEq)]
pub struct Node<'a> {
    /// The value.
    pub kind: NodeKind<'a>,
    /// Where the value is in the source text.
    pub span: Span,
    /// `false` when the input ended inside this value and repair closed it.
    pub complete: bool,
}

impl Clone for Node<'_> {
    /// Clones level by level on a stack that grows on the heap when needed (a derived clone
    /// would overflow on a deep tree).
    fn clone(&self) -> Self {
        crate::deep::grow(|| Node {
            kind: self.kind.clone(),
            span: self.span,
            complete: self.complete,
        })
    }
}

impl<'a> Node<'a> {
    /// A complete node.
    pub fn new(kind: NodeKind<'a>, span: Span) -> Node<'a> {
        Node {
            kind,
            span,
            complete: true,
        }
    }

    /// A short name of the node's JSON type, for messages: `"object"`, `"string"`, ...
    pub fn type_name(&self) -> &'static str {
        match &self.kind {
            NodeKind::Null => "null",
            NodeKind::Bool(_) => "boolean",
            NodeKind::Number(_) => "number",
            NodeKind::String(_) => "string",
            NodeKind::Array(_) => "array",
            NodeKind::Object(_) => "object",
        }
    }

    /// The string's text, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::String(s) => Some(&s.text),
            _ => None,
        }
    }

    /// How deep the tree under this node is, as far as dropping what was read from it is
    /// concerned: the depth limit itself when that is small (no walk), else the tree's real
    /// depth (for `deep::discard`).
    pub(crate) fn drop_depth(&self, max_depth: usize) -> usize {
        if max_depth <= crate::deep::SHALLOW {
            max_depth
        } else {
            self.depth()
        }
    }

    /// How deeply containers nest in this node: 0 for a scalar, 1 for `[1]`, 2 for `[[]]`.
    pub(crate) fn depth(&self) -> usize {
        // Iterative, so that a deep tree cannot overflow the stack.
        let mut deepest = 0;
        let mut stack = vec![(self, 0)];
        while let Some((node, depth)) = stack.pop() {
            match &node.kind {
                NodeKind::Array(items) => stack.extend(items.iter().map(|n| (n, depth + 1))),
                NodeKind::Object(entries) => {
                    stack.extend(entries.iter().map(|e| (&e.value, depth + 1)))
                }
                _ => continue,
            }
            deepest = deepest.max(depth + 1);
        }
        deepest
    }

    /// Whether this node and everything inside it is complete.
    pub fn is_complete_deep(&self) -> bool {
        // Iterative, so that a deep tree cannot overflow the stack.
        let mut stack = vec![self];
        while let Some(node) = stack.pop() {
            if !node.complete {
                return false;
            }
            match &node.kind {
                NodeKind::Array(items) => stack.extend(items),
                NodeKind::Object(entries) => stack.extend(entries.iter().map(|e| &e.value)),
                _ => {}
            }
        }
        true
    }

    /// The node as a `serde_json::Value`. Duplicate keys keep the last value, as
    /// serde_json does; NaN and infinities become `null`.
    ///
    /// ```
    /// let node = llm_extract::coerce::Node::from_value(&serde_json::json!({"a": [1, "x"]}));
    /// assert_eq!(node.to_value(), serde_json::json!({"a": [1, "x"]}));
    /// ```
    pub fn to_value(&self) -> serde_json::Value {
        to_value_iterative(self, Source::None, None)
    }

    /// [`Node::to_value`] (numbers as written in `source` when given, as
    /// [`Node::to_value_in`]), noting in `duplicates` each key written again in an object,
    /// whose later value replaced the earlier: its path below this node and its span.
    pub(crate) fn to_value_noting(
        &self,
        source: Option<(&str, usize)>,
        duplicates: &mut Vec<(Vec<crate::path::Segment>, Span)>,
    ) -> serde_json::Value {
        let source = source.map_or(Source::None, |(text, offset)| Source::Text(text, offset));
        to_value_iterative(self, source, Some(duplicates))
    }

    /// [`Node::to_value`], with numbers as written in `source` (the text `source.1` bytes
    /// into the original, which the spans point into) when serde_json keeps numbers as text
    /// (feature `arbitrary_precision`): `1e400` and integers beyond `u64` stay exact.
    pub(crate) fn to_value_in(&self, source: &str, offset: usize) -> serde_json::Value {
        to_value_iterative(self, Source::Text(source, offset), None)
    }

    /// A node tree for an existing `serde_json::Value` (spans are empty).
    pub fn from_value(value: &serde_json::Value) -> Node<'static> {
        crate::deep::grow(|| Node::from_value_here(value))
    }

    fn from_value_here(value: &serde_json::Value) -> Node<'static> {
        use serde_json::Value;
        let kind = match value {
            Value::Null => NodeKind::Null,
            Value::Bool(b) => NodeKind::Bool(*b),
            Value::Number(n) => NodeKind::Number(n.into()),
            Value::String(s) => NodeKind::String(Str {
                text: Cow::Owned(s.clone()),
                quoting: Quoting::Double,
            }),
            Value::Array(items) => NodeKind::Array(items.iter().map(Node::from_value).collect()),
            Value::Object(map) => NodeKind::Object(
                map.iter()
                    .map(|(k, v)| Entry {
                        key: Str {
                            text: Cow::Owned(k.clone()),
                            quoting: Quoting::Double,
                        },
                        key_span: Span::default(),
                        value: Node::from_value(v),
                    })
                    .collect(),
            ),
        };
        Node::new(kind, Span::default())
    }
}

impl Node<'_> {
    /// Points every node and key of the tree at `span`: for a tree read from text that is not
    /// in the original (a JSON document decoded out of a string), whose own positions do not
    /// exist there.
    pub(crate) fn point_at(&mut self, span: Span) {
        self.map_spans(|_| span);
    }

    /// Replaces the span of every node and key of the tree with `to(span)`.
    pub(crate) fn map_spans(&mut self, to: impl Fn(Span) -> Span) {
        let mut stack = vec![self];
        while let Some(node) = stack.pop() {
            node.span = to(node.span);
            match &mut node.kind {
                NodeKind::Array(items) => stack.extend(items.iter_mut()),
                NodeKind::Object(entries) => {
                    for e in entries.iter_mut() {
                        e.key_span = to(e.key_span);
                        stack.push(&mut e.value);
                    }
                }
                _ => {}
            }
        }
    }

    /// The same tree with every borrowed string copied, so it no longer borrows the input.
    pub fn into_owned(self) -> Node<'static> {
        // Iterative post-order rebuild, so deep trees cannot overflow the stack.
        let mut work = vec![Rebuild::Visit(self)];
        let mut done: Vec<Node<'static>> = Vec::new();
        while let Some(step) = work.pop() {
            match step {
                Rebuild::Visit(node) => Rebuild::visit(node, &mut work, &mut done),
                Rebuild::Array(span, complete, len) => {
                    let items = done.split_off(done.len() - len);
                    done.push(Node {
                        kind: NodeKind::Array(items),
                        span,
                        complete,
                    });
                }
                Rebuild::Object(span, complete, keys) => {
                    let values = done.split_off(done.len() - keys.len());
                    let entries = keys
                        .into_iter()
                        .zip(values)
                        .map(|((key, key_span), value)| Entry {
                            key,
                            key_span,
                            value,
                        })
                        .collect();
                    done.push(Node {
                        kind: NodeKind::Object(entries),
                        span,
                        complete,
                    });
                }
            }
        }
        done.pop().expect("one root")
    }
}

/// One step of [`Node::into_owned`]'s rebuild. Invariant: when a container's step runs, its
/// children, already owned, are the last ones on the `done` stack, in order.
enum Rebuild<'a> {
    /// Copy this node: a scalar at once, a container by scheduling its children first.
    Visit(Node<'a>),
    /// An array (span, complete) of the last `usize` done nodes.
    Array(Span, bool, usize),
    /// An object (span, complete) whose values are the last done nodes, one per key.
    Object(Span, bool, Vec<(Str<'static>, Span)>),
}

impl<'a> Rebuild<'a> {
    /// A scalar goes to `done` owned; a container schedules its own step, then its children
    /// above it (reversed, so they finish in order).
    fn visit(mut node: Node<'a>, work: &mut Vec<Rebuild<'a>>, done: &mut Vec<Node<'static>>) {
        // `Node` implements `Drop`, so its kind is taken out rather than moved.
        let kind = match std::mem::replace(&mut node.kind, NodeKind::Null) {
            NodeKind::Array(items) => {
                work.push(Rebuild::Array(node.span, node.complete, items.len()));
                work.extend(items.into_iter().rev().map(Rebuild::Visit));
                return;
            }
            NodeKind::Object(entries) => {
                let mut keys = Vec::with_capacity(entries.len());
                let mut values = Vec::with_capacity(entries.len());
                for Entry {
                    key,
                    key_span,
                    value,
                } in entries
                {
                    keys.push((key.into_owned(), key_span));
                    values.push(value);
                }
                work.push(Rebuild::Object(node.span, node.complete, keys));
                work.extend(values.into_iter().rev().map(Rebuild::Visit));
                return;
            }
            NodeKind::String(s) => NodeKind::String(s.into_owned()),
            NodeKind::Null => NodeKind::Null,
            NodeKind::Bool(b) => NodeKind::Bool(b),
            NodeKind::Number(n) => NodeKind::Number(n),
        };
        done.push(Node {
            kind,
            span: node.span,
            complete: node.complete,
        });
    }
}

impl Drop for Node<'_> {
    /// Drops deep trees iteratively: the default, recursive drop would overflow the stack on
    /// input nested far beyond `max_depth`'s default, which callers may raise. Shallow trees
    /// (no container inside a container) take the ordinary path.
    fn drop(&mut self) {
        fn move_children<'a>(kind: &mut NodeKind<'a>, stack: &mut Vec<Node<'a>>) {
            match kind {
                NodeKind::Array(items) => stack.append(items),
                NodeKind::Object(entries) => stack.extend(entries.drain(..).map(|e| e.value)),
                _ => {}
            }
        }
        let is_container = |n: &Node<'_>| match &n.kind {
            NodeKind::Array(a) => !a.is_empty(),
            NodeKind::Object(o) => !o.is_empty(),
            _ => false,
        };
        let nested = match &self.kind {
            NodeKind::Array(items) => items.iter().any(is_container),
            NodeKind::Object(entries) => entries.iter().any(|e| is_container(&e.value)),
            _ => false,
        };
        if !nested {
            return;
        }
        let mut stack = Vec::new();
        move_children(&mut self.kind, &mut stack);
        while let Some(mut node) = stack.pop() {
            move_children(&mut node.kind, &mut stack);
        }
    }
}

/// The text a tree's spans point into, if known: `(text, offset of its first byte)`.
#[derive(Clone, Copy)]
enum Source<'s> {
    None,
    // Built only when serde_json keeps numbers as text (feature `arbitrary_precision`).
    #[cfg_attr(not(feature = "arbitrary_precision"), allow(dead_code))]
    Text(&'s str, usize),
}

fn scalar_to_value(node: &Node<'_>, source: Source<'_>) -> serde_json::Value {
    match (&node.kind, source) {
        (NodeKind::Number(n), Source::Text(text, offset)) => {
            number_value_in(*n, node.span, text, offset)
        }
        (kind, _) => kind_to_value(kind),
    }
}

/// The number read as `n` at `span`, as a `serde_json::Value`; with serde_json's
/// `arbitrary_precision`, exactly as written in `text` (which starts `offset` bytes into the
/// original the span points into): `1e400` stays `1e+400` (serde_json's spelling), an integer
/// beyond `u64` keeps every digit, `1.50` stays `1.50`.
pub(crate) fn number_value_in(
    n: Number,
    span: Span,
    text: &str,
    offset: usize,
) -> serde_json::Value {
    #[cfg(feature = "arbitrary_precision")]
    {
        let written = span
            .start
            .checked_sub(offset)
            .zip(span.end.checked_sub(offset))
            .and_then(|(start, end)| text.get(start..end));
        if let Some(exact) = written.and_then(|w| exact_number(w, n)) {
            return serde_json::Value::Number(exact);
        }
    }
    #[cfg(not(feature = "arbitrary_precision"))]
    let _ = (span, text, offset);
    number_value(n)
}

/// `written` (a number token as the parser read it, standard or not: `+1_000`, `.5`, `5.`)
/// as the JSON number it stands for, kept as text; `None` unless it is the number `read`
/// (a span pointing elsewhere, as in a document decoded from a string, is not trusted).
#[cfg(feature = "arbitrary_precision")]
fn exact_number(written: &str, read: Number) -> Option<serde_json::Number> {
    // The usual case, a number written as JSON writes it: kept as it is, without the
    // rewriting below.
    if crate::lex::is_json_number(written.as_bytes()) {
        let value: f64 = written.parse().ok()?;
        return (value == read.as_f64())
            .then(|| written.parse().ok())
            .flatten();
    }
    let (sign, rest) = match written.as_bytes().first()? {
        b'-' => ("-", &written[1..]),
        b'+' => ("", &written[1..]),
        _ => ("", written),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => rest.split_at(at),
        None => (rest, ""),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((int, frac)) => (int, Some(frac)),
        None => (mantissa, None),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let int = int.replace('_', "");
    if !digits(&int)
        || !frac.is_none_or(digits)
        || (int.is_empty() && frac.is_none_or(str::is_empty))
    {
        return None; // hexadecimal, `Infinity`, `NaN`: not written as a JSON number
    }
    let int = match int.trim_start_matches('0') {
        "" => "0",
        trimmed => trimmed,
    };
    // `1e` or `1e-` with no digits (cut off): the parser ignored the exponent, and the
    // number is the float it was written as, as `5.` is.
    let dangling = !exponent.is_empty() && !exponent.bytes().any(|b| b.is_ascii_digit());
    let frac = match frac {
        Some("") => ".0".to_string(), // `5.` is the float 5.0
        Some(f) => format!(".{f}"),
        None if dangling => ".0".to_string(),
        None => String::new(),
    };
    let exponent = if dangling { "" } else { exponent };
    let json = format!("{sign}{int}{frac}{exponent}");
    let value: f64 = json.parse().ok()?;
    let same = value == read.as_f64();
    same.then(|| json.parse().ok()).flatten()
}

pub(crate) fn number_value(n: Number) -> serde_json::Value {
    n.to_json()
        .map_or(serde_json::Value::Null, serde_json::Value::Number)
}

fn kind_to_value(kind: &NodeKind<'_>) -> serde_json::Value {
    use serde_json::Value;
    match kind {
        NodeKind::Null => Value::Null,
        NodeKind::Bool(b) => Value::Bool(*b),
        NodeKind::Number(n) => number_value(*n),
        NodeKind::String(s) => Value::String(s.text.to_string()),
        NodeKind::Array(_) => Value::Array(Vec::new()),
        NodeKind::Object(_) => Value::Object(serde_json::Map::new()),
    }
}

/// A container being built by [`to_value_iterative`].
enum Open<'n, 'a> {
    Array(Vec<serde_json::Value>, std::slice::Iter<'n, Node<'a>>),
    /// The map, its entries, and the key of the one being built (`true` when its value
    /// is missing), with the key's span.
    Object(
        serde_json::Map<String, serde_json::Value>,
        std::slice::Iter<'n, Entry<'a>>,
        Option<(String, bool, Span)>,
    ),
}

/// The container `node` opens, or its value when it is a scalar.
fn open<'n, 'a>(node: &'n Node<'a>, source: Source<'_>) -> Result<Open<'n, 'a>, serde_json::Value> {
    match &node.kind {
        NodeKind::Array(items) => Ok(Open::Array(Vec::with_capacity(items.len()), items.iter())),
        NodeKind::Object(entries) => Ok(Open::Object(serde_json::Map::new(), entries.iter(), None)),
        _ => Err(scalar_to_value(node, source)),
    }
}

/// The path to the member `key` of the innermost object, below the open containers
/// `outer`.
fn path_of(outer: &[Open<'_, '_>], key: String) -> Vec<crate::path::Segment> {
    use crate::path::Segment;
    let mut path: Vec<Segment> = outer
        .iter()
        .filter_map(|frame| match frame {
            Open::Array(items, _) => Some(Segment::Index(items.len())),
            Open::Object(_, _, key) => key.as_ref().map(|(k, ..)| Segment::Key(k.clone())),
        })
        .collect();
    path.push(Segment::Key(key));
    path
}

/// Converts without recursion: containers are built on an explicit stack.
fn to_value_iterative(
    root: &Node<'_>,
    source: Source<'_>,
    mut duplicates: Option<&mut Vec<(Vec<crate::path::Segment>, Span)>>,
) -> serde_json::Value {
    use serde_json::Value;
    let mut stack = match open(root, source) {
        Ok(frame) => vec![frame],
        Err(scalar) => return scalar,
    };
    let mut done: Option<Value> = None;
    loop {
        let (top, outer) = stack
            .split_last_mut()
            .expect("stack is non-empty inside the loop");
        if let Some(value) = done.take() {
            match top {
                Open::Array(items, _) => items.push(value),
                Open::Object(map, _, key) => match key.take().unwrap_or_default() {
                    (key, true, _) => {
                        map.entry(key).or_insert(value);
                    }
                    (key, false, span) => {
                        let path = duplicates.is_some().then(|| key.clone());
                        if map.insert(key, value).is_some() {
                            if let (Some(list), Some(key)) = (duplicates.as_deref_mut(), path) {
                                list.push((path_of(outer, key), span));
                            }
                        }
                    }
                },
            }
        }
        let next = match top {
            Open::Array(_, iter) => iter.next(),
            Open::Object(_, iter, key) => iter.next().map(|e| {
                let missing = e.value_missing() || e.key_missing();
                *key = Some((e.key.text.to_string(), missing, e.key_span));
                &e.value
            }),
        };
        match next {
            Some(child) => match open(child, source) {
                Ok(frame) => stack.push(frame),
                Err(scalar) => done = Some(scalar),
            },
            None => {
                let finished = match stack.pop().expect("non-empty") {
                    Open::Array(items, _) => Value::Array(items),
                    Open::Object(map, _, _) => Value::Object(map),
                };
                if stack.is_empty() {
                    return finished;
                }
                done = Some(finished);
            }
        }
    }
}
