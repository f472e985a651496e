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
    /// (`get_local_size`), rewritten per launch size.
    local_size_constants: [naga::Handle<naga::Constant>; 3],
    /// Likewise the enqueued work-group size (`get_enqueued_local_size`,
    /// ids, `get_num_groups`): the same as the size except in the last,
    /// smaller groups of a non-uniform NDRange.
    enqueued_size_constants: [naga::Handle<naga::Constant>; 3],
    /// The workgroup arrays of `__local` pointer arguments, resized per
    /// launch.
    local_args: Vec<naga::Handle<naga::GlobalVariable>>,
    /// The work-group collectives' scratch arrays, one element per
    /// work-item: resized per launch to the work-group size.
    pub(crate) group_scratch: Vec<naga::Handle<naga::GlobalVariable>>,
    /// Declare `SignedZeroInfNanPreserve` for 32-, 64- and 16-bit floats
    /// (see [`declare_inf_nan_preserve`]).
    pub(crate) preserve_inf_nan: [bool; 3],
    /// Declare that `half` operations round to nearest even (see
    /// [`declare_half_rounding_to_nearest`]).
    pub(crate) half_rounds_to_nearest: bool,
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
        | Capabilities::SHADER_FLOAT16_IN_FLOAT32
        | Capabilities::SHADER_INT64_ATOMIC_MIN_MAX
        | Capabilities::SHADER_INT64_ATOMIC_ALL_OPS
}

/// SPIR-V opcodes and decorations the patch below needs.
const OP_DECORATE: u32 = 71;
const DECORATION_BINDING: u32 = 33;
const DECORATION_ALIASED: u32 = 20;
const HEADER_WORDS: usize = 5;

/// Adds `OpDecorate %var Aliased` to the variables at `bindings`. OpenCL
/// pointer arguments may point into the same buffer, and a driver may
/// assume undecorated storage variables do not overlap; naga never writes
/// this decoration, so it is patched in after the variable's `Binding`.
fn decorate_aliased(words: &mut Vec<u32>, bindings: &[u32]) {
    if bindings.is_empty() {
        return;
    }
    let mut out = Vec::with_capacity(words.len() + 3 * bindings.len());
    out.extend_from_slice(&words[..HEADER_WORDS.min(words.len())]);
    let mut at = HEADER_WORDS;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 || at + count > words.len() {
            // Malformed: leave the rest as it is rather than loop.
            out.extend_from_slice(&words[at..]);
            break;
        }
        let instruction = &words[at..at + count];
        out.extend_from_slice(instruction);
        let is_binding = instruction[0] & 0xffff == OP_DECORATE
            && count == 4
            && instruction[2] == DECORATION_BINDING
            && bindings.contains(&instruction[3]);
        if is_binding {
            out.extend_from_slice(&[(3 << 16) | OP_DECORATE, instruction[1], DECORATION_ALIASED]);
        }
        at += count;
    }
    *words = out;
}

const DECORATION_NO_CONTRACTION: u32 = 42;
/// OpFNegate, OpFAdd, OpFSub, OpFMul, OpFDiv, OpFRem, OpFMod.
const FLOAT_ARITHMETIC: [u32; 7] = [127, 129, 131, 133, 136, 140, 141];

/// Adds `OpDecorate %r NoContraction` to every float arithmetic result.
/// Without it a driver may treat the arithmetic as inexact: Mesa's NIR
/// reassociates it (breaking the math library's error-free sums, and
/// Kahan-style summation in kernels), and NVIDIA fuses a multiply and an
/// add from separate statements. OpenCL C contracts only within one
/// expression, which the lowering does itself by writing `Fma` there
/// (`ModuleBuilder::contracted`), so nothing is lost that C allows.
fn decorate_no_contraction(words: &mut Vec<u32>) {
    let mut results = Vec::new();
    let mut first_annotation = None;
    let mut at = HEADER_WORDS;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 || at + count > words.len() {
            // Malformed: leave the module as it is.
            return;
        }
        let opcode = words[at] & 0xffff;
        if FLOAT_ARITHMETIC.contains(&opcode) && count >= 4 {
            results.push(words[at + 2]);
        }
        // The annotation section comes before the types (OpTypeVoid ..).
        if first_annotation.is_none() && (opcode == OP_DECORATE || (19..=39).contains(&opcode)) {
            first_annotation = Some(at);
        }
        at += count;
    }
    if let Some(insert_at) = first_annotation {
        let decorations = results
            .iter()
            .flat_map(|&id| [(3 << 16) | OP_DECORATE, id, DECORATION_NO_CONTRACTION]);
        words.splice(insert_at..insert_at, decorations);
    }
}

