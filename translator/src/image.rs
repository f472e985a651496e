//! The contract between translated kernels and the runtime for images and
//! samplers: how an image argument is bound, the words of its image-info
//! block, how a sampler is encoded as one word, and what each channel order
//! means for the four channels a kernel sees.
//!
//! The design: no Vulkan sampler is ever used. An image is a `VkImage` whose
//! Vulkan format depends only on the channel *data type* and the *number*
//! of channels (1, 2 or 4: `R`, `RG`, `RGBA`, or a packed format), so its
//! memory is laid out exactly as OpenCL lays out that image. Everything the
//! channel order adds (which stored channel is which, the constant 0 and 1
//! channels, the border colour) and everything a sampler does (addressing,
//! filtering, normalized coordinates) the kernel computes from the info
//! words and the sampler word with the spec's formulas, so the results are
//! the spec's on every device rather than a Vulkan sampler's near values.
//!
//! Kernels reach texels only through fetches (`OpImageFetch` on a sampled
//! image, `OpImageRead`/`OpImageWrite` on a storage image or storage texel
//! buffer), whose format conversions Vulkan defines exactly for reads.

/// The descriptor set that holds image arguments; set 0 holds the storage
/// buffers. Binding `b` of this set is [`KernelReflection::images`]`[b]`.
///
/// [`KernelReflection::images`]: crate::reflect::KernelReflection::images
pub const IMAGE_DESCRIPTOR_SET: u32 = 1;

/// What kind of Vulkan descriptor an image argument is bound as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageDescriptor {
    /// `VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE`: a `read_only` image other than
    /// `image1d_buffer_t`, read by `OpImageFetch` at level 0.
    Sampled,
    /// `VK_DESCRIPTOR_TYPE_STORAGE_IMAGE` with an `Unknown` SPIR-V format
    /// (the `*WithoutFormat` features): `write_only` and `read_write`
    /// images.
    Storage,
    /// `VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER` with an `Unknown` format:
    /// `image1d_buffer_t` of any access, viewing the buffer it was made from.
    StorageTexelBuffer,
}

/// The image types of OpenCL C, by dimensionality.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageDim {
    D1,
    D1Buffer,
    D1Array,
    D2,
    D2Array,
    D3,
}

impl ImageDim {
    /// Coordinates a kernel passes: 1 for `image1d_t`, 2 for 2D and 1D
    /// arrays (the layer last), 4 for 3D and 2D arrays (OpenCL's `int4` /
    /// `float4`, of which the first 3 are used).
    pub fn coordinate_count(self) -> u32 {
        match self {
            ImageDim::D1 | ImageDim::D1Buffer => 1,
            ImageDim::D1Array | ImageDim::D2 => 2,
            ImageDim::D2Array | ImageDim::D3 => 4,
        }
    }
}

/// An image argument's access qualifier (`CL_KERNEL_ARG_ACCESS_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageAccess {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

/// The image-info block: [`ImageInfo::WORDS`] `u32`s the runtime writes
/// into the launch block for each image argument, at the argument's
/// `info_offset`. The kernel answers `get_image_*` from it and needs it for
/// the channel order and saturation, which no Vulkan view carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImageInfo {
    /// In texels; 1 for the dimensions an image type does not have.
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    /// Layers of a 1D or 2D image array; 1 otherwise.
    pub array_size: u32,
    /// `CL_UNORM_INT8` ... (the `CLK_*` values are the same numbers).
    pub channel_data_type: u32,
    /// `CL_RGBA` ... (the `CLK_*` values are the same numbers).
    pub channel_order: u32,
    /// Low 16 bits: for each of the four channels a kernel reads (x, y, z,
    /// w), a 4-bit [`Select`] of the texel a fetch returns. High 16 bits:
    /// for each of the four stored components (Vulkan's r, g, b, a), the
    /// 4-bit [`Select`] of the value `write_image*` was given.
    pub swizzle: u32,
    /// [`ImageInfo::HAS_ALPHA`], [`ImageInfo::SRGB`], and in bits 8..16 the
    /// width in bits of an integer channel type (8, 16 or 32) with
    /// [`ImageInfo::SIGNED`] for the signed ones, for the saturation of
    /// `write_imagei`/`write_imageui`.
    pub flags: u32,
}

