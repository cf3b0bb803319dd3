//! The value scan: where bracketed values run in a stretch of text, and whether a byte sits
//! inside one of their strings or comments.
//!
//! The scan is resumable: [`ValueScan::advance`] reads up to any byte and stops there, so the
//! markup pass can ask, at each fence or tag, whether the scan is inside a string or comment
//! (and then the fence or tag is text) before deciding what it is. Every byte is read once;
//! the only lookaheads are bounded ([`OPENER_LOOKAHEAD`]) or look back over spaces only.

use crate::lex::{self, Comment, Quote};
use crate::span::Span;

/// Where a value span was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// A balanced span at the top level (or a whole-region scalar).
    TopLevel,
    /// From an opener that never closed to the end of the region: a value cut off.
    Unclosed,
    /// A balanced span directly inside an opener that never closed.
    Nested,
}

/// A value span the scan found: where it was, and whether the scan saw a token in it that
/// JSON does not have (a quote other than `"`, a comment, a fenced block, an escaped quote
/// in structure). Such a value is read by the lenient parser alone: a strict reading of it
/// would fail. Other damage (bare words, missing or trailing commas) is not looked for here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Seen {
    pub place: Place,
    pub nonstandard: bool,
}

/// The rest of a region after its last fence or tag, not read by the scan: see
/// [`ValueScan::finish_at_end`] and [`super::tail`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tail {
    pub start: usize,
    /// The region's first byte that is not whitespace (see [`opens_object`]).
    pub first_text: usize,
}

/// What the scan is reading at its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Inside {
    /// Structure: prose outside any value, or a value between its tokens.
    Structure,
    /// A string of a value, opened with this quote.
    String(Quote),
    /// A string of a value written escaped, as in a document encoded as the content of a
    /// JSON string (`{\"a\": \"b\"}`): opened by `\"`, it ends at the next `\"` that
    /// decodes to a closing quote.
    EscapedString,
    /// A string of a value written with HTML's character references for its quotes, as a web
    /// page shows a document (`{&quot;a&quot;: &quot;x}&quot;}`): opened by `&quot;` (or
    /// `&#34;`, `&#x22;`), it ends at the next such reference that no backslash escapes, so a
    /// bracket inside it is its text.
    HtmlString,
    /// A comment in a value.
    Comment(Comment),
    /// A value written as a fenced block (```` "code": ```\n...\n``` ````, as models write
    /// code): it runs to the next run of at least this many backticks.
    FencedBlock(usize),
}

/// How far past a `{` in prose the scan looks to decide whether it opens a value.
const OPENER_LOOKAHEAD: usize = 64;

/// Bytes the scan stops at between tokens; every other byte is skipped with one lookup.
static STRUCTURAL: [bool; 256] = {
    let mut table = [false; 256];
    let bytes = b"{}[]\"'`/#\\&";
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table[0xE2] = true; // lead byte of the curly quotes
    table
};

/// The scan of one region: the values found so far and what it is inside of.
pub(crate) struct ValueScan {
    /// The first byte of the region that is not whitespace: a `{` there opens a value whatever
    /// follows it.
    first_text: usize,
    pos: usize,
    /// Offsets of the open `{` and `[`.
    stack: Vec<usize>,
    /// How many `{` and `[` are open, so a stray closer is found in O(1).
    objects: usize,
    arrays: usize,
    /// Balanced spans directly inside the outermost opener.
    children: Vec<(Span, bool)>,
    found: Vec<(Span, Seen)>,
    /// Where the last token JSON does not have was, inside a value: a span holds one when
    /// this is at or after its opener when it closes.
    nonstandard_at: Option<usize>,
    inside: Inside,
    /// A fence opened inside the current string or comment, waiting for its closing run.
    pub hidden_run: bool,
    /// Answer tags opened inside the current string or comment, waiting for their closing tag.
    pub hidden_tags: Vec<String>,
    /// Stop once the first value closes ([`first_value`]).
    first_only: bool,
}

impl ValueScan {
    /// A scan of the region of `text` that starts at `start`.
    pub(crate) fn new(text: &str, start: usize) -> ValueScan {
        let rest = &text[start..];
        ValueScan {
            first_text: start + (rest.len() - lex::trim_start(rest).len()),
            pos: start,
            stack: Vec::new(),
            objects: 0,
            arrays: 0,
            children: Vec::new(),
            found: Vec::new(),
            nonstandard_at: None,
            inside: Inside::Structure,
            hidden_run: false,
            hidden_tags: Vec::new(),
            first_only: false,
        }
    }

