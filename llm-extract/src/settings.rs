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

/// Which of two equally good readings of a reply wins (equal total cost of repairs and
/// coercions), when neither was marked as the answer (a caller's marker, an answer tag such as
/// `<json>`: that one wins a tie either way).
///
/// Models often write a draft before the answer, so by default the value written later wins.
/// Before any tie: a value the words before it set aside or show as an example (`Wrong:`,
/// `not {..}`, `instead of {..}`, `For example`, `e.g.`) loses to one they do not, and of the
/// rest a reading that fits the type better wins, wherever it is; then a value set out as one
/// (all a JSON fence holds, or on lines of its own after nothing, a label or a list marker) wins
/// over one written inside a line of prose, and one that is not an empty `{}` or `[]` over one
/// that is. Of two nested values the larger wins under either setting.
///
/// ```
/// use llm_extract::{Extractor, TieBreak};
/// let reply = "A first try: {\"city\": \"Oslo\"}\nThe answer: {\"city\": \"Paris\"}";
/// let last: serde_json::Value = Extractor::new().from_str(reply).unwrap();
/// assert_eq!(last["city"], "Paris");
/// let first: serde_json::Value = Extractor::new().tie_break(TieBreak::First).from_str(reply).unwrap();
/// assert_eq!(first["city"], "Oslo");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum TieBreak {
    /// The value that ends later in the text wins (an example or draft comes first).
    #[default]
    Last,
    /// The value that starts first in the text wins.
    First,
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
    pub tie_break: TieBreak,
    pub tool: ToolSettings,
    /// Whether a clean document is read on the direct path (`Extract::read_direct`) before
    /// the full one; off only to compare the two in tests.
    pub direct: bool,
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
            tie_break: TieBreak::Last,
            tool: ToolSettings::default(),
            direct: true,
        }
    }
}

/// Tool-call settings of an `Extractor` (read by `tool`; here so that the settings depend on
/// no reader).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ToolSettings {
    /// The wire formats detected: bit `n` for the `tool::Format` whose discriminant is `n`
    /// (every bit by default, so a format added later is on).
    pub formats: u64,
    pub allow_incomplete: bool,
    pub allow_doubtful: bool,
    /// Where a reply begins: `Reply` (it may begin inside reasoning opened in the prompt,
    /// the default) or `Answer`.
    pub opening: Opening,
}

impl Default for ToolSettings {
    fn default() -> ToolSettings {
        ToolSettings {
            formats: u64::MAX,
            allow_incomplete: false,
            allow_doubtful: false,
            opening: Opening::Reply,
        }
    }
}

/// Where the tool-call reader's walk begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Opening {
    /// At the start of a reply: a reasoning closer before any opener means the reply began
    /// inside reasoning (the chat template opened it in the prompt).
    Reply,
    /// In the answer, after the start of the reply: a closer without an opener is ignored.
    Answer,
}
