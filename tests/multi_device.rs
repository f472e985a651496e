//! Contexts with two devices: a buffer written through one device's queue
//! and used by the other's sees the newest contents, with the order given
//! by events across the queues or by `clFinish`. One GPU stands in for two
//! devices through `CLVULKAN_DEVICE_COPIES=2` (each copy has its own
//! `VkDevice` and memory, so nothing is shared behind the runtime's back).
//! Covers writes, kernels, reads, fills of a sub-buffer, copies, maps,
//! initial (`COPY_HOST_PTR`, `USE_HOST_PTR`) contents first used on the
//! second device, and `clEnqueueMigrateMemObjects`. Program-scope
//! `__global` variables are per device: each device has its own copy.
//!
//! Large buffers (several 16 MiB parts, odd sizes) move back and forth
//! between kernels whole and through sub-buffers across a part's edge, on
//! each path a move can take (named in the transfer trace): the host's
//! copy straight across where it reaches both devices' memory (`direct`,
//! lavapipe), host memory both devices import (`bridged`; forced in a child
//! process with `CLVULKAN_HOST_DIRECT=0`) and staging (`streamed`, forced
//! in another with `CLVULKAN_MOVE_PATH=staging`).

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
use std::path::PathBuf;
use std::process::Command;
use std::ptr;

const N: usize = 4096;

/// The part size of moves between devices (`core::transfer::PART_BYTES`).
const PART: usize = 16 << 20;

/// Forces moves through staging when `staging`.
const MOVE_PATH: &str = "CLVULKAN_MOVE_PATH";

const TRACE: &str = "CLVULKAN_TRACE_TRANSFERS";

/// Where this process's transfer trace goes: what the parent chose for a
/// child, else a file of its own.
fn trace_file() -> PathBuf {
    std::env::var_os(TRACE).map_or_else(
        || std::env::temp_dir().join(format!("clvulkan-multi-device-{}", std::process::id())),
        PathBuf::from,
    )
}

/// The first physical device twice: a context over both copies and a
/// queue on each.
fn two_devices() -> (Context, [CommandQueue; 2], [cl_device_id; 2]) {
    for (k, v) in common::opencl_env() {
        // SAFETY: set before the loader or any other thread reads them.
        unsafe { std::env::set_var(k, v) };
    }
    // SAFETY: as above.
    unsafe { std::env::set_var("CLVULKAN_DEVICE_COPIES", "2") };
    // SAFETY: as above; every test sets the same value.
    unsafe { std::env::set_var(TRACE, trace_file()) };
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

/// The path moves take in this process: through staging when forced, the
/// host's direct copy where it reaches the devices' memory (the trace's
/// device lines end `direct unified`), else host memory both devices
/// import (lavapipe and NVIDIA both can).
fn expected_move_path() -> &'static str {
    if std::env::var(MOVE_PATH).as_deref() == Ok("staging") {
        return "streamed";
    }
    let trace = std::fs::read_to_string(trace_file()).unwrap_or_default();
    let mut devices = trace
        .lines()
        .filter(|line| line.starts_with("clvulkan: transfer: device "))
        .peekable();
    let opened = devices.peek().is_some();
    if opened && devices.all(|line| line.ends_with("direct unified")) {
        "direct"
    } else {
        "bridged"
    }
}

/// The transfer trace's moves of `bytes` bytes, by path.
fn traced_moves(bytes: usize) -> Vec<String> {
    let trace = std::fs::read_to_string(trace_file()).unwrap_or_default();
    trace
        .lines()
        .filter_map(|line| line.strip_prefix("clvulkan: transfer: move "))
        .filter_map(|rest| {
            let (path, size) = rest.split_once(' ')?;
            (size == bytes.to_string()).then(|| path.to_owned())
        })
        .collect()
}

/// What `mix` in `tests/kernels/multi_device.cl` makes of `data`.
fn mixed(data: &mut [u8], seed: u32) {
    for (i, byte) in data.iter_mut().enumerate() {
        let h = (i as u32 ^ seed).wrapping_mul(2_654_435_761);
        *byte = byte.wrapping_mul(3).wrapping_add((h >> 24) as u8);
    }
}

/// A byte buffer of `size` bytes, contents undefined.
fn bytes(context: &Context, size: usize) -> Buffer<u8> {
    // SAFETY: no host pointer and no flag that needs one.
    unsafe { Buffer::<u8>::create(context, CL_MEM_READ_WRITE, size, ptr::null_mut()) }
        .expect("buffer")
}

