//! Turns the token list of [`super::scan`] into calls, one handler per wire format.
//!
//! Every body is the text between one token and the next (or, where a call's argument holds
//! tokens, up to the first token after its arguments: they are its text), so each byte of the
//! reply is read by at most one handler: linear time however many markers are left unclosed.

mod apertus;
mod code;
mod dsml;
mod families;
mod gemma;
mod hunyuan;
mod inkling;
mod kimi3;
mod minicpm;
mod minimax3;
mod mistral;
mod olmo3;
mod params;
mod seed;
mod step3;
pub(crate) mod value;

use super::python::{self, PyError};
use super::scan::{body_opener, tokens, Tok, Token};
use super::shape::{self, Arg, Context, RawCall, Source};
use super::Format;
use crate::span::Span;
use code::CodeEnd;
use params::{Values, MINIMAX_VALUES, QWEN_VALUES};
use serde_json::Value;

/// Where a call or a piece of text sits relative to reasoning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Region {
    /// Outside any reasoning block.
    Answer,
    /// Inside a reasoning block that is never closed (the reply ends in it).
    OpenReasoning,
    /// Inside a closed reasoning block: a draft, never the answer.
    ClosedReasoning,
    /// After the assistant's turn ended (`<|im_end|>`, `<|eot_id|>`, `<|return|>`, `</s>`, ...):
    /// what follows is not the model's reply (a tool's output, an invented user turn).
    AfterTurn,
}

/// What the token pass is told by the caller's settings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reading<'s> {
    /// How deep a value may nest (`Extractor::max_depth`).
    pub max_depth: usize,
    /// The names of the reasoning tags (`think`, `reflection`, ...; `Extractor::reasoning_tag`).
    pub reasoning_tags: &'s [String],
    /// The reply's byte before the text read (`None` when the text begins the reply).
    pub before: Option<u8>,
}

/// A call found by a handler.
#[derive(Debug)]
pub(crate) struct Hit {
    pub call: RawCall,
    pub format: Format,
    pub span: Span,
    pub complete: bool,
    pub region: Region,
    /// Complete only because the text ends here (a pythonic list without brackets): more
    /// text may still make it something else.
    pub until_end: bool,
    /// Why it is not a call though it reads as one (written inside a sentence, an echo of
    /// the call before it), set by `verdict::annotate`.
    pub refused: Option<String>,
    /// Written on its own (on its own line, in a fence or in its format's tokens), set by
    /// `verdict::annotate`: a JSON call in prose after it is a mention.
    pub on_its_own: bool,
    /// The block the call is written in, from its wrapper's opener to its closer (DSML's
    /// `<｜DSML｜function_calls>`, Kimi K3's tools section, ...), or the call's own span:
    /// whether it stands in a sentence is a question about the block.
    pub frame: Span,
    /// Begun by a token met after a JSON string a line break cut, its value still open: where
    /// the break is (see [`super::scan::Tokens::after_cut_string`]). `verdict::annotate`
    /// makes the call doubtful.
    pub after_cut_string: Option<usize>,
}

/// A candidate that was not a call, and why.
#[derive(Debug)]
pub(crate) struct Miss {
    pub span: Span,
    pub format: Option<Format>,
    pub reason: String,
    pub incomplete: bool,
    pub region: Region,
}

/// What the token pass found: calls, misses, reasoning and the text left between them.
#[derive(Debug, Default)]
pub(crate) struct Wire {
    pub hits: Vec<Hit>,
    pub misses: Vec<Miss>,
    pub thoughts: Vec<Span>,
    /// Text not taken by any token, call or reasoning block, with its region.
    pub gaps: Vec<(Span, Region)>,
    /// Markup in the answer that is only shown or quoted (a [`Tok::Hidden`] token): answer
    /// text, not searched for calls.
    pub shown: Vec<Span>,
    /// The latest point from which a later read of this text, however it grows, reads the
    /// same as this read does: what comes before it is settled. See [`Resume`].
    pub resume: Option<Resume>,
    /// Where the last step begins (0 without tokens): calls before it are read the same
    /// whatever follows; calls after it may not be.
    pub open_from: usize,
    /// A reasoning token was seen.
    pub reasoning_seen: bool,
    /// The text ends inside reasoning that is still open.
    pub ends_in_reasoning: bool,
    /// Every call from `open_from` on may read otherwise once more text comes, complete or
    /// not (the text ends in hidden markup still open).
    pub held: bool,
    /// See [`super::scan::Tokens::open_string`].
    pub open_string: Option<usize>,
    /// See [`super::scan::Tokens::after_cut_string`].
    pub after_cut_string: Vec<(usize, usize)>,
    /// See [`super::scan::Tokens::chain_open`].
    pub chain_open: Option<usize>,
    /// See [`super::scan::Tokens::lists_in_strings`].
    pub lists_in_strings: Vec<usize>,
}

pub(crate) use crate::settings::Opening;

/// A point in the text where the walk is in the answer and between steps: the start of the
/// last step (its first token), or the end of a reasoning closer that is the last step.
/// Every token before it and every body between them are whole, so the steps and gaps
/// before it are read the same whatever follows.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Resume {
    pub at: usize,
    /// A reasoning token comes before `at`.
    pub reasoning_seen: bool,
}

/// Runs every format handler over `text`, which begins where `opening` says.
pub(crate) fn read_from(text: &str, opening: Opening, reading: Reading<'_>) -> Wire {
    let scanned = tokens(text, reading.reasoning_tags, reading.before);
    let toks = scanned.list;
    let mut w = Walker {
        text,
        toks: &toks,
        out: Wire::default(),
        region: Region::Answer,
        reasoning_start: 0,
        opening,
        max_depth: reading.max_depth,
        wrapper: None,
        analysis_end: None,
        step_start: vec![0; toks.len()],
        lone_opener: std::cell::Cell::new(None),
        held_from: None,
        region_ends: code::region_ends(text, &toks),
    };
    w.run();
    w.out.open_string = scanned.open_string;
    w.out.after_cut_string = scanned.after_cut_string;
    w.out.chain_open = scanned.chain_open;
    w.out.lists_in_strings = scanned.lists_in_strings;
    w.out.keep_cut_strings_before_resume();
    w.out.keep_frames_after_resume();
    w.out
}

impl Wire {
    /// A read from the resume point would not see a JSON string cut before it whose chain
    /// of calls runs past it (a token after the point recorded with a break before it, or
    /// the chain still open at the end): the calls there would lose their doubt. No point
    /// of this text is settled then.
    fn keep_cut_strings_before_resume(&mut self) {
        let Some(at) = self.resume.map(|r| r.at) else {
            return;
        };
        let crosses = (self.after_cut_string.iter())
            .filter(|(token, _)| *token >= at)
            .map(|(_, brk)| *brk)
            .chain(self.chain_open)
            .any(|brk| brk < at);
        if crosses {
            self.resume = None;
        }
    }

