//! The matcher registry: the `Matcher` trait users implement, and the engine that checks an
//! assertion when it is loaded and evaluates it over the values its path resolves to.

use super::json_path::{readable_path, JsonPath, Resolved};
use super::model::{Assertion, AssertionResult, Evaluation, Outcome, PathMatch};
use super::value::{deep_equal, render, samples};
use crate::error::{Category, Error, Issue};
use crate::path::Path;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::any::Any;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// How many arguments a matcher takes in `expected` (serialized `"none"` / `"one"`).
///
/// ```
/// use llm_extract::assert::{Arity, Registry};
/// let registry = Registry::new();
/// assert_eq!(registry.get("toBeNull").unwrap().arity(), Arity::None);
/// assert_eq!(serde_json::to_string(&Arity::One).unwrap(), "\"one\"");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Arity {
    /// No argument (`toBeNull`); an assertion that gives `expected` does not compile.
    None,
    /// One argument, required.
    One,
}

/// What a matcher decided about one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The value satisfies the matcher.
    Pass,
    /// The value does not satisfy the matcher.
    Fail,
    /// The matcher cannot judge this kind of value (e.g. `toMatch` on a number); the reason
    /// reads after "cannot evaluate: ".
    Error(String),
}

impl Verdict {
    /// `Pass` when `ok`, else `Fail`.
    ///
    /// ```
    /// assert_eq!(llm_extract::assert::Verdict::from_bool(true), llm_extract::assert::Verdict::Pass);
    /// ```
    pub fn from_bool(ok: bool) -> Verdict {
        if ok {
            Verdict::Pass
        } else {
            Verdict::Fail
        }
    }
}

/// A matcher's argument: the `expected` JSON and whatever [`Matcher::prepare`] built from it
/// once, at load time (a compiled regex, a compiled schema).
///
/// ```
/// use llm_extract::assert::{Expected, MatcherContext, Registry, Verdict};
/// let to_equal = Registry::builtin().get("toEqual").unwrap();
/// let expected = Expected::new(Some(serde_json::json!([1, 2])));
/// assert_eq!(expected.value(), Some(&serde_json::json!([1, 2])));
/// assert!(expected.prepared::<String>().is_none());
/// let verdict = to_equal.evaluate(Some(&serde_json::json!([1.0, 2])), &expected, &MatcherContext::default());
/// assert_eq!(verdict, Verdict::Pass);
/// ```
pub struct Expected {
    value: Option<Value>,
    prepared: Option<Box<dyn Any + Send + Sync>>,
}

impl Expected {
    /// An argument with nothing prepared (for calling a matcher directly).
    pub fn new(value: Option<Value>) -> Expected {
        Expected {
            value,
            prepared: None,
        }
    }

    /// The `expected` JSON, `None` when absent.
    pub fn value(&self) -> Option<&Value> {
        self.value.as_ref()
    }

    /// What `prepare` built, if it is a `T`.
    pub fn prepared<T: 'static>(&self) -> Option<&T> {
        self.prepared.as_ref()?.downcast_ref::<T>()
    }
}

impl fmt::Debug for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Expected")
            .field("value", &self.value)
            .field("prepared", &self.prepared.is_some())
            .finish()
    }
}

/// Helpers a matcher may use.
#[derive(Clone, Copy, Debug, Default)]
pub struct MatcherContext {
    _private: (),
}

impl MatcherContext {
    /// Deep equality: key order ignored, array order kept, `1` equals `1.0`.
    ///
    /// ```
    /// let ctx = llm_extract::assert::MatcherContext::default();
    /// assert!(ctx.deep_equal(&serde_json::json!({"a": 1, "b": 2}), &serde_json::json!({"b": 2, "a": 1.0})));
    /// ```
    pub fn deep_equal(&self, a: &Value, b: &Value) -> bool {
        deep_equal(a, b)
    }
}

