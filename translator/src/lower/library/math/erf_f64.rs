//! `erf` and `erfc` on `double`.
//!
//! Below 1.75 in magnitude `erf` is its Taylor series
//! `2/sqrt(pi) sum (-1)^n x^(2n+1) / (n! (2n+1))`, evaluated in
//! double-double (about 100 bits survive the alternating sum), so
//! `erfc = 1 - erf` there keeps full relative accuracy too. Above, `erfc`
//! is `e^(-x^2) / (sqrt(pi) g(x))` with Laplace's continued fraction
//! `g = x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))` summed backwards from a
//! fixed depth (converged to below 2^-53 from 1.75 on, with positive
//! terms only), and `erf = 1 - erfc`. `e^(-x^2)` takes `x^2` exactly.

use super::consts::LOG2_E;
use super::exp_log_f64 as el;
use super::ops::{Df, Ops, V};

/// Where the series hands over to the continued fraction.
const SERIES_LIMIT: f64 = 1.75;
/// Series terms: 1.75^(2n) / n! is below 2^-110 from n = 48.
const SERIES_TERMS: usize = 48;
/// Continued-fraction depth: enough from 1.75 on.
const FRACTION_DEPTH: u32 = 110;

/// `(-1)^n / (n! (2n+1))` as double-doubles, computed at translation
/// time with the host's exact `mul_add`.
fn series_coefficients() -> Vec<(f64, f64)> {
    (0..SERIES_TERMS)
        .map(|n| {
            // 1 / (n! (2n+1)) as a double-double by Dekker division.
            let mut denominator = (1.0f64, 0.0f64);
            for k in 1..=n {
                denominator = times(denominator, k as f64);
            }
            denominator = times(denominator, (2 * n + 1) as f64);
            let (hi, lo) = reciprocal(denominator);
            if n % 2 == 0 {
                (hi, lo)
            } else {
                (-hi, -lo)
            }
        })
        .collect()
}

/// `(hi + lo) * k` for a small integer `k`, renormalised.
fn times((hi, lo): (f64, f64), k: f64) -> (f64, f64) {
    let p = hi * k;
    let e = hi.mul_add(k, -p);
    let low = e + lo * k;
    let s = p + low;
    (s, low - (s - p))
}

/// `1 / (hi + lo)` to about 106 bits.
fn reciprocal((hi, lo): (f64, f64)) -> (f64, f64) {
    let q = 1.0 / hi;
    // r = 1 - q (hi + lo), exactly enough.
    let p = q * hi;
    let e = q.mul_add(hi, -p);
    let r = ((1.0 - p) - e) - q * lo;
    let q2 = r / hi;
    let s = q + q2;
    (s, q2 - (s - q))
}

/// `2 / sqrt(pi)` as a double-double.
const TWO_OVER_SQRT_PI: (f64, f64) = (std::f64::consts::FRAC_2_SQRT_PI, 1.533_545_961_316_588e-17);

/// `erf(x)` as a double-double for |x| <= 1.75 (others: finite garbage).
fn erf_series(o: &mut Ops, x: V) -> Df {
    let limit = o.f(SERIES_LIMIT);
    let minus = o.neg(limit);
    let ax = o.abs(x);
    let inside = o.le(ax, limit);
    let xc = o.sel(inside, x, limit);
    let xc = o.max(xc, minus);
    let sq = o.two_prod(xc, xc);
    let coefficients = series_coefficients();
    let last = coefficients[SERIES_TERMS - 1];
    let mut acc = o.df_const(last);
    for &c in coefficients.iter().rev().skip(1) {
        let c = o.df_const(c);
        let p = o.df_mul_df(acc, sq);
        acc = o.df_add(p, c);
    }
    let acc = o.df_mul(acc, xc);
    let k = o.df_const(TWO_OVER_SQRT_PI);
    o.df_mul_df(acc, k)
}

/// `erfc(a)` for a >= 1.75 (finite; 0 from about 27.3).
fn erfc_fraction(o: &mut Ops, a: V) -> V {
    let a = o.clamp(a, SERIES_LIMIT, 28.0);
    let mut g = a;
    for k in (1..=FRACTION_DEPTH).rev() {
        let c = o.f(f64::from(k) / 2.0);
        let q = o.div(c, g);
        g = o.add(a, q);
    }
    // e^(-a^2) with a^2 exact, through 2^z.
    let sq = o.two_prod(a, a);
    let minus = Df {
        hi: o.neg(sq.hi),
        lo: o.neg(sq.lo),
    };
    let log2e = o.df_const(LOG2_E);
    let z = o.df_mul_df(minus, log2e);
    let (k, t) = el::reduce(o, z);
    let m = el::expm1_reduced(o, t);
    // Divide before scaling, so a subnormal result rounds once.
    let one = o.f(1.0);
    let s = o.fast_two_sum(one, m.hi);
    let lo = o.add(s.lo, m.lo);
    let e = o.add(s.hi, lo);
    let root_pi = o.f(std::f64::consts::PI.sqrt());
    let d = o.mul(g, root_pi);
    let r = o.div(e, d);
    let k = o.int_from_float(k);
    o.scale(r, k)
}

pub(super) fn erf(o: &mut Ops, x: V) -> V {
    let series = erf_series(o, x);
    let small = o.df_value(series);
    let ax = o.abs(x);
    let tail = erfc_fraction(o, ax);
    let one = o.f(1.0);
    let large = o.sub(one, tail);
    let large = o.copysign(large, x);
    let limit = o.f(SERIES_LIMIT);
    let near = o.le(ax, limit);
    let r = o.sel(near, small, large);
    // erf(+-0) = +-0; NaN stays.
    let zero = o.eqc(x, 0.0);
    let r = o.sel(zero, x, r);
    let nan = o.is_nan(x);
    o.sel(nan, x, r)
}

pub(super) fn erfc(o: &mut Ops, x: V) -> V {
    let series = erf_series(o, x);
    let one = o.f(1.0);
    let zero = o.f(0.0);
    let minus_series = Df {
        hi: o.neg(series.hi),
        lo: o.neg(series.lo),
    };
    let one_dd = Df { hi: one, lo: zero };
    let near = o.df_add(one_dd, minus_series);
    let near = o.df_value(near);
    let ax = o.abs(x);
    let tail = erfc_fraction(o, ax);
    let two = o.f(2.0);
    let reflected = o.sub(two, tail);
    let negative = o.ltc(x, 0.0);
    let far = o.sel(negative, reflected, tail);
    let limit = o.f(SERIES_LIMIT);
    let inside = o.le(ax, limit);
    let r = o.sel(inside, near, far);
    let nan = o.is_nan(x);
    o.sel(nan, x, r)
}
