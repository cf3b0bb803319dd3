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
//! `tags::TOKEN_BLOCKS`, read as it reads them) around the value. The full parser reads a
//! reply with repairs once more at `finish`, unless its only repairs are ones this reader
//! logs as the parser does ([`Reader::take_repairs_in`]: quotes, raw control characters in
//! strings, other languages' literals, comments, trailing commas, bare keys, spaces JSON
//! lacks, full-width separators, a comma missing before an object's key, quoted or bare, or
//! between an array's items, a quote inside an object's value string read as its text, a
//! value written as bare text where the parser ends it); a value written as strict JSON or so
//! repaired, which this reader tells by [`Reader::strict_from`], is built from the events it
//! sent. This reader only shows what is certain so far, and what the parser will read the
//! same way ([`Doubts::Hold`]): a string's closing quote is decided by what valid JSON writes
//! after it, text a missing closing quote may cut from a string waits, bare text waits for
//! the bytes the parser's rules of where it ends look at (`parse::Ahead`, asked of the text
//! so far), a value string this reader's own rules doubt is read by the parser's string rules
//! once the text reaches past what they look at ([`Reader::probe_string`]), and damage that
//! only the text around it can settle stops the preview there.

use super::{Container, Event, Step};
use crate::lex::{self, Comment, Escape};
use crate::locate::tags::{self, TokenAt};
use crate::node::{Node, NodeKind, Quoting, Str};
use crate::parse::space::{skip_space, skip_space_comments};
use crate::parse::{code_block_body, code_block_end, code_block_text, Ahead, Closer, CodeEnd};
use crate::parse::{comment_then_separator_in, key_so_far, own_quote_on_key_line};
use crate::parse::{starts_word, KEY_LOOKAHEAD};
use crate::path::{Path, Segment};
use crate::report::{Repair, RepairKind};
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
    /// What the reader does at doubtful text (a replay reads as the stream it serves).
    pub doubts: Doubts,
    /// The event is the first of a member written with a key its object had before: the
    /// member is one of its own, not more of the one before it (`{"a": 1, "a": 2}`).
    pub repeated: bool,
}

