//! One HIR function being lowered: the naga function it becomes, and
//! how each of its locals is held.

use crate::hir::{self, ExprId, ExprKind as H, FunctionId, LocalId, StmtId};
use crate::lower::emit::Emitter;
use crate::lower::expressions::Operand;
use crate::lower::pointers::stored::StoredRoots;
use crate::lower::pointers::Root;
use crate::types::{Pointee, Type};
use naga::Handle;

/// One HIR function being lowered: the naga function it becomes (which it
/// dereferences to, for emitting), and what the lowering keeps of the HIR
/// function's locals and pointers meanwhile.
pub(super) struct FnBuilder<'a> {
    pub(super) emit: Emitter,
    /// The HIR function it is lowered from.
    pub(super) source: &'a hir::Function,
    pub(super) slots: PerLocal<Slot>,
    /// For each pointer parameter: the root this specialisation (or, for
    /// a kernel, the launch) gives it.
    pub(super) param_roots: PerLocal<Root>,
    /// The roots a returned pointer may have.
    pub(super) return_roots: Vec<Root>,
    /// The root set of each local array of pointers (see `stored.rs`).
    pub(super) stored: PerLocal<StoredRoots>,
    /// For each image parameter: the kernel's image argument it is (an
    /// index of `interface::images::KernelImages`), which this
    /// specialisation (or, for a kernel, the launch) gives it.
    pub(super) image_params: PerLocal<usize>,
    pub(super) hir: FunctionId,
}

/// A value for some of a function's locals, indexed by their handles
/// (every function's locals are a dense arena).
pub(super) struct PerLocal<T>(Vec<Option<T>>);

impl<T> PerLocal<T> {
    fn new(capacity: usize) -> Self {
        PerLocal(Vec::with_capacity(capacity))
    }

    pub(super) fn get(&self, local: &LocalId) -> Option<&T> {
        self.0.get(local.index())?.as_ref()
    }

    pub(super) fn get_mut(&mut self, local: &LocalId) -> Option<&mut T> {
        self.0.get_mut(local.index())?.as_mut()
    }

    pub(super) fn insert(&mut self, local: LocalId, value: T) {
        let index = local.index();
        if index >= self.0.len() {
            self.0.resize_with(index + 1, || None);
        }
        self.0[index] = Some(value);
    }
}

impl<T> std::ops::Index<&LocalId> for PerLocal<T> {
    type Output = T;
    fn index(&self, local: &LocalId) -> &T {
        self.get(local).expect("a value for every local asked for")
    }
}

/// How a HIR local is held in naga.
#[derive(Clone, Copy, Debug)]
pub(super) enum Slot {
    Variable(Handle<naga::LocalVariable>),
    /// A `__local` variable of a kernel: a workgroup-space global.
    Workgroup(Handle<naga::GlobalVariable>),
    /// A pointer variable: fixed root (set by its first assignment) and
    /// an index variable; or, for a variable given different roots, the
    /// root set and a `u32` variable holding the position in it.
    Pointer {
        root: Option<Root>,
        index: Handle<naga::LocalVariable>,
        chosen: Option<ChosenVar>,
    },
}

/// The root of a pointer variable given different roots: its root set
/// (an index into `ModuleBuilder::root_sets`) and the `u32` variable
/// holding its position in the set.
#[derive(Clone, Copy, Debug)]
pub(super) struct ChosenVar {
    pub(super) set: usize,
    pub(super) which: Handle<naga::LocalVariable>,
}

impl<'a> FnBuilder<'a> {
    pub(super) fn new(program: &'a hir::Program, hir: FunctionId) -> Self {
        FnBuilder {
            emit: Emitter::default(),
            source: &program.functions[hir],
            slots: PerLocal::new(program.functions[hir].locals.len()),
            param_roots: PerLocal::new(program.functions[hir].params.len()),
            return_roots: Vec::new(),
            stored: PerLocal::new(0),
            image_params: PerLocal::new(0),
            hir,
        }
    }

    /// A HIR expression of the function being lowered.
    pub(super) fn expr(&self, e: ExprId) -> &'a hir::Expr {
        &self.source.exprs[e]
    }

    pub(super) fn stmt(&self, s: StmtId) -> &'a hir::Stmt {
        &self.source.stmts[s]
    }

    pub(super) fn local(&self, l: LocalId) -> &'a hir::Local {
        &self.source.locals[l]
    }

    /// The C type of an operand that is not a made-up pointer (those are
    /// asked for their [`Self::pointee`]).
    pub(super) fn ty(&self, operand: Operand) -> Type {
        match operand {
            Operand::Expr(e) => self.expr(e).ty,
            Operand::Value(_, ty) | Operand::Int(_, ty) => ty,
            Operand::Pointer(..) => Type::Error,
        }
    }

    /// What a pointer operand points to.
    pub(super) fn pointee(&self, operand: Operand, types: &crate::types::Types) -> Option<Pointee> {
        match operand {
            Operand::Pointer(_, pointee) => Some(pointee),
            op => types.pointee(self.ty(op)).copied(),
        }
    }

    /// The bits of an operand that is an integer constant.
    pub(super) fn int_constant(&self, operand: Operand) -> Option<u64> {
        match operand {
            Operand::Int(bits, _) => Some(bits),
            Operand::Expr(e) => match self.expr(e).kind {
                H::Int(bits) => Some(bits),
                _ => None,
            },
            _ => None,
        }
    }

    /// The HIR expression an operand is, if it is one.
    pub(super) fn hir(&self, operand: Operand) -> Option<&'a hir::Expr> {
        match operand {
            Operand::Expr(e) => Some(self.expr(e)),
            _ => None,
        }
    }

    pub(super) fn finish(self) -> naga::Function {
        self.emit.finish()
    }
}

impl std::ops::Deref for FnBuilder<'_> {
    type Target = Emitter;
    fn deref(&self) -> &Emitter {
        &self.emit
    }
}

impl std::ops::DerefMut for FnBuilder<'_> {
    fn deref_mut(&mut self) -> &mut Emitter {
        &mut self.emit
    }
}
