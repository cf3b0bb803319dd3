//! Reading structs: an object's keys matched to fields, tuples and units.

use crate::coerce::embedded::as_container;
use crate::coerce::keys::{best_field, rank, FieldSpec, Rank, StructSpec};
use crate::coerce::{Checkpoint, Context, Failed};
use crate::error::{Category, Issue};
use crate::node::{Entry, Node, NodeKind};
use crate::path::{Path, Segment};
use crate::report::CoercionKind;
use crate::span::Span;

/// The value of each field of a struct, matched from an object's keys.
#[derive(Debug)]
pub struct Fields<'n, 'a, const COUNT: usize> {
    spec: &'static StructSpec,
    pub(crate) slots: [Option<(&'n Node<'a>, Rank, Span)>; COUNT],
    rest: Vec<&'n Entry<'a>>,
    span: Span,
    /// The value was not an object but the struct's only field (`WrappedInStruct`).
    wrapped: bool,
    /// `false` when the reply was cut off inside the object: a missing field says so.
    complete: bool,
}

/// Reads a struct with named fields: `read` builds the value from the [`Fields`] matched in
/// `node` (see [`fields`]).
///
/// In lenient mode, a string holding a JSON object is decoded first
/// ([`CoercionKind::DecodedString`]). When the object as written does not fit (the reading
/// failed, or left issues) and its reading found no field's key, the first of these other
/// readings that applies is tried:
/// - an object with one key that names no field stands for its value (`{"review": {...}}`
///   for a `Review`, [`CoercionKind::UnwrappedObject`]), at any depth
///   (`{"data": {"review": {...}}}`);
/// - for a struct with one field, the whole object is that field
///   ([`CoercionKind::WrappedInStruct`]).
///
/// A struct whose fields may all be missing fits any object; when the object as written
/// found none of its fields, the first reading (the value of a lone unknown key) is tried too,
/// and taken when it finds a field.
///
/// When none fits, the reading with the fewest issues is reported (the object as written on
/// a tie). The other readings apply only when the written one found no field's key (so it read
/// no value), and only the first that applies is tried: no value is read twice, and nesting
/// stays linear (the whole-object reading wraps one node at most twice).
pub fn object<T, const COUNT: usize>(
    node: &Node<'_>,
    spec: &'static StructSpec,
    skip: Option<usize>,
    cx: &mut Context,
    read: impl for<'n, 'a> Fn(&Fields<'n, 'a, COUNT>, &mut Context) -> Result<T, Failed>,
) -> Result<T, Failed> {
    read_object(node, spec, skip, cx, &read)
}

/// How a struct is built from its matched fields (the derive's generated code).
type Build<'r, T, const COUNT: usize> =
    dyn for<'n, 'a> Fn(&Fields<'n, 'a, COUNT>, &mut Context) -> Result<T, Failed> + 'r;