const OP_EXTENSION: u32 = 10;
/// StorageBuffer16BitAccess and UniformAndStorageBuffer16BitAccess.
const CAPABILITIES_16BIT_STORAGE: [u32; 2] = [4433, 4434];

/// Drops the 16-bit storage capabilities (and their extension), which
/// naga declares whenever a module uses `f16`. No 16-bit value ever lives
/// in a buffer or push constant here: `half` and `short` buffers and
/// arguments are read and written as 32-bit words, so `half` needs only
/// `shaderFloat16`, not the device's 16-bit storage features.
fn drop_16bit_storage(words: &mut Vec<u32>) {
    let extension_name = b"SPV_KHR_16bit_storage";
    let mut at = HEADER_WORDS;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 || at + count > words.len() {
            return;
        }
        let opcode = words[at] & 0xffff;
        let drop = match opcode {
            OP_CAPABILITY => count == 2 && CAPABILITIES_16BIT_STORAGE.contains(&words[at + 1]),
            OP_EXTENSION => {
                let bytes: Vec<u8> = words[at + 1..at + count]
                    .iter()
                    .flat_map(|w| w.to_le_bytes())
                    .collect();
                bytes.split(|&b| b == 0).next() == Some(&extension_name[..])
            }
            // Capabilities and extensions come first; stop at the rest.
            _ if opcode > OP_EXTENSION && opcode != OP_CAPABILITY => return,
            _ => false,
        };
        if drop {
            words.drain(at..at + count);
        } else {
            at += count;
        }
    }
}

const OP_ENTRY_POINT: u32 = 15;
const OP_EXECUTION_MODE: u32 = 16;
const OP_CAPABILITY: u32 = 17;
const CAPABILITY_SIGNED_ZERO_INF_NAN_PRESERVE: u32 = 4466;
const EXECUTION_MODE_SIGNED_ZERO_INF_NAN_PRESERVE: u32 = 4461;
const CAPABILITY_ROUNDING_MODE_RTE: u32 = 4467;
const EXECUTION_MODE_ROUNDING_MODE_RTE: u32 = 4462;

/// Declares that the entry point keeps IEEE 754 signed zeros, infinities
/// and NaNs for floats of each of `widths` (float controls, core in
/// SPIR-V 1.4). Without it Vulkan lets a driver assume they never occur,
/// and NVIDIA's compiler then folds NaN tests away: `exp(NaN)` came out as
/// infinity. OpenCL requires IEEE behaviour unless the program is built
/// with `-cl-finite-math-only` or `-cl-fast-relaxed-math`.
fn declare_inf_nan_preserve(words: &mut Vec<u32>, widths: &[u32]) {
    declare_float_control(
        words,
        CAPABILITY_SIGNED_ZERO_INF_NAN_PRESERVE,
        EXECUTION_MODE_SIGNED_ZERO_INF_NAN_PRESERVE,
        widths,
    );
}

/// Declares that the entry point rounds `half` arithmetic and conversions
/// to `half` to nearest even (float controls). Vulkan otherwise lets it
/// round towards zero; OpenCL's default rounding is to nearest even.
fn declare_half_rounding_to_nearest(words: &mut Vec<u32>) {
    declare_float_control(
        words,
        CAPABILITY_ROUNDING_MODE_RTE,
        EXECUTION_MODE_ROUNDING_MODE_RTE,
        &[16],
    );
}

