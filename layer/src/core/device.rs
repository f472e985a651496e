//! An OpenCL device: one Vulkan physical device, the values `clGetDeviceInfo`
//! derives from its limits and features, and the per-device resources shared
//! by every context that uses it (the logical device, a transfer stream for
//! initial buffer contents and the copies that move buffers between
//! devices, the dummy buffer bound for NULL buffer arguments, recycled
//! staging buffers, and the completion thread).

use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use ash::vk;
use opencl_sys::{
    cl_device_type, cl_version, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU,
    CL_INVALID_DEVICE, CL_OUT_OF_RESOURCES,
};
use translator::DeviceCaps;

use crate::core::buffer_pool::{BufferPool, Lease};
use crate::core::builtin_kernels::BuiltinKernels;
use crate::core::caps::device_caps;
use crate::core::clock_rate;
use crate::core::completion::CompletionThread;
use crate::core::error::VkResultExt;
use crate::core::fence::Fence;
use crate::core::host_direct;
use crate::core::image_format;
use crate::core::loop_cap;
use crate::core::object::{ClObject, ObjectKind};
use crate::core::platform;
use crate::core::profiling::DeviceClock;
use crate::core::transfer::StagingPool;
use crate::core::transfer_trace;
use crate::core::CLResult;
use crate::vulkan::{self, DeviceLocalHostAccess, Instance, PhysicalDeviceInfo, Placement};

/// The largest OpenCL C type (`long16`, `double16`) is 128 bytes; buffers
/// are aligned to at least that so any kernel argument type is aligned.
const LARGEST_TYPE_BYTES: u64 = 128;

/// The spec's floor for `CL_DEVICE_MAX_MEM_ALLOC_SIZE` on a full-profile
/// device that is not a custom device.
const MIN_MAX_ALLOC_BYTES: u64 = 32 * 1024 * 1024;

/// Storage-buffer bindings the runtime may add to a kernel's own: the
/// `printf` buffer, the program-scope globals' block and the launch block
/// of arguments that outgrow the push constants. A device whose driver
/// cuts loops short adds a fourth, the loop status word
/// ([`crate::core::loop_cap`]).
pub const RUNTIME_BINDINGS: u32 = 3;

/// The most private memory a work-item may use on a CPU device (lavapipe).
/// Vulkan states no such limit. lavapipe keeps a work-item's private
/// arrays in registers and on its threads' stacks, lowering each
/// dynamically indexed access into a branch per element, and its compile
/// time grows with the square of an array's size: on a 2-core machine,
/// one `float` array indexed at run time took 0.4 s to compile at 1 KiB,
/// 3 s at 2 KiB, 12 s at 4 KiB and over 2 minutes at 16 KiB (a 256 KiB one
/// blocked the enqueue for over 100 s, a 1 GiB one overflowed the stack).
const CPU_PRIVATE_BYTES: u64 = 4 << 10;

/// The most private memory a work-item may use on a GPU: no GPU gives a
/// thread more scratch than CUDA's 512 KiB of local memory per thread,
/// and drivers report less that they cannot hold as a failed pipeline.
const GPU_PRIVATE_BYTES: u64 = 512 << 10;

/// One copy on a device's transfer stream ([`Device::start_transfer`]):
/// `size` bytes of `source` from `source_offset` to `destination` at
/// `destination_offset`, both buffers of that device.
pub struct TransferCopy<'a> {
    pub source: &'a Arc<vulkan::Buffer>,
    pub source_offset: u64,
    pub destination: &'a Arc<vulkan::Buffer>,
    pub destination_offset: u64,
    pub size: u64,
}

/// Bytes of the dummy buffer bound where a kernel gets a NULL buffer
/// argument: the descriptor needs something real, the kernel must not touch it.
const NULL_BUFFER_BYTES: u64 = 64;

