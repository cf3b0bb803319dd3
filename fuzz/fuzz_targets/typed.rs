//! The typed path: derived types (nested, recursive, untagged and internally tagged enums,
//! maps, validation rules) read from fuzzer-built JSON that uses their field and variant
//! names, rendered with damage, and from raw bytes. No panic, no stack overflow, no hang;
//! every span in a report lies in the text.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use llm_extract::{Extract, Extracted, Extractor};
use std::collections::{BTreeMap, HashMap};

#[derive(Extract, Debug)]
#[allow(dead_code)] // fields are only built
struct Order {
    id: u64,
    #[extract(alias = "items", min_len = 1, max_len = 50)]
    lines: Vec<Line>,
    status: Status,
    note: Option<String>,
    #[extract(default)]
    tags: BTreeMap<String, u32>,
    /// Recursion through a struct field.
    parent: Option<Box<Order>>,
    #[extract(default)]
    shape: Option<Shape>,
    #[extract(default)]
    events: Vec<Event>,
    #[extract(catch)]
    priority: u8,
    #[extract(default)]
    extra: serde_json::Value,
}

#[derive(Extract, Debug)]
#[allow(dead_code)]
#[extract(rename_all = "camelCase")]
struct Line {
    #[extract(min_len = 1, pattern = "^[a-z0-9-]+$")]
    sku_code: String,
    #[extract(min = 1, max = 1000)]
    qty: u32,
    #[extract(validate = positive)]
    unit_price: f64,
    #[extract(one_of = ["kg", "pcs", "m"], default)]
    unit: String,
}

fn positive(price: &f64) -> Result<(), String> {
    if *price >= 0.0 {
        Ok(())
    } else {
        Err("a price is not negative".into())
    }
}

#[derive(Extract, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Status {
    Open,
    #[extract(alias = "sent")]
    Shipped,
    Cancelled,
    #[extract(other)]
    Unknown,
}

/// Untagged and recursive: every reading is tried.
#[derive(Extract, Debug)]
#[allow(dead_code)]
#[extract(untagged)]
enum Shape {
    Point(f64, f64),
    Circle { radius: f64 },
    Label(String),
    Group(Vec<Shape>),
}

/// Internally tagged, with a recursive newtype variant and a struct variant.
#[derive(Extract, Debug)]
#[allow(dead_code)]
#[extract(tag = "kind")]
enum Event {
    Created { at: u64 },
    Moved { from: String, to: String },
    Wrapped(Box<Wrapper>),
    Tagged(BTreeMap<String, Status>),
}

#[derive(Extract, Debug)]
#[allow(dead_code)]
struct Wrapper {
    inner: Option<Event>,
    #[extract(default)]
    note: String,
}

/// Adjacently tagged, the shape of a tool call.
#[derive(Extract, Debug)]
#[allow(dead_code)]
#[extract(tag = "name", content = "arguments")]
enum Tool {
    Search {
        query: String,
        #[extract(default, max = 100)]
        limit: u32,
    },
    Order(Order),
    Stop,
}

/// Names the types use, so the fuzzer's documents reach past key matching.
const NAMES: &[&str] = &[
    "id",
    "lines",
    "items",
    "status",
    "note",
    "tags",
    "parent",
    "shape",
    "events",
    "priority",
    "extra",
    "skuCode",
    "sku_code",
    "SKU-CODE",
    "qty",
    "unitPrice",
    "unit",
    "radius",
    "kind",
    "at",
    "from",
    "to",
    "inner",
    "name",
    "arguments",
    "query",
    "limit",
    "Open",
    "shipped",
    "sent",
    "Cancelled",
    "Created",
    "moved",
    "Wrapped",
    "Tagged",
    "Search",
    "order",
    "Stop",
    "kg",
    "pcs",
    "m",
    "x-1",
    "",
];

/// A JSON-like document, its strings mostly the names above.
#[derive(Arbitrary, Debug)]
enum Doc {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    /// Digits beyond `u64`.
    Big(u8),
    Name(u8),
    Text(String),
    Array(Vec<Doc>),
    Object(Vec<(Key, Doc)>),
}

