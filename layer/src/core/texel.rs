//! Host-side texel packing: the bytes one texel of an image format holds
//! for a colour given as four floats, ints or uints, by the conversion
//! rules of OpenCL C's `write_image{f,i,ui}` (OpenCL 3.0 C, 8.3.1). This is
//! what `clEnqueueFillImage` stores, and the host model tests compare
//! kernel writes against.
//!
//! Float to normalized: scale, round to nearest even, saturate, NaN to 0.
//! Float to half: round to nearest even. Integers saturate to the type.
//! The order's swizzle places the channels (`CL_BGRA` stores b, g, r, a);
//! sRGB orders store the colour encoded from linear.

use translator::image::*;

use crate::core::image_format::ImageFormat;

/// A colour as the API passes it: `float4` for normalized and float types,
/// `int4` for signed and `uint4` for unsigned integer types, as raw bits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Color {
    Float([f32; 4]),
    Int([i32; 4]),
    Uint([u32; 4]),
}

impl Color {
    /// Reads the 16 bytes of a fill colour as the type `data_type` takes.
    pub fn from_bytes(data_type: u32, bytes: [u8; 16]) -> Color {
        let word = |i: usize| {
            u32::from_le_bytes([
                bytes[4 * i],
                bytes[4 * i + 1],
                bytes[4 * i + 2],
                bytes[4 * i + 3],
            ])
        };
        let words = [word(0), word(1), word(2), word(3)];
        match data_type {
            CL_SIGNED_INT8 | CL_SIGNED_INT16 | CL_SIGNED_INT32 => {
                Color::Int(words.map(|w| w as i32))
            }
            CL_UNSIGNED_INT8 | CL_UNSIGNED_INT16 | CL_UNSIGNED_INT32 => Color::Uint(words),
            _ => Color::Float(words.map(f32::from_bits)),
        }
    }
}

/// `convert_<int>_sat_rte(value)` into `[min, max]`; NaN gives 0.
fn saturate_rte(value: f32, min: f32, max: f32) -> i64 {
    if value.is_nan() {
        return 0;
    }
    value.clamp(min, max).round_ties_even() as i64
}

/// The linear to sRGB encoding OpenCL specifies for sRGB writes.
fn linear_to_srgb(value: f32) -> f32 {
    if value.is_nan() || value <= 0.0 {
        0.0
    } else if value < 0.003_130_8 {
        value * 12.92
    } else if value < 1.0 {
        1.055 * value.powf(1.0 / 2.4) - 0.055
    } else {
        1.0
    }
}

/// IEEE 754 binary32 to binary16, rounding to nearest even.
pub fn f32_to_f16(value: f32) -> u16 {
    let bits = value.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = ((bits >> 23) & 0xff) as i32;
    let mantissa = bits & 0x007f_ffff;
    if exponent == 0xff {
        // Infinity, or NaN kept quiet and non-zero.
        let nan = if mantissa != 0 {
            0x0200 | (mantissa >> 13) as u16
        } else {
            0
        };
        return sign | 0x7c00 | nan;
    }
    let unbiased = exponent - 127;
    if unbiased > 15 {
        return sign | 0x7c00;
    }
    if unbiased >= -14 {
        // Normal: 10 mantissa bits, round the 13 dropped ones to even.
        let half = ((unbiased + 15) as u32) << 10 | (mantissa >> 13);
        let rest = mantissa & 0x1fff;
        let rounded = if rest > 0x1000 || (rest == 0x1000 && half & 1 == 1) {
            half + 1
        } else {
            half
        };
        // A carry into the exponent is the right result (up to infinity).
        return sign | rounded as u16;
    }
    if unbiased < -25 {
        return sign;
    }
    // Subnormal: the value in units of 2^-24, rounded to even.
    let full = mantissa | 0x0080_0000;
    let shift = (-unbiased - 14 + 13) as u32;
    let half = full >> shift;
    let rest = full & ((1 << shift) - 1);
    let midpoint = 1 << (shift - 1);
    let rounded = if rest > midpoint || (rest == midpoint && half & 1 == 1) {
        half + 1
    } else {
        half
    };
    sign | rounded as u16
}

/// One channel value as the API gave it.
#[derive(Clone, Copy)]
enum Channel {
    Float(f32),
    Int(i32),
    Uint(u32),
}

