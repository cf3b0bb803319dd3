//! The `--junit` and `--json` reports of `llm-extract test`.

use super::results::{labels, CaseResult, Summary};
use llm_extract::assert::Outcome;
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use std::path::Path;

/// A JUnit XML report, written by quick-junit (cargo-nextest's writer, so escaping and the
/// schema are what CI systems read): one `<testsuite>` per case, one `<testcase>` per assertion.
pub(crate) fn junit(
    suite: &Path,
    cases: &[CaseResult],
    _summary: &Summary,
) -> Result<String, String> {
    let mut report = Report::new(suite.display().to_string());
    for case in cases {
        let mut test_suite = TestSuite::new(case.name.as_str());
        for (r, label) in case.results.iter().zip(labels(case)) {
            let not = if r.not { "not " } else { "" };
            let name = format!(
                "{label} {} {not}{} ({})",
                r.path,
                r.matcher,
                r.path_match.as_str()
            );
            let status = match r.outcome {
                Outcome::Pass => TestCaseStatus::success(),
                Outcome::Fail | Outcome::Error => {
                    let kind = if r.outcome == Outcome::Fail {
                        NonSuccessKind::Failure
                    } else {
                        NonSuccessKind::Error
                    };
                    let mut status = TestCaseStatus::non_success(kind);
                    let message = r.message.clone().unwrap_or_default();
                    let samples = serde_json::to_string(&r.actual_samples).unwrap_or_default();
                    status.set_description(format!("{message}\nactual samples: {samples}"));
                    status.set_message(message);
                    status
                }
            };
            let mut test_case = TestCase::new(name, status);
            test_case.set_classname(case.name.as_str());
            test_suite.add_test_case(test_case);
        }
        report.add_test_suite(test_suite);
    }
    report.to_string().map_err(|e| e.to_string())
}

/// A JSON report: the summary and, per case, its load errors and its results in the
/// `AssertionResult` format.
pub(crate) fn json(suite: &Path, cases: &[CaseResult], summary: &Summary) -> String {
    let cases: Vec<serde_json::Value> = cases
        .iter()
        .map(|c| {
            serde_json::json!({
                "name": c.name,
                "passed": c.passed(),
                "errors": c.errors,
                "results": c.results,
            })
        })
        .collect();
    let report = serde_json::json!({
        "suite": suite.display().to_string(),
        "passed": summary.failed == 0 && summary.errors == 0,
        "summary": {
            "assertions": summary.assertions,
            "cases": summary.cases,
            "passed": summary.passed,
            "failed": summary.failed,
            "errors": summary.errors,
        },
        "cases": cases,
    });
    serde_json::to_string_pretty(&report).unwrap_or_default()
}
