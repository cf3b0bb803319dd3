//! The `llm-extract` command: the library's operations for shells and CI.
//!
//! Exit status: 0 on success, 1 when no value is found (or it does not read against the
//! schema, or a test fails), 2 on bad usage.

mod extract;
mod history;
mod repair;
mod suite;
mod workbench;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "llm-extract",
    version,
    about = "Turn what language models write into valid JSON"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the repaired JSON of the best value in FILE (or stdin)
    Repair(repair::Args),
    /// Print the value in FILE (or stdin) read against a JSON Schema (coerced, defaulted,
    /// validated), or its tool calls read against a tool list
    Extract(extract::Args),
    /// Run a suite of assertions over model outputs
    Test(suite::TestArgs),
    /// Propose assertions for a sample output
    Scaffold(suite::ScaffoldArgs),
    /// List the recorded runs of a suite
    History(history::HistoryArgs),
    /// Print the assertions whose status changed between two runs (default: the last two)
    Diff(history::DiffArgs),
    /// Serve the workbench page for a suite on 127.0.0.1 (edit, preview, history)
    Ui(workbench::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli.command {
        Command::Repair(args) => repair::run(args),
        Command::Extract(args) => extract::run(args),
        Command::Test(args) => suite::test(args),
        Command::Scaffold(args) => suite::scaffold(args),
        Command::History(args) => history::history(args),
        Command::Diff(args) => history::diff(args),
        Command::Ui(args) => workbench::run(args),
    }
}
