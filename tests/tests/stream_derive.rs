//! Streaming derived types: the partial twins `#[derive(Extract)]` generates, fed a
//! realistic reply at every chunk size 1..=17 and at every split into two chunks.
//!
//! Each run checks what a snapshot may show: the final value is what `extract` gives on the
//! whole text; a number, bool or enum value appears only once complete (so it never changes);
//! strings only grow; lists only grow; field states go Pending -> Incomplete -> Complete.

use llm_extract::stream::{FieldState, PartialValue};
use llm_extract::{Category, Extract, Stream};
use serde_json::{json, Value};

#[derive(Extract, Debug, PartialEq, Clone)]
enum Status {
    Pending,
    Shipped,
    Delivered,
}

#[derive(Extract, Debug, PartialEq, Clone)]
struct Item {
    name: String,
    #[extract(min = 1)]
    qty: u32,
    price: Option<f64>,
}

#[derive(Extract, Debug, PartialEq)]
#[extract(rename_all = "camelCase")]
struct Order {
    order_id: u64,
    #[extract(alias = "customer")]
    customer_name: String,
    items: Vec<Item>,
    note: Option<String>,
    status: Status,
    #[extract(rename = "paid")]
    is_paid: bool,
}

const ORDER: &str = "Here is the order you asked for:\n```json\n{\n  \"orderId\": 10452,\n  \"customer\": \"Ada \\\"The Countess\\\" Lovelace\",\n  \"items\": [\n    {\"name\": \"Analytical engine gear\", \"qty\": 12, \"price\": 3.75},\n    {\"name\": \"Punch card (blank)\", \"qty\": 250}\n  ],\n  \"note\": \"Leave at the door — fragile\",\n  \"status\": \"shipped\",\n  \"paid\": true\n}\n```\nLet me know if anything else is needed.";

/// Every way the fixtures are cut: fixed sizes 1..=17, then every split into two chunks.
fn chunkings(text: &str) -> Vec<Vec<&str>> {
    let mut out = Vec::new();
    for size in 1..=17 {
        let mut chunks = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let mut cut = size.min(rest.len());
            while !rest.is_char_boundary(cut) {
                cut += 1;
            }
            let (a, b) = rest.split_at(cut);
            chunks.push(a);
            rest = b;
        }
        out.push(chunks);
    }
    for cut in 1..text.len() {
        if text.is_char_boundary(cut) {
            let (a, b) = text.split_at(cut);
            out.push(vec![a, b]);
        }
    }
    out
}

/// Whether `before` may be followed by `after`: a shown value never changes, except that
/// strings grow (a prefix), lists grow (each item may go on growing), objects gain members.
fn grows(before: &Value, after: &Value) -> bool {
    match (before, after) {
        (Value::Null, _) => true,
        (Value::String(a), Value::String(b)) => b.starts_with(a.as_str()),
        (Value::Array(a), Value::Array(b)) => {
            a.len() <= b.len() && a.iter().zip(b).all(|(x, y)| grows(x, y))
        }
        (Value::Object(a), Value::Object(b)) => a
            .iter()
            .all(|(k, v)| v.is_null() || b.get(k).is_some_and(|w| grows(v, w))),
        (a, b) => a == b,
    }
}

fn rank(s: FieldState) -> u8 {
    match s {
        FieldState::Pending => 0,
        FieldState::Incomplete => 1,
        FieldState::Complete => 2,
    }
}

/// Streams `text` in every chunking; checks every snapshot against the next and against
/// the last, and `check` on each; returns the last snapshot of the last run.
fn stream_all<T>(text: &str, mut check: impl FnMut(&T::Partial)) -> T::Partial
where
    T: Extract + std::fmt::Debug + PartialEq,
{
    let whole = llm_extract::extract::<T>(text).map(|e| e.value);
    let mut last = None;
    for chunks in chunkings(text) {
        let mut stream = Stream::<T>::new();
        let mut seen: Vec<Value> = Vec::new();
        for chunk in &chunks {
            stream.push(chunk);
            let snap = stream.snapshot();
            check(&snap);
            seen.push(serde_json::to_value(&snap).unwrap());
        }
        let end = seen.last().unwrap().clone();
        for pair in seen.windows(2) {
            assert!(
                grows(&pair[0], &pair[1]),
                "{chunks:?}:\n{:#}\nthen\n{:#}",
                pair[0],
                pair[1]
            );
        }
        last = Some(stream.snapshot());
        let done = stream.finish().map(|e| e.value);
        match (&done, &whole) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{chunks:?}"),
            (Err(a), Err(b)) => assert_eq!(a.category(), b.category(), "{chunks:?}"),
            _ => panic!("{chunks:?}: finish {done:?}, extract {whole:?}"),
        }
        let _ = end;
    }
    last.unwrap()
}

#[test]
fn order_streams_in_every_chunking() {
    let last = stream_all::<Order>(ORDER, |_| {});
    assert_eq!(
        serde_json::to_value(&last).unwrap(),
        json!({
            "orderId": 10452,
            "customerName": "Ada \"The Countess\" Lovelace",
            "items": [
                {"name": "Analytical engine gear", "qty": 12, "price": 3.75},
                {"name": "Punch card (blank)", "qty": 250, "price": null}
            ],
            "note": "Leave at the door — fragile",
            "status": "Shipped",
            "paid": true
        })
    );
}

#[test]
fn order_values_appear_only_complete() {
    // Byte by byte, and the states of each field only advance.
    let mut stream = Stream::<Order>::new();
    let fields = [
        "order_id",
        "customerName",
        "items",
        "note",
        "status",
        "paid",
    ];
    let mut states = [0u8; 6];
    let mut saw_incomplete_items = false;
    for (i, _) in ORDER.char_indices().skip(1) {
        stream.push(&ORDER[stream.text().len()..i]);
        let snap = stream.snapshot();
        assert!(matches!(snap.order_id, None | Some(10452)), "{snap:?}");
        assert!(matches!(snap.is_paid, None | Some(true)), "{snap:?}");
        assert!(
            matches!(snap.status, None | Some(StatusPartial::Shipped)),
            "{snap:?}"
        );
        for item in snap.items.iter().flatten() {
            assert!(matches!(item.qty, None | Some(12 | 250)), "{snap:?}");
            assert!(matches!(item.price, None | Some(3.75)), "{snap:?}");
        }
        for (f, s) in fields.iter().zip(&mut states) {
            let now = rank(snap.state(f));
            assert!(now >= *s, "{f} went back at {i}: {snap:?}");
            *s = now;
        }
        saw_incomplete_items |= snap.state("items") == FieldState::Incomplete;
    }
    stream.push(&ORDER[stream.text().len()..]);
    let snap = stream.snapshot();
    for f in fields {
        assert_eq!(snap.state(f), FieldState::Complete, "{f}");
    }
    assert!(saw_incomplete_items);
    // The Rust name and the name in the reply both work; an unknown name is pending.
    assert_eq!(snap.state("is_paid"), FieldState::Complete);
    assert_eq!(snap.state("nope"), FieldState::Pending);
    assert!(stream.issues().is_empty(), "{:?}", stream.issues());
}

