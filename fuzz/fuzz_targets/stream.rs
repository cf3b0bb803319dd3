//! Streaming: the fuzzer chooses the text and where it is cut into chunks (bytes, so inside
//! UTF-8 characters too). No panic, no hang; the last snapshot, the thoughts and the outcome
//! of `finish` do not depend on the chunking (they equal those of one push); and every
//! snapshot of the value `finish` takes is a prefix of it (keys it shows are there, lists no
//! longer, complete scalars equal, strings prefixes), as a `serde_json::Value` and as a
//! derived type; and `finish` gives what `extract` gives (a type whose value it may build from
//! what the stream read, `Extract::from_partial`).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use llm_extract::{Extract, Stream};
use std::collections::HashMap;

#[derive(Extract, Debug, serde::Serialize)]
#[allow(dead_code)] // fields are only built
struct Reply {
    #[extract(alias = "items")]
    lines: Vec<Line>,
    status: Status,
    note: Option<String>,
    #[extract(default)]
    extra: serde_json::Value,
    parent: Option<Box<Reply>>,
    tags: Option<Vec<Option<String>>>,
    mode: Option<Status>,
    #[extract(default)]
    pair: (Option<u8>, Vec<String>),
    counts: Option<std::collections::BTreeMap<Status, u32>>,
}

/// A type whose every part builds its value from its partial (`finish` need not read again).
#[derive(Extract, Debug, PartialEq)]
struct Order {
    lines: Vec<Line>,
    note: Option<String>,
    tags: Vec<String>,
    parent: Option<Box<Order>>,
    flag: Option<bool>,
    #[extract(alias = "count")]
    n: Option<i64>,
    ratio: Option<f32>,
}

#[derive(Extract, Debug, serde::Serialize, PartialEq)]
#[allow(dead_code)]
struct Line {
    #[extract(min_len = 1)]
    sku: String,
    #[extract(min = 1, max = 1000)]
    qty: u32,
    price: f64,
}

#[derive(Extract, Debug, serde::Serialize, PartialEq, Eq, PartialOrd, Ord)]
#[allow(dead_code)]
enum Status {
    Open,
    Shipped,
    #[extract(other)]
    Unknown,
}

#[derive(Arbitrary, Debug)]
struct Input {
    /// Chunk lengths, used in turn (0 is an empty chunk).
    cuts: Vec<u8>,
    target: u8,
    text: Vec<u8>,
}

/// Pushes `bytes` in the chunks `cuts` gives, then once whole; compares the two.
fn check<T: Extract>(bytes: &[u8], cuts: &[u8]) {
    let mut chunked = Stream::<T>::new();
    // Some snapshots are kept, with what they showed: later pushes must not change them.
    let mut held = Vec::new();
    let mut at = 0;
    let mut i = 0;
    while at < bytes.len() {
        let len = cuts.get(i % cuts.len().max(1)).copied().unwrap_or(16) as usize;
        let end = (at + len).min(bytes.len());
        chunked.push_bytes(&bytes[at..end]);
        let snap = chunked.snapshot();
        if i % 3 == 0 && held.len() < 64 {
            held.push((serde_json::to_string(&snap).unwrap(), snap));
        }
        at = end;
        i += 1;
        if len == 0 && i > bytes.len() + cuts.len() {
            chunked.push_bytes(&bytes[at..]);
            break;
        }
    }
    let mut whole = Stream::<T>::new();
    whole.push_bytes(bytes);
    let a = serde_json::to_string(&chunked.snapshot()).unwrap();
    let b = serde_json::to_string(&whole.snapshot()).unwrap();
    assert_eq!(
        a,
        b,
        "the last snapshot depends on the chunking: {:?} in {cuts:?}",
        String::from_utf8_lossy(bytes)
    );
    for (shown, snap) in &held {
        assert_eq!(
            &serde_json::to_string(snap).unwrap(),
            shown,
            "a held snapshot changed"
        );
    }
    assert_eq!(chunked.thoughts(), whole.thoughts());
    let (x, y) = (chunked.finish(), whole.finish());
    assert_eq!(x.is_ok(), y.is_ok());
    if let (Err(x), Err(y)) = (&x, &y) {
        assert_eq!(x.category(), y.category());
    }
}

