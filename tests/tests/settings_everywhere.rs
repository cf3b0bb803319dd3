//! Every reading setting holds at every entry point: `repair`, `repair_all`, typed `extract`
//! and `from_str_all`, the stream (`finish`), `extract_partial` (its whole value), a run-time
//! `Schema`, tool calls read whole and streamed, labeled sections and documents embedded in a
//! JSON string.
//! Each test sets one setting and reads the same reply through each entry point.

use llm_extract::tool::ToolCall;
use llm_extract::{Category, Extract, Extractor, Schema};
use llm_extract_tests::tool_stream::streamed_bytewise;
use serde_json::{json, Value};

#[derive(Extract, Debug, PartialEq)]
struct Doc {
    a: Value,
}

/// `{"a": [[...1...]]}` with the list `n` levels deep.
fn nested(n: usize) -> String {
    format!("{{\"a\": {}1{}}}", "[".repeat(n), "]".repeat(n))
}

/// Every schema-less and typed entry point's outcome for `text`: `Ok(a)` with the value read
/// at `a`, or the error's category.
fn outcomes(e: &Extractor, text: &str) -> Vec<(&'static str, Result<Value, Category>)> {
    let schema = Schema::new(&json!({
        "type": "object",
        "properties": {"a": {}},
        "required": ["a"]
    }))
    .unwrap();
    let field = |v: Value| v["a"].clone();
    let mut stream = e.stream::<Doc>();
    stream.push(text);
    vec![
        (
            "repair",
            e.repair(text).map(field).map_err(|e| e.category()),
        ),
        (
            "repair_all",
            e.repair_all(text)
                .map(|all| all.into_iter().map(field).collect())
                .map_err(|e| e.category()),
        ),
        (
            "extract::<Value>",
            e.extract::<Value>(text)
                .map(|x| field(x.value))
                .map_err(|e| e.category()),
        ),
        (
            "extract::<Doc>",
            e.extract::<Doc>(text)
                .map(|x| x.value.a)
                .map_err(|e| e.category()),
        ),
        (
            "from_str_all::<Doc>",
            e.from_str_all::<Doc>(text)
                .map(|all| all.into_iter().map(|d| d.a).collect())
                .map_err(|e| e.category()),
        ),
        (
            "stream",
            stream.finish().map(|x| x.value.a).map_err(|e| e.category()),
        ),
        (
            "extract_partial",
            match e.extract_partial::<Doc>(text) {
                Ok(salvaged) => match salvaged.value {
                    Some(doc) => Ok(doc.a),
                    None => Err(salvaged.issues[0].category),
                },
                Err(e) => Err(e.category()),
            },
        ),
        (
            "extract_with",
            e.extract_with(&schema, text)
                .map(|x| field(x.value))
                .map_err(|e| e.category()),
        ),
    ]
}

/// The outcomes of the tool-call entry points for a `<tool_call>` whose arguments are `args`:
/// the calls' arguments, or the error's category.
fn tool_outcomes(e: &Extractor, args: &str) -> Vec<(&'static str, Result<Value, Category>)> {
    let text = format!("<tool_call>{{\"name\": \"f\", \"arguments\": {args}}}</tool_call>");
    let arguments = |calls: Vec<ToolCall>| calls.iter().map(|c| c.arguments_value()).collect();
    let streamed = streamed_bytewise(e, &text).map(arguments);
    vec![
        ("tool_calls", Ok(arguments(e.tool_calls(&text)))),
        (
            "calls",
            e.calls::<ToolCall>(&text)
                .map(arguments)
                .map_err(|e| e.category()),
        ),
        ("stream_calls", streamed.map_err(|e| e.category())),
    ]
}

fn refused(outcome: &Result<Value, Category>) -> bool {
    match outcome {
        Err(_) => true,
        // A list of values read (`repair_all`, `from_str_all`, tool calls): none.
        Ok(Value::Array(items)) => items.is_empty(),
        Ok(_) => false,
    }
}

#[test]
fn max_depth_holds_everywhere() {
    let deep = nested(10);
    let wrapped = [
        deep.clone(),
        format!("Here it is:\n```json\n{deep}\n```"),
        // A document encoded as a JSON string.
        serde_json::to_string(&deep).unwrap(),
    ];
    for text in &wrapped {
        for (entry, outcome) in outcomes(&Extractor::new().max_depth(20), text) {
            assert!(!refused(&outcome), "{entry} refused {text}: {outcome:?}");
        }
        for (entry, outcome) in outcomes(&Extractor::new().max_depth(5), text) {
            assert!(
                refused(&outcome),
                "{entry} read {text} past max_depth 5: {outcome:?}"
            );
        }
    }
    for (entry, outcome) in tool_outcomes(&Extractor::new().max_depth(20), &nested(10)) {
        assert!(!refused(&outcome), "{entry}: {outcome:?}");
    }
    for (entry, outcome) in tool_outcomes(&Extractor::new().max_depth(5), &nested(10)) {
        assert!(
            refused(&outcome),
            "{entry} read past max_depth 5: {outcome:?}"
        );
    }
    // Deeper than serde_json's own limit of 128, within the setting.
    let very_deep = nested(300);
    for (entry, outcome) in outcomes(&Extractor::new().max_depth(1000), &very_deep) {
        assert!(
            !refused(&outcome),
            "{entry} refused 300 levels: {outcome:?}"
        );
    }
}

