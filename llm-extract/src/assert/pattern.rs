//! Regex patterns for `toMatch`: JavaScript-style `/source/flags` or `{source, flags}`,
//! compiled once with the linear-time `regex` engine.

use regex::{Regex, RegexBuilder};
use serde_json::Value;
use std::fmt;

/// Longest pattern source accepted, in characters.
pub const MAX_PATTERN_LEN: usize = 1024;

/// Most memory a compiled pattern may use, in bytes.
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// A compiled `toMatch` pattern.
#[derive(Clone, Debug)]
pub(crate) struct Pattern {
    pub(crate) source: String,
    pub(crate) flags: String,
    pub(crate) regex: Regex,
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "/{}/{}", self.source, self.flags)
    }
}

impl Pattern {
    /// Reads `expected`: a string `/source/flags` (or a bare source without slashes), or an
    /// object `{ "source": ..., "flags": ... }`.
    pub(crate) fn from_expected(expected: &Value) -> Result<Pattern, String> {
        let (source, flags) = match expected {
            Value::String(text) => split_literal(text),
            Value::Object(map) => {
                let source = match map.get("source") {
                    Some(Value::String(s)) => s.clone(),
                    Some(_) => return Err("`source` must be a string".to_string()),
                    None => return Err("a pattern object needs `source`".to_string()),
                };
                let flags = match map.get("flags") {
                    None | Some(Value::Null) => String::new(),
                    Some(Value::String(f)) => f.clone(),
                    Some(_) => return Err("`flags` must be a string".to_string()),
                };
                if let Some(key) = map.keys().find(|k| *k != "source" && *k != "flags") {
                    return Err(format!("unknown key `{key}` in pattern (expected `source` and `flags`)"));
                }
                (source, flags)
            }
            other => {
                return Err(format!(
                    "expected a pattern string like \"/^[A-Z]/i\" or {{\"source\": ..., \"flags\": ...}}, got {}",
                    super::value::type_name(Some(other))
                ))
            }
        };
        Pattern::compile(source, flags)
    }

    fn compile(source: String, flags: String) -> Result<Pattern, String> {
        if source.chars().count() > MAX_PATTERN_LEN {
            return Err(format!(
                "pattern is longer than {MAX_PATTERN_LEN} characters"
            ));
        }
        let mut builder = RegexBuilder::new(&crate::ecma::classes(&source));
        builder.size_limit(REGEX_SIZE_LIMIT);
        for flag in flags.chars() {
            match flag {
                'i' => builder.case_insensitive(true),
                'm' => builder.multi_line(true),
                's' => builder.dot_matches_new_line(true),
                // The engine always matches by Unicode code point, which is what `u` asks for.
                'u' => builder.unicode(true),
                other => {
                    return Err(format!(
                        "unsupported regex flag `{other}` (allowed: i, m, s, u)"
                    ))
                }
            };
        }
        let unsupported = unsupported_features(&source);
        if !unsupported.is_empty() {
            return Err(format!(
                "pattern uses {}, which the linear-time regex engine does not support",
                unsupported.join(", ")
            ));
        }
        let regex = builder
            .build()
            .map_err(|e| format!("invalid regex: {}", regex_reason(&e)))?;
        Ok(Pattern {
            source,
            flags,
            regex,
        })
    }
}

/// `/src/flags` when the text has that shape (flags only letters); otherwise the whole text
/// is the source.
fn split_literal(text: &str) -> (String, String) {
    if let Some(body) = text.strip_prefix('/') {
        if let Some(end) = body.rfind('/') {
            let flags = &body[end + 1..];
            // Only JavaScript's flag letters, so `/usr/bin` stays a plain source.
            if flags.chars().all(|c| "dgimsuvy".contains(c)) {
                return (body[..end].to_string(), flags.to_string());
            }
        }
    }
    (text.to_string(), String::new())
}

/// The last line of the regex crate's error ("error: unclosed group"), which says why.
fn regex_reason(e: &regex::Error) -> String {
    let text = e.to_string();
    let line = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or(&text);
    line.trim().trim_start_matches("error: ").to_string()
}

