//! The inverse trigonometric functions on `float`: `asin`, `acos`,
//! `atan`, `atan2` and (through [`over_pi`]) their `*pi` forms. They
//! reduce to small arguments by the usual identities (`atan` by ranges
//! around tan(pi/8) and tan(3pi/8), `asin` through
//! `pi/2 - 2 asin(sqrt((1 - a)/2))` above 1/2) and keep the result as a
//! `hi + lo` pair until the last rounding, so the `*pi` versions divide by
//! pi accurately. Special values come from finite stand-ins chosen by bit
//! tests (see `trig_ops_f32.rs`). (`double`'s `inverse_trig_f64.rs` takes
//! one core, the angle of a point in double-double, for all of them.)

use super::ops::{Df, Ops, V};
use super::series::atan_taylor;
use super::trig_ops_f32::{
    constant_minus, div_significands, flip_sign_by, infinite_by_bits, is_zero_or_subnormal,
    magnitude_bits, nan_by_bits, residual, sign_word, times_constant_pair, INV_PI, PIO2, PIO4,
    PI_PAIR, TINY, TINY_SCALE,
};
use naga::BinaryOperator as B;

/// atan(t) = t + t^3 * A(t^2), for |t| <= tan(pi/8).
const ATAN_POLY: [f64; 10] = atan_taylor();

/// asin(s) = s + s^3 * A(s^2), for |s| <= 1/2: (2k)! / (4^k k!^2 (2k+1)),
/// as the floats `float` division makes of these quotients.
const ASIN_POLY: [f64; 11] = {
    let c: [f32; 11] = [
        1.0 / 6.0,
        3.0 / 40.0,
        15.0 / 336.0,
        105.0 / 3456.0,
        945.0 / 42_240.0,
        10_395.0 / 599_040.0,
        135_135.0 / 9_676_800.0,
        2_027_025.0 / 175_472_640.0,
        34_459_425.0 / 3_530_096_640.0,
        654_729_075.0 / 78_033_715_200.0,
        13_749_310_575.0 / 1_887_425_822_720.0,
    ];
    let mut wide = [0.0; 11];
    let mut i = 0;
    while i < 11 {
        wide[i] = c[i] as f64;
        i += 1;
    }
    wide
};

/// atan(a) for a >= 0 (or NaN) as a pair, by the ranges
/// [0, tan pi/8]: the series; (.., tan 3pi/8]: pi/4 + atan((a-1)/(a+1));
/// above: pi/2 + atan(-1/a).
fn atan_positive(o: &mut Ops, a: V) -> Df {
    let one = o.f(1.0);
    let zero = o.f(0.0);
    // (a - 1) / (a + 1) with the rounding of a + 1 corrected.
    let n = o.sub(a, one);
    let d = o.two_sum(a, one);
    let t_mid = o.bin(B::Divide, n, d.hi);
    let residual = residual(o, n, t_mid, d.hi);
    let nt = o.neg(t_mid);
    let residual = o.mad(nt, d.lo, residual);
    let correction = o.bin(B::Divide, residual, d.hi);
    let t_mid = o.add(t_mid, correction);
    let minus_one = o.f(-1.0);
    let t_big = div_significands(o, minus_one, a);
    let mid_start = o.f(0.414_213_57);
    let big_start = o.f(2.414_213_5);
    let is_mid = o.gt(a, mid_start);
    let is_big = o.gt(a, big_start);
    let t = o.sel(is_mid, t_mid, a);
    let t = o.sel(is_big, t_big, t);
    let base_hi = {
        let pio4 = o.f(PIO4[0]);
        let pio2 = o.f(PIO2[0]);
        let b = o.sel(is_mid, pio4, zero);
        o.sel(is_big, pio2, b)
    };
    let base_lo = {
        let pio4 = o.f(PIO4[1]);
        let pio2 = o.f(PIO2[1]);
        let b = o.sel(is_mid, pio4, zero);
        o.sel(is_big, pio2, b)
    };
    let z = o.mul(t, t);
    let cube = o.mul(t, z);
    let p = o.poly(z, &ATAN_POLY);
    let series_tail = o.mul(cube, p);
    // base + t + series_tail, with |t| <= base or base = 0.
    let head = o.two_sum(base_hi, t);
    let lo = o.add(base_lo, series_tail);
    let lo = o.add(head.lo, lo);
    o.fast_two_sum(head.hi, lo)
}

