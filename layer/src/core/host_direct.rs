//! Which host transfers skip staging: the decision per read, write and map
//! between the host touching a device-local buffer's mapping directly and
//! the staged path (a GPU copy through host-visible staging).
//!
//! - Unified memory (lavapipe, integrated GPUs): reads, writes and their
//!   rect variants copy between application memory and the buffer's
//!   mapping once the command's dependencies are done, and a map hands out
//!   a pointer into the buffer itself (zero copy), which unmap leaves in
//!   place. `CL_MEM_USE_HOST_PTR` maps still use `host_ptr`.
//! - A BAR window on a discrete GPU (where device-local buffers are placed
//!   when there is room, see `vulkan::memory`): blocking writes are direct
//!   (write-combined stores; 32.4 GB/s for 1 GiB on the H100 against 23.5
//!   streamed through staging); reads and maps stay staged, since uncached
//!   reads across the bus are far slower than a GPU copy.
//!   [`BAR_LIMIT_VARIABLE`] caps the size of direct writes.
//! - Otherwise, or with `CLVULKAN_HOST_DIRECT=0`, everything is staged.
//!
//! A direct transfer needs the buffer's memory to be host-visible and
//! coherent ([`vulkan::Buffer::mapped`]); gpu-allocator decides that per
//! allocation, so every decision looks at the buffer as well as the device.

use std::sync::OnceLock;

use crate::vulkan::{self, DeviceLocalHostAccess};

/// The environment variable that turns direct host access off (`0`), so
/// that every transfer takes the staged path.
pub const SWITCH_VARIABLE: &str = "CLVULKAN_HOST_DIRECT";

/// The largest blocking write done directly into a BAR window, unless
/// [`BAR_LIMIT_VARIABLE`] says otherwise: no limit, since the direct write
/// was the faster at every size measured (up to 1 GiB on the H100).
pub const BAR_DIRECT_WRITE_MAX_BYTES: usize = usize::MAX;

/// The environment variable that replaces [`BAR_DIRECT_WRITE_MAX_BYTES`]
/// (in bytes), for measuring where direct writes stop paying.
pub const BAR_LIMIT_VARIABLE: &str = "CLVULKAN_BAR_DIRECT_WRITE_MAX";

fn bar_direct_write_max() -> usize {
    static LIMIT: OnceLock<usize> = OnceLock::new();
    *LIMIT.get_or_init(|| {
        std::env::var(BAR_LIMIT_VARIABLE)
            .ok()
            .and_then(|value| value.trim().parse().ok())
            .unwrap_or(BAR_DIRECT_WRITE_MAX_BYTES)
    })
}

/// Whether direct host access may be used at all in this process.
fn allowed() -> bool {
    static ALLOWED: OnceLock<bool> = OnceLock::new();
    *ALLOWED.get_or_init(|| {
        std::env::var(SWITCH_VARIABLE)
            .map(|value| value.trim() != "0")
            .unwrap_or(true)
    })
}

/// What the transfer code may do with a device's device-local memory: its
/// classification, or [`DeviceLocalHostAccess::None`] when switched off.
pub fn effective_access(classified: DeviceLocalHostAccess) -> DeviceLocalHostAccess {
    if allowed() {
        classified
    } else {
        DeviceLocalHostAccess::None
    }
}

/// A read of `buffer` into application memory copies from its mapping.
pub fn read_is_direct(access: DeviceLocalHostAccess, buffer: &vulkan::Buffer) -> bool {
    access == DeviceLocalHostAccess::Unified && buffer.mapped().is_some()
}

/// A write of `size` bytes into `buffer` copies into its mapping.
pub fn write_is_direct(
    access: DeviceLocalHostAccess,
    buffer: &vulkan::Buffer,
    size: usize,
    blocking: bool,
) -> bool {
    let by_access = match access {
        DeviceLocalHostAccess::Unified => true,
        DeviceLocalHostAccess::BarWindow => blocking && size <= bar_direct_write_max(),
        DeviceLocalHostAccess::None => false,
    };
    by_access && buffer.mapped().is_some()
}

/// A map of `buffer` hands out a pointer into its mapping.
pub fn map_is_zero_copy(access: DeviceLocalHostAccess, buffer: &vulkan::Buffer) -> bool {
    read_is_direct(access, buffer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vulkan::{lavapipe, Placement};

    #[test]
    fn decisions_follow_the_memory_and_the_size() {
        use DeviceLocalHostAccess::*;
        let device = lavapipe();
        let mapped = device
            .create_buffer(64, Placement::DeviceLocal)
            .expect("buffer");
        let big = 1 << 40;
        assert!(read_is_direct(Unified, &mapped));
        assert!(write_is_direct(Unified, &mapped, big, false));
        assert!(map_is_zero_copy(Unified, &mapped));
        assert!(!read_is_direct(BarWindow, &mapped));
        assert!(!map_is_zero_copy(BarWindow, &mapped));
        assert!(write_is_direct(BarWindow, &mapped, 4096, true));
        assert!(!write_is_direct(BarWindow, &mapped, 4096, false));
        assert!(write_is_direct(BarWindow, &mapped, big, true));
        assert!(!read_is_direct(None, &mapped));
        assert!(!write_is_direct(None, &mapped, 4, true));
    }
}