/// What the reader does where reading on would guess what the lenient parser decides with
/// more of the text than a prefix reader has: an unescaped quote, a bare word, a missing
/// comma or colon, a closer that closes something else, a string that may have lost its
/// closing quote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Doubts {
    /// Shows nothing of the value from there on: a snapshot only shows what `finish` will
    /// have (the preview of a stream).
    Hold,
    /// Reads on as the lenient grammar guesses (salvage of a reply that does not read whole,
    /// where some reading beats none).
    Guess,
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
    /// Whether the last value read takes a value written after it with a comma between
    /// (`{..}, {..}`) as more of itself rather than a rival: a list that read one value as
    /// its one item, which `finish` gathers the values into.
    fn gathers(&self) -> bool {
        false
    }
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
    /// The current member's key was a bare word.
    bare_key: bool,
    /// Where the last comma in it is (a comma before the closer is a trailing comma);
    /// `None` for a full-width `，`, which the parser logs as such and not as a trailing
    /// comma (its span would cut the character).
    comma: Option<usize>,
    /// Its `Open` event was sent. Under [`Doubts::Hold`] an object's waits for its first
    /// key's `:` (or its closer): `{'a', 'b'}` is a Python set, which the parser reads as a
    /// list.
    shown: bool,
    /// Where its keys start in [`Reader::keys`].
    keys: usize,
    /// The current member's key was written before in this object: its span.
    repeat: Option<Span>,
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

    /// The step this container adds to the path the parser gives a repair inside it
    /// (`Parser::repair`): an item read and not yet followed by its comma counts as read; a
    /// member whose value was read is over (the parser drops its key).
    fn repair_step(&self, text: &str) -> Option<Segment> {
        match (self.kind, &self.key) {
            (Container::Array, _) => Some(Segment::Index(
                self.index + usize::from(self.expect == Expect::After),
            )),
            (Container::Object, None) => None,
            (Container::Object, Some(_)) if self.expect == Expect::After => None,
            (Container::Object, Some(k)) => Some(Segment::Key(k.text(text).to_owned())),
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

/// The keys of the open objects, to tell a key written again in one: the parser keeps the
/// later value, and a `serde_json::Value` records a `DuplicateKey` coercion at it.
#[derive(Debug, Clone, Default)]
struct Keys {
    /// Each open object's keys in a run, an object's from its frame's `keys` on, each with its
    /// [`fingerprint`] (keys whose fingerprints differ differ).
    list: Vec<(u64, Key)>,
    /// The keys, as text, of the open objects with more than [`FEW_KEYS`] (by the index of
    /// their run's start), where looking through the run would cost too much.
    many: Vec<(usize, std::collections::HashSet<String>)>,
}

/// The most keys of an object looked through one by one.
const FEW_KEYS: usize = 16;

impl Keys {
    /// Records `key` of the object whose keys start at `from`; whether it was there before.
    fn written_again(&mut self, src: &str, from: usize, key: &Key) -> bool {
        let text = key.text(src);
        if let Some((_, set)) = self.many.last_mut().filter(|(run, _)| *run == from) {
            return !set.insert(text.to_owned());
        }
        let print = fingerprint(text.as_bytes());
        let run = self.list.get(from..).unwrap_or_default();
        if (run.iter()).any(|(p, k)| *p == print && k.text(src) == text) {
            return true;
        }
        self.list.push((print, key.clone()));
        // The keys stay in the run too, so that an object opened later starts a run of its own.
        if self.list.len() - from > FEW_KEYS {
            let set = (self.list[from..].iter()).map(|(_, k)| k.text(src).to_owned());
            self.many.push((from, set.collect()));
        }
        false
    }

    /// Forgets the keys of the objects whose runs start at `from` or later.
    fn close(&mut self, from: usize) {
        self.list.truncate(from);
        while self.many.last().is_some_and(|(at, _)| *at >= from) {
            self.many.pop();
        }
    }
}

/// A key's length and its first and last bytes, in one word.
#[inline]
fn fingerprint(b: &[u8]) -> u64 {
    let (first, last) = (b.first().copied(), b.last().copied());
    (b.len() as u64) << 16 | u64::from(first.unwrap_or(0)) << 8 | u64::from(last.unwrap_or(0))
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
        /// A quote that may close the string, and how far what follows it was looked at.
        close_at: Option<Closing>,
        /// What of the decoded text is decided.
        decided: Decided,
    },
    Bare {
        key: bool,
        start: usize,
        scan: usize,
        /// The value's first quote was passed: it did not end the word
        /// ([`Reader::quote_ends_word`]), which runs on to a separator, closer or line break.
        quoted: bool,
    },
    /// A comment and where it starts.
    LineComment(usize),
    BlockComment(usize),
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

    /// The length of [`Tok::decoded`], without slicing the source.
    fn decoded_len(&self) -> usize {
        match self {
            Tok::Str { text: Some(t), .. } => t.len(),
            Tok::Str {
                start, plain_end, ..
            } => plain_end.saturating_sub(start + 1),
            _ => 0,
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
    /// A closer that waits for the end of the reply (see [`Reader::closer_undecided`]).
    waits_for_end: Option<usize>,
    /// Once the reply has ended, whether the text from the value starting at `.0` holds
    /// more closers than openers somewhere (`parse::most_net`): counted once per value, as
    /// every such closer of it asks the same.
    excess_from: Option<(usize, bool)>,
    state: State,
    stack: Vec<Frame>,
    /// The start of each frame of `stack` (what the sink is given).
    opens: Vec<usize>,
    /// The keys of the open objects, when keys written twice are noted
    /// ([`Reader::note_repeated_keys`]).
    keys: Option<Keys>,
    /// The length of the path to a member written with a key its object had before, while
    /// it has sent no event (`usize::MAX` otherwise): the first one tells the sink it starts
    /// a member of its own.
    repeat_at: std::cell::Cell<usize>,
    /// Each member written with a key its object had before, once its value is read: the
    /// member's path and the later key's span, in the order they end (`Node::to_value`'s).
    repeated: Vec<(Path, Span)>,
    tok: Tok,
    fence: bool,
    /// Where the prose region being read (the reply, a fence's content, the text after a
    /// fence or a reasoning block) starts, until its first byte that is not a space is read:
    /// a region that starts with a quoted key goes on from an object's `{` written before
    /// it (see [`Reader::members_start`]).
    region_start: Option<usize>,
    /// The region being read starts with a quoted key: `finish` reads its object, whose
    /// end only the whole text settles (`locate::members_end`), so no value in it is shown.
    members: bool,
    /// While the region's first token, a `"` string that is no key, is looked at to tell
    /// whether the region is that one string ([`Reader::region_string_end`]): where the scan
    /// for its closing quote goes on, and once found, just past that quote and where the scan
    /// of the spaces after it goes on.
    region_string: (usize, Option<(usize, usize)>),
    reasoning_tags: Vec<String>,
    max_depth: usize,
    /// Whether values in the prose are looked for (off once the stream has its value).
    values: bool,
    /// No token starts at or past this offset (a replay stops where the stream stood).
    stop_at: usize,
    /// The backtick run waited on: where it starts and how far it was counted (a run cut by
    /// the end of the text is counted on from there, not again from its start).
    run: (usize, usize),
    doubts: Doubts,
    /// The value met doubtful text under [`Doubts::Hold`]: nothing more is read or sent.
    held: bool,
    /// Where the last token read where a comma was missing starts ([`Reader::comma_missing`]).
    comma_missed: usize,
    /// Just after the last closer that closed a container.
    closed_at: usize,
    /// A value string this reader doubts, waiting for the text the parser's reading of it
    /// needs ([`Reader::probe_string`]): where it starts, the length of text to wait for, and
    /// whether the parser was asked once already.
    probe_wait: Option<(usize, usize, bool)>,
    /// The most containers open at once so far.
    deepest: usize,
    /// Where the last token read that is not written as strict JSON, and not logged in
    /// `repairs` either, is (a bare word, an escape JSON does not have, a Unicode space, ...).
    not_strict: Option<usize>,
    /// The repairs of how the value is written read so far, logged as the parser logs them
    /// (kind, span, path, order): single quotes, raw control characters in strings, other
    /// languages' literals, comments, trailing commas, bare keys, spaces JSON lacks, full-width
    /// separators, missing commas, quotes read as a string's text. A value read
    /// with these and nothing else not strict is built from the events, its report from these
    /// ([`Reader::take_repairs_in`]), and not read again at `finish`.
    repairs: Vec<Repair>,
    /// The paths of the last place a repair was logged ([`Reader::log_at`]).
    paths: crate::path::PlaceCache<(usize, usize)>,
    /// The text has ended: what waited for more text is decided by what there is.
    ended: bool,
    /// Just after the closer that closed the last value read, until the first byte after it
    /// that is not a space has been looked at (`Reader::continues_value`).
    after_value: Option<usize>,
    /// Whether that byte goes on as the value would (a `,` or a closer).
    goes_on: bool,
    /// The span of the last value read.
    value_from: usize,
    value_end: usize,
    /// Where the backticks of the fence the reader is in end, and, once its opening line is
    /// read, whether its info string names JSON (or nothing) and where its content starts.
    fence_open: (usize, bool, usize),
    /// A JSON fence held a value and nothing else: values in the prose after it are mentions,
    /// which `extract` ranks below it (`locate::Standing`), and are not shown, unless they
    /// start their line ([`Reader::may_follow_fenced`]). Nor are values in an HTML comment
    /// after a value.
    fenced_value: bool,
}

/// How deep a snapshot shows values, whatever `max_depth` says: applying an event recurses
/// once per level, and values deeper than this arrive with `finish` (which reads any depth
/// `max_depth` allows).
pub(crate) const PREVIEW_DEPTH: usize = 128;

/// Whether `b` ends an unquoted value.
fn ends_bare_value(b: u8) -> bool {
    matches!(b, b',' | b'}' | b']' | b'\n' | b'\r')
}

/// Whether the quoted key at `start..after` (quotes included) reads as a key to the parser,
/// which looks for a key's closing quote within [`KEY_LOOKAHEAD`] bytes and on its line
/// (`Parser::looks_like_key`): another key is read with the text around it, as a closer
/// before it may be found stray by the brackets of the rest of the text.
fn key_as_written(bytes: &[u8], start: usize, after: usize) -> bool {
    after - start < KEY_LOOKAHEAD
        && !bytes[start..after]
            .iter()
            .any(|&b| matches!(b, b'\n' | b'\r'))
}

/// Where the bare word starting at `start` ends, scanning on from `*scan` (left where the
/// next call goes on); `None` while the text so far ends inside it. A `<` may start a
/// reasoning token, which ends the word (the value's scan reads it next), and a value's
/// word ends before a `//` comment after a space (`Parser::ends_bare_text`; `http://` is
/// text). With `quotes`, a value's word also stops at a quote, which may end it
/// ([`Reader::quote_ends_word`]): the scan never runs past the next key of a line of
/// members whose commas are missing, to read the same line again for each.
fn word_end(
    bytes: &[u8],
    key: bool,
    start: usize,
    scan: &mut usize,
    quotes: bool,
) -> Option<usize> {
    loop {
        let found = if key {
            bytes[*scan..]
                .iter()
                .position(|&b| ends_bare_key(b) || matches!(b, b'<' | 0xEF))
        } else {
            bytes[*scan..].iter().position(|&b| {
                ends_bare_value(b)
                    || matches!(b, b'<' | b'/' | 0xEF)
                    || (quotes && matches!(b, b'"' | b'\''))
            })
        };
        if let Some(at) = found.map(|i| *scan + i).filter(|&at| bytes[at] == b'/') {
            let after_space = at > start && matches!(bytes[at - 1], b' ' | b'\t');
            match bytes.get(at + 1) {
                None if after_space => {
                    *scan = at;
                    break None;
                }
                Some(b'/') if after_space => break Some(at),
                _ => {
                    *scan = at + 1;
                    continue;
                }
            }
        }
        let Some(i) = found else {
            *scan = bytes.len();
            break None;
        };
        let at = *scan + i;
        // A full-width separator ends the word, as the parser's token ends there; any
        // other character starting with the same byte is the word's.
        if bytes[at] == 0xEF {
            if at > start && lex::fullwidth_separator(&bytes[at..]).is_some() {
                break Some(at);
            }
            *scan = at + 1;
            continue;
        }
        if bytes[at] != b'<' {
            break Some(at);
        }
        // At the word's start it was already found to open nothing.
        let opens = if at == start {
            Tag::No
        } else {
            Reader::token_opens(&bytes[at..])
        };
        match opens {
            Tag::No => *scan = at + 1,
            Tag::Undecided => {
                *scan = at;
                break None;
            }
            Tag::Open { .. } => break Some(at),
        }
    }
}

/// Whether `b` ends an unquoted key.
fn ends_bare_key(b: u8) -> bool {
    matches!(
        b,
        b':' | b',' | b'{' | b'}' | b'[' | b']' | b'"' | b'\'' | b' ' | b'\t' | b'\n' | b'\r'
    )
}

/// How long bare text waits for the bytes after it that decide where the parser ends it;
/// past this the text is read with the text around it (the rules look a bounded way ahead,
/// so this is reached only by long runs of blank lines).
const BARE_TEXT_WAIT: usize = 3 * KEY_LOOKAHEAD;

/// How far past where a value string's reading doubts the text must reach before the
/// parser's string rules are asked where it ends: they look [`KEY_LOOKAHEAD`] bytes ahead at
/// a time, a few times over (a separator, the key after it, what follows that key's quote).
const PROBE_HORIZON: usize = 4 * KEY_LOOKAHEAD;

/// What waiting means for one step of the scan.
enum Step_ {
    Go,
    Wait,
}

impl Reader {
    pub(crate) fn new(reasoning_tags: &[String], max_depth: usize, doubts: Doubts) -> Reader {
        let max_depth = max_depth.min(PREVIEW_DEPTH);
        Reader {
            pos: 0,
            waits_for_end: None,
            excess_from: None,
            state: State::Prose,
            stack: Vec::new(),
            opens: Vec::new(),
            keys: None,
            repeat_at: std::cell::Cell::new(usize::MAX),
            repeated: Vec::new(),
            tok: Tok::None,
            fence: false,
            region_start: Some(0),
            members: false,
            region_string: (0, None),
            reasoning_tags: reasoning_tags.iter().map(|t| t.to_lowercase()).collect(),
            max_depth,
            values: true,
            stop_at: usize::MAX,
            run: (usize::MAX, 0),
            doubts,
            held: false,
            comma_missed: usize::MAX,
            closed_at: usize::MAX,
            probe_wait: None,
            deepest: 0,
            not_strict: None,
            repairs: Vec::new(),
            paths: crate::path::PlaceCache::default(),
            ended: false,
            after_value: None,
            goes_on: false,
            value_from: 0,
            value_end: 0,
            fence_open: (0, false, 0),
            fenced_value: false,
        }
    }

    /// A reader that starts inside the value opening at `start` and stops before `stop_at`
    /// (a replay of one container's text so far).
    pub(crate) fn replay(start: usize, stop_at: usize, max_depth: usize, doubts: Doubts) -> Reader {
        Reader {
            pos: start,
            state: State::Value,
            stop_at,
            ..Reader::new(&[], max_depth, doubts)
        }
    }

    /// The quote and start of the string value (not a key) the text `src` ends inside, if
    /// everything read of it so far was sent and nothing is pending (no escape cut in two, no
    /// quote waiting to be called closing or not, no text waiting to be decided): text
    /// [`Reader::grows_plainly`] only makes it grow ([`Reader::grow_string`]).
    pub(crate) fn growing_string(&self, src: &str) -> Option<(u8, usize)> {
        let Tok::Str {
            quote,
            key: false,
            started: true,
            close_at: None,
            start,
            sent,
            decided,
            scan,
            ..
        } = self.tok
        else {
            return None;
        };
        let ready = matches!(self.state, State::Value)
            && !self.held
            && self.pos == src.len()
            && scan == src.len()
            && sent == decided.safe
            && self.stack.len() <= self.max_depth;
        ready.then_some((quote, start))
    }

    /// Reads the text past the end of the last one as more of the string
    /// [`Reader::growing_string`] found (text that [`Reader::grows_plainly`]), all of it sent: what
    /// [`Reader::advance`] would do with it, without the scan or the events (the caller grew
    /// the string itself).
    pub(crate) fn grow_string(&mut self, src: &str) {
        if let Tok::Str {
            ref mut text,
            ref mut plain_end,
            ref mut scan,
            ref mut decided,
            ..
        } = self.tok
        {
            match text {
                Some(t) => t.push_str(&src[*scan..]),
                None => *plain_end = src.len(),
            }
            *scan = src.len();
            decided.ticks = 0;
        }
        let len = self.tok.decoded_len();
        if let Tok::Str {
            ref mut decided,
            ref mut sent,
            scan,
            ..
        } = self.tok
        {
            decided.safe = len;
            // As `mark_sent` records it.
            *sent = len;
            self.pos = scan;
        }
    }

    /// Scans on, through the text appended since, in the string [`Reader::growing_string`]
    /// found: the decided text not yet sent, if the string still grows (no quote met that
    /// may close it, nothing doubtful); `None` otherwise, and [`Reader::advance`] takes it
    /// from there. [`Reader::mark_sent`] then records that the caller grew the string by that
    /// text.
    pub(crate) fn scan_on<'s>(&'s mut self, src: &'s str) -> Option<&'s str> {
        let end = self.scan_string(src);
        let Tok::Str {
            key: false,
            close_at: None,
            sent,
            decided,
            ..
        } = self.tok
        else {
            return None;
        };
        if !matches!(end, StrEnd::Open) {
            return None;
        }
        self.tok.decoded(src).get(sent..decided.safe)
    }

    /// Records that everything decided of the current string was sent, and the reader
    /// stands where its scan stopped (after [`Reader::scan_on`] or [`Reader::grow_string`]).
    pub(crate) fn mark_sent(&mut self) {
        if let Tok::Str {
            ref mut sent,
            decided,
            scan,
            ..
        } = self.tok
        {
            *sent = decided.safe;
            self.pos = scan;
        }
    }

    /// The decoded text of the string [`Reader::growing_string`] found that is read but not
    /// sent (not decided yet).
    pub(crate) fn unsent<'s>(&'s self, src: &'s str) -> &'s str {
        match self.tok {
            Tok::Str { sent, .. } => self.tok.decoded(src).get(sent..).unwrap_or_default(),
            _ => "",
        }
    }

    /// Stops looking for values (reasoning is still followed).
    pub(crate) fn stop_values(&mut self) {
        self.values = false;
    }

    /// Doubtful text: under [`Doubts::Hold`] nothing more of the reply's value is shown
    /// (`finish` reads it whole), and the reader reads on as [`Doubts::Guess`] does, to
    /// follow the reasoning after the value.
    fn doubt(&mut self) {
        if self.doubts == Doubts::Hold {
            self.held = true;
            self.values = false;
            self.doubts = Doubts::Guess;
        }
    }

    /// Reads on to the end of `text`, which is all there is: a closer that waited for the text
    /// after it (the rule that judges it reads the whole text) is decided.
    pub(crate) fn end(&mut self, text: &str, sink: &mut dyn Sink) {
        self.ended = true;
        self.advance(text, sink);
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
                    Tag::No => {
                        self.region_start = None;
                        self.pos += 1;
                    }
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
                    self.region_start = None;
                    if run >= 3 {
                        self.new_region();
                        if self.fence {
                            self.fence = false;
                            self.fenced_value |= self.fence_held_value(text, self.pos - run);
                        } else {
                            self.fence = true;
                            self.fence_open = (self.pos, false, self.pos);
                            self.state = State::FenceInfo;
                            return Step_::Go;
                        }
                    }
                }
                b'"' | b'\'' if self.region_start.is_some() => match self.members_start(bytes) {
                    None => return Step_::Wait,
                    Some(true) => {
                        self.members = true;
                        self.region_start = None;
                        self.pos += 1;
                    }
                    Some(false) => match self.region_string_end(text) {
                        None => return Step_::Wait,
                        Some(next) => {
                            self.region_start = None;
                            self.pos = next;
                        }
                    },
                },
                b if self.region_start.is_some() && !lex::is_ascii_space(b) => {
                    self.region_start = None;
                    continue;
                }
                b'{' | b'['
                    if self.takes_values()
                        && !(b == b'[' && crate::locate::bracket_in_text(bytes, self.pos))
                        && !self.continues_value(bytes, sink)
                        && self.may_follow_fenced(text)
                        && !(self.value_end > 0
                            && crate::locate::in_html_comment(bytes, self.pos))
                        && sink.candidate(self.pos, text) =>
                {
                    self.state = State::Value;
                    return Step_::Go;
                }
                _ => self.pos += 1,
            }
        }
        Step_::Wait
    }

    /// Whether a value starting in the prose here may be read: the reader reads values, and
    /// the region does not start with the members of an object whose `{` is missing.
    fn takes_values(&self) -> bool {
        self.values && !self.members
    }

    /// A prose region starts here (the reply's own, a fence's content, the text after a fence
    /// or a reasoning block).
    fn new_region(&mut self) {
        self.region_start = Some(self.pos);
        self.members = false;
        self.region_string = (0, None);
    }

    /// Where the prose scan goes on from the quote at `self.pos`, the region's first token
    /// and no key: past the string it opens when the region is that one JSON string and
    /// nothing else, which `extract` reads as that string, its brackets as text
    /// (`locate::is_one_string`); else past the quote, the string's text read as prose.
    /// `None` while the text so far does not tell; each call scans on from where the last
    /// one stopped.
    fn region_string_end(&mut self, text: &str) -> Option<usize> {
        let bytes = text.as_bytes();
        let (quote, next) = (self.pos, self.pos + 1);
        if bytes[quote] != b'"' || !self.values {
            return Some(next);
        }
        let (after, scan) = match self.region_string {
            (_, Some(found)) => found,
            (scan, None) => {
                let from = scan.max(next);
                let close = lex::string_close(bytes, from, bytes.len(), lex::Quote::Double);
                // A raw control character (a line break) is in no JSON string.
                let upto = close.map_or_else(|on| on.min(bytes.len()), |(at, _)| at);
                if bytes[from.min(upto)..upto].iter().any(|&b| b < 0x20) {
                    return Some(next);
                }
                match close {
                    Ok((close, len)) => (close + len, close + len),
                    Err(_) if self.ended => return Some(next),
                    Err(on) => {
                        self.region_string.0 = on;
                        return None;
                    }
                }
            }
        };
        let at = skip_space(bytes, scan, bytes.len());
        self.region_string.1 = Some((after, at));
        let region_ends = match bytes.get(at) {
            None => self.ended.then_some(true),
            Some(b'`') => {
                let run = bytes[at..]
                    .iter()
                    .take(3)
                    .take_while(|&&b| b == b'`')
                    .count();
                (run == 3 || at + run < bytes.len() || self.ended).then_some(run == 3)
            }
            Some(b'<') => match self.reasoning_opens(&bytes[at..]) {
                Tag::Open { .. } => Some(true),
                Tag::Undecided if !self.ended => None,
                _ => Some(false),
            },
            Some(_) => Some(false),
        }?;
        let one_string = region_ends && crate::locate::is_one_string(&text[quote..after]);
        Some(if one_string { after } else { next })
    }

    /// Whether the region, whose first byte that is not a space is the quote at `self.pos`,
    /// starts with a quoted key, as the parser reads one (`parse::members_start`): `None`
    /// while the text so far does not tell.
    fn members_start(&self, bytes: &[u8]) -> Option<bool> {
        crate::parse::key_so_far(bytes, self.pos)
    }

    /// Whether a value may start here after one a JSON fence held: in a JSON fence, or
    /// starting its line in the prose (a value on lines of its own stands as high as a fenced
    /// one, `locate::Standing::Displayed`).
    fn may_follow_fenced(&self, text: &str) -> bool {
        !self.fenced_value
            || (self.fence && self.fence_open.1)
            || (!self.fence && !crate::locate::prose_before(text, self.pos))
    }

    /// Whether the text since the last value's closer goes on as that value would, a `,` or
    /// a closer first (`{"a": 1}}, "b": {..}`): the parser may read that closer as stray, as
    /// only the rest of the text settles (its bracket profile), so no value after it is shown
    /// in place of the one it closed; `finish` reads which it is. One exception: an object
    /// followed by a `,` and, after spaces, the opener at hand (`{..}, {..}`, records whose
    /// `[` went missing). The parser reads an object's closer on only into a quoted key
    /// (`Parser::root_reads_on`), so the object closed there and the opener starts the next
    /// value, shown as any later value is; unless the sink gathers such values into one
    /// ([`Sink::gathers`]).
    /// Looked at once per value (the first opener after it), so a run of openers after a long
    /// gap costs the gap once.
    fn continues_value(&mut self, bytes: &[u8], sink: &dyn Sink) -> bool {
        if let Some(after) = self.after_value.take() {
            let at = skip_space(bytes, after, self.pos);
            let comma = match bytes.get(at) {
                Some(b',') => Some(1),
                _ if lex::fullwidth_separator(&bytes[at..self.pos]) == Some(b',') => {
                    Some(lex::FULLWIDTH_LEN)
                }
                _ => None,
            };
            let next_value = comma.is_some_and(|len| {
                bytes[self.value_from] == b'{'
                    && skip_space(bytes, at + len, self.pos) == self.pos
                    && !sink.gathers()
            });
            self.goes_on = at < self.pos
                && !next_value
                && (comma.is_some() || matches!(bytes[at], b'}' | b']'));
        }
        self.goes_on
    }

    /// Whether the fence closing at `close` (its backticks) names JSON (or nothing) and held
    /// the last value read and nothing else, as `locate` ranks a fenced value, and no label
    /// before it sets it aside or shows it as an example (`locate::Lead`).
    fn fence_held_value(&self, text: &str, close: usize) -> bool {
        let (run_end, json_like, content) = self.fence_open;
        let end = self.value_end;
        json_like
            && self.value_from >= run_end
            && crate::locate::lead(text, self.value_from) == crate::locate::Lead::Plain
            && end <= close
            && lex::trim(&text[content.min(self.value_from)..self.value_from]).is_empty()
            && lex::trim(&text[end..close]).is_empty()
    }

    /// Reads a fence's opening line once it is whole: whether it names JSON, and where the
    /// content starts.
    fn fence_opened(&mut self, text: &str) {
        let opening = crate::locate::fence::opening(text, self.fence_open.0);
        self.fence_open.1 = opening.json_like;
        self.fence_open.2 = opening.content_start;
    }

    fn fence_info(&mut self, text: &str) -> Step_ {
        let bytes = text.as_bytes();
        while self.pos < bytes.len() {
            match bytes[self.pos] {
                b'\n' => {
                    self.fence_opened(text);
                    self.pos += 1;
                    self.new_region();
                    self.state = State::Prose;
                    return Step_::Go;
                }
                // An inline fence: ```{"a": 1}```.
                b'{' | b'[' => {
                    self.fence_opened(text);
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
            let mut at = want - 1;
            if rest[at] == b':' {
                // `<think:6124c78e>`: the name with its checkpoint's suffix, as Hunyuan writes
                // it (`tags::checkpoint_base`).
                let suffix = tags::suffix_len(&rest[at + 1..]);
                if !(1..=tags::MAX_SUFFIX).contains(&suffix) {
                    undecided |= suffix == 0 && rest.len() == at + 1;
                    continue;
                }
                at += 1 + suffix;
            }
            match rest.get(at) {
                None => undecided = true,
                Some(b'>') => {
                    return Tag::Open {
                        len: at + 1,
                        ends: Ends::Tag(index),
                    }
                }
                Some(b' ' | b'\t' | b'\n') => match rest[at..].iter().position(|&b| b == b'>') {
                    Some(i) => {
                        return Tag::Open {
                            len: at + i + 1,
                            ends: Ends::Tag(index),
                        }
                    }
                    None if rest.len() - at < 256 => undecided = true,
                    None => {}
                },
                Some(_) => {}
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
                    match closing_tag(rest, self.reasoning_tags[index].as_bytes()) {
                        TokenAt::Whole(c, len) => (TokenAt::Whole(c, len), i + len),
                        other => (other, i),
                    }
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
                    self.new_region();
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
        if self.held || self.stack.len() > self.max_depth {
            return;
        }
        let depth = self.stack.len();
        let repeated = self.repeat_at.get() == depth;
        if repeated {
            self.repeat_at.set(usize::MAX);
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
            doubts: self.doubts,
            repeated,
        };
        // The path on the stack for the usual depths, in an array no longer than it needs
        // (each slot is written before the path is built); on the heap past them. Filled in
        // place: a helper returning the array made dense records 3% slower.
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
        let Some(top) = self.stack.last() else {
            return false;
        };
        // Only a value where one belongs, or a key where one does, is read as written: an
        // item or member after another with no comma, or a value where a key or the colon
        // belongs, is damage the parser reads with the text around it.
        let doubtful = match (top.kind, top.expect) {
            (_, Expect::Value) => false,
            (Container::Object, Expect::Key) => !key_like,
            _ => true,
        };
        if doubtful {
            self.doubt();
        }
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

    fn value_done(&mut self, text: &str) {
        // Past the depth events go to, the value is read again: no path is built.
        let repeated = self.keys.is_some() && self.stack.len() <= self.max_depth;
        if let Some(span) =
            (self.stack.last_mut()).and_then(|top| top.repeat.take().filter(|_| repeated))
        {
            let path = (self.stack.iter())
                .map(|f| f.step(text).map(|s| s.segment()))
                .collect::<Option<Path>>();
            self.repeated.extend(path.map(|path| (path, span)));
        }
        match self.stack.last_mut() {
            Some(top) => top.expect = Expect::After,
            // A value read on its own (salvage) is over.
            None => self.state = State::Prose,
        }
    }

    /// The current member of the innermost object is written with the key `span` holds
    /// (set as its key): noted if the object had that key before.
    #[inline]
    fn key_read(&mut self, text: &str, span: Span) {
        if self.keys.is_none() {
            return;
        }
        let depth = self.stack.len();
        let Some(top) = self.stack.last_mut() else {
            return;
        };
        let again = match (&top.key, &mut self.keys) {
            (Some(key), Some(keys)) => keys.written_again(text, top.keys, key),
            _ => false,
        };
        top.repeat = again.then_some(span);
        // (Not cleared otherwise: a member's value that is an object sends its `Open` at its
        // first key's `:`, after that key is read.)
        if again {
            self.repeat_at.set(depth);
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
                    b' ' | b'\t' | b'\n' | b'\r' => self.skip_spaces(text, self.pos + 1),
                    // The other spaces `lex` counts (a vertical tab, U+00A0, a BOM, ...).
                    b if lex::may_start_space(b) && lex::space_len(&bytes[self.pos..end]) > 0 => {
                        self.skip_spaces(text, self.pos)
                    }
                    b'{' => self.open(text, sink, Container::Object),
                    b'[' => self.open(text, sink, Container::Array),
                    b'}' | b']' => {
                        let kind = if b == b'}' {
                            Container::Object
                        } else {
                            Container::Array
                        };
                        // Whatever the closer turns out to be (undecided, or judged by the
                        // rest of the text), an object it would close as written is an
                        // object: one with no member yet shows.
                        if self.closes_as_written(kind) {
                            self.show_object(text, sink);
                        }
                        if self.closer_undecided(text, kind) {
                            return Step_::Wait;
                        }
                        if let Step_::Go = self.close(text, sink, kind) {
                            return Step_::Go;
                        }
                    }
                    b',' => {
                        self.comma();
                        self.skip_spaces(text, self.pos);
                    }
                    b':' => {
                        self.colon(text, sink);
                        self.skip_spaces(text, self.pos);
                    }
                    // `：` and `，`, as the parser reads them between tokens.
                    0xEF => match lex::fullwidth_separator(&bytes[self.pos..end]) {
                        Some(separator) => self.fullwidth(text, sink, separator),
                        None => {
                            if let Some(step) = self.opens_token(text, sink, b) {
                                return step;
                            }
                            break;
                        }
                    },
                    b'"' | b'\'' => {
                        if !self.start_string(text, sink, b) || self.stack.is_empty() {
                            break;
                        }
                    }
                    _ => {
                        if let Some(step) = self.opens_token(text, sink, b) {
                            return step;
                        }
                        break;
                    }
                }
            }
        }
    }

    /// A full-width `：` or `，` (`separator` says which) between tokens, as the parser reads
    /// it: logged, then read as the ASCII one, but that a `，` before a closer is no trailing
    /// comma the parser logs (its span would cut the character).
    fn fullwidth(&mut self, text: &str, sink: &mut dyn Sink, separator: u8) {
        let span = Span::new(self.pos, self.pos + lex::FULLWIDTH_LEN);
        self.log(text, RepairKind::FullWidthPunctuation, span);
        if separator == b':' {
            self.colon(text, sink);
        } else {
            self.comma();
            if let Some(top) = self.stack.last_mut() {
                top.comma = None;
            }
        }
        self.pos += lex::FULLWIDTH_LEN - 1;
        self.skip_spaces(text, self.pos);
    }

    /// A byte between a value's tokens that opens a token (a comment, a bare word) or cuts
    /// the value off (a fence, a reasoning token): `Some` when `value` returns that step,
    /// `None` when a token is open for [`Reader::token`].
    #[inline]
    fn opens_token(&mut self, text: &str, sink: &mut dyn Sink, b: u8) -> Option<Step_> {
        let bytes = text.as_bytes();
        // A bare word is checked whole (`bare`), a comment logged where it ends (a `#` one
        // as a `//` one: the parser reads both alike between tokens).
        if matches!(b, b'`' | b'<') {
            self.not_strict();
        }
        // A bare key's text runs on to its `:` (`{a /* c */: 1}` has the key `a /* c */`).
        if b == b'/'
            && self.stack.last().is_some_and(|top| {
                top.kind == Container::Object && top.expect == Expect::Colon && top.bare_key
            })
        {
            self.doubt();
        }
        match b {
            // A `/` the text ends at may still open a comment.
            b'/' if self.pos + 1 == bytes.len() => return Some(Step_::Wait),
            b'/' | b'#' => match lex::comment_opener(&bytes[self.pos..]) {
                Some((Comment::Line, len)) => {
                    self.tok = Tok::LineComment(self.pos);
                    self.pos += len;
                }
                Some((Comment::Block, len)) => {
                    self.tok = Tok::BlockComment(self.pos);
                    self.pos += len;
                }
                None => self.start_bare(text),
            },
            b'`' => return self.backticks(text, sink),
            // A document written with HTML's character references (`{&quot;a&quot;: 1}`) is
            // read decoded, whole (`locate::decode_embedded`): a bare word starting with `&`
            // shows nothing.
            b'&' => {
                self.doubt();
                self.start_bare(text);
            }
            // A reasoning token between the value's tokens (not in a string or comment) opens
            // its block, as in the markup pass: the value is cut off there.
            b'<' => match Self::token_opens(&bytes[self.pos..]) {
                Tag::Undecided => return Some(Step_::Wait),
                Tag::No => self.start_bare(text),
                Tag::Open { len, ends } => {
                    self.stack.clear();
                    self.opens.clear();
                    if let Some(keys) = &mut self.keys {
                        keys.close(0);
                    }
                    sink.abandoned();
                    self.open_thought(sink, len, ends);
                    return Some(Step_::Go);
                }
            },
            _ => self.start_bare(text),
        }
        None
    }

    /// Moves past the spaces and line breaks from `from` on (the parser's `skip_space`).
    #[inline]
    fn skip_spaces(&mut self, text: &str, from: usize) {
        let bytes = text.as_bytes();
        let to = skip_space(bytes, from, bytes.len());
        // The run may hold spaces JSON does not have (a form feed, U+00A0).
        if to > from && !crate::coerce::json_space_only(&bytes[from..to]) {
            self.log_spaces(text, from, to);
        }
        self.pos = to;
    }

    /// Logs the spaces JSON does not have in the run `from..to`, as the parser does: one
    /// repair from the first to the last. A run the end of the text cut is one run with what
    /// continues it (only spaces between), as in the text read whole.
    #[cold]
    fn log_spaces(&mut self, text: &str, from: usize, to: usize) {
        // After a bare key, those on its line are the key's text, which runs to its `:` or
        // the line's end and drops the spaces at its end (`Parser::key`): not repaired.
        let key_end = self
            .stack
            .last()
            .and_then(|top| match (top.kind, top.expect, &top.key) {
                (Container::Object, Expect::Colon, Some(Key::At(_, end))) if top.bare_key => {
                    Some(*end)
                }
                _ => None,
            });
        let from = match key_end {
            Some(end) => match memchr::memchr2(b'\n', b'\r', &text.as_bytes()[end..to]) {
                Some(i) => from.max(end + i),
                None => return,
            },
            None => from,
        };
        let json = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
        let run = &text.as_bytes()[from..to];
        let (Some(first), Some(last)) = (
            run.iter().position(|b| !json(b)),
            run.iter().rposition(|b| !json(b)),
        ) else {
            return;
        };
        let span = Span::new(from + first, from + last + 1);
        let last = self.repairs.last_mut().filter(|r| {
            r.kind == RepairKind::UnicodeWhitespace
                && r.span.end <= span.start
                && text.as_bytes()[r.span.end..span.start].iter().all(json)
        });
        match last {
            Some(r) if self.doubts == Doubts::Hold => r.span.end = span.end,
            _ => self.log(text, RepairKind::UnicodeWhitespace, span),
        }
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
                Tok::LineComment(start) => {
                    let found = lex::comment_end(Comment::Line, &bytes[self.pos..]);
                    let body = &bytes[self.pos..found.map_or(bytes.len(), |i| self.pos + i)];
                    if has_closer(body) {
                        self.doubt();
                    }
                    match found {
                        Some(i) => {
                            self.log(text, RepairKind::Comment, Span::new(start, self.pos + i));
                            self.pos += i + 1;
                            self.tok = Tok::None;
                            Step_::Go
                        }
                        None => {
                            self.pos = bytes.len();
                            Step_::Wait
                        }
                    }
                }
                Tok::BlockComment(start) => {
                    let found = lex::comment_end(Comment::Block, &bytes[self.pos..]);
                    let body = &bytes[self.pos..found.map_or(bytes.len(), |n| self.pos + n - 2)];
                    if has_closer(body) {
                        self.doubt();
                    }
                    match found {
                        Some(n) => {
                            self.pos += n;
                            self.log(text, RepairKind::Comment, Span::new(start, self.pos));
                            self.tok = Tok::None;
                            Step_::Go
                        }
                        None => {
                            // Keep a last `*` in case the `/` comes next.
                            self.pos = bytes.len().saturating_sub(1).max(self.pos);
                            Step_::Wait
                        }
                    }
                }
            };
            if let Step_::Wait = step {
                return Step_::Wait;
            }
        }
    }

    fn open(&mut self, text: &str, sink: &mut dyn Sink, kind: Container) {
        // `[{..} {..}]`: an array's item after a container with no comma (spaces and comments
        // between), which the parser logs and reads as the next item (`Parser::on_separator`).
        // After a string the opener may be the string's text (`["s"[] x"]`: its quote did not
        // close it), which the parser decides with the text around it.
        let after_item = (self.stack.last())
            .is_some_and(|top| top.kind == Container::Array && top.expect == Expect::After);
        let after_container = || {
            self.closed_at <= self.pos
                && skip_space_comments(text.as_bytes(), self.closed_at, self.pos) == self.pos
        };
        if after_item && after_container() {
            self.comma_missing(text);
        }
        if !self.stack.is_empty() {
            self.value_starts(false);
        }
        let shown = kind == Container::Array || self.doubts == Doubts::Guess;
        if shown {
            self.send(text, sink, &Event::Open(kind), Span::default());
        }
        self.opens.push(self.pos);
        self.stack.push(Frame {
            kind,
            start: self.pos,
            key: None,
            index: 0,
            bare_key: false,
            comma: None,
            shown,
            keys: self.keys.as_ref().map_or(0, |k| k.list.len()),
            repeat: None,
            expect: if kind == Container::Object {
                Expect::Key
            } else {
                Expect::Value
            },
        });
        self.deepest = self.deepest.max(self.stack.len());
        self.pos += 1;
    }

    /// Whether every event of what was read so far was sent: no doubt held the value back,
    /// and no container was deeper than events go.
    pub(crate) fn sent_everything(&self) -> bool {
        !self.held && self.deepest < self.max_depth
    }

    /// Whether everything read from `start` on was written as strict JSON.
    pub(crate) fn strict_from(&self, start: usize) -> bool {
        self.not_strict.is_none_or(|at| at < start)
    }

    /// Records that the token at the reader's position is not written as strict JSON.
    fn not_strict(&mut self) {
        self.not_strict = Some(self.pos);
    }

    /// Notes the members written with a key their object had before (off by default: a look
    /// at every key), for a type that takes them from the stream
    /// ([`Extract::REPEATED_KEYS_FROM_PARTIAL`](crate::Extract::REPEATED_KEYS_FROM_PARTIAL)).
    pub(crate) fn note_repeated_keys(&mut self) {
        self.keys = Some(Keys::default());
    }

    /// The members of the value at `span` written with a key their object had before, taken:
    /// each member's path and the later key's span, in the order the members end.
    pub(crate) fn take_repeated_in(&mut self, span: Span) -> Vec<(Path, Span)> {
        let mut repeated = std::mem::take(&mut self.repeated);
        repeated.retain(|(_, key)| span.start <= key.start && key.start < span.end);
        repeated
    }

    /// The repairs logged in `span` (a value's), taken: for the report of a value whose text
    /// is strict JSON but for them. In the order they were logged, which is the parser's (a
    /// trailing comma is logged at its closer, after a comment between them).
    pub(crate) fn take_repairs_in(&mut self, span: Span) -> Vec<Repair> {
        let mut repairs = std::mem::take(&mut self.repairs);
        repairs.retain(|r| span.start <= r.span.start && r.span.start < span.end);
        repairs
    }

    /// Logs a repair of how the value is written at `span`, with the path the parser gives it
    /// there (`Parser::repair`): the member or item being read. Under [`Doubts::Guess`] (which
    /// a doubt under [`Doubts::Hold`] switches to) nothing is built from the events, so nothing
    /// is logged.
    fn log(&mut self, text: &str, kind: RepairKind, span: Span) {
        self.log_at(text, kind, span, false);
    }

    /// [`Reader::log`] of a repair to the innermost container itself (its commas, its
    /// closer), as `Parser::repair_container` paths it.
    fn log_at(&mut self, text: &str, kind: RepairKind, span: Span, of_container: bool) {
        if self.doubts == Doubts::Guess {
            return;
        }
        let path = self.path(text, of_container);
        self.repairs.push(Repair {
            path,
            ..Repair::new(kind, span)
        });
    }

    /// The path `Parser::repair` gives a repair here, shared with the repairs logged before
    /// at the same place (`path::PlaceCache`).
    fn path(&mut self, text: &str, of_container: bool) -> Path {
        let depth = self.stack.len();
        // Deeper than `MAX_REPAIR_PATH`, the innermost frames add no step.
        let (outer, top) = match depth {
            0 => (0, None),
            d if d > crate::parse::MAX_REPAIR_PATH => (crate::parse::MAX_REPAIR_PATH, None),
            d => (d - 1, self.stack.last()),
        };
        // The containers around the place: the innermost's opener tells them apart, as
        // every container opened later opens further on.
        let around = (depth, self.stack.last().map_or(usize::MAX, |f| f.start));
        let value = (top.filter(|_| !of_container)).and_then(|f| f.repair_step(text));
        let frames = &self.stack[..outer];
        (self.paths).path(
            around,
            || frames.iter().filter_map(|f| f.repair_step(text)).collect(),
            value,
        )
    }

    /// Records a string that opens at `start` and closes at `q` if its text is not written as
    /// JSON writes strings; `escaped` when it holds a backslash, `inner` when a quote in it
    /// was read as text ([`Verdict::Inner`]). Returns what of it the caller logs once the
    /// string's path is known, when that is all that is not JSON's: its quotes, the raw
    /// control characters in its text, its own quotes in its text.
    #[inline]
    fn check_string(
        &mut self,
        bytes: &[u8],
        (start, q): (usize, usize),
        quote: u8,
        escaped: bool,
        inner: bool,
    ) -> Option<StringRepairs> {
        let body = &bytes[start + 1..q];
        let (strict, controls) = match escaped {
            // A raw line break or tab, logged a byte at a time as the parser logs them; not
            // in text that holds a backtick, which may open a code fence in the string.
            false if lex::has_control(body) => (!body.contains(&b'`'), true),
            false => (true, false),
            true => (lex::strict_string_body(body, quote), false),
        };
        if !strict {
            self.not_strict = Some(q);
            return None;
        }
        let quotes = quote != b'"';
        let inner = inner && raw_quotes(body, quote).next().is_some();
        (quotes || controls || inner).then_some(StringRepairs {
            span: Span::new(start, q + 1),
            quotes,
            controls,
            inner,
        })
    }

    /// Logs a string's repairs, if it has any, in the parser's order: the quotes (logged
    /// where the string opens), then each control character and each quote in its text, as
    /// they come.
    #[inline]
    fn log_string(&mut self, text: &str, repairs: Option<StringRepairs>) {
        if let Some(repairs) = repairs {
            self.log_string_repairs(text, repairs);
        }
    }

    /// [`Reader::log_string`] of a string with repairs.
    #[inline(never)]
    fn log_string_repairs(&mut self, text: &str, repairs: StringRepairs) {
        let StringRepairs {
            span,
            quotes,
            controls,
            inner,
        } = repairs;
        if quotes {
            self.log(text, RepairKind::NonStandardQuotes, span);
        }
        if !controls && !inner {
            return;
        }
        let bytes = text.as_bytes();
        let quote = bytes[span.start];
        let mut i = span.start + 1;
        while i < span.end - 1 {
            let kind = match bytes[i] {
                // An escape is JSON's (`check_string`), whatever it escapes.
                b'\\' => {
                    i += 2;
                    continue;
                }
                b if b < 0x20 && controls => RepairKind::ControlCharacter,
                b if b == quote && inner => RepairKind::UnescapedQuote,
                _ => {
                    i += 1;
                    continue;
                }
            };
            self.log(text, kind, Span::new(i, i + 1));
            i += 1;
        }
    }

    /// A closer: closes the innermost open container of its kind (containers left open
    /// inside it are cut off: no `Close` for them); a closer that closes nothing is text.
    /// `Go` when it closed the value.
    fn close(&mut self, text: &str, sink: &mut dyn Sink, kind: Container) -> Step_ {
        self.pos += 1;
        // A closer of the innermost container after a whole member, item or trailing comma
        // closes it as written; one that closes something else, or nothing, or an object
        // whose last member has no value, is damage the parser reads with the text around it.
        if self.closes_as_written(kind) {
            let top = self.stack.last();
            if let Some(f) = top.filter(|f| f.index > 0 && f.expect != Expect::After) {
                if let Some(at) = f.comma {
                    let comma = Span::new(at, at + 1);
                    self.log_at(text, RepairKind::TrailingComma, comma, true);
                }
            }
            self.show_object(text, sink);
        } else {
            self.doubt();
        }
        let Some(at) = self.stack.iter().rposition(|f| f.kind == kind) else {
            return Step_::Wait;
        };
        self.stack.truncate(at + 1);
        self.opens.truncate(at);
        let frame = self.stack.pop().expect("found above");
        self.closed_at = self.pos;
        if let Some(keys) = &mut self.keys {
            keys.close(frame.keys);
        }
        if self.repeat_at.get() > at {
            self.repeat_at.set(usize::MAX);
        }
        let span = Span::new(frame.start, self.pos);
        self.send(text, sink, &Event::Close, span);
        self.value_done(text);
        if self.stack.is_empty() {
            self.state = State::Prose;
            self.after_value = Some(self.pos);
            self.goes_on = false;
            (self.value_from, self.value_end) = (frame.start, self.pos);
            return Step_::Go;
        }
        Step_::Wait
    }

    /// Whether a closer of `kind` closes the innermost container as written: one of its kind,
    /// after a whole member, item or trailing comma.
    fn closes_as_written(&self, kind: Container) -> bool {
        self.stack.last().is_some_and(|top| {
            top.kind == kind
                && !matches!(
                    (kind, top.expect),
                    (_, Expect::Colon) | (Container::Object, Expect::Value)
                )
        })
    }

    /// At a closer of the innermost container, inside another: whether it waits for the text
    /// after it. The parser closes it as written unless the token after its `,` does not fit
    /// the container it returns to (then the rest of the text decides, and the preview holds);
    /// until the bytes that rule reads have arrived, nothing after the closer is shown.
    ///
    /// A closer followed by its `,` and another closer (`{"a": [1],}`) is closed as written,
    /// unless the layout says it is stray: then the parser reads it as stray when the text
    /// holds more closers than openers, which only its end tells, so it waits there for the
    /// end of the reply, then is read as written if no stretch of the text from the value's
    /// start on holds more closers than openers (so neither does the one the parser reads), and
    /// is doubtful otherwise.
    fn closer_undecided(&mut self, text: &str, kind: Container) -> bool {
        let n = self.stack.len();
        if self.doubts != Doubts::Hold || n < 2 || self.stack[n - 1].kind != kind {
            return false;
        }
        if self.waits_for_end == Some(self.pos) && !self.ended {
            return true;
        }
        let text = text.get(..self.stop_at).unwrap_or(text);
        let object = |i: usize| self.stack[i].kind == Container::Object;
        let start = |i: usize| self.stack[i].start;
        match crate::parse::closer_as_written(text, self.pos, n, object, start, self.ended) {
            None => true,
            Some(Closer::AsWritten) => false,
            Some(Closer::UnlessSpare) => {
                if !self.ended {
                    self.waits_for_end = Some(self.pos);
                    return true;
                }
                let from = self.stack[0].start;
                let excess = match self.excess_from {
                    Some((at, excess)) if at == from => excess,
                    _ => {
                        let bytes = text.as_bytes();
                        let excess = crate::parse::most_net(bytes, from, bytes.len()) > 0;
                        self.excess_from = Some((from, excess));
                        excess
                    }
                };
                if excess {
                    self.doubt();
                }
                false
            }
            Some(Closer::ByText) => {
                self.doubt();
                false
            }
        }
    }

    fn comma(&mut self) {
        if let Some(top) = self.stack.last_mut() {
            top.comma = Some(self.pos);
        }
        self.pos += 1;
        let expected = self
            .stack
            .last()
            .is_none_or(|top| top.expect == Expect::After);
        if !expected {
            self.doubt();
        }
        if let Some(top) = self.stack.last_mut() {
            match (top.kind, top.expect) {
                (Container::Array, Expect::After) => {
                    top.index += 1;
                    top.expect = Expect::Value;
                }
                (Container::Object, _) => {
                    top.key = None;
                    top.expect = Expect::Key;
                    // Counted for an object too: a closer right after a comma is a trailing
                    // comma (`Reader::close`).
                    top.index += 1;
                }
                _ => {}
            }
        }
    }

    /// Sends the `Open` event of the innermost object, if it waited (see [`Frame::shown`]).
    fn show_object(&mut self, text: &str, sink: &mut dyn Sink) {
        if self.stack.last().is_none_or(|top| top.shown) {
            return;
        }
        let (Some(mut frame), open) = (self.stack.pop(), self.opens.pop()) else {
            return;
        };
        let pos = std::mem::replace(&mut self.pos, frame.start);
        self.send(text, sink, &Event::Open(frame.kind), Span::default());
        self.pos = pos;
        frame.shown = true;
        self.stack.push(frame);
        self.opens.extend(open);
    }

    fn colon(&mut self, text: &str, sink: &mut dyn Sink) {
        // The parser takes a key's `:` only on the key's line (`Parser::looks_like_key`).
        let before = text.as_bytes()[..self.pos].iter().rev();
        let mut spaces = before.take_while(|b| b.is_ascii_whitespace());
        if spaces.any(|&b| matches!(b, b'\n' | b'\r')) {
            self.doubt();
        }
        self.show_object(text, sink);
        self.pos += 1;
        let expected = self
            .stack
            .last()
            .is_some_and(|top| top.kind == Container::Object && top.expect == Expect::Colon);
        if !expected {
            self.doubt();
        }
        if let Some(top) = self.stack.last_mut() {
            if top.kind == Container::Object && top.expect == Expect::Colon {
                top.expect = Expect::Value;
            }
        }
    }

    /// A token where a `,` belongs (after a value, a quote the reader took as closing it or a
    /// closer): the parser logs the comma missing there and reads an object's key or an
    /// array's item (`Parser::on_separator`); whether it is a key is the key's own check.
    fn comma_missing(&mut self, text: &str) {
        let Some(top) = self.stack.last_mut() else {
            return;
        };
        if top.expect != Expect::After || self.held {
            return;
        }
        match top.kind {
            Container::Object => {
                top.expect = Expect::Key;
                top.key = None;
            }
            Container::Array => {
                top.expect = Expect::Value;
                top.index += 1;
            }
        }
        self.log(text, RepairKind::MissingComma, Span::at(self.pos));
        self.comma_missed = self.pos;
    }

    /// A quote between tokens: the string read at once if it is whole (`true`), else its
    /// token opened (`false`).
    fn start_string(&mut self, text: &str, sink: &mut dyn Sink, quote: u8) -> bool {
        self.comma_missing(text);
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
            decided: Decided::default(),
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
        if bytes[q] != quote {
            return false;
        }
        let closes = match self.doubts {
            Doubts::Guess => matches!(closing_quote(bytes, q, q + 1, key), Some((true, _))),
            // Text with a raw line break may open a code fence in the string: the token's
            // scan decides.
            Doubts::Hold => {
                memchr::memchr(b'\n', &bytes[start + 1..q]).is_none()
                    && matches!(
                        decide_close(
                            bytes,
                            &mut Closing::at(start + 1, q, self.comma_missed == start),
                            key,
                            self.frame()
                        ),
                        Some(Verdict::Closes)
                    )
            }
        };
        if !closes {
            return false;
        }
        let quotes = self.check_string(bytes, (start, q), quote, false, false);
        self.pos = q + 1;
        if key {
            if !key_as_written(bytes, start, q + 1) {
                self.doubt();
            }
            if let Some(top) = self.stack.last_mut() {
                top.key = Some(Key::At(start + 1, q));
                top.expect = Expect::Colon;
                top.bare_key = false;
            }
            self.key_read(text, Span::new(start, q + 1));
            self.log_string(text, quotes);
            return true;
        }
        self.log_string(text, quotes);
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
        self.value_done(text);
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
    fn backticks(&mut self, text: &str, sink: &mut dyn Sink) -> Option<Step_> {
        let bytes = text.as_bytes();
        let run = self.backtick_run(bytes);
        if self.pos + run == bytes.len() {
            return Some(Step_::Wait);
        }
        // A run first on its line, as long as the fence's opener, closes the fence, even where
        // a value belongs, as the markup pass reads it (`locate/markup.rs`, `Pass::on_run`);
        // only a run after the key on its line opens a value written as a code block.
        if run >= 3 && self.fence && self.closes_fence(bytes, run) {
            self.fence_closes_value(sink, run);
            return Some(Step_::Go);
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
        self.start_bare(text);
        None
    }

    /// Whether the run of `run` backticks at the current position closes the fence the reader
    /// is in: it starts its line (but for spaces) and is as long as the fence's opening run.
    fn closes_fence(&self, bytes: &[u8], run: usize) -> bool {
        let opener = self.fence_open.0;
        let opened_with = bytes[..opener]
            .iter()
            .rev()
            .take_while(|&&b| b == b'`')
            .count();
        let line = &bytes[..self.pos];
        let first_on_line = line
            .iter()
            .rev()
            .take_while(|&&b| b != b'\n')
            .all(|&b| b == b' ' || b == b'\t');
        run >= opened_with && first_on_line
    }

    /// The fence closes inside the value: the value is cut off.
    fn fence_closes_value(&mut self, sink: &mut dyn Sink, run: usize) {
        self.stack.clear();
        self.opens.clear();
        if let Some(keys) = &mut self.keys {
            keys.close(0);
        }
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
        self.value_done(text);
        Step_::Go
    }

    fn start_bare(&mut self, text: &str) {
        self.comma_missing(text);
        let key = self.value_starts(true);
        self.tok = Tok::Bare {
            key,
            start: self.pos,
            scan: self.pos,
            quoted: false,
        };
    }

    fn bare(&mut self, text: &str, sink: &mut dyn Sink) -> Step_ {
        let Tok::Bare {
            key,
            start,
            mut scan,
            mut quoted,
        } = self.tok
        else {
            return Step_::Go;
        };
        let bytes = text.as_bytes();
        let end = self.token_end(bytes, key, start, (&mut scan, &mut quoted));
        let end = end.filter(|&end| key || !self.thousands_undecided(bytes, start, end));
        let end = end.map(|end| match key {
            true => end,
            false => literal_before_word(bytes, start, end),
        });
        let Some(end) = end else {
            self.tok = Tok::Bare {
                key,
                start,
                scan,
                quoted,
            };
            return Step_::Wait;
        };
        self.tok = Tok::None;
        // A token always takes at least one byte.
        self.pos = end.max(start + 1);
        let end = self.pos;
        let word = lex::trim_end(&text[start..end]);
        // A bare key of word characters, or a literal or plain number, reads as written, and
        // so does bare text that ends where the parser ends it; anything else (words the
        // parser may skip or join, curly quotes around a key) is read with the text around
        // it.
        let as_written = bare_as_written(word, key);
        if !key && !as_written && self.doubts == Doubts::Hold {
            if let Some(step) = self.bare_text_or_wait(text, sink, start, end) {
                return step;
            }
        }
        if !as_written {
            self.doubt();
            self.not_strict();
        }
        if key {
            if let Some(top) = self.stack.last_mut() {
                top.key = Some(Key::At(start, start + word.len()));
                top.expect = Expect::Colon;
                top.bare_key = true;
            }
            let span = Span::new(start, start + word.len());
            self.key_read(text, span);
            self.log(text, RepairKind::UnquotedKey, span);
            return Step_::Go;
        }
        // The lenient parser reads the literal (`True`, `None`, `1e3`, `-0.5`, a bare word).
        let (node, literal) = scalar(word, start);
        // The spaces the token ran on through (`true\u{c},`) may be ones JSON does not have.
        let after = &text.as_bytes()[start + word.len()..end];
        if !crate::coerce::json_space_only(after) {
            self.not_strict();
        }
        match literal {
            Literal::Json => {}
            Literal::Other(repairs) => {
                for (kind, span) in repairs {
                    self.log(text, kind, span);
                }
            }
            Literal::Repaired => self.not_strict(),
        }
        if let Some(node) = node {
            self.send(text, sink, &Event::Value(&node), Span::default());
        }
        self.value_done(text);
        Step_::Go
    }

    /// Whether the parser ends the bare text that starts at `start` where the reader's token
    /// ends, at `end` (a `,`, closer or line break; see `parse/bare.rs`): `None` while bytes
    /// still to come could change that. Whether it reads all of it as one string is
    /// [`bare_string_as_written`], asked by the caller. Only plain words
    /// (letters of any script, digits, spaces and a little punctuation, starting with an ASCII
    /// letter) are read so; other bare text is read with the text around it.
    fn bare_text_ends(&self, text: &str, start: usize, end: usize) -> Option<bool> {
        let bytes = text.as_bytes();
        let Some(kind) = self.stack.last().map(|top| top.kind) else {
            return Some(false);
        };
        let plain = |b: u8| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b' ' | b'\t'
                        | b'_'
                        | b'-'
                        | b'.'
                        | b'!'
                        | b'?'
                        | b'('
                        | b')'
                        | b'&'
                        | b'%'
                        | b'+'
                        | b'='
                        | b';'
                        | b'@'
                        | b'*'
                )
        };
        let token = &text[start..end];
        // Letters outside ASCII are text to the parser too (`José Núñez`); its spaces and
        // punctuation are left to it.
        let plain_char = |c: char| match u8::try_from(c) {
            Ok(b) if b.is_ascii() => plain(b),
            _ => c.is_alphabetic(),
        };
        if !token.starts_with(|c: char| c.is_ascii_alphabetic()) || !token.chars().all(plain_char) {
            return Some(false);
        }
        let ahead = if self.ended {
            Ahead::whole(bytes)
        } else {
            Ahead::so_far(bytes)
        };
        match (kind, bytes.get(end)) {
            (_, Some(b'}' | b']')) => Some(true),
            // In an array the text ends at a comma or a line break, unless it is words
            // before a container, which the parser skips (`[note\n{"a": 1}]`).
            (Container::Array, Some(b',' | b'\n' | b'\r')) => {
                Some(ahead.words_before_container(start)?.is_none())
            }
            (Container::Object, Some(b',')) => {
                if ahead.words_go_on_after_comma(end + 1)? {
                    return Some(false);
                }
                Some(!ahead.text_runs_to_stray_quote(end + 1)?)
            }
            (Container::Object, Some(b'\n' | b'\r')) => Some(!ahead.text_goes_on_next_line(end)?),
            // The next member's key or the array's next item after a space, its comma
            // missing (`Reader::word_before_quote` ended the token there), unless the quote
            // closes the text, its opening quote missing.
            (_, Some(b'"')) => Some(!ahead.stray_quote_closes(end)?),
            // A `//` comment after a space (`word_end` ended the token there).
            (_, Some(b'/')) => Some(true),
            _ => Some(false),
        }
    }

    /// Bare text from `start` to `end` (spaces at its end included) that the parser reads as
    /// one string, shown and logged ([`Reader::bare_text`]), or waiting for the bytes that
    /// decide it; `None` where the reader doubts it. Out of line: most bare tokens are
    /// literals and numbers.
    #[inline(never)]
    fn bare_text_or_wait(
        &mut self,
        text: &str,
        sink: &mut dyn Sink,
        start: usize,
        end: usize,
    ) -> Option<Step_> {
        let word = lex::trim_end(&text[start..end]);
        match self.bare_text_ends(text, start, end) {
            // Asked of the parser once the end is decided, not at every push that waits.
            Some(true) if bare_string_as_written(word) => {
                Some(self.bare_text(text, sink, start, word))
            }
            None if text.len() - end < BARE_TEXT_WAIT => Some(self.wait_bare(start, end)),
            _ => None,
        }
    }

    /// Bare text from `start` that the bytes so far end at `end` waits for the bytes after it
    /// that decide whether the parser ends it there.
    fn wait_bare(&mut self, start: usize, end: usize) -> Step_ {
        self.tok = Tok::Bare {
            key: false,
            start,
            scan: end,
            quoted: false,
        };
        self.pos = start;
        Step_::Wait
    }

    /// The bare text `word` at `start`, which the parser reads as one string (see
    /// [`Reader::bare_text_ends`]): logged as the parser logs it, and sent.
    fn bare_text(&mut self, text: &str, sink: &mut dyn Sink, start: usize, word: &str) -> Step_ {
        let span = Span::new(start, start + word.len());
        self.log(text, RepairKind::UnquotedString, span);
        let node = Node::new(
            NodeKind::String(Str {
                text: Cow::Borrowed(word),
                quoting: Quoting::Unquoted,
            }),
            span,
        );
        self.send(text, sink, &Event::Value(&node), Span::default());
        self.value_done(text);
        Step_::Go
    }

    /// Where the bare token from `start` ends ([`word_end`], scanning on from `scan`); a
    /// value's first quote ends it where [`Reader::quote_ends_word`] says, and once passed
    /// (`quoted`) the word runs on to its separator. `None` while the text so far does not
    /// tell.
    fn token_end(
        &self,
        bytes: &[u8],
        key: bool,
        start: usize,
        (scan, quoted): (&mut usize, &mut bool),
    ) -> Option<usize> {
        loop {
            let end = word_end(bytes, key, start, scan, !key && !*quoted);
            let Some(q) = end.filter(|&q| !key && !*quoted && matches!(bytes[q], b'"' | b'\''))
            else {
                return end;
            };
            match self.quote_ends_word(bytes, start, q) {
                Some(true) => return Some(q),
                Some(false) => (*quoted, *scan) = (true, q + 1),
                None => {
                    *scan = q;
                    return None;
                }
            }
        }
    }

    /// Whether the bare value from `start` ends at its first quote, `q`: a quote after a space
    /// that starts the next member's key or the array's next item, its comma missing (the
    /// parser ends a word's text at a `"` there, `Parser::ends_bare_text`, and a number or
    /// literal at any quote). Otherwise the word runs on past it. `None` while the key's
    /// bytes have not arrived.
    fn quote_ends_word(&self, bytes: &[u8], start: usize, q: usize) -> Option<bool> {
        if q == start || !matches!(bytes[q - 1], b' ' | b'\t') {
            return Some(false);
        }
        if bytes[q] == b'\'' && !is_literal(bytes[start..q].trim_ascii_end()) {
            return Some(false);
        }
        match self.stack.last().map(|top| top.kind) {
            Some(Container::Array) => Some(true),
            Some(Container::Object) => key_so_far(bytes, q),
            _ => Some(false),
        }
    }

    /// `"n": 1,234`: in an object value, the parser may read comma groups after a number as
    /// thousands. Doubts the number when a group follows; `true` while the bytes that decide
    /// have not arrived.
    fn thousands_undecided(&mut self, bytes: &[u8], start: usize, end: usize) -> bool {
        if self
            .stack
            .last()
            .is_none_or(|f| f.kind != Container::Object)
        {
            return false;
        }
        match thousands_follow(bytes, start, end) {
            None => true,
            Some(grouped) => {
                if grouped {
                    self.doubt();
                }
                false
            }
        }
    }

    /// Where the reader stands: the innermost container's kind and the depth.
    fn frame(&self) -> Frame_ {
        (self.stack.last().map(|f| f.kind), self.stack.len())
    }

    /// Scans the string token from where it stopped, to its closing quote once that is
    /// decided, or to the end of the text so far, or (under [`Doubts::Hold`]) to doubtful
    /// text.
    // Long: one loop over the string's stops (a quote, a backslash, the plain text between),
    // each decided under both doubt modes; split, every step would take the token's five
    // fields it updates as separate references.
    fn scan_string(&mut self, src: &str) -> StrEnd {
        if self.probe_wait.is_some() && self.probe_waits(src) {
            return StrEnd::Open;
        }
        let frame = self.frame();
        let doubts = self.doubts;
        let bytes = src.as_bytes();
        let end = bytes.len();
        let comma_missed = self.comma_missed;
        let Tok::Str {
            quote,
            key,
            start,
            ref mut text,
            ref mut plain_end,
            ref mut scan,
            ref mut close_at,
            ref mut decided,
            ..
        } = self.tok
        else {
            return StrEnd::Open;
        };
        // While no escape was met, the decoded text is `src[start + 1..plain_end]` (no copy).
        let content = start + 1;
        let decoded_len = |text: &Option<String>, plain_end: usize| match text {
            Some(t) => t.len(),
            None => plain_end - content,
        };
        // Plain text from `from` to `to` read into the string; `Some` where it turned
        // doubtful (a raw line break after a fence's backticks), wherever the text so far ends.
        let plain = |text: &mut Option<String>,
                     plain_end: &mut usize,
                     decided: &mut Decided,
                     from: usize,
                     to: usize| {
            let d0 = decoded_len(text, *plain_end);
            match text {
                Some(t) => t.push_str(&src[from..to]),
                None => *plain_end = to,
            }
            match doubts {
                Doubts::Guess => {
                    decided.safe = d0 + (to - from);
                    None
                }
                Doubts::Hold if key => None,
                Doubts::Hold => decided.plain(&bytes[from..to], d0).map(|k| from + k),
            }
        };
        if decided.doubtful && doubts == Doubts::Hold {
            return StrEnd::Doubt;
        }
        loop {
            if let Some(c) = close_at {
                if doubts == Doubts::Hold {
                    return match decide_close(bytes, c, key, frame) {
                        None => {
                            *scan = end;
                            StrEnd::Open
                        }
                        Some(Verdict::Closes) => {
                            decided.safe = decoded_len(text, *plain_end);
                            StrEnd::Closed(c.q + 1)
                        }
                        Some(Verdict::Doubt) => {
                            // Read on from the quote as the lenient grammar guesses.
                            *c = c.restart();
                            StrEnd::Doubt
                        }
                        Some(Verdict::Inner) => {
                            // The quote is text; nothing from it on shows until the string
                            // closes.
                            let q = c.q;
                            *close_at = None;
                            decided.frozen = true;
                            decided.plain_to = q + 1;
                            *scan = q + 1;
                            if let Some(doubt) = plain(text, plain_end, decided, q, q + 1) {
                                *scan = doubt;
                                return StrEnd::Doubt;
                            }
                            continue;
                        }
                    };
                }
                let Some((closes, next)) = closing_quote(bytes, c.q, c.at, key) else {
                    c.at = end;
                    *scan = end;
                    return StrEnd::Open;
                };
                if closes {
                    return StrEnd::Closed(c.q + 1);
                }
                // An unescaped quote inside the string: it and the spaces after it are text.
                plain(text, plain_end, decided, c.q, next);
                *close_at = None;
                *scan = next;
                continue;
            }
            // Where the text turned doubtful, the scan stops (so that how far it got does
            // not depend on how much text had arrived).
            let found = find_quote_or_backslash(&bytes[*scan..], quote);
            let from = *scan;
            let to = found.map_or(end, |i| from + i);
            // A separator the parser may end the string at, a key quoted with the other
            // quote after it: the text before it is read, then the scan stops there.
            let other_key = match (doubts, key, frame.0) {
                (Doubts::Hold, false, Some(Container::Object)) => {
                    let pending = decided.pending == Pending::Separator;
                    other_quote_key(bytes, from, to, quote, pending)
                }
                _ => OtherKey::None,
            };
            if let OtherKey::Cut(at) | OtherKey::Wait(at) = other_key {
                // A separator pending from the text before is at or before `from`.
                let at = at.max(from);
                *scan = at;
                if let Some(doubt) = plain(text, plain_end, decided, from, at) {
                    *scan = doubt;
                    return StrEnd::Doubt;
                }
                // The separator decides a backtick tail held before it, as it does read as
                // text (`Decided::plain`), however the chunks fell.
                if at < end {
                    decided.release_held(&bytes[at..]);
                }
                if let OtherKey::Cut(_) = other_key {
                    decided.doubtful = true;
                    return StrEnd::Doubt;
                }
                return StrEnd::Open;
            }
            let Some(i) = found else {
                *scan = end;
                return match plain(text, plain_end, decided, from, end) {
                    None => StrEnd::Open,
                    Some(doubt) => {
                        *scan = doubt;
                        StrEnd::Doubt
                    }
                };
            };
            let at = *scan + i;
            *scan = at;
            if let Some(doubt) = plain(text, plain_end, decided, from, at) {
                *scan = doubt;
                return StrEnd::Doubt;
            }
            if bytes[at] == quote {
                let mut c = Closing::at(start + 1, at, comma_missed == start);
                c.settled = decided.pending == Pending::None;
                c.plain_from = decided.plain_to;
                c.after_inner = decided.frozen;
                *close_at = Some(c);
                *scan = at + 1;
                continue;
            }
            let (c, len) = match lex::lenient_escape(bytes, at, quote, true) {
                Escape::Cut => return StrEnd::Open,
                Escape::Char(c, len) => (c, len),
                Escape::Replaced(len) => ('\u{FFFD}', len),
                // The backslash is text; what follows it is read as the parser reads it.
                Escape::Backslash => ('\\', 1),
            };
            *scan = at + len;
            let t = text.get_or_insert_with(|| decoded_from(&src[content..at]));
            t.push(c);
            // An escape is text whatever follows it, and ends a run of backticks.
            (decided.ticks, decided.held, decided.held_fence) = (0, None, false);
            decided.text(t.len());
        }
    }

    /// Whether a string value here shows as it grows. Under [`Doubts::Hold`], an array's item
    /// or the value of a bare key may turn out to be a key itself (`["q": 1}]`, `{a: "b": 1}`,
    /// which the parser reads as a member): it shows once closed, or once longer than a key
    /// the parser would look for.
    /// While a quote that may close it waits for the text after it, the string is as long as
    /// up to that quote (the scan looks on past it, as far as the chunk goes).
    fn shows_early(&self) -> bool {
        let Tok::Str {
            start,
            scan,
            close_at,
            ..
        } = self.tok
        else {
            return true;
        };
        self.doubts == Doubts::Guess
            || close_at.map_or(scan, |c| c.q) - start >= KEY_LOOKAHEAD
            || self
                .stack
                .last()
                .is_some_and(|top| top.kind == Container::Object && !top.bare_key)
    }

    fn string(&mut self, src: &str, sink: &mut dyn Sink) -> Step_ {
        let ended = self.scan_string(src);
        let early = self.shows_early();
        let Tok::Str {
            quote,
            key,
            start,
            ref mut text,
            plain_end,
            sent,
            started,
            scan,
            decided,
            ..
        } = self.tok
        else {
            return Step_::Go;
        };
        let content = start + 1;
        if key {
            let name = match text.take() {
                Some(t) => Key::Owned(t),
                None => Key::At(content, plain_end),
            };
            return self.key_string(src, ended, name, (start, scan));
        }
        let scanned = scan;
        // Sent as it grows: everything decided so far.
        let decoded = self.tok.decoded(src);
        let upto = match ended {
            StrEnd::Closed(_) => decoded.len(),
            _ => decided.safe.min(decoded.len()),
        };
        let piece = &decoded[sent.min(upto)..upto];
        // A string that closes in this push is one `Value` event, which replaces what its
        // growing showed; one that goes on past it shows once its first character is
        // decided (`''` may be a doubled quote, or a string the parser reads on past its
        // second quote).
        let closed = matches!(ended, StrEnd::Closed(_));
        let grown =
            !closed && early && (!piece.is_empty() || (!started && self.doubts == Doubts::Guess));
        if grown {
            self.pos = scanned;
            self.send(src, sink, &Event::Grow(piece), Span::default());
        }
        let after = match ended {
            StrEnd::Closed(after) => after,
            open_or_doubt => {
                if let (true, Tok::Str { sent, started, .. }) = (grown, &mut self.tok) {
                    *sent = upto;
                    *started = true;
                }
                self.pos = scanned;
                if matches!(open_or_doubt, StrEnd::Doubt) {
                    if let Some(step) = self.probe_string(src, sink) {
                        return step;
                    }
                    // Read on as the lenient grammar guesses, showing nothing more.
                    self.doubt();
                    return Step_::Go;
                }
                return Step_::Wait;
            }
        };
        let escaped = matches!(self.tok, Tok::Str { text: Some(_), .. });
        let inner = decided.frozen;
        let quotes = self.check_string(src.as_bytes(), (start, after - 1), quote, escaped, inner);
        self.log_string(src, quotes);
        let text = match std::mem::replace(&mut self.tok, Tok::None) {
            Tok::Str { text: Some(t), .. } => Cow::Owned(t),
            _ => Cow::Borrowed(&src[content..plain_end]),
        };
        self.pos = after;
        let node = string_node(text, quote, Span::new(start, after));
        self.send(src, sink, &Event::Value(&node), Span::default());
        self.value_done(src);
        Step_::Go
    }

    /// Whether the value string being read waits for more text before the parser is asked
    /// where it ends ([`Reader::probe_string`]).
    fn probe_waits(&self, src: &str) -> bool {
        match (self.probe_wait, &self.tok) {
            (Some((at, until, _)), Tok::Str { start, .. }) => {
                at == *start && !self.ended && src.len() < until
            }
            _ => false,
        }
    }

    /// A value string whose reading this reader doubts (a quote it cannot decide, a
    /// separator the parser may end it at): the parser's own string rules are asked where it
    /// ends (`parse::value_string`, at this depth, in these containers), once the text holds
    /// [`PROBE_HORIZON`] bytes past where they could look. Taken when that reading is settled
    /// by the text so far: no closer or backtick inside (the rules there weigh the rest of the
    /// text), no space at the text's end that a skip could run into, nothing shown of it that
    /// the reading contradicts, and only repairs of its quotes and control characters, which
    /// are logged as the parser logs them. `None`: the reader doubts, as before.
    fn probe_string(&mut self, src: &str, sink: &mut dyn Sink) -> Option<Step_> {
        let Tok::Str {
            key: false,
            start,
            sent,
            ..
        } = self.tok
        else {
            return None;
        };
        let bytes = src.as_bytes();
        // Where the parser reads a value string as written: after a quoted key (after a bare
        // one it may take the bare word for a stray label and the string for the key,
        // `Parser::stray_label_ends`), or in an array where it is no key (one whose `{` went
        // missing).
        let as_value = match self.stack.last() {
            Some(top) if top.kind == Container::Object => Some(!top.bare_key),
            Some(_) => key_so_far(bytes, start).map(|key| !key),
            None => Some(false),
        };
        if self.doubts != Doubts::Hold {
            return None;
        }
        match as_value {
            Some(true) => {}
            // Whether the string is an item or a key is not told yet by the bytes so far
            // (`['a` may go on `': 1`): a reader given more of the text at once would know.
            None if !self.ended => return Some(Step_::Wait),
            _ => return None,
        }
        let second = match self.probe_wait.take() {
            Some((at, _, second)) if at == start => second,
            _ => {
                let until = self.pos + PROBE_HORIZON;
                if !self.ended && src.len() < until {
                    self.probe_wait = Some((start, until, false));
                    return Some(Step_::Wait);
                }
                false
            }
        };
        // A skip over spaces may run into the end of the text so far: wait for a byte.
        if !self.ended && bytes.last().is_some_and(u8::is_ascii_whitespace) {
            self.probe_wait = Some((start, src.len() + 1, second));
            return Some(Step_::Wait);
        }
        let containers: Vec<(bool, usize)> = (self.stack.iter())
            .map(|f| (f.kind == Container::Object, f.start))
            .collect();
        let read = crate::parse::value_string(src, start, &containers);
        if !self.ended && (!read.complete || read.resume + PROBE_HORIZON > src.len()) {
            if second {
                return None;
            }
            // A reading that ended waits until the text holds the horizon past its end (where
            // a reader given all of that text at once takes it), one cut off until the text
            // holds the horizon past what there is now.
            let until = match read.complete {
                true => read.resume,
                false => read.resume.max(src.len()),
            } + PROBE_HORIZON;
            self.probe_wait = Some((start, until, true));
            return Some(Step_::Wait);
        }
        if !probe_settled(bytes, start, &read, &self.tok.decoded(src)[..sent])
            || !probe_holds_before_prose(src, start, &containers, &read)
        {
            return None;
        }
        for r in &read.repairs {
            self.log(src, r.kind, r.span);
        }
        self.tok = Tok::None;
        self.pos = read.resume;
        let node = Node::new(NodeKind::String(read.text), Span::new(start, read.resume));
        self.send(src, sink, &Event::Value(&node), Span::default());
        self.value_done(src);
        Some(Step_::Go)
    }

    /// A key's string token where its scan stopped: `name` is its text so far.
    fn key_string(&mut self, src: &str, ended: StrEnd, name: Key, at: (usize, usize)) -> Step_ {
        let bytes = src.as_bytes();
        let (start, scan) = at;
        let (after, quotes) = match ended {
            StrEnd::Closed(after) => {
                let escaped = matches!(name, Key::Owned(_));
                let quotes =
                    self.check_string(bytes, (start, after - 1), bytes[start], escaped, false);
                (after, quotes)
            }
            StrEnd::Open => {
                if let (Key::Owned(t), Tok::Str { text, .. }) = (name, &mut self.tok) {
                    *text = Some(t);
                }
                self.pos = scan;
                return Step_::Wait;
            }
            StrEnd::Doubt => {
                // Read on as the lenient grammar guesses, showing nothing more.
                if let (Key::Owned(t), Tok::Str { text, .. }) = (name, &mut self.tok) {
                    *text = Some(t);
                }
                self.doubt();
                return Step_::Go;
            }
        };
        self.tok = Tok::None;
        self.pos = after;
        if !key_as_written(bytes, start, after) {
            self.doubt();
        }
        if let Some(top) = self.stack.last_mut() {
            top.key = Some(name);
            top.expect = Expect::Colon;
            top.bare_key = false;
        }
        self.key_read(src, Span::new(start, after));
        self.log_string(src, quotes);
        Step_::Go
    }

    /// Whether `chunk`, appended to the text (which ends inside the string
    /// [`Reader::growing_string`] found), only makes it grow, all of it decided: no quote or
    /// backslash, and under [`Doubts::Hold`] nothing of the string pending, and no separator,
    /// closer, line break or backtick, and no space at its end (spaces before where a closing
    /// quote went missing are not the string's). Other text goes through
    /// [`Reader::scan_on`].
    pub(crate) fn grows_plainly(&self, chunk: &[u8], quote: u8) -> Plainly {
        match (self.doubts, &self.tok) {
            (Doubts::Guess, _) => match super::has_either(chunk, quote, b'\\') {
                false => Plainly::All,
                true => Plainly::No,
            },
            (Doubts::Hold, Tok::Str { decided, sent, .. }) => {
                if decided.doubtful || self.probe_wait.is_some() {
                    return Plainly::No;
                }
                // Without a branch per byte: chunks are short, and most have no stop.
                let stops = chunk.iter().fold(0, |seen, &b| seen | STOPS[b as usize]);
                let other = match quote {
                    b'"' => Stop::SINGLE,
                    _ => Stop::DOUBLE,
                };
                let own = Stop::QUOTES & !other;
                // A key quoted with the other quote can only start after a separator.
                let may_cut = stops & Stop::SEPARATOR != 0 || decided.pending == Pending::Separator;
                if stops & Stop::SCAN != 0 || (stops & other != 0 && may_cut) {
                    return Plainly::No;
                }
                // The string's own quote only escaped.
                if stops & Stop::ESCAPE != 0 {
                    return match escapes_whole(chunk, quote) {
                        true if stops & Stop::CLOSER == 0 && decided.quiet() => Plainly::Escaped,
                        true => Plainly::Settled,
                        false => Plainly::No,
                    };
                }
                if stops & own != 0 {
                    return Plainly::No;
                }
                let whole = stops & (Stop::SEPARATOR | Stop::CLOSER) == 0
                    && decided.pending == Pending::None
                    && (chunk.last().is_some_and(|b| (0x21..0x80).contains(b))
                        || lex::space_len_before(chunk, chunk.len()) == 0);
                let all_sent = *sent == self.tok.decoded_len();
                if whole && all_sent {
                    return Plainly::All;
                }
                let quiet = stops & Stop::CLOSER == 0 && decided.quiet();
                match (whole, quiet) {
                    // Only spaces are not sent (no separator is pending, nothing is frozen):
                    // the chunk's text decides them.
                    (true, true) if !decided.frozen => Plainly::Caught,
                    (_, true) => Plainly::Trimmed,
                    (_, false) => Plainly::Settled,
                }
            }
            _ => Plainly::No,
        }
    }

    /// Reads the text past the end of the last one (`plainly`: [`Plainly::Settled`],
    /// [`Plainly::Escaped`] or [`Plainly::Trimmed`]: no quote but escaped ones, no backtick
    /// or line break, each escape whole) as more of the string [`Reader::growing_string`]
    /// found, as the scan would, without it: the text is the string's, escapes read as
    /// [`lex::lenient_escape`] reads them, and what of it is decided is what
    /// [`Decided::plain`] says. Returns the decided text not yet sent; [`Reader::mark_sent`]
    /// then records that the caller grew the string by it.
    ///
    /// [`Plainly::Trimmed`]: the text holds no escape, closer or backtick, and the string
    /// leaves nothing of them pending, so it is one segment that [`Decided::settle`] reads
    /// alone (what `plain` would do with it). [`Plainly::Escaped`]: the same, but for its
    /// escapes; an escape is text whatever follows it, so all before the last escape is
    /// decided and only the text after it is settled (what `plain` of each segment and the
    /// escapes between them come to).
    pub(crate) fn settle_on<'s>(&'s mut self, src: &'s str, plainly: Plainly) -> &'s str {
        if let Tok::Str {
            start,
            quote,
            ref mut text,
            ref mut plain_end,
            ref mut scan,
            ref mut decided,
            ..
        } = self.tok
        {
            let bytes = src.as_bytes();
            let content = start + 1;
            let mut from = *scan;
            let mut escaped = false;
            loop {
                let to = match plainly {
                    Plainly::Trimmed => bytes.len(),
                    _ => memchr::memchr(b'\\', &bytes[from..]).map_or(bytes.len(), |i| from + i),
                };
                let d0 = match text {
                    Some(t) => {
                        let d0 = t.len();
                        t.push_str(&src[from..to]);
                        d0
                    }
                    None => {
                        let d0 = *plain_end - content;
                        *plain_end = to;
                        d0
                    }
                };
                let last = to == bytes.len();
                match plainly {
                    Plainly::Escaped if !last => {}
                    Plainly::Escaped | Plainly::Trimmed => {
                        if escaped {
                            // An escape is text whatever follows it, and ends a run of
                            // backticks: all before the text after the last one is decided.
                            (decided.ticks, decided.held, decided.held_fence) = (0, None, false);
                            decided.text(d0);
                        }
                        // Neither holds a closer (`Reader::grows_plainly`).
                        decided.settle_closers(&bytes[from..to], d0, false);
                    }
                    _ => {
                        // Without a line break, nothing in the text is doubtful.
                        let doubt = decided.plain(&bytes[from..to], d0);
                        debug_assert!(doubt.is_none());
                    }
                }
                if last {
                    break;
                }
                let (c, len) = match lex::lenient_escape(bytes, to, quote, true) {
                    Escape::Char(c, len) => (c, len),
                    Escape::Replaced(len) => ('\u{FFFD}', len),
                    Escape::Backslash => ('\\', 1),
                    // Ruled out by `escapes_whole`.
                    Escape::Cut => break,
                };
                let t = text.get_or_insert_with(|| decoded_from(&src[content..to]));
                t.push(c);
                from = to + len;
                if plainly == Plainly::Escaped {
                    escaped = true;
                    continue;
                }
                // An escape is text whatever follows it, and ends a run of backticks.
                (decided.ticks, decided.held, decided.held_fence) = (0, None, false);
                decided.text(t.len());
            }
            *scan = src.len();
        }
        match self.tok {
            Tok::Str { sent, decided, .. } => &self.tok.decoded(src)[sent..decided.safe],
            _ => "",
        }
    }
}

/// The decoded text of a string, started at its first escape with the text before it: with
/// room for as much again, as the string most often goes on (a long string streamed in short
/// chunks otherwise reallocates it at each doubling from a few bytes).
fn decoded_from(before: &str) -> String {
    let mut text = String::with_capacity(before.len().saturating_mul(2).max(64));
    text.push_str(before);
    text
}

/// What a chunk of text appended to a value string does to it ([`Reader::grows_plainly`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Plainly {
    /// All of it is the string's, decided: appended as it is.
    All,
    /// As [`Plainly::All`], after text of the string not sent yet that it decides: spaces
    /// its end might have lost ([`Reader::unsent`]), appended before it.
    Caught,
    /// All of it is the string's, with no escape, closer or backtick, after text that left
    /// no backtick run or closer pending: only spaces and separators at its end may still be
    /// cut. [`Reader::settle_on`] reads it as one segment.
    Trimmed,
    /// All of it is the string's, with escapes but no closer or backtick, after text that
    /// left no backtick run or closer pending: [`Reader::settle_on`] reads it, settling only
    /// the text after its last escape.
    Escaped,
    /// All of it is the string's, and its end may still be cut (spaces, separators,
    /// closers), or it holds escapes: [`Reader::settle_on`] reads it.
    Settled,
    /// The reader's scan reads it.
    No,
}

