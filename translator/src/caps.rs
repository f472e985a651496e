//! What the target device can do, as far as the language is concerned, and
//! the OpenCL C extensions and feature macros that follow from it.
//!
//! The runtime fills [`DeviceCaps`] from the Vulkan device; the extension and
//! feature lists here are the single source for both the `__opencl_c_*` /
//! `cl_khr_*` macros the compiler predefines and what the runtime reports in
//! `CL_DEVICE_EXTENSIONS` and `CL_DEVICE_OPENCL_C_FEATURES`, so the two can
//! never disagree.

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DeviceCaps {
    /// Width of `size_t`, `ptrdiff_t` and pointers: 64 needs `shaderInt64`.
    pub address_bits: u32,
    /// `long`/`ulong` (Vulkan `shaderInt64`). OpenCL C requires them on full
    /// profile; devices without are embedded-profile.
    pub int64: bool,
    /// Native 16-bit integers in shaders (`shaderInt16`).
    pub int16: bool,
    /// `double` (`shaderFloat64`).
    pub float64: bool,
    /// 64-bit atomics on buffers and workgroup memory
    /// (`shaderBufferInt64Atomics` and `shaderSharedInt64Atomics`).
    pub int64_atomics: bool,
    /// `half` values and arithmetic (`shaderFloat16`, and `shaderInt16`
    /// for their bits): enables `cl_khr_fp16`. Buffers of `half` go through
    /// the 32-bit word view, so no 16-bit storage access is needed for them.
    pub float16: bool,
    pub image_support: bool,
    /// `cl_khr_depth_images`: `CL_DEPTH` images of `CL_FLOAT` and
    /// `CL_UNORM_INT16` can be read and written (2D and 2D arrays).
    pub depth_images: bool,
    /// `cl_khr_srgb_image_writes`: `write_imagef` on `CL_sRGBA` /
    /// `CL_UNORM_INT8` images.
    pub srgb_image_writes: bool,
    /// Push-constant bytes a pipeline may use (`maxPushConstantsSize`). A
    /// kernel whose launch block (header plus by-value arguments) is larger
    /// reads it from a storage buffer instead.
    pub max_push_constant_size: u32,
    /// The kernel may declare IEEE signed zeros, infinities and NaNs
    /// (`SignedZeroInfNanPreserve`) for 32-, 64- and 16-bit floats.
    pub preserve_inf_nan: [bool; 3],
    /// The kernel may declare that 16-bit float operations round to
    /// nearest even (`shaderRoundingModeRTEFloat16`).
    pub half_rte: bool,
    /// OpenCL 2.0 atomics may carry acquire/release semantics, and fences
    /// (`mem_fence`, `atomic_work_item_fence`) become memory barriers.
    /// Lavapipe (Mesa 22.3) loses atomic updates when an atomic with
    /// semantics, or a fence, sits in a loop that work-items leave at
    /// different iterations (a compare-exchange loop: 438 of 12,285
    /// increments arrived; the OpenCL-CTS's `atomic_flag` test left most
    /// work-items unfinished): it suspends the work-group there as at a
    /// control barrier. There atomics stay relaxed and fences are left
    /// out, which x86's locked instructions still order in hardware,
    /// although LLVM may move plain accesses across them.
    pub ordered_atomics: bool,
    /// Vulkan's `Fma` is one fused operation here. Vulkan lets a driver
    /// compute it as a multiply and an add, as lavapipe (Mesa 22.3) does:
    /// `fma(x, y, -x*y)` came out 0 instead of the product's rounding error.
    /// Where it is not fused, OpenCL's correctly rounded `fma` is built in
    /// software.
    pub fused_fma: bool,
    /// The driver may end a loop early and carry on after it, giving wrong
    /// results silently: Mesa 22.3's lavapipe stops an invocation's loops
    /// after 65,535 iterations in all. Where set, every loop records how
    /// it ended, and a kernel whose loop the driver cut sets a status word
    /// the runtime reads after the launch, which fails the command
    /// (`KernelReflection::loop_status`). The runtime sets this from a
    /// probe of the driver.
    pub loop_guard: bool,
    /// What the device can do with denormals (subnormal numbers).
    pub denormals: Denormals,
    /// The Vulkan subgroup operations kernels may use (the device's
    /// `subgroupSupportedOperations`, where `subgroupSupportedStages` has
    /// compute); empty for none. OpenCL's sub-groups are the device's
    /// Vulkan subgroups.
    pub subgroups: SubgroupOps,
    /// The work-items of a subgroup, as the device runs kernels (Vulkan's
    /// `subgroupSize`: a shader of SPIR-V before 1.6 created without
    /// asking for another runs with exactly this many).
    pub subgroup_size: u32,
    /// The subgroup sizes a kernel may ask for with
    /// `intel_reqd_sub_group_size` (powers of two from the first to the
    /// second): `VK_EXT_subgroup_size_control`'s range, or the one size.
    pub subgroup_size_range: [u32; 2],
    /// A sub-group may wait for another of its work-group to make
    /// progress (`CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS`): the
    /// hardware schedules subgroups independently. The `cl_khr_subgroups`
    /// extension requires it; the OpenCL C 3.0 feature does not.
    pub subgroup_forward_progress: bool,
}

