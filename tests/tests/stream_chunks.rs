//! Streaming on any chunking: the final value is `extract`'s; snapshots only grow
//! (numbers, bools and nulls appear once complete, strings and lists only get longer); the
//! final snapshot does not depend on where the chunks were cut; no chunking of any input
//! panics (documents written elsewhere, split at every byte, inside UTF-8 characters too).

use llm_extract::{Category, Extractor, Stream};
use llm_extract_tests::strategies::json_value;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Pushes `text` as bytes cut at `cuts` (sorted offsets), returning every snapshot (as JSON)
/// and the stream.
///
/// Every snapshot is also kept until the end, where each must still show what it showed when
/// it was taken: later pushes grow the stream's own value, never one a caller holds.
fn stream_at<T: llm_extract::Extract>(text: &str, cuts: &[usize]) -> (Vec<Value>, Stream<T>) {
    let mut stream = Stream::<T>::new();
    let mut snaps = Vec::new();
    let mut held = Vec::new();
    let mut from = 0;
    for &cut in cuts.iter().chain(std::iter::once(&text.len())) {
        let cut = cut.clamp(from, text.len());
        stream.push_bytes(&text.as_bytes()[from..cut]);
        let snap = stream.snapshot();
        snaps.push(serde_json::to_value(&snap).unwrap());
        held.push(snap);
        from = cut;
    }
    for (snap, shown) in held.iter().zip(&snaps) {
        assert_eq!(
            &serde_json::to_value(snap).unwrap(),
            shown,
            "a held snapshot changed"
        );
    }
    (snaps, stream)
}

fn sized(text: &str, size: usize) -> Vec<usize> {
    (1..)
        .map(|i| i * size)
        .take_while(|&c| c < text.len())
        .collect()
}

/// Whether `next` is `prev` grown: strings extended, lists with more items (earlier items
/// grown), objects with more members (earlier members grown), scalars unchanged.
fn grows(prev: &Value, next: &Value) -> bool {
    match (prev, next) {
        (Value::String(a), Value::String(b)) => b.starts_with(a.as_str()),
        (Value::Array(a), Value::Array(b)) => {
            a.len() <= b.len() && a.iter().zip(b).all(|(x, y)| grows(x, y))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.iter().all(|(k, v)| b.get(k).is_some_and(|w| grows(v, w)))
        }
        // Nothing yet, then something.
        (Value::Null, _) => true,
        (a, b) => a == b,
    }
}

fn assert_grows(text: &str, snaps: &[Value]) {
    for pair in snaps.windows(2) {
        assert!(
            grows(&pair[0], &pair[1]),
            "snapshot shrank or changed a complete value for {text:?}:\n{}\n->\n{}",
            pair[0],
            pair[1]
        );
    }
}

/// What the ordinary path gives for the whole reply, as JSON for comparison, or the error's
/// category: a value cut off by the end of the reply is an error for a stream.
fn whole<T: llm_extract::Extract + serde::Serialize>(text: &str) -> Result<Value, Category> {
    match llm_extract::extract::<T>(text) {
        Ok(e) if !e.report.complete => Err(Category::Incomplete),
        Ok(e) => Ok(serde_json::to_value(e.value).unwrap()),
        Err(e) => Err(e.category()),
    }
}

fn finished<T: llm_extract::Extract + serde::Serialize>(
    stream: Stream<T>,
) -> Result<Value, Category> {
    stream
        .finish()
        .map(|e| serde_json::to_value(e.value).unwrap())
        .map_err(|e| e.category())
}

fn wrap(doc: &str, how: u8) -> String {
    match how % 4 {
        0 => doc.to_string(),
        1 => format!("```json\n{doc}\n```"),
        2 => format!("<think>Let me see: {{\"draft\": 1}} no.</think>\nHere you go: {doc}\nDone."),
        _ => format!("Sure!\n\n```\n{doc}\n```\nAnything else?"),
    }
}

/// Whether `doc` ends in two or more closers, with only spaces between them.
fn ends_in_a_run(doc: &str) -> bool {
    let mut tail = doc.bytes().rev().filter(|b| !b.is_ascii_whitespace());
    tail.next().is_some_and(|b| matches!(b, b'}' | b']'))
        && tail.next().is_some_and(|b| matches!(b, b'}' | b']'))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    /// Valid documents, bare or wrapped, in random chunks: the final snapshot is the value,
    /// snapshots only grow, `finish` is `extract`.
    #[test]
    fn valid_documents_in_any_chunks(
        value in json_value(),
        pretty in any::<bool>(),
        how in 0u8..4,
        size in 1usize..24,
    ) {
        prop_assume!(value.is_object() || value.is_array());
        let doc = if pretty { serde_json::to_string_pretty(&value) } else { serde_json::to_string(&value) }.unwrap();
        let text = wrap(&doc, how);
        let (snaps, stream) = stream_at::<Value>(&text, &sized(&text, size));
        assert_grows(&text, &snaps);
        prop_assert_eq!(snaps.last().unwrap(), &value);
        // A run of closers ending the reply's value waits for a byte after it that is not a
        // space (it may be followed by `, "key": ...`, making one of them stray); with one,
        // or with the value ending in a single closer, the value is complete.
        prop_assert_eq!(stream.is_complete(), how != 0 || !ends_in_a_run(&doc));
        prop_assert_eq!(finished(stream), whole::<Value>(&text));
    }

    /// The same documents cut off anywhere: snapshots only grow, and `finish` says the value
    /// was cut off exactly when `extract` with `require_complete` does.
    #[test]
    fn truncated_documents(value in json_value(), cut in any::<prop::sample::Index>(), size in 1usize..9) {
        prop_assume!(value.is_object() || value.is_array());
        let doc = serde_json::to_string(&value).unwrap();
        let mut at = cut.index(doc.len() + 1);
        while !doc.is_char_boundary(at) { at -= 1; }
        let text = &doc[..at];
        let (snaps, stream) = stream_at::<Value>(text, &sized(text, size));
        assert_grows(text, &snaps);
        prop_assert_eq!(finished(stream), whole::<Value>(text));
    }
}

