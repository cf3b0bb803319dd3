//! Typed extraction against serde: `llm_extract::from_str::<Order>` vs
//! `serde_json::from_str::<Order>` (serde's derive) on valid documents of 1 KB, 100 KB and
//! 10 MB, and vs `repair` + `serde_json::from_value::<Order>` on the same documents made messy.
//! The baseline of issue #11 (before the lean representation).
//!
//! Run: `cargo bench -p llm-extract --bench typed`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::time::Duration;

mod orders;
use orders::Order;

const SIZES: [(&str, usize); 3] = [("1KB", 1_000), ("100KB", 100_000), ("10MB", 10_000_000)];

fn bench_valid(c: &mut Criterion) {
    let mut group = c.benchmark_group("typed_valid");
    for (label, size) in SIZES {
        let doc = orders::valid(size);
        group.throughput(Throughput::Bytes(doc.len() as u64));
        if size >= 10_000_000 {
            group
                .sample_size(10)
                .measurement_time(Duration::from_secs(8));
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
    let mut group = c.benchmark_group("typed_messy");
    for (label, size) in SIZES {
        let doc = orders::messy(&orders::valid(size));
        group.throughput(Throughput::Bytes(doc.len() as u64));
        if size >= 10_000_000 {
            group
                .sample_size(10)
                .measurement_time(Duration::from_secs(8));
        }
        group.bench_with_input(
            BenchmarkId::new("repair+from_value", label),
            &doc,
            |b, d| {
                b.iter(|| {
                    let value = llm_extract::repair(black_box(d)).unwrap();
                    serde_json::from_value::<Order>(value).unwrap()
                })
            },
        );
        group.bench_with_input(BenchmarkId::new("llm_extract", label), &doc, |b, d| {
            b.iter(|| llm_extract::from_str::<Order>(black_box(d)).unwrap())
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = bench_valid, bench_messy
}
criterion_main!(benches);
