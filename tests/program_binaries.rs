//! Program binaries through the loader: `CL_PROGRAM_BINARIES` of a built
//! program, loaded again with `clCreateProgramWithBinary`, built without
//! source and run; binaries that are cut short, corrupted, stale (another
//! translator version) or not ours are rejected with `CL_INVALID_BINARY`,
//! zero lengths and NULL entries with `CL_INVALID_VALUE`, each also in
//! `binary_status`; the program queries report the
//! binary type, an empty source, and the kernels.

mod common;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY};
use opencl3::platform::get_platforms;
use opencl3::program::{
    create_program_with_binary, release_program, Program, CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
    CL_PROGRAM_BINARY_TYPE_NONE,
};
use opencl3::types::{cl_device_id, cl_int, CL_BLOCKING};
use std::ptr;

const CL_INVALID_VALUE: cl_int = -30;
const CL_INVALID_BINARY: cl_int = -42;

fn setup() -> (Context, CommandQueue, cl_device_id) {
    for (k, v) in common::opencl_env() {
        // SAFETY: tests in this binary only ever set these same values.
        unsafe { std::env::set_var(k, v) };
    }
    let platform = get_platforms().expect("platforms").remove(0);
    let ids = platform.get_devices(CL_DEVICE_TYPE_ALL).expect("devices");
    let context = Context::from_device(&Device::new(ids[0])).expect("context");
    #[allow(deprecated)]
    let queue = CommandQueue::create_default(&context, 0).expect("queue");
    (context, queue, ids[0])
}

/// `tests/kernels/binary_scale.cl` built from source with its options.
fn build_from_source(context: &Context) -> Program {
    let source = std::fs::read_to_string(common::repo_path("tests/kernels/binary_scale.cl"))
        .expect("kernel source");
    let options = source
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// options:"))
        .expect("options line")
        .trim()
        .to_owned();
    Program::create_and_build_from_source(context, &source, &options)
        .unwrap_or_else(|log| panic!("build failed:\n{log}"))
}

/// The one device's binary of `program`.
fn binary_of(program: &Program) -> Vec<u8> {
    let sizes = program.get_binary_sizes().expect("binary sizes");
    let mut binaries = program.get_binaries().expect("binaries");
    assert_eq!(binaries.len(), 1);
    assert_eq!(sizes, vec![binaries[0].len()]);
    binaries.remove(0)
}

/// `clCreateProgramWithBinary`'s status for `binary`; a program it makes is
/// released.
fn load_status(context: &Context, device: cl_device_id, binary: &[u8]) -> cl_int {
    // SAFETY: the device belongs to the context.
    match unsafe { create_program_with_binary(context.get(), &[device], &[binary]) } {
        Ok(program) => {
            // SAFETY: the program just created, released once.
            unsafe { release_program(program) }.expect("release");
            0
        }
        Err(status) => status,
    }
}

/// Runs `scale` of `program` on a few inputs and checks `x * 3 + 7`.
fn run_scale(context: &Context, queue: &CommandQueue, program: &Program) {
    const N: usize = 1024;
    let kernel = Kernel::create(program, "scale").expect("kernel");
    let input: Vec<i32> = (0..N as i32).map(|i| i * 5 - 2000).collect();
    // SAFETY: null host pointers with no USE/COPY_HOST_PTR flag.
    let (mut din, dout) = unsafe {
        (
            Buffer::<i32>::create(context, CL_MEM_READ_ONLY, N, ptr::null_mut()).expect("in"),
            Buffer::<i32>::create(context, CL_MEM_WRITE_ONLY, N, ptr::null_mut()).expect("out"),
        )
    };
    // SAFETY: blocking, so `input` outlives the transfer.
    unsafe { queue.enqueue_write_buffer(&mut din, CL_BLOCKING, 0, &input, &[]) }.expect("write");
    // SAFETY: argument types match the kernel's signature.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&din)
            .set_arg(&dout)
            .set_global_work_size(N)
            .enqueue_nd_range(queue)
    }
    .expect("enqueue");
    let mut out = vec![0i32; N];
    // SAFETY: blocking, so `out` outlives the transfer.
    unsafe { queue.enqueue_read_buffer(&dout, CL_BLOCKING, 0, &mut out, &[]) }.expect("read");
    for (i, (&x, &y)) in input.iter().zip(&out).enumerate() {
        assert_eq!(y, x * 3 + 7, "element {i}");
    }
}

