//! The markup pass: one walk over the reply that finds the reasoning blocks, answer tags and
//! markdown fences, and the values inside each. A fence, tag or bracket inside a string or
//! comment of a value is text: the pass carries a [`ValueScan`] for the region it is in and
//! asks it, at each fence or tag, whether it is reading a string or comment there.
//!
//! Regions nest as a stack of frames (prose, answer tag, fence, reasoning block); the bytes of
//! a nested region are read by its own scan only, so every byte is read once.

use super::fence;
use super::scan::{Inside, Seen, Tail, ValueScan};
use super::tags::{self, Run, Tag, Token};
use crate::lex::Quote;
use crate::settings::Settings;
use crate::span::Span;

/// A reasoning block: the whole block (with its tags) and the text inside.
pub(crate) struct Thought {
    pub whole: Span,
    pub content: Span,
}

/// An answer tag or a fence, with the values in it.
pub(crate) struct Found {
    pub content: Span,
    pub kind: FoundKind,
    pub values: Vec<(Span, Seen)>,
    /// The rest after its last fence or tag, when nothing asked the scan about it (it runs to
    /// the end of the text, or the fence's closing run was known from the markup alone).
    pub tail: Option<Tail>,
}

pub(crate) enum FoundKind {
    /// The contents of an answer tag (`<json>...</json>`).
    Answer,
    /// The contents of a fence; `whole` has the backticks.
    Fence { whole: Span, json_like: bool },
}

/// What the pass found.
pub(crate) struct Markup {
    /// In order and disjoint.
    pub thoughts: Vec<Thought>,
    /// Answer tags and fences outside reasoning blocks.
    pub found: Vec<Found>,
    /// The values in the prose (everything outside reasoning blocks), including those in
    /// answer tags and fences, which are values of the prose too.
    pub prose_values: Vec<(Span, Seen)>,
    /// The prose after the last fence or tag, not read by the scan.
    pub prose_tail: Option<Tail>,
}

/// How many regions may be open inside one another; an opener past that is text. Keeps the
/// number of regions cut off at the end of the text, each read again as text, bounded.
const MAX_FRAMES: usize = 16;

/// How far down the open regions (and the open tags of an answer) a closer looks for its
/// opener.
const MAX_NESTING_SEARCH: usize = 16;

/// How many answer tags opened inside one string are remembered to pair with their closers.
const MAX_HIDDEN_TAGS: usize = 16;

#[derive(Clone, Copy)]
enum MarkerKind<'m> {
    /// The run of backticks at this index of the pass's runs.
    Run(usize),
    Tag {
        tag: &'m Tag,
        reasoning: bool,
    },
    Token(&'m Token),
}

#[derive(Clone, Copy)]
struct Marker<'m> {
    start: usize,
    end: usize,
    kind: MarkerKind<'m>,
}

/// What ends a reasoning block.
#[derive(Clone, Copy)]
enum Ends {
    /// A closing reasoning tag.
    Tag,
    /// One of the closing tokens of this entry of [`tags::TOKEN_BLOCKS`].
    Tokens(usize),
}

enum Frame {
    Prose(ValueScan),
    Answer {
        scan: ValueScan,
        content: usize,
        /// The answer tags open in this region, outermost (its own) first.
        names: Vec<String>,
    },
    Fence {
        scan: ValueScan,
        start: usize,
        content: usize,
        run: usize,
        inline: bool,
        json_like: bool,
        /// Where the run that closes it starts, when that is known from the markup alone
        /// (see [`Pass::closing_run`]): its content is then never scanned.
        closed_at: Option<usize>,
    },
    Thought {
        start: usize,
        content: usize,
        ends: Ends,
    },
}

impl Frame {
    fn scan(&mut self) -> Option<&mut ValueScan> {
        match self {
            Frame::Prose(scan) | Frame::Answer { scan, .. } | Frame::Fence { scan, .. } => {
                Some(scan)
            }
            Frame::Thought { .. } => None,
        }
    }
}

