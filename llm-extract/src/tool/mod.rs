//! Tool calls in every wire format models write as text, one or many, as [`ToolCall`]s or
//! typed by your own enum of tools.
//!
//! The format is detected, not configured: JSON shapes (OpenAI, Anthropic, Cohere, Llama,
//! the `TOOL_CALL` marker agent prompts ask for), tag and token formats (Hermes/Qwen, Qwen3-Coder, Mistral,
//! DeepSeek V3/R1/V3.1 and the V3.2/V4 DSML, Kimi K2 and K3, GLM, MiniMax M2 and M3, gpt-oss
//! Harmony, Granite, Functionary, Cohere actions, FireFunction's `functools`, Gemma 4,
//! FunctionGemma, Seed-OSS, Step-3, MiniCPM, Inkling, Hunyuan, Apertus) and pythonic calls
//! (Llama 3.2/4, LFM2, OLMo 3, Gemma 3's and Gemini's `tool_code` fence). See
//! [Formats](#formats) for a table with examples.
//!
//! ```
//! use llm_extract::tool;
//! let reply = "<think>The user wants weather.</think>\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>";
//! let calls = tool::tool_calls(reply);
//! assert_eq!(calls[0].name, "get_weather");
//! assert_eq!(calls[0].arguments["city"], "Paris");
//! ```
//!
//! Bad input: a reply with no call gives an empty list (and [`tool_call`] an error naming
//! every candidate and why it was not a call); a call whose arguments were cut off is
//! reported in [`Reply::incomplete`] and never returned as a call unless the caller opts in
//! with [`Extractor::allow_incomplete_tool_calls`]; a marker or a pythonic call list inside a
//! JSON string value is not a call (the string is its text), nor is a call written inside
//! another call's argument, however the format
//! writes it: a tag (`<parameter=k>...</parameter>` of Qwen3-Coder and Seed-OSS, MiniMax M2's,
//! DSML's, Step-3's and MiniCPM's parameters, Kimi K3's `<|open|>argument`, GLM's and
//! Hunyuan's `<arg_value>`, MiniMax M3's elements), a string between Gemma's delimiters
//! (`<|"|>`, `<escape>`) or a Python string (LFM2, Llama 4, OLMo 3, `tool_code`, a
//! pythonic list written in prose, its strings running across lines, and a pythonic call
//! written without its list's brackets, its keyword argument's string left open on the line
//! before the inner call or on the call's own). The argument is the
//! call's text up to its closer. A call of the argument's own format written whole inside it
//! is its text too, closers and all (`<arg_value><tool_call>rm...</tool_call></arg_value>`),
//! and the outer call is read; a lone opener of that format in a value that lacks its closer
//! is text, and the call's closer ends the value (the call is cut off, the calls after it are
//! read). A MiniMax M3 element holding an M3 call is its text up to the element's closer, the
//! tags between balanced; a Gemma string holding a Gemma call, up to the delimiter after the
//! call's closer (an opener never closed there is text). A call written right after
//! an argument string's closing quote (`q="say "` then a call) is inside the string the writer
//! meant and is not run; a call on a later line of an argument string a line break cut
//! (its quotes unescaped) is doubtful. The scan is linear in the text.
//!
//! # What is a call
//!
//! An agent runs what this module returns, so a call is only what the model wrote as a call,
//! in its answer, read without guessing. Every call found in a reply is one of:
//!
//! | Found | Outcome |
//! |---|---|
//! | A call where its format puts calls, in the answer, read as written or with repairs that keep the meaning (quote style, commas, comments, Python/JS literals, whitespace, the last closers before the format's own closer) | **returned** ([`Reply::calls`]), with its span, format and repairs ([`Found`]) |
//! | Cut off by the end of the reply, or left unclosed (also a value whose string or bracket end was chosen by lookahead at the very end: it may go on) | **reported** in [`Reply::incomplete`]; returned only with [`Extractor::allow_incomplete_tool_calls`] |
//! | Whole, but read only by guessing ([`RepairKind::is_guess`](crate::RepairKind::is_guess)): a bare word as a string or key, a member without a value, skipped text, a string or bracket end chosen by lookahead, a key written twice, `NaN`/`Infinity`; a call that starts right after a JSON string a line break cut, while the enclosing call's value is still open, and the calls written one after another from there (`"content": "Example:` then a call on the next line, its quotes unescaped: it may be that string's text) | **reported** in [`Reply::doubtful`] ([`Found::doubt`] says why); returned only with [`Extractor::allow_doubtful_tool_calls`] |
//! | Inside reasoning that closes (every reasoning tag of the settings: `think`, `thinking`, `reasoning`, `reflection`, `thought`, [`Extractor::reasoning_tag`]; Cohere's thinking tokens; gpt-oss's analysis channel, whose message runs to its `<\|end\|>`, `<\|call\|>` or `<\|return\|>` or the next `<\|start\|>`, a `<\|channel\|>` header written inside it being its text) | **refused**: a draft ([`Reply::rejected`], with the reason) |
//! | After the assistant's turn ended (`<\|im_end\|>`, `<\|eot_id\|>`, `<\|eom_id\|>`, `<\|return\|>`, `<end_of_turn>`, `</s>`), in a gpt-oss message written by a tool, or addressed to something other than `functions.*` | **refused**: not the model's reply |
//! | In a sentence (words before and after it on its line; for `TOOL_CALL`, written in prose by design, words of the same sentence before it), an HTML comment, inline code (a span of two or more backticks, not a fence opened at the start of a line or after a space, may run over the lines of its paragraph), a quoted line (`> ...`, also a fence or wrapper token opened on one: `> ```json` or `> <minimax:tool_call>` then the call on the lines after), a code fence whose closing run the sentence goes on after (`` ``` but I won't.``), a code fence announced as an example (also a fence opened right inside it), or an echo of the call just before it; a JSON value with prose before it on its line after a call written on its own (`Next I might run {...}.` after a fenced or tagged call); a call whose introducing clause negates, refuses, avoids or forbids it (`I should not run {...}`, `Do NOT call:`, `I refuse to execute:`, `Avoid calling:` on the line before, also before a fence opened on that line; a negation in a clause of purpose, `I will back up the file to avoid losing data:`, is about what that clause names, unless it names calling: `to avoid calling:`) | **refused**: a mention, not a call |
//! | A tool name not written as a name (letters, digits, `_`, `-`, `.`), a Kimi id not written as `functions.NAME:INDEX`, a format not enabled ([`Extractor::tool_formats`]) | **refused** |
//!
//! [`tool_calls`] gives the returned calls; [`calls`], [`tool_call`] and
//! [`StreamCalls::finish`] are errors (category [`Category::Incomplete`] or
//! [`Category::Doubtful`]) when any call of the reply was cut off or doubtful and not allowed:
//! a reply is never run in part. A typed call's tool name matches a variant exactly, after
//! normalization (case, `_`, `-`, `.`) or by alias, never by the words inside it, its
//! diacritics or its likeness: `undo_delete_file`, `dont_delete_file` and `rm_all` are not
//! `DeleteFile` or `Rm`. Ordinary enums elsewhere keep their lenient matching.
//!
//! What comes after a call does not take it back: a call followed by `Oops, ignore the
//! previous call` is returned with the call after it. Prose after a call is not read for what
//! it means, and [`StreamCalls`] yields a call once it is complete, as a rule before the text
//! after it arrives; refusing it whole would make the whole and streamed reads disagree. An agent that
//! must honour such a change of mind reads the text between calls itself ([`Found`] gives
//! each call's span).
//!
//! ```
//! use llm_extract::{tool, Category, Extract};
//! #[derive(Extract, Debug, PartialEq)]
//! enum Tool {
//!     DeleteFile { path: String },
//! }
//! let undo = r#"<tool_call>{"name": "undo_delete_file", "arguments": {"path": "a"}}</tool_call>"#;
//! assert_eq!(tool::calls::<Tool>(undo).unwrap_err().category(), Category::Variant);
//! let guess = r#"<tool_call>{"name": "delete_file", "arguments": {"path": tmp}}</tool_call>"#;
//! assert_eq!(tool::calls::<Tool>(guess).unwrap_err().category(), Category::Doubtful);
//! let mention = r#"I would use <tool_call>{"name": "delete_file", "arguments": {"path": "a"}}</tool_call> but not now."#;
//! assert!(tool::calls::<Tool>(mention).unwrap().is_empty());
//! assert!(tool::read(mention).rejected[0].reason.contains("inside a sentence"));
//! ```
//!
//! # Streaming
//!
//! [`StreamCalls`] reads a reply as it arrives: [`StreamCalls::push`] returns the calls the
//! chunk completed, each once, in text order; [`StreamCalls::finish`] returns the calls only
//! the end of the reply completes. Over a whole stream these are exactly the calls
//! [`Extractor::read_tool_calls`] and [`calls`] give for the whole reply, however it was cut
//! into chunks (markers and UTF-8 characters split between chunks included).
//!
//! When a call is yielded: by the push that completes it (its closing bracket, closer or
//! token), except where only later text can say whether it is a call. A call inside a
//! reasoning block still open waits for the block to close (then it is a draft, never
//! yielded) or for the reply to end (then it is yielded by `finish`); a pythonic list without
//! brackets runs to the end of its body, and bare pythonic calls that are the whole reply
//! wait for its end; a JSON value in prose, and a JSON body with no closer after it yet
//! (`<tool_call>{...}` before its `</tool_call>`, `[TOOL_CALLS]f[ARGS]{...}`), waits for the
//! first byte after it other than spaces and closers, and when that is a `,` or a quote
//! (which may continue the value past its closer, `{...}, "id": 1}`), until later text
//! settles it; such a body whose value holds a string a line break cut (`"p\narameters"`)
//! waits for the next token or the end, as the quotes after it decide where that string ends. A token cut short by the end of the text so far (`<|im_e`, `</tool_ca`) may
//! end the body before it once whole, and the body then read otherwise: a call whose body
//! reaches it waits until the token is whole or turns out to be text. A `tool_code` fence's closing backticks at the end of the text wait for
//! their line to end (`` ```{ `` closes nothing), and so does a call in any code fence until
//! the line of the fence's closing run ends (`` ``` but I won't.`` makes it a mention), and a
//! call whose value a run of backticks ends until that run's line ends (more text on it,
//! `` ```] ``, cuts the value off there). A token that names a tool
//! and ends with `>` (`<function=`, `<invoke name="`) or an XTML marker whose `<|sep|>` has not
//! come holds everything after its start: once its end comes it takes in what followed its
//! prefix (`<function=a [TOOL_CALLS]f[ARGS]{..} >` holds no call), so calls written there wait
//! until its end, a line break or more than a name's room (160 bytes) settles it. A call
//! after a JSON string that a line break cut, or that holds call markup, waits for the quote
//! that says where the string ends (the string may run on over the call), or for the end. A
//! reply may begin inside reasoning opened by the chat template, as a
//! read of the whole reply assumes: a call before the first reasoning token waits for that
//! token (a closer makes it a draft) or for the end. [`StreamCalls::begins_in_answer`] (and
//! [`Extractor::tool_reply_begins_in_answer`], for both reads) says the reply begins in the
//! answer: such calls are then yielded at once and a closer without an opener is ignored.
//!
//! Bad input: a call cut off by the end of the stream is never yielded (unless
//! [`Extractor::allow_incomplete_tool_calls`]) and makes `finish` an error of category
//! [`Category::Incomplete`]; a doubtful call likewise ([`Category::Doubtful`]); a call cut off by a later call is skipped, as the whole read
//! does; a call that does not fit `T` is skipped by `push` and reported by `finish`; no
//! chunking of any input panics, and the work is linear in the reply whatever the chunking.
//!
//! ```
//! use llm_extract::tool::{StreamCalls, ToolCall};
//! let mut stream = StreamCalls::<ToolCall>::new().begins_in_answer();
//! assert!(stream.push("[TOOL_CALLS] [{\"name\": \"search\", \"argu").is_empty());
//! // Whole, but `, {...}]` may still follow: the call waits for the next byte.
//! assert!(stream.push("ments\": {\"q\": \"x\"}}]").is_empty());
//! let calls = stream.push("\nSearching.");
//! assert_eq!(calls[0].arguments["q"], "x");
//! assert!(stream.finish().unwrap().is_empty());
//! ```
//!
//! # Typed calls
//!
//! Read the calls into your own enum of tools, whatever family wrote them:
//!
//! ```rust
//! use llm_extract::{tool, Extract};
//!
//! #[derive(Extract, Debug, PartialEq)]
//! enum Tool {
//!     /// Search the web.
//!     Search { query: String },
//!     /// The forecast for a city.
//!     GetWeather { city: String, days: Option<u8> },
//! }
//!
//! // Qwen3-Coder writes parameters as XML-like text; `days: Option<u8>` reads `3` as a number.
//! let qwen = "<think>Forecast first.</think>\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>";
//! // Mistral, gpt-oss (Harmony) and Llama 3.2 (pythonic) write the same calls differently.
//! let mistral = "[TOOL_CALLS]search[ARGS]{\"query\": \"rust\"}";
//! let harmony = "<|channel|>commentary to=functions.search <|constrain|>json<|message|>{\"query\": \"rust\"}<|call|>";
//! let llama = "[get_weather(city='Paris', days=3), search(query=\"rust\")]";
//!
//! assert_eq!(tool::calls::<Tool>(qwen).unwrap(), [Tool::GetWeather { city: "Paris".into(), days: Some(3) }]);
//! assert_eq!(tool::calls::<Tool>(mistral).unwrap(), [Tool::Search { query: "rust".into() }]);
//! assert_eq!(tool::calls::<Tool>(harmony).unwrap(), [Tool::Search { query: "rust".into() }]);
//! assert_eq!(tool::calls::<Tool>(llama).unwrap().len(), 2);
//!
//! // Untyped: `ToolCall { name, arguments, id }`, and everything around the calls.
//! let reply = tool::read(qwen);
//! assert_eq!(reply.thoughts, ["Forecast first."]);
//! assert_eq!(reply.calls[0].call.arguments["days"], 3);
//!
//! // Bad input: no call is an empty list; a call cut off is never returned as a call.
//! assert!(tool::tool_calls("It will be sunny.").is_empty());
//! let cut = "<tool_call>{\"name\": \"run\", \"arguments\": {\"cmd\": \"rm -rf /tmp/bu";
//! assert!(tool::tool_calls(cut).is_empty());
//! assert_eq!(tool::read(cut).incomplete.len(), 1);
//! // The single-call form says, for every candidate, why it was not a call.
//! let err = tool::tool_call(cut).unwrap_err();
//! assert_eq!(err.category(), llm_extract::Category::Incomplete);
//! // Typed, a reply cut off inside a call is an error even after whole calls: never run in part.
//! let after = format!("{qwen}\n{cut}");
//! assert_eq!(tool::calls::<Tool>(&after).unwrap_err().category(), llm_extract::Category::Incomplete);
//! ```
//!
//! # Formats
//!
//! Every format [`Format`] names, detected without configuration:
//!
//! | Format (`tool::Format`) | Models | What they write |
//! |---|---|---|
//! | `Json` | OpenAI, Anthropic, Cohere R, Llama 3.x JSON, anything in a fence | `{"name", "arguments": "<JSON in a string>"}`, `{"type": "function", "function": {...}}`, `{"tool_calls": [...]}`, `[{"type": "text"}, {"type": "tool_use", "id", "name", "input"}]`, `{"tool_name", "parameters"}`, `{"name", "parameters"}` |
//! | `Marker` | agent prompts that ask for `TOOL_CALL` (as selectools' `ToolCallParser` reads them) | `TOOL_CALL {"tool_name"/"tool"/"name": .., "parameters"/"params"/"arguments"/"args"/"input": ..}` (without an arguments key, the other keys are the arguments) |
//! | `Hermes` | Hermes, Qwen 2.5, Qwen3, QwQ | `<tool_call>{"name": .., "arguments": {..}}</tool_call>`, one block per call |
//! | `Qwen3Coder` | Qwen3-Coder | `<tool_call><function=f><parameter=city>Paris</parameter></function></tool_call>` |
//! | `Llama` | Llama 3.1/3.2/3.3 | `<\|python_tag\|>{"name": .., "parameters": {..}}`, several joined by `;` |
//! | `Mistral` | Mistral, Mixtral, Magistral, Devstral | `[TOOL_CALLS] [{"name", "arguments", "id"}]`, `[TOOL_CALLS]f{..}`, `[TOOL_CALLS]f[ARGS]{..}`, `[TOOL_CALLS]f[CALL_ID]id[ARGS]{..}` |
//! | `Functools` | FireFunction v2 | `functools[{"name", "arguments"}]` |
//! | `Functionary` | Functionary v3.1, Llama 3.1 custom tools | `<function=f>{..}</function>` |
//! | `DeepSeek` | DeepSeek V3, R1 (`function<｜tool▁sep｜>f` + a fenced json body), V3.1 (`f<｜tool▁sep｜>{..}`) | `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>...<｜tool▁call▁end｜><｜tool▁calls▁end｜>` |
//! | `Kimi` | Kimi K2 | `<\|tool_calls_section_begin\|><\|tool_call_begin\|>functions.f:0<\|tool_call_argument_begin\|>{..}<\|tool_call_end\|>` |
//! | `Glm` | GLM 4.5, 4.6, 4.7, 5 (with or without line breaks between tags), Poolside V1 | `<tool_call>f<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>` |
//! | `MiniMax` | MiniMax M2 | `<minimax:tool_call><invoke name="f"><parameter name="k">v</parameter></invoke></minimax:tool_call>` |
//! | `Harmony` | gpt-oss | `<\|channel\|>commentary to=functions.f <\|constrain\|>json<\|message\|>{..}<\|call\|>` (the analysis channel is reasoning) |
//! | `Granite` | IBM Granite 3.x | `<\|tool_call\|>[{"name", "arguments"}]` |
//! | `Cohere` | Command R7B, Command A | `<\|START_ACTION\|>[{"tool_call_id", "tool_name", "parameters"}]<\|END_ACTION\|>` |
//! | `Dsml` | DeepSeek V3.2 (`<｜DSML｜function_calls>`), V4 (`<｜DSML｜tool_calls>`) | `<｜DSML｜invoke name="f"><｜DSML｜parameter name="k" string="true">v</｜DSML｜parameter></｜DSML｜invoke>`; `string="false"` values are JSON, or a JSON object in the invoke |
//! | `Gemma4` | Gemma 4 | `<\|tool_call>call:f{k:<\|"\|>v<\|"\|>,n:42,o:{a:[1,2]}}<tool_call\|>` (also closed by `<turn\|>`; `<\|channel>`...`<channel\|>` is reasoning) |
//! | `FunctionGemma` | FunctionGemma | `<start_function_call>call:f{k:<escape>v<escape>}<end_function_call>` |
//! | `ToolCode` | Gemma 3 (as Google's function-calling guide prompts it), Gemini | a fence ` ```tool_code ` holding `f(k="v")`, one call a line, or Gemini's `print(default_api.f(k="v"))` |
//! | `KimiK3` | Kimi K3 | `<\|open\|>tools<\|sep\|><\|open\|>call tool="f" index="0"<\|sep\|><\|open\|>argument key="k" type="string"<\|sep\|>v<\|close\|>argument<\|sep\|><\|close\|>call<\|sep\|><\|close\|>tools<\|sep\|>` (the `response` channel is the text, the `think` channel reasoning) |
//! | `SeedOss` | Seed-OSS | `<seed:tool_call><function=f><parameter=k>v</parameter></function></seed:tool_call>` (after `<seed:think>` reasoning) |
//! | `Step3` | Step-3 (Step-3.5 writes `Qwen3Coder` calls) | `<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="f"><steptml:parameter name="k">v</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>` |
//! | `MiniCpm` | MiniCPM 5 | `<function name="f"><param name="k">v</param></function>` (XML text: entities decoded, CDATA as written) |
//! | `Olmo3` | OLMo 3 | `<function_calls>f(k='v')\ng()</function_calls>`, one pythonic call a line |
//! | `Inkling` | Inkling | `<\|message_model\|>f<\|content_invoke_tool_json\|>{"name": "f", "args": {..}}<\|end_message\|>` (`<\|content_thinking\|>` up to `<\|end_message\|>` or the next content marker is reasoning) |
//! | `Hunyuan` | Hunyuan A13B, V3, V4 | `<tool_calls>[{"name", "arguments"}]</tool_calls>`, or `<tool_calls><tool_call>f<arg_key>k</arg_key><arg_value>v</arg_value></tool_call></tool_calls>`, every tag also with the checkpoint's suffix (`<tool_call:6124c78e>`, `<think:6124c78e>`) |
//! | `Apertus` | Apertus | `<\|tools_prefix\|>[{"f": {"k": "v"}}]<\|tools_suffix\|>` |
//! | `MiniMaxM3` | MiniMax M3 | `]<]minimax[>[<tool_call>]<]minimax[>[<invoke name="f">]<]minimax[>[<k>v]<]minimax[>[</k>...` (every tag after the marker; nested elements are objects, `<item>` elements lists) |
//! | `Pythonic` | Llama 3.2/4, LFM2 (bare, in `<\|python_start\|>` or `<\|tool_call_start\|>`) | `[get_weather(city="Paris", days=3), search(q='x')]`, Python literals as arguments; without the brackets only when the calls are the whole reply (`get_weather(city="Paris")`; a call named in a sentence is none) |
//!
//! # How calls are read
//!
//! - Reasoning: `<think>`, `<thinking>`, `<reasoning>`, `<reflection>`, `<thought>` (and every tag
//!   added with `Extractor::reasoning_tag`, also with a checkpoint's suffix as in `<think:6124c78e>`),
//!   Cohere's `<|START_THINKING|>`, Seed-OSS's `<seed:think>`, Kimi K3's `think` channel, Gemma 4's
//!   `<|channel>`, Inkling's `<|content_thinking|>` and Harmony's analysis channel go to
//!   `Reply::thoughts` (and, for `extract`, to `Extracted::thoughts`, never
//!   the answer); a reply that starts inside reasoning (the opener was
//!   in the prompt, as with R1 and Qwen3 templates) is read that way. A call drafted inside a
//!   closed reasoning block is not a call (it is listed in `Reply::rejected`); a call inside a
//!   reasoning block left open at the end of the reply is found, with `in_reasoning: true`. For
//!   `extract` and the other value readers, a value inside reasoning is never the answer unless
//!   the caller opts in with `Extractor::fallback_to_reasoning()`, and then only when nothing
//!   outside reasoning holds a value; the report says so (`RepairKind::FromReasoning`).
//! - Parameter values written as text (Qwen3-Coder, GLM, MiniMax, DSML `string="false"`, Kimi K3
//!   typed arguments, Step-3, MiniCPM, Seed-OSS, bare Gemma values) are read by the target type:
//!   `3` is a number for a `u8` and the text `"007"` for a `String`; as a `ToolCall`, text that is
//!   valid JSON becomes that JSON, and Python's `True`, `False` and `None` become `true`, `false`
//!   and `null`. Text that only looks like JSON (`{invalid json: no quotes}`) stays that text,
//!   read whole or streamed, typed or not. Values a format marks as strings (DSML
//!   `string="true"`, Kimi K3 `type="string"`, Gemma 4's `<|"|>`) are strings.
//! - A typed call is shown to `T` as `{name: arguments}` (a derived enum: the name matched like a
//!   variant, normalized and by alias) and as `{"name", "arguments"}` (adjacently tagged enums,
//!   `ToolCall`). Errors name the call, the tool and the argument path: `tool call 1
//!   (`get_weather`, Hermes <tool_call>): $.get_weather.days: 300 is out of range for u8`, and
//!   point at the argument where it was written in the reply (line and column of `300`), also
//!   inside OpenAI's arguments written as JSON in a string, in XML-like parameters and in pythonic
//!   keyword arguments.
//! - A marker inside a JSON string value is not a call; markers left unclosed are read in linear
//!   time (the `tool-adversarial` benches). `Extractor::tool_formats(&[..])` restricts the formats;
//!   `Extractor::allow_incomplete_tool_calls()` opts in to calls cut off (in every format: a
//!   pythonic list cut off, `[get_weather(city="Par`, gives the calls read so far, with what
//!   their arguments held, all marked incomplete); `Extractor::allow_doubtful_tool_calls()` to
//!   calls read by guessing (below).
//! - `ToolCall` prints as `search({"q":"rust"}) [toolu_1]`, and `arguments_value()` gives the
//!   arguments as one `serde_json::Value`. `Reply::calls` holds `Found`s: the call, its format,
//!   its span in the reply and every repair made reading it.
//!
//! # Feedback and tool names
//!
//! `Error::feedback()` for a tool-call failure asks for the call again in the format the model
//! used:
//!
//! ```rust
//! # #[derive(llm_extract::Extract, Debug)]
//! # enum Tool { DeleteFile { path: String } }
//! let reply = r#"<tool_call>{"name": "rm_all", "arguments": {"path": "/"}}</tool_call>"#;
//! let feedback = llm_extract::tool::calls::<Tool>(reply).unwrap_err().feedback();
//! assert_eq!(feedback, r#"Your previous reply could not be used:
//! - tool call 1 (`rm_all`, Hermes <tool_call>): there is no tool named `rm_all` (expected one of `DeleteFile`, got "rm_all")
//! Write the tool call again, whole, in the same format (Hermes <tool_call>): <tool_call>{"name": "TOOL", "arguments": {"ARGUMENT": VALUE}}</tool_call>"#);
//! ```
//!
//! `tool::definitions` tells the model each variant's name after `rename`/`rename_all` (the
//! errors list the same names): `#[extract(rename_all = "snake_case")]` makes `GetWeather` the
//! conventional `get_weather`; without it the model is told `GetWeather`, and `get_weather` is
//! still read (a normalized match).

