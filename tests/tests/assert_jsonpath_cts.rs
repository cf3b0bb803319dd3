//! The JSONPath compliance test suite (RFC 9535), vendored in `jsonpath_cts/`, run through
//! `llm_extract::assert::JsonPath`: every invalid selector is rejected, every valid one selects
//! exactly the expected values at the expected normalized paths.

use llm_extract::assert::{normalized_path, JsonPath};
use serde_json::Value;

#[test]
fn jsonpath_compliance_test_suite() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/jsonpath_cts/cts.json"
    ))
    .unwrap();
    let cts: Value = serde_json::from_str(&text).unwrap();
    let tests = cts["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 703, "the vendored suite has 703 tests");

    let mut failures = Vec::new();
    let (mut invalid, mut valid) = (0, 0);
    for test in tests {
        let name = test["name"].as_str().unwrap();
        let selector = test["selector"].as_str().unwrap();
        let parsed = JsonPath::parse_strict(selector);
        if test["invalid_selector"] == Value::Bool(true) {
            invalid += 1;
            if parsed.is_ok() {
                failures.push(format!("{name}: `{selector}` should be rejected"));
            }
            continue;
        }
        valid += 1;
        let query = match parsed {
            Ok(q) => q,
            Err(e) => {
                failures.push(format!("{name}: `{selector}` rejected: {e}"));
                continue;
            }
        };
        let found = query.resolve(&test["document"]);
        let values: Vec<Value> = found.iter().map(|r| r.value.clone()).collect();
        let paths: Vec<Value> = found
            .iter()
            .map(|r| Value::String(normalized_path(&r.path)))
            .collect();
        // Either one expected result, or several acceptable orders (`results`).
        let (results, result_paths) = match test.get("result") {
            Some(result) => (vec![result.clone()], vec![test["result_paths"].clone()]),
            None => (
                test["results"].as_array().unwrap().clone(),
                test["results_paths"].as_array().unwrap().clone(),
            ),
        };
        let matched = results.iter().zip(&result_paths).any(|(r, p)| {
            r.as_array() == Some(&values) && (p.is_null() || p.as_array() == Some(&paths))
        });
        if !matched {
            failures.push(format!(
                "{name}: `{selector}` gave {values:?} at {paths:?}, expected one of {results:?}"
            ));
        }
    }
    assert_eq!((valid, invalid), (456, 247));
    assert!(
        failures.is_empty(),
        "{} of 703 CTS tests failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