/// One channel of a swizzle: a component of the source vector, or a
/// constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Select {
    X = 0,
    Y = 1,
    Z = 2,
    W = 3,
    Zero = 4,
    One = 5,
}

impl ImageInfo {
    pub const WORDS: u32 = 8;
    pub const SIZE: u32 = Self::WORDS * 4;
    /// Byte offsets of the words within the block.
    pub const WIDTH: u32 = 0;
    pub const HEIGHT: u32 = 4;
    pub const DEPTH: u32 = 8;
    pub const ARRAY_SIZE: u32 = 12;
    pub const CHANNEL_DATA_TYPE: u32 = 16;
    pub const CHANNEL_ORDER: u32 = 20;
    pub const SWIZZLE: u32 = 24;
    pub const FLAGS: u32 = 28;

    /// `CLK_ADDRESS_CLAMP`'s border colour is (0, 0, 0, 0): orders with
    /// an alpha channel, and the `x` orders (`CL_Rx`, `CL_RGx`, `CL_RGBx`)
    /// whose padding the spec treats alike. Without the flag it is
    /// (0, 0, 0, 1).
    pub const HAS_ALPHA: u32 = 1;
    /// An sRGB order: the view decodes sRGB on reads; writes (through a
    /// UNORM view) must encode linear to sRGB in the kernel.
    pub const SRGB: u32 = 2;
    /// A signed integer channel type.
    pub const SIGNED: u32 = 4;
    pub const INTEGER_BITS_SHIFT: u32 = 8;

    pub fn to_words(&self) -> [u32; Self::WORDS as usize] {
        [
            self.width,
            self.height,
            self.depth,
            self.array_size,
            self.channel_data_type,
            self.channel_order,
            self.swizzle,
            self.flags,
        ]
    }

    pub fn to_bytes(&self) -> [u8; Self::SIZE as usize] {
        let mut out = [0u8; Self::SIZE as usize];
        for (chunk, word) in out.chunks_exact_mut(4).zip(self.to_words()) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        out
    }
}

/// How a channel order maps onto the stored components of its Vulkan
/// format: the facts [`ImageInfo::swizzle`] and [`ImageInfo::HAS_ALPHA`]
/// encode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderLayout {
    /// Stored components: 1, 2, 3 (packed RGB formats only) or 4.
    pub components: u32,
    /// For each channel a kernel reads, which stored component or constant.
    pub read: [Select; 4],
    /// For each stored component, which channel of the written value.
    pub write: [Select; 4],
    /// See [`ImageInfo::HAS_ALPHA`].
    pub has_alpha: bool,
    pub srgb: bool,
}

impl OrderLayout {
    pub fn swizzle_word(&self) -> u32 {
        let pack = |s: &[Select; 4]| {
            s.iter()
                .enumerate()
                .fold(0u32, |acc, (i, sel)| acc | ((*sel as u32) << (4 * i)))
        };
        pack(&self.read) | (pack(&self.write) << 16)
    }
}

// The cl_channel_order values (OpenCL 3.0 API, Table 16).
pub const CL_R: u32 = 0x10B0;
pub const CL_A: u32 = 0x10B1;
pub const CL_RG: u32 = 0x10B2;
pub const CL_RA: u32 = 0x10B3;
pub const CL_RGB: u32 = 0x10B4;
pub const CL_RGBA: u32 = 0x10B5;
pub const CL_BGRA: u32 = 0x10B6;
pub const CL_ARGB: u32 = 0x10B7;
pub const CL_INTENSITY: u32 = 0x10B8;
pub const CL_LUMINANCE: u32 = 0x10B9;
pub const CL_RX: u32 = 0x10BA;
pub const CL_RGX: u32 = 0x10BB;
pub const CL_RGBX: u32 = 0x10BC;
pub const CL_DEPTH: u32 = 0x10BD;
pub const CL_SRGB: u32 = 0x10BF;
pub const CL_SRGBX: u32 = 0x10C0;
pub const CL_SRGBA: u32 = 0x10C1;
pub const CL_SBGRA: u32 = 0x10C2;
pub const CL_ABGR: u32 = 0x10C3;

