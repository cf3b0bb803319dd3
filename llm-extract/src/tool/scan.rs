//! One linear pass that finds the tokens of every tool-call wire format, skipping any that
//! sit inside a JSON string value.
//!
//! A marker written inside `"..."` of a JSON object (a tool's argument that mentions
//! `<tool_call>`) is not a call, so the scan tracks JSON strings: a `"` opens one only inside
//! a `{`/`[` (prose quotes at the top level do not), a `'` only there and where a value or key
//! goes (after `:` `,` `[` or `{`: `{'q': 'say`, as the parser reads single quotes; an
//! apostrophe in a word opens none), and a string ends where the readers of
//! the calls end it (see [`Strings`]): at its closing quote, or at a line break (a string
//! never spans lines in JSON; an unclosed one must not hide the rest of the reply) unless the
//! writer plainly ran it on over lines, as around call markup written in it. Every token
//! costs a bounded number of byte comparisons, so the scan is linear whatever the input. A
//! pythonic call list inside a string is recorded ([`Tokens::lists_in_strings`]): it is the
//! string's text, and the search for lists between tokens reads none from there.
//!
//! Text that only shows or quotes markup is not read for tokens: an HTML comment
//! (`<!-- ... -->`), inline code (`` `...` `` on one line, a run of two or more backticks,
//! not a fence's, over the lines of its paragraph; a run left open on the last line hides the
//! rest, since more text may close it), and a markdown quote (a line starting with `>`). Each
//! is one [`Tok::Hidden`] token, which no handler reads. The scan looks for them only outside
//! JSON values and call bodies, and each token says whether it was met there
//! ([`Token::bare`]): a stream reads again only from such a token, so it sees what a read of
//! the whole reply sees.

use crate::lex;
use crate::locate::tags::{self, TokenAt, INKLING_ENDS, INKLING_THINKING};
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
    /// `<|call|>` or `<|end|>`: a Harmony message ends.
    HarmonyEnd,
    /// `<|return|>`: a Harmony message ends, and with it the assistant's turn.
    HarmonyReturn,
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
    /// `<|START_THINKING|>`, `<NAME>` for each reasoning tag of the settings (`think`,
    /// `thinking`, `reasoning`, `reflection`, `thought` by default; also `<NAME:suffix>`),
    /// Seed-OSS's `<seed:think>`, Kimi K3's `<|open|>think<|sep|>`, Gemma 4's `<|channel>`,
    /// Inkling's `<|content_thinking|>`.
    ThinkOpen,
    /// Their closers; for Inkling's block, the `<|end_message|>` or content marker that
    /// ends it.
    ThinkClose,
    /// `<|eom_id|>`, `<|eot_id|>`, `<|im_end|>`, `<|end_of_turn|>`, `<end_of_turn>`, `</s>`:
    /// the assistant's turn ends.
    TurnEnd,
    /// Text that shows or quotes markup: an HTML comment, inline code, a quoted line.
    Hidden,
}

/// One token: its kind and where it is. For `FunctionOpen` and `InvokeOpen`, `name` is the
/// span of the tool name inside the token.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    pub tok: Tok,
    pub span: Span,
    pub name: Span,
    /// The scan met it inside a call's body (see [`body_opener`]).
    pub in_body: bool,
    /// The scan met it where it looks for shown markup (no JSON value or call body open), as
    /// a scan of the text from the token on does: such a scan reads the token the same.
    pub bare: bool,
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
    ("<|return|>", Tok::HarmonyReturn),
    ("<|START_ACTION|>", Tok::CohereAction),
    ("<|END_ACTION|>", Tok::CohereActionEnd),
    ("<|START_THINKING|>", Tok::ThinkOpen),
    ("<|END_THINKING|>", Tok::ThinkClose),
    ("<|channel>", Tok::ThinkOpen),
    ("<channel|>", Tok::ThinkClose),
    ("<seed:think>", Tok::ThinkOpen),
    ("</seed:think>", Tok::ThinkClose),
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
    (INKLING_ENDS[1], Tok::InklingText),
    (INKLING_THINKING, Tok::ThinkOpen),
    (INKLING_ENDS[0], Tok::InklingEnd),
    (INKLING_ENDS[2], Tok::InklingEnd),
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
    ("<|end_of_turn|>", Tok::TurnEnd),
    ("<end_of_turn>", Tok::TurnEnd),
    ("</s>", Tok::TurnEnd),
];

/// Inkling's reasoning block: `<|content_thinking|>` opens it, and while it is open (`open`)
/// the end of its message or the next content marker is its closer (`token` becomes a
/// [`Tok::ThinkClose`]). Whether the block is open after `token`.
fn inkling_reasoning(text: &str, token: &mut Token, open: bool) -> bool {
    match token.tok {
        Tok::ThinkOpen => text[token.span.start..].starts_with(INKLING_THINKING),
        Tok::InklingEnd | Tok::InklingText if open => {
            token.tok = Tok::ThinkClose;
            false
        }
        _ => open,
    }
}

/// Hunyuan's call tokens with the suffix of their checkpoint (`<tool_calls:6124c78e>`); the
/// suffix runs from the `:` to the `>`.
const SUFFIXED: [(&str, Tok); 4] = [
    ("<tool_calls:", Tok::HunyuanCalls),
    ("</tool_calls:", Tok::HunyuanCallsEnd),
    ("<tool_call:", Tok::ToolCallOpen),
    ("</tool_call:", Tok::ToolCallClose),
];

// The longest checkpoint suffix looked for, so a token without its `>` costs a constant.
pub(crate) use crate::locate::tags::MAX_SUFFIX;