#[test]
fn a_failed_rule_is_reported_once_and_the_value_stays_shown() {
    let text = r#"{"orderId": 7, "customerName": "Bo", "items": [{"name": "a", "qty": 0}, {"name": "b", "qty": 3}], "status": "Pending", "paid": false}"#;
    for chunks in chunkings(text) {
        let mut stream = Stream::<Order>::new();
        for c in &chunks {
            stream.push(c);
        }
        let failed: Vec<String> = stream.issues().iter().map(|i| i.path.to_string()).collect();
        assert_eq!(failed, ["$.items[0].qty"], "{chunks:?}");
        let snap = stream.snapshot();
        assert_eq!(snap.items.as_ref().unwrap()[0].qty, Some(0));
        assert_eq!(
            stream.finish().unwrap_err().category(),
            llm_extract::extract::<Order>(text).unwrap_err().category()
        );
    }
}

#[derive(Extract, Debug, PartialEq)]
#[extract(tag = "type")]
enum Action {
    Search {
        query: String,
        #[extract(default)]
        limit: u32,
    },
    Reply {
        text: String,
    },
    Stop,
}

#[derive(Extract, Debug, PartialEq)]
struct Turn {
    thought: String,
    actions: Vec<Action>,
}

#[test]
fn internally_tagged_enum_streams_its_payload() {
    let text = r#"{"thought": "look it up, then answer", "actions": [{"type": "search", "query": "rust streaming json", "limit": 5}, {"query": "late tag", "type": "Search"}, {"type": "reply", "text": "Here is what I found"}, {"type": "stop"}]}"#;
    let last = stream_all::<Turn>(text, |snap| {
        for a in snap.actions.iter().flatten() {
            if let ActionPartial::Search(s) = a {
                assert!(matches!(s.limit, None | Some(5)), "{snap:?}");
            }
        }
    });
    assert_eq!(
        serde_json::to_value(&last).unwrap(),
        json!({"thought": "look it up, then answer", "actions": [
            {"Search": {"query": "rust streaming json", "limit": 5}},
            {"Search": {"query": "late tag", "limit": null}},
            {"Reply": {"text": "Here is what I found"}},
            "Stop"
        ]})
    );
    // The payload shows before the object is complete.
    let mut stream = Stream::<Turn>::new();
    stream.push(r#"{"thought": "x", "actions": [{"type": "search", "query": "rus"#);
    let snap = stream.snapshot();
    match &snap.actions.as_ref().unwrap()[0] {
        ActionPartial::Search(s) => assert_eq!(s.query.as_deref(), Some("rus")),
        other => panic!("{other:?}"),
    }
}

#[derive(Extract, Debug, PartialEq)]
enum Tool {
    Lookup { term: String },
    Wait(u32),
    Done,
}

#[test]
fn externally_tagged_enum_streams_its_payload() {
    let text = r#"[{"Lookup": {"term": "partial twins"}}, {"Wait": 30}, "Done", {"lookup": {"term": "again"}}]"#;
    let last = stream_all::<Vec<Tool>>(text, |snap| {
        for t in snap.iter() {
            if let ToolPartial::Wait(n) = t {
                assert!(matches!(n, None | Some(30)));
            }
        }
    });
    assert_eq!(
        serde_json::to_value(&last).unwrap(),
        json!([{"Lookup": {"term": "partial twins"}}, {"Wait": 30}, "Done", {"Lookup": {"term": "again"}}])
    );
    let mut stream = Stream::<Tool>::new();
    stream.push(r#"{"Lookup": {"term": "part"#);
    match stream.snapshot() {
        ToolPartial::Lookup(l) => assert_eq!(l.term.as_deref(), Some("part")),
        other => panic!("{other:?}"),
    }
}

#[derive(Extract, Debug, PartialEq)]
#[extract(untagged)]
enum Answer {
    Number(f64),
    Text(String),
    Pair { a: u8, b: u8 },
}

#[test]
fn untagged_enum_shows_once_complete() {
    let text = r#"{"answers": [{"a": 1, "b": 2}, "forty", 42.5]}"#;
    #[derive(Extract, Debug, PartialEq)]
    struct Answers {
        answers: Vec<Answer>,
    }
    let last = stream_all::<Answers>(text, |snap| {
        for a in snap.answers.iter().flatten() {
            if let AnswerPartial::Text(t) = a {
                assert_eq!(t.as_deref(), Some("forty"));
            }
        }
    });
    assert_eq!(
        serde_json::to_value(&last).unwrap(),
        json!({"answers": [{"Pair": {"a": 1, "b": 2}}, {"Text": "forty"}, {"Number": 42.5}]})
    );
}

#[derive(Extract, Debug, PartialEq)]
struct Plan {
    title: String,
    #[extract(stream = "done")]
    steps: Vec<String>,
}

#[test]
fn stream_done_holds_a_field_until_complete() {
    let text = r#"{"title": "Ship it", "steps": ["write", "test", "merge"], "after": 1}"#;
    let close = text.find(']').unwrap();
    let last = stream_all::<Plan>(text, |snap| {
        if let Some(steps) = &snap.steps {
            assert_eq!(steps.len(), 3, "{snap:?}");
        }
    });
    assert_eq!(last.steps.as_ref().map(|s| s.len()), Some(3));
    let mut stream = Stream::<Plan>::new();
    stream.push(&text[..close]);
    assert_eq!(stream.snapshot().steps, None);
    assert_eq!(stream.snapshot().state("steps"), FieldState::Incomplete);
    // The last item's closing quote is decided by what follows the list's closer, and the
    // closer by the token after its `,`: the list is whole once a key follows.
    let key = text.find("\"after\":").unwrap() + "\"after\":".len();
    stream.push(&text[close..key - 1]);
    assert_eq!(stream.snapshot().steps, None);
    stream.push(&text[key - 1..key]);
    let steps: Vec<String> = stream
        .snapshot()
        .steps
        .unwrap()
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(steps, ["write", "test", "merge"]);
}

#[derive(Extract, Debug, PartialEq)]
#[extract(stream = "done")]
struct Point {
    x: i32,
    label: String,
}

#[test]
fn stream_done_on_a_type_holds_it_until_complete() {
    let text = r#"{"points": [{"x": 1, "label": "one"}, {"label": "two", "x": 2}]}"#;
    #[derive(Extract, Debug, PartialEq)]
    struct Points {
        points: Vec<Point>,
    }
    stream_all::<Points>(text, |snap| {
        for p in snap.points.iter().flatten() {
            assert!(p.x.is_some() && p.label.is_some(), "{snap:?}");
            assert!(
                matches!(p.label.as_deref(), Some("one" | "two")),
                "{snap:?}"
            );
        }
    });
}

/// One object written where a list of values held back until complete belongs (an item type
/// with `stream = "done"`, an untagged enum): the list shows that object as its one item once
/// the object closes, as `finish` reads it, and the field is not called complete before.
#[test]
fn one_object_where_a_list_of_held_back_items_belongs_shows_once_complete() {
    #[derive(Extract, Debug, PartialEq)]
    struct Points {
        points: Vec<Point>,
        after: u8,
    }
    #[derive(Extract, Debug, PartialEq)]
    struct Answers {
        answers: Vec<Answer>,
        after: u8,
    }
    let text = r#"{"points": {"x": 1, "label": "one"}, "after": 1}"#;
    let last = stream_all::<Points>(text, |snap| {
        if snap.state("points") == FieldState::Complete {
            assert_eq!(snap.points.as_ref().map(|p| p.len()), Some(1), "{snap:?}");
        }
    });
    assert_eq!(
        serde_json::to_value(&last).unwrap(),
        json!({"points": [{"x": 1, "label": "one"}], "after": 1})
    );
    let text = r#"{"answers": {"a": 1, "b": 2}, "after": 1}"#;
    let last = stream_all::<Answers>(text, |snap| {
        if snap.state("answers") == FieldState::Complete {
            assert_eq!(snap.answers.as_ref().map(|a| a.len()), Some(1), "{snap:?}");
        }
    });
    assert_eq!(
        serde_json::to_value(&last).unwrap(),
        json!({"answers": [{"Pair": {"a": 1, "b": 2}}], "after": 1})
    );
}

#[derive(Extract, Debug, PartialEq)]
struct Message {
    #[extract(stream = "required")]
    kind: String,
    body: String,
}

#[test]
fn stream_required_holds_the_object_until_its_field_is_complete() {
    let text = r#"[{"body": "hello there", "kind": "greeting"}, {"kind": "question", "body": "how are you?"}]"#;
    let last = stream_all::<Vec<Message>>(text, |snap| {
        for m in snap.iter() {
            assert!(
                matches!(m.kind.as_deref(), Some("greeting" | "question")),
                "{snap:?}"
            );
            assert_eq!(m.state("kind"), FieldState::Complete);
        }
    });
    assert_eq!(last.len(), 2);
    assert_eq!(last[0].body.as_deref(), Some("hello there"));
    // Before its kind arrives the first message shows nothing, though its body did.
    let mut stream = Stream::<Vec<Message>>::new();
    stream.push(r#"[{"body": "hello there", "kind": "gree"#);
    assert!(stream.snapshot().is_empty());
    // A string's closing quote is decided by what follows it: the object's closer, then
    // what follows that.
    stream.push(r#"ting"}"#);
    assert!(stream.snapshot().is_empty());
    stream.push(r#", "#);
    assert_eq!(stream.snapshot()[0].body.as_deref(), Some("hello there"));
}

#[derive(Extract, Debug, PartialEq)]
struct Story {
    items: Vec<u32>,
    story: String,
    #[extract(alias = "writer")]
    author: Option<String>,
}

#[test]
fn extract_partial_recovers_fields_by_key() {
    let saved =
        llm_extract::extract_partial::<Story>(r#"{"items": [1, 2, "story": "text"#).unwrap();
    assert!(saved.value.is_none());
    assert_eq!(saved.partial.story.as_deref(), Some("text"));
    assert!(saved.recovered.iter().any(|p| p.to_string() == "$.story"));
    // Broken before the keys: found by name and by alias.
    let saved = llm_extract::extract_partial::<Story>(
        r#"Sure! [[{ "Story": "Once upon a time", "writer": "me", "items": [4, 5]"#,
    )
    .unwrap();
    assert_eq!(saved.partial.story.as_deref(), Some("Once upon a time"));
    assert_eq!(saved.partial.author.as_deref(), Some("me"));
}

#[test]
fn twins_serialize_with_wire_names_and_nulls() {
    assert_eq!(
        serde_json::to_value(OrderPartial::default()).unwrap(),
        json!({"orderId": null, "customerName": null, "items": null, "note": null, "status": null, "paid": null})
    );
    assert_eq!(
        serde_json::to_value(StatusPartial::default()).unwrap(),
        Value::Null
    );
    assert_eq!(
        serde_json::to_value(StatusPartial::Delivered).unwrap(),
        json!("Delivered")
    );
    // A twin is a `PartialValue` like any other.
    fn is_partial<P: PartialValue>() {}
    is_partial::<OrderPartial>();
    is_partial::<ActionPartial>();
}

#[derive(Extract, Debug, PartialEq)]
struct Wrapper<T> {
    inner: T,
    #[extract(skip)]
    cache: Option<u8>,
}

#[derive(Extract, Debug, PartialEq)]
struct Meters(f64);

#[derive(Extract, Debug, PartialEq)]
#[extract(partial = "SnapshotOfRenamed")]
struct Renamed {
    a: u8,
}

#[test]
fn generic_newtype_and_renamed_twins() {
    let mut stream = Stream::<Wrapper<Vec<Meters>>>::new();
    stream.push(r#"{"inner": [1.5, 2"#);
    let snap: WrapperPartial<Vec<Meters>> = stream.snapshot();
    assert_eq!(snap.inner.as_ref().map(|l| l.to_vec()), Some(vec![1.5]));
    assert_eq!(snap.state("cache"), FieldState::Pending);
    let mut stream = Stream::<Renamed>::new();
    stream.push(r#"{"a": 3}"#);
    let snap: SnapshotOfRenamed = stream.snapshot();
    assert_eq!(snap.a, Some(3));
    let _ = Category::Syntax;
}

#[derive(Extract, Debug, PartialEq)]
struct Base {
    id: u32,
}

#[derive(Extract, Debug, PartialEq)]
struct WithExtra {
    name: String,
    #[extract(flatten)]
    base: Base,
}

#[test]
fn flatten_takes_the_keys_no_field_matched() {
    let text = r#"{"name": "n", "id": 9}"#;
    let last = stream_all::<WithExtra>(text, |_| {});
    assert_eq!(last.base.as_ref().and_then(|b| b.id), Some(9));
    assert_eq!(last.state("base"), FieldState::Complete);
    assert_eq!(
        serde_json::to_value(&last).unwrap(),
        json!({"name": "n", "id": 9})
    );
}

/// A struct of 70 fields: its field states take two words; field 69's goes Pending ->
/// Incomplete -> Complete like the first one's.
#[derive(Extract, Debug, PartialEq)]
struct Wide {
    f0: u32,
    f1: u32,
    f2: u32,
    f3: u32,
    f4: u32,
    f5: u32,
    f6: u32,
    f7: u32,
    f8: u32,
    f9: u32,
    f10: u32,
    f11: u32,
    f12: u32,
    f13: u32,
    f14: u32,
    f15: u32,
    f16: u32,
    f17: u32,
    f18: u32,
    f19: u32,
    f20: u32,
    f21: u32,
    f22: u32,
    f23: u32,
    f24: u32,
    f25: u32,
    f26: u32,
    f27: u32,
    f28: u32,
    f29: u32,
    f30: u32,
    f31: u32,
    f32: u32,
    f33: u32,
    f34: u32,
    f35: u32,
    f36: u32,
    f37: u32,
    f38: u32,
    f39: u32,
    f40: u32,
    f41: u32,
    f42: u32,
    f43: u32,
    f44: u32,
    f45: u32,
    f46: u32,
    f47: u32,
    f48: u32,
    f49: u32,
    f50: u32,
    f51: u32,
    f52: u32,
    f53: u32,
    f54: u32,
    f55: u32,
    f56: u32,
    f57: u32,
    f58: u32,
    f59: u32,
    f60: u32,
    f61: u32,
    f62: u32,
    f63: u32,
    f64: u32,
    f65: u32,
    f66: u32,
    f67: u32,
    f68: u32,
    f69: String,
}

#[test]
fn states_of_fields_past_64() {
    let mut text = String::from("{");
    for i in 0..69 {
        text.push_str(&format!("\"f{i}\": {i}, "));
    }
    let mut stream = Stream::<Wide>::new();
    stream.push(&text);
    let snap = stream.snapshot();
    assert_eq!(snap.state("f0"), FieldState::Complete);
    assert_eq!(snap.state("f68"), FieldState::Complete);
    assert_eq!(snap.state("f69"), FieldState::Pending);
    assert_eq!(snap.f68, Some(68));
    stream.push("\"f69\": \"sev");
    let snap = stream.snapshot();
    assert_eq!(snap.state("f69"), FieldState::Incomplete);
    assert_eq!(snap.f69.as_deref(), Some("sev"));
    stream.push("enty\"}");
    let snap = stream.snapshot();
    assert_eq!(snap.state("f69"), FieldState::Complete);
    assert_eq!(snap.f69.as_deref(), Some("seventy"));
    let wide = stream.finish().unwrap().value;
    assert_eq!((wide.f3, wide.f69.as_str()), (3, "seventy"));
}

#[derive(Extract, Debug, PartialEq, Clone)]
struct Inner {
    a: i64,
    x: i64,
    y: Option<i64>,
}

#[derive(Extract, Debug)]
struct Outer {
    k: Inner,
    z: Option<i64>,
}

/// A closer followed by a `,` and a token that does not fit the object it returns to: the
/// parser reads the closer by the rest of the text (here it is stray, `5` and `y` stay in
/// `k`), so the stream does not mark `k` complete at it.
#[test]
fn a_closer_the_rest_of_the_text_may_find_stray_does_not_complete_its_object() {
    let text = r#"{"k": {"a": 1, "x": 2}, 5, "y": 3}}, "z": 1}"#;
    let whole = llm_extract::extract::<Outer>(text).unwrap().value;
    assert_eq!((whole.k.y, whole.z), (Some(3), Some(1)));
    for chunks in chunkings(text) {
        let mut stream = Stream::<Outer>::new();
        for c in &chunks {
            stream.push(c);
            let snap = stream.snapshot();
            if snap.state("k") == FieldState::Complete {
                let y = snap.k.as_ref().and_then(|k| k.y);
                assert_eq!(y, Some(3), "k complete without y: {snap:?}");
            }
        }
        assert_eq!(stream.finish().unwrap().value.k, whole.k);
    }
}

#[derive(Extract, Debug, PartialEq, Clone)]
struct Args {
    language: String,
    code: Option<String>,
    timeout: Option<u64>,
}

#[derive(Extract, Debug, PartialEq)]
struct Call {
    tool: String,
    arguments: Args,
    reason: Option<String>,
}

/// A run of closers that closes the value, followed by members: one closer is stray and the
/// whole read puts the members back where they belong (here in `arguments`). No snapshot may
/// mark `arguments` complete before its last member has arrived; a run followed by anything
/// else closes.
#[test]
fn a_run_closing_the_value_with_members_after_it_marks_nothing_complete() {
    let text = "{\"tool\": \"run\", \"arguments\": {\"language\": \"python\"}}, \"code\": \"print(1)\", \"timeout\": 30}, \"reason\": \"asked\"}";
    let done = llm_extract::from_str::<Call>(text).unwrap();
    assert_eq!(done.arguments.timeout, Some(30));
    for size in [1, 7, 64] {
        let mut stream = Stream::<Call>::new();
        for chunk in text.as_bytes().chunks(size) {
            stream.push_bytes(chunk);
            let snap = stream.snapshot();
            if snap.state("arguments") == FieldState::Complete {
                let shown = snap.arguments.as_ref().unwrap();
                assert_eq!(shown.timeout, Some(30), "chunks of {size}: {snap:?}");
            }
        }
        assert_eq!(stream.finish().unwrap().value, done);
    }
    // The same run with prose after it: the containers close once that arrives.
    let mut stream = Stream::<Call>::new();
    stream.push("{\"tool\": \"run\", \"arguments\": {\"language\": \"python\"}}");
    assert_eq!(stream.snapshot().state("arguments"), FieldState::Incomplete);
    stream.push("\n\nDone.");
    assert_eq!(stream.snapshot().state("arguments"), FieldState::Complete);
    assert!(stream.is_complete());
}

#[derive(Extract, serde::Serialize, Debug, PartialEq, Clone)]
struct Part {
    name: Option<String>,
    n: Option<i64>,
    list: Option<Vec<i64>>,
}

#[derive(Extract, serde::Serialize, Debug, PartialEq)]
struct Whole {
    title: Option<String>,
    part: Option<Part>,
    parts: Option<Vec<Part>>,
    count: Option<i64>,
}

/// The text of `Whole`'s fields, in the order and with the members `keys` choose, written
/// compactly or indented.
fn whole_text(
    title: &str,
    part: &(String, i64, Vec<i64>),
    parts: usize,
    keys: u8,
    pretty: bool,
) -> String {
    let part_json = json!({"name": part.0, "n": part.1, "list": part.2});
    let mut doc = serde_json::Map::new();
    let members = [
        ("title", json!(title)),
        ("part", part_json.clone()),
        ("parts", Value::Array(vec![part_json; parts])),
        ("count", json!(part.1)),
    ];
    // Rotated, and with some members left out, so each can come last.
    for k in 0..4 {
        let (key, value) = &members[(k + usize::from(keys)) % 4];
        if keys & (16 << k) == 0 {
            doc.insert(key.to_string(), value.clone());
        }
    }
    let doc = Value::Object(doc);
    if pretty {
        serde_json::to_string_pretty(&doc).unwrap()
    } else {
        serde_json::to_string(&doc).unwrap()
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]

    /// A stray closer written after any closer of a value: in chunks of 1, 7 and 64 bytes, a
    /// field a snapshot marks complete is the field `finish` gives.
    #[test]
    fn a_field_marked_complete_is_the_final_one_after_a_stray_closer(
        title in "[a-z ]{0,12}",
        part in ("[a-z]{0,8}", -99i64..99, proptest::collection::vec(0i64..9, 0..3)),
        parts in 0usize..3,
        keys in proptest::prelude::any::<u8>(),
        pretty in proptest::prelude::any::<bool>(),
        which in proptest::prelude::any::<proptest::sample::Index>(),
    ) {
        let doc = whole_text(&title, &part, parts, keys, pretty);
        let closers: Vec<usize> = doc.match_indices(['}', ']']).map(|(i, _)| i).collect();
        let at = closers[which.index(closers.len())];
        let text = format!("{}{}", &doc[..=at], &doc[at..]);
        let Ok(done) = llm_extract::from_str::<Whole>(&text) else { return Ok(()) };
        // The final twin: the answer written as JSON, streamed whole and followed by text.
        let mut whole = Stream::<Whole>::new();
        whole.push(&serde_json::to_string(&done).unwrap());
        whole.push("\nDone.");
        let fin = whole.snapshot();
        for size in [1, 7, 64] {
            let mut stream = Stream::<Whole>::new();
            for chunk in text.as_bytes().chunks(size) {
                stream.push_bytes(chunk);
                let snap = stream.snapshot();
                macro_rules! same_when_complete {
                    ($($field:ident)*) => {$(
                        if snap.state(stringify!($field)) == FieldState::Complete {
                            proptest::prop_assert_eq!(
                                format!("{:?}", snap.$field),
                                format!("{:?}", fin.$field),
                                "{} in {}-byte chunks: {:?}", stringify!($field), size, text
                            );
                        }
                    )*};
                }
                same_when_complete!(title part parts count);
            }
        }
    }
}

#[derive(Extract, Debug, PartialEq)]
struct Note {
    note: Option<String>,
    blank: Option<String>,
    empty: Option<String>,
    #[extract(strict)]
    kept: Option<String>,
}

/// `Option<String>` reads a placeholder as `None` (`N/A`, a blank), and `""` as `Some("")`:
/// a field the twin marks complete says the same; a strict field keeps the text.
#[test]
fn an_optional_placeholder_is_none_once_complete() {
    let text = r#"{"note": "N/A", "blank": " ", "empty": "", "kept": "N/A", "more": 1}"#;
    let done = llm_extract::from_str::<Note>(text).unwrap();
    assert_eq!(
        done,
        Note {
            note: None,
            blank: None,
            empty: Some(String::new()),
            kept: Some("N/A".into())
        }
    );
    for size in [1, 7, 64] {
        let mut stream = Stream::<Note>::new();
        for chunk in text.as_bytes().chunks(size) {
            stream.push_bytes(chunk);
            let snap = stream.snapshot();
            for (field, shown, want) in [
                ("note", &snap.note, &done.note),
                ("blank", &snap.blank, &done.blank),
                ("empty", &snap.empty, &done.empty),
                ("kept", &snap.kept, &done.kept),
            ] {
                if snap.state(field) == FieldState::Complete {
                    assert_eq!(
                        shown.as_deref(),
                        want.as_deref(),
                        "{field} in {size}-byte chunks"
                    );
                }
            }
        }
    }
}

#[derive(Extract, Debug, PartialEq)]
struct Maybe {
    a: Option<String>,
    b: Option<String>,
    c: Option<String>,
    d: Option<String>,
    e: Option<serde_json::Value>,
    list: Vec<Option<String>>,
}

/// A string that more text may still make a placeholder (`N`, `Not a`, a blank) is not shown
/// in an `Option` until its text tells or it completes: at every chunking, an `Option` shows
/// no value or a prefix of the final one, never a placeholder's text that `finish` reads as
/// `None`, and once it shows a value it keeps showing one.
#[test]
fn an_optional_string_that_may_be_a_placeholder_waits() {
    let text = r#"{"a": "N/A", "b": "Nora", "c": "  not available ", "d": "No way", "e": "none", "list": ["n/a", "Nat", "  ", "-5 degrees", "—"]}"#;
    let done = llm_extract::from_str::<Maybe>(text).unwrap();
    assert_eq!(
        (&done.a, &done.b, &done.c, &done.d, &done.e),
        (
            &None,
            &Some("Nora".into()),
            &None,
            &Some("No way".into()),
            &None
        )
    );
    assert_eq!(
        done.list,
        [
            None,
            Some("Nat".into()),
            None,
            Some("-5 degrees".into()),
            None
        ]
    );
    let done_json = serde_json::json!({
        "a": done.a, "b": done.b, "c": done.c, "d": done.d, "e": done.e, "list": done.list,
    });
    for size in [1, 2, 7, 64] {
        let mut stream = Stream::<Maybe>::new();
        let mut shown_before = serde_json::Map::new();
        for chunk in text.as_bytes().chunks(size) {
            stream.push_bytes(chunk);
            let snap = serde_json::to_value(stream.snapshot()).unwrap();
            let snap = snap.as_object().unwrap();
            for field in ["a", "b", "c", "d", "e"] {
                let want = &done_json[field];
                match snap.get(field) {
                    Some(Value::String(s)) => assert!(
                        want.as_str().is_some_and(|w| w.starts_with(s.as_str())),
                        "{field} shows {s:?}, finish gives {want} ({size}-byte chunks)"
                    ),
                    None | Some(Value::Null) => assert!(
                        !shown_before.get(field).is_some_and(Value::is_string),
                        "{field} was shown, then taken back ({size}-byte chunks)"
                    ),
                    Some(other) => panic!("{field} shows {other}"),
                }
            }
            if let Some(Value::Array(items)) = snap.get("list") {
                let want = done_json["list"].as_array().unwrap();
                assert!(items.len() <= want.len());
                for (i, item) in items.iter().enumerate() {
                    if let Value::String(s) = item {
                        assert!(
                            want[i].as_str().is_some_and(|w| w.starts_with(s.as_str())),
                            "list[{i}] shows {s:?}, finish gives {} ({size}-byte chunks)",
                            want[i]
                        );
                    }
                }
            }
            shown_before = snap.clone();
        }
        assert_eq!(
            serde_json::to_value(stream.snapshot()).unwrap(),
            done_json,
            "{size}-byte chunks"
        );
    }
}

#[derive(Extract, Debug, PartialEq)]
struct StrictNotes {
    #[extract(strict)]
    notes: Vec<Option<String>>,
    loose: Vec<Option<String>>,
    #[extract(strict)]
    count: Option<u32>,
}

/// A `strict` field is streamed as `finish` reads it: its list of `Option`s keeps a
/// placeholder's text (`"N/A"` is `Some("N/A")` there), and a value it would have to coerce
/// (`"7"` for a number) is not shown (`finish` fails on it) but reported.
#[test]
fn a_strict_field_streams_as_finish_reads_it() {
    let text = r#"{"notes": ["N/A", "ok", null, "none"], "loose": ["N/A", "ok"], "count": 3}"#;
    let done = llm_extract::from_str::<StrictNotes>(text).unwrap();
    assert_eq!(
        done.notes,
        [
            Some("N/A".into()),
            Some("ok".into()),
            None,
            Some("none".into())
        ]
    );
    assert_eq!(done.loose, [None, Some("ok".into())]);
    let want = serde_json::json!({"notes": done.notes, "loose": done.loose, "count": 3});
    for size in [1, 7, 64] {
        let mut stream = Stream::<StrictNotes>::new();
        for chunk in text.as_bytes().chunks(size) {
            stream.push_bytes(chunk);
            let snap = serde_json::to_value(stream.snapshot()).unwrap();
            for list in ["notes", "loose"] {
                if let Some(items) = snap[list].as_array() {
                    // The last item may still grow; those before it are whole.
                    let n = items.len().saturating_sub(1);
                    assert_eq!(items[..n], want[list].as_array().unwrap()[..n], "{list}");
                }
            }
        }
        assert_eq!(serde_json::to_value(stream.snapshot()).unwrap(), want);
    }

    let coerced = r#"{"notes": [], "loose": [], "count": "7"}"#;
    assert!(llm_extract::from_str::<StrictNotes>(coerced).is_err());
    let mut stream = Stream::<StrictNotes>::new();
    stream.push(coerced);
    assert_eq!(stream.snapshot().count, None);
    assert!(!stream.issues().is_empty());
}

#[derive(Extract, Debug, PartialEq, Clone, serde::Serialize)]
enum Mood {
    Happy,
    Sad,
    #[extract(other)]
    Unknown,
}

#[derive(Extract, Debug, PartialEq, serde::Serialize)]
struct Reading {
    mood: Option<Mood>,
    count: Option<u32>,
    done: Option<bool>,
    moods: Vec<Option<Mood>>,
    label: Option<Mood>,
    tags: Option<Vec<String>>,
}

/// An `Option` reads a placeholder as `None` whatever its type (an enum with an `other`
/// variant, a number, a bool, a list that would take one string as its item), and `""` as `None` where the type does not take it as
/// written: a stream shows the same, and reports nothing for them (the read of the type
/// never happens, or is rolled back). Before, the enum showed its `other` variant, and the
/// number and bool were reported as wrong types, though `finish` succeeds.
#[test]
fn an_option_of_any_type_reads_a_placeholder_as_none() {
    let text = r#"{"mood": "N/A", "count": "none", "done": "n/a", "moods": ["-", "happy", ""], "label": "", "tags": "N/A"}"#;
    let done = llm_extract::from_str::<Reading>(text).unwrap();
    assert_eq!(
        done,
        Reading {
            mood: None,
            count: None,
            done: None,
            moods: vec![None, Some(Mood::Happy), None],
            label: None,
            tags: None,
        }
    );
    let want = serde_json::to_value(&done).unwrap();
    for size in [1, 7, 64] {
        let mut stream = Stream::<Reading>::new();
        for chunk in text.as_bytes().chunks(size) {
            stream.push_bytes(chunk);
            let snap = serde_json::to_value(stream.snapshot()).unwrap();
            for field in ["mood", "count", "done", "label", "tags"] {
                assert_eq!(snap[field], Value::Null, "{field} in {size}-byte chunks");
            }
            if let Some(items) = snap["moods"].as_array() {
                assert_eq!(items[..], want["moods"].as_array().unwrap()[..items.len()]);
            }
        }
        assert_eq!(serde_json::to_value(stream.snapshot()).unwrap(), want);
        assert!(stream.issues().is_empty(), "{:?}", stream.issues());
    }
}

#[derive(Extract, Debug, PartialEq, serde::Serialize)]
struct Lists {
    maybe: Option<Vec<Option<String>>>,
    python: Option<Vec<Option<u32>>>,
    nested: Option<Vec<Vec<Option<String>>>>,
    pair: Option<[Option<String>; 2]>,
    kept: Option<Vec<Option<String>>>,
    plain: Vec<Option<String>>,
}

/// An `Option` around a list of `Option`s (or of lists of them) reads `null` and a
/// placeholder as `None`, as the typed read does: the list never sees them. A stream showed
/// `[null]` (the list's reading of one `null` item, or of one string held back by the item's
/// own `Option`), then `finish` gave `None`. Without the `Option`, `null` is the empty list.
#[test]
fn an_option_of_a_list_of_options_reads_null_and_placeholders_as_none() {
    let text = r#"{"maybe": null, "python": None, "nested": 'N/A', "pair": "Not applicable", "kept": ["Nadia", null], "plain": null}"#;
    let done = llm_extract::from_str::<Lists>(text).unwrap();
    let kept = Some(vec![Some("Nadia".to_string()), None]);
    let want = Lists {
        maybe: None,
        python: None,
        nested: None,
        pair: None,
        kept,
        plain: Vec::new(),
    };
    assert_eq!(done, want);
    let want = serde_json::to_value(&want).unwrap();
    for size in [1, 2, 7, 64] {
        let mut stream = Stream::<Lists>::new();
        for chunk in text.as_bytes().chunks(size) {
            stream.push_bytes(chunk);
            let snap = serde_json::to_value(stream.snapshot()).unwrap();
            for field in ["maybe", "python", "nested", "pair"] {
                assert_eq!(snap[field], Value::Null, "{field} in {size}-byte chunks");
            }
            assert!(
                snap["plain"].as_array().is_none_or(Vec::is_empty),
                "plain in {size}-byte chunks: {}",
                snap["plain"]
            );
        }
        assert_eq!(serde_json::to_value(stream.snapshot()).unwrap(), want);
    }
}

/// A `Box` around a string is what is tested.
#[allow(clippy::box_collection)]
#[derive(Extract, Debug, PartialEq, serde::Serialize)]
struct Boxed {
    missing: Option<Box<String>>,
    empty: Option<Box<String>>,
    name: Option<Box<String>>,
}

/// A `Box` is its content to an `Option` around it: a boxed string that may still become a
/// placeholder waits, and `""` is a string. Before, the stream showed `"N"`, `"N/"`, then
/// `None` (finish's), and `None` for `""` (finish: `Some("")`).
#[test]
fn an_option_of_a_boxed_string_streams_as_one_of_a_string() {
    let text = r#"{"missing": "N/A", "empty": "", "name": "Nadia"}"#;
    let done = llm_extract::from_str::<Boxed>(text).unwrap();
    let want = Boxed {
        missing: None,
        empty: Some(Box::default()),
        name: Some(Box::new("Nadia".to_string())),
    };
    assert_eq!(done, want);
    let want = serde_json::to_value(&want).unwrap();
    for size in [1, 2, 7, 64] {
        let mut stream = Stream::<Boxed>::new();
        for chunk in text.as_bytes().chunks(size) {
            stream.push_bytes(chunk);
            let snap = serde_json::to_value(stream.snapshot()).unwrap();
            assert_eq!(snap["missing"], Value::Null, "{size}-byte chunks");
        }
        assert_eq!(serde_json::to_value(stream.snapshot()).unwrap(), want);
    }
}

#[derive(Extract, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
enum Color {
    Red,
    Green,
}

#[derive(Extract, Debug, PartialEq, serde::Serialize)]
struct Keyed {
    counts: std::collections::BTreeMap<Color, u32>,
    by_id: std::collections::HashMap<u32, String>,
    tags: std::collections::BTreeSet<String>,
    ids: std::collections::HashSet<u32>,
}

/// A map shows each key as the map `finish` returns writes it (`red` is the variant `Red`,
/// ` 07` the number 7), and a set shows once complete, each item once: a key or an item
/// shown as written was not in the answer (`red`), or was there once (`"b"` twice, `3` and
/// `"3"`).
#[test]
fn map_keys_and_set_items_stream_as_the_answer_holds_them() {
    let text = r#"{"counts": {"red": 2, "GREEN": 1}, "by_id": {" 07": "seven", "8": "eight"}, "tags": ["b", "a", "b"], "ids": [3, "3", 4]}"#;
    let done = llm_extract::from_str::<Keyed>(text).unwrap();
    let answer = serde_json::to_value(&done).unwrap();
    for size in [1, 3, 64] {
        let mut stream = Stream::<Keyed>::new();
        for chunk in text.as_bytes().chunks(size) {
            stream.push_bytes(chunk);
            let snap = serde_json::to_value(stream.snapshot()).unwrap();
            for map in ["counts", "by_id"] {
                for (key, value) in snap[map].as_object().into_iter().flatten() {
                    let want = &answer[map][key];
                    let grows = matches!((value.as_str(), want.as_str()), (Some(v), Some(w)) if w.starts_with(v));
                    assert!(
                        grows || want == value,
                        "{map}.{key} in {size}-byte chunks: {value}"
                    );
                }
            }
            for set in ["tags", "ids"] {
                let items = snap[set].as_array().cloned().unwrap_or_default();
                let all = answer[set].as_array().unwrap();
                assert!(
                    items.is_empty() || items.len() == all.len(),
                    "{set}: {items:?}"
                );
                assert!(items.iter().all(|i| all.contains(i)), "{set}: {items:?}");
            }
        }
        let last = serde_json::to_value(stream.snapshot()).unwrap();
        assert_eq!(last["counts"], answer["counts"], "{size}-byte chunks");
        assert_eq!(
            last["tags"],
            serde_json::json!(["b", "a"]),
            "{size}-byte chunks"
        );
    }
}

#[derive(Extract, Debug, PartialEq, serde::Serialize)]
enum Note2 {
    Text(Option<String>),
    Count(Option<u32>),
}

#[derive(Extract, Debug, PartialEq, serde::Serialize)]
struct Notes2 {
    a: Note2,
    b: Note2,
    c: Note2,
}

/// An enum's newtype variant holding an `Option` reads a placeholder as `None`, as the typed
/// read does: its twin's payload is the `Option`'s own partial (`PartialOption`), which
/// holds a string back while it may still become one.
#[test]
fn a_newtype_variant_holding_an_option_reads_a_placeholder_as_none() {
    let text = r#"{"a": {"Text": "N/A"}, "b": {"Text": "Nora"}, "c": {"Count": "none"}}"#;
    let done = llm_extract::from_str::<Notes2>(text).unwrap();
    assert_eq!(
        done,
        Notes2 {
            a: Note2::Text(None),
            b: Note2::Text(Some("Nora".into())),
            c: Note2::Count(None),
        }
    );
    let want = serde_json::to_value(&done).unwrap();
    for size in [1, 7, 64] {
        let mut stream = Stream::<Notes2>::new();
        for chunk in text.as_bytes().chunks(size) {
            stream.push_bytes(chunk);
            let snap = serde_json::to_value(stream.snapshot()).unwrap();
            for (field, variant) in [("a", "Text"), ("b", "Text"), ("c", "Count")] {
                let shown = &snap[field][variant];
                let wanted = want[field][variant].as_str().unwrap_or("");
                match shown {
                    Value::Null => {}
                    Value::String(s) => assert!(wanted.starts_with(s.as_str()), "{field}: {s:?}"),
                    other => panic!("{field} shows {other}"),
                }
            }
        }
        assert_eq!(serde_json::to_value(stream.snapshot()).unwrap(), want);
        assert!(stream.issues().is_empty(), "{:?}", stream.issues());
    }
}

#[derive(Extract, serde::Serialize, Debug, PartialEq)]
struct Rec {
    a: u32,
}

#[derive(Extract, Debug, PartialEq)]
struct Gaps {
    points: Vec<Option<u32>>,
    notes: Vec<Option<String>>,
    records: Vec<Option<Rec>>,
}

/// A list of `Option`s keeps its `null` items in place, and reads a placeholder item as
/// `None` once complete: every snapshot's items are the answer's first items.
#[test]
fn null_items_of_a_list_of_options_keep_their_places() {
    let text = r#"{"points": [null, 7, "N/A", 9], "notes": ["N/A", "ok", null, "fine", "none"], "records": [{"a": 1}, "N/A", {"a": 2}, "", {"a": 3}]}"#;
    let done = llm_extract::from_str::<Gaps>(text).unwrap();
    assert_eq!(done.points, [None, Some(7), None, Some(9)]);
    assert_eq!(done.notes[..2], [None, Some("ok".to_string())]);
    let records = serde_json::to_value(&done.records).unwrap();
    assert_eq!(records, json!([{"a": 1}, null, {"a": 2}, null, {"a": 3}]));
    for size in [1, 7, 64] {
        let mut stream = Stream::<Gaps>::new();
        for chunk in text.as_bytes().chunks(size) {
            stream.push_bytes(chunk);
            let snap = stream.snapshot();
            if let Some(points) = &snap.points {
                let shown: Vec<Option<u32>> = points.iter().map(|p| **p).collect();
                assert_eq!(shown[..], done.points[..shown.len()], "{size}-byte chunks");
            }
            if let Some(notes) = &snap.notes {
                // The last item may still grow; those before it are whole.
                let n = notes.len().saturating_sub(1);
                let shown: Vec<Option<String>> = notes
                    .iter()
                    .take(n)
                    .map(|s| s.as_deref().map(str::to_string))
                    .collect();
                assert_eq!(shown[..], done.notes[..n], "{size}-byte chunks");
            }
            if let Some(shown) = serde_json::to_value(&snap.records).unwrap().as_array() {
                let n = shown.len().saturating_sub(1);
                assert_eq!(
                    shown[..n],
                    records.as_array().unwrap()[..n],
                    "{size}-byte chunks"
                );
            }
        }
        let last = stream.snapshot();
        assert_eq!(last.points.map(|p| p.len()), Some(4));
        assert_eq!(serde_json::to_value(&last.records).unwrap(), records);
    }
}

/// A blank longer than the stream waits on (64 bytes) is text, not a placeholder: shown as it
/// grows and kept by `finish`. Before, the stream showed the spaces past 64 bytes and `finish`
/// read the blank as `None`.
#[test]
fn a_blank_longer_than_the_wait_is_text_in_an_option() {
    #[derive(Extract, Debug, PartialEq)]
    struct Note {
        note: Option<String>,
    }
    for (len, expected) in [
        (60, None),
        (64, None),
        (65, Some(" ".repeat(65))),
        (200, Some(" ".repeat(200))),
    ] {
        let text = format!(r#"{{"note": "{}"}}"#, " ".repeat(len));
        assert_eq!(
            llm_extract::from_str::<Note>(&text).unwrap().note,
            expected,
            "{len}"
        );
        for size in [1, 7, 64] {
            let mut stream = Stream::<Note>::new();
            let mut shown = Vec::new();
            for chunk in text.as_bytes().chunks(size) {
                stream.push_bytes(chunk);
                shown.push(stream.snapshot().note.as_deref().map(str::to_string));
            }
            let done = stream.finish().unwrap().value.note;
            assert_eq!(done, expected, "{len} in {size}-byte chunks");
            for s in shown.iter().flatten() {
                let fin = done
                    .as_deref()
                    .unwrap_or_else(|| panic!("{len}: showed {s:?}, answer None"));
                assert!(fin.starts_with(s.as_str()), "{len} in {size}-byte chunks");
            }
        }
    }
}

/// A field of a type that shows nothing while the reply streams (its partial is `NoPartial`,
/// as for a tuple) is never called complete before `finish`: `Complete` promises the value
/// `finish` gives, and the snapshot shows none.
#[test]
fn a_field_that_shows_nothing_is_not_called_complete() {
    #[derive(Extract, Debug, PartialEq)]
    struct Segment {
        ends: (i32, i32),
        name: String,
    }
    let text = r#"{"ends": [1, 2], "name": "a"}"#;
    for size in [1, 5, 64] {
        let mut stream = Stream::<Segment>::new();
        for chunk in text.as_bytes().chunks(size) {
            stream.push_bytes(chunk);
            let snap = stream.snapshot();
            assert_ne!(
                snap.state("ends"),
                FieldState::Complete,
                "{size}-byte chunks"
            );
        }
        let snap = stream.snapshot();
        assert_eq!(snap.state("ends"), FieldState::Incomplete);
        assert_eq!(snap.state("name"), FieldState::Complete);
        let done = stream.finish().unwrap();
        assert_eq!(done.value.ends, (1, 2));
    }
}

/// An adjacently tagged enum whose content is written before its tag shows that content once
/// the tag names the variant, so a field of it called `Complete` holds what `finish` gives.
#[test]
fn adjacent_content_before_its_tag_shows_at_the_tag() {
    #[derive(Extract, Debug, PartialEq, Clone)]
    #[extract(tag = "name", content = "arguments", rename_all = "snake_case")]
    enum Call {
        Search { query: String, limit: u32 },
        Echo(String),
        Stop,
    }
    #[derive(Extract, Debug, PartialEq)]
    struct Turn {
        call: Call,
        note: String,
    }
    let search = json!({"search": {"query": "rust", "limit": 3}});
    let replies = [
        (
            r#"{"call": {"arguments": {"query": "rust", "limit": 3}, "name": "search"}, "note": "n"}"#,
            &search,
        ),
        (
            r#"{"call": {"arguments": "hi", "name": "echo"}, "note": "n"}"#,
            &json!({"echo": "hi"}),
        ),
        (
            r#"{"call": {"name": "search", "arguments": {"query": "rust", "limit": 3}}, "note": "n"}"#,
            &search,
        ),
        (
            r#"{"call": {"arguments": null, "name": "stop"}, "note": "n"}"#,
            &json!("stop"),
        ),
    ];
    for (text, want) in replies {
        for size in [1, 7, 64] {
            let mut stream = Stream::<Turn>::new();
            let mut complete = None;
            for chunk in text.as_bytes().chunks(size) {
                stream.push_bytes(chunk);
                let snap = stream.snapshot();
                if complete.is_none() && snap.state("call") == FieldState::Complete {
                    complete = Some(serde_json::to_value(&snap).unwrap()["call"].clone());
                }
            }
            let shown = complete.expect("the call is complete before finish");
            assert_eq!(&shown, want, "{text} in {size}-byte chunks");
            stream.finish().unwrap();
        }
    }
}

/// Of several members for one field (its name, a normalized spelling, an alias), a snapshot
/// shows the one `finish` takes: the best match, the later one on a tie. A member that takes
/// the field over shows as incomplete until it is complete.
#[test]
fn of_several_keys_for_one_field_snapshots_show_the_one_finish_takes() {
    #[derive(Extract, Debug, PartialEq, serde::Serialize)]
    struct Call {
        #[extract(alias = "tool", alias = "name")]
        tool_name: String,
        args: Vec<String>,
    }
    let replies = [
        r#"{"tool_name": "b", "tool": "a", "args": []}"#,
        r#"{"tool": "a", "tool_name": "b", "args": []}"#,
        r#"{"toolName": "b", "tool": "a", "args": []}"#,
        r#"{"tool": "a", "toolName": "b", "args": []}"#,
        r#"{"tool_name": "b", "toolName": "a", "args": []}"#,
        r#"{"name": "a", "tool": "b", "args": []}"#,
        r#"{"tool_name": "b", "name": "a", "toolName": "c", "tool": "d", "args": []}"#,
    ];
    for text in replies {
        let want = llm_extract::extract::<Call>(text).unwrap().value.tool_name;
        assert_eq!(want, "b", "{text}");
        for size in [1, 4, 64] {
            let mut stream = Stream::<Call>::new();
            let mut last_complete: Option<String> = None;
            for chunk in text.as_bytes().chunks(size) {
                stream.push_bytes(chunk);
                let snap = stream.snapshot();
                let shown = serde_json::to_value(&snap).unwrap()["tool_name"].clone();
                if snap.state("tool_name") == FieldState::Complete {
                    last_complete = shown.as_str().map(str::to_string);
                }
            }
            assert_eq!(
                last_complete.as_deref(),
                Some("b"),
                "{text} in {size}-byte chunks"
            );
            assert_eq!(stream.finish().unwrap().value.tool_name, "b");
        }
    }
}

/// A key written twice inside a `serde_json::Value` field: the snapshot shows the later value,
/// as `finish` keeps it.
#[test]
fn a_key_written_twice_in_a_value_field_shows_its_later_value() {
    #[derive(Extract, Debug, serde::Serialize)]
    struct Holder {
        v: Value,
    }
    let text = r#"{"v": {"n": 1, "s": "x", "n": 2, "s": [3], "o": {}, "o": 4}}"#;
    for size in [1, 6, 64] {
        let mut stream = Stream::<Holder>::new();
        for chunk in text.as_bytes().chunks(size) {
            stream.push_bytes(chunk);
        }
        let last = serde_json::to_value(stream.snapshot()).unwrap();
        let done = stream.finish().unwrap().value;
        assert_eq!(done.v, json!({"n": 2, "s": [3], "o": 4}));
        assert_eq!(last["v"], done.v, "{size}-byte chunks");
    }
}
