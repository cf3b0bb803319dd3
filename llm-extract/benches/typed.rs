//! Typed extraction against serde: `llm_extract::from_str::<Order>` vs
//! `serde_json::from_str::<Order>` (serde's derive) on valid documents of 1 KB, 100 KB and
//! 10 MB, and vs `repair` + `serde_json::from_value::<Order>` on the same documents made messy
//! (with `extract::<Order>` beside them: the same read keeping the report).
//! Valid documents take the direct path (`Extract::read_direct`); messy ones the full path.
//! `typed_fenced` is valid JSON in a fence with prose around it (the direct path on the one
//! candidate), and `typed-adversarial` holds hostile shapes for the typed readers, each at
//! two sizes to show the time grows linearly.
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
        // The same read keeping the report: every repair and coercion with its path and position.
        group.bench_with_input(BenchmarkId::new("extract", label), &doc, |b, d| {
            b.iter(|| llm_extract::extract::<Order>(black_box(d)).unwrap())
        });
    }
    group.finish();
}

fn bench_fenced(c: &mut Criterion) {
    let mut group = c.benchmark_group("typed_fenced");
    let doc = orders::valid(100_000);
    let fenced = format!("Here is the order:\n```json\n{doc}\n```\nAnything else?");
    group.throughput(Throughput::Bytes(fenced.len() as u64));
    group.bench_with_input(BenchmarkId::new("serde_json", "100KB"), &doc, |b, d| {
        b.iter(|| serde_json::from_str::<Order>(black_box(d)).unwrap())
    });
    group.bench_with_input(
        BenchmarkId::new("repair+from_value", "100KB"),
        &fenced,
        |b, d| {
            b.iter(|| {
                let value = llm_extract::repair(black_box(d)).unwrap();
                serde_json::from_value::<Order>(value).unwrap()
            })
        },
    );
    group.bench_with_input(BenchmarkId::new("llm_extract", "100KB"), &fenced, |b, d| {
        b.iter(|| llm_extract::from_str::<Order>(black_box(d)).unwrap())
    });
    group.finish();
}

/// What the full path's tree costs against serde_json's own tree, on the valid document:
/// `__internal::parse` builds the `Node` tree (strings borrowed from the text, spans, entries
/// in order) that the full path reads from.
fn bench_tree(c: &mut Criterion) {
    let mut group = c.benchmark_group("tree");
    let doc = orders::valid(100_000);
    group.throughput(Throughput::Bytes(doc.len() as u64));
    group.bench_with_input(
        BenchmarkId::new("serde_json::Value", "100KB"),
        &doc,
        |b, d| b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(d)).unwrap()),
    );
    group.bench_with_input(
        BenchmarkId::new("llm_extract Node", "100KB"),
        &doc,
        |b, d| {
            b.iter(|| {
                llm_extract::__internal::parse(black_box(d), 128)
                    .unwrap()
                    .end
            })
        },
    );
    group.finish();
}

/// A recursive type with an untagged choice, for the deep and choice-heavy shapes.
#[derive(llm_extract::Extract, Debug)]
#[allow(dead_code)]
struct Node {
    children: Vec<Node>,
}

/// Taken apart level by level: the derived drop would recurse once per level.
impl Drop for Node {
    fn drop(&mut self) {
        let mut stack = std::mem::take(&mut self.children);
        while let Some(mut node) = stack.pop() {
            stack.append(&mut node.children);
        }
    }
}

#[derive(llm_extract::Extract, Debug)]
#[allow(dead_code)]
#[extract(untagged)]
enum Cell {
    Number(i64),
    Pair(i64, i64),
    Named { name: String },
}

