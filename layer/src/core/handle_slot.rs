//! Handle slots: the memory an application's `cl_*` handle points to.
//!
//! The ICD loader reads a handle's first word, the dispatch table, before
//! it calls into the ICD, so a handle must stay readable and keep that word
//! for as long as the application may present it, also after the object is
//! gone: a use after release must reach the ICD to be refused, rather than
//! crash in the loader on freed memory. An object lives in an `Arc` whose
//! memory goes back to the allocator with the last reference, so the handle
//! points not into the object but into a slot of memory that is never
//! freed. A slot names the kind of the live object it stands for and where
//! that object is; when the object is destroyed the slot is marked dead,
//! and it is reused only after [`QUARANTINE`] other slots have died, so
//! that a handle released a moment ago is still recognised as dead.
//!
//! A handle kept past that many later releases may come to stand for a new
//! object; the spec makes such use undefined, and it still cannot crash.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicPtr, AtomicU32, Ordering};
use std::sync::{Mutex, PoisonError};

use opencl_sys::cl_icd::cl_icd_dispatch;

use crate::core::object::{ClObject, Object};

/// Dead slots that stay dead before one is reused: this many of the most
/// recently released handles are always recognised. 24 bytes each.
const QUARANTINE: usize = 16_384;

/// Slots are made this many at a time.
const CHUNK: usize = 1024;

/// The value of a dead slot's kind (no [`crate::core::object::ObjectKind`]
/// is 0).
const DEAD: u32 = 0;

/// What a handle points to.
#[repr(C)]
pub struct HandleSlot {
    /// Must be the first field: the loader routes every call through it.
    /// A `&'static` has the ABI of the loader's `*const _cl_icd_dispatch`.
    dispatch: &'static cl_icd_dispatch,
    /// The object's [`crate::core::object::ObjectKind`], or [`DEAD`].
    kind: AtomicU32,
    /// The `Object<T>` inside its `Arc` while it lives, else null.
    object: AtomicPtr<()>,
}

impl HandleSlot {
    fn new() -> Self {
        HandleSlot {
            dispatch: &crate::api::icd::DISPATCH,
            kind: AtomicU32::new(DEAD),
            object: AtomicPtr::new(std::ptr::null_mut()),
        }
    }

    /// The object this slot stands for, when it is a live object of kind
    /// `T`.
    pub fn live<T: ClObject>(&self) -> Option<*const Object<T>> {
        if !std::ptr::eq(self.dispatch, &crate::api::icd::DISPATCH)
            || self.kind.load(Ordering::Acquire) != T::KIND as u32
        {
            return None;
        }
        let object = self.object.load(Ordering::Acquire);
        (!object.is_null()).then_some(object.cast_const().cast())
    }

    /// The address the application knows the object by.
    pub fn handle(&'static self) -> *mut std::ffi::c_void {
        std::ptr::from_ref(self).cast_mut().cast()
    }
}

struct Pool {
    /// Dead slots, oldest death first.
    dead: VecDeque<&'static HandleSlot>,
    /// Slots never used yet.
    fresh: &'static [HandleSlot],
}

static POOL: Mutex<Pool> = Mutex::new(Pool {
    dead: VecDeque::new(),
    fresh: &[],
});

fn pool() -> std::sync::MutexGuard<'static, Pool> {
    // The pool is consistent between statements; a panic elsewhere while
    // it was locked leaves it usable.
    POOL.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A slot for a new object of kind `kind` at `object`.
pub fn bind(kind: u32, object: *const ()) -> &'static HandleSlot {
    let slot = {
        let mut pool = pool();
        if pool.dead.len() > QUARANTINE {
            pool.dead.pop_front()
        } else {
            None
        }
        .unwrap_or_else(|| {
            if pool.fresh.is_empty() {
                // Never freed: see the module documentation.
                pool.fresh = Box::leak((0..CHUNK).map(|_| HandleSlot::new()).collect());
            }
            let (first, rest) = pool.fresh.split_at(1);
            pool.fresh = rest;
            &first[0]
        })
    };
    slot.object.store(object.cast_mut(), Ordering::Release);
    slot.kind.store(kind, Ordering::Release);
    slot
}

/// Marks `slot` dead: its handle is refused from now on.
pub fn kill(slot: &'static HandleSlot) {
    slot.kind.store(DEAD, Ordering::Release);
    slot.object.store(std::ptr::null_mut(), Ordering::Release);
    pool().dead.push_back(slot);
}
