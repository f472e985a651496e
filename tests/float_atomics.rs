//! Atomics on `float` and `double` objects in `__global` buffers, through
//! the ICD: `atomic_xchg` (OpenCL 1.1) and the OpenCL 2.0 `atomic_store`,
//! `atomic_load`, `atomic_exchange` and `atomic_compare_exchange_*` on
//! `atomic_float`/`atomic_double`, with float addition built on
//! compare-exchange (the way applications add floats atomically); and the
//! same on `float` and `double` objects in `__local` memory (variables and
//! `__local` pointer arguments).

mod common;

use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::program::Program;
use opencl3::types::cl_uint;

const N: usize = 4096;

fn sorted_bits(values: impl IntoIterator<Item = f32>) -> Vec<u32> {
    let mut bits: Vec<u32> = values.into_iter().map(f32::to_bits).collect();
    bits.sort_unstable();
    bits
}

#[test]
fn float_and_double_atomics() {
    let (context, queue) = common::context_and_queue();
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/float_atomics.cl"))
        .expect("kernel source");
    let program = Program::create_and_build_from_source(&context, &source, "-cl-std=CL2.0")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let launch = |name: &str, args: &dyn Fn(&mut ExecuteKernel)| {
        let kernel = Kernel::create(&program, name).expect("kernel");
        let mut launch = ExecuteKernel::new(&kernel);
        args(&mut launch);
        // SAFETY: every kernel's arguments were set by `args`.
        unsafe { launch.set_global_work_size(N).enqueue_nd_range(&queue) }.expect("launch");
        queue.finish().expect("finish");
    };

    // atomic_xchg: values swapped through 64 slots are a permutation.
    let slots_init: Vec<f32> = (0..64).map(|k| -1000.0 - k as f32).collect();
    let inputs: Vec<f32> = (0..N).map(|i| i as f32 * 0.25 + 0.125).collect();
    let slots = common::buffer_with(&context, &queue, &slots_init);
    let input = common::buffer_with(&context, &queue, &inputs);
    let out = common::buffer_with(&context, &queue, &vec![0f32; N]);
    let count: cl_uint = 64;
    launch("exchange", &|l| unsafe {
        l.set_arg(&slots)
            .set_arg(&input)
            .set_arg(&out)
            .set_arg(&count);
    });
    let left = common::read_buffer(&queue, &slots, 64);
    let returned = common::read_buffer(&queue, &out, N);
    assert_eq!(
        sorted_bits(left.into_iter().chain(returned)),
        sorted_bits(slots_init.into_iter().chain(inputs)),
        "atomic_xchg lost or duplicated values"
    );

    {
        let addends: Vec<f32> = (0..N).map(|i| (i % 7) as f32).collect();
        let sum = common::buffer_with(&context, &queue, &[0i32]);
        let input = common::buffer_with(&context, &queue, &addends);
        launch("add_int_by_cas", &|l| unsafe {
            l.set_arg(&sum).set_arg(&input);
        });
        let expected: i32 = addends.iter().map(|&a| a as i32).sum();
        assert_eq!(
            common::read_buffer(&queue, &sum, 1)[0],
            expected,
            "int sum by CAS"
        );
    }
    // Addition by compare-exchange: small integers, so every order of
    // additions gives the exact sum.
    let addends: Vec<f32> = (0..N).map(|i| (i % 7) as f32).collect();
    let sum = common::buffer_with(&context, &queue, &[0.5f32]);
    let input = common::buffer_with(&context, &queue, &addends);
    launch("add_by_cas", &|l| unsafe {
        l.set_arg(&sum).set_arg(&input);
    });
    let expected: f32 = 0.5 + addends.iter().sum::<f32>();
    assert_eq!(
        common::read_buffer(&queue, &sum, 1)[0],
        expected,
        "float sum by CAS"
    );

    let addends: Vec<f64> = (0..N).map(|i| (i % 11) as f64 * 0.5).collect();
    let sum = common::buffer_with(&context, &queue, &[1e12f64]);
    let input = common::buffer_with(&context, &queue, &addends);
    launch("add_double_by_cas", &|l| unsafe {
        l.set_arg(&sum).set_arg(&input);
    });
    let expected: f64 = 1e12 + addends.iter().sum::<f64>();
    assert_eq!(
        common::read_buffer(&queue, &sum, 1)[0],
        expected,
        "double sum by CAS"
    );

    let objects = common::buffer_with(&context, &queue, &vec![7f32; N]);
    let out = common::buffer_with(&context, &queue, &vec![0f32; N]);
    launch("store_load_exchange", &|l| unsafe {
        l.set_arg(&objects).set_arg(&out);
    });
    let got = common::read_buffer(&queue, &out, N);
    let left = common::read_buffer(&queue, &objects, N);
    for i in 0..N {
        let stored = i as f32 * 0.5;
        assert_eq!(
            got[i],
            stored + 2.0 * stored,
            "loaded + 2 * exchanged at {i}"
        );
        assert_eq!(left[i], -stored, "left behind at {i}");
    }
}

const GROUP: usize = 64;
const SLOTS: usize = 8;

