//! YAML suites: read with `yaml-rust2` (YAML 1.2, so `no` stays a string) and turned into the
//! same JSON value a JSON suite gives.

use serde_json::{Map, Number, Value};
use std::collections::HashSet;
use yaml_rust2::parser::{MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;
use yaml_rust2::yaml::Hash;
use yaml_rust2::{Event, Yaml, YamlEmitter, YamlLoader};

/// Deepest nesting accepted; a suite is a few levels deep, expected values a few more.
const MAX_DEPTH: usize = 128;

/// The single document in `text` as JSON.
pub(crate) fn to_json(text: &str) -> Result<Value, String> {
    let mut documents =
        YamlLoader::load_from_str(text).map_err(|e| format!("not a YAML suite: {e}"))?;
    match documents.len() {
        0 => Err("the YAML file is empty".to_string()),
        1 => convert(documents.remove(0), 0).map_err(|e| match alias_in_its_anchor(text) {
            // The loader reads such an alias as a bad value and forgets where it was.
            Some((line, column, alias)) => format!(
                "line {line} column {column}: alias `{alias}` is used inside the value its anchor names (a recursive alias)"
            ),
            None => e,
        }),
        n => Err(format!("expected one YAML document, found {n}")),
    }
}

/// The first alias used before its anchor's value is complete (`a: &x [*x]`), as line, column
/// (both 1-based) and the alias as written.
fn alias_in_its_anchor(text: &str) -> Option<(usize, usize, String)> {
    #[derive(Default)]
    struct Finder {
        /// The anchor of every open sequence or mapping (0 for none).
        open: Vec<usize>,
        complete: HashSet<usize>,
        found: Option<Marker>,
    }
    impl MarkedEventReceiver for Finder {
        fn on_event(&mut self, event: Event, mark: Marker) {
            match event {
                Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                    self.open.push(anchor)
                }
                Event::SequenceEnd | Event::MappingEnd => {
                    if let Some(anchor) = self.open.pop() {
                        self.complete.insert(anchor);
                    }
                }
                Event::Scalar(_, _, anchor, _) => {
                    self.complete.insert(anchor);
                }
                Event::Alias(anchor) if !self.complete.contains(&anchor) => {
                    self.found.get_or_insert(mark);
                }
                _ => {}
            }
        }
    }
    let mut finder = Finder::default();
    Parser::new_from_str(text).load(&mut finder, true).ok()?;
    let mark = finder.found?;
    // The marker's column counts characters from 0.
    let alias: String = text
        .lines()
        .nth(mark.line().checked_sub(1)?)?
        .chars()
        .skip(mark.col())
        .take_while(|c| !c.is_whitespace() && !matches!(c, ',' | ']' | '}'))
        .collect();
    Some((mark.line(), mark.col() + 1, alias))
}

/// `value` as a YAML document, keys in their order; multi-line strings as literal blocks.
// Used by the workbench's Save and the tests.
pub(crate) fn from_json(value: &Value) -> Result<String, String> {
    let yaml = to_yaml(value);
    let mut out = String::new();
    let mut emitter = YamlEmitter::new(&mut out);
    emitter.multiline_strings(true);
    emitter
        .dump(&yaml)
        .map_err(|e| format!("cannot write YAML: {e}"))?;
    // The emitter starts with a document marker; a suite file reads better without it.
    let body = out.strip_prefix("---\n").unwrap_or(&out);
    Ok(format!("{body}\n"))
}

fn to_yaml(value: &Value) -> Yaml {
    match value {
        Value::Null => Yaml::Null,
        Value::Bool(b) => Yaml::Boolean(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Yaml::Integer(i),
            None => Yaml::Real(n.to_string()),
        },
        Value::String(s) => Yaml::String(s.clone()),
        Value::Array(items) => Yaml::Array(items.iter().map(to_yaml).collect()),
        Value::Object(map) => {
            let mut hash = Hash::new();
            for (k, v) in map {
                hash.insert(Yaml::String(k.clone()), to_yaml(v));
            }
            Yaml::Hash(hash)
        }
    }
}

fn convert(yaml: Yaml, depth: usize) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(format!("nested deeper than {MAX_DEPTH} levels"));
    }
    Ok(match yaml {
        Yaml::Null => Value::Null,
        Yaml::Boolean(b) => Value::Bool(b),
        Yaml::Integer(i) => Value::Number(i.into()),
        Yaml::Real(text) => {
            let f: f64 = text
                .parse()
                .map_err(|_| format!("`{text}` is not a number JSON can hold"))?;
            Value::Number(
                Number::from_f64(f)
                    .ok_or_else(|| format!("`{text}` is not a number JSON can hold"))?,
            )
        }
        Yaml::String(s) => Value::String(s),
        Yaml::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|item| convert(item, depth + 1))
                .collect::<Result<_, _>>()?,
        ),
        Yaml::Hash(hash) => {
            let mut map = Map::new();
            for (key, value) in hash {
                let key = match key {
                    Yaml::String(s) => s,
                    Yaml::Integer(i) => i.to_string(),
                    Yaml::Boolean(b) => b.to_string(),
                    Yaml::Real(r) => r,
                    other => return Err(format!("a mapping key must be a string, got {other:?}")),
                };
                map.insert(key, convert(value, depth + 1)?);
            }
            Value::Object(map)
        }
        Yaml::Alias(_) => return Err("YAML aliases are not supported in suites".to_string()),
        Yaml::BadValue => return Err("a YAML value could not be read".to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::{from_json, to_json};

    #[test]
    fn written_yaml_reads_back_as_the_same_value_in_the_same_order() {
        let value = json!({"cases": [{"zeta": 1, "name": "a: b", "output": "line 1\nline 2 'q' \"dq\"\n", "assertions": [
            {"path": "$.x", "matcher": "toBeOneOf", "expected": ["no", null, 2.5, true, "", "123", "~"], "not": false}
        ]}]});
        let text = from_json(&value).unwrap();
        let back = to_json(&text).unwrap();
        assert_eq!(back, value, "{text}");
        let keys: Vec<_> = back["cases"][0]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        assert_eq!(keys, ["zeta", "name", "output", "assertions"]);
    }
    use serde_json::json;

    #[test]
    fn yaml_reads_as_the_json_it_means() {
        let yaml = "cases:\n  - name: a\n    output: |\n      {\"x\": 1}\n    assertions:\n      - {path: x, matcher: toEqual, expected: 1.5, not: no}\n      - path: y\n        matcher: toBeOneOf\n        expected: [no, ~, 2]\n";
        let value = to_json(yaml).unwrap();
        assert_eq!(
            value,
            json!({"cases": [{"name": "a", "output": "{\"x\": 1}\n", "assertions": [
                {"path": "x", "matcher": "toEqual", "expected": 1.5, "not": "no"},
                {"path": "y", "matcher": "toBeOneOf", "expected": ["no", null, 2]}
            ]}]})
        );
        assert!(to_json("a: [").is_err());
        assert!(to_json("").is_err());
        assert!(to_json("a: .nan").is_err());
        assert!(to_json(&format!("{}1{}", "[".repeat(10_000), "]".repeat(10_000))).is_err());
    }

    #[test]
    fn a_recursive_alias_error_gives_its_line_and_column() {
        let yaml = "cases:\n  - &c\n    name: a\n    output: x\n    more: [1, *c]\n";
        let err = to_json(yaml).unwrap_err();
        assert!(err.starts_with("line 5 column 15: alias `*c`"), "{err}");
        let err = to_json("a: &x\n  - *x\n").unwrap_err();
        assert!(err.starts_with("line 2 column 5: alias `*x`"), "{err}");
    }
}