/// The sub-group extensions after `cl_khr_subgroups`, all made of the
/// operations [`SubgroupOps::khr_subgroups`] needs (and, as OpenCL 3.0
/// lets them, on the `__opencl_c_subgroups` feature where the device has
/// no `cl_khr_subgroups`).
const SUB_GROUP_EXTENSIONS: [&str; 8] = [
    "cl_khr_subgroup_extended_types",
    "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_rotate",
    "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_clustered_reduce",
];

/// Vulkan's `VkSubgroupFeatureFlags`, as a set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SubgroupOps(pub u32);

impl SubgroupOps {
    pub const BASIC: u32 = 0x1;
    pub const VOTE: u32 = 0x2;
    pub const ARITHMETIC: u32 = 0x4;
    pub const BALLOT: u32 = 0x8;
    pub const SHUFFLE: u32 = 0x10;
    pub const SHUFFLE_RELATIVE: u32 = 0x20;
    pub const CLUSTERED: u32 = 0x40;
    pub const QUAD: u32 = 0x80;
    pub const ALL: SubgroupOps = SubgroupOps(0xff);

    /// Whether every operation in `bits` is in the set.
    pub fn has(self, bits: u32) -> bool {
        self.0 & bits == bits
    }

    /// `cl_khr_subgroups`: ids and barriers (basic), `sub_group_all` and
    /// `any` (vote), reductions and scans (arithmetic; the scans for min
    /// and max are shuffles up, which naga needs for them), and
    /// `sub_group_broadcast` (ballot, or a shuffle from a lane chosen at
    /// run time).
    pub fn khr_subgroups(self) -> bool {
        self.has(
            Self::BASIC
                | Self::VOTE
                | Self::ARITHMETIC
                | Self::BALLOT
                | Self::SHUFFLE
                | Self::SHUFFLE_RELATIVE,
        )
    }
}

/// The device's denormal controls (`VkPhysicalDeviceFloatControlsProperties`,
/// SPV_KHR_float_controls, core in SPIR-V 1.4), each by float width: 32, 64,
/// 16. Without an execution mode a driver may flush denormals or keep them
/// as it likes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Denormals {
    /// `DenormPreserve` may be declared (`shaderDenormPreserveFloat*`).
    pub preserve: [bool; 3],
    /// `DenormFlushToZero` may be declared (`shaderDenormFlushToZeroFloat*`).
    pub flush: [bool; 3],
    /// `denormBehaviorIndependence`: which widths may differ.
    pub independence: Independence,
    /// `double` arithmetic keeps denormals with no execution mode at all,
    /// where none can be declared (what [`Denormals::double_exact`] falls
    /// back on). Lavapipe reports no denormal controls, and keeps them: it
    /// runs shaders on the CPU's SSE/AVX units with flush-to-zero off
    /// (double and float subnormal products, sums and quotients measured
    /// exact through Mesa 22.3). NVIDIA's driver reports none for 32 or
    /// 64 bits either; its double units never flush.
    pub kept_unasked: bool,
}

/// `VkShaderFloatControlsIndependence`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Independence {
    /// Every width may have its own mode.
    All,
    /// 32-bit floats may have their own; 16- and 64-bit ones the same one.
    Only32,
    /// One mode for every width.
    None,
}

