//! `"""triple-quoted"""` strings, as Python writes them (and `'''...'''`): raw newlines and
//! quotes are content, escapes are decoded, and the text is dedented as `textwrap.dedent`
//! does, after dropping the newline right after the opening quotes and the line of the closing
//! quotes when they stand on a line of their own (what a code or SQL field means by it).

use super::string::{Quote, Scanned};
use super::Parser;
use crate::node::{Quoting, Str};
use crate::report::RepairKind;
use crate::span::Span;
use std::borrow::Cow;

impl<'a, B: super::Build<'a>> Parser<'a, B> {
    /// The triple-quoted string at `self.pos`, if one starts there. Valid JSON never has one:
    /// `""` followed by `"` is not JSON.
    pub(super) fn triple_quoted(&mut self) -> Option<Scanned<'a>> {
        let rest = &self.bytes[self.pos..self.end];
        let (q, quote) = match rest {
            [b'"', b'"', b'"', ..] => (b'"', Quote::Double),
            [b'\'', b'\'', b'\'', ..] => (b'\'', Quote::Single),
            _ => return None,
        };
        let open = self.pos;
        let logged = self.repairs.len();
        let mut out = String::new();
        let mut segment = open + 3;
        let mut i = segment;
        let close = loop {
            let Some(k) = memchr::memchr2(q, b'\\', &self.bytes[i..self.end]) else {
                break None;
            };
            let at = i + k;
            if self.bytes[at] == b'\\' {
                out.push_str(&self.text[segment..at]);
                i = self.escape(at, quote, &mut out).unwrap_or(self.end);
                segment = i;
            } else if self.bytes[at..self.end].starts_with(&[q, q, q]) {
                // `""""`: the quotes before the last three are content.
                let run = self.bytes[at..self.end]
                    .iter()
                    .take_while(|&&b| b == q)
                    .count();
                break Some(at + run - 3);
            } else {
                i = at + 1;
            }
        };
        if close.is_none() {
            // `"""" "lorem": 1`: four quotes or more that never close as three are ordinary
            // quotes (empty strings). Re-reading them is paid from the backtrack budget.
            let read = self.end - open;
            if self.bytes.get(open + 3) == Some(&q)
                && open + 3 < self.end
                && self.backtrack_budget >= read
            {
                self.backtrack_budget -= read;
                self.repairs.truncate(logged);
                return None;
            }
        }
        let content_end = close.unwrap_or(self.end).max(segment);
        out.push_str(&self.text[segment..content_end]);
        self.pos = close.map_or(self.end, |c| c + 3);
        self.repair(RepairKind::TripleQuotedString, Span::new(open, self.pos));
        if close.is_none() {
            self.repair(RepairKind::TruncatedString, Span::new(open, self.end));
        }
        let body = out
            .strip_prefix("\r\n")
            .or_else(|| out.strip_prefix('\n'))
            .unwrap_or(&out);
        // The closing quotes on a line of their own: that line is not content.
        let body = match body.rfind('\n') {
            Some(n) if body[n + 1..].trim_matches([' ', '\t']).is_empty() => {
                body[..n].strip_suffix('\r').unwrap_or(&body[..n])
            }
            _ => body,
        };
        Some(Scanned {
            value: Str {
                text: Cow::Owned(dedent(body)),
                quoting: Quoting::Other,
            },
            complete: close.is_some(),
        })
    }
}

impl<'a, B: super::Build<'a>> Parser<'a, B> {
    /// A value written as a markdown code block at `self.pos` (`"code": ```ts main.ts` and a
    /// line break, the code, then a run of as many backticks at the start of a line), if one
    /// starts there: the code, dedented, without the info string. Valid JSON never has one.
    pub(super) fn fenced_value(&mut self) -> Option<Scanned<'a>> {
        let open = self.pos;
        let bytes = &self.bytes[..self.end];
        let run = bytes[open..].iter().take_while(|&&b| b == b'`').count();
        if run < 3 {
            return None;
        }
        // The whole text is here: an info line it ends inside is none.
        let body = code_block_body(bytes, open + run)??;
        let (content_end, next, closed) = match code_block_end(bytes, run, body, body, false) {
            CodeEnd::Closed { content_end, after } => (content_end, after, true),
            CodeEnd::Open { .. } => (self.end, self.end, false),
        };
        let code = code_block_text(self.text, body, content_end);
        self.pos = next;
        self.repair(RepairKind::FencedValue, Span::new(open, next));
        if !closed {
            self.repair(RepairKind::TruncatedString, Span::new(open, self.end));
        }
        Some(Scanned {
            value: Str {
                text: Cow::Owned(code),
                quoting: Quoting::Other,
            },
            complete: closed,
        })
    }
}

