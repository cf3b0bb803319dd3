//! Step-3's calls: `<｜tool_call_begin｜>function<｜tool_sep｜>` then
//! `<steptml:invoke name="f"><steptml:parameter name="k">v</steptml:parameter></steptml:invoke>`,
//! inside `<｜tool_calls_begin｜>`...`<｜tool_calls_end｜>`. (Step-3.5 writes Qwen3-Coder's
//! `<tool_call><function=f>` calls.)

use super::params::{attr, tag_call, tag_params, TagSyntax, Values};
use super::Walker;
use crate::span::Span;
use crate::tool::scan::Tok;
use crate::tool::shape::Arg;
use crate::tool::Format;

const PARAMETER: TagSyntax = TagSyntax {
    open: "<steptml:parameter",
    open_end: ">",
    close: "</steptml:parameter>",
};

/// The values as the call's text (a token inside one is no call's).
const VALUES: Values = Values {
    open: PARAMETER.open,
    close: PARAMETER.close,
    call_close: Tok::StepInvokeEnd,
};

impl Walker<'_> {
    /// `<｜tool_call_begin｜>function<｜tool_sep｜>`: the call's type, before its invoke, which
    /// is read in the same step: the call begins with these tokens (a rule that reads the
    /// line a call starts, such as a quoted line's, reads theirs).
    pub(super) fn step_call_begin(&mut self, k: usize) -> (usize, usize) {
        if self.tok(k + 1) != Some(Tok::StepSep) {
            return (k + 1, self.toks[k].span.end);
        }
        let between = Span::new(self.toks[k + 1].span.end, self.body(k + 1).end);
        if self.tok(k + 2) != Some(Tok::StepInvoke) || !self.slice(between).trim().is_empty() {
            return (k + 2, self.toks[k + 1].span.end);
        }
        let from = self.out.hits.len();
        let read = self.step_invoke(k + 2);
        let start = self.toks[k].span.start;
        for hit in &mut self.out.hits[from..] {
            hit.span.start = start;
            hit.frame.start = hit.frame.start.min(start);
        }
        read
    }

    /// One `<steptml:invoke>`; values are text whose type the target decides.
    pub(super) fn step_invoke(&mut self, k: usize) -> (usize, usize) {
        let t = self.toks[k];
        let name = self.slice(t.name).trim().to_string();
        let read = self.tag_body(k, t.span.end, &VALUES);
        let (body, next, end, closed) = (read.body, read.next, read.end, read.closed);
        let whole = Span::new(t.span.start, end);
        let (params, complete) = tag_params(self.text, body, &PARAMETER, read.ends.as_deref());
        let complete = complete && read.holds(params.len());
        let arguments = params
            .into_iter()
            .map(|p| {
                let key = attr(p.attrs, "name").unwrap_or_default().to_string();
                let value = Arg::Text(self.slice(p.value).to_string());
                (key, value, p.value)
            })
            .collect();
        self.hit(
            tag_call(name, arguments),
            Format::Step3,
            whole,
            closed && complete,
        );
        (next, end)
    }
}
