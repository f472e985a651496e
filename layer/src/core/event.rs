//! Events: the status of one command (or a user event), the callbacks
//! waiting on it, and its host-clock profiling times.
//!
//! A command's event goes Queued (recorded into its queue's stream, or held
//! back behind a host dependency) -> Submitted (with the timeline fences
//! that signal its GPU work) -> Completing (a thread runs its host part,
//! such as copying a non-blocking read's staging data out) -> Done.
//! Whoever first sees the fences reached (the completion thread, a waiting
//! application thread, a status query) finishes the event; the others wait.
//!
//! Callbacks never run under a lock: state changes hand back
//! [`Notifications`] that the caller runs once it has let go of its locks.
//!
//! A command's event holds its queue only until it is done: the spec
//! deletes a released queue once its commands have finished, and an
//! event the application keeps, or one a thread still holds for a moment
//! after completing it, must not keep the queue alive past that.
//!
//! Profiling: QUEUED at enqueue, SUBMIT at submission to Vulkan and
//! COMPLETE when the host observes completion, all on the host clock
//! ([`host_timestamp`]). START and END come from GPU timestamps written
//! around the command ([`crate::core::profiling`]), converted to the host
//! clock and clamped into [SUBMIT, COMPLETE] so the order always holds;
//! without timestamps they are SUBMIT and COMPLETE.

use std::ops::Range;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError, Weak};
use std::time::Instant;

use opencl_sys::{
    cl_command_type, cl_int, cl_profiling_info, CL_COMMAND_USER, CL_COMPLETE, CL_INVALID_EVENT,
    CL_INVALID_OPERATION, CL_INVALID_VALUE, CL_OUT_OF_RESOURCES, CL_PROFILING_COMMAND_COMPLETE,
    CL_PROFILING_COMMAND_END, CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_START,
    CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_INFO_NOT_AVAILABLE, CL_QUEUED, CL_RUNNING,
    CL_SUBMITTED,
};

use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::fence::Fence;
use crate::core::host::EventCallback;
use crate::core::object::{ClObject, Object, ObjectKind};
use crate::core::profiling::GpuSpan;
use crate::core::queue::Queue;
use crate::core::CLResult;
use crate::vulkan::Waiter;

/// The host part of a command, run once its GPU part is done.
pub type HostCompletion = Box<dyn FnOnce() -> CLResult<()> + Send>;

enum Progress {
    /// Recorded into the queue's stream, or held back behind a host
    /// dependency; `CL_QUEUED`.
    Queued,
    /// A user event the application has not set yet; `CL_SUBMITTED`.
    AwaitingUser,
    /// Handed to Vulkan; done once every fence is reached.
    Submitted(Vec<Fence>),
    /// A thread is running the host part; `CL_RUNNING`.
    Completing,
    /// `CL_COMPLETE` or a negative error code.
    Done(cl_int),
}

#[derive(Clone, Copy, Default)]
struct Times {
    queued: u64,
    submitted: u64,
    ended: u64,
    /// Device ticks at the command's start and end, read at completion.
    gpu_ticks: Option<(u64, u64)>,
    /// START and END on the host clock, converted on first query.
    start_end: Option<(u64, u64)>,
}

struct State {
    progress: Progress,
    /// Fences of other queues this command waits for. Its submission waits
    /// for them too; checking them directly as well keeps completion right
    /// however the stream batches a command that records nothing (a marker).
    dependency_fences: Vec<Fence>,
    host_completion: Option<HostCompletion>,
    callbacks: Vec<(cl_int, EventCallback)>,
    times: Times,
    /// The timestamps around the command, until read at completion.
    gpu_span: Option<GpuSpan>,
    /// The command's queue, held until the event is done.
    queue: Option<Arc<Object<Queue>>>,
}

/// What a command's event knows of its queue once it may have let go of
/// it.
struct QueueOf {
    queue: Weak<Object<Queue>>,
    /// `CL_EVENT_COMMAND_QUEUE`.
    handle: usize,
    device: Arc<Object<Device>>,
    profiling: bool,
}

