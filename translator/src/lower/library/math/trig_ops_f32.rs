//! What the `float` trigonometry adds to the vocabulary of
//! [`super::ops`]: it must hold on devices that flush subnormal results to
//! zero, divide through a reciprocal, or assume floats are finite (NVIDIA
//! does all three), so it classifies floats by their bits, divides by
//! significands, and keeps its error terms normal; also its constants as
//! float pairs and the pair arithmetic they enter. (The `double`
//! trigonometry needs none of this: drivers keep f64 subnormals, and its
//! double-double steps use the vocabulary as it is.)

use super::consts::{self, float_parts, HALF_PI, PI, QUARTER_PI};
use super::ops::{Df, Ops, V};
use naga::BinaryOperator as B;

/// pi/2 as three floats whose sum carries about 72 bits.
pub(super) const PIO2: [f64; 3] = float_parts(HALF_PI);
pub(super) const PI_PAIR: [f64; 2] = float_parts(PI);
pub(super) const PIO4: [f64; 2] = float_parts(QUARTER_PI);
pub(super) const INV_PI: [f64; 2] = float_parts(consts::INV_PI);
/// Below this magnitude the error terms of a product with a constant
/// near 1 can be subnormal, which some devices flush to zero: such values
/// are multiplied by [`TINY_SCALE`] first and the result scaled back.
pub(super) const TINY: f64 = 1.0 / (1u64 << 60) as f64;
pub(super) const TINY_SCALE: f64 = (1u128 << 64) as f64;

/// `x` with its sign bit flipped where `sign` (a `u32` holding only
/// the sign bit, or 0) has it set.
pub(super) fn flip_sign_by(o: &mut Ops, x: V, sign: V) -> V {
    let bits = o.uint_bits(x);
    let flipped = o.xor(bits, sign);
    o.as_float(flipped)
}

/// The sign bit of `x`, in place, as a `u32`.
pub(super) fn sign_word(o: &mut Ops, x: V) -> V {
    let bits = o.uint_bits(x);
    let mask = o.u(0x8000_0000);
    o.and(bits, mask)
}

/// `x` without its sign bit, as a `u32`: the integer tests below
/// classify by bits because a driver may assume floats are finite and
/// fold float comparisons with NaN or infinity.
pub(super) fn magnitude_bits(o: &mut Ops, x: V) -> V {
    let bits = o.uint_bits(x);
    let mask = o.u(0x7fff_ffff);
    o.and(bits, mask)
}

pub(super) fn nan_by_bits(o: &mut Ops, x: V) -> V {
    let m = magnitude_bits(o, x);
    let inf = o.u(0x7f80_0000);
    o.gt(m, inf)
}

pub(super) fn infinite_by_bits(o: &mut Ops, x: V) -> V {
    let m = magnitude_bits(o, x);
    let inf = o.u(0x7f80_0000);
    o.eq(m, inf)
}

/// Zero or subnormal: what a device that flushes subnormals reads as
/// zero, so every device takes the same path.
pub(super) fn is_zero_or_subnormal(o: &mut Ops, x: V) -> V {
    let m = magnitude_bits(o, x);
    let smallest_normal = o.u(0x0080_0000);
    o.lt(m, smallest_normal)
}

/// NaN where `x` is infinite or NaN, `value` elsewhere.
pub(super) fn nan_unless_finite(o: &mut Ops, x: V, value: V) -> V {
    let m = magnitude_bits(o, x);
    let inf = o.u(0x7f80_0000);
    let finite = o.lt(m, inf);
    let nan = o.nan();
    o.sel(finite, value, nan)
}

