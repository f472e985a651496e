//! The inverse trigonometric functions on `double`: `asin`, `acos`,
//! `atan`, `atan2` and their `*pi` forms.
//!
//! All go through one core, the angle of a point `(d, n)` with `n`,
//! `d` >= 0 given as double-doubles: the ratio of the smaller to the larger
//! coordinate (at most 1), above tan(pi/8) moved by pi/4 to
//! `(a - b) / (a + b)`, so the Taylor series of `atan` runs on at most
//! tan(pi/8) (22 terms). `asin` and `acos` use `sqrt(1 - x^2)` with
//! `1 - x^2 = (1 - x)(1 + x)` as a double-double. The result stays a
//! double-double until the quadrant is applied and, for the `*pi` forms,
//! it is divided by pi.

use super::consts::{HALF_PI, PI, QUARTER_PI};
use super::ops::{Df, Ops, V};
use super::series::atan_taylor;

/// tan(pi/8) = sqrt(2) - 1.
const TAN_PI_8: f64 = 0.414_213_562_373_095_1;

/// `(atan(u) - u) / u^3` in `u^2`: -1/3, 1/5, ... to 1/45, below 2^-56
/// relative for |u| <= tan(pi/8).
const ATAN_TAYLOR: [f64; 22] = atan_taylor();

/// `n / d` for double-doubles (d > 0), to about 100 bits: the first
/// quotient's residual is exact enough to correct it.
fn divide(o: &mut Ops, n: Df, d: Df) -> Df {
    let q = o.div(n.hi, d.hi);
    let p = o.df_mul(d, q);
    let minus = o.df_neg(p);
    let r = o.df_add(n, minus);
    let q2 = o.div(r.hi, d.hi);
    o.fast_two_sum(q, q2)
}

/// `atan(u)` for a double-double |u| <= tan(pi/8).
fn atan_small(o: &mut Ops, u: Df) -> Df {
    let u2 = o.mul(u.hi, u.hi);
    let p = o.poly(u2, &ATAN_TAYLOR);
    let u3 = o.mul(u2, u.hi);
    let tail = o.mul(u3, p);
    // atan(hi + lo) ~ atan(hi) + lo / (1 + hi^2).
    let one = o.f(1.0);
    let d = o.add(one, u2);
    let share = o.div(u.lo, d);
    let lo = o.add(tail, share);
    o.fast_two_sum(u.hi, lo)
}

/// The angle of the point `(d, n)` for finite `n`, `d` >= 0, not both 0:
/// in [0, pi/2].
fn angle(o: &mut Ops, n: Df, d: Df) -> Df {
    let steep = o.gt(n.hi, d.hi);
    let a = o.df_sel(steep, d, n);
    let b = o.df_sel(steep, n, d);
    // a / b <= 1; above tan(pi/8): pi/4 + atan((a - b) / (a + b)).
    let limit = o.mulc(b.hi, TAN_PI_8);
    let middle = o.gt(a.hi, limit);
    let minus_b = o.df_neg(b);
    let difference = o.df_add(a, minus_b);
    let sum = o.df_add(a, b);
    let shifted = divide(o, difference, sum);
    let direct = divide(o, a, b);
    let u = o.df_sel(middle, shifted, direct);
    let t = atan_small(o, u);
    let quarter = o.df_const(QUARTER_PI);
    let zero = o.f(0.0);
    let zero = o.df_from(zero);
    let base = o.df_sel(middle, quarter, zero);
    let t = o.df_add(base, t);
    // A ratio below 2^-900 is its own arctangent (the double-double steps
    // would lose bits to subnormals). The quotient is taken of a 2^600
    // (below 2^724 here), where it is normal unless the result is 0
    // anyway, and scaled back: one rounding in the normal range, one into
    // the subnormals, whatever the division does with subnormal results.
    let limit = o.mulc(b.hi, 2f64.powi(-900));
    let tiny = o.lt(a.hi, limit);
    let raised = o.mulc(a.hi, 2f64.powi(600));
    let ratio = o.div(raised, b.hi);
    let ratio = o.mulc(ratio, 2f64.powi(-600));
    let ratio = o.df_from(ratio);
    let t = o.df_sel(tiny, ratio, t);
    // Steep: pi/2 - t.
    let half_pi = o.df_const(HALF_PI);
    let minus_t = o.df_neg(t);
    let complement = o.df_add(half_pi, minus_t);
    o.df_sel(steep, complement, t)
}

