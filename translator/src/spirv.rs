//! The last stage: a validated naga module per kernel, written as SPIR-V
//! once, with placeholders that each launch configuration patches (see
//! `Template`).

use crate::caps::DenormMode;
use crate::reflect::KernelReflection;
use crate::specialization::{Specialization, SpecializationLiterals};
use naga::back::spv;
use naga::valid::{Capabilities, ModuleInfo, ValidationFlags, Validator};

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
        | Capabilities::SUBGROUP
        | Capabilities::SUBGROUP_BARRIER
}

/// SPIR-V opcodes and decorations the patch below needs.
const OP_DECORATE: u32 = 71;
const DECORATION_BINDING: u32 = 33;
const DECORATION_DESCRIPTOR_SET: u32 = 34;
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
    // Only variables of set 0, the buffers': images have bindings of their
    // own numbers in set 1.
    let mut other_sets = std::collections::HashSet::new();
    let mut at = HEADER_WORDS;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 || at + count > words.len() {
            break;
        }
        if words[at] & 0xffff == OP_DECORATE
            && count == 4
            && words[at + 2] == DECORATION_DESCRIPTOR_SET
            && words[at + 3] != 0
        {
            other_sets.insert(words[at + 1]);
        }
        at += count;
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
            && bindings.contains(&instruction[3])
            && !other_sets.contains(&instruction[1]);
        if is_binding {
            out.extend_from_slice(&[(3 << 16) | OP_DECORATE, instruction[1], DECORATION_ALIASED]);
        }
        at += count;
    }
    *words = out;
}

const DECORATION_NO_CONTRACTION: u32 = 42;
/// OpFNegate, OpFAdd, OpFSub, OpFMul, OpFDiv, OpFRem, OpFMod and
/// OpVectorTimesScalar (naga's vector-by-scalar multiply).
const FLOAT_ARITHMETIC: [u32; 8] = [127, 129, 131, 133, 136, 140, 141, 142];

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
const OP_EXT_INST_IMPORT: u32 = 11;
const OP_MEMORY_MODEL: u32 = 14;
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

const CAPABILITY_DENORM_PRESERVE: u32 = 4464;
const CAPABILITY_DENORM_FLUSH_TO_ZERO: u32 = 4465;
const EXECUTION_MODE_DENORM_PRESERVE: u32 = 4459;
const EXECUTION_MODE_DENORM_FLUSH_TO_ZERO: u32 = 4460;

/// The float controls (core in SPIR-V 1.4) a kernel declares, each as
/// (capability, execution mode, float width).
///
/// `SignedZeroInfNanPreserve` for the widths in `inf_nan_widths`: without
/// it Vulkan lets a driver assume signed zeros, infinities and NaNs never
/// occur, and NVIDIA's compiler then folds NaN tests away: `exp(NaN)`
/// came out as infinity. OpenCL requires IEEE behaviour unless the program
/// is built with `-cl-finite-math-only` or `-cl-fast-relaxed-math`.
///
/// With `half_rounds_to_nearest`, `RoundingModeRTE` for `half`: Vulkan
/// otherwise lets its arithmetic and conversions to it round towards zero,
/// and OpenCL's default rounding is to nearest even.
///
/// `DenormPreserve` or `DenormFlushToZero` per width as `denormals` says
/// (`caps::Denormals::modes`): without one a driver flushes or keeps
/// denormals as it likes, so `CL_FP_DENORM` could not be promised.
fn float_controls(
    inf_nan_widths: &[u32],
    half_rounds_to_nearest: bool,
    denormals: [Option<DenormMode>; 3],
) -> Vec<(u32, u32, u32)> {
    let mut controls: Vec<(u32, u32, u32)> = inf_nan_widths
        .iter()
        .map(|&width| {
            (
                CAPABILITY_SIGNED_ZERO_INF_NAN_PRESERVE,
                EXECUTION_MODE_SIGNED_ZERO_INF_NAN_PRESERVE,
                width,
            )
        })
        .collect();
    if half_rounds_to_nearest {
        controls.push((
            CAPABILITY_ROUNDING_MODE_RTE,
            EXECUTION_MODE_ROUNDING_MODE_RTE,
            16,
        ));
    }
    for (width, mode) in [32, 64, 16].into_iter().zip(denormals) {
        match mode {
            Some(DenormMode::Preserve) => controls.push((
                CAPABILITY_DENORM_PRESERVE,
                EXECUTION_MODE_DENORM_PRESERVE,
                width,
            )),
            Some(DenormMode::FlushToZero) => controls.push((
                CAPABILITY_DENORM_FLUSH_TO_ZERO,
                EXECUTION_MODE_DENORM_FLUSH_TO_ZERO,
                width,
            )),
            None => {}
        }
    }
    controls
}

