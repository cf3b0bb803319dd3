//! Tool calls in every wire format, written from each format's public documentation (chat
//! templates and the tool parsers of vLLM, SGLang and llama.cpp): several calls, multi-line
//! bodies, calls inside and after reasoning, and every fixture cut at every byte.

use llm_extract::tool::{self, Format, ToolCall};
use llm_extract::{Category, Extract, Extractor};
use serde_json::{json, Value};

/// The two calls most fixtures make.
fn weather_and_search() -> Vec<(&'static str, Value)> {
    vec![
        ("get_weather", json!({"city": "Paris", "days": 3})),
        ("search", json!({"q": "x"})),
    ]
}

fn weather_only() -> Vec<(&'static str, Value)> {
    vec![("get_weather", json!({"city": "Paris"}))]
}

/// A fixture: its name, the raw reply, the format it is in, and the calls expected (name, arguments).
type Fixture = (&'static str, String, Format, Vec<(&'static str, Value)>);

fn fixtures() -> Vec<Fixture> {
    let s = |t: &str| t.to_string();
    vec![
        (
            "seed 002 TOOL_CALL with tool_name/parameters, prose around",
            s("I'll search for that.\nTOOL_CALL: {\"tool_name\": \"search\", \"parameters\": {\"q\": \"x\"}}\nThen I'll summarize."),
            Format::Marker,
            vec![("search", json!({"q": "x"}))],
        ),
        (
            "seed 002 TOOL_CALL with tool/params",
            s("TOOL_CALL {'tool': 'search', 'params': {'q': 'x'}}"),
            Format::Marker,
            vec![("search", json!({"q": "x"}))],
        ),
        (
            "OpenAI function with arguments as a JSON string",
            s(r#"{"id": "call_abc123", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\", \"days\": 3}"}}"#),
            Format::Json,
            vec![("get_weather", json!({"city": "Paris", "days": 3}))],
        ),
        (
            "OpenAI message with a tool_calls array",
            s(r#"{"role": "assistant", "content": null, "tool_calls": [
  {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\", \"days\": 3}"}},
  {"id": "call_2", "type": "function", "function": {"name": "search", "arguments": "{\"q\": \"x\"}"}}
]}"#),
            Format::Json,
            weather_and_search(),
        ),
        (
            "Anthropic content blocks",
            s(r#"[{"type": "text", "text": "I'll check the weather and search."},
 {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather", "input": {"city": "Paris", "days": 3}},
 {"type": "tool_use", "id": "toolu_01B", "name": "search", "input": {"q": "x"}}]"#),
            Format::Json,
            weather_and_search(),
        ),
        (
            "Cohere Command R action in a fence",
            s("Action: ```json\n[\n    {\n        \"tool_name\": \"get_weather\",\n        \"parameters\": {\n            \"city\": \"Paris\"\n        }\n    }\n]\n```"),
            Format::Json,
            weather_only(),
        ),
        (
            "Hermes / Qwen3 after <think>",
            s("<think>\nThe user wants the weather. I will call get_weather and search.\n</think>\n\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n</tool_call>\n<tool_call>\n{\"name\": \"search\", \"arguments\": {\"q\": \"x\"}}\n</tool_call>"),
            Format::Hermes,
            weather_and_search(),
        ),
        (
            "Qwen3-Coder XML parameters",
            s(include_str!("../fixtures/tool_calls/qwen3_coder.txt")),
            Format::Qwen3Coder,
            weather_and_search(),
        ),
        (
            "Llama 3.1 python_tag, two calls joined by ;",
            s("<|python_tag|>{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\", \"days\": 3}}; {\"name\": \"search\", \"parameters\": {\"q\": \"x\"}}<|eom_id|>"),
            Format::Llama,
            weather_and_search(),
        ),
        (
            "Llama 3.2 JSON without a tag",
            s("{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}"),
            Format::Json,
            weather_only(),
        ),
        (
            "Mistral JSON list",
            s("[TOOL_CALLS] [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}, \"id\": \"a1b2c3d4e\"}, {\"name\": \"search\", \"arguments\": {\"q\": \"x\"}, \"id\": \"f5g6h7i8j\"}]</s>"),
            Format::Mistral,
            weather_and_search(),
        ),
        (
            "Mistral v11 name[ARGS]",
            s("[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\", \"days\": 3}[TOOL_CALLS]search[ARGS]{\"q\": \"x\"}</s>"),
            Format::Mistral,
            weather_and_search(),
        ),
        (
            "Mistral v13 with [CALL_ID]",
            s("[TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4e[ARGS]{\"city\": \"Paris\"}"),
            Format::Mistral,
            weather_only(),
        ),
        (
            "FireFunction functools",
            s(" functools[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}, {\"name\": \"search\", \"arguments\": {\"q\": \"x\"}}]"),
            Format::Functools,
            weather_and_search(),
        ),
        (
            "Functionary <function=...>",
            s("Let me check.<function=get_weather>{\"city\": \"Paris\", \"days\": 3}</function><function=search>{\"q\": \"x\"}</function><|eom_id|>"),
            Format::Functionary,
            weather_and_search(),
        ),
        (
            "DeepSeek R1 after a closing </think> (the opener was in the prompt)",
            s(include_str!("../fixtures/tool_calls/deepseek_r1.txt")),
            Format::DeepSeek,
            weather_and_search(),
        ),
        (
            "DeepSeek V3.1",
            s("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Paris\", \"days\": 3}<｜tool▁call▁end｜><｜tool▁call▁begin｜>search<｜tool▁sep｜>{\"q\": \"x\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>"),
            Format::DeepSeek,
            weather_and_search(),
        ),
        (
            "Kimi K2",
            s("I'll check.<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Paris\", \"days\": 3}<|tool_call_end|><|tool_call_begin|>functions.search:1<|tool_call_argument_begin|>{\"q\": \"x\"}<|tool_call_end|><|tool_calls_section_end|>"),
            Format::Kimi,
            weather_and_search(),
        ),
        (
            "GLM 4.5 arg_key/arg_value",
            s(include_str!("../fixtures/tool_calls/glm.txt")),
            Format::Glm,
            weather_and_search(),
        ),
        (
            "MiniMax M2 invoke",
            s(include_str!("../fixtures/tool_calls/minimax.txt")),
            Format::MiniMax,
            weather_and_search(),
        ),
        (
            "gpt-oss Harmony, both header orders",
            s(include_str!("../fixtures/tool_calls/harmony.txt")),
            Format::Harmony,
            weather_and_search(),
        ),
        (
            "Granite <|tool_call|>",
            s("<|tool_call|>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}, {\"name\": \"search\", \"arguments\": {\"q\": \"x\"}}]"),
            Format::Granite,
            weather_and_search(),
        ),
        (
            "Cohere Command R7B action after thinking",
            s("<|START_THINKING|>I need the weather, then a search.<|END_THINKING|><|START_ACTION|>[\n    {\"tool_call_id\": \"0\", \"tool_name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\", \"days\": 3}},\n    {\"tool_call_id\": \"1\", \"tool_name\": \"search\", \"parameters\": {\"q\": \"x\"}}\n]<|END_ACTION|>"),
            Format::Cohere,
            weather_and_search(),
        ),
        (
            "pythonic list (Llama 3.2)",
            s("[get_weather(city=\"Paris\", days=3), search(q='x')]"),
            Format::Pythonic,
            weather_and_search(),
        ),
        (
            "pythonic in Llama 4 python_start",
            s("<|python_start|>[get_weather(city=\"Paris\", days=3), search(q='x')]<|python_end|>"),
            Format::Pythonic,
            weather_and_search(),
        ),
        (
            "pythonic in LFM2 tool_call_start",
            s("<|tool_call_start|>[get_weather(city='Paris')]<|tool_call_end|>Checking the weather."),
            Format::Pythonic,
            weather_only(),
        ),
    ]
}

