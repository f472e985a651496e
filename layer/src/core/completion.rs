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
//!
//! The thread may still hold an event for a moment after a waiting thread
//! saw it complete; [`CompletionThread::wait_idle`] waits that out, for
//! counts of live objects that must not see such stragglers.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{unbounded, Sender};
use opencl_sys::CL_OUT_OF_HOST_MEMORY;

use crate::core::event::Event;
use crate::core::object::Object;
use crate::core::CLResult;

pub struct CompletionThread {
    sender: Sender<Arc<Object<Event>>>,
    /// Events handed over and not yet let go of.
    in_hand: Arc<InHand>,
}

#[derive(Default)]
struct InHand {
    count: Mutex<usize>,
    none: Condvar,
}

impl InHand {
    fn change(&self, by: impl FnOnce(usize) -> usize) {
        let mut count = self.count.lock().unwrap_or_else(PoisonError::into_inner);
        *count = by(*count);
        if *count == 0 {
            self.none.notify_all();
        }
    }
}

impl CompletionThread {
    pub fn spawn(device_name: &str) -> CLResult<Self> {
        let (sender, receiver) = unbounded::<Arc<Object<Event>>>();
        let in_hand = Arc::new(InHand::default());
        let held = in_hand.clone();
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
                    held.change(|n| n.saturating_sub(1));
                }
            })
            .map_err(|_| CL_OUT_OF_HOST_MEMORY)?;
        Ok(CompletionThread { sender, in_hand })
    }

    /// Hands a submitted event over. If the thread is gone the event is
    /// still completed by whoever waits on it.
    pub fn track(&self, event: Arc<Object<Event>>) {
        self.in_hand.change(|n| n + 1);
        if self.sender.send(event).is_err() {
            self.in_hand.change(|n| n.saturating_sub(1));
        }
    }

    /// Waits, at most `limit`, until the thread holds no event: every
    /// event it was given is complete and let go of. Whether it got there.
    pub fn wait_idle(&self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        let mut count = self
            .in_hand
            .count
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        while *count > 0 {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            count = self
                .in_hand
                .none
                .wait_timeout(count, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        true
    }
}
