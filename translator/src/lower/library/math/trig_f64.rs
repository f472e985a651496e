//! `sin`, `cos`, `tan`, `sinpi`, `cospi` and `tanpi` on `double`, at
//! OpenCL's full-profile bounds over the whole range: the argument reduced
//! modulo pi/2 (`trig_reduce_f64.rs`; the `*pi` functions reduce exactly in
//! floating point), then Taylor polynomials of `sin r` and `cos r` in
//! `r.hi` with `r.lo`'s first-order share; `cos` keeps `1 - r^2/2` exact
//! to the last rounding. (The `float` functions, `trig_f32.rs`, must also
//! hold where subnormals flush and comparisons fold, and drop the
//! second-order terms a float's precision does not need.)

use super::consts::PI;
use super::ops::{Df, Ops, V};
use super::series::sin_cos_taylor;
use super::trig_reduce_f64::{reduce, TrigTypes};

/// `(sin(x) - x) / x^3` in `x^2`: -1/3! .. -1/19!, below 2^-56 relative
/// for |x| <= pi/4.
const SIN_TAYLOR: [f64; 9] = sin_cos_taylor(3);
/// `(cos(x) - 1 + x^2/2) / x^4` in `x^2`: 1/4! .. 1/20!.
const COS_TAYLOR: [f64; 9] = sin_cos_taylor(4);

pub(super) fn sin_reduced(o: &mut Ops, r: Df) -> V {
    let r2 = o.mul(r.hi, r.hi);
    let p = o.poly(r2, &SIN_TAYLOR);
    let r3 = o.mul(r2, r.hi);
    let tail = o.mul(r3, p);
    // sin(hi + lo) ~ sin(hi) + lo cos(hi), cos(hi) ~ 1 - hi^2/2.
    let half = o.mulc(r2, -0.5);
    let share = o.mad(r.lo, half, r.lo);
    let tail = o.add(tail, share);
    o.add(r.hi, tail)
}

pub(super) fn cos_reduced(o: &mut Ops, r: Df) -> V {
    let sq = o.two_prod(r.hi, r.hi);
    let h = o.mulc(sq.hi, 0.5);
    let h_lo = o.mulc(sq.lo, 0.5);
    let one = o.f(1.0);
    let w = o.sub(one, h);
    let lost = o.sub(one, w);
    let lost = o.sub(lost, h);
    let r4 = o.mul(sq.hi, sq.hi);
    let p = o.poly(sq.hi, &COS_TAYLOR);
    let series = o.mul(r4, p);
    // cos(hi + lo) ~ cos(hi) - lo sin(hi), sin(hi) ~ hi.
    let share = o.mul(r.hi, r.lo);
    let tail = o.sub(lost, h_lo);
    let tail = o.add(tail, series);
    let tail = o.sub(tail, share);
    o.add(w, tail)
}

/// `v` or `-v` by the bit `bit` of the quadrant `q`.
fn negate_if(o: &mut Ops, q: V, bit: i32, v: V) -> V {
    let mask = o.i(bit);
    let set = o.and(q, mask);
    let zero = o.i(0);
    let flip = o.ne(set, zero);
    let minus = o.flip_sign(v);
    o.sel(flip, minus, v)
}

/// NaN for infinite and NaN `x`.
fn finite_only(o: &mut Ops, x: V, r: V) -> V {
    let inf = o.is_inf(x);
    let nan = o.is_nan(x);
    let bad = o.or(inf, nan);
    let q = o.nan();
    o.sel(bad, q, r)
}

fn odd_quadrant(o: &mut Ops, q: V) -> V {
    let one = o.i(1);
    let bit = o.and(q, one);
    let zero = o.i(0);
    o.ne(bit, zero)
}

pub(super) fn sin(o: &mut Ops, x: V, types: TrigTypes) -> V {
    let (q, r) = reduce(o, x, types);
    let s = sin_reduced(o, r);
    let c = cos_reduced(o, r);
    let odd = odd_quadrant(o, q);
    let v = o.sel(odd, c, s);
    let v = negate_if(o, q, 2, v);
    // sin(-x) = -sin(x), zeros included.
    let negative = o.sign_bit(x);
    let minus = o.flip_sign(v);
    let v = o.sel(negative, minus, v);
    finite_only(o, x, v)
}

pub(super) fn cos(o: &mut Ops, x: V, types: TrigTypes) -> V {
    let (q, r) = reduce(o, x, types);
    let s = sin_reduced(o, r);
    let c = cos_reduced(o, r);
    let odd = odd_quadrant(o, q);
    let v = o.sel(odd, s, c);
    // cos: quadrants 1 and 2 are negative.
    let one = o.i(1);
    let shifted = o.add(q, one);
    let v = negate_if(o, shifted, 2, v);
    finite_only(o, x, v)
}

