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
            &call("set_status{is_active:true,count:42,score:2.5}"),
            Format::Gemma4,
            vec![("set_status", json!({"is_active": true, "count": 42, "score": 2.5}))],
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
            &call("f{xs:[42,true,2.5]}"),
            Format::Gemma4,
            vec![("f", json!({"xs": [42, true, 2.5]}))],
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
        // vLLM's gemma4 parser: `<|channel>`...`<channel|>` is reasoning; a call drafted there
        // is not a call.
        row(
            "after the thought channel",
            "<|channel>thought\nMaybe <|tool_call>call:rm{path:<|\"|>/<|\"|>}<tool_call|>, no.<channel|>Sure.<|tool_call>call:get_time{}<tool_call|>",
            Format::Gemma4,
            vec![("get_time", json!({}))],
            "Sure.",
        ),
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

#[test]
fn seed_oss() {
    let think = "<seed:think>The user wants the weather. The format is <seed:tool_call>\n<function=get_weather>\n<parameter=location>Barcelona, Spain</parameter>\n<parameter=unit>celsius</parameter>\n</function>\n</seed:tool_call>. Let me go with that.</seed:think>";
    let rows = vec![
        // vLLM test_seed_oss_tool_parser test_extract_tool_calls
        row(
            "thinking budget 0",
            "<seed:tool_call>\n<function=get_weather>\n<parameter=location>Barcelona, Spain</parameter>\n</function>\n</seed:tool_call>",
            Format::SeedOss,
            vec![("get_weather", json!({"location": "Barcelona, Spain"}))],
            "",
        ),
        // vLLM's content holds the reasoning (its reasoning parser splits it off); here the
        // reasoning is in `Reply::thoughts`, and the call written inside it is a draft.
        row(
            "a call described in the reasoning, then made",
            &format!("{think}<seed:tool_call>\n<function=get_weather>\n<parameter=location>Barcelona, Spain</parameter>\n<parameter=unit>celsius</parameter>\n</function>\n</seed:tool_call>"),
            Format::SeedOss,
            vec![("get_weather", json!({"location": "Barcelona, Spain", "unit": "celsius"}))],
            "",
        ),
        row(
            "no call",
            "This is a test response without any tool calls",
            Format::SeedOss,
            vec![],
            "This is a test response without any tool calls",
        ),
        // Values are text whose type the target decides: for a call without a type, what
        // they spell as JSON (vLLM keeps strings unless the request's schema says otherwise).
        row(
            "values spelling JSON",
            "<seed:tool_call><function=f><parameter=n>3</parameter><parameter=ok>True</parameter><parameter=bad>{x: 1</parameter></function></seed:tool_call>",
            Format::SeedOss,
            vec![("f", json!({"n": 3, "ok": true, "bad": "{x: 1"}))],
            "",
        ),
    ];
    check_rows(&rows);
    assert!(cut_off(
        "<seed:tool_call>\n<function=get_weather>\n<parameter=location>Barcelona"
    ));
    assert!(cut_off("<seed:tool_call>\n<function=get_weather>\n<parameter=location>Barcelona</parameter>\n</function>"));
}

#[test]
fn glm47_without_line_breaks() {
    let rows = vec![
        // smg tool_parser_glm47_moe
        row(
            "one call between text",
            "Let me search for that.\n<tool_call>get_weather<arg_key>city</arg_key><arg_value>Beijing</arg_value><arg_key>date</arg_key><arg_value>2024-12-25</arg_value></tool_call>\nThe weather will be...",
            Format::Glm,
            vec![("get_weather", json!({"city": "Beijing", "date": "2024-12-25"}))],
            "Let me search for that.\nThe weather will be...",
        ),
        row(
            "two calls",
            "<tool_call>search<arg_key>query</arg_key><arg_value>rust tutorials</arg_value></tool_call><tool_call>translate<arg_key>text</arg_key><arg_value>Hello World</arg_value><arg_key>target_lang</arg_key><arg_value>zh</arg_value></tool_call>",
            Format::Glm,
            vec![
                ("search", json!({"query": "rust tutorials"})),
                ("translate", json!({"text": "Hello World", "target_lang": "zh"})),
            ],
            "",
        ),
        row(
            "types",
            "<tool_call>process<arg_key>count</arg_key><arg_value>42</arg_value><arg_key>rate</arg_key><arg_value>1.5</arg_value><arg_key>enabled</arg_key><arg_value>true</arg_value><arg_key>data</arg_key><arg_value>null</arg_value><arg_key>text</arg_key><arg_value>string value</arg_value></tool_call>",
            Format::Glm,
            vec![("process", json!({"count": 42, "rate": 1.5, "enabled": true, "data": null, "text": "string value"}))],
            "",
        ),
        row(
            "Python literals",
            "<tool_call>test_func<arg_key>bool_true</arg_key><arg_value>True</arg_value><arg_key>bool_false</arg_key><arg_value>False</arg_value><arg_key>none_val</arg_key><arg_value>None</arg_value></tool_call>",
            Format::Glm,
            vec![("test_func", json!({"bool_true": true, "bool_false": false, "none_val": null}))],
            "",
        ),
        row(
            "JSON values",
            r#"<tool_call>process<arg_key>data</arg_key><arg_value>{"nested": {"key": "value"}}</arg_value><arg_key>list</arg_key><arg_value>[1, 2, 3]</arg_value></tool_call>"#,
            Format::Glm,
            vec![("process", json!({"data": {"nested": {"key": "value"}}, "list": [1, 2, 3]}))],
            "",
        ),
        row(
            "no arguments",
            "<tool_call>get_time</tool_call>",
            Format::Glm,
            vec![("get_time", json!({}))],
            "",
        ),
    ];
    check_rows(&rows);
}

#[test]
fn step3_and_step35() {
    let rows = vec![
        // smg tool_parser_step3
        row(
            "Step-3 call between text",
            "Let me help you.\n<｜tool_calls_begin｜>\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"search\">\n<steptml:parameter name=\"query\">rust programming</steptml:parameter>\n<steptml:parameter name=\"limit\">10</steptml:parameter>\n</steptml:invoke><｜tool_call_end｜>\n<｜tool_calls_end｜>\nHere are the results...",
            Format::Step3,
            vec![("search", json!({"query": "rust programming", "limit": 10}))],
            "Let me help you.\nHere are the results...",
        ),
        row(
            "Step-3 two calls",
            "<｜tool_calls_begin｜>\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"get_weather\">\n<steptml:parameter name=\"location\">Tokyo</steptml:parameter>\n</steptml:invoke><｜tool_call_end｜>\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"get_news\">\n<steptml:parameter name=\"category\">tech</steptml:parameter>\n<steptml:parameter name=\"limit\">5</steptml:parameter>\n</steptml:invoke><｜tool_call_end｜>\n<｜tool_calls_end｜>",
            Format::Step3,
            vec![
                ("get_weather", json!({"location": "Tokyo"})),
                ("get_news", json!({"category": "tech", "limit": 5})),
            ],
            "",
        ),
        row(
            "Step-3 types",
            "<｜tool_calls_begin｜>\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"process\">\n<steptml:parameter name=\"count\">100</steptml:parameter>\n<steptml:parameter name=\"rate\">2.5</steptml:parameter>\n<steptml:parameter name=\"active\">true</steptml:parameter>\n<steptml:parameter name=\"optional\">null</steptml:parameter>\n<steptml:parameter name=\"text\">hello world</steptml:parameter>\n</steptml:invoke><｜tool_call_end｜>\n<｜tool_calls_end｜>",
            Format::Step3,
            vec![("process", json!({"count": 100, "rate": 2.5, "active": true, "optional": null, "text": "hello world"}))],
            "",
        ),
        // vLLM step3p5_tool_parser: Step-3.5 writes Qwen3-Coder's calls.
        row(
            "Step-3.5",
            "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
            Format::Qwen3Coder,
            vec![("get_weather", json!({"city": "Paris", "days": 3}))],
            "",
        ),
    ];
    check_rows(&rows);
}

