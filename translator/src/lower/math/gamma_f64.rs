//! `tgamma` on `double`.
//!
//! For x > 0, `ln Gamma` comes from Stirling's series at `y = x + n >= 15`
//! in double-double (`(y - 1/2) ln y - y + ln sqrt(2 pi)`, the small
//! Bernoulli terms in plain doubles), less `ln(x (x+1) ... (x+n-1))` with
//! the product double-double, and is exponentiated through `2^z`. Negative
//! arguments reflect: `Gamma(x) = pi / (sin(pi x) Gamma(1 - x))`, with the
//! logarithm of `|sin(pi x)|` folded into the exponent so results near the
//! underflow threshold round once.

use super::exp_log_f64::{self as el, dd_mul, LOG2_E};
use super::ops::{Df, Ops, V};
use super::trig_f64::{cos_reduced, sin_reduced};

/// Stirling's series starts here (the shift makes smaller arguments
/// reach it).
const STIRLING_FROM: u32 = 15;

/// `B_2k / (2k (2k - 1))` for k = 1..8: the series in `1/y` times `1/y`
/// (below 2^-66 of `ln Gamma` from y = 15).
const STIRLING: [f64; 8] = [
    1.0 / 12.0,
    -1.0 / 360.0,
    1.0 / 1260.0,
    -1.0 / 1680.0,
    1.0 / 1188.0,
    -691.0 / 360_360.0,
    1.0 / 156.0,
    -3617.0 / 122_400.0,
];

/// ln(sqrt(2 pi)), ln(pi) and pi as double-doubles.
const HALF_LN_TWO_PI: (f64, f64) = (0.918_938_533_204_672_8, -3.878_294_158_067_241_4e-17);
const LN_PI: (f64, f64) = (1.144_729_885_849_400_2, 1.026_595_116_270_782_6e-17);
const PI: (f64, f64) = (std::f64::consts::PI, 1.224_646_799_147_353_2e-16);

fn negate(o: &mut Ops, a: Df) -> Df {
    Df {
        hi: o.neg(a.hi),
        lo: o.neg(a.lo),
    }
}

/// `ln(w)` for a positive double-double `w`.
fn ln_of(o: &mut Ops, w: Df) -> Df {
    let l = el::ln_dd(o, w.hi);
    let correction = o.div(w.lo, w.hi);
    let lo = o.add(l.lo, correction);
    o.fast_two_sum(l.hi, lo)
}

/// `ln Gamma(w)` for a positive double-double `w` (finite, below 2^60).
fn ln_gamma(o: &mut Ops, w: Df) -> Df {
    // The shift: while y < 15, multiply it in and step it by one.
    let from = o.f(f64::from(STIRLING_FROM));
    let one = o.f(1.0);
    let zero = o.f(0.0);
    let mut product = Df { hi: one, lo: zero };
    let mut y = w;
    for _ in 0..STIRLING_FROM {
        let active = o.lt(y.hi, from);
        let factor = Df {
            hi: o.sel(active, y.hi, one),
            lo: o.sel(active, y.lo, zero),
        };
        product = dd_mul(o, product, factor);
        let step = o.sel(active, one, zero);
        let next = o.two_sum(y.hi, step);
        let lo = o.add(next.lo, y.lo);
        y = o.fast_two_sum(next.hi, lo);
    }
    // Stirling at y.
    let ln_y = ln_of(o, y);
    let half = o.f(-0.5);
    let shifted = o.two_sum(y.hi, half);
    let shifted_lo = o.add(shifted.lo, y.lo);
    let shifted = o.fast_two_sum(shifted.hi, shifted_lo);
    let main = dd_mul(o, shifted, ln_y);
    let minus_y = negate(o, y);
    let main = o.df_add(main, minus_y);
    let c = el::constant(o, HALF_LN_TWO_PI);
    let main = o.df_add(main, c);
    let inverse = o.div(one, y.hi);
    let inverse2 = o.mul(inverse, inverse);
    let series = o.poly(inverse2, &STIRLING);
    let series = o.mul(series, inverse);
    let series = Df {
        hi: series,
        lo: zero,
    };
    let l = o.df_add(main, series);
    let ln_product = ln_of(o, product);
    let minus = negate(o, ln_product);
    o.df_add(l, minus)
}

