//! Reads tool calls out of JSON values: the shapes of OpenAI, Anthropic, Cohere, Llama,
//! Hermes and `TOOL_CALL` marker bodies.

use crate::path::Segment;
use crate::report::Repair;
use crate::span::Span;
use serde_json::{Map, Value};

/// A call as read from the text, before it becomes a [`super::ToolCall`] or a user's type.
#[derive(Clone, Debug, Default)]
pub(crate) struct RawCall {
    pub name: String,
    pub id: Option<String>,
    pub arguments: Vec<(String, Arg)>,
    /// Where the arguments were written, to point an error in one of them into the reply.
    pub source: Source,
    /// For a call read from a JSON value ([`Source::Json`]): the path from the value's root
    /// to the call's own object (a call in a list of calls is one item of it).
    pub at: Vec<Segment>,
    /// The repairs made reading the call, placed in the reply (filled in by
    /// `source::repairs` once the call is found).
    pub repairs: Vec<Repair>,
    /// Part of the call was cut off though the value around it is whole (OpenAI arguments
    /// written as a JSON string that ends inside its value), or the call's format left it
    /// open (its closer never came).
    pub cut_off: bool,
}

/// Where a call's arguments were written in the reply.
#[derive(Clone, Debug, Default)]
pub(crate) enum Source {
    /// Not known (a call read from a value without positions).
    #[default]
    Unknown,
    /// In the JSON value at `value` (a span of the reply), under `path` from its root: the
    /// arguments object, or a JSON string holding it (OpenAI's `"arguments": "{...}"`).
    Json { value: Span, path: Vec<Segment> },
    /// Each argument's value at its own span (XML-like parameters, pythonic keywords).
    Each(Vec<(String, Span)>),
}

/// An argument value: JSON as written, or text from an XML-like format whose type the
/// target decides (`3` is a number for a `u8` parameter, the text `"3"` for a `String`).
#[derive(Clone, Debug)]
pub(crate) enum Arg {
    Json(Value),
    Text(String),
}

impl RawCall {
    pub fn json(name: String, id: Option<String>, arguments: Map<String, Value>) -> RawCall {
        RawCall {
            name,
            id,
            arguments: arguments
                .into_iter()
                .map(|(k, v)| (k, Arg::Json(v)))
                .collect(),
            ..RawCall::default()
        }
    }

    /// The same call, its arguments written at `source`.
    pub fn at(mut self, source: Source) -> RawCall {
        self.source = source;
        self
    }
}

/// Keys that name the tool, most specific first.
const NAME_KEYS: [&str; 5] = ["name", "tool_name", "tool", "function", "recipient_name"];
/// Keys that hold the arguments.
const ARGUMENT_KEYS: [&str; 6] = [
    "arguments",
    "parameters",
    "params",
    "args",
    "input",
    "tool_input",
];
/// Keys that hold the call's id.
const ID_KEYS: [&str; 3] = ["id", "tool_call_id", "call_id"];

/// How sure the text around a value is that it is a tool call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Context {
    /// Inside a tool-call marker: a name is enough, and without an arguments key the other
    /// keys are the arguments (`TOOL_CALL {"tool": "search", "query": "rust"}`).
    Marked,
    /// Found in prose: a name key alone is not a call (`{"name": "Ada"}` is data).
    Prose,
}

/// The calls `value` holds, in order, or why it holds none. Each call's source is
/// [`Source::Json`] with the path from `value`'s root to its arguments; [`placed`] says
/// where `value` is in the reply.
/// JSON written inside a string (OpenAI's arguments) may nest `max_depth` deep.
pub(crate) fn calls_in(
    value: &Value,
    context: Context,
    max_depth: usize,
) -> Result<Vec<RawCall>, String> {
    calls_at(value, Read { context, max_depth }, &mut Vec::new())
}

/// How the calls of one value are read.
#[derive(Clone, Copy)]
struct Read {
    context: Context,
    max_depth: usize,
}

