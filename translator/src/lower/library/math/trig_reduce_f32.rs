//! The reduction of `float` arguments modulo pi/2 for `sin`, `cos` and
//! `tan`: a three-part Cody-Waite subtraction below [`CODY_WAITE_LIMIT`]
//! and a Payne-Hanek multiplication with a table of the bits of 2/pi
//! above it, in 32-bit integer arithmetic only (devices may lack 64-bit
//! integers; the `double` reduction, `trig_reduce_f64.rs`, relies on them)
//! and skipped by a branch unless some lane needs it. The reduced argument
//! is a pair `hi + lo` so the polynomials see more than 24 bits where the
//! argument was close to a multiple of pi/2.

use super::super::Emitter;
use super::consts::two_over_pi;
use super::ops::{Df, Ops, V};
use super::trig_ops_f32::{flip_sign_by, times_constant_pair, PIO2};
use naga::{Handle, Span};

/// Above this magnitude `sin`/`cos`/`tan` reduce by Payne-Hanek. Below it
/// the quotient k has at most 15 bits: k P1 and k P2 are subtracted
/// exactly and the rounding of k P3 leaves an error near 2^-58, far below
/// the remainders floats of that size leave (the tests include the floats
/// closest to multiples of pi/2).
const CODY_WAITE_LIMIT: f64 = 32768.0;

/// The bits of 2/pi after the binary point, big-endian, after one zero
/// word so that windows starting before the binary point read zeros.
pub(super) const TWO_OVER_PI_BITS: [u32; 10] = two_over_pi(1);

/// The naga types the reduction modulo pi/2 needs: `f32` and `u32` values
/// of the operands' width, and `array<u32, N>` holding
/// [`TWO_OVER_PI_BITS`].
#[derive(Clone, Copy)]
pub(in crate::lower) struct Types {
    pub float: Handle<naga::Type>,
    pub uint: Handle<naga::Type>,
    pub table: Handle<naga::Type>,
}

/// a = q pi/2 + r for finite a >= 0, with q modulo 4 as a `u32`.
pub(super) fn reduce_half_pi(o: &mut Ops, t: Types, a: V) -> (Df, V) {
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

/// `table[index]`, per lane.
fn lookup(o: &mut Ops, t: Types, table: V, index: V) -> V {
    let load = |fb: &mut Emitter, i: V| {
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
