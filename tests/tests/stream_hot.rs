//! Streaming: a chunk that only grows the string being read is appended to it directly,
//! without the walk down from the root (`stream/hot.rs`). These tests hold that shortcut to
//! the ordinary path's results on derived types, where it applies:
//!
//! - each snapshot is the one a fresh stream shows for the same text pushed at once (which
//!   reads it all on the ordinary path), whatever the chunks;
//! - a snapshot a caller holds never changes (the shortcut writes only where no snapshot can
//!   see), whether the caller holds every snapshot, some, or none;
//! - a stream moved between pushes goes on correctly (the string's place in the root is kept
//!   relative to the root);
//! - `finish` is `extract`.
//!
//! Each check runs on a derived type and on `serde_json::Value` (whose partial, `PartialJson`,
//! takes the shortcut through its arrays and objects).

use llm_extract::{Extract, Stream};
use proptest::prelude::*;
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Extract, Debug, PartialEq)]
enum Kind {
    Memo,
    Report,
}

#[derive(Extract, Debug, PartialEq)]
struct Inner {
    text: String,
    more: Vec<String>,
}

#[derive(Extract, Debug, PartialEq)]
struct Section {
    heading: String,
    body: String,
    notes: Vec<String>,
    #[extract(stream = "done")]
    summary: Option<String>,
    grid: Vec<Vec<String>>,
    boxed: Option<Box<Inner>>,
    kind: Option<Kind>,
}

#[derive(Extract, Debug, PartialEq)]
struct Meta {
    author: String,
    inner: Inner,
}

#[derive(Extract, Debug, PartialEq)]
struct Doc {
    title: String,
    sections: Vec<Section>,
    tags: Vec<String>,
    meta: Option<Meta>,
    extra: BTreeMap<String, String>,
}

/// A document that exercises every kind of place a string can grow in.
fn document(words: &[String]) -> String {
    let w = |i: usize| -> &str {
        words
            .get(i % words.len().max(1))
            .map_or("x", |s| s.as_str())
    };
    let quoted = |s: &str| serde_json::to_string(s).unwrap();
    let long = |i: usize| -> String { (0..8).map(|k| w(i + k)).collect::<Vec<_>>().join(" ") };
    let section = |i: usize| {
        format!(
            "{{\"heading\": {}, \"body\": {}, \"notes\": [{}, {}], \"summary\": {}, \"grid\": [[{}], [{}, {}]], \"boxed\": {{\"text\": {}, \"more\": [{}]}}, \"kind\": \"report\"}}",
            quoted(w(i)),
            quoted(&long(i + 1)),
            quoted(&long(i + 2)),
            quoted(w(i + 3)),
            quoted(&long(i + 4)),
            quoted(&long(i + 5)),
            quoted(w(i + 6)),
            quoted(&long(i + 7)),
            quoted(&long(i + 8)),
            quoted(&long(i + 9)),
        )
    };
    format!(
        "<think>Plan the document.</think>\n```json\n{{\"title\": {}, \"sections\": [{}, {}], \"tags\": [{}, {}], \"meta\": {{\"author\": {}, \"inner\": {{\"text\": {}, \"more\": [{}]}}}}, \"extra\": {{\"a\": {}, \"b\": {}}}}}\n```\nDone.",
        quoted(&long(0)),
        section(10),
        section(20),
        quoted(&long(30)),
        quoted(&long(31)),
        quoted(&long(32)),
        quoted(&long(33)),
        quoted(&long(34)),
        quoted(&long(35)),
        quoted(&long(36)),
    )
}

fn shown<P: serde::Serialize>(p: &P) -> Value {
    serde_json::to_value(p).unwrap()
}

/// The snapshot of a fresh stream given `text` in one push.
fn at_once<T: Extract>(text: &str) -> Value {
    let mut stream = Stream::<T>::new();
    stream.push(text);
    shown(&stream.snapshot())
}

/// Pushes `text` cut at `cuts`, holding the snapshots `hold` picks, moving the stream to a
/// new place every `moves` pushes; checks every snapshot against a fresh stream's and every
/// held one against what it showed.
fn check(text: &str, cuts: &[usize], hold: impl Fn(usize) -> bool + Copy, moves: usize) {
    check_as::<Doc>(text, cuts, hold, moves);
    // The same text untyped: `PartialJson`'s strings, arrays and objects take the shortcut too.
    check_as::<Value>(text, cuts, hold, moves);
}

