//! Candidate choice: each located candidate parsed (with what its surroundings cost), read
//! as the caller's type, and the one policy for which reading wins and which error is
//! reported when none does.
//!
//! Every entry point of [`Extractor`](crate::Extractor) goes through here: [`best`] (one
//! `T`), [`best_value`] (`repair`), [`every`] (`extract_all`) and [`every_item`]
//! (`from_str_all`). The rules they share:
//! - `max_payload`, `require_complete` and the overlap rule apply to every candidate
//!   ([`parse_checked`], and [`readings`] for each value once);
//! - a typed reading of an unrelated value (an object none of whose keys is one of the
//!   type's, read as a struct whose fields may all be missing) loses to any other, whatever
//!   their costs ([`unrelated`]);
//! - then the reading with the lowest total cost (repairs + coercions) wins; of equal costs, one
//!   the reply marked as its answer (a marker, an answer tag), then the [`TieBreak`] decides
//!   (by default the value written later: an example or draft comes before the answer)
//!   ([`Choice`]);
//! - when no reading fits, the error reported is the one of the candidate that got furthest
//!   ([`Failures`]).

use std::cmp::Reverse;

use crate::coerce::{Context, Extract, Failed};
use crate::error::{Category, Error, Issue};
use crate::extracted::Extracted;
use crate::lex;
use crate::locate::{Candidate, Form, Lead, Located, Origin, Standing};
use crate::node::{Node, NodeKind};
use crate::parse::Kept;
use crate::parse::{self, Parsed, RepairPaths};
use crate::path::Path;
use crate::report::{Coercion, CoercionKind, Repair, RepairKind, Report};
use crate::settings::{Completeness, Settings, TieBreak};
use crate::span::{Position, Span};

/// Parses the candidates in text order, skipping those inside a value already read and plain
/// prose: each value in the text once. Labeled sections are read only for a reader of prose
/// (`prose`, [`Extract::FROM_PROSE`]) and only when no value is written as one. A candidate
/// refused by a setting or the parser comes with its error.
pub(crate) fn readings<'s, 't, 'c>(
    settings: &'s Settings,
    text: &'t str,
    located: &'c Located<'t>,
    paths: RepairPaths,
    prose: bool,
) -> impl Iterator<Item = (&'c Candidate, Result<Parsed<'t>, Error>)> + use<'s, 't, 'c> {
    let sections = if prose && !located.values_written() {
        located.sections(text)
    } else {
        &[]
    };
    let mut order: Vec<&Candidate> = (located.candidates.iter())
        .filter(|c| c.form != Form::Text)
        .chain(sections)
        .collect();
    order.sort_by_key(|c| (c.span.start, c.base_cost));
    // Where the fences and answer tags the markup found start.
    let marked: Vec<usize> = (order.iter())
        .filter(|c| matches!(c.origin, Origin::Fence | Origin::Explicit))
        .map(|c| c.span.start)
        .collect();
    // Candidates come in start order, so everything taken so far lies before `taken_end`:
    // one comparison per candidate instead of a scan of all taken.
    let mut taken_end = 0usize;
    order.into_iter().filter_map(move |candidate| {
        if candidate.span.start < taken_end {
            return None;
        }
        let kept = kept_tree(located, candidate);
        let parsed = parse_checked(settings, text, candidate, paths, kept);
        if let Ok(p) = &parsed {
            let end = p.end.max(p.node.span.end);
            // A reply that starts with a quote read whole as one string whose quotes, read
            // leniently, run into a fence the markup found (`"Sure" I said.` then a fenced
            // value): the fence's value is the reply's, not text of that string.
            let into_fence = candidate.origin == Origin::Whole
                && matches!(p.node.kind, NodeKind::String(_))
                && marked
                    .iter()
                    .any(|&at| candidate.span.start < at && at < end);
            if into_fence {
                return None;
            }
            taken_end = taken_end.max(end);
        }
        Some((candidate, parsed))
    })
}

/// One candidate parsed, unless a setting refuses it: larger than `max_payload`, or cut off
/// under `require_complete`.
pub(crate) fn parse_checked<'t>(
    settings: &Settings,
    text: &'t str,
    candidate: &Candidate,
    paths: RepairPaths,
    kept: Option<Parsed<'t>>,
) -> Result<Parsed<'t>, Error> {
    check_size(settings, text, candidate)?;
    check_nested(settings, text, candidate)?;
    let parsed = parse_candidate(text, candidate, settings, paths, kept)?;
    check_complete(settings, &parsed, text)?;
    Ok(parsed)
}

/// The tree the locate stage read of `candidate`'s span, when it kept one.
fn kept_tree<'t>(located: &Located<'t>, candidate: &Candidate) -> Option<Parsed<'t>> {
    match located.take_kept(candidate)? {
        Kept::Tree(parsed) => Some(parsed),
        Kept::Value(_) => None,
    }
}

/// The best `T` among the located candidates (ranked best first): the lowest total cost, the
/// tie-break between equals; labeled sections only for a type that reads prose and when no
/// value written as one fits it; a list gathered from several values when the type wants a
/// list and no single value is one; or the error of the candidate that got furthest.
pub(crate) fn best<'t, T: Extract>(
    settings: &Settings,
    text: &'t str,
    located: &Located<'t>,
    paths: RepairPaths,
    typed: Option<&TypedReads<T>>,
) -> Result<Extracted<T>, Error> {
    let mut choice = Choice::new(settings, text, &located.candidates);
    let mut cut_off = CutOff::default();
    let reading = Reading {
        settings,
        text,
        located,
        paths,
    };
    for candidate in &located.candidates {
        if !consider::<T>(&mut choice, &mut cut_off, &reading, candidate, typed) {
            break;
        }
    }
    if T::FROM_PROSE && !choice.related() {
        for candidate in located.sections(text) {
            if !consider::<T>(&mut choice, &mut cut_off, &reading, candidate, typed) {
                break;
            }
        }
    }
    if choice.best().is_some_and(wrapped_single) {
        if let Some(list) = gather::<T>(settings, text, located, paths) {
            return Ok(positioned(text, list, paths));
        }
    }
    choice
        .finish(text)
        .map(|extracted| positioned(text, extracted, paths))
}

