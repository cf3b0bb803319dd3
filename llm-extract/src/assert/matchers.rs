//! The built-in matchers: the five every assertion file starts with (`toEqual`, `toBeNull`,
//! `toContain`, `toMatch`, `toBeOneOf`) and the deterministic ones users ask for next.

use super::matcher::{Arity, Expected, Matcher, MatcherContext, Registry, Verdict};
use super::pattern::Pattern;
use super::value::{compare_numbers, render, type_name};
use serde_json::{Number, Value};
use std::any::Any;
use std::cmp::Ordering;

type Prepared = Result<Option<Box<dyn Any + Send + Sync>>, String>;

// The built-ins are defined here, so the registry that holds them all is built here too
// (`matcher.rs` knows nothing of them).
impl Registry {
    /// A registry with every built-in matcher.
    pub fn new() -> Registry {
        let mut registry = Registry::empty();
        register_builtins(&mut registry);
        registry
    }
}

impl Default for Registry {
    fn default() -> Registry {
        Registry::new()
    }
}

pub(crate) fn register_builtins(registry: &mut Registry) {
    registry.register(ToEqual);
    registry.register(ToBeNull);
    registry.register(ToBeDefined { defined: true });
    registry.register(ToBeDefined { defined: false });
    registry.register(ToContain);
    registry.register(ToMatch);
    registry.register(ToBeOneOf);
    for order in [
        Order::Greater,
        Order::GreaterOrEqual,
        Order::Less,
        Order::LessOrEqual,
    ] {
        registry.register(Compare(order));
    }
    registry.register(ToBeCloseTo);
    registry.register(ToHaveLength);
    registry.register(ToBeType);
    registry.register(ToMatchSchema);
}

fn got(actual: Option<&Value>) -> String {
    format!("got {}", render(actual))
}

fn expected_value(expected: &Expected) -> &Value {
    expected.value().unwrap_or(&Value::Null)
}

/// `toEqual(expected)`: deep equality, key order ignored, array order kept, `1 == 1.0`.
struct ToEqual;

impl Matcher for ToEqual {
    fn name(&self) -> &str {
        "toEqual"
    }
    fn arity(&self) -> Arity {
        Arity::One
    }
    fn evaluate(
        &self,
        actual: Option<&Value>,
        expected: &Expected,
        ctx: &MatcherContext,
    ) -> Verdict {
        Verdict::from_bool(actual.is_some_and(|a| ctx.deep_equal(a, expected_value(expected))))
    }
    fn describe(&self, actual: Option<&Value>, _: &Expected, not: bool) -> String {
        let want = if not {
            "a different value"
        } else {
            "an equal value"
        };
        format!("expected {want}, {}", got(actual))
    }
}

/// `toBeNull()`: strictly `null` (a missing value is not null).
struct ToBeNull;

impl Matcher for ToBeNull {
    fn name(&self) -> &str {
        "toBeNull"
    }
    fn arity(&self) -> Arity {
        Arity::None
    }
    fn evaluate(&self, actual: Option<&Value>, _: &Expected, _: &MatcherContext) -> Verdict {
        Verdict::from_bool(matches!(actual, Some(Value::Null)))
    }
    fn describe(&self, actual: Option<&Value>, _: &Expected, not: bool) -> String {
        let want = if not {
            "a value other than null"
        } else {
            "null"
        };
        format!("expected {want}, {}", got(actual))
    }
}

/// `toBeDefined()` / `toBeUndefined()`: whether the path resolved to anything (`null` counts
/// as defined).
struct ToBeDefined {
    defined: bool,
}

impl Matcher for ToBeDefined {
    fn name(&self) -> &str {
        if self.defined {
            "toBeDefined"
        } else {
            "toBeUndefined"
        }
    }
    fn arity(&self) -> Arity {
        Arity::None
    }
    fn evaluate(&self, actual: Option<&Value>, _: &Expected, _: &MatcherContext) -> Verdict {
        Verdict::from_bool(actual.is_some() == self.defined)
    }
    fn describe(&self, actual: Option<&Value>, _: &Expected, not: bool) -> String {
        let want = if self.defined != not {
            "a value"
        } else {
            "no value"
        };
        format!("expected {want}, {}", got(actual))
    }
}

