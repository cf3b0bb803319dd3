//! Lenient readings of text: the small, pure functions that coercion is built from
//! (numbers, bools and placeholders written as text).

use crate::node::Number;

/// A number written as text: `"42"`, `" 42 "`, `"-3.5"`, `"+7"`, `"4,200"`, `"1e3"`.
///
/// Thousands separators must group digits by three; anything else (`"42 apples"`,
/// `"4,20"`, `"NaN"`) is `None`.
///
/// ```
/// use llm_extract::coerce::{parse_number, Number};
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
/// `None` when the text is long, holds no number, holds several (which one was meant is then
/// a guess, and we do not guess), or says the value is not that number: negated or a bound
/// (`not 5`, `minus 5`, `less than 5`, `at least 5`, `up to 5`, `<5`, `5+`), or one end of a
/// range (`from 5`, `since 2020`, `until 5`).
///
/// ```
/// use llm_extract::coerce::{number_in_text, Number};
/// assert_eq!(number_in_text("The answer is 42."), Some(Number::PosInt(42)));
/// assert_eq!(number_in_text("about 1,500 users"), Some(Number::PosInt(1500)));
/// assert_eq!(number_in_text("between 3 and 5"), None);
/// assert_eq!(number_in_text("no digits"), None);
/// assert_eq!(number_in_text("less than 5"), None);
/// assert_eq!(number_in_text("not 5"), None);
/// assert_eq!(number_in_text("from 5"), None);
/// assert_eq!(number_in_text("starting at $5"), None);
/// assert_eq!(number_in_text("Score from the judge: 8"), Some(Number::PosInt(8)));
/// ```
pub fn number_in_text(text: &str) -> Option<Number> {
    if text.len() > SHORT_TEXT || qualifies_number(text) {
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
            if bound_before(&text[..start]) {
                return None;
            }
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

/// Whether a short sentence says its number is not the value: a negation (`not`, `no`,
/// `never`), a sign written as a word (`minus`), or a bound (`less`, `more`, `fewer`,
/// `greater`, `over`, `under`, `above`, `below`, `least`, `most`, `up to`, `max`, `min`,
/// `nearly`, `almost`, `exceeds`, `beyond`, `within`), or a comparison sign (`<`, `>`, `≤`,
/// `≥`, `±`, a `+` right after a digit).
fn qualifies_number(text: &str) -> bool {
    const WORDS: [&str; 28] = [
        "not",
        "no",
        "never",
        "none",
        "minus",
        "negative",
        "less",
        "fewer",
        "more",
        "greater",
        "over",
        "under",
        "above",
        "below",
        "least",
        "most",
        "up",
        "max",
        "min",
        "maximum",
        "minimum",
        "nearly",
        "almost",
        "exceeds",
        "exceeding",
        "beyond",
        "within",
        "than",
    ];
    let signs = text.contains(['<', '>', '≤', '≥', '±'])
        || text
            .as_bytes()
            .windows(2)
            .any(|w| w[0].is_ascii_digit() && w[1] == b'+');
    signs || words(text).iter().any(|w| WORDS.contains(&w.as_str()))
}

/// Whether the words right before a number make it one end of a range: `from 5`, `since
/// 2020`, `after 5`, `before 5`, `until 5`, `starting at $5`. Only right before it: `score
/// from the judge: 8` still gives 8.
fn bound_before(before: &str) -> bool {
    const WORDS: [&str; 8] = [
        "from", "since", "after", "before", "until", "till", "starting", "past",
    ];
    let before = before.trim_end_matches(|c: char| c.is_whitespace() || "$€£¥#".contains(c));
    let last_word = |t: &str| {
        let start = t
            .rfind(|c: char| !c.is_alphabetic())
            .map_or(0, |i| i + t[i..].chars().next().map_or(1, char::len_utf8));
        t[start..].to_lowercase()
    };
    let mut word = last_word(before);
    if word == "at" {
        let rest = before[..before.len() - 2].trim_end();
        word = last_word(rest);
    }
    WORDS.contains(&word.as_str())
}

/// Words that turn around what follows them (`not true`, `isn't`: its `t`), as [`words`]
/// gives them. `no` is not among them: alone it is an answer.
pub(crate) const NEGATIONS: [&str; 6] = ["not", "never", "neither", "nor", "cannot", "t"];

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

/// The boolean a short sentence answers: `Yes, it compiles.` gives `true`, `There are no
/// errors.` gives `false`.
///
/// The words `yes`/`true` and `no`/`false` are looked for as whole words, any case; `None` when
/// the text is long, holds none of them, holds both kinds (`No, not yes`), or negates the one
/// it holds (`It is not true`, `never`, `isn't`).
///
/// ```
/// use llm_extract::coerce::bool_in_text;
/// assert_eq!(bool_in_text("Yes, it does."), Some(true));
/// assert_eq!(bool_in_text("The answer is no."), Some(false));
/// assert_eq!(bool_in_text("Yes and no."), None);
/// assert_eq!(bool_in_text("Maybe later"), None);
/// assert_eq!(bool_in_text("That is not true"), None);
/// ```
pub fn bool_in_text(text: &str) -> Option<bool> {
    if text.len() > SHORT_TEXT {
        return None;
    }
    let mut found = None;
    // A negation turns `yes`, `true` and `false` around (`not true`); after `no` it only
    // insists (`No, never`).
    let (mut negated, mut turnable) = (false, false);
    for word in words(text) {
        let b = match word.as_str() {
            "yes" | "true" | "false" => {
                turnable = true;
                word != "false"
            }
            "no" => false,
            w if NEGATIONS.contains(&w) => {
                negated = true;
                continue;
            }
            _ => continue,
        };
        if found.is_some_and(|f| f != b) {
            return None;
        }
        found = Some(b);
    }
    if negated && turnable {
        return None;
    }
    found
}

/// The items of a bulleted or numbered list (`- a`, `* a`, `• a`, `+ a`, `1. a`, `1) a`, one
/// per line, at least two), after at most one introducing line ending in `:`. `None` when any
/// other line is there.
pub(crate) fn bulleted_items(text: &str) -> Option<Vec<&str>> {
    let mut items = Vec::new();
    let mut introduced = false;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        match without_bullet(line) {
            Some(item) => items.push(item),
            None if items.is_empty() && !introduced && line.ends_with(':') => introduced = true,
            None => return None,
        }
    }
    (items.len() >= 2).then_some(items)
}

/// A list line's item without its bullet or number, if it has one.
fn without_bullet(line: &str) -> Option<&str> {
    let rest = ["- ", "* ", "\u{2022} ", "+ "]
        .iter()
        .find_map(|b| line.strip_prefix(b))
        .or_else(|| {
            let digits = line.bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 || digits > 3 {
                return None;
            }
            let after = &line[digits..];
            after
                .strip_prefix(". ")
                .or_else(|| after.strip_prefix(") "))
        })?;
    let item = rest.trim().trim_end_matches([',', ';']).trim_end();
    (!item.is_empty()).then_some(item)
}

/// The items of a list written in one short line: `red, green and blue`, `a; b`,
/// `red, green, and blue`. At least two, none empty; `None` otherwise.
pub(crate) fn listed_items(text: &str) -> Option<Vec<&str>> {
    let line = text.trim().trim_end_matches(['.', '!']);
    if line.contains('\n') || line.len() > SHORT_TEXT {
        return None;
    }
    let mut items = Vec::new();
    for part in line.split([',', ';']) {
        let part = part.trim();
        let part = part.strip_prefix("and ").unwrap_or(part);
        for item in part.split(" and ").map(str::trim) {
            if item.is_empty() {
                return None;
            }
            items.push(item);
        }
    }
    (items.len() >= 2).then_some(items)
}

/// Whether `text` is a placeholder for "no value": `N/A`, `none`, `null`, `-`, an empty
/// string, `not available`, ..., with spaces around it, in all at most 64 bytes (a stream
/// waits that long on a string that may become one before showing it).
///
/// ```
/// use llm_extract::coerce::is_placeholder;
/// assert!(is_placeholder("N/A"));
/// assert!(is_placeholder("  None "));
/// assert!(!is_placeholder("Nora"));
/// assert!(!is_placeholder(&" ".repeat(65)));
/// ```
pub fn is_placeholder(text: &str) -> bool {
    let t = text.trim();
    text.len() <= PLACEHOLDER_WAIT
        && t.len() <= 16
        && PLACEHOLDERS.iter().any(|w| w.eq_ignore_ascii_case(t))
}

/// What [`is_placeholder`] accepts, trimmed and in any case.
const PLACEHOLDERS: [&str; 16] = [
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

/// How long a string still arriving may be and still be waited on as a possible placeholder
/// ([`may_become_placeholder`]): the longest word with spaces around it. Longer text is shown
/// as it grows, so the wait is bounded (and each check is).
pub(crate) const PLACEHOLDER_WAIT: usize = 64;

/// Whether more text after `text` (the start of a string still arriving) could make it a
/// placeholder ([`is_placeholder`]): it is blank so far, or the start of a placeholder word,
/// or one with spaces after it. `Nor` could not (`Nora`), `No` could (`None`).
pub(crate) fn may_become_placeholder(text: &str) -> bool {
    if text.len() > PLACEHOLDER_WAIT {
        return false;
    }
    let t = text.trim_start();
    let word = t.trim_end();
    PLACEHOLDERS.iter().any(|w| {
        w.eq_ignore_ascii_case(word)
            || (w.len() >= t.len() && w.as_bytes()[..t.len()].eq_ignore_ascii_case(t.as_bytes()))
    })
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
