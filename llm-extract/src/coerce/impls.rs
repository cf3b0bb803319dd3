//! [`Extract`] for the std types a reply type is made of, with the lenient readings of
//! each recorded as coercions.

use crate::coerce::readings::{bulleted_items, listed_items};
use crate::coerce::{as_container, Context, Direct, Extract, Failed};
use crate::coerce::{bool_in_text, is_placeholder, number_in_text, number_to_string};
use crate::coerce::{parse_bool, parse_number};
use crate::error::Category;
use crate::node::{Node, NodeKind, Number, Str};
use crate::path::Segment;
use crate::report::CoercionKind;
use std::borrow::Cow;
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
    // A document written as a string (`"{\"a\": 1}"`) is not a sentence with a number in it.
    if s.text.trim_start().starts_with(['{', '[']) {
        return None;
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
    type Partial = $t;

            fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
                integer::<$t>(node, cx, stringify!($t))
            }

            #[inline]
            fn read_direct(r: &mut Direct<'_>) -> Option<Self> {
                match r.peek()? {
                    // A float is coerced (or refused) on the full path.
                    b'-' | b'0'..=b'9' => match r.number()? {
                        Number::PosInt(u) => Self::try_from(u).ok(),
                        Number::NegInt(i) => Self::try_from(i).ok(),
                        Number::Float(_) => None,
                    },
                    _ => r.by_node(Self::from_node),
                }
            }

            #[inline]
            fn from_partial(partial: &Self) -> Option<Self> {
                Some(*partial)
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
    type Partial = f64;

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        float(node, cx)
    }

    #[inline]
    fn read_direct(r: &mut Direct<'_>) -> Option<Self> {
        match r.peek()? {
            b'-' | b'0'..=b'9' => r.number().map(Number::as_f64),
            _ => r.by_node(Self::from_node),
        }
    }

    #[inline]
    fn from_partial(partial: &Self) -> Option<Self> {
        Some(*partial)
    }
}

impl Extract for f32 {
    type Partial = f32;

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        float(node, cx).map(|f| f as f32)
    }

    #[inline]
    fn read_direct(r: &mut Direct<'_>) -> Option<Self> {
        f64::read_direct(r).map(|f| f as f32)
    }

    #[inline]
    fn from_partial(partial: &Self) -> Option<Self> {
        Some(*partial)
    }
}

impl Extract for bool {
    type Partial = bool;

    #[inline]
    fn read_direct(r: &mut Direct<'_>) -> Option<Self> {
        match r.peek()? {
            b't' | b'f' => r.bool(),
            _ => r.by_node(Self::from_node),
        }
    }

    #[inline]
    fn from_partial(partial: &Self) -> Option<Self> {
        Some(*partial)
    }

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        let node = single(node, cx);
        let read = match &node.kind {
            NodeKind::Bool(b) => return Ok(*b),
            NodeKind::String(s) if cx.lenient() => match parse_bool(&s.text) {
                Some(b) => Some(b),
                None => {
                    let found = bool_in_text(&s.text);
                    if let Some(b) = found {
                        cx.coerce(CoercionKind::BoolFromText, node.span);
                        return Ok(b);
                    }
                    None
                }
            },
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
    type Partial = crate::stream::PartialString;

    #[inline]
    fn read_direct(r: &mut Direct<'_>) -> Option<Self> {
        match r.peek()? {
            b'"' => r.string().map(|(text, _)| text.into_owned()),
            _ => r.by_node(Self::from_node),
        }
    }

    fn from_partial(partial: &crate::stream::PartialString) -> Option<Self> {
        partial.complete_str().map(str::to_owned)
    }

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
    type Partial = crate::stream::PartialString;

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        String::from_node(node, cx).map(String::into_boxed_str)
    }

    fn from_partial(partial: &crate::stream::PartialString) -> Option<Self> {
        partial.complete_str().map(Box::from)
    }
}

impl Extract for char {
    type Partial = char;

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

