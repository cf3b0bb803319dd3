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

/// A crate that re-exports the runtime under another name, as a framework built on it would.
mod framework {
    pub use ::llm_extract as extraction;
}

#[derive(framework::extraction::Extract, ::std::fmt::Debug, ::std::cmp::PartialEq)]
#[extract(crate = "framework::extraction")]
struct ThroughReexport {
    #[extract(min_len = 1, one_of = ["a", "b"])]
    name: ::std::string::String,
}

#[derive(framework::extraction::Extract, ::std::fmt::Debug, ::std::cmp::PartialEq)]
#[extract(crate = framework::extraction, tag = "name", content = "arguments")]
enum ToolThroughReexport {
    Run { __content: u8, __raw: u8 },
    Stop,
}

#[test]
fn generated_paths_go_through_the_crate_attribute() {
    let v: ThroughReexport = framework::extraction::from_str(r#"{"name": "a"}"#).unwrap();
    ::std::assert_eq!(
        v,
        ThroughReexport {
            name: ::std::string::ToString::to_string("a")
        }
    );
    let t: ToolThroughReexport = framework::extraction::from_str(
        r#"{"name": "run", "arguments": {"__content": 1, "__raw": 2}}"#,
    )
    .unwrap();
    ::std::assert_eq!(
        t,
        ToolThroughReexport::Run {
            __content: 1,
            __raw: 2
        }
    );
    let schema = framework::extraction::json_schema::<ToolThroughReexport>();
    ::std::assert_eq!(schema.as_value()["oneOf"][1]["required"][0], "name");
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
