//! Host memory imported into devices (`VK_EXT_external_memory_host`).
//!
//! A [`HostAllocation`] is memory the process allocates itself, aligned as
//! the devices ask. Every device that has the extension can bind a copy
//! buffer to it ([`Device::import_host_allocation`]), and several devices
//! (separate `VkDevice`s, of one GPU or of several) can do so with the same
//! allocation at once: what one device's copy writes into its buffer is
//! then in the other's buffer, with no host copy between them. A
//! multi-device context moves buffers between its devices that way
//! (`core::migration`). The allocation lives until the last buffer bound
//! to it is gone.

use std::alloc::Layout;
use std::ptr::NonNull;
use std::sync::Arc;

use ash::vk;

use super::device::Device;
use super::error::VkError;
use super::memory::{vulkan_size_for, Buffer};

/// What a buffer on imported host memory is for: device copies into and
/// out of it, nothing else (no kernel binds one).
pub(crate) const BRIDGE_USAGE: vk::BufferUsageFlags = vk::BufferUsageFlags::from_raw(
    vk::BufferUsageFlags::TRANSFER_SRC.as_raw() | vk::BufferUsageFlags::TRANSFER_DST.as_raw(),
);

/// Page-aligned, zero-initialised host memory for importing into devices.
pub struct HostAllocation {
    pointer: NonNull<u8>,
    layout: Layout,
}

// SAFETY: the allocation is plain bytes owned by this value, with no
// thread affinity. Nothing here hands out references into it: the host
// reaches it only through `Buffer::read`/`write`, which copy through raw
// pointers, and devices through their own buffers.
unsafe impl Send for HostAllocation {}
// SAFETY: as for Send; `&HostAllocation` allows no access to the bytes.
unsafe impl Sync for HostAllocation {}

impl std::fmt::Debug for HostAllocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostAllocation")
            .field("size", &self.layout.size())
            .field("alignment", &self.layout.align())
            .finish()
    }
}

impl HostAllocation {
    /// At least `size` bytes, the address and the size a multiple of
    /// `alignment` (a power of two: the largest
    /// `minImportedHostPointerAlignment` of the devices it is for).
    pub fn new(size: u64, alignment: u64) -> Result<Arc<HostAllocation>, VkError> {
        let invalid = || {
            VkError::InvalidArgument(format!(
                "no host allocation of {size} bytes aligned to {alignment}"
            ))
        };
        let alignment = usize::try_from(alignment).map_err(|_| invalid())?;
        let rounded = usize::try_from(size.max(1))
            .ok()
            .and_then(|size| size.checked_next_multiple_of(alignment))
            .ok_or_else(invalid)?;
        let layout = Layout::from_size_align(rounded, alignment).map_err(|_| invalid())?;
        // SAFETY: the layout's size is at least 1 (and a whole number of
        // `alignment`s), as `alloc_zeroed` requires.
        let raw = unsafe { std::alloc::alloc_zeroed(layout) };
        let pointer = NonNull::new(raw).ok_or(VkError::Call {
            call: "host allocation for import",
            result: vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        })?;
        Ok(Arc::new(HostAllocation { pointer, layout }))
    }

    /// Bytes allocated: the size asked for, rounded up to the alignment.
    pub fn size(&self) -> u64 {
        self.layout.size() as u64
    }

    fn address(&self) -> *mut u8 {
        self.pointer.as_ptr()
    }
}

impl Drop for HostAllocation {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout; every device memory
        // imported from it holds an Arc to it and was freed before the last
        // one went, so no device can reach it any more.
        unsafe { std::alloc::dealloc(self.pointer.as_ptr(), self.layout) };
    }
}

/// The `VkDeviceMemory` a device imported from a [`HostAllocation`], which
/// it keeps alive. Its memory type is always `HOST_COHERENT` (no other is
/// chosen), so nothing needs flushing or invalidating: not the host's
/// accesses through the pointer, nor what one device writes for another
/// to read (`nonCoherentAtomSize` never applies).
#[derive(Debug)]
pub(crate) struct ImportedMemory {
    memory: vk::DeviceMemory,
    host: Arc<HostAllocation>,
}

impl ImportedMemory {
    /// The host's view of the memory: the allocation itself.
    pub(crate) fn mapped(&self) -> *mut u8 {
        self.host.address()
    }

    pub(crate) fn raw(&self) -> vk::DeviceMemory {
        self.memory
    }

    /// Frees the device memory; `device` is the one that imported it, and
    /// the buffer bound to it has been destroyed.
    pub(crate) fn free(self, device: &Device) {
        // SAFETY: the memory was imported by `device` and is bound to no
        // live buffer (the caller destroyed it), and no command uses it
        // (streams keep the buffer alive until their commands complete).
        unsafe { device.raw().free_memory(self.memory, None) };
    }
}