/// The values cut off by the end of the text that were read as the type, or that the type
/// recognized but that did not fit: a value found inside one of them is a fragment of it.
#[derive(Default)]
struct CutOff {
    spans: Vec<Span>,
}

impl CutOff {
    /// Whether `candidate` was found inside an opener that never closed (`NestedValue`) whose
    /// value was read as the type, or recognized by it (fields or items matched) without
    /// fitting: the candidate is then a fragment of that value. Reading it alone would give an
    /// inner part as if it were the answer (`{"a": [1, 2], "b": {"c` must not become
    /// `[1, 2]`), or drop the rest silently (`[{"id": 1}, {"id": 2, "na` must not become the
    /// list of its second item). The value's own reading, or its error, stands.
    fn holds(&self, candidate: &Candidate) -> bool {
        candidate.nested()
            && (self.spans.iter())
                .any(|s| s.start <= candidate.span.start && candidate.span.end <= s.end)
    }

    /// A reading of `candidate` with these repairs fit or was recognized: when it is a value cut
    /// off by the end of the text, the values inside it are its parts. Not when its keys read
    /// like prose (`Use { to open. Result: {"a": 1}`): a brace in a sentence holds no value.
    fn add(&mut self, candidate: &Candidate, repairs: &[Repair]) {
        let prose = || repairs.iter().any(|r| r.kind == RepairKind::SentenceKey);
        if candidate.form == Form::Unclosed && !prose() {
            self.spans.push(candidate.span);
        }
    }
}

/// What [`best`] reads its candidates with.
#[derive(Clone, Copy)]
struct Reading<'a, 't> {
    settings: &'a Settings,
    text: &'t str,
    located: &'a Located<'t>,
    paths: RepairPaths,
}

/// Reads one candidate as `T` and offers the reading to `choice` (or records why it did not
/// fit); `false` when the choice is settled and no later candidate can win.
fn consider<T: Extract>(
    choice: &mut Choice<Extracted<T>>,
    cut_off: &mut CutOff,
    reading: &Reading<'_, '_>,
    candidate: &Candidate,
    typed: Option<&TypedReads<T>>,
) -> bool {
    let Reading {
        settings,
        text,
        located,
        paths,
    } = *reading;
    if choice.settled(candidate.base_cost) {
        return false; // every later candidate costs at least this much
    }
    if cut_off.holds(candidate) {
        return true;
    }
    if candidate.form == Form::Text {
        read_text(choice, settings, text, candidate, paths);
        return true;
    }
    if let Some(extracted) = direct::<T>(settings, text, candidate, typed) {
        // Read without a coercion, so not of an unrelated value (which ignores keys).
        let depth = crate::coerce::DIRECT_DEPTH;
        choice.offer(extracted.report.score, candidate, extracted, depth);
        return true;
    }
    let kept = kept_tree(located, candidate);
    let parsed = match parse_checked(settings, text, candidate, paths, kept) {
        Ok(parsed) => parsed,
        Err(e) => {
            choice.cut_short(candidate, &e);
            choice.failures.refused(e, candidate.span);
            return true;
        }
    };
    let weak = prose_braces(candidate, &parsed);
    let depth = parsed.node.drop_depth(settings.max_depth);
    // An empty container the reply was cut off in (`Let me know {`) says nothing, for a type
    // as for `repair` (`best_value`): any other value beats it.
    let hollow = candidate.form == Form::Unclosed && hollow_node(&parsed.node);
    let read = read_judged::<T>(settings, text, parsed, paths).or_else(|unread| {
        let literal = literal_reading(settings, text, candidate, paths);
        literal.map(|e| (e, false)).ok_or(unread)
    });
    match read {
        Ok((extracted, unrelated)) => {
            if !unrelated {
                cut_off.add(candidate, &extracted.report.repairs);
            }
            // Its parts are still its own (as in `best_value`), but any other value beats it.
            let unrelated = unrelated || hollow;
            let score = extracted.report.score;
            choice.offer_reading(score, candidate, extracted, depth, unrelated);
        }
        Err(unread) if !weak => {
            if unread.matched > 0 {
                cut_off.add(candidate, &[]);
                choice.cut_short(candidate, &Error::new(unread.issues.clone()));
            }
            choice.failures.unread(unread, candidate.span)
        }
        Err(_) => {} // braces in prose that fit nothing: not a value, not the error
    }
    true
}

/// A JSON string holding a document (`"{\"a\": 1}"`), read as the string it is, for a type
/// the document does not fit (a `String`): the document is decoded only for a type that
/// wants it.
fn literal_reading<T: Extract>(
    settings: &Settings,
    text: &str,
    candidate: &Candidate,
    paths: RepairPaths,
) -> Option<Extracted<T>> {
    if candidate.form != Form::Embedded || !text[candidate.span.start..].starts_with('"') {
        return None;
    }
    let literal = Candidate {
        form: Form::Value,
        context: (candidate.context.iter())
            .filter(|(kind, _)| *kind != RepairKind::EmbeddedJson)
            .copied()
            .collect(),
        ..candidate.clone()
    };
    let parsed = parse_checked(settings, text, &literal, paths, None).ok()?;
    read::<T>(settings, text, parsed, paths).ok()
}

