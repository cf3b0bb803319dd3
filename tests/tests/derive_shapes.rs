//! Unusual shapes the derive must accept: empty types, all fields skipped, discriminants,
//! where clauses, defaulted generic parameters.

#![allow(dead_code)] // the shapes are the test; most fields are never read

use llm_extract::Extract;
use std::fmt::Debug;

#[derive(Extract, Debug)]
enum Never {}

#[derive(Extract, Debug, PartialEq)]
struct EmptyBraces {}

#[derive(Extract, Debug, PartialEq)]
struct EmptyTuple();

#[derive(Extract, Debug, PartialEq, Default)]
struct OnlySkipped {
    #[extract(skip)]
    cache: Vec<u8>,
}

#[derive(Extract, Debug, PartialEq)]
enum Coded {
    One = 1,
    Two = 2,
}

#[derive(Extract, Debug, PartialEq)]
struct Bounded<T: Debug, U = u8>
where
    T: Clone,
{
    t: T,
    u: Option<U>,
}

#[derive(Extract, Debug, PartialEq)]
struct Phantom<T> {
    #[extract(skip)]
    marker: std::marker::PhantomData<T>,
    n: u8,
}

struct NotExtract;

#[test]
fn unusual_shapes() {
    assert!(llm_extract::from_str::<Never>(r#""x""#).is_err());
    assert_eq!(
        llm_extract::from_str::<EmptyBraces>("{}").unwrap(),
        EmptyBraces {}
    );
    assert_eq!(
        llm_extract::from_str::<EmptyTuple>("[]").unwrap(),
        EmptyTuple()
    );
    assert_eq!(
        llm_extract::from_str::<OnlySkipped>(r#"{"cache": [1]}"#).unwrap(),
        OnlySkipped::default()
    );
    assert_eq!(
        llm_extract::from_str::<Coded>(r#""two""#).unwrap(),
        Coded::Two
    );
    let b: Bounded<String> = llm_extract::from_str(r#"{"t": "x", "u": 3}"#).unwrap();
    assert_eq!(
        b,
        Bounded {
            t: "x".to_string(),
            u: Some(3)
        }
    );
    // A skipped field's type parameter needs no `Extract` bound.
    let p: Phantom<NotExtract> = llm_extract::from_str(r#"{"n": 1}"#).unwrap();
    assert_eq!(p.n, 1);
    let _ = llm_extract::json_schema::<Never>();
    let _ = llm_extract::prompt_format::<EmptyBraces>();
}