impl Device {
    /// A copy buffer on this device over the first `size` bytes of `host`
    /// (which must not exceed its size); `Buffer::placement` is
    /// `Placement::HostImported`. Several devices may import one
    /// allocation, each its own buffer. Fails where the device lacks the
    /// extension or offers no host-coherent memory type for the pointer.
    pub fn import_host_allocation(
        self: &Arc<Self>,
        host: &Arc<HostAllocation>,
        size: u64,
    ) -> Result<Arc<Buffer>, VkError> {
        let functions = self.host_import().ok_or_else(|| {
            VkError::InvalidArgument(format!(
                "{} cannot import host memory (no VK_EXT_external_memory_host)",
                self.info().name
            ))
        })?;
        let alignment = self.info().host_import_alignment.unwrap_or(1);
        if vulkan_size_for(size) > host.size() || !host.size().is_multiple_of(alignment) {
            return Err(VkError::InvalidArgument(format!(
                "a buffer of {size} bytes on {host:?} for a device that imports at {alignment}"
            )));
        }
        let handle_type = vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT;
        let mut pointer_properties = vk::MemoryHostPointerPropertiesEXT::default();
        // SAFETY: the extension is enabled on this device (the function
        // table exists only then); the pointer is the start of a live
        // allocation aligned to `minImportedHostPointerAlignment` (checked
        // above through its size and by `HostAllocation::new`), and the
        // output structure is valid with an empty chain.
        let queried = unsafe {
            (functions.fp().get_memory_host_pointer_properties_ext)(
                self.raw().handle(),
                handle_type,
                host.address().cast_const().cast(),
                &mut pointer_properties,
            )
        };
        queried
            .result()
            .map_err(VkError::call("vkGetMemoryHostPointerPropertiesEXT"))?;

        Buffer::bind_imported(self, size, |requirements| {
            let allowed = requirements.memory_type_bits & pointer_properties.memory_type_bits;
            let coherent =
                vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
            let types = self.physical().memory_type_flags();
            let memory_type = (0u32..)
                .zip(&types)
                .find(|&(i, flags)| allowed & (1 << i) != 0 && flags.contains(coherent))
                .map(|(i, _)| i)
                .ok_or_else(|| {
                    VkError::InvalidArgument(format!(
                        "{} offers no host-coherent memory type for imported host memory",
                        self.info().name
                    ))
                })?;
            if requirements.size > host.size() {
                return Err(VkError::InvalidArgument(format!(
                    "a buffer of {size} bytes needs {} bytes, more than {host:?}",
                    requirements.size
                )));
            }
            let mut import = vk::ImportMemoryHostPointerInfoEXT::default()
                .handle_type(handle_type)
                .host_pointer(host.address().cast());
            let allocate = vk::MemoryAllocateInfo::default()
                .allocation_size(host.size())
                .memory_type_index(memory_type)
                .push_next(&mut import);
            // SAFETY: an import of the whole allocation: its address and
            // size are multiples of the import alignment, the memory type
            // is one the pointer's properties and the buffer allow, and the
            // allocation outlives the memory (`ImportedMemory` holds it).
            let memory = unsafe { self.raw().allocate_memory(&allocate, None) }
                .map_err(VkError::call("vkAllocateMemory (host import)"))?;
            Ok(ImportedMemory {
                memory,
                host: Arc::clone(host),
            })
        })
        .map(Arc::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vulkan::instance::instance;
    use crate::vulkan::Placement;

    /// Two logical devices of lavapipe, as `CLVULKAN_DEVICE_COPIES=2` makes.
    fn two_lavapipes() -> (Arc<Device>, Arc<Device>) {
        let instance = instance().expect("Vulkan instance");
        let index = instance
            .physical_devices()
            .iter()
            .position(|device| device.name.starts_with("llvmpipe"))
            .expect("lavapipe is installed on the test machine");
        (
            Device::new_copy(instance, index, 0).expect("lavapipe device"),
            Device::new_copy(instance, index, 1).expect("second lavapipe device"),
        )
    }

    #[test]
    fn allocations_are_aligned_and_rounded_up() {
        let host = HostAllocation::new(5000, 4096).expect("allocation");
        assert_eq!(host.size(), 8192);
        assert_eq!(host.address() as usize % 4096, 0);
        assert!(HostAllocation::new(10, 3).is_err(), "not a power of two");
    }

    #[test]
    fn one_allocation_carries_bytes_between_two_devices() {
        let (first, second) = two_lavapipes();
        assert!(
            first.can_import_host_memory(),
            "lavapipe has VK_EXT_external_memory_host"
        );
        let alignment = first.info().host_import_alignment.expect("alignment");
        let size = 3 * 4096 + 5;
        let host = HostAllocation::new(size, alignment).expect("allocation");
        let bridges = [&first, &second]
            .map(|device| device.import_host_allocation(&host, size).expect("import"));
        assert_eq!(bridges[0].placement(), Placement::HostImported);
        assert_eq!(bridges[0].size(), size);

        // Device-local on the first, copied into the bridge there; copied
        // out of the bridge on the second into its own buffer.
        let data: Vec<u8> = (0..size).map(|i| (i * 7 % 251) as u8).collect();
        let source = first
            .create_buffer(size, Placement::DeviceLocal)
            .expect("buffer");
        source.write(0, &data).expect("write");
        let mut there = first.create_stream().expect("stream");
        there
            .copy_buffer(&source, 0, &bridges[0], 0, size)
            .expect("copy");
        let value = there.submit(&[]).expect("submit");
        assert!(there
            .timeline()
            .wait(value, std::time::Duration::MAX)
            .expect("wait"));
        let destination = second
            .create_buffer(size, Placement::DeviceLocal)
            .expect("buffer");
        let mut here = second.create_stream().expect("stream");
        here.copy_buffer(&bridges[1], 0, &destination, 0, size)
            .expect("copy");
        let value = here.submit(&[]).expect("submit");
        assert!(here
            .timeline()
            .wait(value, std::time::Duration::MAX)
            .expect("wait"));
        let mut back = vec![0; size as usize];
        destination.read(0, &mut back).expect("read");
        assert_eq!(back, data);
        // The host sees the same bytes through either buffer.
        bridges[1].read(0, &mut back).expect("read the bridge");
        assert_eq!(back, data);
    }

    #[test]
    fn a_buffer_larger_than_the_allocation_is_refused() {
        let (device, _) = two_lavapipes();
        let alignment = device.info().host_import_alignment.expect("alignment");
        let host = HostAllocation::new(alignment, alignment).expect("allocation");
        assert!(device.import_host_allocation(&host, alignment + 4).is_err());
    }
}
