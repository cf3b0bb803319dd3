//! Tool calls read against a tool list known only at run time: [`Tools`].
//!
//! The list (OpenAI's `tools` array, Anthropic's, an MCP `tools/list` result) is compiled
//! once: each tool's input schema into a [`Schema`], the names into the variant names an
//! enum of tools matches. A call is then read as a derived enum of tools reads it
//! (`tool::calls`, `StreamCalls`): [`Call`] is that enum's face, its variant the tool the
//! call names (strictly, as `Context::expect_tool_name` asks) and its content the arguments
//! read by the tool's schema.

use super::compile::{self, Compiled};
use super::{intern, read, Schema};
use crate::coerce::tagged;
use crate::coerce::variants::{variant, EnumSpec};
use crate::coerce::{is_tool_name, Context, Extract, Failed, Node, NodeKind, VariantNames};
use crate::error::{Category, Error, Issue};
use crate::extractor::Extractor;
use crate::path::{Path, Segment};
use crate::span::Span;
use crate::tool::{StreamCalls, ToolCall};
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;

/// A tool list given at run time, each tool's input schema compiled once: reads tool calls
/// as an enum of tools derived with `#[derive(Extract)]` would, for tools known only when
/// the request arrives (a gateway, an agent framework, an MCP client).
///
/// ```
/// use llm_extract::tool::Tools;
/// use serde_json::json;
/// let request = json!({
///     "model": "gpt-4.1",
///     "tools": [{
///         "type": "function",
///         "function": {
///             "name": "get_weather",
///             "description": "The forecast for a city.",
///             "parameters": {
///                 "type": "object",
///                 "properties": {
///                     "city": {"type": "string"},
///                     "days": {"type": "integer", "minimum": 1, "maximum": 7}
///                 },
///                 "required": ["city"]
///             }
///         }
///     }]
/// });
/// let tools = Tools::from_openai(&request["tools"]).unwrap();
/// let reply = "<tool_call>\n<function=get_weather>\n<parameter=city>\n3\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>";
/// let calls = tools.calls(reply).unwrap();
/// assert_eq!(calls[0].name, "get_weather");
/// // `3` is a string where the schema says string, a number where it says integer.
/// assert_eq!(calls[0].arguments_value(), json!({"city": "3", "days": 3}));
///
/// let err = tools.calls(r#"<tool_call>{"name": "delete_file", "arguments": {}}</tool_call>"#).unwrap_err();
/// assert!(err.to_string().contains("there is no tool named `delete_file`"), "{err}");
/// assert!(err.to_string().contains("`get_weather`"), "{err}");
/// ```
///
/// # Reading
///
/// Every wire format the tool reader detects, whole ([`Tools::calls`]) and streamed
/// ([`Tools::stream`]), with the same rules as an enum of tools (see the
/// [module documentation](crate::tool)): a call cut off or read only by guessing is refused
/// unless the settings allow it, a mention is not a call, and the tool name matches a name
/// of the list exactly, after normalization (case, `_`, `-`, `.`), never by likeness. The
/// call returned carries the name as the list spells it.
///
/// The arguments are read by the tool's input schema as [`Schema`] reads a value (key
/// normalization, coercions, defaults, `enum` values) and checked by it (`minimum`,
/// `pattern`, `required`, ...). An error names the call, the tool and the argument's path
/// (`$.get_weather.days`), with its line and column in the reply, and
/// [`Error::feedback`](crate::Error::feedback) says it to the model.
///
/// # The lists it takes
///
/// - [`Tools::from_openai`]: Chat Completions' `{"type": "function", "function": {"name",
///   "description", "parameters"}}` and the Responses API's flat `{"type": "function",
///   "name", "description", "parameters"}` (`parameters` absent: no arguments).
/// - [`Tools::from_anthropic`]: `{"name", "description", "input_schema"}`.
/// - [`Tools::from_mcp`]: a `tools/list` result, `{"tools": [{"name", "description",
///   "inputSchema"}]}`.
/// - [`Tools::from_gemini`]: `[{"functionDeclarations": [{"name", "description",
///   "parameters"}]}]`.
/// - [`Tools::from_json`]: any of these, each tool read by the keys it has.
///
/// Each takes the array itself or an object holding it under `tools` (a whole request, an
/// MCP result). A list that cannot be read is an error (category
/// [`Category::Other`]) saying where, as a JSON pointer into the
/// value given (`#/tools/1/function/parameters/properties/days/minimum`): a tool without a
/// name, a name a call could not be written with, a name given twice, an input schema that
/// is not valid or does not describe an object, a provider's built-in tool (its calls are
/// not written as text). Keywords a schema has that the reader does not check are listed
/// by each tool's [`Schema::unsupported`].
#[derive(Clone)]
pub struct Tools {
    list: Arc<List>,
}

