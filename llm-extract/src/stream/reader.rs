//! The prefix reader: a resumable scan over a reply that is still arriving.
//!
//! It keeps its place between pushes: the open containers, and for a token cut off by the
//! end of the text so far the state of its scan (inside a string: the bytes already decoded,
//! the position to go on from, a closing quote waiting for the next byte to decide it). A push
//! examines only the new bytes and, for a token that was open, the few bytes it had to wait
//! on (an escape, a tag or fence marker cut in two), so each byte is examined a bounded number
//! of times whatever the chunking.
//!
//! It never decides on a token that could still become something else: `12` at the end of the
//! text may be `123`, `tru` may be `true`, `<thi` may be `<think>`, `<|chan` may be
//! `<|channel|>analysis<|message|>`, a closing quote may be an unescaped quote inside the
//! string. The lexical rules are the lenient parser's in small: double, single and unquoted
//! strings and keys, comments, `True`/`None`, trailing and missing commas, fences, reasoning
//! tags and the reasoning blocks written with special tokens (the markup pass's
//! `tags::TOKEN_BLOCKS`, read as it reads them) around the value. The full parser reads the
//! whole reply once more at `finish`; this reader only shows what is certain so far.

use super::{Container, Event, Step};
use crate::lex;
use crate::locate::tags::{self, TokenAt};
use crate::node::{Node, NodeKind, Quoting, Str};
use crate::parse::{code_block_body, code_block_end, code_block_text, CodeEnd};
use crate::span::Span;
use std::borrow::Cow;

/// Where an event happens, for the sink: the text so far, the start of every open container
/// from the root down, the offset just past the event, and for a closed container its span.
pub(crate) struct At<'r> {
    pub text: &'r str,
    pub opens: &'r [usize],
    pub now: usize,
    pub closed: Option<Span>,
    /// Where the string the reader is inside starts (`usize::MAX` outside one): which
    /// string a `Grow` event grows.
    pub string: usize,
}

/// What receives the reader's events.
pub(crate) trait Sink {
    /// One event at `at` (the path from the value's root).
    fn event(&mut self, at: &[Step<'_>], event: &Event<'_>, place: &At<'_>);
    /// A value starts in the prose at `start`: whether to read it.
    fn candidate(&mut self, _start: usize, _text: &str) -> bool {
        true
    }
    /// The value being read was cut off (a fence closed inside it); it will not complete.
    fn abandoned(&mut self) {}
    /// Reasoning text arrived: `more` extends the last block, or starts one when `new`.
    fn thought(&mut self, _more: &str, _new: bool) {}
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Expect {
    Key,
    Colon,
    Value,
    After,
}

#[derive(Debug, Clone)]
struct Frame {
    kind: Container,
    start: usize,
    /// The current member's key; `None` where no key could be read (events are not sent).
    key: Option<Key>,
    index: usize,
    expect: Expect,
}

impl Frame {
    /// The step into this container's current member, or `None` where its key could not be
    /// read.
    fn step<'a>(&'a self, text: &'a str) -> Option<Step<'a>> {
        match self.kind {
            Container::Object => self.key.as_ref().map(|k| Step::Key(k.text(text))),
            Container::Array => Some(Step::Index(self.index)),
        }
    }
}

/// Writes the steps into `frames`' current members to the start of `path` (which is long
/// enough); `false` where a key could not be read.
fn fill<'a>(path: &mut [Step<'a>], frames: &'a [Frame], text: &'a str) -> bool {
    for (slot, f) in path.iter_mut().zip(frames) {
        match f.step(text) {
            Some(s) => *slot = s,
            None => return false,
        }
    }
    true
}

/// A key: where it is in the source when written without escapes, else decoded.
#[derive(Debug, Clone)]
enum Key {
    At(usize, usize),
    Owned(String),
}

impl Key {
    fn text<'t>(&'t self, src: &'t str) -> &'t str {
        match self {
            Key::At(from, to) => &src[*from..*to],
            Key::Owned(s) => s,
        }
    }
}

#[derive(Debug, Clone)]
enum Tok {
    None,
    Str {
        quote: u8,
        key: bool,
        start: usize,
        /// The decoded text once an escape made it differ from the source.
        text: Option<String>,
        /// The end of the text in the source while `text` is `None`.
        plain_end: usize,
        /// How many bytes of the decoded text the sink has seen.
        sent: usize,
        /// Whether the sink was told the string began.
        started: bool,
        scan: usize,
        /// A quote that may close the string, waiting for the next non-space byte.
        close_at: Option<usize>,
    },
    Bare {
        key: bool,
        start: usize,
        scan: usize,
    },
    LineComment,
    BlockComment,
    /// A value written as a markdown code block (`"code": ```py` and a line break): shown
    /// once its closing run arrives, as the code (what the parser reads, `FencedValue`).
    Fenced {
        start: usize,
        run: usize,
        /// Where the code starts (after the info string's line).
        body: usize,
        scan: usize,
        /// The start of the line `scan` is on.
        line_start: usize,
    },
}

impl Tok {
    /// A string token's text decoded so far (`src` is the text it is read from): the copy an
    /// escape made, else the source itself; `""` for another token.
    fn decoded<'s>(&'s self, src: &'s str) -> &'s str {
        match self {
            Tok::Str { text: Some(t), .. } => t,
            Tok::Str {
                start, plain_end, ..
            } => &src[start + 1..*plain_end],
            _ => "",
        }
    }
}

#[derive(Debug, Clone)]
enum State {
    Prose,
    /// After a fence's backticks, up to the end of its line.
    FenceInfo,
    /// Inside a reasoning block.
    Thought(Ends),
    Value,
}

/// What ends a reasoning block.
#[derive(Debug, Clone, Copy)]
enum Ends {
    /// The closing tag of the reasoning tag at this index of `Reader::reasoning_tags`.
    Tag(usize),
    /// A closer of this entry of [`tags::TOKEN_BLOCKS`].
    Tokens(usize),
}

/// The resumable reader; see the module documentation.
#[derive(Debug, Clone)]
pub(crate) struct Reader {
    pos: usize,
    state: State,
    stack: Vec<Frame>,
    /// The start of each frame of `stack` (what the sink is given).
    opens: Vec<usize>,
    tok: Tok,
    fence: bool,
    reasoning_tags: Vec<String>,
    max_depth: usize,
    /// Whether values in the prose are looked for (off once the stream has its value).
    values: bool,
    /// No token starts at or past this offset (a replay stops where the stream stood).
    stop_at: usize,
    /// The backtick run waited on: where it starts and how far it was counted (a run cut by
    /// the end of the text is counted on from there, not again from its start).
    run: (usize, usize),
}

/// How deep a snapshot shows values, whatever `max_depth` says: applying an event recurses
/// once per level, and values deeper than this arrive with `finish` (which reads any depth
/// `max_depth` allows).
pub(crate) const PREVIEW_DEPTH: usize = 128;

/// Whether `b` ends an unquoted value.
fn ends_bare_value(b: u8) -> bool {
    matches!(b, b',' | b'}' | b']' | b'\n' | b'\r')
}

/// Whether `b` ends an unquoted key.
fn ends_bare_key(b: u8) -> bool {
    matches!(
        b,
        b':' | b',' | b'{' | b'}' | b'[' | b']' | b'"' | b'\'' | b' ' | b'\t' | b'\n' | b'\r'
    )
}

/// What waiting means for one step of the scan.
enum Step_ {
    Go,
    Wait,
}

impl Reader {
    pub(crate) fn new(reasoning_tags: &[String], max_depth: usize) -> Reader {
        let max_depth = max_depth.min(PREVIEW_DEPTH);
        Reader {
            pos: 0,
            state: State::Prose,
            stack: Vec::new(),
            opens: Vec::new(),
            tok: Tok::None,
            fence: false,
            reasoning_tags: reasoning_tags.iter().map(|t| t.to_lowercase()).collect(),
            max_depth,
            values: true,
            stop_at: usize::MAX,
            run: (usize::MAX, 0),
        }
    }

