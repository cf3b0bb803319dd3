//! `llm-extract repair`: the repaired JSON of a model reply, for shells and CI.

mod batch;
pub(crate) mod output;

use output::{dispose, render};

use llm_extract::{Category, Extracted, Extractor, Issue, Position, Repair, RepairKind, Span};
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `llm-extract repair`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file; standard input when absent or `-`
    file: Option<PathBuf>,
    /// Print every value found, as one JSON array
    #[arg(long)]
    all: bool,
    /// Indent the output
    #[arg(long)]
    pretty: bool,
    /// Print the repairs that were applied on stderr
    #[arg(long)]
    explain: bool,
    /// Batch mode: each input line is a JSON string holding one raw text. Output line N
    /// answers input line N: the repaired value (compact), or an empty line when there is
    /// none, with the reason on stderr as `llm-extract: input line N: <reason>`
    #[arg(long)]
    jsonl: bool,
    /// With --jsonl: repair lines on this many threads (default: one per core); the output
    /// keeps the input's order
    #[arg(long, value_name = "N", requires = "jsonl",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    jobs: Option<usize>,
    /// Text right after this marker is looked at first (repeatable)
    #[arg(long, value_name = "TEXT")]
    marker: Vec<String>,
    /// Skip candidates larger than this many bytes
    #[arg(long, value_name = "BYTES")]
    max_payload: Option<usize>,
    /// Maximum nesting depth
    #[arg(long, value_name = "N", default_value_t = 128)]
    max_depth: usize,
    /// Treat a value cut off by the end of the input as an error
    #[arg(long)]
    require_complete: bool,
}

impl Args {
    fn extractor(&self) -> Extractor {
        let mut e = Extractor::new();
        for m in &self.marker {
            e = e.marker(m.clone());
        }
        if let Some(n) = self.max_payload {
            e = e.max_payload(n);
        }
        e = e.max_depth(self.max_depth);
        if self.require_complete {
            e = e.require_complete();
        }
        e
    }
}

/// Runs the command; see the module docs for the exit status.
pub fn run(args: Args) -> ExitCode {
    let extractor = args.extractor();
    if args.jsonl {
        let (input, source) = match open_input(args.file.as_ref()) {
            Ok(opened) => opened,
            Err((e, source)) => {
                eprintln!("llm-extract: cannot read {source}: {}", io_reason(&e));
                return ExitCode::from(2);
            }
        };
        return batch::run(&extractor, input, &source, &args);
    }
    let Input {
        text: input,
        invalid,
    } = match read_reply(args.file.as_ref()) {
        Ok(input) => input,
        Err(code) => return code,
    };
    let result = if args.all {
        extractor
            .extract_all::<serde_json::Value>(&input)
            .map(|mut all| {
                for one in &mut all {
                    report_invalid_utf8(one, &input, &invalid);
                }
                if args.explain {
                    for (i, one) in all.iter().enumerate() {
                        explain(one, Some(i));
                    }
                }
                serde_json::Value::Array(all.into_iter().map(|e| e.value).collect())
            })
    } else if !args.explain {
        // The value alone: without the report's log and paths, a damaged reply of tens of
        // megabytes takes about twice the memory of its `serde_json::Value`, not several times.
        extractor.repair(&input)
    } else {
        extractor
            .extract::<serde_json::Value>(&input)
            .map(|mut one| {
                report_invalid_utf8(&mut one, &input, &invalid);
                if args.explain {
                    explain(&one, None);
                }
                one.value
            })
    };
    match result {
        Ok(value) => {
            let text = render(&value, args.pretty);
            dispose(value);
            let mut out = io::stdout().lock();
            match writeln!(out, "{text}").and_then(|()| out.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => output_failed(&e),
            }
        }
        Err(e) => {
            eprintln!("llm-extract: {}", one_line(&e, &input, &args));
            ExitCode::from(1)
        }
    }
}

/// A reader that closed the pipe (`| head`) ends the run quietly; any other failure to write
/// (a full disk) is reported, and the run fails with status 2, as when the input cannot be read.
fn output_failed(e: &io::Error) -> ExitCode {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return ExitCode::SUCCESS;
    }
    eprintln!(
        "llm-extract: cannot write to standard output: {}",
        io_reason(e)
    );
    ExitCode::from(2)
}

/// The raw text a `--jsonl` line holds, or why the line is not a JSON string: what it is
/// instead, or serde_json's reason with the column (its own line number would be 1, which is
/// not the input's line).
fn raw_text(line: &str) -> Result<String, String> {
    match serde_json::from_str::<serde_json::Value>(line) {
        Ok(serde_json::Value::String(raw)) => Ok(raw),
        Ok(other) => Err(format!(
            "it is {}",
            match other {
                serde_json::Value::Null => "null",
                serde_json::Value::Bool(_) => "a boolean",
                serde_json::Value::Number(_) => "a number",
                serde_json::Value::Array(_) => "an array",
                serde_json::Value::Object(_) => "an object",
                serde_json::Value::String(_) => unreachable!("matched above"),
            }
        )),
        Err(e) => {
            let text = e.to_string();
            let reason = text
                .strip_suffix(&format!(" at line {} column {}", e.line(), e.column()))
                .unwrap_or(&text);
            Err(format!("{reason} at column {}", e.column()))
        }
    }
}

fn one_line(e: &llm_extract::Error, text: &str, args: &Args) -> String {
    let first = e
        .issues()
        .first()
        .map(|i| issue_line(i, text, args))
        .unwrap_or_else(|| e.to_string());
    match e.issues().len() {
        0 | 1 => first,
        n => format!("{first} (and {} more)", n - 1),
    }
}