#[test]
fn binary_round_trips_and_runs_without_source() {
    let (context, queue, device) = setup();
    let built = build_from_source(&context);
    assert_eq!(
        built.get_build_binary_type(device).expect("binary type"),
        CL_PROGRAM_BINARY_TYPE_EXECUTABLE
    );
    let binary = binary_of(&built);
    assert!(binary.starts_with(b"CLVKPRG\0"), "magic");

    // SAFETY: the device belongs to the context.
    let mut loaded = unsafe { Program::create_from_binary(&context, &[device], &[&binary]) }
        .expect("load binary");
    // Before the build: the binary's type, no source, no executable yet.
    assert_eq!(
        loaded.get_build_binary_type(device).expect("binary type"),
        CL_PROGRAM_BINARY_TYPE_EXECUTABLE
    );
    assert_eq!(loaded.get_source().expect("source"), "");
    loaded.build(&[device], "").expect("build from binary");
    // Built again (no kernels attached yet): the binary is still there.
    loaded.build(&[device], "").expect("build again");
    assert_eq!(loaded.get_num_kernels().expect("num kernels"), 2);
    let names = loaded.get_kernel_names().expect("kernel names");
    let mut names: Vec<&str> = names.split(';').collect();
    names.sort_unstable();
    assert_eq!(names, ["fill", "scale"]);
    // The build options recorded in the binary still apply (-D FACTOR=3
    // and -cl-kernel-arg-info).
    run_scale(&context, &queue, &loaded);
    let kernel = Kernel::create(&loaded, "scale").expect("kernel");
    assert_eq!(kernel.get_arg_name(1).expect("arg info"), "out");

    // The loaded program's binary is the same bytes again.
    assert_eq!(binary_of(&loaded), binary);
}

#[test]
fn program_without_a_build_has_no_binary() {
    let (context, _queue, device) = setup();
    let program = Program::create_from_source(&context, "kernel void k() {}").expect("program");
    assert_eq!(program.get_binary_sizes().expect("sizes"), vec![0]);
    assert_eq!(
        program.get_build_binary_type(device).expect("binary type"),
        CL_PROGRAM_BINARY_TYPE_NONE
    );
}

#[test]
fn every_truncation_and_byte_flip_is_rejected() {
    let (context, _queue, device) = setup();
    let binary = binary_of(&build_from_source(&context));
    assert_eq!(load_status(&context, device, &binary), 0);
    // Length 0 is CL_INVALID_VALUE (the spec's rule for a zero length).
    assert_eq!(load_status(&context, device, &[]), CL_INVALID_VALUE);
    for len in 1..binary.len() {
        assert_eq!(
            load_status(&context, device, &binary[..len]),
            CL_INVALID_BINARY,
            "truncated to {len}"
        );
    }
    let mut state = 0x853c_49e6_748f_ea9bu64;
    for _ in 0..2000 {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let at = (state >> 33) as usize % binary.len();
        let mut corrupt = binary.clone();
        corrupt[at] ^= ((state >> 8) as u8) | 1;
        assert_eq!(
            load_status(&context, device, &corrupt),
            CL_INVALID_BINARY,
            "byte {at} flipped"
        );
    }
    // Trailing bytes are corruption too.
    let mut longer = binary.clone();
    longer.push(0);
    assert_eq!(load_status(&context, device, &longer), CL_INVALID_BINARY);
}

