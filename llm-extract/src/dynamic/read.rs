//! Reading a node against compiled rules, through the readers a derived type calls: the std
//! impls for scalars, lists, maps and `Option`, the struct reader for objects, variant
//! matching for `enum`, the untagged choice for `anyOf`/`oneOf`, `validate.rs` for checks.
//!
//! The std impls are generic over the item type; [`Dyn`] is that item, reading with the rule
//! the enclosing reading put in [`CURRENT`] (each reading sets it around the call and puts the
//! previous one back, so a nested reading sees its own). Its `Extract` impl, which ties the
//! readers together (this full path, `direct.rs`, the stream's partial), is in `item.rs`.

use super::compile::{types, Additional, Array, Compiled, Object, Rule, Shape};
use crate::coerce::structs::{self, Missing};
use crate::coerce::untagged::Untagged;
use crate::coerce::variants::{variant, EnumSpec};
use crate::coerce::{Context, Extract, Failed, Node, NodeKind};
use crate::error::{Category, Issue};
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::sync::Arc;

/// The rule a [`Dyn`] reads with: the compiled schema, the rule, and whether `null` was
/// already handled around it (the inside of a nullable rule's `Option`).
#[derive(Clone)]
struct Current {
    compiled: Arc<Compiled>,
    rule: usize,
    inside_option: bool,
}

thread_local! {
    static CURRENT: RefCell<Option<Current>> = const { RefCell::new(None) };
}

/// Puts the previous rule back when a reading ends, also by unwinding.
struct Restore(Option<Current>);

