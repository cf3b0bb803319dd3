//! Snapshots are a prefix of the answer: every snapshot of a stream is consistent with the
//! value `finish` returns, and none takes back what the one before it showed, on documents
//! written elsewhere and on damage of our own, in chunks of 1, 7 and 64 bytes and cut in two
//! at every byte.

use llm_extract::{RepairKind, Stream};
use llm_extract_tests::strategies::json_value;
use proptest::prelude::*;
use serde_json::Value;
use std::collections::BTreeMap;

fn load(path: &str) -> Vec<String> {
    let raw =
        std::fs::read_to_string(format!("{}/fixtures/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let cases: Vec<BTreeMap<String, Value>> = serde_json::from_str(&raw).unwrap();
    cases
        .into_iter()
        .filter_map(|c| c.get("input").and_then(|v| v.as_str()).map(str::to_string))
        .collect()
}

/// Where `shown` is not a prefix of `fin`, in words. A member whose key `text` writes more
/// than once is skipped: the later value replaces the earlier, as in `serde_json`, and a
/// snapshot taken between them shows the earlier.
fn not_prefix(text: &str, shown: &Value, fin: &Value, at: &str) -> Option<String> {
    match (shown, fin) {
        (Value::Null, _) => None,
        (Value::String(a), Value::String(b)) if b.starts_with(a.as_str()) => None,
        (Value::Array(a), Value::Array(b)) => {
            if a.len() > b.len() {
                return Some(format!(
                    "{at}: {} items shown, {} in the answer",
                    a.len(),
                    b.len()
                ));
            }
            a.iter()
                .zip(b)
                .enumerate()
                .find_map(|(i, (x, y))| not_prefix(text, x, y, &format!("{at}[{i}]")))
        }
        (Value::Object(a), Value::Object(b)) => a.iter().find_map(|(k, v)| {
            let double = serde_json::to_string(k).unwrap();
            let single = format!("'{k}'");
            let written = text.matches(double.as_str()).count() + text.matches(&single).count();
            match b.get(k) {
                _ if written > 1 => None,
                Some(w) => not_prefix(text, v, w, &format!("{at}.{k}")),
                None => Some(format!("{at}.{k}: shown, not in the answer")),
            }
        }),
        // The same number (with `arbitrary_precision`, numbers keep their spelling).
        (Value::Number(x), Value::Number(y)) if x == y || x.as_f64() == y.as_f64() => None,
        (a, b) if a == b => None,
        (a, b) => Some(format!("{at}: shown {a}, answer {b}")),
    }
}

/// Whether an object of the value at the start of `text`, as the parser reads it, has a key
/// twice (written twice, or read twice from damaged text: the later value wins, as in
/// `serde_json`).
fn key_read_twice(text: &str) -> bool {
    use llm_extract::coerce::{Node, NodeKind};
    let Ok(parsed) = llm_extract::__internal::parse(text, 128) else {
        return false;
    };
    let mut stack: Vec<&Node<'_>> = vec![&parsed.node];
    while let Some(node) = stack.pop() {
        match &node.kind {
            NodeKind::Array(items) => stack.extend(items),
            NodeKind::Object(entries) => {
                let mut keys = std::collections::HashSet::new();
                if !entries.iter().all(|e| keys.insert(e.key.text.as_ref())) {
                    return true;
                }
                stack.extend(entries.iter().map(|e| &e.value));
            }
            _ => {}
        }
    }
    false
}

/// Streams `text` in chunks of `size` bytes: where a snapshot of the value `finish` takes is
/// not a prefix of it. Snapshots of another value of the reply (`shown_at` elsewhere) are
/// counted in `switched`.
fn check(text: &str, size: usize, switched: &mut usize) -> Option<String> {
    check_pieces(text, text.as_bytes().chunks(size), switched)
}

/// [`check`] for `text` pushed in the pieces given, and one more property: no snapshot of the
/// answer's value takes back what the one before it showed (each is a prefix of the next).
fn check_pieces<'t>(
    text: &str,
    pieces: impl Iterator<Item = &'t [u8]>,
    switched: &mut usize,
) -> Option<String> {
    let mut stream = Stream::<Value>::new();
    let mut snaps: Vec<(Option<usize>, Value)> = Vec::new();
    for chunk in pieces {
        stream.push_bytes(chunk);
        snaps.push((
            stream.shown_at(),
            serde_json::to_value(stream.snapshot()).unwrap(),
        ));
    }
    let (fin, at) = match stream.finish() {
        // A key written twice: the answer keeps its later value, which no snapshot could
        // know (the documented exception).
        Ok(e)
            if e.report
                .repairs
                .iter()
                .any(|r| r.kind == RepairKind::DuplicateKey)
                || key_read_twice(&text[e.report.span.start..]) =>
        {
            return None
        }
        Ok(e) => (e.value, e.report.span.start),
        Err(_) => return None,
    };
    let of_answer = |shown_at: &Option<usize>| shown_at.is_none_or(|s| s == at);
    let took_back = snaps.windows(2).enumerate().find_map(|(i, pair)| {
        let [(before_at, before), (after_at, after)] = pair else {
            return None;
        };
        if !of_answer(before_at) || before_at != after_at || after.is_null() {
            return None;
        }
        not_prefix(text, before, after, "$")
            .map(|w| format!("snapshot {} takes back snapshot {i}: {w}", i + 1))
    });
    if took_back.is_some() {
        return took_back;
    }
    snaps.iter().enumerate().find_map(|(i, (shown_at, s))| {
        if !of_answer(shown_at) {
            *switched += 1;
            return None;
        }
        not_prefix(text, s, &fin, "$")
            .map(|w| format!("snapshot {i}: {w}; shown {s}; answer {fin}"))
    })
}

#[test]
fn every_snapshot_is_a_prefix_of_the_answer() {
    let mut texts = load("damage/cases.json");
    texts.extend(load("peers/json_repair.json"));
    texts.extend(load("peers/jsonrepair.json"));
    let mut bad = Vec::new();
    let mut switched = 0;
    for text in &texts {
        for size in [1, 7, 64] {
            if let Some(why) = check(text, size, &mut switched) {
                bad.push(format!("{text:?} in {size}-byte chunks: {why}"));
                break;
            }
        }
    }
    for b in &bad {
        println!("{b}");
    }
    println!("{switched} snapshots of another value than the answer's");
    assert!(bad.is_empty(), "{} of {} replies", bad.len(), texts.len());
}

/// Every reply of the same collections cut in two at every byte (two pushes, a snapshot after
/// each): where a reply is cut decides nothing a snapshot shows.
#[test]
fn a_reply_cut_anywhere_streams_as_prefixes() {
    let mut texts = load("damage/cases.json");
    texts.extend(load("peers/json_repair.json"));
    texts.extend(load("peers/jsonrepair.json"));
    let (mut bad, mut cuts, mut switched) = (Vec::new(), 0, 0);
    for text in &texts {
        let bytes = text.as_bytes();
        for cut in 1..bytes.len() {
            cuts += 1;
            let pieces = [&bytes[..cut], &bytes[cut..]].into_iter();
            if let Some(why) = check_pieces(text, pieces, &mut switched) {
                bad.push(format!("{text:?} cut at byte {cut}: {why}"));
                break;
            }
        }
    }
    for b in &bad {
        println!("{b}");
    }
    println!("{cuts} cuts, {switched} snapshots of another value than the answer's");
    assert!(cuts > 10_000, "the collections hold {cuts} cut points");
    assert!(bad.is_empty(), "{} of {} replies", bad.len(), texts.len());
}

/// Damage the random property below found, each once a snapshot the answer never has: a key
/// with a line break, or its `:` on the next line, after a list whose `]` the parser reads as
/// text (a stray closer later makes the brackets of the rest of the text say so); a number
/// past `f64`'s range, which the answer holds as `null`; comma groups read as thousands.
/// Streams each text in chunks of 1, 7 and 64 bytes: every snapshot is a prefix of `finish`'s
/// value, and none shows another value of the reply.
fn shows_only_the_answer(texts: &[&str]) {
    for text in texts {
        for size in [1, 7, 64] {
            let mut switched = 0;
            assert_eq!(check(text, size, &mut switched), None, "{text:?}");
            assert_eq!(switched, 0, "{text:?} in {size}-byte chunks");
        }
    }
}

/// A value whose closer is followed by a `,` or another closer may have been closed by a
/// stray closer, which only the rest of the reply settles: no value after it is shown in its
/// place, so no snapshot shows an inner part (`{"c": 2}`, a list of sources) as the answer.
#[test]
fn no_later_value_is_shown_after_a_closer_the_text_goes_on_from() {
    let texts = [
        r#"{"a": 1}}, "b": {"c": 2}}"#,
        r#"{"s": {"x": 1}}, "t": [1, 2]}"#,
        r#"[{"id": 1}]}, {"id": 2}]"#,
        "{\n  \"summary\": \"x\",\n  \"stats\": {\n    \"words\": 3583,\n    \"ratio\": 0.0057},\n    \"delta\": -94\n  },\n  \"sources\": [\n    \"https://data.gov/a/85\"\n  ]\n}",
    ];
    shows_only_the_answer(&texts);
}

/// A closer at the end of a line of an indented value, the next member laid out as the same
/// container's: the parser may read it as stray (when the text holds a closer to spare), so
/// the stream does not close the container there and show the next member outside it. Nor
/// does it show a list where a key belongs as a member.
#[test]
fn a_closer_the_layout_may_find_stray_is_not_shown_closing() {
    let texts = [
        "{\n  \"customer\": {\n    \"name\": \"Emeka\",\n    \"age\": 47},\n    \"active\": true\n  },\n  \"x\": 1\n}",
        "{\n  \"span\": [\n    6]},\n    74\n  ]\n}",
        "{\n  \"a\": {\n    \"b\": 1},\n    \"c\": 2\n}",
        // A list where a key belongs: it goes on the list before it, or is skipped.
        r#"{"key": ["a"], ["b"], "k3": 1}"#,
        r#"{"a": 1, ["b", "c"], "d": 2}"#,
    ];
    shows_only_the_answer(&texts);
}

/// A value in the prose after one that is all a JSON fence holds is a mention, which
/// `finish` ranks below the fenced one: it is not shown in its place. Nor is one in an HTML
/// comment.
#[test]
fn a_value_in_the_prose_after_a_fenced_one_is_not_shown() {
    let texts = [
        "Sure!\n\n```json\n{\"users\": [{\"id\": 1}]}\n```\n\nLet me know, e.g. adding {\"id\": 3}.",
        "```{\"a\": 1}``` then {\"a\": 2} more",
        "```json\n{\"a\": 1}\n```\n```rust\nlet x = {\"a\": 2};\n```",
        // Nor is a value in an HTML comment after a value.
        "{\"a\": 1}\n<!-- {\"a\": 2} -->",
    ];
    shows_only_the_answer(&texts);
}

/// A region (the reply, a fence's content, the text after a reasoning block) that is one JSON
/// string and nothing else is read as that string: the brackets in it are its text, so no
/// snapshot shows them as a value. When more text follows the string in its region, a value
/// inside it is a value of the prose, as `finish` reads it.
#[test]
fn brackets_in_a_region_that_is_one_string_are_not_shown() {
    let texts = [
        "```\n\"x: y [note]\"\n```",
        "```json\n\"see [a, b] or {\\\"k\\\": 1}\"\n```\nDone.",
        "<think>a list?</think>\n\"x [1, 2]\"\n```\n[3]\n```",
        "```\n\"x [1, 2]\" is the list\n```",
        "```\n  \"x [1, 2]\"  ``",
    ];
    shows_only_the_answer(&texts);
}

/// A later value is shown while it is read, as any later value is; once the text after it
/// shows it stands lower than the value before it (mentioned inside a sentence, `If you wanted
/// {..} instead, ...`, or after a value set out on lines of its own or in a fence, written
/// inside a line of prose), which `finish` ranks below that one, the stream goes back to it.
/// Either way the last snapshot shows the value `finish` returns, from where it starts.
#[test]
fn the_last_snapshot_shows_what_finish_chose_of_a_mention_and_a_later_answer() {
    let texts = [
        "{\"a\": 1}\n\nIf you wanted {\"a\": 2} instead, let me know.",
        "Answer: {\"a\": 1}. Alternatively {\"a\": 2} would also work.",
        "Draft: {\"a\": 1}\nFinal answer: {\"a\": 2}",
        "Draft: {\"a\": 1}\nFinal answer: {\"a\": 2}.\nDone.",
        // A fenced draft, then the corrected value on lines of its own.
        "Here it is:\n```json\n{\"a\": 1}\n```\nOops. Corrected:\n{\n  \"a\": 2\n}\n",
        "```json\n{\"a\": 1}\n```\n\n{\"a\": 2}\n\nThat one is right.",
        // A fenced answer, then a value the line goes on after.
        "```json\n{\"a\": 1}\n```\n{\"a\": 2} is what you would get otherwise.\n",
        "Output:\n{\"a\": 1}\nI derived it from {\"a\": 2}.\n",
    ];
    for text in texts {
        for size in [1, 7, 64] {
            let mut stream = Stream::<Value>::new();
            for chunk in text.as_bytes().chunks(size) {
                stream.push_bytes(chunk);
            }
            let last = serde_json::to_value(stream.snapshot()).unwrap();
            let at = stream.shown_at();
            let done = stream.finish().unwrap();
            assert_eq!(last, done.value, "{text:?} in {size}-byte chunks");
            assert_eq!(at, Some(done.report.span.start), "{text:?}");
        }
    }
}

/// Objects written one after another with commas between them (records whose `[` went
/// missing): the parser closes an object there (a key would have to follow the comma for it
/// to read on), so each object is a value of its own. For a type that is one of them the
/// stream shows each in turn, as any later value (`shown_at` says which), and the last
/// snapshot is the one `finish` returns; for a list type, which `finish` reads as the items
/// of one list, the stream stays on the first, the start of that list.
#[test]
fn objects_joined_by_commas_show_in_turn_or_stay_the_start_of_a_list() {
    #[derive(llm_extract::Extract, Debug, Clone, PartialEq)]
    struct Rec {
        id: u32,
        name: String,
    }
    let texts = [
        r#"{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 3, "name": "c"}"#,
        "{\"id\": 1, \"name\": \"a\"},\n{\"id\": 2, \"name\": \"b\"}",
        "{\"id\": 1, \"name\": \"a\"}\u{ff0c} {\"id\": 2, \"name\": \"b\"}",
    ];
    for text in texts {
        for size in [1, 7, 64] {
            let mut stream = Stream::<Rec>::new();
            let mut starts = Vec::new();
            for chunk in text.as_bytes().chunks(size) {
                stream.push_bytes(chunk);
                if let Some(at) = stream.shown_at().filter(|at| starts.last() != Some(at)) {
                    starts.push(at);
                }
            }
            let last = stream.snapshot();
            let done = stream.finish().unwrap();
            assert_eq!(
                last.id,
                Some(done.value.id),
                "{text:?} in {size}-byte chunks"
            );
            assert_eq!(last.name.as_deref(), Some(&*done.value.name), "{text:?}");
            assert_eq!(starts.last(), Some(&done.report.span.start), "{text:?}");
            if size == 1 {
                // A byte at a time, each object is shown while it is read.
                assert_eq!(
                    starts.len(),
                    text.matches("\"id\"").count(),
                    "{text:?}: {starts:?}"
                );
            }

            let mut stream = Stream::<Vec<Rec>>::new();
            for chunk in text.as_bytes().chunks(size) {
                stream.push_bytes(chunk);
                let at = stream.shown_at();
                assert!(
                    at.is_none_or(|at| at == 0),
                    "{text:?} in {size}-byte chunks: {at:?}"
                );
            }
            let last = stream.snapshot().to_vec();
            let done = stream.finish().unwrap();
            assert_eq!(done.value.len(), text.matches("\"id\"").count(), "{text:?}");
            assert_eq!(last.len(), 1, "{text:?}");
            assert_eq!(last[0].id, Some(done.value[0].id), "{text:?}");
        }
    }
    // Before an object whose comma is followed by a key, the stream does not move on: the
    // parser reads the key into the object (`{"a": 1}, "b": 2}`).
    shows_only_the_answer(&[r#"{"a": 1}, "b": {"c": 2}}"#]);
}

#[test]
fn found_damage_streams_as_prefixes() {
    let texts = [
        "{\n  \"a\": [\n    [1, 2],\n    \"x\"\n  ],\n  \"\nb\": \" [/ ][}a[/a\"},\n  \"c\": null\n}",
        "{\n  \"a\": [\n    -4.1,17401600940377e+305,\n    \"x\"\n  ],\n  \"b\": 1\n}",
        "[1e400, 2, \"x\"]",
        // Comma groups the parser reads as thousands in an object value.
        "{\n  \"a\": \"x\",\n  \"b\": -1,000 // a comment\n'000,\n  \"c\": null\n}",
        // A key whose `:` is on the next line, before a closer the rest finds stray.
        "{\n  \"a\": [\n    1\n  ],\n  \" b\"\n: null,\n  \"c\"]: [\n    2\n  ],\n  \"d\": 0.0\n}",
        // A closer followed by a `,` and a token that does not fit the container it returns
        // to, with a stray closer later: the parser reads it by the rest of the text.
        "{\"k\": {\"a\": 1}, 2, \"b\": [3], \"c\": 4]}",
        "[[1, 2], \"x\": 3, [4]]]",
        "{\"a\": [null, null], // a comment\n \"b\": \"x\", \"c\":] 1, \"d\": 2}",
        // An empty key before a Unicode space and its `:` (not a doubled quote before a word).
        "[{\"a\": false, \"\"\u{feff}: -4.7e-34, \"b\": 1}]",
        // Full-width separators, and a doubled comma after a string.
        "{\"name\"：\"张三\"，\"tags\"：[\"a\"，1]，\"ok\"：true}",
        "{a：你好，世界，b：2}",
        "{\"a\": \"x\",, \"b\": [\"y\",, \"z\"]}",
        // A string missing its closing quote before a key quoted otherwise, and strings
        // holding such a key with their own quote after it.
        "{\"a\": 'x, \"b\": 1}",
        "{\"a\":' 4,\n  \"b\": \"y\",\n  \"c\": 2\n}",
        "{\"a\": 'O'Neil, \"b\": 1, \"c\": 'y, \"d\": [2]}",
        "{'data': '{\"a\": 1, \"b\": 2}', 'c': 3}",
        "{\"note\": \"He said, 'hi': then left\", \"n\": 1}",
        // The same after a raw line break, which is a separator and a space alike.
        "{\"b\": \"x\n'c': 1}",
        "{\"b\": \"x\n  'c': 1}",
        "{\"\": 3 \"e\":'\n\"\":",
        // A comment between a bare key and its `:`, which the parser reads as the key's text.
        "{x /* k */ : -0.0, \"y\": 7}",
        "{a // note\n: 1, \"b\": 2}",
        // A string holding closers or line breaks, then a quote before the next item or
        // member with its comma missing: the parser may end the string inside it.
        "[']}'']''']}]}'\0",
        "{\"a\": \"x\nb: 1,\n\" c: 2}",
        "[\"a]\" \"b\"]",
        // Quotes right after a closing one: a doubled or triple-quoted string.
        "[''''''''''''''''''''''''''''''''''''']]",
        // A string where a comma is missing, holding a closer the parser may end it at.
        "[[]']\u{fffd}\u{fffd}'],'\u{7}",
        "{\"a\": \"\"\"b\": 1, \"c\": 2}",
        // A quote doubled before a word opens a string (`""it: ...`), not an empty one
        // before a bare key.
        "{\"a\": \"\"on: \"Bob \"} trailing",
        "{\"a\": \"\"app: \"freezesstartup ] \" }",
        "{\"a\": \"\"it: \"the: \"\n\"b\": 4\n\"note\": 76, \"c_d\": 21} trailing",
        "{'a': ''it: 'b'freezes\t'\n'b': 'Bob\tthe\nkey key\t'}",
        // Quotes read as the string's text, then a closer or an escape before the quote that
        // may close it: the parser may end the string at the first of them.
        "{\"a\": 45,\"b\": \"3\" x_y } on\" } \"on\"\n\"note\": 11}\n",
        "{\"a\": \"the\\\" it\" on\n3 } freezes\" } \"x\"}",
        "{\"a\": \"x \"b\" c, \"d\": 1}",
        "{\"a\": \"data\" AAAA }",
        "{\"a\": {\"n\": \"say \"hi\" now\"}, \"b\": 1}",
        "[{\"n\": \"say \"hi\" now\"}, {\"n\": \"x\"}]",
        "{\"a\": {\"n\": \"say \"hi\" now\"}}, \"b\": 1}",
        // Spaces JSON does not allow, between every pair of tokens.
        "{\u{a0}\"a\"\u{3000}:\u{85}[\u{c}1\u{b},\u{1680}true\u{feff}]\u{2028},\u{200b}'b'\u{a0}:\u{a0}x\u{a0}}",
    ];
    let mut switched = 0;
    for text in texts {
        for size in [1, 7, 64] {
            let why = check(text, size, &mut switched);
            assert!(
                why.is_none(),
                "{text:?} in {size}-byte chunks: {}",
                why.unwrap_or_default()
            );
        }
    }
}

/// A reply cut off inside a string, then the fence around it closing: the string ends before
/// the fence's line, so no snapshot shows its backticks as the string's text, wherever the
/// reply is cut. (`finish` calls such a reply cut off; the value is `extract`'s.) Backticks
/// that are the string's show once the text after them says so, whatever the chunks.
#[test]
fn a_string_cut_off_before_its_closing_fence_never_shows_the_fence() {
    let texts = [
        "Here it is:\n```json\n{\n  \"a\": 1,\n  \"note\": \"the app \\\"freezes\\\" o\n```",
        "```json\n{\"ok\": true, \"note\": \"Refund the second charge, \n```\nNote: a guess.",
        "Sure! ```JSON\n{\"a\": \"x\", \"b\": \"said \\\"hi\n```\n\nAnything else?",
        "```\n{'id': 'x', 'note': 'Re\n  ```\n",
        "```json\n{\"a\": \"x\n```  \r\n",
        // Spaces JSON lacks after the closing run still leave the line a closing line.
        "```json\n{\"a\": \"x\n```\u{a0}\u{3000}\nMore text.",
        // Backticks that are the string's: a shorter run, or text after a run of three.
        "```json\n{\"a\": \"x `` y\n``\nz\", \"b\": \"run ``` then ```python\nprint(1)\"}\n```",
        "{\"a\": \"x\n`` \", \"b\": \"```  x\"}",
    ];
    for text in texts {
        let answer = llm_extract::extract::<Value>(text).unwrap();
        // The last snapshot does not depend on how the reply was cut.
        let mut whole = Stream::<Value>::new();
        whole.push(text);
        let last = serde_json::to_value(whole.snapshot()).unwrap();
        let mut bytewise = Stream::<Value>::new();
        for byte in text.as_bytes().chunks(1) {
            bytewise.push_bytes(byte);
        }
        assert_eq!(
            serde_json::to_value(bytewise.snapshot()).unwrap(),
            last,
            "{text:?}"
        );
        let bytes = text.as_bytes();
        for cut in 1..bytes.len() {
            let mut stream = Stream::<Value>::new();
            for piece in [&bytes[..cut], &bytes[cut..]] {
                stream.push_bytes(piece);
                let shown = serde_json::to_value(stream.snapshot()).unwrap();
                let why = not_prefix(text, &shown, &answer.value, "$");
                assert!(why.is_none(), "{text:?} cut at byte {cut}: {why:?}");
            }
        }
    }
}

/// One edit of the kinds models make, at `at` (a byte offset, moved to a character boundary).
fn damage(text: &str, kind: u8, at: usize) -> String {
    let mut at = at % (text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let (head, tail) = text.split_at(at);
    let next = tail.chars().next().map_or(0, char::len_utf8);
    match kind % 14 {
        // A character dropped: a quote, comma, colon or bracket lost.
        0 => format!("{head}{}", &tail[next..]),
        1 => format!("{head}\"{tail}"),
        2 => format!("{head},{tail}"),
        3 => format!("{head} note {tail}"),
        4 => format!("{head}'{tail}"),
        5 => format!("{head}\n{tail}"),
        6 => format!("{head}}}{tail}"),
        7 => format!("{head}]{tail}"),
        8 => format!("{head} // a comment\n{tail}"),
        9 => format!("{head}True{tail}"),
        10 => text.replace('"', "'"),
        // A space JSON does not allow (a form feed, a no-break or ideographic space, U+0085,
        // a BOM) or a full-width separator.
        11 => {
            let odd = [
                "\u{c}", "\u{a0}", "\u{3000}", "\u{85}", "\u{feff}", "，", "：",
            ][at % 7];
            format!("{head}{odd}{tail}")
        }
        // A separator written full-width.
        12 => match tail.chars().next() {
            Some(',') => format!("{head}，{}", &tail[1..]),
            Some(':') => format!("{head}：{}", &tail[1..]),
            _ => text.replacen(", ", "， ", 1).replacen("\": ", "\"： ", 1),
        },
        // Cut off.
        _ => head.to_string(),
    }
}

/// The property's configuration: `PREFIX_CASES` cases from a random seed (to search), or by
/// default 3,000 from a fixed one (the same cases on every run of the suite).
fn prefix_config() -> ProptestConfig {
    match std::env::var("PREFIX_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        Some(cases) => ProptestConfig::with_cases(cases),
        None => ProptestConfig {
            rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed_2026),
            ..ProptestConfig::with_cases(3000)
        },
    }
}

proptest! {
    #![proptest_config(prefix_config())]

    /// Documents damaged at random (one to three edits), wrapped as models wrap them, in
    /// chunks of 1, 7 and 64 bytes: every snapshot of the answer's value is a prefix of it.
    #[test]
    fn randomly_damaged_documents_stream_as_prefixes(
        value in json_value(),
        edits in prop::collection::vec((any::<u8>(), any::<usize>()), 1..4),
        fenced in any::<bool>(),
    ) {
        let value = match value {
            Value::Object(_) | Value::Array(_) => value,
            scalar => Value::Array(vec![scalar]),
        };
        let mut text = serde_json::to_string_pretty(&value).unwrap();
        for (kind, at) in edits {
            text = damage(&text, kind, at);
        }
        if fenced {
            text = format!("Here it is:\n```json\n{text}\n```\nDone.");
        }
        let mut switched = 0;
        for size in [1, 7, 64] {
            let why = check(&text, size, &mut switched);
            prop_assert!(why.is_none(), "{text:?} in {size}-byte chunks: {}", why.unwrap_or_default());
        }
    }
}
