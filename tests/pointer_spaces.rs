//! Pointers across address spaces and built-ins through pointers, through
//! the loader (issue 19): the addresses of program-scope `__constant`
//! variables, `global void *` parameters, every fence flavour, the
//! output-pointer built-ins into `__local` wide vectors and through
//! generic pointers, `half` and atomics through pointer casts of
//! `__local`, `__constant` and private memory, narrow stores through casts
//! of `__local` arguments. Every value is checked against the host.

mod common;

use opencl3::device::Device;
use opencl3::kernel::Kernel;
use opencl3::program::Program;

use common::launch::{build_file as build, run_1d as run, set_arg as arg};
use common::{buffer_with as buffer, read_buffer as read};

/// Sets argument `i` of `kernel` to `__local` memory of `bytes` bytes.
fn local_arg(kernel: &Kernel, i: u32, bytes: usize) {
    // SAFETY: parameter `i` of each caller's kernel is a `__local` pointer.
    unsafe { kernel.set_arg_local_buffer(i, bytes) }.expect("set_arg local");
}

/// Whether the first device reports extension `name`.
fn has_extension(name: &str) -> bool {
    common::context_and_queue();
    let platform = opencl3::platform::get_platforms()
        .expect("platforms")
        .remove(0);
    let ids = platform
        .get_devices(opencl3::device::CL_DEVICE_TYPE_ALL)
        .expect("devices");
    let extensions = Device::new(ids[0]).extensions().expect("extensions");
    extensions.split_whitespace().any(|e| e == name)
}

/// `a` and `b` within `ulps` units in the last place of `b` (f32).
fn close_f32(a: f32, b: f64, ulps: f64) -> bool {
    if b.is_nan() {
        return a.is_nan();
    }
    if b.is_infinite() {
        return a as f64 == b;
    }
    let ulp = f64::from(f32::EPSILON) * b.abs().max(f64::from(f32::MIN_POSITIVE));
    (f64::from(a) - b).abs() <= ulps * ulp
}

/// C's `frexp`: a mantissa in [0.5, 1) and the exponent.
fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let mut e = x.abs().log2().floor() as i32 + 1;
    let mut m = x / 2f64.powi(e);
    // log2 may be one off at powers of two.
    if m.abs() >= 1.0 {
        m /= 2.0;
        e += 1;
    } else if m.abs() < 0.5 {
        m *= 2.0;
        e -= 1;
    }
    (m, e)
}

/// OpenCL's `fract` for `f32`: `x - floor(x)`, below 1, and the floor.
fn fract_f32(x: f32) -> (f32, f32) {
    let fl = x.floor();
    ((x - fl).min(f32::from_bits(0x3f7f_ffff)), fl)
}

/// `remquo(x, y)`: the IEEE remainder and the low 7 bits of the quotient
/// with its sign, computed exactly in f64 for the f32 inputs used here.
fn remquo(x: f64, y: f64) -> (f64, i32) {
    let q = (x / y).round_ties_even();
    let r = x - q * y;
    let bits = (q.abs() as i64 & 0x7f) as i32;
    (r, if q < 0.0 { -bits } else { bits })
}

/// `ln|Gamma(x)|` and its sign, for x > 0 and x not a non-positive
/// integer, by Lanczos (g = 7, n = 9) with reflection below 0.5.
fn lgamma(x: f64) -> (f64, i32) {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let s = (std::f64::consts::PI * x).sin();
        let (l, _) = lgamma(1.0 - x);
        let sign = if s < 0.0 { -1 } else { 1 };
        return ((std::f64::consts::PI / s.abs()).ln() - l, sign);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    let l = 0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln();
    (l, 1)
}

#[test]
fn addresses_of_program_scope_constants_given_to_helpers() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointer_spaces_constants.cl");
    const N: usize = 16;
    let out = buffer(&context, &queue, &[0f32; 5 * N]);
    let kernel = Kernel::create(&program, "constant_addresses").expect("kernel");
    arg(&kernel, 0, &out);
    run(&queue, &kernel, N, 8);
    let got = read(&queue, &out, 5 * N);
    let table = [1.5f32, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5];
    let small = [10f32, 20.0, 30.0];
    let vs = [[1f32, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]];
    for i in 0..N {
        let u = i & 3;
        let want = [
            table[u] + table[u + 1] + table[u + 2] + table[u + 3],
            small[i % 3] + small[1 + (i & 1)],
            0.25 * table[4 + (i & 3)],
            vs[i & 1][2] + vs[1][3],
            table[i & 7] + table[u + 1],
        ];
        assert_eq!(&got[5 * i..5 * i + 5], &want, "work-item {i}");
    }
}

