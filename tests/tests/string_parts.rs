//! A string written in parts (`'x' 'y'` side by side in an object's value) and a string whose
//! closing quote is doubled before an item's separator (`["a"", "b"]`): read whole by the
//! parser, and by a stream, whose snapshots show parts of that reading and whose `finish` is it.

use serde_json::{json, Value};

/// Whether the snapshot `shown` is part of `whole`: every key it shows is there, no list is
/// longer, a string is a prefix, anything else equal.
fn part_of(shown: &Value, whole: &Value) -> bool {
    match (shown, whole) {
        (Value::String(x), Value::String(y)) => y.starts_with(x.as_str()),
        (Value::Array(xs), Value::Array(ys)) => {
            xs.len() <= ys.len() && xs.iter().zip(ys).all(|(x, y)| part_of(x, y))
        }
        (Value::Object(xs), Value::Object(ys)) => xs
            .iter()
            .all(|(k, x)| ys.get(k).is_some_and(|y| part_of(x, y))),
        _ => shown == whole,
    }
}

/// `text` read whole, then streamed a character at a time: both read `expected`, and every
/// snapshot on the way is part of it.
fn reads_whole_and_streamed(text: &str, expected: &Value) {
    assert_eq!(&llm_extract::repair(text).unwrap(), expected, "{text}");
    let mut stream = llm_extract::Stream::<Value>::new();
    for (i, c) in text.char_indices() {
        stream.push(&text[i..i + c.len_utf8()]);
        if let Some(partial) = stream.partial() {
            let shown = serde_json::to_value(partial).unwrap();
            assert!(
                part_of(&shown, expected),
                "{text}: after {:?} the snapshot {shown} is not part of {expected}",
                &text[..i + c.len_utf8()]
            );
        }
    }
    assert_eq!(&stream.finish().unwrap().value, expected, "{text}: finish");
}

#[test]
fn string_literals_side_by_side_in_an_objects_value_join() {
    let rows = [
        ("{'a': 'x' 'y'}", json!({"a": "xy"})),
        (r#"{"a": "x" "y", "b": 2}"#, json!({"a": "xy", "b": 2})),
        (
            "{\"prompt\": \"You are a helpful \"\n           \"assistant.\",\n \"n\": 1}",
            json!({"prompt": "You are a helpful assistant.", "n": 1}),
        ),
        ("{'a': 'x' 'y' 'z'}", json!({"a": "xyz"})),
        (
            r#"{"a": "the "quick" "brown" fox"}"#,
            json!({"a": "the \"quick\" \"brown\" fox"}),
        ),
        (r#"["x" "y"]"#, json!(["x", "y"])),
    ];
    for (text, expected) in &rows {
        reads_whole_and_streamed(text, expected);
    }
    // With text enough after the parts for the stream to settle the first one early.
    let long = "word ".repeat(200);
    for (parts, joined) in [
        (
            r#""You are a helpful " "assistant.""#,
            "You are a helpful assistant.",
        ),
        ("'x' 'y' 'z'", "xyz"),
        (r#""a \"b\" " "c""#, "a \"b\" c"),
    ] {
        let text = format!(r#"{{"prompt": {parts}, "notes": "{long}", "n": 1}}"#);
        reads_whole_and_streamed(&text, &json!({"prompt": joined, "notes": long, "n": 1}));
    }
}

#[test]
fn a_closing_quote_doubled_before_an_items_separator_adds_no_item() {
    let rows = [
        (r#"["a"", "b"]"#, json!(["a\"", "b"])),
        (
            r#"{"k": ["a"", "b"], "n": 1}"#,
            json!({"k": ["a\"", "b"], "n": 1}),
        ),
        (r#"["a"" ]"#, json!(["a\""])),
        (r#"["a""", "b"]"#, json!(["a", "", "b"])),
    ];
    for (text, expected) in &rows {
        reads_whole_and_streamed(text, expected);
    }
    let long = "word ".repeat(200);
    let text = format!(r#"["a"", "{long}", "b"]"#);
    reads_whole_and_streamed(&text, &json!(["a\"", long, "b"]));
}