/// Declares `capability` and the execution mode `mode` for floats of each
/// of `widths` on the module's entry point.
fn declare_float_control(words: &mut Vec<u32>, capability: u32, mode: u32, widths: &[u32]) {
    if widths.is_empty() {
        return;
    }
    let (mut first_capability, mut entry_point, mut after_modes) = (None, None, None);
    let mut at = HEADER_WORDS;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 || at + count > words.len() {
            return;
        }
        match words[at] & 0xffff {
            OP_CAPABILITY if first_capability.is_none() => first_capability = Some(at + count),
            OP_ENTRY_POINT if count >= 3 => {
                entry_point = Some(words[at + 2]);
                after_modes = Some(at + count);
            }
            OP_EXECUTION_MODE => after_modes = Some(at + count),
            _ => {}
        }
        at += count;
    }
    let (Some(capability_at), Some(entry_point), Some(modes_at)) =
        (first_capability, entry_point, after_modes)
    else {
        return;
    };
    // The later insertion first, so the earlier position stays valid.
    let modes: Vec<u32> = widths
        .iter()
        .flat_map(|&width| [(4 << 16) | OP_EXECUTION_MODE, entry_point, mode, width])
        .collect();
    words.splice(modes_at..modes_at, modes);
    words.splice(
        capability_at..capability_at,
        [(2 << 16) | OP_CAPABILITY, capability],
    );
}

/// Validates a module we produced; an error is a translator bug.
fn validate(module: &naga::Module, kernel: &str) -> Result<ModuleInfo, SpirvError> {
    // Offsets come from our C layout engine, not WGSL's rules, so
    // STRUCT_LAYOUTS stays off (scalar block layout). A buffer cast to
    // another pointee type has several views at one binding, which Vulkan
    // allows, so BINDINGS (no shared bindings) is off too.
    let flags =
        ValidationFlags::all() - ValidationFlags::STRUCT_LAYOUTS - ValidationFlags::BINDINGS;
    Validator::new(flags, capabilities())
        .validate(module)
        .map_err(|e| {
            SpirvError(format!(
                "internal compiler error: invalid IR for kernel '{kernel}': {}",
                e.emit_to_string("")
            ))
        })
}

/// The constants a kernel's work-group sizes live in (see [`Kernel`]).
#[derive(Clone, Copy, Debug)]
pub struct SizeConstants {
    pub local: [naga::Handle<naga::Constant>; 3],
    pub enqueued: [naga::Handle<naga::Constant>; 3],
}

impl Kernel {
    /// Validates `module` (one compute entry point) and wraps it with its
    /// reflection.
    pub fn new(
        reflection: KernelReflection,
        module: naga::Module,
        size_constants: SizeConstants,
        local_args: Vec<naga::Handle<naga::GlobalVariable>>,
    ) -> Result<Self, SpirvError> {
        let info = validate(&module, &reflection.name)?;
        Ok(Kernel {
            reflection,
            module,
            info,
            local_size_constants: size_constants.local,
            enqueued_size_constants: size_constants.enqueued,
            local_args,
            group_scratch: Vec::new(),
            preserve_inf_nan: [false; 3],
            half_rounds_to_nearest: false,
        })
    }

    /// SPIR-V 1.5 for a launch with work-group size `local_size` and, for
    /// each `__local` pointer argument in order, its array length.
    pub fn spirv(
        &self,
        local_size: [u32; 3],
        local_lengths: &[u32],
    ) -> Result<Vec<u32>, SpirvError> {
        self.spirv_for_group(local_size, local_size, local_lengths)
    }

    /// Bytes of `__local` memory the kernel itself needs for `work_items`
    /// work-items per group: its `__local` variables and the work-group
    /// collectives' scratch (one element per work-item), beyond what its
    /// `__local` pointer arguments are given.
    pub fn static_local_bytes(&self, work_items: u32) -> u64 {
        let mut layouter = naga::proc::Layouter::default();
        if layouter.update(self.module.to_ctx()).is_err() {
            return 0;
        }
        self.module
            .global_variables
            .iter()
            .filter(|(handle, var)| {
                var.space == naga::AddressSpace::WorkGroup && !self.local_args.contains(handle)
            })
            .map(|(handle, var)| {
                let scratch_element = self.group_scratch.contains(&handle).then(|| {
                    match self.module.types[var.ty].inner {
                        naga::TypeInner::Array { stride, .. } => u64::from(stride),
                        _ => 0,
                    }
                });
                match scratch_element {
                    Some(stride) => stride * u64::from(work_items),
                    None => u64::from(layouter[var.ty].size),
                }
            })
            .sum()
    }