/// [`object`], with the builder behind a reference so that unwrapping can recurse.
fn read_object<T, const COUNT: usize>(
    node: &Node<'_>,
    spec: &'static StructSpec,
    skip: Option<usize>,
    cx: &mut Context,
    read: &Build<'_, T, COUNT>,
) -> Result<T, Failed> {
    let decoded = as_container(node, cx);
    let node: &Node<'_> = &decoded;
    let others = cx.lenient() && skip.is_none() && !spec.flatten;
    // A lone key that names no field (`{"result": {...}}`): its value is read first. When that
    // finds a field and fits, it is the reading whatever the object as written would give (a
    // reading that finds no field: it fails, or fits only as an empty struct), so the written
    // one is never made, and a chain of wrappers costs one reading per level with no issue
    // (and no path) recorded on the way down.
    let mut unwrapped = None;
    if others && lone_unknown_entry(node, spec).is_some() {
        let attempt = cx.checkpoint();
        let matched = cx.matched();
        if let Some(result) = Other::Unwrapped.read(node, spec, cx, read) {
            let fit = result.is_ok() && !cx.failed_since(attempt);
            if fit && cx.matched() > matched {
                return result;
            }
            unwrapped = Some((fit, Attempt::set_aside(result, attempt, cx)));
        }
    }
    let start = cx.checkpoint();
    let mut found_a_field = false;
    let written = fields::<COUNT>(node, spec, skip, cx).and_then(|f| {
        found_a_field = f.wrapped || f.slots.iter().any(Option::is_some);
        read(&f, cx)
    });
    let fits = written.is_ok() && !cx.failed_since(start);
    if !others || found_a_field {
        return written;
    }
    let mut closest = Attempt::set_aside(written, start, cx);
    if let Some((fit, attempt)) = unwrapped {
        // The object as written fits only as an empty struct, or not at all.
        if fit && !fits {
            return attempt.restore(cx);
        }
        return closest.or(attempt).restore(cx);
    }
    if !fits {
        // The whole object as a one-field struct's field. One other reading per object:
        // trying both would read the value under the key again through the whole-object
        // reading, at every level of a nesting (exponential).
        let attempt = cx.checkpoint();
        if let Some(result) = Other::Whole.read(node, spec, cx, read) {
            if result.is_ok() && !cx.failed_since(attempt) {
                return result;
            }
            closest = closest.or(Attempt::set_aside(result, attempt, cx));
        }
    }
    closest.restore(cx)
}

/// The readings of an object tried when it does not fit a struct as written.
#[derive(Clone, Copy)]
enum Other {
    /// The value of the object's only key, which names no field.
    Unwrapped,
    /// The whole object as a one-field struct's field.
    Whole,
}

impl Other {
    /// This reading of `node`, or `None` when it does not apply.
    fn read<T, const COUNT: usize>(
        self,
        node: &Node<'_>,
        spec: &'static StructSpec,
        cx: &mut Context,
        read: &Build<'_, T, COUNT>,
    ) -> Option<Result<T, Failed>> {
        match self {
            Other::Unwrapped => {
                let inner = lone_unknown_entry(node, spec)?;
                let result = cx.at(Segment::Key(inner.key.text.to_string()), |cx| {
                    let before = cx.checkpoint();
                    let value = as_container(&inner.value, cx);
                    if !object_like(&value) {
                        cx.rollback(before);
                        return None;
                    }
                    Some(read_object(&value, spec, None, cx, read))
                })?;
                cx.coerce(CoercionKind::UnwrappedObject, inner.key_span);
                Some(result)
            }
            Other::Whole => {
                let one_field = COUNT == 1 && spec.fields.len() == 1;
                let NodeKind::Object(entries) = &node.kind else {
                    return None;
                };
                if !one_field || entries.is_empty() || !cx.can_wrap(node) {
                    return None;
                }
                Some(read(&Fields::wrapping(node, spec, cx), cx))
            }
        }
    }
}

/// A failed reading of a struct, its records set aside while another reading is tried.
struct Attempt<T> {
    result: Result<T, Failed>,
    coercions: Vec<crate::report::Coercion>,
    issues: Vec<Issue>,
}

impl<T> Attempt<T> {
    fn set_aside(result: Result<T, Failed>, since: Checkpoint, cx: &mut Context) -> Attempt<T> {
        let (coercions, issues) = cx.take_since(since);
        Attempt {
            result,
            coercions,
            issues,
        }
    }

    /// The closer of two failed readings: fewer issues, `self` on a tie.
    fn or(self, other: Attempt<T>) -> Attempt<T> {
        if other.issues.len() < self.issues.len() {
            other
        } else {
            self
        }
    }

    /// Puts the reading's records back; a value returned with issues (a rule failed) is
    /// returned as it was, and the entry points refuse it for its issues.
    fn restore(self, cx: &mut Context) -> Result<T, Failed> {
        cx.restore(self.coercions);
        for issue in self.issues {
            cx.push_issue(issue);
        }
        self.result
    }
}

