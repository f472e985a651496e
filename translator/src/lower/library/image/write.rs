//! `write_image*`: the value converted as the spec's conversion rules say
//! for the image's channel type, put in the stored components by the
//! order's write swizzle, and stored where the coordinates are inside the
//! image (an out-of-range write, undefined in the spec, is dropped rather
//! than clamped onto a texel the kernel did not name).
//!
//! The Vulkan store converts floats to the format; for normalized and
//! `half` formats Vulkan lets it round either way, so the value is first
//! rounded here to one the format holds exactly (`rint(x * max) / max`,
//! the spec's round to nearest even), which every rounding then keeps.

use super::swizzle::swizzle;
use super::texel::{image_sizes, is_inside};
use super::types::push_argument;
use super::values::{
    bitcast, clamp, component, compose, f32_lit, field, i32_lit, is_one_of, nan_to_zero, splat4,
    u32_lit, Expr,
};
use super::{ImageFunctionKey, TexelKind};
use crate::image::*;
use crate::lower::builder::ModuleBuilder;
use crate::lower::emit::Emitter;
use naga::{BinaryOperator as B, Expression as E, MathFunction as M, ScalarKind as K};

/// The largest stored value of each component (r, g, b, a) of the
/// normalized channel types, by which a value in [0, 1] or [-1, 1] is
/// multiplied.
#[rustfmt::skip]
const NORMALIZED_MAXIMA: &[(u32, [f32; 4])] = &[
    (CL_UNORM_INT8,         [255.0; 4]),
    (CL_UNORM_INT16,        [65535.0; 4]),
    (CL_SNORM_INT8,         [127.0; 4]),
    (CL_SNORM_INT16,        [32767.0; 4]),
    (CL_UNORM_SHORT_565,    [31.0, 63.0, 31.0, 1.0]),
    (CL_UNORM_SHORT_555,    [31.0, 31.0, 31.0, 1.0]),
    (CL_UNORM_INT_101010,   [1023.0, 1023.0, 1023.0, 3.0]),
    (CL_UNORM_INT_101010_2, [1023.0, 1023.0, 1023.0, 3.0]),
];

impl ModuleBuilder<'_> {
    pub(super) fn build_image_write(
        &mut self,
        global: naga::Handle<naga::GlobalVariable>,
        key: ImageFunctionKey,
    ) -> naga::Function {
        let ivec4 = self.vec4_type(naga::Scalar::I32);
        let vec4 = self.vec4_type(naga::Scalar::F32);
        let value_ty = self.vec4_type(key.kind.scalar());
        let info = self.vec4_type(naga::Scalar::U32);
        let mut fb = Emitter::default();
        push_argument(&mut fb, "info0", info);
        push_argument(&mut fb, "info1", info);
        push_argument(&mut fb, "coord", ivec4);
        push_argument(&mut fb, "value", value_ty);
        if key.descriptor == ImageDescriptor::Sampled {
            // A sampled image is never written: the front end rejects
            // writes to `read_only` images, which are the only sampled ones.
            return fb.finish();
        }
        let image = fb.add(E::GlobalVariable(global));
        let info0 = fb.add(E::FunctionArgument(0));
        let info1 = fb.add(E::FunctionArgument(1));
        let coord = fb.add(E::FunctionArgument(2));
        let value = fb.add(E::FunctionArgument(3));

        let data_type = component(&mut fb, info1, 0);
        let flags = component(&mut fb, info1, 3);
        let stored = match key.kind {
            TexelKind::Float => {
                let value = srgb_encoded(&mut fb, vec4, value, flags);
                let value = normalized_range(&mut fb, value, data_type);
                let selects = component(&mut fb, info1, 2);
                let selects = field(&mut fb, selects, 16, 0xFFFF);
                let stored = swizzle(&mut fb, vec4, key.kind, value, selects);
                let stored = normalized_rounding(&mut fb, vec4, stored, data_type);
                half_rounding(&mut fb, stored, data_type)
            }
            TexelKind::Int | TexelKind::Uint => {
                let value = saturated(&mut fb, key.kind, value, flags);
                let selects = component(&mut fb, info1, 2);
                let selects = field(&mut fb, selects, 16, 0xFFFF);
                swizzle(&mut fb, value_ty, key.kind, value, selects)
            }
        };

        let sizes = image_sizes(&mut fb, key, info0, ivec4);
        let inside = is_inside(&mut fb, key, coord, sizes);
        let (coordinate, array_index) = self.texel_coordinates(&mut fb, key, coord);
        let mut accept = naga::Block::new();
        accept.push(
            naga::Statement::ImageStore {
                image,
                coordinate,
                array_index,
                value: stored,
            },
            naga::Span::UNDEFINED,
        );
        fb.push(naga::Statement::If {
            condition: inside,
            accept,
            reject: naga::Block::new(),
        });
        fb.finish()
    }
}

