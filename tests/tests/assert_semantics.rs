//! Evaluation semantics of seed 001: ANY/ALL aggregation x `not` with the error outcome,
//! no-match as one undefined value, messages, samples, registry extension, the data model's
//! JSON, raw outputs, the legacy mode and scaffolding.

use llm_extract::assert::{
    evaluate_assertions, evaluate_legacy, evaluate_output, resolve_json_path, sample,
    scaffold_assertions, Arity, Assertion, AssertionResult, Evaluation, Expected, Matcher,
    MatcherContext, Outcome, OutputType, PathMatch, Registry, Verdict, MAX_SAMPLES, MAX_SCAFFOLD,
};
use serde_json::{json, Value};

/// Reads each value as the verdict to give: "pass", "fail" or "error"; undefined fails.
struct Scripted;

impl Matcher for Scripted {
    fn name(&self) -> &str {
        "scripted"
    }
    fn arity(&self) -> Arity {
        Arity::None
    }
    fn evaluate(&self, actual: Option<&Value>, _: &Expected, _: &MatcherContext) -> Verdict {
        match actual.and_then(Value::as_str) {
            Some("pass") => Verdict::Pass,
            Some("error") => Verdict::Error("scripted error".into()),
            _ => Verdict::Fail,
        }
    }
    fn describe(&self, actual: Option<&Value>, _: &Expected, not: bool) -> String {
        format!(
            "expected {}pass, got {}",
            if not { "no " } else { "" },
            llm_extract::assert::render(actual)
        )
    }
}

fn scripted(values: &[&str], mode: PathMatch, not: bool) -> AssertionResult {
    let mut registry = Registry::empty();
    registry.register(Scripted);
    let mut a = Assertion::new("$[*]", "scripted");
    a.path_match = mode;
    a.not = not;
    registry.evaluate(&json!(values), &[a]).results.remove(0)
}

/// The documented truth table, row by row.
#[test]
fn any_all_not_truth_table() {
    use Outcome::{Error as E, Fail as F, Pass as P};
    // values -> (ANY, ALL, not ANY, not ALL)
    let table: &[(&[&str], [Outcome; 4])] = &[
        (&["pass"], [P, P, F, F]),
        (&["fail"], [F, F, P, P]),
        (&["error"], [E, E, E, E]),
        (&["pass", "pass"], [P, P, F, F]),
        (&["pass", "fail"], [P, F, F, P]),
        (&["fail", "pass"], [P, F, F, P]),
        (&["fail", "fail"], [F, F, P, P]),
        (&["pass", "error"], [P, E, F, E]),
        (&["error", "pass"], [P, E, F, E]),
        (&["fail", "error"], [E, E, E, E]),
        (&["error", "fail"], [E, E, E, E]),
        (&["pass", "fail", "error"], [P, E, F, E]),
        // No match is one undefined value, which this matcher fails.
        (&[], [F, F, P, P]),
    ];
    for (values, want) in table {
        let got = [
            scripted(values, PathMatch::Any, false).outcome,
            scripted(values, PathMatch::All, false).outcome,
            scripted(values, PathMatch::Any, true).outcome,
            scripted(values, PathMatch::All, true).outcome,
        ];
        assert_eq!(got, *want, "{values:?}");
        for (outcome, passed) in got.iter().zip([
            scripted(values, PathMatch::Any, false).passed,
            scripted(values, PathMatch::All, false).passed,
            scripted(values, PathMatch::Any, true).passed,
            scripted(values, PathMatch::All, true).passed,
        ]) {
            assert_eq!(*outcome == Outcome::Pass, passed);
        }
    }
}

#[test]
fn no_match_is_one_undefined_value() {
    let doc = json!({"user": {"email": null}});
    let results = evaluate_assertions(
        &doc,
        &[
            Assertion::new("$.user.phone", "toBeNull"),
            Assertion::new("$.user.phone", "toBeNull").negate(),
            Assertion::new("$.user.email", "toBeNull"),
            Assertion::new("$.user.phone", "toBeUndefined"),
            Assertion::new("$.nothing[*]", "toEqual").expected(1).all(),
        ],
    )
    .results;
    let outcomes: Vec<Outcome> = results.iter().map(|r| r.outcome).collect();
    assert_eq!(
        outcomes,
        [
            Outcome::Fail,
            Outcome::Pass,
            Outcome::Pass,
            Outcome::Pass,
            Outcome::Fail
        ]
    );
    assert_eq!(
        results[0].message.as_deref(),
        Some("$.user.phone toBeNull expected null, got undefined")
    );
    assert!(results[0].actual_samples.is_empty());
}

