//! Reading quality: nothing the model wrote is silently lost, and a reply that is not a
//! container is still read by a type that can read it.

use llm_extract::{Extract, RepairKind};
use serde_json::{json, Value};

/// Damage that used to drop members, each read back whole, with the repair that says so.
#[test]
fn damaged_documents_keep_every_member() {
    let rows: &[(&str, Value, RepairKind)] = &[
        (
            r#"{"name": "Ada", "role": "analyst, "team": "core", "age": 36}"#,
            json!({"name": "Ada", "role": "analyst", "team": "core", "age": 36}),
            RepairKind::MissingQuote,
        ),
        (
            "{\"x\": 1, // a ] in a comment\n \"y\": 2}",
            json!({"x": 1, "y": 2}),
            RepairKind::Comment,
        ),
        (
            r#"{"xs": [1, 2, 3}, "n": 4}"#,
            json!({"xs": [1, 2, 3], "n": 4}),
            RepairKind::WrongBracket,
        ),
        (
            r#"[{"k": "a"}}, {"k": "b"}]"#,
            json!([{"k": "a"}, {"k": "b"}]),
            RepairKind::StrayBracket,
        ),
        (
            r#"{"ok": false, ALSO "next": "v"}"#,
            json!({"ok": false, "next": "v"}),
            RepairKind::SkippedText,
        ),
        (
            r#"{"postcode": 00501}"#,
            json!({"postcode": "00501"}),
            RepairKind::NumberAsString,
        ),
        (
            r#"[{"n": 1{"n": 2}]"#,
            json!([{"n": 1}, {"n": 2}]),
            RepairKind::MissingBracket,
        ),
        (
            r#"[{"n": 1}, "m": 2}]"#,
            json!([{"n": 1}, {"m": 2}]),
            RepairKind::MissingOpeningBracket,
        ),
        (
            r#"{"at": (3, 4), "tags": {'x', 'y'}, "big": 2_500}"#,
            json!({"at": [3, 4], "tags": ["x", "y"], "big": 2500}),
            RepairKind::SetAsArray,
        ),
    ];
    for (text, expected, kind) in rows {
        let out = llm_extract::extract::<Value>(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&out.value, expected, "{text}");
        assert!(
            out.report.repairs.iter().any(|r| r.kind == *kind),
            "{text}: no {kind:?} in {:?}",
            out.report.repairs
        );
    }
}

