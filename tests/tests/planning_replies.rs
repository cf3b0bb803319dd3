//! An agent framework's planning and execution outputs (title, intent, plan, tool
//! calls, todo items), with thoughts split off and labeled sections as the last resort.

use llm_extract::RepairKind;
use llm_extract_examples::planning::*;
use serde_json::json;

const PLANNING: &str = r#"<think>The user wants weather for two cities; I will call the tool twice.</think>
---JSON_OUTPUT_START---
{
  "title": "Weather in Paris and Rome",
  "intent": "Compare today's weather",
  "plan": "Look up both cities, then compare.",
  "toolCalls": [
    {"callId": "c1", "toolName": "weather", "arguments": {"city": "Paris"}},
    {"callId": "c2", "toolName": "weather", "arguments": {"city": "Rome"}}
  ],
  "todoList": [
    {"id": "1", "description": "Get Paris weather", "status": "in_progress"},
    {"id": "2", "description": "Get Rome weather", "dependencies": []},
    {"id": "3", "description": "Compare", "status": "pending", "dependencies": ["1", "2"]}
  ]
}
---JSON_OUTPUT_END---"#;

#[test]
fn planning_output_between_markers_with_thoughts() {
    let out = llm_extract::extract::<PlanningOutput>(PLANNING).unwrap();
    let p = &out.value;
    assert_eq!(p.title.as_deref(), Some("Weather in Paris and Rome"));
    assert_eq!(p.tool_calls.len(), 2);
    assert_eq!(p.tool_calls[1].arguments, json!({"city": "Rome"}));
    assert_eq!(p.todo_list[0].status, TodoStatus::InProgress);
    assert_eq!(p.todo_list[1].status, TodoStatus::Pending);
    assert_eq!(p.todo_list[2].dependencies, vec!["1", "2"]);
    assert_eq!(
        out.thoughts,
        vec!["The user wants weather for two cities; I will call the tool twice."]
    );
}

#[test]
fn snake_case_keys_and_alternate_names_from_other_providers() {
    let text = "```json\n{\"title\": \"T\", \"tool_calls\": [{\"id\": \"c1\", \"name\": \"search\", \"args\": {\"q\": \"x\"}}], \"todo_list\": [{\"id\": \"1\", \"description\": \"Search\", \"status\": \"In Progress\"}]}\n```";
    let p: PlanningOutput = llm_extract::from_str(text).unwrap();
    assert_eq!(
        p.tool_calls[0],
        ParsedToolCall {
            call_id: "c1".into(),
            tool_name: "search".into(),
            arguments: json!({"q": "x"})
        }
    );
    assert_eq!(p.todo_list[0].status, TodoStatus::InProgress);
}

#[test]
fn labeled_sections_when_there_is_no_json() {
    let text = "Title: Plan a trip\nIntent: Book flights and a hotel\nPlan: Search flights first, then hotels.";
    let p: PlanningOutput = llm_extract::from_str(text).unwrap();
    assert_eq!(p.title.as_deref(), Some("Plan a trip"));
    assert_eq!(p.intent.as_deref(), Some("Book flights and a hotel"));
    assert_eq!(
        p.plan.as_deref(),
        Some("Search flights first, then hotels.")
    );
    assert!(p.tool_calls.is_empty() && p.todo_list.is_empty());
}

/// [`PLANNING`] written as labeled sections, lists and nested blocks.
const PLANNING_LABELED: &str =
    "<think>The user wants weather for two cities; I will call the tool twice.</think>
Title: Weather in Paris and Rome
Intent: Compare today's weather
Plan: Look up both cities, then compare.

Tool Calls:
- callId: c1
  toolName: weather
  arguments:
    city: Paris
- callId: c2
  toolName: weather
  arguments:
    city: Rome

Todo List:
1. id: 1
   description: Get Paris weather
   status: in_progress
2. id: 2
   description: Get Rome weather
   dependencies: []
3. id: 3
   description: Compare
   status: pending
   dependencies:
     - 1
     - 2
