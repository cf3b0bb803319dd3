//! The string the reader is inside, reached without walking down from the root.
//!
//! A long reply is mostly the text of a few strings, and most chunks fall inside one: they
//! add text to one string and change nothing else. Such a chunk cost the reader's state
//! machine and a walk from the root of the partial value down to the string (a key lookup
//! per object, a uniqueness check per list), more than the rest of the push.
//!
//! So the walk for a `Grow` event records, in the stream's [`Hot`], where the string's slot
//! is, relative to the root or to the innermost shared allocation (an `Arc`) on the way, and
//! those allocations. Later text of the same string is appended there directly if each of
//! those allocations is still the stream's alone: then nothing but the stream can see the
//! slot (a snapshot that shares a part holds its `Arc`), and nothing moved it, since only
//! events change the value's shape and every other event forgets the hot string. A `Grow`
//! event of that string takes this way (`Root::event`), and so does a chunk that only grows
//! it, before the reader's state machine (`Stream::grow_hot`: appended as it is without
//! quote or backslash, decoded by the reader with an escape).
//!
//! Which walks leave a trail: each level that takes a step of the path (a derived struct
//! twin, a list, a map; `PartialJson` around its array or object) checks that it is at the
//! address its parent handed down ([`Feed::trail_enter`](super::Feed::trail_enter)) and
//! hands down its child's
//! ([`Feed::trail_expect`](super::Feed::trail_expect)); a list adds its allocation; the
//! parent of the string records it ([`Feed::trail_leaf`](super::Feed::trail_leaf)). A
//! level the trail does not know (a hand-written partial, a `Box`, an enum twin, a value
//! held back) hands nothing down, so the next known level is not where it is expected and
//! the trail breaks: that string keeps the ordinary path. Addresses are compared, never
//! dereferenced: the slot is reached from the root the stream holds or from an `Arc`'s own
//! pointer, and only when it lies inside that root or allocation.

use super::partial::PartialString;
use std::mem::{size_of, ManuallyDrop};
use std::ptr::NonNull;
use std::sync::atomic::{fence, Ordering};
use std::sync::Arc;

/// No address: what a level expects once its trail was taken (nothing is handed down).
const NOWHERE: usize = usize::MAX;

/// A shared allocation on the way to the string.
#[derive(Clone, Copy)]
struct Guard {
    /// The value inside the `Arc` (`Arc::as_ptr`).
    data: NonNull<u8>,
    /// Whether the `Arc` whose value is at `data` has no other handle.
    unique: unsafe fn(NonNull<u8>) -> bool,
}

/// [`Guard::unique`] for an `Arc<T>`.
///
/// # Safety
/// `data` is `Arc::as_ptr` of an `Arc<T>` that is still alive.
unsafe fn unique<T>(data: NonNull<u8>) -> bool {
    // SAFETY: `data` came from `Arc::as_ptr` (the pointer `Arc::into_raw` gives) of a live
    // `Arc<T>`; `ManuallyDrop` keeps the count as it is.
    let arc = ManuallyDrop::new(unsafe { Arc::from_raw(data.as_ptr().cast::<T>().cast_const()) });
    // As `shared::make_mut` asks: the crate makes no `Weak` of these, and the fence orders
    // the writes that follow after a snapshot's release of its handle on another thread.
    let unique = Arc::strong_count(&arc) == 1 && Arc::weak_count(&arc) == 0;
    if unique {
        fence(Ordering::Acquire);
    }
    unique
}

/// The string the reader is inside, as the walk of the last `Grow` event found it (see the
/// module documentation); the stream keeps one and each walk records into it in place.
pub(crate) struct Hot {
    /// Where the string starts in the reply (which string it is).
    pub(crate) string: usize,
    /// Whether the last walk found the string (`offset` and the guards say where).
    found: bool,
    /// The shared allocations on the way, outermost first (as many as the string is deep in
    /// lists: a string in lists of lists grows here as cheaply as one at the root).
    guards: Vec<Guard>,
    /// The string's slot: its offset inside the root (no guard) or the innermost guard.
    offset: usize,
    // The walk being recorded:
    root: usize,
    root_size: usize,
    /// The size of the innermost guard's value.
    inner_size: usize,
    /// The address the next level that takes a step must be at.
    expect: usize,
    broken: bool,
}

