//! Compiling a JSON Schema (a `serde_json::Value`) into the rules a reading follows: one
//! [`Rule`] per schema object, `$ref`s resolved to the rule they name (so recursion is a
//! cycle of indexes), keyword values checked, unsupported keywords listed.

pub(crate) use super::checks::{Checks, Invalid};
use super::intern;
use super::Unsupported;
use crate::coerce::keys::StructSpec;
use crate::coerce::VariantNames;
use serde_json::{json, Map, Value};
use std::collections::HashMap;

/// How deep schema objects may nest inside one another (not counting `$ref`s, which are
/// followed once each).
const MAX_NESTING: usize = 128;

/// The most properties one object schema may have (the struct reader's widest slot table).
pub(crate) const MAX_PROPERTIES: usize = 256;

/// A compiled schema: its rules, and which is the root.
#[derive(Debug)]
pub(crate) struct Compiled {
    pub(crate) rules: Vec<Rule>,
    pub(crate) root: usize,
}

/// The JSON types a rule accepts, as bits.
pub(crate) mod types {
    pub const NULL: u8 = 1;
    pub const BOOLEAN: u8 = 2;
    pub const INTEGER: u8 = 4;
    pub const NUMBER: u8 = 8;
    pub const STRING: u8 = 16;
    pub const ARRAY: u8 = 32;
    pub const OBJECT: u8 = 64;
    /// In the order a reading tries them when several are allowed.
    pub const ORDER: [(u8, &str); 7] = [
        (NULL, "null"),
        (BOOLEAN, "boolean"),
        (INTEGER, "integer"),
        (NUMBER, "number"),
        (STRING, "string"),
        (ARRAY, "array"),
        (OBJECT, "object"),
    ];
}

/// What one schema object asks of a value.
#[derive(Debug, Default)]
pub(crate) struct Rule {
    /// The types allowed besides `null` (`None`: any); `null` itself is `nullable`.
    pub(crate) types: Option<u8>,
    /// `null` is allowed as well (`"null"` in `type`, or OpenAPI's `nullable: true`).
    pub(crate) nullable: bool,
    pub(crate) shape: Shape,
    pub(crate) checks: Checks,
    /// `title`, for messages about a choice.
    pub(crate) title: Option<String>,
}

/// The structure a rule gives a value.
#[derive(Debug, Default)]
pub(crate) enum Shape {
    /// Read by type alone.
    #[default]
    Plain,
    /// `false`: no value fits.
    Never,
    /// `$ref`: another rule.
    Ref(usize),
    /// `enum` / `const`: one of these values. `names` are the string values, matched as a
    /// unit enum's variants are.
    Values {
        values: Vec<Value>,
        names: &'static [VariantNames],
        /// What messages call it, as a derived enum's name: `title`, else the name it has
        /// under `$defs`, else `enum`.
        name: &'static str,
    },
    /// `anyOf` / `oneOf` (and a list of types): the cheapest reading wins.
    Choice(Vec<usize>),
    Object(Object),
    Array(Array),
}

/// An object schema with `properties`.
#[derive(Debug)]
pub(crate) struct Object {
    pub(crate) spec: &'static StructSpec,
    pub(crate) props: Vec<Property>,
    pub(crate) additional: Additional,
    /// Each property's index by its name, when there are too many to look through.
    by_name: HashMap<String, usize>,
}

/// Up to this many properties, a key is looked up by comparing it with each name.
const SCAN: usize = 8;

impl Object {
    /// The index of the property named exactly `key`.
    #[inline]
    pub(crate) fn property(&self, key: &str) -> Option<usize> {
        if self.props.len() <= SCAN {
            return self.props.iter().position(|p| p.name == key);
        }
        self.by_name.get(key).copied()
    }
}

#[derive(Debug)]
pub(crate) struct Property {
    pub(crate) name: String,
    pub(crate) rule: usize,
    pub(crate) required: bool,
    pub(crate) default: Option<Value>,
}

/// What becomes of keys no property names.
#[derive(Debug)]
pub(crate) enum Additional {
    /// Dropped and reported (`UnknownKey`), as a derived struct does: `additionalProperties`
    /// absent next to `properties`.
    Ignored,
    /// An issue each (`additionalProperties: false`).
    Denied,
    /// Kept, each read by this rule (`true`, a schema, or no `properties` at all).
    Kept(usize),
}