    /// A reader that starts inside the value opening at `start` and stops before `stop_at`
    /// (a replay of one container's text so far).
    pub(crate) fn replay(start: usize, stop_at: usize, max_depth: usize) -> Reader {
        let max_depth = max_depth.min(PREVIEW_DEPTH);
        Reader {
            pos: start,
            state: State::Value,
            stack: Vec::new(),
            opens: Vec::new(),
            tok: Tok::None,
            fence: false,
            reasoning_tags: Vec::new(),
            max_depth,
            values: true,
            stop_at,
            run: (usize::MAX, 0),
        }
    }

    /// The quote and start of the string value (not a key) the text `src` ends inside, if
    /// everything read of it so far was sent and nothing is pending (no escape cut in two, no
    /// quote waiting to be called closing or not): text without that quote or a backslash
    /// after it only makes it grow ([`Reader::grow_string`]).
    pub(crate) fn growing_string(&self, src: &str) -> Option<(u8, usize)> {
        let Tok::Str {
            quote,
            key: false,
            started: true,
            close_at: None,
            start,
            sent,
            scan,
            ..
        } = self.tok
        else {
            return None;
        };
        let ready = matches!(self.state, State::Value)
            && self.pos == src.len()
            && scan == src.len()
            && sent == self.tok.decoded(src).len()
            && self.stack.len() <= self.max_depth;
        ready.then_some((quote, start))
    }

    /// Reads the text past the end of the last one as more of the string
    /// [`Reader::growing_string`] found (without quote or backslash), all of it sent: what
    /// [`Reader::advance`] would do with it, without the scan or the events (the caller grew
    /// the string itself).
    pub(crate) fn grow_string(&mut self, src: &str) {
        if let Tok::Str {
            ref mut text,
            ref mut plain_end,
            ref mut scan,
            ..
        } = self.tok
        {
            match text {
                Some(t) => t.push_str(&src[*scan..]),
                None => *plain_end = src.len(),
            }
            *scan = src.len();
        }
        self.mark_sent(src);
    }

    /// Scans on, through the text appended since, in the string [`Reader::growing_string`]
    /// found: the decoded text not yet sent, if the string still grows (no quote met that
    /// may close it); `None` if a quote was met, and [`Reader::advance`] takes it from there.
    /// [`Reader::mark_sent`] then records that the caller grew the string by that text.
    pub(crate) fn scan_on<'s>(&'s mut self, src: &'s str) -> Option<&'s str> {
        let closed = self.scan_string(src);
        let Tok::Str {
            key: false,
            close_at: None,
            sent,
            ..
        } = self.tok
        else {
            return None;
        };
        if closed.is_some() {
            return None;
        }
        self.tok.decoded(src).get(sent..)
    }

    /// Records that everything decoded of the current string was sent, and the reader
    /// stands where its scan stopped (after [`Reader::scan_on`] or [`Reader::grow_string`]).
    pub(crate) fn mark_sent(&mut self, src: &str) {
        let decoded = self.tok.decoded(src).len();
        if let Tok::Str {
            ref mut sent, scan, ..
        } = self.tok
        {
            *sent = decoded;
            self.pos = scan;
        }
    }

