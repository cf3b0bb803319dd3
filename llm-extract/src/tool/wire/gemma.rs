//! Gemma's call formats: Gemma 4 (`<|tool_call>call:f{a:<|"|>x<|"|>,n:42}<tool_call|>`),
//! FunctionGemma (`<start_function_call>call:f{a:<escape>x<escape>}<end_function_call>`) and
//! Gemma 3's fenced `tool_code` (pythonic calls in a fence with that info string, also
//! written as Gemini writes them: `print(default_api.f(a=1))`).
//!
//! Gemma 4 and FunctionGemma write arguments as `key:value` pairs: strings between two
//! delimiters (whatever quotes or brackets they hold), `{...}` objects, `[...]` lists and bare
//! values (`42`, `true`). The reader is a small one of its own, like the pythonic one: it reads
//! each byte once, refuses nesting deeper than the settings' `max_depth`, and grows its stack
//! where it recurses, so no input can overflow it.

use super::code::CodeEnd;
use super::value::text_value;
use super::{python_call, Walker};
use crate::span::Span;
use crate::tool::python::{self, PyError};
use crate::tool::scan::Tok;
use crate::tool::shape::{Arg, RawCall, Source};
use crate::tool::Format;
use serde_json::Value;

/// How one Gemma dialect writes a call.
#[derive(Clone, Copy)]
pub(super) struct Dialect {
    format: Format,
    /// What opens and closes a string.
    delimiter: &'static str,
    /// What opens and closes a call: one written whole in a string is the string's text.
    call: [&'static str; 2],
    /// The tokens that end a call.
    closers: &'static [Tok],
    /// A delimited top-level value is a string as written (Gemma 4), or text whose meaning
    /// the target decides (FunctionGemma, whose engines read `<escape>42<escape>` as 42).
    delimited_is_string: bool,
}

/// Gemma 4; the engines also take its end-of-turn token as the end of a call.
pub(super) const GEMMA4: Dialect = Dialect {
    format: Format::Gemma4,
    delimiter: "<|\"|>",
    call: ["<|tool_call>", "<tool_call|>"],
    closers: &[Tok::GemmaCallEnd, Tok::TurnEnd],
    delimited_is_string: true,
};

/// FunctionGemma.
pub(super) const FUNCTION_GEMMA: Dialect = Dialect {
    format: Format::FunctionGemma,
    delimiter: "<escape>",
    call: ["<start_function_call>", "<end_function_call>"],
    closers: &[Tok::FnGemmaCallEnd],
    delimited_is_string: false,
};

/// A value as written.
enum Written {
    /// Between delimiters.
    Delimited(String),
    /// A bare word or number, trimmed.
    Bare(String),
    /// An object or a list.
    Container(Value),
}

impl Written {
    fn into_value(self) -> Value {
        match self {
            Written::Delimited(s) => Value::String(s),
            Written::Bare(s) => text_value(&s),
            Written::Container(v) => v,
        }
    }
}

impl Walker<'_> {
    /// `call:name{key:value,...}` after a Gemma 4 or FunctionGemma opener.
    pub(super) fn gemma_call(&mut self, k: usize, dialect: Dialect) -> (usize, usize) {
        let start = self.toks[k].span.start;
        // Read once for the call: the body and the arguments find the same strings.
        let nesting = self.nesting(dialect);
        let body = self.strings_hold_tokens(k, dialect.delimiter, nesting);
        // The token after the body: its closer, or what cuts it short.
        let after = self.toks.partition_point(|t| t.span.start < body.end);
        let (next, end, closed) = match self.tok(after) {
            Some(c) if dialect.closers.contains(&c) => (after + 1, self.toks[after].span.end, true),
            _ => (after, body.end, false),
        };
        let ends_text = after == self.toks.len();
        let whole = Span::new(start, end);
        let text = self.slice(body);
        let lead = text.len() - text.trim_start().len();
        let Some(rest) = text[lead..].strip_prefix("call:") else {
            let cut = ends_text && "call:".starts_with(text.trim());
            self.miss(
                whole,
                dialect.format,
                "a call not written as `call:name{...}`",
                cut,
            );
            return (next, end);
        };
        let name_len = rest.find('{').unwrap_or(rest.len());
        let name = rest[..name_len].trim();
        if name_len == rest.len() || name.is_empty() || name.contains(char::is_whitespace) {
            let why = format!("`call:{}` without a name and `{{`", name);
            let cut = ends_text && name_len == rest.len();
            self.miss(whole, dialect.format, why, cut);
            return (next, end);
        }
        let mut args = Args {
            text: self.text,
            pos: body.start + lead + "call:".len() + name_len + 1,
            end: body.end,
            delimiter: dialect.delimiter,
            call: nesting,
            cut: false,
            max_depth: self.max_depth,
        };
        match args.entries(0, Container::Object) {
            Ok(members) if args.text[args.pos..args.end].trim().is_empty() => {
                let call = gemma_raw_call(name.to_string(), members, dialect);
                self.hit(call, dialect.format, whole, closed && !args.cut);
            }
            Ok(_) => {
                let why = format!("text after the arguments of `{name}`");
                self.miss(whole, dialect.format, why, false);
            }
            Err(why) => {
                let why = format!("the arguments of `{name}`: {why}");
                self.miss(whole, dialect.format, why, false);
            }
        }
        (next, end)
    }