/// Declares `controls` (see [`float_controls`]) for the entry point.
fn declare_float_controls(words: &mut Vec<u32>, controls: &[(u32, u32, u32)]) {
    if controls.is_empty() {
        return;
    }
    // Capabilities, entry points and execution modes open the module; the
    // scan stops at the first instruction of the sections after them.
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
            OP_CAPABILITY | OP_EXTENSION | OP_EXT_INST_IMPORT | OP_MEMORY_MODEL => {}
            _ => break,
        }
        at += count;
    }
    let (Some(capability_at), Some(entry_point), Some(modes_at)) =
        (first_capability, entry_point, after_modes)
    else {
        return;
    };
    // The later insertion first, so the earlier position stays valid.
    let modes = controls
        .iter()
        .flat_map(|&(_, mode, width)| [(4 << 16) | OP_EXECUTION_MODE, entry_point, mode, width]);
    words.splice(modes_at..modes_at, modes);
    let mut capabilities: Vec<u32> = controls.iter().map(|c| c.0).collect();
    capabilities.sort_unstable();
    capabilities.dedup();
    let declarations = capabilities
        .into_iter()
        .flat_map(|capability| [(2 << 16) | OP_CAPABILITY, capability]);
    words.splice(capability_at..capability_at, declarations);
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
        .subgroup_stages(naga::valid::ShaderStages::COMPUTE)
        .subgroup_operations(naga::valid::SubgroupOperationSet::all())
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

/// A lowered kernel before validation and SPIR-V writing.
#[derive(Debug)]
pub struct LoweredKernel {
    pub reflection: KernelReflection,
    pub module: naga::Module,
    pub sizes: SizeConstants,
    /// The image formats' and samplers' literals (see
    /// [`crate::specialization`]).
    pub specialization: SpecializationLiterals,
    /// The workgroup arrays of `__local` pointer arguments, in argument
    /// order: their lengths are set per launch.
    pub local_args: Vec<naga::Handle<naga::GlobalVariable>>,
    /// The work-group collectives' scratch arrays, one element per
    /// work-item: their lengths are the launch's work-group size.
    pub group_scratch: Vec<naga::Handle<naga::GlobalVariable>>,
    /// Declare `SignedZeroInfNanPreserve` for 32-, 64- and 16-bit floats,
    /// and that `half` operations round to nearest even (see
    /// `declare_float_controls`).
    pub preserve_inf_nan: [bool; 3],
    pub half_rounds_to_nearest: bool,
    /// The denormal execution modes for 32-, 64- and 16-bit floats.
    pub denormals: [Option<DenormMode>; 3],
}

/// A compiled kernel: reflection, its module (for the queries below), and
/// its SPIR-V written once, with a placeholder for each value a launch
/// fixes (`Template`).
#[derive(Debug)]
pub struct Kernel {
    pub reflection: KernelReflection,
    module: naga::Module,
    local_args: Vec<naga::Handle<naga::GlobalVariable>>,
    group_scratch: Vec<naga::Handle<naga::GlobalVariable>>,
    template: Template,
}

/// SPIR-V with placeholder values. naga takes the work-group size and
/// array lengths as literals, so a launch configuration would otherwise
/// mean writing the module anew (hundreds of thousands of instructions
/// for a small kernel); copying the words and patching a few costs almost
/// nothing.
#[derive(Debug)]
struct Template {
    words: Vec<u32>,
    /// The first of `OpExecutionMode %main LocalSize x y z`'s size words.
    local_size_at: usize,
    /// The value word of each placeholder `OpConstant`, and what it holds.
    holes: Vec<(usize, Hole)>,
}

/// What a placeholder constant stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Hole {
    LocalSize(usize),
    EnqueuedSize(usize),
    /// The length of the array of `__local` pointer argument n.
    LocalArgLength(usize),
    /// The number of work-items in a group (collectives' scratch arrays).
    Invocations,
    /// Format word `word` (0..4: `ImageInfo` words 4..8) of the image at
    /// binding `binding`.
    ImageFormat {
        binding: usize,
        word: usize,
    },
    /// The word of the `n`-th `sampler_t` argument.
    Sampler(usize),
}

