//! `length`, `distance`, `normalize` and their `fast_` forms on 1-4 lane
//! floats through the ICD, against f64 host references: ordinary vectors,
//! vectors whose sum of squares overflows or underflows float (which must
//! not show in the result), zero vectors and infinite components.

mod common;

use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::types::CL_BLOCKING;
use std::ptr;

/// Work-items per lane count: each reads p (4 floats) and q (4 floats).
const POINTS: usize = 4096;

fn inputs() -> Vec<f32> {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut uniform = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut v = Vec::with_capacity(POINTS * 8);
    for i in 0..POINTS {
        for lane in 0..8 {
            let x = uniform() * 2.0 - 1.0;
            let value = match i % 8 {
                // Huge: squares overflow float, and lengths pass 2^126.
                1 => x * 3e37 * (1.0 + (i % 3) as f64),
                // Tiny: squares underflow float.
                2 => x * 1e-30,
                // A zero vector (p only).
                3 if lane < 4 => 0.0,
                // One infinite component (lane 1 of p).
                4 if lane == 1 => f64::INFINITY * x.signum(),
                // Mixed magnitudes.
                5 => x * 10f64.powi((lane - 4) * 8),
                _ => x * 100.0,
            };
            v.push(value as f32);
        }
    }
    v
}

fn ulps(got: f32, want: f64) -> f64 {
    if got as f64 == want || (got.is_nan() && want.is_nan()) {
        return 0.0;
    }
    let ulp = f64::from(f32::EPSILON) * 2f64.powi((want.abs().log2().floor()) as i32);
    ((got as f64 - want) / ulp.max(f64::from(f32::MIN_POSITIVE) * f64::from(f32::EPSILON))).abs()
}

fn length(p: &[f64]) -> f64 {
    p.iter().map(|x| x * x).sum::<f64>().sqrt()
}

#[test]
fn geometric_functions_against_f64() {
    let (context, queue) = common::context_and_queue();
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/geometric.cl"))
        .expect("kernel source");
    let program = common::launch::build_source(&context, &source, "");
    let data = inputs();
    let mut worst = [0f64; 3];
    for (n, name) in [(1, "float"), (2, "float2"), (3, "float3"), (4, "float4")] {
        let kernel = Kernel::create(&program, &format!("geometric_{name}")).expect("kernel");
        let mut got = vec![0f32; POINTS * 16];
        // SAFETY: null host pointers; blocking transfers of vectors of the
        // buffers' sizes; the kernel takes two buffers.
        unsafe {
            let mut input =
                Buffer::<f32>::create(&context, CL_MEM_READ_WRITE, data.len(), ptr::null_mut())
                    .expect("input");
            let output =
                Buffer::<f32>::create(&context, CL_MEM_READ_WRITE, got.len(), ptr::null_mut())
                    .expect("output");
            queue
                .enqueue_write_buffer(&mut input, CL_BLOCKING, 0, &data, &[])
                .expect("write");
            ExecuteKernel::new(&kernel)
                .set_arg(&input)
                .set_arg(&output)
                .set_global_work_size(POINTS)
                .enqueue_nd_range(&queue)
                .expect("launch");
            queue
                .enqueue_read_buffer(&output, CL_BLOCKING, 0, &mut got, &[])
                .expect("read");
        }
        for i in 0..POINTS {
            let p32 = &data[8 * i..8 * i + n];
            let q32 = &data[8 * i + 4..8 * i + 4 + n];
            let p: Vec<f64> = p32.iter().map(|&x| f64::from(x)).collect();
            // The device subtracts in float before measuring.
            let d: Vec<f64> = p32.iter().zip(q32).map(|(a, b)| f64::from(a - b)).collect();
            let o = &got[16 * i..16 * i + 16];
            let context = || format!("{name} work-item {i}: p = {p32:?}, q = {q32:?}, out = {o:?}");
            let infinite = p.iter().any(|x| x.is_infinite());
            let zero = p.iter().all(|&x| x == 0.0);

            // length and distance: within 4 ulp, +inf for an infinite
            // component, never spuriously 0 or inf.
            let want_length = if infinite { f64::INFINITY } else { length(&p) };
            let e = ulps(o[0], want_length);
            assert!(e <= 4.0, "length off by {e} ulp: {}", context());
            worst[0] = worst[0].max(e);
            if !d.iter().any(|x| x.is_infinite() || x.is_nan()) {
                let e = ulps(o[1], length(&d));
                assert!(e <= 4.0, "distance off by {e} ulp: {}", context());
                worst[1] = worst[1].max(e);
            }

            // normalize: p for a zero vector, the infinite components'
            // directions, else p / |p| within 4 ulp of 1.
            let want: Vec<f64> = if zero {
                p.clone()
            } else if infinite {
                p.iter()
                    .map(|x| if x.is_infinite() { x.signum() } else { 0.0 })
                    .collect()
            } else {
                let l = length(&p);
                p.iter().map(|x| x / l).collect()
            };
            for (lane, &w) in want.iter().enumerate() {
                let g = f64::from(o[4 + lane]);
                let e = (g - w).abs() / f64::from(f32::EPSILON) * 2.0;
                assert!(
                    e <= 4.0,
                    "normalize lane {lane} off by {e} ulp of 1: {}",
                    context()
                );
                worst[2] = worst[2].max(e);
            }

            // fast_*: 8192 ulp where the sum of squares is a normal float.
            let sum: f64 = p.iter().map(|x| x * x).sum();
            if !infinite && sum > f64::from(f32::MIN_POSITIVE) && sum < f64::from(f32::MAX) {
                let l = sum.sqrt();
                assert!(ulps(o[2], l) <= 8192.0, "fast_length: {}", context());
                for (lane, x) in p.iter().enumerate() {
                    let e = (f64::from(o[8 + lane]) - x / l).abs() / f64::from(f32::EPSILON);
                    assert!(e <= 8192.0, "fast_normalize lane {lane}: {}", context());
                }
            }
            if zero {
                assert_eq!(&o[8..8 + n], p32, "fast_normalize of zero: {}", context());
            }
        }
    }
    println!(
        "worst: length {:.2} ulp, distance {:.2} ulp, normalize {:.2} ulp of 1",
        worst[0], worst[1], worst[2]
    );
}

