//! What the workbench's HTTP endpoints do, as plain functions over request bytes: load the
//! suite for the page, check and preview assertions with the runner's own compile and evaluate
//! steps, save the file atomically, and read the run history.

use crate::history::{self, Store};
use crate::suite::{
    self, evaluate_loaded, load_assertion_value, parse_suite, Check, OutputFiles, SuiteFormat,
};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use llm_extract::assert::Registry;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Most key paths offered in the path quick-pick of one output.
const MAX_KEY_PATHS: usize = 300;

/// A failed request: the status and a message for the page.
#[derive(Debug)]
pub(crate) struct Failure {
    status: StatusCode,
    message: String,
}

impl Failure {
    fn bad_request(message: impl Into<String>) -> Failure {
        Failure {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }
}

/// `{"error": message}` with `status`.
pub(crate) fn failure(status: StatusCode, message: String) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}

/// The JSON answer, or the failure.
pub(crate) fn reply(result: Result<Value, Failure>) -> Response {
    match result {
        Ok(value) => axum::Json(value).into_response(),
        Err(f) => failure(f.status, f.message),
    }
}

/// The suite the page edits, and where its runs are recorded.
pub(crate) struct Workbench {
    suite: PathBuf,
    /// The suite's folder: output files must be inside it.
    base: PathBuf,
    db: PathBuf,
    /// Saves happen one at a time, so the conflict check and the rename are not interleaved.
    saving: Mutex<()>,
}

