//! Reads pythonic tool calls (Llama 3.2/4, LFM2): `[get_weather(city="Paris", days=3)]`, the
//! arguments written as Python literals.
//!
//! A small reader of its own: Python literals (`'single'`, `True`, `None`, tuples) are not
//! JSON, and a call list is not a value the JSON parser could be asked for. Nesting is
//! bounded, so it cannot overflow the stack, and it reads each byte at most once.

use crate::span::Span;
use serde_json::{Map, Number, Value};

/// A call read from pythonic text: its name and keyword arguments.
#[derive(Debug)]
pub(crate) struct PyCall {
    pub name: String,
    pub arguments: Map<String, Value>,
    /// Where each argument's value was written, relative to the text read.
    pub spans: Vec<(String, Span)>,
}

/// Why a pythonic call list could not be read.
#[derive(Debug)]
pub(crate) enum PyError {
    /// The text ended inside the list: the calls read so far, the last one with the
    /// arguments written before the cut (strings and containers closed where the text ended,
    /// an argument without a value left out). Empty when no call got as far as its `(`.
    Incomplete(Vec<PyCall>),
    /// Not a call list: what was wrong, at which byte (relative to the start).
    Invalid(usize, String),
}

/// Whether `text` starts (after spaces) like a call list: `[name(` or, with `bare`, `name(`.
pub(crate) fn looks_like_calls(text: &str, bare: bool) -> bool {
    let t = text.trim_start();
    let t = match t.strip_prefix('[') {
        Some(rest) => rest.trim_start(),
        None if bare => t,
        None => return false,
    };
    let name_len = t
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'.')
        .count();
    name_len > 0 && !t.as_bytes()[0].is_ascii_digit() && t[name_len..].trim_start().starts_with('(')
}

/// Reads `[call, call, ...]` (or, when the text does not start with `[`, calls separated by
/// commas up to the end) from the start of `text`. Returns the calls and the bytes read.
/// An argument nested deeper than `max_depth` makes the list invalid.
pub(crate) fn read_calls(text: &str, max_depth: usize) -> Result<(Vec<PyCall>, usize), PyError> {
    read(text, max_depth, false)
}

/// The module Gemini's code names tools through: `default_api.get_weather(...)`.
const API: &str = "default_api.";

/// [`read_calls`] for the code of a `tool_code` fence, where a call may also be written as
/// Gemini writes it: `print(default_api.NAME(...))` or `default_api.NAME(...)`, the call
/// named `NAME`.
pub(crate) fn read_code(text: &str, max_depth: usize) -> Result<(Vec<PyCall>, usize), PyError> {
    read(text, max_depth, true)
}

fn read(text: &str, max_depth: usize, api: bool) -> Result<(Vec<PyCall>, usize), PyError> {
    let mut r = Reader {
        text,
        pos: 0,
        cut: false,
        max_depth,
        api,
    };
    r.skip_ws();
    let bracketed = r.eat(b'[');
    let mut calls = Vec::new();
    loop {
        r.skip_ws();
        if bracketed && r.eat(b']') {
            break;
        }
        if !bracketed && r.at_end() {
            break;
        }
        calls.extend(r.call()?);
        r.skip_ws();
        if r.cut {
            break;
        }
        if r.eat(b',') {
            continue;
        }
        if bracketed {
            r.expect(b']', "`,` or `]` after a call")?;
        } else if !r.at_end() {
            // Several bare calls may also be separated by line breaks or `;`.
            if r.eat(b';') {
                continue;
            }
            if looks_like_calls(r.rest(), true) {
                continue;
            }
            break;
        }
        break;
    }
    if r.cut {
        return Err(PyError::Incomplete(calls));
    }
    if calls.is_empty() {
        return Err(PyError::Invalid(r.pos, "an empty call list".into()));
    }
    Ok((calls, r.pos))
}

/// A reader that, when the text ends inside what it reads, closes what is open (in stack
/// order, as the JSON parser does) and sets `cut`: every construct checks `cut` after each
/// part and returns what it has.
struct Reader<'a> {
    text: &'a str,
    pos: usize,
    cut: bool,
    /// Nesting deeper than this in an argument is refused.
    max_depth: usize,
    /// Calls may be written as Gemini writes them (see [`read_code`]).
    api: bool,
}

