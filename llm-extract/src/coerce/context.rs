//! The [`Extract`] trait and the [`Context`] a reading records into.
//!
//! The crate implements [`Extract`] for the std types a reply type is made of;
//! `#[derive(Extract)]` implements it for your own structs and enums.

use crate::error::{Category, Issue};
use crate::node::{Node, NodeKind};
use crate::path::{Path, Segment};
use crate::report::{Coercion, CoercionKind};
use crate::span::Span;

/// Marker returned by [`Extract::from_node`] when it failed; the reasons are in the [`Context`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Failed;

/// How lenient coercion is.
///
/// `Strict` concerns values: `"42"` is not an integer, `"yes"` is not a bool, a single value
/// is not a list. Key matching (normalized names, aliases) works in both modes, since
/// aliases are declared by the type itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Coerce where the meaning is clear (`"42"` into an integer, and so on).
    #[default]
    Lenient,
    /// Accept only values of the exact JSON type.
    Strict,
}

/// One step of the current path: a field name known at compile time (no allocation), a key
/// read from the input, or an index.
#[derive(Debug, Clone)]
enum Step {
    Field(&'static str),
    Key(String),
    Index(usize),
}

/// A point in a [`Context`]'s records to come back to when a reading is abandoned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    coercions: usize,
    issues: usize,
}

/// State carried through one extraction: the current path, the coercions made, the issues
/// found, and the coercion mode.
///
/// ```
/// use llm_extract::coerce::{Context, Extract, Node};
/// let node = Node::from_value(&serde_json::json!("42"));
/// let mut cx = Context::new();
/// assert_eq!(u8::from_node(&node, &mut cx), Ok(42));
/// assert_eq!(cx.coercions().len(), 1); // "42" was a string
/// ```
#[derive(Debug, Default)]
pub struct Context {
    /// The path as a stack; a `Path` is built only when a record needs one, so walking a
    /// clean document allocates nothing for paths.
    path: Vec<Step>,
    coercions: Vec<Coercion>,
    issues: Vec<Issue>,
    mode: Mode,
    /// Readings tried so far (untagged enums) for the outermost choice being made; bounded
    /// so nested choices stay polynomial.
    readings: u32,
    /// How many untagged readings are in progress around the current one. A choice made
    /// where none is (a list's items, a struct's fields) starts with a fresh budget.
    choosing: u32,
    /// Addresses of the nodes being read again as something else (a single value as a list,
    /// a bare value as a struct's field). A recursive type would otherwise wrap the same node
    /// forever.
    wraps: Vec<usize>,
    /// How much of the type the input matched: fields found, items and entries read,
    /// variants named (abandoned readings included). When no candidate fits, the one that
    /// matched most is the one whose issues are reported.
    matched: u32,
    /// Whether coercions record their path (not when the report is dropped: `from_str`).
    skip_coercion_paths: bool,
    /// The values the reply was cut off inside (the root and, inward, each last member still
    /// open when the text ended), by span, each with whether it is a container; empty when the
    /// value was complete. An issue about one of them is a failure of the cut,
    /// [`Category::Incomplete`].
    cut: Vec<(Span, bool)>,
    /// The next variant name read is a tool's name in a call an agent will run: it must be
    /// written as a name and match exactly, after normalization or by alias (see
    /// `variants::tool_variant`). Set by the tool-call reader, used once.
    tool_name: bool,
    /// The text the nodes' spans point into and its offset in the original, so a
    /// `serde_json::Value` target keeps numbers as written (feature `arbitrary_precision`).
    #[cfg(feature = "arbitrary_precision")]
    source: Option<(Box<str>, usize)>,
    /// The extractor's depth limit, for documents decoded out of strings (`None`: the
    /// default limit).
    max_depth: Option<usize>,
}

/// The path segment of one step.
fn segment(step: &Step) -> Segment {
    match step {
        Step::Field(name) => Segment::Key((*name).to_string()),
        Step::Key(key) => Segment::Key(key.clone()),
        Step::Index(i) => Segment::Index(*i),
    }
}

/// How many times one node may be wrapped inside itself (`5` as `[[5]]` is two).
pub(crate) const MAX_WRAPS_PER_NODE: usize = 2;