/// The kinds of byte [`Reader::grows_plainly`] tells apart, as bits.
struct Stop;

impl Stop {
    /// What only the scan reads: backticks (fences) and line breaks.
    const SCAN: u8 = 1;
    const DOUBLE: u8 = 2;
    const SINGLE: u8 = 4;
    const QUOTES: u8 = Stop::DOUBLE | Stop::SINGLE;
    const ESCAPE: u8 = 8;
    /// What the string's text may lose at its end if its closing quote went missing.
    const SEPARATOR: u8 = 16;
    const CLOSER: u8 = 32;
}

static STOPS: [u8; 256] = {
    let mut t = [0; 256];
    t[b'`' as usize] = Stop::SCAN;
    t[b'\n' as usize] = Stop::SCAN;
    t[b'\r' as usize] = Stop::SCAN;
    t[b'"' as usize] = Stop::DOUBLE;
    t[b'\'' as usize] = Stop::SINGLE;
    t[b'\\' as usize] = Stop::ESCAPE;
    t[b',' as usize] = Stop::SEPARATOR;
    t[b'}' as usize] = Stop::CLOSER;
    t[b']' as usize] = Stop::CLOSER;
    t
};

/// Whether every backslash in `chunk` (the end of the text) starts an escape that ends in it,
/// and every `quote` in it is escaped: then the string's scan would read all of it as text.
fn escapes_whole(chunk: &[u8], quote: u8) -> bool {
    let mut i = 0;
    while i < chunk.len() {
        match chunk[i] {
            // Two bytes but for `\u`: an escape, or a backslash that is text before a byte
            // that is no quote or backslash (`lex::lenient_escape`).
            b'\\' if chunk.get(i + 1).is_some_and(|&b| b != b'u') => i += 2,
            b'\\' => match lex::lenient_escape(chunk, i, quote, true) {
                Escape::Char(_, len) | Escape::Replaced(len) => i += len,
                Escape::Backslash => i += 1,
                Escape::Cut => return false,
            },
            b if b == quote => return false,
            _ => i += 1,
        }
    }
    true
}

