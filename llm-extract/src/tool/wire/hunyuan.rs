//! Hunyuan's `<tool_calls>` block: a JSON list of `{"name", "arguments"}` calls (A13B), or
//! `<tool_call>name<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>` calls, GLM's
//! syntax, with an optional `<tool_sep>` after the name (V3, V4).

use super::Walker;
use crate::span::Span;
use crate::tool::scan::Tok;
use crate::tool::Format;

impl Walker<'_> {
    /// `<tool_calls>` and what it holds, up to `</tool_calls>`.
    pub(super) fn hunyuan_calls(&mut self, k: usize) -> (usize, usize) {
        let start = self.toks[k].span.start;
        let body = self.body(k);
        let text = self.slice(body).trim();
        if text.starts_with(['[', '{']) {
            let (next, end, closed) = self.close(k, Some(Tok::HunyuanCallsEnd), body.end);
            let whole = Span::new(start, end);
            self.json_calls(body, Format::Hunyuan, whole);
            if !closed {
                self.mark_open(whole);
            }
            return (next, end);
        }
        if !text.is_empty() || self.tok(k + 1) != Some(Tok::ToolCallOpen) {
            return (k + 1, self.toks[k].span.end);
        }
        let (hits, misses) = (self.out.hits.len(), self.out.misses.len());
        let mut j = k + 1;
        let mut end = self.toks[k].span.end;
        while self.tok(j) == Some(Tok::ToolCallOpen)
            && self
                .slice(Span::new(end, self.toks[j].span.start))
                .trim()
                .is_empty()
        {
            (j, end) = self.tool_call_tag(j);
        }
        let closed = self.tok(j) == Some(Tok::HunyuanCallsEnd)
            && self
                .slice(Span::new(end, self.toks[j].span.start))
                .trim()
                .is_empty();
        if closed {
            end = self.toks[j].span.end;
            j += 1;
        }
        // The calls are written in the block: whether it stands in a sentence is a question
        // about the block, which, still open, may yet be closed inside one.
        let frame_end = if closed { end } else { self.text.len() };
        for hit in &mut self.out.hits[hits..] {
            hit.frame = Span::new(start, frame_end.max(hit.frame.end));
            if hit.format == Format::Glm {
                hit.format = Format::Hunyuan;
            }
        }
        for miss in &mut self.out.misses[misses..] {
            if miss.format == Some(Format::Glm) {
                miss.format = Some(Format::Hunyuan);
            }
        }
        (j, end)
    }
}