const EXTREMES: &str = r#"
__kernel void extremes_float(__global const float4 *p, __global float *out) {
    size_t i = get_global_id(0);
    out[6 * i] = length(p[i]);
    out[6 * i + 1] = length(p[i].x);
    out[6 * i + 2] = distance(p[i], (float4)0.0f);
    float4 n = normalize(p[i]);
    out[6 * i + 3] = n.x;
    out[6 * i + 4] = n.y;
    out[6 * i + 5] = n.z;
}
#ifdef cl_khr_fp64
__kernel void extremes_double(__global const double4 *p, __global double *out) {
    size_t i = get_global_id(0);
    out[6 * i] = length(p[i]);
    out[6 * i + 1] = length(p[i].x);
    out[6 * i + 2] = distance(p[i], (double4)0.0);
    double4 n = normalize(p[i]);
    out[6 * i + 3] = n.x;
    out[6 * i + 4] = n.y;
    out[6 * i + 5] = n.z;
}
#endif
"#;

/// |p| and p / |p| to about 106 bits: the components scaled by a power of
/// two near the largest, squared and summed in double-double.
fn exact_length(p: &[f64]) -> (f64, Vec<f64>) {
    let largest = p.iter().fold(0f64, |m, x| m.max(x.abs()));
    if largest == 0.0 {
        return (0.0, p.to_vec());
    }
    let k = libm::ilogb(largest);
    let sum = p
        .iter()
        .map(|&x| {
            let y = common::dd::Dd::of(libm::scalbn(x, -k));
            y.mul(y)
        })
        .fold(common::dd::Dd::of(0.0), |s, t| s.add(t));
    let root = sum.sqrt();
    let unit = p
        .iter()
        .map(|&x| common::dd::Dd::of(libm::scalbn(x, -k)).div(root).hi)
        .collect();
    (libm::scalbn(root.hi, k), unit)
}

