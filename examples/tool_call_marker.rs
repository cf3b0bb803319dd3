//! `TOOL_CALL` directives with the usual field-name variations.
//!
//! Run with `cargo run --example tool_call_marker`.

use llm_extract::Extractor;

use llm_extract_examples::tool_call::*;

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
