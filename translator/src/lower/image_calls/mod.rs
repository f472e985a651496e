//! Calls of the image built-ins: the image argument resolved to the
//! kernel's image argument it stands for, its size read from the launch
//! block and its format from the constant the launch specialises,
//! coordinates and values brought to the four-lane vectors the texel
//! library takes, and its functions called; the `get_image_*` queries
//! answered from the info words alone.

pub(in crate::lower) use crate::lower::library::image::{ImageFunctionKey, TexelKind};

use crate::builtins::{ImageBuiltin, ImageQuery, Texel};
use crate::diagnostic::Location;
use crate::hir::ExprKind as H;
use crate::lower::builder::{LResult, ModuleBuilder};
use crate::lower::expressions::{Operand, Value};
use crate::lower::function::FnBuilder;
use crate::types::{Scalar, Type};
use naga::{Handle, Span};

/// The texel kind of a read or write of `texel`s (`half` values are
/// `float` ones converted).
pub(in crate::lower) fn texel_kind(texel: Texel) -> TexelKind {
    match texel {
        Texel::Float | Texel::Half => TexelKind::Float,
        Texel::Int => TexelKind::Int,
        Texel::UInt => TexelKind::Uint,
    }
}

impl ModuleBuilder<'_> {
    /// The kernel image argument that image operand `op` stands for.
    pub(in crate::lower) fn image_arg_of(
        &mut self,
        fb: &FnBuilder,
        op: Operand,
        location: Location,
    ) -> LResult<usize> {
        let arg = match op {
            Operand::Expr(e) => match fb.expr(e).kind {
                H::Local(l) => fb.image_params.get(&l).copied(),
                _ => None,
            },
            _ => None,
        };
        arg.ok_or_else(|| {
            self.error(
                location,
                "an image can only be a parameter passed on as it is",
            )
        })
    }

    /// Built-in image function `b` on `args`, whose result has type `ty`.
    pub(in crate::lower) fn image_builtin(
        &mut self,
        fb: &mut FnBuilder,
        b: ImageBuiltin,
        args: &[Operand],
        ty: &Type,
        location: Location,
    ) -> LResult<Value> {
        let arg = self.image_arg_of(fb, args[0], location)?;
        let [info0, info1] = self.image_info(fb, arg);
        match b {
            ImageBuiltin::Query(q) => self.image_query(fb, q, info0, info1, ty, location),
            ImageBuiltin::Read(texel) => {
                let kind = texel_kind(texel);
                let image = self.interface.images.image(arg);
                let global = self.image_global(arg, kind, location)?;
                let key = self.interface.images.key(arg, kind);
                let handle = fb.add(naga::Expression::GlobalVariable(global));
                let (function, arguments) = match args {
                    [_, sampler, coord] => {
                        let sampler = self.plain(fb, sampler)?;
                        let coord_ty = fb.ty(*coord);
                        let coord = self.plain(fb, coord)?;
                        let coord = self.four_lanes(fb, coord, &coord_ty);
                        let coord = match coord_ty.element() {
                            Some(Scalar::Float) => coord,
                            _ => fb.add(naga::Expression::As {
                                expr: coord,
                                kind: naga::ScalarKind::Float,
                                convert: Some(4),
                            }),
                        };
                        let function = self.image_sample_function(key, image.access);
                        (function, vec![handle, info0, info1, sampler, coord])
                    }
                    [_, coord] => {
                        let coord_ty = fb.ty(*coord);
                        let coord = self.plain(fb, coord)?;
                        let coord = self.four_lanes(fb, coord, &coord_ty);
                        let function = self.image_fetch_function(key, image.access);
                        (function, vec![handle, info0, info1, coord])
                    }
                    _ => return Err(self.error(location, "wrong arguments to an image read")),
                };
                let result = fb
                    .function
                    .expressions
                    .append(naga::Expression::CallResult(function), Span::UNDEFINED);
                fb.push(naga::Statement::Call {
                    function,
                    arguments,
                    result: Some(result),
                });
                let value = match (image.depth, texel) {
                    (true, _) => fb.add(naga::Expression::AccessIndex {
                        base: result,
                        index: 0,
                    }),
                    (false, Texel::Half) => {
                        let float4 = Type::Vector(Scalar::Float, 4);
                        self.convert(fb, result, &float4, ty, location)?
                    }
                    (false, _) => result,
                };
                Ok(Value::Plain(value))
            }
            ImageBuiltin::Write(texel) => {
                let kind = texel_kind(texel);
                let image = self.interface.images.image(arg);
                let global = self.image_global(arg, kind, location)?;
                let key = self.interface.images.key(arg, kind);
                let coord_ty = fb.ty(args[1]);
                let coord = self.plain(fb, args[1])?;
                let coord = self.four_lanes(fb, coord, &coord_ty);
                let value_ty = fb.ty(args[2]);
                let mut value = self.plain(fb, args[2])?;
                if value_ty.element() == Some(Scalar::Half) {
                    let float_ty = match value_ty {
                        Type::Vector(_, n) => Type::Vector(Scalar::Float, n),
                        _ => Type::FLOAT,
                    };
                    value = self.convert(fb, value, &value_ty, &float_ty, location)?;
                }
                let value = self.four_lanes(fb, value, &value_ty);
                let function = self.image_write_function(global, key, image.access);
                fb.push(naga::Statement::Call {
                    function,
                    arguments: vec![info0, info1, coord, value],
                    result: None,
                });
                Ok(Value::Void)
            }
        }
    }

    fn image_global(
        &mut self,
        arg: usize,
        kind: TexelKind,
        location: Location,
    ) -> LResult<Handle<naga::GlobalVariable>> {
        match self.interface.images.global(arg, kind) {
            Some(g) => Ok(g),
            None => Err(self.error(
                location,
                format!("internal compiler error: no {kind:?} view of an image argument"),
            )),
        }
    }

    /// Image argument `arg`'s info words, as two `vec4<u32>`: its size
    /// loaded from the launch block, and its format as the constant the
    /// launch specialises (see [`crate::specialization`]), which reaches
    /// the texel library as a call argument, so that nothing here folds
    /// its placeholder value.
    fn image_info(&mut self, fb: &mut FnBuilder, arg: usize) -> [Handle<naga::Expression>; 2] {
        let launch = self.interface.launch_block();
        let base = fb.add(naga::Expression::GlobalVariable(launch));
        let pointer = fb.add(naga::Expression::AccessIndex {
            base,
            index: self.interface.images.size_member(arg),
        });
        let size = fb.add(naga::Expression::Load { pointer });
        let format = self.interface.images.format_constant(arg);
        [size, fb.add(naga::Expression::Constant(format))]
    }

    /// A scalar or a 2- or 4-lane vector `v` of `ty` as four lanes, the
    /// missing ones zero.
    fn four_lanes(
        &mut self,
        fb: &mut FnBuilder,
        v: Handle<naga::Expression>,
        ty: &Type,
    ) -> Handle<naga::Expression> {
        let lanes = match *ty {
            Type::Vector(_, 4) => return v,
            Type::Vector(_, n) => u32::from(n),
            _ => 1,
        };
        let scalar = match ty.element() {
            Some(Scalar::Float) => naga::Scalar::F32,
            Some(Scalar::UInt) => naga::Scalar::U32,
            _ => naga::Scalar::I32,
        };
        let mut components: Vec<_> = match lanes {
            1 => vec![v],
            n => (0..n)
                .map(|index| fb.add(naga::Expression::AccessIndex { base: v, index }))
                .collect(),
        };
        while components.len() < 4 {
            components.push(fb.add(naga::Expression::ZeroValue(
                self.add_type(naga::TypeInner::Scalar(scalar)),
            )));
        }
        let ty = self.add_type(naga::TypeInner::Vector {
            size: naga::VectorSize::Quad,
            scalar,
        });
        fb.add(naga::Expression::Compose { ty, components })
    }

    /// `get_image_<q>` from the info words.
    fn image_query(
        &mut self,
        fb: &mut FnBuilder,
        q: ImageQuery,
        info0: Handle<naga::Expression>,
        info1: Handle<naga::Expression>,
        ty: &Type,
        location: Location,
    ) -> LResult<Value> {
        let word =
            |fb: &mut FnBuilder, base, index| fb.add(naga::Expression::AccessIndex { base, index });
        let as_int = |fb: &mut FnBuilder, expr| {
            fb.add(naga::Expression::As {
                expr,
                kind: naga::ScalarKind::Sint,
                convert: None,
            })
        };
        let value = match q {
            ImageQuery::Width => word(fb, info0, 0),
            ImageQuery::Height => word(fb, info0, 1),
            ImageQuery::Depth => word(fb, info0, 2),
            ImageQuery::ChannelDataType => word(fb, info1, 0),
            ImageQuery::ChannelOrder => word(fb, info1, 1),
            ImageQuery::ArraySize => {
                let size = word(fb, info0, 3);
                let v = self.convert(fb, size, &Type::UINT, ty, location)?;
                return Ok(Value::Plain(v));
            }
            ImageQuery::Dim => {
                // (width, height) or (width, height, depth, 0).
                let lanes = match ty {
                    Type::Vector(_, n) => u32::from(*n),
                    _ => 2,
                };
                let mut components: Vec<_> =
                    (0..lanes.min(3)).map(|i| word(fb, info0, i)).collect();
                if lanes == 4 {
                    components.push(fb.add(naga::Expression::Literal(naga::Literal::U32(0))));
                }
                let uvec = self.add_type(naga::TypeInner::Vector {
                    size: if lanes == 4 {
                        naga::VectorSize::Quad
                    } else {
                        naga::VectorSize::Bi
                    },
                    scalar: naga::Scalar::U32,
                });
                let v = fb.add(naga::Expression::Compose {
                    ty: uvec,
                    components,
                });
                return Ok(Value::Plain(as_int(fb, v)));
            }
        };
        Ok(Value::Plain(as_int(fb, value)))
    }
}
