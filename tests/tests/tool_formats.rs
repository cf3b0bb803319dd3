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

#[test]
fn gemma4() {
    let call = |body: &str| format!("<|tool_call>call:{body}<tool_call|>");
    let rows = vec![
        // vLLM test_gemma4_tool_parser TestExtractToolCalls
        row(
            "single call",
            &call("get_weather{location:<|\"|>London<|\"|>}"),
            Format::Gemma4,
            vec![("get_weather", json!({"location": "London"}))],
            "",
        ),
        row(
            "two arguments",
            &call("get_weather{location:<|\"|>San Francisco<|\"|>,unit:<|\"|>celsius<|\"|>}"),
            Format::Gemma4,
            vec![("get_weather", json!({"location": "San Francisco", "unit": "celsius"}))],
            "",
        ),
        row(
            "text before the call",
            &format!(
                "Let me check the weather for you. {}",
                call("get_weather{location:<|\"|>Paris<|\"|>}")
            ),
            Format::Gemma4,
            vec![("get_weather", json!({"location": "Paris"}))],
            "Let me check the weather for you.",
        ),
        row(
            "two calls",
            &(call("get_weather{location:<|\"|>London<|\"|>}")
                + &call("get_time{location:<|\"|>London<|\"|>}")),
            Format::Gemma4,
            vec![
                ("get_weather", json!({"location": "London"})),
                ("get_time", json!({"location": "London"})),
            ],
            "",
        ),
        row(
            "nested object and list",
            &call("complex_function{nested:{inner:<|\"|>value<|\"|>},list:[<|\"|>a<|\"|>,<|\"|>b<|\"|>]}"),
            Format::Gemma4,
            vec![("complex_function", json!({"nested": {"inner": "value"}, "list": ["a", "b"]}))],
            "",
        ),
        row(
            "numbers and booleans",
            &call("set_status{is_active:true,count:42,score:3.14}"),
            Format::Gemma4,
            vec![("set_status", json!({"is_active": true, "count": 42, "score": 3.14}))],
            "",
        ),
        row(
            "hyphenated name",
            &call("get-weather{location:<|\"|>London<|\"|>}"),
            Format::Gemma4,
            vec![("get-weather", json!({"location": "London"}))],
            "",
        ),
        row(
            "dotted name",
            &call("weather.get{location:<|\"|>London<|\"|>}"),
            Format::Gemma4,
            vec![("weather.get", json!({"location": "London"}))],
            "",
        ),
        row("no arguments", &call("get_status{}"), Format::Gemma4, vec![("get_status", json!({}))], ""),
        // TestParseGemma4Args
        row(
            "a comma inside a string",
            &call("f{location:<|\"|>Paris, France<|\"|>}"),
            Format::Gemma4,
            vec![("f", json!({"location": "Paris, France"}))],
            "",
        ),
        row(
            "null",
            &call("f{param:null}"),
            Format::Gemma4,
            vec![("f", json!({"param": null}))],
            "",
        ),
        row(
            "a delimited key",
            &call("f{record_map:{<|\"|>3<|\"|>:<|\"|>new text<|\"|>}}"),
            Format::Gemma4,
            vec![("f", json!({"record_map": {"3": "new text"}}))],
            "",
        ),
        row(
            "a delimited key nested",
            &call("f{outer:{inner:{<|\"|>3<|\"|>:<|\"|>new text<|\"|>}}}"),
            Format::Gemma4,
            vec![("f", json!({"outer": {"inner": {"3": "new text"}}}))],
            "",
        ),
        row(
            "bare values in a list",
            &call("f{xs:[42,true,3.14]}"),
            Format::Gemma4,
            vec![("f", json!({"xs": [42, true, 3.14]}))],
            "",
        ),
        row(
            "a list holding a list whose string holds a bracket",
            &call("f{xs:[[<|\"|>a]b<|\"|>,<|\"|>c<|\"|>],<|\"|>tail<|\"|>]}"),
            Format::Gemma4,
            vec![("f", json!({"xs": [["a]b", "c"], "tail"]}))],
            "",
        ),
        // vLLM reads `108.` as 108.0 (Python's float()); it is not JSON, so for a call without
        // a type it stays the text written, and a typed field decides (an f64 reads 108).
        row(
            "a float ending in a dot",
            &call("f{left:108.,right:22.8}"),
            Format::Gemma4,
            vec![("f", json!({"left": "108.", "right": 22.8}))],
            "",
        ),
        // Quotes and brackets inside a delimited string are text, and the end token of a
        // turn also ends a call (gemma4_utils accepts `<turn|>` for `<tool_call|>`).
        row(
            "quotes inside a string, closed by <turn|>",
            "<|tool_call>call:note{text:<|\"|>a 5\" screen {x}<|\"|>}<turn|>",
            Format::Gemma4,
            vec![("note", json!({"text": "a 5\" screen {x}"}))],
            "",
        ),
        row("no call", "Hello, how can I help you today?", Format::Gemma4, vec![], "Hello, how can I help you today?"),
    ];
    check_rows(&rows);
    // vLLM test_incomplete_tool_call: no call (and vLLM returns the text as content); here it
    // is reported as cut off.
    assert!(cut_off(
        "<|tool_call>call:get_weather{location:<|\"|>London"
    ));
    assert!(cut_off(
        "<|tool_call>call:get_weather{location:<|\"|>London<|\"|>}"
    ));
    assert!(cut_off("<|tool_call>call:f{n:4"));
}

