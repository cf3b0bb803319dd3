//! Reading replies against a JSON Schema known only at run time: [`Schema`].
//!
//! A schema is compiled once into rules ([`compile`]) and each reply is read by them through
//! the same code a derived type's reading calls ([`read`]): the same candidates and choice
//! (`select.rs`), key matching, coercions, variant matching, untagged choice by cost,
//! defaults and validation. A reply that is strict JSON is read without a node tree
//! ([`direct`]), as a derived type's is, to the value the full path gives.

mod checks;
mod compile;
mod direct;
mod format;
mod intern;
mod item;
mod read;
mod stream;
mod tools;

use crate::error::{Category, Error, Issue};
use crate::extracted::Extracted;
use crate::extractor::Extractor;
use crate::path::Path;
use compile::Compiled;
use read::Dyn;
use serde_json::Value;
use std::fmt;
use std::sync::Arc;

pub use stream::{extract_partial_with, SalvagedValue, SchemaStream};
pub use tools::{Tools, ToolsStream};

/// A reader compiled from a JSON Schema: reads replies as a type derived with
/// `#[derive(Extract)]` would, for types known only at run time (a `response_format` a
/// user sent, a tool's input schema, a schema read from a file).
///
/// ```
/// use serde_json::json;
/// let schema = llm_extract::Schema::new(&json!({
///     "type": "object",
///     "properties": {
///         "name": {"type": "string"},
///         "score": {"type": "number", "minimum": 0, "maximum": 1},
///         "tags": {"type": "array", "items": {"type": "string"}}
///     },
///     "required": ["name", "score"]
/// })).unwrap();
/// let reply = "Sure! ```json\n{'Name': 'Ada', score: '0.8', tags: 'math'}\n```";
/// let value = llm_extract::from_str_with(&schema, reply).unwrap();
/// assert_eq!(value, json!({"name": "Ada", "score": 0.8, "tags": ["math"]}));
/// ```
///
/// Compile a schema once and reuse it: compiling checks every keyword and builds the rules
/// (and interns property names and enum values for the life of the process, within a fixed
/// budget); a `Schema` is cheap to clone and may be shared between threads.
///
/// # What it reads
///
/// - `type` (a name or a list; several types are read as the cheapest that fits),
///   `nullable` (OpenAPI 3.0), `enum` and `const` (a string value matched as a unit enum's
///   variant is: exactly, after normalization, in a sentence; messages call the enum by
///   its `title` or its name under `$defs`; a `type` beside them leaves out the values it
///   does not allow), `anyOf` and `oneOf` (every
///   option tried, the cheapest wins; a `type` beside them holds for each option that gives
///   no structure of its own, and `properties`, `required`, `additionalProperties`, `items`,
///   `prefixItems`, `enum` and `const` beside them hold in every option, as if each option
///   were the `allOf` of them and itself; a schema or `{"type": "null"}` is read as an `Option`
///   of it, so a value that fits neither fails as that schema's value), `allOf` (merged into one schema), `$ref` into the
///   schema itself (`#`, `#/$defs/Name`, any JSON pointer), recursive or not.
/// - Objects: `properties` matched to keys as a derived struct's fields are (exact,
///   normalized, alias, the object unwrapped from a lone wrapper key), `required` (a missing
///   property is an issue, also one no property declares, which then takes any value; a list
///   of required names makes a schema with no `type` an object's; a missing optional property
///   is left out of the value, not set to `null`), `default` (used for a missing property, and recorded), `additionalProperties`:
///   absent next to `properties`, other keys are dropped and reported as a derived struct
///   drops them; `false` makes each an issue; `true` or a schema keeps them (read by it); an
///   object schema without `properties` keeps every key. The extension keyword `x-aliases`
///   (an array of names) on a property schema gives the other keys it answers to.
/// - Arrays: `items`, `prefixItems` (the first items by position), one value where an array
///   belongs read as an array of it.
/// - Checks, with the messages of the derive's rules: `minimum`, `maximum`,
///   `exclusiveMinimum`, `exclusiveMaximum`, `minLength`, `maxLength`, `minItems`, `maxItems`,
///   `pattern` (the regex crate: linear time), `format` (`date-time`, `date`, `time`,
///   `email`, `uri`, `uuid` by shape; `int8` .. `uint64` as ranges; `float`, `double`).
/// - Annotations are read by people, not by the reader: `title`, `description`, `examples`,
///   `$comment`, `deprecated`, `readOnly`, `writeOnly`, `$schema`, `$id`.
///
/// Any other keyword (`not`, `if`, `patternProperties`, `uniqueItems`, `multipleOf`, ...),
/// or a `format` it does not know, is listed by [`Schema::unsupported`]: the reading does
/// not check it. A schema that is not valid (a keyword's value of the wrong kind, a `$ref`
/// to nothing, a `pattern` that does not compile, a `$ref` that leads back to itself
/// without reading deeper into the value) is an error saying where, as a JSON pointer.
///
/// A `pattern` is matched by the regex crate with JSON Schema's (ECMA-262's) classes: `\d`,
/// `\w` and `\b` are ASCII, and `[`, `&` and `~` inside a class are themselves; lookaround
/// and backreferences, which the regex crate does not have, make a schema invalid.
///
/// Keywords written beside a `$ref` hold with the schema it names (the two are read as an
/// `allOf`, the target taken in as a copy; copies beyond 16 MiB in all make the schema
/// invalid). Not yet as JSON Schema reads them: `minimum` and `maximum` compare as `f64`.
///
/// # What a schema cannot carry
///
/// A `Schema` built from [`json_schema::<T>()`](crate::json_schema) reads a reply to the
/// value `T` reads, serialized, except where `T`'s attributes say what no schema keyword
/// says:
/// - `alias` (unless written into the schema as `x-aliases`), `default` and
///   `default = path` (a schema's `default` is a value, the derive's a function), `catch`,
///   `with`, `validate = path`, `flatten` (the schema has the merged properties, but not
///   which of them a nested type takes), `other` on an enum variant, `skip`;
/// - how an enum is tagged: a `oneOf` of objects is read by trying each, where the derive
///   reads the tag first;
/// - `Option` fields that are missing: `T` serializes them as `null`, a `Schema` leaves
///   them out;
/// - a Rust number type's own range beyond what `format` says.
#[derive(Clone)]
pub struct Schema {
    compiled: Arc<Compiled>,
    unsupported: Arc<[Unsupported]>,
}