#[test]
fn messages_name_path_matcher_expected_actual_and_the_deciding_location() {
    let doc = json!({"user": {"name": "bob"}, "items": [{"status": "READY"}, {"status": "DONE"}, {"status": "LOST"}]});
    let statuses = json!(["READY", "PENDING"]);
    let results = evaluate_assertions(
        &doc,
        &[
            Assertion::new("$.user.name", "toMatch").expected("/[A-Z][a-z]+/"),
            Assertion::new("$.items[*].status", "toBeOneOf")
                .expected(statuses.clone())
                .all(),
            Assertion::new("$.items[*].status", "toEqual").expected("PENDING"),
            Assertion::new("$.items[*].status", "toEqual")
                .expected("DONE")
                .negate(),
            Assertion::new("items[*].status", "toMatch")
                .expected("/^[A-Z]+$/")
                .all()
                .negate(),
            Assertion::new("$..name", "toEqual").expected("Bob"),
            Assertion::new("$.user.name", "toContain")
                .expected(json!({"value": "BO", "caseInsensitive": true}))
                .negate(),
        ],
    )
    .results;
    let messages: Vec<&str> = results
        .iter()
        .map(|r| r.message.as_deref().unwrap_or(""))
        .collect();
    assert_eq!(
        messages,
        [
            r#"$.user.name toMatch /[A-Z][a-z]+/ expected match, got "bob""#,
            r#"$.items[*].status toBeOneOf ["READY","PENDING"] expected one of the options, got "DONE" at $.items[1].status (2 of 3 values failed)"#,
            r#"$.items[*].status toEqual "PENDING" expected an equal value, got "READY" at $.items[0].status (none of 3 values passed)"#,
            r#"$.items[*].status not toEqual "DONE" expected a different value, got "DONE" at $.items[1].status"#,
            r#"$.items[*].status not toMatch /^[A-Z]+$/ expected no match, got "READY" at $.items[0].status (all 3 values passed)"#,
            r#"$..name toEqual "Bob" expected an equal value, got "bob" at $.user.name"#,
            r#"$.user.name not toContain "BO" (case-insensitive) expected no such substring, got "bob""#,
        ]
    );
    assert_eq!(results[1].path, "$.items[*].status");
    assert_eq!(results[1].path_match, PathMatch::All);
    assert_eq!(
        results[4].path, "$.items[*].status",
        "sugar is expanded in results"
    );
}

