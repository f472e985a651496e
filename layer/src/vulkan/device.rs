//! The logical device: one per physical device, shared by every OpenCL
//! context on it. Owns the compute queue (behind a lock, since several
//! streams submit to it), the pipeline cache and the memory allocator.

use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use ash::vk;
use gpu_allocator::vulkan::{Allocator, AllocatorCreateDesc};
use gpu_allocator::{AllocationSizes, AllocatorDebugSettings};

use super::error::VkError;
use super::image::{Image, ImageDescription};
use super::instance::{Instance, PhysicalDevice, PhysicalDeviceInfo};
use super::memory::{Buffer, Placement};
use super::pipeline::ComputePipeline;
use super::pipeline::ImageDescriptorKind;
use super::pipeline_cache;
use super::stream::Stream;
use super::timestamps::{Calibrator, ClockSample};

/// A `VkDevice` with one compute queue. Buffers, pipelines, streams and
/// timelines hold an `Arc<Device>`, so it is destroyed after all of them.
pub struct Device {
    instance: &'static Instance,
    info: &'static PhysicalDeviceInfo,
    physical_index: usize,
    raw: ash::Device,
    queue_family: u32,
    /// vkQueueSubmit needs the queue externally synchronised.
    queue: Mutex<vk::Queue>,
    push_descriptor: Option<ash::khr::push_descriptor::Device>,
    /// `VK_EXT_external_memory_host`, enabled where the device has it (see
    /// `PhysicalDeviceInfo::host_import_alignment`).
    host_import: Option<ash::ext::external_memory_host::Device>,
    /// Reads device and host clocks together, for profiling.
    calibrator: Option<Calibrator>,
    pipeline_cache: vk::PipelineCache,
    /// Held around pipeline creation where the driver cannot take it from
    /// several threads at once (see [`Device::pipeline_creation`]).
    pipeline_creation: Mutex<()>,
    /// New pipelines since the cache was last written, and whether a
    /// thread is writing it.
    cache_dirty: AtomicBool,
    cache_saving: AtomicBool,
    /// Buffers of this device that exist, for leak tests.
    live_buffers: AtomicUsize,
    /// ManuallyDrop because its memory blocks must be freed before the
    /// device is destroyed, which `Drop for Device` orders by hand.
    allocator: ManuallyDrop<Mutex<Allocator>>,
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Device")
            .field("name", &self.info().name)
            .field("physical_index", &self.physical_index)
            .field("queue_family", &self.queue_family)
            .field("push_descriptor", &self.push_descriptor.is_some())
            .finish_non_exhaustive()
    }
}

impl Device {
    /// The logical device of `instance.physical_devices()[physical_index]`.
    /// While one is alive, every call returns that same device.
    pub fn new(instance: &'static Instance, physical_index: usize) -> Result<Arc<Device>, VkError> {
        Device::new_copy(instance, physical_index, 0)
    }

    /// Logical device number `copy` of one physical device: copies are
    /// separate `VkDevice`s (nothing made on one may be used on another),
    /// so that one GPU can stand in for several in tests of multi-device
    /// contexts. Copy 0 is [`Device::new`]'s device.
    pub fn new_copy(
        instance: &'static Instance,
        physical_index: usize,
        copy: usize,
    ) -> Result<Arc<Device>, VkError> {
        let devices = instance.physical_devices();
        let info = devices.get(physical_index).ok_or(VkError::NoSuchDevice {
            index: physical_index,
            count: devices.len(),
        })?;
        if let Some(reason) = &info.unusable_reason {
            return Err(VkError::DeviceUnusable {
                name: info.name.clone(),
                reason: reason.clone(),
            });
        }
        // Held across creation so two contexts never create two devices.
        let mut shared = instance
            .logical_devices()
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let Some(copies) = shared.get_mut(physical_index) else {
            return Err(VkError::NoSuchDevice {
                index: physical_index,
                count: devices.len(),
            });
        };
        if let Some(existing) = copies.get(copy).and_then(Weak::upgrade) {
            return Ok(existing);
        }
        let device = Arc::new(Device::create(instance, physical_index, info)?);
        if copies.len() <= copy {
            copies.resize_with(copy + 1, Weak::new);
        }
        copies[copy] = Arc::downgrade(&device);
        Ok(device)
    }

