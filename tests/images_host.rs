//! Images and samplers through the loader and the C ABI, host side only
//! (no kernels): for every image type and every format
//! clGetSupportedImageFormats lists, texels written with pitches, read
//! back with others, copied between images and to and from buffers,
//! filled, and mapped, all checked against a host model of the image;
//! images made from host memory; clGetImageInfo; a table of bad inputs
//! and their error codes; samplers. Validation is fatal.

mod common;

use std::ffi::c_void;
use std::ptr;

use common::image_api::*;
use opencl3::types::{cl_command_queue, cl_context, cl_int, cl_mem};

// The OpenCL constants this test uses, from the spec's tables.
const CL_SUCCESS: cl_int = 0;
const CL_MEM_COPY_OVERLAP: cl_int = -8;
const CL_IMAGE_FORMAT_MISMATCH: cl_int = -9;
const CL_IMAGE_FORMAT_NOT_SUPPORTED: cl_int = -10;
const CL_INVALID_VALUE: cl_int = -30;
const CL_INVALID_HOST_PTR: cl_int = -37;
const CL_INVALID_MEM_OBJECT: cl_int = -38;
const CL_INVALID_IMAGE_FORMAT_DESCRIPTOR: cl_int = -39;
const CL_INVALID_IMAGE_SIZE: cl_int = -40;
const CL_INVALID_SAMPLER: cl_int = -41;
const CL_INVALID_OPERATION: cl_int = -59;
const CL_INVALID_IMAGE_DESCRIPTOR: cl_int = -65;

const CL_MEM_READ_WRITE: u64 = 1;
const CL_MEM_READ_ONLY: u64 = 4;
const CL_MEM_USE_HOST_PTR: u64 = 8;
const CL_MEM_COPY_HOST_PTR: u64 = 32;
const CL_MEM_HOST_WRITE_ONLY: u64 = 1 << 7;
const CL_MEM_HOST_READ_ONLY: u64 = 1 << 8;
const CL_MAP_READ: u64 = 1;
const CL_MAP_WRITE: u64 = 2;

const BUFFER: u32 = 0x10F0;
const IMAGE2D: u32 = 0x10F1;
const IMAGE3D: u32 = 0x10F2;
const IMAGE2D_ARRAY: u32 = 0x10F3;
const IMAGE1D: u32 = 0x10F4;
const IMAGE1D_ARRAY: u32 = 0x10F5;
const IMAGE1D_BUFFER: u32 = 0x10F6;

const CL_R: u32 = 0x10B0;
const CL_A: u32 = 0x10B1;
const CL_RG: u32 = 0x10B2;
const CL_RA: u32 = 0x10B3;
const CL_RGB: u32 = 0x10B4;
const CL_RGBA: u32 = 0x10B5;
const CL_BGRA: u32 = 0x10B6;
const CL_ARGB: u32 = 0x10B7;
const CL_INTENSITY: u32 = 0x10B8;
const CL_LUMINANCE: u32 = 0x10B9;
const CL_RX: u32 = 0x10BA;
const CL_RGX: u32 = 0x10BB;
const CL_RGBX: u32 = 0x10BC;
const CL_DEPTH: u32 = 0x10BD;
const CL_SRGBA: u32 = 0x10C1;
const CL_SBGRA: u32 = 0x10C2;
const CL_ABGR: u32 = 0x10C3;

const CL_SNORM_INT8: u32 = 0x10D0;
const CL_SNORM_INT16: u32 = 0x10D1;
const CL_UNORM_INT8: u32 = 0x10D2;
const CL_UNORM_INT16: u32 = 0x10D3;
const CL_UNORM_SHORT_565: u32 = 0x10D4;
const CL_UNORM_SHORT_555: u32 = 0x10D5;
const CL_UNORM_INT_101010: u32 = 0x10D6;
const CL_SIGNED_INT8: u32 = 0x10D7;
const CL_SIGNED_INT16: u32 = 0x10D8;
const CL_SIGNED_INT32: u32 = 0x10D9;
const CL_UNSIGNED_INT8: u32 = 0x10DA;
const CL_UNSIGNED_INT16: u32 = 0x10DB;
const CL_UNSIGNED_INT32: u32 = 0x10DC;
const CL_HALF_FLOAT: u32 = 0x10DD;
const CL_FLOAT: u32 = 0x10DE;

const CL_MEM_TYPE: u32 = 0x1100;
const CL_MEM_SIZE: u32 = 0x1102;
const CL_MEM_ASSOCIATED_MEMOBJECT: u32 = 0x1107;
const CL_IMAGE_FORMAT: u32 = 0x1110;
const CL_IMAGE_ELEMENT_SIZE: u32 = 0x1111;
const CL_IMAGE_ROW_PITCH: u32 = 0x1112;
const CL_IMAGE_SLICE_PITCH: u32 = 0x1113;
const CL_IMAGE_WIDTH: u32 = 0x1114;
const CL_IMAGE_HEIGHT: u32 = 0x1115;
const CL_IMAGE_DEPTH: u32 = 0x1116;
const CL_IMAGE_ARRAY_SIZE: u32 = 0x1117;
const CL_IMAGE_BUFFER: u32 = 0x1118;

const CL_SAMPLER_REFERENCE_COUNT: u32 = 0x1150;
const CL_SAMPLER_CONTEXT: u32 = 0x1151;
const CL_SAMPLER_NORMALIZED_COORDS: u32 = 0x1152;
const CL_SAMPLER_ADDRESSING_MODE: u32 = 0x1153;
const CL_SAMPLER_FILTER_MODE: u32 = 0x1154;
const CL_ADDRESS_NONE: u32 = 0x1130;
const CL_ADDRESS_CLAMP: u32 = 0x1132;
const CL_ADDRESS_REPEAT: u32 = 0x1133;
const CL_FILTER_NEAREST: u32 = 0x1140;
const CL_FILTER_LINEAR: u32 = 0x1141;

/// A deterministic byte stream.
struct Bytes(u64);

impl Bytes {
    fn next(&mut self) -> u8 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 24) as u8
    }

    fn take(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next()).collect()
    }
}

/// The bytes of one texel, by the spec's description of each format.
fn element_size(format: ImageFormat) -> usize {
    let components = match format.order {
        CL_R | CL_A | CL_INTENSITY | CL_LUMINANCE | CL_RX | CL_DEPTH => 1,
        CL_RG | CL_RA | CL_RGX => 2,
        CL_RGB | CL_RGBX => 1, // packed: one 16- or 32-bit word
        _ => 4,
    };
    let bytes = match format.data_type {
        CL_SNORM_INT8 | CL_UNORM_INT8 | CL_SIGNED_INT8 | CL_UNSIGNED_INT8 => 1,
        CL_SNORM_INT16 | CL_UNORM_INT16 | CL_SIGNED_INT16 | CL_UNSIGNED_INT16 | CL_HALF_FLOAT => 2,
        CL_UNORM_SHORT_565 | CL_UNORM_SHORT_555 => 2,
        _ => 4,
    };
    components * bytes
}

/// A host model of one image: its texels packed, indexed by (x, y, z)
/// where z is the slice or layer.
#[derive(Clone)]
struct Model {
    image_type: u32,
    /// Texels along x, y and z (layers for arrays).
    size: [usize; 3],
    element: usize,
    bytes: Vec<u8>,
}

impl Model {
    /// The API region of `box_size` (x, y, z as the model indexes them).
    fn api(&self, v: [usize; 3]) -> [usize; 3] {
        match self.image_type {
            // A 1D array's layer is the second coordinate.
            IMAGE1D_ARRAY => [v[0], v[2], 0],
            _ => v,
        }
    }

    fn api_region(&self, v: [usize; 3]) -> [usize; 3] {
        match self.image_type {
            IMAGE1D_ARRAY => [v[0], v[2], 1],
            _ => v,
        }
    }

    fn at(&self, x: usize, y: usize, z: usize) -> usize {
        ((z * self.size[1] + y) * self.size[0] + x) * self.element
    }

