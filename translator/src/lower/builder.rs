//! The module builder: the state of lowering one kernel into one naga
//! module, grouped by the part of the lowering that owns it, and the
//! read-only views of the program every part uses.

use crate::analysis::{Analysis, KernelFacts};
use crate::caps::DeviceCaps;
use crate::diagnostic::{Diagnostics, Location};
use crate::hir;
use crate::lower::atomics::float_words::FloatWords;
use crate::lower::expressions::initializers::ProgramConstants;
use crate::lower::expressions::Operand;
use crate::lower::function::FnBuilder;
use crate::lower::functions::Functions;
use crate::lower::interface::program_globals::GlobalsBlock;
use crate::lower::interface::Interface;
use crate::lower::library::Library;
use crate::lower::pointers::Memory;
use crate::lower::printf::Printf;
use crate::lower::records::Images;
use crate::options::BuildOptions;
use crate::types::{Pointee, Record, Type};
use naga::Handle;

/// Reported already; lowering of this kernel stops.
pub(super) struct Failed;

pub(super) type LResult<T> = Result<T, Failed>;

/// The state of lowering one kernel. The read-only inputs are open to
/// every part of the lowering; each piece of mutable state belongs to the
/// folder named in its field, whose types keep their fields private, so a
/// part changes another's state only through the methods it offers.
pub(super) struct ModuleBuilder<'a> {
    pub(super) program: &'a hir::Program,
    /// What the analysis found of the program's pointers (see
    /// [`crate::analysis`]).
    pub(super) analysis: &'a Analysis,
    /// The analysis's facts of the kernel being lowered, set as it starts.
    pub(super) kernel_facts: Option<&'a KernelFacts>,
    pub(super) caps: &'a DeviceCaps,
    /// Where the program-scope `__global` variables lie.
    pub(super) globals_block: &'a GlobalsBlock,
    /// What is made.
    pub(super) module: naga::Module,
    report: Report<'a>,
    /// `interface/`: bindings, the push-constant header, work-item
    /// built-ins.
    pub(super) interface: Interface,
    /// `pointers/`: root sets, cast objects, buffer views.
    pub(super) memory: Memory,
    /// `atomics/`: `__local` floats held as integer words.
    pub(super) float_words: FloatWords,
    /// `records.rs`: roots of records held as byte images.
    pub(super) images: Images,
    /// `expressions/initializers.rs`: program-scope constants and strings.
    pub(super) constants: ProgramConstants,
    /// `functions.rs`: helper specialisations and `__local` variables.
    pub(super) functions: Functions,
    /// `library/`: functions of the built-in library made once per module.
    pub(super) library: Library,
    /// `printf.rs`: the printf buffer, made by the kernel's first `printf`.
    pub(super) printf: Printf,
}

/// Where errors go. While `muted` is above zero they are dropped: a
/// pointer variable's roots are resolved ahead of its uses, which report
/// what fails where it is written (see `pointers/roots.rs`).
struct Report<'a> {
    diags: &'a mut Diagnostics,
    muted: u32,
}

impl<'a> ModuleBuilder<'a> {
    pub(super) fn new(
        program: &'a hir::Program,
        analysis: &'a Analysis,
        options: &BuildOptions,
        caps: &'a DeviceCaps,
        diags: &'a mut Diagnostics,
        globals_block: &'a GlobalsBlock,
    ) -> Self {
        ModuleBuilder {
            program,
            analysis,
            kernel_facts: None,
            caps,
            globals_block,
            module: naga::Module::default(),
            report: Report { diags, muted: 0 },
            interface: Interface::default(),
            memory: Memory::default(),
            float_words: FloatWords::default(),
            images: Images::default(),
            constants: ProgramConstants::default(),
            functions: Functions::default(),
            library: Library::new(options),
            printf: Printf::default(),
        }
    }

    pub(super) fn error(
        &mut self,
        location: impl Into<Location>,
        message: impl Into<String>,
    ) -> Failed {
        if self.report.muted == 0 {
            self.report.diags.error(location, message);
        }
        Failed
    }

    /// `f` with errors dropped (see [`Report`]).
    pub(super) fn quietly<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        self.report.muted += 1;
        let result = f(self);
        self.report.muted -= 1;
        result
    }

    /// What a pointer type points to.
    pub(super) fn pointee(&self, ty: &Type) -> Option<&'a Pointee> {
        self.program.types.pointee(*ty)
    }

    /// What pointer operand `op` points to.
    pub(super) fn pointee_of(&self, fb: &FnBuilder, op: Operand) -> Option<Pointee> {
        fb.pointee(op, &self.program.types)
    }

    /// The element type of an array type.
    pub(super) fn element_of(&self, ty: &Type) -> Option<Type> {
        self.program.types.array_element(*ty)
    }

    pub(super) fn record(&self, r: Handle<Record>) -> &'a Record {
        &self.program.types[r]
    }

    pub(super) fn type_size(&self, ty: &Type) -> Option<u64> {
        self.program.types.size(*ty)
    }

    /// The spelling of a name of the program.
    pub(super) fn name(&self, symbol: hir::Symbol) -> &'a str {
        &self.program.names[symbol]
    }

    /// `ty` as clang spells it in diagnostics.
    pub(super) fn display(&self, ty: &Type) -> String {
        self.program.display(*ty)
    }
}
