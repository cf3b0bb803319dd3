//! The type decides what a reply means when it is not one JSON value of that type: a list type
//! gathers several values, or reads a list written as text; a number, a boolean or an enum is
//! read from a sentence; `Option<String>` keeps `""`.

use llm_extract::{CoercionKind, Extract, Extractor, TieBreak};

#[derive(Extract, Debug, PartialEq)]
struct Item {
    key: String,
}

#[derive(Extract, Debug, PartialEq, Clone, Copy)]
enum Color {
    Red,
    Green,
    Blue,
}

fn kinds<T>(out: &llm_extract::Extracted<T>) -> Vec<CoercionKind> {
    out.report
        .coercions
        .iter()
        .map(|c| c.kind.clone())
        .collect()
}

fn keys(items: &[Item]) -> Vec<&str> {
    items.iter().map(|i| i.key.as_str()).collect()
}

#[test]
fn a_list_type_gathers_several_values() {
    for text in [
        r#"{"key": "a"} {"key": "b"}"#,
        "{\"key\": \"a\"}\n{\"key\": \"b\"}\n",
        r#"first {"key": "a"} then {"key": "b"} done"#,
        "```json\n{\"key\": \"a\"}\n```\nand\n```json\n{\"key\": \"b\"}\n```",
        "{'key': 'a'}\n{key: b}",
    ] {
        let out = llm_extract::extract::<Vec<Item>>(text).unwrap();
        assert_eq!(keys(&out.value), ["a", "b"], "{text}");
        let gathered = &out.report.coercions[0];
        assert_eq!(gathered.kind, CoercionKind::GatheredList, "{text}");
        assert!(gathered.path.is_root());
        // The choice of a list does not depend on the tie-break.
        let first = Extractor::new().tie_break(TieBreak::First);
        assert_eq!(
            keys(&first.from_str::<Vec<Item>>(text).unwrap()),
            ["a", "b"]
        );
    }
}

