//! `half` values (cl_khr_fp16). They live in naga `f16` registers, so
//! adding, subtracting, multiplying, comparing and selecting are the
//! hardware's: Vulkan makes the first three correctly rounded, and the
//! kernel declares rounding to nearest even for 16-bit floats where the
//! device allows it (`spirv::declare_half_rounding_to_nearest`). What the
//! hardware does not do exactly is built here:
//!
//! - the bits of a `half` as the `u32` register of a `ushort` and back,
//!   for word-viewed buffers, kernel arguments and `as_type`;
//! - division, through a wider type whose quotient rounds to the correctly
//!   rounded `half`, and `double` to `half` without double rounding;
//! - conversions to `half` with a directed rounding mode;
//! - the built-in library: a function of `half` arguments is the `float`
//!   function of the (exactly) widened arguments, rounded back to `half`.
//!   OpenCL's `half` bounds are loose (2 ulp for most functions) and every
//!   `float` result rounds to within about half a `half` ulp, so this is
//!   within them; `float` results stored through an output pointer are
//!   rounded the same way. `fma` is the `float` sum of the exact `float`
//!   product and the addend, rounded to odd (so that rounding it to
//!   `half` rounds once: [`ModuleBuilder::half_fma`]). The bit
//!   functions (`bitselect`, `select`, `nextafter`) work on the `ushort`
//!   bits, and `isnormal` on the `half` itself.

use crate::builtins::{Builtin, Rounding};
use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::expressions::{Operand, Value};
use crate::lower::function::FnBuilder;
use crate::types::{Scalar, Type};
use naga::{BinaryOperator as B, Handle};

/// `ty`'s shape with `s` elements (scalars, vectors, arrays of them).
pub(in crate::lower) fn with_element(ty: &Type, s: Scalar) -> Type {
    match ty {
        Type::Vector(_, n) => Type::Vector(s, *n),
        Type::Scalar(_) => Type::Scalar(s),
        t => *t,
    }
}

/// Whether `ty` is `half` or a vector of them.
fn is_half(ty: &Type) -> bool {
    matches!(
        ty,
        Type::Scalar(Scalar::Half) | Type::Vector(Scalar::Half, _)
    )
}

/// The bits of the `f16` scalar or (up to 4-lane) vector `v`, zero-extended
/// into `u32` lanes: the register form of `ushort`.
pub(in crate::lower) fn half_to_bits(
    fb: &mut Emitter,
    v: Handle<naga::Expression>,
) -> Handle<naga::Expression> {
    let narrow = fb.add(naga::Expression::As {
        expr: v,
        kind: naga::ScalarKind::Uint,
        convert: None,
    });
    fb.add(naga::Expression::As {
        expr: narrow,
        kind: naga::ScalarKind::Uint,
        convert: Some(4),
    })
}

/// The `f16` whose bits are the low 16 of each `u32` (or `i32`) lane of
/// `bits`.
pub(in crate::lower) fn bits_to_half(
    fb: &mut Emitter,
    bits: Handle<naga::Expression>,
) -> Handle<naga::Expression> {
    let narrow = fb.add(naga::Expression::As {
        expr: bits,
        kind: naga::ScalarKind::Uint,
        convert: Some(2),
    });
    fb.add(naga::Expression::As {
        expr: narrow,
        kind: naga::ScalarKind::Float,
        convert: None,
    })
}

/// Built-ins whose `half` version is not the `float` one rounded: they
/// only move bits, and the `half` bits are what they must move.
fn works_on_bits(b: Builtin) -> bool {
    matches!(b, Builtin::Bitselect | Builtin::Select | Builtin::Nextafter)
}