    fn from_partial(partial: &Self) -> Option<Self> {
        Some(*partial)
    }
}

impl Extract for () {
    type Partial = crate::stream::NoPartial;

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        match node.kind {
            NodeKind::Null => Ok(()),
            _ => Err(cx.mismatch("null", node)),
        }
    }
}

impl<T: Extract> Extract for Option<T> {
    type Partial = crate::stream::PartialOption<T::Partial>;

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        match &node.kind {
            NodeKind::Null => Ok(None),
            // `""` is a value where the inner type takes it as written (`Option<String>`);
            // elsewhere it says "no value", like the other placeholders.
            NodeKind::String(s) if s.text.is_empty() && s.is_quoted() => {
                let start = cx.checkpoint();
                match T::from_node(node, cx) {
                    Ok(v) if !cx.failed_since(start) && cx.cost_since(start) == 0 => Ok(Some(v)),
                    _ if cx.lenient() => {
                        cx.rollback(start);
                        cx.coerce(CoercionKind::PlaceholderToNone, node.span);
                        Ok(None)
                    }
                    other => other.map(Some),
                }
            }
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

    fn read_direct(r: &mut Direct<'_>) -> Option<Self> {
        match r.peek()? {
            b'n' => r.null().map(|()| None),
            b'"' => {
                // `""` and placeholders (`"N/A"`) are read as `from_node` reads them.
                let at = r.position();
                let (text, _) = r.string()?;
                let plain = !text.is_empty() && !is_placeholder(&text);
                r.rewind(at);
                if plain {
                    T::read_direct(r).map(Some)
                } else {
                    r.by_node(Self::from_node)
                }
            }
            _ => T::read_direct(r).map(Some),
        }
    }

    fn from_partial(partial: &Self::Partial) -> Option<Self> {
        match partial.held_back() {
            true => None,
            false => match &**partial {
                Some(inner) => T::from_partial(inner).map(Some),
                None => Some(None),
            },
        }
    }
}

macro_rules! pointers {
    ($($p:ident),*) => {$(
        impl<T: Extract> Extract for $p<T> {
            // Boxed, so a recursive type's twin (`next: Option<Box<Link>>`) has a size.
            type Partial = Box<T::Partial>;

            fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
                T::from_node(node, cx).map($p::new)
            }

            fn from_missing() -> Option<Self> {
                T::from_missing().map($p::new)
            }

            fn read_direct(r: &mut Direct<'_>) -> Option<Self> {
                T::read_direct(r).map($p::new)
            }

            fn from_partial(partial: &Self::Partial) -> Option<Self> {
                T::from_partial(partial).map($p::new)
            }
        }
    )*};
}
pointers!(Box, Rc, Arc);

/// Reads a list: the items of an array; in lenient mode a string holding a JSON array is
/// decoded, `null` is empty, a list written as text is split into its items, and any other
/// single value is a one-item list. Every item's issues are collected, not only the first.
pub(crate) fn sequence<T: Extract, C: FromIterator<T>>(
    node: &Node<'_>,
    cx: &mut Context,
) -> Result<C, Failed> {
    let decoded = as_container(node, cx);
    let node: &Node<'_> = &decoded;
    match &node.kind {
        NodeKind::Array(items) => items_of(node, items, cx),
        NodeKind::Null if cx.lenient() => {
            cx.coerce(CoercionKind::NullToEmpty, node.span);
            Ok(std::iter::empty().collect())
        }
        NodeKind::String(s) if cx.lenient() => match bulleted_items(&s.text) {
            Some(lines) => {
                let start = cx.checkpoint();
                match pieces_as_items(node, &lines, cx) {
                    Ok(list) => Ok(list),
                    Err(Failed) => {
                        cx.rollback(start);
                        single_or_pieces(node, cx)
                    }
                }
            }
            None => single_or_pieces(node, cx),
        },
        NodeKind::Object(_) if cx.lenient() => single_or_unwrapped(node, cx),
        _ if cx.lenient() => single_as_list(node, cx),
        _ => Err(cx.mismatch("an array", node)),
    }
}

