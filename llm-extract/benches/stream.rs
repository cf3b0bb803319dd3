//! Streaming: a reply pushed in 16-byte chunks with a snapshot after every chunk,
//! against extracting the whole reply in one call, at 1, 2 and 4 MB.
//!
//! Run: `cargo bench -p llm-extract --bench stream`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use llm_extract::{Extract, Stream};
use std::time::Duration;

mod common;
#[allow(dead_code)] // `bench_repair` is the `repair` bench's
mod corpus;

#[derive(Extract, Debug)]
#[allow(dead_code)] // fields are read by the benchmark only through black_box
struct Meta {
    x: Option<f64>,
    y: f64,
}

#[derive(Extract, Debug)]
#[allow(dead_code)]
struct Item {
    id: u64,
    name: String,
    price: f64,
    tags: Vec<String>,
    ok: bool,
    meta: Meta,
}

#[derive(Extract, Debug)]
#[allow(dead_code)]
struct Order {
    items: Vec<Item>,
    story: String,
}

#[derive(Extract, Debug)]
#[allow(dead_code)]
struct Section {
    heading: String,
    body: String,
    sources: Vec<String>,
}

#[derive(Extract, Debug)]
#[allow(dead_code)]
struct Article {
    title: String,
    sections: Vec<Section>,
}

/// A reply whose value is mostly prose: an article of sections with paragraphs of text (what
/// long streamed replies usually are), about `bytes` long.
fn article(bytes: usize) -> String {
    let paragraph = "The committee met on Tuesday to review the draft. Members noted that the \
        figures in section two did not match the appendix, and asked for a corrected table \
        before the vote. \\\"We need the numbers right,\\\" the chair said. ";
    let mut out = String::from(
        "<think>Write the article as JSON.</think>\n```json\n{\"title\": \"Minutes\", \"sections\": [",
    );
    let mut i = 0;
    while out.len() < bytes {
        if i > 0 {
            out.push_str(",\n");
        }
        out.push_str(&format!(
            "{{\"heading\": \"Part {i}\", \"body\": \"{}\", \"sources\": [\"minutes-{i}.pdf\", \"https://example.org/{i}\"]}}",
            paragraph.repeat(6)
        ));
        i += 1;
    }
    out.push_str("]}\n```\n");
    out
}

/// A reply as models stream it: reasoning, a sentence, the order in a fence.
fn reply(bytes: usize) -> String {
    format!(
        "<think>The user wants the order as JSON.</think>\nHere it is:\n```json\n{}\n```\n",
        common::order_doc(bytes)
    )
}

/// The order (`common::order_doc`) written as models often write it when not held to JSON:
/// single quotes, bare keys, `True` and `None`, trailing commas, a `//` comment between items,
/// about `bytes` long, in a fence. Every repair it needs is one the stream logs itself, so
/// `finish` builds the value and its report from what the stream read instead of parsing the
/// reply again.
fn repaired_reply(bytes: usize) -> String {
    let doc = common::order_doc(bytes)
        .replace("\"id\": ", "id: ")
        .replace("\"price\": ", "price: ")
        .replace("\"ok\": ", "ok: ")
        .replace('"', "'")
        .replace("true", "True")
        .replace("null", "None")
        .replace("'é']", "'é',]")
        .replace("}},{", "}}, // item\n{");
    format!("```json\n{doc}\n```\n")
}

/// `text` in `chunk`-byte pieces, each cut back to a character boundary.
fn pieces(text: &str, chunk: usize) -> impl Iterator<Item = &str> {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= text.len() {
            return None;
        }
        let mut end = (at + chunk).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        let piece = &text[at..end];
        at = end;
        Some(piece)
    })
}

/// Pushes `text` in `chunk`-byte pieces, taking a snapshot after every piece: the stream
/// and how many snapshots were taken.
fn pushed_stream<T: Extract>(text: &str, chunk: usize) -> (Stream<T>, usize) {
    let mut stream = Stream::<T>::new();
    let mut snapshots = 0;
    for piece in pieces(text, chunk) {
        stream.push(piece);
        black_box(stream.snapshot());
        snapshots += 1;
    }
    (stream, snapshots)
}