/// A denormal execution mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DenormMode {
    Preserve,
    FlushToZero,
}

impl Denormals {
    /// A device that may declare either mode for every width.
    pub const ANY: Denormals = Denormals {
        preserve: [true; 3],
        flush: [true; 3],
        independence: Independence::All,
        kept_unasked: false,
    };
    /// A device with no denormal controls, whose arithmetic may flush.
    pub const UNCONTROLLED: Denormals = Denormals {
        preserve: [false; 3],
        flush: [false; 3],
        independence: Independence::All,
        kept_unasked: false,
    };

    /// The execution mode each kernel declares for 32-, 64- and 16-bit
    /// floats (`None`: none). Doubles keep their denormals wherever the
    /// device can be told to (`CL_FP_DENORM` is required of `double`);
    /// floats keep theirs too where the device can, and are flushed where
    /// it can only flush, or where `flush_float` (`-cl-denorms-are-zero`)
    /// asks and the device can. Halves have no mode of their own unless
    /// `denormBehaviorIndependence` ties them to doubles. Where a width
    /// must share the others' mode and cannot, it gets none, and doubles
    /// are not reported exact ([`Denormals::double_exact`]).
    pub fn modes(&self, flush_float: bool) -> [Option<DenormMode>; 3] {
        let can = |width: usize, mode: DenormMode| match mode {
            DenormMode::Preserve => self.preserve[width],
            DenormMode::FlushToZero => self.flush[width],
        };
        let double = can(1, DenormMode::Preserve).then_some(DenormMode::Preserve);
        let float = if flush_float && self.flush[0] {
            Some(DenormMode::FlushToZero)
        } else if self.preserve[0] {
            Some(DenormMode::Preserve)
        } else if self.flush[0] {
            Some(DenormMode::FlushToZero)
        } else {
            None
        };
        match self.independence {
            Independence::All => [float, double, None],
            Independence::Only32 => match double {
                Some(mode) if can(2, mode) => [float, double, double],
                _ => [float, None, None],
            },
            Independence::None => {
                let every = |mode| (0..3).all(|width| can(width, mode));
                if every(DenormMode::Preserve) {
                    [Some(DenormMode::Preserve); 3]
                } else if every(DenormMode::FlushToZero) {
                    [Some(DenormMode::FlushToZero); 3]
                } else {
                    [None; 3]
                }
            }
        }
    }

    /// Whether `float` denormals are kept in a default build: what
    /// `CL_FP_DENORM` in `CL_DEVICE_SINGLE_FP_CONFIG` reports.
    pub fn float_exact(&self) -> bool {
        self.modes(false)[0] == Some(DenormMode::Preserve)
    }

    /// Whether `double` denormals are kept in every build, as OpenCL
    /// requires of a device with `cl_khr_fp64` (`-cl-denorms-are-zero`
    /// lets a build flush them, but none is made to).
    pub fn double_exact(&self) -> bool {
        [false, true]
            .into_iter()
            .all(|flush_float| match self.modes(flush_float)[1] {
                Some(DenormMode::Preserve) => true,
                Some(DenormMode::FlushToZero) => false,
                None => self.kept_unasked,
            })
    }
}

impl DeviceCaps {
    /// A device with everything the translator can use: what lavapipe and
    /// desktop GPUs offer. Used by the offline compiler by default.
    pub fn full() -> Self {
        DeviceCaps {
            address_bits: 64,
            int64: true,
            int16: true,
            float64: true,
            int64_atomics: true,
            float16: true,
            image_support: false,
            depth_images: false,
            srgb_image_writes: false,
            // What Vulkan guarantees every device.
            max_push_constant_size: 128,
            preserve_inf_nan: [true, true, true],
            half_rte: true,
            ordered_atomics: true,
            fused_fma: true,
            loop_guard: false,
            denormals: Denormals::ANY,
            subgroups: SubgroupOps::ALL,
            subgroup_size: 32,
            subgroup_size_range: [8, 64],
            subgroup_forward_progress: true,
        }
    }

