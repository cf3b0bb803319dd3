//! an agent's planning output (title, intent, plan, tool calls, todo items), with
//! its reasoning split off, and labeled sections when the model wrote no JSON that fits.
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

    // The same kind of plan written as labeled sections: a heading with a numbered plan (read
    // as text, as `plan` is a string) and a YAML-like todo list (read as a list of items).
    let sections = "**Title**: Plan a trip\n**Intent**: Book flights and a hotel\n\n## Plan\n1. Flights first.\n2. Then hotels.\n\n## Todo List\n- id: 1\n  description: Search flights\n  status: in progress\n- id: 2\n  description: Book a hotel\n  dependencies: [\"1\"]\n\nShall I go ahead?";
    let out = llm_extract::extract::<PlanningOutput>(sections).expect("sections");
    println!("{:#?}", out.value);
    println!("score {} (read from labeled sections)", out.report.score);
}