#[test]
fn function_gemma() {
    let call = |body: &str| format!("<start_function_call>call:{body}<end_function_call>");
    let rows = vec![
        // vLLM test_functiongemma_tool_parser
        row(
            "single call",
            &call("get_weather{location:<escape>London<escape>}"),
            Format::FunctionGemma,
            vec![("get_weather", json!({"location": "London"}))],
            "",
        ),
        row(
            "two arguments",
            &call("get_weather{location:<escape>San Francisco<escape>,unit:<escape>celsius<escape>}"),
            Format::FunctionGemma,
            vec![("get_weather", json!({"location": "San Francisco", "unit": "celsius"}))],
            "",
        ),
        row(
            "text before the call",
            &format!(
                "Let me check the weather for you. {}",
                call("get_weather{location:<escape>Paris<escape>}")
            ),
            Format::FunctionGemma,
            vec![("get_weather", json!({"location": "Paris"}))],
            "Let me check the weather for you.",
        ),
        row(
            "two calls",
            &(call("get_weather{location:<escape>London<escape>}")
                + &call("get_time{timezone:<escape>UTC<escape>}")),
            Format::FunctionGemma,
            vec![
                ("get_weather", json!({"location": "London"})),
                ("get_time", json!({"timezone": "UTC"})),
            ],
            "",
        ),
        // TestParseArguments: an escaped value is read as JSON when it is JSON.
        row(
            "escaped number and boolean",
            &call("f{count:<escape>42<escape>,enabled:<escape>true<escape>,message:<escape>Hello World<escape>}"),
            Format::FunctionGemma,
            vec![("f", json!({"count": 42, "enabled": true, "message": "Hello World"}))],
            "",
        ),
        // TestExtractToolCallsStreaming: pairs without a comma between them.
        row(
            "pairs without commas",
            &call("search{query:<escape>python<escape>limit:<escape>10<escape>sort:<escape>relevance<escape>}"),
            Format::FunctionGemma,
            vec![("search", json!({"query": "python", "limit": 10, "sort": "relevance"}))],
            "",
        ),
    ];
    check_rows(&rows);
    assert!(cut_off(
        "<start_function_call>call:get_weather{city:<escape>NYC<escape>"
    ));
}

/// A typed call reads a Gemma value as its field's type says.
#[test]
fn gemma_values_typed() {
    #[derive(llm_extract::Extract, Debug, PartialEq)]
    enum Tool {
        SetStatus {
            code: String,
            count: u32,
            active: bool,
        },
    }
    // The delimited "3" is a string for Gemma 4; a bare 3 read as a `String` stays "3".
    let calls: Vec<Tool> = tool::calls(
        "<|tool_call>call:set_status{code:3,count:<|\"|>7<|\"|>,active:True}<tool_call|>",
    )
    .unwrap();
    assert_eq!(
        calls,
        vec![Tool::SetStatus {
            code: "3".into(),
            count: 7,
            active: true
        }]
    );
    let calls: Vec<Tool> = tool::calls("<start_function_call>call:set_status{code:<escape>3<escape>,count:<escape>7<escape>,active:<escape>true<escape>}<end_function_call>").unwrap();
    assert_eq!(
        calls,
        vec![Tool::SetStatus {
            code: "3".into(),
            count: 7,
            active: true
        }]
    );
}