    /// The byte the scan has read up to.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    pub(crate) fn inside(&self) -> Inside {
        self.inside
    }

    /// How many brackets are open.
    pub(crate) fn depth(&self) -> usize {
        self.stack.len()
    }

    /// Whether the scan is in a string, comment or fenced block of a value, where fences,
    /// tags and brackets are text.
    pub(crate) fn in_text(&self) -> bool {
        self.inside != Inside::Structure
    }

    /// Moves on to `to` without reading what is in between (a nested region the markup pass
    /// reads on its own).
    pub(crate) fn skip_to(&mut self, to: usize) {
        self.pos = self.pos.max(to);
    }

    /// Reads `text` up to `to` (or a few bytes past it, to finish an escape or a quote).
    pub(crate) fn advance(&mut self, text: &str, to: usize) {
        let bytes = text.as_bytes();
        let to = to.min(bytes.len());
        while self.pos < to && (!self.first_only || self.found.is_empty()) {
            self.pos = match self.inside {
                Inside::Structure => self.structure(bytes, to),
                Inside::String(quote) => self.string(bytes, quote, to),
                Inside::EscapedString => self.escaped_string(bytes, to),
                Inside::HtmlString => self.html_string(bytes, to),
                Inside::Comment(kind) => self.comment(bytes, kind, to),
                Inside::FencedBlock(run) => self.fenced_block(bytes, run, to),
            };
        }
    }

    /// The values found in the region, which ends at `end`: each top-level balanced span;
    /// when an opener never closed, the text from it to `end` and each balanced span directly
    /// inside it.
    pub(crate) fn finish(mut self, end: usize) -> Vec<(Span, Seen)> {
        if let Some(&open) = self.stack.first() {
            let unclosed = Seen {
                place: Place::Unclosed,
                nonstandard: self.nonstandard_since(open),
            };
            self.found.push((Span::new(open, end.max(open)), unclosed));
            let nested = |(span, nonstandard)| {
                let place = Place::Nested;
                (span, Seen { place, nonstandard })
            };
            self.found.extend(self.children.into_iter().map(nested));
        }
        self.found
    }

    /// [`ValueScan::finish`] where the region's end needs no answer from the scan (the end of
    /// the text, or a fence whose closing run the markup alone decides): when the scan is
    /// between values (nothing open), the rest of the region is left unread, as a [`Tail`]
    /// whose values are read where they start ([`super::tail`]); no fence or tag lies in it
    /// to ask the scan about.
    pub(crate) fn finish_at_end(
        mut self,
        text: &str,
        end: usize,
    ) -> (Vec<(Span, Seen)>, Option<Tail>) {
        if self.inside == Inside::Structure && self.stack.is_empty() && self.pos < end {
            let tail = Tail {
                start: self.pos,
                first_text: self.first_text,
            };
            return (self.found, Some(tail));
        }
        self.advance(text, end);
        (self.finish(end), None)
    }

    /// Whether a token JSON does not have was seen at or after `open`.
    fn nonstandard_since(&self, open: usize) -> bool {
        self.nonstandard_at.is_some_and(|at| at >= open)
    }

    /// A token JSON does not have starts at `at`, inside a value.
    fn nonstandard(&mut self, at: usize) {
        self.nonstandard_at = Some(at);
    }

    /// Adds values found in a region nested in this one (a fence inside an answer tag): they
    /// are values of this region too, as a reading of it.
    pub(crate) fn adopt(&mut self, values: &[(Span, Seen)]) {
        self.found.extend_from_slice(values);
    }

    /// Between tokens: finds the next byte that matters and acts on it.
    fn structure(&mut self, bytes: &[u8], to: usize) -> usize {
        let Some(skip) = bytes[self.pos..to]
            .iter()
            .position(|&b| STRUCTURAL[b as usize])
        else {
            return to;
        };
        let i = self.pos + skip;
        let b = bytes[i];
        if self.stack.is_empty() {
            // Prose: only an opener matters; quotes and comments here are text.
            if (b == b'[' && !bracket_in_text(bytes, i))
                || (b == b'{' && opens_object(bytes, i, self.first_text))
            {
                self.open(bytes, i);
            }
            return i + 1;
        }
        match b {
            b'{' | b'[' => self.open(bytes, i),
            b'}' | b']' => self.close(bytes, i),
            b'"' => return self.open_string(bytes, i),
            b'\'' | 0xE2 if token_start(bytes, i, true) => return self.open_string(bytes, i),
            b'`' => return self.backticks(bytes, i),
            b'\\' if bytes.get(i + 1) == Some(&b'"') => {
                self.nonstandard(i);
                self.inside = Inside::EscapedString;
                return i + 2;
            }
            b'&' => {
                let len = super::html_quote_len(&bytes[i..]);
                if len > 0 {
                    self.nonstandard(i);
                    self.inside = Inside::HtmlString;
                    return i + len;
                }
            }
            b'/' | b'#' if token_start(bytes, i, false) => {
                if let Some((kind, len)) = lex::comment_opener(&bytes[i..]) {
                    self.nonstandard(i);
                    self.inside = Inside::Comment(kind);
                    return i + len;
                }
            }
            _ => {}
        }
        i + 1
    }

    fn open(&mut self, bytes: &[u8], i: usize) {
        if self.stack.is_empty() {
            self.children.clear();
        }
        if bytes[i] == b'{' {
            self.objects += 1;
        } else {
            self.arrays += 1;
        }
        self.stack.push(i);
    }

    /// As the parser does: a closer of a kind that is not open is stray; one of the wrong kind
    /// closes only the innermost opener.
    fn close(&mut self, bytes: &[u8], i: usize) {
        let kind_open = if bytes[i] == b'}' {
            self.objects
        } else {
            self.arrays
        };
        if kind_open == 0 {
            return;
        }
        if let Some(open) = self.stack.pop() {
            if bytes[open] == b'{' {
                self.objects -= 1;
            } else {
                self.arrays -= 1;
            }
            let span = Span::new(open, i + 1);
            let nonstandard = self.nonstandard_since(open);
            match self.stack.len() {
                0 => {
                    let place = Place::TopLevel;
                    self.found.push((span, Seen { place, nonstandard }));
                }
                1 => self.children.push((span, nonstandard)),
                _ => {}
            }
        }
    }

    /// A quote in a value: the string it opens (a curly lead byte that is no quote opens
    /// nothing).
    fn open_string(&mut self, bytes: &[u8], i: usize) -> usize {
        match lex::opening_quote(&bytes[i..]) {
            Some((quote, len)) => {
                if quote != Quote::Double {
                    self.nonstandard(i);
                }
                self.inside = Inside::String(quote);
                i + len
            }
            None => i + 1,
        }
    }

    /// Backticks in a value: a run of three or more where a value belongs opens a fenced
    /// block, one at a token start a backtick string; any other run is text.
    fn backticks(&mut self, bytes: &[u8], i: usize) -> usize {
        let run = bytes[i..].iter().take_while(|&&b| b == b'`').count();
        if run >= 3 {
            if value_position(bytes, i) {
                self.nonstandard(i);
                self.inside = Inside::FencedBlock(run);
            }
            return i + run;
        }
        if token_start(bytes, i, true) {
            self.nonstandard(i);
            self.inside = Inside::String(Quote::Backtick);
            return i + 1;
        }
        i + run
    }

    fn string(&mut self, bytes: &[u8], quote: Quote, to: usize) -> usize {
        match lex::string_close(bytes, self.pos, to, quote) {
            Ok((at, len)) => {
                self.leave_text();
                at + len
            }
            Err(on) => on.min(bytes.len()),
        }
    }

    /// In an [`Inside::EscapedString`]: a quote after a run of `n` backslashes is the string's
    /// closing `\"` when decoding the run once leaves the quote unescaped (`n % 4 == 1`:
    /// `\"` closes, `\\\"` is an escaped quote inside it).
    fn escaped_string(&mut self, bytes: &[u8], to: usize) -> usize {
        let mut i = self.pos;
        while let Some(j) = memchr::memchr(b'"', &bytes[i..to]) {
            let at = i + j;
            let run = bytes[..at]
                .iter()
                .rev()
                .take_while(|&&b| b == b'\\')
                .count();
            if run % 4 == 1 {
                self.leave_text();
                return at + 1;
            }
            i = at + 1;
        }
        to
    }

    /// In an [`Inside::HtmlString`]: the next `&quot;` (or `&#34;`, `&#x22;`) after an even
    /// run of backslashes closes it (`\&quot;` is an escaped quote inside it).
    fn html_string(&mut self, bytes: &[u8], to: usize) -> usize {
        let mut i = self.pos;
        while let Some(j) = memchr::memchr(b'&', &bytes[i..to]) {
            let at = i + j;
            let len = super::html_quote_len(&bytes[at..]);
            let run = bytes[..at]
                .iter()
                .rev()
                .take_while(|&&b| b == b'\\')
                .count();
            if len > 0 && run % 2 == 0 {
                self.leave_text();
                return at + len;
            }
            i = at + 1;
        }
        to
    }

    fn comment(&mut self, bytes: &[u8], kind: Comment, to: usize) -> usize {
        match lex::comment_end(kind, &bytes[self.pos..to]) {
            Some(n) => {
                self.leave_text();
                self.pos + n
            }
            None => to,
        }
    }

    fn fenced_block(&mut self, bytes: &[u8], run: usize, to: usize) -> usize {
        let mut i = self.pos;
        while let Some(j) = memchr::memmem::find(&bytes[i..to], b"```") {
            let at = i + j;
            let len = bytes[at..].iter().take_while(|&&b| b == b'`').count();
            if len >= run {
                self.leave_text();
                return at + len;
            }
            i = at + len;
            if i >= to {
                return i;
            }
        }
        to
    }

    /// Back to structure after a string, comment or fenced block: what was hidden in it is
    /// forgotten.
    fn leave_text(&mut self) {
        self.inside = Inside::Structure;
        self.hidden_run = false;
        self.hidden_tags.clear();
    }
}

