//! C++ for OpenCL through the loader (issue 22): `-cl-std=CLC++`,
//! `CLC++1.0` and `CLC++2021` build the language's C subset with C++'s
//! rules (`tests/kernels/cxx_c_subset.cl` computes what would differ in
//! C); a feature clvulkan's C++ lacks yet is a build error that names it;
//! and the device claims `cl_ext_cxx_for_opencl` at the version
//! `-cl-std=CLC++` builds.

mod common;

use opencl3::device::Device;
use opencl3::kernel::Kernel;
use opencl3::program::Program;

use common::launch::{build_file, run_1d, set_arg};
use common::{buffer_with, read_buffer};

#[test]
fn the_c_subset_follows_cxx_rules() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_c_subset.cl");
    let kernel = Kernel::create(&program, "differences").expect("kernel");
    let (lo, hi) = (3, 7);
    let input = buffer_with(&context, &queue, &[lo, hi]);
    let out = buffer_with(&context, &queue, &[i32::MIN; 16]);
    set_arg(&kernel, 0, &out);
    set_arg(&kernel, 1, &input);
    run_1d(&queue, &kernel, 1, 1);
    let got = read_buffer(&queue, &out, 16);
    let want = [1, 1, 1, 1, 1, 2, lo + 2, 5, 1, 100, 1, 1, 1, -1, -1, 0];
    assert_eq!(got, want);
}

#[test]
fn every_cxx_version_builds_and_reports_its_macros() {
    let (context, _queue) = common::context_and_queue();
    let source = "__kernel void k(__global int *out) {\n\
        out[0] = __OPENCL_CPP_VERSION__ + (__cplusplus == 201703L);\n\
        #ifdef __OPENCL_C_VERSION__\n#error C's version macro in C++\n#endif\n}\n";
    for option in ["-cl-std=CLC++", "-cl-std=CLC++1.0", "-cl-std=clc++2021"] {
        Program::create_and_build_from_source(&context, source, option)
            .unwrap_or_else(|log| panic!("{option}: {log}"));
    }
}

#[test]
fn missing_cxx_features_are_named_build_errors() {
    let (context, _queue) = common::context_and_queue();
    let source = "void *operator new(size_t, void *p) { return p; }\n\
        __kernel void k(__global int *out) { int a[4]; new (a) int[4]; out[0] = 1; }\n";
    let log = Program::create_and_build_from_source(&context, source, "-cl-std=CLC++")
        .expect_err("array placement new is not there yet");
    assert!(
        log.contains(
            "2:59: error: placement new-expressions of arrays and pointers are not supported by clvulkan's C++ for OpenCL yet"
        ),
        "{log}"
    );
    // In OpenCL C the same words are plain identifiers.
    let c_source = "__kernel void k(__global int *out) { int class = 1, template = 2, namespace = 3, mutable = 4; out[0] = class + template + namespace + mutable; }";
    Program::create_and_build_from_source(&context, c_source, "-cl-std=CL3.0")
        .unwrap_or_else(|log| panic!("{log}"));
}

#[test]
fn the_device_claims_the_cxx_extension_at_the_version_clcxx_builds() {
    let (context, queue) = common::context_and_queue();
    let device = Device::new(context.devices()[0]);
    let extensions = device.extensions().expect("extensions");
    assert!(extensions.contains("cl_ext_cxx_for_opencl"), "{extensions}");
    let bytes = opencl3::device::get_device_data(device.id(), 0x4230)
        .expect("CL_DEVICE_CXX_FOR_OPENCL_NUMERIC_VERSION_EXT");
    let version = u32::from_ne_bytes(bytes[..].try_into().expect("a cl_version"));
    let (major, minor, patch) = (version >> 22, (version >> 12) & 0x3ff, version & 0xfff);
    // A program-scope variable two kernels share through a template
    // taking references, and the version macro, in one program.
    let source = "__global int stash;\n\
        template <typename T> void triple(T &to, const T &from) { to = from * 3; }\n\
        __kernel void keep(__global int *p) { triple(stash, *p); }\n\
        __kernel void give(__global int *p) { triple(*p, stash); p[1] = __OPENCL_CPP_VERSION__; }\n";
    let program = Program::create_and_build_from_source(&context, source, "-cl-std=CLC++")
        .unwrap_or_else(|log| panic!("{log}"));
    let first = buffer_with(&context, &queue, &[7, 0]);
    let second = buffer_with(&context, &queue, &[0, 0]);
    for (name, buffer) in [("keep", &first), ("give", &second)] {
        let kernel = Kernel::create(&program, name).expect("kernel");
        set_arg(&kernel, 0, buffer);
        run_1d(&queue, &kernel, 1, 1);
    }
    let want = (major * 100 + minor * 10 + patch) as i32;
    assert_eq!(read_buffer::<i32>(&queue, &second, 2), [63, want]);
    assert_eq!(want, 100);
}

