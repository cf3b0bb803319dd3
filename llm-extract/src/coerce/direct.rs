//! The direct path: a type read straight from strict JSON text, as serde reads it, without
//! building a [`Node`] tree for the whole document.
//!
//! Most replies from a structured-output API are one valid JSON document whose keys are the
//! type's own field names. For them, everything the full path does (locate, parse into a tree,
//! match keys, score readings) ends in the value that reading the text as it streams past
//! gives. [`Extract::read_direct`] does that: derived structs match keys with a generated
//! `match`, lists and maps push items as they are read, and scalars are read where they stand.
//!
//! The direct path only ever gives the answer the full path gives, or gives up: the moment
//! anything would need leniency (a key that is not a field's exact name, a value of another
//! JSON type, a repair of the text, a field's default, a validation rule that fails), a
//! reader returns `None` and the entry point reads the text again on the full path, which
//! records the coercions and builds the errors. A value from the direct path therefore has an
//! empty report, and a property test (`tests/tests/direct_path.rs`) compares the two paths'
//! values, reports and errors on generated valid and damaged documents.
//!
//! A hand-written [`Extract`] impl need not know about any of this: the default
//! [`Extract::read_direct`] reads the value's extent, parses just that part into a [`Node`]
//! and calls [`Extract::from_node`], keeping the result only when no coercion was recorded.

use crate::coerce::{Context, Extract};
use crate::node::{Node, NodeKind, Quoting, Str};
use crate::parse::{self, RepairPaths};
use crate::report::{Coercion, Repair};
use crate::span::Span;
use std::borrow::Cow;

/// How deep the direct path goes: past this many levels of nesting, the text is read on
/// the full path, whose readers grow their stack on the heap. The direct readers recurse
/// once per level; 128 levels fit on any thread's stack, even in a debug build.
pub(crate) const DIRECT_DEPTH: usize = 128;

/// A cursor over strict JSON text that [`Extract::read_direct`] reads from.
///
/// Every method returns `None` when the text is not strict JSON at that point (or is nested
/// deeper than allowed); the reader that gets `None` returns `None` too, and the whole
/// document is then read on the full path. Whitespace before a token is skipped.
///
/// ```
/// use llm_extract::coerce::{Direct, Extract};
///
/// /// A pair written as `[x, y]`, read without a tree.
/// #[derive(Debug, PartialEq)]
/// struct Point(f64, f64);
///
/// impl Extract for Point {
///     type Partial = llm_extract::stream::NoPartial;
///     fn from_node(
///         node: &llm_extract::coerce::Node<'_>,
///         cx: &mut llm_extract::coerce::Context,
///     ) -> Result<Self, llm_extract::coerce::Failed> {
///         <(f64, f64)>::from_node(node, cx).map(|(x, y)| Point(x, y))
///     }
///
///     fn read_direct(r: &mut Direct<'_>) -> Option<Self> {
///         let mut xy = Vec::with_capacity(2);
///         r.array(|r| {
///             xy.push(f64::read_direct(r)?);
///             Some(())
///         })?;
///         match xy[..] {
///             [x, y] => Some(Point(x, y)),
///             _ => None, // the full path reports the wrong length
///         }
///     }
/// }
///
/// assert_eq!(llm_extract::from_str::<Point>("[1.5, 2]").unwrap(), Point(1.5, 2.0));
/// assert_eq!(llm_extract::from_str::<Point>("[1.5, '2']").unwrap(), Point(1.5, 2.0));
/// assert!(llm_extract::from_str::<Point>("[1.5]").is_err());
/// ```
#[derive(Debug)]
pub struct Direct<'a> {
    text: &'a str,
    pos: usize,
    /// Containers open around the cursor.
    depth: usize,
    /// The extractor's depth limit (the direct path itself stops at [`DIRECT_DEPTH`]).
    limit: usize,
    /// What `from_node` records into for the parts read through a tree; anything recorded
    /// means the direct path gives up.
    cx: Context,
}

