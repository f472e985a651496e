//! What every OpenCL object shares, so that a `cl_*` handle can be given
//! to the ICD loader and recognised when it comes back.
//!
//! Each object lives in an `Arc<Object<T>>` (rusticl's pattern). Its handle
//! is the address of a [`HandleSlot`] that stands for it: the slot starts
//! with the ICD dispatch table pointer, which the loader reads to route
//! every call, then the object's kind, which [`crate::api::handle`] checks
//! before trusting a handle. The slot outlives the object and is marked
//! dead when the object is destroyed (see [`crate::core::handle_slot`]),
//! or at the application's last release for the kinds no other object
//! hands out ([`ObjectKind::handle_outlives_last_release`]). The slot holds
//! a weak reference, and every entry point that checks a handle holds a
//! strong one for its duration, so no call borrows an object that another
//! thread is destroying.
//! The slot is taken when the handle is first asked for, so objects the
//! application never sees (the event of a command enqueued without one)
//! take none, and do not push recently released handles out of the
//! slots' quarantine.
//!
//! The Arc's strong count keeps the object alive for the application and for
//! internal users (a queue keeps its context, a command keeps its buffers).
//! The application's own reference count, which `CL_*_REFERENCE_COUNT`
//! reports and which retain/release move, is tracked separately so internal
//! references do not show through; it is 0 for an object the application
//! was never given (the event of a command enqueued without one).
//!
//! Live objects are counted per kind ([`live_objects`]), which is how the
//! tests see that nothing leaks.

use std::ops::Deref;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use opencl_sys::cl_int;

use crate::core::handle_slot::{self, AnyWeak, HandleSlot};
use crate::core::CLResult;

/// Which OpenCL object type a handle points to. The values are unlikely bit
/// patterns so that a stray pointer rarely passes the check by accident.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum ObjectKind {
    Platform = 0x636c_7601,
    Device = 0x636c_7602,
    Context = 0x636c_7603,
    Queue = 0x636c_7604,
    Mem = 0x636c_7605,
    Program = 0x636c_7606,
    Kernel = 0x636c_7607,
    Event = 0x636c_7608,
    Sampler = 0x636c_7609,
}

impl ObjectKind {
    pub const ALL: [ObjectKind; 9] = [
        ObjectKind::Platform,
        ObjectKind::Device,
        ObjectKind::Context,
        ObjectKind::Queue,
        ObjectKind::Mem,
        ObjectKind::Program,
        ObjectKind::Kernel,
        ObjectKind::Event,
        ObjectKind::Sampler,
    ];

    /// Whether a handle of this kind stays valid after the application's
    /// last release, for as long as an internal user keeps the object.
    /// That is so for the kinds another object's info query hands out,
    /// since the application may ask for the handle again then: contexts
    /// (every `*_CONTEXT` query), a sub-buffer's parent
    /// (`CL_MEM_ASSOCIATED_MEMOBJECT`), a kernel's program
    /// (`CL_KERNEL_PROGRAM`), and the platform and devices, which never
    /// die. Events and kernels are handed out by no query, so their
    /// handles die with the last release, while pending commands may
    /// still keep them. Queues are handed out by `CL_EVENT_COMMAND_QUEUE`,
    /// but the spec makes any use of a queue after its last release
    /// undefined (the query is only valid while the queue is), so a
    /// released queue is refused at once too, also while held-back
    /// commands keep it.
    pub fn handle_outlives_last_release(self) -> bool {
        match self {
            ObjectKind::Platform
            | ObjectKind::Device
            | ObjectKind::Context
            | ObjectKind::Mem
            | ObjectKind::Program => true,
            // No query hands out a sampler.
            ObjectKind::Queue | ObjectKind::Kernel | ObjectKind::Event | ObjectKind::Sampler => {
                false
            }
        }
    }

