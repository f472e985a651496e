//! What core needs from the application's side of the C ABI, in safe form:
//! host memory that outlives an enqueue call, and the application's
//! callbacks. [`crate::api`] builds these from raw pointers and C function
//! pointers, carrying the safety argument; core only stores and calls them.

use opencl_sys::cl_int;

/// Application memory that a command writes after the enqueue call has
/// returned (the destination of a non-blocking read). The application
/// promises the memory stays valid until the command's event completes.
pub trait HostMemory: Send {
    fn bytes_mut(&mut self) -> &mut [u8];
}

/// A `clSetEventCallback` callback; receives the status it fires for.
pub type EventCallback = Box<dyn FnOnce(cl_int) + Send>;

/// A destructor callback (memory object, context); runs once.
pub type DestructorCallback = Box<dyn FnOnce() + Send>;

/// The `pfn_notify` of `clCreateContext`: reports errors that happen after
/// the call that caused them has returned.
pub type ContextNotify = Box<dyn Fn(&str) + Send + Sync>;
