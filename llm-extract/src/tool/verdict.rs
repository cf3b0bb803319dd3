//! Which calls found in a reply are returned as calls, which are reported and which are
//! refused: the rules of the table in the [module documentation](super#what-is-a-call), in one
//! place for the whole read and the stream.
//!
//! The handlers say what each format's text holds; [`annotate`] adds what depends on the text
//! around a call (its repairs, whether it stands in a sentence, whether it echoes the call
//! before it), and [`verdict`] decides.

use super::wire::{Hit, Region};
use super::{source, Format, ToolSettings};
use crate::lex::{self, Quote};
use crate::locate::lead;
use crate::report::{Repair, RepairKind};
use crate::span::Span;

/// What becomes of a call found in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// A call: returned.
    Call,
    /// Cut off (or left unclosed): reported in `Reply::incomplete`, returned only when the
    /// caller allows calls cut off.
    CutOff,
    /// Whole, but read only by guessing: reported in `Reply::doubtful`, returned only when
    /// the caller allows doubtful calls.
    Doubtful,
    /// Not a call of this reply, and why: reported in `Reply::rejected`, never returned.
    Refused(String),
}

/// What becomes of `hit` under `settings`.
pub(crate) fn verdict(hit: &Hit, settings: ToolSettings) -> Verdict {
    let name = &hit.call.name;
    if settings.formats & hit.format.bit() == 0 {
        let why = format!("the {} format is not enabled on this Extractor", hit.format);
        return Verdict::Refused(why);
    }
    match hit.region {
        Region::ClosedReasoning => {
            return Verdict::Refused(format!(
                "a call to `{name}` written inside a closed reasoning block (a draft, not a call)"
            ))
        }
        Region::AfterTurn => {
            return Verdict::Refused(format!(
            "a call to `{name}` written after the assistant's turn ended (not the model's reply)"
        ))
        }
        Region::Answer | Region::OpenReasoning => {}
    }
    if let Some(why) = &hit.refused {
        return Verdict::Refused(why.clone());
    }
    if !crate::coerce::is_tool_name(name) {
        return Verdict::Refused(format!(
            "{:?} is not written as a tool name (letters, digits, `_`, `-` and `.`)",
            crate::error::shorten(name, 40)
        ));
    }
    if !hit.complete {
        return Verdict::CutOff;
    }
    if hit.call.repairs.iter().any(|r| r.kind.is_guess()) {
        return Verdict::Doubtful;
    }
    Verdict::Call
}

/// A guessing repair in words, for messages.
pub(crate) fn describe(kind: RepairKind) -> &'static str {
    use RepairKind::*;
    match kind {
        UnquotedString => "a bare word was read as a string",
        UnquotedKey | SentenceKey => "a bare word was read as a key",
        MissingValue => "a member has no value",
        MissingColon => "a key and its value had no `:` between them",
        MissingQuote | UnescapedQuote => "where a string ends was chosen by what follows it",
        WrongBracket | MissingOpeningBracket | StrayBracket | MissingBracket => {
            "where a container ends was chosen by what follows it"
        }
        SkippedText | NestedValue => "text that could not be read was skipped",
        NonFiniteNumber => "a number JSON cannot hold (NaN, Infinity, 1e400) was read as null",
        DigitSeparator => "a number was read across a separator",
        DuplicateKey => "a key was written twice (the later value was kept)",
        _ => "the text was read by a guess",
    }
}

