//! The single-precision trigonometric built-ins (`sin` .. `atan2pi`,
//! `sincos`, the `*pi` variants and `half_sin/cos/tan`) at OpenCL
//! full-profile accuracy, computed in software: GLSL.std.450's `Sin`/`Cos`
//! only promise about 2^-11 absolute error, where OpenCL asks for 4 ulp
//! over the whole float range.
//!
//! Arguments of `sin`/`cos`/`tan` are reduced modulo pi/2 by a three-part
//! Cody-Waite subtraction below [`CODY_WAITE_LIMIT`] and by a Payne-Hanek
//! multiplication with a table of the bits of 2/pi above it (32-bit integer
//! arithmetic only: devices may lack 64-bit integers; skipped by a branch
//! unless some lane needs it). The reduced argument
//! is a pair `hi + lo` so the polynomials see more than 24 bits where the
//! argument was close to a multiple of pi/2. The `*pi` functions reduce
//! exactly in floating point. The inverse functions reduce to small
//! arguments by the usual identities and keep the result as a `hi + lo`
//! pair until the last rounding, so the `*pi` versions divide by pi
//! accurately. Every function is element-wise, so one lowering serves
//! `float` and every vector width.
//!
//! The polynomials are the Taylor series truncated where the next term is
//! below 2^-30 of the result on the reduced interval, evaluated with fma.
//! Vulkan lets `Fma` round twice, so no exact step relies on it: exact
//! products are Dekker products of masked 12-bit halves.
//! Devices may flush subnormal results to zero and may divide through a
//! reciprocal (NVIDIA does both), so no error term is allowed to become
//! subnormal where it matters (tiny arguments are scaled by 2^64 first,
//! and division works on significands), and no infinity or NaN goes through
//! the arithmetic to produce a special value: those are chosen by selects
//! on bit tests, which a compiler assuming finite floats cannot fold.
//! `-cl-fast-relaxed-math` and `half_*` map to the GLSL functions.

use super::consts::{HALF_PI, PI, QUARTER_PI};
use super::ops::{Df, Ops, V};
use super::series::{atan_taylor, sin_cos_taylor};
use super::*;
use naga::BinaryOperator as B;

/// Above this magnitude `sin`/`cos`/`tan` reduce by Payne-Hanek. Below it
/// the quotient k has at most 15 bits: k P1 and k P2 are subtracted
/// exactly and the rounding of k P3 leaves an error near 2^-58, far below
/// the remainders floats of that size leave (the tests include the floats
/// closest to multiples of pi/2).
const CODY_WAITE_LIMIT: f64 = 32768.0;

/// `c` as floats: the nearest float to `c` and to each rest in turn (`c`
/// a double-double).
const fn float_parts<const N: usize>(c: (f64, f64)) -> [f64; N] {
    let mut parts = [0.0; N];
    let mut rest = c;
    let mut i = 0;
    while i < N {
        let part = rest.0 as f32 as f64;
        parts[i] = part;
        rest = ((rest.0 - part) + rest.1, 0.0);
        i += 1;
    }
    parts
}

/// pi/2 as three floats whose sum carries about 72 bits.
const PIO2: [f64; 3] = float_parts(HALF_PI);
/// Below this magnitude the error terms of a product with a constant
/// near 1 can be subnormal, which some devices flush to zero: such values
/// are multiplied by [`TINY_SCALE`] first and the result scaled back.
const TINY: f64 = 8.673_617e-19_f32 as f64; // 2^-60
const TINY_SCALE: f64 = 18_446_744_073_709_551_616.0; // 2^64
const PI_PAIR: [f64; 2] = float_parts(PI);
const PIO4: [f64; 2] = float_parts(QUARTER_PI);
const INV_PI: [f64; 2] = [
    std::f32::consts::FRAC_1_PI as f64,
    1.284_127_6e-8_f32 as f64,
];

/// The bits of 2/pi after the binary point, big-endian, after one zero
/// word so that windows starting before the binary point read zeros.
const TWO_OVER_PI_BITS: [u32; 10] = [
    0x0000_0000,
    0xa2f9_836e,
    0x4e44_1529,
    0xfc27_57d1,
    0xf534_ddc0,
    0xdb62_9599,
    0x3c43_9041,
    0xfe51_63ab,
    0xdebb_c561,
    0xb724_6e3a,
];

/// sin(x) = x + x^3 * S(x^2): Taylor coefficients of S.
const SIN_POLY: [f64; 5] = sin_cos_taylor(3);
/// cos(x) = 1 - x^2/2 + x^4 * C(x^2).
const COS_POLY: [f64; 5] = sin_cos_taylor(4);
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

/// The built-ins this module lowers (for `float` arguments).
const TRIG_BUILTINS: [Builtin; 18] = [
    Builtin::Sin,
    Builtin::Cos,
    Builtin::Tan,
    Builtin::Sincos,
    Builtin::Sinpi,
    Builtin::Cospi,
    Builtin::Tanpi,
    Builtin::Asin,
    Builtin::Acos,
    Builtin::Atan,
    Builtin::Atan2,
    Builtin::Asinpi,
    Builtin::Acospi,
    Builtin::Atanpi,
    Builtin::Atan2pi,
    Builtin::HalfSin,
    Builtin::HalfCos,
    Builtin::HalfTan,
];

