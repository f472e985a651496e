//! Integer constants of C's scalar types and C's arithmetic on them:
//! every value has its type, operands go through the integer promotions
//! and the usual arithmetic conversions, and each result wraps to its type.
//! The checker's constant expressions (`check::constants`, C++'s
//! `constexpr` calls) and the unroller's trip counts (`unroll`) compute
//! with them, so both agree with the code the same expression compiles to.

use crate::ast::BinaryOp;
use crate::builtins::{common_scalar, promote};
use crate::literal;
use crate::types::Scalar;

/// A constant and its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntConstant {
    pub value: i128,
    pub ty: Scalar,
}

impl IntConstant {
    /// `value` converted to `ty`, as C converts integers (modular; to
    /// `bool`, any non-zero value is 1).
    pub fn new(value: i128, ty: Scalar) -> IntConstant {
        // Operands are within 64 bits, so the low 64 are all that matter.
        let bits = literal::wrap(value as i64, ty);
        let value = if ty.is_signed() {
            literal::sign_extend(bits, ty).into()
        } else {
            bits.into()
        };
        IntConstant { value, ty }
    }

    /// The constant a HIR `Int` of type `ty` holds (its two's-complement
    /// bits).
    pub fn from_bits(bits: u64, ty: Scalar) -> IntConstant {
        IntConstant::new(literal::sign_extend(bits, ty).into(), ty)
    }

    /// Its two's-complement bits, as a HIR `Int` holds them.
    pub fn bits(self) -> u64 {
        literal::wrap(self.value as i64, self.ty)
    }

    pub fn converted(self, ty: Scalar) -> IntConstant {
        IntConstant::new(self.value, ty)
    }

    pub fn truth(self) -> bool {
        self.value != 0
    }

    /// `a op b` with C's conversions; `None` where C gives no value: a
    /// division by zero, or a shift by a negative count or the width or
    /// more.
    pub fn binary(op: BinaryOp, a: IntConstant, b: IntConstant) -> Option<IntConstant> {
        use BinaryOp::*;
        let int = |value: bool| IntConstant::new(value.into(), Scalar::Int);
        if matches!(op, LogicalAnd | LogicalOr) {
            return Some(int(if op == LogicalAnd {
                a.truth() && b.truth()
            } else {
                a.truth() || b.truth()
            }));
        }
        if matches!(op, Shl | Shr) {
            // The left operand's promoted type; a count past its width is
            // undefined, so no constant.
            let a = a.converted(promote(a.ty));
            let width = i128::from(a.ty.size() * 8);
            if !(0..width).contains(&b.value) {
                return None;
            }
            let shift = b.value as u32;
            return Some(if op == Shl {
                IntConstant::new(a.value.wrapping_shl(shift), a.ty)
            } else {
                IntConstant::new(a.value >> shift, a.ty)
            });
        }
        let common = common_scalar(a.ty, b.ty);
        let (a, b) = (a.converted(common), b.converted(common));
        let (x, y) = (a.value, b.value);
        // The operands are within 64 bits, so i128 arithmetic that wraps
        // at 128 bits still has the right low 64 bits to wrap from.
        Some(match op {
            Mul => IntConstant::new(x.wrapping_mul(y), common),
            Div | Rem if y == 0 => return None,
            Div => IntConstant::new(x / y, common),
            Rem => IntConstant::new(x % y, common),
            Add => IntConstant::new(x.wrapping_add(y), common),
            Sub => IntConstant::new(x.wrapping_sub(y), common),
            BitAnd => IntConstant::new(x & y, common),
            BitXor => IntConstant::new(x ^ y, common),
            BitOr => IntConstant::new(x | y, common),
            Lt => int(x < y),
            Gt => int(x > y),
            Le => int(x <= y),
            Ge => int(x >= y),
            Eq => int(x == y),
            Ne => int(x != y),
            LogicalAnd | LogicalOr | Shl | Shr => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_wrap_to_their_type_and_bits_round_trip() {
        let c = IntConstant::new(300, Scalar::UChar);
        assert_eq!(c.value, 44);
        let minus_one = IntConstant::new(-1, Scalar::Int);
        assert_eq!(minus_one.bits(), 0xffff_ffff);
        assert_eq!(IntConstant::from_bits(0xffff_ffff, Scalar::Int), minus_one);
        let lt = IntConstant::binary(BinaryOp::Lt, minus_one, IntConstant::new(0, Scalar::UInt));
        assert_eq!(lt.map(|c| c.value), Some(0));
    }
}
