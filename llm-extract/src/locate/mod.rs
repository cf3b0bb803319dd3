//! The `locate` stage: a linear scan that finds where in a reply the value may be, and ranks
//! those places.
//!
//! Reasoning blocks (`<think>...</think>`, also unclosed or with only the closing tag) are split
//! off as thoughts and never searched. Explicit marker pairs and answer tags
//! (`<json>`, `<tool_call>`, ...) rank first, text right after a caller's marker next, then
//! markdown fences (any info string, also unterminated), then balanced `{...}` / `[...]` spans in
//! prose. A JSON document escaped inside a JSON string is a candidate too.
//!
//! Tags, fences and values are found in one pass ([`markup`]) that reads strings and comments
//! as the parser does ([`crate::lex`]): a fence, tag or bracket inside a string or comment of a
//! value is that value's text, never the start or end of another.
//!
//! That pass reads a region only as far as its last fence or tag, where it must say whether
//! the marker lies in a string. The rest of the region (most replies hold no marker after
//! their value, and a fence closed by a bare run needs no scan) is searched for where values
//! start, and each value is read there ([`tail`]): by serde_json when it is valid, else by the
//! parser, which decides where it ends as it does for the caller. The reading is kept for the
//! caller ([`Located::take_kept`]), so a value is not read twice.
//!
//! Every scan here touches each byte a bounded number of times: there is no bracket matching
//! from every `{`, which is what makes the usual fallback chains quadratic.

pub(crate) mod fence;
pub(crate) mod lead;
mod markup;
mod reasoning;
mod scan;
pub(crate) mod sections;
pub(crate) mod tags;
mod tail;

use crate::lex;
use crate::parse::{Keep, Kept};
use crate::report::RepairKind;
use crate::settings::{ReasoningValues, Settings};
use crate::span::Span;
pub(crate) use lead::{lead, Lead};
pub(crate) use scan::bracket_in_text;
use scan::{Place, Seen, Tail};
use std::cell::RefCell;
pub(crate) use tail::{content_end, ReadTyped, TailReading};

/// Where a candidate was found; decides its rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Origin {
    /// Between a start/end marker pair, inside an answer tag, or right after a marker.
    Explicit,
    /// The whole text is the value.
    Whole,
    /// Inside a markdown fence marked as JSON (or unmarked).
    Fence,
    /// Inside prose.
    Prose,
    /// Inside a fence marked as another language.
    OtherFence,
}

/// A place in the text that may hold the value.
#[derive(Clone, Debug)]
pub(crate) struct Candidate {
    /// Parse from `span.start`, never past `span.end`.
    pub span: Span,
    pub origin: Origin,
    /// Cost of taking the value from here (the context repairs), before parsing.
    pub base_cost: u32,
    /// Repairs describing the surroundings (fence, prose, wrapper).
    pub context: Vec<(RepairKind, Span)>,
    /// What kind of text the span holds, which decides how it is parsed.
    pub form: Form,
    /// The locate scan saw a token JSON does not have in the span (a single-quoted string, a
    /// comment): strict JSON readers need not try it.
    pub nonstandard: bool,
    /// The reading that found where the value ends, kept for the caller
    /// ([`Located::take_kept`]).
    pub kept: Option<usize>,
    /// How the value stands in the reply, which breaks ties between equally good values.
    pub standing: Standing,
    /// What the words that introduce it say of it: a value the reply sets aside or shows as an
    /// example loses to one it does not, however well each reads.
    pub lead: Lead,
}

/// How a value stands in the reply: of two equally good values, the one that stands higher
/// wins (then the later, or the first, as `TieBreak` says).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Standing {
    /// Inside an HTML comment (`<!-- {..} -->`): written, then hidden from the reader.
    Commented,
    /// Written in parentheses in the prose, an aside (`(see [1])`, `(or {..} if you prefer)`).
    Aside,
    /// Mentioned inside a sentence of prose, with words before and after it in the sentence
    /// (`if you wanted {..} instead, say so`).
    InSentence,
    /// Anywhere else.
    Plain,
    /// Presented as a value: all that a JSON fence holds, or a value in the prose on lines of
    /// its own (nothing before it on its first line, no word after it in its sentence), such
    /// as the corrected value after a draft (`Here is the corrected JSON:` and the value on
    /// the next lines). Braces inside a sentence only mention something (`then call it with
    /// {"x": 1}.`).
    Displayed,
}

impl Candidate {
    /// Whether the candidate was found inside an opener that never closed: a part of a value
    /// cut off by the end of the text.
    pub fn nested(&self) -> bool {
        (self.context.iter()).any(|(kind, _)| *kind == RepairKind::NestedValue)
    }
}

