//! Recursive types through a newtype: a newtype of a list, a map, an alias or a chain of
//! `Option`/`Box` of itself reads, streams and gives a schema (with `$ref`), as the same
//! shapes written with named fields do.

use llm_extract::{Extract, Stream};
use serde_json::{json, Value};
use std::collections::HashMap;

/// A tree of lists: `[[], [[]]]`.
#[derive(Extract, Debug, PartialEq)]
struct Tree(Vec<Tree>);

/// A directory of directories: `{"src": {"bin": {}}}`.
#[derive(Extract, Debug, PartialEq)]
struct Dir(HashMap<String, Dir>);

type Kids = Vec<Family>;

/// Recursive through an alias the derive cannot see into.
#[derive(Extract, Debug, PartialEq)]
struct Family(Kids);

/// Recursive through a chain of aliases, `Option` and `Box`: `null`, or a list of links.
#[derive(Extract, Debug, PartialEq)]
struct Chain(Links);

type Links = Option<Boxed>;
type Boxed = Box<Vec<Chain>>;

/// Two newtypes, each through the other.
#[derive(Extract, Debug, PartialEq)]
struct Outer(Inner);

#[derive(Extract, Debug, PartialEq)]
struct Inner(Vec<Outer>);

/// A newtype of the standard types alone still shows its field's partial as it is.
#[derive(Extract, Debug, PartialEq)]
struct Words(Vec<String>);

fn tree(kids: Vec<Tree>) -> Tree {
    Tree(kids)
}

/// The last snapshot of a stream fed `text` one byte at a time, as JSON; every snapshot
/// before it serializes to a prefix-compatible value (no panic, no error).
fn streamed<T: Extract>(text: &str) -> (Value, T) {
    let mut stream = Stream::<T>::new();
    for i in 0..text.len() {
        stream.push(&text[i..=i]);
    }
    let shown = serde_json::to_value(stream.snapshot()).unwrap();
    (shown, stream.finish().unwrap().value)
}

/// The schema of `T` as JSON, checked to accept `good` and reject `bad`.
fn schema_of<T: Extract + schemars::JsonSchema>(good: &Value, bad: &Value) -> Value {
    let schema = llm_extract::json_schema::<T>().to_value();
    let validator = jsonschema::validator_for(&schema).unwrap();
    assert!(validator.is_valid(good), "{schema:#}\nshould accept {good}");
    assert!(!validator.is_valid(bad), "{schema:#}\nshould reject {bad}");
    schema
}

#[test]
fn a_newtype_of_a_list_of_itself() {
    let want = tree(vec![tree(vec![]), tree(vec![tree(vec![])])]);
    let text = "The tree: ```json\n[[], [[]],]\n```";
    assert_eq!(llm_extract::from_str::<Tree>(text).unwrap(), want);
    let (shown, value) = streamed::<Tree>(text);
    assert_eq!(shown, json!([[], [[]]]));
    assert_eq!(value, want);
    let schema = schema_of::<Tree>(&json!([[], [[]]]), &json!([[1]]));
    assert!(schema.to_string().contains("\"$ref\""), "{schema:#}");
}

#[test]
fn a_newtype_of_a_map_of_itself() {
    let text = "{'src': {'bin': {}}, 'docs': {}}";
    let got = llm_extract::from_str::<Dir>(text).unwrap();
    let bin = Dir(HashMap::new());
    let src = Dir(HashMap::from([("bin".to_string(), bin)]));
    let docs = Dir(HashMap::new());
    assert_eq!(
        got,
        Dir(HashMap::from([
            ("src".to_string(), src),
            ("docs".to_string(), docs)
        ]))
    );
    let (shown, value) = streamed::<Dir>(text);
    assert_eq!(shown, json!({"src": {"bin": {}}, "docs": {}}));
    assert_eq!(value, got);
    schema_of::<Dir>(&json!({"a": {"b": {}}}), &json!({"a": {"b": 1}}));
}

#[test]
fn a_newtype_recursive_through_an_alias() {
    let text = "[[[]], []]";
    let got = llm_extract::from_str::<Family>(text).unwrap();
    assert_eq!(
        got,
        Family(vec![Family(vec![Family(vec![])]), Family(vec![])])
    );
    let (shown, value) = streamed::<Family>(text);
    assert_eq!(shown, json!([[[]], []]));
    assert_eq!(value, got);
    // Cut off: the snapshot shows what arrived, and the reading says it is incomplete.
    let mut stream = Stream::<Family>::new();
    stream.push("[[[]], [");
    assert_eq!(
        serde_json::to_value(stream.snapshot()).unwrap(),
        json!([[[]], []])
    );
    // A cut-off reply reads as the same shape of plain lists reads it.
    for cut in ["[[[]], [", "[[[]], []", "[[[", "[[[]"] {
        let family = llm_extract::extract::<Family>(cut);
        let lists = llm_extract::extract::<Vec<Vec<Vec<u8>>>>(cut);
        assert_eq!(family.is_ok(), lists.is_ok(), "{cut}");
        if let (Ok(f), Ok(l)) = (family, lists) {
            assert_eq!(f.report.complete, l.report.complete, "{cut}");
        }
    }
    schema_of::<Family>(&json!([[[]]]), &json!(["x"]));
}

