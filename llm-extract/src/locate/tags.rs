//! XML-like tags: reasoning blocks to split off, and answer tags to look in first.

use crate::settings::Settings;
use crate::span::Span;

/// A reasoning block: the whole block (with its tags) and the text inside.
pub(crate) struct Thought {
    pub whole: Span,
    pub content: Span,
}

pub(crate) struct Markup {
    pub thoughts: Vec<Thought>,
    /// Contents of answer tags (`<json>...</json>`), outside reasoning blocks.
    pub answers: Vec<Span>,
}

struct Tag {
    start: usize,
    end: usize,
    name: String,
    closing: bool,
}

/// The longest tag head (`<name attr="...">`) looked at; keeps the scan linear.
const MAX_TAG: usize = 256;

/// How far down the stack of open answer tags a closing tag looks for its opener.
const MAX_NESTING_SEARCH: usize = 16;

fn tags(text: &str) -> Vec<Tag> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for p in memchr::memchr_iter(b'<', bytes) {
        let mut i = p + 1;
        let closing = bytes.get(i) == Some(&b'/');
        if closing {
            i += 1;
        }
        let name_start = i;
        while i < bytes.len()
            && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'_' | b'-' | b':'))
        {
            i += 1;
        }
        if i == name_start || !bytes[name_start].is_ascii_alphabetic() {
            continue;
        }
        let name = text[name_start..i].to_ascii_lowercase();
        let limit = (i + MAX_TAG).min(bytes.len());
        let Some(gt) = memchr::memchr(b'>', &bytes[i..limit]).map(|x| x + i) else {
            continue;
        };
        if memchr::memchr(b'<', &bytes[i..gt]).is_some() || bytes[gt - 1] == b'/' {
            continue;
        }
        out.push(Tag {
            start: p,
            end: gt + 1,
            name,
            closing,
        });
    }
    out
}

/// Whether only spaces stand between the previous line break (or the start) and `at`. Looks
/// back over spaces only, so every byte is looked at a bounded number of times.
fn at_line_start(text: &str, at: usize) -> bool {
    let before = &text.as_bytes()[..at];
    let spaces = before
        .iter()
        .rev()
        .take_while(|&&b| matches!(b, b' ' | b'\t' | b'\r'))
        .count();
    at == spaces || before[at - spaces - 1] == b'\n'
}

/// Whether only spaces stand between `at` and the next line break (or the end), or the answer
/// starts right there (`...</think>{"a": 1}`).
fn at_line_end(text: &str, at: usize) -> bool {
    let after = &text.as_bytes()[at..];
    let spaces = after
        .iter()
        .take_while(|&&b| matches!(b, b' ' | b'\t' | b'\r'))
        .count();
    spaces == after.len() || matches!(after[spaces], b'\n' | b'{' | b'[' | b'`')
}

