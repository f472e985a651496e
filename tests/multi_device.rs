//! Contexts with two devices: a buffer written through one device's queue
//! and used by the other's sees the newest contents, with the order given
//! by events across the queues or by `clFinish`. One GPU stands in for two
//! devices through `CLVULKAN_DEVICE_COPIES=2` (each copy has its own
//! `VkDevice` and memory, so nothing is shared behind the runtime's back).
//! Covers writes, kernels, reads, fills of a sub-buffer, copies, maps,
//! initial (`COPY_HOST_PTR`, `USE_HOST_PTR`) contents first used on the
//! second device, and `clEnqueueMigrateMemObjects`. Program-scope
//! `__global` variables are per device: each device has its own copy.

mod common;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::CL_DEVICE_TYPE_ALL;
use opencl3::event::Event;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{
    Buffer, ClMem, CL_MAP_READ, CL_MAP_WRITE, CL_MEM_COPY_HOST_PTR, CL_MEM_READ_ONLY,
    CL_MEM_READ_WRITE, CL_MEM_USE_HOST_PTR, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{cl_device_id, cl_event, cl_mem, CL_BLOCKING, CL_NON_BLOCKING};
use std::ptr;

const N: usize = 4096;

/// The first physical device twice: a context over both copies and a
/// queue on each.
fn two_devices() -> (Context, [CommandQueue; 2], [cl_device_id; 2]) {
    for (k, v) in common::opencl_env() {
        // SAFETY: set before the loader or any other thread reads them.
        unsafe { std::env::set_var(k, v) };
    }
    // SAFETY: as above.
    unsafe { std::env::set_var("CLVULKAN_DEVICE_COPIES", "2") };
    let platform = get_platforms().expect("platforms").remove(0);
    let ids = platform.get_devices(CL_DEVICE_TYPE_ALL).expect("devices");
    assert!(
        ids.len() >= 2 && ids.len().is_multiple_of(2),
        "two copies of each device: {} devices",
        ids.len()
    );
    let pair = [ids[0], ids[1]];
    assert_ne!(pair[0], pair[1]);
    let context = Context::from_devices(&pair, &[], None, ptr::null_mut()).expect("context");
    #[allow(deprecated)]
    // SAFETY: both devices belong to the context.
    let queues = pair.map(|id| unsafe { CommandQueue::create(&context, id, 0) }.expect("queue"));
    (context, queues, pair)
}

fn program(context: &Context) -> Program {
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/multi_device.cl"))
        .expect("kernel source");
    Program::create_and_build_from_source(context, &source, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"))
}

fn buffer(context: &Context, flags: u64, contents: Option<&mut [i32]>) -> Buffer<i32> {
    let host = contents.map_or(ptr::null_mut(), |c| c.as_mut_ptr().cast());
    // SAFETY: `host` is null or N ints that outlive the buffer (the tests
    // keep USE_HOST_PTR memory alive until the end).
    unsafe { Buffer::<i32>::create(context, flags, N, host) }.expect("buffer")
}

fn read(queue: &CommandQueue, buffer: &Buffer<i32>, waits: &[cl_event]) -> Vec<i32> {
    let mut out = vec![0i32; N];
    // SAFETY: a blocking read into a vector of the buffer's size.
    unsafe { queue.enqueue_read_buffer(buffer, CL_BLOCKING, 0, &mut out, waits) }.expect("read");
    out
}

fn scale_add(
    kernel: &Kernel,
    queue: &CommandQueue,
    data: &Buffer<i32>,
    k: i32,
    waits: &[cl_event],
) -> Event {
    // SAFETY: the kernel takes an int buffer of N elements and an int.
    unsafe {
        ExecuteKernel::new(kernel)
            .set_arg(data)
            .set_arg(&k)
            .set_global_work_size(N)
            .set_event_wait_list(waits)
            .enqueue_nd_range(queue)
    }
    .expect("launch")
}

fn expect_scale_add(before: &[i32], k: i32) -> Vec<i32> {
    before
        .iter()
        .enumerate()
        .map(|(i, &v)| v.wrapping_mul(k).wrapping_add(i as i32))
        .collect()
}

#[test]
fn a_buffer_moves_between_two_devices() {
    let (context, [q0, q1], _) = two_devices();
    let program = program(&context);
    let kernel = Kernel::create(&program, "scale_add").expect("kernel");

    // Written on device 0, changed by a kernel on device 1 that waits for
    // the write, read back on device 0 after the kernel's event.
    let mut initial: Vec<i32> = (0..N as i32).map(|i| -i).collect();
    let mut data = buffer(
        &context,
        CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
        Some(&mut initial),
    );
    let written: Vec<i32> = (0..N as i32).map(|i| 3 * i + 1).collect();
    // SAFETY: `written` outlives the write, which the read below waits for.
    let write = unsafe { q0.enqueue_write_buffer(&mut data, CL_NON_BLOCKING, 0, &written, &[]) }
        .expect("write");
    let on_1 = scale_add(&kernel, &q1, &data, 2, &[write.get()]);
    let expected = expect_scale_add(&written, 2);
    assert_eq!(read(&q0, &data, &[on_1.get()]), expected, "device 1 -> 0");

    // And back: a kernel on device 0, read on device 1 after clFinish.
    scale_add(&kernel, &q0, &data, 3, &[]);
    q0.finish().expect("finish");
    let expected = expect_scale_add(&expected, 3);
    assert_eq!(read(&q1, &data, &[]), expected, "device 0 -> 1");

    // Kernels alternating between the devices, each waiting on the last.
    let mut last = scale_add(&kernel, &q1, &data, 5, &[]);
    let mut expected = expect_scale_add(&expected, 5);
    for round in 0..6 {
        let queue = if round % 2 == 0 { &q0 } else { &q1 };
        last = scale_add(&kernel, queue, &data, round - 2, &[last.get()]);
        expected = expect_scale_add(&expected, round - 2);
    }
    assert_eq!(read(&q0, &data, &[last.get()]), expected, "ping-pong");

    // Changed on device 1 only, then partly overwritten on device 0: the
    // rest must be what device 1 computed.
    let on_1 = scale_add(&kernel, &q1, &data, 7, &[]);
    expected = expect_scale_add(&expected, 7);
    let patch = [99i32; 100];
    // SAFETY: `patch` outlives the write, which the read below waits for.
    let patched =
        unsafe { q0.enqueue_write_buffer(&mut data, CL_NON_BLOCKING, 4000, &patch, &[on_1.get()]) }
            .expect("partial write");
    expected[1000..1100].fill(99);
    assert_eq!(
        read(&q0, &data, &[patched.get()]),
        expected,
        "partial write"
    );
}

#[test]
fn initial_contents_sub_buffers_copies_maps_and_migration() {
    let (context, [q0, q1], _) = two_devices();
    let program = program(&context);

    // COPY_HOST_PTR contents first used on device 1.
    let mut initial: Vec<i32> = (0..N as i32).map(|i| 7 * i).collect();
    let copied = buffer(
        &context,
        CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
        Some(&mut initial),
    );
    assert_eq!(
        read(&q1, &copied, &[]),
        initial,
        "COPY_HOST_PTR on device 1"
    );

    // USE_HOST_PTR contents changed on device 1, read on device 0.
    let mut host: Vec<i32> = (0..N as i32).map(|i| i * i).collect();
    let before = host.clone();
    let used = buffer(
        &context,
        CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
        Some(&mut host),
    );
    let kernel = Kernel::create(&program, "scale_add").expect("kernel");
    let changed = scale_add(&kernel, &q1, &used, -1, &[]);
    assert_eq!(
        read(&q0, &used, &[changed.get()]),
        expect_scale_add(&before, -1),
        "USE_HOST_PTR changed on device 1"
    );

    // A fill of a sub-buffer on device 1 lands inside the parent read on 0.
    let mut whole = buffer(&context, CL_MEM_READ_WRITE, None);
    let pattern: Vec<i32> = (0..N as i32).collect();
    // SAFETY: a blocking write of the buffer's size.
    unsafe { q0.enqueue_write_buffer(&mut whole, CL_BLOCKING, 0, &pattern, &[]) }.expect("write");
    // SAFETY: elements 1024..2048 of `whole`, inside it and aligned.
    let mut part =
        unsafe { whole.create_sub_buffer(CL_MEM_READ_WRITE, 1024, 1024) }.expect("sub-buffer");
    // SAFETY: fills the whole sub-buffer with one int.
    let filled =
        unsafe { q1.enqueue_fill_buffer(&mut part, &[-5], 0, 1024 * 4, &[]) }.expect("fill");
    let mut expected = pattern.clone();
    expected[1024..2048].fill(-5);
    assert_eq!(
        read(&q0, &whole, &[filled.get()]),
        expected,
        "sub-buffer fill"
    );

    // A kernel on device 1 reading two buffers last written on device 0
    // and the host, then a copy on device 0 of its result.
    let sum = Kernel::create(&program, "sum_into").expect("kernel");
    let out = buffer(&context, CL_MEM_READ_WRITE, None);
    // SAFETY: three int buffers of N elements.
    let summed = unsafe {
        ExecuteKernel::new(&sum)
            .set_arg(&out)
            .set_arg(&whole)
            .set_arg(&copied)
            .set_global_work_size(N)
            .enqueue_nd_range(&q1)
    }
    .expect("launch");
    let sums: Vec<i32> = expected.iter().zip(&initial).map(|(a, b)| a + b).collect();
    let mut copy = buffer(&context, CL_MEM_READ_WRITE, None);
    // SAFETY: both buffers hold N ints.
    let copied_out =
        unsafe { q0.enqueue_copy_buffer(&out, &mut copy, 0, 0, N * 4, &[summed.get()]) }
            .expect("copy");
    assert_eq!(read(&q1, &copy, &[copied_out.get()]), sums, "copy on 0");

    // Mapped for writing on device 1, read on device 0.
    let mut mapped: cl_mem = ptr::null_mut();
    // SAFETY: a blocking map of the whole buffer.
    unsafe {
        q1.enqueue_map_buffer(
            &copy,
            CL_BLOCKING,
            CL_MAP_READ | CL_MAP_WRITE,
            0,
            N * 4,
            &mut mapped,
            &[],
        )
    }
    .expect("map");
    // SAFETY: the mapped region is N ints, ours until the unmap.
    let region = unsafe { std::slice::from_raw_parts_mut(mapped.cast::<i32>(), N) };
    assert_eq!(region, &sums[..], "map on device 1");
    region[17] = 1717;
    // SAFETY: unmapping the pointer the map returned.
    let unmapped =
        unsafe { q1.enqueue_unmap_mem_object(copy.get(), mapped.cast(), &[]) }.expect("unmap");
    let mut expected = sums.clone();
    expected[17] = 1717;
    assert_eq!(read(&q0, &copy, &[unmapped.get()]), expected, "unmap");

    // Migrated to device 1 after a write on device 0.
    let moved: Vec<i32> = (0..N as i32).map(|i| i ^ 0x55).collect();
    // SAFETY: a blocking write of the buffer's size.
    unsafe { q0.enqueue_write_buffer(&mut copy, CL_BLOCKING, 0, &moved, &[]) }.expect("write");
    let handles = [copy.get()];
    // SAFETY: one valid memory object.
    let migrated =
        unsafe { q1.enqueue_migrate_mem_object(1, handles.as_ptr(), 0, &[]) }.expect("migrate");
    migrated.wait().expect("migrated");
    assert_eq!(read(&q1, &copy, &[]), moved, "migrated to device 1");

    // A sub-buffer migrated with undefined contents: the rest of its parent
    // keeps what device 0 wrote.
    let fresh: Vec<i32> = (0..N as i32).map(|i| 5 - i).collect();
    // SAFETY: a blocking write of the buffer's size.
    unsafe { q0.enqueue_write_buffer(&mut copy, CL_BLOCKING, 0, &fresh, &[]) }.expect("write");
    // SAFETY: elements 0..1024 of `copy`.
    let head = unsafe { copy.create_sub_buffer(CL_MEM_READ_WRITE, 0, 1024) }.expect("sub-buffer");
    let handles = [head.get()];
    // SAFETY: one valid memory object.
    let migrated = unsafe {
        q1.enqueue_migrate_mem_object(
            1,
            handles.as_ptr(),
            CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
            &[],
        )
    }
    .expect("migrate");
    let back = read(&q1, &copy, &[migrated.get()]);
    assert_eq!(
        back[1024..],
        fresh[1024..],
        "outside the migrated sub-buffer"
    );
    drop(used);
    drop(host);
}

/// `counter` and `tickets` of `tests/kernels/program_globals.cl` as the
/// device of `queue` holds them.
fn globals_on(context: &Context, queue: &CommandQueue, program: &Program) -> Vec<i32> {
    let kernel = Kernel::create(program, "report").expect("kernel");
    // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
    let out = unsafe { Buffer::<i32>::create(context, CL_MEM_READ_WRITE, 2, ptr::null_mut()) }
        .expect("buffer");
    // SAFETY: the kernel's one argument is an int buffer of two.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&out)
            .set_global_work_size(1)
            .enqueue_nd_range(queue)
    }
    .expect("enqueue");
    let mut values = vec![0i32; 2];
    // SAFETY: a blocking read into a vector of the buffer's size.
    unsafe { queue.enqueue_read_buffer(&out, CL_BLOCKING, 0, &mut values, &[]) }.expect("read");
    values
}

#[test]
fn each_device_has_its_own_program_globals() {
    let (context, [q0, q1], _) = two_devices();
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/program_globals.cl"))
        .expect("kernel source");
    let program = Program::create_and_build_from_source(&context, &source, "-cl-std=CL2.0")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let count = Kernel::create(&program, "count").expect("kernel");
    // SAFETY: `count` takes no arguments.
    unsafe {
        ExecuteKernel::new(&count)
            .set_global_work_size(32)
            .enqueue_nd_range(&q0)
    }
    .expect("enqueue");
    q0.finish().expect("finish");
    // The initializer gives counter 5 and tickets 0; each of the 32
    // work-items adds 1 and 2 on the first device only.
    assert_eq!(globals_on(&context, &q0, &program), [5 + 32, 64]);
    assert_eq!(globals_on(&context, &q1, &program), [5, 0]);
}
