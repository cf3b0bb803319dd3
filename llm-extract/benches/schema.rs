//! The two faces side by side: replies read against a `Schema` built from
//! `json_schema::<T>()` versus the derived type `T`, on the same replies.
//!
//! - `schema_orders`: the order documents of the `typed` bench (`Order`), valid and made
//!   messy (fence, prose, single quotes, `True`, a trailing comma), at 1 KB and 100 KB.
//!   Beside them, `serde_json_value`: the valid documents read by
//!   `serde_json::from_str::<Value>`, what building the same `Value` costs serde_json, and
//!   `serde_json_typed`: read by `serde_json::from_str::<Order>` (serde's derive).
//! - `schema_corpus`: the damaged corpus (4,000 replies of mixed shapes, cut-off ones among
//!   them) read as `serde_json::Value` and against the schema of `Value`.
//! - `schema_compile`: compiling the order schema, the cost paid once per schema: every
//!   reading above uses a `Schema` compiled before the timed loop.
//!
//! Run: `cargo bench -p llm-extract --bench schema`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use llm_extract::Schema;
use std::time::Duration;

#[allow(dead_code)] // `bench_repair` is the `repair` bench's
mod corpus;
mod orders;
use orders::Order;

fn order_schema() -> Schema {
    let schema = llm_extract::json_schema::<Order>().to_value();
    let compiled = Schema::new(&schema).expect("the order schema compiles");
    assert!(compiled.unsupported().is_empty(), "{compiled:?}");
    compiled
}

fn bench_orders(c: &mut Criterion) {
    let schema = order_schema();
    let mut group = c.benchmark_group("schema_orders");
    group.measurement_time(Duration::from_secs(3));
    for (label, size) in [("1KB", 1_000), ("100KB", 100_000)] {
        let valid = orders::valid(size);
        let messy = orders::messy(&valid);
        for (kind, doc) in [("valid", valid), ("messy", messy)] {
            // Both faces read every document (outside the timing, once).
            llm_extract::from_str::<Order>(&doc).expect("the derived type reads it");
            llm_extract::from_str_with(&schema, &doc).expect("the schema reads it");
            let id = format!("{kind}/{label}");
            group.throughput(Throughput::Bytes(doc.len() as u64));
            group.bench_with_input(BenchmarkId::new("derived", &id), &doc, |b, d| {
                b.iter(|| llm_extract::from_str::<Order>(black_box(d)).unwrap())
            });
            group.bench_with_input(BenchmarkId::new("schema", &id), &doc, |b, d| {
                b.iter(|| llm_extract::from_str_with(&schema, black_box(d)).unwrap())
            });
            // The floor of a reading that builds a `serde_json::Value`: serde_json's own,
            // beside serde_json reading the same document into `Order` (their ratio is what
            // building a `Value` costs by itself).
            if kind == "valid" {
                group.bench_with_input(BenchmarkId::new("serde_json_value", &id), &doc, |b, d| {
                    b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(d)).unwrap())
                });
                group.bench_with_input(BenchmarkId::new("serde_json_typed", &id), &doc, |b, d| {
                    b.iter(|| serde_json::from_str::<Order>(black_box(d)).unwrap())
                });
            }
        }
    }
    group.finish();
}

fn bench_corpus(c: &mut Criterion) {
    let replies = corpus::replies(corpus::SEED, corpus::REPLIES);
    let schema = Schema::new(&llm_extract::json_schema::<serde_json::Value>().to_value())
        .expect("the schema of Value compiles");
    let derived_ok = replies
        .iter()
        .filter(|r| llm_extract::from_str::<serde_json::Value>(r).is_ok())
        .count();
    let schema_ok = replies
        .iter()
        .filter(|r| llm_extract::from_str_with(&schema, r).is_ok())
        .count();
    assert_eq!(derived_ok, schema_ok, "both faces read the same replies");
    let bytes: usize = replies.iter().map(String::len).sum();
    let mut group = c.benchmark_group("schema_corpus");
    group
        .throughput(Throughput::Bytes(bytes as u64))
        .sample_size(20)
        .measurement_time(Duration::from_secs(5));
    group.bench_function("derived", |b| {
        b.iter(|| {
            replies
                .iter()
                .filter(|r| llm_extract::from_str::<serde_json::Value>(black_box(r)).is_ok())
                .count()
        })
    });
    group.bench_function("schema", |b| {
        b.iter(|| {
            replies
                .iter()
                .filter(|r| llm_extract::from_str_with(&schema, black_box(r)).is_ok())
                .count()
        })
    });
    group.finish();
}

fn bench_compile(c: &mut Criterion) {
    let schema = llm_extract::json_schema::<Order>().to_value();
    let mut group = c.benchmark_group("schema_compile");
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("order", |b| {
        b.iter(|| Schema::new(black_box(&schema)).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench_orders, bench_corpus, bench_compile);
criterion_main!(benches);
