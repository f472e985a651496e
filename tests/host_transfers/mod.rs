//! The checks behind `tests/host_direct.rs` and `tests/host_staged.rs`:
//! reads, writes, rect transfers and maps of device-local buffers give the
//! right data in the right order against kernels, whichever path they
//! take, and take the path expected (told by `CLVULKAN_TRACE_TRANSFERS`).
//!
//! On a device that reports `CL_DEVICE_HOST_UNIFIED_MEMORY` (lavapipe)
//! with direct access allowed, reads, writes and rects are direct and maps
//! zero copy; with `CLVULKAN_HOST_DIRECT=0`, or on a discrete GPU, reads
//! and maps are staged (writes may be direct there through a BAR window).

#![allow(dead_code)]

use std::ffi::c_void;
use std::path::PathBuf;
use std::ptr;
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use opencl3::command_queue::{CommandQueue, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE};
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::event::{create_user_event, set_user_event_status, Event};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{
    Buffer, ClMem, CL_MAP_READ, CL_MAP_WRITE, CL_MAP_WRITE_INVALIDATE_REGION, CL_MEM_COPY_HOST_PTR,
    CL_MEM_READ_WRITE,
};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{cl_event, cl_int, cl_mem, CL_BLOCKING, CL_NON_BLOCKING};

use crate::common;

/// `CL_COMPLETE`, which opencl3 does not re-export.
const CL_COMPLETE: cl_int = 0;

/// Elements of the buffers; kernels spin per element so that a transfer
/// that does not wait for them reads or writes while they run.
pub const N: usize = 1 << 14;
const SPIN: i32 = 3000;

const SOURCE: &str = r#"
    __kernel void add(__global uint *data, __global uint *scratch, uint amount, int spin) {
        size_t i = get_global_id(0);
        uint acc = (uint)i;
        for (int k = 0; k < spin; k++) acc = acc * 1664525u + 1013904223u;
        scratch[i] = acc;
        data[i] += amount;
    }
"#;

/// One test binary's OpenCL objects and what it expects of the paths.
pub struct Fixture {
    pub context: Context,
    pub device: Device,
    pub queue: CommandQueue,
    pub out_of_order: CommandQueue,
    kernel: Kernel,
    scratch: Buffer<u32>,
    /// Reads, rects and maps go direct / zero copy.
    pub direct: bool,
    trace: PathBuf,
    /// Serialises the checks, so each sees only its own trace lines.
    serial: Mutex<()>,
}

// SAFETY: OpenCL objects may be used from any thread; the kernel's
// arguments are set and launched under `serial`, one check at a time.
unsafe impl Sync for Fixture {}

/// Sets up the process (once): the ICD environment, tracing into a file of
/// this process, and `CLVULKAN_HOST_DIRECT` as `direct_allowed` says.
pub fn fixture(direct_allowed: bool) -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let trace = std::env::temp_dir().join(format!(
            "clvulkan-transfers-{}-{}",
            if direct_allowed { "direct" } else { "staged" },
            std::process::id()
        ));
        let _ = std::fs::remove_file(&trace);
        let mut env = common::opencl_env();
        env.push(("CLVULKAN_TRACE_TRANSFERS", trace.display().to_string()));
        env.push((
            "CLVULKAN_HOST_DIRECT",
            if direct_allowed { "1" } else { "0" }.to_owned(),
        ));
        for (k, v) in env {
            // SAFETY: set before the loader or any other thread reads them.
            unsafe { std::env::set_var(k, v) };
        }
        let platform = get_platforms().expect("platforms").remove(0);
        let ids = platform.get_devices(CL_DEVICE_TYPE_ALL).expect("devices");
        let device = Device::new(ids[0]);
        let context = Context::from_device(&device).expect("context");
        #[allow(deprecated)]
        let queue = CommandQueue::create_default(&context, 0).expect("queue");
        let out_of_order = CommandQueue::create_default_with_properties(
            &context,
            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
            0,
        )
        .expect("out-of-order queue");
        let program = Program::create_and_build_from_source(&context, SOURCE, "")
            .unwrap_or_else(|log| panic!("build failed:\n{log}"));
        let kernel = Kernel::create(&program, "add").expect("kernel");
        let scratch = new_buffer(&context, N);
        let unified = device.host_unified_memory().expect("host unified memory");
        Fixture {
            context,
            device,
            queue,
            out_of_order,
            kernel,
            scratch,
            direct: direct_allowed && unified,
            trace,
            serial: Mutex::new(()),
        }
    })
}