/// The backtracking-only features `source` uses, by name, so the error can say which.
fn unsupported_features(source: &str) -> Vec<String> {
    let chars: Vec<char> = source.chars().collect();
    let mut found: Vec<String> = Vec::new();
    let mut note = |name: String| {
        if !found.contains(&name) {
            found.push(name);
        }
    };
    let (mut i, mut in_class) = (0, false);
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                match chars.get(i + 1) {
                    Some(d @ '1'..='9') if !in_class => note(format!("backreference `\\{d}`")),
                    Some('k') if chars.get(i + 2) == Some(&'<') => {
                        note("named backreference `\\k<...>`".to_string())
                    }
                    _ => {}
                }
                i += 2;
                continue;
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class && chars.get(i + 1) == Some(&'?') => {
                let rest: String = chars[i + 2..].iter().take(2).collect();
                if rest.starts_with('=') {
                    note("look-ahead `(?=`".to_string());
                } else if rest.starts_with('!') {
                    note("negative look-ahead `(?!`".to_string());
                } else if rest == "<=" {
                    note("look-behind `(?<=`".to_string());
                } else if rest == "<!" {
                    note("negative look-behind `(?<!`".to_string());
                } else if rest.starts_with('>') {
                    note("atomic group `(?>`".to_string());
                }
            }
            _ => {}
        }
        i += 1;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn literals_and_objects() {
        let p = Pattern::from_expected(&json!("/^[a-z]+$/i")).unwrap();
        assert_eq!((p.source.as_str(), p.flags.as_str()), ("^[a-z]+$", "i"));
        assert!(p.regex.is_match("ABC"));
        let p = Pattern::from_expected(&json!({"source": "a.b", "flags": "s"})).unwrap();
        assert!(p.regex.is_match("a\nb"));
        let p = Pattern::from_expected(&json!("/usr/bin")).unwrap();
        assert_eq!(p.source, "/usr/bin");
        let p = Pattern::from_expected(&json!("^x$")).unwrap();
        assert_eq!(p.to_string(), "/^x$/");
        let p = Pattern::from_expected(&json!("/^a$/m")).unwrap();
        assert!(p.regex.is_match("b\na"));
    }

    #[test]
    fn rejected_at_load_with_the_feature_named() {
        let cases = [
            ("/(?=a)b/", "look-ahead `(?=`"),
            ("/(?!a)b/", "negative look-ahead `(?!`"),
            ("/(?<=a)b/", "look-behind `(?<=`"),
            ("/(?<!a)b/", "negative look-behind `(?<!`"),
            ("/(a)\\1/", "backreference `\\1`"),
            ("/(?<x>a)\\k<x>/", "named backreference"),
            ("/a/g", "unsupported regex flag `g`"),
            ("/(a/", "invalid regex: unclosed group"),
        ];
        for (pattern, needle) in cases {
            let err = Pattern::from_expected(&json!(pattern)).unwrap_err();
            assert!(err.contains(needle), "{pattern}: {err}");
        }
        assert!(
            Pattern::from_expected(&json!("a".repeat(MAX_PATTERN_LEN + 1)))
                .unwrap_err()
                .contains("longer")
        );
        assert!(Pattern::from_expected(&json!(42)).is_err());
        assert!(Pattern::from_expected(&json!({"flags": "i"})).is_err());
        // Escapes and classes are not mistaken for the features above.
        assert!(Pattern::from_expected(&json!(r"/\(\?=[(?=]/")).is_ok());
        assert!(Pattern::from_expected(&json!("/(?<name>a)/")).is_ok());
    }

    #[test]
    fn catastrophic_patterns_run_in_linear_time() {
        let p = Pattern::from_expected(&json!("/^(a+)+$/")).unwrap();
        let text = format!("{}!", "a".repeat(100_000));
        let start = std::time::Instant::now();
        assert!(!p.regex.is_match(&text));
        assert!(start.elapsed().as_secs() < 5);
    }
}
