//! `llm-extract test SUITE` and `llm-extract scaffold OUTPUT`: assertions over model outputs,
//! for CI.
//!
//! A suite is a JSON file `{"cases": [...]}` (or a bare array of cases), or the same in YAML
//! (`.yaml`, `.yml`). Each case has a `name`, the raw model text in `output` or a file in
//! `outputFile` (relative to the suite), and either `assertions` (JSONPath + Jest-style matchers) or the legacy `expectedOutput` with
//! `outputType` (`string` or `json`). snake_case spellings of the keys are accepted.
//!
//! A suite object may also give `schema`, a JSON Schema every case's output is read against
//! (a case's own `schema` wins), so assertions see the value the application reads (`"0.8"`
//! is a number where the schema says number) and a reply that does not read fails its case;
//! and `requireComplete: true`, under which a reply cut off by the end of the text fails its
//! case instead of being closed by repair. Both apply to `assertions`, not the legacy
//! `expectedOutput`.

mod report;
pub(crate) mod results;
mod yaml;

pub(crate) use results::{labels, output_status, print_out, CaseResult, Summary};

use crate::history;
use llm_extract::assert::{
    evaluate_legacy, scaffold_assertions, Assertion, AssertionResult, CompiledAssertion, Outcome,
    OutputType, Registry,
};
use serde_json::Value;
use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Suites with at least this many cases show a progress bar (when stderr is a terminal).
const PROGRESS_MIN_CASES: usize = 50;

/// Arguments of `llm-extract test`.
#[derive(clap::Args)]
pub struct TestArgs {
    /// The suite file, JSON or YAML (.yaml/.yml): {"schema"?, "requireComplete"?, "cases": [{"name", "output" | "outputFile", "schema"?, "assertions" | "expectedOutput"}]}
    suite: PathBuf,
    /// Also write a JUnit XML report to FILE
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Also write a JSON report (the summary, and each case's assertion results) to FILE
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Print only failures, errors and the summary
    #[arg(long, short)]
    quiet: bool,
    /// Record the run in this SQLite database (default: .llm-extract/runs.sqlite beside the suite)
    #[arg(long, value_name = "PATH", conflicts_with = "no_db")]
    db: Option<PathBuf>,
    /// Do not record the run
    #[arg(long)]
    no_db: bool,
}

/// Arguments of `llm-extract scaffold`.
#[derive(clap::Args)]
pub struct ScaffoldArgs {
    /// A sample model output (raw text; `-` for stdin)
    output: PathBuf,
    /// Print a whole suite with one case for OUTPUT instead of the bare assertions
    #[arg(long)]
    suite: bool,
}

/// One assertion of a case as loaded: compiled, or the reason it cannot be evaluated.
pub(crate) struct Loaded {
    /// `id`, or `#n` (1-based) when the assertion has none.
    pub label: String,
    pub assertion: Option<Assertion>,
    pub compiled: Result<CompiledAssertion, String>,
    /// The problems behind `compiled`'s error, each as (field of the assertion, message); the
    /// field is empty when the row as a whole is wrong.
    // Read by the workbench only.
    pub issues: Vec<(String, String)>,
}

/// What a case checks.
pub(crate) enum Check {
    Assertions(Vec<Loaded>),
    Legacy {
        expected: Value,
        output_type: OutputType,
    },
}

/// A case as loaded, before evaluation.
pub(crate) struct Case {
    pub name: String,
    pub output: Option<String>,
    pub check: Option<Check>,
    /// Problems with the case itself (no output, unknown key, ...); it is not evaluated.
    pub errors: Vec<String>,
    /// How the output is read into the value the assertions see.
    pub reading: Reading,
}

/// How a case's output is read: repaired as JSON (the default), against a JSON Schema (the
/// case's `schema`, else the suite's), and, with the suite's `requireComplete`, a reply cut
/// off by the end of the text fails the case instead of being closed by repair.
#[derive(Clone, Default)]
pub(crate) struct Reading {
    pub schema: Option<llm_extract::Schema>,
    pub require_complete: bool,
}

pub fn test(args: TestArgs) -> ExitCode {
    let text = match std::fs::read_to_string(&args.suite) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: cannot read suite {}: {e}", args.suite.display());
            return ExitCode::from(2);
        }
    };
    let base = args
        .suite
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let suite = parse_suite(&args.suite, &text);
    let cases = match suite
        .and_then(|suite| load_suite(suite, &base, Registry::builtin(), OutputFiles::Anywhere))
    {
        Ok(cases) => cases,
        Err(e) => {
            eprintln!("error: {}: {e}", args.suite.display());
            return ExitCode::from(2);
        }
    };

    // Every load-time problem is reported before anything is evaluated.
    report_load_errors(&cases);
    let (results, summary) = run_cases(cases, args.quiet);
    print_out(&format!("{}\n", summary.line()));

    let mut status = if summary.failed == 0 && summary.errors == 0 {
        0
    } else {
        1
    };
    // A suite that checks nothing must not pass.
    if summary.assertions == 0 {
        eprintln!(
            "error: no assertions ran ({} has no cases)",
            args.suite.display()
        );
        status = 1;
    }
    if let Some(path) = &args.junit {
        let written = report::junit(&args.suite, &results, &summary)
            .and_then(|xml| std::fs::write(path, xml).map_err(|e| e.to_string()));
        if let Err(e) = written {
            eprintln!("error: cannot write {}: {e}", path.display());
            status = 2;
        }
    }
    if let Some(path) = &args.json {
        if let Err(e) = std::fs::write(path, report::json(&args.suite, &results, &summary)) {
            eprintln!("error: cannot write {}: {e}", path.display());
            status = 2;
        }
    }
    if !args.no_db {
        let db = history::db_path(&args.suite, args.db.as_deref());
        match history::Store::open(&db)
            .and_then(|mut store| store.record(&args.suite, &text, &results, &summary))
        {
            Ok(id) => {
                // On stderr: stdout is the results, which scripts read.
                if !args.quiet {
                    eprintln!("recorded as run #{id} in {}", db.display());
                }
            }
            Err(e) => {
                eprintln!("error: {e}");
                status = 2;
            }
        }
    }
    output_status(status)
}

