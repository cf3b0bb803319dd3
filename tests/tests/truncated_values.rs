//! Replies cut off by a token limit: a list keeps its complete items and drops (and reports) a
//! cut-off last one that does not fit; a required field missing from a value that was cut off
//! says so and where; a missing field of a complete item is still an error. Every failure the
//! cut caused is `Category::Incomplete`, apart from what the model wrote wrong or left out.

use llm_extract::{Category, CoercionKind, Extract};
use std::collections::{BTreeMap, HashMap};

#[derive(Extract, Debug, PartialEq)]
struct Person {
    name: String,
    age: u32,
}

#[derive(Extract, Debug, PartialEq)]
struct Team {
    team: String,
    members: Vec<Person>,
}

fn dropped<T>(out: &llm_extract::Extracted<T>) -> Vec<String> {
    out.report
        .coercions
        .iter()
        .filter(|c| c.kind == CoercionKind::DroppedIncompleteItem)
        .map(|c| c.path.to_string())
        .collect()
}

#[test]
fn a_cut_off_last_item_that_does_not_fit_is_dropped_and_reported() {
    let reply = r#"[{"name": "Ada", "age": 36}, {"name": "Alan", "age": 41}, {"name": "Gra"#;
    let out = llm_extract::extract::<Vec<Person>>(reply).unwrap();
    assert_eq!(out.value.len(), 2);
    assert_eq!(out.value[1].name, "Alan");
    assert_eq!(dropped(&out), ["$[2]"]);
    assert!(!out.report.complete);
    let cost = CoercionKind::DroppedIncompleteItem.cost();
    assert!(out.report.coercions.iter().any(|c| c.cost == cost));
}