/// The reply as plain text, for a type that reads text: only when nothing else read, and
/// never as the only field of a struct (prose is text, not an object). Its failure (or
/// refusal by a limit) says nothing the other candidates did not, so it is not recorded.
fn read_text<T: Extract>(
    choice: &mut Choice<Extracted<T>>,
    settings: &Settings,
    text: &str,
    candidate: &Candidate,
    paths: RepairPaths,
) {
    if choice.best().is_some() || !T::FROM_PROSE {
        return;
    }
    let Ok(parsed) = parse_checked(settings, text, candidate, paths, None) else {
        return;
    };
    if let Ok(extracted) = read::<T>(settings, text, parsed, paths) {
        let wrapped = extracted
            .report
            .coercions
            .iter()
            .any(|c| c.kind == CoercionKind::WrappedInStruct);
        if !wrapped {
            choice.offer(extracted.report.score, candidate, extracted, 0);
        }
    }
}

/// Whether a reading made one value into the whole list the type wants: then several
/// values in the text may be the list's items.
fn wrapped_single<T>(extracted: &Extracted<T>) -> bool {
    extracted
        .report
        .coercions
        .iter()
        .any(|c| c.kind == CoercionKind::SingleToList && c.path.is_root())
}

/// Every value in the text (each once, in text order, none of them prose braces) as the items
/// of one list, read as `T` ([`CoercionKind::GatheredList`]); `None` unless there are two or
/// more and every one fits as an item (a list the reply wrote is not one, [`list_as_item`]).
/// Only the values introduced highest are gathered: none the reply sets aside, quotes or
/// shows as an example when others it does not ([`Lead`]).
fn gather<'t, T: Extract>(
    settings: &Settings,
    text: &'t str,
    located: &Located<'t>,
    paths: RepairPaths,
) -> Option<Extracted<T>> {
    let mut found = Vec::new();
    for (candidate, parsed) in readings(settings, text, located, paths, T::FROM_PROSE) {
        let Ok(parsed) = parsed else { continue };
        if prose_braces(candidate, &parsed) {
            continue;
        }
        found.push((candidate.lead, parsed));
    }
    let top = found.iter().map(|(lead, _)| *lead).max()?;
    let mut items: Vec<Node<'_>> = Vec::new();
    let mut repairs = Vec::new();
    for (_, parsed) in found.into_iter().filter(|(lead, _)| *lead == top) {
        repairs.extend(parsed.repairs);
        items.push(parsed.node);
    }
    if items.len() < 2 {
        return None;
    }
    let span = Span::new(items[0].span.start, items[items.len() - 1].span.end);
    let complete = items.iter().all(|item| item.complete);
    let mut node = Node::new(NodeKind::Array(items), span);
    node.complete = complete;
    let parsed = Parsed {
        node,
        repairs,
        end: span.end,
    };
    let mut extracted = read::<T>(settings, text, parsed, paths).ok()?;
    if extracted.report.coercions.iter().any(list_as_item) {
        return None;
    }
    let kind = CoercionKind::GatheredList;
    extracted.report.score += kind.cost();
    let gathered = Coercion {
        cost: kind.cost(),
        kind,
        path: Path::root(),
        span,
    };
    extracted.report.coercions.insert(0, gathered);
    Some(extracted)
}

/// Whether a coercion read a list the reply wrote as one item of a gathered list: that value
/// is a list of the items itself, so the values are not gathered.
fn list_as_item(coercion: &Coercion) -> bool {
    coercion.kind == CoercionKind::ListToSingle && coercion.path.segments().len() == 1
}

/// The best value for `repair`: the lowest repair cost, the tie-break between equals, or
/// the error of the candidate that got furthest. Prose, labeled sections included, is never a
/// value here, nor is a part of a value cut off by the end of the text.
pub(crate) fn best_value(
    settings: &Settings,
    text: &str,
    located: &Located,
) -> Result<serde_json::Value, Error> {
    let mut choice = Choice::new(settings, text, &located.candidates);
    let mut cut_off = CutOff::default();
    for candidate in &located.candidates {
        if candidate.form == Form::Text || cut_off.holds(candidate) {
            continue; // schema-less: prose is not a value
        }
        if choice.settled(candidate.base_cost) {
            break; // every later candidate costs at least this much
        }
        let checked = check_size(settings, text, candidate)
            .and_then(|()| check_nested(settings, text, candidate));
        if let Err(e) = checked {
            choice.failures.refused(e, candidate.span);
            continue;
        }
        let kept = match located.take_kept(candidate) {
            Some(Kept::Value(value)) => Some(value),
            _ => None,
        };
        // Valid JSON in a candidate (the usual fenced or prose-wrapped reply): serde_json
        // reads it exactly as the tolerant parser would, and faster.
        // (Not for a value that never closes: serde_json would read all of it to fail.)
        if kept.is_none() && candidate.form == Form::Value && !candidate.nonstandard {
            let slice = &text[candidate.span.start..candidate.span.end];
            if let Some(value) = parse::strict(slice, settings.max_depth) {
                if !value.is_string() {
                    choice.offer(candidate.base_cost, candidate, value, settings.max_depth);
                    continue;
                }
            }
        }
        let parsed = match kept {
            Some(kept) => Ok(framed(text, candidate, kept)),
            None => parse_candidate_value(text, candidate, settings),
        };
        match parsed {
            Ok(parsed)
                if !parsed.complete && settings.completeness == Completeness::RequireComplete =>
            {
                let refusal = Error::incomplete(text, parsed.end);
                if !hollow(&parsed.value) {
                    choice.cut_short(candidate, &refusal);
                }
                choice.failures.refused(refusal, candidate.span);
            }
            Ok(parsed) => {
                cut_off.add(candidate, &parsed.repairs);
                let score = parsed.repairs.iter().map(|r| r.cost).sum::<u32>();
                // An empty container the reply was cut off in (`Let me know {`) says nothing:
                // it is read as a value of no relation to the answer, which any other beats.
                let unrelated = candidate.form == Form::Unclosed && hollow(&parsed.value);
                choice.offer_reading(
                    score,
                    candidate,
                    parsed.value,
                    settings.max_depth,
                    unrelated,
                );
            }
            Err(e) => choice.failures.refused(e, candidate.span),
        }
    }
    choice.finish(text)
}

