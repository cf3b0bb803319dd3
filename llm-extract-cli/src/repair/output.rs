//! Writing and dropping the repaired value without recursion, so a value nested as deep as
//! `--max-depth` allows is printed and freed, not a stack overflow.
//!
//! serde_json's serializer and `Value`'s own `Drop` recurse once per level of nesting; the
//! tolerant parser does not, so with `--max-depth` raised a reply of 100,000 nested arrays
//! parses fine and used to abort while being printed. Here containers are written from an
//! explicit stack and every scalar (and key) is written by serde_json itself, so the text is
//! byte for byte what `serde_json::to_string` / `to_string_pretty` give.

use serde_json::Value;

/// `value` as JSON text: compact, or indented as `serde_json::to_string_pretty` does.
pub fn render(value: &Value, pretty: bool) -> String {
    let mut out = Vec::new();
    write(value, pretty, &mut out);
    // serde_json writes only valid UTF-8, and so does everything else here.
    String::from_utf8(out).unwrap_or_default()
}

/// An open container being written: its remaining members.
enum Open<'v> {
    Array(std::slice::Iter<'v, Value>),
    Object(serde_json::map::Iter<'v>),
}

fn write(value: &Value, pretty: bool, out: &mut Vec<u8>) {
    let mut stack: Vec<Open<'_>> = Vec::new();
    // Whether the member about to be written is the first of its container.
    let mut first = true;
    let mut next = Some(value);
    loop {
        if let Some(value) = next.take() {
            match value {
                Value::Array(items) if !items.is_empty() => {
                    out.push(b'[');
                    stack.push(Open::Array(items.iter()));
                    first = true;
                }
                Value::Object(map) if !map.is_empty() => {
                    out.push(b'{');
                    stack.push(Open::Object(map.iter()));
                    first = true;
                }
                scalar => {
                    // A scalar, `[]` or `{}`: serde_json writes it (no recursion there).
                    let _ = serde_json::to_writer(&mut *out, scalar);
                    first = false;
                }
            }
        }
        let depth = stack.len();
        let Some(top) = stack.last_mut() else {
            return;
        };
        let member = match top {
            Open::Array(items) => items.next().map(|v| (None, v)),
            Open::Object(members) => members.next().map(|(k, v)| (Some(k), v)),
        };
        match member {
            Some((key, value)) => {
                if !first {
                    out.push(b',');
                }
                if pretty {
                    newline(out, depth);
                }
                if let Some(key) = key {
                    let _ = serde_json::to_writer(&mut *out, key);
                    out.extend_from_slice(if pretty { b": " } else { b":" });
                }
                next = Some(value);
            }
            None => {
                let closer = match stack.pop() {
                    Some(Open::Array(_)) => b']',
                    _ => b'}',
                };
                if pretty {
                    newline(out, depth - 1);
                }
                out.push(closer);
                first = false;
            }
        }
    }
}

fn newline(out: &mut Vec<u8>, depth: usize) {
    out.push(b'\n');
    out.resize(out.len() + 2 * depth, b' ');
}

/// Drops `value` without recursion (see the module docs). Cheap for the usual shallow value:
/// its children are moved onto a list once.
pub fn dispose(value: Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn writes_what_serde_json_writes() {
        let values = [
            json!(null),
            json!(1.5),
            json!("a \"q\" \n é"),
            json!([]),
            json!({}),
            json!([1, [], {}, [2, [3]], {"a": {"b": []}}]),
            json!({"k\"ey": [true, false, null], "n": {"m": {"o": 1e300}}, "e": {}, "s": "x"}),
        ];
        for v in &values {
            assert_eq!(render(v, false), serde_json::to_string(v).unwrap());
            assert_eq!(render(v, true), serde_json::to_string_pretty(v).unwrap());
        }
    }

    #[test]
    fn a_value_100_000_levels_deep_is_written_and_dropped() {
        let mut v = json!(1);
        for i in 0..100_000 {
            // Built by hand: `json!` would serialize `v` again (recursively) at every level.
            v = if i % 2 == 0 {
                Value::Array(vec![v])
            } else {
                Value::Object(serde_json::Map::from_iter([("a".to_string(), v)]))
            };
        }
        let text = render(&v, false);
        assert_eq!(text.len(), 50_000 * 2 + 50_000 * 6 + 1);
        assert!(text.starts_with("{\"a\":[{\"a\":[") && text.ends_with("]}]}"));
        dispose(v);
    }

    #[test]
    fn pretty_nesting_matches_serde_json() {
        // Indented text grows with the square of the depth: a few hundred levels show it.
        let mut v = json!([1, 2]);
        for i in 0..300 {
            v = json!({ "a": [v, {}, []], "b": i });
        }
        assert_eq!(render(&v, true), serde_json::to_string_pretty(&v).unwrap());
        assert_eq!(render(&v, false), serde_json::to_string(&v).unwrap());
    }
}