/// Finds the reasoning blocks, answer tags and fences in `text`, and the values in each.
pub(crate) fn markup(text: &str, settings: &Settings) -> Markup {
    let is_tag = |n: &str| settings.reasoning_tags.iter().any(|t| t == n);
    // `<think:6124c78e>`: Hunyuan's tags carry their checkpoint's suffix.
    let is_reasoning = |n: &str| is_tag(n) || tags::checkpoint_base(n).is_some_and(is_tag);
    let is_answer = |n: &str| settings.tags.iter().any(|t| t == n);
    let tag_list = tags::tags(text, |n| is_reasoning(n) || is_answer(n));
    let token_list = tags::tokens(text);
    let run_list = tags::runs(text);
    let mut markers: Vec<Marker<'_>> =
        Vec::with_capacity(tag_list.len() + token_list.len() + run_list.len());
    markers.extend(tag_list.iter().map(|tag| Marker {
        start: tag.start,
        end: tag.end,
        kind: MarkerKind::Tag {
            tag,
            reasoning: is_reasoning(&tag.name),
        },
    }));
    markers.extend(token_list.iter().map(|t| Marker {
        start: t.start,
        end: t.end,
        kind: MarkerKind::Token(t),
    }));
    markers.extend(run_list.iter().enumerate().map(|(i, r)| Marker {
        start: r.start,
        end: r.start + r.len,
        kind: MarkerKind::Run(i),
    }));
    // In order; of two at one place, the longer first (a block's opener before the closer
    // token it starts with).
    markers.sort_by_key(|m| (m.start, std::cmp::Reverse(m.end)));
    let mut pass = Pass {
        text,
        runs: &run_list,
        markers: &markers,
        frames: vec![Frame::Prose(ValueScan::new(text, 0))],
        out: Markup {
            thoughts: Vec::new(),
            found: Vec::new(),
            prose_values: Vec::new(),
            prose_tail: None,
        },
        read_to: 0,
        last_thought_end: 0,
        found_before_reasoning: 0,
    };
    for marker in &markers {
        pass.on_marker(marker);
    }
    pass.finish()
}

struct Pass<'t, 'm> {
    text: &'t str,
    runs: &'t [Run],
    /// Every marker, in order (the pass reads them one by one).
    markers: &'m [Marker<'m>],
    frames: Vec<Frame>,
    out: Markup,
    /// Markers starting before this were read as part of something else.
    read_to: usize,
    /// Where the reasoning before a closing tag without an opener starts.
    last_thought_end: usize,
    /// How many regions were found before that reasoning started.
    found_before_reasoning: usize,
}

impl Pass<'_, '_> {
    fn top_scan(&mut self) -> Option<&mut ValueScan> {
        self.frames.last_mut().and_then(Frame::scan)
    }

    fn on_marker(&mut self, m: &Marker<'_>) {
        if m.start < self.read_to {
            return;
        }
        if let Some(Frame::Fence {
            closed_at: Some(at),
            ..
        }) = self.frames.last()
        {
            if *at == m.start {
                return self.close_to(self.frames.len() - 1, m.start, m.end);
            }
        }
        let text = self.text;
        let Some(scan) = self.top_scan() else {
            self.in_thought(m);
            return;
        };
        scan.advance(text, m.start);
        if scan.pos() > m.start {
            return; // read as part of an escape or a quote
        }
        match m.kind {
            MarkerKind::Run(index) => self.on_run(m, index),
            MarkerKind::Tag {
                tag,
                reasoning: true,
            } => self.on_reasoning_tag(m, tag.closing),
            MarkerKind::Tag { tag, .. } => self.on_answer_tag(m, &tag.name, tag.closing),
            MarkerKind::Token(t) if t.closer.is_none() && !scan.in_text() => {
                self.open_thought(m, Ends::Tokens(t.block));
            }
            MarkerKind::Token(_) => self.as_text(m),
        }
    }

    /// The marker is text of the region it is in: its scan reads it.
    fn as_text(&mut self, m: &Marker<'_>) {
        let text = self.text;
        if let Some(scan) = self.top_scan() {
            scan.advance(text, m.end);
        }
    }

    /// A run of backticks: a fence opening or closing, or text (in a string, a comment or a
    /// fenced block of a value, which the scan reads).
    fn on_run(&mut self, m: &Marker<'_>, index: usize) {
        let len = self.runs[index].len;
        let line_start = tags::at_line_start(self.text, m.start);
        let Some(scan) = self.top_scan() else { return };
        let (inside, depth) = (scan.inside(), scan.depth());
        match inside {
            Inside::String(Quote::Backtick) | Inside::FencedBlock(_) => self.as_text(m),
            Inside::String(_) | Inside::EscapedString | Inside::HtmlString | Inside::Comment(_) => {
                self.run_in_text(m, index, line_start)
            }
            Inside::Structure => {
                if let Some(k) = self.fence_closed_by(len, line_start) {
                    self.close_to(k, m.start, m.end);
                } else if line_start
                    || (depth == 0 && !matches!(self.frames.last(), Some(Frame::Fence { .. })))
                {
                    self.open_fence(m, len);
                } else {
                    // Inside a value: the scan reads it (a value written as a fenced block).
                    self.as_text(m);
                }
            }
        }
    }

