//! The lexical facts every stage agrees on: which characters are whitespace, which quotes open
//! and close a string, and where a comment starts and ends.
//!
//! `locate` uses them to know, without parsing, whether a bracket, fence or tag sits inside a
//! string or comment of a value; the parser reads the same forms. Keeping them in one place is
//! what makes both stages agree on where a string ends.

/// Whether `c` separates tokens: Unicode whitespace (`char::is_whitespace`, which holds the
/// vertical tab and form feed, U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029,
/// U+202F, U+205F and U+3000 besides JSON's four), plus the invisible characters models and
/// editors leave between tokens (zero width space U+200B, the byte order mark U+FEFF, the
/// Mongolian vowel separator U+180E), which Unicode no longer counts as whitespace.
///
/// The one definition: [`space_len`], [`is_ascii_space`] and [`unicode_space_len`] answer
/// the same for every character (a test holds them to it).
pub(crate) fn is_space(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{200B}' | '\u{FEFF}' | '\u{180E}')
}

/// Whether the byte `b` is an ASCII space: JSON's four (space, tab, line feed, carriage
/// return), the vertical tab and the form feed.
#[inline]
pub(crate) fn is_ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Whether a byte may start a space outside ASCII (see [`unicode_space_len`]): one
/// comparison keeps the ASCII path fast.
#[inline]
pub(crate) fn may_start_unicode_space(b: u8) -> bool {
    matches!(b, 0xC2 | 0xE1 | 0xE2 | 0xE3 | 0xEF)
}

/// Whether the byte `b` may start a space: an ASCII one, or the first byte of one outside
/// ASCII.
#[inline]
pub(crate) fn may_start_space(b: u8) -> bool {
    is_ascii_space(b) || may_start_unicode_space(b)
}

/// The length in bytes of a space outside ASCII at the start of `rest`, or 0: U+0085,
/// U+00A0, U+1680, U+180E, U+2000..U+200B, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF.
/// Byte patterns, so the parser's hot loops need no decoding.
#[inline]
pub(crate) fn unicode_space_len(rest: &[u8]) -> usize {
    match rest {
        [0xC2, 0x85 | 0xA0, ..] => 2,
        [0xE1, 0x9A, 0x80, ..] | [0xE1, 0xA0, 0x8E, ..] => 3,
        [0xE2, 0x80, 0x80..=0x8B | 0xA8 | 0xA9 | 0xAF, ..] => 3,
        [0xE2, 0x81, 0x9F, ..] => 3,
        [0xE3, 0x80, 0x80, ..] => 3,
        [0xEF, 0xBB, 0xBF, ..] => 3,
        _ => 0,
    }
}

/// The length in bytes of the whitespace character that starts `rest`, or 0.
#[inline]
pub(crate) fn space_len(rest: &[u8]) -> usize {
    match rest.first() {
        Some(&b) if is_ascii_space(b) => 1,
        Some(&b) if may_start_unicode_space(b) => unicode_space_len(rest),
        _ => 0,
    }
}

/// Whether only spaces ([`space_len`]) stand in `rest` before its first line break (or its
/// end): what may follow a fence's closing run on its line.
pub(crate) fn blank_line_rest(rest: &[u8]) -> bool {
    let mut i = 0;
    while i < rest.len() && rest[i] != b'\n' {
        match space_len(&rest[i..]) {
            0 => return false,
            n => i += n,
        }
    }
    true
}

/// The length of the spaces ([`space_len`], not a line break) that end `bytes`.
pub(crate) fn trailing_line_spaces(bytes: &[u8]) -> usize {
    let mut end = bytes.len();
    while end > 0 && bytes[end - 1] != b'\n' {
        match space_len_before(bytes, end) {
            0 => break,
            n => end -= n,
        }
    }
    bytes.len() - end
}

/// The offset of the first byte at or after `i` (and before `limit`) that is not a space
/// within a line: every space [`space_len`] counts but the line feed and carriage return.
/// What may stand between a key and its `:`.
#[inline]
pub(crate) fn skip_inline_spaces(bytes: &[u8], i: usize, limit: usize) -> usize {
    // Most keys are followed by their `:` or one space: decided without the loop.
    match bytes.get(i..limit) {
        Some([b, ..]) if !may_start_space(*b) => i,
        Some([b' ', b, ..]) if !may_start_space(*b) => i + 1,
        _ => skip_inline_spaces_run(bytes, i, limit),
    }
}

