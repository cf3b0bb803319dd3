//! Seed 002: `TOOL_CALL` directives with the usual field-name variations.
//!
//! Run with `cargo run -p llm-extract-examples --example seed_002_tool_call`.

// The types are shown through `Debug`, which the dead-code lint does not count as a read.
#![allow(dead_code)]

use llm_extract::{Extract, Extractor};

#[derive(Extract, Debug)]
struct ToolCall {
    #[extract(alias = "tool", alias = "name", min_len = 1)]
    tool_name: String,
    #[extract(alias = "params", default)]
    parameters: serde_json::Map<String, serde_json::Value>,
}

fn main() {
    let parser = Extractor::new().marker("TOOL_CALL").max_payload(8_000);
    let replies = [
        "I'll search for that information.\n\nTOOL_CALL {\"tool_name\": \"search\", \"parameters\": {\"query\": \"Python\"}}\n\nLet me find that for you.",
        "TOOL_CALL\n```json\n{'tool': 'search', 'params': {'query': 'Rust'}}\n```",
        "TOOL_CALL {\"name\": \"get_time\", \"parameters\": null}",
        "{\"tool_name\": \"write_file\", \"parameters\": {\"content\": \"Line 1\nLine 2\"}}",
        "Just a regular response with no tool call.",
    ];
    for reply in replies {
        match parser.extract::<ToolCall>(reply) {
            Ok(out) => println!("{:?}  (score {})", out.value, out.report.score),
            Err(e) => println!("no tool call: {e}"),
        }
    }
}
