//! Enum tags: externally and internally tagged variants.

use crate::coerce::keys_match;
use crate::coerce::variants::{variant, EnumSpec};
use crate::coerce::{Context, Failed};
use crate::error::{Category, Issue};
use crate::node::{Node, NodeKind};
use crate::report::CoercionKind;
use crate::span::Span;

/// An externally tagged variant: its index, its content (`None` for a bare name) and the
/// text that named it (kept by a `String` newtype `other` variant).
#[derive(Debug)]
pub struct Tagged<'n, 'a> {
    /// The variant.
    pub index: usize,
    /// `{"Variant": content}`; `None` when the value was just the name.
    pub content: Option<&'n Node<'a>>,
    /// The name as written.
    pub raw: String,
}

/// Reads an externally tagged enum value: `"Name"` or `{"Name": content}`.
pub fn external<'n, 'a>(
    node: &'n Node<'a>,
    spec: &EnumSpec,
    cx: &mut Context,
) -> Result<Tagged<'n, 'a>, Failed> {
    let node = crate::coerce::single(node, cx);
    match &node.kind {
        NodeKind::String(s) => {
            let index = variant(&s.text, node.span, spec, cx)?;
            Ok(Tagged {
                index,
                content: None,
                raw: s.text.to_string(),
            })
        }
        NodeKind::Number(n) if cx.lenient() => {
            let text = crate::coerce::number_to_string(*n);
            let index = variant(&text, node.span, spec, cx)?;
            Ok(Tagged {
                index,
                content: None,
                raw: text,
            })
        }
        NodeKind::Bool(b) if cx.lenient() => {
            let index = variant(&b.to_string(), node.span, spec, cx)?;
            Ok(Tagged {
                index,
                content: None,
                raw: b.to_string(),
            })
        }
        NodeKind::Object(entries) if entries.len() == 1 => {
            let entry = &entries[0];
            let index = variant(&entry.key.text, entry.key_span, spec, cx)?;
            Ok(Tagged {
                index,
                content: Some(&entry.value),
                raw: entry.key.text.to_string(),
            })
        }
        _ => Err(cx.mismatch(
            &format!(
                "a variant of `{}` (a name, or an object with one key)",
                spec.name
            ),
            node,
        )),
    }
}

/// Reads the tag of an internally tagged enum value. `Ok(Some((variant, entry)))` names the
/// variant and the tag's entry (to skip when reading the rest); `Ok(None)` means the tag is
/// absent and, in lenient mode, every variant should be tried.
pub fn internal(
    node: &Node<'_>,
    tag: &'static str,
    spec: &EnumSpec,
    cx: &mut Context,
) -> Result<Option<(usize, usize, String)>, Failed> {
    let NodeKind::Object(entries) = &node.kind else {
        return Err(cx.mismatch(&format!("an object with a `{tag}` key"), node));
    };
    let found = entries
        .iter()
        .position(|e| e.key.text == tag)
        .or_else(|| entries.iter().position(|e| keys_match(&e.key.text, tag)));
    let Some(at) = found else {
        if cx.lenient() {
            cx.coerce(CoercionKind::MissingTag, node.span);
            return Ok(None);
        }
        let issue =
            Issue::new(Category::Missing, cx.path(), format!("missing tag `{tag}`")).at(node.span);
        cx.push_issue(issue);
        return Err(Failed);
    };
    let entry = &entries[at];
    let (index, raw) = cx.at_field(tag, |cx| match &entry.value.kind {
        NodeKind::String(s) => {
            variant(&s.text, entry.value.span, spec, cx).map(|i| (i, s.text.to_string()))
        }
        _ => Err(cx.mismatch("a variant name", &entry.value)),
    })?;
    Ok(Some((index, at, raw)))
}

/// `node` without the entry at `skip` (the tag of an internally tagged newtype variant).
pub fn without<'a>(node: &Node<'a>, skip: Option<usize>) -> Node<'a> {
    match (&node.kind, skip) {
        (NodeKind::Object(entries), Some(skip)) => {
            let rest = entries
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != skip)
                .map(|(_, e)| e.clone())
                .collect();
            Node::new(NodeKind::Object(rest), node.span)
        }
        _ => node.clone(),
    }
}

/// An empty object where a variant's content was expected but only its name was given.
pub fn empty(span: Span) -> Node<'static> {
    Node::new(NodeKind::Object(Vec::new()), span)
}

/// `null` where a variant's content was expected but only its name was given.
pub fn null(span: Span) -> Node<'static> {
    Node::new(NodeKind::Null, span)
}
