//! Linear scans for markdown fences and for where values start in prose.

use crate::span::Span;
use memchr::memmem;

/// A markdown code fence.
pub(crate) struct Fence {
    /// Offset of the opening backticks.
    pub open: usize,
    /// The fence with its backticks.
    pub whole: Span,
    /// Between the info string and the closing backticks (or the end of the text).
    pub content: Span,
    /// The info string is empty or names JSON (or a language whose literals look like it).
    pub json_like: bool,
}

const JSON_LIKE: &[&str] = &[
    "json",
    "json5",
    "jsonc",
    "jsonl",
    "ndjson",
    "javascript",
    "js",
    "typescript",
    "ts",
    "python",
    "py",
    "yaml",
    "text",
    "txt",
    "plaintext",
    "tool_call",
    "tool_code",
    "output",
];

/// Every fence in `text`, in order. A fence opened inline (```` ```{...}``` ````) closes at
/// the next backticks; otherwise the closing backticks must start their line.
pub(crate) fn fences(text: &str) -> Vec<Fence> {
    let bytes = text.as_bytes();
    let finder = memmem::Finder::new(b"```");
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(p) = finder.find(&bytes[i..]).map(|x| x + i) {
        let mut run_end = p;
        while run_end < bytes.len() && bytes[run_end] == b'`' {
            run_end += 1;
        }
        let run = run_end - p;
        let line_end =
            memchr::memchr(b'\n', &bytes[run_end..]).map_or(bytes.len(), |x| x + run_end);
        let info = text[run_end..line_end].trim();
        let is_word = !info.is_empty()
            && info.len() <= 32
            && !info.contains(|c: char| c.is_whitespace() || "{[\"'`".contains(c));
        let (content_start, json_like, inline) = if info.is_empty() {
            ((line_end + 1).min(bytes.len()), true, false)
        } else if is_word {
            let lang = info.to_ascii_lowercase();
            (
                (line_end + 1).min(bytes.len()),
                JSON_LIKE.contains(&lang.as_str()),
                false,
            )
        } else {
            (run_end, true, true)
        };
        // Find the closing run: at least as long, and at a line start unless inline.
        let mut search = content_start;
        let mut close = None;
        while let Some(q) = finder.find(&bytes[search..]).map(|x| x + search) {
            let mut q_end = q;
            while q_end < bytes.len() && bytes[q_end] == b'`' {
                q_end += 1;
            }
            let line_start = memchr::memrchr(b'\n', &bytes[..q]).map_or(0, |x| x + 1);
            let at_line_start = text[line_start..q].trim().is_empty();
            if q_end - q >= run && (inline || at_line_start) {
                close = Some((q, q_end));
                break;
            }
            search = q_end;
        }
        let (content_end, whole_end) = close.unwrap_or((bytes.len(), bytes.len()));
        out.push(Fence {
            open: p,
            whole: Span::new(p, whole_end),
            content: Span::new(content_start.min(content_end), content_end),
            json_like,
        });
        if whole_end >= bytes.len() {
            break;
        }
        i = whole_end;
    }
    out
}

/// Bytes the value scan stops at.
static STRUCTURAL: [bool; 256] = {
    let mut table = [false; 256];
    table[b'{' as usize] = true;
    table[b'}' as usize] = true;
    table[b'[' as usize] = true;
    table[b']' as usize] = true;
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table[b'/' as usize] = true;
    table[b'#' as usize] = true;
    table
};

/// Whether a comment may start at `i`: the parser reads `//` and `#` as comments where a
/// token may start, so the scan does too (a bracket inside a comment closes nothing).
fn comment_starts(bytes: &[u8], i: usize) -> bool {
    let token_start = i == 0
        || matches!(
            bytes[i - 1],
            b' ' | b'\t' | b'\n' | b'\r' | b',' | b'{' | b'['
        );
    token_start && (bytes[i] == b'#' || bytes.get(i + 1) == Some(&b'/'))
}