    /// The texels of a box, packed.
    fn get(&self, origin: [usize; 3], region: [usize; 3]) -> Vec<u8> {
        let mut out = Vec::new();
        for z in 0..region[2] {
            for y in 0..region[1] {
                let at = self.at(origin[0], origin[1] + y, origin[2] + z);
                out.extend_from_slice(&self.bytes[at..at + region[0] * self.element]);
            }
        }
        out
    }

    /// Stores packed texels into a box.
    fn set(&mut self, origin: [usize; 3], region: [usize; 3], packed: &[u8]) {
        let row = region[0] * self.element;
        let mut rows = packed.chunks_exact(row);
        for z in 0..region[2] {
            for y in 0..region[1] {
                let at = self.at(origin[0], origin[1] + y, origin[2] + z);
                self.bytes[at..at + row].copy_from_slice(rows.next().expect("enough rows"));
            }
        }
    }
}

/// Lays packed rows out at host pitches (`slice` places z; for a 1D array
/// each slice is one row).
fn spread(packed: &[u8], row_bytes: usize, rows: usize, pitches: [usize; 2]) -> Vec<u8> {
    let slices = packed.len() / (row_bytes * rows);
    let mut out = vec![0xeeu8; pitches[1] * (slices - 1) + pitches[0] * (rows - 1) + row_bytes];
    for (i, chunk) in packed.chunks_exact(row_bytes).enumerate() {
        let (z, y) = (i / rows, i % rows);
        let at = z * pitches[1] + y * pitches[0];
        out[at..at + row_bytes].copy_from_slice(chunk);
    }
    out
}

/// The inverse of [`spread`].
fn gather(
    spread: &[u8],
    row_bytes: usize,
    rows: usize,
    slices: usize,
    pitches: [usize; 2],
) -> Vec<u8> {
    let mut out = Vec::new();
    for z in 0..slices {
        for y in 0..rows {
            let at = z * pitches[1] + y * pitches[0];
            out.extend_from_slice(&spread[at..at + row_bytes]);
        }
    }
    out
}

struct Fixture {
    context: opencl3::context::Context,
    queue: opencl3::command_queue::CommandQueue,
}

impl Fixture {
    fn new() -> Fixture {
        let (context, queue) = common::context_and_queue();
        Fixture { context, queue }
    }

    fn ctx(&self) -> cl_context {
        self.context.get()
    }

    fn q(&self) -> cl_command_queue {
        self.queue.get()
    }

    fn formats(&self, flags: u64, image_type: u32) -> Vec<ImageFormat> {
        supported_formats(self.ctx(), flags, image_type)
    }

    fn buffer(&self, size: usize) -> cl_mem {
        let mut status = 0;
        // SAFETY: a live context, no host pointer.
        let buffer = unsafe {
            clCreateBuffer(
                self.ctx(),
                CL_MEM_READ_WRITE,
                size,
                ptr::null_mut(),
                &mut status,
            )
        };
        assert_eq!(status, CL_SUCCESS);
        buffer
    }

    /// `clCreateImage`'s status and image.
    fn try_image(
        &self,
        flags: u64,
        format: ImageFormat,
        desc: &ImageDesc,
        host_ptr: *mut c_void,
    ) -> (cl_int, cl_mem) {
        let mut status = 0;
        // SAFETY: live context; format and desc are valid structures; the
        // callers pass host memory as large as the description needs.
        let image =
            unsafe { clCreateImage(self.ctx(), flags, &format, desc, host_ptr, &mut status) };
        (status, image)
    }

