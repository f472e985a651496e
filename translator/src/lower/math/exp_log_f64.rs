//! Exponentials, logarithms and powers on `double`: `exp`, `exp2`,
//! `exp10`, `expm1`, `log`, `log2`, `log10`, `log1p`, `pow`, `pown`,
//! `powr`, `rootn`, `cbrt`.
//!
//! Vulkan has no f64 transcendentals, so these are software throughout,
//! in double-double (`Df`) intermediates. Every exponential goes through
//! base 2: `b^x = 2^z` with `z = x log2(b)` as a double-double, `z = k + r`
//! with integer `k`, and `2^r = e^t` with `t = r ln(2)` (|t| <= 0.35)
//! from its Taylor polynomial. The logarithm writes `x = 2^e m` with `m`
//! in [sqrt(1/2), sqrt(2)) and `ln(m) = 2 atanh(s)`, `s = (m - 1) / (m + 1)`,
//! keeping `s`, `s^2` and the leading series terms double-double, so a
//! power's `y log2|x|` (up to about 1075 in size) is still accurate to
//! well below an ulp of the result. The special values are the f32
//! library's, written over the float format.

use super::exp_log::{self, log_domain};
use super::ops::{Df, Ops, V};
use std::f64::consts;

/// ln(2), log2(e), log2(10), log10(e) and 2/3 as the nearest double plus
/// the nearest double to the rest (std's constants are the nearest
/// doubles).
pub(super) const LN_2: (f64, f64) = (consts::LN_2, 2.319_046_813_846_299_6e-17);
pub(super) const LOG2_E: (f64, f64) = (consts::LOG2_E, 2.035_527_374_093_103_3e-17);
const LOG2_10: (f64, f64) = (consts::LOG2_10, 1.661_617_516_973_592e-16);
const LOG10_E: (f64, f64) = (consts::LOG10_E, 1.098_319_650_216_765e-17);
const TWO_THIRDS: (f64, f64) = (0.666_666_666_666_666_6, 3.700_743_415_417_188e-17);

/// `(e^t - 1 - t) / t^2` as a polynomial in `t`: Taylor coefficients
/// 1/2! .. 1/15!, below 2^-60 relative for |t| <= 0.35.
const EXPM1_TAYLOR: [f64; 14] = {
    let mut c = [0.0; 14];
    let mut factorial = 1.0;
    let mut n = 0;
    while n < 14 {
        factorial *= (n + 2) as f64;
        c[n] = 1.0 / factorial;
        n += 1;
    }
    c
};

/// `(2 atanh(s) - 2s - 2s^3/3) / s^5` as a polynomial in `u = s^2`:
/// 2/5, 2/7, .. 2/23, below 2^-60 relative for |s| <= 0.1716.
const ATANH_TAIL: [f64; 10] = {
    let mut c = [0.0; 10];
    let mut n = 0;
    while n < 10 {
        c[n] = 2.0 / (2 * n + 5) as f64;
        n += 1;
    }
    c
};

pub(super) fn constant(o: &mut Ops, (hi, lo): (f64, f64)) -> Df {
    Df {
        hi: o.f(hi),
        lo: o.f(lo),
    }
}

/// `a * b` for double-doubles.
pub(super) fn dd_mul(o: &mut Ops, a: Df, b: Df) -> Df {
    let p = o.two_prod(a.hi, b.hi);
    let cross1 = o.mul(a.hi, b.lo);
    let cross2 = o.mul(a.lo, b.hi);
    let cross = o.add(cross1, cross2);
    let lo = o.add(p.lo, cross);
    o.fast_two_sum(p.hi, lo)
}

/// `x * (hi + lo)` for a double-double constant.
pub(super) fn mul_constant(o: &mut Ops, x: V, c: (f64, f64)) -> Df {
    let c = constant(o, c);
    o.df_mul(c, x)
}

/// Clamps `x` to [lo, hi] (NaN passes through).
fn clamp(o: &mut Ops, x: V, lo: f64, hi: f64) -> V {
    exp_log::clamp(o, x, lo, hi)
}

/// `2^(z.hi + z.lo)` as `2^k e^t`: `k` (an integral f64) and `t` with
/// |t| <= ln(2)/2 + a little, a double-double.
pub(super) fn reduce(o: &mut Ops, z: Df) -> (V, Df) {
    let (top, bottom) = (o.f(1100.0), o.f(-1100.0));
    let over = o.gt(z.hi, top);
    let under = o.lt(z.hi, bottom);
    let hi = o.sel(over, top, z.hi);
    let hi = o.sel(under, bottom, hi);
    let out = o.or(over, under);
    let zero = o.f(0.0);
    let lo = o.sel(out, zero, z.lo);
    let k = o.rint(hi);
    // Exact: hi is within half of the integer k.
    let r = o.sub(hi, k);
    let r = o.two_sum(r, lo);
    let ln2 = constant(o, LN_2);
    let t = dd_mul(o, r, ln2);
    (k, t)
}

