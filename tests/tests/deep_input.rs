//! Deep input gives a value or the depth error, never a stack overflow: a recursive derived
//! type and schema-less `repair`, 100,000 levels deep with `max_depth` raised, on a test
//! thread's 2 MiB stack.

use llm_extract::{Category, Extract, Extractor};

/// A thread of replies: the type recurses through a `Vec`, as comment trees do.
#[derive(Extract, Debug)]
struct Comment {
    text: String,
    replies: Vec<Comment>,
}

/// The derived drop recurses once per level too: a deep tree is taken apart level by level,
/// as any type meant to hold deep input must be.
impl Drop for Comment {
    fn drop(&mut self) {
        let mut stack = std::mem::take(&mut self.replies);
        while let Some(mut c) = stack.pop() {
            stack.append(&mut c.replies);
        }
    }
}

/// A chain recursing through `Option<Box<..>>`, with a rule on each level.
#[derive(Extract, Debug)]
struct Link {
    #[extract(min = 0)]
    n: i64,
    next: Option<Box<Link>>,
}

impl Drop for Link {
    fn drop(&mut self) {
        let mut next = self.next.take();
        while let Some(mut link) = next {
            next = link.next.take();
        }
    }
}

const LEVELS: usize = 100_000;

fn comments(levels: usize) -> String {
    let mut text = String::with_capacity(levels * 30);
    for _ in 0..levels {
        text.push_str("{\"text\": \"re\", \"replies\": [");
    }
    for _ in 0..levels {
        text.push_str("]}");
    }
    text
}

fn depth_of(c: &Comment) -> usize {
    let (mut depth, mut at) = (1, c);
    while let Some(first) = at.replies.first() {
        depth += 1;
        at = first;
    }
    depth
}

