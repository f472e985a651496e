//! `sin`, `cos` and `tan` on `double`, at OpenCL's full-profile bounds
//! over the whole range.
//!
//! `|x|` is reduced to `k pi/2 + r`, `r` a double-double in about
//! [-pi/4, pi/4]: below 2^20 by a three-part Cody-Waite subtraction (pi/2
//! to 119 bits, each `k P1`, `k P2` exact), above by Payne-Hanek: the
//! 53-bit significand times a 192-bit window of the bits of 2/pi, in
//! 32-bit limbs carried through 64-bit integers, whose top two integer
//! bits are the quadrant and whose next 126 bits the fraction of a quarter
//! turn. Both are computed for every lane and the magnitude selects (a
//! vector may mix them). `sin r` and `cos r` are Taylor polynomials in
//! `r.hi` with `r.lo`'s first-order share; `cos` keeps `1 - r^2/2`
//! exact to the last rounding.

use super::consts::{HALF_PI, PI};
use super::ops::{Df, Ops, V};
use super::series::sin_cos_taylor;
use naga::{BinaryOperator as B, Expression, Handle};

/// The bits of 2/pi after the binary point, big-endian, after two zero
/// words so that windows starting up to 64 bits before the point read
/// zeros (enough for exponents from 2^20 up to DBL_MAX).
pub(super) const TWO_OVER_PI_BITS: [u32; 42] = [
    0x0000_0000,
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
    0x424d_d2e0,
    0x0649_2eea,
    0x09d1_921c,
    0xfe1d_eb1c,
    0xb129_a73e,
    0xe882_35f5,
    0x2ebb_4484,
    0xe99c_7026,
    0xb45f_7e41,
    0x3991_d639,
    0x8353_39f4,
    0x9c84_5f8b,
    0xbdf9_283b,
    0x1ff8_97ff,
    0xde05_980f,
    0xef2f_118b,
    0x5a0a_6d1f,
    0x6d36_7ecf,
    0x27cb_09b7,
    0x4f46_3f66,
    0x9e5f_ea2d,
    0x7527_bac7,
    0xebe5_f17b,
    0x3d07_39f7,
    0x8a52_92ea,
    0x6bfb_5fb1,
    0x1f8d_5d08,
    0x5603_3046,
    0xfc7b_6bab,
    0xf0cf_bc20,
    0x9af4_361d,
];

/// Below this magnitude the reduction is Cody-Waite (k < 2^20).
const CODY_WAITE_LIMIT: f64 = 1_048_576.0;

/// pi/2 as 33 + 33 + 53 bits: `k P1` and `k P2` are exact for k < 2^20.
const PIO2_PARTS: [f64; 3] = [
    1.570_796_326_734_125_6,
    6.077_100_506_303_966e-11,
    2.022_266_248_795_950_6e-21,
];

/// The naga types a reduction needs: the table and the u32 values of the
/// operands' shape.
#[derive(Clone, Copy)]
pub(super) struct TrigTypes {
    pub table: Handle<naga::Type>,
    pub words: Handle<naga::Type>,
}

/// `(sin(x) - x) / x^3` in `x^2`: -1/3! .. -1/19!, below 2^-56 relative
/// for |x| <= pi/4.
const SIN_TAYLOR: [f64; 9] = sin_cos_taylor(3);
/// `(cos(x) - 1 + x^2/2) / x^4` in `x^2`: 1/4! .. 1/20!.
const COS_TAYLOR: [f64; 9] = sin_cos_taylor(4);

/// A function-local copy of the 2/pi table, for indexing.
fn table(o: &mut Ops, types: TrigTypes) -> V {
    let words = TWO_OVER_PI_BITS
        .iter()
        .map(|&w| o.fb.add(Expression::Literal(naga::Literal::U32(w))))
        .collect();
    let value = o.fb.add(Expression::Compose {
        ty: types.table,
        components: words,
    });
    let var = o.fb.function.local_variables.append(
        naga::LocalVariable {
            name: None,
            ty: types.table,
            init: None,
        },
        naga::Span::UNDEFINED,
    );
    let pointer = o.fb.add(Expression::LocalVariable(var));
    o.fb.push(naga::Statement::Store { pointer, value });
    pointer
}