#[test]
fn global_void_parameters_cast_in_the_kernel() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointer_spaces_void.cl");
    const N: usize = 64;
    let floats: Vec<f32> = (0..N).map(|i| i as f32 * 0.75 - 9.0).collect();
    let bytes: Vec<u8> = (0..2 * N).map(|i| (i * 37 + 11) as u8).collect();
    let f = buffer(&context, &queue, &floats);
    let o = buffer(&context, &queue, &[0i32; N]);
    let b = buffer(&context, &queue, &bytes);
    let kernel = Kernel::create(&program, "void_params").expect("kernel");
    arg(&kernel, 0, &f);
    arg(&kernel, 1, &o);
    arg(&kernel, 2, &b);
    run(&queue, &kernel, N, 16);
    let got = read(&queue, &o, N);
    let floats_after = read(&queue, &f, N);
    for i in 0..N {
        let short = u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]);
        let want = (floats[i] * 2.0) as i32 + i32::from(bytes[i]) + i32::from(short);
        assert_eq!(got[i], want, "work-item {i}");
        assert_eq!(floats_after[i], floats[i] + 1.0, "work-item {i}");
    }
}

#[test]
fn every_fence_flavour() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointer_spaces_fences.cl");
    const N: usize = 128;
    const GROUP: usize = 32;
    let scratch = buffer(&context, &queue, &[0i32; N]);
    let out = buffer(&context, &queue, &[0i32; N]);
    let kernel = Kernel::create(&program, "fences").expect("kernel");
    arg(&kernel, 0, &scratch);
    arg(&kernel, 1, &out);
    run(&queue, &kernel, N, GROUP);
    let got = read(&queue, &out, N);
    for (g, &value) in got.iter().enumerate() {
        let base = g - g % GROUP;
        let next = base + (g % GROUP + 1) % GROUP;
        assert_eq!(value as usize, next * 3 + next * 5, "work-item {g}");
    }
}

#[test]
fn output_pointer_builtins_into_local_wide_vectors() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointer_spaces_outputs.cl");
    const N: usize = 16;
    // Positive and negative values with fractions, away from lgamma's
    // poles; 16 per work-item (the first 8 for the 8-lane calls).
    let input: Vec<f32> = (0..16 * N)
        .map(|i| {
            let v = (i as f32 * 0.618_034).fract() * 40.0 - 17.3;
            if (v - v.round()).abs() < 0.05 {
                v + 0.25
            } else {
                v
            }
        })
        .collect();
    let inb = buffer(&context, &queue, &input);
    let out = buffer(&context, &queue, &[0f32; 128 * N]);
    let kernel = Kernel::create(&program, "local_outputs").expect("kernel");
    arg(&kernel, 0, &inb);
    arg(&kernel, 1, &out);
    run(&queue, &kernel, N, 8);
    let got = read(&queue, &out, 128 * N);
    for g in 0..N {
        let o = &got[128 * g..128 * g + 128];
        let x8 = &input[8 * g..8 * g + 8];
        let x16 = &input[16 * g..16 * g + 16];
        for k in 0..8 {
            let x = x8[k];
            let (fr, fl) = fract_f32(x);
            assert_eq!((o[k], o[8 + k]), (fr, fl), "fract({x})");
            let (m, e) = frexp(f64::from(x));
            assert_eq!((o[16 + k], o[24 + k]), (m as f32, e as f32), "frexp({x})");
            let (r, q) = remquo(f64::from(x), 0.75);
            assert_eq!(o[96 + k], r as f32, "remquo({x})");
            assert_eq!(o[104 + k], q as f32, "remquo quo({x})");
            let (l, s) = lgamma(f64::from(x));
            // 16 ulp, or absolutely near lgamma's zeros (1 and 2).
            assert!(
                close_f32(o[112 + k], l, 16.0) || (f64::from(o[112 + k]) - l).abs() < 1e-6,
                "lgamma_r({x}) = {} want {l}",
                o[112 + k]
            );
            assert_eq!(o[120 + k], s as f32, "lgamma_r sign({x})");
        }
        for k in 0..16 {
            let x = x16[k];
            assert_eq!((o[32 + k], o[48 + k]), (x.fract(), x.trunc()), "modf({x})");
            let xd = f64::from(x);
            assert!(close_f32(o[64 + k], xd.sin(), 4.0), "sincos sin({x})");
            assert!(close_f32(o[80 + k], xd.cos(), 4.0), "sincos cos({x})");
        }
    }

    let kernel = Kernel::create(&program, "generic_outputs").expect("kernel");
    let ip = buffer(&context, &queue, &[0f32; 2 * N]);
    let e = buffer(&context, &queue, &[0i32; 2 * N]);
    let c = buffer(&context, &queue, &[0f32; 2 * N]);
    let out = buffer(&context, &queue, &[0f32; 6 * N]);
    arg(&kernel, 0, &inb);
    arg(&kernel, 1, &ip);
    arg(&kernel, 2, &e);
    arg(&kernel, 3, &c);
    arg(&kernel, 4, &out);
    run(&queue, &kernel, N, 8);
    let (ip, e, c, out) = (
        read(&queue, &ip, 2 * N),
        read(&queue, &e, 2 * N),
        read(&queue, &c, 2 * N),
        read(&queue, &out, 6 * N),
    );
    for i in 0..2 * N {
        let x = input[i];
        let (g, lane) = (i / 2, i % 2);
        let (fr, fl) = fract_f32(x);
        assert_eq!((out[6 * g + lane], ip[i]), (fr, fl), "fract({x})");
        let (m, ex) = frexp(f64::from(x));
        assert_eq!((out[6 * g + 2 + lane], e[i]), (m as f32, ex), "frexp({x})");
        assert!(close_f32(out[6 * g + 4 + lane], f64::from(x).sin(), 4.0));
        assert!(close_f32(c[i], f64::from(x).cos(), 4.0), "cos({x})");
    }
}

