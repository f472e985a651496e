//! Command queues: in-order, on one device, each with its own Vulkan stream.
//!
//! Commands are recorded into the stream as they are enqueued and submitted
//! on `clFlush`, `clFinish`, blocking calls, waits on their events, status
//! queries, and every [`AUTO_SUBMIT_COMMANDS`] commands; an application
//! more than [`MAX_COMMANDS_IN_FLIGHT`] submitted commands ahead of the
//! device waits in the enqueue call. A command whose wait
//! list holds an event only the host can see complete (a user event, a
//! command on another device or held back in another queue) is held back,
//! and with it every later command of this in-order queue, until that event
//! completes; then the held-back commands are recorded and submitted from
//! whichever thread completed it.
//!
//! A command the host carries out ([`Recipe::on_host`]: a direct read or
//! write, see [`crate::core::host_direct`]) records nothing. It runs at
//! enqueue when every earlier command of the queue and its wait list are
//! done; otherwise it is held back until they are, with every later
//! command behind it, and runs from whichever thread completed the last
//! of them. Either way it runs under the queue's lock, so no later command
//! is recorded before its host work is done.
//!
//! The objects a command names were checked to belong to the queue's
//! context before it gets here ([`crate::core::enqueue::check_context`]).
//!
//! Lock order: a queue's state, then an event's state. A queue never holds
//! its lock while flushing another queue or running callbacks.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError, Weak};

use opencl_sys::{
    cl_command_queue_properties, cl_command_type, cl_int, cl_queue_properties, CL_COMPLETE,
    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, CL_INVALID_COMMAND_QUEUE, CL_OUT_OF_RESOURCES,
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, CL_QUEUE_PROFILING_ENABLE,
};

use crate::core::command::Recipe;
use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::error::VkResultExt;
use crate::core::event::{
    fail_all, host_timestamp, Dependency, Event, HostCompletion, Notifications,
};
use crate::core::fence::Fence;
use crate::core::object::{ClObject, Object, ObjectKind};
use crate::core::profiling::GpuSpan;
use crate::core::CLResult;
use crate::vulkan;

/// Recorded commands that trigger a submission by themselves, so that an
/// application that never flushes still bounds what is held on the host
/// and lets the GPU start.
pub const AUTO_SUBMIT_COMMANDS: usize = 1024;

/// Submitted commands a queue lets run ahead of the application: past this
/// many unfinished ones, enqueueing waits for the oldest submissions. A
/// loop that enqueues faster than the device runs would otherwise hold
/// ever more command buffers, descriptor sets and per-launch buffers (a
/// megabyte each for `printf`); this many keep any device busy.
pub const MAX_COMMANDS_IN_FLIGHT: usize = 2 * AUTO_SUBMIT_COMMANDS;

/// Bytes of pooled per-command buffers (staging, launch blocks, `printf`
/// buffers) recorded that trigger a submission by themselves, so that they
/// start returning to the pool.
pub const AUTO_SUBMIT_BYTES: u64 = 32 << 20;

/// Bytes of pooled per-command buffers a queue lets run ahead, as
/// [`MAX_COMMANDS_IN_FLIGHT`] does for commands: a loop of `printf`
/// launches would otherwise hold a megabyte per launch in flight.
pub const MAX_BYTES_IN_FLIGHT: u64 = 4 * AUTO_SUBMIT_BYTES;

/// One submission the queue has not yet seen complete.
struct InFlight {
    /// The stream's timeline value at which it is complete.
    value: u64,
    commands: usize,
    /// Bytes of pooled buffers its commands hold.
    bytes: u64,
}

impl State {
    fn over_budget(&self) -> bool {
        self.commands_in_flight > MAX_COMMANDS_IN_FLIGHT
            || self.bytes_in_flight > MAX_BYTES_IN_FLIGHT
    }
}

struct HeldBack {
    event: Arc<Object<Event>>,
    waits: Vec<Arc<Object<Event>>>,
    recipe: Recipe,
    /// For a command the host carries out: the commands of this queue
    /// enqueued before it, which must be done before it runs.
    after: Vec<Arc<Object<Event>>>,
}

