//! Table tests for every built-in matcher, including Jest's edge cases for JSON values:
//! missing vs null, key order, number identity, the empty string, non-strings to `toMatch`.

use llm_extract::assert::{evaluate_assertions, Assertion, Outcome, Registry};
use serde_json::{json, Value};

use Outcome::{Error as E, Fail as F, Pass as P};

/// `None` as the actual value means undefined: the path resolves to nothing.
fn outcome(matcher: &str, expected: Option<Value>, actual: Option<Value>) -> Outcome {
    let doc = match actual {
        Some(v) => json!({ "v": v }),
        None => json!({}),
    };
    let mut assertion = Assertion::new("$.v", matcher);
    assertion.expected = expected;
    let evaluation = evaluate_assertions(&doc, &[assertion]);
    assert_eq!(evaluation.results.len(), 1);
    evaluation.results[0].outcome
}

fn table(matcher: &str, rows: &[(Option<Value>, Option<Value>, Outcome)]) {
    for (i, (expected, actual, want)) in rows.iter().enumerate() {
        let got = outcome(matcher, expected.clone(), actual.clone());
        assert_eq!(
            got, *want,
            "{matcher} row {i}: expected {expected:?}, actual {actual:?}"
        );
        // `not` swaps pass and fail and never turns an error into a pass.
        let mut negated = Assertion::new("$.v", matcher).negate();
        negated.expected = expected.clone();
        let doc = actual.as_ref().map_or(json!({}), |v| json!({ "v": v }));
        assert_eq!(
            evaluate_assertions(&doc, &[negated]).results[0].outcome,
            want.negate(),
            "not {matcher} row {i}"
        );
    }
}

fn s(v: Value) -> Option<Value> {
    Some(v)
}

const UNDEFINED: Option<Value> = None;

#[test]
fn to_equal() {
    table(
        "toEqual",
        &[
            (s(json!(1)), s(json!(1)), P),
            (s(json!(1)), s(json!(1.0)), P),
            (s(json!(1.0)), s(json!(1)), P),
            (s(json!(1)), s(json!("1")), F),
            (
                s(json!(9007199254740992u64)),
                s(json!(9007199254740993u64)),
                F,
            ),
            (
                s(json!({"a": 1, "b": [1, {"c": null}]})),
                s(json!({"b": [1, {"c": null}], "a": 1})),
                P,
            ),
            (s(json!([1, 2])), s(json!([2, 1])), F),
            (s(json!(null)), s(json!(null)), P),
            (s(json!(null)), UNDEFINED, F),
            (s(json!({})), s(json!({"a": null})), F),
            (s(json!({"a": null})), s(json!({})), F),
            (s(json!([])), s(json!({})), F),
            (s(json!(true)), s(json!(1)), F),
            (s(json!("")), s(json!("")), P),
            (s(json!("abc")), s(json!("ABC")), F),
        ],
    );
}

#[test]
fn to_be_null() {
    table(
        "toBeNull",
        &[
            (None, s(json!(null)), P),
            (None, UNDEFINED, F),
            (None, s(json!(0)), F),
            (None, s(json!("")), F),
            (None, s(json!("null")), F),
            (None, s(json!(false)), F),
            (None, s(json!([])), F),
        ],
    );
}

#[test]
fn to_be_defined_and_undefined() {
    table(
        "toBeDefined",
        &[
            (None, s(json!(null)), P),
            (None, s(json!(0)), P),
            (None, UNDEFINED, F),
        ],
    );
    table(
        "toBeUndefined",
        &[(None, s(json!(null)), F), (None, UNDEFINED, P)],
    );
}

#[test]
fn to_contain() {
    let ci = |t: &str| s(json!({"value": t, "caseInsensitive": true}));
    table(
        "toContain",
        &[
            (s(json!("world")), s(json!("hello world")), P),
            (s(json!("")), s(json!("hello")), P),
            (s(json!("")), s(json!("")), P),
            (s(json!("hello")), s(json!("Hello")), F),
            (ci("HELLO"), s(json!("well, hello there")), P),
            (s(json!({"value": "HELLO"})), s(json!("hello")), F),
            (ci("straße"), s(json!("STRASSE street")), F),
            (ci("ÉTÉ"), s(json!("un été")), P),
            (s(json!(2)), s(json!([1, 2, 3])), P),
            (s(json!(2.0)), s(json!([1, 2, 3])), P),
            (s(json!(4)), s(json!([1, 2, 3])), F),
            (s(json!(1)), s(json!([])), F),
            (s(json!({"a": 1, "b": 2})), s(json!([{"b": 2, "a": 1}])), P),
            (s(json!({"a": 1})), s(json!([{"b": 2, "a": 1}])), F),
            (s(json!([1])), s(json!([[1], [2]])), P),
            (s(json!(null)), s(json!([null])), P),
            (ci("ready"), s(json!(["READY"])), P),
            (s(json!("a")), s(json!(["abc"])), F),
            (s(json!("4")), s(json!(42)), E),
            (s(json!(1)), s(json!("a1b")), E),
            (s(json!("a")), s(json!({"a": 1})), E),
            (s(json!("a")), s(json!(null)), E),
            (s(json!("a")), UNDEFINED, E),
        ],
    );
}

