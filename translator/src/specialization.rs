//! What a kernel's SPIR-V is specialised on besides its launch
//! configuration: the formats of the images bound to it and the samplers
//! passed to it. The texel library branches on an image's format words
//! and on the sampler word at every access; made constants of the
//! pipeline, a driver folds those branches away, which it cannot do for
//! words read from the launch block.
//!
//! Each word is a placeholder constant of the kernel's SPIR-V template
//! (see `spirv::Template`) that `Kernel::spirv_specialized` patches, so a
//! new format costs a copy of the words and a new pipeline, never a new
//! translation. The image's size stays in the launch block: a new size
//! does not make a new pipeline.

use crate::image::{info_flags, order_layout, sampler, ImageInfo, CL_FLOAT, CL_RGBA};
use naga::Handle;

/// The values a launch specialises a kernel on.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Specialization {
    /// For each image binding `b` (`KernelReflection::images[b]`), the
    /// bound image's [`ImageInfo`] words 4..8: `channel_data_type`,
    /// `channel_order`, `swizzle` and `flags` ([`format_words`]).
    pub image_formats: Vec<[u32; 4]>,
    /// For each `sampler_t` argument, in argument order, the
    /// [`crate::image::sampler`] word of the sampler it is set to.
    pub samplers: Vec<u32>,
}

/// An image's words a kernel is specialised on: [`ImageInfo`] words 4..8.
pub fn format_words(info: &ImageInfo) -> [u32; 4] {
    [
        info.channel_data_type,
        info.channel_order,
        info.swizzle,
        info.flags,
    ]
}

/// The format words `Kernel::spirv` uses where no launch gives one:
/// `CL_RGBA` / `CL_FLOAT`, a format every image kernel can be built for,
/// so tools and queries that need a module (not a launch) get a valid one.
pub(crate) fn unspecified_format() -> [u32; 4] {
    let layout = order_layout(CL_RGBA).expect("CL_RGBA has a layout");
    [
        CL_FLOAT,
        CL_RGBA,
        layout.swizzle_word(),
        info_flags(&layout, CL_FLOAT),
    ]
}

/// The sampler word `Kernel::spirv` uses where no launch gives one.
pub(crate) const UNSPECIFIED_SAMPLER: u32 =
    sampler::NORMALIZED_COORDS_FALSE | sampler::ADDRESS_CLAMP_TO_EDGE | sampler::FILTER_NEAREST;

/// Where a lowered kernel's specialisation words live before the template
/// is written: each is a `u32` literal of the module's global expressions,
/// the init of a constant the kernel reads (an image's format vector, a
/// sampler argument's value), which `LoweredKernel::finish` turns into a
/// placeholder.
#[derive(Clone, Debug, Default)]
pub struct SpecializationLiterals {
    /// By image binding: the literals of its four format words.
    pub image_formats: Vec<[Handle<naga::Expression>; 4]>,
    /// By sampler argument, in argument order.
    pub samplers: Vec<Handle<naga::Expression>>,
}
