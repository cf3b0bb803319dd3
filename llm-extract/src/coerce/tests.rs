use super::keys::{FieldSpec, StructSpec};
use super::structs::{fields, Missing};
use super::untagged::Untagged;
use super::variants::{variant, EnumSpec};
use super::*;
use crate::error::Category;
use crate::report::CoercionKind;
use crate::span::Span;
use serde_json::json;
#[test]
fn numbers_from_text_table() {
    let rows: &[(&str, Option<Number>)] = &[
        ("42", Some(Number::PosInt(42))),
        (" 42 ", Some(Number::PosInt(42))),
        ("+7", Some(Number::PosInt(7))),
        ("-0", Some(Number::PosInt(0))),
        ("1,234,567", Some(Number::PosInt(1_234_567))),
        ("1,234.5", Some(Number::Float(1234.5))),
        ("3.0", Some(Number::Float(3.0))),
        (".5", Some(Number::Float(0.5))),
        ("1e3", Some(Number::Float(1000.0))),
        (
            "18446744073709551616",
            Some(Number::Float(18446744073709551616.0)),
        ),
        ("", None),
        ("-", None),
        ("abc", None),
        ("12abc", None),
        ("1,23", None),
        (",123", None),
        ("1234,567", None),
        ("inf", None),
        ("NaN", None),
        ("1e400", None),
        ("4 2", None),
    ];
    for (text, want) in rows {
        assert_eq!(parse_number(text), *want, "{text:?}");
    }
}

#[test]
fn number_in_sentence_table() {
    let rows: &[(&str, Option<Number>)] = &[
        ("The answer is 42.", Some(Number::PosInt(42))),
        ("Score: 7/", Some(Number::PosInt(7))),
        ("It costs 3.50 dollars", Some(Number::Float(3.5))),
        ("temperature -5 degrees", Some(Number::NegInt(-5))),
        ("4,200 items", Some(Number::PosInt(4200))),
        ("I'd say 3, maybe 4", None),
        ("v2 of mp3", None),
        ("nothing", None),
        // Negated, or a bound rather than the value.
        ("not 5", None),
        ("minus 5", None),
        ("less than 5", None),
        ("no more than 5 items", None),
        ("at least 5", None),
        ("up to 5", None),
        ("<5", None),
        ("5+", None),
        ("5 max", None),
        // One end of a range, named right before the number.
        ("from 5", None),
        ("Prices from $5", None),
        ("since 2020", None),
        ("starting at 10", None),
        ("until 5 pm", None),
        ("after 3", None),
        ("Score from the judge: 8", Some(Number::PosInt(8))),
        ("Total after tax: 45", Some(Number::PosInt(45))),
        ("approximately 5", Some(Number::PosInt(5))),
        ("Total: 5", Some(Number::PosInt(5))),
    ];
    for (text, want) in rows {
        assert_eq!(number_in_text(text), *want, "{text:?}");
    }
    let long = format!("{} 42", "word ".repeat(60));
    assert_eq!(number_in_text(&long), None);
}

#[test]
fn bools_and_placeholders() {
    for t in ["true", "TRUE", "yes", "Y", "1", "on", "Yes."] {
        assert_eq!(parse_bool(t), Some(true), "{t}");
    }
    for t in ["false", "No", "0", "off", "n"] {
        assert_eq!(parse_bool(t), Some(false), "{t}");
    }
    for t in ["", "2", "maybe", "truthy"] {
        assert_eq!(parse_bool(t), None, "{t}");
    }
    for t in [
        "N/A",
        "n/a",
        "NA",
        "null",
        "None",
        "-",
        "",
        "  ",
        "Not applicable",
    ] {
        assert!(is_placeholder(t), "{t:?}");
    }
    for t in ["0", "nan", "Nope", "no value at all here"] {
        assert!(!is_placeholder(t), "{t:?}");
    }
}

