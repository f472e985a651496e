//! Handles: checking that a pointer from the application is a live object
//! of the expected kind, and moving the application's references.
//!
//! A handle is the address of an `Object<T>` inside its `Arc` (see
//! [`crate::core::object`]). Checking reads the dispatch pointer and kind
//! tag at that address. A pointer that was never a handle, or one to an
//! object already destroyed, is undefined behaviour by the spec; reading
//! the header is the best that can be done and catches NULL, handles of the
//! wrong type and most stale pointers.

use std::ffi::c_void;
use std::sync::Arc;

use crate::api::icd::DISPATCH;
use crate::core::object::{ClObject, Object, KIND_OFFSET};
use crate::core::CLResult;

/// The checked pointer to an object, or `T::INVALID`.
///
/// # Safety
/// `handle` is NULL, a handle this library gave out and the application
/// still holds, or (against the spec) some other readable pointer.
unsafe fn checked<T: ClObject>(handle: *mut c_void) -> CLResult<*const Object<T>> {
    if handle.is_null() || !(handle as usize).is_multiple_of(align_of::<Object<T>>()) {
        return Err(T::INVALID);
    }
    // SAFETY: per the caller's contract the pointer addresses at least an
    // object header, which starts with the dispatch pointer and has the kind
    // tag at KIND_OFFSET; both reads are aligned (checked above, and the
    // header fields are pointer- and u32-aligned inside Object<T>).
    let (dispatch, kind) = unsafe {
        (
            handle.cast::<*const c_void>().read(),
            handle.cast::<u8>().add(KIND_OFFSET).cast::<u32>().read(),
        )
    };
    if dispatch != std::ptr::from_ref(&DISPATCH).cast() || kind != T::KIND as u32 {
        return Err(T::INVALID);
    }
    Ok(handle.cast_const().cast())
}

/// Borrows the object behind `handle` for the duration of an entry point.
///
/// # Safety
/// As [`checked`]; the application keeps its reference during the call.
pub(crate) unsafe fn object<'a, T: ClObject>(handle: *mut c_void) -> CLResult<&'a Object<T>> {
    // SAFETY: checked() found a live object of kind T at this address, and
    // the application's reference keeps it alive for the call.
    unsafe { checked::<T>(handle).map(|pointer| &*pointer) }
}

/// A new internal reference to the object behind `handle`.
///
/// # Safety
/// As [`object`].
pub(crate) unsafe fn arc<T: ClObject>(handle: *mut c_void) -> CLResult<Arc<Object<T>>> {
    // SAFETY: checked() found a live Object<T> that came from Arc::into_raw
    // (every handle does); taking one more strong count and rebuilding an
    // Arc from the same pointer is Arc's documented way to share it.
    unsafe {
        let pointer = checked::<T>(handle)?;
        Arc::increment_strong_count(pointer);
        Ok(Arc::from_raw(pointer))
    }
}

/// Internal references to every object of an application array. `error`
/// replaces `T::INVALID` where the spec names another code (an invalid
/// event in a wait list is `CL_INVALID_EVENT_WAIT_LIST`).
///
/// # Safety
/// `handles` is valid for `count` reads when `count > 0`; each element as
/// in [`object`].
pub(crate) unsafe fn arcs<T: ClObject>(
    handles: *const *mut c_void,
    count: usize,
    error: opencl_sys::cl_int,
) -> CLResult<Vec<Arc<Object<T>>>> {
    // SAFETY: the caller's contract for the array and its elements.
    unsafe {
        crate::api::call::slice(handles, count)
            .iter()
            .map(|&handle| arc::<T>(handle).map_err(|_| error))
            .collect()
    }
}

/// Gives a new object to the application: its one application reference
/// becomes the handle.
pub(crate) fn into_handle<T: ClObject>(object: Arc<Object<T>>) -> *mut c_void {
    Arc::into_raw(object).cast_mut().cast()
}

