//! `from_str::<T>` (derived `Extract`) against `serde_json::from_str::<T>` (derived
//! `Deserialize`) for the same types, on valid documents of three sizes, `from_str::<T>` on
//! messy replies, and the typed readings on adversarial shapes at N and 2N.
//!
//! Run: `cargo bench -p llm-extract --bench extract`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use llm_extract::Extract;
use serde::Deserialize;
use std::time::Duration;

mod common;

#[derive(Extract, Deserialize, Debug)]
#[allow(dead_code)] // fields are read by the benchmark only through black_box
struct ToolCall {
    #[serde(alias = "tool", alias = "name")]
    #[extract(alias = "tool", alias = "name")]
    tool_name: String,
    #[serde(alias = "params", default)]
    #[extract(alias = "params", default)]
    parameters: serde_json::Map<String, serde_json::Value>,
}

#[derive(Extract, Deserialize, Debug)]
#[allow(dead_code)] // fields are read by the benchmark only through black_box
struct Meta {
    x: Option<f64>,
    y: f64,
}

#[derive(Extract, Deserialize, Debug)]
#[allow(dead_code)] // fields are read by the benchmark only through black_box
struct Item {
    id: u64,
    name: String,
    price: f64,
    tags: Vec<String>,
    ok: bool,
    meta: Meta,
}

#[derive(Extract, Deserialize, Debug)]
#[allow(dead_code)] // fields are read by the benchmark only through black_box
struct Order {
    items: Vec<Item>,
    #[serde(default)]
    #[extract(default)]
    story: String,
}

const TOOL_CALL: &str =
    r#"{"tool_name": "search", "parameters": {"query": "Python tutorials", "limit": 10}}"#;

fn bench_valid(c: &mut Criterion) {
    let mut group = c.benchmark_group("extract_valid");
    group.throughput(Throughput::Bytes(TOOL_CALL.len() as u64));
    group.bench_function(BenchmarkId::new("serde_json", "small"), |b| {
        b.iter(|| serde_json::from_str::<ToolCall>(black_box(TOOL_CALL)).unwrap())
    });
    group.bench_function(BenchmarkId::new("llm_extract", "small"), |b| {
        b.iter(|| llm_extract::from_str::<ToolCall>(black_box(TOOL_CALL)).unwrap())
    });
    for (label, size) in [("medium", 10_000), ("large", 1_000_000)] {
        let doc = common::order_doc(size);
        group.throughput(Throughput::Bytes(doc.len() as u64));
        if size >= 1_000_000 {
            group
                .sample_size(10)
                .measurement_time(Duration::from_secs(5));
        }
        group.bench_with_input(BenchmarkId::new("serde_json", label), &doc, |b, d| {
            b.iter(|| serde_json::from_str::<Order>(black_box(d)).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("llm_extract", label), &doc, |b, d| {
            b.iter(|| llm_extract::from_str::<Order>(black_box(d)).unwrap())
        });
    }
    group.finish();
}

fn bench_messy(c: &mut Criterion) {
    let doc = common::order_doc(10_000);
    let replies: Vec<(&str, String)> = vec![
        ("tool-call-in-prose", "I'll search for that.\n\nTOOL_CALL {'tool': 'search', 'params': {'query': 'rust',}}\n\nLet me know.".to_string()),
        ("fenced", format!("Here is the JSON you asked for:\n```json\n{doc}\n```\nLet me know!")),
        ("single-quoted", doc.replace('"', "'")),
        ("coerced-values", doc.replace("{\"id\": ", "{\"id\": \"").replace(", \"name\"", "\", \"name\"").replacen("\"ok\": true", "\"ok\": \"yes\"", 50)),
        // Cut after a whole item, two thirds in: the open array and object are closed.
        ("truncated", {
            let cut = doc[..doc.len() * 2 / 3].rfind("}},").map_or(doc.len() / 2, |i| i + 3);
            doc[..cut].to_string()
        }),
    ];
    let mut group = c.benchmark_group("extract_messy");
    for (label, text) in &replies {
        group.throughput(Throughput::Bytes(text.len() as u64));
        if label.starts_with("tool") {
            group.bench_with_input(BenchmarkId::new("llm_extract", label), text, |b, t| {
                b.iter(|| llm_extract::from_str::<ToolCall>(black_box(t)).unwrap())
            });
        } else {
            group.bench_with_input(BenchmarkId::new("llm_extract", label), text, |b, t| {
                b.iter(|| llm_extract::from_str::<Order>(black_box(t)).unwrap())
            });
        }
    }
    group.finish();
}

#[derive(Extract, Debug)]
#[allow(dead_code)] // fields are read by the benchmark only through black_box
struct Leaf {
    x: u8,
}

#[derive(Extract, Debug)]
#[allow(dead_code)] // fields are read by the benchmark only through black_box
enum Color {
    Red,
    Green,
}

/// Shapes that the typed readings (decoding, unwrapping, gathering, lists in text, dropping a
/// cut-off item, prose braces) have to stay linear on.
fn typed_adversarial(kind: &str, n: usize) -> String {
    match kind {
        "unwrapped-items" => format!("[{}]", "{\"w\": {\"x\": \"1\"}},".repeat(n / 20)),
        "encoded-items" => format!("[{}]", "\"{\\\"x\\\": 1}\",".repeat(n / 12)),
        "values-to-gather" => "{\"x\": 1}\n".repeat(n / 9),
        "bullets" => "- red\n- green\n".repeat(n / 14),
        "truncated-list" => format!("[{}{{\"x\": ", "{\"x\": 1}, ".repeat(n / 10)),
        "prose-braces" => "Use the {name} placeholder. ".repeat(n / 28),
        _ => unreachable!(),
    }
}

/// Each shape at N and 2N: linear time shows as doubled time, not quadrupled.
fn bench_typed_adversarial(c: &mut Criterion) {
    let mut group = c.benchmark_group("extract_adversarial");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    let kinds = [
        "unwrapped-items",
        "encoded-items",
        "values-to-gather",
        "bullets",
        "truncated-list",
        "prose-braces",
    ];
    for kind in kinds {
        for n in [100_000, 200_000] {
            let text = typed_adversarial(kind, n);
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(BenchmarkId::new(kind, n), &text, |b, t| match kind {
                "bullets" => b.iter(|| llm_extract::from_str::<Vec<Color>>(black_box(t))),
                "prose-braces" => b.iter(|| llm_extract::from_str::<Leaf>(black_box(t))),
                _ => b.iter(|| llm_extract::from_str::<Vec<Leaf>>(black_box(t))),
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    targets = bench_valid, bench_messy, bench_typed_adversarial
}
criterion_main!(benches);