    /// A run inside a string or comment of a value. It is text, paired with the run that
    /// opened a fence in the same string (```` "```python\n...\n```" ````). A bare run alone on
    /// its line, with no such opener, in a string opened inside a fence, closes that fence (the
    /// string was never closed, and markdown ends the fence there), unless the next run is
    /// bare too: then the two are a fence the string holds.
    fn run_in_text(&mut self, m: &Marker<'_>, index: usize, line_start: bool) {
        let len = self.runs[index].len;
        let bare = |run: &Run| {
            tags::at_line_start(self.text, run.start)
                && tags::blank_to_line_end(self.text, run.start + run.len)
        };
        let closes_fence = line_start
            && bare(&self.runs[index])
            && !self.runs.get(index + 1).is_some_and(bare)
            && matches!(self.frames.last(), Some(Frame::Fence { run, scan, .. })
                if *run <= len && !scan.hidden_run);
        if closes_fence {
            let top = self.frames.len() - 1;
            self.close_to(top, m.start, m.end);
            return;
        }
        if let Some(scan) = self.top_scan() {
            scan.hidden_run = !scan.hidden_run;
        }
        self.as_text(m);
    }

    /// The fence a run closes: the innermost open fence (below any answer tags opened in it),
    /// when the run is at least as long as its opener and starts its line (or the fence was
    /// opened inline).
    fn fence_closed_by(&self, len: usize, line_start: bool) -> Option<usize> {
        for (k, frame) in self
            .frames
            .iter()
            .enumerate()
            .rev()
            .take(MAX_NESTING_SEARCH)
        {
            match frame {
                Frame::Answer { .. } => continue,
                Frame::Fence { run, inline, .. } => {
                    return (*run <= len && (line_start || *inline)).then_some(k);
                }
                _ => return None,
            }
        }
        None
    }

    fn open_fence(&mut self, m: &Marker<'_>, len: usize) {
        if self.frames.len() >= MAX_FRAMES {
            return self.as_text(m);
        }
        let opening = fence::opening(self.text, m.end);
        self.frames.push(Frame::Fence {
            scan: ValueScan::new(self.text, opening.content_start),
            start: m.start,
            content: opening.content_start,
            run: len,
            inline: opening.inline,
            json_like: opening.json_like,
            closed_at: self.closing_run(opening.content_start, len),
        });
        self.read_to = opening.content_start;
    }

    /// The run that closes a fence of `len` backticks whose content starts at `content`,
    /// when no scan of the content can change that: the next marker is a run at least as long,
    /// alone on its line, and the run after it is not (two such runs in a string are a fence
    /// the string holds); no backtick lies in between (which could open a backtick string or a
    /// fenced block). Such a run closes the fence whether it lies between tokens or in a string
    /// or comment left open ([`Pass::run_in_text`]).
    fn closing_run(&self, content: usize, len: usize) -> Option<usize> {
        let next = self.markers.partition_point(|m| m.start < content);
        let MarkerKind::Run(index) = self.markers.get(next)?.kind else {
            return None;
        };
        let bare = |run: &Run| {
            tags::at_line_start(self.text, run.start)
                && tags::blank_to_line_end(self.text, run.start + run.len)
        };
        let run = &self.runs[index];
        let closes = run.len >= len
            && bare(run)
            && !self.runs.get(index + 1).is_some_and(bare)
            && memchr::memchr(b'`', &self.text.as_bytes()[content..run.start]).is_none();
        closes.then_some(run.start)
    }