/// The spans of the `candidates` that are an empty object or array
/// ([`crate::locate::empty_container`]), in order, for a binary search: a reply may hold
/// thousands of them.
fn empty_spans(text: &str, candidates: &[Candidate]) -> Vec<Span> {
    let mut spans: Vec<Span> = (candidates.iter())
        .map(|c| c.span)
        .filter(|&span| crate::locate::empty_container(text, span))
        .collect();
    spans.sort_unstable_by_key(|s| (s.start, s.end));
    spans
}

/// Whether `node` is an empty object or list.
fn hollow_node(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Object(entries) => entries.is_empty(),
        NodeKind::Array(items) => items.is_empty(),
        _ => false,
    }
}

/// Whether `value` is an empty object or list.
fn hollow(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Object(map) => map.is_empty(),
        serde_json::Value::Array(items) => items.is_empty(),
        _ => false,
    }
}

/// Every value in the text that is a `T`, in text order, each with its own report; or the
/// error of the candidate that got furthest.
pub(crate) fn every<'t, T: Extract>(
    settings: &Settings,
    text: &'t str,
    located: &Located<'t>,
    paths: RepairPaths,
) -> Result<Vec<Extracted<T>>, Error> {
    let mut out = Vec::new();
    let mut failures = Failures::default();
    for (candidate, parsed) in readings(settings, text, located, paths, T::FROM_PROSE) {
        let parsed = match parsed {
            Ok(parsed) => parsed,
            Err(e) => {
                failures.refused(e, candidate.span);
                continue;
            }
        };
        let weak = prose_braces(candidate, &parsed);
        // Positions are worked out once for every value below: one pass over the text, where
        // one pass per value would be quadratic in a reply holding many values.
        match read::<T>(settings, text, parsed, RepairPaths::Skip) {
            Ok(extracted) => out.push(extracted),
            Err(unread) if !weak => failures.unread(unread, candidate.span),
            Err(_) => {}
        }
    }
    if out.is_empty() {
        return Err(failures.into_error(text));
    }
    out.sort_by_key(|e| e.report.span.start);
    if paths == RepairPaths::Record {
        let offsets: Vec<usize> = out
            .iter()
            .flat_map(|e| e.report.repairs.iter().map(|r| r.span.start))
            .collect();
        let mut positions = Position::of_many(text, &offsets).into_iter();
        for repair in out.iter_mut().flat_map(|e| e.report.repairs.iter_mut()) {
            repair.position = positions.next();
        }
    }
    Ok(out)
}

/// Every `T` in the text: the items of each array that is a list of `T`, and each other
/// value that is a `T`, in text order; or the error of the candidate that got furthest.
pub(crate) fn every_item<'t, T: Extract>(
    settings: &Settings,
    text: &'t str,
    located: &Located<'t>,
) -> Result<Vec<T>, Error> {
    let mut out = Vec::new();
    let mut failures = Failures::default();
    let paths = RepairPaths::Skip;
    for (candidate, parsed) in readings(settings, text, located, paths, T::FROM_PROSE) {
        let parsed = match parsed {
            Ok(parsed) => parsed,
            Err(e) => {
                failures.refused(e, candidate.span);
                continue;
            }
        };
        if let NodeKind::Array(_) = parsed.node.kind {
            if let Ok(items) = value_of::<Vec<T>>(settings, text, &parsed.node) {
                out.extend(items);
                continue;
            }
        }
        match value_of::<T>(settings, text, &parsed.node) {
            Ok(item) => out.push(item),
            Err(_) if prose_braces(candidate, &parsed) => {}
            Err(unread) => failures.unread(unread, candidate.span),
        }
    }
    if out.is_empty() {
        return Err(failures.into_error(text));
    }
    Ok(out)
}

/// A `T` from `node` (read from `text`) without a report, or what stopped it.
fn value_of<T: Extract>(settings: &Settings, text: &str, node: &Node<'_>) -> Result<T, Unread> {
    let mut cx = Context::reading(text, node, settings.max_depth);
    let result = T::from_node(node, &mut cx);
    let matched = cx.matched();
    let (_, issues) = cx.into_parts();
    match result {
        Ok(value) if issues.is_empty() => Ok(value),
        Ok(value) => {
            // Built, but a rule failed: dropped on a stack as deep as the value may need.
            crate::deep::discard(value, node.drop_depth(usize::MAX));
            Err(Unread { issues, matched })
        }
        Err(Failed) => Err(Unread { issues, matched }),
    }
}

