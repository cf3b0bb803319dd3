//! A damage corpus of our own: realistic model replies with the damage classes of the repair
//! table in `guide::reading` (and scalar replies), each with the value a careful reader returns. Written for this
//! project, kept in `tests/fixtures/damage/cases.py` (the source) and `cases.json` (what runs).
//!
//! Counts how many `llm_extract::repair` reads as intended, prints the misses by class, and
//! asserts a floor: a ratchet. Raise it when the count goes up. `--nocapture` shows the misses.

use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Cases read as intended, measured on main; raise it as the parser improves. 116 at bb4eeb5,
/// 149 with the parser's first reading rules.
const FLOOR: usize = 149;

#[derive(Deserialize)]
struct Case {
    class: String,
    input: String,
    intended: Value,
}

/// Same JSON value, with numbers compared as numbers (`2` is `2.0`): the corpus states intent,
/// not the spelling of a number.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

#[test]
fn damage_corpus_read_as_intended() {
    let cases: Vec<Case> = serde_json::from_str(include_str!("../fixtures/damage/cases.json"))
        .expect("fixture parses");
    assert!(cases.len() >= 150, "the corpus lost cases: {}", cases.len());
    let mut by_class: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut read = 0;
    for case in &cases {
        let entry = by_class.entry(&case.class).or_default();
        entry.1 += 1;
        let got = catch_unwind(AssertUnwindSafe(|| llm_extract::repair(&case.input)));
        let shown = match &got {
            Ok(Ok(v)) if same(v, &case.intended) => {
                read += 1;
                entry.0 += 1;
                continue;
            }
            Ok(Ok(v)) => v.to_string(),
            Ok(Err(e)) => format!(
                "error: {}",
                e.to_string().lines().next().unwrap_or_default()
            ),
            Err(_) => "PANIC".to_owned(),
        };
        println!(
            "MISS [{}] {:?}\n    intended {}\n    got      {shown}",
            case.class, case.input, case.intended
        );
    }
    for (class, (ok, n)) in &by_class {
        println!("{class:32} {ok:3}/{n:3}");
    }
    println!(
        "damage: {read}/{} read as intended ({:.1}%)",
        cases.len(),
        100.0 * read as f64 / cases.len() as f64
    );
    assert!(
        read >= FLOOR,
        "damage corpus read as intended fell to {read} (floor {FLOOR})"
    );
}

#[test]
fn numbers_compare_by_value_and_nothing_else_is_loosened() {
    use serde_json::json;
    assert!(same(&json!({"a": [2, 1.5]}), &json!({"a": [2.0, 1.5]})));
    assert!(!same(&json!({"a": 2}), &json!({"a": "2"})));
    assert!(!same(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
    assert!(!same(&json!([1, 2]), &json!([2, 1])));
}