pub struct Event {
    context: Arc<Object<Context>>,
    /// `None` for a user event.
    queue: Option<QueueOf>,
    command_type: cl_command_type,
    /// The application memory the command writes until it is done (see
    /// [`crate::core::command::Recipe::writes_host`]).
    writes_host: Option<Range<usize>>,
    state: Mutex<State>,
    changed: Condvar,
}

impl ClObject for Event {
    const KIND: ObjectKind = ObjectKind::Event;
    const INVALID: cl_int = CL_INVALID_EVENT;
}

/// Callbacks made due by a state change, to run after locks are released,
/// and the queues done events let go of, to be dropped then (the last
/// reference to a queue must not go while a lock is held).
#[must_use = "callbacks must be run once locks are released"]
#[derive(Default)]
pub struct Notifications {
    callbacks: Vec<(EventCallback, cl_int)>,
    released: Vec<Arc<Object<Queue>>>,
}

impl Notifications {
    pub fn run(self) {
        for (callback, status) in self.callbacks {
            callback(status);
        }
        drop(self.released);
    }

    pub fn extend(&mut self, other: Notifications) {
        self.callbacks.extend(other.callbacks);
        self.released.extend(other.released);
    }
}

/// How a command relates to one event in its wait list.
pub enum Dependency {
    /// Nothing to wait for: complete, or earlier in the same in-order queue.
    Satisfied,
    /// The event failed; the dependent command fails too.
    Failed,
    /// The GPU can wait for these fences.
    Gpu(Vec<Fence>),
    /// Only the host can tell when it is done (a user event, a command not
    /// yet submitted, another device's command).
    Host,
}

/// Nanoseconds on a process-wide monotonic clock.
pub fn host_timestamp() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

impl Event {
    fn with_progress(
        context: Arc<Object<Context>>,
        queue: Option<&Arc<Object<Queue>>>,
        command_type: cl_command_type,
        progress: Progress,
        writes_host: Option<Range<usize>>,
    ) -> Arc<Object<Event>> {
        Object::new(Event {
            context,
            queue: queue.map(|queue| QueueOf {
                queue: Arc::downgrade(queue),
                handle: queue.handle() as usize,
                device: queue.device().clone(),
                profiling: queue.profiling_enabled(),
            }),
            command_type,
            writes_host,
            state: Mutex::new(State {
                progress,
                dependency_fences: Vec::new(),
                host_completion: None,
                callbacks: Vec::new(),
                times: Times {
                    queued: host_timestamp(),
                    ..Times::default()
                },
                gpu_span: None,
                queue: queue.cloned(),
            }),
            changed: Condvar::new(),
        })
    }

    /// The event of a command of `queue`; `writes_host` as in
    /// [`crate::core::command::Recipe::writes_host`].
    pub fn new_command(
        queue: &Arc<Object<Queue>>,
        command_type: cl_command_type,
        host_completion: Option<HostCompletion>,
        writes_host: Option<Range<usize>>,
    ) -> Arc<Object<Event>> {
        let event = Self::with_progress(
            queue.context().clone(),
            Some(queue),
            command_type,
            Progress::Queued,
            writes_host,
        );
        event.lock().host_completion = host_completion;
        event
    }

