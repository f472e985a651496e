//! Atomics on `float` and `double` objects in `__global` buffers, through
//! the ICD: `atomic_xchg` (OpenCL 1.1) and the OpenCL 2.0 `atomic_store`,
//! `atomic_load`, `atomic_exchange` and `atomic_compare_exchange_*` on
//! `atomic_float`/`atomic_double`, with float addition built on
//! compare-exchange (the way applications add floats atomically).

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