pub fn new_buffer(context: &Context, n: usize) -> Buffer<u32> {
    // SAFETY: no host pointer, no host-pointer flags.
    unsafe { Buffer::<u32>::create(context, CL_MEM_READ_WRITE, n, ptr::null_mut()) }
        .expect("buffer")
}

impl Fixture {
    /// Holds the other checks off and remembers where the trace ends.
    fn begin(&self) -> (MutexGuard<'_, ()>, usize) {
        let guard = self.serial.lock().unwrap_or_else(PoisonError::into_inner);
        (guard, self.trace_lines().len())
    }

    fn trace_lines(&self) -> Vec<String> {
        std::fs::read_to_string(&self.trace)
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// The trace lines written since `start`.
    fn lines_since(&self, start: usize) -> Vec<String> {
        self.trace_lines().split_off(start)
    }

    /// The path a read (or rect read) takes.
    fn read_path(&self) -> &'static str {
        if self.direct {
            "direct"
        } else {
            "staged"
        }
    }

    /// The paths a write may take: direct where reads are; otherwise
    /// staged, or direct through a BAR window.
    fn write_paths(&self) -> &'static [&'static str] {
        if self.direct {
            &["direct"]
        } else {
            &["staged", "direct"]
        }
    }

    /// Launches `data[i] += amount` over `n` elements on `queue`.
    fn add(
        &self,
        queue: &CommandQueue,
        data: &Buffer<u32>,
        amount: u32,
        waits: &[cl_event],
    ) -> Event {
        let mut launch = ExecuteKernel::new(&self.kernel);
        // SAFETY: two uint buffers of N, a uint and an int, as declared.
        unsafe {
            launch
                .set_arg(data)
                .set_arg(&self.scratch)
                .set_arg(&amount)
                .set_arg(&SPIN)
                .set_global_work_size(N);
            if !waits.is_empty() {
                launch.set_event_wait_list(waits);
            }
            launch.enqueue_nd_range(queue).expect("launch")
        }
    }
}

/// Asserts that `lines` holds `command` taking one of `paths` for `bytes`.
fn assert_traced(lines: &[String], command: &str, paths: &[&str], bytes: usize) {
    let found = paths.iter().any(|path| {
        let line = format!("clvulkan: transfer: {command} {path} {bytes}");
        lines.contains(&line)
    });
    assert!(
        found,
        "no {command} {paths:?} of {bytes} bytes in {lines:#?}"
    );
}

/// Asserts `got == expected`, naming the first difference rather than
/// printing 16,384 numbers.
#[track_caller]
fn assert_same(got: &[u32], expected: &[u32], what: &str) {
    assert_eq!(got.len(), expected.len(), "{what}: length");
    if let Some(i) = (0..got.len()).find(|&i| got[i] != expected[i]) {
        panic!(
            "{what}: element {i} is {} where {} was expected",
            got[i], expected[i]
        );
    }
}

fn pattern(seed: u32) -> Vec<u32> {
    (0..N as u32)
        .map(|i| i.wrapping_mul(2_654_435_761).wrapping_add(seed))
        .collect()
}

fn read_all(queue: &CommandQueue, buffer: &Buffer<u32>) -> Vec<u32> {
    let mut out = vec![0u32; N];
    // SAFETY: a blocking read into `out`, which holds N uints.
    unsafe { queue.enqueue_read_buffer(buffer, CL_BLOCKING, 0, &mut out, &[]) }.expect("read");
    out
}