/// Whether a key's `:` (or the full-width `：`) starts at `p` in `bytes`, the text so far:
/// `None` while a character there is cut.
fn colon_at(bytes: &[u8], p: usize) -> Option<bool> {
    match bytes[p] {
        b':' => Some(true),
        0xEF if bytes.len() < p + lex::FULLWIDTH_LEN => None,
        0xEF => Some(lex::fullwidth_separator(&bytes[p..]) == Some(b':')),
        _ => Some(false),
    }
}

/// What a value string's separator followed by a key quoted with the other quote tells
/// ([`other_quote_key`]).
enum OtherKey {
    None,
    /// The parser ends the string at this separator (`Parser::other_quote_key_at`).
    Cut(usize),
    /// Whether it does at this separator, the text so far does not tell yet.
    Wait(usize),
}

/// In an object's value string quoted with `quote`, the first separator in `from..to` where
/// the parser may end the string because a key quoted with the other quote follows, the
/// string's own quote not coming again on that key's line (`{"a": 'x, "b": 1}`), as far as
/// the text so far `bytes` tells: the parser's rule (`Parser::other_quote_key_at`) asked of
/// a prefix, with its key test ([`key_so_far`]) and its bounds. A separator before `from`
/// with only spaces after it (left pending by the text before, `pending`) is asked first.
fn other_quote_key(bytes: &[u8], from: usize, to: usize, quote: u8, pending: bool) -> OtherKey {
    let other = match quote {
        b'\'' => b'"',
        b'"' => b'\'',
        _ => return OtherKey::None,
    };
    // No key quoted otherwise starts in the segment: nothing to ask (most segments).
    if !pending && !bytes[from..to].contains(&other) {
        return OtherKey::None;
    }
    if pending {
        let mut q = from;
        // Back over the spaces to the separator; a line break is one, though it is a space.
        while q + KEY_LOOKAHEAD > from && (q == 0 || !matches!(bytes[q - 1], b',' | b'\n')) {
            match lex::space_len_before(bytes, q) {
                0 => break,
                n => q -= n,
            }
        }
        if let Some(p) = q
            .checked_sub(1)
            .filter(|&p| matches!(bytes[p], b',' | b'\n'))
        {
            match at_separator(bytes, p, quote, other) {
                OtherKey::None => {}
                // The text from `from` on waits with the separator.
                OtherKey::Wait(_) => return OtherKey::Wait(from),
                cut => return cut,
            }
        }
    }
    let mut next = from;
    loop {
        // Most segments are a chunk's few bytes, where a plain loop beats `memchr2`'s setup.
        let found = if to - next < 64 {
            (next..to).find(|&i| matches!(bytes[i], b',' | b'\n'))
        } else {
            memchr::memchr2(b',', b'\n', &bytes[next..to]).map(|k| next + k)
        };
        let Some(p) = found else {
            return OtherKey::None;
        };
        next = p + 1;
        match at_separator(bytes, p, quote, other) {
            OtherKey::None => {}
            found => return found,
        }
    }
}

