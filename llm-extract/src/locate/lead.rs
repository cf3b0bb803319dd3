//! What the words that introduce a value say of it: the reply set it aside (`Wrong:`,
//! `not {..}`, `instead of {..}`), showed it as an illustration (`For example:`, `e.g.`), or
//! neither. Of two values that both read, one the reply sets aside never wins over one it
//! does not (`select::Choice`), and the stream does not show it in place of one it keeps.
//!
//! The words looked at are the clause right before the value: the text of its line before
//! it, after the last `,`, `;`, `!`, `?`, sentence-ending `.` or the closer of a value before
//! it on the line. When the value starts its line (or its fence), they are the line before
//! (the fence's opener skipped), if that line is a label (it ends with `:` or is a markdown
//! heading) or a sentence going on to the value (it ends with `,`); or the words before the
//! fence's opener on its line. The tool-call reader reads the same clause for words refusing
//! a call ([`introducing_clause`]). Only a short clause counts (at most [`CLAUSE_WORDS`]
//! words), so a cue word in a
//! long sentence before the answer (`Here is the JSON without the old fields:`) does not.
//! One exception: a sentence that opens as an illustration (`For example,`), a supposition
//! (`Suppose`) or a condition contrary to fact (`If it had been`) shows the value it leads to
//! as an example, however long its clause before the value ([`opens_as_illustration`]).

use crate::lex;

/// How the reply introduces a value. Ordered: a value the reply introduces higher wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Lead {
    /// Set aside: called wrong, old or to be avoided (`Incorrect:`, `not {..}`, `rather than
    /// {..}`, `Don't return {..}`, `(previously {..})`).
    Rejected,
    /// On a line of a markdown block quote (`> {..}`): someone else's words quoted, such as
    /// the user's message or an earlier answer.
    Quoted,
    /// Shown as an illustration (`For example:`, `e.g. {..}`, `Template:`).
    Example,
    /// Introduced any other way, or not at all.
    #[default]
    Plain,
}

/// How far before a value its clause and label line are looked for: the check stays constant
/// per value, so a reply of many values is read in linear time.
const LOOKBACK: usize = 256;

/// The most words a clause may have for its words to say what the value is: a label
/// (`Bad example:`) or a short lead-in (`the old output was`), not a sentence about something
/// else.
const CLAUSE_WORDS: usize = 6;

/// How the reply introduces the value that starts at `start` of `text`.
pub(crate) fn lead(text: &str, start: usize) -> Lead {
    let words = introduction(text, start);
    match classify(last_clause(words)) {
        Lead::Plain if opens_as_illustration(last_sentence(words)) => Lead::Example,
        Lead::Plain if quoted(text, start) => Lead::Quoted,
        lead => lead,
    }
}

/// Whether the value at `start` stands on a line of a markdown block quote: its line starts
/// with `>` (within [`LOOKBACK`] bytes).
fn quoted(text: &str, start: usize) -> bool {
    let before = &text.as_bytes()[start.saturating_sub(LOOKBACK)..start];
    let line = match memchr::memrchr(b'\n', before) {
        Some(n) => &before[n + 1..],
        None if start <= LOOKBACK => before,
        None => return false,
    };
    quote_line(line)
}

/// Whether `line` is a line of a markdown block quote: it starts with `>` after spaces and
/// tabs. The one test of a quoted line for the ranking of values and the tool-call reader's
/// refusal of quoted calls (`tool::verdict`).
pub(crate) fn quote_line(line: &[u8]) -> bool {
    line.iter().find(|b| !matches!(b, b' ' | b'\t')) == Some(&b'>')
}

/// The words that introduce the value at `start`: its line before it, or the label on the
/// line before (see the module documentation); empty when there are none.
fn introduction(text: &str, start: usize) -> &str {
    let mut from = start.saturating_sub(LOOKBACK);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    introducing_words(&text[from..start.min(text.len())], from == 0)
}

/// The clause that introduces what follows `window` (a value, or a tool call), the text
/// right before it: the words of its line before it, after the last clause break. When it
/// starts its line, the label on the line before: a line that ends with `:` or is a markdown
/// heading, or a sentence going on to it (a line that ends with `,`); for one in a fence, the line before the fence's opener, or the words before the
/// opener on its line (`I should not run ```json`). Empty when nothing introduces it. The
/// window's first line is cut unless the window starts the text (`whole`), and is then not
/// read.
///
/// Shared by the ranking of values ([`lead`], which reads the clause's words as setting the
/// value aside or showing an example) and the tool-call reader (`tool::verdict`, which reads
/// them as refusing the call).
pub(crate) fn introducing_clause(window: &str, whole: bool) -> &str {
    last_clause(introducing_words(window, whole))
}

