//! SPIR-V programs through the loader (`clCreateProgramWithIL`,
//! `cl_khr_il_program`): the creation errors, `CL_PROGRAM_IL` and
//! `CL_PROGRAM_SOURCE`, the device's IL queries and extension, the rules of
//! `clSetProgramSpecializationConstant`, compiled objects, libraries and
//! the refused mixed link; then kernels made of SPIR-V run: one compiled
//! from OpenCL C by clang and llvm-spirv (`tests/common/il.rs`), one with
//! specialization constants written in SPIR-V assembly, their binaries
//! loaded and built again, and two modules linked.

mod common;

use std::ffi::{c_char, c_void, CString};
use std::ptr;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, ClMem, CL_MEM_WRITE_ONLY};
use opencl3::program::{
    create_program_with_binary, get_program_build_info, get_program_info, Program,
    CL_PROGRAM_BINARIES, CL_PROGRAM_BINARY_TYPE, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
    CL_PROGRAM_BINARY_TYPE_LIBRARY, CL_PROGRAM_BUILD_LOG,
};
use opencl3::types::{
    cl_context, cl_device_id, cl_int, cl_platform_id, cl_program, cl_uint, CL_BLOCKING,
};

use common::il::{spirv_from_assembly, spirv_from_source};

const CL_SUCCESS: cl_int = 0;
const CL_INVALID_VALUE: cl_int = -30;
const CL_INVALID_CONTEXT: cl_int = -34;
const CL_INVALID_PROGRAM: cl_int = -44;
const CL_LINK_PROGRAM_FAILURE: cl_int = -17;
const CL_INVALID_COMPILER_OPTIONS: cl_int = -66;
const CL_INVALID_SPEC_ID: cl_int = -71;
const CL_PROGRAM_SOURCE: cl_uint = 0x1164;
const CL_PROGRAM_IL: cl_uint = 0x1169;

