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
//! text may be `123`, `tru` may be `true`, `<thi` may be `<think>`, a closing quote may be an
//! unescaped quote inside the string. The lexical rules are the lenient parser's in small:
//! double, single and unquoted strings and keys, comments, `True`/`None`, trailing and
//! missing commas, fences and reasoning tags around the value. The full parser reads the
//! whole reply once more at `finish`; this reader only shows what is certain so far.

use super::{Container, Event, Step};
use crate::node::{Node, NodeKind, Quoting, Str};
use crate::span::Span;
use std::borrow::Cow;

/// Where an event happens, for the sink: the text so far, the start of every open container
/// from the root down, the offset just past the event, and for a closed container its span.
pub(crate) struct At<'r> {
    pub text: &'r str,
    pub opens: &'r [usize],
    pub now: usize,
    pub closed: Option<Span>,
}

/// What receives the reader's events.
pub(crate) trait Sink {
    /// One event at `at` (the path from the value's root).
    fn event(&mut self, at: &[Step<'_>], event: &Event<'_>, place: &At<'_>);
    /// A value starts in the prose at `start`: whether to read it.
    fn candidate(&mut self, _start: usize) -> bool {
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
    key: Option<String>,
    index: usize,
    expect: Expect,
}

#[derive(Debug, Clone)]
enum Tok {
    None,
    Str {
        quote: u8,
        key: bool,
        start: usize,
        text: String,
        /// How much of `text` the sink has seen.
        sent: usize,
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
}

#[derive(Debug, Clone)]
enum State {
    Prose,
    /// After a fence's backticks, up to the end of its line.
    FenceInfo,
    /// Inside a reasoning block that ends with `close`.
    Thought {
        close: String,
    },
    Value,
}

/// The resumable reader; see the module documentation.
#[derive(Debug, Clone)]
pub(crate) struct Reader {
    pos: usize,
    state: State,
    stack: Vec<Frame>,
    tok: Tok,
    fence: bool,
    reasoning_tags: Vec<String>,
    max_depth: usize,
    /// Whether values in the prose are looked for (off once the stream has its value).
    values: bool,
    /// No token starts at or past this offset (a replay stops where the stream stood).
    stop_at: usize,
}

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
        Reader {
            pos: 0,
            state: State::Prose,
            stack: Vec::new(),
            tok: Tok::None,
            fence: false,
            reasoning_tags: reasoning_tags.iter().map(|t| t.to_lowercase()).collect(),
            max_depth,
            values: true,
            stop_at: usize::MAX,
        }
    }

    /// A reader that starts inside the value opening at `start` and stops before `stop_at`
    /// (a replay of one container's text so far).
    pub(crate) fn replay(start: usize, stop_at: usize, max_depth: usize) -> Reader {
        Reader {
            pos: start,
            state: State::Value,
            stack: Vec::new(),
            tok: Tok::None,
            fence: false,
            reasoning_tags: Vec::new(),
            max_depth,
            values: true,
            stop_at,
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
                b'<' if !self.reasoning_tags.is_empty() => {
                    match self.open_tag(&text[self.pos..]) {
                        Tag::Undecided => return Step_::Wait,
                        Tag::No => self.pos += 1,
                        Tag::Open { len, close } => {
                            self.pos += len;
                            self.state = State::Thought { close };
                            sink.thought("", true);
                            return Step_::Go;
                        }
                    }
                }
                b'`' => {
                    let run = bytes[self.pos..].iter().take_while(|&&c| c == b'`').count();
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
                b'{' | b'[' if self.values && sink.candidate(self.pos) => {
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

    fn open_tag(&self, rest: &str) -> Tag {
        let rest = rest.as_bytes();
        let mut undecided = false;
        for name in &self.reasoning_tags {
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
                        close: format!("</{name}>"),
                    }
                }
                b' ' | b'\t' | b'\n' => match rest[want..].iter().position(|&b| b == b'>') {
                    Some(i) => {
                        return Tag::Open {
                            len: want + i + 1,
                            close: format!("</{name}>"),
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

    fn thought(&mut self, text: &str, sink: &mut dyn Sink) -> Step_ {
        let State::Thought { close } = &self.state else {
            return Step_::Go;
        };
        let bytes = text.as_bytes();
        let from = self.pos;
        let mut i = from;
        while i < bytes.len() {
            if bytes[i] != b'<' {
                i += 1;
                continue;
            }
            let have = (bytes.len() - i).min(close.len());
            if !bytes[i..i + have].eq_ignore_ascii_case(&close.as_bytes()[..have]) {
                i += 1;
                continue;
            }
            sink.thought(&text[from..i], false);
            if have < close.len() {
                self.pos = i;
                return Step_::Wait;
            }
            self.pos = i + close.len();
            self.state = State::Prose;
            return Step_::Go;
        }
        sink.thought(&text[from..], false);
        self.pos = bytes.len();
        Step_::Wait
    }

    /// The path to the current place, or `None` where events are not sent (a member whose
    /// key could not be read, or deeper than the depth limit).
    fn steps(&self) -> Option<Vec<Step<'_>>> {
        if self.stack.len() > self.max_depth {
            return None;
        }
        self.stack
            .iter()
            .map(|f| match f.kind {
                Container::Object => f.key.as_deref().map(Step::Key),
                Container::Array => Some(Step::Index(f.index)),
            })
            .collect()
    }

    fn send(&self, text: &str, sink: &mut dyn Sink, event: &Event<'_>, closed: Option<Span>) {
        if let Some(at) = self.steps() {
            let opens: Vec<usize> = self.stack.iter().map(|f| f.start).collect();
            let place = At {
                text,
                opens: &opens,
                now: self.pos,
                closed,
            };
            sink.event(&at, event, &place);
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
        loop {
            match self.tok {
                Tok::None => {}
                Tok::Str { .. } => match self.string(text, sink) {
                    Step_::Go => continue,
                    Step_::Wait => return Step_::Wait,
                },
                Tok::Bare { .. } => match self.bare(text, sink) {
                    Step_::Go => continue,
                    Step_::Wait => return Step_::Wait,
                },
                Tok::LineComment => match memchr::memchr(b'\n', &bytes[self.pos..]) {
                    Some(i) => {
                        self.pos += i + 1;
                        self.tok = Tok::None;
                    }
                    None => {
                        self.pos = bytes.len();
                        return Step_::Wait;
                    }
                },
                Tok::BlockComment => match memchr::memmem::find(&bytes[self.pos..], b"*/") {
                    Some(i) => {
                        self.pos += i + 2;
                        self.tok = Tok::None;
                    }
                    None => {
                        // Keep a last `*` in case the `/` comes next.
                        self.pos = bytes.len().saturating_sub(1).max(self.pos);
                        return Step_::Wait;
                    }
                },
            }
            if self.stack.is_empty() && !matches!(self.state, State::Value) {
                return Step_::Go;
            }
            if self.pos >= bytes.len().min(self.stop_at) {
                return Step_::Wait;
            }
            let b = bytes[self.pos];
            match b {
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                b'{' | b'[' => {
                    let kind = if b == b'{' {
                        Container::Object
                    } else {
                        Container::Array
                    };
                    if !self.stack.is_empty() {
                        self.value_starts(false);
                    }
                    self.send(text, sink, &Event::Open(kind), None);
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
                b'}' | b']' => {
                    let kind = if b == b'}' {
                        Container::Object
                    } else {
                        Container::Array
                    };
                    self.pos += 1;
                    match self.stack.iter().rposition(|f| f.kind == kind) {
                        // A closer that closes nothing is text.
                        None => {}
                        Some(at) => {
                            // Containers left open inside are cut off: no `Close` for them.
                            self.stack.truncate(at + 1);
                            let frame = self.stack.pop().expect("found above");
                            let span = Span::new(frame.start, self.pos);
                            self.send(text, sink, &Event::Close, Some(span));
                            self.value_done();
                            if self.stack.is_empty() {
                                self.state = State::Prose;
                                return Step_::Go;
                            }
                        }
                    }
                }
                b',' => {
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
                b':' => {
                    self.pos += 1;
                    if let Some(top) = self.stack.last_mut() {
                        if top.kind == Container::Object && top.expect == Expect::Colon {
                            top.expect = Expect::Value;
                        }
                    }
                }
                b'"' | b'\'' => {
                    let key = self.value_starts(true);
                    self.tok = Tok::Str {
                        quote: b,
                        key,
                        start: self.pos,
                        text: String::new(),
                        sent: 0,
                        scan: self.pos + 1,
                        close_at: None,
                    };
                    if !key {
                        self.send(text, sink, &Event::Grow(""), None);
                    }
                    self.pos += 1;
                }
                b'#' if !self.expects_key_or_comma() => self.start_bare(),
                b'/' | b'#' => {
                    let next = bytes.get(self.pos + 1).copied();
                    match (b, next) {
                        (b'/', None) => return Step_::Wait,
                        (b'/', Some(b'/')) | (b'#', _) => {
                            self.tok = Tok::LineComment;
                            self.pos += 1;
                        }
                        (b'/', Some(b'*')) => {
                            self.tok = Tok::BlockComment;
                            self.pos += 2;
                        }
                        _ => self.start_bare(),
                    }
                }
                b'`' => {
                    let run = bytes[self.pos..].iter().take_while(|&&c| c == b'`').count();
                    if run >= 3 && self.fence {
                        // The fence closes inside the value: it is cut off.
                        self.stack.clear();
                        self.fence = false;
                        self.pos += run;
                        self.state = State::Prose;
                        sink.abandoned();
                        return Step_::Go;
                    }
                    if self.pos + run == bytes.len() && run < 3 {
                        return Step_::Wait;
                    }
                    self.start_bare();
                }
                _ => self.start_bare(),
            }
        }
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
        let Tok::Bare { key, start, scan } = self.tok else {
            return Step_::Go;
        };
        let bytes = text.as_bytes();
        let stop = if key { ends_bare_key } else { ends_bare_value };
        let Some(i) = bytes[scan..].iter().position(|&b| stop(b)) else {
            self.tok = Tok::Bare {
                key,
                start,
                scan: bytes.len(),
            };
            return Step_::Wait;
        };
        let end = scan + i;
        self.tok = Tok::None;
        // A token always takes at least one byte.
        self.pos = end.max(start + 1);
        let end = self.pos;
        let word = text[start..end].trim_end();
        if key {
            if let Some(top) = self.stack.last_mut() {
                top.key = Some(word.to_string());
                top.expect = Expect::Colon;
            }
            return Step_::Go;
        }
        // The lenient parser reads the literal (`True`, `None`, `1e3`, `-0.5`, a bare word).
        if let Ok(parsed) = crate::parse::parse(word, 1) {
            if parsed.node.complete {
                let mut node = parsed.node;
                node.span = Span::new(start + node.span.start, start + node.span.end);
                self.send(text, sink, &Event::Value(&node), None);
            }
        }
        self.value_done();
        Step_::Go
    }

    fn string(&mut self, src: &str, sink: &mut dyn Sink) -> Step_ {
        let bytes = src.as_bytes();
        let end = bytes.len();
        let Tok::Str {
            quote,
            key,
            start,
            ref mut text,
            ref mut sent,
            ref mut scan,
            ref mut close_at,
        } = self.tok
        else {
            return Step_::Go;
        };
        let mut closed = None;
        loop {
            if let Some(q) = *close_at {
                let gap = bytes[*scan..]
                    .iter()
                    .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
                let Some(gap) = gap else {
                    *scan = end;
                    break;
                };
                let next = *scan + gap;
                let newline = bytes[q + 1..next].contains(&b'\n');
                let closes = newline
                    || matches!(bytes[next], b',' | b'}' | b']' | b':' | b'`')
                    || (bytes[next] == b'/' && !key);
                if closes {
                    closed = Some(q + 1);
                    break;
                }
                // An unescaped quote inside the string.
                text.push_str(&src[q..next]);
                *close_at = None;
                *scan = next;
                continue;
            }
            let Some(i) = memchr::memchr2(quote, b'\\', &bytes[*scan..]) else {
                text.push_str(&src[*scan..]);
                *scan = end;
                break;
            };
            let at = *scan + i;
            text.push_str(&src[*scan..at]);
            *scan = at;
            if bytes[at] == quote {
                *close_at = Some(at);
                *scan = at + 1;
                continue;
            }
            match escape(bytes, at, quote) {
                Escape::Wait => break,
                Escape::Char(c, len) => {
                    text.push(c);
                    *scan = at + len;
                }
                Escape::Literal(len) => {
                    text.push_str(&src[at..at + len]);
                    *scan = at + len;
                }
            }
        }
        // Sent as it grows: everything decoded so far is certain.
        let grown = *sent < text.len();
        let from = *sent;
        *sent = text.len();
        let Some(after) = closed else {
            self.pos = *scan;
            if !key && grown {
                let piece = self.tok_text_from(from);
                self.send(src, sink, &Event::Grow(&piece), None);
            }
            return Step_::Wait;
        };
        let text = std::mem::take(text);
        self.tok = Tok::None;
        self.pos = after;
        if key {
            if let Some(top) = self.stack.last_mut() {
                top.key = Some(text);
                top.expect = Expect::Colon;
            }
            return Step_::Go;
        }
        if grown {
            self.send(src, sink, &Event::Grow(&text[from..]), None);
        }
        let node = Node::new(
            NodeKind::String(Str {
                text: Cow::Borrowed(&text),
                quoting: if quote == b'"' {
                    Quoting::Double
                } else {
                    Quoting::Other
                },
            }),
            Span::new(start, after),
        );
        self.send(src, sink, &Event::Value(&node), None);
        self.value_done();
        Step_::Go
    }

    fn tok_text_from(&self, from: usize) -> String {
        match &self.tok {
            Tok::Str { text, .. } => text[from..].to_string(),
            _ => String::new(),
        }
    }
}

enum Tag {
    Undecided,
    No,
    Open { len: usize, close: String },
}

enum Escape {
    /// The escape is cut off by the end of the text so far.
    Wait,
    Char(char, usize),
    /// Not an escape JSON knows: kept as written.
    Literal(usize),
}

fn hex4(bytes: &[u8]) -> Option<u32> {
    let s = std::str::from_utf8(bytes.get(..4)?).ok()?;
    u32::from_str_radix(s, 16).ok()
}

/// The escape at `at` (a backslash) in a string quoted with `quote`.
fn escape(bytes: &[u8], at: usize, quote: u8) -> Escape {
    let Some(&c) = bytes.get(at + 1) else {
        return Escape::Wait;
    };
    let simple = match c {
        b'n' => Some('\n'),
        b't' => Some('\t'),
        b'r' => Some('\r'),
        b'b' => Some('\u{8}'),
        b'f' => Some('\u{c}'),
        b'/' => Some('/'),
        b'\\' => Some('\\'),
        b'"' => Some('"'),
        b'\'' => Some('\''),
        _ => None,
    };
    if let Some(ch) = simple {
        return Escape::Char(ch, 2);
    }
    if c == quote {
        return Escape::Char(quote as char, 2);
    }
    if c != b'u' {
        // A backslash before anything else is kept, with the character after it (which
        // may be several bytes: a whole character is copied).
        let len = 1 + utf8_len(c);
        return if bytes.len() < at + len {
            Escape::Wait
        } else {
            Escape::Literal(len)
        };
    }
    let rest = &bytes[at + 2..];
    if rest.len() < 4 {
        let hexish = rest.iter().all(u8::is_ascii_hexdigit);
        return if hexish {
            Escape::Wait
        } else {
            Escape::Literal(2)
        };
    }
    let Some(hi) = hex4(rest) else {
        return Escape::Literal(2);
    };
    if (0xD800..0xDC00).contains(&hi) {
        // A high surrogate: its pair may follow.
        let pair = &bytes[at + 6..];
        let want = b"\\u";
        let have = pair.len().min(2);
        if pair[..have] == want[..have] {
            if pair.len() < 6 {
                let hexish = pair.get(2..).unwrap_or(&[]).iter().all(u8::is_ascii_hexdigit);
                if hexish {
                    return Escape::Wait;
                }
            } else if let Some(lo) = hex4(&pair[2..]) {
                if (0xDC00..0xE000).contains(&lo) {
                    let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    return Escape::Char(char::from_u32(c).unwrap_or('\u{FFFD}'), 12);
                }
            }
        }
        return Escape::Char('\u{FFFD}', 6);
    }
    Escape::Char(char::from_u32(hi).unwrap_or('\u{FFFD}'), 6)
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}
