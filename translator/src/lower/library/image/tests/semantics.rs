//! The image functions, run by `interpreter.rs` on images of the host
//! model (`tests/common/image_model.rs`, written from the spec), give the
//! model's results: every modelled format on every image type, every
//! sampler, coordinates on and around the formulas' edges, and writes of
//! values that need saturation, rounding and NaN handling. The info words
//! come from the contract's tables (`crate::image`), so a wrong row there
//! fails here too. Loads outside the image fail the test: the functions
//! must never let Vulkan read out of bounds.

use super::image_model::{self as model, Addressing, Dim, Filter, Format, Image, Texel};
use super::interpreter::{ImageAccess as Access, Interpreter, Scalar, Value};
use super::{image_global, with_builder};
use crate::image::{self as contract, ImageAccess, ImageDescriptor, ImageDim, ImageInfo};
use crate::lower::library::image::{ImageFunctionKey, TexelKind};

/// The formats checked: every order of the contract, each data type.
#[rustfmt::skip]
const FORMATS: &[(u32, u32)] = &[
    (model::CL_RGBA, model::CL_UNORM_INT8),
    (model::CL_BGRA, model::CL_UNORM_INT8),
    (model::CL_ARGB, model::CL_SNORM_INT8),
    (model::CL_ABGR, model::CL_UNORM_INT8),
    (model::CL_R, model::CL_FLOAT),
    (model::CL_A, model::CL_UNORM_INT16),
    (model::CL_RG, model::CL_SNORM_INT16),
    (model::CL_RA, model::CL_HALF_FLOAT),
    (model::CL_INTENSITY, model::CL_UNORM_INT8),
    (model::CL_LUMINANCE, model::CL_FLOAT),
    (model::CL_RX, model::CL_UNORM_INT8),
    (model::CL_RGX, model::CL_FLOAT),
    (model::CL_RGB, model::CL_UNORM_SHORT_565),
    (model::CL_RGBX, model::CL_UNORM_SHORT_555),
    (model::CL_RGB, model::CL_UNORM_INT_101010),
    (model::CL_SRGBA, model::CL_UNORM_INT8),
    (model::CL_SBGRA, model::CL_UNORM_INT8),
    (model::CL_RGBA, model::CL_HALF_FLOAT),
    (model::CL_DEPTH, model::CL_FLOAT),
    (model::CL_DEPTH, model::CL_UNORM_INT16),
    (model::CL_RGBA, model::CL_SIGNED_INT16),
    (model::CL_RA, model::CL_SIGNED_INT8),
    (model::CL_RG, model::CL_SIGNED_INT32),
    (model::CL_R, model::CL_UNSIGNED_INT8),
    (model::CL_BGRA, model::CL_UNSIGNED_INT16),
    (model::CL_RGBA, model::CL_UNSIGNED_INT32),
];

/// The image types with a size each: (model, contract, [w, h, d], layers).
const DIMS: &[(Dim, ImageDim, [usize; 3], usize)] = &[
    (Dim::D1, ImageDim::D1, [5, 1, 1], 1),
    (Dim::D1Buffer, ImageDim::D1Buffer, [6, 1, 1], 1),
    (Dim::D1Array, ImageDim::D1Array, [4, 1, 1], 3),
    (Dim::D2, ImageDim::D2, [4, 3, 1], 1),
    (Dim::D2Array, ImageDim::D2Array, [3, 2, 1], 2),
    (Dim::D3, ImageDim::D3, [3, 2, 4], 1),
];

/// A deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() >> 33) as usize % n
    }
    /// A multiple of 1/64 in [low, high).
    fn grid(&mut self, low: f32, high: f32) -> f32 {
        let steps = ((high - low) * 64.0) as usize;
        low + self.below(steps.max(1)) as f32 / 64.0
    }
}

/// An image of the model with pseudo-random contents (finite floats, so
/// filtering is defined).
fn random_image(rng: &mut Rng, format: Format, dim: Dim, size: [usize; 3], layers: usize) -> Image {
    let mut image = Image::new(format, dim, size, layers);
    let element = format.element_size();
    for i in 0..image.elements() {
        let at = i * element;
        let bytes: Vec<u8> = match format.data_type {
            model::CL_FLOAT => (0..element / 4)
                .flat_map(|_| rng.grid(-2.0, 2.0).to_le_bytes())
                .collect(),
            model::CL_HALF_FLOAT => (0..element / 2)
                .flat_map(|_| {
                    let finite = (rng.next() as u16) & 0xfbff;
                    finite.to_le_bytes()
                })
                .collect(),
            _ => (0..element).map(|_| rng.next() as u8).collect(),
        };
        image.data[at..at + element].copy_from_slice(&bytes);
    }
    image
}