/// The only entry of an object, when its key names no field (`{"review": {...}}`).
fn lone_unknown_entry<'n, 'a>(node: &'n Node<'a>, spec: &StructSpec) -> Option<&'n Entry<'a>> {
    let NodeKind::Object(entries) = &node.kind else {
        return None;
    };
    let [entry] = entries.as_slice() else {
        return None;
    };
    best_field(spec.fields, &entry.key.text)
        .is_none()
        .then_some(entry)
}

/// An object, or a list of one object: what an unwrapped value must be. Never a bare value,
/// which the struct would wrap as its only field.
fn object_like(node: &Node<'_>) -> bool {
    match &node.kind {
        NodeKind::Object(_) => true,
        NodeKind::Array(items) => {
            matches!(items.as_slice(), [item] if matches!(item.kind, NodeKind::Object(_)))
        }
        _ => false,
    }
}

/// Matches `node`'s keys to `spec`'s fields: exact name, then normalized name, then alias.
/// Two keys landing on one field: the better match wins (the later on a tie) and the other
/// is recorded. Unknown keys are recorded, or issues under `deny_unknown_fields`.
///
/// In lenient mode, a one-item array holding an object gives the object, and any other
/// value is taken as the only field of a one-field struct.
pub fn fields<'n, 'a, const COUNT: usize>(
    node: &'n Node<'a>,
    spec: &'static StructSpec,
    skip: Option<usize>,
    cx: &mut Context,
) -> Result<Fields<'n, 'a, COUNT>, Failed> {
    let entries = match &node.kind {
        NodeKind::Object(entries) => entries,
        NodeKind::Array(items)
            if cx.lenient() && items.len() == 1 && matches!(items[0].kind, NodeKind::Object(_)) =>
        {
            cx.coerce(CoercionKind::ListToSingle, node.span);
            return fields(&items[0], spec, skip, cx);
        }
        _ if cx.lenient()
            && spec.fields.len() == 1
            && COUNT == 1
            && !spec.flatten
            && cx.can_wrap(node) =>
        {
            return Ok(Fields::wrapping(node, spec, cx));
        }
        _ => return Err(cx.mismatch("an object", node)),
    };
    let mut out = Fields {
        spec,
        slots: [None; COUNT],
        rest: Vec::new(),
        span: node.span,
        wrapped: false,
        complete: node.complete,
    };
    let placed = out.match_keys(entries, skip, cx);
    out.record_key_matches(cx);
    placed.map(|()| out)
}

impl<'n, 'a, const COUNT: usize> Fields<'n, 'a, COUNT> {
    /// `node` as the only field of a one-field struct, recorded.
    fn wrapping(node: &'n Node<'a>, spec: &'static StructSpec, cx: &mut Context) -> Self {
        let mut slots = [None; COUNT];
        if let Some(slot) = slots.first_mut() {
            *slot = Some((node, Rank::Exact, node.span));
        }
        if let Some(field) = spec.fields.first() {
            cx.at_field(field.name, |cx| {
                cx.coerce(CoercionKind::WrappedInStruct, node.span)
            });
        }
        Fields {
            spec,
            slots,
            rest: Vec::new(),
            span: node.span,
            wrapped: true,
            complete: node.complete,
        }
    }

