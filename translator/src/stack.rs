//! Room on the stack for deep recursion. Every stage walks trees by
//! recursion (the parser, the checker, the commit of its trees, the
//! analysis, the lowering, naga's validator and writer), and applications
//! call `clBuildProgram` from threads with small stacks: a chain of a few
//! hundred `+` overflowed a 1 MiB one. Each recursive walk calls
//! [`guard`] where it goes one level deeper; when the stack has less than
//! [`RED_ZONE`] left, the rest of the walk runs on a new segment
//! allocated on the heap (the `stacker` crate, what rustc does), and goes
//! back to the thread's own stack when it returns. Nothing is shared
//! between threads: each keeps its stack's bounds in a thread-local.
//!
//! How deep a program may nest is bounded once, by the parser
//! (`parse::MAX_NESTING`), so the memory these segments take is bounded
//! too; the later stages only make room.

/// The stack a walk must have left before it goes one level deeper: more
/// than the deepest call chain between two guards, debug builds included
/// (a built-in's lowering, naga's writer of one statement).
pub(crate) const RED_ZONE: usize = 256 * 1024;

/// The size of each new segment.
pub(crate) const SEGMENT: usize = 4 * 1024 * 1024;

/// Runs `f`, on a new stack segment when this one is nearly used up.
#[inline]
pub(crate) fn guard<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}

/// How often the hottest walks (the parser's levels, the checker's
/// expressions), which count their own depth, make room: at one level in
/// this many. [`RED_ZONE`] covers the levels between, a check costing
/// more than the rest of a level of these walks does.
const EVERY: u32 = 4;

/// [`guard`] at one `depth` in [`EVERY`], `f` as it is at the others.
#[inline]
pub(crate) fn guard_at<R>(depth: u32, f: impl FnOnce() -> R) -> R {
    if depth.is_multiple_of(EVERY) {
        guard(f)
    } else {
        f()
    }
}

/// The stack naga's validator and writer, and the drop of a naga
/// function, take per level of block nesting, with a margin: a debug
/// build's frames are several times a release build's. Our lowering adds
/// a level here and there (a loop's condition, a `switch` over chosen
/// pointers), which the margin covers too.
const BYTES_PER_BLOCK_LEVEL: usize = if cfg!(debug_assertions) {
    // naga 30's `validate_block_impl` alone takes 38 KiB a level unoptimised.
    64 * 1024
} else {
    8 * 1024
};

/// Runs `f`, which walks blocks of statements nested `depth` deep by
/// recursion that cannot be guarded level by level (naga's), on a stack
/// with room for that: a new segment sized for it when this one has too
/// little left. The segment is only reserved; the pages the walk does not
/// reach are never touched.
pub(crate) fn for_block_nesting<R>(depth: usize, f: impl FnOnce() -> R) -> R {
    let need = depth.saturating_mul(BYTES_PER_BLOCK_LEVEL);
    stacker::maybe_grow(
        need.saturating_add(RED_ZONE),
        need.saturating_add(SEGMENT),
        f,
    )
}
