//! The math built-ins under `-cl-fast-relaxed-math` (or
//! `-cl-unsafe-math-optimizations`): OpenCL then allows the hardware
//! exponential and logarithm (`exp`/`exp2` within 3 + floor(|2x|) ulp,
//! `log`/`log2` within 2^-21 absolute on [0.5, 2], which GLSL.std.450
//! meets) and the "derived implementations" its relaxed table names for
//! the rest (`exp10(x) = exp2(x log2 10)`, `pow(x, y) = +-exp2(y
//! log2|x|)`, `sinh(x) = (exp(x) - exp(-x)) / 2`, ...).

use super::ops::{Ops, V};
use naga::MathFunction as M;
use std::f64::consts::{LOG10_2, LOG2_10};

pub(super) fn exp10(o: &mut Ops, x: V) -> V {
    let scaled = o.mulc(x, LOG2_10);
    o.math(M::Exp2, scaled)
}

pub(super) fn log10(o: &mut Ops, x: V) -> V {
    let l = o.math(M::Log2, x);
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
    let l = o.math(M::Log2, ax);
    let z = o.mul(y, l);
    let p = o.math(M::Exp2, z);
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
    let l = o.math(M::Log2, x);
    let z = o.mul(y, l);
    o.math(M::Exp2, z)
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
