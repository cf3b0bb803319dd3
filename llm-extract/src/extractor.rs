//! The entry points: settings, candidate ranking, and the schema-aligned choice of reading.

use crate::coerce::{Context, Extract};
use crate::error::{Error, Issue};
use crate::locate::{self, Form};
use crate::parse::{self, RepairPaths};
use crate::report::Report;
use crate::select::{self, Overlap};
use crate::settings::{Completeness, Settings};
use crate::span::Span;
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

/// Extraction settings; every free function uses `Extractor::new()`. Build one and reuse it:
/// building allocates its default tag lists.
///
/// ```
/// let e = llm_extract::Extractor::new().marker("TOOL_CALL").max_payload(8_000);
/// let v = e.repair("I'll search.\nTOOL_CALL {'tool': 'search', query: 'rust'}").unwrap();
/// assert_eq!(v, serde_json::json!({"tool": "search", "query": "rust"}));
/// ```
#[derive(Clone, Debug)]
pub struct Extractor {
    pub(crate) settings: Settings,
}

impl Default for Extractor {
    fn default() -> Extractor {
        Extractor::new()
    }
}

impl Extractor {
    /// Default settings: no markers, the usual tags, depth limit 128, no size limit.
    pub fn new() -> Extractor {
        Extractor {
            settings: Settings::default(),
        }
    }

    /// Text right after `marker` (such as `TOOL_CALL`) is looked at first.
    pub fn marker(mut self, marker: impl Into<String>) -> Extractor {
        let marker = marker.into();
        if !marker.is_empty() {
            self.settings.markers.push(marker);
        }
        self
    }

    /// Text between `start` and `end` (such as `---JSON_OUTPUT_START---` and
    /// `---JSON_OUTPUT_END---`, which are set by default) is looked at first.
    pub fn marker_pair(mut self, start: impl Into<String>, end: impl Into<String>) -> Extractor {
        let (start, end) = (start.into(), end.into());
        if !start.is_empty() && !end.is_empty() {
            self.settings.marker_pairs.push((start, end));
        }
        self
    }

    /// Content of `<name>...</name>` is a preferred candidate (`json`, `output`,
    /// `tool_call`, ... are set by default).
    pub fn tag(mut self, name: impl Into<String>) -> Extractor {
        self.settings.tags.push(name.into().to_ascii_lowercase());
        self
    }

    /// Content of `<name>...</name>` is reasoning: kept as thoughts, never parsed as the
    /// answer (`think`, `thinking`, `reasoning`, ... are set by default).
    pub fn reasoning_tag(mut self, name: impl Into<String>) -> Extractor {
        self.settings
            .reasoning_tags
            .push(name.into().to_ascii_lowercase());
        self
    }

    /// Candidates longer than `bytes` are skipped.
    pub fn max_payload(mut self, bytes: usize) -> Extractor {
        self.settings.max_payload = Some(bytes);
        self
    }

    /// Nesting deeper than `depth` is an error (default 128).
    ///
    /// Any depth is safe to allow: the parser keeps its own stack and readers grow theirs on
    /// the heap, so a reply nested 100,000 levels deep gives its value (or this error), never
    /// a stack overflow. A `serde_json::Value` that deep is yours to drop in a loop, though:
    /// its own `Drop` recurses (the README's "Deep input" section shows how).
    pub fn max_depth(mut self, depth: usize) -> Extractor {
        self.settings.max_depth = depth.max(1);
        self
    }

    /// A value cut off by the end of the text is an error instead of being closed.
    pub fn require_complete(mut self) -> Extractor {
        self.settings.completeness = Completeness::RequireComplete;
        self
    }

