//! The `float` cores of the exponentials and logarithms: `exp`, `exp2`,
//! `exp10` and `expm1` themselves, and the logarithm, `2^z` and `e^|x|/2`
//! that the shared functions (`logarithms.rs`, `powers.rs`,
//! `hyperbolic.rs`) build on through [`super::precision::F32`].
//!
//! Exponentials reduce `x` to `k * log_b(2) + r` (Cody-Waite, with the
//! constant split so `k * hi` is exact), take `e^t - 1` of the remainder
//! from its Taylor polynomial and scale by `2^k` through the exponent
//! bits. Logarithms write `x = 2^e * m` with `m` in [sqrt(1/2), sqrt(2)),
//! and `log(m) = 2 atanh(s)`, `s = (m - 1) / (m + 1)`, with `s` carried as a
//! double-float so the powers can form `y * log2(x)` to about 2^-33 before
//! exponentiating. (`double` has no wider format to lean on: its cores,
//! `exp_log_f64.rs`, are double-double throughout.)

use super::logarithms::{LogBase, LN};
use super::ops::{split_constant, Df, Ops, V};
use super::series::{atanh_series, expm1_taylor};
use std::f64::consts::{LN_10, LN_2, LOG10_2, SQRT_2};

/// `e^t - 1` for |t| <= ln(2)/2 + a little: Taylor to t^8 (relative error
/// below 2^-30 there).
const EXPM1_TAYLOR: [f64; 7] = expm1_taylor();

/// `(atanh(s) - s) / s^3 * 2` as a series in `s^2`, for |s| <= 0.1716
/// (`2 atanh(s) = 2s + s^3 * P(s^2)`), truncated below 2^-30 relative.
const ATANH_SERIES: [f64; 6] = atanh_series(3);

/// `e^t - 1` for a reduced `t`.
fn expm1_reduced(o: &mut Ops, t: V) -> V {
    let t2 = o.mul(t, t);
    let p = o.poly(t, &EXPM1_TAYLOR);
    o.mad(t2, p, t)
}

/// The reduction of `x` for base `b`: integer `k` (as f32) and `t` with
/// `b^x = 2^k * e^t`. `log_b2` is log_b(2) and `ln_b` is ln(b).
fn reduce(o: &mut Ops, x: V, log_b2: f64, ln_b: f64) -> (V, V) {
    let k = o.mulc(x, 1.0 / log_b2);
    let k = o.rint(k);
    // k has at most 9 bits, so k * hi is exact and x - k * hi nearly so.
    let (hi, lo) = split_constant(log_b2, 15);
    let (hi, lo) = (o.f(hi), o.f(lo));
    let khi = o.mul(k, hi);
    let r = o.sub(x, khi);
    let klo = o.mul(k, lo);
    let r = o.sub(r, klo);
    let t = if ln_b == 1.0 { r } else { o.mulc(r, ln_b) };
    (k, t)
}

/// `b^x * 2^extra` for base `b` (see [`reduce`]); `limits` bound `x`
/// beyond which the result is 0 or infinite anyway.
fn exp_base(o: &mut Ops, x: V, log_b2: f64, ln_b: f64, limits: (f64, f64), extra: i32) -> V {
    let x = o.clamp(x, limits.0, limits.1);
    let (k, t) = reduce(o, x, log_b2, ln_b);
    let p = expm1_reduced(o, t);
    let one = o.f(1.0);
    let e = o.add(one, p);
    let k = o.int_from_float(k);
    let k = if extra != 0 {
        let extra = o.i(extra);
        o.add(k, extra)
    } else {
        k
    };
    o.scale(e, k)
}

pub(super) fn exp(o: &mut Ops, x: V) -> V {
    exp_base(o, x, LN_2, 1.0, (-104.0, 89.0), 0)
}

pub(super) fn exp2(o: &mut Ops, x: V) -> V {
    exp_base(o, x, 1.0, LN_2, (-152.0, 129.0), 0)
}

pub(super) fn exp10(o: &mut Ops, x: V) -> V {
    exp_base(o, x, LOG10_2, LN_10, (-46.0, 39.0), 0)
}

/// `2^(hi + lo)` for a double-float exponent.
pub(super) fn exp2_df(o: &mut Ops, z: Df) -> V {
    let (top, bottom) = (o.f(130.0), o.f(-160.0));
    let over = o.gt(z.hi, top);
    let under = o.lt(z.hi, bottom);
    let hi = o.sel(over, top, z.hi);
    let hi = o.sel(under, bottom, hi);
    let out = o.or(over, under);
    let zero = o.f(0.0);
    let lo = o.sel(out, zero, z.lo);
    let k = o.rint(hi);
    let r = o.sub(hi, k);
    let r = o.add(r, lo);
    let t = o.mulc(r, LN_2);
    let p = expm1_reduced(o, t);
    let one = o.f(1.0);
    let e = o.add(one, p);
    let k = o.int_from_float(k);
    o.scale(e, k)
}

