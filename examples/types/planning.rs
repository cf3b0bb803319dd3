//! An agent framework's planning and execution replies: title, intent, plan, tool calls, todo items.

use llm_extract::Extract;

#[derive(Extract, Debug, PartialEq)]
#[extract(rename_all = "camelCase")]
pub struct ParsedToolCall {
    #[extract(alias = "id")]
    pub call_id: String,
    #[extract(alias = "tool", alias = "name")]
    pub tool_name: String,
    #[extract(alias = "args", alias = "parameters", default)]
    pub arguments: serde_json::Value,
}

#[derive(Extract, Debug, PartialEq, Clone, Copy)]
#[extract(rename_all = "snake_case")]
pub enum TodoStatus {
    Pending,
    InProgress,
    Completed,
    Failed,
    Cancelled,
}

pub fn pending() -> TodoStatus {
    TodoStatus::Pending
}

#[derive(Extract, Debug, PartialEq)]
#[extract(rename_all = "camelCase")]
pub struct TodoItem {
    pub id: String,
    #[extract(min_len = 1)]
    pub description: String,
    #[extract(default = pending)]
    pub status: TodoStatus,
    #[extract(default)]
    pub dependencies: Vec<String>,
}

/// What the planning call returns.
#[derive(Extract, Debug, PartialEq)]
#[extract(rename_all = "camelCase")]
pub struct PlanningOutput {
    /// A concise thread title (at most 10 words).
    pub title: Option<String>,
    pub intent: Option<String>,
    pub plan: Option<String>,
    #[extract(default)]
    pub tool_calls: Vec<ParsedToolCall>,
    #[extract(default)]
    pub todo_list: Vec<TodoItem>,
}

#[derive(Extract, Debug, PartialEq, Clone, Copy)]
#[extract(rename_all = "snake_case")]
pub enum NextStep {
    Continue,
    Wait,
    CompleteItem,
    UpdatePlan,
}

/// What an execution call returns.
#[derive(Extract, Debug, PartialEq)]
#[extract(rename_all = "camelCase")]
pub struct ExecutionOutput {
    #[extract(default)]
    pub tool_calls: Vec<ParsedToolCall>,
    pub next_step_decision: Option<NextStep>,
    pub updated_plan: Option<serde_json::Value>,
    pub content: Option<String>,
}
