//! Device entry points: `clGetDeviceIDs`, `clGetDeviceInfo`, retain/release
//! (no-ops on root devices) and `clCreateSubDevices` (no partitioning).

use std::ffi::c_void;
use std::sync::Arc;

use opencl_sys::*;
use translator::caps::FpAtomicType;

use crate::api::call::{self, write_if_not_null};
use crate::api::handle;
use crate::api::info::{write_info, InfoValue};
use crate::api::trace::entry;
use crate::core::device::Device;
use crate::core::object::Object;
use crate::core::platform::{self, make_version, Platform};
use crate::core::CLResult;

const VALID_DEVICE_TYPES: cl_device_type = CL_DEVICE_TYPE_DEFAULT
    | CL_DEVICE_TYPE_CPU
    | CL_DEVICE_TYPE_GPU
    | CL_DEVICE_TYPE_ACCELERATOR
    | CL_DEVICE_TYPE_CUSTOM;

/// Sampler arguments are words of the launch block, not Vulkan objects,
/// so the spec's minimum is no limit of ours; report it.
const MAX_SAMPLERS: cl_uint = 16;

/// The devices of `device_type`: `CL_DEVICE_TYPE_DEFAULT` is the first
/// device (GPUs come first).
pub(crate) fn devices_of_type(device_type: cl_device_type) -> CLResult<Vec<Arc<Object<Device>>>> {
    if device_type != CL_DEVICE_TYPE_ALL
        && (device_type & !VALID_DEVICE_TYPES != 0 || device_type == 0)
    {
        return Err(CL_INVALID_DEVICE_TYPE);
    }
    let platform = Platform::get();
    let devices: Vec<_> = platform
        .devices()
        .iter()
        .enumerate()
        .filter(|(index, device)| {
            device_type == CL_DEVICE_TYPE_ALL
                || device.device_type() & device_type != 0
                || (*index == 0 && device_type & CL_DEVICE_TYPE_DEFAULT != 0)
        })
        .map(|(_, device)| device.clone())
        .collect();
    if devices.is_empty() {
        return Err(CL_DEVICE_NOT_FOUND);
    }
    Ok(devices)
}

pub(crate) unsafe extern "C" fn get_device_ids(
    platform: cl_platform_id,
    device_type: cl_device_type,
    num_entries: cl_uint,
    devices: *mut cl_device_id,
    num_devices: *mut cl_uint,
) -> cl_int {
    let entry = entry!(
        "clGetDeviceIDs",
        platform: platform,
        device_type: device_type,
        num_entries: unsigned,
        devices: out_devices(num_entries),
        num_devices: out_count,
    );
    call::status(entry, || {
        // A NULL platform is implementation-defined; it means the only one.
        if !platform.is_null() {
            // SAFETY: a handle from the application, checked before use.
            unsafe { handle::object::<Platform>(platform)? };
        }
        // The spec lists CL_INVALID_DEVICE_TYPE before CL_INVALID_VALUE and
        // CL_DEVICE_NOT_FOUND after it.
        let found = devices_of_type(device_type);
        if found.as_ref().err() == Some(&CL_INVALID_DEVICE_TYPE) {
            return Err(CL_INVALID_DEVICE_TYPE);
        }
        // "CL_INVALID_VALUE if num_entries is equal to zero and devices is
        // not NULL or if both num_devices and devices are NULL."
        if (num_entries == 0 && !devices.is_null()) || (num_devices.is_null() && devices.is_null())
        {
            return Err(CL_INVALID_VALUE);
        }
        let found = found?;
        if !devices.is_null() {
            for (index, device) in found.iter().take(num_entries as usize).enumerate() {
                // SAFETY: the application's array holds num_entries entries.
                unsafe { devices.add(index).write(device.handle()) };
            }
        }
        // SAFETY: NULL or a cl_uint, per the spec.
        unsafe { write_if_not_null(num_devices, found.len() as cl_uint) };
        Ok(())
    })
}

/// The single-precision capabilities OpenCL requires of every full-profile
/// device; Vulkan guarantees no more (no correctly rounded divide/sqrt,
/// denormals optional: `CL_FP_DENORM` is added where kernels declare
/// `DenormPreserve` for floats, `Denormals::float_exact`).
const SINGLE_FP_CONFIG: cl_device_fp_config = CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN;
/// What OpenCL requires of a device reporting double support.
const DOUBLE_FP_CONFIG: cl_device_fp_config = CL_FP_FMA
    | CL_FP_ROUND_TO_NEAREST
    | CL_FP_ROUND_TO_ZERO
    | CL_FP_ROUND_TO_INF
    | CL_FP_INF_NAN
    | CL_FP_DENORM;
