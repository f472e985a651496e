//! A host model of OpenCL images, written from the OpenCL 3.0 API spec
//! ("Image Formats", "Image addressing and filtering") and the OpenCL C
//! 3.0 spec ("Image Read and Write Functions" and the conversion rules),
//! for the expected values of end-to-end image tests: how each channel
//! order and data type stores a texel, what `read_image*` returns for it,
//! what `write_image*` stores, and what a sampler reads at a coordinate.
//!
//! It stands apart from the translator's contract (`translator::image`):
//! the orders and types are restated here from the spec's tables, so a
//! wrong row there shows up as a mismatch rather than agreeing with
//! itself. Images are tightly packed: element `(x, y, z)` of a 3D image,
//! or `(x, y)` of layer `z` of a 2D array, is at `((z * height + y) *
//! width + x) * element_size`; a 1D array's layer is its `y`.
//!
//! Where the spec leaves a result undefined, the model gives what
//! clvulkan's kernels give (said at each place), so tests may cover
//! those inputs without asserting on noise.

#![allow(dead_code)]

use super::fp16::{half_to_f32, to_half_rte};

// cl_channel_order (OpenCL 3.0 API, "List of supported Image Channel
// Order Values").
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
pub const CL_SRGBA: u32 = 0x10C1;
pub const CL_SBGRA: u32 = 0x10C2;
pub const CL_ABGR: u32 = 0x10C3;

// cl_channel_type ("List of supported Image Channel Data Types").
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

/// What a kernel reads or writes: `read_imagef`, `read_imagei`,
/// `read_imageui` values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Texel {
    Float([f32; 4]),
    Int([i32; 4]),
    Uint([u32; 4]),
}

impl Texel {
    pub fn float(self) -> [f32; 4] {
        match self {
            Texel::Float(v) => v,
            other => panic!("not a float texel: {other:?}"),
        }
    }
    pub fn int(self) -> [i32; 4] {
        match self {
            Texel::Int(v) => v,
            other => panic!("not an int texel: {other:?}"),
        }
    }
    pub fn uint(self) -> [u32; 4] {
        match self {
            Texel::Uint(v) => v,
            other => panic!("not a uint texel: {other:?}"),
        }
    }
}

/// The built-in family a data type is read and written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Float,
    Int,
    Uint,
}

/// A stored channel: what it is to the colour a kernel sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Channel {
    R,
    G,
    B,
    A,
    Luminance,
    Intensity,
    Depth,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    pub order: u32,
    pub data_type: u32,
}

impl Format {
    pub const fn new(order: u32, data_type: u32) -> Self {
        Format { order, data_type }
    }