/// `|x|` reduced in units of pi (see [`reduce_pi_units`]).
struct PiReduction {
    /// pi r, r = t - quadrant/2 in [-1/4, 1/4].
    r: Df,
    /// The quarter turn, 0..4, as a `u32`.
    quadrant: V,
    /// |x| modulo 2.
    t: V,
    /// Whether |x| is below [`TINY`], where `tiny_value` is the result of
    /// sinpi and tanpi.
    tiny: V,
    tiny_value: V,
}

/// The naga types the reduction modulo pi/2 needs: `f32` and `u32` values
/// of the operands' width, and `array<u32, N>` holding
/// [`TWO_OVER_PI_BITS`].
#[derive(Clone, Copy)]
struct Types {
    float: Handle<naga::Type>,
    uint: Handle<naga::Type>,
    table: Handle<naga::Type>,
}

fn sel_pair(o: &mut Ops, condition: V, accept: Df, reject: Df) -> Df {
    Df {
        hi: o.sel(condition, accept.hi, reject.hi),
        lo: o.sel(condition, accept.lo, reject.lo),
    }
}

/// `x` with its sign bit flipped where `sign` (a `u32` holding only
/// the sign bit, or 0) has it set.
fn flip_sign_by(o: &mut Ops, x: V, sign: V) -> V {
    let bits = o.uint_bits(x);
    let flipped = o.xor(bits, sign);
    o.as_float(flipped)
}

/// The sign bit of `x`, in place, as a `u32`.
fn sign_word(o: &mut Ops, x: V) -> V {
    let bits = o.uint_bits(x);
    let mask = o.u(0x8000_0000);
    o.and(bits, mask)
}

/// `x` without its sign bit, as a `u32`: the integer tests below
/// classify by bits because a driver may assume floats are finite and
/// fold float comparisons with NaN or infinity.
fn magnitude_bits(o: &mut Ops, x: V) -> V {
    let bits = o.uint_bits(x);
    let mask = o.u(0x7fff_ffff);
    o.and(bits, mask)
}

fn nan_by_bits(o: &mut Ops, x: V) -> V {
    let m = magnitude_bits(o, x);
    let inf = o.u(0x7f80_0000);
    o.gt(m, inf)
}

fn infinite_by_bits(o: &mut Ops, x: V) -> V {
    let m = magnitude_bits(o, x);
    let inf = o.u(0x7f80_0000);
    o.eq(m, inf)
}

/// Zero or subnormal: what a device that flushes subnormals reads as
/// zero, so every device takes the same path.
fn is_zero_or_subnormal(o: &mut Ops, x: V) -> V {
    let m = magnitude_bits(o, x);
    let smallest_normal = o.u(0x0080_0000);
    o.lt(m, smallest_normal)
}

/// NaN where `x` is infinite or NaN, `value` elsewhere.
fn nan_unless_finite(o: &mut Ops, x: V, value: V) -> V {
    let m = magnitude_bits(o, x);
    let inf = o.u(0x7f80_0000);
    let finite = o.lt(m, inf);
    let nan = o.nan();
    o.sel(finite, value, nan)
}

/// n / d to within about half an ulp whatever the hardware's division
/// (Vulkan allows 2.5 ulp). The significands are divided (both in
/// [1, 2), so every intermediate of the residual correction is a normal
/// float on any device) and the exponent difference applied after, in
/// two steps so that only the last multiplication can round (where the
/// quotient is subnormal). Zeros, infinities and NaNs are chosen by
/// bit tests, never left to the hardware: a device that divides through
/// a reciprocal makes NaN of finite / inf. Subnormal operands count as
/// zeros, as on devices that flush them.
fn div_significands(o: &mut Ops, n: V, d: V) -> V {
    let (n_bits, d_bits) = (o.uint_bits(n), o.uint_bits(d));
    let sign_mask = o.u(0x8000_0000);
    let signs = o.xor(n_bits, d_bits);
    let sign = o.and(signs, sign_mask);
    let (nm, n_exponent) = significand_and_exponent(o, n_bits);
    let (dm, d_exponent) = significand_and_exponent(o, d_bits);
    let q = o.bin(B::Divide, nm, dm);
    let residual = residual(o, nm, q, dm);
    let correction = o.bin(B::Divide, residual, dm);
    let q = o.add(q, correction);
    // Beyond +-200 the result over- or underflows anyway.
    let k = o.sub(n_exponent, d_exponent);
    let (low, high) = (o.i(-200), o.i(200));
    let k = o.max(k, low);
    let k = o.min(k, high);
    // Arithmetic shift (k is signed; the amount must be unsigned).
    let k1 = o.shr(k, 1);
    let k2 = o.sub(k, k1);
    let s1 = o.pow2(k1);
    let s2 = o.pow2(k2);
    let q = o.mul(q, s1);
    let q = o.mul(q, s2);
    let (n_zero, d_zero) = (is_zero_or_subnormal(o, n), is_zero_or_subnormal(o, d));
    let (n_inf, d_inf) = (infinite_by_bits(o, n), infinite_by_bits(o, d));
    let zero_result = o.or(n_zero, d_inf);
    let signed_zero = o.as_float(sign);
    let q = o.sel(zero_result, signed_zero, q);
    let infinite_result = o.or(n_inf, d_zero);
    let inf_bits = o.u(0x7f80_0000);
    let signed_inf = o.or(sign, inf_bits);
    let signed_inf = o.as_float(signed_inf);
    let q = o.sel(infinite_result, signed_inf, q);
    let (n_nan, d_nan) = (nan_by_bits(o, n), nan_by_bits(o, d));
    let nan = o.or(n_nan, d_nan);
    let zeros = o.and(n_zero, d_zero);
    let nan = o.or(nan, zeros);
    let infinities = o.and(n_inf, d_inf);
    let nan = o.or(nan, infinities);
    let nan_value = o.nan();
    o.sel(nan, nan_value, q)
}

