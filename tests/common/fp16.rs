//! IEEE binary16 (`half`) on the host, for references: the exact value of
//! a `half`, and any real (an f64) rounded to `half` under each of
//! OpenCL's rounding modes.

#![allow(dead_code)]

/// A rounding direction (OpenCL C 6.4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// To nearest, ties to even.
    Rte,
    /// Towards zero.
    Rtz,
    /// Towards positive infinity.
    Rtp,
    /// Towards negative infinity.
    Rtn,
}

pub const ROUNDINGS: [Rounding; 4] = [Rounding::Rte, Rounding::Rtz, Rounding::Rtp, Rounding::Rtn];

/// The largest finite `half`.
pub const HALF_MAX: f64 = 65504.0;

/// The exact value of the `half` with bits `h`.
pub fn half_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from((h >> 10) & 0x1f);
    let mantissa = f64::from(h & 0x3ff);
    let magnitude = match exponent {
        0 => mantissa * 2f64.powi(-24),
        0x1f if mantissa == 0.0 => f64::INFINITY,
        0x1f => f64::NAN,
        e => (1024.0 + mantissa) * 2f64.powi(e - 25),
    };
    // copysign, not a product: a NaN keeps its sign too (signbit and
    // copysign see it).
    magnitude.copysign(sign)
}

/// [`half_to_f64`] as an f32 (exact: every `half` is a `float`).
pub fn half_to_f32(h: u16) -> f32 {
    half_to_f64(h) as f32
}

/// `v` rounded to `half` under `mode`; NaN becomes the quiet NaN 0x7e00.
pub fn to_half(v: f64, mode: Rounding) -> u16 {
    if v.is_nan() {
        return 0x7e00;
    }
    let sign: u16 = if v.is_sign_negative() { 0x8000 } else { 0 };
    let a = v.abs();
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    // The magnitude's rounding: up (away from zero) or down.
    let negative = sign != 0;
    let towards_zero = match mode {
        Rounding::Rte => None,
        Rounding::Rtz => Some(true),
        Rounding::Rtp => Some(negative),
        Rounding::Rtn => Some(!negative),
    };
    let exponent = if a < 2f64.powi(-14) {
        -14
    } else {
        a.log2().floor() as i32
    };
    // Multiples of the spacing at this exponent; scaling by a power of two
    // is exact.
    let quantum = 2f64.powi(exponent - 10);
    let m = a / quantum;
    let rounded = match towards_zero {
        Some(true) => m.floor(),
        Some(false) => m.ceil(),
        None => {
            let f = m.floor();
            let rest = m - f;
            if rest > 0.5 || (rest == 0.5 && f % 2.0 == 1.0) {
                f + 1.0
            } else {
                f
            }
        }
    };
    let value = rounded * quantum;
    if value > HALF_MAX {
        return sign
            | if towards_zero == Some(true) {
                0x7bff
            } else {
                0x7c00
            };
    }
    if value < 2f64.powi(-14) {
        // Subnormal (or zero): the count of 2^-24 steps.
        return sign | (value * 2f64.powi(24)) as u16;
    }
    let e = value.log2().floor() as i32;
    let mantissa = (value / 2f64.powi(e - 10)) as u16 - 1024;
    sign | ((e + 15) as u16) << 10 | mantissa
}

/// `v` rounded to nearest even `half`.
pub fn to_half_rte(v: f64) -> u16 {
    to_half(v, Rounding::Rte)
}
