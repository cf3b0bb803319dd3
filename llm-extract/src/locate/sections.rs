//! Labeled sections read as an object: `Title: ...` lines, `**Intent**: ...`, `## Plan`
//! headings followed by paragraphs, `- key: value` lists, and YAML-like blocks (indented
//! `key:` lines, `- item` lists). Locate offers them after every other candidate, at a cost
//! above any value written as one, so that typed selection takes them only when no JSON-like
//! candidate fits the type; their keys match the target's fields like any other keys.
//!
//! A section's value is its text (several lines kept whole), an object for an indented block
//! of `key:` lines, a value written in JSON (`tags: ["a", "b"]`), or an array for a `- a` or
//! `1. a` list. Whether a list is meant as a list or as text (a plan written as numbered steps
//! for a `String` field) only the target type knows: each section whose body is a list is a
//! choice, and locate offers one reading per combination ([`Lists`]).
//!
//! One pass over the lines finds the sections. Lines inside a bracketed value (a `{` or `[`
//! not yet closed, outside strings) or a fence never start one, so a JSON object with
//! unquoted keys is not read as sections. Nesting is bounded ([`MAX_DEPTH`]) and each level
//! reads its lines once.

use crate::lex::{self, Quote};
use crate::node::{Entry, Node, NodeKind, Quoting, Str};
use crate::parse::Parsed;
use crate::report::Repair;
use crate::span::Span;
use std::borrow::Cow;

/// At least this many labels make a reply look like sections rather than a sentence with a
/// colon in it (one label will do when a list or an indented block follows it).
const MIN_SECTIONS: usize = 2;

/// List-bodied sections beyond this many are read as arrays in every reading, so a reply
/// gives at most `2^MAX_LIST_CHOICES` readings.
const MAX_LIST_CHOICES: u32 = 3;

/// Blocks nested deeper than this are read as text.
const MAX_DEPTH: usize = 16;

/// Which list-bodied sections a reading takes as their text instead of an array: bit `i` for
/// the `i`-th such section, in text order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lists(u8);

impl Lists {
    /// Every list-bodied section read as an array.
    #[cfg(test)]
    pub(crate) const ARRAYS: Lists = Lists(0);

    /// One reading per combination of choices, every list an array first.
    pub(crate) fn readings(choices: u32) -> impl Iterator<Item = Lists> {
        (0..1u8 << choices.min(MAX_LIST_CHOICES)).map(Lists)
    }

    fn as_text(self, choice: usize) -> bool {
        choice < MAX_LIST_CHOICES as usize && self.0 & (1 << choice) != 0
    }
}

/// Sections found in a region.
pub(crate) struct Found {
    /// From the line of the first label to the end of the region: where the candidate is.
    pub span: Span,
    /// From the first key to the end of the last value.
    pub value: Span,
    /// How many sections have a list for a body: each is a choice of reading.
    pub choices: u32,
}

/// The sections in `region` of `text`, if it holds enough of them.
pub(crate) fn find(text: &str, region: Span) -> Option<Found> {
    if !any_head(text, region) {
        return None;
    }
    let lines = lines(text, region);
    let sections = layout(text, &lines)?;
    let first = sections.first()?;
    let choices = sections
        .iter()
        .filter(|s| s.inline.is_empty() && list_body(text, &lines[s.body.0..s.body.1]))
        .count() as u32;
    let last = sections.last()?;
    let end = lines[last.body.0..last.body.1]
        .iter()
        .rev()
        .find(|l| !l.is_blank())
        .map_or(last.inline.end.max(last.key.end), |l| l.end);
    Some(Found {
        span: Span::new(lines[first.line].start, region.end),
        value: Span::new(first.key.start, end),
        choices,
    })
}

/// The sections in `span` (a [`Found::span`]) as an object, lists read as `lists` says, with
/// the repairs of any value written in JSON.
pub(crate) fn read(text: &str, span: Span, lists: Lists, max_depth: usize) -> Option<Parsed<'_>> {
    let lines = lines(text, span);
    let sections = layout(text, &lines)?;
    let mut reader = Reader::new(text, max_depth);
    let node = reader.object(&sections, &lines, lists);
    Some(Parsed {
        node,
        repairs: reader.repairs,
        end: span.end,
    })
}

/// One line: where it starts, where its content starts and ends (trailing spaces left out),
/// its indentation, and whether it is inside a bracketed value or a fence.
#[derive(Clone, Copy, Debug)]
struct Line {
    start: usize,
    at: usize,
    end: usize,
    indent: usize,
    inside: bool,
}

impl Line {
    fn is_blank(&self) -> bool {
        self.at >= self.end
    }

    /// The same line read from `width` bytes into its content (past a list marker).
    fn after(&self, width: usize) -> Line {
        let at = (self.at + width).min(self.end);
        Line {
            at,
            indent: self.indent + (at - self.at),
            ..*self
        }
    }
}

