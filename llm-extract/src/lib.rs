#![doc = include_str!("../../README.md")]
//!
//! # Reference
//!
//! | Where | What |
//! |---|---|
//! | [`guide`] | how a reply is read and every repair ([`guide::reading`]), what each type accepts ([`guide::leniency`]), the error categories ([`guide::errors`]), schemas for model APIs (`guide::schemas`), batches, deep input and guarantees ([`guide::limits`]) |
//! | [`Extract`](macro@Extract) | the derive and every attribute, with an example each; the partial twin streaming shows |
//! | [`from_str`], [`extract`], [`repair`], [`Extractor`] | the entry points and their settings |
//! | [`tool`] | tool calls: the formats, what counts as a call, streamed calls, tool lists per provider, tool lists given at run time ([`tool::Tools`]) |
//! | [`stream`] | [`Stream`]: typed snapshots while a reply arrives, [`extract_partial`] |
//! | [`Schema`] | JSON Schemas known at run time: what it reads, what it cannot carry; [`SchemaStream`] streams against one |
//! | [`Retry`] | re-asking the model with feedback |
//! | [`validate`] | the rules behind `min`, `max`, `pattern`, `one_of`, ... |
//! | [`coerce`] | writing an [`Extract`](trait@Extract) impl by hand |
//! | `assert` (feature `assert`) | JSONPath assertions and matchers for model outputs |
#![deny(unsafe_code)]
#![deny(missing_docs)]

#[cfg(feature = "assert")]
pub mod assert;
#[cfg(feature = "parallel")]
mod batch;
pub mod coerce;
mod deep;
mod dynamic;
mod ecma;
mod error;
mod extracted;
mod extractor;
pub mod guide;
mod lex;
mod locate;
mod node;
mod parse;
mod path;
#[cfg(feature = "schema")]
mod provider;
mod report;
mod retry;
#[cfg(feature = "schema")]
mod schema;
mod select;
mod settings;
mod span;
pub mod stream;
pub mod tool;
mod tool_format;
pub mod validate;

/// What `#[derive(Extract)]` expands to calls into this module; not a public API.
///
/// Every name the generated code uses is listed here, by its full name, so a change to the
/// runtime that the derive depends on shows up in this one list.
#[doc(hidden)]
pub mod __private {
    pub use crate::coerce::keys::{FieldSpec, StructSpec};
    pub use crate::coerce::structs::{
        element, fields, item_span, object, tuple, unit, Fields, Missing,
    };
    pub use crate::coerce::tagged::{
        adjacent, empty, external, internal, null, without, Adjacent, Tagged,
    };
    pub use crate::coerce::untagged::{untagged_unit, Untagged};
    pub use crate::coerce::variants::{variant, variant_key, EnumSpec};
    pub use crate::coerce::{
        as_container, Context, Direct, Extract, Failed, MapKey, Mode, Node, VariantNames,
    };
    pub use crate::path::Path;
    pub use crate::path::Segment;
    pub use crate::stream::NoPartial;
    /// What the partial twins need: the streaming types and the helpers they call.
    pub mod stream {
        pub use crate::stream::twin::{
            apply_in, apply_option, done, field_index, field_rank, note_field, require,
            salvage_field, same_key, state_of, trail_apply, variant_index, Held, Required,
        };
        pub use crate::stream::{
            Container, Event, Feed, FieldState, FieldStates, PartialString, PartialValue, Step,
        };
    }
    #[cfg(feature = "schema")]
    pub use crate::schema::private as schema;
    pub use crate::validate;
    pub use crate::validate::Allowed;
    pub use regex::Regex;
    pub use serde;
    pub use serde_json;
    pub use std::sync::LazyLock;
}

/// The tolerant parser on its own, for the project's tests, benches and fuzz targets (which
/// check it without the fast paths in front of it); not a public API.
#[doc(hidden)]
pub mod __internal {
    pub use crate::parse::{parse, Parsed};

    /// `T` read from `text` on the direct path alone: the whole text, else the first value
    /// candidate the direct path reads (`None` where the entry points would read every
    /// candidate on the full path), so tests can tell which path gave a result.
    pub fn read_direct<T: crate::Extract>(text: &str, max_depth: usize) -> Option<T> {
        let extractor = crate::Extractor::new();
        if let Some(span) = extractor.whole_span(text) {
            return crate::coerce::read_direct::<T>(text, span, max_depth).map(|(value, _)| value);
        }
        crate::locate::locate(text, &extractor.settings)
            .candidates
            .iter()
            .filter(|c| c.form == crate::locate::Form::Value)
            .find_map(|c| crate::coerce::read_direct::<T>(text, c.span, max_depth))
            .map(|(value, _)| value)
    }

    /// The parsed tree as a `serde_json::Value`, numbers as written in `text` (what was
    /// parsed) when serde_json keeps numbers as text (feature `arbitrary_precision`).
    pub fn to_value(parsed: &Parsed<'_>, text: &str) -> serde_json::Value {
        parsed.node.to_value_in(text, 0)
    }
}

#[cfg(feature = "derive")]
#[doc = include_str!("guide/derive.md")]
pub use llm_extract_derive::Extract;

