//! The process-wide `VkInstance`: loader, validation layer and debug
//! messenger, and what every physical device can do (queried once, since
//! OpenCL asks for device properties over and over).

use std::ffi::{c_void, CStr};
use std::io::Write;
use std::sync::{Mutex, OnceLock, PoisonError, Weak};

use ash::vk;

use super::device::Device;
use super::error::VkError;
use super::host_access::DeviceLocalHostAccess;

const VALIDATION_LAYER: &CStr = c"VK_LAYER_KHRONOS_validation";
const VALIDATION_ENV: &str = "CLVULKAN_VALIDATION";

/// How `CLVULKAN_VALIDATION` asks validation messages to be handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValidationMode {
    /// No validation layer (unset, empty, `0`, `off`, `false`, `no`).
    Off,
    /// Print warnings and errors to stderr (`1` or any other value).
    Report,
    /// Print, then abort the process (`fatal`), so no test passes with a message.
    Fatal,
}

impl ValidationMode {
    /// Reads `CLVULKAN_VALIDATION`.
    pub fn from_env() -> ValidationMode {
        Self::parse(std::env::var(VALIDATION_ENV).ok().as_deref())
    }

    fn parse(value: Option<&str>) -> ValidationMode {
        let Some(value) = value.map(str::trim) else {
            return ValidationMode::Off;
        };
        if value.eq_ignore_ascii_case("fatal") {
            ValidationMode::Fatal
        } else if value.is_empty()
            || value == "0"
            || ["off", "false", "no"]
                .iter()
                .any(|off| value.eq_ignore_ascii_case(off))
        {
            ValidationMode::Off
        } else {
            ValidationMode::Report
        }
    }
}

/// Optional capabilities of a physical device that change what the
/// translator may emit and which OpenCL extensions the device reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeviceFeatures {
    pub shader_int64: bool,
    pub shader_int16: bool,
    /// Not in the design doc's list: OpenCL `char` arithmetic needs the Int8
    /// capability, which 8-bit storage alone does not grant.
    pub shader_int8: bool,
    pub shader_float64: bool,
    pub shader_float16: bool,
    pub storage_buffer_16bit: bool,
    pub storage_buffer_8bit: bool,
    pub scalar_block_layout: bool,
    pub timeline_semaphore: bool,
    pub vulkan_memory_model: bool,
    pub shader_buffer_int64_atomics: bool,
    pub shader_shared_int64_atomics: bool,
    /// Storage images may be read and written without a format in the
    /// shader (`shaderStorageImageRead/WriteWithoutFormat`): kernels declare
    /// every storage image `Unknown` so one pipeline serves every format.
    pub storage_image_read_without_format: bool,
    pub storage_image_write_without_format: bool,
    /// `VK_KHR_push_descriptor` is present (an extension, not a feature bit).
    pub push_descriptor: bool,
    /// Shaders may declare that signed zeros, infinities and NaNs behave
    /// as IEEE 754 says (`shaderSignedZeroInfNanPreserveFloat16/32/64`
    /// properties); without that a driver may assume they do not occur.
    pub preserve_inf_nan_float32: bool,
    pub preserve_inf_nan_float64: bool,
    pub preserve_inf_nan_float16: bool,
    /// Shaders may declare round-to-nearest-even for 16-bit floats
    /// (`shaderRoundingModeRTEFloat16`).
    pub rounding_rte_float16: bool,
    /// Shaders may declare `DenormPreserve` / `DenormFlushToZero` for 32-,
    /// 64- and 16-bit floats (`shaderDenormPreserveFloat*`,
    /// `shaderDenormFlushToZeroFloat*`), and which widths may differ
    /// (`denormBehaviorIndependence`).
    pub denorm_preserve: [bool; 3],
    pub denorm_flush: [bool; 3],
    pub denorm_independence: vk::ShaderFloatControlsIndependence,
    /// Subgroup operations on 8-, 16- and 64-bit integers and 16-bit
    /// floats (`shaderSubgroupExtendedTypes`).
    pub subgroup_extended_types: bool,
}

/// The subgroup sizes a compute shader may ask for
/// (`VkPhysicalDeviceSubgroupSizeControlProperties`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubgroupSizeControl {
    pub min_size: u32,
    pub max_size: u32,
    /// `maxComputeWorkgroupSubgroups`: a shader asking for size `n` may
    /// have work-groups of at most `n` times this many invocations.
    pub max_workgroup_subgroups: u32,
}

