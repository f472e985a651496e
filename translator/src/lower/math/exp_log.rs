//! Exponentials, logarithms and powers: `exp`, `exp2`, `exp10`, `expm1`,
//! `log`, `log2`, `log10`, `log1p`, `pow`, `pown`, `powr`, `rootn`,
//! `cbrt`.
//!
//! Exponentials reduce `x` to `k * log_b(2) + r` (Cody-Waite, with the
//! constant split so `k * hi` is exact), take `e^t - 1` of the remainder
//! from its Taylor polynomial and scale by `2^k` through the exponent
//! bits. Logarithms write `x = 2^e * m` with `m` in [sqrt(1/2), sqrt(2)),
//! and `log(m) = 2 atanh(s)`, `s = (m - 1) / (m + 1)`, with `s` carried as a
//! double-float so the powers can form `y * log2(x)` to about 2^-33 before
//! exponentiating.

use super::ops::{split_constant, Df, Ops, V};
use std::f64::consts::{LN_10, LN_2, LOG10_2, LOG10_E, LOG2_E, SQRT_2};

/// `e^t - 1` for |t| <= ln(2)/2 + a little: Taylor to t^8 (relative error
/// below 2^-30 there).
const EXPM1_TAYLOR: [f64; 7] = [
    1.0 / 2.0,
    1.0 / 6.0,
    1.0 / 24.0,
    1.0 / 120.0,
    1.0 / 720.0,
    1.0 / 5040.0,
    1.0 / 40320.0,
];

/// `(atanh(s) - s) / s^3 * 2` as a series in `s^2`, for |s| <= 0.1716
/// (`2 atanh(s) = 2s + s^3 * P(s^2)`), truncated below 2^-30 relative.
const ATANH_SERIES: [f64; 6] = [
    2.0 / 3.0,
    2.0 / 5.0,
    2.0 / 7.0,
    2.0 / 9.0,
    2.0 / 11.0,
    2.0 / 13.0,
];

/// `e^t - 1` for a reduced `t`.
pub(super) fn expm1_reduced(o: &mut Ops, t: V) -> V {
    let t2 = o.mul(t, t);
    let p = o.poly(t, &EXPM1_TAYLOR);
    o.mad(t2, p, t)
}

