//! `read_image{f,i,ui}` with a sampler, through the loader and the C ABI
//! (validation fatal), against the host model: every valid combination
//! of normalized coordinates, addressing mode and filter, with float
//! coordinates (texel edges, negative, -0.0, out of range, wrap points)
//! and integer coordinates, on 1D, 1D array, 2D, 2D array and 3D images;
//! float images with both filters, integer images with nearest filtering
//! (the spec defines only that for them). Samplers come from
//! clCreateSampler, clCreateSamplerWithProperties, and sampler literals
//! at program scope and in kernel scope.
//!
//! Comparisons are exact: the kernels' texel library computes the spec's
//! formulas in the same order as the model (the weights of linear
//! filtering multiplied left to right and summed corner by corner), and
//! the images hold float texels, which reach the filter unconverted.

mod common;

use common::image_api::*;
use common::image_model::{self as model, Addressing, Dim, Filter, Format, Kind, Texel};
use opencl3::kernel::Kernel;
use opencl3::program::Program;

const SAMPLED_DIMS: [Dim; 5] = [Dim::D1, Dim::D1Array, Dim::D2, Dim::D2Array, Dim::D3];

/// Extents (width, height, depth) and layers: small, and not powers of
/// two, so that normalized coordinates round on their way to texels.
fn shape(dim: Dim) -> ([usize; 3], usize) {
    match dim {
        Dim::D1 | Dim::D1Buffer => ([7, 1, 1], 1),
        Dim::D1Array => ([5, 1, 1], 3),
        Dim::D2 => ([5, 4, 1], 1),
        Dim::D2Array => ([4, 3, 1], 3),
        Dim::D3 => ([4, 3, 3], 1),
    }
}

/// The OpenCL C image type, a tag for kernel names, and the lanes of a
/// `float4`/`int4` coordinate the type takes.
fn dim_source(dim: Dim) -> (&'static str, &'static str, &'static str) {
    match dim {
        Dim::D1 | Dim::D1Buffer => ("image1d_t", "1d", ".x"),
        Dim::D1Array => ("image1d_array_t", "1da", ".xy"),
        Dim::D2 => ("image2d_t", "2d", ".xy"),
        Dim::D2Array => ("image2d_array_t", "2da", ""),
        Dim::D3 => ("image3d_t", "3d", ""),
    }
}

const KINDS: [(Kind, &str, &str); 3] = [
    (Kind::Float, "f", "float"),
    (Kind::Int, "i", "int"),
    (Kind::Uint, "ui", "uint"),
];

/// Every valid sampler: unnormalized coordinates allow NONE,
/// CLAMP_TO_EDGE and CLAMP; normalized ones all five.
fn samplers() -> Vec<model::Sampler> {
    let mut out = Vec::new();
    for normalized in [false, true] {
        for addressing in [
            Addressing::None,
            Addressing::ClampToEdge,
            Addressing::Clamp,
            Addressing::Repeat,
            Addressing::MirroredRepeat,
        ] {
            if !normalized && matches!(addressing, Addressing::Repeat | Addressing::MirroredRepeat)
            {
                continue;
            }
            for filter in [Filter::Nearest, Filter::Linear] {
                out.push(model::Sampler {
                    normalized,
                    addressing,
                    filter,
                });
            }
        }
    }
    out
}

fn cl_addressing(a: Addressing) -> u32 {
    match a {
        Addressing::None => CL_ADDRESS_NONE,
        Addressing::ClampToEdge => CL_ADDRESS_CLAMP_TO_EDGE,
        Addressing::Clamp => CL_ADDRESS_CLAMP,
        Addressing::Repeat => CL_ADDRESS_REPEAT,
        Addressing::MirroredRepeat => CL_ADDRESS_MIRRORED_REPEAT,
    }
}

fn cl_filter(f: Filter) -> u32 {
    match f {
        Filter::Nearest => CL_FILTER_NEAREST,
        Filter::Linear => CL_FILTER_LINEAR,
    }
}

