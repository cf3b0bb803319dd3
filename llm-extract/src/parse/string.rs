//! Strings: any quote style, escapes, raw control characters, and quotes that models forget
//! to escape (a quote ends the string only if what follows makes sense there).

use super::{Parser, Slot};
use crate::node::{Quoting, Str};
use crate::report::RepairKind;
use crate::span::Span;
use std::borrow::Cow;

/// The quote a string was opened with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Quote {
    Double,
    Single,
    Backtick,
    /// `“`, closed by `”` (or, sloppily, `“` or `"`).
    CurlyDouble,
    /// `‘`, closed by `’`.
    CurlySingle,
}

const LEFT_DOUBLE: &[u8] = "“".as_bytes();
const RIGHT_DOUBLE: &[u8] = "”".as_bytes();
const LEFT_SINGLE: &[u8] = "‘".as_bytes();
const RIGHT_SINGLE: &[u8] = "’".as_bytes();

/// The quote that opens a string at the start of `rest`, and its length in bytes.
pub(crate) fn opening_quote(rest: &[u8]) -> Option<(Quote, usize)> {
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
fn closing_quote(quote: Quote, rest: &[u8]) -> Option<usize> {
    match quote {
        Quote::Double => (rest[0] == b'"').then_some(1),
        Quote::Single => (rest[0] == b'\'').then_some(1),
        Quote::Backtick => (rest[0] == b'`').then_some(1),
        Quote::CurlyDouble if rest[0] == b'"' => Some(1),
        Quote::CurlyDouble => {
            (rest.starts_with(RIGHT_DOUBLE) || rest.starts_with(LEFT_DOUBLE)).then_some(3)
        }
        Quote::CurlySingle => rest.starts_with(RIGHT_SINGLE).then_some(3),
    }
}

/// A parsed string and whether its closing quote was present.
pub(crate) struct Scanned<'a> {
    pub value: Str<'a>,
    pub complete: bool,
}

/// Where the first quote that did not end the string was, to go back to if the string then
/// runs to the end of the input.
struct Rejected {
    at: usize,
    closer_len: usize,
    segment_start: usize,
    owned_len: Option<usize>,
    repairs_len: usize,
}

/// Bytes that stop the scan of a `"` string: the quote, a backslash, control characters.
static STOPS_DOUBLE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

/// [`STOPS_DOUBLE`] plus `,`: in a value, a comma may be where a string missing its closing
/// quote really ended.
static STOPS_DOUBLE_VALUE: [bool; 256] = {
    let mut table = STOPS_DOUBLE;
    table[b',' as usize] = true;
    table
};

/// Whether a key cut off by the end of the input counts as a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cut {
    Allowed,
    Refused,
}

/// How far ahead the parser looks to decide whether a quote ends a string.
const KEY_LOOKAHEAD: usize = 256;