#[test]
fn samples_are_capped_and_long_values_truncated_with_a_hash() {
    let doc = json!({"items": (0..50).collect::<Vec<_>>(), "long": "x".repeat(5000)});
    let r = &evaluate_assertions(
        &doc,
        &[Assertion::new("$.items[*]", "toBeLessThan").expected(0)],
    )
    .results[0];
    assert_eq!(r.actual_samples.len(), MAX_SAMPLES);
    assert_eq!(r.actual_samples[19], json!(19));

    let r = &evaluate_assertions(
        &doc,
        &[Assertion::new("$.long", "toHaveLength").expected(1)],
    )
    .results[0];
    let shown = r.actual_samples[0].as_str().unwrap();
    assert!(shown.len() < 300, "{}", shown.len());
    let (head, hash) = shown.split_once("...truncated #").unwrap();
    assert!(head.starts_with("\"xxxx"));
    assert_eq!(hash.len(), 12);
    assert!(hash.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_eq!(
        sample(&json!("x".repeat(5000))),
        r.actual_samples[0],
        "the hash is stable"
    );
    assert_ne!(sample(&json!("y".repeat(5000))), r.actual_samples[0]);
    // The message shortens the value too.
    assert!(r.message.as_deref().unwrap().len() < 200);
}

struct StartsWith;

impl Matcher for StartsWith {
    fn name(&self) -> &str {
        "toStartWith"
    }
    fn arity(&self) -> Arity {
        Arity::One
    }
    fn prepare(
        &self,
        expected: Option<&Value>,
    ) -> Result<Option<Box<dyn std::any::Any + Send + Sync>>, String> {
        match expected {
            Some(Value::String(prefix)) => Ok(Some(Box::new(prefix.clone()))),
            _ => Err("expected a string prefix".to_string()),
        }
    }
    fn evaluate(&self, actual: Option<&Value>, expected: &Expected, _: &MatcherContext) -> Verdict {
        let prefix = expected
            .prepared::<String>()
            .map(String::as_str)
            .unwrap_or("");
        match actual {
            Some(Value::String(s)) => Verdict::from_bool(s.starts_with(prefix)),
            _ => Verdict::Error("expected a string".to_string()),
        }
    }
    fn describe(&self, actual: Option<&Value>, _: &Expected, not: bool) -> String {
        format!(
            "expected {}a string with this prefix, got {}",
            if not { "not " } else { "" },
            llm_extract::assert::render(actual)
        )
    }
}

#[test]
fn users_extend_the_registry() {
    let mut registry = Registry::new();
    assert!(registry.register(StartsWith).is_none());
    assert!(registry.names().any(|n| n == "toStartWith"));
    let doc = json!({"id": "user_42"});
    let e = registry.evaluate(
        &doc,
        &[
            Assertion::new("id", "toStartWith").expected("user_"),
            Assertion::new("id", "toStartWith").expected("org_"),
            Assertion::new("id", "toStartWith").expected(1),
            Assertion::new("id", "toEqual").expected("user_42"),
        ],
    );
    let outcomes: Vec<Outcome> = e.results.iter().map(|r| r.outcome).collect();
    assert_eq!(
        outcomes,
        [Outcome::Pass, Outcome::Fail, Outcome::Error, Outcome::Pass]
    );
    assert_eq!(
        e.results[1].message.as_deref(),
        Some(r#"$.id toStartWith "org_" expected a string with this prefix, got "user_42""#)
    );
    assert!(e.results[2]
        .message
        .as_deref()
        .unwrap()
        .contains("`toStartWith`: expected a string prefix"));
    // The free functions use the built-ins only.
    let e = evaluate_assertions(
        &doc,
        &[Assertion::new("id", "toStartWith").expected("user_")],
    );
    assert_eq!(e.results[0].outcome, Outcome::Error);
    // Registering under an existing name replaces that matcher.
    struct AlwaysEqual;
    impl Matcher for AlwaysEqual {
        fn name(&self) -> &str {
            "toEqual"
        }
        fn arity(&self) -> Arity {
            Arity::One
        }
        fn evaluate(&self, _: Option<&Value>, _: &Expected, _: &MatcherContext) -> Verdict {
            Verdict::Pass
        }
        fn describe(&self, _: Option<&Value>, _: &Expected, _: bool) -> String {
            String::new()
        }
    }
    assert!(registry.register(AlwaysEqual).is_some());
    assert!(
        registry
            .evaluate(&doc, &[Assertion::new("id", "toEqual").expected(0)])
            .passed
    );
}

#[test]
fn the_prd_json_loads_unchanged_and_results_use_its_field_names() {
    let assertions: Vec<Assertion> = serde_json::from_value(json!([
        {"id": "4b1d", "path": "$.items[*].status", "pathMatch": "ANY", "matcher": "toBeOneOf", "expected": ["READY", "PENDING"], "not": false, "description": "status is known"},
        {"id": "5c2e", "path": "$.user.name", "matcher": "toMatch", "expected": {"source": "[A-Z][a-z]+", "flags": "i"}},
        {"id": "6d3f", "path": "$.items", "matcher": "toContain", "expected": {"id": 123, "qty": 1}, "not": true},
        {"id": "7e4a", "path": "$.user.email", "matcher": "toBeNull", "path_match": "ALL", "someFutureField": 1}
    ]))
    .unwrap();
    assert_eq!(
        assertions[0].description.as_deref(),
        Some("status is known")
    );
    assert_eq!(assertions[3].path_match, PathMatch::All);
    // Serializing gives back the PRD's spelling.
    let back = serde_json::to_value(&assertions[1]).unwrap();
    assert_eq!(
        back,
        json!({"id": "5c2e", "path": "$.user.name", "pathMatch": "ANY", "matcher": "toMatch", "expected": {"source": "[A-Z][a-z]+", "flags": "i"}, "not": false})
    );

    let doc = json!({"user": {"name": "Ada", "email": null}, "items": [{"status": "READY", "id": 123, "qty": 1}]});
    let e: Evaluation = evaluate_assertions(&doc, &assertions);
    let json = serde_json::to_value(&e).unwrap();
    assert_eq!(json["passed"], true, "{json:#}");
    let first = json["results"][0].as_object().unwrap();
    let keys: Vec<&str> = first.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "assertionId",
            "path",
            "matcher",
            "not",
            "pathMatch",
            "passed",
            "outcome",
            "actualSamples"
        ]
    );
    // And results read back.
    let again: Evaluation = serde_json::from_value(json).unwrap();
    assert_eq!(again, e);
}

