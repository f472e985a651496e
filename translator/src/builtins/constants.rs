//! The integer and enum constants kernels pass to the built-ins (fence
//! flags, memory orders and scopes), which behave as program-scope
//! constants.

use crate::types::Scalar;

/// Enum and integer constants the spec defines for use with these
/// built-ins, with their type and value. The fence flags are macros in
/// clang's `opencl-c-base.h` and `cl_mem_fence_flags` (uint) here;
/// `memory_order` and `memory_scope` are enums there, so `int` here, with
/// clang's values (`__ATOMIC_*` and `__OPENCL_MEMORY_SCOPE_*`). Clang only
/// defines `CLK_IMAGE_MEM_FENCE`, `memory_order_*` and `memory_scope_*` for
/// OpenCL C 2.0 and newer; the table does not gate them.
pub const PREDEFINED_CONSTANTS: &[(&str, Scalar, i64)] = &[
    ("CLK_LOCAL_MEM_FENCE", Scalar::UInt, 1),
    ("CLK_GLOBAL_MEM_FENCE", Scalar::UInt, 2),
    ("CLK_IMAGE_MEM_FENCE", Scalar::UInt, 4),
    ("memory_order_relaxed", Scalar::Int, 0),
    ("memory_order_acquire", Scalar::Int, 2),
    ("memory_order_release", Scalar::Int, 3),
    ("memory_order_acq_rel", Scalar::Int, 4),
    ("memory_order_seq_cst", Scalar::Int, 5),
    ("memory_scope_work_item", Scalar::Int, 0),
    ("memory_scope_work_group", Scalar::Int, 1),
    ("memory_scope_device", Scalar::Int, 2),
    ("memory_scope_all_svm_devices", Scalar::Int, 3),
    ("memory_scope_all_devices", Scalar::Int, 3),
    ("memory_scope_sub_group", Scalar::Int, 4),
];