#[test]
fn max_payload_holds_everywhere() {
    let text = format!(
        "Here it is:\n```json\n{{\"a\": \"{}\"}}\n```",
        "x".repeat(200)
    );
    for (entry, outcome) in outcomes(&Extractor::new().max_payload(100), &text) {
        assert!(
            refused(&outcome),
            "{entry} read a value over max_payload: {outcome:?}"
        );
    }
    for (entry, outcome) in outcomes(&Extractor::new().max_payload(1000), &text) {
        let x = json!("x".repeat(200));
        let expected = if entry.contains("_all") {
            json!([x])
        } else {
            x
        };
        assert_eq!(outcome, Ok(expected), "{entry}");
    }
    let args = format!("{{\"s\": \"{}\"}}", "x".repeat(200));
    for (entry, outcome) in tool_outcomes(&Extractor::new().max_payload(100), &args) {
        assert!(
            refused(&outcome),
            "{entry} read a call over max_payload: {outcome:?}"
        );
    }
}

#[test]
fn a_reasoning_tag_hides_its_values_everywhere() {
    let text = "<scratch>{\"a\": 1}</scratch>\n{\"a\": 2}";
    for (entry, outcome) in outcomes(&Extractor::new().reasoning_tag("scratch"), text) {
        let got = match outcome {
            Ok(Value::Array(all)) if entry.contains("_all") => all,
            Ok(v) => vec![v],
            Err(c) => panic!("{entry}: {c:?}"),
        };
        assert_eq!(got, vec![json!(2)], "{entry} read inside <scratch>");
    }
    let call = "<scratch><tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call></scratch>";
    let e = Extractor::new().reasoning_tag("scratch");
    assert!(e.tool_calls(call).is_empty());
    assert!(e.calls::<ToolCall>(call).unwrap().is_empty());
}

#[test]
fn require_complete_holds_everywhere() {
    let cut = "Here it is: {\"a\": [1, 2, {\"b\": \"cut off her";
    for (entry, outcome) in outcomes(&Extractor::new(), cut) {
        // `Stream::finish` always refuses a cut-off value (its snapshots hold what came), and
        // `extract_partial` gives one as its partial, not as its whole value.
        if entry != "stream" && entry != "extract_partial" {
            assert!(
                !refused(&outcome),
                "{entry} refused a cut-off reply by default"
            );
        }
    }
    for (entry, outcome) in outcomes(&Extractor::new().require_complete(), cut) {
        assert!(
            refused(&outcome),
            "{entry} read a cut-off reply: {outcome:?}"
        );
        if let Err(category) = outcome {
            assert_eq!(category, Category::Incomplete, "{entry}");
        }
    }
}

#[test]
fn labeled_sections_honour_max_payload() {
    #[derive(Extract, Debug)]
    #[allow(dead_code)]
    struct Review {
        summary: String,
        score: u8,
    }
    let text = format!("Summary: {}\nScore: 4", "word ".repeat(100));
    assert!(Extractor::new().from_str::<Review>(&text).is_ok());
    let e = Extractor::new().max_payload(100);
    assert!(e.from_str::<Review>(&text).is_err());
}

/// A document written inside a string (as OpenAI writes tool arguments) is decoded within
/// the extractor's depth limit, as the reply around it is: typed, as a tool call's field, and
/// through the direct path and the full one.
#[test]
fn max_depth_holds_for_documents_inside_strings() {
    #[derive(Extract, Debug)]
    struct Holder {
        a: Vec<Value>,
    }
    let list = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
    for (n, depth, read) in [(10, 20, true), (10, 5, false), (300, 1000, true)] {
        let e = Extractor::new().max_depth(depth);
        let clean = json!({ "a": list(n) }).to_string();
        // The same reply damaged outside the string: read on the full path.
        let damaged = format!("{{'a': {}}}", serde_json::to_string(&list(n)).unwrap());
        for text in [&clean, &damaged] {
            // Decoded, the list's first item is a list; not decoded, the string is the item
            // (one value where a list belongs).
            let got = e.extract::<Holder>(text).unwrap().value.a;
            assert_eq!(
                got[0].is_array(),
                read,
                "{n} deep, max_depth {depth}: {got:?}"
            );
        }
    }
}

/// A parameter written as text that spells JSON nesting deeper than `max_depth` stays text
/// however the call is read: untyped (`tool_calls`, `tool_call`, `calls::<ToolCall>`, the
/// stream) as a typed call reads it. The untyped reads once decoded it with serde_json's own
/// limit, past the extractor's.
#[test]
fn max_depth_holds_for_parameters_written_as_text() {
    let deep = format!("{}1{}", "[".repeat(8), "]".repeat(8));
    let texts = [
        format!("<tool_call>\n<function=f>\n<parameter=x>\n{deep}\n</parameter>\n</function>\n</tool_call>"),
        format!("<minimax:tool_call>\n<invoke name=\"f\">\n<parameter name=\"x\">{deep}</parameter>\n</invoke>\n</minimax:tool_call>"),
        format!("<tool_call>f\n<arg_key>x</arg_key>\n<arg_value>{deep}</arg_value>\n</tool_call>"),
    ];
    for text in &texts {
        for (depth, expected) in [(4, json!(deep)), (20, serde_json::from_str(&deep).unwrap())] {
            let e = Extractor::new().max_depth(depth);
            let x = |calls: Vec<ToolCall>| calls[0].arguments["x"].clone();
            assert_eq!(
                x(e.tool_calls(text)),
                expected,
                "tool_calls {depth}: {text}"
            );
            assert_eq!(
                x(e.calls::<ToolCall>(text).unwrap()),
                expected,
                "calls {depth}: {text}"
            );
            assert_eq!(
                e.tool_call(text).unwrap().arguments["x"],
                expected,
                "{depth}: {text}"
            );
            assert_eq!(
                x(streamed_bytewise(&e, text).unwrap()),
                expected,
                "stream {depth}"
            );
            let typed: Vec<Value> = e.calls(text).unwrap();
            assert_eq!(typed[0]["f"]["x"], expected, "typed {depth}: {text}");
        }
    }
}
