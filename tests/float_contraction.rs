//! Floating-point contraction as OpenCL C's default `FP_CONTRACT ON` (and
//! clang) has it: `a * b + c` within one expression becomes one fused
//! multiply-add (`Fma`), in each of its four forms and as `+=`/`-=`, with
//! the right signs.
//! Vulkan lets `Fma` round twice (lavapipe does; NVIDIA fuses), so each
//! result may be the fused one or the unfused one, and nothing else. With
//! a = b = 1 + 2^-12 and c = -(1 + 2^-11), the fused result is the
//! product's rounding error, 2^-24, and the unfused one 0.

mod common;

use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::program::Program;
use opencl3::types::CL_BLOCKING;
use std::ptr;

const SOURCE: &str = r#"
__kernel void contract(__global float *out, float a, float b, float c) {
    out[0] = a * b + c;
    out[1] = c + a * b;
    out[2] = a * b - (-c);
    out[3] = -c - a * b;
    float product = a * b;
    out[4] = product + c;
    out[5] = (float2)(a * b + c).y;
    float sum = c;
    sum += a * b;
    out[6] = sum;
    float difference = -c;
    difference -= a * b;
    out[7] = difference;
}
"#;

#[test]
fn products_added_in_one_expression_are_fused() {
    let (context, queue) = common::context_and_queue();
    let program = Program::create_and_build_from_source(&context, SOURCE, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let kernel = Kernel::create(&program, "contract").expect("kernel");
    // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
    let out = unsafe {
        Buffer::<f32>::create(&context, CL_MEM_READ_WRITE, 8, ptr::null_mut()).expect("buffer")
    };
    let a = 1.0 + f32::powi(2.0, -12);
    let c = -(1.0 + f32::powi(2.0, -11));
    // SAFETY: the arguments match the kernel's parameters.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&out)
            .set_arg(&a)
            .set_arg(&a)
            .set_arg(&c)
            .set_global_work_size(1)
            .enqueue_nd_range(&queue)
            .expect("launch");
    }
    let mut got = [0f32; 8];
    // SAFETY: eight floats, the buffer's size.
    unsafe { queue.enqueue_read_buffer(&out, CL_BLOCKING, 0, &mut got, &[]) }.expect("read");
    let error = f32::powi(2.0, -24);
    assert_eq!(a.mul_add(a, c), error, "the host's own fma");
    let expected = [error, error, error, -error, 0.0, error, error, -error];
    for (i, (&g, &fused)) in got.iter().zip(&expected).enumerate() {
        assert!(
            g == fused || g == 0.0,
            "out[{i}] = {g:e}: neither {fused:e} nor 0"
        );
    }
    println!("contracted results: {got:?} (fused: {})", got[0] == error);
}

/// `#pragma OPENCL FP_CONTRACT OFF`: nothing is fused, by the compiler or
/// by the driver, so results are the host's, bit for bit, with every
/// multiply and add rounded on its own. A Mandelbrot iteration amplifies
/// any fused step into a different escape count or orbit; `x * y + x`
/// differs in one lane of about four when fused.
const UNFUSED: &str = r#"
#pragma OPENCL FP_CONTRACT OFF
__kernel void mandelbrot(__global float *orbit, __global int *count, int width, int steps) {
    int i = get_global_id(0);
    float cr = -2.0f + 2.5f * (float)(i % width) / (float)width;
    float ci = -1.25f + 2.5f * (float)(i / width) / (float)width;
    float zr = 0.0f, zi = 0.0f;
    int n = 0;
    while (n < steps && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        n++;
    }
    orbit[2 * i] = zr;
    orbit[2 * i + 1] = zi;
    count[i] = n;
}
__kernel void product_plus(__global float *out, __global const float *x, __global const float *y) {
    int i = get_global_id(0);
    out[4 * i] = x[i] * y[i] + x[i];
    out[4 * i + 1] = x[i] - x[i] * y[i];
    float s = x[i];
    s += x[i] * y[i];
    out[4 * i + 2] = s;
    {
#pragma OPENCL FP_CONTRACT ON
    }
    // The inner pragma ended with its block.
    out[4 * i + 3] = (x[i] * y[i]) + (y[i] * x[i]);
}
#ifdef cl_khr_fp64
__kernel void product_plus_double(__global double *out, __global const double *x, __global const double *y) {
    int i = get_global_id(0);
    out[i] = x[i] * y[i] + x[i];
}
#endif
"#;