/// Most readings one outermost untagged value may try, across the untagged enums nested in
/// it. Nested untagged enums whose readings all fail deep down would otherwise be tried
/// exponentially often. Each value that is not inside another untagged reading (each item of
/// a list of untagged values, say) has its own budget: the readings of a document stay
/// linear in its size, and a long list of them all reads.
pub(crate) const MAX_READINGS: u32 = 10_000;

impl Context {
    /// A fresh context at the root path.
    pub fn new() -> Context {
        Context::default()
    }

    /// A fresh context for reading `root`, a tree parsed from `text`: an issue about a value
    /// the reply was cut off inside is [`Category::Incomplete`]. With the feature
    /// `arbitrary_precision`, [`Context::json_value`] gives numbers as written (the spanned
    /// text is copied).
    pub(crate) fn reading(text: &str, root: &Node<'_>, max_depth: usize) -> Context {
        Context {
            cut: cut_values(root),
            max_depth: Some(max_depth),
            ..Context::source(text, root.span)
        }
    }

    /// The depth limit a document decoded out of a string is parsed with: the extractor's.
    pub(crate) fn max_depth(&self) -> usize {
        self.max_depth.unwrap_or(crate::settings::DEFAULT_MAX_DEPTH)
    }

    /// Reads with the extractor's depth limit `max_depth` (see [`Context::max_depth`]).
    pub(crate) fn set_max_depth(&mut self, max_depth: usize) {
        self.max_depth = Some(max_depth);
    }

    /// A fresh context for reading the complete value at `span` in `text` (see
    /// [`Context::reading`]).
    pub(crate) fn source(text: &str, span: Span) -> Context {
        #[cfg(feature = "arbitrary_precision")]
        {
            let source = text
                .get(span.start..span.end)
                .map(|t| (Box::from(t), span.start));
            Context {
                source,
                ..Context::default()
            }
        }
        #[cfg(not(feature = "arbitrary_precision"))]
        {
            let _ = (text, span);
            Context::default()
        }
    }

    /// `node` as a `serde_json::Value` (what a `Value` target reads). With the feature
    /// `arbitrary_precision` and a context made for the text the node was parsed from,
    /// numbers are exactly as written (`1e400`, integers beyond `u64`); otherwise as
    /// [`Node::to_value`] gives them.
    pub fn json_value(&self, node: &Node<'_>) -> serde_json::Value {
        #[cfg(feature = "arbitrary_precision")]
        if let Some((text, offset)) = &self.source {
            return node.to_value_in(text, *offset);
        }
        node.to_value()
    }

    /// [`Context::json_value`], recording a [`CoercionKind::DuplicateKey`] at each key written
    /// again in an object (the later value replaced the earlier, as in `serde_json`): what a
    /// `Value` target reads, so that the report says which member was dropped.
    pub(crate) fn json_value_noting(&mut self, node: &Node<'_>) -> serde_json::Value {
        let mut duplicates = Vec::new();
        #[cfg(feature = "arbitrary_precision")]
        let source = self
            .source
            .as_ref()
            .map(|(text, offset)| (&**text, *offset));
        #[cfg(not(feature = "arbitrary_precision"))]
        let source = None;
        let value = node.to_value_noting(source, &mut duplicates);
        for (below, span) in duplicates {
            self.coerce_below(CoercionKind::DuplicateKey, below, span);
        }
        value
    }

    /// A fresh context with `mode` in force.
    pub fn with_mode_set(mode: Mode) -> Context {
        Context {
            mode,
            ..Context::default()
        }
    }

    /// The path of the value being extracted.
    pub fn path(&self) -> Path {
        self.path.iter().map(segment).collect()
    }

    /// The coercion mode in force.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Whether lenient coercion is allowed here.
    #[inline]
    pub fn lenient(&self) -> bool {
        self.mode == Mode::Lenient
    }

    /// Runs `f` with `mode` in force, then restores the previous mode.
    pub fn with_mode<R>(&mut self, mode: Mode, f: impl FnOnce(&mut Context) -> R) -> R {
        let saved = std::mem::replace(&mut self.mode, mode);
        let out = f(self);
        self.mode = saved;
        out
    }