/// n / d to within about half an ulp whatever the hardware's division
/// (Vulkan allows 2.5 ulp). The significands are divided (both in
/// [1, 2), so every intermediate of the residual correction is a normal
/// float on any device) and the exponent difference applied after, in
/// two steps so that only the last multiplication can round (where the
/// quotient is subnormal). Zeros, infinities and NaNs are chosen by
/// bit tests, never left to the hardware: a device that divides through
/// a reciprocal makes NaN of finite / inf. Subnormal operands count as
/// zeros, as on devices that flush them.
pub(super) fn div_significands(o: &mut Ops, n: V, d: V) -> V {
    let (n_bits, d_bits) = (o.uint_bits(n), o.uint_bits(d));
    let sign_mask = o.u(0x8000_0000);
    let signs = o.xor(n_bits, d_bits);
    let sign = o.and(signs, sign_mask);
    let (nm, n_exponent) = significand_and_exponent(o, n_bits);
    let (dm, d_exponent) = significand_and_exponent(o, d_bits);
    let q = o.bin(B::Divide, nm, dm);
    let residual = residual(o, nm, q, dm);
    let correction = o.bin(B::Divide, residual, dm);
    let q = o.add(q, correction);
    // Beyond +-200 the result over- or underflows anyway.
    let k = o.sub(n_exponent, d_exponent);
    let (low, high) = (o.i(-200), o.i(200));
    let k = o.max(k, low);
    let k = o.min(k, high);
    // Arithmetic shift (k is signed; the amount must be unsigned).
    let k1 = o.shr(k, 1);
    let k2 = o.sub(k, k1);
    let s1 = o.pow2(k1);
    let s2 = o.pow2(k2);
    let q = o.mul(q, s1);
    let q = o.mul(q, s2);
    let (n_zero, d_zero) = (is_zero_or_subnormal(o, n), is_zero_or_subnormal(o, d));
    let (n_inf, d_inf) = (infinite_by_bits(o, n), infinite_by_bits(o, d));
    let zero_result = o.or(n_zero, d_inf);
    let signed_zero = o.as_float(sign);
    let q = o.sel(zero_result, signed_zero, q);
    let infinite_result = o.or(n_inf, d_zero);
    let inf_bits = o.u(0x7f80_0000);
    let signed_inf = o.or(sign, inf_bits);
    let signed_inf = o.as_float(signed_inf);
    let q = o.sel(infinite_result, signed_inf, q);
    let (n_nan, d_nan) = (nan_by_bits(o, n), nan_by_bits(o, d));
    let nan = o.or(n_nan, d_nan);
    let zeros = o.and(n_zero, d_zero);
    let nan = o.or(nan, zeros);
    let infinities = o.and(n_inf, d_inf);
    let nan = o.or(nan, infinities);
    let nan_value = o.nan();
    o.sel(nan, nan_value, q)
}

/// A float's bits as its significand with the sign (in [1, 2) in
/// magnitude) and its biased exponent (an `i32`).
fn significand_and_exponent(o: &mut Ops, bits: V) -> (V, V) {
    let keep = o.u(0x807f_ffff);
    let one = o.u(0x3f80_0000);
    let m = o.and(bits, keep);
    let m = o.or(m, one);
    let m = o.as_float(m);
    let byte = o.u(0xff);
    let e = o.shr(bits, 23);
    let e = o.and(e, byte);
    let e = o.sint_bits(e);
    (m, e)
}

/// n - q d for q close to n / d, exactly up to the last rounding.
pub(super) fn residual(o: &mut Ops, n: V, q: V, d: V) -> V {
    let p = o.two_prod(q, d);
    // n - p.hi is exact (Sterbenz): p.hi is within a factor 2 of n.
    let r = o.sub(n, p.hi);
    o.sub(r, p.lo)
}

/// `c - p` for a constant `c` given as a pair and |p| <= |c.hi|.
pub(super) fn constant_minus(o: &mut Ops, c: [f64; 2], p: Df) -> Df {
    let c_hi = o.f(c[0]);
    let c_lo = o.f(c[1]);
    let minus_hi = o.neg(p.hi);
    let head = o.fast_two_sum(c_hi, minus_hi);
    let tail = o.sub(c_lo, p.lo);
    let lo = o.add(head.lo, tail);
    o.fast_two_sum(head.hi, lo)
}

/// `v * (c.hi + c.lo)` as a pair.
pub(super) fn times_constant_pair(o: &mut Ops, v: Df, c: [f64; 2]) -> Df {
    let c_hi = o.f(c[0]);
    let c_lo = o.f(c[1]);
    let head = o.two_prod(v.hi, c_hi);
    let cross = o.mul(v.hi, c_lo);
    let tail = o.mad(v.lo, c_hi, cross);
    let lo = o.add(head.lo, tail);
    let hi = head.hi;
    o.fast_two_sum(hi, lo)
}