pub(super) fn atan(o: &mut Ops, x: V) -> Df {
    let a = o.abs(x);
    // Infinities and NaN never enter the algorithm (-1/a would meet an
    // infinity): atan(+-inf) = +-pi/2 exactly as a pair.
    let infinite = infinite_by_bits(o, x);
    let nan = nan_by_bits(o, x);
    let special = o.or(infinite, nan);
    let one = o.f(1.0);
    let a = o.sel(special, one, a);
    let v = atan_positive(o, a);
    let half_pi = Df {
        hi: o.f(PIO2[0]),
        lo: o.f(PIO2[1]),
    };
    let v = o.df_sel(infinite, half_pi, v);
    let sign = sign_word(o, x);
    let v = Df {
        hi: flip_sign_by(o, v.hi, sign),
        lo: flip_sign_by(o, v.lo, sign),
    };
    nan_where(o, nan, v)
}

/// NaN (both parts) where `condition` holds.
fn nan_where(o: &mut Ops, condition: V, v: Df) -> Df {
    let nan = o.nan();
    Df {
        hi: o.sel(condition, nan, v.hi),
        lo: o.sel(condition, nan, v.lo),
    }
}

pub(super) fn atan2(o: &mut Ops, y: V, x: V) -> Df {
    let ay = o.abs(y);
    let ax = o.abs(x);
    // The special cases of OpenCL C 7.5.1 come from finite stand-ins
    // chosen by bit tests, so no infinity reaches the arithmetic:
    // an infinite y against a finite x is 1 against 0 (pi/2), a finite
    // y against an infinite x is 0 against 1 (0 or pi), two infinities
    // are 1 against 1 (pi/4 or 3pi/4). Subnormals count as zeros, as
    // on devices that flush them. (The division normalises exponents
    // itself, so no other scaling is needed.)
    let zero = o.f(0.0);
    let one = o.f(1.0);
    let (y_inf, x_inf) = (infinite_by_bits(o, y), infinite_by_bits(o, x));
    let (y_zero, x_zero) = (is_zero_or_subnormal(o, y), is_zero_or_subnormal(o, x));
    let ay = o.sel(y_zero, zero, ay);
    let ay = o.sel(x_inf, zero, ay);
    let ay = o.sel(y_inf, one, ay);
    let ax = o.sel(x_zero, zero, ax);
    let ax = o.sel(y_inf, zero, ax);
    let ax = o.sel(x_inf, one, ax);
    let steep = o.gt(ay, ax);
    let small = o.sel(steep, ax, ay);
    let large = o.sel(steep, ay, ax);
    let t = div_significands(o, small, large);
    // Equal magnitudes are 45 degrees (two zeros are caught below).
    let equal = o.eq(ay, ax);
    let t = o.sel(equal, one, t);
    let base = atan_positive(o, t);
    let turned = constant_minus(o, [PIO2[0], PIO2[1]], base);
    let angle = o.df_sel(steep, turned, base);
    // y = 0 is angle 0 (before reflecting for a negative x), whatever x.
    let flat = o.eq(ay, zero);
    let nothing = Df { hi: zero, lo: zero };
    let angle = o.df_sel(flat, nothing, angle);
    let reflected = constant_minus(o, PI_PAIR, angle);
    let x_sign = sign_word(o, x);
    let zero_u = o.u(0);
    let left = o.ne(x_sign, zero_u);
    let angle = o.df_sel(left, reflected, angle);
    let y_sign = sign_word(o, y);
    let angle = Df {
        hi: flip_sign_by(o, angle.hi, y_sign),
        lo: flip_sign_by(o, angle.lo, y_sign),
    };
    let x_nan = nan_by_bits(o, x);
    let y_nan = nan_by_bits(o, y);
    let nan = o.or(x_nan, y_nan);
    nan_where(o, nan, angle)
}