/// An object as a one-item list; when it does not fit that way and its one key holds a list
/// (`{"items": [...]}`), that list ([`CoercionKind::UnwrappedObject`]). Only when reading the
/// object as an item matched nothing and failed at the object's own level: then it read no
/// value inside, and nothing is read twice.
fn single_or_unwrapped<T: Extract, C: FromIterator<T>>(
    node: &Node<'_>,
    cx: &mut Context,
) -> Result<C, Failed> {
    let start = cx.checkpoint();
    let matched = cx.matched();
    let single = single_as_list(node, cx);
    if single.is_ok() && !cx.failed_since(start) {
        return single;
    }
    let Some(entry) = lone_list_entry(node) else {
        return single;
    };
    let (coercions, issues) = cx.take_since(start);
    let depth = cx.depth();
    let shallow = issues.iter().all(|i| i.path.segments().len() <= depth + 1);
    if shallow && cx.matched() == matched {
        let attempt = cx.checkpoint();
        let key = Segment::Key(entry.key.text.to_string());
        let list = cx.at(key, |cx| {
            let value = as_container(&entry.value, cx);
            match value.kind {
                NodeKind::Array(_) => sequence::<T, C>(&value, cx),
                _ => Err(cx.mismatch("an array", &value)),
            }
        });
        if list.is_ok() && !cx.failed_since(attempt) {
            cx.coerce(CoercionKind::UnwrappedObject, entry.key_span);
            return list;
        }
        cx.rollback(attempt);
    }
    cx.restore(coercions);
    for issue in issues {
        cx.push_issue(issue);
    }
    single
}

/// The only entry of an object, when its value is a list (or a string holding one).
fn lone_list_entry<'n, 'a>(node: &'n Node<'a>) -> Option<&'n crate::node::Entry<'a>> {
    let NodeKind::Object(entries) = &node.kind else {
        return None;
    };
    let [entry] = entries.as_slice() else {
        return None;
    };
    let holds_list = match &entry.value.kind {
        NodeKind::Array(_) => true,
        NodeKind::String(s) => s.text.trim_start().starts_with('['),
        _ => false,
    };
    holds_list.then_some(entry)
}

/// The items of an array node. The last item of a list cut off by the end of the reply,
/// itself cut off, is dropped (and recorded) when it does not fit: the complete items are
/// kept. A complete item that does not fit is an error.
fn items_of<T: Extract, C: FromIterator<T>>(
    node: &Node<'_>,
    items: &[Node<'_>],
    cx: &mut Context,
) -> Result<C, Failed> {
    let mut failed = false;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let start = cx.checkpoint();
        match cx.at_index(i, |cx| T::from_node(item, cx)) {
            Ok(v) if !cx.failed_since(start) => {
                cx.note_match();
                out.push(v);
            }
            _ if i + 1 == items.len() && cut_off(node, item) => {
                cx.rollback(start);
                cx.at_index(i, |cx| {
                    cx.coerce(CoercionKind::DroppedIncompleteItem, item.span)
                });
            }
            Ok(v) => out.push(v), // a rule failed: its issues stand
            Err(Failed) => failed = true,
        }
    }
    if failed {
        Err(Failed)
    } else {
        Ok(out.into_iter().collect())
    }
}

/// Whether `last`, the last member of `container`, was cut off by the end of the reply (and
/// so may be dropped when it does not fit).
fn cut_off(container: &Node<'_>, last: &Node<'_>) -> bool {
    // The parser marks every value the input ended inside, so the flags of the two nodes
    // say it: no walk of the item (which nested lists would repeat at every level).
    !container.complete && !last.complete
}

