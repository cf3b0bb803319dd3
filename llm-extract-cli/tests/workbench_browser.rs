//! The workbench page driven in a real browser: headless Chromium through chromedriver
//! (WebDriver, with fantoccini), against `llm-extract ui` on a free port.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them). Without them the
//! test says so and passes on a developer's machine, but fails when `CI` is set, so CI can never
//! skip it silently. Set `LLM_EXTRACT_SCREENSHOTS=DIR` to save screenshots of the page there.

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// How long to wait for the page to reach an expected state.
const PATIENCE: Duration = Duration::from_secs(20);

/// A child process killed when the test ends, however it ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("llm-extract-browser-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn start_chromedriver() -> (Running, u16) {
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let running = Running(child);
    let deadline = Instant::now() + PATIENCE;
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "chromedriver did not listen on {port}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (running, port)
}

/// Starts `llm-extract ui SUITE --port 0` and reads the URL it prints.
fn start_workbench(suite: &Path) -> (Running, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_llm-extract"))
        .args(["ui", &suite.display().to_string(), "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the binary runs");
    let stdout = child.stdout.take().unwrap();
    let running = Running(child);
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string();
    (running, url)
}

async fn browser(driver_port: u16, profile: &Path) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".to_string(),
        json!({
            "binary": CHROMIUM,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1400,1000",
                format!("--user-data-dir={}", profile.display()),
            ]
        }),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{driver_port}"))
        .await
        .expect("a WebDriver session")
}

