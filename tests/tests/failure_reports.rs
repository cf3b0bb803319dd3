//! Which error is reported when no candidate fits: the one of the candidate that got furthest
//! (most of the type matched, then fewest issues, then the largest span), the same rule for
//! `from_str`, `extract`, `extract_all`, `from_str_all` and `repair`; braces in prose around
//! bare words are "no JSON found", not a wrong type on a field.

use llm_extract::{Category, Extract, Extractor};

#[derive(Extract, Debug)]
#[allow(dead_code)]
struct User {
    name: String,
}

#[derive(Extract, Debug)]
#[allow(dead_code)]
struct Order {
    id: u32,
    item: String,
    quantity: u32,
}

/// Every entry point that reads `T`, as the one error each gives.
fn errors<T: Extract + std::fmt::Debug>(text: &str) -> Vec<llm_extract::Error> {
    vec![
        llm_extract::from_str::<T>(text).unwrap_err(),
        llm_extract::extract::<T>(text).unwrap_err(),
        Extractor::new().extract_all::<T>(text).unwrap_err(),
        llm_extract::from_str_all::<T>(text).unwrap_err(),
    ]
}

#[test]
fn braces_in_prose_are_no_json_found() {
    for text in [
        "Use the {name} placeholder in the greeting.",
        "Fill {name} and {email} before sending.",
        "Templates use {curly braces} for slots.",
    ] {
        for err in errors::<User>(text) {
            assert_eq!(err.category(), Category::NotFound, "{text}: {err}");
        }
        for err in errors::<Order>(text) {
            assert_eq!(err.category(), Category::NotFound, "{text}: {err}");
        }
        assert_eq!(
            llm_extract::from_str::<u32>(text).unwrap_err().category(),
            Category::NotFound
        );
    }
    // Nor for `repair`: a `{` in prose opens a value only when a member follows it.
    let err = llm_extract::repair("Use the {name} placeholder").unwrap_err();
    assert_eq!(err.category(), Category::NotFound);
    // Braces around bare words that are the whole reply are still a value.
    let v = llm_extract::repair("{name}").unwrap();
    assert_eq!(v, serde_json::json!({"name": null}));
    // And a value written in braces with its colon is a value, with the type's error.
    let err = llm_extract::from_str::<Order>("Send {id: 7, item: pen}").unwrap_err();
    assert_eq!(err.category(), Category::Missing);
}

#[test]
fn the_candidate_that_matched_most_of_the_type_is_reported() {
    // An example that matches one field, then the answer that matches all three with one
    // wrong value: the answer's issue is the one to fix.
    let text = "Like {\"id\": 1} but with the rest:\n{\"id\": 2, \"item\": \"pen\", \"quantity\": \"lots\"}";
    for err in errors::<Order>(text) {
        assert_eq!(err.issues().len(), 1, "{err}");
        assert_eq!(err.issues()[0].path.to_string(), "$.quantity", "{err}");
    }
    // The same two in the other order: the same report.
    let text = "{\"id\": 2, \"item\": \"pen\", \"quantity\": \"lots\"}\nor even {\"id\": 1}";
    for err in errors::<Order>(text) {
        assert_eq!(err.issues()[0].path.to_string(), "$.quantity", "{err}");
    }
}

#[test]
fn a_reading_that_matched_something_beats_a_refused_candidate() {
    let big = format!(
        "{{\"id\": 1, \"item\": \"{}\", \"quantity\": 1}}",
        "x".repeat(200)
    );
    let text = format!("{big}\nand a short one: {{\"id\": 3, \"item\": 4}}");
    let e = Extractor::new().max_payload(100);
    let err = e.from_str::<Order>(&text).unwrap_err();
    assert_eq!(err.category(), Category::Missing, "{err}");
    // With nothing else read, the refusal is the error.
    let err = e.from_str::<Order>(&big).unwrap_err();
    assert_eq!(err.category(), Category::TooLarge, "{err}");
    // And it is, over a candidate that matched nothing of the type.
    let text = format!("{big}\nalso {{\"x\": 1}}");
    let err = e.from_str::<Order>(&text).unwrap_err();
    assert_eq!(err.category(), Category::TooLarge, "{err}");
}

#[test]
fn repair_reports_the_largest_refused_candidate() {
    let e = Extractor::new().max_payload(10);
    let err = e
        .repair("{\"a\": 1234567} and {\"b\": [1, 2, 3, 4, 5, 6]}")
        .unwrap_err();
    assert_eq!(err.category(), Category::TooLarge);
    assert!(err.to_string().contains("25 bytes"), "{err}");
}

#[test]
fn a_value_only_in_reasoning_is_named_in_the_error() {
    let closed = "<think>Maybe {\"name\": \"Bo\"}?</think>\nI could not decide.";
    let open = "Sure.\n<think>I will answer {\"name\": \"Bo\"}\n\n{\"name\": \"Al\"}";
    for (text, never_closes, at, read) in [
        (closed, false, "line 1 column 1", "Bo"),
        (open, true, "line 2 column 1", "Al"),
    ] {
        let mut all = errors::<User>(text);
        all.push(llm_extract::repair(text).unwrap_err());
        let mut stream = llm_extract::Stream::<User>::new();
        for piece in text.as_bytes().chunks(4) {
            stream.push(std::str::from_utf8(piece).unwrap());
        }
        all.push(stream.finish().unwrap_err());
        for err in all {
            let message = err.to_string();
            assert_eq!(err.category(), Category::NotFound, "{message}");
            assert!(message.contains("outside reasoning"), "{message}");
            assert!(
                message.contains("Extractor::fallback_to_reasoning"),
                "{message}"
            );
            assert!(message.ends_with(at), "{message}");
            assert_eq!(message.contains("never closes"), never_closes, "{message}");
        }
        // What the message names reads the values (the later one wins the tie).
        let out = Extractor::new()
            .fallback_to_reasoning()
            .extract::<User>(text)
            .unwrap();
        assert_eq!(out.value.name, read);
    }
    // Reasoning without a value, or no reasoning at all: the plain message.
    for text in ["<think>Let me see.</think>\nNo idea.", "Nothing here."] {
        let message = llm_extract::repair(text).unwrap_err().to_string();
        assert!(message.starts_with("no JSON found: "), "{message}");
        assert!(!message.contains("reasoning"), "{message}");
    }
}

#[test]
fn a_missing_field_written_deeper_names_where() {
    let text = r#"{"people": [{"id": 1}, {"name": "Bo"}], "count": 2}"#;
    for err in errors::<User>(text) {
        let message = err.to_string();
        assert_eq!(err.category(), Category::Missing, "{message}");
        assert!(
            message.contains("missing field `name` (the object at $.people[1] has it)"),
            "{message}"
        );
    }
    // Matched as keys are (here in another case), the first found breadth first.
    let err =
        llm_extract::from_str::<User>(r#"{"meta": {"info": {"Name": "Bo"}}, "x": [{"name": 1}]}"#)
            .unwrap_err()
            .to_string();
    assert!(err.contains("(the object at $.meta.info has it)"), "{err}");
    // Nothing below holds the key: the message is the plain one.
    let err = llm_extract::from_str::<User>(r#"{"id": 1, "tags": [{"k": "v"}]}"#).unwrap_err();
    assert_eq!(err.issues()[0].message, "missing field `name`");
}
