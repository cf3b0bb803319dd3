//! Seed 000: test results from an LLM test runner, in whatever shape the model chose.
//!
//! Run with `cargo run -p llm-extract-examples --example seed_000_test_results`.

// The types are shown through `Debug`, which the dead-code lint does not count as a read.
#![allow(dead_code)]

use llm_extract::Extract;

#[derive(Extract, Debug, PartialEq)]
#[extract(rename_all = "lowercase")]
enum TestStatus {
    Pass,
    Fail,
    Error,
    Invalid,
    Skip,
    /// Any other status; turned into an error result below.
    #[extract(other)]
    Unknown(String),
}

#[derive(Extract, Debug)]
struct TestResult {
    status: TestStatus,
    #[extract(catch, strict)]
    id: Option<String>,
    #[extract(catch, strict)]
    expectation: Option<String>,
    #[extract(catch, strict)]
    observed: Option<String>,
    #[extract(catch, strict)]
    error: Option<String>,
}

fn main() {
    let replies = [
        r#"[{"id":"a","status":"pass"},{"id":"b","status":"fail","expectation":"200","observed":"500"}]"#,
        r#"Here is the result: {"id":"c","status":"PASS"} Hope that helps!"#,
        "```json\n{\"id\": \"d\", \"status\": \"exploded\", \"observed\": 42}\n```",
        "Sorry, I could not run the tests.",
    ];
    for reply in replies {
        match llm_extract::from_str_all::<TestResult>(reply) {
            Ok(results) => {
                for mut r in results {
                    if let TestStatus::Unknown(raw) = &r.status {
                        r.error = Some(format!("unknown status {raw:?}"));
                        r.status = TestStatus::Error;
                    }
                    println!("{r:?}");
                }
            }
            Err(e) => println!("error: {e}"),
        }
    }
}
