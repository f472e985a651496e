//! The geometric functions that need more than one instruction:
//! `length`, `distance` and `normalize`, which OpenCL requires not to
//! overflow or underflow where the result itself is representable (a naive
//! `sqrt(dot(p, p))` does for components beyond 2^64 or below 2^-63 in
//! `float`, 2^512 or 2^-511 in `double`), and
//! their `fast_` forms, which may use the hardware's square root directly.
//! (`dot` and `cross` are in `formulas.rs`.)

use crate::ast::BinaryOp;
use crate::builtins::Builtin;
use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::Operand;
use crate::lower::function::FnBuilder;
use crate::lower::naga_types::vector_size;
use crate::types::{Scalar, Type};
use naga::{BinaryOperator as B, Handle};

/// How a sum of squares is rescaled where it would overflow or lose bits
/// below the normal range: the components are multiplied by `down`
/// (where the plain sum is beyond the largest finite value) or by `up`
/// (where it is below `tiny`) and the root multiplied back. All are
/// powers of two, so the scaling is exact. `down` brings the largest
/// finite component to a square that sixteen of sum below overflow;
/// `up` brings every component below sqrt(`tiny`) to a square that sixteen
/// of sum below overflow, and the smallest subnormal to a normal square.
struct Scales {
    down: f64,
    up: f64,
    tiny: f64,
}

impl Scales {
    /// float: components up to 2^128 square to 2^116 at most after
    /// 2^-70; below 2^-50, 2^100 keeps squares under 2^100 and the
    /// smallest subnormal, 2^-149, squares to 2^-98. double: components
    /// up to 2^1024 square to 2^848 at most after 2^-600; below 2^-300,
    /// 2^600 keeps squares under 2^600 and the smallest subnormal,
    /// 2^-1074, squares to 2^-948 (the float scales left
    /// `length(DBL_MAX)` infinite).
    fn of(element: Option<Scalar>) -> Scales {
        let (down, up, tiny) = match element {
            Some(Scalar::Double) => (-600, 600, -600),
            _ => (-70, 100, -100),
        };
        Scales {
            down: 2f64.powi(down),
            up: 2f64.powi(up),
            tiny: 2f64.powi(tiny),
        }
    }
}