#[test]
fn output_pointers_of_other_types_convert() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointer_spaces_outputs.cl");
    const N: usize = 32;
    let input: Vec<f32> = (0..2 * N).map(|i| i as f32 * 0.8125 - 13.3).collect();
    let inb = buffer(&context, &queue, &input);
    let ip = buffer(&context, &queue, &[0f32; 2 * N]);
    let e = buffer(&context, &queue, &[0i32; 2 * N]);
    let out = buffer(&context, &queue, &[0f32; 4 * N]);
    let kernel = Kernel::create(&program, "converted_outputs").expect("kernel");
    arg(&kernel, 0, &inb);
    arg(&kernel, 1, &ip);
    arg(&kernel, 2, &e);
    arg(&kernel, 3, &out);
    run(&queue, &kernel, N, 8);
    let (ip, e, out) = (
        read(&queue, &ip, 2 * N),
        read(&queue, &e, 2 * N),
        read(&queue, &out, 4 * N),
    );
    for i in 0..2 * N {
        let x = input[i];
        let (g, lane) = (i / 2, i % 2);
        let (fr, fl) = fract_f32(x);
        assert_eq!(ip[i], fl, "fract's floor of {x}");
        assert_eq!(out[4 * g + lane], fr + x.fract(), "fract + modf of {x}");
        // modf's integral part overwrote frexp's mantissa.
        assert_eq!(
            out[4 * g + 2 + lane],
            x.trunc(),
            "modf's integral part of {x}"
        );
        assert_eq!(e[i], frexp(f64::from(x)).1, "frexp's exponent of {x}");
    }
}

#[test]
fn output_pointer_builtins_into_local_double_vectors() {
    if !has_extension("cl_khr_fp64") {
        eprintln!("skipped: the device does not report cl_khr_fp64");
        return;
    }
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointer_spaces_outputs_double.cl");
    const N: usize = 8;
    let input: Vec<f64> = (0..16 * N)
        .map(|i| (i as f64 * 0.618_033_988_749_895).fract() * 1e3 - 333.3)
        .collect();
    let inb = buffer(&context, &queue, &input);
    let out = buffer(&context, &queue, &[0f64; 64 * N]);
    let kernel = Kernel::create(&program, "local_outputs_double").expect("kernel");
    arg(&kernel, 0, &inb);
    arg(&kernel, 1, &out);
    run(&queue, &kernel, N, 4);
    let got = read(&queue, &out, 64 * N);
    for g in 0..N {
        let o = &got[64 * g..64 * g + 64];
        for k in 0..8 {
            let x = input[8 * g + k];
            let fl = x.floor();
            assert_eq!((o[k], o[8 + k]), (x - fl, fl), "fract({x})");
            let (m, e) = frexp(x);
            assert_eq!((o[16 + k], o[24 + k]), (m, f64::from(e)), "frexp({x})");
        }
        for k in 0..16 {
            let x = input[16 * g + k];
            assert_eq!((o[32 + k], o[48 + k]), (x.fract(), x.trunc()), "modf({x})");
        }
    }
}

/// Floats around `half`'s range: normal and subnormal halfs, values
/// between halfs, beyond the largest one; both signs.
fn half_inputs(n: usize) -> Vec<f32> {
    let mut state = 0x2545_f491_u32;
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let e = (state % 44) as i32 - 26;
            let m = 1.0 + f64::from(state >> 8 & 0xffff) / 65536.0;
            let v = m * 2f64.powi(e);
            (if state & 0x8000_0000 != 0 { -v } else { v }) as f32
        })
        .collect()
}

