//! Tool calls read against a tool list given at run time (`tool::Tools`): the OpenAI,
//! Anthropic and MCP list shapes, names checked against the list, arguments read and checked
//! by each tool's input schema with positions in the reply, streamed as read whole, and tool
//! lists that cannot be read refused saying where.

use llm_extract::tool::{self, Provider, ToolCall, Tools};
use llm_extract::{Category, Error, Extract, Extractor};
use serde_json::{json, Value};

/// The two tools every test reads with: name, description, input schema.
fn definitions() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        (
            "get_weather",
            "The forecast for a city.",
            json!({
                "type": "object",
                "properties": {
                    "city": {"type": "string"},
                    "days": {"type": "integer", "minimum": 1, "maximum": 7},
                    "units": {"enum": ["celsius", "fahrenheit"]}
                },
                "required": ["city"]
            }),
        ),
        (
            "search",
            "Search the web.",
            json!({
                "type": "object",
                "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}},
                "required": ["q"]
            }),
        ),
    ]
}

fn openai_list() -> Value {
    Value::Array(
        definitions()
            .into_iter()
            .map(|(name, description, parameters)| {
                json!({"type": "function", "function": {"name": name, "description": description, "parameters": parameters, "strict": false}})
            })
            .collect(),
    )
}

fn responses_list() -> Value {
    Value::Array(
        definitions()
            .into_iter()
            .map(|(name, description, parameters)| {
                json!({"type": "function", "name": name, "description": description, "parameters": parameters})
            })
            .collect(),
    )
}

fn anthropic_list() -> Value {
    Value::Array(
        definitions()
            .into_iter()
            .map(|(name, description, schema)| {
                json!({"name": name, "description": description, "input_schema": schema})
            })
            .collect(),
    )
}

fn mcp_result() -> Value {
    let tools: Vec<Value> = definitions()
        .into_iter()
        .map(|(name, description, schema)| {
            json!({"name": name, "title": name.to_uppercase(), "description": description, "inputSchema": schema, "annotations": {"readOnlyHint": true}})
        })
        .collect();
    json!({"tools": tools, "nextCursor": null})
}

fn gemini_list() -> Value {
    let declarations: Vec<Value> = definitions()
        .into_iter()
        .map(|(name, description, parameters)| {
            json!({"name": name, "description": description, "parameters": parameters})
        })
        .collect();
    json!([{"functionDeclarations": declarations}])
}

fn tools() -> Tools {
    Tools::from_openai(&openai_list()).unwrap()
}

const HERMES: &str = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n</tool_call>";

#[test]
fn each_list_shape_reads_the_same_calls() {
    let want = vec![ToolCall {
        name: "get_weather".into(),
        arguments: json!({"city": "Paris", "days": 3})
            .as_object()
            .unwrap()
            .clone(),
        id: None,
    }];
    let request = json!({"model": "m", "tools": openai_list()});
    let lists = [
        ("openai", Tools::from_openai(&openai_list())),
        ("openai request", Tools::from_openai(&request)),
        ("responses", Tools::from_openai(&responses_list())),
        ("anthropic", Tools::from_anthropic(&anthropic_list())),
        ("mcp", Tools::from_mcp(&mcp_result())),
        ("mcp array", Tools::from_mcp(&mcp_result()["tools"])),
        ("json openai", Tools::from_json(&openai_list())),
        ("json responses", Tools::from_json(&responses_list())),
        ("json anthropic", Tools::from_json(&anthropic_list())),
        ("json mcp", Tools::from_json(&mcp_result())),
        ("gemini", Tools::from_gemini(&gemini_list())),
        ("json gemini", Tools::from_json(&gemini_list())),
    ];
    for (what, tools) in lists {
        let tools = tools.unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(
            tools.names().collect::<Vec<_>>(),
            ["get_weather", "search"],
            "{what}"
        );
        assert_eq!(
            tools.description("search"),
            Some("Search the web."),
            "{what}"
        );
        assert_eq!(tools.calls(HERMES).unwrap(), want, "{what}");
    }
}

