//! Tool calls read while the reply arrives: each call is yielded once, when its arguments
//! are complete, in the order and with the arguments a read of the whole reply gives.
//!
//! The stream keeps the reply and a settled point (`base`): every call before it has been
//! handled, and reading the text after it (with the reasoning state carried over) gives the
//! calls a read of the whole text would give there. Only the text after `base` is read again,
//! and only when a chunk could have completed something (a closing bracket, parenthesis, `>`
//! or a fence's backtick), or, in open reasoning, a reasoning token. The settled point moves to the start of the
//! last format token after every read, so a reply of many calls is read about once. Where it
//! cannot move (a long stretch of prose or one long call), the reads are paid for from a
//! credit of [`CREDIT`] bytes per byte pushed: whatever the chunking, the work stays linear.

use super::scan::{self, MAX_SUFFIX};
use super::verdict::{self, Verdict};
use super::wire::{self, Opening, Region};
use super::{arguments_node, call_issues, find_calls_from, typed, Found};
use crate::coerce::Extract;
use crate::error::{Category, Error, Issue};
use crate::extractor::Extractor;
use crate::locate::tags::{INKLING_ENDS, INKLING_THINKING};
use crate::path::Path;
use crate::settings::Settings;
use crate::span::Span;
use std::marker::PhantomData;

/// Bytes of reading each pushed byte pays for: a read of the unsettled text happens when a
/// chunk may have completed a call and the credit covers it.
const CREDIT: usize = 4;

/// The reasoning tokens of the token scan besides the settings' reasoning tags: Cohere's, the
/// special tokens of Gemma 4's thought channel, Seed-OSS and Kimi K3, and Inkling's reasoning
/// block with the markers that may close it (closers only after its opener, which a read of
/// the text decides: here each is only a reason to read), and the tokens that end gpt-oss's
/// analysis message (`<|channel|>` only begins one: a header inside one is its text).
const REASONING_TOKENS: [(&str, bool); 16] = [
    (INKLING_THINKING, false),
    (INKLING_ENDS[0], true),
    (INKLING_ENDS[1], true),
    (INKLING_ENDS[2], true),
    ("<|START_THINKING|>", false),
    ("<|END_THINKING|>", true),
    ("<|channel>", false),
    ("<channel|>", true),
    ("<seed:think>", false),
    ("</seed:think>", true),
    ("<|open|>think<|sep|>", false),
    ("<|close|>think<|sep|>", true),
    ("<|end|>", true),
    ("<|call|>", true),
    ("<|start|>", true),
    ("<|channel|>", false),
];

/// What the stream waits for before reading again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wait {
    /// A byte that may complete a call: `}`, `]`, `)`, `>`, or the backtick of a fence's
    /// closing run (Gemma's `tool_code`).
    Closing,
    /// A reasoning closer: the text ends in open reasoning, where no call is final until
    /// the block closes (a closed block holds drafts) or the reply ends.
    ReasoningCloser,
    /// Any reasoning token: the reply may have begun inside reasoning, so no call is final
    /// until the first reasoning token says whether it did, or the reply ends.
    ReasoningToken,
}

