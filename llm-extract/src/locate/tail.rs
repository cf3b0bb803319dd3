//! The values after a region's last fence or tag, found by reading them.
//!
//! Up to its last fence or tag, a region is read by the markup pass's scan, which must say at
//! each of them whether it lies in a string. After that nothing asks, and the scan would only
//! find where values end, which the parser decides anyway when it reads them. So the rest is
//! searched as prose for where a value starts, and each value is read there: strictly when it
//! is valid JSON (by the caller's type on its direct path, or serde_json, either ending it
//! where its brackets do), else by the parser, whose reading says where it ends, as it does
//! for the caller. The search goes on after that end. The caller's own reading (its type read
//! directly, a `serde_json::Value` for `repair`, the tree for a typed reader) is kept, so no
//! value is read twice.
//!
//! Prose after the tail's last closer is left out of what the parser reads: it judges a
//! damaged value partly by how the text ends (whether it ends with the value's closers), and
//! reads the value as written alone, not as a value with a sentence after it.

use super::scan::{self, Place, Seen, Tail};
use crate::parse::{self, Keep, Kept};
use crate::span::Span;

/// How many values of one tail are read this way: each reading may look at the rest of the
/// tail (the bracket profile a damaged closer asks for), so a constant keeps locating linear.
/// The values after them are found by the scan, as before a fence or tag.
const READS_PER_TAIL: usize = 16;

/// A value found in a tail, with the reading that found it when it was kept.
pub(crate) type TailValue<'a> = (Span, Seen, Option<Kept<'a>>);

/// How the values of a tail are read.
#[derive(Clone, Copy)]
pub(crate) struct TailReading<'r> {
    /// What to keep of each value read: the caller's reading of its span.
    pub keep: Keep,
    /// The caller's type, read straight from a value that is strict JSON (its reading ends
    /// the value, and no other reading of it is needed).
    pub typed: Option<&'r dyn ReadTyped>,
    pub max_depth: usize,
    /// A tail longer than this (the caller's `max_payload`) is left to the scan: its values
    /// are refused by size before any is read.
    pub max_len: Option<usize>,
    /// Whether the caller refuses a value cut off by the end of the text (`require_complete`),
    /// and may then look for a complete one inside it.
    pub require_complete: bool,
}

/// A caller's type read from the strict JSON container that opens at `span.start`, kept by
/// the reader for the caller (who takes it when it chooses that value).
pub(crate) trait ReadTyped {
    /// Reads the container, keeps the value, and says where the container ends and whether
    /// it is written as strict JSON (`false` for a stream's reading with repairs of how it is
    /// written, [`Given`](crate::coerce::Given)); `None` when it is neither, or does not fit
    /// the type as written.
    fn read(&self, text: &str, span: Span) -> Option<(usize, bool)>;
    /// Drops the value kept for the container opening at `at`.
    fn forget(&self, at: usize);
}

/// The values in `tail`, which runs to `end`, in text order: each whole value, or the value
/// the text ends in and the complete containers directly inside it.
pub(crate) fn values<'a>(
    text: &'a str,
    tail: Tail,
    end: usize,
    reading: TailReading<'_>,
) -> Vec<TailValue<'a>> {
    if reading.max_len.is_some_and(|max| end - tail.start > max) {
        return scanned(text, tail.start, end);
    }
    let bytes = text.as_bytes();
    let content_end = content_end(bytes, tail.start, end);
    let mut out = Vec::new();
    let mut pos = tail.start;
    let mut reads = 0;
    while pos < content_end {
        let Some(j) = memchr::memchr2(b'{', b'[', &bytes[pos..content_end]) else {
            break;
        };
        let at = pos + j;
        let opens = match bytes[at] {
            b'{' => scan::opens_object(bytes, at, tail.first_text),
            _ => !scan::bracket_in_text(bytes, at),
        };
        if !opens {
            pos = at + 1;
            continue;
        }
        // A document written escaped (`{\"a\": 1}`, or with HTML's `&quot;`) is the content
        // of a string: the scan knows its strings, the parser reads it only once it is decoded.
        let inner = crate::lex::trim_start(&text[at + 1..end]);
        let escaped = inner.starts_with("\\\"") || super::html_quote_len(inner.as_bytes()) > 0;
        let read = if reads < READS_PER_TAIL && !escaped {
            reads += 1;
            let read =
                |to| parse::read_value(text, Span::new(at, to), reading.max_depth, reading.keep);
            match typed_read(text, Span::new(at, content_end), reading)
                .or_else(|| read(content_end))
            {
                // Cut off before what follows on the closer's line (`{"a": [1] b: 2`): that
                // text is the value's, not prose.
                Some(r) if !r.complete && same_line(bytes, content_end, end) => read(end),
                other => other,
            }
        } else {
            None
        };
        let read = match trusted(text, read, at, (content_end, end)) {
            Ok(read) => read,
            // Refused by the parser (too deep), past the reads a tail may make, or closed
            // before its brackets do: the caller reads each value the scan finds.
            Err(found) => {
                out.extend(found);
                break;
            }
        };
        if !read.complete {
            let unclosed = Seen {
                place: Place::Unclosed,
                nonstandard: true,
            };
            let parts = parts_wanted(&read, reading);
            out.push((Span::new(at, end), unclosed, read.kept));
            if parts {
                // The parts a reader may take when the value cut off is not what it wants, as
                // the brackets have them.
                let nested = scan::first_value(text, at, end).into_iter();
                let nested = nested.filter(|(_, seen)| seen.place == Place::Nested);
                out.extend(nested.map(|(span, seen)| (span, seen, None)));
            }
            break;
        }
        let seen = Seen {
            place: Place::TopLevel,
            nonstandard: !read.strict,
        };
        out.push((Span::new(at, read.end), seen, read.kept));
        pos = read.end.max(at + 1);
    }
    out
}

