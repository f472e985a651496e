//! `fma` on `double`, correctly rounded in software: Vulkan's `Fma` may
//! round the product before adding (lavapipe does on f64), and OpenCL
//! requires one rounding.
//!
//! The operands are scaled so the product lies in [1/4, 1): the product is
//! then exact as a double-double (Dekker, 26-bit halves), and Boldo and
//! Melquiond's emulation gives the single rounding: `c + p.hi` exactly as
//! `t.hi + t.lo`, the low parts summed rounding to odd, one rounding to
//! nearest of the two. A `c` far above the product is the result; one far
//! below only decides ties, so any value of its sign that small does the
//! same. The result is scaled back exactly: a subnormal one is first
//! rounded onto its final grid (2^-1074 scaled) by adding a power of two
//! whose ulp is that grid.

use super::exact::{frexp, ldexp};
use super::ops::{Ops, V};

/// `x + y` rounded to odd: the nearest sum, or its odd neighbour towards
/// the exact sum when the nearest is inexact and even.
fn round_odd_sum(o: &mut Ops, x: V, y: V) -> V {
    let s = o.two_sum(x, y);
    let bits = o.bits(s.hi);
    let one = o.l(1);
    let last = o.and(bits, one);
    let zero = o.l(0);
    let even = o.eq(last, zero);
    let exact = o.eqc(s.lo, 0.0);
    let inexact = o.not(exact);
    let adjust = o.and(even, inexact);
    // Adding 1 to the bits grows the magnitude.
    let (s_negative, lo_negative) = (o.sign_bit(s.hi), o.sign_bit(s.lo));
    let grow = o.eq(s_negative, lo_negative);
    let (up, down) = (o.add(bits, one), o.sub(bits, one));
    let neighbour = o.sel(grow, up, down);
    let neighbour = o.as_float(neighbour);
    o.sel(adjust, neighbour, s.hi)
}

pub(in crate::lower) fn fma(o: &mut Ops, a: V, b: V, c: V) -> V {
    let (ma, ea) = frexp(o, a);
    let (mb, eb) = frexp(o, b);
    let e = o.add(ea, eb);
    let (_, ec) = frexp(o, c);
    let d = o.sub(ec, e);
    let above = o.i(110);
    let far_above = o.gt(d, above);
    let below = o.i(-120);
    let far_below = o.lt(d, below);
    let minus_e = o.neg(e);
    let scaled_c = ldexp(o, c, minus_e);
    let sticky = o.f(2f64.powi(-200));
    let sticky = o.copysign(sticky, c);
    let c_scaled = o.sel(far_below, sticky, scaled_c);
    // The product of the scaled operands exactly, then Boldo-Melquiond.
    let p = o.two_prod(ma, mb);
    let t = o.two_sum(c_scaled, p.hi);
    let v = round_odd_sum(o, p.lo, t.lo);
    let nearest = o.two_sum(t.hi, v);
    let r = ldexp(o, nearest.hi, e);
    // A subnormal result: m = 2^-1022 scaled, with the sign of the sum,
    // has the grid as its ulp, and m + sum stays in m's binade.
    let bottom = o.i(-1022);
    let k = o.sub(bottom, e);
    // Beyond this range no non-zero result is subnormal (an exact zero
    // comes out as zero whatever m is).
    let (k_lo, k_hi) = (o.i(-2044), o.i(2046));
    let k = o.max(k, k_lo);
    let k = o.min(k, k_hi);
    let one = o.f(1.0);
    let m = o.scale(one, k);
    let m = o.copysign(m, nearest.hi);
    let u = o.two_sum(m, nearest.hi);
    let w = round_odd_sum(o, u.lo, nearest.lo);
    let on_grid = o.add(u.hi, w);
    let on_grid = o.sub(on_grid, m);
    // A sum rounding to zero keeps its sign.
    let on_grid = o.copysign(on_grid, nearest.hi);
    let r_grid = ldexp(o, on_grid, e);
    let ar = o.abs(r);
    let subnormal = o.ltc(ar, f64::MIN_POSITIVE);
    let r = o.sel(subnormal, r_grid, r);
    let r = o.sel(far_above, c, r);
    // A zero addend: the product rounded once.
    let product = o.mul(a, b);
    let c_zero = o.eqc(c, 0.0);
    let r = o.sel(c_zero, product, r);
    // Zero or non-finite factors, NaN addends: IEEE arithmetic on the
    // product is exact there. Finite factors with an infinite addend give
    // the addend even where the rounded product would overflow.
    let naive = o.add(product, c);
    let (a_zero, b_zero) = (o.eqc(a, 0.0), o.eqc(b, 0.0));
    let inf = o.inf();
    let (aa, ab) = (o.abs(a), o.abs(b));
    let (a_big, b_big) = (o.eq(aa, inf), o.eq(ab, inf));
    let (a_nan, b_nan, c_nan) = (o.is_nan(a), o.is_nan(b), o.is_nan(c));
    let mut plain = o.or(a_zero, b_zero);
    for q in [a_big, b_big, a_nan, b_nan, c_nan] {
        plain = o.or(plain, q);
    }
    let c_inf = o.is_inf(c);
    let r = o.sel(c_inf, c, r);
    o.sel(plain, naive, r)
}
