//! The direct path (`Extract::read_direct`) gives what the full path gives: the same value,
//! the same report and the same errors, on generated documents that are valid, that use
//! the leniency the full path exists for (aliases, other key spellings, numbers as strings,
//! missing fields, unknown keys), and that are damaged (fences, single quotes, `True`,
//! trailing commas, cut off). Each case is read twice, once with the direct path off.

use llm_extract::{Extract, Extractor};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::fmt::Debug;

#[derive(Extract, Debug, Clone, PartialEq)]
struct Doc {
    id: u64,
    name: String,
    score: f64,
    tags: Vec<String>,
    items: Vec<Item>,
    status: Status,
    note: Option<String>,
    meta: BTreeMap<String, i32>,
    #[extract(alias = "category")]
    kind: Option<Kind>,
    #[extract(default)]
    count: u32,
    #[extract(min = 0, max = 10)]
    level: Option<u8>,
    shape: Option<Shape>,
    event: Option<Event>,
    code: Option<Code>,
    letter: Option<char>,
    ratio: Option<f32>,
    small: Option<i8>,
    child: Option<Box<Doc>>,
}

#[derive(Extract, Debug, Clone, PartialEq)]
struct Item {
    sku: String,
    qty: u32,
    price: Option<f64>,
    gift: bool,
}

#[derive(Extract, Debug, Clone, PartialEq)]
#[extract(rename_all = "snake_case")]
enum Status {
    Pending,
    InTransit,
    Done,
    #[extract(other)]
    Unknown,
}

#[derive(Extract, Debug, Clone, PartialEq)]
enum Kind {
    Plain,
    Sized { width: u32, height: u32 },
    Named(String),
}

#[derive(Extract, Debug, Clone, PartialEq)]
#[extract(untagged)]
enum Shape {
    Point(i64),
    Line(Vec<i64>),
    Label { text: String },
}

#[derive(Extract, Debug, Clone, PartialEq)]
#[extract(tag = "type")]
enum Event {
    Click { x: i32, y: i32 },
    Key { key: String },
}

#[derive(Extract, Debug, Clone, PartialEq)]
struct Code(u64);

/// A JSON value for a field: usually of the field's own type, sometimes anything.
fn or_anything(own: BoxedStrategy<Value>, noisy: bool) -> BoxedStrategy<Value> {
    if !noisy {
        return own;
    }
    let anything = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        Just(json!(-1)),
        (-1e6f64..1e6).prop_map(|f| json!(f)),
        "[0-9]{1,4}".prop_map(Value::String),
        ".{0,6}".prop_map(Value::String),
        Just(json!([])),
        Just(json!({})),
    ];
    prop_oneof![8 => own, 1 => anything].boxed()
}

fn text() -> BoxedStrategy<Value> {
    prop_oneof![
        "[a-zA-Z0-9 ]{0,12}",
        ".{0,8}",
        "[\"\\\\/\u{0}-\u{1f}\u{e9}\u{1F600}]{0,4}",
        Just("N/A".to_string()),
        Just(String::new()),
    ]
    .prop_map(Value::String)
    .boxed()
}

fn integer(max: u64) -> BoxedStrategy<Value> {
    prop_oneof![8 => (0..=max).prop_map(|n| json!(n)), 1 => Just(json!(max))].boxed()
}

fn float() -> BoxedStrategy<Value> {
    prop_oneof![
        (-1e9f64..1e9).prop_map(|f| json!(f)),
        any::<i32>().prop_map(|n| json!(n)),
        Just(json!(1e300)),
        Just(json!(-0.0)),
    ]
    .boxed()
}

fn optional(own: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
    prop_oneof![3 => own, 1 => Just(Value::Null)].boxed()
}

fn item(noisy: bool) -> BoxedStrategy<Value> {
    object(
        noisy,
        vec![
            ("sku", text()),
            ("qty", integer(u64::from(u32::MAX))),
            ("price", optional(float())),
            ("gift", any::<bool>().prop_map(Value::Bool).boxed()),
        ],
    )
}

fn status() -> BoxedStrategy<Value> {
    prop_oneof![
        8 => Just("pending"),
        8 => Just("in_transit"),
        8 => Just("done"),
        1 => Just("Done"),
        1 => Just("in transit"),
        1 => Just("lost"),
    ]
    .prop_map(|s| json!(s))
    .boxed()
}

fn kind() -> BoxedStrategy<Value> {
    prop_oneof![
        Just(json!("Plain")),
        (0u32..100, 0u32..100).prop_map(|(w, h)| json!({"Sized": {"width": w, "height": h}})),
        text().prop_map(|t| json!({ "Named": t })),
    ]
    .boxed()
}

