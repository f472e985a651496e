//! Resource hygiene and thread safety through the loader: 100,000 kernel
//! enqueues in a loop exhaust no Vulkan pool and do not grow the process's
//! memory, and eight threads sharing one queue enqueue writes, kernels and
//! reads at once with every result right. The same holds for launches
//! that need a launch-block buffer (by-value arguments beyond push
//! constants) and a `printf` buffer, and for non-blocking reads and writes,
//! whose buffers come from a recycling pool.

mod common;

use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::program::Program;
use opencl3::types::{CL_BLOCKING, CL_NON_BLOCKING};
use std::ptr;
use std::sync::{Mutex, PoisonError};

/// A by-value struct of 512 bytes is beyond every device's push constants
/// (Vulkan devices offer 128 to 256 bytes), so each launch fills a launch
/// block; the `printf` is never reached but makes each launch bind a
/// `printf` buffer.
const BLOCK_SOURCE: &str = r#"
typedef struct { int v[128]; } Block;
__kernel void add_block(__global int *data, Block b, int never) {
    size_t i = get_global_id(0);
    data[i] += b.v[i];
    if (never == 12345) printf("never %d\n", data[i]);
}
"#;

/// The host side of `Block`.
#[repr(C)]
#[derive(Clone, Copy)]
struct Block {
    v: [i32; 128],
}

const SOURCE: &str = r#"
__kernel void add(__global int *data, int value) {
    data[get_global_id(0)] += value;
}
"#;

/// The tests measure the process's memory, so they run one at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Resident set size in bytes (Linux).
fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .expect("resident pages");
    pages * 4096
}

/// How much resident memory `run(n)` keeps growing by: `run` soaks twice,
/// `n` iterations each, and the smaller growth is returned. A leak grows
/// both halves alike; a driver taking one more block of host memory once
/// (NVIDIA's 580 driver on the H200 did, 64 MiB in one run of three)
/// grows only one.
fn steady_growth(iterations: usize, mut run: impl FnMut(usize)) -> u64 {
    let half = iterations / 2;
    let start = resident_bytes();
    run(half);
    let middle = resident_bytes();
    run(iterations - half);
    let end = resident_bytes();
    middle.saturating_sub(start).min(end.saturating_sub(middle))
}

/// The most memory one half of a soak may keep: 8 MiB over 50,000
/// iterations is about 170 bytes each, a leak far smaller than any
/// per-command object.
const HALF_SOAK_GROWTH: u64 = 8 << 20;

#[test]
fn enqueues_in_a_loop_keep_memory_flat_and_threads_share_a_queue() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
    let (context, queue) = common::context_and_queue();
    let program = Program::create_and_build_from_source(&context, SOURCE, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));

    // Soak: 100,000 launches, memory measured after a warm-up.
    let kernel = Kernel::create(&program, "add").expect("kernel");
    // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
    let mut data = unsafe {
        Buffer::<i32>::create(&context, CL_MEM_READ_WRITE, 64, ptr::null_mut()).expect("buffer")
    };
    // SAFETY: a blocking write of a vector of the buffer's size.
    unsafe { queue.enqueue_write_buffer(&mut data, CL_BLOCKING, 0, &[0i32; 64], &[]) }
        .expect("write");
    let launch = |value: i32| {
        // SAFETY: the kernel takes the buffer and an int.
        unsafe {
            ExecuteKernel::new(&kernel)
                .set_arg(&data)
                .set_arg(&value)
                .set_global_work_size(64)
                .enqueue_nd_range(&queue)
        }
        .expect("launch");
    };
    const WARM_UP: i32 = 10_000;
    const SOAK: i32 = 100_000;
    for _ in 0..WARM_UP {
        launch(1);
    }
    queue.finish().expect("finish");
    let growth = steady_growth(SOAK as usize, |count| {
        for i in 0..count {
            launch(1);
            if i % 5000 == 0 {
                queue.flush().expect("flush");
            }
        }
        queue.finish().expect("finish");
    });
    let mut got = [0i32; 64];
    // SAFETY: a blocking read into an array of the buffer's size.
    unsafe { queue.enqueue_read_buffer(&data, CL_BLOCKING, 0, &mut got, &[]) }.expect("read");
    assert!(
        got.iter().all(|&v| v == WARM_UP + SOAK),
        "sums: {:?}",
        &got[..4]
    );
    assert!(
        growth < HALF_SOAK_GROWTH,
        "resident memory grew by {} KiB in each half of {SOAK} enqueues",
        growth >> 10
    );

    // Eight threads, one queue: each its own buffer and kernel object (a
    // kernel's arguments are per object), every command through the
    // shared queue.
    std::thread::scope(|scope| {
        for t in 0..8i32 {
            let (context, queue, program) = (&context, &queue, &program);
            scope.spawn(move || {
                let kernel = Kernel::create(program, "add").expect("kernel");
                // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
                let mut data = unsafe {
                    Buffer::<i32>::create(context, CL_MEM_READ_WRITE, 256, ptr::null_mut())
                        .expect("buffer")
                };
                let start: Vec<i32> = (0..256).map(|i| i * 8 + t).collect();
                for round in 0..200 {
                    // SAFETY: `start` outlives the write, which the blocking
                    // read after the kernel waits for (one in-order queue).
                    unsafe {
                        queue
                            .enqueue_write_buffer(&mut data, CL_NON_BLOCKING, 0, &start, &[])
                            .expect("write");
                        ExecuteKernel::new(&kernel)
                            .set_arg(&data)
                            .set_arg(&round)
                            .set_global_work_size(256)
                            .enqueue_nd_range(queue)
                            .expect("launch");
                    }
                    let mut got = vec![0i32; 256];
                    // SAFETY: a blocking read into a vector of the buffer's size.
                    unsafe { queue.enqueue_read_buffer(&data, CL_BLOCKING, 0, &mut got, &[]) }
                        .expect("read");
                    for (i, &v) in got.iter().enumerate() {
                        assert_eq!(v, start[i] + round, "thread {t}, round {round}, item {i}");
                    }
                }
            });
        }
    });
}

