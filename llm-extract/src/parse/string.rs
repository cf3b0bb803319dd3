//! Strings: any quote style, escapes, raw control characters, and quotes that models forget
//! to escape (a quote ends the string only if what follows makes sense there).

use super::{space, Parser, Slot};
use crate::lex::Escape;
use crate::node::{Quoting, Str};
use crate::report::RepairKind;
use crate::span::Span;
use std::borrow::Cow;

pub(crate) use crate::lex::{closing_quote, single_opening_quote as opening_quote, Quote};

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
    /// The quote would have ended the string but for a code fence still open in it.
    in_fence: bool,
}

/// A string being read: where it started, how it is quoted, and how far the scan got.
struct Scan {
    open: usize,
    quote: Quote,
    quoting: Quoting,
    slot: Slot,
    /// In an object or array value, where a missing closing quote can be recognised.
    in_value: bool,
    content_start: usize,
    /// The next byte to look at.
    i: usize,
    /// Where the content not yet copied into `owned` starts.
    segment_start: usize,
    /// The decoded content, once an escape made it differ from the input.
    owned: Option<String>,
    rejected: Option<Rejected>,
    /// How many quotes that did not end the string were passed over.
    passed: usize,
    /// A markdown code fence opened inside the string (on its own line, raw newlines after
    /// it) and not closed yet: its code may hold quotes, commas and brackets of its own.
    fence_open: bool,
    /// Opened with its quote doubled (`""answer""`, `''x''`, as CSV escapes quotes): a
    /// doubled quote may close it. When it ends any other way with a quote passed over inside
    /// it, the second opening quote was the text's, quoting a word (`""not" benefit low."` is
    /// `"not" benefit low.`); without one it was a stutter (`""value"` is `value`).
    doubled: bool,
    /// The `NonStandardQuotes` repair of the opening quote, if any: one per string, its span
    /// grown to the string's end when the string ends.
    quote_repair: Option<usize>,
}

/// Whether the quote at `at` is doubled before a word (`""answer"`, `''Female`): valid
/// JSON never has a string followed directly by a letter or digit.
fn doubled_quote(bytes: &[u8], at: usize, end: usize) -> bool {
    at + 2 < end
        && matches!(bytes[at], b'"' | b'\'')
        && bytes[at + 1] == bytes[at]
        && starts_word(&bytes[at + 2..end])
}

/// Whether `rest` starts with a character of a word: ASCII letters and digits, and any
/// other character but a space or a full-width separator.
pub(crate) fn starts_word(rest: &[u8]) -> bool {
    match rest.first() {
        Some(b) if b.is_ascii_alphanumeric() => true,
        Some(&b) if b >= 0x80 => {
            crate::lex::unicode_space_len(rest) == 0
                && crate::lex::fullwidth_separator(rest).is_none()
        }
        _ => false,
    }
}

/// The bytes that stop the fast scan of a string: its closing quote's first byte, a backslash,
/// control characters and, in a value, `,`, `}`, `]` (where a string missing its closing quote
/// may have ended) and `` ` `` (a code fence).
const fn stops(special: u8, also_double: bool, in_value: bool) -> [bool; 256] {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    table[special as usize] = true;
    table[b'\\' as usize] = true;
    if also_double {
        table[b'"' as usize] = true;
    }
    if in_value {
        table[b',' as usize] = true;
        table[b'}' as usize] = true;
        table[b']' as usize] = true;
        table[b'`' as usize] = true;
    }
    table
}

static STOPS: [[[bool; 256]; 2]; 4] = [
    [stops(b'"', false, false), stops(b'"', false, true)],
    [stops(b'\'', false, false), stops(b'\'', false, true)],
    [stops(b'`', false, false), stops(b'`', false, true)],
    // Typographic quotes start with 0xE2; a `“` string may also end at `"`.
    [stops(0xE2, true, false), stops(0xE2, true, true)],
];

fn stop_table(quote: Quote, in_value: bool) -> &'static [bool; 256] {
    let kind = match quote {
        Quote::Double | Quote::TripleDouble => 0,
        Quote::Single | Quote::TripleSingle => 1,
        Quote::Backtick => 2,
        Quote::CurlyDouble | Quote::CurlySingle => 3,
    };
    &STOPS[kind][usize::from(in_value)]
}

/// The first byte at or after `i` (before `end`) that `table` stops at, or `end`: four bytes
/// a step while none does.
#[inline]
fn skip_plain(bytes: &[u8], mut i: usize, end: usize, table: &[bool; 256]) -> usize {
    let stops = |b: u8| table[usize::from(b)];
    while let Some(&[a, b, c, d]) = bytes.get(i..i + 4).filter(|_| i + 4 <= end) {
        if stops(a) | stops(b) | stops(c) | stops(d) {
            break;
        }
        i += 4;
    }
    while i < end && !stops(bytes[i]) {
        i += 1;
    }
    i
}

/// Whether a key cut off by the end of the input counts as a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cut {
    Allowed,
    Refused,
}

/// The longest word read as stray between a key and its `:` (`"name" is: "Bob"`).
const STRAY_WORD: usize = 24;

/// How far ahead the parser looks to decide whether a quote ends a string.
pub(crate) const KEY_LOOKAHEAD: usize = 256;

/// How far past a key quoted unlike the string before it the parser looks for that string's
/// own quote on the key's line ([`Parser::other_quote_key_at`]).
const OWN_QUOTE_LOOKAHEAD: usize = 4096;