    /// Runs `f` one level deeper, at `segment`.
    ///
    /// This and the other ways one level deeper ([`Context::at_field`],
    /// [`Context::at_index`]) are where a recursive type's reader checks the call stack: when
    /// it runs low, `f` runs on a stack segment allocated on the heap, so input nested as deep
    /// as `max_depth` allows is read without overflowing, whatever the thread's stack size.
    #[inline]
    pub fn at<R>(&mut self, segment: Segment, f: impl FnOnce(&mut Context) -> R) -> R {
        self.path.push(match segment {
            Segment::Key(key) => Step::Key(key),
            Segment::Index(i) => Step::Index(i),
        });
        let out = crate::deep::grow(|| f(self));
        self.path.pop();
        out
    }

    /// Runs `f` one level deeper, at the field `name` (no allocation unless a record is made).
    #[inline]
    pub fn at_field<R>(&mut self, name: &'static str, f: impl FnOnce(&mut Context) -> R) -> R {
        self.path.push(Step::Field(name));
        let out = crate::deep::grow(|| f(self));
        self.path.pop();
        out
    }

    /// Runs `f` one level deeper, at array index `index`.
    #[inline]
    pub fn at_index<R>(&mut self, index: usize, f: impl FnOnce(&mut Context) -> R) -> R {
        self.path.push(Step::Index(index));
        let out = crate::deep::grow(|| f(self));
        self.path.pop();
        out
    }

    /// Records a coercion at the current path, at its kind's [cost](CoercionKind::cost).
    pub fn coerce(&mut self, kind: CoercionKind, span: Span) {
        self.coerce_below(kind, Vec::new(), span);
    }

    /// [`Context::coerce`] at `below`, a path under the current one.
    fn coerce_below(&mut self, kind: CoercionKind, below: Vec<Segment>, span: Span) {
        // Without paths, a coercion keeps its path's first step: whether it is at the root is
        // what the choice between readings asks of one (a single value read as a whole list).
        let path = if self.skip_coercion_paths {
            let first_below = usize::from(self.path.is_empty());
            (self.path.first().map(segment).into_iter())
                .chain(below.into_iter().take(first_below))
                .collect()
        } else {
            self.path.iter().map(segment).chain(below).collect()
        };
        self.coercions.push(Coercion {
            cost: kind.cost(),
            kind,
            path,
            span,
        });
    }

    /// Coercions are recorded with their path's first step only (enough to say whether they
    /// are at the root): for a reading whose report is dropped (`from_str`), where building a path per
    /// coercion is wasted work (and, through nested wrappers, work that grows with the square
    /// of the depth).
    pub(crate) fn skip_coercion_paths(&mut self) {
        self.skip_coercion_paths = true;
    }

    /// Records an issue at the current path and returns [`Failed`] for convenience.
    ///
    /// An issue about a value the reply was cut off inside (its span is the value's) is
    /// recorded as [`Category::Incomplete`], saying so: the value could not be judged.
    pub fn fail(&mut self, category: Category, message: impl Into<String>, span: Span) -> Failed {
        let issue = Issue::new(category, self.path(), message).at(span);
        self.push_issue(issue);
        Failed
    }

    /// Records a type mismatch at the current path: what was expected, what was found.
    ///
    /// A scalar the reply was cut off inside (`"PEN`, `tr`, a key whose value never came)
    /// is [`Category::Incomplete`]; a container of another kind is the wrong type whether or
    /// not it was finished.
    pub fn mismatch(&mut self, expected: &str, node: &Node<'_>) -> Failed {
        let cut = self.cut.contains(&(node.span, false));
        let (category, message) = match (&node.kind, cut) {
            (NodeKind::Null, true) => (
                Category::Incomplete,
                "the reply was cut off before this value",
            ),
            (_, true) => (Category::Incomplete, CUT_OFF),
            (_, false) => (Category::Type, "wrong type"),
        };
        let issue = Issue::new(category, self.path(), message)
            .expected(expected)
            .found(describe(node))
            .at(node.span);
        self.issues.push(issue);
        Failed
    }

