//! What `lgamma_r` and the two precisions' gamma functions share: the
//! poles, and the sign of `Gamma(x)` from `sin(pi x)` (each precision
//! computes that sine its own way).

use super::ops::{Ops, V};

/// Whether `x` is a pole of Gamma: zero or a negative integer (or -inf).
pub(super) fn pole(o: &mut Ops, x: V) -> V {
    let fl = o.floor(x);
    let integer = o.eq(fl, x);
    let zero = o.f(0.0);
    let non_positive = o.le(x, zero);
    o.and(integer, non_positive)
}

/// The sign of `Gamma(x)` for `lgamma_r`, given `s = sin(pi x)`: that of
/// `s` for negative x; 0 at the poles (zero and the negative integers, as
/// OpenCL requires) and at NaN.
pub(super) fn lgamma_sign(o: &mut Ops, x: V, s: V) -> V {
    let (plus, minus, none) = (o.i(1), o.i(-1), o.i(0));
    let s_negative = o.ltc(s, 0.0);
    let negative_sign = o.sel(s_negative, minus, plus);
    let negative = o.ltc(x, 0.0);
    let sign = o.sel(negative, negative_sign, plus);
    let pole = pole(o, x);
    let nan = o.is_nan(x);
    let unsigned = o.or(nan, pole);
    o.sel(unsigned, none, sign)
}
