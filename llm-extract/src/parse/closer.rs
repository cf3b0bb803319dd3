//! Closing brackets: which containers a closer closes (its own, only the innermost, or none,
//! being stray), read by what follows it and by the brackets of the rest of the text; and
//! where a located value whose root closed early really ends.

use super::balance::{self, Fit, Profile, Rest};
use super::build::{self, Build};
use super::{run, space, string, Done, Frame, Parsed, ParsedValue, Parser, RepairPaths};
use crate::report::{Repair, RepairKind};
use crate::span::Span;

/// How many located values of one region may be read on past their closer: each costs a
/// parse of the rest of the region, so a constant keeps locating linear.
const READ_ON_PER_REGION: usize = 4;

/// Where located values seem to end early: a span of `found` that is a whole object (or
/// array) followed by a `,` and a member (an item) of its own (`{"a": 1}, "b": 2}`) is parsed
/// on to `end`, and runs to where the parser finds the value ends (see
/// `Parser::root_reads_on`); the spans inside it are dropped, being parts of it. Used by the
/// locate stage on each region's values, which come in text order.
pub(crate) fn read_on<P>(text: &str, found: Vec<(Span, P)>, end: usize) -> Vec<(Span, P)> {
    let mut out = Vec::with_capacity(found.len());
    let mut taken = 0;
    let mut budget = READ_ON_PER_REGION;
    // Built once for the region, when a value (not a key) follows an object.
    let mut profile: Option<Profile> = None;
    for (span, place) in found {
        if span.start < taken {
            continue;
        }
        // Closers left over after the span, or (`odd_quotes`) a quote without its pair.
        let mut left_over = |odd_quotes: bool| {
            let profile =
                profile.get_or_insert_with(|| Profile::build(text.as_bytes(), span.end, end));
            profile.covers(span.end)
                && (profile.rest(span.end).net > 0 || (odd_quotes && profile.ends_in_string))
        };
        let reads_on = budget > 0
            && match continues_after(text, span, end) {
                // `{"a": "x "1}</json>", "n": 2}`: the scan's closer may lie in a string of the
                // parser's reading (the quotes pair differently), when closers are left over
                // after it or the quotes after it do not pair.
                Continues::No => whole_container(text, span, end) && left_over(true),
                Continues::Member => true,
                // `{"t": ["a"]}, "b", "c"], "n": 1}`: when closers are left over after it.
                Continues::Value => left_over(false),
            };
        if reads_on {
            budget -= 1;
            if let Ok(done) = run::<build::Skim>(
                text,
                Span::new(span.start, end),
                usize::MAX,
                RepairPaths::Skip,
            ) {
                if done.end > span.end {
                    taken = done.end;
                    out.push((Span::new(span.start, done.end), place));
                    continue;
                }
            }
        }
        out.push((span, place));
    }
    out
}

/// What the locate stage keeps of the values it reads to find where they end
/// ([`read_value`]): the reading its caller would make of each one's span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Keep {
    /// Nothing: the caller reads each value it wants.
    Nothing,
    /// A `serde_json::Value` (the caller is `repair`).
    Value,
    /// The tree, with repair paths as given (the caller reads a type from it).
    Tree(RepairPaths),
}

/// A value read by the locate stage and kept for its caller (see [`Keep`]).
pub(crate) enum Kept<'a> {
    Value(ParsedValue),
    /// The tree of a value strict JSON does not read (one it does is read by the caller's
    /// strict path).
    Tree(Parsed<'a>),
}

/// A value the locate stage read where it starts, to learn where it ends (the parser decides
/// that, as for every other reading): see [`read_value`].
pub(crate) struct Read<'a> {
    pub end: usize,
    /// `false` when the text ended inside the value.
    pub complete: bool,
    /// Strict JSON reads the value as written.
    pub strict: bool,
    /// The reading kept for the caller.
    pub kept: Option<Kept<'a>>,
}

/// Reads the value that starts at `span.start`, no further than `span.end`: strictly when
/// it is valid JSON that does not go on past its closer (`{"a": 1}, "b": 2}`), else with the
/// parser, keeping what `keep` says. `None` when the parser refuses it (too deep).
pub(crate) fn read_value(text: &str, span: Span, max_depth: usize, keep: Keep) -> Option<Read<'_>> {
    if let Some((end, value)) = strict_prefix(text, span, max_depth, keep == Keep::Value) {
        if ends_alone(text, Span::new(span.start, end), span.end) {
            let kept = value.map(|value| {
                Kept::Value(ParsedValue {
                    value,
                    repairs: Vec::new(),
                    end,
                    complete: true,
                })
            });
            return Some(Read {
                end,
                complete: true,
                strict: true,
                kept,
            });
        }
    }
    let truncated = |repairs: &[Repair]| repairs.iter().any(|r| r.kind.is_truncation());
    let read = match keep {
        Keep::Value => {
            let done = run::<build::Json>(text, span, max_depth, RepairPaths::Skip).ok()?;
            let complete = !truncated(&done.repairs);
            let value = ParsedValue {
                value: done.value,
                repairs: done.repairs,
                end: done.end,
                complete,
            };
            (done.end, complete, Some(Kept::Value(value)))
        }
        Keep::Tree(paths) => {
            let done = run::<build::Tree>(text, span, max_depth, paths).ok()?;
            let complete = !truncated(&done.repairs);
            let end = done.end.max(done.value.span.end);
            let parsed = Parsed {
                node: done.value,
                repairs: done.repairs,
                end,
            };
            (end, complete, Some(Kept::Tree(parsed)))
        }
        Keep::Nothing => {
            let done = run::<build::Skim>(text, span, max_depth, RepairPaths::Skip).ok()?;
            (done.end, !truncated(&done.repairs), None)
        }
    };
    let (end, complete, kept) = read;
    Some(Read {
        end,
        complete,
        strict: false,
        kept,
    })
}

/// Where the parser ends the value it reads from `span.start` (no further than `span.end`),
/// without a strict reading first: for a text strict JSON would end too early, as the
/// members of an object whose `{` is missing (`"a": 1}`, which it reads as the string `"a"`).
/// Also whether the reading guessed ([`RepairKind::is_guess`]) anywhere but at that `{`.
pub(crate) fn parser_end(text: &str, span: Span, max_depth: usize) -> Option<(usize, bool)> {
    let done = run::<build::Skim>(text, span, max_depth, RepairPaths::Skip).ok()?;
    let guessed = (done.repairs.iter())
        .any(|r| r.kind.is_guess() && r.kind != RepairKind::MissingOpeningBracket);
    Some((done.end, guessed))
}

