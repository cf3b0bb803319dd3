//! `repair` against serde_json on valid JSON, throughput on messy replies, and adversarial
//! inputs at size N and 2N (linear time shows as doubled time, not quadrupled), for `repair`
//! and for the tool-call reader.
//!
//! Run: `cargo bench -p llm-extract --bench repair`; the realistic damaged replies alone, against
//! an older commit: `scripts/bench-against <commit>`.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::time::Duration;

mod common;
mod corpus;

fn bench_valid(c: &mut Criterion) {
    let mut group = c.benchmark_group("valid");
    for (label, size) in [("1KB", 1_000), ("100KB", 100_000), ("10MB", 10_000_000)] {
        let doc = common::order_doc(size);
        group.throughput(Throughput::Bytes(doc.len() as u64));
        if size >= 1_000_000 {
            group
                .sample_size(10)
                .measurement_time(Duration::from_secs(4));
        }
        group.bench_with_input(BenchmarkId::new("serde_json", label), &doc, |b, d| {
            b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(d)).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("repair", label), &doc, |b, d| {
            b.iter(|| llm_extract::repair(black_box(d)).unwrap())
        });
    }
    group.finish();
}

/// A reply-shaped document: a few fields with sentences in them, as models mostly write.
fn prose_doc(bytes: usize) -> String {
    let sentence = "The quick brown fox jumps over the lazy dog, then writes a summary of it. ";
    let mut out = String::from("{\"title\": \"Report\", \"sections\": [");
    let mut i = 0;
    while out.len() < bytes {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!(
            "{{\"heading\": \"Part {i}\", \"body\": \"{}\", \"score\": {}}}",
            sentence.repeat(6),
            i % 10
        ));
        i += 1;
    }
    out.push_str("]}");
    out
}

fn messy_inputs() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (shape, doc) in [
        ("records", common::order_doc(100_000)),
        ("prose", prose_doc(100_000)),
    ] {
        for (label, text) in messy_variants(&doc) {
            out.push((format!("{shape}/{label}"), text));
        }
    }
    out
}

fn messy_variants(doc: &str) -> Vec<(&'static str, String)> {
    let single = doc.replace('"', "'");
    let commented = doc
        .replace("\"ok\": true,", "\"ok\": true, // checked\n")
        .replace(", \"score\"", ", // scored\n\"score\"");
    let mut cut = doc.len() * 2 / 3;
    while !doc.is_char_boundary(cut) {
        cut -= 1;
    }
    let truncated = doc[..cut].to_string();
    vec![
        (
            "fenced",
            format!("Here is the JSON you asked for:\n```json\n{doc}\n```\nLet me know!"),
        ),
        (
            "prose-wrapped",
            format!("Sure! The result is {doc} and that is all."),
        ),
        ("commented", commented),
        ("truncated", truncated),
        ("single-quoted", single),
        (
            "python-literals",
            doc.replace("true", "True").replace("null", "None"),
        ),
    ]
}

fn bench_messy(c: &mut Criterion) {
    let mut group = c.benchmark_group("messy");
    for (label, text) in messy_inputs() {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("repair", &label), &text, |b, t| {
            b.iter(|| llm_extract::repair(black_box(t)).unwrap())
        });
    }
    // The bound: serde_json building the same `Value` from the *valid* documents. A reader that
    // returns a `serde_json::Value` pays at least its building (the heap strings, the hashed
    // inserts of `preserve_order`), so the damaged members cannot go far below these.
    for (shape, doc) in [
        ("records", common::order_doc(100_000)),
        ("prose", prose_doc(100_000)),
    ] {
        group.throughput(Throughput::Bytes(doc.len() as u64));
        group.bench_with_input(
            BenchmarkId::new("serde_json (valid, the bound)", shape),
            &doc,
            |b, d| b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(d)).unwrap()),
        );
    }
    group.finish();
}

