//! STAND-IN for the texel library of `lower/library/image/` (issue 21,
//! branch i21-library), with exactly its API, so that the image built-ins
//! compile and validate before that library is merged: plain fetches and
//! stores with none of the spec's sampler, swizzle or conversion
//! semantics. Delete this file when the library lands (see `mod.rs`).

use crate::image::{ImageAccess, ImageDescriptor, ImageDim};
use crate::lower::builder::ModuleBuilder;
use crate::lower::emit::Emitter;
use naga::{Handle, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(in crate::lower) enum TexelKind {
    Float,
    Int,
    Uint,
}

impl TexelKind {
    fn scalar(self) -> naga::Scalar {
        match self {
            TexelKind::Float => naga::Scalar::F32,
            TexelKind::Int => naga::Scalar::I32,
            TexelKind::Uint => naga::Scalar::U32,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(in crate::lower) struct ImageFunctionKey {
    pub dim: ImageDim,
    pub depth: bool,
    pub descriptor: ImageDescriptor,
    pub kind: TexelKind,
}

#[derive(Clone, Copy, Debug)]
enum Operation {
    Sample,
    Fetch,
    Write(Handle<naga::GlobalVariable>),
}

impl ModuleBuilder<'_> {
    pub(in crate::lower) fn image_handle_type(
        &mut self,
        key: ImageFunctionKey,
        access: ImageAccess,
    ) -> Handle<naga::Type> {
        let (dim, arrayed) = naga_dim(key.dim);
        let class = match key.descriptor {
            ImageDescriptor::Sampled => naga::ImageClass::Sampled {
                kind: key.kind.scalar().kind,
                multi: false,
            },
            ImageDescriptor::Storage | ImageDescriptor::StorageTexelBuffer => {
                naga::ImageClass::Storage {
                    format: match key.kind {
                        TexelKind::Float => naga::StorageFormat::Rgba32Float,
                        TexelKind::Int => naga::StorageFormat::Rgba32Sint,
                        TexelKind::Uint => naga::StorageFormat::Rgba32Uint,
                    },
                    access: match access {
                        ImageAccess::ReadOnly => naga::StorageAccess::LOAD,
                        ImageAccess::WriteOnly => naga::StorageAccess::STORE,
                        ImageAccess::ReadWrite => {
                            naga::StorageAccess::LOAD | naga::StorageAccess::STORE
                        }
                    },
                }
            }
        };
        self.add_type(naga::TypeInner::Image {
            dim,
            arrayed,
            class,
        })
    }

    pub(in crate::lower) fn image_sample_function(
        &mut self,
        key: ImageFunctionKey,
        access: ImageAccess,
    ) -> Handle<naga::Function> {
        self.stand_in_function(Operation::Sample, key, access)
    }

    pub(in crate::lower) fn image_fetch_function(
        &mut self,
        key: ImageFunctionKey,
        access: ImageAccess,
    ) -> Handle<naga::Function> {
        self.stand_in_function(Operation::Fetch, key, access)
    }

    /// naga stores only to a global, so a write function is made per
    /// image global and takes no image argument (as the library's).
    pub(in crate::lower) fn image_write_function(
        &mut self,
        image: Handle<naga::GlobalVariable>,
        key: ImageFunctionKey,
        access: ImageAccess,
    ) -> Handle<naga::Function> {
        self.stand_in_function(Operation::Write(image), key, access)
    }

    fn stand_in_function(
        &mut self,
        op: Operation,
        key: ImageFunctionKey,
        access: ImageAccess,
    ) -> Handle<naga::Function> {
        let name = format!("stand_in.{op:?}.{key:?}.{access:?}");
        if let Some((h, _)) =
            (self.module.functions.iter()).find(|(_, f)| f.name.as_deref() == Some(name.as_str()))
        {
            return h;
        }
        let image = self.image_handle_type(key, access);
        let uvec4 = self.vec4(naga::Scalar::U32);
        let fvec4 = self.vec4(naga::Scalar::F32);
        let ivec4 = self.vec4(naga::Scalar::I32);
        let texel = self.vec4(key.kind.scalar());
        let mut fb = Emitter::default();
        let mut args = vec![("info0", uvec4), ("info1", uvec4)];
        match op {
            Operation::Sample => {
                args.insert(0, ("image", image));
                args.extend([("sampler", self.u32_type()), ("coord", fvec4)]);
            }
            Operation::Fetch => {
                args.insert(0, ("image", image));
                args.push(("coord", ivec4));
            }
            Operation::Write(_) => args.extend([("coord", ivec4), ("value", texel)]),
        }
        for (name, ty) in args {
            fb.function.arguments.push(naga::FunctionArgument {
                name: Some(name.into()),
                ty,
                binding: None,
            });
        }
        let image_arg = match op {
            Operation::Write(global) => fb.add(naga::Expression::GlobalVariable(global)),
            _ => fb.add(naga::Expression::FunctionArgument(0)),
        };
        let coord_arg = match op {
            Operation::Sample => 4,
            Operation::Fetch => 3,
            Operation::Write(_) => 2,
        };
        let mut coord = fb.add(naga::Expression::FunctionArgument(coord_arg));
        if let Operation::Sample = op {
            // Nearest texel of unnormalized coordinates: floor, no sampler.
            let floor = fb.add(naga::Expression::Math {
                fun: naga::MathFunction::Floor,
                arg: coord,
                arg1: None,
                arg2: None,
                arg3: None,
            });
            coord = fb.add(naga::Expression::As {
                expr: floor,
                kind: naga::ScalarKind::Sint,
                convert: Some(4),
            });
        }
        let lane =
            |fb: &mut Emitter, index| fb.add(naga::Expression::AccessIndex { base: coord, index });
        let (arrayed, spatial) = match key.dim {
            ImageDim::D1 | ImageDim::D1Buffer => (false, 1),
            ImageDim::D1Array => (true, 1),
            ImageDim::D2 => (false, 2),
            ImageDim::D2Array => (true, 2),
            ImageDim::D3 => (false, 3),
        };
        let coordinate = match spatial {
            1 => lane(&mut fb, 0),
            n => {
                let components = (0..n).map(|i| lane(&mut fb, i)).collect();
                let ty = self.add_type(naga::TypeInner::Vector {
                    size: if n == 2 {
                        naga::VectorSize::Bi
                    } else {
                        naga::VectorSize::Tri
                    },
                    scalar: naga::Scalar::I32,
                });
                fb.add(naga::Expression::Compose { ty, components })
            }
        };
        let array_index = arrayed.then(|| lane(&mut fb, spatial));
        let level = (key.descriptor == ImageDescriptor::Sampled)
            .then(|| fb.add(naga::Expression::Literal(naga::Literal::I32(0))));
        match op {
            Operation::Write(_) => {
                let value = fb.add(naga::Expression::FunctionArgument(3));
                fb.push(naga::Statement::ImageStore {
                    image: image_arg,
                    coordinate,
                    array_index,
                    value,
                });
            }
            _ => {
                let value = fb.add(naga::Expression::ImageLoad {
                    image: image_arg,
                    coordinate,
                    array_index,
                    sample: None,
                    level,
                });
                fb.function.result = Some(naga::FunctionResult {
                    ty: texel,
                    binding: None,
                });
                fb.push(naga::Statement::Return { value: Some(value) });
            }
        }
        let mut function = fb.finish();
        function.name = Some(name);
        self.module.functions.append(function, Span::UNDEFINED)
    }

    fn vec4(&mut self, scalar: naga::Scalar) -> Handle<naga::Type> {
        self.add_type(naga::TypeInner::Vector {
            size: naga::VectorSize::Quad,
            scalar,
        })
    }
}

fn naga_dim(dim: ImageDim) -> (naga::ImageDimension, bool) {
    match dim {
        ImageDim::D1 | ImageDim::D1Buffer => (naga::ImageDimension::D1, false),
        ImageDim::D1Array => (naga::ImageDimension::D1, true),
        ImageDim::D2 => (naga::ImageDimension::D2, false),
        ImageDim::D2Array => (naga::ImageDimension::D2, true),
        ImageDim::D3 => (naga::ImageDimension::D3, false),
    }
}
