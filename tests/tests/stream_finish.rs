//! `Stream::finish` gives exactly what `extract` gives (value, report, reasoning, errors),
//! and a reply written as strict JSON, or with repairs of how it is written (single quotes,
//! raw control characters, other languages' literals, comments, trailing commas,
//! bare keys), is not read again: the value is
//! built from what the stream read (`Extract::from_partial`), its repairs from what the
//! stream logged.

use llm_extract::coerce::{Context, Direct, Failed, Node, NodeKind, Number};
use llm_extract::{stream::NoPartial, Extract, Extracted, RepairKind, Stream};
use std::fmt::Debug;

#[derive(Extract, Debug, PartialEq)]
struct Inner {
    x: Option<f64>,
    y: f32,
    label: String,
}

#[derive(Extract, Debug, PartialEq)]
enum Status {
    Open,
    Closed,
}

#[derive(Extract, Debug, PartialEq)]
struct Wide {
    id: u64,
    small: i8,
    name: String,
    note: Option<String>,
    tags: Vec<String>,
    maybe: Option<Vec<Option<String>>>,
    inner: Inner,
    boxed: Option<Box<Inner>>,
    flag: bool,
    letter: Option<char>,
    #[extract(default)]
    count: u32,
    #[extract(alias = "nums")]
    numbers: Vec<i64>,
    #[extract(skip)]
    skipped: u8,
    deep: Option<Vec<Vec<u16>>>,
    #[extract(min_len = 2)]
    code: Option<String>,
}

#[derive(Extract, Debug, PartialEq)]
struct WithEnum {
    status: Status,
    n: u32,
}

/// A small deterministic generator (xorshift), so that a failure names its case.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<'a>(&mut self, of: &[&'a str]) -> &'a str {
        of[self.below(of.len())]
    }
}

