//! Seed 003: an agent's planning output (title, intent, plan, tool calls, todo items), with
//! its reasoning split off, and labeled sections when the model wrote no JSON.
//!
//! Run with `cargo run -p llm-extract-examples --example seed_003_planning`.

// The types are shown through `Debug`, which the dead-code lint does not count as a read.
#![allow(dead_code)]

use llm_extract::Extract;

#[derive(Extract, Debug)]
#[extract(rename_all = "camelCase")]
struct ParsedToolCall {
    #[extract(alias = "id")]
    call_id: String,
    #[extract(alias = "tool", alias = "name")]
    tool_name: String,
    #[extract(default)]
    arguments: serde_json::Value,
}

#[derive(Extract, Debug)]
#[extract(rename_all = "snake_case")]
enum TodoStatus {
    Pending,
    InProgress,
    Completed,
    Failed,
    Cancelled,
}

#[derive(Extract, Debug)]
#[extract(rename_all = "camelCase")]
struct TodoItem {
    id: String,
    description: String,
    status: Option<TodoStatus>,
    #[extract(default)]
    dependencies: Vec<String>,
}

#[derive(Extract, Debug)]
#[extract(rename_all = "camelCase")]
struct PlanningOutput {
    /// A concise thread title.
    title: Option<String>,
    intent: Option<String>,
    plan: Option<String>,
    #[extract(default)]
    tool_calls: Vec<ParsedToolCall>,
    #[extract(default)]
    todo_list: Vec<TodoItem>,
}

fn main() {
    let reply = r#"<think>Two lookups, then a comparison.</think>
---JSON_OUTPUT_START---
{"title": "Weather", "intent": "Compare cities", "plan": "Look up, compare.",
 "tool_calls": [{"id": "c1", "name": "weather", "arguments": {"city": "Paris"}}],
 "todoList": [{"id": "1", "description": "Paris", "status": "In progress"}, {"id": "2", "description": "Compare", "dependencies": ["1"]}]}
---JSON_OUTPUT_END---"#;
    let out = llm_extract::extract::<PlanningOutput>(reply).expect("a plan");
    println!("thoughts: {:?}\n{:#?}", out.thoughts, out.value);

    let sections =
        "Title: Plan a trip\nIntent: Book flights and a hotel\nPlan: Flights first, then hotels.";
    let plan: PlanningOutput = llm_extract::from_str(sections).expect("sections");
    println!("{plan:#?}");
}