mod python;
mod scan;
mod shape;
mod source;
mod stream;
mod verdict;
mod wire;

pub use crate::dynamic::{Tools, ToolsStream};
pub use stream::StreamCalls;

#[cfg(feature = "schema")]
mod provider;
#[cfg(feature = "schema")]
pub use provider::definitions;

use crate::coerce::{Context, Extract, Failed};
use crate::error::{Category, Error, Issue};
use crate::extractor::Extractor;
use crate::node::{Entry, Node, NodeKind, Quoting, Str};
use crate::path::Path;
use crate::report::Repair;
use crate::settings::Settings;
pub(crate) use crate::settings::ToolSettings;
use crate::span::Span;
use serde::Serialize;
use serde_json::{Map, Value};
use shape::{Arg, RawCall};
use std::borrow::Cow;
use std::fmt;
use verdict::Verdict;
use wire::Region;

#[cfg(feature = "schema")]
pub use crate::provider::Provider;
pub use crate::tool_format::Format;

/// One tool call: the tool's name, its arguments as a JSON object, and the call id when the
/// format carries one (OpenAI `call_...`, Anthropic `toolu_...`, Kimi `functions.f:0`).
///
/// Implements [`Extract`], so `calls::<ToolCall>` and `from_str::<ToolCall>` read any of the
/// JSON shapes (`{"name", "arguments"}`, `{"tool_name", "parameters"}`, `{"type":
/// "function", "function": {...}}`, `{"type": "tool_use", "input": ...}`, ...).
///
/// ```
/// let call: llm_extract::tool::ToolCall =
///     llm_extract::from_str(r#"{"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"q": "rust"}}"#).unwrap();
/// assert_eq!(call.name, "search");
/// assert_eq!(call.id.as_deref(), Some("toolu_1"));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCall {
    /// The tool's name as written (Kimi's `functions.` prefix and `:0` index removed).
    pub name: String,
    /// The arguments. Values written as text in XML-like formats are read as JSON when they
    /// are JSON (`3` is a number), else kept as strings; a typed target decides for itself.
    pub arguments: Map<String, Value>,
    /// The call id, when the format has one.
    pub id: Option<String>,
}

