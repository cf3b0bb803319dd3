//! A reply read against a [`Schema`] while it arrives ([`SchemaStream`]), and the partial
//! value of a reply that does not read as a whole ([`Extractor::extract_partial_with`]).
//!
//! Both run the typed machinery with [`Dyn`] as the type (`Stream<Dyn>`, `extract_partial`),
//! whose partial is the growing JSON tree ([`PartialJson`]); what a snapshot shows is that
//! tree seen through the schema ([`shown`]): keys matched to the properties as the struct
//! reader matches them, complete values read by their rule, strings shown as they grow only
//! where the rule takes a string and nothing else, anything undecided left out.

use super::compile::{types, Additional, Compiled, Object, Shape};
use super::read::{self, Dyn};
use super::Schema;
use crate::coerce::keys::{best_field, Rank};
use crate::coerce::{Context, Node};
use crate::error::{Error, Issue};
use crate::extracted::Extracted;
use crate::extractor::Extractor;
use crate::path::Path;
use crate::stream::{
    Event, Feed, FieldState, PartialJson, PartialString, PartialValue, Step, Stream,
};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

/// A reply read against a [`Schema`] as it arrives: [`Stream`] for a type known at run time.
/// Each [`SchemaStream::snapshot`] is the value so far as a `serde_json::Value`, a prefix of
/// the value [`SchemaStream::finish`] reads; [`SchemaStream::state`] says where each
/// property stands.
///
/// ```
/// use llm_extract::{stream::FieldState, Schema};
/// use serde_json::json;
/// let schema = Schema::new(&json!({
///     "type": "object",
///     "properties": {
///         "title": {"type": "string"},
///         "year": {"type": "integer"},
///         "tags": {"type": "array", "items": {"type": "string"}}
///     },
///     "required": ["title", "year"]
/// })).unwrap();
/// let mut stream = llm_extract::Extractor::new().stream_with(&schema);
/// stream.push("```json\n{\"Title\": \"Dune\", \"year\": \"19");
/// assert_eq!(stream.snapshot(), json!({"title": "Dune"})); // `"19` may go on
/// assert_eq!(stream.state("title"), FieldState::Complete);
/// assert_eq!(stream.state("year"), FieldState::Incomplete);
/// stream.push("65\", \"tags\": [\"sf\", \"cla");
/// // `"19` is now `"1965"`, read as the integer it says; an array's string shows once closed.
/// assert_eq!(stream.snapshot(), json!({"title": "Dune", "year": 1965, "tags": ["sf"]}));
/// stream.push("ssic\"]}\n```");
/// let done = stream.finish().unwrap();
/// assert_eq!(done.value, json!({"title": "Dune", "year": 1965, "tags": ["sf", "classic"]}));
/// ```
///
/// What a snapshot shows, by the schema: an object's properties under the names the schema
/// gives them (keys matched as [`Schema`] matches them; keys the schema drops are not shown);
/// strings as they grow where the property is a string and nothing else (as a typed
/// stream shows them: an array's string item once it closes; a nullable string, which reads
/// a placeholder such as `N/A` as `null`, once more text cannot make it one); numbers, booleans,
/// `enum` values, `anyOf`/`oneOf` choices and values of a type other than the one written
/// once complete, read by their schema (`"19"` shows as `19` once its closing quote
/// arrives); array items in order, the last while it grows. A snapshot is a copy: it costs
/// the size of the value so far, so take one when you need it, not on every chunk of a long
/// reply. Issues of complete strings and scalars (a check they fail, a type they do not fit)
/// are in [`SchemaStream::issues`] as they arrive, as for a typed [`Stream`]; those of whole
/// objects and arrays (a missing required property, `minItems`) come with `finish`.
pub struct SchemaStream {
    schema: Schema,
    inner: Inner,
    keys: KeyFields,
}