/// The global size for `n` work-items, a whole number of groups of 64.
fn groups_for(n: usize) -> usize {
    n.div_ceil(64) * 64
}

/// Enqueues `mix` over the `n` bytes of `data`.
fn mix(
    kernel: &Kernel,
    queue: &CommandQueue,
    data: &Buffer<u8>,
    seed: u32,
    waits: &[cl_event],
) -> Event {
    let n = data.size().expect("size") as u32;
    // SAFETY: mix(global uchar *, uint n, uint seed) with `data` holding n
    // bytes; work-items past n do nothing.
    unsafe {
        ExecuteKernel::new(kernel)
            .set_arg(data)
            .set_arg(&n)
            .set_arg(&seed)
            .set_global_work_size(groups_for(n as usize))
            .set_event_wait_list(waits)
            .enqueue_nd_range(queue)
    }
    .expect("launch mix")
}

/// Checks on the device of `queue`, after `waits`, that `data` holds
/// `expected`: a kernel compares it with a copy written there, then a
/// blocking read brings it to the host.
fn check_on(
    queue: &CommandQueue,
    context: &Context,
    program: &Program,
    data: &Buffer<u8>,
    expected: &[u8],
    waits: &[cl_event],
    what: &str,
) {
    let n = expected.len();
    let mut model = bytes(context, n);
    let mut bad = buffer(context, CL_MEM_READ_WRITE, None);
    // SAFETY: blocking writes of the buffers' sizes (`bad`'s first int).
    unsafe {
        queue
            .enqueue_write_buffer(&mut model, CL_BLOCKING, 0, expected, &[])
            .expect("write model");
        queue
            .enqueue_write_buffer(&mut bad, CL_BLOCKING, 0, &[0i32], &[])
            .expect("zero the count");
    }
    let count = Kernel::create(program, "count_differences").expect("kernel");
    let n32 = n as u32;
    // SAFETY: count_differences(global const uchar *, global const uchar *,
    // uint n, global uint *) with two buffers of n bytes and an int.
    let counted = unsafe {
        ExecuteKernel::new(&count)
            .set_arg(data)
            .set_arg(&model)
            .set_arg(&n32)
            .set_arg(&bad)
            .set_global_work_size(groups_for(n))
            .set_event_wait_list(waits)
            .enqueue_nd_range(queue)
    }
    .expect("launch count_differences");
    let mut wrong = [0i32];
    // SAFETY: a blocking read of one int.
    unsafe { queue.enqueue_read_buffer(&bad, CL_BLOCKING, 0, &mut wrong, &[counted.get()]) }
        .expect("read the count");
    let mut back = vec![0u8; n];
    // SAFETY: a blocking read of the buffer's size.
    unsafe { queue.enqueue_read_buffer(data, CL_BLOCKING, 0, &mut back, &[]) }.expect("read");
    let first = back.iter().zip(expected).position(|(a, b)| a != b);
    assert_eq!(wrong[0], 0, "{what}: bytes the kernel found wrong");
    assert!(
        first.is_none(),
        "{what}: the read differs first at byte {first:?}"
    );
}

#[test]
fn large_buffers_move_in_parts_back_and_forth() {
    let (context, queues, _) = two_devices();
    let program = program(&context);
    let kernel = Kernel::create(&program, "mix").expect("kernel");
    // Five parts, more than a move has slots, the last one odd-sized: the
    // size is no multiple of the part size, nor of 4.
    let size = 4 * PART + 4099;
    let mut data = bytes(&context, size);
    let mut expected: Vec<u8> = (0..size).map(|i| (i % 251) as u8).collect();
    // SAFETY: a blocking write of the buffer's size.
    unsafe { queues[0].enqueue_write_buffer(&mut data, CL_BLOCKING, 0, &expected, &[]) }
        .expect("write");
    let before = traced_moves(size).len();
    // Each round a kernel changes every byte on one device, from what the
    // other device had checked; the other device then checks it.
    for round in 0..4u32 {
        let (here, there) = (round as usize % 2, 1 - round as usize % 2);
        let mixed_event = mix(&kernel, &queues[here], &data, round + 1, &[]);
        queues[here].flush().expect("flush");
        mixed(&mut expected, round + 1);
        check_on(
            &queues[there],
            &context,
            &program,
            &data,
            &expected,
            &[mixed_event.get()],
            &format!("round {round}: device {here} -> {there}"),
        );
    }
    let moves = traced_moves(size).split_off(before);
    // One move per round; other tests' buffers have other sizes.
    assert!(moves.len() >= 4, "moves traced: {moves:?}");
    let path = expected_move_path();
    assert!(
        moves.iter().all(|p| p == path),
        "moves went {moves:?}, not all {path}"
    );
}