#[test]
fn half_loads_and_stores_through_casts_of_other_memory() {
    use common::fp16::{half_to_f32, to_half, Rounding};
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointer_spaces_half_memory.cl");
    const N: usize = 16;
    const GROUP: usize = 8;
    let input = half_inputs(32 * N);
    let inb = buffer(&context, &queue, &input);
    let words_out = buffer(&context, &queue, &[0u32; 36 * N]);
    let out = buffer(&context, &queue, &[0f32; 80 * N]);
    let kernel = Kernel::create(&program, "half_memory").expect("kernel");
    arg(&kernel, 0, &inb);
    arg(&kernel, 1, &words_out);
    arg(&kernel, 2, &out);
    local_arg(&kernel, 3, GROUP / 2 * 8 * 4);
    local_arg(&kernel, 4, GROUP * 32 * 4);
    run(&queue, &kernel, N, GROUP);
    let words = read(&queue, &words_out, 36 * N);
    let got = read(&queue, &out, 80 * N);
    let h = |v: f32, mode| to_half(f64::from(v), mode);
    use Rounding::{Rte, Rtn, Rtp, Rtz};
    let table: [u16; 8] = [
        0x3c00, 0x4000, 0xb800, 0x7bff, 0x0001, 0xc200, 0x3555, 0x6400,
    ];
    for g in 0..N {
        let x = &input[32 * g..32 * g + 32];
        let (pair, parity) = (g / 2, g % 2);
        // The pair's 16 halfs, each written by the work-item of its parity.
        let modes = [Rte, Rte, Rtz, Rtp, Rtn, Rtz, Rtp, Rtn];
        let mut pair_halfs = [0u16; 16];
        for (j, mode) in modes.iter().enumerate() {
            for b in 0..2 {
                let xb = &input[32 * (2 * pair + b)..];
                pair_halfs[2 * j + b] = h(xb[j], *mode);
            }
        }
        for k in 0..4 {
            let w = 4 * parity + k;
            let want = u32::from(pair_halfs[2 * w]) | u32::from(pair_halfs[2 * w + 1]) << 16;
            assert_eq!(words[36 * g + k], want, "work-item {g}: pair word {w}");
        }
        // The vector stores over the pattern.
        let mut v = [0u16; 64];
        for k in 0..32 {
            let word = 0x5a5a_0000u32 | (k as u32 * 0x101);
            v[2 * k] = word as u16;
            v[2 * k + 1] = (word >> 16) as u16;
        }
        let stores: [(usize, usize, usize, Rounding); 9] = [
            (0, 2, 0, Rte),
            (2, 2, 2, Rte),
            (6, 3, 4, Rtz),
            (12, 3, 7, Rtp),
            (16, 4, 10, Rtn),
            (24, 8, 14, Rtp),
            (32, 4, 22, Rtz),
            (36, 16, 16, Rte),
            (56, 8, 8, Rtn),
        ];
        for (at, n, from, mode) in stores {
            for k in 0..n {
                v[at + k] = h(x[from + k], mode);
            }
        }
        for k in 0..32 {
            let want = u32::from(v[2 * k]) | u32::from(v[2 * k + 1]) << 16;
            assert_eq!(
                words[36 * g + 4 + k],
                want,
                "work-item {g}: vector word {k}"
            );
        }
        let o = &got[80 * g..80 * g + 80];
        let f = |bits: u16| half_to_f32(bits);
        let mut want = vec![f(pair_halfs[parity]), f(pair_halfs[15])];
        want.extend(v[0..4].iter().map(|&b| f(b)));
        want.extend(v[12..15].iter().map(|&b| f(b)));
        want.extend(v[24..32].iter().map(|&b| f(b)));
        want.extend(v[36..52].iter().map(|&b| f(b)));
        want.extend(v[2..4].iter().map(|&b| f(b)));
        assert_eq!(&o[..35], &want[..], "work-item {g}: __local reads");
        assert_eq!(
            &o[54..62],
            &v[56..64].iter().map(|&b| f(b)).collect::<Vec<_>>()[..],
            "work-item {g}: vloada_half8"
        );
        assert_eq!(
            &o[64..80],
            &v[48..64].iter().map(|&b| f(b)).collect::<Vec<_>>()[..],
            "work-item {g}: vloada_half16"
        );
        // __constant.
        let mut want = vec![f(table[g & 7])];
        want.extend(table[4..8].iter().map(|&b| f(b)));
        want.extend(table[2 * (g & 3)..2 * (g & 3) + 2].iter().map(|&b| f(b)));
        assert_eq!(&o[35..42], &want[..], "work-item {g}: __constant reads");
        // Private.
        let mut private = [
            0x3c00u16, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600, 0x4700, 0x4800,
        ];
        private[6] = h(x[8], Rtz);
        private[7] = h(x[9], Rtz);
        private[1] = h(x[9] * 3.0, Rtp);
        let mut halfs = [0x2222u16, 0x1111, 0x4444, 0x3333];
        for k in 0..3 {
            halfs[k] = h(x[29 + k], Rtn);
        }
        let mut want: Vec<f32> = private[4..8].iter().map(|&b| f(b)).collect();
        want.extend(private[0..4].iter().map(|&b| f(b)));
        assert_eq!(&o[42..50], &want[..], "work-item {g}: private reads");
        let bits = |lo: u16, hi: u16| u32::from(lo) | u32::from(hi) << 16;
        assert_eq!(o[50].to_bits(), bits(halfs[2], halfs[3]), "work-item {g}");
        assert_eq!(o[51].to_bits(), bits(halfs[0], halfs[1]), "work-item {g}");
        assert_eq!(&o[52..54], &[f(halfs[2]), f(halfs[3])], "work-item {g}");
        assert_eq!(
            o[62].to_bits(),
            bits(private[1], private[7]),
            "work-item {g}"
        );
        assert_eq!(
            o[63].to_bits(),
            bits(private[6], private[0]),
            "work-item {g}"
        );
    }
}