/// Where `shown` is not a prefix of `fin`.
fn not_prefix(shown: &serde_json::Value, fin: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (shown, fin) {
        (Value::Null, _) => false,
        (Value::String(a), Value::String(b)) => !b.starts_with(a.as_str()),
        (Value::Array(a), Value::Array(b)) => {
            a.len() > b.len() || a.iter().zip(b).any(|(x, y)| not_prefix(x, y))
        }
        (Value::Object(a), Value::Object(b)) => a
            .iter()
            .any(|(k, v)| b.get(k).is_none_or(|w| not_prefix(v, w))),
        (a, b) => a != b,
    }
}

/// `bytes` pushed in the chunks `cuts` gives (the rest at once after as many chunks as bytes
/// and cuts), `each` called after every chunk.
fn pushed<T: Extract>(bytes: &[u8], cuts: &[u8], mut each: impl FnMut(&Stream<T>)) -> Stream<T> {
    let mut stream = Stream::<T>::new();
    let mut at = 0;
    let mut i = 0;
    while at < bytes.len() && i <= bytes.len() + cuts.len() {
        let len = cuts.get(i % cuts.len().max(1)).copied().unwrap_or(16) as usize;
        let end = (at + len).min(bytes.len());
        stream.push_bytes(&bytes[at..end]);
        each(&stream);
        at = end;
        i += 1;
    }
    stream.push_bytes(&bytes[at..]);
    stream
}

/// Every snapshot of the value `finish` takes, in the chunks `cuts` gives, is a prefix of it
/// (both as JSON: a derived type's twin serializes as the type does).
fn check_prefix<T: Extract + serde::Serialize>(bytes: &[u8], cuts: &[u8]) {
    let mut snaps = Vec::new();
    let stream = pushed::<T>(bytes, cuts, |stream| {
        if snaps.len() < 256 {
            snaps.push((stream.shown_at(), serde_json::to_value(stream.snapshot()).unwrap()));
        }
    });
    let Ok(done) = stream.finish() else {
        return;
    };
    // A key written twice: the later value replaces the one shown (documented, and named in
    // the report), so the snapshots before it need not be a prefix.
    let repeated = (done.report.coercions.iter())
        .any(|c| c.kind == llm_extract::CoercionKind::DuplicateKey);
    if repeated {
        return;
    }
    let answer = serde_json::to_value(&done.value).unwrap();
    for (shown_at, snap) in &snaps {
        if *shown_at == Some(done.report.span.start) {
            assert!(
                !not_prefix(snap, &answer),
                "a snapshot is not a prefix of the answer: {snap} vs {answer}: {:?} in {cuts:?}",
                String::from_utf8_lossy(bytes)
            );
        }
    }
}

/// `finish` of the text in the chunks `cuts` gives is what `extract` gives (value, report,
/// reasoning; the error's category), unless the reply is cut off inside its value (an error
/// for `finish`).
fn check_finish<T: Extract + PartialEq + std::fmt::Debug>(bytes: &[u8], cuts: &[u8]) {
    let stream = pushed::<T>(bytes, cuts, |_| {});
    let text = stream.text().to_string();
    let want = llm_extract::extract::<T>(&text);
    if want.as_ref().is_ok_and(|w| !w.report.complete) {
        return;
    }
    match (stream.finish(), want) {
        (Ok(got), Ok(want)) => {
            assert_eq!(got.value, want.value, "finish's value is not extract's: {text:?}");
            assert_eq!(got.report, want.report, "finish's report is not extract's: {text:?}");
            assert_eq!(got.thoughts, want.thoughts);
        }
        (Err(got), Err(want)) => assert_eq!(got.category(), want.category()),
        (got, want) => panic!("finish {got:?}, extract {want:?}: {text:?}"),
    }
}

fuzz_target!(|input: Input| {
    if input.text.len() > 1 << 16 {
        return;
    }
    match input.target % 5 {
        0 => {
            check::<serde_json::Value>(&input.text, &input.cuts);
            check_prefix::<serde_json::Value>(&input.text, &input.cuts);
        }
        1 => check::<Vec<u32>>(&input.text, &input.cuts),
        2 => check::<HashMap<String, Vec<String>>>(&input.text, &input.cuts),
        3 => {
            check_finish::<Order>(&input.text, &input.cuts);
            check_finish::<Vec<Line>>(&input.text, &input.cuts);
        }
        _ => {
            check::<Reply>(&input.text, &input.cuts);
            check_prefix::<Reply>(&input.text, &input.cuts);
        }
    }
});