/// The valid JSON value at the start of `span` (through serde_json, which stops at its end):
/// where it ends, and the value when `keep`.
fn strict_prefix(
    text: &str,
    span: Span,
    max_depth: usize,
    keep: bool,
) -> Option<(usize, Option<serde_json::Value>)> {
    let slice = &text[span.start..span.end];
    if keep {
        if likely_cut_off(slice) {
            // A value the text ends inside fails serde_json at its very end: found without
            // building it first (serde_json's skipping accepts all its building does).
            let mut skim =
                serde_json::Deserializer::from_str(slice).into_iter::<serde::de::IgnoredAny>();
            skim.next()?.ok()?;
        }
        let mut values = serde_json::Deserializer::from_str(slice).into_iter::<serde_json::Value>();
        let value = values.next()?.ok()?;
        // serde_json stops at depth 128 by itself; a lower limit is checked here.
        if max_depth < 128 && super::depth_exceeds(&value, max_depth) {
            return None;
        }
        Some((span.start + values.byte_offset(), Some(value)))
    } else {
        if max_depth < 128 {
            return None; // the parser checks the depth
        }
        let mut values =
            serde_json::Deserializer::from_str(slice).into_iter::<serde::de::IgnoredAny>();
        values.next()?.ok()?;
        Some((span.start + values.byte_offset(), None))
    }
}

/// Whether the value at the start of `slice` looks cut off by its end: the slice ends (spaces
/// aside) in a byte other than a closer.
fn likely_cut_off(slice: &str) -> bool {
    !matches!(
        crate::lex::trim_end(slice).as_bytes().last(),
        Some(b'}' | b']')
    )
}

/// What follows a whole object or array.
enum Continues {
    No,
    /// A member of its own: for an object, a quoted key with its `:`; for an array, a value.
    Member,
    /// A value after an object.
    Value,
}

/// Whether the whole object or array at `span` is a value of its own: no member of its own or
/// value follows it before `end` (see [`read_value`], which takes a strict reading only then).
pub(crate) fn ends_alone(text: &str, span: Span, end: usize) -> bool {
    matches!(continues_after(text, span, end), Continues::No)
}

/// Whether `span` is a whole object or array (it ends with its opener's closer) with text
/// after it before `end`.
fn whole_container(text: &str, span: Span, end: usize) -> bool {
    let bytes = text.as_bytes();
    let closer = match bytes.get(span.start) {
        Some(b'{') => b'}',
        Some(b'[') => b']',
        _ => return false,
    };
    span.end > span.start + 1 && span.end < end && bytes[span.end - 1] == closer
}

/// What follows the whole object or array at `span`: a `,` (closers before it skipped) and a
/// member of its own, or a value.
fn continues_after(text: &str, span: Span, end: usize) -> Continues {
    let bytes = text.as_bytes();
    let closer = match bytes.get(span.start) {
        Some(b'{') => b'}',
        Some(b'[') => b']',
        _ => return Continues::No,
    };
    if span.end == 0 || span.end >= end || bytes[span.end - 1] != closer {
        return Continues::No;
    }
    let limit = (span.end + string::KEY_LOOKAHEAD).min(end);
    let mut i = space::skip_space(bytes, span.end, limit);
    while i < limit && matches!(bytes[i], b'}' | b']') {
        i = space::skip_space(bytes, i + 1, limit);
    }
    let probe = probe(text, end);
    if i >= limit || (bytes[i] != b',' && !(closer == b'}' && probe.quoted_key_at(i))) {
        return Continues::No;
    }
    let token = if bytes[i] == b',' {
        space::skip_space(bytes, i + 1, limit)
    } else {
        i
    };
    let value = !matches!(bytes.get(token), None | Some(b',' | b':' | b'}' | b']'));
    match closer {
        b'}' if probe.quoted_key_at(token) => Continues::Member,
        b'}' if value => Continues::Value,
        b']' if value => Continues::Member,
        _ => Continues::No,
    }
}

/// [`closer_by_rule`] where the text holds every byte the rule reads: the parser's own
/// lookahead and fit, on the text as it is.
fn closer_in_whole(
    text: &str,
    at: usize,
    depth: usize,
    object: impl Fn(usize) -> bool,
    laid_out_stray: impl Fn(usize) -> bool,
) -> Closer {
    let probe = probe(text, text.len());
    let Some(next) = probe.following_in(at + 1, depth, &object) else {
        return Closer::AsWritten;
    };
    let receiving = (depth - 1).checked_sub(next.run + 1);
    let fitting = next.fitting == next.run && receiving.is_some();
    let fits = fitting
        && receiving.is_some_and(|index| match object(index) {
            true => probe.looks_like_key(next.token),
            false => !probe.looks_like_whole_key(next.token),
        });
    let stray = laid_out_stray(next.token);
    if fits && !stray {
        Closer::AsWritten
    } else if fitting && is_closer(text.as_bytes().get(next.token)) {
        // A trailing comma after a nested container: as written, unless laid out as stray.
        match stray {
            true => Closer::UnlessSpare,
            false => Closer::AsWritten,
        }
    } else {
        Closer::ByText
    }
}

/// A parser over `text` up to `end` that builds nothing, for asking its lookahead rules of a
/// place in the text (the stream asks them of the text so far).
fn probe(text: &str, end: usize) -> Parser<'_, build::Skim> {
    Parser::new(text, Span::new(0, end), 1, RepairPaths::Skip)
}

/// How the parser reads a closer of the innermost container's kind (more than the root open).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Closer {
    /// Nothing after it says it is wrong: closed as written.
    AsWritten,
    /// Its `,` is followed by another closer (a trailing comma after a nested container) and
    /// the layout says it is stray (it ends a line, and the next line starts at the
    /// indentation of its own container's members): closed as written unless the text holds
    /// more closers than openers ([`Parser::matching_closer`]), which only the end of the
    /// text tells. Not so laid out (`{"a": [1],}`), such a closer closes as written.
    UnlessSpare,
    /// What follows it does not fit the container it returns to: the parser judges it by the
    /// rest of the text.
    ByText,
}

/// How the parser reads a closer of the innermost container's kind at `at` (more than the
/// root open), as far as `text`, a reply still arriving, decides it; `None` while the text
/// so far cannot tell. `depth` containers are open; `object(i)` says whether the one at index
/// `i` (from the root) is an object; `ended` when `text` is all there is.
///
/// The rule is [`Parser::following`] and the fit of its token, the parser's own: the answer
/// is given once every byte that rule reads has arrived (all of them when the text has
/// ended), or earlier where the bytes so far settle it whatever comes next.
pub(crate) fn closer_as_written(
    text: &str,
    at: usize,
    depth: usize,
    object: impl Fn(usize) -> bool,
    start: impl Fn(usize) -> usize,
    ended: bool,
) -> Option<Closer> {
    if plainly_closes(text.as_bytes(), at, depth, &object) {
        return Some(Closer::AsWritten);
    }
    closer_by_rule(text, at, depth, object, start, ended)
}

