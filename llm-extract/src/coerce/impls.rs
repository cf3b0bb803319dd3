//! [`Extract`] for the std types a reply type is made of, with the lenient readings of
//! each recorded as coercions.

use crate::coerce::{is_placeholder, number_in_text, number_to_string, parse_bool, parse_number};
use crate::coerce::{Context, Extract, Failed};
use crate::error::Category;
use crate::node::{Node, NodeKind, Number};
use crate::path::Segment;
use crate::report::CoercionKind;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hash};
use std::rc::Rc;
use std::sync::Arc;

/// In lenient mode, a one-item array where a single value is expected gives its item.
pub(crate) fn single<'n, 'a>(node: &'n Node<'a>, cx: &mut Context) -> &'n Node<'a> {
    match &node.kind {
        NodeKind::Array(items) if items.len() == 1 && cx.lenient() => {
            cx.coerce(CoercionKind::ListToSingle, node.span);
            &items[0]
        }
        _ => node,
    }
}

/// The number in a string node, in lenient mode: `"42"`, then `"The answer is 42."`.
fn number_in_string(node: &Node<'_>, cx: &mut Context) -> Option<Number> {
    let NodeKind::String(s) = &node.kind else {
        return None;
    };
    if !cx.lenient() {
        return None;
    }
    if let Some(n) = parse_number(&s.text) {
        cx.coerce(CoercionKind::StringToNumber, node.span);
        return Some(n);
    }
    let n = number_in_text(&s.text)?;
    cx.coerce(CoercionKind::NumberFromText, node.span);
    Some(n)
}

fn integer<T>(node: &Node<'_>, cx: &mut Context, type_name: &str) -> Result<T, Failed>
where
    T: TryFrom<u64> + TryFrom<i64>,
{
    let node = single(node, cx);
    let n = match &node.kind {
        NodeKind::Number(n) => *n,
        NodeKind::String(_) => match number_in_string(node, cx) {
            Some(n) => n,
            None => return Err(cx.mismatch("an integer", node)),
        },
        _ => return Err(cx.mismatch("an integer", node)),
    };
    let out_of_range = |cx: &mut Context| {
        cx.fail(
            Category::Type,
            format!("{} is out of range for {type_name}", number_to_string(n)),
            node.span,
        )
    };
    match n {
        Number::PosInt(u) => T::try_from(u).map_err(|_| out_of_range(cx)),
        Number::NegInt(i) => T::try_from(i).map_err(|_| out_of_range(cx)),
        Number::Float(f) => {
            if f.fract() != 0.0 || !f.is_finite() {
                return Err(cx.fail(
                    Category::Type,
                    format!("{} is not a whole number", number_to_string(n)),
                    node.span,
                ));
            }
            if !cx.lenient() {
                return Err(cx.mismatch("an integer", node));
            }
            cx.coerce(CoercionKind::FloatToInteger, node.span);
            // Exact: f has no fraction and the casts saturate only outside the range checked.
            if (0.0..18_446_744_073_709_551_616.0).contains(&f) {
                T::try_from(f as u64).map_err(|_| out_of_range(cx))
            } else if (-9_223_372_036_854_775_808.0..0.0).contains(&f) {
                T::try_from(f as i64).map_err(|_| out_of_range(cx))
            } else {
                Err(out_of_range(cx))
            }
        }
    }
}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl Extract for $t {
            fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
                integer::<$t>(node, cx, stringify!($t))
            }
        }
    )*};
}
integers!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

fn float(node: &Node<'_>, cx: &mut Context) -> Result<f64, Failed> {
    let node = single(node, cx);
    match &node.kind {
        NodeKind::Number(n) => Ok(n.as_f64()),
        NodeKind::String(_) => match number_in_string(node, cx) {
            Some(n) => Ok(n.as_f64()),
            None => Err(cx.mismatch("a number", node)),
        },
        _ => Err(cx.mismatch("a number", node)),
    }
}

impl Extract for f64 {
    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        float(node, cx)
    }
}

impl Extract for f32 {
    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        float(node, cx).map(|f| f as f32)
    }
}

