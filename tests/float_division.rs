//! `x / y` in `float` within OpenCL's 2.5 ulp over the whole range,
//! divisors beyond 2^126 and infinite ones included (Vulkan bounds
//! division only up to 2^126, and a driver dividing through a flushed
//! reciprocal returned 0 there), against f64 on the host. Subnormal
//! operands and results may be flushed: the device does not report
//! `CL_FP_DENORM`.

mod common;

use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::types::CL_BLOCKING;
use std::ptr;

const SOURCE: &str = r#"
__kernel void divide(__global const float *x, __global const float *y,
                     __global float *q, __global float4 *v) {
    size_t i = get_global_id(0);
    q[i] = x[i] / y[i];
    v[i] = (float4)(x[i]) / (float4)(y[i], 1.0f, -y[i], 2.0f);
}
"#;

fn subnormal(v: f64) -> bool {
    v != 0.0 && v.abs() < f64::from(f32::MIN_POSITIVE)
}

/// Whether `got` is `x / y` within 2.5 ulp, or what flushing subnormal
/// operands or results allows.
fn acceptable(x: f32, y: f32, got: f32) -> bool {
    let want = f64::from(x) / f64::from(y);
    let flushed_y = if subnormal(f64::from(y)) {
        0.0 * y.signum()
    } else {
        y
    };
    let flushed_x = if subnormal(f64::from(x)) {
        0.0 * x.signum()
    } else {
        x
    };
    let alternative = f64::from(flushed_x) / f64::from(flushed_y);
    let close = |want: f64| {
        if want.is_nan() {
            return got.is_nan();
        }
        if got as f64 == want {
            return true;
        }
        if want.is_infinite() || got.is_infinite() {
            // Overflowing by rounding at the very top is within an ulp.
            return (want.abs() > f64::from(f32::MAX))
                && got.is_infinite()
                && got.signum() as f64 == want.signum();
        }
        if (subnormal(want) || want.abs() < f64::from(f32::MIN_POSITIVE)) && got == 0.0 {
            return true;
        }
        // Below FLT_MIN the spacing is that of the subnormals, 2^-149.
        let ulp = (f64::from(f32::EPSILON) * 2f64.powi(want.abs().log2().floor() as i32))
            .max(2f64.powi(-149));
        ((f64::from(got) - want) / ulp).abs() <= 2.5
    };
    close(want) || close(alternative)
}

#[test]
fn float_division_over_the_whole_range() {
    let (context, queue) = common::context_and_queue();
    let program = common::launch::build_source(&context, SOURCE, "");
    let kernel = Kernel::create(&program, "divide").expect("kernel");
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let n = 1 << 16;
    let mut x = Vec::with_capacity(n);
    let mut y = Vec::with_capacity(n);
    for i in 0..n {
        let a = f32::from_bits(next() as u32 & 0x7fff_ffff | (next() as u32 & 0x8000_0000));
        let b = f32::from_bits(next() as u32 & 0x7fff_ffff | (next() as u32 & 0x8000_0000));
        let (a, b) = match i % 8 {
            // Divisors beyond 2^126.
            0 => (a, 1.0e38 * (1.0 + (i % 97) as f32 / 97.0)),
            1 => (a.clamp(-1e30, 1e30), f32::MAX),
            2 => (a, f32::INFINITY * if i % 16 == 2 { 1.0 } else { -1.0 }),
            _ => (a, b),
        };
        x.push(if a.is_nan() { 1.5 } else { a });
        y.push(if b.is_nan() { -2.5 } else { b });
    }
    let mut q = vec![0f32; n];
    let mut v = vec![0f32; 4 * n];
    // SAFETY: null host pointers; blocking transfers of vectors of the
    // buffers' sizes; the kernel takes four buffers.
    unsafe {
        let mut dx =
            Buffer::<f32>::create(&context, CL_MEM_READ_WRITE, n, ptr::null_mut()).expect("x");
        let mut dy =
            Buffer::<f32>::create(&context, CL_MEM_READ_WRITE, n, ptr::null_mut()).expect("y");
        let dq = Buffer::<f32>::create(&context, CL_MEM_READ_WRITE, n, ptr::null_mut()).expect("q");
        let dv =
            Buffer::<f32>::create(&context, CL_MEM_READ_WRITE, 4 * n, ptr::null_mut()).expect("v");
        queue
            .enqueue_write_buffer(&mut dx, CL_BLOCKING, 0, &x, &[])
            .expect("write");
        queue
            .enqueue_write_buffer(&mut dy, CL_BLOCKING, 0, &y, &[])
            .expect("write");
        ExecuteKernel::new(&kernel)
            .set_arg(&dx)
            .set_arg(&dy)
            .set_arg(&dq)
            .set_arg(&dv)
            .set_global_work_size(n)
            .enqueue_nd_range(&queue)
            .expect("launch");
        queue
            .enqueue_read_buffer(&dq, CL_BLOCKING, 0, &mut q, &[])
            .expect("read");
        queue
            .enqueue_read_buffer(&dv, CL_BLOCKING, 0, &mut v, &[])
            .expect("read");
    }
    let mut bad = Vec::new();
    for i in 0..n {
        let divisors = [y[i], y[i], 1.0, -y[i], 2.0];
        let results = [q[i], v[4 * i], v[4 * i + 1], v[4 * i + 2], v[4 * i + 3]];
        for (&d, &r) in divisors.iter().zip(&results) {
            if !acceptable(x[i], d, r) && bad.len() < 10 {
                bad.push(format!(
                    "{:e} / {:e} = {:e} (want {:e})",
                    x[i],
                    d,
                    r,
                    f64::from(x[i]) / f64::from(d)
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "divisions out of bounds:\n{}",
        bad.join("\n")
    );
}