#[test]
fn a_chain_of_option_and_box() {
    let text = "[null, [null], []]";
    let link = |links: Option<Vec<Chain>>| Chain(links.map(Box::new));
    let want = link(Some(vec![
        link(None),
        link(Some(vec![link(None)])),
        link(Some(vec![])),
    ]));
    assert_eq!(llm_extract::from_str::<Chain>(text).unwrap(), want);
    // (A stream shows no `null` item of a list, as for `Vec<Option<T>>`.)
    let text = "[[[]], []]";
    let (shown, value) = streamed::<Chain>(text);
    assert_eq!(shown, json!([[[]], []]));
    let want = link(Some(vec![
        link(Some(vec![link(Some(vec![]))])),
        link(Some(vec![])),
    ]));
    assert_eq!(value, want);
    schema_of::<Chain>(&json!([null, [[]]]), &json!([1]));
}

#[test]
fn newtypes_recursive_through_each_other() {
    let text = "```\n[[[]]]\n```";
    let got = llm_extract::from_str::<Outer>(text).unwrap();
    let leaf = Outer(Inner(vec![]));
    assert_eq!(got, Outer(Inner(vec![Outer(Inner(vec![leaf]))])));
    let (shown, value) = streamed::<Outer>(text);
    assert_eq!(shown, json!([[[]]]));
    assert_eq!(value, got);
    schema_of::<Outer>(&json!([[], [[]]]), &json!([{}]));
}

#[test]
fn a_newtype_of_std_types_shows_the_fields_partial() {
    let mut stream = Stream::<Words>::new();
    // An array's string item shows once closed.
    stream.push(r#"["a", "bc", "d"#);
    let snap: llm_extract::stream::PartialList<llm_extract::stream::PartialString> =
        stream.snapshot();
    assert_eq!(serde_json::to_value(&snap).unwrap(), json!(["a", "bc"]));
}

/// A scalar where a recursive list is expected is read as a list of itself only as often as
/// the full reading allows: the stream ends, and the value is refused as the full path
/// refuses it.
#[test]
fn a_scalar_for_a_recursive_list_stops_wrapping() {
    for text in ["7", "[7]", "[[], \"x\"]", "{\"a\": 1}"] {
        let (shown, _) = {
            let mut stream = Stream::<Tree>::new();
            stream.push(text);
            (serde_json::to_value(stream.snapshot()).unwrap(), ())
        };
        let full = llm_extract::from_str::<Tree>(text);
        assert!(full.is_err(), "{text}: {full:?}");
        assert!(!shown.to_string().contains('7'), "{text}: {shown}");
        let mut stream = Stream::<Tree>::new();
        stream.push(text);
        assert!(stream.finish().is_err(), "{text}");
    }
}

/// A generic newtype whose field names another type: its twin carries the parameter.
#[derive(Extract, Debug, PartialEq)]
struct Rose<T>(Vec<Labeled<T>>);

#[derive(Extract, Debug, PartialEq)]
struct Labeled<T> {
    label: T,
    #[extract(default)]
    kids: Rose<T>,
}

impl<T> Default for Rose<T> {
    fn default() -> Self {
        Rose(Vec::new())
    }
}

#[test]
fn a_generic_newtype_through_a_struct() {
    let text = r#"[{"label": 1, "kids": [{"label": 2}]}]"#;
    let got = llm_extract::from_str::<Rose<u8>>(text).unwrap();
    let two = Labeled {
        label: 2,
        kids: Rose(vec![]),
    };
    let want = Rose(vec![Labeled {
        label: 1,
        kids: Rose(vec![two]),
    }]);
    assert_eq!(got, want);
    let (shown, value) = streamed::<Rose<u8>>(text);
    assert_eq!(
        shown,
        json!([{"label": 1, "kids": [{"label": 2, "kids": null}]}])
    );
    assert_eq!(value, want);
    let mut stream = Stream::<Rose<u8>>::new();
    stream.push(r#"[{"label": 1, "kids": [{"label"#);
    let snap: RosePartial<u8> = stream.snapshot();
    let first = snap.as_ref().map(|list| list.len());
    assert_eq!(first, Some(1));
    schema_of::<Rose<u8>>(&json!([{"label": 1, "kids": []}]), &json!([{"label": "x"}]));
}