/// The result value, divided by pi for the `*pi` forms (tiny values 2^600
/// up first, so the quotient rounds once, on the way back).
fn finish(o: &mut Ops, r: Df, in_turns: bool) -> V {
    if in_turns {
        let ar = o.abs(r.hi);
        let tiny = o.ltc(ar, 2f64.powi(-900));
        let up = Df {
            hi: o.mulc(r.hi, 2f64.powi(600)),
            lo: o.mulc(r.lo, 2f64.powi(600)),
        };
        let r = o.df_sel(tiny, up, r);
        let pi = o.df_const(PI);
        let q = divide(o, r, pi);
        let v = o.df_value(q);
        let down = o.mulc(v, 2f64.powi(-600));
        o.sel(tiny, down, v)
    } else {
        o.df_value(r)
    }
}

/// `sqrt(1 - x^2)` for |x| <= 1 as a double-double.
fn cosine_of(o: &mut Ops, ax: V) -> Df {
    let one = o.f(1.0);
    let minus = o.neg(ax);
    let below = o.two_sum(one, minus);
    let above = o.two_sum(one, ax);
    let w = o.df_mul_df(below, above);
    let s = o.math(naga::MathFunction::Sqrt, w.hi);
    let sq = o.two_prod(s, s);
    let r = o.sub(w.hi, sq.hi);
    let r = o.sub(r, sq.lo);
    let r = o.add(r, w.lo);
    let twice = o.mulc(s, 2.0);
    let step = o.div(r, twice);
    // w = 0 (x = +-1): the root is 0.
    let zero = o.eqc(w.hi, 0.0);
    let z = o.f(0.0);
    let step = o.sel(zero, z, step);
    o.fast_two_sum(s, step)
}

fn asin_in(o: &mut Ops, x: V, in_turns: bool) -> V {
    let ax = o.abs(x);
    let one = o.f(1.0);
    let inside = o.le(ax, one);
    let a = o.sel(inside, ax, one);
    let c = cosine_of(o, a);
    let n = o.df_from(a);
    let r = angle(o, n, c);
    let v = finish(o, r, in_turns);
    let v = o.copysign(v, x);
    // asin(+-0) = +-0 comes out; |x| > 1 and NaN give NaN.
    let outside = o.not(inside);
    let nan = o.nan();
    o.sel(outside, nan, v)
}

fn acos_in(o: &mut Ops, x: V, in_turns: bool) -> V {
    let ax = o.abs(x);
    let one = o.f(1.0);
    let inside = o.le(ax, one);
    let a = o.sel(inside, ax, one);
    let c = cosine_of(o, a);
    let d = o.df_from(a);
    // The point (|x|, sqrt(1 - x^2)) is never the origin.
    let r = angle(o, c, d);
    let pi = o.df_const(PI);
    let minus_r = o.df_neg(r);
    let reflected = o.df_add(pi, minus_r);
    let negative = o.ltc(x, 0.0);
    let r = o.df_sel(negative, reflected, r);
    let v = finish(o, r, in_turns);
    let outside = o.not(inside);
    let nan = o.nan();
    o.sel(outside, nan, v)
}

