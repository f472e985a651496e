//! A point on a Vulkan timeline: the unit of GPU completion that events wait
//! for and that cross-queue dependencies are expressed in.

use std::sync::Arc;
use std::time::Duration;

use crate::core::error::VkResultExt;
use crate::core::CLResult;
use crate::vulkan::{Timeline, Waiter};

/// How long one blocking wait lasts before checking again; waiting is
/// unbounded overall, this only keeps each Vulkan call short.
const WAIT_SLICE: Duration = Duration::from_secs(1);

#[derive(Clone)]
pub struct Fence {
    pub timeline: Arc<Timeline>,
    pub value: u64,
}

impl Fence {
    pub fn is_reached(&self) -> CLResult<bool> {
        Ok(self.timeline.completed_value().or_out_of_resources()? >= self.value)
    }

    /// Blocks an application thread until the GPU has reached this point.
    pub fn wait(&self) -> CLResult<()> {
        log::debug!(
            "host-side wait: an application thread blocks until the GPU reaches timeline value {}",
            self.value
        );
        self.wait_as(Waiter::Application)
    }

    /// Blocks until the GPU has reached this point; `waiter` says who waits
    /// (see [`Waiter`]).
    pub fn wait_as(&self, waiter: Waiter) -> CLResult<()> {
        // Polling, if any, only at the start: repeating it every slice
        // would keep a core busy through a long wait.
        if self
            .timeline
            .wait_as(waiter, self.value, WAIT_SLICE)
            .or_out_of_resources()?
        {
            return Ok(());
        }
        while !self
            .timeline
            .block(self.value, WAIT_SLICE)
            .or_out_of_resources()?
        {}
        Ok(())
    }

    /// The `(timeline, value)` pair a submission waits on.
    pub fn as_wait(&self) -> (Arc<Timeline>, u64) {
        (self.timeline.clone(), self.value)
    }
}
