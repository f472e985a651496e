//! One texel as a kernel sees it: fetched at coordinates clamped into the
//! image (so no access is ever out of bounds, whatever the spec leaves
//! undefined), swizzled by the channel order, or the border colour of
//! `CLK_ADDRESS_CLAMP` where the addressing put the coordinates outside.

use super::swizzle::{constants, swizzle};
use super::types::{push_argument, IMAGE_ARG, INFO0_ARG, INFO1_ARG};
use super::values::{bool_lit, clamp, component, compose, convert, f32_lit, i32_lit, splat4, Expr};
use super::{ImageFunctionKey, TexelKind};
use crate::image::{ImageAccess, ImageDescriptor, ImageDim, ImageInfo};
use crate::lower::builder::ModuleBuilder;
use crate::lower::emit::Emitter;
use naga::{BinaryOperator as B, Expression as E};

/// The texel function's arguments after the common three.
const COORD_ARG: u32 = 3;
const BORDER_ARG: u32 = 4;

impl ModuleBuilder<'_> {
    /// `fn(image, info0, info1, coord: vec4<i32>, border: bool) ->
    /// vec4<T>`: with `border`, coordinates outside the image give the
    /// border colour; without, they are clamped into it.
    pub(super) fn build_image_texel(
        &mut self,
        key: ImageFunctionKey,
        access: ImageAccess,
    ) -> naga::Function {
        let ivec4 = self.vec4_type(naga::Scalar::I32);
        let value_ty = self.vec4_type(key.kind.scalar());
        let bool_ty = self.add_type(naga::TypeInner::Scalar(naga::Scalar::BOOL));
        let mut fb = self.image_function_start(key, access);
        push_argument(&mut fb, "coord", ivec4);
        push_argument(&mut fb, "border", bool_ty);
        fb.function.result = Some(naga::FunctionResult {
            ty: value_ty,
            binding: None,
        });
        let image = fb.add(E::FunctionArgument(IMAGE_ARG));
        let info0 = fb.add(E::FunctionArgument(INFO0_ARG));
        let info1 = fb.add(E::FunctionArgument(INFO1_ARG));
        let coord = fb.add(E::FunctionArgument(COORD_ARG));
        let border = fb.add(E::FunctionArgument(BORDER_ARG));

        let sizes = image_sizes(&mut fb, key, info0, ivec4);
        let inside = is_inside(&mut fb, key, coord, sizes);
        let zero = i32_lit(&mut fb, 0);
        let zero = splat4(&mut fb, zero);
        let one = i32_lit(&mut fb, 1);
        let one = splat4(&mut fb, one);
        let last = fb.binary(B::Subtract, sizes, one);
        let clamped = clamp(&mut fb, coord, zero, last);
        let (coordinate, array_index) = self.texel_coordinates(&mut fb, key, clamped);
        let level = match key.descriptor {
            ImageDescriptor::Sampled => Some(i32_lit(&mut fb, 0)),
            ImageDescriptor::Storage | ImageDescriptor::StorageTexelBuffer => None,
        };
        let fetched = fb.add(E::ImageLoad {
            image,
            coordinate,
            array_index,
            sample: None,
            level,
        });
        // A sampled view of an sRGB image is the `*_SRGB` format, which
        // decodes; storage views are `*_UNORM` (Vulkan has no sRGB storage),
        // so a read_write image decodes here.
        let fetched = match (key.descriptor, key.kind) {
            (ImageDescriptor::Sampled, _) | (_, TexelKind::Int | TexelKind::Uint) => fetched,
            (_, TexelKind::Float) => srgb_decoded(&mut fb, value_ty, fetched, info1),
        };
        let selects = component(&mut fb, info1, 2);
        let swizzled = swizzle(&mut fb, value_ty, key.kind, fetched, selects);

        let colour = border_colour(&mut fb, key.kind, value_ty, info1);
        let outside = fb.unary(naga::UnaryOperator::LogicalNot, inside);
        let use_border = fb.binary(B::LogicalAnd, border, outside);
        let result = fb.select(use_border, colour, swizzled);
        fb.push(naga::Statement::Return {
            value: Some(result),
        });
        fb.finish()
    }

    /// The coordinate and array index naga's image access takes for
    /// `coord`, a `vec4<i32>` laid out as OpenCL C passes coordinates.
    pub(super) fn texel_coordinates(
        &mut self,
        fb: &mut Emitter,
        key: ImageFunctionKey,
        coord: Expr,
    ) -> (Expr, Option<Expr>) {
        let spatial = key.spatial();
        let coordinate = if spatial == 1 {
            component(fb, coord, 0)
        } else {
            let size = if spatial == 2 {
                naga::VectorSize::Bi
            } else {
                naga::VectorSize::Tri
            };
            let ty = self.add_type(naga::TypeInner::Vector {
                size,
                scalar: naga::Scalar::I32,
            });
            let lanes = (0..spatial).map(|i| component(fb, coord, i)).collect();
            compose(fb, ty, lanes)
        };
        let array_index = key.layer().map(|layer| component(fb, coord, layer));
        (coordinate, array_index)
    }

    /// `fn(image, info0, info1, coord: vec4<i32>) -> vec4<T>`: a
    /// samplerless read, whose out-of-range coordinates the spec leaves
    /// undefined; they are clamped into the image.
    pub(super) fn build_image_fetch(
        &mut self,
        key: ImageFunctionKey,
        access: ImageAccess,
    ) -> naga::Function {
        let texel = self.image_texel_function(key, access);
        let ivec4 = self.vec4_type(naga::Scalar::I32);
        let value_ty = self.vec4_type(key.kind.scalar());
        let mut fb = self.image_function_start(key, access);
        push_argument(&mut fb, "coord", ivec4);
        fb.function.result = Some(naga::FunctionResult {
            ty: value_ty,
            binding: None,
        });
        let mut arguments: Vec<Expr> = (0..4).map(|i| fb.add(E::FunctionArgument(i))).collect();
        arguments.push(bool_lit(&mut fb, false));
        let result = call(&mut fb, texel, arguments);
        fb.push(naga::Statement::Return {
            value: Some(result),
        });
        fb.finish()
    }
}

