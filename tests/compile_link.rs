//! Separate compilation through the loader: `clCompileProgram` with
//! embedded headers and options, `clLinkProgram` of several objects and of
//! a library into an executable whose kernels call functions defined in
//! other inputs (with a struct type from a header they share), errors in the compile and link logs with line and column,
//! callbacks fired once, and compiled objects and libraries round-tripping
//! through program binaries.

mod common;

use std::ffi::{c_void, CStr, CString};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_WRITE_ONLY};
use opencl3::program::{
    create_program_with_binary, get_program_build_info, get_program_info, link_program,
    release_program, CL_PROGRAM_BINARY_TYPE, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
    CL_PROGRAM_BINARY_TYPE_EXECUTABLE, CL_PROGRAM_BINARY_TYPE_LIBRARY, CL_PROGRAM_BUILD_LOG,
    CL_PROGRAM_BUILD_STATUS, CL_PROGRAM_KERNEL_NAMES,
};
use opencl3::types::{cl_device_id, cl_int, cl_program, CL_BLOCKING};

const CL_SUCCESS: cl_int = 0;
const CL_BUILD_SUCCESS: cl_int = 0;
const CL_BUILD_ERROR: cl_int = -2;
const CL_COMPILE_PROGRAM_FAILURE: cl_int = -15;
const CL_LINK_PROGRAM_FAILURE: cl_int = -17;
const CL_INVALID_OPERATION: cl_int = -59;
const CL_INVALID_COMPILER_OPTIONS: cl_int = -66;
const CL_INVALID_LINKER_OPTIONS: cl_int = -67;
const CL_INVALID_PROGRAM_EXECUTABLE: cl_int = -45;

fn setup() -> (Context, CommandQueue, cl_device_id) {
    for (k, v) in common::opencl_env() {
        // SAFETY: tests in this binary only ever set these same values.
        unsafe { std::env::set_var(k, v) };
    }
    let platform = opencl3::platform::get_platforms()
        .expect("platforms")
        .remove(0);
    let ids = platform.get_devices(CL_DEVICE_TYPE_ALL).expect("devices");
    let context = Context::from_device(&Device::new(ids[0])).expect("context");
    #[allow(deprecated)]
    let queue = CommandQueue::create_default(&context, 0).expect("queue");
    (context, queue, ids[0])
}

/// A program object from `source`, owned by the test (released by [`Owned`]).
struct Owned(cl_program);

impl Drop for Owned {
    fn drop(&mut self) {
        // SAFETY: created by this test, released once.
        unsafe { release_program(self.0) }.expect("release");
    }
}

fn source_program(context: &Context, source: &str) -> Owned {
    let program = opencl3::program::Program::create_from_source(context, source).expect("program");
    let raw = program.get();
    // Keep the handle alive past opencl3's wrapper: it releases on drop.
    std::mem::forget(program);
    Owned(raw)
}

fn build_log(program: cl_program, device: cl_device_id) -> String {
    let log: String = get_program_build_info(program, device, CL_PROGRAM_BUILD_LOG)
        .expect("log")
        .into();
    log.trim_end_matches('\0').to_owned()
}

fn build_status(program: cl_program, device: cl_device_id) -> cl_int {
    get_program_build_info(program, device, CL_PROGRAM_BUILD_STATUS)
        .expect("status")
        .into()
}

fn binary_type(program: cl_program, device: cl_device_id) -> u32 {
    let value: u32 = get_program_build_info(program, device, CL_PROGRAM_BINARY_TYPE)
        .expect("binary type")
        .into();
    value
}

static CALLBACKS: AtomicUsize = AtomicUsize::new(0);

extern "C" fn count_callback(_program: cl_program, user_data: *mut c_void) {
    // The user data is the address of the counter the test passed.
    let counter = user_data.cast::<AtomicUsize>();
    // SAFETY: the test passes a pointer to a live AtomicUsize.
    unsafe { &*counter }.fetch_add(1, Ordering::SeqCst);
    CALLBACKS.fetch_add(1, Ordering::SeqCst);
}

/// `clCompileProgram` with `headers` as `(include name, header program)`.
/// A raw call: cl3 passes `&CStr` (fat pointers) as the name array.
fn compile(
    program: &Owned,
    device: cl_device_id,
    options: &str,
    headers: &[(&CStr, &Owned)],
) -> Result<(), cl_int> {
    compile_counted(program, device, options, headers, None)
}