/// `e^t - 1` for a reduced double-double `t`, as a double-double.
pub(super) fn expm1_reduced(o: &mut Ops, t: Df) -> Df {
    let t2 = o.mul(t.hi, t.hi);
    let p = o.poly(t.hi, &EXPM1_TAYLOR);
    let q = o.mul(t2, p);
    // e^(th + tl) - 1 = (e^th - 1) + tl e^th, with e^th ~ 1 + th.
    let tail = o.mul(t.lo, t.hi);
    let tail = o.add(tail, t.lo);
    let lo = o.add(q, tail);
    o.fast_two_sum(t.hi, lo)
}

/// `2^k` times `1 + m` for an integral f64 `k` in [-1100, 1100].
pub(super) fn scale_one_plus(o: &mut Ops, k: V, m: Df) -> V {
    let one = o.f(1.0);
    let s = o.fast_two_sum(one, m.hi);
    let lo = o.add(s.lo, m.lo);
    let v = o.add(s.hi, lo);
    let k = o.int_from_float(k);
    o.scale(v, k)
}

/// `2^z` for a double-double `z`.
fn exp2_dd(o: &mut Ops, z: Df) -> V {
    let (k, t) = reduce(o, z);
    let m = expm1_reduced(o, t);
    scale_one_plus(o, k, m)
}

pub(super) fn exp(o: &mut Ops, x: V) -> V {
    let x = clamp(o, x, -800.0, 800.0);
    let z = mul_constant(o, x, LOG2_E);
    exp2_dd(o, z)
}

pub(super) fn exp2(o: &mut Ops, x: V) -> V {
    let x = clamp(o, x, -1200.0, 1200.0);
    let zero = o.f(0.0);
    exp2_dd(o, Df { hi: x, lo: zero })
}

pub(super) fn exp10(o: &mut Ops, x: V) -> V {
    let x = clamp(o, x, -400.0, 400.0);
    let z = mul_constant(o, x, LOG2_10);
    exp2_dd(o, z)
}

pub(super) fn expm1(o: &mut Ops, x: V) -> V {
    let xc = clamp(o, x, -40.0, 800.0);
    let z = mul_constant(o, xc, LOG2_E);
    let (k, t) = reduce(o, z);
    let m = expm1_reduced(o, t);
    // (2^k - 1) + 2^k m: 2^k - 1 and 2^k m.hi are exact for k <= 52, so
    // nothing cancels; beyond, the -1 is below the rounding of 2^k (1 + m).
    let cap = o.f(52.0);
    let kk = o.min(k, cap);
    let ki = o.int_from_float(kk);
    let two_k = o.pow2(ki);
    let one = o.f(1.0);
    let shifted = o.sub(two_k, one);
    let lead = o.mul(two_k, m.hi);
    let s = o.two_sum(shifted, lead);
    let tail = o.mul(two_k, m.lo);
    let lo = o.add(s.lo, tail);
    let small = o.add(s.hi, lo);
    let large = scale_one_plus(o, k, m);
    let large = o.sub(large, one);
    let far = o.gt(k, cap);
    let r = o.sel(far, large, small);
    // expm1(x) = x below 2^-60 (and for +-0).
    let ax = o.abs(x);
    let tiny = o.ltc(ax, 2f64.powi(-60));
    o.sel(tiny, x, r)
}

