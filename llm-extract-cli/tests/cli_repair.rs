//! `llm-extract repair` as a user runs it: stdin and files, flags, exit status.

mod common;

use common::{run, stderr, stdout};
use std::io::Write;
use std::process::{Command, Output, Stdio};

#[test]
fn repairs_stdin_compactly() {
    let o = run(
        &["repair"],
        "Sure!\n```json\n{name: 'Ada', tags: ['x',],}\n```",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "{\"name\":\"Ada\",\"tags\":[\"x\"]}\n");
    assert!(stderr(&o).is_empty());
}

#[test]
fn reads_a_file_and_pretty_prints() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-repair");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("reply.txt");
    std::fs::write(&file, "Result: {\"a\": [1, 2]}").unwrap();
    let o = run(&["repair", "--pretty", file.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "{\n  \"a\": [\n    1,\n    2\n  ]\n}\n");
}

#[test]
fn a_missing_file_is_named_in_the_error() {
    let missing = std::env::temp_dir().join("llm-extract-cli-no-such-file.txt");
    let o = run(&["repair", missing.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "llm-extract: cannot read {}: No such file or directory\n",
            missing.display()
        )
    );
}

#[test]
fn all_prints_every_value_as_one_array() {
    let o = run(&["repair", "--all"], "{\"a\": 1}\n{'a': 2}\n");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "[{\"a\":1},{\"a\":2}]\n");
}

#[test]
fn explain_lists_repairs_on_stderr() {
    let o = run(&["repair", "--explain"], "{\"a\": 'x', \"b\": [1,]");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "{\"a\":\"x\",\"b\":[1]}\n");
    let err = stderr(&o);
    assert!(err.contains("NonStandardQuotes at $.a"), "{err}");
    assert!(err.contains("TrailingComma at $.b"), "{err}");
    assert!(err.contains("incomplete"), "{err}");
    assert!(err.contains("1:7"), "{err}");
}

#[test]
fn no_value_exits_1_with_one_line() {
    let o = run(&["repair"], "I'm sorry, I can't do that.");
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).is_empty());
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no JSON found"), "{err}");
}

#[test]
fn bad_usage_exits_2() {
    assert_eq!(
        run(&["repair", "--no-such-flag"], "").status.code(),
        Some(2)
    );
    assert_eq!(run(&["no-such-command"], "").status.code(), Some(2));
}

#[test]
fn limits_and_completeness_flags() {
    let o = run(&["repair", "--require-complete"], "{\"a\": [1, 2");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cut off"));
    let o = run(&["repair", "--max-depth", "2"], "[[[1]]]");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--max-depth"));
    let o = run(
        &["repair", "--marker", "TOOL_CALL"],
        "[0] example\nTOOL_CALL [1]",
    );
    assert_eq!(stdout(&o), "[1]\n");
}

/// `--jsonl` output: one line per input line; a line with no value is empty (never a JSON
/// value), its reason on stderr with the input line's number.
fn jsonl_lines(o: &Output) -> Vec<Option<serde_json::Value>> {
    stdout(o)
        .split_terminator('\n')
        .map(|l| (!l.is_empty()).then(|| serde_json::from_str(l).unwrap()))
        .collect()
}

#[test]
fn jsonl_batch_never_stops_on_a_bad_line() {
    let input = [
        serde_json::to_string("```json\n{\"a\": 1,}\n```").unwrap(),
        serde_json::to_string("nothing here").unwrap(),
        "not a json string".to_string(),
        String::new(),
        serde_json::to_string("[1, 2").unwrap(),
    ]
    .join("\n");
    let o = run(&["repair", "--jsonl"], &input);
    assert_eq!(o.status.code(), Some(0));
    let lines = jsonl_lines(&o);
    assert_eq!(
        lines,
        [
            Some(serde_json::json!({"a": 1})),
            None,
            None,
            None,
            Some(serde_json::json!([1, 2]))
        ]
    );
    let err = stderr(&o);
    let reasons: Vec<&str> = err.lines().collect();
    assert_eq!(reasons.len(), 3, "{err}");
    assert!(reasons[0].starts_with("llm-extract: input line 2: no JSON found"));
    assert!(reasons[1].starts_with("llm-extract: input line 3: not a JSON string: "));
    assert_eq!(
        reasons[2],
        "llm-extract: input line 4: empty (expected a JSON string)"
    );
}

#[test]
fn a_jsonl_reply_shaped_like_an_error_is_a_value_not_a_failure() {
    let input = [
        serde_json::to_string("{\"error\": \"quota exceeded\"}").unwrap(),
        serde_json::to_string("null").unwrap(),
        serde_json::to_string("nothing here").unwrap(),
    ]
    .join("\n");
    let o = run(&["repair", "--jsonl"], &input);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        jsonl_lines(&o),
        [
            Some(serde_json::json!({"error": "quota exceeded"})),
            Some(serde_json::Value::Null),
            None
        ]
    );
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
}

