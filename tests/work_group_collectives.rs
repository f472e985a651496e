//! The OpenCL 2.0 work-group collective functions through the ICD: every
//! reduction, scan and broadcast on int, uint, long, ulong, float and
//! double (where the device has it), and
//! `work_group_all`/`any`, in groups of 64 and 48 work-items where the
//! last group is smaller (a non-uniform NDRange), plus broadcasts from 2-
//! and 3-D local ids. Checked against a host computation; float operands
//! are small integers, so every summation order gives the exact sum.

mod common;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_COPY_HOST_PTR, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY};
use opencl3::program::Program;
use opencl3::types::CL_BLOCKING;
use std::ptr;

/// (local size, global size): the last group has 20 and 5 work-items.
const LAUNCHES: [(usize, usize); 2] = [(64, 3 * 64 + 20), (48, 2 * 48 + 5)];

/// A small deterministic pseudo-random sequence in `lo..=hi`.
fn operands(n: usize, seed: u64, lo: i64, hi: i64) -> Vec<i64> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            lo + ((state >> 33) % (hi - lo + 1) as u64) as i64
        })
        .collect()
}

/// What one element type needs for the host reference.
trait Element: Copy + PartialOrd + PartialEq + std::fmt::Debug + Default {
    const KERNEL: &'static str;
    const LARGEST: Self;
    const SMALLEST: Self;
    fn from_i64(v: i64) -> Self;
    fn add(self, other: Self) -> Self;
}

macro_rules! integer_element {
    ($t:ty, $kernel:literal) => {
        impl Element for $t {
            const KERNEL: &'static str = $kernel;
            const LARGEST: Self = <$t>::MAX;
            const SMALLEST: Self = <$t>::MIN;
            fn from_i64(v: i64) -> Self {
                v as $t
            }
            fn add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
        }
    };
}
integer_element!(i32, "collectives_int");
integer_element!(u32, "collectives_uint");
integer_element!(i64, "collectives_long");
integer_element!(u64, "collectives_ulong");

macro_rules! float_element {
    ($t:ty, $kernel:literal) => {
        impl Element for $t {
            const KERNEL: &'static str = $kernel;
            const LARGEST: Self = <$t>::INFINITY;
            const SMALLEST: Self = <$t>::NEG_INFINITY;
            fn from_i64(v: i64) -> Self {
                v as $t
            }
            fn add(self, other: Self) -> Self {
                self + other
            }
        }
    };
}
float_element!(f32, "collectives_float");
float_element!(f64, "collectives_double");

fn min<T: Element>(a: T, b: T) -> T {
    if b < a {
        b
    } else {
        a
    }
}

fn max<T: Element>(a: T, b: T) -> T {
    if b > a {
        b
    } else {
        a
    }
}

/// The kernel's ten results for each work-item, computed on the host.
fn reference<T: Element>(x: &[T], local: usize) -> Vec<T> {
    let mut out = Vec::with_capacity(10 * x.len());
    for group in x.chunks(local) {
        let sum = group.iter().fold(T::default(), |a, &b| a.add(b));
        let least = group.iter().fold(T::LARGEST, |a, &b| min(a, b));
        let most = group.iter().fold(T::SMALLEST, |a, &b| max(a, b));
        let last = group[group.len() - 1];
        let (mut add, mut lo, mut hi) = (T::default(), T::LARGEST, T::SMALLEST);
        for &v in group {
            let exclusive = [add, lo, hi];
            (add, lo, hi) = (add.add(v), min(lo, v), max(hi, v));
            out.extend([sum, least, most]);
            out.extend(exclusive);
            out.extend([add, lo, hi, last]);
        }
    }
    out
}

fn upload<T>(context: &Context, data: &[T]) -> Buffer<T> {
    // SAFETY: the host pointer is valid for the buffer's length and only
    // read while the buffer is created (COPY_HOST_PTR).
    unsafe {
        Buffer::<T>::create(
            context,
            CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
            data.len(),
            data.as_ptr() as *mut _,
        )
    }
    .expect("input buffer")
}

