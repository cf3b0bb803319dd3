//! Key matching: which field of a struct an input key lands on (exact name, then
//! normalized, then alias, then without diacritics).

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

/// The base letter(s) of a lowercase Latin letter with a diacritic (`é` -> `e`), and the
/// letters a ligature or `ß` stands for (`ß` -> `ss`, `æ` -> `ae`); any other character as is.
///
/// A small table for the Latin letters models write in keys and enum values (Latin-1 and
/// Latin Extended-A), not full Unicode decomposition: that would need a normalization crate
/// and its tables for scripts where "ignoring diacritics" changes the word.
fn fold(c: char) -> (char, Option<char>) {
    let base = match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => 'a',
        'ç' | 'ć' | 'ĉ' | 'ċ' | 'č' => 'c',
        'ď' | 'đ' | 'ð' => 'd',
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => 'e',
        'ĝ' | 'ğ' | 'ġ' | 'ģ' => 'g',
        'ĥ' | 'ħ' => 'h',
        'ì' | 'í' | 'î' | 'ï' | 'ĩ' | 'ī' | 'ĭ' | 'į' | 'ı' => 'i',
        'ĵ' => 'j',
        'ķ' => 'k',
        'ĺ' | 'ļ' | 'ľ' | 'ŀ' | 'ł' => 'l',
        'ñ' | 'ń' | 'ņ' | 'ň' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ŏ' | 'ő' => 'o',
        'ŕ' | 'ŗ' | 'ř' => 'r',
        'ś' | 'ŝ' | 'ş' | 'š' | 'ș' => 's',
        'ţ' | 'ť' | 'ŧ' | 'ț' => 't',
        'ù' | 'ú' | 'û' | 'ü' | 'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' => 'u',
        'ŵ' => 'w',
        'ý' | 'ÿ' | 'ŷ' => 'y',
        'ź' | 'ż' | 'ž' => 'z',
        'ß' => return ('s', Some('s')),
        'æ' => return ('a', Some('e')),
        'œ' => return ('o', Some('e')),
        'þ' => return ('t', Some('h')),
        'ĳ' => return ('i', Some('j')),
        other => other,
    };
    (base, None)
}

/// `word` (lowercase) with its diacritics folded (`señor` is `senor`).
pub(crate) fn fold_word(word: &str) -> String {
    if word.is_ascii() {
        return word.to_owned();
    }
    word.chars()
        .flat_map(|c| {
            let (a, b) = fold(c);
            std::iter::once(a).chain(b)
        })
        .collect()
}

/// The characters [`keys_match_folded`] compares: alphanumeric, lowercase, folded.
fn folded(s: &str) -> impl Iterator<Item = char> + '_ {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .flat_map(|c| {
            let (a, b) = fold(c);
            std::iter::once(a).chain(b)
        })
}

/// Whether `a` and `b` are the same key once case, separators and diacritics are ignored:
/// `café` and `cafe`, `Señor` and `senor`, `straße` and `strasse`. Keys and variants are
/// matched this way only after exact and normalized matching found nothing, at a higher
/// cost ([`CoercionKind::FoldedKey`](crate::CoercionKind::FoldedKey),
/// [`CoercionKind::FoldedVariant`](crate::CoercionKind::FoldedVariant)).
///
/// ```
/// use llm_extract::coerce::keys_match_folded;
/// assert!(keys_match_folded("café", "cafe"));
/// assert!(keys_match_folded("SEÑOR", "senor"));
/// assert!(keys_match_folded("Straße", "strasse"));
/// assert!(keys_match_folded("Œuvre", "oeuvre"));
/// assert!(!keys_match_folded("café", "cafes"));
/// ```
pub fn keys_match_folded(a: &str, b: &str) -> bool {
    // Without a non-ASCII letter on either side, folding changes nothing.
    if a.is_ascii() && b.is_ascii() {
        return keys_match(a, b);
    }
    folded(a).eq(folded(b))
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

/// The names one field answers to.
#[derive(Debug)]
pub struct FieldSpec {
    /// Canonical name (after `rename` / `rename_all`).
    pub name: &'static str,
    /// `alias = ".."` names.
    pub aliases: &'static [&'static str],
}

/// What key matching needs to know about a struct (or a struct variant).
#[derive(Debug)]
pub struct StructSpec {
    /// The fields that are read from keys (not `skip`, not `flatten`), in order.
    pub fields: &'static [FieldSpec],
    /// `deny_unknown_fields`.
    pub deny_unknown: bool,
    /// Whether a `flatten` field takes the keys no field matched.
    pub flatten: bool,
}

/// How well a key matched a field; lower is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Rank {
    Exact,
    Normalized,
    Alias,
    NormalizedAlias,
    /// The name, or an alias, once diacritics are ignored.
    Folded,
}

pub(crate) fn rank(field: &FieldSpec, key: &str) -> Option<Rank> {
    if field.name == key {
        Some(Rank::Exact)
    } else if keys_match(field.name, key) {
        Some(Rank::Normalized)
    } else if field.aliases.contains(&key) {
        Some(Rank::Alias)
    } else if field.aliases.iter().any(|a| keys_match(a, key)) {
        Some(Rank::NormalizedAlias)
    } else if std::iter::once(&field.name)
        .chain(field.aliases)
        .any(|n| keys_match_folded(n, key))
    {
        Some(Rank::Folded)
    } else {
        None
    }
}

/// The field an input key lands on: the best rank over all fields, the first field on a tie.
pub(crate) fn best_field(fields: &[FieldSpec], key: &str) -> Option<(usize, Rank)> {
    if let Some(i) = fields.iter().position(|f| f.name == key) {
        return Some((i, Rank::Exact));
    }
    let mut best: Option<(usize, Rank)> = None;
    for (i, f) in fields.iter().enumerate() {
        if let Some(r) = rank(f, key) {
            if best.is_none_or(|(_, b)| r < b) {
                best = Some((i, r));
            }
        }
    }
    best
}
