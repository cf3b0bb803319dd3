//! A type declared by a `macro_rules!` macro reads, streams and describes itself as the same
//! type written out. A macro's `$t:ty` fragment reaches the derive wrapped in an invisible
//! group, which the derive looks through wherever it asks what a field's type is (an
//! `Option`, a collection whose items the rules apply to).

use llm_extract::{Extract, Stream};
use serde_json::Value;

/// Declares a struct with the given field types and the same rules as [`Written`].
macro_rules! declare {
    ($name:ident, $note:ty, $tags:ty, $scores:ty, $boxed:ty, $pair:ty) => {
        #[derive(Extract, Debug, PartialEq)]
        #[allow(dead_code)]
        struct $name {
            note: $note,
            #[extract(min_len = 1, pattern = "^[a-z]+$")]
            tags: $tags,
            #[extract(min = 1, max = 5)]
            scores: $scores,
            boxed: $boxed,
            #[extract(default)]
            pair: $pair,
        }
    };
}

declare!(
    Declared,
    Option<String>,
    Option<Vec<String>>,
    Vec<u32>,
    Box<Option<String>>,
    (u8, String)
);

#[derive(Extract, Debug, PartialEq)]
#[allow(dead_code)]
struct Written {
    note: Option<String>,
    #[extract(min_len = 1, pattern = "^[a-z]+$")]
    tags: Option<Vec<String>>,
    #[extract(min = 1, max = 5)]
    scores: Vec<u32>,
    boxed: Box<Option<String>>,
    #[extract(default)]
    pair: (u8, String),
}

const REPLIES: &[&str] = &[
    r#"{"note": "N/A", "tags": ["ab", "cd"], "scores": [1, 5], "boxed": "x"}"#,
    r#"{"note": "kept", "tags": [], "scores": [0, 9], "boxed": null, "pair": [1, "a"]}"#,
    r#"{"note": "", "tags": ["Ab"], "scores": ["3"], "boxed": "none"}"#,
    "{note: 'none', tags: 'one', scores: 4, boxed: 'y',}",
    r#"{"note": "   ", "tags": ["ab"], "scores": [2], "boxed": "z", "pair": [300, 1]}"#,
];

/// What a read gives, as text: the value or every issue's path and message.
fn outcome<T: Extract + std::fmt::Debug>(text: &str) -> String {
    match llm_extract::extract::<T>(text) {
        Ok(e) => format!("{:?} {:?}", e.value, e.report.coercions),
        Err(e) => e
            .issues()
            .iter()
            .map(|i| format!("{}: {}", i.path, i.message))
            .collect::<Vec<_>>()
            .join("; "),
    }
}

/// Every snapshot of `text` streamed a byte at a time, as JSON.
fn snapshots<T: Extract>(text: &str) -> Vec<Value> {
    let mut stream = Stream::<T>::new();
    text.as_bytes()
        .iter()
        .map(|b| {
            stream.push_bytes(std::slice::from_ref(b));
            serde_json::to_value(stream.snapshot()).unwrap()
        })
        .collect()
}

#[test]
fn a_type_declared_by_a_macro_reads_as_written_out() {
    for text in REPLIES {
        // The type names differ; what they read must not.
        let declared = outcome::<Declared>(text).replace("Declared", "Written");
        assert_eq!(declared, outcome::<Written>(text), "{text}");
    }
}

#[test]
fn a_type_declared_by_a_macro_streams_as_written_out() {
    for text in REPLIES {
        assert_eq!(
            snapshots::<Declared>(text),
            snapshots::<Written>(text),
            "{text}"
        );
    }
    // The twin's members have the written-out types: an `Option` field shows its value's
    // partial (no second `Option` around it).
    let mut stream = Stream::<Declared>::new();
    stream.push(r#"{"note": "Nora", "tags": ["ab""#);
    let partial = stream.snapshot();
    let note: Option<llm_extract::stream::PartialString> = partial.note;
    assert_eq!(note.as_deref(), Some("Nora"));
}

#[test]
fn a_type_declared_by_a_macro_has_the_schema_written_out() {
    let schema = |mut v: Value| {
        v["title"] = Value::Null;
        v
    };
    assert_eq!(
        schema(llm_extract::json_schema::<Declared>().to_value()),
        schema(llm_extract::json_schema::<Written>().to_value())
    );
    assert_eq!(
        llm_extract::prompt_format::<Declared>(),
        llm_extract::prompt_format::<Written>()
    );
}
