//! The runtime half of `#[derive(Extract)]`: key matching, field reading, enum tags and
//! untagged choice, as ordinary functions the generated code calls.
//!
//! Not a public API: reached only through `llm_extract::__private` by generated code.

use crate::coerce::{keys_match, match_variant, VariantMatch, VariantNames};
use crate::error::{Category, Issue};
use crate::extract::{Context, Failed};
use crate::node::{Entry, Node, NodeKind};
use crate::report::{Coercion, CoercionKind};
use crate::span::Span;

pub use crate::coerce::MapKey;
pub use crate::coerce::VariantNames as Variant;
pub use crate::extract::{Context as Cx, Extract, Failed as Fail, Mode};
pub use crate::node::Node as N;
pub use crate::path::Segment;
pub use crate::validate;
pub use crate::validate::Allowed;
pub use regex::Regex;
pub use std::sync::LazyLock;

/// Costs of the structural coercions.
mod cost {
    pub const KEY: u32 = 1;
    pub const DUPLICATE_KEY: u32 = 2;
    pub const UNKNOWN_KEY: u32 = 1;
    pub const DEFAULT: u32 = 1;
    pub const WRAPPED: u32 = 3;
    pub const LIST_TO_SINGLE: u32 = 2;
    pub const CAUGHT: u32 = 5;
    pub const VARIANT_NORMALIZED: u32 = 1;
    pub const VARIANT_ALIAS: u32 = 1;
    pub const VARIANT_IN_TEXT: u32 = 4;
    pub const OTHER: u32 = 3;
    pub const MISSING_TAG: u32 = 3;
}

/// The names one field answers to.
#[derive(Debug)]
pub struct FieldSpec {
    /// Canonical name (after `rename` / `rename_all`).
    pub name: &'static str,
    /// `alias = ".."` names.
    pub aliases: &'static [&'static str],
}

/// What key matching needs to know about a struct (or a struct variant).
#[derive(Debug)]
pub struct StructSpec {
    /// The fields that are read from keys (not `skip`, not `flatten`), in order.
    pub fields: &'static [FieldSpec],
    /// `deny_unknown_fields`.
    pub deny_unknown: bool,
    /// Whether a `flatten` field takes the keys no field matched.
    pub flatten: bool,
}

/// How well a key matched a field; lower is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Exact,
    Normalized,
    Alias,
    NormalizedAlias,
}

fn rank(field: &FieldSpec, key: &str) -> Option<Rank> {
    if field.name == key {
        Some(Rank::Exact)
    } else if keys_match(field.name, key) {
        Some(Rank::Normalized)
    } else if field.aliases.contains(&key) {
        Some(Rank::Alias)
    } else if field.aliases.iter().any(|a| keys_match(a, key)) {
        Some(Rank::NormalizedAlias)
    } else {
        None
    }
}

/// The field an input key lands on: the best rank over all fields, the first field on a tie.
fn best_field(fields: &[FieldSpec], key: &str) -> Option<(usize, Rank)> {
    if let Some(i) = fields.iter().position(|f| f.name == key) {
        return Some((i, Rank::Exact));
    }
    let mut best: Option<(usize, Rank)> = None;
    for (i, f) in fields.iter().enumerate() {
        if let Some(r) = rank(f, key) {
            if best.is_none_or(|(_, b)| r < b) {
                best = Some((i, r));
            }
        }
    }
    best
}