/// Delimiters of strings inside call arguments that are not JSON: Gemma 4's `<|"|>` and
/// FunctionGemma's `<escape>`. The text between two of them is a string, whatever quotes
/// and brackets it holds.
const STRING_DELIMITERS: [&str; 2] = ["<|\"|>", "<escape>"];

/// The longest inline code span looked for: a backtick run whose closer is further away on
/// its line is taken literally, so each run costs at most this many bytes of search.
const MAX_INLINE_CODE: usize = 512;

/// The longest a `<function=NAME>` or `<invoke name="NAME">` token may be: a tool name is
/// short, and the bound keeps a token without its `>` from costing more than a constant.
const MAX_NAMED_TOKEN: usize = 160;

/// The tokens that name a tool between a prefix and a `>` ([`named`]): the prefix, the quote
/// closing the name (if any) and the token.
const NAMED: [(&str, &str, Tok); 5] = [
    ("<function=", "", Tok::FunctionOpen),
    ("<invoke name=\"", "\"", Tok::InvokeOpen),
    ("<｜DSML｜invoke name=\"", "\"", Tok::DsmlInvoke),
    ("<steptml:invoke name=\"", "\"", Tok::StepInvoke),
    ("<function name=\"", "\"", Tok::FunctionNamed),
];

/// MiniMax M3's call opener, read as [`NAMED`]'s are.
const M3_INVOKE: (&str, &str, Tok) = ("]<]minimax[>[<invoke name=\"", "\"", Tok::M3Invoke);

/// Kimi K3's XTML openers, whose `<|sep|>` ends them ([`xtml`]).
const XTML: [&str; 2] = ["<|open|>", "<|close|>"];

/// Where the first token begins that the end of `text` leaves undecided: the prefix of a
/// [`NAMED`] token or an XTML marker is there, and its end (`>`, `<|sep|>`) has not come
/// while more text may still bring it within [`MAX_NAMED_TOKEN`] bytes (and, for a name,
/// before a line break). Once it comes, the token holds whatever the text after its prefix
/// read as (`<function=][ARGS]>` holds an `[ARGS]`), so a reader of a text still arriving
/// decides nothing from there on. `None` when no token is undecided.
pub(crate) fn undecided_token(text: &str) -> Option<usize> {
    let longest = (NAMED.iter().map(|n| n.0.len()))
        .chain([M3_INVOKE.0.len()])
        .chain(XTML.iter().map(|x| x.len()))
        .max()
        .unwrap_or(0);
    let bytes = text.as_bytes();
    let from = bytes.len().saturating_sub(MAX_NAMED_TOKEN + longest);
    memchr::memchr2_iter(b'<', b']', &bytes[from..])
        .map(|i| from + i)
        .find(|&at| {
            let rest = &bytes[at..];
            let after = |prefix: &str| rest.strip_prefix(prefix.as_bytes());
            let named = (NAMED.iter().map(|n| n.0))
                .chain([M3_INVOKE.0])
                .filter_map(after)
                .any(|after| {
                    after.len() < MAX_NAMED_TOKEN && !after.iter().any(|&b| b == b'>' || b == b'\n')
                });
            let xtml = XTML.iter().filter_map(|x| after(x)).any(|after| {
                after.len() < MAX_NAMED_TOKEN && memchr::memmem::find(after, b"<|sep|>").is_none()
            });
            named || xtml
        })
}

/// Where a token begins that the end of `text` cuts short: the text ends with a proper
/// prefix of a literal token, a named token's or a reasoning tag's (`<|im_e`, `</fun`,
/// `[TOOL_CA`, `</thi`). Whole, it ends the body a call is read from (a Mistral or Apertus
/// body runs to the next token), which may then read otherwise than the body with the
/// prefix as its text: a reader of a text still arriving decides nothing from there on.
pub(crate) fn partial_token(text: &str, reasoning: &[String]) -> Option<usize> {
    let fixed = (LITERALS.iter().map(|l| l.0))
        .chain(SUFFIXED.iter().map(|l| l.0))
        .chain(NAMED.iter().map(|n| n.0))
        .chain([M3_INVOKE.0, "TOOL_CALL", "functools[", "```tool_code"])
        .chain(XTML);
    let longest = (fixed.clone().map(str::len))
        .chain(reasoning.iter().map(|t| t.len() + 3))
        .max()
        .unwrap_or(0);
    let bytes = text.as_bytes();
    let starts = |b: u8| matches!(b, b'<' | b'[' | b']' | b'T' | b'f' | b'`');
    let from = bytes.len().saturating_sub(longest);
    (from..bytes.len()).find(|&at| {
        let rest = &bytes[at..];
        let word_start = at == 0 || !bytes[at - 1].is_ascii_alphanumeric();
        // A run of backticks alone is a fence's closing run as much as `tool_code`'s start;
        // a lone `T` or `f` ends many a word.
        let backticks = rest.iter().all(|&b| b == b'`');
        let letter = matches!(rest[0], b'T' | b'f');
        if !starts(rest[0]) || backticks || letter && (!word_start || rest.len() < 2) {
            return false;
        }
        let cuts = |token: &[u8]| rest.len() < token.len() && token.starts_with(rest);
        fixed.clone().any(|t| cuts(t.as_bytes())) || cuts_reasoning_tag(rest, reasoning)
    })
}

/// Whether `rest` is a proper prefix of a reasoning tag's opener or closer (`</thi`), any
/// case.
fn cuts_reasoning_tag(rest: &[u8], reasoning: &[String]) -> bool {
    let Some(after) = rest.strip_prefix(b"<") else {
        return false;
    };
    let name = after.strip_prefix(b"/").unwrap_or(after);
    reasoning.iter().any(|tag| {
        let tag = tag.as_bytes();
        name.len() <= tag.len() && tag[..name.len()].eq_ignore_ascii_case(name)
    })
}

