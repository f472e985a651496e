//! Hyperbolic functions and their inverses, and `hypot`, in either
//! precision, on the exponential and logarithm cores of [`Precision`]:
//! `sinh`, `cosh`, `tanh`, `asinh`, `acosh`, `atanh`, `hypot`.

use super::logarithms::{log1p, LN};
use super::ops::{Ops, V};
use super::precision::{Precision, F32, F64};

/// The series below 1, the exponentials above.
pub(super) fn sinh<P: Precision>(o: &mut Ops, x: V) -> V {
    let ax = o.abs(x);
    let h = P::half_exp(o, ax);
    let quarter = o.f(0.25);
    let inverse = o.div(quarter, h);
    let large = o.sub(h, inverse);
    let x2 = o.mul(ax, ax);
    let x3 = o.mul(x2, ax);
    let p = o.poly(x2, P::SINH_TAYLOR);
    let small = o.mad(x3, p, ax);
    let near = o.ltc(ax, 1.0);
    let r = o.sel(near, small, large);
    o.copysign(r, x)
}

/// `e^|x| / 2 + 1 / (4 (e^|x| / 2))`.
pub(super) fn cosh<P: Precision>(o: &mut Ops, x: V) -> V {
    let ax = o.abs(x);
    let h = P::half_exp(o, ax);
    let quarter = o.f(0.25);
    let inverse = o.div(quarter, h);
    o.add(h, inverse)
}

/// `tanh |x| = E / (E + 2)` with `E = expm1(2|x|)`.
pub(super) fn tanh<P: Precision>(o: &mut Ops, x: V) -> V {
    let ax = o.abs(x);
    let ax = o.clamp(ax, 0.0, P::TANH_ONE_FROM);
    let twice = o.mulc(ax, 2.0);
    let e = P::expm1(o, twice);
    let d = o.addc(e, 2.0);
    let r = o.div(e, d);
    o.copysign(r, x)
}

/// `sqrt(a)` corrected by one Newton step from an exact residual (Vulkan's
/// sqrt may be several ulp off).
pub(in crate::lower) fn sqrt(o: &mut Ops, a: V) -> V {
    let s = o.math(naga::MathFunction::Sqrt, a);
    let p = o.two_prod(s, s);
    let r = o.sub(a, p.hi);
    let r = o.sub(r, p.lo);
    let twice = o.mulc(s, 2.0);
    let step = o.div(r, twice);
    let refined = o.add(s, step);
    // 0, infinity and NaN keep the hardware result.
    let zero = o.eqc(s, 0.0);
    let inf = o.inf();
    let infinite = o.eq(s, inf);
    let keep = o.or(zero, infinite);
    o.sel(keep, s, refined)
}

/// `ln(1 + w)` for `w` >= 0.
fn ln_one_plus<P: Precision>(o: &mut Ops, w: V) -> V {
    let one = o.f(1.0);
    let u = o.two_sum(one, w);
    P::ln_sum(o, u)
}

/// `ln(w)` for `w` >= 2.
fn ln<P: Precision>(o: &mut Ops, w: V) -> V {
    let l = P::log(o, w, &LN);
    o.df_value(l)
}

/// `log1p(|x| + x^2 / (1 + sqrt(x^2 + 1)))` (no cancellation near 0),
/// `ln(|x| + sqrt(x^2 + 1))` from [`Precision::LN_SUM_FROM`], `ln(2|x|)`
/// from [`Precision::LN_TWICE_FROM`].
pub(super) fn asinh<P: Precision>(o: &mut Ops, x: V) -> V {
    let ax = o.abs(x);
    let x2 = o.mul(ax, ax);
    let w = o.addc(x2, 1.0);
    let root = sqrt(o, w);
    let d = o.addc(root, 1.0);
    let q = o.div(x2, d);
    let w = o.add(ax, q);
    let near = ln_one_plus::<P>(o, w);
    let mid = P::LN_SUM_FROM.map(|from| {
        let w = o.add(ax, root);
        (from, ln::<P>(o, w))
    });
    let far = P::ln_twice(o, ax);
    let r = match mid {
        Some((from, mid)) => {
            let above = o.gec(ax, from);
            o.sel(above, mid, near)
        }
        None => near,
    };
    let huge = o.gtc(ax, P::LN_TWICE_FROM);
    let r = o.sel(huge, far, r);
    let inf = o.inf();
    let infinite = o.eq(ax, inf);
    let r = o.sel(infinite, inf, r);
    let r = o.copysign(r, x);
    // asinh(+-0) = +-0 comes out of the formula; NaN needs keeping.
    let nan = o.is_nan(x);
    o.sel(nan, x, r)
}

