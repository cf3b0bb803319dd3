//! an agent's planning output (title, intent, plan, tool calls, todo items), with
//! its reasoning split off, and labeled sections when the model wrote no JSON.
//!
//! Run with `cargo run --example planning`.

use llm_extract_examples::planning::*;

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
