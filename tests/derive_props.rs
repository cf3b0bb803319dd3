//! Properties of derived readers: no input makes them panic, nested untagged choices stay
//! bounded, and valid JSON of the right shape reads back without any coercion.

use llm_extract::Extract;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

#[derive(Extract, Debug)]
#[allow(dead_code)] // only whether reading succeeds is under test
struct Inner {
    #[extract(min = 0, max = 100)]
    n: Option<u8>,
    tags: Vec<String>,
}

#[derive(Extract, Debug)]
#[allow(dead_code)] // only whether reading succeeds is under test
enum Kind {
    A,
    B { x: i64 },
    C(Vec<Kind>),
}

#[derive(Extract, Debug)]
#[allow(dead_code)] // only whether reading succeeds is under test
#[extract(untagged)]
enum Tree {
    Leaf(u8),
    Left(Vec<Tree>),
    Right(Vec<Tree>),
}

#[derive(Extract, Debug)]
#[allow(dead_code)] // only whether reading succeeds is under test
#[extract(tag = "type")]
enum Tagged {
    One { inner: Inner },
    Two { kinds: Vec<Kind> },
}

#[derive(Extract, Debug, PartialEq, serde::Serialize)]
struct Row {
    id: u64,
    name: String,
    score: f64,
    flags: Vec<bool>,
    note: Option<String>,
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        "[a-zA-Z0-9 ,./_-]{0,12}".prop_map(Value::String),
        prop::sample::select(vec![
            "A", "b", "type", "One", "Two", "inner", "n", "tags", "x", "N/A"
        ])
        .prop_map(|s| Value::String(s.to_string())),
    ];
    leaf.prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "type", "n", "tags", "x", "inner", "kinds", "B", "C", "A", "One", "zz"
                ])
                .prop_map(str::to_string),
                inner,
                0..5
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn derived_readers_never_panic_on_any_value(value in json_value()) {
        let text = value.to_string();
        let _ = llm_extract::from_str::<Inner>(&text);
        let _ = llm_extract::from_str::<Kind>(&text);
        let _ = llm_extract::from_str::<Tree>(&text);
        let _ = llm_extract::from_str::<Tagged>(&text);
        let _ = llm_extract::from_str::<Row>(&text);
        let _ = llm_extract::from_str_all::<Tagged>(&text);
    }

    #[test]
    fn derived_readers_never_panic_on_any_text(text in "\\PC{0,80}") {
        let _ = llm_extract::from_str::<Inner>(&text);
        let _ = llm_extract::from_str::<Kind>(&text);
        let _ = llm_extract::from_str::<Tree>(&text);
        let _ = llm_extract::from_str::<Tagged>(&text);
    }

    #[test]
    fn valid_rows_read_back_clean(id in any::<u64>(), name in "[a-z ]{0,10}", score in -1e6f64..1e6, flags in prop::collection::vec(any::<bool>(), 0..4), note in prop::option::of("[a-z]{1,5}".prop_filter("placeholders such as \"na\" read as None by design", |s| !llm_extract::coerce::is_placeholder(s)))) {
        let row = Row { id, name, score, flags, note };
        let text = serde_json::to_string(&row).unwrap();
        let out = llm_extract::extract::<Row>(&text).unwrap();
        prop_assert_eq!(out.value, row);
        prop_assert!(out.report.coercions.is_empty(), "{:?}", out.report.coercions);
    }
}

#[test]
fn nested_untagged_choices_that_fail_deep_stay_bounded() {
    // Every level has two readings that both recurse, and the failure is at the bottom: an
    // unbounded search would try 2^depth readings.
    let depth = 60;
    let text = format!("{}\"not a leaf\"{}", "[".repeat(depth), "]".repeat(depth));
    let start = Instant::now();
    let err = llm_extract::from_str::<Tree>(&text).unwrap_err();
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "took {:?}",
        start.elapsed()
    );
    assert!(
        err.to_string().contains("no variant of `Tree` fits"),
        "{err}"
    );
}

#[test]
fn single_to_list_on_a_recursive_type_terminates() {
    // `C(Vec<Kind>)` read from a bare string used to wrap the same string forever.
    assert!(llm_extract::from_str::<Kind>(r#"{"C": "x"}"#).is_err());
    assert!(llm_extract::from_str::<Tree>(r#""x""#).is_err());
    // One level of wrapping still works.
    assert!(
        matches!(llm_extract::from_str::<Kind>(r#"{"C": "A"}"#), Ok(Kind::C(v)) if v.len() == 1)
    );
}

#[derive(Extract, Debug)]
#[allow(dead_code)] // only the depth is under test
struct Chain {
    name: String,
    #[extract(default)]
    next: Vec<Chain>,
}

#[test]
fn recursive_types_read_as_deep_as_the_parser_allows() {
    let depth = 63; // an object and an array per level: 127 levels, max_depth is 128
    let open = r#"{"name": "a", "next": ["#.repeat(depth);
    let text = format!(r#"{open}{{"name": "z"}}{}"#, "]}".repeat(depth));
    let chain: Chain = llm_extract::from_str(&text).unwrap();
    let mut n = 0;
    let mut at = &chain;
    while let Some(next) = at.next.first() {
        at = next;
        n += 1;
    }
    assert_eq!((n, at.name.as_str()), (depth, "z"));
}