#[test]
fn kimi_k3() {
    let call = |name: &str, args: &str| {
        format!("<|open|>call tool=\"{name}\" index=\"0\"<|sep|>{args}<|close|>call<|sep|>")
    };
    let arg = |k: &str, t: &str, v: &str| {
        format!("<|open|>argument key=\"{k}\" type=\"{t}\"<|sep|>{v}<|close|>argument<|sep|>")
    };
    let tools = |calls: &str| format!("<|open|>tools<|sep|>{calls}<|close|>tools<|sep|>");
    let rows = vec![
        // smg kimi_k3 and vLLM test_kimi_k3_tool_parser: the response channel is the content.
        row(
            "response then a call",
            &format!(
                "<|open|>response<|sep|>Let me check.<|close|>response<|sep|>{}",
                tools(&call("get_weather", &(arg("city", "string", "Paris") + &arg("days", "integer", "3"))))
            ),
            Format::KimiK3,
            vec![("get_weather", json!({"city": "Paris", "days": 3}))],
            "Let me check.",
        ),
        row(
            "two calls, JSON types",
            &tools(&(call("search", &arg("q", "string", "rust"))
                + &call("set", &(arg("opts", "object", "{\"a\": [1, 2]}") + &arg("on", "boolean", "true"))))),
            Format::KimiK3,
            vec![
                ("search", json!({"q": "rust"})),
                ("set", json!({"opts": {"a": [1, 2]}, "on": true})),
            ],
            "",
        ),
        // A string value is raw: quotes, markup and JSON-looking text stay as written; a
        // non-string value that is not JSON falls back to the text (as smg does).
        row(
            "raw strings and escaped attributes",
            &tools(&call(
                "echo",
                &(arg("say &quot;hi&quot; &amp; bye", "string", "{\"a\": 1} <b>")
                    + &arg("n", "integer", "many")),
            )),
            Format::KimiK3,
            vec![("echo", json!({"say \"hi\" & bye": "{\"a\": 1} <b>", "n": "many"}))],
            "",
        ),
        // vLLM test_streaming_content_stops_at_message_close
        row(
            "the message close is not content",
            "Hello<|close|>message<|sep|>",
            Format::KimiK3,
            vec![],
            "Hello",
        ),
        // Thinking mode: the prompt opened the think channel, the reply closes it.
        row(
            "after the think channel",
            &format!(
                "<|open|>think<|sep|>I should call <|open|>call tool=\"rm\"<|sep|><|close|>call<|sep|> maybe.<|close|>think<|sep|>{}",
                tools(&call("get_time", ""))
            ),
            Format::KimiK3,
            vec![("get_time", json!({}))],
            "",
        ),
    ];
    check_rows(&rows);
    assert!(cut_off(
        &tools(&call("rm", &arg("path", "string", "/tmp")))[..60]
    ));
}

/// Gemma 3 has no parser in vLLM, SGLang or smg (they serve it with the pythonic parser); its
/// `tool_code` fence is the one Google's function-calling guide and the prompts built on it
/// ask for: ```` ```tool_code\nname(key=value)\n``` ````.
#[test]
fn gemma3_tool_code() {
    let rows = vec![
        row(
            "one call after text",
            "I'll look that up.\n```tool_code\nschema_discovery(search_phrase='battery')\n```",
            Format::ToolCode,
            vec![("schema_discovery", json!({"search_phrase": "battery"}))],
            "I'll look that up.",
        ),
        row(
            "two calls, one a line, text after",
            "```tool_code\nget_weather(city=\"Paris\", days=3)\nsearch(q='x')\n```\nDone.",
            Format::ToolCode,
            vec![
                ("get_weather", json!({"city": "Paris", "days": 3})),
                ("search", json!({"q": "x"})),
            ],
            "Done.",
        ),
        // Code to run is not a call.
        row(
            "code that is not a call",
            "```tool_code\nimport numpy as np\nprint(np.zeros(3))\n```",
            Format::ToolCode,
            vec![],
            "",
        ),
        // Another info string is an ordinary fence.
        row(
            "a python fence is not a tool_code fence",
            "```python\nget_weather(city=\"Paris\")\n```",
            Format::ToolCode,
            vec![],
            "```python\nget_weather(city=\"Paris\")\n```",
        ),
    ];
    check_rows(&rows);
    assert!(cut_off("```tool_code\nget_weather(city=\"Par"));
    // Not closed yet: more calls may follow, so none is run.
    assert!(cut_off("```tool_code\nget_weather(city=\"Paris\")\n"));
}