/// The sampler's OpenCL C literal.
fn literal(s: &model::Sampler) -> String {
    let normalized = if s.normalized { "TRUE" } else { "FALSE" };
    let addressing = match s.addressing {
        Addressing::None => "NONE",
        Addressing::ClampToEdge => "CLAMP_TO_EDGE",
        Addressing::Clamp => "CLAMP",
        Addressing::Repeat => "REPEAT",
        Addressing::MirroredRepeat => "MIRRORED_REPEAT",
    };
    let filter = match s.filter {
        Filter::Nearest => "NEAREST",
        Filter::Linear => "LINEAR",
    };
    format!("CLK_NORMALIZED_COORDS_{normalized} | CLK_ADDRESS_{addressing} | CLK_FILTER_{filter}")
}

/// Kernels taking the sampler as an argument, per image type and read
/// built-in, with float (`_fc`) and integer (`_ic`) coordinates; and for
/// 2D float images one kernel per sampler with a program-scope literal
/// (`lit_p_N`) and one with a kernel-scope literal (`lit_k_N`).
fn source() -> String {
    let mut s = String::new();
    for dim in SAMPLED_DIMS {
        let (ty, tag, lanes) = dim_source(dim);
        for (_, suffix, element) in KINDS {
            s.push_str(&format!(
                "kernel void arg_{suffix}_{tag}_fc(read_only {ty} img, sampler_t s, global const float4 *c, global {element}4 *out) {{\n\
                 int i = get_global_id(0); out[i] = read_image{suffix}(img, s, c[i]{lanes}); }}\n\
                 kernel void arg_{suffix}_{tag}_ic(read_only {ty} img, sampler_t s, global const int4 *c, global {element}4 *out) {{\n\
                 int i = get_global_id(0); out[i] = read_image{suffix}(img, s, c[i]{lanes}); }}\n"
            ));
        }
    }
    for (n, sampler) in samplers().iter().enumerate() {
        let lit = literal(sampler);
        s.push_str(&format!(
            "constant sampler_t program_sampler_{n} = {lit};\n\
             kernel void lit_p_{n}(read_only image2d_t img, global const float4 *c, global float4 *out) {{\n\
             int i = get_global_id(0); out[i] = read_imagef(img, program_sampler_{n}, c[i].xy); }}\n\
             kernel void lit_k_{n}(read_only image2d_t img, global const float4 *c, global float4 *out) {{\n\
             const sampler_t s = {lit};\n\
             int i = get_global_id(0); out[i] = read_imagef(img, s, c[i].xy); }}\n"
        ));
    }
    s
}

/// Float coordinates along an axis of `size` texels: texel edges and
/// centres, -0.0, just inside and outside each end, far outside, the wrap
/// points of the repeat modes, and random values; divided by the size
/// for normalized coordinates, with a few more wraps.
fn axis_coordinates(size: usize, normalized: bool, rng: &mut Rng) -> Vec<f32> {
    let n = size as f32;
    let mut v = vec![
        -2.5,
        -1.5,
        -1.0,
        -0.5,
        -0.25,
        -0.0,
        0.0,
        0.25,
        0.5,
        0.75,
        1.0,
        1.5,
        2.0,
        2.5,
        n - 1.0,
        n - 0.5,
        n - 0.25,
        n - 0.0001,
        n,
        n + 0.5,
        n + 2.25,
        2.0 * n + 0.75,
    ];
    for _ in 0..10 {
        v.push((rng.next_u32() as f32 / u32::MAX as f32) * (n + 4.0) - 2.0);
    }
    if normalized {
        for x in &mut v {
            *x /= n;
        }
        v.extend([-1.3, 1.7, 2.25, -0.6, 3.5, -2.0, 1.0, 0.999_999_9]);
    }
    v
}

/// Layer coordinates: the spec rounds them to nearest even and clamps.
const LAYERS: [f32; 10] = [-1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.49, 2.5, 3.7, 1.2];