    /// Puts each entry (but `skip`) in its field's slot, or among the rest; `Err` when an
    /// unknown key is an error (`deny_unknown_fields`), after every entry was looked at.
    fn match_keys(
        &mut self,
        entries: &'n [Entry<'a>],
        skip: Option<usize>,
        cx: &mut Context,
    ) -> Result<(), Failed> {
        let mut failed = false;
        // Keys usually come in the order the fields are declared: try the next field first.
        let mut next = 0;
        for (i, entry) in entries.iter().enumerate() {
            if skip == Some(i) {
                continue;
            }
            match self.field_of(&entry.key.text, next) {
                Some((field, rank)) => {
                    if self.place(field, rank, entry, cx) {
                        next = field + 1;
                    }
                }
                None => {
                    self.rest.push(entry);
                    failed |= !self.spec.flatten && !unknown_key(self.spec, entry, cx);
                }
            }
        }
        if failed {
            Err(Failed)
        } else {
            Ok(())
        }
    }

    /// The field `key` lands on, trying the field after the last one matched first.
    fn field_of(&self, key: &str, next: usize) -> Option<(usize, Rank)> {
        // `COUNT` is the number of fields the generated code reads; never index past it.
        let known = &self.spec.fields[..COUNT.min(self.spec.fields.len())];
        match known.get(next) {
            Some(f) if f.name == key => Some((next, Rank::Exact)),
            _ => best_field(known, key),
        }
    }

    /// Puts `entry` in `field`'s slot unless a better match is there; a second key for one
    /// field is recorded. Returns whether the entry took the slot.
    fn place(&mut self, field: usize, rank: Rank, entry: &'n Entry<'a>, cx: &mut Context) -> bool {
        if let Some((_, previous, previous_span)) = self.slots[field] {
            // The better match wins; on a tie the later key wins, as in JSON, unless it was
            // written without a value.
            let later_wins = rank <= previous && !entry.value_missing();
            let loser = if later_wins {
                previous_span
            } else {
                entry.key_span
            };
            cx.at_field(self.spec.fields[field].name, |cx| {
                cx.coerce(CoercionKind::DuplicateKey, loser)
            });
            if !later_wins {
                return false;
            }
        }
        self.slots[field] = Some((&entry.value, rank, entry.key_span));
        true
    }

    /// Records every key that matched its field only leniently, and counts the fields found.
    fn record_key_matches(&self, cx: &mut Context) {
        for (field, slot) in self.slots.iter().enumerate() {
            let Some((_, rank, span)) = slot else {
                continue;
            };
            cx.note_match();
            let kind = match rank {
                Rank::Exact => continue,
                Rank::Normalized => CoercionKind::NormalizedKey,
                Rank::Alias | Rank::NormalizedAlias => CoercionKind::AliasKey,
                Rank::Folded => CoercionKind::FoldedKey,
            };
            cx.at_field(self.spec.fields[field].name, |cx| cx.coerce(kind, *span));
        }
    }
}

/// A key that names no field: recorded, or an issue under `deny_unknown_fields` (`false`).
fn unknown_key(spec: &StructSpec, entry: &Entry<'_>, cx: &mut Context) -> bool {
    let key: &str = &entry.key.text;
    cx.at(Segment::Key(key.to_string()), |cx| {
        if !spec.deny_unknown {
            cx.coerce(CoercionKind::UnknownKey, entry.key_span);
            return true;
        }
        let expected: Vec<String> = spec
            .fields
            .iter()
            .map(|f| format!("`{}`", f.name))
            .collect();
        let message = format!(
            "unknown field `{key}`, expected one of {}",
            expected.join(", ")
        );
        cx.push_issue(Issue::new(Category::Unknown, cx.path(), message).at(entry.key_span));
        false
    })
}

/// What to do when a field's key is absent.
pub enum Missing<T> {
    /// An issue (`Category::Missing`, or `Category::Incomplete` when the reply was cut off
    /// inside the object), unless the type has a value for absence (`Option`).
    Required(Option<T>),
    /// The field's default (`default`, `default = path`), recorded.
    Default(fn() -> T),
    /// A default given as a value (a JSON Schema's `default`), recorded as `Default` is.
    Value(T),
}

impl<T> Missing<T> {
    /// The default value, for a variant that has one.
    fn default_value(self) -> Option<T> {
        match self {
            Missing::Default(default) => Some(default()),
            Missing::Value(value) => Some(value),
            Missing::Required(_) => None,
        }
    }
}