fn compile_counted(
    program: &Owned,
    device: cl_device_id,
    options: &str,
    headers: &[(&CStr, &Owned)],
    calls: Option<&AtomicUsize>,
) -> Result<(), cl_int> {
    let options = CString::new(options).expect("options");
    let names: Vec<*const std::ffi::c_char> =
        headers.iter().map(|(name, _)| name.as_ptr()).collect();
    let programs: Vec<cl_program> = headers.iter().map(|(_, p)| p.0).collect();
    let (notify, user_data): (Option<extern "C" fn(cl_program, *mut c_void)>, *mut c_void) =
        match calls {
            Some(calls) => (Some(count_callback), ptr::from_ref(calls).cast_mut().cast()),
            None => (None, ptr::null_mut()),
        };
    let (headers_ptr, names_ptr) = if headers.is_empty() {
        (ptr::null(), ptr::null())
    } else {
        (programs.as_ptr(), names.as_ptr())
    };
    // SAFETY: live handles, arrays of the given lengths, NUL-terminated
    // strings; the callback's data outlives the call it runs in.
    let status = unsafe {
        clCompileProgram(
            program.0,
            1,
            &device,
            options.as_ptr(),
            headers.len() as u32,
            headers_ptr,
            names_ptr,
            notify,
            user_data,
        )
    };
    if status == CL_SUCCESS {
        Ok(())
    } else {
        Err(status)
    }
}

fn link(
    context: &Context,
    device: cl_device_id,
    options: &str,
    inputs: &[&Owned],
) -> Result<Owned, cl_int> {
    let options = CString::new(options).expect("options");
    let inputs: Vec<cl_program> = inputs.iter().map(|p| p.0).collect();
    // SAFETY: the device belongs to the context.
    unsafe {
        link_program(
            context.get(),
            &[device],
            &options,
            &inputs,
            None,
            ptr::null_mut(),
        )
    }
    .map(Owned)
}

/// `program`'s binary loaded as a new program.
fn reload(context: &Context, device: cl_device_id, program: &Owned) -> Owned {
    let binaries: Vec<Vec<u8>> = get_program_info(program.0, opencl3::program::CL_PROGRAM_BINARIES)
        .expect("binaries")
        .into();
    let slices: Vec<&[u8]> = binaries.iter().map(Vec::as_slice).collect();
    // SAFETY: the device belongs to the context.
    Owned(unsafe { create_program_with_binary(context.get(), &[device], &slices) }.expect("load"))
}

/// Runs `kernel(global int *out)` over `n` items and returns `out`.
fn run(context: &Context, queue: &CommandQueue, program: cl_program, kernel: &str) -> Vec<i32> {
    const N: usize = 64;
    let name = CString::new(kernel).expect("name");
    let raw = opencl3::kernel::create_kernel(program, &name).expect("kernel");
    let kernel = Kernel::new(raw);
    // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
    let out = unsafe { Buffer::<i32>::create(context, CL_MEM_WRITE_ONLY, N, ptr::null_mut()) }
        .expect("buffer");
    // SAFETY: the argument type matches the kernel's signature.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&out)
            .set_global_work_size(N)
            .enqueue_nd_range(queue)
    }
    .expect("enqueue");
    let mut host = vec![0i32; N];
    // SAFETY: blocking, so `host` outlives the transfer.
    unsafe { queue.enqueue_read_buffer(&out, CL_BLOCKING, 0, &mut host, &[]) }.expect("read");
    host
}

const MATH_H: &str = "#ifndef MATH_H\n#define MATH_H\n\
typedef struct { int scale; int bias; } affine;\n\
int triple(int x);\nint add_bias(int x);\nint apply(affine a, int x);\n#define BIAS 100\n#endif\n";

const USER: &str = "#include \"math.h\"\n#include \"sub/extra.h\"\n\
kernel void use_both(global int *out) {\n\
    int i = (int)get_global_id(0);\n\
    affine twice = { 2, 1 };\n\
    out[i] = add_bias(triple(i)) + EXTRA + SCALE + apply(twice, i);\n\
}\n";

const EXTRA_H: &str = "#define EXTRA 1000\n";

const DEFS: &str = "#include \"math.h\"\n\
int triple(int x) { return 3 * x; }\n\
int apply(affine a, int x) { return a.scale * x + a.bias; }\n\
int add_bias(int x) { return x + BIAS; }\n\
kernel void only_defs(global int *out) { out[get_global_id(0)] = triple(2); }\n";