/// Blocking and non-blocking reads and writes, of a buffer and of a
/// sub-buffer, and rect transfers.
pub fn reads_writes_and_rects(fixture: &Fixture) {
    let (_serial, start) = fixture.begin();
    let queue = &fixture.queue;
    let mut buffer = new_buffer(&fixture.context, N);
    let first = pattern(1);
    // SAFETY: blocking, from a slice of N uints.
    unsafe { queue.enqueue_write_buffer(&mut buffer, CL_BLOCKING, 0, &first, &[]) }.expect("write");
    assert_same(&read_all(queue, &buffer), &first, "blocking round trip");

    let second = pattern(2);
    let mut out = vec![0u32; N];
    // SAFETY: both slices outlive the commands, which are waited for.
    unsafe {
        queue
            .enqueue_write_buffer(&mut buffer, CL_NON_BLOCKING, 0, &second, &[])
            .expect("write");
        let read = queue
            .enqueue_read_buffer(&buffer, CL_NON_BLOCKING, 0, &mut out, &[])
            .expect("read");
        read.wait().expect("read done");
    }
    assert_same(&out, &second, "non-blocking round trip");

    // A sub-buffer adds its origin to every transfer.
    let align = fixture.device.mem_base_addr_align().expect("alignment") as usize / 8;
    let origin = align.max(64) / 4;
    // SAFETY: a region inside the buffer at an aligned origin.
    let mut sub =
        unsafe { buffer.create_sub_buffer(CL_MEM_READ_WRITE, origin, 64) }.expect("sub-buffer");
    let words: Vec<u32> = (0..16).map(|i| 7000 + i).collect();
    // SAFETY: blocking transfers of 16 uints.
    unsafe { queue.enqueue_write_buffer(&mut sub, CL_BLOCKING, 16, &words, &[]) }
        .expect("sub write");
    let mut back = vec![0u32; 16];
    // SAFETY: as above.
    unsafe { queue.enqueue_read_buffer(&sub, CL_BLOCKING, 16, &mut back, &[]) }.expect("sub read");
    assert_eq!(back, words);
    let mut expected = second.clone();
    expected[origin + 4..origin + 20].copy_from_slice(&words);
    assert_same(
        &read_all(queue, &buffer),
        &expected,
        "after the sub-buffer write",
    );

    // A 3 x 4 rectangle of uints at row 2, column 5 of 64-uint rows.
    let (row_bytes, rows) = (64 * 4, 4);
    let region = [3 * 4, rows, 1];
    let buffer_origin = [5 * 4, 2, 0];
    let host_origin = [0, 0, 0];
    let rect: Vec<u32> = (0..12).map(|i| 900 + i).collect();
    // SAFETY: the host rectangle is 12 packed uints; the buffer one lies
    // inside the buffer; both blocking.
    unsafe {
        queue
            .enqueue_write_buffer_rect(
                &mut buffer,
                CL_BLOCKING,
                buffer_origin.as_ptr(),
                host_origin.as_ptr(),
                region.as_ptr(),
                row_bytes,
                0,
                0,
                0,
                rect.as_ptr() as *mut c_void,
                &[],
            )
            .expect("write rect");
    }
    let mut rect_back = vec![0u32; 12];
    // SAFETY: as for the write.
    unsafe {
        queue
            .enqueue_read_buffer_rect(
                &buffer,
                CL_BLOCKING,
                buffer_origin.as_ptr(),
                host_origin.as_ptr(),
                region.as_ptr(),
                row_bytes,
                0,
                0,
                0,
                rect_back.as_mut_ptr().cast(),
                &[],
            )
            .expect("read rect");
    }
    assert_eq!(rect_back, rect);
    for (r, chunk) in rect.chunks(3).enumerate() {
        let at = (2 + r) * 64 + 5;
        expected[at..at + 3].copy_from_slice(chunk);
    }
    assert_same(&read_all(queue, &buffer), &expected, "after the rect write");

    let lines = fixture.lines_since(start);
    assert_traced(&lines, "write", fixture.write_paths(), 4 * N);
    assert_traced(&lines, "read", &[fixture.read_path()], 4 * N);
    assert_traced(&lines, "write", fixture.write_paths(), 64);
    assert_traced(&lines, "read", &[fixture.read_path()], 64);
    assert_traced(&lines, "write-rect", fixture.write_paths(), 48);
    assert_traced(&lines, "read-rect", &[fixture.read_path()], 48);
}

