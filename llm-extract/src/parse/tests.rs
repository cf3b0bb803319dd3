use super::*;
use crate::report::RepairKind::{self, *};
use serde_json::{json, Value};

fn value(text: &str) -> (Value, Vec<RepairKind>, bool) {
    let parsed = parse(text, 128).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    let kinds = parsed.repairs.iter().map(|r| r.kind).collect();
    (
        parsed.node.to_value(),
        kinds,
        parsed.node.is_complete_deep(),
    )
}

/// Rows of (input, expected value, a repair that must be reported).
#[test]
fn repairs_table() {
    // The parser stops after the root value: `[1, 2]]` is `[1, 2]` and the locator reports
    // the rest as trailing text.
    assert_eq!(value("[1, 2]]").0, json!([1, 2]));
    let rows: &[(&str, Value, RepairKind)] = &[
        ("{'a': 'b'}", json!({"a": "b"}), NonStandardQuotes),
        ("{`a`: `b`}", json!({"a": "b"}), NonStandardQuotes),
        ("{“a”: “b c”}", json!({"a": "b c"}), NonStandardQuotes),
        ("{‘a’: ‘it’s’}", json!({"a": "it’s"}), NonStandardQuotes),
        ("{a: 1}", json!({"a": 1}), UnquotedKey),
        ("{first name: 1}", json!({"first name": 1}), UnquotedKey),
        (
            "{\"a\": hello world}",
            json!({"a": "hello world"}),
            UnquotedString,
        ),
        ("[a, b]", json!(["a", "b"]), UnquotedString),
        (
            "{\"url\": http://x.org/a // c\n}",
            json!({"url": "http://x.org/a"}),
            Comment,
        ),
        ("{\"a\": 1,}", json!({"a": 1}), TrailingComma),
        ("[1, 2, ]", json!([1, 2]), TrailingComma),
        ("[,1]", json!([1]), ExtraComma),
        ("[1,,2]", json!([1, 2]), ExtraComma),
        ("{,\"a\": 1}", json!({"a": 1}), ExtraComma),
        ("[1 2]", json!([1, 2]), MissingComma),
        ("{\"a\": 1 \"b\": 2}", json!({"a": 1, "b": 2}), MissingComma),
        (
            "{\"a\": \"x\"\n\"b\": 2}",
            json!({"a": "x", "b": 2}),
            MissingComma,
        ),
        ("{\"a\" 1}", json!({"a": 1}), MissingColon),
        ("{\"a\" = 1}", json!({"a": 1}), MissingColon),
        (
            "{\"a\": , \"b\": 1}",
            json!({"a": null, "b": 1}),
            MissingValue,
        ),
        ("{\"a\": }", json!({"a": null}), MissingValue),
        ("{\"a\"}", json!({"a": null}), MissingValue),
        // A key with no value before the object's `}`, after a string value: the string ends
        // at its own quote, as after a number (JSONTestSuite's n_object_with_single_string).
        (
            "{ \"foo\" : \"bar\", \"a\" }",
            json!({"foo": "bar", "a": null}),
            MissingValue,
        ),
        (
            "{\"a\": \"x\", \"b\"\n}",
            json!({"a": "x", "b": null}),
            MissingValue,
        ),
        // Not in a string that already holds a quote as its text: there it is more of it.
        (
            "{\"a\": \"the options are \"A\", \"B\" }",
            json!({"a": "the options are \"A\", \"B"}),
            UnescapedQuote,
        ),
        (
            "{\"a\": True, \"b\": False, \"c\": None}",
            json!({"a": true, "b": false, "c": null}),
            NonStandardLiteral,
        ),
        ("[undefined]", json!([null]), NonStandardLiteral),
        ("[NaN]", json!([null]), NonFiniteNumber),
        (
            "[Infinity, -Infinity]",
            json!([null, null]),
            NonFiniteNumber,
        ),
        ("[.5]", json!([0.5]), NonStandardNumber),
        ("[5.]", json!([5.0]), NonStandardNumber),
        ("[+5]", json!([5]), NonStandardNumber),
        ("[007]", json!(["007"]), NumberAsString),
        ("[1_000]", json!([1000]), DigitSeparator),
        ("{\"p\": (1, 2)}", json!({"p": [1, 2]}), TupleAsArray),
        ("{'a', 'b'}", json!(["a", "b"]), SetAsArray),
        (
            "{\"a\": [1, 2}, \"b\": 3}",
            json!({"a": [1, 2], "b": 3}),
            WrongBracket,
        ),
        (
            "[{\"a\": 1}, \"b\": 2}]",
            json!([{"a": 1}, {"b": 2}]),
            MissingOpeningBracket,
        ),
        (
            "\"a\": 1, \"b\": [2]}",
            json!({"a": 1, "b": [2]}),
            MissingOpeningBracket,
        ),
        (
            "{\"r\": \"eng, \"t\": \"x\"}",
            json!({"r": "eng", "t": "x"}),
            MissingQuote,
        ),
        ("[-007.50]", json!([-7.5]), NonStandardNumber),
        ("[0x1F]", json!([31]), NonStandardNumber),
        ("[2024-01-01]", json!(["2024-01-01"]), UnquotedString),
        ("{\"a\": \"x\ny\"}", json!({"a": "x\ny"}), ControlCharacter),
        ("{\"a\": \"x\ty\"}", json!({"a": "x\ty"}), ControlCharacter),
        (
            "{\"a\": \"C:\\dir\"}",
            json!({"a": "C:\\dir"}),
            InvalidEscape,
        ),
        ("{\"a\": \"it\\'s\"}", json!({"a": "it's"}), InvalidEscape),
        (
            "{\"a\": \"\\ud800\"}",
            json!({"a": "\u{FFFD}"}),
            InvalidEscape,
        ),
        (
            "{\"a\": \"say \"hi\" now\"}",
            json!({"a": "say \"hi\" now"}),
            UnescapedQuote,
        ),
        (
            "{\"a\": \"5\" screen\", \"b\": 1}",
            json!({"a": "5\" screen", "b": 1}),
            UnescapedQuote,
        ),
        (
            "{\"a\": \"x, \"y\", z\"}",
            json!({"a": "x, \"y\", z"}),
            UnescapedQuote,
        ),
        ("[\"a \"b\" c\"]", json!(["a \"b\" c"]), UnescapedQuote),
        ("{'t': 'it's ok'}", json!({"t": "it's ok"}), UnescapedQuote),
        (
            "{\"a\": \"x\" + \"y\" + 'z'}",
            json!({"a": "xyz"}),
            StringConcatenation,
        ),
        ("{\"a\": [1, 2}", json!({"a": [1, 2]}), MissingBracket),
        ("{\"a\": 1]}", json!({"a": 1}), StrayBracket),
        ("// lead\n{\"a\": 1}", json!({"a": 1}), Comment),
        ("# lead\n{\"a\": 1 # tail\n}", json!({"a": 1}), Comment),
        ("{/* x */\"a\": 1}", json!({"a": 1}), Comment),
        ("{\"a\": \"b", json!({"a": "b"}), TruncatedString),
        (
            "{\"a\": [1, {\"b\": 2",
            json!({"a": [1, {"b": 2}]}),
            TruncatedContainer,
        ),
        ("{\"a\": 1, \"b", json!({"a": 1}), TruncatedKey),
        ("{\"a\":", json!({"a": null}), MissingValue),
        ("{\"a\": tru", json!({"a": true}), TruncatedLiteral),
        ("{\"a\": [nu", json!({"a": [null]}), TruncatedLiteral),
        ("[1.5e", json!([1.5]), TruncatedLiteral),
        ("{\"value\": 2e}", json!({"value": 2.0}), NonStandardNumber),
        ("[2e+, 3]", json!([2.0, 3]), NonStandardNumber),
        (
            "{\"c\": ```py main.py\n  if x:\n      y()\n  ```, \"n\": 1}",
            json!({"c": "if x:\n    y()", "n": 1}),
            FencedValue,
        ),
        ("{\"a\":\u{3000}1}", json!({"a": 1}), UnicodeWhitespace),
        (
            "[{\"i\": 1, \"n\": \"a\" {\"i\": 2}]",
            json!([{"i": 1, "n": "a"}, {"i": 2}]),
            MissingBracket,
        ),
        (
            "[{\"i\": 1, {\"i\": 2}]",
            json!([{"i": 1}, {"i": 2}]),
            MissingBracket,
        ),
        (
            "[{\"a\": \"x}, {\"a\": \"y\"}]",
            json!([{"a": "x"}, {"a": "y"}]),
            MissingQuote,
        ),
        (
            "{\"a\": {\"b\": 1], \"c\": 2}",
            json!({"a": {"b": 1}, "c": 2}),
            WrongBracket,
        ),
        (
            "{\"a\": 1}, \"b\": 2}",
            json!({"a": 1, "b": 2}),
            StrayBracket,
        ),
        ("[1, 2], 3]", json!([1, 2, 3]), StrayBracket),
        (
            "{\"a\": \"\"\"x\n  y\"\"\"}",
            json!({"a": "x\n  y"}),
            TripleQuotedString,
        ),
        ("{\"n\": -2,000.50}", json!({"n": -2000.5}), DigitSeparator),
        ("{'ids': {7, 8}}", json!({"ids": [7, 8]}), SetAsArray),
        ("{\"s\": {'x'}}", json!({"s": ["x"]}), SetAsArray),
        (
            "{\"t\": (\"a\", \"b\"), \"p\": 1}",
            json!({"t": ["a", "b"], "p": 1}),
            TupleAsArray,
        ),
        (
            "[{\"id\": 1}, and {\"id\": 2}]",
            json!([{"id": 1}, {"id": 2}]),
            SkippedText,
        ),
    ];
    for (input, expected, kind) in rows {
        let (got, kinds, _) = value(input);
        assert_eq!(&got, expected, "value of {input:?}");
        assert!(
            kinds.contains(kind),
            "{input:?}: expected {kind:?} in {kinds:?}"
        );
    }
}

