//! The partial values a stream shows: the trait every partial implements, the shared growing
//! parts (strings, lists, maps) and the partials of the crate's own types.
//!
//! A snapshot clones the partial. Its growing parts sit behind an [`Arc`], so a clone costs
//! the number of fields of the type, not the size of the data; the stream grows them in place
//! with [`Arc::make_mut`] (a copy happens only when the caller still holds an older snapshot
//! of that part).

use super::{Container, Event, Feed, Step};
use crate::coerce::Extract;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// A value while it streams in: what [`Stream::snapshot`](crate::Stream::snapshot) returns
/// for a type, as `<T as Extract>::Partial`.
///
/// `#[derive(Extract)]` implements it for the partial twin it generates; the crate implements
/// it for the partials of its own types. A hand-written [`Extract`] impl can name
/// [`NoPartial`] (the type then shows nothing until [`Stream::finish`](crate::Stream::finish))
/// or any type here, such as `Option<Self>` for a type read in one piece.
///
/// The reader calls [`PartialValue::apply`] with every event below the value: `slot` is the
/// value so far (`None` until something can be shown), `at` is where the event happens
/// relative to it (empty: the value itself), and `feed` reads complete values as Rust types
/// and records issues. It returns whether the slot changed.
///
/// ```
/// use llm_extract::stream::{Event, Feed, PartialValue, Step};
///
/// /// A type that shows nothing until it is complete, then its value.
/// #[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
/// struct Whole(Option<u32>);
///
/// impl PartialValue for Whole {
///     fn apply(slot: &mut Option<Self>, at: &[Step<'_>], event: &Event<'_>, feed: &mut Feed<'_>) -> bool {
///         if !at.is_empty() || !event.completes() {
///             return false;
///         }
///         let value = feed.read::<u32>(event);
///         let changed = value.is_some();
///         if changed {
///             *slot = Some(Whole(value));
///         }
///         changed
///     }
/// }
/// ```
pub trait PartialValue: fmt::Debug + Clone + Default + PartialEq + Serialize {
    /// Applies one event at `at` below this value to `slot`; returns whether it changed.
    fn apply(slot: &mut Option<Self>, at: &[Step<'_>], event: &Event<'_>, feed: &mut Feed<'_>)
        -> bool;

    /// Salvage's last resort ([`extract_partial`](crate::extract_partial)): fills what is
    /// still missing from members found by key anywhere in the text
    /// ([`Feed::find_member`], [`Feed::recover`]); returns the paths recovered. The derive
    /// implements it for structs; the default recovers nothing.
    fn salvage(slot: &mut Option<Self>, feed: &mut Feed<'_>) -> Vec<crate::Path> {
        let _ = (slot, feed);
        Vec::new()
    }
}

/// The partial of a type that does not stream: always empty, serialized as `null`. The
/// value arrives with [`Stream::finish`](crate::Stream::finish).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NoPartial;

impl Serialize for NoPartial {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit()
    }
}

impl PartialValue for NoPartial {
    fn apply(_: &mut Option<Self>, _: &[Step<'_>], _: &Event<'_>, _: &mut Feed<'_>) -> bool {
        false
    }
}

/// A string that grows as it streams in; shared between snapshots (cloning is a reference
/// count). Derefs to `str`, serializes as a JSON string.
///
/// ```
/// let s = llm_extract::stream::PartialString::from("Par");
/// assert_eq!(&*s, "Par");
/// assert_eq!(serde_json::to_string(&s).unwrap(), "\"Par\"");
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PartialString(Arc<String>);

impl PartialString {
    /// The text so far.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    fn push_str(&mut self, s: &str) {
        Arc::make_mut(&mut self.0).push_str(s);
    }
}

impl From<&str> for PartialString {
    fn from(s: &str) -> PartialString {
        PartialString(Arc::new(s.to_string()))
    }
}

impl From<String> for PartialString {
    fn from(s: String) -> PartialString {
        PartialString(Arc::new(s))
    }
}

impl Deref for PartialString {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for PartialString {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for PartialString {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Debug for PartialString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for PartialString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

impl Serialize for PartialString {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self)
    }
}

impl PartialValue for PartialString {
    fn apply(
        slot: &mut Option<Self>,
        at: &[Step<'_>],
        event: &Event<'_>,
        feed: &mut Feed<'_>,
    ) -> bool {
        if !at.is_empty() {
            return false;
        }
        match event {
            Event::Grow(more) => match slot {
                Some(s) => {
                    s.push_str(more);
                    !more.is_empty()
                }
                None => {
                    *slot = Some(PartialString::from(*more));
                    true
                }
            },
            // A string was grown already; a number or bool where a string belongs is
            // shown once complete, as `String` would read it.
            Event::Value(_) if slot.is_none() && !event.is_null() => {
                match feed.read::<String>(event) {
                    Some(s) => {
                        *slot = Some(PartialString::from(s));
                        true
                    }
                    None => false,
                }
            }
            _ => false,
        }
    }
}

/// A list that grows item by item; shared between snapshots. Only its last item may still be
/// incomplete. Derefs to a slice, serializes as a JSON array.
///
/// ```
/// use llm_extract::{stream::PartialList, Stream};
/// let mut stream = Stream::<Vec<u32>>::new();
/// stream.push("[1, 2, 3");
/// let list: PartialList<u32> = stream.snapshot();
/// assert_eq!(&*list, &[1, 2]); // `3` may still be `30`
/// ```
#[derive(Clone)]
pub struct PartialList<T> {
    items: Arc<Vec<T>>,
    /// The source index of the last item (an item that shows nothing yet is not in `items`),
    /// or `None` when one value was read as a one-item list.
    last: Option<usize>,
    single: bool,
}

impl<T> Default for PartialList<T> {
    fn default() -> Self {
        PartialList {
            items: Arc::new(Vec::new()),
            last: None,
            single: false,
        }
    }
}

impl<T> PartialList<T> {
    /// The items so far.
    pub fn items(&self) -> &[T] {
        &self.items
    }
}

impl<T> Deref for PartialList<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items
    }
}

impl<T: PartialEq> PartialEq for PartialList<T> {
    fn eq(&self, other: &Self) -> bool {
        self.items == other.items
    }
}

impl<T: fmt::Debug> fmt::Debug for PartialList<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.items.iter()).finish()
    }
}