/// A value of `kind`, mostly as the type wants it, sometimes in one of the shapes a model
/// writes instead (a string for a number, a list for a scalar, a placeholder, ...).
fn scalar(r: &mut Rng, kind: &str) -> String {
    if r.chance(12) {
        let wrong = [
            "null",
            "\"N/A\"",
            "\"\"",
            "\"42\"",
            "[1]",
            "{\"a\": 1}",
            "true",
            "1.5",
            "-3",
            "\"x\"",
            "1e3",
            "[\"s\"]",
        ];
        return r.pick(&wrong).to_string();
    }
    match kind {
        "u" => r.below(1000).to_string(),
        "i" => (r.below(200) as i64 - 100).to_string(),
        "f" => r
            .pick(&["7", "62.5", "-0.0", "1.25e-2", "3.0", "1e2"])
            .to_string(),
        "s" => r
            .pick(&[
                r#""hello""#,
                r#""a \"q\" b\n""#,
                r#""é\u00e9""#,
                r#""""#,
                r#""none""#,
                r#""w\ud83d\ude00""#,
                r#""w17""#,
            ])
            .to_string(),
        "b" => r.pick(&["true", "false"]).to_string(),
        "c" => r.pick(&[r#""x""#, r#"" y ""#, r#""ab""#]).to_string(),
        "status" => r
            .pick(&[r#""Open""#, r#""Closed""#, r#""open""#, r#""CLOSED""#])
            .to_string(),
        _ => unreachable!("{kind}"),
    }
}

fn list(r: &mut Rng, kind: &str) -> String {
    if r.chance(8) {
        return scalar(r, kind);
    }
    let items: Vec<String> = (0..r.below(4)).map(|_| scalar(r, kind)).collect();
    format!("[{}]", items.join(", "))
}

fn inner(r: &mut Rng) -> String {
    if r.chance(5) {
        return scalar(r, "s");
    }
    object(r, &[("x", "f"), ("y", "f"), ("label", "s")])
}

/// An object of `fields` (name, kind): members left out, keys spelled otherwise, written
/// twice, an unknown key, members in another order.
fn object(r: &mut Rng, fields: &[(&str, &str)]) -> String {
    let mut members = Vec::new();
    for (key, kind) in fields {
        if r.chance(6) {
            continue;
        }
        let value = match *kind {
            "list_s" => list(r, "s"),
            "list_i" => list(r, "i"),
            "inner" => inner(r),
            "maybe" if r.chance(30) => "null".to_string(),
            "maybe" => list(r, "s"),
            "deep" if r.chance(20) => "null".to_string(),
            "deep" => {
                let rows: Vec<String> = (0..r.below(3)).map(|_| list(r, "u")).collect();
                format!("[{}]", rows.join(","))
            }
            kind => scalar(r, kind),
        };
        let written = match r.below(20) {
            0 => key.to_uppercase(),
            1 => format!("_{key}"),
            _ => key.to_string(),
        };
        members.push(format!("\"{written}\": {value}"));
        if r.chance(3) {
            members.push(format!("\"{key}\": {}", scalar(r, "u")));
        }
    }
    if r.chance(5) {
        members.push("\"extra\": 1".to_string());
    }
    if r.chance(3) {
        members.reverse();
    }
    let sep = if r.chance(50) { ", " } else { ",\n  " };
    format!("{{{}}}", members.join(sep))
}

/// One change a model makes to JSON that the lenient reader takes without doubt (a single
/// quote, a comment, a trailing comma, a Python literal, an escape JSON does not have, a
/// raw tab, a space JSON does not have, ...), or none.
fn mild_damage(r: &mut Rng, json: &str) -> String {
    if !r.chance(35) {
        return json.to_string();
    }
    let edits: &[(&str, &str)] = &[
        ("\"", "'"),
        (", \"", ", // note\n\""),
        ("}", ",}"),
        ("]", ",]"),
        ("true", "True"),
        ("null", "None"),
        ("\"id\"", "id"),
        ("hello", "hel\tlo"),
        ("hello", "hel\\qlo"),
        ("hello", "h\\ud800i"),
        (": ", ":\u{a0}"),
        (", ", "\u{ff0c}"),
        ("1", "1e400"),
        ("w17", "w\u{7f}17"),
        ("-3", "+3"),
        ("1.5", ".5"),
        ("{", "{ /* c */ "),
        ("2", "99999999999999999999999"),
        ("\"", "\u{201c}"),
    ];
    let (from, to) = edits[r.below(edits.len())];
    let at: Vec<usize> = json.match_indices(from).map(|(i, _)| i).collect();
    if at.is_empty() {
        return json.to_string();
    }
    let at = at[r.below(at.len())];
    format!("{}{to}{}", &json[..at], &json[at + from.len()..])
}

/// One to four changes of how the value is written, as models mix them: the repairs the stream
/// logs itself, with a few it leaves to the parser (`#` comments, `undefined`, a key in
/// single quotes after a comment).
fn lexical_damage(r: &mut Rng, json: &str) -> String {
    let edits: &[(&str, &str)] = &[
        ("\"", "'"),
        (", \"", ", // c\n\""),
        ("}", ",}"),
        ("]", ",]"),
        ("true", "True"),
        ("false", "False"),
        ("null", "None"),
        ("null", "undefined"),
        ("\"id\"", "id"),
        ("\"name\"", "name"),
        ("\"x\"", "x"),
        ("{", "{ /* x */ "),
        (", ", " /* y */, "),
        ("[", "[ // z\n"),
        ("\"tags\"", "'tags'"),
        ("\"hello\"", "'hello'"),
        ("1,", "1 // one\n,"),
        ("]", " # h\n]"),
        (": ", " /* k */ : "),
        ("\r\n", "\n"),
        (": ", ":\u{a0}"),
        (", ", "\u{ff0c}"),
        (", ", ",\u{3000} "),
        // Quotes the parser reads as a string's text (or not: the stream must agree).
        ("hello", "say \"hello\" now"),
        ("hello", "it's"),
        ("\\\"q\\\"", "\"q\""),
        ("w17", "w\"17 } x"),
        ("none", "no\"ne, \"k\": 1"),
    ];
    let mut out = json.to_string();
    for _ in 0..=r.below(4) {
        let (from, to) = edits[r.below(edits.len())];
        let at: Vec<usize> = out.match_indices(from).map(|(i, _)| i).collect();
        if !at.is_empty() {
            let at = at[r.below(at.len())];
            out = format!("{}{to}{}", &out[..at], &out[at + from.len()..]);
        }
    }
    out
}

/// `json` as a model replies with it: alone, in a fence, after reasoning, inside prose, twice.
fn reply(r: &mut Rng, json: &str) -> String {
    let json = mild_damage(r, json);
    framed(r, json)
}

fn framed(r: &mut Rng, json: String) -> String {
    match r.below(7) {
        0 => json,
        1 => format!("```json\n{json}\n```"),
        2 => format!("<think>Let me think.</think>\n```json\n{json}\n```\nDone."),
        3 => format!("Here it is:\n{json}\nHope that helps."),
        4 => format!("<think>the {{a}} [b] \"c\"</think>{json}"),
        5 => format!("Sure! {json} and also {json}"),
        _ => format!("```\n{json}\n```\n"),
    }
}

/// `text` in `size`-byte pieces, each cut back to a character boundary.
fn pieces(text: &str, size: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + size).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        out.push(&text[at..end]);
        at = end;
    }
    out
}

/// What a reading gives, in words: value, report and reasoning, or the error.
fn outcome<T: Debug>(read: Result<llm_extract::Extracted<T>, llm_extract::Error>) -> String {
    match read {
        Ok(e) => format!("{:?} {:?} {:?}", e.value, e.report, e.thoughts),
        Err(e) => format!("error {e:?}"),
    }
}

/// Where `finish` of `text` streamed in chunks of 1, 7, 64 bytes and whole differs from
/// `extract` (a reply cut off inside its value is left out: `finish` calls that an error).
fn differs<T: Extract + Debug>(text: &str) -> Option<String> {
    let want = llm_extract::extract::<T>(text);
    if want.as_ref().is_ok_and(|w| !w.report.complete) {
        return None;
    }
    let want = outcome(want);
    [1, 7, 64, text.len().max(1)].into_iter().find_map(|size| {
        let mut stream = Stream::<T>::new();
        for piece in pieces(text, size) {
            stream.push(piece);
        }
        let got = outcome(stream.finish());
        (got != want).then(|| {
            format!(
                "{} in {size}-byte chunks: {text:?}\n  extract: {want}\n  finish:  {got}",
                std::any::type_name::<T>()
            )
        })
    })
}

/// Asserts that `finish` gives what `extract` gives for `text` at every chunking [`differs`]
/// tries.
fn same_as_extract<T: Extract + Debug>(text: &str) {
    let bad = differs::<T>(text);
    assert!(bad.is_none(), "{}", bad.unwrap_or_default());
}

#[test]
fn finish_gives_what_extract_gives() {
    const WIDE: &[(&str, &str)] = &[
        ("id", "u"),
        ("small", "i"),
        ("name", "s"),
        ("note", "s"),
        ("tags", "list_s"),
        ("maybe", "maybe"),
        ("inner", "inner"),
        ("boxed", "inner"),
        ("flag", "b"),
        ("letter", "c"),
        ("count", "u"),
        ("numbers", "list_i"),
        ("deep", "deep"),
        ("code", "s"),
    ];
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let mut bad = Vec::new();
    for _ in 0..600 {
        let wide = object(&mut r, WIDE);
        let texts = [
            (reply(&mut r, &wide), 0),
            (format!("[{wide}, {}]", object(&mut r, WIDE)), 1),
        ];
        bad.extend(differs::<Wide>(&texts[0].0));
        bad.extend(differs::<Vec<Wide>>(&texts[1].0));
        bad.extend(differs::<serde_json::Value>(&texts[0].0));
        bad.extend(differs::<Vec<serde_json::Value>>(&texts[1].0));
        let with_enum = object(&mut r, &[("status", "status"), ("n", "u")]);
        bad.extend(differs::<WithEnum>(&reply(&mut r, &with_enum)));
        let one = inner(&mut r);
        bad.extend(differs::<Inner>(&reply(&mut r, &one)));
        let numbers = list(&mut r, "u");
        bad.extend(differs::<Vec<u64>>(&reply(&mut r, &numbers)));
        let strings = list(&mut r, "s");
        bad.extend(differs::<Vec<String>>(&reply(&mut r, &strings)));
        let floats = list(&mut r, "f");
        bad.extend(differs::<Option<Vec<Option<f32>>>>(&reply(&mut r, &floats)));
    }
    for b in bad.iter().take(5) {
        println!("{b}");
    }
    assert!(bad.is_empty(), "{} differences", bad.len());
}

/// Replies with several repairs of how they are written: `finish` builds most of them from
/// what the stream read and logged, and gives `extract`'s report to the repair (kind, span,
/// path, position, order).
#[test]
fn finish_gives_what_extract_gives_with_repairs_the_stream_logs() {
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    let mut bad = Vec::new();
    for _ in 0..400 {
        let fields = [
            ("id", "u"),
            ("name", "s"),
            ("tags", "list_s"),
            ("inner", "inner"),
        ];
        let json = object(&mut r, &fields);
        let text = lexical_damage(&mut r, &json);
        let text = framed(&mut r, text);
        bad.extend(differs::<Wide>(&text));
        bad.extend(differs::<serde_json::Value>(&text));
        let list = format!("[{json}, {}]", object(&mut r, &fields));
        bad.extend(differs::<Vec<serde_json::Value>>(&lexical_damage(
            &mut r, &list,
        )));
        let one = inner(&mut r);
        bad.extend(differs::<Inner>(&lexical_damage(&mut r, &one)));
    }
    for b in bad.iter().take(5) {
        println!("{b}");
    }
    assert!(bad.is_empty(), "{} differences", bad.len());
}

#[test]
fn finish_gives_what_extract_gives_on_damaged_replies() {
    let mut texts = Vec::new();
    for path in [
        "damage/cases.json",
        "peers/json_repair.json",
        "peers/jsonrepair.json",
    ] {
        let raw =
            std::fs::read_to_string(format!("{}/fixtures/{path}", env!("CARGO_MANIFEST_DIR")))
                .unwrap();
        let cases: Vec<serde_json::Value> = serde_json::from_str(&raw).unwrap();
        texts.extend(
            cases
                .iter()
                .filter_map(|c| c["input"].as_str().map(str::to_string)),
        );
    }
    let mut bad = Vec::new();
    for text in &texts {
        bad.extend(differs::<Wide>(text));
        bad.extend(differs::<Vec<Inner>>(text));
        bad.extend(differs::<serde_json::Value>(text));
    }
    for b in bad.iter().take(5) {
        println!("{b}");
    }
    assert!(bad.is_empty(), "{} differences", bad.len());
}

/// A number that tells how it was read: `from_node` (and `read_direct`, its default) reads
/// it as written, `from_partial` adds 1000. (A real type gives the same either way; this one
/// breaks that contract on purpose, to show which way `finish` went.)
#[derive(Debug, PartialEq)]
struct Marked(u64);

impl Extract for Marked {
    type Partial = u64;

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        match node.kind {
            NodeKind::Number(Number::PosInt(n)) => Ok(Marked(n)),
            _ => u64::from_node(node, cx).map(Marked),
        }
    }

    fn read_direct(r: &mut Direct<'_>) -> Option<Self> {
        u64::read_direct(r).map(Marked)
    }

    fn from_partial(partial: &u64) -> Option<Self> {
        Some(Marked(partial + 1000))
    }
}

/// The schema the derive asks of a field's type: a number's.
impl llm_extract::JsonSchema for Marked {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Marked".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        u64::json_schema(generator)
    }
}