    pub fn new_user(context: &Arc<Object<Context>>) -> Arc<Object<Event>> {
        Self::with_progress(
            context.clone(),
            None,
            CL_COMMAND_USER,
            Progress::AwaitingUser,
            None,
        )
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn context(&self) -> &Arc<Object<Context>> {
        &self.context
    }

    /// The command's queue, while it exists (always, until the event is
    /// done).
    pub fn queue(&self) -> Option<Arc<Object<Queue>>> {
        self.queue.as_ref()?.queue.upgrade()
    }

    /// Whether this is a command of `queue`.
    pub fn is_of_queue(&self, queue: &Object<Queue>) -> bool {
        self.queue
            .as_ref()
            .is_some_and(|of| std::ptr::eq(of.queue.as_ptr(), queue))
    }

    /// Whether this is a user event (`clCreateUserEvent`).
    pub fn is_user(&self) -> bool {
        self.queue.is_none()
    }

    /// `CL_EVENT_COMMAND_QUEUE`: the queue's handle, NULL for a user event.
    pub fn queue_handle(&self) -> usize {
        self.queue.as_ref().map_or(0, |of| of.handle)
    }

    pub fn command_type(&self) -> cl_command_type {
        self.command_type
    }

    pub fn is_done(&self) -> bool {
        matches!(self.lock().progress, Progress::Done(_))
    }

    /// Whether the command will still write application memory that
    /// overlaps `range` (a non-blocking read whose data has not reached
    /// the application yet).
    pub fn will_write_host(&self, range: &Range<usize>) -> bool {
        self.writes_host
            .as_ref()
            .is_some_and(|own| own.start < range.end && range.start < own.end)
            && !self.is_done()
    }

    fn reported_status(progress: &Progress) -> cl_int {
        match progress {
            Progress::Queued => CL_QUEUED,
            Progress::AwaitingUser | Progress::Submitted(_) => CL_SUBMITTED,
            Progress::Completing => CL_RUNNING,
            Progress::Done(status) => *status,
        }
    }

    /// What a command waiting for this event on `queue` has to do.
    pub fn dependency_for(&self, queue: &Object<Queue>) -> Dependency {
        let state = self.lock();
        match &state.progress {
            Progress::Done(status) if *status < 0 => Dependency::Failed,
            Progress::Done(_) => Dependency::Satisfied,
            // Not done, so the event still holds its queue.
            _ if self.is_of_queue(queue) => Dependency::Satisfied,
            Progress::Submitted(fences)
                if self
                    .queue
                    .as_ref()
                    .is_some_and(|of| of.device.is(queue.device())) =>
            {
                let mut all = fences.clone();
                all.extend(state.dependency_fences.iter().cloned());
                Dependency::Gpu(all)
            }
            _ => Dependency::Host,
        }
    }

    /// Whether this event sits unsubmitted in a queue other than `queue`,
    /// so that queue must be flushed before the event can be depended on.
    pub fn needs_flush_of_other_queue(&self, queue: &Object<Queue>) -> Option<Arc<Object<Queue>>> {
        let state = self.lock();
        let other = state.queue.as_ref().filter(|q| !q.is(queue))?;
        matches!(state.progress, Progress::Queued).then(|| other.clone())
    }

    pub fn add_dependency_fences(&self, fences: &[Fence]) {
        self.lock().dependency_fences.extend(fences.iter().cloned());
    }

    /// The timestamps recorded around this command (profiling queues).
    pub fn set_gpu_span(&self, span: GpuSpan) {
        self.lock().gpu_span = Some(span);
    }

    /// Called by the queue, under its lock, when the stream holding this
    /// command is submitted.
    pub fn mark_submitted(&self, fence: Fence, time: u64) -> Notifications {
        let mut state = self.lock();
        if !matches!(state.progress, Progress::Queued) {
            return Notifications::default();
        }
        state.progress = Progress::Submitted(vec![fence]);
        state.times.submitted = time;
        let due = take_callbacks(&mut state, |trigger| trigger == CL_SUBMITTED, CL_SUBMITTED);
        self.changed.notify_all();
        due
    }

    /// Ends the event with `status` (`CL_COMPLETE` or an error) unless it
    /// has ended already.
    pub fn finish_with(&self, status: cl_int) -> Notifications {
        let mut state = self.lock();
        if matches!(state.progress, Progress::Done(_)) {
            return Notifications::default();
        }
        state.host_completion = None;
        self.set_done(&mut state, status)
    }

    fn set_done(&self, state: &mut State, status: cl_int) -> Notifications {
        state.progress = Progress::Done(status);
        let queue = state.queue.take();
        state.times.ended = host_timestamp();
        if state.times.submitted == 0 {
            state.times.submitted = state.times.ended;
        }
        // Read now, so the query pool can be reused without waiting for
        // the application to release the event.
        if let Some(span) = state.gpu_span.take() {
            state.times.gpu_ticks = span.read();
        }
        let mut due = take_callbacks(state, |_| true, status);
        due.released.extend(queue);
        self.changed.notify_all();
        due
    }

    fn pending_fences(state: &State) -> Option<Vec<Fence>> {
        match &state.progress {
            Progress::Submitted(fences) => {
                let mut all = fences.clone();
                all.extend(state.dependency_fences.iter().cloned());
                Some(all)
            }
            _ => None,
        }
    }

    /// Runs the host part and marks the event done; only the first caller
    /// after submission does anything.
    fn complete(&self) {
        let queue = {
            let state = self.lock();
            if !matches!(state.progress, Progress::Submitted(_)) {
                return;
            }
            state.queue.clone()
        };
        // In order, a command is complete only once the commands before it
        // are: a blocking command must not return while an earlier
        // non-blocking read's data is still in its staging buffer.
        if let Some(queue) = queue {
            for earlier in queue.unfinished_before(self) {
                let _ = earlier.wait();
            }
        }
        let host_completion = {
            let mut state = self.lock();
            if !matches!(state.progress, Progress::Submitted(_)) {
                return;
            }
            state.progress = Progress::Completing;
            state.host_completion.take()
        };
        let status = match host_completion.map_or(Ok(()), |run| run()) {
            Ok(()) => CL_COMPLETE,
            Err(error) => error,
        };
        let due = {
            let mut state = self.lock();
            self.set_done(&mut state, status)
        };
        due.run();
    }

    /// The device failed while the command ran (a lost device): the event
    /// ends with `error`, and the context's notification callback hears of
    /// it, as no call is left to return the error from.
    fn fail_if_submitted(&self, error: cl_int) {
        let due = {
            let mut state = self.lock();
            if !matches!(state.progress, Progress::Submitted(_)) {
                return;
            }
            self.set_done(&mut state, error)
        };
        self.context.notify(&format!(
            "clvulkan: waiting for a command failed on the device (error {error})"
        ));
        due.run();
    }

    /// Completes the event without blocking if its GPU work is done.
    pub fn complete_if_reached(&self) {
        let Some(fences) = Self::pending_fences(&self.lock()) else {
            return;
        };
        match fences
            .iter()
            .try_fold(true, |all, f| Ok::<_, cl_int>(all && f.is_reached()?))
        {
            Ok(true) => self.complete(),
            Ok(false) => {}
            Err(error) => self.fail_if_submitted(error),
        }
    }

    /// The completion thread's part: block until the GPU is done, then
    /// complete.
    pub fn complete_after_gpu(&self) {
        let Some(fences) = Self::pending_fences(&self.lock()) else {
            return;
        };
        match fences
            .iter()
            .try_for_each(|f| f.wait_as(Waiter::Background))
        {
            Ok(()) => self.complete(),
            Err(error) => self.fail_if_submitted(error),
        }
    }

    /// `clSetUserEventStatus`: once only, `CL_COMPLETE` or an error.
    pub fn set_user_status(&self, status: cl_int) -> CLResult<Notifications> {
        if status != CL_COMPLETE && status >= 0 {
            return Err(CL_INVALID_VALUE);
        }
        let mut state = self.lock();
        if !matches!(state.progress, Progress::AwaitingUser) {
            return Err(CL_INVALID_OPERATION);
        }
        Ok(self.set_done(&mut state, status))
    }

    /// `clSetEventCallback`: `trigger` is `CL_SUBMITTED`, `CL_RUNNING` or
    /// `CL_COMPLETE`. A status already reached calls back at once, on this
    /// thread. A `CL_RUNNING` callback fires at completion, as this
    /// implementation never observes a command running.
    pub fn add_callback(&self, trigger: cl_int, callback: EventCallback) {
        let mut state = self.lock();
        let status = Self::reported_status(&state.progress);
        let reached = match state.progress {
            Progress::Done(_) => true,
            Progress::AwaitingUser | Progress::Submitted(_) | Progress::Completing => {
                trigger == CL_SUBMITTED
            }
            Progress::Queued => false,
        };
        if reached {
            drop(state);
            callback(if status < 0 { status } else { trigger });
        } else {
            state.callbacks.push((trigger, callback));
        }
    }

    /// `clGetEventProfilingInfo`, for events of a queue with profiling on.
    pub fn profiling_time(&self, param: cl_profiling_info) -> CLResult<u64> {
        let Some(queue) = self.queue.as_ref().filter(|of| of.profiling) else {
            return Err(CL_PROFILING_INFO_NOT_AVAILABLE);
        };
        let times = {
            let state = self.lock();
            if !matches!(state.progress, Progress::Done(CL_COMPLETE)) {
                return Err(CL_PROFILING_INFO_NOT_AVAILABLE);
            }
            state.times
        };
        let (start, end) = match (param, times.start_end) {
            (CL_PROFILING_COMMAND_START | CL_PROFILING_COMMAND_END, None) => {
                // The conversion may sample the device clock: not under the
                // lock. The first one is kept, so that every query of this
                // event reports the same, ordered times.
                let span = start_end(&queue.device, &times);
                *self.lock().times.start_end.get_or_insert(span)
            }
            (_, Some(span)) => span,
            _ => (times.submitted, times.ended),
        };
        match param {
            CL_PROFILING_COMMAND_QUEUED => Ok(times.queued),
            CL_PROFILING_COMMAND_SUBMIT => Ok(times.submitted),
            CL_PROFILING_COMMAND_START => Ok(start),
            CL_PROFILING_COMMAND_END => Ok(end),
            CL_PROFILING_COMMAND_COMPLETE => Ok(times.ended),
            _ => Err(CL_INVALID_VALUE),
        }
    }
}

/// START and END of a completed command: its device times on the host
/// clock, clamped into [SUBMIT, COMPLETE]; without them, SUBMIT and
/// COMPLETE.
fn start_end(device: &Object<Device>, times: &Times) -> (u64, u64) {
    let converted = times
        .gpu_ticks
        .and_then(|(start, end)| device.clock().to_host_span(device.vk().ok()?, start, end));
    match converted {
        Some((start, end)) => {
            let start = start.clamp(times.submitted, times.ended);
            (start, end.clamp(start, times.ended))
        }
        None => (times.submitted, times.ended),
    }
}

/// Progress on request: status queries and waits, which may flush the
/// event's queue.
impl Event {
    /// `CL_EVENT_COMMAND_EXECUTION_STATUS`. Querying makes progress: a
    /// command still waiting in its queue's stream is submitted (so that
    /// polling loops without `clFlush` finish), and one whose fences are
    /// reached is completed.
    pub fn status(&self) -> cl_int {
        if let Some(queue) = self.queued_in() {
            // A failed flush fails the recorded events themselves.
            let _ = queue.flush();
        }
        self.complete_if_reached();
        Self::reported_status(&self.lock().progress)
    }