impl<T: Serialize> Serialize for PartialList<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.items.len()))?;
        for item in self.items.iter() {
            seq.serialize_element(item)?;
        }
        seq.end()
    }
}

impl<T: Clone> PartialList<T> {
    /// Applies `f` to the slot of the last item, or of a new one, keeping it only when it
    /// shows something.
    fn with_item(&mut self, new: bool, f: impl FnOnce(&mut Option<T>) -> bool) -> bool {
        let items = Arc::make_mut(&mut self.items);
        let mut slot = if new { None } else { items.pop() };
        let changed = f(&mut slot);
        if let Some(item) = slot {
            items.push(item);
        }
        changed
    }
}

impl<T: PartialValue> PartialValue for PartialList<T> {
    fn apply(
        slot: &mut Option<Self>,
        at: &[Step<'_>],
        event: &Event<'_>,
        feed: &mut Feed<'_>,
    ) -> bool {
        let created = slot.is_none();
        let list = slot.get_or_insert_with(PartialList::default);
        let changed = match at.split_first() {
            None if matches!(event, Event::Open(Container::Array)) && !list.single => {
                return created;
            }
            Some((Step::Index(i), rest)) if !list.single => {
                let i = *i;
                let new = match list.last {
                    Some(last) if last == i && !list.items.is_empty() => false,
                    Some(last) if last > i => return created,
                    _ => true,
                };
                let changed = list.with_item(new, |item| T::apply(item, rest, event, feed));
                if new && changed {
                    list.last = Some(i);
                }
                changed
            }
            // One value where a list belongs (an object, a string, a number) is read as a
            // list of that one value, as `Vec`'s `Extract` does.
            _ if list.single || (created && !matches!(event, Event::Close)) => {
                let new = !list.single || list.items.is_empty();
                list.single = true;
                list.with_item(new, |item| T::apply(item, at, event, feed))
            }
            _ => false,
        };
        if created && !changed {
            *slot = None;
            return false;
        }
        changed || created
    }
}

/// A map that grows entry by entry, in the order written; shared between snapshots.
/// Serializes as a JSON object.
#[derive(Clone)]
pub struct PartialMap<V> {
    entries: Arc<Vec<(String, V)>>,
}

impl<V> Default for PartialMap<V> {
    fn default() -> Self {
        PartialMap {
            entries: Arc::new(Vec::new()),
        }
    }
}

impl<V> PartialMap<V> {
    /// The entries so far, in the order written.
    pub fn entries(&self) -> &[(String, V)] {
        &self.entries
    }