#[test]
fn every_wire_format_is_read_against_the_list() {
    let tools = tools();
    let want = json!({"city": "Paris", "days": 3});
    for text in [
        HERMES,
        r#"{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\", \"days\": 3}"}}"#,
        "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\", \"days\": 3}",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
        "<invoke name=\"get_weather\">\n<parameter name=\"city\">Paris</parameter>\n<parameter name=\"days\">3</parameter>\n</invoke>",
        "[get_weather(city='Paris', days=3)]",
        "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Paris\", \"days\": 3}<|call|>",
        "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>",
        "<|tool_call>call:get_weather{city:<|\"|>Paris<|\"|>,days:3}<tool_call|>",
    ] {
        let calls = tools.calls(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(calls.len(), 1, "{text}");
        assert_eq!(calls[0].name, "get_weather", "{text}");
        assert_eq!(calls[0].arguments_value(), want, "{text}");
    }
}

#[test]
fn the_call_id_is_kept() {
    let tools = Tools::from_anthropic(&anthropic_list()).unwrap();
    let text =
        r#"{"type": "tool_use", "id": "toolu_01", "name": "search", "input": {"q": "rust"}}"#;
    let calls = tools.calls(text).unwrap();
    assert_eq!(calls[0].id.as_deref(), Some("toolu_01"));
    let text = r#"{"tool_calls": [{"id": "call_9", "type": "function", "function": {"name": "search", "arguments": "{\"q\": \"x\"}"}}]}"#;
    assert_eq!(tools.calls(text).unwrap()[0].id.as_deref(), Some("call_9"));
}

#[test]
fn a_name_not_in_the_list_is_refused_with_the_known_names() {
    let tools = tools();
    for (text, name) in [
        (
            "<tool_call>{\"name\": \"delete_file\", \"arguments\": {\"path\": \"/\"}}</tool_call>",
            "delete_file",
        ),
        ("[get_weathr(city='Paris')]", "get_weathr"),
        // Words of a known name inside another are not that name.
        ("[undo_search(q='x')]", "undo_search"),
    ] {
        let err = tools.calls(text).unwrap_err();
        let message = err.to_string();
        assert_eq!(err.category(), Category::Variant, "{message}");
        assert!(
            message.contains(&format!("there is no tool named `{name}`")),
            "{message}"
        );
        assert!(message.contains("`get_weather`, `search`"), "{message}");
        assert!(err.feedback().contains(name), "{}", err.feedback());
    }
    // A name written otherwise (case, `_`, `-`) is the list's name, spelled as the list does.
    let calls = tools.calls("[GetWeather(city='Paris')]").unwrap();
    assert_eq!(calls[0].name, "get_weather");
}

#[test]
fn arguments_are_coerced_by_the_schema_both_ways() {
    let tools = tools();
    // Text in an XML-like format: `3` is a string where the schema says string, a number
    // where it says integer.
    let text = "<tool_call>\n<function=get_weather>\n<parameter=city>\n3\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>";
    let calls = tools.calls(text).unwrap();
    assert_eq!(calls[0].arguments_value(), json!({"city": "3", "days": 3}));
    // The same reply without a list reads the text `3` as the number it spells.
    assert_eq!(
        llm_extract::tool::tool_calls(text)[0].arguments_value(),
        json!({"city": 3, "days": 3})
    );
    // JSON written with the other types: each read as the schema says.
    let text = r#"<tool_call>{"name": "search", "arguments": {"q": 42, "limit": "5"}}</tool_call>"#;
    let calls = tools.calls(text).unwrap();
    assert_eq!(calls[0].arguments_value(), json!({"q": "42", "limit": 5}));
    // Keys and enum values matched as a derived type matches them.
    let text = r#"[get_weather(City='Paris', Units='CELSIUS')]"#;
    let calls = tools.calls(text).unwrap();
    assert_eq!(
        calls[0].arguments_value(),
        json!({"city": "Paris", "units": "celsius"})
    );
}

/// The line and column of the first issue, and the text its span covers.
fn position(text: &str, err: &Error) -> (usize, usize, String) {
    let issue = &err.issues()[0];
    let position = issue.position.expect("a line and column");
    let span = issue.span.expect("a span");
    (
        position.line,
        position.column,
        text[span.start..span.end].to_string(),
    )
}

#[test]
fn a_validation_issue_has_its_path_and_position_in_the_reply() {
    let tools = tools();
    let text = "Let me check.\n<tool_call>\n{\"name\": \"get_weather\",\n \"arguments\": {\"city\": \"Paris\", \"days\": 30}}\n</tool_call>";
    let err = tools.calls(text).unwrap_err();
    assert_eq!(err.category(), Category::Validation, "{err}");
    assert_eq!(err.issues()[0].path.to_string(), "$.get_weather.days");
    let line_start = text.rfind(" \"arguments\"").unwrap();
    let column = text.find("30}").unwrap() - line_start + 1;
    assert_eq!(position(text, &err), (4, column, "30".to_string()));
    let message = err.to_string();
    assert!(message.contains("tool call 1 (`get_weather`"), "{message}");
    assert!(
        message.contains(&format!("line 4 column {column}")),
        "{message}"
    );
    assert!(err.feedback().contains("days"), "{}", err.feedback());
    // Inside a JSON string (OpenAI's arguments), the position is in the reply too.
    let text = r#"{"type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\", \"days\": 0}"}}"#;
    let err = tools.calls(text).unwrap_err();
    let (_, column, spanned) = position(text, &err);
    assert_eq!(spanned, "0");
    assert_eq!(column, text.find(": 0}").unwrap() + 3);
    // A missing required argument.
    let err = tools.calls("[get_weather(days=2)]").unwrap_err();
    assert_eq!(err.category(), Category::Missing, "{err}");
    assert!(err.to_string().contains("missing field `city`"), "{err}");
}

#[test]
fn cut_off_and_doubtful_calls_are_refused_as_for_typed_tools() {
    let tools = tools();
    let cut = "<tool_call>{\"name\": \"search\", \"arguments\": {\"q\": \"ru";
    assert_eq!(
        tools.calls(cut).unwrap_err().category(),
        Category::Incomplete
    );
    let guess = "<tool_call>{\"name\": \"search\", \"arguments\": {\"q\": rust}}</tool_call>";
    assert_eq!(
        tools.calls(guess).unwrap_err().category(),
        Category::Doubtful
    );
    let mention = "I could use <tool_call>{\"name\": \"search\", \"arguments\": {\"q\": \"x\"}}</tool_call> but will not.";
    assert!(tools.calls(mention).unwrap().is_empty());
    // Opted in, as for any tool reading.
    let e = Extractor::new()
        .allow_incomplete_tool_calls()
        .allow_doubtful_tool_calls();
    assert_eq!(e.calls_with(&tools, cut).unwrap()[0].arguments["q"], "ru");
    assert_eq!(
        e.calls_with(&tools, guess).unwrap()[0].arguments["q"],
        "rust"
    );
}

/// Replies for the streaming comparison: calls in several formats, several calls, prose,
/// reasoning, and replies that are errors (an unknown tool, an invalid argument, a cut-off
/// call).
const REPLIES: &[&str] = &[
    HERMES,
    "Checking both.\n<tool_call>{\"name\": \"search\", \"arguments\": {\"q\": \"rust\", \"limit\": \"2\"}}</tool_call>\n<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}</tool_call>\nDone.",
    "<think>maybe [search(q='draft')]</think>[get_weather(city='Paris', days=3), search(q=\"x\")]",
    "<tool_call>\n<function=get_weather>\n<parameter=city>\n3\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
    r#"{"tool_calls": [{"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{\"q\": \"x\"}"}}, {"id": "c2", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Rome\", \"days\": 2}"}}]}"#,
    "[TOOL_CALLS][{\"name\": \"search\", \"arguments\": {\"q\": \"é ü 日本\"}}]",
    "<tool_call>{\"name\": \"delete_file\", \"arguments\": {}}</tool_call>",
    "<tool_call>{\"name\": \"search\", \"arguments\": {\"q\": \"a\"}}</tool_call><tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 30}}</tool_call>",
    "<tool_call>{\"name\": \"search\", \"arguments\": {\"q\": \"a\"}}</tool_call><tool_call>{\"name\": \"get_weather\", \"arguments\": {\"ci",
];

/// The calls (or the error's text) of a stream of `text` cut into `size`-byte chunks.
fn streamed(
    e: &Extractor,
    tools: &Tools,
    text: &str,
    size: usize,
) -> Result<Vec<ToolCall>, String> {
    let mut stream = e.stream_calls_with(tools);
    let mut got = Vec::new();
    for chunk in text.as_bytes().chunks(size) {
        got.extend(stream.push_bytes(chunk));
    }
    let rest = stream.finish().map_err(|e| e.to_string())?;
    got.extend(rest);
    Ok(got)
}

#[test]
fn streamed_calls_are_the_calls_read_whole() {
    let tools = tools();
    for e in [
        Extractor::new(),
        Extractor::new().tool_reply_begins_in_answer(),
    ] {
        for text in REPLIES {
            let whole = e.calls_with(&tools, text).map_err(|e| e.to_string());
            for size in [1, 7, 64] {
                assert_eq!(
                    streamed(&e, &tools, text, size),
                    whole,
                    "{text} in {size}-byte chunks"
                );
            }
        }
    }
    // And each call comes from the push that completes it.
    let mut stream = tools.stream().begins_in_answer();
    assert!(stream
        .push("<tool_call>{\"name\": \"search\", \"arguments\": {\"q\": \"x\"")
        .is_empty());
    assert_eq!(stream.push("}}</tool_call>")[0].name, "search");
    assert!(stream.finish().unwrap().is_empty());
}

#[test]
fn a_tool_list_that_cannot_be_read_is_an_error_saying_where() {
    let cases: Vec<(&str, Result<Tools, Error>, &str)> = vec![
        ("not a list", Tools::from_json(&json!("tools")), "at #:"),
        (
            "tools not an array",
            Tools::from_openai(&json!({"tools": {"name": "f"}})),
            "at #/tools:",
        ),
        (
            "unknown shape",
            Tools::from_json(&json!([{"name": "f", "schema": {}}])),
            "at #/0: not a tool of a known shape",
        ),
        (
            "no name",
            Tools::from_openai(
                &json!([{"type": "function", "function": {"parameters": {"type": "object"}}}]),
            ),
            "at #/0/function: the tool has no `name`",
        ),
        (
            "name not a string",
            Tools::from_anthropic(&json!([{"name": 3, "input_schema": {"type": "object"}}])),
            "at #/0/name: expected a string",
        ),
        (
            "name not a tool name",
            Tools::from_mcp(
                &json!({"tools": [{"name": "rm -rf", "inputSchema": {"type": "object"}}]}),
            ),
            "at #/tools/0/name: `rm -rf` cannot be read as a tool name",
        ),
        (
            "name given twice",
            Tools::from_anthropic(&json!([
                {"name": "f", "input_schema": {"type": "object"}},
                {"name": "f", "input_schema": {"type": "object"}}
            ])),
            "at #/1/name: the tool name `f` is given twice",
        ),
        (
            "no input schema",
            Tools::from_mcp(&json!({"tools": [{"name": "f"}]})),
            "at #/tools/0: the tool has no `inputSchema`",
        ),
        (
            "invalid schema keyword",
            Tools::from_openai(
                &json!([{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {"n": {"type": "integer", "minimum": "one"}}}}}]),
            ),
            "at #/0/function/parameters/properties/n/minimum:",
        ),
        (
            "dangling ref",
            Tools::from_anthropic(
                &json!([{"name": "f", "input_schema": {"type": "object", "properties": {"d": {"$ref": "#/$defs/Date"}}}}]),
            ),
            "at #/0/input_schema/properties/d/$ref:",
        ),
        (
            "arguments not an object",
            Tools::from_anthropic(&json!([{"name": "f", "input_schema": {"type": "string"}}])),
            "at #/0/input_schema/type: a tool's input schema describes the arguments, an object",
        ),
        (
            "built-in tool",
            Tools::from_openai(&json!([{"type": "web_search_preview"}])),
            "at #/0: a tool of type `web_search_preview` is the provider's own",
        ),
        (
            "gemini built-in tool",
            Tools::from_gemini(&json!([{"googleSearch": {}}])),
            "at #/0: a tool of type `googleSearch` is the provider's own",
        ),
        (
            "gemini declaration without a name",
            Tools::from_json(
                &json!({"tools": [{"functionDeclarations": [{"name": "f"}, {"parameters": {}}]}]}),
            ),
            "at #/tools/0/functionDeclarations/1: the tool has no `name`",
        ),
        (
            "anthropic server tool",
            Tools::from_anthropic(&json!([{"type": "web_search_20250305", "name": "web_search"}])),
            "at #/0: a tool of type `web_search_20250305` is the provider's own",
        ),
    ];
    for (what, result, want) in cases {
        let err = result.expect_err(what);
        assert_eq!(err.category(), Category::Other, "{what}: {err}");
        let message = err.to_string();
        assert!(
            message.starts_with("invalid tool list"),
            "{what}: {message}"
        );
        assert!(message.contains(want), "{what}: {message}");
    }
}

