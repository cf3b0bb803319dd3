//! [`Dyn`] as an [`Extract`] type: read by the rule in force on the direct path (`direct.rs`)
//! and the full path (`read.rs`), shown while streaming by `stream.rs`'s partial. The one file
//! that knows all three, so none of them imports another that imports it back.

use super::read::{current_reading, read, Dyn};
use crate::coerce::{Context, Extract, Failed, Node};
use serde_json::Value;

impl<const PROSE: bool> Extract for Dyn<PROSE> {
    // The growing JSON tree and where the reader is; `stream.rs` shows it through the schema.
    type Partial = super::stream::PartialDyn;
    const FROM_PROSE: bool = PROSE;

    fn read_direct(r: &mut crate::coerce::Direct<'_>) -> Option<Self> {
        // Numbers as written need the tree's source text.
        if cfg!(feature = "arbitrary_precision") {
            return r.by_node(Self::from_node);
        }
        // A schema that takes anything reads strict JSON as `serde_json::Value` does (the
        // default would take a bare word for a string, which the full path refuses).
        if !PROSE {
            return r.json_value().map(Dyn);
        }
        match current_reading() {
            Some((compiled, rule, inside_option)) => {
                super::direct::value(&compiled, rule, inside_option, r).map(Dyn)
            }
            None => r.json_value().map(Dyn),
        }
    }

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        match current_reading() {
            Some((compiled, rule, inside_option)) => {
                read(&compiled, rule, inside_option, node, cx).map(Dyn)
            }
            None => Value::from_node(node, cx).map(Dyn),
        }
    }
}
