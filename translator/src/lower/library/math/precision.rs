//! The precision abstraction: what `float` and `double` differ in where
//! the library computes a function the same way in both. The shared
//! functions (`logarithms.rs`, `powers.rs`, `hyperbolic.rs`) are generic
//! over [`Precision`] and read from it their format's constants and the
//! cores each precision computes its own way: `float` in single precision
//! with double-float logarithms and exponents (`exp_log_f32.rs`), `double`
//! in double-double throughout (`exp_log_f64.rs`).
//!
//! The functions whose algorithms differ (the exponentials themselves,
//! `expm1`, `atanh`, the error, gamma and trigonometric functions) stay
//! separate per precision, each file saying why.

use super::logarithms::LogBase;
use super::ops::{Df, Ops, V};
use super::series::sinh_taylor;
use super::{exp_log_f32 as f32_core, exp_log_f64 as f64_core};

pub(super) trait Precision {
    /// Beyond this `|y|` every `|x|^y` with `|x| != 1` over- or
    /// underflows.
    const POW_Y_BOUND: f64;
    /// Whether every `int` is exact in the format (else `pown` splits `n`
    /// into two exactly representable parts).
    const INT_EXACT: bool;
    /// `(sinh(x) - x) / x^3` in `x^2` for |x| < 1.
    const SINH_TAYLOR: &'static [f64];
    /// From here `tanh` is 1.
    const TANH_ONE_FROM: f64;
    /// From here `asinh` and `acosh` are `ln(2|x|)` (`x^2 +- 1` rounds to
    /// `x^2`).
    const LN_TWICE_FROM: f64;
    /// From here, if anywhere, `asinh` and `acosh` take
    /// `ln(|x| + sqrt(x^2 +- 1))` rather than the `log1p` form that keeps
    /// their accuracy near 0 (`double` switches at 2; `float` keeps
    /// `log1p` up to [`Precision::LN_TWICE_FROM`]).
    const LN_SUM_FROM: Option<f64>;

    /// `log_base(x)` as a double-float, for positive finite `x`.
    fn log(o: &mut Ops, x: V, base: &LogBase) -> Df;
    /// `ln(u.hi + u.lo)` for an exact sum `u` (of 1 and `log1p`'s `x`).
    fn ln_sum(o: &mut Ops, u: Df) -> V;
    /// `ln(2a)` for large positive finite `a`.
    fn ln_twice(o: &mut Ops, a: V) -> V;
    /// `2^z` for a double-float `z`.
    fn exp2(o: &mut Ops, z: Df) -> V;
    /// `e^|x| / 2`, without overflowing before the halving.
    fn half_exp(o: &mut Ops, ax: V) -> V;
    /// `e^x - 1`.
    fn expm1(o: &mut Ops, x: V) -> V;
}

/// `float`.
pub(in crate::lower) struct F32;
/// `double`.
pub(in crate::lower) struct F64;

impl Precision for F32 {
    const POW_Y_BOUND: f64 = (1u64 << 40) as f64;
    const INT_EXACT: bool = false;
    /// Taylor to x^13.
    const SINH_TAYLOR: &'static [f64] = &sinh_taylor::<6>();
    const TANH_ONE_FROM: f64 = 10.0;
    const LN_TWICE_FROM: f64 = 4096.0;
    const LN_SUM_FROM: Option<f64> = None;

    fn log(o: &mut Ops, x: V, base: &LogBase) -> Df {
        f32_core::log(o, x, base)
    }
    fn ln_sum(o: &mut Ops, u: Df) -> V {
        f32_core::ln_sum(o, u)
    }
    fn ln_twice(o: &mut Ops, a: V) -> V {
        f32_core::ln_twice(o, a)
    }
    fn exp2(o: &mut Ops, z: Df) -> V {
        f32_core::exp2_df(o, z)
    }
    fn half_exp(o: &mut Ops, ax: V) -> V {
        f32_core::half_exp(o, ax)
    }
    fn expm1(o: &mut Ops, x: V) -> V {
        f32_core::expm1(o, x)
    }
}

impl Precision for F64 {
    const POW_Y_BOUND: f64 = (1u128 << 64) as f64;
    const INT_EXACT: bool = true;
    /// Taylor 1/3! .. 1/21!, below 2^-60 relative for |x| < 1.
    const SINH_TAYLOR: &'static [f64] = &sinh_taylor::<10>();
    const TANH_ONE_FROM: f64 = 40.0;
    const LN_TWICE_FROM: f64 = (1u64 << 28) as f64;
    const LN_SUM_FROM: Option<f64> = Some(2.0);

    fn log(o: &mut Ops, x: V, base: &LogBase) -> Df {
        f64_core::log(o, x, base)
    }
    fn ln_sum(o: &mut Ops, u: Df) -> V {
        f64_core::ln_sum(o, u)
    }
    fn ln_twice(o: &mut Ops, a: V) -> V {
        f64_core::ln_twice(o, a)
    }
    fn exp2(o: &mut Ops, z: Df) -> V {
        f64_core::exp2_dd(o, z)
    }
    fn half_exp(o: &mut Ops, ax: V) -> V {
        f64_core::half_exp(o, ax)
    }
    fn expm1(o: &mut Ops, x: V) -> V {
        f64_core::expm1(o, x)
    }
}
