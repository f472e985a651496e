//! Buffers: a `VkBuffer` bound to memory from the device's gpu-allocator,
//! persistently mapped whenever that memory is host-visible, or to host
//! memory imported into the device (see `host_import`).

use std::sync::{Arc, OnceLock};

use ash::vk;
use gpu_allocator::vulkan::{Allocation, AllocationCreateDesc, AllocationScheme};
use gpu_allocator::MemoryLocation;

use super::device::Device;
use super::error::VkError;
use super::host_import::{ImportedMemory, BRIDGE_USAGE};

/// Where a buffer's memory lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Placement {
    /// Fastest for the device; host-visible only on some devices (lavapipe,
    /// resizable BAR), which `Buffer::mapped` reports.
    DeviceLocal,
    /// Host-visible staging the host writes and the device reads.
    Upload,
    /// Host-visible (cached where possible) staging the device writes and the host reads.
    Readback,
    /// Host memory the process allocated and imported into the device
    /// (`Device::import_host_allocation`), only copied to and from;
    /// `Device::create_buffer` makes none.
    HostImported,
}

/// Every buffer can be bound as a storage buffer and copied or filled, and
/// viewed as a storage texel buffer (an `image1d_buffer_t` made from it).
const BUFFER_USAGE: vk::BufferUsageFlags = vk::BufferUsageFlags::from_raw(
    vk::BufferUsageFlags::STORAGE_BUFFER.as_raw()
        | vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER.as_raw()
        | vk::BufferUsageFlags::TRANSFER_SRC.as_raw()
        | vk::BufferUsageFlags::TRANSFER_DST.as_raw(),
);

/// The least alignment of a device-local buffer's memory: the size of the
/// largest OpenCL C type (`long16`, `double16`).
const DEVICE_LOCAL_ALIGNMENT: u64 = 128;

/// Device-local buffers of at least this size go into the BAR window.
/// Smaller ones stay out: the first allocation in the window maps a whole
/// memory block, which added about 5 ms to a fresh process's first result
/// on the H100, and writes this small gain little from going direct.
const BAR_WINDOW_MIN_BYTES: u64 = 32 << 20;

/// Whether a device-local buffer of `size` bytes goes into the BAR window
/// of a discrete GPU (device-local memory the host can map) when it has
/// one: then blocking writes go straight into the buffer
/// (`core::host_direct`). On the H100 (driver 580.159.04, 2026-11-22) a
/// 1 GiB blocking write went at 32.4 GB/s that way against 23.5 GB/s
/// streamed through staging, and kernels read and wrote the window at full
/// speed (copy kernel 2,919 GB/s, copy buffer 2,925 GB/s). A full window
/// gives ordinary device-local memory. `CLVULKAN_DEVICE_LOCAL_MEMORY=separate`
/// keeps every buffer out of it.
fn device_local_in_bar_window(device: &Device, size: u64) -> bool {
    static ALLOWED: OnceLock<bool> = OnceLock::new();
    let allowed = *ALLOWED.get_or_init(|| {
        std::env::var("CLVULKAN_DEVICE_LOCAL_MEMORY").map_or(true, |value| value != "separate")
    });
    allowed
        && size >= BAR_WINDOW_MIN_BYTES
        && device.info().device_local_host_access == super::DeviceLocalHostAccess::BarWindow
}

/// The Vulkan buffer behind a requested size: Vulkan forbids size 0, and
/// vkCmdFillBuffer works in whole words, so round up to a multiple of 4.
pub(crate) fn vulkan_size_for(size: u64) -> u64 {
    size.max(4).div_ceil(4).saturating_mul(4)
}

/// What a buffer's memory comes from.
#[derive(Debug)]
enum Backing {
    /// A block of the device's gpu-allocator.
    Allocated(Allocation),
    /// Host memory imported into the device.
    Imported(ImportedMemory),
}

/// A device buffer. Holds its device alive; freed when the last Arc goes.
pub struct Buffer {
    device: Arc<Device>,
    raw: vk::Buffer,
    /// Always Some after creation; an Option so Drop can hand it back by value.
    memory: Option<Backing>,
    size: u64,
    placement: Placement,
}

impl std::fmt::Debug for Buffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Buffer")
            .field("size", &self.size)
            .field("placement", &self.placement)
            .field("host_visible", &self.mapped().is_some())
            .finish_non_exhaustive()
    }
}

