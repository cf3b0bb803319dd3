//! Mistral's calls written `[TOOL_CALLS]name{...}`, the name right before its JSON arguments
//! (the engines read this beside `[TOOL_CALLS]name[ARGS]{...}` and the JSON list).

use super::{json_at, Walker};
use crate::span::Span;
use crate::tool::shape::{RawCall, Source};
use crate::tool::Format;
use serde_json::Value;

impl Walker<'_> {
    /// `[TOOL_CALLS]name{...}` at token `k`, when its body is a name and then `{`; `None`
    /// otherwise (the other Mistral forms).
    pub(super) fn mistral_inline(&mut self, k: usize) -> Option<(usize, usize)> {
        let start = self.toks[k].span.start;
        let body = self.body(k);
        let text = self.slice(body);
        let lead = text.len() - text.trim_start().len();
        let brace = text.find('{')?;
        let name = &text[lead..brace];
        let is_name = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.');
        if name.is_empty() || !name.chars().all(is_name) {
            return None;
        }
        let args = Span::new(body.start + brace, body.end);
        match json_at(self.text, args, self.max_depth) {
            Ok((Value::Object(map), complete, at)) => {
                let source = Source::Json {
                    value: at,
                    path: Vec::new(),
                };
                let call = RawCall::json(name.to_string(), None, map).at(source);
                self.hit(call, Format::Mistral, Span::new(start, at.end), complete);
                let last = self.out.hits.len() - 1;
                self.may_read_on(last, args, at);
                Some((k + 1, at.end))
            }
            Ok(_) | Err(_) => None,
        }
    }
}