fn shape() -> BoxedStrategy<Value> {
    prop_oneof![
        any::<i64>().prop_map(|n| json!(n)),
        prop::collection::vec(any::<i64>(), 0..4).prop_map(|v| json!(v)),
        text().prop_map(|t| json!({ "text": t })),
    ]
    .boxed()
}

fn event() -> BoxedStrategy<Value> {
    prop_oneof![
        (any::<i32>(), any::<i32>()).prop_map(|(x, y)| json!({"type": "Click", "x": x, "y": y})),
        text().prop_map(|k| json!({"type": "Key", "key": k})),
    ]
    .boxed()
}

/// A document for `Doc`, `depth` levels of `child` deep at most.
fn doc(depth: u32, noisy: bool) -> BoxedStrategy<Value> {
    let child = if depth == 0 {
        Just(Value::Null).boxed()
    } else {
        optional(doc(depth - 1, noisy))
    };
    let meta = prop::collection::btree_map("[a-z]{1,4}", any::<i32>(), 0..4)
        .prop_map(|m| json!(m))
        .boxed();
    object(
        noisy,
        vec![
            ("id", integer(u64::MAX)),
            ("name", text()),
            ("score", float()),
            (
                "tags",
                prop::collection::vec(text(), 0..4)
                    .prop_map(Value::Array)
                    .boxed(),
            ),
            (
                "items",
                prop::collection::vec(item(noisy), 0..4)
                    .prop_map(Value::Array)
                    .boxed(),
            ),
            ("status", status()),
            ("note", optional(text())),
            ("meta", meta),
            ("kind", optional(kind())),
            ("count", integer(1000)),
            ("level", optional(integer(10))),
            ("shape", optional(shape())),
            ("event", optional(event())),
            ("code", optional(integer(u64::MAX))),
            (
                "letter",
                optional("[a-z\u{e9}]".prop_map(Value::String).boxed()),
            ),
            ("ratio", optional(float())),
            ("small", optional(integer(127))),
            ("child", child),
        ],
    )
}