/// `count` coordinates for `image`, each lane picked independently; the
/// first ones walk each axis's list in order.
fn coordinates(
    image: &model::Image,
    normalized: bool,
    rng: &mut Rng,
    count: usize,
) -> Vec<[f32; 4]> {
    let sizes = image.sizes();
    let spatial = image.dim.spatial();
    let axes: Vec<Vec<f32>> = (0..spatial)
        .map(|d| axis_coordinates(sizes[d], normalized, rng))
        .collect();
    (0..count)
        .map(|i| {
            let mut c = [0f32; 4];
            for d in 0..spatial {
                let axis = &axes[d];
                c[d] = if i < axis.len() {
                    axis[(i + d * 3) % axis.len()]
                } else {
                    axis[rng.below(axis.len())]
                };
            }
            if image.dim.arrayed() {
                c[spatial] = LAYERS[rng.below(LAYERS.len())];
            }
            c
        })
        .collect()
}

/// Integer coordinates: in range, at and beyond each end.
fn int_coordinates(image: &model::Image, rng: &mut Rng, count: usize) -> Vec<[i32; 4]> {
    let sizes = image.sizes();
    let used = image.dim.spatial() + usize::from(image.dim.arrayed());
    (0..count)
        .map(|_| {
            std::array::from_fn(|d| {
                if d < used {
                    rng.below(sizes[d] + 4) as i32 - 2
                } else {
                    0
                }
            })
        })
        .collect()
}

/// A model image of `format` with texels the filter can weigh exactly:
/// multiples of 1/8 in [-8, 8] (and -0.0) for floats; spread integers.
fn model_image(format: Format, dim: Dim, rng: &mut Rng) -> model::Image {
    let (size, layers) = shape(dim);
    let mut image = model::Image::new(format, dim, size, layers);
    let sizes = image.sizes();
    for z in 0..sizes[2] {
        for y in 0..sizes[1] {
            for x in 0..sizes[0] {
                let c = [x as i32, y as i32, z as i32, 0];
                let value = match format.kind() {
                    Kind::Float => Texel::Float(std::array::from_fn(|_| {
                        let k = rng.below(130) as i32 - 65;
                        if k == -65 {
                            -0.0
                        } else {
                            k as f32 / 8.0
                        }
                    })),
                    Kind::Int => Texel::Int(std::array::from_fn(|_| {
                        rng.next_u32() as i32 >> rng.below(31)
                    })),
                    Kind::Uint => {
                        Texel::Uint(std::array::from_fn(|_| rng.next_u32() >> rng.below(31)))
                    }
                };
                image.write(c, value);
            }
        }
    }
    image
}

fn bytes_of<T: Copy>(values: &[[T; 4]]) -> Vec<u8> {
    // SAFETY: plain 4-byte integers and floats, no padding.
    let bytes = unsafe {
        std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), std::mem::size_of_val(values))
    };
    bytes.to_vec()
}

fn texels_of(kind: Kind, bytes: &[u8]) -> Vec<Texel> {
    bytes
        .chunks_exact(16)
        .map(|t| {
            let word = |c: usize| u32::from_le_bytes(t[4 * c..4 * c + 4].try_into().unwrap());
            match kind {
                Kind::Float => Texel::Float(std::array::from_fn(|c| f32::from_bits(word(c)))),
                Kind::Int => Texel::Int(std::array::from_fn(|c| word(c) as i32)),
                Kind::Uint => Texel::Uint(std::array::from_fn(word)),
            }
        })
        .collect()
}

/// Bit-exact agreement, so that -0.0 and 0.0 differ.
fn same(got: Texel, want: Texel) -> bool {
    match (got, want) {
        (Texel::Float(g), Texel::Float(w)) => {
            g.iter().zip(&w).all(|(g, w)| g.to_bits() == w.to_bits())
        }
        _ => got == want,
    }
}

struct Case<'a> {
    f: &'a Fixture,
    image: &'a Image,
    model: &'a model::Image,
}