/// The start of a string may become a placeholder while some word it begins (or is, with
/// spaces after it) is one; every placeholder's every prefix may.
#[test]
fn starts_that_may_become_placeholders() {
    for t in [
        "",
        " ",
        "N",
        "n/",
        "No",
        "not a",
        "NOT SPECIFIED  ",
        "  und",
        "\u{2014}",
        "tb",
    ] {
        assert!(may_become_placeholder(t), "{t:?}");
    }
    for t in ["Nora", "Nan", "-5", "not sure", "none of them", "x", "tbd!"] {
        assert!(!may_become_placeholder(t), "{t:?}");
    }
    // Past the wait, text is text: neither a placeholder nor the start of one (what a stream
    // shows of it is what `finish` returns).
    let long = " ".repeat(readings::PLACEHOLDER_WAIT + 1);
    assert!(!is_placeholder(&long) && !may_become_placeholder(&long));
    let padded = format!("{}N/A", " ".repeat(readings::PLACEHOLDER_WAIT));
    assert!(!is_placeholder(&padded) && !may_become_placeholder(&padded));
    for word in ["N/A", "none", "not applicable", "--", "\u{2014}", "TBD"] {
        for (end, _) in word.char_indices().chain([(word.len(), ' ')]) {
            assert!(may_become_placeholder(&word[..end]), "{:?}", &word[..end]);
        }
    }
}

#[test]
fn words_split_case_and_punctuation() {
    assert_eq!(words("InProgress"), vec!["in", "progress"]);
    assert_eq!(words("IN_PROGRESS"), vec!["in", "progress"]);
    assert_eq!(
        words("status: in-progress!"),
        vec!["status", "in", "progress"]
    );
    assert_eq!(words("userID2x"), vec!["user", "id2x"]);
    assert!(words("  ,, ").is_empty());
}

#[test]
fn variants_longest_in_text_wins_and_ties_are_ambiguous() {
    const V: &[VariantNames] = &[
        VariantNames {
            name: "Progress",
            aliases: &[],
        },
        VariantNames {
            name: "InProgress",
            aliases: &["ongoing"],
        },
        VariantNames {
            name: "Done",
            aliases: &[],
        },
    ];
    assert_eq!(
        match_variant("The task is in progress.", V),
        VariantMatch::InText(1)
    );
    assert_eq!(match_variant("in_progress", V), VariantMatch::Normalized(1));
    assert_eq!(match_variant("It is ongoing", V), VariantMatch::InText(1));
    assert_eq!(
        match_variant("progress is done", V),
        VariantMatch::Ambiguous(vec![0, 2])
    );
    assert_eq!(match_variant("unknown", V), VariantMatch::NoMatch);
    assert_eq!(match_variant("Done", V), VariantMatch::Exact(2));
    assert_eq!(match_variant(" done ", V), VariantMatch::Normalized(2));
    // Aliases equal after normalization: the exact one decides.
    const W: &[VariantNames] = &[
        VariantNames {
            name: "Up",
            aliases: &["+1"],
        },
        VariantNames {
            name: "Down",
            aliases: &["-1"],
        },
    ];
    assert_eq!(match_variant("+1", W), VariantMatch::Alias(0));
    assert_eq!(match_variant("-1", W), VariantMatch::Alias(1));
    assert_eq!(match_variant("1", W), VariantMatch::Ambiguous(vec![0, 1]));
}