    /// Stops looking for values (reasoning is still followed).
    pub(crate) fn stop_values(&mut self) {
        self.values = false;
    }

    /// Reads what `text` adds since the last call; `text` only ever grows.
    pub(crate) fn advance(&mut self, text: &str, sink: &mut dyn Sink) {
        let end = text.len();
        loop {
            let go = match self.state {
                State::Value => self.value(text, sink),
                State::Prose => self.prose(text, sink),
                State::FenceInfo => self.fence_info(text),
                State::Thought { .. } => self.thought(text, sink),
            };
            if matches!(go, Step_::Wait) || (self.pos >= end && matches!(self.tok, Tok::None)) {
                return;
            }
        }
    }

    fn prose(&mut self, text: &str, sink: &mut dyn Sink) -> Step_ {
        let bytes = text.as_bytes();
        let end = bytes.len().min(self.stop_at);
        while self.pos < end {
            let b = bytes[self.pos];
            match b {
                b'<' => match self.reasoning_opens(&bytes[self.pos..]) {
                    Tag::Undecided => return Step_::Wait,
                    Tag::No => self.pos += 1,
                    Tag::Open { len, ends } => {
                        self.open_thought(sink, len, ends);
                        return Step_::Go;
                    }
                },
                b'`' => {
                    let run = self.backtick_run(bytes);
                    if self.pos + run == bytes.len() {
                        return Step_::Wait;
                    }
                    self.pos += run;
                    if run >= 3 {
                        if self.fence {
                            self.fence = false;
                        } else {
                            self.fence = true;
                            self.state = State::FenceInfo;
                            return Step_::Go;
                        }
                    }
                }
                b'{' | b'[' if self.values && sink.candidate(self.pos, text) => {
                    self.state = State::Value;
                    return Step_::Go;
                }
                _ => self.pos += 1,
            }
        }
        Step_::Wait
    }

    fn fence_info(&mut self, text: &str) -> Step_ {
        let bytes = text.as_bytes();
        while self.pos < bytes.len() {
            match bytes[self.pos] {
                b'\n' => {
                    self.pos += 1;
                    self.state = State::Prose;
                    return Step_::Go;
                }
                // An inline fence: ```{"a": 1}```.
                b'{' | b'[' => {
                    self.state = State::Prose;
                    return Step_::Go;
                }
                _ => self.pos += 1,
            }
        }
        Step_::Wait
    }

    /// Whether a reasoning block opens at the `<` that `rest` starts with: a token of
    /// [`tags::TOKEN_BLOCKS`] (whatever the reasoning tags are, as the markup pass), or one of
    /// the reasoning tags.
    fn reasoning_opens(&self, rest: &[u8]) -> Tag {
        match rest.get(1) {
            // `<` alone may become either.
            None => Tag::Undecided,
            Some(b'|') => Self::token_opens(rest),
            Some(_) if self.reasoning_tags.is_empty() => Tag::No,
            Some(_) => self.open_tag(rest),
        }
    }

    /// Whether a block of [`tags::TOKEN_BLOCKS`] opens at the `<` that `rest` starts with.
    fn token_opens(rest: &[u8]) -> Tag {
        match tags::opener_at(rest) {
            TokenAt::No => Tag::No,
            TokenAt::Cut => Tag::Undecided,
            TokenAt::Whole(block, len) => Tag::Open {
                len,
                ends: Ends::Tokens(block),
            },
        }
    }

    /// Enters the reasoning block whose opener (`len` bytes) is at the current position.
    fn open_thought(&mut self, sink: &mut dyn Sink, len: usize, ends: Ends) {
        self.pos += len;
        self.state = State::Thought(ends);
        sink.thought("", true);
    }

    fn open_tag(&self, rest: &[u8]) -> Tag {
        let mut undecided = false;
        for (index, name) in self.reasoning_tags.iter().enumerate() {
            let want = name.len() + 2; // `<name>` or `<name `
            let have = rest.len().min(want);
            let fits = rest[1..have.max(1)]
                .iter()
                .zip(name.as_bytes())
                .all(|(a, b)| a.eq_ignore_ascii_case(b));
            if !fits {
                continue;
            }
            if have < want {
                undecided = true;
                continue;
            }
            match rest[want - 1] {
                b'>' => {
                    return Tag::Open {
                        len: want,
                        ends: Ends::Tag(index),
                    }
                }
                b' ' | b'\t' | b'\n' => match rest[want..].iter().position(|&b| b == b'>') {
                    Some(i) => {
                        return Tag::Open {
                            len: want + i + 1,
                            ends: Ends::Tag(index),
                        }
                    }
                    None if rest.len() - want < 256 => undecided = true,
                    None => {}
                },
                _ => {}
            }
        }
        if undecided {
            Tag::Undecided
        } else {
            Tag::No
        }
    }

