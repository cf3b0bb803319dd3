//! Strings that hold a JSON document, decoded where the type wants a container.
//!
//! Models (and APIs: OpenAI's tool `arguments`) write an object as a string holding its JSON,
//! `"{\"city\": \"Paris\"}"`. Where the target is a container (a struct, map, list, tuple or
//! tagged enum) that string is decoded before any reading that would take the string itself
//! (as the only field of a struct, or the only item of a list). A type that takes strings
//! (`String`, `serde_json::Value`) keeps the string as written.

use std::borrow::Cow;

use crate::coerce::{Context, Node};
use crate::node::{NodeKind, Quoting};
use crate::report::{CoercionKind, RepairKind};
use crate::span::Span;

/// `node`, or, in lenient mode, the document it holds when it is a string whose whole text is
/// one JSON object or array ([`CoercionKind::DecodedString`]).
///
/// The document may need minor repairs (single quotes, a trailing comma, `True`: repairs
/// that cost 1, each recorded as [`CoercionKind::RepairInString`]); a string that reads as a
/// document only with more than that (`"[citation needed]"`, unquoted words), or that is cut
/// off, or has text after the document, stays a string. The decoded nodes point where they
/// are written inside the string when it was written with JSON's usual escapes (`\"`, `\\`,
/// `\n`: an issue in an OpenAI-style `arguments` string gives the line and column of the bad
/// member); otherwise (other escapes, other quotes) they point at the whole string.
///
/// ```
/// use llm_extract::coerce::{as_container, Context, Node, NodeKind};
/// let node = Node::from_value(&serde_json::json!("{\"city\": \"Paris\"}"));
/// let mut cx = Context::new();
/// assert!(matches!(as_container(&node, &mut cx).kind, NodeKind::Object(_)));
/// let prose = Node::from_value(&serde_json::json!("[citation needed]"));
/// assert!(matches!(as_container(&prose, &mut cx).kind, NodeKind::String(_)));
/// ```
pub fn as_container<'n, 'a>(node: &'n Node<'a>, cx: &mut Context) -> Cow<'n, Node<'a>> {
    match decoded(node, cx) {
        Some(document) => Cow::Owned(document),
        None => Cow::Borrowed(node),
    }
}

fn decoded(node: &Node<'_>, cx: &mut Context) -> Option<Node<'static>> {
    let NodeKind::String(s) = &node.kind else {
        return None;
    };
    let text = s.text.trim_start();
    let lead = s.text.len() - text.len();
    let text = text.trim_end();
    if !cx.lenient() || !(text.starts_with('{') || text.starts_with('[')) {
        return None;
    }
    let parsed = crate::parse::parse(text, cx.max_depth()).ok()?;
    // The whole string must be that one value, complete, not a value followed by prose.
    if !text[parsed.end..].trim().is_empty() || !parsed.node.is_complete_deep() {
        return None;
    }
    if !parsed.repairs.iter().all(|r| minor(r.kind)) {
        return None;
    }
    let repairs: Vec<RepairKind> = parsed.repairs.iter().map(|r| r.kind).collect();
    let mut document = parsed.node.into_owned();
    match source_offsets(&s.text, node.span, s.quoting) {
        Some(at) => {
            document.map_spans(|span| Span::new(at[lead + span.start], at[lead + span.end]))
        }
        None => document.point_at(node.span),
    }
    cx.coerce(CoercionKind::DecodedString, node.span);
    for kind in repairs {
        cx.coerce(CoercionKind::RepairInString(kind), node.span);
    }
    Some(document)
}

/// Where each byte offset of a string's decoded `text` is in the reply, when the string at
/// `span` was written in double quotes with JSON's usual escapes (`\"`, `\\`, `\n`, `\t`,
/// `\r`, `\b`, `\f`, `\u00XX` for other control characters): then its length in the reply
/// is exactly that of `text` written so. `None` for any other writing (`\/`, `\u00e9`, a raw
/// newline, other quotes).
fn source_offsets(text: &str, span: Span, quoting: Quoting) -> Option<Vec<usize>> {
    if quoting != Quoting::Double {
        return None;
    }
    let mut at = span.start + 1;
    let mut offsets = Vec::with_capacity(text.len() + 1);
    for c in text.chars() {
        let written = match c {
            '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
            c if u32::from(c) < 0x20 => 6,
            c => c.len_utf8(),
        };
        offsets.extend(std::iter::repeat_n(at, c.len_utf8()));
        at += written;
    }
    offsets.push(at);
    (at + 1 == span.end).then_some(offsets)
}

/// A repair that leaves no doubt the string was meant as a document: one of the cheapest
/// (quotes, commas, comments, literals), never a truncation.
fn minor(kind: RepairKind) -> bool {
    kind.cost() <= 1 && !kind.is_truncation()
}