/// The `{ "value": "...", "caseInsensitive": true }` form of `toContain`'s argument.
struct Needle {
    text: String,
    case_insensitive: bool,
}

fn needle(expected: &Value) -> Option<Needle> {
    let map = expected.as_object()?;
    let text = map.get("value")?.as_str()?.to_string();
    if map.keys().any(|k| k != "value" && k != "caseInsensitive") {
        return None;
    }
    let case_insensitive = match map.get("caseInsensitive") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return None,
    };
    Some(Needle {
        text,
        case_insensitive,
    })
}

fn contains_text(haystack: &str, needle: &Needle) -> bool {
    if needle.case_insensitive {
        haystack
            .to_lowercase()
            .contains(&needle.text.to_lowercase())
    } else {
        haystack.contains(&needle.text)
    }
}

/// `toContain(expected)`: an array item deep-equals `expected`, or a string contains it as a
/// substring (optionally case-insensitively).
struct ToContain;

impl Matcher for ToContain {
    fn name(&self) -> &str {
        "toContain"
    }
    fn arity(&self) -> Arity {
        Arity::One
    }
    fn evaluate(
        &self,
        actual: Option<&Value>,
        expected: &Expected,
        ctx: &MatcherContext,
    ) -> Verdict {
        let expected = expected_value(expected);
        let options = needle(expected);
        match actual {
            Some(Value::String(s)) => match (&options, expected) {
                (Some(n), _) => Verdict::from_bool(contains_text(s, n)),
                (None, Value::String(e)) => Verdict::from_bool(s.contains(e.as_str())),
                (None, other) => {
                    Verdict::Error(format!("a string contains only strings, but expected is {}", type_name(Some(other))))
                }
            },
            Some(Value::Array(items)) => Verdict::from_bool(items.iter().any(|item| {
                ctx.deep_equal(item, expected)
                    || matches!((item, &options), (Value::String(s), Some(n)) if n.case_insensitive && s.to_lowercase() == n.text.to_lowercase())
            })),
            other => Verdict::Error(format!("expected an array or a string, {}", got(other))),
        }
    }
    fn describe(&self, actual: Option<&Value>, _: &Expected, not: bool) -> String {
        let what = match actual {
            Some(Value::String(_)) => "substring",
            _ => "item",
        };
        let want = if not {
            format!("no such {what}")
        } else {
            format!("a matching {what}")
        };
        format!("expected {want}, {}", got(actual))
    }
    fn show_expected(&self, expected: &Expected) -> String {
        match needle(expected_value(expected)) {
            Some(n) if n.case_insensitive => format!(
                "{} (case-insensitive)",
                render(Some(&Value::String(n.text)))
            ),
            _ => render(expected.value()),
        }
    }
}

/// `toMatch(pattern)`: a string matches the regex (`/src/flags` or `{source, flags}`).
struct ToMatch;

impl Matcher for ToMatch {
    fn name(&self) -> &str {
        "toMatch"
    }
    fn arity(&self) -> Arity {
        Arity::One
    }
    fn prepare(&self, expected: Option<&Value>) -> Prepared {
        let pattern = Pattern::from_expected(expected.unwrap_or(&Value::Null))?;
        Ok(Some(Box::new(pattern)))
    }
    fn evaluate(&self, actual: Option<&Value>, expected: &Expected, _: &MatcherContext) -> Verdict {
        // Compiled once by `prepare`; compiled here only when called without it.
        let compiled_here;
        let pattern = match expected.prepared::<Pattern>() {
            Some(p) => p,
            None => match Pattern::from_expected(expected_value(expected)) {
                Ok(p) => {
                    compiled_here = p;
                    &compiled_here
                }
                Err(why) => return Verdict::Error(why),
            },
        };
        match actual {
            Some(Value::String(s)) => Verdict::from_bool(pattern.regex.is_match(s)),
            other => Verdict::Error(format!("toMatch needs a string, {}", got(other))),
        }
    }
    fn describe(&self, actual: Option<&Value>, _: &Expected, not: bool) -> String {
        let want = if not { "no match" } else { "match" };
        format!("expected {want}, {}", got(actual))
    }
    fn show_expected(&self, expected: &Expected) -> String {
        match expected.prepared::<Pattern>() {
            Some(p) => p.to_string(),
            None => render(expected.value()),
        }
    }
}