    /// `cl_khr_*` extensions the translator implements on this device.
    pub fn extensions(&self) -> Vec<&'static str> {
        let mut list = vec![
            "cl_khr_byte_addressable_store",
            "cl_khr_global_int32_base_atomics",
            "cl_khr_global_int32_extended_atomics",
            "cl_khr_local_int32_base_atomics",
            "cl_khr_local_int32_extended_atomics",
        ];
        if self.float64 {
            list.push("cl_khr_fp64");
        }
        if self.float16 {
            list.push("cl_khr_fp16");
        }
        if self.int64_atomics {
            list.push("cl_khr_int64_base_atomics");
            list.push("cl_khr_int64_extended_atomics");
        }
        if self.fp_atomic_capabilities(FpAtomicType::Single) != 0 {
            list.push("cl_ext_float_atomics");
        }
        if self.image_3d_writes() {
            list.push("cl_khr_3d_image_writes");
        }
        if self.image_support && self.depth_images {
            list.push("cl_khr_depth_images");
        }
        if self.image_support && self.srgb_image_writes {
            list.push("cl_khr_srgb_image_writes");
        }
        if self.subgroups.khr_subgroups() {
            if self.subgroup_forward_progress {
                list.push("cl_khr_subgroups");
            }
            list.extend(SUB_GROUP_EXTENSIONS);
            list.push("cl_intel_required_subgroup_size");
        }
        list
    }

    /// `read_write` images: a storage image without format is read and
    /// written alike, so every device with images has them.
    pub fn read_write_images(&self) -> bool {
        self.image_support
    }

    /// `write_image*` on `image3d_t` (`cl_khr_3d_image_writes`): Vulkan
    /// storage images are 3D as readily as 2D.
    pub fn image_3d_writes(&self) -> bool {
        self.image_support
    }

    /// `cl_ext_float_atomics`: the `cl_device_fp_atomic_capabilities_ext`
    /// bits for `ty`. Every operation is a compare-exchange loop (or a
    /// plain atomic) on the integer of the same width, so `float` needs
    /// only 32-bit atomics, which every device has, and `double` the 64-bit
    /// ones; `half` atomics are not implemented.
    pub fn fp_atomic_capabilities(&self, ty: FpAtomicType) -> u64 {
        let supported = match ty {
            FpAtomicType::Half => false,
            FpAtomicType::Single => true,
            FpAtomicType::Double => self.float64 && self.int64_atomics,
        };
        if supported {
            FP_ATOMIC_GLOBAL_LOAD_STORE
                | FP_ATOMIC_GLOBAL_ADD
                | FP_ATOMIC_GLOBAL_MIN_MAX
                | FP_ATOMIC_LOCAL_LOAD_STORE
                | FP_ATOMIC_LOCAL_ADD
                | FP_ATOMIC_LOCAL_MIN_MAX
        } else {
            0
        }
    }

    /// OpenCL C 3.0 optional features (`__opencl_c_*`) this device supports.
    pub fn features(&self) -> Vec<&'static str> {
        // Work-group collectives lower onto `__local` scratch and barriers
        // (lower/library/collectives.rs), which every device has.
        // Generic pointers resolve to their roots at compile time
        // (lower/pointers/), whatever the device.
        let mut list = vec![
            "__opencl_c_generic_address_space",
            "__opencl_c_program_scope_global_variables",
            "__opencl_c_work_group_collective_functions",
        ];
        if self.int64 {
            list.push("__opencl_c_int64");
        }
        if self.float64 {
            list.push("__opencl_c_fp64");
        }
        if self.float16 {
            list.push("__opencl_c_fp16");
        }
        if self.image_support {
            list.push("__opencl_c_images");
        }
        if self.read_write_images() {
            list.push("__opencl_c_read_write_images");
        }
        if self.image_3d_writes() {
            list.push("__opencl_c_3d_image_writes");
        }
        if self.subgroups.khr_subgroups() {
            list.push("__opencl_c_subgroups");
        }
        for &(ty, bit, feature) in FP_ATOMIC_FEATURES {
            if self.fp_atomic_capabilities(ty) & bit != 0 {
                list.push(feature);
            }
        }
        list
    }
}

/// The floating-point types `cl_ext_float_atomics` describes, one
/// `clGetDeviceInfo` query each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FpAtomicType {
    Half,
    Single,
    Double,
}