/// The layout of `order` on a Vulkan format of the same memory layout
/// (`R`, `RG` or `RGBA` components in memory order; packed RGB formats have
/// 3). `None`: an order clvulkan does not support.
pub fn order_layout(order: u32) -> Option<OrderLayout> {
    use Select::{One, Zero, W, X, Y, Z};
    type Row = (u32, u32, [Select; 4], [Select; 4], bool, bool);
    // (order, components, read, write, has_alpha, srgb)
    #[rustfmt::skip]
    const TABLE: &[Row] = &[
        (CL_R,         1, [X, Zero, Zero, One], [X, Zero, Zero, Zero], false, false),
        (CL_RX,        1, [X, Zero, Zero, One], [X, Zero, Zero, Zero], true, false),
        (CL_A,         1, [Zero, Zero, Zero, X], [W, Zero, Zero, Zero], true, false),
        (CL_INTENSITY, 1, [X, X, X, X],          [X, Zero, Zero, Zero], true, false),
        (CL_LUMINANCE, 1, [X, X, X, One],        [X, Zero, Zero, Zero], false, false),
        (CL_DEPTH,     1, [X, Zero, Zero, One],  [X, Zero, Zero, Zero], false, false),
        (CL_RG,        2, [X, Y, Zero, One],     [X, Y, Zero, Zero], false, false),
        (CL_RGX,       2, [X, Y, Zero, One],     [X, Y, Zero, Zero], true, false),
        (CL_RA,        2, [X, Zero, Zero, Y],    [X, W, Zero, Zero], true, false),
        (CL_RGB,       3, [X, Y, Z, One],        [X, Y, Z, Zero], false, false),
        (CL_RGBX,      3, [X, Y, Z, One],        [X, Y, Z, Zero], true, false),
        (CL_RGBA,      4, [X, Y, Z, W],          [X, Y, Z, W], true, false),
        (CL_BGRA,      4, [Z, Y, X, W],          [Z, Y, X, W], true, false),
        (CL_ARGB,      4, [Y, Z, W, X],          [W, X, Y, Z], true, false),
        (CL_ABGR,      4, [W, Z, Y, X],          [W, Z, Y, X], true, false),
        (CL_SRGBA,     4, [X, Y, Z, W],          [X, Y, Z, W], true, true),
        (CL_SBGRA,     4, [Z, Y, X, W],          [Z, Y, X, W], true, true),
    ];
    TABLE
        .iter()
        .find(|row| row.0 == order)
        .map(
            |&(_, components, read, write, has_alpha, srgb)| OrderLayout {
                components,
                read,
                write,
                has_alpha,
                srgb,
            },
        )
}

// The cl_channel_type values (OpenCL 3.0 API, Table 17).
pub const CL_SNORM_INT8: u32 = 0x10D0;
pub const CL_SNORM_INT16: u32 = 0x10D1;
pub const CL_UNORM_INT8: u32 = 0x10D2;
pub const CL_UNORM_INT16: u32 = 0x10D3;
pub const CL_UNORM_SHORT_565: u32 = 0x10D4;
pub const CL_UNORM_SHORT_555: u32 = 0x10D5;
pub const CL_UNORM_INT_101010: u32 = 0x10D6;
pub const CL_SIGNED_INT8: u32 = 0x10D7;
pub const CL_SIGNED_INT16: u32 = 0x10D8;
pub const CL_SIGNED_INT32: u32 = 0x10D9;
pub const CL_UNSIGNED_INT8: u32 = 0x10DA;
pub const CL_UNSIGNED_INT16: u32 = 0x10DB;
pub const CL_UNSIGNED_INT32: u32 = 0x10DC;
pub const CL_HALF_FLOAT: u32 = 0x10DD;
pub const CL_FLOAT: u32 = 0x10DE;
pub const CL_UNORM_INT_101010_2: u32 = 0x10E0;