/// The bytes of one texel of `format` holding `color`.
pub fn pack(format: &ImageFormat, color: Color) -> Vec<u8> {
    let layout = order_layout(format.order);
    let write = layout.map_or([Select::X, Select::Y, Select::Z, Select::W], |l| l.write);
    let srgb = layout.is_some_and(|l| l.srgb);
    let channel = |select: Select| -> Channel {
        let index = match select {
            Select::X => 0,
            Select::Y => 1,
            Select::Z => 2,
            Select::W => 3,
            Select::Zero | Select::One => {
                let one = select == Select::One;
                return match color {
                    Color::Float(_) => Channel::Float(f32::from(u8::from(one))),
                    Color::Int(_) => Channel::Int(i32::from(one)),
                    Color::Uint(_) => Channel::Uint(u32::from(one)),
                };
            }
        };
        match color {
            Color::Float(values) => {
                let value = values[index];
                // sRGB encodes the colour channels, not alpha.
                Channel::Float(if srgb && index < 3 {
                    linear_to_srgb(value)
                } else {
                    value
                })
            }
            Color::Int(values) => Channel::Int(values[index]),
            Color::Uint(values) => Channel::Uint(values[index]),
        }
    };
    let float = |c: Channel| match c {
        Channel::Float(v) => v,
        Channel::Int(v) => v as f32,
        Channel::Uint(v) => v as f32,
    };
    let int = |c: Channel| -> i64 {
        match c {
            Channel::Float(v) => v as i64,
            Channel::Int(v) => i64::from(v),
            Channel::Uint(v) => i64::from(v),
        }
    };
    let unorm = |c: Channel, max: f32| saturate_rte(float(c) * max, 0.0, max) as u32;

    // The packed RGB formats: r, g, b from the first three components.
    let rgb = [channel(write[0]), channel(write[1]), channel(write[2])];
    match format.data_type {
        CL_UNORM_SHORT_565 => {
            let v = unorm(rgb[0], 31.0) << 11 | unorm(rgb[1], 63.0) << 5 | unorm(rgb[2], 31.0);
            return (v as u16).to_le_bytes().to_vec();
        }
        CL_UNORM_SHORT_555 => {
            let v = unorm(rgb[0], 31.0) << 10 | unorm(rgb[1], 31.0) << 5 | unorm(rgb[2], 31.0);
            return (v as u16).to_le_bytes().to_vec();
        }
        CL_UNORM_INT_101010 => {
            let v =
                unorm(rgb[0], 1023.0) << 20 | unorm(rgb[1], 1023.0) << 10 | unorm(rgb[2], 1023.0);
            return v.to_le_bytes().to_vec();
        }
        _ => {}
    }

    let components = layout.map_or(4, |l| l.components as usize);
    let mut out = Vec::with_capacity(format.element_size);
    for &select in write.iter().take(components) {
        let c = channel(select);
        match format.data_type {
            CL_UNORM_INT8 => out.push(unorm(c, 255.0) as u8),
            CL_UNORM_INT16 => out.extend((unorm(c, 65535.0) as u16).to_le_bytes()),
            CL_SNORM_INT8 => out.push(saturate_rte(float(c) * 127.0, -128.0, 127.0) as i8 as u8),
            CL_SNORM_INT16 => out
                .extend((saturate_rte(float(c) * 32767.0, -32768.0, 32767.0) as i16).to_le_bytes()),
            CL_HALF_FLOAT => out.extend(f32_to_f16(float(c)).to_le_bytes()),
            CL_FLOAT => out.extend(float(c).to_le_bytes()),
            CL_SIGNED_INT8 => out.push(int(c).clamp(-128, 127) as i8 as u8),
            CL_SIGNED_INT16 => out.extend((int(c).clamp(-32768, 32767) as i16).to_le_bytes()),
            CL_SIGNED_INT32 => out.extend((int(c) as i32).to_le_bytes()),
            CL_UNSIGNED_INT8 => out.push(int(c).clamp(0, 255) as u8),
            CL_UNSIGNED_INT16 => out.extend((int(c).clamp(0, 65535) as u16).to_le_bytes()),
            // uint4 values are all representable.
            CL_UNSIGNED_INT32 => out.extend((int(c) as u32).to_le_bytes()),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::image_format::lookup;

    fn packed(order: u32, data_type: u32, color: Color) -> Vec<u8> {
        pack(&lookup(order, data_type).expect("format"), color)
    }

    #[test]
    fn normalized_channels_round_to_even_and_saturate() {
        let f = |values| Color::Float(values);
        assert_eq!(
            packed(CL_RGBA, CL_UNORM_INT8, f([0.0, 1.0, 0.5, 2.0])),
            [0, 255, 128, 255]
        );
        // 0.5/255 * 255 = 0.5 exactly: rounds to even (0); 1.5 -> 2.
        assert_eq!(
            packed(
                CL_RG,
                CL_UNORM_INT8,
                f([0.5 / 255.0, 1.5 / 255.0, 0.0, 0.0])
            ),
            [0, 2]
        );
        assert_eq!(
            packed(CL_R, CL_UNORM_INT8, f([f32::NAN, 0.0, 0.0, 0.0])),
            [0]
        );
        assert_eq!(
            packed(CL_RG, CL_SNORM_INT8, f([-1.0, -5.0, 0.0, 0.0])),
            [(-127i8) as u8, (-128i8) as u8]
        );
        assert_eq!(
            packed(CL_R, CL_UNORM_INT16, f([1.0, 0.0, 0.0, 0.0])),
            [255, 255]
        );
    }

    #[test]
    fn orders_place_the_channels() {
        let color = Color::Float([1.0, 0.0, 0.5, 0.25]);
        assert_eq!(packed(CL_BGRA, CL_UNORM_INT8, color), [128, 0, 255, 64]);
        assert_eq!(packed(CL_ARGB, CL_UNORM_INT8, color), [64, 255, 0, 128]);
        assert_eq!(packed(CL_ABGR, CL_UNORM_INT8, color), [64, 128, 0, 255]);
        assert_eq!(packed(CL_A, CL_UNORM_INT8, color), [64]);
        assert_eq!(packed(CL_RA, CL_UNORM_INT8, color), [255, 64]);
    }

    #[test]
    fn integers_saturate() {
        assert_eq!(
            packed(CL_RG, CL_SIGNED_INT8, Color::Int([300, -300, 0, 0])),
            [127, 128]
        );
        assert_eq!(
            packed(CL_R, CL_UNSIGNED_INT16, Color::Uint([70000, 0, 0, 0])),
            [255, 255]
        );
        assert_eq!(
            packed(CL_R, CL_SIGNED_INT32, Color::Int([-2, 0, 0, 0])),
            (-2i32).to_le_bytes()
        );
    }

    #[test]
    fn packed_formats_put_red_high() {
        let red = Color::Float([1.0, 0.0, 0.0, 0.0]);
        let blue = Color::Float([0.0, 0.0, 1.0, 0.0]);
        assert_eq!(
            packed(CL_RGB, CL_UNORM_SHORT_565, red),
            0xf800u16.to_le_bytes()
        );
        assert_eq!(
            packed(CL_RGB, CL_UNORM_SHORT_565, blue),
            0x001fu16.to_le_bytes()
        );
        assert_eq!(
            packed(CL_RGB, CL_UNORM_SHORT_555, red),
            0x7c00u16.to_le_bytes()
        );
        assert_eq!(
            packed(CL_RGB, CL_UNORM_INT_101010, red),
            0x3ff0_0000u32.to_le_bytes()
        );
    }

    #[test]
    fn halves_round_to_nearest_even() {
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(-2.0), 0xc000);
        assert_eq!(f32_to_f16(65504.0), 0x7bff);
        assert_eq!(f32_to_f16(65520.0), 0x7c00);
        assert_eq!(f32_to_f16(f32::INFINITY), 0x7c00);
        assert_eq!(f32_to_f16(f32::NAN) & 0x7c00, 0x7c00);
        assert_ne!(f32_to_f16(f32::NAN) & 0x03ff, 0);
        // 1 + 2^-11 is halfway between 1 and the next half: to even (1).
        assert_eq!(f32_to_f16(1.0 + 2f32.powi(-11)), 0x3c00);
        assert_eq!(f32_to_f16(1.0 + 3.0 * 2f32.powi(-11)), 0x3c02);
        // The smallest subnormal, and half of it (a tie, to even: 0).
        assert_eq!(f32_to_f16(2f32.powi(-24)), 0x0001);
        assert_eq!(f32_to_f16(2f32.powi(-25)), 0x0000);
        assert_eq!(f32_to_f16(1.5 * 2f32.powi(-24)), 0x0002);
        assert_eq!(f32_to_f16(2f32.powi(-14)), 0x0400);
    }

    #[test]
    fn srgb_encodes_colour_not_alpha() {
        let color = Color::Float([0.5, 0.0, 1.0, 0.5]);
        // 1.055 * 0.5^(1/2.4) - 0.055 = 0.7354 -> 187.5 -> 188.
        assert_eq!(packed(CL_SRGBA, CL_UNORM_INT8, color), [188, 0, 255, 128]);
    }
}