/// The lines of `region`, each marked when it starts inside brackets left open by the lines
/// before it (a blank line ends that) or inside a fence. Only lines up to the last one that
/// could start a section are marked (no later line starts one), so a reply that is a JSON
/// value in prose is not scanned for brackets at all.
fn lines(text: &str, region: Span) -> Vec<Line> {
    let mut out: Vec<Line> = line_iter(text, region).collect();
    if let Some(last) = out.iter().rposition(|l| head(text, l).is_some()) {
        mark_inside(text, &mut out[..=last]);
    }
    out
}

/// The lines of `region`, not yet marked.
fn line_iter(text: &str, region: Span) -> impl Iterator<Item = Line> + '_ {
    let bytes = text.as_bytes();
    let mut pos = Some(region.start);
    std::iter::from_fn(move || {
        let start = pos?;
        let end =
            memchr::memchr(b'\n', &bytes[start..region.end]).map_or(region.end, |i| start + i);
        pos = (end < region.end).then_some(end + 1);
        Some(line_at(bytes, start, end))
    })
}

/// The line from `start` to `end` (its line break left out).
fn line_at(bytes: &[u8], start: usize, end: usize) -> Line {
    let raw = &bytes[start..end];
    let indent = raw.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
    let content = raw
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    Line {
        start,
        at: start + indent,
        end: start + content.max(indent),
        indent,
        inside: false,
    }
}

/// Whether some line of `region` opens a section, found without building the lines: most
/// replies hold no label at all, and the first byte of a line rules out most (a JSON line
/// starts with `"`, `{` or a digit).
fn any_head(text: &str, region: Span) -> bool {
    let bytes = text.as_bytes();
    let mut start = region.start;
    loop {
        let mut at = start;
        while at < region.end && matches!(bytes[at], b' ' | b'\t') {
            at += 1;
        }
        let next = memchr::memchr(b'\n', &bytes[at..region.end]).map(|i| at + i);
        if at < region.end && may_begin_label(bytes[at]) {
            let line = line_at(bytes, start, next.unwrap_or(region.end));
            if head(text, &line).is_some() {
                return true;
            }
        }
        match next {
            Some(n) => start = n + 1,
            None => return false,
        }
    }
}

/// Whether a line whose content starts with `first` can open a section: a letter, or a
/// heading, list, quote, bold or underline mark.
fn may_begin_label(first: u8) -> bool {
    first.is_ascii_alphabetic() || first >= 0x80 || b"#-*+>_".contains(&first)
}

/// Marks the lines that start inside brackets left open by the lines before them, or inside
/// a fence (its marker lines included).
fn mark_inside(text: &str, lines: &mut [Line]) {
    let mut depth = 0usize;
    let mut in_fence = false;
    for line in lines {
        let content = &text[line.at..line.end];
        let fence = content.starts_with("```") || content.starts_with("~~~");
        if line.is_blank() && !in_fence {
            depth = 0;
        }
        line.inside = depth > 0 || in_fence || fence;
        if fence {
            in_fence = !in_fence;
            depth = 0;
        } else if !in_fence {
            depth = bracket_depth(&text.as_bytes()[line.start..line.end], depth);
        }
    }
}

/// `depth` after `line`: `{` and `[` open, `}` and `]` close, except inside a JSON string
/// (which opens only inside brackets, as prose quotes are not strings, and ends at the line).
/// Most bytes of a reply are prose or string contents, which `memchr` skips: outside
/// brackets only an opener matters, inside a string only a quote or a backslash.
fn bracket_depth(line: &[u8], mut depth: usize) -> usize {
    let mut i = 0;
    let mut in_string = false;
    while i < line.len() {
        if in_string {
            let Ok((close, _)) = lex::string_close(line, i, line.len(), Quote::Double) else {
                break;
            };
            in_string = false;
            i = close + 1;
            continue;
        }
        if depth == 0 {
            let Some(k) = memchr::memchr2(b'{', b'[', &line[i..]) else {
                break;
            };
            depth = 1;
            i += k + 1;
            continue;
        }
        match line[i] {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth -= 1,
            b'"' => in_string = true,
            _ => {}
        }
        i += 1;
    }
    depth
}

/// What a line opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Head {
    /// `Label: value` (the value may be empty), with where the key is and the value starts.
    Label { key: Span, value_at: usize },
    /// `## Heading` without a colon: its paragraphs follow.
    Heading { level: usize, key: Span },
}

/// A section: its key, its line, the value written on that line (trimmed, possibly empty),
/// and the lines of its body (`lines[body.0..body.1]`).
#[derive(Clone, Copy, Debug)]
struct Section {
    key: Span,
    line: usize,
    inline: Span,
    body: (usize, usize),
}