#[test]
fn to_match() {
    table(
        "toMatch",
        &[
            (s(json!("/[A-Z][a-z]+/")), s(json!("bob")), F),
            (s(json!("/[A-Z][a-z]+/")), s(json!("Bob")), P),
            (s(json!("/^bob$/i")), s(json!("BOB")), P),
            (s(json!("^bob$")), s(json!("BOB")), F),
            (s(json!("/^b$/m")), s(json!("a\nb")), P),
            (s(json!("/^b$/")), s(json!("a\nb")), F),
            (s(json!("/a.b/")), s(json!("a\nb")), F),
            (s(json!("/a.b/s")), s(json!("a\nb")), P),
            (
                s(json!({"source": "^caf.$", "flags": "u"})),
                s(json!("café")),
                P,
            ),
            (s(json!({"source": "^\\d{3}$"})), s(json!("123")), P),
            // JavaScript's classes: `\d` and `\w` are ASCII, `[` in a class is itself.
            (s(json!("/^\\d+$/")), s(json!("١٢٣")), F),
            (s(json!("/^\\w+$/u")), s(json!("café")), F),
            (s(json!("/^[\\w.]+$/")), s(json!("a.b_1")), P),
            (s(json!("/^[[]$/")), s(json!("[")), P),
            (s(json!("/^$/")), s(json!("")), P),
            (s(json!("/4/")), s(json!(42)), E),
            (s(json!("/null/")), s(json!(null)), E),
            (s(json!("/a/")), s(json!(["a"])), E),
            (s(json!("/a/")), UNDEFINED, E),
        ],
    );
}

#[test]
fn to_be_one_of() {
    table(
        "toBeOneOf",
        &[
            (s(json!(["READY", "PENDING"])), s(json!("READY")), P),
            (s(json!(["READY", "PENDING"])), s(json!("DONE")), F),
            (s(json!(["READY"])), s(json!("ready")), F),
            (s(json!([1.0, 2])), s(json!(1)), P),
            (s(json!([{"a": 1, "b": 2}])), s(json!({"b": 2, "a": 1})), P),
            (s(json!([[1, 2]])), s(json!([2, 1])), F),
            (s(json!([null])), s(json!(null)), P),
            (s(json!([null])), UNDEFINED, F),
        ],
    );
}

#[test]
fn numeric_comparisons() {
    table(
        "toBeGreaterThan",
        &[
            (s(json!(3)), s(json!(5)), P),
            (s(json!(3)), s(json!(3)), F),
            (s(json!(3)), s(json!(3.0)), F),
            (s(json!(3)), s(json!(3.5)), P),
            (s(json!(-1)), s(json!(u64::MAX)), P),
            (s(json!(3)), s(json!("5")), E),
            (s(json!(3)), s(json!(null)), E),
            (s(json!(3)), UNDEFINED, E),
        ],
    );
    table(
        "toBeLessThan",
        &[
            (s(json!(3)), s(json!(2)), P),
            (s(json!(3)), s(json!(3)), F),
            (s(json!(0.5)), s(json!(0.25)), P),
        ],
    );
    table(
        "toBeGreaterThanOrEqual",
        &[
            (s(json!(3)), s(json!(3)), P),
            (s(json!(3)), s(json!(2.999)), F),
        ],
    );
    table(
        "toBeLessThanOrEqual",
        &[
            (s(json!(3)), s(json!(3.0)), P),
            (s(json!(3)), s(json!(4)), F),
        ],
    );
}

#[test]
fn to_be_close_to() {
    table(
        "toBeCloseTo",
        &[
            (s(json!(0.3)), s(json!(0.1 + 0.2)), P),
            (s(json!(0.3)), s(json!(0.31)), F),
            (s(json!(0.3)), s(json!(0.304)), P),
            (s(json!({"value": 0.3, "numDigits": 1})), s(json!(0.34)), P),
            (
                s(json!({"value": 0.3, "numDigits": 5})),
                s(json!(0.30001)),
                F,
            ),
            (s(json!(5)), s(json!(5)), P),
            (s(json!(0.3)), s(json!("0.3")), E),
            (s(json!(0.3)), UNDEFINED, E),
        ],
    );
}