fn summary(calls: &[ToolCall]) -> Vec<(String, Value)> {
    calls
        .iter()
        .map(|c| (c.name.clone(), Value::Object(c.arguments.clone())))
        .collect()
}

fn expected(calls: &[(&str, Value)]) -> Vec<(String, Value)> {
    calls
        .iter()
        .map(|(n, a)| (n.to_string(), a.clone()))
        .collect()
}

#[test]
fn every_wire_format_gives_its_calls_in_order() {
    for (what, text, format, calls) in fixtures() {
        let reply = tool::read(&text);
        let got: Vec<ToolCall> = reply.calls.iter().map(|f| f.call.clone()).collect();
        assert_eq!(summary(&got), expected(&calls), "{what}: {reply:#?}");
        assert!(
            reply.calls.iter().all(|f| f.format == format && f.complete),
            "{what}: {reply:#?}"
        );
        assert!(reply.incomplete.is_empty(), "{what}: {reply:#?}");
    }
}

#[test]
fn every_fixture_cut_at_every_byte_never_panics_nor_returns_a_partial_call() {
    for (what, text, _, calls) in fixtures() {
        let full = expected(&calls);
        for cut in 0..text.len() {
            if !text.is_char_boundary(cut) {
                continue;
            }
            let got = summary(&tool::tool_calls(&text[..cut]));
            // Whatever comes back from a prefix is exactly one of the full reply's calls,
            // in order: a call cut off is never returned with partial arguments.
            assert!(
                got.len() <= full.len() && got.iter().zip(&full).all(|(g, f)| g == f),
                "{what} cut at {cut}: {:?} gave {got:?}",
                &text[..cut]
            );
        }
    }
}

#[test]
fn ids_and_text_around_calls_are_kept() {
    let reply = tool::read(
        "I'll check.<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Paris\"}<|tool_call_end|><|tool_calls_section_end|>",
    );
    assert_eq!(reply.text, "I'll check.");
    assert_eq!(
        reply.calls[0].call.id.as_deref(),
        Some("functions.get_weather:0")
    );
    let openai = tool::tool_call(
        r#"{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}"#,
    )
    .unwrap();
    assert_eq!(openai.id.as_deref(), Some("call_1"));
    let mistral = tool::tool_call("[TOOL_CALLS]f[CALL_ID]a1b2c3d4e[ARGS]{}").unwrap();
    assert_eq!(mistral.id.as_deref(), Some("a1b2c3d4e"));
}

#[test]
fn reasoning_is_split_off_in_every_form() {
    let harmony = tool::read(include_str!("../fixtures/tool_calls/harmony.txt"));
    assert_eq!(
        harmony.thoughts,
        vec![
            "User asks for the weather in Paris over 3 days and a search. Call get_weather first."
        ]
    );
    let r1 = tool::read(include_str!("../fixtures/tool_calls/deepseek_r1.txt"));
    assert!(
        r1.thoughts[0].starts_with("The user wants the weather"),
        "{r1:#?}"
    );
    assert_eq!(r1.text.lines().next(), Some("I'll look both up."));
    let cohere = tool::read("<|START_THINKING|>plan<|END_THINKING|><|START_RESPONSE|>Hi");
    assert_eq!(cohere.thoughts, vec!["plan"]);
}

#[test]
fn a_call_drafted_inside_closed_reasoning_is_not_a_call() {
    let text = "<think>Maybe <tool_call>{\"name\": \"delete_all\", \"arguments\": {}}</tool_call>? No.</think>\n<tool_call>{\"name\": \"search\", \"arguments\": {\"q\": \"x\"}}</tool_call>";
    let calls = tool::tool_calls(text);
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].name, "search");
    let only_draft = "<think>I could call <tool_call>{\"name\": \"delete_all\", \"arguments\": {}}</tool_call></think>The answer is 4.";
    assert!(tool::tool_calls(only_draft).is_empty());
    let err = tool::tool_call(only_draft).unwrap_err();
    assert!(err.to_string().contains("closed reasoning block"), "{err}");
}

