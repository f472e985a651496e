//! `tgamma` on `double`.
//!
//! For x > 0, `ln Gamma` comes from Stirling's series at `y = x + n >= 15`
//! in double-double (`(y - 1/2) ln y - y + ln sqrt(2 pi)`, the small
//! Bernoulli terms in plain doubles), less `ln(x (x+1) ... (x+n-1))` with
//! the product double-double, and is exponentiated through `2^z`. Negative
//! arguments reflect: `Gamma(x) = pi / (sin(pi x) Gamma(1 - x))`, with the
//! logarithm of `|sin(pi x)|` folded into the exponent so results near the
//! underflow threshold round once.

use super::consts::{LOG2_E, PI};
use super::ops::{Df, Ops, V};
use super::trig_f64::{cos_reduced, sin_reduced};
use super::{exp_log_f64 as el, gamma};

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

/// ln(sqrt(2 pi)) and ln(pi) as double-doubles.
const HALF_LN_TWO_PI: (f64, f64) = (0.918_938_533_204_672_8, -3.878_294_158_067_241_4e-17);
const LN_PI: (f64, f64) = (1.144_729_885_849_400_2, 1.026_595_116_270_782_6e-17);

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
        product = o.df_mul_df(product, factor);
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
    // (y - 1/2)(ln y - 1) - 1/2 + ln sqrt(2 pi): the product stays
    // finite up to lgamma's overflow threshold.
    let minus_one = o.f(-1.0);
    let ln_y_less = o.df_add(
        ln_y,
        Df {
            hi: minus_one,
            lo: zero,
        },
    );
    let main = o.df_mul_df(shifted, ln_y_less);
    let c = o.df_const((HALF_LN_TWO_PI.0 - 0.5, HALF_LN_TWO_PI.1));
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
    let minus = o.df_neg(ln_product);
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
    let pi = o.df_const(PI);
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
    let w_hi = o.clamp(w.hi, 0.0, 1e6);
    let w = Df { hi: w_hi, lo: w.lo };
    let l = ln_gamma(o, w);
    let s = sinpi(o, x);
    let abs_s = o.abs(s);
    let ln_s = el::ln_dd(o, abs_s);
    let ln_pi = o.df_const(LN_PI);
    let minus_l = o.df_neg(l);
    let minus_ln_s = o.df_neg(ln_s);
    let reflected = o.df_add(ln_pi, minus_l);
    let reflected = o.df_add(reflected, minus_ln_s);
    let z = Df {
        hi: o.sel(negative, reflected.hi, l.hi),
        lo: o.sel(negative, reflected.lo, l.lo),
    };
    let log2e = o.df_const(LOG2_E);
    let z = o.df_mul_df(z, log2e);
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

/// Euler's constant.
const EULER_GAMMA: f64 = 0.577_215_664_901_532_9;
/// zeta(2) .. zeta(13).
const ZETA: [f64; 12] = [
    1.644_934_066_848_226_4,
    1.202_056_903_159_594_2,
    1.082_323_233_711_138_1,
    1.036_927_755_143_37,
    1.017_343_061_984_449_2,
    1.008_349_277_381_923,
    1.004_077_356_197_944_4,
    1.002_008_392_826_082_1,
    1.000_994_575_127_818,
    1.000_494_188_604_119_4,
    1.000_246_086_553_308,
    1.000_122_713_347_578_5,
];
/// Below this distance from 1 or 2, `lgamma` is its Taylor series there
/// (where it vanishes, the Stirling path's absolute error would be too
/// large a share): `lgamma(1 + t) = -gamma t + sum (-1)^k zeta(k)/k t^k`
/// and `lgamma(2 + t) = (1 - gamma) t + sum (-1)^k (zeta(k) - 1)/k t^k`.
const NEAR_ROOT: f64 = 1.0 / 64.0;

fn root_series(o: &mut Ops, t: V, at_two: bool) -> V {
    let mut c = vec![0.0];
    c.push(if at_two {
        1.0 - EULER_GAMMA
    } else {
        -EULER_GAMMA
    });
    for (i, &z) in ZETA.iter().enumerate() {
        let k = i + 2;
        let z = if at_two { z - 1.0 } else { z };
        let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
        c.push(sign * z / k as f64);
    }
    o.poly(t, &c)
}

/// `ln |Gamma(x)|`.
pub(super) fn lgamma(o: &mut Ops, x: V) -> V {
    let zero = o.f(0.0);
    let one = o.f(1.0);
    let negative = o.ltc(x, 0.0);
    let minus_x = o.neg(x);
    let reflected = o.two_sum(one, minus_x);
    let w = Df {
        hi: o.sel(negative, reflected.hi, x),
        lo: o.sel(negative, reflected.lo, zero),
    };
    // Lanes beyond the overflow threshold (and non-finite ones) are
    // replaced below; keep their arithmetic finite.
    // The largest argument with a finite result.
    let top = 2.559_983_327_851_638_3e305;
    let w_hi = o.clamp(w.hi, 0.0, top);
    let w = Df { hi: w_hi, lo: w.lo };
    let l = ln_gamma(o, w);
    let s = sinpi(o, x);
    let abs_s = o.abs(s);
    let ln_s = el::ln_dd(o, abs_s);
    let ln_pi = o.df_const(LN_PI);
    let minus_l = o.df_neg(l);
    let minus_ln_s = o.df_neg(ln_s);
    let r_neg = o.df_add(ln_pi, minus_l);
    let r_neg = o.df_add(r_neg, minus_ln_s);
    let r_neg = o.df_value(r_neg);
    let r_pos = o.df_value(l);
    let r = o.sel(negative, r_neg, r_pos);
    // Near the roots 1 and 2.
    let (t1, t2) = (o.addc(x, -1.0), o.addc(x, -2.0));
    let (a1, a2) = (o.abs(t1), o.abs(t2));
    let (s1, s2) = (root_series(o, t1, false), root_series(o, t2, true));
    let (n1, n2) = (o.ltc(a1, NEAR_ROOT), o.ltc(a2, NEAR_ROOT));
    let r = o.sel(n1, s1, r);
    let r = o.sel(n2, s2, r);
    // Tiny |x|: -ln|x| (the next term, -gamma x, is below an ulp), where
    // the products above would lose bits to subnormals.
    let ax = o.abs(x);
    let ln_ax = el::ln_dd(o, ax);
    let ln_ax = o.df_value(ln_ax);
    let minus_ln = o.neg(ln_ax);
    let tiny = o.ltc(ax, 2f64.powi(-54));
    let r = o.sel(tiny, minus_ln, r);
    let (at1, at2) = (o.eqc(t1, 0.0), o.eqc(t2, 0.0));
    let root = o.or(at1, at2);
    let r = o.sel(root, zero, r);
    // Poles, infinities and overflow give +inf; NaN stays.
    let inf = o.inf();
    let pole = gamma::pole(o, x);
    let huge = o.gtc(ax, top);
    let infinite = o.or(pole, huge);
    let r = o.sel(infinite, inf, r);
    let nan = o.is_nan(x);
    o.sel(nan, x, r)
}

/// The sign of `Gamma(x)` for `lgamma_r`.
pub(super) fn lgamma_sign(o: &mut Ops, x: V) -> V {
    let s = sinpi(o, x);
    gamma::lgamma_sign(o, x, s)
}