/// Adds to each hit what depends on the text around it: its repairs; a call otherwise
/// whole whose reading needed only its last closers, before the format's own closer, is
/// complete; a call that runs to the end of the text, where a string or container end was
/// chosen by lookahead, was cut off there (more text may read it otherwise: a stream
/// waits); a call written inside a sentence, and
/// an echo of the call just before it, are refused.
///
/// `before` is the text that came before `text` in the reply (a stream reads only the text
/// after its settled point): the rules that look back read it too.
///
/// `standalone` says whether a call written on its own (on its own line, in a fence or in its
/// format's tokens) came before `text`: a JSON call in prose after one is a mention.
///
/// A call already refused (its markup inside another call's argument string) is left as it
/// is.
pub(crate) fn annotate(
    text: &str,
    before: &str,
    hits: &mut [Hit],
    max_depth: usize,
    mut standalone: bool,
) {
    source::add_repairs(text, hits, max_depth);
    // The end of the last call kept that was written on its own, and where its line's run of
    // calls begins.
    let mut chain: Option<(usize, usize)> = None;
    for hit in hits.iter_mut() {
        // Refused by where its markup stands (inside another call's argument string).
        if hit.refused.is_some() {
            continue;
        }
        let value_end = judge_complete(text, hit);
        doubt_after_cut_string(hit);
        let (start, end) = (
            hit.frame.start.min(hit.span.start),
            hit.frame.end.max(hit.span.end),
        );
        if let Some(why) = set_apart(before, text, hit, start, end) {
            hit.refused = Some(format!("a call to `{}` {why}", hit.call.name));
            continue;
        }
        // A JSON call right after one written on its own, only a `;` between them (Llama 3's
        // parallel calls), stands where that one does.
        let line_start = (chain.filter(|_| hit.format == Format::Json))
            .filter(|(prev_end, _)| *prev_end <= start && text[*prev_end..start].trim() == ";")
            .map_or(start, |(_, first)| first);
        let end = words_after_value(text, value_end, end);
        judge_prose(before, text, hit, line_start, end, &mut standalone);
        chain = (hit.refused.is_none() && hit.on_its_own).then_some((hit.span.end, line_start));
    }
    for i in 1..hits.len() {
        if hits[i].refused.is_none()
            && hits[i - 1].refused.is_some()
            && run_on(text, &hits[i - 1], &hits[i])
        {
            hits[i].refused = Some(format!(
                "a call to `{}` written in one run with a refused call before it, a `;` between them",
                hits[i].call.name
            ));
            continue;
        }
        if echoes(text, &hits[i - 1], &hits[i]) {
            hits[i].refused = Some(format!(
                "an echo of the call to `{}` just before it",
                hits[i].call.name
            ));
        }
    }
}

/// Whether the call `hit`, whose text (or the run of calls it ends, on its line) begins at
/// `start` and whose words after it are looked for from `end`, stands in the prose: a JSON
/// call in prose after a call written on its own is a mention, a call inside a sentence
/// is one, and a call prose comes before on a line the text has not ended waits for the end
/// ([`Hit::until_end`]). `standalone` says whether a call written on its own came before.
fn judge_prose(
    before: &str,
    text: &str,
    hit: &mut Hit,
    start: usize,
    end: usize,
    standalone: &mut bool,
) {
    // `TOOL_CALL {...}` is written in prose by design: only a sentence it stands in, the
    // words before it on its line and after it, makes it a mention.
    if hit.format == Format::Marker && sentence_ended_before(before, text, start) {
        return;
    }
    if hit.format != Format::Marker {
        // The block it is written in stands in the sentence, or not.
        let in_prose = prose_before(before, text, start);
        if hit.format == Format::Json && in_prose && *standalone {
            // A call written on its own, then `Next I might run {...}.`: a mention.
            hit.refused = Some(format!(
                "a call to `{}` written in the prose after a call written on its own (a mention, not a call)",
                hit.call.name
            ));
            return;
        }
        hit.on_its_own = hit.format != Format::Json || !in_prose;
        *standalone |= hit.on_its_own;
    }
    match sentence(before, text, start, end, hit.complete) {
        Sentence::Inside => {
            hit.refused = Some(format!(
                "a call to `{}` written inside a sentence (a mention, not a call)",
                hit.call.name
            ))
        }
        Sentence::MayContinue => hit.until_end = true,
        Sentence::Outside => {}
    }
}