/// [`calls_in`], with `value` at `path` below the root.
fn calls_at(value: &Value, read: Read, path: &mut Vec<Segment>) -> Result<Vec<RawCall>, String> {
    match value {
        Value::Array(items) => {
            let mut calls = Vec::new();
            let mut first_reason = None;
            for (i, item) in items.iter().enumerate() {
                path.push(Segment::Index(i));
                let found = calls_at(item, read, path);
                path.pop();
                match found {
                    Ok(found) => calls.extend(found),
                    // An item that names a tool and is not a call spoils the list: running
                    // the others would drop it in silence.
                    Err(why) if names_a_tool(item) => {
                        return Err(format!("item {i} of the list names a tool but {why}"))
                    }
                    Err(why) => {
                        first_reason.get_or_insert(why);
                    }
                }
            }
            if calls.is_empty() {
                return Err(match first_reason {
                    Some(why) if items.len() == 1 => why,
                    _ => "an array with no tool call in it".into(),
                });
            }
            Ok(calls)
        }
        Value::Object(obj) => object_calls(obj, read, path),
        other => Err(format!(
            "a {} is not a tool call (expected an object with a tool name and arguments)",
            json_type(other)
        )),
    }
}

/// Whether `item` is an object with a tool name written as a string and an arguments key.
fn names_a_tool(item: &Value) -> bool {
    let Value::Object(obj) = item else {
        return false;
    };
    let named = |o: &Map<String, Value>| {
        NAME_KEYS
            .iter()
            .any(|k| o.get(*k).is_some_and(Value::is_string))
            && ARGUMENT_KEYS.iter().any(|k| o.contains_key(*k))
    };
    named(obj)
        || ["function", "function_call"]
            .iter()
            .any(|k| matches!(obj.get(*k), Some(Value::Object(inner)) if named(inner)))
}

/// `path` with `key` added.
fn under(path: &[Segment], key: &str) -> Vec<Segment> {
    let mut p = path.to_vec();
    p.push(Segment::Key(key.to_string()));
    p
}

fn object_calls(
    obj: &Map<String, Value>,
    read: Read,
    path: &mut Vec<Segment>,
) -> Result<Vec<RawCall>, String> {
    // An OpenAI message or response: {"tool_calls": [...]}; an Anthropic message:
    // {"role": "assistant", "content": [blocks]}.
    for key in ["tool_calls", "content"] {
        if let Some(list @ Value::Array(_)) = obj.get(key) {
            path.push(Segment::Key(key.to_string()));
            let found = calls_at(list, read, path);
            path.pop();
            if let Ok(calls) = found {
                return Ok(calls);
            }
        }
    }
    let kind = obj.get("type").and_then(Value::as_str);
    if kind == Some("text") || kind == Some("thinking") {
        return Err(format!(
            "a {:?} content block, not a tool call",
            kind.unwrap_or_default()
        ));
    }
    let id = ID_KEYS
        .iter()
        .find_map(|k| obj.get(*k).and_then(Value::as_str))
        .map(str::to_string);
    // OpenAI: {"type": "function", "function": {"name", "arguments"}}; legacy `function_call`.
    for key in ["function", "function_call"] {
        if let Some(Value::Object(inner)) = obj.get(key) {
            let marked = Read {
                context: Context::Marked,
                ..read
            };
            let mut call = single(inner, marked, &under(path, key))?;
            call.id = call.id.or(id);
            call.at = path.clone();
            return Ok(vec![call]);
        }
    }
    let typed_call = matches!(
        kind,
        Some("tool_use" | "function" | "tool_call" | "function_call")
    );
    let context = if typed_call {
        Context::Marked
    } else {
        read.context
    };
    single(obj, Read { context, ..read }, path).map(|mut call| {
        call.id = call.id.or(id);
        call.at = path.clone();
        vec![call]
    })
}

/// One call from an object (at `path`) with a name key and an arguments key.
fn single(obj: &Map<String, Value>, read: Read, path: &[Segment]) -> Result<RawCall, String> {
    let Some((name_key, name)) = NAME_KEYS
        .iter()
        .find_map(|k| obj.get(*k).and_then(Value::as_str).map(|n| (*k, n)))
    else {
        return Err(format!(
            "an object without a tool name (no string under {})",
            list(&NAME_KEYS)
        ));
    };
    if name.trim().is_empty() {
        return Err(format!("the tool name under {name_key:?} is empty"));
    }
    let id = ID_KEYS
        .iter()
        .find_map(|k| obj.get(*k).and_then(Value::as_str))
        .map(str::to_string);
    let mut cut_off = false;
    let (arguments, args_path) = match ARGUMENT_KEYS
        .iter()
        .find_map(|k| obj.get(*k).map(|v| (*k, v)))
    {
        Some((key, value)) => {
            let (map, whole) = arguments(key, value, read.max_depth)?;
            cut_off = !whole;
            (map, under(path, key))
        }
        None if read.context == Context::Marked => (
            obj.iter()
                .filter(|(k, _)| {
                    *k != name_key && !ID_KEYS.contains(&k.as_str()) && k.as_str() != "type"
                })
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            path.to_vec(),
        ),
        None => {
            return Err(format!(
                "an object with a {name_key:?} but no arguments (none of {})",
                list(&ARGUMENT_KEYS)
            ))
        }
    };
    let source = Source::Json {
        value: Span::default(),
        path: args_path,
    };
    let mut call = RawCall::json(name.trim().to_string(), id, arguments).at(source);
    call.cut_off = cut_off;
    Ok(call)
}

