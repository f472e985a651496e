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
    /// them, and returns its root.
    pub fn append_to(self, arena: &mut Arena<hir::Expr>) -> ExprId {
        let kind = self.kind.map(&mut |operand| operand.append_to(arena));
        arena.append(
            hir::Expr {
                kind,
                ty: self.ty,
                span: self.span,
            },
            naga::Span::UNDEFINED,
        )
    }
}

/// Operands as a tree's operation holds them: boxed in operand lists too,
/// since every operand of [`Kind`] is the same type.
#[allow(clippy::vec_box)]
pub(super) fn boxed(operands: Vec<Expr>) -> Vec<Box<Expr>> {
    operands.into_iter().map(Box::new).collect()
}
