//! The workbench server spoken to over plain HTTP, as another program or page would: posts only
//! from its own page with an `application/json` body, saves that respect a read-only file and
//! a symbolic link, a run database that is not ours refused, and a slow preview that does not
//! hold up other requests. (The page itself is driven in a browser in `workbench_browser.rs`.)

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Kills the server when the test ends, however it ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("http-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Starts `llm-extract ui SUITE --port 0 [ARGS]` and reads the port it prints.
fn start(suite: &Path, args: &[&str]) -> (Running, u16) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_llm-extract"))
        .args(["ui", &suite.display().to_string(), "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the binary runs");
    let stdout = child.stdout.take().unwrap();
    let running = Running(child);
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    let port = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://127.0.0.1:"))
        .and_then(|rest| rest.trim_end_matches('/').parse().ok())
        .unwrap_or_else(|| panic!("no URL in {line:?}"));
    (running, port)
}

/// One request; the status and the body as JSON.
fn request(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, Value) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {answer:?}"));
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// What the page sends with a post.
const FROM_PAGE: &[(&str, &str)] = &[
    ("Content-Type", "application/json"),
    ("Sec-Fetch-Site", "same-origin"),
];

fn write_suite(dir: &Path) -> PathBuf {
    let suite = dir.join("s.json");
    let text = json!({"cases": [{"name": "a", "output": "{\"x\": 1}", "assertions": [{"path": "$.x", "matcher": "toEqual", "expected": 1}]}]});
    std::fs::write(&suite, serde_json::to_string_pretty(&text).unwrap()).unwrap();
    suite
}

fn save_body(port: u16) -> String {
    let (_, page) = request(port, "GET", "/api/suite", &[], "");
    let hash = page["hash"].as_str().expect("the page's hash").to_string();
    json!({"hash": hash, "cases": [{"name": "renamed", "output": "{}", "assertions": []}]})
        .to_string()
}

#[test]
fn posts_need_exactly_json_from_the_workbench_own_page() {
    let dir = scratch("guard");
    let (_server, port) = start(&write_suite(&dir), &[]);
    let body = r#"{"assertions": []}"#;
    let origin = format!("http://127.0.0.1:{port}");
    let own = [
        ("Content-Type", "application/json; charset=utf-8"),
        ("Origin", origin.as_str()),
        ("Sec-Fetch-Site", "same-origin"),
    ];
    assert_eq!(request(port, "POST", "/api/check", &own, body).0, 200);
    // A program without browser headers may post too.
    assert_eq!(
        request(
            port,
            "POST",
            "/api/check",
            &[("Content-Type", "application/json")],
            body
        )
        .0,
        200
    );
    for content_type in [
        "application/jsonp",
        "application/json-patch+json",
        "text/plain",
    ] {
        let (status, answer) = request(
            port,
            "POST",
            "/api/check",
            &[("Content-Type", content_type)],
            body,
        );
        assert_eq!(status, 415, "{content_type}: {answer}");
    }
    let other_page = [
        [
            ("Content-Type", "application/json"),
            ("Origin", "http://attacker.example"),
        ],
        [
            ("Content-Type", "application/json"),
            ("Sec-Fetch-Site", "cross-site"),
        ],
        [
            ("Content-Type", "application/json"),
            ("Sec-Fetch-Site", "same-site"),
        ],
    ];
    for headers in other_page {
        let (status, answer) = request(port, "POST", "/api/save", &headers, &save_body(port));
        assert_eq!(status, 403, "{headers:?}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains("its own page"),
            "{answer}"
        );
    }
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("s.json")).unwrap()).unwrap();
    assert_eq!(
        saved["cases"][0]["name"], "a",
        "a refused post changed nothing"
    );
}

#[cfg(unix)]
#[test]
fn a_read_only_suite_is_not_saved() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("readonly");
    let suite = write_suite(&dir);
    let before = std::fs::read_to_string(&suite).unwrap();
    std::fs::set_permissions(&suite, std::fs::Permissions::from_mode(0o444)).unwrap();
    let (_server, port) = start(&suite, &[]);
    let (status, answer) = request(port, "POST", "/api/save", FROM_PAGE, &save_body(port));
    assert_eq!(status, 403, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("read-only"),
        "{answer}"
    );
    assert_eq!(std::fs::read_to_string(&suite).unwrap(), before);
    let mode = std::fs::metadata(&suite).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o444, "the file is the same read-only file");
}

