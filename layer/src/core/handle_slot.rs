//! Handle slots: the memory an application's `cl_*` handle points to.
//!
//! The ICD loader reads a handle's first word, the dispatch table, before
//! it calls into the ICD, so a handle must stay readable and keep that word
//! for as long as the application may present it, also after the object is
//! gone: a use after release must reach the ICD to be refused, rather than
//! crash in the loader on freed memory. An object lives in an `Arc` whose
//! memory goes back to the allocator with the last reference, so the handle
//! points not into the object but into a slot of memory that is never
//! freed. A slot names the kind of the live object it stands for and holds
//! a weak reference to it; when the object is destroyed (or its handle is
//! closed earlier, see [`close`]) the slot is marked dead, and it is reused
//! only after [`QUARANTINE`] other slots have died, so that a handle
//! released a moment ago is still recognised as dead.
//!
//! No call borrows an object without a reference of its own: checking a
//! handle upgrades the slot's weak reference ([`HandleSlot::live`]), which
//! fails once the strong count is zero, so an object that another thread's
//! last release destroys during the check is either kept alive for the
//! whole call or refused, never borrowed while it is torn down. The weak
//! reference keeps the `Arc`'s allocation (not the object, which is dropped
//! with the last strong reference) until the slot is reused, and is
//! type-erased (`dyn Any`), so the slot gives it back through the object's
//! own drop function and a check downcasts what it upgraded.
//!
//! A handle kept past that many later releases may come to stand for a new
//! object; the spec makes such use undefined, and it still cannot crash.

use std::any::Any;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock, Weak};

use opencl_sys::cl_icd::cl_icd_dispatch;

use crate::core::object::{ClObject, Object};

/// A weak reference to an `Object<T>` of any kind.
pub type AnyWeak = Weak<dyn Any + Send + Sync>;

/// Dead slots that stay dead before one is reused: this many of the most
/// recently released handles are always recognised. Each keeps its last
/// object's allocation (the `Object<T>` itself, not what it owns) until
/// it is reused.
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
    /// The object the slot was last bound to: the slot keeps this weak
    /// reference until it is bound again. None before the first binding.
    object: RwLock<Option<AnyWeak>>,
}

impl HandleSlot {
    fn new() -> Self {
        HandleSlot {
            dispatch: &crate::api::icd::DISPATCH,
            kind: AtomicU32::new(DEAD),
            object: RwLock::new(None),
        }
    }