#[test]
fn large_sub_buffers_move_with_their_parent() {
    let (context, [q0, q1], _) = two_devices();
    let program = program(&context);
    let kernel = Kernel::create(&program, "mix").expect("kernel");
    // Three parts, the last short and odd (a size no other test uses).
    let size = 2 * PART + 999;
    let mut parent = bytes(&context, size);
    let mut expected: Vec<u8> = (0..size).map(|i| (i * 7 % 256) as u8).collect();
    // SAFETY: a blocking write of the buffer's size.
    unsafe { q0.enqueue_write_buffer(&mut parent, CL_BLOCKING, 0, &expected, &[]) }.expect("write");
    let before = traced_moves(size).len();
    // A region across the end of the first part, odd in length.
    let (origin, length) = (PART - 4096, PART + 4097);
    let region_range = origin..origin + length;
    // SAFETY: bytes origin..origin + length of `parent`, inside it, at an
    // offset aligned for every device.
    let region =
        unsafe { parent.create_sub_buffer(CL_MEM_READ_WRITE, origin, length) }.expect("sub-buffer");

    // Changed on device 1 (the whole parent moves there), then checked
    // whole on device 0: the bytes outside the region are device 0's own.
    let changed = mix(&kernel, &q1, &region, 5, &[]);
    q1.flush().expect("flush");
    mixed(&mut expected[region_range.clone()], 5);
    check_on(
        &q0,
        &context,
        &program,
        &parent,
        &expected,
        &[changed.get()],
        "the parent on device 0 after its region changed on device 1",
    );

    // Changed again on device 0; the region alone read on device 1.
    let changed = mix(&kernel, &q0, &region, 6, &[]);
    q0.flush().expect("flush");
    mixed(&mut expected[region_range.clone()], 6);
    let mut back = vec![0u8; length];
    // SAFETY: a blocking read of the sub-buffer's size.
    unsafe { q1.enqueue_read_buffer(&region, CL_BLOCKING, 0, &mut back, &[changed.get()]) }
        .expect("read the region");
    assert!(
        back == expected[region_range],
        "the region read on device 1"
    );
    check_on(
        &q1,
        &context,
        &program,
        &parent,
        &expected,
        &[],
        "the parent on device 1",
    );

    let moves = traced_moves(size).split_off(before);
    assert!(moves.len() >= 3, "moves traced: {moves:?}");
    let path = expected_move_path();
    assert!(
        moves.iter().all(|p| p == path),
        "moves went {moves:?}, not all {path}"
    );
}

/// The large moves again in child processes, on the paths the default
/// one leaves out: with `CLVULKAN_HOST_DIRECT=0` over bridges, with
/// `CLVULKAN_MOVE_PATH=staging` through staging (each child's tests check
/// that all their moves took it).
#[test]
fn large_moves_take_the_other_paths_when_forced() {
    for (variable, value, path) in [
        ("CLVULKAN_HOST_DIRECT", "0", "bridged"),
        (MOVE_PATH, "staging", "streamed"),
    ] {
        let trace = std::env::temp_dir().join(format!(
            "clvulkan-multi-device-{path}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&trace);
        for name in [
            "large_buffers_move_in_parts_back_and_forth",
            "large_sub_buffers_move_with_their_parent",
        ] {
            let mut child = Command::new(std::env::current_exe().expect("test executable"));
            child
                .args(["--exact", name, "--test-threads=1"])
                .env(variable, value)
                .env(TRACE, &trace);
            common::run_checked(&mut child);
        }
        let traced = std::fs::read_to_string(&trace).unwrap_or_default();
        let moves: Vec<&str> = traced
            .lines()
            .filter(|line| line.starts_with("clvulkan: transfer: move "))
            .collect();
        let wanted = format!("clvulkan: transfer: move {path} ");
        assert!(
            !moves.is_empty() && moves.iter().all(|line| line.starts_with(&wanted)),
            "{variable}={value}: moves traced\n{traced}"
        );
        let _ = std::fs::remove_file(&trace);
    }
}
