//! The `--junit` and `--json` reports of `llm-extract test`.

use super::{labels, CaseResult, Summary};
use llm_extract::assert::Outcome;
use std::path::Path;

/// A JUnit XML report: one `<testsuite>` per case, one `<testcase>` per assertion.
pub(crate) fn junit(suite: &Path, cases: &[CaseResult], summary: &Summary) -> String {
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.push_str(&format!(
        "<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\">\n",
        escape(&suite.display().to_string()),
        summary.assertions,
        summary.failed,
        summary.errors
    ));
    for case in cases {
        let count = |o: Outcome| case.results.iter().filter(|r| r.outcome == o).count();
        xml.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\">\n",
            escape(&case.name),
            case.results.len(),
            count(Outcome::Fail),
            count(Outcome::Error)
        ));
        for (r, label) in case.results.iter().zip(labels(case)) {
            let not = if r.not { "not " } else { "" };
            let name = format!(
                "{label} {} {not}{} ({})",
                r.path,
                r.matcher,
                r.path_match.as_str()
            );
            xml.push_str(&format!(
                "    <testcase classname=\"{}\" name=\"{}\"",
                escape(&case.name),
                escape(&name)
            ));
            let message = r.message.clone().unwrap_or_default();
            let samples = serde_json::to_string(&r.actual_samples).unwrap_or_default();
            match r.outcome {
                Outcome::Pass => xml.push_str("/>\n"),
                Outcome::Fail | Outcome::Error => {
                    let tag = if r.outcome == Outcome::Fail {
                        "failure"
                    } else {
                        "error"
                    };
                    xml.push_str(&format!(
                        ">\n      <{tag} message=\"{}\">{}\nactual samples: {}</{tag}>\n    </testcase>\n",
                        escape(&message),
                        escape(&message),
                        escape(&samples)
                    ));
                }
            }
        }
        xml.push_str("  </testsuite>\n");
    }
    xml.push_str("</testsuites>\n");
    xml
}

/// Escapes text for XML attributes and content; drops characters XML 1.0 cannot hold.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' | '\r' => out.push_str(&format!("&#{};", c as u32)),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// A JSON report: the summary and, per case, its load errors and its results in seed 001's
/// `AssertionResult` format (what the PRD stores in `test_results.details`).
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
