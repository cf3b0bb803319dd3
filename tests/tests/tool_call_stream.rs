//! Streamed tool calls (`tool::StreamCalls`): each call yielded once, by the push that
//! completes it, however the reply is cut into chunks, in linear time; calls cut off by the
//! end of the stream reported, never yielded. Every fixture of every wire format is also
//! streamed under every chunking in tool_calls.rs and tool_call_marker.rs.

use llm_extract::tool::{StreamCalls, ToolCall};
use llm_extract::{Category, Extractor};
use llm_extract_tests::tool_stream::check_every_chunking;
use std::time::Instant;

fn hermes(i: usize) -> String {
    format!("<tool_call>\n{{\"name\": \"search\", \"arguments\": {{\"q\": \"query {i}\"}}}}\n</tool_call>\n")
}

#[test]
fn each_call_of_a_long_reply_comes_from_the_push_that_completes_it() {
    let text: String = (0..2_000).map(hermes).collect();
    let mut stream = StreamCalls::<ToolCall>::new().begins_in_answer();
    let mut got = Vec::new();
    let mut pushed = 0;
    for chunk in text.as_bytes().chunks(16) {
        pushed += chunk.len();
        got.extend(stream.push_bytes(chunk));
        // Every call whose JSON has closed by now, and been followed by a byte that says it
        // does not read on (`</tool_call>`'s `<`), has been yielded, unless the text ends
        // in a token cut short (`</tool_ca`, `<tool`), which may end the body before it.
        let so_far = &text[..pushed];
        let settled = match so_far.rfind('<') {
            Some(at) if !so_far[at..].contains('>') => &so_far[..at],
            _ => so_far,
        };
        let closed = settled.matches("}}\n<").count();
        assert_eq!(got.len(), closed, "after {pushed} bytes");
    }
    assert!(stream.finish().unwrap().is_empty());
    assert_eq!(got.len(), 2_000);
    assert_eq!(got[1_999].arguments["q"], "query 1999");
}

#[test]
fn markers_split_across_chunks_are_found() {
    for text in [
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Paris\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Paris\"}<|tool_call_end|><|tool_calls_section_end|>",
        "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Paris\"}<|call|>",
        "Sure. TOOL_CALL {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}} ok",
    ] {
        check_every_chunking(text, text);
        // Pushed a byte at a time, the call comes before the reply ends.
        let mut stream = StreamCalls::<ToolCall>::new().begins_in_answer();
        let got: Vec<ToolCall> = text.as_bytes().iter().flat_map(|b| stream.push_bytes(&[*b])).collect();
        assert_eq!(got.len(), 1, "{text}");
        assert_eq!(got[0].name, "get_weather", "{text}");
    }
}

#[test]
fn a_call_cut_off_by_the_end_of_the_stream_is_an_error_and_never_yielded() {
    let mut stream = StreamCalls::<ToolCall>::new();
    assert!(stream
        .push("<tool_call>{\"name\": \"run_shell\", \"arguments\": {\"cmd\": \"rm -rf /tmp/build")
        .is_empty());
    let err = stream.finish().unwrap_err();
    assert_eq!(err.category(), Category::Incomplete);
    assert!(err.to_string().contains("`run_shell` was cut off"), "{err}");
    // Unless the caller opted in.
    let mut stream = Extractor::new()
        .allow_incomplete_tool_calls()
        .stream_calls::<ToolCall>();
    stream.push("<tool_call>{\"name\": \"search\", \"arguments\": {\"q\": \"ru");
    assert_eq!(stream.finish().unwrap()[0].arguments["q"], "ru");
}

#[test]
fn calls_in_reasoning_wait_for_it_to_close_or_the_reply_to_end() {
    let call = "<tool_call>{\"name\": \"search\", \"arguments\": {\"q\": \"x\"}}</tool_call>";
    // Closed: a draft, never yielded.
    let mut stream = StreamCalls::<ToolCall>::new();
    assert!(stream.push(&format!("<think>maybe {call}")).is_empty());
    assert!(stream.push("</think>No call needed.").is_empty());
    assert!(stream.finish().unwrap().is_empty());
    // Left open to the end: the reply's call, from `finish`.
    let mut stream = StreamCalls::<ToolCall>::new();
    assert!(stream.push(&format!("<think>calling {call}")).is_empty());
    assert_eq!(stream.finish().unwrap().len(), 1);
    // After reasoning opened in the prompt, when the stream is told so.
    let mut stream = StreamCalls::<ToolCall>::new().begins_in_reasoning();
    assert!(stream.push(&format!("draft {call}")).is_empty());
    assert!(stream.push("</think>\n").is_empty());
    assert_eq!(stream.push(call).len(), 1);
    assert!(stream.finish().unwrap().is_empty());
}