#[test]
fn mistral() {
    let add = json!({"a": 3.5, "b": 4});
    let weather = json!({"city": "San Francisco", "state": "CA", "unit": "celsius"});
    let rows = vec![
        // vLLM test_mistral_tool_parser test_extract_tool_calls
        row(
            "name then JSON",
            r#"[TOOL_CALLS]add_this_and_that{"a": 3.5, "b": 4}"#,
            Format::Mistral,
            vec![("add_this_and_that", add.clone())],
            "",
        ),
        row(
            "two calls, name then JSON",
            r#"[TOOL_CALLS]add{"a": 3.5, "b": 4}[TOOL_CALLS]multiply{"a": 3, "b": 6}"#,
            Format::Mistral,
            vec![("add", add.clone()), ("multiply", json!({"a": 3, "b": 6}))],
            "",
        ),
        row(
            "v11 [ARGS]",
            r#"[TOOL_CALLS]get_current_weather[ARGS]{"city": "San Francisco", "state": "CA", "unit": "celsius"}"#,
            Format::Mistral,
            vec![("get_current_weather", weather.clone())],
            "",
        ),
        row(
            "v11 two calls",
            r#"[TOOL_CALLS]add[ARGS]{"a": 3.5, "b": 4}[TOOL_CALLS]multiply[ARGS]{"a": 3, "b": 6}"#,
            Format::Mistral,
            vec![("add", add.clone()), ("multiply", json!({"a": 3, "b": 6}))],
            "",
        ),
        row(
            "v11 after text",
            r#"hi[TOOL_CALLS]add[ARGS]{"a": 1, "b": 2}"#,
            Format::Mistral,
            vec![("add", json!({"a": 1, "b": 2}))],
            "hi",
        ),
        // The [CALL_ID] form (v13 and the vLLM tests' `[TOOL_CALLS]f[CALL_ID]id[ARGS]{...}`).
        row(
            "with [CALL_ID]",
            r#"[TOOL_CALLS]add[CALL_ID]a1b2c3d4e[ARGS]{"a": 3.5, "b": 4}"#,
            Format::Mistral,
            vec![("add", add.clone())],
            "",
        ),
        // test_extract_tool_calls_streaming_pre_v11_tokenizer
        row(
            "JSON list",
            r#"[TOOL_CALLS]  [ {"name":"add" , "arguments" : {"a": 3, "b": 4} } ]"#,
            Format::Mistral,
            vec![("add", json!({"a": 3, "b": 4}))],
            "",
        ),
        row(
            "JSON list, name after arguments",
            r#"[TOOL_CALLS] [{"arguments": {"name": "John Doe"}, "name": "get_age"}]"#,
            Format::Mistral,
            vec![("get_age", json!({"name": "John Doe"}))],
            "",
        ),
        row(
            "JSON list then text",
            "[TOOL_CALLS] [{\"name\": \"get_current_weather\", \"arguments\":{\"city\": \"Dallas\", \"state\": \"TX\", \"unit\": \"fahrenheit\"}}]\nextra trailing data",
            Format::Mistral,
            vec![("get_current_weather", json!({"city": "Dallas", "state": "TX", "unit": "fahrenheit"}))],
            "extra trailing data",
        ),
        // smg tool_parser_mistral: text before, brackets inside strings.
        row(
            "JSON list after text",
            "Let me search for that.\n[TOOL_CALLS] [{\"name\": \"search_web\", \"arguments\": {\"query\": \"latest news\", \"max_results\": 5}}]",
            Format::Mistral,
            vec![("search_web", json!({"query": "latest news", "max_results": 5}))],
            "Let me search for that.",
        ),
        row(
            "brackets inside a string",
            r#"[TOOL_CALLS] [{"name": "echo", "arguments": {"text": "Array notation: arr[0] = value[1]"}}]"#,
            Format::Mistral,
            vec![("echo", json!({"text": "Array notation: arr[0] = value[1]"}))],
            "",
        ),
    ];
    check_rows(&rows);
    // vLLM's "wrong json" row, read whole only: streamed, a prefix cut inside the string
    // right after `{}` is read by the lenient JSON parser as a complete call with the string
    // ended early (the cut-off string repair that decides doubtful calls, not this format).
    let reply = tool::read(
        r#"hi{hi[TOOL_CALLS]bash{"command": "print(\"hello world!\")\nre.compile(r'{}')"}"#,
    );
    assert_eq!(reply.calls.len(), 1);
    assert_eq!(
        reply.calls[0].call.arguments["command"],
        "print(\"hello world!\")\nre.compile(r'{}')"
    );
    assert_eq!(reply.text, "hi{hi");
    // vLLM's "complex" row (the JSON cut before its `}`) runs the call with what was written;
    // here it is cut off. vLLM's test_extract_tool_calls_v11_without_args_skipped runs
    // `[TOOL_CALLS]toolname_no_args` with `{}`; here a name at the end of the reply may be
    // cut before its arguments, so it is reported, not run.
    assert!(cut_off(
        r#"hi{hi[TOOL_CALLS]bash{"command": "print(\"hello world!\")\nre.compile(r'{}')"#
    ));
    assert!(tool::tool_calls("[TOOL_CALLS]toolname_no_args").is_empty());
}
