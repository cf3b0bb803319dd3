//! An append-only buffer shared by the versions of one growing part (a string's bytes, a
//! list's finished items, a map's finished entries): a snapshot of it is a reference count,
//! and a push is a write, whether or not the caller still holds older snapshots.
//!
//! Every handle sees the first `len` elements of its buffer, which never change once written.
//! A handle appends in place when nothing was written past what it sees: it claims the slots
//! after its `len` with one compare-and-swap on the buffer's count of written slots, so of
//! several handles that see the same elements (the stream's own and its snapshots' clones)
//! only the first to append writes there. Any other, or any append that does not fit, goes to
//! a new buffer of twice the size; the old buffer stays with the handles that still see it. So
//! an append costs amortized O(1) per element, a clone O(1), and held snapshots cost memory
//! in a geometric series (at most about twice the part's size), never a copy per push.
//!
//! `Arc::make_mut` on a `Vec` or `String` copies the whole part on every push while an older
//! snapshot is held: quadratic time and memory for a caller that keeps its snapshots (as
//! `Snapshots::collect` does), which this avoids.

use std::alloc::{self, Layout};
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::sync::atomic::{fence, AtomicUsize, Ordering};
use std::sync::Arc;

/// Whether `this` is the only handle on its allocation, found with plain loads: the stream
/// asks on every event, and `Arc::make_mut` and `Arc::get_mut` ask with a read-modify-write
/// (a locked instruction, the largest cost of a push when the value is a long text).
///
/// The crate never makes a `Weak` of these `Arc`s, so with `&mut` on the only strong handle
/// nobody can make another meanwhile. The acquire fence orders this thread's later writes
/// after everything a thread did before dropping the last other handle (its release
/// decrement, which the load read).
fn is_unique<T>(this: &mut Arc<T>) -> bool {
    let unique = Arc::strong_count(this) == 1 && Arc::weak_count(this) == 0;
    if unique {
        fence(Ordering::Acquire);
    }
    unique
}

/// `Arc::make_mut` without a read-modify-write when `this` is the only handle.
pub(crate) fn make_mut<T: Clone>(this: &mut Arc<T>) -> &mut T {
    if is_unique(this) {
        // SAFETY: `this` is the only handle on the allocation (see `is_unique`) and is
        // borrowed mutably for the returned lifetime, so nothing else reads or writes the
        // value meanwhile; `Arc::as_ptr` points at the value inside the allocation.
        return unsafe { &mut *Arc::as_ptr(this).cast_mut() };
    }
    Arc::make_mut(this)
}

/// The storage: `cap` slots, the first `filled` written.
struct Buf<T> {
    ptr: NonNull<T>,
    cap: usize,
    /// How many slots are claimed, each written by the handle that claimed it before any
    /// other handle can see it: what `Drop` drops.
    filled: AtomicUsize,
    _owns: PhantomData<T>,
}

// SAFETY: a `Buf` owns its `T`s, like a `Vec<T>`. Handles on several threads only read the
// written prefix they counted, and a slot is written only by the one handle that claimed it,
// past every prefix any handle counts (see the module documentation), so sharing one across
// threads is sound when `T` is.
unsafe impl<T: Send + Sync> Send for Buf<T> {}
// SAFETY: as above.
unsafe impl<T: Send + Sync> Sync for Buf<T> {}

impl<T> Buf<T> {
    fn with_capacity(cap: usize) -> Buf<T> {
        if cap == 0 || size_of::<T>() == 0 {
            return Buf {
                ptr: NonNull::dangling(),
                cap: if size_of::<T>() == 0 { usize::MAX } else { 0 },
                filled: AtomicUsize::new(0),
                _owns: PhantomData,
            };
        }
        let layout = Layout::array::<T>(cap).expect("capacity overflow");
        // SAFETY: the layout has a non-zero size (`cap > 0`, `T` not zero-sized).
        let raw = unsafe { alloc::alloc(layout) }.cast::<T>();
        let ptr = NonNull::new(raw).unwrap_or_else(|| alloc::handle_alloc_error(layout));
        Buf {
            ptr,
            cap,
            filled: AtomicUsize::new(0),
            _owns: PhantomData,
        }
    }

