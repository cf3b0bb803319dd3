//! What a value written as text in a tag format means when no type says otherwise, and the
//! markup decoding some formats need before that.

use serde_json::Value;

/// Text written as a parameter value: the JSON it spells when it is valid JSON (`3`, `true`,
/// `["a"]`), Python's `True`, `False` and `None` as the JSON literals they are, else the text
/// itself. Text that only looks like JSON (`{invalid json: no quotes}`, `{"cut": 1`) is text:
/// a tag's closer ended it, so it is neither repaired nor incomplete.
pub(crate) fn text_value(text: &str) -> Value {
    let trimmed = text.trim();
    if let Ok(value) = serde_json::from_str(trimmed) {
        return value;
    }
    python_literal(trimmed).unwrap_or_else(|| Value::String(text.to_string()))
}

/// `True`, `False` and `None`: the JSON literal each means.
pub(crate) fn python_literal(text: &str) -> Option<Value> {
    match text {
        "True" => Some(Value::Bool(true)),
        "False" => Some(Value::Bool(false)),
        "None" => Some(Value::Null),
        _ => None,
    }
}

/// The JSON container `text` is, when it is one and valid JSON: what a typed call reads
/// as a container instead of as text.
pub(crate) fn json_container(text: &str) -> Option<Value> {
    let trimmed = text.trim();
    if !trimmed.starts_with(['{', '[']) {
        return None;
    }
    serde_json::from_str(trimmed).ok()
}

/// `text` with the five XML entities and numeric character references decoded, for formats
/// whose values are XML text (`&lt;` is `<`). An `&` that starts none of them is kept.
pub(crate) fn xml_unescape(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        match entity(after) {
            Some((c, len)) => {
                out.push(c);
                rest = &after[len..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The character an entity at the start of `text` (after its `&`) stands for, and the bytes
/// it takes, `;` included.
fn entity(text: &str) -> Option<(char, usize)> {
    // The longest entity read here, `#x10FFFF;`, is 9 bytes.
    let end = text.bytes().take(10).position(|b| b == b';')?;
    let name = &text[..end];
    let c = match name {
        "lt" => '<',
        "gt" => '>',
        "amp" => '&',
        "quot" => '"',
        "apos" => '\'',
        _ => {
            let code = match name.strip_prefix("#x").or_else(|| name.strip_prefix("#X")) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => name.strip_prefix('#')?.parse().ok()?,
            };
            char::from_u32(code)?
        }
    };
    Some((c, end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn python_literals_read_as_json_literals() {
        assert_eq!(text_value("True"), json!(true));
        assert_eq!(text_value(" False\n"), json!(false));
        assert_eq!(text_value("None"), json!(null));
        assert_eq!(text_value("TRUE"), json!("TRUE"));
    }

    #[test]
    fn text_that_only_looks_like_json_stays_text() {
        let text = "{invalid json: no quotes}";
        assert_eq!(text_value(text), json!(text));
        assert_eq!(json_container(text), None);
        assert_eq!(text_value("{\"cut\": 1"), json!("{\"cut\": 1"));
        assert_eq!(json_container(" [1, 2]\n"), Some(json!([1, 2])));
    }

    #[test]
    fn entities_are_decoded_and_a_lone_ampersand_is_kept() {
        assert_eq!(xml_unescape("a &lt; b &amp;&amp; c"), "a < b && c");
        assert_eq!(xml_unescape("&quot;x&quot; &#65;&#x42;"), "\"x\" AB");
        assert_eq!(xml_unescape("R&D &unknown; &"), "R&D &unknown; &");
    }
}
