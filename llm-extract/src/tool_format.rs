//! The wire formats of tool calls: the vocabulary that an `Extractor`'s settings and the
//! tool-call reader share (re-exported as [`crate::tool::Format`]).

use serde::Serialize;
use std::fmt;

/// The wire formats the reader detects.
///
/// ```
/// use llm_extract::tool::{self, Format};
/// let reply = tool::read("Checking.<|tool_call>call:get_weather{city:<|\"|>Paris<|\"|>,days:3}<tool_call|>");
/// assert_eq!(reply.calls[0].format, Format::Gemma4);
/// assert_eq!(reply.calls[0].call.arguments["days"], 3);
/// assert_eq!(reply.text, "Checking.");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub enum Format {
    /// A JSON value in the text (fenced or not): OpenAI `{"name", "arguments"}` and
    /// `{"type": "function", "function": ...}`, `{"tool_calls": [...]}`, Anthropic content
    /// blocks and `tool_use`, Cohere `{"tool_name", "parameters"}`, Llama `{"name",
    /// "parameters"}`.
    Json,
    /// The `TOOL_CALL {...}` marker agent prompts ask for.
    Marker,
    /// Hermes / Qwen 2.5 / Qwen3: `<tool_call>{...}</tool_call>`.
    Hermes,
    /// Qwen3-Coder: `<tool_call><function=f><parameter=k>v</parameter></function></tool_call>`.
    Qwen3Coder,
    /// Llama 3.x: `<|python_tag|>{...}` (several joined by `;`).
    Llama,
    /// Mistral: `[TOOL_CALLS] [{...}]` and `[TOOL_CALLS]f[ARGS]{...}`.
    Mistral,
    /// FireFunction: `functools[{...}]`.
    Functools,
    /// Functionary / Llama 3.1 custom: `<function=f>{...}</function>`.
    Functionary,
    /// DeepSeek V3, R1 and V3.1: `<｜tool▁calls▁begin｜>...`.
    DeepSeek,
    /// Kimi K2: `<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{...}`.
    Kimi,
    /// GLM 4.5/4.6: `<tool_call>f<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>`.
    Glm,
    /// MiniMax M2: `<invoke name="f"><parameter name="k">v</parameter></invoke>`.
    MiniMax,
    /// gpt-oss Harmony: `<|channel|>commentary to=functions.f <|constrain|>json<|message|>{...}<|call|>`.
    Harmony,
    /// Granite: `<|tool_call|>[{...}]`.
    Granite,
    /// Cohere Command R7B / A: `<|START_ACTION|>[...]<|END_ACTION|>`.
    Cohere,
    /// Pythonic call lists (Llama 3.2/4, LFM2): `[get_weather(city="Paris", days=3)]`.
    Pythonic,
    /// DeepSeek V3.2 and V4 DSML: `<｜DSML｜invoke name="f"><｜DSML｜parameter name="k"
    /// string="true">v</｜DSML｜parameter></｜DSML｜invoke>` (in `<｜DSML｜function_calls>` or
    /// `<｜DSML｜tool_calls>`); `string="false"` values are JSON.
    Dsml,
    /// Gemma 4: `<|tool_call>call:f{k:<|"|>v<|"|>,n:42}<tool_call|>`.
    Gemma4,
    /// FunctionGemma: `<start_function_call>call:f{k:<escape>v<escape>}<end_function_call>`.
    FunctionGemma,
    /// Gemma 3: pythonic calls in a fence with the info string `tool_code`, also written as
    /// Gemini writes them, `print(default_api.f(k="v"))`.
    ToolCode,
    /// Kimi K3 XTML: `<|open|>call tool="f"<|sep|><|open|>argument key="k" type="string"<|sep|>v<|close|>argument<|sep|><|close|>call<|sep|>`.
    KimiK3,
    /// Seed-OSS: `<seed:tool_call><function=f><parameter=k>v</parameter></function></seed:tool_call>`.
    SeedOss,
    /// Step-3: `<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="f"><steptml:parameter name="k">v</steptml:parameter></steptml:invoke>`.
    Step3,
    /// MiniCPM: `<function name="f"><param name="k">v</param></function>`.
    MiniCpm,
    /// OLMo 3: `<function_calls>f(k="v")</function_calls>`, one call a line.
    Olmo3,
    /// Inkling: `<|content_invoke_tool_json|>{"name": "f", "args": {...}}<|end_message|>`.
    Inkling,
    /// Hunyuan: `<tool_calls>[{"name": "f", "arguments": {...}}]</tool_calls>` (A13B), or
    /// GLM's `<tool_call>f<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>` calls in
    /// `<tool_calls>` (V3, V4), every tag also with the checkpoint's suffix
    /// (`<tool_call:6124c78e>`).
    Hunyuan,
    /// Apertus: `<|tools_prefix|>[{"f": {"k": "v"}}]<|tools_suffix|>`.
    Apertus,
    /// MiniMax M3: `]<]minimax[>[<invoke name="f">]<]minimax[>[<k>v]<]minimax[>[</k>...`, every
    /// tag after the namespace marker; nested elements are objects, `<item>` elements lists.
    MiniMaxM3,
}