/// Hostile documents for the typed readers, about `n` bytes each.
fn typed_adversarial(kind: &str, n: usize) -> String {
    let item = "{\"sku\": \"S\", \"name\": \"N\", \"qty\": 1, \"price\": 1.5, \"gift\": false, \"discount\": null}";
    let items = |item: &str| vec![item; n / item.len()].join(", ");
    let order = |items: String| {
        format!("{{\"id\": 1, \"customer\": \"C\", \"status\": \"paid\", \"items\": [{items}], \"notes\": null, \"paid\": true, \"total\": 1, \"coupon\": null}}")
    };
    match kind {
        // The direct path reads almost all of it, then gives up at the last item.
        "late-leniency" => order(format!(
            "{}, {}",
            items(item),
            item.replace("1.5", "\"1.5\"")
        )),
        "numbers-as-strings" => order(items(&item.replace("1.5", "\"1.5\""))),
        "normalized-keys" => order(items(&item.replace("\"qty\"", "\"Qty\""))),
        "unknown-keys" => order(items(&item.replace("}", ", \"extra\": [1, {\"a\": 2}]}"))),
        "duplicate-keys" => order(items(&item.replace("}", ", \"qty\": 2}"))),
        "truncated" => {
            let doc = order(items(item));
            doc[..doc.len() * 2 / 3].to_string()
        }
        "single-quoted" => order(items(item)).replace('"', "'"),
        "open-braces" => "{".repeat(n),
        "untagged-cells" => format!("[{}]", vec!["{\"name\": \"x\"}"; n / 15].join(", ")),
        _ => unreachable!(),
    }
}

fn bench_adversarial(c: &mut Criterion) {
    let mut group = c.benchmark_group("typed-adversarial");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(300));
    for kind in [
        "late-leniency",
        "numbers-as-strings",
        "normalized-keys",
        "unknown-keys",
        "duplicate-keys",
        "truncated",
        "single-quoted",
        "open-braces",
    ] {
        for n in [1_000_000, 2_000_000] {
            let text = typed_adversarial(kind, n);
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(BenchmarkId::new(kind, n), &text, |b, t| {
                b.iter(|| llm_extract::from_str::<Order>(black_box(t)).is_ok())
            });
        }
    }
    for n in [1_000_000, 2_000_000] {
        let text = typed_adversarial("untagged-cells", n);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("untagged-cells", n), &text, |b, t| {
            b.iter(|| llm_extract::from_str::<Vec<Cell>>(black_box(t)).is_ok())
        });
    }
    // Many candidates, each read with repairs (an unclosed object in each fence): the
    // repairs' line:column are worked out for the winner only. Working them out for every
    // candidate read was one pass over the text per candidate: 1.7 s at 1.6 MB.
    for n in [1_000_000, 2_000_000] {
        let text = "```json\n{\n```\n".repeat(n / 14);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("fenced-fragments", n), &text, |b, t| {
            b.iter(|| llm_extract::extract::<serde_json::Value>(black_box(t)).is_ok())
        });
    }
    // A recursive type nested far past the default limit, with the limit raised: past the
    // direct path's depth the full path reads it, growing its stack on the heap.
    for n in [50_000, 100_000] {
        let text = format!("{}{}", "{\"children\": [".repeat(n), "]}".repeat(n));
        let deep = llm_extract::Extractor::new().max_depth(usize::MAX);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("nested-raised-limit", n), &text, |b, t| {
            b.iter(|| {
                let value = deep.from_str::<Node>(black_box(t)).map(|_| ());
                value.is_ok()
            })
        });
    }
    // One-key wrappers around a struct with a required field, nested far past the default
    // limit (`{"a": {"a": ... {"n": 7} ...}}`): each level is read as its value, once.
    #[derive(llm_extract::Extract, Debug)]
    #[allow(dead_code)]
    struct Wrapped {
        n: u32,
        inner: Option<Box<Wrapped>>,
    }
    for n in [10_000, 20_000] {
        let text = format!("{}{{\"n\": 7}}{}", "{\"a\": ".repeat(n), "}".repeat(n));
        let deep = llm_extract::Extractor::new().max_depth(usize::MAX);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("wrapper-chain", n), &text, |b, t| {
            b.iter(|| deep.from_str::<Wrapped>(black_box(t)).is_ok())
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = bench_valid, bench_messy, bench_fenced, bench_tree, bench_adversarial
}
criterion_main!(benches);