/// Braces in prose around bare words (`Use the {name} placeholder`, `{a, b}`): an object
/// found in prose whose every key is unquoted and has no value. It is a value when it fits the
/// type, but when it fits nothing it is not the error to report: the text holds no JSON.
fn prose_braces(candidate: &Candidate, parsed: &Parsed<'_>) -> bool {
    if candidate.origin != Origin::Prose {
        return false;
    }
    let NodeKind::Object(entries) = &parsed.node.kind else {
        return false;
    };
    let missing = parsed
        .repairs
        .iter()
        .filter(|r| r.kind == RepairKind::MissingValue)
        .count();
    !entries.is_empty()
        && missing >= entries.len()
        && entries
            .iter()
            .all(|e| !e.key.is_quoted() && matches!(e.value.kind, NodeKind::Null))
}

/// The choice among readings: a reading related to the type wins over one that is not
/// ([`unrelated`]), then one the reply does not set aside or show as an example over one it
/// does ([`Lead`]), then, under [`TieBreak::Last`], a value the reply was cut off in over one
/// written before it (see [`Choice::supersedes`]), then the lowest score; of equal scores, one
/// the reply marked as its answer (a caller's marker, an answer tag such as `<json>`), then
/// the one that stands higher ([`Standing`]), then the one the [`TieBreak`] prefers by
/// position. Failures are kept on the side, for the error.
pub(crate) struct Choice<V> {
    tie_break: TieBreak,
    /// Where the text ends, spaces aside: a value that runs there unclosed is the one the
    /// reply was cut off in.
    text_end: usize,
    best: Option<Offer<V>>,
    /// Under [`TieBreak::Last`], whether one of the candidates is a value the reply was cut
    /// off in: until it is read, no other candidate settles the choice.
    cut_ahead: bool,
    /// The value the reply was cut off in, when the type recognized it (fields found, items
    /// read) but it did not fit, or a limit refused it: where it starts, its lead, and why.
    cut_short: Option<(Span, Lead, Error)>,
    /// The spans of the candidates that are an empty object or array ([`empty_spans`]).
    empty: Vec<Span>,
    pub failures: Failures,
}

/// A reading that fits, and what the choice compares.
struct Offer<V> {
    unrelated: bool,
    lead: Lead,
    score: u32,
    depth: usize,
    explicit: bool,
    standing: Standing,
    empty: bool,
    /// The value the reply was cut off in.
    cut: bool,
    span: Span,
    value: V,
}

impl<V> Choice<V> {
    pub fn new(settings: &Settings, text: &str, candidates: &[Candidate]) -> Choice<V> {
        let mut choice = Choice {
            tie_break: settings.tie_break,
            text_end: lex::trim_end(text).len(),
            best: None,
            cut_ahead: false,
            cut_short: None,
            empty: empty_spans(text, candidates),
            failures: Failures::default(),
        };
        choice.cut_ahead =
            settings.tie_break == TieBreak::Last && candidates.iter().any(|c| choice.cut_at_end(c));
        choice
    }

    /// Whether `candidate` is a value the reply was cut off in: it never closes and runs to
    /// the end of the text (not to a fence's end, where the text goes on).
    fn cut_at_end(&self, candidate: &Candidate) -> bool {
        candidate.form == Form::Unclosed && candidate.span.end >= self.text_end
    }

    /// Whether the value the reply was cut off in (`cut`, `span`) takes the place of a value
    /// written before it (`other`, `explicit` when the reply marked it as its answer): under
    /// [`TieBreak::Last`] the later value is the answer, and one written before it must not
    /// stand for it as if the reply were whole (a draft or example, then the answer cut off).
    /// Under [`TieBreak::First`] the first stands, as does a value marked as the answer.
    fn supersedes(&self, cut: bool, span: Span, other: Span, explicit: bool) -> bool {
        cut && !explicit && self.tie_break == TieBreak::Last && other.end <= span.start
    }

    /// A value the reply was cut off in that the type recognized but that did not fit, or
    /// that a limit refused (`require_complete`): `error` says why. No value written before
    /// it stands for it ([`Choice::supersedes`]); the choice ends in that error instead.
    pub fn cut_short(&mut self, candidate: &Candidate, error: &Error) {
        if self.cut_at_end(candidate) && self.tie_break == TieBreak::Last {
            let error = Error::new(error.issues().to_vec());
            self.cut_short = Some((candidate.span, candidate.lead, error));
        }
    }

    /// Whether no candidate costing at least `base_cost` can win any more (candidates come
    /// best-ranked first, so none after it can either). An equal cost can still win a tie,
    /// and any cost can beat a reading of an unrelated value or of one the reply sets aside.
    pub fn settled(&self, base_cost: u32) -> bool {
        self.best.as_ref().is_some_and(|b| {
            b.score < base_cost
                && !b.unrelated
                && b.lead == Lead::Plain
                && (!self.cut_ahead || b.explicit)
        })
    }

    /// A reading of `candidate` that fits, with its total `score`; `depth` bounds how deep the
    /// value is nested, for dropping it safely if it loses (see [`crate::deep::discard`]).
    pub fn offer(&mut self, score: u32, candidate: &Candidate, value: V, depth: usize) {
        self.offer_reading(score, candidate, value, depth, false);
    }

