use super::*;
use crate::settings::Settings;

fn starts(text: &str) -> Vec<(usize, Origin)> {
    let mut found: Vec<_> = locate(text, &Settings::default())
        .candidates
        .iter()
        .map(|c| (c.span.start, c.origin))
        .collect();
    found.sort();
    found
}

#[test]
fn candidates_come_from_each_kind_of_place() {
    let text = "a {\"x\": 1} b\n```json\n[2]\n```\n<json>{\"y\": 3}</json>";
    let found = starts(text);
    assert!(found.contains(&(2, Origin::Prose)), "{found:?}");
    assert!(
        found.contains(&(text.find("[2]").unwrap(), Origin::Fence)),
        "{found:?}"
    );
    assert!(
        found.contains(&(text.find("{\"y\"").unwrap(), Origin::Explicit)),
        "{found:?}"
    );
}

#[test]
fn strings_hide_brackets_from_the_scan() {
    let text = "x {\"a\": \"} ] {\"} y";
    let spans = scan::values(text, Span::new(0, text.len()));
    assert_eq!(spans, vec![(Span::new(2, 16), scan::Place::TopLevel)]);
}

#[test]
fn ranking_puts_explicit_first_and_prose_last() {
    let text = "{\"p\": 0}\n```json\n{\"f\": 1}\n```\n---JSON_OUTPUT_START---{\"m\": 2}---JSON_OUTPUT_END---";
    let located = locate(text, &Settings::default());
    let origins: Vec<Origin> = values(&located).map(|c| c.origin).collect();
    assert_eq!(
        origins,
        vec![Origin::Explicit, Origin::Fence, Origin::Prose]
    );
}

#[test]
fn thoughts_are_split_off() {
    let text = "<think>{\"no\": 1}</think>{\"yes\": 2}";
    let located = locate(text, &Settings::default());
    assert_eq!(located.thoughts.len(), 1);
    assert_eq!(
        &text[located.thoughts[0].start..located.thoughts[0].end],
        "{\"no\": 1}"
    );
    assert!(located
        .candidates
        .iter()
        .all(|c| c.span.start >= text.find("</think>").unwrap()));
}

#[test]
fn labeled_sections_are_always_offered_last() {
    let text = "Title: A\nPlan: B";
    let located = locate(text, &Settings::default());
    let found: Vec<&Candidate> = values(&located).collect();
    assert!(found.len() == 1 && matches!(found[0].form, Form::Sections(_)));
    // Beside a value written as one, after it (and after the reply as text).
    let text = "Title: A\nPlan: B\n{\"a\": 1}";
    let located = locate(text, &Settings::default());
    let last = located.candidates.last().unwrap();
    assert!(matches!(last.form, Form::Sections(_)));
    assert!(located.candidates[..located.candidates.len() - 1]
        .iter()
        .all(|c| c.base_cost < last.base_cost && !matches!(c.form, Form::Sections(_))));
}

#[test]
fn scans_stay_linear_on_hostile_markup() {
    // Many unclosed tags and fences: each is looked at a bounded number of times.
    let text = "<json>".repeat(20_000) + &"```".repeat(20_000) + &"<think>".repeat(20_000);
    let located = locate(&text, &Settings::default());
    assert!(values(&located).count() <= 2);
    // The plain-text reading is one candidate per region at most.
    assert!(located.candidates.len() <= 8);
}

/// The candidates that hold values, without the plain-text readings of whole regions.
fn values(located: &Located) -> impl Iterator<Item = &Candidate> {
    located.candidates.iter().filter(|c| c.form != Form::Text)
}