/// What a candidate's span holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// A value whose opener closes within its region.
    Value,
    /// A value whose opener never closes: it runs to the end of its region (cut off).
    Unclosed,
    /// A JSON string whose content is the document.
    Embedded,
    /// Labeled sections (`Title: ...` lines, headings, YAML-like blocks) read as an object,
    /// their lists read as [`sections::Lists`] says. Offered after every other candidate.
    Sections(sections::Lists),
    /// The whole region as plain text, for a target type that reads text (a `String`, a
    /// number in a sentence, an enum variant named in prose). Tried after every other form.
    Text,
}

/// Candidates in rank order, and the reasoning blocks found.
pub(crate) struct Located<'a> {
    pub candidates: Vec<Candidate>,
    pub thoughts: Vec<Span>,
    /// The regions labeled sections may be in, searched only when a reader asks
    /// ([`Located::sections`]): most replies hold a value, and never pay for the search.
    section_regions: Vec<SectionRegion>,
    sections: std::cell::OnceCell<Vec<Candidate>>,
    /// Values read while locating them, each taken once by the candidate that holds its index.
    kept: RefCell<Vec<Option<Kept<'a>>>>,
}

/// A region labeled sections may be in: its span, rank and surroundings.
type SectionRegion = (Span, Origin, Option<(RepairKind, Span)>);

impl<'a> Located<'a> {
    /// Whether a value is written as one (an object, an array, a scalar reply, an escaped
    /// document) anywhere a candidate was found.
    pub fn values_written(&self) -> bool {
        (self.candidates.iter())
            .any(|c| matches!(c.form, Form::Value | Form::Unclosed | Form::Embedded))
    }

    /// The labeled sections of the reply, one candidate per reading of their lists, best
    /// first: searched on the first call (the text must be the one located).
    pub fn sections(&self, text: &str) -> &[Candidate] {
        self.sections
            .get_or_init(|| section_candidates(text, &self.section_regions))
    }

    /// The reading of `candidate`'s span made while locating it, when it was kept and not
    /// taken before.
    pub fn take_kept(&self, candidate: &Candidate) -> Option<Kept<'a>> {
        let index = candidate.kept?;
        self.kept.borrow_mut().get_mut(index)?.take()
    }
}

/// A stretch of the text to search, and how much a value found there costs.
struct Region {
    span: Span,
    origin: Origin,
    context: Option<(RepairKind, Span)>,
    /// The bracketed values in it, as the scan found them.
    values: Vec<(Span, Seen)>,
    /// The rest after its last fence or tag, whose values are read where they start.
    tail: Option<Tail>,
}

/// The candidates in `text`, best first, for a caller that reads each one itself.
pub(crate) fn locate<'a>(text: &'a str, settings: &Settings) -> Located<'a> {
    locate_reading(text, settings, Keep::Nothing)
}

/// [`locate`], keeping what `keep` says of the values read to find where they end
/// ([`Located::take_kept`]): the caller's own reading of their spans.
pub(crate) fn locate_reading<'a>(text: &'a str, settings: &Settings, keep: Keep) -> Located<'a> {
    locate_typed(text, settings, keep, None)
}

/// [`locate_reading`] for a caller that reads its type straight from strict JSON: a value
/// after the last fence or tag that is strict JSON is read by `typed` (which keeps the value)
/// instead of by serde_json to find where it ends.
pub(crate) fn locate_typed<'a>(
    text: &'a str,
    settings: &Settings,
    keep: Keep,
    typed: Option<&dyn ReadTyped>,
) -> Located<'a> {
    let markup = markup::markup(text, settings);
    let thoughts: Vec<Span> = markup.thoughts.iter().map(|t| t.content).collect();
    let regions = regions(text, settings, markup);
    let reading = TailReading {
        keep,
        typed: typed.filter(|_| settings.direct),
        max_depth: settings.max_depth,
        max_len: settings.max_payload,
        require_complete: settings.completeness == crate::settings::Completeness::RequireComplete,
    };
    let mut kept = Vec::new();
    let mut candidates: Vec<Candidate> = Vec::new();
    for region in &regions {
        candidates.extend(candidates_in(text, region, reading, &mut kept));
    }
    rank(text, settings, &mut candidates);
    let section_regions: Vec<SectionRegion> = (regions.iter())
        .filter(|r| r.origin != Origin::Explicit)
        .map(|r| (r.span, r.origin, r.context))
        .collect();
    let mut located = Located {
        candidates,
        thoughts,
        section_regions,
        sections: std::cell::OnceCell::new(),
        kept: RefCell::new(kept),
    };
    let nothing_outside = located.candidates.iter().all(|c| c.form == Form::Text);
    if nothing_outside
        && settings.reasoning_values == ReasoningValues::Fallback
        && located.sections(text).is_empty()
    {
        let inside = reasoning::candidates(text, &located.thoughts);
        located.candidates.extend(inside);
    }
    located
}