/// The value of each field of a struct, matched from an object's keys.
#[derive(Debug)]
pub struct Fields<'n, 'a, const COUNT: usize> {
    spec: &'static StructSpec,
    slots: [Option<(&'n Node<'a>, Rank, Span)>; COUNT],
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
            cx.coerce(CoercionKind::ListToSingle, node.span, cost::LIST_TO_SINGLE);
            return fields(&items[0], spec, skip, cx);
        }
        _ if cx.lenient()
            && spec.fields.len() == 1
            && COUNT == 1
            && !spec.flatten
            && cx.can_wrap(node) =>
        {
            cx.at_field(spec.fields[0].name, |cx| {
                cx.coerce(CoercionKind::WrappedInStruct, node.span, cost::WRAPPED)
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
                    cx.coerce(CoercionKind::UnknownKey, entry.key_span, cost::UNKNOWN_KEY);
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
                cx.coerce(CoercionKind::DuplicateKey, loser, cost::DUPLICATE_KEY)
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
        cx.at_field(spec.fields[field].name, |cx| {
            cx.coerce(kind, span, cost::KEY)
        });
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
                            cx.coerce(CoercionKind::DefaultUsed, span, cost::DEFAULT);
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
                        cx.coerce(CoercionKind::DefaultUsed, span, cost::DEFAULT);
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
                    cx.coerce(CoercionKind::Caught, span, cost::CAUGHT);
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

/// What an enum needs to know to pick a variant from a name.
#[derive(Debug)]
pub struct EnumSpec {
    /// The enum's name, for messages.
    pub name: &'static str,
    /// Each variant's names, in declaration order.
    pub variants: &'static [VariantNames],
    /// The `other` variant, which unknown names go to.
    pub other: Option<usize>,
}

/// Picks the variant `text` names, recording how leniently; unknown names go to the
/// `other` variant when there is one.
pub fn variant(text: &str, span: Span, spec: &EnumSpec, cx: &mut Context) -> Result<usize, Failed> {
    let found = match_variant(text, spec.variants);
    let (index, kind, cost) = match found {
        VariantMatch::Exact(i) => return Ok(i),
        VariantMatch::Alias(i) if spec.variants[i].aliases.contains(&text) => {
            (i, CoercionKind::AliasVariant, cost::VARIANT_ALIAS)
        }
        _ if !cx.lenient() => return other_or_fail(text, span, spec, cx, None),
        VariantMatch::Normalized(i) => {
            (i, CoercionKind::NormalizedVariant, cost::VARIANT_NORMALIZED)
        }
        VariantMatch::Alias(i) => (i, CoercionKind::AliasVariant, cost::VARIANT_ALIAS),
        VariantMatch::InText(i) => (i, CoercionKind::VariantFromText, cost::VARIANT_IN_TEXT),
        VariantMatch::Ambiguous(list) => return other_or_fail(text, span, spec, cx, Some(list)),
        VariantMatch::NoMatch => return other_or_fail(text, span, spec, cx, None),
    };
    cx.coerce(kind, span, cost);
    Ok(index)
}

fn other_or_fail(
    text: &str,
    span: Span,
    spec: &EnumSpec,
    cx: &mut Context,
    ambiguous: Option<Vec<usize>>,
) -> Result<usize, Failed> {
    let names = |list: &mut dyn Iterator<Item = usize>| {
        list.map(|i| format!("`{}`", spec.variants[i].name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let shown = crate::error::shorten(text, 40);
    if let Some(list) = ambiguous {
        let message = format!(
            "{shown:?} is ambiguous: it matches {} equally",
            names(&mut list.into_iter())
        );
        let issue = Issue::new(Category::Variant, cx.path(), message).at(span);
        cx.push_issue(issue);
        return Err(Failed);
    }
    if let Some(i) = spec.other {
        cx.coerce(CoercionKind::OtherVariant, span, cost::OTHER);
        return Ok(i);
    }
    let expected = names(&mut (0..spec.variants.len()));
    let message = format!("unknown variant of `{}`", spec.name);
    let issue = Issue::new(Category::Variant, cx.path(), message)
        .expected(format!("one of {expected}"))
        .found(format!("{shown:?}"))
        .at(span);
    cx.push_issue(issue);
    Err(Failed)
}

/// The variant a map key names: exactly, after normalization, or by alias (no sentences, no
/// `other`: a key is a name, not prose).
pub fn variant_key(key: &str, spec: &EnumSpec) -> Option<usize> {
    match match_variant(key, spec.variants) {
        VariantMatch::Exact(i) | VariantMatch::Normalized(i) | VariantMatch::Alias(i) => Some(i),
        _ => None,
    }
}

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
    let node = crate::coerce::impls_single(node, cx);
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
            cx.coerce(CoercionKind::MissingTag, node.span, cost::MISSING_TAG);
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

/// A unit variant of an untagged enum: `null`, or (leniently) its name.
pub fn untagged_unit(
    node: &Node<'_>,
    names: &'static VariantNames,
    cx: &mut Context,
) -> Result<(), Failed> {
    match &node.kind {
        NodeKind::Null => Ok(()),
        NodeKind::String(s) => {
            let spec = EnumSpec {
                name: names.name,
                variants: std::slice::from_ref(names),
                other: None,
            };
            variant(&s.text, node.span, &spec, cx).map(|_| ())
        }
        _ => Err(cx.mismatch("null", node)),
    }
}

/// Every reading of an untagged enum is tried; the lowest total cost wins (the first
/// declared on a tie), not the first that succeeds.
pub struct Untagged<T> {
    best: Option<(u32, T, Vec<Coercion>)>,
    closest: Option<Vec<Issue>>,
    exhausted: bool,
}

impl<T> Default for Untagged<T> {
    fn default() -> Self {
        Untagged {
            best: None,
            closest: None,
            exhausted: false,
        }
    }
}

impl<T> Untagged<T> {
    /// No reading tried yet.
    pub fn new() -> Self {
        Untagged::default()
    }

    /// Tries one reading; its records are kept aside until the choice is made.
    pub fn attempt(
        &mut self,
        cx: &mut Context,
        read: impl FnOnce(&mut Context) -> Result<T, Failed>,
    ) {
        if matches!(self.best, Some((0, _, _))) {
            return; // nothing beats a perfect fit
        }
        if !cx.try_reading() {
            self.exhausted = true;
            return;
        }
        let start = cx.checkpoint();
        let result = read(cx);
        let cost = cx.cost_since(start);
        let clean = !cx.failed_since(start);
        let (coercions, issues) = cx.take_since(start);
        match result {
            Ok(value) if clean => {
                if self.best.as_ref().is_none_or(|(best, _, _)| cost < *best) {
                    self.best = Some((cost, value, coercions));
                }
            }
            _ => {
                if self.closest.as_ref().is_none_or(|c| issues.len() < c.len()) {
                    self.closest = Some(issues);
                }
            }
        }
    }

    /// The winning reading, or an issue naming the enum plus the closest reading's issues.
    pub fn finish(self, node: &Node<'_>, name: &str, cx: &mut Context) -> Result<T, Failed> {
        match self.best {
            Some((_, value, coercions)) => {
                cx.restore(coercions);
                Ok(value)
            }
            None => {
                let message = if self.exhausted {
                    format!(
                        "no variant of `{name}` fits this value (gave up after {} readings)",
                        crate::extract::MAX_READINGS
                    )
                } else {
                    format!("no variant of `{name}` fits this value")
                };
                let issue = Issue::new(Category::Type, cx.path(), message)
                    .found(crate::extract::describe(node))
                    .at(node.span);
                cx.push_issue(issue);
                for issue in self.closest.unwrap_or_default() {
                    cx.push_issue(issue);
                }
                Err(Failed)
            }
        }
    }
}

#[cfg(feature = "schema")]
pub use crate::schema::private as schema;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    static SPEC: StructSpec = StructSpec {
        fields: &[
            FieldSpec {
                name: "tool_name",
                aliases: &["tool", "name"],
            },
            FieldSpec {
                name: "name_hint",
                aliases: &[],
            },
        ],
        deny_unknown: false,
        flatten: false,
    };

    fn matched(value: serde_json::Value) -> (Vec<Option<serde_json::Value>>, Vec<CoercionKind>) {
        let node = Node::from_value(&value);
        let mut cx = Context::new();
        let f = fields::<2>(&node, &SPEC, None, &mut cx).expect("an object");
        let values = f
            .slots
            .iter()
            .map(|s| s.map(|(n, _, _)| n.to_value()))
            .collect();
        (
            values,
            cx.coercions().iter().map(|c| c.kind.clone()).collect(),
        )
    }

    #[test]
    fn exact_then_normalized_then_alias() {
        let (v, k) = matched(json!({"toolName": "a", "nameHint": "b"}));
        assert_eq!(v, vec![Some(json!("a")), Some(json!("b"))]);
        assert_eq!(
            k,
            vec![CoercionKind::NormalizedKey, CoercionKind::NormalizedKey]
        );
        // `name` is an alias of tool_name; it is not a normalized form of name_hint.
        let (v, k) = matched(json!({"name": "a"}));
        assert_eq!(v, vec![Some(json!("a")), None]);
        assert_eq!(k, vec![CoercionKind::AliasKey]);
    }

    #[test]
    fn the_better_key_wins_whatever_the_order() {
        for value in [
            json!({"tool": "alias", "tool_name": "exact"}),
            json!({"tool_name": "exact", "tool": "alias"}),
        ] {
            let (v, k) = matched(value);
            assert_eq!(v[0], Some(json!("exact")));
            assert_eq!(k, vec![CoercionKind::DuplicateKey]);
        }
        // A tie: the later key wins, as in JSON.
        let (v, _) = matched(json!({"tool": "first", "name": "second"}));
        assert_eq!(v[0], Some(json!("second")));
    }

    #[test]
    fn an_exact_alias_beats_one_equal_only_after_normalization() {
        static VOTES: StructSpec = StructSpec {
            fields: &[
                FieldSpec {
                    name: "up",
                    aliases: &["+1"],
                },
                FieldSpec {
                    name: "down",
                    aliases: &["-1"],
                },
            ],
            deny_unknown: false,
            flatten: false,
        };
        let node = Node::from_value(&json!({"-1": 4}));
        let mut cx = Context::new();
        let f = fields::<2>(&node, &VOTES, None, &mut cx).expect("an object");
        assert!(f.slots[0].is_none());
        assert_eq!(f.slots[1].map(|(n, _, _)| n.to_value()), Some(json!(4)));
    }

    #[test]
    fn unknown_keys_are_recorded_or_denied() {
        let (_, k) = matched(json!({"tool_name": "a", "extra": 1}));
        assert_eq!(k, vec![CoercionKind::UnknownKey]);
        static DENY: StructSpec = StructSpec {
            fields: &[],
            deny_unknown: true,
            flatten: false,
        };
        let node = Node::from_value(&json!({"extra": 1}));
        let mut cx = Context::new();
        assert!(fields::<0>(&node, &DENY, None, &mut cx).is_err());
        assert_eq!(cx.issues()[0].category, Category::Unknown);
        assert_eq!(cx.issues()[0].path.to_string(), "$.extra");
    }

    static ENUM: EnumSpec = EnumSpec {
        name: "Mood",
        variants: &[
            VariantNames {
                name: "Happy",
                aliases: &["glad"],
            },
            VariantNames {
                name: "Sad",
                aliases: &[],
            },
        ],
        other: None,
    };

    #[test]
    fn variant_choice_is_recorded_and_ambiguity_is_an_issue() {
        let mut cx = Context::new();
        assert_eq!(variant("Happy", Span::default(), &ENUM, &mut cx), Ok(0));
        assert_eq!(variant("sad", Span::default(), &ENUM, &mut cx), Ok(1));
        assert_eq!(variant("I am glad", Span::default(), &ENUM, &mut cx), Ok(0));
        let kinds: Vec<CoercionKind> = cx.coercions().iter().map(|c| c.kind.clone()).collect();
        assert_eq!(
            kinds,
            vec![
                CoercionKind::NormalizedVariant,
                CoercionKind::VariantFromText
            ]
        );
        assert!(variant("happy and sad", Span::default(), &ENUM, &mut cx).is_err());
        assert_eq!(cx.issues()[0].category, Category::Variant);
        let mut strict = Context::with_mode_set(Mode::Strict);
        assert!(variant("sad", Span::default(), &ENUM, &mut strict).is_err());
        assert_eq!(variant("glad", Span::default(), &ENUM, &mut strict), Ok(0));
    }

    #[test]
    fn untagged_keeps_the_cheapest_reading_and_only_its_records() {
        let mut cx = Context::new();
        let mut u = Untagged::default();
        u.attempt(&mut cx, |cx| {
            cx.coerce(CoercionKind::StringToNumber, Span::default(), 2);
            Ok("costly")
        });
        u.attempt(&mut cx, |cx| {
            Err(cx.fail(Category::Type, "no", Span::default()))
        });
        u.attempt(&mut cx, |cx| {
            cx.coerce(CoercionKind::FloatToInteger, Span::default(), 1);
            Ok("cheap")
        });
        let node = Node::from_value(&json!(1));
        assert_eq!(u.finish(&node, "T", &mut cx), Ok("cheap"));
        assert!(cx.issues().is_empty());
        assert_eq!(cx.coercions().len(), 1);
        assert_eq!(cx.coercions()[0].kind, CoercionKind::FloatToInteger);
    }
}
