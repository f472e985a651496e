//! The Taylor series the library evaluates, as coefficient tables of any
//! length: both precisions use the same series and differ only in how many
//! terms their accuracy needs (each table's length is chosen where it is
//! used). Computed at compile time in f64; every table matches what the
//! precision's code held before as literals (the f32 ones round to the
//! same floats as `1.0f32 / n` would).

/// `1/2!, 1/3!, ...`: `(e^t - 1 - t) / t^2` in `t`.
pub(super) const fn expm1_taylor<const N: usize>() -> [f64; N] {
    let mut c = [0.0; N];
    let mut factorial = 1.0;
    let mut n = 0;
    while n < N {
        factorial *= (n + 2) as f64;
        c[n] = 1.0 / factorial;
        n += 1;
    }
    c
}

/// `2/first, 2/(first + 2), ...` for an odd `first`: `2 atanh(s)` is
/// `2s + 2s^3/3 + 2s^5/5 + ...`, so with `first` = 3 this is
/// `(2 atanh(s) - 2s) / s^3` in `s^2`.
pub(super) const fn atanh_series<const N: usize>(first: usize) -> [f64; N] {
    let mut c = [0.0; N];
    let mut n = 0;
    while n < N {
        c[n] = 2.0 / (2 * n + first) as f64;
        n += 1;
    }
    c
}

/// `1/3!, 1/5!, ...`: `(sinh(x) - x) / x^3` in `x^2`.
pub(super) const fn sinh_taylor<const N: usize>() -> [f64; N] {
    let mut c = [0.0; N];
    let mut factorial = 1.0;
    let mut n = 0;
    while n < N {
        let k = (2 * n + 2) as f64;
        factorial *= k * (k + 1.0);
        c[n] = 1.0 / factorial;
        n += 1;
    }
    c
}

/// Alternating `1/first!`, `-1/(first+2)!`, ... with the sign of the
/// series' first term: `first` = 3 is `(sin(x) - x) / x^3` in `x^2`
/// (starting at -1/3!), `first` = 4 is `(cos(x) - 1 + x^2/2) / x^4` in
/// `x^2` (starting at 1/4!).
pub(super) const fn sin_cos_taylor<const N: usize>(first: usize) -> [f64; N] {
    let mut c = [0.0; N];
    let mut factorial = 1.0;
    let mut n = 1;
    while n < first {
        n += 1;
        factorial *= n as f64;
    }
    let mut i = 0;
    let mut sign = if first == 3 { -1.0 } else { 1.0 };
    while i < N {
        c[i] = sign / factorial;
        factorial *= ((n + 1) * (n + 2)) as f64;
        n += 2;
        sign = -sign;
        i += 1;
    }
    c
}

/// `-1/3, 1/5, -1/7, ...`: `(atan(u) - u) / u^3` in `u^2`.
pub(super) const fn atan_taylor<const N: usize>() -> [f64; N] {
    let mut c = [0.0; N];
    let mut n = 0;
    while n < N {
        let sign = if n % 2 == 0 { -1.0 } else { 1.0 };
        c[n] = sign / (2 * n + 3) as f64;
        n += 1;
    }
    c
}