/// The first reasoning block of `text` (as `settings` name them) that holds a JSON-like value,
/// and whether the block is closed: what a reply whose only values are reasoning holds, for
/// the error that says so.
pub(crate) fn value_in_reasoning(text: &str, settings: &Settings) -> Option<(Span, bool)> {
    let markup = markup::markup(text, settings);
    (markup.thoughts.iter())
        .find(|t| !scan::values(text, t.content).is_empty())
        .map(|t| (t.whole, t.content.end < t.whole.end))
}

/// The stretches of text to search, best-ranked first: marker pairs, answer tags, fences
/// outside reasoning, then the prose outside reasoning.
fn regions(text: &str, settings: &Settings, markup: markup::Markup) -> Vec<Region> {
    let mut regions: Vec<Region> = Vec::new();
    for pair in &settings.marker_pairs {
        for span in marker_pair_regions(text, &pair.0, &pair.1) {
            regions.push(Region {
                span,
                origin: Origin::Explicit,
                context: None,
                values: scan::values(text, span),
                tail: None,
            });
        }
    }
    for found in markup.found {
        let (origin, context) = match found.kind {
            markup::FoundKind::Answer => (Origin::Explicit, None),
            markup::FoundKind::Fence { whole, json_like } => (
                if json_like {
                    Origin::Fence
                } else {
                    Origin::OtherFence
                },
                Some((RepairKind::Fence, whole)),
            ),
        };
        regions.push(Region {
            span: found.content,
            origin,
            context,
            values: found.values,
            tail: found.tail,
        });
    }
    regions.extend(prose_regions(
        text,
        &markup.thoughts,
        markup.prose_values,
        markup.prose_tail,
    ));
    regions
}

/// The prose: every stretch outside the reasoning blocks, each with the values that start in
/// it.
fn prose_regions(
    text: &str,
    thoughts: &[markup::Thought],
    mut values: Vec<(Span, Seen)>,
    tail: Option<Tail>,
) -> Vec<Region> {
    let mut cursor = 0;
    let mut outside = Vec::new();
    for t in thoughts {
        if t.whole.start > cursor {
            outside.push(Span::new(cursor, t.whole.start));
        }
        cursor = cursor.max(t.whole.end);
    }
    if cursor < text.len() {
        outside.push(Span::new(cursor, text.len()));
    }
    values.sort_by_key(|(span, _)| span.start);
    let mut values = values.into_iter().peekable();
    let mut regions = Vec::with_capacity(outside.len());
    for span in outside {
        let mut inside = Vec::new();
        while let Some((found, place)) = values.next_if(|(v, _)| v.start < span.end) {
            if found.start >= span.start {
                inside.push((found, place));
            }
        }
        regions.push(Region {
            span,
            origin: Origin::Prose,
            context: None,
            values: inside,
            tail: tail.filter(|t| span.start <= t.start && t.start < span.end),
        });
    }
    regions
}

/// The values in one region: an escaped document, or the balanced and unclosed spans the scan
/// found (or the one scalar the region holds), each with what its surroundings cost; then the
/// region itself as text.
fn candidates_in<'a>(
    text: &'a str,
    region: &Region,
    reading: TailReading<'_>,
    kept: &mut Vec<Option<Kept<'a>>>,
) -> Vec<Candidate> {
    let content = &text[region.span.start..region.span.end];
    let trimmed = lex::trim(content);
    if trimmed.is_empty() {
        return Vec::new();
    }
    let lead = region.span.start + (content.len() - lex::trim_start(content).len());
    let whole = Span::new(lead, lead + trimmed.len());
    let one_string = match whole_string(trimmed) {
        WholeString::Document => {
            return vec![Candidate {
                span: whole,
                origin: region.origin,
                base_cost: escaping(trimmed).cost(),
                context: vec![(escaping(trimmed), whole)],
                form: Form::Embedded,
                nonstandard: false,
                kept: None,
                standing: Standing::Plain,
                lead: Lead::Plain,
            }];
        }
        WholeString::Text => true,
        WholeString::No => false,
    };
    let top = Seen {
        place: Place::TopLevel,
        nonstandard: false,
    };
    let mut tail_values = match region.tail {
        Some(tail) if !one_string => tail::values(text, tail, region.span.end, reading),
        _ => Vec::new(),
    };
    let found_values = match one_string {
        true => vec![(whole, top)],
        false => values_found(text, region, lead, reading.max_depth, &mut tail_values),
    };
    let found_values = crate::parse::read_on(text, found_values, region.span.end);
    // A value the scan found that reads on into the tail holds what starts there.
    let read_to = found_values.iter().map(|(span, _)| span.end).max();
    tail_values.retain(|(span, _, _)| read_to.is_none_or(|to| span.start >= to));
    let mut candidates: Vec<Candidate> = found_values
        .into_iter()
        .map(|(found, seen)| value_candidate(text, region, found, seen))
        .collect();
    for (found, seen, value) in tail_values {
        let mut candidate = value_candidate(text, region, found, seen);
        if let Some(value) = value.filter(|_| candidate.form != Form::Embedded) {
            candidate.kept = Some(kept.len());
            kept.push(Some(value));
        }
        candidates.push(candidate);
    }
    if region.origin != Origin::OtherFence {
        // The region itself, as text: `The sentiment is POSITIVE.`, `about 3.5 stars`.
        candidates.push(Candidate {
            span: whole,
            origin: region.origin,
            base_cost: RepairKind::TextAsValue.cost(),
            context: vec![(RepairKind::TextAsValue, whole)],
            form: Form::Text,
            nonstandard: false,
            kept: None,
            standing: Standing::Plain,
            lead: Lead::Plain,
        });
    }
    candidates
}

