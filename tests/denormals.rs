//! Denormals as the device reports them: `CL_FP_DENORM` in
//! `CL_DEVICE_SINGLE_FP_CONFIG` promises that `float` subnormals survive
//! arithmetic, and a device reporting `cl_khr_fp64` must keep `double`
//! subnormals (OpenCL requires `CL_FP_DENORM` of `double`). Each is
//! checked against the host's IEEE arithmetic, bit for bit, on products,
//! sums, (double) quotients and values scaled deeper into the subnormals and back.
//! `-cl-denorms-are-zero` lets a build flush `float` subnormals: results
//! are then the exact ones or zeros of the right sign.

mod common;

use opencl3::device::{Device, CL_FP_DENORM};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::program::Program;

const SOURCE: &str = r#"
// Every operation rounded on its own, as on the host.
#pragma OPENCL FP_CONTRACT OFF
__kernel void floats(__global float *out, __global const float *x, __global const float *y) {
    int i = get_global_id(0);
    out[4 * i] = x[i] * y[i];
    out[4 * i + 1] = x[i] + y[i] * 0x1p-126f;
    out[4 * i + 2] = x[i] * 0.75f - y[i] * 0x1p-140f;
    out[4 * i + 3] = (x[i] * 0x1p-20f) * 0x1p+20f;
}
#ifdef cl_khr_fp64
__kernel void doubles(__global double *out, __global const double *x, __global const double *y) {
    int i = get_global_id(0);
    out[4 * i] = x[i] * y[i];
    out[4 * i + 1] = x[i] + y[i] * 0x1p-1022;
    out[4 * i + 2] = x[i] / (y[i] + 3.0);
    out[4 * i + 3] = (x[i] * 0x1p-40) * 0x1p+40;
}
#endif
"#;

/// Operands whose results are subnormal, or that are subnormal themselves.
fn operands(n: usize, seed: u64, smallest_normal: f64) -> (Vec<f64>, Vec<f64>) {
    let mut random = common::sweep::Random::new(seed);
    let mut unit = || (random.next() >> 11) as f64 / (1u64 << 53) as f64;
    let x = (0..n)
        .map(|i| {
            let scale = if i % 2 == 0 { 1.0 } else { 1e-3 };
            (unit() - 0.5) * smallest_normal * scale
        })
        .collect();
    let y = (0..n).map(|_| unit() * 1.5 + 0.25).collect();
    (x, y)
}

fn run<T: Copy + Default>(
    context: &opencl3::context::Context,
    queue: &opencl3::command_queue::CommandQueue,
    program: &Program,
    name: &str,
    x: &[T],
    y: &[T],
) -> Vec<T> {
    let kernel = Kernel::create(program, name).expect("kernel");
    let out = common::buffer_with(context, queue, &vec![T::default(); 4 * x.len()]);
    let xb = common::buffer_with(context, queue, x);
    let yb = common::buffer_with(context, queue, y);
    // SAFETY: the arguments match the kernel's parameters.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&out)
            .set_arg(&xb)
            .set_arg(&yb)
            .set_global_work_size(x.len())
            .enqueue_nd_range(queue)
            .expect("launch");
    }
    common::read_buffer(queue, &out, 4 * x.len())
}

#[test]
fn subnormals_are_kept_where_reported() {
    let (context, queue) = common::context_and_queue();
    let device = Device::new(context.default_device());
    let single = device.single_fp_config().expect("single fp config");
    let double = device.double_fp_config().unwrap_or(0);
    if double != 0 {
        assert_ne!(
            double & CL_FP_DENORM,
            0,
            "double support without CL_FP_DENORM"
        );
    }
    println!("float denormals: {}", single & CL_FP_DENORM != 0);
    for options in ["", "-cl-denorms-are-zero"] {
        let program = Program::create_and_build_from_source(&context, SOURCE, options)
            .unwrap_or_else(|log| panic!("build failed:\n{log}"));
        let n = 2048;
        let (x, y) = operands(n, 7, f64::from(f32::MIN_POSITIVE));
        let x: Vec<f32> = x.iter().map(|&v| v as f32).collect();
        let y: Vec<f32> = y.iter().map(|&v| v as f32).collect();
        let got = run(&context, &queue, &program, "floats", &x, &y);
        let exact = single & CL_FP_DENORM != 0 && options.is_empty();
        let mut flushed = 0;
        for i in 0..n {
            let (a, b) = (x[i], y[i]);
            let want = [
                a * b,
                a + b * f32::powi(2.0, -126),
                // 2^-140 (`powi` would divide by an overflowed 2^140).
                a * 0.75 - b * f32::from_bits(1 << 9),
                (a * f32::powi(2.0, -20)) * f32::powi(2.0, 20),
            ];
            for (lane, w) in want.iter().enumerate() {
                let g = got[4 * i + lane];
                if g.to_bits() == w.to_bits() {
                    continue;
                }
                // Flushing: a subnormal operand or result may be a zero.
                let allowed = !exact && (g == 0.0 || w.is_subnormal() || a.is_subnormal());
                assert!(
                    allowed,
                    "float lane {lane} of x = {a:e}, y = {b:e} ({options:?}): {g:e}, want {w:e}"
                );
                flushed += 1;
            }
        }
        println!("{options:?}: {flushed} float results flushed");
        if double == 0 {
            continue;
        }
        let (x, y) = operands(n, 11, f64::MIN_POSITIVE);
        let got = run(&context, &queue, &program, "doubles", &x, &y);
        for i in 0..n {
            let (a, b) = (x[i], y[i]);
            let want = [
                a * b,
                a + b * f64::powi(2.0, -1022),
                a / (b + 3.0),
                (a * f64::powi(2.0, -40)) * f64::powi(2.0, 40),
            ];
            for (lane, w) in want.iter().enumerate() {
                let g = got[4 * i + lane];
                assert_eq!(
                    g.to_bits(),
                    w.to_bits(),
                    "double lane {lane} of x = {a:e}, y = {b:e} ({options:?}): {g:e}, want {w:e}"
                );
            }
        }
    }
}