#[test]
fn two_objects_with_headers_link_into_one_executable() {
    let (context, queue, device) = setup();
    let math_h = source_program(&context, MATH_H);
    let extra_h = source_program(&context, EXTRA_H);
    let user = source_program(&context, USER);
    let defs = source_program(&context, DEFS);
    let headers: [(&CStr, &Owned); 2] = [(c"math.h", &math_h), (c"sub/extra.h", &extra_h)];
    compile(&user, device, "-D SCALE=5", &headers).expect("compile user");
    compile(&defs, device, "", &headers[..1]).expect("compile defs");
    for object in [&user, &defs] {
        assert_eq!(build_status(object.0, device), CL_BUILD_SUCCESS);
        assert_eq!(
            binary_type(object.0, device),
            CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
        );
    }
    // A compiled object is no executable.
    assert_eq!(
        get_program_info(user.0, CL_PROGRAM_KERNEL_NAMES).err(),
        Some(CL_INVALID_PROGRAM_EXECUTABLE)
    );
    let linked = link(&context, device, "", &[&user, &defs]).expect("link");
    assert_eq!(
        binary_type(linked.0, device),
        CL_PROGRAM_BINARY_TYPE_EXECUTABLE
    );
    let names: String = get_program_info(linked.0, CL_PROGRAM_KERNEL_NAMES)
        .expect("names")
        .into();
    let mut names: Vec<&str> = names.trim_end_matches('\0').split(';').collect();
    names.sort_unstable();
    assert_eq!(names, ["only_defs", "use_both"]);
    let out = run(&context, &queue, linked.0, "use_both");
    for (i, &value) in out.iter().enumerate() {
        let i = i as i32;
        assert_eq!(value, 3 * i + 100 + 1000 + 5 + 2 * i + 1, "item {i}");
    }
    assert!(run(&context, &queue, linked.0, "only_defs")
        .iter()
        .all(|&v| v == 6));
    // The linked executable round-trips through a binary.
    let again = reload(&context, device, &linked);
    let options = CString::new("").expect("options");
    opencl3::program::build_program(again.0, &[device], &options, None, ptr::null_mut())
        .expect("build from binary");
    assert_eq!(run(&context, &queue, again.0, "use_both"), out);
}

#[test]
fn library_links_with_an_object_and_binaries_round_trip() {
    let (context, queue, device) = setup();
    let math_h = source_program(&context, MATH_H);
    let headers: [(&CStr, &Owned); 1] = [(c"math.h", &math_h)];
    let defs = source_program(&context, DEFS);
    compile(&defs, device, "", &headers).expect("compile defs");
    let library = link(&context, device, "-create-library", &[&defs]).expect("library");
    assert_eq!(
        binary_type(library.0, device),
        CL_PROGRAM_BINARY_TYPE_LIBRARY
    );
    let user = source_program(
        &context,
        "#include \"math.h\"\nkernel void k(global int *out) { out[get_global_id(0)] = triple(7) + BIAS; }\n",
    );
    compile(&user, device, "", &headers).expect("compile user");

    // The object and the library go through binaries before the link.
    let reload = |program: &Owned| reload(&context, device, program);
    let library_again = reload(&library);
    let user_again = reload(&user);
    assert_eq!(
        binary_type(library_again.0, device),
        CL_PROGRAM_BINARY_TYPE_LIBRARY
    );
    assert_eq!(
        binary_type(user_again.0, device),
        CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
    );
    let linked = link(&context, device, "", &[&user_again, &library_again]).expect("link");
    assert!(run(&context, &queue, linked.0, "k")
        .iter()
        .all(|&v| v == 121));
    // Compiling needs a source program.
    assert_eq!(
        compile(&user_again, device, "", &[]).err(),
        Some(CL_INVALID_OPERATION)
    );
}

#[test]
fn compile_errors_are_logged_with_line_and_column() {
    let (context, _queue, device) = setup();
    let header = source_program(&context, "int helper(int x) {\n  return x + missing;\n}\n");
    let broken = source_program(
        &context,
        "#include \"helper.h\"\nkernel void k(global int *out) {\n  out[0] = undeclared;\n}\n",
    );
    assert_eq!(
        compile(&broken, device, "-no-such-option", &[]).err(),
        Some(CL_INVALID_COMPILER_OPTIONS)
    );
    let result = compile(&broken, device, "", &[(c"helper.h", &header)]);
    assert_eq!(result.err(), Some(CL_COMPILE_PROGRAM_FAILURE));
    assert_eq!(build_status(broken.0, device), CL_BUILD_ERROR);
    let log = build_log(broken.0, device);
    assert!(log.contains("helper.h:2:14: error:"), "{log}");
    assert!(log.contains("<source>:3:12: error:"), "{log}");
}