/// The tools, in the order given, and their names as an enum's variants.
struct List {
    tools: Vec<Tool>,
    names: &'static [VariantNames],
}

struct Tool {
    name: String,
    description: Option<String>,
    schema: Schema,
}

impl fmt::Debug for Tools {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

/// Which provider's keys a tool is written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dialect {
    OpenAi,
    Anthropic,
    Mcp,
    Gemini,
}

impl Dialect {
    fn name(self) -> &'static str {
        match self {
            Dialect::OpenAi => "an OpenAI function tool",
            Dialect::Anthropic => "an Anthropic tool",
            Dialect::Mcp => "an MCP tool",
            Dialect::Gemini => "a Gemini function declaration",
        }
    }

    /// The dialect whose keys `item` has, if any.
    fn of(item: &Value) -> Option<Dialect> {
        let map = item.as_object()?;
        if map.contains_key("function") || map.get("type") == Some(&Value::from("function")) {
            Some(Dialect::OpenAi)
        } else if map.contains_key("input_schema") {
            Some(Dialect::Anthropic)
        } else if map.contains_key("inputSchema") {
            Some(Dialect::Mcp)
        } else if declarations(map).is_some() {
            Some(Dialect::Gemini)
        } else {
            None
        }
    }
}

/// Where and why a tool list cannot be read.
struct Invalid {
    pointer: String,
    why: String,
}

fn invalid(pointer: impl Into<String>, why: impl Into<String>) -> Invalid {
    Invalid {
        pointer: pointer.into(),
        why: why.into(),
    }
}

impl Tools {
    /// The tools of an OpenAI request: see [`Tools`].
    ///
    /// ```
    /// use serde_json::json;
    /// // The Responses API writes a tool flat.
    /// let tools = llm_extract::tool::Tools::from_openai(&json!([
    ///     {"type": "function", "name": "search", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}
    /// ])).unwrap();
    /// assert_eq!(tools.names().collect::<Vec<_>>(), ["search"]);
    ///
    /// let err = llm_extract::tool::Tools::from_openai(&json!([{"type": "web_search"}])).unwrap_err();
    /// assert!(err.to_string().contains("#/0"), "{err}");
    /// ```
    pub fn from_openai(tools: &Value) -> Result<Tools, Error> {
        Tools::build(tools, Some(Dialect::OpenAi))
    }

    /// The tools of an Anthropic request (`{"name", "description", "input_schema"}`): see
    /// [`Tools`].
    ///
    /// ```
    /// use serde_json::json;
    /// let tools = llm_extract::tool::Tools::from_anthropic(&json!([{
    ///     "name": "search",
    ///     "description": "Search the web.",
    ///     "input_schema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    /// }])).unwrap();
    /// let calls = tools.calls(r#"{"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"q": "rust"}}"#).unwrap();
    /// assert_eq!(calls[0].id.as_deref(), Some("toolu_1"));
    /// assert_eq!(tools.description("search"), Some("Search the web."));
    /// ```
    pub fn from_anthropic(tools: &Value) -> Result<Tools, Error> {
        Tools::build(tools, Some(Dialect::Anthropic))
    }

