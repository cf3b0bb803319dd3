//! Where pythonic code ends when its strings hold tokens: a string is the call's text up to
//! its closing quote, as the pythonic reader reads it, so a call written inside one, in any
//! format, is an argument, not a call.

use super::{Region, Walker};
use crate::lex;
use crate::span::Span;
use crate::tool::python::{self, PyError};
use crate::tool::scan::{closes_fence, Tok};

/// What ends a body of pythonic code, outside its strings.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum CodeEnd {
    /// The closer of its list (`[f(a='x')]`), or the next token.
    List,
    /// The next token only: the calls, one a line, run to their block's closer.
    Token,
    /// A fence's closing line, or the next token.
    Fence,
}

impl Walker<'_> {
    /// The body of the code after token `k`: up to the next token written outside a string,
    /// or to where `until` says the code ends (the body then runs on to the next token, as
    /// usual). A string opens only inside brackets (an argument's; an apostrophe in the prose
    /// around a call opens none) and runs to its closing quote, across lines and tokens; one
    /// never closed runs to the end of the text.
    ///
    /// Each byte is read once, and the call takes every byte read, so the text is read a
    /// bounded number of times whatever the calls.
    pub(super) fn code_strings_hold_tokens(&self, k: usize, until: CodeEnd) -> Span {
        let (text, bytes) = (self.text, self.text.as_bytes());
        let start = self.toks[k].span.end;
        let mut pos = start;
        let mut depth = 0usize;
        loop {
            let limit = self.next_token_from(pos);
            let found = bytes[pos..limit].iter().position(|b| {
                matches!(
                    b,
                    b'\'' | b'"' | b'(' | b'[' | b'{' | b')' | b']' | b'}' | b'\n'
                )
            });
            let Some(found) = found else {
                return Span::new(start, limit);
            };
            let at = pos + found;
            pos = at + 1;
            match bytes[at] {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 && until == CodeEnd::List {
                        return Span::new(start, self.next_token_from(pos));
                    }
                }
                b'\n' if until == CodeEnd::Fence && closes_fence(&bytes[pos..]) => {
                    return Span::new(start, self.next_token_from(pos));
                }
                b'\'' | b'"' if depth > 0 => match string_end(text, at) {
                    Some(end) => pos = end,
                    None => return Span::new(start, text.len()),
                },
                _ => {}
            }
        }
    }
}

impl Walker<'_> {
    /// Where a pythonic call list written in the text between tokens from `from` to `to` (a
    /// list in prose, `[search(q="...")]`) ends, when it runs past `to`: a string of its
    /// arguments runs across lines, and the tokens it holds are its text, not calls. The list
    /// ends where the pythonic reader stops reading it (at its `]`, or where it is not a
    /// list), or where it is cut off: at the end of the text, or at a token that ends its
    /// region (reasoning opened or closed, the turn ended), which it does not take in. `None`
    /// when no list runs past `to`, and in reasoning that closes or after the turn (no call
    /// there is run).
    ///
    /// Each list is read once from its `[`, and a list that runs past `to` takes every token
    /// it reads, so the text is read a bounded number of times.
    pub(super) fn list_across(&self, from: usize, to: usize) -> Option<usize> {
        if !matches!(self.region, Region::Answer | Region::OpenReasoning) {
            return None;
        }
        let bytes = self.text.as_bytes();
        // The list does not take in what ends its region.
        let first = self.toks.partition_point(|t| t.span.start < to);
        let limit = self
            .region_ends
            .get(first)
            .copied()
            .unwrap_or(self.text.len());
        let mut pos = from;
        while let Some(found) = memchr::memchr(b'[', &bytes[pos..to]) {
            let at = pos + found;
            let rest = &self.text[at..limit];
            if !python::looks_like_calls(rest, false) {
                pos = at + 1;
                continue;
            }
            let end = match python::read_calls(rest, self.max_depth) {
                Ok((_, n)) | Err(PyError::Invalid(n, _)) => at + n.max(1),
                Err(PyError::Incomplete(_)) => limit,
            };
            if end > to {
                return Some(end);
            }
            pos = end;
        }
        None
    }
}

/// For each token, where the first token at or after it begins that ends a region (reasoning
/// opened or closed, the turn ended), the end of the text without one: a list in prose
/// ([`Walker::list_across`]) runs no further.
pub(super) fn region_ends(text: &str, toks: &[crate::tool::scan::Token]) -> Vec<usize> {
    let mut out = vec![text.len(); toks.len()];
    let mut next = text.len();
    for (k, t) in toks.iter().enumerate().rev() {
        if matches!(
            t.tok,
            Tok::ThinkOpen | Tok::ThinkClose | Tok::TurnEnd | Tok::HarmonyReturn
        ) {
            next = t.span.start;
        }
        out[k] = next;
    }
    out
}

/// Where the Python string whose opening quote is at `at` ends (after its closing quote, three
/// for a triple-quoted one: [`lex::string_close`]), `None` when the text ends first.
fn string_end(text: &str, at: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let (kind, len) = lex::opening_quote(&bytes[at..])?;
    let (close, n) = lex::string_close(bytes, at + len, bytes.len(), kind).ok()?;
    Some(close + n)
}