impl ModuleBuilder<'_> {
    /// `b` applied to `args`, or `None` when it is not one of this module's.
    pub(super) fn geometric_builtin(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Operand],
        location: Location,
    ) -> LResult<Option<Handle<naga::Expression>>> {
        use Builtin as G;
        let geometric = [
            G::Length,
            G::Distance,
            G::Normalize,
            G::FastLength,
            G::FastDistance,
            G::FastNormalize,
        ];
        let (true, Some(first)) = (geometric.contains(&b), args.first()) else {
            return Ok(None);
        };
        let ty = fb.ty(*first);
        let difference = |this: &mut Self, fb: &mut FnBuilder| -> LResult<_> {
            let p0 = this.plain(fb, args[0])?;
            let p1 = this.plain(fb, args[1])?;
            Ok(fb.binary(B::Subtract, p0, p1))
        };
        Ok(Some(match b {
            Builtin::Length => {
                let p = self.plain(fb, first)?;
                self.length(fb, p, &ty, location)?
            }
            Builtin::Distance => {
                let p = difference(self, fb)?;
                self.length(fb, p, &ty, location)?
            }
            Builtin::Normalize => {
                let p = self.plain(fb, first)?;
                self.normalize(fb, p, &ty, location)?
            }
            Builtin::FastLength => {
                let p = self.plain(fb, first)?;
                let sum = self.sum_of_squares(fb, p, &ty);
                fb.math(naga::MathFunction::Sqrt, sum, None)
            }
            Builtin::FastDistance => {
                let p = difference(self, fb)?;
                let sum = self.sum_of_squares(fb, p, &ty);
                fb.math(naga::MathFunction::Sqrt, sum, None)
            }
            Builtin::FastNormalize => {
                // p * rsqrt(dot(p, p)), and p itself when that is zero.
                let p = self.plain(fb, first)?;
                let sum = self.sum_of_squares(fb, p, &ty);
                let inverse = fb.math(naga::MathFunction::InverseSqrt, sum, None);
                let inverse = self.splat_to(fb, inverse, &ty, location)?;
                let scaled = fb.binary(B::Multiply, p, inverse);
                let zero = self.float_constant(fb, &scalar_of(&ty), 0.0, location)?;
                let is_zero = fb.binary(B::Equal, sum, zero);
                fb.select_all(is_zero, p, scaled, &ty)
            }
            _ => return Ok(None),
        }))
    }

    /// `dot(p, p)` (`p * p` for a scalar).
    fn sum_of_squares(
        &mut self,
        fb: &mut FnBuilder,
        p: Handle<naga::Expression>,
        ty: &Type,
    ) -> Handle<naga::Expression> {
        match ty {
            Type::Vector(..) => fb.math(naga::MathFunction::Dot, p, Some(p)),
            _ => fb.binary(B::Multiply, p, p),
        }
    }

    /// The length of `p` without spurious overflow or underflow: when the
    /// plain sum of squares is infinite or tiny, the components are scaled
    /// down or up first and the result scaled back ([`Scales`]). An infinite
    /// component gives +inf even alongside a NaN one.
    fn length(
        &mut self,
        fb: &mut FnBuilder,
        p: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let scalar = scalar_of(ty);
        let scaled_length = |this: &mut Self, fb: &mut FnBuilder, by: f64| -> LResult<_> {
            let factor = this.float_constant(fb, ty, by, location)?;
            let q = fb.binary(B::Multiply, p, factor);
            let sum = this.sum_of_squares(fb, q, ty);
            let root = fb.math(naga::MathFunction::Sqrt, sum, None);
            let back = this.float_constant(fb, &scalar, 1.0 / by, location)?;
            Ok(fb.binary(B::Multiply, root, back))
        };
        let sum = self.sum_of_squares(fb, p, ty);
        let plain = fb.math(naga::MathFunction::Sqrt, sum, None);
        let scales = Scales::of(ty.element());
        let big = scaled_length(self, fb, scales.down)?;
        let small = scaled_length(self, fb, scales.up)?;
        // Below `tiny` the sum of squares may have lost bits (or been
        // flushed).
        let tiny_sum = self.float_constant(fb, &scalar, scales.tiny, location)?;
        let is_tiny = fb.binary(B::Less, sum, tiny_sum);
        let largest = self.largest_finite(fb, &scalar, location)?;
        let overflowed = fb.binary(B::Greater, sum, largest);
        let result = fb.select(is_tiny, small, plain);
        let result = fb.select(overflowed, big, result);
        let infinite = self.is_infinite(fb, p, ty, location)?;
        let any_infinite = lanes(fb, naga::RelationalFunction::Any, infinite, ty);
        let infinity = infinity(fb, &scalar);
        Ok(fb.select(any_infinite, infinity, result))
    }

    /// `p / length(p)`, without overflow or underflow on the way; `p`
    /// itself when every component is zero, and the
    /// direction of the infinite components when some are infinite (each
    /// becomes ±1, the finite ones 0).
    fn normalize(
        &mut self,
        fb: &mut FnBuilder,
        p: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let infinite = self.is_infinite(fb, p, ty, location)?;
        let (one, zero) = (
            self.float_constant(fb, ty, 1.0, location)?,
            self.float_constant(fb, ty, 0.0, location)?,
        );
        let unit = fb.select(infinite, one, zero);
        let directions = self.copy_sign(fb, unit, p, ty, location)?;
        let any_infinite = lanes(fb, naga::RelationalFunction::Any, infinite, ty);
        let q = fb.select_all(any_infinite, directions, p, ty);
        // q / |q| is q s / |q s| for any s: scaled as `length` scales, so
        // that neither the sum of squares nor the length overflows (a
        // length beyond the largest finite value made every component 0).
        let scalar = scalar_of(ty);
        let scales = Scales::of(ty.element());
        let sum = self.sum_of_squares(fb, q, ty);
        let largest = self.largest_finite(fb, &scalar, location)?;
        let overflowed = fb.binary(B::Greater, sum, largest);
        let tiny_sum = self.float_constant(fb, &scalar, scales.tiny, location)?;
        let is_tiny = fb.binary(B::Less, sum, tiny_sum);
        let [down, up, one] = [scales.down, scales.up, 1.0]
            .map(|factor| self.float_constant(fb, &scalar, factor, location));
        let (down, up, one) = (down?, up?, one?);
        let factor = fb.select(is_tiny, up, one);
        let factor = fb.select(overflowed, down, factor);
        let factor = self.splat_to(fb, factor, ty, location)?;
        let r = fb.binary(B::Multiply, q, factor);
        let r_sum = self.sum_of_squares(fb, r, ty);
        let length = fb.math(naga::MathFunction::Sqrt, r_sum, None);
        let length = self.splat_to(fb, length, ty, location)?;
        // Scaled down, a component far below the largest would lose bits
        // as a subnormal of `r` (2^-66 beside 2^65 kept 14 of its 24, an
        // 8 ulp error on its subnormal result): there the unscaled
        // component is divided, which cannot overflow (`length` is at
        // least each component's scaled magnitude), and the quotient
        // scaled after, rounding once more only where it is subnormal.
        // Scaled up, every component of `r` is exact and the quotient is
        // final.
        let numerator = fb.select_all(overflowed, q, r, ty);
        let after = fb.select(overflowed, down, one);
        let after = self.splat_to(fb, after, ty, location)?;
        // Through `arithmetic`, whose float division holds beyond 2^126.
        let quotient = self.arithmetic(fb, BinaryOp::Div, numerator, length, ty, location)?;
        let normalized = fb.binary(B::Multiply, quotient, after);
        let zero_component = fb.binary(B::Equal, p, zero);
        let all_zero = lanes(fb, naga::RelationalFunction::All, zero_component, ty);
        Ok(fb.select_all(all_zero, p, normalized, ty))
    }

    /// The largest finite value of `ty`'s element type, splatted: naga
    /// takes no infinite literals, so infinities are found as beyond it.
    fn largest_finite(
        &mut self,
        fb: &mut FnBuilder,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let max = match ty.element() {
            Some(Scalar::Double) => f64::MAX,
            _ => f64::from(f32::MAX),
        };
        self.float_constant(fb, ty, max, location)
    }

    /// Lane-wise `isinf(p)`.
    fn is_infinite(
        &mut self,
        fb: &mut FnBuilder,
        p: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let magnitude = fb.math(naga::MathFunction::Abs, p, None);
        let largest = self.largest_finite(fb, ty, location)?;
        Ok(fb.binary(B::Greater, magnitude, largest))
    }

    /// `magnitude` with the sign bit of `sign`, lane by lane.
    fn copy_sign(
        &mut self,
        fb: &mut FnBuilder,
        magnitude: Handle<naga::Expression>,
        sign: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let zero = self.float_constant(fb, ty, 0.0, location)?;
        // Only ±1 and 0 come here, so the sign test can be arithmetic; a
        // negative zero component has magnitude 0, whose sign is moot.
        let negative = fb.binary(B::Less, sign, zero);
        let negated = fb.unary(naga::UnaryOperator::Negate, magnitude);
        Ok(fb.select(negative, negated, magnitude))
    }
}

