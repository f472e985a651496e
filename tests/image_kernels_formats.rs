//! Every image format clGetSupportedImageFormats lists, for every image
//! type, written and read by kernels through the loader and the C ABI
//! (validation fatal): `write_image{f,i,ui}` (and `write_imageh` where
//! cl_khr_fp16 is reported) of values chosen to hit rounding ties,
//! saturation, NaN, -0.0 and out-of-range integers, read back with
//! clEnqueueReadImage and compared with the host model's encoding; and
//! samplerless `read_image{f,i,ui}` (and `read_imageh`) of random bytes
//! written with clEnqueueWriteImage, compared with the model's decoding.

mod common;

use common::fp16::{half_to_f32, to_half_rte};
use common::image_api::*;
use common::image_model::{self as model, Dim, Format, Kind, Texel};
use opencl3::kernel::Kernel;
use opencl3::program::Program;

/// The extents each type is tested at: (width, height, depth) and layers.
fn shape(dim: Dim) -> ([usize; 3], usize) {
    match dim {
        Dim::D1 => ([13, 1, 1], 1),
        Dim::D1Buffer => ([37, 1, 1], 1),
        Dim::D1Array => ([11, 1, 1], 3),
        Dim::D2 => ([9, 7, 1], 1),
        Dim::D2Array => ([7, 5, 1], 3),
        Dim::D3 => ([6, 5, 4], 1),
    }
}

/// The OpenCL C type of an image and the integer coordinate of work-item
/// `i` (texels in the model's packed order, `sz` the extents).
fn dim_source(dim: Dim) -> (&'static str, &'static str, &'static str) {
    const X: &str = "int c = i;";
    const XY: &str = "int2 c = (int2)(i % sz.x, i / sz.x);";
    const XYZ: &str = "int4 c = (int4)(i % sz.x, (i / sz.x) % sz.y, i / (sz.x * sz.y), 0);";
    match dim {
        Dim::D1 => ("image1d_t", "1d", X),
        Dim::D1Buffer => ("image1d_buffer_t", "1db", X),
        Dim::D1Array => ("image1d_array_t", "1da", XY),
        Dim::D2 => ("image2d_t", "2d", XY),
        Dim::D2Array => ("image2d_array_t", "2da", XYZ),
        Dim::D3 => ("image3d_t", "3d", XYZ),
    }
}

/// The depth image type of the same dimensionality, if there is one.
fn depth_type(dim: Dim) -> Option<&'static str> {
    match dim {
        Dim::D2 => Some("image2d_depth_t"),
        Dim::D2Array => Some("image2d_array_depth_t"),
        _ => None,
    }
}

/// A write and a read kernel per image type and built-in suffix.
fn source(suffixes: &[(&str, &str)], prelude: &str) -> String {
    let mut s = String::from(prelude);
    s.push_str("#ifdef cl_khr_3d_image_writes\n#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable\n#endif\n");
    for dim in DIMS {
        let (ty, tag, coord) = dim_source(dim);
        if let (Some(depth_ty), true) = (depth_type(dim), suffixes[0].0 == "f") {
            // Depth images read and write one float.
            s.push_str(&format!(
                "kernel void write_f_{tag}_depth(write_only {depth_ty} img, global const float4 *v, int4 sz) {{\n\
                 int i = get_global_id(0); {coord} write_imagef(img, c, v[i].x); }}\n\
                 kernel void read_f_{tag}_depth(read_only {depth_ty} img, global float4 *out, int4 sz) {{\n\
                 int i = get_global_id(0); {coord} out[i] = (float4)(read_imagef(img, c), 0.0f, 0.0f, 0.0f); }}\n"
            ));
        }
        for (suffix, element) in suffixes {
            s.push_str(&format!(
                "kernel void write_{suffix}_{tag}(write_only {ty} img, global const {element}4 *v, int4 sz) {{\n\
                 int i = get_global_id(0); {coord} write_image{suffix}(img, c, v[i]); }}\n\
                 kernel void read_{suffix}_{tag}(read_only {ty} img, global {element}4 *out, int4 sz) {{\n\
                 int i = get_global_id(0); {coord} out[i] = read_image{suffix}(img, c); }}\n\
                 kernel void rw_{suffix}_{tag}(read_write {ty} img, global {element}4 *out, int4 sz) {{\n\
                 int i = get_global_id(0); {coord} {element}4 v = read_image{suffix}(img, c);\n\
                 out[i] = v; write_image{suffix}(img, c, v); }}\n"
            ));
        }
    }
    s
}