    /// The stored channels in memory order (for packed types, from the
    /// most significant field down).
    fn channels(&self) -> &'static [Channel] {
        use Channel::*;
        match self.order {
            CL_R | CL_RX => &[R],
            CL_A => &[A],
            CL_INTENSITY => &[Intensity],
            CL_LUMINANCE => &[Luminance],
            CL_DEPTH => &[Depth],
            CL_RG | CL_RGX => &[R, G],
            CL_RA => &[R, A],
            CL_RGB | CL_RGBX => &[R, G, B],
            CL_RGBA | CL_SRGBA => &[R, G, B, A],
            CL_BGRA | CL_SBGRA => &[B, G, R, A],
            CL_ARGB => &[A, R, G, B],
            CL_ABGR => &[A, B, G, R],
            other => panic!("channel order {other:#x} is not modelled"),
        }
    }

    pub fn is_srgb(&self) -> bool {
        matches!(self.order, CL_SRGBA | CL_SBGRA)
    }

    /// Whether `CLK_ADDRESS_CLAMP`'s border colour is (0, 0, 0, 0): the
    /// spec lists CL_A, CL_INTENSITY, CL_Rx, CL_RA, CL_RGx, CL_RGBx,
    /// CL_sRGBx, CL_ARGB, CL_BGRA, CL_ABGR, CL_RGBA, CL_sRGBA and CL_sBGRA;
    /// CL_R, CL_RG, CL_RGB and CL_LUMINANCE have (0, 0, 0, 1), and a depth
    /// image's border is 0.
    pub fn transparent_border(&self) -> bool {
        matches!(
            self.order,
            CL_A | CL_INTENSITY
                | CL_RX
                | CL_RA
                | CL_RGX
                | CL_RGBX
                | CL_ARGB
                | CL_BGRA
                | CL_ABGR
                | CL_RGBA
                | CL_SRGBA
                | CL_SBGRA
        )
    }

    pub fn kind(&self) -> Kind {
        match self.data_type {
            CL_SIGNED_INT8 | CL_SIGNED_INT16 | CL_SIGNED_INT32 => Kind::Int,
            CL_UNSIGNED_INT8 | CL_UNSIGNED_INT16 | CL_UNSIGNED_INT32 => Kind::Uint,
            _ => Kind::Float,
        }
    }

    /// For the packed types, each field's width in bits and the lowest
    /// bit of each, in the order of [`Format::channels`], and the
    /// element's size. The spec: 565 has R in bits 15:11, G 10:5, B 4:0;
    /// 555 leaves bit 15 undefined, R 14:10, G 9:5, B 4:0; 101010 leaves
    /// bits 31:30 undefined, R 29:20, G 19:10, B 9:0; 101010_2 has R in
    /// 31:22, G 21:12, B 11:2 and A 1:0.
    fn packed(&self) -> Option<(&'static [(u32, u32)], usize)> {
        match self.data_type {
            CL_UNORM_SHORT_565 => Some((&[(5, 11), (6, 5), (5, 0)], 2)),
            CL_UNORM_SHORT_555 => Some((&[(5, 10), (5, 5), (5, 0)], 2)),
            CL_UNORM_INT_101010 => Some((&[(10, 20), (10, 10), (10, 0)], 4)),
            CL_UNORM_INT_101010_2 => Some((&[(10, 22), (10, 12), (10, 2), (2, 0)], 4)),
            _ => None,
        }
    }

    /// Bytes per channel of the unpacked types.
    fn channel_size(&self) -> usize {
        match self.data_type {
            CL_SNORM_INT8 | CL_UNORM_INT8 | CL_SIGNED_INT8 | CL_UNSIGNED_INT8 => 1,
            CL_SNORM_INT16 | CL_UNORM_INT16 | CL_SIGNED_INT16 | CL_UNSIGNED_INT16
            | CL_HALF_FLOAT => 2,
            CL_SIGNED_INT32 | CL_UNSIGNED_INT32 | CL_FLOAT => 4,
            other => panic!("channel data type {other:#x} is not modelled"),
        }
    }

    pub fn element_size(&self) -> usize {
        match self.packed() {
            Some((_, size)) => size,
            None => self.channel_size() * self.channels().len(),
        }
    }

    /// The stored integer of each channel, in memory order.
    fn raw_channels(&self, bytes: &[u8]) -> Vec<u32> {
        let bytes = &bytes[..self.element_size()];
        if let Some((fields, size)) = self.packed() {
            let mut word = [0u8; 4];
            word[..size].copy_from_slice(bytes);
            let word = u32::from_le_bytes(word);
            return fields
                .iter()
                .map(|&(bits, low)| (word >> low) & ((1 << bits) - 1))
                .collect();
        }
        let size = self.channel_size();
        bytes
            .chunks_exact(size)
            .map(|c| {
                let mut word = [0u8; 4];
                word[..size].copy_from_slice(c);
                u32::from_le_bytes(word)
            })
            .collect()
    }

    fn store_raw_channels(&self, raw: &[u32], bytes: &mut [u8]) {
        let bytes = &mut bytes[..self.element_size()];
        if let Some((fields, size)) = self.packed() {
            let word = fields
                .iter()
                .zip(raw)
                .fold(0u32, |w, (&(_, low), &r)| w | (r << low));
            bytes.copy_from_slice(&word.to_le_bytes()[..size]);
            return;
        }
        let size = self.channel_size();
        for (chunk, r) in bytes.chunks_exact_mut(size).zip(raw) {
            chunk.copy_from_slice(&r.to_le_bytes()[..size]);
        }
    }

    /// The largest stored value of each field of a normalized type, in
    /// memory order.
    fn normalized_maxima(&self) -> Option<Vec<f32>> {
        if let Some((fields, _)) = self.packed() {
            return Some(
                fields
                    .iter()
                    .map(|&(b, _)| ((1u32 << b) - 1) as f32)
                    .collect(),
            );
        }
        let max = match self.data_type {
            CL_UNORM_INT8 => 255.0,
            CL_UNORM_INT16 => 65535.0,
            CL_SNORM_INT8 => 127.0,
            CL_SNORM_INT16 => 32767.0,
            _ => return None,
        };
        Some(vec![max; self.channels().len()])
    }

    fn is_snorm(&self) -> bool {
        matches!(self.data_type, CL_SNORM_INT8 | CL_SNORM_INT16)
    }

    /// Each stored channel's value as a float: normalized ones divided by
    /// their maximum (snorm: `max(-1.0, c / 127.0f)` and the like), half
    /// and float as they are. No sRGB decoding.
    fn channel_floats(&self, raw: &[u32]) -> Vec<f32> {
        match self.normalized_maxima() {
            Some(maxima) if self.is_snorm() => raw
                .iter()
                .zip(maxima)
                .map(|(&r, m)| {
                    let c = sign_extend(r, if m == 127.0 { 8 } else { 16 });
                    (c as f32 / m).max(-1.0)
                })
                .collect(),
            Some(maxima) => raw.iter().zip(maxima).map(|(&r, m)| r as f32 / m).collect(),
            None if self.data_type == CL_HALF_FLOAT => {
                raw.iter().map(|&r| half_to_f32(r as u16)).collect()
            }
            None => raw.iter().map(|&r| f32::from_bits(r)).collect(),
        }
    }

    /// `read_image*` of the element in `bytes` (the spec's "Conversion
    /// rules" and the order's mapping to (r, g, b, a)), no sampler.
    pub fn decode(&self, bytes: &[u8]) -> Texel {
        let raw = self.raw_channels(bytes);
        let channels = self.channels();
        match self.kind() {
            Kind::Float => {
                let values: Vec<f32> = channels
                    .iter()
                    .zip(self.channel_floats(&raw))
                    .map(|(c, v)| match c {
                        Channel::R | Channel::G | Channel::B if self.is_srgb() => srgb_to_linear(v),
                        _ => v,
                    })
                    .collect();
                Texel::Float(seen(channels, &values, 0.0, 1.0))
            }
            Kind::Int => {
                let bits = 8 * self.channel_size() as u32;
                let values: Vec<i32> = raw.iter().map(|&r| sign_extend(r, bits)).collect();
                Texel::Int(seen(channels, &values, 0, 1))
            }
            Kind::Uint => Texel::Uint(seen(channels, &raw, 0, 1)),
        }
    }

    /// What a Vulkan view of this memory layout reads: the stored channels
    /// in memory order, converted as Vulkan converts them (the first three
    /// sRGB-decoded for the sRGB orders), the missing ones 0, 0, 0, 1. It
    /// is what a kernel fetches before it applies the order's swizzle, for
    /// tests of that swizzle; it is not an OpenCL result.
    pub fn vulkan_view(&self, bytes: &[u8]) -> Texel {
        self.view(bytes, self.is_srgb())
    }

    /// [`Format::vulkan_view`] through a storage view, which for the sRGB
    /// orders is `*_UNORM`: nothing is sRGB-decoded.
    pub fn vulkan_storage_view(&self, bytes: &[u8]) -> Texel {
        self.view(bytes, false)
    }

    fn view(&self, bytes: &[u8], srgb_decode: bool) -> Texel {
        let raw = self.raw_channels(bytes);
        fn filled<T: Copy>(values: &[T], zero: T, one: T) -> [T; 4] {
            let mut out = [zero, zero, zero, one];
            out[..values.len()].copy_from_slice(values);
            out
        }
        match self.kind() {
            Kind::Float => {
                let mut values = self.channel_floats(&raw);
                if srgb_decode {
                    for v in values.iter_mut().take(3) {
                        *v = srgb_to_linear(*v);
                    }
                }
                Texel::Float(filled(&values, 0.0, 1.0))
            }
            Kind::Int => {
                let bits = 8 * self.channel_size() as u32;
                let values: Vec<i32> = raw.iter().map(|&r| sign_extend(r, bits)).collect();
                Texel::Int(filled(&values, 0, 1))
            }
            Kind::Uint => Texel::Uint(filled(&raw, 0, 1)),
        }
    }

    /// The bytes a Vulkan store of `components` (the stored channels in
    /// memory order) writes through a view of this layout without sRGB
    /// encoding: normalized values clamped and rounded to nearest even,
    /// `half` rounded to nearest even, integers truncated to the
    /// channel's bits. For tests of what kernels hand to the store.
    pub fn vulkan_store(&self, components: Texel) -> Vec<u8> {
        let count = self.channels().len();
        let raw: Vec<u32> = match components {
            Texel::Float(v) => match self.normalized_maxima() {
                Some(maxima) => v
                    .iter()
                    .zip(maxima)
                    .map(|(&x, m)| {
                        let low = if self.is_snorm() { -1.0 } else { 0.0 };
                        (x.clamp(low, 1.0) * m).round_ties_even() as i32 as u32
                    })
                    .collect(),
                None if self.data_type == CL_HALF_FLOAT => v[..count]
                    .iter()
                    .map(|&x| u32::from(to_half_rte(f64::from(x))))
                    .collect(),
                None => v[..count].iter().map(|x| x.to_bits()).collect(),
            },
            Texel::Int(v) => v[..count].iter().map(|&x| x as u32).collect(),
            Texel::Uint(v) => v[..count].to_vec(),
        };
        let mut bytes = vec![0u8; self.element_size()];
        self.store_raw_channels(&raw, &mut bytes);
        bytes
    }

    /// The bytes `write_image*` stores for `value`; `value`'s kind must be
    /// the format's (the spec leaves mixing them undefined).
    pub fn encode(&self, value: Texel) -> Vec<u8> {
        let channels = self.channels();
        let raw: Vec<u32> = match value {
            Texel::Float(v) => {
                let picked: Vec<f32> = channels
                    .iter()
                    .map(|c| {
                        let x = stored_value(*c, &v);
                        match c {
                            Channel::R | Channel::G | Channel::B if self.is_srgb() => {
                                linear_to_srgb(x)
                            }
                            _ => x,
                        }
                    })
                    .collect();
                match self.normalized_maxima() {
                    Some(maxima) => picked
                        .iter()
                        .zip(maxima)
                        .map(|(&x, m)| {
                            // convert_uchar_sat_rte(f * 255.0f) and the
                            // like, NaN giving 0. For the snorm types the
                            // spec's convert_char_sat_rte(f * 127.0f)
                            // would reach -128 below -1.0039; the
                            // conformance tests and Vulkan's SNORM
                            // conversion clamp f to -1.0 first (-127),
                            // and so does clvulkan.
                            let low = if self.is_snorm() { -1.0 } else { 0.0 };
                            let x = if x.is_nan() { 0.0 } else { x.clamp(low, 1.0) };
                            // Negative snorm values keep their low bytes.
                            (x * m).round_ties_even() as i32 as u32
                        })
                        .collect(),
                    None if self.data_type == CL_HALF_FLOAT => picked
                        .iter()
                        .map(|&x| u32::from(to_half_rte(f64::from(x))))
                        .collect(),
                    None if self.data_type == CL_FLOAT => {
                        picked.iter().map(|x| x.to_bits()).collect()
                    }
                    None => panic!("write_imagef to an integer image is undefined"),
                }
            }
            Texel::Int(v) => {
                assert_eq!(self.kind(), Kind::Int, "write_imagei to a non-int image");
                let bits = 8 * self.channel_size() as u32;
                let (low, high) = (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1);
                channels
                    .iter()
                    .map(|c| i64::from(stored_value(*c, &v)).clamp(low, high) as i32 as u32)
                    .collect()
            }
            Texel::Uint(v) => {
                assert_eq!(self.kind(), Kind::Uint, "write_imageui to a non-uint image");
                let bits = 8 * self.channel_size() as u32;
                let high = ((1u64 << bits) - 1) as u32;
                channels
                    .iter()
                    .map(|c| stored_value(*c, &v).min(high))
                    .collect()
            }
        };
        let mut bytes = vec![0u8; self.element_size()];
        self.store_raw_channels(&raw, &mut bytes);
        bytes
    }

    /// `CLK_ADDRESS_CLAMP`'s border colour.
    pub fn border(&self) -> Texel {
        let alpha = if self.transparent_border() { 0 } else { 1 };
        match self.kind() {
            Kind::Float => Texel::Float([0.0, 0.0, 0.0, alpha as f32]),
            Kind::Int => Texel::Int([0, 0, 0, alpha]),
            Kind::Uint => Texel::Uint([0, 0, 0, alpha as u32]),
        }
    }
}