#[test]
fn a_name_holding_another_names_nothing_and_two_places_are_ambiguous() {
    const V: &[VariantNames] = &[
        VariantNames {
            name: "DeleteFile",
            aliases: &[],
        },
        VariantNames {
            name: "Undo",
            aliases: &[],
        },
        VariantNames {
            name: "Spam",
            aliases: &[],
        },
        VariantNames {
            name: "Low",
            aliases: &[],
        },
        VariantNames {
            name: "VeryLow",
            aliases: &[],
        },
    ];
    // Texts that name no variant: one word written as a name (the names inside it name
    // nothing), and a name negated right before it.
    for text in [
        "undo_delete_file",
        "not_spam",
        "not-spam",
        "DeleteFileV2",
        "files.delete_file",
        "not spam",
        "It is not spam.",
        "no spam here",
        "Never spam",
        "isn't spam",
        "without spam",
        "It is not low",
        "not very low",
    ] {
        assert_eq!(match_variant(text, V), VariantMatch::NoMatch, "{text}");
    }
    // Two variants named at different places of a sentence: which one was meant is a guess.
    assert_eq!(
        match_variant("please undo the delete file", V),
        VariantMatch::Ambiguous(vec![0, 1])
    );
    // A shorter name inside a longer one is part of it.
    assert_eq!(
        match_variant("The priority is very low", V),
        VariantMatch::InText(4)
    );
    assert_eq!(match_variant("delete file", V), VariantMatch::Normalized(0));
    assert_eq!(match_variant("It is spam.", V), VariantMatch::InText(2));
    // A negated name beside another still counts: a negation never picks the other one.
    assert_eq!(
        match_variant("very low, not spam", V),
        VariantMatch::Ambiguous(vec![2, 4])
    );
}

#[test]
fn keys_match_is_symmetric_and_ignores_separators() {
    let same = [
        ("tool_name", "toolName"),
        ("Tool Name", "TOOL-NAME"),
        ("a.b", "AB"),
        ("ÉTÉ", "été"),
    ];
    for (a, b) in same {
        assert!(keys_match(a, b) && keys_match(b, a), "{a} {b}");
        assert_eq!(normalize_key(a), normalize_key(b));
    }
    assert!(!keys_match("tool", "tools"));
    assert!(!keys_match("", "x"));
}

static SPEC: StructSpec = StructSpec {
    fields: &[
        FieldSpec {
            name: "tool_name",
            aliases: &["tool", "name"],
        },
        FieldSpec {
            name: "name_hint",
            aliases: &[],
        },
    ],
    deny_unknown: false,
    flatten: false,
};

fn matched(value: serde_json::Value) -> (Vec<Option<serde_json::Value>>, Vec<CoercionKind>) {
    let node = Node::from_value(&value);
    let mut cx = Context::new();
    let f = fields::<2>(&node, &SPEC, None, &mut cx).expect("an object");
    let values = f
        .slots
        .iter()
        .map(|s| s.map(|(n, _, _)| n.to_value()))
        .collect();
    (
        values,
        cx.coercions().iter().map(|c| c.kind.clone()).collect(),
    )
}

#[test]
fn exact_then_normalized_then_alias() {
    let (v, k) = matched(json!({"toolName": "a", "nameHint": "b"}));
    assert_eq!(v, vec![Some(json!("a")), Some(json!("b"))]);
    assert_eq!(
        k,
        vec![CoercionKind::NormalizedKey, CoercionKind::NormalizedKey]
    );
    // `name` is an alias of tool_name; it is not a normalized form of name_hint.
    let (v, k) = matched(json!({"name": "a"}));
    assert_eq!(v, vec![Some(json!("a")), None]);
    assert_eq!(k, vec![CoercionKind::AliasKey]);
}

#[test]
fn the_better_key_wins_whatever_the_order() {
    for value in [
        json!({"tool": "alias", "tool_name": "exact"}),
        json!({"tool_name": "exact", "tool": "alias"}),
    ] {
        let (v, k) = matched(value);
        assert_eq!(v[0], Some(json!("exact")));
        assert_eq!(k, vec![CoercionKind::DuplicateKey]);
    }
    // A tie: the later key wins, as in JSON.
    let (v, _) = matched(json!({"tool": "first", "name": "second"}));
    assert_eq!(v[0], Some(json!("second")));
}

