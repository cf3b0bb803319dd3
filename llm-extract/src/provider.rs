//! Schemas in the dialect each model API accepts (feature `schema`): OpenAI strict mode,
//! Anthropic, Gemini.
//!
//! One definition of a type gives the schema, the prompt format and the check; this module
//! rewrites the schema into what each provider accepts at request time, or says plainly why
//! it cannot (a free-form map cannot be strict; Gemini has no `$ref`, so a recursive type
//! cannot be written for it).

use crate::coerce::Extract;
use crate::error::{Category, Error};
use crate::schema::require_every_property;
use schemars::JsonSchema;
use serde_json::{json, Map, Value};

/// A model API whose schema dialect [`json_schema_for`] and [`crate::tool::definitions`]
/// write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Provider {
    /// OpenAI structured outputs and function calling with `strict: true`: every object
    /// closed (`additionalProperties: false`) with every property required (optional ones
    /// nullable), no `allOf`, `oneOf` written as `anyOf`, an object at the root.
    OpenAi,
    /// Anthropic tool `input_schema` and structured outputs: JSON Schema with an object at
    /// the root; objects closed.
    Anthropic,
    /// Gemini `responseSchema` and function declarations: the OpenAPI 3.0 subset. No `$ref`
    /// (definitions are inlined), no `const` (an `enum` of one), `nullable` instead of a
    /// `null` type, no `additionalProperties`, `prefixItems` or `oneOf`.
    Gemini,
}

impl Provider {
    fn name(self) -> &'static str {
        match self {
            Provider::OpenAi => "OpenAI",
            Provider::Anthropic => "Anthropic",
            Provider::Gemini => "Gemini",
        }
    }
}

/// The JSON Schema of `T` as `provider` accepts it for a response format, or an error saying
/// which part of `T` the provider cannot take and why.
///
/// ```
/// use llm_extract::{json_schema_for, Provider};
/// #[derive(llm_extract::Extract)]
/// struct Reply {
///     answer: String,
///     source: Option<String>,
/// }
/// let openai = json_schema_for::<Reply>(Provider::OpenAi).unwrap();
/// assert_eq!(openai["required"], serde_json::json!(["answer", "source"]));
/// assert_eq!(openai["additionalProperties"], false);
/// let gemini = json_schema_for::<Reply>(Provider::Gemini).unwrap();
/// assert_eq!(gemini["properties"]["source"], serde_json::json!({"type": "string", "nullable": true}));
///
/// // A free-form map cannot be made strict: an error, not a schema OpenAI would reject.
/// #[derive(llm_extract::Extract)]
/// struct Loose { extra: serde_json::Map<String, serde_json::Value> }
/// let err = json_schema_for::<Loose>(Provider::OpenAi).unwrap_err();
/// assert!(err.to_string().contains("$.properties.extra"), "{err}");
/// ```
pub fn json_schema_for<T: Extract + JsonSchema>(provider: Provider) -> Result<Value, Error> {
    let schema = crate::schema::json_schema::<T>().to_value();
    for_provider(schema, provider, true)
}

/// Rewrites a schema (with `$defs` at its root) for `provider`. With `root_object`, the root
/// must be an object schema.
pub(crate) fn for_provider(
    mut schema: Value,
    provider: Provider,
    root_object: bool,
) -> Result<Value, Error> {
    let defs = match schema.as_object_mut().and_then(|o| o.remove("$defs")) {
        Some(Value::Object(d)) => d,
        _ => Map::new(),
    };
    if let Some(obj) = schema.as_object_mut() {
        obj.remove("$schema");
    }
    let fail = |path: &str, why: String| {
        Error::single(
            Category::Type,
            format!(
                "{} cannot take this schema: at {path}, {why}",
                provider.name()
            ),
        )
    };
    // Gemini has no `$ref`: inline every definition (a recursive type cannot be written).
    // The others keep `$ref` where a type refers to itself, and get the definitions back.
    let mut stack = Vec::new();
    let (mut out, keep_defs) = match inline(&schema, &defs, &mut stack, 0) {
        Ok(v) => (v, false),
        Err(name) if provider == Provider::Gemini => {
            return Err(fail(
                "$",
                format!(
                "the type {name} contains itself, and Gemini schemas have no `$ref` to write that"
            ),
            ))
        }
        Err(_) => (schema, true),
    };
    let mut defs_out = defs;
    let root_is_object = out.get("type") == Some(&json!("object"));
    if root_object && !root_is_object {
        return Err(fail(
            "$",
            "the root must be an object schema; wrap the type in a struct with one field".into(),
        ));
    }
    rewrite(&mut out, provider, "$", 0).map_err(|(p, why)| fail(&p, why))?;
    if keep_defs {
        for (name, def) in defs_out.iter_mut() {
            rewrite(def, provider, &format!("$.$defs.{name}"), 0)
                .map_err(|(p, why)| fail(&p, why))?;
        }
        if let Some(obj) = out.as_object_mut() {
            obj.insert("$defs".into(), Value::Object(defs_out));
        }
    }
    Ok(out)
}