/// What a region is when it is one JSON string (or the content of one).
enum WholeString {
    /// Not one.
    No,
    /// A string holding a JSON object or array (a document encoded twice), or the escaped
    /// content of one (`{\"a\": 1}`).
    Document,
    /// A valid JSON string holding anything else: that string, brackets inside it are text.
    Text,
}

/// Whether the trimmed region `trimmed` is one JSON string holding no document: the region
/// is read as that string, the brackets in it as its text (the stream's reader asks this of
/// a region that starts with a quote, `stream/reader.rs`).
pub(crate) fn is_one_string(trimmed: &str) -> bool {
    matches!(whole_string(trimmed), WholeString::Text)
}

/// What the trimmed region `trimmed` is as a JSON string.
fn whole_string(trimmed: &str) -> WholeString {
    if trimmed.len() <= 2 {
        return WholeString::No;
    }
    let Some(inner) = decode_embedded(trimmed) else {
        return WholeString::No;
    };
    let one_string = trimmed.starts_with('"');
    let holds_document =
        !one_string || serde_json::from_str::<serde::de::IgnoredAny>(&inner).is_ok();
    let inner = inner.trim_start();
    if holds_document && (inner.starts_with('{') || inner.starts_with('[')) {
        WholeString::Document
    } else if one_string {
        WholeString::Text
    } else {
        WholeString::No
    }
}

/// A value the scan found in `region`, with what its surroundings cost: the region's own
/// context (a fence), the prose around it (or a JSONP wrapper), and, for a span inside an
/// opener that never closed, that opener.
/// The values the scan found in `region` (not one string), whose content starts at `lead`;
/// `tail_values` loses those inside the first.
///
/// A region that starts with a key (`"name": "Ada", "age": 36}`) goes on from an object's
/// `{` written before it (a prefilled turn): that object is its value, read from the key on
/// (the parser logs the missing `{`), and what the scan found inside it is its parts.
fn values_found(
    text: &str,
    region: &Region,
    lead: usize,
    max_depth: usize,
    tail_values: &mut Vec<tail::TailValue<'_>>,
) -> Vec<(Span, Seen)> {
    if let Some(end) = members_end(text, lead, region.span.end, max_depth) {
        tail_values.retain(|(span, _, _)| span.start >= end);
        let object = Seen {
            place: Place::TopLevel,
            nonstandard: true,
        };
        let after = region.values.iter().filter(|(span, _)| span.start >= end);
        return std::iter::once((Span::new(lead, end), object))
            .chain(after.cloned())
            .collect();
    }
    if region.values.is_empty() && tail_values.is_empty() {
        let top = Seen {
            place: Place::TopLevel,
            nonstandard: false,
        };
        return scan::scalar(text, region.span)
            .map(|s| (s, top))
            .into_iter()
            .collect();
    }
    region.values.clone()
}

/// Where the object whose members start at `lead` ends, when they do: the region's first
/// token is a quoted key ([`crate::parse::members_start`]), and the parser's reading of the
/// members ends at the first closer no opener after `lead` opened, the object's own `}`, or,
/// with no such closer, runs to the end of the region without a guess (the reply was cut
/// off inside the object, or ended without its `}`). Prose that starts with a quoted word
/// and a colon (`"Note": see {"a": 1}`) has neither, and keeps its values.
fn members_end(text: &str, lead: usize, end: usize, max_depth: usize) -> Option<usize> {
    let bytes = &text.as_bytes()[..end];
    if !crate::parse::members_start(bytes, lead) {
        return None;
    }
    let (read_to, guessed) = crate::parse::parser_end(text, Span::new(lead, end), max_depth)?;
    let ends = match crate::parse::first_unopened_closer(&bytes[lead..]) {
        Some(closer) => bytes[lead + closer] == b'}' && read_to == lead + closer + 1,
        None => !guessed && lex::trim(&text[read_to..end]).is_empty(),
    };
    ends.then_some(read_to)
}