";

#[test]
fn the_planning_output_comes_through_from_its_json_and_its_labeled_form() {
    let from_json = llm_extract::extract::<PlanningOutput>(PLANNING).unwrap();
    let from_labels = llm_extract::extract::<PlanningOutput>(PLANNING_LABELED).unwrap();
    assert_eq!(from_labels.value, from_json.value);
    assert_eq!(from_labels.thoughts, from_json.thoughts);
    let p = &from_labels.value;
    assert_eq!(p.tool_calls[1].arguments, json!({"city": "Rome"}));
    assert_eq!(p.todo_list[0].status, TodoStatus::InProgress);
    assert_eq!(p.todo_list[2].dependencies, ["1", "2"]);
    // The report says the value was assembled from sections; the JSON form's does not.
    let kinds = |r: &llm_extract::Report| r.repairs.iter().map(|r| r.kind).collect::<Vec<_>>();
    assert!(kinds(&from_labels.report).contains(&RepairKind::LabeledSections));
    assert!(!kinds(&from_json.report).contains(&RepairKind::LabeledSections));
}

#[test]
fn markdown_labels_and_a_heading_with_a_numbered_plan() {
    let text = "**Title**: Weather in Paris and Rome\n**Intent**: Compare today's weather\n\n## Plan\n1. Look up the weather in Paris.\n2. Look up the weather in Rome.\n3. Compare the two.\n\nLet me know if you want more cities!";
    let p: PlanningOutput = llm_extract::from_str(text).unwrap();
    assert_eq!(p.title.as_deref(), Some("Weather in Paris and Rome"));
    assert_eq!(p.intent.as_deref(), Some("Compare today's weather"));
    // A list where the type wants text: the list's text, whole (the closing remark is not
    // part of it).
    assert_eq!(
        p.plan.as_deref(),
        Some("1. Look up the weather in Paris.\n2. Look up the weather in Rome.\n3. Compare the two.")
    );
}

#[test]
fn a_dash_list_of_labels_and_an_execution_decision() {
    let text = "- Title: Plan a trip\n- Intent: Book flights and a hotel\n- Plan: Search flights first,\n  then hotels.";
    let p: PlanningOutput = llm_extract::from_str(text).unwrap();
    assert_eq!(p.title.as_deref(), Some("Plan a trip"));
    assert_eq!(
        p.plan.as_deref(),
        Some("Search flights first,\n  then hotels.")
    );
    let text = "<thinking>item 1 is done</thinking>\nNext Step Decision: complete item\nContent: Paris is sunny.";
    let out = llm_extract::extract::<ExecutionOutput>(text).unwrap();
    assert_eq!(out.value.next_step_decision, Some(NextStep::CompleteItem));
    assert_eq!(out.value.content.as_deref(), Some("Paris is sunny."));
    assert_eq!(out.thoughts, ["item 1 is done"]);
}

#[test]
fn execution_output_decisions() {
    let text = r#"<thinking>done with item 1</thinking>
{"nextStepDecision": "complete item", "content": "Paris is sunny.", "toolCalls": []}"#;
    let out = llm_extract::extract::<ExecutionOutput>(text).unwrap();
    assert_eq!(out.value.next_step_decision, Some(NextStep::CompleteItem));
    assert_eq!(out.value.content.as_deref(), Some("Paris is sunny."));
    assert_eq!(out.thoughts, vec!["done with item 1"]);
}

#[test]
fn invalid_todo_items_are_reported_with_paths() {
    let text = r#"{"todoList": [{"id": "1", "description": "ok"}, {"id": "2", "description": ""}, {"description": "x", "status": "someday"}]}"#;
    let err = llm_extract::from_str::<PlanningOutput>(text).unwrap_err();
    let paths: Vec<String> = err.issues().iter().map(|i| i.path.to_string()).collect();
    assert_eq!(
        paths,
        vec![
            "$.todoList[1].description",
            "$.todoList[2].id",
            "$.todoList[2].status"
        ]
    );
}
