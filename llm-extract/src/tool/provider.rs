//! The tool list of a model API, written from a user's enum of tools (feature `schema`).

use crate::coerce::Extract;
use crate::provider::{for_provider, Provider};
use schemars::JsonSchema;
use serde_json::{json, Map, Value};

/// The tool list to send to `provider`, one tool per variant of `T` (or one tool for a
/// struct): each tool's name, the variant's doc comment as its description, and its fields
/// as parameters in the provider's schema dialect.
///
/// Shapes: OpenAI `[{"type": "function", "function": {"name", "description", "parameters",
/// "strict": true}}]`, Anthropic `[{"name", "description", "input_schema"}]`, Gemini
/// `[{"functionDeclarations": [{"name", "description", "parameters"}]}]`.
///
/// A tool whose parameters cannot be made strict for OpenAI (a free-form map,
/// `serde_json::Value`) is written with `"strict": false` and its plain schema, which OpenAI
/// accepts; check `strict` if you rely on it. For Gemini such a tool is declared without
/// `parameters` (Gemini has no way to say "any object"), and so is a tool without fields.
/// Use [`crate::json_schema_for`] to get the reason as an error instead.
///
/// ```
/// use llm_extract::tool::{definitions, Provider};
/// #[derive(llm_extract::Extract)]
/// enum Tool {
///     /// Search the web.
///     Search { query: String },
///     /// The weather forecast for a city.
///     GetWeather { city: String, days: Option<u8> },
/// }
/// let openai = definitions::<Tool>(Provider::OpenAi);
/// assert_eq!(openai[1]["function"]["name"], "GetWeather");
/// assert_eq!(openai[1]["function"]["description"], "The weather forecast for a city.");
/// assert_eq!(openai[1]["function"]["parameters"]["required"], serde_json::json!(["city", "days"]));
/// assert_eq!(openai[1]["function"]["strict"], true);
/// let anthropic = definitions::<Tool>(Provider::Anthropic);
/// assert_eq!(anthropic[0]["input_schema"]["properties"]["query"]["type"], "string");
/// let gemini = definitions::<Tool>(Provider::Gemini);
/// assert_eq!(gemini[0]["functionDeclarations"][0]["name"], "Search");
/// ```
pub fn definitions<T: Extract + JsonSchema>(provider: Provider) -> Value {
    let schema = crate::schema::json_schema::<T>().to_value();
    let defs = schema.get("$defs").cloned().unwrap_or(Value::Null);
    let tools: Vec<Value> = tools_in(&schema, &defs)
        .into_iter()
        .map(|tool| render(tool, &defs, provider))
        .collect();
    match provider {
        Provider::Gemini => json!([{ "functionDeclarations": tools }]),
        _ => Value::Array(tools),
    }
}

/// One tool as found in the enum's schema.
struct Tool {
    name: String,
    description: Option<String>,
    parameters: Value,
}

fn resolve<'a>(schema: &'a Value, defs: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => defs
            .get(r.rsplit('/').next().unwrap_or(r))
            .unwrap_or(schema),
        None => schema,
    }
}

fn description(schema: &Value) -> Option<String> {
    schema
        .get("description")
        .and_then(Value::as_str)
        .map(str::to_string)
}

fn tools_in(schema: &Value, defs: &Value) -> Vec<Tool> {
    let schema = resolve(schema, defs);
    let options = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array);
    let Some(options) = options else {
        // Unit variants only: a string enum; or a struct: one tool.
        if let Some(names) = schema.get("enum").and_then(Value::as_array) {
            return names
                .iter()
                .filter_map(Value::as_str)
                .map(|n| empty_tool(n, None))
                .collect();
        }
        let name = schema
            .get("title")
            .and_then(Value::as_str)
            .unwrap_or("tool")
            .to_string();
        return vec![Tool {
            name,
            description: description(schema),
            parameters: schema.clone(),
        }];
    };
    let mut out = Vec::new();
    collect(options, defs, &mut out, 0);
    out
}

