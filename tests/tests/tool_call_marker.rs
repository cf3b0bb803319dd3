//! Tool calls after a `TOOL_CALL` marker, with the usual field-name variations and edge cases.

use llm_extract::{CoercionKind, Extractor, TieBreak};
use llm_extract_examples::tool_call::*;
use serde_json::json;

fn parser() -> Extractor {
    Extractor::new().marker("TOOL_CALL").max_payload(8_000)
}

fn parse(text: &str) -> Option<ToolCall> {
    parser().from_str(text).ok()
}

fn query(call: &ToolCall) -> &serde_json::Value {
    &call.parameters["query"]
}

#[test]
fn the_seed_formats() {
    let texts = [
        // standard
        "TOOL_CALL\n{\n  \"tool_name\": \"search\",\n  \"parameters\": {\"query\": \"Python tutorials\"}\n}",
        // with a code fence
        "TOOL_CALL\n\n```json\n{\n  \"tool_name\": \"search\",\n  \"parameters\": { \"query\": \"Python tutorials\" }\n}\n```",
        // mixed with text
        "I'll search for that information.\n\nTOOL_CALL {\"tool_name\": \"search\", \"parameters\": {\"query\": \"Python tutorials\"}}\n\nLet me find that for you.",
        // alternate field names
        "TOOL_CALL { \"tool\": \"search\", \"params\": {\"query\": \"Python tutorials\"} }",
        // single quotes
        "TOOL_CALL\n{'tool_name': 'search', 'parameters': {'query': 'Python tutorials'}}",
    ];
    for text in texts {
        let call = parse(text).unwrap_or_else(|| panic!("no tool call in {text:?}"));
        assert_eq!(call.tool_name, "search", "{text}");
        assert_eq!(query(&call), "Python tutorials", "{text}");
    }
}

#[test]
fn unescaped_newlines_in_strings() {
    let text = "{\n  \"tool_name\": \"write_file\",\n  \"parameters\": {\n    \"content\": \"Line 1\nLine 2\"\n  }\n}";
    let call = parse(text).unwrap();
    assert_eq!(call.parameters["content"], "Line 1\nLine 2");
}

/// Of several equally clean calls the later wins by default (a draft comes first); seed 002's
/// parser took the first, which `TieBreak::First` asks for.
#[test]
fn of_several_objects_the_later_or_the_first_when_asked() {
    let two = "{\"tool_name\": \"first\"}\n{\"tool_name\": \"second\"}";
    assert_eq!(parse(two).unwrap().tool_name, "second");
    let call: ToolCall = parser().tie_break(TieBreak::First).from_str(two).unwrap();
    assert_eq!(call.tool_name, "first");
    let all: Vec<ToolCall> = parser()
        .from_str_all("{\"tool_name\": \"first\"}\n{\"tool_name\": \"second\"}")
        .unwrap();
    assert_eq!(all.len(), 2);
}

#[test]
fn edge_cases_of_the_seed() {
    // Empty, null and missing parameters are all an empty map; null and missing are recorded.
    for (text, recorded) in [
        (r#"{"tool_name": "get_time", "parameters": {}}"#, None),
        (
            r#"{"tool_name": "get_time", "parameters": null}"#,
            Some(CoercionKind::NullToEmpty),
        ),
        (
            r#"{"tool_name": "get_time"}"#,
            Some(CoercionKind::DefaultUsed),
        ),
    ] {
        let out = parser().extract::<ToolCall>(text).unwrap();
        assert!(out.value.parameters.is_empty(), "{text}");
        assert_eq!(
            out.report.coercions.first().map(|c| c.kind.clone()),
            recorded,
            "{text}"
        );
    }
    // An empty tool name is no tool call.
    let err = parser()
        .from_str::<ToolCall>(r#"{"tool_name": "", "parameters": {}}"#)
        .unwrap_err();
    assert_eq!(err.issues()[0].path.to_string(), "$.tool_name");
    // Deeply nested parameters are kept whole.
    let call = parse(r#"{"tool_name": "complex", "parameters": {"level1": {"level2": {"level3": {"value": "deep"}}}}}"#).unwrap();
    assert_eq!(
        call.parameters["level1"],
        json!({"level2": {"level3": {"value": "deep"}}})
    );
}

#[test]
fn no_tool_call_in_plain_text() {
    assert_eq!(parse("Just a regular response with no tool call."), None);
}

#[test]
fn payloads_over_the_limit_are_skipped() {
    let big = format!(
        r#"{{"tool_name": "x", "parameters": {{"blob": "{}"}}}}"#,
        "a".repeat(9_000)
    );
    assert_eq!(parse(&big), None);
}

#[test]
fn streamed_marker_calls_are_the_whole_replys_calls_under_every_chunking() {
    let texts = [
        "TOOL_CALL\n{\n  \"tool_name\": \"search\",\n  \"parameters\": {\"query\": \"Python tutorials\"}\n}",
        "TOOL_CALL\n\n```json\n{\n  \"tool_name\": \"search\",\n  \"parameters\": { \"query\": \"Python tutorials\" }\n}\n```",
        "I'll search for that information.\n\nTOOL_CALL {\"tool_name\": \"search\", \"parameters\": {\"query\": \"Python tutorials\"}}\n\nLet me find that for you.",
        "TOOL_CALL { \"tool\": \"search\", \"params\": {\"query\": \"Python tutorials\"} }",
        "TOOL_CALL\n{'tool_name': 'search', 'parameters': {'query': 'Python tutorials'}}",
        "{\n  \"tool_name\": \"write_file\",\n  \"parameters\": {\n    \"content\": \"Line 1\nLine 2\"\n  }\n}",
        "{\"tool_name\": \"first\"}\n{\"tool_name\": \"second\"}",
        r#"{"tool_name": "complex", "parameters": {"level1": {"level2": {"level3": {"value": "deep"}}}}}"#,
        "Just a regular response with no tool call.",
    ];
    for text in texts {
        llm_extract_tests::tool_stream::check_every_chunking(text, text);
    }
}
