//! A story extractor's `{items, story}` reply, through fourteen real-world
//! quirks (truncation, comments, quotes), read by the type instead of a chain of regex rewrites.

use llm_extract_examples::story::*;

fn story(text: &str) -> StoryExtraction {
    llm_extract::from_str(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

const CLEAN: &str = r#"{"items": [{"id": "event_kind", "value": "system_change", "description": "A change", "evidence": "logs"}], "story": "The event happened."}"#;

#[test]
fn the_fourteen_cases_of_the_seed() {
    let cases: Vec<(&str, String)> = vec![
        ("clean JSON", CLEAN.to_string()),
        ("markdown fences", format!("```json\n{CLEAN}\n```\nHere is the result!")),
        ("literal newlines in strings", "{\"items\": [], \"story\": \"Line one\nLine two\ttab\"}".into()),
        ("trailing commas", r#"{"items": [{"id": "a", "value": "b",},], "story": "s",}"#.into()),
        ("missing values", r#"{"items": [{"id": "a", "value": "b", "description": }], "story": "s"}"#.into()),
        (
            "fences + newlines + trailing commas",
            "```json\n{\"items\": [{\"id\": \"a\", \"value\": \"b\",}],\n\"story\": \"one\ntwo\",}\n```".into(),
        ),
        ("extra text after JSON", format!("{CLEAN}\nI hope this helps!")),
        ("truncated mid-object", r#"{"story": "s", "items":[{"id":"foo", "value": "bar""#.into()),
        (
            "deeply nested with quirks",
            "{'items': [{'id': 'a', 'value': 'b', 'evidence': 'x', /* note */},], // done\n 'story': 'ok'}".into(),
        ),
        ("empty items with a story", r#"{"items": [], "story": "Nothing to extract."}"#.into()),
        ("truncated mid-string", r#"{"items": [], "story": "The event was cut o"#.into()),
        ("unescaped quotes in strings", r#"{"items": [], "story": "She said "hello" and left."}"#.into()),
        ("single quotes", r#"{'items': [{'id': 'event_kind', 'value': 'system_change'}], 'story': 'x'}"#.into()),
        ("// comments", "{\n  \"items\": [], // no items found\n  \"story\": \"The event...\" /* main narrative */\n}".into()),
    ];
    for (name, text) in &cases {
        let s = story(text);
        assert!(!s.story.is_empty(), "{name}");
    }
    assert_eq!(story(&cases[2].1).story, "Line one\nLine two\ttab");
    assert_eq!(story(&cases[4].1).items[0].description, None);
    assert_eq!(
        story(&cases[7].1).items,
        vec![Item {
            id: "foo".into(),
            value: "bar".into(),
            description: None,
            evidence: None
        }]
    );
    assert_eq!(story(&cases[10].1).story, "The event was cut o");
    assert_eq!(story(&cases[11].1).story, r#"She said "hello" and left."#);
    assert_eq!(story(&cases[12].1).items[0].value, "system_change");
}

#[test]
fn truncation_is_visible_in_the_report() {
    let out = llm_extract::extract::<StoryExtraction>(r#"{"items": [], "story": "cut"#).unwrap();
    assert!(!out.report.complete);
    assert!(llm_extract::Extractor::new()
        .require_complete()
        .from_str::<StoryExtraction>(r#"{"items": [], "story": "cut"#)
        .is_err());
}

#[test]
fn every_prefix_of_a_reply_is_handled_without_panic() {
    let text = format!("```json\n{CLEAN}\n```");
    for end in (0..=text.len()).filter(|i| text.is_char_boundary(*i)) {
        let _ = llm_extract::from_str::<StoryExtraction>(&text[..end]);
    }
}