/// The suite file's text as JSON: YAML for `.yaml` and `.yml`, JSON otherwise.
pub(crate) fn parse_suite(path: &Path, text: &str) -> Result<Value, String> {
    match SuiteFormat::of(path) {
        SuiteFormat::Yaml => yaml::to_json(text),
        SuiteFormat::Json => json_suite(text),
    }
}

/// How a suite file is written, decided by its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum SuiteFormat {
    Json,
    Yaml,
}

impl SuiteFormat {
    pub fn of(path: &Path) -> SuiteFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some("yaml" | "yml") => SuiteFormat::Yaml,
            _ => SuiteFormat::Json,
        }
    }

    /// `suite` written in this format, keeping the order of cases and keys.
    // Used by the workbench's Save only.
    pub fn write(self, suite: &Value) -> Result<String, String> {
        match self {
            SuiteFormat::Json => serde_json::to_string_pretty(suite)
                .map(|mut s| {
                    s.push('\n');
                    s
                })
                .map_err(|e| e.to_string()),
            SuiteFormat::Yaml => yaml::from_json(suite),
        }
    }
}

/// Which `outputFile` paths a suite may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OutputFiles {
    /// Any readable file (the command line runs the user's own suite).
    Anywhere,
    /// Only files inside the suite's folder (the page must not serve other files).
    InsideSuiteFolder,
}

/// Prints every load-time problem on stderr, naming the case and the assertion.
fn report_load_errors(cases: &[Case]) {
    let mut count = 0;
    for (i, case) in cases.iter().enumerate() {
        let case_name = format!("case {} {}", i + 1, quoted(&case.name));
        for e in &case.errors {
            eprintln!("error: {case_name}: {e}");
            count += 1;
        }
        if let Some(Check::Assertions(loaded)) = &case.check {
            for l in loaded {
                if let Err(e) = &l.compiled {
                    eprintln!("error: {case_name}, assertion {}: {e}", l.label);
                    count += 1;
                }
            }
        }
    }
    if count > 0 {
        let noun = if count == 1 { "error" } else { "errors" };
        eprintln!("{count} load {noun} found; evaluating the rest");
    }
}

