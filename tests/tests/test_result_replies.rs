//! An LLM test runner's `TestResult`, read with `from_str_all` from every shape a runner's
//! fallback pipeline handles (one object, a list, several blocks), with its normalization rules.

use llm_extract::{Category, CoercionKind};
use llm_extract_examples::test_results::*;

fn parse_results(text: &str) -> Result<Vec<TestResult>, llm_extract::Error> {
    Ok(llm_extract::from_str_all::<TestResult>(text)?
        .into_iter()
        .map(TestResult::normalized)
        .collect())
}

fn statuses(results: &[TestResult]) -> Vec<TestStatus> {
    results.iter().map(|r| r.status.clone()).collect()
}

#[test]
fn the_five_strategies_of_the_seed() {
    let rows: &[(&str, &[TestStatus])] = &[
        // 1. raw JSON array
        (
            r#"[{"id":"a","status":"pass"},{"id":"b","status":"skip"}]"#,
            &[TestStatus::Pass, TestStatus::Skip],
        ),
        // 2. raw JSON object, wrapped in a list
        (r#"{"id":"a","status":"pass"}"#, &[TestStatus::Pass]),
        // 3. fenced JSON
        (
            "```json\n[{\"id\":\"a\",\"status\":\"fail\"}]\n```",
            &[TestStatus::Fail],
        ),
        // 4. a bracket-matched array inside prose
        (
            r#"Here are results: [{"id":"a","status":"pass"}, {"id":"b","status":"invalid"}] Hope that helps!"#,
            &[TestStatus::Pass, TestStatus::Invalid],
        ),
        // 5. a bracket-matched object inside prose
        (
            r#"Here is the result: {"id":"a","status":"error","error":"boom"} Done."#,
            &[TestStatus::Error],
        ),
    ];
    for (text, want) in rows {
        let results = parse_results(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(statuses(&results), *want, "{text}");
        assert_eq!(results[0].id.as_deref(), Some("a"), "{text}");
    }
}

#[test]
fn several_blocks_give_one_result_each() {
    let text = "First:\n```json\n{\"id\":\"a\",\"status\":\"pass\"}\n```\nSecond:\n```json\n{\"id\":\"b\",\"status\":\"fail\"}\n```";
    let results = parse_results(text).unwrap();
    assert_eq!(statuses(&results), vec![TestStatus::Pass, TestStatus::Fail]);
}

#[test]
fn an_unparseable_reply_is_an_error_not_a_panic() {
    let err = parse_results("I could not run the tests, sorry.").unwrap_err();
    assert_eq!(err.category(), Category::NotFound);
    assert!(parse_results("").is_err());
}

#[test]
fn unknown_status_becomes_an_error_result() {
    let results = parse_results(r#"{"id": "a", "status": "exploded"}"#).unwrap();
    assert_eq!(results[0].status, TestStatus::Error);
    assert_eq!(
        results[0].error.as_deref(),
        Some("unknown status \"exploded\"")
    );
    // Case and a sentence around the status are fine.
    let results =
        parse_results(r#"[{"status": "PASS"}, {"status": "The test was skipped: skip"}]"#).unwrap();
    assert_eq!(statuses(&results), vec![TestStatus::Pass, TestStatus::Skip]);
}

#[test]
fn fail_only_fields_are_kept_for_fail_only() {
    let text = r#"[
      {"id": "a", "status": "fail", "expectation": "200", "observed": "500", "location": "api.rs:10", "resolution": "retry"},
      {"id": "b", "status": "pass", "expectation": "x", "observed": "y"}
    ]"#;
    let results = parse_results(text).unwrap();
    assert_eq!(results[0].observed.as_deref(), Some("500"));
    assert_eq!(results[0].resolution.as_deref(), Some("retry"));
    assert_eq!(results[1].expectation, None);
    assert_eq!(results[1].observed, None);
}

#[test]
fn non_string_values_are_dropped_with_a_record() {
    let text = r#"{"id": 7, "status": "fail", "expectation": {"code": 200}, "observed": "500", "location": ["a.rs", 3]}"#;
    let out = llm_extract::extract::<TestResult>(text).unwrap();
    let r = out.value.clone().normalized();
    assert_eq!(r.id, None);
    assert_eq!(r.expectation, None);
    assert_eq!(r.observed.as_deref(), Some("500"));
    assert_eq!(r.location, None);
    let caught: Vec<String> = out
        .report
        .coercions
        .iter()
        .filter(|c| c.kind == CoercionKind::Caught)
        .map(|c| c.path.to_string())
        .collect();
    assert_eq!(caught, vec!["$.id", "$.expectation", "$.location"]);
}

#[test]
fn a_missing_status_is_reported_with_its_path() {
    let err = llm_extract::from_str::<TestResult>(r#"{"id": "a"}"#).unwrap_err();
    assert_eq!(err.category(), Category::Missing);
    assert_eq!(err.issues()[0].path.to_string(), "$.status");
}