/// The sections among `lines`, or `None` when they do not look like sections.
///
/// The first label sets the indentation of the others; deeper lines belong to the open
/// section. When the first is a heading, only headings (no deeper than it) start sections and
/// `Label:` lines are its paragraphs. A list item at the indentation of a label whose value
/// is empty belongs to it (`todo:` then `- a`), as YAML writes lists.
fn layout(text: &str, lines: &[Line]) -> Option<Vec<Section>> {
    let mut sections: Vec<Section> = Vec::new();
    let mut top: Option<(usize, Option<usize>)> = None; // indent, heading level
    for (i, line) in lines.iter().enumerate() {
        if line.inside || line.is_blank() {
            continue;
        }
        let Some(head) = head(text, line) else {
            continue;
        };
        let (indent, heading_level) = *top.get_or_insert(match head {
            Head::Heading { level, .. } => (line.indent, Some(level)),
            Head::Label { .. } => (line.indent, None),
        });
        let starts = match (head, heading_level) {
            (Head::Heading { level, .. }, Some(top_level)) => level <= top_level,
            (Head::Label { .. }, Some(_)) => false,
            (Head::Heading { .. }, None) => true,
            (Head::Label { .. }, None) => {
                let owned = sections.last().is_some_and(|open| {
                    open.inline.is_empty()
                        && line.indent == lines[open.line].indent
                        && list_marker(&text[line.at..line.end]).is_some()
                });
                line.indent <= indent && !owned
            }
        };
        if !starts {
            continue;
        }
        if let Some(open) = sections.last_mut() {
            open.body.1 = i;
        }
        let (key, inline) = match head {
            Head::Label { key, value_at } => {
                let raw = &text[value_at..line.end];
                let lead = raw.len() - raw.trim_start().len();
                (key, Span::new(value_at + lead, line.end))
            }
            Head::Heading { key, .. } => (key, Span::at(line.end)),
        };
        sections.push(Section {
            key,
            line: i,
            inline,
            body: (i + 1, lines.len()),
        });
    }
    let heading_style = top.is_some_and(|(_, level)| level.is_some());
    for s in &mut sections {
        s.body.1 = trim_blank_end(lines, s.body);
    }
    if !heading_style {
        if let Some(last) = sections.last_mut() {
            last.body.1 = without_trailing_prose(lines, last);
        }
    }
    let enough = sections.len() >= MIN_SECTIONS
        || sections
            .first()
            .is_some_and(|s| s.inline.is_empty() && block_body(text, &lines[s.body.0..s.body.1]));
    enough.then_some(sections)
}

/// `body` without the blank lines at its end.
fn trim_blank_end(lines: &[Line], body: (usize, usize)) -> usize {
    let mut end = body.1;
    while end > body.0 && lines[end - 1].is_blank() {
        end -= 1;
    }
    end
}

/// Where the last labeled section ends: before a paragraph at its label's indentation that
/// follows a blank line once the section has content (`Let me know if ...` after the last
/// label is not part of its value). Lists and indented blocks go on across blank lines.
fn without_trailing_prose(lines: &[Line], section: &Section) -> usize {
    let indent = lines[section.line].indent;
    let mut has_content = !section.inline.is_empty();
    for i in section.body.0..section.body.1 {
        let line = &lines[i];
        if line.is_blank() {
            continue;
        }
        let after_blank = i > section.body.0 && lines[i - 1].is_blank();
        if has_content && after_blank && !line.inside && line.indent <= indent {
            return trim_blank_end(lines, (section.body.0, i));
        }
        has_content = true;
    }
    section.body.1
}

/// The label of a line such as `## Title: x`, `- **Plan:** y` or `**Intent**: z`, or the
/// title of a heading (`## Plan`), or a bold line on its own (`**Plan**`).
fn head(text: &str, line: &Line) -> Option<Head> {
    let content = &text[line.at..line.end];
    // What cannot begin a label (a JSON line: `"key": 1,`, `}`, a number) is refused at once.
    if !may_begin_label(*content.as_bytes().first()?) {
        return None;
    }
    let hashes = content.len() - content.trim_start_matches('#').len();
    if (1..=6).contains(&hashes) && content[hashes..].starts_with(' ') {
        let title_at = line.at + hashes;
        if let Some(found) = label(text, Span::new(title_at, line.end), false) {
            return Some(found);
        }
        let key = key_in(text, Span::new(title_at, line.end), 8, 80)?;
        return Some(Head::Heading { level: hashes, key });
    }
    if let Some(found) = label(text, Span::new(line.at, line.end), false) {
        return Some(found);
    }
    // A bold line on its own: `**Plan**`, `- __Plan__`.
    let bare = match list_marker(content) {
        Some(width) => &content[width..],
        None => content,
    }
    .trim_start_matches(['>', ' ']);
    let bold = ["**", "__"]
        .iter()
        .any(|m| bare.len() > 4 && bare.starts_with(m) && bare.ends_with(m));
    if !bold {
        return None;
    }
    let key = key_in(text, Span::new(line.end - bare.len(), line.end), 4, 40)?;
    Some(Head::Label {
        key,
        value_at: line.end,
    })
}