    /// Inside a reasoning block: its text goes to the sink up to what ends it (the closing
    /// tag, or one of the block's closing tokens), or up to a `<` that may still become that.
    fn thought(&mut self, text: &str, sink: &mut dyn Sink) -> Step_ {
        let State::Thought(ends) = self.state else {
            return Step_::Go;
        };
        let bytes = text.as_bytes();
        let from = self.pos;
        let mut i = from;
        while let Some(lt) = memchr::memchr(b'<', &bytes[i..]) {
            i += lt;
            let rest = &bytes[i..];
            let (closer, end) = match ends {
                Ends::Tag(index) => {
                    let name = self.reasoning_tags[index].as_bytes();
                    (closing_tag(rest, name), i + name.len() + 3)
                }
                Ends::Tokens(block) => match tags::closer_at(rest, block) {
                    // `<|end|>` belongs to the block; a new header starts what follows.
                    TokenAt::Whole(c, len) if tags::closer_in_block(c) => {
                        (TokenAt::Whole(c, len), i + len)
                    }
                    TokenAt::Whole(c, len) => (TokenAt::Whole(c, len), i),
                    other => (other, i),
                },
            };
            match closer {
                TokenAt::No => i += 1,
                TokenAt::Cut => {
                    sink.thought(&text[from..i], false);
                    self.pos = i;
                    return Step_::Wait;
                }
                TokenAt::Whole(..) => {
                    sink.thought(&text[from..i], false);
                    self.pos = end;
                    self.state = State::Prose;
                    return Step_::Go;
                }
            }
        }
        sink.thought(&text[from..], false);
        self.pos = bytes.len();
        Step_::Wait
    }

    /// Sends `event` at the current place with its path; nothing where events are not sent
    /// (below a member whose key could not be read, or deeper than the depth limit).
    /// `closed` is the container's span for a [`Event::Close`], and not read for any other
    /// event. It is a plain `Span` (two registers), not an `Option` (passed through memory):
    /// the callers stored a `None` as its tag word alone, and the copy here loaded it as
    /// wider words, stalling on store forwarding (two fifths of this function's time on
    /// dense records).
    fn send(&self, text: &str, sink: &mut dyn Sink, event: &Event<'_>, closed: Span) {
        if self.stack.len() > self.max_depth {
            return;
        }
        let place = At {
            text,
            opens: &self.opens,
            now: self.pos,
            closed: matches!(event, Event::Close).then_some(closed),
            string: match self.tok {
                Tok::Str { start, .. } => start,
                _ => usize::MAX,
            },
        };
        // The path on the stack for the usual depths, in an array no longer than it needs
        // (each slot is written before the path is built); on the heap past them. Filled in
        // place: a helper returning the array made dense records 3% slower.
        let depth = self.stack.len();
        if depth <= 4 {
            let mut path = [Step::Index(0); 4];
            if fill(&mut path, &self.stack, text) {
                sink.event(&path[..depth], event, &place);
            }
        } else if depth <= 16 {
            let mut path = [Step::Index(0); 16];
            if fill(&mut path, &self.stack, text) {
                sink.event(&path[..depth], event, &place);
            }
        } else if let Some(path) = self
            .stack
            .iter()
            .map(|f| f.step(text))
            .collect::<Option<Vec<_>>>()
        {
            sink.event(&path, event, &place);
        }
    }

    /// A value starts in the current frame: moves the frame to its value's place. Returns
    /// whether it is a key instead.
    fn value_starts(&mut self, key_like: bool) -> bool {
        let Some(top) = self.stack.last_mut() else {
            return false;
        };
        match (top.kind, top.expect) {
            (Container::Array, Expect::After) => {
                top.index += 1;
                top.expect = Expect::Value;
                false
            }
            (Container::Array, _) => false,
            (Container::Object, Expect::Key | Expect::After) if key_like => true,
            (Container::Object, Expect::Key | Expect::After) => {
                top.key = None;
                false
            }
            (Container::Object, _) => false,
        }
    }

    fn value_done(&mut self) {
        match self.stack.last_mut() {
            Some(top) => top.expect = Expect::After,
            // A value read on its own (salvage) is over.
            None => self.state = State::Prose,
        }
    }

    fn value(&mut self, text: &str, sink: &mut dyn Sink) -> Step_ {
        let bytes = text.as_bytes();
        let end = bytes.len().min(self.stop_at);
        loop {
            if let Step_::Wait = self.token(text, sink) {
                return Step_::Wait;
            }
            if self.stack.is_empty() && !matches!(self.state, State::Value) {
                return Step_::Go;
            }
            // Bytes that leave no token open (spaces, delimiters, a string read whole) come
            // back here, not to the token's dispatch above: most bytes between values are
            // these.
            loop {
                if self.pos >= end {
                    return Step_::Wait;
                }
                let b = bytes[self.pos];
                match b {
                    b' ' | b'\t' | b'\n' | b'\r' => self.skip_spaces(bytes, self.pos + 1),
                    b'{' => self.open(text, sink, Container::Object),
                    b'[' => self.open(text, sink, Container::Array),
                    b'}' | b']' => {
                        let kind = if b == b'}' {
                            Container::Object
                        } else {
                            Container::Array
                        };
                        if let Step_::Go = self.close(text, sink, kind) {
                            return Step_::Go;
                        }
                    }
                    b',' => {
                        self.comma();
                        self.skip_spaces(bytes, self.pos);
                    }
                    b':' => {
                        self.colon();
                        self.skip_spaces(bytes, self.pos);
                    }
                    b'"' | b'\'' => {
                        if !self.start_string(text, sink, b) || self.stack.is_empty() {
                            break;
                        }
                    }
                    _ => {
                        if let Some(step) = self.opens_token(bytes, sink, b) {
                            return step;
                        }
                        break;
                    }
                }
            }
        }
    }

