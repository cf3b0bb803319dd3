//! Assertions over model outputs: JSONPath selects values, Jest-style matchers check them.
//!
//! ```
//! use llm_extract::assert::{evaluate_output, Assertion};
//! let reply = "Here you go:\n```json\n{\"user\": {\"name\": \"bob\"}, \"items\": [{\"status\": \"READY\"}]}\n```";
//! let evaluation = evaluate_output(reply, &[
//!     Assertion::new("$.user.name", "toMatch").expected("/[A-Z][a-z]+/"),
//!     Assertion::new("items[*].status", "toBeOneOf").expected(serde_json::json!(["READY", "PENDING"])).all(),
//! ]);
//! assert!(!evaluation.passed);
//! assert_eq!(
//!     evaluation.results[0].message.as_deref(),
//!     Some(r#"$.user.name toMatch /[A-Z][a-z]+/ expected match, got "bob""#),
//! );
//! assert!(evaluation.results[1].passed);
//! ```
//!
//! Each assertion resolves its path to zero or more values (none is taken as one *undefined*
//! value), runs its matcher on each, aggregates (ANY: any value passes; ALL: every value
//! passes), then applies `not`. Besides pass and fail a matcher can answer *error* when it is
//! given a kind of value it cannot judge (`toMatch` on a number); `not` never turns an error
//! into a pass:
//!
//! | per-value outcomes           | ANY   | ALL   | `not` ANY | `not` ALL |
//! |------------------------------|-------|-------|-----------|-----------|
//! | all pass                     | pass  | pass  | fail      | fail      |
//! | some pass, some fail         | pass  | fail  | fail      | pass      |
//! | all fail                     | fail  | fail  | pass      | pass      |
//! | some pass, some error        | pass  | error | fail      | error     |
//! | none pass, some error        | error | error | error     | error     |

mod json_path;
mod matcher;
mod matchers;
mod model;
mod pattern;
mod scaffold;
mod value;

pub use self::json_path::{normalized_path, resolve_json_path, JsonPath, Resolved, MAX_PATH_LEN};
pub use self::matcher::{
    Arity, CompiledAssertion, Expected, Matcher, MatcherContext, MatcherInfo, Registry, Verdict,
};
pub use self::model::{Assertion, AssertionResult, Evaluation, Outcome, OutputType, PathMatch};
pub use self::pattern::MAX_PATTERN_LEN;
pub use self::scaffold::{scaffold_assertions, MAX_SCAFFOLD};
pub use self::value::{
    compare_numbers, deep_equal, render, sample, type_name, MAX_SAMPLES, MAX_SAMPLE_CHARS,
};

use serde_json::Value;

/// Evaluates `assertions` against `actual` with the built-in matchers.
///
/// ```
/// use llm_extract::assert::{evaluate_assertions, Assertion, Outcome};
/// let actual = serde_json::json!({"age": 42});
/// let e = evaluate_assertions(&actual, &[Assertion::new("age", "toMatch").expected("/4/").negate()]);
/// assert_eq!(e.results[0].outcome, Outcome::Error); // `not` does not turn an error into a pass
/// assert_eq!(e.results[0].message.as_deref(), Some("$.age not toMatch /4/ cannot evaluate: toMatch needs a string, got 42"));
/// ```
pub fn evaluate_assertions(actual: &Value, assertions: &[Assertion]) -> Evaluation {
    Registry::builtin().evaluate(actual, assertions)
}

/// Evaluates `assertions` against a model's raw reply, after [`repair`](crate::repair) found
/// the JSON value in it (fences, prose, quirks). A reply with no JSON-like value is checked as
/// a plain string, so `$` with `toMatch` or `toContain` still works on prose.
///
/// ```
/// use llm_extract::assert::{evaluate_output, Assertion};
/// let e = evaluate_output("The capital is Paris.", &[Assertion::new("$", "toContain").expected("Paris")]);
/// assert!(e.passed);
/// ```
pub fn evaluate_output(raw_text: &str, assertions: &[Assertion]) -> Evaluation {
    Registry::builtin().evaluate_output(raw_text, assertions)
}

/// The value assertions see for a raw reply: the repaired JSON, or the text as a string.
pub(crate) fn output_value(raw_text: &str) -> Value {
    crate::repair(raw_text).unwrap_or_else(|_| Value::String(raw_text.to_string()))
}

/// The legacy check for a test case without assertions: with [`OutputType::String`] the raw
/// text must equal `expected_output` exactly; with [`OutputType::Json`] the repaired output
/// must deep-equal it. The one result has id `expectedOutput`, path `$` and matcher `toEqual`.
///
/// ```
/// use llm_extract::assert::{evaluate_legacy, OutputType};
/// use serde_json::json;
/// assert!(evaluate_legacy("Paris", &json!("Paris"), OutputType::String).passed);
/// assert!(!evaluate_legacy("Paris.", &json!("Paris"), OutputType::String).passed);
/// assert!(evaluate_legacy("{\"b\": 2, \"a\": 1.0}", &json!({"a": 1, "b": 2}), OutputType::Json).passed);
/// ```
pub fn evaluate_legacy(
    raw_text: &str,
    expected_output: &Value,
    output_type: OutputType,
) -> Evaluation {
    let (actual, passed) = match output_type {
        OutputType::String => {
            let actual = Value::String(raw_text.to_string());
            let passed = match expected_output {
                Value::String(e) => e == raw_text,
                other => deep_equal(&actual, other),
            };
            (Some(actual), passed)
        }
        OutputType::Json => match crate::repair(raw_text) {
            Ok(actual) => {
                let passed = deep_equal(&actual, expected_output);
                (Some(actual), passed)
            }
            Err(_) => (None, false),
        },
    };
    let message = (!passed).then(|| {
        let how = match (output_type, &actual) {
            (OutputType::String, _) => "expected exactly this text",
            (OutputType::Json, Some(_)) => "expected an equal value",
            (OutputType::Json, None) => "expected JSON, found none in the output",
        };
        let shown = actual.as_ref().map_or_else(
            || render(Some(&Value::String(raw_text.to_string()))),
            |a| render(Some(a)),
        );
        format!(
            "$ toEqual {} {how}, got {shown}",
            render(Some(expected_output))
        )
    });
    Evaluation::from_results(vec![AssertionResult {
        assertion_id: "expectedOutput".to_string(),
        path: "$".to_string(),
        matcher: "toEqual".to_string(),
        not: false,
        path_match: PathMatch::Any,
        passed,
        outcome: if passed { Outcome::Pass } else { Outcome::Fail },
        actual_samples: actual.iter().map(sample).collect(),
        message,
    }])
}
