//! The reduction of `double` arguments modulo pi/2 for `sin`, `cos` and
//! `tan`: `|x| = k pi/2 + r`, `r` a double-double in about [-pi/4, pi/4].
//! Below 2^20 by a three-part Cody-Waite subtraction (pi/2 to 119 bits,
//! each `k P1`, `k P2` exact), above by Payne-Hanek: the 53-bit
//! significand times a 192-bit window of the bits of 2/pi, in 32-bit limbs
//! carried through 64-bit integers, whose top two integer bits are the
//! quadrant and whose next 126 bits the fraction of a quarter turn. Both
//! are computed for every lane and the magnitude selects (a vector may mix
//! them). (`float` reduces in 32-bit integers, behind a branch:
//! `trig_reduce_f32.rs`.)

use super::consts::{two_over_pi, HALF_PI};
use super::ops::{Df, Ops, V};
use naga::{BinaryOperator as B, Expression, Handle};

/// The bits of 2/pi after the binary point, big-endian, after two zero
/// words so that windows starting up to 64 bits before the point read
/// zeros (enough for exponents from 2^20 up to DBL_MAX).
pub(super) const TWO_OVER_PI_BITS: [u32; 42] = two_over_pi(2);

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
    let load = |fb: &mut super::super::Emitter, i: V| {
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
    let r = o.df_mul_df(f, pio2);
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
pub(super) fn reduce(o: &mut Ops, x: V, types: TrigTypes) -> (V, Df) {
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