#[test]
fn gathering_only_when_no_single_value_is_a_list() {
    // A list is there: it is the answer, the other value is not added to it.
    let text = r#"[{"key": "a"}, {"key": "b"}] and later {"key": "c"}"#;
    assert_eq!(
        keys(&llm_extract::from_str::<Vec<Item>>(text).unwrap()),
        ["a", "b"]
    );
    // One value: a one-item list.
    let out = llm_extract::extract::<Vec<Item>>(r#"{"key": "a"}"#).unwrap();
    assert_eq!(keys(&out.value), ["a"]);
    assert_eq!(kinds(&out), [CoercionKind::SingleToList]);
    // A value the reply sets aside, quotes or shows as an example is not one of the items.
    for text in [
        "Wrong: {\"key\": \"x\"}\nRight: {\"key\": \"a\"}\n{\"key\": \"b\"}",
        "For example {\"key\": \"x\"}. Yours:\n{\"key\": \"a\"}\n{\"key\": \"b\"}",
        "You wrote:\n> {\"key\": \"x\"}\n\n{\"key\": \"a\"} {\"key\": \"b\"}",
    ] {
        let items = llm_extract::from_str::<Vec<Item>>(text).unwrap();
        assert_eq!(keys(&items), ["a", "b"], "{text}");
    }
    let text = "Wrong: {\"key\": \"x\"}\nRight: {\"key\": \"a\"}";
    assert_eq!(
        keys(&llm_extract::from_str::<Vec<Item>>(text).unwrap()),
        ["a"]
    );
    // A value that is not an item: no gathering, the one that fits.
    let text = r#"{"key": "a"} {"other": [1]}"#;
    assert_eq!(
        keys(&llm_extract::from_str::<Vec<Item>>(text).unwrap()),
        ["a"]
    );
    // Not a list type: one value, the later of equals.
    let text = r#"{"key": "a"} {"key": "b"}"#;
    assert_eq!(llm_extract::from_str::<Item>(text).unwrap().key, "b");
    assert_eq!(
        llm_extract::from_str::<serde_json::Value>(text).unwrap()["key"],
        "b"
    );
}

/// A list the reply wrote is no item of a gathered list: when a lone value reads best as a
/// one-item list, a list beside it is not read as one item (its first, the rest dropped) to
/// gather the two.
#[test]
fn a_written_list_is_not_an_item_of_a_gathered_list() {
    #[derive(Extract, Debug, PartialEq)]
    enum Tone {
        Red,
        Blue,
        #[extract(other)]
        Other,
    }
    for text in [
        r#"["red", "teal"] or {"other": [1]}"#,
        "```json\n[null, \"teal\", \"BLUE\"]\n```\nOr, if you prefer, {\"other\": [1]} works too.",
    ] {
        let out = llm_extract::extract::<Vec<Option<Tone>>>(text).unwrap();
        let kinds = kinds(&out);
        assert!(
            !kinds.contains(&CoercionKind::GatheredList),
            "{text}: {kinds:?}"
        );
        assert!(
            !kinds.contains(&CoercionKind::ListToSingle),
            "{text}: {kinds:?}"
        );
    }
}

#[test]
fn a_list_written_as_text() {
    let rows: &[(&str, &[Color])] = &[
        (
            "red, green and blue",
            &[Color::Red, Color::Green, Color::Blue],
        ),
        (
            "Red, Green, and Blue.",
            &[Color::Red, Color::Green, Color::Blue],
        ),
        ("red and blue", &[Color::Red, Color::Blue]),
        ("green; red", &[Color::Green, Color::Red]),
        ("- red\n- blue\n", &[Color::Red, Color::Blue]),
        (
            "The colors:\n1. Blue\n2. Green",
            &[Color::Blue, Color::Green],
        ),
        ("* green\n* green", &[Color::Green, Color::Green]),
        ("The color is red.", &[Color::Red]),
    ];
    for (text, want) in rows {
        let out =
            llm_extract::extract::<Vec<Color>>(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(out.value, *want, "{text:?}");
    }
    let out = llm_extract::extract::<Vec<Color>>("red, green and blue").unwrap();
    assert!(kinds(&out).contains(&CoercionKind::ListFromText));
    // Bullets are items for strings too; a comma list is one string where one fits.
    let out = llm_extract::extract::<Vec<String>>("Fruits:\n- apples\n- pears").unwrap();
    assert_eq!(out.value, ["apples", "pears"]);
    assert_eq!(
        llm_extract::from_str::<Vec<String>>("apples, pears and plums").unwrap(),
        ["apples, pears and plums"]
    );
    // Inside JSON, a string holding a list in words, for a list of enums.
    #[derive(Extract, Debug)]
    struct Palette {
        colors: Vec<Color>,
    }
    let p = llm_extract::from_str::<Palette>(r#"{"colors": "red, blue"}"#).unwrap();
    assert_eq!(p.colors, [Color::Red, Color::Blue]);
    // An item that fits nothing: an error, not a shorter list.
    assert!(llm_extract::from_str::<Vec<Color>>("red, green and purple").is_err());
}

#[test]
fn scalars_in_a_sentence() {
    assert_eq!(
        llm_extract::from_str::<f64>("about 3.5 stars").unwrap(),
        3.5
    );
    assert_eq!(llm_extract::from_str::<u8>("I'd give it 4.").unwrap(), 4);
    for (text, want) in [
        ("yes", true),
        ("No.", false),
        ("Yes, it compiles.", true),
        ("The answer is no.", false),
        ("True", true),
    ] {
        assert_eq!(llm_extract::from_str::<bool>(text).unwrap(), want, "{text}");
    }
    assert!(llm_extract::from_str::<bool>("Yes and no.").is_err());
    assert!(llm_extract::from_str::<bool>("Maybe later").is_err());
    let out = llm_extract::extract::<bool>("Yes, it compiles.").unwrap();
    assert!(kinds(&out).contains(&CoercionKind::BoolFromText));
    assert_eq!(
        llm_extract::from_str::<Color>("I think the color is green.").unwrap(),
        Color::Green
    );
    assert!(llm_extract::from_str::<Color>("red or green").is_err());
}

#[test]
fn option_string_keeps_an_empty_string() {
    #[derive(Extract, Debug)]
    struct Form {
        note: Option<String>,
        count: Option<u32>,
        other: Option<String>,
    }
    let out = llm_extract::extract::<Form>(r#"{"note": "", "count": "", "other": "N/A"}"#).unwrap();
    assert_eq!(out.value.note.as_deref(), Some(""));
    assert_eq!(out.value.count, None);
    assert_eq!(out.value.other, None);
    let none: Vec<String> = out
        .report
        .coercions
        .iter()
        .filter(|c| c.kind == CoercionKind::PlaceholderToNone)
        .map(|c| c.path.to_string())
        .collect();
    assert_eq!(none, ["$.count", "$.other"]);
    assert_eq!(
        llm_extract::from_str::<Option<String>>(r#""""#).unwrap(),
        Some(String::new())
    );
}

/// A key written twice in an object read as a `serde_json::Value`: the later value is kept, as
/// serde_json keeps it, and the report says so at the key's path and the second key's span,
/// whether the document is valid JSON or damaged (nothing is dropped silently).
#[test]
fn a_key_written_twice_in_a_json_value_is_reported() {
    for text in [
        r#"{"a": {"s": 1, "b": 2, "s": 3}}"#,
        r#"{'a': {'s': 1, 'b': 2, 's': 3},}"#,
        "Here: {\"a\": {\"s\": 1, \"b\": 2, \"s\": 3}}",
    ] {
        let got = llm_extract::extract::<serde_json::Value>(text).unwrap();
        assert_eq!(
            got.value,
            serde_json::json!({"a": {"s": 3, "b": 2}}),
            "{text}"
        );
        let dups: Vec<_> = (got.report.coercions.iter())
            .filter(|c| c.kind == CoercionKind::DuplicateKey)
            .collect();
        assert_eq!(dups.len(), 1, "{text}: {:?}", got.report.coercions);
        assert_eq!(dups[0].path.to_string(), "$.a.s", "{text}");
        let second = text
            .rfind(['"', '\''])
            .map(|_| text.rfind("s").unwrap() - 1)
            .unwrap();
        assert_eq!(dups[0].span.start, second, "{text}");
    }
    // Without a repeated key there is nothing to report.
    let got = llm_extract::extract::<serde_json::Value>(r#"{"a": {"s": 1, "b": 2}}"#).unwrap();
    assert!(got.report.coercions.is_empty());
}