/// Components at the ends of each format's range, where the sum of
/// squares overflows or leaves the normal range: `length`, `distance`
/// (to the origin) and `normalize` must not show it
/// (`length(0x1.fffffffffffffp+1022)` was infinite).
#[test]
fn extreme_components_in_float_and_double() {
    let (context, queue) = common::context_and_queue();
    let program = common::launch::build_source(&context, EXTREMES, "");
    let mut random = common::sweep::Random::new(4);
    // Significands in [1, 2), each lane its own binade offset from `e`.
    let mut vectors = |top: i32, bottom: i32| -> Vec<[f64; 4]> {
        let mut out = Vec::new();
        for e in (bottom..=top).step_by(7).chain([top, bottom]) {
            for spread in [0, 1, 5, 30] {
                let mut v = [0.0; 4];
                for (lane, c) in v.iter_mut().enumerate() {
                    let m = 1.0 + (random.next() >> 12) as f64 / (1u64 << 52) as f64;
                    let sign = if random.next() & 1 == 0 { 1.0 } else { -1.0 };
                    *c = sign * libm::scalbn(m, (e - spread * lane as i32).max(bottom));
                }
                out.push(v);
            }
        }
        out
    };
    // float: 2^127 .. the subnormals (2^-149).
    let floats: Vec<[f32; 4]> = vectors(127, -149)
        .into_iter()
        .map(|v| v.map(|c| c as f32))
        .chain([
            [f32::MAX; 4],
            [f32::from_bits(1); 4],
            [f32::MAX, 0.0, 0.0, 0.0],
        ])
        .collect();
    let input = common::buffer_with(&context, &queue, &floats);
    let n = floats.len();
    let out = common::buffer_with(&context, &queue, &vec![0f32; 6 * n]);
    let kernel = Kernel::create(&program, "extremes_float").expect("kernel");
    // SAFETY: the arguments match the kernel's parameters.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&input)
            .set_arg(&out)
            .set_global_work_size(n)
            .enqueue_nd_range(&queue)
            .expect("launch");
    }
    let got = common::read_buffer(&queue, &out, 6 * n);
    let float_ulp = |v: f64| libm::scalbn(1.0, (libm::ilogb(v.abs()) - 23).max(-149));
    for (i, v) in floats.iter().enumerate() {
        let p: Vec<f64> = v.iter().map(|&c| f64::from(c)).collect();
        // A device that flushes float subnormals may lose them: only
        // vectors with a normal component are checked there.
        if p.iter().all(|c| c.abs() < f64::from(f32::MIN_POSITIVE)) {
            continue;
        }
        // Where subnormal components may be flushed (no CL_FP_DENORM, as
        // on NVIDIA's driver), the vector with them read as zero is an
        // answer too; tests/denormals.rs checks that devices reporting
        // CL_FP_DENORM keep them.
        let flushed: Vec<f64> = p
            .iter()
            .map(|&c| {
                if c.abs() < f64::from(f32::MIN_POSITIVE) {
                    0.0 * c
                } else {
                    c
                }
            })
            .collect();
        let error_of = |k: usize, g: f64, p: &[f64]| -> f64 {
            let (l, unit) = exact_length(p);
            let (l1, _) = exact_length(&p[..1]);
            let want = match k {
                0 | 2 => l,
                1 => l1,
                lane => return (g - unit[lane - 3]).abs() / f64::from(f32::EPSILON),
            };
            if want > f64::from(f32::MAX) {
                if g.is_infinite() {
                    0.0
                } else {
                    f64::INFINITY
                }
            } else {
                (g - want).abs() / float_ulp(want)
            }
        };
        for k in 0..6 {
            let g = f64::from(got[6 * i + k]);
            let e = error_of(k, g, &p).min(error_of(k, g, &flushed));
            assert!(
                e <= 4.0,
                "float output {k} (3-5: normalize's lanes) for {v:?}: {g:e} ({e} ulp or eps)"
            );
        }
    }

    let Ok(kernel) = Kernel::create(&program, "extremes_double") else {
        println!("no cl_khr_fp64: the double half is skipped");
        return;
    };
    // double: 2^1023 .. the subnormals (2^-1074).
    let doubles: Vec<[f64; 4]> = vectors(1023, -1074)
        .into_iter()
        .chain([
            [f64::from_bits(0x7fef_ffff_ffff_ffff), 0.0, 0.0, 0.0],
            [f64::MAX; 4],
            [f64::from_bits(1); 4],
            [f64::MIN_POSITIVE, f64::from_bits(3), 0.0, 0.0],
        ])
        .collect();
    let input = common::buffer_with(&context, &queue, &doubles);
    let n = doubles.len();
    let out = common::buffer_with(&context, &queue, &vec![0f64; 6 * n]);
    // SAFETY: the arguments match the kernel's parameters.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&input)
            .set_arg(&out)
            .set_global_work_size(n)
            .enqueue_nd_range(&queue)
            .expect("launch");
    }
    let got = common::read_buffer(&queue, &out, 6 * n);
    let double_ulp = |v: f64| libm::scalbn(1.0, (libm::ilogb(v.abs()) - 52).max(-1074));
    for (i, v) in doubles.iter().enumerate() {
        let (l, unit) = exact_length(v);
        let (l1, _) = exact_length(&v[..1]);
        for (k, want) in [(0, l), (1, l1), (2, l)] {
            let g = got[6 * i + k];
            let e = if want.is_infinite() {
                if g.is_infinite() {
                    0.0
                } else {
                    f64::INFINITY
                }
            } else {
                (g - want).abs() / double_ulp(want)
            };
            assert!(
                e <= 4.0,
                "double output {k} for {v:?}: {g:e}, want {want:e} ({e} ulp)"
            );
        }
        for lane in 0..3 {
            let g = got[6 * i + 3 + lane];
            let e = (g - unit[lane]).abs() / f64::EPSILON;
            assert!(
                e <= 4.0,
                "double normalize lane {lane} of {v:?}: {g:e}, want {:e}",
                unit[lane]
            );
        }
    }
}