/// Where values may be in `region` of `text`: each top-level balanced `{...}` / `[...]` span,
/// string-aware (a `}` inside a `"..."` string closes nothing). When an opener is never
/// closed, the text from it to the end of the region is a candidate (a truncated value), and
/// so is each balanced span directly inside it. A region holding only a JSON scalar yields
/// that scalar.
/// Where a value span was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// A balanced span at the top level (or a whole-region scalar).
    TopLevel,
    /// From an opener that never closed to the end of the region: a value cut off.
    Unclosed,
    /// A balanced span directly inside an opener that never closed.
    Nested,
}

pub(crate) fn values(text: &str, region: Span) -> Vec<(Span, Place)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    let mut children: Vec<Span> = Vec::new();
    let mut in_string = false;
    // How many `{` and `[` are open, so a stray closer is found in O(1).
    let (mut objects, mut arrays) = (0usize, 0usize);
    let mut i = region.start;
    while i < region.end {
        let b = bytes[i];
        // Most bytes are not brackets, quotes or backslashes: one table lookup each.
        if !STRUCTURAL[b as usize] {
            i += 1;
            continue;
        }
        if in_string {
            match b {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match b {
            b'/' | b'#' if !stack.is_empty() && comment_starts(bytes, i) => {
                i = memchr::memchr(b'\n', &bytes[i..region.end]).map_or(region.end, |n| i + n);
                continue;
            }
            b'"' if !stack.is_empty() => in_string = true,
            b'{' | b'[' => {
                if stack.is_empty() {
                    children.clear();
                }
                if b == b'{' {
                    objects += 1;
                } else {
                    arrays += 1;
                }
                stack.push(i);
            }
            b'}' | b']' => {
                // As the parser does: a closer of a kind that is not open is stray; one of the
                // wrong kind closes only the innermost opener.
                let kind_open = if b == b'}' { objects } else { arrays };
                if kind_open == 0 && !stack.is_empty() {
                    i += 1;
                    continue;
                }
                if let Some(open) = stack.pop() {
                    if bytes[open] == b'{' {
                        objects -= 1;
                    } else {
                        arrays -= 1;
                    }
                    let span = Span::new(open, i + 1);
                    match stack.len() {
                        0 => out.push((span, Place::TopLevel)),
                        1 => children.push(span),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    if let Some(&open) = stack.first() {
        out.push((Span::new(open, region.end), Place::Unclosed));
        out.extend(children.into_iter().map(|c| (c, Place::Nested)));
    }
    if out.is_empty() {
        let content = &text[region.start..region.end];
        let trimmed = content.trim();
        let start = region.start + (content.len() - content.trim_start().len());
        if looks_scalar(trimmed) {
            out.push((Span::new(start, start + trimmed.len()), Place::TopLevel));
        }
    }
    out
}

/// Whether `text` (trimmed, the whole region) reads as one JSON-like scalar: a quoted string
/// (closed or not), a number (also `2.`, `-`-signed), or a literal such as `True` or `None`.
/// Prose is not: it is a candidate only as text, for a target type that reads text.
fn looks_scalar(text: &str) -> bool {
    const LITERALS: &[&str] = &[
        "true",
        "false",
        "null",
        "none",
        "nil",
        "undefined",
        "nan",
        "infinity",
        "-infinity",
    ];
    let Some(first) = text.bytes().next() else {
        return false;
    };
    match first {
        b'`' => !text.starts_with("``"),
        b'"' | b'\'' => true,
        _ if text.starts_with(['\u{201c}', '\u{2018}']) => true,
        b'0'..=b'9' | b'-' | b'+' | b'.' => {
            text.len() <= 64
                && text.bytes().all(|b| {
                    b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E' | b'_')
                })
        }
        _ => LITERALS.iter().any(|l| text.eq_ignore_ascii_case(l)),
    }
}