struct State {
    stream: vulkan::Stream,
    /// Recorded into the stream, not yet submitted.
    recorded: Vec<Arc<Object<Event>>>,
    /// The pooled buffer bytes the recorded commands hold.
    recorded_bytes: u64,
    /// Submitted, possibly not yet complete; what `clFinish` waits for.
    /// Weak, because events hold their queue: the completion thread holds
    /// each until it is complete, and afterwards nothing needs to wait.
    in_flight: Vec<Weak<Object<Event>>>,
    /// The newest submission, which completes after all earlier ones.
    last_submission: Option<Fence>,
    /// Per submission not yet seen complete, oldest first: its timeline
    /// value, and the commands and pooled buffer bytes it holds; and their
    /// sums.
    submissions: VecDeque<InFlight>,
    commands_in_flight: usize,
    bytes_in_flight: u64,
    /// Fences of other queues that the next submission must wait on.
    gpu_waits: Vec<Fence>,
    held_back: VecDeque<HeldBack>,
}

pub struct Queue {
    context: Arc<Object<Context>>,
    device: Arc<Object<Device>>,
    properties: cl_command_queue_properties,
    /// Profiling is on and the device writes timestamps: commands are
    /// bracketed by timestamp queries.
    gpu_timestamps: bool,
    /// As given to `clCreateCommandQueueWithProperties`, terminator
    /// included; empty for `clCreateCommandQueue` or a NULL list.
    properties_array: Vec<cl_queue_properties>,
    state: Mutex<State>,
    /// Signalled when the held-back list empties.
    caught_up: Condvar,
}

impl ClObject for Queue {
    const KIND: ObjectKind = ObjectKind::Queue;
    const INVALID: cl_int = CL_INVALID_COMMAND_QUEUE;

    /// Releasing a queue implies a flush. Waiting for what was submitted
    /// as well means an application that releases its objects and exits
    /// does not unload the driver under running commands. Held-back
    /// commands are not waited for: their user event may be set after this.
    fn last_api_reference_released(queue: &Arc<Object<Self>>) {
        if queue.flush().is_ok() {
            let _ = queue.wait_for_submitted();
        }
    }
}

impl Queue {
    /// `properties` were checked by the caller: in-order, optionally with
    /// profiling.
    pub fn new(
        context: &Arc<Object<Context>>,
        device: &Arc<Object<Device>>,
        properties: cl_command_queue_properties,
        properties_array: Vec<cl_queue_properties>,
    ) -> CLResult<Arc<Object<Queue>>> {
        device.completion()?;
        let stream = device.vk()?.create_stream().or_out_of_resources()?;
        Ok(Object::new(Queue {
            context: context.clone(),
            device: device.clone(),
            properties,
            gpu_timestamps: properties & CL_QUEUE_PROFILING_ENABLE != 0
                && device.clock().available(),
            properties_array,
            state: Mutex::new(State {
                stream,
                recorded: Vec::new(),
                recorded_bytes: 0,
                in_flight: Vec::new(),
                last_submission: None,
                submissions: VecDeque::new(),
                commands_in_flight: 0,
                bytes_in_flight: 0,
                gpu_waits: Vec::new(),
                held_back: VecDeque::new(),
            }),
            caught_up: Condvar::new(),
        }))
    }

    pub fn context(&self) -> &Arc<Object<Context>> {
        &self.context
    }

    pub fn device(&self) -> &Arc<Object<Device>> {
        &self.device
    }

    pub fn properties(&self) -> cl_command_queue_properties {
        self.properties
    }

    pub fn properties_array(&self) -> &[cl_queue_properties] {
        &self.properties_array
    }

    pub fn out_of_order(&self) -> bool {
        self.properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE != 0
    }

