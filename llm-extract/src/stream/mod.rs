//! Streaming: typed partial values while a reply arrives, in amortized linear time.
//!
//! A [`Stream<T>`] takes the reply chunk by chunk. Each [`Stream::push`] advances a resumable
//! reader from where it stopped (chunks may split anywhere: inside a UTF-8 character with
//! [`Stream::push_bytes`], an escape, a `<think>` tag, a fence) and grows the partial value,
//! `<T as Extract>::Partial`, in place. [`Stream::snapshot`] clones it: strings, lists and
//! maps are shared, so a snapshot costs the number of fields, not the size of the data.
//! [`Stream::finish`] runs the ordinary path once, so the final value, report and errors are
//! exactly what [`extract`](crate::extract) gives; a value written as strict JSON is built
//! from what the stream read instead of being read again ([`Extract::from_partial`]).
//!
//! What a snapshot shows:
//! - numbers, bools, nulls and enum values only once complete (an unfinished `12` never shows
//!   as `1`, `tru` never as anything);
//! - strings as they grow, lists item by item (the last item may be incomplete); an
//!   `Option` field or item reads a placeholder (`N/A`, `none`, a blank) as `None` whatever
//!   its type, as `finish` does (`""` stays `Some("")` for a string): while more text may
//!   still make its string one (`N`, `Not a`, spaces), it shows no value, and then the
//!   string as it grows (`Nora`) or `None` once the placeholder is complete; a string past
//!   64 bytes is shown as it grows (a blank that long is taken back at its end). A `null`
//!   item of a list of `Option`s keeps its place ([`PartialOption`]);
//! - values that open with `{` or `[`: a reply whose value is a lone string, number or word
//!   (prose read as a `String`, `42`, `"Paris"`) shows nothing until [`Stream::finish`],
//!   which reads it as [`extract`](crate::extract) does;
//! - validation rules run only on complete values; a complete value that fails is reported
//!   once in [`Stream::issues`] and still shown;
//! - reasoning goes to [`Stream::thoughts`], never into the value: the reasoning tags
//!   (`<think>...</think>` and the like), and, whatever the tags are, reasoning written with
//!   special tokens, read with the table and rules of [`extract`](crate::extract): gpt-oss
//!   Harmony's analysis channel (`<|channel|>analysis<|message|>` up to `<|end|>`, or up to the
//!   `<|start|>` or `<|channel|>` of the next header) and Cohere's `<|START_THINKING|>` ...
//!   `<|END_THINKING|>`, matched as written (case matters). A block whose closer never comes
//!   runs to the end of the reply; a closer without its opener is text; an opener between a
//!   value's tokens (not in a string or comment) cuts the value off there. Each thought is
//!   trimmed, as in [`Extracted::thoughts`], so for these blocks the thoughts are the
//!   whole-text read's however the chunks fall (only a last `<` that may still begin a closer
//!   waits for the next chunk).
//!
//! ```
//! use llm_extract::{Extract, Stream};
//!
//! #[derive(Extract, Debug)]
//! struct Answer { city: String, population: u64 }
//!
//! let mut stream = Stream::<Answer>::new();
//! stream.push("<think>Paris, surely</think>```json\n{\"city\": \"Par");
//! let seen = stream.snapshot();
//! assert_eq!(seen.city.as_deref(), Some("Par"));
//! assert_eq!(stream.thoughts(), ["Paris, surely"]);
//! stream.push("is\", \"population\": 21");
//! assert_eq!(stream.snapshot().population, None); // `21` may go on
//! stream.push("02000}\n```");
//! assert_eq!(stream.snapshot().population, Some(2102000));
//! let done = stream.finish().unwrap();
//! assert_eq!(done.value.city, "Paris");
//! ```
//!
//! # Held back on request
//!
//! `#[extract(stream = "done")]` on a field or a type shows it only
//! once complete (an address shown whole, never half). `#[extract(stream = "required")]` on a
//! field holds back the enclosing object until that field is complete: a discriminator such as
//! `"type"` must be known before anything else of the object is shown. The partial twin each
//! type streams into is described on
//! [`Extract`](macro@crate::Extract#the-partial-twin-streaming).
//!
//! # Chunks, settings and adapters
//!
//! Chunks may split anywhere: inside a UTF-8 character (`push_bytes` keeps the bytes until the
//! character is whole), an escape (`\u00e9` in two pieces), a `<think>` tag, a special token
//! (`<|chan`), a fence's backticks.
//! `Extractor::stream::<T>()` takes the settings (reasoning tags, depth limit, `max_payload`,
//! tie-break); `stream::Snapshots` adapts an iterator of chunks and `stream::AsyncSnapshots`
//! (feature `futures`) a `futures::Stream` of them, each yielding the snapshot after every
//! chunk that changed it. [`tool::StreamCalls`](crate::tool::StreamCalls) does the same for
//! tool calls.
//!
//! # Snapshots are a prefix of the answer
//!
//! A snapshot shows only what the reader has decided, and the reader decides only what the full
//! parser will read the same way: strings grow, but a quote, a comma or a line break inside a
//! string waits for the bytes that tell whether the string ended there; a string closes once what
//! follows its quote is what valid JSON writes there (the next member's key, in either quotes, and
//! `:`, the next item's `,`, a closer) or a comment; an object shows once its first key's `:`
//! arrives (`{'a', 'b'}` is a Python set, read as a list); an array's string item shows once it
//! closes (it may be the key of an object whose `{` went missing); a closer followed by a `,`
//! closes once the token after the comma shows it fits where the closer returns (the parser's own
//! rule, `[1], "b":` in an object, `{...}, {` in a list) and the layout does not say it is stray (a
//! closer ending a line of an indented container whose next line starts a member at that
//! container's indentation is held: the parser reads it as stray when the reply holds a closer to
//! spare, which only its end tells). A closer whose `,` is followed by another closer (`{"a":
//! [1],}`, a trailing comma after a nested container) closes as written, as the parser reads it
//! whatever follows (held until the reply ends only when laid out as stray, as above). A quote inside an object's value
//! string before a word that is no key is the string's text, as the parser reads it; the string
//! shows no more from that quote until it closes before the next member's key (or its object's
//! closer and a `,`). Where the reply is damaged in a way only the text around it can settle
//! (another unescaped quote, bare text the parser may read on past a comma or onto the next
//! line, a missing colon, a missing comma but before an object's key or between an array's
//! items, a closer that closes something else, a comment holding a closer, a code fence opened
//! inside a string), the snapshot stops growing there and `finish` reads the rest. Bare text
//! the parser ends at a `,`, a closer, a line break or the next member's key (`{status: done,
//! tags: [urgent, login]}`) shows once the bytes that decide it have arrived. A value string
//! whose quotes the stream cannot decide by itself (one that lost its closing quote before the
//! next member, `"note": "refund,` then `"tags": [..]`) is read by the parser's own string rules
//! once the reply holds a kilobyte past it, and shows from then on; one the parser ends at a
//! closer (`"login]`) is judged by the rest of the reply, and stops the snapshot there. So every key a snapshot shows is in the answer, no list is longer, a complete
//! scalar is equal and a string is a prefix of the answer's (one exception: a key written twice,
//! whose later value replaces the earlier, as in `serde_json`; `finish`'s report names each with a
//! `CoercionKind::DuplicateKey`. For a derived struct, a field whose keys are several (its name, a
//! spelling of it, an alias) shows the member `finish` takes: the best match, the later one on a
//! tie; a member that takes a field over shows it `Incomplete` until complete): a test streams the damage corpus, the peers' suites and randomly
//! damaged documents in chunks of 1, 7 and 64 bytes and checks every snapshot, and the stream fuzz
//! target checks the same. A reply may hold several values; `Stream::shown_at` says where the one
//! shown starts, so a switch to a later value (and a different choice by `finish`, whose
//! `report.span` says which) is visible. No later value is shown when the text after a value's
//! closer goes on with a `,` or another closer (`{"a": 1}}, "b": {"c": 2}}`): that closer may be
//! stray, which only the rest of the reply settles, so the snapshot stays on the value it closed
//! and `finish` says which it was. Objects joined by commas alone (`{..}, {..}`, records whose `[`
//! went missing) are values of their own, each shown in turn; for a list type, whose `finish` reads
//! them as the items of one list, the stream stays on the first, the start of that list. Nor is a
//! value inside a line of prose after one that was all a JSON fence held (`e.g. adding {"id": 3}`
//! after a fenced answer), or one in an HTML comment after a value: `finish` ranks the earlier one
//! first. A later value is shown while it is read; once the text after it shows it stands lower
//! than the value before it (mentioned inside a sentence, `If you wanted {..} instead, say so`, or
//! starting a line the sentence goes on after, where the value before was set out on lines of its
//! own or in a fence), which `finish` ranks below that one, the stream goes back to it (`shown_at`
//! says so). The
//! stream reads that sentence up to the next `{` or `[` (where it may meet the next value), so what
//! it shows never depends on the chunks; `finish` reads past it. A run of closers that closes the
//! value itself (the `}}` ending `{"args": {"q": "x"}}`) waits for the first byte after it that is
//! not a space. Followed by `, "limit": 5}`, one of its closers is stray and only the rest of the
//! reply says which (`limit` goes in `args` or beside it), so the containers it closes stay
//! incomplete and `finish` reads them; followed by anything else (prose, a fence's backticks) they
//! close. A reply that ends right at such a run shows the containers it closes incomplete in its
//! last snapshot, and `finish` completes them: a field is marked complete only once it is. A
//! reply that goes on from an object's `{` written before it (a prefilled turn, `"name": "Ada",
//! "age": 36}`) is that object only once the `}` it lacks an opener for arrives or the reply
//! ends inside it, which the rest of the reply settles: the stream shows nothing of it, and
//! `finish` reads it.
//!
//! # Cost
//!
//! Each push reads only the new bytes (and the few bytes of a token, tag or escape it had
//! to wait on), so each byte is examined a bounded number of times whatever the chunking; a
//! snapshot clones the partial, whose strings, lists and maps are shared, so it costs the
//! number of fields, not the size of the data; and a push appends past what older snapshots see
//! instead of copying the part they hold, so keeping every snapshot (`Snapshots::collect`) stays
//! linear in time and memory. `finish()` runs the ordinary path once, so the final value,
//! report and errors are exactly `extract`'s (a strict value built from the stream's partial,
//! any other read again). The numbers are in `docs/benchmarks.md`.
//!
//! # Bad input
//!
//! A reply that ends inside the value makes `finish` fail with
//! `Category::Incomplete`, saying where the value starts and where the reply ends; take
//! `snapshot()` before `finish` to keep what arrived. A stream past `max_payload` refuses the chunk
//! that crosses it (`try_push` returns the error, once), keeps what it had and ignores later
//! chunks; `finish` returns the error. No chunking of any input panics: a property test cuts
//! replies at every byte and a fuzz target (`fuzz/fuzz_targets/stream.rs`) chooses both the text
//! and the cuts.
//!
//! # Salvage: `extract_partial`
//!
//! ```rust
//! use llm_extract::{extract_partial, Extract};
//!
//! #[derive(Extract, Debug)]
//! struct Story { items: Vec<String>, story: String }
//!
//! // Cut off mid-string: the whole value fails, the partial keeps what arrived.
//! let saved = extract_partial::<Story>(r#"{"items": ["a", "b"], "story": "Once upon a ti"#).unwrap();
//! assert!(saved.value.is_none());
//! assert_eq!(saved.partial.story.as_deref(), Some("Once upon a ti"));
//! assert_eq!(saved.issues[0].category, llm_extract::Category::Incomplete);
//! ```
//!
//! `extract_partial::<T>(text)` reads the reply on the ordinary path; when that fails (cut off, or
//! the whole does not read as `T`) it reads it once with the streaming reader into `T::Partial`,
//! and returns that with the issues that stopped the whole value. Fields still missing are then
//! looked for by their key anywhere in the text (name, aliases, or the key spelled differently),
//! the last resort of hand-written repair chains done with the type's own names; each recovered
//! field is listed in `recovered` and reported in `issues`.

