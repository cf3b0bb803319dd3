//! The bracket profile of the text still to read: the evidence for choosing between readings
//! of a damaged closer (close here, close only the innermost container, or skip it as stray)
//! and for deciding whether a string missing its closing quote ended at a bracket.
//!
//! The count is lexical: `"..."` strings (with `\` escapes) and comments (`//` and `#` to the
//! end of the line, `/* */`, each starting where a token may) hold no brackets. A profile is
//! built once, from where it is first needed to the end, and answers every later query in
//! O(log n). Where the lexer and the parser disagree about being inside a string (damaged
//! quotes), the profile is rebuilt from the parser's position, paid from a budget of bytes
//! that keeps the total work linear in the input.

use crate::lex::{comment_end, comment_opener, string_close, Comment, Quote};

/// What the text from some offset holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rest {
    /// Closing brackets minus opening ones, to the end.
    pub net: isize,
    /// The most containers the text closes (counting from the offset, and never below 0)
    /// at a point where content still follows (before the last run of closing brackets at
    /// its end); `None` when no content follows.
    pub peak: Option<isize>,
}

impl Rest {
    /// Whether, with `open` containers open, the text closes them all while content still
    /// follows: a container would close with members left over for it.
    pub(crate) fn overcloses(&self, open: usize) -> bool {
        self.peak.is_some_and(|peak| peak >= open as isize)
    }
}

/// How the brackets of the text from some offset fit the containers open there, read as
/// the parser reads closers (of the innermost's kind: closes it; else stray). Fewer is
/// better, in this order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Fit {
    /// Times every open container would have closed while content still followed (the
    /// first container stays open: the parser reads on in it).
    pub early: usize,
    /// Closers that matched nothing open.
    pub strays: usize,
    /// Containers left open at the end.
    pub open: usize,
}

/// A bracket profile from `from` to the end of the input.
#[derive(Debug)]
pub(crate) struct Profile {
    from: usize,
    /// Each bracket outside strings and comments: its offset and the running count (closers
    /// minus openers from `from`) just after it.
    brackets: Vec<(usize, isize)>,
    /// The bracket bytes, beside `brackets`.
    kinds: Vec<u8>,
    /// `peak_from[k]`: the highest running count at brackets `k..` that lie before the final
    /// run of closers.
    peak_from: Vec<isize>,
    /// Strings and comments, as the lexer saw them: `(start, end)`.
    skipped: Vec<(usize, usize)>,
    total: isize,
    /// Where the final run of closers starts.
    content_end: usize,
    /// Whether the text ends inside a string, as the lexer saw it (a quote without its pair).
    pub ends_in_string: bool,
}

/// Where the lexer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lex {
    Code,
    String,
    LineComment,
    BlockComment,
}

impl Profile {
    /// Reads `bytes[from..end]` once.
    pub(crate) fn build(bytes: &[u8], from: usize, end: usize) -> Profile {
        let mut brackets = Vec::new();
        let mut kinds = Vec::new();
        let mut skipped = Vec::new();
        let mut running = 0isize;
        let ends_in_string = lex(
            bytes,
            from,
            end,
            |at, closes| {
                running += if closes { 1 } else { -1 };
                brackets.push((at, running));
                kinds.push(bytes[at]);
            },
            |start, stop| skipped.push((start, stop)),
        );
        let content_end = content_end(bytes, from, end);
        let mut peak_from = vec![isize::MIN; brackets.len() + 1];
        for k in (0..brackets.len()).rev() {
            let (at, count) = brackets[k];
            let here = if at < content_end { count } else { isize::MIN };
            peak_from[k] = here.max(peak_from[k + 1]);
        }
        Profile {
            from,
            brackets,
            kinds,
            peak_from,
            skipped,
            total: running,
            content_end,
            ends_in_string,
        }
    }

    /// Whether the profile answers for offset `p`: at or after its start, and not inside a
    /// string or comment as the lexer saw them.
    pub(crate) fn covers(&self, p: usize) -> bool {
        if p < self.from {
            return false;
        }
        let k = self.skipped.partition_point(|&(start, _)| start < p);
        k == 0 || self.skipped[k - 1].1 <= p
    }

    /// What the text from `p` holds (`p` covered).
    pub(crate) fn rest(&self, p: usize) -> Rest {
        let k = self.brackets.partition_point(|&(at, _)| at < p);
        let before = if k == 0 { 0 } else { self.brackets[k - 1].1 };
        let peak = (p < self.content_end).then(|| self.peak_from[k].max(before) - before);
        Rest {
            net: self.total - before,
            peak,
        }
    }
}

