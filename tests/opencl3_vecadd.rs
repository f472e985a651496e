//! The same slice through the `opencl3` crate, in this process, via the
//! ICD loader: the path a Rust application takes.

mod common;

use common::launch::build_file as build;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_ONLY, CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY};
use opencl3::platform::get_platforms;
use opencl3::types::{cl_float, CL_BLOCKING};
use std::ptr;

const N: usize = 1 << 20;

fn setup() -> (Context, CommandQueue) {
    // The loader reads these on its first call; every test sets the same.
    for (k, v) in common::opencl_env() {
        // SAFETY: tests in this binary only ever set these same values.
        unsafe { std::env::set_var(k, v) };
    }
    let platforms = get_platforms().expect("platforms");
    assert_eq!(platforms.len(), 1, "only clvulkan should be visible");
    assert_eq!(platforms[0].name().expect("name"), "clvulkan");
    let ids = platforms[0]
        .get_devices(CL_DEVICE_TYPE_ALL)
        .expect("devices");
    let device = Device::new(ids[0]);
    let context = Context::from_device(&device).expect("context");
    #[allow(deprecated)]
    let queue = CommandQueue::create_default(&context, 0).expect("queue");
    (context, queue)
}

/// A buffer of `n` elements, with no host pointer.
fn new_buffer<T>(context: &Context, flags: opencl3::types::cl_mem_flags, n: usize) -> Buffer<T> {
    // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
    unsafe { Buffer::<T>::create(context, flags, n, ptr::null_mut()) }.expect("create buffer")
}

/// A blocking write of all of `data` at the start of `buffer`.
fn write_buffer<T>(queue: &CommandQueue, buffer: &mut Buffer<T>, data: &[T]) {
    // SAFETY: blocking, so `data` outlives the transfer.
    unsafe { queue.enqueue_write_buffer(buffer, CL_BLOCKING, 0, data, &[]) }.expect("write buffer");
}

/// A blocking read filling `out` from the start of `buffer`.
fn read_buffer<T>(queue: &CommandQueue, buffer: &Buffer<T>, out: &mut [T]) {
    // SAFETY: blocking, so `out` outlives the transfer.
    unsafe { queue.enqueue_read_buffer(buffer, CL_BLOCKING, 0, out, &[]) }.expect("read buffer");
}

#[test]
fn vecadd_via_opencl3() {
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/vecadd.cl");
    let kernel = Kernel::create(&program, "vecadd").expect("kernel");
    let a: Vec<cl_float> = (0..N).map(|i| i as f32).collect();
    let b: Vec<cl_float> = (0..N).map(|i| (N - i) as f32 * 0.5).collect();
    // SAFETY: null host pointers with no USE/COPY_HOST_PTR flag.
    let mut da = new_buffer::<cl_float>(&context, CL_MEM_READ_ONLY, N);
    let mut db = new_buffer::<cl_float>(&context, CL_MEM_READ_ONLY, N);
    let dc = new_buffer::<cl_float>(&context, CL_MEM_WRITE_ONLY, N);
    write_buffer(&queue, &mut da, &a);
    write_buffer(&queue, &mut db, &b);
    let n = N as u32;
    // SAFETY: argument types match the kernel's signature.
    let event = unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&da)
            .set_arg(&db)
            .set_arg(&dc)
            .set_arg(&n)
            .set_global_work_size(N)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    event.wait().expect("wait");
    let mut c = vec![0.0f32; N];
    read_buffer(&queue, &dc, &mut c);
    let wrong = (0..N).filter(|&i| c[i] != a[i] + b[i]).count();
    assert_eq!(wrong, 0, "first: c[0]={} expected {}", c[0], a[0] + b[0]);
}

#[test]
fn control_flow_kernel_matches_host() {
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/control_flow.cl");
    let kernel = Kernel::create(&program, "control_flow").expect("kernel");
    const M: usize = 4096;
    let out = new_buffer::<i32>(&context, CL_MEM_WRITE_ONLY, M);
    let flags = new_buffer::<u32>(&context, CL_MEM_WRITE_ONLY, M);
    // SAFETY: argument types match the kernel's signature.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&out)
            .set_arg(&flags)
            .set_global_work_size(M)
            .set_local_work_size(64)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    queue.finish().expect("finish");
    let mut got_out = vec![0i32; M];
    let mut got_flags = vec![0u32; M];
    read_buffer(&queue, &out, &mut got_out);
    read_buffer(&queue, &flags, &mut got_flags);
    for gid in 0..M as u32 {
        let mut acc: i32 = (0..(gid % 8) as i32).map(|k| gid as i32 + k).sum();
        if gid & 1 == 1 {
            acc = -acc;
        } else if gid == M as u32 - 1 {
            acc = 12345;
        }
        let count = (2..=20).step_by(2).filter(|d| gid % d == 0).count() as u32;
        assert_eq!(got_out[gid as usize], acc, "out[{gid}]");
        assert_eq!(got_flags[gid as usize], count, "flags[{gid}]");
    }
}

#[test]
fn helpers_with_pointer_arguments_and_2d_offset() {
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/helpers.cl");
    let kernel = Kernel::create(&program, "helpers").expect("kernel");
    let (w, h, width) = (16usize, 8usize, 20usize);
    let input: Vec<f32> = (0..width * h).map(|i| (i % 13) as f32 * 0.5).collect();
    let mut din = new_buffer::<f32>(&context, CL_MEM_READ_ONLY, input.len());
    let dout = new_buffer::<f32>(&context, CL_MEM_WRITE_ONLY, w * h);
    write_buffer(&queue, &mut din, &input);
    let width_arg = width as i32;
    // SAFETY: argument types match the kernel's signature.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&din)
            .set_arg(&dout)
            .set_arg(&width_arg)
            .set_global_work_offsets(&[3, 5])
            .set_global_work_sizes(&[w, h])
            .set_local_work_sizes(&[4, 2])
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let mut got = vec![0f32; w * h];
    read_buffer(&queue, &dout, &mut got);
    for row in 0..h {
        for col in 0..w {
            let a = input[row * width + col];
            let b = input[row * width + col + 1];
            assert_eq!(got[row * w + col], a * a + b * b, "({col}, {row})");
        }
    }
}

#[test]
fn doubles_and_longs_when_the_device_reports_fp64() {
    let (context, queue) = setup();
    let device = Device::new(context.devices()[0]);
    let extensions = device.extensions().expect("extensions");
    if !extensions.contains("cl_khr_fp64") {
        // Nothing to check on a device without doubles, and nothing claimed.
        return;
    }
    let program = build(&context, "tests/kernels/double_scale.cl");
    let kernel = Kernel::create(&program, "double_scale").expect("kernel");
    const M: usize = 1000;
    let x: Vec<f64> = (0..M).map(|i| i as f64 / 7.0).collect();
    let mut dx = new_buffer::<f64>(&context, CL_MEM_READ_ONLY, M);
    let didx = new_buffer::<i64>(&context, CL_MEM_WRITE_ONLY, M);
    write_buffer(&queue, &mut dx, &x);
    let a = 1.0f64 / 3.0;
    // SAFETY: argument types match the kernel's signature.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&dx)
            .set_arg(&a)
            .set_arg(&didx)
            .set_global_work_size(M)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let mut got = vec![0f64; M];
    let mut idx = vec![0i64; M];
    read_buffer(&queue, &dx, &mut got);
    read_buffer(&queue, &didx, &mut idx);
    for i in 0..M {
        // Exact unless the device fuses the multiply-add (allowed).
        let expected = x[i] * a + 0.5;
        assert!(
            (got[i] - expected).abs() <= 1e-15 * expected.abs(),
            "x[{i}] = {}",
            got[i]
        );
        assert_eq!(idx[i], i as i64 * 3 - 1, "idx[{i}]");
    }
}