fn kernel_name(op: &str, suffix: &str, dim: Dim, format: Format) -> String {
    let (_, tag, _) = dim_source(dim);
    let depth = if format.order == model::CL_DEPTH {
        "_depth"
    } else {
        ""
    };
    format!("{op}_{suffix}_{tag}{depth}")
}

/// The image types the half built-ins are tested on.
const HALF_DIMS: [Dim; 3] = [Dim::D1Buffer, Dim::D2, Dim::D3];

struct Programs {
    main: Program,
    half: Option<Program>,
}

fn programs(f: &Fixture) -> Programs {
    let main = build(
        &f.context,
        &source(&[("f", "float"), ("i", "int"), ("ui", "uint")], ""),
        "-cl-std=CL3.0",
    );
    let half = f.extensions().contains("cl_khr_fp16").then(|| {
        build(
            &f.context,
            &source(
                &[("h", "half")],
                "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n",
            ),
            "-cl-std=CL3.0",
        )
    });
    Programs { main, half }
}

/// Floats for `write_imagef`: exact and tied products with each
/// normalized type's maximum, values beyond the range, NaN, infinities,
/// signed zeros, half's edges (its largest value, the tie that overflows,
/// subnormals) and plain fractions.
fn float_pool() -> Vec<f32> {
    let mut pool = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        0.25,
        0.75,
        1.0 / 3.0,
        -1.0 / 3.0,
        1.5,
        -1.5,
        2.0,
        -2.0,
        1e-8,
        -1e-8,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        65504.0,
        65520.0,
        -65520.0,
        5.960_464_5e-8,
        2.980_232_2e-8,
        1.0 - f32::EPSILON,
        1.000_001,
        -1.000_001,
        1e30,
        -1e30,
    ];
    for k in [0u32, 1, 2, 7, 100, 127, 128, 200, 254] {
        let k = k as f32;
        pool.push((k + 0.5) / 255.0);
        pool.push((k + 0.5) / 127.0);
        pool.push(-(k + 0.5) / 127.0);
        pool.push((k + 0.5) / 31.0);
        pool.push((k + 0.5) / 1023.0);
        pool.push(k / 255.0);
    }
    for k in [0u32, 1, 1000, 32766, 65534] {
        let k = k as f32;
        pool.push((k + 0.5) / 65535.0);
        pool.push((k + 0.5) / 32767.0);
        pool.push(-(k + 0.5) / 32767.0);
    }
    pool
}

fn int_pool() -> Vec<i32> {
    vec![
        0,
        1,
        -1,
        127,
        128,
        -128,
        -129,
        255,
        256,
        32767,
        32768,
        -32768,
        -32769,
        65535,
        65536,
        100_000,
        -100_000,
        i32::MAX,
        i32::MIN,
        7,
        -7,
    ]
}

fn uint_pool() -> Vec<u32> {
    vec![
        0,
        1,
        7,
        127,
        128,
        255,
        256,
        32767,
        32768,
        65535,
        65536,
        100_000,
        0x8000_0000,
        u32::MAX,
    ]
}

fn sizes_arg(image: &Image) -> [i32; 4] {
    let r = image.region();
    [r[0] as i32, r[1] as i32, r[2] as i32, 0]
}

