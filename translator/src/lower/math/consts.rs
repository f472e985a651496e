//! Constants more than one part of the library reads, as double-doubles:
//! the nearest double and the nearest double to the rest (std's constants
//! are the nearest doubles). The `double` code uses both parts; the
//! `float` code the first, rounded to f32.

use std::f64::consts;

pub(super) const LN_2: (f64, f64) = (consts::LN_2, 2.319_046_813_846_299_6e-17);
pub(super) const LOG2_E: (f64, f64) = (consts::LOG2_E, 2.035_527_374_093_103_3e-17);
pub(super) const LOG2_10: (f64, f64) = (consts::LOG2_10, 1.661_617_516_973_592e-16);
pub(super) const LOG10_E: (f64, f64) = (consts::LOG10_E, 1.098_319_650_216_765e-17);
pub(super) const PI: (f64, f64) = (consts::PI, 1.224_646_799_147_353_2e-16);
pub(super) const HALF_PI: (f64, f64) = (consts::FRAC_PI_2, 6.123_233_995_736_766e-17);
pub(super) const QUARTER_PI: (f64, f64) = (consts::FRAC_PI_4, 3.061_616_997_868_383e-17);
