//! The SPIR-V IL front end (`clCreateProgramWithIL`, `cl_khr_il_program`):
//! OpenCL SPIR-V modules (the `Kernel` execution model, physical
//! addressing, `OpenCL.std`) read into the same [`crate::hir`] the OpenCL C
//! checker builds, so the analysis, the lowering and the reflection are the
//! ones every source takes.
//!
//! One concern per file: `build` (the driver: module-level declarations,
//! linkage, entry points), `module` (reading the binary, the spec
//! constants it declares), `listing` (the text diagnostics point into: one
//! line per instruction, with its word offset), `types` (SPIR-V types as
//! the HIR's), `constants`, `layout` (the order blocks are written in),
//! `function` (what each result id stands for, blocks into statements,
//! `OpPhi`s into assignments, branches into the gotos the checker
//! restructures), `instructions` (memory, control flow, calls, barriers,
//! the extended instructions), `arithmetic` (operators, conversions,
//! composites), `atomics` (atomics and group operations), `sub_groups`
//! (the non-uniform group instructions) and `opencl_std` (the extended
//! instruction set as the built-in library).

mod arithmetic;
mod atomics;
mod build;
mod constants;
mod error;
mod function;
mod instructions;
mod layout;
mod listing;
mod module;
mod opencl_std;
mod sub_groups;
mod types;

pub use error::IlError;
pub use module::{IlModule, SpecConstant};

use std::collections::BTreeMap;

/// The SPIR-V versions accepted, as `(major, minor)`: what
/// `CL_DEVICE_IL_VERSION` and `CL_DEVICE_ILS_WITH_VERSION` report.
pub const SPIRV_VERSIONS: &[(u32, u32)] = &[(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5)];

/// Values given to specialization constants (`clSetProgramSpecializationConstant`),
/// by `SpecId`: the value's bytes, little-endian, zero-extended to 64 bits.
pub type SpecValues = BTreeMap<u32, u64>;

use crate::{BuildError, DeviceCaps, Program, Session};

impl Session {
    /// Builds the SPIR-V `modules`, linked together by their linkage
    /// attributes (one module for `clBuildProgram`, several for
    /// `clLinkProgram`), with the command-line `options` for a device with
    /// `caps`. Each module comes with the values of its specialization
    /// constants (`clSetProgramSpecializationConstant`): a `SpecId` is a
    /// module's own, and constants not set keep their defaults.
    pub fn build_il(
        &self,
        modules: &[(&IlModule, &SpecValues)],
        options: &str,
        caps: &DeviceCaps,
    ) -> Result<Program, BuildError> {
        build::build(modules, options, caps)
    }
}
