//! Candidate choice: each located candidate parsed (with what its surroundings cost), and
//! the readings a caller asks for, in the order it asks for them.
//!
//! Every entry point of [`Extractor`](crate::Extractor) goes through [`readings`]: the one place
//! that applies `max_payload`, `require_complete`, and the overlap rule.

use crate::coerce::{Context, Extract, Failed};
use crate::error::{Category, Error, Issue};
use crate::extractor::Extracted;
use crate::locate::{Candidate, Form, Origin};
use crate::parse::{self, Parsed, RepairPaths};
use crate::path::Path;
use crate::report::{Repair, RepairKind, Report};
use crate::settings::{Completeness, Settings};
use crate::span::{Position, Span};

/// Which candidates a caller wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Overlap {
    /// Every candidate, best-ranked first: the caller picks one reading of the text.
    Ranked,
    /// Candidates in text order, skipping those inside a value already read: each value once.
    Disjoint,
}

/// Parses each candidate in the order `overlap` asks for.
pub(crate) fn readings<'t, 'c>(
    settings: &'t Settings,
    text: &'t str,
    candidates: &'c [Candidate],
    overlap: Overlap,
    paths: RepairPaths,
) -> impl Iterator<Item = Result<(&'c Candidate, Parsed<'t>), Error>> + use<'t, 'c> {
    let mut order: Vec<&Candidate> = candidates.iter().collect();
    if overlap == Overlap::Disjoint {
        order.sort_by_key(|c| (c.span.start, c.base_cost));
    }
    // In disjoint mode candidates come in start order, so everything taken so far lies
    // before `taken_end`: one comparison per candidate instead of a scan of all taken.
    let mut taken_end = 0usize;
    order.into_iter().filter_map(move |candidate| {
        if overlap == Overlap::Disjoint && candidate.span.start < taken_end {
            return None;
        }
        if overlap == Overlap::Disjoint && candidate.form == Form::Text {
            return None; // every value in the text: plain prose is not one
        }
        if let Err(e) = check_size(settings, text, candidate) {
            return Some(Err(e));
        }
        let parsed = parse_candidate(text, candidate, settings, paths);
        if let Ok(p) = &parsed {
            if overlap == Overlap::Disjoint {
                taken_end = taken_end.max(p.end.max(p.node.span.end));
            }
        }
        Some(parsed.and_then(|p| {
            check_complete(settings, &p, text)?;
            Ok((candidate, p))
        }))
    })
}

/// A candidate larger than `max_payload` is an error, not a reading.
pub(crate) fn check_size(
    settings: &Settings,
    text: &str,
    candidate: &Candidate,
) -> Result<(), Error> {
    match settings.max_payload {
        Some(max) if candidate.span.len() > max => Err(Error::too_large(text, candidate.span, max)),
        _ => Ok(()),
    }
}

/// Under `require_complete`, a value closed by repair is an error.
fn check_complete(settings: &Settings, parsed: &Parsed<'_>, text: &str) -> Result<(), Error> {
    if settings.completeness == Completeness::RequireComplete && !parsed.node.is_complete_deep() {
        return Err(Error::incomplete(text, parsed.node.span.end));
    }
    Ok(())
}

/// Reads a `T` from a parsed candidate: the value with its report (score, completeness,
/// positions when `paths` asks for them), or every issue found.
pub(crate) fn read<T: Extract>(
    text: &str,
    parsed: Parsed<'_>,
    paths: RepairPaths,
) -> Result<Extracted<T>, Vec<Issue>> {
    let mut cx = Context::reading(text, parsed.node.span);
    let result = T::from_node(&parsed.node, &mut cx);
    let (coercions, issues) = cx.into_parts();
    match result {
        Ok(value) if issues.is_empty() => {
            let score = parsed.repairs.iter().map(|r| r.cost).sum::<u32>()
                + coercions.iter().map(|c| c.cost).sum::<u32>();
            let repairs = match paths {
                RepairPaths::Record => with_positions(text, parsed.repairs),
                RepairPaths::Skip => parsed.repairs,
            };
            let report = Report {
                complete: parsed.node.is_complete_deep(),
                span: parsed.node.span,
                repairs,
                coercions,
                score,
            };
            Ok(Extracted {
                value,
                report,
                thoughts: Vec::new(),
            })
        }
        Ok(value) => {
            // Built, but a rule failed: dropped on a stack as deep as the value may need.
            crate::deep::discard(value, crate::deep::drop_depth(&parsed.node, usize::MAX));
            Err(issues)
        }
        Err(Failed) => Err(issues),
    }
}

