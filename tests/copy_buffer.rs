//! clEnqueueCopyBuffer through the loader, with copies forced onto the
//! built-in copy kernels (`shaders/copy.cl`, the path discrete GPUs take):
//! 16-byte and 4-byte aligned ranges run as dispatches, other ranges fall
//! back to the transfer command, and a copy within one buffer leaves its
//! neighbours alone. Its own process, because the choice is read from the
//! environment.

mod common;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::memory::{Buffer, ClMem, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::types::CL_BLOCKING;
use std::ptr;

#[test]
fn copies_by_kernel_and_by_transfer_agree_with_the_host() {
    for (k, v) in common::opencl_env()
        .into_iter()
        .chain([("CLVULKAN_COPY", "compute".into())])
    {
        // SAFETY: set before the loader or any other thread reads them.
        unsafe { std::env::set_var(k, v) };
    }
    let platform = get_platforms().expect("platforms").remove(0);
    let ids = platform.get_devices(CL_DEVICE_TYPE_ALL).expect("devices");
    let context = Context::from_device(&Device::new(ids[0])).expect("context");
    #[allow(deprecated)]
    let queue = CommandQueue::create_default(&context, 0).expect("queue");
    const N: usize = 1 << 20;
    let source: Vec<u8> = (0..N).map(|i| (i * 31 + i / 256) as u8).collect();
    // SAFETY: null host pointers with no USE/COPY_HOST_PTR flag.
    let (mut src, mut dst) = unsafe {
        (
            Buffer::<u8>::create(&context, CL_MEM_READ_WRITE, N, ptr::null_mut()).expect("src"),
            Buffer::<u8>::create(&context, CL_MEM_READ_WRITE, N, ptr::null_mut()).expect("dst"),
        )
    };
    let mut expected = vec![0xa5u8; N];
    // SAFETY: blocking writes of host vectors that outlive them.
    unsafe {
        queue
            .enqueue_write_buffer(&mut src, CL_BLOCKING, 0, &source, &[])
            .expect("write");
        queue
            .enqueue_write_buffer(&mut dst, CL_BLOCKING, 0, &expected, &[])
            .expect("write");
    }
    // (src offset, dst offset, size): uint4-aligned, uint-aligned, bytes,
    // the whole buffer minus a word, and one word.
    let copies = [
        (0, 16, 4096 * 16),
        (4, 200_004, 333 * 4),
        (3, 300_001, 1001),
        (4, 0, N - 4),
        (N - 4, N - 8, 4),
    ];
    for &(s, d, n) in &copies {
        // SAFETY: the ranges lie inside both buffers.
        unsafe { queue.enqueue_copy_buffer(&src, &mut dst, s, d, n, &[]) }.expect("copy");
        expected[d..d + n].copy_from_slice(&source[s..s + n]);
    }
    // Within one buffer, non-overlapping.
    // opencl3's typed call cannot name one buffer twice; the C call can.
    // SAFETY: live handles; both ranges lie inside `src` and do not overlap.
    let event = unsafe {
        opencl3::command_queue::enqueue_copy_buffer(
            queue.get(),
            src.get(),
            src.get(),
            0,
            N / 2,
            64 * 1024,
            0,
            ptr::null(),
        )
    }
    .expect("copy within one buffer");
    // SAFETY: the event returned by the enqueue, released once.
    unsafe { opencl3::event::release_event(event) }.expect("release");
    let mut source_after = source.clone();
    source_after.copy_within(0..64 * 1024, N / 2);
    let (mut got, mut got_src) = (vec![0u8; N], vec![0u8; N]);
    // SAFETY: blocking reads into vectors of the buffers' size.
    unsafe {
        queue
            .enqueue_read_buffer(&dst, CL_BLOCKING, 0, &mut got, &[])
            .expect("read");
        queue
            .enqueue_read_buffer(&src, CL_BLOCKING, 0, &mut got_src, &[])
            .expect("read");
    }
    let first_difference = |a: &[u8], b: &[u8]| a.iter().zip(b).position(|(x, y)| x != y);
    assert_eq!(first_difference(&got, &expected), None, "dst");
    assert_eq!(first_difference(&got_src, &source_after), None, "src");
}
