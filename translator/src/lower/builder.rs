//! The module builder: the state of lowering one kernel into one naga
//! module, grouped by the part of the lowering that owns it, and the
//! read-only views of the program every part uses.

use crate::analysis::{Analysis, KernelFacts};
use crate::builtins::Builtin;
use crate::caps::DeviceCaps;
use crate::diagnostic::{Diagnostics, Location};
use crate::hir;
use crate::hir::{FunctionId, LocalId};
use crate::lower::expressions::Operand;
use crate::lower::function::FnBuilder;
use crate::lower::interface::{program_globals, BuiltinVars};
use crate::lower::pointers::{cast_memory, views, NarrowElement, Root};
use crate::lower::printf;
use crate::options::BuildOptions;
use crate::spirv::LoweredKernel;
use crate::types::{Pointee, Record, Scalar, Type};
use naga::Handle;
use std::collections::{HashMap, HashSet};

/// Reported already; lowering of this kernel stops.
pub(in crate::lower) struct Failed;

pub(in crate::lower) type LResult<T> = Result<T, Failed>;

pub(in crate::lower) struct ModuleBuilder<'a> {
    pub(in crate::lower) program: &'a hir::Program,
    /// What the analysis found of the program's pointers (see
    /// [`crate::analysis`]).
    pub(in crate::lower) analysis: &'a Analysis,
    /// The facts of the kernel being lowered.
    pub(in crate::lower) kernel_facts: Option<&'a KernelFacts>,
    /// While above zero, errors are not reported: a pointer variable's
    /// roots are resolved ahead of its uses, which report what fails where
    /// it is written (see `roots.rs`).
    pub(in crate::lower) muted: u32,
    pub(in crate::lower) caps: &'a DeviceCaps,
    pub(in crate::lower) diags: &'a mut Diagnostics,
    pub(in crate::lower) module: naga::Module,
    pub(in crate::lower) specialisations:
        HashMap<(FunctionId, Vec<Option<Root>>), Handle<naga::Function>>,
    pub(in crate::lower) builtins: Option<BuiltinVars>,
    pub(in crate::lower) push_constants: Option<Handle<naga::GlobalVariable>>,
    /// Functions being lowered, to reject recursion (OpenCL C 6.9.m).
    pub(in crate::lower) in_progress: Vec<FunctionId>,
    /// Buffers of `char`/`short` elements or vectors, seen through a `u32`
    /// word view (naga has no 8-bit types), with their C element type.
    pub(in crate::lower) narrow_buffers: HashMap<Handle<naga::GlobalVariable>, NarrowElement>,
    /// Roots whose elements are records held as byte images (see
    /// `records.rs`), with the element type; a private root (and a
    /// helper's argument root, the caller's private image) is keyed by its
    /// function too, as local variable handles are per function.
    pub(in crate::lower) image_roots: HashMap<(Option<FunctionId>, Root), Type>,
    /// Every buffer view (see `views.rs`).
    pub(in crate::lower) views: Vec<views::BufferView>,
    /// Program-scope `__constant` variables used by this kernel.
    pub(in crate::lower) program_globals: HashMap<hir::GlobalId, Handle<naga::GlobalVariable>>,
    /// Where the program-scope `__global` variables lie (see
    /// `program_globals.rs`).
    pub(in crate::lower) globals_block: &'a program_globals::GlobalsBlock,
    /// The binding of that block and its first view, made on the kernel's
    /// first use of one of them.
    pub(in crate::lower) globals_view: Option<(u32, Handle<naga::GlobalVariable>)>,
    /// String literals used as arrays, by their bytes (see `init.rs`).
    pub(in crate::lower) string_globals: HashMap<Vec<u8>, Handle<naga::GlobalVariable>>,
    /// The workgroup arrays of `__local` pointer arguments, in order.
    pub(in crate::lower) local_args: Vec<Handle<naga::GlobalVariable>>,
    /// The work-group collectives' scratch arrays, by element type (see
    /// `collectives.rs`), sized per launch to the work-group.
    pub(in crate::lower) group_scratch: HashMap<Handle<naga::Type>, Handle<naga::GlobalVariable>>,
    /// Helper functions made once per module (see `divide64.rs`).
    pub(in crate::lower) helpers: HashMap<&'static str, Handle<naga::Function>>,
    /// The next free storage-buffer binding: past the arguments' (and the
    /// launch block's), then taken by the printf buffer and the program
    /// globals' block as the kernel first uses them.
    pub(in crate::lower) next_binding: u32,
    /// Made by the kernel's first `printf`.
    pub(in crate::lower) printf: Option<printf::PrintfBuffer>,
    /// `-cl-fast-relaxed-math` / `-cl-unsafe-math-optimizations`: the math
    /// built-ins may take the hardware paths (see `math/relaxed.rs`).
    pub(in crate::lower) relaxed_math: bool,
    /// The math library's functions made so far, by built-in, element
    /// type and width.
    pub(in crate::lower) math_functions: HashMap<(Builtin, Scalar, u8), Handle<naga::Function>>,
    /// Sets of roots that pointers chosen at run time range over.
    pub(in crate::lower) root_sets: Vec<Vec<Root>>,
    /// Objects whose address was cast to another pointee type.
    pub(in crate::lower) cast_bases: Vec<cast_memory::CastBase>,
    /// `__local` variables held as `u32` words because the kernel casts
    /// their address to a narrower pointee (see
    /// [`KernelFacts::word_locals`]).
    pub(in crate::lower) word_locals: HashSet<Handle<naga::GlobalVariable>>,
    /// The roots (in the callee's terms) of the pointers helpers return.
    pub(in crate::lower) returned_roots: HashMap<Handle<naga::Function>, Vec<Root>>,
    /// The workgroup globals of `__local` variables declared in kernels.
    pub(in crate::lower) workgroup_locals:
        HashMap<(FunctionId, LocalId), Handle<naga::GlobalVariable>>,
    /// The workgroup globals of `__local` `float`/`double` objects held as
    /// integer words for the atomics on them (see `float_words.rs`), with
    /// their C `float`/`double`.
    pub(in crate::lower) float_words: HashMap<Handle<naga::GlobalVariable>, Scalar>,
}

