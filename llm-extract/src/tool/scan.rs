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
    /// `<｜DSML｜function_calls>` (DeepSeek V3.2) or `<｜DSML｜tool_calls>` (V4).
    DsmlBlock,
    /// `</｜DSML｜function_calls>` or `</｜DSML｜tool_calls>`.
    DsmlBlockEnd,
    /// `<｜DSML｜invoke name="NAME">`; the name is in the token.
    DsmlInvoke,
    /// `</｜DSML｜invoke>`.
    DsmlInvokeEnd,
    /// `<|tool_call>` (Gemma 4).
    GemmaCall,
    /// `<tool_call|>`.
    GemmaCallEnd,
    /// `<start_function_call>` (FunctionGemma).
    FnGemmaCall,
    /// `<end_function_call>`.
    FnGemmaCallEnd,
    /// A fence opened with the info string `tool_code` (Gemma 3); its closing run is found
    /// by the handler.
    ToolCode,
    /// `<seed:tool_call>` (Seed-OSS).
    SeedCall,
    /// `</seed:tool_call>`.
    SeedCallEnd,
    /// `<|open|>tools<|sep|>` (Kimi K3).
    XtmlTools,
    /// `<|close|>tools<|sep|>`.
    XtmlToolsEnd,
    /// `<|open|>call tool="NAME" ...<|sep|>`; the name (as written, escaped) is in the token.
    XtmlCall,
    /// `<|close|>call<|sep|>`.
    XtmlCallEnd,
    /// `<|open|>response<|sep|>`, `<|close|>response<|sep|>` and `<|close|>message<|sep|>`:
    /// the frame of the answer text.
    XtmlFrame,
    /// `<｜tool_calls_begin｜>` (Step-3).
    StepCallsBegin,
    /// `<｜tool_call_begin｜>`.
    StepCallBegin,
    /// `<｜tool_sep｜>`.
    StepSep,
    /// `<｜tool_call_end｜>`.
    StepCallEnd,
    /// `<｜tool_calls_end｜>`.
    StepCallsEnd,
    /// `<steptml:invoke name="NAME">`; the name is in the token.
    StepInvoke,
    /// `</steptml:invoke>`.
    StepInvokeEnd,
    /// `<function name="NAME">` (MiniCPM); the name is in the token.
    FunctionNamed,
    /// `<function_calls>` (OLMo 3).
    FunctionCalls,
    /// `</function_calls>`.
    FunctionCallsEnd,
    /// `<minimax:tool_call>` and `</minimax:tool_call>` around MiniMax M2's invokes.
    MiniMaxWrap,
    /// `<tool_calls>` (Hunyuan): a JSON list of calls (A13B) or `<tool_call>` calls (V3, V4).
    HunyuanCalls,
    /// `</tool_calls>`.
    HunyuanCallsEnd,
    /// `<|tools_prefix|>` (Apertus).
    ApertusCalls,
    /// `<|tools_suffix|>`.
    ApertusCallsEnd,
    /// `]<]minimax[>[<tool_call>` (MiniMax M3: every tag has the namespace marker).
    M3Calls,
    /// `]<]minimax[>[</tool_call>`.
    M3CallsEnd,
    /// `]<]minimax[>[<invoke name="NAME">`; the name is in the token.
    M3Invoke,
    /// `]<]minimax[>[</invoke>`.
    M3InvokeEnd,
    /// `<|message_model|>` (Inkling): a model message begins, its header follows.
    InklingMessage,
    /// `<|content_invoke_tool_json|>`.
    InklingToolJson,
    /// `<|content_text|>`: the message is answer text.
    InklingText,
    /// `<|end_message|>` or `<|content_model_end_sampling|>`.
    InklingEnd,
    /// `<think>`, `<thinking>`, `<reasoning>`, `<|START_THINKING|>`, Seed-OSS's `<seed:think>`,
    /// Kimi K3's `<|open|>think<|sep|>`, Gemma 4's `<|channel>`.
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
    ("<|channel>", Tok::ThinkOpen),
    ("<channel|>", Tok::ThinkClose),
    ("<seed:think>", Tok::ThinkOpen),
    ("</seed:think>", Tok::ThinkClose),
    ("<reasoning>", Tok::ThinkOpen),
    ("</reasoning>", Tok::ThinkClose),
    ("<｜DSML｜function_calls>", Tok::DsmlBlock),
    ("<｜DSML｜tool_calls>", Tok::DsmlBlock),
    ("</｜DSML｜function_calls>", Tok::DsmlBlockEnd),
    ("</｜DSML｜tool_calls>", Tok::DsmlBlockEnd),
    ("</｜DSML｜invoke>", Tok::DsmlInvokeEnd),
    ("<|tool_call>", Tok::GemmaCall),
    ("<tool_call|>", Tok::GemmaCallEnd),
    ("<start_function_call>", Tok::FnGemmaCall),
    ("<end_function_call>", Tok::FnGemmaCallEnd),
    ("<seed:tool_call>", Tok::SeedCall),
    ("</seed:tool_call>", Tok::SeedCallEnd),
    ("<｜tool_calls_begin｜>", Tok::StepCallsBegin),
    ("<｜tool_call_begin｜>", Tok::StepCallBegin),
    ("<｜tool_sep｜>", Tok::StepSep),
    ("<｜tool_call_end｜>", Tok::StepCallEnd),
    ("<｜tool_calls_end｜>", Tok::StepCallsEnd),
    ("</steptml:invoke>", Tok::StepInvokeEnd),
    ("<function_calls>", Tok::FunctionCalls),
    ("</function_calls>", Tok::FunctionCallsEnd),
    ("<|message_model|>", Tok::InklingMessage),
    ("<|content_invoke_tool_json|>", Tok::InklingToolJson),
    ("<|content_text|>", Tok::InklingText),
    ("<|end_message|>", Tok::InklingEnd),
    ("<|content_model_end_sampling|>", Tok::InklingEnd),
    ("<minimax:tool_call>", Tok::MiniMaxWrap),
    ("</minimax:tool_call>", Tok::MiniMaxWrap),
    ("<tool_calls>", Tok::HunyuanCalls),
    ("</tool_calls>", Tok::HunyuanCallsEnd),
    ("<|tools_prefix|>", Tok::ApertusCalls),
    ("<|tools_suffix|>", Tok::ApertusCallsEnd),
    ("]<]minimax[>[<tool_call>", Tok::M3Calls),
    ("]<]minimax[>[</tool_call>", Tok::M3CallsEnd),
    ("]<]minimax[>[</invoke>", Tok::M3InvokeEnd),
    ("<turn|>", Tok::TurnEnd),
    ("<end_of_turn>", Tok::TurnEnd),
    ("<|eom_id|>", Tok::TurnEnd),
    ("<|eot_id|>", Tok::TurnEnd),
    ("<|im_end|>", Tok::TurnEnd),
    ("</s>", Tok::TurnEnd),
];