/// The property each key of an object read so far lands on, by object: matching a key (by
/// name, alias or another spelling, `best_field`) weighs every property, and a snapshot shows
/// every key so far, so each is matched once, not once per snapshot (a reply of 2,000 keys
/// against 256 properties, a snapshot every 16 bytes, took 26 s).
#[derive(Default)]
struct KeyFields(Mutex<HashMap<usize, HashMap<String, KeyField>>>);

/// The property a key lands on and how well it matched, or `None`.
type KeyField = Option<(usize, Rank)>;

impl KeyFields {
    /// The property of `object` that `key` lands on, and how well it matched (`best_field`'s
    /// answer).
    fn field(&self, object: &Object, key: &str) -> Option<(usize, Rank)> {
        // The object's place in the compiled schema, which the stream holds: its identity.
        let id = std::ptr::from_ref(object) as usize;
        let mut known = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let of_object = known.entry(id).or_default();
        if let Some(&field) = of_object.get(key) {
            return field;
        }
        let field = best_field(object.spec.fields, key);
        of_object.insert(key.to_string(), field);
        field
    }
}

/// The stream, by whether the root reads prose (see [`Schema::takes_anything`]).
enum Inner {
    Prose(Stream<Dyn<true>>),
    Json(Stream<Dyn<false>>),
}

/// Runs `$body` on the typed stream, whichever it is.
macro_rules! each {
    ($inner:expr, $s:ident => $body:expr) => {
        match $inner {
            Inner::Prose($s) => $body,
            Inner::Json($s) => $body,
        }
    };
}

impl fmt::Debug for SchemaStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SchemaStream")
            .field("schema", &self.schema)
            .field("text", &self.text().len())
            .finish_non_exhaustive()
    }
}

/// One step of [`PartialDyn::open`], owned.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Seg {
    Key(String),
    Index(usize),
}

impl Seg {
    fn is(&self, step: &Step<'_>) -> bool {
        match (self, step) {
            (Seg::Key(a), Step::Key(b)) => a == b,
            (Seg::Index(a), Step::Index(b)) => a == b,
            _ => false,
        }
    }
}

/// The partial of a value read against a schema ([`Dyn`]'s): the growing JSON tree, and where
/// the reader is in it. JSON is written in order, so every value is complete except those on
/// the path from the root to the value being read (`open`): a string whose closing quote
/// has not come, and the containers around it. That path is all a snapshot needs to know
/// which parts it may read as complete (`"1965"` as an integer, `"HIST"` not yet as an enum
/// value).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct PartialDyn {
    json: Option<PartialJson>,
    /// The path to the value being read; `None` once the root is complete.
    open: Option<Vec<Seg>>,
}

impl Serialize for PartialDyn {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(serializer)
    }
}

impl PartialDyn {
    /// The value so far, read through the schema.
    fn shown(&self, compiled: &Arc<Compiled>, keys: &KeyFields) -> Option<Value> {
        let json = self.json.as_ref()?;
        let at = Shown { compiled, keys };
        at.shown(compiled.root, json, self.open.as_deref())
    }

