//! Lenient readings of text: the small, pure functions that coercion is built from.
//!
//! Every function here is deterministic and allocation-light; the [`Extract`](crate::Extract)
//! impls and the code `#[derive(Extract)]` generates call them and record what they did in
//! the report.

mod impls;

pub(crate) use impls::single as impls_single;
pub use impls::MapKey;

use crate::node::Number;

/// Whether `a` and `b` are the same key once case and the separators `_`, `-`, space and
/// `.` are ignored: `toolName`, `tool_name`, `Tool-Name` and `TOOL NAME` are one key.
///
/// ```
/// use llm_extract::coerce::keys_match;
/// assert!(keys_match("toolName", "tool_name"));
/// assert!(keys_match("TOOL NAME", "tool-name"));
/// assert!(!keys_match("tool", "tool_name"));
/// ```
pub fn keys_match(a: &str, b: &str) -> bool {
    let mut a = a.chars().filter(|c| c.is_alphanumeric());
    let mut b = b.chars().filter(|c| c.is_alphanumeric());
    loop {
        match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x == y || x.to_lowercase().eq(y.to_lowercase()) => {}
            _ => return false,
        }
    }
}

/// The key with case and separators removed (the form [`keys_match`] compares).
///
/// ```
/// assert_eq!(llm_extract::coerce::normalize_key("Tool_Name"), "toolname");
/// ```
pub fn normalize_key(key: &str) -> String {
    key.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A number written as text: `"42"`, `" 42 "`, `"-3.5"`, `"+7"`, `"4,200"`, `"1e3"`.
///
/// Thousands separators must group digits by three; anything else (`"42 apples"`,
/// `"4,20"`, `"NaN"`) is `None`.
///
/// ```
/// use llm_extract::{coerce::parse_number, Number};
/// assert_eq!(parse_number(" 4,200 "), Some(Number::PosInt(4200)));
/// assert_eq!(parse_number("-3"), Some(Number::NegInt(-3)));
/// assert_eq!(parse_number("2.5"), Some(Number::Float(2.5)));
/// assert_eq!(parse_number("4,20"), None);
/// ```
pub fn parse_number(text: &str) -> Option<Number> {
    let text = text.trim();
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let negative = text.starts_with('-');
    if !unsigned.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return None;
    }
    let (int_part, rest) = match unsigned.find(['.', 'e', 'E']) {
        Some(i) => unsigned.split_at(i),
        None => (unsigned, ""),
    };
    let digits: std::borrow::Cow<'_, str> = if int_part.contains(',') {
        let mut groups = int_part.split(',');
        let first = groups.next()?;
        if first.is_empty() || first.len() > 3 || groups.clone().any(|g| g.len() != 3) {
            return None;
        }
        int_part.replace(',', "").into()
    } else {
        int_part.into()
    };
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if rest.is_empty() {
        if digits.is_empty() {
            return None;
        }
        if negative {
            let n: i64 = format!("-{digits}").parse().ok()?;
            return Some(if n == 0 {
                Number::PosInt(0)
            } else {
                Number::NegInt(n)
            });
        }
        if let Ok(n) = digits.parse::<u64>() {
            return Some(Number::PosInt(n));
        }
    }
    let check = rest.trim_start_matches(|c: char| {
        c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-')
    });
    if !check.is_empty() {
        return None;
    }
    let sign = if negative { "-" } else { "" };
    let f: f64 = format!("{sign}{digits}{rest}").parse().ok()?;
    f.is_finite().then_some(Number::Float(f))
}

/// Longest text (in bytes) that counts as a "short sentence" for [`number_in_text`] and
/// variant matching inside a sentence.
pub const SHORT_TEXT: usize = 200;