    pub fn profiling_enabled(&self) -> bool {
        self.properties & CL_QUEUE_PROFILING_ENABLE != 0
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Submits what is recorded; `completer` says who completes the events
    /// it submits. Returns the callbacks this made due (to run after
    /// unlocking) and whether Vulkan accepted the submission; if it did not,
    /// the recorded commands' events fail with `CL_OUT_OF_RESOURCES`.
    fn submit_locked(
        &self,
        state: &mut State,
        mut completer: Completer<'_>,
    ) -> (Notifications, CLResult<()>) {
        if state.recorded.is_empty() && !state.stream.has_pending_commands() {
            return (Notifications::default(), Ok(()));
        }
        let waits: Vec<_> = state.gpu_waits.iter().map(Fence::as_wait).collect();
        let submitted = state.stream.submit(&waits).or_out_of_resources();
        let value = match submitted {
            Ok(value) => value,
            Err(error) => {
                state.recorded_bytes = 0;
                return (fail_all(&std::mem::take(&mut state.recorded)), Err(error));
            }
        };
        state.gpu_waits.clear();
        let fence = Fence {
            timeline: state.stream.timeline().clone(),
            value,
        };
        state.last_submission = Some(fence.clone());
        let submission = InFlight {
            value,
            commands: state.recorded.len(),
            bytes: std::mem::take(&mut state.recorded_bytes),
        };
        state.commands_in_flight += submission.commands;
        state.bytes_in_flight += submission.bytes;
        state.submissions.push_back(submission);
        let now = host_timestamp();
        let completion = match completer {
            Completer::Thread => self.device.completion().ok(),
            Completer::Caller(_) => None,
        };
        let mut due = Notifications::default();
        for event in state.recorded.drain(..) {
            due.extend(event.mark_submitted(fence.clone(), now));
            state.in_flight.push(Arc::downgrade(&event));
            match &mut completer {
                Completer::Thread => {
                    if let Some(completion) = completion {
                        completion.track(event);
                    }
                }
                Completer::Caller(events) => events.push(event),
            }
        }
        state.stream.retire_completed();
        state.in_flight.retain(is_pending);
        (due, Ok(()))
    }
}

/// Who completes the events of a submission: runs their host parts, fires
/// their callbacks and lets go of what they hold.
enum Completer<'a> {
    /// The device's completion thread, which waits for them.
    Thread,
    /// The submitting thread, which waits for them next (`clFinish`); the
    /// events are handed back to it here.
    Caller(&'a mut Vec<Arc<Object<Event>>>),
}

/// Drops the submissions that completed by timeline value `completed`
/// from the count of commands in flight.
fn forget_submissions_up_to(state: &mut State, completed: u64) {
    while let Some(oldest) = state.submissions.front() {
        if oldest.value > completed {
            break;
        }
        state.commands_in_flight -= oldest.commands;
        state.bytes_in_flight -= oldest.bytes;
        state.submissions.pop_front();
    }
}

/// Every command of the queue that may not be done: recorded, submitted
/// or held back.
fn state_commands(state: &State) -> Vec<Arc<Object<Event>>> {
    let in_flight = state.in_flight.iter().filter_map(Weak::upgrade);
    let held_back = state.held_back.iter().map(|held| held.event.clone());
    state
        .recorded
        .iter()
        .cloned()
        .chain(in_flight)
        .chain(held_back)
        .collect()
}

/// The events of `events` that are not done.
fn unfinished<'e>(events: impl Iterator<Item = &'e Arc<Object<Event>>>) -> Vec<Arc<Object<Event>>> {
    events.filter(|event| !event.is_done()).cloned().collect()
}

/// Whether a submitted event may still need waiting for.
fn is_pending(event: &Weak<Object<Event>>) -> bool {
    event.upgrade().is_some_and(|event| !event.is_done())
}

impl Object<Queue> {
    /// The submitted commands of an in-order queue enqueued before
    /// `event`, one of its submitted commands, that are not done, oldest
    /// first. Their GPU work ended before `event`'s (one timeline), but
    /// their host parts may not have run. Empty for an out-of-order queue,
    /// and when `event` is not among the submitted commands.
    pub fn unfinished_before(&self, event: &Event) -> Vec<Arc<Object<Event>>> {
        if self.out_of_order() {
            return Vec::new();
        }
        let mut state = self.lock();
        // Commands complete about in order, so the finished ones lead the
        // list: dropping them as they are passed keeps this walk short.
        let finished = state
            .in_flight
            .iter()
            .take_while(|submitted| !is_pending(submitted))
            .count();
        state.in_flight.drain(..finished);
        let mut earlier = Vec::new();
        for submitted in state.in_flight.iter().filter_map(Weak::upgrade) {
            if std::ptr::eq::<Event>(&**submitted, event) {
                return earlier;
            }
            if !submitted.is_done() {
                earlier.push(submitted);
            }
        }
        Vec::new()
    }

    /// `clFlush`.
    pub fn flush(&self) -> CLResult<()> {
        let (due, result) = self.submit_locked(&mut self.lock(), Completer::Thread);
        due.run();
        result
    }