/// A float's bits as its significand with the sign (in [1, 2) in
/// magnitude) and its biased exponent (an `i32`).
fn significand_and_exponent(o: &mut Ops, bits: V) -> (V, V) {
    let keep = o.u(0x807f_ffff);
    let one = o.u(0x3f80_0000);
    let m = o.and(bits, keep);
    let m = o.or(m, one);
    let m = o.as_float(m);
    let byte = o.u(0xff);
    let e = o.shr(bits, 23);
    let e = o.and(e, byte);
    let e = o.sint_bits(e);
    (m, e)
}

/// n - q d for q close to n / d, exactly up to the last rounding.
fn residual(o: &mut Ops, n: V, q: V, d: V) -> V {
    let p = o.two_prod(q, d);
    // n - p.hi is exact (Sterbenz): p.hi is within a factor 2 of n.
    let r = o.sub(n, p.hi);
    o.sub(r, p.lo)
}

/// `c - p` for a constant `c` given as a pair and |p| <= |c.hi|.
fn constant_minus(o: &mut Ops, c: [f64; 2], p: Df) -> Df {
    let c_hi = o.f(c[0]);
    let c_lo = o.f(c[1]);
    let minus_hi = o.neg(p.hi);
    let head = o.fast_two_sum(c_hi, minus_hi);
    let tail = o.sub(c_lo, p.lo);
    let lo = o.add(head.lo, tail);
    o.fast_two_sum(head.hi, lo)
}

/// `v * (c.hi + c.lo)` as a pair.
fn times_constant_pair(o: &mut Ops, v: Df, c: [f64; 2]) -> Df {
    let c_hi = o.f(c[0]);
    let c_lo = o.f(c[1]);
    let head = o.two_prod(v.hi, c_hi);
    let cross = o.mul(v.hi, c_lo);
    let tail = o.mad(v.lo, c_hi, cross);
    let lo = o.add(head.lo, tail);
    let hi = head.hi;
    o.fast_two_sum(hi, lo)
}

// ---- sine and cosine of a reduced argument ----
/// sin(r) for r = hi + lo, |r| <= about pi/4.
fn sin_reduced(o: &mut Ops, r: Df) -> V {
    let z = o.mul(r.hi, r.hi);
    let cube = o.mul(r.hi, z);
    let s = o.poly(z, &SIN_POLY);
    // sin(hi + lo) = sin(hi) + lo * cos(hi); cos(hi) - 1 is below the
    // rounding of the result there.
    let tail = o.mad(cube, s, r.lo);
    o.add(r.hi, tail)
}

/// cos(r) for r = hi + lo, |r| <= about pi/4.
fn cos_reduced(o: &mut Ops, r: Df) -> V {
    let z = o.mul(r.hi, r.hi);
    let half = o.f(0.5);
    let w = o.mul(z, half);
    let one = o.f(1.0);
    // 1 - w rounds; recover what it lost, then add z^2 C(z) - hi * lo.
    let head = o.sub(one, w);
    let lost = o.sub(one, head);
    let lost = o.sub(lost, w);
    let c = o.poly(z, &COS_POLY);
    let zz = o.mul(z, z);
    let hl = o.mul(r.hi, r.lo);
    let nhl = o.neg(hl);
    let tail = o.mad(zz, c, nhl);
    let tail = o.add(lost, tail);
    o.add(head, tail)
}

/// sin(r + q pi/2) (`cosine` false) or cos(r + q pi/2) = sin(r + (q + 1)
/// pi/2) from sin r and cos r, for a quadrant `q` (a `u32`): odd
/// quadrants swap sine and cosine, quadrants 2 and 3 negate.
fn by_quadrant(o: &mut Ops, q: V, sin: V, cos: V, cosine: bool) -> V {
    let q = if cosine {
        let one = o.u(1);
        o.add(q, one)
    } else {
        q
    };
    let one = o.u(1);
    let odd = o.and(q, one);
    let zero = o.u(0);
    let swap = o.ne(odd, zero);
    let v = o.sel(swap, cos, sin);
    let two = o.u(2);
    let half_turn = o.and(q, two);
    let sign = o.shl(half_turn, 30);
    flip_sign_by(o, v, sign)
}