/// Query of `GET /api/diff`: two run ids, or none for the last two runs.
#[derive(Deserialize)]
pub(crate) struct DiffQuery {
    a: Option<i64>,
    b: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckRequest {
    assertions: Vec<Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PreviewRequest {
    /// The case whose output to use (0-based).
    case: Option<usize>,
    /// A pasted sample output; wins over the case's output.
    output: Option<String>,
    assertions: Vec<Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaveRequest {
    /// The hash of the file as the page loaded it.
    hash: String,
    /// The cases to write, in order.
    cases: Vec<Value>,
    /// Overwrite even when the file changed on disk since it was loaded.
    #[serde(default)]
    force: bool,
}

/// Parses a request body, or says why it cannot be used.
fn body<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, Failure> {
    serde_json::from_slice(bytes)
        .map_err(|e| Failure::bad_request(format!("bad request body: {e}")))
}

impl Workbench {
    pub fn new(suite: PathBuf, db: Option<PathBuf>) -> Workbench {
        let base = suite.parent().map(Path::to_path_buf).unwrap_or_default();
        let db = history::db_path(&suite, db.as_deref());
        Workbench {
            suite,
            base,
            db,
            saving: Mutex::new(()),
        }
    }

    pub fn suite_display(&self) -> String {
        self.suite.display().to_string()
    }

    /// `GET /api/suite`: the file as it is on disk now. A file that does not load still
    /// answers, with the error, and each case with its own load errors.
    pub fn suite(&self) -> Value {
        let format = SuiteFormat::of(&self.suite);
        let matchers = serde_json::to_value(Registry::builtin().metadata()).unwrap_or_default();
        let mut page = json!({
            "path": self.suite_display(),
            "format": format,
            "db": self.db.display().to_string(),
            "matchers": matchers,
        });
        let text = match std::fs::read_to_string(&self.suite) {
            Ok(text) => text,
            Err(e) => {
                page["error"] = json!(format!("cannot read {}: {e}", self.suite.display()));
                page["cases"] = json!([]);
                return page;
            }
        };
        page["hash"] = json!(history::content_hash(text.as_bytes()));
        let document = match parse_suite(&self.suite, &text) {
            Ok(document) => document,
            Err(e) => {
                page["error"] = json!(e);
                page["cases"] = json!([]);
                return page;
            }
        };
        let raw_cases = match cases_of(&document) {
            Ok(cases) => cases.clone(),
            Err(e) => {
                page["error"] = json!(e);
                page["cases"] = json!([]);
                return page;
            }
        };
        let loaded = suite::load_suite(
            document,
            &self.base,
            Registry::builtin(),
            OutputFiles::InsideSuiteFolder,
        )
        .unwrap_or_default();
        let cases: Vec<Value> = raw_cases
            .into_iter()
            .zip(loaded)
            .map(|(raw, case)| {
                let repaired = case
                    .output
                    .as_deref()
                    .and_then(|o| llm_extract::repair(o).ok());
                let mut keys = Vec::new();
                if let Some(value) = &repaired {
                    key_paths(value, "$".to_string(), &mut keys);
                }
                let assertion_errors: Vec<Value> = match &case.check {
                    Some(Check::Assertions(loaded)) => loaded
                        .iter()
                        .enumerate()
                        .filter_map(|(i, l)| {
                            l.compiled
                                .as_ref()
                                .err()
                                .map(|e| json!({"index": i, "label": l.label, "message": e}))
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                json!({
                    "name": case.name,
                    "raw": raw,
                    "output": case.output,
                    "repaired": repaired,
                    "keys": keys,
                    "errors": case.errors,
                    "assertionErrors": assertion_errors,
                })
            })
            .collect();
        page["cases"] = Value::Array(cases);
        page
    }

    /// `POST /api/check`: each row's problems, from the same compile step the runner uses.
    pub fn check(&self, bytes: &[u8]) -> Result<Value, Failure> {
        let request: CheckRequest = body(bytes)?;
        let rows: Vec<Value> = request
            .assertions
            .into_iter()
            .enumerate()
            .map(|(i, a)| {
                let loaded = load_assertion_value(i, a, Registry::builtin());
                json!({ "errors": row_errors(&loaded.issues) })
            })
            .collect();
        Ok(json!({ "rows": rows }))
    }

    /// `POST /api/preview`: the rows evaluated by the runner's evaluator against the case's
    /// output or a pasted sample.
    pub fn preview(&self, bytes: &[u8]) -> Result<Value, Failure> {
        let request: PreviewRequest = body(bytes)?;
        let output = match (request.output, request.case) {
            (Some(output), _) => output,
            (None, Some(index)) => self.case_output(index)?,
            (None, None) => {
                return Err(Failure::bad_request(
                    "give `case` (the case's index) or `output` (a sample output)",
                ))
            }
        };
        let repaired = llm_extract::repair(&output).ok();
        let actual = repaired
            .clone()
            .unwrap_or_else(|| Value::String(output.clone()));
        let mut results = Vec::new();
        let mut rows = Vec::new();
        for (i, a) in request.assertions.into_iter().enumerate() {
            let loaded = load_assertion_value(i, a, Registry::builtin());
            rows.push(json!({ "errors": row_errors(&loaded.issues) }));
            results.push(evaluate_loaded(&loaded, &actual));
        }
        let passed = results
            .iter()
            .all(|r| r.outcome == llm_extract::assert::Outcome::Pass);
        let mut keys = Vec::new();
        key_paths(&actual, "$".to_string(), &mut keys);
        Ok(json!({
            "repaired": repaired,
            "keys": keys,
            "passed": passed,
            "results": results,
            "rows": rows,
        }))
    }

    /// The output of case `index` as the runner reads it (output files only inside the folder).
    fn case_output(&self, index: usize) -> Result<String, Failure> {
        let text = std::fs::read_to_string(&self.suite).map_err(|e| Failure {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: format!("cannot read {}: {e}", self.suite.display()),
        })?;
        let document = parse_suite(&self.suite, &text).map_err(|e| Failure {
            status: StatusCode::CONFLICT,
            message: format!("the suite on disk does not load: {e}"),
        })?;
        let cases = suite::load_suite(
            document,
            &self.base,
            Registry::builtin(),
            OutputFiles::InsideSuiteFolder,
        )
        .map_err(|e| Failure {
            status: StatusCode::CONFLICT,
            message: format!("the suite on disk does not load: {e}"),
        })?;
        let count = cases.len();
        let case = cases.into_iter().nth(index).ok_or_else(|| {
            Failure::bad_request(format!("no case #{index}: the suite has {count}"))
        })?;
        case.output.ok_or_else(|| {
            Failure::bad_request(format!(
                "case {:?} has no output to preview against: {}",
                case.name,
                case.errors.join("; ")
            ))
        })
    }

    /// `POST /api/save`: writes the cases into the suite file, in its format, keeping the
    /// document's other keys and their order; refuses (409) when the file changed on disk
    /// since the page loaded it, unless `force`, and (403) when the file is read-only. A
    /// suite that is a symbolic link is written through to the file it points to.
    pub fn save(&self, bytes: &[u8]) -> Result<Value, Failure> {
        let request: SaveRequest = body(bytes)?;
        if let Some((i, _)) = request
            .cases
            .iter()
            .enumerate()
            .find(|(_, c)| !c.is_object())
        {
            return Err(Failure::bad_request(format!(
                "case #{} is not an object",
                i + 1
            )));
        }
        let _one_at_a_time = self.saving.lock().unwrap_or_else(|p| p.into_inner());
        let target = writable_target(&self.suite)?;
        let text = std::fs::read_to_string(&self.suite).map_err(|e| Failure {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: format!("cannot read {}: {e}", self.suite.display()),
        })?;
        if history::content_hash(text.as_bytes()) != request.hash && !request.force {
            return Err(Failure {
                status: StatusCode::CONFLICT,
                message: format!(
                    "{} changed on disk since the page loaded it; reload to see the change, or overwrite it",
                    self.suite.display()
                ),
            });
        }
        let document = match parse_suite(&self.suite, &text) {
            Ok(Value::Object(mut map)) => {
                // Replacing the value of an existing key keeps the key's place.
                map.insert("cases".to_string(), Value::Array(request.cases));
                Value::Object(map)
            }
            Ok(Value::Array(_)) => Value::Array(request.cases),
            // The file on disk did not load: the page's cases become the whole suite.
            Ok(_) | Err(_) => {
                let mut map = Map::new();
                map.insert("cases".to_string(), Value::Array(request.cases));
                Value::Object(map)
            }
        };
        let format = SuiteFormat::of(&self.suite);
        let written = format.write(&document).map_err(|e| Failure {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: e,
        })?;
        write_atomically(&target, written.as_bytes()).map_err(|e| Failure {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: format!("cannot write {}: {e}", self.suite.display()),
        })?;
        Ok(json!({ "hash": history::content_hash(written.as_bytes()) }))
    }

    /// `GET /api/runs`: this suite's recorded runs, newest last, with pass rates.
    pub fn runs(&self) -> Result<Value, Failure> {
        if !self.db.is_file() {
            return Ok(json!({ "db": self.db.display().to_string(), "runs": [] }));
        }
        let store = Store::open(&self.db).map_err(internal)?;
        let runs: Vec<Value> = store
            .runs(Some(&self.suite))
            .map_err(internal)?
            .into_iter()
            .map(|r| {
                let rate = r.pass_rate();
                let mut v = serde_json::to_value(r).unwrap_or_default();
                v["passRate"] = json!(rate);
                v
            })
            .collect();
        Ok(json!({ "db": self.db.display().to_string(), "runs": runs }))
    }

    /// `GET /api/diff?a=&b=`: the assertions whose status changed between two runs.
    pub fn diff(&self, query: &DiffQuery) -> Result<Value, Failure> {
        if query.a.is_none() && query.b.is_some() {
            return Err(Failure::bad_request("give `a` with `b`"));
        }
        let store = Store::open_existing(&self.db).map_err(|e| Failure {
            status: StatusCode::NOT_FOUND,
            message: e,
        })?;
        let diff = store
            .diff(query.a, query.b, Some(&self.suite))
            .map_err(Failure::bad_request)?;
        serde_json::to_value(diff).map_err(|e| internal(e.to_string()))
    }
}

fn internal(message: String) -> Failure {
    Failure {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        message,
    }
}

/// A row's problems as `{field, message}`: the compile step's issues, each under the
/// assertion's field (`path`, `matcher`, `expected`), or the whole row.
fn row_errors(issues: &[(String, String)]) -> Vec<Value> {
    issues
        .iter()
        .map(|(field, message)| json!({ "field": field, "message": message }))
        .collect()
}

/// The `cases` list of a suite document (or the document itself when it is a list).
fn cases_of(document: &Value) -> Result<&Vec<Value>, String> {
    match document {
        Value::Array(cases) => Ok(cases),
        Value::Object(map) => match map.get("cases") {
            Some(Value::Array(cases)) => Ok(cases),
            Some(_) => Err("`cases` must be a list".to_string()),
            None => Err("expected {\"cases\": [...]}".to_string()),
        },
        _ => Err("expected {\"cases\": [...]}".to_string()),
    }
}

/// Every JSONPath in `value`, arrays as `[*]`, each once, in document order, at most
/// [`MAX_KEY_PATHS`]: the quick-pick of paths for the last output. Linear in the value's size
/// (items of one array share their paths, found in a set).
fn key_paths(value: &Value, at: String, out: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    collect_paths(value, at, out, &mut seen);
}

fn collect_paths(
    value: &Value,
    at: String,
    out: &mut Vec<String>,
    seen: &mut std::collections::HashSet<String>,
) {
    if out.len() >= MAX_KEY_PATHS {
        return;
    }
    if seen.insert(at.clone()) {
        out.push(at.clone());
    }
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                collect_paths(child, format!("{at}{}", member(key)), out, seen);
            }
        }
        Value::Array(items) => {
            let at = format!("{at}[*]");
            for item in items {
                collect_paths(item, at.clone(), out, seen);
            }
        }
        _ => {}
    }
}

/// `.key`, or `['key']` when the key is not a plain name.
fn member(key: &str) -> String {
    let plain = key
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        format!(".{key}")
    } else {
        format!("['{}']", key.replace('\\', "\\\\").replace('\'', "\\'"))
    }
}

/// The file a save writes: the suite, or the file it links to (a rename over the link itself
/// would replace it with a plain file); refused when that file is read-only, which a rename
/// would ignore.
fn writable_target(suite: &Path) -> Result<PathBuf, Failure> {
    let refused = |status, message| Failure { status, message };
    let target = std::fs::canonicalize(suite).map_err(|e| {
        let message = format!("cannot resolve {}: {e}", suite.display());
        refused(StatusCode::INTERNAL_SERVER_ERROR, message)
    })?;
    let metadata = std::fs::metadata(&target).map_err(|e| {
        let message = format!("cannot read {}: {e}", target.display());
        refused(StatusCode::INTERNAL_SERVER_ERROR, message)
    })?;
    if metadata.permissions().readonly() {
        let message = format!(
            "{} is read-only; not saved (make it writable to save from the workbench)",
            target.display()
        );
        return Err(refused(StatusCode::FORBIDDEN, message));
    }
    Ok(target)
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename, then
/// syncs the folder, so a crash leaves the old file or the new one, never half of one, and
/// the rename itself survives a power loss.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "suite".to_string());
    let temporary = folder.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        if let Ok(metadata) = std::fs::metadata(path) {
            std::fs::set_permissions(&temporary, metadata.permissions())?;
        }
        std::fs::rename(&temporary, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result?;
    sync_folder(folder)
}

/// Makes a rename in `folder` durable: the folder's entry is data too.
#[cfg(unix)]
fn sync_folder(folder: &Path) -> std::io::Result<()> {
    std::fs::File::open(folder)?.sync_all()
}

/// Windows cannot open a folder as a file; its renames are journaled by the file system.
#[cfg(not(unix))]
fn sync_folder(_: &Path) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder of its own for one test, removed when the test ends (passed or failed).
    fn scratch(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("llm-extract-workbench-{name}-"))
            .tempdir()
            .unwrap()
    }

    fn status(result: Result<Value, Failure>) -> (StatusCode, String) {
        match result {
            Ok(v) => panic!("expected a failure, got {v}"),
            Err(f) => (f.status, f.message),
        }
    }

    #[test]
    fn an_output_file_outside_the_suite_folder_is_refused_and_not_served() {
        let root = scratch("traversal");
        let dir = root.path().join("suite");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(root.path().join("secret.txt"), "{\"secret\": 1}").unwrap();
        std::fs::write(dir.join("ok.txt"), "{\"fine\": 1}").unwrap();
        let suite = dir.join("s.json");
        std::fs::write(
            &suite,
            r#"{"cases": [
                {"name": "escape", "outputFile": "../secret.txt", "assertions": [{"path": "$", "matcher": "toBeDefined"}]},
                {"name": "absolute", "outputFile": "/etc/passwd", "assertions": [{"path": "$", "matcher": "toBeDefined"}]},
                {"name": "inside", "outputFile": "./ok.txt", "assertions": [{"path": "$", "matcher": "toBeDefined"}]}]}"#,
        )
        .unwrap();
        let wb = Workbench::new(suite, None);
        let page = wb.suite();
        let cases = page["cases"].as_array().unwrap();
        assert_eq!(cases[0]["output"], Value::Null);
        let error = cases[0]["errors"][0].as_str().unwrap();
        assert!(error.contains("outside the suite's folder"), "{error}");
        assert!(!page.to_string().contains("secret\\\": 1"));
        assert!(cases[1]["errors"][0]
            .as_str()
            .unwrap()
            .contains("outside the suite's folder"));
        assert_eq!(cases[2]["output"], "{\"fine\": 1}");
        assert_eq!(cases[2]["keys"], json!(["$", "$.fine"]));

