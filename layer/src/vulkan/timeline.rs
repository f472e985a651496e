//! Timeline semaphores: how the host (event waits, the completion thread)
//! and other streams learn that a stream's submissions have finished.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ash::vk;

use super::device::Device;
use super::error::VkError;

/// How long a wait polls the counter in a tight loop. On the H100 a
/// blocking wait costs ~35-47 us per round trip against ~13 us when
/// spinning (docs gpu-machine.md), and short kernels finish within this.
const SPIN: Duration = Duration::from_micros(50);

/// The completion thread's tight polling. Kept short: with it as long as
/// the application's, the two pollers slowed each other and one round
/// trip in four took ~57 us instead of ~20 us on the H100.
const BACKGROUND_SPIN: Duration = Duration::from_micros(20);

/// How long a waiting application thread goes on polling before blocking
/// in the driver. NVIDIA's blocking `vkWaitSemaphores` wakes up to ~10 ms
/// late: a 1 GiB copy that takes 0.7 ms measured 10 ms (211 GB/s instead
/// of 4 TB/s on an H200). Work that runs longer than this pays that at
/// most once, a few per cent.
const POLL_BEFORE_BLOCKING: Duration = Duration::from_millis(200);

/// After spinning, an application thread yields its core between polls
/// until this much time has passed, then sleeps between them: a core
/// yielded in a loop is still a core used (60-99% of one while lavapipe
/// compiled a pipeline, half of what the driver had on two cores).
const YIELD_UNTIL: Duration = Duration::from_millis(1);

/// A sleep between polls lasts this fraction of the time waited so far, so
/// a wait that ends during one wakes at most ~3% late (1.5% on average),
/// and a wait polls about 150 times at most before it blocks.
const SLEEP_FRACTION: u32 = 32;

/// The longest sleep between polls, for the validation layer's case,
/// which polls for the whole wait instead of blocking.
const LONGEST_SLEEP: Duration = Duration::from_millis(4);

/// How long to sleep before polling again, `elapsed` into a wait, with at
/// most `left` to go.
fn backoff(elapsed: Duration, left: Duration) -> Duration {
    (elapsed / SLEEP_FRACTION).min(LONGEST_SLEEP).min(left)
}

/// Who waits, which sets how long polling goes on before blocking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waiter {
    /// An application thread blocked in the API (clFinish, a blocking
    /// read, clWaitForEvents): latency is what the application sees.
    Application,
    /// The completion thread: nobody is blocked on it (waiters check the
    /// counter themselves), so it spins briefly and then sleeps.
    Background,
}

/// A timeline semaphore whose value counts a stream's completed submissions.
/// Send + Sync: reading and waiting need no lock. Holds its device alive.
pub struct Timeline {
    device: Arc<Device>,
    raw: vk::Semaphore,
}

impl std::fmt::Debug for Timeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Timeline")
            .field("completed_value", &self.completed_value().ok())
            .finish_non_exhaustive()
    }
}

impl Timeline {
    pub(crate) fn create(device: &Arc<Device>) -> Result<Timeline, VkError> {
        let mut type_info = vk::SemaphoreTypeCreateInfo::default()
            .semaphore_type(vk::SemaphoreType::TIMELINE)
            .initial_value(0);
        let create_info = vk::SemaphoreCreateInfo::default().push_next(&mut type_info);
        // SAFETY: the device was created with the timelineSemaphore feature
        // (devices without it are unusable and never created).
        let raw = unsafe { device.raw().create_semaphore(&create_info, None) }
            .map_err(VkError::call("vkCreateSemaphore"))?;
        Ok(Timeline {
            device: Arc::clone(device),
            raw,
        })
    }

    /// The highest value signalled so far.
    pub fn completed_value(&self) -> Result<u64, VkError> {
        let _serialised = self
            .device
            .serialise_semaphore_queries()
            .then(|| self.device.queue());
        // SAFETY: `raw` is a live timeline semaphore of this device; reading
        // the counter needs no external synchronisation (the lock above is
        // for the validation layer's sake).
        unsafe { self.device.raw().get_semaphore_counter_value(self.raw) }
            .map_err(VkError::call("vkGetSemaphoreCounterValue"))
    }

    /// Waits, as an application thread, until the value reaches `value`:
    /// true when it did, false when `timeout` passed first.
    pub fn wait(&self, value: u64, timeout: Duration) -> Result<bool, VkError> {
        self.wait_as(Waiter::Application, value, timeout)
    }