fn value_candidate(text: &str, region: &Region, found: Span, seen: Seen) -> Candidate {
    let whole_region = lex::trim(&text[region.span.start..found.start]).is_empty()
        && lex::trim(&text[found.end.min(region.span.end)..region.span.end]).is_empty();
    let mut context = Vec::new();
    let mut origin = region.origin;
    match (region.origin, &region.context) {
        (_, Some(c)) => context.push(*c),
        (Origin::Prose, None) if whole_region && region.span == Span::new(0, text.len()) => {
            origin = Origin::Whole;
        }
        (Origin::Prose, None) => match jsonp_wrapper(text, found) {
            Some(wrapper) => context.push((RepairKind::JsonpWrapper, wrapper)),
            None => context.push((RepairKind::SurroundingText, region.span)),
        },
        _ => {}
    }
    if seen.place == Place::Nested {
        // Inside an opener that never closed: the opener is more likely a value cut off
        // by the end of the text than a stray brace in prose.
        context.push((
            RepairKind::NestedValue,
            Span::new(region.span.start, found.start),
        ));
    }
    // `{\"a\": 1}` in prose: a document escaped as the content of a JSON string (as when
    // the whole reply is one, in `candidates_in`).
    let form = match seen.place {
        // A document written with HTML's references and cut off: decoded as a whole one is,
        // its strings and brackets are known only once the references are quotes.
        Place::Unclosed if html_escaped(&text[found.start..found.end]) => {
            context.push((RepairKind::HtmlEntities, found));
            Form::Embedded
        }
        Place::Unclosed => Form::Unclosed,
        _ if escaped_document(&text[found.start..found.end]) => {
            context.push((escaping(&text[found.start..found.end]), found));
            Form::Embedded
        }
        _ => Form::Value,
    };
    Candidate {
        span: found,
        origin,
        base_cost: context.iter().map(|(k, _)| k.cost()).sum(),
        context,
        form,
        nonstandard: seen.nonstandard,
        kept: None,
        standing: match origin {
            Origin::Fence if whole_region => Standing::Displayed,
            Origin::Prose if in_html_comment(text.as_bytes(), found.start) => Standing::Commented,
            Origin::Prose => prose_standing(text, found, true).unwrap_or(Standing::Plain),
            _ => Standing::Plain,
        },
        lead: match origin {
            Origin::Prose | Origin::Fence | Origin::OtherFence => lead::lead(text, found.start),
            Origin::Explicit | Origin::Whole => Lead::Plain,
        },
    }
}

/// How far around a value `prose_standing` looks: the check stays constant per candidate, so a
/// line of many values is read in linear time.
const SENTENCE_LOOK: usize = 256;

/// How the value at `span` in the prose stands (`Commented` aside): written in parentheses
/// ([`in_parentheses`]); inside a sentence (text before it on its first line that is not a
/// label, and a word after it in the same sentence: `if you wanted {"a": 1} instead`); on
/// lines of its own ([`set_out_before`] and [`line_ends_after`]: `Answer: {..}` ending its
/// line); or none of these (`Answer: {..} — hope this helps`, `I used {..}.`). Each side is
/// looked at for [`SENTENCE_LOOK`] bytes. The one rule for `extract` and the stream's choice
/// of the value shown: when `text` is not `whole` (a reply still arriving), `None` while the
/// bytes so far cannot tell.
/// Whether the value at `span` is an empty object or array (`{}`, `[ ]`): it says nothing a
/// value written beside it does not, and in prose it is most often a mention (`if there is
/// no data, return {}`), so of two values that rank alike, it loses to one that is not
/// empty, in `extract` and in the stream's choice of the value shown alike.
pub(crate) fn empty_container(text: &str, span: Span) -> bool {
    match text.as_bytes().get(span.start..span.end) {
        Some([open, inside @ .., close]) => {
            matches!((open, close), (b'{', b'}') | (b'[', b']'))
                && inside.iter().all(u8::is_ascii_whitespace)
        }
        _ => false,
    }
}

pub(crate) fn prose_standing(text: &str, span: Span, whole: bool) -> Option<Standing> {
    let set_out = set_out_before(text, span.start);
    let before = prose_before(text, span.start);
    let told = match (set_out, before) {
        (true, _) => line_ends_after(text, span.end, whole)?,
        (false, true) => sentence_goes_on(text, span.end, whole)?,
        (false, false) => false,
    };
    // Told, the text after the value has arrived past its first byte that is not a space.
    Some(match (set_out, told) {
        _ if before && in_parentheses(text, span) => Standing::Aside,
        (true, true) => Standing::Displayed,
        (false, true) => Standing::InSentence,
        _ => Standing::Plain,
    })
}

