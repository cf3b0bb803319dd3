//! JSON Schema and prompt renderings of an extraction type, from one definition (feature
//! `schema`).
//!
//! `#[derive(Extract)]` also implements [`schemars::JsonSchema`] when this feature is on, with
//! the canonical (renamed) names, doc comments as descriptions and the validation rules as
//! schema keywords. [`json_schema`] gives the schema to send as a response format,
//! [`json_schema_strict`] the variant that strict structured-output APIs accept, and
//! [`prompt_format`] a compact TypeScript-like rendering to put in a prompt. All three need
//! `T: JsonSchema` (not only `T: Extract`), which the derive provides.

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{json, Map, Value};

/// The JSON Schema (draft 2020-12) of `T`.
///
/// ```
/// #[derive(llm_extract::Extract)]
/// /// A product.
/// struct Item {
///     /// Price in cents.
///     #[extract(min = 1)]
///     price: u32,
///     note: Option<String>,
/// }
/// let schema = llm_extract::json_schema::<Item>();
/// let v = schema.as_value();
/// assert_eq!(v["description"], "A product.");
/// assert_eq!(v["properties"]["price"]["minimum"], 1);
/// assert_eq!(v["properties"]["price"]["description"], "Price in cents.");
/// assert_eq!(v["required"], serde_json::json!(["price"]));
/// ```
pub fn json_schema<T: JsonSchema>() -> Schema {
    SchemaGenerator::default().into_root_schema_for::<T>()
}

/// The schema of `T` in the form strict structured-output APIs require: every object has
/// `additionalProperties: false` and lists every property as required, optional properties
/// become nullable instead, `oneOf` becomes `anyOf`, and number formats that are not JSON
/// Schema formats (`uint8`, `double`, ...) are dropped.
///
/// ```
/// #[derive(llm_extract::Extract)]
/// struct Reply {
///     answer: String,
///     source: Option<String>,
/// }
/// let v = llm_extract::json_schema_strict::<Reply>().to_value();
/// assert_eq!(v["additionalProperties"], false);
/// assert_eq!(v["required"], serde_json::json!(["answer", "source"]));
/// assert_eq!(v["properties"]["source"]["type"], serde_json::json!(["string", "null"]));
/// ```
pub fn json_schema_strict<T: JsonSchema>() -> Schema {
    let mut value = json_schema::<T>().to_value();
    strict(&mut value, 0);
    Schema::try_from(value).unwrap_or_default()
}

/// Deep enough for any schema a type produces; deeper input is left as it is.
const MAX_DEPTH: usize = 64;

/// Every property of the object schema `obj` listed as required, the ones that were
/// optional made nullable (how strict modes write an optional field).
pub(crate) fn require_every_property(obj: &mut Map<String, Value>) {
    let required: Vec<String> = match obj.get("required") {
        Some(Value::Array(r)) => r
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    };
    let Some(Value::Object(props)) = obj.get_mut("properties") else {
        return;
    };
    for (name, prop) in props.iter_mut() {
        if !required.contains(name) {
            nullable(prop);
        }
    }
    let all: Vec<Value> = props.keys().map(|k| Value::String(k.clone())).collect();
    obj.insert("required".into(), Value::Array(all));
}

fn strict(value: &mut Value, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let Value::Object(obj) = value else { return };
    // schemars' integer formats (`uint8`, `int64`, `double`, ...) are not JSON Schema formats;
    // strict APIs reject formats they do not know.
    const FORMATS: [&str; 9] = [
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "uuid",
    ];
    if obj
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|f| !FORMATS.contains(&f))
    {
        obj.remove("format");
    }
    if let Some(one_of) = obj.remove("oneOf") {
        obj.insert("anyOf".into(), one_of);
    }
    if obj.get("properties").is_some_and(Value::is_object) {
        require_every_property(obj);
        obj.insert("additionalProperties".into(), Value::Bool(false));
    } else if obj.get("type") == Some(&json!("object")) && !obj.contains_key("additionalProperties")
    {
        obj.insert("additionalProperties".into(), Value::Bool(false));
    }
    for (key, child) in obj.iter_mut() {
        if key == "properties" || key == "$defs" {
            continue;
        }
        match child {
            Value::Object(_) => strict(child, depth + 1),
            Value::Array(items) => items.iter_mut().for_each(|i| strict(i, depth + 1)),
            _ => {}
        }
    }
    // `properties` and `$defs` hold schemas by name, one level further down.
    for key in ["properties", "$defs"] {
        if let Some(Value::Object(map)) = obj.get_mut(key) {
            for (_, child) in map.iter_mut() {
                strict(child, depth + 1);
            }
        }
    }
}