    /// 0..9, in the order of [`ObjectKind::ALL`].
    fn index(self) -> usize {
        (self as u32 & 0xff) as usize - 1
    }
}

/// Live objects per kind, by [`ObjectKind::index`].
static LIVE: [AtomicUsize; ObjectKind::ALL.len()] =
    [const { AtomicUsize::new(0) }; ObjectKind::ALL.len()];

/// How many objects of `kind` exist: held by the application, or by
/// another object or a command still in flight.
pub fn live_objects(kind: ObjectKind) -> usize {
    LIVE[kind.index()].load(Ordering::Acquire)
}

/// An OpenCL object type: its tag and the error a bad handle of it gives.
pub trait ClObject: Send + Sync + Sized + 'static {
    const KIND: ObjectKind;
    /// `CL_INVALID_<OBJECT>`: returned for a NULL or wrong-kind handle.
    const INVALID: cl_int;

    /// Runs when the application releases its last reference; internal
    /// references may keep the object alive longer (a queue's release, for
    /// example, implies a flush).
    fn last_api_reference_released(_object: &Arc<Object<Self>>) {}
}

/// An OpenCL object as the loader and the application see it.
pub struct Object<T> {
    /// A weak reference to this object, made with it, for its handle's
    /// slot to keep: `&self` alone could not make one without unsafe code.
    me: AnyWeak,
    slot: OnceLock<&'static HandleSlot>,
    kind: ObjectKind,
    api_references: AtomicU32,
    value: T,
}

impl<T: ClObject> Object<T> {
    /// Wraps `value`, with no application reference yet (see
    /// [`Object::add_api_reference`]).
    pub fn new(value: T) -> Arc<Self> {
        let object = Arc::new_cyclic(|me: &std::sync::Weak<Self>| Object {
            me: me.clone(),
            slot: OnceLock::new(),
            kind: T::KIND,
            api_references: AtomicU32::new(0),
            value,
        });
        LIVE[T::KIND.index()].fetch_add(1, Ordering::AcqRel);
        object
    }

    /// What `CL_*_REFERENCE_COUNT` reports.
    pub fn api_reference_count(&self) -> u32 {
        self.api_references.load(Ordering::Acquire)
    }

    pub fn add_api_reference(&self) {
        self.api_references.fetch_add(1, Ordering::AcqRel);
    }

    /// Takes one application reference away. `Ok(true)` when it was the
    /// last; an object the application no longer holds cannot be released
    /// again, so that error is `T::INVALID`.
    pub fn remove_api_reference(&self) -> CLResult<bool> {
        self.api_references
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
            .map(|previous| previous == 1)
            .map_err(|_| T::INVALID)
    }

    /// Ends what the application can do with the handle after its last
    /// release, for the kinds whose handle does not outlive it
    /// ([`ObjectKind::handle_outlives_last_release`]).
    pub fn last_api_reference_gone(&self) {
        if !T::KIND.handle_outlives_last_release() {
            if let Some(slot) = self.slot.get() {
                handle_slot::close(slot);
            }
        }
    }
}

impl<T> Object<T> {
    /// The address the application knows this object by.
    pub fn handle(&self) -> *mut std::ffi::c_void {
        self.slot
            .get_or_init(|| handle_slot::bind(self.kind as u32, self.me.clone()))
            .handle()
    }

    /// True when `self` and `other` are the same object.
    pub fn is(&self, other: &Object<T>) -> bool {
        std::ptr::eq(self, other)
    }
}

impl<T> Drop for Object<T> {
    /// The strong count is zero, so no check upgrades to this object any
    /// more; the handle is marked dead (if its last release has not closed
    /// it already) and its slot queued for reuse.
    fn drop(&mut self) {
        if let Some(slot) = self.slot.get() {
            handle_slot::kill(slot);
        }
        LIVE[self.kind.index()].fetch_sub(1, Ordering::AcqRel);
    }
}

impl<T> Deref for Object<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}
