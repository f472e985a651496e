//! Hyperbolic functions and their inverses, and `hypot`, built on the
//! exponential and logarithm cores of [`super::exp_log`].

use super::exp_log::{self, log1p_value, log_combine, log_parts};
use super::ops::{Ops, V};
use std::f64::consts::LN_2;

/// `(sinh(x) - x) / x^3` in `x^2`: Taylor to x^13, for |x| < 1.
const SINH_TAYLOR: [f64; 6] = [
    1.0 / 6.0,
    1.0 / 120.0,
    1.0 / 5040.0,
    1.0 / 362_880.0,
    1.0 / 39_916_800.0,
    1.0 / 6_227_020_800.0,
];

/// `e^|x| / 2`, without overflowing before the halving.
fn half_exp(o: &mut Ops, ax: V) -> V {
    exp_log::exp_base(o, ax, LN_2, 1.0, (-104.0, 90.0), -1)
}

pub(super) fn sinh(o: &mut Ops, x: V) -> V {
    sinh_with(o, x, half_exp, &SINH_TAYLOR)
}

pub(super) fn cosh(o: &mut Ops, x: V) -> V {
    cosh_with(o, x, half_exp)
}

/// `sinh` in either precision, given that precision's `e^|x| / 2` and
/// `(sinh(x) - x) / x^3` series: the series below 1, the exponentials
/// above.
pub(super) fn sinh_with(o: &mut Ops, x: V, half_exp: fn(&mut Ops, V) -> V, taylor: &[f64]) -> V {
    let ax = o.abs(x);
    let h = half_exp(o, ax);
    let quarter = o.f(0.25);
    let inverse = o.div(quarter, h);
    let large = o.sub(h, inverse);
    let x2 = o.mul(ax, ax);
    let x3 = o.mul(x2, ax);
    let p = o.poly(x2, taylor);
    let small = o.mad(x3, p, ax);
    let near = o.ltc(ax, 1.0);
    let r = o.sel(near, small, large);
    o.copysign(r, x)
}

/// `cosh` in either precision: `e^|x| / 2 + 1 / (4 (e^|x| / 2))`.
pub(super) fn cosh_with(o: &mut Ops, x: V, half_exp: fn(&mut Ops, V) -> V) -> V {
    let ax = o.abs(x);
    let h = half_exp(o, ax);
    let quarter = o.f(0.25);
    let inverse = o.div(quarter, h);
    o.add(h, inverse)
}

/// `tanh |x| = E / (E + 2)` with `E = expm1(2|x|)`; 1 beyond 10.
pub(super) fn tanh(o: &mut Ops, x: V) -> V {
    let ax = o.abs(x);
    let ax = exp_log::clamp(o, ax, 0.0, 10.0);
    let twice = o.mulc(ax, 2.0);
    let e = exp_log::expm1(o, twice);
    let d = o.addc(e, 2.0);
    let r = o.div(e, d);
    o.copysign(r, x)
}

/// `ln(2|x|)` for large |x| (the exponent of `x` plus one).
fn log_twice(o: &mut Ops, ax: V) -> V {
    let (e, a, b) = log_parts(o, ax);
    let e = o.addc(e, 1.0);
    let l = log_combine(o, (e, a, b), LN_2, 1.0);
    o.df_value(l)
}

/// `sqrt(a)` corrected by one Newton step from an exact residual (Vulkan's
/// sqrt may be several ulp off).
pub(super) fn sqrt(o: &mut Ops, a: V) -> V {
    let s = o.math(naga::MathFunction::Sqrt, a);
    let p = o.two_prod(s, s);
    let r = o.sub(a, p.hi);
    let r = o.sub(r, p.lo);
    let twice = o.mulc(s, 2.0);
    let step = o.div(r, twice);
    let refined = o.add(s, step);
    // 0, infinity and NaN keep the hardware result.
    let zero = o.eqc(s, 0.0);
    let inf = o.inf();
    let infinite = o.eq(s, inf);
    let keep = o.or(zero, infinite);
    o.sel(keep, s, refined)
}

