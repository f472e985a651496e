//! The application's raw host memory and C callbacks, wrapped in the safe
//! types core stores ([`crate::core::host`]).
//!
//! The spec lets callbacks run on any thread the implementation chooses and
//! makes the application responsible for its `user_data` there; that is what
//! makes sending these pointers to other threads sound.

use std::ffi::{c_char, c_void, CString};

use opencl_sys::{cl_context, cl_event, cl_int, cl_mem, CL_INVALID_VALUE};

use crate::core::host::{ContextNotify, DestructorCallback, EventCallback, HostMemory};
use crate::core::CLResult;

/// Application memory that a non-blocking read fills, or a non-blocking
/// write reads, after the call has returned.
pub(crate) struct HostSlice {
    pointer: *mut u8,
    length: usize,
    /// False for a write's source, which is only read.
    writable: bool,
}

// SAFETY: the spec requires the memory to stay valid and untouched by the
// application until the command completes, whichever thread completes it.
unsafe impl Send for HostSlice {}

impl HostSlice {
    /// `CL_INVALID_VALUE` for a length no memory can have (see
    /// [`crate::api::call::fits_in_memory`]).
    ///
    /// # Safety
    /// `pointer` is valid for writing `length` bytes until the command that
    /// receives this slice has completed, and the application does not access
    /// that memory meanwhile (the spec's rule for reads into host memory).
    pub(crate) unsafe fn new(pointer: *mut c_void, length: usize) -> CLResult<Self> {
        if !crate::api::call::fits_in_memory::<u8>(length) {
            return Err(CL_INVALID_VALUE);
        }
        Ok(HostSlice {
            pointer: pointer.cast(),
            length,
            writable: true,
        })
    }

    /// The source of a write, only ever read. `CL_INVALID_VALUE` as for
    /// [`HostSlice::new`].
    ///
    /// # Safety
    /// `pointer` is valid for reading `length` bytes until the command
    /// that receives this slice has completed, and the application does
    /// not write that memory meanwhile (the spec's rule for writes from
    /// host memory).
    pub(crate) unsafe fn source(pointer: *const c_void, length: usize) -> CLResult<Self> {
        // SAFETY: the caller's contract, minus writing, which
        // `writable: false` rules out.
        let slice = unsafe { Self::new(pointer.cast_mut(), length) }?;
        Ok(HostSlice {
            writable: false,
            ..slice
        })
    }
}

impl HostMemory for HostSlice {
    fn bytes(&self) -> &[u8] {
        if self.length == 0 || self.pointer.is_null() {
            return &[];
        }
        // SAFETY: new()'s contract: valid until completion, and not written
        // by the application meanwhile; a length a slice may have.
        unsafe { std::slice::from_raw_parts(self.pointer, self.length) }
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        if self.length == 0 || self.pointer.is_null() || !self.writable {
            return &mut [];
        }
        // SAFETY: new()'s contract: valid, exclusively ours, until
        // completion; a length a slice may have (checked in new()).
        unsafe { std::slice::from_raw_parts_mut(self.pointer, self.length) }
    }
}

/// An application pointer handed back to a callback, possibly on another
/// thread. Closures rebind it before use so they capture the wrapper, not
/// its raw-pointer field (which edition-2021 closures would capture alone).
#[derive(Clone, Copy)]
struct SendPointer(*mut c_void);

// SAFETY: the spec makes the application responsible for the thread safety
// of what it passes to callbacks; this side only carries the value.
unsafe impl Send for SendPointer {}
// SAFETY: as for Send; the pointer is never dereferenced here.
unsafe impl Sync for SendPointer {}

pub(crate) type EventNotify = unsafe extern "C" fn(cl_event, cl_int, *mut c_void);
pub(crate) type ContextErrorNotify =
    unsafe extern "C" fn(*const c_char, *const c_void, usize, *mut c_void);
pub(crate) type MemDestructorNotify = unsafe extern "C" fn(cl_mem, *mut c_void);
pub(crate) type ContextDestructorNotify = unsafe extern "C" fn(cl_context, *mut c_void);

pub(crate) fn event_callback(
    notify: EventNotify,
    event: cl_event,
    user_data: *mut c_void,
) -> EventCallback {
    let event = SendPointer(event);
    let user_data = SendPointer(user_data);
    Box::new(move |status| {
        let (event, user_data) = (event, user_data);
        // SAFETY: a callback the application registered with this
        // signature; the event is alive (it is the one calling back).
        unsafe { notify(event.0, status, user_data.0) }
    })
}

pub(crate) fn context_notify(notify: ContextErrorNotify, user_data: *mut c_void) -> ContextNotify {
    let user_data = SendPointer(user_data);
    Box::new(move |message| {
        let user_data = user_data;
        let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
        // SAFETY: a callback the application registered with this
        // signature; errinfo is a NUL-terminated string valid for the call,
        // and there is no private info (NULL, size 0).
        unsafe { notify(text.as_ptr(), std::ptr::null(), 0, user_data.0) }
    })
}

pub(crate) fn mem_destructor(
    notify: MemDestructorNotify,
    mem: cl_mem,
    user_data: *mut c_void,
) -> DestructorCallback {
    let mem = SendPointer(mem);
    let user_data = SendPointer(user_data);
    Box::new(move || {
        let (mem, user_data) = (mem, user_data);
        // SAFETY: a callback the application registered with this
        // signature; it runs while the memory object is being destroyed,
        // which is when the spec says it runs.
        unsafe { notify(mem.0, user_data.0) }
    })
}

pub(crate) fn context_destructor(
    notify: ContextDestructorNotify,
    context: cl_context,
    user_data: *mut c_void,
) -> DestructorCallback {
    let context = SendPointer(context);
    let user_data = SendPointer(user_data);
    Box::new(move || {
        let (context, user_data) = (context, user_data);
        // SAFETY: as for mem_destructor.
        unsafe { notify(context.0, user_data.0) }
    })
}