impl<'a, B: super::Build<'a>> Parser<'a, B> {
    /// Reads the string starting at `self.pos` (which holds an opening quote).
    pub(crate) fn string(&mut self, slot: Slot) -> Scanned<'a> {
        if slot == Slot::Key {
            if let Some(key) = self.plain_key() {
                return key;
            }
        }
        if let Some(triple) = self.triple_quoted() {
            return triple;
        }
        if matches!(slot, Slot::ObjectValue | Slot::ArrayValue) {
            if let Some(code) = self.fenced_value() {
                return code;
            }
        }
        let mut scan = self.open_string(slot);
        let table = stop_table(scan.quote, scan.in_value);
        loop {
            // Fast scan to the next byte that needs a decision.
            scan.i = skip_plain(self.bytes, scan.i, self.end, table);
            if scan.i >= self.end {
                return self.string_ran_out(scan);
            }
            if let Some(done) = self.string_stop(&mut scan) {
                return done;
            }
        }
    }

    /// The usual key, read without the general scan: `"name"` holding no escape, control
    /// character or inner quote, then `:` (after spaces or tabs). The general reading gives
    /// the same for it: the text as written, closed at its quote, nothing repaired.
    #[inline]
    fn plain_key(&mut self) -> Option<Scanned<'a>> {
        let open = self.pos;
        let rest = self.bytes.get(open..self.end)?;
        if rest.first() != Some(&b'"') || rest.get(1) == Some(&b'"') {
            return None;
        }
        // Where the general scan of a key would stop first: its table, read the same way.
        let close = skip_plain(
            self.bytes,
            open + 1,
            self.end,
            stop_table(Quote::Double, false),
        );
        if self.bytes.get(close).filter(|_| close < self.end) != Some(&b'"') {
            return None;
        }
        let after = &self.bytes[close + 1..self.end];
        let blanks = after
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        if after.get(blanks) != Some(&b':') {
            return None;
        }
        self.pos = close + 1;
        Some(Scanned {
            value: Str {
                text: Cow::Borrowed(&self.text[open + 1..close]),
                quoting: Quoting::Double,
            },
            complete: true,
        })
    }

    /// The opening quote at `self.pos`, logged if it is not `"`.
    fn open_string(&mut self, slot: Slot) -> Scan {
        let open = self.pos;
        let (quote, mut open_len) =
            opening_quote(&self.bytes[self.pos..self.end]).expect("caller saw a quote");
        let doubled = doubled_quote(self.bytes, open, self.end);
        if doubled {
            open_len += 1;
        }
        let quote_repair = (quote != Quote::Double || doubled).then(|| {
            self.repair(
                RepairKind::NonStandardQuotes,
                Span::new(open, open + open_len),
            );
            self.repairs.len() - 1
        });
        Scan {
            open,
            quote,
            quoting: if quote == Quote::Double {
                Quoting::Double
            } else {
                Quoting::Other
            },
            slot,
            in_value: matches!(slot, Slot::ObjectValue | Slot::ArrayValue),
            content_start: open + open_len,
            i: open + open_len,
            segment_start: open + open_len,
            owned: None,
            rejected: None,
            passed: 0,
            fence_open: false,
            doubled,
            quote_repair,
        }
    }

    /// The string read from `scan` ends at `end` (after its closing quote, or where its text
    /// ends when it has none), `inner` quotes passed over inside it: its quote repair spans the
    /// whole string, and a quote doubled at the opening that did not close it doubled, with a
    /// quote inside to pair with, was the text's.
    #[inline]
    fn string_closed(&mut self, scan: &mut Scan, end: usize, inner: usize) {
        if scan.doubled || scan.quote_repair.is_some() {
            self.quotes_closed(scan, end, inner);
        }
    }

    /// [`Self::string_closed`] for a string whose quotes were repaired.
    fn quotes_closed(&mut self, scan: &mut Scan, end: usize, inner: usize) {
        if std::mem::take(&mut scan.doubled) && inner > 0 {
            scan.content_start -= 1;
            match &mut scan.owned {
                Some(owned) => owned.insert(0, char::from(self.bytes[scan.content_start])),
                None => scan.segment_start = scan.content_start,
            }
            // The second quote is an unescaped quote in the text; the first, a standard one
            // after all when it is `"`.
            let inner = Span::new(scan.content_start, scan.content_start + 1);
            if let Some(at) = scan.quote_repair {
                let mut unescaped = self.repairs[at].clone();
                unescaped.kind = RepairKind::UnescapedQuote;
                unescaped.cost = RepairKind::UnescapedQuote.cost();
                unescaped.span = inner;
                if scan.quote == Quote::Double {
                    self.repairs[at] = unescaped;
                    scan.quote_repair = None;
                } else {
                    self.repairs[at].span.end = inner.start;
                    self.repairs.insert(at + 1, unescaped);
                }
            }
        }
        if let Some(repair) = scan.quote_repair.and_then(|at| self.repairs.get_mut(at)) {
            repair.span.end = end.max(repair.span.end);
        }
    }

    /// Decides at a byte the fast scan stopped at: the string ends here (returned), or the
    /// scan goes on past it.
    fn string_stop(&mut self, scan: &mut Scan) -> Option<Scanned<'a>> {
        let i = scan.i;
        let b = self.bytes[i];
        let open_code = scan.fence_open;
        if b == b'\\' {
            let out = scan.owned.get_or_insert_with(String::new);
            out.push_str(&self.text[scan.segment_start..i]);
            // `None`: a backslash at the very end, the input was cut off.
            scan.i = self.escape(i, scan.quote, out).unwrap_or(self.end);
            scan.segment_start = scan.i;
        } else if b == b'`' && scan.quote != Quote::Backtick {
            scan.i = self.fence_marker(i, scan);
        } else if scan.in_value
            && !open_code
            && (((b == b',' || b == b'\n') && self.member_follows(i, scan.quote, scan.slot))
                || (matches!(b, b'}' | b']')
                    && (self.closer_follows(i, scan.quote, scan.slot)
                        || self.closers_end_text(i, scan.content_start))))
        {
            // No closing quote: the string ended where the next member (or item) begins, or
            // where its container closes; or at the one quote passed over, when words stand
            // between it and there (`"data" AAAA }`).
            let stray_words =
                (scan.rejected.as_ref()).is_some_and(|r| self.words_after_quote(r, scan, i));
            if let (true, Some(r)) = (stray_words, scan.rejected.take()) {
                let owned = scan.owned.take();
                return Some(self.end_at_rejected(scan, owned, r));
            }
            let end = self.content_end_before(scan, i);
            self.repair(RepairKind::MissingQuote, Span::at(end));
            return Some(self.string_ends(scan, end, i));
        } else if matches!(b, b',' | b'}' | b']') {
            scan.i += 1;
        } else if b < 0x20 {
            self.repair(RepairKind::ControlCharacter, Span::new(i, i + 1));
            scan.i += 1;
        } else if let Some(closer_len) = closing_quote(scan.quote, &self.bytes[i..self.end]) {
            let after = i + 2 * closer_len;
            if scan.doubled
                && !open_code
                && after <= self.end
                && self.bytes[i + closer_len] == self.bytes[i]
                && self.closes_here(after, scan.slot)
            {
                scan.doubled = false; // closed as it opened
                return Some(self.string_ends(scan, i, after));
            }
            let closes = self.closes_here_in(i + closer_len, scan.slot, scan.passed > 0)
                || (scan.rejected.is_none() && self.bare_item_follows(scan, i, closer_len));
            if closes && !open_code {
                return Some(self.string_ends(scan, i, i + closer_len));
            }
            // A quote that would close the string but for an open fence is the better place
            // to go back to than a quote inside the text.
            if scan.rejected.as_ref().is_none_or(|r| closes && !r.in_fence) {
                scan.rejected = Some(Rejected {
                    at: i,
                    closer_len,
                    segment_start: scan.segment_start,
                    owned_len: scan.owned.as_ref().map(String::len),
                    repairs_len: self.repairs.len(),
                    in_fence: closes,
                });
            }
            self.repair(RepairKind::UnescapedQuote, Span::new(i, i + closer_len));
            scan.passed += 1;
            scan.i += closer_len;
        } else {
            // A lead byte 0xE2 that is not our closing quote: an ordinary character.
            scan.i += 1;
        }
        None
    }

    /// Where the content of a string missing its closing quote ends, the structure resuming at
    /// `at`: before the whitespace there if it holds a line break (the line ended the string;
    /// the break's repair is dropped), else at `at`.
    fn content_end_before(&mut self, scan: &Scan, at: usize) -> usize {
        let from = scan.segment_start.max(scan.content_start);
        let mut end = at;
        while end > from && matches!(self.bytes[end - 1], b' ' | b'\t' | b'\n' | b'\r') {
            end -= 1;
        }
        if !self.bytes[end..at].contains(&b'\n') {
            return at;
        }
        while self
            .repairs
            .last()
            .is_some_and(|r| r.kind == RepairKind::ControlCharacter && r.span.start >= end)
        {
            self.repairs.pop();
        }
        end
    }

    /// The string's content ends at `content_end`, and reading goes on at `next`.
    fn string_ends(&mut self, scan: &mut Scan, content_end: usize, next: usize) -> Scanned<'a> {
        let inner = scan.passed;
        self.string_closed(scan, next, inner);
        let owned = scan.owned.take();
        self.pos = next;
        Scanned {
            value: Str {
                text: finish(self.text, owned, scan.segment_start, content_end),
                quoting: scan.quoting,
            },
            complete: true,
        }
    }

    /// A run of backticks at `at` inside a value string: three or more open a code fence when
    /// only an info string and a raw newline follow them, and close an open one at the start
    /// of a line. Returns where the scan goes on.
    fn fence_marker(&self, at: usize, scan: &mut Scan) -> usize {
        let run = self.bytes[at..self.end]
            .iter()
            .take_while(|&&b| b == b'`')
            .count();
        if run < 3 {
            return at + run;
        }
        if scan.fence_open {
            let line = &self.bytes[scan.content_start..at];
            let indent = line
                .iter()
                .rev()
                .take_while(|&&b| b == b' ' || b == b'\t')
                .count();
            if line[..line.len() - indent].last() == Some(&b'\n') {
                scan.fence_open = false;
            } else if let Some(len) = closing_quote(scan.quote, &self.bytes[at + run..self.end]) {
                // The run ends the code right before the string's closing quote, the value's
                // structure going on after it (`"```html\n<b>x</b>```"`): models end a
                // string's code so as often as on a line of its own.
                if self.closes_here(at + run + len, scan.slot) {
                    scan.fence_open = false;
                }
            }
        } else {
            // Valid JSON never opens one: its strings hold no raw newline.
            let limit = (at + run + KEY_LOOKAHEAD).min(self.end);
            let info = &self.bytes[at + run..limit];
            scan.fence_open = info.iter().position(|&b| b == b'\n').is_some_and(|n| {
                !info[..n]
                    .iter()
                    .any(|&b| matches!(b, b'"' | b'\'' | b'`' | b'{' | b'['))
            });
        }
        at + run
    }

    /// The input ended inside the string. If a quote was passed over and structure follows
    /// it, that quote was the real end: go back to it (at most once per input length). If
    /// the content ends with the closers of the containers around it, they were theirs
    /// (`{"a": "hello}`). Otherwise the string was cut off.
    fn string_ran_out(&mut self, mut scan: Scan) -> Scanned<'a> {
        let mut passed_a_quote = scan.rejected.is_some();
        if let Some(r) = scan.rejected.take() {
            let rest = &self.bytes[r.at..self.end];
            // `{"key": "lorem "sic" tamet.}`: no member follows the quotes passed over, and the
            // content ends with the closers of its containers: they were theirs, the quotes
            // the text's.
            let closers_end = self
                .closers_at_end(scan.segment_start.max(r.at), scan.slot)
                .filter(|&at| {
                    scan.in_value && memchr::memchr(b':', &self.bytes[r.at..at]).is_none()
                });
            if closers_end.is_some_and(|at| self.words_after_quote(&r, &scan, at)) {
                let owned = scan.owned.take();
                return self.end_at_rejected(&mut scan, owned, r);
            } else if closers_end.is_some() {
                passed_a_quote = false;
            } else if self.backtrack_budget >= rest.len()
                && memchr::memchr2(b'}', b']', rest).is_some()
            {
                self.backtrack_budget -= rest.len();
                let owned = scan.owned.take();
                return self.end_at_rejected(&mut scan, owned, r);
            }
        }
        if scan.in_value && !passed_a_quote && !scan.fence_open {
            let at = self
                .closers_at_end(scan.segment_start, scan.slot)
                .or_else(|| self.closers_before_prose(scan.segment_start));
            if let Some(at) = at {
                let end = self.content_end_before(&scan, at);
                self.repair(RepairKind::MissingQuote, Span::at(end));
                return self.string_ends(&mut scan, end, at);
            }
        }
        let inner = scan.passed;
        self.string_closed(&mut scan, self.end, inner);
        self.repair(RepairKind::TruncatedString, Span::new(scan.open, self.end));
        let text = finish(self.text, scan.owned, scan.segment_start, self.end);
        self.pos = self.end;
        Scanned {
            value: Str {
                text,
                quoting: scan.quoting,
            },
            complete: false,
        }
    }

    /// The string ends at the quote `r` it passed over (its content up to there, `owned`
    /// being the decoded content so far); reading goes on after that quote.
    fn end_at_rejected(
        &mut self,
        scan: &mut Scan,
        owned: Option<String>,
        r: Rejected,
    ) -> Scanned<'a> {
        self.read_back_from = self.read_back_from.max(scan.i);
        self.repairs.truncate(r.repairs_len);
        // The content as it was at that quote.
        scan.owned = owned.zip(r.owned_len).map(|(mut s, n)| {
            s.truncate(n);
            s
        });
        scan.segment_start = if scan.owned.is_some() {
            r.segment_start
        } else {
            scan.content_start
        };
        // The quote it ends at was passed over; the others are inside it.
        let inner = scan.passed.saturating_sub(1);
        self.string_closed(scan, r.at + r.closer_len, inner);
        let text = finish(self.text, scan.owned.take(), scan.segment_start, r.at);
        self.pos = r.at + r.closer_len;
        Scanned {
            value: Str {
                text,
                quoting: scan.quoting,
            },
            complete: true,
        }
    }

    /// Whether the one quote `r` the string passed over closed it, the structure resuming at
    /// `at` after stray words (`"data" AAAA }`, `"x" true, "b": 1`): a closing quote's shape
    /// (after a non-space, before a space or tab), no fence, and no line break up to `at`. A
    /// quote before a word (`"he said "hi}`) opens a quotation inside the string instead.
    fn words_after_quote(&self, r: &Rejected, scan: &Scan, at: usize) -> bool {
        let after = r.at + r.closer_len;
        scan.passed == 1
            && !r.in_fence
            && r.at > scan.content_start
            && !matches!(self.bytes[r.at - 1], b' ' | b'\t' | b'\n' | b'\r')
            && matches!(self.bytes.get(after), Some(b' ' | b'\t'))
            && !self.bytes[after..at].contains(&b'\n')
    }

    /// `{"summary": "All tests pass}` and a blank line of prose after it: the first run of
    /// closers in the content from `from` that closes every open container, in stack order,
    /// with a line break after it. Each byte is looked at a bounded number of times.
    fn closers_before_prose(&self, from: usize) -> Option<usize> {
        let depth = self.stack.len();
        let closes = |b: u8, index: usize| match self.stack[index] {
            super::Frame::Object { .. } => b == b'}',
            super::Frame::Array { .. } => b == b']',
        };
        let mut i = from;
        while let Some(k) = memchr::memchr2(b'}', b']', &self.bytes[i..self.end]) {
            let at = i + k;
            let (mut j, mut closed, mut newline) = (at, 0, false);
            while closed < depth && j < self.end && closes(self.bytes[j], depth - 1 - closed) {
                closed += 1;
                (j, newline) = space::skip_space_lines(self.bytes, j + 1, self.end);
            }
            if closed == depth && closed > 0 && (newline || j >= self.end) {
                return Some(at);
            }
            i = j.max(at + 1);
        }
        None
    }

    /// `{"a": "hello}` at the end of the input: where the closers that end the content start,
    /// if the first of them closes the string's own container.
    fn closers_at_end(&self, from: usize, slot: Slot) -> Option<usize> {
        let content = &self.bytes[from..self.end];
        let mut at = content.len();
        while at > 0 && matches!(content[at - 1], b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
            at -= 1;
        }
        let first = content[at..].iter().find(|b| matches!(b, b'}' | b']'));
        let closer = if slot == Slot::ObjectValue {
            b'}'
        } else {
            b']'
        };
        (first == Some(&closer)).then_some(from + at)
    }

    /// Reads the escape at `at` (a backslash) into `out` as `lex::lenient_escape` reads it,
    /// logging what is not JSON's (`\'` in a double-quoted string, a lone surrogate, a
    /// backslash kept as text); where reading goes on, or `None` when the input ends inside
    /// the escape (it was cut off).
    pub(super) fn escape(&mut self, at: usize, quote: Quote, out: &mut String) -> Option<usize> {
        let ascii = match quote {
            Quote::Double => b'"',
            Quote::Single => b'\'',
            Quote::Backtick => b'`',
            _ => 0,
        };
        match crate::lex::lenient_escape(&self.bytes[..self.end], at, ascii, false) {
            Escape::Char(c, len) => {
                // `\'` is how JavaScript and Python escape a single quote.
                if c == '\'' && quote == Quote::Double {
                    self.repair(RepairKind::InvalidEscape, Span::new(at, at + 2));
                }
                out.push(c);
                Some(at + len)
            }
            Escape::Replaced(len) => {
                self.repair(RepairKind::InvalidEscape, Span::new(at, at + len));
                out.push('\u{FFFD}');
                Some(at + len)
            }
            Escape::Backslash => {
                // Not an escape JSON knows: keep the backslash and what follows, as written.
                let next = crate::lex::utf8_len(self.bytes[at + 1]);
                self.repair(RepairKind::InvalidEscape, Span::new(at, at + 1 + next));
                out.push('\\');
                Some(at + 1)
            }
            Escape::Cut => None,
        }
    }

    /// Whether a quote whose closing byte ends just before `after` really ends the string,
    /// judged by what follows it in this slot.
    fn closes_here(&self, after: usize, slot: Slot) -> bool {
        self.closes_here_in(after, slot, false)
    }

    /// [`Self::closes_here`] for a quote of a string that already passed over a quote as its
    /// text (`quoted_text`): then a quoted word after the `,` with no value after it is more
    /// quoted text (`"the options are "A", "B" }`), not a member the text cut or left without
    /// a value ([`Self::key_without_value`]).
    fn closes_here_in(&self, after: usize, slot: Slot, quoted_text: bool) -> bool {
        // The usual cases, settled by the byte right after the quote: a key's `:`, an item's `,`.
        if after < self.end {
            match (slot, self.bytes[after]) {
                (Slot::Key, b':') | (Slot::ArrayValue, b',') => return true,
                _ => {}
            }
        }
        let (i, newline) = space::skip_space_lines(self.bytes, after, self.end);
        if i >= self.end {
            return true;
        }
        let c = self.bytes[i];
        let comment = c == b'/' && crate::lex::comment_opener(&self.bytes[i..]).is_some();
        // The fence around the value closes (```` "a"``` ````): the value was cut off there.
        if c == b'`' && slot != Slot::Key && self.bytes[i..self.end].starts_with(b"```") {
            return true;
        }
        match slot {
            Slot::Key => {
                newline
                    || comment
                    || matches!(c, b':' | b'}' | b',' | b'=' | b']' | b'{' | b'[')
                    || self.fullwidth_at(i).is_some()
                    || opening_quote(&self.bytes[i..self.end]).is_some()
                    // `"b" 2, "c": 3`: the key's `:` is missing before a number.
                    || (matches!(c, b'-' | b'0'..=b'9') && self.number_ends_member(i))
                    // `"b"$: 2`: a stray character or two before the key's `:`.
                    || self.stray_then_colon(i).is_some()
            }
            Slot::ObjectValue => match c {
                b'}' | b']' => self.closer_can_end_value(i),
                b',' => self.next_member_follows(i + 1, !quoted_text),
                0xEF if self.fullwidth_at(i) == Some(b',') => {
                    self.next_member_follows(i + crate::lex::FULLWIDTH_LEN, !quoted_text)
                }
                b'+' => self.concatenation_fits(i),
                // `"a" {"id": 2}`: the object's `}` and `,` are missing before the next one.
                b'{' => self.object_starts(i),
                _ if comment => true,
                b'#' => newline || self.comment_then_separator(i),
                _ => {
                    self.looks_like_key(i)
                        || self.stray_then_separator(i)
                        || (!quoted_text && self.adjacent_part_at(i))
                }
            },
            Slot::ArrayValue => {
                c == b','
                    || (c == b'+' && self.concatenation_fits(i))
                    || self.fullwidth_at(i) == Some(b',')
                    || (matches!(c, b']' | b'}') && self.closer_can_end_value(i))
                    || (c == b')' && self.in_tuple())
                    || comment
                    || (opening_quote(&self.bytes[i..self.end]).is_some()
                        && !self.quote_doubled_before_separator(after, i))
                    || (newline && c != b'#')
                    || (c == b'#' && self.comment_then_separator(i))
                    || self.object_starts(i)
                    || self.array_starts(i)
                    || self.stray_then_separator(i)
            }
            Slot::Root => newline || comment || !(c.is_ascii_alphanumeric() || c >= 0x80),
        }
    }

    /// `["a"", "b"]`: whether the quote at `at`, right after the one that ends just before
    /// `after`, is the same quote doubled with the item's separator after it. Then the first is
    /// the text's and the second closes the string, as in an object's value
    /// (`{"k": "a"", "b": 1}` is `a"`), not the opening quote of an item that is only `", "`.
    fn quote_doubled_before_separator(&self, after: usize, at: usize) -> bool {
        if at != after
            || !matches!(self.bytes[at], b'"' | b'\'')
            || self.bytes[at - 1] != self.bytes[at]
        {
            return false;
        }
        let next = crate::lex::skip_inline_spaces(self.bytes, at + 1, self.end);
        next < self.end
            && (matches!(self.bytes[next], b',' | b']')
                || (self.bytes[next] == b')' && self.in_tuple()))
    }

    /// `{'a': 'x' 'y'}`: whether a string starting at `at`, after the closing quote of an
    /// object's value and spaces, is the next part of that value written beside it, as Python's
    /// and C's adjacent literals join: quoted whole on its line, then the member's end (`,`
    /// before the next member, `}`, a line break, the end of the text) or a further part.
    /// Within `KEY_LOOKAHEAD` bytes.
    pub(super) fn adjacent_part_at(&self, at: usize) -> bool {
        let limit = (at + KEY_LOOKAHEAD).min(self.end);
        let mut part = at;
        while let Some((_, after)) = self.quoted_on_line(part, limit) {
            let next = crate::lex::skip_inline_spaces(self.bytes, after, self.end);
            if next >= self.end {
                return true;
            }
            match self.bytes[next] {
                b'}' | b'\n' | b'\r' => return true,
                b',' => return self.next_member_follows(next + 1, false),
                _ => part = next,
            }
        }
        false
    }

    /// At the `+` at `at`, after a value's closing quote: whether it joins the next part of
    /// a string (`"a" + "b"`). Not when that part, a quoted string on this line, is followed
    /// by what no value is (`"return "q" + 's'; }"`, code quoted in a string): the quotes
    /// are the string's text. A part not closed within the lookahead, or written after a
    /// comment or on the next line, joins as before.
    fn concatenation_fits(&self, at: usize) -> bool {
        let limit = (at + KEY_LOOKAHEAD).min(self.end);
        let part = crate::lex::skip_inline_spaces(self.bytes, at + 1, limit);
        let Some((_, after)) = self.quoted_on_line(part, limit) else {
            return true;
        };
        let next = crate::lex::skip_inline_spaces(self.bytes, after, self.end);
        next >= self.end
            || matches!(
                self.bytes[next],
                b',' | b'}' | b']' | b'+' | b'\n' | b'\r' | b'/' | b'#'
            )
            || (self.bytes[next] == b')' && self.in_tuple())
    }

    /// After an object value's closing quote and the comma that follows it (up to `after`):
    /// whether the next member follows, so that the quote ends the value.
    fn next_member_follows(&self, after: usize, without_value: bool) -> bool {
        // `"x",, "b": 2`: a doubled comma separates all the same.
        let mut j = space::skip_space(self.bytes, after, self.end);
        while j < self.end && self.bytes[j] == b',' {
            j = space::skip_space(self.bytes, j + 1, self.end);
        }
        j >= self.end
            // `"v", ["x"] }`: a value where a key belongs follows.
            || matches!(self.bytes[j], b'}' | b'/' | b'#' | b'[')
            || self.looks_like_key(j)
            || (without_value && self.key_without_value(j))
            || self.key_missing_opening_quote(j)
            || self.key_missing_closing_quote(j)
            || self.key_quote_doubled(j)
            || self.key_missing_colon(j)
            || self.object_starts(j)
            || self.words_then_key(j)
            || (self.keys_are_phrases() && self.phrase_key_at(j))
    }

    /// `{"a": "x", "b"` and `{"a": "x", "b" }`: whether a quoted key starts at `at` whose value
    /// never comes, the end of the input or the object's `}` right after it (as
    /// [`Self::looks_like_key`] takes a key the end cut inside its quotes, and as a key after a
    /// number reads). Asked only after a value's `,`.
    fn key_without_value(&self, at: usize) -> bool {
        let limit = (at + KEY_LOOKAHEAD).min(self.end);
        let Some((content, after)) = self.quoted_on_line(at, limit) else {
            return false;
        };
        let next = space::skip_space(self.bytes, after, limit);
        !content.is_empty() && (next >= self.end || (next < limit && self.bytes[next] == b'}'))
    }

    /// The string quoted at `at` when it closes on its line before `limit`: its content's span
    /// and where it ends (past its closing quote). `None` when no quote opens at `at`, or a
    /// line break or `limit` comes first. Escapes are skipped whole.
    fn quoted_on_line(&self, at: usize, limit: usize) -> Option<(Span, usize)> {
        let (quote, len) = opening_quote(&self.bytes[at.min(limit)..limit])?;
        let mut i = at + len;
        while i < limit {
            match self.bytes[i] {
                b'\\' => i += 2,
                b'\n' => return None,
                _ => match closing_quote(quote, &self.bytes[i..limit]) {
                    Some(close) => return Some((Span::new(at + len, i), i + close)),
                    None => i += 1,
                },
            }
        }
        None
    }

    /// Whether the member being read has a bare key of several words (`{first name: "Ada",
    /// last name: ..}`): then the object's next key may be one too.
    fn keys_are_phrases(&self) -> bool {
        matches!(
            self.stack.last(),
            Some(super::Frame::Object { key: Some((key, _)), .. })
                if key.quoting == Quoting::Unquoted && key.text.contains(' ')
        )
    }

    /// Whether a bare key of a few words with its `:` starts at `at` (`last name:`).
    fn phrase_key_at(&self, at: usize) -> bool {
        let limit = (at + KEY_LOOKAHEAD).min(self.end);
        let mut i = at;
        for _ in 0..4 {
            let word = self.bytes[i..limit]
                .iter()
                .take_while(|&&b| crate::lex::is_key_byte(b))
                .count();
            if word == 0 {
                return false;
            }
            i += word;
            let next = space::skip_space(self.bytes, i, limit);
            if next < limit && self.bytes[next] == b':' {
                return true;
            }
            if next == i || next >= limit || self.bytes[i..next].contains(&b'\n') {
                return false;
            }
            i = next;
        }
        false
    }

    /// `["a" "b" "c" 1` and `["value1" value2", "value3"]`: in an array, whether the quote at
    /// `at` ends its string because, after a space, the next item follows with its comma
    /// missing: a number or literal, or a word closed by a stray quote (its opening quote
    /// missing, see `Parser::stray_quote_closes`). Only for the first quote of the string
    /// that did not end it otherwise, and only after content that does not end in a space:
    /// `"say "hi" now"` keeps its inner quotes. Bounded by `KEY_LOOKAHEAD`.
    fn bare_item_follows(&self, scan: &Scan, at: usize, closer_len: usize) -> bool {
        if scan.slot != Slot::ArrayValue
            || at == scan.content_start
            || matches!(self.bytes[at - 1], b' ' | b'\t' | b'\n' | b'\r')
        {
            return false;
        }
        let after = at + closer_len;
        let limit = (after + KEY_LOOKAHEAD).min(self.end);
        let start = space::skip_space(self.bytes, after, limit);
        if start == after || start >= limit {
            return false;
        }
        let len = self.bytes[start..limit]
            .iter()
            .take_while(|&&b| {
                !b.is_ascii_whitespace()
                    && !matches!(
                        b,
                        b'"' | b'\'' | b'`' | b',' | b'{' | b'}' | b'[' | b']' | b':'
                    )
            })
            .count();
        let end = start + len;
        if len == 0 || end >= limit && end < self.end {
            return false;
        }
        if self.stray_quote_closes(end) {
            return true;
        }
        // `"consectetur" comment]`: a bare word, then the array's comma or closer.
        let next = space::skip_space(self.bytes, end, limit);
        if next < limit && matches!(self.bytes[next], b',' | b']') {
            return true;
        }
        let word = &self.bytes[start..end];
        let scalar = word[0].is_ascii_digit()
            || (word.len() > 1
                && matches!(word[0], b'-' | b'+' | b'.')
                && word[1].is_ascii_digit())
            || crate::lex::is_constant(word);
        scalar
            && word
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'+' | b'_'))
            && super::token_ends_at(self.bytes, end, self.end)
    }

    /// Whether a `#` comment at `at` (after a space) runs to the end of its line and a `,` or a
    /// closer follows: `"fast" # was {"mode": "safe"}` then `, "threads": 8`; or, on the
    /// line, the comment holds a closer it did not open followed by a `,`, a closer or the
    /// end, where a comment that would swallow the closers of what is open ends
    /// (`"v" # note }, "k": 1}`, see `Parser::comment_closer`).
    fn comment_then_separator(&self, at: usize) -> bool {
        comment_then_separator_in::<false>(self.bytes, at, self.end) == Some(true)
    }

    /// Whether a few stray words (`and`, `TODO`, `REMEMBER:`, `etc.`) and then a quoted key
    /// with its `:` start at `at`, as after `"Ada", and "last": ..`.
    fn words_then_key(&self, at: usize) -> bool {
        let limit = (at + KEY_LOOKAHEAD).min(self.end);
        let mut i = at;
        for _ in 0..4 {
            let word = self.bytes[i..limit]
                .iter()
                .take_while(|&&b| {
                    !b.is_ascii_whitespace()
                        && !matches!(b, b'"' | b'\'' | b'`' | b'{' | b'}' | b'[' | b']' | b',')
                })
                .count();
            if word == 0 {
                return false;
            }
            i = space::skip_space(self.bytes, i + word, limit);
            if i < limit
                && opening_quote(&self.bytes[i..self.end]).is_some()
                && self.key_at(i, Cut::Refused)
            {
                return true;
            }
        }
        false
    }

    /// After a quote, the closer at `at`: whether it can end the value the quote closed. It
    /// closes the root (then anything may follow), or what follows it is the end, a line
    /// break, a separator, another closer or value, a comment, a key (quoted or a bare word,
    /// with its `:`) or, in an array, its next item; `"}":` or `"]"`
    /// inside code is text.
    fn closer_can_end_value(&self, at: usize) -> bool {
        let is_object = self.bytes[at] == b'}';
        let open_of_kind = if is_object {
            self.open_objects
        } else {
            self.stack.len() - self.open_objects
        };
        if self.stack.len() == 1 && open_of_kind == 1 {
            return true;
        }
        let (next, newline) = space::skip_space_lines(self.bytes, at + 1, self.end);
        next >= self.end
            || newline
            || matches!(
                self.bytes[next],
                b',' | b'}' | b']' | b'{' | b'[' | b'/' | b'#'
            )
            // `"x"} "next": ..`, `"x"} next: ..`: the comma after the closer is missing.
            || self.looks_like_whole_key(next)
            // `[["x"] 2, "y"]`: so is the comma before the next item of the list around.
            || (self.parent_is_array() && self.item_starts(next))
            // `(({"a": "x"}))`: the closer of the tuple around, however many follow.
            || (self.bytes[next] == b')' && self.parent_is_tuple())
            // `{"a": "x"}(, {"b": 1}`: a stray character after the closer.
            || self.after_stray(next).is_some_and(|j| {
                matches!(self.bytes[j], b',' | b'}' | b']')
            })
    }

    /// At `at`, after a value's closing quote: whether a stray character or two (`$`, `(`,
    /// `;`) stand between it and the separator or closer that makes the quote close
    /// (`"x"$, "b": 2`, `["a"(, "b"]`), as they would with nothing between. The parser skips
    /// them after the value (`SkippedText`); read as the string's text instead, they would
    /// take the quote, the comma and the next key's quote into it.
    fn stray_then_separator(&self, at: usize) -> bool {
        let Some(j) = self.after_stray(at) else {
            return false;
        };
        match (self.bytes[j], self.stack.last()) {
            (b',', Some(super::Frame::Object { .. })) => self.next_member_follows(j + 1, true),
            (b',', _) => true,
            (b'}' | b']', _) => self.closer_can_end_value(j),
            _ => false,
        }
    }

    /// At `at`, after a key's closing quote: where the key's `:` stands after a run of at most
    /// two stray characters (`"b"$: 2`, `"b"+ : 2`), a second closing quote (`"b"": 2`) or one
    /// stray word (`"name" is: "Bob"`),
    /// which the parser skips (`SkippedText`). Read as the key's text instead, they would take
    /// the quote, the `:` and the value's opening quote into the key.
    pub(super) fn stray_then_colon(&self, at: usize) -> Option<usize> {
        let at = match self.bytes.get(at) {
            Some(b'+') => crate::lex::skip_inline_spaces(self.bytes, at + 1, self.end),
            _ => at,
        };
        let j = match self.bytes.get(at) {
            Some(b':') => at,
            // `"b"": 2`: the key's closing quote written twice.
            Some(b'"') => crate::lex::skip_inline_spaces(self.bytes, at + 1, self.end),
            Some(b'a'..=b'z' | b'A'..=b'Z' | b'_') => self.after_stray_word(at)?,
            _ => self.after_stray(at)?,
        };
        (j < self.end && self.bytes[j] == b':').then_some(j)
    }

    /// Where the next token stands after one word at `at` (ASCII letters, digits and `_`, at
    /// most [`STRAY_WORD`] bytes) and the spaces after it on its line. A word that starts its
    /// line is none: `{"a"\n  b: 1}` is a key missing its value, then the next member.
    fn after_stray_word(&self, at: usize) -> Option<usize> {
        if self.starts_line(at) {
            return None;
        }
        let limit = (at + STRAY_WORD + 1).min(self.end);
        let len = self.bytes[at..limit]
            .iter()
            .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_')
            .count();
        if len > STRAY_WORD {
            return None;
        }
        let j = crate::lex::skip_inline_spaces(self.bytes, at + len, self.end);
        (j < self.end).then_some(j)
    }

    /// Whether only spaces stand between a line break and `at`.
    pub(super) fn starts_line(&self, at: usize) -> bool {
        let before = self.bytes[..at]
            .iter()
            .rev()
            .find(|&&b| !matches!(b, b' ' | b'\t'));
        matches!(before, Some(b'\n' | b'\r'))
    }

    /// Where a separator or closer may stand after a run of at most two stray characters
    /// from `at` (punctuation no value starts with, on the same line) and the spaces after
    /// it; `None` where no such run is there.
    fn after_stray(&self, at: usize) -> Option<usize> {
        let stray = |b: u8| {
            matches!(
                b,
                b'(' | b')'
                    | b'$'
                    | b'%'
                    | b';'
                    | b'&'
                    | b'*'
                    | b'!'
                    | b'?'
                    | b'@'
                    | b'^'
                    | b'~'
                    | b'|'
            )
        };
        let run = self.bytes[at..self.end]
            .iter()
            .take(3)
            .take_while(|&&b| stray(b))
            .count();
        if run == 0 || run > 2 {
            return None;
        }
        let j = crate::lex::skip_inline_spaces(self.bytes, at + run, self.end);
        (j < self.end).then_some(j)
    }

    /// Whether the container around the innermost one is an array.
    fn parent_is_array(&self) -> bool {
        let depth = self.stack.len();
        depth >= 2 && matches!(self.stack[depth - 2], super::Frame::Array { .. })
    }

    /// Whether the container around the innermost one is a tuple (`(1, {..})`).
    fn parent_is_tuple(&self) -> bool {
        let depth = self.stack.len();
        depth >= 2
            && matches!(
                self.stack[depth - 2],
                super::Frame::Array {
                    alt_closer: Some(b')'),
                    ..
                }
            )
    }

    /// Whether a number, a literal or a quoted string starts at `at`.
    fn item_starts(&self, at: usize) -> bool {
        let word = |w: &[u8]| {
            self.bytes[at..self.end].starts_with(w)
                && super::token_ends_at(self.bytes, at + w.len(), self.end)
        };
        matches!(self.bytes[at], b'-' | b'0'..=b'9')
            || opening_quote(&self.bytes[at..self.end]).is_some()
            || [&b"true"[..], b"false", b"null", b"True", b"False", b"None"]
                .into_iter()
                .any(word)
    }

    /// Whether an array starts at `at`: a `[` and a string, number, literal or container
    /// (`["a" ["b"]]`, its comma missing). A bracket before a word is text
    /// (`"see "this" [here]"`).
    fn array_starts(&self, at: usize) -> bool {
        let limit = (at + KEY_LOOKAHEAD).min(self.end);
        let next = space::skip_space(self.bytes, at + 1, limit);
        self.bytes[at] == b'['
            && next < limit
            && (matches!(self.bytes[next], b'{' | b'[') || self.item_starts(next))
    }

    /// Whether an object starts at `at`: a `{` and a key with its `:`.
    pub(crate) fn object_starts(&self, at: usize) -> bool {
        let limit = (at + KEY_LOOKAHEAD).min(self.end);
        at < limit
            && self.bytes[at] == b'{'
            && self.looks_like_whole_key(space::skip_space(self.bytes, at + 1, limit))
    }

    /// At a `,` or newline at `at` inside a value string: whether what follows is the next
    /// member (a quoted key and `:`) in an object, or the next quoted item (followed by `,` or
    /// `]`) in an array, written with the same quote. Then the string lacked its closing
    /// quote. Valid JSON never gets here: its strings hold no raw newline and no unescaped
    /// quote. Bounded by `KEY_LOOKAHEAD`.
    fn member_follows(&self, at: usize, quote: Quote, slot: Slot) -> bool {
        let limit = (at + KEY_LOOKAHEAD).min(self.end);
        let j = space::skip_space(self.bytes, at + 1, limit);
        if !self.same_quote_opens(j, limit, quote, slot) {
            // In an object written with bare keys, a line that is a whole member.
            return slot == Slot::ObjectValue
                && ((self.bytes[at] == b'\n' && self.bare_member_at(j))
                    || self.other_quote_key_at(at, j, quote));
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
                let k = space::skip_space(self.bytes, k + 1, limit);
                k < self.end && matches!(self.bytes[k], b',' | b']')
            }
            _ => false,
        }
    }

    /// `{"a": 'x, "b": 1}`: at a `,` or line break at `at` in a value string quoted with `'`
    /// (or `"`), whether a key quoted with the other quote starts at `j` and the string's own
    /// quote does not come again up to the end of that key's line: the string lost its
    /// closing quote there (a `'` string holding `, "b": 1` closes on the line it goes on,
    /// as `'{"a": 1, "b": 2}'` does). The line is looked at for [`OWN_QUOTE_LOOKAHEAD`]
    /// bytes at most, so each separator costs a bounded look.
    fn other_quote_key_at(&self, at: usize, j: usize, quote: Quote) -> bool {
        let (own, other) = match quote {
            Quote::Single => (b'\'', b'"'),
            Quote::Double => (b'"', b'\''),
            _ => return false,
        };
        self.bytes.get(j) == Some(&other)
            && self.key_at(j, Cut::Refused)
            // The whole text: a line it ends is over.
            && own_quote_on_key_line(&self.bytes[..self.end], at, j, own) != Some(true)
    }

    /// Whether a quote like the string's own opens something at `j` (before `limit`) that
    /// cannot be the string's end: a quote that can close the string does (`[",", ","]` and
    /// `{"a": "}, ", ":": 1}` are valid JSON).
    fn same_quote_opens(&self, j: usize, limit: usize, quote: Quote, slot: Slot) -> bool {
        match opening_quote(&self.bytes[j..self.end]) {
            Some((found, len)) => j < limit && found == quote && !self.closes_here(j + len, slot),
            None => false,
        }
    }

    /// At a `}` or `]` at `at` inside a value string: whether it (and the closers right after
    /// it) close the string's containers, the string having lost its closing quote: what
    /// follows is a `,` and the next member of the container left open (`"/srv/main.py}, "reason":
    /// ..` in an object, `"fell}, {"id": 4, ..` in an array of objects, `"x}], "k": ..`), and
    /// the text from there closes no more than is left open (see [`super::balance`]). Valid
    /// JSON never gets here: the next member's quote would be the string's own closing one.
    fn closer_follows(&mut self, at: usize, quote: Quote, slot: Slot) -> bool {
        let depth = self.stack.len();
        let closes = |b: u8, index: usize| self.closes_frame(b, index);
        // The closers from `at` on, closing containers from the innermost out; one at least
        // stays open to take the next member.
        let limit = (at + KEY_LOOKAHEAD).min(self.end);
        let (mut i, mut closed) = (at, 0);
        while closed + 1 < depth && i < limit && closes(self.bytes[i], depth - 1 - closed) {
            closed += 1;
            i = space::skip_space(self.bytes, i + 1, limit);
        }
        if closed == 0 || i >= limit || self.bytes[i] != b',' {
            return false;
        }
        let next = space::skip_space_comments(self.bytes, i + 1, limit);
        let key = match self.stack[depth - 1 - closed] {
            super::Frame::Object { .. } => next,
            super::Frame::Array { .. } if next < limit && self.bytes[next] == b'{' => {
                space::skip_space(self.bytes, next + 1, limit)
            }
            super::Frame::Array { .. } => return false,
        };
        let quoted_key =
            self.same_quote_opens(key, limit, quote, slot) && self.key_at(key, Cut::Refused);
        if !quoted_key && !self.bare_member_at(key) {
            return false;
        }
        let left_open = depth - closed;
        self.rest_after(next)
            .is_some_and(|rest| rest.net <= left_open as isize && !rest.overcloses(left_open))
    }

    /// Whether the closer `b` is of the kind of the container at stack index `index`.
    fn closes_frame(&self, b: u8, index: usize) -> bool {
        match self.stack[index] {
            super::Frame::Object { .. } => b == b'}',
            super::Frame::Array { .. } => b == b']',
        }
    }

    /// At a `}` or `]` at `at` inside a value string, first on its line (the string lost its
    /// closing quote at the end of the line before): whether it and the closers after it close
    /// every open container and only spaces or commas follow to the end of the text, within a
    /// few bytes (`[\n  "invoice\n]`: the last value of a document, cut at its line end).
    fn closers_end_text(&self, at: usize, content_start: usize) -> bool {
        if self.end - at > 64 {
            return false;
        }
        // Only spaces between the line break and the closer (looked at back to the break).
        let mut line = at;
        while line > content_start && matches!(self.bytes[line - 1], b' ' | b'\t') {
            line -= 1;
        }
        if line == content_start || self.bytes[line - 1] != b'\n' {
            return false;
        }
        let depth = self.stack.len();
        let (mut i, mut closed) = (at, 0);
        while closed < depth && i < self.end && self.closes_frame(self.bytes[i], depth - 1 - closed)
        {
            closed += 1;
            i = space::skip_space(self.bytes, i + 1, self.end);
        }
        closed == depth
            && self.bytes[i..self.end]
                .iter()
                .all(|&b| b.is_ascii_whitespace() || b == b',')
    }

    /// Whether a member written with a bare key stands alone on its line at `at`, where the
    /// object holding the string being read was written with bare keys too (`priority: false,`
    /// after `steps: "timeout` lost its closing quote): the key, `:`, and a value that is a
    /// literal, a number, a quoted string or an opening bracket, then a `,`, a closer or the
    /// line's end. A line of prose with a colon (`Summary: we shipped.`) is no member.
    fn bare_member_at(&self, at: usize) -> bool {
        let bare_keys = matches!(
            self.stack.last(),
            Some(super::Frame::Object { key: Some((key, _)), .. }) if key.quoting == Quoting::Unquoted
        );
        let limit = (at + KEY_LOOKAHEAD).min(self.end);
        let word = |from: usize| {
            from + self.bytes[from..limit]
                .iter()
                .take_while(|&&b| crate::lex::is_key_byte(b))
                .count()
        };
        if !bare_keys
            || at >= limit
            || !(self.bytes[at].is_ascii_alphabetic() || self.bytes[at] == b'_')
        {
            return false;
        }
        let colon = crate::lex::skip_inline_spaces(self.bytes, word(at), limit);
        if colon >= limit || self.bytes[colon] != b':' {
            return false;
        }
        let value = crate::lex::skip_inline_spaces(self.bytes, colon + 1, limit);
        let Some(&first) = self.bytes.get(value).filter(|_| value < limit) else {
            return false;
        };
        if matches!(first, b'[' | b'{') {
            return true;
        }
        // Any other value is followed on its line by the `,` that separates members (a line
        // of YAML or config text inside the string, `port: 8080`, has none).
        let line_end =
            memchr::memchr(b'\n', &self.bytes[value..limit]).map_or(limit, |n| value + n);
        let value_end = match first {
            b'"' | b'\'' => {
                memchr::memchr(first, &self.bytes[value + 1..line_end]).map(|n| value + n + 2)
            }
            b'0'..=b'9' | b'-' => Some(
                value
                    + 1
                    + self.bytes[value + 1..line_end]
                        .iter()
                        .take_while(|&&b| {
                            b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-')
                        })
                        .count(),
            ),
            _ => {
                let end = word(value);
                crate::lex::is_constant(&self.bytes[value..end]).then_some(end)
            }
        };
        value_end.is_some_and(|end| {
            let after = crate::lex::skip_inline_spaces(self.bytes, end, line_end);
            after < line_end && self.bytes[after] == b','
        })
    }

    /// Whether a key (quoted or a bare word) followed by `:` starts at `at`. Looks at most
    /// `KEY_LOOKAHEAD` bytes ahead, which keeps string scanning linear.
    pub(crate) fn looks_like_key(&self, at: usize) -> bool {
        self.key_at(at, Cut::Allowed)
    }

    /// `"a": "x", "b" "y"`: whether a double-quoted key starts at `at` with its `:` missing:
    /// on its line, a space after it, then a value that ends the member there (a string
    /// closed before the object's `}` or before a `,` and the next key; a number before a
    /// `,` or `}`; a literal; an opener). The
    /// parser reads the member so (`MissingColon`), as it does after a number value; read as
    /// text, the value before it took the comma, the key and this value into its string.
    fn key_missing_colon(&self, at: usize) -> bool {
        let limit = (at + KEY_LOOKAHEAD).min(self.end);
        // The end of the double-quoted string opening at `from`, on its line.
        let string_end = |from: usize| -> Option<usize> {
            let mut i = from + 1;
            loop {
                let k = memchr::memchr3(b'"', b'\\', b'\n', &self.bytes[i.min(limit)..limit])?;
                match self.bytes[i + k] {
                    b'"' => return Some(i + k + 1),
                    b'\\' => i += k + 2,
                    _ => return None,
                }
            }
        };
        if at >= limit || self.bytes[at] != b'"' {
            return false;
        }
        let Some(key_end) = string_end(at).filter(|&e| e > at + 2) else {
            return false;
        };
        let v = crate::lex::skip_inline_spaces(self.bytes, key_end, limit);
        if v == key_end || v >= limit {
            return false;
        }
        match self.bytes[v] {
            // The object goes on after it as written: its end, or a `,` and the next key
            // with its `:` (`"x", "y" "z", "w"` in prose is a list of quoted words).
            b'"' => string_end(v).is_some_and(|e| {
                let after = crate::lex::skip_inline_spaces(self.bytes, e, self.end);
                after >= self.end
                    || self.bytes[after] == b'}'
                    || (self.bytes[after] == b','
                        && self.looks_like_key(space::skip_space(self.bytes, after + 1, self.end)))
            }),
            b'{' | b'[' => true,
            b'-' | b'0'..=b'9' => self.number_ends_member(v),
            _ => {
                let word = self.bytes[v..limit]
                    .iter()
                    .take_while(|b| b.is_ascii_alphabetic())
                    .count();
                crate::lex::is_constant(&self.bytes[v..v + word])
            }
        }
    }

    /// Whether the number at `at` ends its member: a `,` or the object's `}` follows it on
    /// its line (`"b" 2, "c": 3`; not `"the "2" key"`).
    fn number_ends_member(&self, at: usize) -> bool {
        let limit = (at + KEY_LOOKAHEAD).min(self.end);
        let digits = self.bytes[at + 1..limit]
            .iter()
            .take_while(|&&b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
            .count();
        let after = crate::lex::skip_inline_spaces(self.bytes, at + 1 + digits, self.end);
        after >= self.end || matches!(self.bytes[after], b',' | b'}')
    }

    /// `b":` at `at`, as after `"foo",b":"bar"`: a key whose opening quote is missing.
    fn key_missing_opening_quote(&self, at: usize) -> bool {
        let limit = (at + KEY_LOOKAHEAD).min(self.end);
        let word = self.bytes[at..limit]
            .iter()
            .take_while(|&&b| crate::lex::is_key_byte(b))
            .count();
        let quote = at + word;
        word > 0
            && quote < limit
            && self.bytes[quote] == b'"'
            && space::skip_space(self.bytes, quote + 1, limit) < limit
            && self.bytes[space::skip_space(self.bytes, quote + 1, limit)] == b':'
    }

    /// `"x", "url: "https://.."`: whether a key missing its closing quote starts at `at`: a
    /// quote, a word, its `:`, then the value's opening quote (the parser reads the key to
    /// its first `:`, `MissingQuote`).
    fn key_missing_closing_quote(&self, at: usize) -> bool {
        let limit = (at + KEY_LOOKAHEAD).min(self.end);
        if at >= limit || self.bytes[at] != b'"' {
            return false;
        }
        let word = self.bytes[at + 1..limit]
            .iter()
            .take_while(|&&b| crate::lex::is_key_byte(b))
            .count();
        let colon = at + 1 + word;
        if word == 0 || colon >= limit || self.bytes[colon] != b':' {
            return false;
        }
        let value = crate::lex::skip_inline_spaces(self.bytes, colon + 1, limit);
        value < limit && self.bytes[value] == b'"'
    }

    /// `"x", "b"": [1]`: whether a key whose closing quote is written twice starts at `at`
    /// (the parser skips the second quote, [`Self::stray_then_colon`]).
    fn key_quote_doubled(&self, at: usize) -> bool {
        let limit = (at + KEY_LOOKAHEAD).min(self.end);
        if at >= limit || self.bytes[at] != b'"' {
            return false;
        }
        let Some(n) = memchr::memchr3(b'"', b'\\', b'\n', &self.bytes[at + 1..limit]) else {
            return false;
        };
        let close = at + 1 + n;
        if n == 0 || self.bytes[close] != b'"' || self.bytes.get(close + 1) != Some(&b'"') {
            return false;
        }
        let colon = crate::lex::skip_inline_spaces(self.bytes, close + 2, limit);
        colon < limit && self.bytes[colon] == b':'
    }

    /// Whether a quoted key written whole (closing quote and `:`) starts at `at`.
    pub(crate) fn quoted_key_at(&self, at: usize) -> bool {
        at < self.end
            && self.bytes[at] != b'`'
            && opening_quote(&self.bytes[at..self.end]).is_some()
            && self.key_at(at, Cut::Refused)
    }

    /// [`Self::looks_like_key`] for a key written whole (closing quote and `:`).
    pub(crate) fn looks_like_whole_key(&self, at: usize) -> bool {
        self.key_at(at, Cut::Refused)
    }

    /// [`Self::looks_like_key`], saying whether a quoted key cut off by the end of the input
    /// counts.
    fn key_at(&self, at: usize, cut: Cut) -> bool {
        key_reading::<false>(&self.bytes[..self.end], at, cut).0
    }
}