    /// Notes where the reader is after `event` at `at`.
    fn follow(&mut self, at: &[Step<'_>], event: &Event<'_>) {
        let inside = match event {
            Event::Open(_) | Event::Grow(_) => at,
            Event::Value(_) | Event::Close => match at.split_last() {
                Some((_, parent)) => parent,
                None => {
                    self.open = None;
                    return;
                }
            },
        };
        let same = self.open.as_ref().is_some_and(|open| {
            open.len() == inside.len() && open.iter().zip(inside).all(|(a, b)| a.is(b))
        });
        if !same {
            let path = inside.iter().map(|step| match step {
                Step::Key(k) => Seg::Key((*k).to_string()),
                Step::Index(i) => Seg::Index(*i),
            });
            self.open = Some(path.collect());
        }
    }
}

impl PartialValue for PartialDyn {
    fn apply(
        slot: &mut Option<Self>,
        at: &[Step<'_>],
        event: &Event<'_>,
        feed: &mut Feed<'_>,
    ) -> bool {
        let this = slot.get_or_insert_with(PartialDyn::default);
        let changed = Self::apply_in(this, at, event, feed);
        if this.json.is_none() {
            *slot = None;
        }
        changed
    }

    fn apply_in(this: &mut Self, at: &[Step<'_>], event: &Event<'_>, feed: &mut Feed<'_>) -> bool {
        this.follow(at, event);
        if let Event::Value(_) = event {
            check(at, event, feed);
        }
        match &mut this.json {
            Some(json) => PartialJson::apply_in(json, at, event, feed),
            None => PartialJson::apply(&mut this.json, at, event, feed),
        }
    }
}

/// Reads the complete scalar or string of `event` at `at` by its rule, so that its issues
/// (a check it fails, a type it does not fit) are in the stream's issues, once, with their
/// path and position. Objects and arrays are checked as a whole by `finish`.
fn check(at: &[Step<'_>], event: &Event<'_>, feed: &mut Feed<'_>) {
    let Some((compiled, root)) = read::current() else {
        return;
    };
    if let Some(rule) = rule_at(&compiled, root, at) {
        read::with_rule(&compiled, rule, false, || feed.read::<Dyn>(event));
    }
}

/// The rule of the value at `at` below a value read by `rule`: properties by key as the
/// struct reader matches them, items by position; `None` where the schema drops the value or
/// says nothing of its parts.
fn rule_at(compiled: &Compiled, mut rule: usize, at: &[Step<'_>]) -> Option<usize> {
    for step in at {
        rule = match (&compiled.rules[resolved(compiled, rule)].shape, step) {
            (Shape::Object(object), Step::Key(key)) => match best_field(object.spec.fields, key) {
                Some((field, _)) => object.props[field].rule,
                None => match object.additional {
                    Additional::Kept(rule) => rule,
                    Additional::Ignored | Additional::Denied => return None,
                },
            },
            (Shape::Array(array), Step::Index(i)) => {
                array.prefix.get(*i).copied().or(array.items)?
            }
            _ => return None,
        };
    }
    Some(rule)
}

/// Where the reader is below a value: `None` when the value is complete, else the path from
/// it to the value being read (empty: this very value).
type Open<'o> = Option<&'o [Seg]>;

/// [`Open`] below the member or item at `step` of a value whose reader is at `open`.
fn below<'o>(open: Open<'o>, step: &Step<'_>) -> Open<'o> {
    match open?.split_first() {
        Some((first, rest)) if first.is(step) => Some(rest),
        _ => None,
    }
}

impl Extractor {
    /// A [`SchemaStream`] reading against `schema` with these settings (as
    /// [`Extractor::stream`]).
    pub fn stream_with(&self, schema: &Schema) -> SchemaStream {
        let inner = if schema.takes_anything() {
            Inner::Json(self.stream())
        } else {
            Inner::Prose(self.stream())
        };
        SchemaStream {
            schema: schema.clone(),
            inner,
            keys: KeyFields::default(),
        }
    }

    /// The partial value of a reply that is cut off or does not read against `schema` as a
    /// whole, with the issues that stopped the whole value: [`extract_partial`] for a type
    /// known at run time. The partial value shows what a [`SchemaStream`] snapshot of the
    /// whole reply shows.
    ///
    /// [`extract_partial`]: crate::extract_partial
    ///
    /// ```
    /// use serde_json::json;
    /// let schema = llm_extract::Schema::new(&json!({
    ///     "type": "object",
    ///     "properties": {"items": {"type": "array", "items": {"type": "integer"}}, "story": {"type": "string"}},
    ///     "required": ["items", "story"]
    /// })).unwrap();
    /// let e = llm_extract::Extractor::new();
    /// let saved = e.extract_partial_with(&schema, r#"{"items": ["1", 2], "story": "Once upon a ti"#).unwrap();
    /// assert!(saved.value.is_none());
    /// assert_eq!(saved.partial, json!({"items": [1, 2], "story": "Once upon a ti"}));
    /// assert_eq!(saved.issues[0].category, llm_extract::Category::Incomplete);
    /// ```
    pub fn extract_partial_with(
        &self,
        schema: &Schema,
        text: &str,
    ) -> Result<SalvagedValue, Error> {
        let (value, partial, issues, recovered) = if schema.takes_anything() {
            let saved = schema.reading(|| self.extract_partial::<Dyn<false>>(text))?;
            (
                saved.value.map(|d| d.0),
                saved.partial,
                saved.issues,
                saved.recovered,
            )
        } else {
            let saved = schema.reading(|| self.extract_partial::<Dyn>(text))?;
            (
                saved.value.map(|d| d.0),
                saved.partial,
                saved.issues,
                saved.recovered,
            )
        };
        let compiled = &schema.compiled;
        let partial = match &value {
            Some(value) => value.clone(),
            None => (partial.shown(compiled, &KeyFields::default())).unwrap_or(Value::Null),
        };
        Ok(SalvagedValue {
            value,
            partial,
            issues,
            recovered,
        })
    }
}

/// What [`Extractor::extract_partial_with`] saved from a reply.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SalvagedValue {
    /// The value when the reply reads against the schema as a whole (then `issues` is
    /// empty).
    pub value: Option<Value>,
    /// Everything that could be read, as a [`SchemaStream`] snapshot shows it (the value
    /// itself when it was read whole; `null` when nothing could be shown).
    pub partial: Value,
    /// What stopped the whole value: the errors of the ordinary read, then the issues of
    /// the parts read on their own.
    pub issues: Vec<Issue>,
    /// Members found by their key outside any structure the reader could follow.
    pub recovered: Vec<Path>,
}

/// The partial value of `text` read against `schema`: see
/// [`Extractor::extract_partial_with`].
pub fn extract_partial_with(schema: &Schema, text: &str) -> Result<SalvagedValue, Error> {
    crate::DEFAULT.extract_partial_with(schema, text)
}

impl Schema {
    /// A [`SchemaStream`] reading against this schema with the default settings.
    pub fn stream(&self) -> SchemaStream {
        crate::DEFAULT.stream_with(self)
    }
}

impl SchemaStream {
    /// Adds `chunk` to the reply; returns whether the value shown may have changed.
    pub fn push(&mut self, chunk: &str) -> bool {
        let (schema, inner) = (&self.schema, &mut self.inner);
        schema.reading(|| each!(inner, s => s.push(chunk)))
    }

    /// [`SchemaStream::push`] for bytes: a UTF-8 character split between chunks waits for
    /// its rest.
    pub fn push_bytes(&mut self, chunk: &[u8]) -> bool {
        let (schema, inner) = (&self.schema, &mut self.inner);
        schema.reading(|| each!(inner, s => s.push_bytes(chunk)))
    }

    /// The value so far, read through the schema (`null` before anything can be shown).
    pub fn snapshot(&self) -> Value {
        let compiled = &self.schema.compiled;
        each!(&self.inner, s => s.partial())
            .and_then(|partial| partial.shown(compiled, &self.keys))
            .unwrap_or(Value::Null)
    }

    /// Where the property `name` of the root object stands (its name in the schema; always
    /// `Pending` when the root is not an object with properties).
    pub fn state(&self, name: &str) -> FieldState {
        let compiled = &self.schema.compiled;
        let Some(object) = object_of(compiled, compiled.root) else {
            return FieldState::Pending;
        };
        let Some(partial) = each!(&self.inner, s => s.partial()) else {
            return FieldState::Pending;
        };
        let Some(PartialJson::Object(map)) = &partial.json else {
            return FieldState::Pending;
        };
        let open = partial.open.as_deref();
        let mut state = FieldState::Pending;
        let mut best = None;
        for (key, _) in map.iter() {
            let Some((field, rank)) = self.keys.field(object, key) else {
                continue;
            };
            // The member the snapshot shows: the best match, the later one on a tie.
            if object.props[field].name == name && best.is_none_or(|best| rank <= best) {
                best = Some(rank);
                state = match below(open, &Step::Key(key)) {
                    None => FieldState::Complete,
                    Some(_) => FieldState::Incomplete,
                };
            }
        }
        state
    }

    /// Issues found in complete strings and scalars of the value so far, each once, with its
    /// path and position (as [`Stream::issues`]).
    pub fn issues(&self) -> &[Issue] {
        each!(&self.inner, s => s.issues())
    }

    /// The reasoning blocks so far (as [`Stream::thoughts`]).
    pub fn thoughts(&self) -> &[String] {
        each!(&self.inner, s => s.thoughts())
    }

    /// The reply so far.
    pub fn text(&self) -> &str {
        each!(&self.inner, s => s.text())
    }

    /// Whether a whole value was read (as [`Stream::is_complete`]).
    pub fn is_complete(&self) -> bool {
        each!(&self.inner, s => s.is_complete())
    }

    /// Reads the whole reply once, as [`Extractor::extract_with`] does, except that a value
    /// cut off by the end of the reply is an error (as [`Stream::finish`]).
    pub fn finish(self) -> Result<Extracted<Value>, Error> {
        let SchemaStream { schema, inner, .. } = self;
        schema.reading(|| {
            each!(inner, s => s.finish().map(|out| Extracted {
                value: out.value.0,
                report: out.report,
                thoughts: out.thoughts,
            }))
        })
    }
}

/// The rule `rule` comes to after its `$ref`s (a chain of them is finite: compiling refuses a
/// cycle that reads nothing).
fn resolved(compiled: &Compiled, mut rule: usize) -> usize {
    for _ in 0..compiled.rules.len() {
        match compiled.rules[rule].shape {
            Shape::Ref(target) => rule = target,
            _ => break,
        }
    }
    rule
}

/// The object schema with properties that `rule` is, if it is one.
fn object_of(compiled: &Compiled, rule: usize) -> Option<&Object> {
    match &compiled.rules[resolved(compiled, rule)].shape {
        Shape::Object(object) => Some(object),
        _ => None,
    }
}

/// A snapshot being made: the schema, and the keys of its objects matched so far.
struct Shown<'s> {
    compiled: &'s Arc<Compiled>,
    keys: &'s KeyFields,
}

impl Shown<'_> {
    /// What `partial` shows under `rule`, the reader at `open` below it: a complete value read
    /// by the rule; an incomplete one (or a whole one that does not read) walked where the rule
    /// says what its parts are; `None` where nothing is decided yet.
    fn shown(&self, rule: usize, partial: &PartialJson, open: Open<'_>) -> Option<Value> {
        let compiled = self.compiled;
        let open = match open {
            Some(open) => open,
            None => {
                let whole = read_whole(compiled, rule, partial);
                if whole.is_some()
                    || !matches!(partial, PartialJson::Array(_) | PartialJson::Object(_))
                {
                    return whole;
                }
                // A whole object or array that does not read (a property missing): its parts,
                // as a typed partial shows its fields.
                &[]
            }
        };
        let open = Some(open);
        let id = resolved(compiled, rule);
        let rule = &compiled.rules[id];
        let only = |bit: u8| rule.types.is_some_and(|t| t == bit);
        match (&rule.shape, partial) {
            (Shape::Plain, _) if rule.types.is_none() && rule.checks.is_empty() => {
                Some(partial.to_value())
            }
            // A nullable string reads a placeholder (`N/A`) as `null`, as an `Option` does: while
            // more text may still make it one, it shows nothing.
            (Shape::Plain, PartialJson::String(s))
                if rule.nullable && PartialString::placeholder_so_far(s).is_some() =>
            {
                None
            }
            (Shape::Plain, PartialJson::String(s)) if only(types::STRING) => {
                Some(Value::String(s.as_str().to_string()))
            }
            (Shape::Plain, PartialJson::Array(list)) if only(types::ARRAY) => Some(Value::Array(
                list.iter().map(PartialJson::to_value).collect(),
            )),
            (Shape::Plain, PartialJson::Object(map)) if only(types::OBJECT) => {
                let shown = map.iter().map(|(k, v)| (k.to_string(), v.to_value()));
                Some(Value::Object(shown.collect()))
            }
            (Shape::Array(array), PartialJson::Array(list)) => {
                let rule_of = |i: usize| array.prefix.get(i).copied().or(array.items);
                Some(self.items(list.iter(), rule_of, open))
            }
            // One value where an array belongs is an array of it, as the reading takes it.
            (Shape::Array(array), PartialJson::String(_) | PartialJson::Object(_)) => {
                let rule = array.items.filter(|_| array.prefix.is_empty())?;
                let item = crate::deep::grow(|| self.shown(rule, partial, open))?;
                Some(Value::Array(vec![item]))
            }
            (Shape::Object(object), PartialJson::Object(map)) => {
                Some(Value::Object(self.members(object, map.iter(), open)))
            }
            _ => None,
        }
    }

    /// An array's items so far, each by the rule `rule_of` its position gives (any value when
    /// none): up to the first that shows nothing, so the list stays a prefix of the final one.
    fn items<'p>(
        &self,
        list: impl Iterator<Item = &'p PartialJson>,
        rule_of: impl Fn(usize) -> Option<usize>,
        open: Open<'_>,
    ) -> Value {
        let mut out = Vec::new();
        for (i, item) in list.enumerate() {
            let open = below(open, &Step::Index(i));
            let value = crate::deep::grow(|| match rule_of(i) {
                Some(rule) => self.shown(rule, item, open),
                None => Some(item.to_value()),
            });
            match value {
                Some(value) => out.push(value),
                None => break,
            }
        }
        Value::Array(out)
    }