/// The minimum OpenCL 3.0 asks of half support.
const HALF_FP_CONFIG: cl_device_fp_config = CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN;
/// OpenCL 3.0's mandatory atomic and fence capabilities, which is what the
/// compiler implements.
const ATOMIC_MEMORY_CAPABILITIES: cl_device_atomic_capabilities =
    CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
const ATOMIC_FENCE_CAPABILITIES: cl_device_atomic_capabilities = CL_DEVICE_ATOMIC_ORDER_RELAXED
    | CL_DEVICE_ATOMIC_ORDER_ACQ_REL
    | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
// cl_ext_float_atomics queries, which opencl-sys does not define.
const CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT: cl_device_info = 0x4231;
const CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT: cl_device_info = 0x4232;
const CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT: cl_device_info = 0x4233;
/// The OpenCL C versions the compiler accepts for `-cl-std`.
const OPENCL_C_VERSIONS: [(&str, cl_version); 4] = [
    ("OpenCL C", make_version(1, 0, 0)),
    ("OpenCL C", make_version(1, 1, 0)),
    ("OpenCL C", make_version(1, 2, 0)),
    ("OpenCL C", make_version(3, 0, 0)),
];
/// No conformance run has passed yet; the spec's format with a zero date.
/// The IL of `CL_DEVICE_IL_VERSION` and `CL_DEVICE_ILS_WITH_VERSION`.
const IL_NAME: &str = "SPIR-V";
const LATEST_CONFORMANCE_VERSION_PASSED: &str = "v0000-01-01-00";
pub(crate) const DEVICE_VERSION: &str = "OpenCL 3.0 clvulkan";
/// "OpenCL C<space><major.minor><space><vendor-specific information>": the
/// highest 1.x version, which 3.0 devices report here.
const OPENCL_C_VERSION: &str = "OpenCL C 1.2 clvulkan";

/// Vector widths per element type, as `clGetDeviceInfo` reports them.
struct VectorWidths {
    char: u32,
    short: u32,
    int: u32,
    long: u32,
    half: u32,
    float: u32,
    double: u32,
}

/// What runs fastest through the translator. Vectors become scalar lanes,
/// so 32- and 64-bit types gain nothing from vectors; but buffers are
/// arrays of 32-bit words, and a store of one `char` or `short` is an
/// atomic update of its word (lower/pointers/narrow.rs) while a whole
/// `char4` or `short2` (or `half2`) is one plain word store.
const PREFERRED_WIDTHS: VectorWidths = VectorWidths {
    char: 4,
    short: 2,
    int: 1,
    long: 1,
    half: 2,
    float: 1,
    double: 1,
};