/// What one physical device is and can do, as far as OpenCL cares.
#[derive(Clone, Debug)]
pub struct PhysicalDeviceInfo {
    pub handle: vk::PhysicalDevice,
    pub name: String,
    pub vendor_id: u32,
    pub device_id: u32,
    pub device_type: vk::PhysicalDeviceType,
    pub api_version: u32,
    pub driver_version: u32,
    /// `VK_DRIVER_ID_*`, which names the driver for its workarounds.
    pub driver_id: vk::DriverId,
    pub driver_name: String,
    pub driver_info: String,
    pub device_uuid: [u8; 16],
    /// Changes whenever the driver's pipeline compiler does: the key of
    /// the on-disk pipeline cache.
    pub pipeline_cache_uuid: [u8; 16],
    pub limits: vk::PhysicalDeviceLimits,
    pub features: DeviceFeatures,
    pub subgroup_size: u32,
    /// `VK_EXT_subgroup_size_control`, where compute shaders may ask for a
    /// subgroup size (`requiredSubgroupSizeStages` has compute): the sizes
    /// they may ask for, and how many subgroups a work-group may have.
    pub subgroup_size_control: Option<SubgroupSizeControl>,
    /// The subgroup operations compute shaders may use
    /// (`subgroupSupportedOperations`, empty where
    /// `subgroupSupportedStages` lacks compute).
    pub subgroup_operations: vk::SubgroupFeatureFlags,
    /// The largest heap with `DEVICE_LOCAL`.
    pub device_local_heap_size: u64,
    /// Whether the host can map device-local buffers, and how fast.
    pub device_local_host_access: DeviceLocalHostAccess,
    pub max_memory_allocation_size: u64,
    /// Not in the design doc: how many bindings one push-descriptor set may
    /// have (0 without `VK_KHR_push_descriptor`).
    pub max_push_descriptors: u32,
    /// The GPU's multiprocessors (NVIDIA SMs, AMD compute units, Arm shader
    /// cores) where a vendor extension states them.
    pub shader_core_count: Option<u32>,
    /// The family the device's queue comes from (a compute-only one if any).
    pub compute_queue_family: Option<u32>,
    pub timestamp_valid_bits: u32,
    /// Where the device has `VK_EXT_external_memory_host` and can bind
    /// copy buffers to memory the host allocated: the alignment of such
    /// memory's address and size (`minImportedHostPointerAlignment`).
    /// Host memory imported into two devices is how buffers move between
    /// them (see `HostAllocation`).
    pub host_import_alignment: Option<u64>,
    /// `None` when usable: Vulkan >= 1.2, a compute queue, timeline semaphores.
    pub unusable_reason: Option<String>,
}

impl PhysicalDeviceInfo {
    pub fn is_usable(&self) -> bool {
        self.unusable_reason.is_none()
    }
}

/// The Vulkan instance. Created on first use by [`instance`], never destroyed:
/// OpenCL has no "unload", and tearing down a `VkInstance` from a static
/// destructor races with the loader's own teardown.
pub struct Instance {
    /// Owns the loaded loader library behind every function pointer below.
    entry: ash::Entry,
    raw: ash::Instance,
    validation: ValidationMode,
    physical_devices: Vec<PhysicalDeviceInfo>,
    /// Per physical device, its logical devices (one, unless copies were
    /// asked for; see `Device::new_copy`), shared while anyone holds them.
    logical_devices: Mutex<Vec<Vec<Weak<Device>>>>,
    /// Kept so the messenger lives as long as the instance (forever).
    _messenger: Option<(ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
}

impl std::fmt::Debug for Instance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Instance")
            .field("validation", &self.validation)
            .field("physical_devices", &self.physical_devices)
            .finish_non_exhaustive()
    }
}

static INSTANCE: OnceLock<Instance> = OnceLock::new();
static INSTANCE_CREATION: Mutex<()> = Mutex::new(());

/// The process-wide instance, created on first use. A failure is not cached:
/// the next call tries again (for example after a driver was installed).
pub fn instance() -> Result<&'static Instance, VkError> {
    if let Some(instance) = INSTANCE.get() {
        return Ok(instance);
    }
    // Serialises creation so two threads never both build an instance;
    // `OnceLock::get_or_try_init` is not stable.
    let _creating = INSTANCE_CREATION
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(instance) = INSTANCE.get() {
        return Ok(instance);
    }
    let created = Instance::create(ValidationMode::from_env())?;
    Ok(INSTANCE.get_or_init(|| created))
}