    fn create(
        instance: &'static Instance,
        physical_index: usize,
        info: &'static PhysicalDeviceInfo,
    ) -> Result<Device, VkError> {
        let queue_family = info
            .compute_queue_family
            .ok_or_else(|| VkError::DeviceUnusable {
                name: info.name.clone(),
                reason: "has no compute queue family".to_owned(),
            })?;
        let raw_instance = instance.raw();
        let features = &info.features;

        // SAFETY: `info.handle` was enumerated from this live instance.
        let extensions = unsafe { raw_instance.enumerate_device_extension_properties(info.handle) }
            .map_err(VkError::call("vkEnumerateDeviceExtensionProperties"))?;
        let has_extension = |name: &std::ffi::CStr| {
            extensions
                .iter()
                .any(|extension| extension.extension_name_as_c_str() == Ok(name))
        };
        let mut enabled_extensions = Vec::new();
        if features.push_descriptor {
            enabled_extensions.push(ash::khr::push_descriptor::NAME.as_ptr());
        }
        let calibration = calibration_extension(instance, info, &has_extension);
        if let Some(name) = calibration {
            enabled_extensions.push(name.as_ptr());
        }
        // Costs nothing unused; a multi-device context moves buffers
        // through host memory imported into its devices.
        if info.host_import_alignment.is_some() {
            enabled_extensions.push(ash::ext::external_memory_host::NAME.as_ptr());
        }
        // The spec requires enabling it wherever it is offered (MoltenVK).
        if has_extension(ash::khr::portability_subset::NAME) {
            enabled_extensions.push(ash::khr::portability_subset::NAME.as_ptr());
        }

        let core_features = vk::PhysicalDeviceFeatures::default()
            .shader_int64(features.shader_int64)
            .shader_int16(features.shader_int16)
            .shader_float64(features.shader_float64)
            .shader_storage_image_read_without_format(features.storage_image_read_without_format)
            .shader_storage_image_write_without_format(features.storage_image_write_without_format);
        let mut features11 = vk::PhysicalDeviceVulkan11Features::default()
            .storage_buffer16_bit_access(features.storage_buffer_16bit);
        let mut features12 = vk::PhysicalDeviceVulkan12Features::default()
            .shader_int8(features.shader_int8)
            .shader_float16(features.shader_float16)
            .storage_buffer8_bit_access(features.storage_buffer_8bit)
            .scalar_block_layout(features.scalar_block_layout)
            .timeline_semaphore(features.timeline_semaphore)
            // vulkanMemoryModel stays off: naga writes the GLSL450 memory
            // model, and with the feature on, Device-scope atomics would also
            // need vulkanMemoryModelDeviceScope (VUID-RuntimeSpirv-
            // vulkanMemoryModel-06265).
            .shader_buffer_int64_atomics(features.shader_buffer_int64_atomics)
            .shader_shared_int64_atomics(features.shader_shared_int64_atomics)
            .shader_subgroup_extended_types(features.subgroup_extended_types);
        let mut size_control =
            vk::PhysicalDeviceSubgroupSizeControlFeatures::default().subgroup_size_control(true);
        let mut features2 = vk::PhysicalDeviceFeatures2::default()
            .features(core_features)
            .push_next(&mut features11)
            .push_next(&mut features12);
        // Kernels with `intel_reqd_sub_group_size` ask for their size.
        if info.subgroup_size_control.is_some() {
            enabled_extensions.push(ash::ext::subgroup_size_control::NAME.as_ptr());
            features2 = features2.push_next(&mut size_control);
        }

        let priorities = [1.0_f32];
        let queue_infos = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(queue_family)
            .queue_priorities(&priorities)];
        let create_info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queue_infos)
            .enabled_extension_names(&enabled_extensions)
            .push_next(&mut features2);

        // SAFETY: every feature requested was reported by this physical
        // device, every extension is in its extension list, the queue family
        // index exists, and all pointers in `create_info` outlive the call.
        let raw = unsafe { raw_instance.create_device(info.handle, &create_info, None) }
            .map_err(VkError::call("vkCreateDevice"))?;

        // SAFETY: queue 0 of `queue_family` was requested in `create_info`.
        let queue = unsafe { raw.get_device_queue(queue_family, 0) };

        let saved = pipeline_cache::load(info);
        let cache_info = vk::PipelineCacheCreateInfo::default().initial_data(&saved);
        // SAFETY: `raw` is a live device; `saved` outlives the call, and the
        // driver checks the data's header and ignores data it cannot use.
        let pipeline_cache = match unsafe { raw.create_pipeline_cache(&cache_info, None) } {
            Ok(cache) => cache,
            Err(result) => {
                // SAFETY: nothing else was created from `raw`.
                unsafe { raw.destroy_device(None) };
                return Err(VkError::Call {
                    call: "vkCreatePipelineCache",
                    result,
                });
            }
        };

        let allocator = Allocator::new(&AllocatorCreateDesc {
            instance: raw_instance.clone(),
            device: raw.clone(),
            physical_device: info.handle,
            debug_settings: AllocatorDebugSettings::default(),
            buffer_device_address: false,
            allocation_sizes: AllocationSizes::default(),
        });
        let allocator = match allocator {
            Ok(allocator) => allocator,
            Err(error) => {
                // SAFETY: the cache is the only child of `raw` and is unused.
                unsafe {
                    raw.destroy_pipeline_cache(pipeline_cache, None);
                    raw.destroy_device(None);
                }
                return Err(VkError::Allocation(error));
            }
        };

        let push_descriptor = features
            .push_descriptor
            .then(|| ash::khr::push_descriptor::Device::new(raw_instance, &raw));
        let host_import = info
            .host_import_alignment
            .map(|_| ash::ext::external_memory_host::Device::new(raw_instance, &raw));
        let calibrator = calibration.map(|name| {
            if name == ash::khr::calibrated_timestamps::NAME {
                Calibrator::Khr(ash::khr::calibrated_timestamps::Device::new(
                    raw_instance,
                    &raw,
                ))
            } else {
                Calibrator::Ext(ash::ext::calibrated_timestamps::Device::new(
                    raw_instance,
                    &raw,
                ))
            }
        });

        Ok(Device {
            instance,
            info,
            physical_index,
            raw,
            queue_family,
            queue: Mutex::new(queue),
            push_descriptor,
            host_import,
            calibrator,
            pipeline_cache,
            pipeline_creation: Mutex::new(()),
            cache_dirty: AtomicBool::new(false),
            cache_saving: AtomicBool::new(false),
            live_buffers: AtomicUsize::new(0),
            allocator: ManuallyDrop::new(Mutex::new(allocator)),
        })
    }

    pub fn info(&self) -> &'static PhysicalDeviceInfo {
        self.info
    }

    /// How many buffers of this device exist now (tests check that loops
    /// do not leak them).
    pub fn live_buffers(&self) -> usize {
        self.live_buffers.load(Ordering::Relaxed)
    }

    /// Counts a buffer in ([`Device::live_buffers`]); `false` counts one out.
    pub(crate) fn count_buffer(&self, created: bool) {
        if created {
            self.live_buffers.fetch_add(1, Ordering::Relaxed);
        } else {
            self.live_buffers.fetch_sub(1, Ordering::Relaxed);
        }
    }

    pub fn instance(&self) -> &'static Instance {
        self.instance
    }

    /// Index of this device in `instance().physical_devices()`.
    pub fn physical_index(&self) -> usize {
        self.physical_index
    }

    pub fn queue_family(&self) -> u32 {
        self.queue_family
    }

    /// Whether streams of this device can write timestamps.
    pub fn has_timestamps(&self) -> bool {
        self.info.timestamp_valid_bits > 0
    }

    /// The device's tick count now with the matching `host_clock` time,
    /// when the device has calibrated timestamps; `None` otherwise (the
    /// caller then samples with a submission, see `Stream::write_timestamp`).
    pub fn sample_clocks(
        &self,
        host_clock: &dyn Fn() -> u64,
    ) -> Result<Option<ClockSample>, VkError> {
        self.calibrator
            .as_ref()
            .map(|calibrator| calibrator.sample(self, host_clock))
            .transpose()
    }

    /// A buffer of `size` bytes (a zero size is allowed and reported as zero).
    pub fn create_buffer(
        self: &Arc<Self>,
        size: u64,
        placement: Placement,
    ) -> Result<Arc<Buffer>, VkError> {
        Buffer::create(self, size, placement).map(Arc::new)
    }

    /// An image in optimal tiling on device-local memory; its first
    /// command must be [`Stream::initialize_image`].
    pub fn create_image(
        self: &Arc<Self>,
        description: ImageDescription,
    ) -> Result<Arc<Image>, VkError> {
        Image::create(self, description).map(Arc::new)
    }

    /// What the device can do with `format` (optimal tiling, linear tiling
    /// and buffer features).
    pub fn format_properties(&self, format: vk::Format) -> vk::FormatProperties {
        self.physical().format_properties(format)
    }

    /// The physical device this device was created on.
    pub fn physical(&self) -> PhysicalDevice {
        // Checked when the device was created.
        PhysicalDevice {
            instance: self.instance,
            index: self.physical_index,
        }
    }

    /// A compute pipeline whose descriptor set 0 has `storage_buffers`
    /// storage-buffer bindings (0, 1, ...) and whose push-constant block is
    /// `push_constant_size` bytes, run with subgroups of `subgroup_size`
    /// where given.
    pub fn create_compute_pipeline(
        self: &Arc<Self>,
        spirv: &[u32],
        entry_point: &str,
        storage_buffers: u32,
        images: &[ImageDescriptorKind],
        push_constant_size: u32,
        subgroup_size: Option<u32>,
    ) -> Result<Arc<ComputePipeline>, VkError> {
        let pipeline = ComputePipeline::create(
            self,
            spirv,
            entry_point,
            storage_buffers,
            images,
            push_constant_size,
            true,
            subgroup_size,
        )?;
        self.save_pipeline_cache();
        Ok(Arc::new(pipeline))
    }

    /// Writes the pipeline cache to disk, on a thread of its own so that
    /// the launch that compiled a new pipeline does not wait for the file.
    /// Saves are serialised; a save that finds another one running leaves
    /// it to write the newer data too.
    pub(crate) fn save_pipeline_cache(self: &Arc<Self>) {
        if pipeline_cache::path(self.info).is_none() {
            return;
        }
        self.cache_dirty.store(true, Ordering::Release);
        if self.cache_saving.swap(true, Ordering::AcqRel) {
            return;
        }
        // Exit waits for the save; once exit has begun none starts.
        let Some(running) = super::exit_guard::begin() else {
            self.cache_saving.store(false, Ordering::Release);
            return;
        };
        let device = Arc::clone(self);
        let spawned = std::thread::Builder::new()
            .name("clvulkan pipeline cache".into())
            .spawn(move || loop {
                let _running = &running;
                while device.cache_dirty.swap(false, Ordering::AcqRel)
                    && !super::exit_guard::exiting()
                {
                    // SAFETY: the cache is a live child of this device (the
                    // thread holds an Arc<Device>) and is internally
                    // synchronised, so reading it while pipelines are
                    // created is allowed.
                    let data = unsafe { device.raw.get_pipeline_cache_data(device.pipeline_cache) };
                    if let Ok(data) = data {
                        pipeline_cache::store(device.info, &data);
                    }
                }
                device.cache_saving.store(false, Ordering::Release);
                // A save asked for after the last check saw this thread
                // still running and left the work to it.
                if !device.cache_dirty.load(Ordering::Acquire)
                    || device.cache_saving.swap(true, Ordering::AcqRel)
                {
                    break;
                }
            });
        if spawned.is_err() {
            self.cache_saving.store(false, Ordering::Release);
        }
    }

    /// A command stream for one OpenCL command queue.
    pub fn create_stream(self: &Arc<Self>) -> Result<Stream, VkError> {
        Stream::create(self)
    }

    pub(crate) fn raw(&self) -> &ash::Device {
        &self.raw
    }

    pub(crate) fn push_descriptor(&self) -> Option<&ash::khr::push_descriptor::Device> {
        self.push_descriptor.as_ref()
    }

    /// `VK_EXT_external_memory_host`'s functions, where it was enabled.
    pub(crate) fn host_import(&self) -> Option<&ash::ext::external_memory_host::Device> {
        self.host_import.as_ref()
    }

    /// Whether buffers of this device can be bound to a [`HostAllocation`]
    /// ([`Device::import_host_allocation`]).
    ///
    /// [`HostAllocation`]: super::HostAllocation
    pub fn can_import_host_memory(&self) -> bool {
        self.host_import.is_some()
    }

    /// A guard to hold while creating a pipeline, or `None` where the
    /// driver creates pipelines on several threads correctly, as Vulkan
    /// allows.
    ///
    /// NVIDIA's 580 driver does not: with pipelines created on several
    /// threads while others submit to the queue, now and then a later
    /// dispatch never finishes. The GPU stays busy and the queue behind it
    /// stalls, with no unmet wait and no device loss. Measured on an H200
    /// (580.159.04) with nine image-kernel test threads in one process:
    /// 9 of 66 runs hung as created in parallel, 0 of 44 with creation
    /// serialised, with or without a pipeline cache object.
    pub(crate) fn pipeline_creation(&self) -> Option<MutexGuard<'_, ()>> {
        (self.info.driver_id == vk::DriverId::NVIDIA_PROPRIETARY).then(|| {
            // The guard protects no data, so a poisoned lock is still usable.
            self.pipeline_creation
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        })
    }

    pub(crate) fn pipeline_cache(&self) -> vk::PipelineCache {
        self.pipeline_cache
    }

    /// Whether the validation layer is loaded. Its state tracking of
    /// timeline semaphores is not thread-safe (1.3.239 crashed in
    /// `vkGetSemaphoreCounterValue` while another thread submitted), so
    /// semaphore queries then take the queue lock too and never block in
    /// the driver (see `Timeline`).
    pub(crate) fn serialise_semaphore_queries(&self) -> bool {
        self.instance.validation() != super::instance::ValidationMode::Off
    }

    /// The queue, locked for the duration of one submission.
    pub(crate) fn queue(&self) -> MutexGuard<'_, vk::Queue> {
        // A panic while submitting leaves the queue handle itself intact.
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn allocator(&self) -> MutexGuard<'_, Allocator> {
        // gpu-allocator keeps its bookkeeping consistent between calls, so a
        // panic elsewhere while the lock was held does not corrupt it.
        self.allocator
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// The calibrated-timestamps extension to enable (KHR preferred), if the
/// device has one and can calibrate its own time domain with it.
fn calibration_extension(
    instance: &Instance,
    info: &PhysicalDeviceInfo,
    has_extension: &dyn Fn(&std::ffi::CStr) -> bool,
) -> Option<&'static std::ffi::CStr> {
    if info.timestamp_valid_bits == 0 {
        return None;
    }
    let (entry, raw) = (instance.entry(), instance.raw());
    let domains = if has_extension(ash::khr::calibrated_timestamps::NAME) {
        let functions = ash::khr::calibrated_timestamps::Instance::new(entry, raw);
        // SAFETY: the physical device was enumerated from this instance and
        // supports the extension, which makes the query available.
        let domains =
            unsafe { functions.get_physical_device_calibrateable_time_domains(info.handle) };
        domains.map(|d| (ash::khr::calibrated_timestamps::NAME, d))
    } else if has_extension(ash::ext::calibrated_timestamps::NAME) {
        let functions = ash::ext::calibrated_timestamps::Instance::new(entry, raw);
        // SAFETY: as above.
        let domains =
            unsafe { functions.get_physical_device_calibrateable_time_domains(info.handle) };
        domains.map(|d| (ash::ext::calibrated_timestamps::NAME, d))
    } else {
        return None;
    };
    match domains {
        Ok((name, domains)) if domains.contains(&vk::TimeDomainKHR::DEVICE) => Some(name),
        _ => None,
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        // SAFETY: every object that records or submits work holds an
        // Arc<Device>, so none is left; waiting here is a last guard against
        // destroying a device with work in flight, and the queue lock makes
        // the external synchronisation of all queues hold.
        let _ = unsafe {
            let _queue = self.queue();
            self.raw.device_wait_idle()
        };
        // SAFETY: pipelines created through the cache hold Arc<Device> and are gone.
        unsafe { self.raw.destroy_pipeline_cache(self.pipeline_cache, None) };
        // SAFETY: every Buffer (holding an Arc<Device>) has returned its
        // allocation; the allocator frees its blocks while the device still
        // exists, and it is not touched again.
        unsafe { ManuallyDrop::drop(&mut self.allocator) };
        // SAFETY: all child objects of the device were destroyed above or by
        // their owners, which could not outlive this Device.
        unsafe { self.raw.destroy_device(None) };
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::vulkan::instance::instance;

    /// The lavapipe device every test shares.
    pub(crate) fn lavapipe() -> Arc<Device> {
        let instance = instance().expect("Vulkan instance");
        let index = instance
            .physical_devices()
            .iter()
            .position(|device| device.name.starts_with("llvmpipe"))
            .expect("lavapipe is installed on the test machine");
        Device::new(instance, index).expect("lavapipe device")
    }

    #[test]
    fn devices_are_shared_per_physical_device() {
        let first = lavapipe();
        let second = lavapipe();
        assert!(Arc::ptr_eq(&first, &second));
        assert!(first.info().name.starts_with("llvmpipe"));
    }

    #[test]
    fn bad_index_is_an_error() {
        let instance = instance().expect("Vulkan instance");
        let count = instance.physical_devices().len();
        assert!(matches!(
            Device::new(instance, count),
            Err(VkError::NoSuchDevice { .. })
        ));
    }
}