/// An array schema.
#[derive(Debug, Default)]
pub(crate) struct Array {
    /// `prefixItems`: the first items' rules.
    pub(crate) prefix: Vec<usize>,
    /// `items`: the rule of every other item (`None`: any value).
    pub(crate) items: Option<usize>,
}

fn invalid(pointer: &str, why: impl Into<String>) -> Invalid {
    Invalid {
        pointer: pointer.to_string(),
        why: why.into(),
    }
}

/// Keywords that only annotate (read by people or by other tools, not by a reading).
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$comment",
    "$anchor",
    "title",
    "description",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$defs",
    "definitions",
];

/// The extension keyword naming the other keys a property answers to.
pub(crate) const ALIASES: &str = "x-aliases";

struct Compiler<'s> {
    root: &'s Value,
    rules: Vec<Rule>,
    /// The rule compiled for each pointer (a `$ref` target), so that each is compiled once.
    by_pointer: HashMap<String, usize>,
    unsupported: Vec<Unsupported>,
    /// The rule compiled for each schema (as JSON text) inside an option that took in the
    /// keywords beside its choice ([`shared_into`]): those keywords are copied into every
    /// option, and a copy of one whose schemas hold choices of their own would otherwise be
    /// compiled once per option at each level, a number of rules exponential in the depth.
    by_content: HashMap<String, usize>,
    /// How many such options the schema being compiled is inside.
    shared: usize,
    /// The bytes of schemas `allOf`s (and `$ref`s with keywords beside them) took in as
    /// copies so far, within [`MERGE_BUDGET`].
    merged: usize,
}

/// Compiles `root`.
pub(crate) fn compile(root: &Value) -> Result<(Compiled, Vec<Unsupported>), Invalid> {
    let mut c = Compiler {
        root,
        rules: Vec::new(),
        by_pointer: HashMap::new(),
        by_content: HashMap::new(),
        shared: 0,
        merged: 0,
        unsupported: Vec::new(),
    };
    let root_rule = c.rule(root, "", 0)?;
    no_cycle_without_progress(&c.rules, &c.by_pointer)?;
    Ok((
        Compiled {
            rules: c.rules,
            root: root_rule,
        },
        c.unsupported,
    ))
}

