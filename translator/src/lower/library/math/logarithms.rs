//! `log`, `log2`, `log10` and `log1p` in either precision: the precision's
//! logarithm core ([`Precision::log`], [`Precision::ln_sum`]) rounded once,
//! with the special values every logarithm shares.

use super::consts::{LOG10_E, LOG2_E};
use super::ops::{Ops, V};
use super::precision::Precision;
use std::f64::consts::{LN_2, LOG10_2};

/// A logarithm's base `b`: `log_b(2)` and `log_b(e)` (a double-double;
/// `None` for `e` itself). `float` scales its `ln 2` and `ln m` parts by
/// them, `double` multiplies its natural logarithm.
pub(super) struct LogBase {
    pub of_two: f64,
    pub of_e: Option<(f64, f64)>,
}

pub(super) const LN: LogBase = LogBase {
    of_two: LN_2,
    of_e: None,
};
pub(super) const LOG2: LogBase = LogBase {
    of_two: 1.0,
    of_e: Some(LOG2_E),
};
const LOG10: LogBase = LogBase {
    of_two: LOG10_2,
    of_e: Some(LOG10_E),
};

/// The special values every logarithm shares: NaN below zero, -inf at
/// zero, +inf at +inf, NaN at NaN.
fn log_domain(o: &mut Ops, x: V, r: V) -> V {
    let inf = o.inf();
    let at_inf = o.eq(x, inf);
    let r = o.sel(at_inf, inf, r);
    let zero = o.eqc(x, 0.0);
    let minus_inf = o.neg(inf);
    let r = o.sel(zero, minus_inf, r);
    let negative = o.ltc(x, 0.0);
    let nan = o.is_nan(x);
    let invalid = o.or(negative, nan);
    let q = o.nan();
    o.sel(invalid, q, r)
}

fn log_in<P: Precision>(o: &mut Ops, x: V, base: &LogBase) -> V {
    let l = P::log(o, x, base);
    let r = o.df_value(l);
    log_domain(o, x, r)
}

pub(super) fn log<P: Precision>(o: &mut Ops, x: V) -> V {
    log_in::<P>(o, x, &LN)
}

pub(in crate::lower) fn log2<P: Precision>(o: &mut Ops, x: V) -> V {
    log_in::<P>(o, x, &LOG2)
}

pub(super) fn log10<P: Precision>(o: &mut Ops, x: V) -> V {
    log_in::<P>(o, x, &LOG10)
}

/// `ln(1 + x)` as `ln(u) + c / u` for `u + c = 1 + x` exactly.
pub(super) fn log1p<P: Precision>(o: &mut Ops, x: V) -> V {
    let one = o.f(1.0);
    let u = o.two_sum(one, x);
    let r = P::ln_sum(o, u);
    // x = -1 makes u = 0 exactly.
    let r = log_domain(o, u.hi, r);
    // log1p(+-0) = +-0 (other tiny x come out as x: u = 1 + x exactly).
    let zero = o.eqc(x, 0.0);
    o.sel(zero, x, r)
}