/// Runs `kernel` on `input` with the given global and local sizes and
/// reads back `per_item` results of type `R` for each work-item.
fn launch<T, R: Copy + Default>(
    context: &Context,
    queue: &CommandQueue,
    kernel: &Kernel,
    input: &[T],
    global: &[usize],
    local: &[usize],
    per_item: usize,
) -> Vec<R> {
    let src = upload(context, input);
    let n = input.len() * per_item;
    // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
    let out = unsafe {
        Buffer::<R>::create(context, CL_MEM_WRITE_ONLY, n, ptr::null_mut()).expect("buffer")
    };
    // SAFETY: two buffer arguments, as every kernel here declares.
    unsafe {
        ExecuteKernel::new(kernel)
            .set_arg(&src)
            .set_arg(&out)
            .set_global_work_sizes(global)
            .set_local_work_sizes(local)
            .enqueue_nd_range(queue)
    }
    .expect("launch");
    let mut got = vec![R::default(); n];
    // SAFETY: a vector of the buffer's length.
    unsafe { queue.enqueue_read_buffer(&out, CL_BLOCKING, 0, &mut got, &[]) }.expect("read");
    got
}

fn check_type<T: Element>(
    context: &Context,
    queue: &CommandQueue,
    program: &Program,
    lo: i64,
    hi: i64,
) {
    let kernel = Kernel::create(program, T::KERNEL).expect("kernel");
    for (local, global) in LAUNCHES {
        let x: Vec<T> = operands(global, local as u64, lo, hi)
            .into_iter()
            .map(T::from_i64)
            .collect();
        let got: Vec<T> = launch(context, queue, &kernel, &x, &[global], &[local], 10);
        let want = reference(&x, local);
        for (i, (g, w)) in got.chunks(10).zip(want.chunks(10)).enumerate() {
            assert_eq!(g, w, "{} local {local}: work-item {i}", T::KERNEL);
        }
    }
}

#[test]
fn work_group_collectives_match_the_host() {
    let (context, queue) = common::context_and_queue();
    let source =
        std::fs::read_to_string(common::repo_path("tests/kernels/work_group_collectives.cl"))
            .expect("kernel source");
    let program = common::launch::build_source(&context, &source, "-cl-std=CL2.0");

    check_type::<i32>(&context, &queue, &program, -50, 50);
    check_type::<u32>(&context, &queue, &program, 0, 100);
    // Beyond 32 bits, of both signs.
    check_type::<i64>(&context, &queue, &program, -(1 << 40), 1 << 40);
    check_type::<u64>(&context, &queue, &program, 0, 1 << 40);
    check_type::<f32>(&context, &queue, &program, -50, 50);
    if Kernel::create(&program, "collectives_double").is_ok() {
        check_type::<f64>(&context, &queue, &program, -(1 << 40), 1 << 40);
    } else {
        eprintln!("double skipped: the device does not report cl_khr_fp64");
    }

    // all / any: groups with and without a zero and a 7.
    let truth = Kernel::create(&program, "truth").expect("kernel");
    for (local, global) in LAUNCHES {
        let mut x: Vec<i32> = operands(global, 7, 1, 6)
            .into_iter()
            .map(|v| v as i32)
            .collect();
        x[1] = 0; // the first group holds a zero...
        x[local + 2] = 7; // ...the second a 7...
        x[global - 1] = 7; // ...the last, smaller group a 7 and no zero.
        let got: Vec<i32> = launch(&context, &queue, &truth, &x, &[global], &[local], 2);
        for (i, g) in got.chunks(2).enumerate() {
            let group = &x[i / local * local..((i / local + 1) * local).min(global)];
            let all = group.iter().all(|&v| v != 0);
            let any = group.contains(&7);
            assert_eq!(
                (g[0] != 0, g[1] != 0),
                (all, any),
                "all/any local {local}: work-item {i}"
            );
        }
    }

    // 2-D broadcast from (size_x - 1, size_y / 2), groups 8 x 6 in a
    // 21 x 15 range (smaller groups at both edges).
    let kernel = Kernel::create(&program, "broadcast_2d").expect("kernel");
    let (global, local) = ([21usize, 15], [8usize, 6]);
    let x: Vec<i32> = operands(global[0] * global[1], 3, -1000, 1000)
        .into_iter()
        .map(|v| v as i32)
        .collect();
    let got: Vec<i32> = launch(&context, &queue, &kernel, &x, &global, &local, 1);
    for y in 0..global[1] {
        for gx in 0..global[0] {
            let origin = [gx / local[0] * local[0], y / local[1] * local[1]];
            let size = [0, 1].map(|d| local[d].min(global[d] - origin[d]));
            let (sx, sy) = (origin[0] + size[0] - 1, origin[1] + size[1] / 2);
            assert_eq!(
                got[y * global[0] + gx],
                x[sy * global[0] + sx],
                "broadcast_2d work-item ({gx}, {y})"
            );
        }
    }

    // 3-D broadcast from (size_x / 2, size_y - 1, size_z - 1) of longs.
    let kernel = Kernel::create(&program, "broadcast_3d").expect("kernel");
    let (global, local) = ([9usize, 7, 5], [4usize, 3, 2]);
    let n = global.iter().product();
    let x = operands(n, 11, -(1 << 50), 1 << 50);
    let got: Vec<i64> = launch(&context, &queue, &kernel, &x, &global, &local, 1);
    for z in 0..global[2] {
        for y in 0..global[1] {
            for gx in 0..global[0] {
                let id = [gx, y, z];
                let origin = [0, 1, 2].map(|d| id[d] / local[d] * local[d]);
                let size = [0, 1, 2].map(|d| local[d].min(global[d] - origin[d]));
                let from = [
                    origin[0] + size[0] / 2,
                    origin[1] + size[1] - 1,
                    origin[2] + size[2] - 1,
                ];
                let linear = |p: [usize; 3]| (p[2] * global[1] + p[1]) * global[0] + p[0];
                assert_eq!(
                    got[linear(id)],
                    x[linear(from)],
                    "broadcast_3d work-item ({gx}, {y}, {z})"
                );
            }
        }
    }
}