/// [`pushed_stream`], then `finish`.
fn streamed<T: Extract>(text: &str, chunk: usize) -> usize {
    let (stream, snapshots) = pushed_stream::<T>(text, chunk);
    black_box(stream.finish().unwrap());
    snapshots
}

/// [`pushed_stream`] without `finish`: the pushing and the snapshots alone (the stream is
/// dropped, as a finished one would be).
fn pushed<T: Extract>(text: &str, chunk: usize) -> usize {
    let (stream, snapshots) = pushed_stream::<T>(text, chunk);
    black_box(&stream);
    snapshots
}

/// A `SchemaStream` over `schema` fed `text` in `chunk`-byte pieces, a snapshot after each,
/// then `finish`.
fn schema_streamed(schema: &llm_extract::Schema, text: &str, chunk: usize) -> usize {
    let mut stream = schema.stream();
    let mut snapshots = 0;
    for piece in pieces(text, chunk) {
        stream.push(piece);
        black_box(stream.snapshot());
        snapshots += 1;
    }
    black_box(stream.finish().unwrap());
    snapshots
}

/// [`streamed`], keeping every snapshot (as `Snapshots::collect` does, or a slow consumer's
/// queue): the stream must not copy a part an older snapshot holds on every push.
fn streamed_held<T: Extract>(text: &str, chunk: usize) -> usize {
    let mut stream = Stream::<T>::new();
    let mut held = Vec::new();
    for piece in pieces(text, chunk) {
        stream.push(piece);
        held.push(stream.snapshot());
    }
    black_box(stream.finish().unwrap());
    held.len()
}

fn bench_stream(c: &mut Criterion) {
    let mut group = c.benchmark_group("stream");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(6));
    for mb in [1usize, 2, 4] {
        let text = reply(mb << 20);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("extract", mb), &text, |b, text| {
            b.iter(|| llm_extract::extract::<Order>(black_box(text)).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("16-byte chunks", mb), &text, |b, text| {
            b.iter(|| streamed::<Order>(black_box(text), 16))
        });
        group.bench_with_input(
            BenchmarkId::new("16-byte chunks, no finish", mb),
            &text,
            |b, text| b.iter(|| pushed::<Order>(black_box(text), 16)),
        );
        group.bench_with_input(
            BenchmarkId::new("16-byte chunks, Value", mb),
            &text,
            |b, text| b.iter(|| streamed::<serde_json::Value>(black_box(text), 16)),
        );
    }
    group.finish();

    let mut group = c.benchmark_group("stream-repaired");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(6));
    let text = repaired_reply(1 << 20);
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_with_input(BenchmarkId::new("extract", 1), &text, |b, text| {
        b.iter(|| llm_extract::extract::<Order>(black_box(text)).unwrap())
    });
    group.bench_with_input(BenchmarkId::new("16-byte chunks", 1), &text, |b, text| {
        b.iter(|| streamed::<Order>(black_box(text), 16))
    });
    group.bench_with_input(
        BenchmarkId::new("16-byte chunks, no finish", 1),
        &text,
        |b, text| b.iter(|| pushed::<Order>(black_box(text), 16)),
    );
    group.finish();

    let mut group = c.benchmark_group("stream-prose");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(6));
    for mb in [1usize, 2, 4] {
        let text = article(mb << 20);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("extract", mb), &text, |b, text| {
            b.iter(|| llm_extract::extract::<Article>(black_box(text)).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("16-byte chunks", mb), &text, |b, text| {
            b.iter(|| streamed::<Article>(black_box(text), 16))
        });
        group.bench_with_input(
            BenchmarkId::new("16-byte chunks, no finish", mb),
            &text,
            |b, text| b.iter(|| pushed::<Article>(black_box(text), 16)),
        );
        group.bench_with_input(
            BenchmarkId::new("16-byte chunks, every snapshot kept", mb),
            &text,
            |b, text| b.iter(|| streamed_held::<Article>(black_box(text), 16)),
        );
    }
    group.finish();
}

