//! The entry points: settings, candidate ranking, and the schema-aligned choice of reading.

use crate::error::{Category, Error, Issue};
use crate::extract::{Context, Extract};
use crate::locate::{self, Candidate};
use crate::parse::{self, Parsed, RepairPaths};
use crate::path::Path;
use crate::report::{Repair, Report};
use crate::span::{Position, Span};
use serde::Serialize;

/// Whether a value cut off by the end of the text is acceptable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Completeness {
    /// Close what is open and mark the value incomplete in the report.
    #[default]
    AllowTruncated,
    /// Treat a truncated value as an error (a tool call closed by repair must not run).
    RequireComplete,
}

/// A value extracted from text, with the report of what leniency did to get it.
#[derive(Debug, Clone, Serialize)]
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

#[derive(Clone, Debug)]
pub(crate) struct Settings {
    pub markers: Vec<String>,
    pub marker_pairs: Vec<(String, String)>,
    pub tags: Vec<String>,
    pub reasoning_tags: Vec<String>,
    pub max_payload: Option<usize>,
    pub max_depth: usize,
    pub completeness: Completeness,
    pub tool: crate::tool::ToolSettings,
}

impl Default for Settings {
    fn default() -> Settings {
        let own = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        Settings {
            markers: Vec::new(),
            marker_pairs: vec![(
                "---JSON_OUTPUT_START---".into(),
                "---JSON_OUTPUT_END---".into(),
            )],
            tags: own(&[
                "json",
                "output",
                "tool_call",
                "function_call",
                "answer",
                "result",
                "response",
            ]),
            reasoning_tags: own(&["think", "thinking", "reasoning", "reflection", "thought"]),
            max_payload: None,
            max_depth: 128,
            completeness: Completeness::AllowTruncated,
            tool: crate::tool::ToolSettings::default(),
        }
    }
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
            if best
                .as_ref()
                .is_some_and(|(score, _)| *score <= candidate.base_cost)
            {
                break; // every later candidate costs at least this much
            }
            if self
                .settings
                .max_payload
                .is_some_and(|max| candidate.span.len() > max)
            {
                first_error.get_or_insert_with(|| self.too_large(text, candidate));
                continue;
            }
            // Valid JSON in a candidate (the usual fenced or prose-wrapped reply): serde_json
            // reads it exactly as the tolerant parser would, and faster.
            // (Not for a value that never closes: serde_json would read all of it to fail.)
            if !candidate.embedded && !candidate.sections && !candidate.unclosed {
                let slice = &text[candidate.span.start..candidate.span.end];
                if let Some(value) = parse::strict(slice, self.settings.max_depth) {
                    if !value.is_string() {
                        best = Some((candidate.base_cost, value));
                        continue;
                    }
                }
            }
            match locate::parse_candidate_value(text, candidate, &self.settings) {
                Ok(parsed)
                    if !parsed.complete
                        && self.settings.completeness == Completeness::RequireComplete =>
                {
                    first_error.get_or_insert_with(|| incomplete(text, parsed.end));
                }
                Ok(parsed) => {
                    let score = parsed.repairs.iter().map(|r| r.cost).sum::<u32>();
                    if best.as_ref().is_none_or(|(s, _)| score < *s) {
                        best = Some((score, parsed.value));
                    }
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        match best {
            Some((_, value)) => Ok(value),
            None => Err(first_error.unwrap_or_else(|| not_found(text))),
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
        for reading in self.readings(text, &located.candidates, true, paths) {
            let parsed = match reading {
                Ok((_, parsed)) => parsed,
                Err(e) => {
                    first_error.get_or_insert(e);
                    continue;
                }
            };
            if let Err(e) = self.check_complete(&parsed, text) {
                first_error.get_or_insert(e);
                continue;
            }
            match read::<T>(text, parsed, paths) {
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
            return Err(first_error.unwrap_or_else(|| not_found(text)));
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
        let mut failures: Vec<(usize, u32, Vec<Issue>)> = Vec::new();
        for reading in self.readings(text, &located.candidates, false, paths) {
            let (candidate, parsed) = match reading {
                Ok(r) => r,
                Err(e) => {
                    failures.push((e.issues().len(), u32::MAX, e.issues().to_vec()));
                    continue;
                }
            };
            if let Some((score, _)) = &best {
                if *score <= candidate.base_cost {
                    break; // every later candidate costs at least this much
                }
            }
            if let Err(e) = self.check_complete(&parsed, text) {
                failures.push((1, 0, e.issues().to_vec()));
                continue;
            }
            let repairs_cost: u32 = parsed.repairs.iter().map(|r| r.cost).sum();
            match read::<T>(text, parsed, paths) {
                // The candidate's context repairs are among the repairs already.
                Ok(extracted)
                    if best
                        .as_ref()
                        .is_none_or(|(s, _)| extracted.report.score < *s) =>
                {
                    best = Some((extracted.report.score, extracted));
                }
                Ok(_) => {}
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
                    _ => Err(not_found(text)),
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
        let mut cx = Context::new();
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
        for reading in self.readings(text, &located.candidates, true, RepairPaths::Skip) {
            let parsed = match reading {
                Ok((_, parsed)) => parsed,
                Err(e) => {
                    failure.get_or_insert_with(|| e.issues().to_vec());
                    continue;
                }
            };
            if let Err(e) = self.check_complete(&parsed, text) {
                failure.get_or_insert_with(|| e.issues().to_vec());
                continue;
            }
            let mut cx = Context::new();
            if let crate::node::NodeKind::Array(_) = parsed.node.kind {
                match Vec::<T>::from_node(&parsed.node, &mut cx) {
                    Ok(items) if cx.issues().is_empty() => {
                        out.extend(items);
                        continue;
                    }
                    _ => {}
                }
                cx = Context::new();
            }
            match T::from_node(&parsed.node, &mut cx) {
                Ok(item) if cx.issues().is_empty() => out.push(item),
                _ => {
                    failure.get_or_insert_with(|| cx.into_parts().1);
                }
            }
        }
        if out.is_empty() {
            return Err(match failure {
                Some(issues) if !issues.is_empty() => Error::new(issues).with_positions(text),
                _ => not_found(text),
            });
        }
        Ok(out)
    }

    /// Parses each candidate in rank order. With `disjoint`, candidates that overlap an
    /// earlier successful one (in text order) are skipped, so each value is read once.
    fn readings<'t, 'c>(
        &'t self,
        text: &'t str,
        candidates: &'c [Candidate],
        disjoint: bool,
        paths: RepairPaths,
    ) -> impl Iterator<Item = Result<(&'c Candidate, Parsed<'t>), Error>> + use<'t, 'c> {
        let mut order: Vec<&Candidate> = candidates.iter().collect();
        if disjoint {
            order.sort_by_key(|c| (c.span.start, c.base_cost));
        }
        // In disjoint mode candidates come in start order, so everything taken so far lies
        // before `taken_end`: one comparison per candidate instead of a scan of all taken.
        let mut taken_end = 0usize;
        order.into_iter().filter_map(move |candidate| {
            if disjoint && candidate.span.start < taken_end {
                return None;
            }
            if self
                .settings
                .max_payload
                .is_some_and(|max| candidate.span.len() > max)
            {
                return Some(Err(self.too_large(text, candidate)));
            }
            let parsed = locate::parse_candidate(text, candidate, &self.settings, paths);
            if let Ok(p) = &parsed {
                if disjoint {
                    taken_end = taken_end.max(p.end.max(p.node.span.end));
                }
            }
            Some(parsed.map(|p| (candidate, p)))
        })
    }

    fn too_large(&self, text: &str, candidate: &Candidate) -> Error {
        let max = self.settings.max_payload.unwrap_or_default();
        Error::new(vec![Issue::new(
            Category::TooLarge,
            Path::root(),
            format!(
                "candidate of {} bytes is larger than max_payload ({max} bytes); raise it with Extractor::max_payload",
                candidate.span.len()
            ),
        )
        .at(candidate.span)])
        .with_positions(text)
    }

    fn check_complete(&self, parsed: &Parsed<'_>, text: &str) -> Result<(), Error> {
        if self.settings.completeness == Completeness::RequireComplete
            && !parsed.node.is_complete_deep()
        {
            return Err(incomplete(text, parsed.node.span.end));
        }
        Ok(())
    }
}

fn incomplete(text: &str, at: usize) -> Error {
    Error::new(vec![Issue::new(
        Category::Incomplete,
        Path::root(),
        "the value was cut off before its end (require_complete is set)",
    )
    .at(Span::at(at))])
    .with_positions(text)
}

/// Reads a `T` from a parsed candidate: the value with its report (score, completeness,
/// positions when `paths` asks for them), or every issue found.
fn read<T: Extract>(
    text: &str,
    parsed: Parsed<'_>,
    paths: RepairPaths,
) -> Result<Extracted<T>, Vec<Issue>> {
    let mut cx = Context::new();
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
        _ => Err(issues),
    }
}

fn with_positions(text: &str, mut repairs: Vec<Repair>) -> Vec<Repair> {
    let offsets: Vec<usize> = repairs.iter().map(|r| r.span.start).collect();
    for (r, p) in repairs.iter_mut().zip(Position::of_many(text, &offsets)) {
        r.position = Some(p);
    }
    repairs
}

pub(crate) fn not_found(text: &str) -> Error {
    let what = if text.trim().is_empty() {
        "the text is empty"
    } else {
        "the text holds no JSON-like value"
    };
    Error::new(vec![Issue::new(
        Category::NotFound,
        Path::root(),
        format!("no JSON found: {what} (no object, array, fence or marker)"),
    )])
}