#[test]
fn a_call_inside_reasoning_left_open_at_the_end_is_found_and_flagged() {
    let text = "<think>The user wants Paris weather, calling now.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>";
    let reply = tool::read(text);
    assert_eq!(reply.calls.len(), 1);
    assert!(reply.calls[0].in_reasoning);
    assert_eq!(reply.calls[0].call.name, "get_weather");
    // And after reasoning that was closed, a call is not flagged.
    let after =
        tool::read("<think>hm</think><tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>");
    assert!(!after.calls[0].in_reasoning);
}

#[test]
fn a_call_in_reasoning_left_open_is_found_in_every_reasoning_form_and_format() {
    let weather = "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}";
    let rows = [
        format!("<think>\nThe user wants Paris weather.\n<tool_call>\n{weather}\n</tool_call>"),
        format!("<thinking>Calling the tool.\n<tool_call>{weather}</tool_call>"),
        format!("<reasoning>I will call it: {weather}"),
        "<think>Let me call it.\n[get_weather(city='Paris')]".to_string(),
        "<thinking>ok <function=get_weather>{\"city\": \"Paris\"}</function>".to_string(),
        "<think>now\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>".to_string(),
        "<|START_THINKING|>I need the weather.<|START_ACTION|>[{\"tool_name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}]<|END_ACTION|>".to_string(),
        // A closed block first, then one left open: only the open one holds the call.
        format!("<think>draft: <tool_call>{{\"name\": \"delete_all\", \"arguments\": {{}}}}</tool_call></think>\nChecking.\n<think>calling\n<tool_call>{weather}</tool_call>"),
    ];
    for text in &rows {
        let reply = tool::read(text);
        let names: Vec<&str> = reply.calls.iter().map(|f| f.call.name.as_str()).collect();
        assert_eq!(names, ["get_weather"], "{text}: {reply:#?}");
        let found = &reply.calls[0];
        assert!(found.in_reasoning && found.complete, "{text}: {reply:#?}");
        assert_eq!(found.call.arguments["city"], "Paris", "{text}");
        // The reasoning is still reasoning, and the call is a call for every entry point.
        assert!(!reply.thoughts.is_empty(), "{text}: {reply:#?}");
        assert_eq!(tool::tool_call(text).unwrap().name, "get_weather", "{text}");
        assert_eq!(
            tool::calls::<Tool>(text).unwrap(),
            [Tool::GetWeather {
                city: "Paris".into(),
                days: None
            }],
            "{text}"
        );
    }
    // A call cut off inside open reasoning is incomplete like any other.
    let cut = "<think>calling <tool_call>{\"name\": \"run_shell\", \"arguments\": {\"cmd\": \"rm -rf /tmp/bu";
    let reply = tool::read(cut);
    assert!(reply.calls.is_empty());
    assert!(reply.incomplete[0].in_reasoning && !reply.incomplete[0].complete);
}

#[test]
fn no_call_gives_an_empty_list_and_a_reasoned_error() {
    for text in [
        "",
        "The weather in Paris is sunny.",
        "{\"name\": \"Ada\", \"age\": 36}",
        "```json\n[1, 2, 3]\n```",
    ] {
        assert!(tool::tool_calls(text).is_empty(), "{text}");
        let err = tool::tool_call(text).unwrap_err();
        assert_eq!(err.category(), Category::NotFound, "{text}: {err}");
    }
    let err = tool::tool_call("{\"name\": \"Ada\", \"age\": 36}").unwrap_err();
    assert!(err.to_string().contains("no arguments"), "{err}");
    let err = tool::tool_call("I would call [TOOL_CALLS] but I won't.").unwrap_err();
    assert!(err.to_string().contains("Mistral"), "{err}");
    let err = tool::tool_call("nothing here").unwrap_err();
    assert!(err.to_string().contains("no tool call found"), "{err}");
}

#[test]
fn several_calls_are_an_error_for_the_single_form_naming_them() {
    let err = tool::tool_call("[get_weather(city='Paris'), search(q='x')]").unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("found 2") && text.contains("`get_weather`") && text.contains("`search`"),
        "{text}"
    );
}

#[test]
fn truncated_arguments_are_reported_incomplete_and_never_run() {
    let cut = [
        "<tool_call>{\"name\": \"run_shell\", \"arguments\": {\"cmd\": \"rm -rf /tmp/build",
        "<tool_call>\n<function=run_shell>\n<parameter=cmd>\nrm -rf /tmp/build",
        "<invoke name=\"run_shell\">\n<parameter name=\"cmd\">rm -rf /tmp/build",
        "<tool_call>run_shell\n<arg_key>cmd</arg_key>\n<arg_value>rm -rf /tmp/build",
        "[TOOL_CALLS]run_shell[ARGS]{\"cmd\": \"rm -rf /tmp/build",
        "{\"name\": \"run_shell\", \"arguments\": \"{\\\"cmd\\\": \\\"rm -rf /tmp/build",
        "[run_shell(cmd='rm -rf /tmp/build",
        "<|channel|>commentary to=functions.run_shell <|constrain|>json<|message|>{\"cmd\": \"rm -rf /tmp/build",
    ];
    for text in cut {
        assert!(tool::tool_calls(text).is_empty(), "{text}");
        let err = tool::tool_call(text).unwrap_err();
        assert_eq!(err.category(), Category::Incomplete, "{text}: {err}");
        assert!(err.to_string().contains("cut off"), "{text}: {err}");
    }
    // The caller may opt in, and then sees that the call is incomplete.
    let e = Extractor::new().allow_incomplete_tool_calls();
    let reply = e.read_tool_calls(cut[1]);
    assert_eq!(reply.calls[0].call.arguments["cmd"], "rm -rf /tmp/build");
    assert!(!reply.calls[0].complete);
}

