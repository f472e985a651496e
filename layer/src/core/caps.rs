//! The one place that decides what the OpenCL C compiler may assume about a
//! device. The translator derives both its predefined macros and the
//! extension/feature lists the runtime reports from [`DeviceCaps`], so
//! filling it here keeps `CL_DEVICE_EXTENSIONS` and the compiler in step.

use ash::vk;
use translator::{Denormals, DeviceCaps, Independence, SubgroupOps};

use crate::vulkan::PhysicalDeviceInfo;

/// The PCI vendor ID of NVIDIA GPUs.
const NVIDIA_VENDOR_ID: u32 = 0x10de;

pub fn device_caps(info: &PhysicalDeviceInfo) -> DeviceCaps {
    let features = &info.features;
    let denormals = Denormals {
        preserve: features.denorm_preserve,
        flush: features.denorm_flush,
        independence: match features.denorm_independence {
            vk::ShaderFloatControlsIndependence::ALL => Independence::All,
            vk::ShaderFloatControlsIndependence::TYPE_32_ONLY => Independence::Only32,
            _ => Independence::None,
        },
        // See `Denormals::kept_unasked`. Neither driver reports a double
        // denormal control (NVIDIA's 580 driver on an H200: no
        // shaderDenormPreserveFloat64, no flush either), and both keep
        // them: lavapipe measured; NVIDIA's double units have no
        // flush-to-zero at all (PTX's `.ftz` exists for `.f32` only), and
        // tests/denormals.rs checks subnormal double results bit for bit
        // on the H200.
        kept_unasked: info.driver_name == "llvmpipe" || info.vendor_id == NVIDIA_VENDOR_ID,
    };
    DeviceCaps {
        // size_t and pointers are 64-bit only when the shader can do 64-bit
        // integer arithmetic on them.
        address_bits: if features.shader_int64 { 64 } else { 32 },
        int64: features.shader_int64,
        int16: features.shader_int16,
        // OpenCL requires `double` denormals (CL_FP_DENORM): no fp64
        // where they might be flushed.
        float64: features.shader_float64 && denormals.double_exact(),
        // cl_khr_int64_{base,extended}_atomics cover global and local memory.
        int64_atomics: features.shader_int64
            && features.shader_buffer_int64_atomics
            && features.shader_shared_int64_atomics,
        // `half` values are f16 registers; buffers and kernel arguments
        // of `half` go through 32-bit words, so 16-bit storage access is
        // not needed. Their bits pass through 16-bit integers.
        float16: features.shader_float16 && features.shader_int16,
        // Decided from the device's formats (`core::image_format`).
        image_support: false,
        depth_images: false,
        srgb_image_writes: false,
        max_push_constant_size: info.limits.max_push_constants_size,
        preserve_inf_nan: [
            features.preserve_inf_nan_float32,
            features.preserve_inf_nan_float64,
            features.preserve_inf_nan_float16,
        ],
        ordered_atomics: info.driver_name != "llvmpipe",
        fused_fma: info.driver_name != "llvmpipe",
        half_rte: features.rounding_rte_float16,
        // Found by a probe on the device when programs are first built
        // (`Device::build_caps`, `core::loop_cap`).
        loop_guard: false,
        denormals,
        subgroups: subgroup_ops(info),
        subgroup_size: info.subgroup_size,
        subgroup_size_range: info
            .subgroup_size_control
            .map_or([info.subgroup_size; 2], |c| [c.min_size, c.max_size]),
        // NVIDIA's GPUs schedule each warp on its own; lavapipe runs a
        // work-group's subgroups in turn on one thread, switching only at
        // barriers, so one waiting for another would wait for ever.
        subgroup_forward_progress: info.vendor_id == NVIDIA_VENDOR_ID,
    }
}

/// The subgroup operations kernels may use: the device's, for compute,
/// where they cover every type OpenCL's sub-group functions take (`long`
/// and `half` need `shaderSubgroupExtendedTypes`); none otherwise.
fn subgroup_ops(info: &PhysicalDeviceInfo) -> SubgroupOps {
    let needs_extended_types = info.features.shader_int64 || info.features.shader_float16;
    if needs_extended_types && !info.features.subgroup_extended_types {
        return SubgroupOps::default();
    }
    SubgroupOps(info.subgroup_operations.as_raw())
}