#[test]
fn float_and_double_atomics_in_local_memory() {
    let (context, queue) = common::context_and_queue();
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/float_atomics_local.cl"))
        .expect("kernel source");
    let program = Program::create_and_build_from_source(&context, &source, "-cl-std=CL2.0")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let groups = N / GROUP;

    // Small integers: every order of additions gives the exact sum.
    let inputs: Vec<f32> = (0..N).map(|i| ((i * 7) % 13) as f32).collect();
    let input = common::buffer_with(&context, &queue, &inputs);
    let swapped = common::buffer_with(&context, &queue, &vec![0f32; N]);
    let slots_left = common::buffer_with(&context, &queue, &vec![0f32; groups * SLOTS]);
    let float_sums = common::buffer_with(&context, &queue, &vec![0f32; groups]);
    let double_sums = common::buffer_with(&context, &queue, &vec![0f64; groups]);
    let total = common::buffer_with(&context, &queue, &[0f32]);
    let kernel = Kernel::create(&program, "local_sums").expect("kernel");
    // SAFETY: the arguments match the kernel's parameters.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&input)
            .set_arg(&swapped)
            .set_arg(&slots_left)
            .set_arg(&float_sums)
            .set_arg(&double_sums)
            .set_arg_local_buffer(std::mem::size_of::<f64>())
            .set_arg(&total)
            .set_global_work_size(N)
            .set_local_work_size(GROUP)
            .enqueue_nd_range(&queue)
    }
    .expect("launch");
    queue.finish().expect("finish");

    let swapped = common::read_buffer(&queue, &swapped, N);
    let slots_left = common::read_buffer(&queue, &slots_left, groups * SLOTS);
    let float_sums = common::read_buffer(&queue, &float_sums, groups);
    let double_sums = common::read_buffer(&queue, &double_sums, groups);
    let total = common::read_buffer(&queue, &total, 1)[0];
    // Every group's sum is a multiple of 1/2 far below 2^23: exact in any
    // order.
    let group_sums: f32 = (0..groups)
        .map(|g| 0.5 + inputs[g * GROUP..(g + 1) * GROUP].iter().sum::<f32>())
        .sum();
    assert_eq!(
        total, group_sums,
        "__global sum of the groups' __local sums"
    );
    for g in 0..groups {
        let group = &inputs[g * GROUP..(g + 1) * GROUP];
        let float_sum: f32 = 0.5 + group.iter().sum::<f32>();
        assert_eq!(float_sums[g], float_sum, "__local float sum of group {g}");
        let double_sum: f64 = 1e12 + group.iter().map(|&v| f64::from(v) * 0.5).sum::<f64>();
        assert_eq!(
            double_sums[g], double_sum,
            "__local double sum of group {g}"
        );
        // What went into the slots (their first values and every
        // work-item's) is what came out (returned and left behind).
        let initial = (0..SLOTS).map(|k| -1000.0 - (g * SLOTS + k) as f32);
        let went_in = sorted_bits(initial.chain(group.iter().copied()));
        let came_out = sorted_bits(
            swapped[g * GROUP..(g + 1) * GROUP]
                .iter()
                .chain(&slots_left[g * SLOTS..(g + 1) * SLOTS])
                .copied(),
        );
        assert_eq!(
            came_out, went_in,
            "atomic_xchg on __local floats, group {g}"
        );
    }

    let out = common::buffer_with(&context, &queue, &vec![0f32; N]);
    let kernel = Kernel::create(&program, "local_store_load_exchange").expect("kernel");
    // SAFETY: the arguments match the kernel's parameters.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&out)
            .set_arg_local_buffer(GROUP * std::mem::size_of::<f32>())
            .set_global_work_size(N)
            .set_local_work_size(GROUP)
            .enqueue_nd_range(&queue)
    }
    .expect("launch");
    queue.finish().expect("finish");
    let got = common::read_buffer(&queue, &out, N);
    for (i, &got) in got.iter().enumerate() {
        let stored = i as f32 * 0.5;
        // loaded + 2 * exchanged + what the exchange left.
        assert_eq!(got, stored + 2.0 * stored - stored, "work-item {i}");
    }
}

#[test]
fn local_float_array_used_atomically_and_otherwise() {
    let (context, queue) = common::context_and_queue();
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/float_atomics_local.cl"))
        .expect("kernel source");
    let program = Program::create_and_build_from_source(&context, &source, "-cl-std=CL2.0")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let inputs: Vec<f32> = (0..N).map(|i| (i % 97) as f32 * 0.75 - 20.0).collect();
    let input = common::buffer_with(&context, &queue, &inputs);
    let out = common::buffer_with(&context, &queue, &vec![0f32; N]);
    let old = common::buffer_with(&context, &queue, &vec![0f32; N]);
    let bits = common::buffer_with(&context, &queue, &vec![0u32; N]);
    let kernel = Kernel::create(&program, "local_words_other_accesses").expect("kernel");
    // SAFETY: the arguments match the kernel's parameters.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&input)
            .set_arg(&out)
            .set_arg(&old)
            .set_arg(&bits)
            .set_global_work_size(N)
            .set_local_work_size(GROUP)
            .enqueue_nd_range(&queue)
    }
    .expect("launch");
    queue.finish().expect("finish");
    let out = common::read_buffer(&queue, &out, N);
    let old = common::read_buffer(&queue, &old, N);
    let bits = common::read_buffer(&queue, &bits, N);
    // What each work-item swapped in: the ends of its block of four.
    let swapped_in = |i: usize| {
        let block = i - i % 4;
        inputs[block] + inputs[block + 3]
    };
    for i in 0..N {
        assert_eq!(old[i], inputs[i], "value swapped out at {i}");
        assert_eq!(out[i], swapped_in(i), "value copied out at {i}");
        let neighbour = i - i % GROUP + (i + 1) % GROUP;
        assert_eq!(bits[i], swapped_in(neighbour).to_bits(), "bits read at {i}");
    }
}