    /// [`Choice::offer`] for a typed reading, saying whether it is of a value unrelated to
    /// the type ([`unrelated`]): such a reading wins only against other such readings.
    pub fn offer_reading(
        &mut self,
        score: u32,
        candidate: &Candidate,
        value: V,
        depth: usize,
        unrelated: bool,
    ) {
        let explicit = candidate.origin == Origin::Explicit;
        let (standing, lead) = (candidate.standing, candidate.lead);
        let span = candidate.span;
        let cut = !unrelated && self.cut_at_end(candidate);
        let empty = (self.empty)
            .binary_search_by_key(&(span.start, span.end), |s| (s.start, s.end))
            .is_ok();
        let wins = match &self.best {
            None => true,
            Some(b) => {
                if unrelated != b.unrelated {
                    !unrelated
                } else if lead != b.lead {
                    lead > b.lead
                } else if self.supersedes(cut, span, b.span, b.explicit) {
                    true
                } else if self.supersedes(b.cut, b.span, span, explicit) {
                    false
                } else if score != b.score {
                    score < b.score
                } else if explicit != b.explicit {
                    explicit
                } else if standing != b.standing {
                    standing > b.standing
                } else if empty != b.empty {
                    !empty
                } else {
                    self.tie_break.prefers(span, b.span)
                }
            }
        };
        // The value that loses may be nested deeply (a raised `max_depth`): dropped safely.
        let beaten = if wins {
            let offer = Offer {
                unrelated,
                lead,
                score,
                depth,
                explicit,
                standing,
                empty,
                cut,
                span,
                value,
            };
            self.best.replace(offer).map(|b| (b.value, b.depth))
        } else {
            Some((value, depth))
        };
        if let Some((beaten, depth)) = beaten {
            crate::deep::discard(beaten, depth);
        }
    }

    /// Whether a reading related to the type fits (not only one of an unrelated value).
    pub fn related(&self) -> bool {
        self.best.as_ref().is_some_and(|b| !b.unrelated)
    }

    /// The winning reading so far.
    pub fn best(&self) -> Option<&V> {
        self.best.as_ref().map(|b| &b.value)
    }

    /// The winner, or the error of the candidate that got furthest ("no JSON found" when
    /// there was none). A winner written before a value the reply was cut off in that the
    /// type recognized but could not read gives that value's error instead
    /// ([`Choice::cut_short`]).
    pub fn finish(self, text: &str) -> Result<V, Error> {
        match (self.best, self.cut_short) {
            (Some(b), Some((span, lead, error)))
                if b.span.end <= span.start && !b.explicit && (b.unrelated || lead >= b.lead) =>
            {
                crate::deep::discard(b.value, b.depth);
                Err(error.with_positions(text))
            }
            (Some(b), _) => Ok(b.value),
            (None, _) => Err(self.failures.into_error(text)),
        }
    }
}

/// Whether a reading that fits is of a value unrelated to the type: it matched nothing of the
/// type ([`Context::matched`]: no field found by its key, no item or entry read, no variant
/// named) and ignored keys (an object whose keys are all unknown to a struct whose fields may
/// all be missing). An empty object or list is not unrelated: "nothing" is an answer.
pub(crate) fn unrelated(coercions: &[Coercion], matched: u32) -> bool {
    matched == 0 && coercions.iter().any(|c| c.kind == CoercionKind::UnknownKey)
}

impl TieBreak {
    /// Whether a reading at `span` beats an equally good one at `other`. Of two nested
    /// values the larger wins either way.
    fn prefers(self, span: Span, other: Span) -> bool {
        match self {
            TieBreak::Last => (span.end, Reverse(span.start)) > (other.end, Reverse(other.start)),
            TieBreak::First => (span.start, Reverse(span.end)) < (other.start, Reverse(other.end)),
        }
    }
}

/// What stopped a candidate from being read as the type: its issues, and how much of the
/// type it matched before ([`Context::matched`]).
pub(crate) struct Unread {
    issues: Vec<Issue>,
    matched: u32,
}

/// The failures seen so far, kept as the one that got furthest.
///
/// "Furthest", best first:
/// 1. a reading that matched part of the type (fields found, items read, a variant named):
///    the most matched, then the fewest issues, then the largest span;
/// 2. a candidate refused before reading (larger than `max_payload`, nested deeper than
///    `max_depth`, cut off under `require_complete`, unreadable syntax): the largest span;
/// 3. a reading that matched nothing of the type: the fewest issues, then the largest span.
///
/// Braces in prose around bare words are never recorded; with nothing recorded the error
/// is "no JSON found". On a tie, the candidate recorded first (the better ranked) stays.
#[derive(Default)]
pub(crate) struct Failures {
    furthest: Option<(Reach, Error)>,
}

/// How far a failure got; greater is further.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Reach {
    stage: u8,
    matched: u32,
    fewest_issues: Reverse<usize>,
    span: usize,
}

impl Failures {
    /// A candidate refused before it was read as the type.
    pub fn refused(&mut self, error: Error, span: Span) {
        let reach = Reach {
            stage: 2,
            matched: 0,
            fewest_issues: Reverse(0),
            span: span.len(),
        };
        self.keep(reach, || error);
    }

    /// A candidate read as the type that did not fit.
    pub fn unread(&mut self, unread: Unread, span: Span) {
        let reach = Reach {
            stage: if unread.matched > 0 { 3 } else { 1 },
            matched: unread.matched,
            fewest_issues: Reverse(unread.issues.len()),
            span: span.len(),
        };
        self.keep(reach, || Error::new(unread.issues));
    }

    fn keep(&mut self, reach: Reach, error: impl FnOnce() -> Error) {
        if self.furthest.as_ref().is_none_or(|(r, _)| reach > *r) {
            self.furthest = Some((reach, error()));
        }
    }