/// `toBeOneOf(options)`: deep-equals one of the listed values.
struct ToBeOneOf;

impl Matcher for ToBeOneOf {
    fn name(&self) -> &str {
        "toBeOneOf"
    }
    fn arity(&self) -> Arity {
        Arity::One
    }
    fn prepare(&self, expected: Option<&Value>) -> Prepared {
        match expected {
            Some(Value::Array(options)) if !options.is_empty() => Ok(None),
            Some(Value::Array(_)) => {
                Err("expected an non-empty list of options, got []".to_string())
            }
            other => Err(format!(
                "expected a list of options, got {}",
                type_name(other)
            )),
        }
    }
    fn evaluate(
        &self,
        actual: Option<&Value>,
        expected: &Expected,
        ctx: &MatcherContext,
    ) -> Verdict {
        let Some(Value::Array(options)) = expected.value() else {
            return Verdict::Error("expected a list of options".to_string());
        };
        Verdict::from_bool(actual.is_some_and(|a| options.iter().any(|o| ctx.deep_equal(a, o))))
    }
    fn describe(&self, actual: Option<&Value>, _: &Expected, not: bool) -> String {
        let want = if not {
            "none of the options"
        } else {
            "one of the options"
        };
        format!("expected {want}, {}", got(actual))
    }
}

fn number_arg(expected: Option<&Value>) -> Result<Number, String> {
    match expected {
        Some(Value::Number(n)) => Ok(n.clone()),
        other => Err(format!("expected a number, got {}", type_name(other))),
    }
}

#[derive(Clone, Copy)]
enum Order {
    Greater,
    GreaterOrEqual,
    Less,
    LessOrEqual,
}

impl Order {
    fn symbol(self) -> &'static str {
        match self {
            Order::Greater => ">",
            Order::GreaterOrEqual => ">=",
            Order::Less => "<",
            Order::LessOrEqual => "<=",
        }
    }
    fn holds(self, ordering: Ordering) -> bool {
        match self {
            Order::Greater => ordering == Ordering::Greater,
            Order::GreaterOrEqual => ordering != Ordering::Less,
            Order::Less => ordering == Ordering::Less,
            Order::LessOrEqual => ordering != Ordering::Greater,
        }
    }
}

/// `toBeGreaterThan(n)`, `toBeGreaterThanOrEqual(n)`, `toBeLessThan(n)`,
/// `toBeLessThanOrEqual(n)`: numbers only, compared by value.
struct Compare(Order);

impl Matcher for Compare {
    fn name(&self) -> &str {
        match self.0 {
            Order::Greater => "toBeGreaterThan",
            Order::GreaterOrEqual => "toBeGreaterThanOrEqual",
            Order::Less => "toBeLessThan",
            Order::LessOrEqual => "toBeLessThanOrEqual",
        }
    }
    fn arity(&self) -> Arity {
        Arity::One
    }
    fn prepare(&self, expected: Option<&Value>) -> Prepared {
        number_arg(expected).map(|_| None)
    }
    fn evaluate(&self, actual: Option<&Value>, expected: &Expected, _: &MatcherContext) -> Verdict {
        let limit = match number_arg(expected.value()) {
            Ok(n) => n,
            Err(why) => return Verdict::Error(why),
        };
        match actual {
            Some(Value::Number(n)) => match compare_numbers(n, &limit) {
                Some(ordering) => Verdict::from_bool(self.0.holds(ordering)),
                None => Verdict::Error("numbers cannot be compared".to_string()),
            },
            other => Verdict::Error(format!("expected a number, {}", got(other))),
        }
    }
    fn describe(&self, actual: Option<&Value>, expected: &Expected, not: bool) -> String {
        let not = if not { "not " } else { "" };
        format!(
            "expected a number {not}{} {}, {}",
            self.0.symbol(),
            render(expected.value()),
            got(actual)
        )
    }
}