/// [`closer_as_written`] by the rule itself, for every closer.
fn closer_by_rule(
    text: &str,
    at: usize,
    depth: usize,
    object: impl Fn(usize) -> bool,
    start: impl Fn(usize) -> usize,
    ended: bool,
) -> Option<Closer> {
    use Closer::{AsWritten, ByText, UnlessSpare};
    // The layout's evidence, which the parser weighs against the whole text's brackets.
    let laid_out_stray = |token: usize| {
        let outer = depth.checked_sub(2).map(&start);
        layout_says_stray(text.as_bytes(), at, token, start(depth - 1), outer)
    };
    // Everything the rule reads: the run and the `,` within the lookahead, then a key.
    if ended || text.len() > at + 2 * string::KEY_LOOKAHEAD + 8 {
        return Some(closer_in_whole(text, at, depth, object, laid_out_stray));
    }
    // The same rule on the bytes so far, answering only what more bytes cannot change.
    let bytes = text.as_bytes();
    let limit = at + 1 + string::KEY_LOOKAHEAD;
    let unsettled = |i: usize| i >= bytes.len() || matches!(bytes[i], b'/' | b'#' | 0x80..);
    let end = bytes.len().min(limit);
    let Run {
        run,
        fitting,
        next: i,
        ..
    } = closer_run(bytes, at + 1, end, depth, &object);
    if i >= limit {
        // Nothing follows within the lookahead.
        return Some(AsWritten);
    }
    let comma = match bytes.get(i) {
        Some(b',') => 1,
        Some(0xEF) if crate::lex::fullwidth_separator(&bytes[i..]) == Some(b',') => {
            crate::lex::FULLWIDTH_LEN
        }
        _ => 0,
    };
    let token = if comma == 0 {
        if unsettled(i) {
            return None;
        }
        // Neither a `,` nor a quoted key (its comma missing, `Parser::quoted_key_at`): it
        // closes as written.
        if !matches!(bytes[i], b'"' | b'\'') || !string::key_so_far(bytes, i)? {
            return Some(AsWritten);
        }
        i
    } else {
        let token = space::skip_space_comments(bytes, i + comma, end);
        if token >= limit {
            return Some(AsWritten);
        }
        if unsettled(token) {
            return None;
        }
        token
    };
    let receiving = (depth - 1).checked_sub(run + 1);
    if fitting != run || receiving.is_none() {
        return Some(ByText);
    }
    let in_object = receiving.is_some_and(&object);
    // Whether a key starts there, by the parser's own rule, once the bytes so far settle it.
    let key = string::key_so_far(bytes, token)?;
    // In an object the token fits as a key; in an array as anything else.
    let stray = laid_out_stray(token);
    Some(match key == in_object && !stray {
        true => AsWritten,
        // A trailing comma after a nested container: as written, unless laid out as stray.
        false if is_closer(bytes.get(token)) => match stray {
            true => UnlessSpare,
            false => AsWritten,
        },
        false => ByText,
    })
}

fn is_closer(b: Option<&u8>) -> bool {
    matches!(b, Some(b'}' | b']'))
}

/// The usual case of [`closer_as_written`], answered without the parser: right after the
/// closer, closers each of the kind of the container it closes, then a `,` and, after spaces
/// on the same line, an opener where an array receives it or a plain key (a quoted word and
/// its `:`) where an object does. The rule closes such a closer as written whatever follows:
/// the token fits, and it does not start a line, which the layout's evidence needs.
fn plainly_closes(bytes: &[u8], at: usize, depth: usize, object: &impl Fn(usize) -> bool) -> bool {
    let mut i = at + 1;
    let mut run = 0;
    while let Some(&b @ (b'}' | b']')) = bytes.get(i) {
        run += 1;
        if depth < run + 2 || object(depth - 1 - run) != (b == b'}') {
            return false;
        }
        i += 1;
    }
    if depth < run + 2 || bytes.get(i) != Some(&b',') {
        return false;
    }
    i += 1;
    while bytes.get(i) == Some(&b' ') {
        i += 1;
    }
    match (object(depth - 2 - run), bytes.get(i)) {
        (false, Some(b'{' | b'[')) => true,
        (true, Some(b'"')) => {
            let word = bytes[i + 1..]
                .iter()
                .take(string::KEY_LOOKAHEAD / 2)
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                .count();
            let after = i + 1 + word;
            word > 0 && bytes.get(after) == Some(&b'"') && bytes.get(after + 1) == Some(&b':')
        }
        _ => false,
    }
}

/// At the closer `at` of a value's root (an object when `object`), in `text`, all of the
/// reply: whether the parser may read the value on past it ([`Parser::root_reads_on`]):
/// after it (spaces, comments and closers between) a `,` or a full-width `，` and an object's
/// quoted key (`{"a": 1}, "b": 2}`), or such a key with its comma missing; after an array's,
/// any token after a `,` (the parser weighs the rest of the text there).
pub(crate) fn root_may_read_on(text: &str, at: usize, object: bool) -> bool {
    let probe = probe(text, text.len());
    probe
        .following_in(at + 1, 1, |_| object)
        .is_some_and(|next| !object || probe.quoted_key_at(next.token))
}

/// How far the indentation rule looks back for a line's start, or on from an opener for its
/// first member: a bounded look per closer keeps reading linear.
const INDENT_LOOK: usize = 256;

/// The indentation of the members of the container opening at `open`, when they are written
/// one per line (its first token starts a line after the opener): the bytes before it on
/// its line. `None` for a container written on one line.
fn member_indent(bytes: &[u8], open: usize) -> Option<usize> {
    let end = bytes.len().min(open + 1 + INDENT_LOOK);
    let mut line = None;
    for (i, &b) in bytes.iter().enumerate().take(end).skip(open + 1) {
        match b {
            b'\n' => line = Some(i + 1),
            b' ' | b'\t' | b'\r' => {}
            _ => return line.map(|start| i - start),
        }
    }
    None
}