// ---- argument reduction modulo pi/2 ----
/// a = q pi/2 + r for finite a >= 0, with q modulo 4 as a `u32`.
fn reduce_half_pi(o: &mut Ops, t: Types, a: V) -> (Df, V) {
    let (cw, cw_q) = cody_waite(o, a);
    let limit = o.f(CODY_WAITE_LIMIT);
    let large = o.ge(a, limit);
    // Payne-Hanek costs several times Cody-Waite: run it only when a
    // lane needs it, passing the results out through variables.
    let any_large = match o.size {
        Some(_) => o.fb.add(naga::Expression::Relational {
            fun: naga::RelationalFunction::Any,
            argument: large,
        }),
        None => large,
    };
    let hi = variable(o, t.float, cw.hi);
    let lo = variable(o, t.float, cw.lo);
    let q = variable(o, t.uint, cw_q);
    o.open_block();
    let (ph, ph_q) = payne_hanek(o, t, a);
    for (pointer, accept, reject) in [(hi, ph.hi, cw.hi), (lo, ph.lo, cw.lo), (q, ph_q, cw_q)] {
        let value = o.sel(large, accept, reject);
        o.fb.push(naga::Statement::Store { pointer, value });
    }
    let accept = o.close_block();
    o.fb.push(naga::Statement::If {
        condition: any_large,
        accept,
        reject: naga::Block::new(),
    });
    let [hi, lo, q] = [hi, lo, q].map(|pointer| o.fb.add(naga::Expression::Load { pointer }));
    (Df { hi, lo }, q)
}

/// A new function-local variable of type `ty` holding `value`; returns
/// its pointer.
fn variable(o: &mut Ops, ty: Handle<naga::Type>, value: V) -> V {
    let var = o.fb.function.local_variables.append(
        naga::LocalVariable {
            name: None,
            ty,
            init: None,
        },
        Span::UNDEFINED,
    );
    let pointer = o.fb.add(naga::Expression::LocalVariable(var));
    o.fb.push(naga::Statement::Store { pointer, value });
    pointer
}

/// r = a - k (P1 + P2 + P3) with k = round(a 2/pi) < 2^15: k P1 and
/// k P2 are subtracted exactly in pair arithmetic, k P3 rounded.
fn cody_waite(o: &mut Ops, a: V) -> (Df, V) {
    let two_over_pi = o.f(std::f64::consts::FRAC_2_PI);
    let scaled = o.mul(a, two_over_pi);
    let k = o.rint(scaled);
    let nk = o.neg(k);
    let [p1, p2, p3] = PIO2.map(|p| o.f(p));
    // a - k P1: the product exactly, then a difference that Sterbenz
    // makes exact (k P1 is within a factor 2 of a, or 0).
    let kp1 = o.two_prod(k, p1);
    let r1 = o.sub(a, kp1.hi);
    let first = o.neg(kp1.lo);
    let s = o.two_sum(r1, first);
    let kp2 = o.two_prod(k, p2);
    let second = o.neg(kp2.hi);
    let t = o.two_sum(s.hi, second);
    let lo = o.add(s.lo, t.lo);
    let lo = o.sub(lo, kp2.lo);
    let lo = o.mad(nk, p3, lo);
    let r = o.fast_two_sum(t.hi, lo);
    let q = o.uint32(k);
    (r, q)
}

/// The 32 bits of the 2/pi table starting at bit `shift` of word
/// `word + offset` (bit 0 the most significant), lane by lane.
fn table_window(o: &mut Ops, t: Types, table: V, word: V, shift: V, offset: u32) -> V {
    let offset_u = o.u(offset);
    let first = o.add(word, offset_u);
    let one = o.u(1);
    let second = o.add(first, one);
    let w0 = lookup(o, t, table, first);
    let w1 = lookup(o, t, table, second);
    let high = o.shl_by(w0, shift);
    // (w1 >> 1) >> (31 - shift): a shift of 32 when shift is 0.
    let w1 = o.shr(w1, 1);
    let thirty_one = o.u(31);
    let rest = o.sub(thirty_one, shift);
    let low = o.shr_by(w1, rest);
    o.or(high, low)
}

/// table[index], per lane.
fn lookup(o: &mut Ops, t: Types, table: V, index: V) -> V {
    let load = |fb: &mut FnBuilder, i: V| {
        let pointer = fb.add(naga::Expression::Access {
            base: table,
            index: i,
        });
        fb.add(naga::Expression::Load { pointer })
    };
    match o.size {
        None => load(o.fb, index),
        Some(size) => {
            let lanes = (0..size as u32)
                .map(|k| {
                    let i = o.fb.add(naga::Expression::AccessIndex {
                        base: index,
                        index: k,
                    });
                    load(o.fb, i)
                })
                .collect();
            o.fb.add(naga::Expression::Compose {
                ty: t.uint,
                components: lanes,
            })
        }
    }
}

/// (high, low) words of the 64-bit product of `m` < 2^24 and `w`.
fn wide_multiply(o: &mut Ops, m: V, w: V) -> (V, V) {
    let mask = o.u(0xffff);
    let (mh, ml) = (o.shr(m, 16), o.and(m, mask));
    let (wh, wl) = (o.shr(w, 16), o.and(w, mask));
    let low_low = o.mul(ml, wl);
    let high_low = o.mul(mh, wl);
    let low_high = o.mul(ml, wh);
    let high_high = o.mul(mh, wh);
    let carry_in = o.shr(low_low, 16);
    let a = o.and(high_low, mask);
    let b = o.and(low_high, mask);
    let middle = o.add(carry_in, a);
    let middle = o.add(middle, b);
    let middle_carry = o.shr(middle, 16);
    let a = o.shr(high_low, 16);
    let b = o.shr(low_high, 16);
    let high = o.add(high_high, a);
    let high = o.add(high, b);
    let high = o.add(high, middle_carry);
    let low = o.mul(m, w);
    (high, low)
}

