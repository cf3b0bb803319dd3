//! Points each argument of a call at where it was written in the reply, so that an error in
//! an argument gives a position in the reply, also when the arguments were JSON written
//! inside a JSON string (OpenAI's `"arguments": "{\"city\": 1}"`).
//!
//! Also where the repairs made reading each call are gathered ([`add_repairs`]), placed in
//! the reply the same way.

use super::shape::{RawCall, Source};
use super::wire::Hit;
use crate::node::{Node, NodeKind};
use crate::parse::Parsed;
use crate::path::Segment;
use crate::report::{Repair, RepairKind};
use crate::span::Span;
use std::collections::HashSet;

/// Where the JSON value a call was read from ends in the reply, when it was read from one.
pub(crate) fn value_end(raw: &RawCall) -> Option<usize> {
    match &raw.source {
        Source::Json { value, .. } if !value.is_empty() => Some(value.end),
        _ => None,
    }
}

/// Adds to each call read from JSON the repairs made reading it, placed in `text`: the
/// parser's repairs inside the call's object, each key written twice there, and the same
/// for JSON written inside a string (OpenAI's arguments). The calls of one value come one
/// after another, so each value is parsed once.
pub(crate) fn add_repairs(text: &str, hits: &mut [Hit], max_depth: usize) {
    let mut parsed: Option<(Span, Option<Parsed<'_>>)> = None;
    for hit in hits.iter_mut() {
        let Source::Json { value, path } = &hit.call.source else {
            continue;
        };
        if value.is_empty() {
            continue;
        }
        if parsed.as_ref().is_none_or(|(span, _)| span != value) {
            let mut read = crate::parse::parse_span(text, *value, max_depth).ok();
            if let Some(p) = &mut read {
                p.repairs.sort_by_key(|r| r.span.start);
            }
            parsed = Some((*value, read));
        }
        let Some((_, Some(read))) = &parsed else {
            continue;
        };
        let Some(call) = descend(&read.node, &hit.call.at) else {
            continue;
        };
        let mut repairs = within(&read.repairs, call.span);
        duplicate_keys(call, &|s| s, &mut repairs);
        if let Some(args) = descend(call, &path[hit.call.at.len().min(path.len())..]) {
            if let NodeKind::String(_) = &args.kind {
                in_string(text, args.span, max_depth, &mut repairs);
            }
        }
        // Added to those the value's reader reported (JSON in prose), without repeating one.
        let known = std::mem::take(&mut hit.call.repairs);
        repairs.retain(|r| !known.iter().any(|k| k.kind == r.kind && k.span == r.span));
        repairs.extend(known);
        repairs.sort_by_key(|r| r.span.start);
        hit.call.repairs = repairs;
    }
}

/// The repairs (sorted by start) made within `span`.
fn within(repairs: &[Repair], span: Span) -> Vec<Repair> {
    let from = repairs.partition_point(|r| r.span.start < span.start);
    repairs[from..]
        .iter()
        .take_while(|r| r.span.start <= span.end)
        .cloned()
        .collect()
}

/// The repairs of the JSON written inside the string literal at `literal` (an OpenAI
/// arguments string), placed at the escapes they were written as.
fn in_string(text: &str, literal: Span, max_depth: usize, repairs: &mut Vec<Repair>) {
    let Some((decoded, offsets)) = decode(&text[literal.start..literal.end]) else {
        return;
    };
    let start = decoded.len() - decoded.trim_start().len();
    let Ok(inner) = crate::parse::parse_span(&decoded, Span::new(start, decoded.len()), max_depth)
    else {
        return;
    };
    let base = literal.start;
    let map = |s: Span| {
        let at = |i: usize| base + offsets[i.min(offsets.len() - 1)];
        Span::new(at(s.start), at(s.end))
    };
    repairs.extend(inner.repairs.into_iter().map(|mut r| {
        r.span = map(r.span);
        r
    }));
    duplicate_keys(&inner.node, &map, repairs);
}

/// A [`RepairKind::DuplicateKey`] for each key written a second time in an object of `node`
/// (at its later key), its span mapped by `map`. An explicit stack, so a deep value cannot
/// overflow the call stack.
fn duplicate_keys(node: &Node<'_>, map: &dyn Fn(Span) -> Span, out: &mut Vec<Repair>) {
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        match &node.kind {
            NodeKind::Object(entries) => {
                let mut seen = HashSet::with_capacity(entries.len());
                for entry in entries {
                    if !seen.insert(entry.key.text.as_ref()) {
                        out.push(Repair::new(RepairKind::DuplicateKey, map(entry.key_span)));
                    }
                    stack.push(&entry.value);
                }
            }
            NodeKind::Array(items) => stack.extend(items.iter()),
            _ => {}
        }
    }
}