/// FNV-1a, as the format's checksum, so a test can forge a binary whose
/// checksum holds and whose contents are stale.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[test]
fn stale_and_foreign_binaries_are_rejected() {
    let (context, _queue, device) = setup();
    let binary = binary_of(&build_from_source(&context));
    // Another clvulkan version with a valid checksum: the version string
    // follows the magic, the format version and its length.
    let mut stale = binary.clone();
    let version_len = u32::from_le_bytes(stale[12..16].try_into().expect("4 bytes")) as usize;
    assert!(version_len > 0);
    stale[16 + version_len - 1] ^= 0x01;
    let body = stale.len() - 8;
    let checksum = fnv1a(&stale[..body]).to_le_bytes();
    stale[body..].copy_from_slice(&checksum);
    assert_eq!(load_status(&context, device, &stale), CL_INVALID_BINARY);
    // Another format version.
    let mut future = binary.clone();
    future[8] = future[8].wrapping_add(1);
    let checksum = fnv1a(&future[..body]).to_le_bytes();
    future[body..].copy_from_slice(&checksum);
    assert_eq!(load_status(&context, device, &future), CL_INVALID_BINARY);
    // Not a clvulkan binary: SPIR-V, an ELF header, text.
    for foreign in [
        &[0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0][..],
        b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0",
        b"kernel void k() {}",
    ] {
        assert_eq!(load_status(&context, device, foreign), CL_INVALID_BINARY);
    }
}

// The loader's own export: cl3 hides `binary_status` and cannot pass NULL
// entries. cl3 loads the same libOpenCL.so.1, so both reach one loader.
#[link(name = "OpenCL")]
extern "C" {
    fn clCreateProgramWithBinary(
        context: *mut std::ffi::c_void,
        num_devices: u32,
        device_list: *const cl_device_id,
        lengths: *const usize,
        binaries: *const *const u8,
        binary_status: *mut cl_int,
        errcode_ret: *mut cl_int,
    ) -> *mut std::ffi::c_void;
}

/// `clCreateProgramWithBinary` through the C ABI: the error code and the
/// per-device status (-1000 where it was not written).
fn raw_load(
    context: &Context,
    device: cl_device_id,
    lengths: Option<&[usize]>,
    binaries: Option<&[*const u8]>,
) -> (cl_int, cl_int) {
    let mut status = -1000;
    let mut error = -1000;
    // SAFETY: a live context and device; the arrays hold one entry each
    // (or are NULL), and each binary pointer covers its length.
    let program = unsafe {
        clCreateProgramWithBinary(
            context.get(),
            1,
            &device,
            lengths.map_or(ptr::null(), <[usize]>::as_ptr),
            binaries.map_or(ptr::null(), <[*const u8]>::as_ptr),
            &mut status,
            &mut error,
        )
    };
    if !program.is_null() {
        // SAFETY: the program just created, released once.
        unsafe { release_program(program) }.expect("release");
    }
    assert_eq!(
        program.is_null(),
        error != 0,
        "a program exactly on success"
    );
    (error, status)
}

#[test]
fn binary_status_is_reported_per_device() {
    let (context, _queue, device) = setup();
    let binary = binary_of(&build_from_source(&context));
    let ok = (0, 0);
    assert_eq!(
        raw_load(
            &context,
            device,
            Some(&[binary.len()]),
            Some(&[binary.as_ptr()])
        ),
        ok
    );
    let short = binary.len() - 1;
    assert_eq!(
        raw_load(&context, device, Some(&[short]), Some(&[binary.as_ptr()])),
        (CL_INVALID_BINARY, CL_INVALID_BINARY)
    );
    assert_eq!(
        raw_load(&context, device, Some(&[0]), Some(&[binary.as_ptr()])),
        (CL_INVALID_VALUE, CL_INVALID_VALUE)
    );
    assert_eq!(
        raw_load(
            &context,
            device,
            Some(&[binary.len()]),
            Some(&[ptr::null()])
        ),
        (CL_INVALID_VALUE, CL_INVALID_VALUE)
    );
    // NULL arrays: the call is rejected before any device is looked at.
    assert_eq!(
        raw_load(&context, device, None, Some(&[binary.as_ptr()])).0,
        CL_INVALID_VALUE
    );
    assert_eq!(
        raw_load(&context, device, Some(&[binary.len()]), None).0,
        CL_INVALID_VALUE
    );
}