impl<'a> Direct<'a> {
    /// A cursor at the start of `span` in `text`, with the extractor's depth limit.
    pub(crate) fn new(text: &'a str, span: Span, max_depth: usize) -> Direct<'a> {
        Direct {
            text,
            pos: span.start,
            depth: 0,
            limit: max_depth,
            cx: {
                let mut cx = Context::source(text, span);
                cx.set_max_depth(max_depth);
                cx
            },
        }
    }

    #[inline]
    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    /// Where the cursor is: the byte offset after the last token read.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Goes back to `position` (from [`Direct::position`], in the same container) to read
    /// the value there another way: a reader that looked at a string and found it is not
    /// one it reads directly hands it to [`Direct::by_node`].
    pub fn rewind(&mut self, position: usize) {
        self.pos = position.min(self.pos);
    }

    /// Reads `true` or `false`; `None` for anything else.
    #[inline]
    pub fn bool(&mut self) -> Option<bool> {
        match self.peek()? {
            b't' => self.word(b"true", true),
            b'f' => self.word(b"false", false),
            _ => None,
        }
    }

    /// Reads `null`; `None` for anything else.
    #[inline]
    pub fn null(&mut self) -> Option<()> {
        match self.peek()? {
            b'n' => self.word(b"null", ()),
            _ => None,
        }
    }

    /// Reads a number as the parser builds it from JSON: exact integers within
    /// `u64`/`i64`, anything else the correctly rounded `f64`. `None` for anything else.
    #[inline]
    pub fn number(&mut self) -> Option<crate::node::Number> {
        match self.peek()? {
            b'-' | b'0'..=b'9' => self.number_token(),
            _ => None,
        }
    }

    /// Runs `check` on the cursor's context (as the parts read through a tree record into
    /// it): whether it recorded nothing. Anything recorded sends the document down the full
    /// path, which makes the same check again and reports it.
    #[inline]
    pub(crate) fn check(&mut self, check: impl FnOnce(&mut Context)) -> bool {
        check(&mut self.cx);
        self.clean()
    }

    /// Whether nothing was recorded by the parts read through a tree (every coercion or
    /// issue means the full path must read the document).
    pub(crate) fn clean(&self) -> bool {
        self.cx.coercions().is_empty() && self.cx.issues().is_empty()
    }

    #[inline]
    fn skip_space(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes().get(self.pos) {
            self.pos += 1;
        }
    }

    /// The first byte of the next token, after whitespace: `{`, `[`, `"`, a digit or `-`,
    /// `t`, `f` or `n` in strict JSON.
    #[inline]
    pub fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.bytes().get(self.pos).copied()
    }

    #[inline]
    fn eat(&mut self, byte: u8) -> Option<()> {
        if self.peek()? == byte {
            self.pos += 1;
            Some(())
        } else {
            None
        }
    }