#[derive(Arbitrary, Debug)]
enum Key {
    Name(u8),
    Text(String),
}

/// What is done to the rendered document, in order.
#[derive(Arbitrary, Debug)]
enum Damage {
    SingleQuotes,
    UnquotedKeys,
    PythonLiterals,
    TrailingCommas,
    Fence,
    Prose,
    Comment(u16),
    Truncate(u16),
    DropByte(u16),
    Repeat,
}

#[derive(Arbitrary, Debug)]
struct Case {
    doc: Doc,
    damage: Vec<Damage>,
    /// A document deeper than the fuzzer builds cheaply: 4 times this many `parent`s.
    nest: u8,
}

fn name(i: u8) -> &'static str {
    NAMES[i as usize % NAMES.len()]
}

fn render(doc: &Doc, out: &mut String, budget: &mut usize) {
    if *budget == 0 {
        out.push_str("null");
        return;
    }
    *budget -= 1;
    match doc {
        Doc::Null => out.push_str("null"),
        Doc::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Doc::Int(i) => out.push_str(&i.to_string()),
        Doc::Float(f) if f.is_finite() => out.push_str(&f.to_string()),
        Doc::Float(_) => out.push_str("NaN"),
        Doc::Big(n) => out.push_str(&format!("{}{}", u64::MAX, n)),
        Doc::Name(i) => out.push_str(&serde_json::to_string(name(*i)).unwrap()),
        Doc::Text(s) => out.push_str(&serde_json::to_string(s).unwrap()),
        Doc::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                render(item, out, budget);
            }
            out.push(']');
        }
        Doc::Object(entries) => {
            out.push('{');
            for (i, (key, value)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let key = match key {
                    Key::Name(n) => name(*n).to_string(),
                    Key::Text(t) => t.clone(),
                };
                out.push_str(&serde_json::to_string(&key).unwrap());
                out.push_str(": ");
                render(value, out, budget);
            }
            out.push('}');
        }
    }
}