#[test]
fn to_have_length() {
    table(
        "toHaveLength",
        &[
            (s(json!(5)), s(json!("héllo")), P),
            (s(json!(3)), s(json!("ab")), F),
            (s(json!(0)), s(json!("")), P),
            (s(json!(3)), s(json!([1, 2, 3])), P),
            (s(json!(0)), s(json!([])), P),
            (s(json!(1)), s(json!({"a": 1})), E),
            (s(json!(1)), s(json!(5)), E),
            (s(json!(0)), UNDEFINED, E),
        ],
    );
}

#[test]
fn to_be_type() {
    table(
        "toBeType",
        &[
            (s(json!("string")), s(json!("x")), P),
            (s(json!("string")), s(json!(1)), F),
            (s(json!("number")), s(json!(1.5)), P),
            (s(json!("integer")), s(json!(1)), P),
            (s(json!("integer")), s(json!(1.0)), P),
            (s(json!("integer")), s(json!(1.5)), F),
            (s(json!("boolean")), s(json!(false)), P),
            (s(json!("null")), s(json!(null)), P),
            (s(json!("object")), s(json!(null)), F),
            (s(json!("array")), s(json!([])), P),
            (s(json!("object")), s(json!([])), F),
            (s(json!("object")), s(json!({})), P),
            (s(json!("undefined")), UNDEFINED, P),
            (s(json!("null")), UNDEFINED, F),
        ],
    );
}

#[test]
fn to_match_schema() {
    let schema = json!({
        "type": "object",
        "required": ["name"],
        "properties": {"name": {"type": "string", "pattern": "^[A-Z]"}, "age": {"type": "integer", "minimum": 0}}
    });
    table(
        "toMatchSchema",
        &[
            (s(schema.clone()), s(json!({"name": "Ada", "age": 36})), P),
            (s(schema.clone()), s(json!({"name": "ada"})), F),
            (s(schema.clone()), s(json!({"age": 36})), F),
            (s(schema.clone()), s(json!({"name": "Ada", "age": -1})), F),
            (s(schema.clone()), s(json!("Ada")), F),
            (s(schema), UNDEFINED, F),
            (s(json!(true)), s(json!(1)), P),
            (s(json!(false)), s(json!(1)), F),
        ],
    );
    let e = evaluate_assertions(
        &json!({"age": "old"}),
        &[Assertion::new("$", "toMatchSchema")
            .expected(json!({"properties": {"age": {"type": "integer"}}}))],
    );
    let message = e.results[0].message.as_deref().unwrap();
    assert!(
        message.starts_with(
            "$ toMatchSchema <schema> expected a valid value, got {\"age\":\"old\"}: /age: "
        ),
        "{message}"
    );
    assert!(message.contains("integer"), "{message}");
}

/// `{"items": {"items": ... {}}}`, the innermost `levels` below the root, built without
/// recursion.
fn nested_schema(levels: usize) -> Value {
    let mut schema = json!({});
    for _ in 0..levels {
        let mut map = serde_json::Map::new();
        map.insert("items".into(), schema);
        schema = Value::Object(map);
    }
    schema
}