impl Profile {
    /// How the text from `p` (covered) fits `open`, the kinds of the containers open there
    /// (`true` for an object), outermost first. Reads every bracket after `p`: the caller
    /// pays for it from a budget; `brackets_after` says how many that is.
    pub(crate) fn fit(&self, p: usize, open: &[bool]) -> Fit {
        let first = self.brackets.partition_point(|&(at, _)| at < p);
        let mut stack = open.to_vec();
        let mut fit = Fit::default();
        if stack.is_empty() && p < self.content_end {
            // Nothing open, and content follows: it is lost to the value.
            fit.early += 1;
        }
        for (&(at, _), &kind) in self.brackets[first..].iter().zip(&self.kinds[first..]) {
            match kind {
                b'{' => stack.push(true),
                b'[' => stack.push(false),
                // The last open container would close with content after it: the parser
                // reads that closer as early and goes on in the container.
                _ if stack.len() == 1 && stack[0] == (kind == b'}') && at < self.content_end => {
                    fit.early += 1
                }
                _ if stack.last() == Some(&(kind == b'}')) => {
                    stack.pop();
                }
                _ => fit.strays += 1,
            }
        }
        fit.open = stack.len();
        fit
    }

    /// How many brackets lie at or after `p`.
    pub(crate) fn brackets_after(&self, p: usize) -> usize {
        self.brackets.len() - self.brackets.partition_point(|&(at, _)| at < p)
    }
}

/// Closing brackets minus opening ones in `bytes[from..end]`, strings and comments left out.
pub(crate) fn net(bytes: &[u8], from: usize, end: usize) -> isize {
    let mut net = 0isize;
    lex(
        bytes,
        from,
        end,
        |_, closes| net += if closes { 1 } else { -1 },
        |_, _| {},
    );
    net
}

/// The most that closing brackets outnumber opening ones in any `bytes[from..end]` with
/// `end` up to `to` (strings and comments left out, as [`net`] counts): at most 0 when no
/// such stretch holds more closers than openers.
pub(crate) fn most_net(bytes: &[u8], from: usize, to: usize) -> isize {
    let (mut net, mut most) = (0isize, 0isize);
    lex(
        bytes,
        from,
        to,
        |_, closes| {
            net += if closes { 1 } else { -1 };
            most = most.max(net);
        },
        |_, _| {},
    );
    most
}

/// The bytes the code state of [`lex`] looks at: brackets, and what opens a string or a
/// comment.
static CODE_STOPS: [bool; 256] = {
    let mut table = [false; 256];
    let mut k = 0;
    let stops = *b"{[}]\"#/";
    while k < stops.len() {
        table[stops[k] as usize] = true;
        k += 1;
    }
    table
};

/// Reads `bytes[from..end]` as code: calls `bracket(at, closes)` for each bracket outside
/// strings and comments, and `skip(start, end)` for each string or comment.
fn lex(
    bytes: &[u8],
    from: usize,
    end: usize,
    mut bracket: impl FnMut(usize, bool),
    mut skip: impl FnMut(usize, usize),
) -> bool {
    let mut state = Lex::Code;
    let mut open_string = false;
    let mut skip_start = from;
    let mut i = from;
    while i < end {
        match state {
            Lex::Code => {
                // Past the bytes that change nothing here, in one tight loop.
                while i < end && !CODE_STOPS[usize::from(bytes[i])] {
                    i += 1;
                }
                if i >= end {
                    break;
                }
                let next = match bytes[i] {
                    b @ (b'{' | b'[' | b'}' | b']') => {
                        bracket(i, matches!(b, b'}' | b']'));
                        Lex::Code
                    }
                    b'"' => Lex::String,
                    b'#' | b'/' if comment_may_start(bytes, i) => match comment_opener(&bytes[i..])
                    {
                        Some((Comment::Line, _)) => Lex::LineComment,
                        Some((Comment::Block, _)) => Lex::BlockComment,
                        None => Lex::Code,
                    },
                    _ => Lex::Code,
                };
                if next != Lex::Code {
                    skip_start = i;
                    state = next;
                    // A block comment's `*` is not its end.
                    i += usize::from(next == Lex::BlockComment);
                }
                i += 1;
                continue;
            }
            Lex::String => match string_close(bytes, i, end, Quote::Double) {
                Ok((q, _)) => i = q,
                Err(_) => {
                    open_string = true;
                    i = end;
                }
            },
            Lex::LineComment => {
                i = comment_end(Comment::Line, &bytes[i..end]).map_or(end, |n| i + n)
            }
            // At the comment's closing `/`.
            Lex::BlockComment => {
                i = comment_end(Comment::Block, &bytes[i..end]).map_or(end, |n| i + n - 1)
            }
        }
        // At the byte that ends the string or comment (or at the end).
        i = (i + 1).min(end);
        skip(skip_start, i);
        state = Lex::Code;
    }
    if state != Lex::Code {
        open_string |= state == Lex::String;
        skip(skip_start, end);
    }
    open_string
}

