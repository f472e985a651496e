//! C++ for OpenCL namespaces through the loader (issue 22): qualified
//! names, nested and reopened namespaces, unnamed namespaces, aliases,
//! using-directives and using-declarations, and a namespace's classes,
//! templates, enums and typedefs. Each namespace's names are its own: a
//! namespace's `twice` is not an overload of the global `twice`.

mod common;

use opencl3::kernel::Kernel;

use common::launch::{build_file, run_1d, set_arg};
use common::{buffer_with, read_buffer};

#[test]
fn qualified_names_find_each_namespace_member() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_namespaces.cl");
    let kernel = Kernel::create(&program, "qualified").expect("kernel");
    let out = buffer_with(&context, &queue, &[i32::MIN; 15]);
    let floats = buffer_with(&context, &queue, &[f32::NAN; 2]);
    set_arg(&kernel, 0, &out);
    set_arg(&kernel, 1, &floats);
    run_1d(&queue, &kernel, 1, 1);
    let want = [40, 8, 10, 23, 9, 32, 12, 42, 9, 2, 21, 7, 8, 11, 1010];
    assert_eq!(read_buffer::<i32>(&queue, &out, 15), want);
    assert_eq!(read_buffer::<f32>(&queue, &floats, 2), [3.5, 6.0]);
}

#[test]
fn using_directives_and_declarations_bring_names_in_for_their_scope() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_namespaces.cl");
    let kernel = Kernel::create(&program, "usings").expect("kernel");
    let out = buffer_with(&context, &queue, &[i32::MIN; 4]);
    set_arg(&kernel, 0, &out);
    run_1d(&queue, &kernel, 1, 1);
    assert_eq!(read_buffer::<i32>(&queue, &out, 4), [30, 2, 2, 42]);
}

#[test]
fn class_members_hide_namespace_members_of_their_name() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_namespaces.cl");
    let kernel = Kernel::create(&program, "members").expect("kernel");
    let out = buffer_with(&context, &queue, &[i32::MIN; 4]);
    set_arg(&kernel, 0, &out);
    run_1d(&queue, &kernel, 1, 1);
    assert_eq!(read_buffer::<i32>(&queue, &out, 4), [3, 4, 18, 21]);
}