/// Whether two stored texels agree: bit for bit, except that a float or
/// half channel the model stores as NaN may hold any NaN (the spec does not
/// keep NaN payloads through conversions) and bits the format leaves
/// undefined are ignored.
fn texels_agree(format: Format, got: &[u8], want: &[u8]) -> bool {
    match format.data_type {
        model::CL_FLOAT => got.chunks_exact(4).zip(want.chunks_exact(4)).all(|(g, w)| {
            let (g, w) = (
                f32::from_le_bytes(g.try_into().unwrap()),
                f32::from_le_bytes(w.try_into().unwrap()),
            );
            g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan())
        }),
        model::CL_HALF_FLOAT => got.chunks_exact(2).zip(want.chunks_exact(2)).all(|(g, w)| {
            let (g, w) = (
                u16::from_le_bytes(g.try_into().unwrap()),
                u16::from_le_bytes(w.try_into().unwrap()),
            );
            g == w || (half_to_f32(g).is_nan() && half_to_f32(w).is_nan())
        }),
        // Bit 15 is undefined.
        model::CL_UNORM_SHORT_555 => got[0] == want[0] && got[1] & 0x7f == want[1] & 0x7f,
        // Bits 31:30 are undefined.
        model::CL_UNORM_INT_101010 => got[..3] == want[..3] && got[3] & 0x3f == want[3] & 0x3f,
        _ => got == want,
    }
}

/// Whether a read value agrees with the model: bit for bit (so -0.0 is
/// told from 0.0), NaN matching any NaN; a depth image's read gives its
/// `.x` alone.
///
/// The normalized types are the exception. OpenCL C 3.0 s8.3.1.1 lets the
/// conversion of a normalized integer to float be off by up to 1.5 ulp
/// of the exact quotient, except that 0 and the extremes (0, max and
/// -max, and -max - 1 for snorm) must convert exactly; the Vulkan view
/// a kernel reads through multiplies by the reciprocal, which is within
/// one ulp of the model's correctly rounded quotient. A value within one
/// ulp of the correctly rounded one is within 1.5 ulp of the exact one, so
/// a difference of one in the bits is allowed there and nowhere else.
///
/// sRGB colour channels are decoded by the Vulkan sRGB view, which the
/// Vulkan spec lets approximate the curve (lavapipe's is off by up to a few
/// percent near 0). The OpenCL spec gives no ulp bound for it; the
/// conformance suite re-encodes the value read to sRGB and allows half a
/// step of the 8-bit encoding, which still tells each stored value from
/// its neighbours, and so does this test.
fn reads_agree(format: Format, got: Texel, want: Texel) -> bool {
    if format.is_srgb() {
        let (g, w) = (got.float(), want.float());
        let colour_ok = (0..3).all(|c| {
            let step = |x: f32| f64::from(model::linear_to_srgb(x)) * 255.0;
            (step(g[c]) - step(w[c])).abs() <= 0.5
        });
        return colour_ok && g[3].to_bits().abs_diff(w[3].to_bits()) <= 1;
    }
    let normalized = format.kind() == Kind::Float
        && !matches!(format.data_type, model::CL_FLOAT | model::CL_HALF_FLOAT);
    let lanes = if format.order == model::CL_DEPTH {
        1
    } else {
        4
    };
    match (got, want) {
        (Texel::Float(g), Texel::Float(w)) => g.iter().zip(&w).take(lanes).all(|(g, w)| {
            let exact_endpoint = matches!(*w, 0.0 | 1.0 | -1.0);
            g.to_bits() == w.to_bits()
                || (g.is_nan() && w.is_nan())
                || (normalized
                    && !exact_endpoint
                    && g.signum() == w.signum()
                    && g.to_bits().abs_diff(w.to_bits()) <= 1)
        }),
        _ => got == want,
    }
}

