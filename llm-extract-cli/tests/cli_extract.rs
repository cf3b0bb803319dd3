//! `llm-extract extract --schema FILE` and `--tools FILE` as a user runs them: a reply read
//! against a JSON Schema, or its tool calls against a tool list; errors as text or JSON, exit
//! status.

mod common;

use common::{run, stderr, stdout};
use serde_json::{json, Value};
use std::path::PathBuf;

/// `schema` written to a file of its own (named after the test, so tests run in parallel).
fn schema_file(name: &str, schema: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-extract");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.schema.json"));
    std::fs::write(&file, schema).unwrap();
    file
}

const PERSON: &str = r#"{
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "score": {"type": "number", "minimum": 0, "maximum": 1},
        "tags": {"type": "array", "items": {"type": "string"}}
    },
    "required": ["name", "score"]
}"#;

#[test]
fn a_messy_reply_is_read_to_the_schema() {
    let schema = schema_file("messy", PERSON);
    let reply = "Sure! ```json\n{'Name': 'Ada', score: '0.8', tags: 'math',}\n```";
    let o = run(&["extract", "--schema", schema.to_str().unwrap()], reply);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Key normalized, "0.8" coerced to a number, one tag read as an array of it.
    assert_eq!(
        stdout(&o),
        "{\"name\":\"Ada\",\"score\":0.8,\"tags\":[\"math\"]}\n"
    );
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));

    let o = run(
        &["extract", "--pretty", "--schema", schema.to_str().unwrap()],
        reply,
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "{\n  \"name\": \"Ada\",\n  \"score\": 0.8,\n  \"tags\": [\n    \"math\"\n  ]\n}\n"
    );
}

#[test]
fn reads_the_reply_from_a_file() {
    let schema = schema_file("from_file", PERSON);
    let reply = schema.with_file_name("from_file.reply.txt");
    std::fs::write(&reply, "Result: {\"name\": \"Bo\", \"score\": 1}").unwrap();
    let o = run(
        &[
            "extract",
            "--schema",
            schema.to_str().unwrap(),
            reply.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "{\"name\":\"Bo\",\"score\":1}\n");
}

#[test]
fn a_failing_reply_is_exit_1_with_the_issues_on_stderr() {
    let schema = schema_file("failing_text", PERSON);
    let o = run(
        &["extract", "--schema", schema.to_str().unwrap()],
        "{\"name\": \"Ada\",\n \"score\": 3}",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("llm-extract: $.score: "), "{err}");
    assert!(err.contains("maximum"), "{err}");
    assert!(err.trim_end().ends_with("at line 2 column 11"), "{err}");
}

#[test]
fn a_failing_reply_with_json_is_one_document_on_stdout() {
    let schema = schema_file("failing_json", PERSON);
    let o = run(
        &["extract", "--json", "--schema", schema.to_str().unwrap()],
        "{\"name\": 7,\n \"score\": 3}",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    let doc: Value = serde_json::from_str(&stdout(&o)).expect("stdout is one JSON document");
    let issues = doc["error"]["issues"].as_array().unwrap();
    let score = issues
        .iter()
        .find(|i| i["path"] == "$.score")
        .unwrap_or_else(|| panic!("{doc}"));
    assert_eq!(score["category"], "Validation", "{doc}");
    assert_eq!(
        (score["line"].clone(), score["column"].clone()),
        (json!(2), json!(11))
    );
    assert!(
        score["message"].as_str().unwrap().contains("maximum"),
        "{doc}"
    );
    assert!(
        issues.iter().all(|i| i["category"].is_string()
            && i["path"].is_string()
            && i["message"].is_string()),
        "{doc}"
    );
    assert!(doc["error"]["category"].is_string(), "{doc}");
}

#[test]
fn a_truncated_reply_is_incomplete() {
    let schema = schema_file("truncated", PERSON);
    let o = run(
        &["extract", "--json", "--schema", schema.to_str().unwrap()],
        "Here it is: {\"name\": \"Ada\", \"sco",
    );
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let doc: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(doc["error"]["category"], "Incomplete", "{doc}");
    assert_eq!(doc["error"]["issues"][0]["category"], "Incomplete", "{doc}");
}

#[test]
fn a_bad_schema_is_exit_2_naming_the_pointer() {
    let schema = schema_file(
        "bad",
        r##"{"type": "object", "properties": {"when": {"$ref": "#/$defs/Date"}}}"##,
    );
    let o = run(&["extract", "--schema", schema.to_str().unwrap()], "{}");
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    let err = stderr(&o);
    assert!(err.starts_with("llm-extract: schema "), "{err}");
    assert!(err.contains("#/properties/when/$ref"), "{err}");

    let not_json = schema_file("not_json", "{\"type\": \"object\",}");
    let o = run(&["extract", "--schema", not_json.to_str().unwrap()], "{}");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is not JSON"), "{}", stderr(&o));
    assert!(stderr(&o).contains("line 1 column"), "{}", stderr(&o));

    let missing = schema.with_file_name("no-such.schema.json");
    let o = run(&["extract", "--schema", missing.to_str().unwrap()], "{}");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read schema"), "{}", stderr(&o));
}

#[test]
fn unsupported_keywords_are_warned_about_on_stderr() {
    let schema = schema_file(
        "unsupported",
        r#"{"type": "object", "properties": {"n": {"type": "integer", "multipleOf": 5}}}"#,
    );
    let o = run(&["extract", "--schema", schema.to_str().unwrap()], "{n: 7}");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "{\"n\":7}\n");
    let err = stderr(&o);
    assert!(err.contains("warning"), "{err}");
    assert!(
        err.contains("`multipleOf` at #/properties/n/multipleOf"),
        "{err}"
    );
}

const WEATHER_TOOLS: &str = r#"{"model": "m", "tools": [{"type": "function", "function": {
    "name": "get_weather",
    "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer", "maximum": 7}},
        "required": ["city"]
    }
}}]}"#;

