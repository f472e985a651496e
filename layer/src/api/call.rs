//! The frame of every entry point: panics become `CL_OUT_OF_HOST_MEMORY`
//! instead of unwinding into C, errors become the returned code or
//! `*errcode_ret`, the call is traced when `CLVULKAN_LOG=api` asks
//! (`api::trace`), plus the small raw-pointer helpers all entry points use.

use std::panic::{catch_unwind, AssertUnwindSafe};

use opencl_sys::{cl_int, CL_INVALID_VALUE, CL_OUT_OF_HOST_MEMORY, CL_SUCCESS};

use crate::api::trace::{Arg, Entry};
use crate::core::CLResult;
use crate::logging;

/// What an entry point's [`trace::entry!`](crate::api::trace::entry)
/// describes its arguments with.
pub(crate) type Args = Vec<(&'static str, Arg)>;

/// Runs the body of an entry point that returns its status.
pub(crate) fn status(
    entry: Entry<impl FnOnce() -> Args>,
    body: impl FnOnce() -> CLResult<()>,
) -> cl_int {
    // Read first: it also installs the logger, for the body's messages.
    let tracing = logging::api_trace();
    let status = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => CL_SUCCESS,
        Ok(Err(error)) => error,
        Err(_) => CL_OUT_OF_HOST_MEMORY,
    };
    if tracing {
        entry.status(status);
    }
    status
}

/// Runs the body of an entry point that returns nothing (`clSVMFree`).
pub(crate) fn nothing(entry: Entry<impl FnOnce() -> Args>, body: impl FnOnce()) {
    let tracing = logging::api_trace();
    let _ = catch_unwind(AssertUnwindSafe(body));
    if tracing {
        entry.nothing();
    }
}

/// Runs the body of an entry point that returns a pointer and no status
/// (`clGetExtensionFunctionAddress`): NULL when it panics.
pub(crate) fn pointer<T>(
    entry: Entry<impl FnOnce() -> Args>,
    body: impl FnOnce() -> *mut T,
) -> *mut T {
    let tracing = logging::api_trace();
    let returned = catch_unwind(AssertUnwindSafe(body)).unwrap_or(std::ptr::null_mut());
    if tracing {
        entry.pointer(returned.cast());
    }
    returned
}

/// The outcome of an entry point that returns an object (or pointer) and
/// reports its status through `errcode_ret`.
#[must_use = "the status must reach errcode_ret"]
pub(crate) struct Created<T> {
    object: *mut T,
    status: cl_int,
}

/// Runs the body of an entry point that returns an object; NULL on failure.
pub(crate) fn create<T>(
    entry: Entry<impl FnOnce() -> Args>,
    body: impl FnOnce() -> CLResult<*mut T>,
) -> Created<T> {
    let tracing = logging::api_trace();
    let created = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(object)) => Created {
            object,
            status: CL_SUCCESS,
        },
        Ok(Err(status)) => Created {
            object: std::ptr::null_mut(),
            status,
        },
        Err(_) => Created {
            object: std::ptr::null_mut(),
            status: CL_OUT_OF_HOST_MEMORY,
        },
    };
    if tracing {
        entry.created(created.object.cast(), created.status);
    }
    created
}

impl<T> Created<T> {
    /// Stores the status and returns the object.
    ///
    /// # Safety
    /// `errcode_ret` is NULL or valid for writing a `cl_int`.
    pub(crate) unsafe fn report(self, errcode_ret: *mut cl_int) -> *mut T {
        // SAFETY: the caller's contract, which is the spec's rule for
        // errcode_ret.
        unsafe { write_if_not_null(errcode_ret, self.status) };
        self.object
    }
}

/// Stores `value` through an optional output pointer.
///
/// # Safety
/// `destination` is NULL or valid for writing a `T`.
pub(crate) unsafe fn write_if_not_null<T>(destination: *mut T, value: T) {
    if !destination.is_null() {
        // SAFETY: non-NULL, and valid for writes by the caller's contract.
        unsafe { destination.write_unaligned(value) };
    }
}

/// An application array as a slice; `count` 0 gives an empty slice whatever
/// the pointer. `CL_INVALID_VALUE` for a count no memory can hold (more
/// than `isize::MAX` bytes, such as `SIZE_MAX`): the size is wrong, and a
/// slice of it would be undefined behaviour.
///
/// # Safety
/// When `count > 0` and [`fits_in_memory`], `pointer` is valid for reading
/// `count` elements for the lifetime `'a` (the duration of the entry point).
pub(crate) unsafe fn slice<'a, T>(pointer: *const T, count: usize) -> CLResult<&'a [T]> {
    if count == 0 || pointer.is_null() {
        return Ok(&[]);
    }
    if !fits_in_memory::<T>(count) {
        return Err(CL_INVALID_VALUE);
    }
    // SAFETY: non-NULL, of a size an allocation may have (checked above),
    // and valid for `count` reads by the caller's contract; the application
    // does not mutate it during the call.
    Ok(unsafe { std::slice::from_raw_parts(pointer, count) })
}

/// Whether `count` elements of `T` are few enough for one allocation
/// (at most `isize::MAX` bytes), the bound every Rust slice obeys.
pub(crate) fn fits_in_memory<T>(count: usize) -> bool {
    count
        .checked_mul(size_of::<T>().max(1))
        .is_some_and(|bytes| isize::try_from(bytes).is_ok())
}

/// A NUL-terminated application string, or `None` for NULL. Invalid UTF-8
/// is replaced rather than refused: names and options are ASCII in
/// practice, and a lossy string still fails the lookups it should.
///
/// # Safety
/// `pointer` is NULL or points to a NUL-terminated string.
pub(crate) unsafe fn c_string(pointer: *const std::ffi::c_char) -> Option<String> {
    if pointer.is_null() {
        return None;
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    let bytes = unsafe { std::ffi::CStr::from_ptr(pointer) }.to_bytes();
    Some(String::from_utf8_lossy(bytes).into_owned())
}
