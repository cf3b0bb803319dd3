//! What a suite run gives: each case's results, the counts over the run, their labels, and
//! the writing of them to standard output (where a failed write fails the run). Below the
//! suite runner and the history store, which both read them.

use llm_extract::assert::{AssertionResult, Outcome};
use serde_json::Value;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// A case after evaluation.
pub(crate) struct CaseResult {
    pub name: String,
    pub errors: Vec<String>,
    /// The model's raw text, when it could be read.
    pub output: Option<String>,
    /// The JSON value found in the output; `None` when it holds none (assertions then see the
    /// text as a string).
    pub repaired: Option<Value>,
    pub results: Vec<AssertionResult>,
}

impl CaseResult {
    pub fn passed(&self) -> bool {
        self.errors.is_empty() && self.results.iter().all(|r| r.outcome == Outcome::Pass)
    }
}

/// Counts over a whole run.
#[derive(Default, Clone, Copy)]
pub(crate) struct Summary {
    pub assertions: usize,
    pub cases: usize,
    pub passed: usize,
    pub failed: usize,
    pub errors: usize,
}

impl Summary {
    pub fn line(&self) -> String {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        format!(
            "{} in {}: {} passed, {} failed, {}",
            plural(self.assertions, "assertion", "assertions"),
            plural(self.cases, "case", "cases"),
            self.passed,
            self.failed,
            plural(self.errors, "error", "errors"),
        )
    }
}

/// Set when writing to stdout failed other than by the reader closing the pipe.
static OUTPUT_FAILED: AtomicBool = AtomicBool::new(false);

/// Writes to stdout. A closed pipe is ignored (`llm-extract test ... | head` must not panic);
/// any other failure (a full disk) is reported once and fails the run (see `output_status`).
pub(crate) fn print_out(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe
            && !OUTPUT_FAILED.swap(true, Ordering::Relaxed)
        {
            eprintln!("error: cannot write to standard output: {e}");
        }
    }
}

/// `status`, or 2 when the output could not be written.
pub(crate) fn output_status(status: u8) -> ExitCode {
    ExitCode::from(if OUTPUT_FAILED.load(Ordering::Relaxed) {
        2
    } else {
        status
    })
}

/// The label of each result: the assertion's id, or `#n`.
pub(crate) fn labels(result: &CaseResult) -> impl Iterator<Item = String> + '_ {
    result.results.iter().enumerate().map(|(i, r)| {
        if r.assertion_id.is_empty() {
            format!("#{}", i + 1)
        } else {
            r.assertion_id.clone()
        }
    })
}
