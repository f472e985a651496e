//! `fma` on `float` where the driver's `Fma` is not fused
//! ([`crate::DeviceCaps::fused_fma`]): OpenCL requires the correctly
//! rounded `a * b + c`. In `double` the product of two floats is exact and
//! the sum is rounded once; rounding that sum to odd (the last bit set when
//! inexact, from the error-free sum's remainder) before rounding it to
//! `float` makes the two roundings one, since `double` carries more than
//! two bits beyond `float`'s.

use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::function::FnBuilder;
use crate::types::{Scalar, Type};
use naga::{BinaryOperator as B, Handle};

impl ModuleBuilder<'_> {
    pub(super) fn float_fma_through_double(
        &mut self,
        fb: &mut FnBuilder,
        [a, b, c]: [Handle<naga::Expression>; 3],
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let shape = |s: Scalar| match ty {
            Type::Vector(_, n) => Type::Vector(s, *n),
            _ => Type::Scalar(s),
        };
        let (double, bits_ty) = (shape(Scalar::Double), shape(Scalar::ULong));
        let [a, b, c] = [a, b, c].map(|v| self.convert(fb, v, ty, &double, location));
        let (a, b, c) = (a?, b?, c?);
        let product = fb.binary(B::Multiply, a, b);
        let sum = fb.binary(B::Add, product, c);
        // The sum's rounding error (two-sum, exact in round-to-nearest).
        let c_part = fb.binary(B::Subtract, sum, product);
        let p_part = fb.binary(B::Subtract, sum, c_part);
        let p_error = fb.binary(B::Subtract, product, p_part);
        let c_error = fb.binary(B::Subtract, c, c_part);
        let error = fb.binary(B::Add, p_error, c_error);
        // Inexact: step to the odd neighbour on the error's side, unless the
        // sum is odd already. Infinities and NaN pass unchanged.
        let zero = self.float_constant(fb, &double, 0.0, location)?;
        let inexact = fb.binary(B::NotEqual, error, zero);
        let finite = {
            let nan = fb.add(naga::Expression::Relational {
                fun: naga::RelationalFunction::IsNan,
                argument: error,
            });
            fb.unary(naga::UnaryOperator::LogicalNot, nan)
        };
        let bits = self.bitcast(fb, sum, &bits_ty, location)?;
        let one = self.constant(fb, &bits_ty, 1, location)?;
        let low = fb.binary(B::And, bits, one);
        let zero_bits = self.constant(fb, &bits_ty, 0, location)?;
        let even = fb.binary(B::Equal, low, zero_bits);
        let error_up = fb.binary(B::Greater, error, zero);
        let sum_up = fb.binary(B::Greater, sum, zero);
        let away = fb.binary(B::Equal, error_up, sum_up);
        let up = fb.binary(B::Add, bits, one);
        let down = fb.binary(B::Subtract, bits, one);
        let odd = fb.select(away, up, down);
        let step = fb.binary(B::And, inexact, finite);
        let step = fb.binary(B::And, step, even);
        let bits = fb.select(step, odd, bits);
        let rounded = self.bitcast(fb, bits, &double, location)?;
        self.convert(fb, rounded, &double, ty, location)
    }
}