impl ToolCall {
    /// The arguments as one JSON object.
    ///
    /// ```
    /// let call = llm_extract::tool::tool_call(r#"[search(q="rust", n=3)]"#).unwrap();
    /// assert_eq!(call.arguments_value(), serde_json::json!({"q": "rust", "n": 3}));
    /// ```
    pub fn arguments_value(&self) -> Value {
        Value::Object(self.arguments.clone())
    }
}

/// `name({"argument": value, ...})`, the arguments as compact JSON, then the id in brackets
/// when there is one: for logs and for showing an agent's user what will run.
///
/// ```
/// let call = llm_extract::tool::tool_call(r#"{"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"q": "rust"}}"#).unwrap();
/// assert_eq!(call.to_string(), r#"search({"q":"rust"}) [toolu_1]"#);
/// ```
impl fmt::Display for ToolCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", self.name, self.arguments_value())?;
        match &self.id {
            Some(id) => write!(f, " [{id}]"),
            None => Ok(()),
        }
    }
}

/// A call found in the text, with where and how it was written.
#[derive(Debug, Clone, Serialize)]
pub struct Found {
    /// The call.
    pub call: ToolCall,
    /// The wire format it was written in.
    pub format: Format,
    /// Where in the text (the whole call, markers included).
    pub span: Span,
    /// `false` when the text ended (or the format's closer was missing) inside the call.
    pub complete: bool,
    /// Written inside a reasoning block left open at the end of the reply (models do this).
    pub in_reasoning: bool,
    /// Every repair made reading the call, where it was made in the text. A call with a
    /// repair that guesses ([`RepairKind::is_guess`](crate::RepairKind::is_guess)) is
    /// doubtful: it is in [`Reply::doubtful`], and a call only when the caller opted in.
    pub repairs: Vec<Repair>,
    #[serde(skip)]
    raw: RawCall,
    /// Its place among the reply's calls (returned or not run), from 0, in text order: the
    /// number messages give it, whole and streamed.
    #[serde(skip)]
    place: usize,
}