        let (code, message) = status(wb.preview(br#"{"case": 0, "assertions": []}"#));
        assert_eq!(code, StatusCode::BAD_REQUEST);
        assert!(message.contains("outside the suite's folder"), "{message}");
    }

    #[test]
    fn bad_bodies_are_400_with_a_message() {
        let folder = scratch("bodies");
        let dir = folder.path();
        let suite = dir.join("s.json");
        std::fs::write(&suite, r#"{"cases": []}"#).unwrap();
        let wb = Workbench::new(suite, None);
        for (body, expected) in [
            (
                &b"<html>"[..],
                "bad request body: expected value at line 1 column 1",
            ),
            (
                br#"{"assertions": 3}"#,
                "bad request body: invalid type: integer `3`, expected a sequence",
            ),
            (
                br#"{"assertion": []}"#,
                "bad request body: unknown field `assertion`",
            ),
        ] {
            let (code, message) = status(wb.check(body));
            assert_eq!(code, StatusCode::BAD_REQUEST);
            assert!(message.starts_with(expected), "{message}");
        }
        let (code, message) = status(wb.preview(br#"{"assertions": []}"#));
        assert_eq!(code, StatusCode::BAD_REQUEST);
        assert!(message.contains("give `case`"), "{message}");
        let (code, message) = status(wb.preview(br#"{"case": 7, "assertions": []}"#));
        assert_eq!(code, StatusCode::BAD_REQUEST);
        assert_eq!(message, "no case #7: the suite has 0");
        let (code, message) = status(wb.save(br#"{"hash": "", "cases": [1]}"#));
        assert_eq!(code, StatusCode::BAD_REQUEST);
        assert_eq!(message, "case #1 is not an object");
        assert_eq!(
            status(wb.diff(&DiffQuery {
                a: None,
                b: Some(1)
            }))
            .0,
            StatusCode::BAD_REQUEST
        );
    }

    #[test]
    fn row_checks_name_the_field_of_each_problem() {
        let folder = scratch("check");
        let dir = folder.path();
        let suite = dir.join("s.json");
        std::fs::write(&suite, r#"{"cases": []}"#).unwrap();
        let wb = Workbench::new(suite, None);
        let answer = wb
            .check(
                br#"{"assertions": [
                {"path": "$.a", "matcher": "toMatch", "expected": "/(/"},
                {"path": "$.a[", "matcher": "toEqul"},
                {"path": "$.a", "matcher": "toEqual"},
                {"path": "$.a", "matcher": "toBeNull"}]}"#,
            )
            .unwrap();
        let fields = |i: usize| -> Vec<String> {
            answer["rows"][i]["errors"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["field"].as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(fields(0), ["expected"]);
        assert_eq!(fields(1), ["path", "matcher"]);
        assert_eq!(fields(2), ["expected"], "toEqual needs an expected value");
        assert!(fields(3).is_empty());
        assert!(answer["rows"][0]["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("invalid regex"));
    }

    #[test]
    fn preview_evaluates_with_the_runner_and_prefers_a_pasted_sample() {
        let folder = scratch("preview");
        let dir = folder.path();
        let suite = dir.join("s.json");
        std::fs::write(
            &suite,
            r#"{"cases": [{"name": "c", "output": "{\"name\": \"bob\"}", "assertions": []}]}"#,
        )
        .unwrap();
        let wb = Workbench::new(suite, None);
        let rows = r#"[{"path": "$.name", "matcher": "toMatch", "expected": "/^[a-z]+$/"},
                       {"path": "$.name", "matcher": "toEqual", "expected": "Ada"},
                       {"path": "$.name", "matcher": "nope"}]"#;
        let answer = wb
            .preview(format!(r#"{{"case": 0, "assertions": {rows}}}"#).as_bytes())
            .unwrap();
        let outcomes: Vec<&str> = answer["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["outcome"].as_str().unwrap())
            .collect();
        assert_eq!(outcomes, ["pass", "fail", "error"]);
        assert_eq!(
            answer["results"][1]["message"],
            r#"$.name toEqual "Ada" expected an equal value, got "bob""#
        );
        let answer = wb
            .preview(
                format!(r#"{{"case": 0, "output": "```json\n{{'name': 'Ada'}}\n```", "assertions": {rows}}}"#)
                    .as_bytes(),
            )
            .unwrap();
        assert_eq!(answer["repaired"], json!({"name": "Ada"}));
        assert_eq!(
            answer["keys"],
            json!(["$", "$.name"]),
            "the quick-pick follows the sample"
        );
        assert_eq!(answer["results"][0]["outcome"], "fail");
        assert_eq!(answer["results"][1]["outcome"], "pass");
    }

    #[test]
    fn save_keeps_format_and_order_refuses_a_changed_file_and_leaves_no_temp_file() {
        let folder = scratch("save");
        let dir = folder.path();
        let suite = dir.join("s.yaml");
        let original = "title: my suite\ncases:\n  - name: a\n    output: \"{}\"\n    assertions:\n      - {path: $.x, matcher: toBeNull}\nafter: kept\n";
        std::fs::write(&suite, original).unwrap();
        let wb = Workbench::new(suite.clone(), None);
        let page = wb.suite();
        assert_eq!(page["format"], "yaml");
        let hash = page["hash"].as_str().unwrap().to_string();
        let cases = json!([{"name": "a", "output": "{}", "assertions": [
            {"path": "$.x", "matcher": "toBeNull"},
            {"path": "$.y", "matcher": "toMatch", "expected": "/^a/i"}]},
            {"name": "b", "output": "multi\nline"}]);
        let request = json!({"hash": hash, "cases": cases}).to_string();
        let saved = wb.save(request.as_bytes()).unwrap();
        let text = std::fs::read_to_string(&suite).unwrap();
        assert_eq!(saved["hash"], history::content_hash(text.as_bytes()));
        let back = suite::parse_suite(&suite, &text).unwrap();
        let keys: Vec<_> = back.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["title", "cases", "after"], "{text}");
        assert_eq!(back["cases"], cases);
        assert!(text.contains("title: my suite"), "{text}");
        let leftovers: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(leftovers, ["s.yaml"]);

        // The page still holds the old hash: the file changed since, so it asks first.
        let (code, message) = status(wb.save(request.as_bytes()));
        assert_eq!(code, StatusCode::CONFLICT);
        assert!(message.contains("changed on disk"), "{message}");
        assert_eq!(std::fs::read_to_string(&suite).unwrap(), text);
        let forced = json!({"hash": hash, "cases": [], "force": true}).to_string();
        wb.save(forced.as_bytes()).unwrap();
        let back = suite::parse_suite(&suite, &std::fs::read_to_string(&suite).unwrap()).unwrap();
        assert_eq!(back["cases"], json!([]));
    }

    #[test]
    fn a_suite_that_does_not_load_still_answers_with_its_errors() {
        let folder = scratch("broken");
        let dir = folder.path();
        let suite = dir.join("s.json");
        std::fs::write(&suite, "{\"cases\": [").unwrap();
        let page = Workbench::new(suite.clone(), None).suite();
        assert!(page["error"]
            .as_str()
            .unwrap()
            .starts_with("not a JSON suite"));
        assert_eq!(page["cases"], json!([]));

        std::fs::write(
            &suite,
            r#"{"cases": [{"name": "x", "output": "{}", "typo": 1, "assertions": [{"path": "$", "matcher": "toBe"}]}, 7]}"#,
        )
        .unwrap();
        let page = Workbench::new(suite, None).suite();
        assert!(page.get("error").is_none());
        let cases = page["cases"].as_array().unwrap();
        assert!(cases[0]["errors"][0]
            .as_str()
            .unwrap()
            .starts_with("unknown key `typo`"));
        assert!(cases[0]["assertionErrors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("unknown matcher `toBe`"));
        assert_eq!(cases[1]["errors"], json!(["a case must be an object"]));
    }

    #[test]
    fn key_paths_list_each_path_once_with_arrays_as_wildcards() {
        let mut keys = Vec::new();
        key_paths(
            &json!({"items": [{"id": 1}, {"id": 2, "odd key": true}], "a-b": null}),
            "$".to_string(),
            &mut keys,
        );
        assert_eq!(
            keys,
            [
                "$",
                "$.items",
                "$.items[*]",
                "$.items[*].id",
                "$.items[*]['odd key']",
                "$['a-b']"
            ]
        );
        let mut many = Vec::new();
        let wide: Map<String, Value> = (0..1000).map(|i| (format!("k{i}"), json!(i))).collect();
        key_paths(&Value::Object(wide), "$".to_string(), &mut many);
        assert_eq!(many.len(), MAX_KEY_PATHS);
        let long = Value::Array(vec![json!({"a": 1, "b": [2]}); 200_000]);
        let mut keys = Vec::new();
        key_paths(&long, "$".to_string(), &mut keys);
        assert_eq!(keys, ["$", "$[*]", "$[*].a", "$[*].b", "$[*].b[*]"]);
    }
}
