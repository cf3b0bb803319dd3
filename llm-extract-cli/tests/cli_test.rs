//! `llm-extract test` and `llm-extract scaffold` run as a user runs them, on the suite files
//! in `tests/fixtures/`.

use std::path::PathBuf;
use std::process::{Command, Output};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_llm-extract"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn suite(name: &str) -> String {
    fixtures().join(name).display().to_string()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh scratch directory for files a test writes.
fn scratch(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-test-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The help says what a suite may be written in: JSON or YAML, both of which `test` runs.
#[test]
fn test_help_says_suites_are_json_or_yaml() {
    let out = run(&["test", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    let argument = help
        .lines()
        .find(|l| l.trim_start().starts_with("<SUITE>"))
        .unwrap_or_else(|| panic!("no <SUITE> line in {help}"));
    assert!(argument.contains("JSON or YAML"), "{argument}");
    for file in ["passing.suite.json", "yaml.suite.yaml"] {
        let out = run(&["test", "--no-db", &suite(file)]);
        assert_ne!(out.status.code(), Some(2), "{file}: {}", text(&out.stderr));
    }
}

#[test]
fn mixed_suite_prints_one_line_per_assertion_and_exits_1() {
    let out = run(&["test", "--no-db", &suite("basic.suite.json")]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 14, "{stdout}");
    assert_eq!(
        lines[0],
        "PASS  [order from file] name $.user.name toMatch (ANY)"
    );
    assert_eq!(
        lines[2],
        "PASS  [order from file] statuses $.items[*].status toBeOneOf (ALL)"
    );
    assert!(lines.contains(
        &r#"FAIL  [greeting] a1 $.user.name toMatch (ANY): $.user.name toMatch /[A-Z][a-z]+/ expected match, got "bob""#
    ));
    assert!(lines.contains(&"PASS  [greeting] a2 $.user.age not toBeGreaterThan (ANY)"));
    assert!(lines.contains(
        &"ERROR [greeting] a3 $.user.age not toMatch (ANY): $.user.age not toMatch /1/ cannot evaluate: toMatch needs a string, got 12"
    ));
    assert!(lines.contains(&"PASS  [legacy string] expectedOutput $ toEqual (ANY)"));
    assert!(lines.contains(&"PASS  [legacy json] expectedOutput $ toEqual (ANY)"));
    assert_eq!(
        lines[13],
        "13 assertions in 4 cases: 11 passed, 1 failed, 1 error"
    );
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn passing_suite_exits_0() {
    let out = run(&["test", "--no-db", &suite("passing.suite.json")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(text(&out.stdout).ends_with("6 assertions in 2 cases: 6 passed, 0 failed, 0 errors\n"));
}

#[test]
fn quiet_prints_only_failures_and_the_summary() {
    let out = run(&["test", "--no-db", "--quiet", &suite("basic.suite.json")]);
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 3, "{stdout}");
    assert!(!stdout.contains("PASS"));
}

#[test]
fn snake_case_keys_are_accepted() {
    let out = run(&["test", "--no-db", &suite("snake_case.suite.json")]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("PASS  [snake keys] s1 $.items[*].id toBeGreaterThan (ALL)"));
}

#[test]
fn load_errors_are_reported_per_case_and_assertion_and_never_hide_other_results() {
    let out = run(&["test", "--no-db", &suite("bad.suite.json")]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1));
    let expected_errors = [
        r#"error: case 1 "bad assertions", assertion unknown: $.matcher: unknown matcher `toEqul`; did you mean `toEqual`?"#,
        r#"error: case 1 "bad assertions", assertion malformed: $.path: invalid JSONPath `$.items.0.id`"#,
        "did you mean `$.items[0].id`?",
        r#"error: case 1 "bad assertions", assertion lookahead: $.expected: `toMatch`: pattern uses look-ahead `(?=`"#,
        r#"error: case 1 "bad assertions", assertion missing: $.expected: `toEqual` needs `expected`"#,
        r#"error: case 1 "bad assertions", assertion not-list: $.expected: `toBeOneOf`: expected a list of options, got string"#,
        r#"error: case 2 "bad case": missing `output` or `outputFile`"#,
        "6 load errors found; evaluating the rest",
    ];
    for e in expected_errors {
        assert!(stderr.contains(e), "missing {e:?} in\n{stderr}");
    }
    assert!(
        stdout.contains("PASS  [bad assertions] good $.name toEqual (ANY)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("PASS  [fine] ok $.ok toEqual (ANY)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("ERROR [bad assertions] unknown $.name toEqul (ANY): invalid assertion:"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("8 assertions in 3 cases: 2 passed, 0 failed, 6 errors\n"),
        "{stdout}"
    );
}

#[test]
fn junit_and_json_reports_are_written() {
    let dir = scratch("reports");
    let (junit, json) = (dir.join("report.xml"), dir.join("report.json"));
    let out = run(&[
        "test",
        "--no-db",
        &suite("basic.suite.json"),
        "--junit",
        &junit.display().to_string(),
        "--json",
        &json.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(1));

    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(
        report["summary"],
        serde_json::json!({"assertions": 13, "cases": 4, "passed": 11, "failed": 1, "errors": 1})
    );
    assert_eq!(report["passed"], false);
    let greeting = &report["cases"][1];
    assert_eq!(greeting["name"], "greeting");
    assert_eq!(greeting["passed"], false);
    let a1 = &greeting["results"][0];
    assert_eq!(a1["assertionId"], "a1");
    assert_eq!(a1["pathMatch"], "ANY");
    assert_eq!(a1["passed"], false);
    assert_eq!(a1["actualSamples"], serde_json::json!(["bob"]));
    assert_eq!(
        report["cases"][0]["results"][2]["actualSamples"],
        serde_json::json!(["READY", "PENDING", "READY"])
    );

    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.starts_with("<?xml"));
    let root = xml.lines().find(|l| l.starts_with("<testsuites ")).unwrap();
    for attribute in [r#"tests="13""#, r#"failures="1""#, r#"errors="1""#] {
        assert!(root.contains(attribute), "{root}");
    }
    assert_eq!(xml.matches("<testcase ").count(), 13);
    assert_eq!(xml.matches("<failure ").count(), 1);
    assert_eq!(xml.matches("<error ").count(), 1);
    assert!(xml.contains("expected match, got &quot;bob&quot;"), "{xml}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn unreadable_or_malformed_suites_exit_2() {
    let out = run(&["test", "--no-db", &suite("no-such.suite.json")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read suite"));

    let dir = scratch("malformed");
    let path = dir.join("broken.json");
    std::fs::write(&path, "{\"cases\": [").unwrap();
    let out = run(&["test", "--no-db", &path.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not a JSON suite"));

    std::fs::write(&path, "{\"tests\": []}").unwrap();
    let out = run(&["test", "--no-db", &path.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("expected {\"cases\": [...]}"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn large_suites_show_no_progress_bar_when_stderr_is_not_a_terminal() {
    let dir = scratch("large");
    let cases: Vec<serde_json::Value> = (0..200)
        .map(|i| {
            serde_json::json!({
                "name": format!("case {i}"),
                "output": format!("{{\"n\": {i}}}"),
                "assertions": [{"path": "n", "matcher": "toBeGreaterThanOrEqual", "expected": 0}]
            })
        })
        .collect();
    let path = dir.join("large.json");
    std::fs::write(&path, serde_json::json!({ "cases": cases }).to_string()).unwrap();
    let out = run(&["test", "--no-db", "-q", &path.display().to_string()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "200 assertions in 200 cases: 200 passed, 0 failed, 0 errors\n"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn scaffold_proposes_assertions_that_pass_on_their_own_output() {
    let order = fixtures().join("outputs/order.txt").display().to_string();
    let out = run(&["scaffold", &order]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let proposed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let proposed = proposed.as_array().unwrap();
    assert_eq!(proposed.len(), 13);
    assert_eq!(
        proposed[0],
        serde_json::json!({"id": "a1", "path": "$.user.name", "pathMatch": "ANY", "matcher": "toEqual", "expected": "Ada Lovelace", "not": false})
    );
    assert_eq!(proposed[1]["matcher"], "toBeNull");
    assert_eq!(proposed[3]["path"], "$.items[0].id");

    // The suite form runs as is and passes.
    let out = run(&["scaffold", "--suite", &order]);
    let dir = scratch("scaffold");
    let path = dir.join("scaffolded.json");
    std::fs::write(&path, &out.stdout).unwrap();
    let out = run(&["test", "--no-db", &path.display().to_string()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(text(&out.stdout).ends_with("13 assertions in 1 case: 13 passed, 0 failed, 0 errors\n"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn scaffold_reads_stdin() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_llm-extract"))
        .args(["scaffold", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"{'ok': True}")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let proposed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(proposed[0]["path"], "$.ok");
    assert_eq!(proposed[0]["expected"], true);
}

#[test]
fn yaml_suites_run_like_json_ones() {
    let out = run(&["test", "--no-db", &suite("yaml.suite.yaml")]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("PASS  [yaml order] y2 $.tags toContain (ANY)"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("5 assertions in 2 cases: 5 passed, 0 failed, 0 errors\n"),
        "{stdout}"
    );

    let dir = scratch("yaml");
    let path = dir.join("broken.yml");
    std::fs::write(&path, "cases: [").unwrap();
    let out = run(&["test", "--no-db", &path.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not a YAML suite"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_closed_stdout_pipe_does_not_panic() {
    let dir = scratch("pipe");
    let cases: Vec<serde_json::Value> = (0..3000)
        .map(|i| {
            serde_json::json!({
                "name": format!("case {i}"),
                "output": "{\"n\": 1}",
                "assertions": [{"path": "n", "matcher": "toEqual", "expected": 1}]
            })
        })
        .collect();
    let path = dir.join("many.json");
    std::fs::write(&path, serde_json::json!({ "cases": cases }).to_string()).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_llm-extract"))
        .args(["test", &path.display().to_string()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Close our end before the child has written its ~150 KB of lines.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        !text(&out.stderr).contains("panicked"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn test_records_runs_that_history_lists_and_diff_compares() {
    let dir = scratch("history");
    let suite = dir.join("s.json");
    let output = dir.join("out.txt");
    std::fs::write(
        &suite,
        r#"{"cases": [{"name": "c", "outputFile": "out.txt", "assertions": [
            {"id": "name", "path": "$.name", "matcher": "toEqual", "expected": "Ada"},
            {"id": "age", "path": "$.age", "matcher": "toBeGreaterThan", "expected": 30}]}]}"#,
    )
    .unwrap();
    let suite_arg = suite.display().to_string();
    std::fs::write(&output, r#"{"name": "Ada", "age": 36}"#).unwrap();
    let first = run(&["test", &suite_arg]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    assert!(
        text(&first.stderr).contains("recorded as run #1"),
        "{}",
        text(&first.stderr)
    );
    assert!(dir.join(".llm-extract/runs.sqlite").is_file());

    std::fs::write(&output, "```json\n{'name': 'Bob', age: 36}\n```").unwrap();
    let second = run(&["test", &suite_arg]);
    assert_eq!(second.status.code(), Some(1));

    let history = run(&["history", &suite_arg]);
    let listed = text(&history.stdout);
    assert_eq!(history.status.code(), Some(0), "{}", text(&history.stderr));
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), 2, "{listed}");
    assert!(
        lines[0].starts_with("#1 ")
            && lines[0].contains("2 passed, 0 failed")
            && lines[0].contains("100.0%"),
        "{listed}"
    );
    assert!(
        lines[1].starts_with("#2 ")
            && lines[1].contains("1 passed, 1 failed")
            && lines[1].contains("50.0%"),
        "{listed}"
    );

    let db = dir.join(".llm-extract/runs.sqlite").display().to_string();
    let diff = run(&["diff", "--db", &db]);
    let shown = text(&diff.stdout);
    assert_eq!(diff.status.code(), Some(0), "{}", text(&diff.stderr));
    assert!(shown.starts_with("run #1 ("), "{shown}");
    assert!(shown.contains("1 changed, 1 unchanged"), "{shown}");
    assert!(
        shown.contains(r#"PASS -> FAIL  [c] name $.name toEqual: $.name toEqual "Ada" expected an equal value, got "Bob""#),
        "{shown}"
    );

    let diff = run(&["diff", "1", "2", "--json", "--suite", &suite_arg]);
    let json: serde_json::Value = serde_json::from_slice(&diff.stdout).unwrap();
    assert_eq!(json["from"]["id"], 1);
    assert_eq!(json["to"]["id"], 2);
    assert_eq!(json["unchanged"], 1);
    assert_eq!(json["changes"][0]["assertion"], "name");
    assert_eq!(json["changes"][0]["before"], "pass");
    assert_eq!(json["changes"][0]["after"], "fail");

    let json_history = run(&["history", "--json", &suite_arg]);
    let runs: serde_json::Value = serde_json::from_slice(&json_history.stdout).unwrap();
    assert_eq!(runs[1]["failed"], 1);

    let none = run(&["test", "--no-db", &suite_arg]);
    assert_eq!(none.status.code(), Some(1));
    let history = run(&["history", &suite_arg]);
    assert_eq!(
        text(&history.stdout).lines().count(),
        2,
        "--no-db must not record"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn history_and_diff_without_a_database_say_so() {
    let dir = scratch("no-db");
    let suite = dir.join("s.json").display().to_string();
    let out = run(&["history", &suite]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no run database at"),
        "{}",
        text(&out.stderr)
    );
    let db = dir.join("runs.sqlite").display().to_string();
    let out = run(&["diff", "--db", &db]);
    assert!(
        text(&out.stderr).contains("no run database at"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn runs_recorded_by_several_processes_at_once_all_land() {
    let dir = scratch("parallel");
    let suite = dir.join("s.json");
    let cases: Vec<serde_json::Value> = (0..40)
        .map(|i| {
            serde_json::json!({"name": format!("c{i}"), "output": format!("{{\"n\": {i}}}"),
                "assertions": [{"path": "$.n", "matcher": "toBeLessThan", "expected": 20}]})
        })
        .collect();
    std::fs::write(&suite, serde_json::json!({ "cases": cases }).to_string()).unwrap();
    let children: Vec<_> = (0..6)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_llm-extract"))
                .args(["test", "-q", &suite.display().to_string()])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    }
    let out = run(&["history", "--json", &suite.display().to_string()]);
    let runs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let runs = runs.as_array().unwrap();
    assert_eq!(runs.len(), 6);
    for r in runs {
        assert_eq!(
            (r["assertions"].as_i64(), r["passed"].as_i64()),
            (Some(40), Some(20))
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_failed_write_to_stdout_fails_the_suite_run() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let out = Command::new(env!("CARGO_BIN_EXE_llm-extract"))
        .args(["test", "--no-db", &suite("passing.suite.json")])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert_eq!(
        err.matches("cannot write to standard output").count(),
        1,
        "{err}"
    );
}

#[test]
fn an_empty_suite_fails_saying_no_assertions_ran() {
    let dir = scratch("empty");
    let path = dir.join("empty.json");
    std::fs::write(&path, r#"{"cases": []}"#).unwrap();
    let out = run(&["test", "--no-db", &path.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no assertions ran"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_matcher_given_more_arguments_than_it_takes_is_a_load_error() {
    let dir = scratch("arity");
    let path = dir.join("arity.json");
    std::fs::write(
        &path,
        r#"{"cases": [{"name": "a", "output": "{\"x\": 1}", "assertions": [
            {"path": "x", "matcher": "toBeDefined", "expected": 1}]}]}"#,
    )
    .unwrap();
    let out = run(&["test", "--no-db", &path.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("assertion #1: $.expected: wrong arity"),
        "{err}"
    );
    assert!(
        text(&out.stdout).starts_with("ERROR"),
        "{}",
        text(&out.stdout)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_empty_path_is_a_load_error_not_the_root() {
    let dir = scratch("empty-path");
    let path = dir.join("path.json");
    std::fs::write(
        &path,
        r#"{"cases": [{"name": "a", "output": "{}", "assertions": [
            {"path": "", "matcher": "toBeDefined"}]}]}"#,
    )
    .unwrap();
    let out = run(&["test", "--no-db", &path.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("$.path: empty path"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

/// `suite` written as `name.suite.json` in a scratch directory; the path to run.
fn scratch_suite(name: &str, suite: &str) -> String {
    let file = scratch(name).join(format!("{name}.suite.json"));
    std::fs::write(&file, suite).unwrap();
    file.display().to_string()
}

const SCORE_CASE: &str = r#"{"name": "score", "output": "Result: {\"score\": \"0.8\"}",
    "assertions": [{"id": "n", "path": "$.score", "matcher": "toBeType", "expected": "number"}]}"#;

#[test]
fn a_suite_schema_makes_assertions_run_on_the_typed_value() {
    let schema =
        r#"{"type": "object", "properties": {"score": {"type": "number"}}, "required": ["score"]}"#;
    // Without a schema the repaired JSON keeps "0.8" a string: the assertion fails.
    let plain = scratch_suite("plain", &format!(r#"{{"cases": [{SCORE_CASE}]}}"#));
    let out = run(&["test", "--no-db", &plain]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("FAIL  [score] n $.score toBeType"),
        "{}",
        text(&out.stdout)
    );
    // The suite's schema reads it as the application does: a number.
    let typed = scratch_suite(
        "typed",
        &format!(r#"{{"schema": {schema}, "cases": [{SCORE_CASE}]}}"#),
    );
    let out = run(&["test", "--no-db", &typed]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("PASS  [score] n $.score toBeType"),
        "{}",
        text(&out.stdout)
    );
    // A case's own schema wins over the suite's: here the reply does not read against it.
    let own = r#"{"name": "own", "output": "{\"score\": 0.5}",
        "schema": {"type": "object", "properties": {"score": {"type": "integer"}}},
        "assertions": [{"id": "i", "path": "$.score", "matcher": "toBeDefined"}]}"#;
    let per_case = scratch_suite(
        "per_case",
        &format!(r#"{{"schema": {schema}, "cases": [{SCORE_CASE}, {own}]}}"#),
    );
    let out = run(&["test", "--no-db", &per_case]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("PASS  [score] n"), "{stdout}");
    assert!(
        stdout.contains("ERROR [own] i $.score toBeDefined (ANY): the output does not read against the schema: $.score:"),
        "{stdout}"
    );
}

#[test]
fn an_invalid_schema_is_a_load_error_naming_the_pointer() {
    let bad = r##"{"name": "bad", "output": "{}", "schema": {"properties": {"a": {"$ref": "#/$defs/Nope"}}},
        "assertions": [{"id": "x", "path": "$", "matcher": "toBeDefined"}]}"##;
    let path = scratch_suite("bad_schema", &format!(r#"{{"cases": [{bad}]}}"#));
    let out = run(&["test", "--no-db", &path]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("#/properties/a/$ref"),
        "{}",
        text(&out.stderr)
    );

    let suite_level = scratch_suite(
        "bad_suite_schema",
        r##"{"schema": {"$ref": "#/$defs/Nope"}, "cases": []}"##,
    );
    let out = run(&["test", "--no-db", &suite_level]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("#/$ref"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn require_complete_makes_a_truncated_reply_fail() {
    let case = r#"{"name": "cut", "output": "{\"tags\": [\"a\", \"b\"",
        "assertions": [{"id": "t", "path": "$.tags", "matcher": "toBeType", "expected": "array"}]}"#;
    let lenient = scratch_suite("lenient", &format!(r#"{{"cases": [{case}]}}"#));
    let out = run(&["test", "--no-db", &lenient]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));

    let strict = scratch_suite(
        "strict",
        &format!(r#"{{"requireComplete": true, "cases": [{case}]}}"#),
    );
    let out = run(&["test", "--no-db", &strict]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("ERROR [cut] t $.tags toBeType (ANY): the output is not a complete value (requireComplete):"),
        "{stdout}"
    );
    // A reply with no JSON at all is still read as text under requireComplete.
    let prose = r#"{"name": "prose", "output": "Paris.",
        "assertions": [{"id": "p", "path": "$", "matcher": "toContain", "expected": "Paris"}]}"#;
    let strict_prose = scratch_suite(
        "strict_prose",
        &format!(r#"{{"requireComplete": true, "cases": [{prose}]}}"#),
    );
    let out = run(&["test", "--no-db", &strict_prose]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}