#[test]
fn a_function_without_parameters_takes_no_arguments() {
    let tools =
        Tools::from_openai(&json!([{"type": "function", "function": {"name": "now"}}])).unwrap();
    let calls = tools.calls("[now()]").unwrap();
    assert_eq!(calls[0].name, "now");
    assert!(calls[0].arguments.is_empty());
}

/// The tools of [`definitions`] as a derived enum: the typed face of the same list.
#[derive(Extract, Debug, PartialEq)]
#[extract(rename_all = "snake_case")]
enum Typed {
    /// The forecast for a city.
    GetWeather {
        city: String,
        #[extract(min = 1, max = 7)]
        days: Option<i64>,
        units: Option<Units>,
    },
    /// Search the web.
    Search { q: String, limit: Option<i64> },
}

#[derive(Extract, Debug, PartialEq)]
#[extract(rename_all = "snake_case")]
enum Units {
    Celsius,
    Fahrenheit,
}

/// A typed call as `(name, arguments)`, the arguments left out where `None` (a schema leaves
/// a missing optional property out).
fn as_json(call: Typed) -> (String, Value) {
    let mut arguments = serde_json::Map::new();
    let mut put = |k: &str, v: Option<Value>| {
        if let Some(v) = v {
            arguments.insert(k.to_string(), v);
        }
    };
    let name = match call {
        Typed::GetWeather { city, days, units } => {
            put("city", Some(json!(city)));
            put("days", days.map(Value::from));
            put(
                "units",
                units.map(|u| {
                    json!(if u == Units::Celsius {
                        "celsius"
                    } else {
                        "fahrenheit"
                    })
                }),
            );
            "get_weather"
        }
        Typed::Search { q, limit } => {
            put("q", Some(json!(q)));
            put("limit", limit.map(Value::from));
            "search"
        }
    };
    (name.to_string(), Value::Object(arguments))
}