#[derive(Extract, Debug, PartialEq)]
struct Counts {
    first: Marked,
    rest: Vec<Marked>,
    note: Option<String>,
    status: Option<Status>,
}

fn finished(text: &str) -> Counts {
    let mut stream = Stream::<Counts>::new();
    for piece in pieces(text, 5) {
        stream.push(piece);
    }
    stream.finish().unwrap().value
}

#[test]
fn a_strict_reply_is_not_read_again() {
    let built = || Counts {
        first: Marked(1001),
        rest: vec![Marked(1002), Marked(1003)],
        note: None,
        status: None,
    };
    for text in [
        r#"{"first": 1, "rest": [2, 3]}"#,
        "```json\n{\"first\": 1,\n  \"rest\": [2, 3], \"note\": null}\n```",
        "<think>Count {it}.</think>\nHere: {\"first\": 1, \"rest\": [2, 3]} as asked.",
    ] {
        assert_eq!(finished(text), built(), "{text:?}");
    }
    let escaped = r#"{"first": 1, "rest": [2, 3], "note": "\u00e9\ud83d\ude00\n\"\/"}"#;
    assert_eq!(
        finished(escaped),
        Counts {
            note: Some("é😀\n\"/".to_string()),
            ..built()
        }
    );
    let with_status = r#"{"first": 1, "rest": [2, 3], "status": "Closed"}"#;
    assert_eq!(
        finished(with_status),
        Counts {
            status: Some(Status::Closed),
            ..built()
        }
    );
    // Read again on the ordinary path (the values as `extract` reads them, not marked):
    // text the stream does not read as the parser does without a guess, and values the
    // stream took as a strict read would not.
    for text in [
        r#"{"first": 1, "rest": [2, 3], "note": "it\'s"}"#,
        r#"{"First": 1, "rest": [2, 3]}"#,
        r#"{"first": 1, "rest": [2, 3], "other": true}"#,
        r#"{"first": 7, "first": 1, "rest": [2, 3]}"#,
        r#"{"first": "1", "rest": [2, 3]}"#,
        "{\"first\": 1, \"rest\": [2, 3 \u{c}]}",
        "{\"first\": 1, \"rest\": [2, 3], \"note\": \"a `b`\tc\"}",
        r#"{"first": 1, "rest": [2, 3], "note": "\q"}"#,
        r#"{"first": 1, "rest": [2, 3], "note": "\ud800"}"#,
        r#"{"first": 1, "rest": [2, 3], "note": NaN}"#,
        r#"{"first": +1, "rest": [2, 0x3]}"#,
        r#"{"first": 1, "rest": [2, 3], "note": "N/A"}"#,
        r#"{"first": 1, "rest": [2, 3], "note": 5}"#,
        r#"{"first": 1, "rest": [2, 3], "note": 1e400}"#,
        r#"{"first": 1, "rest": 2}"#,
        r#"{"first": 1, "rest": [2, 3], "status": "closed"}"#,
        r#"{"first": 1, "rest": [2, 3], "status": {"Closed": null}}"#,
        // A closer to spare right after the value: the parser weighs where it is stray.
        r#"{"first": 1, "rest": [2, 3],}}"#,
        // A member after the root's closer, which the parser reads into the value.
        r#"{"first": 1, "rest": [2, 3]} /* more */ "note": "n"}"#,
        r#"{'first': 1, 'rest': [2, 3]}，'note': 'n'}"#,
        // Closers after a value with repairs: where it ends is the parser's to say.
        "{'first': 1, 'rest': [2, 3]} :}",
    ] {
        let value = finished(text);
        assert_eq!(value.first, Marked(1), "{text:?}");
        assert_eq!(value, llm_extract::extract::<Counts>(text).unwrap().value);
    }
}

