//! The `parse` stage: a tolerant, one-pass JSON parser yielding a [`Node`] tree and [`Repair`]s.
//!
//! (Temporary stand-in: strict serde_json parsing; replaced by the tolerant parser.)

use crate::error::{Category, Error};
use crate::node::Node;
use crate::report::Repair;
use crate::span::Span;

/// The result of parsing one candidate.
#[derive(Debug, Clone)]
pub struct Parsed<'a> {
    /// The value.
    pub node: Node<'a>,
    /// What was repaired, in source order.
    pub repairs: Vec<Repair>,
    /// Byte offset just after the value.
    pub end: usize,
}

/// Strict JSON: `Some` only when `text` (trimmed) is one valid JSON document.
pub(crate) fn strict(text: &str, _max_depth: usize) -> Option<serde_json::Value> {
    serde_json::from_str(text).ok()
}

/// Parses the value starting at `span.start` of `text`, not reading past `span.end`.
pub fn parse_span<'a>(text: &'a str, span: Span, _max_depth: usize) -> Result<Parsed<'a>, Error> {
    let slice = &text[span.start..span.end];
    let value: serde_json::Value = serde_json::from_str(slice)
        .map_err(|e| Error::single(Category::Syntax, e.to_string()))?;
    let mut node = Node::from_value(&value);
    node.span = span;
    Ok(Parsed { node, repairs: Vec::new(), end: span.end })
}