/// `schema` or `null`: `"type"` widened where there is one, else `anyOf` with null.
pub(crate) fn nullable(schema: &mut Value) {
    let Value::Object(obj) = schema else { return };
    match obj.get_mut("type") {
        Some(Value::String(t)) if t != "null" => {
            let t = t.clone();
            obj.insert("type".into(), json!([t, "null"]));
        }
        Some(Value::Array(types)) => {
            if !types.contains(&json!("null")) {
                types.push(json!("null"));
            }
        }
        _ => {
            let inner = Value::Object(std::mem::take(obj));
            obj.insert("anyOf".into(), json!([inner, {"type": "null"}]));
        }
    }
}

/// A compact, readable rendering of `T` for a prompt: TypeScript-like, descriptions as
/// comments, enum values listed, rules noted.
///
/// ```
/// #[derive(llm_extract::Extract)]
/// enum Sentiment { Positive, Negative }
///
/// #[derive(llm_extract::Extract)]
/// struct Review {
///     /// One sentence.
///     summary: String,
///     sentiment: Sentiment,
///     #[extract(min = 1, max = 5)]
///     stars: Option<u8>,
/// }
/// let text = llm_extract::prompt_format::<Review>();
/// assert_eq!(text, "{\n  // One sentence.\n  summary: string,\n  sentiment: \"Positive\" | \"Negative\",\n  stars?: integer | null, // minimum 1, maximum 5\n}");
/// ```
pub fn prompt_format<T: JsonSchema>() -> String {
    let value = json_schema::<T>().to_value();
    let defs = match value.get("$defs") {
        Some(Value::Object(d)) => d.clone(),
        _ => Map::new(),
    };
    let mut out = String::new();
    // The type's own doc comment, and its variants' when it is an enum, come first.
    if let Some(Value::String(d)) = value.get("description") {
        for line in d.lines() {
            out.push_str(&format!("// {line}\n"));
        }
    }
    for note in variant_notes(&value, &defs) {
        out.push_str(&format!("// {note}\n"));
    }
    let mut stack = Vec::new();
    render(&value, &defs, 0, &mut stack, &mut out);
    out
}

/// `"Name": description` for each documented variant of an enum schema (`oneOf` of
/// constants or of single-key objects), looking through `$ref` and `Option`'s `anyOf`.
fn variant_notes(schema: &Value, defs: &Map<String, Value>) -> Vec<String> {
    let resolve = |s: &'_ Value| -> Option<Value> {
        match s.get("$ref").and_then(Value::as_str) {
            Some(r) => defs.get(r.rsplit('/').next().unwrap_or(r)).cloned(),
            None => Some(s.clone()),
        }
    };
    let Some(schema) = resolve(schema) else {
        return Vec::new();
    };
    let mut notes = Vec::new();
    for key in ["oneOf", "anyOf"] {
        let Some(Value::Array(options)) = schema.get(key) else {
            continue;
        };
        for option in options {
            let Some(option) = resolve(option) else {
                continue;
            };
            if option.get("type") == Some(&json!("null")) {
                continue;
            }
            if option.get("const").is_none() && option.get("properties").is_none() {
                // `Option<Enum>`: the enum is one level further down.
                notes.extend(variant_notes(&option, defs));
                continue;
            }
            let Some(Value::String(d)) = option.get("description") else {
                continue;
            };
            let name = match (option.get("const"), option.get("properties")) {
                (Some(c), _) => c.to_string(),
                (None, Some(Value::Object(p))) if p.len() == 1 => {
                    p.keys().next().cloned().unwrap_or_default()
                }
                _ => continue,
            };
            notes.push(format!(
                "{name}: {}",
                d.lines().collect::<Vec<_>>().join(" ")
            ));
        }
    }
    notes
}

