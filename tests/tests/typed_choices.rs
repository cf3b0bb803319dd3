//! Typed choices a user would expect: a string holding JSON decoded where the type wants a
//! container, an object with one unknown key unwrapped, and of equally good values the later
//! one (or the first, when asked). Each is recorded in the report with its cost.

use llm_extract::{CoercionKind, Extract, Extractor, RepairKind, TieBreak};
use serde_json::json;
use std::collections::{BTreeMap, HashMap};

#[derive(Extract, Debug, PartialEq)]
struct Weather {
    city: String,
    days: Option<u8>,
}

#[derive(Extract, Debug, PartialEq)]
struct Call {
    name: String,
    arguments: Weather,
}

#[derive(Extract, Debug, PartialEq)]
struct Only {
    city: String,
}

#[derive(Extract, Debug, PartialEq)]
struct Review {
    product: String,
    stars: u8,
}

#[derive(Extract, Debug, PartialEq)]
#[extract(tag = "type")]
enum Action {
    Search { query: String },
    Stop,
}

#[derive(Extract, Debug, PartialEq)]
enum External {
    Search { query: String },
}

#[derive(Extract, Debug, PartialEq)]
#[extract(tag = "name", content = "arguments")]
enum Tool {
    Weather(Only),
}

#[derive(Extract, Debug, PartialEq)]
struct Note {
    text: String,
    raw: serde_json::Value,
    tags: Vec<String>,
}

fn kinds<T>(out: &llm_extract::Extracted<T>) -> Vec<CoercionKind> {
    out.report
        .coercions
        .iter()
        .map(|c| c.kind.clone())
        .collect()
}

// ---- a string holding JSON, where the type wants a container ----

#[test]
fn openai_arguments_written_as_a_string_are_decoded() {
    let reply = r#"{"name": "weather", "arguments": "{\"city\": \"Paris\", \"days\": 3}"}"#;
    let out = llm_extract::extract::<Call>(reply).unwrap();
    assert_eq!(
        out.value.arguments,
        Weather {
            city: "Paris".into(),
            days: Some(3)
        }
    );
    let decoded = &out.report.coercions[0];
    assert_eq!(decoded.kind, CoercionKind::DecodedString);
    assert_eq!(decoded.path.to_string(), "$.arguments");
    assert_eq!(decoded.cost, CoercionKind::DecodedString.cost());
    assert_eq!(out.report.score, CoercionKind::DecodedString.cost());
}