/// [`other_quote_key`] at the separator at `p` (`other`: the quote unlike the string's).
/// Only spaces after it so far: `None` (the string's text leaves the separator pending, and
/// the next text asks again).
fn at_separator(bytes: &[u8], p: usize, quote: u8, other: u8) -> OtherKey {
    let end = bytes.len();
    let j = skip_space(bytes, p + 1, (p + KEY_LOOKAHEAD).min(end));
    if j == end {
        return OtherKey::None;
    }
    // A character cut by the end may be a space, with the quote after it.
    if j + lex::utf8_len(bytes[j]) > end {
        return OtherKey::Wait(p);
    }
    if bytes[j] != other {
        return OtherKey::None;
    }
    // The string's own quote on the key's line: no cut, whatever the key (a valid string
    // holding `,'` ends so); asked first, so such a string never waits on the key test.
    let own = own_quote_on_key_line(bytes, p, j, quote);
    if own == Some(true) {
        return OtherKey::None;
    }
    match key_so_far(bytes, j) {
        None => OtherKey::Wait(p),
        Some(false) => OtherKey::None,
        Some(true) if own == Some(false) => OtherKey::Cut(p),
        // The key's line has not ended yet.
        Some(true) => OtherKey::Wait(p),
    }
}

/// The innermost container's kind and the depth.
type Frame_ = (Option<Container>, usize);