/// The least a stream of shared snapshots can do per 16-byte chunk of the 1 MB article,
/// whatever its reader: append the chunk to the reply, find where the string it is in ends
/// (`memchr2` for a quote or a backslash), append the chunk to the growing string, and clone
/// and drop a root whose list is shared through one `Arc` (one reference counted on and off:
/// the least for an owned snapshot that can go to another thread). No token state, no
/// events, no descent to the field. Compare with `stream-prose/extract/1`.
fn bench_floor(c: &mut Criterion) {
    use std::sync::Arc;
    #[derive(Clone)]
    struct Root {
        /// Three words, as a `PartialString` is.
        _title: Option<[u64; 3]>,
        list: Option<Arc<Vec<u8>>>,
    }
    let text = article(1 << 20);
    let mut group = one_mb_group(c, "stream-floor", text.len());
    group.bench_function("article/1", |b| {
        b.iter(|| {
            let mut reply = String::new();
            let mut string = Vec::new();
            let mut root = Root {
                _title: Some([0; 3]),
                list: Some(Arc::new(Vec::new())),
            };
            for piece in pieces(black_box(&text), 16) {
                reply.push_str(piece);
                let bytes = piece.as_bytes();
                let end = memchr::memchr2(b'"', b'\\', bytes).unwrap_or(bytes.len());
                string.extend_from_slice(&bytes[..end]);
                black_box(&mut root.list);
                black_box(root.clone());
            }
            (reply.len(), string.len())
        })
    });
    group.finish();
}

/// A group of ten samples over three seconds, for a 1 MB text of `bytes` bytes.
fn one_mb_group<'c>(
    c: &'c mut Criterion,
    name: &str,
    bytes: usize,
) -> criterion::BenchmarkGroup<'c, criterion::measurement::WallTime> {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    group.throughput(Throughput::Bytes(bytes as u64));
    group
}

/// For scale: two resumable JSON tokenizers from crates.io, strict JSON only, fed the 1 MB
/// Order document (no prose or fence around it) in the same 16-byte chunks, every string,
/// key and number read out. They build no value, show nothing and repair nothing: a stream
/// built on one would do this much before any of its own work. Compare with
/// `stream/extract/1` (one whole read, value built).
fn bench_tokenizers(c: &mut Criterion) {
    let doc = common::order_doc(1 << 20);
    let mut group = one_mb_group(c, "stream-tokenizers", doc.len());
    group.bench_function("actson/16-byte chunks/1", |b| {
        b.iter(|| actson_tokens(black_box(doc.as_bytes()), 16))
    });
    group.bench_function("json-event-parser/16-byte chunks/1", |b| {
        b.iter(|| json_event_parser_tokens(black_box(doc.as_bytes()), 16))
    });
    group.finish();
}

/// Every event of `json` read by `actson`'s push parser, `chunk` bytes at a time; the sum of
/// the lengths and values read (so nothing is optimized away).
fn actson_tokens(json: &[u8], chunk: usize) -> usize {
    use actson::feeder::PushJsonFeeder;
    use actson::{JsonEvent, JsonParser};
    let mut parser = JsonParser::new(PushJsonFeeder::new());
    let (mut at, mut sum) = (0, 0usize);
    while let Some(event) = parser.next_event().expect("valid JSON") {
        match event {
            JsonEvent::NeedMoreInput => {
                let end = (at + chunk).min(json.len());
                at += parser.feeder.push_bytes(&json[at..end]);
                if at == json.len() {
                    parser.feeder.done();
                }
            }
            JsonEvent::FieldName | JsonEvent::ValueString => {
                sum += parser.current_str().expect("a string").len();
            }
            JsonEvent::ValueInt => sum += parser.current_int::<i64>().expect("an int") as usize,
            JsonEvent::ValueFloat => sum += parser.current_float().expect("a float") as usize,
            _ => sum += 1,
        }
    }
    sum
}

/// [`actson_tokens`] with `json-event-parser`'s low-level parser (the caller keeps the bytes
/// not consumed yet).
fn json_event_parser_tokens(json: &[u8], chunk: usize) -> usize {
    use json_event_parser::{JsonEvent, LowLevelJsonParser};
    let mut parser = LowLevelJsonParser::new();
    let (mut consumed, mut received, mut sum) = (0, 0, 0usize);
    loop {
        let read = parser.parse_next(&json[consumed..received], received == json.len());
        consumed += read.consumed_bytes;
        match read.event {
            None => received = (received + chunk).min(json.len()),
            Some(Ok(JsonEvent::Eof)) => return sum,
            Some(Ok(JsonEvent::String(s) | JsonEvent::ObjectKey(s) | JsonEvent::Number(s))) => {
                sum += s.len()
            }
            Some(Ok(_)) => sum += 1,
            Some(Err(e)) => panic!("valid JSON: {e}"),
        }
    }
}