    /// The tools of an MCP `tools/list` result (`{"tools": [{"name", "inputSchema", ..}]}`,
    /// or the array itself): see [`Tools`].
    ///
    /// ```
    /// use serde_json::json;
    /// let tools = llm_extract::tool::Tools::from_mcp(&json!({"tools": [{
    ///     "name": "read_file",
    ///     "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
    /// }]})).unwrap();
    /// let err = tools.calls("[read_file()]").unwrap_err();
    /// assert!(err.to_string().contains("missing field `path`"), "{err}");
    /// ```
    pub fn from_mcp(tools: &Value) -> Result<Tools, Error> {
        Tools::build(tools, Some(Dialect::Mcp))
    }

    /// The tools of a Gemini request: `[{"functionDeclarations": [{"name", "description",
    /// "parameters"}]}]` (also `function_declarations`, and `parametersJsonSchema`), as
    /// [`definitions`](crate::tool::definitions) writes them for
    /// [`Provider::Gemini`](crate::tool::Provider): see [`Tools`].
    ///
    /// ```
    /// use serde_json::json;
    /// let tools = llm_extract::tool::Tools::from_gemini(&json!([{"functionDeclarations": [
    ///     {"name": "search", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}
    /// ]}])).unwrap();
    /// assert_eq!(tools.calls("[search(q=1)]").unwrap()[0].arguments["q"], "1");
    /// ```
    pub fn from_gemini(tools: &Value) -> Result<Tools, Error> {
        Tools::build(tools, Some(Dialect::Gemini))
    }

    /// A tool list of any of the shapes [`Tools`] takes, each tool read by the keys it has
    /// (`function` or `"type": "function"`, `input_schema`, `inputSchema`,
    /// `functionDeclarations`).
    ///
    /// ```
    /// use serde_json::json;
    /// let tools = llm_extract::tool::Tools::from_json(&json!({"tools": [
    ///     {"name": "a", "input_schema": {"type": "object"}},
    ///     {"name": "b", "inputSchema": {"type": "object"}}
    /// ]})).unwrap();
    /// assert_eq!(tools.len(), 2);
    /// let err = llm_extract::tool::Tools::from_json(&json!([{"name": "c"}])).unwrap_err();
    /// assert!(err.to_string().contains("#/0"), "{err}");
    /// ```
    pub fn from_json(tools: &Value) -> Result<Tools, Error> {
        Tools::build(tools, None)
    }

    fn build(tools: &Value, dialect: Option<Dialect>) -> Result<Tools, Error> {
        let list = build_list(tools, dialect).map_err(|e| {
            let message = format!("invalid tool list at #{}: {}", e.pointer, e.why);
            Error::new(vec![Issue::new(Category::Other, Path::root(), message)])
        })?;
        Ok(Tools {
            list: Arc::new(list),
        })
    }

    /// The tools' names, in the order of the list.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.list.tools.iter().map(|t| t.name.as_str())
    }

    /// How many tools the list has.
    pub fn len(&self) -> usize {
        self.list.tools.len()
    }

    /// Whether the list has no tool (then every call is refused).
    pub fn is_empty(&self) -> bool {
        self.list.tools.is_empty()
    }

    /// The input schema of the tool named `name` (exactly), compiled.
    ///
    /// ```
    /// use serde_json::json;
    /// let tools = llm_extract::tool::Tools::from_anthropic(&json!([
    ///     {"name": "f", "input_schema": {"type": "object", "properties": {"n": {"type": "integer", "multipleOf": 2}}}}
    /// ])).unwrap();
    /// assert_eq!(tools.schema("f").unwrap().unsupported()[0].keyword, "multipleOf");
    /// assert!(tools.schema("g").is_none());
    /// ```
    pub fn schema(&self, name: &str) -> Option<&Schema> {
        self.tool(name).map(|t| &t.schema)
    }

    /// The description of the tool named `name` (exactly), when the list gives one.
    pub fn description(&self, name: &str) -> Option<&str> {
        self.tool(name).and_then(|t| t.description.as_deref())
    }

    fn tool(&self, name: &str) -> Option<&Tool> {
        self.list.tools.iter().find(|t| t.name == name)
    }

    /// Every tool call in `text`, each naming a tool of the list, its arguments read and
    /// checked by that tool's input schema: see [`Tools`] and [`Extractor::calls_with`].
    pub fn calls(&self, text: &str) -> Result<Vec<ToolCall>, Error> {
        crate::DEFAULT.calls_with(self, text)
    }

    /// A stream of the calls of a reply as it arrives, read against this list: see
    /// [`ToolsStream`] and [`Extractor::stream_calls_with`].
    pub fn stream(&self) -> ToolsStream {
        crate::DEFAULT.stream_calls_with(self)
    }

    /// Runs `read` with [`Call`] reading by this list.
    fn reading<R>(&self, read: impl FnOnce() -> R) -> R {
        let previous = TOOLS.with(|t| t.borrow_mut().replace(Arc::clone(&self.list)));
        let _restore = Restore(previous);
        read()
    }
}