fn check_as<T: Extract + PartialEq + std::fmt::Debug>(
    text: &str,
    cuts: &[usize],
    hold: impl Fn(usize) -> bool,
    moves: usize,
) {
    let mut stream = Box::new(Stream::<T>::new());
    let mut held = Vec::new();
    let mut from = 0;
    for (n, &cut) in cuts.iter().chain(std::iter::once(&text.len())).enumerate() {
        let mut cut = cut.clamp(from, text.len());
        while !text.is_char_boundary(cut) {
            cut += 1;
        }
        stream.push(&text[from..cut]);
        from = cut;
        let snap = stream.snapshot();
        let seen = shown(&snap);
        assert_eq!(
            seen,
            at_once::<T>(&text[..cut]),
            "after {cut} bytes in {n} pushes"
        );
        if hold(n) {
            held.push((snap, seen));
        }
        if moves > 0 && n % moves == 0 {
            // A new place for the whole stream (its root value moves with it): a new
            // allocation is the point.
            let moved: Stream<T> = *stream;
            #[allow(clippy::replace_box)]
            {
                stream = Box::new(moved);
            }
        }
    }
    for (snap, seen) in &held {
        assert_eq!(&shown(snap), seen, "a held snapshot changed");
    }
    let whole = llm_extract::extract::<T>(text).unwrap().value;
    assert_eq!(stream.finish().unwrap().value, whole);
}