/// The kernel's view of a model image: loads return the Vulkan view of
/// its memory, stores are recorded.
struct ModelImage<'a> {
    image: &'a Image,
    stored: Vec<([i32; 4], Vec<Scalar>)>,
    /// A sampled view (`*_SRGB` for sRGB images, decoding) rather than a
    /// storage one (`*_UNORM`).
    sampled: bool,
}

impl Access for ModelImage<'_> {
    fn load(&self, c: [i32; 4]) -> Vec<Scalar> {
        let sizes = self.image.sizes();
        assert!(
            (0..4).all(|i| c[i] >= 0 && (c[i] as usize) < sizes[i]),
            "a load outside the image, at {c:?}"
        );
        let at = self.image.offset(c.map(|v| v as usize));
        let bytes = &self.image.data[at..];
        scalars(if self.sampled {
            self.image.format.vulkan_view(bytes)
        } else {
            self.image.format.vulkan_storage_view(bytes)
        })
    }

    fn store(&mut self, c: [i32; 4], value: Vec<Scalar>) {
        self.stored.push((c, value));
    }
}

fn scalars(t: Texel) -> Vec<Scalar> {
    match t {
        Texel::Float(v) => v.iter().map(|&x| Scalar::F(x)).collect(),
        Texel::Int(v) => v.iter().map(|&x| Scalar::I(x)).collect(),
        Texel::Uint(v) => v.iter().map(|&x| Scalar::U(x)).collect(),
    }
}

fn texel(lanes: &[Scalar]) -> Texel {
    match lanes[0] {
        Scalar::F(_) => Texel::Float(std::array::from_fn(|i| match lanes[i] {
            Scalar::F(x) => x,
            other => panic!("{other:?}"),
        })),
        Scalar::I(_) => Texel::Int(std::array::from_fn(|i| match lanes[i] {
            Scalar::I(x) => x,
            other => panic!("{other:?}"),
        })),
        Scalar::U(_) => Texel::Uint(std::array::from_fn(|i| match lanes[i] {
            Scalar::U(x) => x,
            other => panic!("{other:?}"),
        })),
        other => panic!("{other:?}"),
    }
}

/// Equal bits, or both NaN.
fn same(a: Texel, b: Texel) -> bool {
    match (a, b) {
        (Texel::Float(a), Texel::Float(b)) => a
            .iter()
            .zip(b)
            .all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())),
        (a, b) => a == b,
    }
}

/// Floats within a relative 1e-5 (an sRGB decode's pow; a missing decode
/// is off by up to 0.3).
fn near(a: Texel, b: Texel) -> bool {
    match (a, b) {
        (Texel::Float(a), Texel::Float(b)) => a
            .iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= 1e-5 * y.abs() + 1e-7),
        _ => false,
    }
}

fn kind(format: Format) -> TexelKind {
    match format.kind() {
        model::Kind::Float => TexelKind::Float,
        model::Kind::Int => TexelKind::Int,
        model::Kind::Uint => TexelKind::Uint,
    }
}

/// The image's info words, from the contract's tables.
fn info_words(image: &Image) -> [Value; 2] {
    let format = image.format;
    let layout = contract::order_layout(format.order).expect("an order of the contract");
    let info = ImageInfo {
        width: image.width as u32,
        height: image.height as u32,
        depth: image.depth as u32,
        array_size: image.array_size as u32,
        channel_data_type: format.data_type,
        channel_order: format.order,
        swizzle: layout.swizzle_word(),
        flags: contract::info_flags(&layout, format.data_type),
    };
    let words = info.to_words().map(Scalar::U);
    [
        Value::Vector(words[..4].to_vec()),
        Value::Vector(words[4..].to_vec()),
    ]
}

/// The image types a format comes in: depth images are 2D.
fn dims_of(format: Format) -> impl Iterator<Item = &'static (Dim, ImageDim, [usize; 3], usize)> {
    let depth = format.order == model::CL_DEPTH;
    DIMS.iter()
        .filter(move |d| !depth || matches!(d.1, ImageDim::D2 | ImageDim::D2Array))
}

fn key(format: Format, dim: ImageDim, descriptor: ImageDescriptor) -> ImageFunctionKey {
    ImageFunctionKey {
        dim,
        depth: format.order == model::CL_DEPTH,
        descriptor,
        kind: kind(format),
    }
}

/// A coordinate for an axis of `size` texels: the formulas' edges
/// (texel boundaries and centres, 0 and -0.0, the ends, far out, NaN,
/// infinities) or a multiple of 1/64 around the image.
fn coordinate(rng: &mut Rng, size: usize, normalized: bool) -> f32 {
    let size = size as f32;
    let specials = [
        0.0,
        -0.0,
        0.5,
        1.0,
        -0.5,
        -1.0,
        size - 0.5,
        size,
        size + 0.5,
        1.5,
        0.25,
        2.0 * size,
        -size,
        1e20,
        -1e20,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
    ];
    let s = if rng.below(3) == 0 {
        specials[rng.below(specials.len())]
    } else {
        rng.grid(-1.5 * size, 2.5 * size)
    };
    if normalized {
        s / size
    } else {
        s
    }
}

