//! What leniency did: every repair to the syntax and every coercion to the type.

use crate::path::Path;
use crate::span::{Position, Span};
use serde::Serialize;
use std::fmt;

/// A syntax repair made by the parser or a choice made by the locator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub enum RepairKind {
    /// The value was taken from a markdown code fence.
    Fence,
    /// The value was surrounded by other text (prose, tags, markers), which was skipped.
    SurroundingText,
    /// Text after the value's end was ignored.
    TrailingText,
    /// A JSON document was found escaped inside a JSON string, and decoded.
    EmbeddedJson,
    /// A JSON document was written with HTML's character references for its quotes
    /// (`{&quot;a&quot;: 1}`, as a web page shows it), and decoded.
    HtmlEntities,
    /// The value was assembled from `Label: value` lines.
    LabeledSections,
    /// The value was read from inside reasoning (`<think>...</think>` and the like), because
    /// nothing outside it held one and the caller allowed it
    /// ([`Extractor::fallback_to_reasoning`](crate::Extractor::fallback_to_reasoning)).
    FromReasoning,
    /// The reply (or a fence's body) was read as plain text by a target type that reads text:
    /// a `String`, a number in a sentence, an enum variant named in prose.
    TextAsValue,
    /// A `//`, `#` or `/* */` comment was removed.
    Comment,
    /// A trailing comma before `}` or `]` was removed.
    TrailingComma,
    /// A leading or doubled comma was removed.
    ExtraComma,
    /// A missing comma between two values was inserted.
    MissingComma,
    /// A missing `:` between key and value was inserted.
    MissingColon,
    /// A key or value without a value (`"a": ,`) became `null`.
    MissingValue,
    /// A string in single quotes, backticks or typographic quotes.
    NonStandardQuotes,
    /// An object key without quotes.
    UnquotedKey,
    /// A string value without quotes.
    UnquotedString,
    /// `True`, `False`, `None`, `undefined` and other non-JSON literals.
    NonStandardLiteral,
    /// `NaN`, `Infinity` or a number past `f64`'s range (`1e400`), which JSON cannot hold
    /// (kept as `null` in a `serde_json::Value`).
    NonFiniteNumber,
    /// A number in a form JSON forbids: `.5`, `5.`, `+5`, `007`, hexadecimal.
    NonStandardNumber,
    /// A raw newline, tab or other control character inside a string.
    ControlCharacter,
    /// An invalid escape sequence, kept literally.
    InvalidEscape,
    /// A quote inside a string that did not end it.
    UnescapedQuote,
    /// A string's closing quote was missing: it ended where the structure around it resumed
    /// (`"engineer, "team": ..` ends before the `,`).
    MissingQuote,
    /// A `"""triple-quoted"""` string (Python), read with its common indentation removed.
    TripleQuotedString,
    /// A value written as a markdown code block (`"code": ```py\n...\n````), read as the
    /// code between the fences, its info string dropped and its common indentation removed.
    FencedValue,
    /// A closing bracket of the wrong kind closed the innermost container (`[1, 2}`).
    WrongBracket,
    /// An opening bracket was missing and inserted (`[{"a": 1}, "b": 2}]`).
    MissingOpeningBracket,
    /// A Python tuple `(1, 2)` read as an array.
    TupleAsArray,
    /// A Python set `{'a', 'b'}` read as an array.
    SetAsArray,
    /// `1_000`, or `2,000.00` as a value in an object: digit separators removed.
    DigitSeparator,
    /// A number JSON cannot hold as written (leading zeros such as `02134`), kept as a string.
    NumberAsString,
    /// A space JSON does not allow between tokens: a vertical tab or form feed, or a Unicode
    /// space (U+00A0, U+2000..U+200B, U+3000, U+180E, U+FEFF, ...).
    UnicodeWhitespace,
    /// A full-width colon or comma (`：`, `，`) between tokens, read as `:` or `,`.
    FullWidthPunctuation,
    /// `"a" + "b"` joined into one string.
    StringConcatenation,
    /// A closing bracket with nothing to close, or of the wrong kind.
    StrayBracket,
    /// A container closed where its closing bracket was missing.
    MissingBracket,
    /// Text that could not be part of the value was skipped.
    SkippedText,
    /// The input ended inside a string; it was closed.
    TruncatedString,
    /// The input ended inside containers; they were closed in stack order.
    TruncatedContainer,
    /// The input ended inside a literal or number, which was completed.
    TruncatedLiteral,
    /// The input ended after a key; the key was dropped.
    TruncatedKey,
    /// A JSONP wrapper such as `callback(...)` was removed.
    JsonpWrapper,
    /// The value was taken from inside a bracket that never closed, dropping the text around
    /// it (which read like prose rather than a value cut off by the end of the text).
    NestedValue,
    /// An unquoted key that reads like a sentence: likely prose caught between braces.
    SentenceKey,
    /// Bytes that are not valid UTF-8 were read as U+FFFD (`\u{FFFD}`), one per invalid
    /// sequence. The library takes `&str`; the command line, which reads bytes, reports this.
    InvalidUtf8,
    /// A key written twice in one object; the later value was kept. Which one the writer
    /// meant is a guess (reported where a value is acted on, such as a tool call).
    DuplicateKey,
}