    /// Records a fully built issue; one about a value the reply was cut off inside is
    /// [`Category::Incomplete`] (see [`Context::fail`]). A type error at a container cut off
    /// keeps its category: whether more items would have fixed it is the caller's to say
    /// (see `Context::wrong_length`).
    pub fn push_issue(&mut self, mut issue: Issue) {
        let cut = issue.span.and_then(|span| {
            self.cut
                .iter()
                .find(|(s, _)| *s == span)
                .map(|(_, container)| *container)
        });
        let caused = match (issue.category, cut) {
            (_, None) => false,
            (Category::Type, Some(container)) => !container,
            (Category::Variant | Category::Validation | Category::Missing, Some(_)) => true,
            _ => false,
        };
        if caused {
            issue.category = Category::Incomplete;
            issue.message = format!("{}: {CUT_OFF}", issue.message);
        }
        self.issues.push(issue);
    }

    /// Records that the list `node` has `found` items where `expected` are needed (a tuple,
    /// an array): [`Category::Incomplete`] when it has too few because the reply was cut off
    /// inside it, else a type error.
    pub(crate) fn wrong_length(
        &mut self,
        expected: usize,
        found: usize,
        node: &Node<'_>,
    ) -> Failed {
        let message = format!("expected an array of {expected} items, found {found}");
        if found < expected && self.cut.contains(&(node.span, true)) {
            let issue = Issue::new(
                Category::Incomplete,
                self.path(),
                format!("{message}: {CUT_OFF}"),
            );
            self.issues.push(issue.at(node.span));
            return Failed;
        }
        self.fail(Category::Type, message, node.span)
    }

    /// The issues recorded so far.
    pub fn issues(&self) -> &[Issue] {
        &self.issues
    }

    /// The coercions recorded so far.
    pub fn coercions(&self) -> &[Coercion] {
        &self.coercions
    }

    /// Total cost of the coercions recorded so far.
    pub fn cost(&self) -> u32 {
        self.coercions.iter().map(|c| c.cost).sum()
    }

    /// A checkpoint to roll back to when a reading is abandoned (untagged enums, `catch`).
    #[inline]
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            coercions: self.coercions.len(),
            issues: self.issues.len(),
        }
    }

    /// Whether issues were recorded since `checkpoint`.
    #[inline]
    pub fn failed_since(&self, checkpoint: Checkpoint) -> bool {
        self.issues.len() > checkpoint.issues
    }

    /// Total cost of the coercions recorded since `checkpoint`.
    pub fn cost_since(&self, checkpoint: Checkpoint) -> u32 {
        self.coercions
            .get(checkpoint.coercions..)
            .unwrap_or_default()
            .iter()
            .map(|c| c.cost)
            .sum()
    }

    /// Forgets everything recorded since `checkpoint`.
    pub fn rollback(&mut self, checkpoint: Checkpoint) {
        self.coercions.truncate(checkpoint.coercions);
        self.issues.truncate(checkpoint.issues);
    }

    /// Removes and returns the coercions and issues recorded since `checkpoint`.
    pub fn take_since(&mut self, checkpoint: Checkpoint) -> (Vec<Coercion>, Vec<Issue>) {
        let coercions = self
            .coercions
            .split_off(checkpoint.coercions.min(self.coercions.len()));
        let issues = self
            .issues
            .split_off(checkpoint.issues.min(self.issues.len()));
        (coercions, issues)
    }

    /// Appends coercions taken earlier with [`Context::take_since`].
    pub fn restore(&mut self, coercions: Vec<Coercion>) {
        self.coercions.extend(coercions);
    }

    /// Runs `read` with `node` re-read as something that contains it, unless it is already
    /// wrapped too often; `None` then.
    pub(crate) fn wrapping<R>(
        &mut self,
        node: &Node<'_>,
        read: impl FnOnce(&mut Context) -> R,
    ) -> Option<R> {
        if !self.can_wrap(node) {
            return None;
        }
        let address = node as *const Node<'_> as usize;
        self.wraps.push(address);
        let out = crate::deep::grow(|| read(self));
        self.wraps.pop();
        Some(out)
    }

    /// Whether `node` may be wrapped once more (see [`Context::wrapping`]).
    pub(crate) fn can_wrap(&self, node: &Node<'_>) -> bool {
        let address = node as *const Node<'_> as usize;
        self.wraps.iter().filter(|a| **a == address).count() < MAX_WRAPS_PER_NODE
    }

    /// The next enum variant read names the tool of a call: matched strictly (see
    /// `variants::tool_variant`), once.
    pub(crate) fn expect_tool_name(&mut self) {
        self.tool_name = true;
    }

    /// Whether the variant being read names the tool of a call (and from now on, none does).
    pub(crate) fn take_tool_name(&mut self) -> bool {
        std::mem::take(&mut self.tool_name)
    }

    /// How many steps deep the current path is (`$` is 0).
    pub(crate) fn depth(&self) -> usize {
        self.path.len()
    }

    /// Notes that one more part of the type was matched (see [`Context::matched`]). A
    /// hand-written [`Extract`] impl that reads an object by its keys calls it
    /// for each key it recognizes: a reading that matched nothing and ignored keys
    /// ([`CoercionKind::UnknownKey`]) is taken for an unrelated value, which loses to any other
    /// value of the reply, and the failure reported when nothing fits is the one of the
    /// reading that matched most.
    ///
    /// ```
    /// use llm_extract::coerce::Context;
    /// let mut cx = Context::new();
    /// cx.note_match();
    /// assert_eq!(cx.matched(), 1);
    /// ```
    #[inline]
    pub fn note_match(&mut self) {
        self.matched = self.matched.saturating_add(1);
    }

    /// How many parts of the type the input matched so far: fields found by their keys,
    /// list items and map entries read, enum variants named. Abandoned readings count too:
    /// this measures how far a reading got, for choosing which failure to report.
    pub fn matched(&self) -> u32 {
        self.matched
    }

    /// Starts an untagged choice: outside any other, with a fresh budget of readings.
    pub(crate) fn start_choice(&mut self) {
        if self.choosing == 0 {
            self.readings = 0;
        }
    }

    /// Runs one reading of an untagged choice (see [`Context::start_choice`]).
    pub(crate) fn choosing<R>(&mut self, read: impl FnOnce(&mut Context) -> R) -> R {
        self.choosing += 1;
        let out = read(self);
        self.choosing -= 1;
        out
    }

    /// Counts one more reading tried; `false` once the budget of readings is spent.
    pub(crate) fn try_reading(&mut self) -> bool {
        self.readings = self.readings.saturating_add(1);
        self.readings <= MAX_READINGS
    }

    /// The coercions and issues, consuming the context.
    pub fn into_parts(self) -> (Vec<Coercion>, Vec<Issue>) {
        (self.coercions, self.issues)
    }
}

