//! The coerce stage: [`Extract`] walks a parsed [`Node`] into a Rust type, recording every
//! lenient step (a key matched after normalization, `"42"` read as a number, a variant named
//! in a sentence) with its path, span and cost.
//!
//! This module is what a hand-written [`Extract`] impl needs, as `serde::de` is for
//! `Deserialize`: the trait, the [`Context`] it records into, the [`Node`] tree it reads, and
//! the pure readings the crate's own impls are built from.
//!
//! ```
//! use llm_extract::coerce::{Context, Extract, Failed, Node, NodeKind};
//!
//! /// A temperature written as `"21C"` or as a number.
//! #[derive(Debug, PartialEq)]
//! struct Celsius(f64);
//!
//! impl Extract for Celsius {
//!     type Partial = llm_extract::stream::NoPartial; // shown only by `finish`
//!     fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
//!         if let NodeKind::String(s) = &node.kind {
//!             if let Some(n) = s.text.trim().strip_suffix('C').and_then(|t| t.parse().ok()) {
//!                 return Ok(Celsius(n));
//!             }
//!         }
//!         f64::from_node(node, cx).map(Celsius)
//!     }
//! }
//!
//! assert_eq!(llm_extract::from_str::<Celsius>(r#"{"t": "21C"}"#).ok(), None); // not a bare value
//! assert_eq!(llm_extract::from_str::<Vec<Celsius>>(r#"["21C", 19.5]"#).unwrap(),
//!            vec![Celsius(21.0), Celsius(19.5)]);
//! ```

mod context;
mod direct;
mod embedded;
mod impls;
pub(crate) mod keys;
mod readings;
pub(crate) mod structs;
pub(crate) mod tagged;
pub(crate) mod untagged;
pub(crate) mod variants;

pub(crate) use context::{describe, MAX_READINGS, MAX_WRAPS_PER_NODE};
pub use context::{Checkpoint, Context, Extract, Failed, Mode};
pub use direct::Direct;
pub(crate) use direct::{json_space_only, read as read_direct, read_container, DIRECT_DEPTH};
pub(crate) use direct::{read_with as read_direct_with, Given, GivenValue, Made};
pub use embedded::as_container;
pub use impls::MapKey;
pub(crate) use impls::{map, single};
pub use keys::{keys_match, keys_match_folded, normalize_key};
pub(crate) use readings::may_become_placeholder;
pub use readings::{
    bool_in_text, is_placeholder, number_in_text, number_to_string, parse_bool, parse_number,
    words, SHORT_TEXT,
};
pub use variants::{is_tool_name, match_variant, VariantMatch, VariantNames};

pub use crate::node::{Entry, Node, NodeKind, Number, Quoting, Str};

#[cfg(test)]
mod tests;
