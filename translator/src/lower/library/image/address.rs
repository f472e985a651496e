//! The addressing modes of OpenCL samplers (OpenCL 3.0 API, "Image
//! addressing and filtering"), lane by lane on `vec4`s of coordinates:
//! from a coordinate to the image-space `u` and from `u` to the texel
//! indices nearest or linear filtering reads.
//!
//! The spec leaves NaN and infinite coordinates undefined; here they
//! become 0 and `u` is clamped to +-2^30 before it is converted to an
//! integer, so index arithmetic never overflows (every mode clamps or
//! wraps far smaller values the same way).

use super::values::{
    clamp, convert, f32_lit, field_is, first_of, i32_lit, nan_to_zero, splat4, Expr,
};
use crate::image::sampler;
use crate::lower::emit::Emitter;
use naga::{BinaryOperator as B, MathFunction as M};

/// The largest `|u|` kept.
const U_LIMIT: f32 = (1u32 << 30) as f32;

/// A sampler word's fields as conditions.
pub(super) struct Sampler {
    pub normalized: Expr,
    pub clamp_to_edge: Expr,
    pub clamp: Expr,
    pub repeat: Expr,
    pub mirrored_repeat: Expr,
    pub linear: Expr,
}

pub(super) fn decode_sampler(fb: &mut Emitter, word: Expr) -> Sampler {
    let normalized = field_is(fb, word, 1, sampler::NORMALIZED_COORDS_TRUE);
    let mode = |fb: &mut Emitter, value| field_is(fb, word, sampler::ADDRESS_MASK, value);
    Sampler {
        normalized,
        clamp_to_edge: mode(fb, sampler::ADDRESS_CLAMP_TO_EDGE),
        clamp: mode(fb, sampler::ADDRESS_CLAMP),
        repeat: mode(fb, sampler::ADDRESS_REPEAT),
        mirrored_repeat: mode(fb, sampler::ADDRESS_MIRRORED_REPEAT),
        linear: field_is(fb, word, sampler::FILTER_MASK, sampler::FILTER_LINEAR),
    }
}

/// `u` for coordinates `s` on an image of `sizes` (`vec4<f32>`):
/// `REPEAT`: `(s - floor(s)) * size`; `MIRRORED_REPEAT`: `s' = 2 *
/// rint(0.5 * s)`, `|s - s'| * size`; otherwise `s * size` for normalized
/// coordinates and `s` for unnormalized ones.
pub(super) fn image_space(fb: &mut Emitter, s: Expr, sizes: Expr, sampler: &Sampler) -> Expr {
    let scaled = fb.binary(B::Multiply, s, sizes);
    let direct = fb.select(sampler.normalized, scaled, s);

    let floor = fb.math(M::Floor, s, None);
    let fraction = fb.binary(B::Subtract, s, floor);
    let repeated = fb.binary(B::Multiply, fraction, sizes);

    let half = f32_lit(fb, 0.5);
    let half = splat4(fb, half);
    let halved = fb.binary(B::Multiply, half, s);
    let nearest_even = fb.math(M::Round, halved, None);
    let two = f32_lit(fb, 2.0);
    let two = splat4(fb, two);
    let mirror = fb.binary(B::Multiply, two, nearest_even);
    let distance = fb.binary(B::Subtract, s, mirror);
    let distance = fb.math(M::Abs, distance, None);
    let mirrored = fb.binary(B::Multiply, distance, sizes);

    let u = first_of(
        fb,
        &[
            (sampler.repeat, repeated),
            (sampler.mirrored_repeat, mirrored),
        ],
        direct,
    );
    let zero = f32_lit(fb, 0.0);
    let zero = splat4(fb, zero);
    let u = nan_to_zero(fb, u, zero);
    let low = f32_lit(fb, -U_LIMIT);
    let low = splat4(fb, low);
    let high = f32_lit(fb, U_LIMIT);
    let high = splat4(fb, high);
    clamp(fb, u, low, high)
}

/// `CLK_FILTER_NEAREST`: `i = floor(u)`, then `CLAMP_TO_EDGE`: `clamp(i,
/// 0, size - 1)`; `CLAMP`: `clamp(i, -1, size)`; `REPEAT`: `i - size` if
/// `i > size - 1`; `MIRRORED_REPEAT`: `min(i, size - 1)`; `NONE`: `i`.
pub(super) fn nearest(fb: &mut Emitter, u: Expr, sizes: Expr, sampler: &Sampler) -> Expr {
    let floor = fb.math(M::Floor, u, None);
    let i = convert(fb, floor, naga::ScalarKind::Sint);
    let bounds = Bounds::new(fb, sizes);
    let to_edge = clamp(fb, i, bounds.zero, bounds.last);
    let to_border = clamp(fb, i, bounds.minus_one, sizes);
    let past_end = fb.binary(B::Greater, i, bounds.last);
    let wrapped = fb.binary(B::Subtract, i, sizes);
    let repeated = fb.select(past_end, wrapped, i);
    let mirrored = fb.math(M::Min, i, Some(bounds.last));
    first_of(
        fb,
        &[
            (sampler.clamp_to_edge, to_edge),
            (sampler.clamp, to_border),
            (sampler.repeat, repeated),
            (sampler.mirrored_repeat, mirrored),
        ],
        i,
    )
}