/// `arguments` (the call's arguments as a node, as [`super::arguments_node`] builds them)
/// with every span set to where that part was written in `text`; `None` when the call
/// carries no source or the source cannot be read again.
pub(crate) fn place(
    text: &str,
    raw: &RawCall,
    mut arguments: Node<'static>,
    max_depth: usize,
) -> Option<Node<'static>> {
    match &raw.source {
        Source::Unknown => None,
        Source::Each(spans) => {
            let NodeKind::Object(entries) = &mut arguments.kind else {
                return None;
            };
            for entry in entries {
                if let Some((_, span)) = spans.iter().rev().find(|(k, _)| *k == entry.key.text) {
                    entry.key_span = *span;
                    entry.value.point_at(*span);
                }
            }
            Some(arguments)
        }
        Source::Json { value, path } => {
            let parsed = crate::parse::parse_span(text, *value, max_depth).ok()?;
            let found = descend(&parsed.node, path)?;
            match &found.kind {
                NodeKind::Object(_) => transfer(&mut arguments, found, &|s| s),
                // JSON in a JSON string: parse what it holds, then carry every position in
                // the decoded text back to the escape it was written as.
                NodeKind::String(_) => {
                    let literal = &text[found.span.start..found.span.end];
                    let (decoded, offsets) = decode(literal)?;
                    let start = decoded.len() - decoded.trim_start().len();
                    let inner = crate::parse::parse_span(
                        &decoded,
                        Span::new(start, decoded.len()),
                        max_depth,
                    )
                    .ok()?;
                    let base = found.span.start;
                    let map = |s: Span| Span::new(base + offsets[s.start], base + offsets[s.end]);
                    transfer(&mut arguments, &inner.node, &map);
                }
                _ => return None,
            }
            Some(arguments)
        }
    }
}

/// The node at `path` below `node`: the last entry of a key (as a JSON object keeps it),
/// the item at an index.
fn descend<'n, 'a>(node: &'n Node<'a>, path: &[Segment]) -> Option<&'n Node<'a>> {
    let mut at = node;
    for segment in path {
        at = match (segment, &at.kind) {
            (Segment::Key(k), NodeKind::Object(entries)) => {
                &entries
                    .iter()
                    .rev()
                    .find(|e| e.key.text == k.as_str())?
                    .value
            }
            (Segment::Index(i), NodeKind::Array(items)) => items.get(*i)?,
            _ => return None,
        };
    }
    Some(at)
}

/// Copies the spans of `source` (mapped by `map`) onto the same parts of `target`: entries
/// by key, items by index. Parts `source` lacks keep their spans. An explicit stack, so a
/// deep value cannot overflow the call stack.
fn transfer(target: &mut Node<'static>, source: &Node<'_>, map: &dyn Fn(Span) -> Span) {
    let mut stack: Vec<(&mut Node<'static>, &Node<'_>)> = vec![(target, source)];
    while let Some((t, s)) = stack.pop() {
        t.span = map(s.span);
        match (&mut t.kind, &s.kind) {
            (NodeKind::Object(te), NodeKind::Object(se)) => {
                for entry in te.iter_mut() {
                    if let Some(from) = se.iter().rev().find(|e| e.key.text == entry.key.text) {
                        entry.key_span = map(from.key_span);
                        stack.push((&mut entry.value, &from.value));
                    }
                }
            }
            (NodeKind::Array(ti), NodeKind::Array(si)) => {
                stack.extend(ti.iter_mut().zip(si.iter()));
            }
            _ => {}
        }
    }
}

/// The content of the JSON string `literal` (quotes included), and for every byte of it
/// (and one past the end) the offset in `literal` it was written at: an escape's bytes all
/// map to its backslash.
fn decode(literal: &str) -> Option<(String, Vec<usize>)> {
    let content = literal.strip_prefix('"')?.strip_suffix('"')?;
    let bytes = literal.as_bytes();
    let mut out = String::with_capacity(content.len());
    let mut offsets = Vec::with_capacity(content.len() + 1);
    let mut chars = content.char_indices();
    while let Some((i, c)) = chars.next() {
        let at = i + 1; // the opening quote
        let decoded = if c != '\\' {
            c
        } else {
            let (decoded, len) = crate::lex::strict_escape(bytes, at)?;
            // An escape is ASCII: as many chars as bytes; the backslash is read.
            for _ in 1..len {
                chars.next()?;
            }
            decoded
        };
        out.push(decoded);
        offsets.extend(std::iter::repeat_n(at, decoded.len_utf8()));
    }
    offsets.push(literal.len() - 1);
    Some((out, offsets))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoded_bytes_map_to_where_they_were_written() {
        let literal = r#""{\"a\": \u00e9}""#;
        let (decoded, offsets) = decode(literal).unwrap();
        assert_eq!(decoded, "{\"a\": é}");
        assert_eq!(offsets.len(), decoded.len() + 1);
        // `a` is written at byte 3 of the literal; `é` (two bytes) at the `\u` escape.
        assert_eq!(&literal[offsets[2]..offsets[2] + 1], "a");
        let e = decoded.find('é').unwrap();
        assert_eq!(&literal[offsets[e]..offsets[e] + 2], "\\u");
        assert_eq!(offsets[e], offsets[e + 1]);
        assert_eq!(offsets[decoded.len()], literal.len() - 1);
        assert_eq!(decode(r#""\ud83d\ude00""#).unwrap().0, "😀");
        assert!(decode(r#""\x""#).is_none());
    }
}