/// A named check of one value against an expected argument.
///
/// `actual` is `None` for *undefined*: the path resolved to nothing. Register an implementation
/// in a [`Registry`] to use it by name in assertions.
///
/// ```
/// use llm_extract::assert::{Arity, Assertion, Expected, Matcher, MatcherContext, Registry, Verdict};
/// use serde_json::{json, Value};
///
/// struct ToBeEven;
/// impl Matcher for ToBeEven {
///     fn name(&self) -> &str { "toBeEven" }
///     fn arity(&self) -> Arity { Arity::None }
///     fn evaluate(&self, actual: Option<&Value>, _: &Expected, _: &MatcherContext) -> Verdict {
///         match actual.and_then(Value::as_i64) {
///             Some(n) => Verdict::from_bool(n % 2 == 0),
///             None => Verdict::Error("expected an integer".into()),
///         }
///     }
///     fn describe(&self, actual: Option<&Value>, _: &Expected, not: bool) -> String {
///         let want = if not { "an odd number" } else { "an even number" };
///         format!("expected {want}, got {}", llm_extract::assert::render(actual))
///     }
/// }
///
/// let mut registry = Registry::new();
/// registry.register(ToBeEven);
/// let e = registry.evaluate(&json!({"n": 3}), &[Assertion::new("n", "toBeEven")]);
/// assert_eq!(e.results[0].message.as_deref(), Some("$.n toBeEven expected an even number, got 3"));
/// ```
pub trait Matcher: Send + Sync + 'static {
    /// The name assertions use, e.g. `toEqual`.
    fn name(&self) -> &str;

    /// Whether `expected` is required.
    fn arity(&self) -> Arity;

    /// Checks `expected` and builds what evaluation needs from it, once, when the assertion is
    /// loaded. An `Err` is reported as a load error naming the assertion. Called only with
    /// `Some` when the arity is one.
    fn prepare(
        &self,
        expected: Option<&Value>,
    ) -> Result<Option<Box<dyn Any + Send + Sync>>, String> {
        let _ = expected;
        Ok(None)
    }

    /// Judges one value; `None` is undefined (nothing at the path).
    fn evaluate(
        &self,
        actual: Option<&Value>,
        expected: &Expected,
        ctx: &MatcherContext,
    ) -> Verdict;

    /// Why the check came out against the assertion, after the path, matcher and expected
    /// value: e.g. `expected match, got "bob"`. `not` says the assertion was negated.
    fn describe(&self, actual: Option<&Value>, expected: &Expected, not: bool) -> String;

    /// How `expected` appears in messages; compact JSON by default.
    fn show_expected(&self, expected: &Expected) -> String {
        expected
            .value()
            .map(|v| render(Some(v)))
            .unwrap_or_default()
    }
}

/// A matcher's name and arity, as [`Registry::metadata`] lists them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct MatcherInfo {
    /// The name assertions use.
    pub name: String,
    /// Whether `expected` is required.
    pub arity: Arity,
}

/// The matchers available by name. [`Registry::new`] holds the built-in ones; add your own
/// with [`Registry::register`].
///
/// ```
/// let r = llm_extract::assert::Registry::new();
/// assert!(r.get("toEqual").is_some());
/// assert!(r.names().any(|n| n == "toMatchSchema"));
/// ```
#[derive(Clone)]
pub struct Registry {
    matchers: BTreeMap<String, Arc<dyn Matcher>>,
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.matchers.keys()).finish()
    }
}

impl Registry {
    /// A registry with no matcher at all.
    ///
    /// ```
    /// let r = llm_extract::assert::Registry::empty();
    /// assert_eq!(r.names().count(), 0);
    /// ```
    pub fn empty() -> Registry {
        Registry {
            matchers: BTreeMap::new(),
        }
    }

