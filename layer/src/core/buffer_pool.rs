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
//! capped in bytes and in count. A buffer that would not fit under the byte
//! cap pushes out the buffers idle longest, of any shelf (a burst of
//! `printf` launches must not keep the staging of later reads from being
//! shelved), and one that still does not fit is freed.

use std::collections::{HashMap, VecDeque};
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

/// The idle buffers of one size and placement, each with when it was
/// returned, oldest first: the newest is lent first (it is likeliest to be
/// in cache), the oldest pushed out first.
type Shelf = VecDeque<(u64, Arc<vulkan::Buffer>)>;

#[derive(Default)]
struct Shelves {
    idle: HashMap<ShelfKey, Shelf>,
    idle_bytes: u64,
    /// Counts returns, to order idle buffers by age.
    clock: u64,
}

impl Shelves {
    /// Frees the buffers idle longest until `bytes` more fit under
    /// [`MAX_IDLE_BYTES`]; whether they do.
    fn make_room(&mut self, bytes: u64) -> bool {
        while self.idle_bytes + bytes > MAX_IDLE_BYTES {
            let oldest = self
                .idle
                .iter_mut()
                .filter_map(|(&(_, size), shelf)| Some((shelf.front()?.0, size, shelf)))
                .min_by_key(|(returned, _, _)| *returned);
            let Some((_, size, shelf)) = oldest else {
                return false;
            };
            shelf.pop_front();
            self.idle_bytes -= size;
        }
        true
    }
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
        shelves.clock += 1;
        let now = shelves.clock;
        let full = shelves
            .idle
            .get(&key)
            .is_some_and(|shelf| shelf.len() >= MAX_IDLE_PER_SHELF);
        if full || !shelves.make_room(size) {
            return;
        }
        shelves
            .idle
            .entry(key)
            .or_default()
            .push_back((now, self.buffer.clone()));
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
                .and_then(VecDeque::pop_back)
                .map(|(_, buffer)| buffer);
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
            shelves.idle.values().map(VecDeque::len).sum(),
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
    fn a_full_pool_pushes_out_the_buffers_idle_longest() {
        let device = lavapipe();
        let pool = BufferPool::default();
        let big = MAX_POOLED_BYTES;
        let fill = (MAX_IDLE_BYTES / big) as usize;
        // Big buffers fill the pool; a small one then pushes out the one
        // idle longest.
        let leases: Vec<_> = (0..fill)
            .map(|_| pool.take(&device, Placement::Readback, big).unwrap())
            .collect();
        drop(leases);
        assert_eq!(pool.idle(), (fill, MAX_IDLE_BYTES));
        drop(pool.take(&device, Placement::Upload, 1000).unwrap());
        assert_eq!(pool.idle(), (fill, MAX_IDLE_BYTES - big + 1024));
        // Lent out and returned, the big ones push out the small one, idle
        // longer than they.
        let again: Vec<_> = (0..fill)
            .map(|_| pool.take(&device, Placement::Readback, big).unwrap())
            .collect();
        assert_eq!(pool.idle(), (1, 1024));
        drop(again);
        assert_eq!(pool.idle(), (fill, MAX_IDLE_BYTES));
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
