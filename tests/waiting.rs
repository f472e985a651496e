//! Waiting for the device leaves the cores to it: `clFinish` on a command
//! that runs for a second or more polls the timeline more and more rarely
//! and then blocks, so the waiting thread uses a small share of the time
//! it waits. (It yielded in a loop for 200 ms per second of waiting, and
//! took 60-99% of a core from lavapipe while it compiled or ran.)

mod common;

use std::time::{Duration, Instant};

use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::program::Program;

/// `rounds` rounds of 16 steps per work-item. lavapipe stops a work-item
/// after 65,535 loop iterations in all (llvmpipe's loop limiter), so there
/// a launch is made longer with more work-items; a GPU that runs the most
/// work-items tried too fast gets more rounds.
const SOURCE: &str = r#"
#define STEP x = x * 1664525u + 1013904223u;
__kernel void spin(__global uint *out, uint rounds) {
    uint x = (uint)get_global_id(0);
    for (uint i = 0; i < rounds; i++) {
        STEP STEP STEP STEP STEP STEP STEP STEP
        STEP STEP STEP STEP STEP STEP STEP STEP
    }
    out[get_global_id(0)] = x;
}
"#;

/// The most work-items tried.
const MAX_ITEMS: usize = 1 << 22;

/// Rounds per work-item, under lavapipe's loop limit.
const ROUNDS: u32 = 50_000;

/// The calling thread's CPU time, user and system (Linux).
fn thread_cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").expect("/proc/thread-self/stat");
    // Fields after the command name, which may hold spaces: utime and
    // stime are the 14th and 15th fields, in USER_HZ (100 on Linux).
    let after_name = &stat[stat.rfind(')').expect("stat format") + 2..];
    let fields: Vec<u64> = after_name
        .split_whitespace()
        .skip(11)
        .take(2)
        .map(|field| field.parse().expect("a number of ticks"))
        .collect();
    Duration::from_millis((fields[0] + fields[1]) * 10)
}

#[test]
fn finish_sleeps_while_the_device_works() {
    let (context, queue) = common::context_and_queue();
    let program = Program::create_and_build_from_source(&context, SOURCE, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let kernel = Kernel::create(&program, "spin").expect("kernel");
    // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
    let out = unsafe {
        Buffer::<u32>::create(&context, CL_MEM_READ_WRITE, MAX_ITEMS, std::ptr::null_mut())
            .expect("buffer")
    };
    let run = |items: usize, rounds: u32| -> (Duration, Duration) {
        // SAFETY: the kernel takes the buffer, which has room for `items`.
        unsafe {
            ExecuteKernel::new(&kernel)
                .set_arg(&out)
                .set_arg(&rounds)
                .set_global_work_size(items)
                .enqueue_nd_range(&queue)
        }
        .expect("launch");
        let (wall, cpu) = (Instant::now(), thread_cpu_time());
        queue.finish().expect("finish");
        (wall.elapsed(), thread_cpu_time() - cpu)
    };
    // The first launch compiles the pipeline (in the enqueue call); then
    // the launches grow until one takes about `target`: more work-items,
    // then, past the most tried, more rounds.
    let size_for = |target: Duration| {
        let (mut items, mut rounds) = (64, ROUNDS);
        loop {
            let (wall, _) = run(items, rounds);
            if wall >= target || rounds >= ROUNDS << 12 {
                return (items, rounds);
            }
            let factor = (target.as_secs_f64() / wall.as_secs_f64().max(0.001)).clamp(1.5, 64.0);
            if items < MAX_ITEMS {
                items = ((items as f64 * factor) as usize).min(MAX_ITEMS);
            } else {
                rounds = (f64::from(rounds) * factor) as u32;
            }
        }
    };
    run(64, ROUNDS);
    // Waits shorter than the old 200 ms of yielding, a second's worth in a
    // row, and one long wait.
    let (items, rounds) = size_for(Duration::from_millis(120));
    let (mut wall, mut cpu) = (Duration::ZERO, Duration::ZERO);
    for _ in 0..1000 {
        let (w, c) = run(items, rounds);
        (wall, cpu) = (wall + w, cpu + c);
        if wall >= Duration::from_secs(1) {
            break;
        }
    }
    let (items, rounds) = size_for(Duration::from_millis(1200));
    let (long_wall, long_cpu) = run(items, rounds);
    for (wall, cpu, what) in [
        (wall, cpu, "short waits"),
        (long_wall, long_cpu, "a long wait"),
    ] {
        assert!(wall >= Duration::from_millis(900), "{what} took {wall:?}");
        assert!(
            cpu.as_secs_f64() < 0.1 * wall.as_secs_f64(),
            "clFinish used {cpu:?} of CPU in {what} of {wall:?}"
        );
    }
}
