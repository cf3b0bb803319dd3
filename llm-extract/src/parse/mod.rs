//! The `parse` stage: a tolerant, one-pass JSON parser yielding a [`Node`] tree and the
//! [`Repair`]s it made.
//!
//! The parser is a state machine over an explicit stack of open containers, never recursion:
//! no input can overflow the call stack (the depth limit is a policy, not a crash guard), and
//! truncated input is closed by draining the stack in order. Every deviation from JSON is
//! handled inside the same pass and logged with its byte span; valid JSON goes through the
//! same code and comes out equal to what `serde_json` reads, with no repair reported.
//!
//! ```
//! use llm_extract::__internal::parse;
//! let parsed = parse("{name: 'Ada', langs: ['en', 'fr',], // comment\n ok: True", 128).unwrap();
//! assert_eq!(parsed.node.to_value(), serde_json::json!({"name": "Ada", "langs": ["en", "fr"], "ok": true}));
//! assert!(!parsed.node.complete); // the closing brace was missing
//! ```

mod balance;
mod bare;
mod build;
mod closer;
pub(crate) mod number;
pub(crate) mod space;
mod string;
mod triple;

pub(crate) use balance::most_net;
use balance::Profile;
pub(crate) use bare::Ahead;
use build::{Build, Json, Tree};
pub(crate) use closer::{
    closer_as_written, ends_alone, parser_end, read_on, read_value, root_may_read_on, Closer, Keep,
    Kept, Read,
};
pub(crate) use string::{
    comment_then_separator_in, key_so_far, members_start, own_quote_on_key_line, starts_word,
    value_string, ValueString, KEY_LOOKAHEAD,
};
pub(crate) use triple::{code_block_body, code_block_end, code_block_text, CodeEnd};

/// How long the info string of a value written as a code block may be (```` ```ts main.ts ````).
pub(crate) const FENCE_INFO: usize = 256;
use closer::KeySample;

use crate::error::{Category, Error, Issue};
use crate::lex::{self, Comment};
use crate::node::{Node, NodeKind, Quoting, Str};
use crate::path::{Path, PlaceCache, Segment};
use crate::report::{Repair, RepairKind};
use crate::span::Span;
use std::borrow::Cow;

/// The result of parsing one value.
#[derive(Debug, Clone)]
pub struct Parsed<'a> {
    /// The value.
    pub node: Node<'a>,
    /// What was repaired, in the order found.
    pub repairs: Vec<Repair>,
    /// Byte offset just after the value (where a following value could start).
    pub end: usize,
}

impl Parsed<'_> {
    /// The parsed value with everything borrowed from the input copied.
    pub fn into_owned(self) -> Parsed<'static> {
        Parsed {
            node: self.node.into_owned(),
            repairs: self.repairs,
            end: self.end,
        }
    }
}

/// Strict JSON through serde_json: `Some` only when `text` is exactly one valid JSON document
/// (surrounding whitespace allowed) nested no deeper than `max_depth`. This is the fast path
/// for valid input; the tolerant parser yields the same value for it.
pub(crate) fn strict(text: &str, max_depth: usize) -> Option<serde_json::Value> {
    let first = text.bytes().find(|b| !b.is_ascii_whitespace())?;
    if !matches!(
        first,
        b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n'
    ) {
        return None;
    }
    // A container must end with its closer; a reply cut off fails here in O(1) instead of
    // after serde_json has read all of it.
    let last = text.bytes().rev().find(|b| !b.is_ascii_whitespace());
    match (first, last) {
        (b'{', Some(b'}')) | (b'[', Some(b']')) => {}
        (b'{' | b'[', _) => return None,
        _ => {}
    }
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    // A document that is a string holding a JSON object or array was encoded twice; a string
    // holding anything else (`"{not json}"`) is returned unchanged.
    let value = match &value {
        serde_json::Value::String(inner) if inner.trim_start().starts_with(['{', '[']) => {
            serde_json::from_str(inner).unwrap_or(value)
        }
        _ => value,
    };
    // serde_json stops at depth 128 by itself; a lower limit is checked here.
    if max_depth < 128 && depth_exceeds(&value, max_depth) {
        return None;
    }
    Some(value)
}

fn depth_exceeds(value: &serde_json::Value, max_depth: usize) -> bool {
    let mut stack = vec![(value, 0usize)];
    while let Some((v, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &serde_json::Value>> = match v {
            serde_json::Value::Array(a) => Box::new(a.iter()),
            serde_json::Value::Object(o) => Box::new(o.values()),
            _ => continue,
        };
        if depth + 1 > max_depth {
            return true;
        }
        stack.extend(children.map(|c| (c, depth + 1)));
    }
    false
}

/// Parses the first value in `text`, tolerating what models get wrong.
///
/// Leading text before the first value is not skipped: `text` should start at (or a little
/// before) the value, as the locate stage arranges.
pub fn parse(text: &str, max_depth: usize) -> Result<Parsed<'_>, Error> {
    parse_span(text, Span::new(0, text.len()), max_depth)
}

/// Parses the value that starts at `span.start` of `text` without reading past `span.end`.
/// Spans in the result are offsets into `text`.
pub fn parse_span(text: &str, span: Span, max_depth: usize) -> Result<Parsed<'_>, Error> {
    parse_span_with(text, span, max_depth, RepairPaths::Record)
}

/// Whether repairs carry the JSON path where they happened (building paths costs an
/// allocation per repair; callers that only rank readings by cost skip it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RepairPaths {
    Record,
    Skip,
}

pub(crate) fn parse_span_with(
    text: &str,
    span: Span,
    max_depth: usize,
    paths: RepairPaths,
) -> Result<Parsed<'_>, Error> {
    let done = run::<Tree>(text, span, max_depth, paths)?;
    Ok(Parsed {
        end: done.end.max(done.value.span.end),
        node: done.value,
        repairs: done.repairs,
    })
}

/// The value starting at `span.start`, built directly as a `serde_json::Value` (the same value
/// [`parse_span`] then [`Node::to_value`] give), with its repairs (without paths).
pub(crate) fn parse_value_span(
    text: &str,
    span: Span,
    max_depth: usize,
) -> Result<ParsedValue, Error> {
    let done = run::<Json>(text, span, max_depth, RepairPaths::Skip)?;
    Ok(ParsedValue {
        complete: !done.repairs.iter().any(|r| r.kind.is_truncation()),
        value: done.value,
        repairs: done.repairs,
        end: done.end,
    })
}

/// A value parsed straight into a `serde_json::Value`.
pub(crate) struct ParsedValue {
    pub value: serde_json::Value,
    pub repairs: Vec<Repair>,
    pub end: usize,
    /// `false` when the input ended inside the value.
    pub complete: bool,
}

/// A finished document.
struct Done<V> {
    value: V,
    repairs: Vec<Repair>,
    end: usize,
}

fn run<'a, B: Build<'a>>(
    text: &'a str,
    span: Span,
    max_depth: usize,
    paths: RepairPaths,
) -> Result<Done<B::Value>, Error> {
    Parser::<B>::new(text, span, max_depth, paths)
        .run()
        .map_err(|e| e.with_positions(text))
}

impl<'a, B: Build<'a>> Parser<'a, B> {
    fn new(text: &'a str, span: Span, max_depth: usize, paths: RepairPaths) -> Self {
        let end = span.end.min(text.len());
        let start = span.start.min(end);
        Parser {
            text,
            bytes: text.as_bytes(),
            pos: start,
            end,
            max_depth,
            repairs: Vec::new(),
            stack: Vec::new(),
            room: Vec::new(),
            backtrack_budget: end - start,
            open_objects: 0,
            paths,
            profile: None,
            profile_budget: (end - start).saturating_mul(2),
            excess_closers: None,
            stray_run: None,
            closer_plan: None,
            list_goes_on: None,
            fit_paid_at: None,
            start,
            line_end_seen: None,
            closer_run: None,
            read_back_from: 0,
            frames_moved: 0,
            path_cache: PlaceCache::default(),
        }
    }
}

