//! Generated code names everything by absolute path: it compiles without the prelude, next to
//! user types that shadow std names, with raw identifiers and `__`-prefixed field names.

#![no_implicit_prelude]

mod shadowing {
    #![allow(dead_code)] // these types exist only to shadow std names
    pub struct Option;
    pub struct Result;
    pub struct String;
    pub struct Vec;
    pub struct Some;
    pub struct None;
    pub struct Ok;
    pub struct Err;
    pub struct Box;
    pub struct Default;
}

#[allow(unused_imports)] // imported to shadow the std names in the generated code's scope
use shadowing::*;

#[derive(::llm_extract::Extract, ::std::fmt::Debug, ::std::cmp::PartialEq)]
#[extract(rename_all = "camelCase")]
struct Hygienic {
    r#type: ::std::string::String,
    __node: ::std::option::Option<u8>,
    __cx: ::std::vec::Vec<u8>,
    #[extract(default, min = 1)]
    user_id: u32,
}

#[derive(::llm_extract::Extract, ::std::fmt::Debug, ::std::cmp::PartialEq)]
#[extract(tag = "kind")]
enum Shape {
    Dot,
    Line { len: f64 },
}

#[derive(::llm_extract::Extract, ::std::fmt::Debug, ::std::cmp::PartialEq)]
enum Level {
    Low,
    #[extract(other)]
    Unknown,
}

#[derive(::llm_extract::Extract, ::std::fmt::Debug, ::std::cmp::PartialEq)]
#[extract(untagged)]
enum Either<L, R> {
    Left(L),
    Right(R),
}

#[test]
fn generated_code_is_hygienic() {
    let v: Hygienic =
        ::llm_extract::from_str(r#"{"type": "t", "Node": 3, "cx": [1], "userId": 2}"#).unwrap();
    ::std::assert_eq!(
        v,
        Hygienic {
            r#type: ::std::string::ToString::to_string("t"),
            __node: ::std::option::Option::Some(3),
            __cx: ::std::vec![1],
            user_id: 2
        }
    );
    let s: Shape = ::llm_extract::from_str(r#"{"kind": "Line", "len": 2}"#).unwrap();
    ::std::assert_eq!(s, Shape::Line { len: 2.0 });
    let e: Either<u8, ::std::string::String> = ::llm_extract::from_str(r#""x""#).unwrap();
    ::std::assert_eq!(e, Either::Right(::std::string::ToString::to_string("x")));
    let l: Level = ::llm_extract::from_str(r#""LOW""#).unwrap();
    ::std::assert_eq!(l, Level::Low);
    let schema = ::llm_extract::json_schema::<Either<u8, bool>>();
    ::std::assert_eq!(schema.as_value()["title"], "Either_for_uint8_and_boolean");
}
