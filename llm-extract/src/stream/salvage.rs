//! Salvage: the partial value of a reply that is truncated or does not read as a whole.

use super::reader::{At, Doubts};
use super::Stream;
use super::{Feed, Issues, PartialValue, Step};
use crate::coerce::{keys_match, Extract};
use crate::error::{Category, Error, Issue};
use crate::extractor::Extractor;
use crate::path::Path;

/// What [`extract_partial`] saved from a reply.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Salvaged<T: Extract> {
    /// The value when the reply reads as a whole `T` (then `issues` is empty).
    pub value: Option<T>,
    /// Everything that could be read: the partial value, fields found by key included.
    pub partial: T::Partial,
    /// What stopped the whole value: the errors of the ordinary read, then the issues of the
    /// parts read on their own.
    pub issues: Vec<Issue>,
    /// Fields found by their key (name, alias, or the same key spelled differently) outside
    /// any structure the reader could follow, each also reported in `issues`.
    pub recovered: Vec<Path>,
}

/// The partial value of a reply that is truncated or does not read as a whole `T`, with the
/// issues that stopped the whole value.
///
/// The reply is read once on the ordinary path (cut-off values are an error here); if that
/// fails, once by the streaming reader into `T::Partial`; fields still missing are then
/// looked for by their keys anywhere in the text (a last resort: the value after
/// `"name":`, read on its own), each recovery reported. Errs only when nothing at all could
/// be read.
///
/// ```
/// use llm_extract::{extract_partial, Extract};
///
/// #[derive(Extract, Debug)]
/// struct Story { items: Vec<String>, story: String }
///
/// let cut = r#"{"items": ["a", "b"], "story": "Once upon a ti"#;
/// let saved = extract_partial::<Story>(cut).unwrap();
/// assert!(saved.value.is_none());
/// assert_eq!(saved.partial.items.as_ref().map(|l| l.len()), Some(2));
/// assert_eq!(saved.partial.story.as_deref(), Some("Once upon a ti"));
/// assert_eq!(saved.issues[0].category, llm_extract::Category::Incomplete);
/// ```
pub fn extract_partial<T: Extract>(text: &str) -> Result<Salvaged<T>, Error> {
    Extractor::new().extract_partial(text)
}

impl Extractor {
    /// [`extract_partial`] with these settings.
    pub fn extract_partial<T: Extract>(&self, text: &str) -> Result<Salvaged<T>, Error> {
        // Salvage reads on where the preview would hold: some reading beats none.
        let mut stream = Stream::<T>::with_doubts(self.clone(), Doubts::Guess);
        stream.push(text);
        let whole = stream.outcome();
        let mut partial = stream.values.shown().cloned();
        let (value, mut issues) = match whole {
            Ok(done) => (Some(done.value), Vec::new()),
            Err(e) => (None, e.issues().to_vec()),
        };
        let mut recovered = Vec::new();
        if value.is_none() {
            let mut found = Issues::default();
            let place = At {
                text,
                opens: &[],
                now: text.len(),
                closed: None,
                string: usize::MAX,
                doubts: Doubts::Guess,
                repeated: false,
            };
            let mut feed = Feed {
                place: &place,
                prefix: &[],
                path: &[],
                issues: &mut found,
                max_depth: self.settings.max_depth,
                unheld: None,
                trail: None,
                wraps: (0, 0),
                strict: false,
                quiet: false,
            };
            recovered = <T::Partial as PartialValue>::salvage(&mut partial, &mut feed);
            issues.extend(stream.issues().iter().cloned());
            issues.extend(found.list);
        }
        if value.is_none() && partial.is_none() {
            return Err(Error::new(issues));
        }
        Ok(Salvaged {
            value,
            partial: partial.unwrap_or_default(),
            issues,
            recovered,
        })
    }
}

impl Feed<'_> {
    /// Where the value of the first member whose key is one of `names` (or the same key
    /// spelled differently: `toolName` for `tool_name`) starts in the text, anywhere:
    /// the last resort of salvage, for a field the reader could not reach.
    pub fn find_member(&self, names: &[&str]) -> Option<usize> {
        let bytes = self.place.text.as_bytes();
        let mut from = 0;
        while let Some(i) = memchr::memchr(b':', &bytes[from..]) {
            let colon = from + i;
            from = colon + 1;
            let before = self.place.text[..colon].trim_end();
            let (key, quoted) = match before.chars().last() {
                Some(q @ ('"' | '\'')) => {
                    let inner = &before[..before.len() - 1];
                    match inner.rfind(q) {
                        Some(open) if inner.len() - open <= 128 => (&inner[open + 1..], true),
                        _ => continue,
                    }
                }
                _ => {
                    let start = before
                        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
                        .map_or(0, |p| p + 1);
                    (&before[start..], false)
                }
            };
            if key.is_empty() || (!quoted && key.len() > 64) {
                continue;
            }
            if names.iter().any(|n| *n == key || keys_match(n, key)) {
                let value =
                    self.place.text[from..].len() - self.place.text[from..].trim_start().len();
                return Some(from + value);
            }
        }
        None
    }

    /// The value starting at `start`, read on its own into a fresh partial, and recorded as
    /// recovered at `field` below the root.
    pub fn recover<P: PartialValue>(&mut self, start: usize, field: &str) -> Option<P> {
        let prefix = [Step::Key(field)];
        let mut reader = super::reader::Reader::replay(
            start,
            self.place.text.len(),
            self.max_depth,
            Doubts::Guess,
        );
        reader.stop_values();
        let mut sink = super::Replay::<P> {
            slot: None,
            member: None,
            prefix: &prefix,
            issues: self.issues,
            max_depth: self.max_depth,
            strict: self.strict,
            quiet: self.quiet,
        };
        reader.advance(self.place.text, &mut sink);
        let found = sink.slot?;
        let mut issue = Issue::new(
            Category::Syntax,
            Path::root().key(field),
            "recovered by its key: the structure around it could not be read",
        )
        .at(crate::span::Span::at(start));
        issue.position = Some(crate::span::Position::of(self.place.text, start));
        self.issues.push(issue);
        Some(found)
    }
}