    /// A byte between a value's tokens that opens a token (a comment, a bare word) or cuts
    /// the value off (a fence, a reasoning token): `Some` when `value` returns that step,
    /// `None` when a token is open for [`Reader::token`].
    #[inline]
    fn opens_token(&mut self, bytes: &[u8], sink: &mut dyn Sink, b: u8) -> Option<Step_> {
        match b {
            b'#' if !self.expects_key_or_comma() => self.start_bare(),
            b'/' | b'#' => match (b, bytes.get(self.pos + 1)) {
                (b'/', None) => return Some(Step_::Wait),
                (b'/', Some(b'/')) | (b'#', _) => {
                    self.tok = Tok::LineComment;
                    self.pos += 1;
                }
                (b'/', Some(b'*')) => {
                    self.tok = Tok::BlockComment;
                    self.pos += 2;
                }
                _ => self.start_bare(),
            },
            b'`' => return self.backticks(bytes, sink),
            // A reasoning token between the value's tokens (not in a string or comment) opens
            // its block, as in the markup pass: the value is cut off there.
            b'<' => match Self::token_opens(&bytes[self.pos..]) {
                Tag::Undecided => return Some(Step_::Wait),
                Tag::No => self.start_bare(),
                Tag::Open { len, ends } => {
                    self.stack.clear();
                    self.opens.clear();
                    sink.abandoned();
                    self.open_thought(sink, len, ends);
                    return Some(Step_::Go);
                }
            },
            _ => self.start_bare(),
        }
        None
    }

    /// Moves past the spaces and line breaks from `from` on.
    #[inline]
    fn skip_spaces(&mut self, bytes: &[u8], from: usize) {
        let mut at = from;
        while bytes
            .get(at)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            at += 1;
        }
        self.pos = at;
    }

    /// Goes on with the token the text so far ended inside, if any; `Wait` if it still does.
    fn token(&mut self, text: &str, sink: &mut dyn Sink) -> Step_ {
        let bytes = text.as_bytes();
        loop {
            let step = match self.tok {
                Tok::None => return Step_::Go,
                Tok::Str { .. } => self.string(text, sink),
                Tok::Bare { .. } => self.bare(text, sink),
                Tok::Fenced { .. } => self.fenced(text, sink),
                Tok::LineComment => match memchr::memchr(b'\n', &bytes[self.pos..]) {
                    Some(i) => {
                        self.pos += i + 1;
                        self.tok = Tok::None;
                        Step_::Go
                    }
                    None => {
                        self.pos = bytes.len();
                        Step_::Wait
                    }
                },
                Tok::BlockComment => match memchr::memmem::find(&bytes[self.pos..], b"*/") {
                    Some(i) => {
                        self.pos += i + 2;
                        self.tok = Tok::None;
                        Step_::Go
                    }
                    None => {
                        // Keep a last `*` in case the `/` comes next.
                        self.pos = bytes.len().saturating_sub(1).max(self.pos);
                        Step_::Wait
                    }
                },
            };
            if let Step_::Wait = step {
                return Step_::Wait;
            }
        }
    }

    fn open(&mut self, text: &str, sink: &mut dyn Sink, kind: Container) {
        if !self.stack.is_empty() {
            self.value_starts(false);
        }
        self.send(text, sink, &Event::Open(kind), Span::default());
        self.opens.push(self.pos);
        self.stack.push(Frame {
            kind,
            start: self.pos,
            key: None,
            index: 0,
            expect: if kind == Container::Object {
                Expect::Key
            } else {
                Expect::Value
            },
        });
        self.pos += 1;
    }

    /// A closer: closes the innermost open container of its kind (containers left open
    /// inside it are cut off: no `Close` for them); a closer that closes nothing is text.
    /// `Go` when it closed the value.
    fn close(&mut self, text: &str, sink: &mut dyn Sink, kind: Container) -> Step_ {
        self.pos += 1;
        let Some(at) = self.stack.iter().rposition(|f| f.kind == kind) else {
            return Step_::Wait;
        };
        self.stack.truncate(at + 1);
        self.opens.truncate(at);
        let frame = self.stack.pop().expect("found above");
        let span = Span::new(frame.start, self.pos);
        self.send(text, sink, &Event::Close, span);
        self.value_done();
        if self.stack.is_empty() {
            self.state = State::Prose;
            return Step_::Go;
        }
        Step_::Wait
    }

    fn comma(&mut self) {
        self.pos += 1;
        if let Some(top) = self.stack.last_mut() {
            match (top.kind, top.expect) {
                (Container::Array, Expect::After) => {
                    top.index += 1;
                    top.expect = Expect::Value;
                }
                (Container::Object, _) => {
                    top.key = None;
                    top.expect = Expect::Key;
                }
                _ => {}
            }
        }
    }

    fn colon(&mut self) {
        self.pos += 1;
        if let Some(top) = self.stack.last_mut() {
            if top.kind == Container::Object && top.expect == Expect::Colon {
                top.expect = Expect::Value;
            }
        }
    }

    /// A quote between tokens: the string read at once if it is whole (`true`), else its
    /// token opened (`false`).
    fn start_string(&mut self, text: &str, sink: &mut dyn Sink, quote: u8) -> bool {
        let key = self.value_starts(true);
        if self.whole_string(text, sink, quote, key) {
            return true;
        }
        self.tok = Tok::Str {
            quote,
            key,
            start: self.pos,
            text: None,
            plain_end: self.pos + 1,
            sent: 0,
            started: false,
            scan: self.pos + 1,
            close_at: None,
        };
        self.pos += 1;
        false
    }

