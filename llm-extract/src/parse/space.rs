//! Whitespace between tokens: the four JSON allows, and the Unicode spaces models and editors
//! put there (no-break spaces, ideographic spaces, zero-width spaces, a byte-order mark).
//!
//! Outside strings these separate tokens like a space does; inside strings they are content.

/// The length in bytes of a Unicode space (other than the ASCII ones) at the start of `rest`,
/// or 0: U+00A0, U+180E, U+2000..U+200B, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF.
pub(crate) fn unicode_space_len(rest: &[u8]) -> usize {
    match rest {
        [0xC2, 0xA0, ..] => 2,
        [0xE1, 0xA0, 0x8E, ..] => 3,
        [0xE2, 0x80, 0x80..=0x8B | 0xA8 | 0xA9 | 0xAF, ..] => 3,
        [0xE2, 0x81, 0x9F, ..] => 3,
        [0xE3, 0x80, 0x80, ..] => 3,
        [0xEF, 0xBB, 0xBF, ..] => 3,
        _ => 0,
    }
}

/// Whether a byte may start a Unicode space: one comparison keeps the ASCII path fast.
#[inline]
pub(crate) fn may_start_unicode_space(b: u8) -> bool {
    matches!(b, 0xC2 | 0xE1 | 0xE2 | 0xE3 | 0xEF)
}

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

/// Whether `b` is ASCII whitespace or may start a Unicode space.
#[inline]
fn is_space_start(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r') || may_start_unicode_space(b)
}

/// [`skip_space`] past a run of spaces.
fn skip_space_run(bytes: &[u8], mut i: usize, limit: usize) -> usize {
    while i < limit {
        match bytes[i] {
            b' ' => i = skip_blanks(bytes, i, limit),
            b'\t' | b'\n' | b'\r' => i += 1,
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
        let after = match rest {
            [b'/', b'*', body @ ..] => memchr::memmem::find(body, b"*/").map(|n| i + 2 + n + 2),
            [b'/', b'/', ..] | [b'#', ..] => memchr::memchr(b'\n', rest)
                .filter(|&n| !rest[..n].iter().any(|b| matches!(b, b'}' | b']')))
                .map(|n| i + n),
            _ => None,
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

/// `text` without trailing whitespace, ASCII or Unicode (`str::trim_end` keeps U+200B,
/// U+180E and U+FEFF, which are not White_Space in Unicode but are spaces to a reader).
pub(crate) fn trim_end(text: &str) -> &str {
    let bytes = text.as_bytes();
    let mut end = bytes.len();
    loop {
        let trimmed = text[..end].trim_end();
        end = trimmed.len();
        let b = trimmed.as_bytes();
        // The three spaces `trim_end` keeps are all three bytes long.
        if end >= 3 && unicode_space_len(&b[end - 3..]) == 3 {
            end -= 3;
        } else {
            return &text[..end];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_space_is_found_and_other_characters_are_not() {
        for c in [
            '\u{a0}', '\u{180e}', '\u{2000}', '\u{2005}', '\u{200a}', '\u{200b}', '\u{2028}',
            '\u{2029}', '\u{202f}', '\u{205f}', '\u{3000}', '\u{feff}',
        ] {
            let s = c.to_string();
            assert_eq!(unicode_space_len(s.as_bytes()), s.len(), "{c:?}");
            assert!(may_start_unicode_space(s.as_bytes()[0]));
        }
        for c in [
            'é', '“', '”', '\u{200c}', '\u{2030}', '…', '€', '\u{3001}', '\u{fefe}',
        ] {
            assert_eq!(unicode_space_len(c.to_string().as_bytes()), 0, "{c:?}");
        }
    }

    #[test]
    fn trailing_spaces_of_every_kind_are_trimmed() {
        assert_eq!(trim_end("a b\u{200b} \u{feff}\u{3000}\t"), "a b");
        assert_eq!(trim_end("é"), "é");
        assert_eq!(trim_end(""), "");
        let s = " \u{3000}\n\u{feff}x";
        assert_eq!(skip_space(s.as_bytes(), 0, s.len()), s.len() - 1);
    }
}