#[test]
fn olmo3() {
    let simple = "get_weather(city='San Francisco', metric='celsius')";
    let simple_call = (
        "get_weather",
        json!({"city": "San Francisco", "metric": "celsius"}),
    );
    let more = "register_user(name='John Doe', age=37, address={'city': 'San Francisco', 'state': 'CA'}, role=None, passed_test=True, aliases=['John', 'Johnny'])";
    let more_json = "register_user(name='John Doe', age=37, address={'city': 'San Francisco', 'state': 'CA'}, role=null, passed_test=true, aliases=['John', 'Johnny'])";
    let more_call = (
        "register_user",
        json!({"name": "John Doe", "age": 37, "address": {"city": "San Francisco", "state": "CA"}, "role": null, "passed_test": true, "aliases": ["John", "Johnny"]}),
    );
    let block = |body: &str| format!("<function_calls>{body}</function_calls>");
    // vLLM test_olmo3_tool_parser TEST_CASES
    let rows = vec![
        row(
            "simple",
            &block(simple),
            Format::Olmo3,
            vec![simple_call.clone()],
            "",
        ),
        row(
            "more types",
            &block(more),
            Format::Olmo3,
            vec![more_call.clone()],
            "",
        ),
        row(
            "JSON literals",
            &block(more_json),
            Format::Olmo3,
            vec![more_call.clone()],
            "",
        ),
        row(
            "no arguments",
            &block("get_weather()"),
            Format::Olmo3,
            vec![("get_weather", json!({}))],
            "",
        ),
        row(
            "empty dict",
            &block("do_something_cool(additional_data={})"),
            Format::Olmo3,
            vec![("do_something_cool", json!({"additional_data": {}}))],
            "",
        ),
        row(
            "empty list",
            &block("do_something_cool(steps=[])"),
            Format::Olmo3,
            vec![("do_something_cool", json!({"steps": []}))],
            "",
        ),
        row(
            "escaped strings",
            &block(r#"get_weather(city='Martha\'s Vineyard', metric='\"cool units\"')"#),
            Format::Olmo3,
            vec![(
                "get_weather",
                json!({"city": "Martha's Vineyard", "metric": "\"cool units\""}),
            )],
            "",
        ),
        row(
            "two calls",
            &block(&format!("{simple}\n{more}")),
            Format::Olmo3,
            vec![simple_call.clone(), more_call.clone()],
            "",
        ),
        row(
            "no call",
            "How can I help you today?",
            Format::Olmo3,
            vec![],
            "How can I help you today?",
        ),
        // test_streaming_mismatched_brackets_reported_once: no call.
        row(
            "mismatched brackets",
            &block("foo(x=1])"),
            Format::Olmo3,
            vec![],
            "",
        ),
    ];
    check_rows(&rows);
    // test_bad_sibling_call_does_not_drop_good_calls: vLLM runs the good call and drops the
    // bad one; here the block is one list of calls, and a list with a call that cannot be
    // read is refused whole, with the reason (running part of what the model asked for is
    // not what it asked for).
    let reply = tool::read(&block(&format!("bad(x=b'z')\n{simple}")));
    assert!(reply.calls.is_empty());
    assert_eq!(reply.rejected.len(), 1);
}

#[test]
fn minicpm() {
    let rows = vec![
        // vLLM minicpm5xml_tool_parser shapes; the rows of its tests that need a declared
        // tool list (it drops calls to tools not declared) are read here without one.
        row(
            "one call",
            "<function name=\"get_weather\"><param name=\"city\">Paris</param><param name=\"days\">3</param></function>",
            Format::MiniCpm,
            vec![("get_weather", json!({"city": "Paris", "days": 3}))],
            "",
        ),
        row(
            "text around, a value with spaces around it",
            "Let me check the weather.\n<function name=\"get_weather\"><param name=\"city\">  北京  </param></function>\nDone.",
            Format::MiniCpm,
            vec![("get_weather", json!({"city": "北京"}))],
            "Let me check the weather.\nDone.",
        ),
        row(
            "a CDATA value is taken as written",
            "<function name=\"get_weather\"><param name=\"city\"><![CDATA[东京\n<&]]></param><param name=\"note\">a &lt; b &amp; c</param></function>",
            Format::MiniCpm,
            vec![("get_weather", json!({"city": "东京\n<&", "note": "a < b & c"}))],
            "",
        ),
        row(
            "two calls",
            "<function name=\"get_weather\"><param name=\"city\">Tokyo</param></function>\n<function name=\"get_weather\"><param name=\"city\">Osaka</param></function>",
            Format::MiniCpm,
            vec![
                ("get_weather", json!({"city": "Tokyo"})),
                ("get_weather", json!({"city": "Osaka"})),
            ],
            "",
        ),
        row(
            "params inside <arguments>",
            "<function name=\"search\"><arguments><param name=\"q\">rust</param></arguments></function>",
            Format::MiniCpm,
            vec![("search", json!({"q": "rust"}))],
            "",
        ),
    ];
    check_rows(&rows);
    assert!(cut_off(
        "<function name=\"get_weather\"><param name=\"city\">Par"
    ));
}

#[test]
fn inkling() {
    let rows = vec![
        // smg tool_parser_inkling test_inkling_complete_parsing
        row(
            "text message then two calls",
            concat!(
                "<|message_model|><|content_text|>I'll check.<|end_message|>",
                "<|message_model|>search<|content_invoke_tool_json|>{\"name\":\"search\",\"args\":",
                "{\"query\":\"Rust {language}\"}}<|end_message|>",
                "<|message_model|>get_weather<|content_invoke_tool_json|>{\"name\":\"get_weather\",\"args\":",
                "{\"city\":\"Tokyo\"}}<|end_message|>",
                "<|content_model_end_sampling|>"
            ),
            Format::Inkling,
            vec![
                ("search", json!({"query": "Rust {language}"})),
                ("get_weather", json!({"city": "Tokyo"})),
            ],
            "I'll check.",
        ),
        // test_inkling_streaming_buffers_split_control_tokens (whole and streamed here)
        row(
            "text before and after a call",
            "<|message_model|><|content_text|>Before<|end_message|><|message_model|>search<|content_invoke_tool_json|>{\"name\":\"search\",\"args\":{\"query\":\"Rust {lang}\"}}<|end_message|><|content_text|>After<|content_model_end_sampling|>",
            Format::Inkling,
            vec![("search", json!({"query": "Rust {lang}"}))],
            "Before\nAfter",
        ),
        // test_inkling_rejects_undefined_tool: smg drops a call to an undeclared tool; with no
        // tool list here it is a call (a typed read refuses names it does not know).
        row(
            "a call without a header",
            "Before<|content_invoke_tool_json|>{\"name\":\"not_declared\",\"args\":{}}<|end_message|>",
            Format::Inkling,
            vec![("not_declared", json!({}))],
            "Before",
        ),
    ];
    check_rows(&rows);
    assert!(cut_off("<|message_model|>search<|content_invoke_tool_json|>{\"name\":\"search\",\"args\":{\"q\":\"x\"}}"));
}

/// A call is yielded by the push that completes it, the closing fence of `tool_code` too
/// (with the line break that ends it: `` ```{ `` would close nothing).
#[test]
fn streamed_calls_come_with_the_closer() {
    for (open, close) in [
        ("```tool_code\nget_time()\n", "```\n"),
        ("<|tool_call>call:get_time{}", "<tool_call|>"),
        (
            "<start_function_call>call:get_time{}",
            "<end_function_call>",
        ),
        ("<｜DSML｜invoke name=\"get_time\">\n", "</｜DSML｜invoke>"),
        (
            "<|open|>call tool=\"get_time\"<|sep|>",
            "<|close|>call<|sep|>",
        ),
    ] {
        // A stream said to begin in the answer yields a call once complete (by default it
        // waits for the first reasoning token or the end: the reply may begin in reasoning).
        let mut stream = tool::StreamCalls::<tool::ToolCall>::new().begins_in_answer();
        assert!(stream.push(open).is_empty(), "{open}");
        let got = stream.push(close);
        assert_eq!(got.len(), 1, "{open}{close}");
        assert_eq!(got[0].name, "get_time");
    }
}

#[test]
fn hunyuan() {
    let register = json!({"name": "John Doe", "age": 37, "address": {"city": "San Francisco", "state": "CA"}, "role": null, "passed_test": true, "aliases": ["John", "Johnny"]});
    let rows = vec![
        // vLLM test_hunyuan_a13b_tool_parser
        row("no call", "How can I help you today?", Format::Hunyuan, vec![], "How can I help you today?"),
        row(
            "one call",
            r#"<tool_calls>[{"name": "get_weather", "arguments": {"city": "San Francisco", "metric": "celsius"}}]</tool_calls>"#,
            Format::Hunyuan,
            vec![("get_weather", json!({"city": "San Francisco", "metric": "celsius"}))],
            "",
        ),
        row(
            "two calls",
            r#"<tool_calls>[{"name": "get_weather", "arguments": {"city": "San Francisco", "metric": "celsius"}}, {"name": "register_user", "arguments": {"name": "John Doe", "age": 37, "address": {"city": "San Francisco", "state": "CA"}, "role": null, "passed_test": true, "aliases": ["John", "Johnny"]}}]</tool_calls>"#,
            Format::Hunyuan,
            vec![
                ("get_weather", json!({"city": "San Francisco", "metric": "celsius"})),
                ("register_user", register),
            ],
            "",
        ),
        row(
            "text before",
            r#"I will call the tool now. <tool_calls>[{"name": "get_weather", "arguments": {"city": "Boston"}}]</tool_calls>"#,
            Format::Hunyuan,
            vec![("get_weather", json!({"city": "Boston"}))],
            "I will call the tool now.",
        ),
        // vLLM strips the text after the call; here it is answer text.
        row(
            "text after",
            "<tool_calls>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Seattle\"}}]</tool_calls>\nThank you!",
            Format::Hunyuan,
            vec![("get_weather", json!({"city": "Seattle"}))],
            "Thank you!",
        ),
        row(
            "nested",
            r#"<tool_calls>[{"name": "complex_tool", "arguments": {"level1": {"level2": {"level3": {"value": 123}}}}}]</tool_calls>"#,
            Format::Hunyuan,
            vec![("complex_tool", json!({"level1": {"level2": {"level3": {"value": 123}}}}))],
            "",
        ),
        row(
            "empty arguments first",
            r#"<tool_calls>[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 42}}]</tool_calls>"#,
            Format::Hunyuan,
            vec![("a", json!({})), ("b", json!({"x": 42}))],
            "",
        ),
        // vLLM hy_v4_tool_parser (and the V3 samples with <tool_sep>): GLM's call syntax.
        row(
            "V4 tag calls",
            "<tool_calls>\n<tool_call>get_weather<arg_key>city</arg_key><arg_value>Berlin</arg_value><arg_key>days</arg_key><arg_value>3</arg_value></tool_call>\n<tool_call>get_time</tool_call>\n</tool_calls>",
            Format::Hunyuan,
            vec![("get_weather", json!({"city": "Berlin", "days": 3})), ("get_time", json!({}))],
            "",
        ),
        row(
            "V3 with <tool_sep>",
            "<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key><arg_value>Berlin</arg_value>\n</tool_call>\n</tool_calls>",
            Format::Hunyuan,
            vec![("get_weather", json!({"city": "Berlin"}))],
            "",
        ),
    ];
    check_rows(&rows);
    assert!(cut_off(
        r#"<tool_calls>[{"name": "get_weather", "arguments": {"city": "Bos"#
    ));
}

#[test]
fn apertus() {
    let rows = vec![
        // vLLM apertus_tool_parser (its docstring examples) and test_apertus_tool_parser shapes
        row(
            "one call after text",
            r#"I will check. <|tools_prefix|>[{"get_weather": {"city": "Paris"}}]<|tools_suffix|>"#,
            Format::Apertus,
            vec![("get_weather", json!({"city": "Paris"}))],
            "I will check.",
        ),
        row(
            "two calls, text after",
            "<|tools_prefix|>[{\"get_weather\": {\"city\": \"Paris\"}}, {\"get_time\": {}}]<|tools_suffix|>\nDone.",
            Format::Apertus,
            vec![("get_weather", json!({"city": "Paris"})), ("get_time", json!({}))],
            "Done.",
        ),
        // vLLM keeps text between the list and a missing suffix as content.
        row(
            "no suffix, text after the list",
            "<|tools_prefix|>[{\"search\": {\"q\": \"rust\"}}] and more",
            Format::Apertus,
            vec![("search", json!({"q": "rust"}))],
            "and more",
        ),
    ];
    check_rows(&rows);
    assert!(cut_off(r#"<|tools_prefix|>[{"get_weather": {"city": "Par"#));
    // An item that is not {name: arguments} is refused with the reason.
    let reply = tool::read(r#"<|tools_prefix|>[{"a": 1, "b": 2}]<|tools_suffix|>"#);
    assert!(reply.calls.is_empty());
    assert_eq!(reply.rejected.len(), 1);
}

#[test]
fn poolside() {
    // vLLM poolside_v1_tool_parser reads GLM-4's syntax (values JSON, then Python literals).
    let rows = vec![
        row(
            "one call after text",
            "Let me check.<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>",
            Format::Glm,
            vec![("get_weather", json!({"city": "Paris", "days": 3}))],
            "Let me check.",
        ),
        row(
            "Python literals",
            "<tool_call>f\n<arg_key>ok</arg_key>\n<arg_value>True</arg_value>\n<arg_key>none</arg_key>\n<arg_value>None</arg_value>\n</tool_call>",
            Format::Glm,
            vec![("f", json!({"ok": true, "none": null}))],
            "",
        ),
    ];
    check_rows(&rows);
}

#[test]
fn minimax_m3() {
    const NS: &str = "]<]minimax[>[";
    let order = format!(
        "{NS}<tool_call>\n{NS}<invoke name=\"create_order\">{NS}<user_id>42{NS}</user_id>{NS}<urgent>true{NS}</urgent>{NS}<note>Please leave at front desk.{NS}</note>{NS}<shipping>{NS}<city>Singapore{NS}</city>{NS}<zip>018956{NS}</zip>{NS}</shipping>{NS}<items>{NS}<item>{NS}<sku>book-001{NS}</sku>{NS}<qty>2{NS}</qty>{NS}</item>{NS}<item>{NS}<sku>pen-007{NS}</sku>{NS}<qty>5{NS}</qty>{NS}</item>{NS}</items>{NS}<metadata>{NS}<source>mobile{NS}</source>{NS}<campaign>may-launch{NS}</campaign>{NS}</metadata>{NS}<duplicate_demo>{NS}<tag>a{NS}</tag>{NS}<tag>b{NS}</tag>{NS}</duplicate_demo>{NS}</invoke>\n{NS}</tool_call>"
    );
    let invocation = |id: u32| {
        format!("{NS}<invoke name=\"create_order\">{NS}<user_id>{id}{NS}</user_id>{NS}</invoke>")
    };
    let rows = vec![
        // vLLM test_minimax_m3_tool_parser test_non_streaming_nested_tool_call. vLLM reads
        // `018956` as 18956 because its schema says integer; without a type it is not JSON
        // (a leading zero), so it stays the text written, and a typed field decides.
        row(
            "nested call after text",
            &format!("I will create it.\n{order}"),
            Format::MiniMaxM3,
            vec![(
                "create_order",
                json!({
                    "user_id": 42,
                    "urgent": true,
                    "note": "Please leave at front desk.",
                    "shipping": {"city": "Singapore", "zip": "018956"},
                    "items": [{"sku": "book-001", "qty": 2}, {"sku": "pen-007", "qty": 5}],
                    "metadata": {"source": "mobile", "campaign": "may-launch"},
                    "duplicate_demo": {"tag": ["a", "b"]},
                }),
            )],
            "I will create it.",
        ),
        row("no call", "plain response", Format::MiniMaxM3, vec![], "plain response"),
        row(
            "two invokes in one wrapper",
            &format!("{NS}<tool_call>\n{}\n{}\n{NS}</tool_call>", invocation(1), invocation(2)),
            Format::MiniMaxM3,
            vec![("create_order", json!({"user_id": 1})), ("create_order", json!({"user_id": 2}))],
            "",
        ),
        // A value that looks like JSON and is not stays text.
        row(
            "a value that only looks like JSON",
            &format!("{NS}<tool_call>{NS}<invoke name=\"f\">{NS}<x>{{invalid json: no quotes}}{NS}</x>{NS}</invoke>{NS}</tool_call>"),
            Format::MiniMaxM3,
            vec![("f", json!({"x": "{invalid json: no quotes}"}))],
            "",
        ),
    ];
    check_rows(&rows);
    // test_streaming_error_recovery_keeps_committed_tool_call_structured: the second invoke
    // is cut off; the first is a call (vLLM also streams the cut one as text; here it is
    // reported as cut off).
    let text = format!(
        "plain {NS}<tool_call>\n{}\n{NS}<invoke name=\"create_order\">{NS}<user_id>2",
        invocation(1)
    );
    let reply = tool::read(&text);
    assert_eq!(reply.calls.len(), 1);
    assert_eq!(reply.incomplete.len(), 1);
    // test_streaming_parse_error_emits_buffer_and_later_deltas: a stray closer is no call.
    assert!(tool::tool_calls(&format!("{NS}<tool_call>\n{NS}</user_id> after error")).is_empty());
}

/// MiniMax M2's `<invoke>`: a parameter that looks like JSON and is not stays text, whole,
/// streamed, and for a typed `String` field.
#[test]
fn minimax_text_that_looks_like_json() {
    let rows = vec![row(
        "invalid JSON value",
        "<minimax:tool_call><invoke name=\"f\"><parameter name=\"x\">{invalid json: no quotes}</parameter><parameter name=\"n\">3</parameter></invoke></minimax:tool_call>",
        Format::MiniMax,
        vec![("f", json!({"x": "{invalid json: no quotes}", "n": 3}))],
        "",
    )];
    check_rows(&rows);
    #[derive(llm_extract::Extract, Debug, PartialEq)]
    enum Tool {
        F { x: String, n: String },
    }
    let calls: Vec<Tool> = tool::calls(&rows[0].reply).unwrap();
    assert_eq!(
        calls,
        vec![Tool::F {
            x: "{invalid json: no quotes}".into(),
            n: "3".into()
        }]
    );
}

/// Reads `text` whole and streamed in 16-byte chunks; the time taken.
fn read_time(text: &str) -> std::time::Duration {
    let start = std::time::Instant::now();
    let mut n = tool::read(text).calls.len();
    let mut stream = tool::StreamCalls::<tool::ToolCall>::new();
    for chunk in text.as_bytes().chunks(16) {
        n += stream.push_bytes(chunk).len();
    }
    n += stream.finish().map_or(0, |c| c.len());
    std::hint::black_box(n);
    start.elapsed()
}

/// Openers left unclosed, values without closers, nesting and delimiters without ends, in
/// every new format: the work stays linear (quadratic work on these 100-200 KB inputs would
/// take minutes in a debug build).
#[test]
fn new_formats_take_linear_time_whatever_the_input() {
    let ns = "]<]minimax[>[";
    let units = [
        "<｜DSML｜invoke name=\"f\"><｜DSML｜parameter name=\"a\" string=\"true\">x".repeat(4_000),
        format!(
            "<｜DSML｜invoke name=\"f\">{}",
            "<｜DSML｜parameter name=\"a\" string=\"false\">{".repeat(4_000)
        ),
        "<|tool_call>call:f{a:<|\"|>x".repeat(8_000),
        format!("<|tool_call>call:f{{a:{}", "{b:[".repeat(20_000)),
        format!(
            "<start_function_call>call:f{{{}",
            "k:<escape>v<escape>".repeat(10_000)
        ),
        "```tool_code\nf(a=1)\n".repeat(10_000),
        format!(
            "<|open|>call tool=\"f\"<|sep|>{}",
            "<|open|>argument key=\"k\" type=\"string\"<|sep|>v".repeat(3_000)
        ),
        "<|open|>call tool=\"f".repeat(8_000),
        "<seed:tool_call><function=f><parameter=a>x".repeat(5_000),
        "<steptml:invoke name=\"f\"><steptml:parameter name=\"a\">".repeat(4_000),
        "<function name=\"f\"><param name=\"a\">x".repeat(6_000),
        "<function_calls>f(a=[".repeat(8_000),
        "<|message_model|>f<|content_invoke_tool_json|>{\"name\": \"f\", \"args\": {".repeat(3_000),
        "<tool_calls><tool_call>f<arg_key>a</arg_key><arg_value>".repeat(3_000),
        "<|tools_prefix|>[{\"f\": {".repeat(8_000),
        format!(
            "{ns}<invoke name=\"f\">{}",
            format!("{ns}<a>").repeat(10_000)
        ),
        format!(
            "{ns}<invoke name=\"f\">{}",
            format!("{ns}<a>x{ns}</b>").repeat(5_000)
        ),
    ];
    for text in &units {
        let half = read_time(&text[..text.floor_char_boundary(text.len() / 2)]);
        let whole = read_time(text);
        assert!(whole.as_secs() < 20, "{:?} for {} bytes", whole, text.len());
        eprintln!("{} bytes: half {half:?}, whole {whole:?}", text.len());
    }
}

/// `<function_calls>` around Claude-style `<invoke>` calls is a wrapper, not an OLMo 3 block
/// holding nothing.
#[test]
fn function_calls_around_invokes_is_a_wrapper() {
    let reply = tool::read("<function_calls>\n<invoke name=\"search\">\n<parameter name=\"q\">rust</parameter>\n</invoke>\n</function_calls>");
    assert_eq!(reply.calls.len(), 1, "{reply:#?}");
    assert_eq!(reply.calls[0].call.arguments["q"], "rust");
    assert!(reply.rejected.is_empty(), "{reply:#?}");
    assert_eq!(reply.text, "");
}

/// Typed calls let the type decide what a tag value is: `3` is "3" for a `String` field and
/// 3 for a `u32`, `True` is true for a `bool`, whatever the format.
#[test]
fn tag_values_typed() {
    #[derive(llm_extract::Extract, Debug, PartialEq)]
    enum Tool {
        Set { code: String, count: u32, on: bool },
    }
    let want = vec![Tool::Set {
        code: "3".into(),
        count: 7,
        on: true,
    }];
    let replies = [
        "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"set\">\n<｜DSML｜parameter name=\"code\" string=\"false\">3</｜DSML｜parameter>\n<｜DSML｜parameter name=\"count\" string=\"false\">7</｜DSML｜parameter>\n<｜DSML｜parameter name=\"on\" string=\"false\">True</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>",
        "<|open|>tools<|sep|><|open|>call tool=\"set\"<|sep|><|open|>argument key=\"code\" type=\"integer\"<|sep|>3<|close|>argument<|sep|><|open|>argument key=\"count\" type=\"integer\"<|sep|>7<|close|>argument<|sep|><|open|>argument key=\"on\" type=\"boolean\"<|sep|>true<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>",
        "<seed:tool_call><function=set><parameter=code>3</parameter><parameter=count>7</parameter><parameter=on>True</parameter></function></seed:tool_call>",
        "<function name=\"set\"><param name=\"code\">3</param><param name=\"count\">7</param><param name=\"on\">True</param></function>",
        "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"set\"><steptml:parameter name=\"code\">3</steptml:parameter><steptml:parameter name=\"count\">7</steptml:parameter><steptml:parameter name=\"on\">True</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>",
        "]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=\"set\">]<]minimax[>[<code>3]<]minimax[>[</code>]<]minimax[>[<count>7]<]minimax[>[</count>]<]minimax[>[<on>True]<]minimax[>[</on>]<]minimax[>[</invoke>]<]minimax[>[</tool_call>",
    ];
    for reply in replies {
        let calls: Vec<Tool> = tool::calls(reply).unwrap_or_else(|e| panic!("{reply}: {e}"));
        assert_eq!(calls, want, "{reply}");
    }
}

/// Gemini's way of writing a call in Gemma 3's `tool_code` fence: the code prints what the
/// call returns, the tool reached through the module `default_api` (no engine parses it; the
/// shape is the one Gemini writes when it answers in code rather than with a function call).
#[test]
fn gemini_tool_code() {
    let rows = vec![
        row(
            "print(default_api.f(...))",
            "```tool_code\nprint(default_api.get_weather(city=\"Paris\", days=3))\n```",
            Format::ToolCode,
            vec![("get_weather", json!({"city": "Paris", "days": 3}))],
            "",
        ),
        row(
            "two calls, text around",
            "Let me check.\n```tool_code\nprint(default_api.get_weather(city='Paris'))\nprint(default_api.get_time(zone='CET'))\n```\nDone.",
            Format::ToolCode,
            vec![
                ("get_weather", json!({"city": "Paris"})),
                ("get_time", json!({"zone": "CET"})),
            ],
            "Let me check.\nDone.",
        ),
        row(
            "default_api without print",
            "```tool_code\ndefault_api.search(q='rust', limit=5)\n```",
            Format::ToolCode,
            vec![("search", json!({"q": "rust", "limit": 5}))],
            "",
        ),
        // Printing anything but a call of `default_api` is code to run, not a call.
        row(
            "print of something else",
            "```tool_code\nprint(np.zeros(3))\n```",
            Format::ToolCode,
            vec![],
            "",
        ),
    ];
    check_rows(&rows);
    assert!(cut_off(
        "```tool_code\nprint(default_api.get_weather(city='Par"
    ));
    // The call is whole but `print(` is not closed: cut off, not run.
    assert!(cut_off(
        "```tool_code\nprint(default_api.get_weather(city='Paris')\n```"
    ));
}

/// Hunyuan checkpoints whose structural tokens carry a suffix of their own
/// (`<tool_calls:6124c78e>`, `<arg_key:6124c78e>`, `<think:6124c78e>`), the suffix read from
/// the vocabulary by vLLM's `hy_v4_tool_parser` (`detect_token_suffix`).
#[test]
fn hunyuan_with_a_checkpoint_suffix() {
    // vLLM test_hy_v4_tool_parser
    const S: &str = ":opensource";
    let arg =
        |k: &str, v: &str| format!("<arg_key{S}>{k}</arg_key{S}><arg_value{S}>{v}</arg_value{S}>");
    let call = |name: &str, args: &str| format!("<tool_call{S}>{name}{args}</tool_call{S}>");
    let block = |body: &str| format!("<tool_calls{S}>{body}</tool_calls{S}>");
    let rows = vec![
        row("no call", "A plain response.", Format::Hunyuan, vec![], "A plain response."),
        // test_values_typed_from_schema: vLLM types `3` from the tool's schema; without one a
        // value that reads as JSON is that value here, and a typed call lets its type decide.
        row(
            "text, then a call",
            &format!(
                "sure!{}",
                block(&call("get_weather", &(arg("city", "Beijing") + &arg("days", "3"))))
            ),
            Format::Hunyuan,
            vec![("get_weather", json!({"city": "Beijing", "days": 3}))],
            "sure!",
        ),
        row(
            "no arguments",
            &block(&call("get_current_date", "")),
            Format::Hunyuan,
            vec![("get_current_date", json!({}))],
            "",
        ),
        row(
            "two calls keep their order",
            &block(&(call("get_weather", &arg("city", "A")) + &call("get_current_date", ""))),
            Format::Hunyuan,
            vec![
                ("get_weather", json!({"city": "A"})),
                ("get_current_date", json!({})),
            ],
            "",
        ),
        row(
            "non-ASCII values",
            &block(&call("get_weather", &arg("city", "北京"))),
            Format::Hunyuan,
            vec![("get_weather", json!({"city": "北京"}))],
            "",
        ),
        // test_regex_metacharacters_in_suffix
        row(
            "a suffix with regex metacharacters",
            "<tool_calls:a+b(c><tool_call:a+b(c>get_current_date</tool_call:a+b(c></tool_calls:a+b(c>",
            Format::Hunyuan,
            vec![("get_current_date", json!({}))],
            "",
        ),
        // test_structural_tokens_split_across_deltas (whole and streamed here)
        row(
            "text, then the block with a line break",
            &format!("hi{}", block(&format!("\n  {}", call("get_weather", &arg("city", "Beijing"))))),
            Format::Hunyuan,
            vec![("get_weather", json!({"city": "Beijing"}))],
            "hi",
        ),
        // The reasoning block of these checkpoints carries the suffix too.
        row(
            "suffixed reasoning, then a call",
            &format!(
                "<think{S}>The user wants the date.</think{S}>{}",
                block(&call("get_current_date", ""))
            ),
            Format::Hunyuan,
            vec![("get_current_date", json!({}))],
            "",
        ),
    ];
    check_rows(&rows);
    // MALFORMED unbalanced_tool_call: vLLM's strict mode returns it as content; a call whose
    // closer is missing is reported here, not run.
    assert!(cut_off(&block(&format!(
        "<tool_call{S}>get_weather{}",
        arg("city", "X")
    ))));
    assert!(cut_off(&format!(
        "<tool_calls{S}><tool_call{S}>get_weather<arg_key{S}>city</arg_key{S}><arg_value{S}>Bei"
    )));
    // A call in the suffixed reasoning block is a draft.
    let draft = format!(
        "<think{S}>{}</think{S}>Nothing to run.",
        block(&call("rm", &arg("path", "/")))
    );
    let reply = tool::read(&draft);
    assert!(reply.calls.is_empty(), "{reply:#?}");
    assert_eq!(reply.text, "Nothing to run.");
}

/// Inkling's reasoning block, `<|content_thinking|>...`, closed by the end of its message or
/// by the next content marker (the engines' reasoning parsers: smg's Inkling reasoning parser,
/// SGLang's `InklingDetector`). Its text is reasoning, and a call inside it is a draft.
#[test]
fn inkling_reasoning() {
    let rows = vec![
        row(
            "reasoning, then a call",
            concat!(
                "<|content_thinking|>The user wants Rust.<|end_message|>",
                "<|message_model|>search<|content_invoke_tool_json|>{\"name\":\"search\",\"args\":",
                "{\"query\":\"rust\"}}<|end_message|><|content_model_end_sampling|>"
            ),
            Format::Inkling,
            vec![("search", json!({"query": "rust"}))],
            "",
        ),
        row(
            "reasoning, then text",
            "<|content_thinking|>why<|end_message|><|message_model|><|content_text|>answer<|end_message|><|content_model_end_sampling|>",
            Format::Inkling,
            vec![],
            "answer",
        ),
        // The engines' marker-wrapped stream: the reasoning runs to the next content marker.
        row(
            "reasoning closed by the text marker",
            "<|content_thinking|>why<|content_text|>answer",
            Format::Inkling,
            vec![],
            "answer",
        ),
        row(
            "a call inside reasoning is a draft",
            concat!(
                "<|content_thinking|>I could run <|message_model|>rm<|content_invoke_tool_json|>",
                "{\"name\":\"rm\",\"args\":{\"path\":\"/\"}}<|end_message|>",
                "<|message_model|><|content_text|>but I won't.<|end_message|>"
            ),
            Format::Inkling,
            vec![],
            "but I won't.",
        ),
    ];
    check_rows(&rows);
}

/// vLLM test_poolside_v1_tool_parser: GLM-4's syntax.
#[test]
fn poolside_engine_tests() {
    let rows = vec![
        // test_string_arg_preserves_whitespace. vLLM keeps the value verbatim; here one line
        // break right before `</arg_value>` is layout (as after `<arg_value>`), so the
        // trailing newline goes and the indentation stays.
        row(
            "a string value keeps its indentation",
            "<tool_call>write_file\n<arg_key>content</arg_key>\n<arg_value>    def f():\n        return 1\n</arg_value>\n</tool_call>",
            Format::Glm,
            vec![("write_file", json!({"content": "    def f():\n        return 1"}))],
            "",
        ),
        // test_non_string_arg_still_deserialized
        row(
            "a number with spaces around it",
            "<tool_call>write_file\n<arg_key>content</arg_key>\n<arg_value>hi</arg_value>\n<arg_key>mode</arg_key>\n<arg_value> 420 </arg_value>\n</tool_call>",
            Format::Glm,
            vec![("write_file", json!({"content": "hi", "mode": 420}))],
            "",
        ),
        // test_no_newline_after_name_non_streaming, test_newline_after_name_still_parses
        row(
            "no line break after the name",
            "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>",
            Format::Glm,
            vec![("get_weather", json!({"city": "Paris"}))],
            "",
        ),
        row(
            "line breaks after the name",
            "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>",
            Format::Glm,
            vec![("get_weather", json!({"city": "Paris"}))],
            "",
        ),
    ];
    check_rows(&rows);
    // test_whitespace_only_tool_call_name_is_rejected, test_whitespace_padded_tool_call_is_not_quadratic
    assert!(tool::read("<tool_call>   </tool_call>").calls.is_empty());
    let padded = format!("<tool_call>{}<x</tool_call>", " ".repeat(4096));
    assert!(tool::read(&padded).calls.is_empty());
    // test_function_name_with_internal_whitespace_still_parses: vLLM runs `get weather`; here
    // a name with a space is not written as a tool name, so the call is refused with why.
    let spaced =
        "<tool_call>  get weather  <arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>";
    let reply = tool::read(spaced);
    assert!(reply.calls.is_empty(), "{reply:#?}");
    assert!(
        reply.rejected[0]
            .reason
            .contains("not written as a tool name"),
        "{reply:#?}"
    );
}

/// SGLang's test_function_call_parser, for the formats both read: the pythonic list
/// (`PythonicDetector`), Mistral's `[TOOL_CALLS]` list (`MistralDetector`), Llama 3.2's JSON
/// (`Llama32Detector`), Kimi K2 (`KimiK2Detector`), DeepSeek V3 (`DeepSeekV3Detector`),
/// Qwen3-Coder (`Qwen3CoderDetector`) and GLM 4.5 (`Glm4MoeDetector`). SGLang returns the text around the calls untrimmed;
/// `Reply::text` is trimmed.
#[test]
fn sglang_function_call_parser() {
    let decision = |d: &str, c: &str| json!({"decision": d, "content": c});
    let rows = vec![
        // TestPythonicDetector
        row(
            "no brackets",
            "This is just normal text without any tool calls.",
            Format::Pythonic,
            vec![],
            "This is just normal text without any tool calls.",
        ),
        row(
            "complete call after a colon",
            "Here's a tool call: [get_weather(location='New York', unit='celsius')]",
            Format::Pythonic,
            vec![("get_weather", json!({"location": "New York", "unit": "celsius"}))],
            "Here's a tool call:",
        ),
        row(
            "text before",
            "This is some text before [get_weather(location='London')]",
            Format::Pythonic,
            vec![("get_weather", json!({"location": "London"}))],
            "This is some text before",
        ),
        row(
            "two lists joined by text",
            "[get_weather(location='Berlin')] and [search(query='restaurants')]",
            Format::Pythonic,
            vec![
                ("get_weather", json!({"location": "Berlin"})),
                ("search", json!({"query": "restaurants"})),
            ],
            "and",
        ),
        row(
            "at the start",
            "[search(query='python programming')]",
            Format::Pythonic,
            vec![("search", json!({"query": "python programming"}))],
            "",
        ),
        row(
            "nested lists",
            "[get_weather(location='New York', unit='celsius', data=[1, 2, 3])]",
            Format::Pythonic,
            vec![("get_weather", json!({"location": "New York", "unit": "celsius", "data": [1, 2, 3]}))],
            "",
        ),
        row(
            "nested dicts",
            "[search(query='test', config={'options': [1, 2], 'nested': {'key': 'value'}})]",
            Format::Pythonic,
            vec![("search", json!({"query": "test", "config": {"options": [1, 2], "nested": {"key": "value"}}}))],
            "",
        ),
        row(
            "two calls with nested lists",
            "[get_weather(location='Paris', data=[10, 20]), search(query='test', filters=['a', 'b'])]",
            Format::Pythonic,
            vec![
                ("get_weather", json!({"location": "Paris", "data": [10, 20]})),
                ("search", json!({"query": "test", "filters": ["a", "b"]})),
            ],
            "",
        ),
        // test_parse_streaming_with_python_start_and_end_token
        row(
            "python_start and python_end",
            "Here's a call: <|python_start|>[get_weather(location='Tokyo', data=[1, 2, 3])]<|python_end|>",
            Format::Pythonic,
            vec![("get_weather", json!({"location": "Tokyo", "data": [1, 2, 3]}))],
            "Here's a call:",
        ),
        // TestMistralDetector
        row(
            "nested brackets in an argument string",
            r#"[TOOL_CALLS] [{"name":"make_next_step_decision", "arguments":{"decision":"","content":"```\nTOOL: Access a weather API or service\nOBSERVATION: Retrieve the current weather data for the top 5 populated cities in the US\nANSWER: The weather in the top 5 populated cities in the US is as follows: [City Name] - [Weather Conditions] - [Temperature]\n```"}}]"#,
            Format::Mistral,
            vec![(
                "make_next_step_decision",
                decision("", "```\nTOOL: Access a weather API or service\nOBSERVATION: Retrieve the current weather data for the top 5 populated cities in the US\nANSWER: The weather in the top 5 populated cities in the US is as follows: [City Name] - [Weather Conditions] - [Temperature]\n```"),
            )],
            "",
        ),
        row(
            "simple",
            r#"[TOOL_CALLS] [{"name":"make_next_step_decision", "arguments":{"decision":"TOOL", "content":"Use weather API"}}]"#,
            Format::Mistral,
            vec![("make_next_step_decision", decision("TOOL", "Use weather API"))],
            "",
        ),
        row(
            "text before",
            r#"Here is some text before the tool call: [TOOL_CALLS] [{"name":"make_next_step_decision", "arguments":{"decision":"ANSWER", "content":"The answer is 42"}}]"#,
            Format::Mistral,
            vec![("make_next_step_decision", decision("ANSWER", "The answer is 42"))],
            "Here is some text before the tool call:",
        ),
    ];
    check_rows(&rows);
    // test_parse_streaming_partial_tool_call: cut off, the call is reported, not run.
    assert!(cut_off("Let me check the weather: [get_weather(location="));

    let paris = json!({"city": "Paris"});
    let rows = vec![
        // TestLlama32Detector
        row(
            "a JSON call alone",
            r#"{"name": "get_weather", "parameters": {"city": "Paris"}}"#,
            Format::Json,
            vec![("get_weather", paris.clone())],
            "",
        ),
        row(
            "python_tag, calls joined by ;",
            r#"<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}};{"name": "get_tourist_attractions", "parameters": {"city": "Paris"}}"#,
            Format::Llama,
            vec![
                ("get_weather", paris.clone()),
                ("get_tourist_attractions", paris.clone()),
            ],
            "",
        ),
        row(
            "a python_tag before each call",
            r#"<|python_tag|>{"name": "get_weather", "parameters": {}}<|python_tag|>{"name": "get_tourist_attractions", "parameters": {}}"#,
            Format::Llama,
            vec![
                ("get_weather", json!({})),
                ("get_tourist_attractions", json!({})),
            ],
            "",
        ),
        row(
            "a JSON call, then text",
            r#"{"name": "get_weather", "parameters": {}} Some follow-up text"#,
            Format::Json,
            vec![("get_weather", json!({}))],
            "Some follow-up text",
        ),
        row(
            "text, then python_tag",
            r#"Some intro. <|python_tag|>{"name": "get_weather", "parameters": {}}"#,
            Format::Llama,
            vec![("get_weather", json!({}))],
            "Some intro.",
        ),
        // TestKimiK2Detector
        row(
            "kimi, two calls",
            r#"<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_call_begin|>functions.get_tourist_attractions:1<|tool_call_argument_begin|>{"city": "London"}<|tool_call_end|><|tool_calls_section_end|>"#,
            Format::Kimi,
            vec![
                ("get_weather", paris),
                ("get_tourist_attractions", json!({"city": "London"})),
            ],
            "",
        ),
    ];
    check_rows(&rows);
    let dallas = json!({"city": "Dallas", "state": "TX", "unit": "fahrenheit"});
    let qwen = |city: &str, state: &str| {
        format!("<tool_call>\n<function=get_current_weather>\n<parameter=city>\n{city}\n</parameter>\n<parameter=state>\n{state}\n</parameter>\n<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>")
    };
    let rows = vec![
        // TestDeepSeekV3Detector (its streamed chunks, read whole and streamed here)
        row(
            "deepseek v3, two fenced calls",
            "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\":\"Shanghai\"}\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_tourist_attractions\n```json\n{\"city\": \"Beijing\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
            Format::DeepSeek,
            vec![
                ("get_weather", json!({"city": "Shanghai"})),
                ("get_tourist_attractions", json!({"city": "Beijing"})),
            ],
            "",
        ),
        // TestQwen3CoderDetector
        row("qwen3-coder, one call", &qwen("Dallas", "TX"), Format::Qwen3Coder, vec![("get_current_weather", dallas.clone())], ""),
        row(
            "qwen3-coder, text before",
            &format!("Sure! Let me check the weather for you.{}", qwen("Dallas", "TX")),
            Format::Qwen3Coder,
            vec![("get_current_weather", dallas.clone())],
            "Sure! Let me check the weather for you.",
        ),
        row(
            "qwen3-coder, a JSON value over lines",
            "<tool_call>\n<function=calculate_area>\n<parameter=shape>\nrectangle\n</parameter>\n<parameter=dimensions>\n{\"width\": 10,\n \"height\": 20}\n</parameter>\n<parameter=precision>\n2\n</parameter>\n</function>\n</tool_call>",
            Format::Qwen3Coder,
            vec![("calculate_area", json!({"shape": "rectangle", "dimensions": {"width": 10, "height": 20}, "precision": 2}))],
            "",
        ),
        row(
            "qwen3-coder, two calls",
            &format!("{}\n{}", qwen("Dallas", "TX"), qwen("Orlando", "FL")),
            Format::Qwen3Coder,
            vec![
                ("get_current_weather", dallas),
                ("get_current_weather", json!({"city": "Orlando", "state": "FL", "unit": "fahrenheit"})),
            ],
            "",
        ),
    ];
    check_rows(&rows);

    let glm = |city: &str, date: &str| {
        format!("<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>{city}</arg_value>\n<arg_key>date</arg_key>\n<arg_value>{date}</arg_value>\n</tool_call>")
    };
    let todos = r#"[{"id": "1", "task": "Check for hard-coded issues in the backend code", "status": "in_progress"}, {"id": "2", "task": "Check for hard-coded issues in the frontend code", "status": "pending"}]"#;
    let rows = vec![
        // TestGlm4MoeDetector
        row(
            "glm, one call",
            &glm("Beijing", "2024-06-27"),
            Format::Glm,
            vec![("get_weather", json!({"city": "Beijing", "date": "2024-06-27"}))],
            "",
        ),
        row(
            "glm, two calls",
            &(glm("Beijing", "2024-06-27") + &glm("Shanghai", "2024-06-28")),
            Format::Glm,
            vec![
                ("get_weather", json!({"city": "Beijing", "date": "2024-06-27"})),
                ("get_weather", json!({"city": "Shanghai", "date": "2024-06-28"})),
            ],
            "",
        ),
        // test_array_argument_with_escaped_json, the variant with the JSON as written. Not
        // ported: the variant whose text holds `\n` and `\"` as two characters each, which
        // SGLang unescapes; here such text is not JSON, so it stays text.
        row(
            "glm, a JSON list as a value",
            &format!("<tool_call>todo_write\n<arg_key>todos</arg_key>\n<arg_value>{todos}</arg_value>\n</tool_call>"),
            Format::Glm,
            vec![("todo_write", json!({"todos": serde_json::from_str::<Value>(todos).unwrap()}))],
            "",
        ),
    ];
    check_rows(&rows);
    // test_invalid_tool_call: SGLang drops a call to a tool it was not given; without a tool
    // list it is a call here, and a typed read refuses a name that is not one of its tools.
    assert_eq!(
        tool::read("<tool_call>invalid_func\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n</tool_call>").calls.len(),
        1
    );
    // test_partial_tool_call
    assert!(cut_off("<tool_call>get_weather\n<arg_key>city</arg_key>\n"));
    // TestKimiK2Detector test_invalid_tool_call: no call opener, no call.
    let text = r#"invalid_tool:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>"#;
    assert!(tool::read(text).calls.is_empty());
    // test_partial_tool_call: SGLang streams the arguments written so far; cut off here.
    assert!(cut_off(
        r#"<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris""#
    ));
    // test_invalid_then_valid_json: SGLang skips the object left open and runs the one after
    // it; here the open object holds the one after it (that is how the text nests), so the
    // reply is cut off and nothing runs.
    assert!(cut_off(
        r#"{"name": "get_weather", "parameters": {{"name": "get_weather", "parameters": {}}"#
    ));
}

/// vLLM test_mistral_tool_parser, the rows the `mistral` table above does not hold.
#[test]
fn mistral_engine_tests() {
    let weather = json!({"city": "San Francisco", "state": "CA", "unit": "celsius"});
    let rows = vec![
        // test_extract_tool_calls "wrong_json": braces in the text before the token.
        row(
            "text with a brace, then name and JSON",
            r#"hi{hi[TOOL_CALLS]bash{"command": "print(\"hello world!\")\nre.compile(r'{}')"}"#,
            Format::Mistral,
            vec![(
                "bash",
                json!({"command": "print(\"hello world!\")\nre.compile(r'{}')"}),
            )],
            "hi{hi",
        ),
        // test_extract_tool_calls_pre_v11_tokenizer
        row(
            "JSON list right after the token",
            r#"[TOOL_CALLS][{"name": "add", "arguments":{"a": 3.5, "b": 4}}]"#,
            Format::Mistral,
            vec![("add", json!({"a": 3.5, "b": 4}))],
            "",
        ),
        row(
            "two calls in the list",
            r#"[TOOL_CALLS] [{"name": "add", "arguments": {"a": 3.5, "b": 4}}, {"name": "get_current_weather", "arguments":{"city": "San Francisco", "state": "CA", "unit": "celsius"}}]"#,
            Format::Mistral,
            vec![
                ("add", json!({"a": 3.5, "b": 4})),
                ("get_current_weather", weather),
            ],
            "",
        ),
        row(
            "text before the list",
            r#"Hello[TOOL_CALLS] [{"name": "add", "arguments":{"a": 1, "b": 2}}]"#,
            Format::Mistral,
            vec![("add", json!({"a": 1, "b": 2}))],
            "Hello",
        ),
        // test_extract_tool_calls_no_tools
        row(
            "no call",
            "This is a test",
            Format::Mistral,
            vec![],
            "This is a test",
        ),
    ];
    check_rows(&rows);
    // "complex": vLLM returns the arguments written so far; a call cut off is reported.
    assert!(cut_off(
        r#"hi{hi[TOOL_CALLS]bash{"command": "print(\"hello world!\")\nre.compile(r'{}')"#
    ));
    // test_extract_tool_calls_v11_without_args_skipped, ..._regex_fallback_fails
    for text in [
        "[TOOL_CALLS]toolname_no_args",
        "[TOOL_CALLS] not json at all",
    ] {
        assert!(tool::read(text).calls.is_empty(), "{text}");
    }
}

/// vLLM test_glm47_moe_tool_parser (GLM-4.7 and 5 write the tags without line breaks).
#[test]
fn glm47_engine_tests() {
    let beijing = json!({"city": "Beijing"});
    let rows = vec![
        row("no call", "This is a plain response.", Format::Glm, vec![], "This is a plain response."),
        row(
            "no arguments, inline",
            "<tool_call>get_current_date</tool_call>",
            Format::Glm,
            vec![("get_current_date", json!({}))],
            "",
        ),
        row(
            "no arguments, a line break",
            "<tool_call>get_current_date\n</tool_call>",
            Format::Glm,
            vec![("get_current_date", json!({}))],
            "",
        ),
        row(
            "arguments on the name's line",
            "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Beijing</arg_value></tool_call>",
            Format::Glm,
            vec![("get_weather", beijing.clone())],
            "",
        ),
        row(
            "arguments with line breaks",
            "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n</tool_call>",
            Format::Glm,
            vec![("get_weather", beijing.clone())],
            "",
        ),
        row(
            "text before",
            "Checking.<tool_call>get_current_date</tool_call>",
            Format::Glm,
            vec![("get_current_date", json!({}))],
            "Checking.",
        ),
        row(
            "two calls back to back",
            "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Beijing</arg_value></tool_call><tool_call>get_weather<arg_key>city</arg_key><arg_value>Shanghai</arg_value></tool_call>",
            Format::Glm,
            vec![("get_weather", beijing), ("get_weather", json!({"city": "Shanghai"}))],
            "",
        ),
        row(
            "spaces before the call",
            "  \n  <tool_call>get_current_date</tool_call>",
            Format::Glm,
            vec![("get_current_date", json!({}))],
            "",
        ),
    ];
    check_rows(&rows);
}
