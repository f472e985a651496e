//! GPU timestamps for profiling: query pools in fixed-size chunks that a
//! stream hands out one slot at a time and recycles, the handle to one
//! written timestamp, and the device/host clock sample that converts ticks
//! to host time (`VK_KHR/EXT_calibrated_timestamps`).
//!
//! A chunk belongs to one recording at a time: it is reset inside that
//! recording's command buffer before its first write, and goes back to the
//! stream's spares when the recording completes. It is reused only when no
//! [`TimestampQuery`] refers to it any more, so a result is never reset
//! before whoever wanted it has read it.

use std::sync::Arc;

use ash::vk;

use super::device::Device;
use super::error::VkError;

/// Queries per pool: a chunk serves 64 profiled commands.
pub(crate) const QUERIES_PER_CHUNK: u32 = 128;

/// One timestamp query pool.
pub(crate) struct QueryChunk {
    device: Arc<Device>,
    raw: vk::QueryPool,
}

impl QueryChunk {
    pub(crate) fn create(device: &Arc<Device>) -> Result<Arc<QueryChunk>, VkError> {
        let info = vk::QueryPoolCreateInfo::default()
            .query_type(vk::QueryType::TIMESTAMP)
            .query_count(QUERIES_PER_CHUNK);
        // SAFETY: a live device; a timestamp pool needs no pipeline statistics.
        let raw = unsafe { device.raw().create_query_pool(&info, None) }
            .map_err(VkError::call("vkCreateQueryPool"))?;
        Ok(Arc::new(QueryChunk {
            device: Arc::clone(device),
            raw,
        }))
    }

    pub(crate) fn raw(&self) -> vk::QueryPool {
        self.raw
    }
}

impl Drop for QueryChunk {
    fn drop(&mut self) {
        // SAFETY: the last reference: no recording that uses the pool is
        // pending (recordings hold a reference until they complete).
        unsafe { self.device.raw().destroy_query_pool(self.raw, None) };
    }
}

/// Where one timestamp is written; read it once its submission completed.
#[derive(Clone)]
pub struct TimestampQuery {
    pub(crate) chunk: Arc<QueryChunk>,
    pub(crate) index: u32,
}

impl std::fmt::Debug for TimestampQuery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TimestampQuery")
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

impl TimestampQuery {
    /// The device ticks written, or `None` when the GPU has not written
    /// them (the submission failed or has not completed).
    pub fn ticks(&self) -> Result<Option<u64>, VkError> {
        let mut value = [0u64; 1];
        // SAFETY: the index is inside the pool; the pool is alive (held by
        // this query); without WAIT the call returns NOT_READY rather than
        // block when the query is unavailable.
        let read = unsafe {
            self.chunk.device.raw().get_query_pool_results(
                self.chunk.raw,
                self.index,
                &mut value,
                vk::QueryResultFlags::TYPE_64,
            )
        };
        match read {
            Ok(()) => Ok(Some(value[0] & valid_mask(&self.chunk.device))),
            Err(vk::Result::NOT_READY) => Ok(None),
            Err(result) => Err(VkError::Call {
                call: "vkGetQueryPoolResults",
                result,
            }),
        }
    }
}

/// The bits of a timestamp the compute queue family writes.
fn valid_mask(device: &Device) -> u64 {
    match device.info().timestamp_valid_bits {
        bits @ 1..=63 => (1u64 << bits) - 1,
        _ => u64::MAX,
    }
}

/// Device ticks and the host time they correspond to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSample {
    pub ticks: u64,
    pub host_ns: u64,
}

/// The calibrated-timestamps extension of a device, when it has one whose
/// time domains include the device's own.
pub(crate) enum Calibrator {
    Khr(ash::khr::calibrated_timestamps::Device),
    Ext(ash::ext::calibrated_timestamps::Device),
}

impl Calibrator {
    /// Device ticks paired with `host_clock`, read right before and after
    /// the device's timestamp and averaged.
    pub(crate) fn sample(
        &self,
        device: &Device,
        host_clock: &dyn Fn() -> u64,
    ) -> Result<ClockSample, VkError> {
        let domains =
            [vk::CalibratedTimestampInfoKHR::default().time_domain(vk::TimeDomainKHR::DEVICE)];
        let before = host_clock();
        // SAFETY: the extension is enabled on this device and the device
        // domain is one of its calibrateable domains (checked when the
        // calibrator was made).
        let read = unsafe {
            match self {
                Calibrator::Khr(functions) => functions.get_calibrated_timestamps(&domains),
                Calibrator::Ext(functions) => functions.get_calibrated_timestamps(&domains),
            }
        };
        let after = host_clock();
        let (ticks, _deviation) = read.map_err(VkError::call("vkGetCalibratedTimestamps"))?;
        let ticks = ticks.first().copied().ok_or(VkError::Call {
            call: "vkGetCalibratedTimestamps",
            result: vk::Result::ERROR_UNKNOWN,
        })?;
        Ok(ClockSample {
            ticks: ticks & valid_mask(device),
            host_ns: before + (after.saturating_sub(before)) / 2,
        })
    }
}
