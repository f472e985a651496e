//! The naga types of image functions: the image itself (what a global of
//! a key is declared as) and the vectors the functions take and return.

use super::{ImageFunctionKey, TexelKind};
use crate::image::{ImageAccess, ImageDescriptor, ImageDim};
use crate::lower::builder::ModuleBuilder;
use crate::lower::emit::Emitter;
use naga::Handle;

impl ModuleBuilder<'_> {
    /// The naga image type a global of this key has. Storage images carry
    /// a format naga can validate (`Rgba32*` by kind), which the translator
    /// patches to `Unknown` in the SPIR-V, and a texel buffer is a `D1`
    /// image that it patches to the `Buffer` dimension.
    pub(in crate::lower) fn image_handle_type(
        &mut self,
        key: ImageFunctionKey,
        access: ImageAccess,
    ) -> Handle<naga::Type> {
        let (dim, arrayed) = match key.dim {
            ImageDim::D1 | ImageDim::D1Buffer => (naga::ImageDimension::D1, false),
            ImageDim::D1Array => (naga::ImageDimension::D1, true),
            ImageDim::D2 => (naga::ImageDimension::D2, false),
            ImageDim::D2Array => (naga::ImageDimension::D2, true),
            ImageDim::D3 => (naga::ImageDimension::D3, false),
        };
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

    pub(super) fn vec4_type(&mut self, scalar: naga::Scalar) -> Handle<naga::Type> {
        self.add_type(naga::TypeInner::Vector {
            size: naga::VectorSize::Quad,
            scalar,
        })
    }

    /// A new function whose first arguments are every image function's:
    /// the image and its two info words.
    pub(super) fn image_function_start(
        &mut self,
        key: ImageFunctionKey,
        access: ImageAccess,
    ) -> Emitter {
        let image = self.image_handle_type(key, access);
        let info = self.vec4_type(naga::Scalar::U32);
        let mut fb = Emitter::default();
        for (name, ty) in [("image", image), ("info0", info), ("info1", info)] {
            push_argument(&mut fb, name, ty);
        }
        fb
    }
}

pub(super) fn push_argument(fb: &mut Emitter, name: &str, ty: Handle<naga::Type>) {
    fb.function.arguments.push(naga::FunctionArgument {
        name: Some(name.into()),
        ty,
        binding: None,
    });
}

/// The arguments every image function starts with.
pub(super) const IMAGE_ARG: u32 = 0;
pub(super) const INFO0_ARG: u32 = 1;
pub(super) const INFO1_ARG: u32 = 2;