#[test]
fn an_exact_alias_beats_one_equal_only_after_normalization() {
    static VOTES: StructSpec = StructSpec {
        fields: &[
            FieldSpec {
                name: "up",
                aliases: &["+1"],
            },
            FieldSpec {
                name: "down",
                aliases: &["-1"],
            },
        ],
        deny_unknown: false,
        flatten: false,
    };
    let node = Node::from_value(&json!({"-1": 4}));
    let mut cx = Context::new();
    let f = fields::<2>(&node, &VOTES, None, &mut cx).expect("an object");
    assert!(f.slots[0].is_none());
    assert_eq!(f.slots[1].map(|(n, _, _)| n.to_value()), Some(json!(4)));
}

#[test]
fn unknown_keys_are_recorded_or_denied() {
    let (_, k) = matched(json!({"tool_name": "a", "extra": 1}));
    assert_eq!(k, vec![CoercionKind::UnknownKey]);
    static DENY: StructSpec = StructSpec {
        fields: &[],
        deny_unknown: true,
        flatten: false,
    };
    let node = Node::from_value(&json!({"extra": 1}));
    let mut cx = Context::new();
    assert!(fields::<0>(&node, &DENY, None, &mut cx).is_err());
    assert_eq!(cx.issues()[0].category, Category::Unknown);
    assert_eq!(cx.issues()[0].path.to_string(), "$.extra");
}

static ENUM: EnumSpec = EnumSpec {
    name: "Mood",
    variants: &[
        VariantNames {
            name: "Happy",
            aliases: &["glad"],
        },
        VariantNames {
            name: "Sad",
            aliases: &[],
        },
    ],
    other: None,
};

#[test]
fn variant_choice_is_recorded_and_ambiguity_is_an_issue() {
    let mut cx = Context::new();
    assert_eq!(variant("Happy", Span::default(), &ENUM, &mut cx), Ok(0));
    assert_eq!(variant("sad", Span::default(), &ENUM, &mut cx), Ok(1));
    assert_eq!(variant("I am glad", Span::default(), &ENUM, &mut cx), Ok(0));
    let kinds: Vec<CoercionKind> = cx.coercions().iter().map(|c| c.kind.clone()).collect();
    assert_eq!(
        kinds,
        vec![
            CoercionKind::NormalizedVariant,
            CoercionKind::VariantFromText
        ]
    );
    assert!(variant("happy and sad", Span::default(), &ENUM, &mut cx).is_err());
    assert_eq!(cx.issues()[0].category, Category::Variant);
    let mut strict = Context::with_mode_set(Mode::Strict);
    assert!(variant("sad", Span::default(), &ENUM, &mut strict).is_err());
    assert_eq!(variant("glad", Span::default(), &ENUM, &mut strict), Ok(0));
}

#[test]
fn untagged_keeps_the_cheapest_reading_and_only_its_records() {
    let mut cx = Context::new();
    let mut u = Untagged::default();
    u.attempt(&mut cx, |cx| {
        cx.coerce(CoercionKind::StringToNumber, Span::default());
        Ok("costly")
    });
    u.attempt(&mut cx, |cx| {
        Err(cx.fail(Category::Type, "no", Span::default()))
    });
    u.attempt(&mut cx, |cx| {
        cx.coerce(CoercionKind::FloatToInteger, Span::default());
        Ok("cheap")
    });
    let node = Node::from_value(&json!(1));
    assert_eq!(u.finish(&node, "T", &mut cx), Ok("cheap"));
    assert!(cx.issues().is_empty());
    assert_eq!(cx.coercions().len(), 1);
    assert_eq!(cx.coercions()[0].kind, CoercionKind::FloatToInteger);
}