/// The kernel to run for a format of `kind`, or `None` for `half` where
/// the device has no cl_khr_fp16.
fn kernel_for(
    programs: &Programs,
    kind: Kind,
    half: bool,
    depth: bool,
) -> Option<(&Program, &'static str)> {
    if half {
        // read_imageh and write_imageh have no depth forms.
        if depth {
            return None;
        }
        return programs.half.as_ref().map(|p| (p, "h"));
    }
    Some((
        &programs.main,
        match kind {
            Kind::Float => "f",
            Kind::Int => "i",
            Kind::Uint => "ui",
        },
    ))
}

/// A kernel writes every texel of an image of `format`; the bytes must be
/// the model's encoding of what it wrote.
fn check_write(f: &Fixture, programs: &Programs, dim: Dim, format: Format, half: bool) {
    let Some((program, suffix)) = kernel_for(
        programs,
        format.kind(),
        half,
        format.order == model::CL_DEPTH,
    ) else {
        return;
    };
    let (size, layers) = shape(dim);
    let image = f.image(CL_MEM_WRITE_ONLY, format, dim, size, layers);
    let n = image.texels();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ u64::from(format.order << 16 | format.data_type));
    let floats = float_pool();
    let ints = int_pool();
    let uints = uint_pool();
    let mut values = Vec::with_capacity(n);
    let mut payload = Vec::new();
    for i in 0..n {
        // The first texels walk each pool in order so that every value is
        // written at least once; the rest are random picks.
        let mut pick = |len: usize, lane: usize| {
            if i * 4 + lane < len {
                i * 4 + lane
            } else {
                rng.below(len)
            }
        };
        let texel = match format.kind() {
            Kind::Float => {
                let v: [f32; 4] = std::array::from_fn(|lane| floats[pick(floats.len(), lane)]);
                if half {
                    // write_imageh takes halves: the value is what the
                    // float rounds to.
                    let h = v.map(|x| to_half_rte(f64::from(x)));
                    for x in h {
                        payload.extend_from_slice(&x.to_le_bytes());
                    }
                    Texel::Float(h.map(half_to_f32))
                } else {
                    for x in v {
                        payload.extend_from_slice(&x.to_le_bytes());
                    }
                    Texel::Float(v)
                }
            }
            Kind::Int => {
                let v: [i32; 4] = std::array::from_fn(|lane| ints[pick(ints.len(), lane)]);
                v.iter()
                    .for_each(|x| payload.extend_from_slice(&x.to_le_bytes()));
                Texel::Int(v)
            }
            Kind::Uint => {
                let v: [u32; 4] = std::array::from_fn(|lane| uints[pick(uints.len(), lane)]);
                v.iter()
                    .for_each(|x| payload.extend_from_slice(&x.to_le_bytes()));
                Texel::Uint(v)
            }
        };
        values.push(texel);
    }
    let input = f.buffer(payload.len());
    f.write_buffer(input, &payload);
    let kernel =
        Kernel::create(program, &kernel_name("write", suffix, dim, format)).expect("kernel");
    assert_eq!(
        set_arg(&kernel, 0, &image.mem),
        CL_SUCCESS,
        "{dim:?} {format:x?} image argument"
    );
    arg(&kernel, 1, &input);
    arg(&kernel, 2, &sizes_arg(&image));
    run(&f.queue, &kernel, n);
    f.release(input);
    let element = format.element_size();
    let got = f.read_image(&image, n * element);
    for (i, value) in values.iter().enumerate() {
        let want = format.encode(*value);
        let texel = &got[i * element..(i + 1) * element];
        assert!(
            texels_agree(format, texel, &want),
            "{dim:?} {format:x?} write_image{suffix} texel {i} of {value:?}: stored {texel:02x?}, the model stores {want:02x?}"
        );
    }
}