#[test]
fn launch_blocks_printf_buffers_and_staging_are_recycled() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
    let (context, queue) = common::context_and_queue();
    let program = Program::create_and_build_from_source(&context, BLOCK_SOURCE, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let kernel = Kernel::create(&program, "add_block").expect("kernel");
    // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
    let mut data = unsafe {
        Buffer::<i32>::create(&context, CL_MEM_READ_WRITE, 128, ptr::null_mut()).expect("buffer")
    };
    // SAFETY: a blocking write of a vector of the buffer's size.
    unsafe { queue.enqueue_write_buffer(&mut data, CL_BLOCKING, 0, &[0i32; 128], &[]) }
        .expect("write");
    let mut block = Block { v: [0; 128] };
    for (i, v) in block.v.iter_mut().enumerate() {
        *v = (i % 5) as i32 + 1;
    }
    let launch = || {
        // SAFETY: the kernel takes the buffer, a 512-byte struct and an int.
        unsafe {
            ExecuteKernel::new(&kernel)
                .set_arg(&data)
                .set_arg(&block)
                .set_arg(&0i32)
                .set_global_work_size(128)
                .enqueue_nd_range(&queue)
        }
        .expect("launch");
    };
    // The warm-up lets the pools and the driver's memory reach their
    // steady state: on the H100, 100,000 launches after 10,000 warm-up
    // ones grew resident memory once by 254 MiB (one more block of
    // host-visible memory, we believe); after 50,000 it stays flat.
    const WARM_UP: i32 = 50_000;
    const SOAK: i32 = 100_000;
    for i in 0..WARM_UP {
        launch();
        if i % 5000 == 0 {
            queue.flush().expect("flush");
        }
    }
    queue.finish().expect("finish");
    let growth = steady_growth(SOAK as usize, |count| {
        for i in 0..count {
            launch();
            if i % 5000 == 0 {
                queue.flush().expect("flush");
            }
        }
        queue.finish().expect("finish");
    });
    let mut got = [0i32; 128];
    // SAFETY: a blocking read into an array of the buffer's size.
    unsafe { queue.enqueue_read_buffer(&data, CL_BLOCKING, 0, &mut got, &[]) }.expect("read");
    for (i, &v) in got.iter().enumerate() {
        assert_eq!(v, block.v[i] * (WARM_UP + SOAK), "item {i}");
    }
    assert!(
        growth < HALF_SOAK_GROWTH,
        "resident memory grew by {} KiB in each half of {SOAK} launches with launch blocks and printf",
        growth >> 10
    );

    // Non-blocking writes and reads of 64 KiB, each through staging.
    const WORDS: usize = 16 << 10;
    // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
    let mut staged = unsafe {
        Buffer::<u32>::create(&context, CL_MEM_READ_WRITE, WORDS, ptr::null_mut()).expect("buffer")
    };
    let source: Vec<u32> = (0..WORDS as u32)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    let mut back = vec![0u32; WORDS];
    let mut round_trips = |count: usize| {
        for i in 0..count {
            // SAFETY: `source` and `back` outlive the commands, which the
            // finish below waits for; the reads all write the same bytes.
            unsafe {
                queue
                    .enqueue_write_buffer(&mut staged, CL_NON_BLOCKING, 0, &source, &[])
                    .expect("write");
                queue
                    .enqueue_read_buffer(&staged, CL_NON_BLOCKING, 0, &mut back, &[])
                    .expect("read");
            }
            if i % 500 == 0 {
                queue.finish().expect("finish");
            }
        }
        queue.finish().expect("finish");
    };
    round_trips(2_000);
    let growth = steady_growth(20_000, &mut round_trips);
    assert!(back == source, "the staged round trips lost data");
    assert!(
        growth < HALF_SOAK_GROWTH,
        "resident memory grew by {} KiB in each half of 20,000 non-blocking round trips",
        growth >> 10
    );
}