impl Drop for Restore {
    fn drop(&mut self) {
        let previous = self.0.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

/// Runs `read` with [`Dyn`] reading by `rule` of `compiled`.
pub(crate) fn with_rule<R>(
    compiled: &Arc<Compiled>,
    rule: usize,
    inside_option: bool,
    read: impl FnOnce() -> R,
) -> R {
    let current = Current {
        compiled: Arc::clone(compiled),
        rule,
        inside_option,
    };
    let previous = CURRENT.with(|c| c.borrow_mut().replace(current));
    let _restore = Restore(previous);
    read()
}

/// The compiled schema and rule in force, if a reading set one.
pub(crate) fn current() -> Option<(Arc<Compiled>, usize)> {
    CURRENT.with(|c| (c.borrow().as_ref()).map(|c| (Arc::clone(&c.compiled), c.rule)))
}

/// [`current`], and whether `null` was already handled around the rule.
pub(crate) fn current_reading() -> Option<(Arc<Compiled>, usize, bool)> {
    CURRENT
        .with(|c| (c.borrow().as_ref()).map(|c| (Arc::clone(&c.compiled), c.rule, c.inside_option)))
}

/// A value read against the rule in force (see the module documentation). Outside a
/// schema reading (never, through the crate's entry points) it reads any JSON value.
///
/// `PROSE` is [`Extract::FROM_PROSE`]: whether a reply with no JSON-like value in it may be
/// read as plain text. A schema that takes any value says no, as `serde_json::Value` does
/// (any text would fit; "no JSON found" is the better answer).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Dyn<const PROSE: bool = true>(pub(crate) Value);

/// `node` read by `rule`, then checked.
pub(crate) fn read(
    compiled: &Arc<Compiled>,
    id: usize,
    inside_option: bool,
    node: &Node<'_>,
    cx: &mut Context,
) -> Result<Value, Failed> {
    let rule = &compiled.rules[id];
    if rule.nullable && !inside_option {
        // As an `Option` field reads it: `null`, placeholders (`"N/A"`), else the value.
        let read = with_rule(compiled, id, true, || Option::<Dyn>::from_node(node, cx))?;
        return Ok(read.map_or(Value::Null, |d| d.0));
    }
    let value = crate::deep::grow(|| shaped(compiled, rule, node, cx))?;
    rule.checks.check(&value, node.span, cx);
    Ok(value)
}

fn shaped(
    compiled: &Arc<Compiled>,
    rule: &Rule,
    node: &Node<'_>,
    cx: &mut Context,
) -> Result<Value, Failed> {
    match &rule.shape {
        Shape::Plain => by_type(rule, node, cx),
        Shape::Never => Err(cx.fail(Category::Type, "the schema allows no value here", node.span)),
        Shape::Ref(target) => read(compiled, *target, false, node, cx),
        Shape::Values {
            values,
            names,
            name,
        } => one_of_values(values, names, name, node, cx),
        Shape::Choice(options) => {
            let mut choice = Untagged::new();
            for &option in options {
                choice.attempt(cx, |cx| read(compiled, option, false, node, cx));
            }
            choice.finish(node, rule.title.as_deref().unwrap_or("anyOf"), cx)
        }
        Shape::Object(object) => read_object(compiled, object, node, cx),
        Shape::Array(array) => read_array(compiled, array, node, cx),
    }
}

/// A value by its `type`: the std reader of that type, or the cheapest of several types.
fn by_type(rule: &Rule, node: &Node<'_>, cx: &mut Context) -> Result<Value, Failed> {
    let Some(bits) = rule.types else {
        return Value::from_node(node, cx);
    };
    let mut allowed = types::ORDER.iter().filter(|(b, _)| bits & b != 0);
    match (allowed.next(), allowed.next()) {
        (Some((bit, _)), None) => scalar(*bit, node, cx),
        _ => {
            let mut choice = Untagged::new();
            for (bit, _) in types::ORDER.iter().filter(|(b, _)| bits & b != 0) {
                choice.attempt(cx, |cx| scalar(*bit, node, cx));
            }
            choice.finish(node, rule.title.as_deref().unwrap_or("type"), cx)
        }
    }
}

/// A value of one JSON type, read as the Rust type a derive would hold it in.
fn scalar(bit: u8, node: &Node<'_>, cx: &mut Context) -> Result<Value, Failed> {
    match bit {
        types::NULL => <()>::from_node(node, cx).map(|()| Value::Null),
        types::BOOLEAN => bool::from_node(node, cx).map(Value::Bool),
        types::INTEGER => integer(node, cx),
        types::NUMBER => number(node, cx),
        types::STRING => String::from_node(node, cx).map(Value::String),
        types::ARRAY => Vec::<Value>::from_node(node, cx).map(Value::Array),
        _ => Map::<String, Value>::from_node(node, cx).map(Value::Object),
    }
}

/// An integer, as `i64` reads it, or `u64` beyond.
fn integer(node: &Node<'_>, cx: &mut Context) -> Result<Value, Failed> {
    let start = cx.checkpoint();
    match i64::from_node(node, cx) {
        Ok(n) => Ok(Value::from(n)),
        Err(failed) => {
            let positive = matches!(&node.kind, NodeKind::Number(_))
                && cx.json_value(node).as_i64().is_none_or(|n| n >= 0);
            if !positive {
                return Err(failed);
            }
            let (coercions, issues) = cx.take_since(start);
            match u64::from_node(node, cx) {
                Ok(n) => Ok(Value::from(n)),
                Err(failed) => {
                    cx.rollback(start);
                    cx.restore(coercions);
                    issues.into_iter().for_each(|i| cx.push_issue(i));
                    Err(failed)
                }
            }
        }
    }
}

/// A number, as `f64` reads it; a number written as JSON keeps its written form (`3` stays
/// `3`), a coerced one (`"0.8"`) is the `f64` read. One that no JSON number holds (`1e400`,
/// which `serde_json::Value` reads as `null`) is not a number here.
fn number(node: &Node<'_>, cx: &mut Context) -> Result<Value, Failed> {
    let start = cx.checkpoint();
    let n = f64::from_node(node, cx)?;
    let written = matches!(node.kind, NodeKind::Number(_)) && cx.cost_since(start) == 0;
    let value = match written {
        true => Some(cx.json_value(node)).filter(Value::is_number),
        false => serde_json::Number::from_f64(n).map(Value::Number),
    };
    value.ok_or_else(|| cx.fail(Category::Type, "not a finite number", node.span))
}

/// `enum` / `const`: when every value is a string, read as a derived enum of unit variants
/// reads its value (`coerce/tagged.rs`: the name exactly, normalized, in a sentence; a list
/// naming one of them; `{"NAME": null}`); otherwise a value equal to one allowed.
fn one_of_values(
    values: &[Value],
    names: &'static [crate::coerce::VariantNames],
    name: &'static str,
    node: &Node<'_>,
    cx: &mut Context,
) -> Result<Value, Failed> {
    if names.len() == values.len() {
        let spec = EnumSpec {
            name,
            variants: names,
            other: None,
        };
        return names_one(&spec, node, cx);
    }
    let equal = same_json;
    // The value as written first: an allowed value may itself be a list of one (`[false]`).
    let written = cx.json_value(node);
    if let Some(found) = values.iter().find(|v| equal(v, &written)) {
        cx.note_match();
        return Ok(found.clone());
    }
    // A list of one value stands for the value, as for a derived enum.
    let node = match &node.kind {
        NodeKind::Array(items) if items.len() == 1 => {
            let item = crate::coerce::single(node, cx);
            let value = cx.json_value(item);
            if let Some(found) = values.iter().find(|v| equal(v, &value)) {
                cx.note_match();
                return Ok(found.clone());
            }
            item
        }
        _ => node,
    };
    if let NodeKind::String(s) = &node.kind {
        if !names.is_empty() {
            let spec = EnumSpec {
                name,
                variants: names,
                other: None,
            };
            let i = variant(&s.text, node.span, &spec, cx)?;
            return Ok(Value::String(names[i].name.to_string()));
        }
    }
    let allowed: Vec<String> = values.iter().map(Value::to_string).collect();
    let issue = Issue::new(
        Category::Variant,
        cx.path(),
        "not one of the allowed values",
    )
    .expected(format!("one of {}", allowed.join(", ")))
    .found(crate::coerce::describe(node))
    .at(node.span);
    cx.push_issue(issue);
    Err(Failed)
}

/// JSON Schema's equality: numbers by their value (`1` is `1.0`) at any depth, objects
/// whatever the order of their keys, anything else as written.
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(p), Some(q), ..) => p == q,
                (.., Some(p), Some(q)) => p == q,
                _ => x.as_f64() == y.as_f64(),
            }
        }
        (Value::Array(xs), Value::Array(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(xs), Value::Object(ys)) => {
            xs.len() == ys.len()
                && xs
                    .iter()
                    .all(|(k, x)| ys.get(k).is_some_and(|y| same_json(x, y)))
        }
        _ => a == b,
    }
}