#[test]
fn raw_outputs_are_repaired_before_assertions_see_them() {
    let checks = [
        Assertion::new("$.user.name", "toEqual").expected("Ada"),
        Assertion::new("$.tags", "toContain").expected("x"),
    ];
    for raw in [
        "{\"user\": {\"name\": \"Ada\"}, \"tags\": [\"x\"]}",
        "Sure! ```json\n{\"user\": {\"name\": \"Ada\"}, \"tags\": [\"x\",]}\n``` Anything else?",
        "{user: {name: 'Ada'}, tags: ['x'], // done\n}",
        "<think>the user wants JSON</think>{\"user\": {\"name\": \"Ada\"}, \"tags\": [\"x\"",
    ] {
        let e = evaluate_output(raw, &checks);
        assert!(e.passed, "{raw}: {:?}", e.results);
    }
    // Prose with no JSON is checked as a string.
    let e = evaluate_output(
        "I cannot help with that.",
        &[Assertion::new("$", "toMatch").expected("/cannot/")],
    );
    assert!(e.passed);
    let e = evaluate_output(
        "I cannot help with that.",
        &[Assertion::new("$.user.name", "toEqual").expected("Ada")],
    );
    assert_eq!(
        e.results[0].message.as_deref(),
        Some(r#"$.user.name toEqual "Ada" expected an equal value, got undefined"#)
    );
}

#[test]
fn legacy_mode_compares_strings_exactly_and_json_deeply() {
    assert!(evaluate_legacy("Paris", &json!("Paris"), OutputType::String).passed);
    let e = evaluate_legacy("Paris\n", &json!("Paris"), OutputType::String);
    assert!(!e.passed);
    assert_eq!(
        e.results[0].message.as_deref(),
        Some(r#"$ toEqual "Paris" expected exactly this text, got "Paris\n""#)
    );
    assert!(
        evaluate_legacy(
            "```json\n{\"b\": [1, 2], \"a\": 1}\n```",
            &json!({"a": 1.0, "b": [1, 2]}),
            OutputType::Json
        )
        .passed
    );
    assert!(
        !evaluate_legacy(
            "{\"b\": [2, 1], \"a\": 1}",
            &json!({"a": 1, "b": [1, 2]}),
            OutputType::Json
        )
        .passed
    );
    let e = evaluate_legacy("no json here", &json!({"a": 1}), OutputType::Json);
    assert_eq!(e.results[0].outcome, Outcome::Fail);
    assert!(e.results[0]
        .message
        .as_deref()
        .unwrap()
        .contains("expected JSON, found none in the output"));
}

#[test]
fn resolve_json_path_accepts_sugar_and_explains_bad_paths() {
    let doc = json!({"user": {"name": "Ada"}, "items": [{"id": 7}], "first-name": "A"});
    assert_eq!(
        resolve_json_path(&doc, "user.name").unwrap()[0].value,
        "Ada"
    );
    assert_eq!(resolve_json_path(&doc, "items[0].id").unwrap()[0].value, 7);
    assert_eq!(
        resolve_json_path(&doc, "$['first-name']").unwrap()[0].value,
        "A"
    );
    assert!(resolve_json_path(&doc, "$.nothing").unwrap().is_empty());
    let found = resolve_json_path(&doc, "$..id").unwrap();
    assert_eq!(found[0].path.to_string(), "$.items[0].id");
    for (bad, hint) in [
        ("items.0.id", "$.items[0].id"),
        ("first-name", "$['first-name']"),
    ] {
        let err = resolve_json_path(&doc, bad).unwrap_err().to_string();
        assert!(
            err.contains(&format!("did you mean `{hint}`?")),
            "{bad}: {err}"
        );
    }
    let err = resolve_json_path(&doc, "$.items[?@.id ==]")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("invalid JSONPath `$.items[?@.id ==]`: at position"),
        "{err}"
    );
    assert!(
        !err.contains("found"),
        "the query is shown once when no sugar was expanded: {err}"
    );
}

#[test]
fn scaffolded_assertions_cover_every_leaf_and_pass_on_their_sample() {
    let sample = json!({
        "user": {"name": "Ada", "email": null, "odd key": {"it's": true}},
        "items": [{"id": 1, "tags": []}, {"id": 2.5, "meta": {}}],
        "": "empty key"
    });
    let proposed = scaffold_assertions(&sample);
    let paths: Vec<&str> = proposed.iter().map(|a| a.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "$.user.name",
            "$.user.email",
            r"$.user['odd key']['it\'s']",
            "$.items[0].id",
            "$.items[0].tags",
            "$.items[1].id",
            "$.items[1].meta",
            "$['']",
        ]
    );
    let ids: Vec<&str> = proposed.iter().map(|a| a.id.as_str()).collect();
    assert_eq!(ids[..3], ["a1", "a2", "a3"]);
    assert!(evaluate_assertions(&sample, &proposed).passed);
    // A changed value fails exactly one of them.
    let mut changed = sample.clone();
    changed["items"][1]["id"] = json!(3);
    assert_eq!(
        evaluate_assertions(&changed, &proposed).count(Outcome::Fail),
        1
    );

    let big = json!((0..2000).collect::<Vec<_>>());
    assert_eq!(scaffold_assertions(&big).len(), MAX_SCAFFOLD);
    assert_eq!(
        scaffold_assertions(&json!("just text")),
        [Assertion::new("$", "toEqual")
            .expected("just text")
            .id("a1")]
    );
}