/// The words [`introducing_clause`] takes its clause from: the line before what follows
/// `window`, the words before a fence's opener, or the label (its `:` left out).
fn introducing_words(window: &str, whole: bool) -> &str {
    let line = window.rsplit('\n').next().unwrap_or_default();
    if !lex::trim(line).is_empty() {
        return line;
    }
    let lines_before = &window[..window.len() - line.len()];
    let whole_lines = match whole {
        true => lines_before,
        false => lines_before.split_once('\n').map_or("", |(_, rest)| rest),
    };
    let mut previous = whole_lines
        .rsplit('\n')
        .map(lex::trim)
        .filter(|l| !l.is_empty());
    let mut label = previous.next().unwrap_or_default();
    if let Some(words) = fence_opener(label) {
        if !words.is_empty() {
            return words;
        }
        label = previous.next().unwrap_or_default();
    }
    let heading = label.starts_with('#');
    let label = label.trim_end_matches('*').trim_end();
    match label
        .strip_suffix(':')
        .or_else(|| label.strip_suffix('\u{ff1a}'))
    {
        Some(label) => label,
        None if heading => label.trim_start_matches('#'),
        // A sentence that goes on to the value's line (`For example,`).
        None if label.ends_with(',') => label,
        None => "",
    }
}

/// When `line` (trimmed) opens a code fence, the words before the opener on it (empty when
/// the opener starts the line): a run of three backticks or tildes starting the line, or
/// one after words with at most an info word after it.
fn fence_opener(line: &str) -> Option<&str> {
    if line.starts_with("```") || line.starts_with("~~~") {
        return Some("");
    }
    let (words, info) = line.rsplit_once("```")?;
    (!info.contains(char::is_whitespace)).then(|| words.trim())
}

/// The part of `line` after its last clause break: `,`, `;`, `!`, `?`, a `.` before a space
/// (not the one inside `e.g.` or `i.e.`), or a value's closer (`}`, `]`). A comma right
/// before the value leaves the clause before it (`For example, {..}`).
fn last_clause(line: &str) -> &str {
    let trimmed = line.trim_end();
    match trimmed.strip_suffix(',') {
        Some(before) => clause_after_break(before),
        None => clause_after_break(line),
    }
}

fn clause_after_break(line: &str) -> &str {
    after_last_break(line, true)
}

/// The part of `line` after its last sentence end (a `.`, `!` or `?` before a space, not the
/// dot of `e.g.`), or a value's closer.
fn last_sentence(line: &str) -> &str {
    after_last_break(line, false)
}

/// The part of `line` after its last sentence end or value closer, or, with `clauses`, also
/// its last `,` or `;`.
fn after_last_break(line: &str, clauses: bool) -> &str {
    let bytes = line.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let breaks = match b {
            b',' | b';' => clauses,
            b'!' | b'?' | b'}' | b']' => true,
            b'.' => {
                bytes.get(i + 1).is_none_or(u8::is_ascii_whitespace) && !abbreviation(&bytes[..=i])
            }
            _ => false,
        };
        if breaks {
            start = i + 1;
        }
    }
    &line[start..]
}

/// The most words of a sentence's opening phrase (the words before its first comma) that
/// [`opens_as_illustration`] reads: `For example,`, `As an illustration,`.
const OPENER_WORDS: usize = 3;

/// Whether `sentence` opens as an illustration, which holds for the value it leads to however
/// long the clause before that value (`For example, if the age were different, the output
/// would be {..}`): a short opening phrase with a word of illustration, a first word that
/// supposes (`Suppose the user were older: {..}`), or a condition contrary to fact (`If the
/// user had been older, it would look like:`; not `If you need it, here it is:`).
fn opens_as_illustration(sentence: &str) -> bool {
    let Some(first) = words_of(sentence).next() else {
        return false;
    };
    let first = first.to_lowercase();
    if matches!(
        first.as_str(),
        "suppose" | "supposing" | "imagine" | "hypothetically"
    ) {
        return true;
    }
    let Some((opener, _)) = sentence.split_once(',') else {
        return false;
    };
    let opener: Vec<String> = words_of(opener).map(str::to_lowercase).collect();
    if first == "if" {
        // A condition contrary to fact: `If the user had been older,`, `If it were`.
        let counterfactual = |w: &String| matches!(w.as_str(), "were" | "had" | "hadn't");
        return opener.len() <= CLAUSE_WORDS + 2 && opener.iter().any(counterfactual);
    }
    opener.len() <= OPENER_WORDS && opener.iter().any(|w| illustrates(w))
}

/// Whether `before` ends with `e.g.` or `i.e.` (whose dots end no sentence).
fn abbreviation(before: &[u8]) -> bool {
    let tail = &before[before.len().saturating_sub(4)..];
    tail.eq_ignore_ascii_case(b"e.g.") || tail.eq_ignore_ascii_case(b"i.e.")
}