// The other module with `unsafe`: the string being read, reached without the walk from the
// root (a chunk inside a long string costs an append, not a descent).
#[allow(unsafe_code)]
mod hot;
mod partial;
mod reader;
mod salvage;
// The one module with `unsafe`: the append-only buffer behind growing strings, lists and maps
// (held snapshots would otherwise make every push copy the whole part).
#[allow(unsafe_code)]
mod shared;
pub(crate) mod twin;

pub use partial::{
    NoPartial, PartialJson, PartialList, PartialListIter, PartialMap, PartialOption, PartialSet,
    PartialString, PartialValue,
};
pub use salvage::{extract_partial, Salvaged};

use crate::coerce::{Context, Extract};
use crate::error::{Category, Error, Issue};
use crate::extracted::Extracted;
use crate::extractor::Extractor;
use crate::locate::{Lead, Standing};
use crate::node::NodeKind;
use crate::parse::RepairPaths;
use crate::path::{Path, Segment};
use crate::span::Span;
use hot::Hot;
use reader::{At, Doubts, Plainly, Reader, Sink};
use serde::Serialize;
use std::collections::HashSet;

/// A kind of container.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Container {
    /// `{...}`
    Object,
    /// `[...]`
    Array,
}

/// One step of where an event happens, below the value receiving it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step<'a> {
    /// The member with this key, as written.
    Key(&'a str),
    /// The item at this position of the array, as written.
    Index(usize),
}

impl Step<'_> {
    /// The step as a segment of a [`Path`].
    pub(crate) fn segment(&self) -> Segment {
        match self {
            Step::Key(k) => Segment::Key(k.to_string()),
            Step::Index(i) => Segment::Index(*i),
        }
    }
}

/// What the reader saw at a place in the value.
#[derive(Debug)]
#[non_exhaustive]
pub enum Event<'a> {
    /// An object or array begins.
    Open(Container),
    /// A string begins (an empty piece) or grows by this piece of decoded text.
    Grow(&'a str),
    /// A string or scalar is complete: `true`, `12`, `None`, `"abc"` (as the lenient parser
    /// reads it, so `True` is a bool and a bare word a string).
    Value(&'a crate::node::Node<'a>),
    /// The object or array that began here is complete.
    Close,
}

impl Event<'_> {
    /// Whether the value at the event's place is complete with it.
    pub fn completes(&self) -> bool {
        matches!(self, Event::Value(_) | Event::Close)
    }

    /// Whether it is a complete `null` (or `None`, `undefined`).
    pub fn is_null(&self) -> bool {
        matches!(self, Event::Value(n) if matches!(n.kind, NodeKind::Null))
    }
}

/// Where a field of a partial value stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FieldState {
    /// Not seen yet.
    #[default]
    Pending,
    /// Begun, not complete.
    Incomplete,
    /// Complete: equal to what `finish` gives (unless the reply writes the key again later,
    /// or a key for the same field that matches it as well or better: the later value wins,
    /// as in `serde_json`, and the field is incomplete again while it arrives). A container
    /// closed by the run of closers that ends the reply's value is complete once a byte after
    /// the run that is not a space arrives, or at `finish` (see [Snapshots are a prefix of
    /// the answer](crate::stream#snapshots-are-a-prefix-of-the-answer)).
    Complete,
}

/// The state of each field of a partial struct, by field position (kept beside the values
/// by the partial twins `#[derive(Extract)]` generates; ask the twin's `state(name)`).
///
/// Bits per field in words of `N`, for up to `64 * N` fields (two for the state, three for how
/// well the key of the member shown matched the field): no allocation, and a snapshot copies
/// it in whole words. The derive picks `N` from the struct's field count; a field past
/// `64 * N` reads as pending.
///
/// ```
/// use llm_extract::stream::{FieldState, FieldStates};
/// let mut states = FieldStates::<2>::default();
/// states.complete(100);
/// assert_eq!(states.get(100), FieldState::Complete);
/// assert_eq!(states.get(3), FieldState::Pending);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldStates<const N: usize = 1> {
    /// Fields seen, and complete, as bits: field `i` is bit `i % 64` of word `i / 64`.
    seen: [u64; N],
    done: [u64; N],
    /// The fields whose member shown was matched by a key other than the field's name, and
    /// how well, as `Rank - 1` in two bits ([`FieldStates::take_key`]).
    inexact: [u64; N],
    ranks: [[u64; N]; 2],
}

impl<const N: usize> Default for FieldStates<N> {
    fn default() -> Self {
        FieldStates {
            seen: [0; N],
            done: [0; N],
            inexact: [0; N],
            ranks: [[0; N]; 2],
        }
    }
}

impl<const N: usize> FieldStates<N> {
    /// The state of field `i`.
    pub fn get(&self, i: usize) -> FieldState {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        match (self.done.get(word), self.seen.get(word)) {
            (Some(done), _) if done & bit != 0 => FieldState::Complete,
            (_, Some(seen)) if seen & bit != 0 => FieldState::Incomplete,
            _ => FieldState::Pending,
        }
    }

    fn set(&mut self, i: usize, state: FieldState) {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let (Some(seen), Some(done)) = (self.seen.get_mut(word), self.done.get_mut(word)) else {
            return;
        };
        match state {
            FieldState::Complete => {
                *done |= bit;
                *seen |= bit;
            }
            FieldState::Incomplete => *seen |= bit,
            FieldState::Pending => {}
        }
    }

