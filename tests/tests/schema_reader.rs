//! `Schema`: replies read against a JSON Schema known at run time, through the readers a
//! derived type calls. Each keyword by behaviour; invalid and hostile schemas; and the two
//! faces: a `Schema` built from `json_schema::<T>()` reads replies to the value `T` reads.

use llm_extract::{Category, Extract, Schema};
use proptest::prelude::*;
use serde::Serialize;
use serde_json::{json, Value};

fn schema(json: Value) -> Schema {
    Schema::new(&json).unwrap()
}

fn read(schema: &Schema, text: &str) -> Result<Value, llm_extract::Error> {
    llm_extract::from_str_with(schema, text)
}

#[test]
fn objects_read_as_a_derived_struct_reads() {
    let s = schema(json!({
        "type": "object",
        "properties": {
            "tool_name": {"type": "string", "x-aliases": ["tool", "name"]},
            "count": {"type": "integer"},
            "ratio": {"type": "number"},
            "ok": {"type": "boolean"},
            "mode": {"type": "string", "default": "fast"},
            "note": {"type": "string"}
        },
        "required": ["tool_name", "count"]
    }));
    assert!(s.unsupported().is_empty());
    let out = llm_extract::extract_with(
        &s,
        "Calling it now:\n```json\n{'Tool': 'search', COUNT: '3', ratio: '0.8', ok: 'yes', extra: 1,}\n```",
    )
    .unwrap();
    assert_eq!(
        out.value,
        json!({"tool_name": "search", "count": 3, "ratio": 0.8, "ok": true, "mode": "fast"})
    );
    let kinds: Vec<String> = (out.report.coercions.iter())
        .map(|c| format!("{:?} at {}", c.kind, c.path))
        .collect();
    for expected in [
        "AliasKey at $.tool_name",
        "DefaultUsed at $.mode",
        "UnknownKey at $.extra",
    ] {
        assert!(kinds.iter().any(|k| k == expected), "{expected}: {kinds:?}");
    }
    // Valid JSON is kept as written.
    assert_eq!(
        read(&s, r#"{"tool_name": "a", "count": 1, "ratio": 3}"#).unwrap(),
        json!({"tool_name": "a", "count": 1, "ratio": 3, "mode": "fast"})
    );
}

#[test]
fn a_missing_required_property_is_an_issue_with_path_and_position() {
    let s = schema(json!({
        "type": "object",
        "properties": {"items": {"type": "array", "items": {
            "type": "object",
            "properties": {"price": {"type": "number", "minimum": 0}},
            "required": ["price"]
        }}},
        "required": ["items"]
    }));
    let err = read(&s, "{\n  \"items\": [{\"price\": 1}, {\"price\": -2}]\n}").unwrap_err();
    assert_eq!(err.category(), Category::Validation);
    let issue = &err.issues()[0];
    assert_eq!(issue.path.to_string(), "$.items[1].price");
    assert_eq!(issue.position.map(|p| p.line), Some(2));
    let err = read(&s, "{\"items\": [{\"cost\": 1}]}").unwrap_err();
    assert!(err.to_string().contains("missing field `price`"), "{err}");
    // A required name no property declares is required all the same, and kept; `required`
    // alone makes an object schema (OpenAPI 2's boolean `required` on a property does not).
    let s = schema(json!({"type": "object", "properties": {"b": {}}, "required": ["a"]}));
    let err = read(&s, "{\"b\": 1}").unwrap_err();
    assert!(err.to_string().contains("missing field `a`"), "{err}");
    assert_eq!(
        read(&s, "{\"b\": 1, \"a\": [2]}").unwrap(),
        json!({"b": 1, "a": [2]})
    );
    let only = schema(json!({"required": ["id"]}));
    assert!(read(&only, "{\"name\": \"x\"}").is_err());
    assert_eq!(
        read(&only, "{\"id\": 7, \"name\": \"x\"}").unwrap(),
        json!({"id": 7, "name": "x"})
    );
    let openapi2 = schema(json!({"type": "object", "properties": {
        "n": {"type": "string", "required": true}
    }}));
    assert_eq!(
        read(&openapi2, "{\"n\": \"x\"}").unwrap(),
        json!({"n": "x"})
    );
}

#[test]
fn additional_properties_false_true_and_a_schema() {
    let denied = schema(json!({
        "type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": false
    }));
    let err = read(&denied, r#"{"a": 1, "b": 2}"#).unwrap_err();
    assert!(err.to_string().contains("unknown field `b`"), "{err}");
    let kept = schema(json!({
        "type": "object", "properties": {"a": {"type": "integer"}},
        "additionalProperties": {"type": "integer"}
    }));
    assert_eq!(
        read(&kept, r#"{"a": 1, "b": "2"}"#).unwrap(),
        json!({"a": 1, "b": 2})
    );
    let map = schema(json!({"type": "object"}));
    assert_eq!(
        read(&map, r#"{"x": [1], "y": null}"#).unwrap(),
        json!({"x": [1], "y": null})
    );
}

#[test]
fn enum_const_and_fuzzy_values() {
    let s = schema(json!({"type": "string", "enum": ["positive", "negative", "neutral"]}));
    assert_eq!(
        read(&s, "The sentiment is NEGATIVE.").unwrap(),
        json!("negative")
    );
    assert_eq!(read(&s, "\"Positive\"").unwrap(), json!("positive"));
    let err = read(&s, "\"bad\"").unwrap_err();
    assert_eq!(err.category(), Category::Variant);
    let numbers = schema(json!({"enum": [1, 2, null]}));
    assert_eq!(read(&numbers, "[2]").unwrap(), json!(2));
    assert!(read(&numbers, "3").is_err());
    let c = schema(json!({"type": "object", "properties": {"kind": {"const": "circle"}}}));
    assert_eq!(
        read(&c, "{kind: 'Circle'}").unwrap(),
        json!({"kind": "circle"})
    );
    // An allowed value that is itself a list of one is the list as written; numbers are equal
    // by value at any depth (the JSON Schema test suite's `const` and `enum` cases).
    let lists = schema(json!({"enum": [[false], [{"a": 1}]]}));
    assert_eq!(read(&lists, "[false]").unwrap(), json!([false]));
    assert_eq!(read(&lists, "[{\"a\": 1.0}]").unwrap(), json!([{"a": 1}]));
    assert!(read(&lists, "[0]").is_err());
    let one = schema(json!({"const": [{"foo": "bar"}]}));
    assert_eq!(
        read(&one, "[{\"foo\": \"bar\"}]").unwrap(),
        json!([{"foo": "bar"}])
    );
    assert_eq!(
        read(&schema(json!({"enum": [[1]]})), "[1.0]").unwrap(),
        json!([1])
    );
}

#[test]
fn any_of_is_read_by_lowest_cost() {
    let wrapped =
        |schema: &Value| self::schema(json!({"type": "object", "properties": {"v": schema}}));
    for s in [
        wrapped(&json!({"anyOf": [{"type": "integer"}, {"type": "string"}]})),
        wrapped(&json!({"type": ["integer", "string"]})),
    ] {
        // "42" fits a string as written, and an integer only by a coercion.
        assert_eq!(read(&s, "{\"v\": \"42\"}").unwrap(), json!({"v": "42"}));
        assert_eq!(read(&s, "{\"v\": 42}").unwrap(), json!({"v": 42}));
    }
    let shapes = schema(json!({"oneOf": [
        {"type": "object", "properties": {"radius": {"type": "number"}}, "required": ["radius"]},
        {"type": "object", "properties": {"side": {"type": "number"}}, "required": ["side"]}
    ]}));
    assert_eq!(read(&shapes, "{side: 2}").unwrap(), json!({"side": 2}));
    assert_eq!(
        read(&shapes, "{Radius: '1.5'}").unwrap(),
        json!({"radius": 1.5})
    );
    // A `type` beside the options holds for each of them: 3 is read as the string "3".
    let typed = schema(json!({"type": "string", "anyOf": [{"maxLength": 2}, {"minLength": 4}]}));
    assert_eq!(read(&typed, "3").unwrap(), json!("3"));
    assert!(read(&typed, "\"foo\"").is_err());
    let formats =
        schema(json!({"type": "string", "oneOf": [{"format": "email"}, {"format": "uri"}]}));
    assert_eq!(
        read(&formats, "\"ada@example.com\"").unwrap(),
        json!("ada@example.com")
    );
    assert!(read(&formats, "42").is_err());
}

#[test]
fn refs_defs_and_recursion() {
    let tree = schema(json!({
        "$ref": "#/$defs/Node",
        "$defs": {"Node": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
            },
            "required": ["name"]
        }}
    }));
    let text = "{name: 'a', children: [{name: 'b', children: [{name: 'c'}]}]}";
    assert_eq!(
        read(&tree, text).unwrap(),
        json!({"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]})
    );
    // Deep input is read without overflowing the stack, up to the depth limit.
    let deep = "{\"name\": \"x\", \"children\": [".repeat(60) + &"]}".repeat(60);
    assert!(read(&tree, &deep).is_ok());
}

#[test]
fn invalid_schemas_say_where() {
    for (bad, pointer) in [
        (json!({"type": "strin"}), "#/type"),
        (
            json!({"properties": {"a": {"minLength": -1}}}),
            "#/properties/a/minLength",
        ),
        (
            json!({"properties": {"a": {"$ref": "#/$defs/Nope"}}}),
            "#/properties/a/$ref",
        ),
        (json!({"pattern": "("}), "#/pattern"),
        (json!({"items": 3}), "#/items"),
        (json!({"$ref": "#"}), "#"),
        (
            json!({"anyOf": [{"$ref": "#/$defs/A"}], "$defs": {"A": {"$ref": "#"}}}),
            "#",
        ),
        (json!({"$ref": "https://example.com/s.json"}), "#/$ref"),
    ] {
        let err = Schema::new(&bad).unwrap_err();
        assert!(
            err.to_string()
                .contains(&format!("invalid schema at {pointer}")),
            "{bad}: {err}"
        );
        assert_eq!(err.category(), Category::Other);
    }
}

#[test]
fn unsupported_keywords_are_listed() {
    let s = schema(json!({
        "type": "object",
        "properties": {"n": {"type": "integer", "multipleOf": 3}, "s": {"type": "string", "format": "hostname"}},
        "patternProperties": {"^x": {}},
        "x-vendor": true
    }));
    let listed: Vec<String> = s.unsupported().iter().map(ToString::to_string).collect();
    assert_eq!(
        listed,
        [
            "keyword `patternProperties` at #/patternProperties is not checked",
            "keyword `multipleOf` at #/properties/n/multipleOf is not checked",
            "keyword `format: hostname` at #/properties/s/format is not checked",
        ]
    );
}

/// A schema that takes any value reads what `serde_json::Value` reads: prose is not a value.
#[test]
fn a_schema_of_any_value_does_not_take_prose() {
    for any in [json!({}), json!(true), json!({"description": "anything"})] {
        let s = schema(any);
        let err = read(&s, "Sorry, I cannot help with that.").unwrap_err();
        assert_eq!(err.category(), Category::NotFound);
        assert!(llm_extract::from_str::<Value>("Sorry, I cannot help with that.").is_err());
        assert_eq!(read(&s, "Here: {a: 1}").unwrap(), json!({"a": 1}));
    }
    // A string schema does take it, as a `String` does.
    let s = schema(json!({"type": "string"}));
    assert_eq!(read(&s, "Sorry.").unwrap(), json!("Sorry."));
}

#[test]
fn nullable_and_null_in_a_type_list() {
    for field in [
        json!({"type": "string", "nullable": true}),
        json!({"type": ["string", "null"]}),
    ] {
        let s = schema(json!({"type": "object", "properties": {"a": field}, "required": ["a"]}));
        assert_eq!(read(&s, "{\"a\": null}").unwrap(), json!({"a": null}));
        assert_eq!(read(&s, "{\"a\": \"N/A\"}").unwrap(), json!({"a": null}));
        assert_eq!(read(&s, "{\"a\": \"x\"}").unwrap(), json!({"a": "x"}));
        assert!(read(&s, "{\"a\": [1, 2]}").is_err());
    }
}

#[test]
fn checks_run_with_the_derive_messages() {
    let s = schema(json!({
        "type": "object",
        "properties": {
            "code": {"type": "string", "pattern": "^[A-Z]{3}$", "minLength": 3, "maxLength": 3},
            "n": {"type": "integer", "minimum": 1, "exclusiveMaximum": 10},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2},
            "when": {"type": "string", "format": "date"},
            "id": {"type": "string", "format": "uuid"},
            "small": {"type": "integer", "format": "uint8"}
        }
    }));
    assert!(read(&s, r#"{"code": "ABC", "n": 9, "tags": ["a"], "when": "2024-02-29", "id": "123e4567-e89b-12d3-a456-426614174000", "small": 255}"#).is_ok());
    for (bad, says) in [
        (
            r#"{"code": "abc"}"#,
            "does not match the pattern ^[A-Z]{3}$",
        ),
        (r#"{"code": "ABCD"}"#, "more than the maximum 3"),
        (r#"{"n": 0}"#, "0 is less than the minimum 1"),
        (r#"{"n": 10}"#, "not less than the exclusive maximum 10"),
        (r#"{"tags": []}"#, "fewer than the minimum 1"),
        (r#"{"tags": ["a", "b", "c"]}"#, "more than the maximum 2"),
        (r#"{"when": "2024-13-01"}"#, "is not a valid date"),
        (r#"{"id": "nope"}"#, "is not a valid uuid"),
        (r#"{"small": 256}"#, "is not a uint8"),
    ] {
        let err = read(&s, bad).unwrap_err();
        assert_eq!(err.category(), Category::Validation, "{bad}: {err}");
        assert!(err.to_string().contains(says), "{bad}: {err}");
    }
}

#[test]
fn prefix_items_and_all_of() {
    let pair = schema(
        json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "minItems": 2}),
    );
    assert_eq!(read(&pair, "['a', '2']").unwrap(), json!(["a", 2]));
    assert!(read(&pair, "['a']").is_err());
    let merged = schema(json!({
        "allOf": [
            {"$ref": "#/$defs/Named"},
            {"type": "object", "properties": {"age": {"type": "integer"}}, "required": ["age"]}
        ],
        "$defs": {"Named": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}
    }));
    assert_eq!(
        read(&merged, "{name: 'Ada', age: '36'}").unwrap(),
        json!({"name": "Ada", "age": 36})
    );
    assert!(read(&merged, "{name: 'Ada'}").is_err());
}

/// A number too large for an `f64` is no number a schema's `number` takes: not read as `null`.
#[test]
fn a_number_beyond_f64_is_not_read_as_null() {
    // With `arbitrary_precision`, a JSON number holds it as written.
    let refused_or_number = |got: &Result<Value, llm_extract::Error>, at: &str| match got {
        Ok(v) => {
            cfg!(feature = "arbitrary_precision") && v.pointer(at).is_some_and(Value::is_number)
        }
        Err(_) => true,
    };
    let n = schema(json!({"type": "number"}));
    for text in ["1e400", "-1e400", "The value: 1e400.", "{\"x\": 1e400}"] {
        let got = read(&n, text);
        assert!(refused_or_number(&got, ""), "{text}: {got:?}");
    }
    let field = schema(json!({"type": "object", "properties": {"x": {"type": "number"}}}));
    for text in ["{\"x\": 1e400}", "{x: 1e400}"] {
        let got = read(&field, text);
        assert!(refused_or_number(&got, "/x"), "{text}: {got:?}");
    }
    let any = schema(json!({"type": "object", "properties": {"x": {}}}));
    assert!(read(&any, "{\"x\": 1e400}").is_ok());
}

/// An `allOf` that takes itself in (through a `$ref` back to its own schema, directly or by a
/// cycle of definitions) is refused as a `$ref` cycle is, not merged until the stack runs out.
#[test]
fn an_all_of_that_includes_itself_is_refused() {
    for (bad, pointer) in [
        (json!({"allOf": [{"$ref": "#"}]}), "#"),
        (
            json!({"type": "object", "properties": {"x": {"type": "integer"}}, "allOf": [{"$ref": "#"}]}),
            "#",
        ),
        (
            json!({
                "$defs": {"A": {"allOf": [{"$ref": "#/$defs/B"}]}, "B": {"allOf": [{"$ref": "#/$defs/A"}]}},
                "$ref": "#/$defs/A"
            }),
            "#/$defs/A",
        ),
    ] {
        let err = Schema::new(&bad).unwrap_err();
        assert!(
            err.to_string()
                .contains(&format!("invalid schema at {pointer}")),
            "{bad}: {err}"
        );
    }
}

/// Two `allOf` members that both describe one property: the value must fit both.
#[test]
fn all_of_members_on_one_property_both_hold() {
    let s = schema(json!({"allOf": [
        {"type": "object", "properties": {"age": {"type": "integer"}}, "required": ["age"]},
        {"properties": {"age": {"minimum": 18}}}
    ]}));
    assert_eq!(read(&s, "{\"age\": 30}").unwrap(), json!({"age": 30}));
    assert_eq!(read(&s, "{age: '30'}").unwrap(), json!({"age": 30}));
    let err = read(&s, "{\"age\": 5}").unwrap_err();
    assert!(err.to_string().contains("minimum"), "{err}");
    assert!(Schema::new(&json!({"allOf": [
        {"properties": {"a": {"type": "integer"}}},
        {"properties": {"a": {"type": "string"}}}
    ]}))
    .is_err());
    // Members that bring `allOf`s of their own: every schema in them holds.
    let s = schema(json!({
        "allOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}],
        "$defs": {
            "A": {"allOf": [{"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}]},
            "B": {"allOf": [{"properties": {"b": {"type": "string"}}, "required": ["b"]}]}
        }
    }));
    assert_eq!(
        read(&s, "{a: '1', b: 2}").unwrap(),
        json!({"a": 1, "b": "2"})
    );
    assert!(read(&s, "{\"a\": 1}").is_err());
}

/// Keywords beside an `anyOf`/`oneOf` hold for whichever option is read: the shared
/// `properties` and `required` of a union of objects are read, and checked, in each.
#[test]
fn properties_beside_a_choice_hold_in_every_option() {
    let s = schema(json!({
        "type": "object",
        "properties": {"kind": {"type": "string"}, "id": {"type": "integer"}},
        "required": ["kind", "id"],
        "oneOf": [
            {"properties": {"radius": {"type": "number"}}, "required": ["radius"]},
            {"properties": {"side": {"type": "number"}}, "required": ["side"]}
        ]
    }));
    assert_eq!(
        read(&s, "{kind: 'circle', id: '7', radius: 2}").unwrap(),
        json!({"kind": "circle", "id": 7, "radius": 2})
    );
    assert!(read(&s, "{\"kind\": \"square\", \"side\": 1}").is_err());
    let either = schema(json!({
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
        "anyOf": [{"required": ["a"]}, {"required": ["b"]}]
    }));
    assert_eq!(read(&either, "{\"a\": \"5\"}").unwrap(), json!({"a": 5}));
    assert_eq!(read(&either, "{\"b\": \"x\"}").unwrap(), json!({"b": "x"}));
    assert!(read(&either, "{\"c\": 1}").is_err());
    // Object and array keywords say nothing of an option of other types.
    let s = schema(json!({
        "properties": {"a": {"type": "integer"}},
        "items": {"type": "integer"},
        "anyOf": [{"type": "object"}, {"type": "array"}, {"type": "string"}]
    }));
    assert_eq!(read(&s, "\"abc\"").unwrap(), json!("abc"));
    assert_eq!(read(&s, "{\"a\": \"1\"}").unwrap(), json!({"a": 1}));
    assert_eq!(read(&s, "[\"1\"]").unwrap(), json!([1]));
    // An `enum` beside a choice: each option keeps to it.
    let s =
        schema(json!({"enum": ["a", "bb", "ccc"], "anyOf": [{"maxLength": 1}, {"minLength": 3}]}));
    assert_eq!(read(&s, "\"ccc\"").unwrap(), json!("ccc"));
    assert!(read(&s, "\"bb\"").is_err());
    assert!(read(&s, "\"dddd\"").is_err());
    // Choices inside the shared keywords of choices, level after level: compiled once each,
    // not once per option at every level.
    let mut nested = json!({"type": "integer"});
    for _ in 0..40 {
        nested = json!({
            "type": "object",
            "properties": {"p": nested},
            "anyOf": [{"required": ["p"]}, {"properties": {"q": {"type": "string"}}}]
        });
    }
    let started = std::time::Instant::now();
    assert!(Schema::new(&nested).is_ok());
    assert!(started.elapsed().as_secs() < 5);
    // Shared keywords copied into many options beyond a budget: an error, not a long compile.
    let values: Vec<Value> = (0..10_000).map(|i| json!(format!("v{i}"))).collect();
    let options: Vec<Value> = (0..1_000).map(|i| json!({"maxLength": i})).collect();
    let err = Schema::new(&json!({"enum": values, "anyOf": options})).unwrap_err();
    assert!(
        err.to_string().contains("invalid schema at #/anyOf"),
        "{err}"
    );
}

/// A `type` beside `enum` or `const` holds: a value the list allows but the type does not
/// is not read.
#[test]
fn enum_and_const_keep_to_the_type_beside_them() {
    let s = schema(json!({"type": "string", "enum": ["a", "b", 1, null]}));
    assert_eq!(read(&s, "\"a\"").unwrap(), json!("a"));
    assert!(read(&s, "1").is_err());
    assert!(read(&s, "null").is_err());
    let s = schema(json!({"type": ["integer", "null"], "enum": [1, 2.5, "1", null]}));
    assert_eq!(read(&s, "1").unwrap(), json!(1));
    assert_eq!(read(&s, "null").unwrap(), json!(null));
    assert!(read(&s, "2.5").is_err());
    let s = schema(json!({"type": "number", "enum": [1, 2.5]}));
    assert_eq!(read(&s, "2.5").unwrap(), json!(2.5));
    assert!(Schema::new(&json!({"type": "integer", "const": "3"})).is_err());
}

#[test]
fn hostile_schemas_are_refused_or_bounded() {
    // Nested deeper than the compiler allows.
    let mut deep = json!({"type": "string"});
    for _ in 0..500 {
        deep = json!({"type": "array", "items": deep});
    }
    assert!(Schema::new(&deep).is_err());
    // A huge enum compiles, and reads.
    let values: Vec<Value> = (0..20_000).map(|i| json!(format!("v{i}"))).collect();
    let s = schema(json!({"enum": values}));
    assert_eq!(read(&s, "\"v19999\"").unwrap(), json!("v19999"));
    // A catastrophic pattern for a backtracking engine is linear in the regex crate.
    let s = schema(json!({"type": "string", "pattern": "^(a+)+$"}));
    let long = format!("\"{}b\"", "a".repeat(100_000));
    let started = std::time::Instant::now();
    assert!(read(&s, &long).is_err());
    assert!(started.elapsed().as_secs() < 5);
}

/// Keywords written beside a `$ref` hold as well as the schema it names, as JSON Schema reads
/// them: `required`, `properties`, `enum`, `items`, an `allOf`, also where the `$ref` leads
/// back to the schema it is in.
#[test]
fn keywords_beside_a_ref_hold_with_it() {
    let defs = json!({
        "Person": {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}},
        "Word": {"type": "string"},
        "Node": {
            "type": "object",
            "properties": {
                "v": {"type": "integer"},
                "next": {"$ref": "#/$defs/Node", "required": ["v"]}
            }
        },
        "Tagged": {"$ref": "#/$defs/Person", "required": ["age"]}
    });
    let with = |schema: Value| {
        let mut schema = schema;
        schema["$defs"] = defs.clone();
        Schema::new(&schema).unwrap()
    };
    let s = with(json!({"$ref": "#/$defs/Person", "required": ["name"]}));
    assert_eq!(
        read(&s, r#"{"name": "Ada"}"#).unwrap(),
        json!({"name": "Ada"})
    );
    assert!(read(&s, r#"{"age": 3}"#).is_err());
    let s = with(
        json!({"$ref": "#/$defs/Person", "properties": {"email": {"type": "string"}}, "required": ["email"]}),
    );
    assert_eq!(
        read(&s, r#"{"name": "Ada", "email": "a@b.c"}"#).unwrap(),
        json!({"name": "Ada", "email": "a@b.c"})
    );
    assert!(read(&s, r#"{"name": "Ada"}"#).is_err());
    let s = with(json!({"$ref": "#/$defs/Word", "enum": ["yes", "no"]}));
    assert_eq!(read(&s, r#""yes""#).unwrap(), json!("yes"));
    assert!(read(&s, r#""maybe""#).is_err());
    let s = with(json!({"$ref": "#/$defs/Person", "allOf": [{"required": ["age"]}]}));
    assert!(read(&s, r#"{"name": "Ada"}"#).is_err());
    // A `$ref` whose target has keywords beside a `$ref` of its own.
    let s = with(json!({"$ref": "#/$defs/Tagged", "required": ["name"]}));
    assert!(read(&s, r#"{"name": "Ada"}"#).is_err());
    assert!(read(&s, r#"{"age": 1}"#).is_err());
    assert_eq!(
        read(&s, r#"{"name": "Ada", "age": 1}"#).unwrap(),
        json!({"name": "Ada", "age": 1})
    );
    // Recursive: every `next` needs its `v`, however deep.
    let s = with(json!({"$ref": "#/$defs/Node"}));
    let deep = r#"{"v": 1, "next": {"v": 2, "next": {"v": 3, "next": {"v": 4}}}}"#;
    assert_eq!(
        read(&s, deep).unwrap()["next"]["next"]["next"]["v"],
        json!(4)
    );
    assert!(read(
        &s,
        r#"{"v": 1, "next": {"v": 2, "next": {"next": {"v": 4}}}}"#
    )
    .is_err());
}

/// A `$ref` with keywords beside it takes in a copy of its target: the same one written in
/// many places is compiled once, and copies beyond a budget are an error, not a compile that
/// grows with the uses times the target's size.
#[test]
fn copies_of_ref_targets_are_bounded() {
    let big: serde_json::Map<String, Value> = (0..250)
        .map(|i| {
            (
                format!("field_{i}"),
                json!({"type": "string", "description": "x".repeat(20)}),
            )
        })
        .collect();
    // 5,000 uses of `Big`, each with `required` beside it: the same for all, or each its own.
    let uses = |same: bool| {
        let groups: serde_json::Map<String, Value> = (0..200)
            .map(|g| {
                let props: serde_json::Map<String, Value> = (0..25)
                    .map(|i| {
                        let own = format!("own_{g}_{i}");
                        let required = if same {
                            json!(["field_1"])
                        } else {
                            json!(["field_1", own])
                        };
                        (
                            format!("p{i}"),
                            json!({"$ref": "#/$defs/Big", "required": required}),
                        )
                    })
                    .collect();
                (
                    format!("g{g}"),
                    json!({"type": "object", "properties": props}),
                )
            })
            .collect();
        json!({"type": "object", "properties": groups, "$defs": {"Big": {"type": "object", "properties": big}}})
    };
    let s = Schema::new(&uses(true)).unwrap();
    assert!(read(&s, r#"{"g3": {"p7": {"field_1": "a"}}}"#).is_ok());
    assert!(read(&s, r#"{"g3": {"p7": {"field_2": "a"}}}"#).is_err());
    let err = Schema::new(&uses(false)).unwrap_err().to_string();
    assert!(err.contains("MiB"), "{err}");
}

/// A `pattern` means what JSON Schema (ECMA-262) says: `\d`, `\w` and `\b` are ASCII, and
/// inside a class `[`, `&` and `~` are themselves (the regex crate would read Unicode classes,
/// nested classes and set operations). Each case gives what JavaScript's `RegExp` gives, with
/// and without its `u` flag.
#[test]
fn patterns_read_their_classes_as_json_schema_does() {
    let cases = [
        // (pattern, string, matches)
        (r"^\d+$", "123", true),
        (r"^\d+$", "١٢٣", false),
        (r"^\w+$", "abc_9", true),
        (r"^\w+$", "café", false),
        (r"^\D+$", "١٢٣", true),
        (r"^\W$", "é", true),
        (r"^[\d.]+$", "1.5", true),
        (r"^[\d.]+$", "١.٥", false),
        (r"^[^\W]+$", "ab", true),
        (r"^[^\W]+$", "aé", false),
        (r"^[\w-]+$", "a-b_c", true),
        (r"\bcat\b", "écat", true),
        (r"\Bcat", "écat", false),
        (r"^[[]$", "[", true),
        (r"^[a&&b]+$", "a&b", true),
        (r"^[~~]$", "~", true),
        (r"^\\d$", "\\d", true),
        (r"^\[\d\]$", "[7]", true),
        (r"^\/api\/v\d$", "/api/v2", true),
    ];
    for (pattern, text, matches) in cases {
        let s = schema(json!({"type": "string", "pattern": pattern}));
        let reply = serde_json::to_string(text).unwrap();
        assert_eq!(
            read(&s, &reply).is_ok(),
            matches,
            "{pattern} on {text}: {:?}",
            read(&s, &reply)
        );
    }
}

// The two faces: a derived type and the schema derived from it read replies alike.

#[derive(Extract, Serialize, Debug, Clone, PartialEq)]
enum Status {
    Pending,
    Shipped,
    Delivered,
}

#[derive(Extract, Serialize, Debug, Clone, PartialEq)]
struct Item {
    name: String,
    #[extract(min = 1)]
    qty: u32,
    price: Option<f64>,
}

#[derive(Extract, Serialize, Debug, Clone, PartialEq)]
struct Order {
    order_id: u64,
    customer: String,
    items: Vec<Item>,
    note: Option<String>,
    status: Status,
    paid: bool,
    #[extract(min = 0.0, max = 1.0)]
    discount: f64,
    tags: Vec<String>,
}

fn status() -> impl Strategy<Value = Status> {
    prop_oneof![
        Just(Status::Pending),
        Just(Status::Shipped),
        Just(Status::Delivered)
    ]
}

fn item() -> impl Strategy<Value = Item> {
    let price = prop::option::of((0u32..100_000).prop_map(|c| f64::from(c) / 100.0));
    ("[A-Za-z ]{1,12}", 0u32..20, price).prop_map(|(name, qty, price)| Item { name, qty, price })
}

fn order() -> impl Strategy<Value = Order> {
    (
        any::<u32>(),
        "[A-Za-z ]{0,12}",
        prop::collection::vec(item(), 0..4),
        prop::option::of("[a-z ]{0,10}"),
        status(),
        any::<bool>(),
        (0u32..=120).prop_map(|p| f64::from(p) / 100.0),
        prop::collection::vec("[a-z]{1,6}", 0..3),
    )
        .prop_map(
            |(id, customer, items, note, status, paid, discount, tags)| Order {
                order_id: u64::from(id),
                customer,
                items,
                note,
                status,
                paid,
                discount,
                tags,
            },
        )
}

/// Damage a model does to a reply, applied to the value's JSON.
#[derive(Clone, Copy, Debug)]
enum Damage {
    None,
    /// Numbers written as strings.
    QuotedNumbers,
    /// Keys in upper case, enum values in lower case.
    Case,
    /// Single quotes, unquoted keys, a trailing comma, inside a fence with prose.
    Syntax,
    /// One list of one item written as the item.
    Bare,
}

fn damage(value: &Value, how: Damage) -> String {
    fn walk(v: &Value, how: Damage) -> Value {
        match v {
            Value::Number(n) if matches!(how, Damage::QuotedNumbers) => {
                Value::String(n.to_string())
            }
            Value::String(s) if matches!(how, Damage::Case) => {
                if ["Pending", "Shipped", "Delivered"].contains(&s.as_str()) {
                    Value::String(s.to_lowercase())
                } else {
                    v.clone()
                }
            }
            Value::Array(items) if matches!(how, Damage::Bare) && items.len() == 1 => {
                walk(&items[0], how)
            }
            Value::Array(items) => Value::Array(items.iter().map(|i| walk(i, how)).collect()),
            Value::Object(m) => Value::Object(
                m.iter()
                    .map(|(k, v)| {
                        let k = if matches!(how, Damage::Case) {
                            k.to_uppercase()
                        } else {
                            k.clone()
                        };
                        (k, walk(v, how))
                    })
                    .collect(),
            ),
            _ => v.clone(),
        }
    }
    let damaged = walk(value, how);
    match how {
        Damage::Syntax => {
            let text = serde_json::to_string_pretty(&damaged).unwrap();
            let text = text.replace('"', "'").replace("\n}", ",\n}");
            format!("Here is the order:\n```json\n{text}\n```\nAnything else?")
        }
        _ => serde_json::to_string(&damaged).unwrap(),
    }
}

/// Both sides as compared: members that are `null` are left out (a `Schema` leaves a
/// missing optional property out, `T` serializes its `None`), numbers as `f64`.
fn normalized(v: Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, normalized(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(normalized).collect()),
        Value::Number(n) => json!(n.as_f64()),
        other => other,
    }
}

fn damages() -> impl Strategy<Value = Damage> {
    prop_oneof![
        Just(Damage::None),
        Just(Damage::QuotedNumbers),
        Just(Damage::Case),
        Just(Damage::Syntax),
        Just(Damage::Bare),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any JSON as a schema (so any keyword, in any place) compiles or is refused, and a
    /// reply read against what compiles gives a value or an error: never a panic or a hang.
    #[test]
    fn any_schema_compiles_or_is_refused_and_reads_without_panic(
        schema_json in llm_extract_tests::strategies::json_value(),
        reply in llm_extract_tests::strategies::json_value(),
        text in ".{0,40}",
    ) {
        if let Ok(schema) = Schema::new(&schema_json) {
            let _ = llm_extract::extract_with(&schema, &reply.to_string());
            let _ = llm_extract::extract_with(&schema, &text);
        }
    }

    /// Random replies against schemas that recurse, choose and check.
    #[test]
    fn recursive_schemas_read_any_reply_without_panic(reply in llm_extract_tests::strategies::json_value()) {
        let schema = schema(json!({"anyOf": [
            {"type": "array", "items": {"$ref": "#"}, "maxItems": 3},
            {"type": ["integer", "string", "null"], "minimum": 0, "maxLength": 4},
            {"type": "object", "properties": {"a": {"$ref": "#"}}, "additionalProperties": {"$ref": "#"}},
            {"enum": ["x", 1, null]}
        ]}));
        let text = reply.to_string();
        let _ = llm_extract::extract_with(&schema, &text);
        for cut in (0..text.len()).filter(|c| text.is_char_boundary(*c)).step_by(7) {
            let _ = llm_extract::extract_with(&schema, &text[..cut]);
        }
    }

    #[test]
    fn a_schema_from_a_derived_type_reads_as_the_type(order in order(), how in damages()) {
        let schema = schema(llm_extract::json_schema::<Order>().to_value());
        let text = damage(&serde_json::to_value(&order).unwrap(), how);
        let typed = llm_extract::extract::<Order>(&text);
        let dynamic = llm_extract::extract_with(&schema, &text);
        match (typed, dynamic) {
            (Ok(t), Ok(d)) => {
                let t_value = normalized(serde_json::to_value(&t.value).unwrap());
                prop_assert_eq!(t_value, normalized(d.value), "{}", text);
                prop_assert_eq!(t.report.score, d.report.score, "{}", text);
            }
            (Err(t), Err(d)) => {
                prop_assert_eq!(t.category(), d.category(), "{}", text);
                let paths = |e: &llm_extract::Error| e.issues().iter().map(|i| i.path.to_string()).collect::<Vec<_>>();
                prop_assert_eq!(paths(&t), paths(&d), "{}", text);
            }
            (t, d) => prop_assert!(false, "{text}\ntyped: {t:?}\nschema: {d:?}"),
        }
    }
}

/// The property above is not vacuous: a clean and a damaged reply of a known order read
/// to the same value on both faces.
#[test]
fn both_faces_read_a_known_order() {
    let order = Order {
        order_id: 7,
        customer: "Ada".into(),
        items: vec![Item {
            name: "gear".into(),
            qty: 2,
            price: Some(1.5),
        }],
        note: None,
        status: Status::Shipped,
        paid: true,
        discount: 0.25,
        tags: vec!["x".into()],
    };
    let schema = schema(llm_extract::json_schema::<Order>().to_value());
    for how in [
        Damage::None,
        Damage::QuotedNumbers,
        Damage::Case,
        Damage::Syntax,
        Damage::Bare,
    ] {
        let text = damage(&serde_json::to_value(&order).unwrap(), how);
        let typed = llm_extract::from_str::<Order>(&text).unwrap();
        assert_eq!(typed, order, "{text}");
        let dynamic = llm_extract::from_str_with(&schema, &text).unwrap();
        assert_eq!(
            normalized(dynamic),
            normalized(serde_json::to_value(&order).unwrap()),
            "{text}"
        );
    }
}

/// Reads `text` against `schema` with the direct path and without it: the same value, the
/// same report, the same error.
fn same_on_both_paths(schema: &Schema, text: &str) {
    let direct = llm_extract::Extractor::new().extract_with(schema, text);
    let full = llm_extract::Extractor::new()
        .without_direct_path()
        .extract_with(schema, text);
    match (&direct, &full) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.value, b.value, "value of {text}");
            assert_eq!(
                serde_json::to_value(&a.report).unwrap(),
                serde_json::to_value(&b.report).unwrap(),
                "report of {text}"
            );
        }
        (Err(a), Err(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "error of {text}"),
        _ => panic!("the paths disagree on {text}:\ndirect: {direct:?}\nfull: {full:?}"),
    }
}

/// Schemas using every keyword the direct path reads itself or hands to the full path.
fn path_schemas() -> Vec<Schema> {
    let rich = json!({
        "type": "object",
        "properties": {
            "id": {"type": "integer", "minimum": 1},
            "name": {"type": "string", "minLength": 1, "maxLength": 20, "pattern": "^[A-Za-z ]+$"},
            "score": {"type": "number", "exclusiveMaximum": 100},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
            "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]},
            "mood": {"enum": ["happy", "sad", "{x}"]},
            "mixed": {"enum": [1, "one", null]},
            "note": {"type": "string", "nullable": true},
            "level": {"type": "integer", "default": 3},
            "kind": {"type": "string", "x-aliases": ["category"]},
            "when": {"type": "string", "format": "date"},
            "any": {},
            "either": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
            "flag": {"type": ["boolean", "null"]},
            "meta": {"type": "object", "additionalProperties": {"type": "integer"}},
            "child": {"$ref": "#"}
        },
        "required": ["id", "name"]
    });
    [
        rich,
        llm_extract::json_schema::<Order>().to_value(),
        json!({"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": false}),
        json!({"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": true}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}),
        json!({"type": "object"}),
        json!({"type": "array"}),
        json!({"type": "integer"}),
        json!({"type": "number", "minimum": 0}),
        json!({"type": ["string", "null"]}),
        json!({"anyOf": [
            {"type": "array", "items": {"$ref": "#"}, "maxItems": 3},
            {"type": ["integer", "string", "null"], "minimum": 0, "maxLength": 4},
            {"type": "object", "properties": {"a": {"$ref": "#"}}, "additionalProperties": {"$ref": "#"}},
            {"enum": ["x", 1, null]}
        ]}),
    ]
    .into_iter()
    .map(schema)
    .collect()
}

/// Strict documents, and the leniency the full path exists for, against each schema.
#[test]
fn the_direct_path_gives_what_the_full_path_gives() {
    let valid = r#"{"id": 7, "name": "Ada", "score": 9.5, "tags": ["a", "b"], "pair": [1, "x"], "mood": "happy", "mixed": "one", "note": null, "level": 2, "kind": "k", "when": "2024-01-02", "any": {"z": [1, null]}, "either": 3, "flag": true, "meta": {"b": 2, "a": 1}, "child": {"id": 8, "name": "Bo"}}"#;
    let mut texts = vec![valid.to_string()];
    for (from, to) in [
        (r#""id": 7"#, r#""id": 0"#),
        (r#""id": 7"#, r#""id": 7.0"#),
        (r#""id": 7"#, r#""id": 18446744073709551615"#),
        (r#""id": 7"#, r#""id": -9223372036854775808"#),
        (r#""id": 7"#, r#""id": "7""#),
        (r#""id": 7, "#, ""),
        (r#""id": 7"#, r#""id": 7, "id": 8"#),
        (r#""id": 7"#, r#""ID": 7"#),
        (r#""name": "Ada""#, r#""name": "Ada1""#),
        (r#""name": "Ada""#, r#""name": "A\u00e9\n""#),
        (r#""score": 9.5"#, r#""score": 100"#),
        (r#""score": 9.5"#, r#""score": 1e400"#),
        (r#""tags": ["a", "b"]"#, r#""tags": ["a", "b", "c", "d"]"#),
        (r#""tags": ["a", "b"]"#, r#""tags": "a""#),
        (r#""pair": [1, "x"]"#, r#""pair": [1, "x", {"q": 1}]"#),
        (r#""pair": [1, "x"]"#, r#""pair": ["1", 2]"#),
        (r#""mood": "happy""#, r#""mood": "HAPPY""#),
        (r#""mood": "happy""#, r#""mood": "{x}""#),
        (r#""mixed": "one""#, r#""mixed": 1"#),
        (r#""mixed": "one""#, r#""mixed": null"#),
        (r#""note": null"#, r#""note": "N/A""#),
        (r#""note": null"#, r#""note": """#),
        (r#""note": null"#, r#""note": "hi""#),
        (r#""level": 2, "#, ""),
        (r#""level": 2"#, r#""level": null"#),
        (r#""kind": "k""#, r#""category": "k""#),
        (r#""when": "2024-01-02""#, r#""when": "soon""#),
        (r#""either": 3"#, r#""either": "3""#),
        (r#""flag": true"#, r#""flag": null"#),
        (r#""flag": true"#, r#""flag": "yes""#),
        (r#""meta": {"b": 2, "a": 1}"#, r#""meta": {"b": 2, "b": 1}"#),
        (r#""meta": {"b": 2, "a": 1}"#, r#""meta": {"b": "2"}"#),
        (
            r#""child": {"id": 8, "name": "Bo"}"#,
            r#""child": {"id": 8}"#,
        ),
        (r#""child": {"id": 8, "name": "Bo"}"#, r#""child": null"#),
        (r#""any": {"z": [1, null]}"#, r#""extra": 1"#),
    ] {
        assert!(valid.contains(from), "{from}");
        texts.push(valid.replacen(from, to, 1));
    }
    texts.push(r#"{"result": {"id": 1, "name": "x"}}"#.into());
    for text in [
        "{}",
        "[]",
        "null",
        "3",
        "-0",
        "3.5",
        r#""s""#,
        r#""""#,
        "true",
        r#"{"a": 1}"#,
        r#"{"a": "1"}"#,
        r#"{"a": 1, "b": 2}"#,
        r#"[1, "a", null, [2], {"a": -1}]"#,
        r#"{"a": {"a": {"a": 5}}, "b": [1, 2, 3, 4]}"#,
        r#"[[[[1]]]]"#,
        r#"{"a": null}"#,
    ] {
        texts.push(text.to_string());
    }
    let order = Order {
        order_id: 7,
        customer: "Ada".into(),
        items: vec![Item {
            name: "gear".into(),
            qty: 2,
            price: None,
        }],
        note: Some("hi".into()),
        status: Status::Shipped,
        paid: true,
        discount: 0.25,
        tags: vec!["x".into()],
    };
    let order = serde_json::to_value(&order).unwrap();
    for how in [
        Damage::None,
        Damage::QuotedNumbers,
        Damage::Case,
        Damage::Syntax,
        Damage::Bare,
    ] {
        texts.push(damage(&order, how));
    }
    for schema in path_schemas() {
        for text in &texts {
            same_on_both_paths(&schema, text);
            same_on_both_paths(&schema, &format!("[{text}, {text}]"));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Random documents and generated orders read the same on both paths, against each schema.
    #[test]
    fn random_documents_read_the_same_on_both_paths(
        value in llm_extract_tests::strategies::json_value(),
        order in order(),
        how in damages(),
    ) {
        let order = damage(&serde_json::to_value(&order).unwrap(), how);
        for schema in path_schemas() {
            same_on_both_paths(&schema, &value.to_string());
            same_on_both_paths(&schema, &order);
        }
    }
}

/// A long chain of `$ref`s (each link compiled shallow: the properties name links from the
/// chain's end backwards, each within 100 links of one compiled) is read on the direct path
/// and on the full one without overflowing the stack, to one value.
#[test]
fn a_long_chain_of_refs_reads_on_both_paths() {
    const STEP: usize = 100;
    const LINKS: usize = STEP * 255;
    let mut defs = serde_json::Map::new();
    for i in 0..LINKS {
        defs.insert(
            format!("d{i}"),
            json!({"$ref": format!("#/$defs/d{}", i + 1)}),
        );
    }
    defs.insert(format!("d{LINKS}"), json!({"type": "integer"}));
    let mut props = serde_json::Map::new();
    for j in 0..=255 {
        let link = LINKS - STEP * j;
        props.insert(format!("p{j}"), json!({"$ref": format!("#/$defs/d{link}")}));
    }
    let s = schema(json!({"type": "object", "properties": props, "$defs": defs}));
    // `p255` is the chain's start: its value is read through every link.
    let reply = r#"{"p255": 1, "p0": 2}"#;
    assert_eq!(read(&s, reply).unwrap(), json!({"p0": 2, "p255": 1}));
    same_on_both_paths(&s, reply);
}

/// The keys of every object in `value`, in order, depth first (`Value`'s equality does not
/// look at the order of members).
fn key_order(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                out.extend(m.keys().cloned());
                stack.extend(m.values().rev());
            }
            Value::Array(items) => stack.extend(items.iter().rev()),
            _ => {}
        }
    }
    out
}

/// An object whose keys the schema does not name keeps the reply's order, on the full path
/// (also when the reply needs repair), the direct path and while streaming, every time.
#[test]
fn open_objects_keep_the_reply_order() {
    let keys: Vec<String> = (0..20).map(|i| format!("k{}", (i * 7) % 20)).collect();
    let members: Vec<String> = keys.iter().map(|k| format!("\"{k}\": 1")).collect();
    let open = format!("{{{}}}", members.join(", "));
    let schemas = [
        json!({"type": "object"}),
        json!({"type": "object", "additionalProperties": {"type": "integer"}}),
        json!({"type": "object", "properties": {"k3": {"type": "integer"}},
               "additionalProperties": true}),
        json!({"type": "object", "properties": {"inner": {"type": "object",
               "additionalProperties": {"type": "integer"}}}}),
    ];
    for (n, s) in schemas.iter().enumerate() {
        let s = schema(s.clone());
        let text = if n == 3 {
            format!("{{\"inner\": {open}}}")
        } else {
            open.clone()
        };
        let mut expected: Vec<String> = keys.clone();
        if n == 2 {
            // The property comes first, then the other keys as written.
            expected.retain(|k| k != "k3");
            expected.insert(0, "k3".into());
        }
        if n == 3 {
            expected.insert(0, "inner".into());
        }
        let repaired = format!("{}, }}", &text[..text.len() - 1]);
        for _ in 0..10 {
            for text in [&text, &repaired] {
                let direct = llm_extract::Extractor::new()
                    .extract_with(&s, text)
                    .unwrap();
                let full = llm_extract::Extractor::new()
                    .without_direct_path()
                    .extract_with(&s, text)
                    .unwrap();
                assert_eq!(
                    key_order(&direct.value),
                    expected,
                    "direct, schema {n}: {text}"
                );
                assert_eq!(key_order(&full.value), expected, "full, schema {n}: {text}");
                let mut stream = llm_extract::Extractor::new().stream_with(&s);
                for chunk in text.as_bytes().chunks(16) {
                    stream.push_bytes(chunk);
                    let snapshot = stream.snapshot();
                    let shown = key_order(&snapshot);
                    assert!(
                        expected.starts_with(&shown) || n == 2,
                        "snapshot, schema {n}: {shown:?}"
                    );
                }
                let finished = stream.finish().unwrap();
                assert_eq!(key_order(&finished.value), expected, "finish, schema {n}");
            }
        }
    }
}

#[derive(Extract, Serialize, Debug, Clone, PartialEq)]
struct Shipment {
    id: u32,
    status: Option<Status>,
}

/// An optional enum (`anyOf` of the enum and `null` in the schema): a value that is none of
/// the variants is the same `Variant` error on both faces (not a failed choice of two), and
/// every value that reads, reads alike.
fn optional_enum_alike(text: &str) -> Result<(), String> {
    let schema = schema(llm_extract::json_schema::<Shipment>().to_value());
    let typed = llm_extract::extract::<Shipment>(text);
    let dynamic = llm_extract::extract_with(&schema, text);
    match (typed, dynamic) {
        (Ok(t), Ok(d)) => {
            let t_value = normalized(serde_json::to_value(&t.value).unwrap());
            (t_value == normalized(d.value.clone()) && t.report.score == d.report.score)
                .then_some(())
                .ok_or(format!("{text}: typed {t_value}, schema {}", d.value))
        }
        (Err(t), Err(d)) => (t.category() == d.category() && t.to_string() == d.to_string())
            .then_some(())
            .ok_or(format!("{text}:\n typed  {t:?}\n schema {d:?}")),
        (t, d) => Err(format!("{text}\ntyped: {t:?}\nschema: {d:?}")),
    }
}

#[test]
fn an_optional_enum_fails_alike_on_both_faces() {
    for text in [
        r#"{"id": 1, "status": "Lost"}"#,
        r#"{"id": 1, "status": 7}"#,
        r#"{"id": 1, "status": ["Lost"]}"#,
        r#"{"id": 1, "status": {"Lost": null}}"#,
        r#"{"id": 1, "status": "pendingx"}"#,
    ] {
        let typed = llm_extract::extract::<Shipment>(text).unwrap_err();
        assert_eq!(typed.category(), Category::Variant, "{text}");
        optional_enum_alike(text).unwrap();
    }
    for text in [
        r#"{"id": 1, "status": "shipped"}"#,
        r#"{"id": 1, "status": null}"#,
        r#"{"id": 1, "status": "N/A"}"#,
        r#"{"id": 1}"#,
        r#"{"id": 1, "status": ["Pending"]}"#,
    ] {
        optional_enum_alike(text).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any value where an optional enum belongs reads alike, or fails alike, on both faces.
    #[test]
    fn an_optional_enum_reads_alike_on_both_faces(
        status in prop_oneof![
            "(Pending|Shipped|Delivered|pending|SHIPPED|N/A|null|none|Lost|[a-z]{1,8})"
                .prop_map(|s| json!(s)),
            Just(Value::Null),
            any::<i32>().prop_map(|n| json!(n)),
            "[A-Za-z]{1,8}".prop_map(|s| json!([s])),
        ],
    ) {
        let text = json!({"id": 1, "status": status}).to_string();
        prop_assert_eq!(optional_enum_alike(&text), Ok(()));
    }
}