    /// The queue of a command still waiting in it to be submitted.
    fn queued_in(&self) -> Option<Arc<Object<Queue>>> {
        let state = self.lock();
        match state.progress {
            Progress::Queued => state.queue.clone(),
            _ => None,
        }
    }

    /// Blocks until the event is done and returns its final status. A
    /// command still in its queue's stream is submitted first.
    pub fn wait(&self) -> CLResult<cl_int> {
        let mut flushed = false;
        loop {
            let mut state = self.lock();
            match &state.progress {
                Progress::Done(status) => return Ok(*status),
                Progress::Queued if !flushed => {
                    let queue = state.queue.clone();
                    drop(state);
                    if let Some(queue) = queue {
                        queue.flush()?;
                    }
                    flushed = true;
                }
                Progress::Submitted(_) => {
                    let fences = Self::pending_fences(&state).unwrap_or_default();
                    drop(state);
                    match fences.iter().try_for_each(Fence::wait) {
                        Ok(()) => self.complete(),
                        Err(error) => {
                            self.fail_if_submitted(error);
                            return Err(error);
                        }
                    }
                }
                // Held back behind a user event, waiting for the
                // application, or another thread is completing it.
                Progress::Queued | Progress::AwaitingUser | Progress::Completing => {
                    state = self
                        .changed
                        .wait(state)
                        .unwrap_or_else(PoisonError::into_inner);
                    drop(state);
                }
            }
        }
    }
}

/// Removes the callbacks `is_due` selects; each is called with `status`
/// when it is an error, else with the status it was registered for.
fn take_callbacks(
    state: &mut State,
    is_due: impl Fn(cl_int) -> bool,
    status: cl_int,
) -> Notifications {
    let (due, keep): (Vec<_>, Vec<_>) = std::mem::take(&mut state.callbacks)
        .into_iter()
        .partition(|(trigger, _)| is_due(*trigger));
    state.callbacks = keep;
    Notifications {
        callbacks: due
            .into_iter()
            .map(|(trigger, callback)| (callback, if status < 0 { status } else { trigger }))
            .collect(),
        released: Vec::new(),
    }
}

/// Fails the recorded commands of a submission that Vulkan refused.
pub fn fail_all(events: &[Arc<Object<Event>>]) -> Notifications {
    let mut due = Notifications::default();
    for event in events {
        due.extend(event.finish_with(CL_OUT_OF_RESOURCES));
    }
    due
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicI32, Ordering};