/// A key cut off mid-name is dropped, not glued into the string before it.
#[test]
fn a_key_cut_off_is_dropped() {
    let v = llm_extract::repair(r#"{"summary": "Refund issued", "customer_em"#).unwrap();
    assert_eq!(v, json!({"summary": "Refund issued"}));
}

#[derive(Extract, Debug, PartialEq)]
enum Sentiment {
    Positive,
    Negative,
}

/// Replies that are not containers: the type decides what they mean.
#[test]
fn scalar_replies_are_read_by_their_type() {
    assert_eq!(
        llm_extract::from_str::<Sentiment>("The sentiment is POSITIVE.").unwrap(),
        Sentiment::Positive
    );
    assert!(llm_extract::from_str::<Sentiment>("Positive or negative, hard to say.").is_err());
    assert_eq!(
        llm_extract::from_str::<f64>("about 3.5 stars").unwrap(),
        3.5
    );
    assert_eq!(llm_extract::from_str::<u32>("42").unwrap(), 42);
    assert!(llm_extract::from_str::<bool>("```\nTrue\n```").unwrap());
    assert_eq!(
        llm_extract::from_str::<String>("Just a sentence.").unwrap(),
        "Just a sentence."
    );
    assert_eq!(
        llm_extract::repair("\"hello\nworld").unwrap(),
        json!("hello\nworld")
    );
    assert_eq!(llm_extract::repair("True").unwrap(), json!(true));
    assert_eq!(llm_extract::repair("2.").unwrap(), json!(2.0));
    // Schema-less, prose is not a value.
    assert!(llm_extract::repair("The sentiment is POSITIVE.").is_err());
}

/// Valid JSON holding the characters the new rules look at stays exactly as written.
#[test]
fn valid_json_with_commas_and_quotes_in_strings_is_unchanged() {
    for text in [
        r#"[",", ","]"#,
        r#"{"": ","}"#,
        r#"{"a": ", ", "b": ", \"c\": 1"}"#,
        r#"["a, \"b\", c", "d"]"#,
        r#"{"a": "x}", "b": "]"}"#,
    ] {
        let out = llm_extract::extract::<Value>(text).unwrap();
        assert_eq!(
            out.value,
            serde_json::from_str::<Value>(text).unwrap(),
            "{text}"
        );
        assert!(
            out.report.repairs.is_empty(),
            "{text}: {:?}",
            out.report.repairs
        );
    }
}

/// A fence, tag or bracket inside a string or comment of a value is the value's text: it never
/// starts or ends a value, so the enclosing value is read whole.
#[test]
fn markup_inside_a_value_never_wins_over_the_value() {
    let rows: &[(&str, Value)] = &[
        (
            "{\"name\": \"Ada\", \"note\": \"see <json>[1]</json>\",\n \"age\": 36",
            json!({"name": "Ada", "note": "see <json>[1]</json>", "age": 36}),
        ),
        (
            "{\"fix\": \"Here is the fix:\n```python\nprint([1, 2])\n```\nRun it twice.\", \"ok\": true}",
            json!({"fix": "Here is the fix:\n```python\nprint([1, 2])\n```\nRun it twice.", "ok": true}),
        ),
        (
            "Sure:\n```json\n{\"patch\": \"```diff\n- a = [1]\n+ a = [1, 2]\n```\"}\n```\nDone.",
            json!({"patch": "```diff\n- a = [1]\n+ a = [1, 2]\n```"}),
        ),
        (
            "Sure! {\"```\": null, \"\": []} Hope that helps.",
            json!({"```": null, "": []}),
        ),
        (
            "<output>{\"hint\": \"wrap it in <output>[2]</output>\", \"n\": 3}</output>",
            json!({"hint": "wrap it in <output>[2]</output>", "n": 3}),
        ),
        (
            "{\"log\": \"step\n<think>\n[4]\n</think>\", \"n\": 5}",
            json!({"log": "step\n<think>\n[4]\n</think>", "n": 5}),
        ),
        (
            "Result: {\"a\": 1, /* } ] */ \"b\": 2} ok",
            json!({"a": 1, "b": 2}),
        ),
        (
            "{\"a\": 1, # a } here\n \"b\": 2,\n // and ] here\n \"c\": 3}",
            json!({"a": 1, "b": 2, "c": 3}),
        ),
    ];
    for (text, expected) in rows {
        let out = llm_extract::extract::<Value>(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&out.value, expected, "{text}");
        assert!(out.thoughts.is_empty(), "{text}: {:?}", out.thoughts);
        assert_eq!(&llm_extract::repair(text).unwrap(), expected, "{text}");
    }
}

/// Braces in a sentence are not an object: `repair` finds no JSON, and a typed target says so
/// instead of reporting a field of the wrong type.
#[test]
fn braces_in_prose_are_not_json() {
    for text in [
        "Use the {name} placeholder in the template.",
        "say \"{not json}\" ok",
        "Fill in {first name} and {last name}, then {city}.",
    ] {
        let e = llm_extract::repair(text).unwrap_err();
        assert!(e.to_string().starts_with("no JSON found"), "{text}: {e}");
        let e = llm_extract::from_str::<Review>(text).unwrap_err();
        assert!(e.to_string().starts_with("no JSON found"), "{text}: {e}");
    }
    // A member after the brace makes it a value, in prose too.
    assert_eq!(
        llm_extract::repair("Use the {name} placeholder: {name: \"Ada\"}").unwrap(),
        json!({"name": "Ada"})
    );
}

#[derive(Extract, Debug)]
#[allow(dead_code)]
struct Review {
    stars: u8,
    text: String,
}

/// Each reading rule of the parser, through the public API, with the repair that reports it.
/// The inputs are of our own, not the examples of the issue.
#[test]
fn each_reading_rule_keeps_what_the_model_meant() {
    let rows: &[(&str, Value, RepairKind)] = &[
        // Unicode spaces between tokens; one repair per run.
        (
            "{\"city\":\u{2002}\"Oslo\",\u{3000}\"pop\":\u{a0}709000,\u{200b}\"ok\": true}",
            json!({"city": "Oslo", "pop": 709000, "ok": true}),
            RepairKind::UnicodeWhitespace,
        ),
        // A missing `},` after a string merges no records.
        (
            r#"[{"sku": "A1", "name": "bolt" {"sku": "B2", "name": "nut"}]"#,
            json!([{"sku": "A1", "name": "bolt"}, {"sku": "B2", "name": "nut"}]),
            RepairKind::MissingBracket,
        ),
        // A missing quote before `}, {`.
        (
            r#"[{"q": "why}, {"q": "how"}, {"q": "when"}]"#,
            json!([{"q": "why"}, {"q": "how"}, {"q": "when"}]),
            RepairKind::MissingQuote,
        ),
        // A missing quote before the closer of a nested object, a member of the parent after.
        (
            r#"{"call": {"file": "/tmp/x.log}, "reason": "rotate"}"#,
            json!({"call": {"file": "/tmp/x.log"}, "reason": "rotate"}),
            RepairKind::MissingQuote,
        ),
        // A mismatched closer closes what the rest of the text says it closes.
        (
            r#"{"meta": {"v": 3], "items": [1, 2]}"#,
            json!({"meta": {"v": 3}, "items": [1, 2]}),
            RepairKind::WrongBracket,
        ),
        // Text after the top-level value, in its syntax, is read back in.
        (
            r#"{"status": "ok"}, "count": 3}"#,
            json!({"status": "ok", "count": 3}),
            RepairKind::StrayBracket,
        ),
        (
            r#"["red", "green"], "blue"]"#,
            json!(["red", "green", "blue"]),
            RepairKind::StrayBracket,
        ),
        // An extra closer in the middle of a record.
        (
            r#"[{"id": 7}}, "tag": "new"}, {"id": 8, "tag": "old"}]"#,
            json!([{"id": 7, "tag": "new"}, {"id": 8, "tag": "old"}]),
            RepairKind::StrayBracket,
        ),
        // Python triple-quoted strings, dedented.
        (
            "{\"query\": \"\"\"\n    SELECT name\n    FROM pets\n\"\"\", \"limit\": 5}",
            json!({"query": "SELECT name\nFROM pets", "limit": 5}),
            RepairKind::TripleQuotedString,
        ),
        // Thousands separators in an object value.
        (
            r#"{"revenue": 12,500,000, "currency": "USD"}"#,
            json!({"revenue": 12500000, "currency": "USD"}),
            RepairKind::DigitSeparator,
        ),
    ];
    for (text, expected, kind) in rows {
        let out = llm_extract::extract::<Value>(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&out.value, expected, "{text}");
        assert!(
            out.report.repairs.iter().any(|r| r.kind == *kind),
            "{text}: no {kind:?} in {:?}",
            out.report.repairs
        );
    }
}

/// A code field whose value is a fenced block with raw newlines and unescaped quotes keeps
/// its code whole, JSON-looking terminators included. (Read by the parser directly: that the
/// fence inside the string is not taken for a candidate of its own is the locate stage's rule.)
#[test]
fn code_in_a_fenced_block_stays_whole() {
    let text = "{\"code\": \"```python\nrow = {\"k\": [1, 2]}\nprint(\"},\", row)\n```\", \"lang\": \"py\"}";
    let parsed = llm_extract::__internal::parse(text, 128).unwrap();
    assert_eq!(
        parsed.node.to_value(),
        json!({"code": "```python\nrow = {\"k\": [1, 2]}\nprint(\"},\", row)\n```", "lang": "py"})
    );
    assert!(parsed.node.is_complete_deep());
}

/// Unicode spaces inside strings are content; valid JSON holding them is unchanged.
#[test]
fn unicode_spaces_inside_strings_are_content() {
    let text = "{\"name\": \"Ana\u{a0}Lima\", \"gap\": \"\u{3000}\"}";
    let out = llm_extract::extract::<Value>(text).unwrap();
    assert_eq!(out.value, serde_json::from_str::<Value>(text).unwrap());
    assert!(out.report.repairs.is_empty());
}

#[derive(Extract, Debug, PartialEq)]
#[extract(rename_all = "SCREAMING_SNAKE_CASE")]
enum Verdict {
    Spam,
    NotSpam,
    One,
}

#[derive(Extract, Debug, PartialEq)]
enum Title {
    #[extract(alias = "señor")]
    Mister,
    #[extract(alias = "señorita")]
    Miss,
}

/// An enum named in prose: a label written as declared settles a tie with an ordinary word,
/// and names the variant in a long explanation; diacritics aside in a sentence; a capital at
/// the start of a sentence settles nothing.
#[test]
fn enum_labels_in_prose() {
    let long = format!(
        "{} Therefore, it should be classified as:\n\n- **SPAM**\n",
        "The text is typically characterized by unsolicited offers and urgency, common in spam messages. ".repeat(3)
    );
    assert!(long.len() > 200);
    assert_eq!(
        llm_extract::from_str::<Verdict>(&long).unwrap(),
        Verdict::Spam
    );
    let both = format!("{long} Or maybe NOT_SPAM.");
    assert!(llm_extract::from_str::<Verdict>(&both).is_err());
    assert_eq!(
        llm_extract::from_str::<Verdict>(r#"SPAM" is one of the answers."#).unwrap(),
        Verdict::Spam
    );
    // Long prose with no label written as declared names nothing.
    let words = "This looks like spam to me, though one cannot be sure. ".repeat(5);
    assert!(llm_extract::from_str::<Verdict>(&words).is_err());
    assert_eq!(
        llm_extract::from_str::<Title>("The title is senor for this person").unwrap(),
        Title::Mister
    );
    assert!(llm_extract::from_str::<Sentiment>("Positive or negative, hard to say.").is_err());
}

/// One variant asked for, a list given: the one item that names a variant, when the others
/// name none; two naming variants is a guess, an error.
#[test]
fn an_enum_from_a_list_naming_one_variant() {
    let out = llm_extract::extract::<Verdict>(r#"["SPAM", "MAYBE"]"#).unwrap();
    assert_eq!(out.value, Verdict::Spam);
    assert!(out
        .report
        .coercions
        .iter()
        .any(|c| c.kind == llm_extract::CoercionKind::ListToSingle));
    assert!(llm_extract::from_str::<Verdict>(r#"["SPAM", "NOT_SPAM"]"#).is_err());
    assert!(llm_extract::from_str::<Verdict>(r#"["MAYBE", "PERHAPS"]"#).is_err());
}
