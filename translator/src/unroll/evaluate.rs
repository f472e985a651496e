//! Integer expressions of the HIR evaluated at compile time, with at most
//! one variable, a loop's counter, bound to a known value: what decides a
//! counted loop's iterations and folds the copies of its body. Only pure
//! scalar integer operations evaluate; anything else (another variable,
//! memory, a call, a side effect, floating point, vectors, a division by
//! zero or a shift C leaves undefined) is no constant, so what is
//! evaluated here is what the device would compute.

use crate::hir::{ExprId, ExprKind as H, Function, LocalId, UnaryOp};
use crate::int_constant::IntConstant;
use crate::types::Scalar;

/// A variable with a known value.
#[derive(Clone, Copy)]
pub(super) struct Binding {
    pub local: LocalId,
    pub value: IntConstant,
}

/// The value of `e`, with `binding`'s variable holding its value.
pub(super) fn evaluate(f: &Function, e: ExprId, binding: Option<Binding>) -> Option<IntConstant> {
    crate::stack::guard(|| {
        let expr = &f.exprs[e];
        let ty = integer_scalar(expr.ty)?;
        let value = |x: ExprId| evaluate(f, x, binding);
        Some(match expr.kind {
            H::Int(bits) => IntConstant::from_bits(bits, ty),
            H::Local(local) => binding.filter(|b| b.local == local)?.value.converted(ty),
            H::Convert(x) => value(x)?.converted(ty),
            H::Unary(op, x) => {
                let x = value(x)?.converted(ty);
                let result = match op {
                    UnaryOp::Negate => -x.value,
                    UnaryOp::BitNot => !x.value,
                    UnaryOp::LogicalNot => i128::from(!x.truth()),
                };
                IntConstant::new(result, ty)
            }
            H::Binary(op, a, b) => IntConstant::binary(op, value(a)?, value(b)?)?.converted(ty),
            H::Logical(op, a, b) => {
                let a = value(a)?.truth();
                let truth = match (op, a) {
                    (crate::ast::BinaryOp::LogicalAnd, false) => false,
                    (crate::ast::BinaryOp::LogicalOr, true) => true,
                    _ => value(b)?.truth(),
                };
                IntConstant::new(truth.into(), ty)
            }
            H::Conditional(c, a, b) => {
                let taken = if value(c)?.truth() { a } else { b };
                value(taken)?.converted(ty)
            }
            _ => return None,
        })
    })
}

/// The scalar of an integer (or `bool`) scalar type.
pub(super) fn integer_scalar(ty: crate::types::Type) -> Option<Scalar> {
    ty.scalar().filter(|s| s.is_integer())
}