/// One value as a one-item list, unless it is a list written as text (`red, green and blue`)
/// whose items fit when the whole does not.
fn single_or_pieces<T: Extract, C: FromIterator<T>>(
    node: &Node<'_>,
    cx: &mut Context,
) -> Result<C, Failed> {
    let start = cx.checkpoint();
    let single = single_as_list(node, cx);
    if single.is_ok() && !cx.failed_since(start) {
        return single;
    }
    let NodeKind::String(s) = &node.kind else {
        return single;
    };
    let Some(pieces) = listed_items(&s.text) else {
        return single;
    };
    let (coercions, issues) = cx.take_since(start);
    let attempt = cx.checkpoint();
    match pieces_as_items(node, &pieces, cx) {
        Ok(list) if !cx.failed_since(attempt) => Ok(list),
        _ => {
            cx.rollback(attempt);
            cx.restore(coercions);
            for issue in issues {
                cx.push_issue(issue);
            }
            single
        }
    }
}

/// A single value as a one-item list, unless it is already wrapped too often.
fn single_as_list<T: Extract, C: FromIterator<T>>(
    node: &Node<'_>,
    cx: &mut Context,
) -> Result<C, Failed> {
    let read = cx.wrapping(node, |cx| {
        cx.coerce(CoercionKind::SingleToList, node.span);
        T::from_node(node, cx).map(|v| std::iter::once(v).collect())
    });
    read.unwrap_or_else(|| Err(cx.mismatch("an array", node)))
}

/// The pieces of a list written as text, each read as an item (`ListFromText`).
fn pieces_as_items<T: Extract, C: FromIterator<T>>(
    node: &Node<'_>,
    pieces: &[&str],
    cx: &mut Context,
) -> Result<C, Failed> {
    let NodeKind::String(s) = &node.kind else {
        return Err(cx.mismatch("an array", node));
    };
    cx.coerce(CoercionKind::ListFromText, node.span);
    let items: Vec<Node<'_>> = pieces
        .iter()
        .map(|piece| {
            let text = Cow::Owned(piece.to_string());
            let quoting = s.quoting;
            Node::new(NodeKind::String(Str { text, quoting }), node.span)
        })
        .collect();
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

impl<T: Extract> Extract for Vec<T> {
    type Partial = crate::stream::PartialList<T::Partial>;

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        sequence(node, cx)
    }

    fn read_direct(r: &mut Direct<'_>) -> Option<Self> {
        direct_items(r)
    }

    fn from_partial(partial: &Self::Partial) -> Option<Self> {
        // Sized up front: collecting into an `Option` knows no length, and grew the list by
        // doubling.
        let mut items = Vec::with_capacity(partial.len());
        for item in partial.items_as_read()? {
            items.push(T::from_partial(item)?);
        }
        Some(items)
    }
}

impl<T: Extract> Extract for VecDeque<T> {
    type Partial = crate::stream::PartialList<T::Partial>;

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        sequence(node, cx)
    }

    fn read_direct(r: &mut Direct<'_>) -> Option<Self> {
        direct_items(r)
    }
}

impl<T: Extract + Ord> Extract for BTreeSet<T> {
    type Partial = crate::stream::PartialSet<T::Partial>;

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        sequence(node, cx)
    }
}

impl<T: Extract + Eq + Hash, S: BuildHasher + Default> Extract for HashSet<T, S> {
    type Partial = crate::stream::PartialSet<T::Partial>;

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        sequence(node, cx)
    }
}

impl<T: Extract, const N: usize> Extract for [T; N] {
    type Partial = crate::stream::PartialList<T::Partial>;

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        let decoded = as_container(node, cx);
        let node: &Node<'_> = &decoded;
        if let NodeKind::Array(items) = &node.kind {
            if items.len() != N {
                return Err(cx.wrong_length(N, items.len(), node));
            }
        }
        let items: Vec<T> = sequence(node, cx)?;
        let found = items.len();
        items
            .try_into()
            .map_err(|_| cx.wrong_length(N, found, node))
    }
}