/// The indentation of the token at `at` when it starts its line.
#[inline]
fn line_indent(bytes: &[u8], at: usize) -> Option<usize> {
    let from = at.saturating_sub(INDENT_LOOK);
    let mut i = at;
    while i > from {
        match bytes[i - 1] {
            b' ' | b'\t' => i -= 1,
            b'\n' => return Some(at - i),
            _ => return None,
        }
    }
    None
}

/// Whether the layout says the closer at `at` closes nothing: it ends a line of the
/// innermost container (opening at `innermost`, its members one per line) rather than
/// standing on a line of its own, and the token after it, at `token`, starts a line at the
/// indentation of that container's members, which the container around it (opening at
/// `outer`) does not give its own. In `"age": 47},\n    "active": true\n  },` the member
/// after the `}` is the object's next one, and the `}` on its own line later closes it.
/// Evidence only: the parser acts on it when the text holds more closers than openers; a
/// stream holds such a closer undecided.
#[inline]
pub(crate) fn layout_says_stray(
    bytes: &[u8],
    at: usize,
    token: usize,
    innermost: usize,
    outer: Option<usize>,
) -> bool {
    // A closer on a line of its own (the common case in indented text) is settled first.
    if line_indent(bytes, at).is_some() {
        return false;
    }
    let Some(indent) = line_indent(bytes, token) else {
        return false;
    };
    member_indent(bytes, innermost) == Some(indent)
        && outer.is_none_or(|outer| member_indent(bytes, outer) != Some(indent))
}

/// The closers right after a closer (from `at`, before `limit`, spaces and comments between).
struct Run {
    /// How many there are.
    run: usize,
    /// How many of them, from the first, are of the kind of the container they would close
    /// once the one before has closed (`depth` open, `object(i)` for the kind at index `i`).
    fitting: usize,
    /// Just after the last of them (`at` when there is none).
    run_end: usize,
    /// Where what follows them starts.
    next: usize,
}

/// The run of closers from `at` (see [`Run`]): the parser's and the stream's reading alike.
fn closer_run(
    bytes: &[u8],
    at: usize,
    limit: usize,
    depth: usize,
    object: impl Fn(usize) -> bool,
) -> Run {
    let mut i = space::skip_space_comments(bytes, at, limit);
    let (mut run, mut fitting, mut run_end) = (0, 0, at);
    while i < limit && matches!(bytes[i], b'}' | b']') {
        run += 1;
        if fitting + 1 == run && depth > run && object(depth - 1 - run) == (bytes[i] == b'}') {
            fitting += 1;
        }
        run_end = i + 1;
        i = space::skip_space_comments(bytes, i + 1, limit);
    }
    Run {
        run,
        fitting,
        run_end,
        next: i,
    }
}

/// Hashes of the first few keys of an object: enough to see that `"id"` after
/// `[{"id": 1, "n": 2}, ` starts the next record (whose `{` is missing), without keeping the
/// keys or searching them all; and how many keys the object had.
#[derive(Clone, Copy, Default)]
pub(super) struct KeySample {
    hashes: [u64; 8],
    len: usize,
    /// Every key added, the first eight hashed.
    keys: usize,
}

impl KeySample {
    pub(super) fn add(&mut self, key: &[u8]) {
        if self.len < self.hashes.len() {
            self.hashes[self.len] = key_hash(key);
            self.len += 1;
        }
        self.keys += 1;
    }

    /// How many keys were added (hashed or not).
    pub(super) fn keys(&self) -> usize {
        self.keys
    }

    fn contains(&self, key: &[u8]) -> bool {
        self.contains_hash(key_hash(key))
    }

    fn contains_hash(&self, hash: u64) -> bool {
        self.hashes[..self.len].contains(&hash)
    }

    /// The hash of the first key, if any.
    fn first(&self) -> Option<u64> {
        (self.len > 0).then(|| self.hashes[0])
    }
}

/// FNV-1a: keys are short, and a collision only makes a rare repair choose the other reading.
fn key_hash(key: &[u8]) -> u64 {
    key.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// How a closing bracket is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Closing {
    /// It closes the containers down to the one at this stack index, which is of its kind
    /// (the innermost, when it matches).
    Through(usize),
    /// Of the wrong kind, it closes only the innermost container.
    Innermost,
    /// It closes nothing: a stray bracket.
    Skip,
}

/// What follows a closing bracket: perhaps more closers, then a `,` and the next token.
struct Following {
    /// How many closers come right after it.
    run: usize,
    /// How many of them, from the first, are of the kind of the container they would close
    /// once it has closed.
    fitting: usize,
    /// Just after the last closer (after the first one when there is no run).
    run_end: usize,
    /// Where the token after the `,` starts.
    token: usize,
}