/// Whether the call `hit` is complete, as its repairs and the text after its value say (see
/// [`annotate`]); where its value ends.
fn judge_complete(text: &str, hit: &mut Hit) -> usize {
    let value_end = source::value_end(&hit.call).unwrap_or(hit.span.end);
    let truncated = |hit: &Hit| hit.call.repairs.iter().any(|r| r.kind.is_truncation());
    let only_closers = !hit
        .call
        .repairs
        .iter()
        .any(|r| r.kind.is_truncation() && r.kind != RepairKind::TruncatedContainer);
    let after_value = &text[value_end.min(hit.span.end)..hit.span.end];
    let closed_after = closed_after_value(after_value);
    // A run of backticks whose line the text has not ended yet: more text on that line
    // cuts the value off there instead (a stream waits for the line to end).
    if closed_after && hit.span.end == text.len() && run_line_open(after_value) {
        hit.until_end = true;
    }
    if !hit.complete && !hit.call.cut_off && truncated(hit) && only_closers && closed_after {
        hit.complete = true;
    }
    // The end of the text came inside a string, key or literal of the call's reading
    // (members read back in after its closer, `{..}"` then the end): cut off there.
    let cut_inside = hit.call.repairs.iter().any(|r| {
        matches!(
            r.kind,
            RepairKind::TruncatedString | RepairKind::TruncatedKey | RepairKind::TruncatedLiteral
        )
    });
    if cut_inside {
        hit.complete = false;
    }
    let end_guessed = hit.call.repairs.iter().any(|r| ends_by_lookahead(r.kind));
    if hit.complete && end_guessed && text[value_end.min(text.len())..].trim().is_empty() {
        hit.complete = false;
    }
    value_end
}

/// Whether `after`, the text of a call's span after its value, closes the call: there is
/// some (the format's closer, or the next token), and it is not a run of backticks with more
/// text on its line. The parser ends a value at such a run as at the end of the text (a
/// fence closing on it); one the line goes on after (`` {"name": "rm", ```"arguments": {..``)
/// closes no fence, and the value is cut off there, not closed.
fn closed_after_value(after: &str) -> bool {
    let after = after.trim_start();
    let Some(run) = after.strip_prefix("```") else {
        return !after.is_empty();
    };
    let line = run.trim_start_matches('`').split('\n').next().unwrap_or("");
    line.trim().is_empty()
}

/// Whether `after` begins with a run of backticks whose line does not end in it.
fn run_line_open(after: &str) -> bool {
    after.trim_start().starts_with("```") && !after.trim_start().contains('\n')
}

/// A call begun right after a JSON string a line break cut, in the value that string is in
/// (`"content": "Example:` then a call on the next line, its quotes unescaped): read as a
/// call only by taking the string to end at the break, where the writer may have meant it to
/// run on over the call. It is doubtful (a guess at where that string ends), never run by
/// default, whole or streamed: the scan marks it ([`Hit::after_cut_string`]) in the read of
/// the whole text and in every read of a stream alike.
fn doubt_after_cut_string(hit: &mut Hit) {
    if let Some(brk) = hit.after_cut_string {
        let repair = Repair::new(RepairKind::MissingQuote, Span::new(brk, brk + 1));
        hit.call.repairs.insert(0, repair);
    }
}

/// Why the text around the call that spans `start..end` sets it apart from the calls to run,
/// if it does: a code block announced as an example, a block quote, a clause that says not to
/// make it, a code fence the sentence goes on after. A call in a fence whose closing line has
/// not ended is marked to wait for it ([`Hit::until_end`]).
fn set_apart(
    before: &str,
    text: &str,
    hit: &mut Hit,
    start: usize,
    end: usize,
) -> Option<&'static str> {
    if in_example(before, text, start) {
        return Some("in a code block the text before it calls an example");
    }
    if quoted(before, text, start) {
        return Some("quoted in a block quote (someone else's words, not a call)");
    }
    if after_argument_string(before, text, start)
        || after_argument_string(before, text, hit.span.start)
    {
        return Some("written right after an argument string's quote (inside that string, its quote damaged)");
    }
    if in_open_argument_string(before, text, start)
        || in_open_argument_string(before, text, hit.span.start)
    {
        return Some("written inside an argument string of the pythonic call its line begins, not closed before it (that string's text)");
    }
    if negated_before(before, text, start) {
        return Some("the text before it says not to make (a mention, not a call)");
    }
    if in_fence(before, text, start) {
        match fence_in_sentence(text, end) {
            Some(true) => {
                return Some("in a code block the sentence goes on after (a mention, not a call)")
            }
            None => hit.until_end = true,
            Some(false) => {}
        }
    }
    None
}