/// Whether a repair can change what a value means (see [`RepairKind::class`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub enum RepairClass {
    /// Reads what was written, only in another syntax: quote style, commas, comments,
    /// literals of other languages, whitespace, the text around the value.
    KeepsMeaning,
    /// Decides something the text does not say: a bare word read as a string or key, a
    /// member with no value, skipped text, a string end or a bracket chosen by lookahead, a
    /// duplicated key, a non-finite number. A value read with one is not acted on by default
    /// (a tool call with one is doubtful).
    Guess,
    /// Closes what the end of the input left open: the value was cut off.
    Truncation,
}

impl RepairKind {
    /// Whether this repair closed something the input ended inside.
    pub fn is_truncation(self) -> bool {
        use RepairKind::*;
        matches!(
            self,
            TruncatedString | TruncatedContainer | TruncatedLiteral | TruncatedKey
        )
    }

    /// Whether this repair keeps the meaning of what was written, guesses, or closes a value
    /// cut off. The one table of it: tool calls are doubtful exactly when a repair made reading
    /// them is a [`RepairClass::Guess`].
    ///
    /// ```
    /// use llm_extract::{RepairClass, RepairKind};
    /// assert_eq!(RepairKind::TrailingComma.class(), RepairClass::KeepsMeaning);
    /// assert_eq!(RepairKind::NonStandardLiteral.class(), RepairClass::KeepsMeaning);
    /// assert_eq!(RepairKind::UnquotedString.class(), RepairClass::Guess);
    /// assert_eq!(RepairKind::MissingQuote.class(), RepairClass::Guess);
    /// assert_eq!(RepairKind::TruncatedString.class(), RepairClass::Truncation);
    /// ```
    pub fn class(self) -> RepairClass {
        use RepairKind::*;
        match self {
            Fence | SurroundingText | TrailingText | EmbeddedJson | JsonpWrapper | HtmlEntities => {
                RepairClass::KeepsMeaning
            }
            Comment | TrailingComma | ExtraComma | MissingComma | NonStandardQuotes => {
                RepairClass::KeepsMeaning
            }
            NonStandardLiteral | NonStandardNumber | NumberAsString | ControlCharacter => {
                RepairClass::KeepsMeaning
            }
            InvalidEscape | TripleQuotedString | FencedValue | TupleAsArray | SetAsArray => {
                RepairClass::KeepsMeaning
            }
            UnicodeWhitespace | FullWidthPunctuation | StringConcatenation | InvalidUtf8 => {
                RepairClass::KeepsMeaning
            }
            // A bare word as a key or string, a member without a value, a key that is prose.
            UnquotedKey | UnquotedString | MissingValue | MissingColon | SentenceKey => {
                RepairClass::Guess
            }
            // Where a string or a container ends, chosen by what follows.
            MissingQuote | UnescapedQuote | WrongBracket | MissingOpeningBracket => {
                RepairClass::Guess
            }
            StrayBracket | MissingBracket | SkippedText | NestedValue => RepairClass::Guess,
            NonFiniteNumber | DigitSeparator | DuplicateKey => RepairClass::Guess,
            // Not what was written as the value: text read as one, lines assembled into one,
            // a draft in reasoning.
            TextAsValue | LabeledSections | FromReasoning => RepairClass::Guess,
            TruncatedString | TruncatedContainer | TruncatedLiteral | TruncatedKey => {
                RepairClass::Truncation
            }
        }
    }

    /// Whether this repair guesses: [`RepairClass::Guess`].
    pub fn is_guess(self) -> bool {
        self.class() == RepairClass::Guess
    }

