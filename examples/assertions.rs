//! Checking a model's reply with JSONPath assertions and Jest-style matchers.
//!
//! Run with `cargo run --example assertions --features assert`.

use llm_extract::assert::{
    evaluate_output, scaffold_assertions, Arity, Assertion, Expected, Matcher, MatcherContext,
    Registry, Verdict,
};
use serde_json::{json, Value};

/// A matcher of our own: the value is an ISO date (`YYYY-MM-DD`).
struct ToBeIsoDate;

impl Matcher for ToBeIsoDate {
    fn name(&self) -> &str {
        "toBeIsoDate"
    }
    fn arity(&self) -> Arity {
        Arity::None
    }
    fn evaluate(&self, actual: Option<&Value>, _: &Expected, _: &MatcherContext) -> Verdict {
        match actual {
            Some(Value::String(s)) => {
                let b = s.as_bytes();
                Verdict::from_bool(
                    b.len() == 10
                        && b[4] == b'-'
                        && b[7] == b'-'
                        && b.iter()
                            .enumerate()
                            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit()),
                )
            }
            other => Verdict::Error(format!(
                "expected a string, got {}",
                llm_extract::assert::render(other)
            )),
        }
    }
    fn describe(&self, actual: Option<&Value>, _: &Expected, not: bool) -> String {
        let want = if not {
            "not a date"
        } else {
            "a YYYY-MM-DD date"
        };
        format!(
            "expected {want}, got {}",
            llm_extract::assert::render(actual)
        )
    }
}

fn main() {
    // What a model actually wrote: prose, a fence, a trailing comma, single quotes.
    let reply = r#"Here is the order:
```json
{
  "user": {"name": "bob", "email": null},
  "items": [
    {"id": 1, "status": "READY", "price": 9.99},
    {"id": 2, "status": "SHIPPED", "price": 20},
  ],
  "due": '2026-11-30'
}
```"#;

    // The assertion format a test-case editor stores (camelCase JSON).
    let assertions: Vec<Assertion> = serde_json::from_value(json!([
        {"id": "a1", "path": "$.user.name", "matcher": "toMatch", "expected": "/[A-Z][a-z]+/"},
        {"id": "a2", "path": "user.email", "matcher": "toBeNull"},
        {"id": "a3", "path": "$.items[*].status", "pathMatch": "ALL", "matcher": "toBeOneOf", "expected": ["READY", "PENDING"]},
        {"id": "a4", "path": "$.items[*].price", "matcher": "toBeGreaterThan", "expected": 10},
        {"id": "a5", "path": "$.items", "matcher": "toContain", "expected": {"price": 9.99, "id": 1, "status": "READY"}},
        {"id": "a6", "path": "$.due", "matcher": "toMatch", "expected": "/^2026/", "not": true},
        {"id": "a7", "path": "$.items[0].price", "matcher": "toMatch", "expected": "/9/"}
    ]))
    .expect("assertions in the editor's format");

    let evaluation = evaluate_output(reply, &assertions);
    println!("passed: {}", evaluation.passed);
    for r in &evaluation.results {
        println!(
            "{:<5} {} {}",
            r.outcome.label(),
            r.assertion_id,
            r.message.as_deref().unwrap_or("")
        );
    }

    // Users register their own matchers next to the built-in ones.
    let mut registry = Registry::new();
    registry.register(ToBeIsoDate);
    let dated = registry.evaluate_output(reply, &[Assertion::new("due", "toBeIsoDate")]);
    println!("due date is ISO: {}", dated.passed);

    // Scaffold assertions from a known-good output, then keep the ones worth keeping.
    let proposed = scaffold_assertions(&llm_extract::repair(reply).expect("the reply holds JSON"));
    println!(
        "scaffolded {} assertions, e.g. {}",
        proposed.len(),
        serde_json::to_string(&proposed[0]).unwrap()
    );

    // The whole evaluation serializes as the editor's results (for a `details` column).
    println!(
        "{}",
        serde_json::to_string_pretty(&evaluation.results[0]).unwrap()
    );
}