/// The reduction of `x` for base `b`: integer `k` (as f32) and `t` with
/// `b^x = 2^k * e^t`. `log_b2` is log_b(2) and `ln_b` is ln(b).
pub(super) fn reduce(o: &mut Ops, x: V, log_b2: f64, ln_b: f64) -> (V, V) {
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

/// Clamps `x` to [lo, hi] where the result has already under- or
/// overflowed (NaN passes through).
pub(super) fn clamp(o: &mut Ops, x: V, lo: f64, hi: f64) -> V {
    let (l, h) = (o.f(lo), o.f(hi));
    let above = o.gt(x, h);
    let x = o.sel(above, h, x);
    let below = o.lt(x, l);
    o.sel(below, l, x)
}

/// `b^x * 2^extra` for base `b` (see [`reduce`]); `limits` bound `x`
/// beyond which the result is 0 or infinite anyway.
pub(super) fn exp_base(
    o: &mut Ops,
    x: V,
    log_b2: f64,
    ln_b: f64,
    limits: (f64, f64),
    extra: i32,
) -> V {
    let x = clamp(o, x, limits.0, limits.1);
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
    let xc = clamp(o, x, -30.0, 89.0);
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
pub(super) fn log_parts(o: &mut Ops, x: V) -> (V, V, V) {
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
pub(super) fn log_combine(o: &mut Ops, (e, a, b): (V, V, V), c: f64, k: f64) -> Df {
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

/// The special values every logarithm shares: NaN below zero, -inf at
/// zero, +inf at +inf, NaN at NaN.
pub(super) fn log_domain(o: &mut Ops, x: V, r: V) -> V {
    let inf = o.inf();
    let at_inf = o.eq(x, inf);
    let r = o.sel(at_inf, inf, r);
    let zero = o.eqc(x, 0.0);
    let minus_inf = o.neg(inf);
    let r = o.sel(zero, minus_inf, r);
    let negative = o.ltc(x, 0.0);
    let nan = o.is_nan(x);
    let invalid = o.or(negative, nan);
    let q = o.nan();
    o.sel(invalid, q, r)
}

/// A logarithm with `log_base(2) = c`, `log_base(e) = k`.
pub(super) fn log_base(o: &mut Ops, x: V, c: f64, k: f64) -> V {
    let parts = log_parts(o, x);
    let l = log_combine(o, parts, c, k);
    let r = o.df_value(l);
    log_domain(o, x, r)
}

pub(super) fn log(o: &mut Ops, x: V) -> V {
    log_base(o, x, LN_2, 1.0)
}

pub(super) fn log2(o: &mut Ops, x: V) -> V {
    log_base(o, x, 1.0, LOG2_E)
}

pub(super) fn log10(o: &mut Ops, x: V) -> V {
    log_base(o, x, LOG10_2, LOG10_E)
}

/// `ln(1 + x)` without the special values: `u = 1 + x` rounded, its
/// logarithm, plus the rounding error's share `c / u`.
pub(super) fn log1p_value(o: &mut Ops, x: V) -> V {
    let one = o.f(1.0);
    let u = o.two_sum(one, x);
    let (e, a, b) = log_parts(o, u.hi);
    let correction = o.div(u.lo, u.hi);
    let b = o.add(b, correction);
    let l = log_combine(o, (e, a, b), LN_2, 1.0);
    o.df_value(l)
}

pub(super) fn log1p(o: &mut Ops, x: V) -> V {
    let r = log1p_value(o, x);
    let one = o.f(1.0);
    let u = o.add(x, one);
    let r = log_domain(o, u, r);
    // x = -1 makes u = 0 exactly; keep log1p(+-0) = +-0.
    let zero = o.eqc(x, 0.0);
    o.sel(zero, x, r)
}

/// `log2(ax)` as a double-float, for positive finite `ax`.
pub(super) fn log2_df(o: &mut Ops, ax: V) -> Df {
    let parts = log_parts(o, ax);
    log_combine(o, parts, 1.0, LOG2_E)
}

/// `|x|^y` for finite non-zero `|x|` and finite `y` (`y_extra` is added
/// to `y`: pown splits its integer into two exact floats).
fn pow_magnitude(o: &mut Ops, ax: V, y: V, y_extra: Option<V>) -> V {
    // Beyond 2^40 every |y log2|x|| (|x| != 1) over- or underflows anyway;
    // clamping keeps the exact products finite.
    let bound = 2f64.powi(40);
    let y = clamp(o, y, -bound, bound);
    let l = log2_df(o, ax);
    let mut z = o.df_mul(l, y);
    if let Some(y2) = y_extra {
        let z2 = o.df_mul(l, y2);
        z = o.df_add(z, z2);
    }
    exp2_df(o, z)
}

/// The magnitude at the edges (`|x|` zero or infinite, or `y` infinite):
/// 1 for |x| = 1, else infinite when |x| > 1 and y > 0 agree, else 0.
fn edge_magnitude(o: &mut Ops, ax: V, y_positive: V) -> V {
    let big = o.gtc(ax, 1.0);
    let agree = o.eq(big, y_positive);
    let (inf, zero, one) = (o.inf(), o.f(0.0), o.f(1.0));
    let r = o.sel(agree, inf, zero);
    let unit = o.eqc(ax, 1.0);
    o.sel(unit, one, r)
}

fn at_edge(o: &mut Ops, ax: V, y_infinite: Option<V>) -> V {
    let zero = o.eqc(ax, 0.0);
    let inf = o.inf();
    let infinite = o.eq(ax, inf);
    let edge = o.or(zero, infinite);
    match y_infinite {
        Some(yi) => o.or(edge, yi),
        None => edge,
    }
}

/// `|x|^y` (or `|x|^(1/n)`, `|x|^n`) for finite non-zero `|x|` and finite
/// `y`: the core the special-value handling below wraps, per float width.
pub(super) type Magnitude = fn(&mut Ops, V, V) -> V;

pub(super) fn pow(o: &mut Ops, x: V, y: V) -> V {
    pow_with(o, x, y, |o, ax, y| pow_magnitude(o, ax, y, None))
}

/// `pow` around the magnitude `core` (written over the float format).
pub(super) fn pow_with(o: &mut Ops, x: V, y: V, core: Magnitude) -> V {
    let ax = o.abs(x);
    let mag = core(o, ax, y);
    let ay = o.abs(y);
    let inf = o.inf();
    let y_inf = o.eq(ay, inf);
    let edge = at_edge(o, ax, Some(y_inf));
    let y_positive = o.gtc(y, 0.0);
    let edge_mag = edge_magnitude(o, ax, y_positive);
    let mag = o.sel(edge, edge_mag, mag);
    // Integer and odd-integer exponents (infinities count as even).
    let fy = o.floor(y);
    let y_int = o.eq(fy, y);
    let half = o.mulc(y, 0.5);
    let fh = o.floor(half);
    let even = o.eq(fh, half);
    let odd = o.not(even);
    let odd = o.and(y_int, odd);
    let negative = o.sign_bit(x);
    let flip = o.and(negative, odd);
    let minus = o.flip_sign(mag);
    let r = o.sel(flip, minus, mag);
    // A finite negative x to a non-integer power has no real value.
    let minus_inf = o.neg(inf);
    let finite_negative = o.ltc(x, 0.0);
    let not_minus_inf = o.gt(x, minus_inf);
    let finite_negative = o.and(finite_negative, not_minus_inf);
    let fraction = o.not(y_int);
    let complex = o.and(finite_negative, fraction);
    let (nx, ny) = (o.is_nan(x), o.is_nan(y));
    let any_nan = o.or(nx, ny);
    let invalid = o.or(complex, any_nan);
    let q = o.nan();
    let r = o.sel(invalid, q, r);
    let x_one = o.eqc(x, 1.0);
    let y_zero = o.eqc(y, 0.0);
    let unit = o.or(x_one, y_zero);
    let one = o.f(1.0);
    o.sel(unit, one, r)
}

pub(super) fn powr(o: &mut Ops, x: V, y: V) -> V {
    powr_with(o, x, y, |o, ax, y| pow_magnitude(o, ax, y, None))
}

pub(super) fn powr_with(o: &mut Ops, x: V, y: V, core: Magnitude) -> V {
    let ax = o.abs(x);
    let mag = core(o, ax, y);
    let ay = o.abs(y);
    let inf = o.inf();
    let y_inf = o.eq(ay, inf);
    let edge = at_edge(o, ax, Some(y_inf));
    let y_positive = o.gtc(y, 0.0);
    let edge_mag = edge_magnitude(o, ax, y_positive);
    let r = o.sel(edge, edge_mag, mag);
    let y_zero = o.eqc(y, 0.0);
    let x_one = o.eqc(x, 1.0);
    let one = o.f(1.0);
    let unit = o.or(y_zero, x_one);
    let r = o.sel(unit, one, r);
    // NaN: x < 0, 0^0, inf^0, 1^inf and NaN operands.
    let negative = o.ltc(x, 0.0);
    let x_zero = o.eqc(x, 0.0);
    let x_inf = o.eq(x, inf);
    let zero_or_inf = o.or(x_zero, x_inf);
    let bad_zero = o.and(zero_or_inf, y_zero);
    let bad_one = o.and(x_one, y_inf);
    let (nx, ny) = (o.is_nan(x), o.is_nan(y));
    let mut invalid = o.or(negative, bad_zero);
    for c in [bad_one, nx, ny] {
        invalid = o.or(invalid, c);
    }
    let q = o.nan();
    o.sel(invalid, q, r)
}

/// `x^n` for an integer `n` (exact parity, and both halves of `n` exact
/// as floats so large `n` lose nothing).
pub(super) fn pown(o: &mut Ops, x: V, n: V) -> V {
    pown_with(o, x, n, |o, ax, n| {
        let low_mask = o.i(0xffff);
        let low = o.and(n, low_mask);
        let high = o.sub(n, low);
        let (y1, y2) = (o.float_from_int(high), o.float_from_int(low));
        pow_magnitude(o, ax, y1, Some(y2))
    })
}

/// `pown` around `core(|x|, n)`.
pub(super) fn pown_with(o: &mut Ops, x: V, n: V, core: Magnitude) -> V {
    let ax = o.abs(x);
    let mag = core(o, ax, n);
    let edge = at_edge(o, ax, None);
    let zero = o.i(0);
    let positive = o.gt(n, zero);
    let edge_mag = edge_magnitude(o, ax, positive);
    let mag = o.sel(edge, edge_mag, mag);
    let one_i = o.i(1);
    let parity = o.and(n, one_i);
    let odd = o.ne(parity, zero);
    let negative = o.sign_bit(x);
    let flip = o.and(negative, odd);
    let minus = o.flip_sign(mag);
    let r = o.sel(flip, minus, mag);
    let nan = o.is_nan(x);
    let q = o.nan();
    let r = o.sel(nan, q, r);
    let n_zero = o.eq(n, zero);
    let one = o.f(1.0);
    o.sel(n_zero, one, r)
}

/// `x^(1/n)`: `log2|x| / n` divided as a double-float (the quotient's
/// residual is exact), so the rounding of 1/n costs nothing.
pub(super) fn rootn(o: &mut Ops, x: V, n: V) -> V {
    rootn_with(o, x, n, |o, ax, n| {
        let l = log2_df(o, ax);
        let z = divide_by_int(o, l, n);
        exp2_df(o, z)
    })
}

/// `(hi + lo) / n` for an integer `n`, as a double-float: the quotient's
/// residual is exact.
pub(super) fn divide_by_int(o: &mut Ops, l: Df, n: V) -> Df {
    let nf = o.float_from_int(n);
    let q = o.div(l.hi, nf);
    let p = o.two_prod(q, nf);
    let r = o.sub(l.hi, p.hi);
    let r = o.sub(r, p.lo);
    let r = o.add(r, l.lo);
    let q_lo = o.div(r, nf);
    o.fast_two_sum(q, q_lo)
}

/// `rootn` around `core(|x|, n)`.
pub(super) fn rootn_with(o: &mut Ops, x: V, n: V, core: Magnitude) -> V {
    let ax = o.abs(x);
    let mag = core(o, ax, n);
    let edge = at_edge(o, ax, None);
    let zero = o.i(0);
    let positive = o.gt(n, zero);
    let edge_mag = edge_magnitude(o, ax, positive);
    let mag = o.sel(edge, edge_mag, mag);
    let one_i = o.i(1);
    let parity = o.and(n, one_i);
    let odd = o.ne(parity, zero);
    let negative = o.sign_bit(x);
    let flip = o.and(negative, odd);
    let minus = o.flip_sign(mag);
    let r = o.sel(flip, minus, mag);
    // NaN: n = 0, an even root of a negative number, NaN x.
    let n_zero = o.eq(n, zero);
    let even = o.not(odd);
    let below = o.ltc(x, 0.0);
    let even_negative = o.and(below, even);
    let nan = o.is_nan(x);
    let invalid = o.or(n_zero, even_negative);
    let invalid = o.or(invalid, nan);
    let q = o.nan();
    o.sel(invalid, q, r)
}

pub(super) fn cbrt(o: &mut Ops, x: V) -> V {
    let three = o.i(3);
    // cbrt(+-0) = +-0 and cbrt(+-inf) = +-inf, which rootn gives too.
    rootn(o, x, three)
}