/// A fence that closes inside a value with a run of more than three backticks: a chunk that
/// ends inside the run must not make the rest of it a second fence, which would then cut off
/// the next value at its own backticks (found by the stream fuzz target).
/// A valid reply whose last item is a short string after a container (`[{}, "a"]`): the item
/// may be the key of a record missing its `{` until what follows its closing quote is known,
/// and once the reply's last byte has arrived it is. Before, the quote a few bytes from the
/// end was taken for one that might still grow (`"""`), the container's closer stayed
/// undecided, and the last snapshot lacked the item and more.
/// An array's string item that turns doubtful (a raw line break after a fence's backticks,
/// which may open a code block in the string) shows the same whatever the chunking: the scan
/// stops at the line break, so whether the item is long enough to show no longer depends on
/// how much text after it had arrived (found by the stream fuzz target).
#[test]
fn a_string_item_that_turns_doubtful_shows_alike_in_any_chunks() {
    for body in ["x".repeat(300), "\u{fffd}".repeat(100), "```\n".repeat(80)] {
        for head in ["```\n", "a ``` b\n", "``` json\n"] {
            let text = format!("[\"{head}{body}");
            let (whole, _) = stream_at::<Value>(&text, &[]);
            for size in [1, 2, 7, 64] {
                let (snaps, _) = stream_at::<Value>(&text, &sized(&text, size));
                assert_eq!(snaps.last(), whole.last(), "{head:?} in {size}-byte chunks");
            }
        }
    }
}

/// An array's string the parser's own rules are asked about (`''aaa'`: a doubled quote before
/// a word), with a kilobyte of text after it: shown alike in any chunks. Before, a string whose
/// bytes so far did not yet tell whether it was an item or a key was doubted for good in small
/// chunks, and a reading the parser settled waited for the horizon past all the text that had
/// arrived instead of past its own end, so the last snapshot depended on the chunking (found
/// by the stream fuzz target).
#[test]
fn a_string_the_parser_is_asked_about_shows_alike_in_any_chunks() {
    for unit in ["aaa", "\u{20ac}", "\u{e9}"] {
        for n in [330, 341, 400, 520] {
            let text = format!("[''{unit}'\t'{}", unit.repeat(n));
            let (whole, _) = stream_at::<Value>(&text, &[]);
            for size in [1, 2, 3, 9, 16, 64] {
                let (snaps, _) = stream_at::<Value>(&text, &sized(&text, size));
                assert_eq!(
                    snaps.last(),
                    whole.last(),
                    "{unit} x {n} in {size}-byte chunks"
                );
            }
        }
    }
}

/// Backticks at the end of a value string's text are held (they may start a fence's closing
/// run) until the next byte says; a `,` then a key quoted with the other quote (where the
/// string may end) decides them as a `,` read as text does: shown alike in any chunks. Before,
/// read in one push they stayed held (found by the stream fuzz target).
#[test]
fn backticks_before_a_separator_show_alike_in_any_chunks() {
    for text in [
        "{\"k\": \"ab`,''",
        "{\"k\": \"ab``, 'x",
        "{'': \"\u{fffd}w`,''",
        "{\"k\": \"ab```\n'x': 1",
    ] {
        let (whole, _) = stream_at::<Value>(text, &[]);
        for size in [1, 2, 3, 7] {
            let (snaps, _) = stream_at::<Value>(text, &sized(text, size));
            assert_eq!(snaps.last(), whole.last(), "{text:?} in {size}-byte chunks");
        }
    }
}

/// A number shows as `finish` reads it: `-0` is the float `-0.0` (as serde_json and the
/// parser read it), not the integer `0` (found by the stream fuzz target).
#[test]
fn a_negative_zero_shows_as_finish_reads_it() {
    for text in ["[-0]", "[-0, 1]", r#"{"a": -0, "b": 1}"#, "[-0.0, -0e0, 0]"] {
        let fin = whole::<Value>(text).unwrap();
        for size in [1, 3, 64] {
            let (snaps, _) = stream_at::<Value>(text, &sized(text, size));
            let last = snaps.last().unwrap();
            assert_eq!(
                last.to_string(),
                fin.to_string(),
                "{text} in {size}-byte chunks"
            );
        }
    }
    // Typed, whatever features keep numbers as written.
    let text = "[-0, 1]";
    let fin = llm_extract::extract::<Vec<f64>>(text).unwrap().value;
    assert!(fin[0].is_sign_negative());
    for size in [1, 3, 64] {
        let mut stream = Stream::<Vec<f64>>::new();
        for chunk in text.as_bytes().chunks(size) {
            stream.push_bytes(chunk);
            if let Some(first) = stream.snapshot().first() {
                assert!(first.is_sign_negative(), "{size}-byte chunks");
            }
        }
    }
}

#[test]
fn a_short_string_item_after_a_container_shows_at_the_last_byte() {
    for text in [
        r#"[{}, "a"]"#,
        r#"[[1], "a"]"#,
        r#"[[],""]"#,
        r#"{"k": [{"x": 1}, "a"]}"#,
    ] {
        let value: Value = serde_json::from_str(text).unwrap();
        for size in [1, 2, 64] {
            let (snaps, _) = stream_at::<Value>(text, &sized(text, size));
            assert_eq!(snaps.last(), Some(&value), "{text} in {size}-byte chunks");
        }
    }
}

/// An array's string item of nearly the length a key may have, whose closing quote waits for
/// what follows it: the item is as long as up to that quote, however far the text after it
/// has arrived. Before, the scan past the quote made it count as too long to be a key, so it
/// showed in some chunkings and not in one push (found by the stream fuzz target).
#[test]
fn a_string_item_near_the_key_length_shows_alike_in_any_chunks() {
    for n in [250, 252, 254] {
        for tail in ["\n\n\n\nef", "\r\r\r\r\u{fffd}\u{fffd}"] {
            let text = format!("[\"{}\"{tail}", "x".repeat(n));
            let (whole, _) = stream_at::<Value>(&text, &[]);
            for size in [1, 2, 3, 7] {
                let (snaps, _) = stream_at::<Value>(&text, &sized(&text, size));
                assert_eq!(
                    snaps.last(),
                    whole.last(),
                    "{n} {tail:?} in {size}-byte chunks"
                );
            }
        }
    }
}

/// An empty object closed by a closer the rest of the text judges (here the array's `]` after
/// it closes the root and a `,` goes on) is an object whatever that closer turns out to be: it
/// shows whether the closer was undecided when it arrived (chunks) or already judged (one
/// push). It showed in chunks and not in one push (found by the stream fuzz target).
#[test]
fn an_empty_object_before_a_judged_closer_shows_alike_in_any_chunks() {
    let (whole, _) = stream_at::<Value>("[{}],{", &[]);
    assert_eq!(whole.last(), Some(&serde_json::json!([{}])));
    for text in ["[{}],{", "[{}]],{", "[[{}]],[", "\u{fffd}[{}}]],{\u{fffd}}"] {
        let (whole, _) = stream_at::<Value>(text, &[]);
        for size in [1, 2, 3, 7] {
            let (snaps, _) = stream_at::<Value>(text, &sized(text, size));
            assert_eq!(snaps.last(), whole.last(), "{text:?} in {size}-byte chunks");
        }
    }
}

