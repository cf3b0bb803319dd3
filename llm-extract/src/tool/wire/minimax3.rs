//! MiniMax M3: every tag carries the namespace marker `]<]minimax[>[`. A call is
//! `NS<invoke name="f">` holding one element per argument, `NS<city>Paris NS</city>`, closed by
//! `NS</invoke>`, inside `NS<tool_call>`...`NS</tool_call>`. An argument that is an object
//! holds one element per member; a list holds `NS<item>` elements; a name written twice makes
//! a list of its values.

use super::value::text_value;
use super::Walker;
use crate::span::Span;
use crate::tool::scan::Tok;
use crate::tool::shape::{Arg, RawCall, Source};
use crate::tool::Format;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// The namespace marker before every M3 tag.
const NS: &str = "]<]minimax[>[";

/// An element's content.
enum Content {
    Text(String),
    Children(Vec<(String, Content, Span)>),
}

impl Content {
    fn into_value(self) -> Value {
        match self {
            Content::Text(t) => text_value(&t),
            Content::Children(children) => children_value(children),
        }
    }
}

/// Children as a value: all named `item`, a list; else an object, a name written twice
/// gathering its values in a list.
fn children_value(children: Vec<(String, Content, Span)>) -> Value {
    if !children.is_empty() && children.iter().all(|(name, _, _)| name == "item") {
        return Value::Array(
            children
                .into_iter()
                .map(|(_, c, _)| c.into_value())
                .collect(),
        );
    }
    let map: Map<String, Value> = grouped(children)
        .into_iter()
        .map(|(name, mut values, _)| {
            let value = if values.len() == 1 {
                values.pop().map_or(Value::Null, Content::into_value)
            } else {
                Value::Array(values.into_iter().map(Content::into_value).collect())
            };
            (name, value)
        })
        .collect();
    Value::Object(map)
}

/// Elements by name, in the order each name first appears, with every value written under
/// it and the span of the first.
fn grouped(children: Vec<(String, Content, Span)>) -> Vec<(String, Vec<Content>, Span)> {
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut out: Vec<(String, Vec<Content>, Span)> = Vec::new();
    for (name, content, span) in children {
        match index.get(&name) {
            Some(&i) => out[i].1.push(content),
            None => {
                index.insert(name.clone(), out.len());
                out.push((name, vec![content], span));
            }
        }
    }
    out
}

impl Walker<'_> {
    /// One `NS<invoke name="f">` call.
    pub(super) fn m3_invoke(&mut self, k: usize) -> (usize, usize) {
        let t = self.toks[k];
        let name = self.slice(t.name).trim().to_string();
        let body = self.elements_hold_tokens(k);
        // The token after the body: its closer, or what cuts it short.
        let after = self.toks.partition_point(|t| t.span.start < body.end);
        let (next, end, closed) = match self.tok(after) {
            Some(Tok::M3InvokeEnd) => (after + 1, self.toks[after].span.end, true),
            _ => (after, body.end, false),
        };
        let whole = Span::new(t.span.start, end);
        let mut reader = Elements {
            text: self.text,
            pos: body.start,
            end: body.end,
            cut: false,
            max_depth: self.max_depth,
        };
        match reader.children(0, None) {
            Ok(children) => {
                let members = grouped(children);
                let spans = members.iter().map(|(k, _, s)| (k.clone(), *s)).collect();
                let arguments = members
                    .into_iter()
                    .map(|(k, mut values, _)| {
                        let arg = match values.pop() {
                            Some(Content::Text(t)) if values.is_empty() => Arg::Text(t),
                            Some(last) => {
                                values.push(last);
                                let mut all: Vec<Value> =
                                    values.into_iter().map(Content::into_value).collect();
                                match all.len() {
                                    1 => Arg::Json(all.pop().unwrap_or_default()),
                                    _ => Arg::Json(Value::Array(all)),
                                }
                            }
                            None => Arg::Json(Value::Null),
                        };
                        (k, arg)
                    })
                    .collect();
                let call = RawCall {
                    name,
                    id: None,
                    arguments,
                    source: Source::Each(spans),
                    ..RawCall::default()
                };
                self.hit(call, Format::MiniMaxM3, whole, closed && !reader.cut);
            }
            Err(why) => {
                let why = format!("the arguments of `{name}`: {why}");
                self.miss(whole, Format::MiniMaxM3, why, false);
            }
        }
        (next, end)
    }
}

impl Walker<'_> {
    /// The body of the call whose opener is token `k`: up to the next token written outside
    /// its elements. An element is the call's text up to its closer, whatever tokens it
    /// holds, so a call written inside one, in any format, is an argument, not a call; an
    /// element never closed runs to the end of the text.
    ///
    /// Each search reads on from the last, and the call takes every byte read, so the text
    /// is read a bounded number of times whatever the calls.
    fn elements_hold_tokens(&self, k: usize) -> Span {
        let start = self.toks[k].span.end;
        let mut pos = start;
        // How many elements are open: in one, a token is text.
        let mut open = 0usize;
        loop {
            let limit = match open {
                0 => self.next_token_from(pos),
                _ => self.text.len(),
            };
            let Some(at) = self.text[pos..limit].find(NS) else {
                return Span::new(start, limit);
            };
            pos += at + NS.len();
            // Outside the elements, a tag ends before the next token: none holds one.
            let tag = &self.text.as_bytes()[pos..limit];
            let Some(len) = tag.iter().take(128).position(|&b| b == b'>') else {
                continue;
            };
            match tag.get(1) {
                _ if tag[0] != b'<' => {}
                Some(b'/') => open = open.saturating_sub(1),
                _ => open += 1,
            }
            pos += len + 1;
        }
    }
}

