//! `#[derive(Extract)]` on enums: unit variants matched leniently, externally and
//! internally tagged data variants, untagged choice by lowest cost, `other`.

use llm_extract::{Category, CoercionKind, Extract};

#[derive(Extract, Debug, PartialEq, Clone, Copy)]
enum Sentiment {
    Positive,
    Negative,
    #[extract(alias = "meh")]
    Neutral,
}

fn kinds<T>(out: &llm_extract::Extracted<T>) -> Vec<CoercionKind> {
    out.report
        .coercions
        .iter()
        .map(|c| c.kind.clone())
        .collect()
}

#[test]
fn unit_variants_exact_normalized_alias_and_in_a_sentence() {
    let rows: &[(&str, Sentiment, Option<CoercionKind>)] = &[
        (r#""Positive""#, Sentiment::Positive, None),
        (
            r#""positive""#,
            Sentiment::Positive,
            Some(CoercionKind::NormalizedVariant),
        ),
        (
            r#""NEGATIVE""#,
            Sentiment::Negative,
            Some(CoercionKind::NormalizedVariant),
        ),
        (
            r#""meh""#,
            Sentiment::Neutral,
            Some(CoercionKind::AliasVariant),
        ),
        (
            r#""The sentiment is POSITIVE.""#,
            Sentiment::Positive,
            Some(CoercionKind::VariantFromText),
        ),
        (
            r#"["Negative"]"#,
            Sentiment::Negative,
            Some(CoercionKind::ListToSingle),
        ),
    ];
    for (text, want, kind) in rows {
        let out = llm_extract::extract::<Sentiment>(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(out.value, *want, "{text}");
        assert_eq!(kinds(&out).first(), kind.as_ref(), "{text}");
    }
}

#[test]
fn two_variants_in_one_sentence_is_ambiguous_never_a_guess() {
    let err =
        llm_extract::from_str::<Sentiment>(r#""positive or negative, hard to say""#).unwrap_err();
    assert_eq!(err.category(), Category::Variant);
    assert!(err.to_string().contains("ambiguous"), "{err}");
    assert!(
        err.to_string().contains("`Positive`") && err.to_string().contains("`Negative`"),
        "{err}"
    );
}

#[test]
fn unknown_variant_lists_the_expected_ones() {
    let err = llm_extract::from_str::<Sentiment>(r#""angry""#).unwrap_err();
    assert_eq!(err.category(), Category::Variant);
    assert!(
        err.to_string()
            .contains("expected one of `Positive`, `Negative`, `Neutral`"),
        "{err}"
    );
}

#[derive(Extract, Debug, PartialEq)]
#[extract(rename_all = "snake_case")]
enum Status {
    Pass,
    Fail,
    InProgress,
    #[extract(other)]
    Unknown,
}

#[test]
fn rename_all_and_other() {
    assert_eq!(
        llm_extract::from_str::<Status>(r#""in_progress""#).unwrap(),
        Status::InProgress
    );
    assert_eq!(
        llm_extract::from_str::<Status>(r#""InProgress""#).unwrap(),
        Status::InProgress
    );
    let out = llm_extract::extract::<Status>(r#""exploded""#).unwrap();
    assert_eq!(out.value, Status::Unknown);
    assert_eq!(kinds(&out), vec![CoercionKind::OtherVariant]);
}

#[derive(Extract, Debug, PartialEq)]
enum Label {
    Spam,
    Ham,
    #[extract(other)]
    Other(String),
}

#[test]
fn other_newtype_keeps_the_raw_text() {
    assert_eq!(
        llm_extract::from_str::<Label>(r#""spam""#).unwrap(),
        Label::Spam
    );
    assert_eq!(
        llm_extract::from_str::<Label>(r#""phishing""#).unwrap(),
        Label::Other("phishing".into())
    );
}

#[derive(Extract, Debug, PartialEq)]
enum Action {
    Stop,
    Search {
        query: String,
        #[extract(default)]
        limit: u32,
    },
    Move(i32, i32),
    Say(String),
}

#[test]
fn externally_tagged_data_variants() {
    assert_eq!(
        llm_extract::from_str::<Action>(r#""Stop""#).unwrap(),
        Action::Stop
    );
    assert_eq!(
        llm_extract::from_str::<Action>(r#"{"search": {"query": "rust"}}"#).unwrap(),
        Action::Search {
            query: "rust".into(),
            limit: 0
        }
    );
    assert_eq!(
        llm_extract::from_str::<Action>(r#"{"Move": [1, -2]}"#).unwrap(),
        Action::Move(1, -2)
    );
    assert_eq!(
        llm_extract::from_str::<Action>(r#"{"Say": "hi"}"#).unwrap(),
        Action::Say("hi".into())
    );
    let err = llm_extract::from_str::<Action>(r#"{"Search": {"limit": 1}}"#).unwrap_err();
    assert_eq!(err.issues()[0].path.to_string(), "$.Search.query");
}

#[derive(Extract, Debug, PartialEq)]
#[extract(tag = "type")]
enum Event {
    Click { x: u32, y: u32 },
    Key { key: char },
    Idle,
    Custom(Payload),
}

#[derive(Extract, Debug, PartialEq)]
struct Payload {
    name: String,
}

#[test]
fn internally_tagged() {
    assert_eq!(
        llm_extract::from_str::<Event>(r#"{"type": "click", "x": 1, "y": "2"}"#).unwrap(),
        Event::Click { x: 1, y: 2 }
    );
    assert_eq!(
        llm_extract::from_str::<Event>(r#"{"Type": "Key", "key": "k"}"#).unwrap(),
        Event::Key { key: 'k' }
    );
    assert_eq!(
        llm_extract::from_str::<Event>(r#"{"type": "Idle"}"#).unwrap(),
        Event::Idle
    );
    assert_eq!(
        llm_extract::from_str::<Event>(r#"{"type": "Custom", "name": "n"}"#).unwrap(),
        Event::Custom(Payload { name: "n".into() })
    );
    // No tag at all: every variant is tried, the best fit wins, and that is recorded.
    let out = llm_extract::extract::<Event>(r#"{"x": 3, "y": 4}"#).unwrap();
    assert_eq!(out.value, Event::Click { x: 3, y: 4 });
    assert!(kinds(&out).contains(&CoercionKind::MissingTag));
    let err = llm_extract::from_str::<Event>(r#"{"type": "Scroll"}"#).unwrap_err();
    assert_eq!(err.issues()[0].path.to_string(), "$.type");
}

#[derive(Extract, Debug, PartialEq)]
#[extract(untagged)]
enum Value {
    Int(i64),
    Text(String),
    Point { x: f64, y: f64 },
    List(Vec<i64>),
    Nothing,
}

#[test]
fn a_long_list_of_untagged_values_reads_every_item() {
    // Each item is a choice of its own, with its own budget of readings: a list of
    // thousands of untagged values once failed past the 3,333rd item, the budget spent.
    let text = format!("[{}]", vec![r#"{"x": 1, "y": 2}"#; 5_000].join(", "));
    for extractor in [
        llm_extract::Extractor::new(),
        llm_extract::Extractor::new().without_direct_path(),
    ] {
        let out = extractor.extract::<Vec<Value>>(&text).unwrap();
        assert_eq!(out.value.len(), 5_000);
        assert_eq!(out.value[4_999], Value::Point { x: 1.0, y: 2.0 });
        assert!(out.report.coercions.is_empty());
        let messy = text.replace('"', "'");
        assert_eq!(
            extractor.from_str::<Vec<Value>>(&messy).unwrap().len(),
            5_000
        );
    }
}

#[test]
fn untagged_takes_the_lowest_cost_reading_not_the_first() {
    // "42" fits Int only with a string-to-number coercion but Text exactly: Text wins.
    assert_eq!(
        llm_extract::from_str::<Value>(r#""42""#).unwrap(),
        Value::Text("42".into())
    );
    // 42 fits Int exactly, Text only with a coercion.
    assert_eq!(
        llm_extract::from_str::<Value>("42").unwrap(),
        Value::Int(42)
    );
    assert_eq!(
        llm_extract::from_str::<Value>(r#"{"x": 1, "y": 2}"#).unwrap(),
        Value::Point { x: 1.0, y: 2.0 }
    );
    assert_eq!(
        llm_extract::from_str::<Value>("[1, 2]").unwrap(),
        Value::List(vec![1, 2])
    );
    assert_eq!(
        llm_extract::from_str::<Value>("null").unwrap(),
        Value::Nothing
    );
    let out = llm_extract::extract::<Value>("[1, 2]").unwrap();
    assert!(
        out.report.coercions.is_empty(),
        "losing readings leave no records: {:?}",
        out.report.coercions
    );
    let err = llm_extract::from_str::<Value>(r#"{"z": {}}"#).unwrap_err();
    assert!(
        err.to_string().contains("no variant of `Value` fits"),
        "{err}"
    );
}

#[derive(Extract, Debug, PartialEq)]
struct Review {
    sentiment: Sentiment,
    tags: Vec<Sentiment>,
}

#[test]
fn enums_inside_structs_report_their_paths() {
    let err =
        llm_extract::from_str::<Review>(r#"{"sentiment": "happy", "tags": ["Positive", "sad"]}"#)
            .unwrap_err();
    let paths: Vec<String> = err.issues().iter().map(|i| i.path.to_string()).collect();
    assert_eq!(paths, vec!["$.sentiment", "$.tags[1]"]);
}

#[test]
fn strict_mode_wants_exact_names() {
    #[derive(Extract, Debug, PartialEq)]
    #[extract(strict)]
    struct S {
        s: Sentiment,
    }
    assert!(llm_extract::from_str::<S>(r#"{"s": "positive"}"#).is_err());
    assert_eq!(
        llm_extract::from_str::<S>(r#"{"s": "meh"}"#).unwrap(),
        S {
            s: Sentiment::Neutral
        }
    );
}

#[test]
fn unit_enums_are_map_keys() {
    use std::collections::BTreeMap;
    #[derive(Extract, Debug, PartialEq, Eq, PartialOrd, Ord)]
    enum Level {
        Low,
        High,
    }
    let counts: BTreeMap<Level, u32> = llm_extract::from_str(r#"{"low": 2, "HIGH": "3"}"#).unwrap();
    assert_eq!(counts, BTreeMap::from([(Level::Low, 2), (Level::High, 3)]));
    let err = llm_extract::from_str::<BTreeMap<Level, u32>>(r#"{"medium": 1}"#).unwrap_err();
    assert_eq!(err.issues()[0].path.to_string(), "$.medium");
}

#[test]
fn variant_rename_alias_and_serde_agreement() {
    #[derive(Extract, serde::Deserialize, Debug, PartialEq)]
    enum Vote {
        #[extract(rename = "thumbs_up", alias = "+1")]
        Up,
        #[serde(rename = "thumbs_down", alias = "-1")]
        Down,
    }
    assert_eq!(
        llm_extract::from_str::<Vote>(r#""thumbs_up""#).unwrap(),
        Vote::Up
    );
    assert_eq!(llm_extract::from_str::<Vote>(r#""+1""#).unwrap(), Vote::Up);
    assert_eq!(
        llm_extract::from_str::<Vote>(r#""Thumbs Down""#).unwrap(),
        Vote::Down
    );
    assert_eq!(
        llm_extract::from_str::<Vote>(r#""-1""#).unwrap(),
        Vote::Down
    );
    // The Rust name is not a name any more once renamed.
    assert!(llm_extract::from_str::<Vote>(r#""Up""#).is_err());
}

#[test]
fn internally_tagged_with_deny_unknown_fields() {
    #[derive(Extract, Debug, PartialEq)]
    #[extract(tag = "op", deny_unknown_fields)]
    enum Op {
        Add { a: i64, b: i64 },
        Neg { a: i64 },
    }
    assert_eq!(
        llm_extract::from_str::<Op>(r#"{"op": "add", "a": 1, "b": 2}"#).unwrap(),
        Op::Add { a: 1, b: 2 }
    );
    let err = llm_extract::from_str::<Op>(r#"{"op": "neg", "a": 1, "b": 2}"#).unwrap_err();
    assert_eq!(err.category(), Category::Unknown);
    assert_eq!(err.issues()[0].path.to_string(), "$.b");
}

/// Tools as a model calls them: `{"name": "<tool>", "arguments": {..}}`.
#[derive(Extract, Debug, PartialEq)]
#[extract(tag = "name", content = "arguments", rename_all = "snake_case")]
enum Tool {
    Search {
        query: String,
    },
    #[extract(alias = "forecast")]
    GetWeather {
        city: String,
        days: Option<u8>,
    },
    Now,
}

#[test]
fn adjacently_tagged_reads_the_tag_like_a_variant_and_the_content_as_its_fields() {
    let rows: &[(&str, Tool, &[CoercionKind])] = &[
        (
            r#"{"name": "search", "arguments": {"query": "rust"}}"#,
            Tool::Search {
                query: "rust".into(),
            },
            &[],
        ),
        (
            r#"{"Name": "Get Weather", "args": 1, "arguments": {"city": "Paris", "days": "3"}}"#,
            Tool::GetWeather {
                city: "Paris".into(),
                days: Some(3),
            },
            &[
                CoercionKind::NormalizedKey,
                CoercionKind::NormalizedVariant,
                CoercionKind::UnknownKey,
                CoercionKind::StringToNumber,
            ],
        ),
        (
            r#"{"name": "forecast", "arguments": {"city": "Oslo"}}"#,
            Tool::GetWeather {
                city: "Oslo".into(),
                days: None,
            },
            &[CoercionKind::AliasVariant],
        ),
        // A unit variant needs no content: absent, null or empty.
        (r#"{"name": "now"}"#, Tool::Now, &[]),
        (r#"{"name": "now", "arguments": null}"#, Tool::Now, &[]),
        (r#"{"name": "now", "arguments": {}}"#, Tool::Now, &[]),
        // Arguments as a string holding JSON, as OpenAI writes them: decoded, not wrapped.
        (
            r#"{"name": "search", "arguments": "{\"query\": \"rust\"}"}"#,
            Tool::Search {
                query: "rust".into(),
            },
            &[CoercionKind::DecodedString],
        ),
        // A string that is not a JSON document is a value, here the only field's.
        (
            r#"{"name": "search", "arguments": "rust"}"#,
            Tool::Search {
                query: "rust".into(),
            },
            &[CoercionKind::WrappedInStruct],
        ),
        // The fields written beside the tag, with no content key.
        (
            r#"{"name": "search", "query": "inline"}"#,
            Tool::Search {
                query: "inline".into(),
            },
            &[CoercionKind::InlineContent],
        ),
        // No tag: every variant is tried on the content, the best fit wins.
        (
            r#"{"arguments": {"city": "Rome", "days": 2}}"#,
            Tool::GetWeather {
                city: "Rome".into(),
                days: Some(2),
            },
            &[CoercionKind::MissingTag],
        ),
    ];
    for (text, expected, expected_kinds) in rows {
        let out = llm_extract::extract::<Tool>(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&out.value, expected, "{text}");
        let mut got = kinds(&out);
        let mut want = expected_kinds.to_vec();
        got.sort_by_key(|k| format!("{k:?}"));
        want.sort_by_key(|k| format!("{k:?}"));
        assert_eq!(got, want, "{text}");
    }
}

#[test]
fn adjacently_tagged_errors_name_the_tool_and_the_argument_path() {
    let err = llm_extract::from_str::<Tool>(r#"{"name": "get_weather", "arguments": {"days": 3}}"#)
        .unwrap_err();
    let paths: Vec<String> = err.issues().iter().map(|i| i.path.to_string()).collect();
    assert_eq!(paths, ["$.arguments.city"]);
    assert_eq!(err.issues()[0].category, Category::Missing);

    let err = llm_extract::from_str::<Tool>(r#"{"name": "delete_everything", "arguments": {}}"#)
        .unwrap_err();
    let issue = &err.issues()[0];
    assert_eq!(issue.path.to_string(), "$.name");
    assert_eq!(issue.category, Category::Variant);
    assert!(err.to_string().contains("delete_everything"), "{err}");

    let err = llm_extract::from_str::<Tool>(r#"{"name": "search", "arguments": {"query": 5}}"#)
        .map(|t| format!("{t:?}"));
    // A number is a lenient string; a list is not.
    assert_eq!(err.unwrap(), r#"Search { query: "5" }"#);
    let err = llm_extract::from_str::<Tool>(r#"{"name": "search", "arguments": {"query": [[1]]}}"#)
        .unwrap_err();
    assert_eq!(err.issues()[0].path.to_string(), "$.arguments.query");
}

#[derive(Extract, Debug, PartialEq)]
#[extract(tag = "op", content = "with", deny_unknown_fields)]
enum Strict {
    Add { n: i32 },
}

#[test]
fn adjacently_tagged_with_deny_unknown_fields_rejects_keys_beside_tag_and_content() {
    assert_eq!(
        llm_extract::from_str::<Strict>(r#"{"op": "Add", "with": {"n": 1}}"#).unwrap(),
        Strict::Add { n: 1 }
    );
    let err =
        llm_extract::from_str::<Strict>(r#"{"op": "Add", "with": {"n": 1}, "id": 7}"#).unwrap_err();
    assert_eq!(err.issues()[0].category, Category::Unknown);
    assert_eq!(err.issues()[0].path.to_string(), "$.id");
}

#[derive(Extract, Debug, PartialEq)]
enum Dish {
    Café,
    CrèmeBrûlée,
}

#[derive(Extract, Debug, PartialEq)]
struct Address {
    straße: String,
    dish: Dish,
}

#[test]
fn keys_and_variants_match_without_diacritics_at_a_higher_cost() {
    let out =
        llm_extract::extract::<Address>(r#"{"strasse": "Hauptstraße 1", "dish": "creme brulee"}"#)
            .unwrap();
    assert_eq!(
        out.value,
        Address {
            straße: "Hauptstraße 1".into(),
            dish: Dish::CrèmeBrûlée
        }
    );
    let found: Vec<(String, CoercionKind)> = out
        .report
        .coercions
        .iter()
        .map(|c| (c.path.to_string(), c.kind.clone()))
        .collect();
    assert_eq!(
        found,
        [
            ("$['straße']".to_string(), CoercionKind::FoldedKey),
            ("$.dish".to_string(), CoercionKind::FoldedVariant)
        ]
    );
    assert_eq!(
        llm_extract::from_str::<Dish>(r#""CAFE""#).unwrap(),
        Dish::Café
    );
    // Strict mode takes exact names only, as for normalized variants.
    assert!(llm_extract::from_str::<StrictDish>(r#""cafe""#).is_err());
    assert_eq!(
        llm_extract::from_str::<StrictDish>(r#""Café""#).unwrap(),
        StrictDish::Café
    );
}

#[derive(Extract, Debug, PartialEq)]
#[extract(strict)]
enum StrictDish {
    Café,
}