fn words() -> Vec<String> {
    [
        "plain",
        "with \"quotes\" inside",
        "back\\slash",
        "tab\there",
        "line\nbreak",
        "ünïcödé ✓",
        "emoji 🦀🦀",
        "a/b",
        "'single'",
        "{braces} [brackets], commas: colons",
        "<think>not a tag</think>",
        "```fence```",
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn every_chunk_size_matches_the_ordinary_path() {
    let text = document(&words());
    for size in 1..=24 {
        let cuts: Vec<usize> = (1..)
            .map(|i| i * size)
            .take_while(|&c| c < text.len())
            .collect();
        check(&text, &cuts, |n| n % 3 == 0, 0);
    }
}

#[test]
fn held_snapshots_never_change_whoever_holds_them() {
    let text = document(&words());
    let cuts: Vec<usize> = (1..)
        .map(|i| i * 5)
        .take_while(|&c| c < text.len())
        .collect();
    check(&text, &cuts, |_| true, 0);
    check(&text, &cuts, |_| false, 0);
    check(&text, &cuts, |n| n % 7 < 2, 0);
}

#[test]
fn a_stream_moved_between_pushes_goes_on() {
    let text = document(&words());
    for size in [1, 3, 16] {
        let cuts: Vec<usize> = (1..)
            .map(|i| i * size)
            .take_while(|&c| c < text.len())
            .collect();
        check(&text, &cuts, |n| n % 5 == 0, 1);
        check(&text, &cuts, |_| false, 3);
    }
}

#[test]
fn a_separator_then_a_character_outside_ascii_reads_as_at_once() {
    // A `,` inside a string may start the next member; a whole character after it that is not
    // a space or a quote says it does not, in whichever push it arrives.
    for (before, after) in [
        ("{\"title\": \"a,", "é"),
        ("{\"title\": \"a, ", "é"),
        ("{\"title\": \"a,", "\u{800}"),
        ("{\"title\": \"a,", "🦀"),
        ("{\"title\": \"a,", "\u{3000}"),
        ("{\"title\": \"a,\n", "ü: 1"),
    ] {
        let text = format!("{before}{after}\"}}");
        let cuts = [before.len(), before.len() + after.len()];
        check_as::<Value>(&text, &cuts, |_| true, 0);
    }
    let mut stream = Stream::<Value>::new();
    stream.push("{\"title\": \"a,");
    stream.push("é");
    assert_eq!(
        shown(&stream.snapshot()),
        serde_json::json!({"title": "a,é"})
    );
}

#[test]
fn a_key_with_dots_or_letters_outside_ascii_reads_as_at_once_cut_anywhere() {
    // Whether the quote before `, 2.17:` closes its string waits on the key's word.
    for text in [
        "{\n  \"a\": \"b\",\n  2.17: \"e\",\n  x: \"n\"\n}",
        "{\"a\": \"b\", user.name: \"e\"}",
        "{\"a\": \"b\", año: \"e\"}",
        "{\"a\": \"He said \"no\", e.g.: fine\"}",
    ] {
        for cut in (1..text.len()).filter(|&c| text.is_char_boundary(c)) {
            check_as::<Value>(text, &[cut], |_| true, 0);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random words (any characters, escapes, quotes) cut at random places.
    #[test]
    fn random_text_in_random_chunks(
        words in prop::collection::vec(".{0,12}", 1..12),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..64),
        hold in 0usize..4,
        moves in 0usize..4,
    ) {
        let text = document(&words);
        let mut cuts: Vec<usize> = cuts.iter().map(|i| i.index(text.len() + 1)).collect();
        cuts.sort_unstable();
        check(&text, &cuts, |n| hold > 0 && n % hold == 0, moves);
    }
}

/// Small enough for Miri (`cargo +nightly miri test -p llm-extract-tests --test stream_hot
/// small`), which checks the shortcut's pointers: every kind of place a string grows in,
/// chunks of 3 bytes, every other snapshot held, the stream moved every push.
#[test]
fn small_reply_held_and_moved() {
    small_as::<Doc>();
    small_as::<Value>();
}

fn small_as<T: Extract + PartialEq + std::fmt::Debug>() {
    let text = document(&["a\"b".to_string(), "cd\\e".to_string(), "ü".to_string()]);
    let mut stream = Box::new(Stream::<T>::new());
    let mut held = Vec::new();
    let bytes = text.as_bytes();
    for (n, piece) in bytes.chunks(3).enumerate() {
        stream.push_bytes(piece);
        let snap = stream.snapshot();
        if n % 2 == 0 {
            held.push((shown(&snap), snap));
        }
        let moved: Stream<T> = *stream;
        #[allow(clippy::replace_box)]
        {
            stream = Box::new(moved);
        }
    }
    for (seen, snap) in &held {
        assert_eq!(&shown(snap), seen, "a held snapshot changed");
    }
    assert_eq!(shown(&stream.snapshot()), at_once::<T>(&text));
    let whole = llm_extract::extract::<T>(&text).unwrap().value;
    assert_eq!(stream.finish().unwrap().value, whole);
}

/// Strings whose text holds what a string's end may still cut (separators, spaces, closers),
/// escapes, and the other quote, in either quote, with damage around them: each snapshot is
/// the one the text so far gives at once, cut anywhere.
#[test]
fn text_the_end_may_cut_grows_as_read_at_once() {
    let texts = [
        r#"{'body': 'one, two,  three \' four "five" six, ', 'n': 1}"#,
        r#"{"body": "say 'hi', then \"go\" \u00e9\ud83e\udd80 done ,  ", "more": ["a, 'b': 1", "x } y ] z"]}"#,
        r#"{"body": "a missing close, "next": 1}"#,
        r#"{'a': 'x, "b": 1}"#,
        r#"{"a": "trailing spaces and commas ,, ", "b": "back\\slash \/ tab\t"}"#,
        r#"["item, 'quoted' one", 'two, "x": y', "three \"q\" ,"]"#,
        // Escapes with text the end may cut after them, within one chunk.
        r#"{"body": "He said \"yes\",  then \"no\" ,  and\nmore \\ end , ", "b": "x\t, "}"#,
        r#"{'a': 'it\'s,  \'fine\' ,, ', 'b': 'tab\t\t ,'}"#,
        // Spaces at a chunk's end, which the next chunk's text decides; Unicode spaces; a
        // quote read as text, after which nothing is decided until the string closes.
        "{\"body\": \"one two  three\u{a0}four \u{3000}five six   seven eight nine\", \"b\": \"x\"}",
        r#"{"body": "the app "freezes" on  startup  and then   some", "b": "y"}"#,
    ];
    #[derive(Extract, Debug, PartialEq)]
    struct Loose {
        body: Option<String>,
        more: Option<Vec<String>>,
        a: Option<String>,
        b: Option<String>,
    }
    for text in texts {
        for size in [1, 2, 3, 7, 12, 16] {
            let cuts: Vec<usize> = (size..text.len()).step_by(size).collect();
            check_as::<Value>(text, &cuts, |n| n % 3 == 0, 0);
            match text.starts_with('[') {
                true => check_as::<Vec<String>>(text, &cuts, |n| n % 3 == 0, 0),
                false => check_as::<Loose>(text, &cuts, |n| n % 3 == 0, 0),
            }
        }
    }
}

/// Six lists deep, typed: every list on the way is an allocation the shortcut checks.
type Deep = Vec<Vec<Vec<Vec<Vec<Vec<String>>>>>>;

#[test]
fn a_string_many_lists_deep_takes_the_shortcut_as_safely() {
    let body = words().join(" ").replace('\\', "\\\\").replace('"', "\\\"");
    let strings = format!("\"{body}\", \"{body}\"")
        .replace('\n', "\\n")
        .replace('\t', "\\t");
    let lists = format!("{}{strings}{}", "[".repeat(6), "]".repeat(6));
    // Lists and objects twelve levels deep, for `PartialJson`.
    let mixed = format!(
        "{}{}{strings}{}{}",
        "[{\"k\": ".repeat(6),
        "[",
        "]",
        "}]".repeat(6)
    );
    for size in [1, 4, 13] {
        let cuts = |text: &str| -> Vec<usize> {
            (1..)
                .map(|i| i * size)
                .take_while(|&c| c < text.len())
                .collect()
        };
        for (hold, moves) in [(0, 0), (1, 0), (3, 2)] {
            let hold = move |n: usize| hold > 0 && n.is_multiple_of(hold);
            check_as::<Deep>(&lists, &cuts(&lists), hold, moves);
            check_as::<Value>(&lists, &cuts(&lists), hold, moves);
            check_as::<Value>(&mixed, &cuts(&mixed), hold, moves);
        }
    }
}