#[test]
fn past_max_payload_the_stream_stops_and_finish_says_why() {
    let mut stream = Extractor::new()
        .max_payload(100)
        .tool_reply_begins_in_answer()
        .stream_calls::<ToolCall>();
    assert_eq!(stream.push(&hermes(1)).len(), 1);
    assert!(stream.push(&hermes(2)).is_empty());
    let err = stream.finish().unwrap_err();
    assert!(err.to_string().contains("max_payload"), "{err}");
}

/// Pushes `text` in `size`-byte chunks; the time taken.
fn streamed(text: &str, size: usize) -> std::time::Duration {
    let start = Instant::now();
    let mut stream = StreamCalls::<ToolCall>::new().begins_in_answer();
    let mut n = 0;
    for chunk in text.as_bytes().chunks(size) {
        n += stream.push_bytes(chunk).len();
    }
    n += stream.finish().map_or(0, |c| c.len());
    std::hint::black_box(n);
    start.elapsed()
}

#[test]
fn streaming_takes_linear_time_whatever_the_input() {
    // Inputs where re-reading the unsettled text at every chunk would be quadratic: one long
    // call, long prose full of closing brackets, reasoning full of them, unclosed markers.
    let long_argument = format!(
        "<tool_call>{{\"name\": \"write\", \"arguments\": {{\"text\": \"{}\"}}}}</tool_call>",
        "a} b] c) d> ".repeat(20_000)
    );
    let units = [
        long_argument,
        "{\"a\": 1} [x] (y) <z> ".repeat(12_000),
        format!(
            "<think>{}",
            "{} <tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call> ".repeat(4_000)
        ),
        "<tool_call>{".repeat(20_000),
        "[f(a=1)".repeat(30_000),
    ];
    for text in &units {
        let half = streamed(&text[..text.len() / 2], 16);
        let whole = streamed(text, 16);
        // Quadratic work on 240 KB in 16-byte chunks would be ~10^9 bytes read: minutes in
        // a debug build. Linear work is a fraction of a second.
        assert!(whole.as_secs() < 20, "{:?} for {} bytes", whole, text.len());
        eprintln!("{} bytes: half {half:?}, whole {whole:?}", text.len());
    }
}

/// Bare pythonic calls are calls only when they are the whole reply: the stream yields them
/// from `finish`, never from a push (more text could still make them a sentence's).
#[test]
fn bare_pythonic_calls_wait_for_the_end_of_the_reply() {
    let text = "get_weather(city='Paris', days=3), search(q='x')";
    check_every_chunking(text, text);
    let mut stream = StreamCalls::<ToolCall>::new();
    assert!(stream.push(text).is_empty());
    let calls = stream.finish().unwrap();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[1].name, "search");
    let mut stream = StreamCalls::<ToolCall>::new();
    assert!(stream.push(text).is_empty());
    assert!(stream.push(" and then more").is_empty());
    assert!(stream.finish().unwrap().is_empty());
}

/// A step that a reasoning token interrupts (a body still open when `</think>` comes) began
/// in another region than the answer after it: a stream settles nothing inside it, and reads
/// it as the whole reply does (here a draft, not a call cut off).
#[test]
fn a_step_a_reasoning_closer_interrupts_is_read_as_the_whole_reply_reads_it() {
    let text = " ]<]minimax[>[<tool_call><invoke name=\"h\"></think></invoke>";
    assert!(llm_extract::tool::calls::<ToolCall>(text)
        .unwrap()
        .is_empty());
    check_every_chunking(text, text);
    let mut stream = StreamCalls::<ToolCall>::new();
    assert!(stream.push(text).is_empty());
    assert!(stream.finish().unwrap().is_empty());
}

