//! The assertion data model and its camelCase JSON: assertions in, results out.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use std::fmt;

/// How an assertion aggregates the values its path resolves to.
///
/// Serialized as `"ANY"` or `"ALL"` (lowercase is accepted when reading).
///
/// ```
/// use llm_extract::assert::PathMatch;
/// assert_eq!(serde_json::to_string(&PathMatch::All).unwrap(), "\"ALL\"");
/// assert_eq!(PathMatch::default(), PathMatch::Any);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PathMatch {
    /// Passes when any resolved value passes (the default).
    #[default]
    #[serde(rename = "ANY", alias = "any", alias = "Any")]
    Any,
    /// Passes only when every resolved value passes.
    #[serde(rename = "ALL", alias = "all", alias = "All")]
    All,
}

impl PathMatch {
    /// `"ANY"` or `"ALL"`.
    ///
    /// ```
    /// assert_eq!(llm_extract::assert::PathMatch::Any.as_str(), "ANY");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            PathMatch::Any => "ANY",
            PathMatch::All => "ALL",
        }
    }
}

/// One check against the value a JSONPath addresses in a model's output.
///
/// Field names are camelCase in JSON (`pathMatch`); snake_case (`path_match`) is accepted
/// when reading. A present `"expected": null` is `Some(Value::Null)`, distinct from a missing
/// `expected` (`None`).
///
/// ```
/// use llm_extract::assert::{Assertion, PathMatch};
/// let a: Assertion = serde_json::from_str(
///     r#"{"id": "a1", "path": "$.items[*].status", "pathMatch": "ALL",
///         "matcher": "toBeOneOf", "expected": ["READY", "PENDING"]}"#,
/// ).unwrap();
/// assert_eq!(a.path_match, PathMatch::All);
/// assert!(!a.not);
///
/// let b = Assertion::new("$.user.name", "toMatch").expected("/^[A-Z]/").negate();
/// assert!(b.not);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Assertion {
    /// An identifier (a uuid, say); may be empty.
    #[serde(default)]
    pub id: String,
    /// A JSONPath (`$.items[0].id`) or its sugar (`items[0].id`).
    pub path: String,
    /// How to aggregate several resolved values; default ANY.
    #[serde(default, alias = "path_match")]
    pub path_match: PathMatch,
    /// The matcher's name, e.g. `toEqual`.
    pub matcher: String,
    /// The matcher's argument; `None` when absent (for no-argument matchers like `toBeNull`).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub expected: Option<Value>,
    /// Inverts the aggregated result (never turns an error into a pass).
    #[serde(default)]
    pub not: bool,
    /// A human label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// Keeps a present `null` as `Some(Value::Null)`; `#[serde(default)]` covers the absent case.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

impl Assertion {
    /// An assertion with an empty id, ANY, no `expected`, not negated.
    pub fn new(path: impl Into<String>, matcher: impl Into<String>) -> Assertion {
        Assertion {
            id: String::new(),
            path: path.into(),
            path_match: PathMatch::Any,
            matcher: matcher.into(),
            expected: None,
            not: false,
            description: None,
        }
    }

    /// Sets `expected`.
    pub fn expected(mut self, expected: impl Into<Value>) -> Assertion {
        self.expected = Some(expected.into());
        self
    }

    /// Sets `id`.
    pub fn id(mut self, id: impl Into<String>) -> Assertion {
        self.id = id.into();
        self
    }

    /// Sets `pathMatch` to ALL.
    pub fn all(mut self) -> Assertion {
        self.path_match = PathMatch::All;
        self
    }

    /// Sets `not`.
    pub fn negate(mut self) -> Assertion {
        self.not = true;
        self
    }
}

/// The three outcomes of an assertion. `not` swaps pass and fail; an error stays an error.
///
/// ```
/// use llm_extract::assert::Outcome;
/// assert_eq!(Outcome::Pass.negate(), Outcome::Fail);
/// assert_eq!(Outcome::Error.negate(), Outcome::Error);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The check holds.
    Pass,
    /// The check does not hold.
    Fail,
    /// The check could not be made: a matcher was given the wrong kind of value, or the
    /// assertion itself is invalid.
    Error,
}