/// Takes a `serde_json::Value` apart without recursion (its own drop recurses).
fn dispose(value: serde_json::Value) -> usize {
    let (mut stack, mut nodes) = (vec![value], 0);
    while let Some(v) = stack.pop() {
        nodes += 1;
        match v {
            serde_json::Value::Array(items) => stack.extend(items),
            serde_json::Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
    nodes
}

#[test]
fn a_recursive_type_100_000_levels_deep_is_read() {
    // Each level is an object and an array.
    let e = Extractor::new().max_depth(2 * LEVELS + 1);
    let out = e.extract::<Comment>(&comments(LEVELS)).unwrap();
    assert_eq!(depth_of(&out.value), LEVELS);
    assert!(out.report.coercions.is_empty() && out.report.repairs.is_empty());
}

#[test]
fn a_damaged_recursive_type_100_000_levels_deep_is_read() {
    // Single quotes at the bottom, in a fence: the tolerant parser's path.
    let text = comments(LEVELS);
    let at = text.rfind("\"re\"").unwrap();
    let messy = format!(
        "Here:\n```json\n{}'ok'{}\n```",
        &text[..at],
        &text[at + 4..]
    );
    let e = Extractor::new().max_depth(2 * LEVELS + 1);
    let out = e.extract::<Comment>(&messy).unwrap();
    assert_eq!(depth_of(&out.value), LEVELS);
    let (mut at, mut texts) = (&out.value, 0);
    while let Some(reply) = at.replies.first() {
        texts += usize::from(at.text == "re");
        at = reply;
    }
    assert_eq!((texts, at.text.as_str()), (LEVELS - 1, "ok"));
    assert_eq!(out.report.repairs.len(), 2); // the fence, the quotes
}

fn links(levels: usize) -> String {
    let mut text = String::new();
    for i in 0..levels {
        text.push_str(&format!("{{\"n\": {i}, \"next\": "));
    }
    text.push_str("null");
    text.push_str(&"}".repeat(levels));
    text
}

#[test]
fn a_recursive_option_box_chain_100_000_levels_deep_is_read() {
    let link: Link = Extractor::new()
        .max_depth(LEVELS)
        .from_str(&links(LEVELS))
        .unwrap();
    let (mut len, mut at) = (1, &link);
    while let Some(next) = &at.next {
        len += 1;
        at = next;
    }
    assert_eq!(len, LEVELS);
    assert_eq!(at.n, LEVELS as i64 - 1);
}

#[test]
fn a_struct_under_100_000_one_key_wrappers_is_read() {
    // `{"a": {"a": ... {"n": 7, "next": null} ...}}`: each wrapper's value is read once (a
    // wrapper is never also read as the struct, which would record a missing-field issue, and
    // its path, at every level).
    let text = format!(
        "{}{{\"n\": 7, \"next\": null}}{}",
        "{\"a\": ".repeat(LEVELS),
        "}".repeat(LEVELS)
    );
    let link: Link = Extractor::new()
        .max_depth(LEVELS + 1)
        .from_str(&text)
        .unwrap();
    assert_eq!((link.n, link.next.is_none()), (7, true));
}

#[test]
fn a_rule_broken_100_000_levels_deep_is_reported_with_its_path() {
    let text = links(LEVELS).replacen(&format!("\"n\": {}", LEVELS - 1), "\"n\": -1", 1);
    let err = Extractor::new()
        .max_depth(LEVELS)
        .from_str::<Link>(&text)
        .unwrap_err();
    let path = err.issues()[0].path.to_string();
    assert!(path.starts_with("$.next.next.") && path.ends_with(".next.n"));
    assert_eq!(path.matches(".next").count(), LEVELS - 1);
}

#[test]
fn past_max_depth_is_the_depth_error() {
    let err = Extractor::new()
        .from_str::<Comment>(&comments(LEVELS))
        .unwrap_err();
    assert_eq!(err.issues()[0].category, Category::TooDeep, "{err}");
    let err = llm_extract::repair(&"[".repeat(LEVELS)).unwrap_err();
    assert_eq!(err.issues()[0].category, Category::TooDeep, "{err}");
}

#[test]
fn repair_returns_a_value_100_000_levels_deep() {
    let text = format!("{}1{}", "[".repeat(LEVELS), "]".repeat(LEVELS));
    let e = Extractor::new().max_depth(1_000_000);
    let value = e.repair(&text).unwrap();
    assert_eq!(dispose(value), LEVELS + 1);
    // In a fence, cut off (closed by repair), and as a typed `Value`.
    let fenced = format!("Here:\n```json\n{}\n```", &text[..text.len() - 10]);
    assert_eq!(dispose(e.repair(&fenced).unwrap()), LEVELS + 1);
    let out = e.extract::<serde_json::Value>(&fenced).unwrap();
    assert_eq!(dispose(out.value), LEVELS + 1);
    let all = e.repair_all(&format!("{text}\n{text}")).unwrap();
    assert_eq!(
        all.into_iter().map(dispose).sum::<usize>(),
        2 * (LEVELS + 1)
    );
}

/// An untagged enum recursing through itself reads each level by trying every variant; the
/// readings nest as deep as the input.
#[derive(Extract, Debug)]
#[extract(untagged)]
enum Tree {
    Leaf(u32),
    Branch(Vec<Tree>),
}

#[test]
fn an_untagged_recursive_enum_nested_thousands_deep_is_read() {
    // Each level costs a failed reading whose issue carries the whole path, so this stays at
    // a depth the test reads quickly; it is far past what a 2 MiB stack held before.
    let levels = 3_000;
    let text = format!("{}7{}", "[".repeat(levels), "]".repeat(levels));
    let tree: Tree = Extractor::new()
        .max_depth(levels + 1)
        .from_str(&text)
        .unwrap();
    let (mut depth, mut at) = (0, &tree);
    while let Tree::Branch(items) = at {
        depth += 1;
        at = &items[0];
    }
    assert_eq!(depth, levels);
    assert!(matches!(at, Tree::Leaf(7)));
    std::mem::forget(tree); // its derived drop recurses once per level
}

/// A tool call whose argument nests 100,000 levels, `max_depth` raised: the reader clones
/// and drops the arguments as it sorts the calls (each clone and drop of a
/// `serde_json::Value` recurses once per level), whole, typed and streamed.
#[test]
fn a_tool_call_100_000_levels_deep_is_read_whole_and_streamed() {
    use llm_extract::tool::{StreamCalls, ToolCall};
    let nested = format!("{}1{}", "[".repeat(LEVELS), "]".repeat(LEVELS));
    let text =
        format!("<tool_call>{{\"name\": \"f\", \"arguments\": {{\"x\": {nested}}}}}</tool_call>");
    let e = Extractor::new().max_depth(LEVELS + 2);
    let args = |calls: Vec<ToolCall>| -> Vec<usize> {
        let arguments = calls.into_iter().map(|c| c.arguments);
        arguments
            .map(|a| dispose(serde_json::Value::Object(a)))
            .collect()
    };
    assert_eq!(args(e.tool_calls(&text)), [LEVELS + 2]);
    assert_eq!(args(vec![e.tool_call(&text).unwrap()]), [LEVELS + 2]);
    // A `Value` call is `{"f": {"x": ...}}`.
    let typed = e.calls::<serde_json::Value>(&text).unwrap();
    assert_eq!(typed.into_iter().map(dispose).sum::<usize>(), LEVELS + 3);
    let mut stream: StreamCalls<ToolCall> = e.stream_calls();
    let mut calls = Vec::new();
    for chunk in text.as_bytes().chunks(4096) {
        calls.extend(stream.push_bytes(chunk));
    }
    calls.extend(stream.finish().unwrap());
    assert_eq!(args(calls), [LEVELS + 2]);
}

/// `extract_partial` of a value cut off 100,000 levels deep, `max_depth` raised: the whole
/// reading it makes first is not returned (the value is not complete) and is dropped on a
/// stack with room for it.
#[test]
fn extract_partial_of_a_value_cut_off_100_000_levels_deep() {
    let text = "{\"a\": [".repeat(LEVELS);
    let e = Extractor::new().max_depth(2 * LEVELS + 1);
    let salvaged = e.extract_partial::<serde_json::Value>(&text).unwrap();
    assert!(salvaged.value.is_none());
    assert!(!salvaged.issues.is_empty());
    std::mem::forget(salvaged); // its partial value's drop recurses once per level
}