/// Takes a `serde_json::Value` apart without recursion (its own drop recurses).
fn dispose(value: Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// An `expected` nested past the limit is refused before anything recurses over it (the
/// assertion's compiling clones it, the schema compiler reads it): a 50,000-level schema
/// overflowed the stack.
#[test]
fn an_expected_nested_past_the_depth_limit_is_an_error() {
    let mut a = Assertion::new("$", "toMatchSchema").expected(nested_schema(50_000));
    let e = evaluate_assertions(&json!([1]), std::slice::from_ref(&a));
    assert_eq!(e.results[0].outcome, Outcome::Error);
    let message = e.results[0].message.as_deref().unwrap_or("");
    assert!(
        message.contains("`expected` nests deeper than 256 levels"),
        "{message}"
    );
    dispose(a.expected.take().unwrap());
    // One level past the limit.
    let a = Assertion::new("$", "toEqual").expected(nested_schema(257));
    let err = Registry::new().compile(&a).map(|_| ()).unwrap_err();
    assert_eq!(err.issues()[0].category, llm_extract::Category::TooDeep);
}

/// A schema at the depth limit is compiled and checked on a test thread's stack.
#[test]
fn a_schema_nested_to_the_depth_limit_is_checked() {
    let mut value = json!(1);
    for _ in 0..100 {
        value = json!([value]);
    }
    let schema = nested_schema(256); // the limit
    let a = Assertion::new("$", "toMatchSchema").expected(schema);
    assert!(evaluate_assertions(&value, &[a]).passed);
}

/// Bad arguments are caught when the assertion is loaded, each naming the field at fault.
#[test]
fn invalid_assertions_are_rejected_at_load_time() {
    let registry = Registry::new();
    let rows: &[(&str, &str, Option<Value>, &str)] = &[
        (
            "$.v",
            "toEqul",
            s(json!(1)),
            "$.matcher: unknown matcher `toEqul`; did you mean `toEqual`?",
        ),
        ("$.v", "tomatch", s(json!("/a/")), "did you mean `toMatch`?"),
        (
            "items.0",
            "toEqual",
            s(json!(1)),
            "$.path: invalid JSONPath `$.items.0`",
        ),
        (
            "$.v",
            "toEqual",
            None,
            "$.expected: `toEqual` needs `expected`",
        ),
        ("$.v", "toContain", None, "`toContain` needs `expected`"),
        ("$.v", "toMatch", s(json!(42)), "expected a pattern string"),
        (
            "$.v",
            "toMatch",
            s(json!("/a/g")),
            "unsupported regex flag `g`",
        ),
        (
            "$.v",
            "toMatch",
            s(json!("/(?<=a)b/")),
            "look-behind `(?<=`",
        ),
        (
            "$.v",
            "toMatch",
            s(json!("/(a)\\1/")),
            "backreference `\\1`",
        ),
        (
            "$.v",
            "toMatch",
            s(json!("/(a/")),
            "invalid regex: unclosed group",
        ),
        (
            "$.v",
            "toMatch",
            s(json!({"source": "a", "flag": "i"})),
            "unknown key `flag`",
        ),
        (
            "$.v",
            "toBeOneOf",
            s(json!("READY")),
            "`toBeOneOf`: expected a list of options, got string",
        ),
        ("$.v", "toBeOneOf", s(json!([])), "non-empty"),
        (
            "$.v",
            "toBeGreaterThan",
            s(json!("3")),
            "expected a number, got string",
        ),
        ("$.v", "toHaveLength", s(json!(-1)), "non-negative integer"),
        (
            "$.v",
            "toBeType",
            s(json!("str")),
            "expected one of string, number",
        ),
        (
            "$.v",
            "toBeCloseTo",
            s(json!({"value": 1, "numDigits": "x"})),
            "`numDigits` must be an integer",
        ),
        (
            "$.v",
            "toMatchSchema",
            s(json!({"type": 12})),
            "invalid JSON Schema",
        ),
        (
            "$.v",
            "toMatchSchema",
            s(json!("object")),
            "expected a JSON Schema object",
        ),
    ];
    for (path, matcher, expected, needle) in rows {
        let mut a = Assertion::new(*path, *matcher);
        a.expected = expected.clone();
        let err = registry.compile(&a).unwrap_err().to_string();
        assert!(err.contains(needle), "{matcher} {expected:?}: {err}");
        // Evaluating it anyway gives an error result, not a panic and not a pass.
        let e = evaluate_assertions(&json!({"v": 1}), &[a]);
        assert_eq!(e.results[0].outcome, Outcome::Error);
        assert!(e.results[0]
            .message
            .as_deref()
            .unwrap()
            .starts_with("invalid assertion: "));
    }
    // Every problem of one assertion is reported, not only the first.
    let err = registry
        .compile(&Assertion::new("a..", "nope"))
        .unwrap_err();
    assert_eq!(err.issues().len(), 2, "{err}");
    // A no-argument matcher given `expected` is the wrong arity, not silently passed.
    let err = registry
        .compile(&Assertion::new("$", "toBeDefined").expected(1))
        .unwrap_err();
    assert!(err.to_string().contains("wrong arity"), "{err}");
    assert_eq!(err.issues()[0].path.to_string(), "$.expected");
}

#[test]
fn a_present_null_expected_is_an_argument() {
    let a: Assertion = serde_json::from_str(
        r#"{"id": "1", "path": "$.v", "matcher": "toEqual", "expected": null}"#,
    )
    .unwrap();
    assert_eq!(a.expected, Some(Value::Null));
    assert!(evaluate_assertions(&json!({"v": null}), &[a]).passed);
    let missing: Assertion =
        serde_json::from_str(r#"{"id": "1", "path": "$.v", "matcher": "toEqual"}"#).unwrap();
    assert_eq!(missing.expected, None);
    assert_eq!(
        evaluate_assertions(&json!({"v": null}), &[missing]).results[0].outcome,
        Outcome::Error
    );
}
