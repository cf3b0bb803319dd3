//! `{items, story}` from a local model, through truncation, comments, single
//! quotes, raw newlines and unescaped quotes.
//!
//! Run with `cargo run --example story`.

use llm_extract_examples::story::*;

fn main() {
    let replies = [
        "```json\n{\"items\": [{\"id\": \"event_kind\", \"value\": \"system_change\",}], \"story\": \"The event happened.\"}\n```\nHere is the result!",
        "{'items': [], // none found\n 'story': 'She said \"hi\"\nand left.'}",
        r#"{"story": "The server restarted", "items":[{"id":"cause", "value": "deploy"#,
    ];
    for reply in replies {
        match llm_extract::extract::<StoryExtraction>(reply) {
            Ok(out) => println!(
                "{:?}\n  complete: {}, repairs: {}",
                out.value,
                out.report.complete,
                out.report.repairs.len()
            ),
            Err(e) => println!("error: {e}"),
        }
    }
}
