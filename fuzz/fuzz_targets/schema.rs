//! The schema reader: a schema the fuzzer writes (any JSON, so any keyword, `$ref` and
//! nesting), compiled, then a reply read against it; and fixed recursive schemas read from
//! raw bytes. No panic, no stack overflow, no hang; a compile error or a reading error is fine.
#![no_main]

use libfuzzer_sys::fuzz_target;
use llm_extract::{Extractor, Schema};
use std::sync::LazyLock;

/// Schemas that recurse and choose, compiled once.
static FIXED: LazyLock<Vec<Schema>> = LazyLock::new(|| {
    [
        serde_json::json!({
            "$ref": "#/$defs/Node",
            "$defs": {"Node": {"type": "object", "properties": {
                "name": {"type": "string", "minLength": 1, "pattern": "^[a-z]+$"},
                "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}, "maxItems": 8},
                "kind": {"enum": ["leaf", "branch", 3, null]}
            }, "required": ["name"]}}
        }),
        serde_json::json!({"anyOf": [
            {"type": "array", "items": {"$ref": "#"}},
            {"type": ["integer", "string", "null"], "format": "uint8"},
            {"type": "object", "additionalProperties": {"$ref": "#"}}
        ]}),
    ]
    .iter()
    .map(|s| Schema::new(s).expect("the fixed schemas compile"))
    .collect()
});

fuzz_target!(|data: &[u8]| {
    let e = Extractor::new().max_depth(64);
    if let Ok(text) = std::str::from_utf8(data) {
        for schema in FIXED.iter() {
            let _ = e.extract_with(schema, text);
        }
    }
    // The first line is the schema, the rest the reply.
    let split = data.iter().position(|b| *b == b'\n').unwrap_or(data.len());
    let (head, rest) = data.split_at(split);
    let Ok(schema) = serde_json::from_slice::<serde_json::Value>(head) else {
        return;
    };
    let Ok(schema) = Schema::new(&schema) else {
        return;
    };
    if let Ok(text) = std::str::from_utf8(rest) {
        let _ = e.extract_with(&schema, text);
        let _ = e.from_str_all_with(&schema, text);
    }
});
