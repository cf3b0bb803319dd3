//! The `locate` stage: one linear scan finding where in the text the value may be.
//!
//! (Temporary stand-in: the whole text is the one candidate.)

use crate::error::Error;
use crate::extractor::Settings;
use crate::parse::{self, Parsed};
use crate::span::Span;

/// A region of the text that may hold the value.
#[derive(Clone, Debug)]
pub(crate) struct Candidate {
    pub span: Span,
    /// Cost of taking a value from here rather than from an explicit marker.
    pub base_cost: u32,
}

/// Candidates in rank order, and the reasoning blocks found.
pub(crate) struct Located {
    pub candidates: Vec<Candidate>,
    pub thoughts: Vec<Span>,
}

pub(crate) fn locate(text: &str, _settings: &Settings) -> Located {
    Located { candidates: vec![Candidate { span: Span::new(0, text.len()), base_cost: 0 }], thoughts: Vec::new() }
}

pub(crate) fn parse_candidate<'t>(text: &'t str, candidate: &Candidate, settings: &Settings) -> Result<Parsed<'t>, Error> {
    parse::parse_span(text, candidate.span, settings.max_depth)
}
