use super::keys::{FieldSpec, StructSpec};
use super::structs::fields;
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