/// Repairs of how the value is written (quotes, literals, comments, trailing commas, bare
/// keys, raw line breaks and tabs in strings, spaces JSON lacks, full-width separators) are
/// logged by the stream as the parser logs them: the value is built from the stream's reading,
/// and the report is `extract`'s.
#[test]
fn a_reply_with_repairs_the_stream_logs_is_not_read_again() {
    let built = |note: Option<&str>| Counts {
        first: Marked(1001),
        rest: vec![Marked(1002), Marked(1003)],
        note: note.map(str::to_string),
        status: None,
    };
    for (text, note) in [
        (r#"{'first': 1, 'rest': [2, 3]}"#, None),
        (r#"{"rest": [2, 3,], "first": 1,}"#, None),
        ("{\"first\": 1, // one\n \"rest\": [2, 3]}", None),
        ("{\"first\": 1, /* one */ \"rest\": [2, /* two */ 3]}", None),
        (r#"{first: 1, rest : [2, 3]}"#, None),
        (r#"{"first": 1, "rest": [2, 3], "note": None}"#, None),
        (
            r#"{"first": 1, "rest": [2, 3], 'note': 'it\'s'}"#,
            Some("it's"),
        ),
        ("{\"first\"：1，\"rest\"：[2，3]}", None),
        ("{\"first\": 1,\u{a0}\"rest\": [2,\r\u{c}3]}", None),
        ("{first \u{a0}: 1, \"rest\": [2,\u{b}\u{3000}3]}", None),
        (
            r#"{"first": 1, "rest": [2, 3], 'note': 'say "hi"'}"#,
            Some("say \"hi\""),
        ),
        (
            "{\"first\": 1, \"rest\": [2, 3], 'note': 'one\ttwo\r\nthree'}",
            Some("one\ttwo\r\nthree"),
        ),
        (
            "<think>Use {braces}.</think>\n```json\n{first: 1, 'rest': [2, 3,] // done\n}\n```",
            None,
        ),
        // A string value ended by what the parser ends it at: the next key in single
        // quotes, a comment after its comma, a comment right after its quote.
        (r#"{'note': 'x', 'first': 1, 'rest': [2, 3]}"#, Some("x")),
        (
            "{\"note\": \"x\", // one\n \"first\": 1, \"rest\": [2, 3]}",
            Some("x"),
        ),
        (
            "{'note': 'x' /* one */, first: 1, 'rest': [2, 3]}",
            Some("x"),
        ),
        ("{\"first\": 1, # one\n \"rest\": [2, 3]}", None),
        // A `#` comment right after a value's quote, a separator after its line.
        (
            "{\"note\": \"x\" # one\n, \"first\": 1, \"rest\": [2, 3]}",
            Some("x"),
        ),
        // A trailing comma after a nested container: its closer closes as written, whatever
        // the rest of the reply holds (here a closer to spare in the prose after it).
        (r#"{"first": 1, "rest": [2, 3],}"#, None),
        ("{\"first\": 1, \"rest\": [2, 3],}\nThat is all :}", None),
        (
            "```json\n{\n  \"rest\": [\n    2,\n    3,\n  ],\n  \"first\": 1,\n}\n```",
            None,
        ),
        // A member's comma missing before a quoted key, on the same line or the next.
        (
            "{\"note\": \"x\"\n \"first\": 1, \"rest\": [2, 3]}",
            Some("x"),
        ),
        ("{'rest': [2, 3] 'first': 1}", None),
        // A full-width `，` before a closer is logged as such, not as a trailing comma.
        ("{\"first\": 1, \"rest\": [2, 3，]}", None),
        ("{\"first\": 1, \"rest\": [2, 3]，}", None),
    ] {
        assert_eq!(finished(text), built(note), "{text:?}");
        let mut stream = Stream::<Counts>::new();
        for piece in pieces(text, 3) {
            stream.push(piece);
        }
        let report = stream.finish().unwrap().report;
        let want = llm_extract::extract::<Counts>(text).unwrap().report;
        assert!(!report.repairs.is_empty(), "{text:?}");
        assert_eq!(format!("{report:?}"), format!("{want:?}"), "{text:?}");
    }
}

#[derive(Extract, Debug, PartialEq)]
struct Tagged {
    first: Marked,
    tags: Vec<String>,
    note: Option<String>,
}

/// A comma missing between an array's strings, or before a member's key after a value or a
/// container, is logged by the stream where the parser logs it: the value is built from the stream's
/// reading (`first` marked), with `extract`'s report.
#[test]
fn a_missing_comma_between_items_or_after_a_container_is_not_read_again() {
    let tags = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let x = Some("x");
    for (text, want, note) in [
        (
            r#"{"first": 1, "tags": ["a" "b"]}"#,
            tags(&["a", "b"]),
            None,
        ),
        (
            "{\"tags\": [\n  \"a\"\n  \"b\"\n], \"first\": 1}",
            tags(&["a", "b"]),
            None,
        ),
        (
            r#"{"first": 1, "tags": ['a', 'b' 'c']}"#,
            tags(&["a", "b", "c"]),
            None,
        ),
        ("{\"tags\": [\"a\"]\n \"first\": 1}", tags(&["a"]), None),
        (r#"{"tags": ["a"] "first": 1}"#, tags(&["a"]), None),
        (
            "```json\n{\n  \"tags\": [\n    \"a\"\n    \"b\"\n  ]\n  \"first\": 1\n}\n```",
            tags(&["a", "b"]),
            None,
        ),
        // A bare key after a string, a closer or a number, on the same line or the next.
        ("{\"note\": \"x\"\n first: 1, \"tags\": []}", tags(&[]), x),
        (r#"{'note': 'x' first: 1, 'tags': []}"#, tags(&[]), x),
        ("{\"tags\": [\"a\"]\n first: 1}", tags(&["a"]), None),
        (r#"{"tags": ["a"] first: 1}"#, tags(&["a"]), None),
        ("{\"first\": 1\n tags: [\"a\"]}", tags(&["a"]), None),
        // A number before a quoted key on the same line.
        (r#"{"first": 1 "tags": ["a"]}"#, tags(&["a"]), None),
        (r#"{'first': 1 'tags': ['a']}"#, tags(&["a"]), None),
    ] {
        for size in [1, 3, 64] {
            let mut stream = Stream::<Tagged>::new();
            for piece in pieces(text, size) {
                stream.push(piece);
            }
            let done = stream.finish().unwrap();
            let whole = llm_extract::extract::<Tagged>(text).unwrap();
            assert_eq!(
                done.value,
                Tagged {
                    first: Marked(1001),
                    tags: want.clone(),
                    note: note.map(str::to_string),
                },
                "{text:?} in {size}-byte chunks"
            );
            assert_eq!(whole.value.tags, want, "{text:?}");
            let kinds = done
                .report
                .repairs
                .iter()
                .map(|r| r.kind)
                .collect::<Vec<_>>();
            assert!(
                kinds.contains(&RepairKind::MissingComma),
                "{text:?}: {kinds:?}"
            );
            assert_eq!(
                format!("{:?}", done.report),
                format!("{:?}", whole.report),
                "{text:?}"
            );
        }
    }
}

/// A type without a partial is read on the ordinary path: the default `from_partial`.
#[test]
fn a_type_that_does_not_stream_is_read_again() {
    #[derive(Debug, PartialEq)]
    struct Plain(u64);
    impl Extract for Plain {
        type Partial = NoPartial;
        fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
            u64::from_node(node, cx).map(Plain)
        }
    }
    let mut stream = Stream::<Vec<Plain>>::new();
    stream.push("[1, 2]");
    assert_eq!(stream.finish().unwrap().value, [Plain(1), Plain(2)]);
}

/// `text` streamed in `size`-byte chunks as a `Tagged`: the note each snapshot shows, and
/// what `finish` gives.
fn notes_streamed(text: &str, size: usize) -> (Vec<String>, Extracted<Tagged>) {
    let mut stream = Stream::<Tagged>::new();
    let mut shown = Vec::new();
    for piece in pieces(text, size) {
        stream.push(piece);
        shown.extend(stream.snapshot().note.as_deref().map(str::to_string));
    }
    (shown, stream.finish().unwrap())
}

/// A quote inside an object's value string that the parser reads as the string's text (a
/// word that is no key follows it: a quoted word, an apostrophe in a single-quoted string) is
/// logged by the stream where the parser logs it: the value is built from the stream's
/// reading (`first` marked), with `extract`'s report. Until the string closes, no snapshot
/// shows its text from that quote on (the parser may still end the string there).
#[test]
fn a_quote_inside_a_value_string_is_not_read_again() {
    for (text, note) in [
        (
            r#"{"first": 1, "note": "the app "freezes" on startup.", "tags": []}"#,
            r#"the app "freezes" on startup."#,
        ),
        (
            r#"{'first': 1, 'note': 'it's Bob's', 'tags': ['a']}"#,
            "it's Bob's",
        ),
        (
            "```json\n{\n  \"note\": \"say \"hi\" twice\",\n  \"first\": 1,\n  \"tags\": []\n}\n```",
            r#"say "hi" twice"#,
        ),
        (
            r#"{"note": "x \"y\" then "z" w", "first": 1, "tags": []}"#,
            r#"x "y" then "z" w"#,
        ),
        (
            "{\"note\": \"a\ttab \"q\" b\", \"first\": 1, \"tags\": []}",
            "a\ttab \"q\" b",
        ),
    ] {
        let whole = llm_extract::extract::<Tagged>(text).unwrap();
        assert_eq!(whole.value.note.as_deref(), Some(note), "{text:?}");
        for size in [1, 3, 64] {
            let (shown, done) = notes_streamed(text, size);
            assert_eq!(done.value.first, Marked(1001), "{text:?} in {size}-byte chunks");
            assert_eq!(done.value.note.as_deref(), Some(note), "{text:?}");
            assert!(
                done.report
                    .repairs
                    .iter()
                    .any(|r| r.kind == RepairKind::UnescapedQuote),
                "{text:?}: {:?}",
                done.report.repairs
            );
            assert_eq!(
                format!("{:?}", done.report),
                format!("{:?}", whole.report),
                "{text:?}"
            );
            for s in &shown {
                assert!(note.starts_with(s.as_str()), "{text:?}: showed {s:?}");
            }
        }
    }
    // Such a string closing before its object's closer and the `,` after it.
    for text in [
        r#"{"a": {"n": "say "hi" now"}, "b": 1}"#,
        r#"[{"n": "say "hi" now"}, {"n": "x"}]"#,
        r#"{"a": [{"n": "it's "q""}, 2], "b": 1}"#,
    ] {
        same_as_extract::<serde_json::Value>(text);
    }
}

/// A value string before a key that lost its closing quote, with prose after the object on
/// a line of its own: the parser's string rules weigh how the text ends, and the locate stage
/// reads the value without that prose, so the stream takes the parser's reading of the string
/// only where the text cut after its last closer reads it the same way. (It read the quote
/// after `a` as text, `"a\", "`, where `extract` reads it as the string's end.)
#[test]
fn a_value_string_read_with_prose_after_the_value_is_read_as_extract_reads_it() {
    #[derive(Extract, Debug, PartialEq)]
    struct Titled {
        n: String,
        t: f64,
    }
    let object = "{\"n\": \"a\", \"t: 2}\n- x";
    assert_eq!(
        llm_extract::repair(object).unwrap(),
        serde_json::json!({"n": "a", "t": 2})
    );
    same_as_extract::<Titled>(object);
    same_as_extract::<serde_json::Value>(object);
    let list = "[{\"n\": \"a\", \"t: 2}]\n- x";
    same_as_extract::<Vec<Titled>>(list);
    same_as_extract::<serde_json::Value>(list);
    let bullets = "- Result: {\"id\": 1, \"n\": \"a b\", \"t: 2.73}\n- Confidence: high";
    assert_eq!(
        llm_extract::repair(bullets).unwrap(),
        serde_json::json!({"id": 1, "n": "a b", "t": 2.73})
    );
    same_as_extract::<serde_json::Value>(bullets);
    // The same object with a longer line of prose after it, read past the probe's horizon
    // while it streams.
    let long = format!("{{\"n\": \"a\", \"t: 2}}\n- {}", "more words ".repeat(40));
    same_as_extract::<Titled>(&long);
    same_as_extract::<serde_json::Value>(&long);
}

/// A value written as bare text (`{status: done, note: all good}`, `['a', urgent, b]`) that
/// ends where the parser ends it is shown as that string and logged where the parser logs it:
/// the value is built from the stream's reading (`first` marked), with `extract`'s report.
/// Bare text the rest of the line may still carry on (`red, green`, a word on the next line)
/// is shown only once that is settled, and never as a shorter string than the answer's.
#[test]
fn bare_text_values_are_shown_and_not_read_again() {
    for (text, note, tags) in [
        ("{first: 1, note: all good, tags: [urgent, 'a']}", "all good", &["urgent", "a"][..]),
        (
            "{\"first\": 1, \"note\": done \"tags\": [login,\n  timeout\n]}",
            "done",
            &["login", "timeout"],
        ),
        (
            "```json\n{\n  \"note\": see the docs (v2)\n  , \"first\": 1,\n  \"tags\": [a b]\n}\n```",
            "see the docs (v2)",
            &["a b"],
        ),
        (
            "{'first': 1, 'tags': [], 'note': Ready to ship!}",
            "Ready to ship!",
            &[],
        ),
        (
            "{\"first\": 1 // the first\n, note: all good // see above\n, tags: [urgent // one\n]}",
            "all good",
            &["urgent"],
        ),
        ("{first: 1 note: all good, tags: [urgent \"a\"]}", "all good", &["urgent", "a"]),
        ("{'first': 1, 'note': Zoë Núñez, 'tags': [Malmö]}", "Zoë Núñez", &["Malmö"]),
    ] {
        let whole = llm_extract::extract::<Tagged>(text).unwrap();
        assert_eq!(whole.value.note.as_deref(), Some(note), "{text:?}");
        assert_eq!(whole.value.tags, tags, "{text:?}");
        for size in [1, 3, 64] {
            let (shown, done) = notes_streamed(text, size);
            assert_eq!(shown.last().map(String::as_str), Some(note), "{text:?} in {size}-byte chunks");
            assert_eq!(done.value.first, Marked(1001), "{text:?} in {size}-byte chunks");
            assert_eq!(done.value.note.as_deref(), Some(note), "{text:?}");
            assert!(
                (done.report.repairs.iter()).any(|r| r.kind == RepairKind::UnquotedString),
                "{text:?}: {:?}",
                done.report.repairs
            );
            assert_eq!(format!("{:?}", done.report), format!("{:?}", whole.report), "{text:?}");
            assert!(shown.iter().all(|s| s == note), "{text:?}: showed {shown:?}");
        }
    }
    // Bare text the parser reads on past a comma or a line break, reads as words before a
    // container, or starts with a literal: `finish` still gives what `extract` gives.
    for text in [
        "{\"a\": red, green, blue}",
        "{\"a\": First line\nsecond line\n}",
        "{\"a\": ipsum, sic, datum.\", \"b\": 1}",
        "[note\n{\"a\": 1}]",
        "[True story, x]",
        "{\"a\": x, b: 1, c: two words}",
        "{\"a\": x,\n\n\n  \"b\": y\n}",
        "{\"a\": 2115 reason: {\"b\": [false 3983 true None x]}}",
        "{\"a\": 1 apples}",
        "{\"a\": true story, \"b\": 1}",
        "[1 2 3, 4 -5 .5 1e5 0x10 00 nan, 7]",
        "{\"a\": 3942 635.86, \"b\": -1 2, \"c\": 1 000}",
    ] {
        same_as_extract::<serde_json::Value>(text);
        same_as_extract::<Tagged>(text);
    }
}

/// A value string that lost its closing quote before the next member or item
/// (`"note": "refund,\n  "tags": [..]`) is read where the parser's own string rules end it,
/// once the text holds what those rules look at: the preview goes on past it, and `finish`
/// builds the value from the stream (`first` marked) with `extract`'s report.
#[test]
fn a_string_that_lost_its_closing_quote_is_not_read_again() {
    let many = (0..120)
        .map(|i| format!("\"tag number {i}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let single = many.replace('"', "'");
    for (text, note) in [
        (
            format!("{{\"first\": 1, \"note\": \"refund,\n  \"tags\": [{many}]}}"),
            "refund",
        ),
        (
            format!("{{'first': 1, 'note': 'it was a duplicate.,\n 'tags': [{single}]}}"),
            "it was a duplicate.",
        ),
        (
            format!("{{\"first\": 1, \"note\": \"Li Wei, \"tags\": [{many}]}}"),
            "Li Wei",
        ),
        (
            format!("{{\"first\": 1, \"tags\": [\"a\", \"b,\n \"c\", {many}], \"note\": \"x\"}}"),
            "x",
        ),
    ] {
        let whole = llm_extract::extract::<Tagged>(&text).unwrap();
        assert_eq!(whole.value.note.as_deref(), Some(note), "{text:?}");
        for size in [1, 7, 64] {
            let mut stream = Stream::<Tagged>::new();
            let mut tags_before_end = 0;
            let mut pushed = 0;
            for piece in pieces(&text, size) {
                stream.push(piece);
                pushed += piece.len();
                if pushed + 64 < text.len() {
                    tags_before_end = stream.snapshot().tags.map_or(0, |t| t.len());
                }
            }
            assert!(
                tags_before_end > 50,
                "{text:?} in {size}-byte chunks: the preview stopped at {tags_before_end} tags"
            );
            let done = stream.finish().unwrap();
            assert_eq!(
                done.value.first,
                Marked(1001),
                "{text:?} in {size}-byte chunks"
            );
            assert_eq!(done.value.note, whole.value.note);
            assert_eq!(done.value.tags, whole.value.tags);
            assert_eq!(format!("{:?}", done.report), format!("{:?}", whole.report));
            assert!((done.report.repairs.iter()).any(|r| r.kind == RepairKind::MissingQuote));
        }
    }
    // Before a closer the parser ends such a string by the rest of the text, and after a bare
    // key it may read the string as the key: `finish` reads those again, as `extract` does.
    for text in [
        "{\"a\": [\"login], \"b\": \"x\"}",
        "{\"a\": \"x}, \"b\": 1}",
        "{a: \"x_yBob\": \"\nb: 87,\n \"note\": \"s, 3, \"it, \" }",
        "{\"a\": [\"s\\\"app\"\\\"\t\", \"freezes\t\"s ]} trailing",
    ] {
        same_as_extract::<serde_json::Value>(text);
    }
}

/// An array's container written after another with no comma between them (`[{..} {..}]`)
/// is read as the next item, as the parser reads it, and logged where the parser logs it.
#[test]
fn an_item_after_a_container_with_no_comma_is_not_read_again() {
    let text = "{\"first\": 1, \"items\": [{\"n\": [[1]]} {\"n\": [[2] [3]]}\n  {\"n\": []} {\"n\": [[]\n[4]]}]}";
    #[derive(Extract, Debug, PartialEq)]
    struct N {
        n: Vec<Vec<u64>>,
    }
    #[derive(Extract, Debug, PartialEq)]
    struct Items {
        first: Marked,
        items: Vec<N>,
    }
    let whole = llm_extract::extract::<Items>(text).unwrap();
    assert_eq!(whole.value.items.len(), 4, "{:?}", whole.value);
    for size in [1, 3, 64] {
        let mut stream = Stream::<Items>::new();
        let mut most = 0;
        for piece in pieces(text, size) {
            stream.push(piece);
            let shown = stream.snapshot().items.map_or(0, |items| items.len());
            assert!(
                shown >= most,
                "{size}-byte chunks: items went from {most} to {shown}"
            );
            most = shown;
        }
        assert_eq!(most, 4, "{size}-byte chunks");
        let done = stream.finish().unwrap();
        assert_eq!(done.value.first, Marked(1001), "{size}-byte chunks");
        assert_eq!(done.value.items, whole.value.items);
        assert_eq!(format!("{:?}", done.report), format!("{:?}", whole.report));
        let missing = (done.report.repairs.iter()).filter(|r| r.kind == RepairKind::MissingComma);
        assert_eq!(missing.count(), 5, "{:?}", done.report.repairs);
    }
}

/// A trailing comma after a nested container (`"rest": [2, 3],}`) closes it as written, as the
/// parser reads it whatever the rest of the reply holds: the snapshots go on past it while the
/// reply arrives (the note grows), and the value is built from the stream.
#[test]
fn a_trailing_comma_after_a_nested_container_does_not_hold_the_preview() {
    for (text, note) in [
        (
            "{\"tagged\": {\"first\": 1, \"tags\": [\"a\", \"b\"],}, \"note\": \"still growing\"}",
            "still growing",
        ),
        (
            "```json\n{\n  \"tagged\": {\n    \"first\": 1,\n    \"tags\": [\n      \"a\",\n      \"b\",\n    ],\n  },\n  \"note\": \"still growing\",\n}\n```",
            "still growing",
        ),
        // A closer to spare later in the reply does not change how this one reads.
        (
            "{'tagged': {'first': 1, 'tags': ['a', 'b'],}, 'note': 'still growing'}\nDone :}",
            "still growing",
        ),
    ] {
        #[derive(Extract, Debug, PartialEq)]
        struct Outer {
            tagged: Tagged,
            note: String,
        }
        let whole = llm_extract::extract::<Outer>(text).unwrap();
        assert_eq!(whole.value.tagged.tags, ["a", "b"], "{text:?}");
        // Everything but the last few bytes (the note's closing quote, the closers after it).
        let growing = text.find("growing").unwrap() + "grow".len();
        for size in [1, 3, 64] {
            let mut stream = Stream::<Outer>::new();
            for piece in pieces(&text[..growing], size) {
                stream.push(piece);
            }
            let seen = stream.snapshot();
            assert_eq!(seen.note.as_deref(), Some("still grow"), "{size}: {text:?}");
            let tags = seen.tagged.and_then(|t| t.tags).map(|t| t.len());
            assert_eq!(tags, Some(2), "{size}: {text:?}");
            stream.push(&text[growing..]);
            let done = stream.finish().unwrap();
            assert_eq!(done.value.note, note);
            assert_eq!(done.value.tagged.first, Marked(1001), "{size}: {text:?}");
            assert_eq!(format!("{:?}", done.report), format!("{:?}", whole.report));
        }
    }
}

/// The same with a comment between the container and the next item (`[[1] // note` then
/// `[2]]`, `#` comments too): the comment and the missing comma are logged where the parser
/// logs them.
#[test]
fn an_item_after_a_container_and_a_comment_is_not_read_again() {
    #[derive(Extract, Debug, PartialEq)]
    struct Rows {
        first: Marked,
        rows: Vec<Vec<u64>>,
    }
    for text in [
        "{\"first\": 1, \"rows\": [[1] // one\n [2, 3] /* two */ [4]\n/* three */\n[5]]}",
        "{\"first\": 1, # one\n \"rows\": [[1] # two\n [2, 3], # three\n [4]\n# four\n[5]]}",
        "{\"first\": 1, \"rows\": [\n  [1], // one\n  [2, 3] // two\n  [4]  /* three */  [5]\n]}",
    ] {
        let whole = llm_extract::extract::<Rows>(text).unwrap();
        assert_eq!(whole.value.rows, [vec![1], vec![2, 3], vec![4], vec![5]]);
        for size in [1, 3, 64] {
            let mut stream = Stream::<Rows>::new();
            let cut = text.rfind('5').unwrap();
            for piece in pieces(&text[..cut], size) {
                stream.push(piece);
            }
            let rows = stream.snapshot().rows.map_or(0, |rows| rows.len());
            assert_eq!(rows, 4, "{size}-byte chunks: {text:?}");
            stream.push(&text[cut..]);
            let done = stream.finish().unwrap();
            assert_eq!(
                done.value.first,
                Marked(1001),
                "{size}-byte chunks: {text:?}"
            );
            assert_eq!(format!("{:?}", done.report), format!("{:?}", whole.report));
        }
    }
}

/// A quote doubled before a word opens a string the parser reads on its own (`""on: ..`),
/// which the stream does not take for an empty string before a bare key.
#[test]
fn a_quote_doubled_before_a_word_is_no_empty_string() {
    for text in [
        "{\"a\": \"\"on: \"Bob \"} trailing",
        "{\"a\": \"\"app: \"freezesstartup ] \" }",
        "{\"a\": \"\"it: \"startup\\\" s: s: Bob on  \"} trailing",
    ] {
        same_as_extract::<serde_json::Value>(text);
    }
}

/// A `serde_json::Value` that tells how it was read: `from_node` and `read_direct` as the
/// crate reads it, `from_partial` (the stream's reading) marked.
#[derive(Debug, PartialEq)]
struct Built(serde_json::Value, bool);

impl Extract for Built {
    type Partial = llm_extract::stream::PartialJson;

    const FROM_PROSE: bool = false;
    const REPEATED_KEYS_FROM_PARTIAL: bool = true;

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        serde_json::Value::from_node(node, cx).map(|v| Built(v, false))
    }

    fn read_direct(r: &mut Direct<'_>) -> Option<Self> {
        serde_json::Value::read_direct(r).map(|v| Built(v, false))
    }

    fn from_partial(partial: &Self::Partial) -> Option<Self> {
        serde_json::Value::from_partial(partial).map(|v| Built(v, true))
    }

    fn from_partial_repeated(partial: &Self::Partial) -> Option<Self> {
        serde_json::Value::from_partial_repeated(partial).map(|v| Built(v, true))
    }
}

/// A key written twice in an object: the value keeps the later member in the first one's
/// place, and `extract`'s report records a `DuplicateKey` at each such member. The stream
/// notes the keys written again, so `finish` builds the value and that report from what it
/// read, for a type whose read records just that (`serde_json::Value`).
#[test]
fn a_key_written_twice_is_not_read_again() {
    for text in [
        r#"{"a": 1, "a": 2}"#,
        r#"{"a": 1, "b": 3, "a": "x"}"#,
        r#"{"a": {"b": 1, "b": [2]}, "a": [1, {"c": 1, "c": {"d": 2}}], "e": 1}"#,
        "```json\n{'a': 1, 'a': True, a: None, \"\\u0061\": 4}\n```",
        r#"[{"a": 1, "a": 2}, {"a": 3}]"#,
        // Past the keys an object's run is looked through for.
        r#"{"a": 1, "k1":1,"k2":1,"k3":1,"k4":1,"k5":1,"k6":1,"k7":1,"k8":1,"k9":1,"k10":1,
           "k11":1,"k12":1,"k13":1,"k14":1,"k15":1,"k16":1,"k17":1, "a": 2, "k3": 5}"#,
    ] {
        let whole = llm_extract::extract::<serde_json::Value>(text).unwrap();
        assert!(
            (whole.report.coercions.iter())
                .any(|c| c.kind == llm_extract::CoercionKind::DuplicateKey),
            "{text:?}"
        );
        for size in [1, 3, 64] {
            let mut stream = Stream::<Built>::new();
            for piece in pieces(text, size) {
                stream.push(piece);
            }
            let done = stream.finish().unwrap();
            // With numbers kept as written, a `Value` is always read again (its numbers need
            // the text).
            let built = !cfg!(feature = "arbitrary_precision");
            assert_eq!(
                done.value,
                Built(whole.value.clone(), built),
                "{text:?} in {size}"
            );
            assert_eq!(
                format!("{:?}", done.report),
                format!("{:?}", whole.report),
                "{text:?} in {size}-byte chunks"
            );
            same_as_extract::<serde_json::Value>(text);
        }
    }
    // A `Value` inside a type that does not take such keys from the stream: read again.
    let text = r#"{"data": {"a": 1, "b": 2, "a": 3}, "n": 1}"#;
    same_as_extract::<Holder>(text);
    let whole = llm_extract::extract::<Holder>(text).unwrap();
    assert_eq!(whole.value.data, serde_json::json!({"a": 3, "b": 2}));
    assert_eq!(whole.value.n, 1);
}

#[derive(Extract, Debug)]
struct Holder {
    data: serde_json::Value,
    n: u64,
}

#[test]
fn a_keys_colon_on_a_later_line_is_its_colon_streamed_or_whole() {
    // Valid JSON with a line break between a key and its `:`: the string before that key
    // ends at its quote, in the stream as in `extract`, whatever else the reply holds.
    for text in [
        "{\"p\":\"x\",\"k\"\n:\"v\",\"e\":{}}",
        "[{\"op\": \"test\",\n  \"path\"\n: \"/a/b\",\n  \"value\": {\"t\": 1}}]",
        "{\"p\":\"x\",\"k\"\r\n  : \"v\",\"e\":{},}",
        "```json\n{\"p\": \"x\", \"k\"\n\n: [1, 2]}\n```",
    ] {
        same_as_extract::<serde_json::Value>(text);
        let value = llm_extract::repair(text).unwrap();
        assert_eq!(value["p"].as_str().unwrap_or("x"), "x", "{text:?}");
    }
    assert_eq!(
        llm_extract::repair("{\"p\":\"x\",\"k\"\n:\"v\",\"e\":{},}").unwrap(),
        serde_json::json!({"p": "x", "k": "v", "e": {}})
    );
}