    /// Enters a container, unless that nests too deep or the thread's stack runs low (the
    /// direct readers recurse once per level and do not grow the stack; the full path does).
    #[inline]
    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= self.limit.min(DIRECT_DEPTH) && crate::deep::stack_left()).then_some(())
    }

    /// Reads an object, calling `member` with each key; `member` reads the value. An object
    /// with a trailing comma or any other departure from JSON gives `None`.
    #[inline]
    pub fn object(
        &mut self,
        mut member: impl FnMut(&mut Direct<'a>, Cow<'a, str>) -> Option<()>,
    ) -> Option<()> {
        self.eat(b'{')?;
        self.enter()?;
        if self.peek()? == b'}' {
            self.pos += 1;
            self.depth -= 1;
            return Some(());
        }
        loop {
            let (key, _) = self.string()?;
            self.eat(b':')?;
            member(self, key)?;
            match self.peek()? {
                b',' => self.pos += 1,
                b'}' => {
                    self.pos += 1;
                    self.depth -= 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// Reads an array, calling `item` for each item; `item` reads it.
    #[inline]
    pub fn array(&mut self, mut item: impl FnMut(&mut Direct<'a>) -> Option<()>) -> Option<()> {
        self.eat(b'[')?;
        self.enter()?;
        if self.peek()? == b']' {
            self.pos += 1;
            self.depth -= 1;
            return Some(());
        }
        loop {
            item(self)?;
            match self.peek()? {
                b',' => self.pos += 1,
                b']' => {
                    self.pos += 1;
                    self.depth -= 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// Reads a string token: its decoded text (borrowed unless it had escapes) and its span.
    /// A raw control character, an unknown escape or a lone surrogate gives `None` (the
    /// full path repairs those, and reports it).
    pub fn string(&mut self) -> Option<(Cow<'a, str>, Span)> {
        if self.peek()? != b'"' {
            return None;
        }
        let start = self.pos;
        let body = start + 1;
        let len = self.bytes()[body..]
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        let i = body + len;
        match self.bytes()[i] {
            b'"' => {
                self.pos = i + 1;
                Some((Cow::Borrowed(&self.text[body..i]), Span::new(start, i + 1)))
            }
            b'\\' => self.escaped_string(start, i),
            _ => None,
        }
    }

    /// The rest of a string with escapes, from the first backslash at `first`.
    fn escaped_string(&mut self, start: usize, first: usize) -> Option<(Cow<'a, str>, Span)> {
        let mut out = String::with_capacity(first - start + 16);
        out.push_str(&self.text[start + 1..first]);
        let mut i = first;
        let mut run = first;
        loop {
            match *self.bytes().get(i)? {
                b'"' => {
                    out.push_str(&self.text[run..i]);
                    self.pos = i + 1;
                    return Some((Cow::Owned(out), Span::new(start, i + 1)));
                }
                b'\\' => {
                    out.push_str(&self.text[run..i]);
                    let (c, len) = crate::lex::strict_escape(self.bytes(), i)?;
                    out.push(c);
                    i += len;
                    run = i;
                }
                0..=0x1f => return None,
                _ => i += 1,
            }
        }
    }

    /// Reads a scalar token (string, number, `true`, `false`, `null`) as a [`Node`], exactly
    /// as the parser builds it from strict JSON.
    pub fn scalar(&mut self) -> Option<Node<'a>> {
        let first = self.peek()?;
        let start = self.pos;
        let kind = match first {
            b'"' => {
                let (text, span) = self.string()?;
                let quoting = Quoting::Double;
                return Some(Node::new(NodeKind::String(Str { text, quoting }), span));
            }
            b't' => self.word(b"true", NodeKind::Bool(true))?,
            b'f' => self.word(b"false", NodeKind::Bool(false))?,
            b'n' => self.word(b"null", NodeKind::Null)?,
            b'-' | b'0'..=b'9' => NodeKind::Number(self.number_token()?),
            _ => return None,
        };
        Some(Node::new(kind, Span::new(start, self.pos)))
    }

    #[inline]
    fn word<T>(&mut self, word: &[u8], kind: T) -> Option<T> {
        if self.bytes().get(self.pos..self.pos + word.len())? != word {
            return None;
        }
        self.pos += word.len();
        self.delimited()?;
        Some(kind)
    }

    /// A token must be followed by a delimiter: `truex` or `12ab` is not JSON.
    #[inline]
    fn delimited(&self) -> Option<()> {
        match self.bytes().get(self.pos) {
            None | Some(b',' | b']' | b'}' | b' ' | b'\n' | b'\r' | b'\t') => Some(()),
            _ => None,
        }
    }

    /// The number token at the cursor, as the parser reads it.
    fn number_token(&mut self) -> Option<crate::node::Number> {
        let start = self.pos;
        let negative = self.bytes()[start] == b'-';
        let int_start = start + usize::from(negative);
        let mut i = int_start;
        match self.bytes().get(i)? {
            b'0' => i += 1,
            b'1'..=b'9' => i = self.digits(i),
            _ => return None,
        }
        let int_end = i;
        let mut integer = true;
        if self.bytes().get(i) == Some(&b'.') {
            let end = self.digits(i + 1);
            if end == i + 1 {
                return None;
            }
            i = end;
            integer = false;
        }
        if let Some(b'e' | b'E') = self.bytes().get(i) {
            i += 1;
            if let Some(b'+' | b'-') = self.bytes().get(i) {
                i += 1;
            }
            let end = self.digits(i);
            if end == i {
                return None;
            }
            i = end;
            integer = false;
        }
        self.pos = i;
        self.delimited()?;
        Some(if integer {
            parse::number::integer(&self.text[int_start..int_end], negative)
        } else {
            // Past `f64`'s range (`1e400`): serde_json refuses it too, and the parser reads it
            // as `null` and logs why (unless serde_json keeps numbers as written).
            let float: f64 = self.text[start..i].parse().unwrap_or(f64::NAN);
            if cfg!(not(feature = "arbitrary_precision")) && !float.is_finite() {
                return None;
            }
            crate::node::Number::Float(float)
        })
    }

    #[inline]
    fn digits(&self, mut i: usize) -> usize {
        while let Some(b'0'..=b'9') = self.bytes().get(i) {
            i += 1;
        }
        i
    }

    /// Reads any value as a `serde_json::Value`, as [`Node::to_value`] builds it.
    pub(crate) fn json_value(&mut self) -> Option<serde_json::Value> {
        use serde_json::Value;
        Some(match self.peek()? {
            b'{' => {
                let mut map = serde_json::Map::new();
                self.object(|r, key| {
                    let value = r.json_value()?;
                    // A key written twice: the full path reads it, and reports the value it
                    // dropped.
                    map.insert(key.into_owned(), value).is_none().then_some(())
                })?;
                Value::Object(map)
            }
            b'[' => {
                let mut items = Vec::new();
                self.array(|r| {
                    items.push(r.json_value()?);
                    Some(())
                })?;
                Value::Array(items)
            }
            b'"' => Value::String(self.string()?.0.into_owned()),
            b't' | b'f' => Value::Bool(self.bool()?),
            b'n' => self.null().map(|()| Value::Null)?,
            _ => crate::node::number_value(self.number()?),
        })
    }

    /// Skips one value of any kind, checking that it is strict JSON.
    fn skip(&mut self) -> Option<()> {
        match self.peek()? {
            b'{' => self.object(|r, _| r.skip()),
            b'[' => self.array(Direct::skip),
            _ => self.scalar().map(drop),
        }
    }

    /// Reads the next value through a tree: the value's extent is checked to be strict
    /// JSON, that part alone is parsed into a [`Node`], and `read` runs on it. This is what
    /// [`Extract::read_direct`] does unless a type reads itself directly.
    pub fn by_node<T>(
        &mut self,
        read: impl FnOnce(&Node<'_>, &mut Context) -> Result<T, crate::coerce::Failed>,
    ) -> Option<T> {
        let node = match self.peek()? {
            b'{' | b'[' => {
                let start = self.pos;
                self.skip()?;
                let span = Span::new(start, self.pos);
                // The levels around the value count against the depth limit too.
                let room = self.limit.checked_sub(self.depth).filter(|r| *r > 0)?;
                let parsed =
                    parse::parse_span_with(self.text, span, room, RepairPaths::Skip).ok()?;
                if !parsed.repairs.is_empty() || parsed.end != span.end {
                    return None;
                }
                parsed.node
            }
            _ => self.scalar()?,
        };
        let value = read(&node, &mut self.cx).ok()?;
        self.clean().then_some(value)
    }
}

/// Reads `T` from the strict JSON value at the start of `span` in `text` (after spaces),
/// when only spaces follow it up to `span.end`: the value and its span. `None` sends the
/// caller down the full path.
pub(crate) fn read<T: Extract>(text: &str, span: Span, max_depth: usize) -> Option<(T, Span)> {
    let (value, span, _) = read_with(text, span, max_depth, &Given::new(None), false)?;
    Some((value, span))
}

/// [`read`], taking the value `given` holds if it was read from there, with the repairs and
/// coercions its reading made (none when read here); only that value when `given_only` (the
/// text is known not to be strict JSON).
pub(crate) fn read_with<T: Extract>(
    text: &str,
    span: Span,
    max_depth: usize,
    given: &Given<T>,
    given_only: bool,
) -> Option<(T, Span, Made)> {
    let mut r = Direct::new(text, span, max_depth);
    r.peek()?;
    let start = r.pos;
    if let Some((value, read, made)) = given.take(start) {
        let only_space = text
            .as_bytes()
            .get(read.end..span.end)
            .is_some_and(json_space_only);
        return only_space.then_some((value, read, made));
    }
    if given_only {
        return None;
    }
    let value = T::read_direct(&mut r)?;
    let end = r.pos;
    let only_space = text
        .as_bytes()
        .get(end..span.end)
        .is_some_and(json_space_only);
    (only_space && r.clean()).then_some((value, Span::new(start, end), Made::default()))
}

/// A value of `T` already read from the container at `span`: a [`Stream`](crate::Stream)'s,
/// built from its partial ([`Extract::from_partial`]), whose reader saw every token of that
/// text written as JSON writes it or with a repair of how it is written, which it logged as
/// the parser logs it (the repairs given). The direct path takes it instead of reading that
/// container again; everything else about the reading (where the value was found, the
/// candidates, the rest of the report) is the ordinary path's.
pub(crate) struct Given<T>(std::cell::RefCell<Option<GivenValue<T>>>);

/// What a [`Given`] holds: the container's span, the value, what reading it made.
pub(crate) type GivenValue<T> = (Span, T, Made);

/// What reading a value made besides the value: the repairs of its text, in the parser's
/// order, and the coercions, in the order `from_node` makes them.
#[derive(Debug, Default)]
pub(crate) struct Made {
    pub(crate) repairs: Vec<Repair>,
    pub(crate) coercions: Vec<Coercion>,
}

impl<T> Given<T> {
    pub(crate) fn new(value: Option<GivenValue<T>>) -> Self {
        Given(std::cell::RefCell::new(value))
    }

    /// Whether it holds a value not yet taken.
    pub(crate) fn is_pending(&self) -> bool {
        self.0.borrow().is_some()
    }

    /// Whether it holds a value read with repairs (not strict JSON).
    pub(crate) fn repaired(&self) -> bool {
        (self.0.borrow().as_ref()).is_some_and(|(.., made)| !made.repairs.is_empty())
    }

    /// The value, if not taken.
    pub(crate) fn into_inner(self) -> Option<GivenValue<T>> {
        self.0.into_inner()
    }

    /// The value, the container's span and what reading it made, if it was read from the
    /// container opening at `start` (taken once).
    pub(crate) fn take(&self, start: usize) -> Option<(T, Span, Made)> {
        let mut given = self.0.borrow_mut();
        given.as_ref().filter(|(span, ..)| span.start == start)?;
        let (span, value, made) = given.take()?;
        Some((value, span, made))
    }
}

/// Whether `bytes` are JSON whitespace only: what may follow a value in a candidate the direct
/// path reads.
pub(crate) fn json_space_only(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .all(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
}

/// Reads `T` from the strict JSON object or array that opens at `span.start` and closes before
/// `span.end`, whatever follows it: the value and the container's span (the value `given`
/// holds, if it was read from there). `None` when it is not strict JSON, does not fit `T`
/// without a coercion, or ends past `span.end`.
pub(crate) fn read_container<T: Extract>(
    text: &str,
    span: Span,
    max_depth: usize,
    given: &Given<T>,
) -> Option<(T, Span, Made)> {
    let closer = match text.as_bytes().get(span.start)? {
        b'{' => b'}',
        b'[' => b']',
        _ => return None,
    };
    if let Some((value, read, made)) = given.take(span.start) {
        return (read.end <= span.end).then_some((value, read, made));
    }
    let mut r = Direct::new(text, span, max_depth);
    let value = T::read_direct(&mut r)?;
    let end = r.pos;
    // The cursor moves on only through whole strict tokens: a reader that took the value
    // read the container opening here, which ends with its closer.
    let whole = end > span.start && end <= span.end && text.as_bytes()[end - 1] == closer;
    (whole && r.clean()).then_some((value, Span::new(span.start, end), Made::default()))
}
