//! What the markup pass looks for: XML-like tags (`<think>`, `<json>`), the special tokens
//! some models write reasoning with, and markdown fence runs, each found in one linear pass.

use crate::lex;
use memchr::memmem;

/// A tag head: `<name ...>` or `</name>`.
pub(crate) struct Tag {
    pub start: usize,
    pub end: usize,
    /// Lowercased.
    pub name: String,
    pub closing: bool,
}

/// The longest tag head (`<name attr="...">`) looked at; keeps the scan linear.
const MAX_TAG: usize = 256;

/// Every tag head in `text` whose name `wanted` accepts, in order.
pub(crate) fn tags(text: &str, wanted: impl Fn(&str) -> bool) -> Vec<Tag> {
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
        if !wanted(&name) {
            continue;
        }
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

/// The longest checkpoint suffix of a tag name looked at.
pub(crate) const MAX_SUFFIX: usize = 64;

/// A tag name without the checkpoint suffix Hunyuan writes after a `:` (`think:6124c78e` is
/// `think`): one to [`MAX_SUFFIX`] bytes of the name, no second `:`.
pub(crate) fn checkpoint_base(name: &str) -> Option<&str> {
    let (base, suffix) = name.split_once(':')?;
    let fits = !base.is_empty() && (1..=MAX_SUFFIX).contains(&suffix.len());
    (fits && !suffix.contains(':')).then_some(base)
}

/// Whether `b` may stand in a checkpoint suffix: anything but a space, `<` or `>` (vLLM's
/// Hunyuan parser takes the suffix from the vocabulary as written, `a+b(c` included).
fn in_suffix(b: u8) -> bool {
    !matches!(b, b'<' | b'>') && !b.is_ascii_whitespace()
}

/// How many bytes at the start of `after` may be a checkpoint suffix (counted up to one past
/// [`MAX_SUFFIX`], which is too long).
pub(crate) fn suffix_len(after: &[u8]) -> usize {
    after
        .iter()
        .take(MAX_SUFFIX + 1)
        .take_while(|&&b| in_suffix(b))
        .count()
}

/// The checkpoint suffix (after its `:`) that `after` starts with: `Whole(0, n)` when name
/// bytes end at a `>` (`n` counts the `>`), `Cut` when `after` ends before that is known,
/// `No` when it is none.
pub(crate) fn suffix_at(after: &[u8]) -> TokenAt {
    let len = suffix_len(after);
    match after.get(len) {
        None if len <= MAX_SUFFIX => TokenAt::Cut,
        Some(b'>') if (1..=MAX_SUFFIX).contains(&len) => TokenAt::Whole(0, len + 1),
        _ => TokenAt::No,
    }
}

/// Whether only spaces stand between the previous line break (or the start) and `at`. Looks
/// back over spaces only, so every byte is looked at a bounded number of times.
pub(crate) fn at_line_start(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    let mut i = at;
    while i > 0 && bytes[i - 1] != b'\n' {
        match lex::space_len_before(bytes, i) {
            0 => return false,
            n => i -= n,
        }
    }
    true
}

/// Whether only spaces stand between `at` and the next line break (or the end), or the answer
/// starts right there (`...</think>{"a": 1}`).
pub(crate) fn at_line_end(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    let mut i = at;
    while i < bytes.len() && bytes[i] != b'\n' {
        match lex::space_len(&bytes[i..]) {
            0 => return matches!(bytes[i], b'{' | b'[' | b'`'),
            n => i += n,
        }
    }
    true
}

/// Whether only spaces stand between `at` and the next line break (or the end).
pub(crate) fn blank_to_line_end(text: &str, at: usize) -> bool {
    lex::blank_line_rest(&text.as_bytes()[at..])
}

/// Inkling's reasoning block: it opens with [`INKLING_THINKING`] and ends with the end of its
/// message or the content marker of the answer that follows ([`INKLING_ENDS`]). The tool
/// reader's token list names them from here.
pub(crate) const INKLING_THINKING: &str = "<|content_thinking|>";
/// See [`INKLING_THINKING`]: `<|end_message|>` belongs to the block, the others start what
/// follows.
pub(crate) const INKLING_ENDS: [&str; 3] = [
    "<|end_message|>",
    "<|content_text|>",
    "<|content_model_end_sampling|>",
];

/// Reasoning written with special tokens instead of tags: gpt-oss Harmony's analysis channel,
/// Cohere's thinking block and Inkling's, each with the tokens that end it.
pub(crate) const TOKEN_BLOCKS: [(&str, &[&str]); 3] = [
    (
        "<|channel|>analysis<|message|>",
        &["<|end|>", "<|start|>", "<|channel|>"],
    ),
    ("<|START_THINKING|>", &["<|END_THINKING|>"]),
    (INKLING_THINKING, &INKLING_ENDS),
];

/// Whether closer `closer` of a block in [`TOKEN_BLOCKS`] belongs to the block it ends
/// (`<|end|>`, `<|END_THINKING|>`), or starts what follows and is left to it (a new Harmony
/// header: `<|start|>`, `<|channel|>`).
pub(crate) fn closer_in_block(closer: usize) -> bool {
    closer == 0
}

/// Whether the opener of block `block` of [`TOKEN_BLOCKS`] begins with one of the block's
/// closers that start what follows (Harmony's `<|channel|>analysis<|message|>` begins with
/// `<|channel|>`): met inside such a block, it ends the block and opens the next.
pub(crate) fn opener_ends_block(block: usize) -> bool {
    let (open, closers) = TOKEN_BLOCKS[block];
    closers
        .iter()
        .enumerate()
        .any(|(c, closer)| !closer_in_block(c) && open.starts_with(closer))
}

/// How the text at a `<` compares with the tokens of a list, for a reader that may not have
/// all of the text yet (the stream). Tokens are matched as written (case matters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokenAt {
    /// None of them starts here.
    No,
    /// The text ends inside what could still become one of them: wait for more.
    Cut,
    /// The token at this index of the list, of this length.
    Whole(usize, usize),
}

