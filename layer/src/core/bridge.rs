//! Bridges: host memory that the devices of a multi-device context all
//! import (`VK_EXT_external_memory_host`, see [`vulkan::HostAllocation`]),
//! through which a buffer's contents move from one device to another with
//! no copy on the host ([`crate::core::migration`]).
//!
//! A bridge holds one part of a move ([`PART_BYTES`]) and has a copy
//! buffer on each device of the context that has used it. A move takes a
//! few bridges and gives them back when its copies are done; the context
//! keeps them for the next move, because importing (which pins the memory)
//! costs more than moving a part through it. Nothing is allocated until
//! the first move, so a context that moves nothing pays nothing.
//!
//! A device whose import fails (the driver may refuse to pin more memory)
//! is not offered bridges again in this context: its moves go through
//! staging instead.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crate::core::device::Device;
use crate::core::object::Object;
use crate::core::transfer::{PARTS_IN_FLIGHT, PART_BYTES};
use crate::vulkan::{self, HostAllocation, VkError};

/// Idle bridges a context keeps: enough for two moves at once.
const MAX_IDLE: usize = 2 * PARTS_IN_FLIGHT;

/// One part's worth of host memory, imported into the devices that used it.
pub struct Bridge {
    host: Arc<HostAllocation>,
    /// By the index of the device in the context: its buffer over `host`,
    /// once imported.
    views: Vec<Option<Arc<vulkan::Buffer>>>,
}

impl Bridge {
    /// The bridge's buffer on device `index` of the context (`device`),
    /// imported on first use.
    pub fn view(
        &mut self,
        index: usize,
        device: &Arc<vulkan::Device>,
    ) -> Result<Arc<vulkan::Buffer>, VkError> {
        let slot = self
            .views
            .get_mut(index)
            .ok_or_else(|| VkError::InvalidArgument(format!("no device {index} to bridge")))?;
        if let Some(view) = slot {
            return Ok(view.clone());
        }
        let view = device.import_host_allocation(&self.host, PART_BYTES as u64)?;
        Ok(slot.insert(view).clone())
    }
}

/// The bridges of one context.
pub struct Bridges {
    /// By device index: whether that device may take part in bridged
    /// moves (it can import host memory, and no import has failed on it).
    importers: Vec<AtomicBool>,
    /// The alignment every importer accepts: the largest of theirs.
    alignment: u64,
    idle: Mutex<Vec<Bridge>>,
}

impl Bridges {
    /// For a context of `devices`; none of them is asked for anything yet.
    pub fn new(devices: &[Arc<Object<Device>>]) -> Bridges {
        let alignments: Vec<Option<u64>> = devices
            .iter()
            .map(|device| device.info().host_import_alignment)
            .collect();
        // One device has nobody to move buffers to.
        let allowed = devices.len() > 1;
        Bridges {
            importers: alignments
                .iter()
                .map(|alignment| AtomicBool::new(allowed && alignment.is_some()))
                .collect(),
            alignment: alignments.iter().flatten().copied().max().unwrap_or(1),
            idle: Mutex::new(Vec::new()),
        }
    }

    /// Whether a move between devices `from` and `to` (indices in the
    /// context) can go over bridges.
    pub fn connect(&self, from: usize, to: usize) -> bool {
        let importer = |index: usize| {
            self.importers
                .get(index)
                .is_some_and(|importer| importer.load(Ordering::Relaxed))
        };
        importer(from) && importer(to)
    }

    /// Stops offering bridges to device `index` (an import failed there).
    pub fn exclude(&self, index: usize) {
        if let Some(importer) = self.importers.get(index) {
            importer.store(false, Ordering::Relaxed);
        }
    }

    /// `count` bridges, idle ones first, the rest allocated now (imported
    /// into no device yet).
    pub fn take(&self, count: usize) -> Result<Vec<Bridge>, VkError> {
        let mut taken: Vec<Bridge> = {
            let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
            let keep = idle.len().saturating_sub(count);
            idle.drain(keep..).collect()
        };
        while taken.len() < count {
            taken.push(Bridge {
                host: HostAllocation::new(PART_BYTES as u64, self.alignment)?,
                views: vec![None; self.importers.len()],
            });
        }
        Ok(taken)
    }

    /// Bridges no device copies into or out of any more.
    pub fn give_back(&self, bridges: Vec<Bridge>) {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        idle.extend(bridges);
        idle.truncate(MAX_IDLE);
    }

    /// How many bridges are idle (for tests).
    pub fn idle(&self) -> usize {
        self.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}