#[test]
fn a_list_made_from_a_derived_enum_reads_as_the_enum_does() {
    let anthropic =
        Tools::from_anthropic(&tool::definitions::<Typed>(Provider::Anthropic)).unwrap();
    let gemini = Tools::from_gemini(&tool::definitions::<Typed>(Provider::Gemini)).unwrap();
    for tools in [&anthropic, &gemini] {
        assert_eq!(tools.names().collect::<Vec<_>>(), ["get_weather", "search"]);
        same_as_the_enum(tools);
    }
    // Where the list says more than the enum, the list decides: Anthropic's schemas are
    // closed (`additionalProperties: false`), the enum drops other keys.
    let extra = "[search(q='x', extra=1)]";
    assert_eq!(
        gemini.calls(extra).unwrap()[0].arguments_value(),
        json!({"q": "x"})
    );
    let err = anthropic.calls(extra).unwrap_err();
    assert_eq!(err.issues()[0].path.to_string(), "$.search.extra", "{err}");
}

fn same_as_the_enum(tools: &Tools) {
    let rm = "<tool_call>{\"name\": \"search\", \"arguments\": {\"q\": \"x\"}}</tool_call>";
    let rows: Vec<String> = REPLIES
        .iter()
        .map(|r| r.to_string())
        .chain([
            format!("I could use {rm} but will not."),
            format!("<!-- {rm} -->"),
            format!("Write `{rm}` to search."),
            format!("> {rm}\nNo."),
            format!("<think>{rm}</think>Nothing to do."),
            format!("Done.<|im_end|>\n<|im_start|>assistant\n{rm}"),
            "<tool_call>{\"name\": \"search\", \"arguments\": {\"q\": rust}}</tool_call>".into(),
            "[undo_search(q='x')]".into(),
            "[GetWeather(city='Paris', units='CELSIUS')]".into(),
            "[get_weather(city='Paris', units='kelvin')]".into(),
            "[get_weather(city=3, days='3')]".into(),
            "[get_weather(days=3)]".into(),
            "[search(q='x', limit='ten')]".into(),
            "[search(Q='x')]".into(),
            "<tool_call>{\"name\": \"search\", \"arguments\": \"{\\\"q\\\": \\\"x\\\"}\"}</tool_call>".into(),
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{\"q\": \"x\"}<|tool_call_end|><|tool_calls_section_end|>".into(),
        ])
        .collect();
    // The same calls, or errors about the same place: the first issue's path and position
    // (the wording of a choice's issues may differ: a schema's `anyOf` of an enum and `null`
    // against the derive's `Option` of an enum).
    let first = |e: &Error| {
        let issue = &e.issues()[0];
        (
            issue.path.to_string(),
            issue.position.map(|p| (p.line, p.column)),
        )
    };
    for text in &rows {
        let typed = tool::calls::<Typed>(text)
            .map(|calls| calls.into_iter().map(as_json).collect::<Vec<_>>())
            .map_err(|e| first(&e));
        let read = tools
            .calls(text)
            .map(|calls| {
                (calls.into_iter())
                    .map(|c| (c.name.clone(), c.arguments_value()))
                    .collect::<Vec<_>>()
            })
            .map_err(|e| first(&e));
        assert_eq!(read, typed, "{text}");
    }
    // Most errors are word for word the enum's.
    for text in [
        "[undo_search(q='x')]",
        "[get_weather(days=3)]",
        "[get_weather(city='P', days=9)]",
    ] {
        assert_eq!(
            tools.calls(text).unwrap_err().to_string(),
            tool::calls::<Typed>(text).unwrap_err().to_string(),
            "{text}"
        );
    }
}

#[test]
fn a_doubtful_call_and_a_call_that_does_not_fit_are_both_reported_whole_and_streamed() {
    // The first call is read only by guessing (a bare word as a value), the second misses a
    // required argument: the whole read and the stream name both, in text order.
    let text = "<tool_call>{\"name\": \"search\", \"arguments\": {\"q\": rust}}</tool_call>\n<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"days\": 2}}</tool_call>";
    let tools = tools();
    let whole = tools.calls(text).unwrap_err();
    let categories = |e: &Error| e.issues().iter().map(|i| i.category).collect::<Vec<_>>();
    assert_eq!(
        categories(&whole),
        [Category::Doubtful, Category::Missing],
        "{whole}"
    );
    assert_eq!(whole.category(), Category::Doubtful);
    for size in [1, 7, 64] {
        let mut stream = tools.stream();
        for chunk in text.as_bytes().chunks(size) {
            stream.push_bytes(chunk);
        }
        let streamed = stream.finish().unwrap_err();
        assert_eq!(categories(&streamed), categories(&whole), "{streamed}");
    }
    // The same for an enum of tools.
    let typed = tool::calls::<Typed>(text).unwrap_err();
    assert_eq!(categories(&typed), [Category::Doubtful, Category::Missing]);
}

#[test]
fn an_unknown_tool_is_pointed_at_where_its_call_is_whole_and_streamed() {
    let tools = tools();
    let text = "Calling it.\n<tool_call>{\"name\": \"search\", \"arguments\": {\"q\": \"x\"}}</tool_call>\n<tool_call>rm\n<arg_key>path</arg_key>\n<arg_value>/</arg_value>\n</tool_call>";
    let at = text.rfind("<tool_call>").unwrap();
    let whole = tools.calls(text).unwrap_err();
    let issue = &whole.issues()[0];
    assert!(
        issue.message.contains("there is no tool named `rm`"),
        "{whole}"
    );
    assert_eq!(issue.span.map(|s| s.start), Some(at), "{whole}");
    assert_eq!(issue.position.map(|p| (p.line, p.column)), Some((3, 1)));
    for size in [1, 7, 64] {
        let mut stream = tools.stream();
        for chunk in text.as_bytes().chunks(size) {
            stream.push_bytes(chunk);
        }
        let streamed = stream.finish().unwrap_err();
        assert_eq!(streamed.issues()[0].span, issue.span, "{size}: {streamed}");
    }
    // With a call cut off before it, both in text order, whole and streamed.
    let text = "<tool_call>x<tool_call>_y</tool_call>\n<tool_call>c\n<arg_key>a</arg_key><arg_value>1</arg_value></tool_call>";
    let whole = tools.calls(text).unwrap_err();
    let places = |e: &Error| {
        e.issues()
            .iter()
            .map(|i| (i.category, i.span))
            .collect::<Vec<_>>()
    };
    for size in [1, 7, 64] {
        let mut stream = tools.stream();
        for chunk in text.as_bytes().chunks(size) {
            stream.push_bytes(chunk);
        }
        assert_eq!(
            places(&stream.finish().unwrap_err()),
            places(&whole),
            "{size}: {whole}"
        );
    }
}