    /// How much this repair counts against a reading in the score.
    pub fn cost(self) -> u32 {
        use RepairKind::*;
        match self {
            Fence | SurroundingText | TrailingText | JsonpWrapper | Comment | TrailingComma => 1,
            EmbeddedJson | ExtraComma | NonStandardQuotes | UnquotedKey | NonStandardLiteral => 1,
            HtmlEntities => 1,
            NonStandardNumber | ControlCharacter | InvalidEscape | StringConcatenation => 1,
            // Output cut off by a token limit is common and says nothing against the reading.
            TruncatedString | TruncatedContainer | TruncatedLiteral => 1,
            UnicodeWhitespace | FullWidthPunctuation | DigitSeparator | TupleAsArray
            | TripleQuotedString | FencedValue => 1,
            MissingComma | MissingColon | MissingValue | UnescapedQuote | NonFiniteNumber => 2,
            MissingQuote | NumberAsString | SetAsArray | DuplicateKey => 2,
            WrongBracket | MissingOpeningBracket => 3,
            // A character of the text is lost, but nothing about the reading is in doubt.
            UnquotedString | TruncatedKey | InvalidUtf8 => 2,
            StrayBracket | MissingBracket => 3,
            SkippedText => 4,
            TextAsValue => 6,
            // Read only when no value written as one fits: above any value's surroundings.
            LabeledSections => 20,
            // A last resort: read only when nothing outside reasoning was there.
            FromReasoning => 24,
            // A truncated reply with many small repairs must still beat a value found inside
            // it; only a reading with prose for keys should lose to one.
            NestedValue | SentenceKey => 12,
        }
    }
}

/// One repair: what, where in the text, and where in the value.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Repair {
    /// What was repaired.
    pub kind: RepairKind,
    /// The bytes of the original text concerned.
    pub span: Span,
    /// Where in the value the repair happened.
    pub path: Path,
    /// `span.start` as line:column (filled in when the report is built).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<Position>,
    /// Its weight in the score.
    pub cost: u32,
}

impl Repair {
    /// A repair of `kind` at `span`, at the root of the value, costing [`RepairKind::cost`]:
    /// for repairs made around the library, such as decoding the input's bytes.
    ///
    /// ```
    /// use llm_extract::{Repair, RepairKind, Span};
    /// let r = Repair::new(RepairKind::InvalidUtf8, Span::new(3, 6));
    /// assert_eq!((r.cost, r.path.to_string()), (2, "$".to_string()));
    /// ```
    pub fn new(kind: RepairKind, span: Span) -> Repair {
        Repair {
            kind,
            span,
            path: Path::root(),
            position: None,
            cost: kind.cost(),
        }
    }
}

impl fmt::Display for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some(p) => write!(f, "{p}")?,
            None => write!(f, "{}", self.span)?,
        }
        write!(f, " {} at {}", self.kind, self.path)
    }
}

/// The variant's name, as it is serialized (`TrailingComma`, ...).
impl fmt::Display for RepairKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// The variant's name, as it is serialized (`StringToNumber`, ...).
impl fmt::Display for CoercionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// `start..end kind at path`, as a [`Repair`] prints.
impl fmt::Display for Coercion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} at {}", self.span, self.kind, self.path)
    }
}

/// The score, whether the value was cut off, then each repair and coercion on its own line.
///
/// ```
/// let out = llm_extract::extract::<Vec<u32>>("[1, '2',]").unwrap();
/// let text = out.report.to_string();
/// assert!(text.starts_with("score "), "{text}");
/// assert!(text.contains("repair 1:8 TrailingComma at $"), "{text}");
/// assert!(text.contains("coercion 4..7 StringToNumber at $[1]"), "{text}");
/// ```
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "score {}", self.score)?;
        if !self.complete {
            f.write_str(", cut off")?;
        }
        for repair in &self.repairs {
            write!(f, "\nrepair {repair}")?;
        }
        for coercion in &self.coercions {
            write!(f, "\ncoercion {coercion}")?;
        }
        Ok(())
    }
}