/// The calls with the JSON value they came from placed at `value` in the reply.
pub(crate) fn placed(calls: Vec<RawCall>, value: Span) -> Vec<RawCall> {
    calls
        .into_iter()
        .map(|mut call| {
            if let Source::Json { value: v, .. } = &mut call.source {
                *v = value;
            }
            call
        })
        .collect()
}

/// The arguments map: an object, JSON written inside a string (OpenAI), or nothing; and
/// whether it is whole (`false`: a JSON string that ends inside its object, read as far as
/// it goes).
fn arguments(
    key: &str,
    value: &Value,
    max_depth: usize,
) -> Result<(Map<String, Value>, bool), String> {
    match value {
        Value::Object(map) => Ok((map.clone(), true)),
        Value::Null => Ok((Map::new(), true)),
        Value::String(s) if s.trim().is_empty() => Ok((Map::new(), true)),
        Value::String(s) => match crate::parse::parse(s.trim(), max_depth).map(|p| p.node) {
            Ok(node) => match node.to_value() {
                Value::Object(map) => Ok((map, node.is_complete_deep())),
                _ if !node.is_complete_deep() => Err(format!(
                    "the arguments under {key:?} are a JSON string that was cut off"
                )),
                other => Err(format!(
                    "the arguments under {key:?} are a string holding a {}, not an object",
                    json_type(&other)
                )),
            },
            Err(_) => Err(format!(
                "the arguments under {key:?} are a string that holds no JSON object"
            )),
        },
        other => Err(format!(
            "the arguments under {key:?} are a {}, not an object",
            json_type(other)
        )),
    }
}

fn list(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("{k:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(crate) fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn names(value: Value, context: Context) -> Vec<String> {
        calls_in(&value, context, 128)
            .unwrap()
            .into_iter()
            .map(|c| c.name)
            .collect()
    }

    #[test]
    fn every_json_shape_names_its_tool() {
        let rows = [
            json!({"name": "f", "arguments": "{\"a\": 1}"}),
            json!({"type": "function", "id": "call_1", "function": {"name": "f", "arguments": "{}"}}),
            json!({"tool_calls": [{"type": "function", "function": {"name": "f", "arguments": {}}}]}),
            json!([{"type": "text", "text": "Let me check."}, {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]),
            json!({"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}}),
            json!({"tool_name": "f", "parameters": {"a": 1}}),
            json!({"name": "f", "parameters": {"a": 1}}),
        ];
        for row in rows {
            assert_eq!(names(row.clone(), Context::Prose), vec!["f"], "{row}");
        }
    }

    #[test]
    fn data_with_a_name_is_not_a_call_in_prose() {
        let err = calls_in(&json!({"name": "Ada", "age": 36}), Context::Prose, 128).unwrap_err();
        assert!(err.contains("no arguments"), "{err}");
        // After an explicit marker, the other keys are the arguments.
        let calls = calls_in(
            &json!({"tool": "search", "query": "rust"}),
            Context::Marked,
            128,
        )
        .unwrap();
        assert!(matches!(&calls[0].arguments[0], (k, Arg::Json(v)) if k == "query" && v == "rust"));
    }

    #[test]
    fn arguments_in_a_string_that_was_cut_off_make_the_call_cut_off() {
        let calls = calls_in(
            &json!([
                {"name": "ls", "arguments": "{}"},
                {"name": "rm", "arguments": "{\"path\": \"/tm"}
            ]),
            Context::Prose,
            128,
        )
        .unwrap();
        assert_eq!(calls.len(), 2);
        assert!(!calls[0].cut_off);
        assert!(calls[1].cut_off, "{:?}", calls[1]);
        assert_eq!(calls[1].at, vec![Segment::Index(1)]);
    }
}