/// For sRGB images, the colour channels (x, y, z) encoded from linear
/// (OpenCL C 3.0, "Conversion rules for sRGBA and sBGRA images"): NaN and
/// below 0 are 0; above 1 is 1; `12.92 c` below 0.0031308, else
/// `1.055 powr(c, 1/2.4) - 0.055` (`powr` as the device's `pow`: within
/// its accuracy, not correctly rounded).
fn srgb_encoded(
    fb: &mut Emitter,
    vec4: naga::Handle<naga::Type>,
    value: Expr,
    flags: Expr,
) -> Expr {
    let zero = f32_lit(fb, 0.0);
    let one = f32_lit(fb, 1.0);
    let alpha = component(fb, value, 3);
    let lanes = (0..3)
        .map(|lane| {
            let c = component(fb, value, lane);
            let c = nan_to_zero(fb, c, zero);
            let big = f32_lit(fb, 2.0);
            let c = clamp(fb, c, zero, big);
            let slope = f32_lit(fb, 12.92);
            let low = fb.binary(B::Multiply, slope, c);
            let exponent = f32_lit(fb, 1.0 / 2.4);
            let power = fb.math(M::Pow, c, Some(exponent));
            let scale = f32_lit(fb, 1.055);
            let scaled = fb.binary(B::Multiply, scale, power);
            let offset = f32_lit(fb, 0.055);
            let high = fb.binary(B::Subtract, scaled, offset);
            let threshold = f32_lit(fb, 0.0031308);
            let is_low = fb.binary(B::Less, c, threshold);
            let encoded = fb.select(is_low, low, high);
            // Above 1 the spec's chain gives 1 itself, not the formula's
            // 0.99999994 at 1.
            let above = fb.binary(B::Greater, c, one);
            fb.select(above, one, encoded)
        })
        .chain(std::iter::once(alpha))
        .collect();
    let encoded = compose(fb, vec4, lanes);
    let srgb = super::values::field_is(fb, flags, ImageInfo::SRGB, ImageInfo::SRGB);
    fb.select(srgb, encoded, value)
}

/// For the normalized channel types, NaN as 0 and the value clamped to
/// [0, 1] (unsigned) or [-1, 1] (signed).
fn normalized_range(fb: &mut Emitter, value: Expr, data_type: Expr) -> Expr {
    let unsigned: Vec<u32> = NORMALIZED_MAXIMA
        .iter()
        .map(|row| row.0)
        .filter(|&t| t != CL_SNORM_INT8 && t != CL_SNORM_INT16)
        .collect();
    let is_unsigned = is_one_of(fb, data_type, &unsigned);
    let is_signed = is_one_of(fb, data_type, &[CL_SNORM_INT8, CL_SNORM_INT16]);
    let zero = f32_lit(fb, 0.0);
    let minus_one = f32_lit(fb, -1.0);
    let low = fb.select(is_signed, minus_one, zero);
    let low = splat4(fb, low);
    let one = f32_lit(fb, 1.0);
    let high = splat4(fb, one);
    let zero = splat4(fb, zero);
    let number = nan_to_zero(fb, value, zero);
    let clamped = clamp(fb, number, low, high);
    let normalized = fb.binary(B::LogicalOr, is_unsigned, is_signed);
    fb.select(normalized, clamped, value)
}

/// For the normalized channel types, `rint(x * max) / max` per stored
/// component.
fn normalized_rounding(
    fb: &mut Emitter,
    vec4: naga::Handle<naga::Type>,
    stored: Expr,
    data_type: Expr,
) -> Expr {
    let one = f32_lit(fb, 1.0);
    let mut maxima = splat4(fb, one);
    let mut normalized = super::values::bool_lit(fb, false);
    for (t, max) in NORMALIZED_MAXIMA {
        let t = u32_lit(fb, *t);
        let is = fb.binary(B::Equal, data_type, t);
        let lanes: Vec<Expr> = max.iter().map(|&m| f32_lit(fb, m)).collect();
        let row = compose(fb, vec4, lanes);
        maxima = fb.select(is, row, maxima);
        normalized = fb.binary(B::LogicalOr, normalized, is);
    }
    let scaled = fb.binary(B::Multiply, stored, maxima);
    let nearest_even = fb.math(M::Round, scaled, None);
    let rounded = fb.binary(B::Divide, nearest_even, maxima);
    fb.select(normalized, rounded, stored)
}