/// A `tool_code` fence's closing run at the end of the text closes nothing yet: `` ```{ ``
/// is no closing line, and the whole reply holds no call.
#[test]
fn a_fence_closing_run_at_the_end_of_the_text_waits_for_its_line_to_end() {
    let text = "```tool_code\nm(h='')\n```{";
    assert!(llm_extract::tool::tool_calls(text).is_empty());
    check_every_chunking(text, text);
    let mut stream = StreamCalls::<ToolCall>::new().begins_in_answer();
    assert!(stream.push("```tool_code\nm(h='')\n```").is_empty());
    assert!(stream.push("{").is_empty());
    assert!(stream.finish().unwrap().is_empty());
    // Closed by its line's end, the call is the reply's, yielded by the line break.
    let text = "```tool_code\nm(h='')\n```\nDone.";
    check_every_chunking(text, text);
    let mut stream = StreamCalls::<ToolCall>::new().begins_in_answer();
    assert!(stream.push("```tool_code\nm(h='')\n```").is_empty());
    assert_eq!(stream.push("\n").len(), 1);
}

/// A JSON body with no closer after it may be read on past its closing bracket (`}"x": 1}`
/// is one object with more members, left open): the stream holds its calls until a byte
/// that continues no value follows, as for a JSON value in prose, and never yields a call
/// the whole reply reports as cut off.
#[test]
fn a_json_body_without_its_closer_waits_for_what_follows_it() {
    for text in [
        "<tool_call>{\"name\":\"s\",\"arguments\":{}}\"x\": 1}",
        "<tool_call>{\"name\":\"s\"\"\":\"g\"\"f\":True}\"\":",
        "[TOOL_CALLS] [{\"name\": \"s\", \"arguments\": {}}], \"x\"]",
        "[TOOL_CALLS]s[ARGS]{\"q\": 1}\"r\": 2",
        "[TOOL_CALLS]s{\"q\": 1}\"r\": 2",
        "TOOL_CALL {\"name\": \"s\", \"arguments\": {}}, \"x\": 1}",
        "<|python_tag|>{\"name\": \"s\", \"parameters\": {}}\"x\": 1}",
    ] {
        assert!(llm_extract::tool::tool_calls(text).is_empty(), "{text}");
        check_every_chunking(text, text);
    }
    // Followed by a line of prose, the call is decided and yielded before the end.
    let mut stream = StreamCalls::<ToolCall>::new().begins_in_answer();
    assert!(stream.push("[TOOL_CALLS]s[ARGS]{\"q\": 1}").is_empty());
    assert_eq!(stream.push("\nDone.").len(), 1);
    assert!(stream.finish().unwrap().is_empty());
}

/// A JSON string cut by a line break makes the calls written after it doubtful, however far
/// the stream has settled: a stream that settled at the next call's opener once read it
/// without the string before it, and yielded a call the whole reply reports as doubtful.
#[test]
fn a_call_after_a_cut_string_stays_doubtful_past_the_settled_point() {
    let text = "<tool_call>\n{\"name\": \"f\", arguments\": {}}\n</tool_call>\n<tool_call>\n{\"name\": \"run_shell\", \"arguments\": {}}\n</tool_call>";
    let whole = Extractor::new().tool_reply_begins_in_answer();
    let reply = whole.read_tool_calls(text);
    assert!(
        reply.calls.is_empty() && reply.doubtful.len() == 2,
        "{reply:?}"
    );
    for size in [1, 7, 64] {
        let mut stream = StreamCalls::<ToolCall>::new().begins_in_answer();
        for chunk in text.as_bytes().chunks(size) {
            assert!(stream.push_bytes(chunk).is_empty(), "{size}");
        }
        assert_eq!(stream.finish().unwrap_err().category(), Category::Doubtful);
    }
    check_every_chunking(text, text);
}