    /// `clFinish`: submits, waits for held-back commands to be released,
    /// then waits for everything submitted.
    ///
    /// The commands this submits are completed here rather than by the
    /// completion thread: this thread waits for them anyway, and handing
    /// them over cost every round trip a wake-up of that thread (a futex
    /// call inside the submission), then a race with it to complete the
    /// same events, in which the loser sleeps on the event until the
    /// winner is done, and a second core polling the timeline.
    pub fn finish(&self) -> CLResult<()> {
        let mut submitted = Vec::new();
        let (due, result) = self.submit_locked(&mut self.lock(), Completer::Caller(&mut submitted));
        due.run();
        result?;
        let waited = self.wait_for_held_back_and_submitted();
        if waited.is_err() {
            // Left unfinished by the failed wait: their callbacks and host
            // parts still have to run, when the GPU is done with them.
            if let Ok(completion) = self.device.completion() {
                for event in submitted.into_iter().filter(|event| !event.is_done()) {
                    completion.track(event);
                }
            }
        }
        waited
    }

    fn wait_for_held_back_and_submitted(&self) -> CLResult<()> {
        {
            let mut state = self.lock();
            while !state.held_back.is_empty() {
                state = self
                    .caught_up
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        }
        self.wait_for_submitted()
    }

    /// Waits for every submitted command, host part included.
    fn wait_for_submitted(&self) -> CLResult<()> {
        let (last_submission, in_flight) = {
            let state = self.lock();
            let in_flight: Vec<_> = state.in_flight.iter().filter_map(Weak::upgrade).collect();
            (state.last_submission.clone(), in_flight)
        };
        // After the newest submission the GPU work of every command is done;
        // the events then only need their host part completed.
        if let Some(fence) = &last_submission {
            fence.wait()?;
        }
        for event in &in_flight {
            event.wait()?;
        }
        if let Some(fence) = last_submission {
            forget_submissions_up_to(&mut self.lock(), fence.value);
        }
        self.let_go_of_finished();
        Ok(())
    }

    /// Drops what finished submissions kept alive (buffers, kernels), so
    /// that when a blocking call or `clFinish` returns, the memory objects
    /// the application released are gone and their destructor callbacks
    /// have run, as they have where no GPU command was needed.
    pub fn let_go_of_finished(&self) {
        let mut state = self.lock();
        state.stream.retire_completed();
        state.in_flight.retain(is_pending);
    }

    /// Waits, as long as more than [`MAX_COMMANDS_IN_FLIGHT`] submitted
    /// commands or [`MAX_BYTES_IN_FLIGHT`] of their pooled buffers may be
    /// unfinished, for the oldest submission. Submitted
    /// work waits only on other submitted work, never on the host, so this
    /// always ends.
    fn throttle(&self) -> CLResult<()> {
        loop {
            let oldest = {
                let mut state = self.lock();
                if !state.over_budget() {
                    return Ok(());
                }
                let completed = state
                    .stream
                    .timeline()
                    .completed_value()
                    .or_out_of_resources()?;
                forget_submissions_up_to(&mut state, completed);
                state.stream.retire_completed();
                if !state.over_budget() {
                    return Ok(());
                }
                match state.submissions.front() {
                    Some(oldest) => Fence {
                        timeline: state.stream.timeline().clone(),
                        value: oldest.value,
                    },
                    None => return Ok(()),
                }
            };
            log::debug!("host-side wait: the queue has too much in flight; waiting for its oldest submission");
            oldest.wait()?;
        }
    }

    /// Enqueues one command: `recipe` is recorded now, or held back until
    /// the host-side dependencies in `waits` complete. Returns its event.
    pub fn enqueue(
        self: &Arc<Self>,
        command_type: cl_command_type,
        waits: &[Arc<Object<Event>>],
        recipe: Recipe,
        host_completion: Option<HostCompletion>,
    ) -> CLResult<Arc<Object<Event>>> {
        self.flush_queues_of(waits)?;
        let writes_host = recipe.host_range_written();
        let event = Event::new_command(self, command_type, host_completion, writes_host);
        if recipe.runs_on_host() {
            self.enqueue_on_host(&event, waits, recipe);
            return Ok(event);
        }
        let mut due = Notifications::default();
        let held_back_on = {
            let mut state = self.lock();
            let blocked_on = if state.held_back.is_empty() {
                self.host_dependencies(waits)
            } else {
                // In order: behind a held-back command, this one waits too;
                // the hooks of the earlier one release both.
                Some(Vec::new())
            };
            match blocked_on {
                Some(host_waits) => {
                    state.held_back.push_back(HeldBack {
                        event: event.clone(),
                        waits: waits.to_vec(),
                        recipe,
                        after: Vec::new(),
                    });
                    host_waits
                }
                None => {
                    due.extend(self.record_locked(&mut state, &event, waits, recipe)?);
                    if state.recorded.len() >= AUTO_SUBMIT_COMMANDS
                        || state.recorded_bytes >= AUTO_SUBMIT_BYTES
                    {
                        // A failed submission fails the events, which is
                        // where this command's outcome is reported.
                        due.extend(self.submit_locked(&mut state, Completer::Thread).0);
                    }
                    Vec::new()
                }
            }
        };
        due.run();
        self.release_when_done(&held_back_on);
        // The command is enqueued either way; a failed wait here (device
        // lost) is reported by the next wait on the queue's work.
        let _ = self.throttle();
        Ok(event)
    }

    /// Flushes other queues holding unsubmitted commands that `waits`
    /// names, so they can be depended on with fences. Done before taking
    /// this queue's lock: two queues flushing each other under their own
    /// locks would deadlock.
    fn flush_queues_of(&self, waits: &[Arc<Object<Event>>]) -> CLResult<()> {
        for event in waits {
            if let Some(other) = event.needs_flush_of_other_queue(self) {
                other.flush()?;
            }
        }
        Ok(())
    }

    /// `Some(events)` when the command must be held back, listing the wait
    /// events only the host can see complete.
    fn host_dependencies(&self, waits: &[Arc<Object<Event>>]) -> Option<Vec<Arc<Object<Event>>>> {
        let host: Vec<_> = waits
            .iter()
            .filter(|e| matches!(e.dependency_for(self), Dependency::Host))
            .cloned()
            .collect();
        (!host.is_empty()).then_some(host)
    }

    /// Records a command whose dependencies are all GPU-visible or done.
    fn record_locked(
        &self,
        state: &mut State,
        event: &Arc<Object<Event>>,
        waits: &[Arc<Object<Event>>],
        recipe: Recipe,
    ) -> CLResult<Notifications> {
        let mut fences = Vec::new();
        for wait in waits {
            match wait.dependency_for(self) {
                Dependency::Satisfied => {}
                Dependency::Gpu(more) => fences.extend(more),
                Dependency::Failed | Dependency::Host => {
                    return Ok(event.finish_with(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST));
                }
            }
        }
        state.recorded_bytes += recipe.leased_bytes();
        event.add_dependency_fences(&fences);
        state.gpu_waits.extend(fences);
        // Without timestamps (a failed query pool too) the event reports
        // host times.
        let start = if self.gpu_timestamps {
            state.stream.write_timestamp().ok()
        } else {
            None
        };
        // Out of order, a command that waits for nothing still running in
        // this queue needs no barrier before it.
        let overlap =
            self.out_of_order() && !waits.iter().any(|w| w.is_of_queue(self) && !w.is_done());
        if let Err(error) = recipe.record(&mut state.stream, &self.device, overlap) {
            // Report through the event as well: it was created already.
            let _ = event.finish_with(error);
            return Err(error);
        }
        if let Some(start) = start {
            if let Ok(end) = state.stream.write_timestamp() {
                event.set_gpu_span(GpuSpan { start, end });
            }
        }
        state.recorded.push(event.clone());
        Ok(Notifications::default())
    }

    /// Arranges for held-back commands to be reconsidered when the first
    /// of `events`, all of which the front of the held-back list still
    /// waits for, completes (at once if it already has); that
    /// reconsideration watches the next one. Watching one at a time keeps
    /// the callbacks to one per reconsideration: a callback on every one
    /// of them, made anew at each reconsideration, doubled at each
    /// completion (2^n callbacks for a host command behind n unfinished
    /// ones: 1 GiB and 37 s for 24 of them; most likely what made the
    /// OpenCL-CTS's test_bruteforce grow by a gigabyte every 15 s).
    fn release_when_done(self: &Arc<Self>, events: &[Arc<Object<Event>>]) {
        if let Some(event) = events.first() {
            let queue = self.clone();
            event.add_callback(CL_COMPLETE, Box::new(move |_| queue.release_held_back()));
        }
    }

    /// Records the held-back commands whose dependencies have completed,
    /// in order, stopping at the first that must still wait.
    fn release_held_back(self: &Arc<Self>) {
        let waits_of_front: Vec<Arc<Object<Event>>> = self
            .lock()
            .held_back
            .front()
            .map(|held| held.waits.clone())
            .unwrap_or_default();
        // Another queue may hold the front's dependency unsubmitted.
        let _ = self.flush_queues_of(&waits_of_front);

        let mut due = Notifications::default();
        let still_blocked_on = {
            let mut state = self.lock();
            let blocked_on = loop {
                let Some(front) = state.held_back.front() else {
                    break Vec::new();
                };
                if front.recipe.runs_on_host() {
                    let unfinished = unfinished(front.after.iter().chain(&front.waits));
                    if !unfinished.is_empty() {
                        break unfinished;
                    }
                } else if let Some(host_waits) = self.host_dependencies(&front.waits) {
                    break host_waits;
                }
                let Some(held) = state.held_back.pop_front() else {
                    break Vec::new();
                };
                if held.recipe.runs_on_host() {
                    due.extend(self.run_on_host_locked(
                        &held.event,
                        &held.waits,
                        held.recipe,
                        || Ok(()),
                    ));
                    continue;
                }
                // On failure the event carries the error; later commands go on.
                if let Ok(more) =
                    self.record_locked(&mut state, &held.event, &held.waits, held.recipe)
                {
                    due.extend(more);
                }
            };
            // Failures are reported through the submitted events.
            due.extend(self.submit_locked(&mut state, Completer::Thread).0);
            if state.held_back.is_empty() {
                self.caught_up.notify_all();
            }
            blocked_on
        };
        due.run();
        self.release_when_done(&still_blocked_on);
    }

    /// The queue to one caller for a command streamed in parts, or `None`
    /// when `waits` holds a dependency only the host can see complete or
    /// an earlier command is held back (the caller then enqueues the
    /// command whole). While the [`Sequence`] lives no other command can
    /// enter this queue, so its parts stay one command in queue order.
    pub fn sequence(
        self: &Arc<Self>,
        waits: &[Arc<Object<Event>>],
    ) -> CLResult<Option<Sequence<'_>>> {
        self.flush_queues_of(waits)?;
        let state = self.lock();
        if !state.held_back.is_empty() || self.host_dependencies(waits).is_some() {
            return Ok(None);
        }
        Ok(Some(Sequence {
            queue: self,
            state: Some(state),
            waits: waits.to_vec(),
            due: Notifications::default(),
        }))
    }

