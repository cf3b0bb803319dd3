//! Replies written as labeled sections instead of JSON: `Title: ...` lines, `**Intent**: ...`,
//! `## Plan` headings with paragraphs, `- key: value` lists and YAML-like blocks, read as an
//! object whose keys match the target's fields like any other keys. Read only by a type that
//! reads prose (never by `repair` or `serde_json::Value`), and only when no value written as
//! one fits it.

use llm_extract::{Extract, RepairKind};
use llm_extract_examples::planning::PlanningOutput;
use serde_json::json;

#[derive(Extract, Debug, PartialEq)]
struct Ticket {
    title: String,
    priority: u8,
    tags: Vec<String>,
    summary: String,
}

#[test]
fn sections_are_read_when_the_bracketed_values_do_not_fit() {
    // `[ABC-1]` and `[1]` are bracketed but are not a ticket; the sections are. Each list is
    // read as the field's type wants it: `tags` as a list, `summary` as text.
    let text = "Ticket [ABC-1] (see [1])\nTitle: Fix the login page\nPriority: 2\nTags:\n- auth\n- urgent\nSummary:\n- users cannot log in\n- since the last deploy";
    let out = llm_extract::extract::<Ticket>(text).unwrap();
    assert_eq!(
        out.value,
        Ticket {
            title: "Fix the login page".into(),
            priority: 2,
            tags: vec!["auth".into(), "urgent".into()],
            summary: "- users cannot log in\n- since the last deploy".into(),
        }
    );
    let sections = out
        .report
        .repairs
        .iter()
        .find(|r| r.kind == RepairKind::LabeledSections)
        .expect("reported");
    assert_eq!(sections.span.start, text.find("Title").unwrap());
    // A field error in a section points at the section's value, and is the error reported
    // beside bracketed values that are not a ticket at all.
    let stray = "Ticket [ABC-1] (see [1])\nTitle: Fix the login page\nPriority: 900\nTags: auth\nSummary: x";
    let err = llm_extract::extract::<Ticket>(stray).unwrap_err();
    assert_eq!(err.issues()[0].path.to_string(), "$.priority", "{err}");
    let text = "Title: Fix the login page\nPriority: 900\nTags: auth\nSummary: cannot log in";
    let err = llm_extract::extract::<Ticket>(text).unwrap_err();
    let issue = &err.issues()[0];
    assert_eq!(issue.path.to_string(), "$.priority", "{err}");
    let span = issue.span.unwrap();
    assert_eq!(&text[span.start..span.end], "900");
    assert_eq!(issue.position.map(|p| (p.line, p.column)), Some((2, 11)));
}

#[test]
fn a_clean_json_value_always_beats_the_sections() {
    let text = "Title: From the labels\nIntent: labels\n```json\n{\"title\": \"From the JSON\", \"intent\": \"json\"}\n```";
    let p: PlanningOutput = llm_extract::from_str(text).unwrap();
    assert_eq!(p.title.as_deref(), Some("From the JSON"));
    let t = "Title: x\nPriority: 1\nTags: a\nSummary: s\n{\"title\": \"JSON\", \"priority\": 3, \"tags\": [], \"summary\": \"j\"}";
    assert_eq!(llm_extract::from_str::<Ticket>(t).unwrap().title, "JSON");
    // Schema-less, a value written as one is the value; sections only when there is none.
    assert_eq!(llm_extract::repair(t).unwrap()["title"], "JSON");
    assert_eq!(llm_extract::repair_all(t).unwrap().len(), 1);
}

#[test]
fn without_any_value_the_sections_are_read_by_a_type_never_schema_less() {
    let text = "Title: Weather\nDays: 3\nCities:\n- Paris\n- Rome\nOptions:\n  units: metric\n  detail: high";
    // Prose is never a value for `repair` or `serde_json::Value`, labeled prose included.
    for err in [
        llm_extract::repair(text).unwrap_err(),
        llm_extract::repair_all(text).unwrap_err(),
        llm_extract::from_str::<serde_json::Value>(text).unwrap_err(),
        llm_extract::from_str_all::<serde_json::Value>(text).unwrap_err(),
    ] {
        assert_eq!(err.category(), llm_extract::Category::NotFound, "{err}");
    }
    #[derive(Extract, Debug, PartialEq)]
    struct Weather {
        title: String,
        days: u32,
        cities: Vec<String>,
    }
    let want = Weather {
        title: "Weather".into(),
        days: 3,
        cities: vec!["Paris".into(), "Rome".into()],
    };
    assert_eq!(llm_extract::from_str::<Weather>(text).unwrap(), want);
    assert_eq!(llm_extract::from_str_all::<Weather>(text).unwrap(), [want]);
}

