//! `tool::StreamCalls` fed 16-byte chunks against one read of the whole reply
//! (`tool::tool_calls`), on many calls (N and 2N Hermes calls) and on one long call (a 1 MB
//! and a 2 MB argument string): the ratio is the price of streaming, and 2N against N shows
//! the cost stays linear.
//!
//! Run: `cargo bench -p llm-extract --bench tool_stream`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use llm_extract::tool::{self, StreamCalls, ToolCall};
use std::time::Duration;

fn hermes_calls(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!("<tool_call>\n{{\"name\": \"search\", \"arguments\": {{\"q\": \"query {i}\", \"limit\": 10}}}}\n</tool_call>\n")
        })
        .collect()
}

fn one_long_call(bytes: usize) -> String {
    let words = "lorem ipsum dolor sit amet, {consectetur} [adipiscing] elit; ";
    let argument = words.repeat(bytes / words.len());
    format!("<tool_call>\n{{\"name\": \"write_file\", \"arguments\": {{\"path\": \"a.txt\", \"content\": \"{argument}\"}}}}\n</tool_call>")
}

fn streamed(text: &str) -> usize {
    let mut stream = StreamCalls::<ToolCall>::new();
    let mut n = 0;
    for chunk in text.as_bytes().chunks(16) {
        n += stream.push_bytes(chunk).len();
    }
    n + stream.finish().map_or(0, |rest| rest.len())
}

fn bench_stream(c: &mut Criterion) {
    let mut group = c.benchmark_group("tool_stream");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1));
    let inputs = [
        ("hermes_calls/1000", hermes_calls(1_000), 1_000),
        ("hermes_calls/2000", hermes_calls(2_000), 2_000),
        ("one_call_argument/1MB", one_long_call(1 << 20), 1),
        ("one_call_argument/2MB", one_long_call(2 << 20), 1),
    ];
    for (name, text, calls) in &inputs {
        assert_eq!(streamed(text), *calls, "{name}");
        assert_eq!(tool::tool_calls(text).len(), *calls, "{name}");
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("whole", name), text, |b, text| {
            b.iter(|| tool::tool_calls(black_box(text)).len())
        });
        group.bench_with_input(
            BenchmarkId::new("stream_16_byte_chunks", name),
            text,
            |b, text| b.iter(|| streamed(black_box(text))),
        );
    }
    group.finish();
}

criterion_group!(benches, bench_stream);
criterion_main!(benches);