    /// The error to report: the furthest failure's, or "no JSON found".
    pub fn into_error(self, text: &str) -> Error {
        match self.furthest {
            Some((_, e)) if !e.issues().is_empty() => e.with_positions(text),
            _ => match crate::locate::value_in_reasoning(text, &Settings::default()) {
                Some((block, closed)) => Error::only_in_reasoning(text, block, closed),
                None => Error::not_found(text),
            },
        }
    }
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

/// Under `require_complete`, a value found inside an opener that never closed is an error: the
/// reply was cut off inside the value it belongs to.
fn check_nested(settings: &Settings, text: &str, candidate: &Candidate) -> Result<(), Error> {
    if settings.completeness == Completeness::RequireComplete && candidate.nested() {
        return Err(Error::incomplete(text, text.len()));
    }
    Ok(())
}

/// Under `require_complete`, a value closed by repair is an error.
fn check_complete(settings: &Settings, parsed: &Parsed<'_>, text: &str) -> Result<(), Error> {
    if settings.completeness == Completeness::RequireComplete && !parsed.node.is_complete_deep() {
        return Err(Error::incomplete(text, parsed.node.span.end));
    }
    Ok(())
}

/// The direct path (see [`Direct`](crate::coerce::Direct)) on one candidate whose text is
/// strict JSON: what [`read`] gives for it when its parse repairs nothing and its reading
/// records no coercion, without the tree; or a stream's reading of the candidate's value
/// ([`Given`](crate::coerce::Given)) with the repairs it logged. `None` when it does not
/// apply; the candidate is then parsed and read.
fn direct<T: Extract>(
    settings: &Settings,
    text: &str,
    candidate: &Candidate,
    typed: Option<&TypedReads<T>>,
) -> Option<Extracted<T>> {
    if !settings.direct || candidate.form != Form::Value {
        return None;
    }
    // A candidate whose text is not strict JSON is read here only from a stream's reading.
    let given_only = candidate.nonstandard;
    if given_only && typed.is_none() {
        return None;
    }
    check_size(settings, text, candidate).ok()?;
    check_nested(settings, text, candidate).ok()?;
    let (value, span, made) = match typed.and_then(|typed| typed.take(text, candidate.span)) {
        Some(read) => read,
        None => match typed {
            Some(typed) => crate::coerce::read_direct_with(
                text,
                candidate.span,
                settings.max_depth,
                &typed.given,
                given_only,
            )?,
            None => {
                let (value, span) =
                    crate::coerce::read_direct::<T>(text, candidate.span, settings.max_depth)?;
                (value, span, crate::coerce::Made::default())
            }
        },
    };
    let mut repairs = made.repairs;
    frame_repairs(text, candidate, span.end, &mut repairs);
    Some(Extracted {
        value,
        report: Report::new(repairs, made.coercions, !candidate.nested(), span),
        thoughts: Vec::new(),
    })
}

/// The values of `T` read straight from strict JSON while locating
/// ([`crate::locate::locate_typed`]): the direct path's reading of a value the tail found
/// that way, made once, and taken by [`direct`] when its candidate is considered.
pub(crate) struct TypedReads<T> {
    max_depth: usize,
    reads: std::cell::RefCell<Vec<crate::coerce::GivenValue<T>>>,
    /// A value already read (a stream's), taken instead of reading its container.
    given: crate::coerce::Given<T>,
}

impl<T> TypedReads<T> {
    pub(crate) fn new(max_depth: usize, given: Option<crate::coerce::GivenValue<T>>) -> Self {
        TypedReads {
            max_depth,
            reads: std::cell::RefCell::new(Vec::new()),
            given: crate::coerce::Given::new(given),
        }
    }

    /// The value read of the container at the start of `span`, when only spaces follow it up
    /// to `span.end` (what the direct path asks of a candidate).
    fn take(&self, text: &str, span: Span) -> Option<(T, Span, crate::coerce::Made)> {
        let mut reads = self.reads.borrow_mut();
        let i = reads
            .iter()
            .position(|(read, ..)| read.start == span.start)?;
        let rest = text.as_bytes().get(reads[i].0.end..span.end)?;
        if !crate::coerce::json_space_only(rest) {
            return None;
        }
        let (read, value, made) = reads.swap_remove(i);
        Some((value, read, made))
    }
}

impl<T: Extract> crate::locate::ReadTyped for TypedReads<T> {
    fn read(&self, text: &str, span: Span) -> Option<(usize, bool)> {
        let (value, read, made) =
            crate::coerce::read_container::<T>(text, span, self.max_depth, &self.given)?;
        let strict = made.repairs.is_empty();
        self.reads.borrow_mut().push((read, value, made));
        Some((read.end, strict))
    }