/// `atan2(y, x)` (or over pi), with C99's special cases.
fn atan2_in(o: &mut Ops, y: V, x: V, in_turns: bool) -> V {
    let (ay, ax) = (o.abs(y), o.abs(x));
    let inf = o.inf();
    let (y_inf, x_inf) = (o.eq(ay, inf), o.eq(ax, inf));
    let (y_zero, x_zero) = (o.eqc(ay, 0.0), o.eqc(ax, 0.0));
    // The core on finite, non-zero stand-ins (the special lanes are
    // replaced below).
    let one = o.f(1.0);
    let y_bad = o.or(y_inf, y_zero);
    let x_bad = o.or(x_inf, x_zero);
    let n = o.sel(y_bad, one, ay);
    let d = o.sel(x_bad, one, ax);
    // Coordinates near the ends of the range move 2^600 inwards (the
    // double-double steps add and multiply them): down where the larger is
    // huge; up where the smaller is tiny and the larger not large, since
    // a subnormal coordinate (or a product of one) has too few bits for
    // the double-double quotient (a subnormal y was 134 ulp off). Where
    // the smaller is tiny and the larger large, the ratio is below 2^-900
    // and `angle` divides once.
    let m = o.max(n, d);
    let least = o.min(n, d);
    let big = o.gtc(m, 2f64.powi(1000));
    let tiny = o.ltc(least, 2f64.powi(-800));
    let moderate = o.ltc(m, 2f64.powi(200));
    let small = o.and(tiny, moderate);
    let down = o.f(2f64.powi(-600));
    let up = o.f(2f64.powi(600));
    let scale = o.sel(big, down, one);
    let scale = o.sel(small, up, scale);
    let n = o.mul(n, scale);
    let d = o.mul(d, scale);
    let n = o.df_from(n);
    let d = o.df_from(d);
    let r = angle(o, n, d);
    // First-quadrant specials: 0 (y zero or only x infinite), pi/2 (x zero
    // or only y infinite), pi/4 (both infinite).
    let zero = o.f(0.0);
    let zero = o.df_from(zero);
    let half_pi = o.df_const(HALF_PI);
    let quarter = o.df_const(QUARTER_PI);
    let not_y_inf = o.not(y_inf);
    let x_only_inf = o.and(x_inf, not_y_inf);
    let flat = o.or(y_zero, x_only_inf);
    let not_x_inf = o.not(x_inf);
    let y_only_inf = o.and(y_inf, not_x_inf);
    let not_y_zero = o.not(y_zero);
    let x_zero_only = o.and(x_zero, not_y_zero);
    let upright = o.or(x_zero_only, y_only_inf);
    let both_inf = o.and(y_inf, x_inf);
    let r = o.df_sel(upright, half_pi, r);
    let r = o.df_sel(flat, zero, r);
    let r = o.df_sel(both_inf, quarter, r);
    // x negative (its sign bit, so -0 counts): pi - r.
    let pi = o.df_const(PI);
    let minus_r = o.df_neg(r);
    let reflected = o.df_add(pi, minus_r);
    let x_negative = o.sign_bit(x);
    let r = o.df_sel(x_negative, reflected, r);
    let v = finish(o, r, in_turns);
    let v = o.copysign(v, y);
    let (nx, ny) = (o.is_nan(x), o.is_nan(y));
    let nan = o.or(nx, ny);
    let q = o.nan();
    o.sel(nan, q, v)
}

fn atan_in(o: &mut Ops, x: V, in_turns: bool) -> V {
    let one = o.f(1.0);
    atan2_in(o, x, one, in_turns)
}

pub(super) fn asin(o: &mut Ops, x: V) -> V {
    asin_in(o, x, false)
}
pub(super) fn asinpi(o: &mut Ops, x: V) -> V {
    asin_in(o, x, true)
}
pub(super) fn acos(o: &mut Ops, x: V) -> V {
    acos_in(o, x, false)
}
pub(super) fn acospi(o: &mut Ops, x: V) -> V {
    acos_in(o, x, true)
}
pub(super) fn atan(o: &mut Ops, x: V) -> V {
    atan_in(o, x, false)
}
pub(super) fn atanpi(o: &mut Ops, x: V) -> V {
    atan_in(o, x, true)
}
pub(super) fn atan2(o: &mut Ops, y: V, x: V) -> V {
    atan2_in(o, y, x, false)
}
pub(super) fn atan2pi(o: &mut Ops, y: V, x: V) -> V {
    atan2_in(o, y, x, true)
}