/// Evaluates every case in order, printing a line per assertion as each case finishes.
fn run_cases(cases: Vec<Case>, quiet: bool) -> (Vec<CaseResult>, Summary) {
    let bar = (std::io::stderr().is_terminal() && cases.len() >= PROGRESS_MIN_CASES).then(|| {
        let bar = indicatif::ProgressBar::new(cases.len() as u64);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} cases {elapsed}")
        {
            bar.set_style(style);
        }
        bar
    });
    let mut summary = Summary {
        cases: cases.len(),
        ..Summary::default()
    };
    let mut results = Vec::with_capacity(cases.len());
    for case in cases {
        let result = run_case(case);
        let mut lines = String::new();
        for (r, label) in result.results.iter().zip(labels(&result)) {
            summary.assertions += 1;
            match r.outcome {
                Outcome::Pass => summary.passed += 1,
                Outcome::Fail => summary.failed += 1,
                Outcome::Error => summary.errors += 1,
            }
            if !(quiet && r.outcome == Outcome::Pass) {
                lines.push_str(&result_line(&result.name, &label, r));
                lines.push('\n');
            }
        }
        match &bar {
            Some(bar) => {
                bar.suspend(|| print_out(&lines));
                bar.inc(1);
            }
            None => print_out(&lines),
        }
        results.push(result);
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    (results, summary)
}

fn quoted(name: &str) -> String {
    serde_json::to_string(name).unwrap_or_default()
}

/// `FAIL  [case] a2 $.user.name toMatch (ANY): <message>`
fn result_line(case: &str, label: &str, r: &AssertionResult) -> String {
    let not = if r.not { "not " } else { "" };
    let mut line = format!(
        "{:<5} [{case}] {label} {} {not}{} ({})",
        r.outcome.label(),
        r.path,
        r.matcher,
        r.path_match.as_str()
    );
    if let Some(message) = &r.message {
        line.push_str(": ");
        line.push_str(&message.replace('\n', " "));
    }
    line
}

/// The suite file as JSON.
fn json_suite(text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| format!("not a JSON suite: {e}"))
}

/// Reads a suite: the top level must be one; every problem below it is kept with its case.
pub(crate) fn load_suite(
    suite: Value,
    base: &Path,
    registry: &Registry,
    files: OutputFiles,
) -> Result<Vec<Case>, String> {
    let mut reading = Reading::default();
    let cases = match suite {
        Value::Array(cases) => cases,
        Value::Object(mut map) => {
            reading = suite_reading(&mut map)?;
            match map.remove("cases") {
                Some(Value::Array(cases)) => cases,
                Some(_) => return Err("`cases` must be a list".to_string()),
                None => return Err("expected {\"cases\": [...]}".to_string()),
            }
        }
        _ => return Err("expected {\"cases\": [...]}".to_string()),
    };
    Ok(cases
        .into_iter()
        .enumerate()
        .map(|(i, case)| load_case(i, case, base, registry, files, &reading))
        .collect())
}

/// The suite's `schema` (a JSON Schema every case's output is read against, unless the case
/// gives its own) and `requireComplete` (a reply cut off fails its case).
fn suite_reading(map: &mut serde_json::Map<String, Value>) -> Result<Reading, String> {
    let require_complete = match map
        .remove("requireComplete")
        .or_else(|| map.remove("require_complete"))
    {
        None => false,
        Some(Value::Bool(b)) => b,
        Some(_) => return Err("`requireComplete` must be true or false".to_string()),
    };
    let schema = map
        .remove("schema")
        .map(|s| compile_schema(&s))
        .transpose()?;
    Ok(Reading {
        schema,
        require_complete,
    })
}

/// A `schema` key's value compiled, or why not (with the JSON pointer of the fault).
fn compile_schema(schema: &Value) -> Result<llm_extract::Schema, String> {
    llm_extract::Schema::new(schema).map_err(|e| {
        let why = e
            .issues()
            .first()
            .map_or_else(|| e.to_string(), |i| i.message.clone());
        format!("`schema`: {why}")
    })
}

const CASE_KEYS: [(&str, &str); 7] = [
    ("name", "name"),
    ("output", "output"),
    ("outputFile", "output_file"),
    ("expectedOutput", "expected_output"),
    ("outputType", "output_type"),
    ("assertions", "assertions"),
    ("schema", "schema"),
];