/// Random bytes in an image of `format`; a kernel reads every texel with
/// integer coordinates and no sampler; the values must be the model's
/// decoding.
fn check_read(f: &Fixture, programs: &Programs, dim: Dim, format: Format, half: bool) {
    let Some((program, suffix)) = kernel_for(
        programs,
        format.kind(),
        half,
        format.order == model::CL_DEPTH,
    ) else {
        return;
    };
    let (size, layers) = shape(dim);
    let image = f.image(CL_MEM_READ_ONLY, format, dim, size, layers);
    let n = image.texels();
    let element = format.element_size();
    let mut rng = Rng(0x51_7cc1_b727_220a ^ u64::from(format.order << 16 | format.data_type));
    let bytes = rng.bytes(n * element);
    f.write_image(&image, &bytes);
    let lane = if half { 2 } else { 4 };
    let output = f.buffer(n * 4 * lane);
    let kernel =
        Kernel::create(program, &kernel_name("read", suffix, dim, format)).expect("kernel");
    assert_eq!(
        set_arg(&kernel, 0, &image.mem),
        CL_SUCCESS,
        "{dim:?} {format:x?} image argument"
    );
    arg(&kernel, 1, &output);
    arg(&kernel, 2, &sizes_arg(&image));
    run(&f.queue, &kernel, n);
    let out = f.read_buffer(output, n * 4 * lane);
    f.release(output);
    for i in 0..n {
        let want = format.decode(&bytes[i * element..]);
        let raw = &out[i * 4 * lane..(i + 1) * 4 * lane];
        let got = match format.kind() {
            Kind::Float if half => Texel::Float(std::array::from_fn(|c| {
                half_to_f32(u16::from_le_bytes([raw[2 * c], raw[2 * c + 1]]))
            })),
            Kind::Float => Texel::Float(std::array::from_fn(|c| {
                f32::from_le_bytes(raw[4 * c..4 * c + 4].try_into().unwrap())
            })),
            Kind::Int => Texel::Int(std::array::from_fn(|c| {
                i32::from_le_bytes(raw[4 * c..4 * c + 4].try_into().unwrap())
            })),
            Kind::Uint => Texel::Uint(std::array::from_fn(|c| {
                u32::from_le_bytes(raw[4 * c..4 * c + 4].try_into().unwrap())
            })),
        };
        // read_imageh returns the float value rounded to half.
        let want = if half {
            Texel::Float(want.float().map(|x| half_to_f32(to_half_rte(f64::from(x)))))
        } else {
            want
        };
        assert!(
            reads_agree(format, got, want),
            "{dim:?} {format:x?} read_image{suffix} texel {i} of bytes {:02x?}: got {got:?}, the model reads {want:?}",
            &bytes[i * element..(i + 1) * element]
        );
    }
}

#[test]
fn kernels_write_every_listed_format_as_the_model_encodes() {
    let f = Fixture::new();
    let programs = programs(&f);
    if programs.half.is_none() {
        eprintln!("write_imageh not tested: the device does not report cl_khr_fp16");
    }
    for dim in DIMS {
        let formats = f.formats(CL_MEM_WRITE_ONLY, dim);
        eprintln!("{dim:?}: {} writable formats", formats.len());
        assert!(!formats.is_empty(), "{dim:?} lists no writable format");
        for format in formats {
            check_write(&f, &programs, dim, format, false);
            // The half built-ins convert as the float ones do whatever the
            // image type; one type of each coordinate width keeps the run
            // short.
            if format.kind() == Kind::Float && HALF_DIMS.contains(&dim) {
                check_write(&f, &programs, dim, format, true);
            }
        }
    }
}