/// A later value with prose before it on its line may be a mention, which the words after it
/// decide; the stream stops looking at the next opener, so what it shows does not depend on
/// how much of the text after that opener had arrived when the next value began (found by the
/// stream fuzz target: `{}[]{ ... 2` showed `[]` in 16-byte chunks and `{}` in one push).
#[test]
fn whether_a_value_is_a_mention_does_not_depend_on_the_chunks() {
    for text in [
        "{}[]{ \u{fffd}\u{fffd}\u{fffd}\u{fffd}\u{fffd}\u{fffd} 2",
        "{\"a\": 1} then {\"a\": 2} {\"b\" words",
        "{\"a\": 1}\nOr {\"a\": 2} [x] maybe",
    ] {
        let (whole, _) = stream_at::<Value>(text, &[]);
        for size in 1..=16 {
            let (snaps, _) = stream_at::<Value>(text, &sized(text, size));
            assert_eq!(snaps.last(), whole.last(), "{text:?} in {size}-byte chunks");
        }
    }
}

/// A value the reply sets aside or shows as an example after the answer is not shown in the
/// answer's place, at any chunking; one before the answer is replaced by it.
#[test]
fn a_value_the_reply_sets_aside_is_not_shown_over_the_answer() {
    for text in [
        "{\"a\": 2}\nDon't use {\"a\": 1}.",
        "The answer is {\"a\": 2}, not {\"a\": 1}.",
        "Result:\n```json\n{\"a\": 2}\n```\nBad example:\n```json\n{\"a\": 1}\n```",
        "Wrong:\n```json\n{\"a\": 1}\n```\nRight: {\"a\": 2}",
        "For example {\"a\": 1}. Yours: {\"a\": 2}",
    ] {
        let want = llm_extract::extract::<Value>(text).unwrap().value;
        assert_eq!(want["a"], 2, "{text:?}");
        for size in [1, 2, 3, 7, 16, text.len()] {
            let (snaps, stream) = stream_at::<Value>(text, &sized(text, size));
            assert_eq!(snaps.last(), Some(&want), "{text:?} in {size}-byte chunks");
            assert_eq!(stream.finish().unwrap().value, want, "{text:?}");
            // Once the answer is shown whole, nothing else is.
            let first = snaps.iter().position(|s| *s == want);
            let after = &snaps[first.unwrap_or(snaps.len())..];
            assert!(
                after.iter().all(|s| *s == want),
                "{text:?} in {size}-byte chunks: {snaps:?}"
            );
        }
    }
}

#[test]
fn a_long_backtick_run_cut_anywhere_is_one_run() {
    let text = "```json\n[1, 2\n``````\nThen {\"a\": [1, ```\n2]}";
    let (one, _) = stream_at::<Value>(text, &[]);
    let last = one.last().unwrap().clone();
    assert_eq!(
        last["a"][0], 1,
        "the value after the fence is shown: {last}"
    );
    for cut in 0..=text.len() {
        let (snaps, _) = stream_at::<Value>(text, &[cut]);
        assert_eq!(snaps.last().unwrap(), &last, "cut at {cut}");
    }
    for size in 1..=8 {
        let (snaps, _) = stream_at::<Value>(text, &sized(text, size));
        assert_eq!(snaps.last().unwrap(), &last, "chunks of {size}");
    }
}

/// Replies with the leniency models need, each cut at every byte (two chunks, so inside
/// UTF-8 characters, escapes, tags and fences): the final snapshot is the one-chunk snapshot,
/// snapshots grow, `finish` is `extract`.
#[test]
fn every_split_of_lenient_replies_gives_the_same_result() {
    let replies = [
        "<think>The user wants JSON. {\"no\": 1}</think>\n```json\n{\"name\": \"Ad\\u00e9a \\ud83d\\ude00\", 'tags': ['x', \"y\",], n: 12, ok: True, none: None, // note\n \"nested\": {\"a\": [1, -2.5e3, null]}, \"q\": \"he said \"hi\" ok\"}\n```\nBye",
        "Here: [{\"id\": 1, \"name\": \"Café ☕\"}, {\"id\": 22, \"name\": 'O\\'Neil'}, {\"id\": 333, /* c */ \"name\": \"日本語\"}]",
        "{\"tool\": \"search\", \"parameters\": {\"query\": \"rust \\\"serde\\\"\", \"limit\": 10}}",
        "<thinking>a <b> c</thinking><reasoning>r</reasoning>{\"a\": \"`x`\", \"b\": [true, false, null]}",
        "```json\n{\"items\": [1, 2, 3], \"story\": \"line one\\nline two\"}\n```",
        // A repeated key: the later value replaces the earlier (so a shown value changes),
        // the same way however the chunks fall.
        "{\"t\": \"first\", \"n\": 1, \"t\": \"second\", \"n\": 22, \"t\": 3}",
        "[{\"id\": 1, \"t\": \"a\"{\"id\": 2, \"t\": \"b\"}]",
    ];
    let repeats_keys = |text: &str| text.matches("\"t\"").count() > 1;
    for text in replies {
        let (one, single) = stream_at::<Value>(text, &[]);
        let one_last = one.last().unwrap().clone();
        let thoughts = single.thoughts().to_vec();
        let expected = finished(single);
        assert_eq!(expected, whole::<Value>(text), "{text}");
        for cut in 0..=text.len() {
            let (snaps, stream) = stream_at::<Value>(text, &[cut]);
            if !repeats_keys(text) {
                assert_grows(text, &snaps);
            }
            assert_eq!(snaps.last().unwrap(), &one_last, "cut at {cut} of {text:?}");
            assert_eq!(stream.thoughts(), &thoughts[..], "cut at {cut} of {text:?}");
            assert_eq!(finished(stream), expected, "cut at {cut} of {text:?}");
        }
        for size in 1..=17 {
            let (snaps, stream) = stream_at::<Value>(text, &sized(text, size));
            if !repeats_keys(text) {
                assert_grows(text, &snaps);
            }
            assert_eq!(
                snaps.last().unwrap(),
                &one_last,
                "chunks of {size} of {text:?}"
            );
            assert_eq!(finished(stream), expected);
        }
    }
}

/// A value written as a code block (`"code": ```py` ...) shows once its closing run arrives,
/// as the code `finish` reads, however the chunks fall, also inside a fence around the reply
/// (whose closing run it does not take for its own).
#[test]
fn a_value_written_as_a_code_block_shows_as_its_code() {
    for text in [
        "```json\n{\"type\": \"code\", \"code\": ```py main.py\n  if x:\n      y()\n  ```, \"n\": 2}\n```\n",
        "[```\n  a ``` b\n```, 3]",
    ] {
        let expected = whole::<Value>(text).unwrap();
        let mut splits: Vec<Vec<usize>> = (0..=text.len()).map(|cut| vec![cut]).collect();
        splits.extend((1..=9).map(|size| sized(text, size)));
        for cuts in splits {
            let (snaps, stream) = stream_at::<Value>(text, &cuts);
            assert_grows(text, &snaps);
            assert_eq!(snaps.last().unwrap(), &expected, "{cuts:?} of {text:?}");
            assert_eq!(finished(stream), Ok(expected.clone()));
        }
    }
}