/// [`skip_inline_spaces`] past a run of spaces.
fn skip_inline_spaces_run(bytes: &[u8], mut i: usize, limit: usize) -> usize {
    while i < limit {
        match bytes[i] {
            b' ' | b'\t' => i += 1,
            b'\n' | b'\r' => break,
            _ => match space_len(&bytes[i..limit]) {
                0 => break,
                n => i += n,
            },
        }
    }
    i
}

/// The ASCII separator a full-width one at the start of `rest` stands for: `：` (U+FF1A) for
/// `:` and `，` (U+FF0C) for `,`, as models answering in Chinese or Japanese write them
/// between a key and its value or between members. Only where a separator belongs: inside a
/// string they are text.
#[inline]
pub(crate) fn fullwidth_separator(rest: &[u8]) -> Option<u8> {
    match rest {
        [0xEF, 0xBC, 0x9A, ..] => Some(b':'),
        [0xEF, 0xBC, 0x8C, ..] => Some(b','),
        _ => None,
    }
}

/// The length in bytes of a full-width separator (see [`fullwidth_separator`]).
pub(crate) const FULLWIDTH_LEN: usize = 3;

/// The length in bytes of the whitespace character that ends just before `at` in `bytes`,
/// or 0. Looks back at most four bytes.
#[inline]
pub(crate) fn space_len_before(bytes: &[u8], at: usize) -> usize {
    let Some(&last) = at.checked_sub(1).and_then(|i| bytes.get(i)) else {
        return 0;
    };
    if last < 0x80 {
        return usize::from(is_ascii_space(last));
    }
    // A continuation byte: find the lead byte of the character it belongs to.
    let mut start = at - 1;
    while start > 0 && at - start < 4 && bytes[start] & 0xC0 == 0x80 {
        start -= 1;
    }
    if space_len(&bytes[start..at]) == at - start {
        at - start
    } else {
        0
    }
}

/// How many bytes a UTF-8 character with lead byte `b` takes.
pub(crate) fn utf8_len(b: u8) -> usize {
    match b {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

/// Whether `c` may be part of a JSONP callback's name (`callback_123`, `$.cb`,
/// `jQuery.fn`): the locator's test for `name(value);` around a value.
pub(crate) fn is_callee_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.')
}

/// `text` without leading and trailing whitespace (as [`is_space`] says).
pub(crate) fn trim(text: &str) -> &str {
    text.trim_matches(is_space)
}

/// `text` without leading whitespace (as [`is_space`] says).
pub(crate) fn trim_start(text: &str) -> &str {
    text.trim_start_matches(is_space)
}

/// `text` without trailing whitespace (as [`is_space`] says).
pub(crate) fn trim_end(text: &str) -> &str {
    text.trim_end_matches(is_space)
}

/// The quote a string was opened with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Quote {
    Double,
    Single,
    Backtick,
    /// `“` (or a misplaced `”`), closed by `”` (or, sloppily, `“` or `"`).
    CurlyDouble,
    /// `‘`, closed by `’`.
    CurlySingle,
    /// Python's `"""`, closed by `"""`.
    TripleDouble,
    /// Python's `'''`, closed by `'''`.
    TripleSingle,
}

const LEFT_DOUBLE: &[u8] = "“".as_bytes();
const RIGHT_DOUBLE: &[u8] = "”".as_bytes();
const LEFT_SINGLE: &[u8] = "‘".as_bytes();
const RIGHT_SINGLE: &[u8] = "’".as_bytes();

/// The quote that opens a string at the start of `rest`, and its length in bytes. Triple
/// quotes are recognised before single ones: `"""` is never valid JSON outside a string.
pub(crate) fn opening_quote(rest: &[u8]) -> Option<(Quote, usize)> {
    match rest {
        [b'"', b'"', b'"', ..] => Some((Quote::TripleDouble, 3)),
        [b'\'', b'\'', b'\'', ..] => Some((Quote::TripleSingle, 3)),
        _ => single_opening_quote(rest),
    }
}

