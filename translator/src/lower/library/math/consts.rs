//! Constants more than one part of the library reads, as double-doubles:
//! the nearest double and the nearest double to the rest (std's constants
//! are the nearest doubles). The `double` code uses both parts; the
//! `float` code the first, rounded to f32.

use std::f64::consts;

pub(super) const LN_2: (f64, f64) = (consts::LN_2, 2.319_046_813_846_299_6e-17);
pub(super) const LOG2_E: (f64, f64) = (consts::LOG2_E, 2.035_527_374_093_103_3e-17);
pub(in crate::lower) const LOG2_10: (f64, f64) = (consts::LOG2_10, 1.661_617_516_973_592e-16);
pub(super) const LOG10_E: (f64, f64) = (consts::LOG10_E, 1.098_319_650_216_765e-17);
pub(in crate::lower) const PI: (f64, f64) = (consts::PI, 1.224_646_799_147_353_2e-16);
pub(super) const HALF_PI: (f64, f64) = (consts::FRAC_PI_2, 6.123_233_995_736_766e-17);
pub(super) const QUARTER_PI: (f64, f64) = (consts::FRAC_PI_4, 3.061_616_997_868_383e-17);
pub(super) const INV_PI: (f64, f64) = (consts::FRAC_1_PI, -1.967_867_667_518_248_6e-17);

/// The first 1280 bits of 2/pi after the binary point, big-endian: the
/// Payne-Hanek reductions' table (each precision takes as many words as
/// its exponent range needs, after zero words for windows that start
/// before the binary point; see [`two_over_pi`]).
const TWO_OVER_PI: [u32; 40] = [
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

/// `zeros` zero words, then the first bits of 2/pi, `N` words in all.
pub(super) const fn two_over_pi<const N: usize>(zeros: usize) -> [u32; N] {
    let mut table = [0; N];
    let mut i = zeros;
    while i < N {
        table[i] = TWO_OVER_PI[i - zeros];
        i += 1;
    }
    table
}

/// `c` as floats: the nearest float to `c` and to each rest in turn (`c`
/// a double-double), each held in an f64.
pub(super) const fn float_parts<const N: usize>(c: (f64, f64)) -> [f64; N] {
    let mut parts = [0.0; N];
    let mut rest = c;
    let mut i = 0;
    while i < N {
        let part = rest.0 as f32 as f64;
        parts[i] = part;
        rest = ((rest.0 - part) + rest.1, 0.0);
        i += 1;
    }
    parts
}
