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
        let rest = &self.bytes[open..self.end];
        let run = rest.iter().take_while(|&&b| b == b'`').count();
        if run < 3 {
            return None;
        }
        // The info string: up to the line's end, no quote or bracket in it.
        let window = &rest[run..rest.len().min(run + super::FENCE_INFO)];
        let line_end = open + run + memchr::memchr(b'\n', window)?;
        let info = &self.bytes[open + run..line_end];
        if info
            .iter()
            .any(|&b| matches!(b, b'"' | b'\'' | b'`' | b'{' | b'[' | b'}' | b']'))
        {
            return None;
        }
        let body = line_end + 1;
        // The closing run: at least as long, first on its line but for spaces.
        // Each byte is looked at once: the start of the current line is carried along.
        let (mut at, mut line_start) = (body, body);
        let close = loop {
            let Some(k) = memchr::memmem::find(&self.bytes[at..self.end], b"```") else {
                break None;
            };
            let found = at + k;
            let len = self.bytes[found..self.end]
                .iter()
                .take_while(|&&b| b == b'`')
                .count();
            if let Some(n) = memchr::memrchr(b'\n', &self.bytes[at..found]) {
                line_start = at + n + 1;
            }
            let first_on_line = self.bytes[line_start..found]
                .iter()
                .all(|&b| b == b' ' || b == b'\t');
            if len >= run && first_on_line {
                break Some((line_start, found + len));
            }
            at = found + len;
        };
        let (content_end, next) = close.unwrap_or((self.end, self.end));
        let code = &self.text[body..content_end.max(body)];
        let code = code.strip_suffix('\n').unwrap_or(code);
        let code = code.strip_suffix('\r').unwrap_or(code);
        self.pos = next;
        self.repair(RepairKind::FencedValue, Span::new(open, next));
        if close.is_none() {
            self.repair(RepairKind::TruncatedString, Span::new(open, self.end));
        }
        Some(Scanned {
            value: Str {
                text: Cow::Owned(dedent(code)),
                quoting: Quoting::Other,
            },
            complete: close.is_some(),
        })
    }
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