impl Reader<'_> {
    fn rest(&self) -> &str {
        &self.text[self.pos..]
    }

    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Consumes `b` (after spaces); at the end of the text, marks the read cut instead.
    fn expect(&mut self, b: u8, what: &str) -> Result<(), PyError> {
        self.skip_ws();
        if self.eat(b) {
            return Ok(());
        }
        self.cut_or(what)
    }

    /// At the end of the text: the read is cut (`Ok`). Elsewhere: `Invalid`, saying what
    /// was expected.
    fn cut_or(&mut self, expected: &str) -> Result<(), PyError> {
        if self.at_end() {
            self.cut = true;
            return Ok(());
        }
        let found: String = self.rest().chars().take(12).collect();
        Err(PyError::Invalid(
            self.pos,
            format!("expected {expected}, found {found:?}"),
        ))
    }

    fn ident(&mut self, dotted: bool) -> Option<&str> {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || (dotted && b == b'.'))
        {
            self.pos += 1;
        }
        let id = &self.text[start..self.pos];
        (!id.is_empty() && !id.as_bytes()[0].is_ascii_digit()).then_some(id)
    }

    /// One call; `None` when the text ended before its `(` (the name may be cut too).
    fn call(&mut self) -> Result<Option<PyCall>, PyError> {
        let Some(name) = self.ident(true).map(str::to_string) else {
            self.cut_or("a function name")?;
            return Ok(None);
        };
        if !self.api {
            return self.arguments(name);
        }
        if name == "print" {
            return self.printed_call();
        }
        match name.strip_prefix(API) {
            Some(tool) => self.arguments(tool.to_string()),
            None => self.arguments(name),
        }
    }

    /// After `print`: `(default_api.NAME(...))`, the call inside it.
    fn printed_call(&mut self) -> Result<Option<PyCall>, PyError> {
        self.expect(b'(', "`(` after `print`")?;
        self.skip_ws();
        if self.cut || self.at_end() {
            self.cut = true;
            return Ok(None);
        }
        let at = self.pos;
        let name = self.ident(true).unwrap_or_default().to_string();
        let Some(tool) = name.strip_prefix(API).filter(|t| !t.is_empty()) else {
            // The text may end inside `default_api.NAME`.
            if self.at_end() && (API.starts_with(&name) || name.starts_with(API)) {
                self.cut = true;
                return Ok(None);
            }
            return Err(PyError::Invalid(
                at,
                "`print(` holding no `default_api.NAME(...)` call".into(),
            ));
        };
        let call = self.arguments(tool.to_string())?;
        if !self.cut {
            self.expect(b')', "`)` closing `print(`")?;
        }
        Ok(call)
    }

    /// The call to `name`: its `(`, keyword arguments and `)`; `None` when the text ended
    /// before its `(`.
    fn arguments(&mut self, name: String) -> Result<Option<PyCall>, PyError> {
        self.expect(b'(', "`(` after the function name")?;
        if self.cut {
            return Ok(None);
        }
        let mut call = PyCall {
            name,
            arguments: Map::new(),
            spans: Vec::new(),
        };
        loop {
            self.skip_ws();
            if self.eat(b')') {
                break;
            }
            let Some(key) = self.ident(false).map(str::to_string) else {
                self.cut_or("a keyword argument (`name=value`)")?;
                break;
            };
            self.expect(
                b'=',
                "`=` after the argument name (pythonic calls take keyword arguments)",
            )?;
            self.skip_ws();
            let start = self.pos;
            let value = if self.cut { None } else { self.literal(0)? };
            // An argument whose value never started is left out, as a key without a value is.
            let Some(value) = value else {
                break;
            };
            call.spans.push((key.clone(), Span::new(start, self.pos)));
            call.arguments.insert(key, value);
            self.skip_ws();
            if self.cut {
                break;
            }
            if self.eat(b',') {
                continue;
            }
            self.expect(b')', "`,` or `)` after an argument")?;
            break;
        }
        Ok(Some(call))
    }

    /// A Python literal; `None` only when the text ended before it started (or inside a
    /// bare word, which cannot be completed).
    fn literal(&mut self, depth: usize) -> Result<Option<Value>, PyError> {
        if depth > self.max_depth {
            return Err(PyError::Invalid(
                self.pos,
                "arguments nested too deeply".into(),
            ));
        }
        self.skip_ws();
        match self.peek() {
            None => {
                self.cut = true;
                Ok(None)
            }
            Some(q @ (b'"' | b'\'')) => self.string(q).map(|s| Some(Value::String(s))),
            Some(open @ (b'[' | b'(')) => self.sequence(open, depth).map(Some),
            Some(b'{') => self.dict(depth).map(Some),
            Some(b'-' | b'+' | b'.' | b'0'..=b'9') => self.number(),
            Some(_) => {
                let start = self.pos;
                let word = match self.ident(false) {
                    Some("True" | "true") => Some(Value::Bool(true)),
                    Some("False" | "false") => Some(Value::Bool(false)),
                    Some("None" | "null") => Some(Value::Null),
                    _ => None,
                };
                match word {
                    Some(value) => Ok(Some(value)),
                    // A bare word cut off (`Tru`) cannot be completed: left out.
                    None if self.at_end() => {
                        self.cut = true;
                        Ok(None)
                    }
                    None => {
                        self.pos = start;
                        self.cut_or(
                            "a Python literal (string, number, True, False, None, list, dict)",
                        )?;
                        Ok(None)
                    }
                }
            }
        }
    }

    /// A list `[...]` or tuple `(...)`, as an array.
    fn sequence(&mut self, open: u8, depth: usize) -> Result<Value, PyError> {
        let close = if open == b'[' { b']' } else { b')' };
        self.pos += 1;
        let mut items = Vec::new();
        loop {
            self.skip_ws();
            if self.eat(close) {
                break;
            }
            match self.literal(depth + 1)? {
                Some(item) => items.push(item),
                None => break,
            }
            self.skip_ws();
            if self.cut {
                break;
            }
            if self.eat(b',') {
                continue;
            }
            self.expect(close, "`,` or the end of the list")?;
            break;
        }
        Ok(Value::Array(items))
    }

    /// A dict `{k: v, ...}`, as an object; a key cut off before its value is left out.
    fn dict(&mut self, depth: usize) -> Result<Value, PyError> {
        self.pos += 1;
        let mut map = Map::new();
        loop {
            self.skip_ws();
            if self.eat(b'}') {
                break;
            }
            let key = match self.literal(depth + 1)? {
                Some(Value::String(s)) => s,
                Some(other) => other.to_string(),
                None => break,
            };
            if self.cut {
                break;
            }
            self.expect(b':', "`:` after a dict key")?;
            let value = if self.cut {
                None
            } else {
                self.literal(depth + 1)?
            };
            let Some(value) = value else {
                break;
            };
            map.insert(key, value);
            self.skip_ws();
            if self.cut {
                break;
            }
            if self.eat(b',') {
                continue;
            }
            self.expect(b'}', "`,` or `}` in a dict")?;
            break;
        }
        Ok(Value::Object(map))
    }

    /// A number; at the end of the text, what was written so far (`None` when that is not
    /// a number yet, such as `-` or `1e`).
    fn number(&mut self) -> Result<Option<Value>, PyError> {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.' | b'_'))
        {
            self.pos += 1;
        }
        let written = self.text[start..self.pos].replace('_', "");
        if let Ok(i) = written.parse::<i64>() {
            return Ok(Some(Value::Number(i.into())));
        }
        if let Ok(u) = written.parse::<u64>() {
            return Ok(Some(Value::Number(u.into())));
        }
        match written.parse::<f64>().ok().and_then(Number::from_f64) {
            Some(n) => Ok(Some(Value::Number(n))),
            None if self.at_end() => {
                self.cut = true;
                Ok(None)
            }
            None => Err(PyError::Invalid(
                start,
                format!("{written:?} is not a number"),
            )),
        }
    }

    /// A Python string in `quote`, single or triple, with the usual escapes.
    fn string(&mut self, quote: u8) -> Result<String, PyError> {
        let triple = {
            let q = quote as char;
            self.rest().starts_with(&format!("{q}{q}{q}"))
        };
        self.pos += if triple { 3 } else { 1 };
        let mut out = String::new();
        loop {
            let Some(c) = self.rest().chars().next() else {
                self.cut = true;
                return Ok(out);
            };
            if c as u32 == quote as u32 {
                if !triple {
                    self.pos += 1;
                    return Ok(out);
                }
                let q = c.to_string().repeat(3);
                if self.rest().starts_with(&q) {
                    self.pos += 3;
                    return Ok(out);
                }
            }
            self.pos += c.len_utf8();
            if c != '\\' {
                out.push(c);
                continue;
            }
            let Some(e) = self.rest().chars().next() else {
                self.cut = true;
                return Ok(out);
            };
            self.pos += e.len_utf8();
            match e {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                '0' => out.push('\0'),
                'u' => {
                    let hex: String = self.rest().chars().take(4).collect();
                    match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                        Some(ch) if hex.len() == 4 => {
                            self.pos += 4;
                            out.push(ch);
                        }
                        _ => out.push_str("\\u"),
                    }
                }
                other => out.push(other),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const DEPTH: usize = crate::settings::DEFAULT_MAX_DEPTH;

    #[test]
    fn reads_a_list_of_calls_with_python_literals() {
        let text = r#"[get_weather(city="Paris", days=3), search(q='x', exact=True, tags=("a", 'b'), extra=None, opts={'k': 1.5})]"#;
        let (calls, end) = read_calls(text, DEPTH).unwrap();
        assert_eq!(end, text.len());
        assert_eq!(calls[0].name, "get_weather");
        assert_eq!(
            Value::Object(calls[0].arguments.clone()),
            json!({"city": "Paris", "days": 3})
        );
        assert_eq!(
            Value::Object(calls[1].arguments.clone()),
            json!({"q": "x", "exact": true, "tags": ["a", "b"], "extra": null, "opts": {"k": 1.5}})
        );
    }

    #[test]
    fn a_cut_off_list_is_incomplete_not_invalid() {
        let text = r#"[run_shell(cmd="rm -rf /tmp/bu"#;
        for cut in 1..text.len() {
            let err = read_calls(&text[..cut], DEPTH).unwrap_err();
            assert!(matches!(err, PyError::Incomplete(_)), "{cut}: {err:?}");
        }
    }

    /// The calls read before the cut, the last one with what its arguments held.
    fn salvaged(text: &str) -> Vec<(String, Value)> {
        match read_calls(text, DEPTH) {
            Err(PyError::Incomplete(calls)) => calls
                .into_iter()
                .map(|c| (c.name, Value::Object(c.arguments)))
                .collect(),
            other => panic!("{text:?}: {other:?}"),
        }
    }

    #[test]
    fn a_cut_off_list_keeps_what_was_written_closing_what_is_open() {
        let rows = [
            (
                r#"[get_weather(city="Par"#,
                vec![("get_weather", json!({"city": "Par"}))],
            ),
            (
                "[get_weather(city='Paris', days=3",
                vec![("get_weather", json!({"city": "Paris", "days": 3}))],
            ),
            (
                "[get_weather(city='Paris', da",
                vec![("get_weather", json!({"city": "Paris"}))],
            ),
            ("[get_weather(city=", vec![("get_weather", json!({}))]),
            ("[f(tags=['a', 'b", vec![("f", json!({"tags": ["a", "b"]}))]),
            (
                "[f(opts={'k': 1, 'j': ",
                vec![("f", json!({"opts": {"k": 1}}))],
            ),
            ("[f(ok=Tr", vec![("f", json!({}))]),
            (
                "[a(x=1), b(y='z",
                vec![("a", json!({"x": 1})), ("b", json!({"y": "z"}))],
            ),
            ("[a(x=1), b", vec![("a", json!({"x": 1}))]),
            ("[get_wea", vec![]),
        ];
        for (text, want) in rows {
            let want: Vec<(String, Value)> =
                want.into_iter().map(|(n, a)| (n.to_string(), a)).collect();
            assert_eq!(salvaged(text), want, "{text}");
        }
    }

    #[test]
    fn argument_spans_point_at_the_values() {
        let text = r#"[f(city="Paris", days=3)]"#;
        let (calls, _) = read_calls(text, DEPTH).unwrap();
        let spans: Vec<&str> = calls[0]
            .spans
            .iter()
            .map(|(_, s)| &text[s.start..s.end])
            .collect();
        assert_eq!(spans, [r#""Paris""#, "3"]);
    }

    #[test]
    fn positional_arguments_are_not_calls() {
        assert!(matches!(
            read_calls("[docs(1)]", DEPTH),
            Err(PyError::Invalid(..))
        ));
    }

    #[test]
    fn deep_nesting_is_refused_without_overflow() {
        let text = format!("[f(a={})]", "[".repeat(100_000));
        assert!(matches!(
            read_calls(&text, DEPTH),
            Err(PyError::Invalid(..))
        ));
    }
}
