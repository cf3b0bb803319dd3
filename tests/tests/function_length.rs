//! No function grows past `MAX_LINES` lines unnoticed: a longer one is split into named
//! steps, or carries its reason in a comment starting `// Long:` in the comment block directly
//! above it (above its attributes), or is listed in `tests/long_functions.txt` while it waits to
//! be split. An allow-list line whose function is no longer long fails too, and so does a
//! `// Long:` reason above a function that is not long, so neither outlives its cause.
//!
//! A function's length is counted from the line of its `fn` keyword to the line of its closing
//! brace, both included. The scan covers the workspace members' sources and leaves out test
//! code, where table-driven tests are long by design: folders named `tests` or `benches`,
//! `tests.rs` files, and items under `#[cfg(test)]`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The longest a function may be without a reason.
const MAX_LINES: usize = 80;

/// How a reason starts, in a `//` comment directly above the function.
const MARKER: &str = "// Long:";

/// The allow-list, in the test package's folder: one `path::fn_name — reason` per line.
const ALLOW_LIST: &str = "long_functions.txt";

/// Folders whose sources are test code (or build output), not scanned.
const SKIPPED_FOLDERS: [&str; 3] = ["tests", "benches", "target"];

/// One function found in a source file.
#[derive(Debug)]
struct Function {
    name: String,
    /// 1-based line of the `fn` keyword.
    line: usize,
    /// Lines from the `fn` keyword to the closing brace, both included.
    lines: usize,
    /// Whether the comments directly above it give a `// Long:` reason.
    has_reason: bool,
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The source with every comment, string, raw string and character literal blanked out
/// (newlines kept, so positions and line numbers stay the same), leaving braces that are code.
fn mask(source: &str) -> Vec<char> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        match literal_end(&chars, i) {
            Some(end) => {
                out.extend(
                    chars[i..end]
                        .iter()
                        .map(|&c| if c == '\n' { '\n' } else { ' ' }),
                );
                i = end;
            }
            None => {
                out.push(chars[i]);
                i += 1;
            }
        }
    }
    out
}

/// Where the comment or literal starting at `i` ends (exclusive); `None` when none starts there.
fn literal_end(c: &[char], i: usize) -> Option<usize> {
    let at = |k: usize| c.get(k).copied();
    let after_ident = i > 0 && is_ident(c[i - 1]);
    match c[i] {
        '/' if at(i + 1) == Some('/') => {
            Some((i..c.len()).find(|&k| c[k] == '\n').unwrap_or(c.len()))
        }
        '/' if at(i + 1) == Some('*') => Some(block_comment_end(c, i)),
        '"' => Some(string_end(c, i + 1)),
        '\'' => char_literal_end(c, i),
        'r' | 'b' | 'c' if !after_ident => raw_string_end(c, i),
        _ => None,
    }
}

/// Block comments nest in Rust.
fn block_comment_end(c: &[char], start: usize) -> usize {
    let mut depth = 0usize;
    let mut k = start;
    while k + 1 < c.len() {
        if c[k] == '/' && c[k + 1] == '*' {
            depth += 1;
            k += 2;
        } else if c[k] == '*' && c[k + 1] == '/' {
            depth -= 1;
            k += 2;
            if depth == 0 {
                return k;
            }
        } else {
            k += 1;
        }
    }
    c.len()
}

/// The end of a `"..."` string whose contents start at `k` (escapes skipped).
fn string_end(c: &[char], mut k: usize) -> usize {
    while k < c.len() {
        match c[k] {
            '\\' => k += 2,
            '"' => return k + 1,
            _ => k += 1,
        }
    }
    c.len()
}

/// `'x'`, `'\n'`, `'\u{7b}'`, `'\''`; `None` for a lifetime or label (`'a`, `'outer:`).
fn char_literal_end(c: &[char], i: usize) -> Option<usize> {
    if c.get(i + 1) == Some(&'\\') {
        // The escaped character is at i + 2; the closing quote is the next one after it.
        return (i + 3..c.len()).find(|&k| c[k] == '\'').map(|k| k + 1);
    }
    (c.get(i + 2) == Some(&'\'')).then_some(i + 3)
}

/// `r"..."`, `r#"..."#` (any number of `#`), with an optional `b` or `c` prefix; `None` when
/// no raw string starts at `i` (a raw identifier `r#type`, or any other word).
fn raw_string_end(c: &[char], i: usize) -> Option<usize> {
    let mut k = i;
    if matches!(c[k], 'b' | 'c') {
        k += 1;
    }
    if c.get(k) != Some(&'r') {
        return None;
    }
    k += 1;
    let hashes = c[k..].iter().take_while(|&&h| h == '#').count();
    k += hashes;
    if c.get(k) != Some(&'"') {
        return None;
    }
    k += 1;
    while k < c.len() {
        if c[k] == '"'
            && c[k + 1..]
                .iter()
                .take(hashes)
                .filter(|&&h| h == '#')
                .count()
                == hashes
        {
            return Some(k + 1 + hashes);
        }
        k += 1;
    }
    Some(c.len())
}

