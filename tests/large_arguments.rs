//! By-value kernel arguments beyond the device's push-constant budget
//! (Vulkan guarantees 128 bytes; OpenCL promises at least 1 KiB): the
//! launch block moves to a storage buffer filled per launch, and every
//! argument, the launch header (global offset, work dimension) included,
//! still arrives. A kernel whose arguments fit keeps push constants, and
//! both run in one queue.

mod common;

use opencl3::device::Device;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_WRITE_ONLY};
use opencl3::program::Program;
use opencl3::types::CL_BLOCKING;
use std::ptr;

/// 80 floats (320 bytes) plus a 64-byte struct and narrow scalars: more
/// than any device's push constants once the header is added.
const FLOATS: usize = 80;

/// The host side of `Params`.
#[repr(C, align(16))]
#[derive(Clone, Copy)]
struct Params {
    a: [f32; 4],
    b: [i32; 8],
    c: i64,
}

fn source() -> String {
    let floats: Vec<String> = (0..FLOATS).map(|i| format!("float a{i}")).collect();
    let sum: Vec<String> = (0..FLOATS).map(|i| format!("a{i}")).collect();
    format!(
        "typedef struct {{ float4 a; int b[8]; long c; }} Params;\n\
         __kernel void many(__global float *out, {}, Params p, char c, short s, uchar u) {{\n\
             size_t i = get_global_id(0);\n\
             float sum = {};\n\
             out[i - get_global_offset(0)] = sum * (float)i + p.a.y + (float)p.b[3]\n\
                 + (float)p.c + (float)c + (float)s + (float)u + (float)get_work_dim();\n\
         }}\n\
         __kernel void few(__global float *out, float x) {{\n\
             out[get_global_id(0) - get_global_offset(0)] += x;\n\
         }}\n",
        floats.join(", "),
        sum.join(" + ")
    )
}

#[test]
fn arguments_beyond_the_push_constant_budget_arrive() {
    let (context, queue) = common::context_and_queue();
    let device = Device::new(context.default_device());
    assert!(
        device.max_parameter_size().expect("max parameter size") >= 1024,
        "the full profile's minimum"
    );
    let program = Program::create_and_build_from_source(&context, &source(), "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let many = Kernel::create(&program, "many").expect("many");
    let few = Kernel::create(&program, "few").expect("few");
    const N: usize = 1000;
    const OFFSET: usize = 5;
    // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
    let out = unsafe {
        Buffer::<f32>::create(&context, CL_MEM_WRITE_ONLY, N, ptr::null_mut()).expect("buffer")
    };
    let floats: Vec<f32> = (0..FLOATS).map(|i| (i % 7) as f32 - 2.0).collect();
    let params = Params {
        a: [1.0, 2.5, 3.0, 4.0],
        b: [0, 1, 2, 30, 4, 5, 6, 7],
        c: 1000,
    };
    let (c, s, u) = (-3i8, -300i16, 200u8);
    // SAFETY: the argument types and sizes match the kernels' parameters.
    unsafe {
        let mut launch = ExecuteKernel::new(&many);
        launch.set_arg(&out);
        for f in &floats {
            launch.set_arg(f);
        }
        launch
            .set_arg(&params)
            .set_arg(&c)
            .set_arg(&s)
            .set_arg(&u)
            .set_global_work_offset(OFFSET)
            .set_global_work_size(N)
            .enqueue_nd_range(&queue)
            .expect("many");
        ExecuteKernel::new(&few)
            .set_arg(&out)
            .set_arg(&0.25f32)
            .set_global_work_offset(OFFSET)
            .set_global_work_size(N)
            .enqueue_nd_range(&queue)
            .expect("few");
    }
    let mut got = vec![0f32; N];
    // SAFETY: a vector of the buffer's length.
    unsafe { queue.enqueue_read_buffer(&out, CL_BLOCKING, 0, &mut got, &[]) }.expect("read");
    let sum: f32 = floats.iter().sum();
    for (k, &value) in got.iter().enumerate() {
        let i = (k + OFFSET) as f32;
        let expected = sum * i + 2.5 + 30.0 + 1000.0 - 3.0 - 300.0 + 200.0 + 1.0 + 0.25;
        assert_eq!(value, expected, "work-item {}", k + OFFSET);
    }
}
