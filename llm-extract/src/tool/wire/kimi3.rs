//! Kimi K3's XTML calls: `<|open|>call tool="f" index="0"<|sep|>` holding
//! `<|open|>argument key="k" type="string"<|sep|>v<|close|>argument<|sep|>` pairs, closed by
//! `<|close|>call<|sep|>`, inside a `tools` channel. Attribute values escape `"` and `&` as
//! `&quot;` and `&amp;`; values are written raw.

use super::params::{attr, tag_call, tag_params, TagSyntax, Values};
use super::Walker;
use crate::span::Span;
use crate::tool::scan::Tok;
use crate::tool::shape::Arg;
use crate::tool::Format;
use serde_json::Value;

const ARGUMENT: TagSyntax = TagSyntax {
    open: "<|open|>argument",
    open_end: "<|sep|>",
    close: "<|close|>argument<|sep|>",
};

/// The values as the call's text (a token inside one is no call's).
const VALUES: Values = Values {
    open: ARGUMENT.open,
    close: ARGUMENT.close,
    call_close: Tok::XtmlCallEnd,
};

impl Walker<'_> {
    /// One K3 call. `type="string"` values are strings as written; other types are JSON,
    /// read as text (the type decides, and invalid JSON stays text).
    pub(super) fn xtml_call(&mut self, k: usize) -> (usize, usize) {
        let t = self.toks[k];
        let name = attribute_text(self.slice(t.name));
        let read = self.tag_body(k, t.span.end, &VALUES);
        let (body, next, end, closed) = (read.body, read.next, read.end, read.closed);
        let whole = Span::new(t.span.start, end);
        let (params, complete) = tag_params(self.text, body, &ARGUMENT, read.ends.as_deref());
        let complete = complete && read.holds(params.len());
        let arguments = params
            .into_iter()
            .map(|p| {
                let key = attribute_text(attr(p.attrs, "key").unwrap_or_default());
                let raw = self.slice(p.value).to_string();
                let value = match attr(p.attrs, "type") {
                    Some("string") | None => Arg::Json(Value::String(raw)),
                    Some(_) => Arg::Text(raw),
                };
                (key, value, p.value)
            })
            .collect();
        let call = tag_call(name, arguments);
        self.hit(call, Format::KimiK3, whole, closed && complete);
        (next, end)
    }
}

/// An attribute value as meant: `&quot;` is `"`, then `&amp;` is `&` (the reverse of the
/// order the template escapes them in).
fn attribute_text(text: &str) -> String {
    text.replace("&quot;", "\"").replace("&amp;", "&")
}