    /// A string whose closing quote is already in the text, with no escape before it, read
    /// at once without the token's state (the usual case); `false` leaves it to the token.
    fn whole_string(&mut self, text: &str, sink: &mut dyn Sink, quote: u8, key: bool) -> bool {
        let bytes = text.as_bytes();
        let start = self.pos;
        let Some(i) = find_quote_or_backslash(&bytes[start + 1..], quote) else {
            return false;
        };
        let q = start + 1 + i;
        if bytes[q] != quote || !matches!(closing_quote(bytes, q, q + 1, key), Some((true, _))) {
            return false;
        }
        self.pos = q + 1;
        if key {
            if let Some(top) = self.stack.last_mut() {
                top.key = Some(Key::At(start + 1, q));
                top.expect = Expect::Colon;
            }
            return true;
        }
        let node = Node::new(
            NodeKind::String(Str {
                text: Cow::Borrowed(&text[start + 1..q]),
                quoting: if quote == b'"' {
                    Quoting::Double
                } else {
                    Quoting::Other
                },
            }),
            Span::new(start, q + 1),
        );
        self.send(text, sink, &Event::Value(&node), Span::default());
        self.value_done();
        true
    }

    /// The length of the backtick run at the current position. A run that reached the end of
    /// the text was waited on; it is counted on from where that count stopped, so a long run
    /// arriving a byte at a time is examined once, not once per chunk.
    fn backtick_run(&mut self, bytes: &[u8]) -> usize {
        let from = match self.run {
            (start, counted) if start == self.pos => counted,
            _ => self.pos,
        };
        let end = from + bytes[from..].iter().take_while(|&&c| c == b'`').count();
        self.run = (self.pos, end);
        end - self.pos
    }

    /// A run of backticks between a value's tokens: the fence closing (the value is cut off,
    /// `Go`), or the start of a bare word; `Wait` when the run reaches the end of the text so
    /// far, since it may go on in the next chunk (read whole, as in the prose: the rest of it
    /// would otherwise be read as a run of its own, a second fence).
    fn backticks(&mut self, bytes: &[u8], sink: &mut dyn Sink) -> Option<Step_> {
        let run = self.backtick_run(bytes);
        if self.pos + run == bytes.len() {
            return Some(Step_::Wait);
        }
        if run >= 3 && self.expects_value() {
            match code_block_body(bytes, self.pos + run) {
                Some(Some(body)) => {
                    self.value_starts(false);
                    self.tok = Tok::Fenced {
                        start: self.pos,
                        run,
                        body,
                        scan: body,
                        line_start: body,
                    };
                    self.pos = body;
                    return None;
                }
                // The info string's line is not whole yet.
                None => return Some(Step_::Wait),
                Some(None) => {}
            }
        }
        if run >= 3 && self.fence {
            self.fence_closes_value(sink, run);
            return Some(Step_::Go);
        }
        self.start_bare();
        None
    }

    /// The fence closes inside the value: the value is cut off.
    fn fence_closes_value(&mut self, sink: &mut dyn Sink, run: usize) {
        self.stack.clear();
        self.opens.clear();
        self.fence = false;
        self.pos += run;
        self.state = State::Prose;
        sink.abandoned();
    }

    /// Whether a value belongs here: after a key's colon, or where an array's item starts.
    fn expects_value(&self) -> bool {
        self.stack.last().is_some_and(|f| f.expect == Expect::Value)
    }

    /// Goes on with a value written as a code block: `Wait` until its closing run (as long,
    /// first on its line) arrives, then the code as one `Value` event, dedented, without the
    /// info string, as the parser reads it.
    fn fenced(&mut self, text: &str, sink: &mut dyn Sink) -> Step_ {
        let Tok::Fenced {
            start,
            run,
            body,
            scan,
            line_start,
        } = self.tok
        else {
            return Step_::Go;
        };
        let (content_end, after) =
            match code_block_end(text.as_bytes(), run, scan, line_start, true) {
                CodeEnd::Closed { content_end, after } => (content_end, after),
                CodeEnd::Open { scan, line_start } => {
                    self.tok = Tok::Fenced {
                        start,
                        run,
                        body,
                        scan,
                        line_start,
                    };
                    self.pos = scan;
                    return Step_::Wait;
                }
            };
        self.tok = Tok::None;
        self.pos = after;
        let node = Node::new(
            NodeKind::String(Str {
                text: Cow::Owned(code_block_text(text, body, content_end)),
                quoting: Quoting::Other,
            }),
            Span::new(start, after),
        );
        self.send(text, sink, &Event::Value(&node), Span::default());
        self.value_done();
        Step_::Go
    }

    fn expects_key_or_comma(&self) -> bool {
        self.stack
            .last()
            .is_some_and(|f| matches!(f.expect, Expect::Key | Expect::After))
    }

    fn start_bare(&mut self) {
        let key = self.value_starts(true);
        self.tok = Tok::Bare {
            key,
            start: self.pos,
            scan: self.pos,
        };
    }