    /// Claims the `n` slots from `at` for the caller to write, if they are the next ones
    /// (nothing was claimed past `at`) and fit.
    fn claim(&self, at: usize, n: usize) -> bool {
        self.cap - at >= n
            && (self.filled)
                .compare_exchange(at, at + n, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
    }

    /// Keeps the first `keep` elements (dropping any written after them) in an allocation of
    /// `cap >= keep` slots, reallocated in place.
    fn grow_to(&mut self, keep: usize, cap: usize) {
        let filled = *self.filled.get_mut();
        debug_assert!(keep <= filled && keep <= cap);
        // SAFETY: the slots from `keep` to `filled` are written; they are dropped and then
        // forgotten (`filled` is set to `keep` before anything can panic in between).
        unsafe {
            *self.filled.get_mut() = keep;
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr().add(keep),
                filled - keep,
            ));
        }
        if size_of::<T>() == 0 || cap <= self.cap {
            return;
        }
        let new_layout = Layout::array::<T>(cap).expect("capacity overflow");
        let raw = if self.cap == 0 {
            // SAFETY: the layout has a non-zero size (`cap > 0`, `T` not zero-sized).
            unsafe { alloc::alloc(new_layout) }
        } else {
            let old_layout = Layout::array::<T>(self.cap).expect("allocated with it");
            // SAFETY: `ptr` was allocated with `old_layout` by the global allocator, and the
            // new size is non-zero and fits `isize` (`Layout::array` checked it).
            unsafe {
                alloc::realloc(
                    self.ptr.as_ptr().cast::<u8>(),
                    old_layout,
                    new_layout.size(),
                )
            }
        };
        self.ptr =
            NonNull::new(raw.cast::<T>()).unwrap_or_else(|| alloc::handle_alloc_error(new_layout));
        self.cap = cap;
    }

    /// Writes `item` into slot `at` of a buffer no other handle refers to yet, in order.
    ///
    /// # Safety
    /// `at < cap`, `at == filled`, and the buffer is not shared.
    unsafe fn write_fresh(&self, at: usize, item: T) {
        // SAFETY: the caller's contract: the slot is in the allocation and nothing reads it.
        unsafe { self.ptr.as_ptr().add(at).write(item) };
        self.filled.store(at + 1, Ordering::Relaxed);
    }
}

impl<T> Drop for Buf<T> {
    fn drop(&mut self) {
        let filled = *self.filled.get_mut();
        // SAFETY: the first `filled` slots are written, nothing else refers to them now, and
        // the allocation is the one `with_capacity` made for `cap` slots.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr(),
                filled,
            ));
            if self.cap != 0 && size_of::<T>() != 0 {
                let layout = Layout::array::<T>(self.cap).expect("allocated with it");
                alloc::dealloc(self.ptr.as_ptr().cast::<u8>(), layout);
            }
        }
    }
}

/// One version of a growing sequence: the first `len` elements of a shared buffer (none
/// until the first append: an empty part allocates nothing).
pub(crate) struct Shared<T> {
    buf: Option<Arc<Buf<T>>>,
    len: usize,
}

impl<T> Default for Shared<T> {
    fn default() -> Self {
        Shared { buf: None, len: 0 }
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared {
            buf: self.buf.clone(),
            len: self.len,
        }
    }
}

impl<T> Shared<T> {
    /// The elements this version sees.
    pub(crate) fn as_slice(&self) -> &[T] {
        let Some(buf) = &self.buf else { return &[] };
        // SAFETY: the first `len` slots were written before this handle (or the one it was
        // cloned from) counted them, and are never written again: a slot is written once, by
        // the handle that claimed it at `filled`, which is at least every handle's `len`.
        unsafe { std::slice::from_raw_parts(buf.ptr.as_ptr(), self.len) }
    }