/// The reader of M3 elements between `pos` and `end` of `text`.
struct Elements<'a> {
    text: &'a str,
    pos: usize,
    end: usize,
    /// The text ended inside an element.
    cut: bool,
    /// Nesting deeper than this in an argument is refused (`Extractor::max_depth`).
    max_depth: usize,
}

impl<'a> Elements<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.pos..self.end]
    }

    fn skip_space(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// Elements up to the closer of `parent` (consumed), or to the end of the body.
    fn children(
        &mut self,
        depth: usize,
        parent: Option<&str>,
    ) -> Result<Vec<(String, Content, Span)>, String> {
        if depth > self.max_depth {
            return Err(format!("nested deeper than {} levels", self.max_depth));
        }
        let mut out = Vec::new();
        loop {
            self.skip_space();
            let rest = self.rest();
            if rest.is_empty() {
                self.cut |= parent.is_some();
                return Ok(out);
            }
            let Some(tag) = rest.strip_prefix(NS).and_then(|r| r.strip_prefix('<')) else {
                let found: String = rest.chars().take(20).collect();
                return Err(format!("expected an argument element, found {found:?}"));
            };
            if let Some(closing) = tag.strip_prefix('/') {
                let name = self.tag_name(closing)?;
                if parent != Some(name) {
                    return Err(format!("`</{name}>` closes no open element"));
                }
                self.pos += NS.len() + 2 + name.len() + 1;
                return Ok(out);
            }
            let Ok(name) = self.tag_name(tag) else {
                self.cut = true;
                return Ok(out);
            };
            self.pos += NS.len() + 1 + name.len() + 1;
            let value_start = self.pos;
            let content = self.content(depth, name)?;
            out.push((name.to_string(), content, Span::new(value_start, self.pos)));
            if self.cut {
                return Ok(out);
            }
        }
    }

    /// The name of a tag whose text (after `<` or `</`) is `tag`, up to its `>`.
    fn tag_name(&self, tag: &'a str) -> Result<&'a str, String> {
        let window = &tag[..tag.floor_char_boundary(128)];
        let len = window.find('>').ok_or("a tag without its `>`")?;
        let name = &tag[..len];
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(format!("`<{name}>` is not an argument element"));
        }
        Ok(name)
    }

    /// An element's content after its opener: text up to the next marker, or children.
    fn content(&mut self, depth: usize, name: &str) -> Result<Content, String> {
        let rest = self.rest();
        if let Some(read) = own_call_inside(rest, name) {
            return match read {
                OwnCall::Closed(at) => {
                    self.pos += at + NS.len() + 2 + name.len() + 1;
                    Ok(Content::Text(rest[..at].to_string()))
                }
                OwnCall::Cut => {
                    self.cut = true;
                    self.pos = self.end;
                    Ok(Content::Text(rest.to_string()))
                }
                OwnCall::Unclosed => Err(format!(
                    "the value of `{name}` is not closed by `</{name}>`"
                )),
            };
        }
        let lead = rest.len() - rest.trim_start().len();
        let after = &rest[lead..];
        if after.starts_with(NS) && !after[NS.len()..].starts_with("</") {
            // One level of the stack per level of nesting, grown where it runs low.
            return crate::deep::grow(|| self.children(depth + 1, Some(name)))
                .map(Content::Children);
        }
        let Some(at) = rest.find(NS) else {
            self.cut = true;
            self.pos = self.end;
            return Ok(Content::Text(rest.to_string()));
        };
        let text = rest[..at].to_string();
        self.pos += at;
        let closer = self
            .rest()
            .strip_prefix(NS)
            .and_then(|r| r.strip_prefix("</"));
        match closer.map(|c| self.tag_name(c)) {
            Some(Ok(closing)) if closing == name => {
                self.pos += NS.len() + 2 + name.len() + 1;
                Ok(Content::Text(text))
            }
            Some(Err(_)) if self.rest().len() < NS.len() + 130 => {
                self.cut = true;
                self.pos = self.end;
                Ok(Content::Text(text))
            }
            _ => Err(format!(
                "the value of `{name}` is not closed by `</{name}>`"
            )),
        }
    }
}

/// How an element's content that holds an M3 call reads.
enum OwnCall {
    /// Its text runs to the element's closer, at this offset.
    Closed(usize),
    /// The text ends before the element's closer.
    Cut,
    /// A closer of another element comes first.
    Unclosed,
}

/// Whether the content `rest` of element `name` holds, at its first marker, an M3 call
/// (`NS<tool_call>` or `NS<invoke name="...">`) and how it reads: the call is the content's
/// text, closers and all, up to the element's own closer with every tag between balanced, as
/// the other formats read a call of their own format written whole in a value. Read once:
/// the element takes every byte read.
fn own_call_inside(rest: &str, name: &str) -> Option<OwnCall> {
    let first = rest.find(NS)?;
    let opener = &rest[first + NS.len()..];
    if !(opener.starts_with("<tool_call>") || opener.starts_with("<invoke ")) {
        return None;
    }
    let mut open = 0usize;
    let mut pos = first;
    loop {
        let Some(found) = rest[pos..].find(NS) else {
            return Some(OwnCall::Cut);
        };
        let at = pos + found;
        let tag = &rest[at + NS.len()..];
        if let Some(closing) = tag.strip_prefix("</") {
            if open == 0 {
                let Some(len) = closing.bytes().take(128).position(|b| b == b'>') else {
                    return Some(OwnCall::Cut);
                };
                return Some(match &closing[..len] == name {
                    true => OwnCall::Closed(at),
                    false => OwnCall::Unclosed,
                });
            }
            open -= 1;
        } else if tag.starts_with('<') {
            open += 1;
        }
        pos = at + NS.len();
    }
}
