//! The runtime core through its public entry points: every case the seeds list, locate's
//! priorities, limits, and the guarantees (valid JSON unchanged, no panics) as property tests.

use llm_extract::{Category, Extractor, RepairKind, TieBreak};
use llm_extract_tests::strategies::json_value;
use proptest::prelude::*;
use serde_json::{json, Value};

fn repair(text: &str) -> Value {
    llm_extract::repair(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn repairs_of(text: &str) -> Vec<RepairKind> {
    llm_extract::extract::<Value>(text)
        .unwrap_or_else(|e| panic!("{text:?}: {e}"))
        .report
        .repairs
        .iter()
        .map(|r| r.kind)
        .collect()
}

/// Seed 004: the fourteen cases its pipeline was validated against (items + story).
#[test]
fn story_json_damage_cases() {
    let items = json!([{"id": "event_kind", "value": "system_change"}]);
    let rows: Vec<(&str, String, Value)> = vec![
        ("1 clean JSON", r#"{"items":[{"id":"event_kind","value":"system_change"}],"story":"ok"}"#.into(), json!({"items": items, "story": "ok"})),
        ("2 fenced", "```json\n{\"items\":[],\"story\":\"...\"}\n```\nHere is the result!".into(), json!({"items": [], "story": "..."})),
        ("3 literal newlines", "{\"story\": \"Line one\nLine two\"}".into(), json!({"story": "Line one\nLine two"})),
        ("4 trailing commas", r#"{"items": [1, 2,], "story": "s",}"#.into(), json!({"items": [1, 2], "story": "s"})),
        ("5 missing values", r#"{"items": [], "story": , "n": 1}"#.into(), json!({"items": [], "story": null, "n": 1})),
        (
            "6 fences + newlines + trailing commas",
            "```json\n{\"items\": [{\"id\": \"a\",},],\n\"story\": \"one\ntwo\",}\n```".into(),
            json!({"items": [{"id": "a"}], "story": "one\ntwo"}),
        ),
        ("7 extra text after", "{\"items\": [], \"story\": \"s\"}\nI hope this helps!".into(), json!({"items": [], "story": "s"})),
        ("8 truncated mid-object", r#"{"items":[{"id":"foo""#.into(), json!({"items": [{"id": "foo"}]})),
        (
            "9 deeply nested with quirks",
            "{'a': {'b': {'c': [1, 2,], d: True, // note\n 'e': None}}}".into(),
            json!({"a": {"b": {"c": [1, 2], "d": true, "e": null}}}),
        ),
        ("10 empty items, valid story", r#"{"items": [], "story": "Nothing happened."}"#.into(), json!({"items": [], "story": "Nothing happened."})),
        ("11 truncated mid-string", r#"{"items": [], "story": "The event beg"#.into(), json!({"items": [], "story": "The event beg"})),
        (
            "12 unescaped quotes",
            r#"{"items": [], "story": "She said "no" and left"}"#.into(),
            json!({"items": [], "story": "She said \"no\" and left"}),
        ),
        ("13 single quotes", "{'items': [{'id': 'event_kind', 'value': 'system_change'}]}".into(), json!({"items": items})),
        (
            "14 // comments",
            "{\n  \"items\": [], // no items found\n  \"story\": \"The event...\" /* main narrative */\n}".into(),
            json!({"items": [], "story": "The event..."}),
        ),
    ];
    for (name, input, expected) in rows {
        assert_eq!(repair(&input), expected, "case {name}");
    }
}

/// Seed 000: the six steps of its fallback pipeline, each handled by the one pipeline.
#[test]
fn test_result_pipeline_steps() {
    assert_eq!(
        repair(r#"[{"id":"a","status":"pass"}]"#),
        json!([{"id": "a", "status": "pass"}])
    );
    assert_eq!(
        repair(r#"{"id":"a","status":"pass"}"#),
        json!({"id": "a", "status": "pass"})
    );
    assert_eq!(
        repair("```json\n[{\"id\":\"a\",\"status\":\"pass\"}]\n```"),
        json!([{"id": "a", "status": "pass"}])
    );
    assert_eq!(
        repair(r#"Here are results: [{"id":"a","status":"fail"}] Hope that helps!"#),
        json!([{"id": "a", "status": "fail"}])
    );
    assert_eq!(
        repair(r#"Here is the result: {"id":"a","status":"skip"}"#),
        json!({"id": "a", "status": "skip"})
    );
    let err = llm_extract::repair("I could not run the tests.").unwrap_err();
    assert_eq!(err.category(), Category::NotFound);
    assert_eq!(
        llm_extract::repair("").unwrap_err().category(),
        Category::NotFound
    );
}

/// Seed 002: the tool-call examples its parser documents.
#[test]
fn tool_call_marker_examples() {
    let expected = json!({"tool_name": "search", "parameters": {"query": "Python tutorials"}});
    let e = Extractor::new().marker("TOOL_CALL");
    let standard = "TOOL_CALL\n{\n  \"tool_name\": \"search\",\n  \"parameters\": {\n    \"query\": \"Python tutorials\"\n  }\n}";
    assert_eq!(e.repair(standard).unwrap(), expected);
    let fenced = "TOOL_CALL\n\n```json\n{\n  \"tool_name\": \"search\",\n  \"parameters\": { \"query\": \"Python tutorials\" }\n}\n```";
    assert_eq!(e.repair(fenced).unwrap(), expected);
    let mixed = "I'll search for that information.\n\nTOOL_CALL {\"tool_name\": \"search\", \"parameters\": {\"query\": \"Python tutorials\"}}\n\nLet me find that for you.";
    assert_eq!(e.repair(mixed).unwrap(), expected);
    let single = "TOOL_CALL\n{'tool_name': 'search', 'parameters': {'query': 'Python tutorials'}}";
    assert_eq!(e.repair(single).unwrap(), expected);
    let newline = "{\n  \"tool_name\": \"write_file\",\n  \"parameters\": {\n    \"content\": \"Line 1\nLine 2\"\n  }\n}";
    assert_eq!(
        e.repair(newline).unwrap(),
        json!({"tool_name": "write_file", "parameters": {"content": "Line 1\nLine 2"}})
    );
    let alternate =
        "TOOL_CALL { \"tool\": \"search\", \"params\": {\"query\": \"Python tutorials\"} }";
    assert_eq!(
        e.repair(alternate).unwrap(),
        json!({"tool": "search", "params": {"query": "Python tutorials"}})
    );
    // Several equally clean objects: the later is the answer by default (a draft or an
    // example comes first); seed 002's parser took the first, which `TieBreak::First` asks
    // for. repair_all returns both.
    let two = "{\"tool_name\": \"first\"}\n{\"tool_name\": \"second\"}";
    assert_eq!(e.repair(two).unwrap(), json!({"tool_name": "second"}));
    assert_eq!(
        e.clone().tie_break(TieBreak::First).repair(two).unwrap(),
        json!({"tool_name": "first"})
    );
    assert_eq!(
        e.repair_all(two).unwrap(),
        vec![
            json!({"tool_name": "first"}),
            json!({"tool_name": "second"})
        ]
    );
    assert_eq!(
        e.repair("Just a regular response with no tool call.")
            .unwrap_err()
            .category(),
        Category::NotFound
    );
    // max_payload skips oversized candidates, as seed 002's parser does.
    let big = format!(
        "{{\"tool_name\": \"x\", \"pad\": \"{}\"}} then {{\"tool_name\": \"small\"}}",
        "a".repeat(9000)
    );
    assert_eq!(
        Extractor::new().max_payload(8000).repair(&big).unwrap(),
        json!({"tool_name": "small"})
    );
}

/// Seed 003: explicit markers, then fences, then brace matching in mixed content.
#[test]
fn planning_reply_priorities() {
    let text = "Example: {\"title\": \"wrong\"}\n```json\n{\"title\": \"fenced\"}\n```\n---JSON_OUTPUT_START---\n{\"title\": \"marked\"}\n---JSON_OUTPUT_END---";
    assert_eq!(repair(text), json!({"title": "marked"}));
    let text = "Example: {\"title\": \"prose\"}\n```json\n{\"title\": \"fenced\"}\n```";
    assert_eq!(repair(text), json!({"title": "fenced"}));
    let text = "```\n{\"title\": \"plain fence\"}\n```";
    assert_eq!(repair(text), json!({"title": "plain fence"}));
    let text = "The plan is {\"title\": \"braces\", \"steps\": [{\"a\": {\"b\": 1}}]} as agreed.";
    assert_eq!(
        repair(text),
        json!({"title": "braces", "steps": [{"a": {"b": 1}}]})
    );
    // Reasoning goes to thoughts, never into the answer.
    let out = llm_extract::extract::<Value>(
        "<think>maybe {\"title\": \"draft\"}</think>\n{\"title\": \"final\"}",
    )
    .unwrap();
    assert_eq!(out.value, json!({"title": "final"}));
    assert_eq!(
        out.thoughts,
        vec!["maybe {\"title\": \"draft\"}".to_string()]
    );
}

#[test]
fn reasoning_blocks_in_every_shape() {
    for text in [
        "<thinking>{\"a\": 0}</thinking>{\"a\": 1}",
        "<reasoning>\n[0]\n</reasoning>\n```json\n{\"a\": 1}\n```",
        "I thought {\"a\": 0} first</think>{\"a\": 1}",
        "<THINK>{\"a\": 0}</THINK> {\"a\": 1}",
    ] {
        assert_eq!(repair(text), json!({"a": 1}), "{text:?}");
    }
    // An unclosed reasoning block has no answer in it.
    assert_eq!(
        llm_extract::repair("<think>{\"a\": 0} still thinking")
            .unwrap_err()
            .category(),
        Category::NotFound
    );
    // Configurable.
    let e = Extractor::new().reasoning_tag("scratchpad");
    assert_eq!(
        e.repair("<scratchpad>{\"a\": 0}</scratchpad>{\"a\": 1}")
            .unwrap(),
        json!({"a": 1})
    );
}

#[test]
fn tags_fences_and_markers() {
    assert_eq!(
        repair("Sure. <json>{'a': 1}</json> and {\"b\": 2}"),
        json!({"a": 1})
    );
    assert_eq!(
        repair("<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>"),
        json!({"name": "f", "arguments": {}})
    );
    assert_eq!(
        Extractor::new()
            .tag("answer_json")
            .repair("x {\"z\": 0} <answer_json>{\"a\": 1}</answer_json>")
            .unwrap(),
        json!({"a": 1})
    );
    assert_eq!(repair("```JSON\n{\"a\": 1}\n```"), json!({"a": 1}));
    assert_eq!(repair("```jsonc\n{\"a\": 1 // c\n}\n```"), json!({"a": 1}));
    assert_eq!(
        repair("~~~\nText\n```json\n{\"a\": [1, 2"),
        json!({"a": [1, 2]})
    );
    assert_eq!(repair("inline ```{\"a\": 1}``` fence"), json!({"a": 1}));
    assert_eq!(
        repair("```json\n{\"md\": \"use ``` for code\"}\n```"),
        json!({"md": "use ``` for code"})
    );
    let e = Extractor::new().marker_pair("<<<", ">>>");
    assert_eq!(
        e.repair("{\"x\": 0} <<< {\"a\": 1} >>>").unwrap(),
        json!({"a": 1})
    );
    let e = Extractor::new().marker("ANSWER:");
    assert_eq!(
        e.repair("[1] is an example. ANSWER: [2]").unwrap(),
        json!([2])
    );
    assert!(repairs_of("```json\n{\"a\": 1}\n```").contains(&RepairKind::Fence));
}

#[test]
fn several_values_and_embedded_json() {
    assert_eq!(
        repair_all("{\"a\": 1}{\"a\": 2}"),
        vec![json!({"a": 1}), json!({"a": 2})]
    );
    assert_eq!(repair_all("{\"a\": 1}\n{\"a\": 2}\n{\"a\": 3}\n").len(), 3);
    assert_eq!(
        repair_all("```json\n{\"a\": 1}\n```\ntext\n```json\n{\"a\": 2}\n```"),
        vec![json!({"a": 1}), json!({"a": 2})]
    );
    assert_eq!(repair("\"{\\\"a\\\": [1, 2]}\""), json!({"a": [1, 2]}));
    assert!(repairs_of("\"{\\\"a\\\": 1}\"").contains(&RepairKind::EmbeddedJson));
    assert_eq!(repair("callback({\"a\": 1});"), json!({"a": 1}));
    assert!(repairs_of("callback({\"a\": 1});").contains(&RepairKind::JsonpWrapper));
    // A prose brace never closed does not swallow the real value.
    assert_eq!(repair("Use { to open. Result: {\"a\": 1}"), json!({"a": 1}));
}

/// Of two values that rank alike, an empty object or array written later does not take the
/// place of one that says something: in prose it is most often a mention of the format. An
/// empty value that the reply presents as its answer still wins.
#[test]
fn an_empty_value_does_not_replace_one_that_says_something() {
    for (reply, expected) in [
        (
            "Here's the data: {\"a\": 1}. If there is no data, return {}.",
            json!({"a": 1}),
        ),
        (
            "Result: {\"items\": [1, 2]}\nEmpty case: []",
            json!({"items": [1, 2]}),
        ),
        ("{\"a\": \"b\"} {}", json!({"a": "b"})),
        ("[1, 2]\n[]", json!([1, 2])),
        ("{}\n{\"a\": 1}", json!({"a": 1})),
        ("Example: {\"a\": 1}\nAnswer: {}", json!({})),
        ("Answer: []\nExample: {\"a\": 1}", json!([])),
    ] {
        assert_eq!(repair(reply), expected, "{reply}");
        let mut streamed = llm_extract::Stream::<Value>::new();
        for c in reply.chars() {
            streamed.push(&c.to_string());
        }
        assert_eq!(streamed.finish().unwrap().value, expected, "{reply}");
    }
    // Every value is still there for `repair_all`.
    assert_eq!(
        repair_all("{\"a\": 1} {}"),
        vec![json!({"a": 1}), json!({})]
    );
}

/// A document written with escaped quotes (as a model copies the content of a JSON string)
/// is read as the document wherever it sits, in prose too; its escaped quotes inside strings
/// stay quotes.
#[test]
fn an_escaped_document_in_prose_is_the_document() {
    let text = r#"Here it is: {\"name\": \"Ann \\\"Jo\\\"\", \"tags\": [\"a\", 2]} as asked."#;
    assert_eq!(
        repair(text),
        json!({"name": "Ann \"Jo\"", "tags": ["a", 2]})
    );
    let kinds = repairs_of(text);
    assert!(kinds.contains(&RepairKind::EmbeddedJson), "{kinds:?}");
    assert!(kinds.contains(&RepairKind::SurroundingText), "{kinds:?}");
    assert_eq!(repair(r#"List: [\"x\", \"y\"]."#), json!(["x", "y"]));
    // A backslash in prose, and an escaped quote inside an ordinary string, change nothing.
    assert_eq!(
        repair(r#"a \ b {"k": "say \"hi\""}"#),
        json!({"k": "say \"hi\""})
    );
}

/// A document written with HTML's character references for its quotes (as a web page shows
/// it, `<pre>{&quot;a&quot;: 1}</pre>`) is the document, its other references decoded inside
/// its strings; a document with quotes of its own is never decoded.
#[test]
fn a_document_written_with_html_references_is_the_document() {
    let text = "<pre><code>{&quot;name&quot;: &quot;Bo &amp; Al &lt;3&quot;, &quot;n&quot;: 3}</code></pre>";
    assert_eq!(repair(text), json!({"name": "Bo & Al <3", "n": 3}));
    let kinds = repairs_of(text);
    assert!(kinds.contains(&RepairKind::HtmlEntities), "{kinds:?}");
    assert!(!kinds.contains(&RepairKind::UnquotedKey), "{kinds:?}");
    // Numeric references, any case, the whole reply, a fence, damage inside.
    for (text, value) in [
        ("{&#34;a&#34;: [1, 2]}", json!({"a": [1, 2]})),
        ("[&#x22;x&#X22;, &QUOT;y&quot;]", json!(["x", "y"])),
        (
            "{a: &quot;x&quot;, b: [1, &quot;y&quot;]}",
            json!({"a": "x", "b": [1, "y"]}),
        ),
        ("```json\n{&quot;a&quot;: 1,}\n```", json!({"a": 1})),
        (
            "Result: {&quot;a&quot;: &quot;&#233;&#x1F980;&quot;, // note\n}",
            json!({"a": "é🦀"}),
        ),
        // A bracket inside a string, written in prose or after a tag: the string's text, and
        // `\&quot;` an escaped quote inside it.
        (
            "<pre>{&quot;a&quot;: &quot;x}&quot;, &quot;b&quot;: 1}</pre>",
            json!({"a": "x}", "b": 1}),
        ),
        (
            "<pre><code>{&quot;a&quot;: &quot;echo \\&quot;}\\&quot; ]&quot;, &quot;b&quot;: [1]}</code></pre>",
            json!({"a": "echo \"}\" ]", "b": [1]}),
        ),
        (
            "Here: {&quot;a&quot;: &quot;x}&quot;, &quot;b&quot;: 1}\n```text\nhello\n```",
            json!({"a": "x}", "b": 1}),
        ),
    ] {
        assert_eq!(repair(text), value, "{text}");
        assert!(
            repairs_of(text).contains(&RepairKind::HtmlEntities),
            "{text}"
        );
    }
    // Typed, and streamed: the stream shows nothing of the references, `finish` decodes.
    #[derive(llm_extract::Extract, Debug)]
    struct Person {
        name: String,
        n: u32,
    }
    let person = llm_extract::from_str::<Person>(text).unwrap();
    assert_eq!((person.name.as_str(), person.n), ("Bo & Al <3", 3));
    let mut stream = llm_extract::Stream::<Person>::new();
    for piece in text.as_bytes().chunks(5) {
        stream.push(std::str::from_utf8(piece).unwrap());
        assert!(stream.snapshot().name.is_none());
    }
    assert_eq!(stream.finish().unwrap().value.name, "Bo & Al <3");
    // A document with quotes of its own keeps its references as written, single quotes too.
    assert_eq!(
        repair(r#"{"a": "say &quot;hi&quot; &amp; go"}"#),
        json!({"a": "say &quot;hi&quot; &amp; go"})
    );
    assert_eq!(
        repair("{'q': 'say &quot;hi&quot;'}"),
        json!({"q": "say &quot;hi&quot;"})
    );
    assert_eq!(repair("['&quot;']"), json!(["&quot;"]));
    // Cut off: decoded as a whole one is, and marked incomplete.
    let cut = "<pre><code>{&quot;ok&quot;: &quot;{braces} [brackets]";
    assert_eq!(repair(cut), json!({"ok": "{braces} [brackets]"}));
    let out = llm_extract::extract::<serde_json::Value>(cut).unwrap();
    assert!(!out.report.complete);
    assert!(out
        .report
        .repairs
        .iter()
        .any(|r| r.kind == RepairKind::HtmlEntities));
    // An unknown or unfinished reference stays as written.
    assert_eq!(
        repair("{&quot;a&quot;: &quot;&copy; &amp &#xZZ;&quot;}"),
        json!({"a": "&copy; &amp &#xZZ;"})
    );
}

/// The end of the text cuts a `\u` escape: it is dropped like a lone backslash, not kept as
/// text; a `\u` without hex digits elsewhere is kept as written.
#[test]
fn a_unicode_escape_cut_by_the_end_is_dropped() {
    assert_eq!(repair(r#"{"a": "caf\u00e"#), json!({"a": "caf"}));
    assert_eq!(repair(r#"["x\u"#), json!(["x"]));
    assert_eq!(repair(r#"{"a": "\u12g4"}"#), json!({"a": "\\u12g4"}));
}

/// A reply that is one scalar and a comma (the first item of a list it did not go on with) is
/// that scalar; a number cut in its exponent is the float it was written as.
#[test]
fn a_scalar_with_a_comma_after_it() {
    assert_eq!(repair("4,"), json!(4));
    assert_eq!(repair("  \"yes\" , "), json!("yes"));
    assert!(llm_extract::repair(",").is_err());
    assert_eq!(repair("[2e, 3e-"), json!([2.0, 3.0]));
    // In a JSONP call, as an object is.
    assert_eq!(repair("callback_123(\"foo\");"), json!("foo"));
    assert!(repairs_of("cb(2)").contains(&RepairKind::JsonpWrapper));
    assert!(llm_extract::repair("f(1, 2)").is_err());
    assert!(llm_extract::repair("The answer f(2) is").is_err());
    assert_eq!(repair("2."), json!(2.0));
}

/// A valid JSON document is never changed: a top-level JSON string stays that string, unless
/// it is the only value and holds a valid JSON object or array (a document encoded twice).
#[test]
fn a_json_string_document_is_not_read_as_the_object_it_mentions() {
    for text in [
        "\"{not json}\"",
        "  \"{not json}\"\n",
        "```json\n\"{not json}\"\n```",
        "\"[1, 2\"",
        "\"{\\\"a\\\": 1,}\"",
    ] {
        let expected: Value = serde_json::from_str(
            text.trim()
                .trim_matches('`')
                .trim_start_matches("json")
                .trim(),
        )
        .unwrap();
        assert!(expected.is_string());
        assert_eq!(repair(text), expected, "{text}");
        assert_eq!(repair_all(text), vec![expected.clone()], "{text}");
        assert_eq!(
            llm_extract::extract::<Value>(text).unwrap().value,
            expected,
            "{text}"
        );
    }
    // The only value, holding a valid object: decoded.
    assert_eq!(repair("\"{\\\"a\\\": [1]}\""), json!({"a": [1]}));
    assert_eq!(
        llm_extract::extract::<Value>("\"{\\\"a\\\": [1]}\"")
            .unwrap()
            .value,
        json!({"a": [1]})
    );
}

fn repair_all(text: &str) -> Vec<Value> {
    llm_extract::repair_all(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

#[test]
fn truncation_is_visible_and_can_be_refused() {
    let out =
        llm_extract::extract::<Value>("TOOL_CALL {\"tool\": \"rm\", \"args\": {\"path\": \"/tmp/x")
            .unwrap();
    assert!(!out.report.complete);
    assert_eq!(out.value, json!({"tool": "rm", "args": {"path": "/tmp/x"}}));
    let err = Extractor::new()
        .require_complete()
        .repair("{\"tool\": \"rm\", \"args\": {\"path\": \"/tmp/x")
        .unwrap_err();
    assert_eq!(err.category(), Category::Incomplete);
    assert!(err.to_string().contains("cut off"), "{err}");
    assert!(Extractor::new()
        .require_complete()
        .repair("{\"a\": 1}")
        .is_ok());
    let full = llm_extract::extract::<Value>("{\"a\": [1]}").unwrap();
    assert!(full.report.complete && full.report.is_clean() && full.report.score == 0);
}

#[test]
fn limits_name_themselves_and_how_to_raise_them() {
    let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
    let err = llm_extract::repair(&deep).unwrap_err();
    assert_eq!(err.category(), Category::TooDeep);
    assert!(err.to_string().contains("max_depth"), "{err}");
    assert!(Extractor::new().max_depth(300).repair(&deep).is_ok());
    let err = Extractor::new()
        .max_payload(10)
        .repair("{\"a\": \"0123456789\"}")
        .unwrap_err();
    assert_eq!(err.category(), Category::TooLarge);
    assert!(err.to_string().contains("max_payload"), "{err}");
}

#[test]
fn report_positions_are_line_and_column() {
    let out = llm_extract::extract::<Value>("{\n  \"a\": 1,\n  \"b\": 'x'\n}").unwrap();
    let quote = out
        .report
        .repairs
        .iter()
        .find(|r| r.kind == RepairKind::NonStandardQuotes)
        .unwrap();
    let p = quote.position.unwrap();
    assert_eq!((p.line, p.column), (3, 8));
    assert_eq!(quote.path.to_string(), "$.b");
}

#[test]
fn the_winning_reading_has_positions_whichever_candidate_it_is() {
    // Two candidates, each read with repairs; the second (fewer repairs) wins. Only the
    // winner's repairs get positions (one pass over the text per candidate read was quadratic),
    // and they must be its own.
    let text = "first:\n```json\n{'a': 1,}\n```\nthen:\n```json\n{\"b\":\n  'x'}\n```\n";
    let out = llm_extract::extract::<Value>(text).unwrap();
    assert_eq!(out.value, serde_json::json!({"b": "x"}));
    assert!(!out.report.repairs.is_empty());
    for repair in &out.report.repairs {
        let at = repair
            .position
            .expect("every repair of the winner has a position");
        let expected = llm_extract::Position::of(text, repair.span.start);
        assert_eq!(
            (at.line, at.column),
            (expected.line, expected.column),
            "{repair:?}"
        );
    }
    let quote = out
        .report
        .repairs
        .iter()
        .find(|r| r.kind == RepairKind::NonStandardQuotes && r.path.to_string() == "$.b")
        .unwrap();
    let at = quote.position.unwrap();
    assert_eq!((at.line, at.column), (8, 3));
}

const FIXTURES: &[&str] = &[
    "```json\n{\"items\": [{\"id\": \"a\", \"n\": 1.5e3}], \"story\": \"x\\ny \\u00e9\"}\n```",
    "<think>hmm {</think>Here: {'a': [1, 2,], b: True, c: None, // c\n d: \"q \"x\" z\"}",
    "TOOL_CALL {\"tool_name\": \"search\", \"parameters\": {\"q\": \"a\" + \"b\", \"n\": .5}}",
    "[{\"a\": NaN}, {\"b\": -Infinity}, {\"c\": 0x1F}, {\"d\": \"“curly”\"}]",
    "\"{\\\"a\\\": [1, {\\\"b\\\": null}]}\"",
    "prefix {\"a\": \"é😀\", \"b\": [[[]]], \"c\": {\"d\": {}}} suffix {\"e\": 1}",
];

#[test]
fn every_prefix_of_every_fixture_is_handled() {
    for fixture in FIXTURES {
        for end in (0..=fixture.len()).filter(|&i| fixture.is_char_boundary(i)) {
            let prefix = &fixture[..end];
            let _ = llm_extract::repair(prefix);
            let _ = llm_extract::repair_all(prefix);
            let _ = Extractor::new()
                .require_complete()
                .marker("TOOL_CALL")
                .repair(prefix);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Valid JSON is never changed: the tolerant parser (not only the serde fast path) yields
    /// serde_json's value and reports no repair, compact or pretty, also inside prose.
    #[test]
    fn valid_json_is_unchanged(value in json_value(), pretty in any::<bool>()) {
        let text = if pretty { serde_json::to_string_pretty(&value).unwrap() } else { value.to_string() };
        let expected: Value = serde_json::from_str(&text).unwrap();
        let parsed = llm_extract::__internal::parse(&text, 128).unwrap();
        prop_assert_eq!(llm_extract::__internal::to_value(&parsed, &text), expected.clone());
        prop_assert!(parsed.repairs.is_empty(), "{:?}", parsed.repairs);
        // The one documented exception: a document that is a string holding JSON is decoded.
        if !value.is_string() {
            prop_assert_eq!(llm_extract::repair(&text).unwrap(), expected.clone());
        }
        if value.is_object() || value.is_array() {
            let in_prose = format!("Here you go:\n{text}\nAnything else?");
            prop_assert_eq!(llm_extract::repair(&in_prose).unwrap(), expected);
        }
    }

    /// Numbers are exact: integers as written, floats correctly rounded.
    #[test]
    fn numbers_are_exact(f in any::<f64>().prop_filter("finite", |f| f.is_finite()), i in any::<i64>(), u in any::<u64>()) {
        let text = format!("[{f:e}, {f}, {i}, {u}]");
        let parsed = llm_extract::__internal::parse(&text, 128).unwrap();
        // With the text parsed, as serde_json keeps numbers as written (`arbitrary_precision`).
        let got = llm_extract::__internal::to_value(&parsed, &text);
        prop_assert_eq!(&got, &serde_json::from_str::<Value>(&text).unwrap());
        prop_assert_eq!(got[0].as_f64(), Some(f));
        prop_assert_eq!(got[1].as_f64(), Some(f));
        prop_assert_eq!((got[2].as_i64(), got[3].as_u64()), (Some(i), Some(u)));
    }

    /// No input panics, whatever the bytes.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = llm_extract::repair(&text);
        let _ = llm_extract::repair_all(&text);
        let _ = llm_extract::extract::<Value>(&text);
    }

    /// JSON-flavoured noise, which reaches deeper into the parser than random bytes.
    #[test]
    fn json_like_noise_never_panics(text in "[{}\\[\\]\"',: a-z0-9\\\\/*#\\n.+\\-`<>]{0,200}") {
        let _ = llm_extract::repair(&text);
        let _ = llm_extract::repair_all(&text);
        let _ = Extractor::new().marker("a").max_depth(3).repair(&text);
    }
}

/// Regression: a truncated, quirky fenced object lost to the list nested inside it, because
/// the nested candidate's penalty was smaller than the sum of the outer object's repairs.
#[test]
fn truncated_reply_beats_a_value_nested_inside_it() {
    let reply = "Sure:\n```json\n{\n  name: 'Ada', // c\n  \"langs\": [\"en\", \"fr\",],\n  \"admin\": True,\n  \"bio\": \"Wrote \"the\" first";
    assert_eq!(
        repair(reply),
        json!({"name": "Ada", "langs": ["en", "fr"], "admin": true, "bio": "Wrote \"the\" first"})
    );
    // ... while prose with a stray brace still yields the real value inside it.
    assert_eq!(repair("Use { to open. Result: {\"a\": 1}"), json!({"a": 1}));
    assert!(repairs_of("Use { to open. Result: {\"a\": 1}").contains(&RepairKind::NestedValue));
}

/// Cases other repair libraries' suites check that LLM replies produce.
#[test]
fn elisions_fractions_and_escaped_documents() {
    assert_eq!(repair("[1, 2, 3, ...]"), json!([1, 2, 3]));
    assert_eq!(repair("{\"a\": 1, ...}"), json!({"a": 1}));
    assert_eq!(repair("[\"x\", …]"), json!(["x"]));
    assert!(repairs_of("[1, ...]").contains(&RepairKind::SkippedText));
    assert_eq!(repair("{\"key\": 1/3}"), json!({"key": "1/3"}));
    assert_eq!(
        repair("{\"key\": 10-20, \"v\": 1.1.1}"),
        json!({"key": "10-20", "v": "1.1.1"})
    );
    assert_eq!(repair("{\"a\": 1 // c\n}"), json!({"a": 1}));
    assert_eq!(
        repair("{\\\"a\\\": [1, \\\"b\\\"]}"),
        json!({"a": [1, "b"]})
    );
    assert_eq!(
        repair("{\"key\": TRUE, \"key2\": FALSE, \"key3\": Null}"),
        json!({"key": true, "key2": false, "key3": null})
    );
    assert_eq!(
        repair("{\"employees\":[\"John\", \"Anna\","),
        json!({"employees": ["John", "Anna"]})
    );
    assert_eq!(
        repair("{\"name\": \"John\", \"gender\": \"male\" \"address\": \"123 Main St\"}"),
        json!({"name": "John", "gender": "male", "address": "123 Main St"})
    );
    assert_eq!(
        repair("{'key': 'string', 'key2': false, \"key3\": null, \"key4\": unquoted}"),
        json!({"key": "string", "key2": false, "key3": null, "key4": "unquoted"})
    );
}

#[test]
fn key_repairs_carry_the_member_path() {
    let out = llm_extract::extract::<Value>("{'item': 1, other: {'x': 2}}").unwrap();
    let paths: Vec<(RepairKind, String)> = out
        .report
        .repairs
        .iter()
        .map(|r| (r.kind, r.path.to_string()))
        .collect();
    assert!(
        paths.contains(&(RepairKind::NonStandardQuotes, "$.item".into())),
        "{paths:?}"
    );
    assert!(
        paths.contains(&(RepairKind::UnquotedKey, "$.other".into())),
        "{paths:?}"
    );
    assert!(
        paths.contains(&(RepairKind::NonStandardQuotes, "$.other.x".into())),
        "{paths:?}"
    );
}

/// Regression: a reasoning tag inside a JSON string opened a reasoning block that swallowed
/// the rest of the value.
#[test]
fn reasoning_tag_inside_a_string_is_text() {
    assert_eq!(
        repair("{\"text\": \"use <think> tags\", \"n\": 1,}"),
        json!({"text": "use <think> tags", "n": 1})
    );
    assert_eq!(
        repair("Answer: {\"t\": \"close with </think> here\", \"n\": 1}"),
        json!({"t": "close with </think> here", "n": 1})
    );
    assert_eq!(
        repair("<think>\nplan {\"a\": 0}\n</think>\n{\"a\": 1}"),
        json!({"a": 1})
    );
    assert_eq!(repair("  <thinking>hm</thinking> [1]"), json!([1]));
}

/// API.md: `Error` is `std::error::Error + Send + Sync + 'static`, one pointer wide, and the
/// `Extractor` can be shared between threads.
#[test]
fn error_and_extractor_are_shareable() {
    fn error_like<T: std::error::Error + Send + Sync + 'static>() {}
    fn shareable<T: Send + Sync + 'static>() {}
    error_like::<llm_extract::Error>();
    shareable::<Extractor>();
    assert_eq!(
        std::mem::size_of::<llm_extract::Error>(),
        std::mem::size_of::<usize>()
    );
    let boxed: Box<dyn std::error::Error + Send + Sync> =
        Box::new(llm_extract::repair("nothing to see here").unwrap_err());
    assert!(boxed.to_string().contains("no JSON found"));
}

/// Words after a string's closing quote, before the structure resumes, are not read into the
/// string: in an object they are stray text, skipped and reported (`SkippedText`), never a key
/// with an invented `null`; in an array they are an item. A quote before a word opens a
/// quotation inside the string instead, and a pair of inner quotes stays text.
#[test]
fn words_after_a_closing_quote_are_not_the_strings() {
    assert_eq!(repair(r#"{"v": "data" AAAA }"#), json!({"v": "data"}));
    assert!(repairs_of(r#"{"v": "data" AAAA }"#).contains(&RepairKind::SkippedText));
    assert_eq!(
        repair(r#"{"a": "x" y z, "b": 1}"#),
        json!({"a": "x", "b": 1})
    );
    assert_eq!(repair(r#"["data" AAAA]"#), json!(["data", "AAAA"]));
    assert_eq!(
        repair(r#"{"a": "he said "hi}"#),
        json!({"a": "he said \"hi"})
    );
    assert_eq!(
        repair(r#"{"key": "lorem "sic" tamet.}"#),
        json!({"key": "lorem \"sic\" tamet."})
    );
}

/// A string's closing quote before the closer of its object, where the closers of tuples
/// around it follow (`({"s": "g"})))`, however many): the quote closes, as before `]`.
#[test]
fn a_quote_closes_before_the_tuples_around_its_object() {
    assert_eq!(
        repair(r#"{"k": ((({"s": "g"}))), "x": "y"}"#),
        json!({"k": [[[{"s": "g"}]]], "x": "y"})
    );
    assert_eq!(
        repair(r#"{"k": ((1, ({"s": "g"}))), "x": "y"}"#),
        json!({"k": [[1, [{"s": "g"}]]], "x": "y"})
    );
    assert_eq!(
        repair(r#"{"k": (([1, "a"]))), "x": "y"}"#),
        json!({"k": [[[1, "a"]]], "x": "y"})
    );
}

/// A fence's closing run after a value ends the value, as the end of the text would, where no
/// fence is open in it: json_repair's `{"key": "value, value2"```.
#[test]
fn a_closing_fence_run_ends_the_value() {
    assert_eq!(
        repair("{\"key\": \"value, value2\"```"),
        json!({"key": "value, value2"})
    );
    assert_eq!(repair("{\"a\": 1, ```"), json!({"a": 1}));
    // A fence inside a string is the string's text.
    assert_eq!(
        repair("{\"a\": \"use ``` here\", \"b\": 1}"),
        json!({"a": "use ``` here", "b": 1})
    );
}

/// A string whose text starts with a quoted word keeps that quote: the quote doubled at the
/// opening is the text's when a quote inside the string pairs with it.
#[test]
fn a_string_keeps_leading_inner_quotes() {
    let text = r#"{"status": ""not" benefit low.", "n": 1}"#;
    assert_eq!(
        repair(text),
        json!({"status": "\"not\" benefit low.", "n": 1})
    );
    // Both inner quotes are reported as read as text.
    let out = llm_extract::extract::<Value>(text).unwrap();
    let quotes: Vec<(RepairKind, usize)> = (out.report.repairs.iter())
        .map(|r| (r.kind, r.span.start))
        .collect();
    assert_eq!(
        quotes,
        [
            (RepairKind::UnescapedQuote, 12),
            (RepairKind::UnescapedQuote, 16)
        ]
    );
    assert_eq!(
        repair(r#"["'quoted' first", ''x'']"#),
        json!(["'quoted' first", "x"])
    );
    assert_eq!(repair(r#"{"a": ''it' is'}"#), json!({"a": "'it' is"}));
    // Doubled as CSV doubles quotes, or a stutter: the quotes are not the text's.
    assert_eq!(repair(r#"{""a"": ""b c""}"#), json!({"a": "b c"}));
    assert_eq!(repair(r#"{"key": ""value"}"#), json!({"key": "value"}));
}

/// A document written with some commas missing and some keys unquoted, at any depth.
fn without_some_commas(value: &Value, seed: &mut u64, out: &mut String) {
    fn coin(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed % 3
    }
    let separator = |coin: u64| match coin {
        0 => ", ",
        1 => " ",
        _ => "\n",
    };
    match value {
        Value::Object(members) => {
            out.push('{');
            for (i, (key, member)) in members.iter().enumerate() {
                if i > 0 {
                    out.push_str(separator(coin(seed)));
                }
                if coin(seed) == 0 {
                    out.push_str(&format!("\"{key}\": "));
                } else {
                    out.push_str(&format!("{key}: "));
                }
                without_some_commas(member, seed, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(separator(coin(seed)));
                }
                without_some_commas(item, seed, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

fn nested_members() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        (0u32..1000).prop_map(|n| json!(n)),
        "[a-z]{1,6}( [a-z]{1,6})?".prop_map(Value::String),
        any::<bool>().prop_map(Value::Bool),
        Just(Value::Null),
    ];
    let tree = leaf.prop_recursive(4, 48, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z][a-z0-9_]{0,5}", inner, 1..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    });
    prop::collection::btree_map("[a-z][a-z0-9_]{0,5}", tree, 1..5)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
}

#[test]
fn no_member_is_dropped_after_a_missing_comma() {
    // The shapes that lost a member: a closer after a string, then an unquoted key.
    for (text, want) in [
        (
            r#"{"a": {"x": "s2", "y": 85, z: "s6"} b: {x: "s6" "y": true} "c": 79}"#,
            json!({"a": {"x": "s2", "y": 85, "z": "s6"}, "b": {"x": "s6", "y": true}, "c": 79}),
        ),
        (
            r#"{"a": [1, {"x": "s5"} ], b: {x: "s3"}, c: [0 {d: "s0"}] "e": 88}"#,
            json!({"a": [1, {"x": "s5"}], "b": {"x": "s3"}, "c": [0, {"d": "s0"}], "e": 88}),
        ),
    ] {
        assert_eq!(repair(text), want, "{text}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// No member or item is lost, whichever commas are missing and keys unquoted.
    #[test]
    fn missing_commas_and_unquoted_keys_lose_nothing(value in nested_members(), seed in 1u64..) {
        let mut text = String::new();
        without_some_commas(&value, &mut seed.clone(), &mut text);
        prop_assert_eq!(llm_extract::repair(&text).ok(), Some(value), "{}", text);
    }
}

/// One `NonStandardQuotes` repair per string, spanning it from its opening quote to its
/// closing one (or to where it ends, when it has none).
#[test]
fn one_quote_repair_per_string_spanning_both_quotes() {
    let text = "{'a': 'b c', \"d\": [`e`, “f”, ''g'', 'h'], \"i\": 'cut";
    let out = llm_extract::extract::<Value>(text).unwrap();
    let quoted: Vec<&str> = (out.report.repairs.iter())
        .filter(|r| r.kind == RepairKind::NonStandardQuotes)
        .map(|r| &text[r.span.start..r.span.end])
        .collect();
    assert_eq!(
        quoted,
        ["'a'", "'b c'", "`e`", "“f”", "''g''", "'h'", "'cut"]
    );
}

/// Without `arbitrary_precision` (see `exact_numbers.rs` for numbers kept as written).
#[cfg(not(feature = "arbitrary_precision"))]
#[test]
fn numbers_past_the_range_of_f64_are_null_and_logged() {
    for text in ["[1e400, 2]", "{\"a\": -1e999}", "[17401600940377e+305]"] {
        let read = llm_extract::extract::<serde_json::Value>(text).unwrap();
        let kinds: Vec<_> = read.report.repairs.iter().map(|r| r.kind).collect();
        assert_eq!(kinds, [llm_extract::RepairKind::NonFiniteNumber], "{text}");
        assert!(
            serde_json::to_string(&read.value).unwrap().contains("null"),
            "{text}"
        );
        assert_eq!(llm_extract::repair(text).unwrap(), read.value, "{text}");
    }
}

/// A key written again without a value (a stray word read as a key, or a reply cut off after
/// the key) keeps the value it was written with: the `null` in its place is no value.
#[test]
fn a_key_written_again_without_a_value_keeps_its_value() {
    use std::collections::{BTreeMap, HashMap};
    #[derive(llm_extract::Extract, Debug)]
    struct Row {
        e: Option<f64>,
        x: BTreeMap<String, String>,
    }
    let texts = [
        // `fals}e`: the `}` closes `x`, and the `e` after it reads as the key `e` again.
        "{\n  \"e\": 0.5,\n  \"x\": {\n    \"b\": fals}e\n  },\n  \"c\": 1\n}",
        "{\"e\": 0.5, \"x\": {\"b\": \"y\"}, \"e\"}",
        "{\"e\": 0.5, \"x\": {\"b\": \"y\"}, \"e\":",
    ];
    for text in texts {
        assert_eq!(repair(text)["e"], json!(0.5), "{text:?}");
        let row = llm_extract::extract::<Row>(text).unwrap().value;
        assert_eq!(row.e, Some(0.5), "{text:?}");
        assert_eq!(row.x.len(), 1, "{text:?}");
        let map =
            llm_extract::extract::<HashMap<String, Option<f64>>>("{\"e\": 0.5, \"f\": 1, \"e\"}")
                .unwrap()
                .value;
        assert_eq!(map["e"], Some(0.5));
    }
    // A value written without its key reads under the empty key, which never replaces a
    // member written with it.
    let text = "{\"\": 1, \"b\": 2, =x\": 3}";
    assert_eq!(repair(text)[""], json!(1), "{text:?}");
    let map = llm_extract::extract::<HashMap<String, Value>>(text)
        .unwrap()
        .value;
    assert_eq!(map[""], json!(1), "{text:?}");
    // Written again with a value, the later one wins, as in JSON.
    assert_eq!(repair("{\"e\": 0.5, \"e\": null}"), json!({"e": null}));
}

/// A damaged value is read where it starts and ends where the parser ends it, judged as the
/// value written alone: sentences after it are no part of it, and none of its inner parts is
/// taken for the answer. Typed reading finds the same value.
#[test]
fn a_damaged_value_ends_where_the_parser_ends_it() {
    let cases = [
        (
            // Prose lines after a value whose string misses its closing quote.
            "Output:\n{\"status\": [\"urgent\", \"urgent\", \"urgent], \"confidence\": None, \
             \"price\": \"mobile\", \"sku\": \"Export fails.\"}\nNote: the priority is a \
             guess.\nConfidence: medium\n",
            json!({"status": ["urgent", "urgent", "urgent"], "confidence": null,
                   "price": "mobile", "sku": "Export fails."}),
        ),
        (
            // Strings missing their closing quotes in a fence: the whole value, not the one
            // inner object the quotes leave balanced.
            "Output:\n```JSON\n{\"score\": null, \"reason\": {\"title\": \"Jos, \"owner\": \
             [{\"status\": [\"export\", \"api\"], \"items\": \"urgent\"}, {\"tags_2\": \
             [{\"qty\": [\"login\", \"refund, \"billing\"], \"owner\": true}]}, \
             {\"confidence\": \"timeout\", \"qty\": null}, {\"steps\": \"Line one., \
             \"title\": 129.82}], \"reason_2\": true}, \"created_at\": 1941}\n```\nNote: the \
             priority is a guess.\n",
            json!({"score": null, "reason": {"title": "Jos", "owner": [
                {"status": ["export", "api"], "items": "urgent"},
                {"tags_2": [{"qty": ["login", "refund", "billing"], "owner": true}]},
                {"confidence": "timeout", "qty": null},
                {"steps": "Line one.", "title": 129.82}], "reason_2": true},
                "created_at": 1941}),
        ),
        (
            // A comma that ends the reply after a value with an inner quote: the brackets
            // the quotes leave balanced do not cut the value short.
            "{\"a\":\"e\"x\",\"b\":\"}\"},",
            json!({"a": "e\"x", "b": "}"}),
        ),
        (
            // The same with text after the comma: the brackets close before the parser's
            // reading does, so they do not say where the value ends.
            "{\"a\":\"e\"x\",\"b\":\"}\"},t",
            json!({"a": "e\"x", "b": "}"}),
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(repair(text), expected, "{text}");
        let typed = llm_extract::extract::<Value>(text).unwrap().value;
        assert_eq!(typed, expected, "typed: {text}");
    }
}

/// Every character that separates tokens reads as a space does wherever a space may stand:
/// JSON's four, the vertical tab and form feed, and every Unicode space (U+0085 and U+1680
/// among them). None becomes text of a value or a key.
#[test]
fn every_kind_of_space_separates_tokens() {
    let spaces = [
        "\u{b}", "\u{c}", "\u{85}", "\u{a0}", "\u{1680}", "\u{180e}", "\u{2000}", "\u{200a}",
        "\u{200b}", "\u{2028}", "\u{2029}", "\u{202f}", "\u{205f}", "\u{3000}", "\u{feff}",
    ];
    // `_` marks where a space may stand; the parts between are tokens.
    let shapes = [
        r#"_{_"a"_:_1_,_"b"_:_[_true_,_null_,_"x"_]_,_"c"_:_{_"d"_:_-2.5_}_}_"#,
        r#"{_a_:_'one'_,_b_:_None_,_c_:_[_1_,_2_,_]_,_}"#,
        r#"[_{_"k"_:_"v"_}_,_{_"k"_:_"w"_}_]"#,
    ];
    for shape in shapes {
        let expected = repair(&shape.replace('_', " "));
        for space in spaces {
            let text = shape.replace('_', space);
            assert_eq!(repair(&text), expected, "{text:?}");
            let kinds = repairs_of(&text);
            assert!(
                kinds.contains(&RepairKind::UnicodeWhitespace),
                "{text:?}: {kinds:?}"
            );
            // Streamed a character at a time, the spaces hold nothing back.
            let mut stream = llm_extract::Stream::<Value>::new();
            for c in text.chars() {
                stream.push(c.encode_utf8(&mut [0; 4]));
            }
            let shown = serde_json::to_value(stream.snapshot()).unwrap();
            assert_eq!(shown, expected, "{text:?}");
        }
    }
}

/// Models answering in Chinese or Japanese write the separators full-width: `：` between a key
/// and its value and `，` between members or items are read as `:` and `,` (and logged), while
/// the same characters inside a string, or in unquoted text not followed by a key, stay text.
#[test]
fn full_width_separators_between_tokens() {
    let rows = [
        (
            r#"{"name"："张三"，"age"：30}"#,
            json!({"name": "张三", "age": 30}),
        ),
        (
            r#"{"name"： "张三"， "tags"： ["a"，"b"，1，true]， "ok"：true}"#,
            json!({"name": "张三", "tags": ["a", "b", 1, true], "ok": true}),
        ),
        (
            r#"{"a"："x，y：z"，"b"：1}"#,
            json!({"a": "x，y：z", "b": 1}),
        ),
        ("[1，2，3]", json!([1, 2, 3])),
        (r#"{"a": 1，}"#, json!({"a": 1})),
        ("{name：1，age：2}", json!({"name": 1, "age": 2})),
        (r#"{"a"：hello，"b"：2}"#, json!({"a": "hello", "b": 2})),
        ("{a：你好，世界，b：2}", json!({"a": "你好，世界", "b": 2})),
    ];
    for (i, (text, expected)) in rows.into_iter().enumerate() {
        assert_eq!(repair(text), expected, "{text}");
        assert!(
            repairs_of(text).contains(&RepairKind::FullWidthPunctuation),
            "{text}"
        );
        // Streamed a byte at a time, the separators hold nothing back (an unquoted word
        // before `，` waits for `finish`, as the parser reads it with what follows).
        if i < 6 {
            let mut stream = llm_extract::Stream::<Value>::new();
            for b in text.as_bytes().chunks(1) {
                stream.push_bytes(b);
            }
            let shown = serde_json::to_value(stream.snapshot()).unwrap();
            assert_eq!(shown, expected, "{text}");
        }
    }
    // Text, not separators: no repair of the kind.
    for (text, expected) in [
        (
            r#"{"a": "中文，句子：这样", "b": ["x，y"]}"#,
            json!({"a": "中文，句子：这样", "b": ["x，y"]}),
        ),
        (r#"{"a": 你好，世界}"#, json!({"a": "你好，世界"})),
    ] {
        assert_eq!(repair(text), expected, "{text}");
        assert!(
            !repairs_of(text).contains(&RepairKind::FullWidthPunctuation),
            "{text}"
        );
    }
}

/// A doubled comma after a string still ends it (`"x",, "b": 2`): the quote is not an
/// unescaped one, and the comma is logged as extra.
#[test]
fn a_doubled_comma_after_a_string_separates() {
    for (text, expected) in [
        (r#"{"a": "x",, "b": 2}"#, json!({"a": "x", "b": 2})),
        (
            r#"{"a": "x",,, "b": 2,, "c": "y",,}"#,
            json!({"a": "x", "b": 2, "c": "y"}),
        ),
        (r#"{"a": "x" ,, "b": 2}"#, json!({"a": "x", "b": 2})),
    ] {
        assert_eq!(repair(text), expected, "{text}");
        assert!(repairs_of(text).contains(&RepairKind::ExtraComma), "{text}");
    }
}

/// A closer of the wrong kind inside an array, with the array's items going on after it
/// (`["x"}, "y", "z"]`): when the rest of the text fits either reading (the closer stray, or
/// closing the array with a `]` left over), the one where the token after it can come next
/// wins. The items stay items; none is read as a key with an invented `null`, and no text is
/// taken as a key (`"https"` from a URL).
#[test]
fn a_stray_closer_in_an_array_keeps_the_items_after_it() {
    for (text, expected) in [
        (r#"{"s": ["x"}, "y", "z"]}"#, json!({"s": ["x", "y", "z"]})),
        (
            r#"{"s": ["x"}, "y", "z"], "t": 1}"#,
            json!({"s": ["x", "y", "z"], "t": 1}),
        ),
        (
            "{\"sources\": [\n \"https://a.org/1\"},\n \"https://b.io/2\",\n \"https://b.io/3\"\n ]\n}",
            json!({"sources": ["https://a.org/1", "https://b.io/2", "https://b.io/3"]}),
        ),
        (r#"{"a": [1, 2}, 3]}"#, json!({"a": [1, 2, 3]})),
        // Where a member follows, the closer still ends the array.
        (r#"{"a": [1, 2}, "b": 3}"#, json!({"a": [1, 2], "b": 3})),
        (r#"{"a": {"b": [1}, "c": 2}}"#, json!({"a": {"b": [1], "c": 2}})),
    ] {
        assert_eq!(repair(text), expected, "{text}");
    }
}

/// A stray closer at the end of a line of an indented value, with the member after it laid
/// out as the same container's (and the container's own closer on a line of its own later):
/// the layout says which closer is one too many, where counting brackets cannot. Before, the
/// closer ended the container there and its later members moved out to the container around
/// it (`"active"` became a member of the root, `74` an item after the list). A closer on a
/// line of its own still closes, and a text with no closer to spare reads as written.
#[test]
fn a_stray_closer_at_a_line_end_keeps_the_members_laid_out_after_it() {
    for (text, expected) in [
        (
            "{\n  \"customer\": {\n    \"name\": \"Emeka\",\n    \"age\": 47},\n    \"active\": true\n  },\n  \"x\": 1\n}",
            json!({"customer": {"name": "Emeka", "age": 47, "active": true}, "x": 1}),
        ),
        (
            "{\n  \"arguments\": {\n    \"language\": \"sql\"},\n    \"code\": \"SELECT 1;\"\n  },\n  \"reason\": \"r\"\n}",
            json!({"arguments": {"language": "sql", "code": "SELECT 1;"}, "reason": "r"}),
        ),
        // A list item after a run of closers, and a closer of the wrong kind.
        (
            "{\n  \"span\": [\n    6]},\n    74\n  ]\n}",
            json!({"span": [6, 74]}),
        ),
        (
            "[\n  {\n    \"text\": \"Emeka\",\n    \"type\": \"PERSON\"]},\n    \"span\": 3\n  }\n]",
            json!([{"text": "Emeka", "type": "PERSON", "span": 3}]),
        ),
        // The record's closer on its own line, the next record's `{` missing: it closes.
        (
            "[\n  {\n    \"id\": 1\n  },\n  \n    \"id\": 2\n  }\n]",
            json!([{"id": 1}, {"id": 2}]),
        ),
        // No closer to spare: as written, though the layout is odd.
        (
            "{\n  \"a\": {\n    \"b\": 1},\n    \"c\": 2\n}",
            json!({"a": {"b": 1}, "c": 2}),
        ),
    ] {
        assert_eq!(repair(text), expected, "{text}");
    }
}

/// A list where an object's key belongs names nothing. After a member whose value is a list
/// it goes on that list (`"tags": ["x"], ["y"]`, as json_repair reads it); anywhere else it is
/// skipped whole and reported. Before, its items were read as keys with `null` values the
/// reply never wrote (`"b": null`), and `[3, 4]` lost the `3` and made a key `"4"`.
#[test]
fn a_list_where_a_key_belongs_makes_no_keys() {
    for (text, expected) in [
        (
            r#"{"key": ["a"], ["b"], "k3": 1}"#,
            json!({"key": ["a", "b"], "k3": 1}),
        ),
        (r#"{"rows": [1, 2], [3, 4]}"#, json!({"rows": [1, 2, 3, 4]})),
        (r#"{"a": 1, ["b", "c"], "d": 2}"#, json!({"a": 1, "d": 2})),
        (
            r#"{"a": 1, ['b', {"x": [1]}] "d": 2}"#,
            json!({"a": 1, "d": 2}),
        ),
        // Members in the brackets are members: only the bracket is skipped.
        (
            r#"{"a": 1, [ "b": 2, "c": 3 ], "d": 4}"#,
            json!({"a": 1, "b": 2, "c": 3, "d": 4}),
        ),
    ] {
        assert_eq!(repair(text), expected, "{text}");
    }
    let report = llm_extract::extract::<serde_json::Value>(r#"{"a": 1, ["b", "c"], "d": 2}"#)
        .unwrap()
        .report;
    let skipped = (report.repairs.iter()).find(|r| r.kind == RepairKind::SkippedText);
    assert_eq!(skipped.map(|r| (r.span.start, r.span.end)), Some((9, 19)));
}

/// An object whose keys are bare phrases (`first name:`), as models write YAML-like objects:
/// a string value ends before `, last name:` as it ends before a one-word bare key. Before,
/// the value ran on and swallowed the members after it. Only in an object whose member being
/// read has such a key: in a string of an ordinary object, `", best regards: Ann` stays text.
#[test]
fn a_value_ends_before_a_bare_key_of_several_words() {
    for (text, expected) in [
        (
            r#"{first name: "Ada", last name: "Lovelace"}"#,
            json!({"first name": "Ada", "last name": "Lovelace"}),
        ),
        (
            r#"{first name: "Ada", last name: "Lovelace", date of birth: "1815-12-10"}"#,
            json!({"first name": "Ada", "last name": "Lovelace", "date of birth": "1815-12-10"}),
        ),
        (
            r#"{"text": "She wrote "Dear John", best regards: Ann"}"#,
            json!({"text": "She wrote \"Dear John\", best regards: Ann"}),
        ),
    ] {
        assert_eq!(repair(text), expected, "{text}");
    }
}

/// A string that lost its closing quote at the end of its line, in an object written with bare
/// keys (as models write JSON5 or JavaScript objects): the next line, when it is a whole member
/// (`priority: false,`), or a closer followed by one, ends the string there. Before, the
/// string ran on and swallowed the members after it as text. A line of prose or of a config
/// text with a colon (`Summary: we shipped.`, `port: 8080`) stays in the string.
#[test]
fn a_string_cut_at_its_line_end_before_a_bare_key_member_ends_there() {
    for (text, expected) in [
        (
            "{\n  steps: \"timeout\n  priority: false,\n  score: 3400\n}",
            json!({"steps": "timeout", "priority": false, "score": 3400}),
        ),
        (
            "{\n  a: \"x\n  b: \"y\",\n  c: [1]\n}",
            json!({"a": "x", "b": "y", "c": [1]}),
        ),
        (
            "{\n  r: [\n    {\n      owner: [\"billing\"], // see above\n      steps: \"timeout\n    }\n  ], // see above\n  priority: false,\n  score: 3400\n}",
            json!({"r": [{"owner": ["billing"], "steps": "timeout"}], "priority": false, "score": 3400}),
        ),
        (
            "{ note: \"Dear team,\nSummary: we shipped.\nRegards\", n: 1 }",
            json!({"note": "Dear team,\nSummary: we shipped.\nRegards", "n": 1}),
        ),
        (
            "{ code: \"services:\n  port: 8080\n  debug: true\nend\", n: 1 }",
            json!({"code": "services:\n  port: 8080\n  debug: true\nend", "n": 1}),
        ),
    ] {
        assert_eq!(repair(text), expected, "{text}");
    }
}

/// The last string of a pretty-printed document, cut at its line end before the closers that
/// end the document (`[\n  "invoice\n]`): the string ends at its line; before, it took the
/// closers and what followed as its text.
#[test]
fn a_last_string_cut_at_its_line_end_before_the_closers_ends_there() {
    for (text, expected) in [
        ("[\n  \"invoice\n],\n", json!(["invoice"])),
        ("{\n  \"a\": [\n    \"x\n  ]\n}", json!({"a": ["x"]})),
        (
            "{\n  \"a\": 1,\n  \"b\": \"x\n}\n",
            json!({"a": 1, "b": "x"}),
        ),
    ] {
        assert_eq!(repair(text), expected, "{text}");
    }
}

/// A stray character or two between a value's closing quote (or the closer after it) and the
/// separator (`"x"$, "b": 2`, `{"n": "x"}(, {...}`) is skipped, as it is after a number or a
/// container: the quote closes the string. Read as the string's text, the quote, the comma
/// and the next key's quote went into it, and in a list of records the next record's members
/// overwrote the first's (`id` 1 with the second record's `name`).
#[test]
fn a_stray_character_after_a_closing_quote_is_skipped() {
    for (text, expected) in [
        (r#"{"a": "x"$, "b": 2}"#, json!({"a": "x", "b": 2})),
        (r#"{"a": "x";, "b": 2}"#, json!({"a": "x", "b": 2})),
        (
            r#"{"a": {"n": "x"}(, "b": 2}"#,
            json!({"a": {"n": "x"}, "b": 2}),
        ),
        (
            r#"[{"id": 1, "name": "Ada", "notes": "shipped"}(, {"id": 2, "name": "Kai", "notes": "late"}]"#,
            json!([{"id": 1, "name": "Ada", "notes": "shipped"}, [{"id": 2, "name": "Kai", "notes": "late"}]]),
        ),
        // Inner quotes that prose writes keep their reading.
        (
            r#"{"a": "say "hi" now", "b": 1}"#,
            json!({"a": "say \"hi\" now", "b": 1}),
        ),
        (
            r#"{"a": "x (see "y")!, z", "b": 1}"#,
            json!({"a": "x (see \"y\")!, z", "b": 1}),
        ),
    ] {
        assert_eq!(repair(text), expected, "{text}");
    }
    assert!(repairs_of(r#"{"a": "x"$, "b": 2}"#).contains(&RepairKind::SkippedText));
}

/// A key whose closing quote is written twice (`"b"": 2`, a typo models and hands make): the
/// second quote is skipped (`SkippedText`), not read as a value string opening before the
/// `:`.
#[test]
fn a_key_closing_quote_written_twice_is_skipped() {
    for (text, expected) in [
        (r#"{"a"": 1, "b": 2}"#, json!({"a": 1, "b": 2})),
        (
            "{\n  \"type\"\": \"string\",\n  \"min\": 1\n}",
            json!({"type": "string", "min": 1}),
        ),
        (r#"{"a"":"#, json!({"a": null})),
        // After a string value too: its quote closes before such a key.
        (
            r#"{"a": "x", "b"": [1, 2], "c": 3}"#,
            json!({"a": "x", "b": [1, 2], "c": 3}),
        ),
    ] {
        assert_eq!(repair(text), expected, "{text}");
    }
    assert!(repairs_of(r#"{"a"": 1}"#).contains(&RepairKind::SkippedText));
}

/// Code quoted in a string with its quotes unescaped (`"return "q" + 's'; }"`): a `+` after
/// an inner quote joins a next part only when that part ends as a value does, so the code is
/// the string's text and the members after it stay; `"a" + "b"` still joins.
#[test]
fn a_plus_in_quoted_code_is_not_a_concatenation() {
    for (text, expected) in [
        (
            r#"{"m": "return "q" + 's'; }", "n": 1}"#,
            json!({"m": "return \"q\" + 's'; }", "n": 1}),
        ),
        (
            r#"{"code": "print("a" + "b")", "n": 2}"#,
            json!({"code": "print(\"a\" + \"b\")", "n": 2}),
        ),
        (r#"{"a": "x" + "y", "b": 1}"#, json!({"a": "xy", "b": 1})),
        (r#"["a" + "b", "c"]"#, json!(["ab", "c"])),
        (r#"{"a": ("x" + "y")}"#, json!({"a": ["xy"]})),
    ] {
        assert_eq!(repair(text), expected, "{text}");
    }
}

/// A key missing its closing quote after a string value (`"type": "git", "url: "https://.."`,
/// as `{"key:"value"}` alone): the value's quote closes it, the key ends at its `:`.
#[test]
fn a_key_missing_its_closing_quote_after_a_string_value() {
    for (text, expected) in [
        (
            r#"{"type": "git", "url: "https://x.git"}"#,
            json!({"type": "git", "url": "https://x.git"}),
        ),
        (
            "{\n  \"type\": \"git\",\n  \"url: \"https://x.git\"\n}",
            json!({"type": "git", "url": "https://x.git"}),
        ),
        (
            r#"{"a": "x", "key:"value"}"#,
            json!({"a": "x", "key": "value"}),
        ),
    ] {
        assert_eq!(repair(text), expected, "{text}");
    }
}

/// A member whose `:` is missing after a string value (`"a": "x", "b" "y"`) is read as the
/// member (`MissingColon`), as after a number value; the string before it ended at its
/// quote. So is a key whose `:` is missing before a number that ends the member (`"b" 2,`). Read as text, that string took the comma, the key and the value. A list of quoted
/// words in prose, with no key and `:` after it, stays the string's text.
#[test]
fn a_missing_colon_after_a_string_value_is_the_next_member() {
    for (text, expected) in [
        (r#"{"a": "x", "b" "y"}"#, json!({"a": "x", "b": "y"})),
        (
            r#"{"language": "sql", "code" "SELECT 1", "timeout": 30}"#,
            json!({"language": "sql", "code": "SELECT 1", "timeout": 30}),
        ),
        (
            "{\"text\": \"Bob\",\n  \"type\" \"PERSON\",\n  \"span\": [1, 2]}",
            json!({"text": "Bob", "type": "PERSON", "span": [1, 2]}),
        ),
        (
            r#"{"a": "x", "b" {"c": 1}}"#,
            json!({"a": "x", "b": {"c": 1}}),
        ),
        (r#"{"a": "x", "b" true}"#, json!({"a": "x", "b": true})),
        (
            r#"{"a": "x", "b" 2, "c": 3}"#,
            json!({"a": "x", "b": 2, "c": 3}),
        ),
        (
            r#"{"a": 1, "b" -1.5, "c": 3}"#,
            json!({"a": 1, "b": -1.5, "c": 3}),
        ),
        (r#"{"the "2" key": 1}"#, json!({"the \"2\" key": 1})),
        (
            r#"{"a": "list "x", "y" "z", "w"", "b": 1}"#,
            json!({"a": "list \"x\", \"y\" \"z\", \"w\"", "b": 1}),
        ),
    ] {
        assert_eq!(repair(text), expected, "{text}");
    }
    assert_eq!(
        repairs_of(r#"{"a": "x", "b" "y"}"#),
        [RepairKind::MissingColon]
    );
}

/// A string quoted with `'` that lost its closing quote ends before the next member when that
/// member's key is quoted with `"` (or the reverse), unless the string's own quote comes again
/// on that key's line: it swallowed the members after it (and with a stray `'` before a value,
/// the records after it). Both peers read these so.
#[test]
fn a_string_missing_its_closing_quote_ends_before_a_key_quoted_otherwise() {
    for (text, expected) in [
        (r#"{"a": 'x, "b": 1}"#, json!({"a": "x", "b": 1})),
        (r#"{'a': "x, 'b': 1}"#, json!({"a": "x", "b": 1})),
        (r#"{"a": 'O'Neil, "b": 1}"#, json!({"a": "O'Neil", "b": 1})),
        (
            "{\"a\":' 4,\n  \"b\": \"y\",\n  \"c\": 2\n}",
            json!({"a": " 4", "b": "y", "c": 2}),
        ),
        (
            r#"[{"id": 1,"name": '"Dana Smith","score": 81.7}, {"id": 2}]"#,
            json!([{"id": 1, "name": "\"Dana Smith\"", "score": 81.7}, {"id": 2}]),
        ),
        // The string's own quote on the key's line: the key is its text.
        (
            r#"{'data': '{"a": 1, "b": 2}', 'c': 3}"#,
            json!({"data": "{\"a\": 1, \"b\": 2}", "c": 3}),
        ),
        (
            "{\"code\": 'print({\"a\": 1,\n \"b\": 2})', \"c\": 3}",
            json!({"code": "print({\"a\": 1,\n \"b\": 2})", "c": 3}),
        ),
        (
            r#"{"note": "He said, 'hi': then left", "n": 1}"#,
            json!({"note": "He said, 'hi': then left", "n": 1}),
        ),
    ] {
        assert_eq!(llm_extract::repair(text).unwrap(), expected, "{text}");
    }
}

/// A stray character or two between a key's closing quote and its `:` are skipped, as they
/// are between a value and its separator: read as the key's text, they took the `:` and the
/// value's opening quote into the key, and the member had no value.
#[test]
fn stray_characters_before_a_keys_colon_are_skipped() {
    for (text, expected) in [
        (
            r#"{"reason"+: "y", "n": 1}"#,
            json!({"reason": "y", "n": 1}),
        ),
        (
            r#"{"reason"$ : "y", "n": 1}"#,
            json!({"reason": "y", "n": 1}),
        ),
        (r#"{"a"(: 1}"#, json!({"a": 1})),
        (r#"{"a"!: "x"}"#, json!({"a": "x"})),
        // A quote inside the key, then its `:`, stays the key's text.
        (r#"{"say "hi": 1}"#, json!({"say \"hi": 1})),
    ] {
        assert_eq!(llm_extract::repair(text).unwrap(), expected, "{text}");
    }
    let done = llm_extract::extract::<serde_json::Value>(r#"{"reason"+: "y"}"#).unwrap();
    assert!(
        done.report
            .repairs
            .iter()
            .any(|r| r.kind == llm_extract::RepairKind::SkippedText),
        "{:?}",
        done.report
    );
}

/// In an array, a quoted string after a bare word and a space is the next item, its comma
/// missing (as both peers read it): the word took the quote and the string into it, and the
/// string's closing quote was lost.
#[test]
fn a_quoted_string_after_a_bare_word_in_an_array_is_the_next_item() {
    for (text, expected) in [
        ("[\n  L  \"ops\"\n]", json!(["L", "ops"])),
        (r#"[He said "hi"]"#, json!(["He said", "hi"])),
        (r#"[say "hi" now]"#, json!(["say", "hi", "now"])),
        (r#"["a", b "c", "d"]"#, json!(["a", "b", "c", "d"])),
        (r#"{"a": [x "y"]}"#, json!({"a": ["x", "y"]})),
        // A quote inside a word is the word's.
        (r#"[it"s]"#, json!(["it\"s"])),
    ] {
        assert_eq!(llm_extract::repair(text).unwrap(), expected, "{text}");
    }
}

/// A trailing comma after a nested container closes it as written, whatever the rest of the
/// reply holds: a closer to spare elsewhere does not make it the stray one (which made the
/// list go on and the items after it keys).
#[test]
fn a_trailing_comma_after_a_nested_container_closes_it_as_written() {
    for (text, want) in [
        (
            r#"[{"k0": {"k0": 1},}, true, ["a b", 2.5,]],]"#,
            json!([{"k0": {"k0": 1}}, true, ["a b", 2.5]]),
        ),
        (
            r#"[{"k0": true], "k1": [["s", 1], 2.5,],}, null]]"#,
            json!([{"k0": true, "k1": [["s", 1], 2.5]}, null]),
        ),
        (
            "{\"a\": {\"b\": [1, 2],}, \"c\": 3}\nThat is all :}",
            json!({"a": {"b": [1, 2]}, "c": 3}),
        ),
    ] {
        assert_eq!(repair(text), want, "{text:?}");
        let trailing = repairs_of(text).contains(&RepairKind::TrailingComma);
        assert!(trailing, "{text:?}");
    }
}

#[test]
fn a_reply_that_goes_on_from_a_prefilled_brace_is_its_object() {
    // Asked to answer after a `{` the caller wrote (a prefilled turn), the model starts at
    // the first key: the object's `{` is missing, and is read as such.
    let cases = [
        (
            "\"name\": \"Ada\", \"age\": 36}",
            json!({"name": "Ada", "age": 36}),
        ),
        (
            "\n  \"name\": \"Ada\",\n  \"tags\": [\"a\", \"b\"]\n}\n",
            json!({"name": "Ada", "tags": ["a", "b"]}),
        ),
        ("'name': 'Ada'}", json!({"name": "Ada"})),
        (
            "```json\n\"name\": \"Ada\",\n\"age\": 36\n}\n```",
            json!({"name": "Ada", "age": 36}),
        ),
        (
            "\"a\": {\"b\": [1, 2]}, \"c\": \"d\"}\n\nThat is all.",
            json!({"a": {"b": [1, 2]}, "c": "d"}),
        ),
    ];
    for (text, want) in cases {
        assert_eq!(repair(text), want, "{text:?}");
        assert!(
            repairs_of(text).contains(&RepairKind::MissingOpeningBracket),
            "{text:?}"
        );
        // The stream's answer is `extract`'s; until the `}` settles it, it shows nothing
        // (never the first key as a string, nor an inner part as the answer).
        let mut stream = llm_extract::Stream::<Value>::new();
        for c in text.chars() {
            stream.push(&c.to_string());
            assert_eq!(stream.partial(), None, "{text:?}");
        }
        assert_eq!(stream.finish().unwrap().value, want, "{text:?}");
    }
    // Typed, as a caller who prefilled `{` reads the reply.
    #[derive(llm_extract::Extract, Debug, PartialEq)]
    struct Person {
        name: String,
        age: u32,
    }
    let person = llm_extract::extract::<Person>("\"name\": \"Ada\", \"age\": \"36\"}").unwrap();
    assert_eq!(
        person.value,
        Person {
            name: "Ada".into(),
            age: 36
        }
    );
    // Cut off, or ended without its `}`: the object so far, marked incomplete (never the
    // first key as a string, nor an inner list).
    for (text, want) in [
        ("\"a\": 1, \"b\": 2\n", json!({"a": 1, "b": 2})),
        (
            "\"name\": \"Ada\", \"tags\": [\"a\", \"b\"",
            json!({"name": "Ada", "tags": ["a", "b"]}),
        ),
        (
            "\"name\": \"Ada\", \"bio\": \"long te",
            json!({"name": "Ada", "bio": "long te"}),
        ),
    ] {
        assert_eq!(repair(text), want, "{text:?}");
        let read = llm_extract::extract::<Value>(text).unwrap();
        assert!(!read.report.complete, "{text:?}");
    }
    // A quoted word that no value follows is still the string it was.
    assert_eq!(repair("\"yes\""), json!("yes"));
    assert_eq!(repair("\"Note\": see {\"a\": 1}"), json!({"a": 1}));
}

/// Extra closers inside a run of closers (a closer written twice, `]]}` or `]}}}]` where
/// `]}` or `]}]` belongs, `]}}` where `}` belongs): the closers that match the containers in
/// turn close them, the others are stray, so the members after the run land where they were written; the extra
/// ones were read as making every closer of the run stray. Streamed in any chunks, the value
/// is the same.
#[test]
fn extra_closers_inside_a_run_are_the_stray_ones() {
    let cases = [
        (
            r#"{"e": [{"t": "A", "s": [1, 84]]}, {"t": "E", "s": [2]}], "x": 1}"#,
            json!({"e": [{"t": "A", "s": [1, 84]}, {"t": "E", "s": [2]}], "x": 1}),
        ),
        (
            r#"{"e": [{"t": "A", "s": [1, 84]]}}, {"t": "E", "s": [2]}], "x": 1}"#,
            json!({"e": [{"t": "A", "s": [1, 84]}, {"t": "E", "s": [2]}], "x": 1}),
        ),
        (
            r#"{"e": [{"t": "B", "s": [14, 90]}}}],"stats": {"w": 1}, "src": []}"#,
            json!({"e": [{"t": "B", "s": [14, 90]}], "stats": {"w": 1}, "src": []}),
        ),
        // A run that starts with a closer of the wrong kind.
        (
            r#"{"id": 1, "c": {"name": "Bob", "active": true]}}, "d": "x", "tags": ["a"]}"#,
            json!({"id": 1, "c": {"name": "Bob", "active": true}, "d": "x", "tags": ["a"]}),
        ),
    ];
    for (text, want) in cases {
        assert_eq!(repair(text), want, "{text}");
        for size in [1, 7, 64] {
            let mut stream = llm_extract::Stream::<Value>::new();
            for chunk in text.as_bytes().chunks(size) {
                stream.push_bytes(chunk);
            }
            assert_eq!(
                stream.finish().unwrap().value,
                want,
                "{text} in {size}-byte chunks"
            );
        }
    }
}
