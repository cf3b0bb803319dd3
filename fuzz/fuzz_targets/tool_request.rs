//! Tool calls read against a tool list given at run time (`tool::Tools`): the first line is
//! the list (any JSON: a list the fuzzer writes, or one of the fixed lists when it is not
//! one), the rest the reply, read whole and streamed in fuzzer-chosen chunks. No panic, no
//! hang; the stream gives what the whole read gives (the same calls, or an error of the same
//! category) wherever the untyped reading's stream does (the `tool` target checks that).
#![no_main]

use libfuzzer_sys::fuzz_target;
use llm_extract::tool::{StreamCalls, ToolCall, Tools};
use llm_extract::{Error, Extractor};
use std::sync::LazyLock;

/// A list in each shape, with nested, recursive and constrained arguments.
static FIXED: LazyLock<Tools> = LazyLock::new(|| {
    Tools::from_json(&serde_json::json!([
        {"type": "function", "function": {"name": "f", "parameters": {
            "type": "object",
            "properties": {
                "a": {"type": "integer", "minimum": 0},
                "s": {"type": "string", "maxLength": 8},
                "e": {"enum": ["x", "y"]},
                "n": {"$ref": "#/$defs/Node"}
            },
            "$defs": {"Node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}}
        }}},
        {"name": "g", "input_schema": {"type": "object", "properties": {"b": {"type": ["boolean", "null"]}}, "required": ["b"]}},
        {"name": "h", "inputSchema": {"type": "object", "additionalProperties": {"type": "number"}}}
    ]))
    .expect("the fixed list reads")
});

fuzz_target!(|data: &[u8]| {
    let Some((&size, data)) = data.split_first() else {
        return;
    };
    let split = data.iter().position(|b| *b == b'\n').unwrap_or(data.len());
    let (head, rest) = data.split_at(split);
    let written = serde_json::from_slice::<serde_json::Value>(head)
        .ok()
        .and_then(|list| Tools::from_json(&list).ok());
    let tools = written.as_ref().unwrap_or(&FIXED);
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let e = Extractor::new().max_depth(64).tool_reply_begins_in_answer();
    let size = usize::from(size).max(1);
    // Where the untyped reading's stream and whole read already differ, the `tool` target
    // reports it; this one checks what the list adds.
    let untyped = (
        e.calls::<ToolCall>(text),
        streamed(e.stream_calls::<ToolCall>(), text, size),
    );
    if !agree(&untyped.0, &untyped.1) {
        return;
    }
    let whole = e.calls_with(tools, text);
    let mut stream = e.stream_calls_with(tools);
    let mut got = Vec::new();
    for chunk in text.as_bytes().chunks(size) {
        got.extend(stream.push_bytes(chunk));
    }
    let end = stream.finish().map(|rest| {
        got.extend(rest);
        got
    });
    assert!(agree(&end, &whole), "streamed {end:?}, whole {whole:?}");
});

/// The calls of a stream of `text` in `size`-byte chunks, pushes and `finish`.
fn streamed(
    mut stream: StreamCalls<ToolCall>,
    text: &str,
    size: usize,
) -> Result<Vec<ToolCall>, Error> {
    let mut got = Vec::new();
    for chunk in text.as_bytes().chunks(size) {
        got.extend(stream.push_bytes(chunk));
    }
    got.extend(stream.finish()?);
    Ok(got)
}

/// The same calls, or errors of the same category.
fn agree(a: &Result<Vec<ToolCall>, Error>, b: &Result<Vec<ToolCall>, Error>) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => a == b,
        (Err(a), Err(b)) => a.category() == b.category(),
        _ => false,
    }
}