macro_rules! tuples {
    ($($len:literal => ($($n:tt $t:ident)+))+) => {$(
        impl<$($t: Extract),+> Extract for ($($t,)+) {
    type Partial = crate::stream::NoPartial;

            #[allow(non_snake_case)] // the type parameters double as the element bindings
            fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
                let decoded = as_container(node, cx);
                let node: &Node<'_> = &decoded;
                let NodeKind::Array(items) = &node.kind else {
                    return Err(cx.mismatch(concat!("an array of ", $len, " items"), node));
                };
                if items.len() != $len {
                    return Err(cx.wrong_length($len, items.len(), node));
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

    /// The key read from `key` as a stream's snapshot shows it: as the value `finish`
    /// returns writes it (`07` is `7` for a number, `fast` the variant `Fast`), or `None`
    /// when the text cannot be one. The default: the text as written, if it is a key.
    #[doc(hidden)]
    fn key_text(key: &str) -> Option<Cow<'_, str>> {
        Self::from_key(key).map(|_| Cow::Borrowed(key))
    }
}

macro_rules! text_keys {
    ($($t:ty),*) => {$(
        impl MapKey for $t {
            fn from_key(key: &str) -> Option<Self> {
                Some(key.into())
            }

            fn key_text(key: &str) -> Option<Cow<'_, str>> {
                Some(Cow::Borrowed(key))
            }
        }
    )*};
}
text_keys!(String, Box<str>, Arc<str>, Rc<str>);

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

            fn key_text(key: &str) -> Option<Cow<'_, str>> {
                Self::from_key(key).map(|n| Cow::Owned(n.to_string()))
            }
        }
    )*};
}
integer_keys!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

/// The items of an array read on the direct path; anything but an array is read through
/// a tree (a single value as a list, `null` as empty, ...).
fn direct_items<T: Extract, C: FromIterator<T>>(r: &mut Direct<'_>) -> Option<C> {
    if r.peek()? != b'[' {
        return r.by_node(sequence);
    }
    let mut out = Vec::new();
    r.array(|r| {
        out.push(T::read_direct(r)?);
        Some(())
    })?;
    Some(out.into_iter().collect())
}