    fn forget(&self, at: usize) {
        let mut reads = self.reads.borrow_mut();
        if reads.last().is_some_and(|(read, ..)| read.start == at) {
            reads.pop();
        }
    }
}

/// Reads a `T` from a parsed candidate: the value with its report (score, completeness; the
/// repairs' positions are added to the winner only, by [`positioned`]), or what stopped it.
pub(crate) fn read<T: Extract>(
    settings: &Settings,
    text: &str,
    parsed: Parsed<'_>,
    paths: RepairPaths,
) -> Result<Extracted<T>, Unread> {
    read_judged(settings, text, parsed, paths).map(|(extracted, _)| extracted)
}

/// [`read`], with whether the value read is unrelated to the type ([`unrelated`]).
fn read_judged<T: Extract>(
    settings: &Settings,
    text: &str,
    parsed: Parsed<'_>,
    paths: RepairPaths,
) -> Result<(Extracted<T>, bool), Unread> {
    let mut cx = Context::reading(text, &parsed.node, settings.max_depth);
    if paths == RepairPaths::Skip {
        cx.skip_coercion_paths();
    }
    let result = T::from_node(&parsed.node, &mut cx);
    let matched = cx.matched();
    let (coercions, issues) = cx.into_parts();
    match result {
        Ok(value) if issues.is_empty() => {
            let complete = parsed.node.is_complete_deep();
            let repairs = parsed.repairs;
            let unrelated = unrelated(&coercions, matched);
            let extracted = Extracted {
                value,
                report: Report::new(repairs, coercions, complete, parsed.node.span),
                thoughts: Vec::new(),
            };
            Ok((extracted, unrelated))
        }
        Ok(value) => {
            // Built, but a rule failed: dropped on a stack as deep as the value may need.
            crate::deep::discard(value, parsed.node.drop_depth(usize::MAX));
            Err(Unread { issues, matched })
        }
        Err(Failed) => Err(Unread { issues, matched }),
    }
}

/// The winner with its repairs' `line:column`, when `paths` asks for what only a report
/// shows. Only the winner's: one pass over the text per candidate read would be quadratic in
/// a reply holding many candidates.
fn positioned<T>(text: &str, mut extracted: Extracted<T>, paths: RepairPaths) -> Extracted<T> {
    if paths == RepairPaths::Record {
        let repairs = std::mem::take(&mut extracted.report.repairs);
        extracted.report.repairs = with_positions(text, repairs);
    }
    extracted
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
    kept: Option<Parsed<'t>>,
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
    } else if let Form::Sections(lists) = candidate.form {
        crate::locate::sections::read(text, candidate.span, lists, settings.max_depth)
            .ok_or_else(|| Error::not_found(text))?
    } else if candidate.form == Form::Embedded {
        parse_embedded(text, candidate, settings)?
    } else if let Some(kept) = kept {
        kept
    } else {
        parse::parse_span_with(text, candidate.span, settings.max_depth, paths)?
    };
    frame_repairs(text, candidate, parsed.end, &mut parsed.repairs);
    // Found inside an opener that never closed: the reply was cut off in the value it belongs to.
    parsed.node.complete &= !candidate.nested();
    Ok(parsed)
}

/// [`parse_candidate`] for callers that want only a `serde_json::Value`: built directly by
/// the parser, without the node tree.
pub(crate) fn parse_candidate_value(
    text: &str,
    candidate: &Candidate,
    settings: &Settings,
) -> Result<parse::ParsedValue, Error> {
    if matches!(
        candidate.form,
        Form::Sections(_) | Form::Embedded | Form::Text
    ) {
        let parsed = parse_candidate(text, candidate, settings, parse::RepairPaths::Skip, None)?;
        return Ok(parse::ParsedValue {
            complete: parsed.node.is_complete_deep(),
            value: parsed.node.to_value_in(text, 0),
            repairs: parsed.repairs,
            end: parsed.end,
        });
    }
    let parsed = parse::parse_value_span(text, candidate.span, settings.max_depth)?;
    Ok(framed(text, candidate, parsed))
}

/// The parser's reading of a candidate's span with what its surroundings cost.
fn framed(text: &str, candidate: &Candidate, mut parsed: parse::ParsedValue) -> parse::ParsedValue {
    frame_repairs(text, candidate, parsed.end, &mut parsed.repairs);
    parsed.complete &= !candidate.nested();
    parsed
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
    // In place: a damaged reply logs a repair per string or key, and a copy of the log
    // would be alive beside it at the peak.
    let context = candidate.context.iter();
    repairs.splice(0..0, context.map(|&(kind, span)| repair(kind, span)));
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

#[cfg(test)]
mod tests {
    use super::*;

    fn issue(path: &str) -> Issue {
        Issue::new(Category::Missing, Path::root().key(path), "missing")
    }

    #[test]
    fn tie_breaks_by_position_and_the_larger_of_nested_values() {
        let (early, late) = (Span::new(0, 10), Span::new(20, 30));
        assert!(TieBreak::Last.prefers(late, early));
        assert!(!TieBreak::Last.prefers(early, late));
        assert!(TieBreak::First.prefers(early, late));
        let (outer, inner) = (Span::new(0, 30), Span::new(5, 30));
        assert!(TieBreak::Last.prefers(outer, inner));
        let (outer, inner) = (Span::new(0, 30), Span::new(0, 10));
        assert!(TieBreak::First.prefers(outer, inner));
    }

    #[test]
    fn the_furthest_failure_is_kept() {
        let mut f = Failures::default();
        let unread = |issues: Vec<Issue>, matched| Unread { issues, matched };
        // Nothing matched: beaten by a refusal, which is beaten by a partial match.
        f.unread(unread(vec![issue("a")], 0), Span::new(0, 50));
        f.refused(Error::single(Category::TooLarge, "big"), Span::new(0, 5));
        assert_eq!(
            f.furthest.as_ref().unwrap().1.category(),
            Category::TooLarge
        );
        f.unread(unread(vec![issue("b"), issue("c")], 1), Span::new(0, 5));
        f.unread(unread(vec![issue("d")], 1), Span::new(0, 5));
        f.unread(unread(vec![issue("e")], 1), Span::new(0, 3));
        let kept = &f.furthest.as_ref().unwrap().1;
        assert_eq!(kept.issues()[0].path.to_string(), "$.d");
        // More of the type matched wins over fewer issues.
        f.unread(unread(vec![issue("x"), issue("y")], 3), Span::new(0, 1));
        let kept = f.into_error("");
        assert_eq!(kept.issues()[0].path.to_string(), "$.x");
        assert_eq!(
            Failures::default().into_error("text").category(),
            Category::NotFound
        );
    }
}
