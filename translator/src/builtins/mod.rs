//! The OpenCL C 3.0 built-in function library (OpenCL C 6.15) as the checker
//! sees it: the name of every built-in, its overloads as rows of a
//! declarative table (parameter shapes, result shape, element types, vector
//! widths, the OpenCL C version that introduced it), overload resolution
//! against that table, and the integer/enum constants kernels pass to these
//! built-ins ([`PREDEFINED_CONSTANTS`]).
//!
//! What a built-in *does* is the lowering's business; this module only says
//! which overload a call means, what each argument must be converted to and
//! what the call returns, so the checker can make every conversion explicit.
//!
//! Covered: work-item functions, math (with `half_` and `native_`), integer,
//! common, geometric and relational functions, `shuffle`/`shuffle2`, vector
//! data loads and stores, barriers and fences, the address space qualifier
//! functions (`to_global`, `to_local`, `to_private`, `get_fence`), async
//! copies and prefetch, the OpenCL 1.x atomics (`atom_*` from the
//! `cl_khr_*_atomics` extensions and the 1.1 `atomic_*`), the OpenCL 2.0
//! atomics on the atomic types (which the checker maps to plain scalars:
//! `atomic_int` is `int`, `atomic_flag` is `int`, ...), the work-group
//! collectives, and the conversion operators
//! `convert_<type>[_sat][_<rounding>]` and `as_<type>` (OpenCL C 6.4),
//! which are parsed from the name instead of being listed.
//!
//! The image functions are resolved by `images` from the image type of
//! their first argument.
//!
//! Not covered, with a "not supported yet" error rather than "undeclared"
//! (see [`NOT_SUPPORTED`]): `get_image_num_samples` (no multi-sample
//! images), sub-group functions, pipes and device-side enqueue. `printf`
//! (variadic) is the checker's own business.
//!
//! One concern per file: `names` (the [`Builtin`] enum and reading a
//! call's name), `constants` ([`PREDEFINED_CONSTANTS`]), `signatures` (the
//! vocabulary of parameter and result shapes the tables are written in),
//! `table` (the overloads of the built-ins with fixed names), `atomics`
//! (the OpenCL 2.0 atomics' table) and `resolve` (overload resolution);
//! this module holds what resolution needs to know ([`BuiltinContext`])
//! and C's arithmetic conversions, which the checker shares.

mod atomics;
mod constants;
mod images;
mod names;
mod resolve;
mod signatures;
mod table;
#[cfg(test)]
mod tests;

pub use constants::PREDEFINED_CONSTANTS;
pub use images::{ImageBuiltin, ImageQuery, Texel};
pub use names::{
    AtomicOp, Builtin, C11AtomicOp, Conversion, Rounding, SubGroupForm, SubGroupOp, NOT_SUPPORTED,
};
pub use resolve::{resolve, Resolved};

use crate::types::Scalar;

/// What overload resolution needs to know about the program and the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltinContext {
    /// `size_t` on the device.
    pub size_type: Scalar,
    /// `double` overloads exist (`cl_khr_fp64` / `__opencl_c_fp64`).
    pub float64: bool,
    /// `half` overloads exist (`cl_khr_fp16`). `vload_half` and
    /// `vstore_half`, which only read and write `half` in memory, exist
    /// without it.
    pub float16: bool,
    /// The OpenCL C version the program is built as, e.g. `(1, 2)`.
    pub cl_std: (u32, u32),
    /// `write_image*` on `image3d_t` (`__opencl_c_3d_image_writes`).
    pub image_3d_writes: bool,
    /// The device's subgroup operations, which the sub-group functions
    /// need (`cl_khr_subgroups`, `__opencl_c_subgroups` and the
    /// extensions after them).
    pub subgroups: crate::caps::SubgroupOps,
}

/// The usual arithmetic conversions for two scalars (C99 6.3.1.8), after
/// integer promotion.
pub fn common_scalar(a: Scalar, b: Scalar) -> Scalar {
    let (a, b) = (promote(a), promote(b));
    if a == b {
        return a;
    }
    if a.is_float() || b.is_float() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    if a.is_signed() == b.is_signed() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    let (signed, unsigned) = if a.is_signed() { (a, b) } else { (b, a) };
    if unsigned.rank() >= signed.rank() {
        unsigned
    } else if signed.size() > unsigned.size() {
        signed
    } else {
        signed.to_unsigned()
    }
}

/// Integer promotion: everything below `int` becomes `int`.
pub fn promote(s: Scalar) -> Scalar {
    if s.is_integer() && s.rank() < Scalar::Int.rank() {
        Scalar::Int
    } else {
        s
    }
}
