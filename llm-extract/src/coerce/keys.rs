//! Key matching: which field of a struct an input key lands on (exact name, then
//! normalized, then alias).

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
}

fn rank(field: &FieldSpec, key: &str) -> Option<Rank> {
    if field.name == key {
        Some(Rank::Exact)
    } else if keys_match(field.name, key) {
        Some(Rank::Normalized)
    } else if field.aliases.contains(&key) {
        Some(Rank::Alias)
    } else if field.aliases.iter().any(|a| keys_match(a, key)) {
        Some(Rank::NormalizedAlias)
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