#[test]
fn link_errors_are_logged_with_line_and_column() {
    let (context, _queue, device) = setup();
    let user = source_program(
        &context,
        "int f(int);\nkernel void k(global int *out) {\n  out[0] = f(1);\n}\n",
    );
    let defs = source_program(&context, "\n\nint f(int x) { return x; }\n");
    compile(&user, device, "", &[]).expect("compile");
    compile(&defs, device, "", &[]).expect("compile");

    // Options the linker cannot take: no link, no program.
    assert_eq!(
        link(&context, device, "-no-such-option", &[&user, &defs]).err(),
        Some(CL_INVALID_LINKER_OPTIONS)
    );
    // Nothing defines f.
    let mut status = 0;
    let undefined = raw_link(&context, device, &[user.0], &mut status);
    assert_eq!(status, CL_LINK_PROGRAM_FAILURE);
    let log = build_log(undefined.0, device);
    assert!(log.contains("<source>:3:12: error:"), "{log}");
    assert!(log.contains("never defined"), "{log}");
    assert_eq!(build_status(undefined.0, device), CL_BUILD_ERROR);

    // f defined twice.
    let twice = raw_link(&context, device, &[user.0, defs.0, defs.0], &mut status);
    assert_eq!(status, CL_LINK_PROGRAM_FAILURE);
    let log = build_log(twice.0, device);
    assert!(
        log.contains("<source>:3:5: error: redefinition of 'f'"),
        "{log}"
    );
}

// The loader's own exports, for the calls cl3 gets wrong: it drops the
// program of a failed link (which holds the log), and passes header names
// as `&CStr` fat pointers. cl3 loads
// the same libOpenCL.so.1, so both reach one loader.
#[link(name = "OpenCL")]
extern "C" {
    fn clCompileProgram(
        program: cl_program,
        num_devices: u32,
        device_list: *const cl_device_id,
        options: *const std::ffi::c_char,
        num_input_headers: u32,
        input_headers: *const cl_program,
        header_include_names: *const *const std::ffi::c_char,
        pfn_notify: Option<extern "C" fn(cl_program, *mut c_void)>,
        user_data: *mut c_void,
    ) -> cl_int;
    fn clLinkProgram(
        context: *mut c_void,
        num_devices: u32,
        device_list: *const cl_device_id,
        options: *const std::ffi::c_char,
        num_input_programs: u32,
        input_programs: *const cl_program,
        pfn_notify: Option<extern "C" fn(cl_program, *mut c_void)>,
        user_data: *mut c_void,
        errcode_ret: *mut cl_int,
    ) -> cl_program;
}

/// `clLinkProgram` keeping the returned program whatever the status, with
/// a callback that counts into `calls`.
fn raw_link_counted(
    context: &Context,
    device: cl_device_id,
    inputs: &[cl_program],
    status: &mut cl_int,
    calls: &AtomicUsize,
) -> Owned {
    // SAFETY: live handles and arrays of the given lengths; the callback
    // gets `calls`, which outlives the call (the callback runs inside it).
    let program = unsafe {
        clLinkProgram(
            context.get(),
            1,
            &device,
            c"".as_ptr(),
            inputs.len() as u32,
            inputs.as_ptr(),
            Some(count_callback),
            ptr::from_ref(calls).cast_mut().cast(),
            status,
        )
    };
    assert!(
        !program.is_null(),
        "a failed link still returns its program"
    );
    Owned(program)
}

fn raw_link(
    context: &Context,
    device: cl_device_id,
    inputs: &[cl_program],
    status: &mut cl_int,
) -> Owned {
    let calls = AtomicUsize::new(0);
    let program = raw_link_counted(context, device, inputs, status, &calls);
    assert_eq!(calls.load(Ordering::SeqCst), 1, "the callback fires once");
    program
}