/// The index of the `}` matching the `{` at `open`.
fn matching_brace(code: &[char], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, &ch) in code.iter().enumerate().skip(open) {
        match ch {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    code.len().saturating_sub(1)
}

/// The `{` that opens the body of the item whose header starts at `from`, or `None` when the
/// header ends with `;` first (a declaration without a body).
fn body_start(code: &[char], from: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (k, &ch) in code.iter().enumerate().skip(from) {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            '{' if depth == 0 => return Some(k),
            ';' if depth == 0 => return None,
            _ => {}
        }
    }
    None
}

/// Whether the word `word` starts at `k` (not inside a longer identifier).
fn word_at(code: &[char], k: usize, word: &str) -> bool {
    let w: Vec<char> = word.chars().collect();
    code[k..].starts_with(&w)
        && (k == 0 || !is_ident(code[k - 1]))
        && code.get(k + w.len()).is_none_or(|&c| !is_ident(c))
}

/// The character ranges of items marked `#[cfg(test)]` (a test module, a test helper).
fn test_ranges(code: &[char]) -> Vec<(usize, usize)> {
    let attr: Vec<char> = "#[cfg(test)]".chars().collect();
    (0..code.len())
        .filter(|&k| code[k..].starts_with(&attr))
        .filter_map(|k| {
            let open = body_start(code, k + attr.len())?;
            Some((k, matching_brace(code, open)))
        })
        .collect()
}

/// Whether the comment block directly above line `line` (1-based; attribute lines in between
/// are passed over) holds a `// Long:` reason with some text after it.
fn has_reason(lines: &[&str], line: usize) -> bool {
    lines[..line - 1]
        .iter()
        .rev()
        .map(|l| l.trim())
        .take_while(|l| l.starts_with("//") || l.starts_with("#["))
        .any(|l| l.strip_prefix(MARKER).is_some_and(|r| !r.trim().is_empty()))
}

/// Every function with a body in `source`, outside `#[cfg(test)]` items.
fn functions(source: &str) -> Vec<Function> {
    let code = mask(source);
    let lines: Vec<&str> = source.lines().collect();
    let mut line_of = Vec::with_capacity(code.len());
    let mut line = 1;
    for &ch in &code {
        line_of.push(line);
        if ch == '\n' {
            line += 1;
        }
    }
    let skipped = test_ranges(&code);
    let mut out = Vec::new();
    for k in 0..code.len() {
        if !word_at(&code, k, "fn") || skipped.iter().any(|&(a, b)| a <= k && k <= b) {
            continue;
        }
        let name_start = (k + 2..code.len())
            .find(|&n| !code[n].is_whitespace())
            .unwrap_or(code.len());
        let name: String = code[name_start..]
            .iter()
            .take_while(|&&c| is_ident(c))
            .collect();
        // `fn(&T) -> U` is a type, not a function.
        if name.is_empty() {
            continue;
        }
        let Some(open) = body_start(&code, name_start) else {
            continue;
        };
        let close = matching_brace(&code, open);
        out.push(Function {
            line: line_of[k],
            lines: line_of[close] - line_of[k] + 1,
            has_reason: has_reason(&lines, line_of[k]),
            name,
        });
    }
    out
}

/// The workspace members, read from the root `Cargo.toml`'s `members = [...]`.
fn members(root: &Path) -> Vec<String> {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("the root manifest");
    // `members = [...]` at the start of a line (not `default-members`).
    let list = manifest
        .split_once("\nmembers = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .expect("the root manifest lists its members")
        .0;
    list.split(',')
        .map(|m| m.trim().trim_matches('"').to_string())
        .filter(|m| !m.is_empty())
        .collect()
}

/// The `.rs` files under `dir` that are not test code.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    if SKIPPED_FOLDERS.contains(&name) {
        return;
    }
    for entry in std::fs::read_dir(dir).expect("a readable folder") {
        let path = entry.expect("a readable entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
}

/// `path::fn_name` -> reason, from the allow-list.
fn allow_list(path: &Path, problems: &mut Vec<String>) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut entries = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_once(" — ") {
            Some((key, reason)) if key.contains("::") && !reason.trim().is_empty() => {
                entries.insert(key.trim().to_string(), reason.trim().to_string());
            }
            _ => problems.push(format!(
                "tests/{ALLOW_LIST}:{}: expected `path/to/file.rs::fn_name — reason`, found `{line}`",
                i + 1
            )),
        }
    }
    entries
}

