//! Reading against a `Schema` while the reply arrives (`SchemaStream`) and salvaging a reply
//! that does not read whole (`extract_partial_with`): snapshots read through the schema, each a
//! prefix of the final value, whatever the chunking; `finish` is `extract_with`; field states.

use llm_extract::stream::FieldState;
use llm_extract::{Category, Extractor, Schema};
use serde_json::{json, Value};

fn book() -> Schema {
    Schema::new(&json!({
        "type": "object",
        "properties": {
            "title": {"type": "string"},
            "year": {"type": "integer"},
            "rating": {"type": "number", "minimum": 0, "maximum": 5},
            "genre": {"enum": ["fiction", "history", "science"]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "author": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "born": {"type": ["integer", "null"]}},
                "required": ["name"]
            }
        },
        "required": ["title", "year"]
    }))
    .unwrap()
}

const REPLIES: &[&str] = &[
    "Here you go:\n```json\n{\"title\": \"Dune\", \"year\": 1965, \"rating\": 4.5, \"genre\": \"fiction\", \"tags\": [\"sf\", \"classic\"], \"author\": {\"name\": \"Frank Herbert\", \"born\": 1920}}\n```",
    "<think>Let me recall.</think>{'Title': 'Dune', year: '1965', Genre: 'FICTION', tags: 'sf', author: {name: 'Frank', born: null}, extra: 1}",
    "{\"title\": \"A \\\"quoted\\\" title with é and 日本\", \"year\": 2001.0, \"tags\": [], \"author\": {\"name\": \"X\"}}",
    "{\"title\": \"Cut\", \"year\": 1999, \"tags\": [\"a\", \"b",
    "{\"title\": \"Bad\", \"year\": 1999, \"rating\": 9}",
    "No JSON here at all.",
];

/// Whether `snapshot` is a prefix of `last`: its keys have values that are prefixes of the
/// final ones, its lists are no longer, its strings begin the final ones, the rest is equal.
fn is_prefix(snapshot: &Value, last: &Value) -> bool {
    match (snapshot, last) {
        (Value::Object(s), Value::Object(f)) => s
            .iter()
            .all(|(k, v)| f.get(k).is_some_and(|fv| is_prefix(v, fv))),
        (Value::Array(s), Value::Array(f)) => {
            s.len() <= f.len() && s.iter().zip(f).all(|(a, b)| is_prefix(a, b))
        }
        (Value::String(s), Value::String(f)) => f.starts_with(s.as_str()),
        (Value::Null, _) => true,
        (s, f) => s == f,
    }
}

/// Streams `text` in `size`-byte chunks: every snapshot, then `finish` (the value, or the
/// error's text).
fn streamed(schema: &Schema, text: &str, size: usize) -> (Vec<Value>, Result<Value, String>) {
    let mut stream = Extractor::new().stream_with(schema);
    let mut snapshots = Vec::new();
    for chunk in text.as_bytes().chunks(size) {
        stream.push_bytes(chunk);
        snapshots.push(stream.snapshot());
    }
    let done = stream
        .finish()
        .map(|out| out.value)
        .map_err(|e| e.to_string());
    (snapshots, done)
}

#[test]
fn every_snapshot_is_a_prefix_of_the_value_finish_reads() {
    let schema = book();
    for text in REPLIES {
        // What `finish` reads is the whole read (the same value, the same error).
        let whole = Extractor::new()
            .extract_with(&schema, text)
            .map(|out| out.value)
            .map_err(|e| e.to_string());
        for size in [1, 2, 7, 64, text.len().max(1)] {
            let (snapshots, done) = streamed(&schema, text, size);
            let cut_off = text.starts_with("{\"title\": \"Cut\"");
            if cut_off {
                // A value cut off is an error of the stream's `finish`, as for a typed stream.
                assert!(done.as_ref().unwrap_err().contains("cut off"), "{text}");
                continue;
            }
            assert_eq!(done, whole, "{text} in {size}-byte chunks");
            let Ok(last) = &done else { continue };
            for snapshot in &snapshots {
                assert!(
                    is_prefix(snapshot, last),
                    "{text} in {size}-byte chunks: {snapshot} is not a prefix of {last}"
                );
            }
            assert_eq!(snapshots.last(), Some(last), "{text} in {size}-byte chunks");
        }
    }
}

