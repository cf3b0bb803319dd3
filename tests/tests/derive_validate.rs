//! Validation rules from attributes: every failure collected, each with its path and
//! position, Zod-style.

use llm_extract::{Category, Extract};

#[derive(Extract, Debug)]
struct Item {
    #[extract(min_len = 1, max_len = 20)]
    name: String,
    #[extract(min = 1, max = 10_000)]
    price: u32,
    #[extract(pattern = r"^[A-Z]{3}$")]
    currency: Option<String>,
    #[extract(one_of = ["new", "used"])]
    condition: String,
}

#[derive(Extract, Debug)]
struct Order {
    #[extract(min_len = 1)]
    items: Vec<Item>,
    #[extract(validate = even)]
    count: u32,
}

fn even(n: &u32) -> Result<(), String> {
    if n.is_multiple_of(2) {
        Ok(())
    } else {
        Err(format!("{n} is odd"))
    }
}

fn messages(err: &llm_extract::Error) -> Vec<String> {
    err.issues()
        .iter()
        .map(|i| format!("{}: {}", i.path, i.message))
        .collect()
}

#[test]
fn a_valid_order_passes() {
    let text = r#"{"items": [{"name": "lamp", "price": 1200, "currency": "EUR", "condition": "new"}], "count": 2}"#;
    let order: Order = llm_extract::from_str(text).unwrap();
    assert_eq!(order.items[0].price, 1200);
    assert_eq!(order.count, 2);
    let item = &order.items[0];
    assert_eq!(
        (
            item.name.as_str(),
            item.currency.as_deref(),
            item.condition.as_str()
        ),
        ("lamp", Some("EUR"), "new")
    );
}

#[test]
fn every_failure_is_collected_with_its_path() {
    let text = r#"{
  "items": [
    {"name": "lamp", "price": 3, "condition": "new"},
    {"name": "chair", "price": 1, "condition": "used"},
    {"name": "", "price": 0, "currency": "euro", "condition": "broken"}
  ],
  "count": 3
}"#;
    let err = llm_extract::from_str::<Order>(text).unwrap_err();
    assert_eq!(err.category(), Category::Validation);
    assert_eq!(
        messages(&err),
        vec![
            "$.items[2].name: has 0 characters, fewer than the minimum 1",
            "$.items[2].price: 0 is less than the minimum 1",
            r#"$.items[2].currency: "euro" does not match the pattern ^[A-Z]{3}$"#,
            r#"$.items[2].condition: "broken" is not one of "new", "used""#,
            "$.count: 3 is odd",
        ]
    );
    // Line and column of the offending value in the original text.
    let price = &err.issues()[1];
    let pos = price.position.expect("a position");
    assert_eq!((pos.line, pos.column), (5, 27));
    assert!(
        err.to_string()
            .contains("$.items[2].price: 0 is less than the minimum 1 at line 5 column 27"),
        "{err}"
    );
    assert!(
        err.feedback()
            .contains("- $.items[2].price: 0 is less than the minimum 1"),
        "{}",
        err.feedback()
    );
}