    /// The commands of this queue, and of `waits`, that will still write
    /// application memory overlapping `range` (pending non-blocking reads
    /// into it): a write from that memory must take its data after them.
    pub fn pending_host_writes(
        &self,
        waits: &[Arc<Object<Event>>],
        range: &Range<usize>,
    ) -> Vec<Arc<Object<Event>>> {
        let commands = state_commands(&self.lock());
        commands
            .into_iter()
            .chain(waits.iter().cloned())
            .filter(|event| event.will_write_host(range))
            .collect()
    }

    /// Enqueues `event`'s command, which the host carries out (see
    /// [`Recipe::on_host`]): at once when every command enqueued on this
    /// queue before it and every event in `waits` is done, else held back
    /// until they are, with every later command of the queue behind it, so
    /// that no later command runs before the host work (this holds on an
    /// out-of-order queue as well, which is stricter than needed).
    fn enqueue_on_host(
        self: &Arc<Self>,
        event: &Arc<Object<Event>>,
        waits: &[Arc<Object<Event>>],
        recipe: Recipe,
    ) {
        let mut due = Notifications::default();
        let blocked_on = {
            let mut state = self.lock();
            let after = unfinished(state_commands(&state).iter());
            let pending = unfinished(waits.iter());
            if after.is_empty() && pending.is_empty() {
                due.extend(self.run_on_host_locked(event, waits, recipe, || Ok(())));
                Vec::new()
            } else {
                // What it follows must reach the GPU to finish; a failed
                // submission fails those events, which then count as done.
                due.extend(self.submit_locked(&mut state, Completer::Thread).0);
                state.held_back.push_back(HeldBack {
                    event: event.clone(),
                    waits: waits.to_vec(),
                    recipe,
                    after: after.clone(),
                });
                after.into_iter().chain(pending).collect()
            }
        };
        due.run();
        self.release_when_done(&blocked_on);
    }