fn sign_extend(raw: u32, bits: u32) -> i32 {
    ((raw << (32 - bits)) as i32) >> (32 - bits)
}

/// The (x, y, z, w) a kernel reads from the stored channels: missing
/// colour channels 0, missing alpha 1, luminance into r, g and b,
/// intensity into all four, depth into x.
fn seen<T: Copy>(channels: &[Channel], values: &[T], zero: T, one: T) -> [T; 4] {
    let mut out = [zero, zero, zero, one];
    for (c, &v) in channels.iter().zip(values) {
        match c {
            Channel::R | Channel::Depth => out[0] = v,
            Channel::G => out[1] = v,
            Channel::B => out[2] = v,
            Channel::A => out[3] = v,
            Channel::Luminance => out[..3].fill(v),
            Channel::Intensity => out.fill(v),
        }
    }
    out
}

/// The lane of a written value a stored channel takes.
fn stored_value<T: Copy>(channel: Channel, v: &[T; 4]) -> T {
    match channel {
        Channel::G => v[1],
        Channel::B => v[2],
        Channel::A => v[3],
        Channel::R | Channel::Luminance | Channel::Intensity | Channel::Depth => v[0],
    }
}

/// sRGB to linear (OpenCL C 3.0, "Conversion rules for sRGBA and sBGRA
/// images"): `c <= 0.04045 ? c / 12.92 : powr((c + 0.055) / 1.055, 2.4)`.
pub fn srgb_to_linear(c: f32) -> f32 {
    let c = f64::from(c);
    (if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }) as f32
}