impl Case<'_> {
    /// Runs `kernel` (image, [sampler], coordinates, output) over `coords`
    /// and checks each result against the model's sample at the float
    /// value of the coordinate.
    fn check(
        &self,
        kernel: &Kernel,
        sampler: Option<&OwnedSampler>,
        sampler_model: &model::Sampler,
        coords: &[u8],
        model_coords: &[[f32; 4]],
        what: &str,
    ) {
        let n = model_coords.len();
        let input = self.f.buffer(coords.len());
        self.f.write_buffer(input, coords);
        let output = self.f.buffer(n * 16);
        let mut index = 0;
        let mut next = || {
            index += 1;
            index - 1
        };
        arg(kernel, next(), &self.image.mem);
        if let Some(s) = sampler {
            arg(kernel, next(), &s.0);
        }
        arg(kernel, next(), &input);
        arg(kernel, next(), &output);
        run(&self.f.queue, kernel, n);
        let got = texels_of(
            self.model.format.kind(),
            &self.f.read_buffer(output, n * 16),
        );
        self.f.release(input);
        self.f.release(output);
        for (c, got) in model_coords.iter().zip(got) {
            let want = self.model.sample(sampler_model, *c);
            assert!(
                same(got, want),
                "{what} {:?} {sampler_model:?} at {c:?}: got {got:?}, the model samples {want:?}",
                self.model.dim
            );
        }
    }
}

/// The listed format of `kind` the sampling tests use: RGBA, so that each
/// lane is checked, of the widest type listed (no conversion on the
/// way to the filter for floats).
fn pick_format(f: &Fixture, dim: Dim, kind: Kind) -> Option<Format> {
    let preferred = match kind {
        Kind::Float => [model::CL_FLOAT, model::CL_HALF_FLOAT],
        Kind::Int => [model::CL_SIGNED_INT32, model::CL_SIGNED_INT16],
        Kind::Uint => [model::CL_UNSIGNED_INT32, model::CL_UNSIGNED_INT8],
    };
    let listed = f.formats(CL_MEM_READ_ONLY, dim);
    preferred
        .iter()
        .map(|&t| Format::new(model::CL_RGBA, t))
        .find(|format| listed.contains(format))
}

#[test]
fn sampler_arguments_address_and_filter_as_the_model() {
    let f = Fixture::new();
    let program = build(&f.context, &source(), "");
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for dim in SAMPLED_DIMS {
        let (_, tag, _) = dim_source(dim);
        for (kind, suffix, _) in KINDS {
            let format = pick_format(&f, dim, kind)
                .unwrap_or_else(|| panic!("{dim:?}: no RGBA {kind:?} format listed"));
            let model = model_image(format, dim, &mut rng);
            let (size, layers) = shape(dim);
            let image = f.image(CL_MEM_READ_ONLY, format, dim, size, layers);
            f.write_image(&image, &model.data);
            let case = Case {
                f: &f,
                image: &image,
                model: &model,
            };
            let float_kernel =
                Kernel::create(&program, &format!("arg_{suffix}_{tag}_fc")).expect("kernel");
            let int_kernel =
                Kernel::create(&program, &format!("arg_{suffix}_{tag}_ic")).expect("kernel");
            for (i, s) in samplers().iter().enumerate() {
                // The spec defines integer images for nearest filtering
                // only.
                if kind != Kind::Float && s.filter == Filter::Linear {
                    continue;
                }
                let (addressing, filter) = (cl_addressing(s.addressing), cl_filter(s.filter));
                let sampler = if i % 2 == 0 {
                    f.sampler(s.normalized, addressing, filter)
                } else {
                    f.sampler_with_properties(s.normalized, addressing, filter)
                };
                let coords = coordinates(&model, s.normalized, &mut rng, 96);
                case.check(
                    &float_kernel,
                    Some(&sampler),
                    s,
                    &bytes_of(&coords),
                    &coords,
                    &format!("read_image{suffix} float coordinates"),
                );
                // Integer coordinates: unnormalized, nearest, and not the
                // repeat modes.
                if !s.normalized && s.filter == Filter::Nearest {
                    let ints = int_coordinates(&model, &mut rng, 64);
                    let as_floats: Vec<[f32; 4]> =
                        ints.iter().map(|c| c.map(|x| x as f32)).collect();
                    case.check(
                        &int_kernel,
                        Some(&sampler),
                        s,
                        &bytes_of(&ints),
                        &as_floats,
                        &format!("read_image{suffix} int coordinates"),
                    );
                }
            }
        }
    }
}