impl<'a, B: Build<'a>> Parser<'a, B> {
    /// Closes containers for the bracket `b` at `self.pos`. Returns the document when the root
    /// closes.
    pub(super) fn close(&mut self, b: u8) -> Option<Done<B::Value>> {
        let want_object = b == b'}';
        let matching = self
            .stack
            .iter()
            .rposition(|f| matches!(f, Frame::Object { .. }) == want_object);
        let in_stray_run = self
            .stray_run
            .is_some_and(|(from, until)| (from..until).contains(&self.pos));
        let planned = (self.closer_plan.as_ref())
            .filter(|(from, until, _)| (*from..*until).contains(&self.pos))
            .map(|(_, _, strays)| strays.contains(&self.pos));
        let reading = match (matching, planned) {
            _ if in_stray_run => Closing::Skip,
            (_, Some(true)) => Closing::Skip,
            (Some(t), Some(false)) if t + 1 == self.stack.len() => Closing::Through(t),
            (Some(t), _) if t + 1 == self.stack.len() => self.matching_closer(),
            _ => self.mismatched_closer(matching),
        };
        let at = Span::new(self.pos, self.pos + 1);
        let target = match reading {
            Closing::Skip => {
                self.repair(RepairKind::StrayBracket, at);
                self.pos += 1;
                return None;
            }
            Closing::Innermost => {
                // `{"a": [1, 2}, "b": 3}`: the wrong kind of closer, with more members after
                // it. It closes only the innermost container, and the enclosing one reads on.
                self.repair_container(RepairKind::WrongBracket, at);
                self.pos += 1;
                return self.pop_frame(self.pos, true);
            }
            Closing::Through(target) => target,
        };
        // Containers opened after the matching one lack their closing bracket.
        while self.stack.len() > target + 1 {
            self.repair_container(RepairKind::MissingBracket, Span::at(self.pos));
            if let Some(done) = self.pop_frame(self.pos, true) {
                return Some(done);
            }
        }
        if let Some(at) = self.after_comma_of_top() {
            self.repair_container(RepairKind::TrailingComma, Span::new(at, at + 1));
        }
        if self.skip_stray_key() {
            // `{"v": 1, w}`: a stray word, not a key.
        } else if let Some(Frame::Object {
            key: Some((_, span)),
            ..
        }) = self.stack.last()
        {
            // `{"a"}`: a key with no value.
            let at = span.end;
            self.repair(RepairKind::MissingValue, Span::at(at));
            let _ = self.push_missing(at, true);
        }
        self.pos += 1;
        self.pop_frame(self.pos, true)
    }

    /// A closer of the innermost container's kind: it closes it, unless what follows says the
    /// container goes on (the closer came early, or is one too many):
    /// - at the root, `{"a": 1}, "b": 2}` reads `"b"` back in (`[1], 2]` too, when a closer
    ///   later is left for the array);
    /// - an object in an array followed by a key it has already, `[{"id": 1}, "id": 2}]`, closes:
    ///   the key starts the next record, whose `{` is missing; one it has not goes on in it when
    ///   the rest of the text says so (below) or the record before it has that key;
    /// - a closer whose `,` is followed by another closer (`{"a": [1],}`, a trailing comma
    ///   after a nested container) closes as written, unless the layout says it is stray;
    /// - otherwise, when the text holds more closers than openers, the closers here (this one and those
    ///   right after it) are read by what the rest of the text closes: as many of them close
    ///   as leave no container closed while members still follow, and no more open than the
    ///   rest closes (see [`balance`]).
    ///
    /// Valid JSON never gets past the first checks, so it builds no profile.
    fn matching_closer(&mut self) -> Closing {
        let depth = self.stack.len();
        let normal = Closing::Through(depth - 1);
        let Some(next) = self.following(self.pos + 1) else {
            return normal;
        };
        if depth == 1 {
            return if self.root_reads_on(next.token) {
                Closing::Skip
            } else {
                normal
            };
        }
        if self.layout_says_stray(next.token) {
            // The next member is laid out as this container's own: counting closers cannot
            // tell whether the stray one is here or later, the indentation can.
            return Closing::Skip;
        }
        if self.list_goes_on(&next) {
            return Closing::Skip;
        }
        // The container left innermost once this closer and the run after it have closed.
        let receiving = (depth - 1).checked_sub(next.run + 1);
        let fits = next.fitting == next.run
            && receiving.is_some_and(|index| self.token_fits(index, next.token));
        if fits {
            // Nothing here says the closer is wrong. Were the token to fit this container
            // too, counting closers could not tell whether the stray one is here or later:
            // it is read where it is found to be stray.
            return normal;
        }
        // Once the closers here that can close have, a key would land in an array: the last
        // object they closed is a record, and the key may start the next one.
        let most = (next.fitting + 1).min(depth);
        let key_after_record = depth > most
            && matches!(self.stack[depth - most - 1], Frame::Array { .. })
            && matches!(self.stack[depth - most], Frame::Object { .. })
            && self.looks_like_whole_key(next.token);
        if key_after_record && self.record_has_key(depth - most, next.token) {
            // `[{"id": 1}, "id": 2}]`: the key starts the next record, whose `{` is missing.
            return normal;
        }
        if self.record_goes_on(&next) {
            return Closing::Skip;
        }
        if key_after_record && next.run == 0 {
            // Nothing says otherwise: the next record, whose `{` is missing.
            return normal;
        }
        if next.fitting == next.run && receiving.is_some() && is_closer(self.bytes.get(next.token))
        {
            // `{"a": [1],}`: a trailing comma after a nested container. The closers here close
            // what they were written for whatever the rest of the text holds, so the reading
            // needs no more than the lookahead (a stream shows it at once).
            return normal;
        }
        if self.has_excess_closers() && self.closers_that_close(&next) == Some(0) {
            return Closing::Skip;
        }
        normal
    }

    /// At closers ending a record (an object in an array) followed by `, "key":` it lacks:
    /// whether the key is the record's own, the closers here being stray. Records in an array
    /// share their keys: yes when the record before it has the key, or when the next record
    /// starts with this record's first key and this key is another. If so, the closers here
    /// are marked stray.
    fn record_goes_on(&mut self, next: &Following) -> bool {
        let n = self.stack.len();
        let (before_keys, first_keys) =
            match (n.checked_sub(2).map(|i| &self.stack[i]), self.stack.last()) {
                (
                    Some(Frame::Array {
                        last_object_keys, ..
                    }),
                    Some(Frame::Object { first_keys, .. }),
                ) => (*last_object_keys, *first_keys),
                _ => return false,
            };
        if !self.quoted_key_at(next.token) {
            return false;
        }
        let key = key_hash(self.key_text(next.token));
        if first_keys.contains_hash(key) {
            return false;
        }
        let goes_on = before_keys.is_some_and(|keys| keys.contains_hash(key))
            || first_keys.first().is_some_and(|first| {
                first != key
                    && self
                        .next_record_first_key(next.token)
                        .is_some_and(|next_first| next_first == first)
            });
        if goes_on {
            self.stray_run = Some((self.pos, next.run_end));
        }
        goes_on
    }

    /// From `at` inside a record: the hash of the first key of the record after it
    /// (`}, {"key"`), found within a bounded window (paid from the profile budget).
    fn next_record_first_key(&mut self, at: usize) -> Option<u64> {
        let limit = (at + 4 * string::KEY_LOOKAHEAD).min(self.end);
        self.profile_budget = self.profile_budget.checked_sub(limit - at)?;
        let bytes = self.bytes;
        let mut depth = 0usize;
        let mut i = at;
        while i < limit {
            match bytes[i] {
                b'"' => {
                    i += 1;
                    while i < limit && bytes[i] != b'"' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' if depth > 0 => depth -= 1,
                b'}' => {
                    let comma = space::skip_space(bytes, i + 1, limit);
                    let open = space::skip_space(bytes, comma + 1, limit);
                    if open >= limit || bytes[comma] != b',' || bytes[open] != b'{' {
                        return None;
                    }
                    let key = space::skip_space(bytes, open + 1, limit);
                    return self
                        .quoted_key_at(key)
                        .then(|| key_hash(self.key_text(key)));
                }
                _ => {}
            }
            i += 1;
        }
        None
    }

    /// For the closer at `self.pos` and the run of closers after it: how many of them close,
    /// judged by the rest of the text after them (`None` without a profile). Closing the first
    /// `k` of them (from all that match the containers they would close, down to none) leaves
    /// `depth - k` open and the other closers here stray; the best `k` closes no container
    /// while members still follow it, leaves the fewest closers stray, puts the next token
    /// where it fits, and leaves the fewest open (see [`balance`]). Of equals, the most
    /// closers close. The ones after the first `k` are marked stray, to be skipped when
    /// reached.
    fn closers_that_close(&mut self, next: &Following) -> Option<usize> {
        let depth = self.stack.len();
        let most = (next.fitting + 1).min(depth);
        let token_misfit = |this: &Self, k: usize| {
            usize::from(k == depth || !this.token_fits(depth - k - 1, next.token))
        };
        let mut best: Option<((usize, usize, usize, usize), usize)> = None;
        for k in (0..=most).rev() {
            let misfit = match self.fit_after(next.run_end, depth - k, most + 1) {
                Some(fit) => (
                    fit.early,
                    fit.strays + next.run + 1 - k,
                    token_misfit(self, k),
                    fit.open,
                ),
                None => {
                    let rest = self.rest_after(next.run_end)?;
                    let open = depth - k;
                    (
                        usize::from(rest.overcloses(open)),
                        0,
                        token_misfit(self, k),
                        (open as isize - rest.net).max(0) as usize,
                    )
                }
            };
            if best.is_none_or(|(b, _)| misfit < b) {
                best = Some((misfit, k));
            }
        }
        let (best_misfit, best) = best?;
        // Closers of the run that match the containers in turn, those that do not passed over
        // as stray, can close more than the first ones that match as written.
        // (Without budget left to read the rest for it, that reading is not weighed.)
        let in_turn = (self.closers_in_turn(next, most)).and_then(|(k, strays)| {
            Some((
                k,
                strays,
                self.fit_after(next.run_end, depth - k, most + 1)?,
            ))
        });
        if let Some((k, strays, fit)) = in_turn {
            let misfit = (
                fit.early,
                fit.strays + strays.len(),
                token_misfit(self, k),
                fit.open,
            );
            if misfit < best_misfit {
                self.closer_plan = Some((self.pos + 1, next.run_end, strays));
                return Some(k);
            }
        }
        if best <= next.run {
            // The closers from the `best`-th after this one to the end of the run.
            let mut at = self.pos;
            for _ in 0..best {
                at = space::skip_space_comments(self.bytes, at + 1, next.run_end);
            }
            let first_stray = if best == 0 { self.pos } else { at };
            self.stray_run = Some((first_stray, next.run_end));
        }
        Some(best)
    }

    /// The closer at `self.pos` and the run after it read in turn: each closes the innermost
    /// container left when it is of its kind, and is stray when not (the root is never
    /// closed here, as a token follows the run). How many close, and where the stray ones
    /// are; `None` unless that closes more than `most`, the closers that match from the
    /// first on.
    fn closers_in_turn(&self, next: &Following, most: usize) -> Option<(usize, Vec<usize>)> {
        let depth = self.stack.len();
        let (closed, strays) = self.run_in_turn(next, depth.checked_sub(2)?, 1);
        (closed > most && !strays.is_empty()).then_some((closed, strays))
    }

    /// The run after the closer at `self.pos` read in turn from the container at stack index
    /// `top`, `closed` containers closed before it: how many are closed then, and where the
    /// closers passed over as stray are (the root is never closed here).
    fn run_in_turn(&self, next: &Following, mut top: usize, closed: usize) -> (usize, Vec<usize>) {
        let (mut closed, mut strays) = (closed, Vec::new());
        let mut i = space::skip_space_comments(self.bytes, self.pos + 1, next.run_end);
        while i < next.run_end {
            let object = matches!(self.stack[top], Frame::Object { .. });
            if top > 0 && object == (self.bytes[i] == b'}') {
                closed += 1;
                top -= 1;
            } else {
                strays.push(i);
            }
            i = space::skip_space_comments(self.bytes, i + 1, next.run_end);
        }
        (closed, strays)
    }

    /// How the text from `p` fits the containers `stack[..open]` (see [`balance::Fit`]).
    /// `None` once the budget cannot pay for `readings` such reads of the brackets after `p`.
    fn fit_after(&mut self, p: usize, open: usize, readings: usize) -> Option<Fit> {
        self.rest_after(p)?;
        let profile = self.profile.as_ref()?;
        let cost = profile.brackets_after(p).max(1);
        if self.fit_paid_at != Some(p) {
            self.profile_budget = self.profile_budget.checked_sub(cost * readings)?;
            self.fit_paid_at = Some(p);
        }
        let kinds: Vec<bool> = self.stack[..open]
            .iter()
            .map(|f| matches!(f, Frame::Object { .. }))
            .collect();
        Some(profile.fit(p, &kinds))
    }

    /// At the `]` of a list that is an object member's value: whether a list follows it where
    /// a key belongs (`"k": ["a"], ["b"], "n": 1`), which no key names. It goes on the list
    /// before it, as the closer here and its opener are stray (json_repair reads it so); the
    /// opener is marked to be skipped.
    fn list_goes_on(&mut self, next: &Following) -> bool {
        let depth = self.stack.len();
        let goes_on = next.run == 0
            && self.bytes.get(next.token) == Some(&b'[')
            && matches!(
                self.stack[depth - 1],
                Frame::Array {
                    alt_closer: None,
                    ..
                }
            )
            && matches!(self.stack[depth - 2], Frame::Object { .. });
        if goes_on {
            self.list_goes_on = Some(next.token);
        }
        goes_on
    }

    /// Whether the closer at `self.pos` is stray by the layout ([`layout_says_stray`]), the
    /// token after it at `token`, and the text holds more closers than openers.
    fn layout_says_stray(&mut self, token: usize) -> bool {
        if self.excess_closers == Some(false) {
            return false;
        }
        let depth = self.stack.len();
        let start = |frame: &Frame<'a, B>| match frame {
            Frame::Array { start, .. } | Frame::Object { start, .. } => *start,
        };
        let innermost = start(&self.stack[depth - 1]);
        let outer = depth.checked_sub(2).map(|i| start(&self.stack[i]));
        layout_says_stray(self.bytes, self.pos, token, innermost, outer)
            && self.has_excess_closers()
    }

    /// Whether the text parsed holds more closing brackets than opening ones (lexically, see
    /// [`balance`]): then some closer is stray. Counted once per parse, when first asked.
    fn has_excess_closers(&mut self) -> bool {
        *self
            .excess_closers
            .get_or_insert_with(|| balance::net(self.bytes, self.start, self.end) > 0)
    }

    /// A closer whose kind does not match the innermost container: it closes only that one,
    /// closes down to the container of its kind, or is stray. The reading chosen is the one
    /// the rest of the text fits best: no container closed while members still follow it, and
    /// as few left open (or closers left over) as possible. Without a profile, the local rule:
    /// the innermost only when more input follows, else down to its kind, else stray.
    fn mismatched_closer(&mut self, matching: Option<usize>) -> Closing {
        let depth = self.stack.len();
        let next = self.following(self.pos + 1);
        if let Some(next) = &next {
            // `"type": "x"]},\n    "span": 3` (the next member laid out as the object's
            // own), `[{"a": 1, "b": 2]}, "c": 3}, {"a": 4}]`.
            if self.layout_says_stray(next.token) || self.record_goes_on(next) {
                return Closing::Skip;
            }
        }
        let continues = self.input_continues_after(self.pos + 1);
        let local = match matching {
            None => Closing::Skip,
            Some(t) if t + 1 < depth && continues => Closing::Innermost,
            Some(t) => Closing::Through(t),
        };
        let open = |reading: Closing| match reading {
            Closing::Skip => depth,
            Closing::Innermost => depth - 1,
            Closing::Through(t) => t,
        };
        let readings: Vec<Closing> = [local, Closing::Innermost, Closing::Skip]
            .into_iter()
            .chain(matching.map(Closing::Through))
            .collect();
        let mut misfits = Vec::with_capacity(readings.len());
        for &reading in &readings {
            let stray = usize::from(reading == Closing::Skip);
            let misfit = match self.fit_after(self.pos + 1, open(reading), readings.len()) {
                Some(fit) => (fit.early, fit.strays + stray, fit.open),
                None => {
                    // No budget left for reading the rest by kind: by counts, or locally.
                    let Some(rest) = self.rest_after(self.pos + 1) else {
                        return local;
                    };
                    let open = open(reading);
                    let early = if open == 0 {
                        continues
                    } else {
                        rest.overcloses(open)
                    };
                    (
                        usize::from(early),
                        0,
                        (rest.net - open as isize).unsigned_abs(),
                    )
                }
            };
            misfits.push(misfit);
        }
        let least = misfits.iter().min();
        let tied: Vec<usize> = (0..readings.len())
            .filter(|&i| Some(&misfits[i]) == least)
            .collect();
        // Of readings the rest fits equally, the first where the token after the `,` can
        // come next in the container left innermost (`["x"}, "y"]`: an item, where only the
        // array reads on).
        let best = match (tied.as_slice(), &next) {
            (&[one], _) => one,
            (_, Some(next)) if next.run == 0 => (tied.iter().copied())
                .find(|&i| {
                    open(readings[i])
                        .checked_sub(1)
                        .is_some_and(|index| self.token_fits(index, next.token))
                })
                .unwrap_or(tied[0]),
            _ => tied.first().copied().unwrap_or(0),
        };
        match next.filter(|next| next.run > 0) {
            Some(next) => self.wrong_closer_run(&next, readings[best], misfits[best]),
            None => readings[best],
        }
    }

    /// A closer of the wrong kind with a run of closers after it: `reading`, the best of the
    /// readings of it alone (`misfit` says how the rest fits it), or this closer stray and the
    /// run after it read in turn, or the whole run stray, whichever the rest fits best.
    fn wrong_closer_run(
        &mut self,
        next: &Following,
        reading: Closing,
        misfit: (usize, usize, usize),
    ) -> Closing {
        let depth = self.stack.len();
        // This closer stray and the run after it read in turn (`true]}}, "d"` in an object in
        // an object: the `}` closes, the `]` and the other `}` are stray).
        let (k, strays) = self.run_in_turn(next, depth - 1, 0);
        let in_turn = (k > 0).then_some(()).and_then(|()| {
            let fit = self.fit_after(next.run_end, depth - k, 2)?;
            Some(((fit.early, fit.strays + 1 + strays.len(), fit.open), strays))
        });
        // `"def"]}, "timeout": ..`: this closer and the run after it, all stray.
        let all_stray = (self.fit_after(next.run_end, depth, 2))
            .map(|fit| (fit.early, fit.strays + next.run + 1, fit.open));
        match (in_turn, all_stray) {
            (Some((turn, strays)), _)
                if turn < misfit && all_stray.is_none_or(|all| turn < all) =>
            {
                self.closer_plan = Some((self.pos + 1, next.run_end, strays));
                Closing::Skip
            }
            (_, Some(all)) if all < misfit => {
                self.stray_run = Some((self.pos, next.run_end));
                Closing::Skip
            }
            _ => reading,
        }
    }

    /// After a closer at `at - 1`: the run of closers that follows, then a `,` (or a quoted
    /// key, its comma missing) and the token after it; `None` when no such token follows
    /// within `KEY_LOOKAHEAD` bytes.
    fn following(&mut self, at: usize) -> Option<Following> {
        // Inside a run of closers already found to run past the lookahead, every closer's
        // answer is the same: none follows. Keeps a long run linear.
        if let Some((from, until)) = self.closer_run {
            if at >= from && at + string::KEY_LOOKAHEAD <= until {
                return None;
            }
        }
        let stack = &self.stack;
        let object = |i: usize| matches!(stack[i], Frame::Object { .. });
        let (next, run_until) = self.following_scan(at, self.stack.len(), object);
        if let Some(until) = run_until {
            self.closer_run = Some((at, until));
        }
        next
    }

    /// [`Self::following`] with `depth` containers open, `object(i)` saying whether the one
    /// at stack index `i` is an object.
    fn following_in(
        &self,
        at: usize,
        depth: usize,
        object: impl Fn(usize) -> bool,
    ) -> Option<Following> {
        self.following_scan(at, depth, object).0
    }

    /// [`Self::following_in`], and where the run of closers reached when it ran to the end of
    /// the lookahead.
    fn following_scan(
        &self,
        at: usize,
        depth: usize,
        object: impl Fn(usize) -> bool,
    ) -> (Option<Following>, Option<usize>) {
        let limit = (at + string::KEY_LOOKAHEAD).min(self.end);
        let Run {
            run,
            fitting,
            run_end,
            next: i,
        } = closer_run(self.bytes, at, limit, depth, object);
        if i >= limit {
            if run == 0 {
                return (None, None);
            }
            // How far the run goes on, a few lookaheads ahead: the closers up to there
            // answer the same, without scanning again.
            let far = (at + 4 * string::KEY_LOOKAHEAD).min(self.end);
            let mut until = space::skip_space_comments(self.bytes, i, far);
            while until < far && matches!(self.bytes[until], b'}' | b']') {
                until = space::skip_space_comments(self.bytes, until + 1, far);
            }
            return (None, Some(until));
        }
        let token = match self.bytes.get(i) {
            Some(b',') => space::skip_space_comments(self.bytes, i + 1, limit),
            Some(0xEF) if self.fullwidth_at(i) == Some(b',') => {
                space::skip_space_comments(self.bytes, i + crate::lex::FULLWIDTH_LEN, limit)
            }
            // `{"a": 1}\n"b": 2}`: the comma is missing too.
            _ if self.quoted_key_at(i) => i,
            _ => return (None, None),
        };
        let next = (token < limit).then_some(Following {
            run,
            fitting,
            run_end,
            token,
        });
        (next, None)
    }

    /// Whether the token at `at` can come next in the container at stack index `index`: a key
    /// in an object, anything but a key in an array.
    fn token_fits(&self, index: usize, at: usize) -> bool {
        match self.stack[index] {
            Frame::Object { .. } => self.looks_like_key(at),
            Frame::Array { .. } => !self.looks_like_whole_key(at),
        }
    }

    /// The root's closer is followed by a `,` and `token`: whether the text goes on in its
    /// syntax. For an object, a quoted key with its `:` (`{"a": 1}, "b": 2}`); for an array,
    /// a value, when a closer is left over later to end the array (`[1, 2], 3]`), since two
    /// arrays in a row are also written with a comma between them.
    fn root_reads_on(&mut self, token: usize) -> bool {
        let rest = &self.bytes[token..self.end];
        match self.stack[0] {
            Frame::Object { .. } => self.quoted_key_at(token),
            Frame::Array { .. } => {
                !matches!(rest.first(), None | Some(b',' | b':' | b'}' | b']'))
                    && !self.quoted_key_at(token)
                    && self
                        .rest_after(self.pos + 1)
                        .is_some_and(|rest| rest.net >= 1)
            }
        }
    }

    /// Whether the object at stack index `index` has the key starting at `at` among its first
    /// keys.
    fn record_has_key(&self, index: usize, at: usize) -> bool {
        match &self.stack[index] {
            Frame::Object { first_keys, .. } => first_keys.contains(self.key_text(at)),
            Frame::Array { .. } => false,
        }
    }

    /// The text of the key starting at `at` as written (without its quotes), for comparing.
    fn key_text(&self, at: usize) -> &[u8] {
        let rest = &self.bytes[at..self.end];
        match string::opening_quote(rest) {
            Some((_, len)) => {
                let body = &rest[len..rest.len().min(string::KEY_LOOKAHEAD)];
                // A typographic quote starts with 0xE2, like its closer.
                let stop = rest[0];
                let close = body
                    .iter()
                    .position(|&b| b == stop || b == b'\\')
                    .unwrap_or(body.len());
                &body[..close]
            }
            None => {
                let len = rest
                    .iter()
                    .take_while(|&&b| crate::lex::is_key_byte(b))
                    .count();
                &rest[..len]
            }
        }
    }

    /// What the text from `p` to the end holds, as brackets (see [`balance`]). `None` once
    /// rebuilding the profile would overspend its budget.
    pub(super) fn rest_after(&mut self, p: usize) -> Option<Rest> {
        if let Some(profile) = &self.profile {
            if profile.covers(p) {
                return Some(profile.rest(p));
            }
        }
        self.profile_budget = self
            .profile_budget
            .checked_sub(self.end.saturating_sub(p))?;
        let profile = Profile::build(self.bytes, p, self.end);
        let rest = profile.rest(p);
        self.profile = Some(profile);
        Some(rest)
    }
}