    /// A new strong reference to the object this slot stands for, when it
    /// is a live object of kind `T` whose handle is open; `None` once its
    /// strong count has reached zero, also while it is being destroyed.
    pub fn live<T: ClObject>(&self) -> Option<Arc<Object<T>>> {
        if !std::ptr::eq(self.dispatch, &crate::api::icd::DISPATCH)
            || self.kind.load(Ordering::Acquire) != T::KIND as u32
        {
            return None;
        }
        let object = self
            .object
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()?
            .upgrade()?;
        // Of kind T unless the slot was bound again since its kind was
        // read; then this is another object, refused as well.
        object.downcast::<Object<T>>().ok()
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

/// A slot for `object`, of kind `kind`; the slot keeps the weak reference
/// until it is bound again.
pub fn bind(kind: u32, object: AnyWeak) -> &'static HandleSlot {
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
    // The previous object's allocation goes back now, outside the lock.
    let previous = slot
        .object
        .write()
        .unwrap_or_else(PoisonError::into_inner)
        .replace(object);
    drop(previous);
    slot.kind.store(kind, Ordering::Release);
    slot
}

/// Closes `slot`'s handle while its object may live on: the handle is
/// refused from now on. The slot is reused only after [`kill`].
pub fn close(slot: &'static HandleSlot) {
    slot.kind.store(DEAD, Ordering::Release);
}

/// Marks `slot` dead once its object is destroyed: its handle is refused
/// from now on, and the slot is reused after [`QUARANTINE`] more deaths.
/// Called once per binding.
pub fn kill(slot: &'static HandleSlot) {
    close(slot);
    pool().dead.push_back(slot);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::object::ObjectKind;
    use std::sync::atomic::{AtomicU64, AtomicUsize};
    use std::sync::Barrier;

    const INTACT: u64 = 0x0b1e_c7a1_11e0_5afe;

    /// An object that says whether it is still whole: its drop scribbles
    /// over `intact` before the memory goes, so a call that borrowed it
    /// past its destruction would read 0.
    struct Probe {
        intact: AtomicU64,
        drops: Arc<AtomicUsize>,
    }

    impl ClObject for Probe {
        // Any kind: the probe is only ever checked as a Probe.
        const KIND: ObjectKind = ObjectKind::Kernel;
        const INVALID: opencl_sys::cl_int = opencl_sys::CL_INVALID_KERNEL;
    }

    impl Drop for Probe {
        fn drop(&mut self) {
            self.intact.store(0, Ordering::SeqCst);
            self.drops.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn probe(drops: &Arc<AtomicUsize>) -> Arc<Object<Probe>> {
        Object::new(Probe {
            intact: AtomicU64::new(INTACT),
            drops: drops.clone(),
        })
    }

    /// A slot bound to `probe` directly, not through its handle: the
    /// object's destruction leaves the slot's kind alone, so only the
    /// upgrade can refuse it. Killed by the caller.
    fn slot_of(probe: &Arc<Object<Probe>>) -> &'static HandleSlot {
        let weak: AnyWeak = Arc::downgrade(probe) as Weak<Object<Probe>>;
        bind(Probe::KIND as u32, weak)
    }

    #[test]
    fn a_check_racing_the_last_release_keeps_the_object_or_refuses_it() {
        const THREADS: usize = 8;
        for _ in 0..100 {
            let drops = Arc::new(AtomicUsize::new(0));
            let probe = probe(&drops);
            let slot = slot_of(&probe);
            let start = Barrier::new(THREADS + 1);
            let refused = AtomicUsize::new(0);
            std::thread::scope(|scope| {
                for _ in 0..THREADS {
                    scope.spawn(|| {
                        start.wait();
                        // Checks until the object is gone; each success holds
                        // it a moment, during which it must stay whole.
                        while let Some(held) = slot.live::<Probe>() {
                            assert_eq!(held.intact.load(Ordering::SeqCst), INTACT);
                            std::hint::spin_loop();
                            assert_eq!(held.intact.load(Ordering::SeqCst), INTACT);
                        }
                        refused.fetch_add(1, Ordering::SeqCst);
                    });
                }
                start.wait();
                // The last reference goes while the checks run; whichever
                // check holds the object last destroys it.
                drop(probe);
            });
            assert_eq!(refused.load(Ordering::SeqCst), THREADS);
            assert_eq!(drops.load(Ordering::SeqCst), 1);
            assert!(slot.live::<Probe>().is_none());
            kill(slot);
        }
    }

    #[test]
    fn a_closed_handle_is_refused_while_the_object_lives() {
        let drops = Arc::new(AtomicUsize::new(0));
        let probe = probe(&drops);
        let slot = slot_of(&probe);
        assert!(slot.live::<Probe>().is_some_and(|held| held.is(&probe)));
        close(slot);
        assert!(slot.live::<Probe>().is_none());
        assert_eq!(drops.load(Ordering::SeqCst), 0);
        drop(probe);
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        assert!(slot.live::<Probe>().is_none());
        kill(slot);
    }

    #[test]
    fn a_slot_is_checked_as_the_kind_it_was_bound_with() {
        let probe = probe(&Arc::new(AtomicUsize::new(0)));
        let slot = slot_of(&probe);
        assert!(slot.live::<crate::core::event::Event>().is_none());
        assert!(slot.live::<Probe>().is_some());
        drop(probe);
        kill(slot);
    }

    #[test]
    fn a_handle_takes_one_weak_reference() {
        let probe = probe(&Arc::new(AtomicUsize::new(0)));
        // The object's own weak reference.
        assert_eq!(Arc::weak_count(&probe), 1);
        let handle = probe.handle();
        assert_eq!(probe.handle(), handle);
        assert_eq!(Arc::weak_count(&probe), 2);
    }
}
