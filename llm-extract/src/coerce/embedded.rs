//! Strings that hold a JSON document, decoded where the type wants a container.
//!
//! Models (and APIs: OpenAI's tool `arguments`) write an object as a string holding its JSON,
//! `"{\"city\": \"Paris\"}"`. Where the target is a container (a struct, map, list, tuple or
//! tagged enum) that string is decoded before any reading that would take the string itself
//! (as the only field of a struct, or the only item of a list). A type that takes strings
//! (`String`, `serde_json::Value`) keeps the string as written.

use std::borrow::Cow;

use crate::coerce::{Context, Node};
use crate::node::NodeKind;
use crate::report::{CoercionKind, RepairKind};

/// `node`, or, in lenient mode, the document it holds when it is a string whose whole text is
/// one JSON object or array ([`CoercionKind::DecodedString`]).
///
/// The document may need minor repairs (single quotes, a trailing comma, `True`: repairs
/// that cost 1, each recorded as [`CoercionKind::RepairInString`]); a string that reads as a
/// document only with more than that (`"[citation needed]"`, unquoted words), or that is cut
/// off, or has text after the document, stays a string. The decoded nodes point at the
/// string: positions inside it are not positions in the reply.
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
    let text = s.text.trim();
    if !cx.lenient() || !(text.starts_with('{') || text.starts_with('[')) {
        return None;
    }
    let parsed = crate::parse::parse(text, crate::settings::DEFAULT_MAX_DEPTH).ok()?;
    // The whole string must be that one value, complete, not a value followed by prose.
    if !text[parsed.end..].trim().is_empty() || !parsed.node.is_complete_deep() {
        return None;
    }
    if !parsed.repairs.iter().all(|r| minor(r.kind)) {
        return None;
    }
    let repairs: Vec<RepairKind> = parsed.repairs.iter().map(|r| r.kind).collect();
    let mut document = parsed.node.into_owned();
    document.point_at(node.span);
    cx.coerce(CoercionKind::DecodedString, node.span);
    for kind in repairs {
        cx.coerce(CoercionKind::RepairInString(kind), node.span);
    }
    Some(document)
}

/// A repair that leaves no doubt the string was meant as a document: one of the cheapest
/// (quotes, commas, comments, literals), never a truncation.
fn minor(kind: RepairKind) -> bool {
    kind.cost() <= 1 && !kind.is_truncation()
}