#[cfg(test)]
mod tests {
    use super::{closer_by_rule, plainly_closes};

    /// A small JSON document from `seed`, laid out on one line or indented, with now and then
    /// a key in the place of an item or an item in the place of a member (damage the rule
    /// must judge).
    fn document(seed: &mut u64, depth: usize, out: &mut String, indent: Option<usize>) {
        fn below(seed: &mut u64, n: u64) -> u64 {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (*seed >> 33) % n
        }
        let pick = below(seed, 6);
        let line = |out: &mut String, level: usize| match indent {
            Some(step) => {
                out.push('\n');
                out.push_str(&" ".repeat(step * level));
            }
            None => out.push(' '),
        };
        if depth == 0 || pick < 2 {
            out.push_str(["1", "\"x\"", "true", "null", "-2.5"][below(seed, 5) as usize]);
            return;
        }
        let object = pick.is_multiple_of(2);
        out.push(if object { '{' } else { '[' });
        let n = below(seed, 4);
        for i in 0..n {
            if i > 0 {
                out.push(',');
            }
            line(out, 4 - depth);
            let keyed = object != (below(seed, 12) == 0);
            if keyed {
                out.push_str(
                    ["\"a\": ", "\"long_key_1\": ", "\"b\":", "\"é\": "][below(seed, 4) as usize],
                );
            }
            document(seed, depth - 1, out, indent);
        }
        if below(seed, 8) == 0 {
            out.push(',');
        }
        out.push(if object { '}' } else { ']' });
    }