    /// The body of the call whose opener is token `k`: up to the next token written outside
    /// a string between two `delimiter`s. A string is the call's text up to its closing
    /// delimiter, so a call written inside one, in any format, is an argument, not a call
    /// (one of the dialect's own written whole, delimiters and all: [`string_len`]); one
    /// never closed runs to the end of the text.
    ///
    /// Each search reads on from the last, and the call takes every byte read, so the text
    /// is read a bounded number of times whatever the calls.
    fn strings_hold_tokens(
        &self,
        k: usize,
        delimiter: &str,
        nesting: Option<[&'static str; 2]>,
    ) -> Span {
        let start = self.toks[k].span.end;
        let mut pos = start;
        loop {
            let next_token = self.next_token_from(pos);
            let Some(open) = self.text[pos..next_token].find(delimiter) else {
                return Span::new(start, next_token);
            };
            let from = pos + open + delimiter.len();
            match string_len(&self.text[from..], delimiter, nesting) {
                Some((close, lone)) => {
                    if lone {
                        self.lone_opener.set(Some(self.toks[k].span.start));
                    }
                    pos = from + close + delimiter.len();
                }
                None => return Span::new(start, self.text.len()),
            }
        }
    }

    /// The dialect's call opener and closer, read as a string's text when written whole in
    /// it, until a lone opener was met ([`Walker::lone_opener`]).
    fn nesting(&self, dialect: Dialect) -> Option<[&'static str; 2]> {
        self.lone_opener.get().is_none().then_some(dialect.call)
    }

    /// Gemma 3: a fence whose info string is `tool_code`, holding pythonic calls, one a line.
    /// Complete when the fence is closed.
    pub(super) fn tool_code(&mut self, k: usize) -> (usize, usize) {
        let start = self.toks[k].span.start;
        let body = self.code_strings_hold_tokens(k, CodeEnd::Fence);
        let text = self.slice(body);
        let code_start = text.find('\n').map_or(text.len(), |n| n + 1);
        let fence = closing_fence(&text[code_start..]);
        let (code_end, end) = match fence {
            Some((at, len)) => (code_start + at, body.start + code_start + at + len),
            None => (text.len(), body.end),
        };
        let closed = fence.is_some();
        // A closing run on the text's last line may yet be followed by more on its line
        // (`` ```{ ``), which makes it no closer: until a line break comes, its calls may
        // read otherwise.
        let open_line = closed && body.end == self.text.len() && !self.text[end..].contains('\n');
        let from = self.out.hits.len();
        let whole = Span::new(start, end);
        let code = &text[code_start..code_end];
        let base = body.start + code_start;
        match python::read_code(code, self.max_depth) {
            Ok((calls, n)) if !calls.is_empty() && code[n..].trim().is_empty() => {
                for c in calls {
                    let call = python_call(c, base);
                    self.hit(call, Format::ToolCode, whole, closed);
                }
            }
            Ok(_) => {
                let why = "a `tool_code` fence holding no pythonic call";
                self.miss(whole, Format::ToolCode, why, !closed);
            }
            Err(PyError::Incomplete(calls)) if !calls.is_empty() => {
                for c in calls {
                    let call = python_call(c, base);
                    self.hit(call, Format::ToolCode, whole, false);
                }
            }
            Err(PyError::Incomplete(_)) => {
                let why = "the `tool_code` fence was cut off before its first call";
                self.miss(whole, Format::ToolCode, why, true);
            }
            Err(PyError::Invalid(_, why)) => self.miss(whole, Format::ToolCode, why, false),
        }
        for h in &mut self.out.hits[from..] {
            h.until_end |= open_line;
        }
        (self.toks.partition_point(|t| t.span.start < end), end)
    }
}

/// Where the line that closes a fence (three backticks, alone on their line) starts in
/// `code`, and how long it is up to its backticks' end.
fn closing_fence(code: &str) -> Option<(usize, usize)> {
    let mut line_start = 0;
    for line in code.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.starts_with("```") && trimmed.bytes().all(|b| b == b'`') {
            let lead = line.len() - line.trim_start().len();
            return Some((line_start, lead + trimmed.len()));
        }
        line_start += line.len();
    }
    None
}

