//! The `double` cores of the exponentials and logarithms: `exp`, `exp2`,
//! `exp10` and `expm1` themselves, and the logarithm, `2^z` and `e^|x|/2`
//! that the shared functions (`logarithms.rs`, `powers.rs`,
//! `hyperbolic.rs`) build on through [`super::precision::F64`]; the
//! double-double steps the rest of the `double` library uses.
//!
//! Vulkan has no f64 transcendentals, so these are software throughout,
//! in double-double (`Df`) intermediates: `double` has no wider format to
//! carry the error terms the `float` cores (`exp_log_f32.rs`) keep in
//! double-float, and its polynomials need twice the terms. Every
//! exponential goes through base 2: `b^x = 2^z` with `z = x log2(b)` as a
//! double-double, `z = k + r` with integer `k`, and `2^r = e^t` with
//! `t = r ln(2)` (|t| <= 0.35) from its Taylor polynomial. The logarithm
//! writes `x = 2^e m` with `m` in [sqrt(1/2), sqrt(2)) and
//! `ln(m) = 2 atanh(s)`, `s = (m - 1) / (m + 1)`, keeping `s`, `s^2` and the
//! leading series terms double-double, so a power's `y log2|x|` (up to
//! about 1075 in size) is still accurate to well below an ulp of the
//! result.

use super::consts::{LN_2, LOG2_10, LOG2_E};
use super::logarithms::LogBase;
use super::ops::{Df, Ops, V};
use super::series::{atanh_series, expm1_taylor};

/// 2/3 as a double-double.
const TWO_THIRDS: (f64, f64) = (0.666_666_666_666_666_6, 3.700_743_415_417_188e-17);

/// `(e^t - 1 - t) / t^2` as a polynomial in `t`: Taylor coefficients
/// 1/2! .. 1/15!, below 2^-60 relative for |t| <= 0.35.
const EXPM1_TAYLOR: [f64; 14] = expm1_taylor();

/// `(2 atanh(s) - 2s - 2s^3/3) / s^5` as a polynomial in `u = s^2`:
/// 2/5, 2/7, .. 2/23, below 2^-60 relative for |s| <= 0.1716.
const ATANH_TAIL: [f64; 10] = atanh_series(5);

/// `x * (hi + lo)` for a double-double constant.
fn mul_constant(o: &mut Ops, x: V, c: (f64, f64)) -> Df {
    let c = o.df_const(c);
    o.df_mul(c, x)
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
    let ln2 = o.df_const(LN_2);
    let t = o.df_mul_df(r, ln2);
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
pub(super) fn exp2_dd(o: &mut Ops, z: Df) -> V {
    let (k, t) = reduce(o, z);
    let m = expm1_reduced(o, t);
    scale_one_plus(o, k, m)
}

pub(super) fn exp(o: &mut Ops, x: V) -> V {
    let x = o.clamp(x, -800.0, 800.0);
    let z = mul_constant(o, x, LOG2_E);
    exp2_dd(o, z)
}

pub(super) fn exp2(o: &mut Ops, x: V) -> V {
    let x = o.clamp(x, -1200.0, 1200.0);
    let zero = o.f(0.0);
    exp2_dd(o, Df { hi: x, lo: zero })
}

pub(super) fn exp10(o: &mut Ops, x: V) -> V {
    let x = o.clamp(x, -400.0, 400.0);
    let z = mul_constant(o, x, LOG2_10);
    exp2_dd(o, z)
}

pub(super) fn expm1(o: &mut Ops, x: V) -> V {
    let xc = o.clamp(x, -40.0, 800.0);
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
    let two_thirds = o.df_const(TWO_THIRDS);
    let c = o.fast_two_sum(two_thirds.hi, tail);
    let c_lo = o.add(c.lo, two_thirds.lo);
    let c = o.fast_two_sum(c.hi, c_lo);
    let t = o.df_mul_df(s2, c);
    let st = o.df_mul_df(s, t);
    let two_s = Df {
        hi: o.mulc(s.hi, 2.0),
        lo: o.mulc(s.lo, 2.0),
    };
    let ln_m = o.df_add(two_s, st);
    let e_ln2 = mul_constant(o, e, LN_2);
    o.df_add(e_ln2, ln_m)
}

/// `log_base(x)` as a double-double, for positive finite `x`.
pub(super) fn log(o: &mut Ops, x: V, base: &LogBase) -> Df {
    let ln = ln_dd(o, x);
    match base.of_e {
        Some(c) => {
            let c = o.df_const(c);
            o.df_mul_df(ln, c)
        }
        None => ln,
    }
}

/// `ln(u.hi + u.lo)` for an exact sum `u`: the logarithm of `u.hi` plus
/// the share `u.lo / u.hi` of the rest.
pub(super) fn ln_sum(o: &mut Ops, u: Df) -> V {
    let ln = ln_dd(o, u.hi);
    let correction = o.div(u.lo, u.hi);
    let lo = o.add(ln.lo, correction);
    o.add(ln.hi, lo)
}

/// `ln(2a)` for large positive finite `a`.
pub(super) fn ln_twice(o: &mut Ops, a: V) -> V {
    let l = ln_dd(o, a);
    let ln2 = o.df_const(LN_2);
    let l = o.df_add(l, ln2);
    o.df_value(l)
}

/// `e^|x| / 2` without overflowing before the halving.
pub(super) fn half_exp(o: &mut Ops, ax: V) -> V {
    let ax = o.clamp(ax, 0.0, 800.0);
    let z = mul_constant(o, ax, LOG2_E);
    let (k, t) = reduce(o, z);
    let m = expm1_reduced(o, t);
    let k = o.addc(k, -1.0);
    scale_one_plus(o, k, m)
}