/// Runs a kernel whose only argument is an `int` output buffer of `n`
/// elements, and returns the buffer.
fn run_int_kernel(file: &str, name: &str, n: usize, local: usize) -> Vec<i32> {
    let (context, queue) = setup();
    let program = build(&context, file);
    let kernel = Kernel::create(&program, name).expect("kernel");
    let out = new_buffer::<i32>(&context, CL_MEM_WRITE_ONLY, n);
    // SAFETY: the kernel takes one int buffer.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&out)
            .set_global_work_size(n)
            .set_local_work_size(local)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let mut got = vec![0i32; n];
    read_buffer(&queue, &out, &mut got);
    got
}

#[test]
fn switch_with_fallthrough_and_continue() {
    let got = run_int_kernel(
        "tests/kernels/switch_fallthrough.cl",
        "switch_fallthrough",
        256,
        64,
    );
    for (i, &value) in got.iter().enumerate() {
        let mut acc = 0i32;
        for k in 0..4 {
            match (i + k) % 7 {
                0 | 1 => acc += 11,
                2 => acc += 10,
                3 | 4 => acc += 1100,
                5 => acc += 1000,
                _ => continue,
            }
            acc *= 2;
        }
        assert_eq!(value, acc, "out[{i}]");
    }
}

#[test]
fn constant_tables_and_initializer_lists() {
    let got = run_int_kernel(
        "tests/kernels/constant_tables.cl",
        "constant_tables",
        256,
        64,
    );
    let primes = [2, 3, 5, 7, 11, 13, 17, 19];
    let weight_sums = [10.0f32, 2.0, 0.0];
    let steps = [(3, 1.0f32), (-1, 2.0)];
    let mut sparse = [0; 10];
    (sparse[2], sparse[7], sparse[8]) = (20, 70, 80);
    for (i, &value) in got.iter().enumerate() {
        let i32_ = i as i32;
        let mut acc = primes[i & 7] + [0, 1, 4, 9, 16][i % 5] + primes[1 + i % 7];
        acc += steps[i & 1].0 * steps[i & 1].1 as i32;
        acc += sparse[i % 10] + [1000, 2000, 3000, 4000][i & 3];
        acc += weight_sums[i % 3] as i32 + 2 * i32_ - 3 * i32_;
        acc += i32_ % 3 + 1;
        assert_eq!(value, acc & 0xff, "out[{i}]");
    }
}

#[test]
fn local_memory_reduction_with_barriers() {
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/local_reduce.cl");
    let kernel = Kernel::create(&program, "local_reduce").expect("kernel");
    const M: usize = 64 * 64;
    let input: Vec<i32> = (0..M as i32).map(|i| (i * 7919) % 1000 - 300).collect();
    let mut din = new_buffer::<i32>(&context, CL_MEM_READ_ONLY, M);
    let sums = new_buffer::<i32>(&context, CL_MEM_WRITE_ONLY, M / 64);
    let maxes = new_buffer::<i32>(&context, CL_MEM_WRITE_ONLY, M);
    write_buffer(&queue, &mut din, &input);
    // SAFETY: argument types match the kernel's signature.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&din)
            .set_arg(&sums)
            .set_arg(&maxes)
            .set_global_work_size(M)
            .set_local_work_size(64)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let mut got_sums = vec![0i32; M / 64];
    let mut got_maxes = vec![0i32; M];
    read_buffer(&queue, &sums, &mut got_sums);
    read_buffer(&queue, &maxes, &mut got_maxes);
    for (g, chunk) in input.chunks(64).enumerate() {
        assert_eq!(got_sums[g], chunk.iter().sum::<i32>(), "sum of group {g}");
        let peak = *chunk.iter().max().expect("non-empty");
        assert!(
            got_maxes[g * 64..(g + 1) * 64].iter().all(|&m| m == peak),
            "max of group {g}"
        );
    }
}

#[test]
fn histogram_with_local_and_global_atomics() {
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/histogram_atomics.cl");
    let kernel = Kernel::create(&program, "histogram_atomics").expect("kernel");
    const M: usize = 64 * 32;
    let data: Vec<u32> = (0..M as u32)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 20)
        .collect();
    let mut ddata = new_buffer::<u32>(&context, CL_MEM_READ_ONLY, M);
    let mut bins = new_buffer::<u32>(&context, CL_MEM_READ_WRITE, 16);
    let mut stats = new_buffer::<i32>(&context, CL_MEM_READ_WRITE, 2);
    write_buffer(&queue, &mut ddata, &data);
    write_buffer(&queue, &mut bins, &[0u32; 16]);
    write_buffer(&queue, &mut stats, &[i32::MIN, 0]);
    // SAFETY: argument types match the kernel's signature.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&ddata)
            .set_arg(&bins)
            .set_arg(&stats)
            .set_global_work_size(M)
            .set_local_work_size(64)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let mut got_bins = vec![0u32; 16];
    let mut got_stats = vec![0i32; 2];
    read_buffer(&queue, &bins, &mut got_bins);
    read_buffer(&queue, &stats, &mut got_stats);
    let mut expected = [0u32; 16];
    for &v in &data {
        expected[(v % 16) as usize] += 1;
    }
    assert_eq!(got_bins, expected);
    assert_eq!(got_stats[0], *data.iter().max().expect("data") as i32);
    assert_eq!(got_stats[1], M as i32);
}

#[test]
fn byte_stores_from_neighbouring_work_items_are_not_lost() {
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/bytes.cl");
    let kernel = Kernel::create(&program, "bytes").expect("kernel");
    // 1M work-items, each writing its own byte: four share every word.
    const M: usize = 1 << 20;
    let input: Vec<u8> = (0..M).map(|i| (i * 31 % 251) as u8).collect();
    let signed: Vec<i8> = (0..M).map(|i| (i % 256) as u8 as i8).collect();
    let mut din = new_buffer::<u8>(&context, CL_MEM_READ_ONLY, M);
    let dout = new_buffer::<u8>(&context, CL_MEM_WRITE_ONLY, M);
    let mut dsigned = new_buffer::<i8>(&context, CL_MEM_READ_ONLY, M);
    let dwide = new_buffer::<i16>(&context, CL_MEM_WRITE_ONLY, M);
    write_buffer(&queue, &mut din, &input);
    write_buffer(&queue, &mut dsigned, &signed);
    // SAFETY: argument types match the kernel's signature.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&din)
            .set_arg(&dout)
            .set_arg(&dsigned)
            .set_arg(&dwide)
            .set_global_work_size(M)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let mut out = vec![0u8; M];
    let mut wide = vec![0i16; M];
    read_buffer(&queue, &dout, &mut out);
    read_buffer(&queue, &dwide, &mut wide);
    let wrong = (0..M)
        .filter(|&i| out[i] != input[i].wrapping_mul(3).wrapping_add(1))
        .count();
    assert_eq!(wrong, 0, "bytes lost or wrong");
    let wrong = (0..M)
        .filter(|&i| wide[i] != (signed[i] as i16).wrapping_mul(100))
        .count();
    assert_eq!(
        wrong,
        0,
        "shorts wrong (first: {} vs {})",
        wide[0],
        signed[0] as i16 * 100
    );
}

