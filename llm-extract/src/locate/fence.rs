//! Markdown fences: what a fence's opening line says (where its content starts, whether it
//! closes inline, whether its language reads like JSON).

use crate::lex;

/// Languages whose fenced content is read as a value first: JSON itself, and languages whose
/// literals look like it.
const JSON_LIKE: &[&str] = &[
    "json",
    "json5",
    "jsonc",
    "jsonl",
    "ndjson",
    "javascript",
    "js",
    "typescript",
    "ts",
    "python",
    "py",
    "yaml",
    "text",
    "txt",
    "plaintext",
    "tool_call",
    "tool_code",
    "output",
];

/// The longest opening line looked at for an info string; a longer one is content (the fence
/// was opened inline). Keeps the pass linear when many fences open on one long line.
const MAX_OPENING_LINE: usize = 256;

/// What a fence's opening line says.
pub(crate) struct Opening {
    /// Where the content starts: the next line, or right after the backticks when inline.
    pub content_start: usize,
    /// Opened inline (```` ```{"a": 1}``` ````): closes at the next run of backticks, wherever
    /// it is; otherwise the closing run must start its line.
    pub inline: bool,
    /// The info string is empty or names JSON (or a language whose literals look like it).
    pub json_like: bool,
}

/// Reads the opening line of a fence whose backticks end at `run_end`.
pub(crate) fn opening(text: &str, run_end: usize) -> Opening {
    let bytes = text.as_bytes();
    let limit = (run_end + MAX_OPENING_LINE).min(bytes.len());
    let line_end = match memchr::memchr(b'\n', &bytes[run_end..limit]) {
        Some(i) => run_end + i,
        None if limit == bytes.len() => limit,
        None => {
            return Opening {
                content_start: run_end,
                inline: true,
                json_like: true,
            }
        }
    };
    let info = lex::trim(&text[run_end..line_end]);
    let next_line = (line_end + 1).min(bytes.len());
    if info.is_empty() {
        return Opening {
            content_start: next_line,
            inline: false,
            json_like: true,
        };
    }
    let is_word =
        info.len() <= 32 && !info.contains(|c: char| lex::is_space(c) || "{[\"'`<".contains(c));
    if is_word {
        let lang = info.to_ascii_lowercase();
        return Opening {
            content_start: next_line,
            inline: false,
            json_like: JSON_LIKE.contains(&lang.as_str()),
        };
    }
    Opening {
        content_start: run_end,
        inline: true,
        json_like: true,
    }
}
