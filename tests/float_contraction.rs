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