/// `log1p(t + sqrt(t (2 + t)))` with `t = x - 1` (exact where it matters),
/// `ln(x + sqrt(x^2 - 1))` from [`Precision::LN_SUM_FROM`], `ln(2x)` from
/// [`Precision::LN_TWICE_FROM`].
pub(super) fn acosh<P: Precision>(o: &mut Ops, x: V) -> V {
    let t = o.addc(x, -1.0);
    let two_t = o.addc(t, 2.0);
    let prod = o.mul(t, two_t);
    let root = sqrt(o, prod);
    let w = o.add(t, root);
    let near = ln_one_plus::<P>(o, w);
    let mid = P::LN_SUM_FROM.map(|from| {
        let x2 = o.mul(x, x);
        let x2m = o.addc(x2, -1.0);
        let root = sqrt(o, x2m);
        let w = o.add(x, root);
        (from, ln::<P>(o, w))
    });
    let far = P::ln_twice(o, x);
    let r = match mid {
        Some((from, mid)) => {
            let above = o.gec(x, from);
            o.sel(above, mid, near)
        }
        None => near,
    };
    let huge = o.gtc(x, P::LN_TWICE_FROM);
    let r = o.sel(huge, far, r);
    let inf = o.inf();
    let infinite = o.eq(x, inf);
    let r = o.sel(infinite, inf, r);
    let one = o.eqc(x, 1.0);
    let zero = o.f(0.0);
    let r = o.sel(one, zero, r);
    let below = o.ltc(x, 1.0);
    let nan = o.is_nan(x);
    let invalid = o.or(below, nan);
    let q = o.nan();
    o.sel(invalid, q, r)
}

// `atanh` takes a different identity in each precision (either would
// serve both): `float` the difference of two `log1p`s, `double` one
// `log1p` of a quotient, which halves the code of its double-double
// logarithm.

/// `atanh x = (log1p(|x|) - log1p(-|x|)) / 2` with x's sign.
pub(super) fn atanh_f32(o: &mut Ops, x: V) -> V {
    let ax = o.abs(x);
    let up = log1p::<F32>(o, ax);
    let minus = o.neg(ax);
    let down = log1p::<F32>(o, minus);
    let d = o.sub(up, down);
    let r = o.mulc(d, 0.5);
    let r = o.copysign(r, x);
    let zero = o.eqc(x, 0.0);
    o.sel(zero, x, r)
}

/// `atanh |x| = log1p(2|x| / (1 - |x|)) / 2` with x's sign (1 - |x| is
/// exact from 1/2 on, where it matters).
pub(super) fn atanh_f64(o: &mut Ops, x: V) -> V {
    let ax = o.abs(x);
    let one = o.f(1.0);
    let d = o.sub(one, ax);
    let twice = o.mulc(ax, 2.0);
    let q = o.div(twice, d);
    let l = log1p::<F64>(o, q);
    let r = o.mulc(l, 0.5);
    let r = o.copysign(r, x);
    let zero = o.eqc(x, 0.0);
    let r = o.sel(zero, x, r);
    let above = o.gtc(ax, 1.0);
    let nan = o.nan();
    let r = o.sel(above, nan, r);
    let is_nan = o.is_nan(x);
    o.sel(is_nan, x, r)
}

/// `sqrt(x^2 + y^2)` on operands scaled by a power of two so neither
/// square over- or underflows. Written over the float format: serves f32
/// and f64.
pub(super) fn hypot(o: &mut Ops, x: V, y: V) -> V {
    let (ax, ay) = (o.abs(x), o.abs(y));
    let m = o.max(ax, ay);
    let bits = o.bits(m);
    let field = o.exponent_field(bits);
    let bias = o.i(-o.bias());
    let exponent = o.add(field, bias);
    let (lo, hi) = (o.i(1 - o.bias()), o.i(o.bias() - 1));
    let exponent = o.max(exponent, lo);
    let exponent = o.min(exponent, hi);
    let down = o.neg(exponent);
    let down = o.pow2(down);
    let (a, b) = (o.mul(ax, down), o.mul(ay, down));
    let a2 = o.mul(a, a);
    let b2 = o.mul(b, b);
    let sum = o.add(a2, b2);
    let root = sqrt(o, sum);
    let r = o.scale(root, exponent);
    // hypot(inf, NaN) = inf; otherwise NaN propagates.
    let inf = o.inf();
    let (xi, yi) = (o.eq(ax, inf), o.eq(ay, inf));
    let infinite = o.or(xi, yi);
    o.sel(infinite, inf, r)
}
