//! The one error type: every issue found, each with a path, what and why, and where.

use crate::path::Path;
use crate::span::{Position, Span};
use serde::Serialize;
use std::fmt;

/// What went wrong, broadly; match on it to decide what to do.
///
/// # A reply cut off, or a field left out
///
/// A reply that stops early (the model hit its token limit, a stream was dropped) fails as
/// [`Incomplete`](Category::Incomplete) wherever the cut is the reason: a required field
/// that never came, a value cut off while being written (`"status": "PEN`), a tool call cut
/// off, any cut-off value when [`Extractor::require_complete`](crate::Extractor::require_complete)
/// is set. Asking again with a higher token limit, or for a shorter reply, is the fix.
/// [`Missing`](Category::Missing) is a required field absent from a value the model finished:
/// it left the field out, and asking again with the error's feedback is the fix. What the
/// model got wrong before the cut keeps its own category (a type error in a complete member
/// of a cut-off reply is [`Type`](Category::Type)).
///
/// ```
/// use llm_extract::{Category, Extract};
///
/// #[derive(Extract, Debug)]
/// struct Ticket { summary: String, priority: u8 }
///
/// let cut = llm_extract::from_str::<Ticket>(r#"{"summary": "Refund issued", "prio"#).unwrap_err();
/// assert_eq!(cut.category(), Category::Incomplete);
/// let left_out = llm_extract::from_str::<Ticket>(r#"{"summary": "Refund issued"}"#).unwrap_err();
/// assert_eq!(left_out.category(), Category::Missing);
///
/// let advice = match cut.category() {
///     Category::Incomplete => "raise max_tokens",
///     Category::Missing => "ask again with the feedback",
///     _ => "look at the issues",
/// };
/// assert_eq!(advice, "raise max_tokens");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub enum Category {
    /// The text holds no JSON-like value at all.
    NotFound,
    /// A value was found but its syntax could not be repaired.
    Syntax,
    /// A candidate was larger than `Extractor::max_payload`.
    TooLarge,
    /// Nesting went deeper than `Extractor::max_depth`.
    TooDeep,
    /// The reply was cut off, and that is why the value could not be read: a required field
    /// that never came, a value cut off while being written, a tool call cut off, or any
    /// cut-off value when `Extractor::require_complete` is set.
    Incomplete,
    /// A value has the wrong shape for the target type.
    Type,
    /// A required field is missing from a value the model finished (one cut off before the
    /// field is [`Incomplete`](Category::Incomplete)).
    Missing,
    /// A field not declared on the type, under `deny_unknown_fields`.
    Unknown,
    /// An enum value matches no variant, or several equally.
    Variant,
    /// A validation rule failed.
    Validation,
    /// A value to be acted on (a tool call) could be read only by guessing what was meant:
    /// a bare word as a string, a string end chosen by lookahead, a key written twice, ...
    /// (see [`RepairClass::Guess`](crate::RepairClass::Guess)).
    Doubtful,
    /// Anything else (for example, an invalid JSONPath in an assertion).
    Other,
}

/// The variant's name, as it is serialized (`Incomplete`, `Missing`, ...).
///
/// ```
/// assert_eq!(llm_extract::Category::NotFound.to_string(), "NotFound");
/// ```
impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// One problem found in the text, at one path.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Issue {
    /// What kind of problem.
    pub category: Category,
    /// Where in the value, as JSONPath.
    pub path: Path,
    /// The problem in words, e.g. `0 is less than the minimum 1`.
    pub message: String,
    /// What was expected, e.g. `an integer`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// What was found, shortened, e.g. `"abc"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found: Option<String>,
    /// Where in the original text, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<Span>,
    /// `span.start` as line:column, filled in when the error is built.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<Position>,
}

impl Issue {
    /// A new issue with only a category, path and message.
    pub fn new(category: Category, path: Path, message: impl Into<String>) -> Issue {
        Issue {
            category,
            path,
            message: message.into(),
            expected: None,
            found: None,
            span: None,
            position: None,
        }
    }

    /// Sets what was expected.
    pub fn expected(mut self, expected: impl Into<String>) -> Issue {
        self.expected = Some(expected.into());
        self
    }