#[test]
fn jsonl_with_all_gives_every_value_per_line() {
    let input = [
        serde_json::to_string("{\"a\": 1}\n{'a': 2}").unwrap(),
        serde_json::to_string("[1, 2]").unwrap(),
        serde_json::to_string("nothing here").unwrap(),
    ]
    .join("\n");
    let o = run(&["repair", "--jsonl", "--all"], &input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        jsonl_lines(&o),
        [
            Some(serde_json::json!([{"a": 1}, {"a": 2}])),
            Some(serde_json::json!([[1, 2]])),
            None
        ]
    );
    assert!(stderr(&o).starts_with("llm-extract: input line 3: no JSON found"));
}

#[test]
fn a_json_string_document_comes_back_unchanged() {
    let o = run(&["repair"], "\"{not json}\"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "\"{not json}\"\n");
}

#[test]
fn not_found_with_a_fence_says_the_fence_was_empty_not_missing() {
    let o = run(&["repair"], "Here it is:\n```json\nsorry, nothing\n```\n");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("a ```json fence holds no JSON-like value"),
        "{err}"
    );
    assert!(!err.contains("no object, array, fence"), "{err}");
    let o = run(&["repair"], "```\nnothing\n```\n```py\nprint()\n```");
    assert!(
        stderr(&o).contains("2 fences hold no JSON-like value"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_jsonl_line_that_is_not_a_string_names_only_its_input_line() {
    let input = "\"[1]\"\n{\"a\": 1}\n\nnot json\n";
    let o = run(&["repair", "--jsonl"], input);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        jsonl_lines(&o),
        [Some(serde_json::json!([1])), None, None, None]
    );
    assert_eq!(
        stderr(&o),
        "llm-extract: input line 2: not a JSON string: it is an object\n\
         llm-extract: input line 3: empty (expected a JSON string)\n\
         llm-extract: input line 4: not a JSON string: expected ident at column 2\n"
    );
}

#[test]
fn a_failed_write_to_stdout_is_reported_and_fails() {
    for args in [
        &["repair"][..],
        &["repair", "--jsonl"],
        &["repair", "--all"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let mut child = Command::new(env!("CARGO_BIN_EXE_llm-extract"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(full)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let input = if args.contains(&"--jsonl") {
            "\"[1]\"\n"
        } else {
            "[1]"
        };
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(
            stderr(&o),
            "llm-extract: cannot write to standard output: No space left on device\n",
            "{args:?}"
        );
    }
}

#[test]
fn limit_errors_name_the_flag_and_give_the_position_once() {
    let o = run(&["repair", "--max-depth", "2"], "[[[1]]]");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "llm-extract: nesting deeper than 2 levels at line 1 column 3; raise it with --max-depth\n"
    );
    let o = run(&["repair", "--max-payload", "5"], "xx {\"a\": 1234567}");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "llm-extract: the value at line 1 column 4 is 14 bytes, more than --max-payload 5\n"
    );
    let input = serde_json::to_string("[[[1]]]").unwrap();
    let o = run(&["repair", "--jsonl", "--max-depth", "2"], &input);
    assert_eq!(stdout(&o), "\n");
    assert_eq!(
        stderr(&o),
        "llm-extract: input line 1: nesting deeper than 2 levels at line 1 column 3; \
         raise it with --max-depth\n"
    );
}

#[test]
fn invalid_utf8_input_is_warned_about_and_reported_as_a_repair() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_llm-extract"))
        .args(["repair", "--explain"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"{\"a\": \"x\xff y\"}")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "{\"a\":\"x\u{fffd} y\"}\n");
    let err = stderr(&o);
    assert!(
        err.starts_with("llm-extract: warning: the input is not valid UTF-8 at byte 8;"),
        "{err}"
    );
    assert!(err.contains("InvalidUtf8 at $ (bytes 8..11)"), "{err}");
    assert!(err.contains("1 repair(s), score 2"), "{err}");
}

#[test]
fn deep_input_is_printed_or_is_the_depth_error_never_an_abort() {
    const LEVELS: usize = 100_000;
    let arrays = format!("{}1{}", "[".repeat(LEVELS), "]".repeat(LEVELS));
    let objects = format!("{}1{}", "{\"a\":".repeat(LEVELS), "}".repeat(LEVELS));
    for text in [&arrays, &objects] {
        let o = run(&["repair", "--max-depth", "1000000"], text);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o) == format!("{text}\n"), "the value changed");
        // Damaged: in a fence, the closers missing. (Not a repair on every level: each
        // repair records its path, which makes that quadratic in the depth.)
        let messy = format!("```json\n{}", &text[..text.len() - LEVELS]);
        let o = run(&["repair", "--max-depth", "1000000"], &messy);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o) == format!("{text}\n"), "the value changed");
        let line = serde_json::to_string(text.as_str()).unwrap();
        let o = run(&["repair", "--jsonl", "--max-depth", "1000000"], &line);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o) == format!("{text}\n"), "the value changed");
    }
    let o = run(&["repair"], &arrays);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("nesting deeper than 128 levels"),
        "{}",
        stderr(&o)
    );
}