pub struct Device {
    instance: &'static Instance,
    physical_index: usize,
    /// Which logical device of the physical device this is (see
    /// [`platform::DEVICE_COPIES_VARIABLE`]); 0 unless copies were asked for.
    copy: usize,
    info: &'static PhysicalDeviceInfo,
    caps: DeviceCaps,
    /// `caps` as programs are built with them: with the loop guard where
    /// the driver cuts loops short, which takes a probe on the device, so
    /// it is found on the first build (or query that needs it).
    build_caps: OnceLock<DeviceCaps>,
    /// What the translator keeps between this device's builds.
    translator: translator::Session,
    clock: DeviceClock,
    /// Serialises the lazy creation of the fields below.
    init: Mutex<()>,
    logical: OnceLock<Arc<vulkan::Device>>,
    null_buffer: OnceLock<Arc<vulkan::Buffer>>,
    completion: OnceLock<CompletionThread>,
    builtin_kernels: OnceLock<BuiltinKernels>,
    /// See [`Device::prefers_compute_copies`]; read once, not per copy.
    compute_copies: bool,
    /// What reads, writes and maps may do with device-local buffers
    /// directly (see [`crate::core::host_direct`]).
    host_access: DeviceLocalHostAccess,
    /// Used only for the initial contents of memory objects, which are
    /// uploaded synchronously so that every queue sees them, and for the
    /// copies that move a buffer's contents to or from another device.
    transfer: Mutex<Option<vulkan::Stream>>,
    staging: StagingPool,
    buffer_pool: BufferPool,
}

impl ClObject for Device {
    const KIND: ObjectKind = ObjectKind::Device;
    const INVALID: opencl_sys::cl_int = CL_INVALID_DEVICE;
}

impl Device {
    pub fn new(instance: &'static Instance, physical_index: usize, copy: usize) -> Self {
        let info = &instance.physical_devices()[physical_index];
        Device {
            instance,
            physical_index,
            copy,
            info,
            caps: match vulkan::PhysicalDevice::new(instance, physical_index) {
                Some(physical) => image_format::with_image_caps(physical, device_caps(info)),
                None => device_caps(info),
            },
            build_caps: OnceLock::new(),
            translator: translator::Session::new(),
            clock: DeviceClock::new(info),
            init: Mutex::new(()),
            logical: OnceLock::new(),
            null_buffer: OnceLock::new(),
            builtin_kernels: OnceLock::new(),
            compute_copies: match std::env::var("CLVULKAN_COPY").as_deref() {
                Ok("compute") => true,
                Ok("transfer") => false,
                _ => info.device_type == vk::PhysicalDeviceType::DISCRETE_GPU,
            },
            host_access: host_direct::effective_access(info.device_local_host_access),
            completion: OnceLock::new(),
            transfer: Mutex::new(None),
            staging: StagingPool::default(),
            buffer_pool: BufferPool::default(),
        }
    }