/// What the words of `clause` say of the value after it.
fn classify(clause: &str) -> Lead {
    let mut lead = Lead::Plain;
    for (n, word) in words_of(clause).enumerate() {
        if n == CLAUSE_WORDS {
            return Lead::Plain;
        }
        let word = word.to_lowercase();
        if rejects(&word) {
            lead = Lead::Rejected;
        } else if illustrates(&word) && lead == Lead::Plain {
            lead = Lead::Example;
        }
    }
    lead
}

/// The words of `text`: runs of letters and digits, apostrophes and inner dots (`e.g`,
/// `don't`).
fn words_of(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || matches!(c, '\'' | '\u{2019}' | '.')))
        .map(|w| w.trim_matches('.'))
        .filter(|w| !w.is_empty())
}

/// Whether `word` (lowercase) sets aside what it introduces: a negation
/// ([`negates`]) or a word calling it wrong or old.
fn rejects(word: &str) -> bool {
    negates(word)
        || matches!(
            word,
            "dont"
                | "instead"
                | "rather"
                | "incorrect"
                | "wrong"
                | "bad"
                | "invalid"
                | "previously"
                | "previous"
                | "old"
                | "outdated"
                | "obsolete"
                | "deprecated"
                | "mistaken"
                | "erroneous"
                | "broken"
                | "rejected"
                | "faulty"
                // The same, as models write them in other languages.
                | "incorrecto"
                | "incorrecta"
                | "incorrecte"
                | "falsch"
                | "faux"
                | "fausse"
                | "errado"
                | "errada"
                | "errónea"
                | "erróneo"
                | "sbagliato"
                | "sbagliata"
                | "ancien"
                | "ancienne"
                | "anterior"
                | "veraltet"
                | "obsolète"
        )
        || short_run_holds(
            word,
            &["错误", "不要", "不正确", "旧的", "間違", "誤り", "悪い例"],
        )
}

/// Whether `word`, a run of letters with no spaces in it as Chinese and Japanese write them,
/// is short enough to be a label (at most [`CLAUSE_WORDS`] characters) and holds one of
/// `cues`: `错误示例` is a label, a long run is a sentence about something else.
fn short_run_holds(word: &str, cues: &[&str]) -> bool {
    !word.is_ascii()
        && word.chars().count() <= CLAUSE_WORDS
        && cues.iter().any(|cue| word.contains(cue))
}

/// Words of refusing, avoiding or forbidding an act, by their stem (`refuse`, `refusing`,
/// `avoid`, `forbidden`, ...).
const REFUSALS: [&str; 7] = [
    "refus", "avoid", "refrain", "abstain", "forbid", "prohibit", "disallow",
];

/// Whether `word` (lowercase) negates or refuses what its clause introduces: `not`, `never`,
/// `nor`, `neither`, `cannot`, a word ending in `n't`, or one of [`REFUSALS`]; and the
/// negations of French, German, Spanish and Portuguese that stand alone (`pas`, `jamais`,
/// `nicht`, `nie`, `nunca`, `não`; not `no`, `non`, `ne` or `mai`, which also start an answer,
/// stand in a name or name a month). The words a
/// model writes before a value or a call it shows but does not mean; shared by the ranking of
/// values and the tool-call reader's refusal of calls (`tool::verdict`).
pub(crate) fn negates(word: &str) -> bool {
    matches!(
        word,
        "not"
            | "never"
            | "nor"
            | "neither"
            | "cannot"
            | "pas"
            | "jamais"
            | "nicht"
            | "nie"
            | "nunca"
            | "não"
            | "mai"
    ) || word.ends_with("n't")
        || word.ends_with("n\u{2019}t")
        || REFUSALS.iter().any(|stem| word.starts_with(stem))
}