    /// An object's members so far, under their properties' names; other keys as
    /// `additionalProperties` says (kept by its rule, or not shown). Of several members for one
    /// property, the one the reading takes: the best match, the later one on a tie.
    fn members<'p>(
        &self,
        object: &Object,
        entries: impl Iterator<Item = (&'p str, &'p PartialJson)>,
        open: Open<'_>,
    ) -> Map<String, Value> {
        let mut out = Map::new();
        let mut ranks: HashMap<usize, Rank> = HashMap::new();
        for (key, value) in entries {
            let (name, rule) = match self.keys.field(object, key) {
                Some((field, rank)) => {
                    if ranks.get(&field).is_some_and(|&best| rank > best) {
                        continue;
                    }
                    ranks.insert(field, rank);
                    let prop = &object.props[field];
                    // What an earlier member showed for it goes, whether this one shows yet.
                    out.remove(prop.name.as_str());
                    (prop.name.as_str(), prop.rule)
                }
                None => match object.additional {
                    Additional::Kept(rule) => (key, rule),
                    Additional::Ignored | Additional::Denied => continue,
                },
            };
            let open = below(open, &Step::Key(key));
            if let Some(value) = crate::deep::grow(|| self.shown(rule, value, open)) {
                out.insert(name.to_string(), value);
            }
        }
        out
    }
}

/// A complete value read by `rule`, as the whole reply's reading reads it (validation issues
/// do not hide it; a value the rule cannot read is not shown).
fn read_whole(compiled: &Arc<Compiled>, rule: usize, partial: &PartialJson) -> Option<Value> {
    let node: Node<'static> = Node::from_value(&partial.to_value());
    let mut cx = Context::new();
    read::read(compiled, rule, false, &node, &mut cx).ok()
}