/// The one number in a short sentence: `"The answer is 42."` gives 42.
///
/// `None` when the text is long, holds no number, or holds several (which one was meant is
/// then a guess, and we do not guess).
///
/// ```
/// use llm_extract::{coerce::number_in_text, Number};
/// assert_eq!(number_in_text("The answer is 42."), Some(Number::PosInt(42)));
/// assert_eq!(number_in_text("about 1,500 users"), Some(Number::PosInt(1500)));
/// assert_eq!(number_in_text("between 3 and 5"), None);
/// assert_eq!(number_in_text("no digits"), None);
/// ```
pub fn number_in_text(text: &str) -> Option<Number> {
    if text.len() > SHORT_TEXT {
        return None;
    }
    let bytes = text.as_bytes();
    let mut found: Option<Number> = None;
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        // A number starts here unless glued to a word ("v2", "mp3").
        let glued = i > 0 && (bytes[i - 1].is_ascii_alphabetic() || bytes[i - 1] == b'_');
        let negative =
            i > 0 && bytes[i - 1] == b'-' && (i < 2 || !bytes[i - 2].is_ascii_alphanumeric());
        let start = if negative { i - 1 } else { i };
        let mut end = i;
        loop {
            while end < bytes.len() && bytes[end].is_ascii_digit() {
                end += 1;
            }
            // A comma followed by exactly three digits continues the number.
            let three = end + 4 <= bytes.len()
                && bytes[end] == b','
                && bytes[end + 1..end + 4].iter().all(u8::is_ascii_digit)
                && bytes.get(end + 4).is_none_or(|b| !b.is_ascii_digit());
            if three {
                end += 4;
                continue;
            }
            break;
        }
        if end + 1 < bytes.len() && bytes[end] == b'.' && bytes[end + 1].is_ascii_digit() {
            end += 1;
            while end < bytes.len() && bytes[end].is_ascii_digit() {
                end += 1;
            }
        }
        let glued_after =
            end < bytes.len() && (bytes[end].is_ascii_alphabetic() || bytes[end] == b'_');
        if !glued && !glued_after {
            let n = parse_number(&text[start..end])?;
            if found.is_some() {
                return None;
            }
            found = Some(n);
        }
        i = end.max(i + 1);
    }
    found
}

/// A boolean written as a word or digit: `true`/`yes`/`y`/`on`/`1` and
/// `false`/`no`/`n`/`off`/`0`, any case, surrounding space and a final period ignored.
///
/// ```
/// use llm_extract::coerce::parse_bool;
/// assert_eq!(parse_bool("Yes"), Some(true));
/// assert_eq!(parse_bool(" false "), Some(false));
/// assert_eq!(parse_bool("maybe"), None);
/// ```
pub fn parse_bool(text: &str) -> Option<bool> {
    let t = text.trim().trim_end_matches(['.', '!']).trim();
    const TRUE: [&str; 6] = ["true", "yes", "y", "on", "1", "t"];
    const FALSE: [&str; 6] = ["false", "no", "n", "off", "0", "f"];
    if TRUE.iter().any(|w| w.eq_ignore_ascii_case(t)) {
        Some(true)
    } else if FALSE.iter().any(|w| w.eq_ignore_ascii_case(t)) {
        Some(false)
    } else {
        None
    }
}

/// Whether `text` is a placeholder for "no value": `N/A`, `none`, `null`, `-`, an empty
/// string, `not available`, ...
///
/// ```
/// use llm_extract::coerce::is_placeholder;
/// assert!(is_placeholder("N/A"));
/// assert!(is_placeholder("  None "));
/// assert!(!is_placeholder("Nora"));
/// ```
pub fn is_placeholder(text: &str) -> bool {
    const WORDS: [&str; 16] = [
        "",
        "n/a",
        "na",
        "n.a.",
        "none",
        "null",
        "nil",
        "-",
        "--",
        "\u{2014}",
        "undefined",
        "not available",
        "not applicable",
        "not specified",
        "not provided",
        "tbd",
    ];
    let t = text.trim();
    t.len() <= 16 && WORDS.iter().any(|w| w.eq_ignore_ascii_case(t))
}

/// The lowercase words of `text`, split at non-alphanumerics and at camelCase humps:
/// `"InProgress"`, `"in_progress"` and `"in progress"` all give `["in", "progress"]`.
///
/// ```
/// assert_eq!(llm_extract::coerce::words("HTTPServer is_up"), vec!["http", "server", "is", "up"]);
/// ```
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            continue;
        }
        if c.is_uppercase() && !current.is_empty() {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                out.push(std::mem::take(&mut current));
            }
        }
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

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
    /// The name or an alias, as whole words inside a short sentence.
    InText(usize),
    /// Several variants match equally well; which one was meant would be a guess.
    Ambiguous(Vec<usize>),
    /// No variant matches.
    NoMatch,
}