/// `sin(pi x)` for finite non-integer x (exact reduction to |r| <= 1/2).
fn sinpi(o: &mut Ops, x: V) -> V {
    let n = o.rint(x);
    let r = o.sub(x, n);
    let ar = o.abs(r);
    // Beyond 1/4: cos(pi (1/2 - |r|)), with |r|'s sign.
    let quarter = o.gtc(ar, 0.25);
    let half = o.f(0.5);
    let rest = o.sub(half, ar);
    let t = o.sel(quarter, rest, ar);
    let pi = el::constant(o, PI);
    let angle = o.df_mul(pi, t);
    let s = sin_reduced(o, angle);
    let c = cos_reduced(o, angle);
    let v = o.sel(quarter, c, s);
    let v = o.copysign(v, r);
    // (-1)^n.
    let half_n = o.mulc(n, 0.5);
    let floor = o.floor(half_n);
    let even = o.eq(floor, half_n);
    let minus = o.flip_sign(v);
    o.sel(even, v, minus)
}

pub(super) fn tgamma(o: &mut Ops, x: V) -> V {
    let zero = o.f(0.0);
    let negative = o.ltc(x, 0.0);
    // x > 0: Gamma(x); x < 0: Gamma(1 - x), reflected below.
    let one = o.f(1.0);
    let minus_x = o.neg(x);
    let reflected = o.two_sum(one, minus_x);
    let w = Df {
        hi: o.sel(negative, reflected.hi, x),
        lo: o.sel(negative, reflected.lo, zero),
    };
    // Far beyond overflow (and for NaN/inf lanes) any finite w will do.
    let w_hi = super::exp_log::clamp(o, w.hi, 0.0, 1e6);
    let w = Df { hi: w_hi, lo: w.lo };
    let l = ln_gamma(o, w);
    let s = sinpi(o, x);
    let abs_s = o.abs(s);
    let ln_s = el::ln_dd(o, abs_s);
    let ln_pi = el::constant(o, LN_PI);
    let minus_l = negate(o, l);
    let minus_ln_s = negate(o, ln_s);
    let reflected = o.df_add(ln_pi, minus_l);
    let reflected = o.df_add(reflected, minus_ln_s);
    let z = Df {
        hi: o.sel(negative, reflected.hi, l.hi),
        lo: o.sel(negative, reflected.lo, l.lo),
    };
    let log2e = el::constant(o, LOG2_E);
    let z = dd_mul(o, z, log2e);
    let (k, t) = el::reduce(o, z);
    let m = el::expm1_reduced(o, t);
    let r = el::scale_one_plus(o, k, m);
    let minus_r = o.flip_sign(r);
    let s_negative = o.ltc(s, 0.0);
    let flip = o.and(negative, s_negative);
    let r = o.sel(flip, minus_r, r);
    // Special values: +-0 -> +-inf, negative integers and -inf -> NaN,
    // +inf -> +inf, NaN -> NaN.
    let inf = o.inf();
    let signed_inf = o.copysign(inf, x);
    let at_zero = o.eqc(x, 0.0);
    let r = o.sel(at_zero, signed_inf, r);
    let fl = o.floor(x);
    let integer = o.eq(fl, x);
    let bad = o.and(negative, integer);
    let nan = o.nan();
    let r = o.sel(bad, nan, r);
    let plus_inf = o.eq(x, inf);
    let r = o.sel(plus_inf, inf, r);
    let is_nan = o.is_nan(x);
    o.sel(is_nan, x, r)
}
