//! Apertus: `<|tools_prefix|>[{"name": {"arg": "value"}}, ...]<|tools_suffix|>`, a JSON list
//! of one-member objects, each the tool's name and its arguments.

use super::{json_at, Walker};
use crate::path::Segment;
use crate::span::Span;
use crate::tool::scan::Tok;
use crate::tool::shape::{self, RawCall, Source};
use crate::tool::Format;
use serde_json::Value;

impl Walker<'_> {
    /// `<|tools_prefix|>` and the list after it. Text after the list and before the suffix
    /// is answer text, as the engines return it.
    pub(super) fn apertus_calls(&mut self, k: usize) -> (usize, usize) {
        let start = self.toks[k].span.start;
        let body = self.body(k);
        let (next, end, closed) = self.close(k, Some(Tok::ApertusCallsEnd), body.end);
        let whole = Span::new(start, end);
        let (value, complete, at) = match json_at(self.text, body, self.max_depth) {
            Ok(read) => read,
            Err(why) => {
                self.miss(
                    whole,
                    Format::Apertus,
                    why,
                    self.tok(k + 1).is_none() && self.slice(body).trim().is_empty(),
                );
                return (next, end);
            }
        };
        let items = match value {
            Value::Array(items) => items
                .into_iter()
                .enumerate()
                .map(|(i, v)| (Some(i), v))
                .collect(),
            other => vec![(None, other)],
        };
        // Without its suffix, the list is whole when text follows it.
        let ended = closed || !self.slice(Span::new(at.end, body.end)).trim().is_empty();
        for (i, item) in items {
            let path: Vec<Segment> = i.map(Segment::Index).into_iter().collect();
            self.apertus_call(item, path, at, whole, complete && ended);
        }
        let end = if closed && self.slice(Span::new(at.end, body.end)).trim().is_empty() {
            end
        } else {
            at.end
        };
        (if end == at.end { k + 1 } else { next }, end)
    }

    /// One `{"name": {arguments}}` item of the list.
    fn apertus_call(
        &mut self,
        item: Value,
        mut path: Vec<Segment>,
        at: Span,
        whole: Span,
        complete: bool,
    ) {
        let Value::Object(map) = item else {
            let why = format!(
                "a {} in the call list, not {{\"name\": {{arguments}}}}",
                shape::json_type(&item)
            );
            self.miss(whole, Format::Apertus, why, !complete);
            return;
        };
        if map.len() != 1 {
            let why = format!(
                "an object of {} members in the call list, not {{\"name\": {{arguments}}}}",
                map.len()
            );
            self.miss(whole, Format::Apertus, why, !complete);
            return;
        }
        let Some((name, args)) = map.into_iter().next() else {
            return;
        };
        match args {
            Value::Object(args) => {
                path.push(Segment::Key(name.clone()));
                let call = RawCall::json(name, None, args).at(Source::Json { value: at, path });
                self.hit(call, Format::Apertus, whole, complete);
            }
            other => {
                let why = format!(
                    "the arguments of `{name}` are a {}, not an object",
                    shape::json_type(&other)
                );
                self.miss(whole, Format::Apertus, why, !complete);
            }
        }
    }
}