pub(crate) fn with_positions(text: &str, mut repairs: Vec<Repair>) -> Vec<Repair> {
    let offsets: Vec<usize> = repairs.iter().map(|r| r.span.start).collect();
    for (r, p) in repairs.iter_mut().zip(Position::of_many(text, &offsets)) {
        r.position = Some(p);
    }
    repairs
}

/// Parses one candidate and adds its context repairs.
pub(crate) fn parse_candidate<'t>(
    text: &'t str,
    candidate: &Candidate,
    settings: &Settings,
    paths: parse::RepairPaths,
) -> Result<Parsed<'t>, Error> {
    let mut parsed = if candidate.form == Form::Text {
        let span = candidate.span;
        Parsed {
            end: span.end,
            node: crate::node::Node::new(
                crate::node::NodeKind::String(crate::node::Str {
                    text: std::borrow::Cow::Borrowed(&text[span.start..span.end]),
                    quoting: crate::node::Quoting::Unquoted,
                }),
                span,
            ),
            repairs: Vec::new(),
        }
    } else if candidate.form == Form::Sections {
        let node = crate::locate::sections::sections(text, candidate.span)
            .ok_or_else(|| Error::not_found(text))?;
        Parsed {
            end: candidate.span.end,
            node,
            repairs: Vec::new(),
        }
    } else if candidate.form == Form::Embedded {
        parse_embedded(text, candidate, settings)?
    } else {
        parse::parse_span_with(text, candidate.span, settings.max_depth, paths)?
    };
    frame_repairs(text, candidate, parsed.end, &mut parsed.repairs);
    Ok(parsed)
}

/// [`parse_candidate`] for callers that want only a `serde_json::Value`: built directly by
/// the parser, without the node tree.
pub(crate) fn parse_candidate_value(
    text: &str,
    candidate: &Candidate,
    settings: &Settings,
) -> Result<parse::ParsedValue, Error> {
    if matches!(candidate.form, Form::Sections | Form::Embedded | Form::Text) {
        let parsed = parse_candidate(text, candidate, settings, parse::RepairPaths::Skip)?;
        return Ok(parse::ParsedValue {
            complete: parsed.node.is_complete_deep(),
            value: parsed.node.to_value_in(text, 0),
            repairs: parsed.repairs,
            end: parsed.end,
        });
    }
    let mut parsed = parse::parse_value_span(text, candidate.span, settings.max_depth)?;
    frame_repairs(text, candidate, parsed.end, &mut parsed.repairs);
    Ok(parsed)
}

/// Adds what the candidate's surroundings cost to the parser's repairs: the context repairs
/// first (fence, prose, wrapper), and text left over after the value's `end`.
fn frame_repairs(text: &str, candidate: &Candidate, end: usize, repairs: &mut Vec<Repair>) {
    let trailing = &text[end.min(candidate.span.end)..candidate.span.end];
    if candidate.origin != Origin::Prose && !trailing.trim().is_empty() {
        repairs.push(repair(
            RepairKind::TrailingText,
            Span::new(end, candidate.span.end),
        ));
    }
    let parsed = std::mem::take(repairs);
    repairs.extend(
        candidate
            .context
            .iter()
            .map(|&(kind, span)| repair(kind, span)),
    );
    repairs.extend(parsed);
}

fn repair(kind: RepairKind, span: Span) -> Repair {
    Repair {
        kind,
        span,
        path: Path::root(),
        position: None,
        cost: kind.cost(),
    }
}

/// A JSON string holding a document: decode it, parse the document, and point every span at
/// the string (positions inside the decoded text do not exist in the original).
fn parse_embedded(
    text: &str,
    candidate: &Candidate,
    settings: &Settings,
) -> Result<Parsed<'static>, Error> {
    let literal = &text[candidate.span.start..candidate.span.end];
    let inner: String = crate::locate::decode_embedded(literal).ok_or_else(|| {
        Error::new(vec![Issue::new(
            Category::Syntax,
            Path::root(),
            "invalid escaped JSON string",
        )
        .at(candidate.span)])
    })?;
    let start = inner.len() - inner.trim_start().len();
    let parsed = parse::parse_span(&inner, Span::new(start, inner.len()), settings.max_depth)
        .map_err(|e| {
            Error::new(
                e.issues()
                    .iter()
                    .cloned()
                    .map(|i| Issue {
                        span: Some(candidate.span),
                        position: None,
                        ..i
                    })
                    .collect(),
            )
        })?;
    let mut parsed = parsed.into_owned();
    parsed.node.point_at(candidate.span);
    for r in &mut parsed.repairs {
        r.span = candidate.span;
    }
    parsed.end = candidate.span.end;
    Ok(parsed)
}