/// Tool calls yielded while the reply streams in, each once its arguments are complete.
/// See the [module documentation](super#streaming).
///
/// ```
/// use llm_extract::tool::{StreamCalls, ToolCall};
/// let mut stream = StreamCalls::<ToolCall>::new().begins_in_answer();
/// let mut names = Vec::new();
/// for chunk in ["<tool_call>{\"name\": \"get_we", "ather\", \"arguments\": {\"city\": \"Paris\"}}</tool", "_call>\n<tool_call>{\"name\": \"search\", \"argu"] {
///     names.extend(stream.push(chunk).into_iter().map(|c| c.name));
/// }
/// assert_eq!(names, ["get_weather"]); // the second call is not complete yet
/// let err = stream.finish().unwrap_err(); // and never will be: it is reported, not run
/// assert_eq!(err.category(), llm_extract::Category::Incomplete);
/// ```
pub struct StreamCalls<T: Extract = super::ToolCall> {
    settings: Settings,
    /// The reasoning tokens to wait for (`<think>`, `</think>`, ...), each with whether it
    /// closes, and the longest one's length: how far back a search starts in a new chunk,
    /// so a token split between chunks is found.
    reasoning_tokens: Vec<(String, bool)>,
    longest_token: usize,
    text: String,
    /// The bytes of a UTF-8 character cut off by the end of the last chunk.
    cut: Vec<u8>,
    /// Every call before it has been handled, and reading resumes here.
    base: usize,
    /// How the text at `base` begins.
    opening: Opening,
    /// Calls after `base` already handled (yielded, or recorded as not fitting `T`).
    taken: usize,
    /// Calls handled before `base`, for numbering calls in messages.
    taken_before: usize,
    /// A call written on its own came before `base` (`verdict::annotate`).
    standalone: bool,
    /// Answer text holding no call came before `base` (`Calls::prose_at`).
    prose: bool,
    /// Bytes of reading paid for and not yet spent.
    credit: usize,
    wait: Wait,
    /// Where the search for what the stream waits for resumes.
    searched: usize,
    /// Something awaited was seen and not yet read (the credit did not cover it).
    due: bool,
    /// The first call not final waits for the text after it (a JSON value that may read
    /// on past its closer, a fence's closing run whose line has not ended): the next byte
    /// may settle it.
    read_on: bool,
    /// Calls that did not fit `T`, placed in the reply.
    issues: Vec<Issue>,
    /// Calls not run (cut off, doubtful), placed in the reply.
    unsure: Vec<Issue>,
    too_large: Option<Issue>,
    /// The format of the first call read, which `finish`'s feedback asks for again.
    format: Option<super::Format>,
    _target: PhantomData<fn() -> T>,
}

impl<T: Extract> std::fmt::Debug for StreamCalls<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamCalls")
            .field("text", &self.text.len())
            .field("settled", &self.base)
            .field("issues", &self.issues)
            .finish_non_exhaustive()
    }
}

impl<T: Extract> Default for StreamCalls<T> {
    fn default() -> Self {
        StreamCalls::new()
    }
}

impl Extractor {
    /// A [`StreamCalls`] with these settings: the tool formats, whether calls cut off or
    /// doubtful are yielded ([`Extractor::allow_incomplete_tool_calls`],
    /// [`Extractor::allow_doubtful_tool_calls`]), where the reply begins
    /// ([`Extractor::tool_reply_begins_in_answer`]), the reasoning tags, `max_payload` and
    /// `max_depth`.
    ///
    /// ```
    /// use llm_extract::{tool::Format, Extractor};
    /// let e = Extractor::new().tool_formats(&[Format::Hermes]).tool_reply_begins_in_answer();
    /// let mut stream = e.stream_calls::<llm_extract::tool::ToolCall>();
    /// assert!(stream.push(r#"[TOOL_CALLS] [{"name": "f", "arguments": {}}] "#).is_empty());
    /// assert_eq!(stream.push(r#"<tool_call>{"name": "g", "arguments": {}}</tool_call>"#)[0].name, "g");
    /// ```
    pub fn stream_calls<T: Extract>(&self) -> StreamCalls<T> {
        let mut reasoning_tokens: Vec<(String, bool)> = (REASONING_TOKENS.iter())
            .map(|(t, closer)| (t.to_string(), *closer))
            .collect();
        for tag in &self.settings.reasoning_tags {
            reasoning_tokens.push((format!("<{tag}>"), false));
            reasoning_tokens.push((format!("</{tag}>"), true));
            // With a checkpoint's suffix (`<think:6124c78e>`): its start is the reason to read.
            reasoning_tokens.push((format!("<{tag}:"), false));
            reasoning_tokens.push((format!("</{tag}:"), true));
        }
        let longest_token = reasoning_tokens
            .iter()
            .map(|(t, _)| t.len())
            .max()
            .unwrap_or(0);
        let opening = self.settings.tool.opening;
        StreamCalls {
            settings: self.settings.clone(),
            reasoning_tokens,
            longest_token,
            text: String::new(),
            cut: Vec::new(),
            base: 0,
            opening,
            taken: 0,
            taken_before: 0,
            standalone: false,
            prose: false,
            credit: 0,
            wait: if opening == Opening::Reply {
                Wait::ReasoningToken
            } else {
                Wait::Closing
            },
            searched: 0,
            due: false,
            read_on: false,
            issues: Vec::new(),
            unsure: Vec::new(),
            too_large: None,
            format: None,
            _target: PhantomData,
        }
    }
}

