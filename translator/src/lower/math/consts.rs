//! Constants more than one part of the library reads, as double-doubles:
//! the nearest double and the nearest double to the rest (std's constants
//! are the nearest doubles). The `double` code uses both parts; the
//! `float` code the first, rounded to f32.

use std::f64::consts;

pub(super) const PI: (f64, f64) = (consts::PI, 1.224_646_799_147_353_2e-16);
pub(super) const HALF_PI: (f64, f64) = (consts::FRAC_PI_2, 6.123_233_995_736_766e-17);
pub(super) const QUARTER_PI: (f64, f64) = (consts::FRAC_PI_4, 3.061_616_997_868_383e-17);