impl Compiler<'_> {
    /// The rule of the schema `value` at `pointer`.
    fn rule(&mut self, value: &Value, pointer: &str, depth: usize) -> Result<usize, Invalid> {
        if depth > MAX_NESTING {
            return Err(invalid(
                pointer,
                format!("schemas nested deeper than {MAX_NESTING}"),
            ));
        }
        if let Some(&id) = self.by_pointer.get(pointer) {
            return Ok(id);
        }
        // A `$ref` with keywords beside it is compiled from a copy of its target: by content,
        // so that the same one written in many places is compiled (and copied) once.
        let copies_target = value.as_object().is_some_and(has_structure_beside_ref);
        let content = (self.shared > 0 || copies_target).then(|| value.to_string());
        if let Some(&id) = content.as_ref().and_then(|c| self.by_content.get(c)) {
            return Ok(id);
        }
        let id = self.rules.len();
        self.rules.push(Rule::default());
        self.by_pointer.insert(pointer.to_string(), id);
        if let Some(content) = content {
            self.by_content.insert(content, id);
        }
        let rule = match value {
            Value::Bool(true) => Rule::default(),
            Value::Bool(false) => Rule {
                shape: Shape::Never,
                ..Rule::default()
            },
            Value::Object(map) => self.object_rule(map, pointer, depth)?,
            _ => return Err(invalid(pointer, "a schema is an object or a boolean")),
        };
        self.rules[id] = rule;
        Ok(id)
    }

    fn object_rule(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        depth: usize,
    ) -> Result<Rule, Invalid> {
        let mut rule = Rule::default();
        for key in map.keys() {
            let known = KEYWORDS.contains(&key.as_str())
                || ANNOTATIONS.contains(&key.as_str())
                || key == ALIASES;
            if !known && !key.starts_with("x-") {
                self.unsupported.push(Unsupported {
                    pointer: format!("{pointer}/{}", escape(key)),
                    keyword: key.clone(),
                });
            }
        }
        if let Some(with_ref) = ref_beside_structure(map) {
            // Compiled as the `allOf` of the target and the keywords beside it. The target is
            // taken in as content, so a schema it holds that does the same again (a recursive
            // `{"$ref": "#/$defs/Node", "required": [..]}`) is the same content one level down:
            // by content it is compiled once, not once per level forever.
            self.shared += 1;
            let merged = self.merge_all_ofs(&with_ref, pointer);
            let rule = merged.and_then(|merged| self.object_rule(&merged, pointer, depth));
            self.shared -= 1;
            return rule;
        }
        if map.contains_key("allOf") {
            let merged = self.merge_all_ofs(map, pointer)?;
            return self.object_rule(&merged, pointer, depth);
        }
        rule.title = map.get("title").and_then(Value::as_str).map(str::to_string);
        let (types, nullable) = types_of(map, pointer)?;
        rule.types = types;
        rule.nullable = nullable;
        rule.checks = super::checks::checks(map, pointer)?;
        if let Some(Value::String(name)) = map.get("format") {
            if rule.checks.format.is_none() {
                self.unsupported.push(Unsupported {
                    pointer: format!("{pointer}/format"),
                    keyword: format!("format: {name}"),
                });
            }
        }
        rule.shape = self.shape(map, pointer, depth, &mut rule)?;
        Ok(rule)
    }

    /// The shape `map` gives (the first structural keyword found, in this order: `$ref`,
    /// `anyOf`/`oneOf` (which take the others beside them into each option), `enum`,
    /// `const`, object, array).
    fn shape(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        depth: usize,
        rule: &mut Rule,
    ) -> Result<Shape, Invalid> {
        if let Some(r) = map.get("$ref") {
            let at = format!("{pointer}/$ref");
            let target = r
                .as_str()
                .ok_or_else(|| invalid(&at, "`$ref` is a string"))?;
            return self.reference(target, &at, depth).map(Shape::Ref);
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(options) = map.get(keyword) {
                let at = format!("{pointer}/{keyword}");
                let (options, shared) = shared_into(map, keyword, options, &at)?;
                self.shared += usize::from(shared);
                let shape = self.choice_shape(&options, &at, depth, rule);
                self.shared -= usize::from(shared);
                return shape;
            }
        }
        if let Some(values) = map.get("enum") {
            let at = format!("{pointer}/enum");
            let Value::Array(values) = values else {
                return Err(invalid(&at, "`enum` is an array"));
            };
            return values_shape(typed_values(values, rule), enum_name(rule, pointer), &at);
        }
        if let Some(value) = map.get("const") {
            let at = format!("{pointer}/const");
            let values = typed_values(std::slice::from_ref(value), rule);
            return values_shape(values, enum_name(rule, pointer), &at);
        }
        let object = rule.types.is_some_and(|t| t & types::OBJECT != 0)
            || map.contains_key("properties")
            // A list of required names with no `type`: an object's (a boolean `required`,
            // OpenAPI 2's, is not).
            || (rule.types.is_none() && matches!(map.get("required"), Some(Value::Array(_))))
            || map.contains_key("additionalProperties");
        let array = rule.types.is_some_and(|t| t & types::ARRAY != 0)
            || map.contains_key("items")
            || map.contains_key("prefixItems");
        match (object, array) {
            (true, false) => {
                rule.types = Some(types::OBJECT);
                self.object(map, pointer, depth).map(Shape::Object)
            }
            (false, true) => {
                rule.types = Some(types::ARRAY);
                self.array(map, pointer, depth).map(Shape::Array)
            }
            (true, true) => Err(invalid(
                pointer,
                "a schema with both object and array keywords is not supported; write it as `anyOf`",
            )),
            (false, false) => Ok(Shape::Plain),
        }
    }

    /// The shape of an `anyOf`/`oneOf` at `at` with these options.
    fn choice_shape(
        &mut self,
        options: &Value,
        at: &str,
        depth: usize,
        rule: &mut Rule,
    ) -> Result<Shape, Invalid> {
        if let Some((i, option)) = or_null(options) {
            // A schema or `null` (what `Option<T>` derives): read as an `Option` is, not as a
            // choice of two (so a value that is not a `T` fails as a `T`).
            rule.nullable = true;
            let target = self.rule(option, &format!("{at}/{i}"), depth + 1)?;
            return Ok(Shape::Ref(target));
        }
        let options = self.choice(options, at, depth)?;
        Ok(Shape::Choice(self.typed_options(options, rule.types)))
    }

    /// The rule a local `$ref` names (`#`, `#/$defs/Name`, any JSON pointer into the
    /// document), compiled on first use.
    fn reference(&mut self, target: &str, at: &str, depth: usize) -> Result<usize, Invalid> {
        let Some(pointer) = target.strip_prefix('#') else {
            return Err(invalid(
                at,
                format!("only references inside the schema (`#...`) are supported, not {target:?}"),
            ));
        };
        if let Some(&id) = self.by_pointer.get(pointer) {
            return Ok(id);
        }
        let value = self
            .root
            .pointer(pointer)
            .ok_or_else(|| invalid(at, format!("{target:?} names nothing in the schema")))?;
        self.rule(value, pointer, depth + 1)
    }

    fn choice(&mut self, options: &Value, at: &str, depth: usize) -> Result<Vec<usize>, Invalid> {
        let Value::Array(options) = options else {
            return Err(invalid(at, "an array of schemas"));
        };
        if options.is_empty() {
            return Err(invalid(at, "an empty list of schemas"));
        }
        (options.iter().enumerate())
            .map(|(i, option)| self.rule(option, &format!("{at}/{i}"), depth + 1))
            .collect()
    }

    /// The options of an `anyOf`/`oneOf` whose schema also has a `type`
    /// (`{"type": "string", "anyOf": [{"maxLength": 2}, {"format": "email"}]}`): an option that
    /// gives no structure of its own reads a value of those types (its own types narrowed to
    /// them, in a rule of its own: the option's schema may be read elsewhere without them).
    fn typed_options(&mut self, options: Vec<usize>, types: Option<u8>) -> Vec<usize> {
        let Some(outer) = types else {
            return options;
        };
        let mut typed = Vec::with_capacity(options.len());
        for id in options {
            let option = &self.rules[id];
            let narrowed = option.types.map_or(outer, |t| t & outer);
            if !matches!(option.shape, Shape::Plain) || option.types == Some(narrowed) {
                typed.push(id);
                continue;
            }
            let rule = Rule {
                types: Some(narrowed),
                nullable: option.nullable,
                shape: match narrowed {
                    0 => Shape::Never,
                    _ => Shape::Plain,
                },
                checks: option.checks.clone(),
                title: option.title.clone(),
            };
            typed.push(self.rules.len());
            self.rules.push(rule);
        }
        typed
    }

    fn object(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        depth: usize,
    ) -> Result<Object, Invalid> {
        let empty = Map::new();
        let props = match map.get("properties") {
            None => &empty,
            Some(Value::Object(props)) => props,
            Some(_) => return Err(invalid(&format!("{pointer}/properties"), "an object")),
        };
        if props.len() > MAX_PROPERTIES {
            return Err(invalid(
                &format!("{pointer}/properties"),
                format!("more than {MAX_PROPERTIES} properties"),
            ));
        }
        let required = required_of(map, pointer)?;
        let mut names = Vec::with_capacity(props.len());
        let mut properties = Vec::with_capacity(props.len());
        for (name, schema) in props {
            let at = format!("{pointer}/properties/{}", escape(name));
            names.push((name.clone(), aliases_of(schema, &at)?));
            properties.push(Property {
                name: name.clone(),
                rule: self.rule(schema, &at, depth + 1)?,
                required: required.contains(&name.as_str()),
                default: schema.get("default").cloned(),
            });
        }
        // A required name no property declares (`{"required": ["id"]}`): a property that
        // takes any value, so that the value must have it.
        for name in required {
            if props.contains_key(name) || names.iter().any(|(n, _)| n == name) {
                continue;
            }
            if properties.len() == MAX_PROPERTIES {
                return Err(invalid(
                    &format!("{pointer}/required"),
                    format!("more than {MAX_PROPERTIES} properties"),
                ));
            }
            let at = format!("{pointer}/required");
            names.push((name.to_string(), Vec::new()));
            properties.push(Property {
                name: name.to_string(),
                rule: self.rule(&Value::Bool(true), &at, depth + 1)?,
                required: true,
                default: None,
            });
        }
        let at = format!("{pointer}/additionalProperties");
        let additional = match map.get("additionalProperties") {
            Some(Value::Bool(false)) => Additional::Denied,
            Some(schema) => Additional::Kept(self.rule(schema, &at, depth + 1)?),
            None if props.is_empty() => {
                Additional::Kept(self.rule(&Value::Bool(true), &at, depth + 1)?)
            }
            None => Additional::Ignored,
        };
        let deny = matches!(additional, Additional::Denied);
        let flatten = matches!(additional, Additional::Kept(_));
        let spec = intern::struct_spec(&names, deny, flatten)
            .map_err(|_| invalid(pointer, exhausted()))?;
        let by_name = if properties.len() > SCAN {
            (properties.iter().enumerate())
                .map(|(i, p)| (p.name.clone(), i))
                .collect()
        } else {
            HashMap::new()
        };
        Ok(Object {
            spec,
            props: properties,
            additional,
            by_name,
        })
    }

    fn array(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        depth: usize,
    ) -> Result<Array, Invalid> {
        let mut array = Array::default();
        if let Some(prefix) = map.get("prefixItems") {
            let at = format!("{pointer}/prefixItems");
            array.prefix = self.choice(prefix, &at, depth)?;
        }
        if let Some(items) = map.get("items") {
            let at = format!("{pointer}/items");
            array.items = Some(self.rule(items, &at, depth + 1)?);
        }
        Ok(array)
    }

    /// `map` with its `allOf` merged in, and the `allOf`s its members bring merged in turn,
    /// until none is left. A member that brings back an `allOf` already being merged (one
    /// that takes itself in through a `$ref`) would never end: refused after as many rounds
    /// as schemas may nest.
    fn merge_all_ofs(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
    ) -> Result<Map<String, Value>, Invalid> {
        let mut merged = map.clone();
        for _ in 0..=MAX_NESTING {
            let Some(all_of) = merged.get("allOf").cloned() else {
                return Ok(merged);
            };
            merged = self.merge_all_of(&merged, &all_of, pointer)?;
        }
        Err(invalid(
            pointer,
            format!("an `allOf` that takes itself in through a `$ref`, or `allOf`s nested deeper than {MAX_NESTING}"),
        ))
    }

    /// `allOf`'s schemas merged into `map` (with `$ref`s to other schemas followed): the
    /// union of `properties` (a property two members describe differently must fit both:
    /// the `allOf` of its schemas), of `required` and of the members' own `allOf`s, and
    /// every other keyword from whichever member has it; two members giving one keyword
    /// different values is an error.
    fn merge_all_of(
        &mut self,
        map: &Map<String, Value>,
        all_of: &Value,
        pointer: &str,
    ) -> Result<Map<String, Value>, Invalid> {
        let at = format!("{pointer}/allOf");
        let Value::Array(members) = all_of else {
            return Err(invalid(&at, "an array of schemas"));
        };
        let mut merged: Map<String, Value> = map.clone();
        merged.remove("allOf");
        for (i, member) in members.iter().enumerate() {
            let member_at = format!("{at}/{i}");
            let member = self.resolved(member, &member_at, 0)?;
            let Value::Object(member) = member else {
                return Err(invalid(&member_at, "an object schema"));
            };
            self.merged += Value::Object(member.clone()).to_string().len();
            if self.merged > MERGE_BUDGET {
                return Err(invalid(
                    &member_at,
                    format!("the schemas `allOf`s and `$ref`s with keywords beside them take in exceed {} MiB in all", MERGE_BUDGET >> 20),
                ));
            }
            for (key, value) in member {
                merge_keyword(&mut merged, &key, &value, &member_at)?;
            }
        }
        Ok(merged)
    }

    /// `value` with a `$ref` (alone, or with annotations) replaced by its target, following
    /// chains up to a bound.
    fn resolved(&self, value: &Value, at: &str, hops: usize) -> Result<Value, Invalid> {
        let Some(target) = value.get("$ref").and_then(Value::as_str) else {
            return Ok(value.clone());
        };
        // With structure beside it, the `$ref` is one more member to merge.
        if let Some(with_ref) = value.as_object().and_then(ref_beside_structure) {
            return Ok(Value::Object(with_ref));
        }
        if hops > MAX_NESTING {
            return Err(invalid(at, "a chain of `$ref`s that does not end"));
        }
        let pointer = target
            .strip_prefix('#')
            .ok_or_else(|| invalid(at, "only references inside the schema are supported"))?;
        let found = self
            .root
            .pointer(pointer)
            .ok_or_else(|| invalid(at, format!("{target:?} names nothing in the schema")))?;
        self.resolved(found, at, hops + 1)
    }
}