/// The quote that opens a string at the start of `rest`, and its length in bytes, not
/// counting triple quotes (the parser reads those on their own, `parse/triple.rs`).
pub(crate) fn single_opening_quote(rest: &[u8]) -> Option<(Quote, usize)> {
    match rest.first()? {
        b'"' => Some((Quote::Double, 1)),
        b'\'' => Some((Quote::Single, 1)),
        b'`' => Some((Quote::Backtick, 1)),
        0xE2 if rest.starts_with(LEFT_DOUBLE) || rest.starts_with(RIGHT_DOUBLE) => {
            Some((Quote::CurlyDouble, 3))
        }
        0xE2 if rest.starts_with(LEFT_SINGLE) => Some((Quote::CurlySingle, 3)),
        _ => None,
    }
}

/// The length of a closing quote for `quote` at the start of `rest`, if there is one.
pub(crate) fn closing_quote(quote: Quote, rest: &[u8]) -> Option<usize> {
    let first = *rest.first()?;
    match quote {
        Quote::Double => (first == b'"').then_some(1),
        Quote::Single => (first == b'\'').then_some(1),
        Quote::Backtick => (first == b'`').then_some(1),
        Quote::CurlyDouble if first == b'"' => Some(1),
        Quote::CurlyDouble => {
            (rest.starts_with(RIGHT_DOUBLE) || rest.starts_with(LEFT_DOUBLE)).then_some(3)
        }
        Quote::CurlySingle => rest.starts_with(RIGHT_SINGLE).then_some(3),
        Quote::TripleDouble => rest.starts_with(b"\"\"\"").then_some(3),
        Quote::TripleSingle => rest.starts_with(b"'''").then_some(3),
    }
}

impl Quote {
    /// The ASCII quote `b` as a [`Quote`]: `"`, `'` or a backtick.
    pub(crate) fn ascii(b: u8) -> Option<Quote> {
        match b {
            b'"' => Some(Quote::Double),
            b'\'' => Some(Quote::Single),
            b'`' => Some(Quote::Backtick),
            _ => None,
        }
    }
}

/// Where a string opened with `quote`, whose text goes on at `from`, ends for every scan that
/// steps over strings without reading them (locate's scan for where a value is, the labeled
/// sections' bracket count, the tool-call scanners, Python code in a call): at the first
/// closing quote for `quote` ([`closing_quote`]) that no backslash escapes, a backslash
/// escaping the byte after it, whatever it is. Quotes and backslashes are looked for before
/// `limit` (a closing quote of several bytes may end past it). `Ok` with the closing quote's
/// position and length; `Err` when none is found before `limit`, with where a scan of more text
/// goes on (past `limit` when the text before it ends with a backslash, whose escaped byte is
/// after it).
///
/// The parser reads more into a string than this (a quote that does not close it, a closing
/// quote gone missing: `parse/string.rs`), and its reading is the one a value gets; this rule
/// only says where things are.
pub(crate) fn string_close(
    bytes: &[u8],
    from: usize,
    limit: usize,
    quote: Quote,
) -> Result<(usize, usize), usize> {
    let (a, b, c) = quote_stops(quote);
    let mut i = from;
    while i < limit {
        let Some(j) = memchr::memchr3(a, b, c, &bytes[i..limit]) else {
            return Err(limit);
        };
        let at = i + j;
        if bytes[at] == b'\\' {
            i = at + 2;
            continue;
        }
        if let Some(len) = closing_quote(quote, &bytes[at..]) {
            return Ok((at, len));
        }
        i = at + 1;
    }
    Err(i)
}

/// The bytes that may end a string opened with `quote` or start an escape in it: what a scan
/// for the closing quote stops at before asking [`closing_quote`].
pub(crate) fn quote_stops(quote: Quote) -> (u8, u8, u8) {
    match quote {
        Quote::Double | Quote::TripleDouble => (b'"', b'\\', b'"'),
        Quote::Single | Quote::TripleSingle => (b'\'', b'\\', b'\''),
        Quote::Backtick => (b'`', b'\\', b'`'),
        Quote::CurlyDouble => (0xE2, b'\\', b'"'),
        Quote::CurlySingle => (0xE2, b'\\', 0xE2),
    }
}

