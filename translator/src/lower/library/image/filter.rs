//! `read_image*` with a sampler: the texel indices from `address.rs`,
//! then one texel (`CLK_FILTER_NEAREST`, and always for integer images,
//! which the spec defines only for nearest filtering) or the weighted sum
//! of the 2, 4 or 8 around the coordinate (`CLK_FILTER_LINEAR`), with the
//! spec's weights in the spec's order: for 2D
//! `(1-a)(1-b) T[i0,j0] + a(1-b) T[i1,j0] + (1-a)b T[i0,j1] + ab T[i1,j1]`,
//! each product taken left to right, and 3D the same with `(1-c)` and
//! then `c` on the `k0` and `k1` planes.

use super::address::{decode_sampler, image_space, layer, linear, nearest};
use super::texel::{call, image_sizes};
use super::types::{push_argument, IMAGE_ARG, INFO0_ARG, INFO1_ARG};
use super::values::{component, compose, convert, f32_lit, i32_lit, splat4, Expr};
use super::{ImageFunctionKey, TexelKind};
use crate::image::ImageAccess;
use crate::lower::builder::ModuleBuilder;
use crate::lower::emit::Emitter;
use naga::{BinaryOperator as B, Expression as E, Span};

const SAMPLER_ARG: u32 = 3;
const COORD_ARG: u32 = 4;

impl ModuleBuilder<'_> {
    pub(super) fn build_image_sample(
        &mut self,
        key: ImageFunctionKey,
        access: ImageAccess,
    ) -> naga::Function {
        let texel = self.image_texel_function(key, access);
        let ivec4 = self.vec4_type(naga::Scalar::I32);
        let vec4 = self.vec4_type(naga::Scalar::F32);
        let value_ty = self.vec4_type(key.kind.scalar());
        let u32_ty = self.u32_type();
        let mut fb = self.image_function_start(key, access);
        push_argument(&mut fb, "sampler", u32_ty);
        push_argument(&mut fb, "coord", vec4);
        fb.function.result = Some(naga::FunctionResult {
            ty: value_ty,
            binding: None,
        });
        let image = fb.add(E::FunctionArgument(IMAGE_ARG));
        let info0 = fb.add(E::FunctionArgument(INFO0_ARG));
        let info1 = fb.add(E::FunctionArgument(INFO1_ARG));
        let word = fb.add(E::FunctionArgument(SAMPLER_ARG));
        let coord = fb.add(E::FunctionArgument(COORD_ARG));

        let sampler = decode_sampler(&mut fb, word);
        let sizes = image_sizes(&mut fb, key, info0, ivec4);
        let float_sizes = convert(&mut fb, sizes, naga::ScalarKind::Float);
        let u = image_space(&mut fb, coord, float_sizes, &sampler);
        let layer = key.layer().map(|lane| {
            let s = component(&mut fb, coord, lane);
            let layers = component(&mut fb, info0, 3);
            layer(&mut fb, s, layers)
        });
        let corner = Corner {
            key,
            ivec4,
            layer,
            common: [image, info0, info1],
            border: sampler.clamp,
            texel,
        };

        let nearest_texel = |fb: &mut Emitter| {
            let i = nearest(fb, u, sizes, &sampler);
            corner.read(fb, [i, i], 0)
        };
        if key.kind != TexelKind::Float {
            let result = nearest_texel(&mut fb);
            fb.push(naga::Statement::Return {
                value: Some(result),
            });
            return fb.finish();
        }

        let result = fb.function.local_variables.append(
            naga::LocalVariable {
                name: Some("result".into()),
                ty: value_ty,
                init: None,
            },
            Span::UNDEFINED,
        );
        let store = |fb: &mut Emitter, value| {
            let pointer = fb.add(E::LocalVariable(result));
            fb.push(naga::Statement::Store { pointer, value });
        };
        fb.blocks.push(naga::Block::new());
        {
            let (i0, i1, fraction) = linear(&mut fb, u, sizes, &sampler);
            let sum = corner.filtered(&mut fb, [i0, i1], fraction);
            store(&mut fb, sum);
        }
        let accept = fb.blocks.pop().expect("linear block");
        fb.blocks.push(naga::Block::new());
        {
            let value = nearest_texel(&mut fb);
            store(&mut fb, value);
        }
        let reject = fb.blocks.pop().expect("nearest block");
        fb.push(naga::Statement::If {
            condition: sampler.linear,
            accept,
            reject,
        });
        let pointer = fb.add(E::LocalVariable(result));
        let value = fb.add(E::Load { pointer });
        fb.push(naga::Statement::Return { value: Some(value) });
        fb.finish()
    }
}

/// What reading one texel of the filter's footprint takes.
struct Corner {
    key: ImageFunctionKey,
    ivec4: naga::Handle<naga::Type>,
    layer: Option<Expr>,
    /// image, info0, info1.
    common: [Expr; 3],
    /// `CLK_ADDRESS_CLAMP`: indices outside give the border colour.
    border: Expr,
    texel: naga::Handle<naga::Function>,
}

impl Corner {
    /// The texel whose index in spatial dimension `d` is lane `d` of
    /// `indices[bit d of which]`.
    fn read(&self, fb: &mut Emitter, indices: [Expr; 2], which: u32) -> Expr {
        let mut lanes: Vec<Expr> = (0..self.key.spatial())
            .map(|d| component(fb, indices[((which >> d) & 1) as usize], d))
            .collect();
        lanes.extend(self.layer);
        while lanes.len() < 4 {
            lanes.push(i32_lit(fb, 0));
        }
        let coord = compose(fb, self.ivec4, lanes);
        let mut arguments = self.common.to_vec();
        arguments.push(coord);
        arguments.push(self.border);
        call(fb, self.texel, arguments)
    }

    /// The spec's weighted sum over the 2^n corners, corner `m` taking
    /// `i1` in the dimensions whose bit is set in `m`.
    fn filtered(&self, fb: &mut Emitter, indices: [Expr; 2], fraction: Expr) -> Expr {
        let spatial = self.key.spatial();
        let one = f32_lit(fb, 1.0);
        let weights: Vec<[Expr; 2]> = (0..spatial)
            .map(|d| {
                let a = component(fb, fraction, d);
                [fb.binary(B::Subtract, one, a), a]
            })
            .collect();
        let mut sum = None;
        for which in 0..1u32 << spatial {
            let mut weight = weights[0][(which & 1) as usize];
            for (d, pair) in weights.iter().enumerate().skip(1) {
                weight = fb.binary(B::Multiply, weight, pair[((which >> d) & 1) as usize]);
            }
            let texel = self.read(fb, indices, which);
            let weight = splat4(fb, weight);
            let term = fb.binary(B::Multiply, weight, texel);
            sum = Some(match sum {
                None => term,
                Some(s) => fb.binary(B::Add, s, term),
            });
        }
        sum.expect("at least one corner")
    }
}