impl ModuleBuilder<'_> {
    /// The `u32`-lane bits of `v`, a `half` value of `ty` (any width).
    pub(in crate::lower) fn half_bits(
        &mut self,
        fb: &mut FnBuilder,
        v: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let to = with_element(ty, Scalar::UShort);
        self.per_part(fb, &to, &[(v, ty)], location, |_, fb, v, _| {
            Ok(half_to_bits(fb, v[0]))
        })
    }

    /// The `half` value of type `ty` whose bits are the `u32` lanes `bits`.
    pub(in crate::lower) fn half_from_bits(
        &mut self,
        fb: &mut FnBuilder,
        bits: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let from = with_element(ty, Scalar::UShort);
        self.per_part(fb, ty, &[(bits, &from)], location, |_, fb, v, _| {
            Ok(bits_to_half(fb, v[0]))
        })
    }

    /// `x / y` on `half` (at most 4 lanes): the quotient in `double`
    /// is within far less than the distance from any quotient of two
    /// halves to a rounding boundary of `half`, so rounding it gives the
    /// correctly rounded `half`. Without `double`, the `float` division
    /// (at most 2.5 ulp in Vulkan) can miss by one near such a boundary.
    pub(in crate::lower) fn divide_half(
        &mut self,
        fb: &mut FnBuilder,
        x: Handle<naga::Expression>,
        y: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let wide = if self.caps.float64 {
            Scalar::Double
        } else {
            Scalar::Float
        };
        let wide_ty = with_element(ty, wide);
        let xw = self.convert(fb, x, ty, &wide_ty, location)?;
        let yw = self.convert(fb, y, ty, &wide_ty, location)?;
        let q = if wide == Scalar::Float {
            self.divide_f32(fb, xw, yw, &wide_ty, location)?
        } else {
            fb.binary(B::Divide, xw, yw)
        };
        self.convert(fb, q, &wide_ty, ty, location)
    }

    /// `b` on `half` arguments or with a `half` result, lowered through
    /// `float` (see the module comment); `None` when `b` does not involve
    /// `half` or has its own path.
    pub(super) fn half_builtin(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Option<Handle<naga::Expression>>> {
        if !is_half(ty) && !args.iter().any(|&a| is_half(&fb.ty(a))) {
            return Ok(None);
        }
        // Every subnormal half is a normal float: ask the half itself.
        if b == Builtin::Isnormal {
            return Ok(None);
        }
        if b == Builtin::Nextafter {
            return self.half_nextafter(fb, args, ty, location).map(Some);
        }
        if b == Builtin::Copysign {
            return self.half_copysign(fb, args, ty, location).map(Some);
        }
        if b == Builtin::Signbit {
            // From the bits: NVIDIA widens a half NaN to a positive one.
            let x = self.plain(fb, args[0])?;
            let bits_ty = with_element(&fb.ty(args[0]), Scalar::UInt);
            let bits = half_to_bits(fb, x);
            let (sign, zero) = (
                self.constant(fb, &bits_ty, 0x8000, location)?,
                self.constant(fb, &bits_ty, 0, location)?,
            );
            let sign = fb.binary(B::And, bits, sign);
            let set = fb.binary(B::NotEqual, sign, zero);
            return self.bool_to_int(fb, set, ty, location).map(Some);
        }
        if works_on_bits(b) {
            return self.half_through_bits(fb, b, args, ty, location).map(Some);
        }
        if b == Builtin::Fma && is_half(ty) {
            return self.half_fma(fb, args, ty, location).map(Some);
        }
        let wide = Scalar::Float;
        let mut widened = Vec::with_capacity(args.len());
        for &a in args {
            let a_ty = fb.ty(a);
            if is_half(&a_ty) {
                let to = with_element(&a_ty, wide);
                let v = self.plain(fb, a)?;
                let v = self.convert(fb, v, &a_ty, &to, location)?;
                widened.push(Operand::Value(v, to));
            } else {
                widened.push(a);
            }
        }
        let wide_ty = if is_half(ty) {
            with_element(ty, wide)
        } else {
            *ty
        };
        let r = match self.builtin_on(fb, b, &widened, &wide_ty, location)? {
            Value::Plain(r) => r,
            _ => return Err(self.error(location, "internal compiler error: no value")),
        };
        let r = self.convert(fb, r, &wide_ty, ty, location)?;
        if b != Builtin::Fract {
            return Ok(Some(r));
        }
        // fract's float result just below 1 rounds to a half 1.0; the
        // result must stay below 1 (NaN stays: the comparison is false).
        let largest = self.float_constant(fb, ty, 1.0 - 2f64.powi(-11), location)?;
        let over = fb.binary(B::GreaterEqual, r, largest);
        Ok(Some(fb.select(over, largest, r)))
    }

    /// `fma` of `half`s, correctly rounded with no `double`: the product
    /// of two `half`s is exact in `float` (22 bits), the sum with the
    /// addend is rounded to nearest and its error found exactly (Knuth's
    /// two-sum), and a sum that was inexact is moved to the neighbour
    /// with an odd last bit on the error's side ("round to odd"). A
    /// `float` rounded to odd has 13 bits more than a `half`, so rounding
    /// it to the `half` is the same as rounding the exact value once.
    /// Through `float` alone (a `double`-less device), a sum that fell on
    /// a `half` tie gave the wrong `half` neighbour.
    fn half_fma(
        &mut self,
        fb: &mut FnBuilder,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let wide_ty = with_element(ty, Scalar::Float);
        let bits_ty = with_element(ty, Scalar::UInt);
        let mut v = Vec::with_capacity(3);
        for &a in args {
            let a_ty = fb.ty(a);
            let x = self.plain(fb, a)?;
            // A scalar argument of a vector fma is splat by the caller's
            // conversion rules: widen each as its own type, then splat.
            let widened = with_element(&a_ty, Scalar::Float);
            let x = self.convert(fb, x, &a_ty, &widened, location)?;
            v.push(if matches!(a_ty, Type::Vector(..)) {
                x
            } else {
                self.splat_to(fb, x, &wide_ty, location)?
            });
        }
        let product = fb.binary(B::Multiply, v[0], v[1]);
        let sum = fb.binary(B::Add, product, v[2]);
        // Two-sum: `sum + error` is `product + addend` exactly.
        let addend_part = fb.binary(B::Subtract, sum, product);
        let product_part = fb.binary(B::Subtract, sum, addend_part);
        let product_error = fb.binary(B::Subtract, product, product_part);
        let addend_error = fb.binary(B::Subtract, v[2], addend_part);
        let error = fb.binary(B::Add, product_error, addend_error);
        let sum_bits = self.bitcast(fb, sum, &bits_ty, location)?;
        let error_bits = self.bitcast(fb, error, &bits_ty, location)?;
        let (zero, one, sign, exponent) = (
            self.constant(fb, &bits_ty, 0, location)?,
            self.constant(fb, &bits_ty, 1, location)?,
            self.constant(fb, &bits_ty, 0x8000_0000, location)?,
            self.constant(fb, &bits_ty, 0x7f80_0000, location)?,
        );
        // Inexact (a zero error has no bits but the sign), even, and
        // finite (an infinite or NaN sum has a NaN error).
        let magnitude = self.constant(fb, &bits_ty, 0x7fff_ffff, location)?;
        let error_magnitude = fb.binary(B::And, error_bits, magnitude);
        let inexact = fb.binary(B::NotEqual, error_magnitude, zero);
        let last = fb.binary(B::And, sum_bits, one);
        let even = fb.binary(B::Equal, last, zero);
        let sum_exponent = fb.binary(B::And, sum_bits, exponent);
        let finite = fb.binary(B::NotEqual, sum_exponent, exponent);
        let inexact_even = fb.binary(B::And, inexact, even);
        let adjust = fb.binary(B::And, inexact_even, finite);
        // Toward the error: away from zero when it has the sum's sign.
        let signs = fb.binary(B::ExclusiveOr, sum_bits, error_bits);
        let sign_differs = fb.binary(B::And, signs, sign);
        let same_sign = fb.binary(B::Equal, sign_differs, zero);
        let up = fb.binary(B::Add, sum_bits, one);
        let down = fb.binary(B::Subtract, sum_bits, one);
        let moved = fb.select(same_sign, up, down);
        let odd_bits = fb.select(adjust, moved, sum_bits);
        let odd = self.bitcast(fb, odd_bits, &wide_ty, location)?;
        self.convert(fb, odd, &wide_ty, ty, location)
    }

    /// `value`, the result of a widened built-in (see [`Self::half_builtin`])
    /// for its output `pointer`, as the pointee's type: `float` results
    /// for a `half` pointee are rounded to it (`modf`, `fract`, `sincos`);
    /// anything else is stored as it is.
    pub(super) fn output_for(
        &mut self,
        fb: &mut FnBuilder,
        value: Handle<naga::Expression>,
        pointer: Operand,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        match self.pointee_of(fb, pointer) {
            Some(p) if is_half(&p.ty) => {
                let widened = with_element(&p.ty, Scalar::Float);
                self.convert(fb, value, &widened, &p.ty, location)
            }
            _ => Ok(value),
        }
    }

    /// `select`/`bitselect` on `half`: the same built-in on the `ushort`
    /// bits of the `half` operands.
    fn half_through_bits(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let mut bits_args = Vec::with_capacity(args.len());
        for &a in args {
            let a_ty = fb.ty(a);
            if is_half(&a_ty) {
                let to = with_element(&a_ty, Scalar::UShort);
                let v = self.plain(fb, a)?;
                let bits = self.reinterpret_bits(fb, v, &a_ty, &to, location)?;
                bits_args.push(Operand::Value(bits, to));
            } else {
                bits_args.push(a);
            }
        }
        let bits_ty = with_element(ty, Scalar::UShort);
        let bits = match self.builtin_on(fb, b, &bits_args, &bits_ty, location)? {
            Value::Plain(bits) => bits,
            _ => return Err(self.error(location, "internal compiler error: no value")),
        };
        self.half_from_bits(fb, bits, ty, location)
    }

    /// The `float` value of the halves whose bits are in the `u32` lanes of
    /// `bits` (of type `bits_ty`), computed with integer operations and an
    /// exact scaling, never a conversion a driver could fold away.
    fn half_value_exact(
        &mut self,
        fb: &mut FnBuilder,
        bits: Handle<naga::Expression>,
        bits_ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let mut c = |fb: &mut FnBuilder, v: u64| self.constant(fb, bits_ty, v, location);
        let (ten, mask5, mask10, sign_mask) =
            (c(fb, 10)?, c(fb, 0x1f)?, c(fb, 0x3ff)?, c(fb, 0x8000)?);
        let (sixteen, rebias, at23, at13) = (c(fb, 16)?, c(fb, 112)?, c(fb, 23)?, c(fb, 13)?);
        let (all_ones, zero, float_exponent) = (c(fb, 0x1f)?, c(fb, 0)?, c(fb, 0x7f80_0000)?);
        let shifted = fb.binary(B::ShiftRight, bits, ten);
        let exponent = fb.binary(B::And, shifted, mask5);
        let mantissa = fb.binary(B::And, bits, mask10);
        let sign = fb.binary(B::And, bits, sign_mask);
        let sign32 = fb.binary(B::ShiftLeft, sign, sixteen);
        let mantissa32 = fb.binary(B::ShiftLeft, mantissa, at13);
        // Normal: the exponent rebiased (15 -> 127), the mantissa widened.
        let biased = fb.binary(B::Add, exponent, rebias);
        let exponent32 = fb.binary(B::ShiftLeft, biased, at23);
        let normal = fb.binary(B::InclusiveOr, sign32, exponent32);
        let normal = fb.binary(B::InclusiveOr, normal, mantissa32);
        // Infinities and NaNs keep their mantissa.
        let special = fb.binary(B::InclusiveOr, sign32, float_exponent);
        let special = fb.binary(B::InclusiveOr, special, mantissa32);
        let is_special = fb.binary(B::Equal, exponent, all_ones);
        let float_bits = fb.select(is_special, special, normal);
        let float_ty = with_element(bits_ty, Scalar::Float);
        let value = self.bitcast(fb, float_bits, &float_ty, location)?;
        // Zeros and subnormals: the mantissa times 2^-24, a normal float.
        let scaled = fb.add(naga::Expression::As {
            expr: mantissa,
            kind: naga::ScalarKind::Float,
            convert: Some(4),
        });
        let unit = self.float_constant(fb, &float_ty, 2f64.powi(-24), location)?;
        let magnitude = fb.binary(B::Multiply, scaled, unit);
        let negated = fb.unary(naga::UnaryOperator::Negate, magnitude);
        let negative = fb.binary(B::NotEqual, sign, zero);
        let small = fb.select(negative, negated, magnitude);
        let is_small = fb.binary(B::Equal, exponent, zero);
        Ok(fb.select(is_small, small, value))
    }

    /// `copysign(x, y)` on `half`: x's magnitude bits and y's sign bit.
    /// Through `float` the sign of a NaN `y` would be lost: NVIDIA widens
    /// every `half` NaN to a positive one.
    fn half_copysign(
        &mut self,
        fb: &mut FnBuilder,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let x = self.plain(fb, args[0])?;
        let y = self.plain(fb, args[1])?;
        let bits_ty = with_element(ty, Scalar::UInt);
        let (magnitude, sign) = (
            self.constant(fb, &bits_ty, 0x7fff, location)?,
            self.constant(fb, &bits_ty, 0x8000, location)?,
        );
        let xb = half_to_bits(fb, x);
        let yb = half_to_bits(fb, y);
        let xb = fb.binary(B::And, xb, magnitude);
        let yb = fb.binary(B::And, yb, sign);
        let bits = fb.binary(B::InclusiveOr, xb, yb);
        Ok(bits_to_half(fb, bits))
    }

    /// `nextafter(x, y)` on `half` (at most 4 lanes): the neighbour of `x`
    /// towards `y`, by stepping the sign-magnitude bits: `y` itself when
    /// they are equal, NaN when either is, and from zero the smallest
    /// subnormal with `y`'s sign.
    fn half_nextafter(
        &mut self,
        fb: &mut FnBuilder,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let x = self.plain(fb, args[0])?;
        let y = self.plain(fb, args[1])?;
        let bits_ty = with_element(ty, Scalar::UInt);
        let xb = half_to_bits(fb, x);
        let yb = half_to_bits(fb, y);
        let zero = self.float_constant(fb, ty, 0.0, location)?;
        let (one, sign_bit) = (
            self.constant(fb, &bits_ty, 1, location)?,
            self.constant(fb, &bits_ty, 0x8000, location)?,
        );
        // Away from zero is +1 on the magnitude, towards it -1.
        let x_negative = fb.binary(B::Less, x, zero);
        let towards_up = fb.binary(B::Less, x, y);
        let away = fb.binary(B::NotEqual, x_negative, towards_up);
        let up = fb.binary(B::Add, xb, one);
        let down = fb.binary(B::Subtract, xb, one);
        let stepped = fb.select(away, up, down);
        // From +-0: the smallest subnormal on y's side.
        let y_sign = fb.binary(B::And, yb, sign_bit);
        let tiny = fb.binary(B::InclusiveOr, y_sign, one);
        let x_zero = fb.binary(B::Equal, x, zero);
        let stepped = fb.select(x_zero, tiny, stepped);
        let r = bits_to_half(fb, stepped);
        // Equal (including +0 and -0) gives y; a NaN gives the NaN.
        let equal = fb.binary(B::Equal, x, y);
        let r = fb.select(equal, y, r);
        let x_nan = fb.add(naga::Expression::Relational {
            fun: naga::RelationalFunction::IsNan,
            argument: x,
        });
        let y_nan = fb.add(naga::Expression::Relational {
            fun: naga::RelationalFunction::IsNan,
            argument: y,
        });
        let r = fb.select(y_nan, y, r);
        Ok(fb.select(x_nan, x, r))
    }

    /// `convert_half_rtz/_rtp/_rtn(x)`: the nearest `half`, moved one step
    /// where it lies on the wrong side of `x`. Halves are sign and
    /// magnitude, so a step of the bits by one moves the magnitude, through
    /// the subnormals, from zero (whose sign is `x`'s) and between the
    /// largest finite `half` and infinity. The side is found in `x`'s own
    /// type (integers in `float`: exact up to 2^24, and beyond that both
    /// past every finite `half`), and the sign from the bits, so no `half`
    /// comparison is involved.
    pub(in crate::lower) fn convert_half_directed(
        &mut self,
        fb: &mut FnBuilder,
        rounding: Rounding,
        arg: Operand,
        to: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let mut from = fb.ty(arg);
        let mut x = self.plain(fb, arg)?;
        if from.element().is_some_and(|s| s.is_integer()) {
            let widened = with_element(&from, Scalar::Float);
            x = self.convert(fb, x, &from, &widened, location)?;
            from = widened;
        }
        let nearest = self.convert(fb, x, &from, to, location)?;
        let bits_ty = with_element(to, Scalar::UInt);
        let bits = self.half_bits(fb, nearest, to, location)?;
        // The nearest half's value from its bits: NVIDIA folds a
        // conversion to half and back into nothing.
        let back = self.half_value_exact(fb, bits, &bits_ty, location)?;
        let float_ty = with_element(to, Scalar::Float);
        let back = self.convert(fb, back, &float_ty, &from, location)?;
        let sign_bit = self.constant(fb, &bits_ty, 0x8000, location)?;
        let zero = self.constant(fb, &bits_ty, 0, location)?;
        let sign = fb.binary(B::And, bits, sign_bit);
        let negative = fb.binary(B::NotEqual, sign, zero);
        let up = self.constant(fb, &bits_ty, 1, location)?;
        let down = self.constant(fb, &bits_ty, u64::from(u32::MAX), location)?;
        let (wrong_side, step) = match rounding {
            Rounding::Rtz => {
                let magnitude = fb.math(naga::MathFunction::Abs, back, None);
                let limit = fb.math(naga::MathFunction::Abs, x, None);
                (fb.binary(B::Greater, magnitude, limit), down)
            }
            Rounding::Rtp => (fb.binary(B::Less, back, x), fb.select(negative, down, up)),
            Rounding::Rtn => (
                fb.binary(B::Greater, back, x),
                fb.select(negative, up, down),
            ),
            Rounding::Rte | Rounding::Default => return Ok(nearest),
        };
        let stepped = fb.binary(B::Add, bits, step);
        let bits = fb.select(wrong_side, stepped, bits);
        self.half_from_bits(fb, bits, to, location)
    }

    /// `double` to `half`, rounded to nearest even. The direct conversion
    /// rounds twice on some drivers (through `float`: llvmpipe's LLVM 15
    /// does), which is wrong just past a tie. Rounding to `float` by
    /// round-to-odd first keeps a sticky bit for the second rounding
    /// (`float` has more than 11 + 2 significand bits), so the pair rounds
    /// exactly once.
    pub(in crate::lower) fn double_to_half(
        &mut self,
        fb: &mut FnBuilder,
        x: Handle<naga::Expression>,
        from: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let float_ty = with_element(from, Scalar::Float);
        let bits_ty = with_element(from, Scalar::UInt);
        let nearest = self.convert(fb, x, from, &float_ty, location)?;
        let back = self.convert(fb, nearest, &float_ty, from, location)?;
        let exact = fb.binary(B::Equal, back, x);
        let bits = self.bitcast(fb, nearest, &bits_ty, location)?;
        let one = self.constant(fb, &bits_ty, 1, location)?;
        let zero = self.constant(fb, &bits_ty, 0, location)?;
        let low = fb.binary(B::And, bits, one);
        let even = fb.binary(B::Equal, low, zero);
        // An inexact even result moves to its odd neighbour towards x.
        let inexact = fb.unary(naga::UnaryOperator::LogicalNot, exact);
        let fix = fb.binary(B::And, inexact, even);
        let (magnitude, limit) = (
            fb.math(naga::MathFunction::Abs, back, None),
            fb.math(naga::MathFunction::Abs, x, None),
        );
        let too_far = fb.binary(B::Greater, magnitude, limit);
        let down = fb.binary(B::Subtract, bits, one);
        let up = fb.binary(B::Add, bits, one);
        let odd = fb.select(too_far, down, up);
        let bits = fb.select(fix, odd, bits);
        let odd_float = self.bitcast(fb, bits, &float_ty, location)?;
        Ok(fb.add(naga::Expression::As {
            expr: odd_float,
            kind: naga::ScalarKind::Float,
            convert: Some(2),
        }))
    }
}