const QWEN_CALL: &str = "<tool_call>\n<function=get_weather>\n<parameter=city>\n3\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>";

#[test]
fn tool_calls_are_read_against_each_list_shape() {
    let anthropic = r#"[{"name": "get_weather", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}}}]"#;
    let mcp = r#"{"tools": [{"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}}}]}"#;
    for (name, list) in [
        ("openai", WEATHER_TOOLS),
        ("anthropic", anthropic),
        ("mcp", mcp),
    ] {
        let tools = schema_file(&format!("tools_{name}"), list);
        let o = run(&["extract", "--tools", tools.to_str().unwrap()], QWEN_CALL);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        // `3` a string where the schema says string, a number where it says integer.
        assert_eq!(
            stdout(&o),
            "[{\"name\":\"get_weather\",\"arguments\":{\"city\":\"3\",\"days\":3}}]\n",
            "{name}"
        );
        assert!(stderr(&o).is_empty(), "{name}: {}", stderr(&o));
    }
}

#[test]
fn tool_calls_keep_their_id_and_a_reply_without_one_is_an_empty_list() {
    let tools = schema_file("tools_id", WEATHER_TOOLS);
    let reply = r#"{"tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Oslo\"}"}}]}"#;
    let o = run(
        &["extract", "--pretty", "--tools", tools.to_str().unwrap()],
        reply,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let calls: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        calls,
        json!([{"name": "get_weather", "arguments": {"city": "Oslo"}, "id": "call_1"}])
    );
    let o = run(
        &["extract", "--tools", tools.to_str().unwrap()],
        "It is sunny in Oslo.",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "[]\n");
}

#[test]
fn a_tool_call_that_does_not_read_is_exit_1_as_text_or_json() {
    let tools = schema_file("tools_failing", WEATHER_TOOLS);
    let reply = "<tool_call>{\"name\": \"get_weather\",\n \"arguments\": {\"city\": \"Oslo\", \"days\": 30}}</tool_call>";
    let o = run(&["extract", "--tools", tools.to_str().unwrap()], reply);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.starts_with("llm-extract: $.get_weather.days: "),
        "{err}"
    );
    assert!(err.contains("maximum"), "{err}");
    assert!(err.trim_end().ends_with("at line 2 column 40"), "{err}");

    let o = run(
        &["extract", "--json", "--tools", tools.to_str().unwrap()],
        "[delete_file(path='/')]",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    let doc: Value = serde_json::from_str(&stdout(&o)).expect("stdout is one JSON document");
    let issue = &doc["error"]["issues"][0];
    assert_eq!(issue["category"], "Variant", "{doc}");
    assert!(
        issue["message"]
            .as_str()
            .unwrap()
            .contains("there is no tool named `delete_file`"),
        "{doc}"
    );
    assert_eq!(issue["expected"], "one of `get_weather`", "{doc}");

    // A call cut off is not run.
    let o = run(
        &["extract", "--json", "--tools", tools.to_str().unwrap()],
        "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Os",
    );
    assert_eq!(o.status.code(), Some(1));
    let doc: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(doc["error"]["category"], "Incomplete", "{doc}");
}

#[test]
fn a_bad_tool_list_is_exit_2_naming_the_pointer() {
    let tools = schema_file(
        "tools_bad",
        r#"[{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {"n": {"minimum": "x"}}}}}]"#,
    );
    let o = run(&["extract", "--tools", tools.to_str().unwrap()], "[f(n=1)]");
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    let err = stderr(&o);
    assert!(err.starts_with("llm-extract: tool list "), "{err}");
    assert!(
        err.contains("#/0/function/parameters/properties/n/minimum"),
        "{err}"
    );
    let not_json = schema_file("tools_not_json", "[");
    let o = run(&["extract", "--tools", not_json.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("tool list") && stderr(&o).contains("is not JSON"),
        "{}",
        stderr(&o)
    );
    // Neither or both of --schema and --tools: bad usage.
    let o = run(&["extract"], "{}");
    assert_eq!(o.status.code(), Some(2));
    let o = run(
        &[
            "extract",
            "--tools",
            tools.to_str().unwrap(),
            "--schema",
            tools.to_str().unwrap(),
        ],
        "{}",
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn unchecked_keywords_of_a_tool_schema_are_warned_about() {
    let tools = schema_file(
        "tools_unsupported",
        r#"[{"name": "f", "input_schema": {"type": "object", "properties": {"n": {"type": "integer", "multipleOf": 5}}}}]"#,
    );
    let o = run(&["extract", "--tools", tools.to_str().unwrap()], "[f(n=7)]");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "[{\"name\":\"f\",\"arguments\":{\"n\":7}}]\n");
    let err = stderr(&o);
    assert!(
        err.contains("warning") && err.contains("tool `f`: keyword `multipleOf`"),
        "{err}"
    );
}