/// A physical device of the instance, for the queries that need no
/// logical device.
#[derive(Clone, Copy)]
pub struct PhysicalDevice {
    pub(super) instance: &'static Instance,
    /// Always an index of `instance.physical_devices`.
    pub(super) index: usize,
}

impl PhysicalDevice {
    /// The `index`-th of [`Instance::physical_devices`].
    pub fn new(instance: &'static Instance, index: usize) -> Option<PhysicalDevice> {
        (index < instance.physical_devices.len()).then_some(PhysicalDevice { instance, index })
    }

    pub fn info(&self) -> &'static PhysicalDeviceInfo {
        &self.instance.physical_devices[self.index]
    }

    /// The property flags of each memory type, by index.
    pub fn memory_type_flags(&self) -> Vec<vk::MemoryPropertyFlags> {
        // SAFETY: the physical device was enumerated from this live instance.
        let memory = unsafe {
            self.instance
                .raw
                .get_physical_device_memory_properties(self.info().handle)
        };
        memory
            .memory_types_as_slice()
            .iter()
            .map(|memory_type| memory_type.property_flags)
            .collect()
    }

    pub fn format_properties(&self, format: vk::Format) -> vk::FormatProperties {
        // SAFETY: the physical device was enumerated from this live
        // instance; any format value may be queried.
        unsafe {
            self.instance
                .raw
                .get_physical_device_format_properties(self.info().handle, format)
        }
    }
}

impl Instance {
    /// Physical devices: usable GPUs (discrete, integrated, virtual), then
    /// usable CPU and other devices, then the unusable ones.
    pub fn physical_devices(&self) -> &[PhysicalDeviceInfo] {
        &self.physical_devices
    }

    pub fn validation(&self) -> ValidationMode {
        self.validation
    }

    pub(crate) fn entry(&self) -> &ash::Entry {
        &self.entry
    }

    pub(crate) fn raw(&self) -> &ash::Instance {
        &self.raw
    }

    pub(crate) fn logical_devices(&self) -> &Mutex<Vec<Vec<Weak<Device>>>> {
        &self.logical_devices
    }

