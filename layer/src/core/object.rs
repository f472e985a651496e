//! The memory layout every OpenCL object shares, so that a `cl_*` handle can
//! be given to the ICD loader and recognised when it comes back.
//!
//! Each object lives in an `Arc<Object<T>>`; its handle is the address of the
//! `Object<T>` inside the `Arc` (rusticl's pattern). `Object<T>` is
//! `#[repr(C)]` and starts with the ICD dispatch table pointer, which the
//! loader reads to route every call, then a kind tag that
//! [`crate::api::handle`] checks before trusting a handle.
//!
//! The Arc's strong count keeps the object alive for the application and for
//! internal users (a queue keeps its context, a command keeps its buffers).
//! The application's own reference count, which `CL_*_REFERENCE_COUNT`
//! reports and which retain/release move, is tracked separately so internal
//! references do not show through.

use std::ops::Deref;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use opencl_sys::cl_icd::cl_icd_dispatch;
use opencl_sys::cl_int;

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
#[repr(C)]
pub struct Object<T> {
    /// Must be the first field: the ICD loader dereferences every handle to
    /// find the dispatch table. A `&'static` has the ABI of the loader's
    /// `*const _cl_icd_dispatch` and keeps the object `Send + Sync`.
    dispatch: &'static cl_icd_dispatch,
    kind: u32,
    api_references: AtomicU32,
    value: T,
}

/// Byte offset of the kind tag from the start of any `Object<T>`: with
/// `#[repr(C)]` the leading fields are laid out the same for every `T`.
pub const KIND_OFFSET: usize = std::mem::offset_of!(Object<()>, kind);

impl<T: ClObject> Object<T> {
    /// Wraps `value` with one application reference.
    pub fn new(value: T) -> Arc<Self> {
        Arc::new(Object {
            dispatch: &crate::api::icd::DISPATCH,
            kind: T::KIND as u32,
            api_references: AtomicU32::new(1),
            value,
        })
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
}

impl<T> Object<T> {
    /// The address the application knows this object by.
    pub fn handle(&self) -> *mut std::ffi::c_void {
        std::ptr::from_ref(self).cast_mut().cast()
    }

    /// True when `self` and `other` are the same object.
    pub fn is(&self, other: &Object<T>) -> bool {
        std::ptr::eq(self, other)
    }
}

impl<T> Deref for Object<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}