/// Reads one case. Every problem is kept (in the order of the keys below), so the case reports
/// them all at once instead of stopping at the first.
fn load_case(
    index: usize,
    case: Value,
    base: &Path,
    registry: &Registry,
    files: OutputFiles,
    suite: &Reading,
) -> Case {
    let mut reading = suite.clone();
    let Value::Object(map) = case else {
        return Case {
            name: format!("#{}", index + 1),
            output: None,
            check: None,
            errors: vec!["a case must be an object".to_string()],
            reading,
        };
    };
    let mut errors = Vec::new();
    let mut fields = case_fields(map, &mut errors);
    let name = case_name(index, fields.remove("name"), &mut errors);
    let output = case_output(
        fields.remove("output"),
        fields.remove("outputFile"),
        base,
        files,
        &mut errors,
    );
    let output_type = case_output_type(fields.remove("outputType"), &mut errors);
    if let Some(schema) = fields.remove("schema") {
        match compile_schema(&schema) {
            Ok(schema) => reading.schema = Some(schema),
            Err(e) => errors.push(e),
        }
    }
    let expected = fields.remove("expectedOutput");
    let check = case_check(
        fields.remove("assertions"),
        expected,
        output_type,
        registry,
        &mut errors,
    );
    Case {
        name,
        output,
        check,
        errors,
        reading,
    }
}