    fn create(validation: ValidationMode) -> Result<Instance, VkError> {
        // SAFETY: loading libvulkan.so.1 runs the system loader's initialisers;
        // the loader is a trusted system library and `Entry` keeps it loaded
        // for as long as any function pointer taken from it is used.
        let entry = unsafe { ash::Entry::load() }
            .map_err(|error| VkError::Loader(format!("cannot load the Vulkan loader: {error}")))?;

        // SAFETY: `entry` holds a loaded loader; this global query has no other requirement.
        let loader_version = unsafe { entry.try_enumerate_instance_version() }
            .map_err(VkError::call("vkEnumerateInstanceVersion"))?
            .unwrap_or(vk::API_VERSION_1_0);
        if loader_version < vk::API_VERSION_1_1 {
            return Err(VkError::Loader(format!(
                "the Vulkan loader is version {}.{}; clvulkan needs 1.1 or later",
                vk::api_version_major(loader_version),
                vk::api_version_minor(loader_version)
            )));
        }

        // SAFETY: as above, a global query on a loaded loader.
        let available_extensions =
            unsafe { entry.enumerate_instance_extension_properties(None) }
                .map_err(VkError::call("vkEnumerateInstanceExtensionProperties"))?;
        let has_extension = |extensions: &[vk::ExtensionProperties], name: &CStr| {
            extensions
                .iter()
                .any(|extension| extension.extension_name_as_c_str() == Ok(name))
        };

        let mut layers: Vec<*const std::ffi::c_char> = Vec::new();
        let mut extensions: Vec<*const std::ffi::c_char> = Vec::new();
        let mut flags = vk::InstanceCreateFlags::empty();

        // MoltenVK only shows up when the application opts in to portability drivers.
        if has_extension(
            &available_extensions,
            ash::khr::portability_enumeration::NAME,
        ) {
            extensions.push(ash::khr::portability_enumeration::NAME.as_ptr());
            flags |= vk::InstanceCreateFlags::ENUMERATE_PORTABILITY_KHR;
        }

        if validation != ValidationMode::Off {
            // SAFETY: a global query on a loaded loader.
            let available_layers = unsafe { entry.enumerate_instance_layer_properties() }
                .map_err(VkError::call("vkEnumerateInstanceLayerProperties"))?;
            let has_layer = available_layers
                .iter()
                .any(|layer| layer.layer_name_as_c_str() == Ok(VALIDATION_LAYER));
            if !has_layer {
                return Err(VkError::ValidationUnavailable);
            }
            // SAFETY: a global query on a loaded loader, for a layer that is present.
            let layer_extensions =
                unsafe { entry.enumerate_instance_extension_properties(Some(VALIDATION_LAYER)) }
                    .map_err(VkError::call("vkEnumerateInstanceExtensionProperties"))?;
            if !has_extension(&layer_extensions, ash::ext::debug_utils::NAME)
                && !has_extension(&available_extensions, ash::ext::debug_utils::NAME)
            {
                return Err(VkError::ValidationUnavailable);
            }
            layers.push(VALIDATION_LAYER.as_ptr());
            extensions.push(ash::ext::debug_utils::NAME.as_ptr());
        }

        let application = vk::ApplicationInfo::default()
            .application_name(c"clvulkan")
            .engine_name(c"clvulkan")
            .api_version(vk::API_VERSION_1_2);
        let mut messenger_info = messenger_create_info(validation);
        let mut create_info = vk::InstanceCreateInfo::default()
            .flags(flags)
            .application_info(&application)
            .enabled_layer_names(&layers)
            .enabled_extension_names(&extensions);
        if validation != ValidationMode::Off {
            // Chained so vkCreateInstance/vkDestroyInstance are validated too.
            create_info = create_info.push_next(&mut messenger_info);
        }

        // SAFETY: every pointer in `create_info` (application info, layer and
        // extension names from 'static CStrs, the messenger info whose callback
        // is a 'static function) outlives the call.
        let raw = unsafe { entry.create_instance(&create_info, None) }
            .map_err(VkError::call("vkCreateInstance"))?;

        let messenger = if validation != ValidationMode::Off {
            let debug_utils = ash::ext::debug_utils::Instance::new(&entry, &raw);
            let messenger_info = messenger_create_info(validation);
            // SAFETY: `raw` was created with VK_EXT_debug_utils enabled; the
            // callback is a 'static function that touches no user data.
            match unsafe { debug_utils.create_debug_utils_messenger(&messenger_info, None) } {
                Ok(messenger) => Some((debug_utils, messenger)),
                Err(result) => {
                    // SAFETY: nothing was created from `raw` yet.
                    unsafe { raw.destroy_instance(None) };
                    return Err(VkError::Call {
                        call: "vkCreateDebugUtilsMessengerEXT",
                        result,
                    });
                }
            }
        } else {
            None
        };

        let physical_devices = match query_physical_devices(&raw) {
            Ok(devices) => devices,
            Err(error) => {
                if let Some((debug_utils, messenger)) = &messenger {
                    // SAFETY: the messenger was created from `raw` and is unused elsewhere.
                    unsafe { debug_utils.destroy_debug_utils_messenger(*messenger, None) };
                }
                // SAFETY: the only child object (the messenger) is destroyed above.
                unsafe { raw.destroy_instance(None) };
                return Err(error);
            }
        };
        let logical_devices = Mutex::new(physical_devices.iter().map(|_| Vec::new()).collect());

        Ok(Instance {
            entry,
            raw,
            validation,
            physical_devices,
            logical_devices,
            _messenger: messenger,
        })
    }
}

fn messenger_create_info(
    validation: ValidationMode,
) -> vk::DebugUtilsMessengerCreateInfoEXT<'static> {
    let callback: vk::PFN_vkDebugUtilsMessengerCallbackEXT = if validation == ValidationMode::Fatal
    {
        Some(report_validation_message_and_abort)
    } else {
        Some(report_validation_message)
    };
    vk::DebugUtilsMessengerCreateInfoEXT::default()
        .message_severity(
            vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
                | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
        )
        .message_type(
            vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
                | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
        )
        .pfn_user_callback(callback)
}

/// Prints one message; shared by both callbacks.
///
/// # Safety
/// `callback_data` is null or points to callback data valid for this call,
/// as the validation layer guarantees while it runs a messenger callback.
unsafe fn print_validation_message(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    callback_data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
) {
    let severity = if severity.contains(vk::DebugUtilsMessageSeverityFlagsEXT::ERROR) {
        "error"
    } else if severity.contains(vk::DebugUtilsMessageSeverityFlagsEXT::WARNING) {
        "warning"
    } else {
        "info"
    };
    // SAFETY: per this function's contract the pointer is null or valid for
    // the call, and `pMessage` inside it is null or a NUL-terminated string.
    let message = unsafe {
        callback_data
            .as_ref()
            .and_then(|data| data.message_as_c_str())
    }
    .map(CStr::to_string_lossy)
    .unwrap_or_default();
    // A failed write to stderr has nowhere better to go; never panic here.
    let _ = writeln!(
        std::io::stderr().lock(),
        "clvulkan: vulkan validation: {severity}: {message}"
    );
}