impl<T: Extract> StreamCalls<T> {
    /// A stream with the default settings: every format, calls cut off or doubtful never
    /// yielded, and a reply that may begin inside reasoning (see
    /// [`StreamCalls::begins_in_answer`]).
    pub fn new() -> StreamCalls<T> {
        Extractor::new().stream_calls()
    }

    /// The reply may begin inside reasoning whose opener was in the prompt (the chat
    /// templates of DeepSeek R1 and Qwen3 thinking models do this), as a read of the whole
    /// reply assumes too: the default. Calls written before the first reasoning token are
    /// held back: dropped as drafts if that token is a closer (`</think>`), yielded if it is
    /// an opener or the reply ends without one.
    ///
    /// ```
    /// use llm_extract::tool::{StreamCalls, ToolCall};
    /// let mut stream = StreamCalls::<ToolCall>::new().begins_in_reasoning();
    /// let draft = "Maybe <tool_call>{\"name\": \"rm\", \"arguments\": {}}</tool_call>?";
    /// assert!(stream.push(draft).is_empty());
    /// assert!(stream.push("</think>Done.").is_empty());
    /// assert!(stream.finish().unwrap().is_empty());
    /// ```
    pub fn begins_in_reasoning(self) -> StreamCalls<T> {
        self.beginning(Opening::Reply)
    }

    /// The reply begins in the answer (the prompt opened no reasoning): a call before any
    /// reasoning token is yielded as soon as it is complete, and a reasoning closer without
    /// an opener is ignored. What [`Extractor::tool_reply_begins_in_answer`] reads whole.
    ///
    /// ```
    /// use llm_extract::tool::{StreamCalls, ToolCall};
    /// let call = "<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>";
    /// let mut stream = StreamCalls::<ToolCall>::new();
    /// assert!(stream.push(call).is_empty()); // held: a `</think>` may still follow
    /// assert_eq!(stream.finish().unwrap().len(), 1);
    /// let mut stream = StreamCalls::<ToolCall>::new().begins_in_answer();
    /// assert_eq!(stream.push(call).len(), 1);
    /// ```
    pub fn begins_in_answer(self) -> StreamCalls<T> {
        self.beginning(Opening::Answer)
    }

    fn beginning(mut self, opening: Opening) -> StreamCalls<T> {
        if self.text.is_empty() {
            self.opening = opening;
            self.settings.tool.opening = opening;
            self.wait = match opening {
                Opening::Reply => Wait::ReasoningToken,
                Opening::Answer => Wait::Closing,
            };
        }
        self
    }

