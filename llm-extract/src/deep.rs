//! Deep input never aborts: the few places that recurse once per level of nesting run on a
//! call stack grown on the heap when the thread's own runs low.
//!
//! The parser and the tree's own walks (`Node::to_value`, `into_owned`, its `Drop`) use an
//! explicit stack and need none of this. What recurses is reading into a type: a recursive
//! derived type (`struct Comment { replies: Vec<Comment> }`) calls `from_node` once per level,
//! through [`Context::at_field`](crate::coerce::Context::at_field) and its siblings, which is
//! where the stack is checked. A value nested 100,000 levels deep is read on any thread,
//! including a test thread's 2 MiB stack; what bounds the depth is `Extractor::max_depth`, a
//! policy, not the stack size.

/// Room that must be left on the stack before one more level is read. Between two checks a
/// reader runs a bounded amount of code (one derived `from_node`, the field helpers, a
/// validation rule), which fits in this with a wide margin even in a debug build.
const RED_ZONE: usize = 256 * 1024;

/// Size of each stack segment allocated when the red zone is reached. Memory is committed
/// only as the segment is used; it is freed when the level that needed it returns.
const SEGMENT: usize = 4 * 1024 * 1024;

/// Runs `f` where at least [`RED_ZONE`] bytes of stack are left: on the current stack when
/// they are there (one comparison), else on a fresh segment.
#[inline]
pub(crate) fn grow<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}

/// Whether at least [`RED_ZONE`] bytes of stack are left (or the stack's size is unknown),
/// for readers that give up rather than grow the stack (the direct path).
#[inline]
pub(crate) fn stack_left() -> bool {
    stacker::remaining_stack().is_none_or(|left| left >= RED_ZONE)
}

/// Stack a value's drop glue needs per level of the tree it was read from, with a wide margin:
/// a debug build's `drop_in_place` frames for `Vec<Value>` nesting take about a quarter of 512
/// bytes, and a value may nest up to three levels per level of its tree (a single value read
/// as a list of lists).
const DROP_BYTES_PER_LEVEL: usize = 1024;

/// Trees up to this depth give values whose drop fits on any thread's stack without growing it.
pub(crate) const SHALLOW: usize = 1024;

/// Drops a value read from a tree `depth` levels deep (see `Node::drop_depth`) that the caller
/// does not return (a candidate that lost, a reading that failed). Drop glue recurses once per
/// level: `serde_json::Value`'s does, and so does a derived type's. Past [`SHALLOW`] levels
/// (only when `max_depth` was raised) it runs on a stack sized for that depth, allocated only
/// if the current one is too small; memory is committed only as the drop uses it.
pub(crate) fn discard<T>(value: T, depth: usize) {
    on_stack(depth, DROP_BYTES_PER_LEVEL, || drop(value));
}

/// Stack a `serde_json::Value`'s `clone` needs per level of nesting, with a margin: a debug
/// build's frames for an array take about 1,100 bytes a level.
const CLONE_BYTES_PER_LEVEL: usize = 2048;

/// Runs `f`, which clones and drops `serde_json::Value`s nested up to `depth` levels (each
/// recursing once per level: a tool call's arguments), on a stack with room for that depth:
/// the current one up to [`SHALLOW`] levels or when it has the room, else one allocated for it
/// (memory is committed only as it is used).
pub(crate) fn for_depth<R>(depth: usize, f: impl FnOnce() -> R) -> R {
    on_stack(depth, CLONE_BYTES_PER_LEVEL, f)
}

/// The most stack reserved for one deep read or drop: room for about 500,000 levels of a
/// value's clone. [`text_depth`] bounds a value's depth by the brackets its text opens, which
/// for a long but shallow reply (millions of `[]` side by side, read with `max_depth` raised)
/// would ask for more address space than the system maps, and the allocation would fail.
/// Values nested deeper than this, with `max_depth` raised past it, are not supported.
const MAX_STACK: usize = 1 << 30;

fn on_stack<R>(depth: usize, per_level: usize, f: impl FnOnce() -> R) -> R {
    if depth <= SHALLOW {
        return f();
    }
    let needed = stack_for(depth, per_level);
    stacker::maybe_grow(needed, needed, f)
}

/// The stack to reserve for `depth` levels of `per_level` bytes each, with a margin, at most
/// [`MAX_STACK`].
fn stack_for(depth: usize, per_level: usize) -> usize {
    depth
        .saturating_add(64)
        .saturating_mul(per_level)
        .min(MAX_STACK)
}

/// The most a value read from `text` under `max_depth` can nest, for [`discard`] where its tree
/// is gone: `max_depth` up to [`SHALLOW`], else no more than the brackets the text opens.
pub(crate) fn text_depth(text: &str, max_depth: usize) -> usize {
    if max_depth <= SHALLOW {
        return max_depth;
    }
    let opened = memchr::memchr2_iter(b'[', b'{', text.as_bytes()).count();
    max_depth.min(opened)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stack_reserved_grows_with_depth_up_to_a_bound() {
        assert_eq!(stack_for(100_000, CLONE_BYTES_PER_LEVEL), 100_064 * 2048);
        // A long shallow reply read with `max_depth` raised counts millions of brackets.
        assert_eq!(stack_for(20_000_000, CLONE_BYTES_PER_LEVEL), MAX_STACK);
        assert_eq!(stack_for(usize::MAX, DROP_BYTES_PER_LEVEL), MAX_STACK);
    }
}