#[test]
fn truncation_marks_nodes_incomplete() {
    let (v, _, complete) = value("{\"items\": [{\"id\": \"fo");
    assert_eq!(v, json!({"items": [{"id": "fo"}]}));
    assert!(!complete);
    let (_, repairs, complete) = value("{\"a\": [1, 2]}");
    assert!(complete && repairs.is_empty());
    // A number at the very end inside a container may have been cut off.
    let parsed = parse("[12", 128).unwrap();
    let NodeKind::Array(items) = &parsed.node.kind else {
        panic!()
    };
    assert!(!items[0].complete);
}

#[test]
fn valid_json_is_read_exactly_as_serde_json_reads_it() {
    let docs = [
        "0",
        "-0",
        "-0.0",
        "1e400",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "0.1",
        "2.2250738585072011e-308",
        "9007199254740993",
        "1.7976931348623157e308",
        "123456789012345678901234567890",
        "\"\\u00e9\\ud83d\\ude00\\n\\\"\\\\\\/\"",
        "\"é 😀\"",
        "[]",
        "{}",
        "[[[]], {}, {\"\": \"\"}]",
        "{\"a\": 1, \"a\": 2}",
        "  {\"nested\": {\"x\": [1, -2.5e-3, true, false, null, \"s\"]}}  ",
    ];
    for doc in docs {
        let Ok(expected) = serde_json::from_str::<Value>(doc) else {
            continue;
        };
        let parsed = parse(doc.trim_start(), 128).unwrap();
        // With `arbitrary_precision`, serde_json keeps numbers as written: so does the tree
        // when converted with the text it was parsed from.
        let value = parsed.node.to_value_in(doc.trim_start(), 0);
        assert_eq!(value, expected, "{doc}");
        assert!(parsed.repairs.is_empty(), "{doc}: {:?}", parsed.repairs);
    }
}

#[test]
fn string_values_borrow_the_input_when_nothing_changed() {
    let parsed = parse("{\"key\": \"plain\"}", 128).unwrap();
    let NodeKind::Object(entries) = &parsed.node.kind else {
        panic!()
    };
    assert!(matches!(entries[0].key.text, Cow::Borrowed(_)));
    assert!(
        matches!(&entries[0].value.kind, NodeKind::String(s) if matches!(s.text, Cow::Borrowed(_)))
    );
}

#[test]
fn spans_point_into_the_text() {
    let text = "{\"a\": [10, \"xy\"]}";
    let parsed = parse(text, 128).unwrap();
    let NodeKind::Object(entries) = &parsed.node.kind else {
        panic!()
    };
    assert_eq!(
        &text[entries[0].key_span.start..entries[0].key_span.end],
        "\"a\""
    );
    let NodeKind::Array(items) = &entries[0].value.kind else {
        panic!()
    };
    assert_eq!(&text[items[0].span.start..items[0].span.end], "10");
    assert_eq!(&text[items[1].span.start..items[1].span.end], "\"xy\"");
}

#[test]
fn repairs_carry_their_path() {
    let parsed = parse("{\"items\": [1, {\"price\": 'x'}]}", 128).unwrap();
    let quote = parsed
        .repairs
        .iter()
        .find(|r| r.kind == NonStandardQuotes)
        .unwrap();
    assert_eq!(quote.path.to_string(), "$.items[1].price");
    let parsed = parse("{\"a\": [1, 2,], \"b\": 3,}", 128).unwrap();
    let paths: Vec<String> = parsed
        .repairs
        .iter()
        .filter(|r| r.kind == TrailingComma)
        .map(|r| r.path.to_string())
        .collect();
    assert_eq!(paths, ["$.a", "$"]);
}

#[test]
fn repairs_made_in_one_place_share_its_path() {
    // A hundred objects deep, then a list of single-quoted strings and an object whose
    // members lack their commas: every repair carries the full path, and the repairs of
    // one place hold one copy of it rather than one each.
    let depth = 100;
    let text = format!(
        "{}['a', 'b', 'c', {{\"x\": 1 \"y\": 2 \"z\": 3}}]{}",
        "{\"k\": ".repeat(depth),
        "}".repeat(depth)
    );
    let parsed = parse(&text, 128).unwrap();
    let deep = |r: &&Repair| r.path.segments().len() > depth;
    let quotes: Vec<&Repair> = parsed
        .repairs
        .iter()
        .filter(|r| r.kind == NonStandardQuotes)
        .filter(deep)
        .collect();
    assert_eq!(quotes.len(), 3);
    let last = quotes[2].path.segments();
    assert_eq!(last[depth], Segment::Index(2));
    assert!(last[..depth].iter().all(|s| *s == Segment::Key("k".into())));
    let commas: Vec<&Repair> = parsed
        .repairs
        .iter()
        .filter(|r| r.kind == MissingComma)
        .filter(deep)
        .collect();
    assert_eq!(commas.len(), 2);
    assert_eq!(commas[0].path, commas[1].path);
    assert!(std::ptr::eq(
        commas[0].path.segments().as_ptr(),
        commas[1].path.segments().as_ptr()
    ));
}