/// The hardware's own vectors: Vulkan GPUs run scalar threads, and
/// lavapipe vectorises across work-items, not within one.
const NATIVE_WIDTHS: VectorWidths = VectorWidths {
    char: 1,
    short: 1,
    int: 1,
    long: 1,
    half: 1,
    float: 1,
    double: 1,
};
const DRIVER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// `clGetDeviceInfo`'s table, answered from the Vulkan limits and features.
fn device_info(device: &Object<Device>, param_name: cl_device_info) -> CLResult<InfoValue> {
    let caps = device.caps();
    let uint = InfoValue::scalar::<cl_uint>;
    let size = InfoValue::scalar::<usize>;
    let ulong = InfoValue::scalar::<cl_ulong>;
    let bitfield = InfoValue::scalar::<cl_bitfield>;
    // The spec asks for 0 where the type is not supported.
    let width_if = |supported: bool, width: u32| uint(if supported { width } else { 0 });
    Ok(match param_name {
        CL_DEVICE_TYPE => bitfield(device.device_type()),
        CL_DEVICE_VENDOR_ID => uint(device.info().vendor_id),
        CL_DEVICE_MAX_COMPUTE_UNITS => uint(device.max_compute_units()),
        CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS => uint(3),
        CL_DEVICE_MAX_WORK_GROUP_SIZE => size(device.max_work_group_size()),
        CL_DEVICE_MAX_WORK_ITEM_SIZES => InfoValue::array(&device.max_work_item_sizes()),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR => uint(PREFERRED_WIDTHS.char),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT => uint(PREFERRED_WIDTHS.short),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT => uint(PREFERRED_WIDTHS.int),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT => uint(PREFERRED_WIDTHS.float),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG => width_if(caps.int64, PREFERRED_WIDTHS.long),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE => width_if(caps.float64, PREFERRED_WIDTHS.double),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF => width_if(caps.float16, PREFERRED_WIDTHS.half),
        CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR => uint(NATIVE_WIDTHS.char),
        CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT => uint(NATIVE_WIDTHS.short),
        CL_DEVICE_NATIVE_VECTOR_WIDTH_INT => uint(NATIVE_WIDTHS.int),
        CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT => uint(NATIVE_WIDTHS.float),
        CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG => width_if(caps.int64, NATIVE_WIDTHS.long),
        CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE => width_if(caps.float64, NATIVE_WIDTHS.double),
        CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF => width_if(caps.float16, NATIVE_WIDTHS.half),
        CL_DEVICE_MAX_CLOCK_FREQUENCY => uint(device.max_clock_mhz()),
        CL_DEVICE_ADDRESS_BITS => uint(device.address_bits()),
        CL_DEVICE_MAX_MEM_ALLOC_SIZE => ulong(device.max_mem_alloc_size()),
        CL_DEVICE_IMAGE_SUPPORT => InfoValue::bool(caps.image_support),
        CL_DEVICE_MAX_READ_IMAGE_ARGS => uint(device.max_read_image_args()),
        CL_DEVICE_MAX_WRITE_IMAGE_ARGS | CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS => {
            uint(device.max_write_image_args())
        }
        CL_DEVICE_MAX_SAMPLERS => uint(MAX_SAMPLERS),
        // cl_khr_image2d_from_buffer is not supported.
        CL_DEVICE_IMAGE_PITCH_ALIGNMENT | CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT => uint(0),
        CL_DEVICE_IMAGE2D_MAX_WIDTH | CL_DEVICE_IMAGE2D_MAX_HEIGHT => {
            size(device.image_limits().max_2d)
        }
        CL_DEVICE_IMAGE3D_MAX_WIDTH
        | CL_DEVICE_IMAGE3D_MAX_HEIGHT
        | CL_DEVICE_IMAGE3D_MAX_DEPTH => size(device.image_limits().max_3d),
        CL_DEVICE_IMAGE_MAX_BUFFER_SIZE => size(device.image_limits().max_buffer_texels),
        CL_DEVICE_IMAGE_MAX_ARRAY_SIZE => size(device.image_limits().max_array_size),
        CL_DEVICE_MAX_PARAMETER_SIZE => size(device.max_parameter_size()),
        CL_DEVICE_MEM_BASE_ADDR_ALIGN => uint(device.mem_base_addr_align_bits()),
        // Deprecated; the largest type, in bytes.
        CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE => uint(128),
        CL_DEVICE_SINGLE_FP_CONFIG => bitfield(if caps.denormals.float_exact() {
            SINGLE_FP_CONFIG | CL_FP_DENORM
        } else {
            SINGLE_FP_CONFIG
        }),
        CL_DEVICE_DOUBLE_FP_CONFIG => bitfield(if caps.float64 { DOUBLE_FP_CONFIG } else { 0 }),
        CL_DEVICE_HALF_FP_CONFIG => bitfield(if caps.float16 { HALF_FP_CONFIG } else { 0 }),
        CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT => {
            bitfield(caps.fp_atomic_capabilities(FpAtomicType::Single))
        }
        CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT => {
            bitfield(caps.fp_atomic_capabilities(FpAtomicType::Double))
        }
        CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT => {
            bitfield(caps.fp_atomic_capabilities(FpAtomicType::Half))
        }
        // Vulkan does not describe caches.
        CL_DEVICE_GLOBAL_MEM_CACHE_TYPE => InfoValue::scalar::<cl_device_mem_cache_type>(CL_NONE),
        CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE => uint(0),
        CL_DEVICE_GLOBAL_MEM_CACHE_SIZE => ulong(0),
        CL_DEVICE_GLOBAL_MEM_SIZE => ulong(device.global_mem_size()),
        // __constant arguments are storage buffers like __global ones.
        CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE => ulong(device.max_mem_alloc_size()),
        CL_DEVICE_MAX_CONSTANT_ARGS => uint(device.max_constant_args()),
        // A program's global variables share one buffer (see
        // core/program_globals.rs), as large as any allocation may be.
        CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE | CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE => {
            size(device.max_mem_alloc_size() as usize)
        }
        CL_DEVICE_LOCAL_MEM_TYPE => InfoValue::scalar::<cl_device_local_mem_type>(CL_LOCAL),
        CL_DEVICE_LOCAL_MEM_SIZE => ulong(device.local_mem_size()),
        CL_DEVICE_ERROR_CORRECTION_SUPPORT => InfoValue::bool(false),
        CL_DEVICE_HOST_UNIFIED_MEMORY => InfoValue::bool(device.host_unified_memory()),
        // GPU timestamps tick every timestampPeriod ns; without them,
        // profiling uses the host clock, in nanoseconds.
        CL_DEVICE_PROFILING_TIMER_RESOLUTION => size(device.clock().resolution_ns()),
        CL_DEVICE_ENDIAN_LITTLE => InfoValue::bool(cfg!(target_endian = "little")),
        CL_DEVICE_AVAILABLE | CL_DEVICE_COMPILER_AVAILABLE | CL_DEVICE_LINKER_AVAILABLE => {
            InfoValue::bool(true)
        }
        CL_DEVICE_EXECUTION_CAPABILITIES => bitfield(CL_EXEC_KERNEL),
        // In order, with profiling.
        CL_DEVICE_QUEUE_ON_HOST_PROPERTIES => {
            bitfield(CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        }
        CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES => bitfield(0),
        CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE
        | CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE
        | CL_DEVICE_MAX_ON_DEVICE_QUEUES
        | CL_DEVICE_MAX_ON_DEVICE_EVENTS => uint(0),
        CL_DEVICE_BUILT_IN_KERNELS => InfoValue::string(""),
        CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION => InfoValue::name_versions([]),
        // The SPIR-V versions the translator reads, the same on every
        // device: "SPIR-V_1.0 SPIR-V_1.1 ...", the spec's form.
        CL_DEVICE_IL_VERSION => {
            let versions: Vec<String> = translator::il::SPIRV_VERSIONS
                .iter()
                .map(|(major, minor)| format!("{IL_NAME}_{major}.{minor}"))
                .collect();
            InfoValue::string(&versions.join(" "))
        }
        CL_DEVICE_ILS_WITH_VERSION => InfoValue::name_versions(
            translator::il::SPIRV_VERSIONS
                .iter()
                .map(|&(major, minor)| (IL_NAME, make_version(major, minor, 0))),
        ),
        CL_DEVICE_PLATFORM => InfoValue::handle(Some(&**Platform::get())),
        CL_DEVICE_NAME => InfoValue::string(device.name()),
        CL_DEVICE_VENDOR => InfoValue::string(device.vendor_name()),
        CL_DRIVER_VERSION => InfoValue::string(DRIVER_VERSION),
        CL_DEVICE_PROFILE => InfoValue::string(device.profile()),
        CL_DEVICE_VERSION => InfoValue::string(DEVICE_VERSION),
        CL_DEVICE_NUMERIC_VERSION => uint(platform::NUMERIC_VERSION),
        CL_DEVICE_OPENCL_C_VERSION => InfoValue::string(OPENCL_C_VERSION),
        CL_DEVICE_OPENCL_C_ALL_VERSIONS => InfoValue::name_versions(OPENCL_C_VERSIONS),
        CL_DEVICE_OPENCL_C_FEATURES => InfoValue::name_versions(
            caps.features()
                .into_iter()
                .map(|feature| (feature, make_version(3, 0, 0))),
        ),
        CL_DEVICE_EXTENSIONS => {
            let names: Vec<&str> = device.extensions().iter().map(|(name, _)| *name).collect();
            InfoValue::string(&names.join(" "))
        }
        CL_DEVICE_EXTENSIONS_WITH_VERSION => InfoValue::name_versions(device.extensions()),
        // `-cl-std=CLC++` is C++ for OpenCL 1.0 (`__OPENCL_CPP_VERSION__`
        // 100), the version this reports, as `cl_ext_cxx_for_opencl` says.
        CL_DEVICE_CXX_FOR_OPENCL_NUMERIC_VERSION_EXT => uint(make_version(1, 0, 0)),
        // printf is not supported.
        CL_DEVICE_PRINTF_BUFFER_SIZE => size(crate::core::printf::PRINTF_BUFFER_BYTES),
        CL_DEVICE_PREFERRED_INTEROP_USER_SYNC => InfoValue::bool(true),
        CL_DEVICE_PARENT_DEVICE => InfoValue::handle::<Device>(None),
        CL_DEVICE_PARTITION_MAX_SUB_DEVICES => uint(0),
        // "If the device cannot be partitioned ... a value of 0 will be
        // returned."
        CL_DEVICE_PARTITION_PROPERTIES => InfoValue::array::<cl_device_partition_property>(&[0]),
        CL_DEVICE_PARTITION_AFFINITY_DOMAIN => bitfield(0),
        // Root devices have no partition type.
        CL_DEVICE_PARTITION_TYPE => InfoValue::empty(),
        // Root devices are not reference counted.
        CL_DEVICE_REFERENCE_COUNT => uint(1),
        CL_DEVICE_SVM_CAPABILITIES => bitfield(0),
        CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT
        | CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT
        | CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT => uint(0),
        CL_DEVICE_MAX_PIPE_ARGS
        | CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS
        | CL_DEVICE_PIPE_MAX_PACKET_SIZE => uint(0),
        // cl_intel_required_subgroup_size: the sizes kernels may ask for.
        CL_DEVICE_SUB_GROUP_SIZES_INTEL if caps.subgroups.khr_subgroups() => {
            let [min, max] = caps.subgroup_size_range;
            let sizes: Vec<usize> = (0..32)
                .map(|bit| 1usize << bit)
                .filter(|&size| (min as usize..=max as usize).contains(&size))
                .collect();
            InfoValue::array(&sizes)
        }
        CL_DEVICE_MAX_NUM_SUB_GROUPS => uint(if caps.subgroups.khr_subgroups() {
            let groups = crate::core::sub_groups::SubGroups {
                size: device.subgroup_size() as usize,
            };
            groups.count(device.max_work_group_size()) as u32
        } else {
            0
        }),
        // The last, smaller groups run as dispatches of their own.
        CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT => InfoValue::bool(true),
        CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT => InfoValue::bool(
            caps.features()
                .contains(&"__opencl_c_work_group_collective_functions"),
        ),
        CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT => InfoValue::bool(
            caps.features()
                .contains(&"__opencl_c_generic_address_space"),
        ),
        CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS => {
            InfoValue::bool(caps.subgroups.khr_subgroups() && caps.subgroup_forward_progress)
        }
        CL_DEVICE_PIPE_SUPPORT => InfoValue::bool(false),
        CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES => bitfield(ATOMIC_MEMORY_CAPABILITIES),
        CL_DEVICE_ATOMIC_FENCE_CAPABILITIES => bitfield(ATOMIC_FENCE_CAPABILITIES),
        CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES => bitfield(0),
        CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => size(device.subgroup_size() as usize),
        CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED => {
            InfoValue::string(LATEST_CONFORMANCE_VERSION_PASSED)
        }
        _ => return Err(CL_INVALID_VALUE),
    })
}

pub(crate) unsafe extern "C" fn get_device_info(
    device: cl_device_id,
    param_name: cl_device_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    let entry = entry!(
        "clGetDeviceInfo",
        device: device,
        param_name: info,
        param_value_size: size,
        param_value: pointer,
        param_value_size_ret: pointer,
    );
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        let device = unsafe { handle::object::<Device>(device)? };
        let value = device_info(&device, param_name)?;
        // SAFETY: the application's buffers, per the clGetDeviceInfo contract.
        unsafe { write_info(&value, param_value_size, param_value, param_value_size_ret) }
    })
}