/// `Label: value` in `span` (after list, quote and heading marks, the label possibly bold,
/// or quoted when `quoted_keys`, as in a nested block): where the key is and the value
/// starts. The colon is followed by a space or the end of the line (`https://x` has no label).
/// A quoted key at the top level would make every line of a pretty-printed JSON value a label.
fn label(text: &str, span: Span, quoted_keys: bool) -> Option<Head> {
    let line = &text[span.start..span.end];
    let lead = line.len()
        - line
            .trim_start_matches(['#', '-', '*', '+', ' ', '\t', '>'])
            .len();
    let rest = &line[lead..];
    let quote = rest
        .as_bytes()
        .first()
        .copied()
        .filter(|q| matches!(q, b'"' | b'\''));
    let quoted = quoted_keys && quote.is_some();
    let colon = match quote {
        Some(q) if quoted => {
            let close = memchr::memchr(q, &rest.as_bytes()[1..])? + 1;
            rest[close + 1..].starts_with(':').then_some(close + 1)?
        }
        _ => rest.find(':')?,
    };
    let after = &rest[colon + 1..];
    if !(after.is_empty() || after.starts_with([' ', '\t', '*', '_'])) {
        return None;
    }
    let key = if quoted {
        Span::new(span.start + lead + 1, span.start + lead + colon - 1)
    } else {
        key_in(
            text,
            Span::new(span.start + lead, span.start + lead + colon),
            4,
            40,
        )?
    };
    if key.is_empty() {
        return None;
    }
    // Skip the colon and the bold marker that may close the label (`**Plan:**`).
    let value_at = span.start + lead + colon + 1;
    let value = &text[value_at..span.end];
    let value_at = value_at + (value.len() - value.trim_start_matches(['*', '_']).len());
    Some(Head::Label { key, value_at })
}

/// The key written in `span` without bold marks and a final colon, if it reads like one: at
/// most `words` words and `bytes` bytes, starting with a letter, of letters, digits, spaces,
/// `_` and `-`.
fn key_in(text: &str, span: Span, words: usize, bytes: usize) -> Option<Span> {
    let raw = &text[span.start..span.end];
    let inner = raw
        .trim_matches(|c: char| c == '*' || c == '_' || c.is_whitespace())
        .trim_end_matches(':')
        .trim_matches(|c: char| c == '*' || c == '_' || c.is_whitespace());
    let count = inner.split_whitespace().count();
    let ok = (1..=words).contains(&count)
        && inner.len() <= bytes
        && inner.starts_with(|c: char| c.is_alphabetic())
        && inner
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '_' | '-'));
    if !ok {
        return None;
    }
    let start = span.start + (inner.as_ptr() as usize - raw.as_ptr() as usize);
    Some(Span::new(start, start + inner.len()))
}

/// The width of the list marker that starts `content` (`- `, `* `, `+ `, `1. `, `2) `), the
/// spaces after it included.
fn list_marker(content: &str) -> Option<usize> {
    let digits = content.bytes().take_while(u8::is_ascii_digit).count();
    let mark = match content.as_bytes().first()? {
        b'-' | b'*' | b'+' => 1,
        _ if (1..=3).contains(&digits)
            && matches!(content.as_bytes().get(digits), Some(b'.' | b')')) =>
        {
            digits + 1
        }
        _ => return None,
    };
    let rest = &content[mark..];
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    Some(mark + (rest.len() - rest.trim_start().len()))
}

/// The first non-blank line and the smallest indentation of `lines`.
fn first_and_indent(lines: &[Line]) -> Option<(&Line, usize)> {
    let first = lines.iter().find(|l| !l.is_blank())?;
    let indent = lines
        .iter()
        .filter(|l| !l.is_blank())
        .map(|l| l.indent)
        .min()?;
    Some((first, indent))
}

/// Whether `body` is a list: its first line, at the body's indentation, is a list item.
fn list_body(text: &str, body: &[Line]) -> bool {
    first_and_indent(body).is_some_and(|(first, indent)| {
        first.indent == indent && list_marker(&text[first.at..first.end]).is_some()
    })
}

/// Whether `body` is a list or an indented block of `key:` lines.
fn block_body(text: &str, body: &[Line]) -> bool {
    list_body(text, body)
        || first_and_indent(body).is_some_and(|(_, indent)| mapping_body(text, body, indent))
}

/// Whether every line of `body` at `indent` is a `key:` line, or a list item right under a
/// `key:` whose value is empty (`tags:` then `- a` at the same indentation).
fn mapping_body(text: &str, body: &[Line], indent: usize) -> bool {
    let mut open_key = false;
    let mut keys = 0;
    for line in body.iter().filter(|l| !l.is_blank() && l.indent == indent) {
        let content = &text[line.at..line.end];
        if open_key && list_marker(content).is_some() {
            continue;
        }
        match nested_key(text, line) {
            Some((_, value)) => {
                keys += 1;
                open_key = value.is_empty();
            }
            None => return false,
        }
    }
    keys > 0
}

