//! `rename_all` cases, as serde spells them.

/// A `rename_all` case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

pub const NAMES: &[&str] = &[
    "lowercase",
    "UPPERCASE",
    "PascalCase",
    "camelCase",
    "snake_case",
    "SCREAMING_SNAKE_CASE",
    "kebab-case",
    "SCREAMING-KEBAB-CASE",
];

impl Case {
    pub fn from_name(name: &str) -> Option<Case> {
        Some(match name {
            "lowercase" => Case::Lower,
            "UPPERCASE" => Case::Upper,
            "PascalCase" => Case::Pascal,
            "camelCase" => Case::Camel,
            "snake_case" => Case::Snake,
            "SCREAMING_SNAKE_CASE" => Case::ScreamingSnake,
            "kebab-case" => Case::Kebab,
            "SCREAMING-KEBAB-CASE" => Case::ScreamingKebab,
            _ => return None,
        })
    }

    /// Renames a field (written in snake_case) or a variant (written in PascalCase).
    pub fn apply(self, name: &str, is_variant: bool) -> String {
        let words = split(name, is_variant);
        let join = |sep: &str, f: &dyn Fn(&str) -> String| {
            words.iter().map(|w| f(w)).collect::<Vec<_>>().join(sep)
        };
        let capital = |w: &str| {
            let mut c = w.chars();
            c.next()
                .map(|f| {
                    f.to_uppercase()
                        .chain(c.flat_map(char::to_lowercase))
                        .collect()
                })
                .unwrap_or_default()
        };
        match self {
            Case::Lower => join("", &|w| w.to_lowercase()),
            Case::Upper => join("", &|w| w.to_uppercase()),
            Case::Pascal => join("", &capital),
            Case::Camel => {
                let pascal = join("", &capital);
                let mut c = pascal.chars();
                c.next()
                    .map(|f| f.to_lowercase().chain(c).collect())
                    .unwrap_or_default()
            }
            Case::Snake => join("_", &|w| w.to_lowercase()),
            Case::ScreamingSnake => join("_", &|w| w.to_uppercase()),
            Case::Kebab => join("-", &|w| w.to_lowercase()),
            Case::ScreamingKebab => join("-", &|w| w.to_uppercase()),
        }
    }
}

fn split(name: &str, is_variant: bool) -> Vec<String> {
    if !is_variant {
        return name
            .split('_')
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect();
    }
    let mut out: Vec<String> = Vec::new();
    for c in name.chars() {
        if c.is_uppercase() || out.is_empty() {
            out.push(String::new());
        }
        if let Some(last) = out.last_mut() {
            last.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_match_serde() {
        assert_eq!(Case::Camel.apply("tool_name", false), "toolName");
        assert_eq!(Case::Pascal.apply("tool_name", false), "ToolName");
        assert_eq!(Case::ScreamingKebab.apply("tool_name", false), "TOOL-NAME");
        assert_eq!(Case::Snake.apply("InProgress", true), "in_progress");
        assert_eq!(Case::Lower.apply("InProgress", true), "inprogress");
        assert_eq!(Case::Camel.apply("InProgress", true), "inProgress");
        assert_eq!(Case::ScreamingSnake.apply("A", true), "A");
    }
}
