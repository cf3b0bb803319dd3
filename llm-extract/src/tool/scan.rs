//! One linear pass that finds the tokens of every tool-call wire format, skipping any that
//! sit inside a JSON string value.
//!
//! A marker written inside `"..."` of a JSON object (a tool's argument that mentions
//! `<tool_call>`) is not a call, so the scan tracks JSON strings: a `"` opens one only inside
//! a `{`/`[` (prose quotes at the top level do not), and a string ends at its closing quote or
//! at a line break (a string never spans lines in JSON; an unclosed one must not hide the rest
//! of the reply). Every token costs a bounded number of byte comparisons, so the scan is
//! linear whatever the input.

use crate::span::Span;

/// What a token is. Openers, separators and closers of all formats share one list so that
/// a body (the text between two tokens) never runs past the next token of any format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// `<tool_call>` (Hermes, Qwen, Qwen3-Coder, GLM).
    ToolCallOpen,
    /// `</tool_call>`.
    ToolCallClose,
    /// `<function=NAME>` (Functionary, Qwen3-Coder); the name is in the token.
    FunctionOpen,
    /// `</function>`.
    FunctionClose,
    /// `<invoke name="NAME">` (MiniMax); the name is in the token.
    InvokeOpen,
    /// `</invoke>`.
    InvokeClose,
    /// `<|python_tag|>` (Llama 3.x).
    PythonTag,
    /// `<|python_start|>` (Llama 4).
    PythonStart,
    /// `<|python_end|>`.
    PythonEnd,
    /// `<|tool_call_start|>` (LFM2).
    ToolCallStart,
    /// `<|tool_call_end|>` (LFM2 and Kimi K2).
    ToolCallEnd,
    /// `<|tool_call|>` (Granite).
    GraniteToolCall,
    /// `[TOOL_CALLS]` (Mistral).
    MistralCalls,
    /// `[ARGS]` (Mistral v11+).
    MistralArgs,
    /// `[CALL_ID]` (Mistral v13+).
    MistralCallId,
    /// `functools` right before `[` (FireFunction).
    Functools,
    /// `<｜tool▁calls▁begin｜>` (DeepSeek).
    DsCallsBegin,
    /// `<｜tool▁call▁begin｜>`.
    DsCallBegin,
    /// `<｜tool▁sep｜>`.
    DsSep,
    /// `<｜tool▁call▁end｜>`.
    DsCallEnd,
    /// `<｜tool▁calls▁end｜>`.
    DsCallsEnd,
    /// `<|tool_calls_section_begin|>` (Kimi K2).
    KimiSectionBegin,
    /// `<|tool_call_begin|>`.
    KimiCallBegin,
    /// `<|tool_call_argument_begin|>`.
    KimiArgBegin,
    /// `<|tool_calls_section_end|>`.
    KimiSectionEnd,
    /// `<|start|>` (Harmony).
    HarmonyStart,
    /// `<|channel|>`.
    HarmonyChannel,
    /// `<|constrain|>`.
    HarmonyConstrain,
    /// `<|message|>`.
    HarmonyMessage,
    /// `<|call|>`, `<|end|>` or `<|return|>`: a Harmony message ends.
    HarmonyEnd,
    /// `<|START_ACTION|>` (Cohere).
    CohereAction,
    /// `<|END_ACTION|>`.
    CohereActionEnd,
    /// `TOOL_CALL` as a word (the marker agent prompts ask for).
    Marker,
    /// `<think>`, `<thinking>`, `<reasoning>`, `<|START_THINKING|>`.
    ThinkOpen,
    /// Their closers.
    ThinkClose,
    /// `<|eom_id|>`, `<|eot_id|>`, `<|im_end|>`, `</s>`: the turn ends.
    TurnEnd,
}

/// One token: its kind and where it is. For `FunctionOpen` and `InvokeOpen`, `name` is the
/// span of the tool name inside the token.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    pub tok: Tok,
    pub span: Span,
    pub name: Span,
}