    /// Records that field `i` saw `event` at `at` below it.
    #[inline]
    pub fn note(&mut self, i: usize, at: &[Step<'_>], event: &Event<'_>) {
        if at.is_empty() && event.completes() {
            self.set(i, FieldState::Complete);
        } else if self.get(i) == FieldState::Pending {
            self.set(i, FieldState::Incomplete);
        } else if at.is_empty() && self.get(i) == FieldState::Complete {
            // A member that takes the field again (its key written twice) is shown as it
            // arrives: incomplete until it is.
            self.reopen(i);
        }
    }

    /// Field `i` incomplete again.
    fn reopen(&mut self, i: usize) {
        if let Some(done) = self.done.get_mut(i / 64) {
            *done &= !(1u64 << (i % 64));
        }
    }

    /// Marks field `i` complete (a value held back until complete arrived whole).
    pub fn complete(&mut self, i: usize) {
        self.set(i, FieldState::Complete);
    }

    /// Whether an event of a member whose key matched field `i` with `rank` (0 exact, higher
    /// is worse: see `coerce::keys::Rank`) goes to the field: as the full path chooses among
    /// several members for one field, a worse match than the member the field took is passed
    /// over, and a match as good or better takes the field (the later key wins on a tie).
    #[doc(hidden)]
    #[inline]
    pub fn take_key(&mut self, i: usize, rank: u8) -> bool {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let Some(&inexact) = self.inexact.get(word) else {
            return true;
        };
        if rank == 0 {
            // The field's name, which nothing beats: the usual case, one test.
            if inexact & bit != 0 {
                self.inexact[word] &= !bit;
            }
            return true;
        }
        self.take_inexact(word, bit, rank)
    }

    /// [`FieldStates::take_key`] for a key other than the field's name.
    fn take_inexact(&mut self, word: usize, bit: u64, rank: u8) -> bool {
        let shown = if self.inexact[word] & bit != 0 {
            let low = u8::from(self.ranks[0][word] & bit != 0);
            let high = u8::from(self.ranks[1][word] & bit != 0);
            Some(1 + low + 2 * high)
        } else if self.seen[word] & bit != 0 {
            Some(0)
        } else {
            None
        };
        if shown.is_some_and(|shown| rank > shown) {
            return false;
        }
        let code = rank.clamp(1, 4) - 1;
        self.inexact[word] |= bit;
        for (b, bits) in self.ranks.iter_mut().enumerate() {
            match (code >> b) & 1 {
                1 => bits[word] |= bit,
                _ => bits[word] &= !bit,
            }
        }
        true
    }
}

/// Issues found while streaming, each kept once.
#[derive(Debug, Default, Clone)]
pub(crate) struct Issues {
    list: Vec<Issue>,
    seen: HashSet<(Path, String)>,
    /// Streaming took something a strict read would not have as written: a coercion, a key
    /// matched by another name, a value the partial could not take (see [`Feed::lenient`]).
    lenient: bool,
}

impl Issues {
    fn push(&mut self, issue: Issue) {
        if self
            .seen
            .insert((issue.path.clone(), issue.message.clone()))
        {
            self.list.push(issue);
        }
    }
}

/// What a [`PartialValue`] is given with each event: reads complete values as Rust types
/// (recording their issues, once, at the event's path) and replays held-back values.
pub struct Feed<'f> {
    /// Where the event happens (borrowed, not copied: see [`At`]).
    place: &'f At<'f>,
    /// The path from the stream's root to the reader's root (set in replays).
    prefix: &'f [Step<'f>],
    /// The event's path from the reader's root.
    path: &'f [Step<'f>],
    issues: &'f mut Issues,
    max_depth: usize,
    /// The depth (from the stream's root) of the value a replay reads, which is not held back.
    unheld: Option<usize>,
    /// The walk of a `Grow` event, recording where the string is (`hot.rs`).
    trail: Option<&'f mut Hot>,
    /// How often the value at a path this long is being read as a list of itself (a
    /// recursive list type meeting a scalar), bounded as `Context::wrapping` bounds it.
    wraps: (usize, usize),
    /// The event is inside a `strict` field or type: values are read without coercion, and
    /// an `Option` keeps a placeholder's text (as `finish` reads them).
    strict: bool,
    /// Values are read without recording their issues: an `Option` tries whether its type
    /// takes `""` (`partial::apply_option`), as the typed read tries and rolls back.
    quiet: bool,
}

impl<'f> Feed<'f> {
    /// `T` read from the complete value of `event` (a [`Event::Value`] or [`Event::Close`])
    /// as [`Extract::from_node`] reads it; its issues (a failed rule, a wrong type) are
    /// recorded once. `None` when no value could be built.
    pub fn read<T: Extract>(&mut self, event: &Event<'_>) -> Option<T> {
        let parsed;
        let node = match event {
            Event::Value(node) => *node,
            Event::Close => {
                let span = self.place.closed?;
                parsed = crate::parse::parse_span(self.place.text, span, self.max_depth).ok()?;
                &parsed.node
            }
            _ => return None,
        };
        let mut cx = if self.strict {
            Context::with_mode_set(crate::coerce::Mode::Strict)
        } else {
            Context::new()
        };
        cx.set_max_depth(self.max_depth);
        let value = match event {
            // A scalar does not recurse.
            Event::Value(_) => T::from_node(node, &mut cx),
            _ => crate::deep::grow(|| T::from_node(node, &mut cx)),
        };
        let (coercions, issues) = cx.into_parts();
        if !coercions.is_empty() || !issues.is_empty() || value.is_err() {
            self.lenient();
        }
        if !issues.is_empty() && !self.quiet {
            let base = self.full_path(&[]);
            let positioned = Error::new(
                issues
                    .into_iter()
                    .map(|mut issue| {
                        let mut path = base.clone();
                        for s in issue.path.segments() {
                            path.push(s.clone());
                        }
                        issue.path = path;
                        issue
                    })
                    .collect(),
            )
            .with_positions(self.place.text);
            for issue in positioned.issues() {
                self.issues.push(issue.clone());
            }
        }
        value.ok()
    }

    /// Records that the event was taken as a strict read would not take it as written (a key
    /// matched by another name or not at all, a repeated key, one value read as a list, a
    /// placeholder read as `None`, a value the partial does not take): then
    /// [`Stream::finish`] reads the reply on the ordinary path, which records what it did,
    /// instead of building the value from the partial ([`Extract::from_partial`]).
    #[doc(hidden)]
    #[inline]
    pub fn lenient(&mut self) {
        self.issues.lenient = true;
    }