// The loader's own exports, for the NULL arguments and outputs cl3 does
// not pass (cl3 loads the same libOpenCL.so.1, so both reach one loader).
#[link(name = "OpenCL")]
extern "C" {
    fn clCreateProgramWithIL(
        context: cl_context,
        il: *const c_void,
        length: usize,
        errcode_ret: *mut cl_int,
    ) -> cl_program;
    fn clSetProgramSpecializationConstant(
        program: cl_program,
        spec_id: cl_uint,
        spec_size: usize,
        spec_value: *const c_void,
    ) -> cl_int;
    fn clGetProgramInfo(
        program: cl_program,
        param_name: cl_uint,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int;
    fn clCompileProgram(
        program: cl_program,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        options: *const c_char,
        num_input_headers: cl_uint,
        input_headers: *const cl_program,
        header_include_names: *const *const c_char,
        pfn_notify: *const c_void,
        user_data: *mut c_void,
    ) -> cl_int;
    fn clLinkProgram(
        context: cl_context,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        options: *const c_char,
        num_input_programs: cl_uint,
        input_programs: *const cl_program,
        pfn_notify: *const c_void,
        user_data: *mut c_void,
        errcode_ret: *mut cl_int,
    ) -> cl_program;
    fn clReleaseProgram(program: cl_program) -> cl_int;
    fn clGetExtensionFunctionAddressForPlatform(
        platform: cl_platform_id,
        func_name: *const c_char,
    ) -> *mut c_void;
}

type CreateProgramWithIl =
    unsafe extern "C" fn(cl_context, *const c_void, usize, *mut cl_int) -> cl_program;

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

/// A program handle owned by the test, released on drop.
struct Owned(cl_program);

impl Drop for Owned {
    fn drop(&mut self) {
        // SAFETY: created by this test, released once.
        assert_eq!(unsafe { clReleaseProgram(self.0) }, CL_SUCCESS);
    }
}

/// `clCreateProgramWithIL` of `il`: the program, or the error.
fn create(context: &Context, il: &[u8]) -> Result<Owned, cl_int> {
    let mut status = 1;
    // SAFETY: `il.len()` bytes at a live pointer, a live status.
    let program =
        unsafe { clCreateProgramWithIL(context.get(), il.as_ptr().cast(), il.len(), &mut status) };
    if program.is_null() {
        return Err(status);
    }
    assert_eq!(status, CL_SUCCESS);
    Ok(Owned(program))
}

/// The bytes of a program info parameter (`CL_PROGRAM_IL` is no string).
fn info_bytes(program: cl_program, param: cl_uint) -> Vec<u8> {
    let mut size = 0;
    // SAFETY: a live program; a size query, then a buffer of that size.
    unsafe {
        assert_eq!(
            clGetProgramInfo(program, param, 0, ptr::null_mut(), &mut size),
            CL_SUCCESS
        );
        let mut bytes = vec![0u8; size];
        assert_eq!(
            clGetProgramInfo(
                program,
                param,
                size,
                bytes.as_mut_ptr().cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        bytes
    }
}

/// `clSetProgramSpecializationConstant` with `value`'s bytes.
fn set_spec(program: cl_program, id: u32, value: &[u8]) -> cl_int {
    // SAFETY: `value.len()` bytes at a live pointer.
    unsafe { clSetProgramSpecializationConstant(program, id, value.len(), value.as_ptr().cast()) }
}

fn build_log(program: cl_program, device: cl_device_id) -> String {
    let log: String = get_program_build_info(program, device, CL_PROGRAM_BUILD_LOG)
        .expect("log")
        .into();
    log.trim_end_matches('\0').to_owned()
}

fn binary_type(program: cl_program, device: cl_device_id) -> u32 {
    get_program_build_info(program, device, CL_PROGRAM_BINARY_TYPE)
        .expect("binary type")
        .into()
}

/// `clCompileProgram` of `program` for `device`.
fn compile(program: &Owned, device: cl_device_id, options: &str) -> cl_int {
    let options = CString::new(options).expect("options");
    // SAFETY: a live program and device, no headers, no callback.
    unsafe {
        clCompileProgram(
            program.0,
            1,
            &device,
            options.as_ptr(),
            0,
            ptr::null(),
            ptr::null(),
            ptr::null(),
            ptr::null_mut(),
        )
    }
}

/// `clLinkProgram` of `inputs`: the program (also when the link failed,
/// for its log) and the status.
fn link(
    context: &Context,
    device: cl_device_id,
    options: &str,
    inputs: &[&Owned],
) -> (Option<Owned>, cl_int) {
    let options = CString::new(options).expect("options");
    let inputs: Vec<cl_program> = inputs.iter().map(|p| p.0).collect();
    let mut status = 1;
    // SAFETY: live handles and arrays of the lengths given.
    let program = unsafe {
        clLinkProgram(
            context.get(),
            1,
            &device,
            options.as_ptr(),
            inputs.len() as cl_uint,
            inputs.as_ptr(),
            ptr::null(),
            ptr::null_mut(),
            &mut status,
        )
    };
    ((!program.is_null()).then_some(Owned(program)), status)
}

/// `program`'s binary for its one device loaded as a new program.
fn reload(context: &Context, device: cl_device_id, program: cl_program) -> Owned {
    let binaries: Vec<Vec<u8>> = get_program_info(program, CL_PROGRAM_BINARIES)
        .expect("binaries")
        .into();
    assert!(!binaries[0].is_empty(), "no binary");
    let slices: Vec<&[u8]> = binaries.iter().map(Vec::as_slice).collect();
    // SAFETY: the device belongs to the context.
    Owned(unsafe { create_program_with_binary(context.get(), &[device], &slices) }.expect("load"))
}

/// `kernel void k(global uint *out)`: `out[0]` is the 32-bit constant with
/// SpecId 1 (default 7), `out[1]` the low half of the 64-bit one with
/// SpecId 2 (default 5).
const SPEC_CONSTANTS: &str = "
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k \"k\"
               OpName %out \"out\"
               OpDecorate %value SpecId 1
               OpDecorate %wide SpecId 2
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr
    %ulong_1 = OpConstant %ulong 1
      %value = OpSpecConstant %uint 7
       %wide = OpSpecConstant %ulong 5
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr
      %entry = OpLabel
               OpStore %out %value Aligned 4
        %w32 = OpUConvert %uint %wide
     %second = OpInBoundsPtrAccessChain %ptr %out %ulong_1
               OpStore %second %w32 Aligned 4
               OpReturn
               OpFunctionEnd
";

const VECADD: &str = "kernel void vecadd(global const float *a, global const float *b,
                     global float *c, uint n) {
    size_t i = get_global_id(0);
    if (i < n) c[i] = a[i] + b[i];
}
";

#[test]
fn creation_refuses_what_is_not_spirv() {
    let (context, _queue, _device) = setup();
    let module = spirv_from_assembly(SPEC_CONSTANTS);
    let mut status = 1;
    // SAFETY: NULL IL with a length, and a live IL with none: both refused
    // before any read; NULL context likewise.
    unsafe {
        let program = clCreateProgramWithIL(context.get(), ptr::null(), 64, &mut status);
        assert!(program.is_null());
        assert_eq!(status, CL_INVALID_VALUE);
        status = 1;
        let program = clCreateProgramWithIL(context.get(), module.as_ptr().cast(), 0, &mut status);
        assert!(program.is_null());
        assert_eq!(status, CL_INVALID_VALUE);
        status = 1;
        let program = clCreateProgramWithIL(
            ptr::null_mut(),
            module.as_ptr().cast(),
            module.len(),
            &mut status,
        );
        assert!(program.is_null());
        assert_eq!(status, CL_INVALID_CONTEXT);
    }
    // OpenCL C, an ELF header, a module cut short or not a whole number of
    // words, another magic number, a version after 1.5.
    let mut wrong_magic = module.clone();
    wrong_magic[0] ^= 0x10;
    let mut version_1_6 = module.clone();
    version_1_6[4..8].copy_from_slice(&0x0001_0600u32.to_le_bytes());
    let mut garbage_words = module[..20].to_vec();
    garbage_words.extend(std::iter::repeat_n(0xffu8, 64));
    for (what, bytes) in [
        ("OpenCL C", &b"kernel void k(global int *p) { *p = 1; }"[..]),
        ("ELF", b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\0\0\0\0"),
        ("the header alone, cut", &module[..16]),
        ("not whole words", &module[..module.len() - 1]),
        ("wrong magic", &wrong_magic),
        ("SPIR-V 1.6", &version_1_6),
        ("a header and garbage", &garbage_words),
    ] {
        assert_eq!(
            create(&context, bytes).err(),
            Some(CL_INVALID_VALUE),
            "{what}"
        );
    }
    // Either byte order is SPIR-V.
    let swapped: Vec<u8> = module
        .chunks_exact(4)
        .flat_map(|w| [w[3], w[2], w[1], w[0]])
        .collect();
    assert!(create(&context, &swapped).is_ok());
}

#[test]
fn program_il_returns_the_module_and_source_is_empty() {
    let (context, _queue, _device) = setup();
    let module = spirv_from_assembly(SPEC_CONSTANTS);
    let program = create(&context, &module).expect("program");
    assert_eq!(info_bytes(program.0, CL_PROGRAM_IL), module);
    assert_eq!(info_bytes(program.0, CL_PROGRAM_SOURCE), b"\0");
    // Given in the other byte order, it comes back as given.
    let swapped: Vec<u8> = module
        .chunks_exact(4)
        .flat_map(|w| [w[3], w[2], w[1], w[0]])
        .collect();
    let program = create(&context, &swapped).expect("swapped program");
    assert_eq!(info_bytes(program.0, CL_PROGRAM_IL), swapped);
    // A program from source has no IL at all.
    let source = Program::create_from_source(&context, VECADD).expect("source program");
    assert!(info_bytes(source.get(), CL_PROGRAM_IL).is_empty());
}

#[test]
fn devices_and_the_platform_report_spirv() {
    let (_context, _queue, device) = setup();
    let device = Device::new(device);
    assert_eq!(
        device
            .il_version()
            .expect("IL version")
            .trim_end_matches('\0'),
        "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4 SPIR-V_1.5"
    );
    let name = |field: &[u8]| {
        let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
        String::from_utf8(field[..end].to_vec()).expect("name")
    };
    let make_version = |major: u32, minor: u32| (major << 22) | (minor << 12);
    let ils: Vec<(String, u32)> = device
        .ils_with_version()
        .expect("ILs with version")
        .iter()
        .map(|il| (name(&il.name), il.version))
        .collect();
    let expected: Vec<(String, u32)> = (0..=5)
        .map(|minor| ("SPIR-V".to_owned(), make_version(1, minor)))
        .collect();
    assert_eq!(ils, expected);
    let extensions = device.extensions().expect("extensions");
    assert!(
        extensions
            .split_whitespace()
            .any(|e| e == "cl_khr_il_program"),
        "{extensions}"
    );
    let with_version = device
        .extensions_with_version()
        .expect("extensions with version");
    assert!(with_version
        .iter()
        .any(|e| name(&e.name) == "cl_khr_il_program" && e.version == make_version(1, 0)));
    let platform = opencl3::platform::get_platforms()
        .expect("platforms")
        .remove(0);
    let extensions = platform.extensions().expect("platform extensions");
    assert!(
        extensions
            .split_whitespace()
            .any(|e| e == "cl_khr_il_program"),
        "{extensions}"
    );
}

#[test]
fn the_khr_entry_point_creates_programs_too() {
    let (context, _queue, _device) = setup();
    let platform = opencl3::platform::get_platforms()
        .expect("platforms")
        .remove(0);
    // SAFETY: a live platform, a NUL-terminated name.
    let address = unsafe {
        clGetExtensionFunctionAddressForPlatform(
            platform.id(),
            c"clCreateProgramWithILKHR".as_ptr(),
        )
    };
    assert!(!address.is_null());
    // SAFETY: cl_khr_il_program's signature for this name.
    let create_khr: CreateProgramWithIl = unsafe { std::mem::transmute(address) };
    let module = spirv_from_assembly(SPEC_CONSTANTS);
    let mut status = 1;
    // SAFETY: `module.len()` bytes at a live pointer.
    let program = unsafe {
        create_khr(
            context.get(),
            module.as_ptr().cast(),
            module.len(),
            &mut status,
        )
    };
    assert_eq!(status, CL_SUCCESS);
    let program = Owned(program);
    assert_eq!(info_bytes(program.0, CL_PROGRAM_IL), module);
    // SAFETY: as above, with a NULL IL, refused before any read.
    let refused = unsafe { create_khr(context.get(), ptr::null(), 4, &mut status) };
    assert!(refused.is_null());
    assert_eq!(status, CL_INVALID_VALUE);
}

#[test]
fn specialization_constants_are_checked() {
    let (context, _queue, _device) = setup();
    let program = create(&context, &spirv_from_assembly(SPEC_CONSTANTS)).expect("program");
    assert_eq!(
        set_spec(program.0, 3, &1u32.to_le_bytes()),
        CL_INVALID_SPEC_ID
    );
    assert_eq!(
        set_spec(program.0, 1, &1u64.to_le_bytes()),
        CL_INVALID_VALUE
    );
    assert_eq!(
        set_spec(program.0, 2, &1u32.to_le_bytes()),
        CL_INVALID_VALUE
    );
    assert_eq!(set_spec(program.0, 1, &42u32.to_le_bytes()), CL_SUCCESS);
    assert_eq!(set_spec(program.0, 2, &9u64.to_le_bytes()), CL_SUCCESS);
    // SAFETY: a NULL value, refused before any read; NULL program too.
    unsafe {
        assert_eq!(
            clSetProgramSpecializationConstant(program.0, 1, 4, ptr::null()),
            CL_INVALID_VALUE
        );
        let value = 1u32;
        assert_eq!(
            clSetProgramSpecializationConstant(ptr::null_mut(), 1, 4, ptr::from_ref(&value).cast()),
            CL_INVALID_PROGRAM
        );
    }
    // Not created from an intermediate language.
    let source = Program::create_from_source(&context, VECADD).expect("source program");
    assert_eq!(
        set_spec(source.get(), 1, &1u32.to_le_bytes()),
        CL_INVALID_PROGRAM
    );
}

#[test]
fn spirv_objects_and_libraries_and_the_refused_mixed_link() {
    let (context, _queue, device) = setup();
    let il = create(&context, &spirv_from_assembly(SPEC_CONSTANTS)).expect("program");
    assert_eq!(
        compile(&il, device, "-cl-no-such-option"),
        CL_INVALID_COMPILER_OPTIONS
    );
    assert_eq!(compile(&il, device, "-cl-mad-enable"), CL_SUCCESS);
    assert_eq!(
        binary_type(il.0, device),
        CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
    );
    // The object's binary loads back as an object that still links.
    let reloaded = reload(&context, device, il.0);
    assert_eq!(
        binary_type(reloaded.0, device),
        CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
    );
    let (library, status) = link(&context, device, "-create-library", &[&il, &reloaded]);
    assert_eq!(status, CL_SUCCESS);
    let library = library.expect("library");
    assert_eq!(
        binary_type(library.0, device),
        CL_PROGRAM_BINARY_TYPE_LIBRARY
    );
    // A program made by a link was not created from IL.
    assert!(info_bytes(library.0, CL_PROGRAM_IL).is_empty());
    assert_eq!(
        set_spec(library.0, 1, &1u32.to_le_bytes()),
        CL_INVALID_PROGRAM
    );
    // SPIR-V and OpenCL C do not link together: the program comes back
    // with the reason in its log.
    let source = Program::create_from_source(&context, VECADD).expect("source program");
    let raw = source.get();
    // `Owned` releases it, not opencl3's wrapper.
    std::mem::forget(source);
    let source = Owned(raw);
    assert_eq!(compile(&source, device, ""), CL_SUCCESS);
    for inputs in [[&il, &source], [&source, &il]] {
        let (mixed, status) = link(&context, device, "", &inputs);
        assert_eq!(status, CL_LINK_PROGRAM_FAILURE);
        let mixed = mixed.expect("the failed link's program");
        assert!(
            build_log(mixed.0, device)
                .contains("error: linking SPIR-V IL with OpenCL C source is not supported"),
            "{}",
            build_log(mixed.0, device)
        );
    }
}

// The tests below run SPIR-V kernels: they need the translator's SPIR-V
// front end (`translator::Session::build_il`).

/// Builds `program` for the context's devices, panicking with the log.
fn build(program: &Owned, device: cl_device_id, options: &str) {
    let options = CString::new(options).expect("options");
    let status =
        opencl3::program::build_program(program.0, &[device], &options, None, ptr::null_mut());
    if let Err(status) = status {
        panic!("clBuildProgram: {status}\n{}", build_log(program.0, device));
    }
}

/// Runs `k(global uint *out)` of `program` once and returns `out[0..2]`.
fn run_spec_kernel(context: &Context, queue: &CommandQueue, program: &Owned) -> [u32; 2] {
    let raw = opencl3::kernel::create_kernel(program.0, c"k").expect("kernel");
    let kernel = Kernel::new(raw);
    // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
    let out = unsafe { Buffer::<u32>::create(context, CL_MEM_WRITE_ONLY, 2, ptr::null_mut()) }
        .expect("buffer");
    // SAFETY: the argument type matches the kernel's signature.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&out)
            .set_global_work_size(1)
            .enqueue_nd_range(queue)
    }
    .expect("enqueue");
    let mut host = [0u32; 2];
    // SAFETY: blocking, so `host` outlives the transfer.
    unsafe { queue.enqueue_read_buffer(&out, CL_BLOCKING, 0, &mut host, &[]) }.expect("read");
    host
}

#[test]
fn vecadd_compiled_by_clang_runs() {
    const N: usize = 1000;
    let (context, queue, device) = setup();
    let program = create(&context, &spirv_from_source(VECADD, "CL1.2")).expect("program");
    build(&program, device, "-cl-kernel-arg-info");
    let kernel = Kernel::new(opencl3::kernel::create_kernel(program.0, c"vecadd").expect("kernel"));
    // Argument information is only for source programs, whatever the
    // options said.
    assert_eq!(kernel.get_arg_type_name(0).err().map(|e| e.0), Some(-19));
    let a: Vec<f32> = (0..N).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..N).map(|i| 0.5 * (N - i) as f32).collect();
    let da = common::buffer_with(&context, &queue, &a);
    let db = common::buffer_with(&context, &queue, &b);
    // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
    let dc = unsafe { Buffer::<f32>::create(&context, CL_MEM_WRITE_ONLY, N, ptr::null_mut()) }
        .expect("buffer");
    let n = N as u32;
    // SAFETY: argument types match the kernel's signature.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&da)
            .set_arg(&db)
            .set_arg(&dc)
            .set_arg(&n)
            .set_global_work_size(N)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue");
    let c = common::read_buffer(&queue, &dc, N);
    for i in 0..N {
        assert_eq!(c[i], a[i] + b[i], "c[{i}]");
    }
}

#[test]
fn specialization_constants_take_their_defaults_and_set_values() {
    let (context, queue, device) = setup();
    let program = create(&context, &spirv_from_assembly(SPEC_CONSTANTS)).expect("program");
    build(&program, device, "");
    assert_eq!(run_spec_kernel(&context, &queue, &program), [7, 5]);
    assert_eq!(set_spec(program.0, 1, &42u32.to_le_bytes()), CL_SUCCESS);
    assert_eq!(
        set_spec(program.0, 2, &0x1_0000_0009u64.to_le_bytes()),
        CL_SUCCESS
    );
    // Values apply from the next build on.
    build(&program, device, "");
    assert_eq!(run_spec_kernel(&context, &queue, &program), [42, 9]);
}

#[test]
fn binaries_of_spirv_programs_build_again() {
    let (context, queue, device) = setup();
    let program = create(&context, &spirv_from_assembly(SPEC_CONSTANTS)).expect("program");
    assert_eq!(set_spec(program.0, 1, &42u32.to_le_bytes()), CL_SUCCESS);
    build(&program, device, "");
    let reloaded = reload(&context, device, program.0);
    // The binary kept the constants' values as built.
    build(&reloaded, device, "");
    assert_eq!(run_spec_kernel(&context, &queue, &reloaded), [42, 5]);
}

#[test]
fn spirv_objects_link_into_an_executable() {
    let (context, queue, device) = setup();
    let user = "uint scaled(uint x);
kernel void k(global uint *out) { out[0] = scaled(6); out[1] = scaled(1); }
";
    let defs = "uint scaled(uint x) { return 7 * x; }\n";
    let user = create(&context, &spirv_from_source(user, "CL1.2")).expect("user");
    let defs = create(&context, &spirv_from_source(defs, "CL1.2")).expect("defs");
    for object in [&user, &defs] {
        assert_eq!(compile(object, device, ""), CL_SUCCESS);
    }
    let (linked, status) = link(&context, device, "", &[&user, &defs]);
    let linked = linked.expect("linked program");
    assert_eq!(status, CL_SUCCESS, "{}", build_log(linked.0, device));
    assert_eq!(run_spec_kernel(&context, &queue, &linked), [42, 7]);
}

/// A library module as SYCL and chipStar ship them: exported helpers
/// taking generic pointers, 64-bit integer math.
const LIBRARY_MODULE: &str = "
ulong mix64(ulong x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdUL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53UL;
    return x ^ (x >> 33);
}
void accumulate(long *sum, const int *values, int n) {
    for (int i = 0; i < n; i++)
        *sum += (long)values[i] * values[i];
}
long floor_div(long a, long b) {
    long q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
";

/// The kernels' module: several kernels calling the library through
/// generic pointers to global, local and private memory.
const KERNEL_MODULE: &str = "
ulong mix64(ulong x);
void accumulate(long *sum, const int *values, int n);
long floor_div(long a, long b);

kernel void hash(global ulong *out) {
    size_t i = get_global_id(0);
    out[i] = mix64(i * 0x9E3779B97F4A7C15UL + 1);
}

kernel void squares(global long *out, global const int *in) {
    local int tile[16];
    size_t g = get_global_id(0), l = get_local_id(0);
    tile[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    long mine = 0;
    accumulate(&mine, &in[g], 1);
    long group = 0;
    accumulate(&group, tile, (int)get_local_size(0));
    out[2 * g] = mine;
    out[2 * g + 1] = group;
}

kernel void divide(global long *out, global const long *a, global const long *b) {
    size_t i = get_global_id(0);
    out[i] = floor_div(a[i], b[i]) + (a[i] >> 3) * (long)(b[i] < 0);
}
";

/// The host's `mix64`.
fn mix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ceb9fe1a85ec53);
    x ^ (x >> 33)
}

#[test]
fn a_linked_module_of_several_kernels_with_generic_pointers_and_64_bit_math_runs() {
    let (context, queue, device) = setup();
    let library = create(&context, &spirv_from_source(LIBRARY_MODULE, "CL2.0")).expect("library");
    let kernels = create(&context, &spirv_from_source(KERNEL_MODULE, "CL2.0")).expect("kernels");
    for object in [&library, &kernels] {
        assert_eq!(compile(object, device, ""), CL_SUCCESS);
    }
    let (linked, status) = link(&context, device, "", &[&kernels, &library]);
    let linked = linked.expect("linked program");
    assert_eq!(status, CL_SUCCESS, "{}", build_log(linked.0, device));
    let kernel = |name: &std::ffi::CStr| {
        Kernel::new(opencl3::kernel::create_kernel(linked.0, name).expect("kernel"))
    };
    const N: usize = 64;

    let hashes = common::buffer_with(&context, &queue, &[0u64; N]);
    let hash = kernel(c"hash");
    common::launch::set_arg(&hash, 0, &hashes.get());
    common::launch::run_1d(&queue, &hash, N, 16);
    let want: Vec<u64> = (0..N as u64)
        .map(|i| mix64(i.wrapping_mul(0x9E3779B97F4A7C15).wrapping_add(1)))
        .collect();
    assert_eq!(common::read_buffer::<u64>(&queue, &hashes, N), want, "hash");

    let input: Vec<i32> = (0..N as i32).map(|i| (i * 7919) % 2003 - 1000).collect();
    let din = common::buffer_with(&context, &queue, &input);
    let sums = common::buffer_with(&context, &queue, &[0i64; 2 * N]);
    let squares = kernel(c"squares");
    common::launch::set_arg(&squares, 0, &sums.get());
    common::launch::set_arg(&squares, 1, &din.get());
    common::launch::run_1d(&queue, &squares, N, 16);
    let got = common::read_buffer::<i64>(&queue, &sums, 2 * N);
    for (g, &x) in input.iter().enumerate() {
        let group: i64 = input[g / 16 * 16..g / 16 * 16 + 16]
            .iter()
            .map(|&v| v as i64 * v as i64)
            .sum();
        assert_eq!(
            [got[2 * g], got[2 * g + 1]],
            [x as i64 * x as i64, group],
            "squares {g}"
        );
    }

    let a: Vec<i64> = (0..N as i64)
        .map(|i| (i - 32) * 1_000_000_007 + i)
        .collect();
    let b: Vec<i64> = (0..N as i64)
        .map(|i| if i % 3 == 0 { -(i + 3) } else { i + 5 })
        .collect();
    let (da, db) = (
        common::buffer_with(&context, &queue, &a),
        common::buffer_with(&context, &queue, &b),
    );
    let quotients = common::buffer_with(&context, &queue, &[0i64; N]);
    let divide = kernel(c"divide");
    common::launch::set_arg(&divide, 0, &quotients.get());
    common::launch::set_arg(&divide, 1, &da.get());
    common::launch::set_arg(&divide, 2, &db.get());
    common::launch::run_1d(&queue, &divide, N, 16);
    let want: Vec<i64> = a
        .iter()
        .zip(&b)
        .map(|(&a, &b)| floor_div(a, b) + (a >> 3) * (b < 0) as i64)
        .collect();
    assert_eq!(
        common::read_buffer::<i64>(&queue, &quotients, N),
        want,
        "divide"
    );
}

/// The host's `floor_div`.
fn floor_div(a: i64, b: i64) -> i64 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// `out[i] = i` with the global id read from a built-in variable declared
/// `UniformConstant`, as older SPIR-V generators wrote them (pyopencl's
/// `add-vectors` modules): a built-in by its decoration, not its storage.
const UNIFORM_CONSTANT_BUILTIN: &str = "
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k \"k\"
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
      %ulong = OpTypeInt 64 0
       %uint = OpTypeInt 32 0
    %v3ulong = OpTypeVector %ulong 3
     %ptr_in = OpTypePointer UniformConstant %v3ulong
       %void = OpTypeVoid
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr
        %gid = OpVariable %ptr_in UniformConstant
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr
      %entry = OpLabel
        %ids = OpLoad %v3ulong %gid
          %i = OpCompositeExtract %ulong %ids 0
        %i32 = OpUConvert %uint %i
         %at = OpInBoundsPtrAccessChain %ptr %out %i
               OpStore %at %i32 Aligned 4
               OpReturn
               OpFunctionEnd
";

#[test]
fn built_in_variables_of_any_storage_class_read_the_work_item() {
    let (context, queue, device) = setup();
    let program =
        create(&context, &spirv_from_assembly(UNIFORM_CONSTANT_BUILTIN)).expect("program");
    build(&program, device, "");
    let kernel = Kernel::new(opencl3::kernel::create_kernel(program.0, c"k").expect("kernel"));
    const N: usize = 64;
    let out = common::buffer_with(&context, &queue, &[u32::MAX; N]);
    common::launch::set_arg(&kernel, 0, &out.get());
    common::launch::run_1d(&queue, &kernel, N, 16);
    let want: Vec<u32> = (0..N as u32).collect();
    assert_eq!(common::read_buffer::<u32>(&queue, &out, N), want);
}

/// A module defining `uint h(uint)` as `x * factor` with `linkage`
/// (`LinkOnceODR` or `Export`).
fn helper_module(linkage: &str, factor: u32) -> String {
    format!(
        "
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpExtension \"SPV_KHR_linkonce_odr\"
               OpMemoryModel Physical64 OpenCL
               OpDecorate %h LinkageAttributes \"h\" {linkage}
       %uint = OpTypeInt 32 0
     %factor = OpConstant %uint {factor}
         %fn = OpTypeFunction %uint %uint
          %h = OpFunction %uint None %fn
          %x = OpFunctionParameter %uint
      %entry = OpLabel
          %y = OpIMul %uint %x %factor
               OpReturnValue %y
               OpFunctionEnd
"
    )
}

/// `k(out)`: `out[0] = h(6)`, `out[1] = h(1)`, with `h` imported.
const HELPER_USER: &str = "
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k \"k\"
               OpDecorate %h LinkageAttributes \"h\" Import
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %uint_6 = OpConstant %uint 6
     %uint_1 = OpConstant %uint 1
    %ulong_1 = OpConstant %ulong 1
        %ptr = OpTypePointer CrossWorkgroup %uint
       %hsig = OpTypeFunction %uint %uint
       %ksig = OpTypeFunction %void %ptr
          %h = OpFunction %uint None %hsig
          %x = OpFunctionParameter %uint
               OpFunctionEnd
          %k = OpFunction %void None %ksig
        %out = OpFunctionParameter %ptr
      %entry = OpLabel
         %a = OpFunctionCall %uint %h %uint_6
               OpStore %out %a Aligned 4
         %b = OpFunctionCall %uint %h %uint_1
     %second = OpInBoundsPtrAccessChain %ptr %out %ulong_1
               OpStore %second %b Aligned 4
               OpReturn
               OpFunctionEnd
";

#[test]
fn linkonce_odr_definitions_link_once_and_exports_only_once() {
    let (context, queue, device) = setup();
    let object = |assembly: &str| {
        let program = create(&context, &spirv_from_assembly(assembly)).expect("program");
        assert_eq!(compile(&program, device, ""), CL_SUCCESS);
        program
    };
    let user = object(HELPER_USER);
    // Two LinkOnceODR definitions of `h` (the same function, as the
    // extension promises): one is kept.
    let odr = [
        object(&helper_module("LinkOnceODR", 7)),
        object(&helper_module("LinkOnceODR", 7)),
    ];
    let (linked, status) = link(&context, device, "", &[&user, &odr[0], &odr[1]]);
    let linked = linked.expect("linked program");
    assert_eq!(status, CL_SUCCESS, "{}", build_log(linked.0, device));
    assert_eq!(run_spec_kernel(&context, &queue, &linked), [42, 7]);
    // Two exports of one name are an error of the link.
    let exports = [
        object(&helper_module("Export", 7)),
        object(&helper_module("Export", 3)),
    ];
    let (failed, status) = link(&context, device, "", &[&user, &exports[0], &exports[1]]);
    assert_eq!(status, CL_LINK_PROGRAM_FAILURE);
    let log = build_log(failed.expect("the failed link's program").0, device);
    assert!(
        log.contains("function 'h' is exported by two modules"),
        "{log}"
    );
}

/// `k(out)`: `out[0]` is this module's constant with SpecId 1 (default 7),
/// `out[1]` what the imported `other()` returns.
const SPEC_USER: &str = "
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k \"k\"
               OpDecorate %value SpecId 1
               OpDecorate %other LinkageAttributes \"other\" Import
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %ulong_1 = OpConstant %ulong 1
      %value = OpSpecConstant %uint 7
        %ptr = OpTypePointer CrossWorkgroup %uint
       %osig = OpTypeFunction %uint
       %ksig = OpTypeFunction %void %ptr
      %other = OpFunction %uint None %osig
               OpFunctionEnd
          %k = OpFunction %void None %ksig
        %out = OpFunctionParameter %ptr
      %entry = OpLabel
               OpStore %out %value Aligned 4
          %b = OpFunctionCall %uint %other
     %second = OpInBoundsPtrAccessChain %ptr %out %ulong_1
               OpStore %second %b Aligned 4
               OpReturn
               OpFunctionEnd
";

/// `uint other(void)`: its own constant with SpecId 1 (default 5).
const SPEC_OTHER: &str = "
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpDecorate %value SpecId 1
               OpDecorate %other LinkageAttributes \"other\" Export
       %uint = OpTypeInt 32 0
      %value = OpSpecConstant %uint 5
       %osig = OpTypeFunction %uint
      %other = OpFunction %uint None %osig
      %entry = OpLabel
               OpReturnValue %value
               OpFunctionEnd
";

#[test]
fn specialization_constants_of_linked_modules_are_each_their_own() {
    let (context, queue, device) = setup();
    let user = create(&context, &spirv_from_assembly(SPEC_USER)).expect("user");
    let other = create(&context, &spirv_from_assembly(SPEC_OTHER)).expect("other");
    assert_eq!(set_spec(user.0, 1, &42u32.to_le_bytes()), CL_SUCCESS);
    for object in [&user, &other] {
        assert_eq!(compile(object, device, ""), CL_SUCCESS);
    }
    let (linked, status) = link(&context, device, "", &[&user, &other]);
    let linked = linked.expect("linked program");
    assert_eq!(status, CL_SUCCESS, "{}", build_log(linked.0, device));
    // SpecId 1 of the other module keeps its default.
    assert_eq!(run_spec_kernel(&context, &queue, &linked), [42, 5]);
}