/// For `CL_HALF_FLOAT`, the value rounded to the nearest `half` (ties to
/// even; past 65504 to infinity), so the store's own conversion is exact.
fn half_rounding(fb: &mut Emitter, stored: Expr, data_type: Expr) -> Expr {
    let splat = |fb: &mut Emitter, v: u32| {
        let v = u32_lit(fb, v);
        splat4(fb, v)
    };
    let bits = bitcast(fb, stored, K::Uint);
    let sign_mask = splat(fb, 0x8000_0000);
    let sign = fb.binary(B::And, bits, sign_mask);
    let magnitude_mask = splat(fb, 0x7fff_ffff);
    let magnitude = fb.binary(B::And, bits, magnitude_mask);

    // Normal halves: 13 low significand bits rounded off, ties to even.
    let thirteen = splat(fb, 13);
    let kept_low_bit = fb.binary(B::ShiftRight, magnitude, thirteen);
    let one = splat(fb, 1);
    let kept_low_bit = fb.binary(B::And, kept_low_bit, one);
    let bias = splat(fb, 0xfff);
    let biased = fb.binary(B::Add, magnitude, bias);
    let biased = fb.binary(B::Add, biased, kept_low_bit);
    let keep = splat(fb, !0x1fff);
    let normal = fb.binary(B::And, biased, keep);
    let overflow_at = splat(fb, 0x4780_0000); // 65536
    let overflows = fb.binary(B::GreaterEqual, normal, overflow_at);
    let infinity = splat(fb, 0x7f80_0000);
    let normal = fb.select(overflows, infinity, normal);

    // Subnormal halves: whole multiples of 2^-24, exactly in float.
    let absolute = bitcast(fb, magnitude, K::Float);
    let up = f32_lit(fb, 16_777_216.0);
    let up = splat4(fb, up);
    let scaled = fb.binary(B::Multiply, absolute, up);
    let nearest_even = fb.math(M::Round, scaled, None);
    let down = f32_lit(fb, 1.0 / 16_777_216.0);
    let down = splat4(fb, down);
    let subnormal = fb.binary(B::Multiply, nearest_even, down);
    let subnormal = bitcast(fb, subnormal, K::Uint);

    let smallest_normal = splat(fb, 0x3880_0000); // 2^-14
    let is_subnormal = fb.binary(B::Less, magnitude, smallest_normal);
    let rounded = fb.select(is_subnormal, subnormal, normal);
    let special = fb.binary(B::GreaterEqual, magnitude, infinity);
    let rounded = fb.select(special, magnitude, rounded);
    let rounded = fb.binary(B::InclusiveOr, rounded, sign);
    let rounded = bitcast(fb, rounded, K::Float);
    let half = u32_lit(fb, CL_HALF_FLOAT);
    let is_half = fb.binary(B::Equal, data_type, half);
    fb.select(is_half, rounded, stored)
}

/// `write_imagei`/`write_imageui` saturate to the channel type
/// (`convert_char_sat` ...): the bits (8, 16, 32) come from the flags.
fn saturated(fb: &mut Emitter, kind: TexelKind, value: Expr, flags: Expr) -> Expr {
    let bits = field(fb, flags, ImageInfo::INTEGER_BITS_SHIFT, 0xFF);
    let eight = u32_lit(fb, 8);
    let is8 = fb.binary(B::Equal, bits, eight);
    let sixteen = u32_lit(fb, 16);
    let is16 = fb.binary(B::Equal, bits, sixteen);
    let (low, high) = match kind {
        TexelKind::Int => {
            let pick = |fb: &mut Emitter, a: i32, b: i32, c: i32| {
                let (a, b, c) = (i32_lit(fb, a), i32_lit(fb, b), i32_lit(fb, c));
                let rest = fb.select(is16, b, c);
                fb.select(is8, a, rest)
            };
            (
                pick(fb, i8::MIN.into(), i16::MIN.into(), i32::MIN),
                pick(fb, i8::MAX.into(), i16::MAX.into(), i32::MAX),
            )
        }
        _ => {
            let low = u32_lit(fb, 0);
            let (a, b, c) = (
                u32_lit(fb, u8::MAX.into()),
                u32_lit(fb, u16::MAX.into()),
                u32_lit(fb, u32::MAX),
            );
            let rest = fb.select(is16, b, c);
            (low, fb.select(is8, a, rest))
        }
    };
    let low = splat4(fb, low);
    let high = splat4(fb, high);
    clamp(fb, value, low, high)
}