/// `table[index]` per lane (u32 index lanes), widened to u64.
fn lookup(o: &mut Ops, table: V, index: V, types: TrigTypes) -> V {
    let load = |fb: &mut super::super::FnBuilder, i: V| {
        let pointer = fb.add(Expression::Access {
            base: table,
            index: i,
        });
        fb.add(Expression::Load { pointer })
    };
    let word = match o.size {
        None => load(o.fb, index),
        Some(size) => {
            let lanes = (0..size as u32)
                .map(|k| {
                    let i = o.fb.add(Expression::AccessIndex {
                        base: index,
                        index: k,
                    });
                    load(o.fb, i)
                })
                .collect();
            o.fb.add(Expression::Compose {
                ty: types.words,
                components: lanes,
            })
        }
    };
    o.widen(word)
}

/// `x * w` for a u64 `x` below 2^32 and six 32-bit limbs `w` (most
/// significant first): seven limbs.
fn multiply_limbs(o: &mut Ops, x: V, w: &[V; 6]) -> [V; 7] {
    let mask = o.ul(0xffff_ffff);
    let mut out = [x; 7];
    let mut carry = o.ul(0);
    for j in (0..6).rev() {
        let p = o.mul(x, w[j]);
        let t = o.add(p, carry);
        out[j + 1] = o.and(t, mask);
        carry = o.shr(t, 32);
    }
    out[0] = carry;
    out
}

/// Payne-Hanek for finite `a` >= 2^20: the quadrant (i32, mod 4) and the
/// reduced argument.
fn payne_hanek(o: &mut Ops, a: V, types: TrigTypes) -> (V, Df) {
    let table = table(o, types);
    let bits = o.bits(a);
    let field = o.exponent_field(bits);
    // a = m 2^e; the window starts at table bit e - 2 (+ 64 for the zero
    // words), clamped into the table for lanes that do not use it.
    let offset = o.i(64 - 2 - 1075);
    let start = o.add(field, offset);
    let (low, high) = (o.i(0), o.i(32 * (TWO_OVER_PI_BITS.len() as i32 - 7)));
    let start = o.max(start, low);
    let start = o.min(start, high);
    let start = o.uint_bits(start);
    let word = o.shr(start, 5);
    let thirty_one = o.u(31);
    let shift = o.and(start, thirty_one);
    let shift = o.widen(shift);
    let thirty_two = o.ul(32);
    let back = o.sub(thirty_two, shift);
    let mask = o.ul(0xffff_ffff);
    let mut words = Vec::new();
    for j in 0..7u32 {
        let k = o.u(j);
        let index = o.add(word, k);
        words.push(lookup(o, table, index, types));
    }
    let window: [V; 6] = [0, 1, 2, 3, 4, 5].map(|j| {
        let high = o.shl(words[j], 32);
        let pair = o.or(high, words[j + 1]);
        let w = o.fb.binary(B::ShiftRight, pair, back);
        o.and(w, mask)
    });
    let mantissa = o.l(0x000f_ffff_ffff_ffff);
    let m = o.and(bits, mantissa);
    let implicit = o.l(1 << 52);
    let m = o.or(m, implicit);
    let m = o.uint_bits(m);
    let m_low = o.and(m, mask);
    let m_high = o.shr(m, 32);
    let a_limbs = multiply_limbs(o, m_low, &window);
    let b_limbs = multiply_limbs(o, m_high, &window);
    // P = A + B 2^32: eight limbs, P[0] most significant.
    let mut p = [m; 8];
    let mut carry = o.ul(0);
    for k in (0..8).rev() {
        let from_a = if k >= 1 { Some(a_limbs[k - 1]) } else { None };
        let from_b = if k <= 6 { Some(b_limbs[k]) } else { None };
        let mut t = carry;
        for v in [from_a, from_b].into_iter().flatten() {
            t = o.add(t, v);
        }
        p[k] = o.and(t, mask);
        carry = o.shr(t, 32);
    }
    // a 2/pi mod 4 = P 2^-190: bits 191..190 the quadrant, the rest the
    // fraction; 126 bits of it are kept.
    let quadrant = o.shr(p[2], 30);
    let thirty = o.ul(0x3fff_ffff);
    let top = o.and(p[2], thirty);
    let half = o.ul(1 << 29);
    let above = o.and(top, half);
    let zero = o.ul(0);
    let negative = o.ne(above, zero);
    // 1 - F as the 126-bit two's complement of F.
    let limbs = [top, p[3], p[4], p[5]];
    let mut complement = limbs;
    let mut borrow_in = o.ul(1);
    for k in (0..4).rev() {
        let inverted = o.xor(limbs[k], mask);
        let inverted = if k == 0 {
            o.and(inverted, thirty)
        } else {
            inverted
        };
        let t = o.add(inverted, borrow_in);
        complement[k] = if k == 0 {
            o.and(t, thirty)
        } else {
            o.and(t, mask)
        };
        borrow_in = o.shr(t, 32);
    }
    let magnitude = [0, 1, 2, 3].map(|k| o.sel(negative, complement[k], limbs[k]));
    let one = o.ul(1);
    let up = o.sel(negative, one, zero);
    let q = o.add(quadrant, up);
    let q = o.int32(q);
    // The fraction as a double-double: each limb is exact as a double.
    let mut f = Df {
        hi: o.f(0.0),
        lo: o.f(0.0),
    };
    for (k, &limb) in magnitude.iter().enumerate().rev() {
        let v = o.float_from_int(limb);
        let v = o.mulc(v, 2f64.powi(-30 - 32 * k as i32));
        let zero = o.f(0.0);
        f = o.df_add(Df { hi: v, lo: zero }, f);
    }
    let pio2 = Df {
        hi: o.f(HALF_PI.0),
        lo: o.f(HALF_PI.1),
    };
    let r = super::exp_log_f64::dd_mul(o, f, pio2);
    let minus = Df {
        hi: o.neg(r.hi),
        lo: o.neg(r.lo),
    };
    let r = Df {
        hi: o.sel(negative, minus.hi, r.hi),
        lo: o.sel(negative, minus.lo, r.lo),
    };
    (q, r)
}