#[test]
fn hostile_inputs_do_not_panic() {
    let mut deep = json!(1);
    for _ in 0..120 {
        deep = json!([deep]);
    }
    let paths = [
        "$..*",
        "$[?@ == @]",
        &format!("$[?{}@{}]", "(".repeat(60), ")".repeat(60)),
        "$[?match(@, '(a+)+$')]",
    ];
    for path in paths {
        let _ = evaluate_assertions(&deep, &[Assertion::new(path, "toEqual").expected(1)]);
    }
    let huge_path = "a.".repeat(10_000);
    let e = evaluate_assertions(&deep, &[Assertion::new(huge_path, "toBeNull")]);
    assert_eq!(e.results[0].outcome, Outcome::Error);
    let e = evaluate_assertions(
        &json!("a".repeat(100_000)),
        &[Assertion::new("$", "toMatch").expected("/^(a|a)*$/")],
    );
    assert!(e.passed);
}

#[test]
fn registries_and_compiled_assertions_can_be_shared_across_threads() {
    fn shareable<T: Send + Sync + 'static>() {}
    shareable::<Registry>();
    shareable::<llm_extract::assert::CompiledAssertion>();
    shareable::<Evaluation>();
    let registry = Registry::new();
    let check = registry
        .compile(&Assertion::new("$.n", "toBeLessThan").expected(100))
        .unwrap();
    std::thread::scope(|scope| {
        for n in [1, 50, 99] {
            let check = &check;
            scope.spawn(move || assert!(check.evaluate(&json!({ "n": n })).passed));
        }
    });
}