/// Every keyword a rule reads (besides annotations and `x-` extensions).
const KEYWORDS: &[&str] = &[
    "type",
    "nullable",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "enum",
    "const",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "default",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "pattern",
    "format",
];

/// One keyword of an `allOf` member into the merged schema.
fn merge_keyword(
    merged: &mut Map<String, Value>,
    key: &str,
    value: &Value,
    at: &str,
) -> Result<(), Invalid> {
    match (key, merged.get_mut(key)) {
        (_, None) => {
            merged.insert(key.to_string(), value.clone());
        }
        ("properties", Some(Value::Object(props))) => {
            if let Value::Object(more) = value {
                for (name, schema) in more {
                    match props.get_mut(name) {
                        None => {
                            props.insert(name.clone(), schema.clone());
                        }
                        Some(existing) if existing == schema => {}
                        Some(existing) => {
                            let both = json!({"allOf": [existing.take(), schema.clone()]});
                            *existing = both;
                        }
                    }
                }
            }
        }
        ("required" | "allOf", Some(Value::Array(names))) => {
            if let Value::Array(more) = value {
                for name in more {
                    if !names.contains(name) {
                        names.push(name.clone());
                    }
                }
            }
        }
        (_, Some(existing)) if existing == value => {}
        (_, Some(_)) if ANNOTATIONS.contains(&key) => {}
        _ => {
            return Err(invalid(
                at,
                format!("`allOf` members give `{key}` different values"),
            ))
        }
    }
    Ok(())
}