const OP_TYPE_INT: u32 = 21;
const OP_CONSTANT: u32 = 43;
const EXECUTION_MODE_LOCAL_SIZE: u32 = 17;
/// Placeholders are distinct values from here up that the module does not
/// use otherwise; any array element under 64 KiB times one still fits the
/// 32-bit sizes naga's layouter computes.
const FIRST_PLACEHOLDER: u32 = 0x1_0001;
const LARGEST_PLACEHOLDER_ELEMENT: u32 = 0xffff;

/// Every `u32` value the module states: literals and array lengths. naga
/// writes one `OpConstant` per distinct value, so a placeholder must differ
/// from all of them to own its constant.
fn stated_u32_values(module: &naga::Module) -> std::collections::HashSet<u32> {
    let functions = module
        .functions
        .iter()
        .map(|(_, f)| f)
        .chain(module.entry_points.iter().map(|ep| &ep.function));
    let expressions = functions
        .flat_map(|f| f.expressions.iter())
        .chain(module.global_expressions.iter());
    let literals = expressions.filter_map(|(_, e)| match e {
        naga::Expression::Literal(naga::Literal::U32(v)) => Some(*v),
        _ => None,
    });
    let lengths = module.types.iter().filter_map(|(_, t)| match t.inner {
        naga::TypeInner::Array {
            size: naga::ArraySize::Constant(n),
            ..
        } => Some(n.get()),
        _ => None,
    });
    literals.chain(lengths).collect()
}

impl LoweredKernel {
    /// Gives every launch-time value its own placeholder constant, then
    /// validates the module and writes its template.
    pub(crate) fn finish(mut self) -> Result<Kernel, SpirvError> {
        let name = self.reflection.name.clone();
        let stated = stated_u32_values(&self.module);
        let mut unused = (FIRST_PLACEHOLDER..).filter(|v| !stated.contains(v));
        let mut placeholders: Vec<(u32, Hole)> = Vec::new();
        let sizes = self.sizes.local.iter().zip([0, 1, 2].map(Hole::LocalSize));
        let enqueued = self
            .sizes
            .enqueued
            .iter()
            .zip([0, 1, 2].map(Hole::EnqueuedSize));
        let size_literals = sizes
            .chain(enqueued)
            .map(|(&constant, hole)| (self.module.constants[constant].init, hole));
        let formats = self.specialization.image_formats.iter().enumerate();
        let format_literals = formats.flat_map(|(binding, words)| {
            (0..4).map(move |word| (words[word], Hole::ImageFormat { binding, word }))
        });
        let samplers = self.specialization.samplers.iter().enumerate();
        let sampler_literals = samplers.map(|(n, &literal)| (literal, Hole::Sampler(n)));
        let literals: Vec<_> = size_literals
            .chain(format_literals)
            .chain(sampler_literals)
            .collect();
        for (literal, hole) in literals {
            let value = unused.next().expect("u32 values left");
            self.module.global_expressions[literal] =
                naga::Expression::Literal(naga::Literal::U32(value));
            placeholders.push((value, hole));
        }
        let arrays = self.local_args.iter().enumerate();
        let arrays = arrays
            .map(|(n, &g)| (g, Hole::LocalArgLength(n)))
            .chain(self.group_scratch.iter().map(|&g| (g, Hole::Invocations)));
        for (global, hole) in arrays {
            let ty = self.module.global_variables[global].ty;
            let naga::TypeInner::Array { base, stride, .. } = self.module.types[ty].inner else {
                continue;
            };
            if stride > LARGEST_PLACEHOLDER_ELEMENT {
                return Err(SpirvError(format!(
                    "kernel '{name}': a __local array element of {stride} bytes is larger than any device's local memory"
                )));
            }
            let value = unused.next().expect("u32 values left");
            let length = std::num::NonZeroU32::new(value).expect("placeholders are not 0");
            let inner = naga::TypeInner::Array {
                base,
                size: naga::ArraySize::Constant(length),
                stride,
            };
            let placeholder_type = naga::Type { name: None, inner };
            self.module.global_variables[global].ty = self
                .module
                .types
                .insert(placeholder_type, naga::Span::UNDEFINED);
            placeholders.push((value, hole));
        }
        let info = validate(&self.module, &name)?;
        let template = self.write_template(&info, &placeholders)?;
        // The kernel keeps the module for its types and variables
        // (`static_local_bytes`). The functions' bodies, nested as deep as
        // the source, are dropped here, on the stack the lowering job made
        // room on, rather than wherever the runtime drops the kernel.
        self.module.functions.clear();
        self.module.entry_points.clear();
        Ok(Kernel {
            reflection: self.reflection,
            module: self.module,
            local_args: self.local_args,
            group_scratch: self.group_scratch,
            template,
        })
    }