impl Extract for bool {
    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        let node = single(node, cx);
        let read = match &node.kind {
            NodeKind::Bool(b) => return Ok(*b),
            NodeKind::String(s) if cx.lenient() => parse_bool(&s.text),
            NodeKind::Number(Number::PosInt(n @ (0 | 1))) if cx.lenient() => Some(*n == 1),
            _ => None,
        };
        match read {
            Some(b) => {
                cx.coerce(CoercionKind::ToBool, node.span);
                Ok(b)
            }
            None => Err(cx.mismatch("a boolean", node)),
        }
    }
}

impl Extract for String {
    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        let node = single(node, cx);
        let text = match &node.kind {
            NodeKind::String(s) => return Ok(s.text.to_string()),
            NodeKind::Number(n) if cx.lenient() => number_to_string(*n),
            NodeKind::Bool(b) if cx.lenient() => b.to_string(),
            _ => return Err(cx.mismatch("a string", node)),
        };
        cx.coerce(CoercionKind::ToString, node.span);
        Ok(text)
    }
}

impl Extract for Box<str> {
    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        String::from_node(node, cx).map(String::into_boxed_str)
    }
}

impl Extract for char {
    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        let node = single(node, cx);
        if let NodeKind::String(s) = &node.kind {
            let text: &str = if cx.lenient() { s.text.trim() } else { &s.text };
            let mut chars = text.chars();
            if let (Some(c), None) = (chars.next(), chars.next()) {
                return Ok(c);
            }
        }
        Err(cx.mismatch("a single character", node))
    }
}

impl Extract for () {
    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        match node.kind {
            NodeKind::Null => Ok(()),
            _ => Err(cx.mismatch("null", node)),
        }
    }
}

impl<T: Extract> Extract for Option<T> {
    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        match &node.kind {
            NodeKind::Null => Ok(None),
            NodeKind::String(s) if cx.lenient() && is_placeholder(&s.text) => {
                cx.coerce(CoercionKind::PlaceholderToNone, node.span);
                Ok(None)
            }
            _ => T::from_node(node, cx).map(Some),
        }
    }

    fn from_missing() -> Option<Self> {
        Some(None)
    }
}

macro_rules! pointers {
    ($($p:ident),*) => {$(
        impl<T: Extract> Extract for $p<T> {
            fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
                T::from_node(node, cx).map($p::new)
            }

            fn from_missing() -> Option<Self> {
                T::from_missing().map($p::new)
            }
        }
    )*};
}
pointers!(Box, Rc, Arc);

/// Reads a list: the items of an array; in lenient mode `null` as empty and a single value
/// as a one-item list. Every item's issues are collected, not only the first.
pub(crate) fn sequence<T: Extract, C: FromIterator<T>>(
    node: &Node<'_>,
    cx: &mut Context,
) -> Result<C, Failed> {
    match &node.kind {
        NodeKind::Array(items) => {
            let mut failed = false;
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                match cx.at_index(i, |cx| T::from_node(item, cx)) {
                    Ok(v) => out.push(v),
                    Err(Failed) => failed = true,
                }
            }
            if failed {
                Err(Failed)
            } else {
                Ok(out.into_iter().collect())
            }
        }
        NodeKind::Null if cx.lenient() => {
            cx.coerce(CoercionKind::NullToEmpty, node.span);
            Ok(std::iter::empty().collect())
        }
        _ if cx.lenient() => {
            let read = cx.wrapping(node, |cx| {
                cx.coerce(CoercionKind::SingleToList, node.span);
                T::from_node(node, cx).map(|v| std::iter::once(v).collect())
            });
            read.unwrap_or_else(|| Err(cx.mismatch("an array", node)))
        }
        _ => Err(cx.mismatch("an array", node)),
    }
}

impl<T: Extract> Extract for Vec<T> {
    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        sequence(node, cx)
    }
}

impl<T: Extract> Extract for VecDeque<T> {
    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        sequence(node, cx)
    }
}

impl<T: Extract + Ord> Extract for BTreeSet<T> {
    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        sequence(node, cx)
    }
}

impl<T: Extract + Eq + Hash, S: BuildHasher + Default> Extract for HashSet<T, S> {
    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        sequence(node, cx)
    }
}