    /// [`Kernel::spirv`] for the groups of a non-uniform NDRange whose size
    /// (`local_size`) is smaller than the `enqueued` one.
    pub fn spirv_for_group(
        &self,
        local_size: [u32; 3],
        enqueued: [u32; 3],
        local_lengths: &[u32],
    ) -> Result<Vec<u32>, SpirvError> {
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
        let sizes = self.local_size_constants.iter().zip(local_size);
        let enqueued = self.enqueued_size_constants.iter().zip(enqueued);
        for (constant, size) in sizes.chain(enqueued) {
            let init = module.constants[*constant].init;
            module.global_expressions[init] = naga::Expression::Literal(naga::Literal::U32(size));
        }
        let mut words = Vec::new();
        let mut writer = spv::Writer::new(&options).map_err(|e| SpirvError(e.to_string()))?;
        // `__local` argument arrays get their launch's lengths and the
        // collectives' scratch arrays its work-group size; expression
        // types change with them, so that module is validated anew.
        let resized;
        let info = if self.local_args.is_empty() && self.group_scratch.is_empty() {
            &self.info
        } else {
            let invocations: u32 = local_size.iter().product();
            let lengths = local_lengths.iter().copied();
            let scratch = self.group_scratch.iter().map(|&g| (g, invocations));
            for (global, length) in self.local_args.iter().copied().zip(lengths).chain(scratch) {
                let ty = module.global_variables[global].ty;
                if let naga::TypeInner::Array { base, stride, .. } = module.types[ty].inner {
                    let size = naga::ArraySize::Constant(
                        std::num::NonZeroU32::new(length).unwrap_or(std::num::NonZeroU32::MIN),
                    );
                    let inner = naga::TypeInner::Array { base, size, stride };
                    module.global_variables[global].ty = module
                        .types
                        .insert(naga::Type { name: None, inner }, naga::Span::UNDEFINED);
                }
            }
            resized = validate(&module, &self.reflection.name)?;
            &resized
        };
        writer
            .write(&module, info, None, &None, &mut words)
            .map_err(|e| SpirvError(format!("SPIR-V writer: {e}")))?;
        crate::atomic_order::apply(&mut words);
        drop_16bit_storage(&mut words);
        decorate_aliased(&mut words, &self.aliased_bindings());
        decorate_no_contraction(&mut words);
        let widths: Vec<u32> = [32, 64, 16]
            .into_iter()
            .zip(self.preserve_inf_nan)
            .filter_map(|(width, preserve)| preserve.then_some(width))
            .collect();
        declare_inf_nan_preserve(&mut words, &widths);
        if self.half_rounds_to_nearest {
            declare_half_rounding_to_nearest(&mut words);
        }
        Ok(words)
    }

    /// Bindings whose variables may alias each other: every pointer
    /// argument not marked `restrict`, when there are two or more, and every
    /// buffer seen through several typed views (pointer casts), whose views
    /// overlap whatever `restrict` says.
    fn aliased_bindings(&self) -> Vec<u32> {
        let mut bindings: Vec<u32> = self
            .reflection
            .args
            .iter()
            .filter(|a| !a.is_restrict)
            .filter_map(|a| match a.kind {
                crate::reflect::ArgKind::Buffer { binding } => Some(binding),
                _ => None,
            })
            .collect();
        if bindings.len() < 2 {
            bindings.clear();
        }
        let mut seen = Vec::new();
        for (_, var) in self.module.global_variables.iter() {
            if let Some(b) = &var.binding {
                if seen.contains(&b.binding) && !bindings.contains(&b.binding) {
                    bindings.push(b.binding);
                }
                seen.push(b.binding);
            }
        }
        bindings
    }
}
