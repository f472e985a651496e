//! OpenCL images at the texel level, as naga functions made once per
//! module: `read_image*` with a sampler (addressing, filtering, border
//! colour), samplerless reads and `write_image*`, each applying the
//! channel order's swizzle and the channel type's conversions that no
//! Vulkan view does. Everything they need to know about the image comes
//! from its two info words (see [`crate::image::ImageInfo`]) and the
//! sampler word, so one function serves every image of a key.
//!
//! Texels are only ever fetched (`OpImageFetch`/`OpImageRead` at clamped,
//! in-range coordinates) and stored (skipped when out of range); the
//! spec's formulas for the rest are in `address.rs` and `filter.rs`.

// The translator's image built-ins call this API (issue 21); until they
// land, only the tests here do.

mod address;
mod filter;
mod swizzle;
mod texel;
mod types;
mod values;
mod write;

#[cfg(test)]
mod tests;

use crate::image::{ImageAccess, ImageDescriptor, ImageDim};
use crate::lower::builder::ModuleBuilder;
use naga::{Handle, Span};

/// The element type of the values an image function reads or writes:
/// `read_imagef`/`write_imagef`, `*_imagei`, `*_imageui`.
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

/// What an image function is specialised on: everything about an image
/// argument that its naga type or the function's code depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(in crate::lower) struct ImageFunctionKey {
    pub dim: ImageDim,
    /// An `image2d_depth_t`/`image2d_array_depth_t` (`CL_DEPTH`): reads
    /// return a float whose `.x` the caller takes.
    pub depth: bool,
    pub descriptor: ImageDescriptor,
    pub kind: TexelKind,
}

impl ImageFunctionKey {
    /// Spatial coordinates: 1, 2 or 3.
    fn spatial(&self) -> u32 {
        match self.dim {
            ImageDim::D1 | ImageDim::D1Buffer | ImageDim::D1Array => 1,
            ImageDim::D2 | ImageDim::D2Array => 2,
            ImageDim::D3 => 3,
        }
    }

    /// The coordinate holding the layer of an image array: the one after
    /// the spatial ones, as OpenCL C passes it.
    fn layer(&self) -> Option<u32> {
        matches!(self.dim, ImageDim::D1Array | ImageDim::D2Array).then(|| self.spatial())
    }

    /// The coordinates that address a texel: spatial and layer.
    fn used(&self) -> u32 {
        self.spatial() + u32::from(self.layer().is_some())
    }
}

/// Which image function.
#[derive(Clone, Copy, Debug)]
enum Operation {
    Sample,
    Fetch,
    Write,
    /// The texel at in-range-clamped coordinates, swizzled, or the border
    /// colour (`texel.rs`).
    Texel,
}

/// The function's name, which is also how it is found again: the dots
/// keep it apart from every C identifier a program can define.
fn function_name(op: Operation, key: ImageFunctionKey, access: ImageAccess) -> String {
    format!(
        "image.{op:?}.{:?}{}.{:?}.{:?}.{access:?}",
        key.dim,
        if key.depth { ".depth" } else { "" },
        key.descriptor,
        key.kind
    )
    .to_lowercase()
}

impl ModuleBuilder<'_> {
    /// `fn(image, info0: vec4<u32>, info1: vec4<u32>, sampler: u32, coord:
    /// vec4<f32>) -> vec4<f32|i32|u32>`: `read_image*` with a sampler.
    pub(in crate::lower) fn image_sample_function(
        &mut self,
        key: ImageFunctionKey,
        access: ImageAccess,
    ) -> Handle<naga::Function> {
        self.image_function(Operation::Sample, key, access, |this| {
            this.build_image_sample(key, access)
        })
    }

    /// `fn(image, info0, info1, coord: vec4<i32>) -> vec4<...>`: a
    /// samplerless `read_image*`.
    pub(in crate::lower) fn image_fetch_function(
        &mut self,
        key: ImageFunctionKey,
        access: ImageAccess,
    ) -> Handle<naga::Function> {
        self.image_function(Operation::Fetch, key, access, |this| {
            this.build_image_fetch(key, access)
        })
    }

    /// `fn(info0, info1, coord: vec4<i32>, value: vec4<...>)`:
    /// `write_image*` to the image global `image`. naga accepts image
    /// function arguments for loads but stores only to a global
    /// (`InvalidImageStore(ExpectedGlobalVariable)`), so writes are made
    /// per global rather than taking the image as an argument.
    pub(in crate::lower) fn image_write_function(
        &mut self,
        image: Handle<naga::GlobalVariable>,
        key: ImageFunctionKey,
        access: ImageAccess,
    ) -> Handle<naga::Function> {
        let name = format!(
            "{}.global{}",
            function_name(Operation::Write, key, access),
            image.index()
        );
        self.image_function_named(name, |this| this.build_image_write(image, key))
    }

    fn image_texel_function(
        &mut self,
        key: ImageFunctionKey,
        access: ImageAccess,
    ) -> Handle<naga::Function> {
        self.image_function(Operation::Texel, key, access, |this| {
            this.build_image_texel(key, access)
        })
    }

    /// The module's function for `(op, key, access)`, made by `build` the
    /// first time.
    fn image_function(
        &mut self,
        op: Operation,
        key: ImageFunctionKey,
        access: ImageAccess,
        build: impl FnOnce(&mut Self) -> naga::Function,
    ) -> Handle<naga::Function> {
        self.image_function_named(function_name(op, key, access), build)
    }

    fn image_function_named(
        &mut self,
        name: String,
        build: impl FnOnce(&mut Self) -> naga::Function,
    ) -> Handle<naga::Function> {
        if let Some((handle, _)) = self
            .module
            .functions
            .iter()
            .find(|(_, f)| f.name.as_deref() == Some(name.as_str()))
        {
            return handle;
        }
        let mut function = build(self);
        function.name = Some(name);
        self.module.functions.append(function, Span::UNDEFINED)
    }
}