/// Literal tokens, looked up by their first byte.
const LITERALS: &[(&str, Tok)] = &[
    ("<tool_call>", Tok::ToolCallOpen),
    ("</tool_call>", Tok::ToolCallClose),
    ("</function>", Tok::FunctionClose),
    ("</invoke>", Tok::InvokeClose),
    ("<|python_tag|>", Tok::PythonTag),
    ("<|python_start|>", Tok::PythonStart),
    ("<|python_end|>", Tok::PythonEnd),
    ("<|tool_call_start|>", Tok::ToolCallStart),
    ("<|tool_call_end|>", Tok::ToolCallEnd),
    ("<|tool_call|>", Tok::GraniteToolCall),
    ("[TOOL_CALLS]", Tok::MistralCalls),
    ("[ARGS]", Tok::MistralArgs),
    ("[CALL_ID]", Tok::MistralCallId),
    ("<｜tool▁calls▁begin｜>", Tok::DsCallsBegin),
    ("<｜tool▁call▁begin｜>", Tok::DsCallBegin),
    ("<｜tool▁sep｜>", Tok::DsSep),
    ("<｜tool▁call▁end｜>", Tok::DsCallEnd),
    ("<｜tool▁calls▁end｜>", Tok::DsCallsEnd),
    ("<|tool_calls_section_begin|>", Tok::KimiSectionBegin),
    ("<|tool_call_begin|>", Tok::KimiCallBegin),
    ("<|tool_call_argument_begin|>", Tok::KimiArgBegin),
    ("<|tool_calls_section_end|>", Tok::KimiSectionEnd),
    ("<|start|>", Tok::HarmonyStart),
    ("<|channel|>", Tok::HarmonyChannel),
    ("<|constrain|>", Tok::HarmonyConstrain),
    ("<|message|>", Tok::HarmonyMessage),
    ("<|call|>", Tok::HarmonyEnd),
    ("<|end|>", Tok::HarmonyEnd),
    ("<|return|>", Tok::HarmonyEnd),
    ("<|START_ACTION|>", Tok::CohereAction),
    ("<|END_ACTION|>", Tok::CohereActionEnd),
    ("<|START_THINKING|>", Tok::ThinkOpen),
    ("<|END_THINKING|>", Tok::ThinkClose),
    ("<think>", Tok::ThinkOpen),
    ("</think>", Tok::ThinkClose),
    ("<thinking>", Tok::ThinkOpen),
    ("</thinking>", Tok::ThinkClose),
    ("<reasoning>", Tok::ThinkOpen),
    ("</reasoning>", Tok::ThinkClose),
    ("<|eom_id|>", Tok::TurnEnd),
    ("<|eot_id|>", Tok::TurnEnd),
    ("<|im_end|>", Tok::TurnEnd),
    ("</s>", Tok::TurnEnd),
];

/// The longest a `<function=NAME>` or `<invoke name="NAME">` token may be: a tool name is
/// short, and the bound keeps a token without its `>` from costing more than a constant.
const MAX_NAMED_TOKEN: usize = 160;

/// Every token in `text`, in order, none inside a JSON string value.
pub(crate) fn tokens(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut in_string = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'\\' => i += 1,
                b'"' | b'\n' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        if matches!(b, b'<' | b'[' | b'T' | b'f') {
            if let Some(token) = token_at(text, i) {
                i = token.span.end;
                out.push(token);
                // A format token is never inside JSON syntax: what came before is closed.
                depth = 0;
                continue;
            }
        }
        match b {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' if depth > 0 => in_string = true,
            _ => {}
        }
        i += 1;
    }
    out
}