#[test]
fn snapshots_are_read_through_the_schema() {
    let schema = book();
    let mut stream = schema.stream();
    assert_eq!(stream.snapshot(), Value::Null);
    stream.push("{\"Title\": \"Du");
    // The key is the property's name; a string grows where the schema says string.
    assert_eq!(stream.snapshot(), json!({"title": "Du"}));
    stream.push("ne\", \"year\": \"19");
    // `"19` may still go on: a string where the schema says integer waits until complete.
    assert_eq!(stream.snapshot(), json!({"title": "Dune"}));
    stream.push("65\", \"extra\": [1, 2], \"genre\": \"HIST");
    // `"1965"`, complete, is read as the integer the schema says; a key the schema does not
    // have is not shown; an enum value waits until it is complete.
    assert_eq!(stream.snapshot(), json!({"title": "Dune", "year": 1965}));
    stream.push("ORY\", \"author\": {\"name\": \"Frank\", \"born\": \"1920\"}, ");
    assert_eq!(
        stream.snapshot(),
        json!({"title": "Dune", "year": 1965, "genre": "history", "author": {"name": "Frank", "born": 1920}})
    );
    stream.push("\"rating\": 4}");
    let last = stream.snapshot();
    let done = stream.finish().unwrap();
    assert_eq!(last, done.value);
    assert_eq!(done.value["rating"], 4);
}

#[test]
fn field_states_follow_the_reply() {
    let schema = book();
    let mut stream = schema.stream();
    stream.push("{\"title\": \"Dune");
    assert_eq!(stream.state("title"), FieldState::Incomplete);
    assert_eq!(stream.state("year"), FieldState::Pending);
    stream.push("\", \"year\": 19");
    assert_eq!(stream.state("title"), FieldState::Complete);
    assert_eq!(stream.state("year"), FieldState::Pending); // `19` may go on
    stream.push("65, \"Tags\": [\"a\"");
    assert_eq!(stream.state("year"), FieldState::Complete);
    assert_eq!(stream.state("tags"), FieldState::Incomplete);
    stream.push("]}");
    // The run `]}` closes the reply's value: were it followed by `, "key": ...`, one of its
    // closers would be stray, and only the rest of the reply says which, so `tags` waits for
    // the first byte after it that is not a space.
    assert_eq!(stream.state("tags"), FieldState::Incomplete);
    stream.push("\n");
    assert_eq!(stream.state("tags"), FieldState::Incomplete);
    stream.push("Done.");
    assert_eq!(stream.state("tags"), FieldState::Complete);
    assert_eq!(stream.state("author"), FieldState::Pending);
    assert_eq!(stream.state("no_such_property"), FieldState::Pending);
}

#[test]
fn a_complete_value_that_fails_a_check_is_reported_while_streaming() {
    let schema = book();
    let mut stream = schema.stream();
    stream.push("{\"title\": \"X\", \"year\": 2000, \"rating\": 9}");
    let issues = stream.issues();
    assert!(
        issues
            .iter()
            .any(|i| i.path.to_string() == "$.rating" && i.category == Category::Validation),
        "{issues:?}"
    );
    assert!(stream.finish().is_err());
}

#[test]
fn a_reply_that_does_not_read_whole_is_salvaged_through_the_schema() {
    let schema = book();
    let e = Extractor::new();
    let saved = e
        .extract_partial_with(
            &schema,
            "{'Title': 'Dune', year: '1965', genre: 'fiction', tags: ['sf', 'cla",
        )
        .unwrap();
    assert!(saved.value.is_none());
    assert_eq!(saved.issues[0].category, Category::Incomplete);
    assert_eq!(
        saved.partial,
        json!({"title": "Dune", "year": 1965, "genre": "fiction", "tags": ["sf", "cla"]})
    );
    // A reply that reads whole gives its value, and no issues.
    let saved = llm_extract::extract_partial_with(&schema, REPLIES[0]).unwrap();
    assert_eq!(saved.value.as_ref(), Some(&saved.partial));
    assert!(saved.issues.is_empty());
    // A required property missing: the issue, and what was read.
    let saved = e
        .extract_partial_with(&schema, "{\"title\": \"Dune\"}")
        .unwrap();
    assert!(saved.value.is_none());
    assert_eq!(
        saved.issues[0].category,
        Category::Missing,
        "{:?}",
        saved.issues
    );
    assert_eq!(saved.partial, json!({"title": "Dune"}));
}