impl Found {
    /// The first repair that guessed what the call says, if any: the reason it is doubtful.
    ///
    /// ```
    /// let reply = llm_extract::tool::read(r#"<tool_call>{"name": "rm", "arguments": {"path": tmp}}</tool_call>"#);
    /// let doubt = reply.doubtful[0].doubt().unwrap();
    /// assert_eq!(doubt.kind, llm_extract::RepairKind::UnquotedString);
    /// assert!(reply.calls.is_empty());
    /// ```
    pub fn doubt(&self) -> Option<&Repair> {
        self.repairs.iter().find(|r| r.kind.is_guess())
    }

    /// The call `hit` found, its text arguments read as JSON within `max_depth`.
    fn from_hit(hit: wire::Hit, place: usize, max_depth: usize) -> Found {
        Found {
            place,
            call: to_tool_call(&hit.call, max_depth),
            format: hit.format,
            span: hit.span,
            complete: hit.complete,
            in_reasoning: hit.region == Region::OpenReasoning,
            repairs: hit.call.repairs.clone(),
            raw: hit.call,
        }
    }
}

/// A candidate that was not taken as a call, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Rejected {
    /// The format it looked like, when it had a marker.
    pub format: Option<Format>,
    /// Where in the text.
    pub span: Span,
    /// Why it is not a call, in words.
    pub reason: String,
}

/// Everything [`read`] found in a reply: the calls, the calls cut off, the candidates that
/// were not calls, the answer text around them and the reasoning.
#[derive(Debug, Clone, Serialize)]
pub struct Reply {
    /// The calls, in text order. Calls cut off are here only when the caller opted in.
    pub calls: Vec<Found>,
    /// Calls whose text was cut off or left unclosed.
    pub incomplete: Vec<Found>,
    /// Whole calls that could be read only by guessing (see [`Found::doubt`]). Calls too
    /// only when the caller opted in ([`Extractor::allow_doubtful_tool_calls`]).
    pub doubtful: Vec<Found>,
    /// Candidates that were not calls, and why.
    pub rejected: Vec<Rejected>,
    /// The answer text outside calls and reasoning, trimmed pieces joined by line breaks.
    pub text: String,
    /// The text of reasoning blocks (`<think>`, Harmony's analysis channel, ...), in order.
    pub thoughts: Vec<String>,
}

static DEFAULT: std::sync::LazyLock<Extractor> = std::sync::LazyLock::new(Extractor::new);

/// Everything in `text` about tool calls: see [`Reply`].
///
/// ```
/// let reply = llm_extract::tool::read(
///     "I'll look it up.\n[TOOL_CALLS]search[ARGS]{\"q\": \"rust\"}",
/// );
/// assert_eq!(reply.text, "I'll look it up.");
/// assert_eq!(reply.calls[0].format, llm_extract::tool::Format::Mistral);
/// ```
pub fn read(text: &str) -> Reply {
    DEFAULT.read_tool_calls(text)
}

/// Every complete tool call in `text`, in order; empty when there is none.
///
/// ```
/// let calls = llm_extract::tool::tool_calls(r#"[get_weather(city="Paris", days=3), search(q='x')]"#);
/// assert_eq!(calls.len(), 2);
/// assert_eq!(calls[0].arguments["days"], 3);
/// assert!(llm_extract::tool::tool_calls("Paris is sunny today.").is_empty());
/// ```
pub fn tool_calls(text: &str) -> Vec<ToolCall> {
    DEFAULT.tool_calls(text)
}

/// Exactly one tool call in `text`. The error names every candidate and why it was not a
/// call, or says how many calls there were.
///
/// ```
/// let err = llm_extract::tool::tool_call("<tool_call>{\"name\": \"rm\", \"arguments\": {\"path\": \"/tm").unwrap_err();
/// assert_eq!(err.category(), llm_extract::Category::Incomplete);
/// assert!(err.to_string().contains("cut off"), "{err}");
/// ```
pub fn tool_call(text: &str) -> Result<ToolCall, Error> {
    DEFAULT.tool_call(text)
}

/// Every tool call in `text` as a `T`: [`ToolCall`] or your enum of tools.
///
/// A call is shown to `T` as `{name: arguments}` (the shape of a derived, externally tagged
/// enum: the tool name matched like a variant name, normalized and by alias) and as
/// `{"name": .., "arguments": ..}` (adjacently tagged enums, [`ToolCall`]); the reading that
/// fits best wins. Errors name the call, the tool and the argument path. A call cut off by the
/// end of the reply is an error (`Category::Incomplete`), also when calls before it are whole:
/// a truncated reply is not run in part (`read` gives the whole calls and the cut one apart;
/// `Extractor::allow_incomplete_tool_calls` opts in to cut-off calls).
///
/// ```
/// #[derive(llm_extract::Extract, Debug, PartialEq)]
/// enum Tool {
///     Search { query: String },
///     GetWeather { city: String, days: Option<u8> },
/// }
/// let reply = "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>";
/// let calls: Vec<Tool> = llm_extract::tool::calls(reply).unwrap();
/// assert_eq!(calls, vec![Tool::GetWeather { city: "Paris".into(), days: Some(3) }]);
///
/// let cut = format!("{reply}\n<tool_call>{{\"name\": \"search\", \"arguments\": {{\"query\": \"rust");
/// let err = llm_extract::tool::calls::<Tool>(&cut).unwrap_err();
/// assert_eq!(err.category(), llm_extract::Category::Incomplete);
/// assert_eq!(llm_extract::tool::read(&cut).calls.len(), 1); // the whole call, apart
/// ```
pub fn calls<T: Extract>(text: &str) -> Result<Vec<T>, Error> {
    DEFAULT.calls(text)
}

impl Extractor {
    /// [`read`] with these settings.
    pub fn read_tool_calls(&self, text: &str) -> Reply {
        self.on_deep_stack(text, || self.read_tool_calls_here(text))
    }

    /// Runs a reading of `text`'s tool calls on a stack with room for the depth `max_depth`
    /// allows: their arguments are `serde_json::Value`s, whose clones and drops recurse once
    /// per level (see [`crate::deep::text_depth`]).
    fn on_deep_stack<R>(&self, text: &str, read: impl FnOnce() -> R) -> R {
        let depth = crate::deep::text_depth(text, self.settings.max_depth);
        crate::deep::for_depth(depth, read)
    }