    fn bare(&mut self, text: &str, sink: &mut dyn Sink) -> Step_ {
        let Tok::Bare {
            key,
            start,
            mut scan,
        } = self.tok
        else {
            return Step_::Go;
        };
        let bytes = text.as_bytes();
        // A `<` may start a reasoning token, which ends the word (the value's scan reads
        // it next).
        let end = loop {
            let found = if key {
                bytes[scan..]
                    .iter()
                    .position(|&b| ends_bare_key(b) || b == b'<')
            } else {
                bytes[scan..]
                    .iter()
                    .position(|&b| ends_bare_value(b) || b == b'<')
            };
            let Some(i) = found else {
                scan = bytes.len();
                break None;
            };
            let at = scan + i;
            if bytes[at] != b'<' {
                break Some(at);
            }
            // At the word's start it was already found to open nothing.
            let opens = if at == start {
                Tag::No
            } else {
                Self::token_opens(&bytes[at..])
            };
            match opens {
                Tag::No => scan = at + 1,
                Tag::Undecided => {
                    scan = at;
                    break None;
                }
                Tag::Open { .. } => break Some(at),
            }
        };
        let Some(end) = end else {
            self.tok = Tok::Bare { key, start, scan };
            return Step_::Wait;
        };
        self.tok = Tok::None;
        // A token always takes at least one byte.
        self.pos = end.max(start + 1);
        let end = self.pos;
        let word = text[start..end].trim_end();
        if key {
            if let Some(top) = self.stack.last_mut() {
                top.key = Some(Key::At(start, start + word.len()));
                top.expect = Expect::Colon;
            }
            return Step_::Go;
        }
        // The lenient parser reads the literal (`True`, `None`, `1e3`, `-0.5`, a bare word).
        if let Some(node) = scalar(word, start) {
            self.send(text, sink, &Event::Value(&node), Span::default());
        }
        self.value_done();
        Step_::Go
    }

    /// Scans the string token from where it stopped: the offset after its closing quote
    /// once that is decided, else `None` (the text so far ends inside it).
    fn scan_string(&mut self, src: &str) -> Option<usize> {
        let bytes = src.as_bytes();
        let end = bytes.len();
        let Tok::Str {
            quote,
            key,
            start,
            ref mut text,
            ref mut plain_end,
            ref mut scan,
            ref mut close_at,
            ..
        } = self.tok
        else {
            return None;
        };
        // While no escape was met, the decoded text is `src[start + 1..plain_end]` (no copy).
        let content = start + 1;
        let mut closed = None;
        loop {
            if let Some(q) = *close_at {
                let Some((closes, next)) = closing_quote(bytes, q, *scan, key) else {
                    *scan = end;
                    break;
                };
                if closes {
                    closed = Some(q + 1);
                    break;
                }
                // An unescaped quote inside the string: it and the spaces after it are text.
                match text {
                    Some(t) => t.push_str(&src[q..next]),
                    None => *plain_end = next,
                }
                *close_at = None;
                *scan = next;
                continue;
            }
            let Some(i) = find_quote_or_backslash(&bytes[*scan..], quote) else {
                match text {
                    Some(t) => t.push_str(&src[*scan..]),
                    None => *plain_end = end,
                }
                *scan = end;
                break;
            };
            let at = *scan + i;
            match text {
                Some(t) => t.push_str(&src[*scan..at]),
                None => *plain_end = at,
            }
            *scan = at;
            if bytes[at] == quote {
                *close_at = Some(at);
                *scan = at + 1;
                continue;
            }
            let decoded = match escape(bytes, at, quote) {
                Escape::Wait => break,
                Escape::Char(c, len) => {
                    *scan = at + len;
                    Err(c)
                }
                Escape::Literal(len) => {
                    *scan = at + len;
                    Ok(&src[at..at + len])
                }
            };
            let t = text.get_or_insert_with(|| src[content..at].to_string());
            match decoded {
                Err(c) => t.push(c),
                Ok(s) => t.push_str(s),
            }
        }
        closed
    }

    fn string(&mut self, src: &str, sink: &mut dyn Sink) -> Step_ {
        let closed = self.scan_string(src);
        let Tok::Str {
            quote,
            key,
            start,
            ref mut text,
            plain_end,
            sent,
            started,
            scan,
            ..
        } = self.tok
        else {
            return Step_::Go;
        };
        let content = start + 1;
        if key {
            let Some(after) = closed else {
                self.pos = scan;
                return Step_::Wait;
            };
            let name = match text.take() {
                Some(t) => Key::Owned(t),
                None => Key::At(content, plain_end),
            };
            self.tok = Tok::None;
            self.pos = after;
            if let Some(top) = self.stack.last_mut() {
                top.key = Some(name);
                top.expect = Expect::Colon;
            }
            return Step_::Go;
        }
        let scanned = scan;
        // Sent as it grows: everything decoded so far is certain.
        let decoded = self.tok.decoded(src);
        let piece = &decoded[sent.min(decoded.len())..];
        // A string read whole in this push is one `Value` event; one that goes on past it
        // shows as begun (an empty piece) even before its first character.
        let grown = !piece.is_empty() || (closed.is_none() && !started);
        let decoded_len = decoded.len();
        if grown {
            self.pos = scanned;
            self.send(src, sink, &Event::Grow(piece), Span::default());
        }
        let Some(after) = closed else {
            if let Tok::Str { sent, started, .. } = &mut self.tok {
                *sent = decoded_len;
                *started = true;
            }
            self.pos = scanned;
            return Step_::Wait;
        };
        let text = match std::mem::replace(&mut self.tok, Tok::None) {
            Tok::Str { text: Some(t), .. } => Cow::Owned(t),
            _ => Cow::Borrowed(&src[content..plain_end]),
        };
        self.pos = after;
        let node = Node::new(
            NodeKind::String(Str {
                text,
                quoting: if quote == b'"' {
                    Quoting::Double
                } else {
                    Quoting::Other
                },
            }),
            Span::new(start, after),
        );
        self.send(src, sink, &Event::Value(&node), Span::default());
        self.value_done();
        Step_::Go
    }
}