/// Renders one schema into `out`. `stack` holds the definitions being rendered, so a
/// recursive type prints its name where it refers to itself.
fn render(
    schema: &Value,
    defs: &Map<String, Value>,
    indent: usize,
    stack: &mut Vec<String>,
    out: &mut String,
) {
    let Value::Object(obj) = schema else {
        out.push_str(if schema == &Value::Bool(false) {
            "never"
        } else {
            "any"
        });
        return;
    };
    if stack.len() > MAX_DEPTH {
        out.push_str("any");
        return;
    }
    if let Some(Value::String(r)) = obj.get("$ref") {
        render_ref(r, defs, indent, stack, out);
        return;
    }
    if let Some(c) = obj.get("const") {
        out.push_str(&c.to_string());
        return;
    }
    if let Some(Value::Array(values)) = obj.get("enum") {
        let list: Vec<String> = values.iter().map(Value::to_string).collect();
        out.push_str(&list.join(" | "));
        return;
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(Value::Array(options)) = obj.get(key) {
            render_joined(options, " | ", defs, indent, stack, out);
            return;
        }
    }
    match obj.get("type") {
        Some(Value::Array(types)) => render_type_union(obj, types, defs, indent, stack, out),
        Some(Value::String(t)) => match t.as_str() {
            "object" => render_object(obj, defs, indent, stack, out),
            "array" => render_array(obj, defs, indent, stack, out),
            other => out.push_str(other),
        },
        _ => out.push_str("any"),
    }
}

/// A `$ref`: the definition rendered in place, or its name when it is already being rendered
/// (recursion) or is not in `defs`.
fn render_ref(
    reference: &str,
    defs: &Map<String, Value>,
    indent: usize,
    stack: &mut Vec<String>,
    out: &mut String,
) {
    let name = reference
        .rsplit('/')
        .next()
        .unwrap_or(reference)
        .to_string();
    match defs.get(&name) {
        Some(def) if !stack.contains(&name) => {
            stack.push(name);
            render(def, defs, indent, stack, out);
            stack.pop();
        }
        _ => out.push_str(&name),
    }
}

/// Each schema rendered, with `separator` between them.
fn render_joined(
    schemas: &[Value],
    separator: &str,
    defs: &Map<String, Value>,
    indent: usize,
    stack: &mut Vec<String>,
    out: &mut String,
) {
    for (i, schema) in schemas.iter().enumerate() {
        if i > 0 {
            out.push_str(separator);
        }
        render(schema, defs, indent, stack, out);
    }
}

/// `"type": [..]`: the same schema once per type, as a union.
fn render_type_union(
    obj: &Map<String, Value>,
    types: &[Value],
    defs: &Map<String, Value>,
    indent: usize,
    stack: &mut Vec<String>,
    out: &mut String,
) {
    let singles: Vec<Value> = types
        .iter()
        .map(|t| {
            let mut single = obj.clone();
            single.insert("type".into(), t.clone());
            Value::Object(single)
        })
        .collect();
    render_joined(&singles, " | ", defs, indent, stack, out);
}

/// An array: a tuple `[a, b]` when it has `prefixItems`, otherwise `item[]` (parenthesized
/// when the item is a union).
fn render_array(
    obj: &Map<String, Value>,
    defs: &Map<String, Value>,
    indent: usize,
    stack: &mut Vec<String>,
    out: &mut String,
) {
    if let Some(Value::Array(items)) = obj.get("prefixItems") {
        out.push('[');
        render_joined(items, ", ", defs, indent, stack, out);
        out.push(']');
        return;
    }
    let mut item = String::new();
    render(
        obj.get("items").unwrap_or(&Value::Bool(true)),
        defs,
        indent,
        stack,
        &mut item,
    );
    if item.contains(" | ") {
        out.push_str(&format!("({item})[]"));
    } else {
        out.push_str(&item);
        out.push_str("[]");
    }
}

