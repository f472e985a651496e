//! The last stage: a validated naga module per kernel, written as SPIR-V on
//! demand for each work-group size the runtime launches with (naga's
//! `LocalSize` is a literal, and re-writing a small module costs microseconds).

use crate::reflect::KernelReflection;
use naga::back::spv;
use naga::valid::{Capabilities, ModuleInfo, ValidationFlags, Validator};

/// A compiled kernel: reflection plus the module to write SPIR-V from.
#[derive(Debug)]
pub struct Kernel {
    pub reflection: KernelReflection,
    module: naga::Module,
    info: ModuleInfo,
    /// The `u32` constants that hold the work-group size in the IR
    /// (`get_local_size`, `get_num_groups`), rewritten per launch size.
    local_size_constants: [naga::Handle<naga::Constant>; 3],
}

/// naga rejected a module we produced: always a translator bug, reported as
/// a build error naming the kernel rather than a crash.
#[derive(Debug)]
pub struct SpirvError(pub String);

impl std::fmt::Display for SpirvError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpirvError {}

/// The capabilities the lowered code may use; the device check for each
/// happens in the front end (e.g. `long` needs `DeviceCaps::int64`).
fn capabilities() -> Capabilities {
    Capabilities::IMMEDIATES
        | Capabilities::SHADER_INT64
        | Capabilities::SHADER_INT16
        | Capabilities::FLOAT64
        | Capabilities::SHADER_FLOAT16
}

impl Kernel {
    /// Validates `module` (one compute entry point) and wraps it with its
    /// reflection.
    pub fn new(
        reflection: KernelReflection,
        module: naga::Module,
        local_size_constants: [naga::Handle<naga::Constant>; 3],
    ) -> Result<Self, SpirvError> {
        // Offsets come from our C layout engine, not WGSL's rules, so
        // STRUCT_LAYOUTS stays off (scalar block layout).
        let flags = ValidationFlags::all() - ValidationFlags::STRUCT_LAYOUTS;
        let info = Validator::new(flags, capabilities())
            .validate(&module)
            .map_err(|e| {
                SpirvError(format!(
                    "internal compiler error: invalid IR for kernel '{}': {}",
                    reflection.name,
                    e.emit_to_string("")
                ))
            })?;
        Ok(Kernel {
            reflection,
            module,
            info,
            local_size_constants,
        })
    }

    pub fn module(&self) -> &naga::Module {
        &self.module
    }

    /// SPIR-V 1.5 for a launch with work-group size `local_size`.
    pub fn spirv(&self, local_size: [u32; 3]) -> Result<Vec<u32>, SpirvError> {
        let options = spv::Options {
            lang_version: (1, 5),
            flags: spv::WriterFlags::empty(),
            // Every loop would otherwise get a 64-bit iteration counter.
            force_loop_bounding: false,
            // OpenCL leaves __local memory uninitialised.
            zero_initialize_workgroup_memory: spv::ZeroInitializeWorkgroupMemoryMode::None,
            use_storage_input_output_16: false,
            ..Default::default()
        };
        let mut module = self.module.clone();
        for ep in module.entry_points.iter_mut() {
            ep.workgroup_size = local_size;
        }
        for (constant, size) in self.local_size_constants.iter().zip(local_size) {
            let init = module.constants[*constant].init;
            module.global_expressions[init] = naga::Expression::Literal(naga::Literal::U32(size));
        }
        let mut words = Vec::new();
        let mut writer = spv::Writer::new(&options).map_err(|e| SpirvError(e.to_string()))?;
        writer
            .write(&module, &self.info, None, &None, &mut words)
            .map_err(|e| SpirvError(format!("SPIR-V writer: {e}")))?;
        Ok(words)
    }
}