/// Payne-Hanek: a = m 2^e with a 24-bit integer m; a 2/pi modulo 4 is
/// m times the 96 bits of 2/pi from bit e - 1 on (the earlier bits
/// only add multiples of 4). The product's top two integer bits are the
/// quadrant and its next 94 bits the fraction of a quarter turn.
fn payne_hanek(o: &mut Ops, t: Types, a: V) -> (Df, V) {
    let (m, window) = mantissa_and_window(o, t, a);
    let (quadrant, fraction) = product_modulo_4(o, m, window);
    // A fraction of a half or more rounds the quadrant up and leaves
    // the negative fraction F - 1.
    let (zero, one) = (o.u(0), o.u(1));
    let half_bit = o.u(0x2000_0000);
    let upper = o.and(fraction[0], half_bit);
    let negative = o.ne(upper, zero);
    let complement = negate_fraction(o, fraction);
    let magnitude = [0, 1, 2].map(|i| o.sel(negative, complement[i], fraction[i]));
    let up = o.sel(negative, one, zero);
    let q = o.add(quadrant, up);
    let three = o.u(3);
    let q = o.and(q, three);
    let turns = fraction_value(o, magnitude);
    let r = times_constant_pair(o, turns, [PIO2[0], PIO2[1]]);
    let minus = o.u(0x8000_0000);
    let sign = o.sel(negative, minus, zero);
    let r = Df {
        hi: flip_sign_by(o, r.hi, sign),
        lo: flip_sign_by(o, r.lo, sign),
    };
    (r, q)
}

/// The 24-bit integer mantissa of `a` and the 96 bits of 2/pi that
/// multiply it, most significant word first.
fn mantissa_and_window(o: &mut Ops, t: Types, a: V) -> (V, [V; 3]) {
    let table = table(o, t);
    let bits = o.uint_bits(a);
    let mantissa_mask = o.u(0x7f_ffff);
    let hidden = o.u(0x80_0000);
    let biased = o.shr(bits, 23);
    let m = o.and(bits, mantissa_mask);
    let m = o.or(m, hidden);
    // Bit e - 1 of 2/pi is table bit e + 31 = biased exponent - 120;
    // small arguments (which take the Cody-Waite result) clamp to 0.
    let biased = o.int32(biased);
    let bias = o.i(120);
    let position = o.sub(biased, bias);
    let zero = o.i(0);
    let position = o.max(position, zero);
    let position = o.uint32(position);
    let word = o.shr(position, 5);
    let low_five = o.u(31);
    let shift = o.and(position, low_five);
    let window = [0, 1, 2].map(|i| table_window(o, t, table, word, shift, i));
    (m, window)
}

/// m * w modulo 4 (the binary point after the 94th bit of the 120-bit
/// product): the quadrant and the fraction as a 30-bit word and two
/// full words, most significant first.
fn product_modulo_4(o: &mut Ops, m: V, w: [V; 3]) -> (V, [V; 3]) {
    // Only the low word of m * w0 lands below bit 96.
    let l0 = o.mul(m, w[0]);
    let (h1, l1) = wide_multiply(o, m, w[1]);
    let (h2, l2) = wide_multiply(o, m, w[2]);
    let r0 = l2;
    let r1 = o.add(l1, h2);
    let carry = o.lt(r1, l1);
    let (one, zero) = (o.u(1), o.u(0));
    let carry = o.sel(carry, one, zero);
    let r2 = o.add(l0, h1);
    let r2 = o.add(r2, carry);
    let quadrant = o.shr(r2, 30);
    let fraction_mask = o.u(0x3fff_ffff);
    let top = o.and(r2, fraction_mask);
    (quadrant, [top, r1, r0])
}

/// 2^94 - F for a 94-bit fraction F (30 + 32 + 32 bits): !F + 1.
fn negate_fraction(o: &mut Ops, f: [V; 3]) -> [V; 3] {
    let (one, zero) = (o.u(1), o.u(0));
    let not = f.map(|w| o.fb.unary(naga::UnaryOperator::BitwiseNot, w));
    let n0 = o.add(not[2], one);
    let carry0 = o.eq(f[2], zero);
    let carry0 = o.sel(carry0, one, zero);
    let n1 = o.add(not[1], carry0);
    let low_zero = o.eq(f[1], zero);
    let carry1 = o.sel(low_zero, carry0, zero);
    let n2 = o.add(not[0], carry1);
    let fraction_mask = o.u(0x3fff_ffff);
    let n2 = o.and(n2, fraction_mask);
    [n2, n1, n0]
}