impl Buffer {
    pub(crate) fn create(
        device: &Arc<Device>,
        size: u64,
        placement: Placement,
    ) -> Result<Buffer, VkError> {
        let location = match placement {
            Placement::DeviceLocal => MemoryLocation::GpuOnly,
            Placement::Upload => MemoryLocation::CpuToGpu,
            Placement::Readback => MemoryLocation::GpuToCpu,
            Placement::HostImported => {
                return Err(VkError::InvalidArgument(
                    "host memory is imported (Device::import_host_allocation), not allocated"
                        .to_owned(),
                ))
            }
        };
        let max = device.info().max_memory_allocation_size;
        if size > max {
            return Err(VkError::BufferTooLarge {
                requested: size,
                max,
            });
        }
        // Built up step by step so that an early return destroys exactly
        // what was created (Drop skips the null handle and the missing allocation).
        let mut buffer = Buffer {
            device: Arc::clone(device),
            raw: vk::Buffer::null(),
            memory: None,
            size,
            placement,
        };
        // Counted out again by Drop, which runs on every path from here.
        device.count_buffer(true);
        let raw_device = device.raw();
        let create_info = vk::BufferCreateInfo::default()
            .size(vulkan_size_for(size))
            .usage(BUFFER_USAGE)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        // SAFETY: the size is non-zero and within maxMemoryAllocationSize, the
        // usage flags are valid, and exclusive sharing needs no queue family list.
        buffer.raw = unsafe { raw_device.create_buffer(&create_info, None) }
            .map_err(VkError::call("vkCreateBuffer"))?;
        // SAFETY: `buffer.raw` is a live buffer of this device.
        let mut requirements = unsafe { raw_device.get_buffer_memory_requirements(buffer.raw) };
        if placement == Placement::DeviceLocal {
            // A zero-copy map hands out pointers into device-local buffers;
            // at this alignment they suit any OpenCL C type, as the
            // runtime's own map allocations do.
            requirements.alignment = requirements.alignment.max(DEVICE_LOCAL_ALIGNMENT);
        }

        let describe = |location| AllocationCreateDesc {
            name: "clvulkan buffer",
            requirements,
            location,
            linear: true,
            allocation_scheme: AllocationScheme::GpuAllocatorManaged,
        };
        let in_window = (placement == Placement::DeviceLocal
            && device_local_in_bar_window(device, size))
        .then(|| {
            device
                .allocator()
                .allocate(&describe(MemoryLocation::CpuToGpu))
        })
        .and_then(Result::ok)
        .and_then(|allocation| {
            let properties = allocation.memory_properties();
            if properties.contains(vk::MemoryPropertyFlags::DEVICE_LOCAL) {
                Some(allocation)
            } else {
                // Host memory, not a window into the device's: give
                // it back and take ordinary device-local memory.
                let _ = device.allocator().free(allocation);
                None
            }
        });
        let allocation = match in_window {
            Some(allocation) => allocation,
            None => device.allocator().allocate(&describe(location))?,
        };
        // SAFETY: the allocation was made for this buffer's memory
        // requirements (size, alignment, memory type bits) and is bound once
        // at its own offset; Drop destroys the buffer before freeing the
        // allocation, as gpu-allocator requires of resources on its memory.
        let bound = unsafe {
            raw_device.bind_buffer_memory(buffer.raw, allocation.memory(), allocation.offset())
        };
        buffer.memory = Some(Backing::Allocated(allocation));
        bound.map_err(VkError::call("vkBindBufferMemory"))?;
        Ok(buffer)
    }

    /// A copy buffer of `size` bytes bound to host memory that `import`
    /// imports into `device`, given the buffer's memory requirements
    /// (see `Device::import_host_allocation`).
    pub(crate) fn bind_imported(
        device: &Arc<Device>,
        size: u64,
        import: impl FnOnce(&vk::MemoryRequirements) -> Result<ImportedMemory, VkError>,
    ) -> Result<Buffer, VkError> {
        // Built up as in `create`: Drop destroys what exists on any return.
        let mut buffer = Buffer {
            device: Arc::clone(device),
            raw: vk::Buffer::null(),
            memory: None,
            size,
            placement: Placement::HostImported,
        };
        device.count_buffer(true);
        let raw_device = device.raw();
        let mut external = vk::ExternalMemoryBufferCreateInfo::default()
            .handle_types(vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT);
        let create_info = vk::BufferCreateInfo::default()
            .size(vulkan_size_for(size))
            .usage(BRIDGE_USAGE)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .push_next(&mut external);
        // SAFETY: a non-zero size, valid usage flags, exclusive sharing; the
        // external-memory structure names a handle type the device can
        // import for this usage (`PhysicalDeviceInfo::host_import_alignment`
        // is set only then, and only then can `import` succeed).
        buffer.raw = unsafe { raw_device.create_buffer(&create_info, None) }
            .map_err(VkError::call("vkCreateBuffer"))?;
        // SAFETY: `buffer.raw` is a live buffer of this device.
        let requirements = unsafe { raw_device.get_buffer_memory_requirements(buffer.raw) };
        let imported = import(&requirements)?;
        let memory = imported.raw();
        buffer.memory = Some(Backing::Imported(imported));
        // SAFETY: the memory was imported for this buffer's requirements
        // (a type its bits allow, at least its size, at offset 0, which
        // suits any alignment) with the handle type the buffer was created
        // for; Drop destroys the buffer before freeing the memory.
        unsafe { raw_device.bind_buffer_memory(buffer.raw, memory, 0) }
            .map_err(VkError::call("vkBindBufferMemory"))?;
        Ok(buffer)
    }

