//! `convert_<integer type>` with `_sat` and the rounding modes (OpenCL C
//! 6.4.3): from floating point, the value is rounded as asked (`_rte`,
//! `_rtz`, `_rtp`, `_rtn`) and, with `_sat`, out-of-range values clamp to
//! the type's range and NaN becomes 0; between integers only `_sat`
//! matters, clamping to the target's range. Without `_sat` an out-of-range
//! value converts as C does.

use crate::builtins::{Conversion, Rounding};
use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::expressions::{convert, wide, Operand};
use crate::lower::function::FnBuilder;
use crate::lower::library::fp16;
use crate::lower::naga_types::naga_scalar;
use crate::types::{Scalar, Type};
use naga::{BinaryOperator as B, Handle};

/// Whether `convert_integer` handles `c` from `from`: an integer target.
pub(in crate::lower) fn converts_to_integer(c: &Conversion, from: &Type) -> bool {
    c.to.is_integer() && c.to != Scalar::Bool && from.element().is_some_and(|s| s != Scalar::Bool)
}

impl ModuleBuilder<'_> {
    pub(in crate::lower) fn convert_integer(
        &mut self,
        fb: &mut FnBuilder,
        c: &Conversion,
        arg: Operand,
        to: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let arg_ty = fb.ty(arg);
        let mut from = &arg_ty;
        let mut from_elem = from.element().unwrap_or(Scalar::Int);
        let mut v = self.plain(fb, arg)?;
        // A `half` widens exactly to `float`, whose bounds below (up to
        // 2^64) are finite: `half` has no such constants.
        let widened;
        if from_elem == Scalar::Half {
            widened = fp16::with_element(from, Scalar::Float);
            v = self.convert(fb, v, from, &widened, location)?;
            from = &widened;
            from_elem = Scalar::Float;
        }
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
                Some(naga::MathFunction::Round) if from_elem == Scalar::Double => {
                    let size = match from {
                        Type::Vector(_, n) => crate::lower::naga_types::vector_size(*n),
                        _ => None,
                    };
                    crate::lower::library::math::round_even_f64(fb, v, size)
                }
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

/// Whether `convert_floating` handles `c` from `from`: a floating-point
/// target with a directed rounding mode, from a type it cannot always
/// hold exactly.
pub(in crate::lower) fn converts_to_float_directed(c: &Conversion, from: &Type) -> bool {
    let Some(source) = from.element() else {
        return false;
    };
    c.to.is_float()
        && matches!(c.rounding, Rounding::Rtz | Rounding::Rtp | Rounding::Rtn)
        && !holds_exactly(source, c.to)
}

/// Every value of `source` is a value of the floating-point `target`.
fn holds_exactly(source: Scalar, target: Scalar) -> bool {
    let significand_bits = match target {
        Scalar::Half => 11,
        Scalar::Float => 24,
        _ => 53,
    };
    match source {
        Scalar::Bool => true,
        s if s.is_float() => s.size() <= target.size(),
        s => s.size() * 8 - u32::from(s.is_signed()) <= significand_bits,
    }
}

impl ModuleBuilder<'_> {
    /// `convert_float_rtz/_rtp/_rtn(x)` (and to `double`): the conversion
    /// rounds to nearest, which is then compared with `x` exactly and moved
    /// one ulp in the asked direction where it went the other way.
    pub(in crate::lower) fn convert_floating(
        &mut self,
        fb: &mut FnBuilder,
        c: &Conversion,
        arg: Operand,
        to: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        if c.to == Scalar::Half {
            return self.convert_half_directed(fb, c.rounding, arg, to, location);
        }
        let arg_ty = fb.ty(arg);
        let from = &arg_ty;
        let source = from.element().unwrap_or(Scalar::Int);
        let x = self.plain(fb, arg)?;
        let shape = |s: Scalar| match to {
            Type::Vector(_, n) => Type::Vector(s, *n),
            _ => Type::Scalar(s),
        };
        let r = self.convert(fb, x, from, to, location)?;
        let bits_ty = shape(if c.to.size() == 8 {
            Scalar::ULong
        } else {
            Scalar::UInt
        });
        let bits = self.bitcast(fb, r, &bits_ty, location)?;
        // The sign from the bits: a device that flushes subnormals compares
        // a subnormal `r` as zero.
        let signed_ty = shape(if c.to.size() == 8 {
            Scalar::Long
        } else {
            Scalar::Int
        });
        let signed_bits = self.bitcast(fb, r, &signed_ty, location)?;
        let signed_zero = self.constant(fb, &signed_ty, 0, location)?;
        let negative = fb.binary(B::Less, signed_bits, signed_zero);
        let positive = fb.unary(naga::UnaryOperator::LogicalNot, negative);
        // Where the nearest value lies against x.
        let (above, below) = if source.is_float() {
            let back = self.exact_float_as_double(fb, r, bits, negative, to, from, location)?;
            (fb.binary(B::Greater, back, x), fb.binary(B::Less, back, x))
        } else {
            if !self.caps.int64 {
                return Err(self.error(
                    location,
                    "directed rounding of integers to floating point needs 64-bit integers",
                ));
            }
            // Compared as 64-bit integers; a value rounded up to 2^63 or
            // 2^64 (beyond the type) is above every x.
            let (wide, limit) = if source.is_signed() {
                (Scalar::Long, 2f64.powi(63))
            } else {
                (Scalar::ULong, 2f64.powi(64))
            };
            let wide_ty = shape(wide);
            let limit = self.float_constant(fb, to, limit, location)?;
            let beyond = fb.binary(B::GreaterEqual, r, limit);
            let back = self.convert(fb, r, to, &wide_ty, location)?;
            let exact = self.convert(fb, x, from, &wide_ty, location)?;
            let greater = fb.binary(B::Greater, back, exact);
            let above = fb.binary(B::InclusiveOr, beyond, greater);
            let less = fb.binary(B::Less, back, exact);
            let not_beyond = fb.unary(naga::UnaryOperator::LogicalNot, beyond);
            (above, fb.binary(B::And, less, not_beyond))
        };
        // Moving away from zero adds one to the bits, toward zero subtracts.
        let (away, toward) = match c.rounding {
            Rounding::Rtz => {
                let (pa, nb) = (
                    fb.binary(B::And, positive, above),
                    fb.binary(B::And, negative, below),
                );
                (None, fb.binary(B::InclusiveOr, pa, nb))
            }
            Rounding::Rtp => (
                Some(fb.binary(B::And, below, positive)),
                fb.binary(B::And, below, negative),
            ),
            _ => (
                Some(fb.binary(B::And, above, negative)),
                fb.binary(B::And, above, positive),
            ),
        };
        let one = self.constant(fb, &bits_ty, 1, location)?;
        let up = fb.binary(B::Add, bits, one);
        let down = fb.binary(B::Subtract, bits, one);
        let moved = match away {
            Some(away) => fb.select(away, up, bits),
            None => bits,
        };
        let moved = fb.select(toward, down, moved);
        self.bitcast(fb, moved, to, location)
    }

    /// `r` (of float type `to`, with `bits` and sign `negative`) as the
    /// wider float type `wide`, exactly. A `float` subnormal is built from
    /// its bits (mantissa times 2^-149): converting it would flush it to
    /// zero on a device without `float` denormals, such as NVIDIA's.
    #[allow(clippy::too_many_arguments)]
    fn exact_float_as_double(
        &mut self,
        fb: &mut FnBuilder,
        r: Handle<naga::Expression>,
        bits: Handle<naga::Expression>,
        negative: Handle<naga::Expression>,
        to: &Type,
        wide: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let converted = self.convert(fb, r, to, wide, location)?;
        if to.element() != Some(Scalar::Float) {
            return Ok(converted);
        }
        let exponent_mask = self.constant(fb, &bits_type(to), 0x7f80_0000, location)?;
        let mantissa_mask = self.constant(fb, &bits_type(to), 0x007f_ffff, location)?;
        let exponent = fb.binary(B::And, bits, exponent_mask);
        let zero = self.constant(fb, &bits_type(to), 0, location)?;
        let subnormal = fb.binary(B::Equal, exponent, zero);
        let mantissa = fb.binary(B::And, bits, mantissa_mask);
        let mantissa = fb.add(naga::Expression::As {
            expr: mantissa,
            kind: naga::ScalarKind::Float,
            convert: Some(8),
        });
        let scale = self.float_constant(fb, wide, 2f64.powi(-149), location)?;
        let magnitude = fb.binary(B::Multiply, mantissa, scale);
        let negated = fb.unary(naga::UnaryOperator::Negate, magnitude);
        let value = fb.select(negative, negated, magnitude);
        Ok(fb.select(subnormal, value, converted))
    }
}

