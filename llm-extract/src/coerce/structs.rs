//! Reading structs: an object's keys matched to fields, tuples and units.

use crate::coerce::keys::{best_field, Rank, StructSpec};
use crate::coerce::{Context, Failed};
use crate::error::{Category, Issue};
use crate::node::{Entry, Node, NodeKind};
use crate::path::Segment;
use crate::report::CoercionKind;
use crate::span::Span;

/// The value of each field of a struct, matched from an object's keys.
#[derive(Debug)]
pub struct Fields<'n, 'a, const COUNT: usize> {
    spec: &'static StructSpec,
    pub(crate) slots: [Option<(&'n Node<'a>, Rank, Span)>; COUNT],
    rest: Vec<&'n Entry<'a>>,
    span: Span,
    /// The value was not an object but the struct's only field (`WrappedInStruct`).
    wrapped: bool,
}

/// Matches `node`'s keys to `spec`'s fields: exact name, then normalized name, then alias.
/// Two keys landing on one field: the better match wins (the later on a tie) and the other
/// is recorded. Unknown keys are recorded, or issues under `deny_unknown_fields`.
///
/// In lenient mode, a one-item array holding an object gives the object, and any other
/// value is taken as the only field of a one-field struct.
pub fn fields<'n, 'a, const COUNT: usize>(
    node: &'n Node<'a>,
    spec: &'static StructSpec,
    skip: Option<usize>,
    cx: &mut Context,
) -> Result<Fields<'n, 'a, COUNT>, Failed> {
    let mut out = Fields {
        spec,
        slots: [None; COUNT],
        rest: Vec::new(),
        span: node.span,
        wrapped: false,
    };
    let entries = match &node.kind {
        NodeKind::Object(entries) => entries,
        NodeKind::Array(items)
            if cx.lenient() && items.len() == 1 && matches!(items[0].kind, NodeKind::Object(_)) =>
        {
            cx.coerce(CoercionKind::ListToSingle, node.span);
            return fields(&items[0], spec, skip, cx);
        }
        _ if cx.lenient()
            && spec.fields.len() == 1
            && COUNT == 1
            && !spec.flatten
            && cx.can_wrap(node) =>
        {
            cx.at_field(spec.fields[0].name, |cx| {
                cx.coerce(CoercionKind::WrappedInStruct, node.span)
            });
            out.slots[0] = Some((node, Rank::Exact, node.span));
            out.wrapped = true;
            return Ok(out);
        }
        _ => return Err(cx.mismatch("an object", node)),
    };
    let mut failed = false;
    let known = &spec.fields[..COUNT.min(spec.fields.len())];
    // Keys usually come in the order the fields are declared: try the next field first.
    let mut next = 0;
    for (i, entry) in entries.iter().enumerate() {
        if skip == Some(i) {
            continue;
        }
        let key: &str = &entry.key.text;
        // `COUNT` is the number of fields the generated code reads; never index past it.
        let found = match known.get(next) {
            Some(f) if f.name == key => Some((next, Rank::Exact)),
            _ => best_field(known, key),
        };
        let Some((field, rank)) = found else {
            out.rest.push(entry);
            if spec.flatten {
                continue;
            }
            cx.at(Segment::Key(key.to_string()), |cx| {
                if spec.deny_unknown {
                    let expected: Vec<String> = spec
                        .fields
                        .iter()
                        .map(|f| format!("`{}`", f.name))
                        .collect();
                    let message = format!(
                        "unknown field `{key}`, expected one of {}",
                        expected.join(", ")
                    );
                    cx.push_issue(
                        Issue::new(Category::Unknown, cx.path(), message).at(entry.key_span),
                    );
                    failed = true;
                } else {
                    cx.coerce(CoercionKind::UnknownKey, entry.key_span);
                }
            });
            continue;
        };
        if let Some((_, previous, previous_span)) = out.slots[field] {
            // The better match wins; on a tie the later key wins, as in JSON.
            let loser = if rank <= previous {
                previous_span
            } else {
                entry.key_span
            };
            cx.at_field(spec.fields[field].name, |cx| {
                cx.coerce(CoercionKind::DuplicateKey, loser)
            });
            if rank > previous {
                continue;
            }
        }
        out.slots[field] = Some((&entry.value, rank, entry.key_span));
        next = field + 1;
    }
    for (field, slot) in out.slots.iter().enumerate() {
        let (kind, span) = match slot {
            Some((_, Rank::Normalized, span)) => (CoercionKind::NormalizedKey, *span),
            Some((_, Rank::Alias | Rank::NormalizedAlias, span)) => (CoercionKind::AliasKey, *span),
            _ => continue,
        };
        cx.at_field(spec.fields[field].name, |cx| cx.coerce(kind, span));
    }
    if failed {
        return Err(Failed);
    }
    Ok(out)
}