#[test]
fn decoding_comes_before_wrapping_the_string_into_the_only_field() {
    // Without decoding, a one-field struct would take the whole JSON text as its field.
    let out = llm_extract::extract::<Only>(r#"{"x": "{\"city\": \"Oslo\"}"}"#).unwrap();
    assert_eq!(out.value.city, "Oslo");
    assert!(kinds(&out).contains(&CoercionKind::DecodedString));
    let out = llm_extract::extract::<Vec<Only>>(r#"["{\"city\": \"Oslo\"}"]"#).unwrap();
    assert_eq!(
        out.value,
        [Only {
            city: "Oslo".into()
        }]
    );
    assert!(!kinds(&out).contains(&CoercionKind::WrappedInStruct));
}

#[test]
fn every_container_type_decodes_a_string_holding_its_json() {
    #[derive(Extract, Debug)]
    struct Holder {
        list: Vec<u8>,
        map: HashMap<String, u8>,
        tree: BTreeMap<String, Vec<u8>>,
        pair: (u8, String),
        array: [u8; 2],
        json_map: serde_json::Map<String, serde_json::Value>,
        action: Action,
        external: External,
        tool: Tool,
        nested: Option<Box<Weather>>,
    }
    let reply = json!({
        "list": "[1, 2]",
        "map": "{\"a\": 1}",
        "tree": "{\"k\": [3]}",
        "pair": "[1, \"x\"]",
        "array": "[4, 5]",
        "json_map": "{\"z\": null}",
        "action": "{\"type\": \"Search\", \"query\": \"rust\"}",
        "external": "{\"Search\": {\"query\": \"go\"}}",
        "tool": "{\"name\": \"Weather\", \"arguments\": \"{\\\"city\\\": \\\"Rome\\\"}\"}",
        "nested": "{\"city\": \"Lima\"}",
    })
    .to_string();
    let out = llm_extract::extract::<Holder>(&reply).unwrap();
    let h = out.value;
    assert_eq!(h.list, [1, 2]);
    assert_eq!(h.map["a"], 1);
    assert_eq!(h.tree["k"], [3]);
    assert_eq!(h.pair, (1, "x".to_string()));
    assert_eq!(h.array, [4, 5]);
    assert_eq!(h.json_map["z"], serde_json::Value::Null);
    assert_eq!(
        h.action,
        Action::Search {
            query: "rust".into()
        }
    );
    assert_eq!(h.external, External::Search { query: "go".into() });
    assert_eq!(
        h.tool,
        Tool::Weather(Only {
            city: "Rome".into()
        })
    );
    assert_eq!(h.nested.unwrap().city, "Lima");
    let decoded = out
        .report
        .coercions
        .iter()
        .filter(|c| c.kind == CoercionKind::DecodedString)
        .count();
    assert_eq!(decoded, 11, "{:?}", out.report.coercions); // the tool's arguments twice over
}

#[test]
fn issues_inside_a_decoded_string_point_where_they_are_written() {
    // OpenAI writes tool arguments as a string holding JSON; a bad member inside it is
    // reported at its own line and column, not at the string's start.
    let reply = "{\"name\": \"get_weather\",\n \"arguments\": \"{\\\"city\\\": \\\"Paris\\\", \\\"days\\\": \\\"many\\\"}\"}";
    let err = llm_extract::extract::<Call>(reply).unwrap_err();
    let issue = &err.issues()[0];
    assert_eq!(issue.path.to_string(), "$.arguments.days");
    let span = issue.span.unwrap();
    assert_eq!(&reply[span.start..span.end], "\\\"many\\\"");
    let at = issue.position.unwrap();
    assert_eq!((at.line, at.column), (2, 48));
    // A key matched leniently inside the string is recorded where it is written.
    let reply = "{\"name\": \"w\", \"arguments\": \" {\\\"City\\\": \\\"Oslo\\\"}\"}";
    let out = llm_extract::extract::<Call>(reply).unwrap();
    let key = out
        .report
        .coercions
        .iter()
        .find(|c| c.kind == CoercionKind::NormalizedKey)
        .unwrap();
    assert_eq!(&reply[key.span.start..key.span.end], "\\\"City\\\"");
    // Escapes JSON does not need (`\/`, `\u0041`) leave no exact map: the whole string.
    let reply = "{\"name\": \"w\", \"arguments\": \"{\\\"city\\\": \\\"a\\/b\\\", \\\"days\\\": \\\"x\\\"}\"}";
    let err = llm_extract::extract::<Call>(reply).unwrap_err();
    let span = err.issues()[0].span.unwrap();
    assert!(
        reply[span.start..span.end].starts_with("\"{"),
        "{}",
        &reply[span.start..span.end]
    );
}

#[test]
fn from_str_gives_extracts_value_when_a_nested_value_is_read_as_a_list() {
    // `from_str` records coercions without paths; whether one is at the root (a single value
    // read as the whole list, which makes the values of the reply a list's items) must still
    // come out as `extract` has it.
    #[derive(Extract, Debug, PartialEq)]
    struct Tagged {
        tags: Vec<String>,
    }
    for text in [
        "{\"tags\": \"x\"}\n{\"tags\": \"y\"}",
        "[{\"tags\": \"x\"}] and {\"tags\": [\"y\"]}",
    ] {
        assert_eq!(
            llm_extract::from_str::<Tagged>(text).ok(),
            llm_extract::extract::<Tagged>(text).ok().map(|e| e.value),
            "{text}"
        );
        assert_eq!(
            llm_extract::from_str::<Vec<Tagged>>(text).ok(),
            llm_extract::extract::<Vec<Tagged>>(text)
                .ok()
                .map(|e| e.value),
            "{text}"
        );
    }
}

#[test]
fn a_type_that_takes_strings_keeps_the_string() {
    let reply = r#"{"text": "{\"a\": 1}", "raw": "{\"a\": 1}", "tags": ["[1, 2]"]}"#;
    let out = llm_extract::extract::<Note>(reply).unwrap();
    assert_eq!(out.value.text, r#"{"a": 1}"#);
    assert_eq!(out.value.raw, json!(r#"{"a": 1}"#));
    assert_eq!(out.value.tags, [r#"[1, 2]"#]);
    assert!(out.report.is_clean());
}

#[test]
fn minor_repairs_inside_the_string_are_recorded_and_counted() {
    let reply = r#"{"name": "w", "arguments": "{'city': 'Paris', 'days': 2,}"}"#;
    let out = llm_extract::extract::<Call>(reply).unwrap();
    assert_eq!(out.value.arguments.days, Some(2));
    let inside: Vec<_> = out
        .report
        .coercions
        .iter()
        .filter_map(|c| match c.kind {
            CoercionKind::RepairInString(kind) => Some(kind),
            _ => None,
        })
        .collect();
    assert!(
        inside.contains(&RepairKind::NonStandardQuotes),
        "{inside:?}"
    );
    assert!(inside.contains(&RepairKind::TrailingComma), "{inside:?}");
    let total: u32 = out.report.coercions.iter().map(|c| c.cost).sum();
    assert_eq!(out.report.score, total);
    assert!(total > CoercionKind::DecodedString.cost());
}

#[test]
fn a_string_that_is_not_a_whole_document_stays_a_string() {
    #[derive(Extract, Debug)]
    struct Tags {
        tags: Vec<String>,
    }
    for (written, want) in [
        // bare words need more than minor repairs
        ("[citation needed]", "[citation needed]"),
        // a value followed by prose
        ("[1, 2] and more", "[1, 2] and more"),
        // cut off inside the string
        ("[\\\"a\\\", \\\"b", "[\"a\", \"b"),
    ] {
        let reply = format!(r#"{{"tags": "{written}"}}"#);
        let out = llm_extract::extract::<Tags>(&reply).unwrap();
        assert_eq!(out.value.tags, [want], "{reply}");
        assert!(
            !kinds(&out).contains(&CoercionKind::DecodedString),
            "{reply}"
        );
    }
}

#[test]
fn strict_mode_does_not_decode() {
    #[derive(Extract, Debug)]
    struct Strict {
        #[extract(strict)]
        #[allow(dead_code)]
        list: Vec<u8>,
    }
    assert!(llm_extract::from_str::<Strict>(r#"{"list": "[1, 2]"}"#).is_err());
}

/// The two rules for a JSON document escaped in a string (`guide::reading`): decoded where the type
/// wants a container, and, for `repair`, when the string is the only value and holds an object
/// or array.
#[test]
fn a_top_level_json_string_is_decoded_only_when_it_is_a_document_or_the_type_wants_one() {
    let doc = r#""{\"city\": \"Paris\"}""#;
    // repair: the only value, holding an object: decoded.
    assert_eq!(llm_extract::repair(doc).unwrap(), json!({"city": "Paris"}));
    assert_eq!(llm_extract::repair(r#""[1, 2]""#).unwrap(), json!([1, 2]));
    // repair: a string that holds no document stays that string.
    assert_eq!(
        llm_extract::repair(r#""{not json}""#).unwrap(),
        json!("{not json}")
    );
    assert_eq!(llm_extract::repair(r#""hello""#).unwrap(), json!("hello"));
    // a container type: decoded; a string type: the string as written.
    assert_eq!(
        llm_extract::from_str::<Only>(doc).unwrap(),
        Only {
            city: "Paris".into()
        }
    );
    assert_eq!(
        llm_extract::from_str::<String>(doc).unwrap(),
        r#"{"city": "Paris"}"#
    );
    // inside a value, only where the type wants a container.
    let reply = r#"{"text": "{\"a\": 1}", "raw": {"b": "[2]"}, "tags": "[\"x\"]"}"#;
    let note = llm_extract::from_str::<Note>(reply).unwrap();
    assert_eq!(note.text, r#"{"a": 1}"#);
    assert_eq!(note.raw, json!({"b": "[2]"}));
    assert_eq!(note.tags, ["x"]);
}

// ---- an object with one unknown key ----

#[test]
fn an_object_with_one_unknown_key_is_unwrapped_when_it_does_not_fit() {
    let out = llm_extract::extract::<Review>(r#"{"review": {"product": "Aeropress", "stars": 5}}"#)
        .unwrap();
    assert_eq!(out.value.stars, 5);
    let unwrapped = out
        .report
        .coercions
        .iter()
        .find(|c| c.kind == CoercionKind::UnwrappedObject)
        .expect("recorded");
    assert_eq!(unwrapped.cost, CoercionKind::UnwrappedObject.cost());
    assert_eq!(out.report.score, unwrapped.cost);
    // At any depth, and through a string holding the object.
    let deep = r#"{"data": {"result": {"product": "x", "stars": 1}}}"#;
    assert_eq!(llm_extract::from_str::<Review>(deep).unwrap().stars, 1);
    let encoded = r#"{"review": "{\"product\": \"x\", \"stars\": 2}"}"#;
    assert_eq!(llm_extract::from_str::<Review>(encoded).unwrap().stars, 2);
    // A list under an object's only key, for a list type.
    let list = r#"{"reviews": [{"product": "a", "stars": 1}, {"product": "b", "stars": 2}]}"#;
    let out = llm_extract::extract::<Vec<Review>>(list).unwrap();
    assert_eq!(out.value.len(), 2);
    assert!(kinds(&out).contains(&CoercionKind::UnwrappedObject));
}

#[test]
fn unwrapping_only_when_the_outer_object_does_not_fit() {
    // A struct whose fields all have defaults fits any object as written; when that reading
    // found none of its fields, a wrapper's value that does find one is read instead.
    #[derive(Extract, Debug)]
    struct Loose {
        #[extract(default)]
        product: String,
        stars: Option<u8>,
    }
    let out = llm_extract::extract::<Loose>(r#"{"review": {"product": "x"}}"#).unwrap();
    assert_eq!(out.value.product, "x");
    assert!(kinds(&out).contains(&CoercionKind::UnwrappedObject));
    let out = llm_extract::extract::<Loose>(r#"{"data": {"result": {"stars": 4}}}"#).unwrap();
    assert_eq!(out.value.stars, Some(4));
    // A wrapper whose value finds no field either, or is no object, stays as written.
    for text in [
        r#"{"review": {"other": 1}}"#,
        r#"{"review": 5}"#,
        r#"{"a": 1, "b": {"product": "x"}}"#,
    ] {
        let out = llm_extract::extract::<Loose>(text).unwrap();
        assert_eq!(
            (out.value.product.as_str(), out.value.stars),
            ("", None),
            "{text}"
        );
        assert!(
            !kinds(&out).contains(&CoercionKind::UnwrappedObject),
            "{text}"
        );
    }
    // A field found as written: never unwrapped.
    let out = llm_extract::extract::<Loose>(r#"{"stars": 2, "review": {"product": "x"}}"#).unwrap();
    assert_eq!((out.value.product.as_str(), out.value.stars), ("", Some(2)));
    // The one key names a field: not unwrapped; the field's error stands.
    let err = llm_extract::from_str::<Review>(r#"{"product": {"product": "x", "stars": 1}}"#)
        .unwrap_err();
    assert!(err.to_string().contains("$.product"), "{err}");
    // A bare value under the unknown key is never unwrapped into a one-field struct.
    assert!(llm_extract::from_str::<Only>(r#"{"other": 5}"#).is_err());
    assert!(llm_extract::from_str::<Only>(r#"{"other": "{x}"}"#).is_err());
    // Two keys: not unwrapped.
    assert!(llm_extract::from_str::<Review>(
        r#"{"review": {"product": "x", "stars": 1}, "other": 1}"#
    )
    .is_err());
}

#[test]
fn an_unwrapped_value_that_does_not_fit_reports_its_own_issues() {
    let err = llm_extract::from_str::<Review>(r#"{"review": {"product": "x", "stars": "many"}}"#)
        .unwrap_err();
    let issues = err.issues();
    assert_eq!(issues.len(), 1, "{err}");
    assert_eq!(issues[0].path.to_string(), "$.review.stars");
}

#[test]
fn a_one_field_struct_takes_an_object_that_lacks_its_key_as_that_field() {
    #[derive(Extract, Debug)]
    struct Selected {
        selected: Review,
    }
    let out = llm_extract::extract::<Selected>(r#"{"product": "x", "stars": 3}"#).unwrap();
    assert_eq!(out.value.selected.stars, 3);
    assert!(kinds(&out).contains(&CoercionKind::WrappedInStruct));
}

// ---- of equally good values, the later ----

#[test]
fn of_equally_clean_candidates_the_later_wins_by_default() {
    let reply = "For example: {\"product\": \"demo\", \"stars\": 1}\nMy answer: {\"product\": \"real\", \"stars\": 4}";
    assert_eq!(
        llm_extract::from_str::<Review>(reply).unwrap().product,
        "real"
    );
    assert_eq!(llm_extract::repair(reply).unwrap()["product"], "real");
    let fences = "Draft:\n```json\n{\"product\": \"draft\", \"stars\": 2}\n```\nFinal:\n```json\n{\"product\": \"final\", \"stars\": 3}\n```";
    assert_eq!(
        llm_extract::from_str::<Review>(fences).unwrap().product,
        "final"
    );
    assert_eq!(llm_extract::repair(fences).unwrap()["product"], "final");
}

/// Each reply holds the review `"real"` and one other equally good: the real one wins, read
/// typed and repaired, whichever way ties break.
fn the_real_one_wins_either_way(replies: &[&str]) {
    for e in [
        Extractor::new(),
        Extractor::new().tie_break(TieBreak::First),
    ] {
        for reply in replies {
            assert_eq!(
                e.from_str::<Review>(reply).unwrap().product,
                "real",
                "{reply}"
            );
            assert_eq!(e.repair(reply).unwrap()["product"], "real", "{reply}");
        }
    }
}

/// A value mentioned inside a sentence (words before it and after it in the same sentence) is
/// an alternative or an example, not the answer: it loses a tie to a value standing on its
/// own, before or after it, whichever way ties break.
#[test]
fn a_value_mentioned_inside_a_sentence_loses_a_tie() {
    let after = "{\"product\": \"real\", \"stars\": 4}\n\nIf you wanted {\"product\": \"other\", \"stars\": 2} instead, let me know.";
    let label = "Answer: {\"product\": \"real\", \"stars\": 4}. Alternatively {\"product\": \"other\", \"stars\": 2} would also work.";
    let before = "Something like {\"product\": \"demo\", \"stars\": 1} would do; my answer: {\"product\": \"real\", \"stars\": 4}";
    the_real_one_wins_either_way(&[after, label, before]);
    // Both inside sentences: the tie breaks as asked.
    // After a label, words after a value do not make it a mention.
    let labeled = "I will output {\"product\": \"demo\", \"stars\": 1}\n\nAnswer: {\"product\": \"real\", \"stars\": 4} — hope this helps!";
    assert_eq!(llm_extract::repair(labeled).unwrap()["product"], "real");
    let both = "Use {\"product\": \"a\", \"stars\": 1} as shown, or {\"product\": \"b\", \"stars\": 2} if you prefer.";
    assert_eq!(llm_extract::from_str::<Review>(both).unwrap().product, "b");
    let first = Extractor::new().tie_break(TieBreak::First);
    assert_eq!(first.from_str::<Review>(both).unwrap().product, "a");
}

/// A value the words right before it set aside (called wrong, old or to be avoided) or show as
/// an example loses to the answer, before or after it, in the prose or in a fence, whichever
/// way ties break, and even where it reads with fewer repairs than the answer.
#[test]
fn a_value_the_reply_sets_aside_or_shows_as_an_example_loses_to_the_answer() {
    let real = "{\"product\": \"real\", \"stars\": 4}";
    let other = "{\"product\": \"other\", \"stars\": 2}";
    let replies = [
        format!("The answer is {real}, not {other}."),
        format!("Use {real} instead of {other}."),
        format!("{real}\nDon't return {other}."),
        format!("{real}\nAvoid this: {other}"),
        format!("{real}\nThe following is incorrect:\n{other}"),
        format!("{real} (previously {other})"),
        format!("{real}\nFor comparison, the old output was {other}"),
        format!("Wrong: {other}\nRight: {real}"),
        format!("Final answer:\n{real}\n\nExample of the format: {other}"),
        format!("For example, {other}. Here is yours: {real}"),
        // A sentence that opens as an illustration, a supposition or a condition contrary to
        // fact, however long the clause right before the value.
        format!("Here is the record:\n{real}\n\nFor example, if the stars were different, the output would be {other}."),
        format!("{real}\n\nFor instance, another review could look like:\n{other}"),
        format!("```json\n{real}\n```\n\nIf the product had been worse, it would look like:\n```json\n{other}\n```"),
        format!("{real}\nSuppose the stars were lower: {other}"),
        // In other languages.
        format!("{real}\n\nPar exemple : {other}"),
        format!("错误示例：{other}\n正确：{real}"),
        format!("Versión incorrecta:\n```json\n{other}\n```\nCorrecta:\n```json\n{real}\n```"),
        // Set aside in a fence, the answer in the prose with repairs the fenced one lacks.
        format!("Result: {{product: 'real', stars: 4,}}\n\nBad example:\n```json\n{other}\n```"),
        format!("## Incorrect\n\n```json\n{other}\n```\n\n## Correct\n\n```json\n{real}\n```"),
        // Quoted in a markdown block quote: someone else's words.
        format!("Corrected: {real}\n\nYour original:\n> {other}"),
        format!("{real}\n\n> Note: the API used to return {other}"),
    ];
    the_real_one_wins_either_way(&replies.iter().map(String::as_str).collect::<Vec<_>>());
    // Alone, such a value is still the value found.
    let alone = format!("Wrong: {other}");
    assert_eq!(
        llm_extract::from_str::<Review>(&alone).unwrap().product,
        "other"
    );
    // Words that say so in a longer sentence, or in the sentence before, say nothing of the
    // value: the later value wins as usual.
    for reply in [
        format!("{other}\nHere is the JSON without any of the old fields: {real}"),
        format!("{other}\nThat was wrong. Here it is: {real}"),
        format!("{other}\nHere is an example of the output you asked for: {real}"),
    ] {
        assert_eq!(
            llm_extract::from_str::<Review>(&reply).unwrap().product,
            "real",
            "{reply}"
        );
    }
}

/// A value inside an HTML comment was written and then hidden (a draft, a note to self): it
/// loses a tie to a value outside one, before or after it, whichever way ties break; alone it
/// is still the value found.
#[test]
fn a_value_in_an_html_comment_loses_a_tie() {
    let after =
        "{\"product\": \"real\", \"stars\": 4}\n<!-- {\"product\": \"draft\", \"stars\": 2} -->";
    let before = "<!-- earlier: {\"product\": \"draft\", \"stars\": 2} -->\n{\"product\": \"real\", \"stars\": 4}";
    the_real_one_wins_either_way(&[after, before]);
    let alone = "<!-- {\"product\": \"draft\", \"stars\": 2} -->";
    assert_eq!(
        llm_extract::from_str::<Review>(alone).unwrap().product,
        "draft"
    );
    // After the comment has closed, a value is not in it.
    let closed =
        "{\"product\": \"a\", \"stars\": 1}\n<!-- note --> {\"product\": \"b\", \"stars\": 2}";
    assert_eq!(
        llm_extract::from_str::<Review>(closed).unwrap().product,
        "b"
    );
}

/// A value that is all a JSON fence holds is the answer: braces in the prose around it
/// mention something, and lose a tie to it, before or after it, whichever way ties break.
#[test]
fn a_fenced_value_wins_a_tie_with_one_in_the_prose_around_it() {
    let after = "Sure!\n\n```json\n{\"product\": \"real\", \"stars\": 4}\n```\n\nLet me know if you need anything else, e.g. {\"product\": \"other\", \"stars\": 2}.";
    let before = "Starting from {\"product\": \"demo\", \"stars\": 1}.\n```json\n{\"product\": \"real\", \"stars\": 4}\n```";
    the_real_one_wins_either_way(&[after, before]);
    // A fence holding more than the value (code around it) stands as prose does.
    let code = "```python\nx = {\"product\": \"code\", \"stars\": 1}\n```\nThe answer: {\"product\": \"real\", \"stars\": 4}";
    assert_eq!(
        llm_extract::from_str::<Review>(code).unwrap().product,
        "real"
    );
}

/// A value on lines of its own in the prose is presented as a value, as a fenced one is: of
/// the two, the later wins as ties break (a draft in a fence, then the corrected value written
/// without one), while a value the sentence goes on after still only mentions something.
#[test]
fn a_value_on_lines_of_its_own_stands_as_high_as_a_fenced_one() {
    let real = "{\"product\": \"real\", \"stars\": 4}";
    let draft = "{\"product\": \"draft\", \"stars\": 2}";
    let pretty = "{\n  \"product\": \"real\",\n  \"stars\": 4\n}";
    for reply in [
        format!("Here is the JSON:\n```json\n{draft}\n```\n\nWait, the stars are wrong. Here is the corrected JSON:\n{real}\n"),
        format!("```\n{draft}\n```\nOops, that is not right. Updated version:\n\n{pretty}"),
        format!("Given the input:\n```json\n{draft}\n```\nthe extracted data is:\n{pretty}"),
    ] {
        assert_eq!(llm_extract::from_str::<Review>(&reply).unwrap().product, "real", "{reply}");
        assert_eq!(llm_extract::repair(&reply).unwrap()["product"], "real", "{reply}");
        // The earlier one wins when ties break the other way.
        let first = Extractor::new().tie_break(TieBreak::First);
        assert_eq!(first.repair(&reply).unwrap()["product"], "draft", "{reply}");
    }
    // A value on lines of its own stands above one mentioned at the end of a sentence, before
    // or after it.
    let answer_first = format!("Output:\n{pretty}\n\nThis was derived from the input {draft}.");
    let answer_last = format!("I started from {draft}.\nResult:\n{real}");
    the_real_one_wins_either_way(&[&answer_first, &answer_last]);
    // After a label on its line, a value is set out as well: with a fenced one, the tie
    // breaks as asked.
    let labeled = format!("Schema: {draft}\n```json\n{real}\n```");
    assert_eq!(llm_extract::repair(&labeled).unwrap()["product"], "real");
    let first = Extractor::new().tie_break(TieBreak::First);
    assert_eq!(first.repair(&labeled).unwrap()["product"], "draft");
    // Words after it on its line make it a mention, which the fenced value wins over.
    let mention = format!("```json\n{real}\n```\n{draft} is what you would get without the fix.");
    the_real_one_wins_either_way(&[&mention]);
}

/// A value written in parentheses in the prose is an aside (`(see [1])`): it loses a tie to a
/// value mentioned in a sentence, before or after it.
#[test]
fn a_value_in_parentheses_is_an_aside() {
    let cited = "The answer is {\"product\": \"real\", \"stars\": 4} (see [1]).";
    assert_eq!(llm_extract::repair(cited).unwrap()["product"], "real");
    let first = Extractor::new().tie_break(TieBreak::First);
    let before = "Earlier (as {\"product\": \"draft\", \"stars\": 2}) it differed; now it is {\"product\": \"real\", \"stars\": 4} as agreed.";
    for e in [Extractor::new(), first] {
        assert_eq!(e.repair(before).unwrap()["product"], "real");
    }
}

/// A `[` right after a word is a subscript written in the prose (`data["name"]`,
/// `items[0]`), and one right after `<!` is markup (`<![CDATA[`): neither opens a value.
#[test]
fn a_subscript_or_markup_in_the_prose_is_not_a_value() {
    for reply in [
        "<![CDATA[{\"product\": \"real\", \"stars\": 4}]]>",
        "<review><![CDATA[\n{\"product\": \"real\", \"stars\": 4}\n]]></review>",
    ] {
        assert_eq!(
            llm_extract::repair(reply).unwrap()["product"],
            "real",
            "{reply}"
        );
        let mut stream = llm_extract::Stream::<serde_json::Value>::new();
        for chunk in reply.as_bytes().chunks(3) {
            stream.push_bytes(chunk);
        }
        let last = serde_json::to_value(stream.snapshot()).unwrap();
        assert_eq!(last["product"], "real", "{reply}");
        assert_eq!(stream.finish().unwrap().value["product"], "real", "{reply}");
    }
    let real = "{\"product\": \"real\", \"stars\": 4}";
    for reply in [
        format!(
            "Result:\n{real}\n\nParse it with `json.loads(text)` and read `data[\"product\"]`."
        ),
        format!("{real}\nThen items[0] is the first one and row_2[1] the second."),
    ] {
        assert_eq!(
            llm_extract::repair(&reply).unwrap()["product"],
            "real",
            "{reply}"
        );
        assert_eq!(
            llm_extract::extract::<serde_json::Value>(&reply)
                .unwrap()
                .value["product"],
            "real",
            "{reply}"
        );
    }
    // A list after a word and a space, or after a colon, is still a value.
    assert_eq!(
        llm_extract::repair("The list [1, 2]").unwrap(),
        serde_json::json!([1, 2])
    );
    assert_eq!(
        llm_extract::repair("list:[1, 2]").unwrap(),
        serde_json::json!([1, 2])
    );
}

#[test]
fn tie_break_first_takes_the_first() {
    let e = Extractor::new().tie_break(TieBreak::First);
    let reply = "{\"product\": \"one\", \"stars\": 1} {\"product\": \"two\", \"stars\": 2}";
    assert_eq!(e.from_str::<Review>(reply).unwrap().product, "one");
    assert_eq!(e.repair(reply).unwrap()["product"], "one");
    assert_eq!(
        e.extract::<serde_json::Value>(reply).unwrap().value["product"],
        "one"
    );
    assert_eq!(
        Extractor::new().from_str::<Review>(reply).unwrap().product,
        "two"
    );
}

#[test]
fn a_better_fit_wins_wherever_it_is() {
    // The later value needs repairs the earlier does not: the earlier wins either way.
    let reply = "{\"product\": \"clean\", \"stars\": 1}\n{product: 'damaged', stars: '2',}";
    for e in [
        Extractor::new(),
        Extractor::new().tie_break(TieBreak::First),
    ] {
        assert_eq!(e.from_str::<Review>(reply).unwrap().product, "clean");
    }
    // The earlier one does not fit the type at all: the later wins under `First` too.
    let reply = "{\"product\": \"x\"} then {\"product\": \"y\", \"stars\": 5}";
    let e = Extractor::new().tie_break(TieBreak::First);
    assert_eq!(e.from_str::<Review>(reply).unwrap().product, "y");
}

/// A type whose every field may be missing: any object "fits" it.
#[derive(Extract, Debug, PartialEq)]
struct Profile {
    name: Option<String>,
    age: Option<u32>,
}

#[test]
fn a_value_with_none_of_the_types_keys_loses_to_one_with_some() {
    // An unrelated object first (an example, a tool's output), then the answer, which needs a
    // coercion ("4" read as a number): the answer wins although it costs more.
    let reply = r#"I looked at {"status": 1} and the answer is {"age": "4"}"#;
    let out = llm_extract::extract::<Profile>(reply).unwrap();
    assert_eq!(
        out.value,
        Profile {
            name: None,
            age: Some(4)
        }
    );
    assert_eq!(
        &reply[out.report.span.start..out.report.span.end],
        r#"{"age": "4"}"#
    );
    // The same with the order reversed and with either tie-break: where it is does not matter.
    let reversed = r#"The answer is {"age": "4"}, from {"status": 1}"#;
    for e in [
        Extractor::new(),
        Extractor::new().tie_break(TieBreak::First),
    ] {
        assert_eq!(e.from_str::<Profile>(reply).unwrap().age, Some(4));
        assert_eq!(e.from_str::<Profile>(reversed).unwrap().age, Some(4));
    }
    // A clean answer read on the direct path against an unrelated object read on the full
    // path (its unknown key keeps it off the direct path), in both orders.
    for reply in [
        r#"{"name": "Ada"} and then {"unrelated": true}"#,
        r#"{"unrelated": true} and then {"name": "Ada"}"#,
        "```json\n{\"name\": \"Ada\"}\n```\nFor comparison: {\"id\": 7}",
        "Other: {\"id\": 7}\n```json\n{\"name\": \"Ada\"}\n```",
    ] {
        let e = Extractor::new().tie_break(TieBreak::First);
        assert_eq!(
            e.from_str::<Profile>(reply).unwrap().name.as_deref(),
            Some("Ada"),
            "{reply}"
        );
        let e = Extractor::new().tie_break(TieBreak::Last);
        assert_eq!(
            e.from_str::<Profile>(reply).unwrap().name.as_deref(),
            Some("Ada"),
            "{reply}"
        );
    }
    // An empty object or list is an answer ("nothing"), not an unrelated value: the usual
    // choice stands, and a template before it does not win.
    let reply = r#"The format is {"name": "", "age": 0}. Result: {}"#;
    let out = llm_extract::extract::<Profile>(reply).unwrap();
    assert_eq!(&reply[out.report.span.start..out.report.span.end], "{}");
    let reply = "Example: [1, 2]. Result: []";
    assert!(llm_extract::from_str::<Vec<u32>>(reply).unwrap().is_empty());
}

#[test]
fn when_no_value_matches_the_type_the_usual_choice_stands() {
    // Neither object has a key of the type: the cheaper, then the later, wins as before.
    let reply = r#"{"a": 1} and {'b': 2}"#;
    let out = llm_extract::extract::<Profile>(reply).unwrap();
    assert_eq!(
        &reply[out.report.span.start..out.report.span.end],
        r#"{"a": 1}"#
    );
    let reply = r#"{"a": 1} and {"b": 2}"#;
    let out = llm_extract::extract::<Profile>(reply).unwrap();
    assert_eq!(
        &reply[out.report.span.start..out.report.span.end],
        r#"{"b": 2}"#
    );
    // Untyped readers have no keys to match: `repair` and `Value` keep cost, then position.
    let reply = r#"{"name": "x"} and {"other": 2}"#;
    assert_eq!(llm_extract::repair(reply).unwrap(), json!({"other": 2}));
    assert_eq!(
        llm_extract::from_str::<serde_json::Value>(reply).unwrap(),
        json!({"other": 2})
    );
}

#[test]
fn an_answer_tag_wins_a_tie_against_prose() {
    // One repair each: a trailing comma in the tag, the prose around the other.
    let reply = "<json>{\"product\": \"tagged\", \"stars\": 1,}</json> and {\"product\": \"prose\", \"stars\": 1}";
    assert_eq!(
        llm_extract::from_str::<Review>(reply).unwrap().product,
        "tagged"
    );
    assert_eq!(llm_extract::repair(reply).unwrap()["product"], "tagged");
}

/// Unwrapping and the whole-object reading both apply at every level of this nesting; trying
/// both at each level would read the levels below again and again (exponential).
#[test]
fn nested_wrappers_that_never_fit_take_linear_time() {
    #[derive(Extract, Debug)]
    #[allow(dead_code)]
    struct Optional {
        inner: Option<Box<Optional>>,
        n: Option<u32>,
    }
    // Every level fits as written without finding a field, and each tries its one wrapper.
    let depth = 120;
    let text = format!("{}1{}", "{\"a\": ".repeat(depth), "}".repeat(depth));
    let out = llm_extract::extract::<Optional>(&text).unwrap();
    assert!(out.value.inner.is_none() && out.value.n.is_none());
    let text = format!(
        "{}{{\"n\": 7}}{}",
        "{\"a\": ".repeat(depth),
        "}".repeat(depth)
    );
    assert_eq!(llm_extract::from_str::<Optional>(&text).unwrap().n, Some(7));
    #[derive(Extract, Debug)]
    #[allow(dead_code)]
    struct Recursive {
        inner: Box<Recursive>,
    }
    let depth = 120;
    let text = format!("{}1{}", "{\"a\": ".repeat(depth), "}".repeat(depth));
    let start = std::time::Instant::now();
    assert!(llm_extract::from_str::<Recursive>(&text).is_err());
    assert!(llm_extract::from_str::<Vec<Recursive>>(&text).is_err());
    assert!(
        start.elapsed() < std::time::Duration::from_secs(5),
        "took {:?}",
        start.elapsed()
    );
}