const MAX_DEPTH: usize = 64;

/// `schema` with every `$ref` to `#/$defs/X` replaced by the definition; `Err(X)` when `X`
/// contains itself.
fn inline(
    schema: &Value,
    defs: &Map<String, Value>,
    stack: &mut Vec<String>,
    depth: usize,
) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err("(nested too deeply)".into());
    }
    match schema {
        Value::Object(obj) => {
            if let Some(Value::String(r)) = obj.get("$ref") {
                if r == "#" {
                    // The root type inside itself.
                    return Err("(the root type)".into());
                }
                let name = r.rsplit('/').next().unwrap_or(r).to_string();
                if stack.contains(&format!("`{name}`")) {
                    return Err(format!("`{name}`"));
                }
                let Some(def) = defs.get(&name) else {
                    return Ok(schema.clone());
                };
                let name = format!("`{name}`");
                stack.push(name.clone());
                let mut inlined = inline(def, defs, stack, depth + 1)?;
                stack.pop();
                // Keys next to `$ref` (a field's description) win over the definition's.
                if let Value::Object(target) = &mut inlined {
                    for (k, v) in obj {
                        if k != "$ref" {
                            target.insert(k.clone(), v.clone());
                        }
                    }
                }
                return Ok(inlined);
            }
            let mut out = Map::new();
            for (k, v) in obj {
                out.insert(k.clone(), inline(v, defs, stack, depth + 1)?);
            }
            Ok(Value::Object(out))
        }
        Value::Array(items) => items
            .iter()
            .map(|i| inline(i, defs, stack, depth + 1))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        other => Ok(other.clone()),
    }
}

/// Keys whose value is one schema, a list of schemas, or a map of named schemas.
const SCHEMA_KEYS: [&str; 4] = ["items", "additionalProperties", "not", "contains"];
const SCHEMA_LISTS: [&str; 4] = ["anyOf", "oneOf", "allOf", "prefixItems"];

/// Why a schema cannot be written in a provider's dialect: the JSON path and the reason.
type Refusal = (String, String);

/// Applies `provider`'s rules to `schema` at JSON path `path`: `Err((path, why))` when the
/// schema cannot be written in the provider's dialect.
fn rewrite(
    schema: &mut Value,
    provider: Provider,
    path: &str,
    depth: usize,
) -> Result<(), Refusal> {
    if depth > MAX_DEPTH {
        return Err((path.into(), "the schema is nested too deeply".into()));
    }
    let obj = match schema {
        Value::Object(obj) if !obj.is_empty() => obj,
        Value::Object(_) | Value::Bool(true) => return Err((path.into(), ANY_VALUE.into())),
        _ => return Ok(()),
    };
    merge_single_all_of(obj, path)?;
    if let Some(one) = obj.remove("oneOf") {
        obj.insert("anyOf".into(), one);
    }
    if type_is(obj, "object") {
        close_object(obj, provider, path)?;
    }
    drop_unknown_format(obj);
    if provider == Provider::Gemini {
        gemini(obj, path)?;
    }
    rewrite_children(obj, provider, path, depth)
}

const ANY_VALUE: &str = "the value may be anything (`serde_json::Value` or the like), which a strict schema cannot describe; give it a concrete type";

/// A single-element `allOf` (how schemars attaches a description to a reference) merged
/// into `obj`; several are refused.
fn merge_single_all_of(obj: &mut Map<String, Value>, path: &str) -> Result<(), Refusal> {
    let Some(all) = obj.remove("allOf") else {
        return Ok(());
    };
    match all {
        Value::Array(mut items) if items.len() == 1 => {
            if let Some(Value::Object(inner)) = items.pop() {
                for (k, v) in inner {
                    obj.entry(k).or_insert(v);
                }
            }
            Ok(())
        }
        _ => Err((
            path.into(),
            "`allOf` with several schemas is not supported; flatten the fields into one struct"
                .into(),
        )),
    }
}