/// The list a tool list value holds: the array itself, or the array under `tools`.
fn items(tools: &Value) -> Result<(&[Value], &'static str), Invalid> {
    match tools {
        Value::Array(items) => Ok((items, "")),
        Value::Object(map) => match map.get("tools") {
            Some(Value::Array(items)) => Ok((items, "/tools")),
            Some(_) => Err(invalid("/tools", "expected an array of tools")),
            None => Err(invalid(
                "",
                "expected an array of tools, or an object with one under `tools`",
            )),
        },
        _ => Err(invalid("", "expected an array of tools")),
    }
}

fn build_list(tools: &Value, dialect: Option<Dialect>) -> Result<List, Invalid> {
    let (items, prefix) = items(tools)?;
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(items.len());
    for (at, item, dialect) in entries(items, prefix, dialect)? {
        let tool = read_tool(item, dialect, &at)?;
        if !seen.insert(tool.name.clone()) {
            let why = format!("the tool name `{}` is given twice", tool.name);
            return Err(invalid(format!("{at}/name"), why));
        }
        out.push(tool);
    }
    let names: Vec<String> = out.iter().map(|t| t.name.clone()).collect();
    let names = intern::variants(&names).map_err(|_| {
        invalid(
            prefix,
            "the tool names exceed the memory set aside for schema names",
        )
    })?;
    Ok(List { tools: out, names })
}

/// Each tool of the list with where it is and the keys it is written with: Gemini's
/// declarations taken out of their `functionDeclarations` lists.
fn entries<'v>(
    items: &'v [Value],
    prefix: &str,
    dialect: Option<Dialect>,
) -> Result<Vec<(String, &'v Value, Dialect)>, Invalid> {
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = format!("{prefix}/{i}");
        let Some(dialect) = dialect.or_else(|| Dialect::of(item)) else {
            return Err(invalid(
                at,
                "not a tool of a known shape: no `function` or `\"type\": \"function\"` (OpenAI), `input_schema` (Anthropic), `inputSchema` (MCP) or `functionDeclarations` (Gemini)",
            ));
        };
        if dialect != Dialect::Gemini {
            out.push((at, item, dialect));
            continue;
        }
        let Some((key, list)) = item.as_object().and_then(declarations) else {
            return Err(match item.as_object() {
                Some(map) => built_in(map, &at, dialect),
                None => invalid(at, "expected an object with `functionDeclarations`"),
            });
        };
        let Value::Array(list) = list else {
            return Err(invalid(format!("{at}/{key}"), "expected an array"));
        };
        for (j, declaration) in list.iter().enumerate() {
            out.push((format!("{at}/{key}/{j}"), declaration, dialect));
        }
    }
    Ok(out)
}

/// A Gemini tool's declarations, and the key they are under.
fn declarations(map: &Map<String, Value>) -> Option<(&'static str, &Value)> {
    ["functionDeclarations", "function_declarations"]
        .into_iter()
        .find_map(|key| map.get(key).map(|list| (key, list)))
}