    /// An answer tag (`<json>`, `</output>`).
    fn on_answer_tag(&mut self, m: &Marker<'_>, name: &str, closing: bool) {
        let Some(scan) = self.top_scan() else { return };
        if scan.in_text() {
            // In a string: an opener waits for its closer in the same string. A closer with
            // no opener there, last on its line, ends the answer it closes: the string was
            // never closed (`<json>{"a": "x}</json>`); one with text after it is text
            // (`"use </json> to close"`).
            if !closing {
                if scan.hidden_tags.len() < MAX_HIDDEN_TAGS {
                    scan.hidden_tags.push(name.to_string());
                }
            } else if let Some(i) = scan.hidden_tags.iter().rposition(|t| t == name) {
                scan.hidden_tags.truncate(i);
            } else if tags::blank_to_line_end(self.text, m.end)
                && matches!(self.frames.last(), Some(Frame::Answer { .. }))
            {
                return self.close_answer(m, name);
            }
            return self.as_text(m);
        }
        if closing {
            return self.close_answer(m, name);
        }
        if let Some(Frame::Answer { names, .. }) = self.frames.last_mut() {
            // Nested in an answer: part of its content, as the outer tag's region.
            names.push(name.to_string());
            return self.as_text(m);
        }
        if self.frames.len() >= MAX_FRAMES {
            return self.as_text(m);
        }
        self.frames.push(Frame::Answer {
            scan: ValueScan::new(self.text, m.end),
            content: m.end,
            names: vec![name.to_string()],
        });
        self.read_to = m.end;
    }

    /// A closing answer tag: closes the tag it matches in the innermost answer region (and
    /// any fence opened in that region); the region ends when its own tag closes.
    fn close_answer(&mut self, m: &Marker<'_>, name: &str) {
        for k in (0..self.frames.len()).rev().take(MAX_NESTING_SEARCH) {
            match &mut self.frames[k] {
                Frame::Fence { .. } => continue,
                Frame::Answer { names, .. } => {
                    let Some(depth) = names
                        .iter()
                        .rev()
                        .take(MAX_NESTING_SEARCH)
                        .position(|n| n == name)
                    else {
                        break;
                    };
                    let index = names.len() - 1 - depth;
                    if index == 0 {
                        return self.close_to(k, m.start, m.end);
                    }
                    names.truncate(index);
                    while self.frames.len() > k + 1 {
                        self.close_top(m.start, m.start);
                    }
                    return self.as_text(m);
                }
                _ => break,
            }
        }
        self.as_text(m);
    }

    /// A reasoning tag (`<think>`, `</think>`), outside any reasoning block. Models put them
    /// on lines of their own (or first in the reply); one in the middle of a line is text,
    /// such as a `<think>` a value mentions, and must not swallow the rest.
    fn on_reasoning_tag(&mut self, m: &Marker<'_>, closing: bool) {
        let in_text = self.top_scan().is_some_and(|s| s.in_text());
        let text = self.text;
        if in_text {
            self.as_text(m);
        } else if !closing && tags::at_line_start(text, m.start) {
            self.open_thought(m, Ends::Tag);
        } else if closing && (tags::at_line_start(text, m.start) || tags::at_line_end(text, m.end))
        {
            self.reasoning_without_opener(m);
        } else {
            self.as_text(m);
        }
    }

    /// Opens a reasoning block. One in the prose ends the prose read so far; one inside an
    /// answer tag or fence leaves that region open around it.
    fn open_thought(&mut self, m: &Marker<'_>, ends: Ends) {
        if self.frames.len() >= MAX_FRAMES {
            return self.as_text(m);
        }
        if let Some(Frame::Prose(_)) = self.frames.last() {
            if let Some(Frame::Prose(scan)) = self.frames.pop() {
                self.out.prose_values.extend(scan.finish(m.start));
            }
        }
        self.frames.push(Frame::Thought {
            start: m.start,
            content: m.end,
            ends,
        });
        self.read_to = m.end;
    }

    /// Inside a reasoning block only its end matters: a closing reasoning tag (wherever it
    /// is), or one of its closing tokens.
    fn in_thought(&mut self, m: &Marker<'_>) {
        let Some(&Frame::Thought { ends, .. }) = self.frames.last() else {
            return;
        };
        let end = match (ends, m.kind) {
            (
                Ends::Tag,
                MarkerKind::Tag {
                    tag,
                    reasoning: true,
                },
            ) if tag.closing => m.end,
            // A new header that opens another block of the kind (`<|channel|>analysis...`
            // right after analysis text): this block ends where it starts, and it opens the
            // next one.
            (Ends::Tokens(block), MarkerKind::Token(t))
                if t.block == block && t.closer.is_none() && tags::opener_ends_block(block) =>
            {
                self.close_thought(m.start, m.start);
                return self.on_marker(m);
            }
            // `<|end|>` belongs to the block; a new header starts the next message.
            (Ends::Tokens(block), MarkerKind::Token(t)) if t.block == block => match t.closer {
                Some(c) if tags::closer_in_block(c) => m.end,
                Some(_) => m.start,
                None => return,
            },
            _ => return,
        };
        self.close_thought(m.start, end);
    }