/// An object schema closed for `provider`: a free-form map is refused; for OpenAI every
/// property is required (the optional ones nullable); `additionalProperties: false` except
/// for Gemini, which has no such key.
fn close_object(
    obj: &mut Map<String, Value>,
    provider: Provider,
    path: &str,
) -> Result<(), Refusal> {
    let free = match obj.get("additionalProperties") {
        Some(Value::Bool(false)) => false,
        // An object without `properties` is a map (`{"type": "object"}`); one with an
        // empty `properties` is a struct without fields, which is fine closed.
        None | Some(Value::Bool(true)) => !obj.get("properties").is_some_and(Value::is_object),
        Some(_) => true,
    };
    if free {
        return Err((path.into(), format!(
            "a map with free-form keys (a HashMap, serde_json::Map or flattened map) cannot be made strict for {}; use a struct with named fields",
            provider.name()
        )));
    }
    if provider == Provider::OpenAi {
        require_every_property(obj);
    }
    match provider {
        Provider::Gemini => {
            obj.remove("additionalProperties");
        }
        _ => {
            obj.insert("additionalProperties".into(), Value::Bool(false));
        }
    }
    Ok(())
}

/// schemars' integer formats (`uint8`, `double`) are not JSON Schema formats: dropped.
fn drop_unknown_format(obj: &mut Map<String, Value>) {
    const FORMATS: [&str; 7] = [
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "uuid",
        "ipv4",
    ];
    if obj
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|f| !FORMATS.contains(&f))
    {
        obj.remove("format");
    }
}

/// [`rewrite`] applied to every sub-schema: properties, single schemas, lists of schemas.
fn rewrite_children(
    obj: &mut Map<String, Value>,
    provider: Provider,
    path: &str,
    depth: usize,
) -> Result<(), Refusal> {
    if let Some(Value::Object(props)) = obj.get_mut("properties") {
        for (name, prop) in props.iter_mut() {
            rewrite(
                prop,
                provider,
                &format!("{path}.properties.{name}"),
                depth + 1,
            )?;
        }
    }
    for key in SCHEMA_KEYS {
        if let Some(child @ Value::Object(_)) = obj.get_mut(key) {
            rewrite(child, provider, &format!("{path}.{key}"), depth + 1)?;
        }
    }
    for key in SCHEMA_LISTS {
        if let Some(Value::Array(items)) = obj.get_mut(key) {
            for (i, item) in items.iter_mut().enumerate() {
                rewrite(item, provider, &format!("{path}.{key}[{i}]"), depth + 1)?;
            }
        }
    }
    Ok(())
}

fn type_is(obj: &Map<String, Value>, t: &str) -> bool {
    match obj.get("type") {
        Some(Value::String(s)) => s == t,
        Some(Value::Array(ts)) => ts.iter().any(|x| x == t),
        _ => false,
    }
}

/// Gemini's OpenAPI subset: `nullable`, `enum` for `const`, no tuple arrays.
fn gemini(obj: &mut Map<String, Value>, path: &str) -> Result<(), Refusal> {
    if let Some(Value::Array(types)) = obj.get("type").cloned() {
        let non_null: Vec<&Value> = types.iter().filter(|t| *t != "null").collect();
        if non_null.len() == 1 {
            obj.insert("type".into(), non_null[0].clone());
            if non_null.len() < types.len() {
                obj.insert("nullable".into(), Value::Bool(true));
            }
        } else {
            return Err((
                path.into(),
                "a value of several JSON types; Gemini takes one type per schema".into(),
            ));
        }
    }
    // `anyOf: [X, {"type": "null"}]` (an optional reference) is X with `nullable`.
    if let Some(Value::Array(options)) = obj.get("anyOf").cloned() {
        let non_null: Vec<Value> = options
            .iter()
            .filter(|o| o.get("type") != Some(&json!("null")))
            .cloned()
            .collect();
        if non_null.len() == 1 && options.len() == 2 {
            obj.remove("anyOf");
            if let Value::Object(inner) = &non_null[0] {
                for (k, v) in inner {
                    obj.entry(k.clone()).or_insert(v.clone());
                }
            }
            obj.insert("nullable".into(), Value::Bool(true));
        }
    }
    if let Some(c) = obj.remove("const") {
        obj.insert("enum".into(), json!([c]));
        if !obj.contains_key("type") {
            obj.insert("type".into(), json!("string"));
        }
    }
    if obj.contains_key("prefixItems") {
        return Err((path.into(), "a tuple (fixed-length array of different types); Gemini has no `prefixItems`; use a struct".into()));
    }
    for key in [
        "$schema",
        "title",
        "$id",
        "minProperties",
        "maxProperties",
        "uniqueItems",
    ] {
        obj.remove(key);
    }
    Ok(())
}