/// One tool of the list, at `at`, written with `dialect`'s keys.
fn read_tool(item: &Value, dialect: Dialect, at: &str) -> Result<Tool, Invalid> {
    let Some(map) = item.as_object() else {
        return Err(invalid(
            at,
            format!("expected {}, an object", dialect.name()),
        ));
    };
    // Where the name, description and schema are, and the schema's key.
    let (body, body_at, schema_key) = match dialect {
        Dialect::OpenAi => match map.get("function") {
            Some(Value::Object(function)) => (function, format!("{at}/function"), "parameters"),
            Some(_) => return Err(invalid(format!("{at}/function"), "expected an object")),
            None if map.get("type") == Some(&Value::from("function")) => {
                (map, at.to_string(), "parameters")
            }
            None => return Err(built_in(map, at, dialect)),
        },
        Dialect::Anthropic => (map, at.to_string(), "input_schema"),
        Dialect::Mcp => (map, at.to_string(), "inputSchema"),
        Dialect::Gemini if map.contains_key("parametersJsonSchema") => {
            (map, at.to_string(), "parametersJsonSchema")
        }
        Dialect::Gemini => (map, at.to_string(), "parameters"),
    };
    let name = match body.get("name") {
        Some(Value::String(name)) => name.clone(),
        Some(_) => return Err(invalid(format!("{body_at}/name"), "expected a string")),
        None => return Err(invalid(body_at, "the tool has no `name`")),
    };
    if !is_tool_name(&name) {
        let why = format!("`{name}` cannot be read as a tool name in a reply (letters, digits, `_`, `-` and `.`, at most 128 bytes)");
        return Err(invalid(format!("{body_at}/name"), why));
    }
    let description = match body.get("description") {
        Some(Value::String(d)) => Some(d.clone()),
        None | Some(Value::Null) => None,
        Some(_) => {
            return Err(invalid(
                format!("{body_at}/description"),
                "expected a string",
            ))
        }
    };
    let schema_at = format!("{body_at}/{schema_key}");
    let schema = match body.get(schema_key) {
        Some(schema) => input_schema(schema, &schema_at)?,
        // OpenAI and Gemini: a function without `parameters` takes none.
        None if matches!(dialect, Dialect::OpenAi | Dialect::Gemini) => {
            input_schema(&no_arguments(), &schema_at)?
        }
        None if dialect == Dialect::Anthropic && map.contains_key("type") => {
            return Err(built_in(map, at, dialect))
        }
        None => return Err(invalid(body_at, format!("the tool has no `{schema_key}`"))),
    };
    Ok(Tool {
        name,
        description,
        schema,
    })
}

/// The schema of a function that takes no arguments: an object with no properties (other
/// keys are dropped and reported, as a derived unit-like variant's are).
fn no_arguments() -> Value {
    let mut map = Map::new();
    map.insert("type".into(), "object".into());
    map.insert("properties".into(), Value::Object(Map::new()));
    Value::Object(map)
}

/// The error for a provider's built-in tool (web search, code execution, ...): the model
/// calls it through the provider, not by writing a call in its reply.
fn built_in(map: &Map<String, Value>, at: &str, dialect: Dialect) -> Invalid {
    let kind = (map.get("type").and_then(Value::as_str)).or_else(|| {
        (map.len() == 1)
            .then(|| map.keys().next().map(String::as_str))
            .flatten()
    });
    let why = match kind {
        Some(kind) => format!(
            "a tool of type `{kind}` is the provider's own, not {}: its calls are not written in the reply",
            dialect.name()
        ),
        None => format!("expected {}", dialect.name()),
    };
    invalid(at, why)
}

/// A tool's input schema at `at`, compiled: it must describe an object (the arguments).
fn input_schema(schema: &Value, at: &str) -> Result<Schema, Invalid> {
    let (compiled, unsupported) =
        compile::compile(schema).map_err(|e| invalid(format!("{at}{}", e.pointer), e.why))?;
    if !takes_object(&compiled) {
        return Err(invalid(
            format!("{at}/type"),
            "a tool's input schema describes the arguments, an object",
        ));
    }
    Ok(Schema {
        compiled: Arc::new(compiled),
        unsupported: unsupported.into(),
    })
}