/// Linear to sRGB, as the spec writes it: NaN is 0; above 1 is 1, below
/// 0 is 0; below 0.0031308 `12.92 c`; else `1.055 powr(c, 1/2.4) - 0.055`.
pub fn linear_to_srgb(c: f32) -> f32 {
    if c.is_nan() || c < 0.0 {
        0.0
    } else if c > 1.0 {
        1.0
    } else if c < 0.003_130_8 {
        12.92 * c
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// The image types, by dimensionality.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    D1,
    D1Buffer,
    D1Array,
    D2,
    D2Array,
    D3,
}

impl Dim {
    /// Spatial coordinates: 1, 2 or 3; an array's layer follows them.
    pub fn spatial(self) -> usize {
        match self {
            Dim::D1 | Dim::D1Buffer | Dim::D1Array => 1,
            Dim::D2 | Dim::D2Array => 2,
            Dim::D3 => 3,
        }
    }

    pub fn arrayed(self) -> bool {
        matches!(self, Dim::D1Array | Dim::D2Array)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Addressing {
    None,
    ClampToEdge,
    Clamp,
    Repeat,
    MirroredRepeat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    Nearest,
    Linear,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sampler {
    pub normalized: bool,
    pub addressing: Addressing,
    pub filter: Filter,
}

/// The largest `|u|` the kernels keep before converting to an integer
/// (coordinates that far out address like any out-of-range one).
const U_LIMIT: f32 = (1u32 << 30) as f32;

/// An image with its texels.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    pub format: Format,
    pub dim: Dim,
    pub width: usize,
    /// 1 for the types without it.
    pub height: usize,
    pub depth: usize,
    pub array_size: usize,
    pub data: Vec<u8>,
}

impl Image {
    /// An image of zero bytes.
    pub fn new(format: Format, dim: Dim, size: [usize; 3], array_size: usize) -> Self {
        let [width, height, depth] = size;
        let mut image = Image {
            format,
            dim,
            width,
            height: height.max(1),
            depth: depth.max(1),
            array_size: array_size.max(1),
            data: Vec::new(),
        };
        image.data = vec![0; image.elements() * format.element_size()];
        image
    }

    pub fn elements(&self) -> usize {
        self.width * self.height * self.depth * self.array_size
    }

    /// The extent of each coordinate a kernel passes (width, height,
    /// depth or layers as the type has them), 1 beyond.
    pub fn sizes(&self) -> [usize; 4] {
        match self.dim {
            Dim::D1 | Dim::D1Buffer => [self.width, 1, 1, 1],
            Dim::D1Array => [self.width, self.array_size, 1, 1],
            Dim::D2 => [self.width, self.height, 1, 1],
            Dim::D2Array => [self.width, self.height, self.array_size, 1],
            Dim::D3 => [self.width, self.height, self.depth, 1],
        }
    }

    /// The byte offset of the element at in-range coordinates `c` (laid
    /// out as a kernel passes them).
    pub fn offset(&self, c: [usize; 4]) -> usize {
        let s = self.sizes();
        ((c[2] * s[1] + c[1]) * s[0] + c[0]) * self.format.element_size()
    }

    /// The coordinates that address an element: the spatial ones and the
    /// layer; the lanes after them are not the image's (a kernel's `int2`
    /// for a 2D image has no z), whatever they hold.
    fn used(&self) -> usize {
        self.dim.spatial() + usize::from(self.dim.arrayed())
    }

    fn inside(&self, c: [i32; 4]) -> bool {
        let s = self.sizes();
        (0..self.used()).all(|i| c[i] >= 0 && (c[i] as usize) < s[i])
    }

    fn clamped(&self, c: [i32; 4]) -> [usize; 4] {
        let s = self.sizes();
        let used = self.used();
        std::array::from_fn(|i| {
            if i < used {
                c[i].clamp(0, s[i] as i32 - 1) as usize
            } else {
                0
            }
        })
    }

    /// The texel at integer coordinates: a samplerless `read_image*`.
    /// The spec leaves coordinates outside the image undefined; clvulkan
    /// clamps them into it, and so does the model.
    pub fn read(&self, c: [i32; 4]) -> Texel {
        let at = self.offset(self.clamped(c));
        self.format.decode(&self.data[at..])
    }

    /// `write_image*`; the spec leaves writes outside the image
    /// undefined, clvulkan drops them, and so does the model.
    pub fn write(&mut self, c: [i32; 4], value: Texel) {
        if !self.inside(c) {
            return;
        }
        let at = self.offset(self.clamped(c));
        let bytes = self.format.encode(value);
        self.data[at..at + bytes.len()].copy_from_slice(&bytes);
    }

    /// A texel the filter reads at addressed coordinates: the border
    /// colour outside the image with `CLK_ADDRESS_CLAMP`, else (for
    /// `CLK_ADDRESS_NONE`, undefined outside) clamped into it.
    fn filter_texel(&self, c: [i32; 4], sampler: &Sampler) -> Texel {
        if sampler.addressing == Addressing::Clamp && !self.inside(c) {
            return self.format.border();
        }
        self.read(c)
    }

    /// `read_image*(image, sampler, coord)`: the spec's addressing and
    /// filtering. Integer images are read with nearest filtering whatever
    /// the sampler says (the spec defines only that for them).
    pub fn sample(&self, sampler: &Sampler, coord: [f32; 4]) -> Texel {
        let sizes = self.sizes();
        let spatial = self.dim.spatial();
        let mut layer_coord = [0i32; 4];
        if self.dim.arrayed() {
            // clamp(rint(coord), 0, array_size - 1), whatever the sampler.
            let s = coord[spatial];
            let s = if s.is_nan() { 0.0 } else { s };
            let layers = self.array_size as f32;
            layer_coord[spatial] = s.round_ties_even().clamp(0.0, layers - 1.0) as i32;
        }
        let u: Vec<f32> = (0..spatial)
            .map(|d| image_space(coord[d], sizes[d] as f32, sampler))
            .collect();
        let linear = sampler.filter == Filter::Linear && self.format.kind() == Kind::Float;
        if !linear {
            let mut c = layer_coord;
            for d in 0..spatial {
                c[d] = nearest_index(u[d], sizes[d] as i32, sampler.addressing);
            }
            return self.filter_texel(c, sampler);
        }
        let taps: Vec<(i32, i32, f32)> = (0..spatial)
            .map(|d| linear_indices(u[d], sizes[d] as i32, sampler.addressing))
            .collect();
        let mut sum = [0f32; 4];
        for corner in 0..1usize << spatial {
            let mut c = layer_coord;
            let mut weight = None;
            for d in 0..spatial {
                let high = corner >> d & 1 == 1;
                let (i0, i1, a) = taps[d];
                c[d] = if high { i1 } else { i0 };
                let w = if high { a } else { 1.0 - a };
                weight = Some(weight.map_or(w, |acc: f32| acc * w));
            }
            let weight = weight.expect("a spatial dimension");
            let texel = self.filter_texel(c, sampler).float();
            for (s, t) in sum.iter_mut().zip(texel) {
                // The first term is the sum's start, not 0 + term, so -0.0
                // survives as the kernel's sum does.
                *s = if corner == 0 {
                    weight * t
                } else {
                    *s + weight * t
                };
            }
        }
        Texel::Float(sum)
    }
}

/// `u` for coordinate `s` on an axis of `size` texels: `REPEAT`: `(s -
/// floor(s)) * size`; `MIRRORED_REPEAT`: `s' = 2 * rint(0.5 * s)`, `|s -
/// s'| * size` (both defined for normalized coordinates only; applied to
/// `s` as given otherwise); else `s * size` normalized, `s` unnormalized.
/// NaN and infinite coordinates are undefined; they read as 0 and `u` is
/// kept within +-2^30, as in the kernels.
pub fn image_space(s: f32, size: f32, sampler: &Sampler) -> f32 {
    let u = match sampler.addressing {
        Addressing::Repeat => (s - s.floor()) * size,
        Addressing::MirroredRepeat => {
            let mirror = 2.0 * (0.5 * s).round_ties_even();
            (s - mirror).abs() * size
        }
        _ if sampler.normalized => s * size,
        _ => s,
    };
    if u.is_nan() {
        0.0
    } else {
        u.clamp(-U_LIMIT, U_LIMIT)
    }
}

/// Nearest filtering's index: `i = floor(u)` addressed by the mode.
pub fn nearest_index(u: f32, size: i32, addressing: Addressing) -> i32 {
    let i = u.floor() as i32;
    match addressing {
        Addressing::ClampToEdge => i.clamp(0, size - 1),
        Addressing::Clamp => i.clamp(-1, size),
        Addressing::Repeat if i > size - 1 => i - size,
        Addressing::MirroredRepeat => i.min(size - 1),
        _ => i,
    }
}

/// Linear filtering's two indices and the weight `a = frac(u - 0.5)` of
/// the second, `frac(x) = x - floor(x)`.
pub fn linear_indices(u: f32, size: i32, addressing: Addressing) -> (i32, i32, f32) {
    let t = u - 0.5;
    let floor = t.floor();
    let a = t - floor;
    let i0 = floor as i32;
    let i1 = i0 + 1;
    let (i0, i1) = match addressing {
        Addressing::ClampToEdge => (i0.clamp(0, size - 1), i1.clamp(0, size - 1)),
        Addressing::Clamp => (i0.clamp(-1, size), i1.clamp(-1, size)),
        Addressing::Repeat => (
            if i0 < 0 { size + i0 } else { i0 },
            if i1 > size - 1 { i1 - size } else { i1 },
        ),
        Addressing::MirroredRepeat => (i0.max(0), i1.min(size - 1)),
        Addressing::None => (i0, i1),
    };
    (i0, i1, a)
}