    /// Carries out a command on the host when nothing it follows is
    /// unfinished: `uses` names its memory objects (a recipe without
    /// steps) and `work` borrows the caller's memory. `None`, with nothing
    /// enqueued, when it would have to wait; the caller then enqueues it
    /// with [`Recipe::on_host`] and work that owns its data.
    pub fn run_on_host_now(
        self: &Arc<Self>,
        command_type: cl_command_type,
        waits: &[Arc<Object<Event>>],
        uses: Recipe,
        work: impl FnOnce() -> CLResult<()>,
    ) -> CLResult<Option<Arc<Object<Event>>>> {
        let (event, due) = {
            let state = self.lock();
            let commands = state_commands(&state);
            if !unfinished(commands.iter().chain(waits)).is_empty() {
                return Ok(None);
            }
            let event = Event::new_command(self, command_type, None, None);
            let due = self.run_on_host_locked(&event, waits, uses, work);
            (event, due)
        };
        due.run();
        Ok(Some(event))
    }

    /// Waits until every command enqueued so far and every event in
    /// `waits` is done, so that a blocking command the host carries out
    /// then runs on the calling thread. Failures are left for the command
    /// to report.
    pub fn wait_for_earlier(&self, waits: &[Arc<Object<Event>>]) {
        let _ = self.flush();
        let commands = state_commands(&self.lock());
        for event in commands.iter().chain(waits) {
            let _ = event.wait();
        }
    }