/// The name messages give the values of the rule at `pointer`, interned (`enum` when that
/// would go beyond the budget, which the values' names then report).
fn enum_name(rule: &Rule, pointer: &str) -> &'static str {
    let defined = ["/$defs/", "/definitions/"]
        .iter()
        .find_map(|p| pointer.strip_prefix(p))
        .filter(|name| !name.contains('/'));
    match rule.title.as_deref().or(defined) {
        Some(name) => intern::name(&name.replace("~1", "/").replace("~0", "~")).unwrap_or("enum"),
        None => "enum",
    }
}

/// The values of an `enum` or `const` that the `type` and `nullable` beside it allow (all of
/// them when there is no `type`).
fn typed_values(values: &[Value], rule: &Rule) -> Vec<Value> {
    let Some(bits) = rule.types else {
        return values.to_vec();
    };
    let fits = |value: &Value| {
        let bit = match value {
            Value::Null if rule.nullable => return true,
            Value::Null => types::NULL,
            Value::Bool(_) => types::BOOLEAN,
            Value::Number(n) if n.is_f64() => match n.as_f64().is_some_and(|f| f.fract() == 0.0) {
                true => types::INTEGER | types::NUMBER,
                false => types::NUMBER,
            },
            Value::Number(_) => types::INTEGER | types::NUMBER,
            Value::String(_) => types::STRING,
            Value::Array(_) => types::ARRAY,
            Value::Object(_) => types::OBJECT,
        };
        bits & bit != 0
    };
    values.iter().filter(|v| fits(v)).cloned().collect()
}