fn adversarial(kind: &str, n: usize) -> String {
    match kind {
        "open-braces" => "{".repeat(n),
        "open-brackets" => "[".repeat(n),
        "quotes" => "\"".repeat(n),
        "key-colon" => "{\"a\":".repeat(n / 5),
        "backslashes" => "\\".repeat(n),
        "unclosed-string" => format!("{{\"a\": \"{}", "x".repeat(n)),
        "closers" => format!("{}{}", "[".repeat(n / 2), "}".repeat(n / 2)),
        "commas-in-string" => format!("{{\"a\": \"{}", "x\", ".repeat(n / 4)),
        "commas" => format!("[{}", ",".repeat(n)),
        "think-tags" => "<think>".repeat(n / 7),
        "json-lines" => "{\"a\":1}\n".repeat(n / 8),
        "bracket-pairs" => "[]".repeat(n / 2),
        // Markup inside values and prose: each fence, tag, quote and comment read once.
        "prose-quotes" => "It's \"{x}\" and don't {name} ".repeat(n / 30),
        "fences-in-string" => format!("{{\"a\": \"{}", "```py\n[1]\n```\n".repeat(n / 16)),
        "fences-in-prose" => "```\n{\"a\": 1}\n```\n".repeat(n / 17),
        "inline-fences" => "```x ".repeat(n / 5),
        "tags-in-string" => format!("{{\"a\": \"{}", "<json>[1]</json>".repeat(n / 16)),
        "comments" => format!("{{{}", "\"a\": 1, // }]\n/* ] */ # }\n".repeat(n / 28)),
        "unicode-spaces" => format!("[{}]", "\u{3000}1,\u{feff}".repeat(n / 8)),
        // The parser's reading rules: each shape makes one rule fire at every step.
        "wrong-closers" => format!("{{\"k\": {}", "[1}, ".repeat(n / 5)),
        "early-root-closers" => format!("{{\"a\": 1{}", "}, \"b\": 1".repeat(n / 10)),
        "stray-closers-in-records" => format!("[{}", "{\"i\": 1}}, \"n\": 2}, ".repeat(n / 20)),
        "missing-record-braces" => format!("[{{\"i\": 1{}", "}, \"i\": 1".repeat(n / 10)),
        "closers-in-strings" => format!("[{}", "{\"a\": \"x}, ".repeat(n / 10)),
        "unicode-spaces-open" => format!("[{}", "1,\u{3000}\u{a0}".repeat(n / 7)),
        "triple-quotes" => format!("{{\"a\": \"\"\"{}", "x\"".repeat(n / 2)),
        "code-fences-in-string" => {
            format!("{{\"a\": \"{}", "```js\n\"}, \"b\": 1\n".repeat(n / 16))
        }
        "thousands" => format!("{{\"a\": 1{}", ",000".repeat(n / 4)),
        "stray-words" => format!("{{\"a\": \"x\"{}", ", and \"b\": \"y\"".repeat(n / 16)),
        // Comments that end at a closer, all on one line: the line break is searched once.
        "comment-closers-one-line" => format!("[{}", "[1 // ] ".repeat(n / 8)),
        // Items after strings with their commas missing, bare words closed by stray quotes.
        "items-after-strings" => format!("[{}", "\"a\" b\", \"c\" 1 ".repeat(n / 16)),
        // Quotes in a bare value, each looked at as the next key.
        "quotes-in-bare-value" => format!("{{\"a\": x{}", " \"k".repeat(n / 3)),
        // Four quotes that never close as three, then empty strings.
        "four-quotes" => format!("[\"\"\"\" {}", "\"\" ".repeat(n / 3)),
        // Parts joined by `+` with comments between.
        "concatenation-comments" => format!("[{}", "\"a\" + /*c*/ ".repeat(n / 12)),
        _ => unreachable!(),
    }
}

fn bench_adversarial(c: &mut Criterion) {
    let mut group = c.benchmark_group("adversarial");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    let kinds = [
        "open-braces",
        "open-brackets",
        "quotes",
        "key-colon",
        "backslashes",
        "unclosed-string",
        "closers",
        "commas-in-string",
        "commas",
        "think-tags",
        "json-lines",
        "bracket-pairs",
        "prose-quotes",
        "fences-in-string",
        "fences-in-prose",
        "inline-fences",
        "tags-in-string",
        "comments",
        "unicode-spaces",
        "wrong-closers",
        "early-root-closers",
        "stray-closers-in-records",
        "missing-record-braces",
        "closers-in-strings",
        "unicode-spaces-open",
        "triple-quotes",
        "code-fences-in-string",
        "thousands",
        "stray-words",
        "comment-closers-one-line",
        "items-after-strings",
        "quotes-in-bare-value",
        "four-quotes",
        "concatenation-comments",
    ];
    for kind in kinds {
        for n in [1_000_000, 2_000_000] {
            let text = adversarial(kind, n);
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(BenchmarkId::new(kind, n), &text, |b, t| {
                b.iter(|| llm_extract::repair(black_box(t)))
            });
            group.bench_with_input(
                BenchmarkId::new(format!("{kind}/repair_all"), n),
                &text,
                |b, t| b.iter(|| llm_extract::repair_all(black_box(t))),
            );
        }
    }
    // Nesting far past the default limit, with the limit raised: the parser's explicit stack
    // takes it without recursion.
    for n in [100_000, 200_000] {
        let text = format!("{}{}", "[".repeat(n), "]".repeat(n));
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(
            BenchmarkId::new("nested-arrays-raised-limit", n),
            &text,
            |b, t| {
                b.iter(|| llm_extract::__internal::parse(black_box(t), usize::MAX).map(|p| p.end))
            },
        );
        group.bench_with_input(
            BenchmarkId::new("nested-arrays-default-limit", n),
            &text,
            |b, t| b.iter(|| llm_extract::repair(black_box(t))),
        );
    }
    group.finish();
}

/// Hostile replies for the tool-call reader: thousands of markers left unclosed, in every
/// family's syntax, at N and 2N bytes.
fn tool_adversarial(kind: &str, n: usize) -> String {
    let unit = match kind {
        "tool-call-tags" => "<tool_call>{",
        "function-tags" => "<function=f><parameter=a>",
        "mistral-args" => "[TOOL_CALLS]f[ARGS]{\"a\": ",
        "deepseek-begin" => "<｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{",
        "harmony-headers" => "<|channel|>commentary to=functions.f <|message|>{",
        "pythonic-opens" => "[f(a=",
        "invoke-tags" => "<invoke name=\"f\"><parameter name=\"a\">",
        "think-then-calls" => "<think><tool_call>",
        _ => unreachable!(),
    };
    unit.repeat(n / unit.len())
}

fn bench_tool_adversarial(c: &mut Criterion) {
    let mut group = c.benchmark_group("tool-adversarial");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    for kind in [
        "tool-call-tags",
        "function-tags",
        "mistral-args",
        "deepseek-begin",
        "harmony-headers",
        "pythonic-opens",
        "invoke-tags",
        "think-then-calls",
    ] {
        for n in [1_000_000, 2_000_000] {
            let text = tool_adversarial(kind, n);
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(BenchmarkId::new(kind, n), &text, |b, t| {
                b.iter(|| llm_extract::tool::read(black_box(t)).calls.len())
            });
        }
    }
    group.finish();
}

criterion_group!(
    benches,
    bench_valid,
    bench_messy,
    corpus::bench_repair,
    bench_adversarial,
    bench_tool_adversarial
);
criterion_main!(benches);