/// Where the code of a value written as a code block starts, its opening run of backticks
/// ending at `from`: after the info string's line (at most [`super::FENCE_INFO`] bytes, no
/// quote or bracket in it). `Some(None)` when no code block starts there; `None` while
/// `bytes` ends inside the info line (a stream waits for more, the parser says none).
pub(crate) fn code_block_body(bytes: &[u8], from: usize) -> Option<Option<usize>> {
    let limit = (from + super::FENCE_INFO).min(bytes.len());
    let info = &bytes[from..limit];
    let odd = |b: &u8| matches!(b, b'"' | b'\'' | b'`' | b'{' | b'[' | b'}' | b']');
    let line = memchr::memchr(b'\n', info);
    if info[..line.unwrap_or(info.len())].iter().any(odd) {
        return Some(None);
    }
    match line {
        Some(n) => Some(Some(from + n + 1)),
        // The line is longer than an info string: no code block.
        None if limit == from + super::FENCE_INFO => Some(None),
        None => None,
    }
}

/// Where [`code_block_end`] got to.
pub(crate) enum CodeEnd {
    /// The closing run: the code ends at `content_end` (the start of the run's line), the
    /// value at `after` (past the run).
    Closed { content_end: usize, after: usize },
    /// Not in `bytes` yet: where to search on from, and the start of that line.
    Open { scan: usize, line_start: usize },
}

/// The closing run of a code block opened with `run` backticks (at least as long, first on
/// its line but for spaces), searched from `scan`, on a line starting at `line_start`. Each
/// byte is looked at once, the line's start carried along. With `more` (a stream, whose text
/// may go on), a run that reaches the end of `bytes` may still grow and waits, as do two
/// backticks at the end.
pub(crate) fn code_block_end(
    bytes: &[u8],
    run: usize,
    mut scan: usize,
    mut line_start: usize,
    more: bool,
) -> CodeEnd {
    loop {
        let Some(k) = memchr::memmem::find(&bytes[scan..], b"```") else {
            let keep = if more {
                bytes.len().saturating_sub(2).max(scan)
            } else {
                bytes.len()
            };
            if let Some(n) = memchr::memrchr(b'\n', &bytes[scan..keep]) {
                line_start = scan + n + 1;
            }
            return CodeEnd::Open {
                scan: keep,
                line_start,
            };
        };
        let found = scan + k;
        if let Some(n) = memchr::memrchr(b'\n', &bytes[scan..found]) {
            line_start = scan + n + 1;
        }
        let len = bytes[found..].iter().take_while(|&&b| b == b'`').count();
        if more && found + len == bytes.len() {
            return CodeEnd::Open {
                scan: found,
                line_start,
            };
        }
        let first_on_line = bytes[line_start..found]
            .iter()
            .all(|&b| b == b' ' || b == b'\t');
        if len >= run && first_on_line {
            return CodeEnd::Closed {
                content_end: line_start,
                after: found + len,
            };
        }
        scan = found + len;
    }
}

/// The code of a code block, `text[body..content_end]` without the line break before the
/// closing run, dedented.
pub(crate) fn code_block_text(text: &str, body: usize, content_end: usize) -> String {
    let code = &text[body..content_end.max(body)];
    let code = code.strip_suffix('\n').unwrap_or(code);
    dedent(code.strip_suffix('\r').unwrap_or(code))
}

/// `textwrap.dedent`: lines holding only spaces and tabs become empty, and the longest run of
/// leading spaces and tabs common to the other lines is removed from each.
pub(crate) fn dedent(text: &str) -> String {
    let indent = |line: &'_ str| line.len() - line.trim_start_matches([' ', '\t']).len();
    let mut margin: Option<&str> = None;
    for line in text.split('\n') {
        let n = indent(line);
        if n == line.len() {
            continue;
        }
        let this = &line[..n];
        margin = Some(match margin {
            None => this,
            Some(m) => {
                let common = m
                    .bytes()
                    .zip(this.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                &m[..common]
            }
        });
    }
    let margin = margin.unwrap_or("");
    let mut out = String::with_capacity(text.len());
    for (n, line) in text.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        if indent(line) < line.len() {
            out.push_str(line.strip_prefix(margin).unwrap_or(line));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::dedent;

    #[test]
    fn dedent_follows_textwrap() {
        assert_eq!(
            dedent("    def f():\n        return 1\n    "),
            "def f():\n    return 1\n"
        );
        assert_eq!(dedent("a\n  b"), "a\n  b");
        assert_eq!(dedent("  a\n\n   \n  b"), "a\n\n\nb");
        assert_eq!(dedent("\t x\n\t y"), "x\ny");
        assert_eq!(dedent("  x\n\ty"), "  x\n\ty");
        assert_eq!(dedent(""), "");
    }
}