/// Hostile replies pushed a byte at a time, at two sizes to show the time grows linearly: a
/// token the reader waits on (a backtick run that may still become a fence) is counted on
/// from where it stopped, not again from its start at every chunk.
fn bench_adversarial(c: &mut Criterion) {
    let mut group = c.benchmark_group("stream-adversarial");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(300));
    for n in [100_000, 200_000] {
        let text = format!("```json\n[1, {}", "`".repeat(n));
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(
            BenchmarkId::new("backtick-run, 1-byte chunks", n),
            &text,
            |b, text| b.iter(|| pushed::<serde_json::Value>(black_box(text), 1)),
        );
    }
    // Records each with a trailing comma after a nested list: the first such closer waits
    // for the end of the reply, and every one after it is judged then, by one count of the
    // reply's brackets, not one per closer.
    for n in [100_000, 200_000] {
        let records = vec![r#"{"a": [1],}"#; n / 13].join(", ");
        let text = format!("[{records}]");
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(
            BenchmarkId::new("trailing commas after lists, 16-byte chunks", n),
            &text,
            |b, text| b.iter(|| streamed::<serde_json::Value>(black_box(text), 16)),
        );
    }
    // One line of members whose commas are missing after bare values: each value's word
    // ends at the next key's quote, not at the end of the line (read again per member).
    for n in [100_000, 200_000] {
        let members: Vec<String> = (0..n / 12).map(|i| format!("\"k{i}\": {i}")).collect();
        let text = format!("{{{}}}", members.join(" "));
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(
            BenchmarkId::new("members without commas on one line, 16-byte chunks", n),
            &text,
            |b, text| b.iter(|| streamed::<serde_json::Value>(black_box(text), 16)),
        );
    }
    // Keys no property has, against a schema of 256 properties, a snapshot after every
    // 16-byte chunk: each key is matched against the properties once, not at every snapshot.
    let props: serde_json::Map<String, serde_json::Value> = (0..256)
        .map(|i| (format!("p{i}"), serde_json::json!({"type": "integer"})))
        .collect();
    let schema = serde_json::json!({"type": "object", "properties": props});
    let schema = llm_extract::Schema::new(&schema).unwrap();
    for n in [250, 500] {
        let members: Vec<String> = (0..n).map(|i| format!("\"extra_{i}\": {i}")).collect();
        let text = format!("{{{}}}", members.join(", "));
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(
            BenchmarkId::new("unknown keys, schema of 256 properties, 16-byte chunks", n),
            &text,
            |b, text| b.iter(|| schema_streamed(&schema, black_box(text), 16)),
        );
    }
    group.finish();
}

/// The corpus of realistic damaged replies (`corpus`), each streamed as a `Value` in 16-byte
/// chunks with a snapshot after every chunk, then `finish`, against `extract` of each: what
/// streaming costs on replies as models write them, where `finish` reads again every reply
/// whose repairs the stream does not log itself.
fn bench_corpus(c: &mut Criterion) {
    let replies = corpus::replies(corpus::SEED, corpus::REPLIES);
    let bytes: usize = replies.iter().map(String::len).sum();
    let mut group = c.benchmark_group("stream-corpus");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(6));
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("extract", |b| {
        b.iter(|| {
            (replies.iter())
                .filter(|r| llm_extract::extract::<serde_json::Value>(black_box(r)).is_ok())
                .count()
        })
    });
    group.bench_function("16-byte chunks", |b| {
        b.iter(|| {
            (replies.iter())
                .filter(|r| {
                    let (stream, _) = pushed_stream::<serde_json::Value>(black_box(r), 16);
                    stream.finish().is_ok()
                })
                .count()
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_stream,
    bench_floor,
    bench_tokenizers,
    bench_adversarial,
    bench_corpus
);
criterion_main!(benches);