#[test]
fn sampler_literals_at_program_and_kernel_scope_sample_as_the_model() {
    let f = Fixture::new();
    let program: Program = build(&f.context, &source(), "");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let format = pick_format(&f, Dim::D2, Kind::Float).expect("an RGBA float 2D format");
    let model = model_image(format, Dim::D2, &mut rng);
    let (size, layers) = shape(Dim::D2);
    let image = f.image(CL_MEM_READ_ONLY, format, Dim::D2, size, layers);
    f.write_image(&image, &model.data);
    let case = Case {
        f: &f,
        image: &image,
        model: &model,
    };
    for (n, s) in samplers().iter().enumerate() {
        for scope in ["p", "k"] {
            let kernel = Kernel::create(&program, &format!("lit_{scope}_{n}")).expect("kernel");
            let coords = coordinates(&model, s.normalized, &mut rng, 96);
            case.check(
                &kernel,
                None,
                s,
                &bytes_of(&coords),
                &coords,
                &format!("literal sampler ({scope} scope)"),
            );
        }
    }
}

/// Whether a sampled value of a normalized format agrees with the model.
/// Its texels reach the filter through the Vulkan view's conversion,
/// which OpenCL C 3.0 s8.3.1.1 lets be off by up to 1.5 ulp of the exact
/// quotient and which is within one ulp of the model's correctly rounded
/// one (values below 1, so within 2^-24; 0 and 1 exact). Nearest
/// filtering returns one texel: one ulp. Linear filtering weighs up to
/// four texels whose weights sum to 1, so their error is at most 2^-24,
/// and each of the filter's seven products and sums may round that
/// difference the other way once more (2^-24 each for values within
/// [-1, 1]): 2^-21 bounds it.
fn normalized_agree(got: Texel, want: Texel, filter: Filter) -> bool {
    let (g, w) = (got.float(), want.float());
    g.iter().zip(&w).all(|(g, w)| match filter {
        Filter::Nearest => {
            g.to_bits() == w.to_bits()
                || (!matches!(*w, 0.0 | 1.0 | -1.0)
                    && g.signum() == w.signum()
                    && g.to_bits().abs_diff(w.to_bits()) <= 1)
        }
        Filter::Linear => (g - w).abs() <= 2f32.powi(-21),
    })
}