pub(super) fn asinh(o: &mut Ops, x: V) -> V {
    let ax = o.abs(x);
    // log1p(|x| + x^2 / (1 + sqrt(x^2 + 1))), no cancellation near 0.
    let x2 = o.mul(ax, ax);
    let w = o.addc(x2, 1.0);
    let root = sqrt(o, w);
    let d = o.addc(root, 1.0);
    let q = o.div(x2, d);
    let w = o.add(ax, q);
    let near = log1p_value(o, w);
    let far = log_twice(o, ax);
    let big = o.gtc(ax, 4096.0);
    let r = o.sel(big, far, near);
    let inf = o.inf();
    let infinite = o.eq(ax, inf);
    let r = o.sel(infinite, inf, r);
    let r = o.copysign(r, x);
    // asinh(+-0) = +-0 comes out of the formula; NaN needs keeping.
    let nan = o.is_nan(x);
    o.sel(nan, x, r)
}

pub(super) fn acosh(o: &mut Ops, x: V) -> V {
    // log1p(t + sqrt(t (2 + t))) with t = x - 1 exact below 2^24.
    let t = o.addc(x, -1.0);
    let two_t = o.addc(t, 2.0);
    let prod = o.mul(t, two_t);
    let root = sqrt(o, prod);
    let w = o.add(t, root);
    let near = log1p_value(o, w);
    let far = log_twice(o, x);
    let big = o.gtc(x, 4096.0);
    let r = o.sel(big, far, near);
    let inf = o.inf();
    let infinite = o.eq(x, inf);
    let r = o.sel(infinite, inf, r);
    let one = o.eqc(x, 1.0);
    let zero = o.f(0.0);
    let r = o.sel(one, zero, r);
    let below = o.ltc(x, 1.0);
    let nan = o.is_nan(x);
    let invalid = o.or(below, nan);
    let q = o.nan();
    o.sel(invalid, q, r)
}

/// `atanh x = (log1p(|x|) - log1p(-|x|)) / 2` with x's sign.
pub(super) fn atanh(o: &mut Ops, x: V) -> V {
    let ax = o.abs(x);
    let up = exp_log::log1p(o, ax);
    let minus = o.neg(ax);
    let down = exp_log::log1p(o, minus);
    let d = o.sub(up, down);
    let r = o.mulc(d, 0.5);
    let r = o.copysign(r, x);
    let zero = o.eqc(x, 0.0);
    o.sel(zero, x, r)
}

/// `sqrt(x^2 + y^2)` on operands scaled by a power of two so neither
/// square over- or underflows.
/// Written over the float format: serves f32 and f64.
pub(super) fn hypot(o: &mut Ops, x: V, y: V) -> V {
    let (ax, ay) = (o.abs(x), o.abs(y));
    let m = o.max(ax, ay);
    let bits = o.bits(m);
    let field = o.exponent_field(bits);
    let bias = o.i(-o.bias());
    let exponent = o.add(field, bias);
    let (lo, hi) = (o.i(1 - o.bias()), o.i(o.bias() - 1));
    let exponent = o.max(exponent, lo);
    let exponent = o.min(exponent, hi);
    let down = o.neg(exponent);
    let down = o.pow2(down);
    let (a, b) = (o.mul(ax, down), o.mul(ay, down));
    let a2 = o.mul(a, a);
    let b2 = o.mul(b, b);
    let sum = o.add(a2, b2);
    let root = sqrt(o, sum);
    let r = o.scale(root, exponent);
    // hypot(inf, NaN) = inf; otherwise NaN propagates.
    let inf = o.inf();
    let (xi, yi) = (o.eq(ax, inf), o.eq(ay, inf));
    let infinite = o.or(xi, yi);
    o.sel(infinite, inf, r)
}
