//! `llm-extract extract --schema FILE`: a reply read against a JSON Schema, as a derived
//! type reads it (coercions, defaults, validation), for callers with no Rust types.
//!
//! Exit status: 0 with the value on stdout; 1 when the reply does not read against the
//! schema (the issues on stderr, or with `--json` as one JSON document on stdout); 2 on bad
//! usage: an input or schema file that cannot be read, a schema that is not JSON or not a
//! valid schema (named with its JSON pointer).

use crate::repair::output::{dispose, render};
use crate::repair::{io_reason, read_reply};
use llm_extract::{Error, Extractor, Issue, Position, Schema};
use serde_json::{json, Value};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `llm-extract extract`.
#[derive(clap::Args)]
pub struct Args {
    /// The JSON Schema to read the reply against (a JSON file)
    #[arg(long, value_name = "FILE")]
    schema: PathBuf,
    /// Input file; standard input when absent or `-`
    file: Option<PathBuf>,
    /// Indent the output
    #[arg(long)]
    pretty: bool,
    /// On failure, print the issues as one JSON document on stdout (`{"error": {"category",
    /// "issues": [{"category", "path", "message", "line", "column", ...}]}}`), still with
    /// exit status 1
    #[arg(long)]
    json: bool,
    /// Maximum nesting depth
    #[arg(long, value_name = "N", default_value_t = 128)]
    max_depth: usize,
    /// Treat a value cut off by the end of the input as an error
    #[arg(long)]
    require_complete: bool,
}

/// Runs the command; see the module docs for the exit status.
pub fn run(args: Args) -> ExitCode {
    let schema = match load_schema(&args.schema) {
        Ok(schema) => schema,
        Err(message) => {
            eprintln!("llm-extract: {message}");
            return ExitCode::from(2);
        }
    };
    for keyword in schema.unsupported() {
        eprintln!("llm-extract: warning: {}: {keyword}", args.schema.display());
    }
    let text = match read_reply(args.file.as_ref()) {
        Ok(input) => input.text,
        Err(code) => return code,
    };
    let mut extractor = Extractor::new().max_depth(args.max_depth);
    if args.require_complete {
        extractor = extractor.require_complete();
    }
    match extractor.from_str_with(&schema, &text) {
        Ok(value) => print(value, args.pretty),
        Err(e) => {
            let e = e.with_positions(&text);
            if args.json {
                print(error_document(&e), args.pretty);
            } else {
                for issue in e.issues() {
                    eprintln!("llm-extract: {issue}");
                }
            }
            ExitCode::from(1)
        }
    }
}

/// The schema in `path`, compiled; or why not, naming the file (and, for an invalid
/// schema, the JSON pointer of the fault).
fn load_schema(path: &Path) -> Result<Schema, String> {
    let name = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read schema {name}: {}", io_reason(&e)))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| {
        let message = e.to_string();
        let reason = message
            .strip_suffix(&format!(" at line {} column {}", e.line(), e.column()))
            .unwrap_or(&message);
        format!(
            "schema {name} is not JSON: {reason} at line {} column {}",
            e.line(),
            e.column()
        )
    })?;
    Schema::new(&value).map_err(|e| {
        let why = e
            .issues()
            .first()
            .map_or_else(|| e.to_string(), |i| i.message.clone());
        format!("schema {name}: {why}")
    })
}

/// The error as the JSON document `--json` prints: its category and every issue, each with
/// its line and column in the reply (`null` when the issue has no place in the text).
fn error_document(e: &Error) -> Value {
    let issues: Vec<Value> = e.issues().iter().map(issue_document).collect();
    json!({"error": {"category": e.category().to_string(), "issues": issues}})
}

fn issue_document(issue: &Issue) -> Value {
    let position: Option<Position> = issue.position;
    let mut doc = json!({
        "category": issue.category.to_string(),
        "path": issue.path.to_string(),
        "message": issue.message,
        "line": position.map(|p| p.line),
        "column": position.map(|p| p.column),
    });
    if let Some(expected) = &issue.expected {
        doc["expected"] = json!(expected);
    }
    if let Some(found) = &issue.found {
        doc["found"] = json!(found);
    }
    doc
}

/// Prints `value` on stdout; a closed pipe ends the run quietly, any other failure to
/// write is status 2.
fn print(value: Value, pretty: bool) -> ExitCode {
    let text = render(&value, pretty);
    dispose(value);
    let mut out = io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!(
                "llm-extract: cannot write to standard output: {}",
                io_reason(&e)
            );
            ExitCode::from(2)
        }
    }
}