/// Which of `tokens` `rest` starts with: the longest whole one, unless a longer one could
/// still follow (as the markup pass, which takes the longer of two tokens at one place).
pub(crate) fn token_at<'t>(rest: &[u8], tokens: impl IntoIterator<Item = &'t str>) -> TokenAt {
    let mut whole: Option<(usize, usize)> = None;
    let mut cut = 0;
    for (i, token) in tokens.into_iter().enumerate() {
        let token = token.as_bytes();
        let have = rest.len().min(token.len());
        if rest[..have] != token[..have] {
            continue;
        }
        if have < token.len() {
            cut = cut.max(token.len());
        } else if whole.is_none_or(|(_, len)| len < token.len()) {
            whole = Some((i, token.len()));
        }
    }
    match whole {
        Some((_, len)) if cut > len => TokenAt::Cut,
        Some((i, len)) => TokenAt::Whole(i, len),
        None if cut > 0 => TokenAt::Cut,
        None => TokenAt::No,
    }
}

/// The opener of [`TOKEN_BLOCKS`] that `rest` starts with (`Whole(block, len)`).
pub(crate) fn opener_at(rest: &[u8]) -> TokenAt {
    token_at(rest, TOKEN_BLOCKS.iter().map(|(open, _)| *open))
}

/// The closer of block `block` of [`TOKEN_BLOCKS`] that `rest` starts with
/// (`Whole(closer, len)`).
pub(crate) fn closer_at(rest: &[u8], block: usize) -> TokenAt {
    token_at(rest, TOKEN_BLOCKS[block].1.iter().copied())
}

/// A special token of [`TOKEN_BLOCKS`]: where it is, and which block it opens or ends.
pub(crate) struct Token {
    pub start: usize,
    pub end: usize,
    pub block: usize,
    /// `None` for the block's opener, else which of its closers.
    pub closer: Option<usize>,
}

/// Every token of [`TOKEN_BLOCKS`] in `text` (closers only for blocks whose opener occurs).
pub(crate) fn tokens(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    // Every token starts with `<|`: most replies hold none, and need no search per token.
    if !memchr::memchr_iter(b'<', bytes).any(|i| bytes.get(i + 1) == Some(&b'|')) {
        return out;
    }
    for (block, (open, closers)) in TOKEN_BLOCKS.iter().enumerate() {
        let before = out.len();
        out.extend(
            memmem::find_iter(bytes, open.as_bytes()).map(|start| Token {
                start,
                end: start + open.len(),
                block,
                closer: None,
            }),
        );
        if out.len() == before {
            continue;
        }
        for (c, closer) in closers.iter().enumerate() {
            out.extend(
                memmem::find_iter(bytes, closer.as_bytes()).map(|start| Token {
                    start,
                    end: start + closer.len(),
                    block,
                    closer: Some(c),
                }),
            );
        }
    }
    out
}

/// A run of three or more backticks: where it starts and how long it is.
pub(crate) struct Run {
    pub start: usize,
    pub len: usize,
}

/// Every run of three or more backticks in `text`, in order.
pub(crate) fn runs(text: &str) -> Vec<Run> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(p) = memchr::memchr(b'`', &bytes[i..]).map(|x| x + i) {
        let len = bytes[p..].iter().take_while(|&&b| b == b'`').count();
        if len >= 3 {
            out.push(Run { start: p, len });
        }
        i = p + len;
    }
    out
}
