//! The runtime side of the partial twins `#[derive(Extract)]` generates: the key matching,
//! holding back (`stream = "done"`, `stream = "required"`) and salvage the generated
//! `PartialValue` impls call, so the generated code only wires them up.

pub use super::partial::{apply_option, Held};
use super::{Event, Feed, FieldState, FieldStates, PartialValue, Step};
use crate::coerce::keys::{best_field, StructSpec};
use crate::coerce::variants::{variant_key, EnumSpec};
use crate::path::Path;

/// The field (its position in `spec.fields`) a key lands on, as the full path matches keys:
/// exact, normalized (`toolName` = `tool_name`), alias, without diacritics.
pub fn field_index(spec: &StructSpec, key: &str) -> Option<usize> {
    best_field(spec.fields, key).map(|(i, _)| i)
}

/// [`field_index`], and how well the key matched (0 exact, higher is worse), for
/// [`FieldStates::take_key`].
pub fn field_rank(spec: &StructSpec, key: &str) -> Option<(usize, u8)> {
    best_field(spec.fields, key).map(|(i, rank)| (i, rank as u8))
}

/// The variant a key or a tag value names (exact, normalized, alias, without diacritics; not
/// the `other` variant, not a variant named inside a sentence: those wait for the complete
/// value).
pub fn variant_index(spec: &EnumSpec, key: &str) -> Option<usize> {
    variant_key(key, spec)
}

/// `stream = "done"`: the value shows nothing until complete, then all of it at once (read
/// again with [`Feed::replay`]); `apply` is the value's own, unheld reading.
pub fn done<P: PartialValue>(
    slot: &mut Option<P>,
    at: &[Step<'_>],
    event: &Event<'_>,
    feed: &mut Feed<'_>,
    apply: impl FnOnce(&mut Option<P>, &[Step<'_>], &Event<'_>, &mut Feed<'_>) -> bool,
) -> bool {
    // What is held back shows later or never: `finish` reads the reply on the ordinary path.
    feed.lenient();
    if !feed.may_hold(at) {
        return apply(slot, at, event, feed);
    }
    if !at.is_empty() || !event.completes() {
        return false;
    }
    match event {
        Event::Close => match feed.replay::<P>(at) {
            Some(value) => {
                let changed = slot.as_ref() != Some(&value);
                *slot = Some(value);
                changed
            }
            None => false,
        },
        // A scalar or string is whole in one event.
        _ => apply(slot, at, event, feed),
    }
}

/// The fields marked `stream = "required"` of a struct twin `P`.
pub struct Required<'r, P> {
    /// The struct's keys.
    pub spec: &'r StructSpec,
    /// The required fields, as positions in `spec.fields`.
    pub fields: &'r [usize],
    /// Whether every required field is complete in a twin.
    pub complete: fn(&P) -> bool,
}

/// `stream = "required"` on some fields of a struct: the struct shows nothing until each
/// required field is complete. When one completes, the struct is read again from its start
/// ([`Feed::replay`]) and kept if every required field is complete in it. Once shown, events
/// go to `apply` as usual.
pub fn require<P: PartialValue>(
    slot: &mut Option<P>,
    at: &[Step<'_>],
    event: &Event<'_>,
    feed: &mut Feed<'_>,
    required: &Required<'_, P>,
    apply: impl FnOnce(&mut Option<P>, &[Step<'_>], &Event<'_>, &mut Feed<'_>) -> bool,
) -> bool {
    feed.lenient();
    if slot.is_some() || !feed.may_hold(at) {
        return apply(slot, at, event, feed);
    }
    let [Step::Key(key)] = at else { return false };
    let is_required = field_index(required.spec, key).is_some_and(|i| required.fields.contains(&i));
    if !event.completes() || !is_required {
        return false;
    }
    match feed.replay::<P>(at) {
        Some(value) if (required.complete)(&value) => {
            *slot = Some(value);
            true
        }
        _ => false,
    }
}

/// Salvage of one field still pending: its value found by `names` (wire name first, then
/// aliases) anywhere in the text, read on its own. Returns whether it was recovered; the
/// path goes to `recovered`.
pub fn salvage_field<P: PartialValue, const N: usize>(
    field: &mut Option<P>,
    states: &mut FieldStates<N>,
    index: usize,
    names: &[&str],
    feed: &mut Feed<'_>,
    recovered: &mut Vec<Path>,
) -> bool {
    if states.get(index) != FieldState::Pending {
        return false;
    }
    let Some(start) = feed.find_member(names) else {
        return false;
    };
    match feed.recover::<P>(start, names[0]) {
        Some(value) => {
            *field = Some(value);
            // Read to the end of the text: it may be cut off, so it is not called complete.
            states.note(index, &[Step::Index(0)], &Event::Close);
            recovered.push(Path::root().key(names[0]));
            true
        }
        None => false,
    }
}

/// Records that field `i` of a twin saw `event` at `at` below it (`FieldStates::note`); a
/// value starting in a field already complete is a repeated key, which a strict read does not
/// take as written ([`Feed::lenient`]). A field whose partial `shows` nothing while the reply
/// streams (its `PartialValue::SHOWS`) stays incomplete: its value comes with `finish`.
#[inline]
pub fn note_field<const N: usize>(
    states: &mut FieldStates<N>,
    i: usize,
    at: &[Step<'_>],
    event: &Event<'_>,
    feed: &mut Feed<'_>,
    shows: bool,
) {
    if at.is_empty() && !matches!(event, Event::Close) && states.get(i) == FieldState::Complete {
        feed.lenient();
    }
    match shows {
        true => states.note(i, at, event),
        false if states.get(i) == FieldState::Pending => states.set(i, FieldState::Incomplete),
        false => {}
    }
}

/// The state of the field named `name` (Rust name or wire name, as `names` lists them in
/// field order), for the twin's `state(name)`.
pub fn state_of<const N: usize>(
    states: &FieldStates<N>,
    names: &[(&str, &str)],
    name: &str,
) -> FieldState {
    names
        .iter()
        .position(|(rust, wire)| *rust == name || *wire == name)
        .map_or(FieldState::Pending, |i| states.get(i))
}

/// Whether an input key is `name` (exact or normalized): how a tag or content key is found.
pub fn same_key(name: &str, key: &str) -> bool {
    name == key || crate::coerce::keys_match(name, key)
}

/// Applies `event` to a payload kept by value in a twin enum's variant.
pub fn apply_in<P: PartialValue>(
    payload: &mut P,
    at: &[Step<'_>],
    event: &Event<'_>,
    feed: &mut Feed<'_>,
) -> bool {
    let mut slot = Some(std::mem::take(payload));
    let changed = P::apply(&mut slot, at, event, feed);
    *payload = slot.unwrap_or_default();
    changed
}

/// `P::apply` to a member `slot` during a walk that records where a growing string is
/// ([`Feed::tracing`]): hands the walk down to the member, and records the member if the
/// event was a string growing there (see `stream/hot.rs`). Out of line, so that the usual
/// events' path through a twin stays as short as it was.
#[inline(never)]
pub fn trail_apply<P: PartialValue>(
    slot: &mut Option<P>,
    at: &[Step<'_>],
    event: &Event<'_>,
    feed: &mut Feed<'_>,
) -> bool {
    feed.trail_expect(slot.as_ref());
    let changed = P::apply(slot, at, event, feed);
    feed.trail_leaf(at, slot.as_mut());
    changed
}
