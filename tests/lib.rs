//! What the integration tests (in `tests/tests/`, one file per behaviour, discovered by cargo)
//! share: the property-test strategies and the check of streamed tool calls. The example types the tests read (tool calls, plans,
//! stories, test results) live once, in the examples package's library.

/// Property-test strategies.
pub mod strategies {
    use proptest::prelude::*;
    use serde_json::{json, Value};

    /// Any JSON value: every scalar kind (finite floats, any string, strings full of JSON
    /// punctuation), nested arrays and objects up to depth 6.
    pub fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            any::<u64>().prop_map(|n| json!(n)),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(|f| json!(f)),
            ".*".prop_map(Value::String),
            "[a-z \"'\\\\/{}\\[\\],:]{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(6, 64, 8, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
                prop::collection::vec((".{0,8}", inner), 0..8)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
    }
}

/// Streamed tool calls checked against a read of the whole reply.
pub mod tool_stream {
    use llm_extract::tool::{self, StreamCalls, ToolCall};

    /// How a stream is told where the reply begins.
    #[derive(Clone, Copy, Debug)]
    pub enum Begins {
        /// The default: in the answer.
        Answer,
        /// `StreamCalls::begins_in_reasoning`.
        Reasoning,
    }

    /// The calls a read of the whole reply gives, for a stream that begins as `begins` says,
    /// and whether the reply held a call not run (cut off or doubtful).
    pub fn whole(text: &str, begins: Begins) -> (Vec<ToolCall>, bool) {
        let reply = match begins {
            Begins::Answer => llm_extract::Extractor::new()
                .tool_reply_begins_in_answer()
                .read_tool_calls(text),
            Begins::Reasoning => tool::read(text),
        };
        let unsure = !reply.incomplete.is_empty() || !reply.doubtful.is_empty();
        let calls = reply.calls.into_iter().map(|f| f.call).collect();
        (calls, unsure)
    }

    /// Pushes `chunks` (bytes, so a chunk may end inside a character) and checks that after
    /// every push the calls yielded so far are the first calls of the whole reply, and that
    /// with those `finish` returns they are all of them. Returns how many calls the pushes
    /// yielded (the rest came from `finish`).
    pub fn check(what: &str, text: &str, chunks: &[&[u8]], begins: Begins) -> usize {
        let (expected, cut_off) = whole(text, begins);
        let stream = StreamCalls::<ToolCall>::new();
        let mut stream = match begins {
            Begins::Answer => stream.begins_in_answer(),
            Begins::Reasoning => stream.begins_in_reasoning(),
        };
        let mut got: Vec<ToolCall> = Vec::new();
        for (i, chunk) in chunks.iter().enumerate() {
            got.extend(stream.push_bytes(chunk));
            assert!(
                got.len() <= expected.len() && got[..] == expected[..got.len()],
                "{what} ({begins:?}), after chunk {i} of {}: yielded {got:#?}, the whole reply has {expected:#?}",
                chunks.len()
            );
        }
        let pushed = got.len();
        match stream.finish() {
            Ok(rest) => got.extend(rest),
            Err(e) => assert!(
                cut_off
                    && matches!(
                        e.category(),
                        llm_extract::Category::Incomplete | llm_extract::Category::Doubtful
                    ),
                "{what} ({begins:?}): {e}"
            ),
        }
        if !cut_off {
            assert_eq!(
                got,
                expected,
                "{what} ({begins:?}): streamed in {} chunks",
                chunks.len()
            );
        }
        pushed
    }

    /// The calls `e`'s `StreamCalls` gives for `text` pushed a byte at a time, those the
    /// pushes yielded then those `finish` returns, or `finish`'s error.
    pub fn streamed_bytewise(
        e: &llm_extract::Extractor,
        text: &str,
    ) -> Result<Vec<ToolCall>, llm_extract::Error> {
        let mut stream = e.stream_calls::<ToolCall>();
        let mut got = Vec::new();
        for b in text.as_bytes() {
            got.extend(stream.push_bytes(&[*b]));
        }
        stream.finish().map(|rest| {
            got.extend(rest);
            got
        })
    }

    /// [`check`] for every split of `text` into two chunks at a byte and every chunking into
    /// pieces of 1 to 7 bytes, in both modes. Returns how many calls the pushes yielded
    /// with the text whole in one chunk, and in total over all the checks.
    pub fn check_every_chunking(what: &str, text: &str) -> usize {
        let bytes = text.as_bytes();
        let mut pushed = 0;
        for begins in [Begins::Answer, Begins::Reasoning] {
            for cut in 0..=bytes.len() {
                pushed += check(what, text, &[&bytes[..cut], &bytes[cut..]], begins);
            }
            for size in 1..=7 {
                let chunks: Vec<&[u8]> = bytes.chunks(size).collect();
                pushed += check(what, text, &chunks, begins);
            }
        }
        pushed
    }
}