#[test]
fn kernels_read_every_listed_format_as_the_model_decodes() {
    let f = Fixture::new();
    let programs = programs(&f);
    for dim in DIMS {
        let formats = f.formats(CL_MEM_READ_ONLY, dim);
        let mut orders: Vec<u32> = formats.iter().map(|f| f.order).collect();
        orders.dedup();
        eprintln!(
            "{dim:?}: {} readable formats, orders {orders:x?}",
            formats.len()
        );
        assert!(!formats.is_empty(), "{dim:?} lists no readable format");
        for format in formats {
            check_read(&f, &programs, dim, format, false);
            // The half built-ins convert as the float ones do whatever the
            // image type; one type of each coordinate width keeps the run
            // short.
            if format.kind() == Kind::Float && HALF_DIMS.contains(&dim) {
                check_read(&f, &programs, dim, format, true);
            }
        }
    }
}

/// A 16-byte `float4`, `int4` or `uint4` as the texel of `kind`.
fn texel_of(kind: Kind, raw: &[u8]) -> Texel {
    let word = |c: usize| u32::from_le_bytes(raw[4 * c..4 * c + 4].try_into().unwrap());
    match kind {
        Kind::Float => Texel::Float(std::array::from_fn(|c| f32::from_bits(word(c)))),
        Kind::Int => Texel::Int(std::array::from_fn(|c| word(c) as i32)),
        Kind::Uint => Texel::Uint(std::array::from_fn(word)),
    }
}

/// Random bytes in a `read_write` image of each format listed for kernel
/// reads and writes; a kernel reads each texel (which must be the model's
/// decoding, as for read-only images) and writes the value back.
/// The texel must be what the model encodes for what it decodes (the
/// stored value, except where a conversion does not round-trip: NaN
/// payloads, undefined bits).
fn check_round_trip(f: &Fixture, programs: &Programs, dim: Dim, format: Format) {
    let Some((program, suffix)) = kernel_for(programs, format.kind(), false, false) else {
        return;
    };
    let (size, layers) = shape(dim);
    let image = f.image(CL_MEM_READ_WRITE, format, dim, size, layers);
    let n = image.texels();
    let element = format.element_size();
    let mut rng = Rng(0x1f83_d9ab_fb41_bd6b ^ u64::from(format.order << 16 | format.data_type));
    let bytes = rng.bytes(n * element);
    f.write_image(&image, &bytes);
    let (_, tag, _) = dim_source(dim);
    let kernel = Kernel::create(program, &format!("rw_{suffix}_{tag}")).expect("kernel");
    assert_eq!(
        set_arg(&kernel, 0, &image.mem),
        CL_SUCCESS,
        "{dim:?} {format:x?} image argument"
    );
    let output = f.buffer(n * 16);
    arg(&kernel, 1, &output);
    arg(&kernel, 2, &sizes_arg(&image));
    run(&f.queue, &kernel, n);
    let read = f.read_buffer(output, n * 16);
    f.release(output);
    let got = f.read_image(&image, n * element);
    for i in 0..n {
        let stored = &bytes[i * element..(i + 1) * element];
        let value = texel_of(format.kind(), &read[i * 16..(i + 1) * 16]);
        assert!(
            reads_agree(format, value, format.decode(stored)),
            "{dim:?} {format:x?} read_write read of texel {i} {stored:02x?}: got {value:?}, the model reads {:?}",
            format.decode(stored)
        );
        let want = format.encode(format.decode(stored));
        let texel = &got[i * element..(i + 1) * element];
        assert!(
            texels_agree(format, texel, &want),
            "{dim:?} {format:x?} read_write texel {i} of {stored:02x?}: stored {texel:02x?}, the model stores {want:02x?}"
        );
    }
}

#[test]
fn read_write_images_of_every_listed_format_round_trip_texels() {
    let f = Fixture::new();
    let programs = programs(&f);
    for dim in DIMS {
        let formats = f.formats(CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE, dim);
        eprintln!("{dim:?}: {} read-write formats", formats.len());
        for format in formats {
            if format.order == model::CL_DEPTH {
                // Depth images have no read_write form in OpenCL C 3.0's
                // image built-ins tested here.
                continue;
            }
            check_round_trip(&f, &programs, dim, format);
        }
    }
}
