//! What extraction returns: the value, the report of what leniency did to get it, and the
//! reasoning split off the reply. Below every reader (`select`, `extractor`, `stream`), so
//! they all return it without importing each other.

use crate::report::Report;
use serde::Serialize;

/// A value extracted from text, with the report of what leniency did to get it.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct Extracted<T> {
    /// The value.
    pub value: T,
    /// Every repair and coercion, its path, span and cost; the total score; completeness.
    pub report: Report,
    /// The text of reasoning blocks (`<think>...</think>` and the like), in order.
    pub thoughts: Vec<String>,
}