    /// Whether the value at `at` may be held back (`stream = "done"` / `"required"`): not
    /// when it is the value a replay reads.
    pub fn may_hold(&self, at: &[Step<'_>]) -> bool {
        self.unheld != Some(self.prefix.len() + self.path.len() - at.len())
    }

    /// The value at `at` read again from its start up to this event, into a fresh partial:
    /// how a value held back until complete, or until a required field arrived, is shown
    /// (each such value is read again once). `None` when it shows nothing.
    pub fn replay<P: PartialValue>(&mut self, at: &[Step<'_>]) -> Option<P> {
        self.replay_of(at, None)
    }

    /// The member `key` (matched as the twins match keys) of the object at `at`, read again
    /// from the object's start up to this event, into a fresh partial: how an adjacently
    /// tagged enum shows content written before its tag. `None` when it shows nothing (no
    /// such member yet).
    pub fn replay_member<P: PartialValue>(&mut self, at: &[Step<'_>], key: &str) -> Option<P> {
        self.replay_of(at, Some(key))
    }

    /// [`Feed::replay`], or of `member` alone.
    fn replay_of<P: PartialValue>(&mut self, at: &[Step<'_>], member: Option<&str>) -> Option<P> {
        let local = self.path.len().checked_sub(at.len())?;
        let start = match (at.is_empty(), self.place.closed) {
            (true, Some(span)) => span.start,
            _ => *self.place.opens.get(local)?,
        };
        if !crate::deep::stack_left() {
            return None;
        }
        let prefix: Vec<Step<'_>> = self
            .prefix
            .iter()
            .chain(&self.path[..local])
            .copied()
            .collect();
        let mut reader = Reader::replay(start, self.place.now, self.max_depth, self.place.doubts);
        let mut sink = Replay::<P> {
            slot: None,
            member,
            prefix: &prefix,
            issues: self.issues,
            max_depth: self.max_depth,
            strict: self.strict,
            quiet: self.quiet,
        };
        reader.advance(self.place.text, &mut sink);
        sink.slot
    }

    /// The event's path from the stream's root, minus the last `at.len()` steps.
    fn full_path(&self, at: &[Step<'_>]) -> Path {
        let mut path = Path::root();
        let upto = self.path.len().saturating_sub(at.len());
        for step in self.prefix.iter().chain(&self.path[..upto]) {
            path.push(step.segment());
        }
        path
    }

    /// For the derive's partial twins: a level that takes a step of the event's path is at
    /// `this` (the walk of a growing string checks that each level is where its parent
    /// said; see [`PartialValue::grow_leaf`]).
    #[doc(hidden)]
    #[inline]
    pub fn trail_enter<P>(&mut self, this: &P) {
        if let Some(trail) = self.trail.as_deref_mut() {
            trail.enter(std::ptr::from_ref(this) as usize);
        }
    }

    /// For the derive's partial twins: the level being left hands the event to `child`.
    #[doc(hidden)]
    #[inline]
    pub fn trail_expect<P>(&mut self, child: Option<&P>) {
        if let Some(trail) = self.trail.as_deref_mut() {
            trail.expect(child.map(|c| std::ptr::from_ref(c) as usize));
        }
    }

    /// For the derive's partial twins: after an event at `at` below `member` (of the level
    /// that calls it), records `member` as the growing string if the event was there.
    #[doc(hidden)]
    #[inline]
    pub fn trail_leaf<P: PartialValue>(&mut self, at: &[Step<'_>], member: Option<&mut P>) {
        if !at.is_empty() {
            return;
        }
        if let (Some(trail), Some(member)) = (self.trail.as_deref_mut(), member) {
            if let Some(leaf) = P::grow_leaf(member) {
                trail.leaf(std::ptr::from_mut(leaf) as usize);
            }
        }
    }

    /// A level that takes no step but holds the next one (a `PartialJson` around its map or
    /// list) is at `this` and hands the walk down to the address `inner` gives.
    pub(crate) fn trail_pass<P>(&mut self, this: &P, inner: impl FnOnce(&P) -> Option<usize>) {
        if let Some(trail) = self.trail.as_deref_mut() {
            trail.enter(std::ptr::from_ref(this) as usize);
            trail.expect(inner(this));
        }
    }

    /// Runs `read` with the value at `at` read as a list of itself, unless it already is
    /// as often as the full path allows (`Context::wrapping`): `None` then.
    pub(crate) fn wrapping<R>(
        &mut self,
        at: &[Step<'_>],
        read: impl FnOnce(&mut Self) -> R,
    ) -> Option<R> {
        let saved = self.wraps;
        let times = if saved.0 == at.len() { saved.1 } else { 0 };
        if times >= crate::coerce::MAX_WRAPS_PER_NODE {
            return None;
        }
        self.wraps = (at.len(), times + 1);
        let out = read(self);
        self.wraps = saved;
        Some(out)
    }

    /// For the derive's partial twins: the events below a `strict` field or inside a `strict`
    /// type are read as `finish` reads them there (no coercion; an `Option` keeps a
    /// placeholder's text). Returns the previous setting, which the caller restores.
    #[doc(hidden)]
    pub fn set_strict(&mut self, strict: bool) -> bool {
        std::mem::replace(&mut self.strict, strict)
    }

    /// Runs `f` with this feed recording no issues of the values it reads.
    pub(crate) fn quietly<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let was = std::mem::replace(&mut self.quiet, true);
        let out = f(self);
        self.quiet = was;
        out
    }

    /// Whether the event is inside a `strict` field or type ([`Feed::set_strict`]).
    pub(crate) fn strict(&self) -> bool {
        self.strict
    }

    /// The walk took back the string it recorded as growing (an `Option` holds it back:
    /// `partial::apply_option`): it is not where the walk found it.
    pub(crate) fn trail_lose(&mut self) {
        if let Some(trail) = self.trail.as_deref_mut() {
            trail.lose();
        }
    }

    /// For the derive's partial twins: whether this event's walk records where a growing
    /// string is (then a level calls `twin::trail_apply` instead of its member's `apply`, and a
    /// list makes its items its own first and says so with `Feed::trail_guard`).
    #[doc(hidden)]
    #[inline]
    pub fn tracing(&self) -> bool {
        self.trail.is_some()
    }

    /// The walk goes into `arc`'s value, which it just made the stream's alone.
    #[inline]
    pub(crate) fn trail_guard<A>(&mut self, arc: &std::sync::Arc<A>) {
        if let Some(trail) = self.trail.as_deref_mut() {
            trail.guard(arc);
        }
    }

    /// Records an issue at the value at `at` (path from the stream's root).
    pub fn issue(&mut self, at: &[Step<'_>], category: Category, message: impl Into<String>) {
        let issue = Issue::new(category, self.full_path(at), message);
        self.issues.push(issue);
    }
}

/// The sink of a replay: applies the replayed events to one fresh partial.
struct Replay<'r, P> {
    slot: Option<P>,
    /// The member whose value is read (the events of the rest are passed over), or the
    /// whole value.
    member: Option<&'r str>,
    prefix: &'r [Step<'r>],
    issues: &'r mut Issues,
    max_depth: usize,
    strict: bool,
    quiet: bool,
}

impl<P: PartialValue> Sink for Replay<'_, P> {
    fn event(&mut self, at: &[Step<'_>], event: &Event<'_>, place: &At<'_>) {
        let Some(member) = self.member else {
            return self.apply(self.prefix, at, event, place);
        };
        if let Some((&Step::Key(key), rest)) = at.split_first() {
            if twin::same_key(member, key) {
                let prefix: Vec<Step<'_>> = (self.prefix.iter().copied())
                    .chain([Step::Key(key)])
                    .collect();
                self.apply(&prefix, rest, event, place);
            }
        }
    }
}

impl<P: PartialValue> Replay<'_, P> {
    /// `event` at `at` below `prefix`, applied to the value read.
    fn apply(&mut self, prefix: &[Step<'_>], at: &[Step<'_>], event: &Event<'_>, place: &At<'_>) {
        let mut feed = Feed {
            place,
            prefix,
            path: at,
            issues: self.issues,
            max_depth: self.max_depth,
            unheld: Some(prefix.len()),
            trail: None,
            wraps: (0, 0),
            strict: self.strict,
            quiet: self.quiet,
        };
        P::apply(&mut self.slot, at, event, &mut feed);
    }
}

/// A typed value read while the reply arrives; see the [module documentation](self).
///
/// ```
/// use llm_extract::Stream;
/// let mut stream = Stream::<Vec<String>>::new();
/// for chunk in ["[\"al", "pha\", \"be", "ta\"]"] {
///     stream.push(chunk);
///     println!("{:?}", stream.snapshot());
/// }
/// assert_eq!(stream.finish().unwrap().value, ["alpha", "beta"]);
/// ```
pub struct Stream<T: Extract> {
    extractor: Extractor,
    text: String,
    /// The bytes of a UTF-8 character cut off by the end of the last chunk.
    cut: Vec<u8>,
    reader: Reader,
    values: Values<T>,
    thoughts: Thoughts,
    too_large: Option<Issue>,
    /// The string the last event grew, while the reader is still inside it (`hot.rs`).
    hot: Hot,
}

/// The reasoning blocks so far, each trimmed as [`Extracted::thoughts`] has it: spaces at the
/// start of a block are dropped, and spaces at the end of the text so far are held until
/// more of the block's text follows them.
#[derive(Debug, Default)]
struct Thoughts {
    list: Vec<String>,
    held: String,
}

impl Thoughts {
    fn add(&mut self, more: &str, new: bool) {
        if new {
            self.list.push(String::new());
            self.held.clear();
        }
        let Some(last) = self.list.last_mut() else {
            return;
        };
        let more = if last.is_empty() {
            more.trim_start()
        } else {
            more
        };
        let body = more.trim_end();
        if !body.is_empty() {
            last.push_str(&self.held);
            self.held.clear();
            last.push_str(body);
        }
        self.held.push_str(&more[body.len()..]);
    }
}

/// The values of the reply as the stream reads them: the one being read, and an earlier one
/// that reads as `T`. A later value replaces an earlier one as [`TieBreak`](crate::TieBreak)
/// says (by default the later wins a tie, as in [`extract`](crate::extract)); one that does
/// not read as `T` never replaces one that does.
struct Values<T: Extract> {
    partial: Option<T::Partial>,
    issues: Issues,
    /// The span of the value being read, once it is whole (whether it reads as `T` is checked
    /// only when another value starts or at the end: most replies hold one value).
    closed: Option<Span>,
    /// An earlier whole value that reads as `T`, with its issues.
    kept: Option<(Option<T::Partial>, Issues)>,
    /// Where the value being read starts, and where the one kept does.
    at: Option<usize>,
    kept_at: Option<usize>,
    /// Whether the value kept is related to the type (`select::unrelated`): one that is is
    /// not replaced by a later one that is not.
    kept_related: bool,
    /// Later values are not read (`TieBreak::First` and a value was kept).
    settled: bool,
    /// The value being read comes after a value kept: how it stands in the reply
    /// (`locate::Standing`: a mention inside a sentence, a value on lines of its own or
    /// neither) may decide between them, which the text after it tells. It is shown as any
    /// later value is, and dropped for the kept one once the text after it says it stands
    /// lower (see [`standing`]).
    provisional: bool,
    /// Where the value kept ends, for its standing.
    kept_end: usize,
    /// Whether the value `closed` spans reads as `T` (`fits`), once asked.
    closed_fit: Option<Option<bool>>,
    /// What the words before the value being read, and before the one kept, say of it
    /// (`locate::Lead`): one the reply sets aside or shows as an example is not shown in place
    /// of a related one it does not, and does not replace it.
    lead: Lead,
    kept_lead: Lead,
    first_wins: bool,
    max_depth: usize,
}

impl<T: Extract> Values<T> {
    /// Whether the value being read is shown: there is one, and no related value kept is
    /// introduced higher (such a value wins over it whether it reads as `T` or not).
    fn reading_shown(&self) -> bool {
        self.partial.is_some()
            && (self.kept.is_none() || !self.kept_related || self.lead >= self.kept_lead)
    }

    /// What the stream shows: the value being read, else the one kept.
    fn shown(&self) -> Option<&T::Partial> {
        match (&self.partial, &self.kept) {
            (Some(p), _) if self.reading_shown() => Some(p),
            (_, Some((p, _))) => p.as_ref(),
            _ => None,
        }
    }

    /// Where the value shown starts in the reply.
    fn shown_at(&self) -> Option<usize> {
        match &self.kept {
            _ if self.reading_shown() => self.at,
            Some(_) => self.kept_at,
            None => None,
        }
    }

    fn shown_issues(&self) -> &Issues {
        match &self.kept {
            Some((_, issues)) if !self.reading_shown() => issues,
            _ => &self.issues,
        }
    }

    /// Settles the value just read: kept if it reads as `T`, else dropped for the one kept.
    /// A provisional one that would replace an equally related value kept waits for the text
    /// after it to say how it stands ([`standing`]), and does not if it stands lower (unless
    /// `last`: no more of that text comes before the next value).
    fn settle(&mut self, text: &str, last: bool) {
        let Some(span) = self.closed else {
            // Cut off (a fence closed inside it): the one kept stays.
            self.provisional = false;
            if self.kept.is_some() {
                self.partial = None;
            }
            return;
        };
        let (max_depth, kept_related) = (self.max_depth, self.kept_related);
        let fit = *self
            .closed_fit
            .get_or_insert_with(|| fits::<T>(text, span, max_depth));
        // Replaces the one kept if it is related to the type and that one is not, or if both
        // are or both are not and it is introduced higher, or as high and the later wins ties.
        let (lead, kept_lead) = (self.lead, self.kept_lead);
        let replaces = fit.is_some_and(|related| {
            self.kept.is_none()
                || (related && !kept_related)
                || (related == kept_related && lead > kept_lead)
                || (related == kept_related && lead == kept_lead && !self.first_wins)
        });
        let tied = self.provisional
            && self.kept.is_some()
            && fit == Some(kept_related)
            && lead == kept_lead;
        // Of two values introduced alike, the one that stands higher wins, as in `extract`;
        // of two that stand alike, an empty object or array loses to one that is not.
        let lower = match tied && replaces {
            true => match standing(text, span, last) {
                None => return,
                Some(it) => {
                    let kept = Span::new(self.kept_at.unwrap_or(0), self.kept_end);
                    let kept_standing = standing(text, kept, true).unwrap_or(Standing::Plain);
                    it < kept_standing
                        || (it == kept_standing
                            && crate::locate::empty_container(text, span)
                            && !crate::locate::empty_container(text, kept))
                }
            },
            false => false,
        };
        self.provisional = false;
        self.closed = None;
        self.closed_fit = None;
        if let (Some(related), true, false) = (fit, replaces, lower) {
            let issues = std::mem::take(&mut self.issues);
            self.kept = Some((self.partial.take(), issues));
            self.kept_at = self.at;
            self.kept_end = span.end;
            self.kept_related = related;
            self.kept_lead = lead;
            // Under `TieBreak::First` a later value can still win if this one is unrelated
            // to the type, or introduced below another.
            self.settled = self.first_wins && related && lead == Lead::Plain;
            return;
        }
        if self.kept.is_some() {
            self.partial = None;
            self.issues = Issues::default();
        }
    }
}

/// How the value at `span` stands in the reply, as `locate` ranks it for `extract` (a value a
/// JSON fence held is on lines of its own): a mention inside a sentence, on lines of its own,
/// or neither. `None` while the text so far cannot tell, unless `last` (no more of the text
/// after it comes before the next value).
fn standing(text: &str, span: Span, last: bool) -> Option<Standing> {
    // When nothing more of the text comes before the next value, it is read as it stands.
    crate::locate::prose_standing(text, span, false).or_else(|| {
        last.then(|| crate::locate::prose_standing(text, span, true))
            .flatten()
    })
}

impl<T: Extract> std::fmt::Debug for Stream<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stream")
            .field("text", &self.text.len())
            .field("partial", &self.values.shown())
            .field("issues", &self.issues())
            .finish_non_exhaustive()
    }
}

impl<T: Extract> Default for Stream<T> {
    fn default() -> Self {
        Stream::new()
    }
}

impl<T: Extract> Stream<T> {
    /// A stream with the default settings.
    pub fn new() -> Stream<T> {
        Stream::with(Extractor::new())
    }

    pub(crate) fn with(extractor: Extractor) -> Stream<T> {
        Stream::with_doubts(extractor, Doubts::Hold)
    }

    /// A stream whose reader does `doubts` at doubtful text.
    pub(crate) fn with_doubts(extractor: Extractor, doubts: Doubts) -> Stream<T> {
        let mut reader = Reader::new(
            &extractor.settings.reasoning_tags,
            extractor.settings.max_depth,
            doubts,
        );
        // Only a type that takes them from the stream has the keys written twice noted (a
        // look at every key).
        if T::REPEATED_KEYS_FROM_PARTIAL {
            reader.note_repeated_keys();
        }
        let (first_wins, max_depth) = (
            extractor.settings.tie_break == crate::settings::TieBreak::First,
            extractor.settings.max_depth,
        );
        Stream {
            extractor,
            text: String::new(),
            cut: Vec::new(),
            values: Values {
                partial: None,
                issues: Issues::default(),
                closed: None,
                kept: None,
                at: None,
                kept_at: None,
                kept_related: false,
                settled: false,
                provisional: false,
                kept_end: 0,
                lead: Lead::Plain,
                kept_lead: Lead::Plain,
                closed_fit: None,
                first_wins,
                max_depth,
            },
            reader,
            thoughts: Thoughts::default(),
            too_large: None,
            hot: Hot::default(),
        }
    }

    /// Adds a chunk and reads it; returns whether the snapshot changed.
    ///
    /// Past `Extractor::max_payload` the stream stops growing: the first chunk over it is
    /// refused with the error (see [`Stream::try_push`]), later ones are ignored, and
    /// [`Stream::finish`] returns that error.
    pub fn push(&mut self, chunk: &str) -> bool {
        self.try_push(chunk).unwrap_or(false)
    }

    /// [`Stream::push`] for bytes: a UTF-8 character split between chunks is kept until it
    /// is whole; invalid bytes become U+FFFD.
    pub fn push_bytes(&mut self, chunk: &[u8]) -> bool {
        let text = crate::stream::whole_chars(&mut self.cut, chunk);
        self.push(&text)
    }

    /// [`Stream::push`], saying so when the chunk would take the reply past
    /// `Extractor::max_payload`: that chunk gets the error, once; the stream keeps what it
    /// had and ignores later chunks.
    pub fn try_push(&mut self, chunk: &str) -> Result<bool, Error> {
        if self.too_large.is_some() {
            return Ok(false);
        }
        if let Some(max) = self.extractor.settings.max_payload {
            let len = self.text.len() + chunk.len();
            if len > max {
                let issue = Issue::new(
                    Category::TooLarge,
                    Path::root(),
                    format!("the streamed reply grew past max_payload ({max} bytes): {len} bytes"),
                )
                .at(Span::at(self.text.len()));
                self.too_large = Some(issue.clone());
                return Err(Error::new(vec![issue]).with_positions(&self.text));
            }
        }
        match self.grow_hot(chunk) {
            Grew::All(changed) => return Ok(changed),
            Grew::No => self.text.push_str(chunk),
            Grew::Pushed => {}
        }
        let mut changed = self.read_on(false);
        if self.values.provisional && self.values.closed.is_some() {
            // The text after a value that may be a mention: settled once it tells.
            let before = self.values.shown_at();
            self.values.settle(&self.text, false);
            changed |= self.values.shown_at() != before;
        }
        if self.values.settled {
            self.reader.stop_values();
        }
        Ok(changed)
    }

    /// Appends `chunk` to the string the reader is inside, without the ordinary path, when
    /// that is all it does, the reader sent all of the string so far, and the stream knows
    /// where that went (see `hot.rs`). A chunk of plain text, all of it decided, is appended
    /// as it is; any other is scanned by the reader first (escapes decoded, text the string
    /// may not keep held back); one with a quote that may close the string goes on to the
    /// ordinary path after its text was added.
    fn grow_hot(&mut self, chunk: &str) -> Grew {
        if !self.hot.found() || chunk.is_empty() {
            return Grew::No;
        }
        let Some((quote, start)) = self.reader.growing_string(&self.text) else {
            return Grew::No;
        };
        if !self.hot.is(start) {
            return Grew::No;
        }
        let plainly = self.reader.grows_plainly(chunk.as_bytes(), quote);
        if plainly == Plainly::All {
            let hot = hot_string(&self.hot, &mut self.values.partial);
            if !hot.is_some_and(|s| s.grow(chunk)) {
                return Grew::No;
            }
            self.text.push_str(chunk);
            self.reader.grow_string(&self.text);
            return Grew::All(true);
        }
        if plainly == Plainly::Caught {
            return self.grow_caught(chunk);
        }
        self.text.push_str(chunk);
        let piece = match plainly {
            Plainly::Settled | Plainly::Escaped | Plainly::Trimmed => {
                self.reader.settle_on(&self.text, plainly)
            }
            _ => match self.reader.scan_on(&self.text) {
                Some(piece) => piece,
                None => return Grew::Pushed,
            },
        };
        let changed = !piece.is_empty();
        if changed {
            let hot = hot_string(&self.hot, &mut self.values.partial);
            if !hot.is_some_and(|s| s.grow(piece)) {
                return Grew::Pushed;
            }
        }
        self.reader.mark_sent();
        Grew::All(changed)
    }

    /// [`Stream::grow_hot`] of a chunk that decides the spaces the string ended with before it
    /// ([`Plainly::Caught`]): those, then the chunk, are appended.
    #[inline(never)]
    fn grow_caught(&mut self, chunk: &str) -> Grew {
        let unsent = self.reader.unsent(&self.text);
        let hot = hot_string(&self.hot, &mut self.values.partial);
        if !hot.is_some_and(|s| s.grow(unsent) && s.grow(chunk)) {
            return Grew::No;
        }
        self.text.push_str(chunk);
        self.reader.grow_string(&self.text);
        Grew::All(true)
    }

    /// The value so far (cheap: growing parts are shared; see the module documentation).
    pub fn snapshot(&self) -> T::Partial {
        // Cloned straight into the result (through an `Option` it was moved twice more).
        match self.values.shown() {
            Some(partial) => partial.clone(),
            None => T::Partial::default(),
        }
    }

    /// Where in the reply the value [`Stream::snapshot`] shows starts (`None` before anything
    /// can be shown). A reply may hold several values: when a later one replaces the one
    /// shown (a value that reads as `T` after an example that does not, or the later of two
    /// under [`TieBreak::Last`](crate::TieBreak)), the snapshot starts over and this moves to
    /// it; and `finish` may still take another (`Extracted::report`'s `span` says which, for
    /// instance the whole reply when it is one quoted string). Each snapshot is a prefix of
    /// the value at this place as `finish` reads it.
    ///
    /// ```
    /// let mut stream = llm_extract::Stream::<serde_json::Value>::new();
    /// stream.push("Example: {\"a\": 1}\nAnswer: {\"a\": 2}");
    /// assert_eq!(stream.shown_at(), Some(26));
    /// assert_eq!(stream.finish().unwrap().report.span.start, 26);
    /// ```
    pub fn shown_at(&self) -> Option<usize> {
        self.values.shown_at()
    }

    /// The value so far, by reference (`None` before anything can be shown).
    pub fn partial(&self) -> Option<&T::Partial> {
        self.values.shown()
    }

    /// Issues found in complete parts of the value so far (a failed validation rule, a value
    /// of the wrong type), each once, with its path and position.
    pub fn issues(&self) -> &[Issue] {
        &self.values.shown_issues().list
    }

    /// The reasoning blocks so far (the last one may still be growing), each trimmed as
    /// [`Extracted::thoughts`] has it: spaces at the end of the text so far show once more of
    /// the block follows them.
    pub fn thoughts(&self) -> &[String] {
        &self.thoughts.list
    }

    /// The reply so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether a whole value was read. [`Stream::finish`] decides what the reply holds: a
    /// later value may replace it, and members after the value's closer (`{"a": 1}, "b": 2}`)
    /// are read into it when the rest of the reply shows that closer stray; no snapshot shows
    /// them. A value that ends in a run of closers (`}}`, `]}`) is whole once a byte after the
    /// run that is not a space has arrived, since a field it closes would be marked complete:
    /// `, "key": ...` there would make one of its closers stray.
    ///
    /// ```
    /// use llm_extract::Stream;
    /// let mut stream = Stream::<serde_json::Value>::new();
    /// stream.push(r#"{"a": 1}"#);
    /// assert!(stream.is_complete());
    /// let mut stream = Stream::<serde_json::Value>::new();
    /// stream.push(r#"{"a": {"b": 1}}"#);
    /// assert!(!stream.is_complete()); // `, "c": 2}` may follow
    /// stream.push("\nDone.");
    /// assert!(stream.is_complete());
    /// ```
    pub fn is_complete(&self) -> bool {
        self.values.closed.is_some() || self.values.kept.is_some()
    }

    /// The outcome of the whole reply: [`Extractor::extract`], where a value cut off by the
    /// end of the reply is an error saying so and where.
    fn outcome(&mut self) -> Result<Extracted<T>, Error> {
        if let Some(issue) = &self.too_large {
            return Err(Error::new(vec![issue.clone()]).with_positions(&self.text));
        }
        let given = self.given();
        let done = (self.extractor).extract_given(&self.text, RepairPaths::Record, given)?;
        if done.report.complete {
            return Ok(done);
        }
        let start = done.report.span.start;
        // Not returned: dropped on a stack with room for its depth (`max_depth` may allow any).
        let max_depth = self.extractor.settings.max_depth;
        crate::deep::discard(done, crate::deep::text_depth(&self.text, max_depth));
        let end = crate::span::Position::of(&self.text, self.text.len());
        let issue = Issue::new(
            Category::Incomplete,
            Path::root(),
            format!(
                "the reply was cut off (truncated) inside the value that starts here; the reply ends at line {} column {}",
                end.line, end.column
            ),
        )
        .at(Span::new(start, self.text.len()));
        Err(Error::new(vec![issue]).with_positions(&self.text))
    }

    /// The value the stream read, when it can stand for `extract`'s reading of its container
    /// ([`Extractor::extract_given`]): the value read last, whole, written as strict JSON or
    /// with repairs of how it is written that the reader logs as the parser does
    /// (`Reader::take_repairs_in`), every event of it sent
    /// and taken as a strict read takes it (no coercion, no key matched by another name, no
    /// issue: see [`Feed::lenient`]), into a type that builds its value from its partial
    /// ([`Extract::from_partial`]).
    fn given(&mut self) -> Option<crate::coerce::GivenValue<T>> {
        let values = &self.values;
        let span = values.closed?;
        if values.at != Some(span.start)
            || values.issues.lenient
            || !values.issues.list.is_empty()
            || !self.reader.sent_everything()
            || !self.reader.strict_from(span.start)
        {
            return None;
        }
        // A value whose root closer the parser may read past, into a member after it (read
        // from the whole reply): the general path says where the value ends.
        let object = self.text.as_bytes().get(span.start) == Some(&b'{');
        if span.end > span.start && crate::parse::root_may_read_on(&self.text, span.end - 1, object)
        {
            return None;
        }
        // A key written twice: the value keeps the later member in the first one's place, and
        // the report says where, which only a type whose read records just that can take.
        let repeated = self.reader.take_repeated_in(span);
        if !repeated.is_empty() && !T::REPEATED_KEYS_FROM_PARTIAL {
            return None;
        }
        let partial = values.partial.as_ref()?;
        let value = match repeated.is_empty() {
            true => T::from_partial(partial)?,
            false => T::from_partial_repeated(partial)?,
        };
        let kind = crate::CoercionKind::DuplicateKey;
        let coercions = (repeated.into_iter())
            .map(|(path, span)| crate::Coercion {
                cost: kind.cost(),
                kind: kind.clone(),
                path,
                span,
            })
            .collect();
        let repairs = self.reader.take_repairs_in(span);
        Some((span, value, crate::coerce::Made { repairs, coercions }))
    }

    /// The value of the reply: the same value, report and errors as
    /// [`Extractor::extract`], except that a value cut off by the end of the reply is an
    /// error (`Category::Incomplete`, saying where the value starts and where the reply
    /// ends): take a [`Stream::snapshot`] first to keep what arrived, or call
    /// [`extract_partial`] on [`Stream::text`].
    ///
    /// A value written as strict JSON, which the stream took as a strict read takes it (no
    /// coercion, every key written as its field's name, once), is not read again: `finish`
    /// builds it from what the stream read ([`Extract::from_partial`]); `extract`'s reading of
    /// the rest of the reply (where the value is, its report) is run as usual. Nor is a value
    /// whose only repairs are of how it is written, ones the stream logs as the parser does
    /// (strings in single quotes, raw line breaks and tabs in strings, `True`/`None`/
    /// `undefined`, `//`, `#` and `/* */` comments, trailing commas, bare keys, spaces JSON lacks,
    /// full-width `：` and `，`, a comma missing before an object's key, quoted or bare, or
    /// between an array's items, a quote inside an object's value string that the parser
    /// reads as its text, `"the app "freezes" on startup"`, a value written as bare text,
    /// `{status: done}`, a value string that lost its closing quote before the next member,
    /// read where the parser's string rules end it): the report
    /// holds those repairs as `extract` gives them. Nor, for a `serde_json::Value`, is a reply
    /// with a key written twice in an object: the stream notes each, and the value keeps the
    /// later member in the first one's place, the report its `DuplicateKey` coercions. Any
    /// other reply is read again whole, as `extract` reads it.
    ///
    /// ```
    /// #[derive(llm_extract::Extract, Debug, PartialEq)]
    /// struct Order {
    ///     id: u64,
    ///     items: Vec<String>,
    /// }
    /// let mut stream = llm_extract::Stream::<Order>::new();
    /// for chunk in ["```json\n{\"id\": 7, \"ite", "ms\": [\"tea\"]}\n", "```"] {
    ///     stream.push(chunk);
    /// }
    /// let done = stream.finish().unwrap();
    /// assert_eq!(done.value, Order { id: 7, items: vec!["tea".into()] });
    /// assert_eq!(done.report.repairs.len(), 1); // the fence, as `extract` reports it
    /// ```
    pub fn finish(mut self) -> Result<Extracted<T>, Error> {
        if self.too_large.is_none() {
            // The reply is all there: a closer that waited for the text after it is decided.
            self.read_on(true);
        }
        self.outcome()
    }

    /// The reader reads the text added since it last did (to the end of the reply when
    /// `ended`) into the stream's values; whether what the stream shows changed.
    fn read_on(&mut self, ended: bool) -> bool {
        let mut sink = Root::<T> {
            values: &mut self.values,
            thoughts: &mut self.thoughts,
            hot: &mut self.hot,
            changed: false,
        };
        match ended {
            false => self.reader.advance(&self.text, &mut sink),
            true => self.reader.end(&self.text, &mut sink),
        }
        sink.changed
    }
}

/// The text of `chunk` after the bytes `cut` kept from the last one: whole characters only
/// (the bytes of one cut off at the end are kept in `cut` for the next chunk); invalid bytes
/// become U+FFFD.
pub(crate) fn whole_chars<'c>(cut: &mut Vec<u8>, chunk: &'c [u8]) -> std::borrow::Cow<'c, str> {
    // The usual case, whole characters and nothing kept: the chunk itself, no copy.
    if cut.is_empty() {
        if let Ok(text) = std::str::from_utf8(chunk) {
            return std::borrow::Cow::Borrowed(text);
        }
    }
    let mut bytes = std::mem::take(cut);
    bytes.extend_from_slice(chunk);
    let mut text = String::with_capacity(bytes.len());
    let mut rest = &bytes[..];
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                text.push_str(s);
                return text.into();
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                text.push_str(std::str::from_utf8(good).unwrap_or_default());
                match e.error_len() {
                    Some(n) => {
                        text.push('\u{FFFD}');
                        rest = &bad[n..];
                    }
                    None => {
                        *cut = bad.to_vec();
                        return text.into();
                    }
                }
            }
        }
    }
}