/// asin(a) for 0 <= a <= 1 as a pair: the series up to 1/2, above it
/// pi/2 - 2 asin(sqrt((1 - a)/2)). Also gives the pieces acos needs:
/// (series value for a <= 1/2 as `x + tail`, 2 asin(s) as a pair).
fn asin_parts(o: &mut Ops, a: V) -> (V, Df) {
    let one = o.f(1.0);
    let half = o.f(0.5);
    // Near 0: a + a^3 P(a^2); the tail only.
    let z = o.mul(a, a);
    let cube = o.mul(a, z);
    let p = o.poly(z, &ASIN_POLY);
    let small_tail = o.mul(cube, p);
    // Near 1: s = sqrt(z) with z = (1 - a)/2 exact; s_lo corrects the
    // rounding of the square root (Vulkan's may be off by ulps).
    let gap = o.sub(one, a);
    let z = o.mul(gap, half);
    let s = o.math(naga::MathFunction::Sqrt, z);
    let residual = residual(o, z, s, s);
    let twice = o.add(s, s);
    let s_lo = o.bin(B::Divide, residual, twice);
    let zero = o.f(0.0);
    let positive = o.gt(s, zero);
    let s_lo = o.sel(positive, s_lo, zero);
    let s_cube = o.mul(s, z);
    let p = o.poly(z, &ASIN_POLY);
    let w = o.mad(s_cube, p, s_lo);
    let two = o.f(2.0);
    let double_asin = Df {
        hi: o.mul(s, two),
        lo: o.mul(w, two),
    };
    (small_tail, double_asin)
}

pub(super) fn asin(o: &mut Ops, x: V) -> Df {
    let a = o.abs(x);
    let (small_tail, double_asin) = asin_parts(o, a);
    let near_zero = Df {
        hi: a,
        lo: small_tail,
    };
    let near_one = constant_minus(o, [PIO2[0], PIO2[1]], double_asin);
    let half = o.f(0.5);
    let small = o.le(a, half);
    let v = o.df_sel(small, near_zero, near_one);
    let sign = sign_word(o, x);
    let v = Df {
        hi: flip_sign_by(o, v.hi, sign),
        lo: flip_sign_by(o, v.lo, sign),
    };
    nan_beyond_one(o, a, v)
}

pub(super) fn acos(o: &mut Ops, x: V) -> Df {
    let a = o.abs(x);
    let (small_tail, double_asin) = asin_parts(o, a);
    // |x| <= 1/2: pi/2 - asin(x).
    let sign = sign_word(o, x);
    let signed_tail = flip_sign_by(o, small_tail, sign);
    let asin = Df {
        hi: x,
        lo: signed_tail,
    };
    let middle = constant_minus(o, [PIO2[0], PIO2[1]], asin);
    // x > 1/2: 2 asin(sqrt((1 - x)/2)); x < -1/2: pi minus that.
    let right = o.fast_two_sum(double_asin.hi, double_asin.lo);
    let left = constant_minus(o, PI_PAIR, double_asin);
    let zero_u = o.u(0);
    let negative = o.ne(sign, zero_u);
    let outer = o.df_sel(negative, left, right);
    let half = o.f(0.5);
    let small = o.le(a, half);
    let v = o.df_sel(small, middle, outer);
    nan_beyond_one(o, a, v)
}

/// NaN where |x| > 1, infinite or NaN (`a` = |x|), by the bits.
fn nan_beyond_one(o: &mut Ops, a: V, v: Df) -> Df {
    let m = magnitude_bits(o, a);
    let one = o.u(0x3f80_0000);
    let beyond = o.gt(m, one);
    nan_where(o, beyond, v)
}

/// v / pi, rounded once at the end. Tiny values are scaled by 2^64
/// first so that the error terms of the product stay normal on devices
/// that flush subnormals, and scaled back by the last multiplication.
/// A zero (or a value such a device reads as zero) gives a zero of its
/// sign, never `v` ito.
pub(super) fn over_pi(o: &mut Ops, v: Df) -> V {
    let magnitude = o.abs(v.hi);
    let limit = o.f(TINY);
    let tiny = o.lt(magnitude, limit);
    let one = o.f(1.0);
    let up = o.f(TINY_SCALE);
    let down = o.f(1.0 / TINY_SCALE);
    let up = o.sel(tiny, up, one);
    let down = o.sel(tiny, down, one);
    let scaled = Df {
        hi: o.mul(v.hi, up),
        lo: o.mul(v.lo, up),
    };
    let q = times_constant_pair(o, scaled, INV_PI).hi;
    let q = o.mul(q, down);
    let is_zero = is_zero_or_subnormal(o, v.hi);
    let sign = sign_word(o, v.hi);
    let signed_zero = o.as_float(sign);
    let q = o.sel(is_zero, signed_zero, q);
    let nan = nan_by_bits(o, v.hi);
    let nan_value = o.nan();
    o.sel(nan, nan_value, q)
}