/// Whether a repair chose where a string or container ends by what follows it: at the end
/// of the text, that is where the text was cut off.
fn ends_by_lookahead(kind: RepairKind) -> bool {
    use RepairKind::*;
    matches!(
        kind,
        MissingQuote | UnescapedQuote | WrongBracket | MissingBracket | StrayBracket
    )
}

/// Words that announce an example, lowercase.
const EXAMPLE_CUES: [&str; 9] = [
    "example",
    "e.g.",
    "for instance",
    "such as",
    "looks like",
    "would look",
    "like this",
    "sample",
    "format",
];

/// How far before a call the fence and the line announcing it are looked for: a bounded
/// look-back keeps the check constant per call.
const EXAMPLE_LOOKBACK: usize = 600;

/// Whether the call at `start` opens a fenced code block (its line holds only the fence's
/// opener, or the opener is on the line before) whose preceding line announces an example
/// (`For example:`, `a call looks like this:`).
fn in_example(earlier: &str, text: &str, start: usize) -> bool {
    let window = window_before(earlier, text, start, EXAMPLE_LOOKBACK);
    let mut lines = window.rsplit('\n');
    let own = lines.next().unwrap_or_default().trim();
    let fence = if own.starts_with("```") {
        own
    } else if own.is_empty() {
        lines.next().unwrap_or_default().trim()
    } else {
        return false;
    };
    if !fence.starts_with("```") {
        return false;
    }
    // A fence opened right inside another (an example block holding a `json` fence) is
    // announced by the line before the outer one.
    lines
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("```"))
        .map(str::to_lowercase)
        .is_some_and(|l| EXAMPLE_CUES.iter().any(|cue| l.contains(cue)))
}

/// The last `n` bytes or so before `start` (whole characters), reaching back into `earlier`
/// (the text before `text`, for a stream) where `text` holds fewer: what the rules that look
/// back at a call's line and the lines before it read, a bounded stretch per call.
fn window_before(earlier: &str, text: &str, start: usize, n: usize) -> String {
    let mut from = start.saturating_sub(n);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let mut window = text[from..start].to_string();
    if window.len() < n {
        let mut at = earlier.len().saturating_sub(n - window.len());
        while !earlier.is_char_boundary(at) {
            at += 1;
        }
        window.insert_str(0, &earlier[at..]);
    }
    window
}

/// How far before a call the line of a string it follows is read: the check stays constant
/// per call.
const STRING_LOOKBACK: usize = 600;

/// Whether the call at `start` follows, after spaces and line breaks only, the closing quote
/// of a string written as an argument (`q="say "`, `"q": "say "`, `[search(q='a'`): in
/// Python and JSON argument syntax a string's quote is followed by `,` `)` `]` `}` `:` or a
/// space, never by a call. The writer meant the quote as text and the call as the string's,
/// so it is not run (the outer call, its string never closed where it should, is reported
/// cut off or doubtful, not run either).
fn after_argument_string(earlier: &str, text: &str, start: usize) -> bool {
    let window = window_before(earlier, text, start, STRING_LOOKBACK);
    let window = window.trim_end_matches(|c: char| c.is_whitespace());
    if !window.ends_with(['"', '\'']) {
        return false;
    }
    let line = window.rsplit('\n').next().unwrap_or_default();
    last_string_is_argument(line.as_bytes())
}