fn build_unfused(context: &opencl3::context::Context) -> Program {
    Program::create_and_build_from_source(context, UNFUSED, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"))
}

#[test]
fn mandelbrot_without_contraction_is_bit_exact() {
    let (context, queue) = common::context_and_queue();
    let program = build_unfused(&context);
    let kernel = Kernel::create(&program, "mandelbrot").expect("kernel");
    let (width, steps) = (64i32, 2000i32);
    let n = (width * width) as usize;
    let orbit = common::buffer_with(&context, &queue, &vec![0f32; 2 * n]);
    let count = common::buffer_with(&context, &queue, &vec![0i32; n]);
    // SAFETY: the arguments match the kernel's parameters.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&orbit)
            .set_arg(&count)
            .set_arg(&width)
            .set_arg(&steps)
            .set_global_work_size(n)
            .enqueue_nd_range(&queue)
            .expect("launch");
    }
    let got_orbit = common::read_buffer(&queue, &orbit, 2 * n);
    let got_count = common::read_buffer(&queue, &count, n);
    let mut mismatches = 0;
    for i in 0..n {
        // Rust's f32 arithmetic rounds every operation: never fused.
        let w = width as f32;
        let cr = -2.0f32 + 2.5f32 * (i as i32 % width) as f32 / w;
        let ci = -1.25f32 + 2.5f32 * (i as i32 / width) as f32 / w;
        let (mut zr, mut zi, mut k) = (0f32, 0f32, 0);
        while k < steps && zr * zr + zi * zi <= 4.0 {
            let t = zr * zr - zi * zi + cr;
            zi = 2.0 * zr * zi + ci;
            zr = t;
            k += 1;
        }
        let same = got_count[i] == k
            && got_orbit[2 * i].to_bits() == zr.to_bits()
            && got_orbit[2 * i + 1].to_bits() == zi.to_bits();
        if !same {
            if mismatches < 5 {
                eprintln!(
                    "point {i}: got {} steps, ({:e}, {:e}); host {k}, ({zr:e}, {zi:e})",
                    got_count[i],
                    got_orbit[2 * i],
                    got_orbit[2 * i + 1]
                );
            }
            mismatches += 1;
        }
    }
    assert_eq!(
        mismatches, 0,
        "{mismatches} of {n} points differ from the unfused host"
    );
}

#[test]
fn product_plus_without_contraction_rounds_twice() {
    let (context, queue) = common::context_and_queue();
    let program = build_unfused(&context);
    let mut random = common::sweep::Random::new(19);
    let n = 4096;
    // Mantissas with many bits, so the product's rounding error matters.
    let mut fraction = |scale: f32| (random.next() >> 41) as f32 * scale;
    let x: Vec<f32> = (0..n)
        .map(|_| 1.0 + fraction(f32::powi(2.0, -23)))
        .collect();
    let y: Vec<f32> = (0..n)
        .map(|_| -0.5 - fraction(f32::powi(2.0, -24)))
        .collect();
    let out = common::buffer_with(&context, &queue, &vec![0f32; 4 * n]);
    let xb = common::buffer_with(&context, &queue, &x);
    let yb = common::buffer_with(&context, &queue, &y);
    let kernel = Kernel::create(&program, "product_plus").expect("kernel");
    // SAFETY: the arguments match the kernel's parameters.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&out)
            .set_arg(&xb)
            .set_arg(&yb)
            .set_global_work_size(n)
            .enqueue_nd_range(&queue)
            .expect("launch");
    }
    let got = common::read_buffer(&queue, &out, 4 * n);
    let mut fusable = 0;
    for i in 0..n {
        let (a, b) = (x[i], y[i]);
        let want = [a * b + a, a - a * b, a + a * b, a * b + b * a];
        if a.mul_add(b, a) != want[0] {
            fusable += 1;
        }
        for (lane, w) in want.iter().enumerate() {
            let g = got[4 * i + lane];
            assert_eq!(
                g.to_bits(),
                w.to_bits(),
                "out[{}] for x = {a:e}, y = {b:e}: {g:e}, the unfused result is {w:e}",
                4 * i + lane
            );
        }
    }
    // The inputs test something: fusing would change many results.
    assert!(
        fusable > n / 8,
        "only {fusable} of {n} inputs tell fused from unfused"
    );

    let xd: Vec<f64> = x
        .iter()
        .map(|&v| f64::from(v) * (1.0 + f64::EPSILON * 977.0))
        .collect();
    let yd: Vec<f64> = y
        .iter()
        .map(|&v| f64::from(v) * (1.0 - f64::EPSILON * 311.0))
        .collect();
    let out = common::buffer_with(&context, &queue, &vec![0f64; n]);
    let xb = common::buffer_with(&context, &queue, &xd);
    let yb = common::buffer_with(&context, &queue, &yd);
    let Ok(kernel) = Kernel::create(&program, "product_plus_double") else {
        println!("no cl_khr_fp64: the double case is skipped");
        return;
    };
    // SAFETY: the arguments match the kernel's parameters.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&out)
            .set_arg(&xb)
            .set_arg(&yb)
            .set_global_work_size(n)
            .enqueue_nd_range(&queue)
            .expect("launch");
    }
    let got = common::read_buffer(&queue, &out, n);
    for i in 0..n {
        let want = xd[i] * yd[i] + xd[i];
        assert_eq!(
            got[i].to_bits(),
            want.to_bits(),
            "double out[{i}]: {:e}, unfused {want:e}",
            got[i]
        );
    }
}
