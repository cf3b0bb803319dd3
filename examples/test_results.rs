//! Test results from an LLM test runner, in whatever shape the model chose.
//!
//! Run with `cargo run --example test_results`.

use llm_extract_examples::test_results::*;

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