/// The enum or const values, with their string values interned as variant names.
fn values_shape(values: Vec<Value>, name: &'static str, at: &str) -> Result<Shape, Invalid> {
    if values.is_empty() {
        return Err(invalid(at, "no value is allowed"));
    }
    let strings: Vec<String> = (values.iter())
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    let names = intern::variants(&strings).map_err(|_| invalid(at, exhausted()))?;
    Ok(Shape::Values {
        values,
        names,
        name,
    })
}

/// The most bytes of schemas that `allOf`s (and `$ref`s with keywords beside them) may take
/// in as copies, in all: a compile that grows with the uses times the size of what they name
/// is an error instead.
const MERGE_BUDGET: usize = 16 << 20;

/// The most bytes of keywords beside an `anyOf`/`oneOf` that copies into its options may
/// hold, in all (see [`shared_into`]).
const SHARED_BUDGET: usize = 1 << 20;

/// The keywords beside an `anyOf`/`oneOf` that give the value structure of their own, which
/// a choice's rule has no place for: they hold in each option instead ([`shared_into`]).
const BESIDE_CHOICE: &[&str] = &[
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "enum",
    "const",
    "anyOf",
    "oneOf",
];

/// `map` written as an `allOf` of its `$ref` and its own keywords, when it has keywords beside
/// the `$ref` that give structure (JSON Schema reads both; type, nullability and the checks
/// beside a `$ref` are read with it either way).
fn ref_beside_structure(map: &Map<String, Value>) -> Option<Map<String, Value>> {
    if !has_structure_beside_ref(map) {
        return None;
    }
    let target = map.get("$ref")?;
    let mut with_ref = map.clone();
    with_ref.remove("$ref");
    let mut members = vec![json!({"$ref": target})];
    if let Some(Value::Array(more)) = with_ref.remove("allOf") {
        members.extend(more);
    }
    with_ref.insert("allOf".to_string(), Value::Array(members));
    Some(with_ref)
}