// SAFETY: the pointers are into the value the stream owns (its root, or allocations it holds
// handles on), and are followed only through `&mut` on the stream (`Hot::slot`), as the
// value itself is reached; they are never followed through a shared `&Hot`.
unsafe impl Send for Hot {}
// SAFETY: as above; `&Hot` gives access to nothing.
unsafe impl Sync for Hot {}

impl Default for Hot {
    fn default() -> Hot {
        Hot {
            string: NOWHERE,
            found: false,
            guards: Vec::new(),
            offset: 0,
            root: NOWHERE,
            root_size: 0,
            inner_size: 0,
            expect: NOWHERE,
            broken: true,
        }
    }
}

impl Hot {
    /// Whether the last walk found its string.
    #[inline]
    pub(crate) fn found(&self) -> bool {
        self.found
    }

    /// Whether the last walk found the string `string`.
    pub(crate) fn is(&self, string: usize) -> bool {
        self.found && self.string == string
    }

    /// Forgets the string (any event but its growing changes the value's shape).
    pub(crate) fn clear(&mut self) {
        self.found = false;
    }

    /// Starts recording the walk of a `Grow` event of the string at `string`, from `root`,
    /// the stream's value (`None` before it has one).
    pub(crate) fn begin<R>(&mut self, root: Option<&R>, string: usize) {
        let root = root.map_or(NOWHERE, |r| std::ptr::from_ref(r) as usize);
        self.string = string;
        self.found = false;
        self.guards.clear();
        self.root = root;
        self.root_size = size_of::<R>();
        self.expect = root;
        self.broken = false;
    }

    /// A level that takes a step is at `at`; it must be where its parent said.
    pub(crate) fn enter(&mut self, at: usize) {
        if at != self.expect {
            self.broken = true;
        }
        self.expect = NOWHERE;
    }

    /// The level being left hands the event to the value at `child` (`None`: not there yet).
    pub(crate) fn expect(&mut self, child: Option<usize>) {
        self.expect = child.unwrap_or(NOWHERE);
    }

    /// The way goes into `arc`'s value, which the walk just made the stream's alone.
    pub(crate) fn guard<T>(&mut self, arc: &Arc<T>) {
        match NonNull::new(Arc::as_ptr(arc).cast::<u8>().cast_mut()) {
            Some(data) => {
                self.guards.push(Guard {
                    data,
                    unique: unique::<T>,
                });
                self.inner_size = size_of::<T>();
            }
            None => self.broken = true,
        }
    }

    /// The walk no longer finds a string (the one it recorded was taken out of the value),
    /// whatever a level after records.
    pub(crate) fn lose(&mut self) {
        self.found = false;
        self.broken = true;
    }

    /// The string's slot is at `at`: the walk found it, if it is inside the root (no guard
    /// on the way) or inside the innermost guard's value.
    pub(crate) fn leaf(&mut self, at: usize) {
        if self.broken {
            return;
        }
        let (start, size) = match self.guards.last() {
            None => (self.root, self.root_size),
            Some(g) => (g.data.as_ptr() as usize, self.inner_size),
        };
        let slot = size_of::<PartialString>();
        let offset = at.wrapping_sub(start);
        if start != NOWHERE && at >= start && offset + slot <= size {
            self.offset = offset;
            self.found = true;
        }
    }

    /// The string's slot in `root`, if the walk found it and the stream alone can see it
    /// (each shared allocation on the way has no other handle).
    ///
    /// # Safety
    /// `root` is the value the walk that found the string started from (moved or not), and
    /// it was not changed since except through slots this returned: no event was applied to
    /// it.
    pub(crate) unsafe fn slot<'r, R>(&self, root: &'r mut R) -> Option<&'r mut PartialString> {
        if !self.found {
            return None;
        }
        for g in &self.guards {
            // SAFETY: the value is as the walk left it, so each `Arc` on the way still holds
            // the allocation it had (see the caller's contract).
            if !unsafe { (g.unique)(g.data) } {
                return None;
            }
        }
        let base = match self.guards.last() {
            None => std::ptr::from_mut(root).cast::<u8>(),
            Some(g) => g.data.as_ptr(),
        };
        // SAFETY: the walk found a `PartialString` at `offset` inside the base
        // (`Hot::leaf` checks it lies within), and the value has not moved inside it since.
        // The base is the stream's root, borrowed mutably here, or the value of an `Arc` that
        // the stream alone holds (checked above) and reaches only through `root`: nothing
        // else reads or writes the slot while the result is borrowed.
        Some(unsafe { &mut *base.add(self.offset).cast::<PartialString>() })
    }
}
