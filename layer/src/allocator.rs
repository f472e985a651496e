//! The ICD's Rust heap: mimalloc, entered through its unaligned fast path.
//!
//! Building a program allocates and frees tens of thousands of small AST,
//! HIR and token nodes; mimalloc's per-thread free lists make that about a
//! quarter cheaper than glibc malloc, whose heap trimming also page-faults
//! the same memory back in on every build. The host application's own
//! `malloc` is untouched. The mature v2 line is used, with local-dynamic TLS
//! because the loader `dlopen`s the ICD (the initial-exec model can run out
//! of static TLS there; v3 crashed in the test suite).
//!
//! `mimalloc::MiMalloc` sends every request through `mi_malloc_aligned`,
//! whose alignment checks cost as much as the allocation itself. Nearly
//! every Rust allocation asks for 16 bytes of alignment or less, which
//! `mi_malloc` guarantees anyway, so those take the plain entry points.

use libmimalloc_sys as mi;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// What `mi_malloc` aligns every block to (`MI_MAX_ALIGN_SIZE`).
const MALLOC_ALIGNMENT: usize = 16;

pub struct Heap;

// SAFETY: every method forwards to mimalloc, which returns blocks of at
// least the requested size; the plain entry points are used only when the
// requested alignment is one mimalloc gives every block, and blocks from
// either family are freed and resized by `mi_free`/`mi_realloc*`, which
// accept both.
unsafe impl GlobalAlloc for Heap {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl; `layout.size()` is non-zero per GlobalAlloc.
        unsafe {
            if layout.align() <= MALLOC_ALIGNMENT {
                mi::mi_malloc(layout.size()) as *mut u8
            } else {
                mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        unsafe {
            if layout.align() <= MALLOC_ALIGNMENT {
                mi::mi_zalloc(layout.size()) as *mut u8
            } else {
                mi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from this allocator, i.e. from mimalloc.
        unsafe { mi::mi_free(ptr as *mut c_void) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from this allocator with `layout`.
        unsafe {
            if layout.align() <= MALLOC_ALIGNMENT {
                mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
            } else {
                mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
            }
        }
    }
}