    fn write(
        &self,
        image: cl_mem,
        origin: [usize; 3],
        region: [usize; 3],
        pitches: [usize; 2],
        data: &[u8],
    ) {
        // SAFETY: blocking; `data` covers the region at the pitches.
        let status = unsafe {
            clEnqueueWriteImage(
                self.q(),
                image,
                1,
                origin.as_ptr(),
                region.as_ptr(),
                pitches[0],
                pitches[1],
                data.as_ptr().cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        assert_eq!(
            status, CL_SUCCESS,
            "write {origin:?} {region:?} {pitches:?}"
        );
    }

    fn read(
        &self,
        image: cl_mem,
        origin: [usize; 3],
        region: [usize; 3],
        pitches: [usize; 2],
        out: &mut [u8],
    ) {
        // SAFETY: blocking; `out` covers the region at the pitches.
        let status = unsafe {
            clEnqueueReadImage(
                self.q(),
                image,
                1,
                origin.as_ptr(),
                region.as_ptr(),
                pitches[0],
                pitches[1],
                out.as_mut_ptr().cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        assert_eq!(status, CL_SUCCESS, "read {origin:?} {region:?} {pitches:?}");
    }

    /// The whole image, packed, against the model.
    fn check(&self, image: cl_mem, model: &Model, what: &str) {
        let mut out = vec![0u8; model.bytes.len()];
        let whole = model.api_region(model.size);
        self.read(image, [0; 3], whole, [0, 0], &mut out);
        if out != model.bytes {
            let first = out.iter().zip(&model.bytes).position(|(a, b)| a != b);
            panic!("{what}: first difference at byte {first:?}");
        }
    }
}

/// The sizes each type is tested at (x, y, z-or-layers) and the desc.
fn shape(image_type: u32) -> ([usize; 3], ImageDesc) {
    let size = match image_type {
        IMAGE1D => [13, 1, 1],
        IMAGE1D_BUFFER => [37, 1, 1],
        IMAGE1D_ARRAY => [11, 1, 3],
        IMAGE2D => [9, 7, 1],
        IMAGE2D_ARRAY => [7, 5, 3],
        _ => [6, 5, 4],
    };
    let desc = ImageDesc {
        image_type,
        width: size[0],
        height: if image_type == IMAGE1D_ARRAY {
            0
        } else {
            size[1]
        },
        depth: if image_type == IMAGE3D { size[2] } else { 0 },
        array_size: match image_type {
            IMAGE1D_ARRAY | IMAGE2D_ARRAY => size[2],
            _ => 0,
        },
        row_pitch: 0,
        slice_pitch: 0,
        num_mip_levels: 0,
        num_samples: 0,
        buffer: ptr::null_mut(),
    };
    (size, desc)
}

/// A fill colour per channel type, and its stored channels (r, g, b, a)
/// by the spec's conversion rules: float to normalized scales by the
/// largest value and rounds to nearest even; ints saturate.
fn fill_color(data_type: u32) -> ([u8; 16], [u64; 4]) {
    let floats = [1.0f32, 0.0, 0.5, 0.25];
    let as_bytes = |words: [u32; 4]| {
        let mut out = [0u8; 16];
        for (chunk, word) in out.chunks_exact_mut(4).zip(words) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        out
    };
    let float_bytes = as_bytes(floats.map(f32::to_bits));
    let scaled = |max: f64| floats.map(|f| (f64::from(f) * max).round_ties_even() as u64);
    match data_type {
        CL_UNORM_INT8 => (float_bytes, scaled(255.0)),
        CL_UNORM_INT16 => (float_bytes, scaled(65535.0)),
        CL_SNORM_INT8 => (float_bytes, scaled(127.0)),
        CL_SNORM_INT16 => (float_bytes, scaled(32767.0)),
        CL_UNORM_SHORT_565 => (float_bytes, [31, 0, 16, 0]),
        CL_UNORM_SHORT_555 => (float_bytes, [31, 0, 16, 0]),
        CL_UNORM_INT_101010 => (float_bytes, [1023, 0, 512, 0]),
        // 1.0, 0.0, 0.5, 0.25 as halves.
        CL_HALF_FLOAT => (float_bytes, [0x3c00, 0, 0x3800, 0x3400]),
        CL_FLOAT => (float_bytes, floats.map(|f| u64::from(f.to_bits()))),
        CL_SIGNED_INT8 | CL_SIGNED_INT16 | CL_SIGNED_INT32 => {
            let ints = [7i32, -3, 100_000, -40_000];
            let (lo, hi) = match data_type {
                CL_SIGNED_INT8 => (-128i64, 127i64),
                CL_SIGNED_INT16 => (-32768, 32767),
                _ => (i64::from(i32::MIN), i64::from(i32::MAX)),
            };
            let stored = ints.map(|v| i64::from(v).clamp(lo, hi) as u64);
            (as_bytes(ints.map(|v| v as u32)), stored)
        }
        _ => {
            let uints = [7u32, 300, 70_000, 1];
            let hi = match data_type {
                CL_UNSIGNED_INT8 => 255u64,
                CL_UNSIGNED_INT16 => 65535,
                _ => u64::from(u32::MAX),
            };
            (as_bytes(uints), uints.map(|v| u64::from(v).min(hi)))
        }
    }
}

/// The texel a fill stores: channels placed by the order, each of the
/// type's width, little-endian; packed types as one word.
fn fill_texel(format: ImageFormat) -> Vec<u8> {
    let (_, [r, g, b, a]) = fill_color(format.data_type);
    match format.data_type {
        CL_UNORM_SHORT_565 => return ((r << 11 | g << 5 | b) as u16).to_le_bytes().to_vec(),
        CL_UNORM_SHORT_555 => return ((r << 10 | g << 5 | b) as u16).to_le_bytes().to_vec(),
        CL_UNORM_INT_101010 => return ((r << 20 | g << 10 | b) as u32).to_le_bytes().to_vec(),
        _ => {}
    }
    let channels: Vec<u64> = match format.order {
        CL_R | CL_RX | CL_INTENSITY | CL_LUMINANCE | CL_DEPTH => vec![r],
        CL_A => vec![a],
        CL_RG | CL_RGX => vec![r, g],
        CL_RA => vec![r, a],
        CL_RGBA | CL_SRGBA => vec![r, g, b, a],
        CL_BGRA | CL_SBGRA => vec![b, g, r, a],
        CL_ARGB => vec![a, r, g, b],
        CL_ABGR => vec![a, b, g, r],
        other => panic!("order {other:#x} has no fill model"),
    };
    let width = element_size(format) / channels.len();
    channels
        .iter()
        .flat_map(|c| c.to_le_bytes()[..width].to_vec())
        .collect()
}

/// Everything the host can do to one image of `format`, against the model.
fn exercise(f: &Fixture, image_type: u32, format: ImageFormat, seed: u64) {
    let what = format!("type {image_type:#x} format {format:x?}");
    let (size, mut desc) = shape(image_type);
    let element = element_size(format);
    let mut rng = Bytes(seed | 1);
    let mut model = Model {
        image_type,
        size,
        element,
        bytes: vec![0; size.iter().product::<usize>() * element],
    };
    let backing = (image_type == IMAGE1D_BUFFER).then(|| f.buffer(model.bytes.len() + 64));
    if let Some(buffer) = backing {
        desc.buffer = buffer;
    }
    let (status, image) = f.try_image(CL_MEM_READ_ONLY, format, &desc, ptr::null_mut());
    assert_eq!(status, CL_SUCCESS, "{what}: create");
    // A 1D buffer image shares its buffer: the second image gets its own.
    let other_backing = backing.map(|_| f.buffer(model.bytes.len()));
    let other_desc = ImageDesc {
        buffer: other_backing.unwrap_or(ptr::null_mut()),
        ..desc
    };
    let (status, other) = f.try_image(CL_MEM_READ_ONLY, format, &other_desc, ptr::null_mut());
    assert_eq!(status, CL_SUCCESS, "{what}: create second");

    // The whole image, written at padded pitches, read back packed.
    let row = size[0] * element;
    let rows = if image_type == IMAGE1D_ARRAY {
        1
    } else {
        size[1]
    };
    let pitches = match image_type {
        IMAGE1D_ARRAY => [row + 3 * element, row + 5 * element],
        IMAGE3D | IMAGE2D_ARRAY => [row + 2 * element, (row + 2 * element) * (rows + 1)],
        _ => [row + 2 * element, 0],
    };
    let data = rng.take(model.bytes.len());
    model.bytes.copy_from_slice(&data);
    let whole = model.api_region(size);
    f.write(
        image,
        [0; 3],
        whole,
        pitches,
        &spread(
            &data,
            row,
            rows,
            [pitches[0], pitches[1].max(pitches[0] * rows)],
        ),
    );
    f.check(image, &model, &format!("{what}: whole write"));

    // A box: origin (1, ..), written packed, read back at other pitches.
    let origin = [1, usize::from(size[1] > 1), usize::from(size[2] > 1)];
    let extent = [size[0] - 2, size[1] - origin[1], size[2] - origin[2]];
    let packed = rng.take(extent.iter().product::<usize>() * element);
    model.set(origin, extent, &packed);
    f.write(
        image,
        model.api(origin),
        model.api_region(extent),
        [0, 0],
        &packed,
    );
    f.check(image, &model, &format!("{what}: box write"));
    let box_row = extent[0] * element;
    let box_rows = if image_type == IMAGE1D_ARRAY {
        1
    } else {
        extent[1]
    };
    let read_pitches = match image_type {
        IMAGE1D_ARRAY => [box_row + element, box_row + 4 * element],
        IMAGE3D | IMAGE2D_ARRAY => [
            box_row + 5 * element,
            (box_row + 5 * element) * box_rows + box_row + 5 * element,
        ],
        _ => [box_row + 5 * element, 0],
    };
    let slices = extent[2];
    let span = read_pitches[1].max(read_pitches[0] * box_rows) * (slices - 1)
        + read_pitches[0] * (box_rows - 1)
        + box_row;
    let mut out = vec![0u8; span];
    f.read(
        image,
        model.api(origin),
        model.api_region(extent),
        read_pitches,
        &mut out,
    );
    let got = gather(
        &out,
        box_row,
        box_rows,
        slices,
        [
            read_pitches[0],
            read_pitches[1].max(read_pitches[0] * box_rows),
        ],
    );
    assert_eq!(
        got,
        model.get(origin, extent),
        "{what}: box read at pitches"
    );

    // Image to image: the whole of `image` into `other`, then a box back.
    let mut other_model = model.clone();
    // SAFETY: live images of one format; regions inside both.
    let status = unsafe {
        clEnqueueCopyImage(
            f.q(),
            image,
            other,
            [0usize; 3].as_ptr(),
            [0usize; 3].as_ptr(),
            whole.as_ptr(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_eq!(status, CL_SUCCESS, "{what}: copy image");
    f.check(other, &other_model, &format!("{what}: copied image"));
    let small = [2.min(size[0]), 1, 1];
    let to = [size[0] - 2, size[1] - 1, size[2] - 1];
    let moved = model.get([0; 3], small);
    other_model.set(to, small, &moved);
    // SAFETY: as above.
    let status = unsafe {
        clEnqueueCopyImage(
            f.q(),
            image,
            other,
            model.api([0; 3]).as_ptr(),
            model.api(to).as_ptr(),
            model.api_region(small).as_ptr(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_eq!(status, CL_SUCCESS, "{what}: copy box");
    f.check(other, &other_model, &format!("{what}: copied box"));

    // Fill a box; sRGB encodes, which this model does not.
    if !matches!(format.order, CL_SRGBA | CL_SBGRA) {
        let (color, _) = fill_color(format.data_type);
        let texel = fill_texel(format);
        let fill: Vec<u8> = texel
            .iter()
            .copied()
            .cycle()
            .take(extent.iter().product::<usize>() * element)
            .collect();
        other_model.set(origin, extent, &fill);
        // SAFETY: a live image; the colour is 16 bytes.
        let status = unsafe {
            clEnqueueFillImage(
                f.q(),
                other,
                color.as_ptr().cast(),
                model.api(origin).as_ptr(),
                model.api_region(extent).as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        assert_eq!(status, CL_SUCCESS, "{what}: fill");
        f.check(other, &other_model, &format!("{what}: fill"));
    }

    // Image to buffer at an odd offset, buffer to image at another.
    let bytes = extent.iter().product::<usize>() * element;
    let buffer = f.buffer(bytes + 16);
    // SAFETY: live objects; the region and range fit.
    let status = unsafe {
        clEnqueueCopyImageToBuffer(
            f.q(),
            image,
            buffer,
            model.api(origin).as_ptr(),
            model.api_region(extent).as_ptr(),
            3,
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_eq!(status, CL_SUCCESS, "{what}: image to buffer");
    let mut back = vec![0u8; bytes];
    // SAFETY: blocking read of `bytes` bytes from offset 3.
    let status = unsafe {
        clEnqueueReadBuffer(
            f.q(),
            buffer,
            1,
            3,
            bytes,
            back.as_mut_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_eq!(status, CL_SUCCESS);
    assert_eq!(back, model.get(origin, extent), "{what}: image to buffer");
    let fresh = rng.take(bytes);
    // SAFETY: blocking write into the buffer's range.
    let status = unsafe {
        clEnqueueWriteBuffer(
            f.q(),
            buffer,
            1,
            5,
            bytes,
            fresh.as_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_eq!(status, CL_SUCCESS);
    // SAFETY: live objects; the range and region fit.
    let status = unsafe {
        clEnqueueCopyBufferToImage(
            f.q(),
            buffer,
            image,
            5,
            [0usize; 3].as_ptr(),
            model.api_region(extent).as_ptr(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_eq!(status, CL_SUCCESS, "{what}: buffer to image");
    model.set([0; 3], extent, &fresh);
    f.check(image, &model, &format!("{what}: buffer to image"));

    // Map a box for reading and writing: its texels at the pitches the
    // map returns; what is written through it is there after unmap.
    let (mut row_pitch, mut slice_pitch) = (0usize, 0usize);
    let mut status = 0;
    // SAFETY: live objects; the pitch pointers are valid.
    let mapped = unsafe {
        clEnqueueMapImage(
            f.q(),
            image,
            1,
            CL_MAP_READ | CL_MAP_WRITE,
            model.api(origin).as_ptr(),
            model.api_region(extent).as_ptr(),
            &mut row_pitch,
            &mut slice_pitch,
            0,
            ptr::null(),
            ptr::null_mut(),
            &mut status,
        )
    };
    assert_eq!(status, CL_SUCCESS, "{what}: map");
    let slice_step = if image_type == IMAGE1D_ARRAY {
        slice_pitch.max(row_pitch)
    } else {
        slice_pitch.max(row_pitch * box_rows)
    };
    let span = slice_step * (slices - 1) + row_pitch * (box_rows - 1) + box_row;
    // SAFETY: the map covers the region at the returned pitches.
    let view = unsafe { std::slice::from_raw_parts_mut(mapped.cast::<u8>(), span) };
    let got = gather(view, box_row, box_rows, slices, [row_pitch, slice_step]);
    assert_eq!(got, model.get(origin, extent), "{what}: mapped texels");
    let through_map = rng.take(bytes);
    for (i, chunk) in through_map.chunks_exact(box_row).enumerate() {
        let (z, y) = (i / box_rows, i % box_rows);
        let at = z * slice_step + y * row_pitch;
        view[at..at + box_row].copy_from_slice(chunk);
    }
    model.set(origin, extent, &through_map);
    // SAFETY: the pointer the map returned.
    let status =
        unsafe { clEnqueueUnmapMemObject(f.q(), image, mapped, 0, ptr::null(), ptr::null_mut()) };
    assert_eq!(status, CL_SUCCESS, "{what}: unmap");
    f.check(image, &model, &format!("{what}: written through a map"));

    // SAFETY: the test's own objects, released once.
    unsafe {
        clFinish(f.q());
        clReleaseMemObject(buffer);
        clReleaseMemObject(image);
        clReleaseMemObject(other);
        for buffer in backing.into_iter().chain(other_backing) {
            clReleaseMemObject(buffer);
        }
    }
}

#[test]
fn every_listed_format_of_every_type_moves_texels_exactly() {
    let f = Fixture::new();
    let mut tested = 0;
    for (index, image_type) in [
        IMAGE1D,
        IMAGE1D_BUFFER,
        IMAGE1D_ARRAY,
        IMAGE2D,
        IMAGE2D_ARRAY,
        IMAGE3D,
    ]
    .into_iter()
    .enumerate()
    {
        let formats = f.formats(CL_MEM_READ_ONLY, image_type);
        assert!(!formats.is_empty(), "type {image_type:#x} lists formats");
        for (i, format) in formats.into_iter().enumerate() {
            exercise(&f, image_type, format, (index * 1000 + i) as u64 + 17);
            tested += 1;
        }
    }
    eprintln!("{tested} images of every listed format and type");
    // Every type has at least the RGBA formats of OpenCL's minimum list.
    assert!(tested > 6 * 12, "{tested} images tested");
}

#[test]
fn supported_formats_include_the_minimum_list() {
    let f = Fixture::new();
    for flags in [
        CL_MEM_READ_ONLY,
        2, /* CL_MEM_WRITE_ONLY */
        CL_MEM_READ_WRITE,
    ] {
        let formats = f.formats(flags, IMAGE2D);
        for data_type in [
            CL_UNORM_INT8,
            CL_UNORM_INT16,
            CL_SIGNED_INT8,
            CL_SIGNED_INT16,
            CL_SIGNED_INT32,
            CL_UNSIGNED_INT8,
            CL_UNSIGNED_INT16,
            CL_UNSIGNED_INT32,
            CL_HALF_FLOAT,
            CL_FLOAT,
        ] {
            let format = ImageFormat {
                order: CL_RGBA,
                data_type,
            };
            assert!(formats.contains(&format), "flags {flags:#x}: {format:x?}");
        }
        // Three-component orders are only the packed ones.
        assert!(formats.iter().all(|format| format.order != CL_RGB
            || matches!(
                format.data_type,
                CL_UNORM_SHORT_565 | CL_UNORM_SHORT_555 | CL_UNORM_INT_101010
            )));
    }
}

/// A `usize` or other scalar image/memory info value.
fn info<T: Copy + Default>(
    call: unsafe extern "C" fn(cl_mem, u32, usize, *mut c_void, *mut usize) -> cl_int,
    mem: cl_mem,
    name: u32,
) -> T {
    let mut value = T::default();
    let mut size = 0;
    // SAFETY: room for one T; the size out pointer is valid.
    let status = unsafe {
        call(
            mem,
            name,
            std::mem::size_of::<T>(),
            ptr::from_mut(&mut value).cast(),
            &mut size,
        )
    };
    assert_eq!(status, CL_SUCCESS, "info {name:#x}");
    assert_eq!(size, std::mem::size_of::<T>(), "size of info {name:#x}");
    value
}

#[test]
fn image_info_describes_each_type() {
    let f = Fixture::new();
    let format = ImageFormat {
        order: CL_RGBA,
        data_type: CL_UNSIGNED_INT16,
    };
    let backing = f.buffer(4096);
    for image_type in [
        IMAGE1D,
        IMAGE1D_BUFFER,
        IMAGE1D_ARRAY,
        IMAGE2D,
        IMAGE2D_ARRAY,
        IMAGE3D,
    ] {
        let (size, mut desc) = shape(image_type);
        if image_type == IMAGE1D_BUFFER {
            desc.buffer = backing;
        }
        let (status, image) = f.try_image(CL_MEM_READ_WRITE, format, &desc, ptr::null_mut());
        assert_eq!(status, CL_SUCCESS);
        let t = image_type;
        assert_eq!(info::<u32>(clGetMemObjectInfo, image, CL_MEM_TYPE), t);
        assert_eq!(
            info::<usize>(clGetMemObjectInfo, image, CL_MEM_SIZE),
            size.iter().product::<usize>() * 8
        );
        assert_eq!(
            info::<[u32; 2]>(clGetImageInfo, image, CL_IMAGE_FORMAT),
            [CL_RGBA, CL_UNSIGNED_INT16]
        );
        assert_eq!(
            info::<usize>(clGetImageInfo, image, CL_IMAGE_ELEMENT_SIZE),
            8
        );
        assert_eq!(
            info::<usize>(clGetImageInfo, image, CL_IMAGE_WIDTH),
            size[0]
        );
        assert_eq!(
            info::<usize>(clGetImageInfo, image, CL_IMAGE_HEIGHT),
            if matches!(t, IMAGE2D | IMAGE2D_ARRAY | IMAGE3D) {
                size[1]
            } else {
                0
            }
        );
        assert_eq!(
            info::<usize>(clGetImageInfo, image, CL_IMAGE_DEPTH),
            if t == IMAGE3D { size[2] } else { 0 }
        );
        assert_eq!(
            info::<usize>(clGetImageInfo, image, CL_IMAGE_ARRAY_SIZE),
            if matches!(t, IMAGE1D_ARRAY | IMAGE2D_ARRAY) {
                size[2]
            } else {
                0
            }
        );
        assert_eq!(
            info::<usize>(clGetImageInfo, image, CL_IMAGE_ROW_PITCH),
            size[0] * 8
        );
        let slice = match t {
            IMAGE1D_ARRAY => size[0] * 8,
            IMAGE2D_ARRAY | IMAGE3D => size[0] * size[1] * 8,
            _ => 0,
        };
        assert_eq!(
            info::<usize>(clGetImageInfo, image, CL_IMAGE_SLICE_PITCH),
            slice
        );
        let expected_buffer = if t == IMAGE1D_BUFFER {
            backing
        } else {
            ptr::null_mut()
        };
        assert_eq!(
            info::<usize>(clGetImageInfo, image, CL_IMAGE_BUFFER),
            expected_buffer as usize
        );
        assert_eq!(
            info::<usize>(clGetMemObjectInfo, image, CL_MEM_ASSOCIATED_MEMOBJECT),
            expected_buffer as usize
        );
        // SAFETY: the test's own image.
        unsafe { clReleaseMemObject(image) };
    }
    // A buffer is no image.
    let mut value = 0usize;
    // SAFETY: room for a size_t.
    let status = unsafe {
        clGetImageInfo(
            backing,
            CL_IMAGE_WIDTH,
            8,
            ptr::from_mut(&mut value).cast(),
            ptr::null_mut(),
        )
    };
    assert_eq!(status, CL_INVALID_MEM_OBJECT);
    assert_eq!(
        info::<u32>(clGetMemObjectInfo, backing, CL_MEM_TYPE),
        BUFFER
    );
    // SAFETY: the test's own buffer.
    unsafe { clReleaseMemObject(backing) };
}

#[test]
fn images_from_host_memory_keep_its_pitches() {
    let f = Fixture::new();
    let format = ImageFormat {
        order: CL_BGRA,
        data_type: CL_UNORM_INT8,
    };
    let (width, height, pitch) = (5usize, 4usize, 32usize);
    let mut host: Vec<u8> = Bytes(99).take(pitch * height);
    let packed = gather(&host, width * 4, height, 1, [pitch, pitch * height]);
    let desc = ImageDesc {
        row_pitch: pitch,
        ..shape(IMAGE2D).1
    };
    let desc = ImageDesc {
        width,
        height,
        ..desc
    };
    let mut model = Model {
        image_type: IMAGE2D,
        size: [width, height, 1],
        element: 4,
        bytes: packed,
    };

    let (status, copied) = f.try_image(
        CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
        format,
        &desc,
        host.as_mut_ptr().cast(),
    );
    assert_eq!(status, CL_SUCCESS);
    f.check(copied, &model, "COPY_HOST_PTR image");
    assert_eq!(
        info::<usize>(clGetImageInfo, copied, CL_IMAGE_ROW_PITCH),
        width * 4
    );

    let (status, used) = f.try_image(
        CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
        format,
        &desc,
        host.as_mut_ptr().cast(),
    );
    assert_eq!(status, CL_SUCCESS);
    f.check(used, &model, "USE_HOST_PTR image");
    assert_eq!(
        info::<usize>(clGetImageInfo, used, CL_IMAGE_ROW_PITCH),
        pitch
    );
    // A map of a USE_HOST_PTR image is host_ptr at its pitches, holding
    // the image's texels (here after a write through the API).
    let texels = Bytes(5).take(2 * 2 * 4);
    f.write(used, [1, 2, 0], [2, 2, 1], [0, 0], &texels);
    model.set([1, 2, 0], [2, 2, 1], &texels);
    let (mut row_pitch, mut status) = (0usize, 0);
    // SAFETY: live objects; the row pitch pointer is valid.
    let mapped = unsafe {
        clEnqueueMapImage(
            f.q(),
            used,
            1,
            CL_MAP_READ,
            [1usize, 2, 0].as_ptr(),
            [2usize, 2, 1].as_ptr(),
            &mut row_pitch,
            ptr::null_mut(),
            0,
            ptr::null(),
            ptr::null_mut(),
            &mut status,
        )
    };
    assert_eq!(status, CL_SUCCESS);
    assert_eq!(row_pitch, pitch);
    assert_eq!(mapped as usize, host.as_ptr() as usize + 2 * pitch + 4);
    // SAFETY: the map covers two rows at the pitch.
    let view = unsafe { std::slice::from_raw_parts(mapped.cast::<u8>(), pitch + 8) };
    assert_eq!(gather(view, 8, 2, 1, [pitch, 2 * pitch]), texels);
    // SAFETY: the pointer the map returned; then the test's own images.
    unsafe {
        assert_eq!(
            clEnqueueUnmapMemObject(f.q(), used, mapped, 0, ptr::null(), ptr::null_mut()),
            CL_SUCCESS
        );
        clFinish(f.q());
        clReleaseMemObject(used);
        clReleaseMemObject(copied);
    }

    // A 1D buffer image of a USE_HOST_PTR buffer: its flags are the
    // buffer's, and a map of it lies in the buffer's host memory.
    let mut memory = Bytes(11).take(64 * 4);
    let mut status = 0;
    // SAFETY: `memory` outlives the buffer and every command on it.
    let buffer = unsafe {
        clCreateBuffer(
            f.ctx(),
            CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
            memory.len(),
            memory.as_mut_ptr().cast(),
            &mut status,
        )
    };
    assert_eq!(status, CL_SUCCESS);
    let desc = ImageDesc {
        width: 64,
        buffer,
        ..shape(IMAGE1D_BUFFER).1
    };
    let rgba8 = ImageFormat {
        order: CL_RGBA,
        data_type: CL_UNORM_INT8,
    };
    let (status, image) = f.try_image(0, rgba8, &desc, ptr::null_mut());
    assert_eq!(status, CL_SUCCESS);
    let model = Model {
        image_type: IMAGE1D_BUFFER,
        size: [64, 1, 1],
        element: 4,
        bytes: memory.clone(),
    };
    f.check(image, &model, "1D buffer image of a USE_HOST_PTR buffer");
    let (status, _) = f.try_image(0, rgba8, &desc, memory.as_mut_ptr().cast());
    assert_eq!(status, CL_INVALID_HOST_PTR, "host_ptr with a buffer");
    let (mut row_pitch, mut status) = (0usize, 0);
    // SAFETY: live objects; the row pitch pointer is valid.
    let mapped = unsafe {
        clEnqueueMapImage(
            f.q(),
            image,
            1,
            CL_MAP_READ,
            [3usize, 0, 0].as_ptr(),
            [5usize, 1, 1].as_ptr(),
            &mut row_pitch,
            ptr::null_mut(),
            0,
            ptr::null(),
            ptr::null_mut(),
            &mut status,
        )
    };
    assert_eq!(status, CL_SUCCESS);
    assert_eq!(mapped as usize, memory.as_ptr() as usize + 12);
    // SAFETY: the pointer the map returned; then the test's own objects.
    unsafe {
        assert_eq!(
            clEnqueueUnmapMemObject(f.q(), image, mapped, 0, ptr::null(), ptr::null_mut()),
            CL_SUCCESS
        );
        clFinish(f.q());
        clReleaseMemObject(image);
        clReleaseMemObject(buffer);
    }
}

#[test]
fn bad_inputs_get_the_spec_errors() {
    let f = Fixture::new();
    let rgba8 = ImageFormat {
        order: CL_RGBA,
        data_type: CL_UNORM_INT8,
    };
    let (_, d2) = shape(IMAGE2D);
    let (_, d3) = shape(IMAGE3D);
    let mut host = vec![0u8; 4096];
    let host_ptr: *mut c_void = host.as_mut_ptr().cast();
    let cases: Vec<(&str, u64, ImageFormat, ImageDesc, *mut c_void, cl_int)> = vec![
        (
            "undefined order",
            0,
            ImageFormat {
                order: 0x1234,
                ..rgba8
            },
            d2,
            ptr::null_mut(),
            CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
        ),
        (
            "undefined type",
            0,
            ImageFormat {
                data_type: 0x1234,
                ..rgba8
            },
            d2,
            ptr::null_mut(),
            CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
        ),
        (
            "RGB of bytes",
            0,
            ImageFormat {
                order: CL_RGB,
                ..rgba8
            },
            d2,
            ptr::null_mut(),
            CL_IMAGE_FORMAT_NOT_SUPPORTED,
        ),
        (
            "BGRA of floats",
            0,
            ImageFormat {
                order: CL_BGRA,
                data_type: CL_FLOAT,
            },
            d2,
            ptr::null_mut(),
            CL_IMAGE_FORMAT_NOT_SUPPORTED,
        ),
        (
            "unknown type",
            0,
            rgba8,
            ImageDesc {
                image_type: BUFFER,
                ..d2
            },
            ptr::null_mut(),
            CL_INVALID_IMAGE_DESCRIPTOR,
        ),
        (
            "zero width",
            0,
            rgba8,
            ImageDesc { width: 0, ..d2 },
            ptr::null_mut(),
            CL_INVALID_IMAGE_DESCRIPTOR,
        ),
        (
            "huge width",
            0,
            rgba8,
            ImageDesc {
                width: 1 << 30,
                ..d2
            },
            ptr::null_mut(),
            CL_INVALID_IMAGE_SIZE,
        ),
        (
            "huge depth",
            0,
            rgba8,
            ImageDesc {
                depth: 1 << 30,
                ..d3
            },
            ptr::null_mut(),
            CL_INVALID_IMAGE_SIZE,
        ),
        (
            "mip levels",
            0,
            rgba8,
            ImageDesc {
                num_mip_levels: 2,
                ..d2
            },
            ptr::null_mut(),
            CL_INVALID_IMAGE_DESCRIPTOR,
        ),
        (
            "pitch without host_ptr",
            0,
            rgba8,
            ImageDesc {
                row_pitch: 64,
                ..d2
            },
            ptr::null_mut(),
            CL_INVALID_IMAGE_DESCRIPTOR,
        ),
        (
            "pitch too small",
            CL_MEM_COPY_HOST_PTR,
            rgba8,
            ImageDesc { row_pitch: 8, ..d2 },
            host_ptr,
            CL_INVALID_IMAGE_DESCRIPTOR,
        ),
        (
            "pitch not whole texels",
            CL_MEM_COPY_HOST_PTR,
            rgba8,
            ImageDesc {
                row_pitch: 38,
                ..d2
            },
            host_ptr,
            CL_INVALID_IMAGE_DESCRIPTOR,
        ),
        (
            "host_ptr without flag",
            0,
            rgba8,
            d2,
            host_ptr,
            CL_INVALID_HOST_PTR,
        ),
        (
            "flag without host_ptr",
            CL_MEM_COPY_HOST_PTR,
            rgba8,
            d2,
            ptr::null_mut(),
            CL_INVALID_HOST_PTR,
        ),
        (
            "1D buffer without buffer",
            0,
            rgba8,
            shape(IMAGE1D_BUFFER).1,
            ptr::null_mut(),
            CL_INVALID_IMAGE_DESCRIPTOR,
        ),
        (
            "contradictory flags",
            CL_MEM_READ_ONLY | CL_MEM_READ_WRITE,
            rgba8,
            d2,
            ptr::null_mut(),
            CL_INVALID_VALUE,
        ),
    ];
    for (what, flags, format, desc, host_ptr, expected) in cases {
        let (status, image) = f.try_image(flags, format, &desc, host_ptr);
        assert_eq!(status, expected, "{what}");
        assert!(image.is_null(), "{what}");
    }
    // clCreateImage2D calls a zero size an invalid size.
    let mut status = 0;
    // SAFETY: a live context and a valid format.
    let image =
        unsafe { clCreateImage2D(f.ctx(), 0, &rgba8, 0, 4, 0, ptr::null_mut(), &mut status) };
    assert!(image.is_null());
    assert_eq!(status, CL_INVALID_IMAGE_SIZE);
    // A 2D image from a buffer (cl_khr_image2d_from_buffer) is not supported.
    let buffer = f.buffer(4096);
    let (status, _) = f.try_image(0, rgba8, &ImageDesc { buffer, ..d2 }, ptr::null_mut());
    assert_eq!(status, CL_INVALID_OPERATION);
    // A 1D buffer image larger than its buffer.
    let (status, _) = f.try_image(
        0,
        rgba8,
        &ImageDesc {
            width: 2000,
            buffer,
            ..shape(IMAGE1D_BUFFER).1
        },
        ptr::null_mut(),
    );
    assert_eq!(status, CL_INVALID_IMAGE_SIZE);

    // Commands on a 9x7 2D image.
    let (status, image) = f.try_image(CL_MEM_READ_WRITE, rgba8, &d2, ptr::null_mut());
    assert_eq!(status, CL_SUCCESS);
    let (status, other_format) = f.try_image(
        CL_MEM_READ_WRITE,
        ImageFormat {
            data_type: CL_UNSIGNED_INT8,
            ..rgba8
        },
        &d2,
        ptr::null_mut(),
    );
    assert_eq!(status, CL_SUCCESS);
    let out = vec![0u8; 4096];
    let read = |origin: [usize; 3], region: [usize; 3], pitches: [usize; 2], target: cl_mem| {
        // SAFETY: `out` is large enough for any of these regions.
        unsafe {
            clEnqueueReadImage(
                f.q(),
                target,
                1,
                origin.as_ptr(),
                region.as_ptr(),
                pitches[0],
                pitches[1],
                out.as_ptr().cast_mut().cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        }
    };
    assert_eq!(read([0; 3], [9, 7, 1], [0, 0], image), CL_SUCCESS);
    assert_eq!(
        read([1, 0, 0], [9, 7, 1], [0, 0], image),
        CL_INVALID_VALUE,
        "past the width"
    );
    assert_eq!(
        read([0; 3], [9, 7, 2], [0, 0], image),
        CL_INVALID_VALUE,
        "region[2] of a 2D image"
    );
    assert_eq!(
        read([0, 0, 1], [9, 7, 1], [0, 0], image),
        CL_INVALID_VALUE,
        "origin[2] of a 2D image"
    );
    assert_eq!(
        read([0; 3], [0, 7, 1], [0, 0], image),
        CL_INVALID_VALUE,
        "a zero in the region"
    );
    assert_eq!(
        read([0; 3], [9, 7, 1], [16, 0], image),
        CL_INVALID_VALUE,
        "row pitch too small"
    );
    assert_eq!(
        read([0; 3], [9, 7, 1], [0, 4096], image),
        CL_INVALID_VALUE,
        "slice pitch of a 2D image"
    );
    assert_eq!(
        read([0; 3], [4, 1, 1], [0, 0], buffer),
        CL_INVALID_MEM_OBJECT,
        "a buffer"
    );
    // SAFETY: NULL pointers where the spec forbids them, live objects.
    unsafe {
        assert_eq!(
            clEnqueueReadImage(
                f.q(),
                image,
                1,
                [0usize; 3].as_ptr(),
                [1usize, 1, 1].as_ptr(),
                0,
                0,
                ptr::null_mut(),
                0,
                ptr::null(),
                ptr::null_mut()
            ),
            CL_INVALID_VALUE
        );
        assert_eq!(
            clEnqueueFillImage(
                f.q(),
                image,
                ptr::null(),
                [0usize; 3].as_ptr(),
                [1usize, 1, 1].as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut()
            ),
            CL_INVALID_VALUE
        );
    }
    // Overlapping copies within one image, and formats that differ.
    let copy = |src: cl_mem, dst: cl_mem, from: [usize; 3], to: [usize; 3], region: [usize; 3]| {
        // SAFETY: live images; the arrays hold three values.
        unsafe {
            clEnqueueCopyImage(
                f.q(),
                src,
                dst,
                from.as_ptr(),
                to.as_ptr(),
                region.as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        }
    };
    assert_eq!(
        copy(image, image, [0; 3], [2, 2, 0], [4, 4, 1]),
        CL_MEM_COPY_OVERLAP
    );
    assert_eq!(copy(image, image, [0; 3], [4, 0, 0], [4, 4, 1]), CL_SUCCESS);
    assert_eq!(
        copy(image, other_format, [0; 3], [0; 3], [4, 4, 1]),
        CL_IMAGE_FORMAT_MISMATCH
    );
    // Image to buffer past the buffer's end.
    // SAFETY: live objects, arrays of three.
    let status = unsafe {
        clEnqueueCopyImageToBuffer(
            f.q(),
            image,
            buffer,
            [0usize; 3].as_ptr(),
            [9usize, 7, 1].as_ptr(),
            4000,
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_eq!(status, CL_INVALID_VALUE);
    // SAFETY: as above, with the image where a buffer belongs.
    let status = unsafe {
        clEnqueueCopyBufferToImage(
            f.q(),
            image,
            image,
            0,
            [0usize; 3].as_ptr(),
            [1usize, 1, 1].as_ptr(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_eq!(status, CL_INVALID_MEM_OBJECT);
    // Host access flags.
    let (_, write_only) = f.try_image(CL_MEM_HOST_WRITE_ONLY, rgba8, &d2, ptr::null_mut());
    assert_eq!(
        read([0; 3], [1, 1, 1], [0, 0], write_only),
        CL_INVALID_OPERATION
    );
    let (_, read_only) = f.try_image(CL_MEM_HOST_READ_ONLY, rgba8, &d2, ptr::null_mut());
    // SAFETY: a live image; `out` covers one texel.
    let status = unsafe {
        clEnqueueWriteImage(
            f.q(),
            read_only,
            1,
            [0usize; 3].as_ptr(),
            [1usize, 1, 1].as_ptr(),
            0,
            0,
            out.as_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_eq!(status, CL_INVALID_OPERATION);
    // A 3D image map needs a slice pitch pointer.
    let (_, volume) = f.try_image(0, rgba8, &d3, ptr::null_mut());
    let (mut row_pitch, mut status) = (0usize, 0);
    // SAFETY: live objects; the slice pitch pointer is NULL on purpose.
    let mapped = unsafe {
        clEnqueueMapImage(
            f.q(),
            volume,
            1,
            CL_MAP_READ,
            [0usize; 3].as_ptr(),
            [1usize, 1, 1].as_ptr(),
            &mut row_pitch,
            ptr::null_mut(),
            0,
            ptr::null(),
            ptr::null_mut(),
            &mut status,
        )
    };
    assert!(mapped.is_null());
    assert_eq!(status, CL_INVALID_VALUE);
    // SAFETY: the test's own objects.
    unsafe {
        clFinish(f.q());
        for mem in [image, other_format, buffer, write_only, read_only, volume] {
            clReleaseMemObject(mem);
        }
    }
}

#[test]
fn samplers_keep_their_settings() {
    let f = Fixture::new();
    let sampler_info = |sampler: Sampler, name: u32| -> u64 {
        let mut value = 0u64;
        let mut size = 0usize;
        // SAFETY: room for 8 bytes; each of these values is at most that.
        let status = unsafe {
            clGetSamplerInfo(
                sampler,
                name,
                8,
                ptr::from_mut(&mut value).cast(),
                &mut size,
            )
        };
        assert_eq!(status, CL_SUCCESS, "sampler info {name:#x}");
        assert!(size <= 8);
        value
    };
    let mut status = 0;
    // SAFETY: a live context.
    let sampler =
        unsafe { clCreateSampler(f.ctx(), 1, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &mut status) };
    assert_eq!(status, CL_SUCCESS);
    assert_eq!(sampler_info(sampler, CL_SAMPLER_NORMALIZED_COORDS), 1);
    assert_eq!(
        sampler_info(sampler, CL_SAMPLER_ADDRESSING_MODE),
        u64::from(CL_ADDRESS_REPEAT)
    );
    assert_eq!(
        sampler_info(sampler, CL_SAMPLER_FILTER_MODE),
        u64::from(CL_FILTER_LINEAR)
    );
    assert_eq!(sampler_info(sampler, CL_SAMPLER_CONTEXT), f.ctx() as u64);
    assert_eq!(sampler_info(sampler, CL_SAMPLER_REFERENCE_COUNT), 1);
    // SAFETY: the live sampler.
    unsafe { assert_eq!(clRetainSampler(sampler), CL_SUCCESS) };
    assert_eq!(sampler_info(sampler, CL_SAMPLER_REFERENCE_COUNT), 2);
    // SAFETY: two releases for two references.
    unsafe {
        assert_eq!(clReleaseSampler(sampler), CL_SUCCESS);
        assert_eq!(clReleaseSampler(sampler), CL_SUCCESS);
    }
    // A property list, defaults for what it leaves out.
    let properties = [
        u64::from(CL_SAMPLER_FILTER_MODE),
        u64::from(CL_FILTER_LINEAR),
        0,
    ];
    // SAFETY: a zero-terminated list.
    let sampler =
        unsafe { clCreateSamplerWithProperties(f.ctx(), properties.as_ptr(), &mut status) };
    assert_eq!(status, CL_SUCCESS);
    assert_eq!(sampler_info(sampler, CL_SAMPLER_NORMALIZED_COORDS), 1);
    assert_eq!(
        sampler_info(sampler, CL_SAMPLER_ADDRESSING_MODE),
        u64::from(CL_ADDRESS_CLAMP)
    );
    assert_eq!(
        sampler_info(sampler, CL_SAMPLER_FILTER_MODE),
        u64::from(CL_FILTER_LINEAR)
    );
    // SAFETY: the live sampler.
    unsafe { assert_eq!(clReleaseSampler(sampler), CL_SUCCESS) };

    let create = |normalized: u32, addressing: u32, filter: u32| {
        let mut status = 0;
        // SAFETY: a live context.
        let sampler =
            unsafe { clCreateSampler(f.ctx(), normalized, addressing, filter, &mut status) };
        if !sampler.is_null() {
            // SAFETY: the sampler just made.
            unsafe { clReleaseSampler(sampler) };
        }
        status
    };
    assert_eq!(create(0, CL_ADDRESS_NONE, CL_FILTER_NEAREST), CL_SUCCESS);
    assert_eq!(
        create(1, 0x1135, CL_FILTER_NEAREST),
        CL_INVALID_VALUE,
        "addressing"
    );
    assert_eq!(
        create(1, CL_ADDRESS_CLAMP, 0x1142),
        CL_INVALID_VALUE,
        "filter"
    );
    assert_eq!(
        create(2, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST),
        CL_INVALID_VALUE,
        "normalized"
    );
    assert_eq!(
        create(0, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST),
        CL_INVALID_VALUE,
        "repeat unnormalized"
    );
    let repeated = [
        u64::from(CL_SAMPLER_FILTER_MODE),
        u64::from(CL_FILTER_LINEAR),
        u64::from(CL_SAMPLER_FILTER_MODE),
        u64::from(CL_FILTER_NEAREST),
        0,
    ];
    // SAFETY: a zero-terminated list.
    let sampler = unsafe { clCreateSamplerWithProperties(f.ctx(), repeated.as_ptr(), &mut status) };
    assert!(sampler.is_null());
    assert_eq!(status, CL_INVALID_VALUE);
    let mut value = 0u32;
    // SAFETY: a NULL sampler handle.
    let status = unsafe {
        clGetSamplerInfo(
            ptr::null_mut(),
            CL_SAMPLER_FILTER_MODE,
            4,
            ptr::from_mut(&mut value).cast(),
            ptr::null_mut(),
        )
    };
    assert_eq!(status, CL_INVALID_SAMPLER);
}

#[test]
fn non_blocking_transfers_and_migration_complete_in_order() {
    let f = Fixture::new();
    let format = ImageFormat {
        order: CL_RGBA,
        data_type: CL_FLOAT,
    };
    let (size, desc) = shape(IMAGE2D_ARRAY);
    let (status, image) = f.try_image(CL_MEM_READ_WRITE, format, &desc, ptr::null_mut());
    assert_eq!(status, CL_SUCCESS);
    let data = Bytes(7).take(size.iter().product::<usize>() * 16);
    let mut back = vec![0u8; data.len()];
    // SAFETY: non-blocking transfers whose host memory outlives the
    // clFinish below; one image, migrated to its own device.
    unsafe {
        let status = clEnqueueWriteImage(
            f.q(),
            image,
            0,
            [0usize; 3].as_ptr(),
            size.as_ptr(),
            0,
            0,
            data.as_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        );
        assert_eq!(status, CL_SUCCESS);
        let status =
            clEnqueueMigrateMemObjects(f.q(), 1, &image, 0, 0, ptr::null(), ptr::null_mut());
        assert_eq!(status, CL_SUCCESS);
        let status = clEnqueueReadImage(
            f.q(),
            image,
            0,
            [0usize; 3].as_ptr(),
            size.as_ptr(),
            0,
            0,
            back.as_mut_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        );
        assert_eq!(status, CL_SUCCESS);
        assert_eq!(clFinish(f.q()), CL_SUCCESS);
    }
    assert_eq!(back, data);

    // A non-blocking read held back by a user event, then a non-blocking
    // write from the memory it fills: the write takes the read's data.
    let (status, copy) = f.try_image(CL_MEM_READ_WRITE, format, &desc, ptr::null_mut());
    assert_eq!(status, CL_SUCCESS);
    let mut relay = vec![0u8; data.len()];
    let mut status = 0;
    // SAFETY: a live context; the events and host memory outlive the
    // clFinish below.
    unsafe {
        let gate = clCreateUserEvent(f.ctx(), &mut status);
        assert_eq!(status, CL_SUCCESS);
        let status = clEnqueueReadImage(
            f.q(),
            image,
            0,
            [0usize; 3].as_ptr(),
            size.as_ptr(),
            0,
            0,
            relay.as_mut_ptr().cast(),
            1,
            ptr::from_ref(&gate).cast(),
            ptr::null_mut(),
        );
        assert_eq!(status, CL_SUCCESS);
        let status = clEnqueueWriteImage(
            f.q(),
            copy,
            0,
            [0usize; 3].as_ptr(),
            size.as_ptr(),
            0,
            0,
            relay.as_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        );
        assert_eq!(status, CL_SUCCESS);
        assert_eq!(clSetUserEventStatus(gate, 0), CL_SUCCESS);
        assert_eq!(clFinish(f.q()), CL_SUCCESS);
        clReleaseEvent(gate);
    }
    let model = Model {
        image_type: IMAGE2D_ARRAY,
        size,
        element: 16,
        bytes: data,
    };
    f.check(copy, &model, "written from a read's destination");
    // SAFETY: the test's own images.
    unsafe {
        clReleaseMemObject(image);
        clReleaseMemObject(copy);
    }
}

#[test]
fn copies_between_image_types_keep_texel_order() {
    let f = Fixture::new();
    let format = ImageFormat {
        order: CL_RGBA,
        data_type: CL_UNSIGNED_INT16,
    };
    let make = |image_type: u32,
                width: usize,
                height: usize,
                depth: usize,
                layers: usize,
                buffer: cl_mem| {
        let desc = ImageDesc {
            width,
            height,
            depth,
            array_size: layers,
            buffer,
            ..shape(image_type).1
        };
        let desc = ImageDesc { image_type, ..desc };
        let (status, image) = f.try_image(CL_MEM_READ_WRITE, format, &desc, ptr::null_mut());
        assert_eq!(status, CL_SUCCESS, "type {image_type:#x}");
        image
    };
    let copy = |src: cl_mem, dst: cl_mem, from: [usize; 3], to: [usize; 3], region: [usize; 3]| {
        // SAFETY: live images of one format; the arrays hold three values.
        let status = unsafe {
            clEnqueueCopyImage(
                f.q(),
                src,
                dst,
                from.as_ptr(),
                to.as_ptr(),
                region.as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        assert_eq!(status, CL_SUCCESS, "copy {from:?} -> {to:?} of {region:?}");
    };
    let mut rng = Bytes(1234);

    // 3D (6x5x4) -> 2D array of 4 layers: slice z becomes layer z.
    let volume = make(IMAGE3D, 6, 5, 4, 0, ptr::null_mut());
    let layers = make(IMAGE2D_ARRAY, 6, 5, 0, 4, ptr::null_mut());
    let data = rng.take(6 * 5 * 4 * 8);
    f.write(volume, [0; 3], [6, 5, 4], [0, 0], &data);
    copy(volume, layers, [0; 3], [0; 3], [6, 5, 4]);
    let model = Model {
        image_type: IMAGE2D_ARRAY,
        size: [6, 5, 4],
        element: 8,
        bytes: data.clone(),
    };
    f.check(layers, &model, "3D to 2D array");

    // 2D (6x5) -> layer 2 of the array, and a box of layer 1 -> the 2D image.
    let flat = make(IMAGE2D, 6, 5, 0, 0, ptr::null_mut());
    let picture = rng.take(6 * 5 * 8);
    f.write(flat, [0; 3], [6, 5, 1], [0, 0], &picture);
    copy(flat, layers, [0; 3], [0, 0, 2], [6, 5, 1]);
    let mut model = model;
    model.set([0, 0, 2], [6, 5, 1], &picture);
    f.check(layers, &model, "2D into a layer");
    let mut flat_model = Model {
        image_type: IMAGE2D,
        size: [6, 5, 1],
        element: 8,
        bytes: picture,
    };
    let block = model.get([1, 1, 1], [3, 2, 1]);
    copy(layers, flat, [1, 1, 1], [2, 3, 0], [3, 2, 1]);
    flat_model.set([2, 3, 0], [3, 2, 1], &block);
    f.check(flat, &flat_model, "a layer's box into 2D");

    // 1D <-> 1D buffer image, both ways, at offsets.
    let line = make(IMAGE1D, 13, 0, 0, 0, ptr::null_mut());
    let backing = f.buffer(13 * 8);
    let buffered = make(IMAGE1D_BUFFER, 13, 0, 0, 0, backing);
    let texels = rng.take(13 * 8);
    let other = rng.take(13 * 8);
    f.write(line, [0; 3], [13, 1, 1], [0, 0], &texels);
    f.write(buffered, [0; 3], [13, 1, 1], [0, 0], &other);
    copy(line, buffered, [2, 0, 0], [5, 0, 0], [6, 1, 1]);
    let mut buffered_model = Model {
        image_type: IMAGE1D_BUFFER,
        size: [13, 1, 1],
        element: 8,
        bytes: other,
    };
    buffered_model.set([5, 0, 0], [6, 1, 1], &texels[2 * 8..8 * 8]);
    f.check(buffered, &buffered_model, "1D into a 1D buffer image");
    copy(buffered, line, [0; 3], [7, 0, 0], [6, 1, 1]);
    let mut line_model = Model {
        image_type: IMAGE1D,
        size: [13, 1, 1],
        element: 8,
        bytes: texels,
    };
    line_model.set([7, 0, 0], [6, 1, 1], &buffered_model.bytes[..6 * 8]);
    f.check(line, &line_model, "a 1D buffer image into 1D");
    // The 1D buffer image is the buffer's memory.
    let mut raw = vec![0u8; 13 * 8];
    // SAFETY: a blocking read of the whole buffer.
    let status = unsafe {
        clEnqueueReadBuffer(
            f.q(),
            backing,
            1,
            0,
            raw.len(),
            raw.as_mut_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_eq!(status, CL_SUCCESS);
    assert_eq!(raw, buffered_model.bytes);

    // SAFETY: the test's own objects.
    unsafe {
        clFinish(f.q());
        for mem in [volume, layers, flat, line, buffered, backing] {
            clReleaseMemObject(mem);
        }
    }
}