/// Whether `map` has a `$ref` and keywords beside it that give structure (and no `allOf` of
/// the wrong kind, which the ordinary path reports): [`ref_beside_structure`] rewrites it.
fn has_structure_beside_ref(map: &Map<String, Value>) -> bool {
    let structural = |k: &str, v: &Value| {
        (BESIDE_CHOICE.contains(&k) && (k != "required" || v.is_array())) || k == "allOf"
    };
    map.contains_key("$ref")
        && map.get("allOf").is_none_or(Value::is_array)
        && map.iter().any(|(k, v)| structural(k, v))
}

/// The options of `map`'s `keyword` (`anyOf` or `oneOf`), each made the `allOf` of itself
/// and the structural keywords beside the choice ([`BESIDE_CHOICE`], the other choice
/// keyword included), so that those hold whichever option is read
/// (`{"properties": {"kind": ..}, "required": ["kind"], "oneOf": [..]}`: every option has
/// `kind`). An option that takes only `null` stays as it is, and one of other types takes
/// in only the keywords that apply to them ([`for_option`]); with nothing beside the
/// choice, the options are as written. Also whether any keyword was taken in. Each option
/// gets a copy: copies beyond [`SHARED_BUDGET`] bytes in all are an error, not a compile
/// that grows with the options times the keywords.
fn shared_into(
    map: &Map<String, Value>,
    keyword: &str,
    options: &Value,
    at: &str,
) -> Result<(Value, bool), Invalid> {
    let shared: Map<String, Value> = (map.iter())
        .filter(|(k, v)| {
            *k != keyword
                && BESIDE_CHOICE.contains(&k.as_str())
                && (*k != "required" || v.is_array())
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    match options {
        Value::Array(list) if !shared.is_empty() => {
            let copies = Value::Object(shared.clone()).to_string().len() * list.len();
            if copies > SHARED_BUDGET {
                return Err(invalid(
                    at,
                    format!("the keywords beside it, taken into each of its {} options, exceed {} MiB; write them into the options", list.len(), SHARED_BUDGET >> 20),
                ));
            }
            let options = (list.iter())
                .map(|option| match for_option(&shared, option) {
                    None => option.clone(),
                    Some(shared) => json!({"allOf": [shared, option]}),
                })
                .collect();
            Ok((options, true))
        }
        _ => Ok((options.clone(), false)),
    }
}

/// The keywords of `shared` that hold for `option`: none for an option that takes only
/// `null`; an option whose `type` names no object leaves out the object keywords, one whose
/// `type` names no array the array keywords (they say nothing of such a value). `None` when
/// none is left.
fn for_option(shared: &Map<String, Value>, option: &Value) -> Option<Map<String, Value>> {
    if only_null(option) {
        return None;
    }
    let named: Option<Vec<&str>> = match option.get("type") {
        Some(Value::String(name)) => Some(vec![name.as_str()]),
        Some(Value::Array(names)) => Some(names.iter().filter_map(Value::as_str).collect()),
        _ => None,
    };
    let takes = |kind: &str| named.as_ref().is_none_or(|names| names.contains(&kind));
    let object = ["properties", "required", "additionalProperties"];
    let array = ["items", "prefixItems"];
    let kept: Map<String, Value> = (shared.iter())
        .filter(|(k, _)| takes("object") || !object.contains(&k.as_str()))
        .filter(|(k, _)| takes("array") || !array.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    (!kept.is_empty()).then_some(kept)
}

/// Whether a schema takes only `null` (`{"type": "null"}`, with annotations at most).
fn only_null(schema: &Value) -> bool {
    schema.as_object().is_some_and(|m| {
        m.get("type").and_then(Value::as_str) == Some("null")
            && m.keys()
                .all(|k| k == "type" || ANNOTATIONS.contains(&k.as_str()))
    })
}

/// The one option besides `null` of a list of two schemas, one of which takes only `null`
/// (`{"type": "null"}`, with annotations at most), and its index.
fn or_null(options: &Value) -> Option<(usize, &Value)> {
    let Value::Array(options) = options else {
        return None;
    };
    match options.as_slice() {
        [a, b] if only_null(b) && !only_null(a) => Some((0, a)),
        [a, b] if only_null(a) && !only_null(b) => Some((1, b)),
        _ => None,
    }
}

/// `type` (a name or a list of names) and `nullable`: the types besides `null`, and whether
/// `null` is allowed.
fn types_of(map: &Map<String, Value>, pointer: &str) -> Result<(Option<u8>, bool), Invalid> {
    let at = format!("{pointer}/type");
    let bit = |name: &str| -> Result<u8, Invalid> {
        (types::ORDER.iter())
            .find(|(_, n)| *n == name)
            .map(|(b, _)| *b)
            .ok_or_else(|| invalid(&at, format!("{name:?} is not a JSON Schema type")))
    };
    let bits = match map.get("type") {
        None => None,
        Some(Value::String(name)) => Some(bit(name)?),
        Some(Value::Array(names)) => {
            let mut bits = 0;
            for name in names {
                let name = name
                    .as_str()
                    .ok_or_else(|| invalid(&at, "type names are strings"))?;
                bits |= bit(name)?;
            }
            Some(bits)
        }
        Some(_) => return Err(invalid(&at, "a type name or a list of them")),
    };
    let nullable = match map.get("nullable") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(invalid(&format!("{pointer}/nullable"), "a boolean")),
    };
    let nullable = nullable || bits.is_some_and(|b| b & types::NULL != 0);
    let others = bits.map(|b| b & !types::NULL);
    // `"type": "null"` alone: null is the only value.
    Ok(match others {
        Some(0) => (Some(types::NULL), false),
        other => (other, nullable),
    })
}

fn required_of<'m>(map: &'m Map<String, Value>, pointer: &str) -> Result<Vec<&'m str>, Invalid> {
    let at = format!("{pointer}/required");
    match map.get("required") {
        None => Ok(Vec::new()),
        Some(Value::Array(names)) => (names.iter())
            .map(|n| {
                n.as_str()
                    .ok_or_else(|| invalid(&at, "property names are strings"))
            })
            .collect(),
        Some(_) => Err(invalid(&at, "an array of property names")),
    }
}

