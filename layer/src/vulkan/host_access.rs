//! How the host reaches a device's device-local memory: the classification
//! that decides whether reads, writes and maps may skip staging.
//!
//! The class says what the device offers. Whether one particular buffer
//! can use it is [`crate::vulkan::Buffer::mapped`]'s answer: device-local
//! buffers get the first memory type with `DEVICE_LOCAL` (gpu-allocator's
//! `MemoryLocation::GpuOnly`), and on a discrete GPU that type is usually
//! not host-visible even when a BAR window is listed after it; then
//! nothing can be done directly with the buffer.

use ash::vk;

/// What the host can do with device-local memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceLocalHostAccess {
    /// The host and device share memory: device-local memory is
    /// host-visible and cached (lavapipe, integrated GPUs), or the device
    /// is a CPU or an integrated GPU. Host reads and writes run at memory
    /// speed.
    Unified,
    /// A discrete device whose device-local memory is host-visible but not
    /// cached: a PCIe BAR window. Host writes are write-combined and fast;
    /// host reads cross the bus uncached and are very slow.
    BarWindow,
    /// The host cannot map device-local memory.
    None,
}

impl DeviceLocalHostAccess {
    /// The classification of a device of `device_type` whose memory types
    /// are `types`.
    pub fn classify(
        device_type: vk::PhysicalDeviceType,
        types: &[vk::MemoryType],
    ) -> DeviceLocalHostAccess {
        let shares_memory = matches!(
            device_type,
            vk::PhysicalDeviceType::CPU | vk::PhysicalDeviceType::INTEGRATED_GPU
        );
        let visible =
            vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let device_local_with = |wanted: vk::MemoryPropertyFlags| {
            types.iter().any(|memory_type| {
                memory_type
                    .property_flags
                    .contains(vk::MemoryPropertyFlags::DEVICE_LOCAL | wanted)
            })
        };
        if shares_memory || device_local_with(visible | vk::MemoryPropertyFlags::HOST_CACHED) {
            DeviceLocalHostAccess::Unified
        } else if device_local_with(visible) {
            DeviceLocalHostAccess::BarWindow
        } else {
            DeviceLocalHostAccess::None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn types(flags: &[vk::MemoryPropertyFlags]) -> Vec<vk::MemoryType> {
        flags
            .iter()
            .map(|&property_flags| vk::MemoryType {
                property_flags,
                heap_index: 0,
            })
            .collect()
    }

    const LOCAL: vk::MemoryPropertyFlags = vk::MemoryPropertyFlags::DEVICE_LOCAL;
    const VISIBLE: vk::MemoryPropertyFlags = vk::MemoryPropertyFlags::from_raw(
        vk::MemoryPropertyFlags::HOST_VISIBLE.as_raw()
            | vk::MemoryPropertyFlags::HOST_COHERENT.as_raw(),
    );
    const CACHED: vk::MemoryPropertyFlags = vk::MemoryPropertyFlags::HOST_CACHED;

    #[test]
    fn memory_types_classify_by_what_device_local_memory_offers() {
        use DeviceLocalHostAccess::*;
        let discrete = vk::PhysicalDeviceType::DISCRETE_GPU;
        // lavapipe-like: one type, everything.
        let all = types(&[LOCAL | VISIBLE | CACHED]);
        assert_eq!(DeviceLocalHostAccess::classify(discrete, &all), Unified);
        // Resizable BAR as the first device-local type.
        let bar = types(&[LOCAL | VISIBLE, VISIBLE | CACHED]);
        assert_eq!(DeviceLocalHostAccess::classify(discrete, &bar), BarWindow);
        // A BAR window listed after plain device-local memory (buffers get
        // the plain one, which `Buffer::mapped` tells per buffer).
        let behind = types(&[LOCAL, VISIBLE, LOCAL | VISIBLE]);
        assert_eq!(
            DeviceLocalHostAccess::classify(discrete, &behind),
            BarWindow
        );
        // No window: the host-visible memory is not device-local.
        let apart = types(&[LOCAL, VISIBLE | CACHED]);
        assert_eq!(DeviceLocalHostAccess::classify(discrete, &apart), None);
        assert_eq!(DeviceLocalHostAccess::classify(discrete, &[]), None);
        // Integrated GPUs and CPUs share memory whatever the types say.
        let integrated = vk::PhysicalDeviceType::INTEGRATED_GPU;
        assert_eq!(
            DeviceLocalHostAccess::classify(integrated, &behind),
            Unified
        );
        let cpu = vk::PhysicalDeviceType::CPU;
        assert_eq!(DeviceLocalHostAccess::classify(cpu, &bar), Unified);
    }
}