    /// The size that was asked for (which may be 0).
    pub fn size(&self) -> u64 {
        self.size
    }

    pub fn placement(&self) -> Placement {
        self.placement
    }

    pub fn device(&self) -> &Arc<Device> {
        &self.device
    }

    /// Whether the host can see the buffer's memory (a mapping, coherent or
    /// not): device writes to it must be made visible to the host at the
    /// end of a submission (see `Stream::submit`).
    pub fn host_visible(&self) -> bool {
        match self.memory.as_ref() {
            Some(Backing::Allocated(allocation)) => allocation
                .memory_properties()
                .contains(vk::MemoryPropertyFlags::HOST_VISIBLE),
            // Host memory imported into the device.
            Some(Backing::Imported(_)) => true,
            None => false,
        }
    }

    /// The persistent host mapping of the buffer's first byte, when its memory
    /// is host-visible and coherent (always for Upload, Readback and
    /// HostImported; for DeviceLocal on devices such as lavapipe). Valid for `size()` bytes as
    /// long as the buffer lives; ordering against device access is the
    /// caller's business (wait on the timeline before reading).
    pub fn mapped(&self) -> Option<*mut u8> {
        let allocation = match self.memory.as_ref()? {
            Backing::Allocated(allocation) => allocation,
            Backing::Imported(imported) => return Some(imported.mapped()),
        };
        let coherent =
            vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        if !allocation.memory_properties().contains(coherent) {
            // Non-coherent memory would need flushes this wrapper does not do.
            return None;
        }
        allocation
            .mapped_ptr()
            .map(|pointer| pointer.as_ptr().cast::<u8>())
    }

    /// Copies `data` into the mapping at `offset`. Errors when the buffer is
    /// not host-visible or the range is outside `size()`. The caller orders
    /// this against device work on the buffer (as for `mapped`).
    pub fn write(&self, offset: u64, data: &[u8]) -> Result<(), VkError> {
        let target = self.mapped_range("Buffer::write", offset, data.len())?;
        // SAFETY: `mapped_range` checked that `offset + data.len()` lies within
        // the live mapping; `copy` allows the ranges to overlap (a zero-copy
        // map hands the application pointers into the mapping, which it may
        // pass back as a write's source); the bytes are plain data (any value
        // is valid) and no Rust reference into the mapping is created, so a
        // concurrent device access can at worst produce wrong bytes, not an
        // invalid value.
        unsafe { std::ptr::copy(data.as_ptr(), target, data.len()) };
        Ok(())
    }

    /// Copies from the mapping at `offset` into `out`; see [`Buffer::write`].
    pub fn read(&self, offset: u64, out: &mut [u8]) -> Result<(), VkError> {
        let source = self.mapped_range("Buffer::read", offset, out.len())?;
        // SAFETY: as in `write`: in bounds of the live mapping, overlap with
        // `out` allowed, plain bytes, no reference into the mapping.
        unsafe { std::ptr::copy(source, out.as_mut_ptr(), out.len()) };
        Ok(())
    }

    /// Copies `length` bytes from this buffer's mapping at `offset` into
    /// `destination`'s at `destination_offset`, both host-visible (buffers
    /// of two devices may be). The caller orders this against device work
    /// on both, as for [`Buffer::write`].
    pub fn copy_mapped(
        &self,
        offset: u64,
        destination: &Buffer,
        destination_offset: u64,
        length: usize,
    ) -> Result<(), VkError> {
        let source = self.mapped_range("Buffer::copy_mapped", offset, length)?;
        let target = destination.mapped_range("Buffer::copy_mapped", destination_offset, length)?;
        // SAFETY: both ranges lie within live mappings (checked by
        // `mapped_range`); `copy` allows them to overlap (the same buffer);
        // plain bytes, no Rust reference into either mapping.
        unsafe { std::ptr::copy(source, target, length) };
        Ok(())
    }