/// Where a string's scan stopped.
enum StrEnd {
    /// The text so far ends inside it.
    Open,
    /// Its closing quote is decided; reading goes on at this offset.
    Closed(usize),
    /// Doubtful text (under [`Doubts::Hold`]): what was decided before it is all it shows.
    Doubt,
}

/// What of a value string's decoded text is decided, under [`Doubts::Hold`].
#[derive(Debug, Clone, Copy, Default)]
struct Decided {
    /// The decided bytes of the decoded text. The rest may still be cut from the string by
    /// the parser: spaces before where a closing quote went missing, a separator before the
    /// next member, a closer that the string's containers own.
    safe: usize,
    pending: Pending,
    /// The backticks at the end of the text scanned (counted up to 3), and whether a run of
    /// three was met: a raw line break after one may open a code fence in the string, inside
    /// which the parser reads quotes and separators as code.
    ticks: u8,
    fence: bool,
    /// A tail of the text so far that may open a fence's closing line (backticks, or spaces
    /// after three): `safe` as it would be were the tail the string's, until the byte after it
    /// says; and whether the tail holds a run of three.
    held: Option<usize>,
    held_fence: bool,
    /// Doubtful text was met: the string shows no more (kept, so that reading it again says
    /// so again).
    doubtful: bool,
    /// A quote was read as text ([`Verdict::Inner`]): the parser may still end the string
    /// there, if it never closes, so nothing after it is decided before it does.
    frozen: bool,
    /// The text up to here (a source offset) holds no closer or line break: it was found so
    /// at the last quote read as text.
    plain_to: usize,
}