#[test]
fn no_function_is_long_without_a_reason() {
    let package = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = package.parent().expect("the workspace root");
    let mut problems = Vec::new();
    let allowed = allow_list(&package.join(ALLOW_LIST), &mut problems);
    let mut files = Vec::new();
    for member in members(root) {
        sources(&root.join(member), &mut files);
    }
    files.sort();
    // `path::fn_name` of every long function.
    let mut long = BTreeMap::new();
    let mut scanned = 0;
    for file in &files {
        let relative = file.strip_prefix(root).expect("under the root");
        let relative = relative.to_string_lossy().replace('\\', "/");
        let source = std::fs::read_to_string(file).expect("a readable source file");
        for f in functions(&source) {
            scanned += 1;
            let key = format!("{relative}::{}", f.name);
            let at = format!("{relative}:{} `{}`", f.line, f.name);
            let is_long = f.lines > MAX_LINES;
            if is_long {
                long.insert(key.clone(), f.lines);
            }
            match (is_long, f.has_reason, allowed.contains_key(&key)) {
                (true, false, false) => problems.push(format!(
                    "{at} is {} lines (over {MAX_LINES}): split it into named steps, or write \
                     why it is long in a `{MARKER} ...` comment directly above it",
                    f.lines
                )),
                (true, true, true) => problems.push(format!(
                    "{at} has a `{MARKER}` reason: remove its line from tests/{ALLOW_LIST}"
                )),
                (false, true, _) => problems.push(format!(
                    "{at} is {} lines, not over {MAX_LINES}: remove the `{MARKER}` comment above it",
                    f.lines
                )),
                _ => {}
            }
        }
    }
    for key in allowed.keys() {
        if !long.contains_key(key) {
            problems.push(format!(
                "tests/{ALLOW_LIST} lists `{key}`, which is no longer over {MAX_LINES} lines \
                 (or no longer exists): remove the line"
            ));
        }
    }
    // The scan itself works: it saw the crate's sources.
    assert!(scanned > 500, "only {scanned} functions found in {files:?}");
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

/// A function of `body_lines` lines between its signature and closing brace.
fn function_of(name: &str, body_lines: &[&str]) -> String {
    format!("fn {name}() {{\n{}\n}}\n", body_lines.join("\n"))
}

#[test]
fn braces_in_strings_comments_and_characters_are_not_code() {
    let body = [
        r#"    let a = "}}} {";"#,
        r##"    let b = r#"}" {{ "#;"##,
        r#"    let c = br"}";"#,
        "    let d = ['}', '{', '\\'', '\\u{7d}'];",
        "    // } a comment {",
        "    /* } /* nested } */ { */",
        "    let e: &'static str = \"\\\"}\";",
        "    let f = b'}';",
    ];
    let source = format!("{}fn after() {{}}\n", function_of("tricky", &body));
    let found = functions(&source);
    let names: Vec<_> = found.iter().map(|f| (f.name.as_str(), f.lines)).collect();
    assert_eq!(names, [("tricky", body.len() + 2), ("after", 1)]);
}

#[test]
fn lifetimes_labels_and_raw_identifiers_are_not_literals() {
    let source = "fn a<'x>(s: &'x str) -> &'x str {\n    'outer: loop { break 'outer; }\n    \
                  let r#type = 1;\n    s\n}\nfn b() {}\n";
    let found = functions(source);
    let names: Vec<_> = found.iter().map(|f| (f.name.as_str(), f.lines)).collect();
    assert_eq!(names, [("a", 5), ("b", 1)]);
}

#[test]
fn a_long_reason_is_read_above_attributes_and_doc_comments() {
    let source = "// Long: one arm per token kind\n/// Docs.\n#[inline]\nfn a() {}\n\n\
                  /// Docs only.\nfn b() {}\n// Long:\nfn c() {}\n";
    let found = functions(source);
    let reasons: Vec<_> = found
        .iter()
        .map(|f| (f.name.as_str(), f.has_reason))
        .collect();
    // `c`'s marker gives no reason.
    assert_eq!(reasons, [("a", true), ("b", false), ("c", false)]);
}

#[test]
fn test_modules_declarations_and_fn_types_are_not_counted() {
    let source = "trait T { fn declared(&self); }\nfn takes(f: fn(u8) -> u8) {}\n\
                  #[cfg(test)]\nmod tests {\n    fn helper() {}\n}\n";
    let names: Vec<_> = functions(source).into_iter().map(|f| f.name).collect();
    assert_eq!(names, ["takes"]);
}
