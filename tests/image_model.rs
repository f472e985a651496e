//! The host image model (`common/image_model.rs`) against values worked
//! out by hand from the OpenCL specs' formulas, each derivation in a
//! comment: texel decoding and encoding of every modelled format, and
//! sampling with every addressing mode and filter, on the edges the
//! formulas have (texel boundaries, wrap points, negative and -0.0
//! coordinates, ties of `rint`).

mod common;

use common::image_model::*;

fn float_image(dim: Dim, size: [usize; 3], layers: usize, values: &[f32]) -> Image {
    let format = Format::new(CL_R, CL_FLOAT);
    let mut image = Image::new(format, dim, size, layers);
    for (i, v) in values.iter().enumerate() {
        image.data[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
    }
    assert_eq!(image.elements(), values.len());
    image
}

fn sampler(normalized: bool, addressing: Addressing, filter: Filter) -> Sampler {
    Sampler {
        normalized,
        addressing,
        filter,
    }
}

fn x(t: Texel) -> f32 {
    t.float()[0]
}

#[test]
fn decodes_each_order_into_the_channels_a_kernel_sees() {
    let unorm = |order| Format::new(order, CL_UNORM_INT8);
    let v = |b: u8| f32::from(b) / 255.0;
    // Memory order r, g, b, a.
    assert_eq!(
        unorm(CL_RGBA).decode(&[0, 128, 255, 51]).float(),
        [0.0, v(128), 1.0, 0.2]
    );
    // BGRA stores b, g, r, a; ARGB a, r, g, b; ABGR a, b, g, r.
    let bytes = [10, 20, 30, 40];
    assert_eq!(
        unorm(CL_BGRA).decode(&bytes).float(),
        [v(30), v(20), v(10), v(40)]
    );
    assert_eq!(
        unorm(CL_ARGB).decode(&bytes).float(),
        [v(20), v(30), v(40), v(10)]
    );
    assert_eq!(
        unorm(CL_ABGR).decode(&bytes).float(),
        [v(40), v(30), v(20), v(10)]
    );
    // Missing colour channels read 0, missing alpha 1.
    assert_eq!(unorm(CL_R).decode(&[51]).float(), [0.2, 0.0, 0.0, 1.0]);
    assert_eq!(unorm(CL_RX).decode(&[51]).float(), [0.2, 0.0, 0.0, 1.0]);
    assert_eq!(unorm(CL_A).decode(&[51]).float(), [0.0, 0.0, 0.0, 0.2]);
    assert_eq!(
        unorm(CL_RG).decode(&[51, 255]).float(),
        [0.2, 1.0, 0.0, 1.0]
    );
    assert_eq!(
        unorm(CL_RA).decode(&[51, 255]).float(),
        [0.2, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        unorm(CL_RA).decode(&[255, 51]).float(),
        [1.0, 0.0, 0.0, 0.2]
    );
    // Luminance into r, g, b; intensity into all four.
    assert_eq!(
        unorm(CL_LUMINANCE).decode(&[51]).float(),
        [0.2, 0.2, 0.2, 1.0]
    );
    assert_eq!(unorm(CL_INTENSITY).decode(&[51]).float(), [0.2; 4]);
    let depth = Format::new(CL_DEPTH, CL_FLOAT);
    assert_eq!(depth.decode(&0.75f32.to_le_bytes()).float()[0], 0.75);
}

#[test]
fn decodes_each_data_type() {
    // snorm: max(-1, c / 127): -128 and -127 both read -1.
    let snorm8 = Format::new(CL_R, CL_SNORM_INT8);
    assert_eq!(x(snorm8.decode(&[0x80])), -1.0);
    assert_eq!(x(snorm8.decode(&[0x81])), -1.0);
    assert_eq!(x(snorm8.decode(&[64])), 64.0 / 127.0);
    let snorm16 = Format::new(CL_R, CL_SNORM_INT16);
    assert_eq!(x(snorm16.decode(&0x8000u16.to_le_bytes())), -1.0);
    assert_eq!(x(snorm16.decode(&32767u16.to_le_bytes())), 1.0);
    let unorm16 = Format::new(CL_R, CL_UNORM_INT16);
    assert_eq!(x(unorm16.decode(&65535u16.to_le_bytes())), 1.0);
    // 565: R in 15:11, G in 10:5, B in 4:0; RGB reads alpha 1.
    let f565 = Format::new(CL_RGB, CL_UNORM_SHORT_565);
    assert_eq!(f565.element_size(), 2);
    assert_eq!(
        f565.decode(&0xF800u16.to_le_bytes()).float(),
        [1.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        f565.decode(&0x07E0u16.to_le_bytes()).float(),
        [0.0, 1.0, 0.0, 1.0]
    );
    assert_eq!(
        f565.decode(&0x0001u16.to_le_bytes()).float(),
        [0.0, 0.0, 1.0 / 31.0, 1.0]
    );
    // 555: bit 15 undefined (ignored), R 14:10.
    let f555 = Format::new(CL_RGBX, CL_UNORM_SHORT_555);
    assert_eq!(
        f555.decode(&0x8000u16.to_le_bytes()).float(),
        [0.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        f555.decode(&0x7C00u16.to_le_bytes()).float(),
        [1.0, 0.0, 0.0, 1.0]
    );
    // 101010: 31:30 undefined, R 29:20, G 19:10, B 9:0.
    let f101010 = Format::new(CL_RGB, CL_UNORM_INT_101010);
    assert_eq!(
        f101010.decode(&0xC000_0000u32.to_le_bytes()).float(),
        [0.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        f101010.decode(&0x3FF0_0000u32.to_le_bytes()).float(),
        [1.0, 0.0, 0.0, 1.0]
    );
    // 101010_2: R 31:22, G 21:12, B 11:2, A 1:0.
    let f1010102 = Format::new(CL_RGBA, CL_UNORM_INT_101010_2);
    assert_eq!(
        f1010102.decode(&0xFFC0_0001u32.to_le_bytes()).float(),
        [1.0, 0.0, 0.0, 1.0 / 3.0]
    );
    assert_eq!(
        f1010102.decode(&0x0000_0FFCu32.to_le_bytes()).float(),
        [0.0, 0.0, 1.0, 0.0]
    );
    let half = Format::new(CL_R, CL_HALF_FLOAT);
    assert_eq!(x(half.decode(&0x3C00u16.to_le_bytes())), 1.0);
    assert_eq!(x(half.decode(&0x7BFFu16.to_le_bytes())), 65504.0);
    // Integers: sign-extended for the signed types; missing alpha is 1.
    let i8f = Format::new(CL_R, CL_SIGNED_INT8);
    assert_eq!(i8f.decode(&[0xFF]).int(), [-1, 0, 0, 1]);
    let u8f = Format::new(CL_RG, CL_UNSIGNED_INT8);
    assert_eq!(u8f.decode(&[0xFF, 7]).uint(), [255, 7, 0, 1]);
    let i32f = Format::new(CL_RGBA, CL_SIGNED_INT32);
    let bytes: Vec<u8> = [i32::MIN, -1, 0, i32::MAX]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    assert_eq!(i32f.decode(&bytes).int(), [i32::MIN, -1, 0, i32::MAX]);
}

#[test]
fn decodes_srgb_colour_but_not_alpha() {
    let srgb = Format::new(CL_SRGBA, CL_UNORM_INT8);
    // c = 10/255 = 0.0392 <= 0.04045: c / 12.92; 255 reads 1.
    let texel = srgb.decode(&[10, 255, 0, 51]).float();
    assert_eq!(texel[0], ((10.0f64 / 255.0) / 12.92) as f32);
    assert_eq!(texel[1], 1.0);
    assert_eq!(texel[2], 0.0);
    assert_eq!(texel[3], 0.2);
    // 128/255 = 0.50196: ((c + 0.055) / 1.055)^2.4 = 0.21586.
    assert!((srgb_to_linear(128.0 / 255.0) - 0.215_861).abs() < 1e-5);
    // sBGRA stores b, g, r, a.
    let sbgra = Format::new(CL_SBGRA, CL_UNORM_INT8);
    assert_eq!(sbgra.decode(&[0, 0, 255, 0]).float(), [1.0, 0.0, 0.0, 0.0]);
}

#[test]
fn encodes_with_rounding_to_nearest_even_and_saturation() {
    let unorm = Format::new(CL_R, CL_UNORM_INT8);
    let w = |f: Format, v: f32| f.encode(Texel::Float([v, 0.0, 0.0, 0.0]));
    // 0.5 * 255 = 127.5: ties to even, 128.
    assert_eq!(w(unorm, 0.5), [128]);
    // 2.5 / 255 * 255 is not exactly 2.5 in float; 1.5/255 likewise: the
    // tie case is 0.5 above. Saturation: above 1 is 255, below 0 is 0,
    // NaN is 0.
    assert_eq!(w(unorm, 2.0), [255]);
    assert_eq!(w(unorm, -1.0), [0]);
    assert_eq!(w(unorm, f32::NAN), [0]);
    assert_eq!(w(unorm, -0.0), [0]);
    // snorm: 0.5 * 127 = 63.5 -> 64; -1 -> -127 (0x81); below -1 also
    // -127 (the conformance tests' and Vulkan's clamp).
    let snorm = Format::new(CL_R, CL_SNORM_INT8);
    assert_eq!(w(snorm, 0.5), [64]);
    assert_eq!(w(snorm, -1.0), [0x81]);
    assert_eq!(w(snorm, -2.0), [0x81]);
    assert_eq!(w(snorm, f32::NAN), [0]);
    let snorm16 = Format::new(CL_R, CL_SNORM_INT16);
    assert_eq!(w(snorm16, -0.5), (-16384i16).to_le_bytes()); // -16383.5 -> -16384
                                                             // 565: (1, 0.5, 0) -> r 31, g rint(31.5) = 32, b 0: 0xF800 | 32 << 5.
    let f565 = Format::new(CL_RGB, CL_UNORM_SHORT_565);
    assert_eq!(
        f565.encode(Texel::Float([1.0, 0.5, 0.0, 0.0])),
        0xFC00u16.to_le_bytes()
    );
    // half: 65520 is halfway between 65504 and 65536 (infinity): even.
    let half = Format::new(CL_R, CL_HALF_FLOAT);
    assert_eq!(w(half, 1.0), 0x3C00u16.to_le_bytes());
    assert_eq!(w(half, 65520.0), 0x7C00u16.to_le_bytes());
    assert_eq!(w(half, 65519.0), 0x7BFFu16.to_le_bytes());
    // BGRA puts r in the third byte.
    let bgra = Format::new(CL_BGRA, CL_UNORM_INT8);
    assert_eq!(
        bgra.encode(Texel::Float([1.0, 0.0, 0.0, 0.2])),
        [0, 0, 255, 51]
    );
    // A stores w.
    let alpha = Format::new(CL_A, CL_UNORM_INT8);
    assert_eq!(alpha.encode(Texel::Float([1.0, 1.0, 1.0, 0.2])), [51]);
    // Integers saturate: convert_char_sat, convert_uchar_sat ...
    let i8f = Format::new(CL_RG, CL_SIGNED_INT8);
    assert_eq!(i8f.encode(Texel::Int([300, -300, 0, 0])), [127, 0x80]);
    let u16f = Format::new(CL_R, CL_UNSIGNED_INT16);
    assert_eq!(u16f.encode(Texel::Uint([70000, 0, 0, 0])), [0xFF, 0xFF]);
    let u32f = Format::new(CL_R, CL_UNSIGNED_INT32);
    assert_eq!(
        u32f.encode(Texel::Uint([u32::MAX, 0, 0, 0])),
        u32::MAX.to_le_bytes()
    );
}

#[test]
fn encodes_srgb_from_linear() {
    let srgb = Format::new(CL_SRGBA, CL_UNORM_INT8);
    // 0.001 < 0.0031308: 12.92 * 0.001 = 0.01292, * 255 = 3.29 -> 3.
    // 1.0 -> 1.055 - 0.055 = 1 -> 255; alpha 0.2 is not encoded -> 51.
    assert_eq!(
        srgb.encode(Texel::Float([0.001, 1.0, 0.0, 0.2])),
        [3, 255, 0, 51]
    );
    // 0.5: 1.055 * 0.5^(1/2.4) - 0.055 = 0.73536, * 255 = 187.52 -> 188.
    assert_eq!(srgb.encode(Texel::Float([0.5, 0.0, 0.0, 0.0]))[0], 188);
    assert!((linear_to_srgb(0.5) - 0.735_357).abs() < 1e-5);
    assert_eq!(linear_to_srgb(f32::NAN), 0.0);
    assert_eq!(linear_to_srgb(2.0), 1.0);
}

#[test]
fn normalized_and_half_values_survive_a_round_trip() {
    // Encoding is the inverse of decoding on every stored value (snorm's
    // -128 excepted, which reads as -1 and writes as -127).
    for data_type in [CL_UNORM_INT8, CL_SNORM_INT8] {
        let f = Format::new(CL_R, data_type);
        for b in 0..=255u8 {
            if data_type == CL_SNORM_INT8 && b == 0x80 {
                continue;
            }
            assert_eq!(f.encode(f.decode(&[b])), [b], "{data_type:#x} {b}");
        }
    }
    for data_type in [CL_UNORM_INT16, CL_SNORM_INT16, CL_HALF_FLOAT] {
        let f = Format::new(CL_R, data_type);
        for h in 0..=u16::MAX {
            let bytes = h.to_le_bytes();
            let value = f.decode(&bytes);
            let skip = (data_type == CL_SNORM_INT16 && h == 0x8000)
                || (data_type == CL_HALF_FLOAT && value.float()[0].is_nan());
            if !skip {
                assert_eq!(f.encode(value), bytes, "{data_type:#x} {h:#x}");
            }
        }
    }
    let f = Format::new(CL_RGB, CL_UNORM_SHORT_565);
    for h in 0..=u16::MAX {
        assert_eq!(f.encode(f.decode(&h.to_le_bytes())), h.to_le_bytes());
    }
}

#[test]
fn border_colour_follows_the_spec_list() {
    let border = |order| Format::new(order, CL_UNORM_INT8).border().float();
    for order in [CL_A, CL_INTENSITY, CL_RX, CL_RA, CL_RGX, CL_RGBA, CL_BGRA] {
        assert_eq!(border(order), [0.0; 4], "{order:#x}");
    }
    for order in [CL_R, CL_RG, CL_LUMINANCE] {
        assert_eq!(border(order), [0.0, 0.0, 0.0, 1.0], "{order:#x}");
    }
    assert_eq!(
        Format::new(CL_RGBA, CL_SIGNED_INT8).border(),
        Texel::Int([0; 4])
    );
}

/// A 1D image of width 4 holding 10, 20, 30, 40.
fn ramp() -> Image {
    float_image(Dim::D1, [4, 1, 1], 1, &[10.0, 20.0, 30.0, 40.0])
}

#[test]
fn nearest_clamp_to_edge_and_clamp() {
    let image = ramp();
    let at = |s: &Sampler, u: f32| x(image.sample(s, [u, 0.0, 0.0, 0.0]));
    let edge = sampler(false, Addressing::ClampToEdge, Filter::Nearest);
    // i = floor(u): 0.999 -> 0; exactly 1.0 is texel 1; -0.0 -> 0;
    // -0.5 -> -1 -> clamped 0; 4.0 -> 4 -> clamped 3.
    assert_eq!(at(&edge, 0.0), 10.0);
    assert_eq!(at(&edge, 0.999), 10.0);
    assert_eq!(at(&edge, 1.0), 20.0);
    assert_eq!(at(&edge, -0.0), 10.0);
    assert_eq!(at(&edge, -0.5), 10.0);
    assert_eq!(at(&edge, 4.0), 40.0);
    assert_eq!(at(&edge, 1e30), 40.0);
    assert_eq!(at(&edge, -f32::INFINITY), 10.0);
    // CLAMP: -1 and 4 are the border, (0, 0, 0, 1) for CL_R.
    let clamp = sampler(false, Addressing::Clamp, Filter::Nearest);
    assert_eq!(
        image.sample(&clamp, [-0.5, 0.0, 0.0, 0.0]).float(),
        [0.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(at(&clamp, 4.0), 0.0);
    assert_eq!(at(&clamp, 3.99), 40.0);
    // Normalized: u = s * 4; 0.25 -> 1.0 -> texel 1; 0.2499 -> 0.9996.
    let normalized = sampler(true, Addressing::ClampToEdge, Filter::Nearest);
    assert_eq!(at(&normalized, 0.25), 20.0);
    assert_eq!(at(&normalized, 0.2499), 10.0);
    assert_eq!(at(&normalized, 1.0), 40.0);
    // NONE (undefined outside): clamped, as the kernels do.
    let none = sampler(false, Addressing::None, Filter::Nearest);
    assert_eq!(at(&none, 2.5), 30.0);
    assert_eq!(at(&none, 10.0), 40.0);
    // A NaN coordinate (undefined) reads as 0.
    assert_eq!(at(&edge, f32::NAN), 10.0);
}

#[test]
fn nearest_repeat_and_mirrored_repeat_wrap_where_the_formulas_say() {
    let image = ramp();
    let at = |s: &Sampler, u: f32| x(image.sample(s, [u, 0.0, 0.0, 0.0]));
    let repeat = sampler(true, Addressing::Repeat, Filter::Nearest);
    // u = (s - floor(s)) * 4: 1.25 -> 1 (20); -0.25 -> 0.75 * 4 = 3 (40);
    // 1.0 -> 0 (10); -1e-9 -> s - floor(s) rounds to 1.0, u = 4 > 3, so
    // i = 4 - 4 = 0 (10).
    assert_eq!(at(&repeat, 1.25), 20.0);
    assert_eq!(at(&repeat, -0.25), 40.0);
    assert_eq!(at(&repeat, 1.0), 10.0);
    assert_eq!(at(&repeat, -1e-9), 10.0);
    assert_eq!(at(&repeat, 0.99), 40.0);
    let mirrored = sampler(true, Addressing::MirroredRepeat, Filter::Nearest);
    // s' = 2 rint(s / 2), u = |s - s'| * 4:
    // 1.25: s' = 2 rint(0.625) = 2, |1.25 - 2| = 0.75, u = 3 (40);
    // -0.25: s' = 2 rint(-0.125) = -0, u = 1 (20);
    // 1.0: rint(0.5) = 0 (ties to even), u = 4, min(4, 3) = 3 (40);
    // 3.0: rint(1.5) = 2, s' = 4, |3 - 4| = 1, u = 4 -> 3 (40);
    // 2.0: s' = 2, u = 0 (10).
    assert_eq!(at(&mirrored, 1.25), 40.0);
    assert_eq!(at(&mirrored, -0.25), 20.0);
    assert_eq!(at(&mirrored, 1.0), 40.0);
    assert_eq!(at(&mirrored, 3.0), 40.0);
    assert_eq!(at(&mirrored, 2.0), 10.0);
}

#[test]
fn linear_filtering_in_one_dimension() {
    let image = ramp();
    let at = |s: &Sampler, u: f32| image.sample(s, [u, 0.0, 0.0, 0.0]).float();
    let edge = sampler(false, Addressing::ClampToEdge, Filter::Linear);
    // i0 = floor(u - 0.5), a = frac(u - 0.5), (1 - a) T[i0] + a T[i1]:
    // 1.5: t = 1.0, i0 = 1, a = 0 -> 20 (a texel centre);
    // 2.0: t = 1.5, i0 = 1, a = 0.5 -> 25;
    // 0.25: t = -0.25, i0 = -1 -> 0, i1 = 0, a = 0.75 -> 10;
    // 4.25: t = 3.75, i0 = 3, i1 = 4 -> 3 -> 40.
    assert_eq!(at(&edge, 1.5)[0], 20.0);
    assert_eq!(at(&edge, 2.0)[0], 25.0);
    assert_eq!(at(&edge, 0.25)[0], 10.0);
    assert_eq!(at(&edge, 4.25)[0], 40.0);
    // CLAMP: the border takes part. 0.25: 0.25 * border + 0.75 * 10 =
    // 7.5, and alpha 0.25 * 1 + 0.75 * 1 = 1.
    let clamp = sampler(false, Addressing::Clamp, Filter::Linear);
    assert_eq!(at(&clamp, 0.25), [7.5, 0.0, 0.0, 1.0]);
    // 4.0: t = 3.5, i0 = 3, i1 = 4 (border), a = 0.5: 20.
    assert_eq!(at(&clamp, 4.0)[0], 20.0);
    // REPEAT: s = 0 -> u = 0, t = -0.5, i0 = -1 -> 3, i1 = 0, a = 0.5:
    // 0.5 * 40 + 0.5 * 10 = 25.
    let repeat = sampler(true, Addressing::Repeat, Filter::Linear);
    assert_eq!(at(&repeat, 0.0)[0], 25.0);
    // s = 0.875 -> u = 3.5, t = 3, i0 = 3, i1 = 4 -> 0, a = 0: 40.
    assert_eq!(at(&repeat, 0.875)[0], 40.0);
    // s = 1.0 -> u = 0 as s = 0.
    assert_eq!(at(&repeat, 1.0)[0], 25.0);
    // MIRRORED_REPEAT: s = 0 -> i0 = max(-1, 0) = 0, i1 = 0: 10.
    let mirrored = sampler(true, Addressing::MirroredRepeat, Filter::Linear);
    assert_eq!(at(&mirrored, 0.0)[0], 10.0);
    // s = 1.0 -> u = 4, t = 3.5, i0 = 3, i1 = min(4, 3) = 3: 40.
    assert_eq!(at(&mirrored, 1.0)[0], 40.0);
}

#[test]
fn bilinear_and_trilinear_weights() {
    // Rows y = 0: 1, 2; y = 1: 3, 4.
    let image = float_image(Dim::D2, [2, 2, 1], 1, &[1.0, 2.0, 3.0, 4.0]);
    let edge = sampler(false, Addressing::ClampToEdge, Filter::Linear);
    // (1, 1): a = b = 0.5, each weight 0.25: 2.5.
    assert_eq!(x(image.sample(&edge, [1.0, 1.0, 0.0, 0.0])), 2.5);
    // (0.75, 1.25): a = 0.25, b = 0.75: 0.75*0.25*1 + 0.25*0.25*2 +
    // 0.75*0.75*3 + 0.25*0.75*4 = 0.1875 + 0.125 + 1.6875 + 0.75 = 2.75.
    assert_eq!(x(image.sample(&edge, [0.75, 1.25, 0.0, 0.0])), 2.75);
    // Nearest at (1.0, 0.999): texel (1, 0) = 2.
    let nearest = sampler(false, Addressing::ClampToEdge, Filter::Nearest);
    assert_eq!(x(image.sample(&nearest, [1.0, 0.999, 0.0, 0.0])), 2.0);
    // 3D, 2x2x2, v = x + 2y + 4z: linear in each axis, so trilinear
    // filtering gives the function's value at the filtered point:
    // (1, 1, 1) is (0.5, 0.5, 0.5) in texel units: 0.5 + 1 + 2 = 3.5;
    // (0.75, 1.25, 1.0): a = 0.25, b = 0.75, c = 0.5: 3.75.
    let values: Vec<f32> = (0..8).map(|i| i as f32).collect();
    let cube = float_image(Dim::D3, [2, 2, 2], 1, &values);
    assert_eq!(x(cube.sample(&edge, [1.0, 1.0, 1.0, 0.0])), 3.5);
    assert_eq!(x(cube.sample(&edge, [0.75, 1.25, 1.0, 0.0])), 3.75);
    // Normalized: (0.5, 0.5, 0.5) * 2 = (1, 1, 1).
    let normalized = sampler(true, Addressing::ClampToEdge, Filter::Linear);
    assert_eq!(x(cube.sample(&normalized, [0.5, 0.5, 0.5, 0.0])), 3.5);
}

#[test]
fn array_layers_round_to_nearest_even_and_clamp() {
    // A 2D array of 1x1 layers 10, 20, 30; the layer is coord.z.
    let array = float_image(Dim::D2Array, [1, 1, 1], 3, &[10.0, 20.0, 30.0]);
    let linear = sampler(false, Addressing::ClampToEdge, Filter::Linear);
    let at = |z: f32| x(array.sample(&linear, [0.5, 0.5, z, 0.0]));
    // clamp(rint(z), 0, 2): 1.5 -> 2, 0.5 -> 0, 1.4 -> 1 (not
    // interpolated even with a linear filter), -3 -> 0, 7 -> 2.
    assert_eq!(at(1.5), 30.0);
    assert_eq!(at(0.5), 10.0);
    assert_eq!(at(1.4), 20.0);
    assert_eq!(at(-3.0), 10.0);
    assert_eq!(at(7.0), 30.0);
    // A 1D array's layer is coord.y: layers of width 2.
    let array1d = float_image(Dim::D1Array, [2, 1, 1], 2, &[1.0, 2.0, 3.0, 4.0]);
    let nearest = sampler(false, Addressing::ClampToEdge, Filter::Nearest);
    assert_eq!(x(array1d.sample(&nearest, [1.5, 1.0, 0.0, 0.0])), 4.0);
    assert_eq!(array1d.offset([1, 1, 0, 0]), 12);
    // Samplerless reads take integer layers.
    assert_eq!(x(array.read([0, 0, 2, 0])), 30.0);
}

#[test]
fn integer_images_read_nearest_whatever_the_filter() {
    let format = Format::new(CL_R, CL_UNSIGNED_INT8);
    let mut image = Image::new(format, Dim::D1, [4, 1, 1], 1);
    image.data.copy_from_slice(&[1, 2, 3, 4]);
    let linear = sampler(false, Addressing::ClampToEdge, Filter::Linear);
    // floor(1.9) = 1: texel 1, not a blend.
    assert_eq!(
        image.sample(&linear, [1.9, 0.0, 0.0, 0.0]).uint(),
        [2, 0, 0, 1]
    );
    let clamp = sampler(false, Addressing::Clamp, Filter::Nearest);
    assert_eq!(
        image.sample(&clamp, [-1.0, 0.0, 0.0, 0.0]).uint(),
        [0, 0, 0, 1]
    );
}

#[test]
fn writes_land_at_their_coordinates_and_out_of_range_ones_are_dropped() {
    let format = Format::new(CL_RGBA, CL_UNSIGNED_INT8);
    let mut image = Image::new(format, Dim::D3, [2, 2, 2], 1);
    image.write([1, 0, 1, 0], Texel::Uint([1, 2, 3, 4]));
    // ((z * height + y) * width + x) * 4 = ((1 * 2 + 0) * 2 + 1) * 4 = 20.
    assert_eq!(&image.data[20..24], &[1, 2, 3, 4]);
    assert_eq!(image.read([1, 0, 1, 0]).uint(), [1, 2, 3, 4]);
    let before = image.data.clone();
    image.write([2, 0, 0, 0], Texel::Uint([9; 4]));
    image.write([0, -1, 0, 0], Texel::Uint([9; 4]));
    assert_eq!(image.data, before);
}