    /// Runs a host command whose predecessors are done, under the queue's
    /// lock so that no later command of the queue is recorded meanwhile.
    fn run_on_host_locked(
        &self,
        event: &Arc<Object<Event>>,
        waits: &[Arc<Object<Event>>],
        recipe: Recipe,
        more: impl FnOnce() -> CLResult<()>,
    ) -> Notifications {
        let failed_wait = waits
            .iter()
            .any(|wait| matches!(wait.dependency_for(self), Dependency::Failed));
        if failed_wait {
            return event.finish_with(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        }
        match recipe.run_on_host(&self.device, more) {
            Ok(()) => event.finish_with(CL_COMPLETE),
            Err(error) => event.finish_with(error),
        }
    }
}

/// One command enqueued in parts, each submitted at once so the GPU works
/// on one part while the host prepares the next; see [`Object::sequence`].
pub struct Sequence<'q> {
    queue: &'q Arc<Object<Queue>>,
    /// Always Some until dropped: the queue is unlocked before the
    /// callbacks the parts made due run.
    state: Option<MutexGuard<'q, State>>,
    /// The command's wait list, which the first part takes.
    waits: Vec<Arc<Object<Event>>>,
    due: Notifications,
}

impl Sequence<'_> {
    /// Records and submits one part as `event`'s command; returns the
    /// fence it completes at.
    pub fn submit(&mut self, event: &Arc<Object<Event>>, recipe: Recipe) -> CLResult<Fence> {
        let waits = std::mem::take(&mut self.waits);
        let state = self.state.as_mut().ok_or(CL_OUT_OF_RESOURCES)?;
        let recorded = self.queue.record_locked(state, event, &waits, recipe);
        let (due, submitted) = self.queue.submit_locked(state, Completer::Thread);
        self.due.extend(due);
        self.due.extend(recorded?);
        submitted?;
        state.last_submission.clone().ok_or(CL_OUT_OF_RESOURCES)
    }
}

impl Drop for Sequence<'_> {
    fn drop(&mut self) {
        self.state = None;
        std::mem::take(&mut self.due).run();
    }
}

#[cfg(test)]
mod tests {
    use opencl_sys::{CL_COMMAND_NDRANGE_KERNEL, CL_MEM_READ_WRITE};

    use std::sync::mpsc;

    use super::*;
    use crate::core::enqueue::read_buffer;
    use crate::core::host::HostMemory;
    use crate::core::kernel::{ArgValue, Kernel};
    use crate::core::memory::{BufferDescription, Mem};
    use crate::core::ndrange::NdRange;
    use crate::core::program::Program;

    /// A launch block (512 bytes of by-value argument) and a `printf`
    /// buffer per launch, and a loop that gives each launch some work.
    const SOURCE: &str = r#"
        typedef struct { int v[128]; } Block;
        __kernel void add_block(__global int *data, Block b, int spin) {
            size_t i = get_global_id(0);
            uint acc = (uint)i;
            for (int k = 0; k < spin; k++) acc = acc * 1664525u + 1013904223u;
            data[i] += b.v[i];
            if (acc == 0xFFFFFFFFu) printf("%u\n", acc);
        }
    "#;