#[test]
fn vload_vstore_at_element_alignment_and_linear_ids() {
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/vload_linear.cl");
    let kernel = Kernel::create(&program, "vload_linear").expect("kernel");
    const N: usize = 32;
    let input: Vec<f32> = (0..3 * N + 4).map(|i| i as f32 * 0.5).collect();
    let bytes: Vec<u8> = (0..4 * N + 1).map(|i| (i * 7) as u8).collect();
    let mut din = new_buffer::<f32>(&context, CL_MEM_READ_ONLY, input.len());
    let dout = new_buffer::<f32>(&context, CL_MEM_WRITE_ONLY, 3 * N);
    let mut dbytes = new_buffer::<u8>(&context, CL_MEM_READ_ONLY, bytes.len());
    let dbytes_out = new_buffer::<u8>(&context, CL_MEM_WRITE_ONLY, 4 * N);
    let dids = new_buffer::<u32>(&context, CL_MEM_WRITE_ONLY, 2 * N);
    write_buffer(&queue, &mut din, &input);
    write_buffer(&queue, &mut dbytes, &bytes);
    // SAFETY: argument types match the kernel's signature.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&din)
            .set_arg(&dout)
            .set_arg(&dbytes)
            .set_arg(&dbytes_out)
            .set_arg(&dids)
            .set_global_work_sizes(&[8, 4])
            .set_local_work_sizes(&[4, 2])
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let mut out = vec![0f32; 3 * N];
    let mut bytes_out = vec![0u8; 4 * N];
    let mut ids = vec![0u32; 2 * N];
    read_buffer(&queue, &dout, &mut out);
    read_buffer(&queue, &dbytes_out, &mut bytes_out);
    read_buffer(&queue, &dids, &mut ids);
    for (i, k) in (0..N).flat_map(|i| (0..3).map(move |k| (i, k))) {
        assert_eq!(
            out[3 * i + k],
            2.0 * input[1 + 3 * i + k],
            "out[{}]",
            3 * i + k
        );
    }
    for (i, k) in (0..N).flat_map(|i| (0..4).map(move |k| (i, k))) {
        let expected = bytes[1 + 4 * i + k].wrapping_add(k as u8 + 1);
        assert_eq!(bytes_out[4 * i + k], expected, "bytes_out[{}]", 4 * i + k);
    }
    for i in 0..N {
        let (x, y) = (i % 8, i / 8);
        assert_eq!(
            ids[2 * i],
            (x % 4 + 4 * (y % 2)) as u32,
            "local linear id of {i}"
        );
        assert_eq!(ids[2 * i + 1], 1, "vload2 agrees with a plain load at {i}");
    }
}

#[test]
fn local_pointer_arguments_sized_at_enqueue() {
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/local_args.cl");
    let kernel = Kernel::create(&program, "local_args").expect("kernel");
    const M: usize = 1024;
    let input: Vec<f32> = (0..M).map(|i| (i % 17) as f32).collect();
    let mut din = new_buffer::<f32>(&context, CL_MEM_READ_ONLY, M);
    write_buffer(&queue, &mut din, &input);
    // Two launches with different group sizes: each gets its own lengths.
    for local in [32usize, 128] {
        let dout = new_buffer::<f32>(&context, CL_MEM_WRITE_ONLY, M / local);
        // SAFETY: argument types match; __local arguments take a size only.
        unsafe {
            ExecuteKernel::new(&kernel)
                .set_arg(&din)
                .set_arg(&dout)
                .set_arg_local_buffer(local * std::mem::size_of::<f32>())
                .set_arg_local_buffer(local * std::mem::size_of::<i32>())
                .set_global_work_size(M)
                .set_local_work_size(local)
                .enqueue_nd_range(&queue)
        }
        .expect("enqueue");
        let mut got = vec![0f32; M / local];
        read_buffer(&queue, &dout, &mut got);
        for (g, chunk) in input.chunks(local).enumerate() {
            let mean = chunk.iter().sum::<f32>() / local as f32;
            assert!(
                (got[g] - mean).abs() < 1e-4,
                "group {g} of {local}: {} vs {mean}",
                got[g]
            );
        }
    }
}

/// The host side of `Particle` in tests/kernels/structs.cl, laid out as the
/// C compiler (and so the translator) does: 48 bytes, 16-aligned.
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Particle {
    pos: [f32; 4],
    vel: [f32; 4],
    mass: f32,
    id: i32,
}

#[repr(C)]
struct Params {
    dt: f32,
    damping: f32,
    steps: i32,
}

#[test]
fn structs_in_buffers_and_by_value() {
    assert_eq!(std::mem::size_of::<Particle>(), 48);
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/structs.cl");
    let kernel = Kernel::create(&program, "structs").expect("kernel");
    const M: usize = 256;
    let start: Vec<Particle> = (0..M)
        .map(|i| Particle {
            pos: [i as f32, 1.0, 2.0, 0.0],
            vel: [0.5, -1.0, 0.25, 0.0],
            mass: i as f32 * 0.1,
            id: i as i32,
        })
        .collect();
    let mut buffer = new_buffer::<Particle>(&context, CL_MEM_READ_WRITE, M);
    write_buffer(&queue, &mut buffer, &start);
    let params = Params {
        dt: 0.5,
        damping: 0.5,
        steps: 3,
    };
    // SAFETY: argument types match the kernel's signature (Params by value).
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&buffer)
            .set_arg(&params)
            .set_global_work_size(M)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let mut got = vec![Particle::default(); M];
    read_buffer(&queue, &buffer, &mut got);
    for (i, (p, q)) in start.iter().zip(&got).enumerate() {
        let mut expected = *p;
        for _ in 0..params.steps {
            for k in 0..4 {
                expected.pos[k] += expected.vel[k] * params.dt;
                expected.vel[k] *= params.damping;
            }
        }
        expected.mass *= 2.0;
        expected.id = -expected.id;
        expected.vel[3] = params.steps as f32;
        assert_eq!(*q, expected, "particle {i}");
    }
}