#[test]
fn half2_arrays_through_pointer_casts() {
    use common::fp16::{half_to_f64, to_half, Rounding};
    if !has_extension("cl_khr_fp16") {
        eprintln!("skipped: the device does not report cl_khr_fp16");
        return;
    }
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointer_spaces_half2.cl");
    const N: usize = 64;
    const GROUP: usize = 32;
    let lo: Vec<u16> = (0..N)
        .map(|g| to_half(g as f64 * 0.25 - 3.0, Rounding::Rte))
        .collect();
    let hi: Vec<u16> = (0..N).map(|g| 0x1000 + g as u16 * 37).collect();
    let private: Vec<u16> = (0..8 * N)
        .map(|i| 0x2000 + (i as u16 * 113) % 0x5000)
        .collect();
    let mut input = Vec::new();
    for g in 0..N {
        input.extend([lo[g], hi[g]]);
    }
    input.extend(&private);
    let inb = buffer(&context, &queue, &input);
    let out = buffer(&context, &queue, &[0u32; 8 * N]);
    let kernel = Kernel::create(&program, "half2_casts").expect("kernel");
    arg(&kernel, 0, &inb);
    arg(&kernel, 1, &out);
    run(&queue, &kernel, N, GROUP);
    let got = read(&queue, &out, 8 * N);
    let word = |lo: u16, hi: u16| u32::from(lo) | u32::from(hi) << 16;
    for g in 0..N {
        let base = g - g % GROUP;
        let neighbour = base + (g % GROUP + 1) % GROUP;
        let plus_one = to_half(half_to_f64(lo[g]) + 1.0, Rounding::Rte);
        let mut p: Vec<u16> = private[8 * g..8 * g + 8].to_vec();
        let a = word(p[2 * (g & 3)], p[2 * (g & 3) + 1]);
        p[2] = 0x4000;
        p[3] = 0x3c00;
        p[6] = 0xc000;
        let want = [
            u32::from(hi[neighbour]),
            u32::from(lo[g]),
            word(lo[g], plus_one),
            word(lo[g], plus_one),
            a,
            0x3c00_4000,
            word(0xc000, p[7]),
            u32::from(p[g & 7]),
        ];
        assert_eq!(&got[8 * g..8 * g + 8], &want, "work-item {g}");
    }
}