/// What an issue about a value the reply was cut off inside says.
const CUT_OFF: &str = "the reply was cut off inside this value";

/// The spans of the values the text ended inside: `root` when it was cut off, then its last
/// member while that was cut off too (the parser closes what is open from the innermost out,
/// so only a last member can be unfinished).
fn cut_values(root: &Node<'_>) -> Vec<(Span, bool)> {
    let mut cut = Vec::new();
    let mut node = root;
    while !node.complete {
        let container = matches!(node.kind, NodeKind::Array(_) | NodeKind::Object(_));
        cut.push((node.span, container));
        let last = match &node.kind {
            NodeKind::Array(items) => items.last(),
            NodeKind::Object(entries) => entries.last().map(|e| &e.value),
            _ => None,
        };
        match last {
            Some(last) => node = last,
            None => break,
        }
    }
    cut
}

/// A short description of a node for messages: `"abc"` for strings, `42` for numbers, the
/// type for containers.
pub(crate) fn describe(node: &Node<'_>) -> String {
    match &node.kind {
        NodeKind::Null => "null".to_string(),
        NodeKind::Bool(b) => b.to_string(),
        NodeKind::Number(n) => crate::coerce::number_to_string(*n),
        NodeKind::String(s) => {
            let short = crate::error::shorten(&s.text, 40);
            format!("{short:?}")
        }
        NodeKind::Array(items) if items.len() == 1 => "an array of 1 item".to_string(),
        NodeKind::Array(items) => format!("an array of {} items", items.len()),
        NodeKind::Object(entries) if entries.len() == 1 => "an object with 1 key".to_string(),
        NodeKind::Object(entries) => format!("an object with {} keys", entries.len()),
    }
}