#[test]
fn char_and_short_vectors_in_buffers() {
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/narrow_vectors.cl");
    let kernel = Kernel::create(&program, "narrow_vectors").expect("kernel");
    // Odd sizes, so neighbouring work-items share the words of `pairs`.
    const M: usize = 1001;
    let pixels: Vec<[u8; 4]> = (0..M)
        .map(|i| {
            [
                (i * 7) as u8,
                (i * 13 + 5) as u8,
                (i * 29) as u8,
                (255 - i as i64) as u8,
            ]
        })
        .collect();
    let mut input = new_buffer::<[u8; 4]>(&context, CL_MEM_READ_ONLY, M);
    write_buffer(&queue, &mut input, &pixels);
    let brighter = new_buffer::<[u8; 4]>(&context, CL_MEM_WRITE_ONLY, M);
    let wide = new_buffer::<[i16; 4]>(&context, CL_MEM_WRITE_ONLY, M);
    let mut rgb = new_buffer::<[u8; 4]>(&context, CL_MEM_READ_WRITE, M);
    // The padding byte of each uchar3 starts non-zero: the kernel may only
    // write it as part of its own element.
    write_buffer(&queue, &mut rgb, &vec![[9u8; 4]; M]);
    let pairs = new_buffer::<[i8; 2]>(&context, CL_MEM_WRITE_ONLY, M);
    // SAFETY: five buffers, as the kernel declares.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&input)
            .set_arg(&brighter)
            .set_arg(&wide)
            .set_arg(&rgb)
            .set_arg(&pairs)
            .set_global_work_size(M)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let mut got_brighter = vec![[0u8; 4]; M];
    let mut got_wide = vec![[0i16; 4]; M];
    let mut got_rgb = vec![[0u8; 4]; M];
    let mut got_pairs = vec![[0i8; 2]; M];
    read_buffer(&queue, &brighter, &mut got_brighter);
    read_buffer(&queue, &wide, &mut got_wide);
    read_buffer(&queue, &rgb, &mut got_rgb);
    read_buffer(&queue, &pairs, &mut got_pairs);
    for (i, p) in pixels.iter().enumerate() {
        let b = p.map(|x| (f32::from(x) * 1.5).min(255.0) as u8);
        assert_eq!(got_brighter[i], b, "brighter[{i}]");
        let w = p.map(|x| (i16::from(x) - 128).wrapping_mul(300));
        assert_eq!(got_wide[i], w, "wide[{i}]");
        let c = [p[2], p[1], p[0]].map(|x| x.wrapping_add(i as u8));
        assert_eq!(&got_rgb[i][..3], &c, "rgb[{i}]");
        let pair = [p[0] as i8, p[1].wrapping_add(p[3]) as i8];
        assert_eq!(got_pairs[i], pair, "pairs[{i}]");
    }
}