/// What [`Stream::grow_hot`] did with a chunk.
enum Grew {
    /// Nothing: the chunk goes the ordinary way.
    No,
    /// Added it to the reply, and the reader scanned part of it: the ordinary way goes on.
    Pushed,
    /// All of it: the string grew (or not, when all of it waits, such as a lone backslash).
    All(bool),
}

/// Whether `bytes` holds `a` or `b`: `memchr2`, or for the short chunks streams bring
/// (where `memchr2`'s setup costs more than the search) eight bytes at a time, testing each
/// word for a zero byte after XOR with `a` (and with `b`) repeated.
#[inline]
pub(crate) fn has_either(bytes: &[u8], a: u8, b: u8) -> bool {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    if bytes.len() > 64 {
        return memchr::memchr2(a, b, bytes).is_some();
    }
    // Exact for "some byte is zero" (the borrow can only start at a zero byte).
    let has_zero = |w: u64| w.wrapping_sub(ONES) & !w & HIGHS != 0;
    let (wa, wb) = (ONES * u64::from(a), ONES * u64::from(b));
    let mut words = bytes.chunks_exact(8);
    let mut seen = false;
    for word in &mut words {
        let w = u64::from_le_bytes(word.try_into().unwrap_or_default());
        seen |= has_zero(w ^ wa) | has_zero(w ^ wb);
    }
    seen || words.remainder().iter().any(|&c| c == a || c == b)
}

