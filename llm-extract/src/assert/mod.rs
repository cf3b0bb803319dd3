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
//!
//! # What the module holds
//!
//! | item | what it does |
//! |---|---|
//! | `evaluate_assertions(&Value, &[Assertion]) -> Evaluation` | checks a JSON value |
//! | `evaluate_output(&str, &[Assertion]) -> Evaluation` | repairs a raw reply first; a reply with no JSON is checked as a plain string |
//! | `evaluate_legacy(&str, &Value, OutputType) -> Evaluation` | no assertions: strings compared exactly, JSON deeply |
//! | `resolve_json_path(&Value, &str) -> Result<Vec<Resolved>, Error>` | the values a path selects, with their locations |
//! | `scaffold_assertions(&Value) -> Vec<Assertion>` | one proposed assertion per leaf of a sample output |
//! | `Registry`, `Matcher` | the matchers by name; implement `Matcher` and `register` your own |
//! | `Registry::metadata() -> Vec<MatcherInfo>` | each matcher's name and arity (`"none"`/`"one"`), for a UI's matcher picker |
//! | `Registry::compile(&Assertion) -> Result<CompiledAssertion, Error>` | checks an assertion once (path, matcher, `expected`, regex, schema) and evaluates it against many outputs |
//!
//! # The data model (camelCase JSON)
//!
//! ```json
//! {"id": "a1", "path": "$.items[*].status", "pathMatch": "ALL", "matcher": "toBeOneOf",
//!  "expected": ["READY", "PENDING"], "not": false, "description": "known status"}
//! ```
//!
//! `pathMatch` defaults to `ANY`, `not` to `false`; `expected` is omitted for `toBeNull` (given to a
//! matcher that takes no argument, it is a load error: wrong arity). An empty `path` is an error. A
//! present `"expected": null` is an argument (`toEqual null`), distinct from a missing one.
//! `path_match` is accepted too. Results:
//!
//! ```json
//! {"assertionId": "a1", "path": "$.items[*].status", "matcher": "toBeOneOf", "not": false,
//!  "pathMatch": "ALL", "passed": false, "outcome": "fail", "actualSamples": ["READY", "DONE"],
//!  "message": "$.items[*].status toBeOneOf [\"READY\",\"PENDING\"] expected one of the options, got \"DONE\" at $.items[1].status (1 of 2 values failed)"}
//! ```
//!
//! `outcome` (`pass`, `fail`, `error`) says whether the assertion could be evaluated at all. `actualSamples` holds at
//! most 20 of the resolved values; a value whose JSON is longer than 256 characters becomes a
//! string with its start, `...truncated` and a 12-hex-digit hash of the whole
//! (`"\"xxxx...truncated #3f9a0c12be77"`). It is empty when the path matched nothing.
//!
//! # Paths
//!
//! RFC 9535 JSONPath (through `serde_json_path`, wrapped in `assert::JsonPath` so the engine can
//! be swapped; the public compliance suite runs in our tests, 703 of 703 pass): `$.user.name`,
//! `$.items[0].price`, `$.items[*].id`, `$..id`, `$.items[?@.price > 10]`. Sugar: without a
//! leading `$`, `user.name` means `$.user.name` and `items[0].id` means `$.items[0].id`. A path
//! that cannot be read is an error with a hint: `items.0` -> "did you mean `$.items[0]`?",
//! `first-name` -> "did you mean `$['first-name']`?". Paths are capped at 4096 bytes and 64
//! levels of nesting.
//!
//! # Matchers
//!
//! | matcher | `expected` | passes when | error (not a fail) when |
//! |---|---|---|---|
//! | `toEqual` | any JSON | deep-equal: key order ignored, array order kept, numbers by value (`1` equals `1.0`) | never |
//! | `toBeNull` | none | the value is `null` (a missing value is not null) | never |
//! | `toContain` | any, or `{"value": "...", "caseInsensitive": true}` | an array item deep-equals it, or a string contains it (`""` is contained in every string) | the value is not an array or a string; a string given a non-string |
//! | `toMatch` | `"/src/flags"`, `"src"` or `{"source": ..., "flags": ...}` | a string matches the regex (JavaScript's: `\d`, `\w` and `\b` are ASCII) | the value is not a string |
//! | `toBeOneOf` | a non-empty list | the value deep-equals one of the list | never |
//! | `toBeGreaterThan`, `toBeGreaterThanOrEqual`, `toBeLessThan`, `toBeLessThanOrEqual` | a number | compared by value (integers exactly) | the value is not a number |
//! | `toBeCloseTo` | a number, or `{"value": n, "numDigits": d}` (default 2) | `abs(actual - n) < 10^-d / 2`, as in Jest | the value is not a number |
//! | `toHaveLength` | a non-negative integer | a string has that many characters, or an array that many items | the value is neither |
//! | `toBeType` | `string`, `number`, `integer`, `boolean`, `null`, `array`, `object`, `undefined` | the value has that JSON type (`integer`: a number with no fraction) | never |
//! | `toMatchSchema` | a JSON Schema | the value is valid (draft from `$schema`, 2020-12 by default); the message names the first violations | never (a missing value fails) |
//! | `toBeDefined`, `toBeUndefined` | none | the path resolved (or did not resolve) to a value; `null` counts as defined | never |
//!
//! Regexes run on the `regex` crate: linear time whatever the pattern and input, so no pattern
//! can hang a test run. Flags are `i` (case-insensitive), `m` (`^`/`$` at line ends), `s` (`.`
//! matches newline) and `u` (accepted; matching is always by Unicode code point). Patterns are
//! compiled once when the assertion is loaded, and capped at 1024 characters; features a
//! linear-time engine cannot have are rejected then, by name: look-ahead `(?=`, negative
//! look-ahead `(?!`, look-behind `(?<=`, negative look-behind `(?<!`, backreferences `\1` and
//! `\k<name>`. Patterns inside a `toMatchSchema` schema use the same engine. An `expected`
//! (a schema, a value to compare with) nests at most [`MAX_EXPECTED_DEPTH`] (256) levels: a
//! deeper one is a load error (category `TooDeep`), not a stack overflow.
//!
//! # Load errors and messages
//!
//! invalid schema) is an error result naming the field at fault; the other assertions are still
//! evaluated.
//!
//! Messages say, in this order: path, `not`, matcher, expected, then why, and for multi-value paths
//! the deciding location:
//!
//! ```text
//! $.user.name toMatch /[A-Z][a-z]+/ expected match, got "bob"
//! $.items[*].status toEqual "PENDING" expected an equal value, got "READY" at $.items[0].status (none of 3 values passed)
//! $.items[*].status not toEqual "DONE" expected a different value, got "DONE" at $.items[1].status
//! $.age not toMatch /4/ cannot evaluate: toMatch needs a string, got 42
//! ```
//!
//! # Your own matchers
//!
//! ```rust
//! use llm_extract::assert::{Arity, Assertion, Expected, Matcher, MatcherContext, Registry, Verdict};
//! use serde_json::Value;
//!
//! struct ToBeEven;
//! impl Matcher for ToBeEven {
//!     fn name(&self) -> &str { "toBeEven" }
//!     fn arity(&self) -> Arity { Arity::None }
//!     fn evaluate(&self, actual: Option<&Value>, _: &Expected, _: &MatcherContext) -> Verdict {
//!         match actual.and_then(Value::as_i64) {
//!             Some(n) => Verdict::from_bool(n % 2 == 0),
//!             None => Verdict::Error("expected an integer".into()),
//!         }
//!     }
//!     fn describe(&self, actual: Option<&Value>, _: &Expected, not: bool) -> String {
//!         format!("expected {}, got {}", if not { "an odd number" } else { "an even number" },
//!                 llm_extract::assert::render(actual))
//!     }
//! }
//!
//! let mut registry = Registry::new();
//! registry.register(ToBeEven);
//! assert!(!registry.evaluate(&serde_json::json!({"n": 3}), &[Assertion::new("n", "toBeEven")]).passed);
//! ```
//!
//! `Matcher::prepare` checks and compiles `expected` once at load time (the built-in `toMatch`
//! and `toMatchSchema` keep their compiled regex and schema there); `show_expected` controls how
//! `expected` appears in messages.

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
    MAX_EXPECTED_DEPTH,
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
