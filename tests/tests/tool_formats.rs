//! The tool-call formats of late-2026 serving engines, each read from the engines' own parsers
//! and tests (vLLM's `tool_parsers`, SGLang's `function_call`, smg's `tool_parser`) and ported
//! here as table rows: the reply, the calls expected, and the answer text (the engines'
//! `content`, trimmed, as `Reply::text` is). Every row is also streamed through `StreamCalls`
//! at chunk sizes 1, 7 and 64 and must give what the whole read gives.
//!
//! Where a row decides differently from the engine it was ported from, a comment says so and
//! why. Two differences hold for every format and are not repeated: text after the calls is
//! answer text here (most engines drop what follows the first call), and a call whose closer
//! is missing is reported as cut off instead of run (the engines either drop it or run it
//! with the arguments written so far).

use llm_extract::tool::{self, Format};
use llm_extract_tests::tool_stream::{check, Begins};
use serde_json::{json, Value};

/// One ported test: what it is, the reply, the format of its calls, the calls (name,
/// arguments) and the answer text.
struct Row {
    what: &'static str,
    reply: String,
    format: Format,
    calls: Vec<(&'static str, Value)>,
    text: &'static str,
}

fn row(
    what: &'static str,
    reply: &str,
    format: Format,
    calls: Vec<(&'static str, Value)>,
    text: &'static str,
) -> Row {
    Row {
        what,
        reply: reply.to_string(),
        format,
        calls,
        text,
    }
}

/// Reads the row whole and streamed, and checks both.
fn check_rows(rows: &[Row]) {
    for r in rows {
        let reply = tool::read(&r.reply);
        let got: Vec<(String, Value)> = reply
            .calls
            .iter()
            .map(|f| (f.call.name.clone(), Value::Object(f.call.arguments.clone())))
            .collect();
        let expected: Vec<(String, Value)> = r
            .calls
            .iter()
            .map(|(n, a)| (n.to_string(), a.clone()))
            .collect();
        assert_eq!(got, expected, "{}: {:#?}", r.what, reply);
        for f in &reply.calls {
            assert_eq!(f.format, r.format, "{}", r.what);
        }
        assert_eq!(reply.text, r.text, "{}", r.what);
        for size in [1, 7, 64] {
            let chunks: Vec<&[u8]> = r.reply.as_bytes().chunks(size).collect();
            check(r.what, &r.reply, &chunks, Begins::Answer);
        }
    }
}

/// Every row of every table, read whole and streamed, reports what was cut off rather than
/// running it.
fn cut_off(reply: &str) -> bool {
    let read = tool::read(reply);
    read.calls.is_empty() && !read.incomplete.is_empty()
}

#[test]
fn deepseek_dsml() {
    let v32 = |body: &str| format!("<｜DSML｜function_calls>\n{body}</｜DSML｜function_calls>");
    let v4 = |body: &str| format!("<｜DSML｜tool_calls>\n{body}</｜DSML｜tool_calls>");
    let p = |k: &str, string: bool, v: &str| {
        format!("<｜DSML｜parameter name=\"{k}\" string=\"{string}\">{v}</｜DSML｜parameter>\n")
    };
    let invoke = |name: &str, params: &str| {
        format!("<｜DSML｜invoke name=\"{name}\">\n{params}</｜DSML｜invoke>\n")
    };
    let rows = vec![
        // smg test_deepseek32_complete_single_tool
        row(
            "V3.2 single call after text",
            &format!(
                "Let me check that.\n\n{}",
                v32(&invoke(
                    "get_weather",
                    &(p("location", true, "Tokyo") + &p("units", true, "celsius"))
                ))
            ),
            Format::Dsml,
            vec![(
                "get_weather",
                json!({"location": "Tokyo", "units": "celsius"}),
            )],
            "Let me check that.",
        ),
        // smg test_deepseek32_complete_multiple_tools
        row(
            "V3.2 two calls",
            &v32(&(invoke("search", &p("query", true, "rust programming"))
                + &invoke(
                    "translate",
                    &(p("text", true, "Hello World") + &p("to", true, "ja")),
                ))),
            Format::Dsml,
            vec![
                ("search", json!({"query": "rust programming"})),
                ("translate", json!({"text": "Hello World", "to": "ja"})),
            ],
            "",
        ),
        // smg test_deepseek32_complete_direct_json
        row(
            "V3.2 JSON inside the invoke",
            &v32(&invoke(
                "get_weather",
                "{\"location\": \"Beijing\", \"date\": \"2024-01-16\"}\n",
            )),
            Format::Dsml,
            vec![(
                "get_weather",
                json!({"location": "Beijing", "date": "2024-01-16"}),
            )],
            "",
        ),
        // smg test_deepseek32_complete_mixed_types
        row(
            "V3.2 string=false values are JSON",
            &v32(&invoke(
                "process",
                &(p("text", true, "hello")
                    + &p("count", false, "42")
                    + &p("enabled", false, "true")),
            )),
            Format::Dsml,
            vec![(
                "process",
                json!({"text": "hello", "count": 42, "enabled": true}),
            )],
            "",
        ),
        // smg test_deepseek32_complete_nested_json_param
        row(
            "V3.2 a JSON object parameter",
            &v32(&invoke(
                "process",
                &p("data", false, "{\"nested\": [1, 2, 3]}"),
            )),
            Format::Dsml,
            vec![("process", json!({"data": {"nested": [1, 2, 3]}}))],
            "",
        ),
        // smg test_deepseek32_complete_malformed_skips. smg returns `search` with `{}` as well;
        // here an invoke holding text that is neither parameters nor JSON is not a call (the
        // text would be dropped without a word).
        row(
            "V3.2 an invoke holding prose is not a call",
            &v32(&(invoke("search", "not valid at all\n")
                + &invoke(
                    "translate",
                    &(p("text", true, "hello") + &p("to", true, "ja")),
                ))),
            Format::Dsml,
            vec![("translate", json!({"text": "hello", "to": "ja"}))],
            "",
        ),
        // smg test_deepseek32_no_tool_calls
        row(
            "no call",
            "Just a normal response.",
            Format::Dsml,
            vec![],
            "Just a normal response.",
        ),
        // vLLM test_deepseekv4_tool_parser test_extract_tool_calls
        row(
            "V4 tool_calls block after text",
            &format!(
                "Let me check. {}",
                v4(&invoke(
                    "get_weather",
                    &(p("location", true, "Beijing") + &p("unit", true, "celsius"))
                ))
            ),
            Format::Dsml,
            vec![(
                "get_weather",
                json!({"location": "Beijing", "unit": "celsius"}),
            )],
            "Let me check.",
        ),
        // vLLM test_function_calls_block_is_not_accepted: vLLM's V4 parser refuses V3.2's
        // `function_calls` block. Here the format is detected, not configured, so both blocks
        // are read (a V3.2 reply is a V3.2 reply whichever parser is set).
        row(
            "V4 with V3.2's block name",
            &v32(&invoke("search", &p("query", true, "vllm"))),
            Format::Dsml,
            vec![("search", json!({"query": "vllm"}))],
            "",
        ),
        // String values are taken as written, spaces and line breaks included.
        row(
            "a string value keeps its layout",
            &v4(&invoke("write", &p("content", true, "line 1\n  line 2\n"))),
            Format::Dsml,
            vec![("write", json!({"content": "line 1\n  line 2\n"}))],
            "",
        ),
        // string="false" values that are not valid JSON stay text; Python literals are JSON's.
        row(
            "a JSON value that is not JSON stays text",
            &v4(&invoke(
                "f",
                &(p("x", false, "{invalid json: no quotes}")
                    + &p("flag", false, "True")
                    + &p("none", false, "None")),
            )),
            Format::Dsml,
            vec![(
                "f",
                json!({"x": "{invalid json: no quotes}", "flag": true, "none": null}),
            )],
            "",
        ),
    ];
    check_rows(&rows);
    // Cut inside a parameter or before the invoke's closer: reported, not run.
    let whole = v32(&invoke("rm", &p("path", true, "/tmp/x")));
    for cut in ["</｜DSML｜parameter>", "</｜DSML｜invoke>"] {
        let at = whole.find(cut).unwrap();
        assert!(cut_off(&whole[..at]), "cut before {cut}");
    }
}