/// The collectives' scratch and a kernel's own `__local` arrays count
/// against the device's local memory: `CL_KERNEL_LOCAL_MEM_SIZE` reports
/// them, and a `__local` argument that leaves no room for them is refused
/// at enqueue (`CL_OUT_OF_RESOURCES`) instead of failing in the driver.
#[test]
fn kernel_local_memory_is_counted() {
    let (context, queue) = common::context_and_queue();
    let source = "kernel void k(global int *o, local int *spare) {
        local int tile[256];
        size_t l = get_local_id(0);
        tile[l] = (int)l;
        spare[0] = 0;
        o[get_global_id(0)] = work_group_reduce_add(tile[l]);
    }";
    let program = common::launch::build_source(&context, source, "-cl-std=CL2.0");
    let kernel = Kernel::create(&program, "k").expect("kernel");
    let device = context.devices()[0];
    let limit = opencl3::device::Device::new(device)
        .local_mem_size()
        .expect("local memory size");
    let max_group = kernel.get_work_group_size(device).expect("work-group size") as u64;
    // The tile, and one int of scratch per work-item of the largest group.
    let own = 256 * 4 + 4 * max_group;
    assert!(kernel.get_local_mem_size(device).expect("local mem size") >= own);
    // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
    let out =
        unsafe { Buffer::<i32>::create(&context, CL_MEM_WRITE_ONLY, 64, std::ptr::null_mut()) }
            .expect("buffer");
    let launch = |spare_bytes: u64| {
        // SAFETY: the kernel takes a buffer of 64 ints and a __local array.
        unsafe {
            ExecuteKernel::new(&kernel)
                .set_arg(&out)
                .set_arg_local_buffer(spare_bytes as usize)
                .set_global_work_size(64)
                .set_local_work_size(64)
                .enqueue_nd_range(&queue)
        }
    };
    // 64 work-items need 1 KiB of tile and 256 bytes of scratch.
    let err = launch(limit - 1024).expect_err("no room left for the kernel's own memory");
    assert_eq!(err.0, opencl3::error_codes::CL_OUT_OF_RESOURCES);
    launch(limit - 1024 - 256).expect("launch that fits");
    let mut got = vec![0i32; 64];
    // SAFETY: a blocking read of the buffer's 64 ints.
    unsafe { queue.enqueue_read_buffer(&out, CL_BLOCKING, 0, &mut got, &[]) }.expect("read");
    assert!(got.iter().all(|&v| v == (0..64).sum::<i32>()));
}