#[test]
fn const_and_constexpr_integers_are_constant_expressions() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_c_subset.cl");
    let kernel = Kernel::create(&program, "constants").expect("kernel");
    for (v, picked) in [(3, 30), (8, 80), (65535, 65535), (5, -1)] {
        let input = buffer_with(&context, &queue, &[v]);
        let out = buffer_with(&context, &queue, &[0i32; 2]);
        set_arg(&kernel, 0, &out);
        set_arg(&kernel, 1, &input);
        run_1d(&queue, &kernel, 1, 1);
        assert_eq!(read_buffer(&queue, &out, 2), [picked, 6 + 3 * v], "v = {v}");
    }
}

#[test]
fn auto_deduces_and_using_names_types() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_c_subset.cl");
    let kernel = Kernel::create(&program, "deduced").expect("kernel");
    let input = buffer_with(&context, &queue, &[2.75f32]);
    let out = buffer_with(&context, &queue, &[0i32; 4]);
    set_arg(&kernel, 0, &out);
    set_arg(&kernel, 1, &input);
    run_1d(&queue, &kernel, 1, 1);
    // 5.5 truncated; 2^40 >> 38; char + bool + ulong + float; false + 3.
    assert_eq!(read_buffer(&queue, &out, 4), [5, 4, 1 + 1 + 8 + 4, 3]);
}

#[test]
fn references_bind_and_write_through_in_every_space() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_c_subset.cl");
    let kernel = Kernel::create(&program, "references").expect("kernel");
    let o = buffer_with(&context, &queue, &[4, 7, 0, 0, 0, 0]);
    let p = buffer_with(&context, &queue, &[100]);
    set_arg(&kernel, 0, &o);
    set_arg(&kernel, 1, &p);
    // SAFETY: parameter 2 is a `__local int *`.
    unsafe { kernel.set_arg_local_buffer(2, 4 * 4) }.expect("local");
    run_1d(&queue, &kernel, 1, 1);
    // v: 4 + 1, times 10 = 50; o[1]: 7 + 1; the sum: 50 + 6 + 100 + 7 +
    // 50 + p[0] + 6; cells[2] + sizeof(int); l[0]: 5 + 1.
    assert_eq!(read_buffer(&queue, &o, 6), [4, 8, 319, 13, 6, 50]);
}

#[test]
fn default_arguments_fill_in_what_calls_leave_out() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_c_subset.cl");
    let kernel = Kernel::create(&program, "defaults").expect("kernel");
    let o = buffer_with(&context, &queue, &[0i32; 4]);
    let f = buffer_with(&context, &queue, &[0f32]);
    set_arg(&kernel, 0, &o);
    set_arg(&kernel, 1, &f);
    run_1d(&queue, &kernel, 1, 1);
    // 2 * 5 - 1; 3 * 5 - 1; 3 * 5 + 4; 1 + (uchar)300.
    assert_eq!(read_buffer(&queue, &o, 4), [9, 14, 19, 45]);
    assert_eq!(read_buffer(&queue, &f, 1), [2.0 * 0.25 - 1.5]);
}

#[test]
fn overloaded_functions_resolve_by_their_arguments() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_c_subset.cl");
    let kernel = Kernel::create(&program, "overloads").expect("kernel");
    let o = buffer_with(&context, &queue, &[0i32; 11]);
    set_arg(&kernel, 0, &o);
    run_1d(&queue, &kernel, 1, 1);
    assert_eq!(
        read_buffer(&queue, &o, 11),
        [1, 2, 3, 4, 1, 1, 100, 200, 6, -1, 1]
    );
}

