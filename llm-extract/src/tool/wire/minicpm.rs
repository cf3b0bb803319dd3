//! MiniCPM's XML calls: `<function name="f"><param name="k">v</param></function>` (the
//! params may sit in an `<arguments>` element). The values are XML text: entities are decoded,
//! a CDATA section is taken as written, and spaces around a value are layout.

use super::params::{attr, tag_call, tag_params, TagSyntax, Values};
use super::value::xml_unescape;
use super::Walker;
use crate::span::Span;
use crate::tool::scan::Tok;
use crate::tool::shape::Arg;
use crate::tool::Format;

const PARAM: TagSyntax = TagSyntax {
    open: "<param",
    open_end: ">",
    close: "</param>",
};

/// The values as the call's text (a token inside one is no call's).
const VALUES: Values = Values {
    open: PARAM.open,
    close: PARAM.close,
    call_close: Tok::FunctionClose,
};

impl Walker<'_> {
    /// One `<function name="f">` call, closed by `</function>`.
    pub(super) fn minicpm_function(&mut self, k: usize) -> (usize, usize) {
        let t = self.toks[k];
        let name = xml_unescape(self.slice(t.name).trim());
        let read = self.tag_body(k, t.span.end, &VALUES);
        let (body, next, end, closed) = (read.body, read.next, read.end, read.closed);
        let whole = Span::new(t.span.start, end);
        let (params, complete) = tag_params(self.text, body, &PARAM, read.ends.as_deref());
        let complete = complete && read.holds(params.len());
        let arguments = params
            .into_iter()
            .map(|p| {
                let key = xml_unescape(attr(p.attrs, "name").unwrap_or_default());
                let raw = self.slice(p.value);
                let start = p.value.start + (raw.len() - raw.trim_start().len());
                let (value, at) = match cdata(raw) {
                    Some(inner) => (
                        inner.to_string(),
                        Span::new(start + 9, start + 9 + inner.len()),
                    ),
                    None => (
                        xml_unescape(raw.trim()),
                        Span::new(start, start + raw.trim().len()),
                    ),
                };
                (key, Arg::Text(value), at)
            })
            .collect();
        self.hit(
            tag_call(name, arguments),
            Format::MiniCpm,
            whole,
            closed && complete,
        );
        (next, end)
    }
}

/// The content of a value written as one CDATA section.
fn cdata(raw: &str) -> Option<&str> {
    raw.trim()
        .strip_prefix("<![CDATA[")
        .and_then(|r| r.strip_suffix("]]>"))
}
