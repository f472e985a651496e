//! The math built-ins under `-cl-fast-relaxed-math` (or
//! `-cl-unsafe-math-optimizations`): the "derived implementations" the
//! relaxed table names (`exp10(x) = exp2(x log2 10)`, `pow(x, y) = +-exp2(y
//! log2|x|)`, ...) on the hardware's exponential and logarithm.
//!
//! `exp`, `exp2`, `log` and `log2` themselves stay the precise ones
//! (3 ulp, within the relaxed 3 + floor(|2x|) ulp and 2^-21 absolute on
//! [0.5, 2] by construction): Vulkan's `Exp2` promises only 3 + 2|x| ulp,
//! just outside the relaxed table, and lavapipe's missed it, and a driver
//! may flush subnormal inputs and results (`log2(0x1p-141f)` came out
//! about -127). The hardware functions the derived ones use are therefore
//! kept in the normal range ([`log2_hw`], [`exp2_hw`]).

use super::ops::{Ops, V};
use naga::MathFunction as M;
use std::f64::consts::{LOG10_2, LOG2_10};

/// Vulkan's `Log2`, with a subnormal argument scaled by 2^24 into the
/// normal range first and 24 taken off after (exact scaling; the
/// subtraction's rounding is at most half an ulp of a larger result).
fn log2_hw(o: &mut Ops, x: V) -> V {
    let small = o.ltc(x, f64::from(f32::MIN_POSITIVE));
    let scaled = o.mulc(x, 16_777_216.0);
    let arg = o.sel(small, scaled, x);
    let l = o.math(M::Log2, arg);
    let back = o.addc(l, -24.0);
    o.sel(small, back, l)
}

/// Vulkan's `Exp2`, computed in the normal range for a subnormal result:
/// 2^(z + 24) 2^-24, where z + 24 is exact (z below -126 is a multiple
/// of 2^-16, z + 24 above -126 one of 2^-17) and the final product rounds
/// once into the subnormals.
fn exp2_hw(o: &mut Ops, z: V) -> V {
    let low = o.ltc(z, -126.0);
    let shifted = o.addc(z, 24.0);
    let arg = o.sel(low, shifted, z);
    let e = o.math(M::Exp2, arg);
    let down = o.mulc(e, 1.0 / 16_777_216.0);
    o.sel(low, down, e)
}

pub(super) fn exp10(o: &mut Ops, x: V) -> V {
    let scaled = o.mulc(x, LOG2_10);
    exp2_hw(o, scaled)
}

pub(super) fn log10(o: &mut Ops, x: V) -> V {
    let l = log2_hw(o, x);
    o.mulc(l, LOG10_2)
}

pub(super) fn expm1(o: &mut Ops, x: V) -> V {
    let e = o.math(M::Exp, x);
    o.addc(e, -1.0)
}

pub(super) fn log1p(o: &mut Ops, x: V) -> V {
    let u = o.addc(x, 1.0);
    o.math(M::Log, u)
}

/// `exp2(y log2|x|)`, negated for negative x when `odd`; 0 at x = 0 for
/// y > 0 (the relaxed table leaves 0^0 and negative x with non-integer y
/// undefined).
fn signed_power(o: &mut Ops, x: V, y: V, odd: V) -> V {
    let ax = o.abs(x);
    let l = log2_hw(o, ax);
    let z = o.mul(y, l);
    let p = exp2_hw(o, z);
    let below = o.ltc(x, 0.0);
    let flip = o.and(below, odd);
    let minus = o.flip_sign(p);
    o.sel(flip, minus, p)
}

fn odd_float(o: &mut Ops, y: V) -> V {
    let half = o.mulc(y, 0.5);
    let fh = o.floor(half);
    let fy = o.floor(y);
    let integer = o.eq(fy, y);
    let even = o.eq(fh, half);
    let odd = o.not(even);
    o.and(integer, odd)
}

fn odd_int(o: &mut Ops, n: V) -> V {
    let one = o.i(1);
    let bit = o.and(n, one);
    let zero = o.i(0);
    o.ne(bit, zero)
}

pub(super) fn pow(o: &mut Ops, x: V, y: V) -> V {
    let odd = odd_float(o, y);
    signed_power(o, x, y, odd)
}

pub(super) fn powr(o: &mut Ops, x: V, y: V) -> V {
    let l = log2_hw(o, x);
    let z = o.mul(y, l);
    exp2_hw(o, z)
}

pub(super) fn pown(o: &mut Ops, x: V, n: V) -> V {
    let odd = odd_int(o, n);
    let y = o.float_from_int(n);
    signed_power(o, x, y, odd)
}

pub(super) fn rootn(o: &mut Ops, x: V, n: V) -> V {
    let odd = odd_int(o, n);
    let nf = o.float_from_int(n);
    let one = o.f(1.0);
    let y = o.div(one, nf);
    signed_power(o, x, y, odd)
}

pub(super) fn cbrt(o: &mut Ops, x: V) -> V {
    let three = o.i(3);
    rootn(o, x, three)
}