#[test]
fn depth_limit_is_an_error_not_a_crash() {
    let deep = "[".repeat(100_000);
    let err = parse(&deep, 128).unwrap_err();
    assert_eq!(err.category(), Category::TooDeep);
    assert!(err.to_string().contains("max_depth (128,"), "{err}");
    // Within a raised limit, deep input parses without recursion.
    let parsed = parse(&deep, 200_000).unwrap();
    assert!(!parsed.node.complete);
    let owned = parsed.into_owned();
    assert!(!owned.node.is_complete_deep());
}

#[test]
fn empty_or_blank_input_has_no_value() {
    for text in ["", "   ", "// only a comment"] {
        assert_eq!(
            parse(text, 128).unwrap_err().category(),
            Category::NotFound,
            "{text:?}"
        );
    }
}

#[test]
fn every_prefix_of_messy_input_parses_without_panicking() {
    let fixture =
        "{'a': [1, .5, \"x\\\"y\", {b: True}], // c\n \"s\": \"é😀\" + 'z', \"n\": -Infinity,}";
    for end in 0..=fixture.len() {
        if fixture.is_char_boundary(end) {
            let _ = parse(&fixture[..end], 128);
        }
    }
}

/// Valid JSON holding what the damage rules look at: brackets, commas, backticks and quotes in
/// strings, numbers in arrays, nested closers followed by members. Read exactly, no repair.
#[test]
fn valid_json_near_the_damage_rules_is_unchanged() {
    for doc in [
        r#"{"a": "}, ", ":": 1}"#,
        r#"[{"a": "x}], ", ":": 1}]"#,
        r#"[{"a": "x}, {", "b": 1}]"#,
        r#"["x}, {", "a"]"#,
        r#"{"k": "```python\nprint(1)\n```", "n": 1}"#,
        r#"{"a": {"b": {"c": 1}}, "d": [[1], [2]], "e": {"f": [{"g": 2}]}}"#,
        r#"[1,234]"#,
        r#"{"a": [1,234], "b": 1}"#,
        r#"{"a": 1, "b": "2,000"}"#,
        r#"[{"id": 1, "n": "a"}, {"id": 2, "n": "b"}]"#,
        r#"{"a": "x # y", "b": "and \"c\": 1"}"#,
        "{\"a\": \"\u{3000}\u{feff}\", \"\u{a0}\": 1}",
        r#"["", "", ""]"#,
        r#"{"a": ""}"#,
    ] {
        let expected: Value = serde_json::from_str(doc).unwrap();
        let (got, repairs, complete) = value(doc);
        assert_eq!(got, expected, "{doc}");
        assert!(repairs.is_empty() && complete, "{doc}: {repairs:?}");
    }
}

#[test]
fn unicode_spaces_separate_tokens_and_are_logged_once_per_run() {
    let (v, repairs, _) = value(
        "\u{feff}{\u{2003}\"a\"\u{3000}:\u{a0} 1,\u{200b}\n\"b\": [true\u{2009}, x\u{205f}]}",
    );
    assert_eq!(v, json!({"a": 1, "b": [true, "x"]}));
    let unicode = repairs.iter().filter(|k| **k == UnicodeWhitespace).count();
    assert_eq!(unicode, 6, "{repairs:?}");
    // A run mixing Unicode and ASCII spaces is one repair, spanning the Unicode ones.
    let parsed = parse("[1,\u{3000} \u{3000}2]", 128).unwrap();
    let spans: Vec<_> = parsed.repairs.iter().map(|r| (r.kind, r.span)).collect();
    assert_eq!(spans, [(UnicodeWhitespace, Span::new(3, 10))]);
    // Inside strings they are content; unquoted keys and values do not keep them.
    let (v, _, _) = value("{\"s\": \"a\u{3000}b\u{200b}\", k\u{3000}: v\u{200b}\u{feff}}");
    assert_eq!(v, json!({"s": "a\u{3000}b\u{200b}", "k": "v"}));
}