/// Whether a comment may start at `i`: where a token may (after whitespace, `,`, `{`, `[`,
/// or at the start), as the parser reads comments; `http://` holds none.
fn comment_may_start(bytes: &[u8], i: usize) -> bool {
    i == 0
        || matches!(
            bytes[i - 1],
            b' ' | b'\t' | b'\n' | b'\r' | b',' | b'{' | b'['
        )
}

/// The offset just after the last byte of `bytes[from..end]` that is neither whitespace nor a
/// closing bracket: where the final run of closers starts.
fn content_end(bytes: &[u8], from: usize, end: usize) -> usize {
    let mut i = end;
    while i > from && matches!(bytes[i - 1], b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rest(text: &str) -> Rest {
        Profile::build(text.as_bytes(), 0, text.len()).rest(0)
    }

    #[test]
    fn most_net_is_the_largest_excess_of_closers_over_any_prefix() {
        let most = |text: &str| most_net(text.as_bytes(), 0, text.len());
        assert_eq!(most(r#"{"a": [1],}"#), 0);
        // A closer to spare, then an opener: the whole balances, a prefix does not.
        assert_eq!(most(r#"{"a": 1}} {"#), 1);
        assert_eq!(net(br#"{"a": 1}} {"#, 0, 11), 0);
        // Brackets in strings and comments are not counted.
        assert_eq!(most(r#"{"a": "}}"} // ]]"#), 0);
    }

    #[test]
    fn brackets_in_strings_and_comments_do_not_count() {
        assert_eq!(rest("}]").net, 2);
        assert_eq!(rest("{[]}").net, 0);
        assert_eq!(rest(r#", "a}": "b\"]" }"#).net, 1);
        assert_eq!(rest(", // ]]\n }").net, 1);
        assert_eq!(rest(", # ]]\n }").net, 1);
        assert_eq!(rest(", /* ]] */ }").net, 1);
        assert_eq!(rest(", http://x]").net, 1);
    }

    #[test]
    fn the_peak_leaves_out_the_final_run_of_closers() {
        // Closers at the very end close what is open, or are trailing text.
        assert_eq!(
            rest(r#", "c": 2}}"#),
            Rest {
                net: 2,
                peak: Some(0)
            }
        );
        // A container closed while members still follow.
        let members_after = rest(r#"}, "r": 1}, "s": []}"#);
        assert_eq!(
            members_after,
            Rest {
                net: 3,
                peak: Some(2)
            }
        );
        assert!(members_after.overcloses(2) && !members_after.overcloses(3));
        assert_eq!(rest(r#"{"a": 1}, "b"}"#).peak, Some(0));
        // Nothing but closers: no content follows.
        assert_eq!(rest(" ]} "), Rest { net: 2, peak: None });
        assert!(!rest("}").overcloses(0));
    }

    #[test]
    fn fit_reads_closers_by_kind() {
        let text = r#", "c": [1]], "d": 2}"#;
        let profile = Profile::build(text.as_bytes(), 0, text.len());
        // One object open: the second `]` is stray, the `}` closes it at the end.
        assert_eq!(
            profile.fit(0, &[true]),
            Fit {
                early: 0,
                strays: 1,
                open: 0
            }
        );
        // Two open: one stays open.
        assert_eq!(
            profile.fit(0, &[true, true]),
            Fit {
                early: 0,
                strays: 1,
                open: 1
            }
        );
        let text = r#"}, "r": 1}, "s": []}"#;
        let profile = Profile::build(text.as_bytes(), 0, text.len());
        assert_eq!(
            profile.fit(0, &[true]),
            Fit {
                early: 2,
                strays: 0,
                open: 0
            }
        );
        assert_eq!(profile.fit(0, &[true, true]).early, 1);
        assert_eq!(profile.fit(0, &[true, true, true]), Fit::default());
        // Nothing open and content after: lost.
        assert_eq!(profile.fit(0, &[]).early, 1);
    }

    #[test]
    fn queries_answer_for_any_later_offset_outside_strings() {
        let text = r#"}, "a": 1}, "b": "x}"#;
        let profile = Profile::build(text.as_bytes(), 0, text.len());
        assert_eq!(profile.rest(1).net, 1);
        assert!(profile.covers(3)); // the quote that opens "a"
        assert!(!profile.covers(4)); // inside it
        let inside = text.len() - 1; // the `}` in the lexer's string `"x}`
        assert!(!profile.covers(inside));
        let again = Profile::build(text.as_bytes(), inside, text.len());
        assert_eq!(again.rest(inside).net, 1);
    }
}