/// The [`ImageInfo::flags`] for an image of `order` and `data_type`.
pub fn info_flags(layout: &OrderLayout, data_type: u32) -> u32 {
    let (bits, signed) = match data_type {
        CL_SIGNED_INT8 => (8, true),
        CL_SIGNED_INT16 => (16, true),
        CL_SIGNED_INT32 => (32, true),
        CL_UNSIGNED_INT8 => (8, false),
        CL_UNSIGNED_INT16 => (16, false),
        CL_UNSIGNED_INT32 => (32, false),
        _ => (0, false),
    };
    let mut flags = bits << ImageInfo::INTEGER_BITS_SHIFT;
    if signed {
        flags |= ImageInfo::SIGNED;
    }
    if layout.has_alpha {
        flags |= ImageInfo::HAS_ALPHA;
    }
    if layout.srgb {
        flags |= ImageInfo::SRGB;
    }
    flags
}

/// A sampler as one `u32`, the same bits for a `cl_sampler` argument (the
/// runtime writes the word into the launch block) and for a literal
/// `sampler_t` (whose `CLK_*` macros have these values, as in clang's
/// `opencl-c-base.h`): bit 0 normalized coordinates, bits 1..4 the
/// addressing mode, bits 4..6 the filter.
pub mod sampler {
    pub const NORMALIZED_COORDS_FALSE: u32 = 0;
    pub const NORMALIZED_COORDS_TRUE: u32 = 1;
    pub const ADDRESS_NONE: u32 = 0;
    pub const ADDRESS_CLAMP_TO_EDGE: u32 = 2;
    pub const ADDRESS_CLAMP: u32 = 4;
    pub const ADDRESS_REPEAT: u32 = 6;
    pub const ADDRESS_MIRRORED_REPEAT: u32 = 8;
    pub const ADDRESS_MASK: u32 = 0xE;
    pub const FILTER_NEAREST: u32 = 0x10;
    pub const FILTER_LINEAR: u32 = 0x20;
    pub const FILTER_MASK: u32 = 0x30;

    /// The word for a `cl_sampler` made with these `CL_*` properties;
    /// `None` for a value the API does not define.
    pub fn from_api(normalized: bool, addressing_mode: u32, filter_mode: u32) -> Option<u32> {
        let addressing = match addressing_mode {
            0x1130 => ADDRESS_NONE,            // CL_ADDRESS_NONE
            0x1131 => ADDRESS_CLAMP_TO_EDGE,   // CL_ADDRESS_CLAMP_TO_EDGE
            0x1132 => ADDRESS_CLAMP,           // CL_ADDRESS_CLAMP
            0x1133 => ADDRESS_REPEAT,          // CL_ADDRESS_REPEAT
            0x1134 => ADDRESS_MIRRORED_REPEAT, // CL_ADDRESS_MIRRORED_REPEAT
            _ => return None,
        };
        let filter = match filter_mode {
            0x1140 => FILTER_NEAREST, // CL_FILTER_NEAREST
            0x1141 => FILTER_LINEAR,  // CL_FILTER_LINEAR
            _ => return None,
        };
        Some(u32::from(normalized) | addressing | filter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_order_reads_each_stored_component_it_writes() {
        for order in CL_R..=CL_ABGR {
            let Some(layout) = order_layout(order) else {
                continue;
            };
            for (stored, sel) in layout.write.iter().enumerate() {
                if (stored as u32) < layout.components.min(4) && *sel as u32 <= 3 {
                    // The channel written to `stored` reads back from it.
                    let channel = *sel as usize;
                    assert_eq!(
                        layout.read[channel] as usize, stored,
                        "order {order:#x} stored component {stored}"
                    );
                }
            }
        }
    }

    #[test]
    fn sampler_words_match_the_literal_macros() {
        assert_eq!(sampler::from_api(true, 0x1132, 0x1141), Some(1 | 4 | 0x20));
        assert_eq!(sampler::from_api(false, 0x1130, 0x1140), Some(0x10));
        assert_eq!(sampler::from_api(false, 0x1135, 0x1140), None);
    }
}
