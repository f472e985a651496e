//! C++ for OpenCL object lifetimes through the loader (issue 22): copy and
//! move constructors, copy assignment operators and destructors run where
//! C++ runs them, on locals, members, bases, array elements, temporaries,
//! by-value parameters and return values. Each kernel leaves a trace of
//! constructions (an object's id) and destructions (its negation); the
//! expected traces are the same source's as host C++17 (see the kernel
//! file).

mod common;

use opencl3::kernel::Kernel;

use common::launch::{build_file, run_1d, set_arg};
use common::{buffer_with, read_buffer};

/// Runs `name` from `tests/kernels/cxx_lifetimes.cl` on one work-item
/// and gives its first `n` outputs.
fn run(name: &str, n: usize) -> Vec<i32> {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_lifetimes.cl");
    let kernel = Kernel::create(&program, name).expect("kernel");
    let out = buffer_with(&context, &queue, &[i32::MIN; 24]);
    set_arg(&kernel, 0, &out);
    run_1d(&queue, &kernel, 1, 1);
    read_buffer::<i32>(&queue, &out, n)
}

/// The trace a kernel reported in its first 20 outputs, without the
/// zeros after it.
fn trace(out: &[i32]) -> Vec<i32> {
    out[..20].iter().copied().take_while(|&v| v != 0).collect()
}

#[test]
fn copies_temporaries_and_parameters_are_constructed_and_destroyed() {
    let out = run("copies", 23);
    let want = [
        7, 107, 9, -9, 107, -107, 40, 41, -41, -40, 1, 2, -2, -1, -107, -7,
    ];
    assert_eq!(trace(&out), want);
    assert_eq!(out[20..23], [9, 107, 41]);
}

#[test]
fn named_return_values_are_returned_without_a_copy() {
    let out = run("returns", 22);
    assert_eq!(trace(&out), [3, -4, 5, 6, 105, -6, -5, -105]);
    assert_eq!(out[20..22], [4, 105]);
}

#[test]
fn implicit_copies_assignments_and_destructors_run_members_own() {
    let out = run("members", 22);
    let want = [
        3, 103, 1003, 4, 1, -2, 6, 8, 9, -9, -509, -8, -6, -4, -1003, -3,
    ];
    assert_eq!(trace(&out), want);
    assert_eq!(out[20..22], [2, 9]);
}

#[test]
fn loop_variables_and_structured_bindings_are_copies() {
    let out = run("loops", 22);
    let want = [1, 2, 101, -101, 102, -102, -1007, -1007, -2, -1];
    assert_eq!(trace(&out), want);
    assert_eq!(out[20..22], [203, 34]);
}

#[test]
fn move_constructors_run_on_casts_to_rvalue_references() {
    assert_eq!(run("moves", 4), [0, 6, 8, 0]);
}
