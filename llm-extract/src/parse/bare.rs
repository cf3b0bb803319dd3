//! Where a value's bare text ends (`{"a": hello world, "b": 1}`): the lookahead rules the
//! parser reads unquoted text by, over bytes. The parser asks them of the whole text; the
//! stream reader asks them of the text so far, where `None` says that bytes still to come
//! could change the answer.

use super::space::skip_space;
use super::string::{key_reading, opening_quote, Cut, KEY_LOOKAHEAD};
use crate::lex;

/// The text the rules look at: all of it, or what has arrived of it so far.
#[derive(Clone, Copy)]
pub(crate) struct Ahead<'b> {
    bytes: &'b [u8],
    so_far: bool,
}

impl<'b> Ahead<'b> {
    /// The whole text: every answer is `Some`.
    pub(crate) fn whole(bytes: &'b [u8]) -> Ahead<'b> {
        Ahead {
            bytes,
            so_far: false,
        }
    }

    /// The text so far: more bytes may follow `bytes`.
    pub(crate) fn so_far(bytes: &'b [u8]) -> Ahead<'b> {
        Ahead {
            bytes,
            so_far: true,
        }
    }

    /// The end of the [`KEY_LOOKAHEAD`] bytes from `at`, and whether bytes still to come fall
    /// inside them.
    fn window(&self, at: usize) -> (usize, bool) {
        let want = at.saturating_add(KEY_LOOKAHEAD);
        let end = self.bytes.len();
        (want.min(end), self.so_far && want >= end)
    }

    /// `None` where the text so far ends at `at` or cuts the character there, which may
    /// still turn out a space or a word.
    fn settled_at(&self, at: usize) -> Option<()> {
        let end = self.bytes.len();
        let cut = at >= end || (self.bytes[at] >= 0x80 && at + 4 > end);
        (!(self.so_far && cut)).then_some(())
    }

    /// The first byte in `from..limit` that words of bare text cannot hold without a doubt
    /// about what they are: a quote (not an apostrophe inside a word, `it's`), `:` (full-width
    /// too), bracket, line break or comment start, and a `,` when `comma`. `Some(None)`: there
    /// is none; `open` says bytes still to come fall before `limit`.
    pub(crate) fn text_stop(
        &self,
        from: usize,
        limit: usize,
        open: bool,
        comma: bool,
    ) -> Option<Option<usize>> {
        let bytes = self.bytes;
        let in_word = |at: usize| {
            bytes
                .get(at)
                .is_some_and(|&b| b.is_ascii_alphanumeric() || b >= 0x80)
        };
        let mut i = from;
        while i < limit {
            let Some(n) = bytes[i..limit].iter().position(|&b| {
                matches!(
                    b,
                    b'"' | b'\''
                        | b':'
                        | b'{'
                        | b'['
                        | b'}'
                        | b']'
                        | b'\n'
                        | b'\r'
                        | b'/'
                        | b'#'
                        | 0xEF
                ) || (comma && b == b',')
            }) else {
                break;
            };
            let k = i + n;
            match bytes[k] {
                b'\'' if k > from && in_word(k - 1) => {
                    if k + 1 >= limit {
                        return (!open).then_some(Some(k));
                    }
                    if !in_word(k + 1) {
                        return Some(Some(k));
                    }
                }
                0xEF => {
                    if lex::fullwidth_separator(&bytes[k..]) == Some(b':') {
                        return Some(Some(k));
                    }
                    if self.so_far && k + lex::FULLWIDTH_LEN > bytes.len() {
                        return None;
                    }
                }
                _ => return Some(Some(k)),
            }
            i = k + 1;
        }
        (!open).then_some(None)
    }

    /// Whether only words lie from `at` to the end of the line, a `}`, or (when `comma`) the
    /// next `,`, within [`KEY_LOOKAHEAD`] bytes: no `:`, bracket or comment, and quotes only
    /// around words (`"like this"`), none opening a key.
    pub(crate) fn words_ahead(&self, at: usize, comma: bool) -> Option<bool> {
        let (limit, open) = self.window(at);
        let mut from = at;
        loop {
            match self.text_stop(from, limit, open, comma)? {
                None => return Some(limit == self.bytes.len()),
                Some(k) => match self.bytes[k] {
                    b',' | b'\n' | b'\r' | b'}' => return Some(true),
                    b'"' | b'\'' if !self.quoted_key_at(k)? => from = k + 1,
                    _ => return Some(false),
                },
            }
        }
    }

    /// Whether the bare text of an object value goes on past its `,` at `at - 1`: words
    /// follow on the line ([`Ahead::words_ahead`] up to the next `,`, the line's end or a
    /// `}`: `{"tags": red, green, blue}`, `{"a": hello, world}`). A key after the comma
    /// (`{"a": x, b: 1}`, `{"a": x, "b": 1}`) or nothing more on the line ends the value
    /// there.
    pub(crate) fn words_go_on_after_comma(&self, at: usize) -> Option<bool> {
        let j = lex::skip_inline_spaces(self.bytes, at, self.bytes.len());
        self.settled_at(j)?;
        if j >= self.bytes.len() || !starts_text_word(self.bytes[j]) {
            return Some(false);
        }
        self.words_ahead(j, true)
    }

    /// Whether the bare text of an object value goes on past the line break at `at`: the
    /// next line that is not blank starts with a word that is no key, and holds only words
    /// ([`Ahead::words_ahead`]) up to its end or a `}` (`{"a": First line\n\nsecond line\n}`).
    pub(crate) fn text_goes_on_next_line(&self, at: usize) -> Option<bool> {
        let j = skip_space(self.bytes, at, self.bytes.len());
        self.settled_at(j)?;
        if j >= self.bytes.len()
            || !starts_text_word(self.bytes[j])
            || self.key_at(j, Cut::Allowed)?
        {
            return Some(false);
        }
        self.words_ahead(j, false)
    }

    /// Whether the bare text of an object value goes on past its `,` at `at - 1`: the rest
    /// of its line up to a quote that closes a value ([`Ahead::stray_quote_closes`]), within
    /// [`KEY_LOOKAHEAD`] bytes, holds no `:`, quote, bracket or comment, so the quote is the
    /// value's own closing one, its opening one missing. `{"a": x, "b": 1}` and
    /// `{"a": x, b: 1}` have a key after the comma; `{"a": ipsum, sic, datum."}` does not.
    pub(crate) fn text_runs_to_stray_quote(&self, at: usize) -> Option<bool> {
        let (limit, open) = self.window(at);
        match self.text_stop(at, limit, open, false)? {
            Some(k) if k > at && self.bytes[k] == b'"' => self.stray_quote_closes(k),
            _ => Some(false),
        }
    }

    /// `abcdef", ` or `12345" }`: at `at`, a `"` that closes a bare value whose opening quote
    /// is missing, followed by a `,`, a closer or the end. Bounded by [`KEY_LOOKAHEAD`].
    pub(crate) fn stray_quote_closes(&self, at: usize) -> Option<bool> {
        let (bytes, end) = (self.bytes, self.bytes.len());
        if at >= end {
            return (!self.so_far).then_some(false);
        }
        if bytes[at] != b'"' {
            return Some(false);
        }
        let limit = (at + 1 + KEY_LOOKAHEAD).min(end);
        let next = skip_space(bytes, at + 1, limit);
        if next >= end {
            return (!self.so_far).then_some(true);
        }
        self.settled_at(next)?;
        Some(next < limit && matches!(bytes[next], b',' | b'}' | b']'))
    }

    /// Where the words before a container in an array end (`[note: {"a": 1}]`, the words
    /// skipped): `Some(Some(len))` when only plain words (letters, digits, spaces, `.`, `:`,
    /// `-`) that are no literal lie from `at` to a `{` or `[` within [`KEY_LOOKAHEAD`] bytes.
    pub(crate) fn words_before_container(&self, at: usize) -> Option<Option<usize>> {
        let plain = |b: &u8| {
            b.is_ascii_alphanumeric()
                || matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'.' | b':' | b'-')
        };
        let (limit, open) = self.window(at);
        let rest = &self.bytes[at.min(limit)..limit];
        let Some(len) = rest.iter().position(|&b| matches!(b, b'{' | b'[')) else {
            // A bracket still to come counts only after plain words.
            return (!open || !rest.iter().all(plain)).then_some(None);
        };
        let words = &rest[..len];
        let first = words
            .iter()
            .position(|b| !b.is_ascii_alphanumeric())
            .unwrap_or(len);
        let literal = matches!(
            &words[..first],
            b"true" | b"false" | b"null" | b"True" | b"False" | b"None" | b"undefined" | b"nil"
        );
        Some((!literal && words.iter().all(plain)).then_some(len))
    }

    /// Whether a quoted key written whole (closing quote and `:`) starts at `at`.
    fn quoted_key_at(&self, at: usize) -> Option<bool> {
        let bytes = self.bytes;
        self.settled_at(at)?;
        if at >= bytes.len() || bytes[at] == b'`' || opening_quote(&bytes[at..]).is_none() {
            return Some(false);
        }
        self.key_at(at, Cut::Refused)
    }

    /// The parser's key test at `at` (`Parser::key_at`).
    fn key_at(&self, at: usize, cut: Cut) -> Option<bool> {
        if self.so_far {
            match key_reading::<true>(self.bytes, at, cut) {
                (_, true) => None,
                (key, false) => Some(key),
            }
        } else {
            Some(key_reading::<false>(self.bytes, at, cut).0)
        }
    }
}

/// Whether `b` may start a word of bare text that goes on a value's text: a letter or digit,
/// any byte outside ASCII, or `*`, `_`, `(` (Markdown's emphasis, a parenthesis).
fn starts_text_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b >= 0x80 || matches!(b, b'*' | b'_' | b'(')
}