/// The character a strict JSON escape at `i` in `bytes` (its backslash) stands for, and the
/// escape's length: `\n`, `\u00e9`, a surrogate pair `\ud83d\ude00`. `None` for anything
/// JSON does not allow: an unknown escape, a lone surrogate, a cut-off escape. (The parser
/// repairs those, `parse/string.rs`; the readers of strict JSON give up on them.)
pub(crate) fn strict_escape(bytes: &[u8], i: usize) -> Option<(char, usize)> {
    let c = match *bytes.get(i + 1)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let high = hex4(bytes, i + 2)?;
            if let Some(c) = char::from_u32(high) {
                return Some((c, 6));
            }
            // A surrogate: only a high one followed by a low one makes a character.
            if !(0xD800..0xDC00).contains(&high) || bytes.get(i + 6..i + 8)? != b"\\u" {
                return None;
            }
            let low = hex4(bytes, i + 8)?;
            if !(0xDC00..0xE000).contains(&low) {
                return None;
            }
            let c = char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))?;
            return Some((c, 12));
        }
        _ => return None,
    };
    Some((c, 2))
}

/// The four hex digits at `i` as a number.
pub(crate) fn hex4(bytes: &[u8], i: usize) -> Option<u32> {
    bytes.get(i..i + 4)?.iter().try_fold(0u32, |n, b| {
        let d = (*b as char).to_digit(16)?;
        Some(n * 16 + d)
    })
}

/// Whether `b` may be part of a key written without quotes (`user_id`, `x-api-key`, `$ref`):
/// what every reader of a bare key reads as its word.
pub(crate) fn is_key_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'$')
}

/// The length of the word of a key written without quotes at the start of `bytes`, as the
/// tests for a key ahead read it: the bytes of [`is_key_byte`], letters and digits outside
/// ASCII (`año`, `名前`), and a `.` between them (`user.name`, `2.17`; not the last `.` of
/// `e.g.`), or last in `bytes`, where more of the word may follow. A character cut by the end
/// of `bytes` ends it.
#[inline]
pub(crate) fn bare_key_len(bytes: &[u8]) -> usize {
    // The usual key, ASCII word bytes only, in a tight loop.
    let mut i = bytes.iter().take_while(|&&b| is_key_byte(b)).count();
    while let Some(&b) = bytes.get(i) {
        let inner_dot = b == b'.'
            && i > 0
            && bytes
                .get(i + 1)
                .is_none_or(|&next| is_key_byte(next) || next >= 0x80);
        if is_key_byte(b) || inner_dot {
            i += 1;
            continue;
        }
        if b < 0x80 {
            break;
        }
        let len = utf8_len(b);
        let letter = bytes
            .get(i..i + len)
            .and_then(|c| std::str::from_utf8(c).ok())
            .and_then(|c| c.chars().next())
            .is_some_and(char::is_alphanumeric);
        if !letter {
            break;
        }
        i += len;
    }
    i
}

/// Whether `word` is one of the constants every reader reads alike: JSON's `true`, `false`,
/// `null` and Python's `True`, `False`, `None`.
pub(crate) fn is_constant(word: &[u8]) -> bool {
    matches!(
        word,
        b"true" | b"false" | b"null" | b"True" | b"False" | b"None"
    )
}

/// Whether `body`, a string's text between its `quote`s, is written as JSON writes strings: no
/// raw control character, and only JSON's escapes (`\uXXXX` of a surrogate only as a high one
/// followed by a low one), and `\'` in single quotes (the quote escaped, as JavaScript and
/// Python write it, which the parser reads with no repair of its own).
pub(crate) fn strict_string_body(body: &[u8], quote: u8) -> bool {
    if has_control(body) {
        return false;
    }
    let unit = |at: usize| -> Option<u16> {
        let hex = std::str::from_utf8(body.get(at..at + 4)?).ok()?;
        hex.bytes()
            .all(|b| b.is_ascii_hexdigit())
            .then(|| u16::from_str_radix(hex, 16).ok())?
    };
    let mut i = 0;
    while let Some(j) = memchr::memchr(b'\\', &body[i..]) {
        let at = i + j;
        i = match body.get(at + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => at + 2,
            Some(b'\'') if quote == b'\'' => at + 2,
            Some(b'u') => match unit(at + 2) {
                Some(0xD800..=0xDBFF)
                    if body.get(at + 6..at + 8) == Some(b"\\u")
                        && matches!(unit(at + 8), Some(0xDC00..=0xDFFF)) =>
                {
                    at + 12
                }
                Some(0xD800..=0xDFFF) | None => return false,
                Some(_) => at + 6,
            },
            _ => return false,
        };
    }
    true
}