/// Root devices are not reference counted: retain only checks the handle.
pub(crate) unsafe extern "C" fn retain_device(device: cl_device_id) -> cl_int {
    let entry = entry!("clRetainDevice", device: device);
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        unsafe { handle::object::<Device>(device)? };
        Ok(())
    })
}

/// Root devices are not reference counted: release only checks the handle.
pub(crate) unsafe extern "C" fn release_device(device: cl_device_id) -> cl_int {
    let entry = entry!("clReleaseDevice", device: device);
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        unsafe { handle::object::<Device>(device)? };
        Ok(())
    })
}

/// No partitioning scheme is supported (`CL_DEVICE_PARTITION_PROPERTIES` is
/// 0), so every request names a property the device does not support.
pub(crate) unsafe extern "C" fn create_sub_devices(
    in_device: cl_device_id,
    _properties: *const cl_device_partition_property,
    _num_devices: cl_uint,
    _out_devices: *mut cl_device_id,
    _num_devices_ret: *mut cl_uint,
) -> cl_int {
    let entry = entry!("clCreateSubDevices", in_device: device);
    call::status(entry, || {
        // SAFETY: a handle from the application, checked before use.
        unsafe { handle::object::<Device>(in_device)? };
        // "CL_INVALID_VALUE if values specified in properties are not valid
        // or if values specified in properties are valid but not supported
        // by the device."
        Err(CL_INVALID_VALUE)
    })
}