impl<'a> ModuleBuilder<'a> {
    pub(in crate::lower) fn new(
        program: &'a hir::Program,
        analysis: &'a Analysis,
        options: &BuildOptions,
        caps: &'a DeviceCaps,
        diags: &'a mut Diagnostics,
        globals_block: &'a program_globals::GlobalsBlock,
    ) -> Self {
        ModuleBuilder {
            program,
            analysis,
            kernel_facts: None,
            muted: 0,
            caps,
            diags,
            module: naga::Module::default(),
            specialisations: HashMap::new(),
            narrow_buffers: HashMap::new(),
            image_roots: HashMap::new(),
            program_globals: HashMap::new(),
            string_globals: HashMap::new(),
            globals_block,
            globals_view: None,
            views: Vec::new(),
            local_args: Vec::new(),
            group_scratch: HashMap::new(),
            helpers: HashMap::new(),
            next_binding: 0,
            printf: None,
            builtins: None,
            push_constants: None,
            in_progress: Vec::new(),
            relaxed_math: options.fast_relaxed_math || options.unsafe_math_optimizations,
            math_functions: HashMap::new(),
            root_sets: Vec::new(),
            cast_bases: Vec::new(),
            workgroup_locals: HashMap::new(),
            returned_roots: HashMap::new(),
            word_locals: HashSet::new(),
            float_words: HashMap::new(),
        }
    }

    /// Kernel `id` as a module, before validation and writing; `None` when
    /// it has errors (reported).
    pub(in crate::lower) fn lowered_kernel(
        mut self,
        id: FunctionId,
        info: &hir::KernelInfo,
        options: &BuildOptions,
    ) -> Option<LoweredKernel> {
        let (mut reflection, module) = self.kernel(id, info)?;
        reflection.non_uniform_work_groups = options.effective_cl_std()
            >= crate::options::ClStd::Cl2_0
            && !options.uniform_work_group_size;
        let vars = self.builtins.as_ref()?;
        let sizes = crate::spirv::SizeConstants {
            local: vars.local_size,
            enqueued: vars.enqueued_size,
        };
        // Finite math lets the driver assume no NaN or infinity.
        let ieee = !(options.finite_math_only || options.fast_relaxed_math);
        let caps = self.caps;
        Some(LoweredKernel {
            reflection,
            module,
            sizes,
            local_args: self.local_args,
            group_scratch: self.group_scratch.into_values().collect(),
            preserve_inf_nan: [
                ieee && caps.preserve_inf_nan[0],
                ieee && caps.preserve_inf_nan[1] && caps.float64,
                ieee && caps.preserve_inf_nan[2] && caps.float16,
            ],
            half_rounds_to_nearest: caps.float16 && caps.half_rte,
        })
    }

    pub(in crate::lower) fn error(
        &mut self,
        location: impl Into<Location>,
        message: impl Into<String>,
    ) -> Failed {
        if self.muted == 0 {
            self.diags.error(location, message);
        }
        Failed
    }

    /// What a pointer type points to.
    pub(in crate::lower) fn pointee(&self, ty: &Type) -> Option<&'a Pointee> {
        self.program.types.pointee(*ty)
    }

    /// What pointer operand `op` points to.
    pub(in crate::lower) fn pointee_of(&self, fb: &FnBuilder, op: Operand) -> Option<Pointee> {
        fb.pointee(op, &self.program.types)
    }

    /// The element type of an array type.
    pub(in crate::lower) fn element_of(&self, ty: &Type) -> Option<Type> {
        self.program.types.array_element(*ty)
    }

    pub(in crate::lower) fn record(&self, r: Handle<Record>) -> &'a Record {
        &self.program.types[r]
    }

    pub(in crate::lower) fn type_size(&self, ty: &Type) -> Option<u64> {
        self.program.types.size(*ty)
    }

    /// The spelling of a name of the program.
    pub(in crate::lower) fn name(&self, symbol: hir::Symbol) -> &'a str {
        &self.program.names[symbol]
    }

    /// `ty` as clang spells it in diagnostics.
    pub(in crate::lower) fn display(&self, ty: &Type) -> String {
        self.program.display(*ty)
    }
}
