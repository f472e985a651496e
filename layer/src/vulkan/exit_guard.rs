//! Background Vulkan work that must be over before the process exits.
//!
//! Two threads call into the driver on their own: the one saving the
//! pipeline cache after a launch compiled a new pipeline
//! (`Device::save_pipeline_cache`), and the device's completion thread
//! (`core/completion.rs`), which may still be finishing an event (its
//! printf output, releasing what it held) when the application has seen
//! the event complete. When the application exits then, `exit` runs the
//! driver's and LLVM's static destructors while that thread is inside the
//! driver: the test binaries on lavapipe crashed with SIGSEGV now and then
//! after all their tests had passed. An `atexit` handler, registered when
//! the first such task starts (after the driver has registered its own, so
//! it runs before them), stops new tasks and waits for running ones.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, Once, PoisonError};
use std::time::Duration;

static EXITING: AtomicBool = AtomicBool::new(false);
static RUNNING: Mutex<usize> = Mutex::new(0);
static FINISHED: Condvar = Condvar::new();

/// How long exit waits for a save that is running: far longer than one
/// takes, short enough that a stuck driver cannot hang the exit.
const EXIT_WAIT: Duration = Duration::from_secs(5);

/// Counts one background task as running, unless the process is exiting
/// (then the task must not start: `None`). Dropping the guard ends it.
pub(crate) fn begin() -> Option<Running> {
    register_handler();
    let mut running = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
    if EXITING.load(Ordering::Acquire) {
        return None;
    }
    *running += 1;
    Some(Running(()))
}

/// Whether exit has begun: a running task should stop at its next step.
pub(crate) fn exiting() -> bool {
    EXITING.load(Ordering::Acquire)
}

/// A running background task; it ends when dropped.
pub(crate) struct Running(());

impl Drop for Running {
    fn drop(&mut self) {
        let mut running = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
        *running -= 1;
        FINISHED.notify_all();
    }
}

extern "C" fn wait_for_background_tasks() {
    let running = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
    EXITING.store(true, Ordering::Release);
    let _ = FINISHED.wait_timeout_while(running, EXIT_WAIT, |running| *running > 0);
}

extern "C" {
    fn atexit(handler: extern "C" fn()) -> std::ffi::c_int;
}

fn register_handler() {
    static REGISTERED: Once = Once::new();
    REGISTERED.call_once(|| {
        // SAFETY: `atexit` from the C library takes a function pointer with
        // the C ABI that never unwinds (the handler only locks, stores and
        // waits); a failed registration leaves the old behaviour.
        let _ = unsafe { atexit(wait_for_background_tasks) };
    });
}
