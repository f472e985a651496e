//! Out-of-order queues: independent commands may run together, and event
//! wait lists and barriers order the ones that depend on each other. Two
//! chains of kernels ping-pong between buffers, each step waiting only on
//! its predecessor's event, with a barrier-ordered step joining them; the
//! results match a host replay only if every dependency held.

mod common;

use opencl3::command_queue::{CommandQueue, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE};
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::event::Event;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{cl_event, CL_BLOCKING, CL_NON_BLOCKING};
use std::ptr;

const N: usize = 1 << 16;
const STEPS: u32 = 12;

/// What `step` computes for one element.
fn step(v: u32, add: u32) -> u32 {
    let mut v = v;
    for _ in 0..64 {
        v = v.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
    }
    v.wrapping_add(add)
}

#[test]
fn event_graphs_and_barriers_order_an_out_of_order_queue() {
    for (k, v) in common::opencl_env() {
        // SAFETY: set before the loader or any other thread reads them.
        unsafe { std::env::set_var(k, v) };
    }
    let platform = get_platforms().expect("platforms").remove(0);
    let ids = platform.get_devices(CL_DEVICE_TYPE_ALL).expect("devices");
    let context = Context::from_device(&Device::new(ids[0])).expect("context");
    let queue = CommandQueue::create_default_with_properties(
        &context,
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
        0,
    )
    .expect("out-of-order queue");
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/out_of_order.cl"))
        .expect("kernel source");
    let program = Program::create_and_build_from_source(&context, &source, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let kernel = Kernel::create(&program, "step").expect("kernel");
    let initial: Vec<u32> = (0..N as u32).collect();
    // SAFETY: null host pointers with no USE/COPY_HOST_PTR flag.
    let mut buffers: Vec<Buffer<u32>> = (0..4)
        .map(|_| unsafe {
            Buffer::<u32>::create(&context, CL_MEM_READ_WRITE, N, ptr::null_mut()).expect("buffer")
        })
        .collect();
    let written: Vec<Event> = buffers
        .iter_mut()
        .map(|b| {
            // SAFETY: `initial` outlives the commands: the queue is
            // finished before it is dropped.
            unsafe { queue.enqueue_write_buffer(b, CL_NON_BLOCKING, 0, &initial, &[]) }
                .expect("write")
        })
        .collect();
    let launch = |from: &Buffer<u32>, to: &Buffer<u32>, add: u32, waits: &[cl_event]| -> Event {
        // SAFETY: two buffers of N uints and a uint, as the kernel declares.
        unsafe {
            ExecuteKernel::new(&kernel)
                .set_arg(from)
                .set_arg(to)
                .set_arg(&add)
                .set_global_work_size(N)
                .set_event_wait_list(waits)
                .enqueue_nd_range(&queue)
        }
        .expect("launch")
    };
    // Chain A ping-pongs 0 -> 1 -> 0 ..., chain B 2 -> 3 -> 2 ...,
    // interleaved in enqueue order, each step waiting on its predecessor.
    let mut last_a = launch(
        &buffers[0],
        &buffers[1],
        1,
        &[written[0].get(), written[1].get()],
    );
    let mut last_b = launch(
        &buffers[2],
        &buffers[3],
        100,
        &[written[2].get(), written[3].get()],
    );
    for s in 1..STEPS {
        let (from, to) = if s.is_multiple_of(2) { (0, 1) } else { (1, 0) };
        last_a = launch(&buffers[from], &buffers[to], 1 + s, &[last_a.get()]);
        let (from, to) = if s.is_multiple_of(2) { (2, 3) } else { (3, 2) };
        last_b = launch(&buffers[from], &buffers[to], 100 + s, &[last_b.get()]);
    }
    // A barrier, then a step with no wait list that reads both chains'
    // results: only the barrier orders it after them.
    // SAFETY: an empty wait list.
    unsafe { queue.enqueue_barrier_with_wait_list(&[]) }.expect("barrier");
    let a_result = if STEPS.is_multiple_of(2) { 0 } else { 1 };
    let b_result = if STEPS.is_multiple_of(2) { 2 } else { 3 };
    let a_done = if a_result == 0 { 1 } else { 0 };
    launch(&buffers[a_result], &buffers[a_done], 7, &[]);
    let _ = launch(&buffers[b_result], &buffers[b_result ^ 1], 9, &[]);
    queue.finish().expect("finish");

    let mut chain_a = initial.clone();
    let mut chain_b = initial.clone();
    for s in 0..STEPS {
        chain_a.iter_mut().for_each(|v| *v = step(*v, 1 + s));
        chain_b.iter_mut().for_each(|v| *v = step(*v, 100 + s));
    }
    let joined_a: Vec<u32> = chain_a.iter().map(|&v| step(v, 7)).collect();
    let joined_b: Vec<u32> = chain_b.iter().map(|&v| step(v, 9)).collect();
    let mut got = vec![0u32; N];
    for (index, expected) in [(a_done, &joined_a), (b_result ^ 1, &joined_b)] {
        // SAFETY: a vector of the buffer's length.
        unsafe { queue.enqueue_read_buffer(&buffers[index], CL_BLOCKING, 0, &mut got, &[]) }
            .expect("read");
        assert!(
            got == *expected,
            "buffer {index} differs from the host replay"
        );
    }
}
