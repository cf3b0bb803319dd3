//! Tool calls: the fuzzer chooses the reply, where it is cut into chunks (bytes, so inside
//! UTF-8 characters and format tokens too) and the settings. No panic, no hang; the calls a
//! `StreamCalls` yields (pushes, then `finish`) are the whole read's: with `finish` Ok they
//! equal `Extractor::calls`, and `finish` fails exactly when `calls` does, with the same
//! category; what the pushes yielded before a failing end is a prefix of the whole read's
//! returned calls. The fuzzer's text is seeded with the formats' tokens so it reaches them.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use llm_extract::tool::ToolCall;
use llm_extract::Extractor;

#[derive(Arbitrary, Debug)]
struct Input {
    /// Chunk lengths, used in turn (0 is an empty chunk).
    cuts: Vec<u8>,
    /// Which settings: bit 0 begins in the answer, bit 1 allows doubtful calls, bit 2 allows
    /// calls cut off, bit 3 adds a reasoning tag.
    settings: u8,
    /// Pieces of the reply: a token of a wire format (by index) or text.
    pieces: Vec<Piece>,
}

#[derive(Arbitrary, Debug)]
enum Piece {
    Token(u8),
    Text(String),
}

const TOKENS: &[&str] = &[
    "<tool_call>",
    "</tool_call>",
    "<think>",
    "</think>",
    "<reflection>",
    "</reflection>",
    "<scratch>",
    "</scratch>",
    "{\"name\": \"f\", \"arguments\": {\"a\": ",
    "\"x\\\"}} y\"",
    "}}",
    "[TOOL_CALLS]",
    "[ARGS]",
    "<|python_tag|>",
    "<|tool_call_start|>[f(a=1)]<|tool_call_end|>",
    "<|channel|>commentary to=functions.f <|constrain|>json<|message|>",
    "<|channel|>analysis to=functions.f<|message|>",
    "<|start|>functions.f to=assistant<|message|>",
    "<|call|>",
    "<|return|>",
    "<|im_end|>",
    "</s>",
    "<!-- ",
    " -->",
    "`",
    "\n> ",
    "\n```json\n",
    "For example:",
    "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>",
    "<|tool_call_end|>",
    "<function=f>",
    "<parameter=a>",
    "</parameter>",
    "</function>",
    "TOOL_CALL ",
    "Infinity",
    "tmp",
    "\n",
    "<tool_calls:x1>",
    "<tool_call:x1>",
    "</tool_call:x1>",
    "<arg_key:x1>a</arg_key:x1><arg_value:x1>",
    "</arg_value:x1>",
    "<think:x1>",
    "</think:x1>",
    "<|content_thinking|>",
    "<|end_message|>",
    "<|content_text|>",
    "<|message_model|>f<|content_invoke_tool_json|>{\"name\": \"f\", \"args\": {\"a\": ",
    "```tool_code\n",
    "print(default_api.f(a=",
    "<|tool_call>call:f{a:[",
    "]<]minimax[>[<invoke name=\"f\">]<]minimax[>[<a>",
];

fn extractor(settings: u8) -> Extractor {
    let mut e = Extractor::new();
    if settings & 1 != 0 {
        e = e.tool_reply_begins_in_answer();
    }
    if settings & 2 != 0 {
        e = e.allow_doubtful_tool_calls();
    }
    if settings & 4 != 0 {
        e = e.allow_incomplete_tool_calls();
    }
    if settings & 8 != 0 {
        e = e.reasoning_tag("scratch");
    }
    e
}

fuzz_target!(|input: Input| {
    let mut text = String::new();
    for piece in &input.pieces {
        match piece {
            Piece::Token(i) => text.push_str(TOKENS[*i as usize % TOKENS.len()]),
            Piece::Text(t) => text.push_str(t),
        }
        if text.len() > 1 << 14 {
            return;
        }
    }
    let e = extractor(input.settings);
    let whole = e.calls::<ToolCall>(&text);
    let returned: Vec<ToolCall> = e.read_tool_calls(&text).calls.into_iter().map(|f| f.call).collect();

    let bytes = text.as_bytes();
    let mut stream = e.stream_calls::<ToolCall>();
    let mut got = Vec::new();
    let (mut at, mut i) = (0, 0);
    while at < bytes.len() {
        let len = input.cuts.get(i % input.cuts.len().max(1)).copied().unwrap_or(16) as usize;
        let len = if len == 0 && i > bytes.len() + input.cuts.len() { bytes.len() } else { len };
        let end = (at + len).min(bytes.len());
        got.extend(stream.push_bytes(&bytes[at..end]));
        assert!(
            got.len() <= returned.len() && got[..] == returned[..got.len()],
            "after {end} bytes the stream yielded {got:?}, the whole read returns {returned:?}: {text:?}"
        );
        at = end;
        i += 1;
    }
    match (stream.finish(), whole) {
        (Ok(rest), Ok(calls)) => {
            got.extend(rest);
            assert_eq!(got, calls, "{text:?}");
        }
        (Err(s), Err(w)) => assert_eq!(s.category(), w.category(), "{s} / {w}: {text:?}"),
        (s, w) => panic!("streamed {s:?}, whole {w:?}: {text:?}"),
    }
});
