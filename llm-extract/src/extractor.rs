//! The entry points: the settings builder, and each operation as a call into `select`, where
//! the choice of reading and of the error to report is made.

use crate::coerce::{Context, Extract};
use crate::error::Error;
use crate::extracted::Extracted;
use crate::locate;
use crate::parse::{self, Keep, RepairPaths};
use crate::report::Report;
use crate::select;
use crate::settings::{Completeness, Opening, ReasoningValues, Settings, TieBreak};
use crate::span::Span;
use crate::tool_format::Format;

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

    /// When nothing outside reasoning holds a value (no JSON-like value, no labeled
    /// sections), read the values inside it, each reported as
    /// [`RepairKind::FromReasoning`](crate::RepairKind::FromReasoning). Off by default: a
    /// draft answer inside reasoning is never the answer.
    ///
    /// ```
    /// use llm_extract::{Extractor, RepairKind};
    /// let reply = "<think>The answer is {\"city\": \"Paris\"}.</think>\nHope this helps!";
    /// assert!(llm_extract::repair(reply).is_err());
    /// let out = Extractor::new().fallback_to_reasoning().extract::<serde_json::Value>(reply).unwrap();
    /// assert_eq!(out.value, serde_json::json!({"city": "Paris"}));
    /// assert!(out.report.repairs.iter().any(|r| r.kind == RepairKind::FromReasoning));
    /// ```
    pub fn fallback_to_reasoning(mut self) -> Extractor {
        self.settings.reasoning_values = ReasoningValues::Fallback;
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
    /// its own `Drop` recurses ([`guide::limits`](crate::guide::limits) shows how).
    pub fn max_depth(mut self, depth: usize) -> Extractor {
        self.settings.max_depth = depth.max(1);
        self
    }

    /// A value cut off by the end of the text is an error instead of being closed.
    pub fn require_complete(mut self) -> Extractor {
        self.settings.completeness = Completeness::RequireComplete;
        self
    }

    /// Which of two equally good readings wins (equal total cost of repairs and
    /// coercions): [`TieBreak::Last`] by default, the value written later, since an example
    /// or a draft usually comes before the answer; [`TieBreak::First`] for the first. Either
    /// way, one the reply marked as its answer wins first, then one that is all a JSON fence
    /// holds, then one standing on its own over one mentioned inside a sentence (`If you
    /// wanted {..} instead, say so`), and any of those over one inside an HTML comment
    /// (`<!-- {..} -->`).
    ///
    /// ```
    /// use llm_extract::{Extractor, TieBreak};
    /// let reply = "Draft: {\"n\": 1}\nFinal: {\"n\": 2}";
    /// assert_eq!(Extractor::new().repair(reply).unwrap()["n"], 2);
    /// assert_eq!(Extractor::new().tie_break(TieBreak::First).repair(reply).unwrap()["n"], 1);
    /// ```
    pub fn tie_break(mut self, tie_break: TieBreak) -> Extractor {
        self.settings.tie_break = tie_break;
        self
    }

    /// Only these wire formats are detected (all are by default).
    ///
    /// ```
    /// use llm_extract::{tool::Format, Extractor};
    /// let e = Extractor::new().tool_formats(&[Format::Hermes]);
    /// assert!(e.tool_calls(r#"[TOOL_CALLS] [{"name": "f", "arguments": {}}]"#).is_empty());
    /// assert_eq!(e.tool_calls(r#"<tool_call>{"name": "f", "arguments": {}}</tool_call>"#).len(), 1);
    /// ```
    pub fn tool_formats(mut self, formats: &[Format]) -> Extractor {
        self.settings.tool.formats = formats.iter().fold(0, |m, f| m | f.bit());
        self
    }

    /// Calls cut off before their end are returned as calls too (marked incomplete in
    /// [`Reply`](crate::tool::Reply)). Off by default: a truncated `rm -rf` must never run.
    ///
    /// ```
    /// let text = "<tool_call>{\"name\": \"search\", \"arguments\": {\"q\": \"rust";
    /// assert!(llm_extract::tool::tool_calls(text).is_empty());
    /// let e = llm_extract::Extractor::new().allow_incomplete_tool_calls();
    /// assert_eq!(e.tool_calls(text)[0].arguments["q"], "rust");
    /// ```
    pub fn allow_incomplete_tool_calls(mut self) -> Extractor {
        self.settings.tool.allow_incomplete = true;
        self
    }

    /// Whole calls that could be read only by guessing (a bare word taken as a string, a
    /// string end chosen by lookahead, a key written twice, ...) are returned as calls too
    /// (they stay listed in [`Reply::doubtful`](crate::tool::Reply::doubtful)). Off by default: an agent should not run
    /// what the model may not have written.
    ///
    /// ```
    /// let text = r#"<tool_call>{"name": "search", "arguments": {"q": rust}}</tool_call>"#;
    /// assert!(llm_extract::tool::tool_calls(text).is_empty());
    /// let e = llm_extract::Extractor::new().allow_doubtful_tool_calls();
    /// assert_eq!(e.tool_calls(text)[0].arguments["q"], "rust");
    /// ```
    pub fn allow_doubtful_tool_calls(mut self) -> Extractor {
        self.settings.tool.allow_doubtful = true;
        self
    }

    /// The reply begins in the answer: a reasoning closer without an opener (`</think>`) is
    /// ignored, as if the reply began after an empty reasoning block. By default a reply may
    /// begin inside reasoning opened by the chat template (DeepSeek R1, Qwen3 thinking), so
    /// what comes before a first `</think>` is reasoning and a call there is a draft; a
    /// [`StreamCalls`](crate::tool::StreamCalls) then holds every call until the first reasoning token or the end says
    /// which it was. Both reads, whole and streamed, follow this setting.
    ///
    /// ```
    /// let text = "<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call></think>";
    /// assert!(llm_extract::tool::tool_calls(text).is_empty()); // a draft
    /// let e = llm_extract::Extractor::new().tool_reply_begins_in_answer();
    /// assert_eq!(e.tool_calls(text).len(), 1);
    /// ```
    pub fn tool_reply_begins_in_answer(mut self) -> Extractor {
        self.settings.tool.opening = Opening::Answer;
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
        let located = locate::locate_reading(text, &self.settings, Keep::Value);
        select::best_value(&self.settings, text, &located)
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
        let located = locate::locate_reading(text, &self.settings, Keep::Tree(paths));
        let mut out = select::every::<T>(&self.settings, text, &located, paths)?;
        let thoughts = thoughts(text, &located.thoughts);
        for extracted in &mut out {
            extracted.thoughts = thoughts.clone();
        }
        Ok(out)
    }

    /// The best `T` in `text`.
    pub fn from_str<T: Extract>(&self, text: &str) -> Result<T, Error> {
        // The report is dropped: its repairs need no paths or positions.
        self.extract_paths(text, RepairPaths::Skip).map(|e| e.value)
    }

    /// The best `T` in `text`, with the report of repairs and coercions.
    pub fn extract<T: Extract>(&self, text: &str) -> Result<Extracted<T>, Error> {
        self.extract_paths(text, RepairPaths::Record)
    }

    /// [`Extractor::extract`], optionally without the repair paths and positions that only
    /// the report shows (the value and the choice are the same).
    fn extract_paths<T: Extract>(
        &self,
        text: &str,
        paths: RepairPaths,
    ) -> Result<Extracted<T>, Error> {
        self.extract_given(text, paths, None)
    }

    /// [`Extractor::extract`] of a reply whose value at `given`'s span was read already (a
    /// stream's value, [`Extract::from_partial`], and the repairs reading it made): where the
    /// direct path would read that container, or the parser would, it takes the value
    /// instead. Everything else is `extract`'s own: which value the reply holds, the rest of
    /// its report, the errors.
    pub(crate) fn extract_given<T: Extract>(
        &self,
        text: &str,
        paths: RepairPaths,
        given: Option<crate::coerce::GivenValue<T>>,
    ) -> Result<Extracted<T>, Error> {
        let given = crate::coerce::Given::new(given.filter(|_| self.settings.direct));
        if let Some(done) = self.direct(text, &given) {
            return Ok(done);
        }
        // The shortcut parses the whole text: not when the value it holds was read already
        // (the general path takes it, and reads the same as the shortcut).
        if !given.is_pending() {
            if let Some(done) = self.whole_clean_value(text, paths) {
                return Ok(done);
            }
        }
        let typed = select::TypedReads::<T>::new(self.settings.max_depth, given.into_inner());
        let located = locate::locate_typed(text, &self.settings, Keep::Tree(paths), Some(&typed));
        let mut extracted = select::best::<T>(&self.settings, text, &located, paths, Some(&typed))?;
        extracted.thoughts = thoughts(text, &located.thoughts);
        Ok(extracted)
    }

    /// The span of the one JSON object or array that is all of `text` but spaces, when it
    /// could be (what the fast paths read), within `max_payload`.
    pub(crate) fn whole_span(&self, text: &str) -> Option<Span> {
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
        Some(Span::new(start, start + trimmed.trim_end().len()))
    }

    /// The direct path (see [`Direct`](crate::coerce::Direct)): a document that is strict
    /// JSON, read as it streams past into a `T` with nothing to report. `None` whenever it
    /// would need leniency; the full path then reads it.
    fn direct<T: Extract>(
        &self,
        text: &str,
        given: &crate::coerce::Given<T>,
    ) -> Option<Extracted<T>> {
        // A stream's value read with repairs is not strict JSON: where it stands in the reply
        // is the general path's to say (all of `['a \"b\"']` may be a document written
        // escaped), which takes the value where it reads that container.
        if !self.settings.direct || given.repaired() {
            return None;
        }
        let span = self.whole_span(text)?;
        let max_depth = self.settings.max_depth;
        let (value, span, made) =
            crate::coerce::read_direct_with::<T>(text, span, max_depth, given, false)?;
        Some(Extracted {
            value,
            report: Report::new(Vec::new(), made.coercions, true, span),
            thoughts: Vec::new(),
        })
    }

    /// Turns the direct path off, so that every document is read on the full path; for
    /// tests that compare the two (the results are the same). Not a stable API.
    #[doc(hidden)]
    pub fn without_direct_path(mut self) -> Extractor {
        self.settings.direct = false;
        self
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
        let span = self.whole_span(text)?;
        let parsed = parse::parse_span_with(text, span, self.settings.max_depth, paths).ok()?;
        if !parsed.repairs.is_empty() || parsed.end != span.end {
            return None;
        }
        let mut cx = Context::reading(text, &parsed.node, self.settings.max_depth);
        if paths == RepairPaths::Skip {
            cx.skip_coercion_paths();
        }
        let value = T::from_node(&parsed.node, &mut cx).ok()?;
        let (coercions, issues) = cx.into_parts();
        if !issues.is_empty() {
            return None;
        }
        Some(Extracted {
            value,
            report: Report::new(Vec::new(), coercions, true, parsed.node.span),
            thoughts: Vec::new(),
        })
    }

    /// Every `T` in `text`: the items of a JSON array, a single value, or several blocks.
    pub fn from_str_all<T: Extract>(&self, text: &str) -> Result<Vec<T>, Error> {
        let located = locate::locate_reading(text, &self.settings, Keep::Tree(RepairPaths::Skip));
        select::every_item::<T>(&self.settings, text, &located)
    }
}

/// The text of each reasoning block, trimmed.
fn thoughts(text: &str, spans: &[Span]) -> Vec<String> {
    spans
        .iter()
        .map(|s| text[s.start..s.end].trim().to_string())
        .collect()
}