/// A lenient step taken to fit a value to the target type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub enum CoercionKind {
    /// A key matched a field only after normalization (case, `_`, `-`, spaces).
    NormalizedKey,
    /// A key matched a field through an alias.
    AliasKey,
    /// A key matched a field (its name or an alias) only once diacritics were ignored
    /// (`cafe` for `café`, `strasse` for `straße`). Costs more than a normalized or alias
    /// match: it is tried after them.
    FoldedKey,
    /// Several input keys landed on the same field; the best match was used.
    DuplicateKey,
    /// A key matched no field and was ignored.
    UnknownKey,
    /// A missing field took its default.
    DefaultUsed,
    /// A value that could not be coerced was replaced by the default (`catch`).
    Caught,
    /// A string was parsed as a number (`"42"`, `"4,200"`).
    StringToNumber,
    /// A number with a zero fraction became an integer.
    FloatToInteger,
    /// A number or boolean became a string.
    ToString,
    /// A string or number became a boolean.
    ToBool,
    /// A single value became a one-item list.
    SingleToList,
    /// A one-item list gave its item.
    ListToSingle,
    /// `null` or a placeholder such as `"N/A"` became `None`.
    PlaceholderToNone,
    /// A number was taken from a short sentence.
    NumberFromText,
    /// `null` where a list or map is expected became an empty one.
    NullToEmpty,
    /// An enum variant matched after normalization.
    NormalizedVariant,
    /// An enum variant matched through an alias.
    AliasVariant,
    /// An enum variant (its name or an alias) matched only once diacritics were ignored.
    /// Costs more than a normalized or alias match: it is tried after them.
    FoldedVariant,
    /// An enum variant was found as a word inside a sentence.
    VariantFromText,
    /// An unknown value went to the `other` variant.
    OtherVariant,
    /// An internally or adjacently tagged value had no tag; every variant was tried.
    MissingTag,
    /// An adjacently tagged value had its content's fields beside the tag instead of under
    /// the content key (`{"name": "search", "query": ".."}` for `content = "arguments"`).
    InlineContent,
    /// A string holding a JSON object or array was decoded where the type wants a container
    /// (a struct, map, list, tuple or tagged enum), before any reading that would wrap the
    /// string itself (OpenAI's `"arguments": "{\"city\": \"Paris\"}"`).
    DecodedString,
    /// A repair the document inside a [decoded string](CoercionKind::DecodedString) needed
    /// (single quotes, a trailing comma, ...): it costs what the repair costs.
    RepairInString(RepairKind),
    /// A bare value, or an object that did not fit the struct as written, was taken as the
    /// only field of a one-field struct.
    WrappedInStruct,
    /// An object with one unknown key that did not fit the struct stood for its value
    /// (`{"review": {...}}` read as a `Review`).
    UnwrappedObject,
    /// The last item of a list (or entry of a map) cut off by the end of the reply did not
    /// fit and was dropped; the complete items before it were kept.
    DroppedIncompleteItem,
    /// Several values found apart in the reply (`{"a": 1} {"a": 2}`, two fences) became the
    /// items of one list, where the type wants a list and no single value is one.
    GatheredList,
    /// A list written as text became a list: bulleted or numbered lines, or `red, green and
    /// blue` when the text as one item does not fit.
    ListFromText,
    /// A boolean was taken from a short sentence holding exactly one of `yes`, `no`, `true`,
    /// `false` (`Yes, it compiles.`).
    BoolFromText,
    /// Some other coercion, described in words.
    Other(String),
}

impl CoercionKind {
    /// How much this coercion counts against a reading in the score. With
    /// [`RepairKind::cost`] this is the one cost table: cheaper readings win.
    pub fn cost(&self) -> u32 {
        use CoercionKind::*;
        match self {
            NormalizedKey | AliasKey | UnknownKey | DefaultUsed => 1,
            FloatToInteger | PlaceholderToNone | NullToEmpty => 1,
            NormalizedVariant | AliasVariant => 1,
            DuplicateKey | StringToNumber | ToString | ToBool | SingleToList | ListToSingle => 2,
            InlineContent | FoldedKey | FoldedVariant | DecodedString => 2,
            DroppedIncompleteItem | GatheredList => 2,
            Other(_) => 2,
            RepairInString(kind) => kind.cost(),
            WrappedInStruct | UnwrappedObject | OtherVariant | MissingTag => 3,
            NumberFromText | VariantFromText | ListFromText | BoolFromText => 4,
            Caught => 5,
        }
    }
}

/// One coercion: what, where in the value and the text, and its cost.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Coercion {
    /// What was done.
    pub kind: CoercionKind,
    /// Where in the value.
    pub path: Path,
    /// The bytes of the original text concerned.
    pub span: Span,
    /// Its weight in the score.
    pub cost: u32,
}

/// Everything leniency did to produce a value, and how well the value fits.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Report {
    /// Syntax repairs, in source order.
    pub repairs: Vec<Repair>,
    /// Type coercions, in the order made.
    pub coercions: Vec<Coercion>,
    /// Sum of all costs: lower is a better fit; 0 means clean, valid JSON of the right shape.
    pub score: u32,
    /// `false` when the input was cut off and repair closed it.
    pub complete: bool,
    /// Where in the text the value was found.
    pub span: Span,
}

impl Report {
    /// The report of a value read from `span` with these repairs and coercions; its score is
    /// the sum of their costs.
    pub(crate) fn new(
        repairs: Vec<Repair>,
        coercions: Vec<Coercion>,
        complete: bool,
        span: Span,
    ) -> Report {
        let score = repairs.iter().map(|r| r.cost).sum::<u32>()
            + coercions.iter().map(|c| c.cost).sum::<u32>();
        Report {
            repairs,
            coercions,
            score,
            complete,
            span,
        }
    }

    /// Whether nothing had to be repaired or coerced.
    pub fn is_clean(&self) -> bool {
        self.repairs.is_empty() && self.coercions.is_empty()
    }
}