/// Whether the `{` at `i`, outside any value, opens one. First in its region it does; in
/// prose it does only when what follows starts a member (a quote, a `key:`, a comment, a
/// nested opener, `}`) or nothing follows: `{name}` and `{not json}` in a sentence are
/// text, not objects, and so is `` `{` ``, as prose quotes a brace.
pub(crate) fn opens_object(bytes: &[u8], i: usize, first_text: usize) -> bool {
    if i == first_text {
        return true;
    }
    let limit = (i + 1 + OPENER_LOOKAHEAD).min(bytes.len());
    let mut j = i + 1;
    while j < limit {
        match lex::space_len(&bytes[j..limit]) {
            0 => break,
            n => j += n,
        }
    }
    if j >= limit {
        return true; // cut off right after the brace, or a long run of spaces
    }
    match bytes[j] {
        b'"' | b'\'' | b'{' | b'[' | b'}' | b'#' | b'\\' => true,
        b'/' => lex::comment_opener(&bytes[j..]).is_some(),
        b'`' => false,
        _ if lex::opening_quote(&bytes[j..]).is_some() => true,
        _ => {
            // A bare key: a word or phrase up to a `:`.
            let stop = bytes[j..limit]
                .iter()
                .position(|b| b":,{}[]\"\n\r".contains(b));
            stop.is_some_and(|s| s > 0 && bytes[j + s] == b':')
        }
    }
}