    /// Where slot `at` of the buffer is.
    fn slot(&self, at: usize) -> *mut T {
        let buf = self.buf.as_ref().expect("claimed slots are in a buffer");
        // SAFETY: callers ask only for claimed slots, which are in the allocation.
        unsafe { buf.ptr.as_ptr().add(at) }
    }

    /// Claims the `more` slots after `len` for this handle to write: in place when nothing
    /// was claimed past `len` and they fit, else in a new buffer (twice as large) holding
    /// copies of the elements this handle sees, made by `copy` (which writes them with
    /// `write_fresh`, or sets `filled` itself).
    fn claim(&mut self, more: usize, copy: impl FnOnce(&[T], &Buf<T>)) {
        if let Some(buf) = self.buf.as_mut() {
            if is_unique(buf) {
                // No other handle: nobody claims meanwhile, so plain loads and stores do.
                let filled = buf.filled.load(Ordering::Relaxed);
                if filled == self.len && buf.cap - self.len >= more {
                    buf.filled.store(self.len + more, Ordering::Relaxed);
                    return;
                }
            }
        }
        let cap = match &self.buf {
            Some(buf) if buf.claim(self.len, more) => return,
            Some(buf) => buf.cap,
            None => 0,
        };
        let need = self.len.checked_add(more).expect("capacity overflow");
        // At least 64 bytes: a short string grown a few bytes at a time reallocates once.
        let least = (64 / size_of::<T>().max(1)).max(4);
        let cap = need.max(cap.saturating_mul(2)).max(least);
        if let Some(old) = self.buf.as_mut().and_then(Arc::get_mut) {
            // No other handle sees the buffer: it grows in place, as a `Vec` does (a large
            // one is remapped by the allocator, not copied and faulted in again).
            old.grow_to(self.len, cap);
            let claimed = old.claim(self.len, more);
            debug_assert!(claimed, "a grown buffer has room past its elements");
            return;
        }
        let fresh = Buf::with_capacity(cap);
        copy(self.as_slice(), &fresh);
        let claimed = fresh.claim(self.len, more);
        debug_assert!(claimed, "a fresh buffer has room past the copies");
        self.buf = Some(Arc::new(fresh));
    }
}

impl<T: Clone> Shared<T> {
    /// Appends `item`.
    pub(crate) fn push(&mut self, item: T) {
        self.claim(1, |seen, fresh| {
            for (i, x) in seen.iter().enumerate() {
                // SAFETY: `fresh` is new (no handle refers to it), has room for `seen` and
                // one more, and is written in order.
                unsafe { fresh.write_fresh(i, x.clone()) };
            }
        });
        // SAFETY: `claim` gave this handle the slot at `len` of its buffer: in the
        // allocation, seen by no handle, and written only here.
        unsafe { self.slot(self.len).write(item) };
        self.len += 1;
    }
}

impl<T: Copy> Shared<T> {
    /// Appends a copy of `more`.
    pub(crate) fn extend_copied(&mut self, more: &[T]) {
        if more.is_empty() {
            return;
        }
        self.claim(more.len(), |seen, fresh| {
            // SAFETY: `fresh` is new (no handle refers to it) and has room for `seen`.
            unsafe {
                std::ptr::copy_nonoverlapping(seen.as_ptr(), fresh.ptr.as_ptr(), seen.len());
            }
            fresh.filled.store(seen.len(), Ordering::Relaxed);
        });
        // SAFETY: `claim` gave this handle the `more.len()` slots from `len` of its buffer:
        // in the allocation, seen by no handle, and written only here.
        unsafe { std::ptr::copy_nonoverlapping(more.as_ptr(), self.slot(self.len), more.len()) };
        self.len += more.len();
    }
}