/// Whether the complete containers inside a value cut off by the end of the text are worth
/// finding. A typed reader may take one when the whole does not fit its type. `repair`, which
/// takes any value, reads the whole and then never one of its parts (`select::CutOff`), unless
/// it refuses values cut off (`require_complete`) or its reading found the braces to be prose
/// (keys that are sentences).
fn parts_wanted(read: &parse::Read<'_>, reading: TailReading<'_>) -> bool {
    match &read.kept {
        Some(Kept::Value(value)) if reading.keep == Keep::Value && !reading.require_complete => {
            (value.repairs.iter()).any(|r| r.kind == crate::report::RepairKind::SentenceKey)
        }
        _ => true,
    }
}

/// The caller's type read from the value at `span.start` when it is strict JSON and a value
/// of its own (what [`parse::read_value`] would read strictly, with serde_json): read once,
/// by the reader the caller would read it with.
fn typed_read<'a>(text: &'a str, span: Span, reading: TailReading<'_>) -> Option<parse::Read<'a>> {
    // Below serde_json's own depth limit the strict reading is not tried: nor is this one.
    let typed = reading.typed.filter(|_| reading.max_depth >= 128)?;
    let (end, strict) = typed.read(text, span)?;
    let read = parse::Read {
        end,
        complete: true,
        strict,
        kept: None,
    };
    // A stream's reading with repairs stands for the parser's, judged as the parser's is.
    if !parse::ends_alone(text, Span::new(span.start, end), span.end)
        || closed_early(text, &read, span.end)
    {
        typed.forget(span.start);
        return None;
    }
    Some(read)
}

/// Where the values of `start..end` end: after its last closer when only prose follows it
/// (no quote or bracket, no `,` or `:` first, and no backslash on the closer's line), else at
/// `end`. The parser judges a damaged value by what follows it (whether the text ends with
/// its closers, whether a quote has a member after it), so it reads the value as it reads
/// the value alone, not as a value with a sentence after it. A backslash on the closer's
/// line is an escape of a string the closer is in (`{"code": "f() { x; }\nreturn`, a string
/// cut off), not prose.
pub(crate) fn content_end(bytes: &[u8], start: usize, end: usize) -> usize {
    let Some(last) = memchr::memrchr2(b'}', b']', &bytes[start..end]) else {
        return end;
    };
    let after = start + last + 1;
    let rest = &bytes[after..end];
    let first = rest.iter().find(|b| !b.is_ascii_whitespace());
    let line = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
    let prose = first.is_some_and(|b| !matches!(b, b',' | b':'))
        && !line.contains(&b'\\')
        && !rest
            .iter()
            .any(|b| matches!(b, b'"' | b'\'' | b'{' | b'[' | b'`'));
    if prose {
        after
    } else {
        end
    }
}

/// Whether text other than spaces follows `at` (before `end`) on its line.
fn same_line(bytes: &[u8], at: usize, end: usize) -> bool {
    let line = &bytes[at..end];
    let line = &line[..memchr::memchr(b'\n', line).unwrap_or(line.len())];
    line.iter().any(|b| !b.is_ascii_whitespace())
}

/// Whether the parser closed a damaged value before its brackets do: what follows its end is
/// the syntax of a value (a closer, a `,` or `:`, a quote), not prose. The brackets then
/// decide its span, as the scan finds it, so that no part of it is taken for a value of its
/// own.
fn closed_early(text: &str, read: &parse::Read<'_>, end: usize) -> bool {
    if read.strict || !read.complete {
        return false;
    }
    let rest = crate::lex::trim_start(&text[read.end..end]);
    // A comma that ends the text (`{..},` copied from a list) goes on with nothing.
    if rest.starts_with(',') && crate::lex::trim(&rest[1..]).is_empty() {
        return false;
    }
    matches!(
        rest.bytes().next(),
        Some(b'}' | b']' | b',' | b':' | b'"' | b'\'')
    )
}

/// The parser's reading `read` of the value at `at`, or the values the scan finds from there
/// when there is none or the scan's brackets say where it ends: when the parser closed it early
/// ([`closed_early`]) and the brackets run on past where it did. Brackets that close before
/// the parser's reading ends were thrown off by a quote the parser read as text
/// (`{"a":"e"x","b":"}"},t`, whose `}` inside `"}"` they take for the closer): the parser's
/// reading stands. The scan runs once either way.
fn trusted<'a>(
    text: &'a str,
    read: Option<parse::Read<'a>>,
    at: usize,
    (content_end, end): (usize, usize),
) -> Result<parse::Read<'a>, Vec<TailValue<'a>>> {
    let Some(read) = read else {
        return Err(scanned(text, at, end));
    };
    if !closed_early(text, &read, content_end) {
        return Ok(read);
    }
    let found = scanned(text, at, end);
    match found.first() {
        Some((span, ..)) if span.start == at && span.end < read.end => Ok(read),
        _ => Err(found),
    }
}

/// The values the scan finds from `from` to `end`, read on past their closers as the parser
/// reads on ([`parse::read_on`]).
fn scanned(text: &str, from: usize, end: usize) -> Vec<TailValue<'_>> {
    let found = parse::read_on(text, scan::values(text, Span::new(from, end)), end);
    found
        .into_iter()
        .map(|(span, seen)| (span, seen, None))
        .collect()
}
