//! Enum tags: externally, internally and adjacently tagged variants.

use std::borrow::Cow;

use crate::coerce::variants::{match_variant, variant, EnumSpec, VariantMatch};
use crate::coerce::{as_container, keys_match};
use crate::coerce::{Context, Failed};
use crate::error::{Category, Issue};
use crate::node::{Node, NodeKind};
use crate::path::Segment;
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
        // `["TWO", "THREE"]` for one variant: the one item that names a variant (the others
        // name none), as a one-item list gives its item.
        NodeKind::Array(items) if cx.lenient() => {
            let names = |item: &Node<'_>| match &item.kind {
                NodeKind::String(s) => !matches!(
                    match_variant(&s.text, spec.variants),
                    VariantMatch::NoMatch | VariantMatch::Ambiguous(_)
                ),
                _ => false,
            };
            let mut naming = items.iter().filter(|item| names(item));
            match (naming.next(), naming.next()) {
                (Some(item), None) => {
                    cx.coerce(CoercionKind::ListToSingle, node.span);
                    external(item, spec, cx)
                }
                _ => Err(cx.mismatch(
                    &format!(
                        "a variant of `{}` (the list names none, or several)",
                        spec.name
                    ),
                    node,
                )),
            }
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

/// An adjacently tagged value, as [`adjacent`] read it.
#[derive(Debug)]
pub enum Adjacent<'n, 'a> {
    /// The tag named a variant.
    Tagged {
        /// The variant.
        index: usize,
        /// Its content: the content key's value, the entries written beside the tag (in
        /// lenient mode, when the content key is absent), or `None` (only the tag).
        content: Option<Cow<'n, Node<'a>>>,
        /// The tag's text, kept by a `String` newtype `other` variant.
        raw: String,
    },
    /// No tag (lenient mode): every variant should be tried on `content`.
    Untagged {
        /// The content key's value if there is one, else the whole object.
        content: &'n Node<'a>,
        /// Whether `content` is the content key's value (its path is under that key).
        in_content: bool,
    },
}

/// The entry whose key is `name`: written exactly, else after normalization.
fn entry_named(entries: &[crate::node::Entry<'_>], name: &str) -> Option<usize> {
    entries
        .iter()
        .position(|e| e.key.text == name)
        .or_else(|| entries.iter().position(|e| keys_match(&e.key.text, name)))
}

/// Reads an adjacently tagged enum value, `{"<tag>": "Name", "<content>": ..}`, the shape of
/// a tool call (`#[extract(tag = "name", content = "arguments")]`).
///
/// The tag is matched like any variant name (exact, normalized, alias, `other`); the tag and
/// content keys like any keys. A missing or `null` content gives `None` (a unit variant needs
/// none). In lenient mode, entries written beside the tag when there is no content key are
/// taken as the content ([`CoercionKind::InlineContent`]), and a missing tag means every
/// variant is tried ([`CoercionKind::MissingTag`]). Other keys are ignored and recorded, or
/// issues under `deny_unknown_fields`.
pub fn adjacent<'n, 'a>(
    node: &'n Node<'a>,
    tag: &'static str,
    content: &'static str,
    spec: &EnumSpec,
    deny_unknown: bool,
    cx: &mut Context,
) -> Result<Adjacent<'n, 'a>, Failed> {
    let node = crate::coerce::single(node, cx);
    let NodeKind::Object(entries) = &node.kind else {
        return Err(cx.mismatch(
            &format!("an object with `{tag}` and `{content}` keys"),
            node,
        ));
    };
    let tag_at = entry_named(entries, tag);
    let content_at = entry_named(entries, content).filter(|&i| Some(i) != tag_at);
    // The tag and content keys are keys like any other: matched after normalization, recorded.
    for (at, name) in [(tag_at, tag), (content_at, content)] {
        if let Some(e) = at.map(|i| &entries[i]).filter(|e| e.key.text != name) {
            cx.at_field(name, |cx| {
                cx.coerce(CoercionKind::NormalizedKey, e.key_span)
            });
        }
    }
    let Some(tag_at) = tag_at else {
        return without_tag(node, entries, content_at, tag, cx);
    };
    let entry = &entries[tag_at];
    let (index, raw) = cx.at_field(tag, |cx| match &entry.value.kind {
        NodeKind::String(s) => {
            variant(&s.text, entry.value.span, spec, cx).map(|i| (i, s.text.to_string()))
        }
        _ => Err(cx.mismatch("a variant name", &entry.value)),
    })?;
    let content = content_of(node, (tag_at, content_at), (tag, content), deny_unknown, cx)?;
    Ok(Adjacent::Tagged {
        index,
        content,
        raw,
    })
}

/// An adjacently tagged value without its tag: in lenient mode every variant is to be tried
/// on the content (or the whole object), else an issue.
fn without_tag<'n, 'a>(
    node: &'n Node<'a>,
    entries: &'n [crate::node::Entry<'a>],
    content_at: Option<usize>,
    tag: &str,
    cx: &mut Context,
) -> Result<Adjacent<'n, 'a>, Failed> {
    if !cx.lenient() {
        let issue =
            Issue::new(Category::Missing, cx.path(), format!("missing tag `{tag}`")).at(node.span);
        cx.push_issue(issue);
        return Err(Failed);
    }
    cx.coerce(CoercionKind::MissingTag, node.span);
    Ok(match content_at {
        Some(i) => Adjacent::Untagged {
            content: &entries[i].value,
            in_content: true,
        },
        None => Adjacent::Untagged {
            content: node,
            in_content: false,
        },
    })
}

