//! Image and sampler arguments of a kernel: each image argument is one
//! binding of descriptor set [`IMAGE_DESCRIPTOR_SET`], declared as one
//! naga global per texel kind the kernel accesses it as (all at that
//! binding), an [`ImageInfo`] block in the launch block, and a constant
//! holding the block's format words 4..8 (a placeholder the launch
//! specialises, see [`crate::specialization`]), which the kernel reads
//! rather than the block's.

use crate::image::{ImageDescriptor, ImageDim, ImageInfo, IMAGE_DESCRIPTOR_SET};
use crate::lower::builder::ModuleBuilder;
use crate::lower::image_calls::{ImageFunctionKey, TexelKind};
use crate::types::ImageType;
use naga::{Handle, Span};

/// The image arguments of the kernel being lowered, in order.
#[derive(Default)]
pub(in crate::lower) struct KernelImages {
    args: Vec<ImageArg>,
}

/// One image argument.
struct ImageArg {
    image: ImageType,
    descriptor: ImageDescriptor,
    /// The launch block's members holding its info words 0..4 and 4..8.
    info_members: [u32; 2],
    /// The `vec4<u32>` constant of its info words 4..8, and the literals
    /// of its components.
    format: Handle<naga::Constant>,
    format_literals: [Handle<naga::Expression>; 4],
    /// Its globals, one per texel kind it is accessed as.
    globals: Vec<(TexelKind, Handle<naga::GlobalVariable>)>,
}

impl KernelImages {
    /// The descriptors of the image bindings, binding `b` at `b`.
    pub(super) fn descriptors(&self) -> Vec<ImageDescriptor> {
        self.args.iter().map(|a| a.descriptor).collect()
    }

    /// The type of image argument `arg`.
    pub(in crate::lower) fn image(&self, arg: usize) -> ImageType {
        self.args[arg].image
    }

    /// The function key of image argument `arg` accessed as `kind`.
    pub(in crate::lower) fn key(&self, arg: usize, kind: TexelKind) -> ImageFunctionKey {
        let a = &self.args[arg];
        ImageFunctionKey {
            dim: a.image.dim,
            depth: a.image.depth,
            descriptor: a.descriptor,
            kind,
        }
    }

    /// The global of image argument `arg` for `kind`, which the analysis
    /// saw it accessed as.
    pub(in crate::lower) fn global(
        &self,
        arg: usize,
        kind: TexelKind,
    ) -> Option<Handle<naga::GlobalVariable>> {
        let globals = &self.args[arg].globals;
        globals.iter().find(|(k, _)| *k == kind).map(|&(_, g)| g)
    }

    /// The launch block's member of image argument `arg`'s info words
    /// 0..4 (its size).
    pub(in crate::lower) fn size_member(&self, arg: usize) -> u32 {
        self.args[arg].info_members[0]
    }

    /// The constant of image argument `arg`'s info words 4..8 (its format).
    pub(in crate::lower) fn format_constant(&self, arg: usize) -> Handle<naga::Constant> {
        self.args[arg].format
    }

    /// The format literals of each image binding, in binding order.
    pub(in crate::lower) fn format_literals(&self) -> Vec<[Handle<naga::Expression>; 4]> {
        self.args.iter().map(|a| a.format_literals).collect()
    }
}

/// How an image argument of `image` is bound.
pub(in crate::lower) fn descriptor_of(image: ImageType) -> ImageDescriptor {
    match (image.dim, image.access) {
        (ImageDim::D1Buffer, _) => ImageDescriptor::StorageTexelBuffer,
        (_, crate::image::ImageAccess::ReadOnly) => ImageDescriptor::Sampled,
        _ => ImageDescriptor::Storage,
    }
}

impl ModuleBuilder<'_> {
    /// Declares an image argument named `name` of `image` accessed as
    /// `kinds`, whose info block is members `info_members` of the launch
    /// block; returns its index and binding.
    pub(super) fn declare_image_arg(
        &mut self,
        name: &str,
        image: ImageType,
        kinds: &[TexelKind],
        info_members: [u32; 2],
    ) -> (usize, u32) {
        let binding = self.interface.images.args.len() as u32;
        let descriptor = descriptor_of(image);
        let mut globals = Vec::new();
        for &kind in kinds {
            let key = ImageFunctionKey {
                dim: image.dim,
                depth: image.depth,
                descriptor,
                kind,
            };
            let ty = self.image_handle_type(key, image.access);
            let global = self.module.global_variables.append(
                naga::GlobalVariable {
                    name: Some(format!("{name}_{kind:?}").to_lowercase()),
                    space: naga::AddressSpace::Handle,
                    binding: Some(naga::ResourceBinding {
                        group: IMAGE_DESCRIPTOR_SET,
                        binding,
                    }),
                    ty,
                    init: None,
                    memory_decorations: naga::MemoryDecorations::empty(),
                },
                Span::UNDEFINED,
            );
            globals.push((kind, global));
        }
        // Zeros until `LoweredKernel::finish` makes them placeholders.
        let format_literals = [0; 4].map(|_| {
            self.module.global_expressions.append(
                naga::Expression::Literal(naga::Literal::U32(0)),
                Span::UNDEFINED,
            )
        });
        let uvec4 = self.add_type(naga::TypeInner::Vector {
            size: naga::VectorSize::Quad,
            scalar: naga::Scalar::U32,
        });
        let init = self.module.global_expressions.append(
            naga::Expression::Compose {
                ty: uvec4,
                components: format_literals.to_vec(),
            },
            Span::UNDEFINED,
        );
        let format = self.module.constants.append(
            naga::Constant {
                name: Some(format!("{name}_format")),
                ty: uvec4,
                init,
            },
            Span::UNDEFINED,
        );
        self.interface.images.args.push(ImageArg {
            image,
            descriptor,
            info_members,
            format,
            format_literals,
            globals,
        });
        (binding as usize, binding)
    }
}

/// The launch block's bytes for an image's info block: whole 16-byte
/// vectors, so that it lays out alike under every block layout.
pub(super) const INFO_ALIGN: u32 = 16;
const _: () = assert!(ImageInfo::SIZE == 2 * INFO_ALIGN);