const SMALL_LANES: &str = r#"
__kernel void small_lanes_float(__global const float4 *p, __global float4 *out) {
    size_t i = get_global_id(0);
    out[3 * i] = (float4)(normalize(p[i].xy), 0.0f, 0.0f);
    out[3 * i + 1] = (float4)(normalize(p[i].xyz), 0.0f);
    out[3 * i + 2] = normalize(p[i]);
}
#ifdef cl_khr_fp64
__kernel void small_lanes_double(__global const double4 *p, __global double4 *out) {
    size_t i = get_global_id(0);
    out[3 * i] = (double4)(normalize(p[i].xy), 0.0, 0.0);
    out[3 * i + 1] = (double4)(normalize(p[i].xyz), 0.0);
    out[3 * i + 2] = normalize(p[i]);
}
#endif
"#;

/// Vectors of one large component (2^`low`..2^`high`) and components
/// 2^`drop_low`..2^`drop_high` below it, whose normalized lanes are
/// subnormal or just above: as normalize scales an overflowing sum of
/// squares down, such a component became subnormal before the division
/// and lost bits (float `normalize((-0x1.edc072p+64, 0x1.9ebe3p-66))`
/// was 7 ulp off in its subnormal lane, as the OpenCL-CTS found).
fn small_lane_vectors(low: i32, high: i32, drop_low: i32, drop_high: i32) -> Vec<[f64; 4]> {
    let mut random = common::sweep::Random::new(19);
    let mut pick = |lo: i32, hi: i32| lo + (random.next() % (hi - lo + 1) as u64) as i32;
    let mut significand = common::sweep::Random::new(20);
    let mut out = Vec::new();
    for _ in 0..2048 {
        let e = pick(low, high);
        let mut v = [0.0; 4];
        for (lane, c) in v.iter_mut().enumerate() {
            let bits = significand.next();
            let m = 1.0 + (bits >> 12) as f64 / (1u64 << 52) as f64;
            let sign = if bits & 1 == 0 { 1.0 } else { -1.0 };
            let exponent = if lane == 0 {
                e
            } else {
                e - pick(drop_low, drop_high)
            };
            *c = sign * libm::scalbn(m, exponent);
        }
        out.push(v);
    }
    out
}