    /// Adds `chunk` to the reply and returns the calls it completed, in order, each once.
    ///
    /// A call that does not fit `T` is not returned; [`StreamCalls::finish`] reports it.
    /// Past `Extractor::max_payload` the stream stops growing and `finish` reports it.
    pub fn push(&mut self, chunk: &str) -> Vec<T> {
        if self.too_large.is_some() || chunk.is_empty() {
            return Vec::new();
        }
        if let Some(max) = self.settings.max_payload {
            let len = self.text.len() + chunk.len();
            if len > max {
                self.too_large = Some(
                    Issue::new(
                        Category::TooLarge,
                        Path::root(),
                        format!(
                            "the streamed reply grew past max_payload ({max} bytes): {len} bytes"
                        ),
                    )
                    .at(Span::at(self.text.len())),
                );
                return Vec::new();
            }
        }
        self.text.push_str(chunk);
        self.credit = self.credit.saturating_add(CREDIT * chunk.len());
        self.due |= self.awaited_arrived();
        self.searched = self.text.len();
        if self.due && self.credit >= self.text.len() - self.base {
            self.due = false;
            return self.read(false);
        }
        Vec::new()
    }

    /// [`StreamCalls::push`] for bytes: a UTF-8 character split between chunks is kept until
    /// it is whole; invalid bytes become U+FFFD.
    pub fn push_bytes(&mut self, chunk: &[u8]) -> Vec<T> {
        let text = crate::stream::whole_chars(&mut self.cut, chunk);
        self.push(&text)
    }

    /// The reply so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The reply has ended: the calls only its end completes (calls in reasoning left open,
    /// calls held by [`StreamCalls::begins_in_reasoning`], a pythonic list without
    /// brackets), in order.
    ///
    /// An error (category [`Category::Incomplete`]) when the reply ended inside a call: that
    /// call is never returned unless the settings allow calls cut off. Also an error when a
    /// call did not fit `T` (each named, with the tool and the argument path, as
    /// [`super::calls`] does) or the reply grew past `max_payload`.
    pub fn finish(mut self) -> Result<Vec<T>, Error> {
        if !self.cut.is_empty() {
            let cut = std::mem::take(&mut self.cut);
            self.text.push_str(&String::from_utf8_lossy(&cut));
        }
        let last = self.read(true);
        // As the whole read gives them: the calls not run in the order of the calls, then,
        // when calls did not fit `T`, all in text order (a call decided only now may come
        // before one a push reported).
        let misfits = std::mem::take(&mut self.issues);
        self.issues = std::mem::take(&mut self.unsure);
        if !misfits.is_empty() {
            self.issues.extend(misfits);
            self.issues.sort_by_key(|i| i.span.map_or(0, |s| s.start));
        }
        if let Some(issue) = self.too_large.take() {
            self.issues.insert(0, issue);
        }
        if self.issues.is_empty() {
            Ok(last)
        } else {
            let issues = std::mem::take(&mut self.issues);
            Err(super::tool_error(issues, &self.text, self.format))
        }
    }

    /// Whether the text pushed since the last search holds what the stream waits for.
    fn awaited_arrived(&self) -> bool {
        let bytes = self.text.as_bytes();
        match self.wait {
            Wait::Closing => {
                // A token cut short at the end settles nothing before it until it is whole
                // (its last byte is a closing one) or turns out to be text.
                let cut_short = || {
                    scan::partial_token(&self.text[self.base..], &self.settings.reasoning_tags)
                        .is_some()
                };
                (self.read_on && self.searched < bytes.len() && !cut_short())
                    || bytes[self.searched..]
                        .iter()
                        .any(|b| matches!(b, b'}' | b']' | b')' | b'>' | b'`'))
            }
            Wait::ReasoningCloser | Wait::ReasoningToken => {
                // Back far enough to see a token split between chunks, and the start of
                // one with a checkpoint's suffix (`</think:...>`) until its `>` has come.
                let from = self
                    .searched
                    .saturating_sub(self.longest_token + MAX_SUFFIX + 1)
                    .max(self.base);
                let closers_only = self.wait == Wait::ReasoningCloser;
                memchr::memchr_iter(b'<', &bytes[from..]).any(|i| {
                    let rest = &bytes[from + i..];
                    self.reasoning_tokens.iter().any(|(token, closer)| {
                        (*closer || !closers_only)
                            && rest.len() >= token.len()
                            && rest[..token.len()].eq_ignore_ascii_case(token.as_bytes())
                    })
                })
            }
        }
    }

