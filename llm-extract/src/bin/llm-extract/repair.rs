//! `llm-extract repair`.

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `llm-extract repair`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file; standard input when absent or `-`
    file: Option<PathBuf>,
}

pub fn run(args: Args) -> ExitCode {
    let _ = args.file;
    ExitCode::from(2)
}