/// The hot string in `root`, if the stream alone can see it.
#[allow(unsafe_code)]
fn hot_string<'r, P>(hot: &Hot, root: &'r mut Option<P>) -> Option<&'r mut PartialString> {
    let root = root.as_mut()?;
    // SAFETY: a `Hot` is recorded by the walk of a `Grow` event applied to this root, and
    // dropped by every other event and value change (`Root`): the value changed since only
    // through the string this returns.
    unsafe { hot.slot(root) }
}

/// The stream's own sink: the root value, and which value of the reply it reads.
struct Root<'s, T: Extract> {
    values: &'s mut Values<T>,
    thoughts: &'s mut Thoughts,
    /// Set by the walk of a `Grow` event that reached its string, dropped by any other.
    hot: &'s mut Hot,
    changed: bool,
}

/// Whether the value at `span` reads as `T` without issues (`None` if not), and if so whether
/// it is related to the type (not an object of unknown keys only: `select::unrelated`).
fn fits<T: Extract>(text: &str, span: Span, max_depth: usize) -> Option<bool> {
    let Ok(parsed) = crate::parse::parse_span(text, span, max_depth) else {
        return None;
    };
    let mut cx = Context::new();
    cx.set_max_depth(max_depth);
    let value = crate::deep::grow(|| T::from_node(&parsed.node, &mut cx));
    let fits = (value.is_ok() && cx.issues().is_empty())
        .then(|| !crate::select::unrelated(cx.coercions(), cx.matched()));
    crate::deep::discard(value, parsed.node.drop_depth(max_depth));
    fits
}