#[test]
fn nested_lists_and_every_cut_point_keep_the_complete_items() {
    let full =
        r#"{"team": "core", "members": [{"name": "Ada", "age": 36}, {"name": "Alan", "age": 41}]}"#;
    let second = full.find(r#"{"name": "Alan""#).unwrap();
    let second_end = full.find("41}").unwrap() + 3;
    // Cut anywhere inside the second member: the first is kept, the second dropped.
    for cut in second + 1..second_end - 1 {
        let reply = &full[..cut];
        let out = llm_extract::extract::<Team>(reply)
            .unwrap_or_else(|e| panic!("cut at {cut} {reply:?}: {e}"));
        let names: Vec<_> = out.value.members.iter().map(|p| p.name.as_str()).collect();
        // The second member fits once its last field is complete (`"age": 4` is a number).
        assert!(
            names == ["Ada"] || names == ["Ada", "Alan"],
            "{reply:?}: {names:?}"
        );
        if names == ["Ada"] {
            assert_eq!(dropped(&out), ["$.members[1]"], "{reply:?}");
        }
    }
}

#[test]
fn a_cut_off_last_item_that_fits_is_kept() {
    let out = llm_extract::extract::<Vec<String>>(r#"["alpha", "beta", "gam"#).unwrap();
    assert_eq!(out.value, ["alpha", "beta", "gam"]);
    assert!(dropped(&out).is_empty());
    let out = llm_extract::extract::<Vec<u32>>("[1, 2, 3").unwrap();
    assert_eq!(out.value, [1, 2, 3]);
    let out = llm_extract::extract::<Vec<u32>>(r#"[1, 2, "x"#).unwrap();
    assert_eq!(out.value, [1, 2]);
    assert_eq!(dropped(&out), ["$[2]"]);
}

#[test]
fn a_complete_item_missing_a_field_is_still_an_error() {
    // The first item is complete and lacks `age`; the cut-off third is not the problem.
    let reply = r#"[{"name": "Ada"}, {"name": "Alan", "age": 41}, {"name": "Gra"#;
    let err = llm_extract::from_str::<Vec<Person>>(reply).unwrap_err();
    assert_eq!(err.category(), Category::Missing);
    assert_eq!(err.issues()[0].path.to_string(), "$[0].age");
    // A complete list (not cut off) with a bad last item: an error too.
    let err = llm_extract::from_str::<Vec<Person>>(r#"[{"name": "Ada", "age": 1}, {"name": "B"}]"#)
        .unwrap_err();
    assert_eq!(err.issues()[0].path.to_string(), "$[1].age");
}

#[test]
fn a_cut_off_map_drops_an_entry_whose_value_never_came_or_does_not_fit() {
    let out = llm_extract::extract::<HashMap<String, HashMap<String, Option<String>>>>(
        "{\"a\": {\"b\": \"c\", \"d\":",
    )
    .unwrap();
    assert_eq!(out.value["a"].len(), 1);
    assert_eq!(dropped(&out), ["$.a.d"]);
    let out = llm_extract::extract::<BTreeMap<String, u32>>(r#"{"x": 1, "y": "tw"#).unwrap();
    assert_eq!(out.value, BTreeMap::from([("x".to_string(), 1)]));
    // `repair` keeps what was there: dropping is the type's decision.
    assert_eq!(
        llm_extract::repair(r#"{"x": 1, "y": "tw"#).unwrap(),
        serde_json::json!({"x": 1, "y": "tw"})
    );
}

#[test]
fn a_missing_field_of_a_value_cut_off_says_so_and_where() {
    #[derive(Extract, Debug)]
    #[allow(dead_code)]
    struct Ticket {
        summary: String,
        customer_email: String,
    }
    // A key cut off mid-name is dropped, not glued into the previous string.
    let reply = "{\"summary\": \"Refund issued\", \"customer_em";
    let err = llm_extract::from_str::<Ticket>(reply).unwrap_err();
    let issue = &err.issues()[0];
    assert_eq!(issue.category, Category::Incomplete);
    assert_eq!(issue.path.to_string(), "$.customer_email");
    assert!(issue.message.contains("cut off"), "{err}");
    let at = issue.position.expect("a position");
    assert_eq!((at.line, at.column), (1, reply.len() + 1));
    assert!(
        err.to_string()
            .ends_with("the reply was truncated, cut off at line 1 column 42"),
        "{err}"
    );
    // On a later line, the line and column of the end.
    let reply = "{\n  \"summary\": \"Refund\",\n  \"cust";
    let err = llm_extract::from_str::<Ticket>(reply).unwrap_err();
    let at = err.issues()[0].position.unwrap();
    assert_eq!((at.line, at.column), (3, 8));
    // A complete object missing the field says only that it is missing.
    let err = llm_extract::from_str::<Ticket>(r#"{"summary": "Refund"}"#).unwrap_err();
    assert!(!err.to_string().contains("cut off"), "{err}");
    assert_eq!(err.category(), Category::Missing);
}

#[derive(Extract, Debug)]
#[allow(dead_code)]
enum Status {
    Pending,
    Done,
}

#[derive(Extract, Debug)]
#[allow(dead_code)]
struct Inner {
    x: u32,
    y: u32,
}

#[derive(Extract, Debug)]
#[allow(dead_code)]
struct Order {
    id: u32,
    status: Option<Status>,
    inner: Option<Inner>,
    pair: Option<(u32, u32)>,
    #[extract(min_len = 5)]
    code: Option<String>,
    #[extract(pattern = "^[a-z]+!$")]
    words: Option<Vec<String>>,
}

#[derive(Extract, Debug)]
#[allow(dead_code)]
#[extract(tag = "type")]
enum Shape {
    Circle { r: f64 },
    Square { side: f64 },
}

/// The category and message of the first issue `T` finds in `reply`.
fn first_issue<T: Extract + std::fmt::Debug>(reply: &str) -> (Category, String) {
    let err = llm_extract::from_str::<T>(reply)
        .map(|v| format!("{v:?}"))
        .expect_err(reply);
    (err.category(), err.issues()[0].to_string())
}

/// Each way a cut reply fails is `Incomplete`, so a caller can tell "raise the token limit"
/// from "the model got it wrong": a required field that never came, a value cut off while
/// being written (an enum name, a key's value, a tuple, a validated string or list item).
#[test]
fn every_failure_caused_by_the_cut_is_incomplete() {
    let rows: &[(&str, &str)] = &[
        (
            r#"{"status": "Done", "i"#,
            "$.id: missing field `id`: the reply was truncated",
        ),
        (
            r#"{"id": "#,
            "$.id: the reply was cut off before this value",
        ),
        (
            r#"{"id": 1, "status": "PEN"#,
            "$.status: unknown variant of `Status`: the reply was cut off inside this value",
        ),
        (
            r#"{"id": 1, "inner": {"x": 1, "#,
            "$.inner.y: missing field `y`",
        ),
        (
            r#"{"id": 1, "pair": [1, "#,
            "$.pair: expected an array of 2 items, found 1: the reply was cut off",
        ),
        (
            r#"{"id": 1, "code": "abc"#,
            "$.code: has 3 characters, fewer than the minimum 5: the reply was cut off",
        ),
        (
            r#"{"id": 1, "words": ["ok!", "fi"#,
            "$.words[1]: \"fi\" does not match the pattern ^[a-z]+!$: the reply was cut off",
        ),
    ];
    for (reply, message) in rows {
        let (category, text) = first_issue::<Order>(reply);
        assert_eq!(category, Category::Incomplete, "{reply}: {text}");
        assert!(text.starts_with(message), "{reply}: {text}");
    }
    let (category, text) = first_issue::<Shape>(r#"{"type": "circ"#);
    assert_eq!(category, Category::Incomplete, "{text}");
    let (category, text) = first_issue::<Status>(r#""Pend"#);
    assert_eq!(category, Category::Incomplete, "{text}");
}

/// The same mistakes in a complete reply, or in a complete part of a cut one, keep their own
/// category: the model wrote them, and a longer reply would not change them.
#[test]
fn what_the_model_got_wrong_keeps_its_category_in_a_cut_reply() {
    let rows: &[(&str, Category)] = &[
        (r#"{"status": "Done"}"#, Category::Missing),
        (r#"{"id": null}"#, Category::Type),
        (r#"{"id": 1, "status": "PEN"}"#, Category::Variant),
        (
            r#"{"id": 1, "status": "PEN", "code": "abc"#,
            Category::Variant,
        ),
        (r#"{"id": 1, "inner": {"x": 1}, "co"#, Category::Missing),
        (r#"{"id": 1, "pair": [1], "co"#, Category::Type),
        (
            r#"{"id": 1, "code": "abc", "words": ["ok!", "fi"#,
            Category::Validation,
        ),
        (r#"{"id": 1, "words": ["no", "fi"#, Category::Validation),
        // A container of another kind is the wrong type, finished or not.
        (r#"{"id": 1, "inner": [1, 2"#, Category::Type),
    ];
    for (reply, expected) in rows {
        let (category, text) = first_issue::<Order>(reply);
        assert_eq!(category, *expected, "{reply}: {text}");
        if *expected != Category::Missing {
            assert!(!text.contains("cut off"), "{reply}: {text}");
        }
    }
    let (category, text) = first_issue::<Shape>(r#"{"type": "circ"}"#);
    assert_eq!(category, Category::Variant, "{text}");
}

/// Realistic replies: documents with nested lists and objects, written as models write them
/// (valid, pretty, single-quoted, keys unquoted, Python literals), bare, fenced, in prose and
/// after reasoning. Each with the span of its value.
fn cut_off_replies() -> Vec<(String, std::ops::Range<usize>)> {
    let documents = [
        r#"{"name": "Ada", "tags": ["a", "b"], "meta": {"x": [1, 2], "y": {"z": 3}}, "items": [{"id": 1, "v": [1, 2]}, {"id": 2, "v": {"q": null}}], "ok": true, "end": "done"}"#,
        r#"{"order": {"id": 7, "lines": [{"sku": "A-1", "qty": 2}, {"sku": "B", "qty": 1}]}, "note": "ok"}"#,
        r#"[{"user": {"name": "Bo", "roles": ["admin", "dev"]}, "active": true}, {"scores": [1, 2, 3]}, [5, 6]]"#,
    ];
    let styles: [fn(&str) -> String; 5] = [
        |d| d.to_string(),
        |d| {
            let v: serde_json::Value = serde_json::from_str(d).unwrap();
            serde_json::to_string_pretty(&v).unwrap()
        },
        |d| d.replace('"', "'"),
        |d| {
            let mut out = d.to_string();
            for key in [
                "name", "tags", "meta", "items", "order", "lines", "user", "roles",
            ] {
                out = out.replace(&format!("\"{key}\":"), &format!("{key}:"));
            }
            out
        },
        |d| d.replace("true", "True").replace("null", "None"),
    ];
    let mut out = Vec::new();
    for document in documents {
        for style in styles {
            let value = style(document);
            for (before, after) in [
                ("", ""),
                ("Here you go:\n```json\n", "\n```\nThanks!"),
                ("The result is ", " as asked."),
                (
                    "<think>The user wants {json}.</think>\nOutput: ",
                    "\nNote: done",
                ),
            ] {
                let span = before.len()..before.len() + value.len();
                out.push((format!("{before}{value}{after}"), span));
            }
        }
    }
    out
}

/// A reply cut off inside its value is that value, marked incomplete: never one of its inner
/// lists or objects that happens to be complete, with nothing saying the reply was cut off.
#[test]
fn a_reply_cut_inside_its_value_is_that_value_incomplete_at_every_cut() {
    for (reply, value) in cut_off_replies() {
        for cut in value.start + 1..value.end {
            if !reply.is_char_boundary(cut) {
                continue;
            }
            let text = &reply[..cut];
            let Ok(out) = llm_extract::extract::<serde_json::Value>(text) else {
                continue;
            };
            assert!(!out.report.complete, "{text:?} read as {}", out.value);
            assert_eq!(
                out.report.span.start, value.start,
                "{text:?}: {}",
                out.value
            );
            assert_eq!(llm_extract::repair(text).ok(), Some(out.value), "{text:?}");
        }
        let out = llm_extract::extract::<serde_json::Value>(&reply).unwrap();
        assert!(out.report.complete, "{reply}");
    }
}

/// A part of a value cut off by the end of the text is not an answer under `require_complete`
/// either, and for a type the cut-off value fits it is that value.
#[test]
fn a_part_of_a_cut_off_value_is_refused_when_complete_values_are_required() {
    let text = "{'team': 'core', 'tags': ['a', 'b'], 'members': [{'name': 'Ada', 'age': 36}], 'lead': {'na";
    let strict = llm_extract::Extractor::new().require_complete();
    assert!(strict.repair(text).is_err());
    assert!(strict.extract::<Vec<String>>(text).is_err());
    let out = llm_extract::extract::<Team>(text).unwrap();
    assert_eq!(out.value.members[0].name, "Ada");
    assert!(!out.report.complete);
}

/// A reply cut off inside a value written after another (a draft or example, then the answer):
/// the value written before never stands for the one cut off as if the reply were whole. The
/// cut-off value is read (marked incomplete) where it fits, and its own error is given where
/// the type recognizes it but it does not fit; under `TieBreak::First` the first stands.
#[test]
fn a_value_written_before_the_one_the_reply_was_cut_off_in_does_not_stand_for_it() {
    use llm_extract::{Extractor, TieBreak};
    let draft = r#"{"name": "Ada", "age": 36}"#;
    for reply in [
        format!("Example: {draft}\nAnswer: {{\"name\": \"Gra"),
        format!("{draft}\n{{\"name\": \"Grace\", \"ag"),
        format!("Draft: {draft}\nFinal:\n```json\n{{\"name\": \"Grace\","),
    ] {
        let err = llm_extract::extract::<Person>(&reply).unwrap_err();
        assert_eq!(err.category(), Category::Incomplete, "{reply}: {err}");
        assert!(
            err.to_string().contains("missing field `age`"),
            "{reply}: {err}"
        );
        let value = llm_extract::extract::<serde_json::Value>(&reply).unwrap();
        assert!(!value.report.complete, "{reply}");
        assert_ne!(value.value["name"], "Ada", "{reply}");
        let strict = Extractor::new().require_complete();
        assert!(strict.extract::<Person>(&reply).is_err(), "{reply}");
        assert!(strict.repair(&reply).is_err(), "{reply}");
        let first = Extractor::new().tie_break(TieBreak::First);
        assert_eq!(
            first.from_str::<Person>(&reply).unwrap().name,
            "Ada",
            "{reply}"
        );
    }
    // The cut-off value fits: it is the answer, marked incomplete.
    let reply = format!("{draft}\nFixed: {{\"name\": \"Grace\", \"age\": 85, \"note\": \"x");
    let out = llm_extract::extract::<Person>(&reply).unwrap();
    assert_eq!(out.value.name, "Grace");
    assert!(!out.report.complete);
    // A brace the reply was cut off after, with nothing in it, a value cut off that the reply
    // sets aside, or one after a value the reply marked as its answer, does not take the
    // place of the answer.
    for reply in [
        format!("{draft}\nLet me know if you need anything else {{"),
        format!("{draft}\nNot this one: {{\"name\": \"Gra"),
        format!("<json>{draft}</json>\n{{\"name\": \"Gra"),
    ] {
        let out = llm_extract::extract::<Person>(&reply).unwrap();
        assert_eq!(out.value.name, "Ada", "{reply}");
        assert!(out.report.complete, "{reply}");
        assert_eq!(
            llm_extract::repair(&reply).unwrap()["name"],
            "Ada",
            "{reply}"
        );
    }
    // An empty container the reply was cut off in says nothing for `extract` either: it gives
    // what `repair` gives, the value before it.
    for reply in [
        format!("{draft}\nLet me know if you need anything else {{"),
        format!("{draft}\n{{"),
        "[]{".to_string(),
        format!("Here:\n```json\n{draft}\n```\n```json\n["),
    ] {
        let out = llm_extract::extract::<serde_json::Value>(&reply).unwrap();
        assert_eq!(out.value, llm_extract::repair(&reply).unwrap(), "{reply}");
        assert!(out.report.complete, "{reply}");
    }
    // What such a container holds is still a part of it, not a value of its own.
    let reply = "{```{l}";
    let out = llm_extract::extract::<serde_json::Value>(reply).unwrap();
    assert_eq!(out.value, llm_extract::repair(reply).unwrap());
}

/// A reply cut right after the next member's quoted key, before its `:`: the string before it
/// ends at its own quote, and the key is a member the cut left without a value, not more text
/// of that string. (A key the cut leaves inside its quotes ends the string too, and is dropped:
/// its name is not known.)
#[test]
fn a_key_cut_before_its_colon_ends_the_string_before_it() {
    for (reply, expected) in [
        (r#"{"name": "Ada", "ro"#, serde_json::json!({"name": "Ada"})),
        (
            r#"{"name": "Ada", "role""#,
            serde_json::json!({"name": "Ada", "role": null}),
        ),
        (
            "```json\n{\"name\": \"Ada\",\n \"role\"  \n```",
            serde_json::json!({"name": "Ada", "role": null}),
        ),
        (
            r#"{"name": "Ada", 'role'"#,
            serde_json::json!({"name": "Ada", "role": null}),
        ),
    ] {
        let out = llm_extract::extract::<serde_json::Value>(reply).unwrap();
        assert_eq!(out.value, expected, "{reply}");
        assert!(!out.report.complete, "{reply}");
    }
    // Typed: the field the cut left without a value is missing, and the error says the reply
    // was cut off.
    let err = llm_extract::extract::<Person>(r#"{"name": "Ada", "age""#).unwrap_err();
    assert_eq!(err.issues()[0].category, Category::Incomplete, "{err}");
}

#[test]
fn a_reply_that_is_one_cut_string_keeps_the_text_it_ends_with() {
    // The spaces and commas a cut-off string ends with are its text, whether the string is
    // the whole reply or inside a container.
    for (cut, text) in [
        ("\"hello wor ", "hello wor "),
        ("\"hello wor,", "hello wor,"),
        ("'it is ", "it is "),
    ] {
        let whole = llm_extract::repair(cut).unwrap();
        let inside = llm_extract::repair(&format!("[{cut}")).unwrap();
        assert_eq!(whole, serde_json::json!(text), "{cut:?}");
        assert_eq!(inside, serde_json::json!([text]), "{cut:?}");
    }
    // A string that closes is trimmed as before.
    assert_eq!(
        llm_extract::repair("\"hello\"  \n").unwrap(),
        serde_json::json!("hello")
    );
}

/// A string cut off after a closer in its text, with more of the string after that closer on
/// its line (a JSON escape, `\n`, `\t`, `\u00`): the text after the closer is no prose after
/// the value, so the closer does not end the string, and the reply reads as cut off. (The
/// string ended at the closer, read as complete, and what followed was dropped.) A closer
/// that ends the text, or one with a sentence after it, still ends a string that lost its
/// closing quote.
#[test]
fn a_string_cut_after_a_closer_in_its_text_is_cut_off() {
    use serde_json::json;
    for (reply, expected) in [
        (
            r#"{"code": "function f() { return 1; }\nconsole.log(f());"#,
            json!({"code": "function f() { return 1; }\nconsole.log(f());"}),
        ),
        (r#"{"a": "xy}\u00"#, json!({"a": "xy}"})),
        (
            r#"{"code": "if (a) { b(); }\tx"#,
            json!({"code": "if (a) { b(); }\tx"}),
        ),
        (r#"[{"a": "x}\n y"#, json!([{"a": "x}\n y"}])),
    ] {
        let out = llm_extract::extract::<serde_json::Value>(reply).unwrap();
        assert_eq!(out.value, expected, "{reply}");
        assert!(!out.report.complete, "{reply}");
    }
    for (reply, expected) in [
        (r#"{"a": "xy}"#, json!({"a": "xy"})),
        (r#"{"a": "xy} ab"#, json!({"a": "xy"})),
        (
            "{\"summary\": \"All done}\n\nSaved to C:\\temp.",
            json!({"summary": "All done"}),
        ),
    ] {
        let out = llm_extract::extract::<serde_json::Value>(reply).unwrap();
        assert_eq!(out.value, expected, "{reply}");
        assert!(out.report.complete, "{reply}");
    }
}