#[test]
fn every_listed_2d_format_samples_as_the_model() {
    let f = Fixture::new();
    let program = build(&f.context, &source(), "");
    let mut rng = Rng(0x6a09_e667_f3bc_c908);
    let dim = Dim::D2;
    let modes = [
        (false, Addressing::Clamp, Filter::Nearest),
        (true, Addressing::Clamp, Filter::Linear),
        (true, Addressing::Repeat, Filter::Nearest),
        (true, Addressing::MirroredRepeat, Filter::Linear),
        (false, Addressing::ClampToEdge, Filter::Linear),
    ];
    for format in f.formats(CL_MEM_READ_ONLY, dim) {
        // Depth images have types of their own (image_kernels_misc); the
        // sRGB decode is the Vulkan view's approximation, which
        // image_kernels_formats checks to the conformance suite's bound.
        if format.order == model::CL_DEPTH || format.is_srgb() {
            continue;
        }
        let kind = format.kind();
        let normalized_type = kind == Kind::Float
            && !matches!(format.data_type, model::CL_FLOAT | model::CL_HALF_FLOAT);
        let (size, layers) = shape(dim);
        let model = if normalized_type {
            let mut m = model::Image::new(format, dim, size, layers);
            m.data = rng.bytes(m.data.len());
            m
        } else {
            model_image(format, dim, &mut rng)
        };
        let image = f.image(CL_MEM_READ_ONLY, format, dim, size, layers);
        f.write_image(&image, &model.data);
        let suffix = KINDS.iter().find(|k| k.0 == kind).expect("kind").1;
        let kernel = Kernel::create(&program, &format!("arg_{suffix}_2d_fc")).expect("kernel");
        for (normalized, addressing, filter) in modes {
            if kind != Kind::Float && filter == Filter::Linear {
                continue;
            }
            let s = model::Sampler {
                normalized,
                addressing,
                filter,
            };
            let sampler = f.sampler(normalized, cl_addressing(addressing), cl_filter(filter));
            let coords = coordinates(&model, normalized, &mut rng, 48);
            let input = f.buffer(coords.len() * 16);
            f.write_buffer(input, &bytes_of(&coords));
            let output = f.buffer(coords.len() * 16);
            arg(&kernel, 0, &image.mem);
            arg(&kernel, 1, &sampler.0);
            arg(&kernel, 2, &input);
            arg(&kernel, 3, &output);
            run(&f.queue, &kernel, coords.len());
            let got = texels_of(kind, &f.read_buffer(output, coords.len() * 16));
            f.release(input);
            f.release(output);
            for (c, got) in coords.iter().zip(got) {
                let want = model.sample(&s, *c);
                let ok = if normalized_type {
                    normalized_agree(got, want, filter)
                } else {
                    same(got, want)
                };
                assert!(
                    ok,
                    "{format:x?} {s:?} at {c:?}: got {got:?}, the model samples {want:?}"
                );
            }
        }
    }
}

/// Literal samplers on the other image types, passed with the image to a
/// helper function (so the sampler crosses a call), one kernel per
/// sampler and type.
fn helper_source() -> String {
    let mut s = String::new();
    for dim in [Dim::D1, Dim::D1Array, Dim::D2Array, Dim::D3] {
        let (ty, tag, lanes) = dim_source(dim);
        s.push_str(&format!(
            "float4 fetch_{tag}(read_only {ty} img, sampler_t s, float4 c) {{ return read_imagef(img, s, c{lanes}); }}\n"
        ));
    }
    for (n, sampler) in samplers().iter().enumerate() {
        s.push_str(&format!(
            "constant sampler_t program_sampler_{n} = {};\n",
            literal(sampler)
        ));
        for dim in [Dim::D1, Dim::D1Array, Dim::D2Array, Dim::D3] {
            let (ty, tag, _) = dim_source(dim);
            s.push_str(&format!(
                "kernel void helper_{tag}_{n}(read_only {ty} img, global const float4 *c, global float4 *out) {{\n\
                 int i = get_global_id(0); out[i] = fetch_{tag}(img, program_sampler_{n}, c[i]); }}\n"
            ));
        }
    }
    s
}

#[test]
fn literal_samplers_through_helper_functions_sample_every_type() {
    let f = Fixture::new();
    let program = build(&f.context, &helper_source(), "");
    let mut rng = Rng(0xbb67_ae85_84ca_a73b);
    for dim in [Dim::D1, Dim::D1Array, Dim::D2Array, Dim::D3] {
        let (_, tag, _) = dim_source(dim);
        let format = pick_format(&f, dim, Kind::Float).expect("an RGBA float format");
        let model = model_image(format, dim, &mut rng);
        let (size, layers) = shape(dim);
        let image = f.image(CL_MEM_READ_ONLY, format, dim, size, layers);
        f.write_image(&image, &model.data);
        let case = Case {
            f: &f,
            image: &image,
            model: &model,
        };
        for (n, s) in samplers().iter().enumerate() {
            let kernel = Kernel::create(&program, &format!("helper_{tag}_{n}")).expect("kernel");
            let coords = coordinates(&model, s.normalized, &mut rng, 48);
            case.check(
                &kernel,
                None,
                s,
                &bytes_of(&coords),
                &coords,
                "literal sampler through a helper",
            );
        }
    }
}