/// The call's arguments: top-level values keep what their writing says about their type.
fn gemma_raw_call(
    name: String,
    members: Vec<(String, Written, Span)>,
    dialect: Dialect,
) -> RawCall {
    let spans = members.iter().map(|(k, _, s)| (k.clone(), *s)).collect();
    let arguments = members
        .into_iter()
        .map(|(k, w, _)| {
            let arg = match w {
                Written::Delimited(s) if dialect.delimited_is_string => Arg::Json(Value::String(s)),
                Written::Delimited(s) | Written::Bare(s) => Arg::Text(s),
                Written::Container(v) => Arg::Json(v),
            };
            (k, arg)
        })
        .collect();
    RawCall {
        name,
        id: None,
        arguments,
        source: Source::Each(spans),
        ..RawCall::default()
    }
}

/// What a container's entries are.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Container {
    /// `key:value` members, closed by `}`.
    Object,
    /// Values, closed by `]`.
    List,
}

/// The reader of `key:value` arguments between `pos` and `end` of `text`.
struct Args<'a> {
    text: &'a str,
    pos: usize,
    end: usize,
    delimiter: &'static str,
    /// See [`Dialect::call`]; `None` once the walk reads without nesting.
    call: Option<[&'static str; 2]>,
    /// The text ended inside the arguments.
    cut: bool,
    /// Nesting deeper than this in an argument is refused (`Extractor::max_depth`).
    max_depth: usize,
}

