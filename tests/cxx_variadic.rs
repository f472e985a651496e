//! C++ for OpenCL variadic templates through the loader (issue 22):
//! `tests/kernels/cxx_variadic.cl`, every value against one worked out on
//! the host from the same inputs; functions, classes and member
//! templates.

mod common;

use opencl3::kernel::Kernel;
use opencl3::program::Program;

use common::launch::{build_file, run_1d, set_arg};
use common::{buffer_with, read_buffer};

#[test]
fn parameter_packs_expand_fold_and_recurse() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_variadic.cl");
    let kernel = Kernel::create(&program, "variadic").expect("kernel");
    let (a, b, c, d) = (1, 2, 3, 4);
    let (f0, f1) = (1.75f32, 2.25f32);
    let ints = buffer_with(&context, &queue, &[a, b, c, d]);
    let floats = buffer_with(&context, &queue, &[f0, f1]);
    let out = buffer_with(&context, &queue, &[i32::MIN; 22]);
    let fout = buffer_with(&context, &queue, &[f32::NAN; 4]);
    set_arg(&kernel, 0, &ints);
    set_arg(&kernel, 1, &floats);
    set_arg(&kernel, 2, &out);
    set_arg(&kernel, 3, &fout);
    run_1d(&queue, &kernel, 1, 1);
    let digits = |x: i32, y: i32, z: i32| x * 100 + y * 10 + z;
    let want = [
        a + b + c + d,
        a + b + c + d + 5,
        3 * 100 + 3,
        0,
        10 * a - (b - c),
        (10 * a - b) - c,
        10 * b * c,
        // all(a, b, 0), all(), all(a, b)
        2 + 4,
        // any_of(c, a, b, c), any_of(7, a, b, c)
        1,
        a * a + b * b + c * c,
        f0 as i32 + f1 as i32 + 3,
        d,
        c,
        b,
        digits(a + 1, b + 1, 11),
        digits(a, b, 3),
        a + b + c + d,
        3 * 1000 + digits(d, c, b),
        digits(c, a, b) * 10 + 3,
        d * 100 + c * 10 + d,
        b * c * d,
        2 * d,
    ];
    assert_eq!(read_buffer::<i32>(&queue, &out, 22), want);
    // `sum(float, int, float)`: the tail is summed as `int`.
    let tail = (b as f32 + f1) as i32 as f32;
    let want = [f1 + 1.0, f0 + 1.0 + 10.0, f1 + 2.0 + 20.0, f0 + tail];
    assert_eq!(read_buffer::<f32>(&queue, &fout, 4), want);
}

/// `Tuple<T, Rest...>` laid out as the host's C++ compiler lays it out:
/// the head, then the rest, the empty `Tuple<>` one byte.
#[repr(C)]
struct Empty(u8);
#[repr(C)]
struct TupleOfChar(u8, Empty);
#[repr(C)]
struct TupleOfIntChar(i32, TupleOfChar);
#[repr(C)]
struct TupleOfCharIntChar(u8, TupleOfIntChar);
#[repr(C)]
struct TupleOfInt(i32, Empty);
#[repr(C)]
struct TupleOfIntInt(i32, TupleOfInt);
#[repr(C)]
struct TupleOfIntIntInt(i32, TupleOfIntInt);

#[test]
fn variadic_class_templates_recurse_through_their_specializations() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_variadic.cl");
    let kernel = Kernel::create(&program, "variadic_classes").expect("kernel");
    let (a, b, c) = (3, 4, 5);
    let ints = buffer_with(&context, &queue, &[a, b, c]);
    let out = buffer_with(&context, &queue, &[i32::MIN; 8]);
    let fout = buffer_with(&context, &queue, &[f32::NAN; 1]);
    set_arg(&kernel, 0, &ints);
    set_arg(&kernel, 1, &out);
    set_arg(&kernel, 2, &fout);
    run_1d(&queue, &kernel, 1, 1);
    let want = [
        3 * 10,
        a + c,
        4 + 2 * 10,
        std::mem::size_of::<TupleOfIntIntInt>() as i32,
        std::mem::size_of::<TupleOfCharIntChar>() as i32,
        a + b + c,
        a + b + c + 10,
        c,
    ];
    assert_eq!(read_buffer::<i32>(&queue, &out, 8), want);
    assert_eq!(read_buffer::<f32>(&queue, &fout, 1), [b as f32 * 1.25]);
}

#[test]
fn pack_errors_are_clang_errors() {
    let (context, _queue) = common::context_and_queue();
    let cases = [
        (
            "template <typename... Ts> int f(Ts... xs) { return xs; }\n\
             __kernel void k(__global int *o) { o[0] = f(1, 2); }",
            "1:52: error: expression contains unexpanded parameter pack 'xs'",
        ),
        (
            "template <typename... Ts> int s(Ts... xs) { return (xs + ...); }\n\
             __kernel void k(__global int *o) { o[0] = s(); }",
            "1:58: error: unary fold expression has empty expansion for operator '+' with no fallback value",
        ),
        (
            "template <typename T, typename U> int f(T a, U b) { return a + b; }\n\
             template <typename... Ts> int g(Ts... xs) { return f(xs...); }\n\
             __kernel void k(__global int *o) { o[0] = g(1, 2, 3); }",
            "2:52: error: no matching function for call to 'f'",
        ),
    ];
    for (source, want) in cases {
        let log = Program::create_and_build_from_source(&context, source, "-cl-std=CLC++")
            .expect_err(source);
        assert!(log.contains(want), "{source}\n{log}");
    }
}