#[test]
fn a_marker_inside_a_json_string_value_is_not_a_call() {
    let text = r#"{"name": "send_message", "arguments": {"text": "Wrap calls in <tool_call>{\"name\": \"x\"}</tool_call> or [TOOL_CALLS]"}}"#;
    let calls = tool::tool_calls(text);
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0].name, "send_message");
    assert_eq!(
        calls[0].arguments["text"],
        "Wrap calls in <tool_call>{\"name\": \"x\"}</tool_call> or [TOOL_CALLS]"
    );
}

#[test]
fn thousands_of_unclosed_markers_take_linear_time() {
    // Quadratic work on these would be ~10^10 steps: the test would not finish.
    for unit in [
        "<tool_call>{",
        "<function=f>",
        "[TOOL_CALLS]f[ARGS]{\"a\": ",
        "<think>",
        "[f(a=",
        "<parameter=a>",
        "{\"name\": \"f\", \"arguments\": {",
    ] {
        let text = unit.repeat(100_000 / unit.len() * 10);
        let start = std::time::Instant::now();
        let reply = tool::read(&text);
        assert!(reply.calls.iter().all(|c| c.complete), "{unit}");
        assert!(
            start.elapsed().as_secs() < 30,
            "{unit}: {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn extractor_restricts_the_formats() {
    let text = "<tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call>\n[b(x=1)]";
    assert_eq!(tool::tool_calls(text).len(), 2);
    let only_hermes = Extractor::new().tool_formats(&[Format::Hermes]);
    let calls = only_hermes.tool_calls(text);
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].name, "a");
    let err = only_hermes.tool_call("[b(x=1)]").unwrap_err();
    assert!(err.to_string().contains("not enabled"), "{err}");
}

#[test]
fn xml_parameter_values_are_read_by_the_target_type() {
    // As ToolCall: text that is JSON becomes JSON, other text stays a string.
    let call = tool::tool_call("<function=f>\n<parameter=days>\n3\n</parameter>\n<parameter=zip>\n007\n</parameter>\n<parameter=tags>\n[\"a\", \"b\"]\n</parameter>\n</function>").unwrap();
    assert_eq!(
        Value::Object(call.arguments),
        json!({"days": 3, "zip": "007", "tags": ["a", "b"]})
    );
    // As a typed tool: the field's type decides, so the zip code keeps its zeros.
    #[derive(Extract, Debug, PartialEq)]
    enum Tool {
        F {
            days: u8,
            zip: String,
            tags: Vec<String>,
        },
    }
    let calls: Vec<Tool> = tool::calls("<function=f>\n<parameter=days>\n3\n</parameter>\n<parameter=zip>\n007\n</parameter>\n<parameter=tags>\n[\"a\", \"b\"]\n</parameter>\n</function>").unwrap();
    assert_eq!(
        calls,
        vec![Tool::F {
            days: 3,
            zip: "007".into(),
            tags: vec!["a".into(), "b".into()]
        }]
    );
}

/// A fixture's calls as typed tools: `search` builds a search from `q`, `weather` a forecast
/// from `city` and `days`.
fn typed_calls<T>(
    calls: &[(&str, Value)],
    search: impl Fn(String) -> T,
    weather: impl Fn(String, Option<u8>) -> T,
) -> Vec<T> {
    calls
        .iter()
        .map(|(name, args)| match *name {
            "search" => search(args["q"].as_str().unwrap().into()),
            _ => weather(
                args["city"].as_str().unwrap().into(),
                args.get("days").and_then(Value::as_u64).map(|d| d as u8),
            ),
        })
        .collect()
}

/// The tools of the typed tests.
#[derive(Extract, Debug, PartialEq)]
enum Tool {
    Search { q: String },
    GetWeather { city: String, days: Option<u8> },
}

#[test]
fn a_user_enum_of_tools_reads_every_format() {
    for (what, text, _, calls) in fixtures() {
        let typed: Vec<Tool> = tool::calls(&text).unwrap_or_else(|e| panic!("{what}: {e}"));
        let want = typed_calls(
            &calls,
            |q| Tool::Search { q },
            |city, days| Tool::GetWeather { city, days },
        );
        assert_eq!(typed, want, "{what}");
    }
}

#[test]
fn typed_errors_name_the_call_the_tool_and_the_argument_path() {
    let err = tool::calls::<Tool>("<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 300}}</tool_call>").unwrap_err();
    let text = err.to_string();
    assert!(text.contains("tool call 1 (`get_weather`"), "{text}");
    assert!(text.contains("days"), "{text}");
    let err = tool::calls::<Tool>("[delete_everything(confirm=True)]").unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("there is no tool named `delete_everything`"),
        "{text}"
    );
    assert!(text.contains("`Search`, `GetWeather`"), "{text}");
    assert_eq!(err.category(), Category::Variant, "{text}");
}

#[test]
fn tool_call_reads_as_itself_through_calls() {
    let calls: Vec<ToolCall> =
        tool::calls("[TOOL_CALLS]search[CALL_ID]abc123def[ARGS]{\"q\": \"x\"}").unwrap();
    assert_eq!(calls[0].name, "search");
    assert_eq!(calls[0].id.as_deref(), Some("abc123def"));
    assert_eq!(calls[0].arguments["q"], "x");
}