impl<'a> Args<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.pos..self.end]
    }

    fn skip(&mut self, commas: bool) {
        let rest = self.rest();
        let kept = rest.trim_start_matches(|c: char| c.is_whitespace() || (commas && c == ','));
        self.pos += rest.len() - kept.len();
    }

    /// The entries of an object or a list, after its `{` or `[`, up to and with its closer;
    /// a list's entries have empty keys. A member whose value the text ended before is left
    /// out; a value the text ended inside is kept as written so far.
    fn entries(
        &mut self,
        depth: usize,
        container: Container,
    ) -> Result<Vec<(String, Written, Span)>, String> {
        if depth > self.max_depth {
            return Err(format!("nested deeper than {} levels", self.max_depth));
        }
        let closer = match container {
            Container::Object => '}',
            Container::List => ']',
        };
        let mut out = Vec::new();
        loop {
            self.skip(true);
            if self.pos >= self.end {
                self.cut = true;
                return Ok(out);
            }
            if self.rest().starts_with(closer) {
                self.pos += 1;
                return Ok(out);
            }
            let mut key = String::new();
            if container == Container::Object {
                let Some(k) = self.key()? else {
                    return Ok(out);
                };
                key = k;
                self.skip(false);
                if self.pos >= self.end {
                    self.cut = true;
                    return Ok(out);
                }
            }
            let value_start = self.pos;
            let value = self.value(depth)?;
            if self.pos == value_start {
                // A closer of the other kind (`}` in a list): no value, and no way on.
                return Err(format!(
                    "expected a value, found {:?}",
                    self.rest().chars().take(20).collect::<String>()
                ));
            }
            let mut span = Span::new(value_start, self.pos);
            if let Written::Delimited(s) = &value {
                span = Span::new(
                    value_start + self.delimiter.len(),
                    value_start + self.delimiter.len() + s.len(),
                );
            }
            out.push((key, value, span));
        }
    }

    /// A key and its `:`; `None` when the text ended inside it.
    fn key(&mut self) -> Result<Option<String>, String> {
        if let Some(key) = self.delimited() {
            if self.cut {
                return Ok(None);
            }
            self.skip(false);
            return match self.rest().chars().next() {
                Some(':') => {
                    self.pos += 1;
                    Ok(Some(key))
                }
                None => {
                    self.cut = true;
                    Ok(None)
                }
                Some(_) => Err(format!("expected `:` after the key `{key}`")),
            };
        }
        let rest = self.rest();
        match rest.find([':', ',', '}', '[', ']', '{', '<']) {
            Some(at) if rest.as_bytes()[at] == b':' => {
                let key = rest[..at].trim().to_string();
                self.pos += at + 1;
                Ok(Some(key))
            }
            Some(at) => Err(format!(
                "expected `key:value`, found {:?}",
                rest[..at + 1].chars().take(20).collect::<String>()
            )),
            None => {
                self.cut = true;
                Ok(None)
            }
        }
    }

    /// A string between two delimiters at `pos`, a key's or a value's; `None` when no
    /// delimiter opens one here. One the text ended inside runs to the end, and sets `cut`.
    fn delimited(&mut self) -> Option<String> {
        let rest = self.rest();
        let after = rest.strip_prefix(self.delimiter)?;
        let (s, len) = match string_len(after, self.delimiter, self.call) {
            Some((len, _)) => (&after[..len], self.delimiter.len() * 2 + len),
            None => {
                self.cut = true;
                (after, rest.len())
            }
        };
        self.pos += len;
        Some(s.to_string())
    }

    /// One value at `pos` (which is not the end).
    fn value(&mut self, depth: usize) -> Result<Written, String> {
        if let Some(s) = self.delimited() {
            return Ok(Written::Delimited(s));
        }
        let container = match self.rest().as_bytes().first() {
            Some(b'{') => Container::Object,
            Some(b'[') => Container::List,
            _ => return Ok(self.bare()),
        };
        self.pos += 1;
        // One level of the stack per level of nesting, grown where it runs low.
        let entries = crate::deep::grow(|| self.entries(depth + 1, container))?;
        let values = entries.into_iter().map(|(k, w, _)| (k, w.into_value()));
        Ok(Written::Container(match container {
            Container::Object => Value::Object(values.collect()),
            Container::List => Value::Array(values.map(|(_, v)| v).collect()),
        }))
    }

    /// A bare word or number at `pos`, up to the next `,`, `}` or `]`.
    fn bare(&mut self) -> Written {
        let rest = self.rest();
        let len = rest.find([',', '}', ']']).unwrap_or_else(|| {
            // A bare value the text ended in may be cut (`tru`, `10` of `108`).
            self.cut = true;
            rest.len()
        });
        let bare = rest[..len].trim().to_string();
        self.pos += len;
        Written::Bare(bare)
    }
}

/// The length of a string's text `after` its opening `delimiter`, up to its closing one, and
/// whether a lone opener was met. With `call` (an opener and closer), a call written whole in
/// the string is its text, delimiters and all, nesting counted; when no delimiter is left
/// once the calls are closed, the opener was text, and the first delimiter after it closes
/// the string (the walk then
/// reads without nesting: [`Walker::lone_opener`]). `None` when the text ends first. One pass
/// over the `<`s, so linear.
fn string_len(after: &str, delimiter: &str, call: Option<[&str; 2]>) -> Option<(usize, bool)> {
    let Some(call) = call else {
        return after.find(delimiter).map(|at| (at, false));
    };
    let mut open = 0usize;
    let mut skip_to = 0;
    let mut first = None;
    for at in memchr::memchr_iter(b'<', after.as_bytes()) {
        if at < skip_to {
            continue;
        }
        let rest = &after[at..];
        if rest.starts_with(call[0]) {
            open += 1;
            skip_to = at + call[0].len();
        } else if open > 0 && rest.starts_with(call[1]) {
            open -= 1;
            skip_to = at + call[1].len();
        } else if rest.starts_with(delimiter) {
            if open == 0 {
                return Some((at, false));
            }
            first = first.or(Some(at));
            skip_to = at + delimiter.len();
        }
    }
    first.map(|at| (at, true))
}