/// The unsigned integer type of `ty`'s `float` lanes.
fn bits_type(ty: &Type) -> Type {
    match ty {
        Type::Vector(_, n) => Type::Vector(Scalar::UInt, *n),
        _ => Type::Scalar(Scalar::UInt),
    }
}

pub(in crate::lower) fn is_plain_conversion(c: &crate::builtins::Conversion, from: &Type) -> bool {
    use crate::builtins::Rounding;
    let from_float = from.element().is_some_and(|s| s.is_float());
    let to_float = c.to.is_float();
    !c.saturate
        && match c.rounding {
            Rounding::Default => true,
            Rounding::Rtz => from_float && !to_float,
            Rounding::Rte => to_float || !from_float,
            Rounding::Rtp | Rounding::Rtn => !from_float && !to_float,
        }
        || (to_float && !convert::converts_to_float_directed(c, from) && !c.saturate)
}

impl ModuleBuilder<'_> {
    /// C conversion of a register value from `from` to `to`.
    pub(in crate::lower) fn convert(
        &mut self,
        fb: &mut FnBuilder,
        v: Handle<naga::Expression>,
        from: &Type,
        to: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        if from == to {
            return Ok(v);
        }
        if wide::is_wide(to) {
            return self.per_part(fb, to, &[(v, from)], location, |this, fb, v, part_to| {
                let part_from = wide::part_type(from);
                this.convert(fb, v[0], &part_from, part_to, location)
            });
        }
        let (Some(fs), Some(ts)) = (from.element(), to.element()) else {
            return Err(self.error(
                location,
                format!(
                    "cannot convert '{}' to '{}'",
                    self.display(from),
                    self.display(to)
                ),
            ));
        };
        if ts == Scalar::Bool {
            let zero = self.zero(fb, from, location)?;
            let eq = fb.binary(naga::BinaryOperator::Equal, v, zero);
            return Ok(fb.unary(naga::UnaryOperator::LogicalNot, eq));
        }
        if fs == Scalar::Bool {
            let one = self.constant(fb, to, 1, location)?;
            let zero = self.constant(fb, to, 0, location)?;
            return Ok(fb.add(naga::Expression::Select {
                condition: v,
                accept: one,
                reject: zero,
            }));
        }
        if fs == Scalar::Double && ts == Scalar::Half {
            return self.double_to_half(fb, v, from, location);
        }
        let (fn_, tn) = (naga_scalar(fs), naga_scalar(ts));
        let converted = if fn_ == tn {
            v
        } else if fn_.width == tn.width && fs.is_integer() && ts.is_integer() {
            fb.add(naga::Expression::As {
                expr: v,
                kind: tn.kind,
                convert: None,
            })
        } else if fs.is_integer() && ts.is_integer() {
            // C extends by the source's signedness: a `uint` becomes a
            // `long` by zero extension. naga's As to another kind and width
            // extends by the target's, so change the width first, within
            // the source's kind, then reinterpret.
            let resized = fb.add(naga::Expression::As {
                expr: v,
                kind: fn_.kind,
                convert: Some(tn.width),
            });
            if fn_.kind == tn.kind {
                resized
            } else {
                fb.add(naga::Expression::As {
                    expr: resized,
                    kind: tn.kind,
                    convert: None,
                })
            }
        } else {
            fb.add(naga::Expression::As {
                expr: v,
                kind: tn.kind,
                convert: Some(tn.width),
            })
        };
        self.wrap_narrow(fb, converted, to)
    }
}