    /// Reads the text after `base` and handles the calls that are final: complete, and read
    /// the same whatever text follows (all of them at the end of the reply).
    fn read(&mut self, at_end: bool) -> Vec<T> {
        // On a stack with room for the depth `max_depth` allows, as the whole read is.
        let tail = &self.text[self.base..];
        let depth = crate::deep::text_depth(tail, self.settings.max_depth);
        crate::deep::for_depth(depth, || self.read_here(at_end))
    }

    fn read_here(&mut self, at_end: bool) -> Vec<T> {
        let (before, tail) = self.text.split_at(self.base);
        self.credit = self.credit.saturating_sub(tail.len());
        let mut found = find_calls_from(
            tail,
            before,
            self.opening,
            &self.settings,
            self.standalone,
            self.prose,
        );
        // Before any reasoning token of a reply that may have begun in reasoning, no call's
        // region is known yet.
        let region_known = at_end || self.opening == Opening::Answer || found.reasoning_seen;
        let resume_at = found.resume.map(|r| r.at);
        let undecided = (!at_end).then(|| self.undecided(tail, &found)).flatten();
        let mut out = Vec::new();
        let mut calls = 0;
        let mut calls_before_resume = 0;
        let mut standalone_before_resume = false;
        let mut first_pending = None;
        self.read_on = false;
        let tool = self.settings.tool;
        for hit in std::mem::take(&mut found.hits) {
            let verdict = verdict::verdict(&hit, tool);
            let pending = !at_end && pending(&hit, &verdict, &found, region_known, undecided);
            if pending {
                first_pending = Some(hit.span.start);
                self.read_on = hit.until_end;
                break;
            }
            // As the whole read counts it, whatever its verdict.
            if hit.on_its_own && resume_at.is_some_and(|at| hit.span.start < at) {
                standalone_before_resume = true;
            }
            if !matches!(verdict, Verdict::Refused(_)) {
                self.format.get_or_insert(hit.format);
            }
            match verdict {
                Verdict::Refused(_) => continue,
                // Final (cut off by a later call, or by the end of the reply) and not run:
                // reported once, as the whole read reports it.
                Verdict::CutOff | Verdict::Doubtful if !allowed(&verdict, tool) => {
                    calls += 1;
                    if resume_at.is_some_and(|at| hit.span.start < at) {
                        calls_before_resume += 1;
                    }
                    if calls > self.taken {
                        self.taken += 1;
                        self.unsure
                            .push(unsure(hit, &verdict, self.base, self.settings.max_depth));
                    }
                    continue;
                }
                _ => {}
            }
            calls += 1;
            if resume_at.is_some_and(|at| hit.span.start < at) {
                calls_before_resume += 1;
            }
            if calls > self.taken {
                self.taken += 1;
                let index = self.taken_before + self.taken - 1;
                match typed_call::<T>(hit, tail, index, self.base, self.settings.max_depth) {
                    Ok(value) => out.push(value),
                    Err(issues) => self.issues.extend(issues),
                }
            }
        }
        if at_end {
            return out;
        }
        let unsettled = first_pending.into_iter().chain(undecided).min();
        let moved = self.settle(&found, unsettled, calls_before_resume, region_known);
        self.standalone |= moved && standalone_before_resume;
        self.searched = self.text.len();
        out
    }

    /// Where the text `tail` (read as `found`) leaves everything after undecided, more text
    /// still to come. A token the text may still complete (`<function=` waiting for its `>`)
    /// may take in what was read after its start, a token cut short at the end (`<|im_e`,
    /// `</fun`) may end the body before it once whole, and a string cut by a line break may
    /// run on over what came after the break.
    fn undecided(&self, tail: &str, found: &super::Calls) -> Option<usize> {
        (scan::undecided_token(tail).into_iter())
            .chain(scan::partial_token(tail, &self.settings.reasoning_tags))
            .chain(found.open_string)
            .min()
    }