// `cl_device_fp_atomic_capabilities_ext` bits (cl_ext_float_atomics).
pub const FP_ATOMIC_GLOBAL_LOAD_STORE: u64 = 1 << 0;
pub const FP_ATOMIC_GLOBAL_ADD: u64 = 1 << 1;
pub const FP_ATOMIC_GLOBAL_MIN_MAX: u64 = 1 << 2;
pub const FP_ATOMIC_LOCAL_LOAD_STORE: u64 = 1 << 16;
pub const FP_ATOMIC_LOCAL_ADD: u64 = 1 << 17;
pub const FP_ATOMIC_LOCAL_MIN_MAX: u64 = 1 << 18;

/// The feature macro of each capability bit. Loads, stores and exchanges
/// of `float` and `double` are OpenCL C 2.0 core and have none; those of
/// `half` would, but `half` atomics are not implemented.
const FP_ATOMIC_FEATURES: &[(FpAtomicType, u64, &str)] = &[
    (
        FpAtomicType::Single,
        FP_ATOMIC_GLOBAL_ADD,
        "__opencl_c_ext_fp32_global_atomic_add",
    ),
    (
        FpAtomicType::Single,
        FP_ATOMIC_LOCAL_ADD,
        "__opencl_c_ext_fp32_local_atomic_add",
    ),
    (
        FpAtomicType::Single,
        FP_ATOMIC_GLOBAL_MIN_MAX,
        "__opencl_c_ext_fp32_global_atomic_min_max",
    ),
    (
        FpAtomicType::Single,
        FP_ATOMIC_LOCAL_MIN_MAX,
        "__opencl_c_ext_fp32_local_atomic_min_max",
    ),
    (
        FpAtomicType::Double,
        FP_ATOMIC_GLOBAL_ADD,
        "__opencl_c_ext_fp64_global_atomic_add",
    ),
    (
        FpAtomicType::Double,
        FP_ATOMIC_LOCAL_ADD,
        "__opencl_c_ext_fp64_local_atomic_add",
    ),
    (
        FpAtomicType::Double,
        FP_ATOMIC_GLOBAL_MIN_MAX,
        "__opencl_c_ext_fp64_global_atomic_min_max",
    ),
    (
        FpAtomicType::Double,
        FP_ATOMIC_LOCAL_MIN_MAX,
        "__opencl_c_ext_fp64_local_atomic_min_max",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: u64 = FP_ATOMIC_GLOBAL_LOAD_STORE
        | FP_ATOMIC_GLOBAL_ADD
        | FP_ATOMIC_GLOBAL_MIN_MAX
        | FP_ATOMIC_LOCAL_LOAD_STORE
        | FP_ATOMIC_LOCAL_ADD
        | FP_ATOMIC_LOCAL_MIN_MAX;

    #[test]
    fn float_atomics_follow_the_device() {
        let full = DeviceCaps::full();
        assert_eq!(ALL, 0x7_0007, "the spec's bit values");
        assert_eq!(full.fp_atomic_capabilities(FpAtomicType::Single), ALL);
        assert_eq!(full.fp_atomic_capabilities(FpAtomicType::Double), ALL);
        assert_eq!(full.fp_atomic_capabilities(FpAtomicType::Half), 0);
        assert!(full.extensions().contains(&"cl_ext_float_atomics"));
        let features = full.features();
        for width in ["fp32", "fp64"] {
            for what in [
                "global_atomic_add",
                "local_atomic_add",
                "global_atomic_min_max",
                "local_atomic_min_max",
            ] {
                let name = format!("__opencl_c_ext_{width}_{what}");
                assert!(features.contains(&name.as_str()), "{name}");
            }
        }
        assert!(!features.iter().any(|f| f.contains("ext_fp16")));

        // double atomics need fp64 and 64-bit integer atomics.
        for caps in [
            DeviceCaps {
                float64: false,
                ..DeviceCaps::full()
            },
            DeviceCaps {
                int64_atomics: false,
                ..DeviceCaps::full()
            },
        ] {
            assert_eq!(caps.fp_atomic_capabilities(FpAtomicType::Double), 0);
            assert_eq!(caps.fp_atomic_capabilities(FpAtomicType::Single), ALL);
            assert!(!caps.features().iter().any(|f| f.contains("fp64_")));
            assert_eq!(
                caps.features()
                    .iter()
                    .filter(|f| f.contains("fp32_"))
                    .count(),
                4
            );
        }
    }
}
