//! `llm-extract extract --schema FILE`: a reply read against a JSON Schema, as a derived
//! type reads it (coercions, defaults, validation), for callers with no Rust types; and
//! `llm-extract extract --tools FILE`: the reply's tool calls read against a tool list (an
//! OpenAI, Anthropic or MCP list), as an array of `{"name", "arguments"}` (and `"id"` when
//! the call has one), `[]` when the reply makes no call.
//!
//! Exit status: 0 with the value (or the calls) on stdout; 1 when the reply does not read
//! against the schema or the tool list (a call cut off or doubtful, a tool not in the list,
//! arguments that do not fit; the issues on stderr, or with `--json` as one JSON document
//! on stdout); 2 on bad usage: an input, schema or tool list file that cannot be read, one
//! that is not JSON, a schema or tool list that is not valid (named with its JSON pointer).

use crate::repair::output::{dispose, render};
use crate::repair::{io_reason, read_reply};
use llm_extract::tool::{ToolCall, Tools};
use llm_extract::{Error, Extractor, Issue, Position, Schema};
use serde_json::{json, Value};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `llm-extract extract`.
#[derive(clap::Args)]
#[command(group = clap::ArgGroup::new("against").required(true).args(["schema", "tools"]))]
pub struct Args {
    /// The JSON Schema to read the reply against (a JSON file)
    #[arg(long, value_name = "FILE")]
    schema: Option<PathBuf>,
    /// The tool list to read the reply's tool calls against (a JSON file: an OpenAI `tools`
    /// array or request, an Anthropic `tools` array, an MCP `tools/list` result)
    #[arg(long, value_name = "FILE")]
    tools: Option<PathBuf>,
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

/// What the reply is read against.
enum Against {
    Schema(Schema),
    Tools(Tools),
}

/// Runs the command; see the module docs for the exit status.
pub fn run(args: Args) -> ExitCode {
    let against = match load_against(&args) {
        Ok(against) => against,
        Err(message) => {
            eprintln!("llm-extract: {message}");
            return ExitCode::from(2);
        }
    };
    let text = match read_reply(args.file.as_ref()) {
        Ok(input) => input.text,
        Err(code) => return code,
    };
    let mut extractor = Extractor::new().max_depth(args.max_depth);
    if args.require_complete {
        extractor = extractor.require_complete();
    }
    let read = match &against {
        Against::Schema(schema) => extractor.from_str_with(schema, &text),
        Against::Tools(tools) => extractor
            .calls_with(tools, &text)
            .map(|calls| Value::Array(calls.into_iter().map(call_document).collect())),
    };
    match read {
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

/// The schema or the tool list the arguments name, compiled, with a warning on stderr for
/// each keyword the reading does not check; or why not.
fn load_against(args: &Args) -> Result<Against, String> {
    if let Some(path) = &args.tools {
        let tools = load_tools(path)?;
        for name in tools.names() {
            let unsupported = tools.schema(name).map_or(&[][..], Schema::unsupported);
            for keyword in unsupported {
                eprintln!(
                    "llm-extract: warning: {}: tool `{name}`: {keyword}",
                    path.display()
                );
            }
        }
        return Ok(Against::Tools(tools));
    }
    let Some(path) = &args.schema else {
        return Err("give --schema FILE or --tools FILE".into());
    };
    let schema = load_schema(path)?;
    for keyword in schema.unsupported() {
        eprintln!("llm-extract: warning: {}: {keyword}", path.display());
    }
    Ok(Against::Schema(schema))
}

/// A call as the command prints it: `{"name", "arguments"}`, and `"id"` when it has one.
fn call_document(call: ToolCall) -> Value {
    let mut doc = json!({"name": call.name, "arguments": call.arguments});
    if let Some(id) = call.id {
        doc["id"] = json!(id);
    }
    doc
}

/// The schema in `path`, compiled; or why not, naming the file (and, for an invalid
/// schema, the JSON pointer of the fault).
fn load_schema(path: &Path) -> Result<Schema, String> {
    let value = read_json(path, "schema")?;
    Schema::new(&value).map_err(|e| format!("schema {}: {}", path.display(), first_message(&e)))
}

/// The tool list in `path`, each tool's schema compiled; or why not, naming the file (and,
/// for an invalid list, the JSON pointer of the fault).
fn load_tools(path: &Path) -> Result<Tools, String> {
    let value = read_json(path, "tool list")?;
    Tools::from_json(&value)
        .map_err(|e| format!("tool list {}: {}", path.display(), first_message(&e)))
}

/// The JSON document in `path` (a `what`, for messages); or why not.
fn read_json(path: &Path, what: &str) -> Result<Value, String> {
    let name = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {what} {name}: {}", io_reason(&e)))?;
    serde_json::from_str(&text).map_err(|e| {
        let message = e.to_string();
        let reason = message
            .strip_suffix(&format!(" at line {} column {}", e.line(), e.column()))
            .unwrap_or(&message);
        format!(
            "{what} {name} is not JSON: {reason} at line {} column {}",
            e.line(),
            e.column()
        )
    })
}

fn first_message(e: &Error) -> String {
    e.issues()
        .first()
        .map_or_else(|| e.to_string(), |i| i.message.clone())
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