    /// The value under `key` (the last one written, if the key repeats).
    pub fn get(&self, key: &str) -> Option<&V> {
        self.entries.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// How many entries there are so far.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none yet.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl<V: PartialEq> PartialEq for PartialMap<V> {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl<V: fmt::Debug> fmt::Debug for PartialMap<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

impl<V: Serialize> Serialize for PartialMap<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (k, v) in self.entries.iter() {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<V: PartialValue> PartialValue for PartialMap<V> {
    fn apply(
        slot: &mut Option<Self>,
        at: &[Step<'_>],
        event: &Event<'_>,
        feed: &mut Feed<'_>,
    ) -> bool {
        match at.split_first() {
            None => match event {
                Event::Open(Container::Object) if slot.is_none() => {
                    *slot = Some(PartialMap::default());
                    true
                }
                _ => false,
            },
            Some((Step::Key(key), rest)) => {
                let map = slot.get_or_insert_with(PartialMap::default);
                let entries = Arc::make_mut(&mut map.entries);
                let same = entries.last().is_some_and(|(k, _)| k == key);
                let mut value = if same {
                    entries.pop().map(|(_, v)| v)
                } else {
                    None
                };
                let changed = V::apply(&mut value, rest, event, feed);
                if let Some(v) = value {
                    entries.push((key.to_string(), v));
                }
                changed
            }
            Some((Step::Index(_), _)) => false,
        }
    }
}

/// A value of a type that shows only once complete (numbers, bools, enum values: an
/// unfinished `12` never shows as `1`).
fn complete<T: Extract>(
    slot: &mut Option<T>,
    at: &[Step<'_>],
    event: &Event<'_>,
    feed: &mut Feed<'_>,
) -> bool {
    // A null in an optional field shows as absent; the final value says the rest.
    if !at.is_empty() || !event.completes() || event.is_null() {
        return false;
    }
    match feed.read::<T>(event) {
        Some(value) => {
            *slot = Some(value);
            true
        }
        None => false,
    }
}

macro_rules! complete_partial {
    ($($t:ty),*) => {$(
        impl PartialValue for $t {
            fn apply(slot: &mut Option<Self>, at: &[Step<'_>], event: &Event<'_>, feed: &mut Feed<'_>) -> bool {
                complete(slot, at, event, feed)
            }
        }
    )*};
}

complete_partial!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64, bool, char
);

/// The partial of a `serde_json::Value`: a JSON tree whose strings, arrays and objects grow
/// in place (shared between snapshots), and whose numbers, bools and nulls appear once
/// complete. Serializes as the JSON it holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum PartialJson {
    /// `null`, or nothing yet.
    #[default]
    Null,
    /// A complete bool.
    Bool(bool),
    /// A complete number.
    Number(serde_json::Number),
    /// A string so far.
    String(PartialString),
    /// An array so far.
    Array(PartialList<PartialJson>),
    /// An object so far.
    Object(PartialMap<PartialJson>),
}

impl Serialize for PartialJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            PartialJson::Null => serializer.serialize_unit(),
            PartialJson::Bool(b) => serializer.serialize_bool(*b),
            PartialJson::Number(n) => n.serialize(serializer),
            PartialJson::String(s) => s.serialize(serializer),
            PartialJson::Array(a) => a.serialize(serializer),
            PartialJson::Object(o) => o.serialize(serializer),
        }
    }
}

impl PartialJson {
    /// The JSON so far as a `serde_json::Value` (a copy).
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

impl PartialValue for PartialJson {
    fn apply(
        slot: &mut Option<Self>,
        at: &[Step<'_>],
        event: &Event<'_>,
        feed: &mut Feed<'_>,
    ) -> bool {
        match (at.is_empty(), &mut *slot, event) {
            (true, None, Event::Open(Container::Object)) => {
                *slot = Some(PartialJson::Object(PartialMap::default()));
                true
            }
            (true, None, Event::Open(Container::Array)) => {
                *slot = Some(PartialJson::Array(PartialList::default()));
                true
            }
            (true, None | Some(PartialJson::String(_)), Event::Grow(_)) => {
                let mut s = match slot.take() {
                    Some(PartialJson::String(s)) => Some(s),
                    _ => None,
                };
                let changed = PartialString::apply(&mut s, at, event, feed);
                *slot = s.map(PartialJson::String);
                changed
            }
            (true, None, Event::Value(_)) => match feed.read::<serde_json::Value>(event) {
                Some(serde_json::Value::Bool(b)) => {
                    *slot = Some(PartialJson::Bool(b));
                    true
                }
                Some(serde_json::Value::Number(n)) => {
                    *slot = Some(PartialJson::Number(n));
                    true
                }
                Some(serde_json::Value::String(s)) => {
                    *slot = Some(PartialJson::String(s.into()));
                    true
                }
                Some(serde_json::Value::Null) => {
                    *slot = Some(PartialJson::Null);
                    true
                }
                _ => false,
            },
            (false, Some(PartialJson::Object(map)), _) => {
                let mut m = Some(std::mem::take(map));
                let changed = PartialMap::apply(&mut m, at, event, feed);
                *map = m.unwrap_or_default();
                changed
            }
            (false, Some(PartialJson::Array(list)), _) => {
                let mut l = Some(std::mem::take(list));
                let changed = PartialList::apply(&mut l, at, event, feed);
                *list = l.unwrap_or_default();
                changed
            }
            _ => false,
        }
    }
}