    fn read_tool_calls_here(&self, text: &str) -> Reply {
        if let Some(max) = self.settings.max_payload.filter(|max| text.len() > *max) {
            return Reply::too_large(text, max);
        }
        let opening = self.settings.tool.opening;
        let found = find_calls_from(text, "", opening, &self.settings, false, false);
        let mut reply = Reply {
            calls: Vec::new(),
            incomplete: Vec::new(),
            doubtful: Vec::new(),
            rejected: Vec::new(),
            text: joined(&found.answer)
                .iter()
                .map(|s| text[s.start..s.end].trim())
                .filter(|t| !t.is_empty())
                .collect::<Vec<_>>()
                .join("\n"),
            thoughts: found
                .thoughts
                .iter()
                .map(|s| text[s.start..s.end].trim().to_string())
                .collect(),
        };
        let mut place = 0;
        for hit in found.hits {
            reply.take_hit(hit, self.settings.tool, self.settings.max_depth, &mut place);
        }
        reply
            .rejected
            .extend(found.misses.into_iter().map(rejected));
        reply
    }

    /// [`tool_calls`] with these settings.
    pub fn tool_calls(&self, text: &str) -> Vec<ToolCall> {
        self.on_deep_stack(text, || {
            (self.read_tool_calls_here(text).calls.into_iter())
                .map(|f| f.call)
                .collect()
        })
    }

    /// [`tool_call`] with these settings.
    pub fn tool_call(&self, text: &str) -> Result<ToolCall, Error> {
        self.on_deep_stack(text, || self.tool_call_here(text))
    }

    fn tool_call_here(&self, text: &str) -> Result<ToolCall, Error> {
        let reply = self.read_tool_calls_here(text);
        if let Some(err) = self.unsure(text, &reply) {
            return Err(err);
        }
        match reply.calls.len() {
            1 => Ok(reply
                .calls
                .into_iter()
                .next()
                .map(|f| f.call)
                .unwrap_or_else(|| unreachable!())),
            0 => Err(no_call(text, &reply)),
            n => {
                let names: Vec<String> = reply
                    .calls
                    .iter()
                    .map(|f| format!("`{}` ({})", f.call.name, f.format))
                    .collect();
                let issue = Issue::new(
                    Category::Other,
                    Path::root(),
                    format!(
                        "expected exactly one tool call, found {n}: {}",
                        names.join(", ")
                    ),
                )
                .at(reply.calls[0].span);
                Err(tool_error(vec![issue], text, Some(reply.calls[0].format)))
            }
        }
    }

    /// [`calls`] with these settings.
    pub fn calls<T: Extract>(&self, text: &str) -> Result<Vec<T>, Error> {
        self.on_deep_stack(text, || self.calls_here(text))
    }

    fn calls_here<T: Extract>(&self, text: &str) -> Result<Vec<T>, Error> {
        let reply = self.read_tool_calls_here(text);
        let mut out = Vec::with_capacity(reply.calls.len());
        let mut issues = Vec::new();
        for found in &reply.calls {
            let args = arguments_node(&found.raw, self.settings.max_depth);
            match typed::<T>(&found.raw, args, self.settings.max_depth) {
                Ok(value) => out.push(value),
                Err(first) => issues.extend(call_issues::<T>(
                    text,
                    found,
                    first,
                    self.settings.max_depth,
                )),
            }
        }
        let unsure = self.unsure(text, &reply);
        if issues.is_empty() {
            return unsure.map_or(Ok(out), Err);
        }
        // Calls not run and calls that do not fit `T` alike, in text order, as a stream
        // reports them.
        let mut all: Vec<Issue> = unsure.map_or_else(Vec::new, |e| e.issues().to_vec());
        all.extend(issues);
        all.sort_by_key(|i| i.span.map_or(0, |s| s.start));
        let format = reply.calls.first().map(|f| f.format);
        Err(tool_error(all, text, format))
    }

    /// The error for a reply with a call that is not run: cut off, or doubtful (each unless
    /// the caller opted in), or too large to read. A reply truncated inside what the model
    /// asked for is not run in part, as [`StreamCalls::finish`] says too.
    fn unsure(&self, text: &str, reply: &Reply) -> Option<Error> {
        let tool = self.settings.tool;
        let mut issues = Vec::new();
        if let Some(max) = self.settings.max_payload.filter(|max| text.len() > *max) {
            issues.push(too_large_issue(text.len(), max));
        }
        // In text order, as a stream finds them; calls of one run (Llama 3's, joined by `;`)
        // share a span, and their places order them.
        let mut unsure = Vec::new();
        if !tool.allow_incomplete {
            unsure.extend(
                reply
                    .incomplete
                    .iter()
                    .map(|f| ((f.span.start, f.place), cut_off_issue(f))),
            );
        }
        if !tool.allow_doubtful {
            unsure.extend(
                reply
                    .doubtful
                    .iter()
                    .map(|f| ((f.span.start, f.place), doubtful_issue(f))),
            );
        }
        unsure.sort_by_key(|(at, _)| *at);
        issues.extend(unsure.into_iter().map(|(_, issue)| issue));
        (!issues.is_empty()).then(|| tool_error(issues, text, reply.format()))
    }
}

/// The issues of the call `found`, which `T` could not read (`first`, from the first
/// reading): each names the call (by its place) and the tool, and points at the argument it
/// is about in the reply.
fn call_issues<T: Extract>(
    text: &str,
    found: &Found,
    first: Vec<Issue>,
    max_depth: usize,
) -> Vec<Issue> {
    // Read again with every argument placed where it was written (the same values, so the
    // same issues), for positions in the reply.
    let args = arguments_node(&found.raw, max_depth);
    let placed = source::place(text, &found.raw, args, max_depth)
        .and_then(|args| typed::<T>(&found.raw, args, max_depth).err());
    let spans_known = placed.is_some();
    let mut issues = placed.unwrap_or(first);
    for issue in &mut issues {
        // At the root, a variant that matches nothing is a tool that does not exist; say it
        // in those words (the allowed names stay in `expected`).
        if issue.category == Category::Variant && issue.path.is_root() {
            issue.message = format!("there is no tool named `{}`", found.raw.name);
            // The name was shown to `T` without a place: the call is where it was written.
            issue.span = Some(found.span);
        }
        issue.message = format!(
            "tool call {} (`{}`, {}): {}",
            found.place + 1,
            found.raw.name,
            found.format,
            issue.message
        );
        // Without positions, an empty span is a default one: the call is the best place. So
        // is it for a place outside the call: the arguments object of a format that writes
        // each argument apart (XML-like parameters, pythonic keywords) has none of its own,
        // and a missing argument was reported at the start of the reply.
        let outside = |s: Span| s.start < found.span.start || s.end > found.span.end;
        if issue
            .span
            .is_none_or(|s| (!spans_known && s.is_empty()) || outside(s))
        {
            issue.span = Some(found.span);
        }
    }
    issues
}

/// Every call and miss in a reply, in text order, with the answer text and reasoning.
struct Calls {
    hits: Vec<wire::Hit>,
    misses: Vec<wire::Miss>,
    thoughts: Vec<Span>,
    /// The text outside calls and reasoning.
    answer: Vec<Span>,
    /// What a stream needs to know about the end of the text: where reading may resume,
    /// where the part that more text may change begins, and the reasoning state.
    resume: Option<wire::Resume>,
    open_from: usize,
    /// See `wire::Wire::held`.
    held: bool,
    /// See `scan::Tokens::open_string`.
    open_string: Option<usize>,
    reasoning_seen: bool,
    ends_in_reasoning: bool,
    /// Where the first stretch of answer text begins that holds no call (prose): bare
    /// pythonic calls after it are not the whole reply.
    prose_at: Option<usize>,
}