    /// Wherever the quick answer says a closer closes as written, the rule says so too, on
    /// the text so far at every length and on the whole text.
    #[test]
    fn the_quick_answer_is_the_rule_s() {
        let mut seed = 7;
        let mut quick = 0;
        for n in 0..600 {
            let mut text = String::new();
            let indent = [None, Some(2), Some(4)][n % 3];
            document(&mut seed, 4, &mut text, indent);
            let bytes = text.as_bytes();
            let mut kinds: Vec<(bool, usize)> = Vec::new();
            let mut in_string = false;
            for (at, &b) in bytes.iter().enumerate() {
                match b {
                    b'"' => in_string = !in_string,
                    _ if in_string => {}
                    b'{' | b'[' => kinds.push((b == b'{', at)),
                    b'}' | b']' => {
                        let depth = kinds.len();
                        if depth >= 2 {
                            let object = |i: usize| kinds[i].0;
                            let start = |i: usize| kinds[i].1;
                            for end in (at + 1..=bytes.len()).filter(|e| text.is_char_boundary(*e))
                            {
                                let so_far = &text[..end];
                                if plainly_closes(so_far.as_bytes(), at, depth, &object) {
                                    quick += 1;
                                    let ended = end == bytes.len();
                                    assert_eq!(
                                        closer_by_rule(so_far, at, depth, object, start, ended),
                                        Some(super::Closer::AsWritten),
                                        "{so_far:?} at {at}"
                                    );
                                }
                            }
                        }
                        kinds.pop();
                    }
                    _ => {}
                }
            }
        }
        assert!(quick > 1000, "{quick} closers answered quickly");
    }
}