impl Outcome {
    /// Pass and fail swapped; error unchanged.
    pub fn negate(self) -> Outcome {
        match self {
            Outcome::Pass => Outcome::Fail,
            Outcome::Fail => Outcome::Pass,
            Outcome::Error => Outcome::Error,
        }
    }

    /// `"PASS"`, `"FAIL"` or `"ERROR"`.
    ///
    /// ```
    /// assert_eq!(llm_extract::assert::Outcome::Error.label(), "ERROR");
    /// ```
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Pass => "PASS",
            Outcome::Fail => "FAIL",
            Outcome::Error => "ERROR",
        }
    }
}

/// Its [label](Outcome::label): `PASS`, `FAIL` or `ERROR`.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// The result of one assertion: whether it passed, its `outcome`, and what the path found.
///
/// `passed` is `outcome == Outcome::Pass`. `actualSamples` holds at most
/// [`MAX_SAMPLES`](super::MAX_SAMPLES) of the resolved values, long ones truncated; it is
/// empty when the path resolved to nothing.
///
/// ```
/// use llm_extract::assert::{evaluate_assertions, Assertion};
/// let e = evaluate_assertions(&serde_json::json!({"n": 1}), &[Assertion::new("n", "toBeNull").id("x")]);
/// let json = serde_json::to_value(&e.results[0]).unwrap();
/// assert_eq!(json["assertionId"], "x");
/// assert_eq!(json["pathMatch"], "ANY");
/// assert_eq!(json["actualSamples"], serde_json::json!([1]));
/// assert_eq!(json["outcome"], "fail");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssertionResult {
    /// The assertion's `id`.
    #[serde(alias = "assertion_id")]
    pub assertion_id: String,
    /// The assertion's path as JSONPath (sugar expanded).
    pub path: String,
    /// The matcher's name.
    pub matcher: String,
    /// Whether the assertion was negated.
    #[serde(default)]
    pub not: bool,
    /// The aggregation used.
    #[serde(default, alias = "path_match")]
    pub path_match: PathMatch,
    /// Whether the assertion passed.
    pub passed: bool,
    /// Pass, fail or error.
    pub outcome: Outcome,
    /// The values the path resolved to (sampled, long values truncated).
    #[serde(default, alias = "actual_samples")]
    pub actual_samples: Vec<Value>,
    /// Why it failed or could not be evaluated, e.g.
    /// `$.user.name toMatch /[A-Z][a-z]+/ expected match, got "bob"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// The result of a set of assertions: passed when every assertion passed.
///
/// ```
/// use llm_extract::assert::{evaluate_assertions, Assertion};
/// let e = evaluate_assertions(&serde_json::json!({"ok": true}), &[Assertion::new("$.ok", "toEqual").expected(true)]);
/// assert!(e.passed);
/// assert_eq!(serde_json::to_value(&e).unwrap()["passed"], true);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// Whether every assertion passed.
    pub passed: bool,
    /// One result per assertion, in order.
    pub results: Vec<AssertionResult>,
}

impl Evaluation {
    /// An evaluation of `results`; passed when all of them passed.
    ///
    /// ```
    /// use llm_extract::assert::Evaluation;
    /// assert!(Evaluation::from_results(Vec::new()).passed);
    /// ```
    pub fn from_results(results: Vec<AssertionResult>) -> Evaluation {
        Evaluation {
            passed: results.iter().all(|r| r.outcome == Outcome::Pass),
            results,
        }
    }

    /// How many results have `outcome`.
    ///
    /// ```
    /// use llm_extract::assert::{evaluate_assertions, Assertion, Outcome};
    /// let e = evaluate_assertions(&serde_json::json!(1), &[Assertion::new("$", "toBeNull")]);
    /// assert_eq!(e.count(Outcome::Fail), 1);
    /// ```
    pub fn count(&self, outcome: Outcome) -> usize {
        self.results.iter().filter(|r| r.outcome == outcome).count()
    }
}

/// How the legacy check (no assertions) compares a raw output with `expectedOutput`.
///
/// ```
/// use llm_extract::assert::OutputType;
/// let t: OutputType = serde_json::from_str("\"json\"").unwrap();
/// assert_eq!(t, OutputType::Json);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputType {
    /// The raw text must equal the expected string exactly.
    String,
    /// The repaired JSON must deep-equal the expected value.
    Json,
}
