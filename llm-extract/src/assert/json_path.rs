//! JSONPath queries (RFC 9535) with a shorthand (`user.name` for `$.user.name`), behind one
//! small type so the engine underneath (`serde_json_path`) can be swapped.

use crate::error::{Category, Error, Issue};
use crate::path::{Path, Segment};
use serde_json::Value;
use std::fmt;

/// Longest query accepted, in bytes.
pub const MAX_PATH_LEN: usize = 4096;

/// Deepest nesting of brackets and parentheses accepted in a query (keeps the parser's
/// recursion bounded whatever the input).
const MAX_PATH_NESTING: usize = 64;

/// A parsed JSONPath query.
///
/// ```
/// use llm_extract::assert::JsonPath;
/// let q = JsonPath::parse("items[*].id").unwrap();
/// assert_eq!(q.as_str(), "$.items[*].id");
/// let doc = serde_json::json!({"items": [{"id": 1}, {"id": 2}]});
/// let found = q.resolve(&doc);
/// assert_eq!(found.len(), 2);
/// assert_eq!(found[1].path.to_string(), "$.items[1].id");
/// assert_eq!(found[1].value, &serde_json::json!(2));
/// ```
#[derive(Clone)]
pub struct JsonPath {
    text: String,
    query: serde_json_path::JsonPath,
}

/// One value a query resolved to, with its location.
///
/// ```
/// let doc = serde_json::json!({"a": [10, 20]});
/// let found = llm_extract::assert::resolve_json_path(&doc, "a[*]").unwrap();
/// assert_eq!((found[1].path.to_string(), found[1].value), ("$.a[1]".to_string(), &serde_json::json!(20)));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Resolved<'v> {
    /// Where the value is, e.g. `$.items[1].id`.
    pub path: Path,
    /// The value.
    pub value: &'v Value,
}

impl JsonPath {
    /// Parses a JSONPath, accepting a shorthand: without a leading `$`, `user.name`
    /// means `$.user.name` and `[0].id` means `$[0].id`; surrounding whitespace is ignored.
    /// An empty path is an error (write `$` for the whole value).
    ///
    /// A path that cannot be read is an error with a hint where one applies:
    ///
    /// ```
    /// use llm_extract::assert::JsonPath;
    /// let err = JsonPath::parse("items.0").unwrap_err();
    /// assert!(err.to_string().contains("did you mean `$.items[0]`"), "{err}");
    /// ```
    pub fn parse(path: &str) -> Result<JsonPath, Error> {
        let trimmed = path.trim();
        if trimmed.is_empty() {
            return Err(Error::new(vec![Issue::new(
                Category::Other,
                Path::root(),
                "empty path; write `$` for the whole value",
            )]));
        }
        let text = expand_sugar(trimmed);
        JsonPath::parse_strict(&text).map_err(|err| {
            let mut message = err
                .issues()
                .first()
                .map(|i| i.message.clone())
                .unwrap_or_default();
            if let Some(better) = suggest(&text) {
                message.push_str(&format!("; did you mean `{better}`?"));
            }
            let issue = Issue::new(Category::Other, Path::root(), message);
            // Show what was written when sugar changed it.
            let issue = if text != path {
                issue.found(path)
            } else {
                issue
            };
            Error::new(vec![issue])
        })
    }

    /// Parses a query exactly as RFC 9535 defines it: no sugar, no trimming.
    ///
    /// ```
    /// use llm_extract::assert::JsonPath;
    /// assert!(JsonPath::parse_strict("$.a").is_ok());
    /// assert!(JsonPath::parse_strict("a").is_err());
    /// assert!(JsonPath::parse_strict(" $.a").is_err());
    /// ```
    pub fn parse_strict(query: &str) -> Result<JsonPath, Error> {
        let invalid = |why: String| {
            Error::new(vec![Issue::new(
                Category::Other,
                Path::root(),
                format!("invalid JSONPath `{}`: {why}", shorten(query)),
            )])
        };
        if query.len() > MAX_PATH_LEN {
            return Err(invalid(format!("longer than {MAX_PATH_LEN} bytes")));
        }
        if nesting(query) > MAX_PATH_NESTING {
            return Err(invalid(format!(
                "nested deeper than {MAX_PATH_NESTING} brackets"
            )));
        }
        match serde_json_path::JsonPath::parse(query) {
            Ok(parsed) => Ok(JsonPath {
                text: query.to_string(),
                query: parsed,
            }),
            Err(e) => Err(invalid(format!(
                "at position {}, {}",
                e.position(),
                e.message()
            ))),
        }
    }

    /// The query text, with sugar expanded.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Every value the query selects, in document order, with its location.
    pub fn resolve<'v>(&self, value: &'v Value) -> Vec<Resolved<'v>> {
        self.query
            .query_located(value)
            .into_iter()
            .map(|node| {
                let path = node
                    .location()
                    .iter()
                    .map(|element| match element {
                        serde_json_path::PathElement::Name(name) => {
                            Segment::Key((*name).to_string())
                        }
                        serde_json_path::PathElement::Index(i) => Segment::Index(*i),
                    })
                    .collect();
                Resolved {
                    path,
                    value: node.node(),
                }
            })
            .collect()
    }
}

impl fmt::Debug for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("JsonPath").field(&self.text).finish()
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Every value `path` (JSONPath or its sugar) selects in `actual`, with locations.
///
/// ```
/// let doc = serde_json::json!({"user": {"name": "Ada"}});
/// let found = llm_extract::assert::resolve_json_path(&doc, "user.name").unwrap();
/// assert_eq!(found[0].value, "Ada");
/// assert!(llm_extract::assert::resolve_json_path(&doc, "$.user[").is_err());
/// ```
pub fn resolve_json_path<'v>(actual: &'v Value, path: &str) -> Result<Vec<Resolved<'v>>, Error> {
    Ok(JsonPath::parse(path)?.resolve(actual))
}