/// The calls of `text`, which begins where `opening` says: the token formats first (one pass
/// over the tokens), then the pythonic lists and JSON values in the text between tokens
/// (closed reasoning is searched by neither); then each call's repairs and the rules of
/// [`verdict`] that depend on the text around it.
///
/// `before` is the reply's text before `text` (empty for a whole read; a stream reads on
/// from its settled point), which the rules that look back read too.
///
/// `standalone` says whether a call written on its own came before `text` (see
/// [`verdict::annotate`]); `prose` whether answer text holding no call did
/// ([`Calls::prose_at`]).
fn find_calls_from(
    text: &str,
    before: &str,
    opening: wire::Opening,
    settings: &Settings,
    standalone: bool,
    prose: bool,
) -> Calls {
    let reading = wire::Reading {
        max_depth: settings.max_depth,
        reasoning_tags: &settings.reasoning_tags,
        before: before.as_bytes().last().copied(),
    };
    let w = wire::read_from(text, opening, reading);
    let mut found = Calls {
        hits: w.hits,
        misses: w.misses,
        thoughts: w.thoughts,
        answer: Vec::new(),
        resume: w.resume,
        open_from: w.open_from,
        held: w.held,
        open_string: w.open_string,
        reasoning_seen: w.reasoning_seen,
        ends_in_reasoning: w.ends_in_reasoning,
        prose_at: None,
    };
    let from_tokens = found.hits.len();
    let gaps = Gaps {
        list: &w.gaps,
        lists_in_strings: &w.lists_in_strings,
        prose,
    };
    gap_calls(text, gaps, settings.max_depth, &mut found);
    // Calls found in the text between tokens (pythonic lists, JSON values), which the
    // answer text leaves out unless they are refused.
    let in_gaps: std::collections::HashSet<Span> =
        found.hits[from_tokens..].iter().map(|h| h.span).collect();
    found.answer.extend(w.shown);
    found.answer.sort_by_key(|s| s.start);
    found.thoughts.sort_by_key(|s| s.start);
    found.hits.sort_by_key(|h| h.span.start);
    found.misses.sort_by_key(|m| m.span.start);
    wire::after_cut_string(&mut found.hits, &found.misses, &w.after_cut_string);
    verdict::annotate(
        text,
        before,
        &mut found.hits,
        settings.max_depth,
        standalone,
    );
    // A call written in the answer is not answer text, as the engines' `content` leaves it
    // out; a call refused (written in a sentence) is.
    let mut written: Vec<Span> = (found.hits.iter())
        .filter(|h| h.refused.is_none() && in_gaps.contains(&h.span))
        .map(|h| h.span)
        .collect();
    written.dedup();
    found.answer = without(&found.answer, written.into_iter());
    found
}

/// The text between tokens, as [`gap_calls`] reads it.
struct Gaps<'a> {
    list: &'a [(Span, Region)],
    /// See [`scan::Tokens::lists_in_strings`].
    lists_in_strings: &'a [usize],
    /// Answer text holding no call came before the first gap.
    prose: bool,
}

/// The calls in the text between tokens (pythonic lists, bare calls, JSON values; closed
/// reasoning is searched by none), added to `found`, whose hits so far are the tokens'; and
/// the answer text among those gaps.
fn gap_calls(text: &str, gaps: Gaps<'_>, max_depth: usize, found: &mut Calls) {
    let (lists_in_strings, mut prose) = (gaps.lists_in_strings, gaps.prose);
    let gaps = gaps.list;
    let from_tokens = found.hits.len();
    // The token pass has placed every reasoning tag: one left in a gap is text it chose not
    // to read as reasoning (a closer without an opener in a reply that begins in the
    // answer), which the value reader must not take as one either.
    let mut json = Extractor::new().max_depth(max_depth);
    json.settings.reasoning_tags.clear();
    let mut across = Across::default();
    for (k, &(span, region)) in gaps.iter().enumerate() {
        match region {
            Region::ClosedReasoning => continue,
            Region::Answer => found.answer.push(span),
            Region::OpenReasoning | Region::AfterTurn => {}
        }
        // Text inside the argument strings of bare calls read across tokens is their text.
        if span.end <= across.covered {
            continue;
        }
        let calls_before = found.hits.len();
        let mut gap = Gap {
            text,
            span,
            region,
            json: &json,
            lists_in_strings,
            later: &gaps[k + 1..],
            prose_before: prose,
            across: &mut across,
            hits: &mut found.hits,
            misses: &mut found.misses,
        };
        gap.calls();
        if region == Region::Answer && found.hits.len() == calls_before {
            prose = true;
            found.prose_at.get_or_insert(span.start);
        }
    }
    found.open_string = found.open_string.into_iter().chain(across.open).min();
    // A call whose markup stands inside an argument string of a bare call is that string's
    // text.
    for hit in &mut found.hits[..from_tokens] {
        let inside = |s: &Span| s.start < hit.span.start && hit.span.start < s.end;
        if across.spans.iter().any(inside) {
            hit.refused = Some(format!(
                "a call to `{}` written inside an argument string of the pythonic call around it (that string's text)",
                hit.call.name
            ));
        }
    }
}

/// `spans` (in order, apart) less the parts `cut` (in order) covers.
fn without(spans: &[Span], cut: impl Iterator<Item = Span>) -> Vec<Span> {
    let mut cut = cut.peekable();
    let mut out = Vec::with_capacity(spans.len());
    for s in spans {
        let mut from = s.start;
        while let Some(c) = cut.peek().copied() {
            if c.end <= from {
                cut.next();
                continue;
            }
            if c.start >= s.end {
                break;
            }
            if c.start > from {
                out.push(Span::new(from, c.start));
            }
            from = from.max(c.end);
            if c.end > s.end {
                break;
            }
            cut.next();
        }
        if from < s.end {
            out.push(Span::new(from, s.end));
        }
    }
    out
}

impl Reply {
    /// The format the model wrote its calls in: of the first call, cut-off call, doubtful
    /// call or candidate with a format.
    fn format(&self) -> Option<Format> {
        (self
            .calls
            .iter()
            .chain(&self.incomplete)
            .chain(&self.doubtful))
        .map(|f| f.format)
        .chain(self.rejected.iter().filter_map(|r| r.format))
        .next()
    }

    /// A reply larger than `max_payload`: not read.
    fn too_large(text: &str, max: usize) -> Reply {
        Reply {
            calls: Vec::new(),
            incomplete: Vec::new(),
            doubtful: Vec::new(),
            rejected: vec![Rejected {
                format: None,
                span: Span::new(0, text.len()),
                reason: format!(
                    "the reply of {} bytes is larger than max_payload ({max} bytes), so it was not read",
                    text.len()
                ),
            }],
            text: String::new(),
            thoughts: Vec::new(),
        }
    }

    /// Files one call found in the text as [`verdict`] says: a call, a call cut off or
    /// doubtful (also a call when the caller opted in), or a rejection. `next` is the place
    /// of the next call: a refused one is not a call and takes none. Text arguments are read
    /// as JSON within `max_depth`.
    fn take_hit(
        &mut self,
        hit: wire::Hit,
        settings: ToolSettings,
        max_depth: usize,
        next: &mut usize,
    ) {
        let verdict = verdict::verdict(&hit, settings);
        let place = *next;
        if !matches!(verdict, Verdict::Refused(_)) {
            *next += 1;
        }
        match verdict {
            Verdict::Refused(reason) => self.rejected.push(Rejected {
                format: Some(hit.format),
                span: hit.span,
                reason,
            }),
            Verdict::Call => self.calls.push(Found::from_hit(hit, place, max_depth)),
            Verdict::CutOff => {
                let found = Found::from_hit(hit, place, max_depth);
                if settings.allow_incomplete {
                    self.calls.push(found.clone());
                }
                self.incomplete.push(found);
            }
            Verdict::Doubtful => {
                let found = Found::from_hit(hit, place, max_depth);
                if settings.allow_doubtful {
                    self.calls.push(found.clone());
                }
                self.doubtful.push(found);
            }
        }
    }
}

/// `spans` (in order) with those that touch merged: text shown as markup stays in its
/// sentence.
fn joined(spans: &[Span]) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::with_capacity(spans.len());
    for s in spans {
        match out.last_mut() {
            Some(last) if last.end == s.start => last.end = s.end,
            _ => out.push(*s),
        }
    }
    out
}

/// A candidate that was not a call, with where it was and whether it was cut off.
fn rejected(miss: wire::Miss) -> Rejected {
    let mut reason = miss.reason;
    if miss.region == Region::ClosedReasoning {
        reason.push_str(" (inside a closed reasoning block)");
    }
    if miss.incomplete && !reason.contains("cut off") {
        reason.push_str("; the text was cut off here");
    }
    Rejected {
        format: miss.format,
        span: miss.span,
        reason,
    }
}

/// Bare pythonic calls read across the tokens written in their argument strings
/// (`search(q='run <tool_call>...</tool_call> later')`), which split the text into gaps.
#[derive(Default)]
struct Across {
    /// Their spans: the tokens inside are the strings' text.
    spans: Vec<Span>,
    /// The end of the gap the last one ends in: the gaps before it are inside it.
    covered: usize,
    /// Where one begins that is still open at the end of the text: what comes after may be
    /// its strings' text, so nothing from there on is decided (a stream waits), and no
    /// later gap is read across (the read already ran to the end).
    open: Option<usize>,
}

/// Text between tokens, searched for pythonic lists and JSON values that are calls.
struct Gap<'a> {
    text: &'a str,
    span: Span,
    region: Region,
    /// Reads the JSON values, with the caller's `max_depth`.
    json: &'a Extractor,
    /// See [`scan::Tokens::lists_in_strings`]: no list is read from there.
    lists_in_strings: &'a [usize],
    /// The gaps after this one, which a bare call read across tokens may end in.
    later: &'a [(Span, Region)],
    /// Answer text holding no call came before this gap: bare calls here are not the whole
    /// reply.
    prose_before: bool,
    across: &'a mut Across,
    hits: &'a mut Vec<wire::Hit>,
    misses: &'a mut Vec<wire::Miss>,
}

