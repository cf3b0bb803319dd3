//! OLMo 3: pythonic calls, one a line, in `<function_calls>`...`</function_calls>`.

use super::code::CodeEnd;
use super::{python_call, Walker};
use crate::span::Span;
use crate::tool::python::{self, PyError};
use crate::tool::scan::Tok;
use crate::tool::Format;

impl Walker<'_> {
    /// A `<function_calls>` block; its calls are complete when it is closed.
    pub(super) fn function_calls(&mut self, k: usize) -> (usize, usize) {
        let body = self.body(k);
        if self.slice(body).trim().is_empty()
            && self.tok(k + 1).is_some_and(|t| t != Tok::FunctionCallsEnd)
        {
            // A wrapper around another format's calls (Claude's XML `<invoke>`s).
            return (k + 1, self.toks[k].span.end);
        }
        let body = self.code_strings_hold_tokens(k, CodeEnd::Token);
        let (next, end, closed) = self.close_at(body, &[Tok::FunctionCallsEnd]);
        let whole = Span::new(self.toks[k].span.start, end);
        let code = self.slice(body);
        match python::read_calls(code, self.max_depth) {
            Ok((calls, n)) if !calls.is_empty() && code[n..].trim().is_empty() => {
                for c in calls {
                    self.hit(python_call(c, body.start), Format::Olmo3, whole, closed);
                }
            }
            Ok(_) => {
                let why = "a <function_calls> block holding no pythonic call";
                let cut = !closed && next >= self.toks.len() && code.trim().is_empty();
                self.miss(whole, Format::Olmo3, why, cut);
            }
            Err(PyError::Incomplete(calls)) if !calls.is_empty() => {
                for c in calls {
                    self.hit(python_call(c, body.start), Format::Olmo3, whole, false);
                }
            }
            Err(PyError::Incomplete(_)) => {
                let why = "the <function_calls> block was cut off before its first call";
                self.miss(whole, Format::Olmo3, why, true);
            }
            Err(PyError::Invalid(_, why)) => self.miss(whole, Format::Olmo3, why, false),
        }
        (next, end)
    }
}