/// `ln(x)` as a double-double, for positive finite `x`.
pub(super) fn ln_dd(o: &mut Ops, x: V) -> Df {
    // Subnormals are scaled into the normal range first.
    let tiny = o.ltc(x, f64::MIN_POSITIVE);
    let scaled = o.mulc(x, 2f64.powi(54));
    let x = o.sel(tiny, scaled, x);
    let bits = o.bits(x);
    let field = o.exponent_field(bits);
    let (normal_bias, scaled_bias) = (o.i(1023), o.i(1023 + 54));
    let bias = o.sel(tiny, scaled_bias, normal_bias);
    let e = o.sub(field, bias);
    let rest = o.sign_and_mantissa(bits);
    let one_field = o.i(1023);
    let m = o.with_exponent_field(rest, one_field);
    let big = o.gtc(m, std::f64::consts::SQRT_2);
    let half = o.mulc(m, 0.5);
    let m = o.sel(big, half, m);
    let carry = o.one_zero(big);
    let e = o.add(e, carry);
    let e = o.float_from_int(e);
    let one = o.f(1.0);
    // Exact (Sterbenz).
    let f = o.sub(m, one);
    // s = f / (2 + f): d = 2 + f as a double-double, the quotient's
    // residual from an exact product.
    let two = o.f(2.0);
    let d = o.add(f, two);
    let d_minus_two = o.sub(d, two);
    let d_lo = o.sub(f, d_minus_two);
    let q = o.div(f, d);
    let p = o.two_prod(q, d);
    let r = o.sub(f, p.hi);
    let r = o.sub(r, p.lo);
    let p3 = o.mul(q, d_lo);
    let r = o.sub(r, p3);
    let s_lo = o.div(r, d);
    let s = o.fast_two_sum(q, s_lo);
    // ln(m) = 2s + s * s^2 (2/3 + s^2 R(s^2)).
    let sq = o.two_prod(s.hi, s.hi);
    let cross = o.mul(s.hi, s.lo);
    let cross = o.mulc(cross, 2.0);
    let sq_lo = o.add(sq.lo, cross);
    let s2 = o.fast_two_sum(sq.hi, sq_lo);
    let tail = o.poly(s2.hi, &ATANH_TAIL);
    let tail = o.mul(tail, s2.hi);
    let two_thirds = constant(o, TWO_THIRDS);
    let c = o.fast_two_sum(two_thirds.hi, tail);
    let c_lo = o.add(c.lo, two_thirds.lo);
    let c = o.fast_two_sum(c.hi, c_lo);
    let t = dd_mul(o, s2, c);
    let st = dd_mul(o, s, t);
    let two_s = Df {
        hi: o.mulc(s.hi, 2.0),
        lo: o.mulc(s.lo, 2.0),
    };
    let ln_m = o.df_add(two_s, st);
    let e_ln2 = mul_constant(o, e, LN_2);
    o.df_add(e_ln2, ln_m)
}

fn log_in(o: &mut Ops, x: V, base: Option<(f64, f64)>) -> V {
    let ln = ln_dd(o, x);
    let l = match base {
        Some(c) => {
            let c = constant(o, c);
            dd_mul(o, ln, c)
        }
        None => ln,
    };
    let r = o.df_value(l);
    log_domain(o, x, r)
}

pub(super) fn log(o: &mut Ops, x: V) -> V {
    log_in(o, x, None)
}

pub(super) fn log2(o: &mut Ops, x: V) -> V {
    log_in(o, x, Some(LOG2_E))
}

pub(super) fn log10(o: &mut Ops, x: V) -> V {
    log_in(o, x, Some(LOG10_E))
}

pub(super) fn log1p(o: &mut Ops, x: V) -> V {
    // ln(1 + x) = ln(u) + c / u for u + c = 1 + x exactly.
    let one = o.f(1.0);
    let u = o.two_sum(one, x);
    let ln = ln_dd(o, u.hi);
    let correction = o.div(u.lo, u.hi);
    let lo = o.add(ln.lo, correction);
    let r = o.add(ln.hi, lo);
    let r = log_domain(o, u.hi, r);
    // log1p(x) = x below 2^-60 (and for +-0).
    let ax = o.abs(x);
    let tiny = o.ltc(ax, 2f64.powi(-60));
    o.sel(tiny, x, r)
}

/// `log2(ax)` as a double-double, for positive finite `ax`.
fn log2_dd(o: &mut Ops, ax: V) -> Df {
    let ln = ln_dd(o, ax);
    let c = constant(o, LOG2_E);
    dd_mul(o, ln, c)
}

/// `|x|^y` for finite non-zero `|x|` and finite `y`.
fn pow_magnitude(o: &mut Ops, ax: V, y: V) -> V {
    // Beyond 2^64 every |y log2|x|| (|x| != 1) over- or underflows anyway;
    // clamping keeps the exact products finite.
    let bound = 2f64.powi(64);
    let y = clamp(o, y, -bound, bound);
    let l = log2_dd(o, ax);
    let z = o.df_mul(l, y);
    exp2_dd(o, z)
}

pub(super) fn pow(o: &mut Ops, x: V, y: V) -> V {
    exp_log::pow_with(o, x, y, pow_magnitude)
}

pub(super) fn powr(o: &mut Ops, x: V, y: V) -> V {
    exp_log::powr_with(o, x, y, pow_magnitude)
}

pub(super) fn pown(o: &mut Ops, x: V, n: V) -> V {
    exp_log::pown_with(o, x, n, |o, ax, n| {
        // Every int is exact as a double.
        let y = o.float_from_int(n);
        pow_magnitude(o, ax, y)
    })
}

pub(super) fn rootn(o: &mut Ops, x: V, n: V) -> V {
    exp_log::rootn_with(o, x, n, |o, ax, n| {
        let l = log2_dd(o, ax);
        let z = exp_log::divide_by_int(o, l, n);
        exp2_dd(o, z)
    })
}

pub(super) fn cbrt(o: &mut Ops, x: V) -> V {
    let three = o.i(3);
    rootn(o, x, three)
}