/// Whether the call at `start` stands inside a keyword argument's string of a pythonic call,
/// opened on the nearest line with text before the call (the call's own line, or the line
/// before) and not closed there: `search(q='say <tool_call>...`, or `search(q='say` with the
/// call on the next line. Models drop a call list's brackets, and a call without them is
/// read only when it is all the text around it, so the tokens in its string would otherwise
/// be read as calls. (A JSON string a line break cut is the scan's to judge.)
fn in_open_argument_string(earlier: &str, text: &str, start: usize) -> bool {
    let window = window_before(earlier, text, start, STRING_LOOKBACK);
    let line = window.trim_end().rsplit('\n').next().unwrap_or_default();
    last_string(line.as_bytes())
        .is_some_and(|s| s.open && s.before == b'=' && s.before2 == b'a' && s.depth > 0)
}

/// Whether `line`, which ends with a quote, ends inside or at the close of a string written
/// where an argument's value goes: after `=` following a name, `:` following a key, or `:`, `(`, `[`, `{`
/// or `,` inside brackets opened on the line. An apostrophe inside a word opens no
/// string.
fn last_string_is_argument(line: &[u8]) -> bool {
    last_string(line).is_some_and(|s| is_argument_place(s.before, s.before2, s.depth))
}

/// The string `line` ends inside or at the close of: what came before its opening quote.
#[derive(Clone, Copy)]
struct LastString {
    /// The significant byte before the opening quote (`a` for a name's, `"` for a string's),
    /// and the one before that.
    before: u8,
    before2: u8,
    /// How deep in brackets opened on the line the string opened.
    depth: usize,
    /// The line ends inside it (not at its closing quote).
    open: bool,
}