/// Runs `script` in the page until it returns something other than `null` or `false`.
async fn until(c: &Client, what: &str, script: &str) -> Value {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let value = c.execute(script, Vec::new()).await.unwrap();
        if !value.is_null() && value != Value::Bool(false) {
            return value;
        }
        if Instant::now() > deadline {
            let html = c.source().await.unwrap_or_default();
            panic!("timed out waiting for {what}\n{html}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The element `locator` names, waiting for the page to render it: a re-render (after a save
/// or a preview) replaces rows, so an element looked up at once may not be there yet.
async fn find(c: &Client, locator: Locator<'_>) -> fantoccini::elements::Element {
    let deadline = Instant::now() + PATIENCE;
    loop {
        match c.find(locator).await {
            Ok(element) => return element,
            Err(e) if Instant::now() > deadline => panic!("{locator:?}: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// Finds the element `locator` names and clicks it, looking it up again when a re-render
/// replaced it between the two (a stale element reference).
async fn click(c: &Client, locator: Locator<'_>) {
    let deadline = Instant::now() + PATIENCE;
    loop {
        match find(c, locator).await.click().await {
            Ok(_) => return,
            Err(e) if Instant::now() > deadline => panic!("clicking {locator:?}: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// The last assertion row's element matching `css`.
async fn in_last_row(c: &Client, css: &str) -> fantoccini::elements::Element {
    c.find(Locator::Css(&format!("tbody.assertion:last-of-type {css}")))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
}

async fn screenshot(c: &Client, name: &str) {
    if let Some(dir) = std::env::var_os("LLM_EXTRACT_SCREENSHOTS") {
        let png = c.screenshot().await.unwrap();
        std::fs::write(Path::new(&dir).join(name), png).unwrap();
    }
}

fn run_test(suite: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_llm-extract"))
        .args(["test", &suite.display().to_string()])
        .output()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edit_preview_save_and_history_in_a_real_browser() {
    if !Path::new(CHROMIUM).is_file() || !Path::new(CHROMEDRIVER).is_file() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must run the browser test: install chromium and chromium-driver ({CHROMIUM}, {CHROMEDRIVER})"
        );
        eprintln!("SKIPPED: the browser test needs {CHROMIUM} and {CHROMEDRIVER} (apt-get install chromium chromium-driver)");
        return;
    }
    let dir = scratch("workbench");
    let suite = dir.join("suite.json");
    let output = dir.join("reply.txt");
    std::fs::write(
        &output,
        "Sure:\n```json\n{\"user\": {\"name\": \"Ada\", \"age\": 36, \"langs\": [\"en\"]}}\n```",
    )
    .unwrap();
    std::fs::write(
        &suite,
        r#"{
  "title": "users",
  "cases": [
    {"name": "user", "outputFile": "reply.txt", "assertions": [
      {"id": "age", "path": "$.user.age", "matcher": "toEqual", "expected": 36}
    ]},
    {"name": "escape", "outputFile": "../../etc/passwd", "assertions": []}
  ]
}
"#,
    )
    .unwrap();

    let (_driver, driver_port) = start_chromedriver();
    let (_server, url) = start_workbench(&suite);
    let c = browser(driver_port, &dir.join("profile")).await;
    c.goto(&url).await.unwrap();

    // The cases, with the one whose outputFile leaves the folder showing its load error.
    until(
        &c,
        "the case list",
        "return document.querySelectorAll('#case-list li').length === 2",
    )
    .await;
    click(&c, Locator::Css("#case-list li[data-index='1']")).await;
    let errors = until(
        &c,
        "the escape case's error",
        "return document.querySelector('#case-errors li')?.textContent",
    )
    .await;
    assert!(
        errors
            .as_str()
            .unwrap()
            .contains("outside the suite's folder"),
        "{errors}"
    );
    click(&c, Locator::Css("#case-list li[data-index='0']")).await;
    let repaired = until(
        &c,
        "the repaired output",
        "return document.getElementById('repaired-output').textContent.includes('\"Ada\"')",
    )
    .await;
    assert_eq!(repaired, Value::Bool(true));
    let hints = c
        .execute(
            "return [...document.querySelectorAll('#path-hints option')].map(o => o.value)",
            vec![],
        )
        .await
        .unwrap();
    assert!(
        hints
            .as_array()
            .unwrap()
            .contains(&json!("$.user.langs[*]")),
        "{hints}"
    );

    // Add a toMatch assertion; a bad regex shows a row error as it is typed.
    click(&c, Locator::Id("add-assertion")).await;
    let path = in_last_row(&c, "input.path").await;
    path.clear().await.unwrap();
    path.send_keys("$.user.name").await.unwrap();
    in_last_row(&c, "select.matcher")
        .await
        .select_by_value("toMatch")
        .await
        .unwrap();
    let pattern = in_last_row(&c, "input.pattern").await;
    pattern.send_keys("^[a-z").await.unwrap();
    let error = until(
        &c,
        "the bad-regex row error",
        "const e = document.querySelector('tbody.assertion:last-of-type .row-errors .row-error'); return e && e.textContent",
    )
    .await;
    assert!(
        error
            .as_str()
            .unwrap()
            .starts_with("expected: `toMatch`: invalid regex"),
        "{error}"
    );
    screenshot(&c, "workbench-row-error.png").await;
    pattern.send_keys("]+$").await.unwrap();
    until(
        &c,
        "the row error to clear",
        "return document.querySelector('tbody.assertion:last-of-type .row-errors').children.length === 0",
    )
    .await;

    // Delete the first row, then undo inline (no confirm dialog).
    click(
        &c,
        Locator::Css("tbody.assertion[data-index='0'] button.delete"),
    )
    .await;
    assert_eq!(
        c.execute(
            "return document.querySelectorAll('tbody.assertion').length",
            vec![]
        )
        .await
        .unwrap(),
        json!(1)
    );
    click(&c, Locator::Css("button.undo-delete")).await;
    assert_eq!(
        c.execute(
            "return document.querySelectorAll('tbody.assertion').length",
            vec![]
        )
        .await
        .unwrap(),
        json!(2)
    );

    // Preview: the server's evaluator answers one pass chip and one fail chip with its message.
    click(&c, Locator::Id("preview")).await;
    let chips = until(
        &c,
        "two preview chips",
        "const c = [...document.querySelectorAll('td.result .chip')].map(c => c.textContent); return c.length === 2 && c",
    )
    .await;
    assert_eq!(chips, json!(["PASS", "FAIL"]));
    let message = c
        .find(Locator::Css("tbody.assertion:last-of-type .result-message"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(
        message,
        r#"$.user.name toMatch /^[a-z]+$/ expected match, got "Ada""#
    );
    screenshot(&c, "workbench-preview.png").await;

    // Save writes the file: the document's keys keep their order, the new row is there.
    click(&c, Locator::Id("save")).await;
    until(
        &c,
        "the save",
        "return document.getElementById('save-status').textContent === 'saved'",
    )
    .await;
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&suite).unwrap()).unwrap();
    let keys: Vec<_> = saved.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["title", "cases"]);
    assert_eq!(
        saved["cases"][0]["assertions"],
        json!([
            {"id": "age", "path": "$.user.age", "matcher": "toEqual", "expected": 36},
            {"path": "$.user.name", "matcher": "toMatch", "expected": "/^[a-z]+$/"}
        ])
    );
    assert_eq!(saved["cases"][1]["outputFile"], "../../etc/passwd");

    // A change on disk since loading: saving asks before overwriting.
    let on_disk = std::fs::read_to_string(&suite).unwrap();
    std::fs::write(&suite, format!("{on_disk}\n")).unwrap();
    click(
        &c,
        Locator::Css("tbody.assertion[data-index='0'] input.not"),
    )
    .await;
    click(&c, Locator::Id("save")).await;
    let conflict = until(&c, "the conflict banner", "return document.getElementById('overwrite') && document.getElementById('banner-text').textContent").await;
    assert!(
        conflict.as_str().unwrap().contains("changed on disk"),
        "{conflict}"
    );
    assert_eq!(
        std::fs::read_to_string(&suite).unwrap(),
        format!("{on_disk}\n")
    );
    click(&c, Locator::Id("overwrite")).await;
    until(
        &c,
        "the forced save",
        "return document.getElementById('save-status').textContent === 'saved'",
    )
    .await;
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&suite).unwrap()).unwrap();
    assert_eq!(saved["cases"][0]["assertions"][0]["not"], true);
    click(
        &c,
        Locator::Css("tbody.assertion[data-index='0'] input.not"),
    )
    .await;
    click(&c, Locator::Id("save")).await;
    until(
        &c,
        "the save",
        "return document.getElementById('save-status').textContent === 'saved'",
    )
    .await;

    // Two runs with a changed output, then the history and the diff.
    assert_eq!(run_test(&suite).status.code(), Some(1));
    std::fs::write(&output, "{\"user\": {\"name\": \"ada\", \"age\": 36}}").unwrap();
    assert_eq!(
        run_test(&suite).status.code(),
        Some(1),
        "the escape case errors in both runs"
    );
    click(&c, Locator::Id("tab-history")).await;
    let rates = until(
        &c,
        "two runs",
        "const r = [...document.querySelectorAll('#runs tr.run .pass-rate')].map(t => t.textContent); return r.length === 2 && r",
    )
    .await;
    assert_eq!(rates, json!(["33.3%", "66.7%"]));
    let title = until(
        &c,
        "the diff",
        "return document.getElementById('diff-title')?.textContent",
    )
    .await;
    assert_eq!(title, json!("Run #1 → run #2: 1 changed, 2 unchanged"));
    let change = c
        .execute(
            "return [...document.querySelectorAll('#changes tr.change td')].map(t => t.textContent)",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        change,
        json!(["user", "#2 $.user.name toMatch", "FAIL", "PASS", ""])
    );
    screenshot(&c, "workbench-history.png").await;

    // A suite that no longer parses still opens, with the error shown instead of a blank page.
    std::fs::write(&suite, "{\"cases\": [").unwrap();
    c.refresh().await.unwrap();
    let shown = until(
        &c,
        "the load error",
        "return document.getElementById('banner-text')?.textContent",
    )
    .await;
    assert!(
        shown
            .as_str()
            .unwrap()
            .starts_with("The suite does not load: not a JSON suite"),
        "{shown}"
    );

    c.close().await.unwrap();
    let _ = std::fs::remove_dir_all(dir);
}

/// One raw HTTP/1.1 request to the workbench; the status code and the body.
fn http(url: &str, request: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let address = url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = TcpStream::connect(address).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    let body = response.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, body)
}

#[test]
fn the_server_refuses_other_hosts_non_json_posts_and_bad_bodies() {
    let dir = scratch("http");
    let suite = dir.join("suite.json");
    std::fs::write(&suite, r#"{"cases": []}"#).unwrap();
    let (_server, url) = start_workbench(&suite);
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    let host = url.trim_start_matches("http://").trim_end_matches('/');

    let (status, body) = http(
        &url,
        &format!("GET /api/suite HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"),
    );
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"matchers\""), "{body}");

    let (status, body) = http(
        &url,
        "GET /api/suite HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 403);
    assert!(
        body.contains("answers only requests to http://127.0.0.1:"),
        "{body}"
    );

    let form = "{\"hash\": \"\", \"cases\": []}";
    let (status, body) = http(&url, &format!(
        "POST /api/save HTTP/1.1\r\nHost: {host}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{form}",
        form.len()
    ));
    assert_eq!(status, 415, "{body}");
    assert_eq!(std::fs::read_to_string(&suite).unwrap(), r#"{"cases": []}"#);

    let bad = "{\"case\": ";
    let (status, body) = http(&url, &format!(
        "POST /api/preview HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{bad}",
        bad.len()
    ));
    assert_eq!(status, 400);
    assert!(
        body.contains("bad request body: EOF while parsing"),
        "{body}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