/// Whether the value at `span` is written in parentheses in the prose, an aside (`(see [1])`,
/// `(for instance {..})`): the first byte after it but spaces is `)`, and a `(` before it on
/// its line is open (within [`SENTENCE_LOOK`] bytes each way).
pub(crate) fn in_parentheses(text: &str, span: Span) -> bool {
    let bytes = text.as_bytes();
    let after = bytes[span.end.min(bytes.len())..]
        .iter()
        .take(SENTENCE_LOOK);
    if after.copied().find(|b| !matches!(b, b' ' | b'\t')) != Some(b')') {
        return false;
    }
    let mut depth = 0usize;
    for &b in bytes[..span.start].iter().rev().take(SENTENCE_LOOK) {
        match b {
            b'\n' => return false,
            b')' => depth += 1,
            b'(' if depth == 0 => return true,
            b'(' => depth -= 1,
            _ => {}
        }
    }
    false
}

/// Whether the text before `at` on its line (within [`SENTENCE_LOOK`] bytes) sets the value
/// there out on its line: nothing but spaces, a label (`Answer:`), a list marker (`-`, `*`,
/// `1.`) or the end of an HTML comment.
pub(crate) fn set_out_before(text: &str, at: usize) -> bool {
    let from = at.saturating_sub(SENTENCE_LOOK);
    let before = &text.as_bytes()[from..at];
    let line = match memchr::memrchr(b'\n', before) {
        Some(n) => &before[n + 1..],
        None if from == 0 => before,
        None => return false,
    };
    let line = line.trim_ascii();
    line.is_empty()
        || line.ends_with(b":")
        || line.ends_with("\u{ff1a}".as_bytes())
        || line.ends_with(b"-->")
        || matches!(line, b"-" | b"*" | b"+")
        || line
            .strip_suffix(b".")
            .is_some_and(|n| !n.is_empty() && n.iter().all(u8::is_ascii_digit))
}

/// Whether the line ends after `end` with nothing but spaces and punctuation before it: no
/// word and no other value (within [`SENTENCE_LOOK`] characters). When `text` is not `whole`
/// (a reply still arriving), `None` while the bytes so far cannot tell.
pub(crate) fn line_ends_after(text: &str, end: usize, whole: bool) -> Option<bool> {
    for (seen, c) in text[end.min(text.len())..].chars().enumerate() {
        match c {
            '\n' => return Some(true),
            _ if seen == SENTENCE_LOOK => return Some(false),
            c if c.is_alphanumeric() => return Some(false),
            '{' | '[' | '"' | '\'' | '`' => return Some(false),
            _ => {}
        }
    }
    whole.then_some(true)
}

/// Whether text other than spaces comes before `at` on its line (within [`SENTENCE_LOOK`]
/// bytes).
pub(crate) fn prose_before(text: &str, at: usize) -> bool {
    let before = text.as_bytes()[..at].iter().rev().take(SENTENCE_LOOK);
    before
        .take_while(|&&b| b != b'\n')
        .any(|b| !b.is_ascii_whitespace())
}

/// Whether a word follows `end` in its sentence, before the line or the sentence ends (within
/// [`SENTENCE_LOOK`] characters). When `text` is not
/// `whole` (a reply still arriving), `None` while the bytes so far cannot tell. The sentence
/// also ends at an opener (`{`, `[`): the words of the next value are not the sentence's, and
/// a stream meets that value there, so what it decides does not depend on how much of the
/// text after it had arrived.
pub(crate) fn sentence_goes_on(text: &str, end: usize, whole: bool) -> Option<bool> {
    let mut rest = text[end.min(text.len())..]
        .chars()
        .take(SENTENCE_LOOK)
        .peekable();
    let mut seen = 0;
    while let Some(c) = rest.next() {
        seen += 1;
        match c {
            '\n' => return Some(false),
            '.' | '!' | '?' | ';' => match rest.peek() {
                None if !whole => return None,
                None => return Some(false),
                Some(n) if n.is_whitespace() => return Some(false),
                Some(_) => {}
            },
            c if c.is_alphanumeric() => return Some(true),
            '{' | '[' => return Some(false),
            _ => {}
        }
    }
    (whole || seen == SENTENCE_LOOK).then_some(false)
}

/// Whether the value starting at `at` is inside an HTML comment: a `<!--` before it, within
/// [`SENTENCE_LOOK`] bytes, with no `-->` after that.
pub(crate) fn in_html_comment(bytes: &[u8], at: usize) -> bool {
    let before = &bytes[at.saturating_sub(SENTENCE_LOOK)..at];
    // Most text holds no `<`: settled by one byte search, before the substring searches.
    memchr::memchr(b'<', before).is_some()
        && memchr::memmem::rfind(before, b"<!--")
            .is_some_and(|open| memchr::memmem::find(&before[open + 4..], b"-->").is_none())
}