#[test]
fn a_schema_that_takes_any_value_streams_the_json_as_written() {
    let schema = Schema::new(&json!({})).unwrap();
    let mut stream = schema.stream();
    stream.push("{\"a\": [1, 2], \"b\": \"te");
    assert_eq!(stream.snapshot(), json!({"a": [1, 2], "b": "te"}));
    stream.push("xt\"}");
    assert_eq!(
        stream.finish().unwrap().value,
        json!({"a": [1, 2], "b": "text"})
    );
}

#[test]
fn a_long_reply_streams_in_linear_time() {
    let schema = book();
    let time = |n: usize| {
        let items: Vec<String> = (0..n).map(|i| format!("\"tag {i}\"")).collect();
        let text = format!(
            "{{\"title\": \"{}\", \"year\": 1, \"tags\": [{}]}}",
            "long title ".repeat(n),
            items.join(", ")
        );
        let start = std::time::Instant::now();
        let mut stream = schema.stream();
        for chunk in text.as_bytes().chunks(16) {
            stream.push_bytes(chunk);
        }
        let value = stream.finish().unwrap().value;
        assert_eq!(value["tags"].as_array().unwrap().len(), n);
        start.elapsed()
    };
    time(500);
    let small = time(4_000);
    let large = time(16_000);
    // Four times the text, about four times the work (quadratic would be sixteen).
    assert!(
        large < small * 9,
        "4x the reply took {:?} against {small:?}",
        large
    );
}

/// A derived type and the schema the derive writes for it: the two faces of one type.
#[derive(llm_extract::Extract, Debug)]
struct Film {
    title: String,
    year: i64,
    tags: Vec<String>,
    cast: Vec<Actor>,
}

#[derive(llm_extract::Extract, Debug)]
struct Actor {
    name: String,
    born: Option<i64>,
}

/// The JSON a `Film` is (an actor's `born` left out when `None`, as a schema leaves a missing
/// optional property out).
fn film_json(film: &Film) -> Value {
    let cast: Vec<Value> = (film.cast.iter())
        .map(|a| match a.born {
            Some(born) => json!({"name": a.name, "born": born}),
            None => json!({"name": a.name}),
        })
        .collect();
    json!({"title": film.title, "year": film.year, "tags": film.tags, "cast": cast})
}

/// The JSON of a typed snapshot without its `null`s (a field not seen yet), as a schema's
/// snapshot leaves such a property out.
fn without_nulls(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_nulls).collect()),
        v => v,
    }
}

#[test]
fn a_schema_streams_as_the_derived_type_it_was_made_from() {
    let schema = Schema::new(&llm_extract::json_schema::<Film>().to_value()).unwrap();
    for text in [
        "```json\n{\"title\": \"Dune\", \"year\": 2021, \"tags\": [\"sf\", \"epic\"], \"cast\": [{\"name\": \"Timothée\", \"born\": 1995}, {\"name\": \"Zendaya\"}]}\n```",
        "{\"Title\": \"Arrival\", \"year\": \"2016\", \"tags\": \"sf\", \"cast\": [{\"name\": \"Amy\", \"born\": \"1974\"}]}",
        "<think>Which film?</think>Sure: {\"title\": \"Heat\", \"rating\": 8, \"year\": 1995, \"cast\": {\"name\": \"Al\", \"born\": null}, \"tags\": [\"crime\"",
        "{'title': 'Alien', 'year': 1979, 'tags': ['sf', 'horror',], 'cast': [{'name': 'Sigourney'}]}",
    ] {
        for size in [1, 7, 64] {
            let mut typed = llm_extract::Stream::<Film>::new();
            let mut dynamic = schema.stream();
            for chunk in text.as_bytes().chunks(size) {
                typed.push_bytes(chunk);
                dynamic.push_bytes(chunk);
                // Nothing shown yet is `null` (a typed snapshot is then its default).
                let typed_json = match typed.partial() {
                    Some(partial) => without_nulls(serde_json::to_value(partial).unwrap()),
                    None => Value::Null,
                };
                // (A `null` written for an optional property is `null` in both, and a typed
                // snapshot cannot tell it from one not seen: compared without them.)
                let dynamic_json = match dynamic.snapshot() {
                    Value::Null => Value::Null,
                    shown => without_nulls(shown),
                };
                assert_eq!(dynamic_json, typed_json, "{text} in {size}-byte chunks");
            }
            // And the same value at the end, or both an error.
            match (typed.finish(), dynamic.finish()) {
                (Ok(typed), Ok(dynamic)) => {
                    assert_eq!(without_nulls(dynamic.value), film_json(&typed.value), "{text}");
                }
                (Err(a), Err(b)) => assert_eq!(a.category(), b.category(), "{text}"),
                (a, b) => panic!("{text}: typed {a:?}, schema {b:?}"),
            }
        }
    }
}

