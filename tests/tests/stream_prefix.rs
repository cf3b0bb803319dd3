//! Snapshots are a prefix of the answer: every snapshot of a stream is consistent with the
//! value `finish` returns, on documents written elsewhere and on damage of our own, in chunks
//! of 1, 7 and 64 bytes.

use llm_extract::Stream;
use serde_json::Value;
use std::collections::BTreeMap;

fn load(path: &str) -> Vec<String> {
    let raw =
        std::fs::read_to_string(format!("{}/fixtures/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let cases: Vec<BTreeMap<String, Value>> = serde_json::from_str(&raw).unwrap();
    cases
        .into_iter()
        .filter_map(|c| c.get("input").and_then(|v| v.as_str()).map(str::to_string))
        .collect()
}

/// Where `shown` is not a prefix of `fin`, in words.
fn not_prefix(shown: &Value, fin: &Value, at: &str) -> Option<String> {
    match (shown, fin) {
        (Value::Null, _) => None,
        (Value::String(a), Value::String(b)) if b.starts_with(a.as_str()) => None,
        (Value::Array(a), Value::Array(b)) => {
            if a.len() > b.len() {
                return Some(format!(
                    "{at}: {} items shown, {} in the answer",
                    a.len(),
                    b.len()
                ));
            }
            a.iter()
                .zip(b)
                .enumerate()
                .find_map(|(i, (x, y))| not_prefix(x, y, &format!("{at}[{i}]")))
        }
        (Value::Object(a), Value::Object(b)) => a.iter().find_map(|(k, v)| match b.get(k) {
            Some(w) => not_prefix(v, w, &format!("{at}.{k}")),
            None => Some(format!("{at}.{k}: shown, not in the answer")),
        }),
        (a, b) if a == b => None,
        (a, b) => Some(format!("{at}: shown {a}, answer {b}")),
    }
}

/// Streams `text` in chunks of `size` bytes: where a snapshot of the value `finish` takes is
/// not a prefix of it. Snapshots of another value of the reply (`shown_at` elsewhere) are
/// counted in `switched`.
fn check(text: &str, size: usize, switched: &mut usize) -> Option<String> {
    let mut stream = Stream::<Value>::new();
    let mut snaps = Vec::new();
    for chunk in text.as_bytes().chunks(size) {
        stream.push_bytes(chunk);
        snaps.push((
            stream.shown_at(),
            serde_json::to_value(stream.snapshot()).unwrap(),
        ));
    }
    let (fin, at) = match stream.finish() {
        Ok(e) => (e.value, e.report.span.start),
        Err(_) => return None,
    };
    snaps.iter().enumerate().find_map(|(i, (shown_at, s))| {
        if shown_at.is_some_and(|s| s != at) {
            *switched += 1;
            return None;
        }
        not_prefix(s, &fin, "$").map(|w| format!("snapshot {i}: {w}; shown {s}; answer {fin}"))
    })
}

#[test]
fn every_snapshot_is_a_prefix_of_the_answer() {
    let mut texts = load("damage/cases.json");
    texts.extend(load("peers/json_repair.json"));
    texts.extend(load("peers/jsonrepair.json"));
    let mut bad = Vec::new();
    let mut switched = 0;
    for text in &texts {
        for size in [1, 7, 64] {
            if let Some(why) = check(text, size, &mut switched) {
                bad.push(format!("{text:?} in {size}-byte chunks: {why}"));
                break;
            }
        }
    }
    for b in &bad {
        println!("{b}");
    }
    println!("{switched} snapshots of another value than the answer's");
    assert!(bad.is_empty(), "{} of {} replies", bad.len(), texts.len());
}