/// A reasoning closer the token pass leaves in the answer (inside a JSON value, or without
/// an opener in a reply that begins in the answer) is text to the JSON values around it
/// too: the value reader once took it as the end of reasoning the reply began in, and the
/// whole read dropped the call before it, unreported, that the stream had yielded.
#[test]
fn a_reasoning_closer_left_in_the_answer_hides_no_call_before_it() {
    let text = "{\"name\":\"a\",\"arguments\":{}}\n{\"x\": \"u\"</think>\n}";
    for e in [
        Extractor::new(),
        Extractor::new().tool_reply_begins_in_answer(),
    ] {
        let calls = e.tool_calls(text);
        assert_eq!(calls.len(), 1, "{calls:?}");
        assert_eq!(calls[0].name, "a");
    }
    let fenced = "```json\n{\"name\": \"calc\", \"arguments\": {}}\n```\n```json\n{\"name\": \"g\", \"arguments\": {\"u\": \"x\"</think>\n}}\n```";
    let reply = Extractor::new()
        .tool_reply_begins_in_answer()
        .read_tool_calls(fenced);
    assert_eq!(reply.calls.len(), 1, "{reply:?}");
    assert_eq!(reply.calls[0].call.name, "calc");
    check_every_chunking(text, text);
    check_every_chunking(fenced, fenced);
}

/// A token cut short by the end of a chunk (`<|im_e`, `</fun`) may end the body of the
/// call before it once whole, and the body then reads otherwise: the stream once read the
/// call with the token's prefix as body text and yielded what the whole reply reports as
/// doubtful or cut off.
#[test]
fn a_token_cut_short_by_a_chunk_decides_nothing_before_it() {
    for (text, cut) in [
        (
            "[TOOL_CALLS] [{\"name\": \"f\", \"arguments\": {\"body\":\"hi\"}```}]<|im_end|>",
            "<|i",
        ),
        (
            "<|tools_prefix|>[{\"book-flight\": {}}]</function><|tools_suffix|>\nBye.",
            "</fun",
        ),
    ] {
        let reply = llm_extract::tool::read(text);
        assert!(reply.calls.is_empty(), "{text}: {reply:?}");
        let at = text.find(cut).unwrap() + cut.len();
        let mut stream = StreamCalls::<ToolCall>::new().begins_in_answer();
        assert!(stream.push(&text[..at]).is_empty(), "{text}");
        assert!(stream.push(&text[at..]).is_empty(), "{text}");
        assert!(stream.finish().is_err(), "{text}");
    }
    let text = "<|tools_prefix|>[{\"book-flight\": {}}]</function><|tools_suffix|>\nBye.";
    check_every_chunking(text, text);
}

/// A reasoning tag written inside a call's body counts as the reply's first reasoning token,
/// as the whole read counts it: a stream that settled after that call once read on as if no
/// reasoning token had come, took a later stray `</think>` for the end of reasoning the
/// reply began in, and dropped the cut-off call after it that the whole read reports.
#[test]
fn a_reasoning_tag_inside_a_call_body_counts_before_the_settled_point() {
    let text = "<minimax:tool_call>\n<invoke name=\"calc\">\n<parameter name=\"x\">a<think></parameter>\n</invoke>\n</minimax:tool_call>\n<minimax:tool_call>\n<invoke name=\"g\">\n<parameter name</think>=\"x\">475</parameter>\n</invoke>\n</minimax:tool_call>";
    let reply = llm_extract::tool::read(text);
    assert_eq!(reply.incomplete.len(), 1, "{reply:?}");
    for size in [1, 7, 64] {
        let mut stream = StreamCalls::<ToolCall>::new();
        for chunk in text.as_bytes().chunks(size) {
            stream.push_bytes(chunk);
        }
        assert_eq!(
            stream.finish().unwrap_err().category(),
            Category::Incomplete,
            "{size}"
        );
    }
    check_every_chunking(text, text);
}

/// The calls of one run (Llama 3's, joined by `;`) share a span: the whole read once listed
/// the issues of a cut-off call before those of a doubtful one written before it, and its
/// error's category differed from the stream's, which meets them in text order.
#[test]
fn the_calls_of_one_run_are_reported_in_text_order() {
    let text = "<|python_tag|>{\"name\": \"f\", \"parameters\": {\"city\":: \"Paris\"}};{\"name\": \"g\", \"par";
    let whole = Extractor::new().calls::<ToolCall>(text).unwrap_err();
    assert_eq!(whole.category(), Category::Doubtful);
    for size in [1, 7, 64] {
        let mut stream = StreamCalls::<ToolCall>::new();
        for chunk in text.as_bytes().chunks(size) {
            stream.push_bytes(chunk);
        }
        let err = stream.finish().unwrap_err();
        assert_eq!(err.category(), whole.category(), "{size}");
        assert_eq!(err.issues().len(), whole.issues().len(), "{size}");
    }
}