/// `CLK_FILTER_LINEAR`: `i0 = floor(u - 0.5)`, `i1 = i0 + 1`, each
/// addressed by the mode (`CLAMP_TO_EDGE` and `CLAMP` as for nearest;
/// `REPEAT`: `i0 + size` if `i0 < 0`, `i1 - size` if `i1 > size - 1`;
/// `MIRRORED_REPEAT`: `max(i0, 0)`, `min(i1, size - 1)`), and the weights
/// `frac(u - 0.5)` with `frac(x) = x - floor(x)`.
pub(super) fn linear(
    fb: &mut Emitter,
    u: Expr,
    sizes: Expr,
    sampler: &Sampler,
) -> (Expr, Expr, Expr) {
    let half = f32_lit(fb, 0.5);
    let half = splat4(fb, half);
    let t = fb.binary(B::Subtract, u, half);
    let floor = fb.math(M::Floor, t, None);
    let fraction = fb.binary(B::Subtract, t, floor);
    let i0 = convert(fb, floor, naga::ScalarKind::Sint);
    let bounds = Bounds::new(fb, sizes);
    let i1 = fb.binary(B::Add, i0, bounds.one);

    let edge0 = clamp(fb, i0, bounds.zero, bounds.last);
    let edge1 = clamp(fb, i1, bounds.zero, bounds.last);
    let border0 = clamp(fb, i0, bounds.minus_one, sizes);
    let border1 = clamp(fb, i1, bounds.minus_one, sizes);
    let before_start = fb.binary(B::Less, i0, bounds.zero);
    let wrapped0 = fb.binary(B::Add, sizes, i0);
    let repeat0 = fb.select(before_start, wrapped0, i0);
    let past_end = fb.binary(B::Greater, i1, bounds.last);
    let wrapped1 = fb.binary(B::Subtract, i1, sizes);
    let repeat1 = fb.select(past_end, wrapped1, i1);
    let mirror0 = fb.math(M::Max, i0, Some(bounds.zero));
    let mirror1 = fb.math(M::Min, i1, Some(bounds.last));

    let i0 = first_of(
        fb,
        &[
            (sampler.clamp_to_edge, edge0),
            (sampler.clamp, border0),
            (sampler.repeat, repeat0),
            (sampler.mirrored_repeat, mirror0),
        ],
        i0,
    );
    let i1 = first_of(
        fb,
        &[
            (sampler.clamp_to_edge, edge1),
            (sampler.clamp, border1),
            (sampler.repeat, repeat1),
            (sampler.mirrored_repeat, mirror1),
        ],
        i1,
    );
    (i0, i1, fraction)
}

/// The layer of an image array: `clamp(rint(s), 0, layers - 1)` whatever
/// the sampler (OpenCL C 3.0, 6.15.15.2).
pub(super) fn layer(fb: &mut Emitter, s: Expr, layers: Expr) -> Expr {
    let zero = f32_lit(fb, 0.0);
    let s = nan_to_zero(fb, s, zero);
    let nearest = fb.math(M::Round, s, None);
    let layers = convert(fb, layers, naga::ScalarKind::Float);
    let one = f32_lit(fb, 1.0);
    let last = fb.binary(B::Subtract, layers, one);
    let zero = f32_lit(fb, 0.0);
    let clamped = clamp(fb, nearest, zero, last);
    convert(fb, clamped, naga::ScalarKind::Sint)
}

/// `vec4<i32>` constants next to the sizes.
struct Bounds {
    zero: Expr,
    one: Expr,
    minus_one: Expr,
    /// `size - 1`.
    last: Expr,
}

impl Bounds {
    fn new(fb: &mut Emitter, sizes: Expr) -> Self {
        let splat = |fb: &mut Emitter, v| {
            let v = i32_lit(fb, v);
            splat4(fb, v)
        };
        let zero = splat(fb, 0);
        let one = splat(fb, 1);
        let minus_one = splat(fb, -1);
        let last = fb.binary(B::Subtract, sizes, one);
        Bounds {
            zero,
            one,
            minus_one,
            last,
        }
    }
}