impl<'n, 'a, const COUNT: usize> Fields<'n, 'a, COUNT> {
    /// The span of field `i`'s value, or of the whole object when it is absent.
    pub fn span(&self, i: usize) -> Span {
        self.slots
            .get(i)
            .copied()
            .flatten()
            .map_or(Span::at(self.span.start), |(n, _, _)| n.span)
    }

    /// Reads field `i` with `read` at the field's path; `None` when it failed (the issues are
    /// in `cx`). With `catch`, a value that cannot be read (or fails validation) is replaced
    /// by `catch()` and recorded.
    pub fn field<T>(
        &self,
        i: usize,
        cx: &mut Context,
        read: impl FnOnce(&Node<'a>, &mut Context) -> Result<T, Failed>,
        missing: Missing<T>,
        catch: Option<fn() -> T>,
    ) -> Option<T> {
        let name = self.spec.fields.get(i).map_or("", |f| f.name);
        let span = self.span(i);
        cx.at_field(name, |cx| {
            let start = cx.checkpoint();
            let value = match self.slots.get(i).copied().flatten() {
                Some((node, _, _)) => match (&node.kind, &missing) {
                    // `null` for a field with a default: the default, when the type refuses null.
                    (NodeKind::Null, Missing::Default(_) | Missing::Value(_)) => {
                        match read(node, cx) {
                            Ok(v) if !cx.failed_since(start) => Some(v),
                            _ => {
                                cx.rollback(start);
                                cx.coerce(CoercionKind::DefaultUsed, span);
                                missing.default_value()
                            }
                        }
                    }
                    _ if self.wrapped => cx
                        .wrapping(node, |cx| read(node, cx).ok())
                        .unwrap_or_else(|| {
                            cx.mismatch("an object", node);
                            None
                        }),
                    _ => read(node, cx).ok(),
                },
                None => match missing {
                    Missing::Required(Some(v)) => Some(v),
                    Missing::Default(_) | Missing::Value(_) => {
                        cx.coerce(CoercionKind::DefaultUsed, span);
                        missing.default_value()
                    }
                    Missing::Required(None) => {
                        let issue = self.missing(i, span, cx);
                        cx.push_issue(issue);
                        None
                    }
                },
            };
            match catch {
                Some(fallback) if value.is_none() || cx.failed_since(start) => {
                    cx.rollback(start);
                    cx.coerce(CoercionKind::Caught, span);
                    Some(fallback())
                }
                _ => value,
            }
        })
    }

    /// The issue for a required field that is absent: where the object is, or, when the
    /// reply was cut off inside the object, that it was and where.
    fn missing(&self, i: usize, span: Span, cx: &Context) -> Issue {
        let field = &self.spec.fields[i];
        let name = field.name;
        if self.complete {
            let path = cx.path();
            let mut message = format!("missing field `{name}`");
            // The object one level up: the issue's own path ends with the field.
            let mut object = path.clone();
            object.pop();
            if let Some(below) = self.key_below(field, object) {
                message.push_str(&format!(" (the object at {below} has it)"));
            }
            return Issue::new(Category::Missing, path, message).at(span);
        }
        let message = format!("missing field `{name}`: the reply was truncated, cut off");
        Issue::new(Category::Incomplete, cx.path(), message).at(Span::at(self.span.end))
    }

    /// The path of the first object below this one (its members no field took, breadth
    /// first) with a key for `field`: where the answer may be nested. Looks at a bounded
    /// number of values and keys, and builds only the path it returns, so that a failed
    /// reading stays cheap.
    fn key_below(&self, field: &FieldSpec, object: Path) -> Option<Path> {
        const VALUES: usize = 64;
        const KEYS: usize = 512;
        // Each value looked at: its node, the index of the value it is in, and its step.
        let mut seen: Vec<(&Node<'a>, usize, Step<'_>)> = (self.rest.iter())
            .take(VALUES)
            .map(|e| (&e.value, usize::MAX, Step::Key(&e.key.text)))
            .collect();
        let mut keys = 0;
        let mut next = 0;
        while next < seen.len() {
            let node = seen[next].0;
            match &node.kind {
                NodeKind::Object(entries) => {
                    for e in entries {
                        keys += 1;
                        if keys > KEYS {
                            return None;
                        }
                        if rank(field, &e.key.text).is_some() {
                            return Some(path_to(&seen, next, object));
                        }
                        if seen.len() < VALUES {
                            seen.push((&e.value, next, Step::Key(&e.key.text)));
                        }
                    }
                }
                NodeKind::Array(items) => {
                    let room = VALUES.saturating_sub(seen.len());
                    let below = items.iter().enumerate().take(room);
                    seen.extend(below.map(|(k, item)| (item, next, Step::Index(k))));
                }
                _ => {}
            }
            next += 1;
        }
        None
    }

    /// Reads a `flatten` field from the keys no other field matched.
    pub fn flatten<T>(
        &self,
        cx: &mut Context,
        read: impl FnOnce(&Node<'a>, &mut Context) -> Result<T, Failed>,
    ) -> Option<T> {
        let entries: Vec<Entry<'a>> = self.rest.iter().map(|e| (*e).clone()).collect();
        let node = Node::new(NodeKind::Object(entries), self.span);
        read(&node, cx).ok()
    }
}

/// A step from a value to one inside it, borrowed from the node ([`Fields::key_below`]).
#[derive(Clone, Copy)]
enum Step<'k> {
    Key(&'k str),
    Index(usize),
}

/// The path of value `at` of `seen` (each entry naming the value it is in, `usize::MAX` for
/// one of the object's own members), below `object`.
fn path_to<'n, 'a>(seen: &[(&'n Node<'a>, usize, Step<'_>)], mut at: usize, object: Path) -> Path {
    let mut steps = Vec::new();
    while at != usize::MAX {
        let (_, parent, step) = seen[at];
        steps.push(step);
        at = parent;
    }
    steps.iter().rev().fold(object, |path, step| match *step {
        Step::Key(key) => path.key(key),
        Step::Index(i) => path.index(i),
    })
}

/// The span of item `i` of an array node (for a rule on each item), or the node's own span.
pub fn item_span(node: &Node<'_>, i: usize) -> Span {
    match &node.kind {
        NodeKind::Array(items) => items.get(i).map_or(node.span, |n| n.span),
        _ => node.span,
    }
}

/// The items of a tuple struct or tuple variant: an array of exactly `len` items.
pub fn tuple<'n, 'a>(
    node: &'n Node<'a>,
    len: usize,
    cx: &mut Context,
) -> Result<&'n [Node<'a>], Failed> {
    match &node.kind {
        NodeKind::Array(items) if items.len() == len => Ok(items),
        NodeKind::Array(items) => {
            let message = format!("expected an array of {len} items, found {}", items.len());
            Err(cx.fail(Category::Type, message, node.span))
        }
        _ => Err(cx.mismatch(&format!("an array of {len} items"), node)),
    }
}

/// Reads item `i` of a tuple at its index path.
pub fn element<'a, T>(
    items: &[Node<'a>],
    i: usize,
    cx: &mut Context,
    read: impl FnOnce(&Node<'a>, &mut Context) -> Result<T, Failed>,
) -> Option<T> {
    cx.at_index(i, |cx| read(&items[i], cx).ok())
}

/// A unit struct: `null`, `{}` or `[]`.
pub fn unit(node: &Node<'_>, cx: &mut Context) -> Result<(), Failed> {
    match &node.kind {
        NodeKind::Null => Ok(()),
        NodeKind::Object(e) if e.is_empty() => Ok(()),
        NodeKind::Array(a) if a.is_empty() => Ok(()),
        _ => Err(cx.mismatch("null", node)),
    }
}
