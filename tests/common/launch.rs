//! Building kernel files and one-dimensional launches, for the tests that
//! drive many small kernels by hand.

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::program::Program;

/// Builds a kernel file; a first line `// options: ...` gives the options.
/// With `CLVULKAN_TEST_IL=1`, an OpenCL C file goes through SPIR-V
/// instead ([`build_file_as_il`]); C++ for OpenCL is built from source
/// either way.
pub fn build_file(context: &Context, file: &str) -> Program {
    let source = std::fs::read_to_string(super::repo_path(file)).expect("kernel source");
    let options = source
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// options:"))
        .unwrap_or("")
        .trim()
        .to_string();
    let not_through_il = NOT_THROUGH_IL.iter().any(|(name, _)| file.ends_with(name));
    if super::il::il_mode() && !options.contains("-cl-std=CLC++") && !not_through_il {
        return build_file_as_il(context, &source, &options);
    }
    Program::create_and_build_from_source(context, &source, &options)
        .unwrap_or_else(|log| panic!("build failed:\n{log}"))
}

/// Builds `source` with `options`, through SPIR-V with
/// `CLVULKAN_TEST_IL=1` as [`build_file`] does; panics with the log if it
/// fails.
pub fn build_source(context: &Context, source: &str, options: &str) -> Program {
    if super::il::il_mode() && !options.contains("-cl-std=CLC++") {
        return build_file_as_il(context, source, options);
    }
    Program::create_and_build_from_source(context, source, options)
        .unwrap_or_else(|log| panic!("build failed:\n{log}\n{source}"))
}

/// Kernel files the `CLVULKAN_TEST_IL` pass builds from source, and why:
/// what clang and llvm-spirv make of them is refused with a clear build
/// error (the README's "SPIR-V programs" lists these limits).
const NOT_THROUGH_IL: &[(&str, &str)] = &[
    (
        "pointer_members.cl",
        "structs with pointer members copied as bytes (LLVM's memcpy of a struct)",
    ),
    (
        "pointers_records.cl",
        "llvm-spirv-15 aborts on its float atomic_compare_exchange",
    ),
    (
        "pointer_arrays_program.cl",
        "rspirv 0.13 cannot read OpSpecConstantOp PtrAccessChain (program-scope pointer initializers)",
    ),
    (
        "pointer_spaces_program_pointers.cl",
        "rspirv 0.13 cannot read OpSpecConstantOp PtrAccessChain (program-scope pointer initializers)",
    ),
    (
        "pointer_spaces_atomics.cl",
        "atomics on __local float memory through a pointer the module keeps in a variable",
    ),
    (
        "pointer_spaces_integers.cl",
        "integers converted to pointers in ways the pointer model cannot follow through LLVM's code",
    ),
    (
        "pointers_integers.cl",
        "integers converted to pointers in ways the pointer model cannot follow through LLVM's code",
    ),
];

/// `source` compiled to SPIR-V by clang, in the `-cl-std` of `options`
/// (CL1.2 if none) and with its `-D` defines (and `-cl-kernel-arg-info`,
/// which makes clang keep the parameter names), then built by
/// `clCreateProgramWithIL` with the options left.
fn build_file_as_il(context: &Context, source: &str, options: &str) -> Program {
    let mut cl_std = "CL1.2".to_owned();
    let mut clang = Vec::new();
    let mut build = Vec::new();
    let mut words = options.split_whitespace();
    while let Some(word) = words.next() {
        if let Some(std) = word.strip_prefix("-cl-std=") {
            cl_std = std.to_owned();
        } else if word == "-D" {
            clang.push(format!("-D{}", words.next().unwrap_or_default()));
        } else if word.starts_with("-D") {
            clang.push(word.to_owned());
        } else {
            if word == "-cl-kernel-arg-info" {
                clang.push(word.to_owned());
            }
            build.push(word);
        }
    }
    let il = super::il::spirv_from_source_with(source, &cl_std, &clang);
    let mut program = Program::create_from_il(context, &il).expect("clCreateProgramWithIL");
    if let Err(error) = program.build(context.devices(), &build.join(" ")) {
        let device = context.devices()[0];
        let log = program.get_build_log(device).unwrap_or_default();
        panic!("build of the SPIR-V failed ({error}):\n{log}");
    }
    program
}

/// Runs `kernel` over `global` work-items in groups of `local`.
pub fn run_1d(queue: &CommandQueue, kernel: &Kernel, global: usize, local: usize) {
    let (global, local) = ([global], [local]);
    // SAFETY: each caller set every argument of the kernel to match it;
    // the sizes are one-dimensional arrays that outlive the call.
    unsafe {
        queue.enqueue_nd_range_kernel(
            kernel.get(),
            1,
            std::ptr::null(),
            global.as_ptr(),
            local.as_ptr(),
            &[],
        )
    }
    .expect("launch");
    queue.finish().expect("finish");
}

/// Sets argument `i` of `kernel`.
pub fn set_arg<T>(kernel: &Kernel, i: u32, value: &T) {
    // SAFETY: the callers pass the type of the kernel's parameter `i`.
    unsafe { kernel.set_arg(i, value) }.expect("set_arg");
}

/// Runs `kernel` of `program` over `work_items`, with `args` set by
/// `set_args`, and waits for it.
pub fn launch(
    queue: &CommandQueue,
    program: &Program,
    kernel: &str,
    work_items: usize,
    set_args: impl FnOnce(&mut ExecuteKernel),
) {
    let kernel = Kernel::create(program, kernel).expect("kernel");
    let mut execute = ExecuteKernel::new(&kernel);
    set_args(&mut execute);
    // SAFETY: every argument the kernel declares was set by `set_args`,
    // with buffers large enough for what it writes.
    let event = unsafe {
        execute
            .set_global_work_size(work_items)
            .enqueue_nd_range(queue)
    }
    .expect("enqueue");
    event.wait().expect("wait");
}
