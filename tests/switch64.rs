//! `switch` on 64-bit values through the loader: labels that fit 32 bits
//! (read as a 32-bit switch after a range check), labels that do not, with
//! fall-through and `default` in the middle, checked against the host.

mod common;

use opencl3::kernel::{ExecuteKernel, Kernel};

/// What `tests/kernels/switch64.cl` computes for `v`.
fn expected(v: i64) -> i32 {
    let mut acc = 0;
    match v {
        -1 | 3 => acc += 11,
        7 => acc += 10,
        0x7fff_ffff => acc += 1000,
        -0x8000_0000 => acc += 5,
        _ => acc += 1100,
    }
    match v as u64 {
        0x1_0000_0003 => acc += 50000,
        3 => acc += 30000,
        u64::MAX => acc += 40000,
        _ => acc += 50000,
    }
    match v as u64 {
        7 => acc += 600000,
        0xffff_ffff => acc += 700000,
        _ => {}
    }
    acc
}

#[test]
fn switch_on_long_and_ulong() {
    let mut values: Vec<i64> = vec![
        -1,
        3,
        7,
        0,
        1,
        0x7fff_ffff,
        -0x8000_0000,
        0x1_0000_0003,
        0x1_0000_0007,
        0xffff_ffff,
        0x1_ffff_ffff,
        // Low 32 bits that match labels, out of the 32-bit range.
        0xffff_ffff_0000_0003u64 as i64,
        0x7fff_ffff_0000_0007,
        0x1_7fff_ffff,
        0x1_8000_0000,
        -0x8000_0001,
        i64::MIN,
        i64::MAX,
    ];
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    while values.len() < 256 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        // Small values hit the labels often; the rest are anywhere.
        let v = if state >> 63 == 0 {
            (state >> 32) as i64 % 9 - 1
        } else {
            state as i64
        };
        values.push(v);
    }
    let (context, queue) = common::context_and_queue();
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/switch64.cl"))
        .expect("kernel source");
    let program = common::launch::build_source(&context, &source, "");
    let kernel = Kernel::create(&program, "switch64").expect("kernel");
    let input = common::buffer_with(&context, &queue, &values);
    let output = common::buffer_with(&context, &queue, &vec![0i32; values.len()]);
    // SAFETY: the arguments match the kernel's parameters.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&input)
            .set_arg(&output)
            .set_global_work_size(values.len())
            .set_local_work_size(64)
            .enqueue_nd_range(&queue)
            .expect("launch");
    }
    let got = common::read_buffer(&queue, &output, values.len());
    for (&v, &g) in values.iter().zip(&got) {
        assert_eq!(g, expected(v), "v = {v:#x}");
    }
}

/// Case labels are converted as C converts them: `(uchar)300` is 44 and
/// `(char)200` is -56, and `0u - 1` is UINT_MAX, whatever the arithmetic.
#[test]
fn case_labels_have_their_cast_values() {
    let source = "__kernel void cases(__global const int *in, __global int *out) {\n\
        int i = get_global_id(0);\n\
        switch (in[i]) {\n\
        case (uchar)300: out[i] = 1; break;\n\
        case (char)200: out[i] = 2; break;\n\
        case (int)(0u - 1 == 4294967295u): out[i] = 3; break;\n\
        default: out[i] = 4;\n\
        }\n\
    }\n";
    let (context, queue) = common::context_and_queue();
    let program = common::launch::build_source(&context, source, "");
    let kernel = Kernel::create(&program, "cases").expect("kernel");
    let values = [44, -56, 1, 300, 200, 0];
    let input = common::buffer_with(&context, &queue, &values);
    let output = common::buffer_with(&context, &queue, &[0i32; 6]);
    // SAFETY: the arguments match the kernel's parameters.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&input)
            .set_arg(&output)
            .set_global_work_size(values.len())
            .enqueue_nd_range(&queue)
            .expect("launch");
    }
    assert_eq!(common::read_buffer(&queue, &output, 6), [1, 2, 3, 4, 4, 4]);
}