/// The names in a property schema's `x-aliases`.
fn aliases_of(schema: &Value, at: &str) -> Result<Vec<String>, Invalid> {
    match schema.get(ALIASES) {
        None => Ok(Vec::new()),
        Some(Value::Array(names)) => (names.iter())
            .map(|n| {
                n.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| invalid(&format!("{at}/{ALIASES}"), "aliases are strings"))
            })
            .collect(),
        Some(_) => Err(invalid(&format!("{at}/{ALIASES}"), "an array of names")),
    }
}

/// A key as a JSON pointer token.
pub(crate) fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn exhausted() -> String {
    format!(
        "the names of the schemas compiled in this process exceed {} MiB; compile each schema once and reuse it",
        intern::BUDGET >> 20
    )
}

/// Refuses a `$ref` or choice that leads back to its own rule without reading any deeper
/// into the value (`{"$ref": "#"}` at the root, `anyOf: [{"$ref": "#"}, ...]`): reading it
/// would never end.
fn no_cycle_without_progress(
    rules: &[Rule],
    by_pointer: &HashMap<String, usize>,
) -> Result<(), Invalid> {
    let next = |rule: &Rule| -> Vec<usize> {
        match &rule.shape {
            Shape::Ref(t) => vec![*t],
            Shape::Choice(options) => options.clone(),
            _ => Vec::new(),
        }
    };
    // 0: not seen, 1: on the current path, 2: done.
    let mut state = vec![0u8; rules.len()];
    for start in 0..rules.len() {
        if state[start] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, Vec<usize>)> = vec![(start, next(&rules[start]))];
        state[start] = 1;
        while let Some((rule, pending)) = stack.last_mut() {
            let rule = *rule;
            match pending.pop() {
                Some(n) if state[n] == 1 => {
                    let pointer = (by_pointer.iter())
                        .find(|(_, id)| **id == n)
                        .map_or_else(String::new, |(p, _)| p.clone());
                    return Err(invalid(
                        &pointer,
                        "a `$ref` that leads back here without reading any deeper into the value",
                    ));
                }
                Some(n) if state[n] == 0 => {
                    state[n] = 1;
                    let more = next(&rules[n]);
                    stack.push((n, more));
                }
                Some(_) => {}
                None => {
                    state[rule] = 2;
                    stack.pop();
                }
            }
        }
    }
    Ok(())
}