/// A keyword of a schema that the reader does not check (see [`Schema::unsupported`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Unsupported {
    /// Where it is, as a JSON pointer into the schema (`/properties/age/multipleOf`).
    pub pointer: String,
    /// The keyword.
    pub keyword: String,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "keyword `{}` at #{} is not checked",
            self.keyword, self.pointer
        )
    }
}

impl fmt::Debug for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Schema")
            .field("rules", &self.compiled.rules.len())
            .field("unsupported", &self.unsupported)
            .finish()
    }
}

impl Schema {
    /// Compiles `schema`: an error (category [`Category::Other`]) saying where it is invalid.
    ///
    /// ```
    /// use serde_json::json;
    /// let err = llm_extract::Schema::new(&json!({
    ///     "type": "object",
    ///     "properties": {"when": {"$ref": "#/$defs/Date"}}
    /// })).unwrap_err();
    /// assert!(err.to_string().contains("#/properties/when/$ref"), "{err}");
    ///
    /// let schema = llm_extract::Schema::new(&json!({"type": "integer", "multipleOf": 5})).unwrap();
    /// assert_eq!(schema.unsupported()[0].keyword, "multipleOf");
    /// ```
    pub fn new(schema: &Value) -> Result<Schema, Error> {
        let (compiled, unsupported) = compile::compile(schema).map_err(|e| {
            let message = format!("invalid schema at #{}: {}", e.pointer, e.why);
            Error::new(vec![Issue::new(Category::Other, Path::root(), message)])
        })?;
        Ok(Schema {
            compiled: Arc::new(compiled),
            unsupported: unsupported.into(),
        })
    }

    /// The keywords the reader does not check, each with where it is; empty when the
    /// reading checks everything the schema says.
    pub fn unsupported(&self) -> &[Unsupported] {
        &self.unsupported
    }

    /// Runs `read` with the schema's root rule in force for [`Dyn`].
    fn reading<R>(&self, read: impl FnOnce() -> R) -> R {
        read::with_rule(&self.compiled, self.compiled.root, false, read)
    }

    /// Whether the root takes any value (no type, no structure): then a reply with no
    /// JSON-like value is not read as text, as for a `serde_json::Value`.
    fn takes_anything(&self) -> bool {
        let root = &self.compiled.rules[self.compiled.root];
        root.types.is_none()
            && !root.nullable
            && matches!(root.shape, compile::Shape::Plain)
            && root.checks.is_empty()
    }
}