/// Text of a value string the parser may still cut from it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Pending {
    #[default]
    None,
    /// A `,` or raw line break, then only spaces: the next member may start there, which the
    /// next byte that is not a space decides (only a quote can start it).
    Separator,
    /// A `}` or `]`: the string's containers may own it, if the string never closes (decided
    /// by its closing quote).
    Closer,
}

impl Decided {
    /// No backtick run before the text to come that it could go on from, and no closer
    /// waiting on the closing quote: text with no backtick or closer is settled by
    /// [`Decided::settle`] alone.
    fn quiet(&self) -> bool {
        !self.fence
            && self.ticks == 0
            && self.held.is_none()
            && !self.held_fence
            && self.pending != Pending::Closer
    }

    /// Plain text `seg` (no quote or backslash) of a value string, at `d0` in the decoded
    /// text. `Some` (the offset in `seg`) where it is doubtful: a raw line break after a run
    /// of three backticks.
    fn plain(&mut self, seg: &[u8], d0: usize) -> Option<usize> {
        if seg.is_empty() {
            return None;
        }
        // Most text: no backtick in it, and none before it that it could go on from.
        let quiet = !self.fence && self.ticks == 0 && self.held.is_none() && !self.held_fence;
        if quiet && !seg.contains(&b'`') {
            self.settle(seg, d0);
            return None;
        }
        self.release_held(seg);
        let mut run = usize::from(self.ticks);
        let mut last: Option<usize> = None;
        let mut fence_at = self.fence.then_some(0);
        for p in memchr::memchr_iter(b'`', seg) {
            let follows = match last {
                Some(l) => l + 1 == p,
                None => p == 0,
            };
            run = if follows { run + 1 } else { 1 };
            last = Some(p);
            if run >= 3 && fence_at.is_none() {
                fence_at = Some(p);
            }
        }
        let held_fence = std::mem::take(&mut self.held_fence);
        self.ticks = match last {
            Some(p) if p + 1 == seg.len() => run.min(3) as u8,
            _ => 0,
        };
        if let Some(f) = fence_at {
            self.fence = true;
            if let Some(n) = memchr::memchr(b'\n', &seg[f..]) {
                // The text before the line break is the string's either way, unless the run
                // has nothing but spaces after it on its line: then it may be the closing
                // line of the fence the value is in, and the string ends before the run.
                let run_end = f + seg[f..].iter().take_while(|&&b| b == b'`').count();
                let upto = match lex::blank_line_rest(&seg[run_end..f + n]) {
                    true => seg[..f]
                        .iter()
                        .rposition(|&b| b != b'`')
                        .map_or(0, |p| p + 1),
                    false => f + n,
                };
                self.settle(&seg[..upto], d0);
                self.doubtful = true;
                return Some(f + n);
            }
        }
        match fence_tail(seg, run, held_fence) {
            Some((tail, fence)) => {
                let mut before = *self;
                before.settle(&seg[..seg.len() - tail], d0);
                self.settle(seg, d0);
                self.held = Some(self.safe);
                self.held_fence = fence;
                self.safe = before.safe;
            }
            None => self.settle(seg, d0),
        }
        None
    }

    /// At the text after a held tail ([`fence_tail`]): whether the tail is the string's.
    /// It is, unless the text goes on with more of the run, or, after three backticks, with a
    /// space (as the fence's closing line counts spaces, `tags::blank_to_line_end`) or a line
    /// break.
    fn release_held(&mut self, rest: &[u8]) {
        if let Some(full) = self.held.take() {
            let open = match rest[0] {
                b'`' => true,
                b'\n' => self.held_fence,
                _ => self.held_fence && lex::space_len(rest) > 0,
            };
            if !open && !self.frozen {
                self.safe = self.safe.max(full);
            }
        }
    }

    /// What of plain text `seg` at `d0` is decided, and what it leaves pending.
    fn settle(&mut self, seg: &[u8], d0: usize) {
        self.settle_closers(seg, d0, true);
    }

    /// [`Decided::settle`], told whether `seg` may hold a closer (`false`: the caller found
    /// none).
    fn settle_closers(&mut self, seg: &[u8], d0: usize, closers: bool) {
        if self.pending == Pending::Closer {
            return;
        }
        // Most segments are a chunk's few bytes, where a plain loop beats `memchr2`'s setup.
        let closer_at = match (closers, seg.len() < 64) {
            (false, _) => None,
            (true, true) => seg.iter().position(|&b| b == b'}' || b == b']'),
            (true, false) => memchr::memchr2(b'}', b']', seg),
        };
        let (before, closer) = match closer_at {
            Some(k) => (&seg[..k], true),
            None => (seg, false),
        };
        // Spaces (of every kind the parser trims) and commas at the end may be cut.
        let mut body = before.len();
        while body > 0 {
            body -= match before[body - 1] {
                b',' => 1,
                // Most text ends in a character that is no space (every ASCII space is at
                // most 0x20): the spaces of other kinds are asked of `lex` only past ASCII.
                0x21..=0x7F => break,
                _ => match lex::space_len_before(before, body) {
                    0 => break,
                    n => n,
                },
            };
        }
        if body > 0 {
            self.text(d0 + body);
        }
        if before[body..].iter().any(|&b| b == b',' || b == b'\n') {
            self.pending = Pending::Separator;
        }
        if closer {
            self.pending = Pending::Closer;
        }
    }

    /// Text that is the string's whatever follows ends at `len` in the decoded text.
    fn text(&mut self, len: usize) {
        if self.pending != Pending::Closer {
            self.pending = Pending::None;
            if !self.frozen {
                self.safe = len;
            }
        }
    }
}

/// The end of plain string text `seg` that may start a fence's closing line, so that the string
/// would end before it: backticks (the run may go on to three), or spaces after a run of three (the
/// spaces `tags::blank_to_line_end` allows after a closing run). Returns its length, and whether it
/// holds a run of three; `run` is the length of the last run of backticks in `seg` counted with
/// those before it, `held_fence` whether the text before `seg` ended in such a tail with a run of
/// three.
fn fence_tail(seg: &[u8], run: usize, held_fence: bool) -> Option<(usize, bool)> {
    let spaces = lex::trailing_line_spaces(seg);
    let body = &seg[..seg.len() - spaces];
    let ticks = body.len() - body.iter().rposition(|&b| b != b'`').map_or(0, |p| p + 1);
    match (ticks, spaces) {
        (0, 0) => None,
        (0, _) if body.is_empty() && held_fence => Some((spaces, true)),
        (0, _) => None,
        (_, 0) => Some((ticks, run >= 3)),
        _ if run >= 3 => Some((ticks + spaces, true)),
        _ => None,
    }
}

/// A quote that may close its string, and how far what follows it was looked at.
#[derive(Debug, Clone, Copy)]
struct Closing {
    q: usize,
    /// The next byte to look at.
    at: usize,
    phase: Phase,
    /// Where the key of the next member starts (in `Phase::Key` and `Phase::BareKey`).
    key: usize,
    /// The spaces skipped in this phase hold a line break.
    newline: bool,
    /// Where the string's text starts.
    content: usize,
    /// [`Closing::plain`], once asked.
    plain: Option<bool>,
    /// Where [`Closing::plain`] starts looking: the text before was found plain when an
    /// earlier quote of the string was read as text ([`Verdict::Inner`]).
    plain_from: usize,
    /// The string starts where a comma was missing: the parser read it after guessing that
    /// comma, and may end it inside, so it closes only if its text is plain.
    after_missing: bool,
    /// The text before the quote is settled (no separator pending, which the parser may end
    /// the string at before it reaches the quote): a quote it will not close at may be read
    /// as text ([`Verdict::Inner`]).
    settled: bool,
    /// An earlier quote of the string was read as text ([`Verdict::Inner`]).
    after_inner: bool,
    /// What decided the quote closing is the next member's key after a `,`, or a `,` after
    /// the container's closer.
    before_key: bool,
}

/// How far [`decide_close`] got.
#[derive(Debug, Clone, Copy)]
enum Phase {
    /// After the quote.
    Quote,
    /// After a `,` in an object: the next member's key decides.
    Comma,
    /// In the next member's quoted key.
    Key,
    /// In the next member's bare key.
    BareKey,
    /// After the next member's key: its `:` decides.
    AfterKey,
    /// After a closer of a container that is not the root.
    Closer,
}

/// What follows a quote decided.
enum Verdict {
    /// It closes its string, as the parser reads it.
    Closes,
    /// The parser will not close the string at it: a quote inside an object's value string,
    /// after text, before a word that is no key (`"the app "freezes" on startup"`,
    /// `'it's'`). The parser logs it as an unescaped quote and reads on; it may still end the
    /// string there if the string never closes, so what follows is not shown until it does.
    Inner,
    /// The parser may read it otherwise (a quote inside the string, or the string ended
    /// elsewhere): doubtful.
    Doubt,
}

impl Closing {
    /// Whether the string's text before the quote holds no closer and no line break, where
    /// the parser may end a string whose closing quote it does not find
    /// (`Parser::string_stop`): only then is a quote closing it before an item or member whose
    /// comma is missing, or before its container's closer and a later line or key, decided
    /// here. Looked at once, when a rule asks.
    fn plain(&mut self, bytes: &[u8]) -> bool {
        let text = &bytes[self.plain_from.max(self.content)..self.q];
        *self.plain.get_or_insert_with(|| {
            !has_closer(text) && memchr::memchr2(b'\n', b'\r', text).is_none()
        })
    }

    /// The quote at `q` of the string whose text starts at `content`.
    fn at(content: usize, q: usize, after_missing: bool) -> Closing {
        Closing {
            q,
            at: q + 1,
            phase: Phase::Quote,
            key: 0,
            newline: false,
            content,
            plain: None,
            plain_from: content,
            after_missing,
            settled: false,
            after_inner: false,
            before_key: false,
        }
    }

    /// The same quote looked at again from its start: what it knows of the text before
    /// it is kept, so that the verdict is the same.
    fn restart(&self) -> Closing {
        Closing {
            settled: self.settled,
            plain_from: self.plain_from,
            after_inner: self.after_inner,
            ..Closing::at(self.content, self.q, self.after_missing)
        }
    }

    /// Whether the parser reads the quote as text, given that a word which is no key follows
    /// it: in an object's value string (`Parser::closes_here` then asks only whether a key
    /// follows), after text (a quote right after the opening one may double it), the word on
    /// the quote's line (a line that follows may be a member the parser ends the string
    /// before), the text before settled and plain (the parser reaches the quote).
    fn inner(&mut self, bytes: &[u8], key: bool, top: Option<Container>, b: u8) -> bool {
        matches!(self.phase, Phase::Quote)
            && !key
            && top == Some(Container::Object)
            && b.is_ascii_alphanumeric()
            && !self.newline
            && self.settled
            && self.q > self.content
            && self.plain(bytes)
    }
}

/// Whether the quote `c.q` closes its string as the parser reads it, looking on from `c.at`
/// (`None` while the text so far ends before that is decided). Only what valid JSON writes
/// after a string is decided as closing: a key's `:`; after a value, the next item's `,`, the
/// next member's `,` and quoted or bare key with its `:`, or the container's closer followed
/// by what may follow a value (the parser looks as far, so it reads the same); and what the
/// parser ends a string at as surely: a comment right after the quote, a comment, `#` or `[`
/// after a member's `,`, a key in single quotes by the parser's own test; and, when the
/// string's text holds no closer or line break the parser may end it at
/// ([`Closing::plain`]): the next member's key, quoted or bare, its comma missing (the same
/// test); an array's next string, or its next item on a later line, its comma missing; after
/// the container's closer, a later line, an opener, a comment or a key. Anything else is
/// doubtful. Resumable: the text
/// looked at is not looked at again (but for a key in single quotes, tested again from its
/// quote, within the key's bounded lookahead).
///
/// After a quote of the string was read as text, the parser has more ways to end the string
/// (at that quote, when it finds no closing one where it looks), and a choice it makes with
/// the rest of the text: only the next member's key after a `,`, or the `,` after the closer
/// of a container inside the value, closes the string then.
#[inline(always)]
fn decide_close(bytes: &[u8], c: &mut Closing, key: bool, frame: Frame_) -> Option<Verdict> {
    // What most quotes are followed by, decided as `decide_close_alone`'s first arms decide it
    // without its call: a key's `:`, an array item's `,`.
    if let (Phase::Quote, false, Some(&b)) = (c.phase, c.after_missing, bytes.get(c.at)) {
        if closes_at_once(key, frame.0, b) {
            return match c.after_inner && !c.before_key {
                true => Some(Verdict::Doubt),
                false => Some(Verdict::Closes),
            };
        }
    }
    match decide_close_alone(bytes, c, key, frame) {
        Some(Verdict::Closes) if c.after_inner && !c.before_key => Some(Verdict::Doubt),
        verdict => verdict,
    }
}

/// Whether the byte `b` after a string's quote closes it whatever comes next: a key's `:`, an
/// array item's `,` (`top` is the innermost container).
#[inline]
fn closes_at_once(key: bool, top: Option<Container>, b: u8) -> bool {
    match key {
        true => b == b':',
        false => b == b',' && top == Some(Container::Array),
    }
}