    /// A read from the resume point would not see the block a call after it is written in
    /// when that block opens before it (a wrapper's opener: whether the call stands in a
    /// sentence is a question about the block). No point of this text is settled then.
    fn keep_frames_after_resume(&mut self) {
        let Some(resume) = self.resume.as_mut() else {
            return;
        };
        let at = resume.at;
        let frame_start = (self.hits.iter())
            .filter(|h| h.span.start >= at)
            .map(|h| h.frame.start)
            .min();
        if frame_start.is_some_and(|start| start < at) {
            self.resume = None;
        }
    }
}

/// Marks each hit begun (or whose block is begun) by a token or pythonic list met after a
/// JSON string a line break cut, inside a call (a hit or a call's miss, `misses`) whose
/// value that string is in: `cut` lists where those tokens and lists begin (in order) and
/// their breaks.
pub(crate) fn after_cut_string(hits: &mut [Hit], misses: &[Miss], cut: &[(usize, usize)]) {
    if cut.is_empty() {
        return;
    }
    let mut calls: Vec<Span> = (hits.iter().map(|h| h.span))
        .chain(misses.iter().filter(|m| m.format.is_some()).map(|m| m.span))
        .collect();
    calls.sort_by_key(|s| s.start);
    // The call that the string cut at `brk` is in: the last to begin before it.
    let in_call = |brk: usize| {
        let k = calls.partition_point(|s| s.start < brk);
        k > 0 && calls[k - 1].end > brk
    };
    let at = |start: usize| {
        cut.binary_search_by_key(&start, |(token, _)| *token)
            .ok()
            .map(|k| cut[k].1)
            .filter(|brk| in_call(*brk))
    };
    for hit in hits {
        hit.after_cut_string = at(hit.span.start).or_else(|| at(hit.frame.start));
    }
}

/// Whether a line break stands inside a string of the JSON value `value` (read as a scan
/// steps over strings: `"` or `'` to the same quote, a backslash escaping the byte after it).
fn string_cut_by_line_break(value: &str) -> bool {
    let mut quote = None;
    let mut escaped = false;
    for b in value.bytes() {
        match (quote, b) {
            (Some(_), _) if escaped => escaped = false,
            (Some(_), b'\\') => escaped = true,
            (Some(_), b'\n') => return true,
            (Some(q), _) if b == q => quote = None,
            (None, b'"' | b'\'') => quote = Some(b),
            _ => {}
        }
    }
    false
}

struct Walker<'a> {
    text: &'a str,
    toks: &'a [Token],
    out: Wire,
    region: Region,
    reasoning_start: usize,
    opening: Opening,
    max_depth: usize,
    /// The wrapper block open: where its opener starts, and the first hit inside it.
    wrapper: Option<(usize, usize)>,
    /// Where the gpt-oss analysis message the walk is in ends (its `<|end|>`, `<|call|>` or
    /// `<|return|>`, or the next message's `<|start|>`), when other tokens came inside it.
    analysis_end: Option<usize>,
    /// For each token read so far, where the step that read it begins: a stream resumes
    /// only at the start of a step, never at a token a step read along with its first.
    step_start: Vec<usize>,
    /// Where the call begins whose value held a lone opener of its own format: from then on
    /// values are read without nesting (see `Walker::value_end`).
    lone_opener: std::cell::Cell<Option<usize>>,
    /// Where the step begins that met a lone opener: more text may close that opener, and
    /// the value then reads on past what this read took for its end, so nothing from there
    /// on is settled.
    held_from: Option<usize>,
    /// See [`code::region_ends`].
    region_ends: Vec<usize>,
}

impl<'a> Walker<'a> {
    fn run(&mut self) {
        let toks = self.toks;
        let next_close = self.reasoning_closers();
        let mut cursor = 0;
        let mut k = 0;
        let mut seen = false;
        // Where the step before this one began.
        let mut before = 0;
        while k < toks.len() {
            let t = toks[k];
            if let Some(end) = self.list_across(cursor, t.span.start) {
                // The tokens are the list's text: its strings hold them. The gap runs on to
                // the next token, so that its reading stops where this one did.
                let end = self.next_token_from(end);
                self.gap(cursor, end);
                cursor = end;
                k = toks.partition_point(|t| t.span.start < end);
                continue;
            }
            self.analysis_passed(cursor);
            self.gap(cursor, t.span.start);
            let region_before = self.region;
            // Every reasoning token counts, those a step reads inside a call's body too (they
            // decide where the reply begins, as `reasoning_closers` reads them).
            let seen_before = seen;
            seen |= matches!(t.tok, Tok::ThinkOpen | Tok::ThinkClose);
            self.wrap(t);
            let step_from = self
                .wrapper
                .map_or(t.span.start, |(at, _)| at.min(t.span.start));
            let lone_before = self.lone_opener.get().is_some();
            let (next, end) = self.step(k, next_close[k].is_some());
            cursor = cursor.max(end);
            if !lone_before && self.lone_opener.get().is_some() {
                self.held_from = Some(step_from);
            }
            let next = next.max(k + 1);
            seen |= (toks[k..next.min(toks.len())].iter())
                .any(|o| matches!(o.tok, Tok::ThinkOpen | Tok::ThinkClose));
            self.step_start[k..next.min(toks.len())].fill(t.span.start);
            if next >= toks.len() {
                self.last_step(k, next, region_before, seen_before);
                if t.tok == Tok::Hidden && t.span.end >= self.text.len() {
                    self.open_hidden(before);
                }
            }
            before = t.span.start;
            k = next;
        }
        self.analysis_passed(cursor);
        self.gap(cursor, self.text.len());
        self.wrapper_left_open();
        self.hold_from_lone_opener();
        self.out.ends_in_reasoning = self.region == Region::OpenReasoning;
        if self.region == Region::OpenReasoning {
            self.out
                .thoughts
                .push(Span::new(self.reasoning_start, self.text.len()));
        } else if self.region == Region::ClosedReasoning && self.reasoning_start == 0 {
            // Began in reasoning and never saw its closer: nothing to split off.
            self.region = Region::Answer;
        }
    }