/// Whether `word` (lowercase) shows what it introduces as an illustration.
fn illustrates(word: &str) -> bool {
    matches!(
        word,
        "example"
            | "examples"
            | "e.g"
            | "eg"
            | "instance"
            | "template"
            | "placeholder"
            | "hypothetical"
            | "illustration"
            | "exemple"
            | "exemples"
            | "beispiel"
            | "beispiele"
            | "ejemplo"
            | "ejemplos"
            | "exemplo"
            | "exemplos"
            | "esempio"
            | "esempi"
            | "plantilla"
            | "vorlage"
    ) || short_run_holds(
        word,
        &["例如", "示例", "例子", "样例", "范例", "例えば", "サンプル"],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lead of the value that starts at `|` (taken out of the text), or at the first `{`.
    fn lead_of(marked: &str) -> Lead {
        let text = marked.replacen('|', "", 1);
        let at = (marked.find('|')).unwrap_or_else(|| marked.find('{').unwrap());
        lead(&text, at)
    }

    #[test]
    fn words_before_a_value_set_it_aside_show_it_or_say_nothing() {
        let rows = [
            ("Wrong: {\"a\": 1}", Lead::Rejected),
            ("The answer is {\"a\": 2}, not |{\"a\": 1}.", Lead::Rejected),
            ("Use {\"a\": 2} instead of |{\"a\": 1}.", Lead::Rejected),
            ("{\"a\": 2}\nDon't use |{\"a\": 1}.", Lead::Rejected),
            ("{\"a\": 2} (previously |{\"a\": 1})", Lead::Rejected),
            (
                "{\"a\": 2}\nFor comparison, the old output was |{\"a\": 1}",
                Lead::Rejected,
            ),
            (
                "{\"a\": 2}\nThe following is incorrect:\n|{\"a\": 1}",
                Lead::Rejected,
            ),
            (
                "{\"a\": 2}\n\nBad example:\n```json\n|{\"a\": 1}\n```",
                Lead::Rejected,
            ),
            ("## Incorrect\n\n```json\n{\"a\": 1}\n```", Lead::Rejected),
            ("**Wrong:**\n{\"a\": 1}", Lead::Rejected),
            (
                "{\"a\": 2}\nDon't use ```json\n|{\"a\": 1}\n```",
                Lead::Rejected,
            ),
            ("For example, {\"a\": 1}", Lead::Example),
            ("e.g. {\"a\": 1}", Lead::Example),
            ("Example of the format:\n\n{\"a\": 1}", Lead::Example),
            ("Template: {\"a\": 1}", Lead::Example),
            // A sentence that opens as an illustration or a supposition, however long the
            // clause before the value.
            (
                "For example, if the age were different, the output would be {\"a\": 1}",
                Lead::Example,
            ),
            (
                "For instance, another record could look like:\n{\"a\": 1}",
                Lead::Example,
            ),
            ("Suppose the user were older: {\"a\": 1}", Lead::Example),
            (
                "If the user had been older, it would look like:\n```json\n{\"a\": 1}\n```",
                Lead::Example,
            ),
            (
                "If you need it as JSON, here it is: {\"a\": 1}",
                Lead::Plain,
            ),
            ("Done. For the record, here it is: {\"a\": 1}", Lead::Plain),
            ("For example,\n{\"a\": 1}", Lead::Example),
            // In other languages.
            ("Par exemple : {\"a\": 1}", Lead::Example),
            ("Beispiel:\n```json\n{\"a\": 1}\n```", Lead::Example),
            ("Por ejemplo, {\"a\": 1}", Lead::Example),
            ("例如：{\"a\": 1}", Lead::Example),
            ("错误示例：\n{\"a\": 1}", Lead::Rejected),
            ("Ne l'utilisez pas : {\"a\": 1}", Lead::Rejected),
            ("Versión incorrecta: {\"a\": 1}", Lead::Rejected),
            (
                "以下是根据您的要求生成的没有错误的结果：{\"a\": 1}",
                Lead::Plain,
            ),
            ("Voici le JSON : {\"a\": 1}", Lead::Plain),
            (
                "Don't use this one,\n```json\n{\"a\": 1}\n```",
                Lead::Rejected,
            ),
            ("I checked the totals,\n{\"a\": 1}", Lead::Plain),
            (
                "For example, see the docs. Here is the JSON: {\"a\": 1}",
                Lead::Plain,
            ),
            ("Here it is: {\"a\": 1}", Lead::Plain),
            ("Final answer:\n```json\n{\"a\": 1}\n```", Lead::Plain),
            ("{\"a\": 1}", Lead::Plain),
            // Cue words in a long sentence, or in a sentence before, say nothing of the value.
            (
                "Here is the JSON without any of the old fields: {\"a\": 1}",
                Lead::Plain,
            ),
            (
                "Here is an example of the output you asked for: {\"a\": 1}",
                Lead::Plain,
            ),
            ("That was wrong. Here it is: {\"a\": 1}", Lead::Plain),
            ("Not sure about the price, so: {\"a\": 1}", Lead::Plain),
            // A line that is not a label says nothing of the value on the next line.
            ("I am not sure\n{\"a\": 1}", Lead::Plain),
            ("You wrote:\n> {\"a\": 1}", Lead::Quoted),
            ("  > > {\"a\": 1}", Lead::Quoted),
            ("> Wrong: {\"a\": 1}", Lead::Rejected),
            ("a > b: {\"a\": 1}", Lead::Plain),
        ];
        for (text, want) in rows {
            assert_eq!(lead_of(text), want, "{text}");
        }
    }
}