    fn mapped_range(&self, call: &str, offset: u64, length: usize) -> Result<*mut u8, VkError> {
        let base = self.mapped().ok_or_else(|| {
            VkError::InvalidArgument(format!("{call}: the buffer is not host-visible"))
        })?;
        let in_bounds = u64::try_from(length)
            .ok()
            .and_then(|length| offset.checked_add(length))
            .is_some_and(|end| end <= self.size);
        let start = usize::try_from(offset)
            .ok()
            .filter(|_| in_bounds)
            .ok_or_else(|| {
                VkError::InvalidArgument(format!(
                    "{call}: {length} bytes at offset {offset} exceed the buffer's {} bytes",
                    self.size
                ))
            })?;
        // `wrapping_add` keeps this free of unsafe; the result is in bounds
        // (checked above) so it never actually wraps.
        Ok(base.wrapping_add(start))
    }

    pub(crate) fn raw(&self) -> vk::Buffer {
        self.raw
    }

    /// The size of the Vulkan buffer, which bounds what commands may touch.
    pub(crate) fn vulkan_size(&self) -> u64 {
        vulkan_size_for(self.size)
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        // SAFETY: streams keep an Arc<Buffer> for every command that uses the
        // buffer until that command has completed, so the device no longer
        // uses it; destroying a null handle (failed creation) is a no-op.
        unsafe { self.device.raw().destroy_buffer(self.raw, None) };
        match self.memory.take() {
            Some(Backing::Allocated(allocation)) => {
                // Nothing useful can be done about a failed free in Drop.
                let _ = self.device.allocator().free(allocation);
            }
            Some(Backing::Imported(imported)) => imported.free(&self.device),
            None => {}
        }
        self.device.count_buffer(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vulkan::device::tests::lavapipe;

    #[test]
    fn vulkan_sizes_are_whole_words() {
        assert_eq!(vulkan_size_for(0), 4);
        assert_eq!(vulkan_size_for(1), 4);
        assert_eq!(vulkan_size_for(4), 4);
        assert_eq!(vulkan_size_for(5), 8);
    }

    #[test]
    fn buffers_map_and_round_trip_bytes() {
        let device = lavapipe();
        for placement in [
            Placement::Upload,
            Placement::Readback,
            Placement::DeviceLocal,
        ] {
            let buffer = device.create_buffer(1000, placement).expect("buffer");
            assert_eq!(buffer.size(), 1000);
            assert_eq!(buffer.placement(), placement);
            // lavapipe's memory is all host memory, so even DeviceLocal maps.
            assert!(
                buffer.mapped().is_some(),
                "{placement:?} is mapped on lavapipe"
            );
            if placement == Placement::DeviceLocal {
                let address = buffer.mapped().map_or(1, |pointer| pointer as usize);
                assert_eq!(address % DEVICE_LOCAL_ALIGNMENT as usize, 0);
            }
            let data: Vec<u8> = (0..=255).cycle().take(1000).collect();
            buffer.write(0, &data).expect("write");
            let mut back = vec![0; 1000];
            buffer.read(0, &mut back).expect("read");
            assert_eq!(back, data);
            let mut tail = [0; 10];
            buffer.read(990, &mut tail).expect("read tail");
            assert_eq!(tail[..], data[990..]);
            assert!(buffer.read(991, &mut tail).is_err());
            assert!(buffer.write(u64::MAX, &data).is_err());
        }
    }

    #[test]
    fn zero_size_buffers_exist() {
        let device = lavapipe();
        let buffer = device
            .create_buffer(0, Placement::DeviceLocal)
            .expect("buffer");
        assert_eq!(buffer.size(), 0);
        assert_eq!(buffer.vulkan_size(), 4);
        assert!(buffer.write(0, &[]).is_ok());
        assert!(buffer.write(0, &[1]).is_err());
    }

    #[test]
    fn impossible_allocations_are_out_of_memory() {
        let device = lavapipe();
        let error = device
            .create_buffer(1 << 60, Placement::DeviceLocal)
            .expect_err("2^60 bytes cannot be allocated");
        assert!(error.is_out_of_memory(), "{error}");
        // Within maxMemoryAllocationSize but beyond what the heap holds.
        let heap = device.info().device_local_heap_size;
        let max = device.info().max_memory_allocation_size;
        if heap < max {
            let error = device
                .create_buffer(max, Placement::DeviceLocal)
                .expect_err("larger than the heap");
            assert!(error.is_out_of_memory(), "{error}");
        }
    }
}