#[test]
fn range_based_for_walks_arrays_in_every_space() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_range_for.cl");
    let kernel = Kernel::create(&program, "range_for").expect("kernel");
    let out = buffer_with(&context, &queue, &[i32::MIN; 8]);
    let three = buffer_with(&context, &queue, &[1, 2, 3]);
    set_arg(&kernel, 0, &out);
    set_arg(&kernel, 1, &three);
    run_1d(&queue, &kernel, 1, 1);
    // Sums by value, doubled through `auto &`, `continue` and `break`,
    // over structs, over the rows of a 2D array, over a `__local` array,
    // over a `__global` array member through `auto &`, and over a row
    // chosen once.
    assert_eq!(
        read_buffer::<i32>(&queue, &out, 8),
        [10, 8, 8, 14, 21, 40, 9, 32]
    );
    assert_eq!(read_buffer::<i32>(&queue, &three, 3), [2, 3, 4]);
}

#[test]
fn range_based_for_walks_classes_with_begin_and_end() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_range_for.cl");
    let kernel = Kernel::create(&program, "range_for_classes").expect("kernel");
    let data = [1, 2, 3, 4];
    let floats = [100.0f32, 1.5, 2.5, 3.0];
    let ints = buffer_with(&context, &queue, &data);
    let f = buffer_with(&context, &queue, &floats);
    let out = buffer_with(&context, &queue, &[i32::MIN; 2]);
    set_arg(&kernel, 0, &ints);
    set_arg(&kernel, 1, &f);
    set_arg(&kernel, 2, &out);
    run_1d(&queue, &kernel, 1, 1);
    let tripled: Vec<i32> = data.iter().map(|v| v * 3).collect();
    assert_eq!(read_buffer::<i32>(&queue, &ints, 4), tripled);
    let total: f32 = floats[1..].iter().sum();
    let want = [tripled.iter().sum::<i32>(), total as i32];
    assert_eq!(read_buffer::<i32>(&queue, &out, 2), want);
}

#[test]
fn lambdas_capture_by_copy_and_run_directly_and_in_templates() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_lambdas.cl");
    let kernel = Kernel::create(&program, "lambdas").expect("kernel");
    let ints = buffer_with(&context, &queue, &[i32::MIN; 8]);
    let floats = buffer_with(&context, &queue, &[f32::NAN; 1]);
    set_arg(&kernel, 0, &ints);
    set_arg(&kernel, 1, &floats);
    run_1d(&queue, &kernel, 1, 1);
    assert_eq!(
        read_buffer::<i32>(&queue, &ints, 8),
        [15, 36, 1012, 42, 14, 9, 77, 16]
    );
    assert_eq!(read_buffer::<f32>(&queue, &floats, 1), [2.5]);
}

#[test]
fn auto_and_decltype_deduce_address_spaces_as_seed_004_says() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_deduction.cl");
    let kernel = Kernel::create(&program, "deduction").expect("kernel");
    let out = buffer_with(&context, &queue, &[i32::MIN; 3]);
    set_arg(&kernel, 0, &out);
    run_1d(&queue, &kernel, 1, 1);
    // `auto *` and `auto *&` to a `__local int`, `decltype(i) *` of it,
    // `__constant auto`, and `auto *` to `__global` and `const` data.
    assert_eq!(read_buffer::<i32>(&queue, &out, 3), [22, 5, 4]);
}

#[test]
fn lambdas_capturing_by_reference_change_the_variables() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_lambdas.cl");
    let kernel = Kernel::create(&program, "references").expect("kernel");
    let ints = buffer_with(&context, &queue, &[i32::MIN; 4]);
    set_arg(&kernel, 0, &ints);
    run_1d(&queue, &kernel, 1, 1);
    assert_eq!(read_buffer::<i32>(&queue, &ints, 4), [7, 2, 17, 1107]);
}