    const LAUNCHES: usize = 2000;
    const SPIN: i32 = 1000;

    /// Launches enqueued in a loop that each hold a launch block and a
    /// megabyte of `printf` buffer keep a bounded number of buffers alive,
    /// and once the queue is finished only the pool's idle buffers remain.
    /// lavapipe keeps little work in flight by itself, so this cannot show
    /// the queue's own bound at work, only that nothing leaks.
    #[test]
    fn an_enqueue_loop_holds_a_bounded_number_of_buffers() {
        let instance = vulkan::instance().expect("Vulkan instance");
        let index = instance
            .physical_devices()
            .iter()
            .position(|device| device.name.starts_with("llvmpipe"))
            .expect("lavapipe is installed on the test machine");
        // A logical device of its own, so no other test's buffers count.
        let device = Object::new(Device::new(instance, index, 5));
        let context = Context::new(vec![device.clone()], Vec::new(), None).expect("context");
        let program = Program::from_source(&context, SOURCE.to_owned());
        program.build(None, "").expect("build");
        let kernel = Kernel::new(&program, "add_block").expect("kernel");
        let data = Mem::new_buffer(
            &context,
            BufferDescription {
                flags: CL_MEM_READ_WRITE,
                size: 128 * 4,
                contents: Some(&[0; 128 * 4]),
                host_ptr: 0,
                properties: Vec::new(),
            },
        )
        .expect("buffer");
        let block: Vec<u8> = (0..128i32).flat_map(|i| (i % 3).to_le_bytes()).collect();
        kernel
            .set_arg(0, ArgValue::Buffer(Some(data.clone())))
            .expect("arg 0");
        kernel.set_arg(1, ArgValue::Bytes(block)).expect("arg 1");
        kernel
            .set_arg(2, ArgValue::Bytes(SPIN.to_le_bytes().to_vec()))
            .expect("arg 2");
        let queue = Queue::new(&context, &device, 0, Vec::new()).expect("queue");
        let vk = device.vk().expect("device").clone();
        let range = NdRange {
            work_dim: 1,
            global_offset: [0; 3],
            global_size: [128, 1, 1],
            local_size: None,
        };
        let baseline = vk.live_buffers();
        let mut peak = 0;
        for _ in 0..LAUNCHES {
            let (recipe, print) = kernel.launch_recipe(&device, &range).expect("recipe");
            queue
                .enqueue(CL_COMMAND_NDRANGE_KERNEL, &[], recipe, print)
                .expect("enqueue");
            peak = peak.max(vk.live_buffers() - baseline);
        }
        queue.finish().expect("finish");
        // In flight: at most MAX_BYTES_IN_FLIGHT of printf buffers plus
        // what is recorded before a submission (about 160 launches), each
        // with a launch block; idle: at most as many again.
        assert!(peak < 800, "{peak} buffers alive during the loop");
        let (idle, _) = device.buffer_pool().idle();
        // Besides the idle ones only the dummy buffer for NULL arguments
        // was made.
        assert!(
            vk.live_buffers() <= baseline + idle + 1,
            "{} buffers alive after finishing, {idle} of them idle, {baseline} before",
            vk.live_buffers()
        );
        // And the launches all ran.
        let (sender, receiver) = mpsc::channel();
        let target = Box::new(Collect {
            bytes: vec![0; 128 * 4],
            sender,
        });
        read_buffer(&queue, &data, true, 0, target, &[]).expect("read");
        let bytes = receiver.recv().expect("the read's bytes");
        for (i, word) in bytes.chunks_exact(4).enumerate() {
            let value = i32::from_le_bytes([word[0], word[1], word[2], word[3]]);
            assert_eq!(value, (i as i32 % 3) * LAUNCHES as i32, "item {i}");
        }
    }

    /// Host memory for a read that hands its bytes over when the read is
    /// done with it.
    struct Collect {
        bytes: Vec<u8>,
        sender: mpsc::Sender<Vec<u8>>,
    }

    impl HostMemory for Collect {
        fn bytes(&self) -> &[u8] {
            &self.bytes
        }

        fn bytes_mut(&mut self) -> &mut [u8] {
            &mut self.bytes
        }
    }

    impl Drop for Collect {
        fn drop(&mut self) {
            let _ = self.sender.send(std::mem::take(&mut self.bytes));
        }
    }
}