/// The arguments of `toBeCloseTo`: a number, or `{ "value": n, "numDigits": d }` (default 2
/// digits, as in Jest: passes when `|actual - value| < 10^-d / 2`).
fn close_to_args(expected: Option<&Value>) -> Result<(f64, i32), String> {
    match expected {
        Some(Value::Number(n)) => Ok((n.as_f64().unwrap_or(f64::NAN), 2)),
        Some(Value::Object(map)) => {
            let value = map
                .get("value")
                .and_then(Value::as_f64)
                .ok_or("`value` must be a number")?;
            let digits = match map.get("numDigits") {
                None => 2,
                Some(d) => d
                    .as_i64()
                    .filter(|d| (0..=20).contains(d))
                    .ok_or("`numDigits` must be an integer from 0 to 20")?
                    as i32,
            };
            if let Some(key) = map.keys().find(|k| *k != "value" && *k != "numDigits") {
                return Err(format!(
                    "unknown key `{key}` (expected `value` and `numDigits`)"
                ));
            }
            Ok((value, digits))
        }
        other => Err(format!(
            "expected a number or {{\"value\": n, \"numDigits\": d}}, got {}",
            type_name(other)
        )),
    }
}

/// `toBeCloseTo(n)` or `toBeCloseTo({value, numDigits})`: a number within `10^-numDigits / 2`.
struct ToBeCloseTo;

impl Matcher for ToBeCloseTo {
    fn name(&self) -> &str {
        "toBeCloseTo"
    }
    fn arity(&self) -> Arity {
        Arity::One
    }
    fn prepare(&self, expected: Option<&Value>) -> Prepared {
        close_to_args(expected).map(|_| None)
    }
    fn evaluate(&self, actual: Option<&Value>, expected: &Expected, _: &MatcherContext) -> Verdict {
        let (target, digits) = match close_to_args(expected.value()) {
            Ok(args) => args,
            Err(why) => return Verdict::Error(why),
        };
        match actual.and_then(Value::as_f64) {
            Some(x) if actual.is_some_and(Value::is_number) => {
                Verdict::from_bool(x == target || (x - target).abs() < 10f64.powi(-digits) / 2.0)
            }
            _ => Verdict::Error(format!("expected a number, {}", got(actual))),
        }
    }
    fn describe(&self, actual: Option<&Value>, expected: &Expected, not: bool) -> String {
        let (target, digits) = close_to_args(expected.value()).unwrap_or((f64::NAN, 2));
        let within = 10f64.powi(-digits) / 2.0;
        let not = if not { "not " } else { "" };
        let difference = actual
            .and_then(Value::as_f64)
            .map(|x| format!(" (difference {})", (x - target).abs()));
        format!(
            "expected a number {not}within {within} of {target}, {}{}",
            got(actual),
            difference.unwrap_or_default()
        )
    }
}

/// `toHaveLength(n)`: a string's length in characters or an array's in items.
struct ToHaveLength;

impl Matcher for ToHaveLength {
    fn name(&self) -> &str {
        "toHaveLength"
    }
    fn arity(&self) -> Arity {
        Arity::One
    }
    fn prepare(&self, expected: Option<&Value>) -> Prepared {
        match expected.and_then(Value::as_u64) {
            Some(_) => Ok(None),
            None => Err(format!(
                "expected a non-negative integer, got {}",
                render(expected)
            )),
        }
    }
    fn evaluate(&self, actual: Option<&Value>, expected: &Expected, _: &MatcherContext) -> Verdict {
        let Some(want) = expected.value().and_then(Value::as_u64) else {
            return Verdict::Error("expected a non-negative integer length".to_string());
        };
        match length(actual) {
            Some(len) => Verdict::from_bool(len as u64 == want),
            None => Verdict::Error(format!("expected a string or an array, {}", got(actual))),
        }
    }
    fn describe(&self, actual: Option<&Value>, expected: &Expected, not: bool) -> String {
        let not = if not { "not " } else { "" };
        let len = length(actual)
            .map(|l| format!(" (length {l})"))
            .unwrap_or_default();
        format!(
            "expected {not}length {}, {}{len}",
            render(expected.value()),
            got(actual)
        )
    }
}

fn length(actual: Option<&Value>) -> Option<usize> {
    match actual? {
        Value::String(s) => Some(s.chars().count()),
        Value::Array(items) => Some(items.len()),
        _ => None,
    }
}

