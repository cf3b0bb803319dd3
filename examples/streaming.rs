//! A reply replayed chunk by chunk as a model streams it (reasoning first, then a fenced
//! object with a list), printing each snapshot as it fills in, then the final value.
//!
//! Run with `cargo run --example streaming`.

use llm_extract::stream::FieldState;
use llm_extract::{Extract, Stream};

#[derive(Extract, Debug)]
enum Priority {
    Low,
    Normal,
    High,
}

#[derive(Extract, Debug)]
struct Task {
    title: String,
    #[extract(alias = "mins", min = 1, max = 480)]
    minutes: u32,
}

#[derive(Extract, Debug)]
struct Plan {
    goal: String,
    priority: Priority,
    tasks: Vec<Task>,
}

/// The chunks of a recorded reply, cut where the model's tokens fell (inside a tag, a key,
/// a number and an escape included).
const CHUNKS: &[&str] = &[
    "<thi",
    "nk>The user wants a plan",
    " for the release. Three",
    " tasks, high priority.</th",
    "ink>\nHere is the plan:\n``",
    "`json\n{\"go",
    "al\": \"Ship v2.0 \\u2014 on ",
    "time\",\n \"prio",
    "rity\": \"HI",
    "GH\",\n \"tasks\": [\n  {\"title\": \"Freeze the ",
    "branch\", \"mins\": 3",
    "0},\n  {\"title\": \"Run the full test",
    " suite\", \"minutes\": 12",
    "0},\n  {\"title\": \"Tag and ",
    "publish\", \"minutes\": 15}\n ]\n}\n``",
    "`\nGood luck!",
];

fn main() {
    let mut stream = Stream::<Plan>::new();
    for chunk in CHUNKS {
        if !stream.push(chunk) {
            continue;
        }
        let snap = stream.snapshot();
        let tasks = snap.tasks.clone().unwrap_or_default();
        println!(
            "goal {:?} | priority {:?} | {} task(s), last: {:?} | tasks {:?}",
            snap.goal.as_deref(),
            snap.priority,
            tasks.len(),
            tasks.last().map(|t| (t.title.as_deref(), t.minutes)),
            snap.state("tasks"),
        );
    }
    let last = stream.snapshot();
    assert_eq!(last.state("tasks"), FieldState::Complete);
    println!("thoughts: {:?}", stream.thoughts());
    println!("as JSON: {}", serde_json::to_string(&last).unwrap());
    let plan = stream.finish().expect("the reply is whole").value;
    let minutes: u32 = plan.tasks.iter().map(|t| t.minutes).sum();
    println!("final: {:?}", plan);
    println!(
        "{} ({:?}): {} tasks, {minutes} minutes",
        plan.goal,
        plan.priority,
        plan.tasks.len()
    );
    assert_eq!(plan.tasks[0].title, "Freeze the branch");
}