/// Whether `bytes` (a whole text) holds a quoted key written whole (closing quote and `:`)
/// at `at`, as the parser reads one where a value goes: where the root value starts, the
/// members of an object whose `{` was written before the text (see `Parser::on_value`).
pub(crate) fn members_start(bytes: &[u8], at: usize) -> bool {
    at < bytes.len()
        && matches!(bytes[at], b'"' | b'\'')
        && key_reading::<false>(bytes, at, Cut::Refused).0
}

/// Whether the quote `own` comes again after the separator at `at`, up to the end of the line
/// of the key at `j` (looked at for [`OWN_QUOTE_LOOKAHEAD`] bytes from `j`): the rule of
/// [`Parser::other_quote_key_at`], for the parser and the stream reader alike. `None` while
/// `bytes`, the text so far, has not reached that end.
pub(crate) fn own_quote_on_key_line(bytes: &[u8], at: usize, j: usize, own: u8) -> Option<bool> {
    let end = bytes.len();
    let limit = (j + OWN_QUOTE_LOOKAHEAD).min(end);
    let line_end = memchr::memchr(b'\n', &bytes[j..limit]).map(|n| j + n);
    if memchr::memchr(own, &bytes[at + 1..line_end.unwrap_or(limit)]).is_some() {
        return Some(true);
    }
    (line_end.is_some() || j + OWN_QUOTE_LOOKAHEAD <= end).then_some(false)
}