#[test]
fn pointer_casts_between_pointee_types() {
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/pointer_casts.cl");
    let kernel = Kernel::create(&program, "pointer_casts").expect("kernel");
    const M: usize = 777;
    let floats: Vec<f32> = (0..4 * M).map(|i| (i % 97) as f32 * 0.25).collect();
    let words: Vec<u32> = (0..M as u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    let mut input = new_buffer::<f32>(&context, CL_MEM_READ_ONLY, 4 * M);
    write_buffer(&queue, &mut input, &floats);
    let sums = new_buffer::<f32>(&context, CL_MEM_WRITE_ONLY, M);
    let mut word_buffer = new_buffer::<u32>(&context, CL_MEM_READ_WRITE, M);
    write_buffer(&queue, &mut word_buffer, &words);
    let bytes_out = new_buffer::<i32>(&context, CL_MEM_WRITE_ONLY, M);
    // SAFETY: four buffers, as the kernel declares.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&input)
            .set_arg(&sums)
            .set_arg(&word_buffer)
            .set_arg(&bytes_out)
            .set_global_work_size(M)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let mut got_sums = vec![0f32; M];
    let mut got_words = vec![0u32; M];
    let mut got_bytes = vec![0i32; M];
    read_buffer(&queue, &sums, &mut got_sums);
    read_buffer(&queue, &word_buffer, &mut got_words);
    read_buffer(&queue, &bytes_out, &mut got_bytes);
    for i in 0..M {
        let v = &floats[4 * i..4 * i + 4];
        let expected = v[0] + v[1] + v[2] + v[3] + v[1];
        assert_eq!(got_sums[i], expected, "sums[{i}]");
        let b = words[i].to_le_bytes();
        assert_eq!(
            got_bytes[i],
            i32::from(b[0]) + i32::from(b[3]),
            "bytes_out[{i}]"
        );
        assert_eq!(got_words[i], words[i].swap_bytes(), "words[{i}]");
    }
}

#[test]
fn rsqrt_and_native_math() {
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/native_math.cl");
    let kernel = Kernel::create(&program, "native_math").expect("kernel");
    const M: usize = 256;
    let x: Vec<f32> = (0..4 * M).map(|i| 0.5 + i as f32 * 0.037).collect();
    let mut input = new_buffer::<f32>(&context, CL_MEM_READ_ONLY, 4 * M);
    write_buffer(&queue, &mut input, &x);
    let out = new_buffer::<f32>(&context, CL_MEM_WRITE_ONLY, 32 * M);
    // SAFETY: two buffers, as the kernel declares.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&input)
            .set_arg(&out)
            .set_global_work_size(M)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let mut got = vec![0f32; 32 * M];
    read_buffer(&queue, &out, &mut got);
    let check = |got: f32, want: f64, tolerance: f64, what: &str| {
        let error = (f64::from(got) - want).abs() / want.abs().max(1.0);
        assert!(error <= tolerance, "{what}: {got} vs {want}");
    };
    for i in 0..M {
        for lane in 0..4 {
            let v = f64::from(x[4 * i + lane]);
            let at = |k: usize| got[32 * i + 4 * k + lane];
            let ulp2 = 2.0 * f64::from(f32::EPSILON);
            let rs = 1.0 / v.sqrt();
            assert!(
                (f64::from(at(0)) - rs).abs() <= ulp2 * rs,
                "rsqrt({v}) = {}",
                at(0)
            );
            // native_*: implementation-defined accuracy; within 1e-3.
            check(at(1), v.sqrt() + rs, 1e-3, "sqrt + rsqrt");
            check(
                at(2),
                (v * 0.1).exp() + (v * 0.1).exp2(),
                1e-3,
                "exp + exp2",
            );
            check(at(3), v.ln() + v.log2(), 1e-3, "log + log2");
            check(at(4), v.sin() + v.cos(), 1e-3, "sin + cos");
            check(at(5), 1.0 / v + v / 3.0, 1e-3, "recip + divide");
            check(
                at(6),
                10f64.powf(v * 0.1) + v.log10(),
                1e-3,
                "exp10 + log10",
            );
        }
        let v: Vec<f64> = (0..4).map(|l| f64::from(x[4 * i + l])).collect();
        let last = [
            v[0].sqrt(),
            (v[1] * 0.1).tan(),
            1.0 / v[2].sqrt(),
            v[3].sqrt(),
        ];
        for (lane, want) in last.iter().enumerate() {
            check(got[32 * i + 28 + lane], *want, 1e-3, "powr/tan/rsqrt/sqrt");
        }
    }
}

#[test]
fn async_work_group_copies() {
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/async_copy.cl");
    let kernel = Kernel::create(&program, "async_copy").expect("kernel");
    const TILE: usize = 64;
    const GROUPS: usize = 8;
    let n = TILE * GROUPS;
    let ints: Vec<i32> = (0..n as i32).map(|i| i * 7 - 100).collect();
    let vecs: Vec<[f32; 4]> = (0..4 * n)
        .map(|i| [i as f32, 0.5, -(i as f32), 2.0])
        .collect();
    let mut input = new_buffer::<i32>(&context, CL_MEM_READ_ONLY, n);
    write_buffer(&queue, &mut input, &ints);
    let output = new_buffer::<i32>(&context, CL_MEM_WRITE_ONLY, n);
    let mut input4 = new_buffer::<[f32; 4]>(&context, CL_MEM_READ_ONLY, 4 * n);
    write_buffer(&queue, &mut input4, &vecs);
    let mut output4 = new_buffer::<[f32; 4]>(&context, CL_MEM_READ_WRITE, 2 * n);
    // The strided copy out must leave the elements between its own alone.
    write_buffer(&queue, &mut output4, &vec![[-1.0f32; 4]; 2 * n]);
    // SAFETY: four buffers, as the kernel declares; whole tiles per group.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&input)
            .set_arg(&output)
            .set_arg(&input4)
            .set_arg(&output4)
            .set_global_work_size(n)
            .set_local_work_size(TILE)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let mut got = vec![0i32; n];
    let mut got4 = vec![[0f32; 4]; 2 * n];
    read_buffer(&queue, &output, &mut got);
    read_buffer(&queue, &output4, &mut got4);
    for g in 0..GROUPS {
        for l in 0..TILE {
            let i = g * TILE + l;
            assert_eq!(got[i], ints[g * TILE + TILE - 1 - l] * 2, "out[{i}]");
            let mut v = vecs[g * TILE * 4 + l * 4];
            v[1] += 1.0;
            assert_eq!(
                got4[g * TILE * 2 + l * 2],
                v,
                "out4[{}]",
                g * TILE * 2 + l * 2
            );
            assert_eq!(got4[g * TILE * 2 + l * 2 + 1], [-1.0; 4], "out4 gap");
        }
    }
}

#[test]
fn atomics_on_64_bits_in_buffers_and_local_memory() {
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/atomics64.cl");
    let kernel = Kernel::create(&program, "atomics64").expect("kernel");
    const M: usize = 4096;
    let mut sums = new_buffer::<u64>(&context, CL_MEM_READ_WRITE, 4);
    write_buffer(&queue, &mut sums, &[0u64; 4]);
    let mut extremes = new_buffer::<i64>(&context, CL_MEM_READ_WRITE, 2);
    write_buffer(&queue, &mut extremes, &[i64::MAX, i64::MIN]);
    let mut ticket = new_buffer::<u64>(&context, CL_MEM_READ_WRITE, 1);
    write_buffer(&queue, &mut ticket, &[0u64]);
    // SAFETY: three buffers, as the kernel declares.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&sums)
            .set_arg(&extremes)
            .set_arg(&ticket)
            .set_global_work_size(M)
            .set_local_work_size(64)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let (mut got_sums, mut got_extremes, mut got_ticket) = ([0u64; 4], [0i64; 2], [0u64]);
    read_buffer(&queue, &sums, &mut got_sums);
    read_buffer(&queue, &extremes, &mut got_extremes);
    read_buffer(&queue, &ticket, &mut got_ticket);
    let ids = 0..M as u64;
    let xor = ids
        .clone()
        .fold(0u64, |x, i| x ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let total: u64 = ids.clone().map(|i| i << 20).sum();
    assert_eq!(got_sums, [total, (M as u64) << 32, M as u64, xor]);
    let last = M as i64 - 1;
    assert_eq!(got_extremes, [last * -3_000_000_000, last * 3_000_000_000]);
    assert_eq!(got_ticket[0], ids.sum::<u64>());
}

#[test]
fn opencl_2_0_atomics_with_orders_and_scopes() {
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/c11_atomics.cl");
    let kernel = Kernel::create(&program, "c11_atomics").expect("kernel");
    const M: usize = 1024;
    const LOCAL: usize = 64;
    const GROUPS: usize = M / LOCAL;
    let zeroed_u32 = |n: usize| {
        let mut b = new_buffer::<u32>(&context, CL_MEM_READ_WRITE, n);
        write_buffer(&queue, &mut b, &vec![0u32; n]);
        b
    };
    let (counter, max_value, winner, flags) = (
        zeroed_u32(1),
        zeroed_u32(1),
        zeroed_u32(1),
        zeroed_u32(GROUPS),
    );
    let mut big = new_buffer::<i64>(&context, CL_MEM_READ_WRITE, 1);
    write_buffer(&queue, &mut big, &[0i64]);
    let out = new_buffer::<i32>(&context, CL_MEM_WRITE_ONLY, M);
    // SAFETY: six buffers, as the kernel declares.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&counter)
            .set_arg(&max_value)
            .set_arg(&winner)
            .set_arg(&flags)
            .set_arg(&big)
            .set_arg(&out)
            .set_global_work_size(M)
            .set_local_work_size(LOCAL)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let read_u32 = |b: &Buffer<u32>| {
        let mut v = [0u32];
        read_buffer(&queue, b, &mut v);
        v[0]
    };
    assert_eq!(read_u32(&counter), 2 * M as u32);
    assert_eq!(read_u32(&max_value), 3 * (M as u32 - 1));
    let winner_id = read_u32(&winner);
    assert!((1..=M as u32).contains(&winner_id), "winner {winner_id}");
    let mut got_big = [0i64];
    read_buffer(&queue, &big, &mut got_big);
    assert_eq!(got_big[0], (M as i64) << 33);
    let mut got = vec![0i32; M];
    read_buffer(&queue, &out, &mut got);
    let winners: Vec<usize> = (0..M).filter(|&i| got[i] & 1 != 0).collect();
    assert_eq!(
        winners,
        [winner_id as usize - 1],
        "exactly the recorded winner won"
    );
    for g in 0..GROUPS {
        let first = (g * LOCAL..(g + 1) * LOCAL)
            .filter(|&i| got[i] & 2 != 0)
            .count();
        assert_eq!(first, 1, "group {g}: one work-item found its flag clear");
    }
    for (i, &v) in got.iter().enumerate() {
        assert_eq!(
            (v >> 2) & 0x3ffff,
            LOCAL as i32,
            "out[{i}]: the work-group count"
        );
        // Losers saw the winner's value in `expected`.
        assert_eq!(v >> 20, i32::from(v & 1 == 0), "out[{i}]: expected updated");
    }
}

/// The exact value of the half with bits `h` (infinities included).
fn half_value(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let (exponent, mantissa) = (i32::from((h >> 10) & 0x1f), f64::from(h & 0x3ff));
    sign * match exponent {
        0 => mantissa * 2f64.powi(-24),
        31 => f64::INFINITY,
        e => (1024.0 + mantissa) * 2f64.powi(e - 25),
    }
}

/// `x` as a half under each rounding mode (rte, rtz, rtp, rtn), found by
/// searching every half rather than by bit tricks.
fn half_reference(x: f32) -> [u16; 4] {
    let x = f64::from(x);
    let negative = x.is_sign_negative();
    let ordered: Vec<u16> = (0..=0xffffu16)
        .filter(|h| (h & 0x7c00) != 0x7c00 || h & 0x3ff == 0)
        .collect();
    let zero_of_sign = if negative { 0x8000 } else { 0 };
    let pick = |h: u16| {
        if half_value(h) == 0.0 {
            zero_of_sign
        } else {
            h
        }
    };
    let below = ordered
        .iter()
        .copied()
        .filter(|&h| half_value(h) <= x)
        .max_by(|&a, &b| half_value(a).total_cmp(&half_value(b)))
        .map(pick);
    let above = ordered
        .iter()
        .copied()
        .filter(|&h| half_value(h) >= x)
        .min_by(|&a, &b| half_value(a).total_cmp(&half_value(b)))
        .map(pick);
    let (down, up) = (below.expect("below"), above.expect("above"));
    let toward_zero = if negative { up } else { down };
    // Nearest, ties to even; beyond the largest half by half an ulp
    // (65520) it is infinity.
    let nearest = if x.abs() >= 65520.0 {
        if negative {
            0xfc00
        } else {
            0x7c00
        }
    } else {
        let (d, u) = (x - half_value(down), half_value(up) - x);
        if d < u || (d == u && down & 1 == 0) {
            down
        } else {
            up
        }
    };
    [nearest, toward_zero, up, down]
}

#[test]
fn vstore_half_in_every_rounding_mode() {
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/half_rounding.cl");
    let kernel = Kernel::create(&program, "half_rounding").expect("kernel");
    let mut values = vec![
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        1.0 / 3.0,
        -1.0 / 3.0,
        65504.0,
        65519.0,
        65520.0,
        70000.0,
        -70000.0,
        1e-8,
        -1e-8,
        5.96e-8,
        6.1e-5,
        -6.1e-5,
        2049.0,
        2051.0,
        -2049.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
        f32::MIN_POSITIVE,
    ];
    values.extend((0..200).map(|i| ((i as f32) * 0.37).sin() * 10f32.powi(i % 9 - 4)));
    let n = values.len();
    let mut input = new_buffer::<f32>(&context, CL_MEM_READ_ONLY, n);
    write_buffer(&queue, &mut input, &values);
    let out = new_buffer::<u16>(&context, CL_MEM_WRITE_ONLY, 4 * n);
    // SAFETY: a float input and a half output of 4 per value.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&input)
            .set_arg(&out)
            .set_global_work_size(n)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let mut got = vec![0u16; 4 * n];
    read_buffer(&queue, &out, &mut got);
    for (i, &x) in values.iter().enumerate() {
        assert_eq!(
            got[4 * i..4 * i + 4],
            half_reference(x),
            "{x:e}: rte, rtz, rtp, rtn"
        );
    }
}

#[test]
fn map_and_unmap_of_use_host_ptr_and_device_buffers() {
    use opencl3::memory::{ClMem, CL_MAP_READ, CL_MAP_WRITE, CL_MEM_USE_HOST_PTR};
    use opencl3::types::{cl_mem, CL_NON_BLOCKING};
    let (context, queue) = setup();
    // USE_HOST_PTR: the map must hand back host_ptr + offset.
    let mut host: Vec<u32> = (0..64).collect();
    // SAFETY: `host` outlives the buffer and is only touched through maps.
    let with_host = unsafe {
        Buffer::<u32>::create(
            &context,
            CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE,
            64,
            host.as_mut_ptr().cast(),
        )
    }
    .expect("USE_HOST_PTR buffer");
    let mut mapped: cl_mem = ptr::null_mut();
    // SAFETY: a non-blocking map of bytes 16..80, waited for before use.
    let event = unsafe {
        queue.enqueue_map_buffer(
            &with_host,
            CL_NON_BLOCKING,
            CL_MAP_READ | CL_MAP_WRITE,
            16,
            64,
            &mut mapped,
            &[],
        )
    }
    .expect("map");
    event.wait().expect("map event");
    assert_eq!(
        mapped as usize,
        host.as_ptr() as usize + 16,
        "host_ptr + offset"
    );
    // SAFETY: the mapped region is 16 u32s, ours until the unmap.
    let region = unsafe { std::slice::from_raw_parts_mut(mapped.cast::<u32>(), 16) };
    assert_eq!(region[0], 4);
    region[1] = 5000;
    // SAFETY: unmapping the pointer the map returned.
    unsafe { queue.enqueue_unmap_mem_object(with_host.get(), mapped.cast(), &[]) }.expect("unmap");
    let mut back = vec![0u32; 64];
    read_buffer(&queue, &with_host, &mut back);
    assert_eq!(back[5], 5000);
    assert_eq!(back[6], 6);

    // A device buffer: two overlapping read maps, then unmapped in turn.
    let mut plain = new_buffer::<u32>(&context, CL_MEM_READ_WRITE, 1024);
    write_buffer(
        &queue,
        &mut plain,
        &(0..1024).map(|i| i * 3).collect::<Vec<u32>>(),
    );
    let (mut a, mut b): (cl_mem, cl_mem) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: blocking maps inside the buffer.
    unsafe {
        queue
            .enqueue_map_buffer(&plain, CL_BLOCKING, CL_MAP_READ, 0, 4096, &mut a, &[])
            .expect("map a");
        queue
            .enqueue_map_buffer(&plain, CL_BLOCKING, CL_MAP_READ, 400, 400, &mut b, &[])
            .expect("map b");
    }
    assert_eq!(a as usize % 128, 0, "mapped memory is aligned for any type");
    // SAFETY: both regions are mapped and hold u32s.
    unsafe {
        assert_eq!(*a.cast::<u32>().add(1023), 3069);
        assert_eq!(*b.cast::<u32>(), 300);
        queue
            .enqueue_unmap_mem_object(plain.get(), a.cast(), &[])
            .expect("unmap a");
        queue
            .enqueue_unmap_mem_object(plain.get(), b.cast(), &[])
            .expect("unmap b");
    }
    queue.finish().expect("finish");
}

/// What `int_library` in tests/kernels/library.cl computes for (x, y).
fn int_library_reference(x: i32, y: i32) -> [i32; 16] {
    let (ux, uy) = (x as u32, y as u32);
    let (cx, cy, ucx, ucy) = (x as i8, y as i8, x as u8, y as u8);
    let (x64, y64) = (i64::from(x), i64::from(y));
    [
        x.clamp(-1000, 1000),
        x.unsigned_abs() as i32,
        (x64 - y64).unsigned_abs() as u32 as i32,
        ((x64 + y64) >> 1) as i32,
        ((x64 + y64 + 1) >> 1) as i32,
        x.saturating_add(y),
        x.saturating_sub(y),
        ux.saturating_add(uy) as i32,
        ux.saturating_sub(uy) as i32,
        ((x64 * y64) >> 32) as i32,
        ((u64::from(ux) * u64::from(uy)) >> 32) as u32 as i32,
        ux.rotate_left(uy % 32) as i32,
        (x.leading_zeros() + 100 * x.trailing_zeros() + 10000 * x.count_ones()) as i32,
        i32::from(cx.saturating_add(cy)) + 1000 * i32::from(ucx.saturating_sub(ucy)),
        (ucx.leading_zeros() + 100 * cy.trailing_zeros() + 10000 * cx.count_ones()) as i32,
        i32::from(ucx.rotate_left(u32::from(y as u8) % 8))
            + 1000 * i32::from(cx.unsigned_abs())
            + 1_000_000 * ((i32::from(cx) * i32::from(cy)) >> 8),
    ]
}

#[test]
fn integer_common_geometric_and_relational_builtins() {
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/library.cl");
    // Integers: edge values and a spread of others.
    let edges = [
        0,
        1,
        -1,
        2,
        -2,
        127,
        -128,
        255,
        256,
        i32::MAX,
        i32::MIN,
        i32::MAX - 1,
        0x1234_5678,
    ];
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for &x in &edges {
        for &y in &edges {
            xs.push(x);
            ys.push(y);
        }
    }
    for i in 0..200i32 {
        xs.push(i.wrapping_mul(0x9e37_79b9u32 as i32));
        ys.push(i.wrapping_mul(0x7f4a_7c15).rotate_left(7));
    }
    let n = xs.len();
    let kernel = Kernel::create(&program, "int_library").expect("kernel");
    let (mut a, mut b) = (
        new_buffer::<i32>(&context, CL_MEM_READ_ONLY, n),
        new_buffer::<i32>(&context, CL_MEM_READ_ONLY, n),
    );
    write_buffer(&queue, &mut a, &xs);
    write_buffer(&queue, &mut b, &ys);
    let out = new_buffer::<i32>(&context, CL_MEM_WRITE_ONLY, 16 * n);
    // SAFETY: three int buffers, as the kernel declares.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&a)
            .set_arg(&b)
            .set_arg(&out)
            .set_global_work_size(n)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let mut got = vec![0i32; 16 * n];
    read_buffer(&queue, &out, &mut got);
    for i in 0..n {
        assert_eq!(
            got[16 * i..16 * i + 16],
            int_library_reference(xs[i], ys[i]),
            "x = {}, y = {}",
            xs[i],
            ys[i]
        );
    }

    // Floats: signed zeros, infinities, NaN and ordinary values. No
    // subnormals: the device does not report CL_FP_DENORM, so it may flush
    // them (the H100 does, in comparisons).
    let specials = [
        0.0f32,
        -0.0,
        1.0,
        -1.5,
        0.25,
        3.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        1e-30,
        -7.0,
        0.5,
    ];
    let m = specials.len();
    let xv: Vec<[f32; 4]> = (0..m)
        .map(|i| [0, 1, 2, 3].map(|k| specials[(i + k) % m]))
        .collect();
    let yv: Vec<[f32; 4]> = (0..m)
        .map(|i| [0, 1, 2, 3].map(|k| specials[(i * 5 + k * 7 + 3) % m]))
        .collect();
    let kernel = Kernel::create(&program, "float_library").expect("kernel");
    let (mut fa, mut fb) = (
        new_buffer::<[f32; 4]>(&context, CL_MEM_READ_ONLY, m),
        new_buffer::<[f32; 4]>(&context, CL_MEM_READ_ONLY, m),
    );
    write_buffer(&queue, &mut fa, &xv);
    write_buffer(&queue, &mut fb, &yv);
    let f = new_buffer::<[f32; 4]>(&context, CL_MEM_WRITE_ONLY, 6 * m);
    let r = new_buffer::<[i32; 4]>(&context, CL_MEM_WRITE_ONLY, 4 * m);
    // SAFETY: four buffers, as the kernel declares.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&fa)
            .set_arg(&fb)
            .set_arg(&f)
            .set_arg(&r)
            .set_global_work_size(m)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let mut got_f = vec![[0f32; 4]; 6 * m];
    let mut got_r = vec![[0i32; 4]; 4 * m];
    read_buffer(&queue, &f, &mut got_f);
    read_buffer(&queue, &r, &mut got_r);
    // Equal, or both NaN, or within rounding (a driver may fuse a * b + c).
    let close = |got: f32, want: f32| {
        got == want
            || (got.is_nan() && want.is_nan())
            || (got - want).abs() <= 1e-6 * want.abs().max(1.0)
    };
    let lanes = |k: usize, f: &dyn Fn(f32, f32) -> f32, i: usize| {
        for lane in 0..4 {
            // smoothstep of NaN is undefined (OpenCL C 6.15.4).
            if k == 2 && yv[i][lane].is_nan() {
                continue;
            }
            let want = f(xv[i][lane], yv[i][lane]);
            let got = got_f[6 * i + k][lane];
            assert!(
                close(got, want),
                "f[{}] lane {lane}: {got} vs {want} (x {:?}, y {:?})",
                6 * i + k,
                xv[i],
                yv[i]
            );
        }
    };
    let smooth = |y: f32| {
        let t = ((y + 1.0) / 2.0).clamp(0.0, 1.0);
        if t.is_nan() {
            f32::NAN
        } else {
            t * t * (3.0 - 2.0 * t)
        }
    };
    for i in 0..m {
        // fmin(fmax(x, -1), 1): a NaN x gives -1, unlike f32::clamp.
        lanes(0, &|x, _| if x >= -1.0 { x.min(1.0) } else { -1.0 }, i);
        lanes(1, &|x, y| x + (y - x) * 0.25, i);
        lanes(2, &|x, y| if x < 0.5 { 0.0 } else { 1.0 } + smooth(y), i);
        lanes(
            3,
            &|x, _| {
                if x > 0.0 {
                    1.0
                } else if x < 0.0 {
                    -1.0
                } else if x.is_nan() {
                    0.0
                } else {
                    x
                }
            },
            i,
        );
        let (x, y) = (xv[i], yv[i]);
        let cross = [
            x[1] * y[2] - x[2] * y[1],
            x[2] * y[0] - x[0] * y[2],
            x[0] * y[1] - x[1] * y[0],
            0.0,
        ];
        for lane in 0..3 {
            assert!(
                close(got_f[6 * i + 5][lane], cross[lane]),
                "cross {i} lane {lane}"
            );
        }
        assert_eq!(got_f[6 * i + 5][3], 0.0);
        let rel = |lane: usize| {
            let (a, b) = (x[lane], y[lane]);
            let t = |c: bool| if c { -1 } else { 0 };
            // islessgreater is false for NaN, unlike !=.
            let ordered_unequal = matches!(
                a.partial_cmp(&b),
                Some(std::cmp::Ordering::Less | std::cmp::Ordering::Greater)
            );
            t(a == b) + 2 * t(a != b) + 4 * t(a > b) + 8 * t(ordered_unequal)
        };
        let class = |lane: usize| {
            let a = x[lane];
            let t = |c: bool| if c { -1 } else { 0 };
            t(a.is_nan())
                + 2 * t(a.is_infinite())
                + 4 * t(a.is_finite())
                + 8 * t(a.is_normal())
                + 16 * t(a.is_sign_negative())
        };
        assert_eq!(
            got_r[4 * i],
            [0, 1, 2, 3].map(rel),
            "relations {i}: {x:?} {y:?}"
        );
        assert_eq!(
            got_r[4 * i + 1],
            [0, 1, 2, 3].map(class),
            "classes {i}: {x:?}"
        );
        let less: Vec<bool> = (0..4).map(|l| x[l] < y[l]).collect();
        let expect2 = [
            i32::from(less.iter().any(|&c| c)),
            i32::from(less.iter().all(|&c| c)),
            if i & 1 != 0 { 9 } else { 7 },
            (0x0f0f & !0x00ff) | (0x7070 & 0x00ff),
        ];
        assert_eq!(got_r[4 * i + 2], expect2, "any/all/select/bitselect {i}");
        let expect3 = [0, 1, 2, 3].map(|l| {
            if x[l] > y[l] {
                l as i32 + 5
            } else {
                l as i32 + 1
            }
        });
        assert_eq!(got_r[4 * i + 3], expect3, "vector select {i}");
    }
}

#[test]
fn saturating_and_rounding_conversions() {
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/conversions.cl");
    let kernel = Kernel::create(&program, "conversions").expect("kernel");
    let mut xs = vec![
        0.0f32,
        -0.0,
        0.5,
        1.5,
        2.5,
        -0.5,
        -1.5,
        -2.5,
        127.5,
        128.0,
        255.4,
        255.5,
        256.0,
        -129.0,
        3.7,
        -3.7,
        1e9,
        -1e9,
        2.1e9,
        -2.2e9,
        4.3e9,
        1e20,
        -1e20,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        2147483520.0,
        -2147483648.0,
    ];
    xs.extend((0..100).map(|i| ((i as f32) * 0.731).sin() * 10f32.powi(i % 12 - 2)));
    let ns: Vec<i32> = (0..xs.len() as i32)
        .map(|i| {
            [
                -70000,
                -32769,
                -200,
                -1,
                0,
                1,
                200,
                300,
                32768,
                70000,
                i32::MIN,
                i32::MAX,
            ][i as usize % 12]
                .wrapping_add(i)
        })
        .collect();
    let n = xs.len();
    let (mut f, mut ints) = (
        new_buffer::<f32>(&context, CL_MEM_READ_ONLY, n),
        new_buffer::<i32>(&context, CL_MEM_READ_ONLY, n),
    );
    write_buffer(&queue, &mut f, &xs);
    write_buffer(&queue, &mut ints, &ns);
    let out = new_buffer::<i32>(&context, CL_MEM_WRITE_ONLY, 12 * n);
    let pixels = new_buffer::<[u8; 4]>(&context, CL_MEM_WRITE_ONLY, n);
    // SAFETY: four buffers, as the kernel declares.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&f)
            .set_arg(&ints)
            .set_arg(&out)
            .set_arg(&pixels)
            .set_global_work_size(n)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let mut got = vec![0i32; 12 * n];
    let mut got_pixels = vec![[0u8; 4]; n];
    read_buffer(&queue, &out, &mut got);
    read_buffer(&queue, &pixels, &mut got_pixels);
    for (i, (&x, &m)) in xs.iter().zip(&ns).enumerate() {
        let in_range = !x.is_nan() && x.abs() <= 1e8;
        let want = [
            x as i32,
            x.round_ties_even() as i32,
            x.ceil() as i32,
            x.floor() as i32,
            i32::from(x as u8),
            i32::from(x.round_ties_even() as u8),
            i32::from(x as i8),
            x as u32 as i32,
            m.clamp(-32768, 32767),
            m.clamp(0, 255),
            m.max(0) as u32 as i32,
            if in_range {
                x.floor() as i32 + 3 * x.round_ties_even() as i32
            } else {
                0
            },
        ];
        assert_eq!(got[12 * i..12 * i + 12], want, "x = {x:e}, n = {m}");
        let lanes = [x, x * 2.0, -x, x + 0.5].map(|v| v.round_ties_even() as u8);
        assert_eq!(got_pixels[i], lanes, "pixels for {x:e}");
    }
}

#[test]
fn char_and_short_kernel_arguments() {
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/narrow_args.cl");
    let kernel = Kernel::create(&program, "narrow_args").expect("kernel");
    const M: usize = 64;
    let out = new_buffer::<i32>(&context, CL_MEM_WRITE_ONLY, M);
    let (a, b, c, scale, d) = (200u8, -3i8, -1234i16, 0.5f32, 65000u16);
    // SAFETY: argument types match the kernel's signature.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&out)
            .set_arg(&a)
            .set_arg(&b)
            .set_arg(&c)
            .set_arg(&scale)
            .set_arg(&d)
            .set_global_work_size(M)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let mut got = vec![0i32; M];
    read_buffer(&queue, &out, &mut got);
    let base = ((a as i32 + b as i32 * c as i32 + d as i32) as f32 * scale) as i32;
    for (i, &v) in got.iter().enumerate() {
        assert_eq!(v, base + i as i32, "out[{i}]");
    }
}

/// IEEE half bits of `x`, for values a half represents exactly (normal
/// numbers and zero): all the test needs.
fn half_bits(x: f32) -> u16 {
    if x == 0.0 {
        return 0;
    }
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exponent = ((b >> 23) & 0xff) as i32 - 127 + 15;
    assert!((1..31).contains(&exponent), "{x} is not a normal half");
    assert_eq!(b & 0x1fff, 0, "{x} is not exact in half");
    sign | ((exponent as u16) << 10) | ((b >> 13) & 0x3ff) as u16
}

#[test]
fn vload_half_and_vstore_half_without_fp16() {
    let (context, queue) = setup();
    let program = build(&context, "tests/kernels/halfs.cl");
    let kernel = Kernel::create(&program, "halfs").expect("kernel");
    const M: usize = 256;
    let values: Vec<f32> = (0..M).map(|i| (i as f32 - 100.0) * 0.25).collect();
    let bits: Vec<u16> = values.iter().map(|&v| half_bits(v)).collect();
    let mut din = new_buffer::<u16>(&context, CL_MEM_READ_ONLY, M);
    let dout = new_buffer::<u16>(&context, CL_MEM_WRITE_ONLY, M);
    let dwide = new_buffer::<f32>(&context, CL_MEM_WRITE_ONLY, M);
    write_buffer(&queue, &mut din, &bits);
    // SAFETY: argument types match the kernel's signature.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&din)
            .set_arg(&dout)
            .set_arg(&dwide)
            .set_global_work_size(M)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let mut out = vec![0u16; M];
    let mut wide = vec![0f32; M];
    read_buffer(&queue, &dout, &mut out);
    read_buffer(&queue, &dwide, &mut wide);
    assert_eq!(wide, values);
    let expected: Vec<u16> = values.iter().map(|&v| half_bits(v * 3.0)).collect();
    assert_eq!(out, expected);
}