    pub fn info(&self) -> &'static PhysicalDeviceInfo {
        self.info
    }

    pub fn caps(&self) -> &DeviceCaps {
        &self.caps
    }

    /// The capabilities programs for this device are built with: [`caps`]
    /// and, where the driver cuts loops short, the loop guard (the probe
    /// runs on the first call; see [`crate::core::loop_cap`]).
    ///
    /// [`caps`]: Device::caps
    pub fn build_caps(&self) -> &DeviceCaps {
        self.build_caps.get_or_init(|| DeviceCaps {
            loop_guard: loop_cap::driver_cuts_loops(self),
            ..self.caps.clone()
        })
    }

    /// The translator session this device's programs are built in.
    pub fn translator(&self) -> &translator::Session {
        &self.translator
    }

    /// Converts GPU timestamps to host time for profiling.
    pub fn clock(&self) -> &DeviceClock {
        &self.clock
    }

    pub fn name(&self) -> &str {
        &self.info.name
    }

    /// The staging buffers that large transfers stream through.
    pub fn staging(&self) -> &StagingPool {
        &self.staging
    }

    /// A recycled host-visible buffer of at least `size` bytes (see
    /// [`crate::core::buffer_pool`]).
    pub fn lease(&self, placement: Placement, size: u64) -> CLResult<Arc<Lease>> {
        self.buffer_pool.take(self.vk()?, placement, size)
    }

    /// The recycled host-visible buffers [`Device::lease`] lends.
    pub fn buffer_pool(&self) -> &BufferPool {
        &self.buffer_pool
    }

    /// A compute pipeline for a translated kernel: its entry point and
    /// layout come from the kernel's reflection.
    pub fn kernel_pipeline(
        &self,
        spirv: &[u32],
        reflection: &translator::reflect::KernelReflection,
    ) -> CLResult<Arc<vulkan::ComputePipeline>> {
        self.vk()?
            .create_compute_pipeline(
                spirv,
                &reflection.name,
                reflection.storage_buffers,
                &image_descriptor_kinds(&reflection.images),
                reflection.pipeline_push_constant_size(),
                reflection.required_sub_group_size,
            )
            .or_out_of_resources()
    }

    /// The logical device, created on first use and shared by all contexts.
    pub fn vk(&self) -> CLResult<&Arc<vulkan::Device>> {
        if let Some(device) = self.logical.get() {
            return Ok(device);
        }
        let _guard = self.init.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(device) = self.logical.get() {
            return Ok(device);
        }
        let device = vulkan::Device::new_copy(self.instance, self.physical_index, self.copy)
            .or_out_of_resources()?;
        transfer_trace::note_device(
            self.name(),
            self.info.device_local_host_access,
            self.host_access,
        );
        Ok(self.logical.get_or_init(|| device))
    }

    /// The completion thread, if one was started.
    pub fn started_completion(&self) -> Option<&CompletionThread> {
        self.completion.get()
    }

    /// The thread that completes this device's events.
    pub fn completion(&self) -> CLResult<&CompletionThread> {
        if let Some(thread) = self.completion.get() {
            return Ok(thread);
        }
        let _guard = self.init.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(thread) = self.completion.get() {
            return Ok(thread);
        }
        let thread = CompletionThread::spawn(self.name())?;
        Ok(self.completion.get_or_init(|| thread))
    }

    /// The runtime's own kernels, compiled on first use.
    pub fn builtin_kernels(&self) -> CLResult<&BuiltinKernels> {
        if let Some(kernels) = self.builtin_kernels.get() {
            return Ok(kernels);
        }
        // Made before taking `init`, which creating the device also takes.
        self.vk()?;
        let _guard = self.init.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(kernels) = self.builtin_kernels.get() {
            return Ok(kernels);
        }
        let kernels = BuiltinKernels::new(self)?;
        Ok(self.builtin_kernels.get_or_init(|| kernels))
    }

    /// Whether buffer-to-buffer copies run as a compute dispatch rather than
    /// `vkCmdCopyBuffer`: on discrete GPUs, where a copy shader reaches the
    /// memory bandwidth and the transfer command on a compute queue does
    /// not (H100: 847 GB/s against ~3 TB/s); on CPU drivers the transfer
    /// command is the faster one. `CLVULKAN_COPY=compute|transfer`
    /// overrides, for tests and measurements.
    pub fn prefers_compute_copies(&self) -> bool {
        self.compute_copies
    }

    /// What a NULL buffer kernel argument is bound to.
    pub fn null_buffer(&self) -> CLResult<&Arc<vulkan::Buffer>> {
        if let Some(buffer) = self.null_buffer.get() {
            return Ok(buffer);
        }
        let vk = self.vk()?;
        let _guard = self.init.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(buffer) = self.null_buffer.get() {
            return Ok(buffer);
        }
        let buffer = vk
            .create_buffer(NULL_BUFFER_BYTES, Placement::DeviceLocal)
            .or_allocation_failure()?;
        Ok(self.null_buffer.get_or_init(|| buffer))
    }

    /// The image size limits (`CL_DEVICE_IMAGE*_MAX_*`).
    pub fn image_limits(&self) -> crate::core::image::ImageLimits {
        crate::core::image::ImageLimits::of(self)
    }

    /// `CL_DEVICE_MAX_READ_IMAGE_ARGS`: sampled-image descriptors per
    /// stage, capped at the spec's minimum for a device with images.
    pub fn max_read_image_args(&self) -> u32 {
        self.info
            .limits
            .max_per_stage_descriptor_sampled_images
            .min(128)
    }

    /// `CL_DEVICE_MAX_WRITE_IMAGE_ARGS` and `_READ_WRITE_`: storage-image
    /// descriptors per stage, capped at the spec's minimum.
    pub fn max_write_image_args(&self) -> u32 {
        self.info
            .limits
            .max_per_stage_descriptor_storage_images
            .min(64)
    }

    /// Copies `bytes` into the start of `destination` and waits until the
    /// copy is done, so the contents are there for any queue afterwards
    /// (written straight into its mapping where that is direct).
    pub fn upload_and_wait(&self, destination: &Arc<vulkan::Buffer>, bytes: &[u8]) -> CLResult<()> {
        if host_direct::write_is_direct(self.host_access, destination, bytes.len(), true) {
            return destination.write(0, bytes).or_out_of_resources();
        }
        let staging = self.lease(Placement::Upload, bytes.len() as u64)?;
        staging.buffer().write(0, bytes).or_out_of_resources()?;
        let copy = (staging.buffer(), destination, bytes.len() as u64);
        self.transfer_and_wait(copy, staging.clone())
    }

    /// Puts a new image into the layout it keeps and, given `contents`
    /// (the packed texels of the whole image), fills it; waits until done,
    /// so every queue finds it ready.
    pub fn initialize_image(
        &self,
        image: &Arc<vulkan::Image>,
        contents: Option<&[u8]>,
    ) -> CLResult<()> {
        let vk = self.vk()?;
        let staging = match contents {
            Some(bytes) => {
                let staging = self.lease(Placement::Upload, bytes.len() as u64)?;
                staging.buffer().write(0, bytes).or_out_of_resources()?;
                Some(staging)
            }
            None => None,
        };
        let fence = {
            let mut transfer = self.transfer.lock().unwrap_or_else(PoisonError::into_inner);
            let stream = match transfer.as_mut() {
                Some(stream) => stream,
                None => transfer.insert(vk.create_stream().or_out_of_resources()?),
            };
            stream.retire_completed();
            stream.initialize_image(image).or_out_of_resources()?;
            if let Some(staging) = staging {
                let description = image.description();
                let whole = vulkan::ImageRegion {
                    offset: [0; 3],
                    extent: description.extent,
                    first_layer: 0,
                    layers: description.layers,
                };
                stream
                    .copy_buffer_to_image(staging.buffer(), 0, image, whole)
                    .or_out_of_resources()?;
                stream.keep_alive(staging);
            }
            let value = stream.submit(&[]).or_out_of_resources()?;
            Fence {
                timeline: stream.timeline().clone(),
                value,
            }
        };
        fence.wait()?;
        Ok(())
    }

    /// Runs one copy `(source, destination, bytes)` on the transfer stream
    /// and waits for it; `staging` is kept until the copy is done.
    fn transfer_and_wait(
        &self,
        (source, destination, size): (&Arc<vulkan::Buffer>, &Arc<vulkan::Buffer>, u64),
        staging: Arc<Lease>,
    ) -> CLResult<()> {
        let copy = TransferCopy {
            source,
            source_offset: 0,
            destination,
            destination_offset: 0,
            size,
        };
        self.submit_transfer(copy, Some(staging))?.wait()?;
        // Let the staging go back to the pool now, not at the next transfer.
        self.retire_transfers();
        Ok(())
    }

    /// Submits `copy` on the transfer stream (which moves buffers between
    /// devices, [`crate::core::migration`]) and returns when it will be
    /// done, without waiting; its buffers are kept until then.
    pub fn start_transfer(&self, copy: TransferCopy) -> CLResult<Fence> {
        self.submit_transfer(copy, None)
    }

    /// [`Device::start_transfer`], keeping `staging` too.
    fn submit_transfer(&self, copy: TransferCopy, staging: Option<Arc<Lease>>) -> CLResult<Fence> {
        let vk = self.vk()?;
        let mut transfer = self.transfer.lock().unwrap_or_else(PoisonError::into_inner);
        let stream = match transfer.as_mut() {
            Some(stream) => stream,
            None => transfer.insert(vk.create_stream().or_out_of_resources()?),
        };
        stream.retire_completed();
        stream
            .copy_buffer(
                copy.source,
                copy.source_offset,
                copy.destination,
                copy.destination_offset,
                copy.size,
            )
            .or_out_of_resources()?;
        stream.keep_alive(copy.source.clone());
        stream.keep_alive(copy.destination.clone());
        if let Some(staging) = staging {
            stream.keep_alive(staging);
        }
        let value = stream.submit(&[]).or_out_of_resources()?;
        Ok(Fence {
            timeline: stream.timeline().clone(),
            value,
        })
    }

    /// Lets go of what the transfer stream kept for copies that are done
    /// (staging goes back to its pool).
    pub fn retire_transfers(&self) {
        if let Some(stream) = self
            .transfer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
        {
            stream.retire_completed();
        }
    }

    pub fn device_type(&self) -> cl_device_type {
        match self.info.device_type {
            vk::PhysicalDeviceType::CPU => CL_DEVICE_TYPE_CPU,
            vk::PhysicalDeviceType::DISCRETE_GPU
            | vk::PhysicalDeviceType::INTEGRATED_GPU
            | vk::PhysicalDeviceType::VIRTUAL_GPU => CL_DEVICE_TYPE_GPU,
            _ => CL_DEVICE_TYPE_ACCELERATOR,
        }
    }

    /// Vulkan has no portable count of compute units (SMs, CUs, EUs). CPU
    /// drivers such as lavapipe spread work groups over host threads, so the
    /// host's parallelism is the true figure there. For GPUs the count is a
    /// sizing hint that applications multiply into grid sizes: too low
    /// leaves most of a large GPU idle, too high only oversubscribes it, so
    /// the estimates err high (current discrete GPUs have 20 to 150 SMs/CUs).
    /// Vulkan's core API does not count compute units: a CPU device has
    /// the host's cores, a GPU its multiprocessors where a vendor
    /// extension states them, and otherwise a typical figure for its kind.
    pub fn max_compute_units(&self) -> u32 {
        match (self.info.device_type, self.info.shader_core_count) {
            (vk::PhysicalDeviceType::CPU, _) => std::thread::available_parallelism()
                .map(|n| n.get() as u32)
                .unwrap_or(1),
            (_, Some(cores)) => cores,
            (vk::PhysicalDeviceType::DISCRETE_GPU, None) => 128,
            (vk::PhysicalDeviceType::INTEGRATED_GPU, None) => 32,
            _ => 16,
        }
    }

    pub fn max_work_group_size(&self) -> usize {
        self.info.limits.max_compute_work_group_invocations as usize
    }

    pub fn max_work_item_sizes(&self) -> [usize; 3] {
        self.info
            .limits
            .max_compute_work_group_size
            .map(|n| n as usize)
    }

    pub fn max_work_group_count(&self) -> [u32; 3] {
        self.info.limits.max_compute_work_group_count
    }

    /// One storage buffer must cover a whole allocation (kernels bind whole
    /// buffers), Vulkan caps single allocations, and a quarter of the heap
    /// leaves room for several buffers, as the spec's floor assumes.
    pub fn max_mem_alloc_size(&self) -> u64 {
        let quarter_heap = (self.info.device_local_heap_size / 4).max(MIN_MAX_ALLOC_BYTES);
        quarter_heap
            .min(u64::from(self.info.limits.max_storage_buffer_range))
            .min(self.info.max_memory_allocation_size)
    }

    /// The device-local heap, unless the largest allocation is too small
    /// for it. The spec asks `CL_DEVICE_MAX_MEM_ALLOC_SIZE` to be at least
    /// min(1 GiB, a quarter of this), and an allocation is capped by
    /// `maxStorageBufferRange` (128 MiB on lavapipe, against 2 GiB of
    /// memory), because a buffer is one storage-buffer binding. So such a
    /// device reports four times its largest allocation.
    pub fn global_mem_size(&self) -> u64 {
        let heap = self.info.device_local_heap_size;
        let max_alloc = self.max_mem_alloc_size();
        if max_alloc < (heap / 4).min(1 << 30) {
            max_alloc * 4
        } else {
            heap
        }
    }

    /// `CL_DEVICE_MAX_CLOCK_FREQUENCY` (see [`crate::core::clock_rate`]).
    pub fn max_clock_mhz(&self) -> u32 {
        match self.info.device_type {
            vk::PhysicalDeviceType::CPU => clock_rate::host_max_mhz(),
            _ => 0,
        }
    }

    pub fn local_mem_size(&self) -> u64 {
        u64::from(self.info.limits.max_compute_shared_memory_size)
    }

    /// The most private memory one work-item may keep addressed (indexed
    /// at run time or reached through pointers; see
    /// [`crate::core::private_memory`]): beyond it, a launch is
    /// `CL_OUT_OF_RESOURCES` rather than an enqueue that stalls for
    /// minutes or a process taken down (see [`CPU_PRIVATE_BYTES`]).
    pub fn max_private_bytes(&self) -> u64 {
        match self.device_type() {
            CL_DEVICE_TYPE_CPU => CPU_PRIVATE_BYTES,
            _ => GPU_PRIVATE_BYTES,
        }
    }

    /// `CL_DEVICE_MEM_BASE_ADDR_ALIGN`, in bits.
    pub fn mem_base_addr_align_bits(&self) -> u32 {
        let bytes = self
            .info
            .limits
            .min_storage_buffer_offset_alignment
            .max(LARGEST_TYPE_BYTES);
        (bytes * 8) as u32
    }

    pub fn address_bits(&self) -> u32 {
        self.caps.address_bits
    }

    /// Push-constant bytes a kernel may use (header plus by-value arguments).
    pub fn max_push_constants_size(&self) -> u32 {
        self.info.limits.max_push_constants_size
    }

    /// By-value arguments travel in push constants after the header, or in
    /// a storage buffer when they do not fit there, so any size works; this
    /// is the full profile's minimum, or the push-constant room if larger.
    pub fn max_parameter_size(&self) -> usize {
        let push_constant_room =
            self.max_push_constants_size()
                .saturating_sub(translator::PushConstantHeader::SIZE) as usize;
        push_constant_room.max(1024)
    }

    /// Every buffer argument, `__constant` included, is a storage buffer.
    /// Storage buffers one kernel may bind: every buffer argument is one,
    /// and so are the runtime's own (see [`RUNTIME_BINDINGS`]).
    pub fn max_storage_buffers(&self) -> u32 {
        let limits = &self.info.limits;
        limits
            .max_per_stage_descriptor_storage_buffers
            .min(limits.max_descriptor_set_storage_buffers)
            .min(limits.max_per_stage_resources)
    }

    /// `CL_DEVICE_MAX_CONSTANT_ARGS`: each `__constant` argument is a
    /// storage buffer of its own, so a kernel with this many of them, a
    /// `__global` buffer for its results and every binding the runtime may
    /// add still fits [`Device::max_storage_buffers`]. Under the full
    /// profile's 8 only where the device binds fewer than 12 storage
    /// buffers per stage (Vulkan guarantees 4). No more than the pointers
    /// [`Device::max_parameter_size`] holds: a GPU that binds a million
    /// buffers still takes no kernel with more arguments than that.
    pub fn max_constant_args(&self) -> u32 {
        let pointer_bytes = self.caps.address_bits as usize / 8;
        let by_parameters =
            u32::try_from(self.max_parameter_size() / pointer_bytes).unwrap_or(u32::MAX);
        let runtime = RUNTIME_BINDINGS + u32::from(self.build_caps().loop_guard);
        self.max_storage_buffers()
            .saturating_sub(runtime + 1)
            .min(by_parameters - 1)
    }

    pub fn subgroup_size(&self) -> u32 {
        self.info.subgroup_size.max(1)
    }

    /// OpenCL C requires 64-bit integers on full-profile devices.
    pub fn profile(&self) -> &'static str {
        if self.caps.int64 {
            "FULL_PROFILE"
        } else {
            "EMBEDDED_PROFILE"
        }
    }

    /// CPUs and integrated GPUs share memory with the host, as does any
    /// device whose device-local memory the host maps cached; a BAR window
    /// on a discrete GPU does not count.
    pub fn host_unified_memory(&self) -> bool {
        self.info.device_local_host_access == DeviceLocalHostAccess::Unified
    }

    /// What host transfers may do with this device's device-local buffers
    /// without staging; `None` when `CLVULKAN_HOST_DIRECT=0`.
    pub fn host_access(&self) -> DeviceLocalHostAccess {
        self.host_access
    }

    /// `CL_DEVICE_VENDOR` from the PCI (or Khronos) vendor ID.
    pub fn vendor_name(&self) -> &str {
        match self.info.vendor_id {
            0x1002 => "Advanced Micro Devices, Inc.",
            0x1010 => "Imagination Technologies",
            0x106b => "Apple Inc.",
            0x10de => "NVIDIA Corporation",
            0x13b5 => "ARM",
            0x14e4 => "Broadcom",
            0x1ae0 => "Google",
            0x5143 => "Qualcomm",
            0x8086 => "Intel(R) Corporation",
            0x10005 => "Mesa",
            _ => &self.info.driver_name,
        }
    }

    /// The device's extensions with their versions: the runtime's own
    /// (those the platform lists) and the translator's for this device.
    pub fn extensions(&self) -> Vec<(&'static str, cl_version)> {
        let compiler = self
            .caps
            .extensions()
            .into_iter()
            .map(|name| (name, platform::make_version(1, 0, 0)));
        platform::EXTENSIONS
            .iter()
            .copied()
            .chain(compiler)
            .collect()
    }

    /// Fails with `CL_OUT_OF_RESOURCES` when a kernel's push constants do not
    /// fit this device.
    pub fn check_push_constants(&self, bytes: u32) -> CLResult<()> {
        if bytes > self.max_push_constants_size() {
            return Err(CL_OUT_OF_RESOURCES);
        }
        Ok(())
    }
}

/// The Vulkan descriptor types of a kernel's image bindings.
fn image_descriptor_kinds(
    images: &[translator::image::ImageDescriptor],
) -> Vec<vulkan::ImageDescriptorKind> {
    use translator::image::ImageDescriptor;
    images
        .iter()
        .map(|descriptor| match descriptor {
            ImageDescriptor::Sampled => vulkan::ImageDescriptorKind::SampledImage,
            ImageDescriptor::Storage => vulkan::ImageDescriptorKind::StorageImage,
            ImageDescriptor::StorageTexelBuffer => vulkan::ImageDescriptorKind::StorageTexelBuffer,
        })
        .collect()
}