/// The step a container adds to the path of the value being read inside it: the index of
/// an array's next item, an object's key once read.
fn step<'a, B: Build<'a>>(frame: &Frame<'a, B>) -> Option<Segment> {
    match frame {
        Frame::Array { items, .. } => Some(Segment::Index(items.len())),
        Frame::Object { key: None, .. } => None,
        Frame::Object {
            key: Some((k, _)), ..
        } => Some(Segment::Key(k.text.to_string())),
    }
}

/// Where a string or bare word is being read; it decides which characters end it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// The top-level value.
    Root,
    /// An object key.
    Key,
    /// A value inside an object.
    ObjectValue,
    /// A value inside an array.
    ArrayValue,
}

/// The fewest members an object is given room for (see [`Parser::new_entries`]).
const OBJECT_ROOM: usize = 4;
/// The members the first object at a depth is given room for.
const FIRST_OBJECT_ROOM: usize = 8;

enum Frame<'a, B: Build<'a>> {
    Array {
        start: usize,
        items: Vec<B::Value>,
        after_comma: Option<usize>,
        /// The byte that closes it besides `]`: `)` for a tuple, `}` for a set.
        alt_closer: Option<u8>,
        /// The first keys of its last item, when that is an object.
        last_object_keys: Option<KeySample>,
    },
    Object {
        start: usize,
        entries: B::Object,
        key: Option<(Str<'a>, Span)>,
        after_comma: Option<usize>,
        /// Its first keys, to tell the next object's members from its own.
        first_keys: KeySample,
        /// Whether it holds a member written with a key and a value.
        members: bool,
    },
}

/// What a state of the parser did with a byte: go on in some state, or the document is done.
enum Step<V> {
    Next(Expect),
    Done(Done<V>),
}

/// What the parser expects next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// A value (at the root, after `[`, after `,` in an array, after `:`).
    Value,
    /// A key or `}`.
    Key,
    /// The `:` after a key.
    Colon,
    /// `,` or a closing bracket after a value.
    Separator,
}

pub(crate) struct Parser<'a, B: Build<'a>> {
    pub(crate) text: &'a str,
    pub(crate) bytes: &'a [u8],
    pub(crate) pos: usize,
    pub(crate) end: usize,
    max_depth: usize,
    pub(crate) repairs: Vec<Repair>,
    stack: Vec<Frame<'a, B>>,
    /// At each depth, how many members the last object that ended there had: the room an
    /// object opened there is given (see [`Parser::new_entries`]).
    room: Vec<usize>,
    /// Bytes that strings may still re-read when they go back to an earlier quote; bounds
    /// that work to the input length.
    pub(crate) backtrack_budget: usize,
    /// How many objects are open, so a `}` with none to close is found stray in O(1).
    open_objects: usize,
    paths: RepairPaths,
    /// The bracket profile of the rest of the input, built when a damaged closer first needs
    /// it (see [`balance`]).
    profile: Option<Profile>,
    /// Bytes that rebuilding the profile may still read; keeps that work linear.
    profile_budget: usize,
    /// Whether the text holds more closers than openers, once asked.
    excess_closers: Option<bool>,
    /// Where a run of closers read as stray lies (`[from, until)`), decided at its first.
    stray_run: Option<(usize, usize)>,
    /// A run of closers read as a whole at its first (`[from, until)`): those at the positions
    /// listed are stray, the others close the innermost container, each of its kind
    /// (`[1, 84]]}` in a list of objects: the second `]` is stray, the `}` closes).
    closer_plan: Option<(usize, usize, Vec<usize>)>,
    /// The `[` of a list that goes on the list before it (`"k": ["a"], ["b"]` in an object),
    /// found when that list's `]` was read as stray: skipped when reached.
    list_goes_on: Option<usize>,
    /// Where the readings of the rest by kind were last paid for.
    fit_paid_at: Option<usize>,
    /// Where parsing started.
    start: usize,
    /// The last line break searched for: `(from, at)`, no break in `from..at`.
    line_end_seen: Option<(usize, usize)>,
    /// A run of closers found to run past the lookahead: `(from, until)`, only closers and
    /// what lies between them in `from..until` (see `closer::following`).
    closer_run: Option<(usize, usize)>,
    /// The furthest a string's scan read before it ended the string at a quote it had
    /// passed over (`Parser::end_at_rejected`): what decided that lies there.
    read_back_from: usize,
    /// Counts the frames opened and closed, so that [`Parser::path`] knows when the
    /// containers around the value being read changed.
    frames_moved: u64,
    /// The last paths [`Parser::path`] built, shared by the repairs made there.
    path_cache: PlaceCache<u64>,
}

/// Repairs deeper than this carry the path of their ancestor at this depth, which keeps
/// logging linear however far `max_depth` is raised.
pub(crate) const MAX_REPAIR_PATH: usize = 256;

/// Whether a scalar token (number or literal) may end just before `i`: at the end, or at a
/// delimiter. A `/` delimits only when it starts a comment, so `1/3` stays one token.
pub(crate) fn token_ends_at(bytes: &[u8], i: usize, end: usize) -> bool {
    if i >= end {
        return true;
    }
    match bytes[i] {
        b'"' => {
            // `12345", `: a stray quote closing a token whose opening quote is missing.
            let limit = (i + 1 + string::KEY_LOOKAHEAD).min(end);
            let next = space::skip_space(bytes, i + 1, limit);
            next >= end || (next < limit && matches!(bytes[next], b',' | b'}' | b']'))
        }
        b'/' => crate::lex::comment_opener(&bytes[i..end]).is_some(),
        b if crate::lex::may_start_unicode_space(b) => {
            crate::lex::unicode_space_len(&bytes[i..end]) > 0
                || crate::lex::fullwidth_separator(&bytes[i..end]).is_some()
        }
        b => is_delimiter(b),
    }
}