pub(crate) fn scan(text: &str, settings: &Settings) -> Markup {
    let all = tags(text);
    let is_reasoning = |n: &str| settings.reasoning_tags.iter().any(|t| t == n);
    let is_answer = |n: &str| settings.tags.iter().any(|t| t == n);

    let mut thoughts = Vec::new();
    let mut open: Option<&Tag> = None;
    let mut last_end = 0;
    // Models put reasoning tags on lines of their own (or first in the reply); one in the middle
    // of a line is text, such as a `<think>` inside a JSON string, and must not swallow the rest.
    for tag in all.iter().filter(|t| is_reasoning(&t.name)) {
        let placed = at_line_start(text, tag.start)
            || (tag.closing && (open.is_some() || at_line_end(text, tag.end)));
        if !placed {
            continue;
        }
        match (tag.closing, open) {
            (false, None) => open = Some(tag),
            (false, Some(_)) => {} // nested: the outer block goes on
            (true, Some(o)) => {
                thoughts.push(Thought {
                    whole: Span::new(o.start, tag.end),
                    content: Span::new(o.end, tag.start),
                });
                open = None;
                last_end = tag.end;
            }
            (true, None) => {
                // `...reasoning</think>answer`: the opening tag was left out (or sent earlier).
                thoughts.push(Thought {
                    whole: Span::new(last_end, tag.end),
                    content: Span::new(last_end, tag.start),
                });
                last_end = tag.end;
            }
        }
    }
    if let Some(o) = open {
        thoughts.push(Thought {
            whole: Span::new(o.start, text.len()),
            content: Span::new(o.end, text.len()),
        });
    }
    let thoughts = with_token_thoughts(text, thoughts);

    // Thoughts are disjoint and in order, so a binary search finds the one that could hold `at`.
    let inside_thought = |at: usize| {
        let i = thoughts.partition_point(|t| t.whole.end <= at);
        thoughts.get(i).is_some_and(|t| t.whole.start <= at)
    };
    let mut answers = Vec::new();
    let mut stack: Vec<&Tag> = Vec::new();
    for tag in all
        .iter()
        .filter(|t| is_answer(&t.name) && !inside_thought(t.start))
    {
        if !tag.closing {
            stack.push(tag);
            continue;
        }
        let found = stack
            .iter()
            .rev()
            .take(MAX_NESTING_SEARCH)
            .position(|o| o.name == tag.name);
        if let Some(depth) = found {
            let index = stack.len() - 1 - depth;
            let o = stack[index];
            stack.truncate(index);
            if stack.is_empty() {
                answers.push(Span::new(o.end, tag.start));
            }
        }
    }
    if let Some(o) = stack.first() {
        answers.push(Span::new(o.end, text.len()));
    }
    Markup { thoughts, answers }
}

/// Reasoning written with special tokens instead of tags: gpt-oss Harmony's analysis channel
/// and Cohere's thinking block, each with the tokens that end it.
const TOKEN_BLOCKS: [(&str, &[&str]); 2] = [
    (
        "<|channel|>analysis<|message|>",
        &["<|end|>", "<|start|>", "<|channel|>"],
    ),
    ("<|START_THINKING|>", &["<|END_THINKING|>"]),
];

/// `thoughts` (in order, disjoint) with the token-delimited reasoning blocks added; a block
/// that overlaps one already found is left out, so the result stays in order and disjoint.
fn with_token_thoughts(text: &str, mut thoughts: Vec<Thought>) -> Vec<Thought> {
    let mut found = Vec::new();
    for (open, closers) in TOKEN_BLOCKS {
        // The next occurrence of each closer, searched for again only once passed, so the
        // text is read a bounded number of times however many blocks there are.
        let mut next: Vec<Option<Option<usize>>> = vec![None; closers.len()];
        let mut from = 0;
        while let Some(i) = text[from..].find(open) {
            let start = from + i;
            let content = start + open.len();
            let mut end: Option<(usize, usize)> = None;
            for (c, closer) in closers.iter().enumerate() {
                let at = match next[c] {
                    Some(Some(at)) if at >= content => Some(at),
                    Some(None) => None,
                    _ => text[content..].find(closer).map(|j| content + j),
                };
                next[c] = Some(at);
                if let Some(at) = at {
                    // `<|end|>` belongs to the block; a new header starts the next message.
                    let len = if c == 0 { closer.len() } else { 0 };
                    if end.is_none_or(|(e, _)| at < e) {
                        end = Some((at, len));
                    }
                }
            }
            let (content_end, whole_end) =
                end.map_or((text.len(), text.len()), |(e, l)| (e, e + l));
            found.push(Thought {
                whole: Span::new(start, whole_end),
                content: Span::new(content, content_end),
            });
            if whole_end >= text.len() {
                break;
            }
            from = whole_end.max(content);
        }
    }
    if found.is_empty() {
        return thoughts;
    }
    thoughts.extend(found);
    thoughts.sort_by_key(|t| t.whole.start);
    let mut kept: Vec<Thought> = Vec::with_capacity(thoughts.len());
    for t in thoughts {
        if kept.last().is_none_or(|k| k.whole.end <= t.whole.start) {
            kept.push(t);
        }
    }
    kept
}