fn at(text: &str, n: u16) -> usize {
    let mut i = if text.is_empty() {
        0
    } else {
        n as usize % (text.len() + 1)
    };
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn damage(mut text: String, damage: &[Damage]) -> String {
    for d in damage.iter().take(8) {
        text = match d {
            Damage::SingleQuotes => text.replace('"', "'"),
            Damage::UnquotedKeys => text
                .replace("\": ", ": ")
                .replace(", \"", ", ")
                .replace("{\"", "{"),
            Damage::PythonLiterals => text.replace("true", "True").replace("null", "None"),
            Damage::TrailingCommas => text.replace(']', ",]").replace('}', ",}"),
            Damage::Fence => format!("Here you go:\n```json\n{text}\n```\nAnything else?"),
            Damage::Prose => format!("<think>the order {{id}}</think>The result is {text}. Done."),
            Damage::Comment(n) => {
                let i = at(&text, *n);
                format!("{} // note\n{}", &text[..i], &text[i..])
            }
            Damage::Truncate(n) => text[..at(&text, *n)].to_string(),
            Damage::DropByte(n) => {
                let i = at(&text, *n);
                let mut t = text.clone();
                if i < t.len() {
                    t.remove(i);
                }
                t
            }
            Damage::Repeat if text.len() < 4096 => format!("{text}\n{text}"),
            Damage::Repeat => text,
        };
    }
    text
}

/// A valid document `levels` deep through `parent`, every field given: a defaulted field is a
/// coercion, and each coercion records its full path, so a default on every level would make
/// the report (not the reading) quadratic in the depth.
fn nested(levels: usize) -> String {
    let order = "{\"id\": 1, \"lines\": [{\"skuCode\": \"a\", \"qty\": 1, \"unitPrice\": 2, \"unit\": \"kg\"}], \"status\": \"Open\", \"note\": null, \"tags\": {}, \"shape\": null, \"events\": [], \"priority\": 1, \"extra\": null";
    let mut text = String::new();
    for _ in 0..levels {
        text.push_str(order);
        text.push_str(", \"parent\": ");
    }
    text.push_str("null");
    for _ in 0..levels {
        text.push('}');
    }
    text
}

fn check<T>(text: &str, out: &Result<Extracted<T>, llm_extract::Error>) {
    match out {
        Ok(e) => {
            for r in &e.report.repairs {
                assert!(
                    r.span.start <= r.span.end && r.span.end <= text.len(),
                    "{r:?}"
                );
            }
            for c in &e.report.coercions {
                assert!(
                    c.span.start <= c.span.end && c.span.end <= text.len(),
                    "{c:?}"
                );
            }
        }
        Err(err) => {
            assert!(!err.issues().is_empty() || !err.to_string().is_empty());
            let _ = err.feedback();
            for issue in err.issues() {
                if let Some(span) = issue.span {
                    assert!(
                        span.start <= span.end && span.end <= text.len(),
                        "{issue:?}"
                    );
                }
            }
        }
    }
}

/// The direct path gives what the full path gives: value, report and error.
fn same_on_both_paths<T: Extract + std::fmt::Debug>(text: &str, e: &Extractor) {
    let direct = e.extract::<T>(text);
    let full = e.clone().without_direct_path().extract::<T>(text);
    match (&direct, &full) {
        (Ok(a), Ok(b)) => {
            assert_eq!(format!("{:?}", a.value), format!("{:?}", b.value));
            let report = |r| serde_json::to_string(r).expect("a report serializes");
            assert_eq!(report(&a.report), report(&b.report));
        }
        (Err(a), Err(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}")),
        _ => panic!("the paths disagree: {direct:?} vs {full:?}"),
    }
}

fn read_all(text: &str) {
    let deep = Extractor::new().max_depth(1 << 20);
    same_on_both_paths::<Order>(text, &Extractor::new());
    // A `BTreeMap`: a `HashMap`'s Debug order differs between two equal maps.
    same_on_both_paths::<BTreeMap<String, Vec<Line>>>(text, &Extractor::new().max_depth(4));
    check(text, &llm_extract::extract::<Order>(text));
    check(text, &deep.extract::<Order>(text));
    check(text, &llm_extract::extract::<Vec<Event>>(text));
    check(text, &llm_extract::extract::<Shape>(text));
    check(text, &llm_extract::extract::<Tool>(text));
    check(text, &llm_extract::extract::<HashMap<String, Line>>(text));
    check(text, &llm_extract::extract::<(Status, Option<u8>)>(text));
    let _ = llm_extract::from_str_all::<Line>(text);
    let _ = deep.require_complete().extract_all::<Event>(text);
    let _ = llm_extract::tool::calls::<Tool>(text);
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode & 1 == 0 {
        // Raw bytes.
        read_all(&String::from_utf8_lossy(rest));
        return;
    }
    let Ok(case) = Case::arbitrary(&mut Unstructured::new(rest)) else {
        return;
    };
    let mut text = String::new();
    render(&case.doc, &mut text, &mut 2_000);
    let damaged = damage(text.clone(), &case.damage);
    read_all(&text);
    read_all(&damaged);
    if case.nest > 0 {
        // Valid, and in a fence: undamaged inside, since every repair records its path and
        // thousands of levels of repairs would make one run slow, not wrong.
        // Up to 1,020 levels, read on a thread with a 256 KiB stack, which that depth
        // overflows unless the reader grows its stack (at 20 levels per step, 5,100 levels on
        // the main thread, the deep runs took most of the fuzzer's time).
        let deep = nested(case.nest as usize * 4);
        let fenced = format!("```json\n{deep}\n```");
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                for text in [&deep, &fenced] {
                    check(
                        text,
                        &Extractor::new().max_depth(1 << 20).extract::<Order>(text),
                    );
                    check(text, &llm_extract::extract::<Order>(text));
                }
            })
            .expect("a thread")
            .join()
            .expect("no panic");
    }
});