impl<T: Extract> Sink for Root<'_, T> {
    fn event(&mut self, at: &[Step<'_>], event: &Event<'_>, place: &At<'_>) {
        let values = &mut *self.values;
        // More of the hot string goes straight to it.
        if let Event::Grow(more) = event {
            if self.hot.is(place.string) {
                if let Some(string) = hot_string(self.hot, &mut values.partial) {
                    if string.grow(more) {
                        self.changed |= !more.is_empty();
                        return;
                    }
                }
            }
        }
        // Only a string that grows below the root can be hot (a lone string shows nothing
        // until `finish`); any other event drops the hot string.
        let walk = matches!(event, Event::Grow(_)) && !at.is_empty();
        if walk {
            self.hot.begin(values.partial.as_ref(), place.string);
        } else {
            self.hot.clear();
        }
        let mut feed = Feed {
            place,
            prefix: &[],
            path: at,
            issues: &mut values.issues,
            max_depth: values.max_depth,
            unheld: None,
            trail: walk.then_some(&mut *self.hot),
            wraps: (0, 0),
            strict: false,
            quiet: false,
        };
        self.changed |=
            <T::Partial as PartialValue>::apply(&mut values.partial, at, event, &mut feed);
        if at.is_empty() && matches!(event, Event::Close) {
            values.closed = place.closed;
            values.closed_fit = None;
            if values.kept.is_some() {
                // A later value replaces the one kept only if it reads as `T` too.
                let before = values.partial.is_some();
                values.settle(place.text, false);
                self.changed |= before && values.partial.is_none();
            }
        }
    }

    fn candidate(&mut self, start: usize, text: &str) -> bool {
        let values = &mut *self.values;
        if values.settled {
            return false;
        }
        self.hot.clear();
        if values.partial.is_some() || values.closed.is_some() {
            values.settle(text, true);
            if values.settled {
                return false;
            }
            values.partial = None;
            values.issues = Issues::default();
            self.changed = true;
        }
        values.at = Some(start);
        values.lead = crate::locate::lead(text, start);
        values.provisional = values.kept.is_some();
        true
    }

    fn gathers(&self) -> bool {
        (self.values.partial.as_ref()).is_some_and(<T::Partial as PartialValue>::one_as_list)
    }

    fn abandoned(&mut self) {
        self.hot.clear();
        self.values.provisional = false;
        if self.values.kept.is_some() {
            self.values.partial = None;
            self.changed = true;
        }
    }

    fn thought(&mut self, more: &str, new: bool) {
        self.thoughts.add(more, new);
    }
}