/// Whether `bytes` hold a byte below `0x20` (a raw control character), eight at a time.
#[inline]
pub(crate) fn has_control(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    let mut words = bytes.chunks_exact(8);
    for word in words.by_ref() {
        let w = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        // A byte below 0x20 borrows through its high bit when 0x20 is taken from it.
        if w.wrapping_sub(ONES * 0x20) & !w & HIGHS != 0 {
            return true;
        }
    }
    words.remainder().iter().any(|&b| b < 0x20)
}

/// Whether `s` is a number in JSON's own grammar (`-12`, `3.25`, `1e-3`): an optional `-`, an
/// integer part without leading zeros, an optional fraction and exponent, each with digits.
/// Such a number reads the same to every reader.
pub(crate) fn is_json_number(s: &[u8]) -> bool {
    let digits = |mut i: usize| {
        let from = i;
        while s.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        (i > from).then_some(i)
    };
    let mut i = usize::from(s.first() == Some(&b'-'));
    i = match s.get(i) {
        Some(b'0') => i + 1,
        Some(b'1'..=b'9') => digits(i).unwrap_or(i),
        _ => return false,
    };
    if s.get(i) == Some(&b'.') {
        let Some(end) = digits(i + 1) else {
            return false;
        };
        i = end;
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(s.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let Some(end) = digits(i) else {
            return false;
        };
        i = end;
    }
    i == s.len()
}

/// What a backslash reads as in a string, the lenient way (see [`lenient_escape`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Escape {
    /// A character and the escape's length: JSON's own escapes, and a quote escaped as
    /// JavaScript and Python escape one (`\'`, `` \` `` in a backtick string).
    Char(char, usize),
    /// A `\u` escape of a lone surrogate, of this length: U+FFFD stands for it.
    Replaced(usize),
    /// Not an escape: the backslash is text, and reading goes on after it.
    Backslash,
    /// The text ends inside the escape (`\`, `\u00`, or, while `more` text may come, a
    /// high surrogate whose pair may follow).
    Cut,
}

/// How the backslash at `at` reads in a string closed by the ASCII quote `quote` (0 for
/// other quotes), in `bytes` (the text up to where the string may reach). `more` says
/// whether the text may still grow (a stream): then an escape that could still become
/// another is [`Escape::Cut`]. The one reading of escapes, for the parser and the stream.
pub(crate) fn lenient_escape(bytes: &[u8], at: usize, quote: u8, more: bool) -> Escape {
    if let Some((c, len)) = strict_escape(bytes, at) {
        return Escape::Char(c, len);
    }
    let Some(&c) = bytes.get(at + 1) else {
        return Escape::Cut;
    };
    if c == b'\'' || (c == b'`' && quote == b'`') {
        return Escape::Char(c as char, 2);
    }
    if c != b'u' {
        return Escape::Backslash;
    }
    let hexish = |b: &[u8]| b.iter().all(u8::is_ascii_hexdigit);
    let digits = &bytes[at + 2..bytes.len().min(at + 6)];
    if !hexish(digits) {
        return Escape::Backslash;
    }
    if digits.len() < 4 {
        return Escape::Cut;
    }
    // A surrogate `strict_escape` did not pair.
    let high = hex4(bytes, at + 2).is_some_and(|h| (0xD800..0xDC00).contains(&h));
    let pair = &bytes[at + 6..bytes.len().min(at + 12)];
    let pair_may_follow = pair.len() < 6
        && b"\\u".starts_with(&pair[..pair.len().min(2)])
        && hexish(pair.get(2..).unwrap_or_default());
    if more && high && pair_may_follow {
        Escape::Cut
    } else {
        Escape::Replaced(6)
    }
}