    /// The JSON value in `text`, repaired.
    pub fn repair(&self, text: &str) -> Result<serde_json::Value, Error> {
        // Fast path: the whole text is valid JSON.
        if self
            .settings
            .max_payload
            .is_none_or(|max| text.len() <= max)
        {
            if let Some(value) = parse::strict(text, self.settings.max_depth) {
                return Ok(value);
            }
        }
        let located = locate::locate(text, &self.settings);
        let mut best: Option<(u32, serde_json::Value)> = None;
        let mut first_error = None;
        for candidate in &located.candidates {
            if candidate.form == Form::Text {
                continue; // schema-less: prose is not a value
            }
            if best
                .as_ref()
                .is_some_and(|(score, _)| *score <= candidate.base_cost)
            {
                break; // every later candidate costs at least this much
            }
            if let Err(e) = select::check_size(&self.settings, text, candidate) {
                first_error.get_or_insert(e);
                continue;
            }
            // Valid JSON in a candidate (the usual fenced or prose-wrapped reply): serde_json
            // reads it exactly as the tolerant parser would, and faster.
            // (Not for a value that never closes: serde_json would read all of it to fail.)
            if candidate.form == Form::Value {
                let slice = &text[candidate.span.start..candidate.span.end];
                if let Some(value) = parse::strict(slice, self.settings.max_depth) {
                    if !value.is_string() {
                        if let Some((_, beaten)) = best.replace((candidate.base_cost, value)) {
                            crate::deep::drop_value(beaten); // it may be nested deeply
                        }
                        continue;
                    }
                }
            }
            match select::parse_candidate_value(text, candidate, &self.settings) {
                Ok(parsed)
                    if !parsed.complete
                        && self.settings.completeness == Completeness::RequireComplete =>
                {
                    first_error.get_or_insert_with(|| Error::incomplete(text, parsed.end));
                }
                Ok(parsed) => {
                    let score = parsed.repairs.iter().map(|r| r.cost).sum::<u32>();
                    let beaten = if best.as_ref().is_none_or(|(s, _)| score < *s) {
                        best.replace((score, parsed.value)).map(|(_, v)| v)
                    } else {
                        Some(parsed.value)
                    };
                    if let Some(beaten) = beaten {
                        crate::deep::drop_value(beaten);
                    }
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        match best {
            Some((_, value)) => Ok(value),
            None => Err(first_error.unwrap_or_else(|| Error::not_found(text))),
        }
    }

    /// Every JSON value in `text`, repaired, in order.
    pub fn repair_all(&self, text: &str) -> Result<Vec<serde_json::Value>, Error> {
        if self
            .settings
            .max_payload
            .is_none_or(|max| text.len() <= max)
        {
            if let Some(value) = parse::strict(text, self.settings.max_depth) {
                return Ok(vec![value]);
            }
        }
        Ok(self
            .extract_all::<serde_json::Value>(text)?
            .into_iter()
            .map(|e| e.value)
            .collect())
    }

    /// Every value in `text` that is a `T`, in text order, each with its own report.
    ///
    /// Unlike [`Extractor::from_str_all`], an array is one value here, not a list of items.
    ///
    /// ```
    /// let all = llm_extract::Extractor::new()
    ///     .extract_all::<serde_json::Value>("{\"a\": 1}\n{'a': 2}")
    ///     .unwrap();
    /// assert_eq!(all.len(), 2);
    /// assert!(all[0].report.repairs.iter().all(|r| r.kind != llm_extract::RepairKind::NonStandardQuotes));
    /// assert!(all[1].report.repairs.iter().any(|r| r.kind == llm_extract::RepairKind::NonStandardQuotes));
    /// ```
    pub fn extract_all<T: Extract>(&self, text: &str) -> Result<Vec<Extracted<T>>, Error> {
        self.extract_all_with(text, RepairPaths::Record)
    }

    fn extract_all_with<T: Extract>(
        &self,
        text: &str,
        paths: RepairPaths,
    ) -> Result<Vec<Extracted<T>>, Error> {
        let located = locate::locate(text, &self.settings);
        let thoughts: Vec<String> = located
            .thoughts
            .iter()
            .map(|s| text[s.start..s.end].trim().to_string())
            .collect();
        let mut out = Vec::new();
        let mut first_error = None;
        for reading in select::readings(
            &self.settings,
            text,
            &located.candidates,
            Overlap::Disjoint,
            paths,
        ) {
            let parsed = match reading {
                Ok((_, parsed)) => parsed,
                Err(e) => {
                    first_error.get_or_insert(e);
                    continue;
                }
            };
            match select::read::<T>(text, parsed, paths) {
                Ok(mut extracted) => {
                    extracted.thoughts = thoughts.clone();
                    out.push(extracted);
                }
                Err(issues) => {
                    first_error.get_or_insert_with(|| Error::new(issues).with_positions(text));
                }
            }
        }
        if out.is_empty() {
            return Err(first_error.unwrap_or_else(|| Error::not_found(text)));
        }
        out.sort_by_key(|e| e.report.span.start);
        Ok(out)
    }

    /// The best `T` in `text`.
    pub fn from_str<T: Extract>(&self, text: &str) -> Result<T, Error> {
        self.extract(text).map(|e| e.value)
    }

    /// The best `T` in `text`, with the report of repairs and coercions.
    pub fn extract<T: Extract>(&self, text: &str) -> Result<Extracted<T>, Error> {
        self.extract_with(text, RepairPaths::Record)
    }

    /// [`Extractor::extract`], optionally without the repair paths and positions that only
    /// the report shows (the value and the choice are the same).
    fn extract_with<T: Extract>(
        &self,
        text: &str,
        paths: RepairPaths,
    ) -> Result<Extracted<T>, Error> {
        if let Some(done) = self.whole_clean_value(text, paths) {
            return Ok(done);
        }
        let located = locate::locate(text, &self.settings);
        let mut best: Option<(u32, Extracted<T>)> = None;
        // The depth of the tree `best` was read from (a plain-text reading has none).
        let mut best_depth = 0;
        let mut failures: Vec<(usize, u32, Vec<Issue>)> = Vec::new();
        for reading in select::readings(
            &self.settings,
            text,
            &located.candidates,
            Overlap::Ranked,
            paths,
        ) {
            let (candidate, parsed) = match reading {
                Ok(r) => r,
                Err(e) => {
                    failures.push((e.issues().len(), u32::MAX, e.issues().to_vec()));
                    continue;
                }
            };
            if candidate.form == Form::Text {
                // The reply as plain text: only when nothing else read, for a type that
                // reads text; its failure says nothing the other candidates did not.
                if best.is_some() || !T::FROM_PROSE {
                    continue;
                }
                // Prose is text, not an object: a struct does not take it as its only field.
                if let Ok(extracted) = select::read::<T>(text, parsed, paths) {
                    let wrapped = extracted
                        .report
                        .coercions
                        .iter()
                        .any(|c| c.kind == crate::CoercionKind::WrappedInStruct);
                    if !wrapped {
                        best = Some((extracted.report.score, extracted));
                    }
                }
                continue;
            }
            if let Some((score, _)) = &best {
                if *score <= candidate.base_cost {
                    break; // every later candidate costs at least this much
                }
            }
            let repairs_cost: u32 = parsed.repairs.iter().map(|r| r.cost).sum();
            let depth = crate::deep::drop_depth(&parsed.node, self.settings.max_depth);
            match select::read::<T>(text, parsed, paths) {
                // The candidate's context repairs are among the repairs already.
                Ok(extracted)
                    if best
                        .as_ref()
                        .is_none_or(|(s, _)| extracted.report.score < *s) =>
                {
                    let beaten = best.replace((extracted.report.score, extracted));
                    crate::deep::discard(beaten, std::mem::replace(&mut best_depth, depth));
                }
                Ok(worse) => crate::deep::discard(worse, depth),
                Err(issues) => failures.push((issues.len().max(1), repairs_cost, issues)),
            }
        }
        match best {
            Some((_, mut extracted)) => {
                extracted.thoughts = located
                    .thoughts
                    .iter()
                    .map(|s| text[s.start..s.end].trim().to_string())
                    .collect();
                Ok(extracted)
            }
            None => {
                // Report the candidate that came closest: fewest issues, then fewest repairs.
                failures.sort_by_key(|(n, cost, _)| (*n, *cost));
                match failures.into_iter().next() {
                    Some((_, _, issues)) if !issues.is_empty() => {
                        Err(Error::new(issues).with_positions(text))
                    }
                    _ => Err(Error::not_found(text)),
                }
            }
        }
    }

    /// The usual API reply is one clean JSON object or array and nothing else. Then it is the
    /// only candidate locate could find (and no reasoning tag can hide in valid JSON), so the
    /// scan is skipped. `None` sends the caller down the general path, which also builds
    /// the errors.
    fn whole_clean_value<T: Extract>(
        &self,
        text: &str,
        paths: RepairPaths,
    ) -> Option<Extracted<T>> {
        let trimmed = text.trim_start();
        if !(trimmed.starts_with('{') || trimmed.starts_with('[')) {
            return None;
        }
        if self
            .settings
            .max_payload
            .is_some_and(|max| text.trim().len() > max)
        {
            return None;
        }
        let start = text.len() - trimmed.len();
        let span = Span::new(start, start + trimmed.trim_end().len());
        let parsed = parse::parse_span_with(text, span, self.settings.max_depth, paths).ok()?;
        if !parsed.repairs.is_empty() || parsed.end != span.end {
            return None;
        }
        let mut cx = Context::reading(text, parsed.node.span);
        let value = T::from_node(&parsed.node, &mut cx).ok()?;
        let (coercions, issues) = cx.into_parts();
        if !issues.is_empty() {
            return None;
        }
        let score = coercions.iter().map(|c| c.cost).sum();
        let report = Report {
            repairs: Vec::new(),
            coercions,
            score,
            complete: true,
            span: parsed.node.span,
        };
        Some(Extracted {
            value,
            report,
            thoughts: Vec::new(),
        })
    }

    /// Every `T` in `text`: the items of a JSON array, a single value, or several blocks.
    pub fn from_str_all<T: Extract>(&self, text: &str) -> Result<Vec<T>, Error> {
        let located = locate::locate(text, &self.settings);
        let mut out = Vec::new();
        let mut failure: Option<Vec<Issue>> = None;
        for reading in select::readings(
            &self.settings,
            text,
            &located.candidates,
            Overlap::Disjoint,
            RepairPaths::Skip,
        ) {
            let parsed = match reading {
                Ok((_, parsed)) => parsed,
                Err(e) => {
                    failure.get_or_insert_with(|| e.issues().to_vec());
                    continue;
                }
            };
            let mut cx = Context::reading(text, parsed.node.span);
            let depth = crate::deep::drop_depth(&parsed.node, self.settings.max_depth);
            if let crate::node::NodeKind::Array(_) = parsed.node.kind {
                match Vec::<T>::from_node(&parsed.node, &mut cx) {
                    Ok(items) if cx.issues().is_empty() => {
                        out.extend(items);
                        continue;
                    }
                    other => crate::deep::discard(other, depth),
                }
                cx = Context::reading(text, parsed.node.span);
            }
            match T::from_node(&parsed.node, &mut cx) {
                Ok(item) if cx.issues().is_empty() => out.push(item),
                other => {
                    crate::deep::discard(other, depth);
                    failure.get_or_insert_with(|| cx.into_parts().1);
                }
            }
        }
        if out.is_empty() {
            return Err(match failure {
                Some(issues) if !issues.is_empty() => Error::new(issues).with_positions(text),
                _ => Error::not_found(text),
            });
        }
        Ok(out)
    }
}