/// A call of `function` and its result.
pub(super) fn call(
    fb: &mut Emitter,
    function: naga::Handle<naga::Function>,
    arguments: Vec<Expr>,
) -> Expr {
    let result = fb.add(E::CallResult(function));
    fb.push(naga::Statement::Call {
        function,
        arguments,
        result: Some(result),
    });
    result
}

/// The image's extent in each coordinate OpenCL C passes (width, height,
/// depth or layers as the image type has them), 1 in the others.
pub(super) fn image_sizes(
    fb: &mut Emitter,
    key: ImageFunctionKey,
    info0: Expr,
    ivec4: naga::Handle<naga::Type>,
) -> Expr {
    // info0 is (width, height, depth, array_size).
    let from_info: &[u32] = match key.dim {
        ImageDim::D1 | ImageDim::D1Buffer => &[0],
        ImageDim::D1Array => &[0, 3],
        ImageDim::D2 => &[0, 1],
        ImageDim::D2Array => &[0, 1, 3],
        ImageDim::D3 => &[0, 1, 2],
    };
    let mut lanes: Vec<Expr> = from_info
        .iter()
        .map(|&i| {
            let size = component(fb, info0, i);
            convert(fb, size, naga::ScalarKind::Sint)
        })
        .collect();
    while lanes.len() < 4 {
        lanes.push(i32_lit(fb, 1));
    }
    compose(fb, ivec4, lanes)
}

/// Whether the coordinates the key uses lie inside `sizes`.
pub(super) fn is_inside(fb: &mut Emitter, key: ImageFunctionKey, coord: Expr, sizes: Expr) -> Expr {
    let mut inside = bool_lit(fb, true);
    for i in 0..key.used() {
        let c = component(fb, coord, i);
        let size = component(fb, sizes, i);
        let zero = i32_lit(fb, 0);
        let above = fb.binary(B::GreaterEqual, c, zero);
        let below = fb.binary(B::Less, c, size);
        let here = fb.binary(B::LogicalAnd, above, below);
        inside = fb.binary(B::LogicalAnd, inside, here);
    }
    inside
}

/// `CLK_ADDRESS_CLAMP`'s border colour: (0, 0, 0, 0) for orders with
/// alpha, else (0, 0, 0, 1).
/// For sRGB images, the stored colour components (the first three; the
/// fourth is alpha in both sRGBA and sBGRA) decoded to linear (OpenCL C
/// 3.0, "Conversion rules for sRGBA and sBGRA images"): `c / 12.92` up to
/// 0.04045, else `powr((c + 0.055) / 1.055, 2.4)` (`powr` as the device's
/// `pow`: within its accuracy, not correctly rounded).
fn srgb_decoded(
    fb: &mut Emitter,
    vec4: naga::Handle<naga::Type>,
    stored: Expr,
    info1: Expr,
) -> Expr {
    let alpha = component(fb, stored, 3);
    let lanes = (0..3)
        .map(|lane| {
            let c = component(fb, stored, lane);
            let slope = f32_lit(fb, 12.92);
            let low = fb.binary(B::Divide, c, slope);
            let offset = f32_lit(fb, 0.055);
            let shifted = fb.binary(B::Add, c, offset);
            let scale = f32_lit(fb, 1.055);
            let base = fb.binary(B::Divide, shifted, scale);
            let exponent = f32_lit(fb, 2.4);
            let high = fb.math(naga::MathFunction::Pow, base, Some(exponent));
            let threshold = f32_lit(fb, 0.04045);
            let is_low = fb.binary(B::LessEqual, c, threshold);
            fb.select(is_low, low, high)
        })
        .chain(std::iter::once(alpha))
        .collect();
    let decoded = compose(fb, vec4, lanes);
    let flags = component(fb, info1, 3);
    let srgb = super::values::field_is(fb, flags, ImageInfo::SRGB, ImageInfo::SRGB);
    fb.select(srgb, decoded, stored)
}

fn border_colour(
    fb: &mut Emitter,
    kind: TexelKind,
    value_ty: naga::Handle<naga::Type>,
    info1: Expr,
) -> Expr {
    let (zero, one) = constants(fb, kind);
    let flags = component(fb, info1, 3);
    let has_alpha = super::values::field_is(fb, flags, ImageInfo::HAS_ALPHA, ImageInfo::HAS_ALPHA);
    let alpha = fb.select(has_alpha, zero, one);
    compose(fb, value_ty, vec![zero, zero, zero, alpha])
}
