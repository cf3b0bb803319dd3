//! The last resort: `Label: value` lines (`Title: ...`, `**Plan:** ...`) read as an object,
//! when the text holds no bracketed value at all.

use crate::node::{Entry, Node, NodeKind, Quoting, Str};
use crate::span::Span;
use std::borrow::Cow;

/// At least this many labels make a reply look like sections rather than a sentence with a
/// colon in it.
const MIN_SECTIONS: usize = 2;

/// The label of a line such as `## Title: x` or `- **Plan:** y`, and where its value starts.
fn label(line: &str) -> Option<(&str, usize)> {
    let lead = line.len()
        - line
            .trim_start_matches(['#', '-', '*', ' ', '\t', '>'])
            .len();
    let rest = &line[lead..];
    let colon = rest.find(':')?;
    let raw = rest[..colon].trim_matches(['*', '_', ' ']);
    let words = raw.split_whitespace().count();
    let ok = (1..=4).contains(&words)
        && raw.len() <= 40
        && raw.starts_with(|c: char| c.is_alphabetic())
        && raw
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '_' | '-'));
    if !ok {
        return None;
    }
    // Skip the colon and the bold marker that may close the label (`**Plan:**`).
    let mut value = lead + colon + 1;
    value += line[value..].len() - line[value..].trim_start_matches('*').len();
    let label_start = lead + (rest.len() - rest.trim_start_matches(['*', '_']).len());
    Some((&line[label_start..label_start + raw.len()], value))
}

/// Ends the section being read at `end`.
fn close<'a>(
    text: &'a str,
    open: Option<(&'a str, Span, usize)>,
    end: usize,
    entries: &mut Vec<Entry<'a>>,
) {
    if let Some((key, key_span, start)) = open {
        let raw = &text[start..end.max(start)];
        let value = raw.trim();
        let value_start = start + (raw.len() - raw.trim_start().len());
        let span = Span::new(value_start, value_start + value.len());
        entries.push(Entry {
            key: Str {
                text: Cow::Borrowed(key),
                quoting: Quoting::Unquoted,
            },
            key_span,
            value: Node::new(
                NodeKind::String(Str {
                    text: Cow::Borrowed(value),
                    quoting: Quoting::Unquoted,
                }),
                span,
            ),
        });
    }
}

/// The sections in `region` of `text` as an object node, if there are enough of them.
pub(crate) fn sections(text: &str, region: Span) -> Option<Node<'_>> {
    let mut entries: Vec<Entry<'_>> = Vec::new();
    // (key, key span, value start) of the section being read.
    let mut open: Option<(&str, Span, usize)> = None;
    let mut line_start = region.start;
    while line_start < region.end {
        let line_end = memchr::memchr(b'\n', &text.as_bytes()[line_start..region.end])
            .map_or(region.end, |i| line_start + i);
        let line = &text[line_start..line_end];
        if let Some((key, value_at)) = label(line) {
            close(text, open.take(), line_start, &mut entries);
            let key_start = line_start + (key.as_ptr() as usize - line.as_ptr() as usize);
            open = Some((
                key,
                Span::new(key_start, key_start + key.len()),
                line_start + value_at,
            ));
        }
        line_start = line_end + 1;
    }
    close(text, open.take(), region.end, &mut entries);
    if entries.len() < MIN_SECTIONS {
        return None;
    }
    let span = Span::new(
        entries[0].key_span.start,
        entries.last().map_or(region.end, |e| e.value.span.end),
    );
    Some(Node::new(NodeKind::Object(entries), span))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labeled_lines_become_an_object() {
        let text =
            "Title: Fix the build\nIntent: make CI green\n**Plan:** 1. read logs\n2. fix\n\nthanks";
        let node = sections(text, Span::new(0, text.len())).unwrap();
        assert_eq!(
            node.to_value(),
            serde_json::json!({"Title": "Fix the build", "Intent": "make CI green", "Plan": "1. read logs\n2. fix\n\nthanks"})
        );
    }

    #[test]
    fn a_sentence_with_a_colon_is_not_sections() {
        for text in [
            "Note: nothing to report.",
            "I could not do it: the file is missing, sorry.",
            "no colons at all",
        ] {
            assert!(
                sections(text, Span::new(0, text.len())).is_none(),
                "{text:?}"
            );
        }
    }
}
