//! Proposed assertions for a sample output: one per leaf, to start an assertion file from a
//! reply that is known to be good.

use super::json_path::readable_path;
use super::model::Assertion;
use crate::path::Path;
use serde_json::Value;

/// At most this many assertions are proposed for one output.
pub const MAX_SCAFFOLD: usize = 500;

/// One assertion per leaf of `actual` (a scalar, or an empty array or object), in document
/// order: `toBeNull` for `null`, `toEqual` with the sample's value otherwise. Ids are `a1`,
/// `a2`, ...; at most [`MAX_SCAFFOLD`] are proposed.
///
/// ```
/// use llm_extract::assert::{evaluate_assertions, scaffold_assertions};
/// let sample = serde_json::json!({"user": {"name": "Ada", "email": null}, "tags": ["x"]});
/// let proposed = scaffold_assertions(&sample);
/// let paths: Vec<&str> = proposed.iter().map(|a| a.path.as_str()).collect();
/// assert_eq!(paths, ["$.user.name", "$.user.email", "$.tags[0]"]);
/// assert_eq!(proposed[1].matcher, "toBeNull");
/// assert!(evaluate_assertions(&sample, &proposed).passed);
/// ```
pub fn scaffold_assertions(actual: &Value) -> Vec<Assertion> {
    let mut out = Vec::new();
    // An explicit stack (children pushed in reverse) walks in document order without recursion.
    let mut pending: Vec<(Path, &Value)> = vec![(Path::root(), actual)];
    while let Some((path, value)) = pending.pop() {
        if out.len() >= MAX_SCAFFOLD {
            break;
        }
        match value {
            Value::Array(items) if !items.is_empty() => {
                for (i, item) in items.iter().enumerate().rev() {
                    pending.push((path.clone().index(i), item));
                }
            }
            Value::Object(map) if !map.is_empty() => {
                for (key, item) in map.iter().rev() {
                    pending.push((path.clone().key(key.clone()), item));
                }
            }
            leaf => {
                let text = readable_path(&path);
                let assertion = match leaf {
                    Value::Null => Assertion::new(text, "toBeNull"),
                    other => Assertion::new(text, "toEqual").expected(other.clone()),
                };
                out.push(assertion.id(format!("a{}", out.len() + 1)));
            }
        }
    }
    out
}