fn render_object(
    obj: &Map<String, Value>,
    defs: &Map<String, Value>,
    indent: usize,
    stack: &mut Vec<String>,
    out: &mut String,
) {
    let props = match obj.get("properties") {
        Some(Value::Object(p)) if !p.is_empty() => p,
        _ => {
            match obj.get("additionalProperties") {
                Some(v @ Value::Object(_)) => {
                    out.push_str("{ [key: string]: ");
                    render(v, defs, indent, stack, out);
                    out.push_str(" }");
                }
                _ => out.push_str("object"),
            }
            return;
        }
    };
    let required: Vec<&str> = match obj.get("required") {
        Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let pad = "  ".repeat(indent + 1);
    out.push_str("{\n");
    for (name, prop) in props {
        if let Some(Value::String(d)) = prop.get("description") {
            for line in d.lines() {
                out.push_str(&format!("{pad}// {line}\n"));
            }
        }
        let key = if name.chars().all(|c| c.is_alphanumeric() || c == '_') && !name.is_empty() {
            name.clone()
        } else {
            format!("{name:?}")
        };
        let optional = if required.contains(&name.as_str()) {
            ""
        } else {
            "?"
        };
        out.push_str(&format!("{pad}{key}{optional}: "));
        render(prop, defs, indent + 1, stack, out);
        out.push(',');
        let notes = rule_notes(prop);
        if !notes.is_empty() {
            out.push_str(" // ");
            out.push_str(&notes.join(", "));
        }
        out.push('\n');
        for note in variant_notes(prop, defs) {
            out.push_str(&format!("{pad}//   {note}\n"));
        }
    }
    out.push_str(&"  ".repeat(indent));
    out.push('}');
}

fn rule_notes(prop: &Value) -> Vec<String> {
    const KEYWORDS: [(&str, &str); 9] = [
        ("minimum", "minimum"),
        ("maximum", "maximum"),
        ("minLength", "at least {} characters"),
        ("maxLength", "at most {} characters"),
        ("minItems", "at least {} items"),
        ("maxItems", "at most {} items"),
        ("minProperties", "at least {} entries"),
        ("maxProperties", "at most {} entries"),
        ("pattern", "matches {}"),
    ];
    let mut notes = Vec::new();
    for (key, words) in KEYWORDS {
        let Some(v) = prop.get(key) else { continue };
        let shown = match v {
            Value::Number(n) => match n.as_f64() {
                Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
                _ => n.to_string(),
            },
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        if words.contains("{}") {
            // English: `at least 1 item`, `at most 1 character`.
            let words = if shown == "1" {
                words
                    .replace("items", "item")
                    .replace("characters", "character")
                    .replace("entries", "entry")
            } else {
                words.to_string()
            };
            notes.push(words.replace("{}", &shown));
        } else {
            notes.push(format!("{words} {shown}"));
        }
    }
    notes
}

/// What the derive's `JsonSchema` impls call; not a public API.
#[doc(hidden)]
pub mod private {
    use super::*;
    use crate::validate::Allowed;

    pub use schemars::{JsonSchema, Schema, SchemaGenerator};
    pub use std::borrow::Cow;

    /// A field's validation rules, as schema keywords.
    #[derive(Debug, Default)]
    pub struct Rules {
        pub min: Option<f64>,
        pub max: Option<f64>,
        pub min_len: Option<u64>,
        pub max_len: Option<u64>,
        pub pattern: Option<&'static str>,
        pub one_of: &'static [Allowed],
        /// The value rules (`min`, `max`, `pattern`, `one_of`) are for each item of a list.
        pub each: bool,
    }

    /// A bound as JSON: whole numbers as integers (`1`, not `1.0`).
    fn number(n: f64) -> Value {
        if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
            json!(n as i64)
        } else {
            json!(n)
        }
    }

    fn as_map(schema: Schema) -> Map<String, Value> {
        match schema.to_value() {
            Value::Object(m) => m,
            Value::Bool(true) => Map::new(),
            _ => Map::from_iter([("not".to_string(), json!({}))]),
        }
    }

    /// The JSON types a schema admits, looking through `Option`'s `["t", "null"]`.
    fn types(map: &Map<String, Value>) -> Vec<String> {
        match map.get("type") {
            Some(Value::String(t)) => vec![t.clone()],
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(|t| t.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Adds a description and the rules' keywords to `schema`.
    pub fn annotate(schema: Schema, doc: Option<&str>, rules: &Rules) -> Schema {
        let mut map = as_map(schema);
        if let Some(d) = doc {
            map.insert("description".into(), d.into());
        }
        let types = types(&map);
        let has = |t: &str| types.iter().any(|x| x == t);
        for (len, [string, array, object]) in [
            (rules.min_len, ["minLength", "minItems", "minProperties"]),
            (rules.max_len, ["maxLength", "maxItems", "maxProperties"]),
        ] {
            let Some(n) = len else { continue };
            if has("string") {
                map.insert(string.into(), json!(n));
            }
            if has("array") {
                map.insert(array.into(), json!(n));
            }
            if has("object") {
                map.insert(object.into(), json!(n));
            }
        }
        match map.get_mut("items") {
            Some(Value::Object(items)) if rules.each => value_rules(items, rules),
            _ if rules.each => {}
            _ => value_rules(&mut map, rules),
        }
        Schema::from(map)
    }

    /// `minimum`, `maximum`, `pattern` and `enum` on `map`.
    fn value_rules(map: &mut Map<String, Value>, rules: &Rules) {
        if let Some(m) = rules.min {
            map.insert("minimum".into(), number(m));
        }
        if let Some(m) = rules.max {
            map.insert("maximum".into(), number(m));
        }
        if let Some(p) = rules.pattern {
            map.insert("pattern".into(), p.into());
        }
        if !rules.one_of.is_empty() {
            let values: Vec<Value> = rules
                .one_of
                .iter()
                .map(|a| match a {
                    Allowed::Str(s) => json!(s),
                    Allowed::Number(n) => number(*n),
                    Allowed::Bool(b) => json!(b),
                })
                .collect();
            map.insert("enum".into(), Value::Array(values));
        }
    }

    /// An object schema built property by property.
    pub struct Object {
        doc: Option<&'static str>,
        deny_unknown: bool,
        properties: Map<String, Value>,
        required: Vec<Value>,
        additional: Option<Value>,
    }

    impl Object {
        pub fn new(doc: Option<&'static str>, deny_unknown: bool) -> Object {
            Object {
                doc,
                deny_unknown,
                properties: Map::new(),
                required: Vec::new(),
                additional: None,
            }
        }

        pub fn property(
            &mut self,
            name: &str,
            schema: Schema,
            required: bool,
            doc: Option<&str>,
            rules: &Rules,
        ) {
            self.properties
                .insert(name.to_string(), annotate(schema, doc, rules).to_value());
            if required {
                self.required.push(name.into());
            }
        }

        /// The internal tag of an enum variant: a required constant, listed first.
        pub fn tag(&mut self, tag: &str, value: &str) {
            let mut props = Map::new();
            props.insert(tag.to_string(), json!({"type": "string", "const": value}));
            props.extend(std::mem::take(&mut self.properties));
            self.properties = props;
            self.required.insert(0, tag.into());
        }

        /// Merges a `flatten` field's (inline) object schema.
        pub fn flatten(&mut self, schema: Schema) {
            let map = as_map(schema);
            if let Some(Value::Object(props)) = map.get("properties") {
                self.properties.extend(props.clone());
            }
            if let Some(Value::Array(req)) = map.get("required") {
                self.required.extend(req.iter().cloned());
            }
            if let Some(extra) = map.get("additionalProperties") {
                self.additional = Some(extra.clone());
            }
        }

        pub fn build(self) -> Schema {
            let mut map = Map::new();
            map.insert("type".into(), "object".into());
            if let Some(d) = self.doc {
                map.insert("description".into(), d.into());
            }
            map.insert("properties".into(), Value::Object(self.properties));
            if !self.required.is_empty() {
                map.insert("required".into(), Value::Array(self.required));
            }
            if self.deny_unknown {
                map.insert("additionalProperties".into(), false.into());
            } else if let Some(extra) = self.additional {
                map.insert("additionalProperties".into(), extra);
            }
            Schema::from(map)
        }
    }

    /// Unit variants as strings: `enum`, or `oneOf` constants when some have descriptions.
    pub fn names(list: &[(&str, Option<&str>)], doc: Option<&str>) -> Schema {
        let mut map = Map::new();
        if list.iter().any(|(_, d)| d.is_some()) {
            let options: Vec<Value> = list
                .iter()
                .map(|(n, d)| match d {
                    Some(d) => json!({"type": "string", "const": n, "description": d}),
                    None => json!({"type": "string", "const": n}),
                })
                .collect();
            map.insert("oneOf".into(), Value::Array(options));
        } else {
            map.insert("type".into(), "string".into());
            map.insert("enum".into(), list.iter().map(|(n, _)| json!(n)).collect());
        }
        if let Some(d) = doc {
            map.insert("description".into(), d.into());
        }
        Schema::from(map)
    }

    /// An externally tagged data variant: `{"Name": content}`.
    pub fn single_key(name: &str, content: Schema, doc: Option<&str>) -> Schema {
        let mut map = Map::new();
        map.insert("type".into(), "object".into());
        if let Some(d) = doc {
            map.insert("description".into(), d.into());
        }
        map.insert("properties".into(), json!({ name: content.to_value() }));
        map.insert("required".into(), json!([name]));
        map.insert("additionalProperties".into(), false.into());
        Schema::from(map)
    }

    /// An adjacently tagged variant: `{"<tag>": "Name", "<content>": content}`, the content
    /// left out for a unit variant.
    pub fn adjacent(
        tag: &str,
        name: &str,
        content: &str,
        content_schema: Option<Schema>,
        doc: Option<&str>,
    ) -> Schema {
        let mut object = Object::new(None, true);
        if let Some(schema) = content_schema {
            object.property(content, schema, true, None, &Rules::default());
        }
        object.tag(tag, name);
        let mut map = as_map(object.build());
        if let Some(d) = doc {
            map.insert("description".into(), d.into());
        }
        Schema::from(map)
    }

    /// A fixed-length array.
    pub fn tuple(items: Vec<Schema>, doc: Option<&str>) -> Schema {
        let n = items.len();
        let mut map = Map::new();
        map.insert("type".into(), "array".into());
        if let Some(d) = doc {
            map.insert("description".into(), d.into());
        }
        map.insert(
            "prefixItems".into(),
            items.into_iter().map(Schema::to_value).collect(),
        );
        map.insert("minItems".into(), n.into());
        map.insert("maxItems".into(), n.into());
        Schema::from(map)
    }

    /// `null` (a unit struct, an untagged unit variant).
    pub fn null(doc: Option<&str>) -> Schema {
        let mut map = Map::new();
        map.insert("type".into(), "null".into());
        if let Some(d) = doc {
            map.insert("description".into(), d.into());
        }
        Schema::from(map)
    }

    /// Exactly one of the options (`oneOf`), or `anyOf` when several may fit (untagged).
    pub fn choice(options: Vec<Schema>, exclusive: bool, doc: Option<&str>) -> Schema {
        let mut map = Map::new();
        if let Some(d) = doc {
            map.insert("description".into(), d.into());
        }
        let key = if exclusive { "oneOf" } else { "anyOf" };
        map.insert(
            key.into(),
            options.into_iter().map(Schema::to_value).collect(),
        );
        Schema::from(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_makes_optionals_nullable_and_required() {
        let mut v = json!({
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"$ref": "#/$defs/B"}, "c": {"type": ["integer", "null"]}},
            "required": ["a"],
            "$defs": {"B": {"type": "object", "properties": {"x": {"type": "number"}}}},
        });
        strict(&mut v, 0);
        assert_eq!(v["required"], json!(["a", "b", "c"]));
        assert_eq!(v["additionalProperties"], json!(false));
        assert_eq!(
            v["properties"]["b"],
            json!({"anyOf": [{"$ref": "#/$defs/B"}, {"type": "null"}]})
        );
        assert_eq!(v["properties"]["c"]["type"], json!(["integer", "null"]));
        assert_eq!(v["$defs"]["B"]["required"], json!(["x"]));
        assert_eq!(
            v["$defs"]["B"]["properties"]["x"]["type"],
            json!(["number", "null"])
        );
    }
}
