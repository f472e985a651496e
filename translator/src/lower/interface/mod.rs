//! The kernel interface: what a kernel's module shares with the runtime
//! (argument bindings, the push-constant header, the work-item built-ins,
//! the program globals' block, the printf buffer's binding).

pub(super) mod images;
mod kernel;
mod loop_guard;
pub(super) mod program_globals;
mod sub_groups;
mod workitem;

use crate::diagnostic::Location;
use crate::lexer::FxHashMap;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::types::Type;
use naga::{Handle, Span};

/// The interface state: what the kernel's module has bound so far.
#[derive(Default)]
pub(super) struct Interface {
    /// The work-item built-ins, made as the kernel starts.
    builtins: Option<BuiltinVars>,
    /// The push-constant block: the launch header, then by-value arguments.
    push_constants: Option<Handle<naga::GlobalVariable>>,
    /// The workgroup arrays of `__local` pointer arguments, in order.
    local_args: Vec<Handle<naga::GlobalVariable>>,
    /// The next free storage-buffer binding: past the arguments' (and the
    /// launch block's), then taken by the printf buffer and the program
    /// globals' block as the kernel first uses them.
    next_binding: u32,
    /// The binding of the program globals' block and its first view, made
    /// on the kernel's first use of one of them.
    globals_view: Option<(u32, Handle<naga::GlobalVariable>)>,
    /// The launch block's members that flag buffer arguments set to a NULL
    /// `cl_mem` (bit `b % 32` of member `first + b / 32` for binding `b`),
    /// and how many buffer arguments there are.
    null_flags: Option<(u32, u32)>,
    /// The launch block's members that name each buffer argument's
    /// allocation and origin (members `first + 2 b` and `first + 2 b + 1`
    /// for binding `b`), and how many buffer arguments there are; only
    /// where the kernel compares or subtracts buffer pointers.
    buffer_aliases: Option<(u32, u32)>,
    /// The work-group collectives' scratch arrays, by element type, which
    /// the runtime sizes per launch to the work-group.
    group_scratch: FxHashMap<Handle<naga::Type>, Handle<naga::GlobalVariable>>,
    /// The loop guard's exit marks (see `loop_guard`), a workgroup array
    /// sized per launch to the work-group as the collectives' scratch is.
    loop_marks: Option<Handle<naga::GlobalVariable>>,
    /// The image arguments, their bindings and info blocks.
    pub(super) images: images::KernelImages,
    /// The init literal of each `sampler_t` argument's constant, in
    /// argument order (see `crate::specialization`).
    sampler_literals: Vec<Handle<naga::Expression>>,
    /// The sub-group built-ins the kernel reads (see `sub_groups`).
    sub_group_inputs: Vec<(naga::BuiltIn, Handle<naga::GlobalVariable>)>,
}

impl Interface {
    /// The launch block (push constants or its storage buffer).
    pub(super) fn launch_block(&self) -> Handle<naga::GlobalVariable> {
        self.push_constants.expect("the launch block")
    }

    /// The work-group size constants (see [`BuiltinVars::local_size`]).
    pub(super) fn local_size(&self) -> [Handle<naga::Constant>; 3] {
        self.builtins.as_ref().expect("kernel built-ins").local_size
    }

    /// The enqueued work-group size's constants (see [`BuiltinVars`]).
    pub(super) fn enqueued_size(&self) -> [Handle<naga::Constant>; 3] {
        self.builtins
            .as_ref()
            .expect("kernel built-ins")
            .enqueued_size
    }

    /// A storage-buffer binding past every one taken so far.
    pub(super) fn take_binding(&mut self) -> u32 {
        self.next_binding += 1;
        self.next_binding - 1
    }

    /// For buffer argument binding `binding`, where the kernel has them:
    /// the launch block and the members holding the argument's allocation
    /// (the first binding set to the same buffer or a region of it) and
    /// its byte origin in that buffer.
    pub(super) fn buffer_alias(
        &self,
        binding: u32,
    ) -> Option<(Handle<naga::GlobalVariable>, u32, u32)> {
        let (first, buffers) = self.buffer_aliases?;
        let launch = self.push_constants?;
        let member = first + 2 * binding;
        (binding < buffers).then_some((launch, member, member + 1))
    }

    /// For buffer argument binding `binding`: the launch block, the member
    /// holding its null flag and the flag's bit; `None` for other bindings.
    pub(super) fn null_flag(
        &self,
        binding: u32,
    ) -> Option<(Handle<naga::GlobalVariable>, u32, u32)> {
        let (first, buffers) = self.null_flags?;
        let launch = self.push_constants?;
        (binding < buffers).then_some((launch, first + binding / 32, binding % 32))
    }

    /// The first view of the program globals' block, once the kernel uses
    /// it.
    pub(super) fn globals_block_view(&self) -> Option<Handle<naga::GlobalVariable>> {
        self.globals_view.map(|(_, first)| first)
    }
}

/// The work-item built-ins: the SPIR-V ids, copied to private globals at
/// entry so helpers can read them, and the work-group size constants.
struct BuiltinVars {
    global_id: Handle<naga::GlobalVariable>,
    local_id: Handle<naga::GlobalVariable>,
    group_id: Handle<naga::GlobalVariable>,
    /// The work-group size, as constants that `Kernel::spirv` sets per
    /// launch: launches may be split into several dispatches (more groups
    /// than one dispatch allows), so `NumWorkGroups` is not the NDRange's.
    local_size: [Handle<naga::Constant>; 3],
    /// The enqueued work-group size, likewise: larger than `local_size` in
    /// the last groups of a non-uniform NDRange.
    enqueued_size: [Handle<naga::Constant>; 3],
}

impl ModuleBuilder<'_> {
    /// The kernel's scratch array for collectives on `ty`, made on first
    /// use; `Kernel::spirv` gives it the launch's work-group size.
    pub(super) fn group_scratch(
        &mut self,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::GlobalVariable>> {
        let element = self.value_type(ty, location)?;
        if let Some(&g) = self.interface.group_scratch.get(&element) {
            return Ok(g);
        }
        let stride = self.storage_stride(ty, location)?;
        let array = self.add_type(naga::TypeInner::Array {
            base: element,
            size: naga::ArraySize::Constant(std::num::NonZeroU32::MIN),
            stride,
        });
        let global = self.module.global_variables.append(
            naga::GlobalVariable {
                name: Some(format!(
                    "collective_scratch_{}",
                    self.interface.group_scratch.len()
                )),
                space: naga::AddressSpace::WorkGroup,
                binding: None,
                ty: array,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        );
        self.interface.group_scratch.insert(element, global);
        Ok(global)
    }
}