#[test]
fn narrow_stores_through_casts_of_local_arguments_keep_their_neighbours() {
    let (context, queue) = common::context_and_queue();
    let program = build(
        &context,
        "tests/kernels/pointer_spaces_narrow_local_args.cl",
    );
    const N: usize = 128;
    const GROUP: usize = 64;
    let out = buffer(&context, &queue, &[0u32; 4 * N]);
    let kernel = Kernel::create(&program, "narrow_local_args").expect("kernel");
    arg(&kernel, 0, &out);
    local_arg(&kernel, 1, 2 * GROUP * 4);
    local_arg(&kernel, 2, GROUP / 4 * 16);
    local_arg(&kernel, 3, GROUP / 2 * 8);
    run(&queue, &kernel, N, GROUP);
    let got = read(&queue, &out, 4 * N);
    let n = GROUP;
    // The host's bytes of each argument after both phases.
    let mut floats = Vec::new();
    for k in 0..2 * n {
        let v = if k < n {
            1.5 * k as f32
        } else {
            -2.25 * (k - n) as f32
        };
        floats.extend(v.to_le_bytes());
    }
    let mut float4s = Vec::new();
    for l in 0..n / 4 {
        for v in [l as f32, l as f32 + 0.5, -(l as f32), 7.0] {
            float4s.extend(v.to_le_bytes());
        }
    }
    let mut int2s = Vec::new();
    for l in 0..n / 2 {
        for v in [l as i32 * 1000, -(l as i32)] {
            int2s.extend(v.to_le_bytes());
        }
    }
    for l in 0..n {
        floats[l] = (l * 7 + 1) as u8;
        let s = (l as i32 * 300 - 5000) as i16;
        floats[4 * n + 2 * l..4 * n + 2 * l + 2].copy_from_slice(&s.to_le_bytes());
        float4s[l] = (l as i32 - 60) as i8 as u8;
        let u = (l * 999) as u16;
        int2s[2 * l..2 * l + 2].copy_from_slice(&u.to_le_bytes());
    }
    let words = |bytes: &[u8]| -> Vec<u32> {
        bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    let mut want = words(&floats);
    want.extend(words(&float4s));
    want.extend(words(&int2s));
    for group in 0..N / GROUP {
        assert_eq!(
            &got[4 * GROUP * group..4 * GROUP * (group + 1)],
            &want[..],
            "group {group}"
        );
    }
}

#[test]
fn narrow_stores_through_a_cast_of_a_local_double_argument() {
    if !has_extension("cl_khr_fp64") {
        eprintln!("skipped: the device does not report cl_khr_fp64");
        return;
    }
    let (context, queue) = common::context_and_queue();
    let program = build(
        &context,
        "tests/kernels/pointer_spaces_narrow_local_double.cl",
    );
    const N: usize = 128;
    const GROUP: usize = 64;
    let out = buffer(&context, &queue, &[0u64; N / 4]);
    let kernel = Kernel::create(&program, "narrow_local_double").expect("kernel");
    arg(&kernel, 0, &out);
    local_arg(&kernel, 1, GROUP / 4 * 8);
    run(&queue, &kernel, N, GROUP);
    let got = read(&queue, &out, N / 4);
    for (i, &bits) in got.iter().enumerate() {
        let l = i % (GROUP / 4);
        let mut bytes = (0.1 * l as f64 - 3.0).to_le_bytes();
        for k in 0..3 {
            let s = ((4 * l + k) as i32 * 77 - 900) as i16;
            bytes[2 * k..2 * k + 2].copy_from_slice(&s.to_le_bytes());
        }
        assert_eq!(bits, u64::from_le_bytes(bytes), "double {i}");
    }
}

#[test]
fn atomics_through_pointer_casts_of_local_and_private_memory() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointer_spaces_atomics.cl");
    const N: usize = 128;
    const GROUP: usize = 32;
    let input: Vec<f32> = (0..2 * N).map(|i| i as f32 * 1.25 - 40.0).collect();
    let inb = buffer(&context, &queue, &input);
    let out = buffer(&context, &queue, &[0u32; 8 * N]);
    let kernel = Kernel::create(&program, "cast_atomics").expect("kernel");
    arg(&kernel, 0, &inb);
    arg(&kernel, 1, &out);
    local_arg(&kernel, 2, 4 * 4);
    run(&queue, &kernel, N, GROUP);
    let got = read(&queue, &out, 8 * (N / GROUP));
    let sum: usize = (0..GROUP).sum();
    let max = (0..GROUP).map(|l| l * 7 % 13).max().unwrap_or(0);
    for group in 0..N / GROUP {
        let o = &got[8 * group..8 * group + 7];
        assert!(
            (1..=GROUP as u32).contains(&o[0]),
            "group {group}: the compare-exchange winner {}",
            o[0]
        );
        let want = [
            o[0],
            3 * GROUP as u32,
            sum as u32,
            max as u32,
            1f32.to_bits() | 0xffff,
            100 - 2 * GROUP as u32,
            100 - GROUP as u32,
        ];
        assert_eq!(o, &want, "group {group}");
    }

    let kernel = Kernel::create(&program, "private_atomics").expect("kernel");
    arg(&kernel, 0, &inb);
    arg(&kernel, 1, &out);
    run(&queue, &kernel, N, GROUP);
    let got = read(&queue, &out, 8 * N);
    for g in 0..N {
        let (a, b) = (input[2 * g].to_bits(), input[2 * g + 1].to_bits());
        let want = [
            a,
            b,
            2.5f32.to_bits(),
            b ^ 0x8000_0000,
            (g as u32).min(3),
            -7i32 as u32,
            1 | (g as u32) << 2,
            (g as u32).wrapping_add(a.wrapping_add(1)),
        ];
        assert_eq!(&got[8 * g..8 * g + 8], &want, "work-item {g}");
    }
}

