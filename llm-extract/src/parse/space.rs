//! Skipping whitespace between tokens: the four JSON allows, and the other spaces models and
//! editors put there (vertical tabs and form feeds, no-break spaces, ideographic spaces,
//! zero-width spaces, a byte-order mark), as `lex` defines them.
//!
//! Outside strings these separate tokens like a space does; inside strings they are content.

use crate::lex::{
    self, may_start_space as is_space_start, may_start_unicode_space, unicode_space_len, Comment,
};

/// The offset of the first byte at or after `i` (and before `limit`) that is not whitespace,
/// ASCII or Unicode.
#[inline]
pub(crate) fn skip_space(bytes: &[u8], i: usize, limit: usize) -> usize {
    // Most calls stand at a token already, or one space before it: decided without a loop.
    match bytes.get(i..limit) {
        Some([b, ..]) if !is_space_start(*b) => i,
        Some([b' ', b, ..]) if !is_space_start(*b) => i + 1,
        _ => skip_space_run(bytes, i, limit),
    }
}

/// [`skip_space`] past a run of spaces.
fn skip_space_run(bytes: &[u8], mut i: usize, limit: usize) -> usize {
    while i < limit {
        match bytes[i] {
            b' ' => i = skip_blanks(bytes, i, limit),
            b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => i += 1,
            b if may_start_unicode_space(b) => match unicode_space_len(&bytes[i..limit]) {
                0 => return i,
                n => i += n,
            },
            _ => return i,
        }
    }
    i
}

/// The offset of the first byte at or after `i` (and before `limit`) that is not `' '`: the
/// indentation of pretty-printed JSON, eight bytes at a time.
#[inline]
pub(crate) fn skip_blanks(bytes: &[u8], mut i: usize, limit: usize) -> usize {
    const BLANKS: u64 = u64::from_le_bytes([b' '; 8]);
    while let Some(chunk) = bytes.get(i..i + 8).filter(|_| i + 8 <= limit) {
        let other = u64::from_le_bytes(chunk.try_into().expect("eight bytes")) ^ BLANKS;
        if other != 0 {
            return i + (other.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < limit && bytes[i] == b' ' {
        i += 1;
    }
    i
}

/// [`skip_space`] that also passes comments (`//` and `#` to the end of their line, `/* */`)
/// that end before `limit`. A line comment holding a closer stops it: whether the comment
/// ends at that closer is the parser's call, made with the rest of the text.
#[inline]
pub(crate) fn skip_space_comments(bytes: &[u8], i: usize, limit: usize) -> usize {
    let i = skip_space(bytes, i, limit);
    if i >= limit || !matches!(bytes[i], b'/' | b'#') {
        return i;
    }
    skip_comments(bytes, i, limit)
}

/// [`skip_space_comments`] from a `/` or `#` at `i`.
fn skip_comments(bytes: &[u8], mut i: usize, limit: usize) -> usize {
    loop {
        let rest = &bytes[i..limit];
        let after = match lex::comment_opener(rest) {
            Some((Comment::Block, len)) => {
                lex::comment_end(Comment::Block, &rest[len..]).map(|n| i + len + n)
            }
            Some((Comment::Line, _)) => lex::comment_end(Comment::Line, rest)
                .filter(|&n| !rest[..n].iter().any(|b| matches!(b, b'}' | b']')))
                .map(|n| i + n),
            None => None,
        };
        match after {
            Some(next) => i = skip_space(bytes, next, limit),
            None => return i,
        }
        if i >= limit || !matches!(bytes[i], b'/' | b'#') {
            return i;
        }
    }
}

/// [`skip_space`] that also says whether a line break was passed.
#[inline]
pub(crate) fn skip_space_lines(bytes: &[u8], i: usize, limit: usize) -> (usize, bool) {
    let end = skip_space(bytes, i, limit);
    (
        end,
        bytes[i..end].iter().any(|&b| matches!(b, b'\n' | b'\r')),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_of_every_kind_are_skipped() {
        let s = " \u{3000}\n\u{feff}\u{b}\u{c}\u{85}\u{1680}x";
        assert_eq!(skip_space(s.as_bytes(), 0, s.len()), s.len() - 1);
        assert_eq!(skip_space(b"\x0cx", 0, 2), 1);
        assert_eq!(skip_space("\u{2030}".as_bytes(), 0, 3), 0);
    }
}
