//! The string the reader is inside, reached without walking down from the root.
//!
//! A long reply is mostly the text of a few strings, and most chunks fall inside one: they
//! add text to one string and change nothing else. Such a chunk cost the reader's state
//! machine and a walk from the root of the partial value down to the string (a key lookup
//! per object, a uniqueness check per list), more than the rest of the push.
//!
//! So the walk for a `Grow` event leaves a [`Trail`]: where the string's slot is, relative
//! to the root or to the innermost shared allocation (an `Arc`) on the way, and those
//! allocations. The stream keeps it as a [`Hot`] string. A later chunk that only grows the
//! same string (no quote, no backslash; the reader says whether it stands at its end) is
//! appended there directly if each of those allocations is still the stream's alone: then
//! nothing but the stream can see the slot (a snapshot that shares a part holds its `Arc`),
//! and nothing moved it, since only events change the value's shape and every other event
//! drops the hot string.
//!
//! Which walks leave a trail: each level that takes a step of the path (a derived struct
//! twin, a list) checks that it is at the address its parent handed down
//! ([`Feed::trail_enter`](super::Feed::trail_enter)) and hands down its child's
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

/// The most shared allocations a hot string may sit under (lists of lists of ...).
const MAX_GUARDS: usize = 8;

/// No address: what a level expects once its trail was taken (nothing is handed down).
const NOWHERE: usize = usize::MAX;

/// A shared allocation on the way to the string.
#[derive(Clone, Copy)]
struct Guard {
    /// The value inside the `Arc` (`Arc::as_ptr`).
    data: NonNull<u8>,
    size: usize,
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

/// Where the slot is measured from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Base {
    /// The root value (the slot is inline in it: no list on the way).
    Root,
    /// The value inside the innermost guard.
    Guard,
}

/// What one `Grow` event's walk records (see the module documentation).
pub(crate) struct Trail {
    root: usize,
    root_size: usize,
    /// The address the next level that takes a step must be at.
    expect: usize,
    broken: bool,
    guards: [Option<Guard>; MAX_GUARDS],
    len: usize,
    /// The slot's offset from its base.
    leaf: Option<(Base, usize)>,
}

impl Trail {
    /// A trail from `root`, the stream's value (`None` before it has one).
    pub(crate) fn new<R>(root: Option<&R>) -> Trail {
        let root = root.map_or(NOWHERE, |r| std::ptr::from_ref(r) as usize);
        Trail {
            root,
            root_size: size_of::<R>(),
            expect: root,
            broken: false,
            guards: [None; MAX_GUARDS],
            len: 0,
            leaf: None,
        }
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
        let Some(data) = NonNull::new(Arc::as_ptr(arc).cast::<u8>().cast_mut()) else {
            self.broken = true;
            return;
        };
        match self.guards.get_mut(self.len) {
            Some(slot) => {
                *slot = Some(Guard {
                    data,
                    size: size_of::<T>(),
                    unique: unique::<T>,
                });
                self.len += 1;
            }
            None => self.broken = true,
        }
    }

    /// The string's slot is at `at`.
    pub(crate) fn leaf(&mut self, at: usize) {
        if self.broken {
            return;
        }
        let (base, start, size) = match self.len.checked_sub(1) {
            None => (Base::Root, self.root, self.root_size),
            Some(last) => match self.guards[last] {
                Some(g) => (Base::Guard, g.data.as_ptr() as usize, g.size),
                None => return,
            },
        };
        let slot = size_of::<Option<PartialString>>();
        let offset = at.wrapping_sub(start);
        if start != NOWHERE && at >= start && offset + slot <= size {
            self.leaf = Some((base, offset));
        }
    }

    /// The hot string this walk found, if it reached one; `string` is where it starts in
    /// the reply.
    pub(crate) fn finish(self, string: usize) -> Option<Hot> {
        let (base, offset) = self.leaf?;
        Some(Hot {
            guards: self.guards,
            len: self.len,
            base,
            offset,
            string,
        })
    }
}

/// The string the reader is inside, as the last event left it (see the module
/// documentation).
pub(crate) struct Hot {
    guards: [Option<Guard>; MAX_GUARDS],
    len: usize,
    base: Base,
    offset: usize,
    /// Where the string starts in the reply (which string it is).
    pub(crate) string: usize,
}

// SAFETY: the pointers are into the value the stream owns (its root, or allocations it holds
// handles on), and are followed only through `&mut` on the stream (`Hot::slot`), as the
// value itself is reached; they are never followed through a shared `&Hot`.
unsafe impl Send for Hot {}
// SAFETY: as above; `&Hot` gives access to nothing.
unsafe impl Sync for Hot {}

impl Hot {
    /// The string's slot in `root`, if the stream alone can see it (each shared allocation
    /// on the way has no other handle).
    ///
    /// # Safety
    /// `root` is the value the walk that found this string started from (moved or not), and
    /// it was not changed since except through slots this returned: no event was applied to
    /// it.
    pub(crate) unsafe fn slot<'r, R>(
        &self,
        root: &'r mut R,
    ) -> Option<&'r mut Option<PartialString>> {
        debug_assert!(self.base != Base::Root || self.len == 0);
        let guards = self.guards[..self.len].iter().flatten();
        for g in guards {
            // SAFETY: the value is as the walk left it, so each `Arc` on the way still holds
            // the allocation it had (see the caller's contract).
            if !unsafe { (g.unique)(g.data) } {
                return None;
            }
        }
        let base = match self.base {
            Base::Root => std::ptr::from_mut(root).cast::<u8>(),
            Base::Guard => self.guards[self.len.checked_sub(1)?]?.data.as_ptr(),
        };
        // SAFETY: the walk found an `Option<PartialString>` at `offset` inside the base
        // (`Trail::leaf` checks it lies within), and the value has not moved inside it since.
        // The base is the stream's root, borrowed mutably here, or the value of an `Arc` that
        // the stream alone holds (checked above) and reaches only through `root`: nothing
        // else reads or writes the slot while the result is borrowed.
        Some(unsafe { &mut *base.add(self.offset).cast::<Option<PartialString>>() })
    }
}