    /// The process-wide registry of built-ins that the free functions use.
    ///
    /// ```
    /// let names: Vec<&str> = llm_extract::assert::Registry::builtin().names().collect();
    /// assert!(names.contains(&"toBeOneOf"));
    /// ```
    pub fn builtin() -> &'static Registry {
        static BUILTIN: OnceLock<Registry> = OnceLock::new();
        BUILTIN.get_or_init(Registry::new)
    }

    /// Adds `matcher` under its name, returning the one it replaces. See [`Matcher`] for a
    /// full example.
    pub fn register(&mut self, matcher: impl Matcher) -> Option<Arc<dyn Matcher>> {
        self.matchers
            .insert(matcher.name().to_string(), Arc::new(matcher))
    }

    /// The matcher named `name`.
    ///
    /// ```
    /// let r = llm_extract::assert::Registry::new();
    /// assert_eq!(r.get("toMatch").map(|m| m.name()), Some("toMatch"));
    /// assert!(r.get("toMatches").is_none());
    /// ```
    pub fn get(&self, name: &str) -> Option<&dyn Matcher> {
        self.matchers.get(name).map(|m| m.as_ref())
    }

    /// Every matcher name, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.matchers.keys().map(String::as_str)
    }

    /// What a UI needs to offer the matchers: each name and arity, sorted by name.
    ///
    /// ```
    /// let info = llm_extract::assert::Registry::new().metadata();
    /// let json = serde_json::to_value(&info).unwrap();
    /// assert!(json.as_array().unwrap().contains(&serde_json::json!({"name": "toBeNull", "arity": "none"})));
    /// ```
    pub fn metadata(&self) -> Vec<MatcherInfo> {
        self.matchers
            .values()
            .map(|m| MatcherInfo {
                name: m.name().to_string(),
                arity: m.arity(),
            })
            .collect()
    }

    /// Checks an assertion and prepares it for evaluation: its path parses, its matcher exists,
    /// and its `expected` suits the matcher. Every problem is reported, each under the
    /// assertion's field (`$.path`, `$.matcher`, `$.expected`).
    ///
    /// ```
    /// use llm_extract::assert::{Assertion, Registry};
    /// let err = Registry::new().compile(&Assertion::new("items.0", "toEqul")).unwrap_err();
    /// assert_eq!(err.issues().len(), 2);
    /// assert!(err.to_string().contains("did you mean `toEqual`"), "{err}");
    /// ```
    pub fn compile(&self, assertion: &Assertion) -> Result<CompiledAssertion, Error> {
        if let Some(issue) = too_deep(assertion.expected.as_ref()) {
            return Err(Error::new(vec![issue]));
        }
        let mut issues = Vec::new();
        let query = JsonPath::parse(&assertion.path).map_err(|e| {
            for issue in e.issues() {
                issues.push(Issue {
                    path: Path::root().key("path"),
                    ..issue.clone()
                });
            }
        });
        let matcher = match self.matchers.get(&assertion.matcher) {
            Some(m) => Some(m.clone()),
            None => {
                let mut message = format!("unknown matcher `{}`", assertion.matcher);
                if let Some(near) = closest(&assertion.matcher, self.names()) {
                    message.push_str(&format!("; did you mean `{near}`?"));
                }
                issues.push(Issue::new(
                    Category::Other,
                    Path::root().key("matcher"),
                    message,
                ));
                None
            }
        };
        let mut expected = Expected::new(assertion.expected.clone());
        if let Some(matcher) = &matcher {
            let at = Path::root().key("expected");
            match (matcher.arity(), &assertion.expected) {
                (Arity::One, None) => issues.push(Issue::new(
                    Category::Missing,
                    at,
                    format!("`{}` needs `expected`", matcher.name()),
                )),
                (Arity::One, Some(value)) => match matcher.prepare(Some(value)) {
                    Ok(prepared) => expected.prepared = prepared,
                    Err(why) => issues.push(Issue::new(
                        Category::Other,
                        at,
                        format!("`{}`: {why}", matcher.name()),
                    )),
                },
                (Arity::None, Some(_)) => issues.push(Issue::new(
                    Category::Other,
                    at,
                    format!(
                        "wrong arity: `{}` takes no argument, but `expected` is given",
                        matcher.name()
                    ),
                )),
                (Arity::None, None) => match matcher.prepare(None) {
                    Ok(prepared) => expected.prepared = prepared,
                    Err(why) => issues.push(Issue::new(
                        Category::Other,
                        at,
                        format!("`{}`: {why}", matcher.name()),
                    )),
                },
            }
        }
        match (query, matcher) {
            (Ok(query), Some(matcher)) if issues.is_empty() => Ok(CompiledAssertion {
                assertion: assertion.clone(),
                query,
                matcher,
                expected,
            }),
            _ => Err(Error::new(issues)),
        }
    }

    /// Evaluates `assertions` against `actual`. An assertion that does not compile is an
    /// error result; the others are evaluated regardless.
    ///
    /// ```
    /// use llm_extract::assert::{Assertion, Outcome, Registry};
    /// let e = Registry::new().evaluate(&serde_json::json!({"a": 1}), &[
    ///     Assertion::new("a", "toBeOneOf").expected(1), // not a list: an error result
    ///     Assertion::new("a", "toEqual").expected(1),
    /// ]);
    /// assert_eq!(e.results[0].outcome, Outcome::Error);
    /// assert_eq!(e.results[1].outcome, Outcome::Pass);
    /// assert!(!e.passed);
    /// ```
    pub fn evaluate(&self, actual: &Value, assertions: &[Assertion]) -> Evaluation {
        let results = assertions
            .iter()
            .map(|a| match self.compile(a) {
                Ok(compiled) => compiled.evaluate(actual),
                Err(e) => invalid_result(a, &e),
            })
            .collect();
        Evaluation::from_results(results)
    }

    /// Evaluates `assertions` against a model's raw text, repaired first; see
    /// [`evaluate_output`](super::evaluate_output).
    ///
    /// ```
    /// use llm_extract::assert::{Assertion, Registry};
    /// let e = Registry::new().evaluate_output("{'ok': True,}", &[Assertion::new("ok", "toEqual").expected(true)]);
    /// assert!(e.passed);
    /// ```
    pub fn evaluate_output(&self, raw_text: &str, assertions: &[Assertion]) -> Evaluation {
        self.evaluate(&super::output_value(raw_text), assertions)
    }
}