impl<T: Extract, const N: usize> Extract for [T; N] {
    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        if let NodeKind::Array(items) = &node.kind {
            if items.len() != N {
                let message = format!("expected an array of {N} items, found {}", items.len());
                return Err(cx.fail(Category::Type, message, node.span));
            }
        }
        let items: Vec<T> = sequence(node, cx)?;
        let found = items.len();
        items.try_into().map_err(|_| {
            cx.fail(
                Category::Type,
                format!("expected an array of {N} items, found {found}"),
                node.span,
            )
        })
    }
}

macro_rules! tuples {
    ($($len:literal => ($($n:tt $t:ident)+))+) => {$(
        impl<$($t: Extract),+> Extract for ($($t,)+) {
            #[allow(non_snake_case)] // the type parameters double as the element bindings
            fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
                let NodeKind::Array(items) = &node.kind else {
                    return Err(cx.mismatch(concat!("an array of ", $len, " items"), node));
                };
                if items.len() != $len {
                    let message = format!("expected an array of {} items, found {}", $len, items.len());
                    return Err(cx.fail(Category::Type, message, node.span));
                }
                $(let $t = cx.at_index($n, |cx| $t::from_node(&items[$n], cx));)+
                Ok(($($t?,)+))
            }
        }
    )+};
}
tuples! {
    1 => (0 A)
    2 => (0 A 1 B)
    3 => (0 A 1 B 2 C)
    4 => (0 A 1 B 2 C 3 D)
    5 => (0 A 1 B 2 C 3 D 4 E)
    6 => (0 A 1 B 2 C 3 D 4 E 5 F)
    7 => (0 A 1 B 2 C 3 D 4 E 5 F 6 G)
    8 => (0 A 1 B 2 C 3 D 4 E 5 F 6 G 7 H)
}

/// A map key type: read from an object key's text.
///
/// ```
/// use llm_extract::coerce::MapKey;
/// assert_eq!(<u32 as MapKey>::from_key(" 7 "), Some(7));
/// assert_eq!(<String as MapKey>::from_key("k"), Some("k".to_string()));
/// ```
pub trait MapKey: Sized {
    /// The key, or `None` when the text cannot be one.
    fn from_key(key: &str) -> Option<Self>;
}

impl MapKey for String {
    fn from_key(key: &str) -> Option<Self> {
        Some(key.to_string())
    }
}

impl MapKey for Box<str> {
    fn from_key(key: &str) -> Option<Self> {
        Some(key.into())
    }
}

impl MapKey for Arc<str> {
    fn from_key(key: &str) -> Option<Self> {
        Some(key.into())
    }
}

impl MapKey for Rc<str> {
    fn from_key(key: &str) -> Option<Self> {
        Some(key.into())
    }
}

impl MapKey for char {
    fn from_key(key: &str) -> Option<Self> {
        let mut chars = key.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Some(c),
            _ => None,
        }
    }
}

macro_rules! integer_keys {
    ($($t:ty),*) => {$(
        impl MapKey for $t {
            fn from_key(key: &str) -> Option<Self> {
                key.trim().parse().ok()
            }
        }
    )*};
}
integer_keys!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

/// Reads an object into any map: every entry, later duplicates replacing earlier ones
/// (recorded), every key and value issue collected.
fn map<K: MapKey, V: Extract>(
    node: &Node<'_>,
    cx: &mut Context,
    mut insert: impl FnMut(K, V) -> bool,
) -> Result<(), Failed> {
    let entries = match &node.kind {
        NodeKind::Object(entries) => entries,
        NodeKind::Null if cx.lenient() => {
            cx.coerce(CoercionKind::NullToEmpty, node.span);
            return Ok(());
        }
        _ => return Err(cx.mismatch("an object", node)),
    };
    let mut failed = false;
    for entry in entries {
        cx.at(Segment::Key(entry.key.text.to_string()), |cx| {
            let key = K::from_key(&entry.key.text);
            if key.is_none() {
                cx.fail(
                    Category::Type,
                    format!("{:?} is not a valid key here", entry.key.text),
                    entry.key_span,
                );
            }
            let value = V::from_node(&entry.value, cx);
            match (key, value) {
                (Some(k), Ok(v)) => {
                    if insert(k, v) {
                        cx.coerce(CoercionKind::DuplicateKey, entry.key_span);
                    }
                }
                _ => failed = true,
            }
        });
    }
    if failed {
        Err(Failed)
    } else {
        Ok(())
    }
}

