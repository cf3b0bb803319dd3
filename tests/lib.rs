//! What the integration tests (in `tests/tests/`, one file per behaviour, discovered by cargo)
//! share: the property-test strategies. The example types the tests read (tool calls, plans,
//! stories, test results) live once, in the examples package's library.

/// Property-test strategies.
pub mod strategies {
    use proptest::prelude::*;
    use serde_json::{json, Value};

    /// Any JSON value: every scalar kind (finite floats, any string, strings full of JSON
    /// punctuation), nested arrays and objects up to depth 6.
    pub fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            any::<u64>().prop_map(|n| json!(n)),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(|f| json!(f)),
            ".*".prop_map(Value::String),
            "[a-z \"'\\\\/{}\\[\\],:]{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(6, 64, 8, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
                prop::collection::vec((".{0,8}", inner), 0..8)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
    }
}
