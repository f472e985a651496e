//! Atomics on `float` and `double` objects in `__global` buffers, through
//! the ICD: `atomic_xchg` (OpenCL 1.1) and the OpenCL 2.0 `atomic_store`,
//! `atomic_load`, `atomic_exchange` and `atomic_compare_exchange_*` on
//! `atomic_float`/`atomic_double`, with float addition built on
//! compare-exchange (the way applications add floats atomically); and the
//! same on `float` and `double` objects in `__local` memory (variables and
//! `__local` pointer arguments). And cl_ext_float_atomics:
//! `atomic_fetch_add`/`_sub`/`_min`/`_max` on `atomic_float` and
//! `atomic_double` in both memories, against host references of the
//! extension's rules, with the device queries and feature macros.

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

/// cl_ext_float_atomics `cl_device_fp_atomic_capabilities_ext` bits.
const FP_ATOMIC_GLOBAL_ALL: u64 = 0b111;
const FP_ATOMIC_LOCAL_ALL: u64 = 0b111 << 16;
const SINGLE_FP_ATOMIC_CAPABILITIES: u32 = 0x4231;
const DOUBLE_FP_ATOMIC_CAPABILITIES: u32 = 0x4232;
const HALF_FP_ATOMIC_CAPABILITIES: u32 = 0x4233;

/// The name of a `cl_name_version`.
fn name_of(name: &[u8]) -> String {
    name.iter()
        .take_while(|&&c| c != 0)
        .map(|&c| char::from(c))
        .collect()
}

/// The first device, and its cl_ext_float_atomics capabilities for
/// `float` and `double`, checked against what it reports elsewhere.
fn fp_atomic_capabilities(context: &opencl3::context::Context) -> (u64, u64) {
    let device = opencl3::device::Device::new(context.devices()[0]);
    let query = |param| {
        let bytes = device.get_data(param).expect("fp atomic capabilities");
        u64::from_le_bytes(bytes.try_into().expect("a cl_bitfield"))
    };
    let extensions = device.extensions().expect("extensions");
    assert!(
        extensions
            .split_whitespace()
            .any(|e| e == "cl_ext_float_atomics"),
        "{extensions}"
    );
    let with_version = device
        .extensions_with_version()
        .expect("extensions with version");
    assert!(with_version
        .iter()
        .any(|e| name_of(&e.name) == "cl_ext_float_atomics" && e.version == (1 << 22)));
    let (single, double) = (
        query(SINGLE_FP_ATOMIC_CAPABILITIES),
        query(DOUBLE_FP_ATOMIC_CAPABILITIES),
    );
    // Load/store/exchange, add/sub and min/max, in __global and __local
    // memory: all or nothing per type; no half atomics.
    assert_eq!(single, FP_ATOMIC_GLOBAL_ALL | FP_ATOMIC_LOCAL_ALL);
    let has = |e: &str| extensions.split_whitespace().any(|x| x == e);
    let doubles = has("cl_khr_fp64") && has("cl_khr_int64_base_atomics");
    assert_eq!(
        double,
        if doubles {
            FP_ATOMIC_GLOBAL_ALL | FP_ATOMIC_LOCAL_ALL
        } else {
            0
        }
    );
    assert_eq!(query(HALF_FP_ATOMIC_CAPABILITIES), 0);
    // The OpenCL C features that go with the bits.
    let features: Vec<String> = device
        .opencl_c_features()
        .expect("OpenCL C features")
        .iter()
        .map(|f| name_of(&f.name))
        .collect();
    for (width, bits) in [("fp32", single), ("fp64", double), ("fp16", 0)] {
        for what in [
            "global_atomic_add",
            "local_atomic_add",
            "global_atomic_min_max",
            "local_atomic_min_max",
        ] {
            let name = format!("__opencl_c_ext_{width}_{what}");
            assert_eq!(
                features.contains(&name),
                bits != 0,
                "{name} in {features:?}"
            );
        }
    }
    (single, double)
}