/// How deeply an assertion's `expected` may nest: compiling the assertion clones it, and a
/// matcher may compile it further (`toMatchSchema`'s schema compiler), each recursing once per
/// level, so a deeper one is refused before it can overflow the stack. Far past any schema or
/// value a suite holds, and past the depth a repaired output can have (`max_depth`, 128).
///
/// ```
/// use llm_extract::assert::{Assertion, Registry, MAX_EXPECTED_DEPTH};
/// let mut deep = serde_json::json!(1);
/// for _ in 0..=MAX_EXPECTED_DEPTH {
///     deep = serde_json::json!([deep]);
/// }
/// let assertion = Assertion::new("$", "toEqual").expected(deep);
/// let err = Registry::new().compile(&assertion).unwrap_err();
/// assert_eq!(err.category(), llm_extract::Category::TooDeep);
/// ```
pub const MAX_EXPECTED_DEPTH: usize = 256;

/// The issue of an `expected` nested deeper than [`MAX_EXPECTED_DEPTH`], walked with an
/// explicit stack.
fn too_deep(expected: Option<&Value>) -> Option<Issue> {
    let mut stack: Vec<(&Value, usize)> = expected.into_iter().map(|v| (v, 0)).collect();
    while let Some((value, depth)) = stack.pop() {
        if depth > MAX_EXPECTED_DEPTH {
            let message = format!("`expected` nests deeper than {MAX_EXPECTED_DEPTH} levels");
            return Some(Issue::new(
                Category::TooDeep,
                Path::root().key("expected"),
                message,
            ));
        }
        match value {
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, depth + 1))),
            Value::Object(map) => stack.extend(map.values().map(|v| (v, depth + 1))),
            _ => {}
        }
    }
    None
}