    /// Waits until the value reaches `value`: true when it did, false when
    /// `timeout` passed first. Polls the counter first: tightly, then, for
    /// an application thread, yielding and then sleeping for longer and
    /// longer between polls; then blocks (see [`Timeline::block`]).
    pub fn wait_as(&self, waiter: Waiter, value: u64, timeout: Duration) -> Result<bool, VkError> {
        let start = Instant::now();
        let poll_for = match waiter {
            Waiter::Application => POLL_BEFORE_BLOCKING,
            Waiter::Background => BACKGROUND_SPIN,
        }
        .min(timeout);
        loop {
            if self.completed_value()? >= value {
                return Ok(true);
            }
            let elapsed = start.elapsed();
            if elapsed >= poll_for {
                break;
            }
            if elapsed < SPIN {
                std::hint::spin_loop();
            } else if elapsed < YIELD_UNTIL {
                std::thread::yield_now();
            } else {
                std::thread::sleep(backoff(elapsed, poll_for - elapsed));
            }
        }
        self.block(value, timeout.saturating_sub(start.elapsed()))
    }

    /// Waits without polling first, in the driver, until the value reaches
    /// `value`: true when it did, false when `timeout` passed first.
    pub fn block(&self, value: u64, timeout: Duration) -> Result<bool, VkError> {
        let start = Instant::now();
        if self.completed_value()? >= value {
            return Ok(true);
        }
        if timeout.is_zero() {
            return Ok(false);
        }
        if self.device.serialise_semaphore_queries() {
            // Under the validation layer: keep polling under the lock
            // rather than block in the driver beside a submitting thread,
            // sleeping longer as the wait goes on.
            loop {
                let elapsed = start.elapsed();
                let left = timeout.saturating_sub(elapsed);
                if left.is_zero() {
                    return Ok(false);
                }
                std::thread::sleep(backoff(elapsed, left).max(SPIN));
                if self.completed_value()? >= value {
                    return Ok(true);
                }
            }
        }
        // u64::MAX nanoseconds means "forever" to vkWaitSemaphores.
        let timeout_ns = u64::try_from(timeout.as_nanos()).unwrap_or(u64::MAX);
        let semaphores = [self.raw];
        let values = [value];
        let wait_info = vk::SemaphoreWaitInfo::default()
            .semaphores(&semaphores)
            .values(&values);
        // SAFETY: the semaphore is a live timeline semaphore of this device and
        // the arrays outlive the call; waiting needs no external synchronisation.
        match unsafe { self.device.raw().wait_semaphores(&wait_info, timeout_ns) } {
            Ok(()) => Ok(true),
            Err(vk::Result::TIMEOUT) => Ok(false),
            Err(result) => Err(VkError::Call {
                call: "vkWaitSemaphores",
                result,
            }),
        }
    }

    pub fn device(&self) -> &Arc<Device> {
        &self.device
    }

    pub(crate) fn raw(&self) -> vk::Semaphore {
        self.raw
    }
}

impl Drop for Timeline {
    fn drop(&mut self) {
        // SAFETY: the stream that signals this semaphore holds an Arc to it and
        // waits for its last signal before letting go, and streams that wait
        // on it keep an Arc until that submission has completed, so no
        // pending queue operation refers to it.
        unsafe { self.device.raw().destroy_semaphore(self.raw, None) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vulkan::device::tests::lavapipe;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn timelines_start_at_zero_and_time_out() {
        assert_send_sync::<Timeline>();
        let device = lavapipe();
        let timeline = Timeline::create(&device).expect("timeline");
        assert_eq!(timeline.completed_value().expect("value"), 0);
        assert!(timeline.wait(0, Duration::ZERO).expect("wait"));
        assert!(!timeline.wait(1, Duration::ZERO).expect("wait"));
        let start = Instant::now();
        assert!(!timeline.wait(1, Duration::from_millis(5)).expect("wait"));
        assert!(start.elapsed() >= Duration::from_millis(5));
        let start = Instant::now();
        assert!(!timeline.block(1, Duration::from_millis(5)).expect("block"));
        assert!(start.elapsed() >= Duration::from_millis(5));
    }

    #[test]
    fn sleeps_between_polls_grow_with_the_wait_and_stop_at_the_deadline() {
        let ms = Duration::from_millis;
        assert_eq!(backoff(ms(2), ms(100)), ms(2) / SLEEP_FRACTION);
        assert!(backoff(ms(64), ms(100)) > backoff(ms(8), ms(100)));
        assert_eq!(backoff(ms(10_000), ms(100)), LONGEST_SLEEP);
        assert_eq!(
            backoff(ms(100), Duration::from_micros(10)),
            Duration::from_micros(10)
        );
    }
}