#[test]
fn keys_match_across_diacritics_only_after_exact_and_normalized() {
    static SPEC_FR: StructSpec = StructSpec {
        fields: &[
            FieldSpec {
                name: "café",
                aliases: &[],
            },
            FieldSpec {
                name: "cafe",
                aliases: &["straße"],
            },
        ],
        deny_unknown: false,
        flatten: false,
    };
    let read = |value: serde_json::Value| {
        let node = Node::from_value(&value);
        let mut cx = Context::new();
        let f = fields::<2>(&node, &SPEC_FR, None, &mut cx).expect("an object");
        let slots: Vec<Option<serde_json::Value>> = f
            .slots
            .iter()
            .map(|s| s.map(|(n, _, _)| n.to_value()))
            .collect();
        let kinds: Vec<CoercionKind> = cx.coercions().iter().map(|c| c.kind.clone()).collect();
        (slots, kinds)
    };
    // `cafe` is field 1's own name: no folding, although it folds to field 0 too.
    assert_eq!(
        read(json!({"cafe": 1})),
        (vec![None, Some(json!(1))], vec![])
    );
    // `CAFÉ` normalizes to field 0 exactly.
    assert_eq!(
        read(json!({"CAFÉ": 1})),
        (
            vec![Some(json!(1)), None],
            vec![CoercionKind::NormalizedKey]
        )
    );
    // `Strasse` matches field 1's alias only once `ß` is read as `ss`.
    assert_eq!(
        read(json!({"Strasse": 2})),
        (vec![None, Some(json!(2))], vec![CoercionKind::FoldedKey])
    );
    assert!(CoercionKind::FoldedKey.cost() > CoercionKind::NormalizedKey.cost());
    assert!(CoercionKind::FoldedVariant.cost() > CoercionKind::AliasVariant.cost());
}

#[test]
fn variants_match_across_diacritics_and_ambiguity_stays_an_error() {
    const V: &[VariantNames] = &[
        VariantNames {
            name: "Señor",
            aliases: &[],
        },
        VariantNames {
            name: "Crème",
            aliases: &["Brûlée"],
        },
    ];
    assert_eq!(match_variant("senor", V), VariantMatch::Folded(0));
    assert_eq!(match_variant("SENOR", V), VariantMatch::Folded(0));
    assert_eq!(match_variant("creme", V), VariantMatch::Folded(1));
    assert_eq!(match_variant("brulee", V), VariantMatch::Folded(1));
    assert_eq!(match_variant("señor", V), VariantMatch::Normalized(0));
    assert_eq!(match_variant("senior", V), VariantMatch::NoMatch);
    const W: &[VariantNames] = &[
        VariantNames {
            name: "Résumé",
            aliases: &[],
        },
        VariantNames {
            name: "Resume",
            aliases: &[],
        },
    ];
    // `resume` is `Resume` normalized: that wins before folding is tried.
    assert_eq!(match_variant("resume", W), VariantMatch::Normalized(1));
    // `resumé` normalizes to neither and folds to both: a guess, so ambiguous.
    assert_eq!(
        match_variant("resumé", W),
        VariantMatch::Ambiguous(vec![0, 1])
    );
}

/// A tree from the tolerant parser, so that cut-off values are marked incomplete.
fn parsed(text: &str) -> Node<'_> {
    crate::parse::parse(text, 128).expect("parses").node
}

#[test]
fn strings_holding_a_whole_document_are_decoded_for_containers_only() {
    let rows: &[(serde_json::Value, Option<serde_json::Value>)] = &[
        (json!("{\"a\": 1}"), Some(json!({"a": 1}))),
        (json!("  [1, 2] "), Some(json!([1, 2]))),
        (json!("{'a': True,}"), Some(json!({"a": true}))),
        (json!("[]"), Some(json!([]))),
        (json!("[citation needed]"), None),
        (json!("{name}"), None),
        (json!("[1, 2] and more"), None),
        (json!("{\"a\": [1, 2"), None),
        (json!("plain text"), None),
        (json!(42), None),
    ];
    for (value, want) in rows {
        let node = Node::from_value(value);
        let mut cx = Context::new();
        let got = as_container(&node, &mut cx);
        match want {
            Some(want) => {
                assert_eq!(&got.to_value(), want, "{value}");
                assert_eq!(cx.coercions()[0].kind, CoercionKind::DecodedString);
                assert!(cx.coercions()[0].path.is_root());
            }
            None => {
                assert_eq!(&got.to_value(), value, "{value}");
                assert!(cx.coercions().is_empty(), "{value}");
            }
        }
    }
    // Strict mode decodes nothing.
    let node = Node::from_value(&json!("{\"a\": 1}"));
    let mut cx = Context::with_mode_set(Mode::Strict);
    assert_eq!(as_container(&node, &mut cx).to_value(), json!("{\"a\": 1}"));
}