/// The RFC 9535 normalized form of `path`: `$['items'][0]`.
///
/// ```
/// use llm_extract::Path;
/// let p = Path::root().key("items").index(0).key("it's");
/// assert_eq!(llm_extract::assert::normalized_path(&p), r"$['items'][0]['it\'s']");
/// ```
pub fn normalized_path(path: &Path) -> String {
    let mut out = String::from("$");
    for segment in path.segments() {
        match segment {
            Segment::Index(i) => out.push_str(&format!("[{i}]")),
            Segment::Key(k) => {
                out.push_str("['");
                escape_name(k, &mut out);
                out.push_str("']");
            }
        }
    }
    out
}

/// `path` as a readable query that parses back to itself: `$.items[0]['odd key']`.
pub(crate) fn readable_path(path: &Path) -> String {
    let mut out = String::from("$");
    for segment in path.segments() {
        match segment {
            Segment::Index(i) => out.push_str(&format!("[{i}]")),
            Segment::Key(k) if is_shorthand(k) => {
                out.push('.');
                out.push_str(k);
            }
            Segment::Key(k) => {
                out.push_str("['");
                escape_name(k, &mut out);
                out.push_str("']");
            }
        }
    }
    out
}

fn is_shorthand(key: &str) -> bool {
    let mut chars = key.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Escapes a member name for a single-quoted name selector (RFC 9535 section 2.7).
fn escape_name(name: &str, out: &mut String) {
    for c in name.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
}

fn expand_sugar(path: &str) -> String {
    if path.starts_with('$') {
        path.to_string()
    } else if path.starts_with('[') || path.starts_with('.') {
        format!("${path}")
    } else {
        format!("$.{path}")
    }
}

/// How deep brackets and parentheses nest outside string literals.
fn nesting(query: &str) -> usize {
    let (mut depth, mut max, mut quote, mut escaped) = (0usize, 0usize, None, false);
    for c in query.chars() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' => quote = Some(c),
            '[' | '(' => {
                depth += 1;
                max = max.max(depth);
            }
            ']' | ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// A corrected query for the usual mistakes, when the correction parses: `.0` for `[0]`,
/// `.first-name` for `['first-name']`.
fn suggest(query: &str) -> Option<String> {
    let mut out = String::with_capacity(query.len() + 8);
    let mut rest = query;
    let mut changed = false;
    while let Some(dot) = rest.find('.') {
        out.push_str(&rest[..dot]);
        let after = &rest[dot + 1..];
        if after.starts_with('.') {
            // `..` descendant segment: keep as is.
            out.push('.');
            rest = after;
            continue;
        }
        let end = after.find(['.', '[']).unwrap_or(after.len());
        let word = &after[..end];
        if !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{word}]"));
            changed = true;
        } else if !word.is_empty()
            && word != "*"
            && !is_shorthand(word)
            && !word.contains(['\'', '"', ']', '(', '?'])
        {
            out.push_str("['");
            escape_name(word, &mut out);
            out.push_str("']");
            changed = true;
        } else {
            out.push('.');
            out.push_str(word);
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    (changed && serde_json_path::JsonPath::parse(&out).is_ok()).then_some(out)
}

fn shorten(text: &str) -> String {
    crate::error::shorten(text, 80)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sugar_expands_to_jsonpath() {
        for (sugar, query) in [
            ("user.name", "$.user.name"),
            ("items[0].id", "$.items[0].id"),
            ("[0]", "$[0]"),
            ("..id", "$..id"),
            ("  $.a ", "$.a"),
        ] {
            assert_eq!(JsonPath::parse(sugar).unwrap().as_str(), query, "{sugar}");
        }
    }

    #[test]
    fn an_empty_path_is_an_error_not_the_root() {
        for empty in ["", "  "] {
            let err = JsonPath::parse(empty).unwrap_err();
            assert!(err.to_string().contains("empty path"), "{err}");
        }
    }

    #[test]
    fn hints_for_common_mistakes() {
        let cases = [
            ("items.0", "$.items[0]"),
            ("$.a.first-name", "$.a['first-name']"),
            ("a.1.b", "$.a[1].b"),
        ];
        for (bad, hint) in cases {
            let err = JsonPath::parse(bad).unwrap_err().to_string();
            assert!(
                err.contains(&format!("did you mean `{hint}`")),
                "{bad}: {err}"
            );
        }
        let err = JsonPath::parse("$[").unwrap_err().to_string();
        assert!(err.contains("invalid JSONPath `$[`"), "{err}");
        assert!(!err.contains("did you mean"), "{err}");
    }

    #[test]
    fn deep_nesting_is_refused_not_a_crash() {
        let q = format!("$[?{}@.a{}]", "(".repeat(100), ")".repeat(100));
        assert!(JsonPath::parse(&q)
            .unwrap_err()
            .to_string()
            .contains("nested deeper"));
        assert!(JsonPath::parse(&"a.".repeat(5000)).is_err());
    }

    #[test]
    fn readable_paths_parse_back() {
        let doc = serde_json::json!({"odd key": {"it's\n": [1]}, "a": 2});
        let p = Path::root().key("odd key").key("it's\n").index(0);
        let text = readable_path(&p);
        let found = JsonPath::parse_strict(&text).unwrap().resolve(&doc);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].path, p);
    }
}
