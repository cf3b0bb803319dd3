//! The direct path of a schema reading: strict JSON read straight into a `Value` while the
//! compiled rules are checked, in one pass over the text and without a node tree, as a
//! derived type's `read_direct` reads it (`coerce/direct.rs`).
//!
//! The rule is the derive's: give the value the full path ([`super::read`]) gives, or give
//! up. Each reader here mirrors the `read_direct` of the type the full path reads by (an
//! object's keys must be its properties' exact names, each once; an integer must be written
//! as one; a nullable string that is empty or a placeholder goes through a tree), and
//! anything else is read by the full path's own reader on that value alone
//! ([`Direct::by_node`]: a scalar's node costs nothing, a container's is parsed from its
//! extent), which gives up in turn when that reading records anything.

use super::compile::{types, Additional, Array, Compiled, Object, Rule, Shape};
use super::read::read;
use crate::coerce::{is_placeholder, Direct};
use crate::span::Span;
use serde_json::{Map, Value};
use std::sync::Arc;

/// The value at the cursor read by rule `id` (see the module documentation); `None` sends
/// the whole document down the full path.
pub(crate) fn value(
    compiled: &Arc<Compiled>,
    id: usize,
    inside_option: bool,
    r: &mut Direct<'_>,
) -> Option<Value> {
    let rule = &compiled.rules[id];
    if rule.nullable && !inside_option {
        // As `Option::read_direct`: `null`; `""` and placeholders through a tree.
        match r.peek()? {
            b'n' => return r.null().map(|()| Value::Null),
            b'"' => {
                let at = r.position();
                let (text, _) = r.string()?;
                let plain = !text.is_empty() && !is_placeholder(&text);
                r.rewind(at);
                if !plain {
                    return by_node(compiled, id, false, r);
                }
            }
            _ => {}
        }
        return value(compiled, id, true, r);
    }
    let start = r.peek().map(|_| r.position())?;
    let value = shaped(compiled, id, rule, r)?;
    if rule.checks.is_empty() {
        return Some(value);
    }
    // The checks the full path makes on the same value: any issue, and it makes them again.
    let span = Span::new(start, r.position());
    r.check(|cx| rule.checks.check(&value, span, cx))
        .then_some(value)
}

/// The value at the cursor read by the full path's reader of rule `id` alone.
fn by_node(
    compiled: &Arc<Compiled>,
    id: usize,
    inside_option: bool,
    r: &mut Direct<'_>,
) -> Option<Value> {
    r.by_node(|node, cx| read(compiled, id, inside_option, node, cx))
}

fn shaped(compiled: &Arc<Compiled>, id: usize, rule: &Rule, r: &mut Direct<'_>) -> Option<Value> {
    match &rule.shape {
        Shape::Plain => plain(compiled, id, rule, r),
        // A chain of `$ref`s recurses without entering a container (where the cursor checks
        // the stack): past what the stack holds, the full path reads it, growing its stack.
        Shape::Ref(target) if crate::deep::stack_left() => value(compiled, *target, false, r),
        Shape::Values { values, names, .. } if names.len() == values.len() => {
            // As a derived enum's unit variants: a string that is a value exactly.
            let at = r.position();
            if let Some((text, _)) = r.string() {
                let found = names
                    .iter()
                    .find(|n| n.name == text && !n.name.trim_start().starts_with(['{', '[']));
                if let Some(found) = found {
                    return Some(Value::String(found.name.to_string()));
                }
            }
            r.rewind(at);
            by_node(compiled, id, true, r)
        }
        Shape::Object(object) if r.peek()? == b'{' => self::object(compiled, object, r),
        Shape::Array(array) if r.peek()? == b'[' => self::array(compiled, array, r),
        // `false`, other values, a choice, and a container not written as one.
        _ => by_node(compiled, id, true, r),
    }
}

/// A value by its `type`, when that is one type written as JSON writes it.
fn plain(compiled: &Arc<Compiled>, id: usize, rule: &Rule, r: &mut Direct<'_>) -> Option<Value> {
    let first = r.peek()?;
    let Some(bits) = rule.types else {
        // Any value, as `serde_json::Value` reads it.
        return r.json_value();
    };
    match (bits, first) {
        (types::STRING, b'"') => r.string().map(|(text, _)| Value::String(text.into_owned())),
        (types::BOOLEAN, b't' | b'f') => r.bool().map(Value::Bool),
        // One no JSON number holds (`1e400`) is refused on the full path.
        (types::NUMBER, b'-' | b'0'..=b'9') => r.number()?.to_json().map(Value::Number),
        // A float where an integer belongs is coerced (or refused) on the full path.
        (types::INTEGER, b'-' | b'0'..=b'9') => match r.number()? {
            crate::node::Number::PosInt(u) => Some(Value::from(u)),
            crate::node::Number::NegInt(i) => Some(Value::from(i)),
            crate::node::Number::Float(_) => None,
        },
        _ => by_node(compiled, id, true, r),
    }
}

/// An object written as one: every key a property's exact name, once each, and every
/// required property (or one with a default) present; with no properties, every entry is
/// read by `additionalProperties`. The value's keys come in the properties' order, as the
/// full path puts them.
fn object(compiled: &Arc<Compiled>, object: &Object, r: &mut Direct<'_>) -> Option<Value> {
    let props = &object.props;
    // Keys other than the properties are kept only when there are no properties: otherwise
    // the full path first matches them to properties by their normalized names and aliases.
    let rest_rule = match object.additional {
        Additional::Kept(rule) if props.is_empty() => Some(rule),
        _ => None,
    };
    let mut out = Map::with_capacity(props.len());
    // Whether the keys came in the properties' order (the next property's index, if so).
    let mut next = Some(0);
    r.object(|r, key| {
        let (read, name) = match object.property(&key) {
            Some(i) => {
                next = next.filter(|&n| i >= n).map(|_| i + 1);
                let read = value(compiled, props[i].rule, false, r)?;
                (read, props[i].name.clone())
            }
            None => (value(compiled, rest_rule?, false, r)?, key.into_owned()),
        };
        // A repeated key is recorded on the full path.
        out.insert(name, read).is_none().then_some(())
    })?;
    if out.len() < props.len() {
        // A default is recorded and a missing required property is an issue.
        let needed = |p: &&super::compile::Property| p.required || p.default.is_some();
        if props
            .iter()
            .filter(needed)
            .any(|p| !out.contains_key(&p.name))
        {
            return None;
        }
    }
    if next.is_none() {
        let mut ordered = Map::with_capacity(out.len());
        for prop in props {
            if let Some(v) = out.remove(&prop.name) {
                ordered.insert(prop.name.clone(), v);
            }
        }
        out = ordered;
    }
    Some(Value::Object(out))
}

/// An array written as one: `prefixItems` by position, the rest by `items`.
fn array(compiled: &Arc<Compiled>, array: &Array, r: &mut Direct<'_>) -> Option<Value> {
    let mut out = Vec::new();
    r.array(|r| {
        let item = match array.prefix.get(out.len()).copied().or(array.items) {
            Some(rule) => value(compiled, rule, false, r)?,
            None => r.json_value()?,
        };
        out.push(item);
        Some(())
    })?;
    Some(Value::Array(out))
}
