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
    let top = scan::Seen {
        place: scan::Place::TopLevel,
        nonstandard: false,
    };
    assert_eq!(spans, vec![(Span::new(2, 16), top)]);
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
fn labeled_sections_are_searched_only_when_asked() {
    let text = "Title: A\nPlan: B";
    let located = locate(text, &Settings::default());
    assert!(located.candidates.iter().all(|c| c.form == Form::Text));
    assert!(!located.values_written());
    let sections = located.sections(text);
    assert!(sections.len() == 1 && matches!(sections[0].form, Form::Sections(_)));
    // Beside a value written as one: found when asked, never among the candidates.
    let text = "Title: A\nPlan: B\n{\"a\": 1}";
    let located = locate(text, &Settings::default());
    assert!(located.values_written());
    assert!(located
        .candidates
        .iter()
        .all(|c| !matches!(c.form, Form::Sections(_))));
    assert_eq!(located.sections(text).len(), 1);
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
fn values<'c>(located: &'c Located<'_>) -> impl Iterator<Item = &'c Candidate> {
    located.candidates.iter().filter(|c| c.form != Form::Text)
}

/// The spans of the value candidates (not the plain-text readings), in text order.
fn value_spans(text: &str) -> Vec<&str> {
    let located = locate(text, &Settings::default());
    let mut spans: Vec<Span> = values(&located).map(|c| c.span).collect();
    spans.sort_by_key(|s| (s.start, s.end));
    spans.dedup();
    spans.iter().map(|s| &text[s.start..s.end]).collect()
}

#[test]
fn fences_and_tags_inside_a_value_string_are_text() {
    // A damaged object (cut off) whose string values mention a fenced snippet and an answer
    // tag, with raw newlines: the only values are the object and what it directly holds.
    let text = "{\"code\": \"```python\nprint([1, 2])\n```\", \"note\": \"see <json>[3]</json>\",\n \"n\": [4]";
    assert_eq!(
        value_spans(text),
        vec![text, "[4]"],
        "fences and tags in strings opened no region"
    );
    // Inside a fence, a string holding a fence keeps the outer fence whole.
    let inner = "{\"code\": \"```python\nx = [1]\n```\"}";
    let text = format!("Here:\n```json\n{inner}\n```\nDone.");
    let located = locate(&text, &Settings::default());
    let fence = values(&located)
        .find(|c| c.origin == Origin::Fence)
        .expect("the outer fence");
    assert_eq!(&text[fence.span.start..fence.span.end], inner);
    assert!(value_spans(&text).iter().all(|s| *s != "[1]"));
    // The same with a fence without a language in the string.
    let inner = "{\"code\": \"Fix:\n```\nx = [1]\n```\nRun it.\"}";
    let text = format!("```json\n{inner}\n```\nDone.");
    let located = locate(&text, &Settings::default());
    let fence = values(&located)
        .find(|c| c.origin == Origin::Fence)
        .expect("the outer fence");
    assert_eq!(&text[fence.span.start..fence.span.end], inner);
}

#[test]
fn a_fence_run_inside_a_key_is_text() {
    // Regression: `{"```":null,"":[]}` in prose came back as `[]` (the key opened a fence).
    let value = "{\"```\":null,\"\":[]}";
    for text in [
        format!("Here you go:\n{value}\nAnything else?"),
        "Here you go:\n{\n  \"```\": null,\n  \"\": []\n}\nAnything else?".to_string(),
    ] {
        let located = locate(&text, &Settings::default());
        assert!(
            located.candidates.iter().all(|c| c.origin != Origin::Fence),
            "{text}"
        );
        assert!(value_spans(&text)[0].starts_with('{'), "{text}");
    }
}

#[test]
fn a_reasoning_tag_inside_a_value_string_is_text() {
    let text = "{\"a\": \"x\n<think>\nnot reasoning\n</think>\", \"b\": 1}";
    let located = locate(text, &Settings::default());
    assert!(located.thoughts.is_empty());
    assert_eq!(value_spans(text), vec![text]);
    // `</think>` followed by a brace inside a string is not the end of reasoning.
    let text = "{\"a\": \"</think>{\", \"b\": [1]}";
    assert!(locate(text, &Settings::default()).thoughts.is_empty());
    assert_eq!(value_spans(text)[0], text);
}

#[test]
fn a_string_never_closed_inside_a_fence_ends_with_the_fence() {
    // Markdown ends the fence at its closing line; the string was missing its closing quote.
    let text = "```json\n{\"a\": \"x}\n```\nThen:\n```json\n[1]\n```";
    let located = locate(text, &Settings::default());
    let fences: Vec<&str> = values(&located)
        .filter(|c| c.origin == Origin::Fence)
        .map(|c| &text[c.span.start..c.span.end])
        .collect();
    assert!(fences.contains(&"[1]"), "{fences:?}");
    // The same for an answer tag.
    let text = "<json>{\"a\": \"x}</json>\nand <json>[2]</json>";
    let found: Vec<&str> = values(&locate(text, &Settings::default()))
        .filter(|c| c.origin == Origin::Explicit)
        .map(|c| &text[c.span.start..c.span.end])
        .collect();
    assert!(found.contains(&"[2]"), "{found:?}");
    // A closing tag with text after it, in a string, is text the string holds.
    let value = "{\"note\": \"use </json> to close\"}";
    let text = format!("<json>{value}</json>");
    let found: Vec<&str> = values(&locate(&text, &Settings::default()))
        .filter(|c| c.origin == Origin::Explicit)
        .map(|c| &text[c.span.start..c.span.end])
        .collect();
    assert_eq!(found, vec![value]);
}

#[test]
fn comments_hide_brackets_and_line_comments_end_at_the_newline() {
    for text in [
        "{\"a\": 1, /* } ] */ \"b\": 2}",
        "{\"a\": 1, # } ]\n \"b\": 2}",
        "{\"a\": 1, // ] }\n \"b\": 2}",
        "[1, /* ] */ 2]",
        "{\"a\": 1,\u{3000}// }\n\"b\": 2}",
    ] {
        let prose = format!("Result: {text} ok");
        assert_eq!(value_spans(&prose), vec![text], "{text}");
    }
    // The comment ends at its line: the brace on the next line closes the object.
    let text = "x {\"a\": 1 // note\n} y [2]";
    assert_eq!(value_spans(text), vec!["{\"a\": 1 // note\n}", "[2]"]);
    // `//` right after a colon is a URL, not a comment.
    let text = "x {url: http://a.b/}, more} y";
    assert_eq!(value_spans(text), vec!["{url: http://a.b/}"]);
}

#[test]
fn quotes_in_values_follow_the_parser() {
    for (text, want) in [
        ("x {'a': '}', 'b': 2} y", "{'a': '}', 'b': 2}"),
        (
            "x {\u{201c}a\u{201d}: \u{201c}]}\u{201d}} y",
            "{\u{201c}a\u{201d}: \u{201c}]}\u{201d}}",
        ),
        (
            "x {\"a\": \"\"\"\n} \"\n\"\"\"} y",
            "{\"a\": \"\"\"\n} \"\n\"\"\"}",
        ),
        ("x {a: `}`} y", "{a: `}`}"),
        // An apostrophe inside a word opens nothing.
        ("x {note: it's fine} y", "{note: it's fine}"),
        // A quote after a unicode space is at a token start.
        ("x {a:\u{00a0}'}'} y", "{a:\u{00a0}'}'}"),
    ] {
        assert_eq!(value_spans(text), vec![want], "{text}");
    }
    // In prose an apostrophe is text: it hides nothing.
    assert_eq!(
        value_spans("It's here: {\"a\": 1} and don't [2]"),
        vec!["{\"a\": 1}", "[2]"]
    );
}

#[test]
fn a_value_written_as_a_fenced_block_is_one_string() {
    // As models write code: the block's brackets are text, and it is not a fence region.
    let value = "{\n  \"code\": ```\n  { x: }}}]])) }\n```,\n  \"type\": \"code\"\n}";
    let text = format!("Here's a comparison:\n\n{value}\n\nBoth work.");
    assert_eq!(value_spans(&text), vec![value]);
    // Inside a fence too: the fence ends at its own closing line.
    let text = format!("```json\n{value}\n```");
    let located = locate(&text, &Settings::default());
    assert!(values(&located)
        .any(|c| c.origin == Origin::Fence && &text[c.span.start..c.span.end] == value));
}

#[test]
fn braces_in_prose_open_a_value_only_when_a_member_follows() {
    assert!(value_spans("say \"{not json}\" ok").is_empty());
    assert!(value_spans("Use the {name} placeholder in the template.").is_empty());
    assert!(value_spans("Use the {user.name} or {a, b} forms.").is_empty());
    assert!(value_spans("Write `{` and `}` around members.").is_empty());
    assert_eq!(
        value_spans("Use the {name} placeholder. {\"a\": 1}"),
        vec!["{\"a\": 1}"]
    );
    for text in [
        "x {\"a\": 1} y",
        "x {'a': 1} y",
        "x {a: 1} y",
        "x {first name: Ada} y",
        "x {} y",
        "x {{\"a\": 1}} y",
        "x {\n  // c\n  \"a\": 1} y",
        "x {\u{2003}\"a\": 1} y",
    ] {
        assert_eq!(value_spans(text).len(), 1, "{text}");
    }
    // First in its region, a brace opens a value whatever follows.
    assert_eq!(value_spans("{name}"), vec!["{name}"]);
    assert_eq!(value_spans("```\n{name}\n```"), vec!["{name}"]);
    // Cut off right after the brace: a value may have followed.
    assert_eq!(value_spans("The answer: {"), vec!["{"]);
}

#[test]
fn unicode_spaces_are_spaces_to_the_scan() {
    let text = "\u{feff}\u{3000}true\u{2003}";
    assert_eq!(value_spans(text), vec!["true"]);
    let located = locate("\u{200b}{\"a\": 1}\u{00a0}", &Settings::default());
    assert!(values(&located).any(|c| c.origin == Origin::Whole));
}

#[test]
fn scans_stay_linear_on_many_quotes_fences_and_comments() {
    // Each shape is read once: no candidate count or work grows with the square of the input.
    let n = 20_000;
    for text in [
        "```".repeat(n) + "{\"a\": \"" + &"```\n".repeat(n),
        "{\"a\": \"".to_string() + &"<json>".repeat(n) + &"</json>".repeat(n),
        "It's don't \"{x}\" ".repeat(n),
        "{\"a\": 1, // }\n".repeat(n),
        "{\"a\": /* ] */".repeat(n),
        "```x ".repeat(n),
        "```\n<json>\n".repeat(n),
        ("`".repeat(40) + "\n").repeat(n / 40),
    ] {
        let located = locate(&text, &Settings::default());
        assert!(
            located.candidates.len() <= 4 * n,
            "{}",
            located.candidates.len()
        );
    }
}

#[test]
fn token_matching_waits_on_a_cut_token_and_matches_case() {
    use tags::{closer_at, opener_at, token_at, TokenAt};
    let harmony = "<|channel|>analysis<|message|>";
    assert_eq!(opener_at(b"<"), TokenAt::Cut);
    assert_eq!(opener_at(b"<|chan"), TokenAt::Cut);
    assert_eq!(opener_at(b"<|channel|>anal"), TokenAt::Cut);
    assert_eq!(opener_at(b"<|channel|>final<|message|>"), TokenAt::No);
    assert_eq!(opener_at(b"<|start_thinking|>"), TokenAt::No);
    assert_eq!(
        opener_at(format!("{harmony}x").as_bytes()),
        TokenAt::Whole(0, harmony.len())
    );
    assert_eq!(opener_at(b"<|START_THINKING|>"), TokenAt::Whole(1, 18));
    assert_eq!(closer_at(b"<|end|>", 0), TokenAt::Whole(0, 7));
    assert_eq!(closer_at(b"<|channel|>final", 0), TokenAt::Whole(2, 11));
    assert_eq!(closer_at(b"<|END_THINKING|>", 0), TokenAt::No);
    assert_eq!(closer_at(b"<|END_THINK", 1), TokenAt::Cut);
    // Of two tokens at one place the longer, once the text says which.
    assert_eq!(token_at(b"<|a|>", ["<|a|>", "<|a|>b"]), TokenAt::Cut);
    assert_eq!(
        token_at(b"<|a|>c", ["<|a|>", "<|a|>b"]),
        TokenAt::Whole(0, 5)
    );
    assert_eq!(
        token_at(b"<|a|>b", ["<|a|>", "<|a|>b"]),
        TokenAt::Whole(1, 6)
    );
}

#[test]
fn a_value_the_scan_closes_inside_a_string_is_read_on_by_the_parser() {
    // Before a region's last fence or tag the scan pairs quotes as written: an unescaped
    // quote in a value string makes it end the value at a closer the parser reads inside
    // the string, and the members after it were lost. The parser reads on from there when
    // closers are left over after the scan's end or the quotes after it do not pair.
    for (text, whole, want) in [
        (
            r#"{"a": "x "1}</json>", "n": 2}"#,
            r#"{"a": "x "1}</json>", "n": 2}"#,
            serde_json::json!({"a": "x \"1}</json>", "n": 2}),
        ),
        (
            r#"<output>{"a": "x {"c\": \"}\"}", "n": 1}</output>"#,
            r#"{"a": "x {"c\": \"}\"}", "n": 1}"#,
            serde_json::json!({"a": "x {\"c\": \"}\"}", "n": 1}),
        ),
        (
            "```json\n{\"p\": \"<json>{\\\"x\\\": \"1}</json>\", \"n\": \"x<y\"}\n```",
            r#"{"p": "<json>{\"x\": "1}</json>", "n": "x<y"}"#,
            serde_json::json!({"p": "<json>{\"x\": \"1}</json>", "n": "x<y"}),
        ),
    ] {
        assert!(value_spans(text).contains(&whole), "{text}");
        assert_eq!(crate::repair(text).unwrap(), want, "{text}");
    }
    // A value the parser closes where the scan does keeps its span: prose after it with a
    // stray closer or a lone quote is prose.
    for text in [
        "Here {\"a\": 1} and a smiley :} ok",
        "Here {\"a\": 1} and it\"s ok",
    ] {
        assert_eq!(value_spans(text), vec!["{\"a\": 1}"], "{text}");
    }
}