/// Replies of several kinds, each naming its line, so output in the wrong order shows.
fn numbered_replies(n: usize) -> String {
    (0..n)
        .map(|i| {
            let reply = match i % 4 {
                0 => format!("{{\"line\": {i}}}"),
                1 => format!("Sure!\n```json\n{{'line': {i}, 'ok': True,}}\n```"),
                2 => format!("nothing at line {i}"),
                _ => format!("[{i}, {{\"a\": [1, 2"),
            };
            serde_json::to_string(&reply).unwrap()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn jsonl_on_several_threads_keeps_the_input_order() {
    // More lines than one chunk holds.
    let input = numbered_replies(10_000);
    let one = run(&["repair", "--jsonl", "--jobs", "1"], &input);
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    let lines = jsonl_lines(&one);
    assert_eq!(lines.len(), 10_000);
    for (i, line) in lines.iter().enumerate() {
        match i % 4 {
            0 => assert_eq!(line, &Some(serde_json::json!({ "line": i }))),
            1 => assert_eq!(line, &Some(serde_json::json!({ "line": i, "ok": true }))),
            2 => assert_eq!(line, &None),
            _ => assert_eq!(line, &Some(serde_json::json!([i, {"a": [1, 2]}]))),
        }
    }
    // Each failure's reason is on stderr, with its input line's number, in order.
    let reasons: Vec<String> = stderr(&one).lines().map(str::to_string).collect();
    assert_eq!(reasons.len(), 2_500);
    assert!(
        reasons[0].starts_with("llm-extract: input line 3: no JSON found"),
        "{}",
        reasons[0]
    );
    assert!(
        reasons[2_499].starts_with("llm-extract: input line 9999: "),
        "{}",
        reasons[2_499]
    );
    for jobs in ["2", "3"] {
        let many = run(&["repair", "--jsonl", "--jobs", jobs], &input);
        assert_eq!(many.status.code(), Some(0), "{}", stderr(&many));
        assert!(
            many.stdout == one.stdout,
            "--jobs {jobs} changed the output"
        );
    }
    // The default (one thread per core) too, and from a file.
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-repair-lines.jsonl");
    std::fs::write(&path, &input).unwrap();
    let from_file = run(&["repair", "--jsonl", path.to_str().unwrap()], "");
    std::fs::remove_file(&path).unwrap();
    assert!(from_file.stdout == one.stdout);
}

#[test]
fn jobs_is_a_positive_count_with_jsonl_only() {
    for args in [
        &["repair", "--jobs", "2"][..],
        &["repair", "--jsonl", "--jobs", "0"],
        &["repair", "--jsonl", "--jobs", "many"],
    ] {
        let o = run(args, "\"[1]\"\n");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
    let o = run(&["repair", "--jsonl", "/no/such/file.jsonl"], "");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "llm-extract: cannot read /no/such/file.jsonl: No such file or directory\n"
    );
}

#[test]
fn jsonl_output_comes_as_lines_arrive() {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_llm-extract"))
        .args(["repair", "--jsonl"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (send, receive) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            if send.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    for i in 0..3 {
        writeln!(
            stdin,
            "{}",
            serde_json::to_string(&format!("{{'n': {i},}}")).unwrap()
        )
        .unwrap();
        stdin.flush().unwrap();
        // The input is still open: the answer must not wait for the end of it.
        let line = receive
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("an output line while the input is still open");
        assert_eq!(line, format!("{{\"n\":{i}}}"));
    }
    drop(stdin);
    assert_eq!(child.wait().unwrap().code(), Some(0));
    reader.join().unwrap();
}

#[test]
fn invalid_utf8_in_jsonl_is_warned_about_once() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_llm-extract"))
        .args(["repair", "--jsonl"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"\"[1]\"\n\"['x\xff']\"\n\"['\xfe\xfe', 'y\xc3']\"\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "[1]\n[\"x\u{fffd}\"]\n[\"\u{fffd}\u{fffd}\",\"y\u{fffd}\"]\n"
    );
    assert_eq!(
        stderr(&o),
        "llm-extract: warning: the input is not valid UTF-8 at byte 10 (and 3 more places); read as U+FFFD\n"
    );
}

#[cfg(feature = "arbitrary_precision")]
#[test]
fn numbers_beyond_u64_and_f64_are_printed_as_written() {
    let text = "Sure: {'big': 123456789012345678901234567890, 'huge': 1e400, 'f': 1.50,}";
    let o = run(&["repair"], text);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"big\":123456789012345678901234567890,\"huge\":1e+400,\"f\":1.50}\n"
    );
    let o = run(
        &["repair", "--jsonl"],
        &serde_json::to_string(text).unwrap(),
    );
    assert_eq!(
        stdout(&o),
        "{\"big\":123456789012345678901234567890,\"huge\":1e+400,\"f\":1.50}\n"
    );
}
