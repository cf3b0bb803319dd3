//! `#[derive(Extract)]` on structs: key matching, coercions, defaults, flatten, catch,
//! strict, missing fields, every issue collected.

use llm_extract::{Category, CoercionKind, Extract};
use serde_json::json;

fn kinds<T>(out: &llm_extract::Extracted<T>) -> Vec<CoercionKind> {
    out.report
        .coercions
        .iter()
        .map(|c| c.kind.clone())
        .collect()
}

#[derive(Extract, Debug, PartialEq)]
struct ToolCall {
    #[extract(alias = "tool", alias = "name")]
    tool_name: String,
    #[extract(alias = "params", default)]
    parameters: serde_json::Map<String, serde_json::Value>,
}

#[test]
fn exact_keys_are_clean() {
    let out =
        llm_extract::extract::<ToolCall>(r#"{"tool_name": "search", "parameters": {"q": "rust"}}"#)
            .unwrap();
    assert_eq!(out.value.tool_name, "search");
    assert_eq!(out.value.parameters["q"], json!("rust"));
    assert!(
        out.report.coercions.is_empty(),
        "{:?}",
        out.report.coercions
    );
    assert_eq!(out.report.score, 0);
}

#[test]
fn aliases_and_normalized_keys_are_recorded() {
    let out = llm_extract::extract::<ToolCall>(r#"{"tool": "search", "params": {}}"#).unwrap();
    assert_eq!(out.value.tool_name, "search");
    assert_eq!(
        kinds(&out),
        vec![CoercionKind::AliasKey, CoercionKind::AliasKey]
    );
    assert_eq!(out.report.coercions[0].path.to_string(), "$.tool_name");

    let out =
        llm_extract::extract::<ToolCall>(r#"{"toolName": "x", "Parameters": {"a": 1}}"#).unwrap();
    assert_eq!(out.value.tool_name, "x");
    assert_eq!(
        kinds(&out),
        vec![CoercionKind::NormalizedKey, CoercionKind::NormalizedKey]
    );
}

#[test]
fn two_keys_on_one_field_the_better_match_wins() {
    // `name` is an alias, `tool_name` the exact name: exact wins whatever the order.
    let out =
        llm_extract::extract::<ToolCall>(r#"{"name": "alias", "tool_name": "exact"}"#).unwrap();
    assert_eq!(out.value.tool_name, "exact");
    assert!(kinds(&out).contains(&CoercionKind::DuplicateKey));
    let out =
        llm_extract::extract::<ToolCall>(r#"{"tool_name": "exact", "tool": "alias"}"#).unwrap();
    assert_eq!(out.value.tool_name, "exact");
    assert!(kinds(&out).contains(&CoercionKind::DuplicateKey));
}

#[test]
fn missing_parameters_take_the_default_and_null_too() {
    let out = llm_extract::extract::<ToolCall>(r#"{"tool_name": "get_time"}"#).unwrap();
    assert!(out.value.parameters.is_empty());
    assert_eq!(kinds(&out), vec![CoercionKind::DefaultUsed]);
    let call: ToolCall =
        llm_extract::from_str(r#"{"tool_name": "get_time", "parameters": null}"#).unwrap();
    assert!(call.parameters.is_empty());
}

#[test]
fn missing_required_field_is_an_issue_with_its_path() {
    let err = llm_extract::from_str::<ToolCall>(r#"{"parameters": {}}"#).unwrap_err();
    assert_eq!(err.category(), Category::Missing);
    assert_eq!(err.issues()[0].path.to_string(), "$.tool_name");
    assert!(
        err.issues()[0]
            .message
            .contains("missing field `tool_name`"),
        "{err}"
    );
}

#[derive(Extract, Debug, PartialEq)]
struct Person {
    name: String,
    age: u32,
    email: Option<String>,
    tags: Vec<String>,
}

#[test]
fn coercions_on_fields() {
    let out = llm_extract::extract::<Person>(
        r#"{"name": "Ada", "age": "36", "email": "N/A", "tags": "math"}"#,
    )
    .unwrap();
    assert_eq!(
        out.value,
        Person {
            name: "Ada".into(),
            age: 36,
            email: None,
            tags: vec!["math".into()]
        }
    );
    assert_eq!(
        kinds(&out),
        vec![
            CoercionKind::StringToNumber,
            CoercionKind::PlaceholderToNone,
            CoercionKind::SingleToList
        ]
    );
    let paths: Vec<String> = out
        .report
        .coercions
        .iter()
        .map(|c| c.path.to_string())
        .collect();
    assert_eq!(paths, vec!["$.age", "$.email", "$.tags"]);
}

#[test]
fn every_issue_is_collected_not_only_the_first() {
    let err =
        llm_extract::from_str::<Person>(r#"{"age": "old", "email": 5, "tags": [1, {"x": 1}]}"#)
            .unwrap_err();
    let paths: Vec<String> = err.issues().iter().map(|i| i.path.to_string()).collect();
    assert_eq!(paths, vec!["$.name", "$.age", "$.tags[1]"], "{err}");
    // email: 5 became "5" (a recorded coercion, not an issue).
}

#[test]
fn unknown_keys_are_recorded() {
    let out =
        llm_extract::extract::<Person>(r#"{"name": "A", "age": 1, "tags": [], "mood": "ok"}"#)
            .unwrap();
    assert_eq!(kinds(&out), vec![CoercionKind::UnknownKey]);
    assert_eq!(out.report.coercions[0].path.to_string(), "$.mood");
}

#[derive(Extract, Debug)]
#[extract(deny_unknown_fields)]
struct Closed {
    #[allow(dead_code)] // read through Debug only
    a: u8,
}

#[test]
fn deny_unknown_fields_rejects_them() {
    let err = llm_extract::from_str::<Closed>(r#"{"a": 1, "b": 2}"#).unwrap_err();
    assert_eq!(err.category(), Category::Unknown);
    assert!(
        err.to_string()
            .contains("unknown field `b`, expected one of `a`"),
        "{err}"
    );
}

#[derive(Extract, Debug, PartialEq)]
#[extract(rename_all = "camelCase")]
struct Renamed {
    user_id: u64,
    #[extract(rename = "full-name")]
    display_name: String,
}

#[test]
fn rename_and_rename_all() {
    let out = llm_extract::extract::<Renamed>(r#"{"userId": 7, "full-name": "Ada"}"#).unwrap();
    assert_eq!(
        out.value,
        Renamed {
            user_id: 7,
            display_name: "Ada".into()
        }
    );
    assert!(out.report.coercions.is_empty());
    // snake_case still lands after normalization, recorded.
    let out = llm_extract::extract::<Renamed>(r#"{"user_id": 7, "full_name": "Ada"}"#).unwrap();
    assert_eq!(
        kinds(&out),
        vec![CoercionKind::NormalizedKey, CoercionKind::NormalizedKey]
    );
}

#[derive(Extract, Debug, PartialEq)]
struct Strictish {
    #[extract(strict)]
    exact: u32,
    loose: u32,
}

#[derive(Extract, Debug, PartialEq)]
#[extract(strict)]
struct AllStrict {
    n: u32,
}

#[test]
fn strict_turns_coercion_off_where_asked() {
    let err = llm_extract::from_str::<Strictish>(r#"{"exact": "42", "loose": "42"}"#).unwrap_err();
    assert_eq!(err.issues().len(), 1);
    assert_eq!(err.issues()[0].path.to_string(), "$.exact");
    let ok: Strictish = llm_extract::from_str(r#"{"exact": 42, "loose": "42"}"#).unwrap();
    assert_eq!(
        ok,
        Strictish {
            exact: 42,
            loose: 42
        }
    );
    assert!(llm_extract::from_str::<AllStrict>(r#"{"n": "1"}"#).is_err());
    assert_eq!(
        llm_extract::from_str::<AllStrict>(r#"{"n": 1}"#).unwrap(),
        AllStrict { n: 1 }
    );
}

fn five() -> u32 {
    5
}

#[derive(Extract, Debug, PartialEq)]
struct Defaults {
    #[extract(default = five)]
    retries: u32,
    #[extract(catch)]
    level: u8,
    #[extract(skip)]
    cache: Vec<u8>,
}

#[test]
fn default_path_catch_and_skip() {
    let out = llm_extract::extract::<Defaults>(r#"{"level": "very high", "cache": [1]}"#).unwrap();
    assert_eq!(
        out.value,
        Defaults {
            retries: 5,
            level: 0,
            cache: vec![]
        }
    );
    let k = kinds(&out);
    assert!(
        k.contains(&CoercionKind::DefaultUsed) && k.contains(&CoercionKind::Caught),
        "{k:?}"
    );
    assert!(
        k.contains(&CoercionKind::UnknownKey),
        "skipped fields are not read: {k:?}"
    );
    let ok: Defaults = llm_extract::from_str(r#"{"retries": 1, "level": 3}"#).unwrap();
    assert_eq!(
        ok,
        Defaults {
            retries: 1,
            level: 3,
            cache: vec![]
        }
    );
}

#[derive(Extract, Debug, PartialEq)]
struct WithExtra {
    id: u32,
    #[extract(flatten)]
    extra: std::collections::BTreeMap<String, serde_json::Value>,
}

#[test]
fn flatten_takes_the_other_keys() {
    let out = llm_extract::extract::<WithExtra>(r#"{"id": 1, "a": true, "b": [1]}"#).unwrap();
    assert_eq!(out.value.id, 1);
    assert_eq!(out.value.extra.len(), 2);
    assert!(out.report.coercions.is_empty());
}

#[derive(Extract, Debug, PartialEq)]
struct Answer {
    value: f64,
}

#[derive(Extract, Debug, PartialEq)]
struct Pair(String, u8);

#[derive(Extract, Debug, PartialEq)]
struct Meters(f64);

#[derive(Extract, Debug, PartialEq)]
struct Marker;

#[test]
fn tuple_newtype_unit_and_bare_value_structs() {
    let out = llm_extract::extract::<Answer>("42").unwrap();
    assert_eq!(out.value, Answer { value: 42.0 });
    assert_eq!(kinds(&out), vec![CoercionKind::WrappedInStruct]);
    assert_eq!(
        llm_extract::from_str::<Pair>(r#"["a", 2]"#).unwrap(),
        Pair("a".into(), 2)
    );
    assert!(llm_extract::from_str::<Pair>(r#"["a"]"#).is_err());
    assert_eq!(llm_extract::from_str::<Meters>("3.5").unwrap(), Meters(3.5));
    assert_eq!(llm_extract::from_str::<Marker>("null").unwrap(), Marker);
}

#[derive(Extract, Debug, PartialEq)]
struct Wrapper<T> {
    items: Vec<T>,
    #[extract(skip)]
    note: String,
}

#[test]
fn generics_get_inferred_bounds() {
    let w: Wrapper<u8> = llm_extract::from_str(r#"{"items": [1, "2"]}"#).unwrap();
    assert_eq!(w.items, vec![1, 2]);
    assert_eq!(w.note, "");
}

#[derive(Extract, Debug, PartialEq, serde::Deserialize)]
struct SerdeAgrees {
    #[serde(rename = "ID")]
    id: u32,
    #[serde(alias = "label")]
    name: String,
    #[serde(default)]
    count: u32,
}

#[test]
fn serde_attributes_are_read() {
    let v: SerdeAgrees = llm_extract::from_str(r#"{"ID": 1, "label": "x"}"#).unwrap();
    assert_eq!(
        v,
        SerdeAgrees {
            id: 1,
            name: "x".into(),
            count: 0
        }
    );
}

#[derive(Extract, Debug, PartialEq)]
struct Node {
    name: String,
    #[extract(default)]
    children: Vec<Node>,
}

#[test]
fn recursive_types_and_nested_paths() {
    let err = llm_extract::from_str::<Node>(
        r#"{"name": "a", "children": [{"name": "b", "children": [{"children": []}]}]}"#,
    )
    .unwrap_err();
    assert_eq!(
        err.issues()[0].path.to_string(),
        "$.children[0].children[0].name"
    );
}

#[test]
fn no_panic_on_odd_shapes() {
    for text in [
        "[]",
        "{}",
        "null",
        "\"\"",
        "[[[]]]",
        "{\"tool\": {}}",
        "-1",
        "1e999",
    ] {
        let _ = llm_extract::from_str::<ToolCall>(text);
        let _ = llm_extract::from_str::<Person>(text);
        let _ = llm_extract::from_str::<Pair>(text);
        let _ = llm_extract::from_str::<Node>(text);
    }
}

/// A `with` module: reads "HH:MM" into minutes.
mod hhmm {
    use llm_extract::coerce::{Context, Failed, Node};
    use llm_extract::Category;

    pub fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<u32, Failed> {
        let parsed = node.as_str().and_then(|s| {
            let (h, m) = s.split_once(':')?;
            Some(h.trim().parse::<u32>().ok()? * 60 + m.trim().parse::<u32>().ok()?)
        });
        parsed.ok_or_else(|| cx.fail(Category::Type, "expected a time as HH:MM", node.span))
    }
}

#[derive(Extract, Debug, PartialEq)]
struct Meeting {
    #[extract(with = hhmm)]
    starts: u32,
    #[extract(with = hhmm, default)]
    ends: u32,
}

#[test]
fn with_module_reads_the_field() {
    let m: Meeting = llm_extract::from_str(r#"{"starts": "9:30"}"#).unwrap();
    assert_eq!(
        m,
        Meeting {
            starts: 570,
            ends: 0
        }
    );
    let err =
        llm_extract::from_str::<Meeting>(r#"{"starts": "soon", "ends": "10:00"}"#).unwrap_err();
    assert_eq!(err.issues()[0].path.to_string(), "$.starts");
    assert!(
        err.to_string().contains("expected a time as HH:MM"),
        "{err}"
    );
    let err = llm_extract::from_str::<Meeting>(r#"{"ends": "10:00"}"#).unwrap_err();
    assert_eq!(err.category(), Category::Missing);
}

#[derive(Extract, Debug, PartialEq)]
struct Paging {
    page: u32,
    #[extract(default)]
    per_page: u32,
}

#[derive(Extract, Debug, PartialEq)]
struct Query {
    q: String,
    #[extract(flatten)]
    paging: Paging,
}

#[test]
fn flatten_a_struct() {
    let out =
        llm_extract::extract::<Query>(r#"{"q": "rust", "page": "2", "perPage": 10, "extra": 1}"#)
            .unwrap();
    assert_eq!(
        out.value,
        Query {
            q: "rust".into(),
            paging: Paging {
                page: 2,
                per_page: 10
            }
        }
    );
    let paths: Vec<(String, CoercionKind)> = out
        .report
        .coercions
        .iter()
        .map(|c| (c.path.to_string(), c.kind.clone()))
        .collect();
    assert!(
        paths.contains(&("$.extra".to_string(), CoercionKind::UnknownKey)),
        "{paths:?}"
    );
    assert!(
        paths.contains(&("$.per_page".to_string(), CoercionKind::NormalizedKey)),
        "{paths:?}"
    );
    let err = llm_extract::from_str::<Query>(r#"{"q": "rust"}"#).unwrap_err();
    assert_eq!(err.issues()[0].path.to_string(), "$.page");
}
