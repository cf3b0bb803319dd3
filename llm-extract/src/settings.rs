//! Every setting of an [`Extractor`](crate::Extractor) and its default, in one place.

/// Whether a value cut off by the end of the text is acceptable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Completeness {
    /// Close what is open and mark the value incomplete in the report.
    #[default]
    AllowTruncated,
    /// Treat a truncated value as an error (a tool call closed by repair must not run).
    RequireComplete,
}

/// Whether a value written inside reasoning (`<think>...</think>` and the like) may be read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum ReasoningValues {
    /// Never: a draft answer inside reasoning is not the answer.
    #[default]
    Never,
    /// Only when nothing stands outside reasoning (no value, no labeled sections), and
    /// reported (`RepairKind::FromReasoning`).
    Fallback,
}

/// How deep values may nest unless `Extractor::max_depth` says otherwise.
pub(crate) const DEFAULT_MAX_DEPTH: usize = 128;

#[derive(Clone, Debug)]
pub(crate) struct Settings {
    pub markers: Vec<String>,
    pub marker_pairs: Vec<(String, String)>,
    pub tags: Vec<String>,
    pub reasoning_tags: Vec<String>,
    pub reasoning_values: ReasoningValues,
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
            reasoning_values: ReasoningValues::Never,
            max_payload: None,
            max_depth: DEFAULT_MAX_DEPTH,
            completeness: Completeness::AllowTruncated,
            tool: crate::tool::ToolSettings::default(),
        }
    }
}
