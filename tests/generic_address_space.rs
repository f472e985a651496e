//! The generic address space through the loader (issue 22): pointers whose
//! space is chosen at run time between `__global`, `__local` and private
//! memory, `to_global`/`to_local`/`to_private` (NULL on a mismatch),
//! `get_fence`, generic helper parameters, and the device's report of
//! `__opencl_c_generic_address_space`.

mod common;

use opencl3::device::Device;
use opencl3::kernel::Kernel;

use common::launch::{build_file as build, run_1d as run, set_arg as arg};
use common::{buffer_with as buffer, read_buffer as read};

/// `CLK_LOCAL_MEM_FENCE` and `CLK_GLOBAL_MEM_FENCE`.
const LOCAL_FENCE: i32 = 1;
const GLOBAL_FENCE: i32 = 2;

#[test]
fn the_device_reports_the_generic_address_space() {
    let (context, _queue) = common::context_and_queue();
    let device = Device::new(context.devices()[0]);
    assert!(device.generic_address_space_support().expect("query"));
    let features = device.opencl_c_features().expect("features");
    assert!(features.iter().any(|f| {
        let end = f.name.iter().position(|&b| b == 0).unwrap_or(f.name.len());
        &f.name[..end] == b"__opencl_c_generic_address_space"
    }));
}

#[test]
fn address_space_functions_follow_the_root_chosen_at_run_time() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/generic_address_space.cl");
    const N: usize = 48;
    const LOCAL: usize = 16;
    let data: Vec<i32> = (0..N as i32).map(|i| 100 + i).collect();
    let data_buffer = buffer(&context, &queue, &data);
    let out = buffer(&context, &queue, &[0i32; 8 * N]);
    let kernel = Kernel::create(&program, "classify").expect("kernel");
    arg(&kernel, 0, &out);
    arg(&kernel, 1, &data_buffer);
    // SAFETY: parameter 2 is a `__local int *`.
    unsafe { kernel.set_arg_local_buffer(2, LOCAL * 4) }.expect("local");
    run(&queue, &kernel, N, LOCAL);
    let o = read(&queue, &out, 8 * N);
    let after = read(&queue, &data_buffer, N);
    for i in 0..N {
        let r = &o[8 * i..8 * i + 8];
        let i32_i = i as i32;
        let (flags, fence, space, own) = match i % 3 {
            0 => ([1, 0, 0], GLOBAL_FENCE, 1, 100 + i32_i + 1),
            1 => ([0, 1, 0], LOCAL_FENCE, 2, 2000 + i32_i + 1),
            _ => ([0, 0, 1], 0, 4, 1000 + i32_i + 1),
        };
        assert_eq!(
            &r[..3],
            &flags,
            "work-item {i}: to_global/to_local/to_private non-null"
        );
        assert_eq!(r[3], fence, "work-item {i}: get_fence");
        assert_eq!(
            r[4], space,
            "work-item {i}: a generic helper parameter's space"
        );
        assert_eq!(
            r[5], own,
            "work-item {i}: the value read back through the pointer"
        );
        let local_value = 2000 + i32_i + i32::from(i % 3 == 1);
        assert_eq!(r[6], local_value, "work-item {i}: its __local element");
        assert_eq!(
            r[7],
            1000 + i32_i + i32::from(i % 3 == 2),
            "work-item {i}: its private variable"
        );
        let global_value = 100 + i32_i + i32::from(i % 3 == 0);
        assert_eq!(
            after[i], global_value,
            "work-item {i}: its __global element"
        );
    }
}

#[test]
fn address_space_functions_on_roots_known_at_compile_time() {
    let (context, queue) = common::context_and_queue();
    let program = build(&context, "tests/kernels/generic_address_space.cl");
    let out = buffer(&context, &queue, &[-1i32; 12]);
    let kernel = Kernel::create(&program, "fixed").expect("kernel");
    arg(&kernel, 0, &out);
    // SAFETY: parameter 1 is a `__local int *`.
    unsafe { kernel.set_arg_local_buffer(1, 16) }.expect("local");
    run(&queue, &kernel, 1, 1);
    let o = read(&queue, &out, 12);
    assert_eq!(&o[..7], &[1; 7], "to_* results");
    assert_eq!(&o[7..10], &[GLOBAL_FENCE, LOCAL_FENCE, 0], "get_fence");
    assert_eq!(o[10], 1 | 2 << 4 | 4 << 8, "generic helper parameters");
    assert_eq!(o[11], 1, "to_global(NULL)");
}