/// On an in-order queue, non-blocking reads and writes enqueued between
/// kernels see and leave exactly what the queue order says, also when one
/// waits for a user event.
pub fn in_order_transfers_keep_their_place_among_kernels(fixture: &Fixture) {
    let (_serial, start) = fixture.begin();
    let queue = &fixture.queue;
    let mut data = new_buffer(&fixture.context, N);
    let initial = pattern(3);
    let replacement = pattern(4);
    let (mut after_one, mut after_replace) = (vec![0u32; N], vec![0u32; N]);
    let mut gated = vec![0u32; N];
    // SAFETY: every slice outlives the commands: the queue is finished
    // before they are read or dropped.
    unsafe {
        queue
            .enqueue_write_buffer(&mut data, CL_NON_BLOCKING, 0, &initial, &[])
            .expect("write");
        fixture.add(queue, &data, 1, &[]);
        queue
            .enqueue_read_buffer(&data, CL_NON_BLOCKING, 0, &mut after_one, &[])
            .expect("read");
        fixture.add(queue, &data, 10, &[]);
        queue
            .enqueue_write_buffer(&mut data, CL_NON_BLOCKING, 0, &replacement, &[])
            .expect("write");
        fixture.add(queue, &data, 100, &[]);
        queue
            .enqueue_read_buffer(&data, CL_NON_BLOCKING, 0, &mut after_replace, &[])
            .expect("read");
        // A read held back behind a user event, and a kernel behind it.
        let user = Event::from(create_user_event(fixture.context.get()).expect("user event"));
        fixture.add(queue, &data, 1000, &[]);
        queue
            .enqueue_read_buffer(&data, CL_NON_BLOCKING, 0, &mut gated, &[user.get()])
            .expect("gated read");
        fixture.add(queue, &data, 5, &[]);
        queue.flush().expect("flush");
        std::thread::sleep(std::time::Duration::from_millis(20));
        set_user_event_status(user.get(), CL_COMPLETE).expect("set user event");
    }
    queue.finish().expect("finish");

    // A write takes its data at enqueue, so from memory that a pending
    // read fills it takes what the read leaves there.
    let mut bounce = vec![0u32; N];
    let mut copy = new_buffer(&fixture.context, N);
    fixture.add(queue, &data, 3, &[]);
    // SAFETY: `bounce` outlives both commands (the queue is finished).
    unsafe {
        queue
            .enqueue_read_buffer(&data, CL_NON_BLOCKING, 0, &mut bounce, &[])
            .expect("read");
        queue
            .enqueue_write_buffer(&mut copy, CL_NON_BLOCKING, 0, &bounce, &[])
            .expect("write");
    }
    queue.finish().expect("finish");

    let plus = |v: &[u32], k: u32| v.iter().map(|x| x.wrapping_add(k)).collect::<Vec<_>>();
    assert_same(
        &read_all(queue, &copy),
        &plus(&replacement, 1108),
        "written from a read's destination",
    );
    assert_same(&after_one, &plus(&initial, 1), "read between kernels");
    assert_same(
        &after_replace,
        &plus(&replacement, 100),
        "read after a write and a kernel",
    );
    assert_same(
        &gated,
        &plus(&replacement, 1100),
        "read behind a user event",
    );
    assert_same(
        &read_all(queue, &data),
        &plus(&replacement, 1108),
        "final contents",
    );
    let lines = fixture.lines_since(start);
    assert_traced(&lines, "read", &[fixture.read_path()], 4 * N);
}

/// On an out-of-order queue, events alone order transfers and kernels.
pub fn out_of_order_transfers_follow_their_events(fixture: &Fixture) {
    let (_serial, _start) = fixture.begin();
    let queue = &fixture.out_of_order;
    let mut data = new_buffer(&fixture.context, N);
    let initial = pattern(5);
    let replacement = pattern(6);
    let (mut after_one, mut last) = (vec![0u32; N], vec![0u32; N]);
    // SAFETY: the slices outlive the commands (the last read blocks, and
    // it follows every other command through the event chain).
    unsafe {
        let written = queue
            .enqueue_write_buffer(&mut data, CL_NON_BLOCKING, 0, &initial, &[])
            .expect("write");
        let one = fixture.add(queue, &data, 1, &[written.get()]);
        let read = queue
            .enqueue_read_buffer(&data, CL_NON_BLOCKING, 0, &mut after_one, &[one.get()])
            .expect("read");
        let ten = fixture.add(queue, &data, 10, &[read.get()]);
        let replaced = queue
            .enqueue_write_buffer(&mut data, CL_NON_BLOCKING, 0, &replacement, &[ten.get()])
            .expect("write");
        let seven = fixture.add(queue, &data, 7, &[replaced.get()]);
        queue
            .enqueue_read_buffer(&data, CL_BLOCKING, 0, &mut last, &[seven.get()])
            .expect("read");
    }
    queue.finish().expect("finish");
    let plus = |v: &[u32], k: u32| v.iter().map(|x| x.wrapping_add(k)).collect::<Vec<_>>();
    assert_same(&after_one, &plus(&initial, 1), "read between kernels");
    assert_same(&last, &plus(&replacement, 7), "last read");
}