    /// Writes the module, applies the patches naga's writer cannot express,
    /// and finds the placeholders in the result.
    fn write_template(
        &self,
        info: &ModuleInfo,
        placeholders: &[(u32, Hole)],
    ) -> Result<Template, SpirvError> {
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
        let mut words = Vec::new();
        spv::Writer::new(&options)
            .and_then(|mut writer| writer.write(&self.module, info, None, &None, &mut words))
            .map_err(|e| SpirvError(format!("SPIR-V writer: {e}")))?;
        crate::atomic_order::apply(&mut words);
        crate::spirv_images::patch(&mut words, &self.reflection.images, &self.reflection.name)?;
        drop_16bit_storage(&mut words);
        decorate_aliased(
            &mut words,
            &aliased_bindings(&self.reflection, &self.module),
        );
        decorate_no_contraction(&mut words);
        let widths: Vec<u32> = [32, 64, 16]
            .into_iter()
            .zip(self.preserve_inf_nan)
            .filter_map(|(width, preserve)| preserve.then_some(width))
            .collect();
        let controls = float_controls(&widths, self.half_rounds_to_nearest, self.denormals);
        declare_float_controls(&mut words, &controls);
        find_holes(words, placeholders).ok_or_else(|| {
            SpirvError(format!(
                "internal compiler error: kernel '{}': no work-group size in its SPIR-V",
                self.reflection.name
            ))
        })
    }
}

/// Locates the `LocalSize` execution mode and the placeholder constants
/// (32-bit unsigned `OpConstant`s holding a placeholder value).
fn find_holes(words: Vec<u32>, placeholders: &[(u32, Hole)]) -> Option<Template> {
    let (mut uint_type, mut local_size_at, mut holes) = (None, None, Vec::new());
    let mut at = HEADER_WORDS;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 || at + count > words.len() {
            return None;
        }
        let instruction = &words[at..at + count];
        match instruction[0] & 0xffff {
            OP_EXECUTION_MODE if count == 6 && instruction[2] == EXECUTION_MODE_LOCAL_SIZE => {
                local_size_at = Some(at + 3);
            }
            OP_TYPE_INT if count == 4 && instruction[2] == 32 && instruction[3] == 0 => {
                uint_type = Some(instruction[1]);
            }
            OP_CONSTANT if count == 4 && Some(instruction[1]) == uint_type => {
                if let Some(&(_, hole)) = placeholders.iter().find(|p| p.0 == instruction[3]) {
                    holes.push((at + 3, hole));
                }
            }
            _ => {}
        }
        at += count;
    }
    Some(Template {
        words,
        local_size_at: local_size_at?,
        holes,
    })
}

impl Kernel {
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
        self.patched(local_size, enqueued, local_lengths, None)
    }

    /// [`Kernel::spirv_for_group`] specialised on the formats of the images
    /// and the samplers a launch binds (see [`crate::specialization`]). A
    /// value missing from `specialization` is an error: a launch must
    /// never run a module made for another format.
    pub fn spirv_specialized(
        &self,
        local_size: [u32; 3],
        enqueued: [u32; 3],
        local_lengths: &[u32],
        specialization: &Specialization,
    ) -> Result<Vec<u32>, SpirvError> {
        self.patched(local_size, enqueued, local_lengths, Some(specialization))
    }

    /// The template with every placeholder set. Without a specialization
    /// (tools, queries of the module's variables), images read as
    /// `CL_RGBA`/`CL_FLOAT` and samplers as the unspecified one.
    fn patched(
        &self,
        local_size: [u32; 3],
        enqueued: [u32; 3],
        local_lengths: &[u32],
        specialization: Option<&Specialization>,
    ) -> Result<Vec<u32>, SpirvError> {
        let template = &self.template;
        let mut words = template.words.clone();
        let at = template.local_size_at;
        words[at..at + 3].copy_from_slice(&local_size);
        let invocations: u32 = local_size.iter().product();
        let missing = |what: String| {
            SpirvError(format!(
                "kernel '{}': the launch gives no {what}",
                self.reflection.name
            ))
        };
        for &(at, hole) in &template.holes {
            words[at] =
                match hole {
                    Hole::LocalSize(d) => local_size[d],
                    Hole::EnqueuedSize(d) => enqueued[d],
                    // A zero-length array is not valid SPIR-V; a launch
                    // without the argument's memory never reads it.
                    Hole::LocalArgLength(n) => local_lengths.get(n).copied().unwrap_or(1).max(1),
                    Hole::Invocations => invocations.max(1),
                    Hole::ImageFormat { binding, word } => match specialization {
                        Some(s) => s.image_formats.get(binding).ok_or_else(|| {
                            missing(format!("format for image binding {binding}"))
                        })?[word],
                        None => crate::specialization::unspecified_format()[word],
                    },
                    Hole::Sampler(n) => match specialization {
                        Some(s) => *s
                            .samplers
                            .get(n)
                            .ok_or_else(|| missing(format!("sampler for sampler argument {n}")))?,
                        None => crate::specialization::UNSPECIFIED_SAMPLER,
                    },
                };
        }
        Ok(words)
    }
}