/// A value string as the parser reads it where it stands ([`value_string`]).
pub(crate) struct ValueString<'a> {
    pub text: Str<'a>,
    pub complete: bool,
    /// Where the parser reads on after the string (past its closing quote, or at the
    /// separator or closer where its closing quote went missing).
    pub resume: usize,
    /// The furthest the parser read to decide where the string ends: `resume`, or further
    /// where it went back to a quote it had passed over.
    pub read_to: usize,
    /// The repairs the parser logged reading it, in order (paths not recorded).
    pub repairs: Vec<crate::report::Repair>,
}

/// The value string opening at `start` in `text`, inside the containers `containers`
/// describes from the root (whether each is an object, and where it opens), read by the
/// parser's own string rules, as it reads it at that depth. The stream reader asks this of
/// the text so far where its own reading of a string doubts; the answer holds for the whole
/// text only where the rules it used did not read to the end of `text`, which the caller
/// settles (see `Reader::probe_string`).
pub(crate) fn value_string<'a>(
    text: &'a str,
    start: usize,
    containers: &[(bool, usize)],
) -> ValueString<'a> {
    let span = Span::new(0, text.len());
    let depth = containers.len() + 1;
    let mut parser = Parser::<super::build::Skim>::new(text, span, depth, super::RepairPaths::Skip);
    for &(object, at) in containers {
        let frame = if object {
            parser.open_objects += 1;
            super::Frame::Object {
                start: at,
                entries: 0,
                key: None,
                after_comma: None,
                first_keys: super::KeySample::default(),
                members: false,
            }
        } else {
            super::Frame::Array {
                start: at,
                items: Vec::new(),
                after_comma: None,
                alt_closer: None,
                last_object_keys: None,
            }
        };
        parser.stack.push(frame);
    }
    parser.pos = start;
    let slot = parser.slot();
    let read = parser.string(slot);
    ValueString {
        text: read.value,
        complete: read.complete,
        resume: parser.pos,
        read_to: parser.pos.max(parser.read_back_from),
        repairs: parser.repairs,
    }
}