/// The string value a node names, as a derived enum's unit variant is read.
fn names_one(spec: &EnumSpec, node: &Node<'_>, cx: &mut Context) -> Result<Value, Failed> {
    let tagged = crate::coerce::tagged::external(node, spec, cx)?;
    if let Some(content) = tagged.content {
        let segment = crate::path::Segment::Key(tagged.raw.clone());
        cx.at(segment, |cx| structs::unit(content, cx))?;
    }
    Ok(Value::String(spec.variants[tagged.index].name.to_string()))
}

/// An array: `prefixItems` by position, the rest by `items`, as a `Vec` reads a list (one
/// value where a list belongs is a list of it).
fn read_array(
    compiled: &Arc<Compiled>,
    array: &Array,
    node: &Node<'_>,
    cx: &mut Context,
) -> Result<Value, Failed> {
    if array.prefix.is_empty() {
        let items = match array.items {
            Some(rule) => with_rule(compiled, rule, false, || Vec::<Dyn>::from_node(node, cx))?,
            None => return Vec::<Value>::from_node(node, cx).map(Value::Array),
        };
        return Ok(Value::Array(items.into_iter().map(|d| d.0).collect()));
    }
    let NodeKind::Array(items) = &node.kind else {
        return Err(cx.mismatch("an array", node));
    };
    let mut out = Vec::with_capacity(items.len());
    let mut failed = false;
    for (i, item) in items.iter().enumerate() {
        let rule = array.prefix.get(i).copied().or(array.items);
        let value = cx.at_index(i, |cx| match rule {
            Some(rule) => read(compiled, rule, false, item, cx),
            None => Value::from_node(item, cx),
        });
        match value {
            Ok(v) => out.push(v),
            Err(Failed) => failed = true,
        }
    }
    if failed {
        Err(Failed)
    } else {
        Ok(Value::Array(out))
    }
}

/// An object: its properties matched and read as a derived struct's fields are (the same
/// reader, `coerce/structs.rs`), the other keys as `additionalProperties` says.
fn read_object(
    compiled: &Arc<Compiled>,
    object: &Object,
    node: &Node<'_>,
    cx: &mut Context,
) -> Result<Value, Failed> {
    // The struct reader takes its width as a constant: the narrowest that holds the
    // properties (one property is its own case: a lone field reads a bare value).
    match object.props.len() {
        0 => object_of::<0>(compiled, object, node, cx),
        1 => object_of::<1>(compiled, object, node, cx),
        2..=4 => object_of::<4>(compiled, object, node, cx),
        5..=16 => object_of::<16>(compiled, object, node, cx),
        17..=64 => object_of::<64>(compiled, object, node, cx),
        _ => object_of::<{ super::compile::MAX_PROPERTIES }>(compiled, object, node, cx),
    }
}

fn object_of<const WIDTH: usize>(
    compiled: &Arc<Compiled>,
    object: &Object,
    node: &Node<'_>,
    cx: &mut Context,
) -> Result<Value, Failed> {
    structs::object::<Value, WIDTH>(node, object.spec, None, cx, |fields, cx| {
        let mut map = Map::new();
        let mut failed = false;
        for (i, prop) in object.props.iter().enumerate() {
            let missing = match (&prop.default, prop.required) {
                (Some(default), _) => Missing::Value(Some(default.clone())),
                (None, true) => Missing::Required(None),
                (None, false) => Missing::Required(Some(None)),
            };
            let read_prop =
                |n: &Node<'_>, cx: &mut Context| read(compiled, prop.rule, false, n, cx).map(Some);
            match fields.field(i, cx, read_prop, missing, None) {
                Some(Some(value)) => {
                    map.insert(prop.name.clone(), value);
                }
                Some(None) => {}
                None => failed = true,
            }
        }
        if let Additional::Kept(rule) = object.additional {
            // The other keys in the reply's order, as `serde_json::Value` keeps them.
            let rest = fields.flatten(cx, |n, cx| {
                let mut rest = Map::new();
                with_rule(compiled, rule, false, || {
                    crate::coerce::map(n, cx, |k: String, v: Dyn, invented| {
                        (invented && rest.contains_key(&k)) || rest.insert(k, v.0).is_some()
                    })
                })
                .map(|()| rest)
            });
            match rest {
                Some(rest) => {
                    for (key, value) in rest {
                        map.entry(key).or_insert(value);
                    }
                }
                None => failed = true,
            }
        }
        if failed {
            Err(Failed)
        } else {
            Ok(Value::Object(map))
        }
    })
}