    fn close_thought(&mut self, content_end: usize, end: usize) {
        let Some(Frame::Thought { start, content, .. }) = self.frames.pop() else {
            return;
        };
        self.out.thoughts.push(Thought {
            whole: Span::new(start, end),
            content: Span::new(content.min(content_end), content_end),
        });
        self.reasoning_ended(end);
        match self.frames.last_mut().and_then(Frame::scan) {
            Some(scan) => scan.skip_to(end),
            None => self
                .frames
                .push(Frame::Prose(ValueScan::new(self.text, end))),
        }
    }

    /// `...reasoning</think>answer`: the opening tag was left out (or sent earlier), so
    /// everything since the last reasoning block was reasoning, and what was found in it is
    /// dropped.
    fn reasoning_without_opener(&mut self, m: &Marker<'_>) {
        self.frames.clear();
        self.out.found.truncate(self.found_before_reasoning);
        let start = self.last_thought_end;
        self.out.thoughts.push(Thought {
            whole: Span::new(start, m.end),
            content: Span::new(start, m.start),
        });
        self.reasoning_ended(m.end);
        self.frames
            .push(Frame::Prose(ValueScan::new(self.text, m.end)));
    }

    fn reasoning_ended(&mut self, end: usize) {
        self.last_thought_end = end;
        self.found_before_reasoning = self.out.found.len();
        self.read_to = end;
    }

    /// Closes the regions above frame `k` where a closer starts (`at`), then frame `k`, whose
    /// closer ends at `end`.
    fn close_to(&mut self, k: usize, at: usize, end: usize) {
        while self.frames.len() > k + 1 {
            self.close_top(at, at);
        }
        self.close_top(at, end);
        self.read_to = end;
    }

    /// Closes the answer tag or fence on top: its content ends at `at`, its closer at `end`.
    /// Its values are values of the enclosing region too.
    fn close_top(&mut self, at: usize, end: usize) {
        let text = self.text;
        // Closed by the end of the text, or by a run known to close it: the rest after the
        // region's last fence or tag is left to the tail reader.
        let finish = |scan: ValueScan, unread: bool| match unread || at == text.len() {
            true => scan.finish_at_end(text, at),
            false => {
                let mut scan = scan;
                scan.advance(text, at);
                (scan.finish(at), None)
            }
        };
        let found = match self.frames.pop() {
            Some(Frame::Answer { scan, content, .. }) => {
                let (values, tail) = finish(scan, false);
                Found {
                    content: Span::new(content.min(at), at),
                    kind: FoundKind::Answer,
                    values,
                    tail,
                }
            }
            Some(Frame::Fence {
                scan,
                start,
                content,
                json_like,
                closed_at,
                ..
            }) => {
                let (values, tail) = finish(scan, closed_at == Some(at));
                Found {
                    content: Span::new(content.min(at), at),
                    kind: FoundKind::Fence {
                        whole: Span::new(start, end),
                        json_like,
                    },
                    values,
                    tail,
                }
            }
            Some(other) => {
                self.frames.push(other); // prose and reasoning close elsewhere
                return;
            }
            None => return,
        };
        if let Some(scan) = self.top_scan() {
            scan.adopt(&found.values);
            scan.skip_to(end);
        }
        self.out.found.push(found);
    }

    /// At the end of the text: every region still open runs to it.
    fn finish(mut self) -> Markup {
        let len = self.text.len();
        while let Some(frame) = self.frames.last() {
            match frame {
                Frame::Thought { .. } => {
                    self.close_thought(len, len);
                }
                Frame::Prose(_) => {
                    if let Some(Frame::Prose(scan)) = self.frames.pop() {
                        let (values, tail) = scan.finish_at_end(self.text, len);
                        self.out.prose_values.extend(values);
                        self.out.prose_tail = tail;
                    }
                }
                Frame::Answer { .. } | Frame::Fence { .. } => self.close_top(len, len),
            }
        }
        self.out
    }
}