#[test]
fn addresses_of_struct_members_read_written_bytewise_and_atomically() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointer_spaces_members.cl");
    const N: usize = 64;
    const GROUP: usize = 32;
    let input: Vec<f32> = (0..4 * N).map(|i| i as f32 * 0.375 - 20.0).collect();
    let inb = buffer(&context, &queue, &input);
    let out = buffer(&context, &queue, &[0u32; 8 * N]);
    let kernel = Kernel::create(&program, "member_bytes").expect("kernel");
    arg(&kernel, 0, &inb);
    arg(&kernel, 1, &out);
    run(&queue, &kernel, N, GROUP);
    let got = read(&queue, &out, 8 * N);
    for g in 0..N {
        let mut bytes: Vec<u8> = input[4 * g..4 * g + 4]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        bytes[0] ^= 1;
        bytes[7] = g as u8;
        let acc = bytes.iter().fold(0u32, |acc, &b| {
            acc.wrapping_mul(31).wrapping_add(u32::from(b))
        });
        let word = |k: usize| {
            u32::from_le_bytes([
                bytes[4 * k],
                bytes[4 * k + 1],
                bytes[4 * k + 2],
                bytes[4 * k + 3],
            ])
        };
        let high = |bits: u32| (bits & 0xffff) | 0x4000_0000;
        let (y0, y1) = if g % 2 == 0 {
            (high(word(1)), 3f32.to_bits())
        } else {
            (word(1), high(3f32.to_bits()))
        };
        let want = [
            acc,
            word(0),
            word(1),
            g as u32 + 5,
            y0,
            y1,
            4.5f32.to_bits(),
            (g as i32).wrapping_neg() as u32,
        ];
        assert_eq!(&got[8 * g..8 * g + 8], &want, "work-item {g}");
    }

    let kernel = Kernel::create(&program, "member_atomics").expect("kernel");
    arg(&kernel, 0, &out);
    run(&queue, &kernel, N, GROUP);
    let got = read(&queue, &out, 3 * (N / GROUP));
    for group in 0..N / GROUP {
        let want = [2 * GROUP as u32, 1.5f32.to_bits(), 0xff];
        assert_eq!(&got[3 * group..3 * group + 3], &want, "group {group}");
    }
}

#[test]
fn integers_converted_to_pointers_in_any_way_a_kernel_computes_them() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointer_spaces_integers.cl");
    const N: usize = 64;
    const GROUP: usize = 32;
    let a: Vec<i32> = (0..N as i32).map(|k| 1000 + 7 * k).collect();
    let b: Vec<i32> = (0..N as i32).map(|k| 5 - 3 * k).collect();
    let ab = buffer(&context, &queue, &a);
    let bb = buffer(&context, &queue, &b);
    let out = buffer(&context, &queue, &[0i32; 8 * N]);
    let kernel = Kernel::create(&program, "integer_pointers").expect("kernel");
    arg(&kernel, 0, &ab);
    arg(&kernel, 1, &bb);
    arg(&kernel, 2, &out);
    run(&queue, &kernel, N, GROUP);
    let got = read(&queue, &out, 8 * N);
    for i in 0..N {
        let lid = i % GROUP;
        let want = [
            a[i],
            b[i],
            if i & 1 == 1 { b[i] } else { a[i] },
            if i % 3 == 0 { b[1] } else { a[2] },
            a[i & !3],
            (i - lid + (lid + 1) % GROUP) as i32,
            16,
            1,
        ];
        assert_eq!(&got[8 * i..8 * i + 8], &want, "work-item {i}");
    }
}

#[test]
fn program_scope_pointers_to_constant_data_across_launches() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/pointer_spaces_program_pointers.cl");
    const N: usize = 16;
    let out = buffer(&context, &queue, &[0f32; 4 * N]);
    let read_through = Kernel::create(&program, "read_through").expect("kernel");
    let choose = Kernel::create(&program, "choose").expect("kernel");
    arg(&read_through, 0, &out);
    let low = [1f32, 2.0, 3.0, 4.0];
    let high = [10f32, 20.0, 30.0, 40.0];
    let ints = [7i32, 9];
    let check = |coefficients: &[f32], cursor: f32, int: usize, step: &str| {
        run(&queue, &read_through, N, N);
        let got = read(&queue, &out, 4 * N);
        let bytes = ints[int].to_le_bytes();
        for i in 0..N {
            let want = [coefficients[i & 1], cursor, f32::from(bytes[i & 3]), 5.0];
            assert_eq!(&got[4 * i..4 * i + 4], &want, "{step}: work-item {i}");
        }
    };
    check(&low, high[1], 0, "initial values");
    arg(&choose, 0, &1i32);
    run(&queue, &choose, 1, 1);
    check(&high[2..], low[3], 1, "after choose(1)");
    arg(&choose, 0, &0i32);
    run(&queue, &choose, 1, 1);
    check(&low, -1.0, 0, "after choose(0)");
}

/// vstore3 into a private array of 3-vectors seen as scalars (the
/// OpenCL-CTS's vstore_private): the store may land on a vector's padding,
/// which the array is held with once a cast reaches it (it wrote the third
/// lane once, a silent wrong result; then the build refused it).
const VSTORE3_PRIVATE: &str = r#"
// The OpenCL-CTS's vstore_private for 3-vectors: a private array of
// 3-vectors (each taking four elements' room) seen as scalars, vstore3 at
// scalar offsets that cross the vectors' padding, read back bytewise.
kernel void vstore3_char(global char *src, global uint *offsets, global char *dst, uint align) {
    char3 store[16];
    int tid = get_global_id(0);
    for (int i = 0; i < 16; i++) store[i] = (char3)(0);
    vstore3(vload3(tid, src), offsets[tid], ((private char *)store) + align);
    private char *sp = ((private char *)store) + 3 * offsets[tid] + align;
    global char *dp = dst + 3 * offsets[tid] + align;
    for (uint i = 0; i < 3; i++) dp[i] = sp[i];
}

