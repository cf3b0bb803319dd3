//! DeepSeek V3.2 and V4 DSML calls:
//! `<｜DSML｜invoke name="f"><｜DSML｜parameter name="a" string="true">x</｜DSML｜parameter></｜DSML｜invoke>`,
//! inside `<｜DSML｜function_calls>` (V3.2) or `<｜DSML｜tool_calls>` (V4).

use super::params::{attr, tag_call, tag_params, TagSyntax, Values};
use super::Walker;
use crate::span::Span;
use crate::tool::scan::Tok;
use crate::tool::shape::Arg;
use crate::tool::Format;
use serde_json::Value;

const PARAMETER: TagSyntax = TagSyntax {
    open: "<｜DSML｜parameter",
    open_end: ">",
    close: "</｜DSML｜parameter>",
};

/// The values as the call's text (a token inside one is no call's).
const VALUES: Values = Values {
    open: PARAMETER.open,
    close: PARAMETER.close,
    call_close: Tok::DsmlInvokeEnd,
};

impl Walker<'_> {
    /// One `<｜DSML｜invoke>`: tagged parameters, or a JSON object (the engines accept both).
    /// `string="true"` values are strings as written; `string="false"` values are JSON, read
    /// as text (the type decides, and invalid JSON stays text).
    pub(super) fn dsml_invoke(&mut self, k: usize) -> (usize, usize) {
        let t = self.toks[k];
        let name = self.slice(t.name).trim().to_string();
        let read = self.tag_body(k, t.span.end, &VALUES);
        let (body, next, end, closed) = (read.body, read.next, read.end, read.closed);
        let whole = Span::new(t.span.start, end);
        if self.slice(body).trim_start().starts_with('{') {
            self.json_call(name, None, Format::Dsml, body, whole);
            if !closed {
                self.mark_open(whole);
            }
            return (next, end);
        }
        let (params, complete) = tag_params(self.text, body, &PARAMETER, read.ends.as_deref());
        let complete = complete && read.holds(params.len());
        if params.is_empty() && !self.slice(body).trim().is_empty() {
            let why = format!("the invoke of `{name}` holds neither parameters nor a JSON object");
            self.miss(whole, Format::Dsml, why, !closed);
            return (next, end);
        }
        let arguments = params
            .into_iter()
            .map(|p| {
                let key = attr(p.attrs, "name").unwrap_or_default().to_string();
                let raw = self.slice(p.value).to_string();
                let value = match attr(p.attrs, "string") {
                    Some("true") => Arg::Json(Value::String(raw)),
                    _ => Arg::Text(raw),
                };
                (key, value, p.value)
            })
            .collect();
        self.hit(
            tag_call(name, arguments),
            Format::Dsml,
            whole,
            closed && complete,
        );
        (next, end)
    }
}