    /// Sets what was found (shortened to a readable length).
    pub fn found(mut self, found: impl AsRef<str>) -> Issue {
        self.found = Some(shorten(found.as_ref(), 60));
        self
    }

    /// Sets the source span.
    pub fn at(mut self, span: Span) -> Issue {
        self.span = Some(span);
        self
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.path.is_root() {
            write!(f, "{}: ", self.path)?;
        }
        f.write_str(&self.message)?;
        match (&self.expected, &self.found) {
            (Some(e), Some(found)) => write!(f, " (expected {e}, found {found})")?,
            (Some(e), None) => write!(f, " (expected {e})")?,
            (None, Some(found)) => write!(f, " (found {found})")?,
            (None, None) => {}
        }
        if let Some(p) = self.position {
            write!(f, " at line {} column {}", p.line, p.column)?;
        }
        Ok(())
    }
}

/// How many markdown fences `text` opens, and the first one's info string (`json`, or empty),
/// so that a not-found error says what was there. Runs of backticks pair up as open and close.
fn fences_in(text: &str) -> (usize, &str) {
    let mut runs = 0usize;
    let mut info = "";
    let mut rest = text;
    while let Some(at) = rest.find("```") {
        let after = rest[at..].trim_start_matches('`');
        if runs == 0 {
            let line = after.split('\n').next().unwrap_or("").trim();
            if line.len() <= 32 && !line.contains(char::is_whitespace) && !line.contains('{') {
                info = line;
            }
        }
        runs += 1;
        rest = after;
    }
    (runs.div_ceil(2), info)
}

/// Shortens `text` to at most `max` characters, marking the cut with `...`.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(3)).collect();
    out.push_str("...");
    out
}

/// Why extraction failed: every issue found, not only the first.
///
/// Cheap to move (one pointer), `Send + Sync + 'static`.
///
/// ```
/// let err = llm_extract::repair("no json here").unwrap_err();
/// assert_eq!(err.category(), llm_extract::Category::NotFound);
/// assert!(err.to_string().contains("no JSON"));
/// ```
pub struct Error(Box<Inner>);

struct Inner {
    category: Category,
    issues: Vec<Issue>,
    /// The last line of [`Error::feedback`]: what to send again, and how (a tool call asks
    /// for the call again in the format the model used).
    reask: Option<String>,
}

impl Error {
    /// An error from issues. The category is the first issue's.
    pub fn new(issues: Vec<Issue>) -> Error {
        let category = issues.first().map_or(Category::Other, |i| i.category);
        Error(Box::new(Inner {
            category,
            issues,
            reask: None,
        }))
    }

    /// An error with a single issue at the root.
    pub fn single(category: Category, message: impl Into<String>) -> Error {
        Error::new(vec![Issue::new(category, Path::root(), message)])
    }

    /// No JSON-like value in `text`.
    pub(crate) fn not_found(text: &str) -> Error {
        let what = if text.trim().is_empty() {
            "the text is empty".to_string()
        } else {
            match fences_in(text) {
                (0, _) => "the text holds no JSON-like value (no object, array, fence or marker)"
                    .to_string(),
                (1, info) => format!("a ```{info} fence holds no JSON-like value"),
                (n, _) => format!("{n} fences hold no JSON-like value"),
            }
        };
        Error::new(vec![Issue::new(
            Category::NotFound,
            Path::root(),
            format!("no JSON found: {what}"),
        )])
    }

    /// No value outside reasoning, and the reasoning block at `block` holds one: reasoning
    /// is never the answer unless the caller asks (`Extractor::fallback_to_reasoning`). A
    /// block that never `closed` runs to the end of the text, and the message says so.
    pub(crate) fn only_in_reasoning(text: &str, block: Span, closed: bool) -> Error {
        let how = match closed {
            true => "starts",
            false => "never closes, so the rest of the reply is reasoning; it starts",
        };
        Error::new(vec![Issue::new(
            Category::NotFound,
            Path::root(),
            format!(
                "no JSON found outside reasoning (read it with Extractor::fallback_to_reasoning): \
                 the reasoning block holding a JSON-like value {how}"
            ),
        )
        .at(Span::at(block.start))])
        .with_positions(text)
    }