/// OpenCL C 3.0 programs see the feature macros of what the device reports.
#[test]
fn feature_macros_in_opencl_c_3_0() {
    let (context, queue) = common::context_and_queue();
    let (_, double) = fp_atomic_capabilities(&context);
    let source = "
        #if defined(__opencl_c_ext_fp32_global_atomic_add) \
            && defined(__opencl_c_ext_fp32_local_atomic_add) \
            && defined(__opencl_c_ext_fp32_global_atomic_min_max) \
            && defined(__opencl_c_ext_fp32_local_atomic_min_max)
        #define FP32 1
        #else
        #define FP32 0
        #endif
        #if defined(__opencl_c_ext_fp64_global_atomic_add) \
            && defined(__opencl_c_ext_fp64_local_atomic_add) \
            && defined(__opencl_c_ext_fp64_global_atomic_min_max) \
            && defined(__opencl_c_ext_fp64_local_atomic_min_max)
        #define FP64 1
        #else
        #define FP64 0
        #endif
        #if defined(__opencl_c_ext_fp16_global_atomic_add) \
            || defined(__opencl_c_ext_fp16_local_atomic_load_store)
        #define FP16 1
        #else
        #define FP16 0
        #endif
        kernel void features(global int *out) {
            out[0] = cl_ext_float_atomics;
            out[1] = FP32;
            out[2] = FP64;
            out[3] = FP16;
        }";
    let program = Program::create_and_build_from_source(&context, source, "-cl-std=CL3.0")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let out = common::buffer_with(&context, &queue, &[-1i32; 4]);
    let kernel = Kernel::create(&program, "features").expect("kernel");
    // SAFETY: the argument matches the kernel's parameter.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&out)
            .set_global_work_size(1)
            .enqueue_nd_range(&queue)
    }
    .expect("launch");
    queue.finish().expect("finish");
    assert_eq!(
        common::read_buffer(&queue, &out, 4),
        [1, 1, i32::from(double != 0), 0]
    );
}

/// The float types of the min/max references.
trait HostFloat: Copy {
    fn is_nan(self) -> bool;
    /// IEEE totalOrder, which puts -0 below +0.
    fn total_cmp(self, other: Self) -> std::cmp::Ordering;
}

impl HostFloat for f32 {
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
    fn total_cmp(self, other: Self) -> std::cmp::Ordering {
        f32::total_cmp(&self, &other)
    }
}

impl HostFloat for f64 {
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
    fn total_cmp(self, other: Self) -> std::cmp::Ordering {
        f64::total_cmp(&self, &other)
    }
}

/// cl_ext_float_atomics' min and max (`wanted`: which side of the object
/// the operand must be on to replace it): a NaN operand leaves the object,
/// a NaN object takes the operand; -0 counts as below +0 (the spec allows
/// either zero).
fn spec_fold<T: HostFloat>(object: T, operand: T, wanted: std::cmp::Ordering) -> T {
    if operand.is_nan() {
        object
    } else if object.is_nan() || operand.total_cmp(object) == wanted {
        operand
    } else {
        object
    }
}

fn spec_min<T: HostFloat>(object: T, operand: T) -> T {
    spec_fold(object, operand, std::cmp::Ordering::Less)
}

fn spec_max<T: HostFloat>(object: T, operand: T) -> T {
    spec_fold(object, operand, std::cmp::Ordering::Greater)
}

fn fetch_modify_program(context: &opencl3::context::Context) -> Program {
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/float_fetch_modify.cl"))
        .expect("kernel source");
    Program::create_and_build_from_source(context, &source, "-cl-std=CL2.0")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"))
}

/// Runs `name` over `N` work-items in groups of `GROUP`.
fn launch_groups(
    program: &Program,
    queue: &opencl3::command_queue::CommandQueue,
    name: &str,
    args: &dyn Fn(&mut ExecuteKernel),
) {
    let kernel = Kernel::create(program, name).expect("kernel");
    let mut launch = ExecuteKernel::new(&kernel);
    args(&mut launch);
    // SAFETY: every kernel's arguments were set by `args`.
    unsafe {
        launch
            .set_global_work_size(N)
            .set_local_work_size(GROUP)
            .enqueue_nd_range(queue)
    }
    .expect("launch");
    queue.finish().expect("finish");
}

/// Asserts that `old`, sorted, is exactly 0, 1, .. len-1: each add of 1
/// returned a value no other one did.
fn assert_counts<T: Copy + PartialOrd + std::fmt::Debug>(
    mut old: Vec<T>,
    as_count: impl Fn(usize) -> T,
    what: &str,
) {
    old.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    for (k, &v) in old.iter().enumerate() {
        assert_eq!(v, as_count(k), "{what}: returned values sorted, at {k}");
    }
}

