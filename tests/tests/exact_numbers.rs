//! Numbers exactly as written (feature `arbitrary_precision`): integers beyond `u64` and
//! numbers beyond `f64` survive `repair` and `serde_json::Value` targets, through every path
//! (valid JSON, damaged JSON, fenced, the typed path), and typed numbers read as before.
#![cfg(feature = "arbitrary_precision")]

use llm_extract::{Extract, Extractor};
use serde_json::{json, Value};

const BIG: &str = "123456789012345678901234567890";

fn number(v: &Value) -> &str {
    match v {
        Value::Number(n) => n.as_str(),
        other => panic!("not a number: {other}"),
    }
}

#[test]
fn repair_keeps_numbers_as_written_valid_or_not() {
    let valid = format!("{{\"big\": {BIG}, \"neg\": -{BIG}, \"huge\": 1e400, \"tiny\": 1e-400, \"f\": 1.50, \"z\": -0}}");
    for text in [
        valid.clone(),
        format!("Sure:\n```json\n{valid}\n```"),
        valid.replace('"', "'"),
        format!("{valid} // done"),
        valid.replace('}', ","),
    ] {
        for v in [
            llm_extract::repair(&text).unwrap(),
            llm_extract::extract::<Value>(&text).unwrap().value,
            llm_extract::repair_all(&text).unwrap().remove(0),
            llm_extract::from_str_all::<Value>(&text).unwrap().remove(0),
        ] {
            assert_eq!(number(&v["big"]), BIG, "{text}");
            assert_eq!(number(&v["neg"]), format!("-{BIG}"), "{text}");
            // serde_json's spelling of a positive exponent.
            assert_eq!(number(&v["huge"]), "1e+400", "{text}");
            assert_eq!(number(&v["tiny"]), "1e-400", "{text}");
            assert_eq!(number(&v["f"]), "1.50", "{text}");
            assert_eq!(number(&v["z"]), "-0", "{text}");
        }
    }
}

#[test]
fn valid_json_is_what_serde_json_reads() {
    for text in [
        "[1E5, 2.0e-3, 0.1, 100, -7]",
        "{\"a\": [3.14159265358979323846264338327950288]}",
    ] {
        let expected: Value = serde_json::from_str(text).unwrap();
        assert_eq!(llm_extract::repair(text).unwrap(), expected);
        assert_eq!(llm_extract::extract::<Value>(text).unwrap().value, expected);
        // Through the tolerant parser too: a trailing comma keeps serde_json out.
        let (body, closer) = text.split_at(text.len() - 1);
        let damaged = format!("Result: {body},{closer} // ok");
        assert_eq!(llm_extract::repair(&damaged).unwrap(), expected);
    }
}

#[test]
fn non_standard_numbers_are_written_as_json() {
    let v = llm_extract::repair(&format!("[+{BIG}, .5, 5., 1_000, 0x1F, 2e, NaN]")).unwrap();
    let written: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.to_string())
        .collect();
    assert_eq!(written, [BIG, "0.5", "5.0", "1000", "31", "2.0", "null"]);
}

#[derive(Extract, Debug)]
struct Reading {
    raw: Value,
    count: u64,
    ratio: f64,
    small: Option<i8>,
}

#[test]
fn typed_numbers_read_as_before_and_value_fields_stay_exact() {
    let r: Reading = llm_extract::from_str(&format!(
        "{{'raw': {{'n': {BIG}}}, 'count': '42', 'ratio': 1e400, 'small': -3.0}}"
    ))
    .unwrap();
    assert_eq!(number(&r.raw["n"]), BIG);
    assert_eq!(r.count, 42);
    assert_eq!(r.ratio, f64::INFINITY);
    assert_eq!(r.small, Some(-3));
    let err = llm_extract::from_str::<Reading>(&format!(
        "{{'raw': 1, 'count': {BIG}, 'ratio': 1, 'small': 1}}"
    ))
    .unwrap_err();
    assert!(err.to_string().contains("out of range for u64"), "{err}");
    // `json!` numbers are what serde_json writes for them.
    assert_eq!(
        llm_extract::repair("{'a': 1.5}").unwrap(),
        json!({"a": 1.5})
    );
    let e = Extractor::new().max_depth(4);
    assert!(e.repair("[[[[[1e400]]]]]").is_err());
}
