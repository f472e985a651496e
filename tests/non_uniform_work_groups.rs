//! Non-uniform work-groups (OpenCL C 2.0 and later): a global size that is
//! not a multiple of the local size runs, its last groups smaller, with
//! every work-item function and a barrier-synchronised `__local` reduction
//! right in those groups; OpenCL C 1.2 and `-cl-uniform-work-group-size`
//! refuse it with `CL_INVALID_WORK_GROUP_SIZE`.

mod common;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::error_codes::CL_INVALID_WORK_GROUP_SIZE;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::CL_BLOCKING;
use std::ptr;

const GLOBAL: [usize; 2] = [100, 10];
const LOCAL: [usize; 2] = [32, 4];
const OFFSET: [usize; 2] = [3, 7];

#[test]
fn non_uniform_ranges_end_in_smaller_groups() {
    for (k, v) in common::opencl_env() {
        // SAFETY: set before the loader or any other thread reads them.
        unsafe { std::env::set_var(k, v) };
    }
    let platform = get_platforms().expect("platforms").remove(0);
    let ids = platform.get_devices(CL_DEVICE_TYPE_ALL).expect("devices");
    let device = Device::new(ids[0]);
    assert!(device
        .non_uniform_work_group_support()
        .expect("CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT"));
    let context = Context::from_device(&device).expect("context");
    #[allow(deprecated)]
    let queue = CommandQueue::create_default(&context, 0).expect("queue");
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/non_uniform.cl"))
        .expect("kernel source");
    let n = GLOBAL[0] * GLOBAL[1];
    // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
    let out = unsafe {
        Buffer::<u32>::create(&context, CL_MEM_READ_WRITE, n * 10, ptr::null_mut()).expect("buffer")
    };
    let launch = |options: &str| {
        let program = Program::create_and_build_from_source(&context, &source, options)
            .unwrap_or_else(|log| panic!("build failed:\n{log}"));
        let kernel = Kernel::create(&program, "geometry").expect("kernel");
        let scratch = LOCAL[0] * LOCAL[1] * 4;
        // SAFETY: a buffer and a __local size, as the kernel declares.
        unsafe {
            ExecuteKernel::new(&kernel)
                .set_arg(&out)
                .set_arg_local_buffer(scratch)
                .set_global_work_offsets(&OFFSET)
                .set_global_work_sizes(&GLOBAL)
                .set_local_work_sizes(&LOCAL)
                .enqueue_nd_range(&queue)
        }
    };
    for uniform in [
        "",
        "-cl-std=CL1.2",
        "-cl-std=CL3.0 -cl-uniform-work-group-size",
    ] {
        let refused = launch(uniform).expect_err("a non-uniform range must be refused");
        assert_eq!(refused.0, CL_INVALID_WORK_GROUP_SIZE, "options '{uniform}'");
    }
    launch("-cl-std=CL2.0").expect("launch");
    let mut got = vec![0u32; n * 10];
    // SAFETY: a vector of the buffer's length.
    unsafe { queue.enqueue_read_buffer(&out, CL_BLOCKING, 0, &mut got, &[]) }.expect("read");

    let pack = |x: usize, y: usize| (x | y << 16) as u32;
    let groups = [GLOBAL[0].div_ceil(LOCAL[0]), GLOBAL[1].div_ceil(LOCAL[1])];
    for y in 0..GLOBAL[1] {
        for x in 0..GLOBAL[0] {
            let (gx, gy) = (x + OFFSET[0], y + OFFSET[1]);
            let group = [x / LOCAL[0], y / LOCAL[1]];
            let size = [
                LOCAL[0].min(GLOBAL[0] - group[0] * LOCAL[0]),
                LOCAL[1].min(GLOBAL[1] - group[1] * LOCAL[1]),
            ];
            let local = [x % LOCAL[0], y % LOCAL[1]];
            let items = size[0] * size[1];
            let expected = [
                pack(local[0], local[1]),
                pack(size[0], size[1]),
                pack(LOCAL[0], LOCAL[1]),
                pack(group[0], group[1]),
                pack(groups[0], groups[1]),
                (y * GLOBAL[0] + x) as u32,
                (items * (items + 1) / 2) as u32,
                gx as u32,
                gy as u32,
                (local[1] * size[0] + local[0]) as u32,
            ];
            let at = 10 * (y * GLOBAL[0] + x);
            assert_eq!(&got[at..at + 10], &expected, "work-item ({x}, {y})");
        }
    }
}