/// [`Parser::comment_then_separator`] on `bytes` up to `end`: whether the `#` comment at `at`,
/// after a value's closing quote, ends the value. With `SO_FAR` the bytes are a text still
/// arriving, and the answer is `None` while bytes still to come could change it.
pub(crate) fn comment_then_separator_in<const SO_FAR: bool>(
    bytes: &[u8],
    at: usize,
    end: usize,
) -> Option<bool> {
    if at == 0 || !matches!(bytes[at - 1], b' ' | b'\t') {
        return Some(false);
    }
    let full = at + KEY_LOOKAHEAD;
    let limit = full.min(end);
    // The text so far ends before the lookahead does: the bytes it lacks may decide.
    let partial = SO_FAR && end < full;
    let separator = |i: usize| i < limit && matches!(bytes[i], b',' | b'}' | b']');
    let line_end = memchr::memchr(b'\n', &bytes[at..limit]).map(|n| at + n);
    // A separator first on the next line.
    let after_line = match line_end {
        Some(line_end) => {
            let next = space::skip_space(bytes, line_end, limit);
            match separator(next) {
                true => Some(true),
                false if partial && next >= limit => None,
                false => Some(false),
            }
        }
        None if partial => None,
        None => Some(false),
    };
    if after_line == Some(true) {
        return after_line;
    }
    // A closer the comment did not open, then a separator or the end of the text.
    let line = &bytes[at..line_end.unwrap_or(limit)];
    let in_line = match super::first_unopened_closer(line) {
        Some(closer) => {
            let next = space::skip_space(bytes, at + closer + 1, limit);
            match next >= end {
                true if SO_FAR => None,
                true => Some(true),
                false => Some(separator(next)),
            }
        }
        None if partial && line_end.is_none() => None,
        None => Some(false),
    };
    match (after_line, in_line) {
        (_, Some(true)) => Some(true),
        (Some(false), Some(false)) => Some(false),
        _ => None,
    }
}