/// Models label the parts of a reply in prose: `Output:` before the value (damaged, or in a
/// fence), `Note:` after it. The value is the answer, however damaged; the labels are prose.
#[test]
fn a_value_labeled_in_prose_is_the_value() {
    let damaged = "{name: Widget Pro, tags: [red, blue, green], owner: Ann Lee, status: active, size: large, color: dark red, note: hello world, id: 1 count: 2}";
    let want = json!({
        "name": "Widget Pro", "tags": ["red", "blue", "green"], "owner": "Ann Lee",
        "status": "active", "size": "large", "color": "dark red", "note": "hello world",
        "id": 1, "count": 2
    });
    for text in [
        format!("Output:\n{damaged}\nNote: this is a note."),
        format!("Output:\n```json\n{damaged}\n```\nNote: done\nConfidence: high"),
        format!("**Output**: {damaged}\n**Note**: the id is a guess."),
    ] {
        assert_eq!(llm_extract::repair(&text).unwrap(), want, "{text}");
        let out = llm_extract::extract::<serde_json::Value>(&text).unwrap();
        assert_eq!(out.value, want, "{text}");
        assert!(out
            .report
            .repairs
            .iter()
            .all(|r| r.kind != RepairKind::LabeledSections));
        #[derive(Extract, Debug)]
        struct Product {
            name: String,
            tags: Vec<String>,
            id: u32,
        }
        let p = llm_extract::from_str::<Product>(&text).unwrap();
        assert_eq!((p.name.as_str(), p.tags.len(), p.id), ("Widget Pro", 3, 1));
    }
}

#[test]
fn a_yaml_answer_in_a_fence_is_read_too() {
    let text = "Here is the ticket:\n```yaml\ntitle: Fix the login page\npriority: 1\ntags: [auth]\nsummary: |\n  Users cannot log in\n  since Monday.\n```\nAnything else?";
    let out = llm_extract::extract::<Ticket>(text).unwrap();
    assert_eq!(
        out.value,
        Ticket {
            title: "Fix the login page".into(),
            priority: 1,
            tags: vec!["auth".into()],
            summary: "Users cannot log in\nsince Monday.".into(),
        }
    );
    let kinds: Vec<RepairKind> = out.report.repairs.iter().map(|r| r.kind).collect();
    assert!(kinds.contains(&RepairKind::LabeledSections) && kinds.contains(&RepairKind::Fence));
}

#[test]
fn prose_with_a_colon_is_not_sections() {
    for text in [
        "Note: nothing to report.",
        "I looked at it: the file is missing.",
        "See https://example.com for details.",
    ] {
        assert!(llm_extract::repair(text).is_err(), "{text}");
    }
}

#[test]
fn hostile_sections_take_linear_time() {
    for unit in [
        "k: v\n",
        "- a\n",
        "## h\n",
        "k:\n  ",
        "Title: [\n",
        "1. x: y\n   ",
    ] {
        let text = unit.repeat(200_000 / unit.len());
        let start = std::time::Instant::now();
        let _ = llm_extract::repair(&text);
        let _ = llm_extract::extract::<PlanningOutput>(&text);
        assert!(
            start.elapsed().as_secs() < 30,
            "{unit:?}: {:?}",
            start.elapsed()
        );
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]

    /// Section-flavoured noise (labels, markers, indentation, brackets, quotes, fences, line
    /// endings, multi-byte letters) never panics, in any entry point that reads sections.
    #[test]
    fn section_like_noise_never_panics(text in "[ \t\n\r\\-*#:.|>{}\\[\\]\"'a-z0-9é_`]{0,300}") {
        let _ = llm_extract::repair(&text);
        let _ = llm_extract::repair_all(&text);
        let _ = llm_extract::from_str_all::<serde_json::Value>(&text);
        let _ = llm_extract::extract::<PlanningOutput>(&text);
        let _ = llm_extract::extract::<Ticket>(&text);
        let _ = llm_extract::Extractor::new().fallback_to_reasoning().extract::<Ticket>(&format!("<think>{text}"));
    }

    /// Lines shaped like labels, lists and nested keys, which reach deeper into the reader.
    #[test]
    fn section_shaped_lines_never_panic(lines in proptest::collection::vec("[ ]{0,6}(- |1\\. |## |\\*\\*|> )?[a-zé_]{1,6}(: |:|\\*\\*: )?[a-z0-9 \"'\\[\\]{}|]{0,8}", 0..40)) {
        let text = lines.join("\n");
        let _ = llm_extract::repair(&text);
        let _ = llm_extract::extract::<PlanningOutput>(&text);
        let _ = llm_extract::extract::<Ticket>(&text);
    }
}
