//! The completion thread: one per device, it finishes events after the GPU
//! has. Non-blocking reads need their staging data copied to the host,
//! callbacks must fire without anyone waiting, and profiling wants an end
//! time close to the real one, so every submitted event is handed here.
//!
//! The thread waits on each event's fences in submission order and then
//! completes it; completion is idempotent, so an application thread that
//! waits on the same event and gets there first is not a problem. Exit
//! waits for an event being completed (`vulkan/exit_guard.rs`): an
//! application that returns from `clFinish` and exits at once would
//! otherwise tear the driver down under this thread.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::thread;

use crossbeam_channel::{unbounded, Sender};
use opencl_sys::CL_OUT_OF_HOST_MEMORY;

use crate::core::event::Event;
use crate::core::object::Object;
use crate::core::CLResult;

pub struct CompletionThread {
    sender: Sender<Arc<Object<Event>>>,
}

impl CompletionThread {
    pub fn spawn(device_name: &str) -> CLResult<Self> {
        let (sender, receiver) = unbounded::<Arc<Object<Event>>>();
        thread::Builder::new()
            .name(format!("clvulkan completion ({device_name})"))
            .spawn(move || {
                for event in receiver {
                    // Completing an event calls into the driver (waits,
                    // printf buffers, releasing what the command held); so
                    // does dropping it. Once the process is exiting the
                    // driver's static destructors may be running, and
                    // nobody waits for the event any more: leave it alone.
                    let Some(running) = crate::vulkan::exit_guard::begin() else {
                        std::mem::forget(event);
                        continue;
                    };
                    // A panic while completing one event must not stop
                    // completions for every other queue of the device.
                    let _ = catch_unwind(AssertUnwindSafe(|| event.complete_after_gpu()));
                    drop(event);
                    drop(running);
                }
            })
            .map_err(|_| CL_OUT_OF_HOST_MEMORY)?;
        Ok(CompletionThread { sender })
    }

    /// Hands a submitted event over. If the thread is gone the event is
    /// still completed by whoever waits on it.
    pub fn track(&self, event: Arc<Object<Event>>) {
        let _ = self.sender.send(event);
    }
}