/// A growing string: a [`Shared`] buffer of bytes that only whole `&str`s are appended to.
#[derive(Clone, Default)]
pub(crate) struct SharedStr(Shared<u8>);

impl SharedStr {
    /// The text this version sees.
    pub(crate) fn as_str(&self) -> &str {
        // SAFETY: only whole `&str`s are appended (`push_str`), so every version's bytes are
        // a concatenation of UTF-8 strings.
        unsafe { std::str::from_utf8_unchecked(self.0.as_slice()) }
    }

    /// Appends `more`.
    pub(crate) fn push_str(&mut self, more: &str) {
        self.0.extend_copied(more.as_bytes());
    }
}

/// The text of a partial string: kept inline while short, complete or growing (most
/// strings a chunk cuts in two are short: names, ids; they complete with no allocation and
/// no reference count to drop); longer, one allocation when read whole, else the bytes of a
/// shared append-only buffer (only whole `&str`s are appended, so they are always UTF-8).
#[derive(Clone)]
pub(crate) enum Text {
    Small(SmallStr),
    Whole(Arc<str>),
    Growing(SharedStr),
}

impl Default for Text {
    fn default() -> Text {
        Text::Growing(SharedStr::default())
    }
}

/// A short string kept inline, complete or still growing: a snapshot copies it instead of
/// counting a reference to a heap allocation (a locked instruction on clone and on drop),
/// and reading it allocates nothing.
///
/// Three aligned words: 16 bytes, then the length as a whole word. The length's unused
/// values are a niche, so the partial string's `Text` (this or a two-word variant) and an
/// `Option` of it stay three words, and the tag lives in that word. Every part of the value
/// is then a whole word: a snapshot copies it in word moves. With 22 bytes and a one-byte
/// length the compiler copied the payload in overlapping odd-sized pieces through the
/// stack and read them back as words, stalling store forwarding on every snapshot (a prose
/// reply streamed 7% faster with this layout; dense records with short names the same).
#[derive(Clone, Copy)]
#[repr(C, align(8))]
pub(crate) struct SmallStr {
    bytes: [u8; SmallStr::CAP],
    len: Len,
}

/// A [`SmallStr`]'s length, `0..=SmallStr::CAP`, and whether it is still growing (the
/// same lengths plus [`Len::GROWING`]): an enum, so that the other values are a niche, a
/// whole word wide (see [`SmallStr`]).
#[derive(Clone, Copy)]
#[repr(u64)]
#[rustfmt::skip]
enum Len {
    L0, L1, L2, L3, L4, L5, L6, L7, L8, L9, L10, L11,
    L12, L13, L14, L15, L16,
    G0 = 32, G1, G2, G3, G4, G5, G6, G7, G8, G9, G10, G11,
    G12, G13, G14, G15, G16,
}

impl Len {
    /// What a growing length adds to the complete one.
    const GROWING: u64 = 32;

    /// By length: complete, and growing.
    #[rustfmt::skip]
    const ALL: [[Len; SmallStr::CAP + 1]; 2] = {
        use Len::*;
        [
            [
                L0, L1, L2, L3, L4, L5, L6, L7, L8, L9, L10, L11,
                L12, L13, L14, L15, L16,
            ],
            [
                G0, G1, G2, G3, G4, G5, G6, G7, G8, G9, G10, G11,
                G12, G13, G14, G15, G16,
            ],
        ]
    };

    /// `len` bytes, growing or complete, if it fits.
    fn of(len: usize, growing: bool) -> Option<Len> {
        Len::ALL[usize::from(growing)].get(len).copied()
    }

    fn len(self) -> usize {
        (self as u64 % Len::GROWING) as usize
    }

    fn growing(self) -> bool {
        self as u64 >= Len::GROWING
    }
}

impl SmallStr {
    /// The longest text kept inline (so that a partial string stays three words).
    pub(crate) const CAP: usize = 16;