#[test]
fn repairs_inside_a_decoded_string_cost_what_the_repair_costs() {
    let node = Node::from_value(&json!("{'a': 1}"));
    let mut cx = Context::new();
    as_container(&node, &mut cx);
    let quotes = crate::RepairKind::NonStandardQuotes;
    let kinds: Vec<_> = cx.coercions().iter().map(|c| c.kind.clone()).collect();
    assert_eq!(
        kinds,
        vec![
            CoercionKind::DecodedString,
            CoercionKind::RepairInString(quotes)
        ]
    );
    assert_eq!(cx.coercions()[1].cost, quotes.cost());
}

#[test]
fn a_cut_off_last_item_is_dropped_only_when_it_does_not_fit() {
    let node = parsed(r#"[1, 2, "x"#);
    let mut cx = Context::new();
    assert_eq!(Vec::<u8>::from_node(&node, &mut cx), Ok(vec![1, 2]));
    assert!(cx.issues().is_empty());
    assert_eq!(cx.coercions()[0].kind, CoercionKind::DroppedIncompleteItem);
    assert_eq!(cx.coercions()[0].path.to_string(), "$[2]");
    // A complete item that does not fit is an issue, cut off or not.
    let node = parsed(r#"["x", 2, 3"#);
    let mut cx = Context::new();
    assert!(Vec::<u8>::from_node(&node, &mut cx).is_err());
    assert_eq!(cx.issues()[0].path.to_string(), "$[0]");
    // A list that was not cut off keeps its errors.
    let node = parsed(r#"[1, 2, "x"]"#);
    let mut cx = Context::new();
    assert!(Vec::<u8>::from_node(&node, &mut cx).is_err());
}

#[test]
fn a_missing_field_of_a_cut_off_object_points_at_the_cut() {
    let text = r#"{"tool_name": "a", "name_h"#;
    let node = parsed(text);
    let mut cx = Context::new();
    let f = fields::<2>(&node, &SPEC, None, &mut cx).expect("an object");
    let read = |n: &Node<'_>, cx: &mut Context| String::from_node(n, cx);
    assert_eq!(
        f.field(0, &mut cx, read, Missing::Required(None), None),
        Some("a".into())
    );
    assert_eq!(
        f.field(1, &mut cx, read, Missing::Required(None), None),
        None
    );
    let issue = &cx.issues()[0];
    assert_eq!(issue.path.to_string(), "$.name_hint");
    assert_eq!(
        issue.message,
        "missing field `name_hint`: the reply was truncated, cut off"
    );
    assert_eq!(issue.span, Some(Span::at(node.span.end)));
}

#[test]
fn lists_written_as_text_table() {
    use super::readings::{bulleted_items, listed_items};
    let listed: &[(&str, Option<&[&str]>)] = &[
        ("red, green and blue", Some(&["red", "green", "blue"])),
        ("red, green, and blue.", Some(&["red", "green", "blue"])),
        ("a; b", Some(&["a", "b"])),
        ("red and blue", Some(&["red", "blue"])),
        ("red", None),
        ("red,, blue", None),
        ("a,\nb", None),
    ];
    for (text, want) in listed {
        assert_eq!(listed_items(text).as_deref(), *want, "{text:?}");
    }
    let bulleted: &[(&str, Option<&[&str]>)] = &[
        ("- a\n- b", Some(&["a", "b"])),
        ("Items:\n* a\n\n* b,\n", Some(&["a", "b"])),
        ("1. a\n2) b\n10. c", Some(&["a", "b", "c"])),
        ("\u{2022} a\n\u{2022} b", Some(&["a", "b"])),
        ("- a", None),
        ("- a\nnot an item\n- b", None),
        ("Intro:\nMore intro:\n- a\n- b", None),
        ("-5\n-6", None),
    ];
    for (text, want) in bulleted {
        assert_eq!(bulleted_items(text).as_deref(), *want, "{text:?}");
    }
}

#[test]
fn bools_in_sentences_table() {
    for (text, want) in [
        ("Yes, it does.", Some(true)),
        ("That is true", Some(true)),
        ("No, never", Some(false)),
        ("There are no errors.", Some(false)),
        ("yes yes", Some(true)),
        ("Yes and no", None),
        ("not sure", None),
        ("yesterday", None),
        // A negation turns the answer word around: no guess at what was meant.
        ("That is not true", None),
        ("It isn't true", None),
        ("not false", None),
        ("Yes, never mind", None),
        ("No, not at all", Some(false)),
    ] {
        assert_eq!(bool_in_text(text), want, "{text:?}");
    }
    assert_eq!(bool_in_text(&format!("{} yes", "word ".repeat(60))), None);
}

#[test]
fn an_empty_string_is_a_value_where_the_inner_type_takes_it() {
    let node = Node::from_value(&json!(""));
    let mut cx = Context::new();
    assert_eq!(
        Option::<String>::from_node(&node, &mut cx),
        Ok(Some(String::new()))
    );
    assert!(cx.coercions().is_empty());
    assert_eq!(Option::<u8>::from_node(&node, &mut cx), Ok(None));
    assert_eq!(cx.coercions()[0].kind, CoercionKind::PlaceholderToNone);
    assert!(cx.issues().is_empty());
    let mut strict = Context::with_mode_set(Mode::Strict);
    assert!(Option::<u8>::from_node(&node, &mut strict).is_err());
}

#[test]
fn matched_counts_fields_items_and_variants() {
    let node = Node::from_value(&json!({"tool_name": "a", "name_hint": "b", "x": 1}));
    let mut cx = Context::new();
    fields::<2>(&node, &SPEC, None, &mut cx).expect("an object");
    assert_eq!(cx.matched(), 2);
    let mut cx = Context::new();
    let _ = Vec::<u8>::from_node(&Node::from_value(&json!([1, "x", 3])), &mut cx);
    assert_eq!(cx.matched(), 2);
}

#[test]
fn the_direct_path_reads_a_value_that_is_part_of_the_text() {
    // A fenced or prose-wrapped value: the candidate's span ends where the value does (or in
    // spaces before the fence), and the text goes on after it.
    let reply = "Here it is:\n```json\n{\"a\": [1, 2], \"b\": \"x\"}\n```\nAnything else?";
    let located = crate::locate::locate(reply, &crate::settings::Settings::default());
    let candidate = &located.candidates[0];
    let (value, span) =
        read_direct::<serde_json::Value>(reply, candidate.span, 128).expect("the direct path");
    assert_eq!(value, json!({"a": [1, 2], "b": "x"}));
    assert_eq!(
        &reply[span.start..span.end],
        "{\"a\": [1, 2], \"b\": \"x\"}"
    );
    type Map = std::collections::BTreeMap<String, serde_json::Value>;
    assert!(read_direct::<Map>(reply, candidate.span, 128).is_some());
    // Not past the span's end, and nothing but spaces between the value and the span's end.
    let cut = Span::new(candidate.span.start, candidate.span.end - 1);
    assert!(read_direct::<serde_json::Value>(reply, cut, 128).is_none());
    let text = "{\"a\": 1} x";
    assert!(read_direct::<serde_json::Value>(text, Span::new(0, text.len()), 128).is_none());
    assert!(read_direct::<serde_json::Value>(text, Span::new(0, 9), 128).is_some());
}