const TYPE_NAMES: [&str; 8] = [
    "string",
    "number",
    "integer",
    "boolean",
    "null",
    "array",
    "object",
    "undefined",
];

/// `toBeType(name)`: one of `string`, `number`, `integer`, `boolean`, `null`, `array`,
/// `object`, `undefined`.
struct ToBeType;

impl Matcher for ToBeType {
    fn name(&self) -> &str {
        "toBeType"
    }
    fn arity(&self) -> Arity {
        Arity::One
    }
    fn prepare(&self, expected: Option<&Value>) -> Prepared {
        match expected.and_then(Value::as_str) {
            Some(name) if TYPE_NAMES.contains(&name) => Ok(None),
            _ => Err(format!(
                "expected one of {}, got {}",
                TYPE_NAMES.join(", "),
                render(expected)
            )),
        }
    }
    fn evaluate(&self, actual: Option<&Value>, expected: &Expected, _: &MatcherContext) -> Verdict {
        let want = expected.value().and_then(Value::as_str).unwrap_or("");
        let is_integer = matches!(actual, Some(Value::Number(n)) if n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0));
        Verdict::from_bool(want == type_name(actual) || (want == "integer" && is_integer))
    }
    fn describe(&self, actual: Option<&Value>, expected: &Expected, not: bool) -> String {
        let not = if not { "not " } else { "" };
        let want = expected.value().and_then(Value::as_str).unwrap_or("?");
        format!(
            "expected {not}type {want}, got {} {}",
            type_name(actual),
            render(actual)
        )
    }
    fn show_expected(&self, expected: &Expected) -> String {
        expected
            .value()
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string()
    }
}

/// A compiled JSON Schema.
struct Schema(jsonschema::Validator);

fn compile_schema(schema: &Value) -> Result<Schema, String> {
    jsonschema::options()
        .with_pattern_options(jsonschema::PatternOptions::regex())
        .build(schema)
        .map(Schema)
        .map_err(|e| format!("invalid JSON Schema: {e}"))
}

/// `toMatchSchema(schema)`: the value is valid against a JSON Schema (draft detected from
/// `$schema`, 2020-12 by default); patterns in the schema use the linear-time engine too.
struct ToMatchSchema;

impl ToMatchSchema {
    fn errors(&self, actual: &Value, expected: &Expected) -> Result<Vec<String>, String> {
        let owned;
        let schema = match expected.prepared::<Schema>() {
            Some(s) => s,
            None => {
                owned = compile_schema(expected_value(expected))?;
                &owned
            }
        };
        Ok(schema
            .0
            .iter_errors(actual)
            .take(3)
            .map(|e| {
                let at = e.instance_path().to_string();
                let at = if at.is_empty() { "/".to_string() } else { at };
                format!("{at}: {e}")
            })
            .collect())
    }
}

impl Matcher for ToMatchSchema {
    fn name(&self) -> &str {
        "toMatchSchema"
    }
    fn arity(&self) -> Arity {
        Arity::One
    }
    fn prepare(&self, expected: Option<&Value>) -> Prepared {
        match expected {
            Some(schema @ (Value::Object(_) | Value::Bool(_))) => {
                Ok(Some(Box::new(compile_schema(schema)?)))
            }
            other => Err(format!(
                "expected a JSON Schema object, got {}",
                type_name(other)
            )),
        }
    }
    fn evaluate(&self, actual: Option<&Value>, expected: &Expected, _: &MatcherContext) -> Verdict {
        let Some(actual) = actual else {
            return Verdict::Fail;
        };
        match self.errors(actual, expected) {
            Ok(errors) => Verdict::from_bool(errors.is_empty()),
            Err(why) => Verdict::Error(why),
        }
    }
    fn describe(&self, actual: Option<&Value>, expected: &Expected, not: bool) -> String {
        if not {
            return format!("expected a value the schema rejects, {}", got(actual));
        }
        let why = match actual.map(|a| self.errors(a, expected)) {
            Some(Ok(errors)) if !errors.is_empty() => format!(": {}", errors.join("; ")),
            _ => String::new(),
        };
        format!("expected a valid value, {}{why}", got(actual))
    }
    fn show_expected(&self, _: &Expected) -> String {
        "<schema>".to_string()
    }
}