/// Maps: zero copy where direct (two maps of one region share an address,
/// a map at an offset lies that far into the buffer), and either way the
/// map waits for earlier kernels and writes through it reach later ones.
pub fn maps_are_zero_copy_and_writes_through_them_reach_kernels(fixture: &Fixture) {
    let (_serial, start) = fixture.begin();
    let queue = &fixture.queue;
    let mut initial = pattern(7);
    // SAFETY: COPY_HOST_PTR reads N uints from `initial` during the call.
    let data = unsafe {
        Buffer::<u32>::create(
            &fixture.context,
            CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
            N,
            initial.as_mut_ptr().cast(),
        )
    }
    .expect("buffer");
    let bytes = 4 * N;
    let (mut a, mut b, mut c): (cl_mem, cl_mem, cl_mem) =
        (ptr::null_mut(), ptr::null_mut(), ptr::null_mut());
    // SAFETY: blocking maps inside the buffer, unmapped below; the regions
    // are read as the uints they hold while mapped.
    unsafe {
        queue
            .enqueue_map_buffer(&data, CL_BLOCKING, CL_MAP_READ, 0, bytes, &mut a, &[])
            .expect("map a");
        queue
            .enqueue_map_buffer(&data, CL_BLOCKING, CL_MAP_READ, 0, bytes, &mut b, &[])
            .expect("map b");
        queue
            .enqueue_map_buffer(&data, CL_BLOCKING, CL_MAP_READ, 256, 256, &mut c, &[])
            .expect("map c");
        assert_eq!(a as usize % 128, 0, "aligned for any type");
        assert_same(
            std::slice::from_raw_parts(a.cast::<u32>(), N),
            &initial,
            "mapped contents",
        );
        assert_eq!(*c.cast::<u32>(), initial[64]);
        assert_eq!(
            a == b,
            fixture.direct,
            "two maps of one region share memory"
        );
        if fixture.direct {
            assert_eq!(c as usize, a as usize + 256, "a map points into the buffer");
        }
        for pointer in [b, a, c] {
            queue
                .enqueue_unmap_mem_object(data.get(), pointer.cast(), &[])
                .expect("unmap");
        }
    }

    // A map after a kernel sees its results; writes through the map are
    // what the next kernel sees.
    let mut mapped: cl_mem = ptr::null_mut();
    fixture.add(queue, &data, 1, &[]);
    // SAFETY: a non-blocking map, waited for before the region is touched;
    // N uints, ours until the unmap.
    unsafe {
        let map = queue
            .enqueue_map_buffer(
                &data,
                CL_NON_BLOCKING,
                CL_MAP_READ | CL_MAP_WRITE,
                0,
                bytes,
                &mut mapped,
                &[],
            )
            .expect("map for writing");
        map.wait().expect("mapped");
        let region = std::slice::from_raw_parts_mut(mapped.cast::<u32>(), N);
        for (value, start) in region.iter_mut().zip(&initial) {
            assert_eq!(*value, start.wrapping_add(1));
            *value = value.wrapping_mul(3);
        }
        queue
            .enqueue_unmap_mem_object(data.get(), mapped.cast(), &[])
            .expect("unmap");
    }
    fixture.add(queue, &data, 7, &[]);
    let expected: Vec<u32> = initial
        .iter()
        .map(|v| v.wrapping_add(1).wrapping_mul(3).wrapping_add(7))
        .collect();
    assert_same(
        &read_all(queue, &data),
        &expected,
        "after writes through a map and a kernel",
    );

    // Invalidating the region: what the host writes is all that counts.
    // SAFETY: a blocking map of the first 64 uints, written then unmapped.
    unsafe {
        queue
            .enqueue_map_buffer(
                &data,
                CL_BLOCKING,
                CL_MAP_WRITE_INVALIDATE_REGION,
                0,
                256,
                &mut mapped,
                &[],
            )
            .expect("map to invalidate");
        let region = std::slice::from_raw_parts_mut(mapped.cast::<u32>(), 64);
        for (i, value) in region.iter_mut().enumerate() {
            *value = 40_000 + i as u32;
        }
        queue
            .enqueue_unmap_mem_object(data.get(), mapped.cast(), &[])
            .expect("unmap");
    }
    let back = read_all(queue, &data);
    assert!((0..64).all(|i| back[i] == 40_000 + i as u32));
    assert_same(
        &back[64..],
        &expected[64..],
        "outside the invalidated region",
    );

    let lines = fixture.lines_since(start);
    if fixture.direct {
        assert_traced(&lines, "map", &["zero-copy"], bytes);
        assert_traced(&lines, "unmap", &["zero-copy"], bytes);
    } else {
        assert_traced(&lines, "map", &["staged"], bytes);
        assert_traced(&lines, "unmap", fixture.write_paths(), bytes);
    }
}