impl Gap<'_> {
    /// Pythonic lists, then JSON values.
    fn calls(&mut self) {
        let json_pieces = self.pythonic_calls();
        let start = self.span.start;
        for (a, b) in json_pieces {
            self.json_calls(Span::new(start + a, start + b));
        }
    }

    fn miss(&mut self, span: Span, format: Option<Format>, reason: String, incomplete: bool) {
        self.misses.push(wire::Miss {
            span,
            format,
            reason,
            incomplete,
            region: self.region,
        });
    }

    /// The pythonic call lists in the gap: their calls (or why a list was not one), and the
    /// stretches between them (relative to the gap), left for JSON values.
    fn pythonic_calls(&mut self) -> Vec<(usize, usize)> {
        let (text, span) = (self.text, self.span);
        let gap = &text[span.start..span.end];
        if let Some(whole) = self.bare_calls() {
            return vec![
                (0, whole.start - span.start),
                (whole.end.min(span.end) - span.start, gap.len()),
            ];
        }
        let mut json_from = 0;
        let mut pieces: Vec<(usize, usize)> = Vec::new();
        let mut pos = 0;
        while let Some(found) = memchr::memchr(b'[', &gap.as_bytes()[pos..]) {
            let at = pos + found;
            let in_string = || {
                self.lists_in_strings
                    .binary_search(&(span.start + at))
                    .is_ok()
            };
            if !python::looks_like_calls(&gap[at..], false) || in_string() {
                pos = at + 1;
                continue;
            }
            let whole_start = span.start + at;
            match python::read_calls(&gap[at..], self.json.settings.max_depth) {
                Ok((calls, n)) => {
                    let whole = Span::new(whole_start, whole_start + n);
                    for call in calls {
                        self.pythonic_hit(call, whole, true, false);
                    }
                    pieces.push((json_from, at));
                    json_from = at + n;
                    pos = at + n;
                }
                Err(python::PyError::Incomplete(calls)) => {
                    // Cut off: the calls read so far are incomplete (run only if the caller
                    // opted in), or, when none got as far as its `(`, a miss saying so.
                    let whole = Span::new(whole_start, span.end);
                    if calls.is_empty() {
                        let reason = "the pythonic call list was cut off before its end".into();
                        self.miss(whole, Some(Format::Pythonic), reason, true);
                    }
                    for call in calls {
                        self.pythonic_hit(call, whole, false, false);
                    }
                    pieces.push((json_from, at));
                    json_from = gap.len();
                    break;
                }
                // What the reader consumed holds no other call list: continue after it.
                Err(python::PyError::Invalid(n, _)) => pos = at + n.max(1),
            }
        }
        pieces.push((json_from, gap.len()));
        pieces
    }

    /// Pythonic calls written without their list's brackets, `get_weather(city="Paris")` (as
    /// models drop them): taken only when they are all the gap holds, whole and with keyword
    /// arguments (or none), and no answer text holding no call came before them (the calls
    /// are the whole reply, less its other calls and reasoning), so a call named in a
    /// sentence (`use print(x) to ...`, or `Okay. </tool_call>rm(path="/")`) is none.
    /// Tokens written inside their argument strings end the gap there, so calls still open
    /// at its end are read on across them ([`Gap::bare_calls_across`]). Their span.
    fn bare_calls(&mut self) -> Option<Span> {
        if self.prose_before && self.region == Region::Answer {
            return None;
        }
        let (text, span) = (self.text, self.span);
        let gap = &text[span.start..span.end];
        let lead = gap.len() - gap.trim_start().len();
        let body = gap.trim();
        if body.starts_with('[') || !python::looks_like_calls(body, true) {
            return None;
        }
        let (calls, whole) = match python::read_calls(body, self.json.settings.max_depth) {
            Ok((calls, n)) if body[n..].trim().is_empty() => {
                (calls, Span::new(span.start + lead, span.start + lead + n))
            }
            Err(python::PyError::Incomplete(_)) => self.bare_calls_across(span.start + lead)?,
            _ => return None,
        };
        if calls.is_empty() {
            return None;
        }
        // Only the end of the gap says they are all it holds: a stream waits for it.
        for call in calls {
            self.pythonic_hit(call, whole, true, true);
        }
        Some(whole)
    }

    /// The bare calls from `start`, whose gap ends inside them, read on over the text after
    /// it: taken when they end in a later gap of the same region and are all the rest of
    /// that gap holds, the tokens between them inside their argument strings. The calls and
    /// their span.
    fn bare_calls_across(&mut self, start: usize) -> Option<(Vec<python::PyCall>, Span)> {
        if self.across.open.is_some() {
            return None;
        }
        let rest = &self.text[start..];
        let (calls, n) = match python::read_calls(rest, self.json.settings.max_depth) {
            Ok(read) => read,
            Err(python::PyError::Incomplete(_)) => {
                self.across.open = Some(start);
                return None;
            }
            Err(python::PyError::Invalid(..)) => return None,
        };
        let end = start + n;
        let passed = self.later.iter().take_while(|(g, _)| g.start <= end);
        if !passed.clone().all(|(_, region)| *region == self.region) {
            return None;
        }
        // What the calls end in: a later gap, or the body of a token without a closer,
        // which runs to the next gap or the end of the text.
        let limit = match passed.last() {
            Some((gap, _)) if end <= gap.end => gap.end,
            _ => (self.later.iter())
                .find(|(g, _)| g.start > end)
                .map_or(self.text.len(), |(g, _)| g.start),
        };
        if !self.text[end..limit].trim().is_empty() {
            return None;
        }
        let whole = Span::new(start, end);
        self.across.spans.push(whole);
        self.across.covered = limit;
        Some((calls, whole))
    }

    /// A pythonic call read from the list (or bare calls) at `whole`.
    fn pythonic_hit(&mut self, call: python::PyCall, whole: Span, complete: bool, until_end: bool) {
        self.hits.push(wire::Hit {
            call: wire::python_call(call, whole.start),
            format: Format::Pythonic,
            span: whole,
            complete,
            region: self.region,
            until_end,
            refused: None,
            on_its_own: false,
            frame: whole,
            after_cut_string: None,
        });
    }

    /// The JSON values in `piece` that are tool calls (or why one was not).
    fn json_calls(&mut self, piece: Span) {
        let slice = &self.text[piece.start..piece.end];
        if slice.is_empty() || !slice.contains(['{', '[']) {
            return;
        }
        let Ok(values) = self.json.extract_all::<Value>(slice) else {
            return;
        };
        let max_depth = self.json.settings.max_depth;
        for v in values {
            if !(v.value.is_object() || v.value.is_array()) {
                continue;
            }
            let at = v.report.span.shift(piece.start);
            let complete = v.report.complete;
            let until_end = piece.end == self.text.len() && may_read_on(self.text, at.end);
            // A guess made in the reading the value was taken in (locate may read a value
            // otherwise than a parse of its span alone would) makes each of its calls
            // doubtful; one is enough to say so.
            let repairs: Vec<Repair> = (v.report.repairs.iter())
                .find(|r| r.kind.is_guess())
                .map(|r| Repair::new(r.kind, r.span.shift(piece.start)))
                .into_iter()
                .collect();
            match shape::calls_in(&v.value, shape::Context::Prose, max_depth) {
                Ok(calls) => {
                    for mut call in shape::placed(calls, at) {
                        call.repairs.clone_from(&repairs);
                        self.hits.push(wire::Hit {
                            complete: complete && !call.cut_off,
                            call,
                            format: Format::Json,
                            span: at,
                            region: self.region,
                            until_end,
                            refused: None,
                            on_its_own: false,
                            frame: at,
                            after_cut_string: None,
                        });
                    }
                }
                Err(reason) => self.miss(at, None, reason, !complete),
            }
        }
    }
}

/// Whether text still to come after `&text[..end]`, a value the text ends with (spaces and
/// closers aside, or the start of what may be its next member), may make the reader read
/// that value on past its closer: `{"name": "f", "arguments": {}}` followed by `"id": ...` or
/// `, ...` is one value with more members (`parse::read_on`), whose end the text has not
/// shown yet. Decided once a byte that continues no value follows, or a quoted key is
/// in full view.
fn may_read_on(text: &str, end: usize) -> bool {
    let after = &text[end..];
    let Some((at, c)) = after
        .char_indices()
        .find(|(_, c)| !(crate::lex::is_space(*c) || matches!(c, '}' | ']')))
    else {
        return true;
    };
    match c {
        // `, "b"]` reads on when the rest of the text closes more than it opens.
        ',' => true,
        // A backtick starts no key (and a run of them may close the value's fence).
        '`' => false,
        _ => {
            crate::lex::opening_quote(&after.as_bytes()[at..]).is_some()
                && after.len() - at < crate::parse::KEY_LOOKAHEAD
        }
    }
}

/// An issue for each call of `reply` cut off before its end.
fn cut_off(reply: &Reply) -> Vec<Issue> {
    reply.incomplete.iter().map(cut_off_issue).collect()
}

/// The issue of a call cut off before its end.
fn cut_off_issue(f: &Found) -> Issue {
    Issue::new(
        Category::Incomplete,
        Path::root(),
        format!(
            "{} call to `{}` was cut off before its end, so it was not run",
            f.format, f.call.name
        ),
    )
    .at(f.span)
}