#[cfg(unix)]
#[test]
fn a_symlinked_suite_is_written_through_to_its_target() {
    let dir = scratch("symlink");
    let shared = dir.join("shared");
    std::fs::create_dir_all(&shared).unwrap();
    let target = write_suite(&shared);
    let link = dir.join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let (_server, port) = start(&link, &[]);
    let (status, answer) = request(port, "POST", "/api/save", FROM_PAGE, &save_body(port));
    assert_eq!(status, 200, "{answer}");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "still a link"
    );
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&target).unwrap()).unwrap();
    assert_eq!(saved["cases"][0]["name"], "renamed");
    let leftovers: Vec<_> = std::fs::read_dir(&shared)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "no temporary file left: {leftovers:?}");
}

#[test]
fn an_empty_or_foreign_run_database_is_an_error_not_a_new_history() {
    let dir = scratch("db");
    let suite = write_suite(&dir);
    let empty = dir.join("empty.sqlite");
    std::fs::write(&empty, "").unwrap();
    let (_server, port) = start(&suite, &["--db", &empty.display().to_string()]);
    let (status, answer) = request(port, "GET", "/api/runs", &[], "");
    assert_eq!(status, 500, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("empty file"),
        "{answer}"
    );
    // `test` refuses to record into it too, and leaves it empty.
    let out = Command::new(env!("CARGO_BIN_EXE_llm-extract"))
        .args([
            "test",
            &suite.display().to_string(),
            "--db",
            &empty.display().to_string(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not a run database"),
        "{out:?}"
    );
    assert_eq!(std::fs::metadata(&empty).unwrap().len(), 0);
}

/// A preview of a large output runs while other requests are answered: the page stays usable.
/// The output grows until its preview takes long enough to tell (the reader gets faster, and
/// machines differ).
#[test]
fn a_large_preview_does_not_stall_other_requests() {
    let dir = scratch("slow");
    let (_server, port) = start(&write_suite(&dir), &[]);
    let mut repeats = 120_000;
    for _ in 0..3 {
        let (took, answered) = preview_while_asking(port, repeats);
        if took <= Duration::from_millis(1500) {
            repeats *= 2;
            continue;
        }
        assert!(
            answered + Duration::from_millis(500) < took,
            "the suite was answered {answered:?} after the request, the preview {took:?}"
        );
        return;
    }
    panic!(
        "the preview of {} items still took under 1.5 s: too fast to tell",
        repeats / 2
    );
}

/// Sends a preview of an output of `repeats` items and, while it runs, asks for the suite:
/// how long after the preview was sent its answer started, and the suite's.
fn preview_while_asking(port: u16, repeats: usize) -> (Duration, Duration) {
    let item = "{name: 'item', tags: ['a', 'b',], note: 'a note that goes on for a while', n: 1,},";
    let output = format!("Sure!\n```json\n[{}]\n```", item.repeat(repeats));
    let body = json!({"output": output, "assertions": [{"path": "$[*].n", "pathMatch": "ALL", "matcher": "toEqual", "expected": 1}]}).to_string();
    let sent = Instant::now();
    let preview = std::thread::spawn(move || {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        let head = format!(
            "POST /api/preview HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body.as_bytes()).unwrap();
        // When the answer starts: the preview is done.
        let mut first = [0u8; 1];
        stream.read_exact(&mut first).unwrap();
        let done = Instant::now();
        let mut rest = String::new();
        stream.read_to_string(&mut rest).unwrap();
        (rest.contains("\"pass\""), done)
    });
    // Give the preview time to arrive and start.
    std::thread::sleep(Duration::from_millis(500));
    let (status, _) = request(port, "GET", "/api/suite", &[], "");
    let answered = Instant::now();
    assert_eq!(status, 200);
    let (passed, previewed) = preview.join().unwrap();
    assert!(passed, "the preview evaluated the whole output");
    (previewed - sent, answered - sent)
}
