//! Where the time of a first result and of a round trip goes, step by step,
//! on one platform (`cargo run --release -p clvulkan-compare --example steps
//! -- <platform-substring>`): each OpenCL call of a fresh process's first
//! launch timed on its own, then the enqueue and the clFinish of round
//! trips split apart, in the fresh process and again after large
//! transfers and many launches. A diagnostic for docs/performance.md, not a benchmark.

use clvulkan_compare::side::{uncached, Side};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::program::Program;
use std::time::Instant;

const FIRST: &str = include_str!("../kernels/first_result.cl");
const COUNTER: &str = include_str!("../kernels/counter.cl");
const COPY: &str = include_str!("../kernels/copy.cl");

fn main() {
    let name = std::env::args().nth(1).unwrap_or_else(|| "clvulkan".into());
    let t = Instant::now();
    let side = Side::open(&name).expect("platform");
    let ms = |t: Instant| t.elapsed().as_secs_f64() * 1e3;
    println!("open platform, context, queue: {:.2} ms", ms(t));
    let x = side.buffer_from(&vec![1.0f32; 4096]).expect("buffer");
    let y = side.buffer_from(&vec![0.0f32; 4096]).expect("buffer");
    side.finish().expect("finish");

    let t = Instant::now();
    // CLCOMPARE_WARM: the fixed source clcompare's warm row builds, so that
    // a second process finds it in the on-disk caches.
    let source = if std::env::var_os("CLCOMPARE_WARM").is_some() {
        format!("#define CLCOMPARE_NONCE 0x80000001u\n{FIRST}")
    } else {
        uncached(FIRST)
    };
    let mut program = Program::create_from_source(&side.context, &source).expect("program");
    println!("clCreateProgramWithSource: {:.3} ms", ms(t));
    let t = Instant::now();
    program.build(&[side.device.id()], "").expect("build");
    println!("clBuildProgram: {:.3} ms", ms(t));
    let t = Instant::now();
    let kernel = Kernel::create(&program, "scale_add").expect("kernel");
    println!("clCreateKernel: {:.3} ms", ms(t));
    let t = Instant::now();
    // SAFETY: the arguments match scale_add's signature; 4096 items.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&x)
            .set_arg(&y)
            .set_arg(&1.5f32)
            .set_global_work_size(4096)
            .enqueue_nd_range(&side.queue)
    }
    .expect("enqueue");
    println!("first clEnqueueNDRangeKernel: {:.3} ms", ms(t));
    let t = Instant::now();
    side.finish().expect("finish");
    println!("first clFinish: {:.3} ms", ms(t));

    let mut counter_program = Program::create_from_source(&side.context, COUNTER).expect("program");
    counter_program
        .build(&[side.device.id()], "")
        .expect("build");
    let bump = Kernel::create(&counter_program, "bump").expect("kernel");
    let counter = side.buffer_from(&[0u32]).expect("buffer");
    round_trips(&side, &bump, &counter, "fresh process");

    // The same after the kind of work a real application has done first:
    // large transfers both ways, a large copy kernel, many launches.
    let big = (64usize << 20).min(side.buffer_limit() as usize / 8);
    let host = vec![1.0f32; big];
    let mut a = side.buffer::<f32>(big).expect("buffer");
    let b = side.buffer::<f32>(big).expect("buffer");
    side.write(&mut a, &host).expect("write");
    let mut copy_program = Program::create_from_source(&side.context, COPY).expect("program");
    copy_program.build(&[side.device.id()], "").expect("build");
    let copy = Kernel::create(&copy_program, "copy4").expect("kernel");
    for _ in 0..10 {
        // SAFETY: copy takes two float4 buffers; big / 4 float4s (copy4).
        unsafe {
            ExecuteKernel::new(&copy)
                .set_arg(&a)
                .set_arg(&b)
                .set_global_work_size(big / 4)
                .enqueue_nd_range(&side.queue)
        }
        .expect("enqueue");
    }
    for _ in 0..10_000 {
        // SAFETY: bump takes one uint buffer.
        unsafe {
            ExecuteKernel::new(&bump)
                .set_arg(&counter)
                .set_global_work_size(1)
                .enqueue_nd_range(&side.queue)
        }
        .expect("enqueue");
    }
    side.finish().expect("finish");
    let mut back = vec![0.0f32; big];
    side.read(&b, &mut back).expect("read");
    assert!(back.iter().all(|&v| v == 1.0), "the copy kernel's result");
    round_trips(
        &side,
        &bump,
        &counter,
        "after large transfers and 10,010 launches",
    );
}

/// Times 2,000 round trips of `bump`, the enqueue and the `clFinish` apart,
/// and prints their medians and spread.
fn round_trips(side: &Side, bump: &Kernel, counter: &opencl3::memory::Buffer<u32>, when: &str) {
    let (mut enqueue, mut finish, mut total) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..2000 {
        let t = Instant::now();
        // SAFETY: bump takes one uint buffer.
        unsafe {
            ExecuteKernel::new(bump)
                .set_arg(counter)
                .set_global_work_size(1)
                .enqueue_nd_range(&side.queue)
        }
        .expect("enqueue");
        let t2 = Instant::now();
        side.finish().expect("finish");
        enqueue.push((t2 - t).as_secs_f64() * 1e6);
        finish.push(t2.elapsed().as_secs_f64() * 1e6);
        total.push(t.elapsed().as_secs_f64() * 1e6);
    }
    let at = |v: &mut Vec<f64>, q: f64| {
        v.sort_by(f64::total_cmp);
        v[((v.len() - 1) as f64 * q) as usize]
    };
    println!(
        "round trip ({when}), 2000: enqueue {:.1} us + clFinish {:.1} us (medians); \
         whole p10 {:.1} / median {:.1} / p90 {:.1} / p99 {:.1} us",
        at(&mut enqueue, 0.5),
        at(&mut finish, 0.5),
        at(&mut total, 0.1),
        at(&mut total, 0.5),
        at(&mut total, 0.9),
        at(&mut total, 0.99),
    );
}