/// Whether a key starts at `at` in `bytes`, the text so far: `None` while bytes that have not
/// arrived could change the answer. The stream asks this of the text it has, with the rule the
/// parser reads the whole text by.
pub(crate) fn key_so_far(bytes: &[u8], at: usize) -> Option<bool> {
    match key_reading::<true>(bytes, at, Cut::Refused) {
        (_, true) => None,
        (key, false) => Some(key),
    }
}

/// [`Parser::key_at`] in `bytes`, and whether bytes after them could change the answer (it
/// read up to their end, or the end cuts a character or a token it looks at). `SO_FAR` says
/// whether more bytes may arrive: without it (a whole text) the second answer is not worked
/// out, and is `false` but for a key cut off by the end.
pub(super) fn key_reading<const SO_FAR: bool>(bytes: &[u8], at: usize, cut: Cut) -> (bool, bool) {
    let end = bytes.len();
    let limit = (at + KEY_LOOKAHEAD).min(end);
    // An opening quote of up to three bytes, or a doubled quote before a word, may still
    // be cut; not once a byte other than the quote follows an ASCII quote (`"a`), or other
    // than the quote or a word follows two (`""]`).
    let settled = SO_FAR
        && matches!(bytes.get(at), Some(b'"' | b'\'' | b'`'))
        && match bytes.get(at + 1) {
            Some(&next) if next != bytes[at] => true,
            Some(_) => bytes
                .get(at + 2)
                .is_some_and(|&third| third != bytes[at] && !starts_word(&bytes[at + 2..])),
            None => false,
        };
    let head_cut = SO_FAR
        && at + 6 > end
        && !settled
        && (bytes.get(at)).is_none_or(|b| matches!(b, b'"' | b'\'' | b'`' | 0xE2));
    let (mut i, mut word_cut) = (at, false);
    let doubled = doubled_quote(bytes, at, limit);
    if let Some((quote, len)) = opening_quote(&bytes[at..end]) {
        i += len + usize::from(doubled);
        if quote == Quote::Double {
            // The usual case, found with memchr: the closing quote of a plain key.
            loop {
                match memchr::memchr3(b'"', b'\\', b'\n', &bytes[i..limit]) {
                    Some(k) if bytes[i + k] == b'"' => {
                        i += k + 1;
                        break;
                    }
                    Some(k) if bytes[i + k] == b'\\' => i += k + 2,
                    // A key cut off by the end of the input.
                    None if limit == end => return (cut == Cut::Allowed, true),
                    _ => return (false, head_cut),
                }
                if i >= limit {
                    return (false, head_cut || limit == end);
                }
            }
        } else {
            i = match quoted_key_end(bytes, quote, i, limit) {
                Some(end) => end,
                None => {
                    let ran_out = limit == end && !bytes[i.min(limit)..limit].contains(&b'\n');
                    return (false, head_cut || ran_out);
                }
            };
        }
    } else {
        let start = i;
        i += crate::lex::bare_key_len(&bytes[i..limit]);
        if i == start {
            return (false, head_cut);
        }
        // `https://`: a URL, not a key.
        let rest = &bytes[i..end];
        if rest.starts_with(b"://") {
            return (false, false);
        }
        // The word, or the `://` of a URL, may go on.
        word_cut = SO_FAR && (i >= end || (rest.len() < 3 && b"://".starts_with(rest)));
    }
    if doubled && i < limit && bytes[i] == bytes[at] {
        i += 1;
    }
    // A key's `:` may stand on a later line (`"path"\n: "/x"`, valid JSON).
    let i = skip_spaces_to(bytes, i, limit);
    // The end cuts the token after the key, or a character that may be a space or a `：`.
    let ran_out = SO_FAR && (i >= end || i + crate::lex::utf8_len(bytes[i]) > end);
    let key =
        i < end && (bytes[i] == b':' || crate::lex::fullwidth_separator(&bytes[i..]) == Some(b':'));
    (key, head_cut || word_cut || ran_out)
}