/// An optional object (`anyOf` of it and `null`, as `Option<T>` derives) shows its members
/// while it arrives, as the object alone does.
#[test]
fn an_optional_object_shows_its_members_while_it_arrives() {
    let schema = Schema::new(&json!({
        "type": "object",
        "properties": {
            "author": {"anyOf": [{"$ref": "#/$defs/Author"}, {"type": "null"}]}
        },
        "$defs": {"Author": {"type": "object", "properties": {"name": {"type": "string"}}}}
    }))
    .unwrap();
    let mut stream = schema.stream();
    stream.push("{\"author\": {\"name\": \"Fra");
    assert_eq!(stream.snapshot(), json!({"author": {"name": "Fra"}}));
    stream.push("nk\"}}");
    assert_eq!(
        stream.finish().unwrap().value,
        json!({"author": {"name": "Frank"}})
    );
}

/// A nullable string reads a placeholder (`N/A`, `none`) as `null`, as an `Option` does:
/// while more text may still make its string one, the stream shows nothing there, so no
/// snapshot shows text that `finish` reads as `null`.
#[test]
fn a_nullable_string_that_may_be_a_placeholder_waits() {
    let schema = Schema::new(&json!({
        "type": "object",
        "properties": {
            "a": {"type": ["string", "null"]},
            "b": {"type": ["string", "null"]},
            "list": {"type": "array", "items": {"type": ["string", "null"]}}
        }
    }))
    .unwrap();
    let text = r#"{"a": "N/A", "b": "Nora", "list": ["none", "ok", "N/A"]}"#;
    for size in [1, 2, 7, 64] {
        let (snapshots, done) = streamed(&schema, text, size);
        let done = done.unwrap();
        assert_eq!(
            done,
            json!({"a": null, "b": "Nora", "list": [null, "ok", null]})
        );
        for snapshot in &snapshots {
            assert!(
                is_prefix(snapshot, &done),
                "{snapshot} in {size}-byte chunks"
            );
        }
    }
}

/// Of several members for one property (its name, a spelling of it, an alias, the same key
/// twice), the last snapshot shows the one `finish` takes: the best match, the later one on a
/// tie; and the property's state follows that member.
#[test]
fn of_several_members_for_one_property_the_snapshot_shows_the_one_finish_takes() {
    let schema = Schema::new(&json!({
        "type": "object",
        "properties": {
            "tool_name": {"type": "string", "x-aliases": ["tool"]},
            "n": {"type": "integer"}
        },
        "required": ["tool_name"]
    }))
    .unwrap();
    let replies = [
        r#"{"tool_name": "b", "tool": "a", "n": 1}"#,
        r#"{"tool": "a", "tool_name": "b", "n": 1}"#,
        r#"{"toolName": "b", "tool": "a", "n": 1}"#,
        r#"{"tool_name": "b", "n": 7, "n": 1}"#,
        r#"{"n": [1], "tool": "b", "n": 1}"#,
    ];
    for text in replies {
        for size in [1, 5, 64] {
            let mut stream = schema.stream();
            for chunk in text.as_bytes().chunks(size) {
                stream.push_bytes(chunk);
            }
            let last = stream.snapshot();
            assert_eq!(stream.state("tool_name"), FieldState::Complete);
            let done = stream.finish().unwrap().value;
            assert_eq!(done, json!({"tool_name": "b", "n": 1}), "{text}");
            assert_eq!(last, done, "{text} in {size}-byte chunks");
        }
    }
}