    /// The step that token `k` begins, by the token's kind: where the walk goes on (the
    /// index of the next token and where the text read ends). `closes` says whether a
    /// reasoning opener there is closed later.
    fn step(&mut self, k: usize, closes: bool) -> (usize, usize) {
        let t = self.toks[k];
        match t.tok {
            Tok::ThinkOpen if self.region == Region::Answer => {
                self.region = if closes {
                    Region::ClosedReasoning
                } else {
                    Region::OpenReasoning
                };
                self.reasoning_start = t.span.end;
                (k + 1, t.span.end)
            }
            Tok::ThinkClose
                if matches!(self.region, Region::OpenReasoning | Region::ClosedReasoning) =>
            {
                self.out
                    .thoughts
                    .push(Span::new(self.reasoning_start, t.span.start));
                self.region = Region::Answer;
                (k + 1, t.span.end)
            }
            Tok::ToolCallOpen => self.tool_call_tag(k),
            Tok::FunctionOpen => self.function(k, Format::Functionary),
            Tok::InvokeOpen => self.invoke(k),
            Tok::PythonTag => self.json_or_python(k, Format::Llama, None),
            Tok::PythonStart => self.json_or_python(k, Format::Pythonic, Some(Tok::PythonEnd)),
            Tok::ToolCallStart => self.json_or_python(k, Format::Pythonic, Some(Tok::ToolCallEnd)),
            Tok::GraniteToolCall => self.json_body(k, Format::Granite, None),
            Tok::Functools => self.json_body(k, Format::Functools, None),
            Tok::CohereAction => self.json_body(k, Format::Cohere, Some(Tok::CohereActionEnd)),
            Tok::Marker => self.marker(k),
            Tok::MistralCalls => self.mistral(k),
            Tok::DsCallBegin => self.deepseek(k),
            Tok::KimiCallBegin => self.kimi(k),
            Tok::HarmonyStart | Tok::HarmonyChannel | Tok::HarmonyConstrain => self.harmony(k),
            Tok::Hidden | Tok::TurnEnd | Tok::HarmonyReturn => self.outside_calls(k),
            // The newer families' tokens; wrappers, separators and closers on their own
            // carry nothing.
            _ => self.family_step(k),
        }
    }

    /// A lone opener in a value was met: every call from its step on may read otherwise once
    /// more text comes (which may close that opener).
    fn hold_from_lone_opener(&mut self) {
        if let Some(at) = self.held_from {
            self.out.open_from = self.out.open_from.min(at);
            self.out.held = true;
            self.out.resume = self.out.resume.filter(|r| r.at <= at);
        }
    }

    /// Token `k` is no call's: shown or quoted markup (answer text, never searched for
    /// calls), or the end of the assistant's turn.
    fn outside_calls(&mut self, k: usize) -> (usize, usize) {
        let t = self.toks[k];
        match t.tok {
            Tok::Hidden if self.region == Region::Answer => self.out.shown.push(t.span),
            Tok::TurnEnd | Tok::HarmonyReturn => self.end_turn(t.span.start),
            _ => {}
        }
        (k + 1, t.span.end)
    }

    /// The assistant's turn ends at `at`: reasoning still open ends there, and nothing after
    /// it is the model's reply.
    fn end_turn(&mut self, at: usize) {
        // A reply that began in reasoning and never closed it has nothing to split off.
        let began_in_it = self.region == Region::ClosedReasoning && self.reasoning_start == 0;
        if matches!(self.region, Region::OpenReasoning | Region::ClosedReasoning) && !began_in_it {
            self.out.thoughts.push(Span::new(self.reasoning_start, at));
        }
        self.region = Region::AfterTurn;
    }

    /// Where each reasoning opener is closed (the next closer, found in one backward pass),
    /// and the region the text begins in.
    fn reasoning_closers(&mut self) -> Vec<Option<usize>> {
        let toks = self.toks;
        // Where each reasoning opener is closed: the next closer, found in one backward pass.
        let mut next_close = vec![None; toks.len()];
        let mut seen = None;
        for k in (0..toks.len()).rev() {
            next_close[k] = seen;
            if toks[k].tok == Tok::ThinkClose {
                seen = Some(k);
            }
        }
        // A reply whose first reasoning token is a closer began inside reasoning (the
        // opener was in the prompt, as chat templates of R1 and Qwen3 do).
        if let Some(first) = toks
            .iter()
            .find(|t| matches!(t.tok, Tok::ThinkOpen | Tok::ThinkClose))
        {
            self.out.reasoning_seen = true;
            if first.tok == Tok::ThinkClose && self.opening == Opening::Reply {
                self.region = Region::ClosedReasoning;
            }
        }
        next_close
    }

    /// Notes where the last step (the one that reached the end of the tokens, token `k` up
    /// to `next`) begins: it may read differently once more text comes, the steps before it
    /// may not.
    fn last_step(&mut self, k: usize, next: usize, region_before: Region, seen_before: bool) {
        let t = self.toks[k];
        // Inside a wrapper block or a call's body still open, the step begins with the step
        // that read its opener: a read from the middle of it would not see the opener, and
        // a read from the opener alone would read that step's call again.
        let start = [
            self.wrapper.map(|(at, _)| at),
            body_opener(self.toks, k).map(|j| self.step_start[j]),
        ]
        .into_iter()
        .flatten()
        .fold(t.span.start, usize::min);
        let start = self.bare_step_start(start);
        self.out.open_from = start;
        // A step begun before a reasoning token (a body still open when `</think>` came)
        // began in another region: a read from its start, told the reply begins in the
        // answer, would not see that reasoning. Nothing from there on is settled.
        let reasoning_inside = self.toks[..k]
            .iter()
            .rev()
            .take_while(|o| o.span.start >= start)
            .any(|o| matches!(o.tok, Tok::ThinkOpen | Tok::ThinkClose));
        self.out.resume = if reasoning_inside {
            None
        } else if region_before == Region::Answer {
            // A `TOOL_CALL` at the very end may yet be the start of a longer word.
            (t.tok != Tok::Marker || t.span.end < self.text.len()).then_some(Resume {
                at: start,
                reasoning_seen: seen_before,
            })
        } else if t.tok == Tok::ThinkClose && next == k + 1 && self.region == Region::Answer {
            Some(Resume {
                at: t.span.end,
                reasoning_seen: true,
            })
        } else {
            None
        };
    }

    /// The start of the step at `start`, or of an earlier one, whose first token the scan
    /// met where it looks for shown markup (or the start of the text): a read from a token
    /// met inside a JSON value or a call's body would look for it there (``` {```tool_code ```
    /// is inline code to it, whose closing run may be lines away), and read otherwise.
    fn bare_step_start(&self, mut start: usize) -> usize {
        loop {
            let k = self.toks.partition_point(|t| t.span.start < start);
            if self.toks.get(k).is_none_or(|t| t.bare) {
                return start;
            }
            start = match (k, body_opener(self.toks, k)) {
                (0, _) => return 0,
                (_, Some(j)) => self.step_start[j],
                _ => self.step_start[k - 1],
            };
        }
    }