/// `normalize`'s lanes of subnormal size in float and double, within
/// the OpenCL-CTS's bound (2.5 + n/2 + (n - 1)/2 ulp for n lanes) in
/// units of the result's own format; a float lane whose exact value is
/// subnormal may be 0 on a device without `CL_FP_DENORM` for float.
#[test]
fn normalize_lanes_of_subnormal_size() {
    use opencl3::device::{Device, CL_FP_DENORM};
    let (context, queue) = common::context_and_queue();
    let device = Device::new(context.default_device());
    let float_denormals = device.single_fp_config().expect("fp config") & CL_FP_DENORM != 0;
    let program = common::launch::build_source(&context, SMALL_LANES, "");
    let bound = |n: usize| 2.5 + 0.5 * n as f64 + 0.5 * (n - 1) as f64;

    // float: sums that overflow (2^64 and up) and sums that do not.
    let floats: Vec<[f32; 4]> = small_lane_vectors(20, 127, 100, 152)
        .into_iter()
        .map(|v| v.map(|c| c as f32))
        .collect();
    let n = floats.len();
    let input = common::buffer_with(&context, &queue, &floats);
    let out = common::buffer_with(&context, &queue, &vec![[0f32; 4]; 3 * n]);
    let kernel = Kernel::create(&program, "small_lanes_float").expect("kernel");
    // SAFETY: the arguments match the kernel's parameters.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&input)
            .set_arg(&out)
            .set_global_work_size(n)
            .enqueue_nd_range(&queue)
            .expect("launch");
    }
    let got = common::read_buffer(&queue, &out, 3 * n);
    let float_ulp = |v: f64| libm::scalbn(1.0, (libm::ilogb(v.abs()) - 23).max(-149));
    let mut subnormal_lanes = 0;
    for (i, v) in floats.iter().enumerate() {
        for width in 2..=4 {
            let p: Vec<f64> = v[..width].iter().map(|&c| f64::from(c)).collect();
            let (_, unit) = exact_length(&p);
            for lane in 0..width {
                let g = f64::from(got[3 * i + width - 2][lane]);
                let want = unit[lane];
                let subnormal = want.abs() < f64::from(f32::MIN_POSITIVE);
                subnormal_lanes += usize::from(subnormal);
                if g == 0.0 && subnormal && !float_denormals {
                    continue;
                }
                let e = (g - want).abs() / float_ulp(want);
                assert!(
                    e <= bound(width),
                    "float normalize lane {lane} of {:?}: {g:e} ({:e}), want {want:e} ({e} ulp)",
                    &v[..width],
                    g as f32,
                );
            }
        }
    }
    assert!(subnormal_lanes > 1000, "too few subnormal lanes tested");

    let Ok(kernel) = Kernel::create(&program, "small_lanes_double") else {
        println!("no cl_khr_fp64: the double half is skipped");
        return;
    };
    let doubles = small_lane_vectors(300, 1023, 900, 1070);
    let n = doubles.len();
    let input = common::buffer_with(&context, &queue, &doubles);
    let out = common::buffer_with(&context, &queue, &vec![[0f64; 4]; 3 * n]);
    // SAFETY: the arguments match the kernel's parameters.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&input)
            .set_arg(&out)
            .set_global_work_size(n)
            .enqueue_nd_range(&queue)
            .expect("launch");
    }
    let got = common::read_buffer(&queue, &out, 3 * n);
    let double_ulp = |v: f64| libm::scalbn(1.0, (libm::ilogb(v.abs()) - 52).max(-1074));
    for (i, v) in doubles.iter().enumerate() {
        for width in 2..=4 {
            let (_, unit) = exact_length(&v[..width]);
            for lane in 0..width {
                let g = got[3 * i + width - 2][lane];
                let want = unit[lane];
                let e = (g - want).abs() / double_ulp(want);
                assert!(
                    e <= bound(width),
                    "double normalize lane {lane} of {:?}: {g:e}, want {want:e} ({e} ulp)",
                    &v[..width]
                );
            }
        }
    }
}
