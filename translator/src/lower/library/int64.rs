//! The integer built-ins that 64-bit operands need in pieces: Vulkan's bit
//! instructions (`clz`, `ctz`, `popcount`) take 32-bit operands only, and a
//! 64 x 64-bit product's high half (`mul_hi`, `mad_hi`, `mad_sat`) needs
//! four 32 x 32-bit partial products. Also `mad_sat` and `upsample` for
//! every width, which need a wider intermediate.

use crate::builtins::Builtin;
use crate::diagnostic::Location;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::emit::Emitter;
use crate::lower::function::FnBuilder;
use crate::types::{Scalar, Type};
use naga::{BinaryOperator as B, Handle};

/// `ty`'s shape with `s` elements.
fn shaped(ty: &Type, s: Scalar) -> Type {
    match ty {
        Type::Vector(_, n) => Type::Vector(s, *n),
        _ => Type::Scalar(s),
    }
}

impl ModuleBuilder<'_> {
    /// `x`'s bits as `ulong`s of `ty`'s shape.
    fn as_u64(
        &mut self,
        fb: &mut FnBuilder,
        x: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        self.bitcast(fb, x, &shaped(ty, Scalar::ULong), location)
    }

    /// The low and high 32-bit halves of 64-bit `x`, as `uint`s.
    fn halves(
        &mut self,
        fb: &mut FnBuilder,
        x: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<(Handle<naga::Expression>, Handle<naga::Expression>)> {
        let (u64_ty, u32_ty) = (shaped(ty, Scalar::ULong), shaped(ty, Scalar::UInt));
        let bits = self.as_u64(fb, x, ty, location)?;
        let shift = self.shift_amount(fb, ty, 32, location)?;
        let high = fb.binary(B::ShiftRight, bits, shift);
        Ok((
            self.convert(fb, bits, &u64_ty, &u32_ty, location)?,
            self.convert(fb, high, &u64_ty, &u32_ty, location)?,
        ))
    }

    /// `clz`, `ctz` and `popcount` of 64-bit `x` from its halves.
    pub(super) fn bit_count64(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        x: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let u32_ty = shaped(ty, Scalar::UInt);
        let (low, high) = self.halves(fb, x, ty, location)?;
        let count = |fb: &mut Emitter, f, v| fb.math(f, v, None);
        let counted = match b {
            Builtin::Popcount => {
                let (l, h) = (
                    count(fb, naga::MathFunction::CountOneBits, low),
                    count(fb, naga::MathFunction::CountOneBits, high),
                );
                fb.binary(B::Add, l, h)
            }
            _ => {
                // clz looks at the high half first, ctz at the low one; a
                // zero half counts 32 (naga's count of a zero) and defers
                // to the other.
                let (first, second, f) = if b == Builtin::Clz {
                    (high, low, naga::MathFunction::CountLeadingZeros)
                } else {
                    (low, high, naga::MathFunction::CountTrailingZeros)
                };
                let zero = self.constant(fb, &u32_ty, 0, location)?;
                let first_empty = fb.binary(B::Equal, first, zero);
                let (in_first, in_second) = (count(fb, f, first), count(fb, f, second));
                let thirty_two = self.constant(fb, &u32_ty, 32, location)?;
                let past_first = fb.binary(B::Add, thirty_two, in_second);
                fb.select(first_empty, past_first, in_first)
            }
        };
        self.convert(fb, counted, &u32_ty, ty, location)
    }

    /// `rotate(x, n)` on 64-bit lanes.
    pub(super) fn rotate64(
        &mut self,
        fb: &mut FnBuilder,
        x: Handle<naga::Expression>,
        n: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let (u64_ty, u32_ty) = (shaped(ty, Scalar::ULong), shaped(ty, Scalar::UInt));
        let ux = self.as_u64(fb, x, ty, location)?;
        let un = self.as_u64(fb, n, ty, location)?;
        let mask = self.constant(fb, &u64_ty, 63, location)?;
        let left = fb.binary(B::And, un, mask);
        let width = self.constant(fb, &u64_ty, 64, location)?;
        let right = fb.binary(B::Subtract, width, left);
        // A shift by 64 is undefined; by 0 both parts are the value.
        let right = fb.binary(B::And, right, mask);
        let left = self.convert(fb, left, &u64_ty, &u32_ty, location)?;
        let right = self.convert(fb, right, &u64_ty, &u32_ty, location)?;
        let high = fb.binary(B::ShiftLeft, ux, left);
        let low = fb.binary(B::ShiftRight, ux, right);
        let rotated = fb.binary(B::InclusiveOr, high, low);
        self.bitcast(fb, rotated, ty, location)
    }

    /// The full 128-bit product of 64-bit `x` and `y` as (low, high) `ulong`
    /// halves, signed or unsigned as `ty` is.
    fn product128(
        &mut self,
        fb: &mut FnBuilder,
        x: Handle<naga::Expression>,
        y: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<(Handle<naga::Expression>, Handle<naga::Expression>)> {
        let (u64_ty, u32_ty) = (shaped(ty, Scalar::ULong), shaped(ty, Scalar::UInt));
        let (x0, x1) = self.halves(fb, x, ty, location)?;
        let (y0, y1) = self.halves(fb, y, ty, location)?;
        let mut wide = |fb: &mut FnBuilder, v| self.convert(fb, v, &u32_ty, &u64_ty, location);
        let (x0, x1, y0, y1) = (wide(fb, x0)?, wide(fb, x1)?, wide(fb, y0)?, wide(fb, y1)?);
        let p00 = fb.binary(B::Multiply, x0, y0);
        let p01 = fb.binary(B::Multiply, x0, y1);
        let p10 = fb.binary(B::Multiply, x1, y0);
        let p11 = fb.binary(B::Multiply, x1, y1);
        let shift = self.shift_amount(fb, ty, 32, location)?;
        let low_mask = self.constant(fb, &u64_ty, u64::from(u32::MAX), location)?;
        // The middle column: the carries out of the low word.
        let p00_high = fb.binary(B::ShiftRight, p00, shift);
        let (p01_low, p10_low) = (
            fb.binary(B::And, p01, low_mask),
            fb.binary(B::And, p10, low_mask),
        );
        let middle = fb.binary(B::Add, p00_high, p01_low);
        let middle = fb.binary(B::Add, middle, p10_low);
        let (p01_high, p10_high, middle_high) = (
            fb.binary(B::ShiftRight, p01, shift),
            fb.binary(B::ShiftRight, p10, shift),
            fb.binary(B::ShiftRight, middle, shift),
        );
        let high = fb.binary(B::Add, p11, p01_high);
        let high = fb.binary(B::Add, high, p10_high);
        let mut high = fb.binary(B::Add, high, middle_high);
        let middle_low = fb.binary(B::ShiftLeft, middle, shift);
        let p00_low = fb.binary(B::And, p00, low_mask);
        let low = fb.binary(B::InclusiveOr, middle_low, p00_low);
        if ty.element().is_some_and(|s| s.is_signed()) {
            // Two's complement: subtract y for a negative x and x for a
            // negative y from the unsigned product's high half.
            let zero = self.constant(fb, ty, 0, location)?;
            let zero_u = self.constant(fb, &u64_ty, 0, location)?;
            for (sign_of, other) in [(x, y), (y, x)] {
                let negative = fb.binary(B::Less, sign_of, zero);
                let other = self.as_u64(fb, other, ty, location)?;
                let correction = fb.select(negative, other, zero_u);
                high = fb.binary(B::Subtract, high, correction);
            }
        }
        Ok((low, high))
    }

    /// `mul_hi` on 64-bit lanes.
    pub(super) fn mul_hi64(
        &mut self,
        fb: &mut FnBuilder,
        x: Handle<naga::Expression>,
        y: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let (_, high) = self.product128(fb, x, y, ty, location)?;
        self.bitcast(fb, high, ty, location)
    }

    /// `mad_sat(x, y, z)`: `x * y + z` clamped to the type's range, computed
    /// exactly (in 32 or 64 bits for narrower types, in 128 for 64-bit).
    pub(super) fn mad_sat(
        &mut self,
        fb: &mut FnBuilder,
        [x, y, z]: [Handle<naga::Expression>; 3],
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let s = ty.element().unwrap_or(Scalar::Int);
        let bits = s.size() * 8;
        let (min, max) = if s.is_signed() {
            let max = (1u64 << (bits - 1)) - 1;
            (max.wrapping_add(1).wrapping_neg(), max)
        } else {
            (0, u64::MAX >> (64 - bits))
        };
        if bits < 64 {
            // Exact in the next register width: |x * y + z| < 2^(2 bits).
            let wide_scalar = match (bits < 32, s.is_signed()) {
                (true, true) => Scalar::Int,
                (true, false) => Scalar::UInt,
                (false, true) => Scalar::Long,
                (false, false) => Scalar::ULong,
            };
            if bits == 32 && !self.caps.int64 {
                return Err(self.error(
                    location,
                    "mad_sat on 32-bit integers needs 64-bit integer support",
                ));
            }
            let wide_ty = shaped(ty, wide_scalar);
            let (wx, wy, wz) = (
                self.convert(fb, x, ty, &wide_ty, location)?,
                self.convert(fb, y, ty, &wide_ty, location)?,
                self.convert(fb, z, ty, &wide_ty, location)?,
            );
            let product = fb.binary(B::Multiply, wx, wy);
            let sum = fb.binary(B::Add, product, wz);
            let (lo, hi) = (
                self.constant(fb, &wide_ty, min, location)?,
                self.constant(fb, &wide_ty, max, location)?,
            );
            let clamped = fb.math(naga::MathFunction::Max, sum, Some(lo));
            let clamped = fb.math(naga::MathFunction::Min, clamped, Some(hi));
            return self.convert(fb, clamped, &wide_ty, ty, location);
        }
        // 64-bit: the 128-bit sum of the product and z, then whether it
        // fits 64 bits.
        let u64_ty = shaped(ty, Scalar::ULong);
        let (low, high) = self.product128(fb, x, y, ty, location)?;
        let uz = self.as_u64(fb, z, ty, location)?;
        let sum_low = fb.binary(B::Add, low, uz);
        let carry = fb.binary(B::Less, sum_low, low);
        let (one, zero_u) = (
            self.constant(fb, &u64_ty, 1, location)?,
            self.constant(fb, &u64_ty, 0, location)?,
        );
        let carry = fb.select(carry, one, zero_u);
        let (lo, hi) = (
            self.constant(fb, ty, min, location)?,
            self.constant(fb, ty, max, location)?,
        );
        let result = self.bitcast(fb, sum_low, ty, location)?;
        if !s.is_signed() {
            let high = fb.binary(B::Add, high, carry);
            let fits = fb.binary(B::Equal, high, zero_u);
            return Ok(fb.select(fits, result, hi));
        }
        // Signed: z's sign extension joins the high word; the sum fits when
        // the high word is the sign extension of the low one.
        let shift = self.shift_amount(fb, ty, 63, location)?;
        let z_extension = fb.binary(B::ShiftRight, z, shift);
        let z_extension = self.as_u64(fb, z_extension, ty, location)?;
        let high = fb.binary(B::Add, high, z_extension);
        let high = fb.binary(B::Add, high, carry);
        let low_extension = fb.binary(B::ShiftRight, result, shift);
        let low_extension = self.as_u64(fb, low_extension, ty, location)?;
        let fits = fb.binary(B::Equal, high, low_extension);
        let signed_high = self.bitcast(fb, high, ty, location)?;
        let zero = self.constant(fb, ty, 0, location)?;
        let negative = fb.binary(B::Less, signed_high, zero);
        let bound = fb.select(negative, lo, hi);
        Ok(fb.select(fits, result, bound))
    }

    /// `upsample(hi, lo)`: `hi` in the upper half of the result type
    /// `ty`, `lo` (unsigned) in the lower.
    pub(super) fn upsample(
        &mut self,
        fb: &mut FnBuilder,
        [hi, lo]: [Handle<naga::Expression>; 2],
        hi_ty: &Type,
        lo_ty: &Type,
        ty: &Type,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let bits = lo_ty.element().map_or(8, |s| s.size() * 8);
        let high = self.convert(fb, hi, hi_ty, ty, location)?;
        let low = self.convert(fb, lo, lo_ty, ty, location)?;
        let shift = self.shift_amount(fb, ty, u64::from(bits), location)?;
        let shifted = fb.binary(B::ShiftLeft, high, shift);
        let joined = fb.binary(B::InclusiveOr, shifted, low);
        self.wrap_narrow(fb, joined, ty)
    }
}