/// The case's keys under their camelCase names (either spelling accepted); unknown and
/// repeated keys are errors.
fn case_fields(
    map: serde_json::Map<String, Value>,
    errors: &mut Vec<String>,
) -> std::collections::BTreeMap<&'static str, Value> {
    let mut fields = std::collections::BTreeMap::new();
    for (key, value) in map {
        match CASE_KEYS
            .iter()
            .find(|(camel, snake)| key == *camel || key == *snake)
        {
            Some((camel, _)) => {
                if fields.insert(*camel, value).is_some() {
                    errors.push(format!("`{camel}` is given twice"));
                }
            }
            None => errors.push(format!(
                "unknown key `{key}` (expected one of {})",
                CASE_KEYS
                    .iter()
                    .map(|(c, _)| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
    fields
}

/// `name`, or `#n` (1-based) when there is none.
fn case_name(index: usize, name: Option<Value>, errors: &mut Vec<String>) -> String {
    match name {
        Some(Value::String(name)) => name,
        Some(_) => {
            errors.push("`name` must be a string".to_string());
            format!("#{}", index + 1)
        }
        None => format!("#{}", index + 1),
    }
}

/// The model text: `output` itself, or the contents of `outputFile`; exactly one is given.
fn case_output(
    output: Option<Value>,
    output_file: Option<Value>,
    base: &Path,
    files: OutputFiles,
    errors: &mut Vec<String>,
) -> Option<String> {
    match (output, output_file) {
        (Some(Value::String(text)), None) => Some(text),
        (Some(_), None) => {
            errors.push("`output` must be a string (the raw model text)".to_string());
            None
        }
        (None, Some(Value::String(file))) => match read_output_file(base, &file, files) {
            Ok(text) => Some(text),
            Err(e) => {
                errors.push(e);
                None
            }
        },
        (None, Some(_)) => {
            errors.push("`outputFile` must be a string".to_string());
            None
        }
        (Some(_), Some(_)) => {
            errors.push("give either `output` or `outputFile`, not both".to_string());
            None
        }
        (None, None) => {
            errors.push("missing `output` or `outputFile`".to_string());
            None
        }
    }
}

/// `outputType`, when given: `"string"` or `"json"`.
fn case_output_type(output_type: Option<Value>, errors: &mut Vec<String>) -> Option<OutputType> {
    let t = output_type?;
    match serde_json::from_value::<OutputType>(t) {
        Ok(t) => Some(t),
        Err(_) => {
            errors.push("`outputType` must be \"string\" or \"json\"".to_string());
            None
        }
    }
}

/// What the case checks: its `assertions` when there are any, otherwise the legacy
/// comparison with `expectedOutput`.
fn case_check(
    assertions: Option<Value>,
    expected: Option<Value>,
    output_type: Option<OutputType>,
    registry: &Registry,
    errors: &mut Vec<String>,
) -> Option<Check> {
    match assertions {
        Some(Value::Array(items)) if !items.is_empty() => Some(Check::Assertions(
            items
                .into_iter()
                .enumerate()
                .map(|(i, a)| load_assertion(i, a, registry))
                .collect(),
        )),
        Some(Value::Array(_)) | Some(Value::Null) | None => match expected {
            Some(expected) => {
                // The legacy check compares strings exactly unless told the output is JSON.
                let output_type = output_type.unwrap_or(if expected.is_string() {
                    OutputType::String
                } else {
                    OutputType::Json
                });
                Some(Check::Legacy {
                    expected,
                    output_type,
                })
            }
            None => {
                errors.push("nothing to check: give `assertions` or `expectedOutput`".to_string());
                None
            }
        },
        Some(_) => {
            errors.push("`assertions` must be a list".to_string());
            None
        }
    }
}

/// The text of `outputFile` `file`, relative to the suite's folder `base`.
pub(crate) fn read_output_file(
    base: &Path,
    file: &str,
    files: OutputFiles,
) -> Result<String, String> {
    let path = base.join(file);
    if files == OutputFiles::InsideSuiteFolder {
        let folder = std::fs::canonicalize(if base.as_os_str().is_empty() {
            Path::new(".")
        } else {
            base
        })
        .map_err(|e| format!("cannot resolve the suite's folder {}: {e}", base.display()))?;
        let resolved = std::fs::canonicalize(&path)
            .map_err(|e| format!("cannot read outputFile {}: {e}", path.display()))?;
        if !resolved.starts_with(&folder) {
            return Err(format!(
                "outputFile `{file}` is outside the suite's folder {}; the workbench reads only files inside it",
                folder.display()
            ));
        }
    }
    std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read outputFile {}: {e}", path.display()))
}

fn load_assertion(index: usize, value: Value, registry: &Registry) -> Loaded {
    load_assertion_value(index, value, registry)
}

/// Reads and compiles one assertion as the runner does (the page's row checks use this too).
pub(crate) fn load_assertion_value(index: usize, value: Value, registry: &Registry) -> Loaded {
    let fallback = format!("#{}", index + 1);
    let label = match value.get("id").and_then(Value::as_str) {
        Some(id) if !id.is_empty() => id.to_string(),
        _ => fallback,
    };
    match serde_json::from_value::<Assertion>(value) {
        Ok(assertion) => {
            let (compiled, issues) = match registry.compile(&assertion) {
                Ok(compiled) => (Ok(compiled), Vec::new()),
                Err(e) => {
                    let issues: Vec<(String, String)> = e
                        .issues()
                        .iter()
                        .map(|i| {
                            let field = i.path.to_string();
                            let field = field.strip_prefix("$.").unwrap_or("").to_string();
                            (field, i.message.clone())
                        })
                        .collect();
                    let joined = e
                        .issues()
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("; ");
                    (Err(joined), issues)
                }
            };
            Loaded {
                label,
                assertion: Some(assertion),
                compiled,
                issues,
            }
        }
        Err(e) => Loaded {
            label,
            assertion: None,
            compiled: Err(format!("not an assertion: {e}")),
            issues: vec![(String::new(), format!("not an assertion: {e}"))],
        },
    }
}

pub(crate) fn run_case(case: Case) -> CaseResult {
    let Case {
        name,
        output,
        check,
        errors,
        reading,
    } = case;
    let read = output.as_deref().map(|o| read_output(o, &reading));
    let repaired = match &read {
        Some(Ok(value)) => value.clone(),
        _ => None,
    };
    let results = match (&output, check) {
        (Some(output), Some(check)) if errors.is_empty() => match (check, &read) {
            // The output fails the case as a whole: every assertion is an error saying why.
            (Check::Assertions(loaded), Some(Err(why))) => loaded
                .iter()
                .map(|l| error_result(Some(l), why.clone()))
                .collect(),
            (Check::Assertions(loaded), _) => {
                let actual = repaired
                    .clone()
                    .unwrap_or_else(|| Value::String(output.clone()));
                loaded.iter().map(|l| evaluate_loaded(l, &actual)).collect()
            }
            (
                Check::Legacy {
                    expected,
                    output_type,
                },
                _,
            ) => evaluate_legacy(output, &expected, output_type).results,
        },
        // A case that did not load: each of its assertions (or the case as one) is an error.
        (_, check) => {
            let message = format!("case not evaluated: {}", errors.join("; "));
            let count = match &check {
                Some(Check::Assertions(loaded)) => loaded.len(),
                _ => 1,
            };
            let loaded = match check {
                Some(Check::Assertions(loaded)) => loaded,
                _ => Vec::new(),
            };
            (0..count)
                .map(|i| {
                    let mut r = error_result(loaded.get(i), message.clone());
                    if loaded.is_empty() {
                        r.assertion_id = "case".to_string();
                    }
                    r
                })
                .collect()
        }
    };
    CaseResult {
        name,
        errors,
        output,
        repaired,
        results,
    }
}

pub(crate) fn evaluate_loaded(loaded: &Loaded, actual: &Value) -> AssertionResult {
    match &loaded.compiled {
        Ok(compiled) => compiled.evaluate(actual),
        Err(e) => error_result(Some(loaded), format!("invalid assertion: {e}")),
    }
}

fn error_result(loaded: Option<&Loaded>, message: String) -> AssertionResult {
    let assertion = loaded.and_then(|l| l.assertion.as_ref());
    AssertionResult {
        assertion_id: loaded.map(|l| l.label.clone()).unwrap_or_default(),
        path: assertion
            .map(|a| a.path.clone())
            .unwrap_or_else(|| "$".to_string()),
        matcher: assertion
            .map(|a| a.matcher.clone())
            .unwrap_or_else(|| "?".to_string()),
        not: assertion.is_some_and(|a| a.not),
        path_match: assertion.map(|a| a.path_match).unwrap_or_default(),
        passed: false,
        outcome: Outcome::Error,
        actual_samples: Vec::new(),
        message: Some(message),
    }
}

/// The value a case's assertions see (`None`: the reply holds no JSON-like value, so they see
/// the text as a string), or why the output fails the case as a whole: it does not read
/// against the schema, or it was cut off under `requireComplete`.
fn read_output(raw: &str, reading: &Reading) -> Result<Option<Value>, String> {
    if reading.schema.is_none() && !reading.require_complete {
        return Ok(llm_extract::repair(raw).ok());
    }
    let mut extractor = llm_extract::Extractor::new();
    if reading.require_complete {
        extractor = extractor.require_complete();
    }
    let read = match &reading.schema {
        Some(schema) => extractor.from_str_with(schema, raw),
        None => extractor.from_str::<Value>(raw),
    };
    match read {
        Ok(value) => Ok(Some(value)),
        Err(e) if reading.schema.is_none() && e.category() == llm_extract::Category::NotFound => {
            Ok(None)
        }
        Err(e) => {
            let against = if reading.schema.is_some() {
                "does not read against the schema"
            } else {
                "is not a complete value (requireComplete)"
            };
            Err(format!(
                "the output {against}: {}",
                e.to_string().replace('\n', "; ")
            ))
        }
    }
}

/// The value assertions see: the repaired JSON in the reply, or the reply as a string.
fn output_value(raw: &str) -> Value {
    llm_extract::repair(raw).unwrap_or_else(|_| Value::String(raw.to_string()))
}

pub fn scaffold(args: ScaffoldArgs) -> ExitCode {
    let mut text = String::new();
    let read = if args.output.as_os_str() == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::read_to_string(&args.output).map(|t| text = t)
    };
    if let Err(e) = read {
        eprintln!("error: cannot read {}: {e}", args.output.display());
        return ExitCode::from(2);
    }
    let assertions = scaffold_assertions(&output_value(&text));
    let document = if args.suite {
        let name = args
            .output
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "case".into());
        let mut case = serde_json::Map::new();
        case.insert("name".into(), Value::String(name));
        if args.output.as_os_str() == "-" {
            case.insert("output".into(), Value::String(text));
        } else {
            // Absolute, so the suite can be saved anywhere.
            let file = std::fs::canonicalize(&args.output).unwrap_or_else(|_| args.output.clone());
            case.insert(
                "outputFile".into(),
                Value::String(file.display().to_string()),
            );
        }
        case.insert(
            "assertions".into(),
            serde_json::to_value(&assertions).unwrap_or_default(),
        );
        serde_json::json!({ "cases": [case] })
    } else {
        serde_json::to_value(&assertions).unwrap_or_default()
    };
    match serde_json::to_string_pretty(&document) {
        Ok(json) => {
            print_out(&format!("{json}\n"));
            output_status(0)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