/// A time or a ratio written bare in a value (`10:30`, `16:9`) is its text, not a number with a
/// key after it.
#[test]
fn a_time_written_bare_in_a_value_is_its_text() {
    let rows = [
        (r#"{"t": 10:30}"#, json!({"t": "10:30"})),
        (
            r#"{"time": 10:30:15, "n": 1}"#,
            json!({"time": "10:30:15", "n": 1}),
        ),
        (
            r#"{"start": 09:00, "ratio": 16:9}"#,
            json!({"start": "09:00", "ratio": "16:9"}),
        ),
        ("[10:30, 11:45]", json!(["10:30", "11:45"])),
        // A number key before its `:` is still a key.
        ("{1:10, 2:20}", json!({"1": 10, "2": 20})),
    ];
    for (input, expected) in rows {
        assert_eq!(value(input).0, expected, "{input}");
    }
}

/// A bare word where a key belongs, with no `:` or value after it, beside members written with
/// both, is stray text: skipped and reported where it is, never a key with an invented `null`.
/// A quoted key missing its value, and an object of such words alone, keep their keys.
#[test]
fn a_stray_word_where_a_key_belongs_is_no_member() {
    let rows = [
        (
            r#"{"b": "xxxxx" true}"#,
            json!({"b": "xxxxx"}),
            Some("true"),
        ),
        (
            r#"{"v1": true, "v2": "data" AAAA }"#,
            json!({"v1": true, "v2": "data"}),
            Some("AAAA"),
        ),
        (r#"{"a": 1, b, "c": 2}"#, json!({"a": 1, "c": 2}), Some("b")),
        (r#"{"a": 1, 42}"#, json!({"a": 1}), Some("42")),
        (r#"{"a": 1, null}"#, json!({"a": 1}), Some("null")),
        (
            "{\"a\": 1 extra words here\n}",
            json!({"a": 1}),
            Some("extra words here"),
        ),
        (r#"{"a": 1, "b"}"#, json!({"a": 1, "b": null}), None),
        (r#"{b, "a": 1}"#, json!({"b": null, "a": 1}), None),
        (r#"{a, b}"#, json!({"a": null, "b": null}), None),
    ];
    for (input, expected, skipped) in rows {
        let parsed = parse(input, 128).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        assert_eq!(parsed.node.to_value(), expected, "{input}");
        let skips: Vec<&str> = parsed
            .repairs
            .iter()
            .filter(|r| r.kind == SkippedText)
            .map(|r| &input[r.span.start..r.span.end])
            .collect();
        assert_eq!(skips, Vec::from_iter(skipped), "{input}");
    }
}

#[test]
fn a_closer_is_read_by_what_the_rest_of_the_text_closes() {
    let rows: &[(&str, Value)] = &[
        // One too many: stray, wherever it is.
        (
            r#"{"s": {"w": 1}},"r": 2,"d": 3},"x": []}"#,
            json!({"s": {"w": 1, "r": 2, "d": 3}, "x": []}),
        ),
        (
            r#"[{"id": 1}}, "n": "x"}, {"id": 2, "n": "y"}]"#,
            json!([{"id": 1, "n": "x"}, {"id": 2, "n": "y"}]),
        ),
        (
            r#"{"t": ["ops"}], "p": "low"}"#,
            json!({"t": ["ops"], "p": "low"}),
        ),
        (
            r#"[{"a": 1, "b": 2]}, "c": 3}, {"a": 4}]"#,
            json!([{"a": 1, "b": 2, "c": 3}, {"a": 4}]),
        ),
        // Of the wrong kind: closes the innermost.
        (
            r#"{"e": [{"s": [1, 2}}, {"s": [3]}], "n": 1}"#,
            json!({"e": [{"s": [1, 2]}, {"s": [3]}], "n": 1}),
        ),
        (
            r#"{"args": {"p": "/a"], "why": "x"}"#,
            json!({"args": {"p": "/a"}, "why": "x"}),
        ),
        // Cut off after a wrong closer: the innermost closes, the rest stays open.
        (r#"{"a": {"b": 1], "c": 2"#, json!({"a": {"b": 1}, "c": 2})),
        // Closers at the very end are trailing text, not members' closers.
        (
            r#"{"a": {"b": 1}, "c": 2}}}"#,
            json!({"a": {"b": 1}, "c": 2}),
        ),
        // A key the previous record has and this one not yet: the same record goes on.
        (
            r#"[{"i": 1, "n": "a"}, {"i": 2}, "n": "b"}]"#,
            json!([{"i": 1, "n": "a"}, {"i": 2, "n": "b"}]),
        ),
        // A key this record has already: the next record, its `{` missing.
        (
            r#"[{"i": 1, "n": "a"}, "i": 2, "n": "b"}]"#,
            json!([{"i": 1, "n": "a"}, {"i": 2, "n": "b"}]),
        ),
        (
            r#"[{"i": 1}, "i": 2}, {"i": 3}]"#,
            json!([{"i": 1}, {"i": 2}, {"i": 3}]),
        ),
        // An early `}` in the first record, more records after it.
        (
            r#"{"e": [{"t": "A"},"k": "P","s": [3, 8]}, {"t": "B","k": "P","s": [1, 2]}],"n": 1}"#,
            json!({"e": [{"t": "A", "k": "P", "s": [3, 8]}, {"t": "B", "k": "P", "s": [1, 2]}], "n": 1}),
        ),
        // Extra closers after a matching one, members of the enclosing object after them.
        (
            r#"{"c": {"n": "K", "a": false}]}, "d": "x", "t": ["m"]}"#,
            json!({"c": {"n": "K", "a": false}, "d": "x", "t": ["m"]}),
        ),
        // Where the text after could go on in either container, the closer closes, and a
        // stray one later is read where it is: nothing is lost, `60` lands a level up.
        (
            r#"{"e": [{"s": [25]}, 60]}, {"s": [6, 80]}], "n": 1}"#,
            json!({"e": [{"s": [25]}, 60, {"s": [6, 80]}], "n": 1}),
        ),
        (
            r#"{"s": {"w": 1},"r": 2},"x": 3}"#,
            json!({"s": {"w": 1}, "r": 2, "x": 3}),
        ),
        // A stray closer later is read where it is, not at a closer before it.
        (
            r#"{"a": {"b": 1}, "c": [1]], "d": 2}"#,
            json!({"a": {"b": 1}, "c": [1], "d": 2}),
        ),
        (
            r#"{"e": [{"t": 1}], "s": {"w": 1, "r": 2], "d": 3}, "x": []}"#,
            json!({"e": [{"t": 1}], "s": {"w": 1, "r": 2, "d": 3}, "x": []}),
        ),
        // A record's early `}` known by the next record's first key.
        (
            r#"[{"id": 1}, "n": "x"}, {"id": 2, "n": "y"}]"#,
            json!([{"id": 1, "n": "x"}, {"id": 2, "n": "y"}]),
        ),
        (
            r#"{"t": ["a", "b"], "c"], "p": 1}"#,
            json!({"t": ["a", "b", "c"], "p": 1}),
        ),
        // A comment after the `,` hides nothing: the key after it fits, the closer before it
        // closes, and the stray one later is read where it is.
        (
            "{\"a\": [null, null], // a comment\n \"b\": \"x\", \"c\":] 1, \"d\": 2}",
            json!({"a": [null, null], "b": "x", "c": null, "d": 2}),
        ),
        (
            "{\"a\": [1] /* one */, /* two */ \"b\": 2]}",
            json!({"a": [1], "b": 2}),
        ),
    ];
    for (input, expected) in rows {
        assert_eq!(&value(input).0, expected, "{input}");
    }
}

#[test]
fn text_after_the_root_in_its_syntax_is_read_back_in() {
    let rows: &[(&str, Value)] = &[
        (r#"{"a": 1}, "b": 2}"#, json!({"a": 1, "b": 2})),
        ("{\"a\": 1}\n\"b\": 2}", json!({"a": 1, "b": 2})),
        (r#"{"a": 1}}, "b": [1]}"#, json!({"a": 1, "b": [1]})),
        (r#"[1, 2], 3]"#, json!([1, 2, 3])),
        (r#"[{"a": 1}]}, {"b": 2}]"#, json!([{"a": 1}, {"b": 2}])),
        // Two values in a row stay two: the parser reads the first.
        (r#"[1], [2]"#, json!([1])),
        (r#"{"a": 1}, {"b": 2}"#, json!({"a": 1})),
        ("{\"a\": 1}\n{\"b\": 2}", json!({"a": 1})),
    ];
    for (input, expected) in rows {
        assert_eq!(&value(input).0, expected, "{input}");
    }
}

#[test]
fn a_string_missing_its_quote_ends_at_its_containers_closer() {
    let rows: &[(&str, Value)] = &[
        (
            r#"{"o": {"p": "/srv/a.py}, "why": "x"}"#,
            json!({"o": {"p": "/srv/a.py"}, "why": "x"}),
        ),
        (
            r#"{"t": ["a", "b], "n": 1}"#,
            json!({"t": ["a", "b"], "n": 1}),
        ),
        (
            r#"[{"n": "x}, {"n": "y"}, {"n": "z"}]"#,
            json!([{"n": "x"}, {"n": "y"}, {"n": "z"}]),
        ),
        (
            r#"{"s": [{"n": "x}], "k": 2}"#,
            json!({"s": [{"n": "x"}], "k": 2}),
        ),
        (
            "{\"summary\": \"All done}\n\nAnything else?",
            json!({"summary": "All done"}),
        ),
        // A closer in the text, with more closers left than it would allow: text.
        (
            r#"{"o": {"p": "f(x) {y}, "b": 1}}"#,
            json!({"o": {"p": "f(x) {y}", "b": 1}}),
        ),
    ];
    for (input, expected) in rows {
        assert_eq!(&value(input).0, expected, "{input}");
    }
}

#[test]
fn triple_quoted_strings_are_dedented() {
    let text = concat!(
        "{\"sql\": \"\"\"\n    SELECT id\n      FROM t\n    \"\"\", ",
        "'py': '''a \"b\" c''', \"q\": \"\"\"x \"y\"\"\"\"}"
    );
    let (v, repairs, complete) = value(text);
    assert_eq!(
        v,
        json!({"sql": "SELECT id\n  FROM t", "py": "a \"b\" c", "q": "x \"y\""})
    );
    assert!(
        complete && repairs.contains(&TripleQuotedString),
        "{repairs:?}"
    );
    let (v, repairs, complete) = value("{\"a\": \"\"\"cut \\\"here");
    assert_eq!(v, json!({"a": "cut \"here"}));
    assert!(
        !complete && repairs.contains(&TruncatedString),
        "{repairs:?}"
    );
}

#[test]
fn code_fenced_in_a_string_keeps_its_quotes_and_brackets() {
    let text = "{\"note\": \"Fix:\n```python\nif x[\"k\"] == \"}\":\n    print(\"a\", \"b\")\n```\nDone.\", \"n\": 1}";
    let (v, _, complete) = value(text);
    assert_eq!(
        v,
        json!({"note": "Fix:\n```python\nif x[\"k\"] == \"}\":\n    print(\"a\", \"b\")\n```\nDone.", "n": 1})
    );
    assert!(complete);
    // A fence never closed: the string goes back to a quote that would have ended it.
    let (v, _, _) = value("{\"c\": \"```js\nf(\"x\")\n\", \"n\": 1}");
    assert_eq!(v, json!({"c": "```js\nf(\"x\")\n", "n": 1}));
    // The code closed by the run right before the string's quote, not on a line of its own,
    // with the value's structure after it: the string ends there, inside a fenced reply too.
    let rows: &[(&str, Value)] = &[
        (
            "{\"a\": \"```html\n<b class=\"x\">hi</b>```\", \"n\": 1}",
            json!({"a": "```html\n<b class=\"x\">hi</b>```", "n": 1}),
        ),
        (
            "{\"a\": \"```bar\n<div id=\\\"1\\\">\n\ttext\n</div>```\"\n}",
            json!({"a": "```bar\n<div id=\"1\">\n\ttext\n</div>```"}),
        ),
        // A run inside the code with a quote after it but no structure after that: code.
        (
            "{\"a\": \"```py\nx = \"```\"\nprint(x)\n```\", \"n\": 1}",
            json!({"a": "```py\nx = \"```\"\nprint(x)\n```", "n": 1}),
        ),
    ];
    for (input, expected) in rows {
        assert_eq!(&value(input).0, expected, "{input}");
    }
}

#[test]
fn thousands_separators_only_where_no_number_can_follow() {
    assert_eq!(
        value(r#"{"a": 1,234,567.5, "b": 2}"#).0,
        json!({"a": 1234567.5, "b": 2})
    );
    assert_eq!(value(r#"{"a": 12,345}"#).0, json!({"a": 12345}));
    // Not in arrays, not with a space, not before a `:`, not after four digits or a zero.
    assert_eq!(value("[1,234]").0, json!([1, 234]));
    assert_eq!(value(r#"{"a": 1, 234: 5}"#).0, json!({"a": 1, "234": 5}));
    assert_eq!(value(r#"{"a": 1,234: 5}"#).0, json!({"a": 1, "234": 5}));
    assert_eq!(value(r#"{"a": 1234,567}"#).0["a"], json!(1234));
    assert_eq!(value(r#"{"a": 0,500}"#).0["a"], json!(0));
}

#[test]
fn stray_words_and_comments_after_a_string_end_it() {
    let rows: &[(&str, Value)] = &[
        (
            r#"{"first": "Ada", and "last": "L"}"#,
            json!({"first": "Ada", "last": "L"}),
        ),
        (
            r#"{"plan": "pro", REMEMBER: "seats": 5}"#,
            json!({"plan": "pro", "seats": 5}),
        ),
        (
            "{\n  \"t\": \"N\",\n  etc.\n  \"p\": 4\n}",
            json!({"t": "N", "p": 4}),
        ),
        (
            "{\"m\": \"fast\" # was {\"m\": \"safe\"}\n, \"t\": 8}",
            json!({"m": "fast", "t": 8}),
        ),
    ];
    for (input, expected) in rows {
        assert_eq!(&value(input).0, expected, "{input}");
    }
}

#[test]
fn a_quote_before_a_closer_ends_a_value_only_where_structure_follows() {
    let rows: &[(&str, Value)] = &[
        // Code with unescaped quotes: `"}":` and `"]"` are text.
        (
            "{\"o\": {\"code\": \"if x[\"k\"] == \"}\":\\n    print(\"[done]\")\", \"t\": 1}, \"r\": 2}",
            json!({"o": {"code": "if x[\"k\"] == \"}\":\n    print(\"[done]\")", "t": 1}, "r": 2}),
        ),
        // A closer then a key: the comma is missing, the string ended.
        (
            r#"{"o": {"p": "/a"} "r": "b"}"#,
            json!({"o": {"p": "/a"}, "r": "b"}),
        ),
        // The root's closer ends the value whatever follows.
        (r#"{"a": "x"} is the answer"#, json!({"a": "x"})),
    ];
    for (input, expected) in rows {
        assert_eq!(&value(input).0, expected, "{input}");
    }
}

/// Rows of (input, expected value, the repairs reported, in order).
fn assert_rows(rows: &[(&str, Value, &[RepairKind])]) {
    for (input, expected, kinds) in rows {
        let (got, repairs, _) = value(input);
        assert_eq!(&got, expected, "{input}");
        assert_eq!(&repairs, kinds, "{input}");
    }
}

#[test]
fn a_line_comment_ends_at_a_closer_when_the_rest_could_not_close_what_is_open() {
    assert_rows(&[
        (
            r#"{ "key": { "key2": "value2" // comment }, "key3": "value3" }"#,
            json!({"key": {"key2": "value2"}, "key3": "value3"}),
            &[Comment],
        ),
        (
            r#"{ "key": { "key2": "value2" # comment }, "key3": "value3" }"#,
            json!({"key": {"key2": "value2"}, "key3": "value3"}),
            &[Comment],
        ),
        (
            r#"{"a": [1, 2 // note ], "c": 2}"#,
            json!({"a": [1, 2], "c": 2}),
            &[Comment],
        ),
        (
            r#"{"a": [{"x": 1 # note }], "c": [3]}"#,
            json!({"a": [{"x": 1}], "c": [3]}),
            &[Comment],
        ),
        (r#"[1, [2 // two ], 3]"#, json!([1, [2], 3]), &[Comment]),
        // The comment's own brackets are its text.
        (
            r#"{"a": {"b": 1 // see {x} and [y] }, "c": 2}"#,
            json!({"a": {"b": 1}, "c": 2}),
            &[Comment],
        ),
        // The next line closes what is open: the comment runs to the end of its line.
        (
            "{\"a\": \"x\" // note }, \"b\": 1\n}",
            json!({"a": "x"}),
            &[Comment],
        ),
        (
            "{\"a\": 1, // use {x} here\n \"b\": 2}",
            json!({"a": 1, "b": 2}),
            &[Comment],
        ),
    ]);
    // Many comments on one line: each line break is searched once.
    let line = format!("[{}1]", "1, // } ".repeat(1000));
    assert_eq!(value(&line).0.as_array().map(Vec::len), Some(1001));
}

#[test]
fn an_array_item_after_a_string_ends_it_when_its_comma_is_missing() {
    assert_rows(&[
        (
            r#"["a" "b" "c" 1"#,
            json!(["a", "b", "c", 1]),
            &[
                MissingComma,
                MissingComma,
                MissingComma,
                TruncatedLiteral,
                TruncatedContainer,
            ],
        ),
        (r#"["a" 2]"#, json!(["a", 2]), &[MissingComma]),
        (
            r#"["x" true, "y" null]"#,
            json!(["x", true, "y", null]),
            &[MissingComma, MissingComma],
        ),
        (
            r#"["value1" value2", "value3"]"#,
            json!(["value1", "value2", "value3"]),
            &[MissingComma, UnquotedString, MissingQuote],
        ),
        (
            r#"{"bad": ["Lorem", "consectetur" comment" ], "good": ["elit"]}"#,
            json!({"bad": ["Lorem", "consectetur", "comment"], "good": ["elit"]}),
            &[MissingComma, UnquotedString, MissingQuote],
        ),
        (
            r#"[["a" "b" 2], {"k": ["x" y", "z"]}]"#,
            json!([["a", "b", 2], {"k": ["x", "y", "z"]}]),
            &[
                MissingComma,
                MissingComma,
                MissingComma,
                UnquotedString,
                MissingQuote,
            ],
        ),
        // Inner quotes after a space open a quoted word: they stay text.
        (
            r#"["say "hi" now"]"#,
            json!(["say \"hi\" now"]),
            &[UnescapedQuote, UnescapedQuote],
        ),
        (
            r#"["He said "yes" 2 times"]"#,
            json!(["He said \"yes\" 2 times"]),
            &[UnescapedQuote, UnescapedQuote],
        ),
    ]);
}

#[test]
fn a_quote_doubled_before_an_items_separator_is_the_texts() {
    assert_rows(&[
        (r#"["a"", "b"]"#, json!(["a\"", "b"]), &[UnescapedQuote]),
        (
            r#"['a'', 'b']"#,
            json!(["a'", "b"]),
            &[NonStandardQuotes, UnescapedQuote, NonStandardQuotes],
        ),
        (r#"["a"" ]"#, json!(["a\""]), &[UnescapedQuote]),
        (
            r#"("a"", 1)"#,
            json!(["a\"", 1]),
            &[TupleAsArray, UnescapedQuote],
        ),
        // As in an object's value.
        (
            r#"{"k": "a"", "b": 1}"#,
            json!({"k": "a\"", "b": 1}),
            &[UnescapedQuote],
        ),
        // An empty string after a string whose comma is missing stays an item.
        (r#"["a""", "b"]"#, json!(["a", "", "b"]), &[MissingComma]),
        (r#"["a" "", "b"]"#, json!(["a", "", "b"]), &[MissingComma]),
        (r#"["a","",""]"#, json!(["a", "", ""]), &[]),
    ]);
}

#[test]
fn a_bare_value_closed_by_a_stray_quote_lost_its_opening_quote() {
    assert_rows(&[
        (
            r#"{ "words": abcdef", "numbers": 12345", "words2": ghijkl" }"#,
            json!({"words": "abcdef", "numbers": 12345, "words2": "ghijkl"}),
            &[
                UnquotedString,
                MissingQuote,
                MissingQuote,
                UnquotedString,
                MissingQuote,
            ],
        ),
        (
            r#"[a",b"]"#,
            json!(["a", "b"]),
            &[UnquotedString, MissingQuote, UnquotedString, MissingQuote],
        ),
        (
            r#"{"a":foo","b":"bar"}"#,
            json!({"a": "foo", "b": "bar"}),
            &[UnquotedString, MissingQuote],
        ),
        (
            r#"{"a": hello world", "b": [true" ]}"#,
            json!({"a": "hello world", "b": [true]}),
            &[UnquotedString, MissingQuote, MissingQuote],
        ),
        // A quote inside a bare value that is followed by more text stays text.
        (
            r#"{"a": 5" tall, "b": 1}"#,
            json!({"a": "5\" tall", "b": 1}),
            &[UnquotedString],
        ),
    ]);
}

#[test]
fn a_bare_value_ends_before_the_next_quoted_key() {
    assert_rows(&[
        (
            r#"{"key":value "key2":"value2" }"#,
            json!({"key": "value", "key2": "value2"}),
            &[UnquotedString, MissingComma],
        ),
        (
            r#"{"key": value "key2" : "value2" "#,
            json!({"key": "value", "key2": "value2"}),
            &[UnquotedString, MissingComma, TruncatedContainer],
        ),
        (
            r#"{"a": {"k": some words "n": 2}, "b": x "c": [1]}"#,
            json!({"a": {"k": "some words", "n": 2}, "b": "x", "c": [1]}),
            &[UnquotedString, MissingComma, UnquotedString, MissingComma],
        ),
        // Quoted words that are no key stay in the value.
        (
            r#"{"a": it is "quoted" here, "b": 1}"#,
            json!({"a": "it is \"quoted\" here", "b": 1}),
            &[UnquotedString],
        ),
    ]);
}

#[test]
fn a_key_missing_a_quote_is_read_up_to_its_colon() {
    assert_rows(&[
        (
            r#"{"key:"value"}"#,
            json!({"key": "value"}),
            &[MissingQuote],
        ),
        (
            r#"{"key:value}"#,
            json!({"key": "value"}),
            &[MissingQuote, UnquotedString],
        ),
        (
            r#"{"a": {"key:"value"}, "b": [1]}"#,
            json!({"a": {"key": "value"}, "b": [1]}),
            &[MissingQuote],
        ),
        (
            r#"{a":"foo","b":"bar"}"#,
            json!({"a": "foo", "b": "bar"}),
            &[MissingQuote, UnquotedKey],
        ),
        (
            r#"{"a":"foo",b":"bar"}"#,
            json!({"a": "foo", "b": "bar"}),
            &[MissingQuote, UnquotedKey],
        ),
        (
            r#"{"a": 1, first": 2, "n": {second": [3]}}"#,
            json!({"a": 1, "first": 2, "n": {"second": [3]}}),
            &[MissingQuote, UnquotedKey, MissingQuote, UnquotedKey],
        ),
        (
            "{a 'b'}",
            json!({"a": "b"}),
            &[UnquotedKey, MissingColon, NonStandardQuotes],
        ),
        ("{a \"b\"}", json!({"a": "b"}), &[UnquotedKey, MissingColon]),
        // A key with a colon in it, followed by its own colon, is valid JSON.
        (r#"{"a:b": 1}"#, json!({"a:b": 1}), &[]),
        // A string missing its closing quote still ends before the next quoted key.
        (
            r#"{"r": "eng, "t": "x"}"#,
            json!({"r": "eng", "t": "x"}),
            &[MissingQuote],
        ),
    ]);
}

#[test]
fn quotes_in_a_value_are_text_when_no_member_follows_them() {
    assert_rows(&[
        // A URL is no key: `https:` does not end the string before it.
        (
            r#"{ "content": "[LINK]("https://google.com")" }"#,
            json!({"content": "[LINK](\"https://google.com\")"}),
            &[UnescapedQuote, UnescapedQuote],
        ),
        (
            r#"{"a": "see "http://x.org/a" now", "b": 1}"#,
            json!({"a": "see \"http://x.org/a\" now", "b": 1}),
            &[UnescapedQuote, UnescapedQuote],
        ),
        // The content ends with its containers' closers and no member follows the quotes.
        (
            r#"{"key": "lorem ipsum ... "sic " tamet. ...}"#,
            json!({"key": "lorem ipsum ... \"sic \" tamet. ..."}),
            &[UnescapedQuote, UnescapedQuote, MissingQuote],
        ),
        (
            r#"{"a": ["x "y" z]}"#,
            json!({"a": ["x \"y\" z"]}),
            &[UnescapedQuote, UnescapedQuote, MissingQuote],
        ),
        (
            r#"{"o": {"a": "He said "no" then left}}"#,
            json!({"o": {"a": "He said \"no\" then left"}}),
            &[UnescapedQuote, UnescapedQuote, MissingQuote],
        ),
    ]);
}

#[test]
fn doubled_quotes_quote_a_string() {
    assert_rows(&[
        (
            r#"{""answer"":[{""traits"":''Female aged 60+'',""answer1"":""5""}]}"#,
            json!({"answer": [{"traits": "Female aged 60+", "answer1": "5"}]}),
            &[NonStandardQuotes; 5],
        ),
        (
            r#"{""a"": ""b c"", ""d"": [""x"", ""y""]}"#,
            json!({"a": "b c", "d": ["x", "y"]}),
            &[NonStandardQuotes; 5],
        ),
        (
            r#"{"key": ""value"}"#,
            json!({"key": "value"}),
            &[NonStandardQuotes],
        ),
        // Empty strings stay empty strings.
        (r#"["", "", "a"]"#, json!(["", "", "a"]), &[]),
    ]);
}

#[test]
fn adjacent_string_literals_in_an_objects_value_join() {
    assert_rows(&[
        (
            "{'a': 'x' 'y'}",
            json!({"a": "xy"}),
            &[
                NonStandardQuotes,
                NonStandardQuotes,
                NonStandardQuotes,
                StringConcatenation,
            ],
        ),
        (
            "{\"desc\": \"a long \"\n   \"string\", \"n\": 1}",
            json!({"desc": "a long string", "n": 1}),
            &[StringConcatenation],
        ),
        (
            r#"{"a": "x" "y" "z"}"#,
            json!({"a": "xyz"}),
            &[StringConcatenation, StringConcatenation],
        ),
        // Quoted words inside a value's text stay its text.
        (
            r#"{"a": "the "quick" "brown" fox"}"#,
            json!({"a": "the \"quick\" \"brown\" fox"}),
            &[UnescapedQuote; 4],
        ),
        // A key after the value, its comma missing, is no part.
        (
            r#"{"a": "x" "b": 1}"#,
            json!({"a": "x", "b": 1}),
            &[MissingComma],
        ),
        // In an array, strings side by side are items whose comma is missing.
        (
            r#"['x' 'y']"#,
            json!(["x", "y"]),
            &[NonStandardQuotes, MissingComma, NonStandardQuotes],
        ),
    ]);
}

#[test]
fn string_parts_joined_by_a_plus_may_have_comments_between() {
    assert_rows(&[
        (
            r#""hello" + /*comment*/ " world""#,
            json!("hello world"),
            &[Comment, StringConcatenation],
        ),
        (
            "[\"a\" + // c\n \"b\"]",
            json!(["ab"]),
            &[Comment, StringConcatenation],
        ),
    ]);
}

#[test]
fn four_quotes_that_never_close_as_three_are_ordinary_quotes() {
    assert_rows(&[
        (
            r#"[{"lorem": {"ipsum": "sic"}, """" "lorem": {"ipsum": "sic"}]"#,
            json!([{"lorem": {"ipsum": "sic"}, "": ""}]),
            &[MissingColon, MissingComma, MissingBracket],
        ),
        (
            r#"["x", """" "a"]"#,
            json!(["x", "", "", "a"]),
            &[MissingComma, MissingComma],
        ),
        // Cut off inside a triple-quoted string: it stays one.
        (
            r#"{"a": """hello"#,
            json!({"a": "hello"}),
            &[TripleQuotedString, TruncatedString, TruncatedContainer],
        ),
    ]);
}

#[test]
fn an_array_where_a_key_belongs_ends_the_string_before_it() {
    assert_rows(&[(
        r#"{ "key": ["arrayvalue"], "key3": "value3", ["arrayvalue1"] }"#,
        json!({"key": ["arrayvalue"], "key3": "value3"}),
        &[SkippedText, TrailingComma],
    )]);
}

#[test]
fn stray_text_between_a_key_and_its_colon_is_skipped() {
    assert_rows(&[
        (
            r#"{"a": 1, "b"$: 2}"#,
            json!({"a": 1, "b": 2}),
            &[SkippedText],
        ),
        (r#"{"b"+ : 2}"#, json!({"b": 2}), &[SkippedText]),
        // One word: the key keeps its quotes, and the word goes.
        (
            r#"{"name" is: "Bob", "age": 3}"#,
            json!({"name": "Bob", "age": 3}),
            &[SkippedText],
        ),
        (
            r#"{"id"o: 4, "name": "Lena"}"#,
            json!({"id": 4, "name": "Lena"}),
            &[SkippedText],
        ),
        (
            r#"{'a' x: 1}"#,
            json!({"a": 1}),
            &[NonStandardQuotes, SkippedText],
        ),
        // Not a word before a colon: the quotes inside the key are its text.
        (
            r#"{"the "best" choice": 1}"#,
            json!({"the \"best\" choice": 1}),
            &[UnescapedQuote, UnescapedQuote],
        ),
        // A key that starts the next line is no stray word: the next member, this key's
        // value missing.
        (
            "{\"a\"\n  b: 1}",
            json!({"a": null, "b": 1}),
            &[MissingValue, MissingComma, UnquotedKey],
        ),
        (
            "{\n  \"a\"\n  \"b\": 1\n}",
            json!({"a": null, "b": 1}),
            &[MissingValue, MissingComma],
        ),
        // Two words are a value whose `:` is missing, as before.
        (
            r#"{"a" b c: 1}"#,
            json!({"a": "b c: 1"}),
            &[MissingColon, UnquotedString],
        ),
    ]);
}

#[test]
fn bare_text_keeps_its_commas_and_braced_words() {
    assert_rows(&[
        (
            r#"{"lorem": ipsum, sic, datum.", "n": 1}"#,
            json!({"lorem": "ipsum, sic, datum.", "n": 1}),
            &[UnquotedString, MissingQuote],
        ),
        (
            r#"{"name": Smith, John"}"#,
            json!({"name": "Smith, John"}),
            &[UnquotedString, MissingQuote],
        ),
        // A key after the comma, quoted or not: the text ends there.
        (
            r#"{"a": hello, "b": "c"}"#,
            json!({"a": "hello", "b": "c"}),
            &[UnquotedString],
        ),
        (
            r#"{"a": hello, b: "c"}"#,
            json!({"a": "hello", "b": "c"}),
            &[UnquotedString, UnquotedKey],
        ),
        // Braces around words inside the text are its own.
        (
            "{text: words{words in brackets}m}",
            json!({"text": "words{words in brackets}m"}),
            &[UnquotedKey, UnquotedString],
        ),
        (
            r#"{"a": x{"b": 1}}"#,
            json!({"a": "x", "b": 1}),
            &[UnquotedString, MissingComma, SkippedText],
        ),
        // In an array the comma separates items.
        (
            r#"[a, b"]"#,
            json!(["a", "b"]),
            &[UnquotedString, UnquotedString, MissingQuote],
        ),
    ]);
}

mod builders_agree {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The direct `serde_json::Value` build and the node tree agree on every input: same
        /// value, same repairs, same completeness, same errors.
        #[test]
        fn value_build_equals_tree_then_to_value(text in "[{}\\[\\]\"',: a-z0-9\\\\/*#\\n.+\\-`“”\u{3000}\u{feff}]{0,120}") {
            let span = Span::new(0, text.len());
            let tree = parse_span_with(&text, span, 16, RepairPaths::Skip);
            let direct = parse_value_span(&text, span, 16);
            match (tree, direct) {
                (Ok(tree), Ok(direct)) => {
                    // With the source, as the direct build numbers (`arbitrary_precision`).
                    prop_assert_eq!(tree.node.to_value_in(&text, 0), direct.value);
                    prop_assert_eq!(tree.node.is_complete_deep(), direct.complete);
                    prop_assert_eq!(tree.repairs, direct.repairs);
                    prop_assert_eq!(tree.end, direct.end);
                }
                (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
                (a, b) => prop_assert!(false, "tree {:?} vs direct {:?}", a.map(|p| p.node.to_value()), b.map(|p| p.value)),
            }
        }
    }
}

mod valid_documents {
    use super::*;
    use proptest::prelude::*;

    /// JSON values whose strings hold what the damage rules look at: quotes, brackets, commas,
    /// backticks, colons, Unicode spaces.
    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            (-1e6f64..1e6).prop_map(Value::from),
            "[a-z \"'`,:{}\\[\\]#/\\\\\u{3000}\u{a0}]{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec(("[a-z\"}\\],: ]{0,6}", inner), 0..6)
                    .prop_map(|members| Value::Object(members.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// Valid JSON reads as serde_json reads it, with no repair, compact or indented.
        #[test]
        fn valid_json_is_read_unchanged(value in json_value(), pretty in any::<bool>()) {
            let text = if pretty {
                serde_json::to_string_pretty(&value).unwrap()
            } else {
                serde_json::to_string(&value).unwrap()
            };
            let parsed = parse(&text, 128).unwrap();
            prop_assert_eq!(parsed.node.to_value(), value);
            prop_assert!(parsed.repairs.is_empty(), "{}: {:?}", text, parsed.repairs);
        }

        /// The same documents with Unicode spaces in their indentation read the same, each
        /// run of them logged.
        #[test]
        fn unicode_indentation_changes_nothing_but_the_report(value in json_value()) {
            let text = serde_json::to_string_pretty(&value).unwrap().replace('\n', "\n\u{3000}\u{200b}");
            let parsed = parse(&text, 128).unwrap();
            prop_assert_eq!(parsed.node.to_value(), value);
            prop_assert!(parsed.repairs.iter().all(|r| r.kind == UnicodeWhitespace), "{:?}", parsed.repairs);
        }
    }
}

/// A key opened by a doubled quote and missing its closing quote, before a colon: the colon is
/// found in the source after both quotes, also when the key is not ASCII (found by the stream
/// fuzz target: the colon was placed one byte early, inside the character, and panicked).
#[test]
fn a_key_opened_by_a_doubled_quote_splits_at_its_colon() {
    for (text, want) in [
        ("{\"\"a:1}", json!({"a": 1})),
        ("{\"\"日:1}", json!({"日": 1})),
        ("{\"\"é:", json!({"é": null})),
        ("{\"\"\u{FFFD}:", json!({"\u{FFFD}": null})),
        ("{\"\"ab\"\": 1}", json!({"ab": 1})),
    ] {
        let parsed = parse(text, 128).unwrap();
        assert_eq!(parsed.node.to_value(), want, "{text:?}");
    }
}

#[test]
fn a_bare_key_ahead_may_hold_dots_and_letters_outside_ascii() {
    // The quote before `, 2.17:` closes its string: a key follows (its value in quotes too,
    // so only the key test tells the quote from one inside the string).
    for (input, want) in [
        (
            "{\n  5: \"b\",\n  2.17: \"e\",\n  null: \"n\"\n}",
            json!({"5": "b", "2.17": "e", "null": "n"}),
        ),
        (
            r#"{"a": "b", user.name: "e"}"#,
            json!({"a": "b", "user.name": "e"}),
        ),
        (r#"{"a": "b", año: "e"}"#, json!({"a": "b", "año": "e"})),
        (r#"{"a": "b", 名前: "e"}"#, json!({"a": "b", "名前": "e"})),
        // A `.` that ends the word is not the key's: `e.g.:` in a sentence is text.
        (
            r#"{"a": "He said "no", e.g.: fine"}"#,
            json!({"a": "He said \"no\", e.g.: fine"}),
        ),
        // A full-width colon ends the word and separates.
        (r#"{"a": "b", año："e"}"#, json!({"a": "b", "año": "e"})),
    ] {
        assert_eq!(value(input).0, want, "{input}");
    }
}

#[test]
fn an_object_values_bare_text_runs_past_commas_and_lines_that_hold_no_key() {
    for (input, want) in [
        (r#"{"a": hello, world}"#, json!({"a": "hello, world"})),
        (
            r#"{"tags": red, green, blue, "n": 1}"#,
            json!({"tags": "red, green, blue", "n": 1}),
        ),
        (
            r#"{"city": Paris, France, country: FR}"#,
            json!({"city": "Paris, France", "country": "FR"}),
        ),
        (r#"{"a": it's fine, ok}"#, json!({"a": "it's fine, ok"})),
        (
            "{\"a\": 1, \"b\": **One, two**\n\nThree, then \"four\" five.\n}",
            json!({"a": 1, "b": "**One, two**\n\nThree, then \"four\" five."}),
        ),
        (
            "{\"a\": first line\nsecond line\nb: 3}",
            json!({"a": "first line\nsecond line", "b": 3}),
        ),
        // A comma that ends its line, a key after it, or a key on the next line: the value
        // ends there.
        ("{\"a\": x,\n \"b\": 2}", json!({"a": "x", "b": 2})),
        ("{\"a\": x,\n b: 2}", json!({"a": "x", "b": 2})),
        ("{\"a\": hello\n  \"b\": 1}", json!({"a": "hello", "b": 1})),
        ("{\"a\": hello\n  b: 1}", json!({"a": "hello", "b": 1})),
        (r#"{"a": x, "b": 1}"#, json!({"a": "x", "b": 1})),
        (r#"{"a": x, b：1}"#, json!({"a": "x", "b": 1})),
        // In an array each word is an item, as before.
        (r#"[red, green]"#, json!(["red", "green"])),
    ] {
        assert_eq!(value(input).0, want, "{input}");
    }
}

/// Whether a `#` comment after a value's quote ends the value, asked of every prefix of a
/// text: an answer given before the text is whole is the answer on the whole text.
#[test]
fn a_comment_after_a_value_is_judged_alike_on_every_prefix() {
    let texts = [
        "\"v\" # note\n, \"k\": 1}",
        "\"v\" # note\n more text\n, \"k\": 1}",
        "\"v\" # was {\"mode\": \"safe\"}\n, \"threads\": 8}",
        "\"v\" # note }, \"k\": 1}",
        "\"v\" # note ] and more",
        "\"v\" # note }",
        "\"v\" #no space\n}",
        "\"v\"# tight\n, \"k\": 1}",
        "\"v\" # [a] then ]\n  ]",
    ];
    for text in texts {
        let at = text.find('#').unwrap();
        let bytes = text.as_bytes();
        let whole = comment_then_separator_in::<false>(bytes, at, bytes.len());
        let whole = whole.expect("the whole text decides");
        for end in at + 1..=bytes.len() {
            if let Some(so_far) = comment_then_separator_in::<true>(bytes, at, end) {
                assert_eq!(so_far, whole, "{text:?} cut at {end}");
            }
        }
        // Past the lookahead the text so far decides, whatever follows.
        let long = format!("{text}{}", " ".repeat(2 * KEY_LOOKAHEAD));
        let b = long.as_bytes();
        let settled = comment_then_separator_in::<true>(b, at, at + KEY_LOOKAHEAD + 1);
        let padded = comment_then_separator_in::<false>(b, at, b.len());
        assert_eq!(settled, padded, "{text:?}");
    }
    assert_eq!(
        comment_then_separator_in::<false>(b"\"v\" # note }", 4, 12),
        Some(true)
    );
    assert_eq!(
        comment_then_separator_in::<false>(b"\"v\"# x\n,", 3, 8),
        Some(false)
    );
}
