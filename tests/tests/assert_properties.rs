//! Properties of the assertion engine that tables cannot cover: no input makes it panic, and
//! scaffolded assertions always pass on the output they were made from.

use llm_extract::assert::{
    evaluate_assertions, evaluate_output, scaffold_assertions, Assertion, JsonPath, Registry,
};
use proptest::prelude::*;
use serde_json::{json, Value};

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        (-1.0e12f64..1.0e12).prop_map(|f| json!(f)),
        ".{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((".{0,6}", inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn scaffolded_assertions_pass_on_their_sample(sample in json_value()) {
        let proposed = scaffold_assertions(&sample);
        let evaluation = evaluate_assertions(&sample, &proposed);
        prop_assert!(evaluation.passed, "{:?}", evaluation.results.iter().find(|r| !r.passed));
    }

    #[test]
    fn any_path_parses_or_errors(path in "[$@.*\\[\\]?()'\"a-z0-9 =<>!&|,:-]{0,40}") {
        let doc = json!({"a": [1, {"b": "c"}], "d": null});
        if let Ok(query) = JsonPath::parse(&path) {
            let _ = query.resolve(&doc);
        }
        let _ = evaluate_assertions(&doc, &[Assertion::new(path, "toEqual").expected(1)]);
    }

    #[test]
    fn any_pattern_compiles_or_errors(pattern in "[/()\\[\\]?=!<>*+.\\\\a-z0-9kimsug{},^$|-]{0,30}") {
        let registry = Registry::new();
        if let Ok(compiled) = registry.compile(&Assertion::new("$", "toMatch").expected(pattern)) {
            let _ = compiled.evaluate(&json!("some text (with) [brackets] 123"));
        }
    }

    #[test]
    fn every_matcher_takes_any_value(actual in json_value(), expected in json_value()) {
        let registry = Registry::new();
        for name in registry.names() {
            let mut a = Assertion::new("$", name);
            a.expected = Some(expected.clone());
            let e = registry.evaluate(&actual, &[a.clone(), a.negate().all()]);
            prop_assert_eq!(e.results.len(), 2);
        }
    }
}

/// A reply holding an order in a fence, written as models write it (a trailing comma, single quotes).
const ORDER: &str = r#"Sure! Here is the order you asked for:

```json
{
  "user": {"name": "Ada Lovelace", "email": null, "age": 36},
  "items": [
    {"id": 1, "status": "READY", "price": 9.99},
    {"id": 2, "status": "PENDING", "price": 20},
    {"id": 3, "status": "READY", "price": 0.5},
  ],
  "note": 'ships tomorrow'
}
```
Let me know if you need anything else.
"#;

/// The output cut at every byte never makes evaluation panic, and the whole output passes.
#[test]
fn truncated_outputs_never_panic() {
    let output = ORDER;
    let assertions: Vec<Assertion> = serde_json::from_value(json!([
        {"path": "$.user.name", "matcher": "toMatch", "expected": "/^[A-Z]/"},
        {"path": "$.items[*].status", "pathMatch": "ALL", "matcher": "toBeOneOf", "expected": ["READY", "PENDING"]},
        {"path": "$.items", "matcher": "toHaveLength", "expected": 3},
        {"path": "$.note", "matcher": "toContain", "expected": "ships", "not": true}
    ]))
    .unwrap();
    for end in (0..=output.len()).filter(|&i| output.is_char_boundary(i)) {
        let e = evaluate_output(&output[..end], &assertions);
        assert_eq!(e.results.len(), 4);
    }
    let full = evaluate_output(output, &assertions);
    assert_eq!(
        full.count(llm_extract::assert::Outcome::Pass),
        3,
        "{:?}",
        full.results
    );
}