    /// The text ends in hidden markup still open (inline code, a partial fence): more text
    /// may make it text again, and the step before it, which it cut short, read otherwise.
    /// Nothing from that step on is settled.
    fn open_hidden(&mut self, before: usize) {
        self.out.open_from = self.out.open_from.min(before);
        self.out.held = true;
        self.out.resume = None;
    }

    fn gap(&mut self, start: usize, end: usize) {
        if start < end && !self.text[start..end].trim().is_empty() {
            self.out.gaps.push((Span::new(start, end), self.region));
        }
    }

    fn tok(&self, k: usize) -> Option<Tok> {
        self.toks.get(k).map(|t| t.tok)
    }

    /// The text from the end of token `k` to the start of the next token.
    fn body(&self, k: usize) -> Span {
        let start = self.toks[k].span.end;
        let end = self
            .toks
            .get(k + 1)
            .map_or(self.text.len(), |t| t.span.start);
        Span::new(start, end)
    }

    /// Where the first token at or after `pos` starts (the end of the text without one).
    fn next_token_from(&self, pos: usize) -> usize {
        let j = self.toks.partition_point(|t| t.span.start < pos);
        self.toks.get(j).map_or(self.text.len(), |t| t.span.start)
    }

    fn slice(&self, span: Span) -> &'a str {
        &self.text[span.start..span.end]
    }

    /// Consumes token `k + 1` when it is `closer`: the index after, and where it ends.
    fn close(&self, k: usize, closer: Option<Tok>, body_end: usize) -> (usize, usize, bool) {
        match closer {
            Some(c) if self.tok(k + 1) == Some(c) => (k + 2, self.toks[k + 1].span.end, true),
            _ => (k + 1, body_end, false),
        }
    }

    /// A call whose body is `body` ends there: the token there is consumed when it is one of
    /// `closers`. The index of the token after the call, where the call ends, and whether it
    /// was closed.
    fn close_at(&self, body: Span, closers: &[Tok]) -> (usize, usize, bool) {
        let j = self.toks.partition_point(|t| t.span.start < body.end);
        match self.toks.get(j) {
            Some(t) if t.span.start == body.end && closers.contains(&t.tok) => {
                (j + 1, t.span.end, true)
            }
            _ => (j, body.end, false),
        }
    }

    /// Keeps track of the blocks token `t` opens or closes: the wrapper block, and the
    /// analysis message the walk is in.
    fn wrap(&mut self, t: Token) {
        self.analysis_ends(t);
        // MiniMax M2 writes its wrapper's opener and closer as one token.
        let closes = self.text[t.span.start..].starts_with("</");
        match t.tok {
            Tok::DsmlBlock
            | Tok::XtmlTools
            | Tok::StepCallsBegin
            | Tok::M3Calls
            | Tok::DsCallsBegin
            | Tok::KimiSectionBegin => {
                self.wrapper = Some((t.span.start, self.out.hits.len()));
            }
            Tok::MiniMaxWrap if !closes => {
                self.wrapper = Some((t.span.start, self.out.hits.len()));
            }
            Tok::DsmlBlockEnd
            | Tok::XtmlToolsEnd
            | Tok::StepCallsEnd
            | Tok::M3CallsEnd
            | Tok::DsCallsEnd
            | Tok::KimiSectionEnd
            | Tok::MiniMaxWrap => {
                if let Some((_, first)) = self.wrapper.take() {
                    for hit in &mut self.out.hits[first..] {
                        hit.frame.end = hit.frame.end.max(t.span.end);
                    }
                }
            }
            _ => {}
        }
    }

    /// The analysis message the walk is in ends at `t` or before it: the reasoning ends there.
    fn analysis_ends(&mut self, t: Token) {
        self.analysis_passed(t.span.start);
    }

    /// The walk has read up to `pos`: the analysis message it is in ends there if its end
    /// is not after `pos` (a step inside the message may have read its end token, as a
    /// drafted Harmony call reads its `<|call|>`), and the text after is not reasoning.
    fn analysis_passed(&mut self, pos: usize) {
        let Some(at) = self.analysis_end.filter(|at| pos >= *at) else {
            return;
        };
        self.analysis_end = None;
        if matches!(self.region, Region::ClosedReasoning | Region::OpenReasoning) {
            self.out.thoughts.push(Span::new(self.reasoning_start, at));
            self.region = Region::Answer;
        }
    }

    /// A gpt-oss analysis message (`body`, read by token `j`'s step) is reasoning up to its
    /// end, also when other tokens come inside it: a call drafted there is a draft, as in
    /// `<think>`, and one in an analysis message the text ends in is found in reasoning.
    ///
    /// The message ends where Harmony ends a message (`<|end|>`, `<|call|>`, `<|return|>`)
    /// or at the `<|start|>` of the next one (engines that drop `<|end|>` write that). A
    /// `<|channel|>` header written inside it without them is its text, as Harmony's own
    /// parser reads it: `Thinking. <|channel|>commentary to=functions.rm ...<|call|>` is a
    /// call drafted in the reasoning, which that `<|call|>` ends.
    fn analysis(&mut self, j: usize, body: Span) {
        let ends = |t: Tok| matches!(t, Tok::HarmonyEnd | Tok::HarmonyReturn | Tok::HarmonyStart);
        if self.region != Region::Answer || self.tok(j + 1).is_none_or(ends) {
            self.out.thoughts.push(body);
            return;
        }
        let end = (self.toks[j + 1..].iter())
            .find(|t| ends(t.tok))
            .map(|t| t.span.start);
        self.region = match end {
            Some(_) => Region::ClosedReasoning,
            None => Region::OpenReasoning,
        };
        self.reasoning_start = body.start;
        self.analysis_end = end;
    }

    /// A block still open runs to the end of the text: more text may close it inside a
    /// sentence.
    fn wrapper_left_open(&mut self) {
        if let Some((_, first)) = self.wrapper {
            for hit in &mut self.out.hits[first..] {
                hit.frame.end = self.text.len();
            }
        }
    }

    fn hit(&mut self, call: RawCall, format: Format, span: Span, complete: bool) {
        let frame_start = self
            .wrapper
            .map_or(span.start, |(at, _)| at.min(span.start));
        self.out.hits.push(Hit {
            frame: Span::new(frame_start, span.end),
            complete: complete && !call.cut_off,
            call,
            format,
            span,
            region: self.region,
            until_end: false,
            refused: None,
            on_its_own: false,
            after_cut_string: None,
        });
    }

    /// A call whose arguments are the JSON at `body`: a hit when they are an object, else a
    /// miss saying what they were.
    fn json_call(
        &mut self,
        name: String,
        id: Option<String>,
        format: Format,
        body: Span,
        whole: Span,
    ) {
        match json_at(self.text, body, self.max_depth) {
            Ok((Value::Object(map), complete, at)) => {
                let source = Source::Json {
                    value: at,
                    path: Vec::new(),
                };
                let call = RawCall::json(name, id, map).at(source);
                let from = self.out.hits.len();
                self.hit(call, format, whole, complete);
                self.may_read_on(from, body, at);
            }
            Ok((other, complete, _)) => {
                let reason = format!(
                    "the arguments of `{name}` are a {}, not an object",
                    shape::json_type(&other)
                );
                self.miss(whole, format, reason, !complete)
            }
            Err(why) => {
                let reason = format!("the arguments of `{name}`: {why}");
                self.miss(whole, format, reason, false)
            }
        }
    }

    fn miss(&mut self, span: Span, format: Format, reason: impl Into<String>, incomplete: bool) {
        self.out.misses.push(Miss {
            span,
            format: Some(format),
            reason: reason.into(),
            incomplete,
            region: self.region,
        });
    }

    /// Reads the calls in a JSON value found in `body`, reporting misses.
    fn json_calls(&mut self, body: Span, format: Format, whole: Span) -> Option<usize> {
        match json_at(self.text, body, self.max_depth) {
            Ok((value, complete, at)) => {
                match shape::calls_in(&value, Context::Marked, self.max_depth) {
                    Ok(calls) => {
                        let from = self.out.hits.len();
                        for call in shape::placed(calls, at) {
                            self.hit(call, format, whole, complete);
                        }
                        self.may_read_on(from, body, at);
                    }
                    Err(why) => self.miss(whole, format, why, !complete),
                }
                Some(at.end)
            }
            Err(why) => {
                self.miss(whole, format, why, false);
                None
            }
        }
    }

    /// The hits from `from` on were read from the JSON value at `at` in `body`: when no
    /// closer came after the body and the text ends where more of it could continue the
    /// value past its closer (`{...}"": 1`, `{...}, "id": 1}`), later text may read them
    /// otherwise, as it may a JSON value in prose. So may it when a line break cuts a string
    /// of the value (`"p\narameters"`): where that string ends is decided by the quotes of
    /// the whole body, which later text may still add to.
    fn may_read_on(&mut self, from: usize, body: Span, at: Span) {
        let open_body = body.end == self.text.len();
        if open_body
            && (super::may_read_on(self.text, at.end) || string_cut_by_line_break(self.slice(at)))
        {
            for h in &mut self.out.hits[from..] {
                h.until_end = true;
            }
        }
    }

    fn json_body(&mut self, k: usize, format: Format, closer: Option<Tok>) -> (usize, usize) {
        let body = self.body(k);
        let (next, end, _) = self.close(k, closer, body.end);
        self.json_values(body, format, Span::new(self.toks[k].span.start, end));
        (next, end)
    }

    /// The calls in the JSON values `body` begins with, one after another, spaces, `;` or `,`
    /// between them: a block may hold several calls (`<tool_call>{...}, {...}</tool_call>`).
    /// Text that begins no object ends them.
    fn json_values(&mut self, body: Span, format: Format, whole: Span) {
        let mut pos = body.start;
        while let Some(after) = self.json_calls(Span::new(pos, body.end), format, whole) {
            let rest = self.text[after.min(body.end)..body.end]
                .trim_start_matches(|c: char| c.is_whitespace() || matches!(c, ';' | ','));
            if after <= pos || !rest.starts_with('{') {
                break;
            }
            pos = body.end - rest.len();
        }
    }

    /// Llama's `<|python_tag|>` (JSON calls joined by `;`, or pythonic), Llama 4's
    /// `<|python_start|>` and LFM2's `<|tool_call_start|>` (pythonic lists).
    fn json_or_python(&mut self, k: usize, format: Format, closer: Option<Tok>) -> (usize, usize) {
        let body = self.body(k);
        // JSON strings end at a line break, as the scan reads them; Python strings do not.
        let body = match python::looks_like_calls(self.slice(body), true) {
            true => self.code_strings_hold_tokens(k, CodeEnd::List),
            false => body,
        };
        let (next, end, _) = self.close_at(body, closer.as_slice());
        let whole = Span::new(self.toks[k].span.start, end);
        let text = self.slice(body);
        if python::looks_like_calls(text, true) {
            self.python(body, whole);
            return (next, end);
        }
        // One or more JSON calls separated by `;`.
        let mut pos = body.start;
        loop {
            let rest = &self.text[pos..body.end];
            let skipped = rest.len()
                - rest
                    .trim_start_matches(|c: char| c.is_whitespace() || c == ';')
                    .len();
            pos += skipped;
            if pos >= body.end {
                break;
            }
            let fmt = if format == Format::Pythonic {
                Format::Json
            } else {
                format
            };
            match self.json_calls(Span::new(pos, body.end), fmt, whole) {
                Some(after) if after > pos => pos = after,
                _ => break,
            }
        }
        (next, end)
    }

    fn python(&mut self, body: Span, whole: Span) {
        match python::read_calls(self.slice(body), self.max_depth) {
            Ok((calls, _)) => {
                // Without brackets the list runs to the end of the body: text that comes
                // later may still make it invalid.
                let until_end = !self.slice(body).trim_start().starts_with('[');
                for c in calls {
                    self.hit(python_call(c, body.start), Format::Pythonic, whole, true);
                    if let Some(h) = self.out.hits.last_mut() {
                        h.until_end = until_end;
                    }
                }
            }
            // Calls cut off are incomplete: never run unless the caller opted in.
            Err(PyError::Incomplete(calls)) if !calls.is_empty() => {
                for c in calls {
                    self.hit(python_call(c, body.start), Format::Pythonic, whole, false);
                }
            }
            Err(PyError::Incomplete(_)) => self.miss(
                whole,
                Format::Pythonic,
                "the pythonic call list was cut off before its end",
                true,
            ),
            Err(PyError::Invalid(_, why)) => self.miss(whole, Format::Pythonic, why, false),
        }
    }

    /// `TOOL_CALL` followed by a JSON object (the marker agent prompts ask for); prose may follow the object.
    fn marker(&mut self, k: usize) -> (usize, usize) {
        let body = self.body(k);
        let rest = self.slice(body);
        let skip = rest.len()
            - rest
                .trim_start_matches(|c: char| c.is_whitespace() || c == ':')
                .len();
        let start = self.toks[k].span.start;
        let from = Span::new(body.start + skip, body.end);
        if !self.slice(from).starts_with(['{', '[', '`']) {
            self.miss(
                Span::new(start, body.start),
                Format::Marker,
                "`TOOL_CALL` not followed by a JSON object",
                false,
            );
            return (k + 1, body.start);
        }
        match json_at(self.text, from, self.max_depth) {
            Ok((value, complete, at)) => {
                let whole = Span::new(start, at.end);
                match shape::calls_in(&value, Context::Marked, self.max_depth) {
                    Ok(calls) => {
                        let first = self.out.hits.len();
                        for c in shape::placed(calls, at) {
                            self.hit(c, Format::Marker, whole, complete);
                        }
                        self.may_read_on(first, from, at);
                    }
                    Err(why) => self.miss(whole, Format::Marker, why, !complete),
                }
                (k + 1, at.end)
            }
            Err(why) => {
                self.miss(Span::new(start, body.end), Format::Marker, why, false);
                (k + 1, body.end)
            }
        }
    }

    /// `<tool_call>`: Hermes/Qwen JSON, Qwen3-Coder's `<function=...>` inside, GLM's
    /// `name<arg_key>..</arg_key><arg_value>..</arg_value>`, or a pythonic list.
    fn tool_call_tag(&mut self, k: usize) -> (usize, usize) {
        let start = self.toks[k].span.start;
        let body = self.body(k);
        let text = self.slice(body);
        if self.tok(k + 1) == Some(Tok::FunctionOpen) && text.trim().is_empty() {
            let (next, end) = self.function(k + 1, Format::Qwen3Coder);
            if let Some(h) = self.out.hits.last_mut() {
                if h.span.start == self.toks[k + 1].span.start {
                    h.span.start = start;
                }
            }
            return match self.tok(next) {
                Some(Tok::ToolCallClose) => (next + 1, self.toks[next].span.end),
                _ => (next, end),
            };
        }
        let (next, end, closed) = self.close(k, Some(Tok::ToolCallClose), body.end);
        let whole = Span::new(start, end);
        let trimmed = text.trim_start();
        if trimmed.starts_with(['{', '[', '`']) && !python::looks_like_calls(trimmed, false) {
            self.json_values(body, Format::Hermes, whole);
        } else if python::looks_like_calls(trimmed, true) {
            self.python(body, whole);
        } else if trimmed
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
        {
            return self.glm_call(k, body);
        } else if text.trim().is_empty() {
            self.miss(whole, Format::Hermes, "an empty <tool_call> block", !closed);
        } else {
            self.miss(
                whole,
                Format::Hermes,
                "a <tool_call> block holding neither JSON, <function=...>, a GLM call nor a pythonic call",
                false,
            );
        }
        (next, end)
    }

    /// GLM 4.5+ (and Hunyuan V3, V4): after `<tool_call>` token `k`, whose body up to the next
    /// token is `body`, the name, then `<arg_key>k</arg_key><arg_value>v</arg_value>` pairs.
    fn glm_call(&mut self, k: usize, body: Span) -> (usize, usize) {
        let text = self.slice(body);
        let trimmed = text.trim_start();
        let name_end = trimmed.find(['<', '\n']).unwrap_or(trimmed.len());
        let name = trimmed[..name_end].trim().to_string();
        let after = body.start + (text.len() - trimmed.len()) + name_end;
        // Hunyuan's argument tags carry the suffix its `<tool_call:...>` does.
        let suffix = self.slice(self.toks[k].name);
        let (key_open, value_close) = (
            format!("<arg_key{suffix}>"),
            format!("</arg_value{suffix}>"),
        );
        let values = Values {
            open: &key_open,
            close: &value_close,
            call_close: Tok::ToolCallClose,
        };
        let read = self.tag_body(k, after, &values);
        let params = Span::new(after, read.body.end);
        let (arguments, complete) = xml_params(
            self.text,
            params,
            ParamStyle::Glm(suffix),
            read.ends.as_deref(),
        );
        let complete = read.closed && complete && read.holds(arguments.len());
        let call = xml_call(name, arguments);
        let whole = Span::new(self.toks[k].span.start, read.end);
        self.hit(call, Format::Glm, whole, complete);
        (read.next, read.end)
    }

    /// `<function=NAME>` with a JSON body (Functionary) or `<parameter=k>v</parameter>`
    /// pairs (Qwen3-Coder), closed by `</function>`.
    fn function(&mut self, k: usize, format: Format) -> (usize, usize) {
        let t = self.toks[k];
        let name = self.slice(t.name).trim().to_string();
        let read = self.tag_body(k, t.span.end, &QWEN_VALUES);
        let (body, next, end, closed) = (read.body, read.next, read.end, read.closed);
        let whole = Span::new(t.span.start, end);
        let text = self.slice(body).trim();
        if text.is_empty() {
            let call = xml_call(name, Vec::new());
            self.hit(call, format, whole, closed);
        } else if text.starts_with("<parameter=") {
            let (arguments, complete) =
                xml_params(self.text, body, ParamStyle::Qwen, read.ends.as_deref());
            let complete = closed && complete && read.holds(arguments.len());
            let call = xml_call(name, arguments);
            self.hit(call, Format::Qwen3Coder, whole, complete);
        } else {
            self.json_call(name, None, format, body, whole)
        }
        (next, end)
    }

    /// MiniMax: `<invoke name="f"><parameter name="k">v</parameter></invoke>`.
    fn invoke(&mut self, k: usize) -> (usize, usize) {
        let t = self.toks[k];
        let name = self.slice(t.name).trim().to_string();
        let read = self.tag_body(k, t.span.end, &MINIMAX_VALUES);
        let (arguments, complete) = xml_params(
            self.text,
            read.body,
            ParamStyle::MiniMax,
            read.ends.as_deref(),
        );
        let complete = read.closed && complete && read.holds(arguments.len());
        let call = xml_call(name, arguments);
        let whole = Span::new(t.span.start, read.end);
        self.hit(call, Format::MiniMax, whole, complete);
        (read.next, read.end)
    }

    /// `[TOOL_CALLS] [{...}]` (JSON list) or `[TOOL_CALLS]name[CALL_ID]id[ARGS]{...}`.
    fn mistral(&mut self, k: usize) -> (usize, usize) {
        let start = self.toks[k].span.start;
        let body = self.body(k);
        let text = self.slice(body).trim_start();
        if text.starts_with(['[', '{']) || text.is_empty() && self.tok(k + 1).is_none() {
            // Text after the list is answer text, as the engines return it.
            let whole = Span::new(start, body.end);
            let after = self.json_calls(body, Format::Mistral, whole);
            return (k + 1, after.unwrap_or(body.end));
        }
        if let Some(read) = self.mistral_inline(k) {
            return read;
        }
        let mut name = text.trim().to_string();
        let mut j = k + 1;
        let mut id = None;
        loop {
            if self.tok(j) == Some(Tok::MistralCallId) {
                id = Some(self.slice(self.body(j)).trim().to_string());
                j += 1;
            }
            if self.tok(j) != Some(Tok::MistralArgs) {
                self.miss(
                    Span::new(start, body.end),
                    Format::Mistral,
                    format!("`[TOOL_CALLS]{name}` without `[ARGS]` and arguments"),
                    j >= self.toks.len(),
                );
                return (j, self.toks.get(j - 1).map_or(body.end, |t| t.span.end));
            }
            let args = self.body(j);
            let whole = Span::new(start, args.end);
            match json_at(self.text, args, self.max_depth) {
                Ok((Value::Object(map), complete, at)) => {
                    let after = at.end;
                    let source = Source::Json {
                        value: at,
                        path: Vec::new(),
                    };
                    let call = RawCall::json(name.clone(), id.take(), map).at(source);
                    self.hit(call, Format::Mistral, whole, complete);
                    let last = self.out.hits.len() - 1;
                    self.may_read_on(last, args, at);
                    // Several calls may follow one another: `...}other[ARGS]{...}`.
                    let rest = self.text[after.min(args.end)..args.end].trim();
                    if !rest.is_empty() && self.tok(j + 1) == Some(Tok::MistralArgs) {
                        name = rest.to_string();
                        j += 1;
                        continue;
                    }
                }
                Ok((other, complete, _)) => self.miss(
                    whole,
                    Format::Mistral,
                    format!(
                        "the arguments of `{name}` are a {}, not an object",
                        shape::json_type(&other)
                    ),
                    !complete,
                ),
                Err(why) => self.miss(whole, Format::Mistral, why, false),
            }
            return (j + 1, args.end);
        }
    }

    /// DeepSeek V3/R1 (`function<sep>name`, a line break, then the arguments in a `json`
    /// fence) and V3.1 (`name<sep>{...}`).
    fn deepseek(&mut self, k: usize) -> (usize, usize) {
        let start = self.toks[k].span.start;
        let head = self.slice(self.body(k)).trim().to_string();
        if self.tok(k + 1) != Some(Tok::DsSep) {
            let body = self.body(k);
            self.miss(
                Span::new(start, body.end),
                Format::DeepSeek,
                "a DeepSeek tool call without `<｜tool▁sep｜>`",
                self.tok(k + 1).is_none(),
            );
            return (k + 1, body.end);
        }
        let body = self.body(k + 1);
        let (next, end, _) = self.close(k + 1, Some(Tok::DsCallEnd), body.end);
        let whole = Span::new(start, end);
        let (name, args) = if head == "function" {
            let text = self.slice(body);
            let line_end = text.find('\n').unwrap_or(text.len());
            (
                text[..line_end].trim().to_string(),
                Span::new(body.start + line_end, body.end),
            )
        } else {
            (head, body)
        };
        self.json_call(name, None, Format::DeepSeek, args, whole);
        (next, end)
    }

    /// Kimi K2: `<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{...}<|tool_call_end|>`.
    fn kimi(&mut self, k: usize) -> (usize, usize) {
        let start = self.toks[k].span.start;
        let id = self.slice(self.body(k)).trim().to_string();
        if self.tok(k + 1) != Some(Tok::KimiArgBegin) {
            let body = self.body(k);
            self.miss(
                Span::new(start, body.end),
                Format::Kimi,
                "a Kimi tool call without `<|tool_call_argument_begin|>`",
                self.tok(k + 1).is_none(),
            );
            return (k + 1, body.end);
        }
        let body = self.body(k + 1);
        let (next, end, _) = self.close(k + 1, Some(Tok::ToolCallEnd), body.end);
        let whole = Span::new(start, end);
        // The id is `functions.NAME:INDEX`: a name is read only from an id written that way.
        let named = id.strip_prefix("functions.").unwrap_or(&id);
        match named.rsplit_once(':') {
            Some((name, index))
                if !name.is_empty()
                    && !index.is_empty()
                    && index.bytes().all(|b| b.is_ascii_digit()) =>
            {
                let name = name.to_string();
                self.json_call(name, Some(id), Format::Kimi, body, whole)
            }
            _ => self.miss(
                whole,
                Format::Kimi,
                format!("the call id {id:?} is not written as `functions.NAME:INDEX`"),
                false,
            ),
        }
        (next, end)
    }

    /// gpt-oss Harmony: a header (`<|start|>`, `<|channel|>`, `<|constrain|>` parts, one of
    /// them with `to=functions.f`), `<|message|>`, the body, `<|call|>`. The analysis channel is
    /// reasoning; a message without a recipient is answer text.
    fn harmony(&mut self, k: usize) -> (usize, usize) {
        let start = self.toks[k].span.start;
        let mut j = k;
        let mut recipient: Option<String> = None;
        let mut channel = String::new();
        let mut author = None;
        while let Some(t @ (Tok::HarmonyStart | Tok::HarmonyChannel | Tok::HarmonyConstrain)) =
            self.tok(j)
        {
            let part = self.slice(self.body(j));
            match t {
                Tok::HarmonyChannel => {
                    channel = part
                        .split_whitespace()
                        .next()
                        .unwrap_or_default()
                        .to_string()
                }
                // `<|start|>assistant`, or `<|start|>functions.f to=assistant` (a tool's output).
                Tok::HarmonyStart => author = part.split_whitespace().next().map(str::to_string),
                _ => {}
            }
            if let Some(p) = part.find("to=") {
                let to: String = part[p + 3..]
                    .chars()
                    .take_while(|c| !c.is_whitespace() && *c != '<')
                    .collect();
                recipient = Some(to);
            }
            j += 1;
        }
        if self.tok(j) != Some(Tok::HarmonyMessage) {
            return (j, self.toks[j - 1].span.end);
        }
        let body = self.body(j);
        let ends_turn = self.tok(j + 1) == Some(Tok::HarmonyReturn);
        let (next, end) = match self.tok(j + 1) {
            Some(Tok::HarmonyEnd | Tok::HarmonyReturn) => (j + 2, self.toks[j + 1].span.end),
            _ => (j + 1, body.end),
        };
        let whole = Span::new(start, end);
        match (recipient, author) {
            (_, Some(who)) if who != "assistant" => self.miss(
                whole,
                Format::Harmony,
                format!("a message written by `{who}`, not by the assistant"),
                false,
            ),
            (Some(to), _) if !to.starts_with("functions.") => self.miss(
                whole,
                Format::Harmony,
                format!("a message to `{to}`, not to a function"),
                false,
            ),
            (Some(to), _) => {
                let name = to.strip_prefix("functions.").unwrap_or(&to).to_string();
                // A call on the analysis channel is part of the reasoning: a draft.
                let region = self.region;
                if channel == "analysis" && region == Region::Answer {
                    self.region = Region::ClosedReasoning;
                }
                self.json_call(name, None, Format::Harmony, body, whole);
                self.region = region;
            }
            (None, _) if channel == "analysis" => self.analysis(j, body),
            (None, _) => self.gap(body.start, body.end),
        }
        if ends_turn {
            self.end_turn(end);
        }
        (next, end)
    }
}

