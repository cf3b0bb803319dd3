//! The fallback into reasoning: when the caller allows it and nothing outside reasoning holds
//! a value, the values inside reasoning blocks become candidates, each marked as read from
//! reasoning and costing more than anything found outside.

use super::{candidates_in, scan, Candidate, Origin, Region, TailReading};
use crate::report::RepairKind;
use crate::span::Span;

/// The candidates inside the reasoning blocks whose contents are `thoughts`, in rank order.
pub(super) fn candidates(text: &str, thoughts: &[Span]) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = thoughts
        .iter()
        .flat_map(|&content| {
            let region = Region {
                span: content,
                origin: Origin::Prose,
                context: Some((RepairKind::FromReasoning, content)),
                values: scan::values(text, content),
                tail: None,
            };
            let reading = TailReading {
                keep: crate::parse::Keep::Nothing,
                typed: None,
                max_depth: 0,
                max_len: None,
                require_complete: false,
            };
            candidates_in(text, &region, reading, &mut Vec::new())
        })
        .map(|mut c| {
            // The block's text as plain text is read from reasoning too.
            if !c
                .context
                .iter()
                .any(|(k, _)| *k == RepairKind::FromReasoning)
            {
                c.context.insert(0, (RepairKind::FromReasoning, c.span));
            }
            c.base_cost = c.context.iter().map(|(k, _)| k.cost()).sum();
            c
        })
        .collect();
    out.sort_by_key(|c| (c.base_cost, c.span.start));
    out
}