pub use crate::coerce::Extract;
pub use crate::dynamic::{
    extract_partial_with, extract_with, from_str_with, SalvagedValue, Schema, SchemaStream,
    Unsupported,
};
pub use crate::error::{Category, Error, Issue};
pub use crate::extracted::Extracted;
pub use crate::extractor::Extractor;
pub use crate::path::{Path, Segment};
#[cfg(feature = "schema")]
pub use crate::provider::{json_schema_for, Provider};
pub use crate::report::{Coercion, CoercionKind, Repair, RepairClass, RepairKind, Report};
pub use crate::retry::{feedback, retry, retry_async, Attempt, Retry, RetryError};
#[cfg(feature = "schema")]
pub use crate::schema::{json_schema, json_schema_strict, prompt_format};
pub use crate::settings::{Completeness, TieBreak};
pub use crate::span::{Position, Span};
pub use crate::stream::{extract_partial, Salvaged, Stream};
/// The schemars trait the derive implements, so `fn ask<T: Extract + JsonSchema>` needs no
/// extra dependency.
#[cfg(feature = "schema")]
pub use schemars::JsonSchema;

/// The settings every free function uses, built once (building them allocates).
static DEFAULT: std::sync::LazyLock<Extractor> = std::sync::LazyLock::new(Extractor::new);

/// The JSON value in `text`, repaired: fences, prose, comments, quotes, truncation and the
/// rest of what models get wrong.
///
/// Valid JSON comes back exactly as `serde_json` reads it. Text with no JSON-like value is an
/// error with [`Category::NotFound`].
///
/// ```
/// let v = llm_extract::repair("Sure! ```json\n{name: 'Ada', tags: ['x',], ok: True}\n```").unwrap();
/// assert_eq!(v, serde_json::json!({"name": "Ada", "tags": ["x"], "ok": true}));
/// ```
pub fn repair(text: &str) -> Result<serde_json::Value, Error> {
    DEFAULT.repair(text)
}

/// Every JSON value in `text` (JSON Lines, several fences, concatenated objects), repaired.
///
/// ```
/// let vs = llm_extract::repair_all("{\"a\": 1}\n{\"a\": 2}").unwrap();
/// assert_eq!(vs, vec![serde_json::json!({"a": 1}), serde_json::json!({"a": 2})]);
/// ```
pub fn repair_all(text: &str) -> Result<Vec<serde_json::Value>, Error> {
    DEFAULT.repair_all(text)
}

/// The best `T` in `text`: of all candidates and readings, the one that fits `T` with the
/// least repair.
///
/// ```
/// let n: Vec<u32> = llm_extract::from_str("The ids are [1, 2, 3].").unwrap();
/// assert_eq!(n, vec![1, 2, 3]);
/// ```
pub fn from_str<T: Extract>(text: &str) -> Result<T, Error> {
    DEFAULT.from_str(text)
}

/// Every `T` in `text`: the items of a JSON array, a single value (as a one-item list), or
/// one per block when there are several.
///
/// ```
/// let all: Vec<serde_json::Value> = llm_extract::from_str_all("[{\"a\":1},{\"a\":2}]").unwrap();
/// assert_eq!(all.len(), 2);
/// ```
pub fn from_str_all<T: Extract>(text: &str) -> Result<Vec<T>, Error> {
    DEFAULT.from_str_all(text)
}

/// The best `T` in `text` with its [`Report`] and the reasoning text found.
///
/// ```
/// let out = llm_extract::extract::<serde_json::Value>("<think>hmm</think>{'a': 1,}").unwrap();
/// assert_eq!(out.value, serde_json::json!({"a": 1}));
/// assert_eq!(out.thoughts, vec!["hmm".to_string()]);
/// assert!(out.report.repairs.iter().any(|r| r.kind == llm_extract::RepairKind::TrailingComma));
/// ```
pub fn extract<T: Extract>(text: &str) -> Result<Extracted<T>, Error> {
    DEFAULT.extract(text)
}

/// [`repair`] for each of `texts` on every core (feature `parallel`); the results are in the
/// order of `texts`. See [`Extractor::repair_batch`] for the thread pool used.
///
/// ```
/// let out = llm_extract::repair_batch(&["{'a': 1}", "[1, 2,]"]);
/// assert_eq!(out[1].as_ref().unwrap(), &serde_json::json!([1, 2]));
/// ```
#[cfg(feature = "parallel")]
pub fn repair_batch<S: AsRef<str> + Sync>(texts: &[S]) -> Vec<Result<serde_json::Value, Error>> {
    DEFAULT.repair_batch(texts)
}

/// [`from_str`] for each of `texts` on every core (feature `parallel`); the results are in
/// the order of `texts`.
///
/// ```
/// let out = llm_extract::from_str_batch::<u32, _>(&["42", "{\"n\": 7}", "none"]);
/// assert_eq!(out[0].as_ref().ok(), Some(&42));
/// assert!(out[2].is_err());
/// ```
#[cfg(feature = "parallel")]
pub fn from_str_batch<T: Extract + Send, S: AsRef<str> + Sync>(
    texts: &[S],
) -> Vec<Result<T, Error>> {
    DEFAULT.from_str_batch(texts)
}
