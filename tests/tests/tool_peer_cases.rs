//! The serving engines' own tool-parser tests (vLLM's and SGLang's), converted to data, run
//! through the tool reader whole (`tool::tool_calls`) and streamed (`StreamCalls` at chunks of
//! 1 and 7 bytes): the calls we return, names and arguments, against the calls their test
//! expects.
//!
//! The fixture and where each case comes from are described in
//! `tests/fixtures/tool_peers/README.md`. Where we answer otherwise on purpose (a call the
//! engine takes from prose we refuse, an engine's bug its test pins), the case carries a
//! `decision` saying why and the calls we return instead (`ours`), and that answer is pinned
//! too. Every other case must agree; [`AGREED_FLOOR`] is a ratchet on their number. Run with
//! `--nocapture` to see every case that disagrees.

use llm_extract::tool::{self, StreamCalls, ToolCall};
use serde::Deserialize;
use serde_json::{Map, Value};

/// Cases whose calls are the engine's, whole and streamed alike. Raise it when the count goes
/// up; a drop below it is a regression.
const AGREED_FLOOR: usize = 153;

#[derive(Deserialize)]
struct Case {
    source: String,
    input: String,
    calls: Vec<Expected>,
    /// Why we answer otherwise than the engine's test, on purpose.
    #[serde(default)]
    decision: Option<String>,
    /// What we return instead, when `decision` is given.
    #[serde(default)]
    ours: Option<Vec<Expected>>,
}

#[derive(Deserialize, Clone, Debug, PartialEq)]
struct Expected {
    name: String,
    arguments: Map<String, Value>,
}

fn cases() -> Vec<Case> {
    serde_json::from_str(include_str!("../fixtures/tool_peers/cases.json"))
        .expect("the fixture is a list of cases")
}

fn as_expected(calls: Vec<ToolCall>) -> Vec<Expected> {
    calls
        .into_iter()
        .map(|c| Expected {
            name: c.name,
            arguments: c.arguments,
        })
        .collect()
}

/// The calls a stream yields when `text` arrives in chunks of `n` bytes (a chunk may cut a
/// character), and whether `finish` failed.
fn streamed(text: &str, n: usize) -> (Vec<Expected>, bool) {
    let mut stream = StreamCalls::<ToolCall>::new();
    let mut got = Vec::new();
    for chunk in text.as_bytes().chunks(n) {
        got.extend(stream.push_bytes(chunk));
    }
    let failed = match stream.finish() {
        Ok(rest) => {
            got.extend(rest);
            false
        }
        Err(_) => true,
    };
    (as_expected(got), failed)
}

/// What the reader makes of `text`: the calls of the whole read, and whether every stream
/// yields the same calls (a stream that fails at the end may have yielded the first of them).
fn read(text: &str) -> (Vec<Expected>, Result<(), String>) {
    let whole = as_expected(tool::tool_calls(text));
    for n in [1, 7] {
        let (got, failed) = streamed(text, n);
        let same = if failed {
            got.len() <= whole.len() && got.iter().zip(&whole).all(|(a, b)| a == b)
        } else {
            got == whole
        };
        if !same {
            return (whole, Err(format!("chunks of {n} yield {got:?}")));
        }
    }
    (whole, Ok(()))
}

#[test]
fn the_engines_tool_parser_tests() {
    let cases = cases();
    let mut agreed = 0;
    let mut wrong = Vec::new();
    for case in &cases {
        let (whole, streams) = read(&case.input);
        if let Err(why) = streams {
            wrong.push(format!(
                "{}: streamed != whole: {why}, whole {whole:?}",
                case.source
            ));
            continue;
        }
        match (&case.decision, &case.ours) {
            (None, _) if whole == case.calls => agreed += 1,
            (None, _) => wrong.push(format!(
                "{}: expected {:?}, got {whole:?}\n  input {:?}",
                case.source, case.calls, case.input
            )),
            (Some(_), Some(ours)) if whole == *ours => {}
            (Some(why), ours) => wrong.push(format!(
                "{}: decided ({why}) to return {ours:?}, got {whole:?}",
                case.source
            )),
        }
    }
    let decided = cases.iter().filter(|c| c.decision.is_some()).count();
    println!(
        "{agreed} of {} cases agree, {decided} decided otherwise",
        cases.len()
    );
    for w in &wrong {
        println!("{w}");
    }
    assert!(
        wrong.is_empty(),
        "{} cases disagree:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(
        agreed >= AGREED_FLOOR,
        "agreement fell to {agreed} (floor {AGREED_FLOOR})"
    );
}

#[test]
fn every_decision_says_what_we_return_instead() {
    for case in cases() {
        assert_eq!(
            case.decision.is_some(),
            case.ours.is_some(),
            "{}: a decision and what we return go together",
            case.source
        );
        if let Some(ours) = &case.ours {
            assert_ne!(*ours, case.calls, "{}: a decision that agrees", case.source);
        }
    }
}