    /// `s` inline, complete or still `growing`, if it fits.
    pub(crate) fn new(s: &str, growing: bool) -> Option<SmallStr> {
        let len = Len::of(s.len(), growing)?;
        // Read as two words in registers and stored as two words: a copy of a few bytes
        // (`memcpy`) stored them in pieces that the next read of the words had to wait for.
        let b = s.as_bytes();
        let (lo, hi) = b.split_at(b.len().min(8));
        let mut bytes = [0; Self::CAP];
        bytes[..8].copy_from_slice(&word(lo).to_le_bytes());
        bytes[8..].copy_from_slice(&word(hi).to_le_bytes());
        Some(SmallStr { bytes, len })
    }

    /// Appends `more` if the whole still fits, and the string is growing from then on;
    /// `false` (and nothing changed) if it does not fit.
    pub(crate) fn push(&mut self, more: &str) -> bool {
        let at = self.len.len();
        let Some(len) = Len::of(at + more.len(), true) else {
            return false;
        };
        self.bytes[at..at + more.len()].copy_from_slice(more.as_bytes());
        self.len = len;
        true
    }

    /// Whether the string is still growing.
    pub(crate) fn is_growing(&self) -> bool {
        self.len.growing()
    }

    /// The text.
    pub(crate) fn as_str(&self) -> &str {
        let bytes = &self.bytes[..self.len.len()];
        // SAFETY: `new` copied the bytes of a whole `&str`, and `push` appends whole `&str`s
        // after them (`short_strings_of_every_length_read_back` checks the copy): UTF-8.
        unsafe { std::str::from_utf8_unchecked(bytes) }
    }
}

/// Up to eight bytes as a little-endian word (zeros past them), read with at most three
/// loads whatever their number.
fn word(b: &[u8]) -> u64 {
    let n = b.len();
    let at = |i: usize| u64::from(b[i]) << (8 * i);
    let four = |i: usize| u64::from(u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]));
    match n {
        0 => 0,
        // Overlapping reads put the same byte at the same place twice.
        1..=3 => at(0) | at(n / 2) | at(n - 1),
        4..=7 => four(0) | four(n - 4) << (8 * (n - 4)),
        _ => four(0) | four(4) << 32,
    }
}

