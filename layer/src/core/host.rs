//! What core needs from the application's side of the C ABI, in safe form:
//! host memory that outlives an enqueue call, and the application's
//! callbacks. [`crate::api`] builds these from raw pointers and C function
//! pointers, carrying the safety argument; core only stores and calls them.

use std::ops::Range;
use std::sync::{Mutex, PoisonError};

use opencl_sys::cl_int;

/// Application memory that a command uses after the enqueue call has
/// returned: the destination of a non-blocking read, or the source of a
/// non-blocking write, which the spec forbids the application to reuse
/// until the command completes (so a write whose memory an earlier read
/// will still fill can take its data once that read is done). The
/// application promises the memory stays valid until the command's event
/// completes.
pub trait HostMemory: Send {
    fn bytes(&self) -> &[u8];
    fn bytes_mut(&mut self) -> &mut [u8];
}

/// The host addresses `bytes` occupies, for telling whether two commands
/// touch the same host memory.
pub fn span(bytes: &[u8]) -> Range<usize> {
    let start = bytes.as_ptr() as usize;
    start..start + bytes.len()
}

/// A `clSetEventCallback` callback; receives the status it fires for.
pub type EventCallback = Box<dyn FnOnce(cl_int) + Send>;

/// A destructor callback (memory object, context); runs once.
pub type DestructorCallback = Box<dyn FnOnce() + Send>;

/// The destructor callbacks of one context or memory object. They run when
/// this is dropped, newest first as the spec requires; the owner keeps it
/// as its last field so that its resources are freed before.
#[derive(Default)]
pub struct DestructorCallbacks(Mutex<Vec<DestructorCallback>>);

impl DestructorCallbacks {
    pub fn add(&self, callback: DestructorCallback) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(callback);
    }
}

impl Drop for DestructorCallbacks {
    fn drop(&mut self) {
        let callbacks = std::mem::take(self.0.get_mut().unwrap_or_else(PoisonError::into_inner));
        for callback in callbacks.into_iter().rev() {
            callback();
        }
    }
}

/// The `pfn_notify` of `clCreateContext`: reports errors that happen after
/// the call that caused them has returned.
pub type ContextNotify = Box<dyn Fn(&str) + Send + Sync>;