    fn user_event() -> Arc<Object<Event>> {
        let context = Context::new(Vec::new(), Vec::new(), None).unwrap();
        Event::new_user(&context)
    }

    fn recorder() -> (Arc<AtomicI32>, EventCallback) {
        let seen = Arc::new(AtomicI32::new(i32::MIN));
        let sink = seen.clone();
        (
            seen,
            Box::new(move |status| sink.store(status, Ordering::SeqCst)),
        )
    }

    #[test]
    fn user_events_complete_once_and_call_back() {
        let event = user_event();
        assert_eq!(event.status(), CL_SUBMITTED);
        let (seen, callback) = recorder();
        event.add_callback(CL_COMPLETE, callback);
        assert_eq!(seen.load(Ordering::SeqCst), i32::MIN);
        event.set_user_status(CL_COMPLETE).unwrap().run();
        assert_eq!(seen.load(Ordering::SeqCst), CL_COMPLETE);
        assert_eq!(event.status(), CL_COMPLETE);
        assert_eq!(event.wait(), Ok(CL_COMPLETE));
        assert_eq!(
            event.set_user_status(CL_COMPLETE).err(),
            Some(CL_INVALID_OPERATION)
        );
    }

    #[test]
    fn callbacks_for_a_passed_status_run_at_once() {
        let event = user_event();
        event.set_user_status(CL_COMPLETE).unwrap().run();
        let (seen, callback) = recorder();
        event.add_callback(CL_SUBMITTED, callback);
        assert_eq!(seen.load(Ordering::SeqCst), CL_SUBMITTED);
    }

    #[test]
    fn failed_user_events_pass_the_error_to_every_callback() {
        let event = user_event();
        let (submitted, on_submitted) = recorder();
        let (complete, on_complete) = recorder();
        event.add_callback(CL_SUBMITTED, on_submitted);
        event.add_callback(CL_COMPLETE, on_complete);
        // A user event starts as submitted, so that callback already ran.
        assert_eq!(submitted.load(Ordering::SeqCst), CL_SUBMITTED);
        event.set_user_status(-5).unwrap().run();
        assert_eq!(complete.load(Ordering::SeqCst), -5);
        assert_eq!(event.set_user_status(1).err(), Some(CL_INVALID_VALUE));
    }

    #[test]
    fn user_events_have_no_profiling_info() {
        let event = user_event();
        event.set_user_status(CL_COMPLETE).unwrap().run();
        assert_eq!(
            event.profiling_time(CL_PROFILING_COMMAND_END),
            Err(CL_PROFILING_INFO_NOT_AVAILABLE)
        );
    }
}