/// A comment, by how it ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Comment {
    /// `// ...` or `# ...`: ends at the line break (which is not part of it).
    Line,
    /// `/* ... */`: ends after `*/`.
    Block,
}

/// The comment that starts at the start of `rest`, and the length of its opener.
pub(crate) fn comment_opener(rest: &[u8]) -> Option<(Comment, usize)> {
    match rest {
        [b'#', ..] => Some((Comment::Line, 1)),
        [b'/', b'/', ..] => Some((Comment::Line, 2)),
        [b'/', b'*', ..] => Some((Comment::Block, 2)),
        _ => None,
    }
}

/// Where the comment whose body starts `body` ends, relative to `body`: before the line break
/// of a line comment, after the `*/` of a block comment; `None` when `body` ends first.
pub(crate) fn comment_end(kind: Comment, body: &[u8]) -> Option<usize> {
    match kind {
        Comment::Line => memchr::memchr(b'\n', body),
        Comment::Block => memchr::memmem::find(body, b"*/").map(|i| i + 2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_space_tests_agree_on_every_character() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let mut buf = [0; 4];
            let s = c.encode_utf8(&mut buf).as_bytes();
            let len = space_len(s);
            assert_eq!(len > 0, is_space(c), "{c:?}");
            assert!(len == 0 || len == s.len(), "{c:?}");
            if c.is_ascii() {
                assert_eq!(is_ascii_space(s[0]), is_space(c), "{c:?}");
            } else if unicode_space_len(s) > 0 {
                assert!(may_start_unicode_space(s[0]), "{c:?}");
            }
        }
    }

    #[test]
    fn unicode_spaces_are_spaces() {
        for c in [
            '\u{000B}', '\u{000C}', '\u{0085}', '\u{00A0}', '\u{1680}', '\u{2000}', '\u{2003}',
            '\u{200A}', '\u{200B}', '\u{202F}', '\u{205F}', '\u{3000}', '\u{180E}', '\u{FEFF}',
        ] {
            let s = c.to_string();
            assert!(is_space(c), "{c:?}");
            assert_eq!(space_len(s.as_bytes()), s.len(), "{c:?}");
            let text = format!("a{s}");
            assert_eq!(space_len_before(text.as_bytes(), text.len()), s.len());
            assert_eq!(trim(&format!("{s} x {s}")), "x");
        }
        for s in ["a", "é", "“", "—", "\u{200C}"] {
            assert_eq!(space_len(s.as_bytes()), 0, "{s:?}");
            let text = format!(" {s}");
            assert_eq!(space_len_before(text.as_bytes(), text.len()), 0, "{s:?}");
        }
        assert_eq!(space_len_before(b" ", 1), 1);
        assert_eq!(space_len_before(b"", 0), 0);
    }

    #[test]
    fn quotes_open_and_close_in_pairs() {
        let rows: &[(&str, Quote, &str)] = &[
            ("\"", Quote::Double, "\""),
            ("'", Quote::Single, "'"),
            ("`", Quote::Backtick, "`"),
            ("“", Quote::CurlyDouble, "”"),
            ("“", Quote::CurlyDouble, "\""),
            ("‘", Quote::CurlySingle, "’"),
            ("\"\"\"", Quote::TripleDouble, "\"\"\""),
            ("'''", Quote::TripleSingle, "'''"),
        ];
        for (open, quote, close) in rows {
            assert_eq!(
                opening_quote(open.as_bytes()),
                Some((*quote, open.len())),
                "{open}"
            );
            assert_eq!(closing_quote(*quote, close.as_bytes()), Some(close.len()));
        }
        assert_eq!(closing_quote(Quote::TripleDouble, b"\"\""), None);
        assert_eq!(opening_quote(b"x"), None);
    }

    #[test]
    fn json_numbers_are_told_from_other_spellings() {
        for s in ["0", "-0", "12", "-1.50", "1e400", "2E+3", "0.5e-7"] {
            assert!(is_json_number(s.as_bytes()), "{s}");
        }
        for s in [
            "", "-", "01", "+1", ".5", "5.", "1e", "1e+", "1_000", "0x1F", "1.2.3",
        ] {
            assert!(!is_json_number(s.as_bytes()), "{s}");
        }
    }

    #[test]
    fn escapes_read_one_way_for_every_reader() {
        let read = |s: &str, quote: u8, more: bool| lenient_escape(s.as_bytes(), 0, quote, more);
        assert_eq!(read("\\n", b'"', false), Escape::Char('\n', 2));
        assert_eq!(read("\\u00e9", b'"', false), Escape::Char('é', 6));
        assert_eq!(read("\\ud83d\\ude00", b'"', false), Escape::Char('😀', 12));
        assert_eq!(read("\\'", b'"', false), Escape::Char('\'', 2));
        assert_eq!(read("\\`", b'`', false), Escape::Char('`', 2));
        assert_eq!(read("\\`", b'"', false), Escape::Backslash);
        assert_eq!(read("\\x41", b'"', false), Escape::Backslash);
        assert_eq!(read("\\uZZZZ", b'"', false), Escape::Backslash);
        assert_eq!(read("\\udc00x", b'"', false), Escape::Replaced(6));
        // Where the text ends inside an escape.
        assert_eq!(read("\\", b'"', false), Escape::Cut);
        assert_eq!(read("\\u00", b'"', false), Escape::Cut);
        // A high surrogate whose pair may still arrive: cut while the text may grow.
        assert_eq!(read("\\ud83d", b'"', true), Escape::Cut);
        assert_eq!(read("\\ud83d\\ud", b'"', true), Escape::Cut);
        assert_eq!(read("\\ud83d", b'"', false), Escape::Replaced(6));
        assert_eq!(read("\\ud83d x", b'"', true), Escape::Replaced(6));
    }

    #[test]
    fn comments_end_where_their_kind_says() {
        assert_eq!(comment_opener(b"# x"), Some((Comment::Line, 1)));
        assert_eq!(comment_opener(b"// x"), Some((Comment::Line, 2)));
        assert_eq!(comment_opener(b"/* x"), Some((Comment::Block, 2)));
        assert_eq!(comment_opener(b"/ x"), None);
        assert_eq!(comment_end(Comment::Line, b" } x\n y"), Some(4));
        assert_eq!(comment_end(Comment::Block, b" } */ y"), Some(5));
        assert_eq!(comment_end(Comment::Block, b" } "), None);
    }

    #[test]
    fn a_string_closes_at_its_first_quote_no_backslash_escapes() {
        let close = |text: &str, quote| string_close(text.as_bytes(), 1, text.len(), quote);
        assert_eq!(close(r#""abc" x"#, Quote::Double), Ok((4, 1)));
        // A backslash escapes the byte after it, a quote or another backslash.
        assert_eq!(close(r#""a\\"b" x"#, Quote::Double), Ok((4, 1)));
        assert_eq!(close(r#""a\"b" x"#, Quote::Double), Ok((5, 1)));
        assert_eq!(close(r#""a\\\"b" x"#, Quote::Double), Ok((7, 1)));
        // The other quote is text; a triple quote needs all three; curly quotes close theirs.
        assert_eq!(close(r#"'a"b' x"#, Quote::Single), Ok((4, 1)));
        assert_eq!(close(r#""a""b""""#, Quote::TripleDouble), Ok((5, 3)));
        assert_eq!(close("“a” x", Quote::CurlyDouble), Ok((4, 3)));
        // Not closed before the limit: where a scan of more text goes on.
        assert_eq!(close(r#""abc"#, Quote::Double), Err(4));
        assert_eq!(close(r#""ab\"#, Quote::Double), Err(5));
        let text = r#""ab\"c" x"#;
        assert_eq!(string_close(text.as_bytes(), 1, 4, Quote::Double), Err(5));
        // A closing quote of several bytes found before the limit may end past it.
        let text = "“ab” x";
        assert_eq!(
            string_close(text.as_bytes(), 3, 6, Quote::CurlyDouble),
            Ok((5, 3))
        );
    }
}