kernel void vstore3_short(global short *src, global uint *offsets, global short *dst, uint align) {
    short3 store[16];
    int tid = get_global_id(0);
    for (int i = 0; i < 16; i++) store[i] = (short3)(0);
    vstore3(vload3(tid, src), offsets[tid], ((private short *)store) + align);
    private short *sp = ((private short *)store) + 3 * offsets[tid] + align;
    global short *dp = dst + 3 * offsets[tid] + align;
    for (uint i = 0; i < 3; i++) dp[i] = sp[i];
}
"#;

#[test]
fn stores_through_casts_into_private_three_vectors_keep_their_padding() {
    let (context, queue) = common::context_and_queue();
    let program = Program::create_and_build_from_source(&context, VSTORE3_PRIVATE, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    // Work-item t stores its three elements at element 3 * t + align of
    // the array seen as scalars, and copies them back to the same place
    // of `dst`: what lands on padding must read back too.
    let items = 16usize;
    let offsets: Vec<u32> = (0..items as u32).collect();
    for align in [0u32, 1, 2] {
        let chars: Vec<i8> = (0..items * 3)
            .map(|i| (i as i8).wrapping_mul(29) | 1)
            .collect();
        let shorts: Vec<i16> = (0..items * 3).map(|i| (i as i16) * -313 + 7).collect();
        let mut want_c = vec![0i8; items * 3 + 3];
        let mut want_s = vec![0i16; items * 3 + 3];
        for t in 0..items {
            let at = 3 * t + align as usize;
            want_c[at..at + 3].copy_from_slice(&chars[3 * t..3 * t + 3]);
            want_s[at..at + 3].copy_from_slice(&shorts[3 * t..3 * t + 3]);
        }
        for (name, wide) in [("vstore3_char", false), ("vstore3_short", true)] {
            let kernel = Kernel::create(&program, name).expect("kernel");
            let offsets_buffer = buffer(&context, &queue, &offsets);
            if wide {
                let src = buffer(&context, &queue, &shorts);
                let dst = buffer(&context, &queue, &vec![0i16; want_s.len()]);
                arg(&kernel, 0, &src);
                arg(&kernel, 1, &offsets_buffer);
                arg(&kernel, 2, &dst);
                arg(&kernel, 3, &align);
                run(&queue, &kernel, items, items);
                assert_eq!(
                    read(&queue, &dst, want_s.len()),
                    want_s,
                    "{name} align {align}"
                );
            } else {
                let src = buffer(&context, &queue, &chars);
                let dst = buffer(&context, &queue, &vec![0i8; want_c.len()]);
                arg(&kernel, 0, &src);
                arg(&kernel, 1, &offsets_buffer);
                arg(&kernel, 2, &dst);
                arg(&kernel, 3, &align);
                run(&queue, &kernel, items, items);
                assert_eq!(
                    read(&queue, &dst, want_c.len()),
                    want_c,
                    "{name} align {align}"
                );
            }
        }
    }
}

/// `local void *` kernel parameters (the OpenCL-CTS's
/// get_kernel_arg_info declares them): bytes until cast, then the cast's
/// type, shared by the work-group.
#[test]
fn local_void_parameters_cast_in_the_kernel() {
    const SOURCE: &str = "kernel void k(local void *unused, local void *a, global int *o) {\n\
        local int *p = (local int *)a;\n\
        p[get_local_id(0)] = (int)get_global_id(0) * 3;\n\
        barrier(CLK_LOCAL_MEM_FENCE);\n\
        o[get_global_id(0)] = p[get_local_size(0) - 1 - get_local_id(0)];\n\
    }\n";
    let (context, queue) = common::context_and_queue();
    let program = Program::create_and_build_from_source(&context, SOURCE, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let kernel = Kernel::create(&program, "k").expect("kernel");
    let (n, group) = (256usize, 64usize);
    let out = buffer(&context, &queue, &vec![0i32; n]);
    local_arg(&kernel, 0, 16);
    local_arg(&kernel, 1, group * 4);
    arg(&kernel, 2, &out);
    run(&queue, &kernel, n, group);
    let got = read(&queue, &out, n);
    for (i, &g) in got.iter().enumerate() {
        let mirror = i / group * group + (group - 1 - i % group);
        assert_eq!(g, mirror as i32 * 3, "work-item {i}");
    }
}
