//! Handles: checking that a pointer from the application is a live object
//! of the expected kind, and moving the application's references.
//!
//! A handle is the address of the [`HandleSlot`] that stands for an
//! `Object<T>` inside its `Arc` (see [`crate::core::object`]). Slots are
//! never freed, so a released handle is still readable and is refused as
//! dead once its object is destroyed. A pointer that was never a handle is
//! undefined behaviour by the spec; reading a slot's header from it is the
//! best that can be done and catches NULL, handles of the wrong type and
//! most stray pointers.

use std::ffi::c_void;
use std::sync::Arc;

use crate::core::handle_slot::HandleSlot;
use crate::core::object::{ClObject, Object};
use crate::core::CLResult;

/// The checked pointer to an object, or `T::INVALID`.
///
/// # Safety
/// `handle` is NULL, a handle this library gave out (live or released),
/// or (against the spec) some other readable pointer.
unsafe fn checked<T: ClObject>(handle: *mut c_void) -> CLResult<*const Object<T>> {
    if handle.is_null() || !(handle as usize).is_multiple_of(align_of::<HandleSlot>()) {
        return Err(T::INVALID);
    }
    // SAFETY: per the caller's contract the pointer addresses at least a
    // pointer-sized word, aligned (checked above); read as a plain word,
    // not yet as a slot.
    let dispatch = unsafe { handle.cast_const().cast::<*const c_void>().read() };
    if dispatch != std::ptr::from_ref(&crate::api::icd::DISPATCH).cast() {
        return Err(T::INVALID);
    }
    // SAFETY: what starts with the dispatch pointer is, per the caller's
    // contract, one of this library's slots, which are never freed; the
    // slot's other fields are atomics, read as such.
    let slot = unsafe { &*handle.cast_const().cast::<HandleSlot>() };
    slot.live::<T>().ok_or(T::INVALID)
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
    // SAFETY: checked() found a live Object<T> at the pointer its Arc gives
    // out (Arc::as_ptr, which is what Arc::into_raw returns too); taking one
    // more strong count and rebuilding an Arc from the same pointer is
    // Arc's documented way to share it.
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
            .map_err(|_| error)?
            .iter()
            .map(|&handle| arc::<T>(handle).map_err(|_| error))
            .collect()
    }
}

/// Gives an object to the application: `object`'s strong count becomes
/// one application reference, and the handle.
pub(crate) fn into_handle<T: ClObject>(object: Arc<Object<T>>) -> *mut c_void {
    object.add_api_reference();
    let handle = object.handle();
    // Released by the application's last clRelease* (see `release`).
    let _ = Arc::into_raw(object);
    handle
}

/// `clRetain*`.
///
/// # Safety
/// As [`object`].
pub(crate) unsafe fn retain<T: ClObject>(handle: *mut c_void) -> CLResult<()> {
    // SAFETY: checked() found a live Object<T> at its Arc's pointer; the
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
    // SAFETY: checked() found a live Object<T> at its Arc's pointer. Each
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
    use opencl_sys::{CL_INVALID_CONTEXT, CL_INVALID_EVENT, CL_INVALID_PLATFORM};

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

    #[test]
    fn a_released_handle_stays_dead_while_later_objects_come_and_go() {
        use crate::core::event::Event;
        let context = Context::new(Vec::new(), Vec::new(), None).unwrap();
        let handle = into_handle(Event::new_user(&context));
        // SAFETY: live, then released (the slot outlives the object).
        unsafe {
            assert!(object::<Event>(handle).is_ok());
            release::<Event>(handle).unwrap();
            assert_eq!(object::<Event>(handle).err(), Some(CL_INVALID_EVENT));
        }
        // Other tests make objects meanwhile; a thousand more of this
        // test's own are far from the quarantine's end.
        let later: Vec<_> = (0..1000).map(|_| Event::new_user(&context)).collect();
        assert!(later.iter().all(|event| event.handle() != handle));
        // SAFETY: as above.
        unsafe {
            assert_eq!(object::<Event>(handle).err(), Some(CL_INVALID_EVENT));
            assert_eq!(retain::<Event>(handle), Err(CL_INVALID_EVENT));
            assert_eq!(release::<Event>(handle), Err(CL_INVALID_EVENT));
        }
    }

    #[test]
    fn an_object_kept_by_another_stays_valid_after_its_release() {
        use crate::core::event::Event;
        let context = Context::new(Vec::new(), Vec::new(), None).unwrap();
        let event = Event::new_user(&context);
        let handle = into_handle(context);
        // SAFETY: released by the application, kept alive by the event.
        unsafe {
            release::<Context>(handle).unwrap();
            assert!(object::<Context>(handle).is_ok());
            drop(event);
            assert_eq!(object::<Context>(handle).err(), Some(CL_INVALID_CONTEXT));
        }
    }
}
