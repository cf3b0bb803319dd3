//! A value written inside reasoning (`<think>`, `<thinking>`, Harmony's analysis channel, ...)
//! is never the answer by default; `Extractor::fallback_to_reasoning` reads it when nothing
//! outside reasoning holds a value, and the report says where it came from.

use llm_extract::{Extract, Extractor, RepairKind};
use serde_json::{json, Value};

fn fallback() -> Extractor {
    Extractor::new().fallback_to_reasoning()
}

fn from_reasoning(report: &llm_extract::Report) -> bool {
    report
        .repairs
        .iter()
        .any(|r| r.kind == RepairKind::FromReasoning)
}

#[test]
fn a_value_only_inside_reasoning_is_read_when_the_caller_allows_it_and_reported() {
    for (text, want) in [
        (
            "<think>The answer is {\"a\": 1}.</think>\nHope this helps!",
            json!({"a": 1}),
        ),
        (
            "<thinking>\n```json\n[1, 2]\n```\n</thinking>",
            json!([1, 2]),
        ),
        // Cut off while still thinking (the block never closes).
        (
            "<think>Draft: {\"a\": 1, \"b\": [2",
            json!({"a": 1, "b": [2]}),
        ),
        // The opener was in the prompt; only the closer is in the reply.
        ("so the value is {'a': 1}</think>\nDone.", json!({"a": 1})),
        (
            "<|channel|>analysis<|message|>Result: {\"a\": 1}<|end|>",
            json!({"a": 1}),
        ),
    ] {
        assert!(llm_extract::repair(text).is_err(), "{text}");
        assert!(llm_extract::extract::<Value>(text).is_err(), "{text}");
        let out = fallback()
            .extract::<Value>(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(out.value, want, "{text}");
        assert!(from_reasoning(&out.report), "{text}: {:?}", out.report);
        assert!(!out.thoughts.is_empty(), "{text}");
        assert_eq!(fallback().repair(text).unwrap(), want, "{text}");
    }
}

#[test]
fn a_value_outside_reasoning_is_still_the_answer_even_damaged() {
    for text in [
        "<think>{\"a\": 0}</think>\n{\"a\": 1}",
        "<think>{\"a\": 0}</think>\nHere: {'a': 1,",
        "{\"a\": 1}\n<think>on second thought {\"a\": 0}",
    ] {
        let out = fallback().extract::<Value>(text).unwrap();
        assert_eq!(out.value, json!({"a": 1}), "{text}");
        assert!(!from_reasoning(&out.report), "{text}");
        assert_eq!(
            fallback().repair_all(text).unwrap(),
            [json!({"a": 1})],
            "{text}"
        );
    }
}

#[derive(Extract, Debug, PartialEq)]
struct Weather {
    city: String,
    days: u8,
}

#[test]
fn typed_reading_picks_the_value_inside_reasoning_that_fits() {
    let text = "<think>First I tried {\"city\": \"Paris\"} but days are needed: {\"city\": \"Paris\", \"days\": 3}</think>\nI hope that helps.";
    let out = fallback().extract::<Weather>(text).unwrap();
    assert_eq!(
        out.value,
        Weather {
            city: "Paris".into(),
            days: 3
        }
    );
    assert!(from_reasoning(&out.report));
    // Several values inside reasoning, in order, for the all-values entry points.
    let all = fallback().repair_all(text).unwrap();
    assert_eq!(
        all,
        [
            json!({"city": "Paris"}),
            json!({"city": "Paris", "days": 3})
        ]
    );
    // Labeled sections outside reasoning stand outside it: they are the answer.
    let text = "<think>{\"city\": \"Rome\", \"days\": 1}</think>\nCity: Paris\nDays: 3";
    let out = fallback().extract::<Weather>(text).unwrap();
    assert_eq!(out.value.city, "Paris");
    assert!(!from_reasoning(&out.report));
}

#[test]
fn prose_outside_reasoning_is_the_answer_for_a_type_read_from_prose() {
    let text = "<think>maybe {\"a\": 1}</think>\nThe answer is no.";
    let out = fallback().extract::<String>(text).unwrap();
    assert_eq!(out.value, "The answer is no.");
    assert!(!from_reasoning(&out.report));
    // With nothing at all outside, the reasoning's text is what there is.
    let out = fallback()
        .extract::<u32>("<think>It is 42.</think>")
        .unwrap();
    assert_eq!(out.value, 42);
    assert!(from_reasoning(&out.report));
    assert!(llm_extract::extract::<u32>("<think>It is 42.</think>").is_err());
}

/// Inkling writes its reasoning as `<|content_thinking|>...`, ended by `<|end_message|>` (or
/// by the `<|content_text|>` of its answer): a value in it is a thought, never the answer,
/// whole and streamed.
#[test]
fn inkling_reasoning_is_a_thought_not_the_answer() {
    for text in [
        "<|content_thinking|>Maybe {\"city\": \"Rome\"}.<|end_message|><|message_model|><|content_text|>{\"city\": \"Paris\"}<|end_message|>",
        "<|content_thinking|>Maybe {\"city\": \"Rome\"}.<|content_text|>{\"city\": \"Paris\"}",
    ] {
        let got = llm_extract::extract::<Value>(text).unwrap();
        assert_eq!(got.value, json!({"city": "Paris"}), "{text}");
        assert_eq!(got.thoughts, ["Maybe {\"city\": \"Rome\"}."], "{text}");
        for size in [1, 5, text.len()] {
            let mut stream = llm_extract::Stream::<Value>::new();
            for chunk in text.as_bytes().chunks(size) {
                stream.push_bytes(chunk);
            }
            assert_eq!(stream.thoughts(), got.thoughts, "{text}, chunks of {size}");
            assert_eq!(stream.finish().unwrap().value, got.value, "{text}, chunks of {size}");
        }
    }
}