/// The offset of the first byte at or after `i` (and before `limit`) that is not a space
/// ([`crate::lex::space_len`], line breaks included).
fn skip_spaces_to(bytes: &[u8], mut i: usize, limit: usize) -> usize {
    while i < limit {
        match crate::lex::space_len(&bytes[i..limit]) {
            0 => break,
            n => i += n,
        }
    }
    i
}

/// Where a key quoted with `quote` (not `"`), its content starting at `i`, ends: after its
/// closing quote, found before `limit` and before a line break.
fn quoted_key_end(bytes: &[u8], quote: Quote, mut i: usize, limit: usize) -> Option<usize> {
    let (stop, _, other) = crate::lex::quote_stops(quote);
    if stop == other {
        // One byte starts the closing quote: searched for with memchr.
        while i < limit {
            let k = memchr::memchr3(stop, b'\\', b'\n', &bytes[i..limit])?;
            i += k;
            match bytes[i] {
                b'\\' => i += 2,
                b'\n' => return None,
                _ => match closing_quote(quote, &bytes[i..]) {
                    Some(close) => return Some(i + close),
                    None => i += 1,
                },
            }
        }
        return None;
    }
    while i < limit {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' => return None,
            _ => {
                if let Some(close) = closing_quote(quote, &bytes[i..]) {
                    return Some(i + close);
                }
                i += 1;
            }
        }
    }
    None
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