/// Performance advice that clvulkan does not follow on purpose: images stay
/// in `VK_IMAGE_LAYOUT_GENERAL` for their whole life (see
/// `vulkan::image`), so that no command tracks layouts; the validation
/// layer suggests the transfer-optimal layouts for every image copy.
const IGNORED_PERFORMANCE_MESSAGES: &[&str] =
    &["UNASSIGNED-CoreValidation-DrawState-InvalidImageLayout"];

/// Whether a message is one of [`IGNORED_PERFORMANCE_MESSAGES`].
///
/// # Safety
/// As for [`print_validation_message`].
unsafe fn is_ignored(
    types: vk::DebugUtilsMessageTypeFlagsEXT,
    callback_data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
) -> bool {
    if types != vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE {
        return false;
    }
    // SAFETY: per this function's contract the pointer is null or valid for
    // the call, and `pMessageIdName` inside it is null or NUL-terminated.
    let id = unsafe {
        callback_data
            .as_ref()
            .and_then(|data| data.message_id_name_as_c_str())
    };
    id.is_some_and(|id| {
        IGNORED_PERFORMANCE_MESSAGES
            .iter()
            .any(|ignored| id.to_bytes() == ignored.as_bytes())
    })
}

unsafe extern "system" fn report_validation_message(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    types: vk::DebugUtilsMessageTypeFlagsEXT,
    callback_data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    _user_data: *mut c_void,
) -> vk::Bool32 {
    // SAFETY: the layer calls us with callback data valid for this call.
    if unsafe { is_ignored(types, callback_data) } {
        return vk::FALSE;
    }
    // SAFETY: as above.
    unsafe { print_validation_message(severity, callback_data) };
    vk::FALSE
}

unsafe extern "system" fn report_validation_message_and_abort(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    types: vk::DebugUtilsMessageTypeFlagsEXT,
    callback_data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    _user_data: *mut c_void,
) -> vk::Bool32 {
    // SAFETY: the layer calls us with callback data valid for this call.
    if unsafe { is_ignored(types, callback_data) } {
        return vk::FALSE;
    }
    // SAFETY: as above.
    unsafe { print_validation_message(severity, callback_data) };
    std::process::abort()
}

fn query_physical_devices(instance: &ash::Instance) -> Result<Vec<PhysicalDeviceInfo>, VkError> {
    // SAFETY: `instance` is a live instance.
    let handles = unsafe { instance.enumerate_physical_devices() }
        .map_err(VkError::call("vkEnumeratePhysicalDevices"))?;
    let mut devices = handles
        .into_iter()
        .map(|handle| query_physical_device(instance, handle))
        .collect::<Result<Vec<_>, _>>()?;
    devices.sort_by_key(listing_rank);
    Ok(devices)
}

fn listing_rank(device: &PhysicalDeviceInfo) -> u32 {
    let by_type = match device.device_type {
        vk::PhysicalDeviceType::DISCRETE_GPU => 0,
        vk::PhysicalDeviceType::INTEGRATED_GPU => 1,
        vk::PhysicalDeviceType::VIRTUAL_GPU => 2,
        vk::PhysicalDeviceType::CPU => 3,
        _ => 4,
    };
    if device.is_usable() {
        by_type
    } else {
        10 + by_type
    }
}