/// Whether the root rule allows an object.
fn takes_object(compiled: &Compiled) -> bool {
    compiled.rules[compiled.root]
        .types
        .is_none_or(|bits| bits & compile::types::OBJECT != 0)
}

thread_local! {
    /// The list a [`Call`] reads by, set around each reading ([`Tools::reading`]).
    static TOOLS: RefCell<Option<Arc<List>>> = const { RefCell::new(None) };
}

/// Puts the previous list back when a reading ends, also by unwinding.
struct Restore(Option<Arc<List>>);

impl Drop for Restore {
    fn drop(&mut self) {
        let previous = self.0.take();
        TOOLS.with(|t| *t.borrow_mut() = previous);
    }
}

/// A call read by the list in force: the face of an enum of tools that the tool reader
/// (`tool::calls`, `StreamCalls`) reads as any `T`. It is shown `{name: arguments}` and
/// `{"name", "arguments", "id"}`, and reads both alike (the latter keeps the call's id).
pub(crate) struct Call(ToolCall);

/// A call shown as `{"name": .., "arguments": .., "id": ..}` (as `tool::typed` builds it):
/// the name, where it is, the arguments and the id.
fn adjacent<'n, 'a>(node: &'n Node<'a>) -> Option<(&'n str, Span, &'n Node<'a>, Option<String>)> {
    let NodeKind::Object(entries) = &node.kind else {
        return None;
    };
    let (name, arguments, id) = match entries.as_slice() {
        [name, arguments] => (name, arguments, None),
        [name, arguments, id] if id.key.text == "id" => (name, arguments, Some(&id.value)),
        _ => return None,
    };
    let NodeKind::String(text) = &name.value.kind else {
        return None;
    };
    if name.key.text != "name" || arguments.key.text != "arguments" {
        return None;
    }
    let id = match id.map(|n| &n.kind) {
        Some(NodeKind::String(id)) => Some(id.text.to_string()),
        _ => None,
    };
    Some((&text.text, name.value.span, &arguments.value, id))
}

impl Extract for Call {
    type Partial = crate::stream::NoPartial;

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Call, Failed> {
        let Some(list) = TOOLS.with(|t| t.borrow().clone()) else {
            return Err(cx.fail(Category::Other, "no tool list to read by", node.span));
        };
        let spec = EnumSpec {
            name: "the tool list",
            variants: list.names,
            other: None,
        };
        let (index, content, id) = match adjacent(node) {
            Some((name, span, arguments, id)) => {
                (variant(name, span, &spec, cx)?, Some(arguments), id)
            }
            None => {
                let tagged = tagged::external(node, &spec, cx)?;
                (tagged.index, tagged.content, None)
            }
        };
        let tool = &list.tools[index];
        // Only the name: no arguments.
        let empty = tagged::empty(node.span);
        let content = content.unwrap_or(&empty);
        let compiled = &tool.schema.compiled;
        let arguments = cx.at(Segment::Key(tool.name.clone()), |cx| {
            read::read(compiled, compiled.root, false, content, cx)
        })?;
        let Value::Object(arguments) = arguments else {
            return Err(cx.mismatch("the arguments, an object", content));
        };
        Ok(Call(ToolCall {
            name: tool.name.clone(),
            arguments,
            id,
        }))
    }
}

impl Extractor {
    /// Every tool call in `text` read against `tools`, with these settings (formats,
    /// whether calls cut off or doubtful are taken, where the reply begins, `max_payload`,
    /// `max_depth`): see [`Tools`].
    ///
    /// An error when a call names no tool of the list (the error lists the names), when its
    /// arguments do not fit the tool's input schema (each issue with its path and where it
    /// is in the reply), or when a call was cut off or doubtful and the settings do not
    /// allow it: a reply is never run in part.
    ///
    /// ```
    /// use serde_json::json;
    /// let tools = llm_extract::tool::Tools::from_openai(&json!([{"type": "function", "function": {
    ///     "name": "set_volume",
    ///     "parameters": {"type": "object", "properties": {"level": {"type": "integer", "maximum": 10}}, "required": ["level"]}
    /// }}])).unwrap();
    /// let e = llm_extract::Extractor::new();
    /// let err = e.calls_with(&tools, "[set_volume(level=11)]").unwrap_err();
    /// let issue = &err.issues()[0];
    /// assert_eq!(issue.path.to_string(), "$.set_volume.level");
    /// assert_eq!(issue.position.unwrap().column, 19);
    /// assert!(err.feedback().contains("level"));
    /// ```
    pub fn calls_with(&self, tools: &Tools, text: &str) -> Result<Vec<ToolCall>, Error> {
        let calls = tools.reading(|| self.calls::<Call>(text))?;
        Ok(calls.into_iter().map(|c| c.0).collect())
    }