/// The value of a 94-bit fraction below 1/2 as a float pair, normalised
/// first so that arguments very close to a multiple of pi/2 keep all
/// their significant bits: a whole word when the top one is zero, then
/// by the leading zeros.
fn fraction_value(o: &mut Ops, f: [V; 3]) -> Df {
    let zero = o.u(0);
    // The fraction as 96 bits aligned to the binary point:
    // (g2 + g1 2^-32 + g0 2^-64) 2^-32.
    let g2 = o.shl(f[0], 2);
    let t = o.shr(f[1], 30);
    let g2 = o.or(g2, t);
    let g1 = o.shl(f[1], 2);
    let t = o.shr(f[2], 30);
    let g1 = o.or(g1, t);
    let g0 = o.shl(f[2], 2);
    let empty = o.eq(g2, zero);
    let top_word = o.sel(empty, g1, g2);
    let next_word = o.sel(empty, g0, g1);
    let lz = o.math(naga::MathFunction::CountLeadingZeros, top_word);
    let thirty_one = o.u(31);
    let lz = o.min(lz, thirty_one);
    let high = o.shl_by(top_word, lz);
    let carried = o.shr(next_word, 1);
    let rest = o.sub(thirty_one, lz);
    let carried = o.shr_by(carried, rest);
    let high = o.or(high, carried);
    let low = o.shl_by(next_word, lz);
    // high's top 24 bits convert exactly; the rest joins the low part.
    let head_mask = o.u(0xffff_ff00);
    let byte_mask = o.u(0xff);
    let head = o.and(high, head_mask);
    let head = o.float_from_int(head);
    let byte = o.and(high, byte_mask);
    let byte = o.float_from_int(byte);
    let low = o.float_from_int(low);
    let two_m32 = o.f(1.0 / 4_294_967_296.0);
    let tail = o.mad(low, two_m32, byte);
    // Scale by 2^-(32 + lz + 32 * empty), built as exponent bits.
    let thirty_two = o.u(32);
    let skipped = o.sel(empty, thirty_two, zero);
    let exponent = o.u(127 - 32);
    let exponent = o.sub(exponent, lz);
    let exponent = o.sub(exponent, skipped);
    let exponent = o.shl(exponent, 23);
    let scale = o.as_float(exponent);
    let f_hi = o.mul(head, scale);
    let f_lo = o.mul(tail, scale);
    o.fast_two_sum(f_hi, f_lo)
}

/// A function-local copy of the 2/pi table, for indexing.
fn table(o: &mut Ops, t: Types) -> V {
    let words = TWO_OVER_PI_BITS
        .iter()
        .map(|&w| o.fb.add(naga::Expression::Literal(naga::Literal::U32(w))))
        .collect();
    let value = o.fb.add(naga::Expression::Compose {
        ty: t.table,
        components: words,
    });
    variable(o, t.table, value)
}

// ---- the functions ----
/// (sin x, cos x), sharing the reduction.
fn sin_cos(o: &mut Ops, t: Types, x: V) -> (V, V) {
    let a = o.abs(x);
    let (r, q) = reduce_half_pi(o, t, a);
    let s = sin_reduced(o, r);
    let c = cos_reduced(o, r);
    let sin = by_quadrant(o, q, s, c, false);
    let sign = sign_word(o, x);
    let sin = flip_sign_by(o, sin, sign);
    let sin = nan_unless_finite(o, x, sin);
    let cos = by_quadrant(o, q, s, c, true);
    let cos = nan_unless_finite(o, x, cos);
    (sin, cos)
}

/// The element-wise function `b` of `x` (and `y`, the second argument
/// of `atan2`/`atan2pi`), or `None` for a built-in not computed here.
fn function(o: &mut Ops, t: Types, b: Builtin, x: V, y: Option<V>) -> Option<V> {
    Some(match b {
        Builtin::Sin => sin_cos(o, t, x).0,
        Builtin::Cos => sin_cos(o, t, x).1,
        Builtin::Tan => tan(o, t, x),
        Builtin::Sinpi => sinpi(o, x),
        Builtin::Cospi => cospi(o, x),
        Builtin::Tanpi => tanpi(o, x),
        Builtin::Asin => {
            let v = asin(o, x);
            o.df_value(v)
        }
        Builtin::Acos => {
            let v = acos(o, x);
            o.df_value(v)
        }
        Builtin::Atan => {
            let v = atan(o, x);
            o.df_value(v)
        }
        Builtin::Asinpi => {
            let v = asin(o, x);
            over_pi(o, v)
        }
        Builtin::Acospi => {
            let v = acos(o, x);
            over_pi(o, v)
        }
        Builtin::Atanpi => {
            let v = atan(o, x);
            over_pi(o, v)
        }
        // atan2(y, x): the call's first argument is y.
        Builtin::Atan2 => {
            let v = atan2(o, x, y?);
            o.df_value(v)
        }
        Builtin::Atan2pi => {
            let v = atan2(o, x, y?);
            over_pi(o, v)
        }
        _ => return None,
    })
}

fn tan(o: &mut Ops, t: Types, x: V) -> V {
    let a = o.abs(x);
    let (r, q) = reduce_half_pi(o, t, a);
    let v = tan_reduced(o, r, q);
    let sign = sign_word(o, x);
    let v = flip_sign_by(o, v, sign);
    nan_unless_finite(o, x, v)
}

/// tan(r + q pi/2): sin/cos, or -cos/sin in odd quadrants.
fn tan_reduced(o: &mut Ops, r: Df, q: V) -> V {
    let s = sin_reduced(o, r);
    let c = cos_reduced(o, r);
    let one = o.u(1);
    let odd = o.and(q, one);
    let zero = o.u(0);
    let odd = o.ne(odd, zero);
    let even_value = div_significands(o, s, c);
    let nc = o.neg(c);
    let odd_value = div_significands(o, nc, s);
    o.sel(odd, odd_value, even_value)
}