/// [`map`] on the direct path: every entry of an object put into `out` (`insert` says whether
/// it replaced one), or `None` when a key is not a `K` or repeats. Anything but an object is
/// read through a tree with the map's own `from_node`.
fn direct_map<K: MapKey, V: Extract, M>(
    r: &mut Direct<'_>,
    from_node: fn(&Node<'_>, &mut Context) -> Result<M, Failed>,
    mut out: M,
    insert: fn(&mut M, K, V) -> bool,
) -> Option<M> {
    if r.peek()? != b'{' {
        return r.by_node(from_node);
    }
    r.object(|r, key| {
        let key = K::from_key(&key)?;
        let value = V::read_direct(r)?;
        // A repeated key is recorded on the full path.
        (!insert(&mut out, key, value)).then_some(())
    })?;
    Some(out)
}

/// Reads an object into any map: every entry, later duplicates replacing earlier ones
/// (recorded) unless written without a value or a key, every key and value issue collected. In lenient mode a string holding a JSON
/// object is decoded first, and the last entry of an object cut off by the end of the reply
/// is dropped (and recorded) when its value was cut off and does not fit, or never came.
///
/// `insert(key, value, invented)` puts the entry in the map, except an invented one (no value
/// or no key written) over a key already there, and says whether the key was there.
pub(crate) fn map<K: MapKey, V: Extract>(
    node: &Node<'_>,
    cx: &mut Context,
    mut insert: impl FnMut(K, V, bool) -> bool,
) -> Result<(), Failed> {
    let decoded = as_container(node, cx);
    let node: &Node<'_> = &decoded;
    let entries = match &node.kind {
        NodeKind::Object(entries) => entries,
        NodeKind::Null if cx.lenient() => {
            cx.coerce(CoercionKind::NullToEmpty, node.span);
            return Ok(());
        }
        _ => return Err(cx.mismatch("an object", node)),
    };
    let mut failed = false;
    for (i, entry) in entries.iter().enumerate() {
        let last_cut_off = i + 1 == entries.len() && cx.lenient() && cut_off(node, &entry.value);
        cx.at(Segment::Key(entry.key.text.to_string()), |cx| {
            let start = cx.checkpoint();
            let key = K::from_key(&entry.key.text);
            if key.is_none() {
                cx.fail(
                    Category::Type,
                    format!("{:?} is not a valid key here", entry.key.text),
                    entry.key_span,
                );
            }
            let value = V::from_node(&entry.value, cx);
            let unread = value.is_err() || cx.failed_since(start);
            if last_cut_off && (unread || matches!(entry.value.kind, NodeKind::Null)) {
                cx.rollback(start);
                cx.coerce(CoercionKind::DroppedIncompleteItem, entry.value.span);
                return;
            }
            match (key, value) {
                (Some(k), Ok(v)) => {
                    cx.note_match();
                    if insert(k, v, entry.value_missing() || entry.key_missing()) {
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
    type Partial = crate::stream::PartialMap<V::Partial, K>;

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        let mut out = HashMap::default();
        map(node, cx, |k, v, invented| {
            (invented && out.contains_key(&k)) || out.insert(k, v).is_some()
        })?;
        Ok(out)
    }

    fn read_direct(r: &mut Direct<'_>) -> Option<Self> {
        direct_map(r, Self::from_node, HashMap::default(), |m, k, v| {
            m.insert(k, v).is_some()
        })
    }
}

impl<K: MapKey + Ord, V: Extract> Extract for BTreeMap<K, V> {
    type Partial = crate::stream::PartialMap<V::Partial, K>;

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        let mut out = BTreeMap::new();
        map(node, cx, |k, v, invented| {
            (invented && out.contains_key(&k)) || out.insert(k, v).is_some()
        })?;
        Ok(out)
    }

    fn read_direct(r: &mut Direct<'_>) -> Option<Self> {
        direct_map(r, Self::from_node, BTreeMap::new(), |m, k, v| {
            m.insert(k, v).is_some()
        })
    }
}

impl Extract for serde_json::Value {
    type Partial = crate::stream::PartialJson;

    const FROM_PROSE: bool = false;

    // `from_node` records them (`Context::json_value_noting`), and nothing else.
    const REPEATED_KEYS_FROM_PARTIAL: bool = true;

    fn read_direct(r: &mut Direct<'_>) -> Option<Self> {
        // Numbers as written need the tree's source text.
        if cfg!(feature = "arbitrary_precision") {
            return r.by_node(Self::from_node);
        }
        r.json_value()
    }

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        Ok(cx.json_value_noting(node))
    }

    fn from_missing() -> Option<Self> {
        None
    }

    fn from_partial(partial: &crate::stream::PartialJson) -> Option<Self> {
        // Numbers as written need the source text.
        if cfg!(feature = "arbitrary_precision") {
            return None;
        }
        partial.to_complete_value(false)
    }

    fn from_partial_repeated(partial: &crate::stream::PartialJson) -> Option<Self> {
        if cfg!(feature = "arbitrary_precision") {
            return None;
        }
        partial.to_complete_value(true)
    }
}

impl Extract for serde_json::Map<String, serde_json::Value> {
    type Partial = crate::stream::PartialMap<crate::stream::PartialJson>;

    const FROM_PROSE: bool = false;

    fn read_direct(r: &mut Direct<'_>) -> Option<Self> {
        if cfg!(feature = "arbitrary_precision") || r.peek()? != b'{' {
            return r.by_node(Self::from_node);
        }
        match r.json_value()? {
            serde_json::Value::Object(map) => Some(map),
            _ => None,
        }
    }

    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        let decoded = as_container(node, cx);
        let node: &Node<'_> = &decoded;
        match &node.kind {
            NodeKind::Object(_) => match cx.json_value_noting(node) {
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
