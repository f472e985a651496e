//! `tgamma` and `lgamma` on `float`.
//!
//! `tgamma` uses Stirling's series on `log2`, in double-float, at
//! `y = x + n >= 8`, divided by `x (x+1) ... (x+n-1)`; negative arguments
//! reflect (`Gamma(x) Gamma(1-x) = pi / sin(pi x)`). `lgamma` is the same
//! in the log domain, with a fitted piecewise quotient between 0.75 and 8
//! that keeps the zeros at 1 and 2 exact. (`double`'s `gamma_f64.rs` shifts
//! further, to 15, in double-double, and takes Taylor series at the
//! roots.)

use super::gamma;
use super::logarithms::{log, LOG2};
use super::ops::{split_constant, Df, Ops, V};
use super::precision::{Precision, F32};
use std::f64::consts::{LN_2, LOG2_E, PI};

/// `sin(pi r) / r` in `r^2` for |r| <= 1/2: Taylor to r^16.
fn sinpi_taylor() -> [f64; 9] {
    let mut c = [0.0; 9];
    let mut term = PI;
    for (k, slot) in c.iter_mut().enumerate() {
        *slot = term;
        term *= -PI * PI / (((2 * k + 2) * (2 * k + 3)) as f64);
    }
    c
}

/// Stirling's series `ln Gamma(y) - ((y - 1/2) ln y - y + ln sqrt(2 pi))`
/// in `1/y^2`, times `1/y`: 1/12, -1/360, 1/1260, -1/1680.
const STIRLING: [f64; 4] = [1.0 / 12.0, -1.0 / 360.0, 1.0 / 1260.0, -1.0 / 1680.0];

const LGAMMA_QUOTIENT_PIECES: [f64; 5] = [0.75, 1.75, 3.25, 5.0, 8.0];
const LGAMMA_QUOTIENT: [[f64; 13]; 4] = [
    // [0.75, 1.75]: relative error 2.21e-10
    [
        0.5241164609163349,
        -0.09227919105289037,
        0.02364143406988055,
        -0.007034208378059202,
        0.002259937087191598,
        -0.0007593936971600575,
        0.0002628360237209539,
        -9.373554099640231e-05,
        3.362415243493352e-05,
        -1.0708124840710718e-05,
        3.905773586264052e-06,
        -2.6293369746081926e-06,
        9.802821916939417e-07,
    ],
    // [1.75, 3.25]: relative error 4.83e-12
    [
        0.37957716063055985,
        -0.055997680595889776,
        0.011196649290869151,
        -0.002539168530631348,
        0.0006166941258511744,
        -0.00015629385095383697,
        4.076539187540636e-05,
        -1.0867580566189015e-05,
        2.937438947670811e-06,
        -7.776060339910355e-07,
        2.1447527186725125e-07,
        -8.013620345082018e-08,
        2.2453430294542788e-08,
    ],
    // [3.25, 5.0]: relative error 5.35e-14
    [
        0.2937925175860841,
        -0.03312910673071748,
        0.004849325156850041,
        -0.0007911807244249329,
        0.00013711502747034614,
        -2.4695837534402735e-05,
        4.568148361532127e-06,
        -8.61743837860401e-07,
        1.649565054807366e-07,
        -3.1718279011819014e-08,
        6.197243333889883e-09,
        -1.4000227985469302e-09,
        2.779752496560552e-10,
    ],
    // [5.0, 8.0]: relative error 1.84e-13
    [
        0.22879038625685433,
        -0.02999954740367076,
        0.00494080584647751,
        -0.0008941941878743804,
        0.00017061542140744528,
        -3.3684776382095005e-05,
        6.81183722980231e-06,
        -1.4026050463983736e-06,
        2.9271972907124035e-07,
        -6.113163062939117e-08,
        1.3008343120628314e-08,
        -3.2900271225326625e-09,
        7.109406396921258e-10,
    ],
];