/// The result reported for an assertion that failed to load.
pub(crate) fn invalid_result(assertion: &Assertion, error: &Error) -> AssertionResult {
    let reasons: Vec<String> = error.issues().iter().map(|i| i.to_string()).collect();
    AssertionResult {
        assertion_id: assertion.id.clone(),
        path: assertion.path.clone(),
        matcher: assertion.matcher.clone(),
        not: assertion.not,
        path_match: assertion.path_match,
        passed: false,
        outcome: Outcome::Error,
        actual_samples: Vec::new(),
        message: Some(format!("invalid assertion: {}", reasons.join("; "))),
    }
}

/// The registered name closest to `name` by edit distance, if it is close enough to be a typo.
fn closest<'a>(name: &str, names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    names
        .map(|candidate| (edit_distance(&lower, &candidate.to_lowercase()), candidate))
        .filter(|(d, candidate)| *d <= 2.max(candidate.len() / 4))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// An assertion checked and prepared by [`Registry::compile`]: evaluate it against as many
/// outputs as needed; its regex or schema is compiled once.
///
/// ```
/// use llm_extract::assert::{Assertion, Registry};
/// let check = Registry::new().compile(&Assertion::new("$.name", "toMatch").expected("/^[A-Z]/")).unwrap();
/// assert!(check.evaluate(&serde_json::json!({"name": "Ada"})).passed);
/// assert!(!check.evaluate(&serde_json::json!({"name": "ada"})).passed);
/// ```
pub struct CompiledAssertion {
    assertion: Assertion,
    query: JsonPath,
    matcher: Arc<dyn Matcher>,
    expected: Expected,
}

impl fmt::Debug for CompiledAssertion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CompiledAssertion")
            .field("assertion", &self.assertion)
            .finish_non_exhaustive()
    }
}

/// The value that decided an outcome, and how many values took part.
struct Decision<'v> {
    outcome: Outcome,
    /// The deciding value and where it is; `None` location means nothing resolved.
    deciding: Option<&'v Resolved<'v>>,
    error: Option<String>,
    /// For multi-value paths: a note such as `1 of 3 values failed`.
    note: Option<String>,
}

impl CompiledAssertion {
    /// The assertion as written.
    ///
    /// ```
    /// use llm_extract::assert::{Assertion, Registry};
    /// let c = Registry::new().compile(&Assertion::new("a.b", "toBeNull")).unwrap();
    /// assert_eq!(c.assertion().path, "a.b");
    /// assert_eq!(c.query().as_str(), "$.a.b");
    /// ```
    pub fn assertion(&self) -> &Assertion {
        &self.assertion
    }

    /// The parsed path.
    pub fn query(&self) -> &JsonPath {
        &self.query
    }

    /// Evaluates the assertion against `actual`.
    ///
    /// Truth table, per aggregated outcome (`not` applies after aggregation):
    /// ANY is pass if any value passes, else error if any value errors, else fail;
    /// ALL is error if any value errors, else fail if any value fails, else pass;
    /// `not` swaps pass and fail and keeps error. No match is one undefined value.
    pub fn evaluate(&self, actual: &Value) -> AssertionResult {
        let resolved = self.query.resolve(actual);
        let ctx = MatcherContext::default();
        let verdicts: Vec<Verdict> = if resolved.is_empty() {
            vec![self.matcher.evaluate(None, &self.expected, &ctx)]
        } else {
            self.aggregate_lazily(&resolved, &ctx)
        };
        let decision = decide(
            self.assertion.path_match,
            self.assertion.not,
            &resolved,
            &verdicts,
        );
        let message =
            (decision.outcome != Outcome::Pass).then(|| self.message(&decision, resolved.len()));
        AssertionResult {
            assertion_id: self.assertion.id.clone(),
            path: self.query.as_str().to_string(),
            matcher: self.assertion.matcher.clone(),
            not: self.assertion.not,
            path_match: self.assertion.path_match,
            passed: decision.outcome == Outcome::Pass,
            outcome: decision.outcome,
            actual_samples: samples(resolved.iter().map(|r| r.value)),
            message,
        }
    }

