//! Regex patterns written for JavaScript (ECMA-262), as JSON Schema's `pattern` and the
//! assertions' `toMatch` take them, read by the regex crate (which matches in linear time)
//! with JavaScript's meaning where the two differ in the patterns people write.

/// `pattern` with the classes ECMA-262 reads as ASCII (with or without the `u` flag)
/// written so for the regex crate, whose own are Unicode: `\d` is `[0-9]`, `\w`
/// `[0-9A-Za-z_]`, `\D` and `\W` their complements, `\b` and `\B` the ASCII word
/// boundaries. Inside a class, where ECMA reads `[`, `&` and `~` as themselves and the regex
/// crate reads nested classes and set operations, they are escaped.
pub(crate) fn classes(pattern: &str) -> std::borrow::Cow<'_, str> {
    const DIGIT: &str = "0-9";
    const WORD: &str = "0-9A-Za-z_";
    if !pattern.contains(['\\', '[']) {
        return pattern.into();
    }
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut in_class = false;
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match (c, in_class) {
            ('\\', _) => {
                let Some(e) = chars.next() else {
                    out.push(c);
                    break;
                };
                match (e, in_class) {
                    ('d', false) => out.push_str("[0-9]"),
                    ('w', false) => out.push_str("[0-9A-Za-z_]"),
                    ('d', true) => out.push_str(DIGIT),
                    ('w', true) => out.push_str(WORD),
                    ('D', _) => out.push_str("[^0-9]"),
                    ('W', _) => out.push_str("[^0-9A-Za-z_]"),
                    ('b' | 'B', false) => {
                        out.push_str("(?-u:\\");
                        out.push(e);
                        out.push(')');
                    }
                    _ => {
                        out.push(c);
                        out.push(e);
                    }
                }
            }
            ('[', false) => {
                in_class = true;
                out.push(c);
                // A `^` that negates the class, and a `]` first in it (a literal for the
                // regex crate; ECMA's empty class matches nothing and is rare), stay.
                let rest = chars.as_str();
                let negated = rest.starts_with('^');
                if negated {
                    out.push('^');
                    chars.next();
                }
            }
            (']', true) => {
                in_class = false;
                out.push(c);
            }
            ('[' | '&' | '~', true) => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::classes;

    #[test]
    fn classes_are_written_out_as_ascii() {
        let cases = [
            (r"^\d{3}-\w+$", r"^[0-9]{3}-[0-9A-Za-z_]+$"),
            (r"[\d.\w]", r"[0-9.0-9A-Za-z_]"),
            (r"[^\D]", r"[^[^0-9]]"),
            (r"\bx\B", r"(?-u:\b)x(?-u:\B)"),
            (r"[[a&&b~~]]", r"[\[a\&\&b\~\~]]"),
            (r"\\d\[\d\]", r"\\d\[[0-9]\]"),
            (r"plain", r"plain"),
            (r"ends in \", r"ends in \"),
        ];
        for (pattern, want) in cases {
            assert_eq!(classes(pattern), want, "{pattern}");
        }
    }
}