/// The tokens of a text, and what its end leaves undecided about them.
#[derive(Debug)]
pub(crate) struct Tokens {
    pub list: Vec<Token>,
    /// Where the first JSON string opens that a line break cut before the text showed how
    /// it ends (see [`Strings::across`]): more text may hide the tokens after that break,
    /// or show them.
    pub open_string: Option<usize>,
    /// Tokens met after a JSON string a line break cut, in the value that string is in, its
    /// brackets not closed since (`"content": "Example:` then `<tool_call>` on the next
    /// line): where each token starts and where the break is. The writer may have meant the
    /// string to run on over the token (its quotes unescaped), so a call it begins is
    /// doubtful.
    pub after_cut_string: Vec<(usize, usize)>,
    /// The line break that cut a JSON string whose chain of calls is still open at the end
    /// of the text (see [`Strings::chain`]): a token that comes next is recorded in
    /// [`Tokens::after_cut_string`] with this break.
    pub chain_open: Option<usize>,
    /// Where each pythonic call list (`[name(`) begins that is inside a JSON string as the
    /// scan ends it, in order: a string's text (`"content": "run [rm(path='/')] later"`),
    /// not a list of calls, and not a place the JSON value it is in ends.
    pub lists_in_strings: Vec<usize>,
}

/// Every token in `text`, in order, none inside a JSON string value; `reasoning` names the
/// reasoning tags. `before` is the reply's byte before `text` (`None` at the start of the
/// reply): whether `text` begins a line, or goes on with a run of backticks, is read from it.
pub(crate) fn tokens(text: &str, reasoning: &[String], before: Option<u8>) -> Tokens {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut strings = Strings::default();
    // Inside a value between two of [`STRING_DELIMITERS`]: quotes and brackets there are text.
    let mut delimited: Option<&'static str> = None;
    // Inside a call's body (between a format's opener and its closer) markup is content:
    // `<parameter=cmd>echo `date` > out</parameter>`.
    let mut in_body = false;
    // Inside a `tool_code` fence, whose closer is a line of backticks, not a token.
    let mut in_fence = false;
    // Inside Inkling's reasoning block (see [`inkling_reasoning`]).
    let mut inkling_thinking = false;
    let mut i = 0;
    while i < bytes.len() {
        if in_fence && bytes[i - 1] == b'\n' && closes_fence(&bytes[i..]) {
            (in_fence, in_body) = (false, false);
        }
        if depth == 0 && strings.open.is_none() && !in_body {
            if let Some(end) = hidden_at(text, i, byte_before(bytes, i, before)) {
                out.push(Token {
                    tok: Tok::Hidden,
                    span: Span::new(i, end),
                    name: Span::at(i),
                    in_body: false,
                    bare: true,
                });
                i = end;
                continue;
            }
        }
        let b = bytes[i];
        if strings.open.is_some() {
            i = strings.step(text, i, reasoning);
            continue;
        }
        if b == b'<' && (depth > 0 || delimited.is_some()) {
            if let Some((next, len)) = delimiter_at(text, i, delimited) {
                (delimited, i) = (next, i + len);
                continue;
            }
        }
        if matches!(b, b'<' | b'[' | b'T' | b'f' | b'`' | b']') {
            if let Some(mut token) = token_at(text, i, reasoning, byte_before(bytes, i, before)) {
                inkling_thinking = inkling_reasoning(text, &mut token, inkling_thinking);
                (token.in_body, token.bare) = (in_body, !in_body && depth == 0);
                strings.token_met(&token, depth);
                i = token.span.end;
                (in_body, in_fence) = after_token(token.tok, in_body, in_fence);
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
        strings.byte_met(bytes, i, depth, in_body);
        match b {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' | b'\'' if depth > 0 => strings.open_at(i, b, depth),
            _ => {}
        }
        i += 1;
    }
    strings.at_end();
    Tokens {
        list: out,
        open_string: strings.unsettled,
        after_cut_string: strings.after_cut,
        chain_open: strings.chain.or(strings.cut),
        lists_in_strings: strings.lists,
    }
}

/// One of [`STRING_DELIMITERS`] at `i`, in the delimited value `open` if any: the value open
/// after it (the delimiter that opened it closes it) and its length.
fn delimiter_at(
    text: &str,
    i: usize,
    open: Option<&'static str>,
) -> Option<(Option<&'static str>, usize)> {
    let d = STRING_DELIMITERS
        .iter()
        .find(|d| text[i..].starts_with(**d))?;
    let next = match open {
        Some(o) if o == *d => None,
        None => Some(*d),
        other => other,
    };
    Some((next, d.len()))
}

/// The JSON strings of the scan: the one being read, and what the line breaks inside
/// strings decided so far.
///
/// The scan must end a string where the readers of the calls end it, or the two disagree
/// on what the string holds and a call written inside it is read as one. A reader ends a
/// string at a quote that can close it (what follows is `,` `)` `]` `}` or `:`), and reads
/// it on over line breaks; the scan, which must not let a string left unclosed hide the
/// rest of the reply, ends one at its first quote or at a line break, except where the
/// writer plainly went on:
/// - a quote followed by a format token or a pythonic call list (spaces and line breaks
///   aside: `"say "<tool_call>`) does not close the string, which then holds markup; so
///   does a token or a call list inside it on the line a break ends, or right after the
///   quote that line ends with (`"say \"` then a call on the next line);
/// - a string holding markup is the writer's argument with calls written in it, brackets,
///   quotes and line breaks and all: it ends at a quote after which come the closers of
///   its value and of the brackets opened inside it (`" now"}}`), or runs to the end of
///   the text;
/// - a string cut by a line break runs on when the first quote after the break can close
///   it (`"Example:` then a call on the next line, then `End."}`).
#[derive(Default)]
struct Strings {
    /// Where the string being read opens, how deep in brackets, and its quote.
    open: Option<usize>,
    depth: usize,
    quote: u8,
    /// The byte the scan met last is where a value or key goes (after `:` `,` `[` or `{`):
    /// a single quote there opens a string (`{'q': 'say`), one in a word (`it's`) does not.
    value_place: bool,
    /// The string being read holds markup, and the brackets opened in it since.
    markup: bool,
    inner: usize,
    /// A string cut by a line break before this point ends at the break (its first quote
    /// after the break, [`Strings::across`] found, cannot close it), and `settled` says
    /// whether the text showed that quote; one of each for `"` and for `'` strings.
    ends_before: [usize; 2],
    settled: [bool; 2],
    /// See [`Tokens::open_string`].
    unsettled: Option<usize>,
    /// The line break that cut the last string ended there, while the value it is in is
    /// still open (see [`Tokens::after_cut_string`]).
    cut: Option<usize>,
    /// After a token met after a cut string: the line break that cut it, until text other
    /// than spaces comes outside the calls' bodies (the calls written one after another
    /// from there on are in that string too).
    chain: Option<usize>,
    /// See [`Tokens::after_cut_string`].
    after_cut: Vec<(usize, usize)>,
    /// See [`Tokens::lists_in_strings`].
    lists: Vec<usize>,
}

/// How far from the end of the text a token after a quote may still be arriving: the
/// longest token (a name's room and its prefix).
const TOKEN_ROOM: usize = MAX_NAMED_TOKEN + 64;

impl Strings {
    /// Reads the byte at `i` of the string being read; where the scan goes on.
    fn step(&mut self, text: &str, i: usize, reasoning: &[String]) -> usize {
        let bytes = text.as_bytes();
        let open = self.open.unwrap_or(i);
        self.list_at(text, i);
        match bytes[i] {
            b'\\' => return i + 2,
            q if q == self.quote => {
                let ends = match self.markup {
                    true => ends_value(bytes, i, self.depth + self.inner),
                    false => token_follows(text, i, reasoning).map(|token| !token),
                };
                match ends {
                    Some(false) if !self.markup => self.begin_markup(&bytes[open + 1..i]),
                    Some(false) => {}
                    Some(true) => self.close(),
                    None => {
                        self.unsettled.get_or_insert(open);
                        self.close();
                    }
                }
            }
            b'{' | b'[' if self.markup => self.inner += 1,
            b'}' | b']' if self.markup => self.inner = self.inner.saturating_sub(1),
            b'\n' if !self.markup => return self.across(text, open, i, reasoning),
            _ => {}
        }
        i + 1
    }

    /// The scan meets `token` at bracket `depth` (before the token resets it): recorded when
    /// it comes after a cut string, in that string's value, or in a chain of calls after one.
    fn token_met(&mut self, token: &Token, depth: usize) {
        self.value_place = false;
        if matches!(token.tok, Tok::ThinkOpen | Tok::ThinkClose) {
            // A reasoning block's bounds are the writer's, whatever came before.
            (self.cut, self.chain) = (None, None);
            return;
        }
        self.chain = self.cut.take().filter(|_| depth > 0).or(self.chain);
        (self.after_cut).extend(self.chain.map(|brk| (token.span.start, brk)));
    }

    /// The scan meets byte `i`, outside strings and tokens, at bracket `depth`: text outside
    /// the bodies ends a chain, a pythonic call list after a cut string is recorded as a
    /// token is, and a closer that closes the value a string was cut in ends that cut.
    fn byte_met(&mut self, bytes: &[u8], i: usize, depth: usize, in_body: bool) {
        let b = bytes[i];
        if !in_body && depth == 0 && !b.is_ascii_whitespace() {
            self.chain = None;
        }
        let cut = self.cut.filter(|_| depth > 0).or(self.chain);
        if let Some(brk) = cut.filter(|_| b == b'[' && pythonic_list(&bytes[i..])) {
            self.after_cut.push((i, brk));
        }
        if depth <= 1 && matches!(b, b'}' | b']') {
            self.cut = None;
        }
        // A quote is judged by the byte before it (see `open_at`).
        if !b.is_ascii_whitespace() && !matches!(b, b'"' | b'\'') {
            self.value_place = matches!(b, b':' | b',' | b'[' | b'{');
        }
    }

    /// The scan meets `quote` at `i`, `depth` brackets deep (more than none): a double quote
    /// opens a string, a single one where a value or key goes.
    fn open_at(&mut self, i: usize, quote: u8, depth: usize) {
        if quote == b'"' || self.value_place {
            (self.open, self.depth, self.quote) = (Some(i), depth, quote);
        }
    }

    /// Records a pythonic call list beginning at `i`, inside the string being read.
    fn list_at(&mut self, text: &str, i: usize) {
        if text.as_bytes()[i] == b'[' && super::python::looks_like_calls(&text[i..], false) {
            self.lists.push(i);
        }
    }

    /// Records the pythonic call lists in `text[from..to]`, the string's text the scan goes
    /// past (each byte once).
    fn lists_in(&mut self, text: &str, from: usize, to: usize) {
        for at in memchr::memchr_iter(b'[', &text.as_bytes()[from..to]) {
            self.list_at(text, from + at);
        }
    }

    /// The string being read holds markup from here on; `content` is what it held before.
    fn begin_markup(&mut self, content: &[u8]) {
        self.markup = true;
        self.inner = content.iter().fold(0usize, |open, b| match b {
            b'{' | b'[' => open + 1,
            b'}' | b']' => open.saturating_sub(1),
            _ => open,
        });
    }

    fn close(&mut self) {
        (self.open, self.markup, self.inner) = (None, false, 0);
        self.value_place = false;
    }

    /// The text ends: a string holding markup still open hides the rest, which more text
    /// may end.
    fn at_end(&mut self) {
        if let (Some(open), true) = (self.open, self.markup) {
            self.unsettled.get_or_insert(open);
        }
    }

    /// The string opened at `open` reaches a line break at `brk`: where the scan goes on.
    /// A later string cut by a line break before the quote a search found is cut the same
    /// way, so each byte is searched about once: linear.
    fn across(&mut self, text: &str, open: usize, brk: usize, reasoning: &[String]) -> usize {
        let bytes = text.as_bytes();
        let follows = || token_follows(text, brk, reasoning);
        // Markup on the string's line, or right after the quote its line ends with.
        let quote = self.quote;
        let markup = holds_token(text, open + 1, brk, reasoning)
            || (text[open + 1..brk].trim_end().as_bytes().last() == Some(&quote)
                && follows() != Some(false));
        if markup {
            self.begin_markup(&bytes[open + 1..brk]);
            return brk + 1;
        }
        self.close();
        let kind = usize::from(quote == b'\'');
        if brk < self.ends_before[kind] {
            if !self.settled[kind] {
                self.unsettled.get_or_insert(open);
            }
            self.cut = Some(brk);
            return brk + 1;
        }
        let first = next_quote(bytes, brk + 1, quote);
        match first.map(|at| (at, can_close(bytes, at))) {
            Some((at, Some(true))) => {
                self.lists_in(text, brk + 1, at);
                return at + 1;
            }
            Some((at, None)) => {
                self.unsettled.get_or_insert(open);
                self.lists_in(text, brk + 1, at);
                return at + 1;
            }
            _ => {}
        }
        self.ends_before[kind] = first.unwrap_or(bytes.len());
        self.settled[kind] = first.is_some();
        if first.is_none() {
            self.unsettled.get_or_insert(open);
        }
        self.cut = Some(brk);
        brk + 1
    }
}

/// Whether the quote at `at`, in a string `depth` brackets deep, ends the value it is in:
/// closers follow it (spaces and `)` aside) up to the top. `None` when the text ends first.
fn ends_value(bytes: &[u8], at: usize, depth: usize) -> Option<bool> {
    let mut open = depth;
    let mut i = at + 1;
    while open > 0 {
        match bytes.get(i)? {
            b'}' | b']' => open -= 1,
            b')' => {}
            b if b.is_ascii_whitespace() => {}
            _ => return Some(false),
        }
        i += 1;
    }
    Some(true)
}

/// Whether a format token follows the quote at `i`, spaces and line breaks aside; `None`
/// when the end of the text may still bring one.
fn token_follows(text: &str, i: usize, reasoning: &[String]) -> Option<bool> {
    let bytes = text.as_bytes();
    let j = i
        + 1
        + bytes[i + 1..]
            .iter()
            .position(|b| !b.is_ascii_whitespace())?;
    if !matches!(bytes[j], b'<' | b'[' | b'T' | b'f' | b'`' | b']') {
        return Some(false);
    }
    if token_at(text, j, reasoning, Some(bytes[j - 1])).is_some() || pythonic_list(&bytes[j..]) {
        return Some(true);
    }
    (bytes.len() - j > TOKEN_ROOM).then_some(false)
}

/// Whether `rest` begins a pythonic call list, `[name(`, the name at most a name's room.
fn pythonic_list(rest: &[u8]) -> bool {
    let Some(after) = rest.strip_prefix(b"[") else {
        return false;
    };
    let lead = after.iter().take_while(|b| **b == b' ').count();
    let name = (after[lead..].iter().take(MAX_NAMED_TOKEN))
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.'))
        .count();
    name > 0 && after.get(lead + name) == Some(&b'(')
}

/// The first quote at or after `from` of a string being read: a backslash escapes the byte
/// after it, line breaks included.
fn next_quote(bytes: &[u8], from: usize, quote: u8) -> Option<usize> {
    let quote = lex::Quote::ascii(quote)?;
    let (at, _) = lex::string_close(bytes, from, bytes.len(), quote).ok()?;
    Some(at)
}

/// Whether the quote at `at` can close a string: what follows it, spaces and line breaks
/// aside, is `,` `)` `]` `}` or `:`. `None` when the text ends first.
fn can_close(bytes: &[u8], at: usize) -> Option<bool> {
    let next = bytes[at + 1..].iter().find(|b| !b.is_ascii_whitespace())?;
    Some(matches!(next, b',' | b')' | b']' | b'}' | b':'))
}

/// Whether a token of any format, or a pythonic call list, starts in `text[from..to]`.
fn holds_token(text: &str, from: usize, to: usize, reasoning: &[String]) -> bool {
    let bytes = text.as_bytes();
    (from..to).any(|i| {
        matches!(bytes[i], b'<' | b'[' | b'T' | b'f' | b'`' | b']')
            && (token_at(text, i, reasoning, Some(bytes[i - 1])).is_some()
                || pythonic_list(&bytes[i..]))
    })
}

/// The byte before `i` in `bytes`, or `before` (the reply's byte before them) at 0.
fn byte_before(bytes: &[u8], i: usize, before: Option<u8>) -> Option<u8> {
    if i == 0 {
        before
    } else {
        Some(bytes[i - 1])
    }
}

/// Where the call's body that token `k` of `toks` stands in was opened: the index of the
/// token that opened it, `None` when token `k` is in no body. A read of the text from token
/// `k` on would not know it is in a body (and would read shown markup there), so a stream
/// resumes no later than the step that read the opener.
///
/// Whether token `k` is in a body is what the scan found meeting it: a `tool_code` fence's
/// body ends at a line its closing run is alone on (in the whole text: ```` ```<|tool_call|> ````
/// closes nothing), which is no token, so the text between two tokens cannot tell.
pub(crate) fn body_opener(toks: &[Token], k: usize) -> Option<usize> {
    let t = toks.get(k)?;
    if !t.in_body {
        return None;
    }
    (0..k).rev().find(|&j| opens_body(toks[j].tok))
}

/// Whether the text after token `tok` is in a call's body, and in a `tool_code` fence.
fn after_token(tok: Tok, in_body: bool, in_fence: bool) -> (bool, bool) {
    match tok {
        Tok::ToolCode => (true, true),
        t if opens_body(t) => (true, in_fence),
        t if closes_body(t) => (false, false),
        _ => (in_body, in_fence),
    }
}

/// Tokens after which a call's body written as text follows (a body written as JSON hides
/// nothing: inside its brackets nothing is hidden anyway).
fn opens_body(tok: Tok) -> bool {
    use Tok::*;
    matches!(
        tok,
        ToolCallOpen
            | FunctionOpen
            | InvokeOpen
            | PythonStart
            | ToolCallStart
            | DsCallsBegin
            | KimiSectionBegin
            | CohereAction
            | DsmlBlock
            | GemmaCall
            | FnGemmaCall
            | SeedCall
            | XtmlTools
            | XtmlCall
            | StepCallsBegin
            | FunctionNamed
            | FunctionCalls
            | HunyuanCalls
            | ApertusCalls
            | M3Calls
            | InklingToolJson
            | ToolCode
    )
}

/// Whether the line `rest` begins with closes a fence: three or more backticks alone on it
/// (spaces around them aside), as the `tool_code` handler reads it.
pub(crate) fn closes_fence(rest: &[u8]) -> bool {
    let lead = rest
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let run = rest[lead..].iter().take_while(|&&b| b == b'`').count();
    run >= 3
        && rest[lead + run..]
            .iter()
            .take_while(|&&b| b != b'\n')
            .all(u8::is_ascii_whitespace)
}

/// Tokens that end a call's body.
fn closes_body(tok: Tok) -> bool {
    use Tok::*;
    matches!(
        tok,
        ToolCallClose
            | FunctionClose
            | InvokeClose
            | PythonEnd
            | ToolCallEnd
            | DsCallsEnd
            | KimiSectionEnd
            | HarmonyEnd
            | HarmonyReturn
            | CohereActionEnd
            | DsmlBlockEnd
            | GemmaCallEnd
            | FnGemmaCallEnd
            | SeedCallEnd
            | XtmlToolsEnd
            | XtmlCallEnd
            | StepCallsEnd
            | FunctionCallsEnd
            | HunyuanCallsEnd
            | ApertusCallsEnd
            | M3CallsEnd
            | InklingEnd
            | TurnEnd
            | ThinkOpen
            | ThinkClose
    )
}

/// Where text that only shows markup, starting at `i` (after the byte `prev`), ends: an HTML
/// comment, inline code, a quoted line. `None` when none starts there.
fn hidden_at(text: &str, i: usize, prev: Option<u8>) -> Option<usize> {
    let bytes = text.as_bytes();
    let rest = &bytes[i..];
    let line_end =
        |from: usize| memchr::memchr(b'\n', &bytes[from..]).map_or(bytes.len(), |n| from + n);
    match bytes[i] {
        b'<' if rest.starts_with(b"<!--") => {
            Some(memchr::memmem::find(&rest[4..], b"-->").map_or(bytes.len(), |n| i + 4 + n + 3))
        }
        // At the start of a run of backticks only: a run is one opener.
        b'`' if prev != Some(b'`') => {
            let run = rest.iter().take_while(|&&b| b == b'`').count();
            // Three or more at the start of a line (or after a space) open a fence, which
            // formats use.
            if run >= 3 && matches!(prev, None | Some(b'\n' | b' ' | b'\t')) {
                return None;
            }
            // The end of the line, looked for within the window only: a run that is not
            // inline code is not consumed, so each costs at most the window. A run of two or
            // more (never an apostrophe typed as a backtick) may close on a later line of its
            // paragraph, as markdown's code spans do.
            let limit = (i + run + MAX_INLINE_CODE).min(bytes.len());
            let end = match run {
                1 => memchr::memchr(b'\n', &bytes[i..limit]).map_or(limit, |n| i + n),
                _ => paragraph_end(bytes, i + run, limit),
            };
            let window = &bytes[(i + run).min(end)..end];
            let mut from = 0;
            while let Some(at) = memchr::memchr(b'`', &window[from..]) {
                let at = from + at;
                let len = window[at..].iter().take_while(|&&b| b == b'`').count();
                if len == run {
                    return Some(i + run + at + len);
                }
                from = at + len;
            }
            // Open on the last line: more text may close it.
            (end == bytes.len()).then_some(bytes.len())
        }
        b'>' if matches!(prev, None | Some(b'\n')) => Some(line_end(i)),
        b' ' if matches!(prev, None | Some(b'\n')) => {
            let lead = rest.iter().take(4).take_while(|&&b| b == b' ').count();
            (lead < 4 && rest.get(lead) == Some(&b'>')).then(|| line_end(i))
        }
        _ => None,
    }
}

/// Where the paragraph that `from` is in ends (at the line break before its first blank
/// line), looked for before `limit` only; `limit` when it goes on.
fn paragraph_end(bytes: &[u8], from: usize, limit: usize) -> usize {
    let mut pos = from;
    while let Some(n) = memchr::memchr(b'\n', &bytes[pos..limit]) {
        let at = pos + n;
        let blank = bytes[at + 1..limit]
            .iter()
            .take_while(|&&b| b != b'\n')
            .all(|b| b.is_ascii_whitespace());
        let line_ends = memchr::memchr(b'\n', &bytes[at + 1..limit]).is_some();
        if blank && line_ends {
            return at;
        }
        pos = at + 1;
    }
    limit
}

/// `<NAME>` or `</NAME>` at `i` for a reasoning tag of the settings (ASCII case ignored),
/// also with a checkpoint's suffix as Hunyuan writes it (`<think:6124c78e>`).
fn reasoning_tag(text: &str, i: usize, reasoning: &[String]) -> Option<(Tok, usize)> {
    let rest = &text.as_bytes()[i..];
    let (tok, from) = match rest.get(1) {
        Some(b'/') => (Tok::ThinkClose, 2),
        _ => (Tok::ThinkOpen, 1),
    };
    reasoning.iter().find_map(|name| {
        let end = from + name.len();
        if rest.len() <= end || !rest[from..end].eq_ignore_ascii_case(name.as_bytes()) {
            return None;
        }
        match rest[end] {
            b'>' => Some((tok, end + 1)),
            b':' => suffix_len(&rest[end + 1..]).map(|n| (tok, end + 1 + n + 1)),
            _ => None,
        }
    })
}

/// The length of a checkpoint suffix at the start of `after` (what follows its `:`), when a
/// `>` ends it (see [`tags::suffix_at`], the markup pass's and the stream's rule too).
fn suffix_len(after: &[u8]) -> Option<usize> {
    match tags::suffix_at(after) {
        TokenAt::Whole(_, len) => Some(len - 1),
        _ => None,
    }
}

/// A Hunyuan call token with its checkpoint's suffix at `i`; its `name` is the suffix with
/// its `:`, which the argument tags inside the call carry too.
fn suffixed(text: &str, i: usize) -> Option<Token> {
    let rest = &text[i..];
    let (lit, tok) = SUFFIXED.iter().find(|(lit, _)| rest.starts_with(lit))?;
    let len = suffix_len(&rest.as_bytes()[lit.len()..])?;
    let colon = i + lit.len() - 1;
    Some(Token {
        tok: *tok,
        span: Span::new(i, i + lit.len() + len + 1),
        name: Span::new(colon, colon + 1 + len),
        in_body: false,
        bare: false,
    })
}

/// The token at `i` (after the byte `prev`), if one starts there.
fn token_at(text: &str, i: usize, reasoning: &[String], prev: Option<u8>) -> Option<Token> {
    let rest = &text[i..];
    let plain = |tok, len| Token {
        tok,
        span: Span::new(i, i + len),
        name: Span::at(i),
        in_body: false,
        bare: false,
    };
    match rest.as_bytes()[0] {
        b'<' => {
            for (lit, tok) in LITERALS {
                if lit.as_bytes()[0] == b'<' && rest.starts_with(lit) {
                    return Some(plain(*tok, lit.len()));
                }
            }
            if let Some((tok, len)) = reasoning_tag(text, i, reasoning) {
                return Some(plain(tok, len));
            }
            if let Some(token) = suffixed(text, i) {
                return Some(token);
            }
            (NAMED.iter())
                .find_map(|&(prefix, quote, tok)| named(text, i, prefix, quote, tok))
                .or_else(|| xtml(text, i))
        }
        b'`' => tool_code(text, i, prev),
        b']' => LITERALS
            .iter()
            .find(|(lit, _)| lit.as_bytes()[0] == b']' && rest.starts_with(lit))
            .map(|(lit, tok)| plain(*tok, lit.len()))
            .or_else(|| named(text, i, M3_INVOKE.0, M3_INVOKE.1, M3_INVOKE.2)),
        b'[' => LITERALS
            .iter()
            .find(|(lit, _)| lit.as_bytes()[0] == b'[' && rest.starts_with(lit))
            .map(|(lit, tok)| plain(*tok, lit.len())),
        b'T' => {
            let before_ok =
                prev.is_none_or(|p| !(p.is_ascii_alphanumeric() || p == b'_' || p == b'['));
            let after = rest.as_bytes().get("TOOL_CALL".len()).copied();
            let after_ok = after.is_none_or(|a| !(a.is_ascii_alphanumeric() || a == b'_'));
            (before_ok && after_ok && rest.starts_with("TOOL_CALL"))
                .then(|| plain(Tok::Marker, "TOOL_CALL".len()))
        }
        b'f' => {
            let before_ok = prev.is_none_or(|p| !p.is_ascii_alphanumeric());
            (before_ok && rest.starts_with("functools["))
                .then(|| plain(Tok::Functools, "functools".len()))
        }
        _ => None,
    }
}

/// ```` ```tool_code ````, its info string ending there (so ```` ```tool_code``` ```` in
/// prose is inline code, not a fence).
fn tool_code(text: &str, i: usize, prev: Option<u8>) -> Option<Token> {
    const OPENER: &str = "```tool_code";
    let rest = &text[i..];
    let after = rest.get(OPENER.len()..)?;
    let info_ends = after.is_empty() || after.starts_with(['\n', '\r', ' ']);
    let fence_start = prev != Some(b'`');
    (fence_start && rest.starts_with(OPENER) && info_ends).then(|| Token {
        tok: Tok::ToolCode,
        span: Span::new(i, i + OPENER.len()),
        name: Span::at(i),
        in_body: false,
        bare: false,
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
        in_body: false,
        bare: false,
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
        in_body: false,
        bare: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags() -> Vec<String> {
        ["think", "reflection"].map(String::from).to_vec()
    }

    fn kinds(text: &str) -> Vec<Tok> {
        tokens(text, &tags(), None)
            .list
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    #[test]
    fn markup_that_is_shown_or_quoted_is_one_hidden_token() {
        let call = "<tool_call>{}</tool_call>";
        for text in [
            format!("<!-- {call} -->"),
            format!("Write `{call}` for that."),
            format!("> {call}"),
            format!("   > {call}"),
            format!("Open `{call}"),
            format!("Write ``\n{call}\n`` to do it."),
            format!("Write:```\n{call}\n``` to do it."),
            format!("Write (````{call}\n````)."),
        ] {
            assert_eq!(kinds(&text), vec![Tok::Hidden], "{text}");
        }
        // A backtick run closed on no later line of a longer text is taken literally; a
        // fence is not inline code.
        assert_eq!(
            kinds(&format!("a ` b\n{call}")),
            vec![Tok::ToolCallOpen, Tok::ToolCallClose]
        );
        assert_eq!(
            kinds(&format!("a `` b\n\n{call}\n`` c\n\nd")),
            vec![Tok::ToolCallOpen, Tok::ToolCallClose]
        );
        assert_eq!(
            kinds(&format!("```json\n{call}\n```")),
            vec![Tok::ToolCallOpen, Tok::ToolCallClose]
        );
    }

    #[test]
    fn single_quoted_strings_and_the_lists_inside_strings() {
        let call = "<tool_call>{}</tool_call>";
        // A single quote where a value goes opens a string; one in a word does not.
        assert!(kinds(&format!("{{'q': 'say {call} now'}}")).is_empty());
        assert_eq!(
            kinds(&format!("[it's, {call}]")),
            vec![Tok::ToolCallOpen, Tok::ToolCallClose]
        );
        let text = "{\"q\": \"run [rm(path='/')] later\"} [ls()] {'q': 'a\n[rm()]\nb'}";
        let lists = tokens(text, &tags(), None).lists_in_strings;
        let at = |s: &str| text.find(s).unwrap();
        assert_eq!(lists, vec![at("[rm(path"), at("[rm()]")]);
    }

    #[test]
    fn reasoning_tags_come_from_the_settings() {
        assert_eq!(
            kinds("<Reflection>x</reflection><think></think><thought>"),
            vec![
                Tok::ThinkOpen,
                Tok::ThinkClose,
                Tok::ThinkOpen,
                Tok::ThinkClose
            ]
        );
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
        // The first quote after the break cannot close it: the break ended it.
        let text = "{\"a\": \"cut\n<tool_call>{\"name\": \"f\"}</tool_call>";
        assert_eq!(kinds(text), vec![Tok::ToolCallOpen, Tok::ToolCallClose]);
        // The text may still bring the quote that closes it.
        let text = "{\"a\": \"x\n<tool_call>";
        assert_eq!(tokens(text, &tags(), None).open_string, Some(6));
    }

    #[test]
    fn a_string_ends_where_the_readers_end_it() {
        let call = "<tool_call><function=f></function></tool_call>";
        for text in [
            // Run on over lines to a quote that can close it.
            format!("{{\"a\": \"x\n{call}\ny\"}}"),
            // Markup right after a quote, or on the line a break cut: the string holds it
            // up to a quote its value's closers follow.
            format!("{{\"a\": {{\"q\": \"say \"{call}\n{call}\" now\"}}}}"),
            format!("{{\"q\": \"say {call}\n{call}\" now\"}}"),
            format!("{{\"q\": \"say \\\"\n{call}\" now\"}}"),
            // Brackets opened in markup are closed before its value's.
            format!("{{\"q\": \"say \"<tool_call>{{\"a\": \"b\"}}\n{call}\" now\"}}"),
        ] {
            assert!(kinds(&text).is_empty(), "{text}");
        }
        // Without the quote that ends its value, markup hides the rest of the text.
        let text = format!("{{\"q\": \"say \"{call}\n{call}");
        assert!(kinds(&text).is_empty());
        assert_eq!(tokens(&text, &tags(), None).open_string, Some(6));
        // A string closed on its line hides nothing after it.
        assert_eq!(
            kinds(&format!("{{\"q\": \"say\"}}\n{call}")),
            vec![
                Tok::ToolCallOpen,
                Tok::FunctionOpen,
                Tok::FunctionClose,
                Tok::ToolCallClose
            ]
        );
    }

    #[test]
    fn tokens_after_a_string_a_line_break_cut_are_marked_until_its_value_closes() {
        // The tokens of the calls written one after another after the cut, not those after
        // the value closed or after a reasoning token.
        let text = "{\"a\": {\"b\": \"x\n<tool_call>{\"c\": 1}</tool_call>\n<tool_call>";
        let brk = text.find('\n').unwrap();
        let starts: Vec<(usize, usize)> = tokens(text, &tags(), None)
            .list
            .iter()
            .map(|t| (t.span.start, brk))
            .collect();
        assert_eq!(tokens(text, &tags(), None).after_cut_string, starts);
        for text in [
            "{\"a\": \"x\n}\n<tool_call>",
            "{\"a\": \"x\n</think>\n<tool_call>",
            "{\"a\": \"x\ny\"}\n<tool_call>",
        ] {
            assert!(
                tokens(text, &tags(), None).after_cut_string.is_empty(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn named_tokens_carry_the_name() {
        let text = r#"<function=get_weather>{}</function><invoke name="search">"#;
        let toks = tokens(text, &tags(), None).list;
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