/// In an in-order queue a blocking command returns only once every
/// command before it is complete, host part included: the OpenCL-CTS's
/// test_bruteforce maps five results without blocking and the sixth
/// blocking, then reads all six. On the staged path the earlier maps' data
/// reached the host only when the completion thread got to them, so they
/// read as zeros (every function failed on the H200, 2026-11-29).
pub fn a_blocking_command_completes_the_earlier_ones(fixture: &Fixture) {
    let (_serial, _) = fixture.begin();
    let queue = &fixture.queue;
    let mut data = new_buffer(&fixture.context, N);
    let bytes = 4 * N;
    let start = pattern(11);
    // SAFETY: the buffer holds N uints; `start` is read during the call.
    unsafe {
        queue
            .enqueue_write_buffer(&mut data, CL_BLOCKING, 0, &start, &[])
            .expect("write");
    }
    const EARLIER: usize = 5;
    for round in 1..=20u32 {
        fixture.add(queue, &data, 1, &[]);
        let mut reads = vec![vec![0u32; N]; EARLIER];
        let mut maps: Vec<cl_mem> = vec![ptr::null_mut(); EARLIER + 1];
        // SAFETY: the read destinations and mapped regions hold N uints
        // and are touched only after the blocking map returned; the maps
        // are unmapped and the queue finished before the next round.
        unsafe {
            for (read, map) in reads.iter_mut().zip(&mut maps) {
                queue
                    .enqueue_read_buffer(&data, CL_NON_BLOCKING, 0, read, &[])
                    .expect("read");
                queue
                    .enqueue_map_buffer(&data, CL_NON_BLOCKING, CL_MAP_READ, 0, bytes, map, &[])
                    .expect("map");
            }
            queue
                .enqueue_map_buffer(
                    &data,
                    CL_BLOCKING,
                    CL_MAP_READ,
                    0,
                    bytes,
                    &mut maps[EARLIER],
                    &[],
                )
                .expect("blocking map");
            let expected: Vec<u32> = start.iter().map(|v| v.wrapping_add(round)).collect();
            for (k, read) in reads.iter().enumerate() {
                assert_same(read, &expected, &format!("round {round}: read {k}"));
            }
            for (k, map) in maps.iter().enumerate() {
                let region = std::slice::from_raw_parts(map.cast::<u32>(), N);
                assert_same(region, &expected, &format!("round {round}: map {k}"));
            }
            for map in maps {
                queue
                    .enqueue_unmap_mem_object(data.get(), map.cast(), &[])
                    .expect("unmap");
            }
        }
        queue.finish().expect("finish");
    }
}

/// `CL_DEVICE_HOST_UNIFIED_MEMORY` says what the memory is, whether or not
/// direct access is switched off: lavapipe's is the host's.
pub fn host_unified_memory_is_reported(fixture: &Fixture) {
    let name = fixture.device.name().expect("name");
    let unified = fixture.device.host_unified_memory().expect("unified");
    if name.starts_with("llvmpipe") {
        assert!(unified, "lavapipe shares the host's memory");
    }
}