/// `key: value` in a nested block (no list or heading marks): the key and the value's span.
fn nested_key(text: &str, line: &Line) -> Option<(Span, Span)> {
    if list_marker(&text[line.at..line.end]).is_some() || text[line.at..].starts_with('#') {
        return None;
    }
    match label(text, Span::new(line.at, line.end), true)? {
        Head::Label { key, value_at } => {
            let raw = &text[value_at..line.end];
            let lead = raw.len() - raw.trim_start().len();
            Some((key, Span::new(value_at + lead, line.end)))
        }
        Head::Heading { .. } => None,
    }
}

/// The children of a block at `indent`: each line there that `head` accepts (with what it
/// read), and the end of the lines under it: deeper lines, blank lines between them, and
/// lines at `indent` that `continues(head, line, previous line)` allows. A line at `indent`
/// that neither starts nor continues a child ends the block.
fn children<H>(
    lines: &[Line],
    indent: usize,
    head: impl Fn(&Line) -> Option<H>,
    continues: impl Fn(&H, &Line, &Line) -> bool,
) -> Vec<(H, usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = &lines[i];
        if line.is_blank() {
            i += 1;
            continue;
        }
        let Some(read) = head(line).filter(|_| line.indent == indent) else {
            break;
        };
        let mut j = i + 1;
        while j < lines.len() {
            let next = &lines[j];
            let under = next.is_blank()
                || next.indent > indent
                || next.indent == indent && continues(&read, next, &lines[j - 1]);
            if !under {
                break;
            }
            j += 1;
        }
        let end = trim_blank_end(lines, (i + 1, j));
        out.push((read, i, end));
        i = j;
    }
    out
}

/// Builds the nodes, and keeps the repairs of values written in JSON.
struct Reader<'t> {
    text: &'t str,
    repairs: Vec<Repair>,
    /// The extractor's depth limit, for values written in JSON.
    max_depth: usize,
}

impl<'t> Reader<'t> {
    fn new(text: &'t str, max_depth: usize) -> Reader<'t> {
        Reader {
            text,
            repairs: Vec::new(),
            max_depth,
        }
    }

    /// The sections as an object: each list-bodied section an array or its text, as `lists`
    /// says; an empty section the empty string.
    fn object(&mut self, sections: &[Section], lines: &[Line], lists: Lists) -> Node<'t> {
        let mut entries = Vec::with_capacity(sections.len());
        let mut choice = 0;
        for s in sections {
            let body = &lines[s.body.0..s.body.1];
            let value = if s.inline.is_empty() && list_body(self.text, body) {
                choice += 1;
                if lists.as_text(choice - 1) {
                    self.text_of(body)
                } else {
                    self.block(body, 0)
                }
            } else if s.inline.is_empty() && body.iter().all(Line::is_blank) {
                self.string(Span::at(s.inline.start))
            } else {
                self.value(s.inline, body, 0)
            };
            entries.push(self.entry(s.key, value));
        }
        let start = sections.first().map_or(0, |s| s.key.start);
        let end = entries
            .last()
            .map_or(start, |e| e.value.span.end.max(e.key_span.end));
        Node::new(NodeKind::Object(entries), Span::new(start, end))
    }

    fn entry(&self, key: Span, value: Node<'t>) -> Entry<'t> {
        Entry {
            key: Str {
                text: Cow::Borrowed(&self.text[key.start..key.end]),
                quoting: Quoting::Unquoted,
            },
            key_span: key,
            value,
        }
    }

    /// The value of a `key:` whose line holds `inline` and whose body is `body`: a scalar, a
    /// JSON value, a block scalar (`|`), the text of several lines, or a nested block.
    fn value(&mut self, inline: Span, body: &[Line], depth: usize) -> Node<'t> {
        let written = &self.text[inline.start..inline.end];
        let has_body = body.iter().any(|l| !l.is_blank());
        if inline.is_empty() {
            return match has_body {
                true if depth < MAX_DEPTH => self.block(body, depth + 1),
                true => self.text_of(body),
                false => Node::new(NodeKind::Null, inline),
            };
        }
        if written.starts_with(['{', '[']) {
            let end = body
                .iter()
                .rev()
                .find(|l| !l.is_blank())
                .map_or(inline.end, |l| l.end);
            if let Some(node) = self.json(Span::new(inline.start, end)) {
                return node;
            }
        }
        match (has_body, written) {
            (false, _) => self.scalar(inline),
            (true, "|" | "|-" | "|+") => self.block_text(body, false),
            (true, ">" | ">-" | ">+") => self.block_text(body, true),
            (true, _) => {
                let end = body
                    .iter()
                    .rev()
                    .find(|l| !l.is_blank())
                    .map_or(inline.end, |l| l.end);
                self.string(Span::new(inline.start, end))
            }
        }
    }