/// The first `quote` or backslash in `bytes`: the first 16 bytes looked at one by one (most
/// keys and short values end in them, and `memchr2`'s call and setup cost more than the
/// search there), then `memchr2`.
#[inline]
fn find_quote_or_backslash(bytes: &[u8], quote: u8) -> Option<usize> {
    const SHORT: usize = 16;
    let head = &bytes[..bytes.len().min(SHORT)];
    if let Some(i) = head.iter().position(|&c| c == quote || c == b'\\') {
        return Some(i);
    }
    if bytes.len() <= SHORT {
        return None;
    }
    memchr::memchr2(quote, b'\\', &bytes[SHORT..]).map(|i| i + SHORT)
}

/// Whether the quote at `q` closes its string, decided by the first byte from `from` on that
/// is not a space (given with it), or `None` while the text so far ends before one. It
/// closes before a delimiter, a comment or a fence, or when a line break came first;
/// otherwise it is a quote inside the string that was not escaped.
fn closing_quote(bytes: &[u8], q: usize, from: usize, key: bool) -> Option<(bool, usize)> {
    let gap = bytes[from..]
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))?;
    let next = from + gap;
    let newline = bytes[q + 1..next].contains(&b'\n');
    let closes = newline
        || matches!(bytes[next], b',' | b'}' | b']' | b':' | b'`')
        || (bytes[next] == b'/' && !key);
    Some((closes, next))
}

enum Tag {
    Undecided,
    No,
    Open { len: usize, ends: Ends },
}

/// How `rest` (from a `<`) compares with the closing tag `</name>` (`name` lowercased; the
/// tag in any case, as the markup pass reads tags).
fn closing_tag(rest: &[u8], name: &[u8]) -> TokenAt {
    let len = name.len() + 3;
    let expected = |k: usize| match k {
        0 => b'<',
        1 => b'/',
        k if k < len - 1 => name[k - 2],
        _ => b'>',
    };
    let have = rest.len().min(len);
    if !(0..have).all(|k| rest[k].eq_ignore_ascii_case(&expected(k))) {
        TokenAt::No
    } else if have < len {
        TokenAt::Cut
    } else {
        TokenAt::Whole(0, len)
    }
}

enum Escape {
    /// The escape is cut off by the end of the text so far.
    Wait,
    Char(char, usize),
    /// Not an escape JSON knows: kept as written.
    Literal(usize),
}

/// The literal `word` (at `start`) as the lenient parser reads it: JSON's own literals and
/// plain numbers directly, anything else (`True`, `None`, `NaN`, `.5`, a bare word) through
/// the parser.
fn scalar(word: &str, start: usize) -> Option<Node<'_>> {
    let span = Span::new(start, start + word.len());
    let kind = match word {
        "true" => NodeKind::Bool(true),
        "false" => NodeKind::Bool(false),
        "null" => NodeKind::Null,
        _ if is_plain_number(word.as_bytes()) => {
            let number = if let Ok(n) = word.parse::<u64>() {
                crate::node::Number::PosInt(n)
            } else if let Ok(n) = word.parse::<i64>() {
                crate::node::Number::NegInt(n)
            } else {
                crate::node::Number::Float(word.parse::<f64>().ok()?)
            };
            NodeKind::Number(number)
        }
        _ => {
            let parsed = crate::parse::parse(word, 1).ok()?;
            if !parsed.node.complete {
                return None;
            }
            let mut node = parsed.node;
            node.span = Span::new(start + node.span.start, start + node.span.end);
            return Some(node);
        }
    };
    Some(Node::new(kind, span))
}

/// Whether `b` is a number as JSON writes it (`-12`, `3.25`, `1e-3`), without leading zeros.
fn is_plain_number(b: &[u8]) -> bool {
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let from = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - from
    };
    let int_start = i;
    let n = digits(&mut i);
    if n == 0 || (n > 1 && b[int_start] == b'0') {
        return false;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// The escape at `at` (a backslash) in a string quoted with `quote`: JSON's own escapes as
/// `lex::strict_escape` decodes them; then the lenient ones (`\'`, an unknown escape kept as
/// written, a lone surrogate as U+FFFD); `Wait` while the text so far ends inside one that
/// could still become another (`\u00`, a high surrogate whose pair may follow).
fn escape(bytes: &[u8], at: usize, quote: u8) -> Escape {
    if let Some((c, len)) = lex::strict_escape(bytes, at) {
        return Escape::Char(c, len);
    }
    let Some(&c) = bytes.get(at + 1) else {
        return Escape::Wait;
    };
    if c == quote || c == b'\'' {
        return Escape::Char(c as char, 2);
    }
    if c != b'u' {
        // Kept with the character after it, which may be several bytes.
        let len = 1 + lex::utf8_len(c);
        return if bytes.len() < at + len {
            Escape::Wait
        } else {
            Escape::Literal(len)
        };
    }
    let hexish = |b: &[u8]| b.iter().all(u8::is_ascii_hexdigit);
    let digits = &bytes[at + 2..bytes.len().min(at + 6)];
    if !hexish(digits) {
        return Escape::Literal(2);
    }
    if digits.len() < 4 {
        return Escape::Wait;
    }
    let high = lex::hex4(bytes, at + 2).is_some_and(|h| (0xD800..0xDC00).contains(&h));
    let pair = &bytes[at + 6..bytes.len().min(at + 12)];
    let pair_may_follow = pair.len() < 6
        && b"\\u".starts_with(&pair[..pair.len().min(2)])
        && hexish(pair.get(2..).unwrap_or_default());
    if high && pair_may_follow {
        Escape::Wait
    } else {
        Escape::Char('\u{FFFD}', 6)
    }
}