/// `sin(pi x)` for finite |x| < 2^23 (exact reduction to |r| <= 1/2).
fn sinpi(o: &mut Ops, x: V) -> V {
    let n = o.rint(x);
    let r = o.sub(x, n);
    let r2 = o.mul(r, r);
    let p = o.poly(r2, &sinpi_taylor());
    let s = o.mul(r, p);
    let half = o.mulc(n, 0.5);
    let fh = o.floor(half);
    let even = o.eq(fh, half);
    let minus = o.neg(s);
    o.sel(even, s, minus)
}

/// `log2 Gamma(a)` for a >= 8 given as the double-float `y`, by Stirling.
fn log2_gamma_stirling(o: &mut Ops, y: Df) -> Df {
    let l = F32::log(o, y.hi, &LOG2);
    let y_half = o.addc(y.hi, -0.5);
    let a = o.df_mul(l, y_half);
    let (eh, el) = split_constant(LOG2_E, 12);
    let (eh, el) = (o.f(eh), o.f(el));
    let b = o.two_prod(y.hi, eh);
    let b_tail = o.mul(y.hi, el);
    let b_lo = o.add(b.lo, b_tail);
    let b = Df {
        hi: o.neg(b.hi),
        lo: o.neg(b_lo),
    };
    let z = o.df_add(a, b);
    let (ch, cl) = split_constant((2.0 * PI).sqrt().log2(), 24);
    let c = Df {
        hi: o.f(ch),
        lo: o.f(cl),
    };
    let z = o.df_add(z, c);
    // The series, and y's low part times d/dy log2 Gamma ~ log2 y.
    let one = o.f(1.0);
    let inverse = o.div(one, y.hi);
    let inverse2 = o.mul(inverse, inverse);
    let s = o.poly(inverse2, &STIRLING);
    let s = o.mul(s, inverse);
    let s = o.mulc(s, LOG2_E);
    let slope = o.mul(y.lo, l.hi);
    let extra = o.add(s, slope);
    let lo = o.add(z.lo, extra);
    o.fast_two_sum(z.hi, lo)
}

/// For finite a > 0: `y = a + n >= 8` (as a double-float) and the
/// product `a (a+1) ... (a+n-1)` (1 when n = 0).
fn shift_up(o: &mut Ops, a: V) -> (Df, V) {
    let mut product = o.f(1.0);
    for k in 0..8 {
        // Factor a + k is taken while a + k < 8.
        let bound = o.f(8.0 - f64::from(k));
        let take = o.lt(a, bound);
        let factor = o.addc(a, f64::from(k));
        let one = o.f(1.0);
        let factor = o.sel(take, factor, one);
        product = o.mul(product, factor);
    }
    let low = o.ltc(a, 8.0);
    let eight = o.f(8.0);
    let fl = o.floor(a);
    let n = o.sub(eight, fl);
    let zero = o.f(0.0);
    let n = o.sel(low, n, zero);
    let y = o.two_sum(a, n);
    (y, product)
}

/// `Gamma(a)` for finite a > 0.
fn gamma_positive(o: &mut Ops, a: V) -> V {
    let (y, product) = shift_up(o, a);
    let z = log2_gamma_stirling(o, y);
    let g = F32::exp2(o, z);
    o.div(g, product)
}

pub(super) fn tgamma(o: &mut Ops, x: V) -> V {
    let ax = o.abs(x);
    // Beyond 36 Gamma overflows (and its reflection underflows).
    let a = o.clamp(ax, 0.0, 36.0);
    // -1/2 < x < 0: Gamma(x + 1) / x; below, the reflection of Gamma(|x|).
    let negative = o.ltc(x, 0.0);
    let small = o.ltc(ax, 0.5);
    let near_zero = o.and(negative, small);
    let shifted = o.addc(x, 1.0);
    let arg = o.sel(near_zero, shifted, a);
    let g = gamma_positive(o, arg);
    let s = sinpi(o, x);
    let p = o.mul(a, s);
    let pi = o.f(PI);
    let q = o.div(pi, p);
    let reflected = o.div(q, g);
    let near = o.div(g, x);
    let reflected = o.sel(near_zero, near, reflected);
    let r = o.sel(negative, reflected, g);
    // Poles: +-0 give +-inf, negative integers and -inf NaN.
    let zero = o.eqc(x, 0.0);
    let inf = o.inf();
    let pole = o.copysign(inf, x);
    let r = o.sel(zero, pole, r);
    let fl = o.floor(x);
    let integer = o.eq(fl, x);
    let bad = o.and(negative, integer);
    let nan = o.is_nan(x);
    let bad = o.or(bad, nan);
    let q = o.nan();
    o.sel(bad, q, r)
}