/// |x| = n + t with t in [0, 2) reduced exactly to quadrant q (0..4) and
/// pi r for r = t - q/2 in [-1/4, 1/4], as a pair.
fn reduce_pi_units(o: &mut Ops, a: V) -> PiReduction {
    let half = o.f(0.5);
    let two = o.f(2.0);
    let halved = o.mul(a, half);
    let whole = o.floor(halved);
    let even = o.mul(whole, two);
    let t = o.sub(a, even);
    let doubled = o.mul(t, two);
    let q = o.rint(doubled);
    let step = o.mul(q, half);
    let r = o.sub(t, step);
    // For a tiny |x| (then r = |x|, quadrant 0) r is scaled up so that
    // the low part of pi r stays normal on devices that flush
    // subnormals. Elsewhere r is 0 or above 2^-25.
    let limit = o.f(TINY);
    let tiny = o.lt(a, limit);
    let one = o.f(1.0);
    let up = o.f(TINY_SCALE);
    let down = o.f(1.0 / TINY_SCALE);
    let up = o.sel(tiny, up, one);
    let down = o.sel(tiny, down, one);
    let r = o.mul(r, up);
    let pi_hi = o.f(PI_PAIR[0]);
    let pi_lo = o.f(PI_PAIR[1]);
    let head = o.two_prod(r, pi_hi);
    let lo = o.mad(r, pi_lo, head.lo);
    let pr = o.fast_two_sum(head.hi, lo);
    // sin(pi r) = tan(pi r) = pi r to far below an ulp there, rounded
    // once (by the scaling, if the result is subnormal).
    let tiny_value = o.mul(pr.hi, down);
    let pr = Df {
        hi: tiny_value,
        lo: o.mul(pr.lo, down),
    };
    let quadrant = o.uint32(q);
    PiReduction {
        r: pr,
        quadrant,
        t,
        tiny,
        tiny_value,
    }
}

/// +0 where `v` is a zero of either sign.
fn positive_zero(o: &mut Ops, v: V) -> V {
    let zero = o.f(0.0);
    let is_zero = o.eq(v, zero);
    o.sel(is_zero, zero, v)
}

fn sinpi(o: &mut Ops, x: V) -> V {
    let a = o.abs(x);
    let reduction = reduce_pi_units(o, a);
    let (r, q) = (reduction.r, reduction.quadrant);
    let s = sin_reduced(o, r);
    let c = cos_reduced(o, r);
    let v = by_quadrant(o, q, s, c, false);
    let v = o.sel(reduction.tiny, reduction.tiny_value, v);
    // sinpi(+n) = +0 and sinpi(-n) = -0 (OpenCL C 7.5.1).
    let v = positive_zero(o, v);
    let sign = sign_word(o, x);
    let v = flip_sign_by(o, v, sign);
    nan_unless_finite(o, x, v)
}

fn cospi(o: &mut Ops, x: V) -> V {
    let a = o.abs(x);
    let reduction = reduce_pi_units(o, a);
    let (r, q) = (reduction.r, reduction.quadrant);
    let s = sin_reduced(o, r);
    let c = cos_reduced(o, r);
    let v = by_quadrant(o, q, s, c, true);
    // cospi(n + 0.5) = +0.
    let v = positive_zero(o, v);
    nan_unless_finite(o, x, v)
}

fn tanpi(o: &mut Ops, x: V) -> V {
    let a = o.abs(x);
    let reduction = reduce_pi_units(o, a);
    let (r, q, t) = (reduction.r, reduction.quadrant, reduction.t);
    let v = tan_reduced(o, r, q);
    let v = o.sel(reduction.tiny, reduction.tiny_value, v);
    // Exact zeros and poles: tanpi(n) = copysign(0, n) for even n and
    // copysign(0, -n) for odd n; tanpi(n + 1/2) = +inf for even n and
    // -inf for odd n. For a = |x| the parity of n is whether t >= 1.
    let zero = o.f(0.0);
    let exact = o.eq(r.hi, zero);
    let one_u = o.u(1);
    let odd_q = o.and(q, one_u);
    let zero_u = o.u(0);
    let pole = o.ne(odd_q, zero_u);
    let inf = o.inf();
    let special = o.sel(pole, inf, zero);
    let one = o.f(1.0);
    let odd_n = o.ge(t, one);
    let minus = o.u(0x8000_0000);
    let n_sign = o.sel(odd_n, minus, zero_u);
    let special = flip_sign_by(o, special, n_sign);
    let v = o.sel(exact, special, v);
    let sign = sign_word(o, x);
    let v = flip_sign_by(o, v, sign);
    nan_unless_finite(o, x, v)
}

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