const ADDRESSING: &[(Addressing, u32)] = &[
    (Addressing::None, 0x1130),
    (Addressing::ClampToEdge, 0x1131),
    (Addressing::Clamp, 0x1132),
    (Addressing::Repeat, 0x1133),
    (Addressing::MirroredRepeat, 0x1134),
];

#[test]
fn samples_as_the_model_does() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut checked = 0;
    for &(order, data_type) in FORMATS {
        let format = Format::new(order, data_type);
        for &(dim, image_dim, size, layers) in dims_of(format) {
            if dim == Dim::D1Buffer {
                continue; // no samplers on image1d_buffer_t
            }
            let image = random_image(&mut rng, format, dim, size, layers);
            let key = key(format, image_dim, ImageDescriptor::Sampled);
            let module_and_function = with_builder(|b| {
                let f = b.image_sample_function(key, ImageAccess::ReadOnly);
                (std::mem::take(&mut b.module), f)
            });
            let (module, function) = module_and_function;
            let [info0, info1] = info_words(&image);
            for normalized in [false, true] {
                for &(addressing, cl_addressing) in ADDRESSING {
                    for (filter, cl_filter) in [(Filter::Nearest, 0x1140), (Filter::Linear, 0x1141)]
                    {
                        let sampler = model::Sampler {
                            normalized,
                            addressing,
                            filter,
                        };
                        let word =
                            contract::sampler::from_api(normalized, cl_addressing, cl_filter)
                                .expect("a sampler");
                        for _ in 0..24 {
                            let sizes = image.sizes();
                            let spatial = dim.spatial();
                            let mut coord = [0f32; 4];
                            for (d, c) in coord.iter_mut().enumerate() {
                                *c = if d < spatial {
                                    coordinate(&mut rng, sizes[d], normalized)
                                } else {
                                    // The layer, and the unused lanes.
                                    rng.grid(-1.0, layers as f32 + 1.0)
                                };
                            }
                            let expected = image.sample(&sampler, coord);
                            let mut interpreter = Interpreter {
                                module: &module,
                                image: ModelImage {
                                    image: &image,
                                    stored: Vec::new(),
                                    sampled: true,
                                },
                            };
                            let got = interpreter
                                .call(
                                    function,
                                    vec![
                                        Value::Image,
                                        info0.clone(),
                                        info1.clone(),
                                        Value::Scalar(Scalar::U(word)),
                                        Value::Vector(
                                            coord.iter().map(|&c| Scalar::F(c)).collect(),
                                        ),
                                    ],
                                )
                                .expect("a result");
                            let got = texel(&got.lanes());
                            assert!(
                                same(got, expected),
                                "{format:?} {dim:?} {sampler:?} at {coord:?}: kernel {got:?}, model {expected:?}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn samplerless_reads_as_the_model_does() {
    let mut rng = Rng(0x0ddb_a11c_afe0_0001);
    for &(order, data_type) in FORMATS {
        let format = Format::new(order, data_type);
        for &(dim, image_dim, size, layers) in dims_of(format) {
            let image = random_image(&mut rng, format, dim, size, layers);
            let accesses: &[(ImageDescriptor, ImageAccess)] = if dim == Dim::D1Buffer {
                &[
                    (ImageDescriptor::StorageTexelBuffer, ImageAccess::ReadOnly),
                    (ImageDescriptor::StorageTexelBuffer, ImageAccess::ReadWrite),
                ]
            } else {
                &[
                    (ImageDescriptor::Sampled, ImageAccess::ReadOnly),
                    (ImageDescriptor::Storage, ImageAccess::ReadWrite),
                ]
            };
            for &(descriptor, access) in accesses {
                let key = key(format, image_dim, descriptor);
                let (module, function) = with_builder(|b| {
                    let f = b.image_fetch_function(key, access);
                    (std::mem::take(&mut b.module), f)
                });
                let [info0, info1] = info_words(&image);
                let sizes = image.sizes();
                for _ in 0..64 {
                    // In range mostly; out of range (undefined, clamped)
                    // sometimes.
                    let coord: [i32; 4] = std::array::from_fn(|d| {
                        let size = sizes[d] as i32;
                        rng.below(size as usize + 4) as i32 - 2
                    });
                    let expected = image.read(coord);
                    let mut interpreter = Interpreter {
                        module: &module,
                        image: ModelImage {
                            image: &image,
                            stored: Vec::new(),
                            sampled: descriptor == ImageDescriptor::Sampled,
                        },
                    };
                    let got = interpreter
                        .call(
                            function,
                            vec![
                                Value::Image,
                                info0.clone(),
                                info1.clone(),
                                Value::Vector(coord.iter().map(|&c| Scalar::I(c)).collect()),
                            ],
                        )
                        .expect("a result");
                    let got = texel(&got.lanes());
                    // Through a storage view the kernel decodes sRGB with
                    // the device's pow, not correctly rounded.
                    let decoded_here = format.is_srgb() && descriptor != ImageDescriptor::Sampled;
                    assert!(
                        same(got, expected) || (decoded_here && near(got, expected)),
                        "{format:?} {dim:?} at {coord:?}: kernel {got:?}, model {expected:?}"
                    );
                }
            }
        }
    }
}

/// A value to write: the conversions' edges or a random one.
fn value(rng: &mut Rng, kind: model::Kind) -> Texel {
    match kind {
        model::Kind::Float => Texel::Float(std::array::from_fn(|_| {
            let specials = [
                f32::NAN,
                -0.0,
                0.0,
                0.5,
                1.0,
                2.0,
                -1.0,
                -2.0,
                1e-6,
                6e-8,
                3e-5,
                0.003_130_8,
                0.003,
                65504.0,
                65519.0,
                65520.0,
                1e9,
                f32::INFINITY,
                127.5 / 255.0,
                0.5 / 127.0,
                -0.5 / 127.0,
            ];
            if rng.below(3) == 0 {
                specials[rng.below(specials.len())]
            } else {
                f32::from_bits(0x3f80_0000 ^ (rng.next() as u32 & 0x80ff_ffff)) - 1.0
            }
        })),
        model::Kind::Int => Texel::Int(std::array::from_fn(|_| {
            let specials = [
                i32::MIN,
                i32::MAX,
                -129,
                -128,
                127,
                128,
                -32769,
                -32768,
                32767,
                32768,
                0,
                -1,
            ];
            if rng.below(2) == 0 {
                specials[rng.below(specials.len())]
            } else {
                rng.next() as i32 >> rng.below(31)
            }
        })),
        model::Kind::Uint => Texel::Uint(std::array::from_fn(|_| {
            let specials = [0, 255, 256, 65535, 65536, u32::MAX];
            if rng.below(2) == 0 {
                specials[rng.below(specials.len())]
            } else {
                rng.next() as u32 >> rng.below(32)
            }
        })),
    }
}

#[test]
fn writes_store_what_the_model_stores() {
    let mut rng = Rng(0xfeed_f00d_1234_5678);
    for &(order, data_type) in FORMATS {
        let format = Format::new(order, data_type);
        for &(dim, image_dim, size, layers) in dims_of(format) {
            let image = Image::new(format, dim, size, layers);
            let (descriptor, access) = if dim == Dim::D1Buffer {
                (ImageDescriptor::StorageTexelBuffer, ImageAccess::WriteOnly)
            } else {
                (ImageDescriptor::Storage, ImageAccess::WriteOnly)
            };
            let key = key(format, image_dim, descriptor);
            let (module, function) = with_builder(|b| {
                let global = image_global(b, key, access);
                let f = b.image_write_function(global, key, access);
                (std::mem::take(&mut b.module), f)
            });
            let [info0, info1] = info_words(&image);
            let sizes = image.sizes();
            for _ in 0..64 {
                let coord: [i32; 4] = std::array::from_fn(|d| {
                    let size = sizes[d] as i32;
                    rng.below(size as usize + 2) as i32 - 1
                });
                let written = value(&mut rng, format.kind());
                let mut expected = image.clone();
                expected.write(coord, written);
                let mut interpreter = Interpreter {
                    module: &module,
                    image: ModelImage {
                        image: &image,
                        stored: Vec::new(),
                        sampled: descriptor == ImageDescriptor::Sampled,
                    },
                };
                interpreter.call(
                    function,
                    vec![
                        info0.clone(),
                        info1.clone(),
                        Value::Vector(coord.iter().map(|&c| Scalar::I(c)).collect()),
                        Value::Vector(scalars(written)),
                    ],
                );
                let mut got = image.clone();
                for (at, components) in interpreter.image.stored {
                    let bytes = format.vulkan_store(texel(&components));
                    let offset = got.offset(at.map(|v| v as usize));
                    got.data[offset..offset + bytes.len()].copy_from_slice(&bytes);
                }
                assert!(
                    got.data == expected.data,
                    "{format:?} {dim:?} write of {written:?} at {coord:?}: kernel {:?}, model {:?}",
                    got.data,
                    expected.data
                );
            }
        }
    }
}