/// Finds the variant `text` names: exact name, then normalized name, then alias, then the
/// name as whole words inside a short sentence (the longest such match wins; equal matches
/// are [`VariantMatch::Ambiguous`]).
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
/// assert_eq!(match_variant("The sentiment is POSITIVE.", V), VariantMatch::InText(0));
/// assert_eq!(match_variant("positive or negative", V), VariantMatch::Ambiguous(vec![0, 1]));
/// ```
pub fn match_variant(text: &str, variants: &[VariantNames]) -> VariantMatch {
    if let Some(i) = variants.iter().position(|v| v.name == text) {
        return VariantMatch::Exact(i);
    }
    let trimmed = text.trim();
    let normalized: Vec<usize> = variants
        .iter()
        .enumerate()
        .filter(|(_, v)| keys_match(v.name, trimmed))
        .map(|(i, _)| i)
        .collect();
    match normalized.len() {
        0 => {}
        1 => return VariantMatch::Normalized(normalized[0]),
        _ => return VariantMatch::Ambiguous(normalized),
    }
    // An alias written exactly beats one that matches only after normalization.
    for exact in [true, false] {
        let aliased: Vec<usize> = variants
            .iter()
            .enumerate()
            .filter(|(_, v)| {
                v.aliases.iter().any(|a| {
                    if exact {
                        *a == trimmed
                    } else {
                        keys_match(a, trimmed)
                    }
                })
            })
            .map(|(i, _)| i)
            .collect();
        match aliased.len() {
            0 => {}
            1 => return VariantMatch::Alias(aliased[0]),
            _ => return VariantMatch::Ambiguous(aliased),
        }
    }
    if text.len() > SHORT_TEXT {
        return VariantMatch::NoMatch;
    }
    let sentence = words(text);
    if sentence.len() < 2 {
        return VariantMatch::NoMatch;
    }
    // For each variant, the longest of its names found as consecutive whole words.
    let mut best_len = 0;
    let mut best: Vec<usize> = Vec::new();
    for (i, v) in variants.iter().enumerate() {
        let longest = std::iter::once(v.name)
            .chain(v.aliases.iter().copied())
            .map(words)
            .filter(|w| !w.is_empty() && sentence.windows(w.len()).any(|win| win == w.as_slice()))
            .map(|w| w.len())
            .max()
            .unwrap_or(0);
        if longest == 0 {
            continue;
        }
        if longest > best_len {
            best_len = longest;
            best.clear();
        }
        if longest == best_len {
            best.push(i);
        }
    }
    match best.len() {
        0 => VariantMatch::NoMatch,
        1 => VariantMatch::InText(best[0]),
        _ => VariantMatch::Ambiguous(best),
    }
}