pub(super) fn expm1(o: &mut Ops, x: V) -> V {
    let xc = o.clamp(x, -30.0, 89.0);
    let (k, t) = reduce(o, xc, LN_2, 1.0);
    let p = expm1_reduced(o, t);
    // 2^k - 1 + 2^k p: exact terms for small k, so no cancellation.
    let cap = o.f(64.0);
    let kk = o.min(k, cap);
    let ki = o.int_from_float(kk);
    let two_k = o.pow2(ki);
    let one = o.f(1.0);
    let shifted = o.sub(two_k, one);
    let small = o.mad(two_k, p, shifted);
    let whole = o.add(one, p);
    let ki = o.int_from_float(k);
    let large = o.scale(whole, ki);
    let large = o.sub(large, one);
    let far = o.gtc(k, 24.0);
    let r = o.sel(far, large, small);
    // expm1(+-0) = +-0.
    let zero = o.eqc(x, 0.0);
    o.sel(zero, x, r)
}

/// For positive finite `x`: `(e, a, b)` with `ln(x) = e ln(2) + a + b`,
/// `a` of 12 significant bits and `b` small (a double-float for `ln(m)`).
fn log_parts(o: &mut Ops, x: V) -> (V, V, V) {
    // Subnormals are scaled into the normal range first.
    let tiny = o.ltc(x, f64::from(f32::MIN_POSITIVE));
    let scaled = o.mulc(x, 16_777_216.0);
    let x = o.sel(tiny, scaled, x);
    let bits = o.bits(x);
    let field = o.shr(bits, 23);
    let byte = o.i(0xff);
    let field = o.and(field, byte);
    let (normal_bias, scaled_bias) = (o.i(127), o.i(127 + 24));
    let bias = o.sel(tiny, scaled_bias, normal_bias);
    let e = o.sub(field, bias);
    let mantissa = o.i(0x007f_ffff);
    let mantissa = o.and(bits, mantissa);
    let one_bits = o.i(0x3f80_0000);
    let m = o.or(mantissa, one_bits);
    let m = o.as_float(m);
    let big = o.gtc(m, SQRT_2);
    let half = o.mulc(m, 0.5);
    let m = o.sel(big, half, m);
    let carry = o.one_zero(big);
    let e = o.add(e, carry);
    let e = o.float_from_int(e);
    let one = o.f(1.0);
    let f = o.sub(m, one);
    // s = f / (2 + f) as s_hi (12 bits) + s_lo: the residual f - s_hi d is
    // exact but for the tiny s_hi * d_lo.
    let two = o.f(2.0);
    let d = o.add(f, two);
    let d_minus_two = o.sub(d, two);
    let d_lo = o.sub(f, d_minus_two);
    let q = o.div(f, d);
    let s_hi = o.high_half(q);
    let (d_hh, d_hl) = o.split(d);
    let p1 = o.mul(s_hi, d_hh);
    let r = o.sub(f, p1);
    let p2 = o.mul(s_hi, d_hl);
    let r = o.sub(r, p2);
    let p3 = o.mul(s_hi, d_lo);
    let r = o.sub(r, p3);
    let s_lo = o.div(r, d);
    let s = o.add(s_hi, s_lo);
    let s2 = o.mul(s, s);
    let s3 = o.mul(s2, s);
    let series = o.poly(s2, &ATANH_SERIES);
    let tail = o.mul(s3, series);
    let a = o.mulc(s_hi, 2.0);
    let b = o.mad(s_lo, two, tail);
    (e, a, b)
}

/// `e * c + (a + b) * k` as a double-float: a logarithm in the base where
/// `c` = log_base(2) and `k` = log_base(e).
fn log_combine(o: &mut Ops, (e, a, b): (V, V, V), c: f64, k: f64) -> Df {
    let (ch, cl) = split_constant(c, 15);
    let (kh, kl) = split_constant(k, 12);
    let eh = o.mulc(e, ch);
    let el = o.mulc(e, cl);
    let ah = o.mulc(a, kh);
    let al = o.mulc(a, kl);
    let kk = o.f(k);
    let al = o.mad(b, kk, al);
    let s = o.two_sum(eh, ah);
    let rest = o.add(el, al);
    let lo = o.add(s.lo, rest);
    o.fast_two_sum(s.hi, lo)
}

/// `log_base(x)` as a double-float, for positive finite `x`.
pub(super) fn log(o: &mut Ops, x: V, base: &LogBase) -> Df {
    let parts = log_parts(o, x);
    log_combine(o, parts, base.of_two, base.of_e.map_or(1.0, |c| c.0))
}

/// `ln(u.hi + u.lo)` for an exact sum `u`: the logarithm of `u.hi` plus
/// the share `u.lo / u.hi` of the rest.
pub(super) fn ln_sum(o: &mut Ops, u: Df) -> V {
    let (e, a, b) = log_parts(o, u.hi);
    let correction = o.div(u.lo, u.hi);
    let b = o.add(b, correction);
    let l = log_combine(o, (e, a, b), LN.of_two, 1.0);
    o.df_value(l)
}

/// `ln(2a)` for large positive finite `a` (the exponent of `a` plus one).
pub(super) fn ln_twice(o: &mut Ops, a: V) -> V {
    let (e, m, b) = log_parts(o, a);
    let e = o.addc(e, 1.0);
    let l = log_combine(o, (e, m, b), LN.of_two, 1.0);
    o.df_value(l)
}

/// `e^|x| / 2`, without overflowing before the halving.
pub(super) fn half_exp(o: &mut Ops, ax: V) -> V {
    exp_base(o, ax, LN_2, 1.0, (-104.0, 90.0), -1)
}