#[cfg(test)]
mod tests {
    use super::Shared;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[test]
    fn short_strings_of_every_length_read_back() {
        let text = "ab\u{e9}cdefghijkl\u{1F600}mnop";
        for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
            let s = &text[..end];
            match super::SmallStr::new(s, false) {
                Some(small) => assert_eq!(small.as_str(), s),
                None => assert!(s.len() > super::SmallStr::CAP, "{s:?} fits"),
            }
            // Grown piece by piece, it reads the same while it fits.
            let mut grown = super::SmallStr::new("", true).unwrap();
            let fits = s.chars().all(|c| grown.push(c.encode_utf8(&mut [0; 4])));
            assert_eq!(fits, s.len() <= super::SmallStr::CAP, "{s:?}");
            if fits {
                assert_eq!(grown.as_str(), s);
                assert!(grown.is_growing());
            }
            let growing = super::SmallStr::new(s, true);
            let growing = growing.as_ref().map(|g| (g.as_str(), g.is_growing()));
            assert_eq!(growing, fits.then_some((s, true)));
        }
    }

    #[test]
    fn versions_keep_what_they_saw_while_the_owner_appends() {
        let mut head = Shared::<u8>::default();
        let mut seen = Vec::new();
        for i in 0..1000u32 {
            head.extend_copied(&[(i % 251) as u8, 7]);
            seen.push(head.clone());
        }
        for (i, v) in seen.iter().enumerate() {
            assert_eq!(v.as_slice().len(), 2 * (i + 1));
            assert_eq!(v.as_slice()[2 * i], (i % 251) as u8);
        }
        // An older version that appends gets its own buffer: the head and the other versions
        // are unchanged.
        let mut fork = seen[10].clone();
        fork.extend_copied(b"xyz");
        assert_eq!(&fork.as_slice()[22..], b"xyz");
        assert_eq!(seen[11].as_slice()[22], 11);
        head.extend_copied(b"!");
        assert_eq!(head.as_slice().last(), Some(&b'!'));
    }

    #[test]
    fn appends_reallocate_a_logarithmic_number_of_times() {
        let mut head = Shared::<u8>::default();
        let mut buffers = 0;
        let mut last = std::ptr::null();
        for _ in 0..100_000 {
            head.extend_copied(b"0123456789abcdef");
            let now = head.as_slice().as_ptr();
            if now != last {
                buffers += 1;
                last = now;
            }
        }
        assert_eq!(head.as_slice().len(), 1_600_000);
        assert!(buffers <= 20, "{buffers} buffers");
    }

    /// Counts live values, to check that every element written is dropped once.
    struct Counted(Arc<AtomicUsize>);
    impl Clone for Counted {
        fn clone(&self) -> Counted {
            Counted::new(&self.0)
        }
    }
    impl Counted {
        fn new(live: &Arc<AtomicUsize>) -> Counted {
            live.fetch_add(1, Ordering::SeqCst);
            Counted(Arc::clone(live))
        }
    }
    impl Drop for Counted {
        fn drop(&mut self) {
            self.0.fetch_sub(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn every_element_is_dropped_once() {
        let live = Arc::new(AtomicUsize::new(0));
        {
            let mut head = Shared::default();
            let mut versions = Vec::new();
            for i in 0..100 {
                head.push(Counted::new(&live));
                if i % 7 == 0 {
                    versions.push(head.clone());
                }
            }
            let mut fork = versions[3].clone();
            fork.push(Counted::new(&live));
            // The head's 100, and the copies in the older buffers the versions keep alive.
            assert!(live.load(Ordering::SeqCst) > 100);
            assert_eq!(fork.as_slice().len(), 23);
        }
        assert_eq!(live.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn a_handle_left_alone_drops_what_a_dropped_version_wrote_past_it() {
        let live = Arc::new(AtomicUsize::new(0));
        let mut head = Shared::default();
        for _ in 0..4 {
            head.push(Counted::new(&live));
        }
        // A version appends in place past the head's elements, then goes away: the head is
        // the buffer's only handle again, with a written slot it does not see.
        let mut fork = head.clone();
        fork.push(Counted::new(&live));
        drop(fork);
        assert_eq!(live.load(Ordering::SeqCst), 5);
        // The head's next append drops that slot and writes its own there.
        head.push(Counted::new(&live));
        assert_eq!(live.load(Ordering::SeqCst), 5);
        assert_eq!(head.as_slice().len(), 5);
        // Growing in place many times keeps every element once.
        for _ in 0..1000 {
            head.push(Counted::new(&live));
        }
        assert_eq!(live.load(Ordering::SeqCst), 1005);
        drop(head);
        assert_eq!(live.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn versions_are_read_on_other_threads_while_the_owner_appends() {
        let mut head = Shared::<u64>::default();
        let (tx, rx) = std::sync::mpsc::channel::<Shared<u64>>();
        let reader = std::thread::spawn(move || {
            let mut checked = 0;
            for version in rx {
                let items = version.as_slice();
                assert!(items.iter().enumerate().all(|(i, &x)| x == i as u64));
                checked += 1;
            }
            checked
        });
        for i in 0..20_000u64 {
            head.extend_copied(&[i]);
            if i % 3 == 0 {
                tx.send(head.clone()).unwrap();
            }
        }
        drop(tx);
        assert_eq!(reader.join().unwrap(), 6_667);
    }

    #[test]
    fn zero_sized_elements() {
        let mut head = Shared::<()>::default();
        for _ in 0..10 {
            head.push(());
        }
        let old = head.clone();
        head.push(());
        assert_eq!((old.as_slice().len(), head.as_slice().len()), (10, 11));
    }
}
