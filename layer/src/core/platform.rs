//! The one OpenCL platform of this ICD: a process-wide singleton whose
//! devices are the usable Vulkan physical devices, plus the fixed facts
//! `clGetPlatformInfo` reports.

use std::sync::{Arc, OnceLock};

use opencl_sys::{cl_version, CL_INVALID_PLATFORM};

use crate::core::device::Device;
use crate::core::device_selection::{DeviceSelection, DEVICES_VARIABLE};
use crate::core::object::{ClObject, Object, ObjectKind};
use crate::vulkan::{self, PhysicalDeviceInfo};

pub const NAME: &str = "clvulkan";
pub const VENDOR: &str = "clvulkan";
pub const PROFILE: &str = "FULL_PROFILE";
pub const VERSION: &str = concat!("OpenCL 3.0 clvulkan ", env!("CARGO_PKG_VERSION"));
/// What `clGetPlatformInfo(CL_PLATFORM_ICD_SUFFIX_KHR)` reports: the suffix
/// for this ICD's extension function names.
pub const ICD_SUFFIX: &str = "VK";
/// `CL_PLATFORM_NUMERIC_VERSION`: OpenCL 3.0.
pub const NUMERIC_VERSION: cl_version = make_version(3, 0, 0);
/// The platform's extensions: those every device has, with their versions.
/// C++ for OpenCL is the translator's on every device; it names no
/// kernel-language macro (as in clang), so it is listed here rather than
/// among the compiler's. `cl_khr_il_program` (SPIR-V programs) is the
/// runtime's and the translator's on every device alike, and with it
/// `cl_khr_spirv_linkonce_odr` (the SPIR-V front end links
/// `LinkOnceODR` functions).
pub const EXTENSIONS: &[(&str, cl_version)] = &[
    ("cl_khr_icd", make_version(1, 0, 0)),
    ("cl_ext_cxx_for_opencl", make_version(1, 0, 0)),
    ("cl_khr_il_program", make_version(1, 0, 0)),
    ("cl_khr_spirv_linkonce_odr", make_version(1, 0, 0)),
];

/// `CL_MAKE_VERSION`: 10 bits major, 10 bits minor, 12 bits patch.
pub const fn make_version(major: u32, minor: u32, patch: u32) -> cl_version {
    (major << 22) | (minor << 12) | patch
}

pub struct Platform {
    devices: OnceLock<Vec<Arc<Object<Device>>>>,
}

impl ClObject for Platform {
    const KIND: ObjectKind = ObjectKind::Platform;
    const INVALID: opencl_sys::cl_int = CL_INVALID_PLATFORM;
}

static PLATFORM: OnceLock<Arc<Object<Platform>>> = OnceLock::new();

impl Platform {
    /// The platform. Creating it does not touch Vulkan, so the ICD loader's
    /// probing at application start stays cheap.
    pub fn get() -> &'static Arc<Object<Platform>> {
        PLATFORM.get_or_init(|| {
            Object::new(Platform {
                devices: OnceLock::new(),
            })
        })
    }

    /// The usable Vulkan devices that [`DEVICES_VARIABLE`] selects, GPUs
    /// first; the first one is the default device. Without a Vulkan loader
    /// or driver the list is empty. With [`DEVICE_COPIES_VARIABLE`] set,
    /// each appears that many times in a row.
    pub fn devices(&self) -> &[Arc<Object<Device>>] {
        self.devices.get_or_init(|| {
            let instance = match vulkan::instance() {
                Ok(instance) => instance,
                Err(error) => {
                    log::warn!("no Vulkan ({error}): the platform has no devices");
                    return Vec::new();
                }
            };
            let copies = device_copies(std::env::var(DEVICE_COPIES_VARIABLE).ok().as_deref());
            let selection = DeviceSelection::parse(std::env::var(DEVICES_VARIABLE).ok().as_deref());
            let chosen = chosen_devices(instance.physical_devices(), &selection);
            chosen
                .into_iter()
                .flat_map(|index| {
                    (0..copies).map(move |copy| Object::new(Device::new(instance, index, copy)))
                })
                .collect()
        })
    }
}

/// The indices of the physical devices that become OpenCL devices: the
/// usable ones the selection picks. Logs each device left out and why, and
/// warns, listing what there is, when a selection picks nothing.
fn chosen_devices(physical: &[PhysicalDeviceInfo], selection: &DeviceSelection) -> Vec<usize> {
    let mut chosen = Vec::new();
    for (index, info) in physical.iter().enumerate() {
        if !selection.picks(index, &info.name) {
            log::info!(
                "Vulkan device {index} ({}) skipped: not selected by {DEVICES_VARIABLE}",
                info.name
            );
        } else if let Some(reason) = &info.unusable_reason {
            log::info!("Vulkan device {index} ({}) skipped: {reason}", info.name);
        } else {
            log::debug!(
                "Vulkan device {index} ({}) becomes an OpenCL device",
                info.name
            );
            chosen.push(index);
        }
    }
    if chosen.is_empty() && !selection.takes_all() {
        let available: Vec<String> = physical
            .iter()
            .enumerate()
            .map(|(index, info)| match &info.unusable_reason {
                None => format!("{index}: {}", info.name),
                Some(reason) => format!("{index}: {} (unusable: {reason})", info.name),
            })
            .collect();
        log::warn!(
            "{DEVICES_VARIABLE}={} selects no usable Vulkan device, so the platform has none; available: {}",
            std::env::var(DEVICES_VARIABLE).unwrap_or_default(),
            if available.is_empty() { "none".to_string() } else { available.join("; ") }
        );
    }
    chosen
}

/// A test aid: `CLVULKAN_DEVICE_COPIES=n` lists every Vulkan device `n`
/// times, each copy its own OpenCL device on its own `VkDevice` with its
/// own memory, so that multi-device contexts (buffers moving between
/// devices, events across devices' queues) can be tested on a machine with
/// one GPU.
pub const DEVICE_COPIES_VARIABLE: &str = "CLVULKAN_DEVICE_COPIES";

/// The most copies [`DEVICE_COPIES_VARIABLE`] may ask for.
const MAX_DEVICE_COPIES: usize = 8;

/// The number of copies of each device: the variable's value if it is a
/// number from 1 to [`MAX_DEVICE_COPIES`], else 1.
fn device_copies(value: Option<&str>) -> usize {
    value
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| (1..=MAX_DEVICE_COPIES).contains(n))
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::device_copies;

    #[test]
    fn device_copies_default_to_one() {
        assert_eq!(device_copies(None), 1);
        assert_eq!(device_copies(Some("2")), 2);
        assert_eq!(device_copies(Some(" 3 ")), 3);
        assert_eq!(device_copies(Some("0")), 1);
        assert_eq!(device_copies(Some("9")), 1);
        assert_eq!(device_copies(Some("two")), 1);
    }
}