#[test]
fn generic_lambdas_capture_by_reference() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_lambdas.cl");
    let kernel = Kernel::create(&program, "generic_reference_captures").expect("kernel");
    let input = [4, 5, 6];
    let ints = buffer_with(&context, &queue, &input);
    let out = buffer_with(&context, &queue, &[i32::MIN; 2]);
    let floats = buffer_with(&context, &queue, &[f32::NAN; 1]);
    set_arg(&kernel, 0, &ints);
    set_arg(&kernel, 1, &out);
    set_arg(&kernel, 2, &floats);
    run_1d(&queue, &kernel, 1, 1);
    // `int += float` converts the sum back to `int`, truncating.
    let first = ((input[0] + input[1]) as f32 + 2.75) as i32;
    let second = ((first + input[2]) as f32 + 0.5) as i32;
    assert_eq!(read_buffer::<i32>(&queue, &out, 2), [first, second]);
    assert_eq!(
        read_buffer::<f32>(&queue, &floats, 1),
        [input[2] as f32 + 0.5]
    );
}

#[test]
fn structured_bindings_name_a_class_members() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_deduction.cl");
    let kernel = Kernel::create(&program, "bindings").expect("kernel");
    let out = buffer_with(&context, &queue, &[f32::NAN; 3]);
    set_arg(&kernel, 0, &out);
    run_1d(&queue, &kernel, 1, 1);
    // 7 + 3.5; by reference, `x = 10` changed `s`; by copy, `u = 1000`
    // did not.
    assert_eq!(read_buffer::<f32>(&queue, &out, 3), [10.5, 12.0, 12.0]);
}

#[test]
fn objects_are_list_initialized_defaulted_and_constructed_in_arrays() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_deduction.cl");
    let kernel = Kernel::create(&program, "initialization").expect("kernel");
    let out = buffer_with(&context, &queue, &[i32::MIN; 7]);
    let seed = 3;
    set_arg(&kernel, 0, &out);
    set_arg(&kernel, 1, &seed);
    run_1d(&queue, &kernel, 4, 4);
    // `Plain()` is zero, `Plain{3, 0.5f}` 3 + 5; `Pair{4, 5}.swapped()`
    // returns `{5, 4}`; each of `h.parts` ran the default constructor (7)
    // `row` is 3..6 and 1000 more through `alias`;
    // `shared` is 100..104.
    let row_total = 3 + 4 + 5 + 6 + 1000;
    let want = [8, 32, 54, 777, 12, 4 * 10000 + row_total, 510];
    assert_eq!(read_buffer::<i32>(&queue, &out, 7), want);
}

#[test]
fn generic_lambdas_make_an_instance_for_each_call() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_lambdas.cl");
    let kernel = Kernel::create(&program, "generic_lambdas").expect("kernel");
    let ints = buffer_with(&context, &queue, &[i32::MIN; 6]);
    set_arg(&kernel, 0, &ints);
    set_arg(&kernel, 1, &3);
    run_1d(&queue, &kernel, 1, 1);
    // add<float, float>(1.5f, 2.25f) = 3.75; scaled(4) = 12 and
    // scaled(0.5f) = 1.5f.
    assert_eq!(
        read_buffer::<i32>(&queue, &ints, 6),
        [3, 375, 27, 15, 54321, 42]
    );
}

#[test]
fn friends_constexpr_functions_and_address_space_traits_work() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_deduction.cl");
    let kernel = Kernel::create(&program, "language_features").expect("kernel");
    let out = buffer_with(&context, &queue, &[i32::MIN; 7]);
    set_arg(&kernel, 0, &out);
    run_1d(&queue, &kernel, 1, 1);
    // inner((3, 6), (1, 2)) = 15; 4 + 6 ints; 6 = 0b110 reversed in 3
    // bits is 3, log2(1024) = 10; out[3] is written by `bump` (space 1,
    // its value i32::MIN + 1) and then set to 10; `shared` is 40 + 1, in
    // space 2; `alignas` lays out as the host's C++ compiler does (16,
    // 16 and 16).
    let got = read_buffer::<i32>(&queue, &out, 7);
    assert_eq!(got, [15, 10, 310, 10, 2041, 23, 1776]);
}