/// A pythonic call read from text starting at `base`, its arguments' spans placed in the
/// reply.
pub(crate) fn python_call(call: python::PyCall, base: usize) -> RawCall {
    let spans = call
        .spans
        .into_iter()
        .map(|(k, s)| (k, s.shift(base)))
        .collect();
    RawCall::json(call.name, None, call.arguments).at(Source::Each(spans))
}

/// The JSON value at the start of `span` (after spaces and an optional fence opener): the
/// value, whether it was complete, and where it is.
pub(crate) fn json_at(
    text: &str,
    span: Span,
    max_depth: usize,
) -> Result<(Value, bool, Span), String> {
    let slice = &text[span.start..span.end];
    let mut skip = slice.len() - slice.trim_start().len();
    let rest = &slice[skip..];
    if let Some(after) = rest.strip_prefix("```") {
        let line = after.find('\n').map_or(after.len(), |n| n + 1);
        skip += 3 + line;
        let rest = &slice[skip.min(slice.len())..];
        skip += rest.len() - rest.trim_start().len();
    }
    let start = (span.start + skip).min(span.end);
    match text[start..span.end].chars().next() {
        None => return Err("no arguments were written (the text ends here)".into()),
        Some('{' | '[') => {}
        Some(_) => {
            let found: String = text[start..span.end].chars().take(20).collect();
            return Err(format!("expected a JSON object, found {found:?}"));
        }
    }
    let parsed = crate::parse::parse_span(text, Span::new(start, span.end), max_depth)
        .map_err(|e| format!("the JSON could not be read: {e}"))?;
    let complete = parsed.node.is_complete_deep();
    Ok((
        parsed.node.to_value(),
        complete,
        Span::new(start, parsed.end),
    ))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ParamStyle<'s> {
    /// `<parameter=k>v</parameter>`.
    Qwen,
    /// `<parameter name="k">v</parameter>`.
    MiniMax,
    /// `<arg_key>k</arg_key><arg_value>v</arg_value>`, each tag name followed by the
    /// checkpoint's suffix where Hunyuan writes one (`<arg_key:6124c78e>`).
    Glm(&'s str),
}

/// A call whose parameters were written as XML-like text, each value at its span.
fn xml_call(name: String, params: Vec<(String, String, Span)>) -> RawCall {
    let spans = params.iter().map(|(k, _, s)| (k.clone(), *s)).collect();
    RawCall {
        name,
        arguments: params
            .into_iter()
            .map(|(k, v, _)| (k, Arg::Text(v)))
            .collect(),
        source: Source::Each(spans),
        ..RawCall::default()
    }
}

/// Key/value parameters written as XML-like text in `span` (each with where its value is),
/// and whether every value was closed. Values stay text; the target type decides what they
/// are.
///
/// Each search starts where the last one stopped, and a closer found beyond the next opener
/// is remembered, so the whole body is read once. `ends` says where each value ends when
/// the body was read with its values as the call's text ([`params::TagBody::ends`]).
fn xml_params(
    text: &str,
    span: Span,
    style: ParamStyle,
    ends: Option<&[usize]>,
) -> (Vec<(String, String, Span)>, bool) {
    let glm: [String; 4];
    let (open, name_end, value_open, close) = match style {
        ParamStyle::Qwen => ("<parameter=", ">", "", "</parameter>"),
        ParamStyle::MiniMax => ("<parameter name=\"", "\">", "", "</parameter>"),
        ParamStyle::Glm(suffix) => {
            glm = ["<arg_key", "</arg_key", "<arg_value", "</arg_value"]
                .map(|t| format!("{t}{suffix}>"));
            (&*glm[0], &*glm[1], &*glm[2], &*glm[3])
        }
    };
    let body = &text[span.start..span.end];
    let mut out = Vec::new();
    let mut pos = 0;
    let mut complete = true;
    // `Some(None)`: searched, no closer at or after the last search point.
    let mut known_close: Option<Option<usize>> = None;
    while let Some(found) = body[pos..].find(open) {
        let key_start = pos + found + open.len();
        let Some(key_len) = body[key_start..].find(name_end) else {
            complete = false;
            break;
        };
        let key = body[key_start..key_start + key_len].trim().to_string();
        let mut value_start = key_start + key_len + name_end.len();
        if !value_open.is_empty() {
            let after = &body[value_start..];
            let trimmed = after.trim_start();
            match trimmed.strip_prefix(value_open) {
                Some(_) => value_start += after.len() - trimmed.len() + value_open.len(),
                None => {
                    complete = false;
                    break;
                }
            }
        }
        let known = params::known_end(ends, out.len(), span.start, value_start, body.len());
        let (value_end, next_pos) = if let Some(at) = known {
            params::ended_at(body, at, close, &mut complete)
        } else {
            let close_at = match known_close {
                Some(Some(c)) if c >= value_start => Some(c),
                Some(None) => None,
                _ => body[value_start..].find(close).map(|c| c + value_start),
            };
            known_close = Some(close_at);
            let next_open = body[value_start..].find(open).map(|o| o + value_start);
            xml_value_end(body, value_start, close_at, next_open, close, &mut complete)
        };
        let raw = &body[value_start..value_end];
        // One line break after the opener and before the closer is layout, not content.
        let value = raw
            .strip_prefix('\n')
            .unwrap_or(raw)
            .strip_suffix('\n')
            .unwrap_or(raw.strip_prefix('\n').unwrap_or(raw));
        let value_at = span.start + value_start + usize::from(raw.starts_with('\n'));
        out.push((
            key,
            value.to_string(),
            Span::new(value_at, value_at + value.len()),
        ));
        pos = next_pos;
    }
    (out, complete)
}

/// Where a value of [`xml_params`] from `value_start` ends, found by search (the first
/// closer after it, `close_at`, and the next parameter's opener, `next_open`), and where the
/// next search starts.
fn xml_value_end(
    body: &str,
    value_start: usize,
    close_at: Option<usize>,
    next_open: Option<usize>,
    close: &str,
    complete: &mut bool,
) -> (usize, usize) {
    match (close_at, next_open) {
        (Some(c), Some(o)) if o < c => (o, o),
        (Some(c), _) => (c, c + close.len()),
        // Without its closer the value runs to the next parameter (tolerated) or to the
        // end of the body (cut off).
        (None, Some(o)) => (o, o),
        (None, None) => {
            *complete = false;
            let v = body[value_start..]
                .trim_end_matches("</function>")
                .trim_end_matches("</tool_call>");
            (value_start + v.len(), body.len())
        }
    }
}