/// An issue as the command line says it: limits are named by their flags (the library's
/// messages name the `Extractor` methods), with the position once.
fn issue_line(issue: &Issue, text: &str, args: &Args) -> String {
    let position = issue
        .position
        .or_else(|| issue.span.map(|s| Position::of(text, s.start)));
    let at = position.map_or(String::new(), |p| {
        format!(" at line {} column {}", p.line, p.column)
    });
    match (issue.category, issue.span, args.max_payload) {
        (Category::TooDeep, _, _) => format!(
            "nesting deeper than {} levels{at}; raise it with --max-depth",
            args.max_depth.max(1)
        ),
        (Category::TooLarge, Some(span), Some(max)) => format!(
            "the value{at} is {} bytes, more than --max-payload {max}",
            span.len()
        ),
        _ => issue.to_string(),
    }
}

fn explain(one: &Extracted<serde_json::Value>, index: Option<usize>) {
    let mut err = io::stderr().lock();
    let r = &one.report;
    let which = index.map(|i| format!("value {i}: ")).unwrap_or_default();
    let _ = writeln!(
        err,
        "{which}{} repair(s), score {}, {}",
        r.repairs.len(),
        r.score,
        if r.complete {
            "complete"
        } else {
            "incomplete (closed by repair)"
        }
    );
    for repair in &r.repairs {
        let at = repair.position.map(|p| p.to_string()).unwrap_or_default();
        let _ = writeln!(
            err,
            "  {at:>7}  {:?} at {} (bytes {}..{})",
            repair.kind, repair.path, repair.span.start, repair.span.end
        );
    }
    for thought in &one.thoughts {
        let _ = writeln!(
            err,
            "  thought: {}",
            thought.chars().take(80).collect::<String>()
        );
    }
}

/// An I/O error as a reader wants it: `No such file or directory`, without `(os error 2)`.
pub(crate) fn io_reason(e: &io::Error) -> String {
    let text = e.to_string();
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_string(),
        _ => text,
    }
}

/// The input as text. Each sequence of bytes that is not UTF-8 becomes one U+FFFD, as
/// `String::from_utf8_lossy` does; where is kept, to be warned about and reported.
pub(crate) struct Input {
    pub(crate) text: String,
    /// Each U+FFFD put in: its span in `text`, and the byte offset in the input.
    pub(crate) invalid: Vec<(Span, usize)>,
}

/// The input to stream (`--jsonl`) and how to name it in an error; or why it cannot be
/// opened, with that name.
type Opened = (Box<dyn Read + Send>, String);

fn open_input(file: Option<&PathBuf>) -> Result<Opened, (io::Error, String)> {
    match file {
        Some(path) if path.as_os_str() != "-" => {
            let source = path.display().to_string();
            match std::fs::File::open(path) {
                Ok(f) => Ok((Box::new(f), source)),
                Err(e) => Err((e, source)),
            }
        }
        _ => Ok((Box::new(io::stdin()), "standard input".to_string())),
    }
}

/// The reply in `file` (or standard input), bytes that are not UTF-8 replaced and warned about
/// on standard error; a file that cannot be read is said so there, and the error is the exit
/// status 2.
pub(crate) fn read_reply(file: Option<&PathBuf>) -> Result<Input, ExitCode> {
    let Input { text, invalid } = match read_input(file) {
        Ok(input) => input,
        Err(e) => {
            let source = match file {
                Some(path) if path.as_os_str() != "-" => path.display().to_string(),
                _ => "standard input".to_string(),
            };
            eprintln!("llm-extract: cannot read {source}: {}", io_reason(&e));
            return Err(ExitCode::from(2));
        }
    };
    if let Some((_, first)) = invalid.first() {
        warn_invalid_utf8(*first, invalid.len());
    }
    Ok(Input { text, invalid })
}

pub(crate) fn read_input(file: Option<&PathBuf>) -> io::Result<Input> {
    let mut bytes = Vec::new();
    match file {
        Some(path) if path.as_os_str() != "-" => bytes = std::fs::read(path)?,
        _ => {
            io::stdin().lock().read_to_end(&mut bytes)?;
        }
    }
    let bytes = match String::from_utf8(bytes) {
        Ok(text) => {
            return Ok(Input {
                text,
                invalid: Vec::new(),
            })
        }
        Err(e) => e.into_bytes(),
    };
    let mut text = String::with_capacity(bytes.len() + 8);
    let mut invalid = Vec::new();
    let mut offset = 0;
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        offset += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            let at = text.len();
            text.push(char::REPLACEMENT_CHARACTER);
            invalid.push((Span::new(at, text.len()), offset));
            offset += chunk.invalid().len();
        }
    }
    Ok(Input { text, invalid })
}

/// One line on stderr when the input was not valid UTF-8: where first (a byte offset), in
/// how many places, and what was done.
pub(crate) fn warn_invalid_utf8(first: usize, places: usize) {
    let more = match places.saturating_sub(1) {
        0 => String::new(),
        1 => " (and 1 more place)".to_string(),
        n => format!(" (and {n} more places)"),
    };
    eprintln!(
        "llm-extract: warning: the input is not valid UTF-8 at byte {first}{more}; read as U+FFFD"
    );
}

/// Adds an `InvalidUtf8` repair to the report of a value that holds a replaced byte.
fn report_invalid_utf8(
    one: &mut Extracted<serde_json::Value>,
    text: &str,
    invalid: &[(Span, usize)],
) {
    let report = &mut one.report;
    for &(span, _) in invalid {
        if span.start < report.span.start || span.end > report.span.end {
            continue;
        }
        let mut repair = Repair::new(RepairKind::InvalidUtf8, span);
        repair.position = Some(Position::of(text, span.start));
        report.score += repair.cost;
        let at = report
            .repairs
            .partition_point(|r| r.span.start <= span.start);
        report.repairs.insert(at, repair);
    }
}