/// Delimiters of strings inside call arguments that are not JSON: Gemma 4's `<|"|>` and
/// FunctionGemma's `<escape>`. The text between two of them is a string, whatever quotes
/// and brackets it holds.
const STRING_DELIMITERS: [&str; 2] = ["<|\"|>", "<escape>"];

/// The longest a `<function=NAME>` or `<invoke name="NAME">` token may be: a tool name is
/// short, and the bound keeps a token without its `>` from costing more than a constant.
const MAX_NAMED_TOKEN: usize = 160;

/// Every token in `text`, in order, none inside a JSON string value.
pub(crate) fn tokens(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut in_string = false;
    // Inside a value between two of [`STRING_DELIMITERS`]: quotes and brackets there are text.
    let mut delimited: Option<&str> = None;
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
        if b == b'<' && (depth > 0 || delimited.is_some()) {
            if let Some(d) = STRING_DELIMITERS
                .iter()
                .find(|d| text[i..].starts_with(**d))
            {
                delimited = match delimited {
                    Some(open) if open == *d => None,
                    None => Some(*d),
                    other => other,
                };
                i += d.len();
                continue;
            }
        }
        if matches!(b, b'<' | b'[' | b'T' | b'f' | b'`' | b']') {
            if let Some(token) = token_at(text, i) {
                i = token.span.end;
                out.push(token);
                // A format token is never inside JSON syntax: what came before is closed.
                depth = 0;
                delimited = None;
                continue;
            }
        }
        if delimited.is_some() {
            i += 1;
            continue;
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
                .or_else(|| named(text, i, "<｜DSML｜invoke name=\"", "\"", Tok::DsmlInvoke))
                .or_else(|| named(text, i, "<steptml:invoke name=\"", "\"", Tok::StepInvoke))
                .or_else(|| named(text, i, "<function name=\"", "\"", Tok::FunctionNamed))
                .or_else(|| xtml(text, i))
        }
        b'`' => tool_code(text, i),
        b']' => LITERALS
            .iter()
            .find(|(lit, _)| lit.as_bytes()[0] == b']' && rest.starts_with(lit))
            .map(|(lit, tok)| plain(*tok, lit.len()))
            .or_else(|| named(text, i, "]<]minimax[>[<invoke name=\"", "\"", Tok::M3Invoke)),
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

/// ```` ```tool_code ````, its info string ending there (so ```` ```tool_code``` ```` in
/// prose is inline code, not a fence).
fn tool_code(text: &str, i: usize) -> Option<Token> {
    const OPENER: &str = "```tool_code";
    let rest = &text[i..];
    let after = rest.get(OPENER.len()..)?;
    let info_ends = after.is_empty() || after.starts_with(['\n', '\r', ' ']);
    let fence_start = i == 0 || text.as_bytes()[i - 1] != b'`';
    (fence_start && rest.starts_with(OPENER) && info_ends).then(|| Token {
        tok: Tok::ToolCode,
        span: Span::new(i, i + OPENER.len()),
        name: Span::at(i),
    })
}

/// Kimi K3's XTML markers: `<|open|>` or `<|close|>`, a word (`tools`, `call`, `response`,
/// `message`), for a call its attributes, then `<|sep|>`, all within [`MAX_NAMED_TOKEN`]
/// bytes; spaces around the word are tolerated, as the engines do.
fn xtml(text: &str, i: usize) -> Option<Token> {
    const SEP: &str = "<|sep|>";
    let rest = &text[i..];
    let (open, after) = if let Some(a) = rest.strip_prefix("<|open|>") {
        (true, a)
    } else {
        (false, rest.strip_prefix("<|close|>")?)
    };
    let window = &after[..floor_boundary(after, MAX_NAMED_TOKEN)];
    let inner_len = window.find(SEP)?;
    let inner = &after[..inner_len];
    let word_at = inner.len() - inner.trim_start().len();
    let word_len = inner[word_at..]
        .bytes()
        .take_while(u8::is_ascii_alphanumeric)
        .count();
    let word = &inner[word_at..word_at + word_len];
    let attrs = &inner[word_at + word_len..];
    let inner_start = i + (rest.len() - after.len());
    let end = inner_start + inner_len + SEP.len();
    let mut name = Span::at(i);
    let tok = match (open, word) {
        (true, "tools") if attrs.trim().is_empty() => Tok::XtmlTools,
        (false, "tools") if attrs.trim().is_empty() => Tok::XtmlToolsEnd,
        (true, "call") if attrs.starts_with(char::is_whitespace) => {
            let at = attrs.find("tool=\"")? + "tool=\"".len();
            let len = attrs[at..].find('"')?;
            let start = inner_start + word_at + word_len + at;
            name = Span::new(start, start + len);
            Tok::XtmlCall
        }
        (false, "call") if attrs.trim().is_empty() => Tok::XtmlCallEnd,
        (true, "think") if attrs.trim().is_empty() => Tok::ThinkOpen,
        (false, "think") if attrs.trim().is_empty() => Tok::ThinkClose,
        (true, "response") | (false, "response" | "message") if attrs.trim().is_empty() => {
            Tok::XtmlFrame
        }
        _ => return None,
    };
    Some(Token {
        tok,
        span: Span::new(i, end),
        name,
    })
}

/// The largest char boundary of `s` at or below `at`.
fn floor_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
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