/// The content of an adjacently tagged value: the content key's value (a string holding JSON
/// decoded, `null` as none), or in lenient mode the entries beside the tag; other keys are
/// recorded, or issues under `deny_unknown_fields`.
fn content_of<'n, 'a>(
    node: &'n Node<'a>,
    (tag_at, content_at): (usize, Option<usize>),
    (tag, content): (&str, &str),
    deny_unknown: bool,
    cx: &mut Context,
) -> Result<Option<Cow<'n, Node<'a>>>, Failed> {
    let NodeKind::Object(entries) = &node.kind else {
        return Ok(None);
    };
    let mut others = entries
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != tag_at && Some(*i) != content_at)
        .map(|(_, e)| e)
        .peekable();
    if content_at.is_none() && cx.lenient() && !deny_unknown && others.peek().is_some() {
        cx.coerce(CoercionKind::InlineContent, node.span);
        return Ok(Some(Cow::Owned(without(node, Some(tag_at)))));
    }
    let ignored: Vec<_> = others.collect();
    unknown_keys(&ignored, (tag, content), deny_unknown, cx)?;
    Ok(match content_at.map(|i| &entries[i].value) {
        Some(value) if !matches!(value.kind, NodeKind::Null) => Some(as_container(value, cx)),
        _ => None,
    })
}

/// Keys beside an adjacent tag and content: recorded, or issues under `deny_unknown_fields`.
fn unknown_keys(
    entries: &[&crate::node::Entry<'_>],
    (tag, content): (&str, &str),
    deny_unknown: bool,
    cx: &mut Context,
) -> Result<(), Failed> {
    let mut failed = false;
    for e in entries {
        cx.at(Segment::Key(e.key.text.to_string()), |cx| {
            if deny_unknown {
                let message = format!(
                    "unknown field `{}`, expected `{tag}` and `{content}`",
                    e.key.text
                );
                let issue = Issue::new(Category::Unknown, cx.path(), message).at(e.key_span);
                cx.push_issue(issue);
                failed = true;
            } else {
                cx.coerce(CoercionKind::UnknownKey, e.key_span);
            }
        });
    }
    if failed {
        Err(Failed)
    } else {
        Ok(())
    }
}