/// The tools in the options of an enum's `oneOf`; unit variants come as a nested `oneOf` of
/// constants (or an `enum`), data variants as objects.
fn collect(options: &[Value], defs: &Value, out: &mut Vec<Tool>, depth: usize) {
    for option in options {
        let option = resolve(option, defs);
        if let Some(nested) = option
            .get("oneOf")
            .or_else(|| option.get("anyOf"))
            .and_then(Value::as_array)
        {
            if depth < 4 {
                collect(nested, defs, out, depth + 1);
            }
            continue;
        }
        if let Some(c) = option.get("const").and_then(Value::as_str) {
            out.push(empty_tool(c, description(option)));
            continue;
        }
        if let Some(names) = option.get("enum").and_then(Value::as_array) {
            out.extend(
                names
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|n| empty_tool(n, description(option))),
            );
            continue;
        }
        let Some(props) = option.get("properties").and_then(Value::as_object) else {
            continue;
        };
        if let Some(tool) = tagged_tool(option, props, defs) {
            out.push(tool);
            continue;
        }
        // Externally tagged: {"Name": {...}}.
        if props.len() == 1 {
            if let Some((name, content)) = props.iter().next() {
                let description =
                    description(option).or_else(|| description(resolve(content, defs)));
                out.push(Tool {
                    name: name.clone(),
                    description,
                    parameters: content.clone(),
                });
            }
        }
    }
}

/// A variant tagged by a key of its own: the property whose value is a constant names the
/// tool. Adjacently (`{"name": "f", "arguments": {...}}`): the one other property holds the
/// parameters. Internally (`{"name": "f", "city": ..}`): the other properties are them.
fn tagged_tool(option: &Value, props: &Map<String, Value>, defs: &Value) -> Option<Tool> {
    let (tag_key, name) = props.iter().find_map(|(key, schema)| {
        let constant = schema.get("const").and_then(Value::as_str).or_else(|| {
            schema
                .get("enum")
                .and_then(Value::as_array)
                .filter(|e| e.len() == 1)
                .and_then(|e| e[0].as_str())
        });
        constant.map(|c| (key.clone(), c.to_string()))
    })?;
    let others: Vec<(&String, &Value)> = props.iter().filter(|(k, _)| **k != tag_key).collect();
    let parameters = match others.as_slice() {
        [] => json!({"type": "object", "properties": {}}),
        [(_, content)] if is_object_schema(resolve(content, defs)) => (*content).clone(),
        _ => {
            let mut internal = option.clone();
            if let Some(Value::Object(p)) = internal.get_mut("properties") {
                p.remove(&tag_key);
            }
            if let Some(Value::Array(r)) = internal.get_mut("required") {
                r.retain(|k| k.as_str() != Some(tag_key.as_str()));
            }
            internal
        }
    };
    Some(Tool {
        name,
        description: description(option),
        parameters,
    })
}

fn is_object_schema(schema: &Value) -> bool {
    schema.get("type") == Some(&json!("object")) || schema.get("properties").is_some()
}

fn empty_tool(name: &str, description: Option<String>) -> Tool {
    Tool {
        name: name.to_string(),
        description,
        parameters: json!({"type": "object", "properties": {}}),
    }
}

fn render(tool: Tool, defs: &Value, provider: Provider) -> Value {
    // The parameters with the enum's definitions, so `$ref`s inside still resolve.
    let mut parameters = tool.parameters;
    let refers = parameters.to_string().contains("\"$ref\"");
    if let (Value::Object(p), Value::Object(d)) = (&mut parameters, defs) {
        if refers && !d.is_empty() {
            p.insert("$defs".into(), Value::Object(d.clone()));
        }
    }
    let (params, strict) = match for_provider(parameters.clone(), provider, true) {
        Ok(p) => (p, true),
        Err(_) => (lenient(parameters), false),
    };
    let mut decl = Map::new();
    decl.insert("name".into(), json!(tool.name));
    if let Some(d) = tool.description {
        decl.insert("description".into(), json!(d));
    }
    match provider {
        Provider::OpenAi => {
            decl.insert("parameters".into(), params);
            decl.insert("strict".into(), json!(strict));
            json!({"type": "function", "function": Value::Object(decl)})
        }
        Provider::Anthropic => {
            decl.insert("input_schema".into(), params);
            Value::Object(decl)
        }
        Provider::Gemini => {
            // A function without parameters has none (Gemini refuses an empty object).
            let empty = params
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(Map::is_empty);
            if !empty && strict {
                decl.insert("parameters".into(), params);
            }
            Value::Object(decl)
        }
    }
}

/// The parameters as they are when they cannot be made strict, `$schema` dropped.
fn lenient(mut parameters: Value) -> Value {
    if let Value::Object(p) = &mut parameters {
        p.remove("$schema");
    }
    parameters
}
