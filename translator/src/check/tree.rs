//! The checker's working form of an expression: a tree it can fold,
//! retype and rewrite while it applies C's rules to one full expression.
//! A finished tree is appended to the arena of the function (or of the
//! program's initialisers) that holds it, operands first, so that the HIR
//! itself is only ever handles.

use crate::diagnostic::Span;
use crate::hir::{self, ExprId};
use crate::types::Type;
use naga::Arena;

/// An expression being checked; its operands are trees too.
#[derive(Clone, Debug)]
pub(super) struct Expr {
    pub kind: Kind,
    pub ty: Type,
    pub span: Span,
}

pub(super) type Kind = hir::ExprKind<Box<Expr>>;

impl Expr {
    pub fn new(kind: Kind, ty: Type, span: impl Into<Span>) -> Self {
        Expr {
            kind,
            ty,
            span: span.into(),
        }
    }

    /// Appends the tree to `arena`, operands before the operations that use
    /// them, and returns its root. `contract` is whether floating-point
    /// contraction is allowed where the expression was written (one full
    /// expression is under one `FP_CONTRACT` state).
    pub fn append_to(mut self, arena: &mut Arena<hir::Expr>, contract: bool) -> ExprId {
        crate::stack::guard(|| {
            let kind = std::mem::replace(&mut self.kind, LEAF)
                .map(&mut |operand| operand.append_to(arena, contract));
            arena.append(
                hir::Expr {
                    kind,
                    ty: self.ty,
                    span: self.span,
                    contract,
                },
                naga::Span::UNDEFINED,
            )
        })
    }

    /// The same operation as a value of type `ty`, spanning `span`.
    pub fn with_type(mut self, ty: Type, span: Span) -> Expr {
        self.ty = ty;
        self.span = span;
        self
    }

    /// The operation, for a caller that takes the tree apart; the tree is
    /// left a leaf.
    pub fn take_kind(&mut self) -> Kind {
        std::mem::replace(&mut self.kind, LEAF)
    }
}

/// What a tree whose operation was taken holds.
const LEAF: Kind = hir::ExprKind::Int(0);

/// A tree as deep as the parser admits (a chain of thousands of `+`) is
/// dropped by recursion, each level through `stack::guard`, when it is
/// discarded rather than committed.
impl Drop for Expr {
    fn drop(&mut self) {
        let mut leaf = true;
        self.kind.for_each_child(&mut |_| leaf = false);
        if !leaf {
            let operands = self.take_kind();
            crate::stack::guard(move || drop(operands));
        }
    }
}

/// Operands as a tree's operation holds them: boxed in operand lists too,
/// since every operand of [`Kind`] is the same type.
#[allow(clippy::vec_box)]
pub(super) fn boxed(operands: Vec<Expr>) -> Vec<Box<Expr>> {
    operands.into_iter().map(Box::new).collect()
}
