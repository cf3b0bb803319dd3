//! Any bytes through every runtime entry point: no panic, no stack overflow, no hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use llm_extract::Extractor;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // The tolerant parser directly, with a small and a huge depth limit.
    if let Ok(parsed) = llm_extract::__internal::parse(&text, 8) {
        let _ = parsed.node.to_value();
    }
    if let Ok(parsed) = llm_extract::__internal::parse(&text, 1 << 20) {
        assert!(parsed.end <= text.len());
        let _ = parsed.into_owned();
    }
    let _ = llm_extract::repair(&text);
    let _ = llm_extract::repair_all(&text);
    if let Ok(out) = llm_extract::extract::<serde_json::Value>(&text) {
        for r in &out.report.repairs {
            assert!(r.span.start <= r.span.end && r.span.end <= text.len());
        }
    }
    let _ = Extractor::new()
        .marker("TOOL_CALL")
        .max_payload(64)
        .require_complete()
        .repair_all(&text);
    // Valid JSON must come back exactly as serde_json reads it.
    if let Ok(expected) = serde_json::from_str::<serde_json::Value>(&text) {
        if !expected.is_string() {
            assert_eq!(llm_extract::repair(&text).ok(), Some(expected.clone()));
        }
        if let Ok(parsed) = llm_extract::__internal::parse(text.trim_start(), 128) {
            assert_eq!(parsed.node.to_value(), expected);
            assert!(parsed.repairs.is_empty());
        }
    }
});