#[test]
fn extract_keeps_harmony_analysis_and_cohere_thinking_as_thoughts_not_answers() {
    let harmony = "<|channel|>analysis<|message|>Draft: {\"answer\": 1}. Check again.<|end|><|start|>assistant<|channel|>final<|message|>{\"answer\": 2}<|return|>";
    let out = llm_extract::extract::<Value>(harmony).unwrap();
    assert_eq!(out.value, json!({"answer": 2}));
    assert_eq!(out.thoughts, ["Draft: {\"answer\": 1}. Check again."]);
    let cohere =
        "<|START_THINKING|>Maybe [1, 2]?<|END_THINKING|><|START_RESPONSE|>[3, 4]<|END_RESPONSE|>";
    let out = llm_extract::extract::<Vec<u8>>(cohere).unwrap();
    assert_eq!(out.value, [3, 4]);
    assert_eq!(out.thoughts, ["Maybe [1, 2]?"]);
    // Analysis left open at the end of the reply is reasoning too.
    let open =
        llm_extract::extract::<Value>("{\"a\": 1}\n<|channel|>analysis<|message|>hmm {\"b\": 2}")
            .unwrap();
    assert_eq!(open.value, json!({"a": 1}));
    assert_eq!(open.thoughts, ["hmm {\"b\": 2}"]);
}

#[test]
fn many_unclosed_reasoning_tokens_take_linear_time() {
    for unit in [
        "<|channel|>analysis<|message|>x<|end|>",
        "<|START_THINKING|>",
        "<|channel|>analysis<|message|>{",
    ] {
        let text = unit.repeat(2_000_000 / unit.len());
        let start = std::time::Instant::now();
        let _ = llm_extract::repair(&text);
        assert!(
            start.elapsed().as_secs() < 30,
            "{unit}: {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn a_cut_off_pythonic_call_is_incomplete_and_runs_only_when_the_caller_opts_in() {
    for text in [
        r#"[get_weather(city="Par"#,
        r#"<|python_start|>[get_weather(city="Par"#,
        r#"<|tool_call_start|>[get_weather(city="Par"#,
        "I'll check.\n[get_weather(city=\"Par",
    ] {
        // By default: never a call, reported as cut off.
        let reply = tool::read(text);
        assert!(reply.calls.is_empty(), "{text}: {reply:#?}");
        assert_eq!(reply.incomplete.len(), 1, "{text}: {reply:#?}");
        assert_eq!(reply.incomplete[0].call.name, "get_weather");
        assert_eq!(reply.incomplete[0].format, Format::Pythonic);
        assert!(!reply.incomplete[0].complete);
        assert!(tool::tool_calls(text).is_empty(), "{text}");
        let err = tool::tool_call(text).unwrap_err();
        assert_eq!(err.category(), Category::Incomplete, "{text}: {err}");
        assert!(
            err.to_string().contains("`get_weather` was cut off"),
            "{text}: {err}"
        );
        assert!(tool::calls::<Tool>(text).is_err(), "{text}");
        // Opted in: the call with what its arguments held, marked incomplete.
        let e = Extractor::new().allow_incomplete_tool_calls();
        let reply = e.read_tool_calls(text);
        assert_eq!(reply.calls.len(), 1, "{text}: {reply:#?}");
        assert!(!reply.calls[0].complete);
        assert_eq!(
            Value::Object(reply.calls[0].call.arguments.clone()),
            json!({"city": "Par"})
        );
        assert_eq!(
            e.calls::<Tool>(text).unwrap(),
            vec![Tool::GetWeather {
                city: "Par".into(),
                days: None
            }]
        );
    }
    // Calls before the cut in the same list are cut off with it (the list never ended).
    let text = "[search(q='x'), get_weather(city='Paris', da";
    let reply = tool::read(text);
    assert!(reply.calls.is_empty());
    let names: Vec<&str> = reply
        .incomplete
        .iter()
        .map(|f| f.call.name.as_str())
        .collect();
    assert_eq!(names, ["search", "get_weather"]);
    assert_eq!(
        Value::Object(reply.incomplete[1].call.arguments.clone()),
        json!({"city": "Paris"})
    );
}

#[test]
fn a_call_cut_off_after_whole_ones_is_an_error_not_dropped() {
    let text = "<tool_call>{\"name\": \"search\", \"arguments\": {\"q\": \"rust\"}}</tool_call>\n<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Par";
    // The whole call and the cut one, apart.
    let reply = tool::read(text);
    assert_eq!(reply.calls.len(), 1);
    assert_eq!(reply.incomplete[0].call.name, "get_weather");
    // Typed: the reply is not run in part, and the error names the call cut off.
    let err = tool::calls::<Tool>(text).unwrap_err();
    assert_eq!(err.category(), Category::Incomplete, "{err}");
    assert!(
        err.to_string().contains("`get_weather` was cut off"),
        "{err}"
    );
    // As a stream says at its end, whatever the chunking.
    let mut stream = tool::StreamCalls::<Tool>::new().begins_in_answer();
    let mut yielded = Vec::new();
    for chunk in text.as_bytes().chunks(7) {
        yielded.extend(stream.push_bytes(chunk));
    }
    assert_eq!(yielded.len(), 1);
    assert_eq!(
        stream.finish().unwrap_err().category(),
        Category::Incomplete
    );
    // Opted in, the cut call is among the calls, with what its arguments held.
    let calls = Extractor::new()
        .allow_incomplete_tool_calls()
        .calls::<Tool>(text)
        .unwrap();
    assert_eq!(calls.len(), 2);
}

/// The text an issue's span covers.
fn spanned<'t>(text: &'t str, err: &llm_extract::Error) -> &'t str {
    let span = err.issues()[0].span.expect("the issue has a span");
    &text[span.start..span.end]
}