    /// A block of lines: a list, a mapping of `key:` lines, or text.
    fn block(&mut self, lines: &[Line], depth: usize) -> Node<'t> {
        let Some((first, indent)) = first_and_indent(lines) else {
            return self.text_of(lines);
        };
        if depth > MAX_DEPTH {
            return self.text_of(lines);
        }
        if first.indent == indent && list_marker(&self.text[first.at..first.end]).is_some() {
            return self.list(lines, indent, depth);
        }
        if mapping_body(self.text, lines, indent) {
            return self.mapping(lines, indent, depth);
        }
        self.text_of(lines)
    }

    /// The items of a list at `indent`: each item's lines are its first line (past the
    /// marker), the deeper lines after it, and lines that continue it without a blank line.
    /// A line at the list's indentation that is not an item ends the list.
    fn list(&mut self, lines: &[Line], indent: usize, depth: usize) -> Node<'t> {
        let text = self.text;
        let heads = children(
            lines,
            indent,
            |line| list_marker(&text[line.at..line.end]),
            |_, next, previous| {
                !previous.is_blank() && list_marker(&text[next.at..next.end]).is_none()
            },
        );
        let mut items = Vec::with_capacity(heads.len());
        for (marker, i, end) in heads {
            let mut item_lines = Vec::with_capacity(end - i);
            item_lines.push(lines[i].after(marker));
            item_lines.extend_from_slice(&lines[i + 1..end]);
            items.push(self.item(&item_lines, depth + 1));
        }
        let start = items.first().map_or(0, |n: &Node<'_>| n.span.start);
        let end = items.last().map_or(start, |n| n.span.end);
        Node::new(NodeKind::Array(items), Span::new(start, end))
    }

    /// One list item: a value written in JSON, a mapping when it holds several `key:` lines
    /// (or one with a block under it), else its text.
    fn item(&mut self, lines: &[Line], depth: usize) -> Node<'t> {
        let first = lines[0];
        let content = &self.text[first.at..first.end];
        if first.is_blank() {
            return match lines.iter().any(|l| !l.is_blank()) {
                true => self.block(&lines[1..], depth),
                false => self.string(Span::at(first.at)),
            };
        }
        if content.starts_with(['{', '[']) {
            let end = lines
                .iter()
                .rev()
                .find(|l| !l.is_blank())
                .map_or(first.end, |l| l.end);
            if let Some(node) = self.json(Span::new(first.at, end)) {
                return node;
            }
        }
        if let Some((_, value)) = nested_key(self.text, &first) {
            let keys = lines
                .iter()
                .filter(|l| l.indent == first.indent && nested_key(self.text, l).is_some())
                .count();
            let nested = value.is_empty() && lines[1..].iter().any(|l| !l.is_blank());
            if (keys >= 2 || nested) && mapping_body(self.text, lines, first.indent) {
                return self.mapping(lines, first.indent, depth);
            }
        }
        if lines.len() == 1 {
            return self.scalar(Span::new(first.at, first.end));
        }
        self.text_of(lines)
    }

    /// The `key:` lines at `indent`, each with the deeper lines under it (and, under a key
    /// whose value is empty, the list items at its own indentation).
    fn mapping(&mut self, lines: &[Line], indent: usize, depth: usize) -> Node<'t> {
        let text = self.text;
        let heads = children(
            lines,
            indent,
            |line| nested_key(text, line),
            |(_, inline): &(Span, Span), next, _| {
                inline.is_empty() && list_marker(&text[next.at..next.end]).is_some()
            },
        );
        let mut entries = Vec::with_capacity(heads.len());
        for ((key, inline), i, end) in heads {
            let value = self.value(inline, &lines[i + 1..end], depth);
            entries.push(self.entry(key, value));
        }
        let start = entries.first().map_or(0, |e| e.key_span.start);
        let end = entries
            .last()
            .map_or(start, |e| e.value.span.end.max(e.key_span.end));
        Node::new(NodeKind::Object(entries), Span::new(start, end))
    }

    /// A value written in JSON from the start of `span`, when it reads as one complete value
    /// with nothing after it on its last line (lines after it are not part of it).
    fn json(&mut self, span: Span) -> Option<Node<'t>> {
        let parsed = crate::parse::parse_span(self.text, span, self.max_depth).ok()?;
        let after = &self.text[parsed.end.min(span.end)..span.end];
        let rest_of_line = after.split('\n').next().unwrap_or_default();
        if !parsed.node.is_complete_deep() || !rest_of_line.trim().is_empty() {
            return None;
        }
        self.repairs.extend(parsed.repairs);
        Some(parsed.node)
    }

    /// One line's value: a quoted string without its quotes, else the text as written (the
    /// target type decides whether `3` is a number).
    fn scalar(&mut self, span: Span) -> Node<'t> {
        let written = &self.text[span.start..span.end];
        let quote = written.as_bytes().first().copied();
        if written.len() >= 2
            && matches!(quote, Some(b'"' | b'\''))
            && written.as_bytes()[written.len() - 1] == quote.unwrap_or(0)
        {
            let inner = &written[1..written.len() - 1];
            let text = match quote {
                Some(b'"') if inner.contains('\\') => {
                    serde_json::from_str::<String>(written).map_or(Cow::Borrowed(inner), Cow::Owned)
                }
                _ => Cow::Borrowed(inner),
            };
            let quoting = if quote == Some(b'"') {
                Quoting::Double
            } else {
                Quoting::Other
            };
            return Node::new(NodeKind::String(Str { text, quoting }), span);
        }
        self.string(span)
    }

    /// The text of `lines`, from the first content to the last, as written.
    fn text_of(&mut self, lines: &[Line]) -> Node<'t> {
        let start = lines.iter().find(|l| !l.is_blank()).map_or(0, |l| l.at);
        let end = lines
            .iter()
            .rev()
            .find(|l| !l.is_blank())
            .map_or(start, |l| l.end);
        self.string(Span::new(start, end.max(start)))
    }

    /// A YAML block scalar: the lines without their common indentation, each on its own line
    /// (`|`, `folded` false) or joined by spaces with a blank line as a line break (`>`).
    fn block_text(&mut self, lines: &[Line], folded: bool) -> Node<'t> {
        let Some((_, indent)) = first_and_indent(lines) else {
            return self.text_of(lines);
        };
        let first = lines.iter().position(|l| !l.is_blank()).unwrap_or(0);
        let last = lines.iter().rposition(|l| !l.is_blank()).unwrap_or(first);
        let mut out = String::new();
        for (n, line) in lines[first..=last].iter().enumerate() {
            let content = &self.text[(line.start + indent).min(line.end)..line.end];
            let after_blank = n > 0 && lines[first + n - 1].is_blank();
            if n > 0 && (!folded || line.is_blank()) {
                out.push('\n');
            } else if n > 0 && !after_blank {
                out.push(' ');
            }
            if !line.is_blank() {
                out.push_str(content);
            }
        }
        let span = Span::new(lines[first].at, lines[last].end);
        Node::new(
            NodeKind::String(Str {
                text: Cow::Owned(out),
                quoting: Quoting::Unquoted,
            }),
            span,
        )
    }

    /// The text at `span` as an unquoted string.
    fn string(&self, span: Span) -> Node<'t> {
        Node::new(
            NodeKind::String(Str {
                text: Cow::Borrowed(&self.text[span.start..span.end]),
                quoting: Quoting::Unquoted,
            }),
            span,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn read_as(text: &str, lists: Lists) -> Option<Value> {
        let found = find(text, Span::new(0, text.len()))?;
        Some(read(text, found.span, lists, 128)?.node.to_value())
    }

    fn sections(text: &str) -> Option<Value> {
        read_as(text, Lists::ARRAYS)
    }

    #[test]
    fn labeled_lines_become_an_object() {
        let text =
            "Title: Fix the build\nIntent: make CI green\n**Plan:** 1. read logs\n2. fix\n\nthanks";
        assert_eq!(
            sections(text).unwrap(),
            json!({"Title": "Fix the build", "Intent": "make CI green", "Plan": "1. read logs\n2. fix"})
        );
    }

    #[test]
    fn a_sentence_with_a_colon_is_not_sections() {
        for text in [
            "Note: nothing to report.",
            "I could not do it: the file is missing, sorry.",
            "no colons at all",
            "See https://example.com and http://x.y for more.",
            "{\n  title: Fix,\n  intent: green\n}",
        ] {
            assert!(sections(text).is_none(), "{text:?}");
        }
    }

    #[test]
    fn every_way_of_writing_a_label() {
        let text = "# Title: Fix the build\n**Intent**: make CI green\n- Owner: Ada\n> Status: open\n__Priority__: high\nDates:\n  \"due\": Friday";
        assert_eq!(
            sections(text).unwrap(),
            json!({"Title": "Fix the build", "Intent": "make CI green", "Owner": "Ada", "Status": "open", "Priority": "high", "Dates": {"due": "Friday"}})
        );
        // A quoted key at the top level is JSON, not a label.
        assert!(sections("\"a\": 1\n\"b\": 2").is_none());
    }

    #[test]
    fn headings_are_followed_by_their_paragraphs() {
        let text = "## Title\nFix the build\n\n## Plan\nRead the logs.\nNote: the cache is stale.\n\nThen fix it.\n### Detail\ndeeper";
        assert_eq!(
            sections(text).unwrap(),
            json!({"Title": "Fix the build", "Plan": "Read the logs.\nNote: the cache is stale.\n\nThen fix it.\n### Detail\ndeeper"})
        );
    }

    #[test]
    fn a_list_body_is_an_array_or_its_text() {
        let text = "Title: Trip\nPlan:\n1. Search flights\n2. Book a hotel\n   near the station\nTags:\n- a\n- b";
        let found = find(text, Span::new(0, text.len())).unwrap();
        assert_eq!(found.choices, 2);
        let readings: Vec<Value> = Lists::readings(found.choices)
            .map(|l| read_as(text, l).unwrap())
            .collect();
        assert_eq!(
            readings,
            [
                json!({"Title": "Trip", "Plan": ["Search flights", "Book a hotel\n   near the station"], "Tags": ["a", "b"]}),
                json!({"Title": "Trip", "Plan": "1. Search flights\n2. Book a hotel\n   near the station", "Tags": ["a", "b"]}),
                json!({"Title": "Trip", "Plan": ["Search flights", "Book a hotel\n   near the station"], "Tags": "- a\n- b"}),
                json!({"Title": "Trip", "Plan": "1. Search flights\n2. Book a hotel\n   near the station", "Tags": "- a\n- b"}),
            ]
        );
    }

    #[test]
    fn yaml_like_blocks_nest() {
        let text = "title: Weather\ntodoList:\n  - id: 1\n    description: Get \"Paris\" weather\n    dependencies: []\n  - id: '2'\n    description: Compare\n    dependencies:\n      - 1\ntoolCalls:\n- callId: c1\n  toolName: weather\n  arguments:\n    city: Paris\n- {\"callId\": \"c2\", \"toolName\": \"weather\", \"arguments\": {\"city\": \"Rome\"}}\nnotes: |\n  two lines\n  of text\nfolded: >\n  one\n  line\n\n  two";
        assert_eq!(
            sections(text).unwrap(),
            json!({
                "title": "Weather",
                "todoList": [
                    {"id": "1", "description": "Get \"Paris\" weather", "dependencies": []},
                    {"id": "2", "description": "Compare", "dependencies": ["1"]}
                ],
                "toolCalls": [
                    {"callId": "c1", "toolName": "weather", "arguments": {"city": "Paris"}},
                    {"callId": "c2", "toolName": "weather", "arguments": {"city": "Rome"}}
                ],
                "notes": "two lines\nof text",
                "folded": "one line\ntwo"
            })
        );
    }

    #[test]
    fn blank_lines_inside_lists_and_blocks_keep_them_going() {
        let text =
            "Title: T\nSteps:\n  - a\n\n  - b\n    more\n\n    of b\nMeta:\n  k: v\n\n  j: w";
        assert_eq!(
            sections(text).unwrap(),
            json!({"Title": "T", "Steps": ["a", "b\n    more\n\n    of b"], "Meta": {"k": "v", "j": "w"}})
        );
    }

    #[test]
    fn one_label_with_a_block_is_enough() {
        assert_eq!(
            sections("Steps:\n- a\n- b").unwrap(),
            json!({"Steps": ["a", "b"]})
        );
        assert!(sections("Steps: a and b").is_none());
    }

    #[test]
    fn lines_inside_a_json_value_or_a_fence_are_not_labels() {
        let text = "Title: T\nData: {\n  a: 1,\n  b: 2\n}\n```\nx: 1\n```\nIntent: I";
        assert_eq!(
            sections(text).unwrap(),
            json!({"Title": "T", "Data": {"a": 1, "b": 2}, "Intent": "I"})
        );
    }

    /// The byte-by-byte definition that [`bracket_depth`] skips through with `memchr`.
    fn depth_by_bytes(line: &[u8], mut depth: usize) -> usize {
        let (mut in_string, mut escaped) = (false, false);
        for &b in line {
            if in_string {
                match b {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b'"' => in_string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'{' | b'[' => depth += 1,
                b'}' | b']' => depth = depth.saturating_sub(1),
                b'"' if depth > 0 => in_string = true,
                _ => {}
            }
        }
        depth
    }

    #[test]
    fn bracket_depth_matches_its_byte_by_byte_definition() {
        let lines = [
            "plain prose, no brackets",
            "a [link](x) and {x: [1, 2]}",
            "{\"a\": \"}]\\\"\", \"b\": [",
            "] } ] extra closers",
            "\"quoted\" { \"k\\\\\": \"v\\",
            "ends inside \"a string {",
            "{\"s\": \"x\\",
        ];
        for line in lines {
            for start in 0..3 {
                assert_eq!(
                    bracket_depth(line.as_bytes(), start),
                    depth_by_bytes(line.as_bytes(), start),
                    "{line:?} from {start}"
                );
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn bracket_depth_matches_on_any_line(line in "[{}\\[\\]\"\\\\a ]{0,40}", start in 0usize..3) {
            proptest::prop_assert_eq!(
                bracket_depth(line.as_bytes(), start),
                depth_by_bytes(line.as_bytes(), start)
            );
        }
    }

    #[test]
    fn deep_nesting_and_many_lines_stay_bounded() {
        let deep: String = (0..2_000)
            .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
            .collect();
        let text = format!("a: 1\n{deep}");
        assert!(sections(&text).is_some());
        let wide = "k: v\n".repeat(50_000);
        let start = std::time::Instant::now();
        assert!(sections(&wide).is_some());
        assert!(start.elapsed().as_secs() < 10);
    }
}