/// `clRetain*`.
///
/// # Safety
/// As [`object`].
pub(crate) unsafe fn retain<T: ClObject>(handle: *mut c_void) -> CLResult<()> {
    // SAFETY: checked() found a live Object<T> from Arc::into_raw; the
    // extra strong count belongs to the application's new reference.
    unsafe {
        let pointer = checked::<T>(handle)?;
        (*pointer).add_api_reference();
        Arc::increment_strong_count(pointer);
    }
    Ok(())
}

/// `clRelease*`: drops one application reference, and the object once no
/// internal user holds it either.
///
/// # Safety
/// As [`object`]; after the call the application must not use the handle
/// if this was its last reference.
pub(crate) unsafe fn release<T: ClObject>(handle: *mut c_void) -> CLResult<()> {
    // SAFETY: checked() found a live Object<T> from Arc::into_raw. Each
    // application reference owns one strong count (into_handle, retain), so
    // giving one back with decrement_strong_count is balanced; remove_api_
    // reference refuses a release the application no longer has a count
    // for, before any count is touched.
    unsafe {
        let pointer = checked::<T>(handle)?;
        if (*pointer).remove_api_reference()? {
            let last = arc::<T>(handle)?;
            T::last_api_reference_released(&last);
        }
        Arc::decrement_strong_count(pointer);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::context::Context;
    use crate::core::platform::Platform;
    use opencl_sys::{CL_INVALID_CONTEXT, CL_INVALID_PLATFORM};

    #[test]
    fn platform_handle_is_accepted() {
        let handle = Platform::get().handle();
        // SAFETY: a handle this library made, alive for the process.
        let platform = unsafe { object::<Platform>(handle) }.unwrap();
        assert!(platform.is(Platform::get()));
    }

    #[test]
    fn null_handle_gives_the_objects_error() {
        // SAFETY: NULL is always acceptable to the checks.
        unsafe {
            assert_eq!(
                object::<Platform>(std::ptr::null_mut()).err(),
                Some(CL_INVALID_PLATFORM)
            );
            assert_eq!(
                object::<Context>(std::ptr::null_mut()).err(),
                Some(CL_INVALID_CONTEXT)
            );
        }
    }

    #[test]
    fn handle_of_another_kind_is_refused() {
        let handle = Platform::get().handle();
        // SAFETY: a live handle, only of the wrong kind.
        let checked = unsafe { object::<Context>(handle) };
        assert_eq!(checked.err(), Some(CL_INVALID_CONTEXT));
    }

    #[test]
    fn memory_that_is_not_an_object_is_refused() {
        let not_an_object = [0usize; 16];
        let handle = not_an_object.as_ptr().cast_mut().cast();
        // SAFETY: readable, aligned memory that is no object.
        let checked = unsafe { object::<Context>(handle) };
        assert_eq!(checked.err(), Some(CL_INVALID_CONTEXT));
        let misaligned = not_an_object
            .as_ptr()
            .cast::<u8>()
            .wrapping_add(1)
            .cast_mut()
            .cast();
        // SAFETY: as above, misaligned so rejected before any read.
        let checked = unsafe { object::<Context>(misaligned) };
        assert_eq!(checked.err(), Some(CL_INVALID_CONTEXT));
    }

    #[test]
    fn retain_and_release_move_the_application_count() {
        let context = Context::new(Vec::new(), Vec::new(), None).unwrap();
        let internal = context.clone();
        let handle = into_handle(context);
        // SAFETY: `handle` is live; `internal` keeps the object alive after
        // the application's last release.
        unsafe {
            retain::<Context>(handle).unwrap();
            assert_eq!(internal.api_reference_count(), 2);
            release::<Context>(handle).unwrap();
            release::<Context>(handle).unwrap();
            assert_eq!(internal.api_reference_count(), 0);
            assert_eq!(release::<Context>(handle), Err(CL_INVALID_CONTEXT));
        }
        assert_eq!(Arc::strong_count(&internal), 1);
    }
}