/// A number as text: integers as written, floats in the shortest form that reads back.
pub fn number_to_string(n: Number) -> String {
    match n {
        Number::PosInt(n) => n.to_string(),
        Number::NegInt(n) => n.to_string(),
        Number::Float(f) => match serde_json::Number::from_f64(f) {
            Some(j) => j.to_string(),
            None => f.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_from_text_table() {
        let rows: &[(&str, Option<Number>)] = &[
            ("42", Some(Number::PosInt(42))),
            (" 42 ", Some(Number::PosInt(42))),
            ("+7", Some(Number::PosInt(7))),
            ("-0", Some(Number::PosInt(0))),
            ("1,234,567", Some(Number::PosInt(1_234_567))),
            ("1,234.5", Some(Number::Float(1234.5))),
            ("3.0", Some(Number::Float(3.0))),
            (".5", Some(Number::Float(0.5))),
            ("1e3", Some(Number::Float(1000.0))),
            (
                "18446744073709551616",
                Some(Number::Float(18446744073709551616.0)),
            ),
            ("", None),
            ("-", None),
            ("abc", None),
            ("12abc", None),
            ("1,23", None),
            (",123", None),
            ("1234,567", None),
            ("inf", None),
            ("NaN", None),
            ("1e400", None),
            ("4 2", None),
        ];
        for (text, want) in rows {
            assert_eq!(parse_number(text), *want, "{text:?}");
        }
    }

    #[test]
    fn number_in_sentence_table() {
        let rows: &[(&str, Option<Number>)] = &[
            ("The answer is 42.", Some(Number::PosInt(42))),
            ("Score: 7/", Some(Number::PosInt(7))),
            ("It costs 3.50 dollars", Some(Number::Float(3.5))),
            ("temperature -5 degrees", Some(Number::NegInt(-5))),
            ("4,200 items", Some(Number::PosInt(4200))),
            ("I'd say 3, maybe 4", None),
            ("v2 of mp3", None),
            ("nothing", None),
        ];
        for (text, want) in rows {
            assert_eq!(number_in_text(text), *want, "{text:?}");
        }
        let long = format!("{} 42", "word ".repeat(60));
        assert_eq!(number_in_text(&long), None);
    }

    #[test]
    fn bools_and_placeholders() {
        for t in ["true", "TRUE", "yes", "Y", "1", "on", "Yes."] {
            assert_eq!(parse_bool(t), Some(true), "{t}");
        }
        for t in ["false", "No", "0", "off", "n"] {
            assert_eq!(parse_bool(t), Some(false), "{t}");
        }
        for t in ["", "2", "maybe", "truthy"] {
            assert_eq!(parse_bool(t), None, "{t}");
        }
        for t in [
            "N/A",
            "n/a",
            "NA",
            "null",
            "None",
            "-",
            "",
            "  ",
            "Not applicable",
        ] {
            assert!(is_placeholder(t), "{t:?}");
        }
        for t in ["0", "nan", "Nope", "no value at all here"] {
            assert!(!is_placeholder(t), "{t:?}");
        }
    }

    #[test]
    fn words_split_case_and_punctuation() {
        assert_eq!(words("InProgress"), vec!["in", "progress"]);
        assert_eq!(words("IN_PROGRESS"), vec!["in", "progress"]);
        assert_eq!(
            words("status: in-progress!"),
            vec!["status", "in", "progress"]
        );
        assert_eq!(words("userID2x"), vec!["user", "id2x"]);
        assert!(words("  ,, ").is_empty());
    }

    #[test]
    fn variants_longest_in_text_wins_and_ties_are_ambiguous() {
        const V: &[VariantNames] = &[
            VariantNames {
                name: "Progress",
                aliases: &[],
            },
            VariantNames {
                name: "InProgress",
                aliases: &["ongoing"],
            },
            VariantNames {
                name: "Done",
                aliases: &[],
            },
        ];
        assert_eq!(
            match_variant("The task is in progress.", V),
            VariantMatch::InText(1)
        );
        assert_eq!(match_variant("in_progress", V), VariantMatch::Normalized(1));
        assert_eq!(match_variant("It is ongoing", V), VariantMatch::InText(1));
        assert_eq!(
            match_variant("progress is done", V),
            VariantMatch::Ambiguous(vec![0, 2])
        );
        assert_eq!(match_variant("unknown", V), VariantMatch::NoMatch);
        assert_eq!(match_variant("Done", V), VariantMatch::Exact(2));
        assert_eq!(match_variant(" done ", V), VariantMatch::Normalized(2));
        // Aliases equal after normalization: the exact one decides.
        const W: &[VariantNames] = &[
            VariantNames {
                name: "Up",
                aliases: &["+1"],
            },
            VariantNames {
                name: "Down",
                aliases: &["-1"],
            },
        ];
        assert_eq!(match_variant("+1", W), VariantMatch::Alias(0));
        assert_eq!(match_variant("-1", W), VariantMatch::Alias(1));
        assert_eq!(match_variant("1", W), VariantMatch::Ambiguous(vec![0, 1]));
    }

    #[test]
    fn keys_match_is_symmetric_and_ignores_separators() {
        let same = [
            ("tool_name", "toolName"),
            ("Tool Name", "TOOL-NAME"),
            ("a.b", "AB"),
            ("ÉTÉ", "été"),
        ];
        for (a, b) in same {
            assert!(keys_match(a, b) && keys_match(b, a), "{a} {b}");
            assert_eq!(normalize_key(a), normalize_key(b));
        }
        assert!(!keys_match("tool", "tools"));
        assert!(!keys_match("", "x"));
    }
}