#[test]
fn an_argument_error_points_at_the_argument_in_the_reply() {
    // The bad value is `300` (out of range for `days: Option<u8>`) in every format; the error's
    // position is that of `300` in the reply, also inside a JSON string (OpenAI) where the
    // decoded text has other offsets than the reply.
    for text in [
        r#"{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\", \"days\": 300}"}}"#,
        r#"{"tool_calls": [{"id": "c", "type": "function", "function": {"name": "search", "arguments": "{\"q\": \"x\"}"}}, {"id": "d", "type": "function", "function": {"name": "get_weather", "arguments": "{\n  \"city\": \"Paris\",\n  \"days\": 300\n}"}}]}"#,
        "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 300}}\n</tool_call>",
        "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\", \"days\": 300}",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n300\n</parameter>\n</function>\n</tool_call>",
        "<invoke name=\"get_weather\">\n<parameter name=\"city\">Paris</parameter>\n<parameter name=\"days\">300</parameter>\n</invoke>",
        "[get_weather(city='Paris', days=300)]",
        "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Paris\", \"days\": 300}<|call|>",
    ] {
        let err = tool::calls::<Tool>(text).unwrap_err();
        assert!(err.to_string().contains("300"), "{text}: {err}");
        assert_eq!(spanned(text, &err), "300", "{text}: {err:?}");
        let at = text.find("300").unwrap();
        let position = err.issues()[0].position.expect("a line and column");
        let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
        assert_eq!(
            (position.line, position.column),
            (
                text[..at].matches('\n').count() + 1,
                text[line_start..at].chars().count() + 1
            ),
            "{text}"
        );
    }
    // A missing argument points at the arguments written inside the string.
    let text = r#"{"name": "get_weather", "arguments": "{\"days\": 3}"}"#;
    let err = tool::calls::<Tool>(text).unwrap_err();
    assert!(err.to_string().contains("missing field `city`"), "{err}");
    let span = err.issues()[0].span.unwrap();
    assert_eq!(span.start, text.find(r#"{\"days"#).unwrap(), "{err:?}");
    // A format that writes each argument apart has no arguments object to point at: a
    // missing argument points at the call, not at the start of the reply.
    for call in [
        "<tool_call>get_weather<arg_key>days</arg_key><arg_value>3</arg_value></tool_call>",
        "<minimax:tool_call><invoke name=\"get_weather\"><parameter name=\"days\">3</parameter></invoke></minimax:tool_call>",
        "```tool_code\nget_weather(days=3)\n```",
    ] {
        let text = format!("Checking.\n{call}");
        let err = tool::calls::<Tool>(&text).unwrap_err();
        assert!(err.to_string().contains("missing field `city`"), "{err}");
        let span = err.issues()[0].span.unwrap();
        assert!(span.start >= text.find(call).unwrap(), "{text}: {err:?}");
        assert_eq!(err.issues()[0].position.unwrap().line, 2, "{text}: {err}");
    }
}

/// The same tools adjacently tagged, the shape of a tool call (`{"name", "arguments"}`), as a
/// user writes them to share one definition with serde and the provider's tool list.
#[derive(Extract, Debug, PartialEq)]
#[extract(tag = "name", content = "arguments", rename_all = "snake_case")]
enum NamedTool {
    /// Search the web.
    Search { q: String },
    /// The weather forecast for a city.
    #[extract(alias = "forecast")]
    GetWeather {
        city: String,
        #[extract(min = 1, max = 7)]
        days: Option<u8>,
    },
}

#[test]
fn a_derived_adjacently_tagged_enum_reads_every_format() {
    for (what, text, _, calls) in fixtures() {
        let typed: Vec<NamedTool> = tool::calls(&text).unwrap_or_else(|e| panic!("{what}: {e}"));
        let want = typed_calls(
            &calls,
            |q| NamedTool::Search { q },
            |city, days| NamedTool::GetWeather { city, days },
        );
        assert_eq!(typed, want, "{what}");
    }
    // The tool name is matched like a variant name: normalized, and by alias.
    let calls: Vec<NamedTool> = tool::calls(
        "[TOOL_CALLS] [{\"name\": \"GetWeather\", \"arguments\": {\"city\": \"Oslo\"}}, {\"name\": \"forecast\", \"arguments\": {\"city\": \"Rome\", \"days\": 2}}]",
    )
    .unwrap();
    assert_eq!(
        calls,
        [
            NamedTool::GetWeather {
                city: "Oslo".into(),
                days: None
            },
            NamedTool::GetWeather {
                city: "Rome".into(),
                days: Some(2)
            }
        ]
    );
    // Validation rules of the arguments hold, and errors name the tool and the argument path.
    let err = tool::calls::<NamedTool>("[get_weather(city='Paris', days=9)]").unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains("tool call 1 (`get_weather`, pythonic)") && message.contains("days"),
        "{message}"
    );
    assert_eq!(err.category(), Category::Validation, "{message}");
    let err = tool::calls::<NamedTool>(
        "<tool_call>{\"name\": \"delete_all\", \"arguments\": {}}</tool_call>",
    )
    .unwrap_err();
    assert!(err.to_string().contains("`delete_all`"), "{err}");
    assert_eq!(err.category(), Category::Variant, "{err}");
}

#[test]
fn a_derived_adjacently_tagged_enum_is_each_providers_tool_list() {
    use llm_extract::tool::{definitions, Provider};
    let openai = definitions::<NamedTool>(Provider::OpenAi);
    assert_eq!(
        openai,
        json!([
            {"type": "function", "function": {
                "name": "search",
                "description": "Search the web.",
                "parameters": {
                    "type": "object",
                    "properties": {"q": {"type": "string"}},
                    "required": ["q"],
                    "additionalProperties": false
                },
                "strict": true
            }},
            {"type": "function", "function": {
                "name": "get_weather",
                "description": "The weather forecast for a city.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "city": {"type": "string"},
                        "days": {"type": ["integer", "null"], "minimum": 1, "maximum": 7}
                    },
                    "required": ["city", "days"],
                    "additionalProperties": false
                },
                "strict": true
            }}
        ])
    );
    let anthropic = definitions::<NamedTool>(Provider::Anthropic);
    assert_eq!(anthropic[1]["name"], "get_weather");
    assert_eq!(anthropic[1]["input_schema"]["required"], json!(["city"]));
    assert_eq!(anthropic[1]["input_schema"]["additionalProperties"], false);
    let gemini = definitions::<NamedTool>(Provider::Gemini);
    let declarations = &gemini[0]["functionDeclarations"];
    assert_eq!(declarations[0]["name"], "search");
    assert_eq!(
        declarations[1]["parameters"]["properties"]["days"],
        json!({"type": "integer", "nullable": true, "minimum": 1, "maximum": 7})
    );
    // Every tool name the list declares reads back as that tool.
    for tool in openai.as_array().unwrap() {
        let name = tool["function"]["name"].as_str().unwrap();
        let call = format!("<tool_call>{{\"name\": \"{name}\", \"arguments\": {{\"q\": \"x\", \"city\": \"Oslo\"}}}}</tool_call>");
        assert!(tool::calls::<NamedTool>(&call).is_ok(), "{name}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]

    /// Pythonic-call-flavoured noise, cut anywhere, never panics; with the opt-in, whatever
    /// comes back cut off is marked incomplete.
    #[test]
    fn pythonic_noise_never_panics(text in "\\[?([a-z_]{1,4}\\(([a-z]{1,3}=[\\[\\](){}'\",:0-9a-zTrueNon \\\\]{0,12},? ?){0,3}\\)?,? ?){0,3}\\]?") {
        let e = Extractor::new().allow_incomplete_tool_calls();
        let reply = e.read_tool_calls(&text);
        for f in &reply.calls {
            proptest::prop_assert!(f.complete || reply.incomplete.iter().any(|i| i.span == f.span));
        }
        let _ = tool::calls::<Tool>(&text);
        let _ = e.calls::<Tool>(&text);
    }
}

#[test]
fn streamed_calls_are_the_whole_replys_calls_under_every_chunking() {
    use llm_extract_tests::tool_stream::check_every_chunking;
    let mut texts: Vec<(String, String)> = fixtures()
        .into_iter()
        .map(|(what, text, _, _)| (what.to_string(), text))
        .collect();
    // Reasoning, drafts, calls cut off and calls in reasoning left open.
    let weather = "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}";
    for (what, text) in [
        ("draft then call", format!("<think>Maybe <tool_call>{weather}</tool_call>? No.</think>\n<tool_call>{weather}</tool_call>")),
        ("open reasoning", format!("<think>calling\n<tool_call>{weather}</tool_call>")),
        ("reasoning opened in the prompt", format!("draft <tool_call>{weather}</tool_call></think>\nNow: <tool_call>{weather}</tool_call> done")),
        ("cut off", format!("<tool_call>{weather}</tool_call><tool_call>{{\"name\": \"run\", \"arguments\": {{\"cmd\": \"rm -rf /tm")),
        ("cut off, then a call", format!("<tool_call>{{\"name\": \"run\", \"arguments\": {{\"cmd\": \"rm<tool_call>{weather}</tool_call>")),
        ("prose JSON lines", format!("Calls:\n{weather}\n{weather}\nDone {{\"a\": 1}} [x]")),
        ("bare pythonic in python_tag", "<|python_tag|>get_weather(city='Paris'), search(q='x')".to_string()),
        ("bare pythonic then junk", "<|python_tag|>get_weather(city='Paris') and more".to_string()),
        ("bare pythonic cut off", "<|python_tag|>get_weather(city='Paris') search(q='x".to_string()),
        ("TOOL_CALL at the end", "TOOL_CALLER TOOL_CALL".to_string()),
        ("Mistral chain", "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}search[ARGS]{\"q\": \"x\"}".to_string()),
    ] {
        texts.push((what.to_string(), text));
    }
    let mut pushed = 0;
    for (what, text) in &texts {
        pushed += check_every_chunking(what, text);
    }
    assert!(pushed > 0);
}

#[test]
fn a_stream_yields_every_fixtures_calls_by_the_push_that_completes_them() {
    for (what, text, _, calls) in fixtures() {
        // Whole in one push: every call comes from the push, none waits for `finish` (in a
        // stream told the reply begins in the answer; by default, as the whole read, a
        // `</think>` may still come and make them drafts). Except a JSON value the reply
        // ends with, in prose or as a body with no closer after it (`TOOL_CALL {...}`,
        // `[TOOL_CALLS] [...]`): more text may read it on past its closer (`{...}, "id": 1}`
        // is one value), so `finish` yields its calls. And a block that ends the reply on a
        // line prose began (`I'll check.<|tool_calls_section_begin|>...<|tool_calls_section_end|>`):
        // more words after it would make it a sentence's. Nor a code fence whose closing run
        // ends the reply (words after it on its line, `` ``` but I won't.``, would too).
        let mut stream = tool::StreamCalls::<ToolCall>::new().begins_in_answer();
        let mut got = stream.push(&text);
        let rest = stream.finish().unwrap();
        let ends_in_json = text.trim_end().ends_with(['}', ']']);
        let last_line = text.trim_end().rsplit('\n').next().unwrap_or_default();
        let after_prose = last_line.starts_with(char::is_alphabetic) && last_line.ends_with('>');
        let ends_in_fence = text.ends_with("```");
        assert!(
            rest.is_empty() || ends_in_json || after_prose || ends_in_fence,
            "{what}"
        );
        got.extend(rest);
        assert_eq!(summary(&got), expected(&calls), "{what}");
        // Typed, in 5-byte chunks: the user's enum of tools, as `calls::<Tool>` gives it.
        let mut stream = tool::StreamCalls::<Tool>::new();
        let mut typed: Vec<Tool> = Vec::new();
        for chunk in text.as_bytes().chunks(5) {
            typed.extend(stream.push_bytes(chunk));
        }
        typed.extend(stream.finish().unwrap_or_else(|e| panic!("{what}: {e}")));
        assert_eq!(typed, tool::calls::<Tool>(&text).unwrap(), "{what}");
    }
}

#[test]
fn a_streamed_call_that_does_not_fit_the_type_is_reported_by_finish_and_the_others_are_yielded() {
    let mut stream = tool::StreamCalls::<Tool>::new().begins_in_answer();
    let mut got =
        stream.push("[delete_everything(confirm=True)]\n<tool_call>{\"name\": \"search\", \"arg");
    got.extend(stream.push("uments\": {\"q\": \"x\"}}</tool_call>"));
    assert_eq!(got, [Tool::Search { q: "x".into() }]);
    let err = stream.finish().unwrap_err();
    let text = err.to_string();
    assert!(text.contains("tool call 1 (`delete_everything`"), "{text}");
    assert!(
        text.contains("there is no tool named `delete_everything`"),
        "{text}"
    );
    assert_eq!(err.category(), Category::Variant, "{text}");
}

/// Pythonic calls whose list lost its brackets are calls when they are all the reply holds,
/// whole, with keyword arguments (or none); a call named in a sentence, a positional call or
/// a call with more text after it is none.
#[test]
fn bare_pythonic_calls_that_are_the_whole_reply() {
    for (text, want) in [
        (
            "get_weather(city=\"Paris\", days=3)",
            vec![("get_weather", json!({"city": "Paris", "days": 3}))],
        ),
        (
            "  get_weather(city='Paris', days=3), search(q='x')\n",
            vec![
                ("get_weather", json!({"city": "Paris", "days": 3})),
                ("search", json!({"q": "x"})),
            ],
        ),
        ("get_time()", vec![("get_time", json!({}))]),
    ] {
        let reply = tool::read(text);
        assert!(
            reply.calls.iter().all(|c| c.format == Format::Pythonic),
            "{reply:#?}"
        );
        assert_eq!(summary(&tool::tool_calls(text)), expected(&want), "{text}");
    }
    for text in [
        "Use get_weather(city='Paris') to ask.",
        "get_weather(city='Paris') and more",
        "print(x)",
    ] {
        assert!(tool::tool_calls(text).is_empty(), "{text}");
    }
}

/// A pythonic call's string argument runs to its closing quote, a triple quote's to three,
/// whatever it holds: quotes of the other kind, escaped ones, the format's own end token.
#[test]
fn a_pythonic_argument_string_holds_its_format_end_token() {
    let cases = [
        (
            r#"<|python_start|>[write(path='a.py', text="""print("hi") # <|python_end|> ok""")]<|python_end|>"#,
            r#"print("hi") # <|python_end|> ok"#,
        ),
        (
            r#"<|python_start|>[write(path='a.py', text='it\'s <|python_end|> "fine"')]<|python_end|>"#,
            r#"it's <|python_end|> "fine""#,
        ),
        (
            r#"<|python_start|>[write(path='a.py', text='''a ' b '' c <|python_end|>''')]<|python_end|>"#,
            "a ' b '' c <|python_end|>",
        ),
        (
            r#"<|python_start|>[write(path='a.py', text="""a " b <|python_end|> c""")]<|python_end|>"#,
            r#"a " b <|python_end|> c"#,
        ),
    ];
    for (call, text) in cases {
        let reply = format!("{call} Done.");
        let read = tool::read(&reply);
        let calls: Vec<ToolCall> = read.calls.iter().map(|f| f.call.clone()).collect();
        assert_eq!(
            summary(&calls),
            expected(&[("write", json!({"path": "a.py", "text": text}))]),
            "{reply}"
        );
        assert_eq!(read.text, "Done.", "{reply}");
    }
}

/// A call with prose before it on its line and nothing after it there is not in a sentence
/// with the words of the next line: a `functools` call whose span runs on to the next
/// line's call was refused as "inside a sentence" when another call followed, and returned
/// when it was the last.
#[test]
fn a_call_is_not_in_a_sentence_with_the_next_line() {
    let first = "Okay.  functools[{\"name\": \"lookup\", \"arguments\": {}}]";
    for rest in [
        "",
        "\nDone.",
        "\nfunctools[{\"name\": \"g\", \"arguments\": {}}]",
    ] {
        let text = format!("{first}{rest}");
        let calls = llm_extract::tool::tool_calls(&text);
        assert_eq!(calls[0].name, "lookup", "{text}");
        llm_extract_tests::tool_stream::check_every_chunking(&text, &text);
    }
}

/// A reply that starts with a quote (`"Sure" I said.`) before a fenced call: the fenced call
/// is the reply's, whole and streamed; the quote's string does not read on into the fence.
#[test]
fn a_quote_at_the_start_of_the_reply_does_not_hide_a_fenced_call() {
    let replies = [
        "\"Sure\" I said.\n```json\n{\"name\": \"f\", \"arguments\": {}}\n```",
        "\"Sure, let me check that.\n```json\n{\"name\": \"f\", \"arguments\": {}}\n```<|im_end|>",
    ];
    for text in replies {
        let whole = llm_extract::tool::calls::<llm_extract::tool::ToolCall>(text).unwrap();
        assert_eq!(whole.len(), 1, "{text}");
        assert_eq!(whole[0].name, "f");
        for size in [1, 7, 64] {
            let mut stream = llm_extract::tool::StreamCalls::<llm_extract::tool::ToolCall>::new();
            let mut names: Vec<String> = Vec::new();
            for chunk in text.as_bytes().chunks(size) {
                names.extend(stream.push_bytes(chunk).into_iter().map(|c| c.name));
            }
            names.extend(stream.finish().unwrap().into_iter().map(|c| c.name));
            assert_eq!(names, ["f"], "{text} in {size}-byte chunks");
        }
    }
    let all = llm_extract::Extractor::new()
        .extract_all::<serde_json::Value>("\"Sure\" I said.\n```json\n{\"a\": 1}\n```")
        .unwrap();
    let values: Vec<_> = all.into_iter().map(|e| e.value).collect();
    assert_eq!(values, [serde_json::json!({"a": 1})]);
}