/// Whether the `[` at `i`, outside any value, is part of the text rather than a list: a
/// subscript (`data["name"]`, `items[0]`: right after a letter, a digit or `_`) or markup
/// (`<![CDATA[`: right after `<!`). It opens no value.
pub(crate) fn bracket_in_text(bytes: &[u8], i: usize) -> bool {
    let before = &bytes[..i];
    before
        .last()
        .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
        || before.ends_with(b"<!")
}

/// Whether a token may start at `i`: at the start, or after whitespace or a byte that ends a
/// token (`{`, `[`, `,`, and, when `after_colon`, `:` and `(`). Quotes other than `"` open
/// strings only at a token start, so the apostrophe in `don't` opens nothing; a `//` right
/// after `:` is a URL's, not a comment.
fn token_start(bytes: &[u8], i: usize, after_colon: bool) -> bool {
    if i == 0 || lex::space_len_before(bytes, i) > 0 {
        return true;
    }
    match bytes[i - 1] {
        b'{' | b'[' | b',' => true,
        b':' | b'(' => after_colon,
        _ => false,
    }
}

/// Whether a value belongs at `i`: the last byte before it, spaces aside, is `:`, `,`, `[` or
/// `(`. Looks back over spaces only.
fn value_position(bytes: &[u8], i: usize) -> bool {
    let mut j = i;
    loop {
        match lex::space_len_before(bytes, j) {
            0 => break,
            n => j -= n,
        }
    }
    j > 0 && matches!(bytes[j - 1], b':' | b',' | b'[' | b'(')
}