    /// A candidate at `span` longer than the `max` bytes allowed.
    pub(crate) fn too_large(text: &str, span: Span, max: usize) -> Error {
        Error::new(vec![Issue::new(
            Category::TooLarge,
            Path::root(),
            format!(
                "candidate of {} bytes is larger than max_payload ({max} bytes, raise it with Extractor::max_payload)",
                span.len()
            ),
        )
        .at(span)])
        .with_positions(text)
    }

    /// Nesting deeper than `max_depth` at byte `at`. The message leaves the position out:
    /// `Display` appends it, once, as for every issue.
    pub(crate) fn too_deep(text: &str, at: usize, max_depth: usize) -> Error {
        Error::new(vec![Issue::new(
            Category::TooDeep,
            Path::root(),
            format!(
                "nesting deeper than max_depth ({max_depth}, raise it with Extractor::max_depth)"
            ),
        )
        .at(Span::at(at))])
        .with_positions(text)
    }

    /// The value was cut off at byte `at` while a complete one was required.
    pub(crate) fn incomplete(text: &str, at: usize) -> Error {
        Error::new(vec![Issue::new(
            Category::Incomplete,
            Path::root(),
            "the value was cut off before its end (require_complete is set)",
        )
        .at(Span::at(at))])
        .with_positions(text)
    }

    /// The same error with `line:column` filled in from `text` for every issue with a span.
    pub fn with_positions(mut self, text: &str) -> Error {
        let offsets: Vec<usize> = self
            .0
            .issues
            .iter()
            .filter_map(|i| i.span.map(|s| s.start))
            .collect();
        let mut positions = Position::of_many(text, &offsets).into_iter();
        for issue in &mut self.0.issues {
            if issue.span.is_some() {
                issue.position = positions.next();
            }
        }
        self
    }

    /// What went wrong, broadly (the first issue's category).
    pub fn category(&self) -> Category {
        self.0.category
    }

    /// Every issue, in the order found.
    pub fn issues(&self) -> &[Issue] {
        &self.0.issues
    }

    /// The issues rendered as a short message for the model when asking again.
    ///
    /// ```
    /// let err = llm_extract::repair("sorry, I can't help").unwrap_err();
    /// assert!(err.feedback().contains("JSON"));
    /// ```
    pub fn feedback(&self) -> String {
        let mut out = String::from("Your previous reply could not be used:\n");
        for issue in self.issues().iter().take(20) {
            out.push_str("- ");
            if !issue.path.is_root() {
                out.push_str(&issue.path.to_string());
                out.push_str(": ");
            }
            out.push_str(&issue.message);
            if let Some(e) = &issue.expected {
                out.push_str(&format!(" (expected {e}"));
                if let Some(found) = &issue.found {
                    out.push_str(&format!(", got {found}"));
                }
                out.push(')');
            }
            out.push('\n');
        }
        if self.issues().len() > 20 {
            out.push_str(&format!("- and {} more\n", self.issues().len() - 20));
        }
        match &self.0.reask {
            Some(line) => out.push_str(line),
            None => out.push_str("Reply again with only the corrected JSON."),
        }
        out
    }
}

impl Error {
    /// The same error, its feedback ending with `line` instead of asking for JSON.
    pub(crate) fn reask(mut self, line: String) -> Error {
        self.0.reask = Some(line);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, issue) in self.0.issues.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{issue}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("category", &self.0.category)
            .field("issues", &self.0.issues)
            .finish()
    }
}

impl std::error::Error for Error {}

impl Serialize for Error {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.issues.serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Messages leave positions to `Display`, which writes each once, at the end.
    #[test]
    fn limit_errors_give_their_position_once() {
        let deep = Error::too_deep("[[[1]]]", 2, 2).to_string();
        assert_eq!(
            deep,
            "nesting deeper than max_depth (2, raise it with Extractor::max_depth) at line 1 column 3"
        );
        let large = Error::too_large("xx {\"a\": 1234567}", Span::new(3, 17), 5).to_string();
        assert_eq!(
            large,
            "candidate of 14 bytes is larger than max_payload (5 bytes, raise it with \
             Extractor::max_payload) at line 1 column 4"
        );
    }
}