impl Extractor {
    /// A [`Stream`] with these settings (reasoning tags, depth limit, `max_payload`).
    ///
    /// ```
    /// let mut stream = llm_extract::Extractor::new().max_payload(12).stream::<Vec<u8>>();
    /// assert!(stream.try_push("[1, 2, 3, 4").is_ok());
    /// assert!(stream.try_push(", 5, 6]").is_err());
    /// assert_eq!(stream.finish().unwrap_err().category(), llm_extract::Category::TooLarge);
    /// ```
    pub fn stream<T: Extract>(&self) -> Stream<T> {
        Stream::with(self.clone())
    }
}

/// Snapshots over an iterator of chunks (`&str`, `String`, bytes: anything `AsRef<[u8]>`;
/// a character split between chunks waits for its rest): yields the snapshot after each chunk
/// that changed it. [`Snapshots::finish`] then gives the final value.
///
/// ```
/// use llm_extract::stream::Snapshots;
/// let chunks = ["{\"n\": [1", "0, 2", "0]}"];
/// let mut snaps = Snapshots::<serde_json::Value, _>::new(chunks.into_iter());
/// let seen: Vec<String> = snaps.by_ref().map(|p| serde_json::to_string(&p).unwrap()).collect();
/// assert_eq!(seen, [r#"{"n":[]}"#, r#"{"n":[10]}"#, r#"{"n":[10,20]}"#]);
/// assert_eq!(snaps.finish().unwrap().value, serde_json::json!({"n": [10, 20]}));
/// ```
pub struct Snapshots<T: Extract, I> {
    chunks: I,
    stream: Stream<T>,
}

impl<T: Extract, I> Snapshots<T, I> {
    /// Snapshots of `chunks` with the default settings.
    pub fn new(chunks: I) -> Self {
        Snapshots {
            chunks,
            stream: Stream::new(),
        }
    }

    /// Snapshots of `chunks` read by `stream` (for its settings).
    pub fn with_stream(stream: Stream<T>, chunks: I) -> Self {
        Snapshots { chunks, stream }
    }

    /// The stream, to ask for its issues or thoughts.
    pub fn stream(&self) -> &Stream<T> {
        &self.stream
    }

    /// [`Stream::finish`] once the chunks are read.
    pub fn finish(self) -> Result<Extracted<T>, Error> {
        self.stream.finish()
    }
}

impl<T: Extract, I: Iterator<Item = C>, C: AsRef<[u8]>> Iterator for Snapshots<T, I> {
    type Item = T::Partial;

    fn next(&mut self) -> Option<T::Partial> {
        for chunk in self.chunks.by_ref() {
            if self.stream.push_bytes(chunk.as_ref()) {
                return Some(self.stream.snapshot());
            }
        }
        None
    }
}

/// Snapshots over a [`futures_core::Stream`] of chunks (feature `futures`): the async
/// [`Snapshots`]. Yields the snapshot after each chunk that changed it; works with any
/// runtime's streams (an HTTP body of `Bytes`, a channel of `String`s). The inner stream must
/// be `Unpin` (`Box::pin` one that is not).
///
/// ```
/// use futures_core::Stream as _;
/// use llm_extract::stream::AsyncSnapshots;
/// use std::pin::Pin;
/// use std::task::{Context, Poll, Waker};
///
/// /// Chunks that are always ready (a stand-in for a network stream).
/// struct Chunks(std::vec::IntoIter<&'static str>);
/// impl futures_core::Stream for Chunks {
///     type Item = &'static str;
///     fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<&'static str>> {
///         Poll::Ready(self.0.next())
///     }
/// }
///
/// let mut snaps = AsyncSnapshots::<Vec<u32>, _>::new(Chunks(vec!["[1, 2", "0, 3]"].into_iter()));
/// let mut cx = Context::from_waker(Waker::noop());
/// let mut seen = Vec::new();
/// while let Poll::Ready(Some(snap)) = Pin::new(&mut snaps).poll_next(&mut cx) {
///     seen.push(snap.to_vec());
/// }
/// assert_eq!(seen, [vec![1], vec![1, 20, 3]]);
/// assert_eq!(snaps.finish().unwrap().value, [1, 20, 3]);
/// ```
#[cfg(feature = "futures")]
pub struct AsyncSnapshots<T: Extract, S> {
    chunks: S,
    stream: Stream<T>,
}

#[cfg(feature = "futures")]
impl<T: Extract, S> AsyncSnapshots<T, S> {
    /// Snapshots of `chunks` with the default settings.
    pub fn new(chunks: S) -> Self {
        AsyncSnapshots {
            chunks,
            stream: Stream::new(),
        }
    }

    /// Snapshots of `chunks` read by `stream` (for its settings).
    pub fn with_stream(stream: Stream<T>, chunks: S) -> Self {
        AsyncSnapshots { chunks, stream }
    }

    /// The stream, to ask for its issues or thoughts.
    pub fn stream(&self) -> &Stream<T> {
        &self.stream
    }

    /// [`Stream::finish`] once the chunks are read.
    pub fn finish(self) -> Result<Extracted<T>, Error> {
        self.stream.finish()
    }
}

// Nothing is pinned structurally but the inner stream, which is `Unpin`.
#[cfg(feature = "futures")]
impl<T: Extract, S: Unpin> Unpin for AsyncSnapshots<T, S> {}

#[cfg(feature = "futures")]
impl<T, S, C> futures_core::Stream for AsyncSnapshots<T, S>
where
    T: Extract,
    S: futures_core::Stream<Item = C> + Unpin,
    C: AsRef<[u8]>,
{
    type Item = T::Partial;

    fn poll_next(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<T::Partial>> {
        use std::task::Poll;
        let this = self.get_mut();
        loop {
            match std::pin::Pin::new(&mut this.chunks).poll_next(cx) {
                Poll::Ready(Some(chunk)) => {
                    if this.stream.push_bytes(chunk.as_ref()) {
                        return Poll::Ready(Some(this.stream.snapshot()));
                    }
                }
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time search finds `a` or `b` exactly where a byte loop does: every
    /// length up to past `memchr2`'s threshold, the byte at every place, next to bytes one
    /// above and below it (where a borrow could leak into the next byte) and to 0x80 and 0xff.
    #[test]
    fn has_either_is_exact() {
        for len in 0..80 {
            for fill in [b'a', b'"' + 1, b'"' - 1, b'\\' + 1, 0x80, 0xff, 0] {
                let mut bytes = vec![fill; len];
                let naive = |b: &[u8]| b.iter().any(|&c| c == b'"' || c == b'\\');
                assert_eq!(
                    has_either(&bytes, b'"', b'\\'),
                    naive(&bytes),
                    "{len} {fill}"
                );
                for at in 0..len {
                    for put in [b'"', b'\\', b'"' + 1, 0x80] {
                        let was = bytes[at];
                        bytes[at] = put;
                        assert_eq!(
                            has_either(&bytes, b'"', b'\\'),
                            naive(&bytes),
                            "{len} {fill} {at} {put}"
                        );
                        bytes[at] = was;
                    }
                }
            }
        }
    }

    /// Reasoning written with special tokens is reasoning whatever the reasoning tags are (as
    /// in the locator): with none configured, a `{` inside a Cohere block is never a value.
    #[test]
    fn token_blocks_are_reasoning_without_reasoning_tags() {
        let mut extractor = Extractor::new();
        extractor.settings.reasoning_tags.clear();
        let text = "<|START_THINKING|>[\"Rome\"] <think>[1]</think><|END_THINKING|>[\"Paris\"]";
        let want = extractor.extract::<Vec<String>>(text).unwrap();
        assert_eq!(want.value, ["Paris"]);
        for size in 1..=9 {
            let mut stream = extractor.stream::<Vec<String>>();
            for chunk in text.as_bytes().chunks(size) {
                stream.push_bytes(chunk);
                // Nothing, or the answer growing: never "Rome" nor "1".
                let shown: Vec<String> = stream.snapshot().iter().map(|s| s.to_string()).collect();
                assert!(shown.len() <= 1, "{size}: {shown:?}");
                assert!(
                    shown.iter().all(|s| "Paris".starts_with(s.as_str())),
                    "{size}: {shown:?}"
                );
            }
            assert_eq!(stream.thoughts(), want.thoughts, "{size}");
            assert_eq!(stream.finish().unwrap().value, ["Paris"]);
        }
    }
}