pub(super) fn tan(o: &mut Ops, x: V, types: TrigTypes) -> V {
    let (q, r) = reduce(o, x, types);
    let s = sin_reduced(o, r);
    let c = cos_reduced(o, r);
    let odd = odd_quadrant(o, q);
    let even_value = o.div(s, c);
    let minus_c = o.flip_sign(c);
    let odd_value = o.div(minus_c, s);
    let v = o.sel(odd, odd_value, even_value);
    let negative = o.sign_bit(x);
    let minus = o.flip_sign(v);
    let v = o.sel(negative, minus, v);
    finite_only(o, x, v)
}

/// `x` reduced exactly for the `*pi` functions: `x = 2j + k/2 + r` with
/// |r| <= 1/4; returns the quadrant `k mod 4` (i32), `pi r` as a
/// double-double and whether r is 0.
fn reduce_pi(o: &mut Ops, x: V) -> (V, Df, V) {
    // x - 2 trunc(x/2) is exact and keeps the period.
    let half = o.mulc(x, 0.5);
    let whole = o.trunc(half);
    let twice = o.mulc(whole, 2.0);
    let xr = o.sub(x, twice);
    let doubled = o.mulc(xr, 2.0);
    let k = o.rint(doubled);
    let k_half = o.mulc(k, 0.5);
    let r = o.sub(xr, k_half);
    let pi = Df {
        hi: o.f(PI.0),
        lo: o.f(PI.1),
    };
    let angle = o.df_mul(pi, r);
    let k = o.int_from_float(k);
    let three = o.i(3);
    let q = o.and(k, three);
    let on_grid = o.eqc(r, 0.0);
    (q, angle, on_grid)
}

/// Whether the i32 `q` equals `v`.
fn quadrant_is(o: &mut Ops, q: V, v: i32) -> V {
    let v = o.i(v);
    o.eq(q, v)
}

pub(super) fn sinpi(o: &mut Ops, x: V) -> V {
    let (q, angle, on_grid) = reduce_pi(o, x);
    let s = sin_reduced(o, angle);
    let c = cos_reduced(o, angle);
    let odd = odd_quadrant(o, q);
    let v = o.sel(odd, c, s);
    let v = negate_if(o, q, 2, v);
    // sinpi(n) = +0 for positive, -0 for negative integers n (and +-0).
    let even = o.not(odd);
    let integer = o.and(on_grid, even);
    let zero = o.f(0.0);
    let signed_zero = o.copysign(zero, x);
    let v = o.sel(integer, signed_zero, v);
    finite_only(o, x, v)
}

pub(super) fn cospi(o: &mut Ops, x: V) -> V {
    let (q, angle, on_grid) = reduce_pi(o, x);
    let s = sin_reduced(o, angle);
    let c = cos_reduced(o, angle);
    let odd = odd_quadrant(o, q);
    let v = o.sel(odd, s, c);
    let one = o.i(1);
    let shifted = o.add(q, one);
    let v = negate_if(o, shifted, 2, v);
    // cospi(n + 1/2) = +0.
    let half_integer = o.and(on_grid, odd);
    let zero = o.f(0.0);
    let v = o.sel(half_integer, zero, v);
    finite_only(o, x, v)
}

pub(super) fn tanpi(o: &mut Ops, x: V) -> V {
    let (q, angle, on_grid) = reduce_pi(o, x);
    let s = sin_reduced(o, angle);
    let c = cos_reduced(o, angle);
    let odd = odd_quadrant(o, q);
    let even_value = o.div(s, c);
    let minus_c = o.flip_sign(c);
    let odd_value = o.div(minus_c, s);
    let v = o.sel(odd, odd_value, even_value);
    // Integers n: copysign(0, n) for even n, copysign(0, -n) for odd n
    // (q = 0, 2); n + 1/2: +inf for even n (q = 1), -inf for odd (q = 3).
    let zero = o.f(0.0);
    let with_x = o.copysign(zero, x);
    let against_x = o.flip_sign(with_x);
    let q2 = quadrant_is(o, q, 2);
    let integer_value = o.sel(q2, against_x, with_x);
    let inf = o.inf();
    let minus_inf = o.neg(inf);
    let q3 = quadrant_is(o, q, 3);
    let pole_value = o.sel(q3, minus_inf, inf);
    let grid_value = o.sel(odd, pole_value, integer_value);
    let v = o.sel(on_grid, grid_value, v);
    finite_only(o, x, v)
}