/// An object with these fields, each value usually of its type, each key usually as
/// written but sometimes absent, spelled another way or next to an unknown key.
fn object(noisy: bool, fields: Vec<(&'static str, BoxedStrategy<Value>)>) -> BoxedStrategy<Value> {
    let members: Vec<BoxedStrategy<Option<(String, Value)>>> = fields
        .into_iter()
        .map(|(name, value)| {
            let spelled = if noisy { 1 } else { 0 };
            let key = prop_oneof![
                12 => Just(name.to_string()),
                spelled => Just(name.to_uppercase()),
                spelled => Just(if name == "kind" { "category".to_string() } else { format!("{name}_x") }),
            ];
            let present = if noisy { 12 } else { 200 };
            prop_oneof![
                present => (key, or_anything(value, noisy)).prop_map(Some),
                1 => Just(None),
            ]
            .boxed()
        })
        .collect();
    members
        .prop_map(|members| {
            let mut out = Map::new();
            for (key, value) in members.into_iter().flatten() {
                out.insert(key, value);
            }
            Value::Object(out)
        })
        .boxed()
}

/// The document as text: compact or pretty, non-ASCII escaped or not, then maybe damaged
/// the way models damage JSON.
fn written(value: &Value, pretty: bool, escape: bool, damage: u8, at: usize) -> String {
    let mut text = if pretty {
        serde_json::to_string_pretty(value).unwrap()
    } else {
        value.to_string()
    };
    if escape {
        // Non-ASCII only occurs inside strings, where an escape means the same.
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            if c.is_ascii() {
                out.push(c);
            } else {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
        }
        text = out;
    }
    match damage {
        0 => text,
        1 => format!("```json\n{text}\n```"),
        2 => text.replace('"', "'"),
        3 => text.replace("true", "True").replace("null", "None"),
        4 => match text.rfind('}') {
            Some(i) if i > 1 => format!("{},{}", &text[..i], &text[i..]),
            _ => text,
        },
        5 => {
            let mut cut = at % (text.len() + 1);
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text[..cut].to_string()
        }
        6 => format!("  {text}\n\n"),
        7 => format!("Here is the JSON:\n{text}\nHope that helps."),
        _ => format!("{text} {text}"),
    }
}

/// Reads `text` on both paths and requires the same outcome; says whether the direct path
/// gave the value.
fn same<T: Extract + Debug>(text: &str, max_depth: usize) -> bool {
    let direct = Extractor::new().max_depth(max_depth).extract::<T>(text);
    let full = Extractor::new()
        .max_depth(max_depth)
        .without_direct_path()
        .extract::<T>(text);
    match (&direct, &full) {
        (Ok(a), Ok(b)) => {
            assert_eq!(
                format!("{:?}", a.value),
                format!("{:?}", b.value),
                "value of {text}"
            );
            assert_eq!(
                serde_json::to_value(&a.report).unwrap(),
                serde_json::to_value(&b.report).unwrap(),
                "report of {text}"
            );
            assert_eq!(a.thoughts, b.thoughts, "thoughts of {text}");
        }
        (Err(a), Err(b)) => {
            assert_eq!(a.to_string(), b.to_string(), "error of {text}");
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "error of {text}");
        }
        _ => panic!("the paths disagree on {text}:\ndirect: {direct:?}\nfull: {full:?}"),
    }
    // `from_str` skips what only the report shows: the same value or error.
    let value = Extractor::new().max_depth(max_depth).from_str::<T>(text);
    match (&value, &direct) {
        (Ok(v), Ok(e)) => assert_eq!(format!("{v:?}"), format!("{:?}", e.value), "{text}"),
        (Err(a), Err(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{text}"),
        _ => panic!("from_str and extract disagree on {text}"),
    }
    llm_extract::__internal::read_direct::<T>(text, max_depth).is_some()
}

fn case() -> impl Strategy<Value = (Value, bool, bool, u8, usize)> {
    (
        prop_oneof![2 => doc(2, false), 1 => doc(2, true)],
        any::<bool>(),
        prop::bool::weighted(0.2),
        prop_oneof![5 => Just(0u8), 2 => prop_oneof![Just(1u8), Just(7u8)], 2 => 1u8..9],
        any::<usize>(),
    )
}

#[test]
fn the_direct_path_gives_what_the_full_path_gives() {
    let mut runner = TestRunner::new(Config {
        cases: 600,
        failure_persistence: None,
        ..Config::default()
    });
    let direct = std::cell::Cell::new(0u32);
    let total = std::cell::Cell::new(0u32);
    runner
        .run(&case(), |(value, pretty, escape, damage, at)| {
            let text = written(&value, pretty, escape, damage, at);
            let took = same::<Doc>(&text, 128);
            same::<Vec<Item>>(&text, 128);
            same::<Value>(&text, 128);
            same::<BTreeMap<String, Value>>(&text, 128);
            same::<Doc>(&text, 3);
            let list = format!("[{text}, {text}]");
            same::<Vec<Doc>>(&list, 128);
            same::<Vec<Option<Doc>>>(&list, 4);
            total.set(total.get() + 1);
            direct.set(direct.get() + u32::from(took));
            Ok(())
        })
        .unwrap();
    // The comparison means something only if the direct path gave many of the values.
    let (direct, total) = (direct.get(), total.get());
    eprintln!("the direct path gave the value in {direct} of {total} cases");
    assert!(direct * 6 >= total, "direct path took {direct} of {total}");
}

#[test]
fn the_direct_path_reads_a_clean_document_without_a_tree() {
    let text = r#"{"id": 7, "name": "A\u00e9\ud83d\ude00", "score": -0.0, "tags": ["x"], "items": [{"sku": "s", "qty": 2, "price": null, "gift": true}], "status": "in_transit", "note": null, "meta": {"a": 1}, "count": 3}"#;
    let doc = llm_extract::__internal::read_direct::<Doc>(text, 128).expect("direct path");
    assert_eq!(doc.name, "Aé😀");
    assert!(doc.score == 0.0 && doc.score.is_sign_negative());
    assert_eq!(doc.status, Status::InTransit);
    assert!(same::<Doc>(text, 128));
    // What needs leniency is left to the full path, which reports it.
    for lenient in [
        text.replace("\"count\": 3", "\"Count\": 3"),
        text.replace("\"count\": 3", "\"count\": \"3\""),
        text.replace(", \"count\": 3", ""),
        text.replace("\"count\": 3", "\"count\": 3, \"extra\": 1"),
        text.replace("\"count\": 3", "\"count\": 3, \"count\": 4"),
        text.replace("\"status\": \"in_transit\"", "\"status\": \"In Transit\""),
        text.replace("\"note\": null", "\"note\": \"N/A\""),
        text.replace("\"A\\u00e9", "\"A\\ud83d"),
        text.replace("[\"x\"]", "[\"x\",]"),
    ] {
        assert!(
            llm_extract::__internal::read_direct::<Doc>(&lenient, 128).is_none(),
            "{lenient}"
        );
        let _ = same::<Doc>(&lenient, 128);
    }
}

#[test]
fn edge_documents_read_the_same_on_both_paths() {
    for text in [
        r#"{"a": 1, "a": 2}"#,
        r#"[-0, -0.0, 1e400, -1e400, 1e-400, 12345678901234567890123, -9223372036854775809]"#,
        r#"{"a": "\u0000\ud800", "b": "\ud83d\ude00\/\b\f\n\r\t"}"#,
        r#"{"a": "tab	here"}"#,
        r#"[1.0, 2e0, 0.5E+1, 10E-1]"#,
        r#"[01, 1.]"#,
        r#"{"a": [], "b": {}, "c": [[]], "d": [{}]}"#,
        r#"[true, false, null, truex]"#,
        "[1]\n[2]",
        "{}",
        "[]",
        " \n{\"id\": 1} \t",
        // Strict values around prose, in fences, after reasoning: read by the caller's type
        // while they are located; one that goes on as a member or item is not a value alone.
        "Here: {\"id\": 1, \"name\": \"x\"} Hope that helps.",
        "Here: {\"id\": 1}, \"name\": \"x\"} done",
        "Answer: [1, 2], 3] ok",
        "[1, 2] and [3, 4]",
        "```json\n{\"id\": 1}\n```\n```json\n{\"id\": 2}\n```",
        "<think>{\"id\": 0}</think>\n{\"id\": 1, \"tags\": [\"a\"]}",
        "Example: {\"id\": 1}. The answer: {\"id\": 2, \"score\": 0.5}",
        "{\"id\": 1} {\"id\": 2",
    ] {
        same::<Value>(text, 128);
        same::<BTreeMap<String, Value>>(text, 128);
        same::<Vec<f64>>(text, 128);
        same::<Vec<i64>>(text, 128);
        same::<Vec<u8>>(text, 128);
        same::<Doc>(text, 128);
        same::<Vec<Option<String>>>(text, 128);
    }
}

/// A type whose fields the documents of others sometimes have: everything optional, so many
/// of their values fit it, some directly and some only with leniency.
#[derive(Extract, Debug)]
#[allow(dead_code)] // compared through Debug
struct Loose {
    city: Option<String>,
    country: Option<String>,
    population: Option<u64>,
    name: Option<String>,
    key: Option<Value>,
    a: Option<f64>,
    b: Option<String>,
    items: Option<Vec<Value>>,
}

/// Material nobody here wrote: every input of the damage corpus and of the two peer
/// libraries' suites, the documents those suites expect (valid JSON written by others), and
/// every prefix of some of them (split at every byte, fenced and bare).
#[test]
fn documents_written_elsewhere_read_the_same_on_both_paths() {
    let damage: Vec<Value> =
        serde_json::from_str(include_str!("../fixtures/damage/cases.json")).unwrap();
    let json_repair: Vec<Value> =
        serde_json::from_str(include_str!("../fixtures/peers/json_repair.json")).unwrap();
    let jsonrepair: Vec<Value> =
        serde_json::from_str(include_str!("../fixtures/peers/jsonrepair.json")).unwrap();
    let mut texts: Vec<String> = Vec::new();
    for case in damage.iter().chain(&json_repair).chain(&jsonrepair) {
        if let Some(input) = case["input"].as_str() {
            texts.push(input.to_string());
        }
        for key in ["intended", "expected"] {
            if let Some(v) = case.get(key).filter(|v| v.is_object() || v.is_array()) {
                texts.push(v.to_string());
                texts.push(format!(
                    "```json\n{}\n```",
                    serde_json::to_string_pretty(v).unwrap()
                ));
            }
        }
    }
    let mut direct = 0;
    for text in &texts {
        same::<Value>(text, 128);
        same::<BTreeMap<String, Value>>(text, 128);
        direct += usize::from(same::<Loose>(text, 128));
    }
    // Every prefix of the first documents that the direct path reads whole.
    let whole: Vec<&String> = texts
        .iter()
        .filter(|t| llm_extract::__internal::read_direct::<Value>(t, 128).is_some())
        .take(12)
        .collect();
    assert_eq!(whole.len(), 12);
    for text in whole {
        for cut in (0..=text.len()).filter(|i| text.is_char_boundary(*i)) {
            same::<Value>(&text[..cut], 128);
            same::<Loose>(&text[..cut], 128);
        }
    }
    assert!(
        direct > 50,
        "the direct path read {direct} of {} as Loose",
        texts.len()
    );
}
