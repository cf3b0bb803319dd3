//! `llm-extract test` and `llm-extract scaffold` (placeholder until the assertions land).

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `llm-extract test`.
#[derive(clap::Args)]
pub struct TestArgs {
    /// The suite file (JSON)
    suite: PathBuf,
}

/// Arguments of `llm-extract scaffold`.
#[derive(clap::Args)]
pub struct ScaffoldArgs {
    /// A sample model output
    output: PathBuf,
}

pub fn test(args: TestArgs) -> ExitCode {
    eprintln!("llm-extract test: not available yet ({})", args.suite.display());
    ExitCode::from(2)
}

pub fn scaffold(args: ScaffoldArgs) -> ExitCode {
    eprintln!("llm-extract scaffold: not available yet ({})", args.output.display());
    ExitCode::from(2)
}