#[test]
fn compile_and_link_callbacks_fire_once() {
    let (context, _queue, device) = setup();
    let program = source_program(&context, "kernel void k(global int *out) { out[0] = 1; }\n");
    let calls = AtomicUsize::new(0);
    compile_counted(&program, device, "", &[], Some(&calls)).expect("compile");
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    let mut status = -1;
    let linked = raw_link_counted(&context, device, &[program.0], &mut status, &calls);
    assert_eq!(status, CL_SUCCESS);
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    assert_eq!(build_status(linked.0, device), CL_BUILD_SUCCESS);
    assert!(CALLBACKS.load(Ordering::SeqCst) >= 2);
}

const COUNTING: &str = "extern global int shared_total;\n\
kernel void bump(global int *out) {\n\
    atomic_add(&shared_total, 2);\n\
    out[get_global_id(0)] = 0;\n\
}\n";

const TOTAL: &str = "global int shared_total = 40;\n\
kernel void read_total(global int *out) { out[get_global_id(0)] = shared_total; }\n";

#[test]
fn a_global_declared_extern_in_one_object_is_the_one_another_defines() {
    let (context, queue, device) = setup();
    let counting = source_program(&context, COUNTING);
    let total = source_program(&context, TOTAL);
    compile(&counting, device, "-cl-std=CL2.0", &[]).expect("compile counting");
    compile(&total, device, "-cl-std=CL2.0", &[]).expect("compile total");
    let linked = link(&context, device, "", &[&counting, &total]).expect("link");
    assert_eq!(run(&context, &queue, linked.0, "read_total"), vec![40; 64]);
    // `run` launches 64 work-items, each adding 2.
    run(&context, &queue, linked.0, "bump");
    assert_eq!(
        run(&context, &queue, linked.0, "read_total"),
        vec![40 + 128; 64]
    );
}

/// The object that only names `bart`, of a struct it never defines
/// (OpenCL-CTS's `extern constant struct bar bart;`).
const NAMES_BART: &str = "struct bar;\n\
extern constant struct bar bart;\n\
constant struct bar *bart_address(void);\n\
kernel void unrelated(global int *out) { out[get_global_id(0)] = 7; }\n";

const DEFINES_BART: &str = "struct bar { int first; int second; };\n\
constant struct bar bart = { 11, 31 };\n\
kernel void read_bart(global int *out) {\n\
    out[get_global_id(0)] = bart.first * 100 + bart.second;\n\
}\n";

#[test]
fn an_extern_constant_of_incomplete_type_compiles_and_links() {
    let (context, queue, device) = setup();
    let names = source_program(&context, NAMES_BART);
    let defines = source_program(&context, DEFINES_BART);
    compile(&names, device, "", &[]).expect("compile the extern declaration");
    compile(&defines, device, "", &[]).expect("compile the definition");
    let linked = link(&context, device, "", &[&names, &defines]).expect("link");
    let (first, second) = (11, 31);
    assert_eq!(
        run(&context, &queue, linked.0, "read_bart"),
        vec![first * 100 + second; 64]
    );
    assert_eq!(run(&context, &queue, linked.0, "unrelated"), vec![7; 64]);
}

/// A C++ for OpenCL unit calls a function of an OpenCL C unit through
/// `extern "C"`, and its kernel keeps C++'s rules after the link.
#[test]
fn cxx_and_c_units_link_through_extern_c() {
    let (context, queue, device) = setup();
    let cxx = source_program(
        &context,
        "extern \"C\" int offset(int x);\n\
         kernel void from_cxx(global int *out) {\n\
             int i = (int)get_global_id(0);\n\
             out[i] = offset(i) + (int)sizeof('c') + (int)sizeof(true);\n\
         }\n",
    );
    let c = source_program(
        &context,
        "int offset(int x) { return x + (int)sizeof('c') + (int)sizeof(true); }\n",
    );
    compile(&cxx, device, "-cl-std=CLC++", &[]).expect("compile C++");
    compile(&c, device, "-cl-std=CL3.0", &[]).expect("compile C");
    // Either unit first: the first one's options start the link.
    for inputs in [[&cxx, &c], [&c, &cxx]] {
        let linked = link(&context, device, "", &inputs).expect("link");
        let out = run(&context, &queue, linked.0, "from_cxx");
        for (i, &value) in out.iter().enumerate() {
            // sizeof('c') and sizeof(true) are 1 in the C++ unit and 4 in
            // the C one (where `true` is the macro 1).
            assert_eq!(value, i as i32 + 8 + 2, "item {i}");
        }
    }
}