/// Cody-Waite for `a` < 2^20.
fn cody_waite(o: &mut Ops, a: V) -> (V, Df) {
    let k = o.mulc(a, std::f64::consts::FRAC_2_PI);
    let k = o.rint(k);
    let [p1, p2, p3] = PIO2_PARTS.map(|p| o.f(p));
    let kp1 = o.mul(k, p1);
    let r1 = o.sub(a, kp1);
    let kp2 = o.mul(k, p2);
    let minus_kp2 = o.neg(kp2);
    let t = o.two_sum(r1, minus_kp2);
    let kp3 = o.mul(k, p3);
    let lo = o.sub(t.lo, kp3);
    let r = o.fast_two_sum(t.hi, lo);
    let q = o.int_from_float(k);
    (q, r)
}

/// The quadrant (any i32; mod 4 is what counts) and reduced argument of
/// `|x|`.
fn reduce(o: &mut Ops, x: V, types: TrigTypes) -> (V, Df) {
    let a = o.abs(x);
    let big = o.gec(a, CODY_WAITE_LIMIT);
    let limit = o.f(CODY_WAITE_LIMIT);
    let small_a = o.sel(big, limit, a);
    let (q_small, r_small) = cody_waite(o, small_a);
    // Lanes below the limit (and NaNs, infinities: selected away later)
    // read the table at a harmless place.
    let (q_big, r_big) = payne_hanek(o, a, types);
    let q = o.sel(big, q_big, q_small);
    let r = Df {
        hi: o.sel(big, r_big.hi, r_small.hi),
        lo: o.sel(big, r_big.lo, r_small.lo),
    };
    (q, r)
}

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
