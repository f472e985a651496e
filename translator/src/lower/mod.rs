//! Lowering: the checked program to one naga module per kernel.
//!
//! OpenCL pointers do not exist in naga, so every pointer value is resolved
//! here to a root (a buffer argument, a private array or variable) plus an
//! element index, or to one of several roots chosen at run time (see
//! `pointers/`). Helper functions become naga functions specialised per
//! combination of pointer-argument roots (`functions.rs`). Work-item ids
//! come from the SPIR-V built-ins, copied to private globals at entry so
//! helpers can read them; sizes and offsets come from the push-constant
//! header (`interface/`).
//!
//! The lowering reads the facts the analysis computed before it
//! ([`crate::analysis`]) and never revisits what it has emitted. Its state
//! is split by concern, each part owned by the folder that changes it (see
//! `builder.rs`).

mod atomics;
mod builder;
mod constants;
mod emit;
mod expressions;
mod function;
mod functions;
mod image_calls;
mod interface;
mod jobs;
mod library;
mod naga_types;
mod pointers;
mod printf;
mod records;
mod statements;

use crate::analysis::Analysis;
use crate::caps::DeviceCaps;
use crate::diagnostic::Diagnostics;
use crate::hir::{self, FunctionId};
use crate::lower::builder::ModuleBuilder;
use crate::lower::interface::program_globals;
use crate::lower::jobs::in_parallel;
use crate::options::BuildOptions;
use crate::spirv::Kernel;

/// What lowering a program makes: its kernels and the block of its
/// program-scope `__global` variables.
pub struct Lowered {
    pub kernels: Vec<Kernel>,
    pub globals: crate::reflect::ProgramGlobals,
}

/// Lowers every kernel of `program`, whose `analysis` the analysis stage
/// made. Problems that only show up here (a construct the pointer model
/// cannot express) are reported as errors.
pub fn lower(
    program: &hir::Program,
    analysis: &Analysis,
    options: &BuildOptions,
    caps: &DeviceCaps,
    diags: &mut Diagnostics,
) -> Lowered {
    let block = program_globals::GlobalsBlock::layout(program);
    let initial = {
        let mut builder = ModuleBuilder::new(program, analysis, options, caps, diags, &block);
        builder.globals_initial_bytes(&block)
    };
    let mut lowered = Lowered {
        kernels: Vec::new(),
        globals: crate::reflect::ProgramGlobals::default(),
    };
    // An initializer it cannot evaluate was reported: the build fails.
    let Some(initial) = initial else {
        return lowered;
    };
    lowered.globals = crate::reflect::ProgramGlobals {
        size: block.size(),
        initial,
    };
    // Each kernel is its own module: lowered, validated and written as a
    // job of its own, in parallel where there are several.
    let kernels: Vec<(FunctionId, &hir::KernelInfo)> = program
        .functions
        .iter()
        .filter_map(|(id, f)| Some((id, f.kernel.as_ref()?)))
        .collect();
    let settings = diags.with_same_settings();
    // naga walks the blocks of a module by recursion, the validator and
    // the writer as well as its drop: each job runs on a stack with room
    // for the program's deepest nesting of statements.
    let depth = program
        .functions
        .iter()
        .map(|(_, f)| f.nesting_depth())
        .max()
        .unwrap_or(0);
    let jobs = in_parallel(&kernels, |&(id, info)| {
        crate::stack::for_block_nesting(depth, || {
            let mut diags = settings.with_same_settings();
            let lowered = ModuleBuilder::new(program, analysis, options, caps, &mut diags, &block)
                .lowered_kernel(id, info, options);
            let finished = lowered.map(|k| k.finish());
            (diags, finished)
        })
    });
    for ((kernel_diags, finished), (id, _)) in jobs.into_iter().zip(&kernels) {
        diags.append(kernel_diags);
        match finished {
            Some(Ok(kernel)) => lowered.kernels.push(kernel),
            Some(Err(e)) => diags.error(program.functions[*id].span, e.0),
            None => {}
        }
    }
    lowered
}