/// A JSON body with no closer whose value holds a string a line break cut (its quotes
/// unescaped) is read by the quotes of the whole body, which later text adds to: the
/// stream yielded the call at the byte after the value, and the rest of the reply made the
/// whole read take the string to run on (the call then not one).
#[test]
fn a_body_holding_a_string_a_line_break_cut_waits_for_its_end() {
    for text in [
        "TOOL_CALL {\"tool_name\": \"b\", \"p\narameters\": {}}\nx {\"a\": 1,\"",
        "<|python_tag|>{\"name\": \"a\", \"parameters\": {}}; <|python_tag|>{\"name\": \"rm\", \"param\neters\": {}}; <\"|python_tag|>{\"name\": \"f\", \"parameters\": {}}<|im_end|>",
    ] {
        let whole = Extractor::new().tool_reply_begins_in_answer().tool_calls(text);
        assert!(whole.iter().all(|c| c.name != "b" && c.name != "rm"), "{text}: {whole:?}");
        check_every_chunking(text, text);
    }
    // Followed by its next token, the call is decided before the end.
    let mut stream = StreamCalls::<ToolCall>::new().begins_in_answer();
    assert!(stream
        .push("TOOL_CALL {\"tool_name\": \"b\", \"p\narameters\": {}}\n")
        .is_empty());
    assert_eq!(
        stream
            .push("TOOL_CALL {\"tool_name\": \"c\", \"arguments\": {}}")
            .len(),
        1
    );
}

/// A call is judged with the block it is written in (a DSML wrapper opened before it): a
/// stream that settled at the call read on without the block's opener, found prose before
/// the call on its line, refused it as a mention, and `finish` returned Ok where the whole
/// read reports the call as cut off.
#[test]
fn a_call_in_a_wrapper_block_is_judged_with_the_block_past_the_settled_point() {
    let text = "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"g\">\n<｜DS</tool_call>ML｜parameter name=\"x\" string=\"true\">San Franci<tool_call>sco</｜DSML｜parameter>\n<｜DSML｜parameter name=\"path\" string=\"false\">465</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>\nBye.";
    let whole = Extractor::new().tool_reply_begins_in_answer();
    assert_eq!(whole.read_tool_calls(text).incomplete.len(), 1);
    let mut stream = StreamCalls::<ToolCall>::new().begins_in_answer();
    assert!(stream.push(text).is_empty());
    assert_eq!(
        stream.finish().unwrap_err().category(),
        Category::Incomplete
    );
    check_every_chunking(text, text);
}

/// `finish` gives its issues in text order, as the whole read does: a doubtful call decided
/// only at the end of the reply once came after a later call that did not fit `T`, and the
/// error's category was that call's (`Variant`) where the whole read's was `Doubtful`.
#[test]
fn finish_gives_the_issues_in_text_order() {
    #[derive(llm_extract::Extract, Debug, PartialEq)]
    enum Tool {
        GetWeather { city: Option<String> },
        Search { query: Option<String> },
    }
    let text = "Okay.  [TOOL_CALLS] [{\"name\": \"search\", \"arguments\\\": {\"body\":\"x(y)\",\"opts\":322,\"to\":407}}]\n[TOOL_ALLS] [{\"name\": \"book-flight\", \"arguments\": {}}]\n[TOOL_CALLS] [{\"name\": \"send_email\", \"arguments\": {\"n\":\"<b>\"}}]\nLet me know if you need anything else.";
    let whole = Extractor::new().calls::<Tool>(text).unwrap_err();
    assert_eq!(whole.category(), Category::Doubtful);
    let mut stream = StreamCalls::<Tool>::new();
    for b in text.as_bytes() {
        stream.push_bytes(&[*b]);
    }
    let err = stream.finish().unwrap_err();
    assert_eq!(err.category(), whole.category());
    assert_eq!(err.issues().len(), whole.issues().len());
}
