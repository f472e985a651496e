//! Hyperbolic functions and their inverses on `double`, on the
//! double-double exponential and logarithm cores of
//! [`super::exp_log_f64`]: `sinh`, `cosh`, `tanh`, `asinh`, `acosh`,
//! `atanh`.

use super::exp_log::clamp;
use super::exp_log_f64::{self as el, LN_2, LOG2_E};
use super::hyperbolic::{cosh_with, sinh_with, sqrt};
use super::ops::{Ops, V};

/// `(sinh(x) - x) / x^3` in `x^2`: Taylor 1/3! .. 1/21!, below 2^-60
/// relative for |x| < 1.
const SINH_TAYLOR: [f64; 10] = {
    let mut c = [0.0; 10];
    let mut factorial = 1.0;
    let mut n = 0;
    while n < 10 {
        let k = (2 * n + 2) as f64;
        factorial *= k * (k + 1.0);
        c[n] = 1.0 / factorial;
        n += 1;
    }
    c
};

/// `e^|x| / 2` without overflowing before the halving.
fn half_exp(o: &mut Ops, ax: V) -> V {
    let ax = clamp(o, ax, 0.0, 800.0);
    let z = el::mul_constant(o, ax, LOG2_E);
    let (k, t) = el::reduce(o, z);
    let m = el::expm1_reduced(o, t);
    let k = o.addc(k, -1.0);
    el::scale_one_plus(o, k, m)
}

pub(super) fn sinh(o: &mut Ops, x: V) -> V {
    sinh_with(o, x, half_exp, &SINH_TAYLOR)
}

pub(super) fn cosh(o: &mut Ops, x: V) -> V {
    cosh_with(o, x, half_exp)
}

/// `tanh |x| = E / (E + 2)` with `E = expm1(2|x|)`; 1 beyond 40.
pub(super) fn tanh(o: &mut Ops, x: V) -> V {
    let ax = o.abs(x);
    let ax = clamp(o, ax, 0.0, 40.0);
    let twice = o.mulc(ax, 2.0);
    let e = el::expm1(o, twice);
    let d = o.addc(e, 2.0);
    let r = o.div(e, d);
    o.copysign(r, x)
}

/// `ln(2|x|)` for large |x|.
fn log_twice(o: &mut Ops, ax: V) -> V {
    let l = el::ln_dd(o, ax);
    let ln2 = el::constant(o, LN_2);
    let l = o.df_add(l, ln2);
    o.df_value(l)
}

/// `ln(w)` for `w` >= 2 given as a value.
fn ln_value(o: &mut Ops, w: V) -> V {
    let l = el::ln_dd(o, w);
    o.df_value(l)
}

pub(super) fn asinh(o: &mut Ops, x: V) -> V {
    let ax = o.abs(x);
    let x2 = o.mul(ax, ax);
    let w = o.addc(x2, 1.0);
    let root = sqrt(o, w);
    // Near 0: log1p(|x| + x^2 / (1 + sqrt(x^2 + 1))), no cancellation.
    let d = o.addc(root, 1.0);
    let q = o.div(x2, d);
    let w_near = o.add(ax, q);
    let near = el::log1p(o, w_near);
    // From 2: ln(|x| + sqrt(x^2 + 1)); beyond 2^28 the 1 is below an ulp.
    let w_mid = o.add(ax, root);
    let mid = ln_value(o, w_mid);
    let far = log_twice(o, ax);
    let above_two = o.gec(ax, 2.0);
    let r = o.sel(above_two, mid, near);
    let huge = o.gtc(ax, 2f64.powi(28));
    let r = o.sel(huge, far, r);
    let inf = o.inf();
    let infinite = o.eq(ax, inf);
    let r = o.sel(infinite, inf, r);
    let r = o.copysign(r, x);
    // asinh(+-0) = +-0 comes out of the formula; NaN needs keeping.
    let nan = o.is_nan(x);
    o.sel(nan, x, r)
}

pub(super) fn acosh(o: &mut Ops, x: V) -> V {
    // Below 2: log1p(t + sqrt(t (2 + t))) with t = x - 1 exact.
    let t = o.addc(x, -1.0);
    let two_t = o.addc(t, 2.0);
    let prod = o.mul(t, two_t);
    let root = sqrt(o, prod);
    let w = o.add(t, root);
    let near = el::log1p(o, w);
    // From 2: ln(x + sqrt(x^2 - 1)); beyond 2^28 ln(2x).
    let x2 = o.mul(x, x);
    let x2m = o.addc(x2, -1.0);
    let root = sqrt(o, x2m);
    let w_mid = o.add(x, root);
    let mid = ln_value(o, w_mid);
    let far = log_twice(o, x);
    let above_two = o.gec(x, 2.0);
    let r = o.sel(above_two, mid, near);
    let huge = o.gtc(x, 2f64.powi(28));
    let r = o.sel(huge, far, r);
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

/// `atanh |x| = log1p(2|x| / (1 - |x|)) / 2` with x's sign (1 - |x| is
/// exact from 1/2 on, where it matters).
pub(super) fn atanh(o: &mut Ops, x: V) -> V {
    let ax = o.abs(x);
    let one = o.f(1.0);
    let d = o.sub(one, ax);
    let twice = o.mulc(ax, 2.0);
    let q = o.div(twice, d);
    let l = el::log1p(o, q);
    let r = o.mulc(l, 0.5);
    let r = o.copysign(r, x);
    let zero = o.eqc(x, 0.0);
    let r = o.sel(zero, x, r);
    let above = o.gtc(ax, 1.0);
    let nan = o.nan();
    let r = o.sel(above, nan, r);
    let is_nan = o.is_nan(x);
    o.sel(is_nan, x, r)
}