#[test]
fn float_fetch_add_and_sub() {
    let (context, queue) = common::context_and_queue();
    fp_atomic_capabilities(&context);
    let program = fetch_modify_program(&context);

    let sum = common::buffer_with(&context, &queue, &[0f32]);
    let old = common::buffer_with(&context, &queue, &vec![0f32; N]);
    let backs: Vec<f32> = (0..N).map(|i| (i % 9) as f32 - 4.0).collect();
    let back = common::buffer_with(&context, &queue, &backs);
    let down = common::buffer_with(&context, &queue, &[100.0f32]);
    launch_groups(&program, &queue, "add_sub_global", &|l| unsafe {
        l.set_arg(&sum).set_arg(&old).set_arg(&down).set_arg(&back);
    });
    assert_eq!(common::read_buffer(&queue, &sum, 1)[0], N as f32);
    assert_counts(
        common::read_buffer(&queue, &old, N),
        |k| k as f32,
        "__global add",
    );
    let expected = 100.0 - backs.iter().sum::<f32>();
    assert_eq!(common::read_buffer(&queue, &down, 1)[0], expected, "sub");

    let groups = N / GROUP;
    let old = common::buffer_with(&context, &queue, &vec![0f32; N]);
    let group_sums = common::buffer_with(&context, &queue, &vec![0f32; groups]);
    let total = common::buffer_with(&context, &queue, &[0.5f32]);
    launch_groups(&program, &queue, "add_local", &|l| unsafe {
        l.set_arg(&old).set_arg(&group_sums).set_arg(&total);
    });
    let old = common::read_buffer(&queue, &old, N);
    for (g, group) in old.chunks(GROUP).enumerate() {
        assert_counts(
            group.to_vec(),
            |k| k as f32,
            &format!("__local add, group {g}"),
        );
    }
    assert_eq!(
        common::read_buffer(&queue, &group_sums, groups),
        vec![GROUP as f32; groups]
    );
    assert_eq!(common::read_buffer(&queue, &total, 1)[0], 0.5 + N as f32);

    // Through a generic pointer: each work-item adds 2 to its group's
    // __local sum, and each group twice its sum to the __global total.
    let total = common::buffer_with(&context, &queue, &[0f32]);
    launch_groups(&program, &queue, "add_through_generic", &|l| unsafe {
        l.set_arg(&total);
    });
    assert_eq!(common::read_buffer(&queue, &total, 1)[0], 4.0 * N as f32);
}

/// Inputs for the min/max tests, work-item `i` going to slot `i % SLOTS`:
/// signed zeros, NaNs among numbers, only NaNs, and plain values.
fn min_max_inputs() -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let inputs = (0..N)
        .map(|i| {
            let k = (i / MIN_MAX_SLOTS) as f32;
            match i % MIN_MAX_SLOTS {
                0 => {
                    if (i / MIN_MAX_SLOTS).is_multiple_of(2) {
                        0.0
                    } else {
                        -0.0
                    }
                }
                1 => f32::NAN,
                2 => k - 100.0,
                3 if (i / MIN_MAX_SLOTS).is_multiple_of(3) => f32::from_bits(0x7fc0_1234),
                3 => (k - 128.0) * 0.5,
                _ => ((i * 37) % 1001) as f32 - 500.0,
            }
        })
        .collect();
    let start = |s: usize, min: bool| match s {
        // -0 stays for max, +0 for min: only an operand of the other sign
        // changes them.
        0 => {
            if min {
                0.0
            } else {
                -0.0
            }
        }
        1 => 5.0,
        2 => f32::NAN,
        _ => {
            if min {
                1000.0
            } else {
                -1000.0
            }
        }
    };
    let mins = (0..MIN_MAX_SLOTS).map(|s| start(s, true)).collect();
    let maxs = (0..MIN_MAX_SLOTS).map(|s| start(s, false)).collect();
    (inputs, mins, maxs)
}

const MIN_MAX_SLOTS: usize = 16;

/// Checks one slot's result and the values its atomics returned: the
/// first returned the start, every one returned the start or an input, and
/// none returned a value the fold had already passed.
fn check_slot<T: Copy + std::fmt::Debug>(
    what: &str,
    start: T,
    inputs: &[T],
    returned: &[T],
    result: T,
    fold: impl Fn(T, T) -> T,
    bits: impl Fn(T) -> u64,
) {
    let expected = inputs.iter().fold(start, |a, &b| fold(a, b));
    assert_eq!(
        bits(result),
        bits(expected),
        "{what}: {result:?} vs {expected:?}"
    );
    let seen: std::collections::HashSet<u64> = std::iter::once(start)
        .chain(inputs.iter().copied())
        .map(&bits)
        .collect();
    assert!(
        returned.iter().any(|&r| bits(r) == bits(start)),
        "{what}: no atomic returned the start {start:?}"
    );
    for &r in returned {
        assert!(
            seen.contains(&bits(r)),
            "{what}: returned {r:?}, never stored"
        );
        // The final value is where every returned value folds to.
        assert_eq!(
            bits(fold(r, expected)),
            bits(expected),
            "{what}: returned {r:?} beyond the result {expected:?}"
        );
    }
}