/// Whether `literal` is an object or array written with escaped quotes (`{\"a\": 1}`): the
/// content of a JSON string, which decodes.
fn escaped_document(literal: &str) -> bool {
    let opened = literal.starts_with(['{', '[']);
    // An HTML-escaped document always decodes; only a JSON-escaped one is decoded to tell.
    opened
        && (html_escaped(literal)
            || (lex::trim_start(&literal[1..]).starts_with("\\\"")
                && decode_embedded(literal).is_some()))
}

/// How the document `literal` (which [`decode_embedded`] decodes) was escaped: as a JSON
/// string's content, or with HTML's character references.
fn escaping(literal: &str) -> RepairKind {
    match html_escaped(literal) {
        true => RepairKind::HtmlEntities,
        false => RepairKind::EmbeddedJson,
    }
}

/// The length of the HTML character reference for `"` that `bytes` start with (`&quot;`,
/// `&#34;`, `&#x22;`), or 0.
fn html_quote_len(bytes: &[u8]) -> usize {
    ["&quot;", "&#34;", "&#x22;"]
        .iter()
        .find(|r| bytes.len() >= r.len() && bytes[..r.len()].eq_ignore_ascii_case(r.as_bytes()))
        .map_or(0, |r| r.len())
}

/// Whether `literal` is an object or array written as a web page shows it: no quote of its
/// own, and its first `&` a character reference for one (`{&quot;a&quot;: 1}`,
/// `{a: &quot;x&quot;}`), before any single quote (in `['say &quot;hi&quot;']` the
/// reference is the text of a string in single quotes).
fn html_escaped(literal: &str) -> bool {
    let bytes = literal.as_bytes();
    literal.starts_with(['{', '['])
        && memchr::memchr(b'"', bytes).is_none()
        && memchr::memchr(b'&', bytes).is_some_and(|i| {
            html_quote_len(&bytes[i..]) > 0 && memchr::memchr(b'\'', &bytes[..i]).is_none()
        })
}

/// `literal` with HTML's character references decoded: the named ones JSON text holds
/// (`&quot;`, `&amp;`, `&lt;`, `&gt;`, `&apos;`, `&nbsp;`) and numeric ones; any other `&` is
/// kept as written.
fn decode_html(literal: &str) -> String {
    let bytes = literal.as_bytes();
    let mut out = String::with_capacity(literal.len());
    let mut from = 0;
    for at in memchr::memchr_iter(b'&', bytes) {
        if at < from {
            continue;
        }
        let Some((c, len)) = html_reference(&bytes[at..]) else {
            continue;
        };
        out.push_str(&literal[from..at]);
        out.push(c);
        from = at + len;
    }
    out.push_str(&literal[from..]);
    out
}

/// The character the reference `bytes` start with stands for, and the reference's length.
fn html_reference(bytes: &[u8]) -> Option<(char, usize)> {
    // The longest reference read: `&#x10FFFF;`.
    let end = memchr::memchr(b';', &bytes[..bytes.len().min(10)])?;
    let name = &bytes[1..end];
    let c = match name {
        [b'#', b'x' | b'X', hex @ ..] if !hex.is_empty() => {
            char::from_u32(u32::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?)?
        }
        [b'#', dec @ ..] if !dec.is_empty() && dec.iter().all(u8::is_ascii_digit) => {
            char::from_u32(std::str::from_utf8(dec).ok()?.parse().ok()?)?
        }
        _ => {
            const NAMED: [(&str, char); 6] = [
                ("quot", '"'),
                ("amp", '&'),
                ("lt", '<'),
                ("gt", '>'),
                ("apos", '\''),
                ("nbsp", '\u{a0}'),
            ];
            NAMED
                .iter()
                .find(|(n, _)| name.eq_ignore_ascii_case(n.as_bytes()))?
                .1
        }
    };
    Some((c, end + 1))
}

/// Labeled sections in the prose and in fences, one candidate per reading of their lists, in
/// rank order. A reader that takes prose asks for them only when no value written as one
/// fits it ([`Located::sections`]).
fn section_candidates(text: &str, regions: &[SectionRegion]) -> Vec<Candidate> {
    let mut candidates = Vec::new();
    for &(span, origin, region_context) in regions {
        let Some(found) = sections::find(text, span) else {
            continue;
        };
        let mut context = vec![(RepairKind::LabeledSections, found.value)];
        context.extend(region_context);
        for lists in sections::Lists::readings(found.choices) {
            candidates.push(Candidate {
                span: found.span,
                origin,
                base_cost: context.iter().map(|(k, _)| k.cost()).sum(),
                context: context.clone(),
                form: Form::Sections(lists),
                nonstandard: false,
                kept: None,
                standing: Standing::Plain,
                lead: Lead::Plain,
            });
        }
    }
    candidates.sort_by_key(|c| c.base_cost);
    candidates
}