/// What to do when a field's key is absent.
pub enum Missing<T> {
    /// An issue (`Category::Missing`), unless the type has a value for absence (`Option`).
    Required(Option<T>),
    /// The field's default (`default`, `default = path`), recorded.
    Default(fn() -> T),
}

impl<'n, 'a, const COUNT: usize> Fields<'n, 'a, COUNT> {
    /// The span of field `i`'s value, or of the whole object when it is absent.
    pub fn span(&self, i: usize) -> Span {
        self.slots
            .get(i)
            .copied()
            .flatten()
            .map_or(Span::at(self.span.start), |(n, _, _)| n.span)
    }

    /// Reads field `i` with `read` at the field's path; `None` when it failed (the issues are
    /// in `cx`). With `catch`, a value that cannot be read (or fails validation) is replaced
    /// by `catch()` and recorded.
    pub fn field<T>(
        &self,
        i: usize,
        cx: &mut Context,
        read: impl FnOnce(&Node<'a>, &mut Context) -> Result<T, Failed>,
        missing: Missing<T>,
        catch: Option<fn() -> T>,
    ) -> Option<T> {
        let name = self.spec.fields.get(i).map_or("", |f| f.name);
        let span = self.span(i);
        cx.at_field(name, |cx| {
            let start = cx.checkpoint();
            let value = match self.slots.get(i).copied().flatten() {
                Some((node, _, _)) => match (&node.kind, &missing) {
                    // `null` for a field with a default: the default, when the type refuses null.
                    (NodeKind::Null, Missing::Default(default)) => match read(node, cx) {
                        Ok(v) if !cx.failed_since(start) => Some(v),
                        _ => {
                            cx.rollback(start);
                            cx.coerce(CoercionKind::DefaultUsed, span);
                            Some(default())
                        }
                    },
                    _ if self.wrapped => cx
                        .wrapping(node, |cx| read(node, cx).ok())
                        .unwrap_or_else(|| {
                            cx.mismatch("an object", node);
                            None
                        }),
                    _ => read(node, cx).ok(),
                },
                None => match missing {
                    Missing::Required(Some(v)) => Some(v),
                    Missing::Default(default) => {
                        cx.coerce(CoercionKind::DefaultUsed, span);
                        Some(default())
                    }
                    Missing::Required(None) => {
                        let issue = Issue::new(
                            Category::Missing,
                            cx.path(),
                            format!("missing field `{name}`"),
                        )
                        .at(span);
                        cx.push_issue(issue);
                        None
                    }
                },
            };
            match catch {
                Some(fallback) if value.is_none() || cx.failed_since(start) => {
                    cx.rollback(start);
                    cx.coerce(CoercionKind::Caught, span);
                    Some(fallback())
                }
                _ => value,
            }
        })
    }

    /// Reads a `flatten` field from the keys no other field matched.
    pub fn flatten<T>(
        &self,
        cx: &mut Context,
        read: impl FnOnce(&Node<'a>, &mut Context) -> Result<T, Failed>,
    ) -> Option<T> {
        let entries: Vec<Entry<'a>> = self.rest.iter().map(|e| (*e).clone()).collect();
        let node = Node::new(NodeKind::Object(entries), self.span);
        read(&node, cx).ok()
    }
}

/// The span of item `i` of an array node (for a rule on each item), or the node's own span.
pub fn item_span(node: &Node<'_>, i: usize) -> Span {
    match &node.kind {
        NodeKind::Array(items) => items.get(i).map_or(node.span, |n| n.span),
        _ => node.span,
    }
}

/// The items of a tuple struct or tuple variant: an array of exactly `len` items.
pub fn tuple<'n, 'a>(
    node: &'n Node<'a>,
    len: usize,
    cx: &mut Context,
) -> Result<&'n [Node<'a>], Failed> {
    match &node.kind {
        NodeKind::Array(items) if items.len() == len => Ok(items),
        NodeKind::Array(items) => {
            let message = format!("expected an array of {len} items, found {}", items.len());
            Err(cx.fail(Category::Type, message, node.span))
        }
        _ => Err(cx.mismatch(&format!("an array of {len} items"), node)),
    }
}

/// Reads item `i` of a tuple at its index path.
pub fn element<'a, T>(
    items: &[Node<'a>],
    i: usize,
    cx: &mut Context,
    read: impl FnOnce(&Node<'a>, &mut Context) -> Result<T, Failed>,
) -> Option<T> {
    cx.at_index(i, |cx| read(&items[i], cx).ok())
}

/// A unit struct: `null`, `{}` or `[]`.
pub fn unit(node: &Node<'_>, cx: &mut Context) -> Result<(), Failed> {
    match &node.kind {
        NodeKind::Null => Ok(()),
        NodeKind::Object(e) if e.is_empty() => Ok(()),
        NodeKind::Array(a) if a.is_empty() => Ok(()),
        _ => Err(cx.mismatch("null", node)),
    }
}
