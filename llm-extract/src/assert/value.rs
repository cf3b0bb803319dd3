//! Comparing and showing JSON values the way the matchers need: deep equality with numbers
//! compared by value, short renderings for messages, and capped samples for results.

use serde_json::{Number, Value};
use std::cmp::Ordering;

/// At most this many resolved values are kept in `actualSamples`.
pub const MAX_SAMPLES: usize = 20;

/// A sample whose compact JSON is longer than this many characters is truncated.
pub const MAX_SAMPLE_CHARS: usize = 256;

/// Longest rendering of a value inside a message, in characters.
const MAX_MESSAGE_VALUE_CHARS: usize = 80;

/// Deep equality as `toEqual` sees it: object key order ignored, array order kept, numbers
/// compared by value (`1` equals `1.0`).
///
/// ```
/// use serde_json::json;
/// use llm_extract::assert::deep_equal;
/// assert!(deep_equal(&json!({"a": 1, "b": [1, 2]}), &json!({"b": [1.0, 2], "a": 1})));
/// assert!(!deep_equal(&json!([1, 2]), &json!([2, 1])));
/// assert!(!deep_equal(&json!(null), &json!({})));
/// ```
pub fn deep_equal(a: &Value, b: &Value) -> bool {
    // An explicit stack: no recursion, so no depth of value can overflow the call stack.
    let mut pending = vec![(a, b)];
    while let Some((a, b)) = pending.pop() {
        match (a, b) {
            (Value::Null, Value::Null) => {}
            (Value::Bool(x), Value::Bool(y)) if x == y => {}
            (Value::String(x), Value::String(y)) if x == y => {}
            (Value::Number(x), Value::Number(y))
                if compare_numbers(x, y) == Some(Ordering::Equal) => {}
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                pending.extend(x.iter().zip(y))
            }
            (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
                for (key, xv) in x {
                    match y.get(key) {
                        Some(yv) => pending.push((xv, yv)),
                        None => return false,
                    }
                }
            }
            _ => return false,
        }
    }
    true
}

/// Orders two JSON numbers by value: exactly for integers (including an integral float
/// against an integer), by `f64` otherwise.
///
/// ```
/// use std::cmp::Ordering;
/// use llm_extract::assert::compare_numbers;
/// let n = |v: serde_json::Value| v.as_number().unwrap().clone();
/// assert_eq!(compare_numbers(&n(serde_json::json!(1)), &n(serde_json::json!(1.0))), Some(Ordering::Equal));
/// assert_eq!(compare_numbers(&n(serde_json::json!(u64::MAX)), &n(serde_json::json!(-1))), Some(Ordering::Greater));
/// ```
pub fn compare_numbers(a: &Number, b: &Number) -> Option<Ordering> {
    match (integer(a), integer(b)) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        (Some(x), None) => compare_int_float(x, b.as_f64()?),
        (None, Some(y)) => compare_int_float(y, a.as_f64()?).map(Ordering::reverse),
        (None, None) => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

fn integer(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

fn compare_int_float(i: i128, f: f64) -> Option<Ordering> {
    // Within this range an integral f64 converts to i128 exactly.
    if f.fract() == 0.0 && f.abs() < 1.0e38 {
        Some(i.cmp(&(f as i128)))
    } else {
        (i as f64).partial_cmp(&f)
    }
}

/// A value for a message: compact JSON, shortened; `undefined` when there is none.
///
/// ```
/// use llm_extract::assert::render;
/// assert_eq!(render(Some(&serde_json::json!("bob"))), "\"bob\"");
/// assert_eq!(render(None), "undefined");
/// ```
pub fn render(value: Option<&Value>) -> String {
    match value {
        None => "undefined".to_string(),
        Some(v) => crate::error::shorten(&compact(v), MAX_MESSAGE_VALUE_CHARS),
    }
}

/// The JSON type name of a value (`undefined` when there is none), as `toBeType` uses it.
///
/// ```
/// assert_eq!(llm_extract::assert::type_name(Some(&serde_json::json!([1]))), "array");
/// assert_eq!(llm_extract::assert::type_name(None), "undefined");
/// ```
pub fn type_name(value: Option<&Value>) -> &'static str {
    match value {
        None => "undefined",
        Some(Value::Null) => "null",
        Some(Value::Bool(_)) => "boolean",
        Some(Value::Number(_)) => "number",
        Some(Value::String(_)) => "string",
        Some(Value::Array(_)) => "array",
        Some(Value::Object(_)) => "object",
    }
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "<unprintable>".to_string())
}

/// A value as kept in `actualSamples`: itself when short, otherwise a string holding the start
/// of its JSON, a `...truncated` marker and a short hash of the whole.
///
/// ```
/// use llm_extract::assert::sample;
/// assert_eq!(sample(&serde_json::json!(1)), serde_json::json!(1));
/// let long = serde_json::json!("x".repeat(1000));
/// let s = sample(&long);
/// assert!(s.as_str().unwrap().contains("...truncated #"));
/// assert!(s.as_str().unwrap().len() < 300);
/// ```
pub fn sample(value: &Value) -> Value {
    let text = compact(value);
    if text.chars().count() <= MAX_SAMPLE_CHARS {
        return value.clone();
    }
    let head: String = text.chars().take(MAX_SAMPLE_CHARS).collect();
    Value::String(format!(
        "{head}...truncated #{:012x}",
        fnv1a(text.as_bytes()) >> 16
    ))
}

/// FNV-1a, 64 bits: a stable short fingerprint (not a security measure).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The first [`MAX_SAMPLES`] values, each through [`sample`].
pub(crate) fn samples<'v>(values: impl Iterator<Item = &'v Value>) -> Vec<Value> {
    values.take(MAX_SAMPLES).map(sample).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_compare_by_value() {
        let n = |v: Value| v.as_number().cloned().unwrap();
        assert_eq!(
            compare_numbers(
                &n(json!(9007199254740993u64)),
                &n(json!(9007199254740992.0))
            ),
            Some(Ordering::Greater)
        );
        assert_eq!(
            compare_numbers(&n(json!(2.5)), &n(json!(2))),
            Some(Ordering::Greater)
        );
        assert_eq!(
            compare_numbers(&n(json!(-1)), &n(json!(0.5))),
            Some(Ordering::Less)
        );
        assert!(deep_equal(&json!([1, {"a": 2.0}]), &json!([1.0, {"a": 2}])));
        assert!(!deep_equal(&json!(1), &json!("1")));
        assert!(!deep_equal(&json!({"a": 1}), &json!({"a": 1, "b": null})));
    }

    #[test]
    fn truncated_samples_differ_by_hash() {
        let a = sample(&json!("a".repeat(500)));
        let b = sample(&json!(format!("{}b", "a".repeat(499))));
        assert_ne!(a, b);
        assert!(a.as_str().unwrap().starts_with("\"aaa"));
    }

    #[test]
    fn deep_values_do_not_overflow() {
        let mut a = json!(1);
        let mut b = json!(1);
        for _ in 0..100 {
            a = json!([a]);
            b = json!([b]);
        }
        assert!(deep_equal(&a, &b));
    }
}