/// cl_ext_float_atomics' min or max on the host.
type MinMax<T> = fn(T, T) -> T;

/// Runs `kernel`, a `min_max_global`-style kernel whose arguments are the
/// min and max arrays (starting as `starts`), the inputs, the arrays of
/// returned values, the slot count, then `extra`. Work-item `i` folds
/// `inputs[i]` into slot `i % MIN_MAX_SLOTS` of the min and the max array
/// and writes what each atomic returned. Checks every slot and returns the
/// final min and max arrays.
#[allow(clippy::too_many_arguments)]
fn global_min_max<T: HostFloat + Clone + Default + std::fmt::Debug>(
    context: &opencl3::context::Context,
    queue: &opencl3::command_queue::CommandQueue,
    program: &Program,
    kernel: &str,
    inputs: &[T],
    starts: [&[T]; 2],
    extra: &[&opencl3::memory::Buffer<T>],
    bits: impl Fn(T) -> u64 + Copy,
) -> [Vec<T>; 2] {
    let results = starts.map(|start| common::buffer_with(context, queue, start));
    let input = common::buffer_with(context, queue, inputs);
    let returned = [(); 2].map(|_| common::buffer_with(context, queue, &[T::default(); N]));
    let slots = MIN_MAX_SLOTS as cl_uint;
    launch_groups(program, queue, kernel, &|l| unsafe {
        l.set_arg(&results[0])
            .set_arg(&results[1])
            .set_arg(&input)
            .set_arg(&returned[0])
            .set_arg(&returned[1])
            .set_arg(&slots);
        for buffer in extra {
            l.set_arg(*buffer);
        }
    });
    let results = results.map(|b| common::read_buffer(queue, &b, MIN_MAX_SLOTS));
    let returned = returned.map(|b| common::read_buffer(queue, &b, N));
    for s in 0..MIN_MAX_SLOTS {
        let of_slot = |v: &[T]| {
            v.iter()
                .skip(s)
                .step_by(MIN_MAX_SLOTS)
                .copied()
                .collect::<Vec<_>>()
        };
        let slot_inputs = of_slot(inputs);
        let sides = [("min", spec_min as MinMax<T>), ("max", spec_max)];
        for (side, (name, fold)) in sides.into_iter().enumerate() {
            check_slot(
                &format!("{kernel}: __global {name}, slot {s}"),
                starts[side][s],
                &slot_inputs,
                &of_slot(&returned[side]),
                results[side][s],
                fold,
                bits,
            );
        }
    }
    results
}

#[test]
fn float_fetch_min_and_max() {
    let (context, queue) = common::context_and_queue();
    let program = fetch_modify_program(&context);
    let (inputs, min_start, max_start) = min_max_inputs();
    let bits = |v: f32| u64::from(v.to_bits());
    let [mins, maxs] = global_min_max(
        &context,
        &queue,
        &program,
        "min_max_global",
        &inputs,
        [&min_start, &max_start],
        &[],
        bits,
    );
    // The special slots, spelled out.
    assert_eq!(mins[0].to_bits(), (-0.0f32).to_bits());
    assert_eq!(maxs[0].to_bits(), 0.0f32.to_bits());
    assert_eq!(
        (mins[1], maxs[1]),
        (5.0, 5.0),
        "NaN operands change nothing"
    );
    let k_max = ((N / MIN_MAX_SLOTS) - 1) as f32;
    assert_eq!(
        (mins[2], maxs[2]),
        (-100.0, k_max - 100.0),
        "a NaN object takes the operand"
    );

    // __local: each group from +inf and -inf.
    let groups = N / GROUP;
    let input = common::buffer_with(&context, &queue, &inputs);
    let start = common::buffer_with(&context, &queue, &[f32::INFINITY, f32::NEG_INFINITY]);
    let old_min = common::buffer_with(&context, &queue, &vec![0f32; N]);
    let old_max = common::buffer_with(&context, &queue, &vec![0f32; N]);
    let group_min = common::buffer_with(&context, &queue, &vec![0f32; groups]);
    let group_max = common::buffer_with(&context, &queue, &vec![0f32; groups]);
    launch_groups(&program, &queue, "min_max_local", &|l| unsafe {
        l.set_arg(&input)
            .set_arg(&start)
            .set_arg(&old_min)
            .set_arg(&old_max)
            .set_arg(&group_min)
            .set_arg(&group_max);
    });
    let (group_min, group_max) = (
        common::read_buffer(&queue, &group_min, groups),
        common::read_buffer(&queue, &group_max, groups),
    );
    let (old_min, old_max) = (
        common::read_buffer(&queue, &old_min, N),
        common::read_buffer(&queue, &old_max, N),
    );
    for g in 0..groups {
        let range = g * GROUP..(g + 1) * GROUP;
        check_slot(
            &format!("__local min, group {g}"),
            f32::INFINITY,
            &inputs[range.clone()],
            &old_min[range.clone()],
            group_min[g],
            spec_min,
            bits,
        );
        check_slot(
            &format!("__local max, group {g}"),
            f32::NEG_INFINITY,
            &inputs[range.clone()],
            &old_max[range],
            group_max[g],
            spec_max,
            bits,
        );
    }
}