/// A type that can be extracted leniently from a parsed [`Node`].
///
/// Implemented by `#[derive(Extract)]` for your own types and by this crate for the std types
/// a reply type is made of.
///
/// ```
/// #[derive(llm_extract::Extract, Debug, PartialEq)]
/// struct Score {
///     value: u32,
/// }
/// let s: Score = llm_extract::from_str("{'Value': '42'}").unwrap();
/// assert_eq!(s, Score { value: 42 });
/// ```
pub trait Extract: Sized {
    /// What a [`Stream`](crate::Stream) shows of this type while the reply arrives (see
    /// [`crate::stream`]). `#[derive(Extract)]` generates a partial twin (`FooPartial`, every
    /// field optional); the crate's types use [`PartialString`](crate::stream::PartialString),
    /// [`PartialList`](crate::stream::PartialList), `Self` for numbers and bools (shown once
    /// complete), and so on. A hand-written impl that does not stream names
    /// [`NoPartial`](crate::stream::NoPartial).
    type Partial: crate::stream::PartialValue;

    /// Builds a value from `node`, recording coercions and issues in `cx`.
    ///
    /// Returns `Err(Failed)` when no value can be built; the reasons are then in `cx`.
    /// A value returned while `cx` gained issues (a failed validation rule) is not accepted
    /// by the entry points either.
    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed>;

    /// Whether a reply with no JSON-like value in it may be read as this type, as plain text
    /// (a `String` takes the text, a number the number in `about 3.5 stars`, an enum the
    /// variant named in a sentence). `serde_json::Value` says no: any text would fit it, and
    /// "no JSON found" is the better answer.
    const FROM_PROSE: bool = true;

    /// Whether [`Extract::from_partial_repeated`] takes an object with a key written twice as
    /// the ordinary read does, and that read records exactly one
    /// [`CoercionKind::DuplicateKey`](crate::CoercionKind::DuplicateKey) per member written
    /// with a key its object had before (at the member's path, spanning the later key), in
    /// the order the members end, and no other coercion: then a stream notes such keys, and
    /// builds the value and those coercions itself. `serde_json::Value` does. Not for
    /// implementations outside the crate.
    #[doc(hidden)]
    const REPEATED_KEYS_FROM_PARTIAL: bool = false;

    /// The value for an absent field, if the type has one (`Option` gives `None`).
    fn from_missing() -> Option<Self> {
        None
    }

    /// Reads the value straight from strict JSON text (the direct path, see
    /// [`Direct`](crate::coerce::Direct)), or `None` to have the whole document read on the
    /// full path instead.
    ///
    /// There is no need to implement this: the default reads the value's extent into a
    /// [`Node`] and calls [`Extract::from_node`], which is always right. `#[derive(Extract)]`
    /// and the crate's impls for lists, maps, `Option` and pointers implement it to skip the
    /// tree. An implementation must give exactly what `from_node` gives on the same JSON
    /// when that records no coercion and no issue, and `None` in every other case.
    #[inline]
    fn read_direct(reader: &mut crate::coerce::Direct<'_>) -> Option<Self> {
        reader.by_node(Self::from_node)
    }

    /// The value a [`Stream`](crate::Stream)'s partial holds once the reply is complete, so
    /// that [`Stream::finish`](crate::Stream::finish) need not read the reply again; `None`
    /// to have it read on the ordinary path instead.
    ///
    /// There is no need to implement this: the default is `None`, which is always right.
    /// `#[derive(Extract)]` (structs, enums of unit variants) and the crate's impls for
    /// numbers, strings, lists, `Option`, pointers and `serde_json::Value` implement it. The stream asks only when the value's text was strict JSON and
    /// streaming it recorded no coercion, no issue and nothing the partial could not take
    /// (see `Feed::lenient`); an implementation must then give exactly what
    /// [`Extract::read_direct`] gives on that JSON, and `None` where that would be `None`
    /// (a key not written as the field's name, a field left to its default, ...).
    #[inline]
    fn from_partial(partial: &Self::Partial) -> Option<Self> {
        let _ = partial;
        None
    }

    /// [`Extract::from_partial`] of a value in which the stream saw keys written twice in an
    /// object (see [`Extract::REPEATED_KEYS_FROM_PARTIAL`]). Not for implementations outside
    /// the crate.
    #[doc(hidden)]
    #[inline]
    fn from_partial_repeated(partial: &Self::Partial) -> Option<Self> {
        let _ = partial;
        None
    }
}
