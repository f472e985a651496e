//! Handles: checking that a pointer from the application is a live object
//! of the expected kind, and moving the application's references.
//!
//! A handle is the address of the [`HandleSlot`] that stands for an
//! `Object<T>` inside its `Arc` (see [`crate::core::object`]). Slots are
//! never freed, so a released handle is still readable and is refused as
//! dead once its object is destroyed, or at once at the last release for
//! the kinds no other object hands out. A pointer that was never a handle
//! is undefined behaviour by the spec; reading a slot's header from it is
//! the best that can be done and catches NULL, handles of the wrong type
//! and most stray pointers.
//!
//! Checking a handle takes a strong reference ([`HandleSlot::live`]), and
//! the entry point holds it for its duration: the application's own
//! reference cannot be relied on, since after its last release an object
//! may live on only because internal users keep it (pending commands keep
//! their queue, a sub-buffer its parent), and the last of those may go on
//! another thread during the call.

use std::ffi::c_void;
use std::sync::Arc;

use crate::core::handle_slot::HandleSlot;
use crate::core::object::{ClObject, Object};
use crate::core::CLResult;

/// A new strong reference to the object behind `handle`, or `T::INVALID`.
///
/// # Safety
/// `handle` is NULL, a handle this library gave out (live or released),
/// or (against the spec) some other readable pointer.
unsafe fn checked<T: ClObject>(handle: *mut c_void) -> CLResult<Arc<Object<T>>> {
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
    // slot's other fields are an atomic and a lock, used as such.
    let slot = unsafe { &*handle.cast_const().cast::<HandleSlot>() };
    slot.live::<T>().ok_or(T::INVALID)
}

/// The object behind `handle`, kept alive for the duration of an entry
/// point by the strong reference this returns (it derefs to the object).
///
/// # Safety
/// As [`checked`].
pub(crate) unsafe fn object<T: ClObject>(handle: *mut c_void) -> CLResult<Arc<Object<T>>> {
    // SAFETY: the caller's contract.
    unsafe { checked::<T>(handle) }
}

/// A new internal reference to the object behind `handle`, to keep beyond
/// the call.
///
/// # Safety
/// As [`checked`].
pub(crate) unsafe fn arc<T: ClObject>(handle: *mut c_void) -> CLResult<Arc<Object<T>>> {
    // SAFETY: the caller's contract.
    unsafe { checked::<T>(handle) }
}

/// Internal references to every object of an application array. `error`
/// replaces `T::INVALID` where the spec names another code (an invalid
/// event in a wait list is `CL_INVALID_EVENT_WAIT_LIST`).
///
/// # Safety
/// `handles` is valid for `count` reads when `count > 0`; each element as
/// in [`checked`].
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
/// As [`checked`].
pub(crate) unsafe fn retain<T: ClObject>(handle: *mut c_void) -> CLResult<()> {
    // SAFETY: the caller's contract.
    let object = unsafe { checked::<T>(handle)? };
    object.add_api_reference();
    // The strong count the check took belongs to the application's new
    // reference; `release` gives it back.
    let _ = Arc::into_raw(object);
    Ok(())
}

/// `clRelease*`: drops one application reference, and the object once no
/// internal user holds it either. At the last one, the handle dies at once
/// for the kinds no other object hands out (see
/// [`crate::core::object::ObjectKind::handle_outlives_last_release`]).
///
/// # Safety
/// As [`checked`]; after the call the application must not use the handle
/// if this was its last reference.
pub(crate) unsafe fn release<T: ClObject>(handle: *mut c_void) -> CLResult<()> {
    // SAFETY: the caller's contract.
    let object = unsafe { checked::<T>(handle)? };
    // Refuses a release the application no longer has a count for, before
    // any count is touched.
    if object.remove_api_reference()? {
        object.last_api_reference_gone();
        T::last_api_reference_released(&object);
    }
    // SAFETY: each application reference owns one strong count of this
    // Arc (into_handle, retain), and remove_api_reference just took that
    // reference away, so giving its count back is balanced; `object`
    // holds one more, so the object is destroyed, if at all, only when
    // `object` goes below.
    unsafe { Arc::decrement_strong_count(Arc::as_ptr(&object)) };
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

    #[test]
    fn a_released_event_is_refused_while_internal_users_keep_it() {
        use crate::core::event::Event;
        let context = Context::new(Vec::new(), Vec::new(), None).unwrap();
        let event = Event::new_user(&context);
        // What a pending command would hold.
        let pending = event.clone();
        let handle = into_handle(event);
        // SAFETY: live until its last release; the slot outlives it.
        unsafe {
            retain::<Event>(handle).unwrap();
            release::<Event>(handle).unwrap();
            assert!(object::<Event>(handle).is_ok());
            release::<Event>(handle).unwrap();
            assert_eq!(object::<Event>(handle).err(), Some(CL_INVALID_EVENT));
            assert_eq!(retain::<Event>(handle), Err(CL_INVALID_EVENT));
            assert_eq!(release::<Event>(handle), Err(CL_INVALID_EVENT));
        }
        assert_eq!(Arc::strong_count(&pending), 1);
        drop(pending);
        // SAFETY: as above.
        unsafe { assert_eq!(object::<Event>(handle).err(), Some(CL_INVALID_EVENT)) };
    }

    #[test]
    fn checks_racing_the_last_internal_reference_hold_the_object() {
        const THREADS: usize = 4;
        for _ in 0..50 {
            let context = Context::new(Vec::new(), Vec::new(), None).unwrap();
            let internal = context.clone();
            // An address, to cross threads.
            let handle = into_handle(context) as usize;
            // SAFETY: live; released to `internal` alone, which a context's
            // handle outlives (another object hands contexts out).
            unsafe { release::<Context>(handle as *mut c_void).unwrap() };
            let start = std::sync::Barrier::new(THREADS + 1);
            std::thread::scope(|scope| {
                for _ in 0..THREADS {
                    scope.spawn(|| {
                        start.wait();
                        loop {
                            // SAFETY: a handle this library gave out.
                            match unsafe { object::<Context>(handle as *mut c_void) } {
                                // Held: whole, and still the one released.
                                Ok(held) => assert_eq!(held.api_reference_count(), 0),
                                Err(error) => {
                                    assert_eq!(error, CL_INVALID_CONTEXT);
                                    break;
                                }
                            }
                        }
                    });
                }
                start.wait();
                drop(internal);
            });
            // SAFETY: as above.
            let after = unsafe { object::<Context>(handle as *mut c_void) };
            assert_eq!(after.err(), Some(CL_INVALID_CONTEXT));
        }
    }
}