/// Bindings whose variables may alias each other: every pointer
/// argument not marked `restrict`, when there are two or more, and every
/// buffer seen through several typed views (pointer casts), whose views
/// overlap whatever `restrict` says.
fn aliased_bindings(reflection: &KernelReflection, module: &naga::Module) -> Vec<u32> {
    let mut bindings: Vec<u32> = reflection
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
    for (_, var) in module.global_variables.iter() {
        // Image arguments (set 1) are not buffers.
        if let Some(b) = var.binding.as_ref().filter(|b| b.group == 0) {
            if seen.contains(&b.binding) && !bindings.contains(&b.binding) {
                bindings.push(b.binding);
            }
            seen.push(b.binding);
        }
    }
    bindings
}

#[cfg(test)]
mod tests {
    use crate::DeviceCaps;

    /// The 32-bit unsigned constants a module declares.
    fn uint_constants(words: &[u32]) -> Vec<u32> {
        let (mut uint, mut values, mut at) = (None, Vec::new(), super::HEADER_WORDS);
        while at < words.len() {
            let count = (words[at] >> 16) as usize;
            let instruction = &words[at..at + count];
            match instruction[0] & 0xffff {
                super::OP_TYPE_INT if instruction[2] == 32 && instruction[3] == 0 => {
                    uint = Some(instruction[1])
                }
                super::OP_CONSTANT if Some(instruction[1]) == uint => values.push(instruction[3]),
                _ => {}
            }
            at += count;
        }
        values
    }

    /// The `LocalSize` execution mode's sizes.
    fn local_size(words: &[u32]) -> [u32; 3] {
        let mut at = super::HEADER_WORDS;
        loop {
            let count = (words[at] >> 16) as usize;
            if words[at] & 0xffff == super::OP_EXECUTION_MODE && words[at + 2] == 17 {
                return [words[at + 3], words[at + 4], words[at + 5]];
            }
            at += count;
        }
    }

    /// Launch values reach the SPIR-V through placeholders, and a program
    /// literal equal to the first placeholder keeps its own value.
    #[test]
    fn launch_values_patch_placeholders() {
        let source = "kernel void k(global uint* out, local uint* scratch) {
            scratch[0] = (uint)get_local_size(0) * 65537u;
            out[get_global_id(0)] = scratch[0] + get_enqueued_local_size(1);
        }";
        let program = crate::build(source, "-cl-std=CL2.0", &DeviceCaps::full()).expect("build");
        let kernel = &program.kernels[0];
        let first = kernel
            .spirv_for_group([7, 3, 1], [7, 5, 1], &[11])
            .expect("spirv");
        assert_eq!(local_size(&first), [7, 3, 1]);
        let constants = uint_constants(&first);
        for value in [7, 3, 5, 11, 65537] {
            assert!(constants.contains(&value), "{value} in {constants:?}");
        }
        let second = kernel.spirv([9, 2, 1], &[13]).expect("spirv");
        assert_eq!(local_size(&second), [9, 2, 1]);
        let constants = uint_constants(&second);
        for value in [9, 2, 13, 65537] {
            assert!(constants.contains(&value), "{value} in {constants:?}");
        }
        assert_eq!(first.len(), second.len());
    }
}
