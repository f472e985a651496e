//! The powers in either precision: `pow`, `powr`, `pown`, `rootn`, `cbrt`.
//!
//! The magnitude `|x|^y` is `2^(y log2|x|)` with the logarithm a
//! double-float (double-double on `double`) and the product formed exactly
//! enough, through the precision's cores; the signs and the special values
//! of OpenCL C 7.5.1 are chosen around it by selects.

use super::logarithms::LOG2;
use super::ops::{Df, Ops, V};
use super::precision::Precision;

/// `|x|^y` for finite non-zero `|x|` and finite `y` (`y_extra` is added
/// to `y`: `float`'s `pown` splits its integer into two exact floats).
fn magnitude<P: Precision>(o: &mut Ops, ax: V, y: V, y_extra: Option<V>) -> V {
    // Beyond the bound every |y log2|x|| (|x| != 1) over- or underflows
    // anyway; clamping keeps the exact products finite.
    let bound = P::POW_Y_BOUND;
    let y = o.clamp(y, -bound, bound);
    let l = P::log(o, ax, &LOG2);
    let mut z = o.df_mul(l, y);
    if let Some(y2) = y_extra {
        let z2 = o.df_mul(l, y2);
        z = o.df_add(z, z2);
    }
    P::exp2(o, z)
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

/// `pow` and `powr`'s magnitude with the edges of a real `y` applied;
/// also infinity and whether `y` is infinite.
fn real_edges(o: &mut Ops, ax: V, y: V, mag: V) -> (V, V, V) {
    let ay = o.abs(y);
    let inf = o.inf();
    let y_inf = o.eq(ay, inf);
    let edge = at_edge(o, ax, Some(y_inf));
    let y_positive = o.gtc(y, 0.0);
    let edge_mag = edge_magnitude(o, ax, y_positive);
    (o.sel(edge, edge_mag, mag), inf, y_inf)
}

pub(super) fn pow<P: Precision>(o: &mut Ops, x: V, y: V) -> V {
    let ax = o.abs(x);
    let mag = magnitude::<P>(o, ax, y, None);
    let (mag, inf, _) = real_edges(o, ax, y, mag);
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

pub(super) fn powr<P: Precision>(o: &mut Ops, x: V, y: V) -> V {
    let ax = o.abs(x);
    let mag = magnitude::<P>(o, ax, y, None);
    let (r, inf, y_inf) = real_edges(o, ax, y, mag);
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

/// `pown` and `rootn`'s result but for NaNs and `n` = 0: the edges of
/// `|x|` applied to `mag`, and the sign of `x` for odd `n` (also
/// returned).
fn signed_by_integer(o: &mut Ops, x: V, ax: V, n: V, mag: V) -> (V, V) {
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
    (o.sel(flip, minus, mag), odd)
}

/// `x^n` for an integer `n`, with exact parity.
pub(super) fn pown<P: Precision>(o: &mut Ops, x: V, n: V) -> V {
    let ax = o.abs(x);
    let mag = if P::INT_EXACT {
        let y = o.float_from_int(n);
        magnitude::<P>(o, ax, y, None)
    } else {
        // Both halves of `n` are exact as floats, so large `n` lose
        // nothing.
        let low_mask = o.i(0xffff);
        let low = o.and(n, low_mask);
        let high = o.sub(n, low);
        let (y1, y2) = (o.float_from_int(high), o.float_from_int(low));
        magnitude::<P>(o, ax, y1, Some(y2))
    };
    let (r, _) = signed_by_integer(o, x, ax, n, mag);
    let nan = o.is_nan(x);
    let q = o.nan();
    let r = o.sel(nan, q, r);
    let zero = o.i(0);
    let n_zero = o.eq(n, zero);
    let one = o.f(1.0);
    o.sel(n_zero, one, r)
}

/// `(hi + lo) / n` for an integer `n`, as a double-float: the quotient's
/// residual is exact.
fn divide_by_int(o: &mut Ops, l: Df, n: V) -> Df {
    let nf = o.float_from_int(n);
    let q = o.div(l.hi, nf);
    let p = o.two_prod(q, nf);
    let r = o.sub(l.hi, p.hi);
    let r = o.sub(r, p.lo);
    let r = o.add(r, l.lo);
    let q_lo = o.div(r, nf);
    o.fast_two_sum(q, q_lo)
}

/// `x^(1/n)`: `log2|x| / n` divided as a double-float (the quotient's
/// residual is exact), so the rounding of 1/n costs nothing.
pub(super) fn rootn<P: Precision>(o: &mut Ops, x: V, n: V) -> V {
    let ax = o.abs(x);
    let l = P::log(o, ax, &LOG2);
    let z = divide_by_int(o, l, n);
    let mag = P::exp2(o, z);
    let (r, odd) = signed_by_integer(o, x, ax, n, mag);
    // NaN: n = 0, an even root of a negative number, NaN x.
    let zero = o.i(0);
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

pub(super) fn cbrt<P: Precision>(o: &mut Ops, x: V) -> V {
    let three = o.i(3);
    // cbrt(+-0) = +-0 and cbrt(+-inf) = +-inf, which rootn gives too.
    rootn::<P>(o, x, three)
}