fn c_chars_to_string(bytes: Result<&CStr, std::ffi::FromBytesUntilNulError>) -> String {
    bytes
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn query_physical_device(
    instance: &ash::Instance,
    handle: vk::PhysicalDevice,
) -> Result<PhysicalDeviceInfo, VkError> {
    // SAFETY: `handle` was just enumerated from the live `instance`.
    let properties = unsafe { instance.get_physical_device_properties(handle) };
    // SAFETY: as above.
    let features = unsafe { instance.get_physical_device_features(handle) };
    // SAFETY: as above.
    let memory = unsafe { instance.get_physical_device_memory_properties(handle) };
    // SAFETY: as above.
    let queue_families = unsafe { instance.get_physical_device_queue_family_properties(handle) };
    // SAFETY: as above.
    let extensions = unsafe { instance.enumerate_device_extension_properties(handle) }
        .map_err(VkError::call("vkEnumerateDeviceExtensionProperties"))?;
    let has_extension = |name: &CStr| {
        extensions
            .iter()
            .any(|extension| extension.extension_name_as_c_str() == Ok(name))
    };
    let has_push_descriptor = has_extension(ash::khr::push_descriptor::NAME);
    let has_sm_builtins = has_extension(ash::nv::shader_sm_builtins::NAME);
    let has_amd_core_properties = has_extension(ash::amd::shader_core_properties::NAME);
    let has_arm_core_builtins = has_extension(ash::arm::shader_core_builtins::NAME);
    let has_size_control = has_extension(ash::ext::subgroup_size_control::NAME);
    let has_host_import = has_extension(ash::ext::external_memory_host::NAME);

    let device_local_heap_size = memory
        .memory_heaps_as_slice()
        .iter()
        .filter(|heap| heap.flags.contains(vk::MemoryHeapFlags::DEVICE_LOCAL))
        .map(|heap| heap.size)
        .max()
        .unwrap_or(0);

    let compute_family = |exclude_graphics: bool| {
        queue_families.iter().position(|family| {
            family.queue_count > 0
                && family.queue_flags.contains(vk::QueueFlags::COMPUTE)
                && !(exclude_graphics && family.queue_flags.contains(vk::QueueFlags::GRAPHICS))
        })
    };
    // A compute-only family is the one that does not compete with rendering.
    let compute_queue_family = compute_family(true).or_else(|| compute_family(false));
    let timestamp_valid_bits = compute_queue_family
        .and_then(|family| queue_families.get(family))
        .map(|family| family.timestamp_valid_bits)
        .unwrap_or(0);

    let mut info = PhysicalDeviceInfo {
        handle,
        name: c_chars_to_string(properties.device_name_as_c_str()),
        vendor_id: properties.vendor_id,
        device_id: properties.device_id,
        device_type: properties.device_type,
        api_version: properties.api_version,
        driver_version: properties.driver_version,
        driver_id: vk::DriverId::default(),
        driver_name: String::new(),
        driver_info: String::new(),
        device_uuid: [0; 16],
        pipeline_cache_uuid: properties.pipeline_cache_uuid,
        limits: properties.limits,
        features: DeviceFeatures {
            shader_int64: features.shader_int64 == vk::TRUE,
            shader_int16: features.shader_int16 == vk::TRUE,
            shader_float64: features.shader_float64 == vk::TRUE,
            storage_image_read_without_format: features.shader_storage_image_read_without_format
                == vk::TRUE,
            storage_image_write_without_format: features.shader_storage_image_write_without_format
                == vk::TRUE,
            push_descriptor: has_push_descriptor,
            ..DeviceFeatures::default()
        },
        subgroup_size: 1,
        subgroup_operations: vk::SubgroupFeatureFlags::empty(),
        subgroup_size_control: None,
        device_local_heap_size,
        device_local_host_access: DeviceLocalHostAccess::classify(
            properties.device_type,
            memory.memory_types_as_slice(),
        ),
        max_memory_allocation_size: device_local_heap_size,
        max_push_descriptors: 0,
        shader_core_count: None,
        compute_queue_family: compute_queue_family.and_then(|family| u32::try_from(family).ok()),
        timestamp_valid_bits,
        host_import_alignment: None,
        unusable_reason: None,
    };

    if properties.api_version < vk::API_VERSION_1_2 {
        // The 1.1/1.2 property and feature structures may only be chained
        // for a device of that version, so stop at the 1.0 answers.
        info.unusable_reason = Some(format!(
            "supports Vulkan {}.{}; clvulkan needs 1.2",
            vk::api_version_major(properties.api_version),
            vk::api_version_minor(properties.api_version)
        ));
        return Ok(info);
    }

    let mut properties11 = vk::PhysicalDeviceVulkan11Properties::default();
    let mut properties12 = vk::PhysicalDeviceVulkan12Properties::default();
    let mut push_descriptor_properties = vk::PhysicalDevicePushDescriptorPropertiesKHR::default();
    let mut properties2 = vk::PhysicalDeviceProperties2::default()
        .push_next(&mut properties11)
        .push_next(&mut properties12);
    if has_push_descriptor {
        properties2 = properties2.push_next(&mut push_descriptor_properties);
    }
    let mut sm_builtins = vk::PhysicalDeviceShaderSMBuiltinsPropertiesNV::default();
    if has_sm_builtins {
        properties2 = properties2.push_next(&mut sm_builtins);
    }
    let mut amd_core = vk::PhysicalDeviceShaderCorePropertiesAMD::default();
    if has_amd_core_properties {
        properties2 = properties2.push_next(&mut amd_core);
    }
    let mut arm_core = vk::PhysicalDeviceShaderCoreBuiltinsPropertiesARM::default();
    if has_arm_core_builtins {
        properties2 = properties2.push_next(&mut arm_core);
    }
    let mut size_control = vk::PhysicalDeviceSubgroupSizeControlProperties::default();
    if has_size_control {
        properties2 = properties2.push_next(&mut size_control);
    }
    let mut host_import = vk::PhysicalDeviceExternalMemoryHostPropertiesEXT::default();
    if has_host_import {
        properties2 = properties2.push_next(&mut host_import);
    }
    // SAFETY: the device supports Vulkan 1.2, so the 1.1/1.2 structures are
    // valid in the chain; each extension's structure only when the device
    // has the extension.
    unsafe { instance.get_physical_device_properties2(handle, &mut properties2) };

    let mut features11 = vk::PhysicalDeviceVulkan11Features::default();
    let mut features12 = vk::PhysicalDeviceVulkan12Features::default();
    let mut size_control_features = vk::PhysicalDeviceSubgroupSizeControlFeatures::default();
    let mut features2 = vk::PhysicalDeviceFeatures2::default()
        .push_next(&mut features11)
        .push_next(&mut features12);
    if has_size_control {
        features2 = features2.push_next(&mut size_control_features);
    }
    // SAFETY: the device supports Vulkan 1.2, so both structures are valid
    // in the chain; the size-control one only where it has the extension.
    unsafe { instance.get_physical_device_features2(handle, &mut features2) };
    let compute_sizes = size_control
        .required_subgroup_size_stages
        .contains(vk::ShaderStageFlags::COMPUTE);
    if has_size_control && size_control_features.subgroup_size_control == vk::TRUE && compute_sizes
    {
        info.subgroup_size_control = Some(SubgroupSizeControl {
            min_size: size_control.min_subgroup_size,
            max_size: size_control.max_subgroup_size,
            max_workgroup_subgroups: size_control.max_compute_workgroup_subgroups,
        });
    }

    info.host_import_alignment = (has_host_import && host_buffers_importable(instance, handle))
        .then_some(host_import.min_imported_host_pointer_alignment)
        .filter(|alignment| alignment.is_power_of_two());

    info.driver_id = properties12.driver_id;
    info.driver_name = c_chars_to_string(properties12.driver_name_as_c_str());
    info.driver_info = c_chars_to_string(properties12.driver_info_as_c_str());
    info.device_uuid = properties11.device_uuid;
    info.subgroup_size = properties11.subgroup_size.max(1);
    if properties11
        .subgroup_supported_stages
        .contains(vk::ShaderStageFlags::COMPUTE)
    {
        info.subgroup_operations = properties11.subgroup_supported_operations;
    }
    info.features.subgroup_extended_types = features12.shader_subgroup_extended_types == vk::TRUE;
    info.max_memory_allocation_size = properties11.max_memory_allocation_size;
    info.max_push_descriptors = if has_push_descriptor {
        push_descriptor_properties.max_push_descriptors
    } else {
        0
    };
    info.shader_core_count = if has_sm_builtins {
        Some(sm_builtins.shader_sm_count)
    } else if has_amd_core_properties {
        Some(
            amd_core.shader_engine_count
                * amd_core.shader_arrays_per_engine_count
                * amd_core.compute_units_per_shader_array,
        )
    } else if has_arm_core_builtins {
        Some(arm_core.shader_core_count)
    } else {
        None
    }
    .filter(|&count| count > 0);
    info.features.shader_int8 = features12.shader_int8 == vk::TRUE;
    info.features.shader_float16 = features12.shader_float16 == vk::TRUE;
    info.features.storage_buffer_16bit = features11.storage_buffer16_bit_access == vk::TRUE;
    info.features.storage_buffer_8bit = features12.storage_buffer8_bit_access == vk::TRUE;
    info.features.scalar_block_layout = features12.scalar_block_layout == vk::TRUE;
    info.features.timeline_semaphore = features12.timeline_semaphore == vk::TRUE;
    info.features.vulkan_memory_model = features12.vulkan_memory_model == vk::TRUE;
    info.features.shader_buffer_int64_atomics = features12.shader_buffer_int64_atomics == vk::TRUE;
    info.features.shader_shared_int64_atomics = features12.shader_shared_int64_atomics == vk::TRUE;
    info.features.preserve_inf_nan_float32 =
        properties12.shader_signed_zero_inf_nan_preserve_float32 == vk::TRUE;
    info.features.preserve_inf_nan_float64 =
        properties12.shader_signed_zero_inf_nan_preserve_float64 == vk::TRUE;
    info.features.preserve_inf_nan_float16 =
        properties12.shader_signed_zero_inf_nan_preserve_float16 == vk::TRUE;
    info.features.rounding_rte_float16 = properties12.shader_rounding_mode_rte_float16 == vk::TRUE;
    info.features.denorm_preserve = [
        properties12.shader_denorm_preserve_float32,
        properties12.shader_denorm_preserve_float64,
        properties12.shader_denorm_preserve_float16,
    ]
    .map(|supported| supported == vk::TRUE);
    info.features.denorm_flush = [
        properties12.shader_denorm_flush_to_zero_float32,
        properties12.shader_denorm_flush_to_zero_float64,
        properties12.shader_denorm_flush_to_zero_float16,
    ]
    .map(|supported| supported == vk::TRUE);
    info.features.denorm_independence = properties12.denorm_behavior_independence;

    info.unusable_reason = if info.compute_queue_family.is_none() {
        Some("has no compute queue family".to_owned())
    } else if !info.features.timeline_semaphore {
        Some("lacks timeline semaphores".to_owned())
    } else {
        None
    };
    Ok(info)
}

/// Whether copy buffers of `handle` can be bound to imported host
/// allocations: the extension alone does not promise it for every usage.
fn host_buffers_importable(instance: &ash::Instance, handle: vk::PhysicalDevice) -> bool {
    let buffer = vk::PhysicalDeviceExternalBufferInfo::default()
        .usage(super::host_import::BRIDGE_USAGE)
        .handle_type(vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT);
    let mut properties = vk::ExternalBufferProperties::default();
    // SAFETY: Vulkan 1.1 core (the device has 1.2, the instance asks for
    // 1.2); `handle` was enumerated from this live instance, and both
    // structures are valid with empty chains.
    unsafe {
        instance.get_physical_device_external_buffer_properties(handle, &buffer, &mut properties)
    };
    properties
        .external_memory_properties
        .external_memory_features
        .contains(vk::ExternalMemoryFeatureFlags::IMPORTABLE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_setting_is_parsed() {
        assert_eq!(ValidationMode::parse(None), ValidationMode::Off);
        assert_eq!(ValidationMode::parse(Some("")), ValidationMode::Off);
        assert_eq!(ValidationMode::parse(Some("0")), ValidationMode::Off);
        assert_eq!(ValidationMode::parse(Some("off")), ValidationMode::Off);
        assert_eq!(ValidationMode::parse(Some("1")), ValidationMode::Report);
        assert_eq!(ValidationMode::parse(Some("fatal")), ValidationMode::Fatal);
        assert_eq!(ValidationMode::parse(Some("FATAL")), ValidationMode::Fatal);
    }

    #[test]
    fn enumeration_finds_usable_lavapipe() {
        let instance = instance().expect("Vulkan instance");
        assert_eq!(instance.validation(), ValidationMode::from_env());
        let devices = instance.physical_devices();
        let lavapipe = devices
            .iter()
            .find(|device| device.name.starts_with("llvmpipe"))
            .expect("lavapipe is installed on the test machine");
        assert_eq!(lavapipe.unusable_reason, None);
        assert_eq!(lavapipe.device_type, vk::PhysicalDeviceType::CPU);
        assert!(lavapipe.api_version >= vk::API_VERSION_1_2);
        assert!(lavapipe.compute_queue_family.is_some());
        assert!(lavapipe.features.timeline_semaphore);
        assert!(lavapipe.features.shader_int64);
        assert!(lavapipe.subgroup_size >= 1);
        assert!(lavapipe.device_local_heap_size > 0);
        assert_eq!(
            lavapipe.device_local_host_access,
            DeviceLocalHostAccess::Unified
        );
        assert!(lavapipe.max_memory_allocation_size > 0);
        assert!(!lavapipe.driver_name.is_empty());
        assert!(devices
            .windows(2)
            .all(|pair| listing_rank(&pair[0]) <= listing_rank(&pair[1])));
        // A second call returns the same instance rather than creating another.
        let again = super::instance().expect("Vulkan instance");
        assert!(std::ptr::eq(instance, again));
    }
}
