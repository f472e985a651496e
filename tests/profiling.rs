//! Profiling through the loader: the five timestamps of kernels, copies
//! and writes come in order (QUEUED <= SUBMIT <= START <= END <= COMPLETE),
//! START and END are device times (two kernels submitted together run one
//! after the other, which host times could not show), a longer kernel has
//! a longer START..END than an empty one, and the timer resolution is the
//! device's timestamp period.

mod common;

use opencl3::command_queue::{CommandQueue, CL_QUEUE_PROFILING_ENABLE};
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::event::Event;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{cl_uint, cl_ulong, CL_NON_BLOCKING};
use std::ptr;

const N: usize = 4096;

fn setup() -> (Context, CommandQueue, Device) {
    for (k, v) in common::opencl_env() {
        // SAFETY: tests in this binary only ever set these same values.
        unsafe { std::env::set_var(k, v) };
    }
    let platform = get_platforms().expect("platforms").remove(0);
    let ids = platform.get_devices(CL_DEVICE_TYPE_ALL).expect("devices");
    let device = Device::new(ids[0]);
    let context = Context::from_device(&device).expect("context");
    #[allow(deprecated)]
    let queue = CommandQueue::create_default(&context, CL_QUEUE_PROFILING_ENABLE).expect("queue");
    (context, queue, device)
}

fn program(context: &Context) -> Program {
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/profiling.cl"))
        .expect("kernel source");
    Program::create_and_build_from_source(context, &source, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"))
}

/// QUEUED, SUBMIT, START, END, COMPLETE of a finished event.
fn times(event: &Event) -> [cl_ulong; 5] {
    [
        event.profiling_command_queued().expect("queued"),
        event.profiling_command_submit().expect("submit"),
        event.profiling_command_start().expect("start"),
        event.profiling_command_end().expect("end"),
        event.profiling_command_complete().expect("complete"),
    ]
}

fn assert_ordered(what: &str, event: &Event) -> [cl_ulong; 5] {
    let t = times(event);
    assert!(
        t.windows(2).all(|w| w[0] <= w[1]),
        "{what}: {t:?} out of order"
    );
    assert!(t[0] > 0, "{what}: {t:?}");
    t
}

fn spin(
    kernel: &Kernel,
    queue: &CommandQueue,
    out: &Buffer<cl_uint>,
    iterations: cl_uint,
) -> Event {
    // SAFETY: argument types match the kernel's signature.
    unsafe {
        ExecuteKernel::new(kernel)
            .set_arg(out)
            .set_arg(&iterations)
            .set_global_work_size(N)
            .enqueue_nd_range(queue)
    }
    .expect("enqueue")
}

#[test]
fn timestamps_are_ordered_for_kernels_copies_and_writes() {
    let (context, queue, _device) = setup();
    let program = program(&context);
    let empty = Kernel::create(&program, "empty").expect("kernel");
    let spinning = Kernel::create(&program, "spin").expect("kernel");
    // SAFETY: null host pointers with no USE/COPY_HOST_PTR flag.
    let (mut a, mut b) = unsafe {
        (
            Buffer::<cl_uint>::create(&context, CL_MEM_READ_WRITE, N, ptr::null_mut()).expect("a"),
            Buffer::<cl_uint>::create(&context, CL_MEM_READ_WRITE, N, ptr::null_mut()).expect("b"),
        )
    };
    // Each kernel once before the measured ones: a first dispatch may pay
    // for the driver's start-up (lavapipe's on a loaded 2-core machine
    // made an empty kernel's first run take 18 ms, longer than a spin).
    // SAFETY: argument types match the kernel's signature.
    unsafe {
        ExecuteKernel::new(&empty)
            .set_arg(&a)
            .set_global_work_size(N)
            .enqueue_nd_range(&queue)
    }
    .expect("warm-up");
    spin(&spinning, &queue, &b, 1);
    queue.finish().expect("finish");
    let host = vec![7u32; N];
    // SAFETY: `host` outlives the write (finish below).
    let write = unsafe { queue.enqueue_write_buffer(&mut a, CL_NON_BLOCKING, 0, &host, &[]) }
        .expect("write");
    // SAFETY: argument types match the kernel's signature.
    let empty_event = unsafe {
        ExecuteKernel::new(&empty)
            .set_arg(&a)
            .set_global_work_size(N)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    // Two long kernels in one submission, then a copy.
    let first = spin(&spinning, &queue, &a, 100_000);
    let second = spin(&spinning, &queue, &b, 100_000);
    // SAFETY: both ranges lie inside the buffers.
    let copy = unsafe { queue.enqueue_copy_buffer(&a, &mut b, 0, 0, N * 4, &[]) }.expect("copy");
    queue.finish().expect("finish");

    assert_ordered("write", &write);
    let e = assert_ordered("empty kernel", &empty_event);
    let f = assert_ordered("first spin", &first);
    let s = assert_ordered("second spin", &second);
    let c = assert_ordered("copy", &copy);
    // Device times: in order on the device, one after the other, within
    // one submission (host times would give both the same START, a whole
    // spin before the first one's END). The events may be converted with
    // different clock samples, which can disagree by microseconds.
    let slack = (f[3] - f[2]) / 10;
    assert!(
        s[2] + slack >= f[3],
        "second starts {} before first ends {}",
        s[2],
        f[3]
    );
    assert!(
        c[2] + slack >= s[3],
        "copy starts {} before second spin ends {}",
        c[2],
        s[3]
    );
    // Each event reports the same times on every query.
    assert_eq!(times(&first), f);
    // A kernel that loops runs longer than one that does nothing.
    let (empty_ns, spin_ns) = (e[3] - e[2], f[3] - f[2]);
    assert!(
        spin_ns > empty_ns,
        "spin took {spin_ns} ns, the empty kernel {empty_ns} ns"
    );
    assert!(spin_ns > 0);
}

#[test]
fn longer_kernels_take_longer() {
    let (context, queue, _device) = setup();
    let program = program(&context);
    let spinning = Kernel::create(&program, "spin").expect("kernel");
    // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
    let out = unsafe { Buffer::<cl_uint>::create(&context, CL_MEM_READ_WRITE, N, ptr::null_mut()) }
        .expect("out");
    let duration = |iterations| {
        let event = spin(&spinning, &queue, &out, iterations);
        event.wait().expect("wait");
        let t = assert_ordered("spin", &event);
        t[3] - t[2]
    };
    // Warm the pipeline first.
    duration(1);
    let short = duration(1_000);
    // Under the 65,535 iterations a lavapipe that cuts loops allows (see
    // README, "Lavapipe's loop cap"), where the launch would fail.
    let long = duration(60_000);
    assert!(
        long > short,
        "60000 iterations took {long} ns, 1000 took {short} ns"
    );
}

#[test]
fn timer_resolution_is_the_timestamp_period() {
    let (_context, _queue, device) = setup();
    let resolution = device.profiling_timer_resolution().expect("resolution");
    // lavapipe's timestampPeriod is 1 ns; any device reports at least 1.
    assert!(resolution >= 1, "{resolution}");
    assert!(resolution < 1_000_000, "{resolution}");
}