    /// A [`ToolsStream`] over `tools` with these settings (as [`Extractor::stream_calls`]).
    pub fn stream_calls_with(&self, tools: &Tools) -> ToolsStream {
        ToolsStream {
            tools: tools.clone(),
            calls: self.stream_calls(),
        }
    }
}

/// The tool calls of a reply read against a [`Tools`] list as the reply arrives: a
/// [`StreamCalls`] over that list. Each call is yielded once, by the push that completes
/// it; over the whole stream these are the calls [`Tools::calls`] gives for the whole
/// reply, however it is cut into chunks.
///
/// ```
/// use serde_json::json;
/// let tools = llm_extract::tool::Tools::from_mcp(&json!({"tools": [{"name": "search",
///     "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}}}}]})).unwrap();
/// let mut stream = tools.stream().begins_in_answer();
/// assert!(stream.push("<tool_call>{\"name\": \"search\", \"arguments\": {\"q\": 42, ").is_empty());
/// let calls = stream.push("\"limit\": \"5\"}}</tool_call>");
/// assert_eq!(calls[0].arguments_value(), json!({"q": "42", "limit": 5}));
/// assert!(stream.finish().unwrap().is_empty());
/// ```
pub struct ToolsStream {
    tools: Tools,
    calls: StreamCalls<Call>,
}

impl fmt::Debug for ToolsStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolsStream")
            .field("tools", &self.tools)
            .field("calls", &self.calls)
            .finish()
    }
}

impl ToolsStream {
    /// The reply may begin inside reasoning opened by the prompt (the default): see
    /// [`StreamCalls::begins_in_reasoning`].
    pub fn begins_in_reasoning(mut self) -> ToolsStream {
        self.calls = self.calls.begins_in_reasoning();
        self
    }

    /// The reply begins in the answer: see [`StreamCalls::begins_in_answer`].
    pub fn begins_in_answer(mut self) -> ToolsStream {
        self.calls = self.calls.begins_in_answer();
        self
    }

    /// Adds `chunk` to the reply and returns the calls it completed, in order, each once. A
    /// call that does not fit the list is not returned; [`ToolsStream::finish`] reports it.
    pub fn push(&mut self, chunk: &str) -> Vec<ToolCall> {
        let calls = &mut self.calls;
        let read = self.tools.reading(|| calls.push(chunk));
        read.into_iter().map(|c| c.0).collect()
    }

    /// [`ToolsStream::push`] for bytes: a UTF-8 character split between chunks is kept
    /// until it is whole.
    pub fn push_bytes(&mut self, chunk: &[u8]) -> Vec<ToolCall> {
        let calls = &mut self.calls;
        let read = self.tools.reading(|| calls.push_bytes(chunk));
        read.into_iter().map(|c| c.0).collect()
    }

    /// The reply so far.
    pub fn text(&self) -> &str {
        self.calls.text()
    }

    /// The reply has ended: the calls only its end completes, or the error
    /// [`Tools::calls`] gives for the whole reply (a call cut off, doubtful, naming no tool
    /// of the list, or with arguments that do not fit).
    pub fn finish(self) -> Result<Vec<ToolCall>, Error> {
        let ToolsStream { tools, calls } = self;
        let read = tools.reading(|| calls.finish())?;
        Ok(read.into_iter().map(|c| c.0).collect())
    }
}