fn atan(o: &mut Ops, x: V) -> Df {
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
    let v = sel_pair(o, infinite, half_pi, v);
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

fn atan2(o: &mut Ops, y: V, x: V) -> Df {
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
    let angle = sel_pair(o, steep, turned, base);
    // y = 0 is angle 0 (before reflecting for a negative x), whatever x.
    let flat = o.eq(ay, zero);
    let nothing = Df { hi: zero, lo: zero };
    let angle = sel_pair(o, flat, nothing, angle);
    let reflected = constant_minus(o, PI_PAIR, angle);
    let x_sign = sign_word(o, x);
    let zero_u = o.u(0);
    let left = o.ne(x_sign, zero_u);
    let angle = sel_pair(o, left, reflected, angle);
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

fn asin(o: &mut Ops, x: V) -> Df {
    let a = o.abs(x);
    let (small_tail, double_asin) = asin_parts(o, a);
    let near_zero = Df {
        hi: a,
        lo: small_tail,
    };
    let near_one = constant_minus(o, [PIO2[0], PIO2[1]], double_asin);
    let half = o.f(0.5);
    let small = o.le(a, half);
    let v = sel_pair(o, small, near_zero, near_one);
    let sign = sign_word(o, x);
    let v = Df {
        hi: flip_sign_by(o, v.hi, sign),
        lo: flip_sign_by(o, v.lo, sign),
    };
    nan_beyond_one(o, a, v)
}

fn acos(o: &mut Ops, x: V) -> Df {
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
    let outer = sel_pair(o, negative, left, right);
    let half = o.f(0.5);
    let small = o.le(a, half);
    let v = sel_pair(o, small, middle, outer);
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
fn over_pi(o: &mut Ops, v: Df) -> V {
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

impl ModuleBuilder<'_> {
    /// `b` applied to `args` with result type `ty`, or `None` when `b` is
    /// not one of this module's functions (or has a `double`/`half`
    /// argument, which this module does not implement).
    pub(in crate::lower) fn trig_builtin(
        &mut self,
        fb: &mut FnBuilder,
        b: Builtin,
        args: &[Expr],
        ty: &Type,
        location: Location,
    ) -> LResult<Option<Handle<naga::Expression>>> {
        use naga::MathFunction as M;
        let is_float = args
            .first()
            .is_some_and(|a| a.ty.element() == Some(Scalar::Float));
        if !is_float || !TRIG_BUILTINS.contains(&b) {
            return Ok(None);
        }
        let hardware = match b {
            Builtin::HalfSin => Some(M::Sin),
            Builtin::HalfCos => Some(M::Cos),
            Builtin::HalfTan => Some(M::Tan),
            _ if self.relaxed_math => match b {
                Builtin::Sin => Some(M::Sin),
                Builtin::Cos => Some(M::Cos),
                Builtin::Tan => Some(M::Tan),
                Builtin::Asin => Some(M::Asin),
                Builtin::Acos => Some(M::Acos),
                Builtin::Atan => Some(M::Atan),
                Builtin::Atan2 => Some(M::Atan2),
                _ => None,
            },
            _ => None,
        };
        if let Some(fun) = hardware {
            let x = self.plain(fb, &args[0])?;
            let y = match args.get(1) {
                Some(a) => Some(self.plain(fb, a)?),
                None => None,
            };
            return Ok(Some(fb.math(fun, x, y)));
        }
        let x = self.plain(fb, &args[0])?;
        if b == Builtin::Sincos {
            return self.sincos(fb, x, ty, &args[1], location).map(Some);
        }
        let y = match (b, args.get(1)) {
            (Builtin::Atan2 | Builtin::Atan2pi, Some(a)) => Some(self.plain(fb, a)?),
            _ => None,
        };
        let size = match ty {
            Type::Vector(_, n) => vector_size(*n),
            _ => None,
        };
        let types = self.trig_types(size);
        Ok(function(
            &mut Ops::of_width(fb, size, false),
            types,
            b,
            x,
            y,
        ))
    }

    /// The types the reduction modulo pi/2 needs at `size` lanes.
    fn trig_types(&mut self, size: Option<naga::VectorSize>) -> Types {
        let mut of_width = |scalar| {
            self.add_type(match size {
                Some(size) => naga::TypeInner::Vector { size, scalar },
                None => naga::TypeInner::Scalar(scalar),
            })
        };
        let float = of_width(naga::Scalar::F32);
        let uint = of_width(naga::Scalar::U32);
        let word = self.u32_type();
        let table = self.add_type(naga::TypeInner::Array {
            base: word,
            size: naga::ArraySize::Constant(
                std::num::NonZeroU32::new(TWO_OVER_PI_BITS.len() as u32).expect("table"),
            ),
            stride: 4,
        });
        Types { float, uint, table }
    }

    /// `sincos(x, cosval)`: returns sin x and stores cos x. 8/16-element
    /// vectors are split into parts before they reach it (`wide.rs`).
    fn sincos(
        &mut self,
        fb: &mut FnBuilder,
        x: Handle<naga::Expression>,
        ty: &Type,
        cosval: &Expr,
        location: Location,
    ) -> LResult<Handle<naga::Expression>> {
        let size = match ty {
            Type::Vector(_, n) => vector_size(*n),
            _ => None,
        };
        let types = self.trig_types(size);
        let (sin, cos) = sin_cos(&mut Ops::of_width(fb, size, false), types, x);
        self.store_through(fb, cosval, cos, location)?;
        Ok(sin)
    }

    /// `*pointer = value` for an output-pointer argument.
    fn store_through(
        &mut self,
        fb: &mut FnBuilder,
        pointer: &Expr,
        value: Handle<naga::Expression>,
        location: Location,
    ) -> LResult<()> {
        let Some(pointee) = pointer.ty.pointee() else {
            return Err(self.error(location, "internal compiler error: not a pointer"));
        };
        let target = Expr::new(
            H::Deref(Box::new(pointer.clone())),
            pointee.ty.clone(),
            location,
        );
        let value = self.output_for(fb, value, pointer, location)?;
        let place = self.place(fb, &target)?;
        self.store(fb, place, Value::Plain(value), location, None)
    }
}
