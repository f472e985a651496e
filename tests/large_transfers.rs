//! Blocking reads and writes large enough to stream through staging in
//! parts (`layer/src/core/transfer.rs`): every byte arrives, at unaligned
//! offsets and sizes that are not a whole number of parts, and the parts
//! stay in queue order with the commands around them.

mod common;

use opencl3::event::Event;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::program::Program;
use opencl3::types::{CL_BLOCKING, CL_NON_BLOCKING};
use std::ptr;

/// More than four 16 MiB parts, so staging buffers are reused within one
/// transfer, and not a multiple of the part size.
const BYTES: usize = 70 * (1 << 20) + 12_348;

const ADD_ONE: &str = "__kernel void add_one(__global uint *p) { p[get_global_id(0)] += 1u; }";

fn pattern(n: usize, seed: u32) -> Vec<u8> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (x >> 24) as u8
        })
        .collect()
}

fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    a.iter().zip(b).position(|(x, y)| x != y)
}

#[test]
fn streamed_reads_and_writes_keep_every_byte_and_the_queue_order() {
    let (context, queue) = common::context_and_queue();
    let program = Program::create_and_build_from_source(&context, ADD_ONE, "").expect("build");
    let kernel = Kernel::create(&program, "add_one").expect("kernel");
    // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
    let mut buffer = unsafe {
        Buffer::<u8>::create(&context, CL_MEM_READ_WRITE, BYTES, ptr::null_mut()).expect("buffer")
    };

    // A whole-buffer write, then a small non-blocking write the streamed
    // read must see, then a kernel between two streamed transfers.
    let mut expected = pattern(BYTES, 7);
    let patch = pattern(4096, 99);
    // SAFETY: the host vectors outlive the commands (the non-blocking
    // write's event is waited for below before `patch` is dropped).
    let patch_written: Event = unsafe {
        queue
            .enqueue_write_buffer(&mut buffer, CL_BLOCKING, 0, &expected, &[])
            .expect("write");
        queue
            .enqueue_write_buffer(&mut buffer, CL_NON_BLOCKING, 5_000_000, &patch, &[])
            .expect("patch")
    };
    expected[5_000_000..5_000_000 + patch.len()].copy_from_slice(&patch);
    let mut got = vec![0u8; BYTES];
    // SAFETY: a vector of the buffer's size.
    let read = unsafe {
        queue
            .enqueue_read_buffer(&buffer, CL_BLOCKING, 0, &mut got, &[patch_written.get()])
            .expect("read")
    };
    assert_eq!(first_difference(&got, &expected), None, "whole buffer");
    assert_eq!(read.command_execution_status().expect("status").0, 0);

    // An unaligned write inside the buffer, the kernel over every word,
    // then an unaligned read: the kernel must run between the two.
    let middle = pattern(40 * (1 << 20) + 3, 3);
    let at = 1001;
    expected[at..at + middle.len()].copy_from_slice(&middle);
    // SAFETY: the range lies inside the buffer; `middle` outlives the call.
    unsafe {
        queue
            .enqueue_write_buffer(&mut buffer, CL_BLOCKING, at, &middle, &[])
            .expect("unaligned write");
    }
    // SAFETY: the kernel's one argument is the buffer, read as BYTES / 4 uints.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&buffer)
            .set_global_work_size(BYTES / 4)
            .enqueue_nd_range(&queue)
            .expect("kernel");
    }
    for word in expected.chunks_exact_mut(4) {
        let v = u32::from_le_bytes([word[0], word[1], word[2], word[3]]).wrapping_add(1);
        word.copy_from_slice(&v.to_le_bytes());
    }
    let (from, len) = (3, 50 * (1 << 20) + 11);
    let mut part = vec![0u8; len];
    // SAFETY: the range lies inside the buffer.
    unsafe {
        queue
            .enqueue_read_buffer(&buffer, CL_BLOCKING, from, &mut part, &[])
            .expect("unaligned read");
    }
    assert_eq!(
        first_difference(&part, &expected[from..from + len]),
        None,
        "unaligned read after the kernel"
    );
    queue.finish().expect("finish");
}