/// The offset in `text` of its first `}` or `]` that no `{` or `[` before it in `text` opened.
pub(crate) fn first_unopened_closer(text: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in text.iter().enumerate() {
        match b {
            b'{' | b'[' => depth += 1,
            b'}' | b']' if depth == 0 => return Some(i),
            b'}' | b']' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Bytes that may follow a complete scalar token.
pub(crate) fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t'
            | b'\n'
            | b'\r'
            | b','
            | b':'
            | b']'
            | b'}'
            | b'/'
            | b'#'
            | b')'
            | b';'
            | 0x0b
            | 0x0c
            | b'{'
            | b'['
    )
}

impl<'a, B: Build<'a>> Parser<'a, B> {
    pub(crate) fn peek(&self) -> Option<u8> {
        (self.pos < self.end).then(|| self.bytes[self.pos])
    }

    pub(crate) fn stack_is_empty(&self) -> bool {
        self.stack.is_empty()
    }

    pub(crate) fn at_eof(&self) -> bool {
        self.pos >= self.end
    }

    /// Opens a container.
    fn push_frame(&mut self, frame: Frame<'a, B>) {
        self.frames_moved += 1;
        self.stack.push(frame);
    }

    /// Closes the innermost container.
    fn take_frame(&mut self) -> Option<Frame<'a, B>> {
        self.frames_moved += 1;
        self.stack.pop()
    }

    /// The JSON path of the place being parsed (depth is bounded by `max_depth`). With
    /// `of_container`, the path of the innermost open container itself rather than of the
    /// value being read inside it. Shared with the repairs logged before at the same place
    /// ([`PlaceCache`]).
    fn path(&mut self, of_container: bool) -> Path {
        if self.paths == RepairPaths::Skip {
            return Path::root();
        }
        let depth = self.stack.len();
        // Deeper than `MAX_REPAIR_PATH`, the innermost frames add no step.
        let (outer, top) = match depth {
            0 => (0, None),
            d if d > MAX_REPAIR_PATH => (MAX_REPAIR_PATH, None),
            d => (d - 1, self.stack.last()),
        };
        let value = top.filter(|_| !of_container).and_then(step);
        let frames = &self.stack[..outer];
        (self.path_cache).path(
            self.frames_moved,
            || frames.iter().filter_map(step).collect(),
            value,
        )
    }

    /// Logs a repair to the value being read.
    pub(crate) fn repair(&mut self, kind: RepairKind, span: Span) {
        let path = self.path(false);
        self.log(kind, span, path);
    }

    /// Logs a repair to the innermost open container itself (its brackets and commas).
    fn repair_container(&mut self, kind: RepairKind, span: Span) {
        let path = self.path(true);
        self.log(kind, span, path);
    }

    fn log(&mut self, kind: RepairKind, span: Span, path: Path) {
        // A damaged value is seldom repaired once: room for the usual count at the first
        // repair, rather than growing (and copying) the list from one at a time.
        if self.repairs.capacity() == 0 {
            self.repairs.reserve(16);
        }
        self.repairs.push(Repair {
            kind,
            span,
            path,
            position: None,
            cost: kind.cost(),
        });
    }

    fn slot(&self) -> Slot {
        match self.stack.last() {
            None => Slot::Root,
            Some(Frame::Array { .. }) => Slot::ArrayValue,
            Some(Frame::Object { .. }) => Slot::ObjectValue,
        }
    }

    /// The state machine: skip trivia, then let the state that expects something read the
    /// next byte. Each state is a method below.
    fn run(mut self) -> Result<Done<B::Value>, Error> {
        // Room for the usual depths, made once the parser reads (a probe never does).
        self.stack.reserve(4);
        let mut expect = Expect::Value;
        loop {
            self.skip_trivia();
            let Some(mut b) = self.peek() else {
                return self.finish_at_eof(expect);
            };
            // A fence's closing run between a value's tokens: the value was cut off there,
            // as by the end of the text (the run and what follows are left over).
            if b == b'`'
                && matches!(expect, Expect::Key | Expect::Separator)
                && !self.stack.is_empty()
                && self.bytes[self.pos..self.end].starts_with(b"```")
            {
                self.end = self.pos;
                return self.finish_at_eof(expect);
            }
            if let Some(Frame::Array {
                alt_closer: Some(c),
                ..
            }) = self.stack.last()
            {
                if b == *c {
                    b = b']';
                }
            }
            let step = match expect {
                Expect::Value => self.on_value(b)?,
                Expect::Key => self.on_key(b)?,
                Expect::Colon => self.on_colon(b)?,
                Expect::Separator => self.on_separator(b)?,
            };
            match step {
                Step::Next(next) => expect = next,
                Step::Done(done) => return Ok(done),
            }
        }
    }

    /// A value may start here (at the root, after `[`, `,` in an array, or `:`).
    // Long: one arm per byte that can start (or wrongly stand in for) a value, kept together
    // so the value grammar reads in one place.
    fn on_value(&mut self, b: u8) -> Result<Step<B::Value>, Error> {
        let mut expect = Expect::Value;
        match b {
            b'(' => {
                // A Python tuple: an array closed by `)`.
                if self.stack.len() >= self.max_depth {
                    return Err(self.too_deep());
                }
                self.repair(RepairKind::TupleAsArray, Span::new(self.pos, self.pos + 1));
                self.push_frame(Frame::Array {
                    start: self.pos,
                    items: Vec::new(),
                    after_comma: None,
                    alt_closer: Some(b')'),
                    last_object_keys: None,
                });
                self.pos += 1;
            }
            b'"' | b'\''
                if matches!(self.slot(), Slot::ArrayValue | Slot::Root)
                    && self.looks_like_whole_key(self.pos) =>
            {
                // `[{"a": 1}, "b": 2}]`: a member where an item belongs; its object's
                // `{` is missing. At the root, a reply that goes on from a `{` written
                // before it (a prefilled answer): `"a": 1, "b": 2}`.
                if self.stack.len() >= self.max_depth {
                    return Err(self.too_deep());
                }
                self.repair(RepairKind::MissingOpeningBracket, Span::at(self.pos));
                self.open_objects += 1;
                self.push_frame(Frame::Object {
                    start: self.pos,
                    entries: self.new_entries(),
                    key: None,
                    after_comma: None,
                    first_keys: KeySample::default(),
                    members: false,
                });
                expect = Expect::Key;
            }
            b'[' if self.list_goes_on.take() == Some(self.pos) => {
                // `"k": ["a"], ["b"]`: the second list goes on the first.
                self.repair(RepairKind::StrayBracket, Span::new(self.pos, self.pos + 1));
                self.pos += 1;
            }
            b'{' | b'[' => {
                if self.stack.len() >= self.max_depth {
                    return Err(self.too_deep());
                }
                let start = self.pos;
                self.pos += 1;
                if b == b'{' {
                    self.open_objects += 1;
                    self.push_frame(Frame::Object {
                        start,
                        entries: self.new_entries(),
                        key: None,
                        after_comma: None,
                        first_keys: KeySample::default(),
                        members: false,
                    });
                    expect = Expect::Key;
                } else {
                    self.push_frame(Frame::Array {
                        start,
                        items: Vec::new(),
                        after_comma: None,
                        alt_closer: None,
                        last_object_keys: None,
                    });
                }
            }
            b']' | b'}' => match self.stack.last() {
                Some(Frame::Array { .. }) => {
                    if let Some(done) = self.close(b) {
                        return Ok(Step::Done(done));
                    }
                    expect = Expect::Separator;
                }
                Some(Frame::Object { .. }) => {
                    // `"a": }`: the value is missing.
                    self.missing_value();
                    expect = Expect::Separator;
                }
                None => {
                    self.repair(RepairKind::StrayBracket, Span::new(self.pos, self.pos + 1));
                    self.pos += 1;
                }
            },
            b',' => match self.stack.last_mut() {
                Some(Frame::Array { after_comma, .. }) => {
                    // `[,1]` or `[1,,2]`: nothing between the commas.
                    *after_comma = Some(self.pos);
                    self.repair(RepairKind::ExtraComma, Span::new(self.pos, self.pos + 1));
                    self.pos += 1;
                }
                Some(Frame::Object { .. }) => {
                    self.missing_value();
                    expect = Expect::Separator;
                }
                None => {
                    self.repair(RepairKind::SkippedText, Span::new(self.pos, self.pos + 1));
                    self.pos += 1;
                }
            },
            b':' => {
                self.repair(RepairKind::SkippedText, Span::new(self.pos, self.pos + 1));
                self.pos += 1;
            }
            b'.' | 0xE2 if self.skip_ellipsis() => {}
            b'a'..=b'z' | b'A'..=b'Z' if self.skip_words_before_container() => {}
            _ => {
                let slot = self.slot();
                let node = self.scalar(slot);
                if let Some(done) = self.push_scalar(node) {
                    return Ok(Step::Done(done));
                }
                expect = Expect::Separator;
            }
        }
        Ok(Step::Next(expect))
    }

    /// A key or `}` is expected.
    fn on_key(&mut self, b: u8) -> Result<Step<B::Value>, Error> {
        let mut expect = Expect::Key;
        match b {
            b'}' | b']' => {
                if let Some(done) = self.close(b) {
                    return Ok(Step::Done(done));
                }
                expect = Expect::Separator;
            }
            b',' => {
                self.repair(RepairKind::ExtraComma, Span::new(self.pos, self.pos + 1));
                self.pos += 1;
                self.set_after_comma(None);
            }
            b'{' if self.object_in_array() && self.object_starts(self.pos) => {
                // `[{"a": 1, {"a": 2}]`: the object's `}` is missing before the next one.
                self.repair_container(RepairKind::MissingBracket, Span::at(self.pos));
                if let Some(done) = self.pop_frame(self.pos, true) {
                    return Ok(Step::Done(done));
                }
                expect = Expect::Value;
            }
            b'{' | b'[' | b':' => self.skip_nameless_value(b),
            b'.' | 0xE2 if self.skip_ellipsis() => {}
            _ => {
                let start = self.pos;
                // Repairs inside the key get its member's path once the key is
                // known: none is built while reading it.
                let logged = self.repairs.len();
                let paths = std::mem::replace(&mut self.paths, RepairPaths::Skip);
                let (mut key, mut complete) = self.key();
                self.paths = paths;
                if let Some(split) = self.key_before_colon(start, &key, complete, logged) {
                    (key, complete) = (split, true);
                }
                if key.quoting == Quoting::Unquoted && complete && self.stray_label_ends() {
                    // `NOTE "w": ..` or `REMEMBER: "w": ..`: stray words before the real,
                    // quoted key.
                    self.repairs.truncate(logged);
                    self.repair(RepairKind::SkippedText, Span::new(start, self.pos));
                    return Ok(Step::Next(Expect::Key));
                }
                if !complete {
                    self.repair(RepairKind::TruncatedKey, Span::new(start, self.end));
                    return self.finish_at_eof(Expect::Key).map(Step::Done);
                }
                let span = Span::new(start, self.pos);
                if let Some(Frame::Object {
                    key: slot,
                    after_comma,
                    ..
                }) = self.stack.last_mut()
                {
                    *slot = Some((key, span));
                    *after_comma = None;
                }
                // Repairs to the key belong to its member: `$.item`, not `$`.
                if self.repairs.len() > logged && self.paths == RepairPaths::Record {
                    let path = self.path(false);
                    // The last takes the path itself (a key is most often repaired once).
                    if let Some((last, before)) = self.repairs[logged..].split_last_mut() {
                        for r in before {
                            r.path = path.clone();
                        }
                        last.path = path;
                    }
                }
                // The `:` right after the key, as JSON writes it, is taken here: one trip
                // less through the dispatch in `run`, whose jump the processor mispredicts as
                // the states cycle.
                expect = if self.pos < self.end && self.bytes[self.pos] == b':' {
                    self.pos += 1;
                    Expect::Value
                } else {
                    Expect::Colon
                };
            }
        }
        Ok(Step::Next(expect))
    }

    /// A value where a key belongs; nothing sensible to attach it to. A list of items is
    /// skipped whole (`{"a": 1, ["b", "c"], "d": 2}`: its items are not keys); of anything
    /// else the opener only.
    fn skip_nameless_value(&mut self, b: u8) {
        let end = match b {
            b'[' => self.nameless_list_end(),
            _ => None,
        };
        let end = end.unwrap_or(self.pos + 1);
        self.repair(RepairKind::SkippedText, Span::new(self.pos, end));
        self.pos = end;
    }

    /// Where the list opening at `self.pos`, where a key belongs, ends: just after its `]`,
    /// when it is a list of items (no `:` or `}` of its own, no comment) whose `]` comes
    /// before a `,`, a `}` or the next quoted key, within a bounded window. The bytes looked
    /// at are paid from the profile budget, found or not.
    fn nameless_list_end(&mut self) -> Option<usize> {
        let at = self.pos;
        let limit = (at + 4 * string::KEY_LOOKAHEAD).min(self.end);
        self.profile_budget = self.profile_budget.checked_sub(limit - at)?;
        let bytes = self.bytes;
        let mut depth = 0usize;
        let mut i = at + 1;
        while i < limit {
            match bytes[i] {
                quote @ (b'"' | b'\'') => {
                    i += 1;
                    while i < limit && bytes[i] != quote {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'`' | b'/' | b'#' => return None,
                b'{' | b'[' => depth += 1,
                b'}' | b']' if depth > 0 => depth -= 1,
                b':' | b'}' if depth == 0 => return None,
                b']' => {
                    let after = space::skip_space(bytes, i + 1, self.end);
                    let ends = after < self.end && matches!(bytes[after], b',' | b'}' | b'"');
                    return ends.then_some(i + 1);
                }
                _ => {}
            }
            i += 1;
        }
        None
    }

    /// The `:` after a key is expected.
    fn on_colon(&mut self, b: u8) -> Result<Step<B::Value>, Error> {
        let expect = match b {
            b':' => {
                self.pos += 1;
                Expect::Value
            }
            b'=' => {
                self.repair(RepairKind::MissingColon, Span::new(self.pos, self.pos + 1));
                self.pos += 1;
                Expect::Value
            }
            0xEF if self.fullwidth_at(self.pos) == Some(b':') => {
                self.fullwidth();
                Expect::Value
            }
            b',' | b'}' if self.set_follows(b) => {
                // `{'a', 'b'}`: a Python set, read as an array.
                self.object_to_set();
                Expect::Separator
            }
            b',' | b'}' => {
                if !self.skip_stray_key() {
                    self.missing_value();
                }
                Expect::Separator
            }
            // `{"a"\n  "b": 1}`: the next member on the next line; this key has no value.
            _ if self.starts_line(self.pos) && self.looks_like_whole_key(self.pos) => {
                self.missing_value();
                Expect::Separator
            }
            _ => match self.stray_then_colon(self.pos) {
                // `"b"$: 2`: stray characters before the `:`.
                Some(colon) => {
                    self.repair(RepairKind::SkippedText, Span::new(self.pos, colon));
                    self.pos = colon + 1;
                    Expect::Value
                }
                None => {
                    self.repair(RepairKind::MissingColon, Span::at(self.pos));
                    Expect::Value
                }
            },
        };
        Ok(Step::Next(expect))
    }

    /// A `,` or a closer is expected after a value.
    fn on_separator(&mut self, b: u8) -> Result<Step<B::Value>, Error> {
        let mut expect = Expect::Separator;
        match b {
            b',' => {
                let at = self.pos;
                self.pos += 1;
                self.set_after_comma(Some(at));
                expect = match self.stack.last() {
                    Some(Frame::Object { .. }) => Expect::Key,
                    _ => Expect::Value,
                };
            }
            0xEF if self.fullwidth_at(self.pos) == Some(b',') => {
                // No trailing-comma span is kept for it: one would cut the character.
                self.fullwidth();
                self.set_after_comma(None);
                expect = match self.stack.last() {
                    Some(Frame::Object { .. }) => Expect::Key,
                    _ => Expect::Value,
                };
            }
            b'}' | b']' => {
                if let Some(done) = self.close(b) {
                    return Ok(Step::Done(done));
                }
                expect = Expect::Separator;
            }
            b':' => {
                self.repair(RepairKind::SkippedText, Span::new(self.pos, self.pos + 1));
                self.pos += 1;
            }
            b'{' if self.object_in_array() => {
                // `[{"i": 1{"i": 2}]`: the object's `}` and the `,` are missing.
                self.repair_container(RepairKind::MissingBracket, Span::at(self.pos));
                if let Some(done) = self.pop_frame(self.pos, true) {
                    return Ok(Step::Done(done));
                }
                self.repair(RepairKind::MissingComma, Span::at(self.pos));
                expect = Expect::Value;
            }
            _ => {
                // Two values with no comma between them.
                self.repair(RepairKind::MissingComma, Span::at(self.pos));
                expect = match self.stack.last() {
                    Some(Frame::Object { .. }) => Expect::Key,
                    _ => Expect::Value,
                };
            }
        }
        Ok(Step::Next(expect))
    }

    /// The ASCII separator a full-width one at `i` stands for (`lex::fullwidth_separator`).
    pub(crate) fn fullwidth_at(&self, i: usize) -> Option<u8> {
        crate::lex::fullwidth_separator(&self.bytes[i..self.end])
    }

    /// Reads the full-width `：` or `，` at `pos` as its ASCII separator.
    fn fullwidth(&mut self) {
        let span = Span::new(self.pos, self.pos + crate::lex::FULLWIDTH_LEN);
        self.repair(RepairKind::FullWidthPunctuation, span);
        self.pos = span.end;
    }

    /// After an unquoted key: whether it was stray words before a quoted key (`NOTE "w":`,
    /// `REMEMBER: "w":`) rather than a key. If so, moves past a `:` ending the words.
    fn stray_label_ends(&mut self) -> bool {
        let quoted_next = |at: usize| {
            at < self.end
                && string::opening_quote(&self.bytes[at..self.end]).is_some()
                && self.bytes[at] != b'`'
        };
        let after = match self.peek() {
            // `REMEMBER: "w"`, or `etc.` on a line of its own with the key on the next.
            Some(b':') => self.pos + 1,
            Some(b'\n' | b'\r') => self.pos,
            Some(_) => return quoted_next(self.pos) && self.looks_like_whole_key(self.pos),
            None => return false,
        };
        let limit = (after + string::KEY_LOOKAHEAD).min(self.end);
        let next = space::skip_space(self.bytes, after, limit);
        if quoted_next(next) && self.looks_like_whole_key(next) {
            self.pos = next;
            return true;
        }
        false
    }

    /// `{"key:"value"}` and `{"key:value}`: a quoted key whose closing quote is missing, read
    /// on past its `:` (no `:` follows the string read, or the input ended in it). The key
    /// ends at its first `:`, when what comes before it is a word, and the value is read from
    /// there. The bytes read again are paid from the backtrack budget.
    fn key_before_colon(
        &mut self,
        start: usize,
        key: &Str<'a>,
        complete: bool,
        logged: usize,
    ) -> Option<Str<'a>> {
        let Cow::Borrowed(text) = key.text else {
            return None;
        };
        if key.quoting != Quoting::Double || self.bytes[start] != b'"' {
            return None;
        }
        let k = text.find(':').filter(|&k| {
            k > 0
                && text[..k]
                    .bytes()
                    .all(|b| !b.is_ascii_whitespace() && !matches!(b, b'"' | b','))
        })?;
        if complete {
            let next = space::skip_space(self.bytes, self.pos, self.end);
            if next >= self.end
                || matches!(self.bytes[next], b':' | b'=')
                || self.fullwidth_at(next) == Some(b':')
            {
                return None;
            }
        }
        // Where the key's text starts in the source: after the quote, or after a doubled
        // quote (`""key:value`); an escape before the colon shifts offsets, so it must be
        // the source as written.
        let opened = (1..=2).find(|&open| {
            self.text
                .get(start + open..)
                .is_some_and(|rest| rest.starts_with(&text[..=k]))
        })?;
        let colon = start + opened + k;
        let reread = self.pos.saturating_sub(colon);
        self.backtrack_budget = self.backtrack_budget.checked_sub(reread)?;
        self.repairs.truncate(logged);
        self.repair(RepairKind::MissingQuote, Span::at(colon));
        self.pos = colon;
        Some(Str {
            text: Cow::Borrowed(&text[..k]),
            quoting: Quoting::Double,
        })
    }

    /// Whether the innermost container is a tuple, closed by `)`.
    pub(crate) fn in_tuple(&self) -> bool {
        matches!(
            self.stack.last(),
            Some(Frame::Array {
                alt_closer: Some(b')'),
                ..
            })
        )
    }

    /// Whether the innermost container is an object whose parent is an array.
    fn object_in_array(&self) -> bool {
        let n = self.stack.len();
        n >= 2
            && matches!(self.stack[n - 1], Frame::Object { .. })
            && matches!(self.stack[n - 2], Frame::Array { .. })
    }

    /// At `,` or `}` right after an object's first key: whether the object is a set
    /// (`{'a', 'b'}`): the key was quoted and the next item, if any, is not a key.
    fn set_follows(&self, b: u8) -> bool {
        let Some(Frame::Object {
            entries,
            key: Some((key, key_span)),
            ..
        }) = self.stack.last()
        else {
            return false;
        };
        let numeric = |text: &str| {
            !text.is_empty()
                && text
                    .bytes()
                    .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'-' | b'+' | b'e' | b'E'))
        };
        if !B::is_empty(entries) || (key.quoting == Quoting::Unquoted && !numeric(&key.text)) {
            return false;
        }
        if b == b'}' {
            // `{"a"}` is an object missing a value more often than a one-item set; `{'a'}`,
            // in Python's quotes, is a set.
            return self.bytes[key_span.start] == b'\'';
        }
        // The next item: a quoted string or a number (`{7, 8}`), not a key.
        let j = space::skip_space(self.bytes, self.pos + 1, self.end);
        let item_end = self.bytes[j..self.end]
            .iter()
            .position(|&c| !(c.is_ascii_digit() || matches!(c, b'.' | b'-')))
            .map_or(self.end, |n| j + n);
        j < self.end
            && (string::opening_quote(&self.bytes[j..self.end]).is_some()
                || (item_end > j && token_ends_at(self.bytes, item_end, self.end)))
            && !self.looks_like_key(j)
    }

    /// Turns the innermost object, which holds only a key so far, into a set's array whose
    /// first item is that key.
    fn object_to_set(&mut self) {
        let Some(Frame::Object {
            start,
            key: Some((key, key_span)),
            ..
        }) = self.take_frame()
        else {
            unreachable!("set_follows checked the frame");
        };
        self.open_objects -= 1;
        self.repair(RepairKind::SetAsArray, Span::new(start, start + 1));
        let mut node = None;
        if key.quoting == Quoting::Unquoted {
            // `{7, 8}`: the first item was read as a key; it is a number.
            let resume = self.pos;
            self.pos = key_span.start;
            node = self.number(Slot::ArrayValue);
            self.pos = resume;
        }
        let node = node.unwrap_or_else(|| Node::new(NodeKind::String(key), key_span));
        let item = B::scalar(node, self.text);
        self.push_frame(Frame::Array {
            start,
            items: vec![item],
            after_comma: None,
            alt_closer: Some(b'}'),
            last_object_keys: None,
        });
    }

    /// The members of an object being opened, with room for as many as the last object that
    /// ended at its depth had (records and the objects inside them mostly have the same
    /// keys), and for at least [`OBJECT_ROOM`]; for [`FIRST_OBJECT_ROOM`] when no object
    /// with members ended there yet. Grown from nothing instead, a map is made again at its
    /// fourth and eighth members: on the damaged corpus that growing cost about 2% of
    /// `repair`. The room given is what some object of the value has, or a few members, so
    /// it adds at most the size of the value.
    fn new_entries(&self) -> B::Object {
        let room = match self.room.get(self.stack.len()) {
            Some(&members) if members > 0 => members.max(OBJECT_ROOM),
            _ => FIRST_OBJECT_ROOM,
        };
        B::object_with_capacity(room)
    }

    fn set_after_comma(&mut self, at: Option<usize>) {
        match self.stack.last_mut() {
            Some(Frame::Array { after_comma, .. }) | Some(Frame::Object { after_comma, .. }) => {
                *after_comma = at
            }
            None => {}
        }
    }

    fn too_deep(&self) -> Error {
        Error::too_deep(self.text, self.pos, self.max_depth)
    }

    /// `{"v": "data" AAAA }`, `{"a": 1, b, "c": 2}`: a bare word where a key belongs, with
    /// neither a `:` nor a value after it, in an object holding a member written with both.
    /// It is stray text, skipped (`SkippedText`): read as a key it would invent a member, with
    /// a `null`, that the model never wrote. Returns whether it was. (In an object of such
    /// words alone, `{a, b}`, each stays a key missing its value.)
    fn skip_stray_key(&mut self) -> bool {
        let Some(Frame::Object {
            key, members: true, ..
        }) = self.stack.last_mut()
        else {
            return false;
        };
        let span = match key {
            Some((k, span)) if k.quoting == Quoting::Unquoted && !span.is_empty() => *span,
            _ => return false,
        };
        *key = None;
        let end = span.start + crate::lex::trim_end(&self.text[span.start..span.end]).len();
        self.repair(RepairKind::SkippedText, Span::new(span.start, end));
        true
    }

    /// `"a": ,` or `"a": }`: the value is `null`.
    fn missing_value(&mut self) {
        self.repair(RepairKind::MissingValue, Span::at(self.pos));
        // Inside an object the stack is non-empty, so this never finishes the document.
        let _ = self.push_missing(self.pos, true);
    }

    /// The `null` in place of a missing value at `at`. In an object it never replaces a value
    /// its key was written with before (`{"a": 1, ..., a}`: a stray word read as the key
    /// again invents nothing).
    fn push_missing(&mut self, at: usize, complete: bool) -> Option<Done<B::Value>> {
        let node = Node {
            kind: NodeKind::Null,
            span: Span::at(at),
            complete,
        };
        let value = B::scalar(node, self.text);
        self.push_value_as(value, true)
    }

    /// Attaches a finished value to the open container, or returns the document if it is the
    /// root.
    fn push_value(&mut self, value: B::Value) -> Option<Done<B::Value>> {
        self.push_value_as(value, false)
    }

    /// [`Self::push_value`]; `missing` for the `null` in place of a missing value.
    fn push_value_as(&mut self, value: B::Value, missing: bool) -> Option<Done<B::Value>> {
        match self.stack.last_mut() {
            None => Some(Done {
                value,
                end: self.pos,
                repairs: std::mem::take(&mut self.repairs),
            }),
            Some(Frame::Array {
                items, after_comma, ..
            }) => {
                items.push(value);
                *after_comma = None;
                None
            }
            Some(Frame::Object {
                entries,
                key,
                after_comma,
                first_keys,
                members,
                ..
            }) => {
                let at = self.pos;
                // A value with no key before it: the empty key (none read, or one of no
                // width), which never replaces a member written with it.
                let missing = missing
                    || key
                        .as_ref()
                        .is_none_or(|(k, span)| k.text.is_empty() && span.is_empty());
                let (key, key_span) = key.take().unwrap_or_else(|| {
                    (
                        Str {
                            text: Cow::Borrowed(""),
                            quoting: Quoting::Unquoted,
                        },
                        Span::at(at),
                    )
                });
                first_keys.add(key.text.as_bytes());
                *members |= !missing;
                if missing {
                    B::insert_missing(entries, key, key_span, value);
                } else {
                    B::insert(entries, key, key_span, value);
                }
                *after_comma = None;
                None
            }
        }
    }

    /// A scalar node attached like any value.
    fn push_scalar(&mut self, node: Node<'a>) -> Option<Done<B::Value>> {
        self.push_value(B::scalar(node, self.text))
    }

    /// Whether a separator or another value follows `at` (whitespace skipped), rather than
    /// the end of the input or more closers.
    fn input_continues_after(&self, at: usize) -> bool {
        let i = space::skip_space(self.bytes, at.min(self.end), self.end);
        i < self.end && !matches!(self.bytes[i], b'}' | b']')
    }

    fn after_comma_of_top(&self) -> Option<usize> {
        match self.stack.last() {
            Some(Frame::Array { after_comma, .. }) | Some(Frame::Object { after_comma, .. }) => {
                *after_comma
            }
            None => None,
        }
    }

    fn pop_frame(&mut self, end: usize, complete: bool) -> Option<Done<B::Value>> {
        let frame = self.take_frame()?;
        if let Frame::Object { first_keys, .. } = frame {
            self.open_objects -= 1;
            let depth = self.stack.len();
            if self.room.len() <= depth {
                self.room.resize(depth + 1, 0);
            }
            self.room[depth] = first_keys.keys();
            if let Some(Frame::Array {
                last_object_keys, ..
            }) = self.stack.last_mut()
            {
                *last_object_keys = Some(first_keys);
            }
        }
        let value = match frame {
            Frame::Array { start, items, .. } => B::array(items, Span::new(start, end), complete),
            Frame::Object { start, entries, .. } => {
                B::object(entries, Span::new(start, end), complete)
            }
        };
        self.push_value(value)
    }

    /// The input ended: close what is open, in stack order.
    fn finish_at_eof(&mut self, expect: Expect) -> Result<Done<B::Value>, Error> {
        if self.stack.is_empty() {
            return Err(Error::new(vec![Issue::new(
                Category::NotFound,
                Path::root(),
                "no JSON found: the text ended before any value",
            )
            .at(Span::at(self.pos))]));
        }
        let end = self.end;
        // `{"a":` or `{"a"`: the key is kept with a null value, marked incomplete.
        if let (Expect::Value | Expect::Colon, Some(Frame::Object { key: Some(_), .. })) =
            (expect, self.stack.last())
        {
            self.repair(RepairKind::MissingValue, Span::at(end));
            let _ = self.push_missing(end, false);
        }
        self.repair_container(RepairKind::TruncatedContainer, Span::at(end));
        loop {
            if let Some(done) = self.pop_frame(end, false) {
                return Ok(done);
            }
        }
    }

    /// `...` or `…` standing for elided items (`[1, 2, ...]`, `{"a": 1, ...}`): skipped and
    /// logged.
    fn skip_ellipsis(&mut self) -> bool {
        let rest = &self.bytes[self.pos..self.end];
        let len = if rest.starts_with(b"...") {
            rest.iter().take_while(|&&b| b == b'.').count()
        } else if rest.starts_with("…".as_bytes()) {
            3
        } else {
            return false;
        };
        if !token_ends_at(self.bytes, self.pos + len, self.end) {
            return false;
        }
        self.repair(RepairKind::SkippedText, Span::new(self.pos, self.pos + len));
        self.pos += len;
        true
    }

    /// In an array, `[{"id": 1}, and {"id": 2}]`: words (not a literal) right before an object
    /// or array are stray text, skipped and logged.
    fn skip_words_before_container(&mut self) -> bool {
        if self.slot() != Slot::ArrayValue {
            return false;
        }
        let Some(Some(len)) = self.ahead().words_before_container(self.pos) else {
            return false;
        };
        self.repair(
            RepairKind::SkippedText,
            Span::new(
                self.pos,
                self.pos + crate::lex::trim_end(&self.text[self.pos..self.pos + len]).len(),
            ),
        );
        self.pos += len;
        true
    }

    /// Skips whitespace and comments, logging each comment and each run of Unicode spaces.
    #[inline]
    pub(crate) fn skip_trivia(&mut self) {
        // Most tokens follow one another directly or after one space: decided here, without
        // the call.
        match self.bytes.get(self.pos..self.end) {
            Some([b' ', next, ..]) if is_token_byte(*next) => self.pos += 1,
            Some([b, ..]) if is_token_byte(*b) => {}
            _ => self.skip_trivia_run(),
        }
    }

    /// [`Self::skip_trivia`] past spaces of any kind and comments.
    #[inline(never)]
    fn skip_trivia_run(&mut self) {
        // The Unicode spaces of the current run (from the first to the last), logged as one
        // repair when the run ends.
        let mut unicode: Option<Span> = None;
        while self.pos < self.end {
            match self.bytes[self.pos] {
                b' ' => self.pos = space::skip_blanks(self.bytes, self.pos, self.end),
                b'\t' | b'\n' | b'\r' => self.pos += 1,
                // Not JSON's, but spaces: logged with the Unicode ones.
                0x0b | 0x0c => {
                    unicode.get_or_insert(Span::at(self.pos)).end = self.pos + 1;
                    self.pos += 1;
                }
                b'/' | b'#' => match lex::comment_opener(&self.bytes[self.pos..self.end]) {
                    Some((Comment::Line, _)) => {
                        self.log_unicode_spaces(unicode.take());
                        self.line_comment()
                    }
                    Some((Comment::Block, len)) => {
                        self.log_unicode_spaces(unicode.take());
                        let start = self.pos;
                        let body = &self.bytes[start + len..self.end];
                        self.pos = lex::comment_end(Comment::Block, body)
                            .map_or(self.end, |n| start + len + n);
                        self.repair(RepairKind::Comment, Span::new(start, self.pos));
                    }
                    None => break,
                },
                b if crate::lex::may_start_unicode_space(b) => {
                    let len = crate::lex::unicode_space_len(&self.bytes[self.pos..self.end]);
                    if len == 0 {
                        break;
                    }
                    unicode.get_or_insert(Span::at(self.pos)).end = self.pos + len;
                    self.pos += len;
                }
                _ => break,
            }
        }
        self.log_unicode_spaces(unicode);
    }

    fn log_unicode_spaces(&mut self, run: Option<Span>) {
        if let Some(span) = run {
            self.repair(RepairKind::UnicodeWhitespace, span);
        }
    }

    fn line_comment(&mut self) {
        let start = self.pos;
        let line_end = self.line_end(start);
        self.pos = self.comment_closer(start, line_end).unwrap_or(line_end);
        self.repair(RepairKind::Comment, Span::new(start, self.pos));
    }

    /// The offset of the first line break at or after `from` (or the end), remembered so that
    /// several comments on one long line search it once.
    fn line_end(&mut self, from: usize) -> usize {
        if let Some((searched, end)) = self.line_end_seen {
            if searched <= from && from <= end {
                return end;
            }
        }
        let body = &self.bytes[from..self.end];
        let end = lex::comment_end(Comment::Line, body).map_or(self.end, |i| from + i);
        self.line_end_seen = Some((from, end));
        end
    }

    /// `{"a": {"b": 1 // note }, "c": 2}` on one line: a line comment that would swallow the
    /// closers of what is open. When the text after its line cannot close the open containers
    /// (it closes fewer than are open), the comment ends at its first closer that its own text
    /// did not open, and the rest of the line is read as the value's. Reading the comment up
    /// to that closer consumes it: parsing resumes there.
    fn comment_closer(&mut self, start: usize, line_end: usize) -> Option<usize> {
        if self.stack.is_empty() {
            return None;
        }
        let at = first_unopened_closer(&self.bytes[start..line_end])? + start;
        let rest = self.rest_after(line_end)?;
        (rest.net < self.stack.len() as isize).then_some(at)
    }

    /// A key: quoted, or a bare word or phrase up to the `:`. Returns `false` as the second
    /// value when the input ended inside it.
    fn key(&mut self) -> (Str<'a>, bool) {
        if string::opening_quote(&self.bytes[self.pos..self.end]).is_some() {
            let s = self.string(Slot::Key);
            return (s.value, s.complete);
        }
        let start = self.pos;
        while let Some(b) = self.peek() {
            if matches!(
                b,
                b':' | b',' | b'}' | b']' | b'{' | b'[' | b'"' | b'\n' | b'\r' | b'='
            ) || (b == 0xEF && self.fullwidth_at(self.pos).is_some())
            {
                break;
            }
            // `{a 'b'}`: a quote after a space opens the value, its colon missing.
            if self.pos > start
                && matches!(self.bytes[self.pos - 1], b' ' | b'\t')
                && string::opening_quote(&self.bytes[self.pos..self.end]).is_some()
            {
                break;
            }
            self.pos += 1;
        }
        if self.at_eof() {
            return (
                Str {
                    text: Cow::Borrowed(""),
                    quoting: Quoting::Unquoted,
                },
                false,
            );
        }
        let raw = crate::lex::trim_end(&self.text[start..self.pos]);
        if self.peek() == Some(b'"') && !raw.is_empty() {
            // `{a": 1}`: the key's opening quote is missing; its closing one is skipped.
            let next = space::skip_space(self.bytes, self.pos + 1, self.end);
            if next < self.end && self.bytes[next] == b':' {
                self.repair(RepairKind::MissingQuote, Span::new(self.pos, self.pos + 1));
                self.pos += 1;
            }
        }
        self.repair(RepairKind::UnquotedKey, Span::new(start, start + raw.len()));
        if raw.contains(['.', '!', '?', ';', '(', ')']) && raw.contains(' ') {
            // Reads like a sentence, not a key: likely prose caught between braces.
            self.repair(RepairKind::SentenceKey, Span::new(start, start + raw.len()));
        }
        (
            Str {
                text: Cow::Borrowed(raw),
                quoting: Quoting::Unquoted,
            },
            true,
        )
    }

    /// A string, number, literal or bare word at `self.pos`.
    fn scalar(&mut self, slot: Slot) -> Node<'a> {
        let start = self.pos;
        let rest = &self.bytes[self.pos..self.end];
        if string::opening_quote(rest).is_some() {
            let first = self.string(slot);
            let mut node = Node {
                kind: NodeKind::String(first.value),
                span: Span::new(start, self.pos),
                complete: first.complete,
            };
            if node.complete {
                self.concatenation(&mut node, slot);
            }
            return node;
        }
        let b = rest[0];
        if b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.') {
            if let Some(node) = self.number(slot) {
                self.skip_stray_closing_quote(slot);
                return node;
            }
        } else if b.is_ascii_alphabetic() {
            if let Some(node) = self.literal() {
                self.skip_stray_closing_quote(slot);
                return node;
            }
        }
        self.pos = start;
        let node = self.bare_string(slot);
        self.skip_stray_closing_quote(slot);
        node
    }

    /// The bare-text rules over the text this parser reads (`bare.rs`).
    fn ahead(&self) -> Ahead<'_> {
        Ahead::whole(&self.bytes[..self.end])
    }

    /// `abcdef", ` or `12345" }`: at `at`, a `"` that closes a bare value whose opening quote
    /// is missing, followed by a `,`, a closer or the end. Bounded by `KEY_LOOKAHEAD`.
    pub(crate) fn stray_quote_closes(&self, at: usize) -> bool {
        self.ahead().stray_quote_closes(at) == Some(true)
    }

    /// Where the `}` closing the `{` at `at` inside bare text stands, when only words and
    /// spaces lie between them on the line (within [`string::KEY_LOOKAHEAD`] bytes): no
    /// `:`, quote, comma, bracket or comment, so they hold no member and are text.
    fn braced_words_end(&self, at: usize) -> Option<usize> {
        let limit = (at + 1 + string::KEY_LOOKAHEAD).min(self.end);
        let k = self
            .ahead()
            .text_stop(at + 1, limit, false, true)
            .flatten()?;
        (k > at + 1 && self.bytes[k] == b'}').then_some(k)
    }

    /// [`Ahead::text_runs_to_stray_quote`], for an object's value.
    fn text_runs_to_stray_quote(&self, at: usize, slot: Slot) -> bool {
        slot == Slot::ObjectValue && self.ahead().text_runs_to_stray_quote(at) == Some(true)
    }

    /// [`Ahead::words_go_on_after_comma`], for an object's value.
    fn words_go_on_after_comma(&self, at: usize, slot: Slot) -> bool {
        slot == Slot::ObjectValue && self.ahead().words_go_on_after_comma(at) == Some(true)
    }

    /// [`Ahead::text_goes_on_next_line`].
    fn text_goes_on_next_line(&self, at: usize) -> bool {
        self.ahead().text_goes_on_next_line(at) == Some(true)
    }

    /// After a bare value in a container: the stray quote closing it (see
    /// [`Self::stray_quote_closes`]) is skipped, its opening quote missing.
    fn skip_stray_closing_quote(&mut self, slot: Slot) {
        if slot != Slot::Root && self.stray_quote_closes(self.pos) {
            self.repair(RepairKind::MissingQuote, Span::new(self.pos, self.pos + 1));
            self.pos += 1;
        }
    }

    /// `"a" + "b"`, and in an object's value `'a' 'b'` (adjacent literals, as Python writes a
    /// long string): joins the parts into one string.
    fn concatenation(&mut self, node: &mut Node<'a>, slot: Slot) {
        loop {
            let save = self.pos;
            let i = space::skip_space(self.bytes, self.pos, self.end);
            if i >= self.end {
                return;
            }
            let plus = self.bytes[i] == b'+';
            let joins = plus || (slot == Slot::ObjectValue && self.adjacent_part_at(i));
            if !joins {
                return;
            }
            // Comments may stand between the `+` and the next part.
            let logged = self.repairs.len();
            self.pos = i + usize::from(plus);
            self.skip_trivia();
            if string::opening_quote(&self.bytes[self.pos..self.end]).is_none() {
                self.repairs.truncate(logged);
                self.pos = save;
                return;
            }
            let next = self.string(slot);
            self.repair(RepairKind::StringConcatenation, Span::new(save, self.pos));
            if let NodeKind::String(s) = &mut node.kind {
                s.text.to_mut().push_str(&next.value.text);
            }
            node.span.end = self.pos;
            if !next.complete {
                node.complete = false;
                return;
            }
        }
    }

    /// `true`, `None`, `NaN`, ... if the word at `self.pos` is one and ends there.
    fn literal(&mut self) -> Option<Node<'a>> {
        let start = self.pos;
        let mut i = start;
        while i < self.end && (self.bytes[i].is_ascii_alphanumeric() || self.bytes[i] == b'_') {
            i += 1;
        }
        let word = &self.text[start..i];
        let at_end = i >= self.end;
        if !token_ends_at(self.bytes, i, self.end) {
            return None;
        }
        let span = Span::new(start, i);
        let (kind, standard) = match word {
            "true" => (NodeKind::Bool(true), true),
            "false" => (NodeKind::Bool(false), true),
            "null" => (NodeKind::Null, true),
            "True" | "TRUE" => (NodeKind::Bool(true), false),
            "False" | "FALSE" => (NodeKind::Bool(false), false),
            "None" | "NULL" | "Null" | "undefined" | "nil" => (NodeKind::Null, false),
            "NaN" | "nan" => {
                self.pos = i;
                self.repair(RepairKind::NonFiniteNumber, span);
                return Some(Node::new(
                    NodeKind::Number(crate::node::Number::Float(f64::NAN)),
                    span,
                ));
            }
            "Infinity" | "inf" | "Inf" => {
                self.pos = i;
                self.repair(RepairKind::NonFiniteNumber, span);
                return Some(Node::new(
                    NodeKind::Number(crate::node::Number::Float(f64::INFINITY)),
                    span,
                ));
            }
            _ if at_end && !self.stack.is_empty() && !word.is_empty() => {
                // Cut off inside a literal: `tr`, `fals`, `nul`.
                let kind = if "true".starts_with(word) {
                    NodeKind::Bool(true)
                } else if "false".starts_with(word) {
                    NodeKind::Bool(false)
                } else if "null".starts_with(word) {
                    NodeKind::Null
                } else {
                    return None;
                };
                self.pos = i;
                self.repair(RepairKind::TruncatedLiteral, span);
                return Some(Node {
                    kind,
                    span,
                    complete: false,
                });
            }
            _ => return None,
        };
        self.pos = i;
        if !standard {
            self.repair(RepairKind::NonStandardLiteral, span);
        }
        Some(Node::new(kind, span))
    }

    /// Whether the byte `b` at `self.pos` ends the bare text that started at `start`.
    #[inline]
    fn ends_bare_text(&self, b: u8, start: usize, slot: Slot) -> bool {
        match b {
            // `{"a": First line\nsecond line\n}`: a paragraph of the value's text.
            b'\n' | b'\r' => {
                !(slot == Slot::ObjectValue
                    && self.pos > start
                    && self.text_goes_on_next_line(self.pos))
            }
            // `{"a": ipsum, sic, datum.", ...}`: commas inside text whose opening quote is
            // missing, its closing quote ending the run; `{"tags": red, green}`: words
            // after the comma that are no key.
            b',' => {
                slot != Slot::Root
                    && !self.words_go_on_after_comma(self.pos + 1, slot)
                    && !self.text_runs_to_stray_quote(self.pos + 1, slot)
            }
            b'}' | b']' => true,
            b'{' | b'[' => self.pos > start,
            b'"' => {
                let after_space =
                    self.pos > start && matches!(self.bytes[self.pos - 1], b' ' | b'\t');
                slot != Slot::Root
                    && self.pos > start
                    && (self.stray_quote_closes(self.pos)
                        // `{"key": value "key2": ..`: the next member, its comma missing.
                        || (slot == Slot::ObjectValue
                            && after_space
                            && self.quoted_key_at(self.pos))
                        // `[said "hi"]`: the next item, its comma missing.
                        || (slot == Slot::ArrayValue && after_space))
            }
            // `{"a": x，"b": 1}`: a full-width comma before the next key; one in the
            // text (`你好，世界`) is the text's.
            0xEF if slot == Slot::ObjectValue
                && self.pos > start
                && self.fullwidth_at(self.pos) == Some(b',') =>
            {
                let next =
                    space::skip_space(self.bytes, self.pos + crate::lex::FULLWIDTH_LEN, self.end);
                next < self.end && self.looks_like_whole_key(next)
            }
            b'/' => {
                // ` // comment` ends the value; `http://` does not.
                self.bytes.get(self.pos + 1) == Some(&b'/')
                    && self.pos > start
                    && matches!(self.bytes[self.pos - 1], b' ' | b'\t')
            }
            _ => false,
        }
    }

    /// A bare word or phrase used as a string value, up to the next separator.
    fn bare_string(&mut self, slot: Slot) -> Node<'a> {
        let start = self.pos;
        while let Some(b) = self.peek() {
            // `{"msg": Hello {name}, welcome}`: braces around words are the text's own.
            if b == b'{' && self.pos > start && slot != Slot::Root {
                if let Some(close) = self.braced_words_end(self.pos) {
                    self.pos = close + 1;
                    continue;
                }
            }
            if self.ends_bare_text(b, start, slot) {
                break;
            }
            self.pos += 1;
        }
        if self.pos == start {
            // A lone structural byte the caller could not use: take it as text.
            self.pos += 1;
            while self.pos < self.end && !self.text.is_char_boundary(self.pos) {
                self.pos += 1;
            }
        }
        let raw = crate::lex::trim_end(&self.text[start..self.pos]);
        let span = Span::new(start, start + raw.len());
        self.repair(RepairKind::UnquotedString, span);
        Node {
            kind: NodeKind::String(Str {
                text: Cow::Borrowed(raw),
                quoting: Quoting::Unquoted,
            }),
            span,
            complete: self.pos < self.end || self.stack.is_empty(),
        }
    }
}

/// Whether `b` starts neither a space nor a comment: ASCII other than spaces, `/` and `#`.
#[inline]
fn is_token_byte(b: u8) -> bool {
    b > b' ' && b < 0x80 && b != b'/' && b != b'#'
}

#[cfg(test)]
mod tests;