impl Emitter {
    /// `condition ? accept : reject` for whole values of `ty`, where
    /// `condition` is one scalar bool.
    fn select_all(
        &mut self,
        condition: Handle<naga::Expression>,
        accept: Handle<naga::Expression>,
        reject: Handle<naga::Expression>,
        ty: &Type,
    ) -> Handle<naga::Expression> {
        let condition = match ty {
            Type::Vector(_, n) => self.add(naga::Expression::Splat {
                size: vector_size(*n).expect("geometric vectors have 2-4 lanes"),
                value: condition,
            }),
            _ => condition,
        };
        self.select(condition, accept, reject)
    }
}

/// `any` or `all` (`fun`) of a bool value of `ty`'s shape; a scalar is
/// its own answer.
fn lanes(
    fb: &mut Emitter,
    fun: naga::RelationalFunction,
    value: Handle<naga::Expression>,
    ty: &Type,
) -> Handle<naga::Expression> {
    match ty {
        Type::Vector(..) => fb.add(naga::Expression::Relational {
            fun,
            argument: value,
        }),
        _ => value,
    }
}

/// +inf of the scalar type `ty`, from its bits (naga takes no infinite
/// literals).
fn infinity(fb: &mut Emitter, ty: &Type) -> Handle<naga::Expression> {
    let bits = match ty.element() {
        Some(Scalar::Double) => naga::Literal::U64(0x7ff0_0000_0000_0000),
        _ => naga::Literal::U32(0x7f80_0000),
    };
    let bits = fb.add(naga::Expression::Literal(bits));
    fb.add(naga::Expression::As {
        expr: bits,
        kind: naga::ScalarKind::Float,
        convert: None,
    })
}

/// The scalar type of `ty`'s elements.
fn scalar_of(ty: &Type) -> Type {
    Type::Scalar(ty.element().unwrap_or(Scalar::Float))
}
