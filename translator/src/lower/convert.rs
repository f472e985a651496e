//! `convert_<integer type>` with `_sat` and the rounding modes (OpenCL C
//! 6.4.3): from floating point, the value is rounded as asked (`_rte`,
//! `_rtz`, `_rtp`, `_rtn`) and, with `_sat`, out-of-range values clamp to
//! the type's range and NaN becomes 0; between integers only `_sat`
//! matters, clamping to the target's range. Without `_sat` an out-of-range
//! value converts as C does.

use super::*;
use crate::builtins::{Conversion, Rounding};
use naga::BinaryOperator as B;

/// Whether `convert_integer` handles `c` from `from`: an integer target.
pub(super) fn converts_to_integer(c: &Conversion, from: &Type) -> bool {
    c.to.is_integer() && c.to != Scalar::Bool && from.element().is_some_and(|s| s != Scalar::Bool)
}

impl ModuleBuilder<'_> {
    pub(super) fn convert_integer(
        &mut self,
        fb: &mut FnBuilder,
        c: &Conversion,
        arg: &Expr,
        to: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let from = &arg.ty;
        let from_elem = from.element().unwrap_or(Scalar::Int);
        let v = self.plain(fb, arg)?;
        let target = c.to;
        let bits = target.size() * 8;
        let (lo, hi): (i128, i128) = if target.is_signed() {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        };
        let as_u64 = |v: i128| v as u64;
        if from_elem.is_float() {
            let fun = match c.rounding {
                Rounding::Rte => Some(naga::MathFunction::Round),
                Rounding::Rtp => Some(naga::MathFunction::Ceil),
                Rounding::Rtn => Some(naga::MathFunction::Floor),
                // To zero is what the conversion itself does.
                Rounding::Rtz | Rounding::Default => None,
            };
            let rounded = match fun {
                Some(fun) => fb.math(fun, v, None),
                None => v,
            };
            let converted = self.convert(fb, rounded, from, to, location)?;
            if !c.saturate {
                return Ok(converted);
            }
            // Bounds as floats: `lo` is a power of two or 0, and one past
            // `hi` is a power of two, so both are exact.
            let lower = self.float_constant(fb, from, lo as f64, location)?;
            let past = self.float_constant(fb, from, (hi + 1) as f64, location)?;
            let (lo_c, hi_c, zero) = (
                self.constant(fb, to, as_u64(lo), location)?,
                self.constant(fb, to, as_u64(hi), location)?,
                self.constant(fb, to, 0, location)?,
            );
            let too_big = fb.binary(B::GreaterEqual, rounded, past);
            let too_small = fb.binary(B::Less, rounded, lower);
            let nan = fb.add(naga::Expression::Relational {
                fun: naga::RelationalFunction::IsNan,
                argument: rounded,
            });
            let r = fb.select(nan, zero, converted);
            let r = fb.select(too_small, lo_c, r);
            return Ok(fb.select(too_big, hi_c, r));
        }
        if !c.saturate {
            return self.convert(fb, v, from, to, location);
        }
        // Integer to integer: clamp in the source type on each side where
        // the target's bound lies inside the source's range.
        let source_bits = from_elem.size() * 8;
        let (source_lo, source_hi): (i128, i128) = if from_elem.is_signed() {
            (
                -(1i128 << (source_bits - 1)),
                (1i128 << (source_bits - 1)) - 1,
            )
        } else {
            (0, (1i128 << source_bits) - 1)
        };
        let mut clamped = v;
        if lo > source_lo {
            let bound = self.constant(fb, from, as_u64(lo), location)?;
            let below = fb.binary(B::Less, clamped, bound);
            clamped = fb.select(below, bound, clamped);
        }
        if hi < source_hi {
            let bound = self.constant(fb, from, as_u64(hi), location)?;
            let above = fb.binary(B::Greater, clamped, bound);
            clamped = fb.select(above, bound, clamped);
        }
        self.convert(fb, clamped, from, to, location)
    }
}