/// The issue of a whole call that was read only by guessing.
fn doubtful_issue(f: &Found) -> Issue {
    let why = f
        .doubt()
        .map_or_else(String::new, |r| format!(": {}", verdict::describe(r.kind)));
    Issue::new(
        Category::Doubtful,
        Path::root(),
        format!(
            "{} call to `{}` could be read only by guessing what it says{why}, so it was not run",
            f.format, f.call.name
        ),
    )
    .at(f.doubt().map_or(f.span, |r| r.span))
}

/// The issue of a reply larger than `max_payload`.
fn too_large_issue(len: usize, max: usize) -> Issue {
    Issue::new(
        Category::TooLarge,
        Path::root(),
        format!("the reply of {len} bytes is larger than max_payload ({max} bytes, raise it with Extractor::max_payload)"),
    )
}

fn no_call(text: &str, reply: &Reply) -> Error {
    let mut issues = cut_off(reply);
    issues.extend(reply.doubtful.iter().map(doubtful_issue));
    for r in &reply.rejected {
        let what = r
            .format
            .map_or("a JSON value".to_string(), |f| format!("{f} candidate"));
        let category = if r.reason.contains("cut off") {
            Category::Incomplete
        } else {
            Category::NotFound
        };
        issues.push(
            Issue::new(
                category,
                Path::root(),
                format!("{what} is not a tool call: {}", r.reason),
            )
            .at(r.span),
        );
    }
    if issues.is_empty() {
        issues.push(Issue::new(
            Category::NotFound,
            Path::root(),
            "no tool call found: no tool-call marker of any known format, no JSON object with a tool name and arguments, no pythonic call list",
        ));
    }
    // The most telling issue first: a call cut off says more than a value that was not one.
    issues.sort_by_key(|i| i.category != Category::Incomplete);
    tool_error(issues, text, reply.format())
}

/// An error about the tool calls of `text`, whose feedback asks for the call again in
/// `format`, the one the model used (when known).
fn tool_error(issues: Vec<Issue>, text: &str, format: Option<Format>) -> Error {
    let line = match format {
        Some(format) => format!(
            "Write the tool call again, whole, in the same format ({format}): {}",
            format.example()
        ),
        None => "Reply with the tool call, whole, in the format you were asked to use.".into(),
    };
    Error::new(issues).with_positions(text).reask(line)
}

/// A [`ToolCall`] from a call as read: text arguments become JSON where they are JSON
/// nesting no deeper than `max_depth` (the limit a typed call reads them within), text
/// otherwise.
fn to_tool_call(raw: &RawCall, max_depth: usize) -> ToolCall {
    let arguments = raw
        .arguments
        .iter()
        .map(|(k, a)| {
            let v = match a {
                Arg::Json(v) => v.clone(),
                Arg::Text(t) => text_value_within(t, max_depth),
            };
            (k.clone(), v)
        })
        .collect();
    ToolCall {
        name: raw.name.clone(),
        arguments,
        id: raw.id.clone(),
    }
}

/// Text written as a parameter value: the JSON it spells when it is valid JSON (`3`,
/// `true`, `["a"]`), else the text itself.
fn text_value(text: &str) -> Value {
    wire::value::text_value(text)
}

/// [`text_value`], text when the JSON it spells nests deeper than `max_depth`, as
/// [`text_node`] reads it for a typed call.
fn text_value_within(text: &str, max_depth: usize) -> Value {
    let value = text_value(text);
    let container = value.is_array() || value.is_object();
    if container && Node::from_value(&value).depth() > max_depth {
        return Value::String(text.to_string());
    }
    value
}

fn key(text: &str) -> Str<'static> {
    Str {
        text: Cow::Owned(text.to_string()),
        quoting: Quoting::Double,
    }
}

fn object(entries: Vec<(String, Node<'static>)>) -> Node<'static> {
    Node::new(
        NodeKind::Object(
            entries
                .into_iter()
                .map(|(k, value)| Entry {
                    key: key(&k),
                    key_span: Span::default(),
                    value,
                })
                .collect(),
        ),
        Span::default(),
    )
}

/// The arguments as a node: JSON as is, text as an unquoted string (so the target's type
/// decides: `3` reads as a number for a `u8`, as `"3"` for a `String`), or the container it
/// holds when it is one.
fn arguments_node(raw: &RawCall, max_depth: usize) -> Node<'static> {
    object(
        raw.arguments
            .iter()
            .map(|(k, a)| {
                let node = match a {
                    Arg::Json(v) => Node::from_value(v),
                    Arg::Text(t) => text_node(t, max_depth),
                };
                (k.clone(), node)
            })
            .collect(),
    )
}

fn text_node(text: &str, max_depth: usize) -> Node<'static> {
    if let Some(container) = wire::value::json_container(text) {
        let node = Node::from_value(&container);
        if node.depth() <= max_depth {
            return node;
        }
    }
    Node::new(
        NodeKind::String(Str {
            text: Cow::Owned(text.to_string()),
            quoting: Quoting::Unquoted,
        }),
        Span::default(),
    )
}

/// Reads `raw`, its arguments as `args`, as a `T`: as `{name: arguments}` and as
/// `{"name", "arguments"}`, the reading without issues and with the lower cost winning.
fn typed<T: Extract>(
    raw: &RawCall,
    args: Node<'static>,
    max_depth: usize,
) -> Result<T, Vec<Issue>> {
    let external = object(vec![(raw.name.clone(), args.clone())]);
    let mut adjacent_entries = vec![
        (
            "name".to_string(),
            Node::from_value(&Value::String(raw.name.clone())),
        ),
        ("arguments".to_string(), args),
    ];
    if let Some(id) = &raw.id {
        adjacent_entries.push(("id".into(), Node::from_value(&Value::String(id.clone()))));
    }
    let adjacent = object(adjacent_entries);
    let mut best: Option<(u32, T)> = None;
    let mut failures: Vec<Vec<Issue>> = Vec::new();
    for (i, node) in [&external, &adjacent].into_iter().enumerate() {
        let mut cx = Context::new();
        cx.set_max_depth(max_depth);
        cx.expect_tool_name();
        let result = T::from_node(node, &mut cx);
        let cost = cx.cost();
        let (_, issues) = cx.into_parts();
        // Of two readings as good, the one shown the call's id keeps it.
        let keeps_id = i == 1 && raw.id.is_some();
        match result {
            Ok(v) if issues.is_empty() => {
                if best
                    .as_ref()
                    .is_none_or(|(c, _)| cost < *c || (cost == *c && keeps_id))
                {
                    best = Some((cost, v));
                }
            }
            _ => failures.push(issues),
        }
    }
    match best {
        Some((_, v)) => Ok(v),
        None => {
            // The reading with fewer issues says more; on a tie, the first (`{name: args}`,
            // whose paths run through the tool's name).
            let mut failures = failures;
            let best = (0..failures.len())
                .min_by_key(|&i| failures[i].len().max(1))
                .unwrap_or(0);
            let issues = std::mem::take(&mut failures[best]);
            if issues.is_empty() {
                Err(vec![Issue::new(
                    Category::Type,
                    Path::root(),
                    "the call does not fit the target type",
                )])
            } else {
                Err(issues)
            }
        }
    }
}

impl Extract for ToolCall {
    type Partial = crate::stream::NoPartial;

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<ToolCall, Failed> {
        if !matches!(node.kind, NodeKind::Object(_) | NodeKind::Array(_)) {
            return Err(cx.mismatch(
                "a tool call (an object with a tool name and arguments)",
                node,
            ));
        }
        let value = decoded_value(node, 0, cx.max_depth());
        match shape::calls_in(&value, shape::Context::Marked, cx.max_depth()) {
            Ok(calls) if calls.len() == 1 => {
                let raw = calls.into_iter().next().ok_or(Failed)?;
                Ok(to_tool_call(&raw, cx.max_depth()))
            }
            Ok(calls) => Err(cx.fail(
                Category::Type,
                format!("expected one tool call, found {}", calls.len()),
                node.span,
            )),
            Err(why) => Err(cx.fail(Category::Type, format!("not a tool call: {why}"), node.span)),
        }
    }
}

/// The node as JSON, with unquoted text read as the JSON it spells (`3`, `true`; a container
/// within `max_depth`), as the text-valued formats need. Deeper than the default depth limit
/// (the node was read within its reader's), the rest is converted as is.
fn decoded_value(node: &Node<'_>, depth: usize, max_depth: usize) -> Value {
    if depth > crate::settings::DEFAULT_MAX_DEPTH {
        return node.to_value();
    }
    match &node.kind {
        NodeKind::String(s) if s.quoting == Quoting::Unquoted => {
            text_value_within(&s.text, max_depth)
        }
        NodeKind::Array(items) => Value::Array(
            items
                .iter()
                .map(|n| decoded_value(n, depth + 1, max_depth))
                .collect(),
        ),
        NodeKind::Object(entries) => Value::Object(
            entries
                .iter()
                .map(|e| {
                    (
                        e.key.text.to_string(),
                        decoded_value(&e.value, depth + 1, max_depth),
                    )
                })
                .collect(),
        ),
        _ => node.to_value(),
    }
}