#[test]
fn placement_new_constructs_objects_where_it_is_told() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_deduction.cl");
    let kernel = Kernel::create(&program, "placement_new").expect("kernel");
    let seed = 5;
    let mut ints = [i32::MIN; 10];
    ints[0] = seed;
    let out = buffer_with(&context, &queue, &ints);
    let floats = buffer_with(&context, &queue, &[1.25f32, f32::NAN]);
    set_arg(&kernel, 0, &out);
    set_arg(&kernel, 1, &floats);
    run_1d(&queue, &kernel, 1, 1);
    // `c` made again from `seed`; `seed + 40` and one more; 7 and the
    // zero of `int()`; `Sample{3, 1.25}`; a `Cell(seed + 4)` in `out[8..10]`.
    let want = [
        seed,
        seed * 100 + 2 * seed,
        seed + 40,
        seed + 41,
        7,
        0,
        3,
        2 * (seed + 4),
        seed + 4,
        2 * (seed + 4),
    ];
    assert_eq!(read_buffer::<i32>(&queue, &out, 10), want);
    assert_eq!(read_buffer::<f32>(&queue, &floats, 2), [1.25, 2.5]);
}

#[test]
fn templates_recurse_through_explicit_arguments_and_stop_at_clangs_depth() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_deduction.cl");
    let kernel = Kernel::create(&program, "explicit_recursion").expect("kernel");
    let out = buffer_with(&context, &queue, &[3, i32::MIN]);
    set_arg(&kernel, 0, &out);
    run_1d(&queue, &kernel, 1, 1);
    assert_eq!(read_buffer::<i32>(&queue, &out, 2), [3 * 120, 1 << 10]);
    // Without an end, an error at clang's depth rather than a build that
    // never ends.
    let endless = "template <int N> int g(int x) { return g<N + 1>(x); }\n\
        __kernel void k(__global int *out) { out[0] = g<0>(1); }\n";
    let log = Program::create_and_build_from_source(&context, endless, "-cl-std=CLC++")
        .expect_err("endless recursion");
    assert!(
        log.contains(
            "1:40: error: recursive template instantiation exceeded maximum depth of 1024"
        ),
        "{log}"
    );
}

#[test]
fn braced_lists_as_arguments_make_the_parameter_type() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_deduction.cl");
    let kernel = Kernel::create(&program, "braced_arguments").expect("kernel");
    let seed = 6;
    let out = buffer_with(&context, &queue, &[seed, 0, 0, 0]);
    set_arg(&kernel, 0, &out);
    run_1d(&queue, &kernel, 1, 1);
    let want = [seed + 2, 3 * seed, 2 * seed, 100 + seed + 1];
    assert_eq!(read_buffer::<i32>(&queue, &out, 4), want);
}

#[test]
fn rvalue_references_bind_temporaries_and_moved_objects() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_deduction.cl");
    let kernel = Kernel::create(&program, "rvalue_references").expect("kernel");
    let out = buffer_with(&context, &queue, &[i32::MIN; 5]);
    set_arg(&kernel, 0, &out);
    run_1d(&queue, &kernel, 1, 1);
    // `drain` saw 2 pushes and emptied `b` through the reference;
    // consume(3) = 4 and consume(move(y)) made `y` 42; `r` is the
    // temporary 42, then 142; relay(2) = 3, with `y` 42.
    assert_eq!(read_buffer::<i32>(&queue, &out, 5), [20, 4204, 142, 87, 45]);
}

#[test]
fn mutable_members_and_lambdas_change_what_const_would_keep() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_lambdas.cl");
    let kernel = Kernel::create(&program, "mutables").expect("kernel");
    let ints = buffer_with(&context, &queue, &[i32::MIN; 2]);
    set_arg(&kernel, 0, &ints);
    run_1d(&queue, &kernel, 1, 1);
    // Two calls of `get` count 2 hits on the const object; the lambda's
    // copy of `n` counts its calls (2), and `n` stays 0.
    assert_eq!(read_buffer::<i32>(&queue, &ints, 2), [1422, 0]);
}