/// `ln |Gamma(a)|` for finite a > 0: `(a - 1)(a - 2) Q(a)` on [0.75, 8)
/// (exact factors, so the zeros at 1 and 2 keep relative accuracy),
/// `Q(a + 1) a (a - 1) - ln a` below, Stirling above.
fn lgamma_positive(o: &mut Ops, a: V) -> V {
    let low = o.ltc(a, 0.75);
    let up = o.addc(a, 1.0);
    let b = o.sel(low, up, a);
    let bounds = &LGAMMA_QUOTIENT_PIECES;
    let inside = o.clamp(b, bounds[0], bounds[bounds.len() - 1]);
    let q = o.piecewise(inside, bounds, &LGAMMA_QUOTIENT);
    let (f1, f2) = (o.addc(b, -1.0), o.addc(b, -2.0));
    let factors = o.mul(f1, f2);
    let middle = o.mul(factors, q);
    // lgamma(1) = lgamma(2) = +0, where the factors give -0 (a select:
    // Vulkan need not preserve the sign of zero through arithmetic).
    let zero = o.f(0.0);
    let vanishes = o.eq(middle, zero);
    let middle = o.sel(vanishes, zero, middle);
    let ln = log::<F32>(o, a);
    let below = o.sub(middle, ln);
    let r = o.sel(low, below, middle);
    let zero = o.f(0.0);
    let y = o.two_sum(a, zero);
    let z = log2_gamma_stirling(o, y);
    let z = o.df_mulc(z, LN_2);
    let stirling = o.df_value(z);
    let high = o.gec(a, 8.0);
    let r = o.sel(high, stirling, r);
    // Huge a: a (ln a - 1), Stirling's leading terms, without overflow in
    // the double-float products.
    let ln = o.addc(ln, -1.0);
    let huge = o.mul(a, ln);
    let big = o.gtc(a, 1e30);
    o.sel(big, huge, r)
}

/// `ln |Gamma(x)|`.
pub(super) fn lgamma(o: &mut Ops, x: V) -> V {
    let ax = o.abs(x);
    // -1/2 < x < 0: ln Gamma(x + 1) - ln |x|; below, the reflection
    // ln(pi / |x sin(pi x)|) - ln Gamma(|x|).
    let negative = o.ltc(x, 0.0);
    let small = o.ltc(ax, 0.5);
    let near_zero = o.and(negative, small);
    let shifted = o.addc(x, 1.0);
    let arg = o.sel(near_zero, shifted, ax);
    let positive = lgamma_positive(o, arg);
    let s = sinpi(o, x);
    let p = o.mul(ax, s);
    let p = o.abs(p);
    let pi = o.f(PI);
    let q = o.div(pi, p);
    let lq = log::<F32>(o, q);
    let reflected = o.sub(lq, positive);
    let lx = log::<F32>(o, ax);
    let near = o.sub(positive, lx);
    let reflected = o.sel(near_zero, near, reflected);
    let r = o.sel(negative, reflected, positive);
    // Poles and infinities give +inf.
    let pole = gamma::pole(o, x);
    let infinite = o.is_inf(x);
    let inf = o.inf();
    let to_inf = o.or(pole, infinite);
    o.sel(to_inf, inf, r)
}

/// The sign of `Gamma(x)` for `lgamma_r`.
pub(super) fn lgamma_sign(o: &mut Ops, x: V) -> V {
    let s = sinpi(o, x);
    gamma::lgamma_sign(o, x, s)
}