/// One candidate per place (its best-ranked reading), a caller's markers promoted, then
/// sorted best first.
fn rank(text: &str, settings: &Settings, candidates: &mut Vec<Candidate>) {
    // One candidate per place: the best-ranked reading of it.
    sort_by_key(candidates, |c| {
        (c.span.start, c.span.end, c.origin, c.base_cost)
    });
    candidates.dedup_by_key(|c| (c.span.start, c.span.end));
    // A value right after a caller's marker ranks with the explicit ones.
    for marker in &settings.markers {
        for (at, _) in text.match_indices(marker.as_str()) {
            let after = at + marker.len();
            let first = candidates.partition_point(|c| c.span.start < after);
            if let Some(c) = candidates.get_mut(first) {
                c.origin = Origin::Explicit;
                c.context.retain(|(k, _)| *k != RepairKind::SurroundingText);
                c.base_cost = c.context.iter().map(|(k, _)| k.cost()).sum();
            }
        }
    }
    sort_by_key(candidates, |c| (c.base_cost, c.origin, c.span.start));
}

/// `candidates` sorted by `key` as a stable sort would, each moved once: the keys are sorted
/// with their indexes instead of the candidates themselves, which are large (a reply of many
/// small fences has hundreds of thousands).
fn sort_by_key<K: Ord>(candidates: &mut Vec<Candidate>, key: impl Fn(&Candidate) -> K) {
    let mut order: Vec<(K, usize)> = (candidates.iter().enumerate())
        .map(|(i, c)| (key(c), i))
        .collect();
    // The index breaks ties in the order written, as a stable sort does.
    order.sort_unstable();
    let mut slots: Vec<Option<Candidate>> = candidates.drain(..).map(Some).collect();
    candidates.extend(order.into_iter().filter_map(|(_, i)| slots[i].take()));
}

/// `callback( {...} );` around a value: the span of the wrapper's head.
fn jsonp_wrapper(text: &str, value: Span) -> Option<Span> {
    let before = lex::trim_end(&text[..value.start]);
    let head = before.strip_suffix('(')?;
    let name_start = head
        .char_indices()
        .rev()
        .find(|&(_, c)| !lex::is_callee_char(c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let name = &head[name_start..];
    if name.is_empty() || !lex::trim(&text[..name_start]).is_empty() {
        return None;
    }
    Some(Span::new(name_start, value.start))
}

/// Where `marker` first occurs in `hay`: its first byte found with `memchr`, then compared.
/// A substring searcher (`str::find`, `memmem`) sets up more for each call than this costs on
/// a reply that holds no marker, the usual case.
fn find_marker(hay: &[u8], marker: &[u8]) -> Option<usize> {
    let (&first, _) = marker.split_first()?;
    let mut from = 0;
    while let Some(k) = memchr::memchr(first, &hay[from..]) {
        let at = from + k;
        if hay[at..].starts_with(marker) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Regions between each `start` marker and the next `end` marker (or the end of the text).
fn marker_pair_regions(text: &str, start: &str, end: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut from = 0;
    let bytes = text.as_bytes();
    while let Some(i) = find_marker(&bytes[from..], start.as_bytes()) {
        let content_start = from + i + start.len();
        match find_marker(&bytes[content_start..], end.as_bytes()) {
            Some(j) => {
                out.push(Span::new(content_start, content_start + j));
                from = content_start + j + end.len();
            }
            None => {
                out.push(Span::new(content_start, text.len()));
                break;
            }
        }
    }
    out
}

/// The document inside `literal` when it is a JSON string (`"{\"a\": 1}"`), the content
/// of one without its outer quotes (`{\"a\": 1}`, as escaped JSON is often pasted), or a
/// document written with HTML's character references (`{&quot;a&quot;: 1}`, as a web page
/// shows it).
pub(crate) fn decode_embedded(literal: &str) -> Option<String> {
    if literal.starts_with('"') {
        return serde_json::from_str(literal).ok();
    }
    // As a string's content, every quote of the document is escaped: the first one tells.
    let first_quote = memchr::memchr(b'"', literal.as_bytes());
    let bare = (literal.starts_with('{') || literal.starts_with('['))
        && first_quote.is_some_and(|i| i > 0 && literal.as_bytes()[i - 1] == b'\\');
    if bare {
        return serde_json::from_str(&format!("\"{literal}\"")).ok();
    }
    html_escaped(literal).then(|| decode_html(literal))
}

#[cfg(test)]
mod tests;