impl<K: MapKey + Eq + Hash, V: Extract, S: BuildHasher + Default> Extract for HashMap<K, V, S> {
    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        let mut out = HashMap::default();
        map(node, cx, |k, v| out.insert(k, v).is_some())?;
        Ok(out)
    }
}

impl<K: MapKey + Ord, V: Extract> Extract for BTreeMap<K, V> {
    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        let mut out = BTreeMap::new();
        map(node, cx, |k, v| out.insert(k, v).is_some())?;
        Ok(out)
    }
}

impl Extract for serde_json::Value {
    const FROM_PROSE: bool = false;

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        Ok(cx.json_value(node))
    }

    fn from_missing() -> Option<Self> {
        None
    }
}

impl Extract for serde_json::Map<String, serde_json::Value> {
    const FROM_PROSE: bool = false;

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        match &node.kind {
            NodeKind::Object(_) => match cx.json_value(node) {
                serde_json::Value::Object(map) => Ok(map),
                _ => Err(cx.mismatch("an object", node)),
            },
            NodeKind::Null if cx.lenient() => {
                cx.coerce(CoercionKind::NullToEmpty, node.span);
                Ok(serde_json::Map::new())
            }
            _ => Err(cx.mismatch("an object", node)),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::coerce::{Context, Extract, Mode, Node};
    use crate::CoercionKind;
    use serde_json::json;
    use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

    /// Reads `value` as `T`; returns the value (or None) and the coercion kinds.
    fn read<T: Extract>(value: serde_json::Value, mode: Mode) -> (Option<T>, Vec<CoercionKind>) {
        let node = Node::from_value(&value);
        let mut cx = Context::with_mode_set(mode);
        let out = T::from_node(&node, &mut cx)
            .ok()
            .filter(|_| cx.issues().is_empty());
        (out, cx.coercions().iter().map(|c| c.kind.clone()).collect())
    }

    fn lenient<T: Extract>(value: serde_json::Value) -> Option<T> {
        read::<T>(value, Mode::Lenient).0
    }

    fn strict<T: Extract>(value: serde_json::Value) -> Option<T> {
        read::<T>(value, Mode::Strict).0
    }

    #[test]
    fn integers_table() {
        let rows: &[(serde_json::Value, Option<i64>, Option<CoercionKind>)] = &[
            (json!(42), Some(42), None),
            (json!(-42), Some(-42), None),
            (json!("42"), Some(42), Some(CoercionKind::StringToNumber)),
            (json!(" 42 "), Some(42), Some(CoercionKind::StringToNumber)),
            (
                json!("4,200"),
                Some(4200),
                Some(CoercionKind::StringToNumber),
            ),
            (json!(3.0), Some(3), Some(CoercionKind::FloatToInteger)),
            (json!("3.0"), Some(3), Some(CoercionKind::StringToNumber)),
            (json!(3.7), None, None),
            (
                json!("The answer is 42."),
                Some(42),
                Some(CoercionKind::NumberFromText),
            ),
            (json!([7]), Some(7), Some(CoercionKind::ListToSingle)),
            (json!(true), None, None),
            (json!(null), None, None),
            (json!("many"), None, None),
            (json!({"a": 1}), None, None),
        ];
        for (input, want, kind) in rows {
            let (got, kinds) = read::<i64>(input.clone(), Mode::Lenient);
            assert_eq!(got, *want, "{input}");
            if let Some(kind) = kind {
                assert_eq!(kinds.first(), Some(kind), "{input}");
            }
        }
        assert_eq!(lenient::<u8>(json!(300)), None);
        assert_eq!(lenient::<u8>(json!(-1)), None);
        assert_eq!(lenient::<u64>(json!(u64::MAX)), Some(u64::MAX));
        assert_eq!(lenient::<i8>(json!(-128.0)), Some(-128));
        assert_eq!(lenient::<u64>(json!(1e300)), None);
    }

    #[test]
    fn strict_mode_rejects_every_coercion() {
        assert_eq!(strict::<i64>(json!("42")), None);
        assert_eq!(strict::<i64>(json!(3.0)), None);
        assert_eq!(strict::<i64>(json!([1])), None);
        assert_eq!(strict::<bool>(json!("yes")), None);
        assert_eq!(strict::<String>(json!(1)), None);
        assert_eq!(strict::<Vec<u8>>(json!(1)), None);
        assert_eq!(
            strict::<Option<String>>(json!("N/A")),
            Some(Some("N/A".to_string()))
        );
        assert_eq!(strict::<i64>(json!(42)), Some(42));
    }

    #[test]
    fn floats_bools_strings_chars() {
        assert_eq!(lenient::<f64>(json!("2.5")), Some(2.5));
        assert_eq!(lenient::<f32>(json!(1)), Some(1.0));
        assert_eq!(lenient::<f64>(json!("about 0.75")), Some(0.75));
        assert_eq!(lenient::<bool>(json!("yes")), Some(true));
        assert_eq!(lenient::<bool>(json!(0)), Some(false));
        assert_eq!(lenient::<bool>(json!(2)), None);
        assert_eq!(lenient::<String>(json!(12)), Some("12".to_string()));
        assert_eq!(lenient::<String>(json!(1.5)), Some("1.5".to_string()));
        assert_eq!(lenient::<String>(json!(false)), Some("false".to_string()));
        assert_eq!(lenient::<String>(json!(null)), None);
        assert_eq!(lenient::<char>(json!("x")), Some('x'));
        assert_eq!(lenient::<char>(json!("xy")), None);
        assert_eq!(lenient::<()>(json!(null)), Some(()));
    }

    #[test]
    fn options_and_placeholders() {
        assert_eq!(lenient::<Option<u8>>(json!(null)), Some(None));
        assert_eq!(lenient::<Option<u8>>(json!("N/A")), Some(None));
        assert_eq!(lenient::<Option<u8>>(json!("5")), Some(Some(5)));
        assert_eq!(<Option<u8> as Extract>::from_missing(), Some(None));
        assert_eq!(<u8 as Extract>::from_missing(), None);
        assert_eq!(
            <Box<Option<u8>> as Extract>::from_missing(),
            Some(Box::new(None))
        );
    }

    #[test]
    fn collections() {
        assert_eq!(
            lenient::<Vec<u8>>(json!([1, "2", 3.0])),
            Some(vec![1, 2, 3])
        );
        let (v, kinds) = read::<Vec<String>>(json!("solo"), Mode::Lenient);
        assert_eq!(v, Some(vec!["solo".to_string()]));
        assert_eq!(kinds, vec![CoercionKind::SingleToList]);
        assert_eq!(lenient::<Vec<u8>>(json!(null)), Some(vec![]));
        assert_eq!(
            lenient::<VecDeque<u8>>(json!([1])),
            Some(VecDeque::from([1]))
        );
        assert_eq!(
            lenient::<HashSet<u8>>(json!([1, 1, 2])).map(|s| s.len()),
            Some(2)
        );
        assert_eq!(lenient::<[u8; 2]>(json!([1, 2])), Some([1, 2]));
        assert_eq!(lenient::<[u8; 2]>(json!([1, 2, 3])), None);
        assert_eq!(
            lenient::<(u8, String)>(json!([1, "a"])),
            Some((1, "a".to_string()))
        );
        assert_eq!(lenient::<(u8, String)>(json!([1])), None);
        let m = lenient::<BTreeMap<String, u8>>(json!({"a": 1, "b": "2"})).unwrap();
        assert_eq!(
            m,
            BTreeMap::from([("a".to_string(), 1), ("b".to_string(), 2)])
        );
        assert_eq!(
            lenient::<HashMap<u32, bool>>(json!({"1": true})),
            Some(HashMap::from([(1, true)]))
        );
        assert_eq!(lenient::<HashMap<u32, bool>>(json!({"x": true})), None);
        let map = lenient::<serde_json::Map<String, serde_json::Value>>(json!(null)).unwrap();
        assert!(map.is_empty());
    }

    #[test]
    fn every_item_issue_is_collected() {
        let node = Node::from_value(&json!([1, "x", 3, "y"]));
        let mut cx = Context::new();
        assert!(Vec::<u8>::from_node(&node, &mut cx).is_err());
        let paths: Vec<String> = cx.issues().iter().map(|i| i.path.to_string()).collect();
        assert_eq!(paths, vec!["$[1]", "$[3]"]);
    }
}