    /// After a read: the settled point moves to the resume point when every call before it
    /// is handled and nothing before it is undecided (`unsettled`: the first pending call or
    /// undecided token; the calls after it are counted afresh by the next read), and the
    /// stream waits for what may change the reading.
    /// Returns whether the settled point moved.
    fn settle(
        &mut self,
        found: &super::Calls,
        unsettled: Option<usize>,
        calls_before_resume: usize,
        region_known: bool,
    ) -> bool {
        let mut moved = false;
        if let Some(resume) = found.resume {
            if resume.at > 0 && unsettled.is_none_or(|p| p >= resume.at) {
                moved = true;
                self.prose |= found.prose_at.is_some_and(|at| at < resume.at);
                self.taken_before += calls_before_resume;
                self.taken -= calls_before_resume;
                self.base += resume.at;
                if resume.reasoning_seen {
                    self.opening = Opening::Answer;
                }
            }
        }
        self.wait = if found.ends_in_reasoning {
            Wait::ReasoningCloser
        } else if !region_known {
            Wait::ReasoningToken
        } else {
            Wait::Closing
        };
        moved
    }
}

/// Call `index` of the reply as a `T`, or its issues, placed in the reply (`tail` begins at
/// `base`).
fn typed_call<T: Extract>(
    hit: wire::Hit,
    tail: &str,
    index: usize,
    base: usize,
    max_depth: usize,
) -> Result<T, Vec<Issue>> {
    let found = Found::from_hit(hit, index, max_depth);
    typed::<T>(&found.raw, arguments_node(&found.raw, max_depth), max_depth).map_err(|first| {
        call_issues::<T>(tail, &found, first, max_depth)
            .into_iter()
            .map(|i| shifted(i, base))
            .collect()
    })
}

/// Whether more text may still change how `hit` (with its verdict) reads, in a text still
/// arriving: it reaches past a token still undecided (`undecided`), lies in reasoning still
/// open or in a region not known yet, or its reading depends on what follows.
fn pending(
    hit: &wire::Hit,
    verdict: &Verdict,
    found: &super::Calls,
    region_known: bool,
    undecided: Option<usize>,
) -> bool {
    if undecided.is_some_and(|at| hit.span.end > at)
        || hit.region == Region::OpenReasoning
        || !region_known
    {
        return true;
    }
    // In the last step or the text after it: more text may still change it. A guess may read
    // otherwise once more text comes: a doubtful call is final only when a later step settled
    // it, or at the end. A call whose reading depends on the end of the text (a block closed
    // just now, prose before it on its line) waits wherever its step began.
    let open = hit.span.start >= found.open_from;
    hit.until_end || open && (!hit.complete || found.held || *verdict == Verdict::Doubtful)
}

/// Whether the settings let a call cut off or doubtful be yielded.
fn allowed(verdict: &Verdict, tool: super::ToolSettings) -> bool {
    match verdict {
        Verdict::CutOff => tool.allow_incomplete,
        Verdict::Doubtful => tool.allow_doubtful,
        _ => true,
    }
}

/// The issue of a call not run, cut off or doubtful, as the whole read gives it.
fn unsure(hit: wire::Hit, verdict: &Verdict, base: usize, max_depth: usize) -> Issue {
    // The message names the call by its tool, not its place.
    let found = Found::from_hit(hit, 0, max_depth);
    let issue = match verdict {
        Verdict::CutOff => super::cut_off_issue(&found),
        _ => super::doubtful_issue(&found),
    };
    shifted(issue, base)
}

fn shifted(mut issue: Issue, by: usize) -> Issue {
    issue.span = issue.span.map(|s| s.shift(by));
    issue
}