#[test]
fn rules_on_collections_and_upper_bounds() {
    let err = llm_extract::from_str::<Order>(r#"{"items": [], "count": 0}"#).unwrap_err();
    assert_eq!(
        messages(&err),
        vec!["$.items: has 0 items, fewer than the minimum 1"]
    );
    let text = r#"{"items": [{"name": "a very long name that goes on", "price": 99999, "condition": "new"}], "count": 0}"#;
    let err = llm_extract::from_str::<Order>(text).unwrap_err();
    assert_eq!(
        messages(&err),
        vec![
            "$.items[0].name: has 29 characters, more than the maximum 20",
            "$.items[0].price: 99999 is greater than the maximum 10000",
        ]
    );
}

#[test]
fn rules_apply_after_coercion() {
    // "0" becomes 0, then fails `min = 1`; "5" passes.
    let err = llm_extract::from_str::<Order>(
        r#"{"items": [{"name": "x", "price": "0", "condition": "new"}], "count": "2"}"#,
    )
    .unwrap_err();
    assert_eq!(
        messages(&err),
        vec!["$.items[0].price: 0 is less than the minimum 1"]
    );
}

#[derive(Extract, Debug, PartialEq)]
struct Rating {
    #[extract(min = 1, max = 5, catch)]
    stars: u8,
    #[extract(min = -1.0, max = 1.0)]
    score: f64,
}

#[test]
fn catch_replaces_a_failing_value_and_records_it() {
    let out = llm_extract::extract::<Rating>(r#"{"stars": 9, "score": -0.5}"#).unwrap();
    assert_eq!(
        out.value,
        Rating {
            stars: 0,
            score: -0.5
        }
    );
    assert_eq!(
        out.report.coercions[0].kind,
        llm_extract::CoercionKind::Caught
    );
    assert_eq!(out.report.coercions[0].path.to_string(), "$.stars");
    let err = llm_extract::from_str::<Rating>(r#"{"stars": 3, "score": -2}"#).unwrap_err();
    assert_eq!(
        messages(&err),
        vec!["$.score: -2 is less than the minimum -1.0"]
    );
}

#[derive(Extract, Debug)]
struct Tags {
    #[extract(max_len = 2)]
    #[allow(dead_code)] // only the rule is under test
    tags: Option<Vec<String>>,
}

#[test]
fn rules_on_options_check_the_value_inside() {
    assert!(llm_extract::from_str::<Tags>(r#"{"tags": null}"#).is_ok());
    assert!(llm_extract::from_str::<Tags>(r#"{}"#).is_ok());
    let err = llm_extract::from_str::<Tags>(r#"{"tags": ["a", "b", "c"]}"#).unwrap_err();
    assert_eq!(
        messages(&err),
        vec!["$.tags: has 3 items, more than the maximum 2"]
    );
}

#[derive(Extract, Debug)]
struct Survey {
    /// Each answer 1 to 5; at most 4 answers.
    #[extract(min = 1, max = 5, max_len = 4)]
    answers: Vec<u8>,
    #[extract(pattern = "^[a-z]+$")]
    tags: Option<Vec<String>>,
    #[extract(one_of = ["red", "green"])]
    colors: std::collections::BTreeSet<String>,
}

#[test]
fn value_rules_on_a_collection_apply_to_each_item_at_its_path() {
    let ok: Survey =
        llm_extract::from_str(r#"{"answers": [1, 5], "tags": ["a", "bc"], "colors": ["red"]}"#)
            .unwrap();
    assert_eq!(
        (ok.answers.len(), ok.tags.map(|t| t.len()), ok.colors.len()),
        (2, Some(2), 1)
    );
    let text = r#"{"answers": [1, 9, 0, 3, 2], "tags": ["ok", "Not OK"], "colors": ["blue"]}"#;
    let err = llm_extract::from_str::<Survey>(text).unwrap_err();
    assert_eq!(
        messages(&err),
        vec![
            "$.answers[1]: 9 is greater than the maximum 5",
            "$.answers[2]: 0 is less than the minimum 1",
            "$.answers: has 5 items, more than the maximum 4",
            r#"$.tags[1]: "Not OK" does not match the pattern ^[a-z]+$"#,
            r#"$.colors: "blue" is not one of "red", "green""#,
        ]
    );
    // The position is the item's own.
    assert_eq!(err.issues()[0].position.map(|p| p.column), Some(17));
}

/// A cross-field rule on the container.
#[derive(Extract, Debug, PartialEq)]
#[extract(validate = start_not_after_end)]
struct Range {
    start: u32,
    #[extract(max = 100)]
    end: u32,
}

fn start_not_after_end(r: &Range) -> Result<(), String> {
    if r.start <= r.end {
        Ok(())
    } else {
        Err(format!("start {} is after end {}", r.start, r.end))
    }
}

#[derive(Extract, Debug, PartialEq)]
#[extract(validate = Shift::check)]
enum Shift {
    Hours { from: u8, to: u8 },
    Off,
}

impl Shift {
    fn check(&self) -> Result<(), &'static str> {
        match self {
            Shift::Hours { from, to } if from >= to => Err("a shift ends after it starts"),
            _ => Ok(()),
        }
    }
}

#[test]
fn container_rule_checks_fields_together_at_the_containers_path() {
    assert_eq!(
        llm_extract::from_str::<Range>(r#"{"start": 1, "end": 2}"#).unwrap(),
        Range { start: 1, end: 2 }
    );
    let err = llm_extract::from_str::<Range>(r#"{"start": 5, "end": 1}"#).unwrap_err();
    let issues: Vec<(String, Category, String)> = err
        .issues()
        .iter()
        .map(|i| (i.path.to_string(), i.category, i.message.clone()))
        .collect();
    assert_eq!(
        issues,
        [(
            "$".to_string(),
            Category::Validation,
            "start 5 is after end 1".to_string()
        )]
    );
    // Nested: the issue is at the item's path.
    let err =
        llm_extract::from_str::<Vec<Range>>(r#"[{"start": 1, "end": 2}, {"start": 3, "end": 2}]"#)
            .unwrap_err();
    assert_eq!(err.issues()[0].path.to_string(), "$[1]");
    // On an enum too.
    assert_eq!(
        llm_extract::from_str::<Shift>(r#"{"Hours": {"from": 9, "to": 17}}"#).unwrap(),
        Shift::Hours { from: 9, to: 17 }
    );
    let err = llm_extract::from_str::<Shift>(r#"{"Hours": {"from": 17, "to": 9}}"#).unwrap_err();
    assert_eq!(err.issues()[0].path.to_string(), "$");
    assert_eq!(err.issues()[0].message, "a shift ends after it starts");
}

#[test]
fn container_rule_runs_after_field_rules_and_only_when_fields_coerced() {
    // Both the field's rule and the container's fail: both reported, the field's first.
    let err = llm_extract::from_str::<Range>(r#"{"start": 500, "end": 101}"#).unwrap_err();
    let paths: Vec<String> = err.issues().iter().map(|i| i.path.to_string()).collect();
    assert_eq!(paths, ["$.end", "$"]);
    // A field that did not coerce: no value to check, so only the field's issue.
    let err = llm_extract::from_str::<Range>(r#"{"start": 5}"#).unwrap_err();
    let issues: Vec<(String, Category)> = err
        .issues()
        .iter()
        .map(|i| (i.path.to_string(), i.category))
        .collect();
    assert_eq!(issues, [("$.end".to_string(), Category::Missing)]);
}

#[derive(Extract, Debug)]
struct Routing {
    #[extract(one_of = ["support", "billing", "high_priority", "café"])]
    queue: String,
    #[extract(one_of_exact = ["EUR", "USD"])]
    currency: Option<String>,
    #[extract(one_of = ["red", "green"])]
    colors: Vec<String>,
}

/// `one_of` compares strings as enum variants are matched: case, separators and diacritics
/// aside. The value stays as the model wrote it.
#[test]
fn one_of_matches_strings_as_variants_are_matched() {
    for queue in [
        "support",
        "Billing",
        "BILLING",
        " billing ",
        "High-Priority",
        "high priority",
        "HighPriority",
        "cafe",
    ] {
        let text = format!(r#"{{"queue": "{queue}", "colors": ["Red", "GREEN"]}}"#);
        let routing: Routing =
            llm_extract::from_str(&text).unwrap_or_else(|e| panic!("{queue}: {e}"));
        assert_eq!(routing.queue, queue);
        assert_eq!(routing.colors, ["Red", "GREEN"]);
    }
    for queue in ["bill", "billing_dept", "sales", "", "  "] {
        let text = format!(r#"{{"queue": "{queue}", "colors": []}}"#);
        let err = llm_extract::from_str::<Routing>(&text).unwrap_err();
        assert_eq!(err.category(), Category::Validation, "{queue}: {err}");
        assert!(err.to_string().starts_with("$.queue: "), "{err}");
    }
}

/// `one_of_exact` compares strings exactly.
#[test]
fn one_of_exact_matches_strings_exactly() {
    let ok: Routing =
        llm_extract::from_str(r#"{"queue": "support", "currency": "EUR", "colors": []}"#).unwrap();
    assert_eq!(ok.currency.as_deref(), Some("EUR"));
    for currency in ["eur", "Eur", " EUR", "E-U-R"] {
        let text = format!(r#"{{"queue": "support", "currency": "{currency}", "colors": []}}"#);
        let err = llm_extract::from_str::<Routing>(&text).unwrap_err();
        assert_eq!(
            messages(&err),
            [format!(
                r#"$.currency: "{currency}" is not one of "EUR", "USD""#
            )]
        );
    }
}