    /// Verdicts in order, stopping where the outcome can no longer change: at the first pass
    /// for ANY, at the first error for ALL.
    fn aggregate_lazily(&self, resolved: &[Resolved<'_>], ctx: &MatcherContext) -> Vec<Verdict> {
        let mut verdicts = Vec::with_capacity(resolved.len());
        for r in resolved {
            let v = self.matcher.evaluate(Some(r.value), &self.expected, ctx);
            let stop = match self.assertion.path_match {
                PathMatch::Any => v == Verdict::Pass,
                PathMatch::All => matches!(v, Verdict::Error(_)),
            };
            verdicts.push(v);
            if stop {
                break;
            }
        }
        verdicts
    }

    fn message(&self, decision: &Decision<'_>, resolved: usize) -> String {
        let not = if self.assertion.not { "not " } else { "" };
        let shown = self.matcher.show_expected(&self.expected);
        let mut head = format!("{} {not}{}", self.query.as_str(), self.assertion.matcher);
        if !shown.is_empty() {
            head.push(' ');
            head.push_str(&shown);
        }
        let actual = decision.deciding.map(|r| r.value);
        let mut message = match &decision.error {
            Some(why) => format!("{head} cannot evaluate: {why}"),
            None => format!(
                "{head} {}",
                self.matcher
                    .describe(actual, &self.expected, self.assertion.not)
            ),
        };
        if let Some(r) = decision.deciding {
            let at = readable_path(&r.path);
            if resolved > 1 || at != self.query.as_str() {
                message.push_str(&format!(" at {at}"));
            }
        }
        if let Some(note) = &decision.note {
            message.push_str(&format!(" ({note})"));
        }
        message
    }
}

fn decide<'v>(
    mode: PathMatch,
    not: bool,
    resolved: &'v [Resolved<'v>],
    verdicts: &[Verdict],
) -> Decision<'v> {
    let at = |i: usize| resolved.get(i);
    let first = |want: fn(&Verdict) -> bool| verdicts.iter().position(want);
    let first_error = first(|v| matches!(v, Verdict::Error(_)));
    let error_of = |i: usize| match &verdicts[i] {
        Verdict::Error(why) => Some(why.clone()),
        _ => None,
    };
    let n = resolved.len();
    let plural = n > 1;
    let (outcome, deciding, error, note) = match mode {
        PathMatch::Any => match first(|v| *v == Verdict::Pass) {
            Some(i) => (Outcome::Pass, at(i), None, None),
            None => match first_error {
                Some(i) => (Outcome::Error, at(i), error_of(i), None),
                None => (
                    Outcome::Fail,
                    at(0),
                    None,
                    plural.then(|| format!("none of {n} values passed")),
                ),
            },
        },
        PathMatch::All => match first_error {
            Some(i) => (Outcome::Error, at(i), error_of(i), None),
            None => match first(|v| *v == Verdict::Fail) {
                Some(i) => {
                    let failed = verdicts.iter().filter(|v| **v == Verdict::Fail).count();
                    (
                        Outcome::Fail,
                        at(i),
                        None,
                        plural.then(|| format!("{failed} of {n} values failed")),
                    )
                }
                None => (
                    Outcome::Pass,
                    at(0),
                    None,
                    plural.then(|| format!("all {n} values passed")),
                ),
            },
        },
    };
    let outcome = if not { outcome.negate() } else { outcome };
    Decision {
        outcome,
        deciding,
        error,
        note,
    }
}