fn token_at(text: &str, i: usize) -> Option<Token> {
    let rest = &text[i..];
    let plain = |tok, len| Token {
        tok,
        span: Span::new(i, i + len),
        name: Span::at(i),
    };
    match rest.as_bytes()[0] {
        b'<' => {
            for (lit, tok) in LITERALS {
                if lit.as_bytes()[0] == b'<' && rest.starts_with(lit) {
                    return Some(plain(*tok, lit.len()));
                }
            }
            named(text, i, "<function=", "", Tok::FunctionOpen)
                .or_else(|| named(text, i, "<invoke name=\"", "\"", Tok::InvokeOpen))
        }
        b'[' => LITERALS
            .iter()
            .find(|(lit, _)| lit.as_bytes()[0] == b'[' && rest.starts_with(lit))
            .map(|(lit, tok)| plain(*tok, lit.len())),
        b'T' => {
            let before_ok = i == 0 || {
                let p = text.as_bytes()[i - 1];
                !(p.is_ascii_alphanumeric() || p == b'_' || p == b'[')
            };
            let after = rest.as_bytes().get("TOOL_CALL".len()).copied();
            let after_ok = after.is_none_or(|a| !(a.is_ascii_alphanumeric() || a == b'_'));
            (before_ok && after_ok && rest.starts_with("TOOL_CALL"))
                .then(|| plain(Tok::Marker, "TOOL_CALL".len()))
        }
        b'f' => {
            let before_ok = i == 0 || !text.as_bytes()[i - 1].is_ascii_alphanumeric();
            (before_ok && rest.starts_with("functools["))
                .then(|| plain(Tok::Functools, "functools".len()))
        }
        _ => None,
    }
}

/// `<function=NAME>` or `<invoke name="NAME">`: the prefix, a name without line breaks, the
/// closing quote if any, then `>`, all within [`MAX_NAMED_TOKEN`] bytes.
fn named(text: &str, i: usize, prefix: &str, quote: &str, tok: Tok) -> Option<Token> {
    let rest = &text[i..];
    if !rest.starts_with(prefix) {
        return None;
    }
    let after = &rest.as_bytes()[prefix.len()..];
    let window = &after[..after.len().min(MAX_NAMED_TOKEN)];
    let close = memchr::memchr(b'>', window)?;
    if memchr::memchr(b'\n', &window[..close]).is_some() {
        return None;
    }
    let name_start = i + prefix.len();
    let mut name_end = name_start + close;
    if !quote.is_empty() {
        if !text[name_start..name_end].ends_with(quote) {
            return None;
        }
        name_end -= quote.len();
    }
    let name = Span::new(name_start, name_end);
    if text[name.start..name.end].trim().is_empty() {
        return None;
    }
    Some(Token {
        tok,
        span: Span::new(i, name_start + close + 1),
        name,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Tok> {
        tokens(text).into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn markers_inside_json_strings_are_not_tokens() {
        let text =
            r#"{"name": "echo", "arguments": {"text": "wrap it in <tool_call> and </tool_call>"}}"#;
        assert!(kinds(text).is_empty());
        // Prose quotes at the top level do not open a string.
        assert_eq!(
            kinds(r#"He said "use <tool_call>" and left"#),
            vec![Tok::ToolCallOpen]
        );
    }

    #[test]
    fn an_unclosed_string_ends_at_the_line_break() {
        let text = "{\"a\": \"never closed\n<tool_call>{}</tool_call>";
        assert_eq!(kinds(text), vec![Tok::ToolCallOpen, Tok::ToolCallClose]);
    }

    #[test]
    fn named_tokens_carry_the_name() {
        let text = r#"<function=get_weather>{}</function><invoke name="search">"#;
        let toks = tokens(text);
        assert_eq!(toks[0].tok, Tok::FunctionOpen);
        assert_eq!(&text[toks[0].name.start..toks[0].name.end], "get_weather");
        assert_eq!(toks[2].tok, Tok::InvokeOpen);
        assert_eq!(&text[toks[2].name.start..toks[2].name.end], "search");
    }

    #[test]
    fn tool_call_marker_is_a_whole_word() {
        assert_eq!(kinds("TOOL_CALL: {}"), vec![Tok::Marker]);
        assert!(kinds("MY_TOOL_CALL_X").is_empty());
        assert_eq!(kinds("[TOOL_CALLS]"), vec![Tok::MistralCalls]);
    }
}