/// The string `line` ends inside or at the close of (see [`last_string_is_argument`]), if
/// any.
fn last_string(line: &[u8]) -> Option<LastString> {
    let mut depth = 0usize;
    // The significant byte before the string being read, and before that one.
    let (mut prev, mut prev2) = (0u8, 0u8);
    let mut string: Option<(u8, u8, u8, usize)> = None;
    let mut i = 0;
    while i < line.len() {
        if let Some((quote, before, before2, at_depth)) = string {
            let Some(close) = Quote::ascii(quote)
                .and_then(|q| lex::string_close(line, i, line.len(), q).ok())
                .map(|(close, _)| close)
            else {
                break;
            };
            string = None;
            if close + 1 == line.len() {
                return Some(LastString {
                    before,
                    before2,
                    depth: at_depth,
                    open: false,
                });
            }
            (prev2, prev) = (prev, b'"');
            i = close + 1;
            continue;
        }
        let b = line[i];
        match b {
            b'"' | b'\'' if b == b'"' || !prev_is_word(line, i) => {
                string = Some((b, prev, prev2, depth));
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if string.is_none() && !b.is_ascii_whitespace() {
            (prev2, prev) = (
                prev,
                if b.is_ascii_alphanumeric() || b == b'_' {
                    b'a'
                } else {
                    b
                },
            );
        }
        i += 1;
    }
    // The line's last quote opened a string or was escaped in one (`"arguments": "{\"q\":
    // \"say \"`): the call is inside that string.
    string.map(|(_, before, before2, depth)| LastString {
        before,
        before2,
        depth,
        open: true,
    })
}

/// Whether the byte before `i` is a letter or digit (an apostrophe in a word: `it's`).
fn prev_is_word(line: &[u8], i: usize) -> bool {
    i > 0 && line[i - 1].is_ascii_alphanumeric()
}

/// Whether a string opened after `before` (and `before2` before it; `a` for a name, `"` for
/// a string), at bracket `depth`, stands where an argument's value goes.
fn is_argument_place(before: u8, before2: u8, depth: usize) -> bool {
    match before {
        b'=' => before2 == b'a',
        b':' => before2 == b'"' || depth > 0,
        b'(' | b'[' | b'{' | b',' => depth > 0,
        _ => false,
    }
}

/// Whether the call at `start` is in a code fence opened on its line or on the line before
/// it (a run of three or more backticks and at most an info word after it).
fn in_fence(earlier: &str, text: &str, start: usize) -> bool {
    let window = window_before(earlier, text, start, NEGATION_LOOKBACK);
    let mut lines = window.rsplit('\n');
    let own = lines.next().unwrap_or_default();
    let opener = match own.trim() {
        "" => lines.next().unwrap_or_default().trim_end(),
        _ => own.trim_end(),
    };
    opener
        .rsplit_once("```")
        .is_some_and(|(_, info)| !info.contains(char::is_whitespace))
}

/// Whether the fence a call is in closes, at the call's `end` (a frame that holds its closer)
/// or after it and only spaces and line breaks, with a run followed on its line by a space and
/// words (`{...}` then ```` ``` but I won't. ````): the code block stands in a sentence. A run
/// with words right after it opens the next fence (```` ```tool_code ````). `None` while the
/// text ends before that line does (a stream: more text decides).
fn fence_in_sentence(text: &str, end: usize) -> Option<bool> {
    let end = end.min(text.len());
    let closed = text.as_bytes()[..end].ends_with(b"```");
    let after_run = if closed {
        &text[end..]
    } else {
        let rest = text[end..].trim_start();
        let run = rest.bytes().take_while(|&b| b == b'`').count();
        if rest.len() == run {
            return None;
        }
        if run < 3 {
            return Some(false);
        }
        &rest[run..]
    };
    let line = after_run.trim_start_matches([' ', '\t']);
    if !closed && line.len() == after_run.len() && !line.is_empty() {
        // Words right after the run: an info string, so the run opens a fence.
        return Some(false);
    }
    line.chars().next().map(char::is_alphanumeric)
}

/// Whether the call at `start` is quoted in a markdown block quote (the user's message or an
/// earlier turn, quoted back): its line starts with `>`, or it starts its line right after a
/// fence or a wrapper token opened on such a line (`> ```json` or `> <minimax:tool_call>`,
/// then the call).
fn quoted(earlier: &str, text: &str, start: usize) -> bool {
    let window = window_before(earlier, text, start, NEGATION_LOOKBACK);
    let mut lines = window.rsplit('\n');
    let own = lines.next().unwrap_or_default();
    if lead::quote_line(own.as_bytes()) {
        return true;
    }
    if !own.trim().is_empty() {
        return false;
    }
    let opener = lines.next().unwrap_or_default().trim();
    lead::quote_line(opener.as_bytes()) && (opener.contains("```") || opener.ends_with(['>', ']']))
}

/// Where a call stands relative to the prose of its line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sentence {
    /// Prose before it and after it on its line: a mention.
    Inside,
    /// Prose before it, and the text ends on its line: more text may make it a mention.
    MayContinue,
    /// On a line of its own, or beside tokens.
    Outside,
}

/// Whether the text at `start..end` stands inside a sentence: words before it on its line
/// (not a token's end), and words after it on its line (punctuation closing the sentence
/// aside).
///
/// A tag left unclosed whose line goes on in words (`in a <tool_call> tag.`, then a line
/// break) is a mention too: the tag runs to the next token, past the end of its sentence.
fn sentence(earlier: &str, text: &str, start: usize, end: usize, complete: bool) -> Sentence {
    if !prose_before(earlier, text, start) {
        return Sentence::Outside;
    }
    // The call's first line, looked for within a bounded stretch (calls of one list share
    // a span: each must not scan all of it).
    let mut upto = end.min(start + 256);
    while !text.is_char_boundary(upto) {
        upto -= 1;
    }
    let call = &text[start..upto];
    if let (false, Some((first, _))) = (complete, call.split_once('\n')) {
        let rest = first.split_once('>').map_or("", |(_, r)| r.trim());
        if !rest.is_empty() && !rest.starts_with(['{', '[', '<', '`']) {
            return Sentence::Inside;
        }
    }
    // The first character after the call that is not a space or a sentence's closing
    // punctuation, up to the end of its line: scanning stops there, so each call costs
    // what lies between it and the next word. Closing tags of the block the call is written
    // in stand with it (`</tool_call>` after a Qwen3-Coder `</function>`, on its line or the
    // next), as does the backtick of inline code around the block.
    let after = after_closing_tags(&text[end.min(text.len())..]);
    // Only spaces, or a closing tag not whole yet, to the end of the text so far: a closing
    // tag and words may still follow (a stream waits; a whole reply ends there).
    let next = after.trim_start();
    let partial_tag = ("</".starts_with(next) || next.starts_with("</")) && !next.contains('>');
    if next.is_empty() || partial_tag {
        return Sentence::MayContinue;
    }
    let first = after
        .char_indices()
        .find(|(_, c)| *c == '\n' || !(c.is_whitespace() || ".,;:!?)".contains(*c)));
    match first {
        None => Sentence::MayContinue,
        Some((_, '\n' | '<' | '[')) => Sentence::Outside,
        Some(_) => Sentence::Inside,
    }
}

/// `after` past the closing tags of a call's wrapper (`</tool_call>`, `</function_calls>`:
/// a name holding `tool`, `call`, `function` or `invoke`) that follow a call, with the spaces
/// and line breaks between them; `after` itself when none does. Other closing tags (the
/// end-of-turn `</s>`) end the block.
fn after_closing_tags(after: &str) -> &str {
    let mut rest = after;
    loop {
        let next = rest.trim_start();
        let name = next
            .strip_prefix("</")
            .and_then(|tag| tag.get(..tag.len().min(64)))
            .and_then(|tag| tag.split_once('>'))
            .map(|(name, _)| name);
        let wrapper = |name: &str| {
            let name = name.to_ascii_lowercase();
            ["tool", "call", "function", "invoke"]
                .iter()
                .any(|w| name.contains(w))
        };
        match name {
            Some(name) if wrapper(name) => rest = &next[2 + name.len() + 1..],
            _ => return rest,
        }
    }
}

/// Where the text after a call begins, for the sentence it may stand in: its end (`end`), or,
/// when the call's span runs on past its value (a body with no closer runs to the next
/// token: `[TOOL_CALLS]f[ARGS]{...} but I won't.`) and words follow the value and its
/// closing brackets on its line, where those words begin; or where the value's line ends,
/// when the span runs on from there over spaces alone (the words of the next line stand in
/// no sentence with the call).
fn words_after_value(text: &str, value_end: usize, end: usize) -> usize {
    if value_end >= end || !text.is_char_boundary(value_end) || end > text.len() {
        return end;
    }
    // The first character after the closers and spaces, looked for within a bounded
    // stretch: each call costs no more than that, however far its span runs.
    let first = text[value_end..end]
        .char_indices()
        .take(256)
        .find(|(_, c)| !matches!(c, '}' | ']' | ' ' | '\t'));
    match first {
        Some((at, c)) if !c.is_whitespace() && !matches!(c, '<' | '[') => value_end + at,
        // The span runs on past the value's line over spaces alone (to the next token): what
        // follows it is on another line.
        Some((at, '\n' | '\r')) if text[value_end + at..end].trim().is_empty() => value_end + at,
        _ => end,
    }
}

/// How far before a call its clause is looked for: the check stays constant per call.
const NEGATION_LOOKBACK: usize = 256;

/// Whether the clause that introduces the call at `start` says not to make it (`I should not
/// run {...}`, `Do NOT call:` or `I refuse to execute:` on the line before, `I won't run
/// ```json`; see [`says_not`]): the clause is [`lead::introducing_clause`]'s, the one the
/// ranking of values reads.
fn negated_before(earlier: &str, text: &str, start: usize) -> bool {
    let window = window_before(earlier, text, start, NEGATION_LOOKBACK);
    let whole = earlier.len() + start <= window.len();
    says_not(lead::introducing_clause(&window, whole))
}

/// Whether a clause says the act it introduces is not done: it holds a negation or a word of
/// refusing ([`lead::negates`], shared with the ranking of values), `no`, or `decline to`,
/// that governs the call ([`governs_the_call`]). What a model writes to show a call it will
/// not make; a clause that introduces a call without one of them (`I'll call:`, `Now I will
/// execute:`) is read as written.
fn says_not(clause: &str) -> bool {
    let words: Vec<String> = clause
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '\u{2019}'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    words.iter().enumerate().any(|(i, w)| {
        let negation = lead::negates(w)
            || w == "no"
            // `decline` alone may be a fall (`the decline in sales:`).
            || w.starts_with("declin") && words.get(i + 1).is_some_and(|next| next == "to");
        negation && governs_the_call(&words, i)
    })
}

/// Whether the negation that is word `i` of a clause's `words` is about the call the clause
/// introduces. A negation in a clause of purpose (`to avoid losing data`, `so as not to fill
/// the disk`, `in order not to`: right after `to`, `as` or `order`) is about what that clause
/// names, unless what it names is the act of calling (`to avoid calling:`); any other negation
/// in the clause is about the call.
fn governs_the_call(words: &[String], i: usize) -> bool {
    let purpose = i > 0 && matches!(words[i - 1].as_str(), "to" | "as" | "order");
    if !purpose {
        return true;
    }
    words[i + 1..]
        .iter()
        .find(|w| !matches!(w.as_str(), "to" | "be" | "from" | "ever" | "accidentally"))
        .is_none_or(|w| CALLING.contains(&w.as_str()))
}

/// Words naming the act of calling a tool, lowercase: what a negation in a clause of purpose
/// must name to be about the call.
const CALLING: [&str; 26] = [
    "call",
    "calls",
    "calling",
    "called",
    "run",
    "runs",
    "running",
    "execute",
    "executes",
    "executing",
    "invoke",
    "invokes",
    "invoking",
    "use",
    "uses",
    "using",
    "trigger",
    "triggering",
    "do",
    "doing",
    "this",
    "that",
    "it",
    "these",
    "those",
    "them",
];

/// Whether the words before `start` on its line, if any, end a sentence or a label (`.`, `!`,
/// `?`, `:`): what comes at `start` begins a new one.
fn sentence_ended_before(earlier: &str, text: &str, start: usize) -> bool {
    let window = window_before(earlier, text, start, NEGATION_LOOKBACK);
    let line = window.rsplit('\n').next().unwrap_or_default().trim_end();
    line.is_empty() || line.ends_with(['.', '!', '?', ':'])
}

/// Whether prose comes before `start` on its line (not a line start, nor a token's end).
fn prose_before(earlier: &str, text: &str, start: usize) -> bool {
    let spaces = [' ', '\t'];
    let last = match text[..start].trim_end_matches(spaces).chars().next_back() {
        Some(c) => Some(c),
        // Bounded: a long run of spaces before the settled point is read as a line start.
        None => {
            let mut from = earlier.len().saturating_sub(256);
            while !earlier.is_char_boundary(from) {
                from += 1;
            }
            earlier[from..].trim_end_matches(spaces).chars().next_back()
        }
    };
    last.is_some_and(|c| !matches!(c, '\n' | '>' | ']'))
}

/// Whether `next` is written right after `prev`, only a `;` between them: Llama 3's parallel
/// calls, which stand (or are set apart) together.
fn run_on(text: &str, prev: &Hit, next: &Hit) -> bool {
    prev.span.end <= next.span.start && text[prev.span.end..next.span.start].trim() == ";"
}

/// Whether `next` repeats `prev` right after its end token (LFM2 and others echo a call as
/// plain text): the same call, found in the text between tokens, with only spaces between.
fn echoes(text: &str, prev: &Hit, next: &Hit) -> bool {
    matches!(next.format, Format::Json | Format::Pythonic)
        && prev.span.end <= next.span.start
        && text[..prev.span.end].ends_with('>')
        && !text[next.span.start..].starts_with('<')
        && text[prev.span.end..next.span.start].trim().is_empty()
        && prev.call.name == next.call.name
        && super::to_tool_call(&prev.call, usize::MAX).arguments
            == super::to_tool_call(&next.call, usize::MAX).arguments
}