fn load(path: &str) -> Vec<String> {
    let raw =
        std::fs::read_to_string(format!("{}/fixtures/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let cases: Vec<BTreeMap<String, Value>> = serde_json::from_str(&raw).unwrap();
    cases
        .into_iter()
        .filter_map(|c| c.get("input").and_then(|v| v.as_str()).map(str::to_string))
        .collect()
}

/// Documents written elsewhere (the damage corpus and two peer libraries' test suites), each
/// in chunks of every size from 1 to 9 and cut in two at every byte for the short ones: no
/// panic, the final snapshot does not depend on the chunking, and `finish` is `extract`.
#[test]
fn documents_written_elsewhere_in_any_chunks() {
    let mut texts = load("damage/cases.json");
    texts.extend(load("peers/json_repair.json"));
    texts.extend(load("peers/jsonrepair.json"));
    assert!(texts.len() > 600);
    let mut split_checked = 0;
    for text in &texts {
        let (one, single) = stream_at::<Value>(text, &[]);
        let one_last = one.last().unwrap().clone();
        let expected = finished(single);
        assert_eq!(expected, whole::<Value>(text), "{text:?}");
        let mut chunkings: Vec<Vec<usize>> = (1..=9).map(|s| sized(text, s)).collect();
        if text.len() <= 160 {
            chunkings.extend((0..=text.len()).map(|c| vec![c]));
            split_checked += 1;
        }
        for cuts in chunkings {
            let (snaps, stream) = stream_at::<Value>(text, &cuts);
            assert_eq!(snaps.last().unwrap(), &one_last, "{text:?} cut at {cuts:?}");
            assert_eq!(finished(stream), expected, "{text:?} cut at {cuts:?}");
        }
    }
    assert!(split_checked > 400, "{split_checked}");
}

#[test]
fn numbers_bools_and_nulls_appear_only_once_complete() {
    let mut s = Stream::<Value>::new();
    s.push("{\"n\": 1");
    assert_eq!(serde_json::to_value(s.snapshot()).unwrap(), json!({}));
    s.push("2");
    assert_eq!(serde_json::to_value(s.snapshot()).unwrap(), json!({}));
    s.push(", \"b\": tru");
    assert_eq!(
        serde_json::to_value(s.snapshot()).unwrap(),
        json!({"n": 12})
    );
    s.push("e, \"z\": nul");
    assert_eq!(
        serde_json::to_value(s.snapshot()).unwrap(),
        json!({"n": 12, "b": true})
    );
    s.push("l}");
    assert_eq!(
        serde_json::to_value(s.snapshot()).unwrap(),
        json!({"n": 12, "b": true, "z": null})
    );

    let mut list = Stream::<Vec<u32>>::new();
    list.push("[1, 2, 3");
    assert_eq!(list.snapshot(), [1, 2]);
    list.push("4]");
    assert_eq!(list.snapshot(), [1, 2, 34]);
}

#[test]
fn strings_grow_and_escapes_split_anywhere_decode_once() {
    let text = r#"["a\u00e9b\nc\ud83d\ude00d"]"#;
    for cut in 0..=text.len() {
        let (snaps, _) = stream_at::<Vec<String>>(text, &[cut]);
        assert_eq!(snaps.last().unwrap(), &json!(["aéb\nc😀d"]), "cut at {cut}");
        let first = snaps[0]
            .as_array()
            .and_then(|a| a.first())
            .and_then(|s| s.as_str())
            .unwrap_or("");
        assert!("aéb\nc😀d".starts_with(first), "cut at {cut}: {first:?}");
    }
}

#[test]
fn reasoning_streams_into_thoughts_and_never_into_the_value() {
    let text = "<think>I could answer {\"city\": \"Rome\"} but no.</think>{\"city\": \"Paris\"}";
    for cut in 0..=text.len() {
        let (snaps, stream) = stream_at::<Value>(text, &[cut]);
        for snap in &snaps {
            assert_ne!(snap.get("city"), Some(&json!("Rome")), "cut at {cut}");
        }
        assert_eq!(
            stream.thoughts(),
            ["I could answer {\"city\": \"Rome\"} but no."]
        );
        assert_eq!(snaps.last().unwrap(), &json!({"city": "Paris"}));
    }
    let mut s = Stream::<Value>::new();
    s.push("<think>step one");
    assert_eq!(s.thoughts(), ["step one"]);
    s.push(", step two</thi");
    assert_eq!(s.thoughts(), ["step one, step two"]);
}

/// Hunyuan writes its reasoning tags with its checkpoint's suffix (`<think:6124c78e>`):
/// reasoning for `extract` and the stream alike, split anywhere.
#[test]
fn reasoning_tags_with_a_checkpoint_suffix_are_reasoning() {
    let text = "<think:6124c78e>I could answer {\"city\": \"Rome\"}.</think:6124c78e>\n<answer:6124c78e>{\"city\": \"Paris\"}</answer:6124c78e>";
    let whole = llm_extract::extract::<Value>(text).unwrap();
    assert_eq!(whole.value, json!({"city": "Paris"}));
    assert_eq!(whole.thoughts, ["I could answer {\"city\": \"Rome\"}."]);
    for cut in 0..=text.len() {
        let (snaps, stream) = stream_at::<Value>(text, &[cut]);
        for snap in &snaps {
            assert_ne!(snap.get("city"), Some(&json!("Rome")), "cut at {cut}");
        }
        assert_eq!(stream.thoughts(), &whole.thoughts[..], "cut at {cut}");
        assert_eq!(
            snaps.last().unwrap(),
            &json!({"city": "Paris"}),
            "cut at {cut}"
        );
    }
    // A `:` that starts no suffix makes no tag.
    let text = "<think:>{\"city\": \"Rome\"}";
    assert_eq!(
        llm_extract::extract::<Value>(text).unwrap().value,
        json!({"city": "Rome"})
    );
    let (snaps, _) = stream_at::<Value>(text, &[3]);
    assert_eq!(snaps.last().unwrap(), &json!({"city": "Rome"}));
}

#[test]
fn a_stream_cut_off_mid_value_says_so_and_where_and_keeps_its_snapshot() {
    let mut s = Stream::<Value>::new();
    s.push("Result:\n{\"items\": [1, 2], \"story\": \"Once upon");
    let last = s.snapshot();
    let err = s.finish().unwrap_err();
    assert_eq!(err.category(), Category::Incomplete);
    let text = err.to_string();
    assert!(text.contains("cut off") && text.contains("line"), "{text}");
    assert_eq!(
        serde_json::to_value(last).unwrap(),
        json!({"items": [1, 2], "story": "Once upon"})
    );
}

#[test]
fn a_stream_past_max_payload_errs_once_and_stops_growing() {
    let mut s = Extractor::new().max_payload(20).stream::<Value>();
    assert!(s.try_push("{\"a\": \"0123").is_ok());
    let err = s.try_push("456789abcdef\"}").unwrap_err();
    assert_eq!(err.category(), Category::TooLarge);
    assert!(!s.try_push("more").unwrap());
    assert!(!s.push("more"));
    assert_eq!(s.text(), "{\"a\": \"0123");
    assert_eq!(
        serde_json::to_value(s.snapshot()).unwrap(),
        json!({"a": "0123"})
    );
    assert_eq!(s.finish().unwrap_err().category(), Category::TooLarge);
}

#[test]
fn a_value_that_does_not_fit_is_replaced_by_a_later_one() {
    // An example in the prose, then the answer: the example does not read as `Vec<u32>`.
    let text = "The format is {\"like\": \"this\"}. Answer: [1, 2, 3]";
    for size in 1..=8 {
        let (snaps, stream) = stream_at::<Vec<u32>>(text, &sized(text, size));
        assert_eq!(snaps.last().unwrap(), &json!([1, 2, 3]));
        assert_eq!(stream.finish().unwrap().value, vec![1, 2, 3]);
    }
}

/// Every field optional: any object reads as it.
#[derive(llm_extract::Extract, Debug, serde::Serialize)]
struct Profile {
    name: Option<String>,
    age: Option<u32>,
}

#[test]
fn a_value_with_none_of_the_types_keys_does_not_replace_one_with_some() {
    // Either order, either tie-break: the final snapshot is the value with the type's keys,
    // as `finish` (and `extract`) choose it.
    for text in [
        r#"Answer: {"name": "Ada", "age": 36}. Also seen: {"status": 1}"#,
        r#"Seen: {"status": 1}. Answer: {"name": "Ada", "age": 36}"#,
    ] {
        for first in [false, true] {
            let tie = if first {
                llm_extract::TieBreak::First
            } else {
                llm_extract::TieBreak::Last
            };
            for size in 1..=9 {
                let mut stream = Extractor::new().tie_break(tie).stream::<Profile>();
                let mut last = Value::Null;
                for piece in text.as_bytes().chunks(size) {
                    stream.push_bytes(piece);
                    last = serde_json::to_value(stream.snapshot()).unwrap();
                }
                assert_eq!(
                    last,
                    json!({"name": "Ada", "age": 36}),
                    "{text} in {size}-byte chunks"
                );
                let done = stream.finish().unwrap().value;
                assert_eq!((done.name.as_deref(), done.age), (Some("Ada"), Some(36)));
            }
        }
    }
}

#[test]
fn held_snapshots_share_their_parts_instead_of_copying_them() {
    // A caller that keeps every snapshot (`Snapshots::collect`, a slow UI's queue). Each push
    // appends in place past what the older snapshots see, so the versions of one string or
    // list share a few buffers (a new one each time the part doubles) instead of each
    // holding a copy: linear time and memory, where copy-on-write was quadratic.
    let body = "0123456789".repeat(20_000);
    let text = format!(
        "{{\"body\": \"{body}\", \"ids\": [{}]}}",
        (0..20_000)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut stream = Stream::<BTreeMap<String, Value>>::new();
    let mut held = Vec::new();
    for piece in text.as_bytes().chunks(16) {
        stream.push_bytes(piece);
        held.push(stream.snapshot());
    }
    let mut string_buffers = std::collections::HashSet::new();
    let mut list_buffers = std::collections::HashSet::new();
    let mut last_len = 0;
    for snap in &held {
        if let Some(llm_extract::stream::PartialJson::String(s)) = snap.get("body") {
            assert!(body.starts_with(s.as_str()) && s.len() >= last_len);
            last_len = s.len();
            string_buffers.insert(s.as_ptr() as usize);
        }
        if let Some(llm_extract::stream::PartialJson::Array(ids)) = snap.get("ids") {
            if let Some(first) = ids.first() {
                list_buffers.insert(first as *const _ as usize);
            }
        }
    }
    assert_eq!(last_len, body.len());
    // 200,000 bytes in 12,500 pushes: about log2(200,000 / 4) buffers, not one per push.
    assert!(
        string_buffers.len() <= 24,
        "{} string buffers",
        string_buffers.len()
    );
    assert!(
        list_buffers.len() <= 24,
        "{} list buffers",
        list_buffers.len()
    );
    // The oldest snapshots still show what they showed.
    assert_eq!(
        serde_json::to_value(&held[0]).unwrap(),
        json!({"body": "012345"})
    );
    let done = serde_json::to_value(held.last().unwrap()).unwrap();
    assert_eq!(done["ids"].as_array().unwrap().len(), 20_000);
    assert_eq!(stream.finish().unwrap().value["ids"][19_999], json!(19_999));
}

#[test]
fn bytes_split_inside_a_character_wait_for_the_rest() {
    let text = "{\"s\": \"日本\"}";
    let bytes = text.as_bytes();
    let mut s = Stream::<Value>::new();
    s.push_bytes(&bytes[..8]); // inside 日
                               // The string shows once its first character is whole.
    assert_eq!(serde_json::to_value(s.snapshot()).unwrap(), json!({}));
    s.push_bytes(&bytes[8..]);
    assert_eq!(
        serde_json::to_value(s.snapshot()).unwrap(),
        json!({"s": "日本"})
    );
}

#[test]
fn snapshots_iterate_over_chunks() {
    let chunks = ["[\"a", "b\", ", "\"c\"]"];
    let mut snaps = llm_extract::stream::Snapshots::<Vec<String>, _>::new(chunks.into_iter());
    let seen: Vec<Vec<String>> = snaps
        .by_ref()
        .map(|p| p.iter().map(|s| s.to_string()).collect())
        .collect();
    // An array's string item shows once closed (or once longer than a key): `["q": 1}]` is an
    // object whose `{` went missing, and its first string the key.
    assert_eq!(seen, vec![vec![], vec!["ab"], vec!["ab", "c"]]);
    assert_eq!(snaps.finish().unwrap().value, ["ab", "c"]);
}

/// The async adapter over a `futures::Stream` of byte chunks (split inside characters),
/// polled to the end with a no-op waker (the chunks are always ready).
#[test]
fn async_snapshots_over_a_stream_of_bytes() {
    use futures_core::Stream as _;
    use std::pin::Pin;
    use std::task::{Context, Poll, Waker};

    struct Chunks(std::vec::IntoIter<Vec<u8>>);
    impl futures_core::Stream for Chunks {
        type Item = Vec<u8>;
        fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Vec<u8>>> {
            Poll::Ready(self.0.next())
        }
    }

    let text = "<think>…</think>{\"word\": \"naïve\", \"n\": [1, 22]}";
    let chunks: Vec<Vec<u8>> = text.as_bytes().chunks(3).map(<[u8]>::to_vec).collect();
    let mut snaps =
        llm_extract::stream::AsyncSnapshots::<Value, _>::new(Chunks(chunks.into_iter()));
    let mut cx = Context::from_waker(Waker::noop());
    let mut seen = Vec::new();
    while let Poll::Ready(Some(snap)) = Pin::new(&mut snaps).poll_next(&mut cx) {
        seen.push(serde_json::to_value(snap).unwrap());
    }
    assert_grows(text, &seen);
    assert_eq!(
        seen.last().unwrap(),
        &json!({"word": "naïve", "n": [1, 22]})
    );
    assert_eq!(snaps.stream().thoughts(), ["…"]);
    assert_eq!(
        snaps.finish().unwrap().value,
        json!({"word": "naïve", "n": [1, 22]})
    );
}

/// 100,000 levels of nesting with `max_depth` raised: the snapshot shows the first levels,
/// `finish` reads them all; nothing overflows the stack (the test thread's is 2 MiB).
#[test]
fn deep_nesting_streams_without_overflow() {
    let depth = 100_000;
    let text = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    let mut stream = Extractor::new().max_depth(depth + 1).stream::<Value>();
    for chunk in text.as_bytes().chunks(4096) {
        stream.push_bytes(chunk);
        let _ = stream.snapshot();
    }
    let snap = serde_json::to_value(stream.snapshot()).unwrap();
    assert!(snap.is_array());
    let done = stream.finish().unwrap().value;
    // Taken apart level by level: `Value`'s own drop recurses once per level.
    let (mut stack, mut arrays, mut leaves) = (vec![done], 0, Vec::new());
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => {
                arrays += 1;
                stack.extend(items);
            }
            other => leaves.push(other),
        }
    }
    assert_eq!((arrays, leaves), (depth, vec![json!(1)]));
    // The reader's own cut: deeper than 128 levels is not shown, and nothing breaks.
    let mut shallow = Stream::<Value>::new();
    shallow.push(&format!("{}\"x\"{}", "[".repeat(300), "]".repeat(300)));
    let _ = shallow.snapshot();
    assert_eq!(shallow.finish().unwrap_err().category(), Category::TooDeep);
}

/// Escapes JSON does not allow, split anywhere: a lone surrogate is U+FFFD, an unknown escape
/// is kept as written, `\'` in a single-quoted string is a quote.
#[test]
fn lenient_escapes_split_anywhere_read_the_same() {
    let text = r#"["\ud800x", "a\qb", 'it\'s', "\u00"]"#;
    let want = json!(["\u{FFFD}x", "a\\qb", "it's", "\\u00"]);
    for cut in 0..=text.len() {
        let (snaps, _) = stream_at::<Value>(text, &[cut]);
        assert_eq!(snaps.last().unwrap(), &want, "cut at {cut}");
    }
}

/// The thoughts of the whole-text read of `text` (`Extracted::thoughts`), or `None` when that
/// read finds nothing. With the fallback into reasoning, and as a `String` when not as a
/// `Value`, so that a reply holding no value outside reasoning (cut off in its reasoning)
/// still gives its thoughts: they come from the locator whatever is read.
fn whole_thoughts(text: &str) -> Option<Vec<String>> {
    let read = Extractor::new().fallback_to_reasoning();
    match read.extract::<Value>(text) {
        Ok(e) => Some(e.thoughts),
        Err(_) => read.extract::<String>(text).ok().map(|e| e.thoughts),
    }
}

/// Every split of `text` in two, then chunks of 1 to 9 bytes.
fn every_chunking(text: &str) -> Vec<Vec<usize>> {
    (0..=text.len())
        .map(|cut| vec![cut])
        .chain((1..=9).map(|size| sized(text, size)))
        .collect()
}

/// `text` with a reasoning block written with special tokens, holding a decoy value, and
/// `answer` outside it: whatever the chunking, no snapshot shows anything but a growing view
/// of the answer (never the decoy), the last snapshot and `finish` are `extract`'s answer,
/// and the thoughts are the whole-text read's.
fn assert_token_reasoning_stays_out(text: &str, answer: &Value, decoy: &str) {
    assert_eq!(whole::<Value>(text), Ok(answer.clone()), "{text:?}");
    let thoughts = whole_thoughts(text).unwrap();
    assert!(
        thoughts.iter().any(|t| t.contains(decoy)),
        "the decoy is in a thought of {text:?}: {thoughts:?}"
    );
    for cuts in every_chunking(text) {
        let (snaps, stream) = stream_at::<Value>(text, &cuts);
        for snap in &snaps {
            assert!(
                grows(snap, answer),
                "{text:?} cut at {cuts:?}: the snapshot {snap} is no view of {answer}"
            );
            assert!(
                !snap.to_string().contains(decoy),
                "{text:?} cut at {cuts:?}: {snap}"
            );
        }
        assert_eq!(snaps.last().unwrap(), answer, "{text:?} cut at {cuts:?}");
        assert_eq!(
            finished(stream),
            Ok(answer.clone()),
            "{text:?} cut at {cuts:?}"
        );
    }
    for cuts in every_chunking(text) {
        let (_, stream) = stream_at::<Value>(text, &cuts);
        assert_eq!(stream.thoughts(), &thoughts[..], "{text:?} cut at {cuts:?}");
    }
}

/// gpt-oss Harmony: the analysis channel is reasoning, ended by `<|end|>` (part of the block),
/// or by the `<|start|>` or `<|channel|>` of the next message's header.
#[test]
fn harmony_analysis_streams_into_thoughts_and_never_into_the_value() {
    let answer = json!({"city": "Paris", "days": [1, 2]});
    for text in [
        "<|start|>assistant<|channel|>analysis<|message|>They may want {\"city\": \"Rome\"}; [\"Rome\", 3] is a list, not the answer.<|end|><|start|>assistant<|channel|>final<|message|>{\"city\": \"Paris\", \"days\": [1, 2]}<|return|>",
        "<|channel|>analysis<|message|>Draft: {\"city\": \"Rome\", \"days\": []}<|start|>assistant<|channel|>final<|message|>{\"city\": \"Paris\", \"days\": [1, 2]}",
        "<|channel|>analysis<|message|>Draft: [{\"city\": \"Rome\"}]<|channel|>final<|message|>{\"city\": \"Paris\", \"days\": [1, 2]}",
        // Two analysis messages, spaces around the reasoning (trimmed, as `extract` does).
        "<|channel|>analysis<|message|>\n  First {\"city\": \"Rome\"}  \n<|end|><|start|>assistant<|channel|>analysis<|message|>Then [\"Rome\"].<|end|>\n{\"city\": \"Paris\", \"days\": [1, 2]}",
    ] {
        assert_token_reasoning_stays_out(text, &answer, "Rome");
    }
}

/// Cohere Command R7B / Command A: `<|START_THINKING|>` ... `<|END_THINKING|>`.
#[test]
fn cohere_thinking_streams_into_thoughts_and_never_into_the_value() {
    let answer = json!(["Paris", {"days": 2}]);
    for text in [
        "<|START_THINKING|>I could answer {\"city\": \"Rome\"} or [\"Rome\"].<|END_THINKING|>\n<|START_RESPONSE|>[\"Paris\", {\"days\": 2}]<|END_RESPONSE|>",
        "<|START_THINKING|>\n[\"Rome\", {\"days\": 9}]\n<|END_THINKING|>[\"Paris\", {\"days\": 2}]",
        // Inside a fence, the block is reasoning too; the fence goes on after it.
        "```json\n<|START_THINKING|>{\"Rome\": 1}<|END_THINKING|>\n[\"Paris\", {\"days\": 2}]\n```",
    ] {
        assert_token_reasoning_stays_out(text, &answer, "Rome");
    }
}

/// An opener whose closer never comes: the block runs to the end of the reply, as in the
/// locator. At every cut of a reply that ends inside its reasoning, the thoughts are the
/// whole-text read's, except that a last `<` that may still begin a closer waits (it shows once
/// the next byte says it is text).
#[test]
fn a_token_block_never_closed_runs_to_the_end_of_the_reply() {
    for text in [
        "{\"city\": \"Paris\"}\n<|channel|>analysis<|message|>Wait, maybe {\"city\": \"Rome\"} <| or [1, 2]",
        "[\"Paris\"] <|START_THINKING|>or [\"Rome\"] <|END_THINK? no",
    ] {
        let answer = whole::<Value>(text).unwrap();
        assert!(!answer.to_string().contains("Rome"), "{text:?}");
        assert_token_reasoning_stays_out(text, &answer, "Rome");
        for (cut, _) in text.char_indices().skip(1) {
            let part = &text[..cut];
            let Some(want) = whole_thoughts(part) else {
                continue;
            };
            let mut stream = Stream::<Value>::new();
            stream.push(part);
            let got = stream.thoughts();
            assert_eq!(got.len(), want.len(), "{part:?}: {got:?} vs {want:?}");
            let last = got.len().saturating_sub(1);
            assert_eq!(got[..last], want[..last], "{part:?}");
            if let (Some(g), Some(w)) = (got.last(), want.last()) {
                let waits = part.rfind('<').is_some_and(|lt| {
                    ["<|end|>", "<|start|>", "<|channel|>", "<|END_THINKING|>"]
                        .iter()
                        .any(|t| t.starts_with(&part[lt..]))
                });
                if waits {
                    assert!(w.starts_with(g.as_str()), "{part:?}: {g:?} vs {w:?}");
                } else {
                    assert_eq!(g, w, "{part:?}");
                }
            }
            // Nothing of the reasoning shows in the value.
            assert!(!stream_at::<Value>(part, &[]).0[0].to_string().contains("Rome"));
        }
    }
}

/// A closer with no opener is text, as in the locator (no reasoning before it is taken off,
/// unlike `</think>` alone); the tokens are matched as written (case matters).
#[test]
fn token_closers_without_openers_and_other_spellings_are_text() {
    let texts = [
        "Note <|end|> then {\"city\": \"Paris\"}<|END_THINKING|> and <|channel|> done",
        "{\"city\": \"Rome\"} <|END_THINKING|>\n{\"city\": \"Paris\"}",
        // Lowercase is not Cohere's token: both values are prose.
        "<|start_thinking|>{\"city\": \"Rome\"}<|end_thinking|>\n{\"city\": \"Paris\"}",
        // Harmony's final channel is not reasoning.
        "<|channel|>final<|message|>{\"city\": \"Paris\"}<|return|>",
    ];
    for text in texts {
        let expected = whole::<Value>(text);
        assert_eq!(expected, Ok(json!({"city": "Paris"})), "{text:?}");
        let thoughts = whole_thoughts(text).unwrap();
        assert!(thoughts.is_empty(), "{text:?}: {thoughts:?}");
        for cuts in every_chunking(text) {
            let (snaps, stream) = stream_at::<Value>(text, &cuts);
            assert_eq!(
                snaps.last().unwrap(),
                &json!({"city": "Paris"}),
                "{text:?} {cuts:?}"
            );
            assert!(stream.thoughts().is_empty(), "{text:?} {cuts:?}");
            assert_eq!(finished(stream), expected, "{text:?} {cuts:?}");
        }
    }
}

/// A reasoning opener between a value's tokens cuts the value off there, as in the locator
/// (a block inside a string is text); and where a closer that starts the next header is
/// itself the start of an analysis opener, the stream reads it as the locator does.
#[test]
fn token_openers_inside_values_and_at_closers_read_as_the_locator_reads_them() {
    for text in [
        "Result: [1, 2<|channel|>analysis<|message|>no, {\"x\": [9]}<|end|>\n{\"city\": \"Paris\"}",
        "{\"a\": \"see <|channel|>analysis<|message|> here\", \"b\": [1]}",
        "{\"a\": x<|START_THINKING|>[\"Rome\"]<|END_THINKING|>",
        "<|channel|>analysis<|message|>A<|channel|>analysis<|message|>B [\"Rome\"]<|end|>",
    ] {
        let thoughts = whole_thoughts(text).unwrap();
        if text.ends_with("B [\"Rome\"]<|end|>") {
            // A second analysis header right after the first block's text ends it and opens
            // the next: both are reasoning, and no value is left.
            assert_eq!(thoughts, ["A", "B [\"Rome\"]"]);
            assert_eq!(whole::<Value>(text), Err(Category::NotFound));
        }
        let (one, single) = stream_at::<Value>(text, &[]);
        assert_eq!(single.thoughts(), &thoughts[..], "{text:?}");
        let expected = finished(single);
        for cuts in every_chunking(text) {
            let (snaps, stream) = stream_at::<Value>(text, &cuts);
            assert_eq!(snaps.last(), one.last(), "{text:?} cut at {cuts:?}");
            assert_eq!(stream.thoughts(), &thoughts[..], "{text:?} cut at {cuts:?}");
            assert_eq!(finished(stream), expected, "{text:?} cut at {cuts:?}");
        }
    }
}

/// Paths of every length the reader builds them for (on the stack up to 4 and up to 16
/// steps, on the heap past that), through objects and arrays: every snapshot shows the
/// nested leaf string as far as it arrived, under the right keys and indexes.
#[test]
fn paths_of_every_depth_reach_their_place() {
    for depth in [1, 3, 4, 5, 15, 16, 17, 40] {
        let (mut open, mut close) = (String::new(), String::new());
        for level in 0..depth {
            if level % 2 == 0 {
                open.push_str(&format!("{{\"k{level}\": "));
                close.insert(0, '}');
            } else {
                open.push_str("[0, ");
                close.insert(0, ']');
            }
        }
        let leaf = "a leaf string, long enough to be cut";
        let text = format!("{open}\"{leaf}\"{close}");
        let mut stream = Stream::<Value>::new();
        let mut pushed = String::new();
        for piece in text.as_bytes().chunks(5) {
            let piece = std::str::from_utf8(piece).unwrap();
            stream.push(piece);
            pushed.push_str(piece);
            // Where the leaf is cut, the snapshot holds its part so far at its place.
            if pushed.len() <= open.len() {
                continue;
            }
            let shown = &pushed[open.len() + 1..];
            let so_far = &shown[..shown.find('"').unwrap_or(shown.len())];
            // Spaces and a comma at the end of a string still open wait for what follows
            // them; an array's string item shows once its closing quote is decided.
            let decided = so_far.trim_end_matches([' ', ',']);
            // A string shows once its first character is decided.
            let leaf = match decided.is_empty() && !shown.contains('"') {
                false => format!("{open}\"{decided}\"{close}"),
                true => format!("{}{close}", &open[..=open.rfind('{').unwrap()]),
            };
            let no_leaf = format!("{}{close}", open.trim_end().trim_end_matches(','));
            let want: Vec<Value> = match (shown.contains('"'), depth % 2 == 0) {
                (false, false) => vec![serde_json::from_str(&leaf).unwrap()],
                (false, true) => vec![serde_json::from_str(&no_leaf).unwrap()],
                (true, false) => vec![serde_json::from_str(&leaf).unwrap()],
                (true, true) => [leaf, no_leaf]
                    .iter()
                    .map(|w| serde_json::from_str(w).unwrap())
                    .collect(),
            };
            let snap = serde_json::to_value(stream.snapshot()).unwrap();
            assert!(
                want.contains(&snap),
                "depth {depth}, after {:?}: {snap}",
                pushed.len()
            );
        }
        let whole = serde_json::from_str::<Value>(&text).unwrap();
        assert_eq!(serde_json::to_value(stream.snapshot()).unwrap(), whole);
        assert_eq!(stream.finish().unwrap().value, whole, "depth {depth}");
    }
}

/// An item that shows nothing (a word where an object belongs, a `null` where a number does)
/// leaves the item before it the last one, still shown and still growing; the item after it
/// is appended. A `null` in a list of `Option`s is an item, shown in its place.
#[test]
fn an_item_that_shows_nothing_keeps_the_last_one() {
    let text = r#"[{"n": 1, "tags": ["a"]}, null, "x", {"n": 2, "tags": ["b", "c"]}]"#;
    #[derive(llm_extract::Extract, serde::Serialize, Debug)]
    struct Entry {
        n: u32,
        tags: Vec<String>,
    }
    for size in 1..=text.len() {
        let (snaps, _) = stream_at::<Vec<Option<Entry>>>(text, &sized(text, size));
        assert_grows(text, &snaps);
        assert_eq!(
            snaps.last().unwrap(),
            &json!([{"n": 1, "tags": ["a"]}, null, {"n": 2, "tags": ["b", "c"]}]),
            "chunks of {size}"
        );
    }
    let (snaps, _) = stream_at::<Vec<u32>>("[1, null, \"x\", 2]", &[]);
    assert_eq!(snaps, [json!([1, 2])]);
}

/// Damage the parser reads one way only, whatever follows, does not stop the preview: a dict
/// in single quotes, a comment after a string value, a member's comma missing before a quoted
/// key. Each member shows once the bytes that decide it arrive, as `finish` reads it.
#[test]
fn a_python_style_dict_and_comments_stream_member_by_member() {
    for (chunks, shown) in [
        (
            &["{'city': 'Paris', ", "'n': 1, 'tags': ['a', ", "'b']}"][..],
            &[
                json!({"city": "Paris"}),
                json!({"city": "Paris", "n": 1, "tags": ["a"]}),
            ][..],
        ),
        (
            &[
                "{\"a\": \"x\" // first\n",
                ", \"b\": \"y\", /* c */ ",
                "\"c\": 3}",
            ],
            &[json!({"a": "x"}), json!({"a": "x", "b": "y"})],
        ),
        (
            &["{\"a\": \"x\"\n", " \"b\": [1] \"c\": 2", "}"],
            // `2` may go on until the closer arrives.
            &[json!({"a": "x"}), json!({"a": "x", "b": [1]})],
        ),
    ] {
        let mut stream = Stream::<Value>::new();
        for (chunk, want) in chunks.iter().zip(shown) {
            stream.push(chunk);
            assert_eq!(
                &serde_json::to_value(stream.snapshot()).unwrap(),
                want,
                "{chunks:?}"
            );
        }
        stream.push(chunks.last().unwrap());
        let text: String = chunks.concat();
        let done = stream.finish().unwrap();
        assert_eq!(
            done.value,
            llm_extract::extract::<Value>(&text).unwrap().value
        );
    }
}

/// A quote before an item or member whose comma is missing closes its string only when the
/// string's text holds no closer or line break (the parser may end the string at one): the
/// same whether the string arrived whole or in pieces, so the last snapshot does not depend on
/// the chunking.
#[test]
fn a_missing_comma_after_a_string_reads_alike_in_any_chunks() {
    for text in [
        "[['\rx['\r'y],",
        "[[\"a\nb\" \"c\"]]",
        "{\"a\": \"x]\" \"b\": 1}",
        "{\"a\": \"x\r\" b: 1, \"c\": 2}",
        "[\"a\" \"b\"\n\"c\"]",
    ] {
        let (whole, _) = stream_at::<Value>(text, &[]);
        let last = whole.last().unwrap();
        for size in 1..=9 {
            let (snaps, _) = stream_at::<Value>(text, &sized(text, size));
            assert_eq!(
                snaps.last().unwrap(),
                last,
                "{text:?} in {size}-byte chunks"
            );
        }
    }
}