impl<'a, B: super::Build<'a>> Parser<'a, B> {
    /// Reads the string starting at `self.pos` (which holds an opening quote).
    pub(crate) fn string(&mut self, slot: Slot) -> Scanned<'a> {
        let open = self.pos;
        let (quote, open_len) =
            opening_quote(&self.bytes[self.pos..self.end]).expect("caller saw a quote");
        if quote != Quote::Double {
            self.repair(
                RepairKind::NonStandardQuotes,
                Span::new(open, open + open_len),
            );
        }
        let quoting = if quote == Quote::Double {
            Quoting::Double
        } else {
            Quoting::Other
        };
        let content_start = open + open_len;
        let mut i = content_start;
        let mut segment_start = content_start;
        let mut owned: Option<String> = None;
        let mut rejected: Option<Rejected> = None;
        let special = match quote {
            Quote::Double => b'"',
            Quote::Single => b'\'',
            Quote::Backtick => b'`',
            Quote::CurlyDouble | Quote::CurlySingle => 0xE2,
        };
        let in_value = matches!(slot, Slot::ObjectValue | Slot::ArrayValue);
        let stops = if in_value {
            &STOPS_DOUBLE_VALUE
        } else {
            &STOPS_DOUBLE
        };
        loop {
            // Fast scan to the next byte that needs a decision.
            if quote == Quote::Double {
                while i < self.end && !stops[self.bytes[i] as usize] {
                    i += 1;
                }
            } else {
                while i < self.end {
                    let b = self.bytes[i];
                    if b == special
                        || b == b'\\'
                        || b < 0x20
                        || (in_value && b == b',')
                        || (quote == Quote::CurlyDouble && b == b'"')
                    {
                        break;
                    }
                    i += 1;
                }
            }
            if i >= self.end {
                break;
            }
            let b = self.bytes[i];
            if b == b'\\' {
                let out = owned.get_or_insert_with(String::new);
                out.push_str(&self.text[segment_start..i]);
                match self.escape(i, quote, out) {
                    Some(next) => {
                        i = next;
                        segment_start = i;
                    }
                    None => {
                        // A backslash at the very end: the input was cut off.
                        i = self.end;
                        segment_start = i;
                        break;
                    }
                }
            } else if in_value && (b == b',' || b == b'\n') && self.member_follows(i, quote, slot) {
                // No closing quote: the string ended where the next member (or item) begins.
                let text = finish(self.text, owned, segment_start, i);
                self.repair(RepairKind::MissingQuote, Span::at(i));
                self.pos = i;
                return Scanned {
                    value: Str { text, quoting },
                    complete: true,
                };
            } else if b == b',' {
                i += 1;
            } else if b < 0x20 {
                self.repair(RepairKind::ControlCharacter, Span::new(i, i + 1));
                i += 1;
            } else if let Some(closer_len) = closing_quote(quote, &self.bytes[i..self.end]) {
                if self.closes_here(i + closer_len, slot) {
                    let text = finish(self.text, owned, segment_start, i);
                    self.pos = i + closer_len;
                    return Scanned {
                        value: Str { text, quoting },
                        complete: true,
                    };
                }
                if rejected.is_none() {
                    rejected = Some(Rejected {
                        at: i,
                        closer_len,
                        segment_start,
                        owned_len: owned.as_ref().map(String::len),
                        repairs_len: self.repairs.len(),
                    });
                }
                self.repair(RepairKind::UnescapedQuote, Span::new(i, i + closer_len));
                i += closer_len;
            } else {
                // A lead byte 0xE2 that is not our closing quote: an ordinary character.
                i += 1;
            }
        }
        // The input ended inside the string. If a quote was passed over and structure follows
        // it, that quote was the real end: go back to it (at most once per input length).
        let passed_a_quote = rejected.is_some();
        if let Some(r) = rejected {
            let rest = &self.bytes[r.at..self.end];
            if self.backtrack_budget >= rest.len() && memchr::memchr2(b'}', b']', rest).is_some() {
                self.backtrack_budget -= rest.len();
                self.repairs.truncate(r.repairs_len);
                let text = match (owned, r.owned_len) {
                    (Some(mut s), Some(n)) => {
                        s.truncate(n);
                        s.push_str(&self.text[r.segment_start..r.at]);
                        Cow::Owned(s)
                    }
                    _ => Cow::Borrowed(&self.text[content_start..r.at]),
                };
                self.pos = r.at + r.closer_len;
                return Scanned {
                    value: Str { text, quoting },
                    complete: true,
                };
            }
        }
        // `{"a": "hello}` at the end of the input: the closers were the containers', not text.
        if in_value && !passed_a_quote {
            let content = &self.bytes[segment_start..self.end];
            let mut at = content.len();
            while at > 0 && matches!(content[at - 1], b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                at -= 1;
            }
            let run = &content[at..];
            let first = run.iter().find(|b| matches!(b, b'}' | b']'));
            let closer = if slot == Slot::ObjectValue {
                b'}'
            } else {
                b']'
            };
            if first == Some(&closer) {
                let at = segment_start + at;
                let text = finish(self.text, owned, segment_start, at);
                self.repair(RepairKind::MissingQuote, Span::at(at));
                self.pos = at;
                return Scanned {
                    value: Str { text, quoting },
                    complete: true,
                };
            }
        }
        self.repair(RepairKind::TruncatedString, Span::new(open, self.end));
        let text = finish(self.text, owned, segment_start, self.end);
        self.pos = self.end;
        Scanned {
            value: Str { text, quoting },
            complete: false,
        }
    }

    /// Decodes the escape whose backslash is at `at` into `out`; returns the offset after it,
    /// or `None` if the input ends right after the backslash.
    fn escape(&mut self, at: usize, quote: Quote, out: &mut String) -> Option<usize> {
        let &c = self.bytes.get(at + 1).filter(|_| at + 1 < self.end)?;
        let simple = match c {
            b'"' => Some('"'),
            b'\\' => Some('\\'),
            b'/' => Some('/'),
            b'b' => Some('\u{8}'),
            b'f' => Some('\u{c}'),
            b'n' => Some('\n'),
            b'r' => Some('\r'),
            b't' => Some('\t'),
            _ => None,
        };
        if let Some(ch) = simple {
            out.push(ch);
            return Some(at + 2);
        }
        if c == b'u' {
            if let Some(code) = self.hex4(at + 2) {
                let mut next = at + 6;
                let ch = if (0xD800..0xDC00).contains(&code) {
                    // A high surrogate must be followed by `\u` and a low one.
                    match (self.bytes.get(next..next + 2), self.hex4(next + 2)) {
                        (Some(b"\\u"), Some(low))
                            if (0xDC00..0xE000).contains(&low) && next + 6 <= self.end =>
                        {
                            next += 6;
                            char::from_u32(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
                        }
                        _ => None,
                    }
                } else {
                    char::from_u32(code)
                };
                let ch = ch.unwrap_or_else(|| {
                    self.repair(RepairKind::InvalidEscape, Span::new(at, next));
                    '\u{FFFD}'
                });
                out.push(ch);
                return Some(next);
            }
        }
        if c == b'\'' || (c == b'`' && quote == Quote::Backtick) {
            // `\'` is how JavaScript and Python escape a single quote.
            if quote == Quote::Double {
                self.repair(RepairKind::InvalidEscape, Span::new(at, at + 2));
            }
            out.push(c as char);
            return Some(at + 2);
        }
        // Not an escape JSON knows: keep the backslash and what follows, as written.
        self.repair(RepairKind::InvalidEscape, Span::new(at, at + 2));
        out.push('\\');
        Some(at + 1)
    }

    fn hex4(&self, at: usize) -> Option<u32> {
        let digits = self.bytes.get(at..at + 4).filter(|_| at + 4 <= self.end)?;
        let s = std::str::from_utf8(digits).ok()?;
        if !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(s, 16).ok()
    }

    /// Whether a quote whose closing byte ends just before `after` really ends the string,
    /// judged by what follows it in this slot.
    fn closes_here(&self, after: usize, slot: Slot) -> bool {
        let mut i = after;
        let mut newline = false;
        while i < self.end && matches!(self.bytes[i], b' ' | b'\t' | b'\n' | b'\r') {
            newline |= matches!(self.bytes[i], b'\n' | b'\r');
            i += 1;
        }
        if i >= self.end {
            return true;
        }
        let c = self.bytes[i];
        let comment = c == b'/' && matches!(self.bytes.get(i + 1), Some(b'/' | b'*'));
        match slot {
            Slot::Key => {
                newline
                    || comment
                    || matches!(c, b':' | b'}' | b',' | b'=' | b']' | b'{' | b'[')
                    || opening_quote(&self.bytes[i..self.end]).is_some()
            }
            Slot::ObjectValue => match c {
                b'}' | b']' => true,
                b',' => {
                    let mut j = i + 1;
                    while j < self.end && matches!(self.bytes[j], b' ' | b'\t' | b'\n' | b'\r') {
                        j += 1;
                    }
                    j >= self.end
                        || matches!(self.bytes[j], b'}' | b'/' | b'#')
                        || self.looks_like_key(j)
                }
                b'+' => true,
                _ if comment => true,
                b'#' => newline,
                _ => self.looks_like_key(i),
            },
            Slot::ArrayValue => {
                matches!(c, b',' | b']' | b'}' | b'+')
                    || comment
                    || opening_quote(&self.bytes[i..self.end]).is_some()
                    || (newline && c != b'#')
            }
            Slot::Root => newline || comment || !(c.is_ascii_alphanumeric() || c >= 0x80),
        }
    }

    /// At a `,` or newline at `at` inside a value string: whether what follows is the next
    /// member (a quoted key and `:`) in an object, or the next quoted item (followed by `,` or
    /// `]`) in an array, written with the same quote. Then the string lacked its closing
    /// quote. Valid JSON never gets here: its strings hold no raw newline and no unescaped
    /// quote. Bounded by `KEY_LOOKAHEAD`.
    fn member_follows(&self, at: usize, quote: Quote, slot: Slot) -> bool {
        let mut j = at + 1;
        let limit = (at + KEY_LOOKAHEAD).min(self.end);
        while j < limit && matches!(self.bytes[j], b' ' | b'\t' | b'\n' | b'\r') {
            j += 1;
        }
        let Some((found, len)) = opening_quote(&self.bytes[j..self.end]) else {
            return false;
        };
        // A quote that can close this string does (`[",", ","]` is valid JSON).
        if j >= limit || found != quote || self.closes_here(j + len, slot) {
            return false;
        }
        match slot {
            Slot::ObjectValue => self.key_at(j, Cut::Refused),
            Slot::ArrayValue => {
                let mut k = j + 1;
                while k < limit && self.bytes[k] != self.bytes[j] && self.bytes[k] != b'\n' {
                    k += if self.bytes[k] == b'\\' { 2 } else { 1 };
                }
                if k >= limit || self.bytes[k] != self.bytes[j] {
                    return false;
                }
                k += 1;
                while k < limit && matches!(self.bytes[k], b' ' | b'\t') {
                    k += 1;
                }
                k < self.end && matches!(self.bytes[k], b',' | b']')
            }
            _ => false,
        }
    }

    /// Whether a key (quoted or a bare word) followed by `:` starts at `at`. Looks at most
    /// `KEY_LOOKAHEAD` bytes ahead, which keeps string scanning linear.
    pub(crate) fn looks_like_key(&self, at: usize) -> bool {
        self.key_at(at, Cut::Allowed)
    }

    /// [`Self::looks_like_key`] for a key written whole (closing quote and `:`).
    pub(crate) fn looks_like_whole_key(&self, at: usize) -> bool {
        self.key_at(at, Cut::Refused)
    }

    /// [`Self::looks_like_key`], saying whether a quoted key cut off by the end of the input
    /// counts.
    fn key_at(&self, at: usize, cut: Cut) -> bool {
        let limit = (at + KEY_LOOKAHEAD).min(self.end);
        let mut i = at;
        if let Some((quote, len)) = opening_quote(&self.bytes[at..self.end]) {
            i += len;
            if quote == Quote::Double {
                // The usual case, found with memchr: the closing quote of a plain key.
                loop {
                    match memchr::memchr3(b'"', b'\\', b'\n', &self.bytes[i..limit]) {
                        Some(k) if self.bytes[i + k] == b'"' => {
                            i += k + 1;
                            break;
                        }
                        Some(k) if self.bytes[i + k] == b'\\' => i += k + 2,
                        // A key cut off by the end of the input.
                        None if limit == self.end && cut == Cut::Allowed => return true,
                        _ => return false,
                    }
                    if i >= limit {
                        return false;
                    }
                }
            } else {
                loop {
                    if i >= limit {
                        return false;
                    }
                    match self.bytes[i] {
                        b'\\' => i += 2,
                        b'\n' => return false,
                        _ => {
                            if let Some(close) = closing_quote(quote, &self.bytes[i..self.end]) {
                                i += close;
                                break;
                            }
                            i += 1;
                        }
                    }
                }
            }
        } else {
            let start = i;
            while i < limit
                && (self.bytes[i].is_ascii_alphanumeric()
                    || matches!(self.bytes[i], b'_' | b'-' | b'$'))
            {
                i += 1;
            }
            if i == start {
                return false;
            }
        }
        while i < limit && matches!(self.bytes[i], b' ' | b'\t') {
            i += 1;
        }
        i < self.end && self.bytes[i] == b':'
    }
}

fn finish<'a>(
    text: &'a str,
    owned: Option<String>,
    segment_start: usize,
    end: usize,
) -> Cow<'a, str> {
    match owned {
        Some(mut s) => {
            s.push_str(&text[segment_start..end]);
            Cow::Owned(s)
        }
        None => Cow::Borrowed(&text[segment_start..end]),
    }
}
