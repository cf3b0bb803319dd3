//! Inkling's TML messages: `<|message_model|>name<|content_invoke_tool_json|>{"name": "f",
//! "args": {...}}<|end_message|>` is a call; `<|message_model|><|content_text|>...` is answer
//! text.

use super::Walker;
use crate::span::Span;
use crate::tool::scan::Tok;
use crate::tool::Format;

impl Walker<'_> {
    /// `<|message_model|>`: a call when its header leads to `<|content_invoke_tool_json|>`,
    /// else the frame of a text message.
    pub(super) fn inkling_message(&mut self, k: usize) -> (usize, usize) {
        if self.tok(k + 1) == Some(Tok::InklingToolJson) {
            let start = self.toks[k].span.start;
            let (next, end) = self.inkling_call(k + 1);
            for hit in self.out.hits.iter_mut().rev() {
                if hit.span.start != self.toks[k + 1].span.start {
                    break;
                }
                hit.span.start = start;
            }
            return (next, end);
        }
        (k + 1, self.toks[k].span.end)
    }

    /// `<|content_invoke_tool_json|>` and the JSON call after it, closed by `<|end_message|>`.
    pub(super) fn inkling_call(&mut self, k: usize) -> (usize, usize) {
        let body = self.body(k);
        let (next, end, closed) = self.close(k, Some(Tok::InklingEnd), body.end);
        let whole = Span::new(self.toks[k].span.start, end);
        self.json_calls(body, Format::Inkling, whole);
        if !closed {
            self.mark_open(whole);
        }
        (next, end)
    }
}