/// The value that starts at `from` (an opener), by its brackets, in a region that ends at
/// `end`: its span when it closes, else the span to `end` and the balanced spans directly
/// inside it (see [`ValueScan::finish`]). Reads no further than the value.
pub(crate) fn first_value(text: &str, from: usize, end: usize) -> Vec<(Span, Seen)> {
    let mut scan = ValueScan::new(text, from);
    scan.first_only = true;
    scan.advance(text, end);
    scan.finish(end)
}

/// Where values may be in `region` of `text`, read on its own (no fences or tags in it are
/// looked at): see [`ValueScan::finish`].
pub(crate) fn values(text: &str, region: Span) -> Vec<(Span, Seen)> {
    let mut scan = ValueScan::new(text, region.start);
    scan.advance(text, region.end);
    scan.finish(region.end)
}

/// A region holding no bracketed value but one JSON-like scalar (and perhaps a comma after
/// it): that scalar's span.
pub(crate) fn scalar(text: &str, region: Span) -> Option<Span> {
    let content = &text[region.start..region.end];
    let mut trimmed = lex::trim(content);
    // A comma after it (`4,`: the first item of a list the reply did not go on with) is no
    // part of it.
    while let Some(rest) = trimmed.strip_suffix(',') {
        trimmed = lex::trim(rest);
    }
    let start = region.start + (content.len() - lex::trim_start(content).len());
    if cut_string(lex::trim(content)) {
        // A string the reply's end cut off: the spaces and commas it ends with are its text,
        // as they are when it is cut off inside a container.
        return Some(Span::new(start, region.end));
    }
    if looks_scalar(trimmed) {
        return Some(Span::new(start, start + trimmed.len()));
    }
    // The same in a JSONP call, `callback(2);`, as for an object (`JsonpWrapper`).
    let (at, len) = jsonp_scalar(trimmed)?;
    Some(Span::new(start + at, start + at + len))
}

/// Whether `text` (trimmed, the whole region) is a string in ASCII quotes that the end of
/// the text cuts off: it opens with a quote and does not end with the same quote.
fn cut_string(text: &str) -> bool {
    match text.as_bytes() {
        [q @ (b'"' | b'\''), rest @ ..] => rest.last() != Some(q),
        _ => false,
    }
}

/// `name(scalar)` or `name(scalar);` (trimmed): where the scalar is and how long.
fn jsonp_scalar(text: &str) -> Option<(usize, usize)> {
    // The name runs to the first byte no name has, which must be its `(`: a region of prose
    // is left at its first space, not searched to its end for a `(`.
    let open = text
        .bytes()
        .position(|b| !lex::is_callee_char(char::from(b)))?;
    if open == 0 || text.as_bytes()[open] != b'(' {
        return None;
    }
    let body = lex::trim_end(text.strip_suffix(';').unwrap_or(text));
    let inner = body.strip_suffix(')')?;
    let args = &inner[open + 1..];
    let scalar = lex::trim(args);
    let at = open + 1 + (args.len() - lex::trim_start(args).len());
    looks_scalar(scalar).then_some((at, scalar.len()))
}

/// Whether `text` (trimmed, the whole region) reads as one JSON-like scalar: a quoted string
/// (closed or not), a number (also `2.`, `-`-signed), or a literal such as `True` or `None`.
/// Prose is not: it is a candidate only as text, for a target type that reads text.
fn looks_scalar(text: &str) -> bool {
    const LITERALS: &[&str] = &[
        "true",
        "false",
        "null",
        "none",
        "nil",
        "undefined",
        "nan",
        "infinity",
        "-infinity",
    ];
    let Some(first) = text.bytes().next() else {
        return false;
    };
    match first {
        b'`' => !text.starts_with("``"),
        b'"' | b'\'' => true,
        _ if text.starts_with(['\u{201c}', '\u{2018}']) => true,
        b'0'..=b'9' | b'-' | b'+' | b'.' => {
            text.len() <= 64
                && text.bytes().all(|b| {
                    b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E' | b'_')
                })
        }
        _ => LITERALS.iter().any(|l| text.eq_ignore_ascii_case(l)),
    }
}
