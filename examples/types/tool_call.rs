//! A tool call written after a `TOOL_CALL` marker, with the usual field-name variations.

use llm_extract::Extract;

/// A tool call: `tool_name` (or `tool`, `name`) and `parameters` (or `params`).
#[derive(Extract, Debug, PartialEq)]
pub struct ToolCall {
    #[extract(alias = "tool", alias = "name", min_len = 1)]
    pub tool_name: String,
    #[extract(alias = "params", default)]
    pub parameters: serde_json::Map<String, serde_json::Value>,
}
