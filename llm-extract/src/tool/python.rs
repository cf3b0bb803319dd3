//! Reads pythonic tool calls (Llama 3.2/4, LFM2): `[get_weather(city="Paris", days=3)]`, the
//! arguments written as Python literals.
//!
//! A small reader of its own: Python literals (`'single'`, `True`, `None`, tuples) are not
//! JSON, and a call list is not a value the JSON parser could be asked for. Nesting is
//! bounded, so it cannot overflow the stack, and it reads each byte at most once.

use serde_json::{Map, Number, Value};

/// A call read from pythonic text: its name and keyword arguments.
#[derive(Debug)]
pub(crate) struct PyCall {
    pub name: String,
    pub arguments: Map<String, Value>,
}

/// Why a pythonic call list could not be read.
#[derive(Debug, PartialEq)]
pub(crate) enum PyError {
    /// The text ended inside the list: the call was cut off.
    Incomplete,
    /// Not a call list: what was wrong, at which byte (relative to the start).
    Invalid(usize, String),
}

/// Nesting deeper than this in an argument is refused.
const MAX_DEPTH: usize = 64;

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
pub(crate) fn read_calls(text: &str) -> Result<(Vec<PyCall>, usize), PyError> {
    let mut r = Reader { text, pos: 0 };
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
        calls.push(r.call()?);
        r.skip_ws();
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
    if calls.is_empty() {
        return Err(PyError::Invalid(r.pos, "an empty call list".into()));
    }
    Ok((calls, r.pos))
}

struct Reader<'a> {
    text: &'a str,
    pos: usize,
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

    fn expect(&mut self, b: u8, what: &str) -> Result<(), PyError> {
        self.skip_ws();
        if self.eat(b) {
            return Ok(());
        }
        Err(self.fail(what))
    }

    /// `Incomplete` at the end of the text, else `Invalid` saying what was expected.
    fn fail(&self, expected: &str) -> PyError {
        match self.peek() {
            None => PyError::Incomplete,
            Some(_) => {
                let found: String = self.rest().chars().take(12).collect();
                PyError::Invalid(self.pos, format!("expected {expected}, found {found:?}"))
            }
        }
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

    fn call(&mut self) -> Result<PyCall, PyError> {
        let Some(name) = self.ident(true).map(str::to_string) else {
            return Err(self.fail("a function name"));
        };
        self.expect(b'(', "`(` after the function name")?;
        let mut arguments = Map::new();
        loop {
            self.skip_ws();
            if self.eat(b')') {
                break;
            }
            let Some(key) = self.ident(false).map(str::to_string) else {
                return Err(self.fail("a keyword argument (`name=value`)"));
            };
            self.expect(
                b'=',
                "`=` after the argument name (pythonic calls take keyword arguments)",
            )?;
            self.skip_ws();
            let value = self.literal(0)?;
            arguments.insert(key, value);
            self.skip_ws();
            if self.eat(b',') {
                continue;
            }
            self.expect(b')', "`,` or `)` after an argument")?;
            break;
        }
        Ok(PyCall { name, arguments })
    }

    fn literal(&mut self, depth: usize) -> Result<Value, PyError> {
        if depth > MAX_DEPTH {
            return Err(PyError::Invalid(
                self.pos,
                "arguments nested too deeply".into(),
            ));
        }
        self.skip_ws();
        match self.peek() {
            None => Err(PyError::Incomplete),
            Some(q @ (b'"' | b'\'')) => self.string(q).map(Value::String),
            Some(open @ (b'[' | b'(')) => {
                let close = if open == b'[' { b']' } else { b')' };
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_ws();
                    if self.eat(close) {
                        break;
                    }
                    items.push(self.literal(depth + 1)?);
                    self.skip_ws();
                    if self.eat(b',') {
                        continue;
                    }
                    self.expect(close, "`,` or the end of the list")?;
                    break;
                }
                Ok(Value::Array(items))
            }
            Some(b'{') => {
                self.pos += 1;
                let mut map = Map::new();
                loop {
                    self.skip_ws();
                    if self.eat(b'}') {
                        break;
                    }
                    let key = match self.literal(depth + 1)? {
                        Value::String(s) => s,
                        other => other.to_string(),
                    };
                    self.expect(b':', "`:` after a dict key")?;
                    let value = self.literal(depth + 1)?;
                    map.insert(key, value);
                    self.skip_ws();
                    if self.eat(b',') {
                        continue;
                    }
                    self.expect(b'}', "`,` or `}` in a dict")?;
                    break;
                }
                Ok(Value::Object(map))
            }
            Some(b'-' | b'+' | b'.' | b'0'..=b'9') => self.number(),
            Some(_) => {
                let start = self.pos;
                match self.ident(false) {
                    Some("True" | "true") => Ok(Value::Bool(true)),
                    Some("False" | "false") => Ok(Value::Bool(false)),
                    Some("None" | "null") => Ok(Value::Null),
                    _ => {
                        self.pos = start;
                        Err(self.fail(
                            "a Python literal (string, number, True, False, None, list, dict)",
                        ))
                    }
                }
            }
        }
    }

    fn number(&mut self) -> Result<Value, PyError> {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.' | b'_'))
        {
            self.pos += 1;
        }
        let written = self.text[start..self.pos].replace('_', "");
        if let Ok(i) = written.parse::<i64>() {
            return Ok(Value::Number(i.into()));
        }
        if let Ok(u) = written.parse::<u64>() {
            return Ok(Value::Number(u.into()));
        }
        match written.parse::<f64>().ok().and_then(Number::from_f64) {
            Some(n) => Ok(Value::Number(n)),
            None if self.at_end() => Err(PyError::Incomplete),
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
                return Err(PyError::Incomplete);
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
                return Err(PyError::Incomplete);
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

    #[test]
    fn reads_a_list_of_calls_with_python_literals() {
        let text = r#"[get_weather(city="Paris", days=3), search(q='x', exact=True, tags=("a", 'b'), extra=None, opts={'k': 1.5})]"#;
        let (calls, end) = read_calls(text).unwrap();
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
            assert_eq!(
                read_calls(&text[..cut]).unwrap_err(),
                PyError::Incomplete,
                "{cut}"
            );
        }
    }

    #[test]
    fn positional_arguments_are_not_calls() {
        assert!(matches!(read_calls("[docs(1)]"), Err(PyError::Invalid(..))));
    }

    #[test]
    fn deep_nesting_is_refused_without_overflow() {
        let text = format!("[f(a={})]", "[".repeat(100_000));
        assert!(matches!(read_calls(&text), Err(PyError::Invalid(..))));
    }
}
