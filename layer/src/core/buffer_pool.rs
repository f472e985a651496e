//! Host-visible buffers recycled between commands: the staging of
//! non-blocking reads and writes, the launch block of kernels whose
//! by-value arguments do not fit in push constants, and `printf` buffers.
//!
//! Creating a Vulkan buffer per command costs an allocation and a driver
//! call each time and, for a read of a large buffer, page faults on fresh
//! memory. A command takes a [`Lease`] instead and keeps it alive (in the
//! stream's keep-alive list, and in its host completion when it has one)
//! until the command has completed; dropping the last reference puts the
//! buffer back on its shelf for the next command. Buffers are shelved by
//! placement and size rounded up to a power of two; what is shelved is
//! capped in bytes and in count, and the rest is freed, so the pool holds
//! at most what the busiest recent moment needed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::core::error::VkResultExt;
use crate::core::CLResult;
use crate::vulkan::{self, Placement};

/// The smallest shelf: launch blocks and the like are a few hundred bytes.
const MIN_SHELF_BYTES: u64 = 256;

/// Buffers larger than this are not pooled: a rare huge transfer should
/// not keep its staging for ever.
const MAX_POOLED_BYTES: u64 = 32 << 20;

/// The most bytes of idle buffers the pool keeps.
const MAX_IDLE_BYTES: u64 = 128 << 20;

/// The most idle buffers one shelf keeps: about what a queue has in flight
/// between automatic submissions, so a steady stream of launches finds
/// its buffers shelved.
const MAX_IDLE_PER_SHELF: usize = 4096;

/// Shelves are keyed by placement and rounded size.
type ShelfKey = (Placement, u64);

#[derive(Default)]
struct Shelves {
    idle: HashMap<ShelfKey, Vec<Arc<vulkan::Buffer>>>,
    idle_bytes: u64,
}

/// One device's recycled buffers.
#[derive(Default)]
pub struct BufferPool {
    shelves: Arc<Mutex<Shelves>>,
}

/// A buffer lent by the pool; it returns when the last reference to the
/// lease is dropped, which the holders do once the device is done with it.
pub struct Lease {
    buffer: Arc<vulkan::Buffer>,
    /// `None` for a buffer too large to pool.
    home: Option<Arc<Mutex<Shelves>>>,
}

impl Lease {
    /// The buffer: at least the size asked for (`size()` is the shelf's).
    pub fn buffer(&self) -> &Arc<vulkan::Buffer> {
        &self.buffer
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let Some(home) = &self.home else {
            return;
        };
        let size = self.buffer.size();
        let key = (self.buffer.placement(), size);
        let mut shelves = home.lock().unwrap_or_else(PoisonError::into_inner);
        if shelves.idle_bytes + size > MAX_IDLE_BYTES {
            return;
        }
        let shelf = shelves.idle.entry(key).or_default();
        if shelf.len() >= MAX_IDLE_PER_SHELF {
            return;
        }
        shelf.push(self.buffer.clone());
        shelves.idle_bytes += size;
    }
}

/// The shelf size for a request of `size` bytes, or `None` when it is not
/// pooled.
fn shelf_size(size: u64) -> Option<u64> {
    (size <= MAX_POOLED_BYTES).then(|| size.max(MIN_SHELF_BYTES).next_power_of_two())
}

impl BufferPool {
    /// A host-visible buffer of at least `size` bytes, shelved or new. Its
    /// contents are whatever the previous user left.
    pub fn take(
        &self,
        device: &Arc<vulkan::Device>,
        placement: Placement,
        size: u64,
    ) -> CLResult<Arc<Lease>> {
        let Some(rounded) = shelf_size(size) else {
            let buffer = device
                .create_buffer(size, placement)
                .or_out_of_resources()?;
            return Ok(Arc::new(Lease { buffer, home: None }));
        };
        let shelved = {
            let mut shelves = self.shelves.lock().unwrap_or_else(PoisonError::into_inner);
            let buffer = shelves
                .idle
                .get_mut(&(placement, rounded))
                .and_then(Vec::pop);
            if buffer.is_some() {
                shelves.idle_bytes -= rounded;
            }
            buffer
        };
        let buffer = match shelved {
            // Buffers of another logical device never reach this pool: each
            // device has its own.
            Some(buffer) => buffer,
            None => device
                .create_buffer(rounded, placement)
                .or_out_of_resources()?,
        };
        Ok(Arc::new(Lease {
            buffer,
            home: Some(self.shelves.clone()),
        }))
    }

    /// Idle buffers and their bytes (for tests and diagnostics).
    pub fn idle(&self) -> (usize, u64) {
        let shelves = self.shelves.lock().unwrap_or_else(PoisonError::into_inner);
        (
            shelves.idle.values().map(Vec::len).sum(),
            shelves.idle_bytes,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vulkan::lavapipe;

    #[test]
    fn shelf_sizes_round_up_to_powers_of_two() {
        assert_eq!(shelf_size(0), Some(MIN_SHELF_BYTES));
        assert_eq!(shelf_size(257), Some(512));
        assert_eq!(shelf_size(1 << 20), Some(1 << 20));
        assert_eq!(shelf_size(MAX_POOLED_BYTES + 1), None);
    }

    #[test]
    fn returned_buffers_are_lent_again() {
        let device = lavapipe();
        let pool = BufferPool::default();
        let first = pool.take(&device, Placement::Upload, 300).unwrap();
        assert!(first.buffer().size() >= 300);
        let raw = Arc::as_ptr(first.buffer());
        // While lent, another request gets another buffer.
        let second = pool.take(&device, Placement::Upload, 300).unwrap();
        assert_ne!(Arc::as_ptr(second.buffer()), raw);
        drop(first);
        assert_eq!(pool.idle(), (1, 512));
        let again = pool.take(&device, Placement::Upload, 400).unwrap();
        assert_eq!(Arc::as_ptr(again.buffer()), raw);
        assert_eq!(pool.idle(), (0, 0));
        // Another placement is another shelf.
        let readback = pool.take(&device, Placement::Readback, 300).unwrap();
        assert_ne!(Arc::as_ptr(readback.buffer()), raw);
        drop((second, again, readback));
        assert_eq!(pool.idle(), (3, 3 * 512));
    }

    #[test]
    fn huge_buffers_are_not_kept() {
        let device = lavapipe();
        let pool = BufferPool::default();
        let lease = pool
            .take(&device, Placement::Upload, MAX_POOLED_BYTES + 4)
            .unwrap();
        drop(lease);
        assert_eq!(pool.idle(), (0, 0));
    }
}