impl Format {
    /// Every format, in the order of the module docs' table.
    pub const ALL: [Format; 29] = [
        Format::Json,
        Format::Marker,
        Format::Hermes,
        Format::Qwen3Coder,
        Format::Llama,
        Format::Mistral,
        Format::Functools,
        Format::Functionary,
        Format::DeepSeek,
        Format::Kimi,
        Format::Glm,
        Format::MiniMax,
        Format::Harmony,
        Format::Granite,
        Format::Cohere,
        Format::Pythonic,
        Format::Dsml,
        Format::Gemma4,
        Format::FunctionGemma,
        Format::ToolCode,
        Format::KimiK3,
        Format::SeedOss,
        Format::Step3,
        Format::MiniCpm,
        Format::Olmo3,
        Format::Inkling,
        Format::Hunyuan,
        Format::Apertus,
        Format::MiniMaxM3,
    ];

    /// Its bit in `ToolSettings::formats` (every format has one: see the assertion below).
    pub(crate) fn bit(self) -> u64 {
        1 << (self as u64)
    }

    /// A short name for messages: `Hermes <tool_call>`, `pythonic`, ...
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "JSON",
            Format::Marker => "TOOL_CALL marker",
            Format::Hermes => "Hermes <tool_call>",
            Format::Qwen3Coder => "Qwen3-Coder <function=...>",
            Format::Llama => "Llama <|python_tag|>",
            Format::Mistral => "Mistral [TOOL_CALLS]",
            Format::Functools => "functools[...]",
            Format::Functionary => "Functionary <function=...>",
            Format::DeepSeek => "DeepSeek tool calls",
            Format::Kimi => "Kimi K2 tool calls",
            Format::Glm => "GLM <tool_call>",
            Format::MiniMax => "MiniMax <invoke>",
            Format::Harmony => "Harmony commentary",
            Format::Granite => "Granite <|tool_call|>",
            Format::Cohere => "Cohere <|START_ACTION|>",
            Format::Pythonic => "pythonic",
            Format::Dsml => "DeepSeek DSML",
            Format::Gemma4 => "Gemma 4 <|tool_call>",
            Format::FunctionGemma => "FunctionGemma <start_function_call>",
            Format::ToolCode => "Gemma tool_code fence",
            Format::KimiK3 => "Kimi K3 XTML call",
            Format::SeedOss => "Seed-OSS <seed:tool_call>",
            Format::Step3 => "Step-3 <steptml:invoke>",
            Format::MiniCpm => "MiniCPM <function name=...>",
            Format::Olmo3 => "OLMo 3 <function_calls>",
            Format::Inkling => "Inkling tool message",
            Format::Hunyuan => "Hunyuan <tool_calls>",
            Format::Apertus => "Apertus <|tools_prefix|>",
            Format::MiniMaxM3 => "MiniMax M3 <invoke>",
        }
    }
}

impl Format {
    /// The shape of one call in this format, for asking a model to write it again.
    ///
    /// ```
    /// use llm_extract::tool::Format;
    /// assert_eq!(Format::Hermes.example(), r#"<tool_call>{"name": "TOOL", "arguments": {"ARGUMENT": VALUE}}</tool_call>"#);
    /// ```
    pub fn example(self) -> &'static str {
        match self {
            Format::Json => r#"{"name": "TOOL", "arguments": {"ARGUMENT": VALUE}}"#,
            Format::Marker => r#"TOOL_CALL {"name": "TOOL", "arguments": {"ARGUMENT": VALUE}}"#,
            Format::Hermes => {
                r#"<tool_call>{"name": "TOOL", "arguments": {"ARGUMENT": VALUE}}</tool_call>"#
            }
            Format::Qwen3Coder => {
                "<tool_call>\n<function=TOOL>\n<parameter=ARGUMENT>\nVALUE\n</parameter>\n</function>\n</tool_call>"
            }
            Format::Llama => r#"<|python_tag|>{"name": "TOOL", "parameters": {"ARGUMENT": VALUE}}"#,
            Format::Mistral => r#"[TOOL_CALLS][{"name": "TOOL", "arguments": {"ARGUMENT": VALUE}}]"#,
            Format::Functionary => r#"<function=TOOL>{"ARGUMENT": VALUE}</function>"#,
            Format::Glm => {
                "<tool_call>TOOL\n<arg_key>ARGUMENT</arg_key>\n<arg_value>VALUE</arg_value>\n</tool_call>"
            }
            Format::MiniMax => {
                r#"<invoke name="TOOL"><parameter name="ARGUMENT">VALUE</parameter></invoke>"#
            }
            Format::Harmony => {
                r#"<|channel|>commentary to=functions.TOOL <|constrain|>json<|message|>{"ARGUMENT": VALUE}<|call|>"#
            }
            Format::Pythonic => "[TOOL(ARGUMENT=VALUE)]",
            _ => "the same markers as before, around one whole call",
        }
    }
}

// Every format has a bit of `ToolSettings::formats`.
const _: () = assert!(Format::ALL.len() <= 64);

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
