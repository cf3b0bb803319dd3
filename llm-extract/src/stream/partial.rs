//! The partial values a stream shows: the trait every partial implements, the shared growing
//! parts (strings, lists, maps) and the partials of the crate's own types.
//!
//! A snapshot clones the partial. Its growing parts (a string's text, a list's items, a map's
//! entries) are versions of one append-only buffer (`shared.rs`), so a clone costs the number
//! of fields of the type, not the size of the data, and the stream appends in place whether or
//! not the caller still holds older snapshots (each keeps what it showed).

use super::shared::{make_mut, Shared, SharedStr, SmallStr, Text};
use super::{Container, Event, Feed, Step};
use crate::coerce::{Extract, MapKey};
use crate::node::NodeKind;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use std::fmt;
use std::marker::PhantomData;
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
    fn apply(
        slot: &mut Option<Self>,
        at: &[Step<'_>],
        event: &Event<'_>,
        feed: &mut Feed<'_>,
    ) -> bool;

    /// [`PartialValue::apply`] to a value already shown, in place. The default moves it
    /// through an `Option`; the derive's twins and the crate's growing parts take the event
    /// where they are (a list's last item is not moved on every event).
    fn apply_in(this: &mut Self, at: &[Step<'_>], event: &Event<'_>, feed: &mut Feed<'_>) -> bool {
        let mut slot = Some(std::mem::take(this));
        let changed = Self::apply(&mut slot, at, event, feed);
        if let Some(value) = slot {
            *this = value;
        }
        changed
    }

    /// Salvage's last resort ([`extract_partial`](crate::extract_partial)): fills what is
    /// still missing from members found by key anywhere in the text
    /// ([`Feed::find_member`], [`Feed::recover`]); returns the paths recovered. The derive
    /// implements it for structs; the default recovers nothing.
    fn salvage(slot: &mut Option<Self>, feed: &mut Feed<'_>) -> Vec<crate::Path> {
        let _ = (slot, feed);
        Vec::new()
    }

    /// The string `this` is, if a `Grow` event at it only appends to that string: then more
    /// text of it may be appended there directly, without the walk down from the root (the
    /// derive's twins ask for their members, through [`Feed::trail_leaf`]).
    /// [`PartialString`] and a string [`PartialJson`] say yes; a type whose `apply` does more
    /// with a growing string keeps the default, `None`.
    #[doc(hidden)]
    fn grow_leaf(this: &mut Self) -> Option<&mut PartialString> {
        let _ = this;
        None
    }

    /// The text so far of a string still arriving that more text may still make a
    /// placeholder (`N`, `not a`, a blank: see [`is_placeholder`](crate::coerce::is_placeholder)): an `Option`
    /// holding it shows no value until the string tells (`Nora`) or completes. Only a partial
    /// that starts a string from a `Grow` event with this text says so. The default: `None`.
    #[doc(hidden)]
    fn placeholder_so_far(this: &Self) -> Option<&str> {
        let _ = this;
        None
    }

    /// Whether this partial shows the value while the reply streams. [`NoPartial`] shows
    /// nothing until `finish`, so a struct's field of it is never called complete before then
    /// ([`FieldState::Complete`](crate::stream::FieldState::Complete) promises the value
    /// `finish` gives). The default: `true`.
    #[doc(hidden)]
    const SHOWS: bool = true;

    /// Whether this is a list that read one value written on its own as its one item (`{..}`
    /// where a list belongs). Values written one after another with commas between them
    /// (`{..}, {..}`, records whose `[` went missing) are then the items of one list for
    /// `finish`, and a stream showing this one does not show the next in its place. The
    /// default: `false`.
    #[doc(hidden)]
    fn one_as_list(this: &Self) -> bool {
        let _ = this;
        false
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
    const SHOWS: bool = false;

    fn apply(_: &mut Option<Self>, _: &[Step<'_>], _: &Event<'_>, feed: &mut Feed<'_>) -> bool {
        // The value is not built while streaming: `finish` reads it.
        feed.lenient();
        false
    }
}

/// The partial of `Box<T>`, `Rc<T>` and `Arc<T>`: `T`'s, boxed so that a recursive type's
/// partial twin has a size.
impl<P: PartialValue> PartialValue for Box<P> {
    const SHOWS: bool = P::SHOWS;

    fn one_as_list(this: &Self) -> bool {
        P::one_as_list(this)
    }

    fn apply(
        slot: &mut Option<Self>,
        at: &[Step<'_>],
        event: &Event<'_>,
        feed: &mut Feed<'_>,
    ) -> bool {
        if let Some(b) = slot {
            return P::apply_in(b, at, event, feed);
        }
        let mut inner = None;
        let changed = P::apply(&mut inner, at, event, feed);
        *slot = inner.map(Box::new);
        changed
    }

    fn apply_in(this: &mut Self, at: &[Step<'_>], event: &Event<'_>, feed: &mut Feed<'_>) -> bool {
        P::apply_in(this, at, event, feed)
    }

    fn grow_leaf(this: &mut Self) -> Option<&mut PartialString> {
        P::grow_leaf(this)
    }

    fn placeholder_so_far(this: &Self) -> Option<&str> {
        P::placeholder_so_far(this)
    }

    fn salvage(slot: &mut Option<Self>, feed: &mut Feed<'_>) -> Vec<crate::Path> {
        let mut inner = slot.take().map(|b| *b);
        let found = P::salvage(&mut inner, feed);
        *slot = inner.map(Box::new);
        found
    }
}

/// The partial of an `Option<T>` where it is an item of a list or a value of a map: `T`'s
/// partial, or no value once that is known (`null`, or a placeholder such as `N/A`, which the
/// `Option` reads as `None`; while a string may still become one, no value yet), so items
/// keep their places. Derefs to that `Option`; serializes
/// as the partial or `null`. (A derived twin's `Option<T>` field shows `T`'s partial in the
/// field's own `Option`.)
///
/// ```
/// use llm_extract::{Extract, Stream};
///
/// #[derive(Extract, Debug)]
/// struct Scores { points: Vec<Option<u32>> }
///
/// let mut stream = Stream::<Scores>::new();
/// stream.push(r#"{"points": [null, 7, "#);
/// let seen = stream.snapshot();
/// let points: Vec<Option<u32>> = seen.points.unwrap().iter().map(|p| **p).collect();
/// assert_eq!(points, [None, Some(7)]);
/// ```
#[derive(Clone, Default)]
pub struct PartialOption<P> {
    shown: Option<P>,
    held: Held,
}

impl<P: PartialEq> PartialEq for PartialOption<P> {
    fn eq(&self, other: &Self) -> bool {
        self.shown == other.shown
    }
}

impl<P> PartialOption<P> {
    /// Whether it holds back a string that may still become a placeholder.
    pub(crate) fn held_back(&self) -> bool {
        self.held.0.is_some()
    }
}

impl<P> Deref for PartialOption<P> {
    type Target = Option<P>;
    fn deref(&self) -> &Option<P> {
        &self.shown
    }
}

impl<P: fmt::Debug> fmt::Debug for PartialOption<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.shown.fmt(f)
    }
}

impl<P: Serialize> Serialize for PartialOption<P> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.shown.serialize(serializer)
    }
}

/// The text of a string still arriving that an `Option` holds back, and which of its owner's
/// `Option`s it belongs to (see [`apply_option`]).
#[doc(hidden)]
#[derive(Clone, Debug, Default)]
pub struct Held(Option<(usize, Box<str>)>);

/// [`PartialValue::apply`] (as `apply` does it) to the value of an `Option`: a derived twin's
/// `Option` field (`index` tells it from the twin's other fields, which share `held`) or a
/// [`PartialOption`]. The `Option` reads a placeholder (`N/A`, `none`, a blank) as `None`, so
/// what it shows follows `finish`:
/// - a string still arriving that more text may make a placeholder (`N`, `Not a`) is held
///   back in `held` (the `Option` shows no value) until its text tells (`Nora`) or it
///   completes;
/// - a complete placeholder is `None`.
///
/// Whether what the `Option` shows changed.
#[doc(hidden)]
pub fn apply_option<P: PartialValue>(
    slot: &mut Option<P>,
    held: &mut Held,
    index: usize,
    at: &[Step<'_>],
    event: &Event<'_>,
    feed: &mut Feed<'_>,
    apply: impl FnOnce(&mut Option<P>, &[Step<'_>], &Event<'_>, &mut Feed<'_>) -> bool,
) -> bool {
    if at.is_empty() && event.is_null() {
        // `null` is `None` whatever `T` is, strict or not: `Option`'s read never hands it to
        // `T` (a list of `Option`s would read it as one `null` item).
        if held.0.as_ref().is_some_and(|(i, _)| *i == index) {
            held.0 = None;
        }
        return slot.take().is_some();
    }
    if feed.strict() {
        // A strict `Option` keeps a placeholder's text.
        return apply(slot, at, event, feed);
    }
    let shown = slot.is_some();
    if held.0.as_ref().is_some_and(|(i, _)| *i == index) {
        // The event goes on from the string so far.
        if let Some((_, text)) = held.0.take() {
            *slot = None;
            P::apply(slot, &[], &Event::Grow(&text), feed);
        }
    }
    let text = match event {
        Event::Value(node) if at.is_empty() => node.as_str(),
        _ => None,
    };
    let changed = match text {
        // A placeholder is `None` whatever `T` is (`N/A` for an enum with an `other` variant,
        // a number, a bool), as `Option`'s read has it: `T` does not read it, so it reports
        // nothing either.
        Some(text) if !text.is_empty() && crate::coerce::is_placeholder(text) => {
            feed.lenient();
            *slot = None;
            false
        }
        // `""` is `Some` where `T` takes it as written (a string), else `None`; tried
        // without its issues, as the read tries and rolls back.
        Some("") => {
            feed.lenient();
            feed.quietly(|feed| apply(slot, at, event, feed));
            if slot.as_mut().is_some_and(|p| P::grow_leaf(p).is_none()) {
                *slot = None;
            }
            slot.is_some()
        }
        _ => apply(slot, at, event, feed),
    };
    if let Some(text) = slot.as_ref().and_then(P::placeholder_so_far) {
        held.0 = Some((index, text.into()));
        *slot = None;
        // The walk may have recorded the string as the one growing (`stream/hot.rs`): it is
        // not in the value now.
        feed.trail_lose();
        return shown;
    }
    if slot.is_none() && at.is_empty() && event.completes() {
        // A complete value `T` shows nothing of (not `null`): the final value says what it is.
        feed.lenient();
    }
    changed || shown != slot.is_some()
}

/// Whether `event` completes a string that an `Option` reads as no value when its `T` does
/// not take it: a placeholder, `""` included.
fn placeholder_string(event: &Event<'_>) -> bool {
    matches!(event, Event::Value(node) if node.as_str().is_some_and(crate::coerce::is_placeholder))
}

impl<P: PartialValue> PartialValue for PartialOption<P> {
    const SHOWS: bool = P::SHOWS;

    fn one_as_list(this: &Self) -> bool {
        this.shown.as_ref().is_some_and(P::one_as_list)
    }

    fn apply(
        slot: &mut Option<Self>,
        at: &[Step<'_>],
        event: &Event<'_>,
        feed: &mut Feed<'_>,
    ) -> bool {
        if let Some(this) = slot {
            return Self::apply_in(this, at, event, feed);
        }
        if at.is_empty() && event.is_null() {
            *slot = Some(PartialOption::default());
            return true;
        }
        let mut this = PartialOption::default();
        let changed = apply_option(
            &mut this.shown,
            &mut this.held,
            0,
            at,
            event,
            feed,
            P::apply,
        );
        if this.shown.is_some() || this.held.0.is_some() {
            *slot = Some(this);
            return true;
        }
        if at.is_empty() && !feed.strict() && placeholder_string(event) {
            // `"N/A"` (or `""`) where `T` takes no string: the `Option` reads no value.
            feed.lenient();
            *slot = Some(PartialOption::default());
            return true;
        }
        changed
    }

    /// A string held back because it may become a placeholder is one (a list holding only
    /// it, inside another `Option`, is held back by that `Option` too).
    fn placeholder_so_far(this: &Self) -> Option<&str> {
        match (&this.shown, &this.held.0) {
            (None, Some((_, text))) => Some(text),
            _ => None,
        }
    }

    fn apply_in(this: &mut Self, at: &[Step<'_>], event: &Event<'_>, feed: &mut Feed<'_>) -> bool {
        if this.shown.is_none() && this.held.0.is_none() {
            return false;
        }
        apply_option(
            &mut this.shown,
            &mut this.held,
            0,
            at,
            event,
            feed,
            |slot, at, event, feed| match slot {
                Some(inner) => P::apply_in(inner, at, event, feed),
                None => P::apply(slot, at, event, feed),
            },
        )
    }

    fn salvage(slot: &mut Option<Self>, feed: &mut Feed<'_>) -> Vec<crate::Path> {
        let mut inner = slot.take().and_then(|o| o.shown);
        let found = P::salvage(&mut inner, feed);
        *slot = inner.map(|p| PartialOption {
            shown: Some(p),
            held: Held::default(),
        });
        found
    }

    fn grow_leaf(this: &mut Self) -> Option<&mut PartialString> {
        this.shown.as_mut().and_then(P::grow_leaf)
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
#[derive(Clone, Default)]
pub struct PartialString(Text);

impl PartialEq for PartialString {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for PartialString {}

impl std::hash::Hash for PartialString {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialOrd for PartialString {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for PartialString {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialString {
    /// The text so far.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Text::Small(s) => s.as_str(),
            Text::Whole(s) => s,
            Text::Growing(s) => s.as_str(),
        }
    }

    /// Appends `more`, to a complete string too (it grows again).
    fn push_str(&mut self, more: &str) {
        if let Text::Small(s) = &mut self.0 {
            if s.push(more) {
                return;
            }
        }
        match &mut self.0 {
            Text::Growing(s) => s.push_str(more),
            Text::Small(_) | Text::Whole(_) => {
                let mut grown = SharedStr::default();
                grown.push_str(self.as_str());
                grown.push_str(more);
                self.0 = Text::Growing(grown);
            }
        }
    }

    /// Appends `more` to a string still growing, as a `Grow` event does; `false` (and
    /// nothing appended) if it is complete.
    #[inline]
    pub(crate) fn grow(&mut self, more: &str) -> bool {
        match &mut self.0 {
            Text::Growing(s) => {
                s.push_str(more);
                true
            }
            _ => self.grow_short(more),
        }
    }

    /// [`PartialString::grow`] of a string not in a shared buffer: kept inline while it
    /// fits, else moved into one (`push_str`). Out of line: a long string takes the first
    /// arm above.
    fn grow_short(&mut self, more: &str) -> bool {
        let growing = matches!(&self.0, Text::Small(s) if s.is_growing());
        if growing {
            self.push_str(more);
        }
        growing
    }

    /// The text, if the string is complete.
    pub(crate) fn complete_str(&self) -> Option<&str> {
        self.is_complete().then(|| self.as_str())
    }

    /// Whether the string is complete (its closing quote was read).
    fn is_complete(&self) -> bool {
        match &self.0 {
            Text::Small(s) => !s.is_growing(),
            Text::Whole(_) => true,
            Text::Growing(_) => false,
        }
    }

    /// A string that begins, to grow.
    fn growing(s: &str) -> PartialString {
        if let Some(short) = SmallStr::new(s, true) {
            return PartialString(Text::Small(short));
        }
        let mut text = SharedStr::default();
        text.push_str(s);
        PartialString(Text::Growing(text))
    }
}

impl From<&str> for PartialString {
    fn from(s: &str) -> PartialString {
        PartialString(match SmallStr::new(s, false) {
            Some(small) => Text::Small(small),
            None => Text::Whole(Arc::from(s)),
        })
    }
}

impl From<String> for PartialString {
    fn from(s: String) -> PartialString {
        PartialString(match SmallStr::new(&s, false) {
            Some(small) => Text::Small(small),
            None => Text::Whole(Arc::from(s)),
        })
    }
}

impl Deref for PartialString {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
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
    fn placeholder_so_far(this: &Self) -> Option<&str> {
        (!this.is_complete() && crate::coerce::may_become_placeholder(this)).then(|| this.as_str())
    }

    fn apply(
        slot: &mut Option<Self>,
        at: &[Step<'_>],
        event: &Event<'_>,
        feed: &mut Feed<'_>,
    ) -> bool {
        if !at.is_empty() {
            feed.lenient();
            return false;
        }
        match event {
            Event::Grow(more) => match slot {
                Some(s) if !s.is_complete() => {
                    s.push_str(more);
                    !more.is_empty()
                }
                // A string after a complete one at the same place (a repeated key): the later
                // one replaces it, as it does when it arrives whole.
                Some(_) => {
                    feed.lenient();
                    *slot = Some(PartialString::growing(more));
                    true
                }
                None => {
                    *slot = Some(PartialString::growing(more));
                    true
                }
            },
            Event::Value(node) => {
                if slot.as_ref().is_some_and(PartialString::is_complete) {
                    feed.lenient();
                }
                let read;
                let text = match node.as_str() {
                    Some(text) => text,
                    // A number or bool where a string belongs is shown as `String` reads it.
                    None if !event.is_null() => match feed.read::<String>(event) {
                        Some(text) => {
                            read = text;
                            &read
                        }
                        None => return false,
                    },
                    None => {
                        feed.lenient();
                        return false;
                    }
                };
                // Compared before the new string is made, which then goes straight to the
                // slot: made first, it was stored in words and copied back in wider loads
                // (a store-forwarding stall on every string of dense records).
                let changed = slot.as_ref().is_none_or(|s| s.as_str() != text);
                *slot = Some(PartialString::from(text));
                changed
            }
            _ => {
                feed.lenient();
                false
            }
        }
    }

    fn grow_leaf(this: &mut Self) -> Option<&mut PartialString> {
        Some(this)
    }
}

/// A list that grows item by item; shared between snapshots (a clone is a reference count,
/// and the stream's later pushes never copy the items an older snapshot holds). Only its last
/// item may still be incomplete. Serializes as a JSON array.
///
/// ```
/// use llm_extract::{stream::PartialList, Stream};
/// let mut stream = Stream::<Vec<u32>>::new();
/// stream.push("[1, 2, 3");
/// let list: PartialList<u32> = stream.snapshot();
/// assert_eq!(list.to_vec(), [1, 2]); // `3` may still be `30`
/// assert_eq!((list.len(), list[1], list.last()), (2, 2, Some(&2)));
/// ```
pub struct PartialList<T> {
    /// The items, shared with snapshots and grown in place with `shared::make_mut` (which
    /// copies only the last item and a handle on the others while a snapshot holds them).
    inner: Arc<Items<T>>,
}

/// The items of a list or the entries of a map: those before the last, which no longer
/// change (an append-only buffer shared with older versions), and the last, which may still
/// grow.
struct Items<T> {
    done: Shared<T>,
    open: Option<T>,
    /// Lists only: the source index of the last item (an item that shows nothing yet is not
    /// in the list), or `None` when one value was read as a one-item list. Kept here rather
    /// than beside the `Arc` so that a list is one pointer: a snapshot copies it in one move.
    last: Option<usize>,
    /// Lists only: one value was read as a one-item list.
    single: bool,
}

impl<T> Default for Items<T> {
    fn default() -> Self {
        Items {
            done: Shared::default(),
            open: None,
            last: None,
            single: false,
        }
    }
}

impl<T: Clone> Clone for Items<T> {
    fn clone(&self) -> Self {
        Items {
            done: self.done.clone(),
            open: self.open.clone(),
            last: self.last,
            single: self.single,
        }
    }
}

impl<T: Clone> Items<T> {
    /// Applies `f` to the slot of a new last item, keeping it only when it shows something
    /// (then the last one settles).
    ///
    /// The new item is made where it stays, in `open`, not in a local slot moved there
    /// after: `f` writes it in words, and the move read it back in wider loads that waited
    /// on those stores (a store-forwarding stall on every new item).
    fn push_with(this: &mut Arc<Self>, f: impl FnOnce(&mut Option<T>) -> bool) -> bool {
        let items = make_mut(this);
        let last = items.open.take();
        let changed = f(&mut items.open);
        match last {
            Some(settled) if items.open.is_some() => items.done.push(settled),
            // The new item shows nothing: the last one stays last.
            Some(last) => items.open = Some(last),
            None => {}
        }
        changed
    }
}

impl<T> Items<T> {
    fn len(&self) -> usize {
        self.done.as_slice().len() + usize::from(self.open.is_some())
    }
}

impl<T> Default for PartialList<T> {
    fn default() -> Self {
        PartialList {
            inner: Arc::default(),
        }
    }
}

impl<T> Clone for PartialList<T> {
    fn clone(&self) -> Self {
        PartialList {
            inner: Arc::clone(&self.inner),
        }
    }
}

impl<T> PartialList<T> {
    /// The items, unless one value was read as a one-item list (which `Vec`'s read records
    /// as a coercion).
    pub(crate) fn items_as_read(&self) -> Option<impl Iterator<Item = &T>> {
        (!self.inner.single).then(|| self.iter())
    }

    /// How many items there are so far.
    pub fn len(&self) -> usize {
        self.inner.len()
    }

    /// Whether there are none yet.
    pub fn is_empty(&self) -> bool {
        self.inner.len() == 0
    }

    /// The item at `index`, if there is one yet.
    pub fn get(&self, index: usize) -> Option<&T> {
        let done = self.inner.done.as_slice();
        match index.checked_sub(done.len()) {
            None => done.get(index),
            Some(0) => self.inner.open.as_ref(),
            Some(_) => None,
        }
    }

    /// The first item.
    pub fn first(&self) -> Option<&T> {
        self.get(0)
    }

    /// The last item (the one that may still be growing).
    pub fn last(&self) -> Option<&T> {
        (self.inner.open.as_ref()).or(self.inner.done.as_slice().last())
    }

    /// The items so far, in order.
    pub fn iter(&self) -> PartialListIter<'_, T> {
        PartialListIter {
            done: self.inner.done.as_slice().iter(),
            open: self.inner.open.as_ref(),
        }
    }

    /// The items so far, copied into a `Vec`.
    pub fn to_vec(&self) -> Vec<T>
    where
        T: Clone,
    {
        self.iter().cloned().collect()
    }
}

/// The items of a [`PartialList`], in order: [`PartialList::iter`].
pub struct PartialListIter<'a, T> {
    done: std::slice::Iter<'a, T>,
    open: Option<&'a T>,
}

impl<'a, T> Iterator for PartialListIter<'a, T> {
    type Item = &'a T;
    fn next(&mut self) -> Option<&'a T> {
        self.done.next().or_else(|| self.open.take())
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.done.len() + usize::from(self.open.is_some());
        (n, Some(n))
    }
}

impl<T> DoubleEndedIterator for PartialListIter<'_, T> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.open.take().or_else(|| self.done.next_back())
    }
}

impl<T> ExactSizeIterator for PartialListIter<'_, T> {}

impl<'a, T> IntoIterator for &'a PartialList<T> {
    type Item = &'a T;
    type IntoIter = PartialListIter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T> std::ops::Index<usize> for PartialList<T> {
    type Output = T;
    fn index(&self, index: usize) -> &T {
        match self.get(index) {
            Some(item) => item,
            None => panic!(
                "index {index} out of range for a list of {} items",
                self.len()
            ),
        }
    }
}

impl<T: PartialEq> PartialEq for PartialList<T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<T: PartialEq> PartialEq<[T]> for PartialList<T> {
    fn eq(&self, other: &[T]) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<T: PartialEq, const N: usize> PartialEq<[T; N]> for PartialList<T> {
    fn eq(&self, other: &[T; N]) -> bool {
        *self == other[..]
    }
}

impl<T: PartialEq> PartialEq<Vec<T>> for PartialList<T> {
    fn eq(&self, other: &Vec<T>) -> bool {
        *self == other[..]
    }
}

impl<T: fmt::Debug> fmt::Debug for PartialList<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Serialize> Serialize for PartialList<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for item in self.iter() {
            seq.serialize_element(item)?;
        }
        seq.end()
    }
}

impl<T: PartialValue> PartialList<T> {
    /// An event at `rest` below the last item, during a walk that records where a growing
    /// string is (`stream/hot.rs`): the items become the stream's alone and the walk goes
    /// on into the last one, or records it if it is the string. Out of line, so that the
    /// usual events' path stays as short as it was.
    #[inline(never)]
    fn trail_last(&mut self, rest: &[Step<'_>], event: &Event<'_>, feed: &mut Feed<'_>) -> bool {
        make_mut(&mut self.inner);
        feed.trail_guard(&self.inner);
        let items = make_mut(&mut self.inner);
        feed.trail_expect(items.open.as_ref());
        let changed =
            (items.open.as_mut()).is_some_and(|item| T::apply_in(item, rest, event, feed));
        feed.trail_leaf(rest, items.open.as_mut());
        changed
    }

    /// An event at `at` below (or at) this list.
    fn apply_in(
        &mut self,
        created: bool,
        at: &[Step<'_>],
        event: &Event<'_>,
        feed: &mut Feed<'_>,
    ) -> bool {
        feed.trail_enter(self);
        match at.split_first() {
            None if matches!(event, Event::Open(Container::Array)) && !self.inner.single => false,
            // `null` where a list belongs is the empty list (as `Vec`'s read has it; a strict
            // read refuses it), not a list of one `null` (a list of `Option`s keeps those).
            None if created && event.is_null() => {
                feed.lenient();
                !feed.strict()
            }
            Some((Step::Index(i), rest)) if !self.inner.single => {
                let i = *i;
                let new = match self.inner.last {
                    Some(last) if last == i && self.inner.open.is_some() => false,
                    Some(last) if last > i => {
                        feed.lenient();
                        return false;
                    }
                    _ => true,
                };
                if !new && self.inner.open.is_some() {
                    if feed.tracing() {
                        return self.trail_last(rest, event, feed);
                    }
                    if let Some(item) = make_mut(&mut self.inner).open.as_mut() {
                        return T::apply_in(item, rest, event, feed);
                    }
                }
                let changed =
                    Items::push_with(&mut self.inner, |item| T::apply(item, rest, event, feed));
                if !changed && new && rest.is_empty() && event.completes() {
                    // A complete item that shows nothing: the final value says how many
                    // items there are.
                    feed.lenient();
                }
                if changed {
                    make_mut(&mut self.inner).last = Some(i);
                    if feed.tracing() {
                        feed.trail_guard(&self.inner);
                        feed.trail_leaf(rest, make_mut(&mut self.inner).open.as_mut());
                    }
                }
                changed
            }
            // One value where a list belongs (an object, a string, a number) is read as a
            // list of that one value, as `Vec`'s `Extract` does; that value's own close, for
            // a list that showed nothing of it yet, is where an item held back until complete
            // (`stream = "done"`, an untagged enum) shows.
            _ if self.inner.single
                || (created && (at.is_empty() || !matches!(event, Event::Close))) =>
            {
                if !self.inner.single {
                    make_mut(&mut self.inner).single = true;
                }
                let inner = &mut self.inner;
                let read = feed.wrapping(at, |feed| {
                    if inner.open.is_some() {
                        let item = make_mut(inner).open.as_mut();
                        item.is_some_and(|item| T::apply_in(item, at, event, feed))
                    } else {
                        Items::push_with(inner, |item| T::apply(item, at, event, feed))
                    }
                });
                read.unwrap_or(false)
            }
            // The list's own close; anything else is not a list's.
            _ => {
                if !(at.is_empty() && matches!(event, Event::Close)) {
                    feed.lenient();
                }
                false
            }
        }
    }
}

impl<T: Clone + Serialize> PartialList<T> {
    /// Drops every item that serializes as an earlier one (a set's items, once complete).
    fn keep_first_of_each(&mut self) {
        let mut seen = std::collections::HashSet::new();
        let unique: Vec<T> = (self.iter())
            .filter(|item| seen.insert(serde_json::to_string(item).unwrap_or_default()))
            .cloned()
            .collect();
        if unique.len() == self.len() {
            return;
        }
        let items = make_mut(&mut self.inner);
        let mut rest = unique.into_iter();
        let mut done = Shared::default();
        let mut open = rest.next();
        for item in rest {
            if let Some(before) = open.replace(item) {
                done.push(before);
            }
        }
        items.done = done;
        items.open = open;
    }
}

impl<T: PartialValue> PartialValue for PartialList<T> {
    fn one_as_list(this: &Self) -> bool {
        this.inner.single
    }

    /// One string read as a list of it (`"N/A"` where an `Option<Vec<String>>` belongs): the
    /// list is that string, which the `Option` around it may read as `None`.
    fn placeholder_so_far(this: &Self) -> Option<&str> {
        if !this.inner.single || this.len() != 1 {
            return None;
        }
        this.last().and_then(T::placeholder_so_far)
    }

    fn apply(
        slot: &mut Option<Self>,
        at: &[Step<'_>],
        event: &Event<'_>,
        feed: &mut Feed<'_>,
    ) -> bool {
        let created = slot.is_none();
        let list = slot.get_or_insert_with(PartialList::default);
        let changed = list.apply_in(created, at, event, feed);
        if created && !changed && !matches!(event, Event::Open(Container::Array)) {
            *slot = None;
            return false;
        }
        changed || created
    }
}

/// The partial of a set (`HashSet`, `BTreeSet`): nothing until the set is complete, then its
/// items at once, each once, in the order written. A set drops an item written twice, which
/// a snapshot that showed it could not take back; the set `finish` returns may order them
/// differently (a `BTreeSet` is sorted). Derefs to the [`PartialList`] of the items.
///
/// ```
/// use llm_extract::Stream;
/// use std::collections::BTreeSet;
///
/// let mut stream = Stream::<BTreeSet<String>>::new();
/// stream.push(r#"["b", "a", "b""#);
/// assert!(stream.snapshot().is_empty());
/// stream.push("]");
/// assert_eq!(stream.snapshot().to_vec(), ["b", "a"]);
/// ```
#[derive(Clone, Default, PartialEq)]
pub struct PartialSet<T>(PartialList<T>);

impl<T> Deref for PartialSet<T> {
    type Target = PartialList<T>;
    fn deref(&self) -> &PartialList<T> {
        &self.0
    }
}

impl<T: fmt::Debug> fmt::Debug for PartialSet<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<T: Serialize> Serialize for PartialSet<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<T: PartialValue> PartialValue for PartialSet<T> {
    fn one_as_list(this: &Self) -> bool {
        PartialList::one_as_list(&this.0)
    }

    fn apply(
        slot: &mut Option<Self>,
        at: &[Step<'_>],
        event: &Event<'_>,
        feed: &mut Feed<'_>,
    ) -> bool {
        // Read again once complete (`stream = "done"`), then each item kept once: items
        // compared as they serialize, which for the item types a set takes (`Eq`, so no
        // floats) is as their values compare.
        super::twin::done(slot, at, event, feed, |slot, at, event, feed| {
            let mut list = slot.take().map(|set| set.0);
            let changed = PartialList::apply(&mut list, at, event, feed);
            if at.is_empty() && event.completes() {
                if let Some(list) = &mut list {
                    list.keep_first_of_each();
                }
            }
            *slot = list.map(PartialSet);
            changed
        })
    }
}

/// A map that grows entry by entry, in the order written; shared between snapshots like
/// [`PartialList`]. Serializes as a JSON object. `K` is the map's key type: each key shows
/// as the map `finish` returns writes it (a number's digits, an enum's variant name), and a
/// key that type does not read is not shown.
pub struct PartialMap<V, K = String> {
    /// The entries, kept as a list's items are.
    inner: Arc<Items<(EntryKey, V)>>,
    key: PhantomData<fn() -> K>,
}

/// A map entry's key as the reply wrote it: inline when short, as most keys are (no allocation
/// per member), else on the heap.
#[derive(Clone)]
enum EntryKey {
    Short(SmallStr),
    Long(Box<str>),
}

impl EntryKey {
    fn new(key: std::borrow::Cow<'_, str>) -> EntryKey {
        match SmallStr::new(&key, false) {
            Some(short) => EntryKey::Short(short),
            None => EntryKey::Long(key.into_owned().into_boxed_str()),
        }
    }

    fn as_str(&self) -> &str {
        match self {
            EntryKey::Short(short) => short.as_str(),
            EntryKey::Long(long) => long,
        }
    }
}

impl<V, K> Default for PartialMap<V, K> {
    fn default() -> Self {
        PartialMap {
            inner: Arc::default(),
            key: PhantomData,
        }
    }
}

impl<V, K> Clone for PartialMap<V, K> {
    fn clone(&self) -> Self {
        PartialMap {
            inner: Arc::clone(&self.inner),
            key: PhantomData,
        }
    }
}

impl<V, K> PartialMap<V, K> {
    /// The entries so far, in the order written.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &V)> + '_ {
        (self.inner.done.as_slice().iter())
            .chain(self.inner.open.as_ref())
            .map(|(k, v)| (k.as_str(), v))
    }

    /// The value under `key` (the last one written, if the key repeats).
    pub fn get(&self, key: &str) -> Option<&V> {
        (self.inner.open.iter())
            .chain(self.inner.done.as_slice().iter().rev())
            .find(|(k, _)| k.as_str() == key)
            .map(|(_, v)| v)
    }

    /// How many entries there are so far.
    pub fn len(&self) -> usize {
        self.inner.len()
    }

    /// Whether there are none yet.
    pub fn is_empty(&self) -> bool {
        self.inner.len() == 0
    }
}

impl<V: PartialEq, K> PartialEq for PartialMap<V, K> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<V: fmt::Debug, K> fmt::Debug for PartialMap<V, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<V: Serialize, K> Serialize for PartialMap<V, K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<V: PartialValue, K: MapKey> PartialMap<V, K> {
    /// An event at `rest` below the last entry, during a walk that records where a growing
    /// string is (`stream/hot.rs`), as [`PartialList`]'s `trail_last` does.
    #[inline(never)]
    fn trail_last(&mut self, rest: &[Step<'_>], event: &Event<'_>, feed: &mut Feed<'_>) -> bool {
        make_mut(&mut self.inner);
        feed.trail_guard(&self.inner);
        let open = make_mut(&mut self.inner).open.as_mut().map(|(_, v)| v);
        let Some(last) = open else {
            return false;
        };
        feed.trail_expect(Some(&*last));
        let changed = V::apply_in(last, rest, event, feed);
        feed.trail_leaf(rest, Some(last));
        changed
    }

    /// An event below one of the entries (`at` starts with a key).
    fn apply_in(&mut self, at: &[Step<'_>], event: &Event<'_>, feed: &mut Feed<'_>) -> bool {
        feed.trail_enter(self);
        let Some((Step::Key(key), rest)) = at.split_first() else {
            return false;
        };
        let Some(key) = K::key_text(key) else {
            return false;
        };
        // The open entry takes the event, unless it starts a member written with the same key
        // again (`{"a": 1, "a": 2}`: an entry of its own, which the final value keeps).
        let again = rest.is_empty() && feed.place.repeated;
        if !again && (self.inner.open.as_ref()).is_some_and(|(k, _)| k.as_str() == key) {
            if feed.tracing() {
                return self.trail_last(rest, event, feed);
            }
            if let Some((_, last)) = make_mut(&mut self.inner).open.as_mut() {
                return V::apply_in(last, rest, event, feed);
            }
        }
        Items::push_with(&mut self.inner, |value| {
            let mut v = None;
            let changed = V::apply(&mut v, rest, event, feed);
            *value = v.map(|v| (EntryKey::new(key), v));
            changed
        })
    }
}

impl<V: PartialValue, K: MapKey> PartialValue for PartialMap<V, K> {
    fn apply(
        slot: &mut Option<Self>,
        at: &[Step<'_>],
        event: &Event<'_>,
        feed: &mut Feed<'_>,
    ) -> bool {
        if at.is_empty() {
            return match event {
                Event::Open(Container::Object) if slot.is_none() => {
                    *slot = Some(PartialMap::default());
                    true
                }
                _ => false,
            };
        }
        let created = slot.is_none();
        let map = slot.get_or_insert_with(PartialMap::default);
        map.apply_in(at, event, feed) || created
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
        feed.lenient();
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

complete_partial!(char);

/// The number of a complete `Value` event at the value itself.
fn number_at(at: &[Step<'_>], event: &Event<'_>) -> Option<crate::node::Number> {
    match (at, event) {
        ([], Event::Value(node)) => match node.kind {
            NodeKind::Number(n) => Some(n),
            _ => None,
        },
        _ => None,
    }
}

// Numbers and bools written as JSON writes them are set directly (what `read_direct` reads);
// anything else (`"12"`, `1e3` for an integer, `"yes"`) goes through `Extract::from_node`.
macro_rules! integer_partial {
    ($($t:ty),*) => {$(
        impl PartialValue for $t {
            fn apply(slot: &mut Option<Self>, at: &[Step<'_>], event: &Event<'_>, feed: &mut Feed<'_>) -> bool {
                let fast = match number_at(at, event) {
                    Some(crate::node::Number::PosInt(u)) => <$t>::try_from(u).ok(),
                    Some(crate::node::Number::NegInt(i)) => <$t>::try_from(i).ok(),
                    _ => None,
                };
                match fast {
                    Some(v) => {
                        *slot = Some(v);
                        true
                    }
                    None => complete(slot, at, event, feed),
                }
            }
        }
    )*};
}

integer_partial!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

macro_rules! float_partial {
    ($($t:ty),*) => {$(
        impl PartialValue for $t {
            fn apply(slot: &mut Option<Self>, at: &[Step<'_>], event: &Event<'_>, feed: &mut Feed<'_>) -> bool {
                match number_at(at, event) {
                    Some(n) => {
                        *slot = Some(n.as_f64() as $t);
                        true
                    }
                    None => complete(slot, at, event, feed),
                }
            }
        }
    )*};
}

float_partial!(f32, f64);

impl PartialValue for bool {
    fn apply(
        slot: &mut Option<Self>,
        at: &[Step<'_>],
        event: &Event<'_>,
        feed: &mut Feed<'_>,
    ) -> bool {
        if let ([], Event::Value(node)) = (at, event) {
            if let NodeKind::Bool(b) = node.kind {
                *slot = Some(b);
                return true;
            }
        }
        complete(slot, at, event, feed)
    }
}

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

    /// The complete JSON as the parser's tree gives it; `None` where a key is written twice
    /// in an object, unless `repeated` (the stream noted each, `Reader::take_repeated_in`):
    /// then it keeps its first place and its later value.
    pub(crate) fn to_complete_value(&self, repeated: bool) -> Option<serde_json::Value> {
        use serde_json::Value;
        Some(match self {
            PartialJson::Null => Value::Null,
            PartialJson::Bool(b) => Value::Bool(*b),
            PartialJson::Number(n) => Value::Number(n.clone()),
            PartialJson::String(s) => Value::String(s.complete_str()?.to_owned()),
            PartialJson::Array(items) => Value::Array(
                (items.items_as_read()?)
                    .map(|item| item.to_complete_value(repeated))
                    .collect::<Option<_>>()?,
            ),
            PartialJson::Object(entries) => {
                let mut map = serde_json::Map::new();
                for (key, value) in entries.iter() {
                    let value = value.to_complete_value(repeated)?;
                    if map.insert(key.to_owned(), value).is_some() && !repeated {
                        return None;
                    }
                }
                Value::Object(map)
            }
        })
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
            (true, None | Some(PartialJson::String(_)), Event::Grow(_))
            | (true, Some(PartialJson::String(_)), Event::Value(_)) => {
                let mut s = match slot.take() {
                    Some(PartialJson::String(s)) => Some(s),
                    _ => None,
                };
                let changed = PartialString::apply(&mut s, at, event, feed);
                *slot = s.map(PartialJson::String);
                changed
            }
            (true, None, Event::Value(node)) => {
                let value = match &node.kind {
                    NodeKind::Null => PartialJson::Null,
                    NodeKind::Bool(b) => PartialJson::Bool(*b),
                    // As `finish` gives it: with `arbitrary_precision`, as written.
                    NodeKind::Number(n) => {
                        match crate::node::number_value_in(*n, node.span, feed.place.text, 0) {
                            serde_json::Value::Number(n) => PartialJson::Number(n),
                            _ => PartialJson::Null,
                        }
                    }
                    NodeKind::String(s) => PartialJson::String(PartialString::from(&*s.text)),
                    _ => return false,
                };
                *slot = Some(value);
                true
            }
            // Below an array or object: where it is (`apply_in`).
            (false, Some(json @ (PartialJson::Object(_) | PartialJson::Array(_))), _) => {
                Self::apply_in(json, at, event, feed)
            }
            // An array's or object's own close.
            (true, Some(_), Event::Close) => false,
            // A value where one was already: a member written with its key again, whose later
            // value the final one keeps (as `serde_json` does), so the snapshot shows it too.
            (true, Some(_), _) => {
                feed.lenient();
                *slot = None;
                Self::apply(slot, at, event, feed)
            }
            _ => {
                feed.lenient();
                false
            }
        }
    }

    fn grow_leaf(this: &mut Self) -> Option<&mut PartialString> {
        match this {
            PartialJson::String(s) => Some(s),
            _ => None,
        }
    }

    fn placeholder_so_far(this: &Self) -> Option<&str> {
        match this {
            PartialJson::String(s) => PartialString::placeholder_so_far(s),
            _ => None,
        }
    }

    /// An event below an array or object goes to it where it is (the walk of a growing
    /// string passes through, and nothing is moved); anything else as [`PartialValue::apply`].
    fn apply_in(this: &mut Self, at: &[Step<'_>], event: &Event<'_>, feed: &mut Feed<'_>) -> bool {
        if at.is_empty() || !matches!(this, PartialJson::Object(_) | PartialJson::Array(_)) {
            let mut slot = Some(std::mem::take(this));
            let changed = Self::apply(&mut slot, at, event, feed);
            if let Some(value) = slot {
                *this = value;
            }
            return changed;
        }
        if feed.tracing() {
            feed.trail_pass(&*this, |j| match j {
                PartialJson::Object(map) => Some(std::ptr::from_ref(map) as usize),
                PartialJson::Array(list) => Some(std::ptr::from_ref(list) as usize),
                _ => None,
            });
        }
        match this {
            PartialJson::Object(map) => map.apply_in(at, event, feed),
            PartialJson::Array(list) => list.apply_in(false, at, event, feed),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{PartialList, PartialString};
    use std::mem::size_of;

    /// What a snapshot copies per string and per list: three words and one (a list's
    /// bookkeeping lives behind its pointer), with `None` in a niche.
    #[test]
    fn strings_and_lists_stay_small() {
        assert_eq!(size_of::<PartialString>(), 3 * size_of::<usize>());
        assert_eq!(size_of::<Option<PartialString>>(), 3 * size_of::<usize>());
        assert_eq!(size_of::<Option<PartialList<u8>>>(), size_of::<usize>());
    }

    /// Keys kept inline and on the heap read back as written, in order, and by `get`.
    #[test]
    fn short_and_long_keys_read_back() {
        let long = "a key longer than sixteen bytes";
        let mut stream = crate::Stream::<std::collections::BTreeMap<String, u32>>::new();
        stream.push(&format!(
            "{{\"k\": 1, \"{long}\": 2, \"sixteen bytes ok\": 3, \"é\": 4}}"
        ));
        let map = stream.snapshot();
        let keys: Vec<&str> = map.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["k", long, "sixteen bytes ok", "é"]);
        assert_eq!(map.get(long), Some(&2));
        assert_eq!(map.get("é"), Some(&4));
        assert_eq!(map.get("missing"), None);
    }

    #[test]
    fn short_and_long_strings_read_the_same_and_grow() {
        for text in [
            "",
            "é",
            "sixteen bytes ok",
            "seventeen bytes!!",
            "exactly 22 bytes long.",
            "ü".repeat(40).as_str(),
        ] {
            let mut s = PartialString::from(text);
            assert_eq!(s.as_str(), text);
            assert_eq!(s, PartialString::from(text.to_string()));
            assert!(s.is_complete());
            assert_eq!(
                serde_json::to_string(&s).unwrap(),
                serde_json::to_string(text).unwrap()
            );
            // A later string at the same place grows from it (a repeated key).
            s.push_str("ñ+");
            assert_eq!(s.as_str(), format!("{text}ñ+"));
            assert!(!s.is_complete());
        }
    }
}