#[test]
fn double_fetch_add_min_and_max() {
    let (context, queue) = common::context_and_queue();
    let (_, double) = fp_atomic_capabilities(&context);
    if double == 0 {
        println!("note: no double atomics on this device; skipped");
        return;
    }
    let program = fetch_modify_program(&context);
    let groups = N / GROUP;

    let sum = common::buffer_with(&context, &queue, &[0f64]);
    let old = common::buffer_with(&context, &queue, &vec![0f64; N]);
    let local_old = common::buffer_with(&context, &queue, &vec![0f64; N]);
    let group_sums = common::buffer_with(&context, &queue, &vec![0f64; groups]);
    launch_groups(&program, &queue, "add_double", &|l| unsafe {
        l.set_arg(&sum)
            .set_arg(&old)
            .set_arg(&local_old)
            .set_arg(&group_sums)
            .set_arg_local_buffer(std::mem::size_of::<f64>());
    });
    assert_eq!(common::read_buffer(&queue, &sum, 1)[0], N as f64);
    assert_counts(
        common::read_buffer(&queue, &old, N),
        |k| k as f64,
        "__global double add",
    );
    let local_old = common::read_buffer(&queue, &local_old, N);
    for (g, group) in local_old.chunks(GROUP).enumerate() {
        assert_counts(
            group.to_vec(),
            |k| k as f64,
            &format!("__local double sub of -1, group {g}"),
        );
    }
    assert_eq!(
        common::read_buffer(&queue, &group_sums, groups),
        vec![GROUP as f64; groups]
    );

    let (inputs, min_start, max_start) = min_max_inputs();
    // Beyond float precision, so a float fold would differ.
    let inputs: Vec<f64> = inputs
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            if v.is_finite() && v != 0.0 {
                f64::from(v) + i as f64 * 1e-12
            } else {
                f64::from(v)
            }
        })
        .collect();
    let min_start: Vec<f64> = min_start.into_iter().map(f64::from).collect();
    let max_start: Vec<f64> = max_start.into_iter().map(f64::from).collect();
    let group_min = common::buffer_with(&context, &queue, &vec![0f64; groups]);
    let group_max = common::buffer_with(&context, &queue, &vec![0f64; groups]);
    let [mins, maxs] = global_min_max(
        &context,
        &queue,
        &program,
        "min_max_double",
        &inputs,
        [&min_start, &max_start],
        &[&group_min, &group_max],
        f64::to_bits,
    );
    assert_eq!(mins[0].to_bits(), (-0.0f64).to_bits());
    assert_eq!(maxs[0].to_bits(), 0.0f64.to_bits());
    let (group_min, group_max) = (
        common::read_buffer(&queue, &group_min, groups),
        common::read_buffer(&queue, &group_max, groups),
    );
    for g in 0..groups {
        // Each group starts from its first input.
        let group = &inputs[g * GROUP..(g + 1) * GROUP];
        let lo = group.iter().fold(group[0], |a, &b| spec_min(a, b));
        let hi = group.iter().fold(group[0], |a, &b| spec_max(a, b));
        assert_eq!(
            group_min[g].to_bits(),
            lo.to_bits(),
            "__local double min, group {g}"
        );
        assert_eq!(
            group_max[g].to_bits(),
            hi.to_bits(),
            "__local double max, group {g}"
        );
    }
}