impl Extractor {
    /// The best value in `text` read against `schema`, with the report of repairs and
    /// coercions (as [`Extractor::extract`] for a derived type).
    ///
    /// ```
    /// use serde_json::json;
    /// let schema = llm_extract::Schema::new(&json!({
    ///     "type": "object",
    ///     "properties": {"mood": {"enum": ["happy", "sad"]}},
    ///     "required": ["mood"]
    /// })).unwrap();
    /// let out = llm_extract::Extractor::new().extract_with(&schema, "{mood: 'HAPPY'}").unwrap();
    /// assert_eq!(out.value, json!({"mood": "happy"}));
    /// assert!(!out.report.coercions.is_empty()); // the value was matched leniently
    /// ```
    pub fn extract_with(&self, schema: &Schema, text: &str) -> Result<Extracted<Value>, Error> {
        let out = if schema.takes_anything() {
            let out = schema.reading(|| self.extract::<Dyn<false>>(text))?;
            (out.value.0, out.report, out.thoughts)
        } else {
            let out = schema.reading(|| self.extract::<Dyn>(text))?;
            (out.value.0, out.report, out.thoughts)
        };
        let (value, report, thoughts) = out;
        Ok(Extracted {
            value,
            report,
            thoughts,
        })
    }

    /// The best value in `text` read against `schema`.
    ///
    /// ```
    /// use serde_json::json;
    /// let schema = llm_extract::Schema::new(&json!({"type": "array", "items": {"type": "integer"}})).unwrap();
    /// let e = llm_extract::Extractor::new();
    /// assert_eq!(e.from_str_with(&schema, "[1, '2', 3.0]").unwrap(), json!([1, 2, 3]));
    /// ```
    pub fn from_str_with(&self, schema: &Schema, text: &str) -> Result<Value, Error> {
        if schema.takes_anything() {
            return schema
                .reading(|| self.from_str::<Dyn<false>>(text))
                .map(|d| d.0);
        }
        schema.reading(|| self.from_str::<Dyn>(text)).map(|d| d.0)
    }

    /// Every value in `text` read against `schema`: the items of a JSON array of them, a
    /// single value, or several blocks (as [`Extractor::from_str_all`]).
    ///
    /// ```
    /// use serde_json::json;
    /// let schema = llm_extract::Schema::new(&json!({
    ///     "type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]
    /// })).unwrap();
    /// let e = llm_extract::Extractor::new();
    /// let all = e.from_str_all_with(&schema, "{\"id\": 1}\n{\"id\": 2}").unwrap();
    /// assert_eq!(all, vec![json!({"id": 1}), json!({"id": 2})]);
    /// ```
    pub fn from_str_all_with(&self, schema: &Schema, text: &str) -> Result<Vec<Value>, Error> {
        if schema.takes_anything() {
            let all = schema.reading(|| self.from_str_all::<Dyn<false>>(text))?;
            return Ok(all.into_iter().map(|d| d.0).collect());
        }
        let all = schema.reading(|| self.from_str_all::<Dyn>(text))?;
        Ok(all.into_iter().map(|d| d.0).collect())
    }
}

/// The best value in `text` read against `schema`, with the report: see [`Schema`] and
/// [`Extractor::extract_with`].
///
/// ```
/// use serde_json::json;
/// let schema = llm_extract::Schema::new(&json!({"type": "object", "properties": {"ok": {"type": "boolean"}}})).unwrap();
/// let out = llm_extract::extract_with(&schema, "Done: {ok: 'yes'}").unwrap();
/// assert_eq!(out.value, json!({"ok": true}));
/// ```
pub fn extract_with(schema: &Schema, text: &str) -> Result<Extracted<Value>, Error> {
    crate::DEFAULT.extract_with(schema, text)
}

/// The best value in `text` read against `schema`: see [`Schema`].
///
/// ```
/// use serde_json::json;
/// let schema = llm_extract::Schema::new(&json!({"type": "string", "enum": ["spam", "ham"]})).unwrap();
/// assert_eq!(llm_extract::from_str_with(&schema, "This one is SPAM.").unwrap(), json!("spam"));
/// ```
pub fn from_str_with(schema: &Schema, text: &str) -> Result<Value, Error> {
    crate::DEFAULT.from_str_with(schema, text)
}