/// [`decide_close`], for a string with no quote read as text.
// Long: one resumable state machine; its phases hand each other the position, and a split
// would pass the phase back and forth instead.
fn decide_close_alone(bytes: &[u8], c: &mut Closing, key: bool, frame: Frame_) -> Option<Verdict> {
    if c.after_missing && !c.plain(bytes) {
        return Some(Verdict::Doubt);
    }
    let (top, depth) = frame;
    let end = bytes.len();
    loop {
        match c.phase {
            Phase::Quote | Phase::Comma | Phase::Closer => {
                let p = skip_space(bytes, c.at, end);
                c.newline |= bytes[c.at.min(p)..p]
                    .iter()
                    .any(|&b| matches!(b, b'\n' | b'\r'));
                if p >= end {
                    c.at = end;
                    return None;
                }
                // A full-width `：` after a key and `，` after a value separate as the
                // parser reads them (`Parser::closes_here`).
                let (b, width) = match lex::fullwidth_separator(&bytes[p..]) {
                    Some(sep) if matches!(c.phase, Phase::Quote) && key == (sep == b':') => {
                        (sep, lex::FULLWIDTH_LEN)
                    }
                    _ => (bytes[p], 1),
                };
                let verdict = match (c.phase, key, top, b) {
                    (Phase::Quote, ..) if closes_at_once(key, top, b) => {
                        return Some(Verdict::Closes)
                    }
                    // After the container's closer, its `,` (the closer not the root's): as
                    // sure as the next member's key.
                    (Phase::Closer, _, _, b',') => {
                        c.before_key = true;
                        return Some(Verdict::Closes);
                    }
                    (Phase::Comma, _, _, b'}') | (Phase::Closer, _, _, b'}' | b']') => {
                        return Some(Verdict::Closes)
                    }
                    // A quote right after the closing one: `''` and `""` may open a doubled
                    // or triple-quoted string, which the parser reads on its own.
                    (Phase::Quote, false, _, b'"' | b'\'') if p == c.q + 1 => {
                        return Some(Verdict::Doubt)
                    }
                    // `''it`: a quote doubled before a word opens a string the parser reads
                    // on its own (`Parser::open_string`), not an empty one.
                    (Phase::Quote, ..)
                        if c.q == c.content && p == c.q + 1 && starts_word(&bytes[p..]) =>
                    {
                        return Some(Verdict::Doubt)
                    }
                    // Where a comma is missing, or after the closer (below), the parser may
                    // have ended the string before the quote.
                    (Phase::Quote, false, Some(Container::Object), b)
                        if !matches!(b, b',' | b'/' | b'}') && !c.plain(bytes) =>
                    {
                        return Some(Verdict::Doubt)
                    }
                    (Phase::Quote, false, Some(Container::Array), b'"' | b'\'')
                    | (Phase::Closer, ..)
                        if !c.plain(bytes) =>
                    {
                        return Some(Verdict::Doubt)
                    }
                    // An array's next item, its comma missing: another string, or anything
                    // but a `#` on a later line (`Parser::closes_here`).
                    (Phase::Quote, false, Some(Container::Array), b'"' | b'\'') => {
                        return Some(Verdict::Closes)
                    }
                    (Phase::Quote, false, Some(Container::Array), b)
                        if c.newline && b != b'#' && c.plain(bytes) =>
                    {
                        // Unless a `:` starts that line: then the string is the key of an
                        // object whose `{` went missing (`Parser::looks_like_whole_key`).
                        return match colon_at(bytes, p) {
                            Some(false) => Some(Verdict::Closes),
                            Some(true) => Some(Verdict::Doubt),
                            None => {
                                c.at = p;
                                None
                            }
                        };
                    }
                    // After the container's closer, a later line, an opener or a comment
                    // (`Parser::closer_can_end_value`).
                    (Phase::Closer, _, _, b'{' | b'[' | b'/' | b'#') => {
                        return Some(Verdict::Closes)
                    }
                    (Phase::Closer, ..) if c.newline => return Some(Verdict::Closes),
                    // `"x",, "b": 2`: a doubled comma separates all the same.
                    (Phase::Quote, false, Some(Container::Object), b',')
                    | (Phase::Comma, _, _, b',') => Phase::Comma,
                    // After a value's `,`: a comment, a `#` or a `[` ends the value as the
                    // parser reads it (`Parser::next_member_follows`); what they are is read
                    // after it.
                    (Phase::Comma, _, _, b'/' | b'#' | b'[') => return Some(Verdict::Closes),
                    // A `#` comment after a value ends it by the parser's rule: a separator
                    // after its line, or a closer in it (`Parser::closes_here`); in an object
                    // also a line break before it.
                    (Phase::Quote, false, Some(top), b'#') if c.plain(bytes) => {
                        if c.newline && top == Container::Object {
                            return Some(Verdict::Closes);
                        }
                        return match comment_then_separator_in::<true>(bytes, p, end) {
                            Some(true) => Some(Verdict::Closes),
                            Some(false) => Some(Verdict::Doubt),
                            None => {
                                c.at = p;
                                None
                            }
                        };
                    }
                    // A comment right after the quote ends the string (`Parser::closes_here`).
                    (Phase::Quote, _, _, b'/') => match bytes.get(p + 1) {
                        None => {
                            c.at = p;
                            return None;
                        }
                        Some(b'/' | b'*') => return Some(Verdict::Closes),
                        Some(_) => return Some(Verdict::Doubt),
                    },
                    (Phase::Quote, false, Some(Container::Object), b'}')
                    | (Phase::Quote, false, Some(Container::Array), b']') => {
                        if depth == 1 {
                            return Some(Verdict::Closes);
                        }
                        Phase::Closer
                    }
                    (Phase::Comma, _, _, b'"') => {
                        c.key = p;
                        Phase::Key
                    }
                    (Phase::Comma, _, _, b) if b.is_ascii_alphanumeric() || b == b'_' => {
                        c.key = p;
                        Phase::BareKey
                    }
                    // The next member's key, quoted or bare, its comma missing
                    // (`Parser::closes_here`, and after the container's closer
                    // `Parser::closer_can_end_value`), or after the comma a key in single quotes
                    // (a Python-style dict): the parser's own key test, asked again while the
                    // bytes it reads arrive.
                    (Phase::Quote, false, Some(Container::Object), _)
                    | (Phase::Closer, ..)
                    | (Phase::Comma, _, _, b'\'') => {
                        return match key_so_far(bytes, p) {
                            Some(true) => {
                                c.before_key = matches!(c.phase, Phase::Comma);
                                Some(Verdict::Closes)
                            }
                            Some(false) if c.inner(bytes, key, top, b) => Some(Verdict::Inner),
                            Some(false) => Some(Verdict::Doubt),
                            None => {
                                c.at = p;
                                None
                            }
                        };
                    }
                    _ => return Some(Verdict::Doubt),
                };
                c.phase = verdict;
                c.at = p + width;
                c.newline = false;
                if matches!(verdict, Phase::BareKey) {
                    c.at = p;
                }
            }
            Phase::Key => {
                let limit = (c.key + KEY_LOOKAHEAD).min(end);
                match memchr::memchr3(b'"', b'\\', b'\n', &bytes[c.at.min(limit)..limit]) {
                    Some(k) => {
                        let i = c.at + k;
                        match bytes[i] {
                            b'"' => {
                                c.phase = Phase::AfterKey;
                                c.at = i + 1;
                            }
                            b'\\' if i + 2 <= end => c.at = i + 2,
                            b'\\' => {
                                c.at = i;
                                return None;
                            }
                            _ => return Some(Verdict::Doubt),
                        }
                    }
                    None if limit < c.key + KEY_LOOKAHEAD => {
                        c.at = end;
                        return None;
                    }
                    None => return Some(Verdict::Doubt),
                }
            }
            Phase::BareKey => {
                let limit = (c.key + KEY_LOOKAHEAD).min(end);
                // From the key's start: a `.` inside the word reads so only after a letter.
                c.at = c.key + lex::bare_key_len(&bytes[c.key..limit]);
                if c.at == end && limit == end && end < c.key + KEY_LOOKAHEAD {
                    return None;
                }
                if c.at >= limit {
                    return Some(Verdict::Doubt);
                }
                c.phase = Phase::AfterKey;
            }
            Phase::AfterKey => {
                let limit = (c.key + KEY_LOOKAHEAD).min(end);
                if c.at >= limit {
                    return if limit == end && end < c.key + KEY_LOOKAHEAD {
                        None
                    } else {
                        Some(Verdict::Doubt)
                    };
                }
                // Spaces within the line, as the parser's key check skips: then the `:`.
                let after = lex::skip_inline_spaces(bytes, c.at, limit);
                if after == end {
                    return None;
                }
                c.at = after;
                // `https://`: a URL, not a key (as the parser's key check has it).
                let rest = &bytes[c.at..];
                if rest.len() < 3 && b"://".starts_with(rest) {
                    return None;
                }
                let colon = (rest[0] == b':' && !rest.starts_with(b"://"))
                    || lex::fullwidth_separator(rest) == Some(b':');
                c.before_key = true;
                return Some(if colon {
                    Verdict::Closes
                } else {
                    Verdict::Doubt
                });
            }
        }
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
/// tag in any case, as the markup pass reads tags), also with a checkpoint's suffix
/// (`</think:6124c78e>`).
fn closing_tag(rest: &[u8], name: &[u8]) -> TokenAt {
    let len = name.len() + 2;
    let expected = |k: usize| match k {
        0 => b'<',
        1 => b'/',
        k => name[k - 2],
    };
    let have = rest.len().min(len);
    if !(0..have).all(|k| rest[k].eq_ignore_ascii_case(&expected(k))) {
        return TokenAt::No;
    }
    match rest.get(len) {
        _ if have < len => TokenAt::Cut,
        None => TokenAt::Cut,
        Some(b'>') => TokenAt::Whole(0, len + 1),
        // `</think:6124c78e>`, as Hunyuan writes it.
        Some(b':') => match tags::suffix_at(&rest[len + 1..]) {
            TokenAt::Whole(_, n) => TokenAt::Whole(0, len + 1 + n),
            other => other,
        },
        Some(_) => TokenAt::No,
    }
}

/// What [`Reader::check_string`] leaves its caller to log of a string at `span`.
#[derive(Clone, Copy, Debug)]
struct StringRepairs {
    span: Span,
    /// In quotes JSON does not have.
    quotes: bool,
    /// Holding raw control characters (a line break, a tab).
    controls: bool,
    /// Holding its own quote, read as text ([`Verdict::Inner`]).
    inner: bool,
}

/// How a bare value is written, as the parser logs it.
#[derive(Clone, PartialEq, Eq, Debug)]
enum Literal {
    /// A JSON literal or a plain number.
    Json,
    /// Another language's literal (`True`, `None`, `undefined`): the parser's repairs of it,
    /// which say how it was written. (Numbers JSON forbids, `+5`, `0x1F`, are doubted before:
    /// the words after one may make it text.)
    Other(Vec<(RepairKind, Span)>),
    /// Anything else the parser repairs (`NaN`, `1e400`, a bare word).
    Repaired,
}

/// The literal `word` (at `start`) as the lenient parser reads it, and how it is written:
/// JSON's own literals and plain numbers directly, anything else (`True`, `None`, `NaN`,
/// `.5`, a bare word) through the parser.
fn scalar(word: &str, start: usize) -> (Option<Node<'_>>, Literal) {
    let span = Span::new(start, start + word.len());
    let kind = match word {
        "true" => NodeKind::Bool(true),
        "false" => NodeKind::Bool(false),
        "null" => NodeKind::Null,
        _ if lex::is_json_number(word.as_bytes()) => {
            let integer = !word.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'));
            let number = if integer {
                // As the parser reads it: `-0` is the float `-0.0`, as in serde_json.
                match word.strip_prefix('-') {
                    Some(digits) => crate::parse::number::integer(digits, true),
                    None => crate::parse::number::integer(word, false),
                }
            } else {
                let Ok(n) = word.parse::<f64>() else {
                    return (None, Literal::Repaired);
                };
                match n {
                    // Past `f64`'s range (`1e400`): the parser reads it as `null`, as it does
                    // `Infinity` (unless serde_json keeps numbers as written).
                    n if !n.is_finite() && cfg!(not(feature = "arbitrary_precision")) => {
                        return (Some(Node::new(NodeKind::Null, span)), Literal::Repaired);
                    }
                    n => crate::node::Number::Float(n),
                }
            };
            NodeKind::Number(number)
        }
        _ => {
            let Ok(parsed) = crate::parse::parse(word, 1) else {
                return (None, Literal::Repaired);
            };
            if !parsed.node.complete {
                return (None, Literal::Repaired);
            }
            let written = |r: &Repair| {
                use RepairKind::*;
                matches!(
                    r.kind,
                    NonStandardLiteral | NonStandardNumber | DigitSeparator | NumberAsString
                ) && r.span.end <= word.len()
            };
            let literal = if !parsed.repairs.is_empty() && parsed.repairs.iter().all(written) {
                let at = |r: &Repair| (r.kind, Span::new(start + r.span.start, start + r.span.end));
                Literal::Other(parsed.repairs.iter().map(at).collect())
            } else {
                Literal::Repaired
            };
            let mut node = parsed.node;
            node.span = Span::new(start + node.span.start, start + node.span.end);
            return (Some(node), literal);
        }
    };
    (Some(Node::new(kind, span)), Literal::Json)
}

/// A string value's node.
fn string_node(text: Cow<'_, str>, quote: u8, span: Span) -> Node<'_> {
    let quoting = if quote == b'"' {
        Quoting::Double
    } else {
        Quoting::Other
    };
    Node::new(NodeKind::String(Str { text, quoting }), span)
}

/// Whether the parser's reading `read` of the value string at `start` ([`Reader::probe_string`])
/// stands for its reading of the whole text, and can follow what was `shown` of it: complete,
/// with no closer or backtick inside or right after what its rules read (the rule there weighs
/// the rest of the text, or a fence may cut the value off), no `+` after it (a concatenation),
/// and only repairs of its quotes and control characters.
fn probe_settled(
    bytes: &[u8],
    start: usize,
    read: &crate::parse::ValueString<'_>,
    shown: &str,
) -> bool {
    let read_to = skip_space(bytes, read.read_to, bytes.len());
    read.complete
        && !bytes[start..(read_to + 1).min(bytes.len())]
            .iter()
            .any(|b| matches!(b, b'}' | b']' | b'`'))
        && read.text.text.starts_with(shown)
        && bytes.get(skip_space(bytes, read.resume, bytes.len())) != Some(&b'+')
        && (read.repairs.iter()).all(|r| {
            use RepairKind::*;
            matches!(
                r.kind,
                MissingQuote | UnescapedQuote | ControlCharacter | NonStandardQuotes
            )
        })
}

/// Whether the parser's reading `read` of the value string at `start` is also its reading of
/// the text cut after its last closer, where only prose follows that closer: the locate stage
/// reads a value so (`locate::content_end`), and the string rules weigh how the text ends
/// (`{"n": "a", "t: 2}` and a line of prose after it).
fn probe_holds_before_prose(
    src: &str,
    start: usize,
    containers: &[(bool, usize)],
    read: &crate::parse::ValueString<'_>,
) -> bool {
    let end = crate::locate::content_end(src.as_bytes(), start, src.len());
    if end == src.len() || end <= read.read_to {
        return true;
    }
    let cut = crate::parse::value_string(&src[..end], start, containers);
    cut.complete && cut.resume == read.resume && cut.text.text == read.text.text
}

/// Where a value token `start..end` ends that starts with a number or literal followed, after
/// a space, by a word (`2115 reason: ..`, `[false 3983 true]`): the parser's token ends at
/// the space (`parse::token_ends_at`; it reads no digit groups across a space), and the word
/// is the next key or item, its comma missing. Else `end`.
fn literal_before_word(bytes: &[u8], start: usize, end: usize) -> usize {
    let token = &bytes[start..end];
    let Some(space) = token.iter().position(|&b| matches!(b, b' ' | b'\t')) else {
        return end;
    };
    let next = space + lex::skip_inline_spaces(&token[space..], 0, token.len() - space);
    let word_follows = token.get(next).is_some_and(u8::is_ascii_alphanumeric);
    match word_follows && is_literal(&token[..space]) {
        true => start + space,
        false => end,
    }
}

/// Whether the parser reads `word`, a value's bare text, as a string of just that text: no
/// literal or number starts it (`True story`, `NaN`), as it reads such words on their own.
fn bare_string_as_written(word: &str) -> bool {
    let Ok(parsed) = crate::parse::parse(word, 1) else {
        return false;
    };
    let one_repair = matches!(&parsed.repairs[..], [r] if r.kind == RepairKind::UnquotedString);
    one_repair
        && parsed.node.complete
        && matches!(&parsed.node.kind, NodeKind::String(s) if s.text == word && s.quoting == Quoting::Unquoted)
}

/// Whether a bare `word` reads as written: a key of word characters, or a literal.
fn bare_as_written(word: &str, key: bool) -> bool {
    if key {
        word.bytes().all(lex::is_key_byte)
    } else {
        is_literal(word.as_bytes())
    }
}

/// Whether `b` holds a closer: a comment that does may end at it (the parser decides with
/// the lines around it).
/// The offsets of the quotes `quote` in a string's text `body` that no backslash escapes.
fn raw_quotes(body: &[u8], quote: u8) -> impl Iterator<Item = usize> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while let Some(k) = memchr::memchr2(quote, b'\\', &body[i.min(body.len())..]) {
            let at = i + k;
            if body[at] == b'\\' {
                i = at + 2;
                continue;
            }
            i = at + 1;
            return Some(at);
        }
        None
    })
}

fn has_closer(b: &[u8]) -> bool {
    memchr::memchr2(b'}', b']', b).is_some()
}

/// Whether `word` is a literal both readers read alike: JSON's and Python's constants, or a
/// number as JSON writes it.
fn is_literal(word: &[u8]) -> bool {
    lex::is_constant(word) || lex::is_json_number(word)
}

/// Whether a group of three digits follows the comma after the number `bytes[start..end]`
/// (`1,234`), which the parser may read as a thousands separator in an object value: only
/// after one to three digits not starting with `0` (`Parser::thousands_end`). `None` while
/// the bytes that decide have not arrived.
fn thousands_follow(bytes: &[u8], start: usize, end: usize) -> Option<bool> {
    let word = &bytes[start..end];
    let digits = word.strip_prefix(b"-").unwrap_or(word);
    let grouped = (1..=3).contains(&digits.len())
        && digits[0] != b'0'
        && digits.iter().all(u8::is_ascii_digit)
        && bytes.get(end) == Some(&b',');
    if !grouped {
        return Some(false);
    }
    for k in 1..=3 {
        match bytes.get(end + k) {
            None => return None,
            Some(b) if !b.is_ascii_digit() => return Some(false),
            Some(_) => {}
        }
    }
    Some(true)
}
