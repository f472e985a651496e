//! C++ for OpenCL classes through the loader (issue 22): member functions
//! defined in the class, called on objects in every address space, with
//! `this` and members named without it, `const` member functions, and
//! overloads on the address space of `this` (seed 004).

mod common;

use opencl3::kernel::Kernel;
use opencl3::program::Program;

use common::launch::{build_file, run_1d, set_arg};
use common::{buffer_with, read_buffer};

#[test]
fn member_functions_run_on_objects_in_every_space() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "methods").expect("kernel");
    let out = buffer_with(&context, &queue, &[i32::MIN; 13]);
    // A global `Counter`: count 40, step 2.
    let global = buffer_with(&context, &queue, &[40, 2]);
    let floats = buffer_with(&context, &queue, &[f32::NAN; 2]);
    set_arg(&kernel, 0, &out);
    set_arg(&kernel, 1, &global);
    set_arg(&kernel, 2, &floats);
    run_1d(&queue, &kernel, 1, 1);
    // c = {1, 2}: add() makes 3, add_n(3) makes 9.
    let want = [9, 18, 1, 2, 3, 90, 27, 42, 109, 9, 25, 30, 3];
    assert_eq!(read_buffer(&queue, &out, 13), want);
    assert_eq!(read_buffer::<i32>(&queue, &global, 2), [42, 2]);
    assert_eq!(read_buffer::<f32>(&queue, &floats, 2), [11.0, 22.0]);
}

#[test]
fn member_functions_defined_outside_their_class_run() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "out_of_class").expect("kernel");
    let out = buffer_with(&context, &queue, &[f32::NAN; 3]);
    // A global `Accumulator`, empty: sum 0.0, n 0.
    let global = buffer_with(&context, &queue, &[0u32; 2]);
    set_arg(&kernel, 0, &out);
    set_arg(&kernel, 1, &global);
    run_1d(&queue, &kernel, 1, 1);
    assert_eq!(read_buffer::<f32>(&queue, &out, 3), [2.5, -1.0, 6.0]);
}

#[test]
fn constructors_run_where_cxx_runs_them() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "ctors").expect("kernel");
    let floats = buffer_with(&context, &queue, &[f32::NAN; 9]);
    let ints = buffer_with(&context, &queue, &[i32::MIN; 3]);
    set_arg(&kernel, 0, &floats);
    set_arg(&kernel, 1, &ints);
    run_1d(&queue, &kernel, 1, 1);
    let want = [0.0, 6.0, 6.0, 15.0, 21.0, 6.0, 9.0, 7.0, 17.0];
    assert_eq!(read_buffer::<f32>(&queue, &floats, 9), want);
    assert_eq!(read_buffer::<i32>(&queue, &ints, 3), [5, 8, 42]);
}

#[test]
fn overloaded_operators_call_their_functions() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "operators").expect("kernel");
    let floats = buffer_with(&context, &queue, &[f32::NAN; 10]);
    let flags = buffer_with(&context, &queue, &[i32::MIN; 3]);
    set_arg(&kernel, 0, &floats);
    set_arg(&kernel, 1, &flags);
    run_1d(&queue, &kernel, 1, 1);
    // a = 1+2i, b = 3-i: a+b = 4+i, a*b = 5+5i, -a, 2a, a += b.
    let want = [4.0, 1.0, 5.0, 5.0, -1.0, -2.0, 2.0, 4.0, 4.0, 1.0];
    assert_eq!(read_buffer::<f32>(&queue, &floats, 10), want);
    assert_eq!(read_buffer::<i32>(&queue, &flags, 3), [1, 0, 0]);
}

#[test]
fn function_templates_instantiate_for_their_arguments() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "templates").expect("kernel");
    let ints = buffer_with(&context, &queue, &[i32::MIN; 5]);
    let floats = buffer_with(&context, &queue, &[f32::NAN; 3]);
    let data = buffer_with(&context, &queue, &[1, 2, 3, 4]);
    set_arg(&kernel, 0, &ints);
    set_arg(&kernel, 1, &floats);
    set_arg(&kernel, 2, &data);
    run_1d(&queue, &kernel, 1, 1);
    assert_eq!(read_buffer::<i32>(&queue, &ints, 5), [9, 21, 10, 7, 20]);
    assert_eq!(read_buffer::<f32>(&queue, &floats, 3), [2.5, 2.5, 8.0]);
}

#[test]
fn default_template_arguments_fill_what_is_not_given_and_conversions_choose_templates() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "template_defaults").expect("kernel");
    let ints = buffer_with(&context, &queue, &[i32::MIN; 4]);
    let floats = buffer_with(&context, &queue, &[f32::NAN; 1]);
    set_arg(&kernel, 0, &ints);
    set_arg(&kernel, 1, &floats);
    run_1d(&queue, &kernel, 1, 1);
    // Row<int, 4>, Row<float, 4>, Row<char, 2>; 3 * 2 + 5 * 2;
    // sizeof(double) + sizeof(short).
    assert_eq!(read_buffer::<i32>(&queue, &ints, 4), [442, 34, 16, 10]);
    // 2.5f * 2, and (int)(2.5f * 2) from the template whose parameter
    // takes the float exactly: the other would give (float)(int)2.5f.
    assert_eq!(read_buffer::<f32>(&queue, &floats, 1), [10.0]);
}

#[test]
fn cxx_casts_convert_as_c_casts_do() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "casts").expect("kernel");
    let ints = buffer_with(&context, &queue, &[i32::MIN; 4]);
    let floats = buffer_with(&context, &queue, &[f32::NAN; 2]);
    set_arg(&kernel, 0, &ints);
    set_arg(&kernel, 1, &floats);
    run_1d(&queue, &kernel, 1, 1);
    let got = read_buffer::<i32>(&queue, &ints, 4);
    assert_eq!([got[0], got[1], got[3]], [7, 9, 1]);
    assert_eq!(f32::from_bits(got[2] as u32), 0.25);
    assert_eq!(read_buffer::<f32>(&queue, &floats, 2), [1.5, 7.5]);
}

#[test]
fn class_templates_instantiate_for_their_arguments() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "class_templates").expect("kernel");
    let ints = buffer_with(&context, &queue, &[i32::MIN; 6]);
    let floats = buffer_with(&context, &queue, &[f32::NAN; 1]);
    set_arg(&kernel, 0, &ints);
    set_arg(&kernel, 1, &floats);
    run_1d(&queue, &kernel, 1, 1);
    assert_eq!(read_buffer::<i32>(&queue, &ints, 6), [7, 43, 75, 30, 3, 17]);
    assert_eq!(read_buffer::<f32>(&queue, &floats, 1), [3.5]);
}

#[test]
fn static_member_functions_need_no_object() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "statics").expect("kernel");
    let ints = buffer_with(&context, &queue, &[i32::MIN; 5]);
    let floats = buffer_with(&context, &queue, &[f32::NAN; 1]);
    set_arg(&kernel, 0, &ints);
    set_arg(&kernel, 1, &floats);
    run_1d(&queue, &kernel, 1, 1);
    assert_eq!(read_buffer::<i32>(&queue, &ints, 5), [49, 14, 11, 36, 10]);
    assert_eq!(read_buffer::<f32>(&queue, &floats, 1), [1.5]);
    let log = build_error(
        "struct S { int x; static int get() { return x; } };\nkernel void k(global int *p) { p[0] = S::get(); }\n",
    );
    assert!(
        log.contains("1:45: error: invalid use of member 'x' in static member function"),
        "{log}"
    );
}

#[test]
fn if_constexpr_checks_only_the_branch_it_takes() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "if_constexpr").expect("kernel");
    let longs = buffer_with(&context, &queue, &[i64::MIN; 2]);
    let floats = buffer_with(&context, &queue, &[f32::NAN; 1]);
    set_arg(&kernel, 0, &longs);
    set_arg(&kernel, 1, &floats);
    run_1d(&queue, &kernel, 1, 1);
    // -7 / 2 truncates to -3; a shift would give -4.
    assert_eq!(read_buffer::<i64>(&queue, &longs, 2), [-3, 4]);
    assert_eq!(read_buffer::<f32>(&queue, &floats, 1), [2.5]);
}

#[test]
fn integer_template_parameters_are_constants() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "non_type").expect("kernel");
    let ints = buffer_with(&context, &queue, &[i32::MIN; 5]);
    set_arg(&kernel, 0, &ints);
    run_1d(&queue, &kernel, 1, 1);
    assert_eq!(read_buffer::<i32>(&queue, &ints, 5), [21, 20, 10, 16, 5]);
}

#[test]
fn scoped_enums_are_named_through_their_type() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "scoped_enums").expect("kernel");
    let ints = buffer_with(&context, &queue, &[i32::MIN; 6]);
    set_arg(&kernel, 0, &ints);
    run_1d(&queue, &kernel, 1, 1);
    assert_eq!(
        read_buffer::<i32>(&queue, &ints, 6),
        [6, 50, 100, 11, 201, 5]
    );
    let log = build_error(
        "enum class Mode { Add };\nkernel void k(global int *p) { p[0] = (int)Add; }\n",
    );
    assert!(
        log.contains("2:44: error: use of undeclared identifier 'Add'"),
        "{log}"
    );
}

#[test]
fn template_bodies_call_what_their_definition_sees() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "template_lookup").expect("kernel");
    let ints = buffer_with(&context, &queue, &[i32::MIN; 2]);
    set_arg(&kernel, 0, &ints);
    run_1d(&queue, &kernel, 1, 1);
    assert_eq!(read_buffer::<i32>(&queue, &ints, 2), [1, 2]);
    let log = build_error(
        "template <typename T> int f(T x) { return h(x); }\nint h(int x) { return 2; }\n\
         kernel void k(global int *p) { p[0] = f(1); }\n",
    );
    assert!(
        log.contains("1:43: error: call to function 'h' that is neither visible in the template definition nor found by argument-dependent lookup"),
        "{log}"
    );
}

#[test]
fn template_errors_say_which_instantiation() {
    let log = build_error(
        "template <typename T> T sum(const T *p) { T s = p[0]; return s; }\n\
         kernel void k(global const int *in, global int *out) { out[0] = sum(in); }\n",
    );
    assert!(
        log.contains(
            "1:45: error: function scope variable cannot be declared in global address space"
        ),
        "{log}"
    );
    assert!(
        log.contains("2:65: note: in instantiation of function template specialization 'sum<__global int>' requested here"),
        "{log}"
    );
    let log = build_error(
        "template <typename T> T larger(T a, T b) { return a > b ? a : b; }\n\
         kernel void k(global float *out) { out[0] = larger(1, 2.0f); }\n",
    );
    assert!(
        log.contains("2:45: error: no matching function for call to 'larger'"),
        "{log}"
    );
}

/// Builds `source` as C++ for OpenCL and returns the build log of the
/// failure it must be.
fn build_error(source: &str) -> String {
    let (context, _queue) = common::context_and_queue();
    Program::create_and_build_from_source(&context, source, "-cl-std=CLC++")
        .expect_err("the build must fail")
}

#[test]
fn objects_need_a_member_function_for_their_space_and_constness() {
    let class = "struct S { int x; int get() { return x; } int lget() __local { return x; } };\n";
    let log = build_error(&format!(
        "{class}__constant S cs = {{1}};\nkernel void k(global int *p) {{ p[0] = cs.get(); }}\n"
    ));
    assert!(
        log.contains("3:39: error: cannot initialize object parameter of type '__generic S' with an expression of type '__constant S'"),
        "{log}"
    );
    let log = build_error(&format!(
        "{class}kernel void k(global int *p) {{ const S s = {{2}}; p[0] = s.get(); }}\n"
    ));
    assert!(
        log.contains("error: 'this' argument to member function 'get' has type 'const __private S', but function is not marked const"),
        "{log}"
    );
    let log = build_error(&format!(
        "{class}kernel void k(global int *p) {{ S s = {{2}}; p[0] = s.lget(); }}\n"
    ));
    assert!(
        log.contains("error: cannot initialize object parameter of type '__local S' with an expression of type '__private S'"),
        "{log}"
    );
}

#[test]
fn member_function_misuse_is_reported_as_clang_does() {
    let class =
        "struct S { int x; int get() const { return x; } void set(int v) const { x = v; } };\n";
    let log = build_error(&format!("{class}kernel void k(global int *p) {{ }}\n"));
    assert!(log.contains("1:75: error:"), "{log}");
    let class = "struct S { int x; int get() const { return x; } };\n";
    let log = build_error(&format!(
        "{class}kernel void k(global int *p) {{ S s = {{1}}; p[0] = s.nope(); p[1] = s.x(); }}\n"
    ));
    assert!(
        log.contains("error: no member named 'nope' in 'struct S'"),
        "{log}"
    );
    assert!(
        log.contains("error: called object type 'int' is not a function or function pointer"),
        "{log}"
    );
    let log = build_error(
        "struct S { int x; int get() const; };\nint S::get() { return x; }\nkernel void k() {}\n",
    );
    assert!(
        log.contains(
            "2:8: error: out-of-line definition of 'get' does not match any declaration in 'S'"
        ),
        "{log}"
    );
    let log = build_error(
        "struct S { int x; };\nkernel void k(global int *p) { S a = {1}, b = {2}; p[0] = (a + b).x; }\n",
    );
    assert!(
        log.contains(
            "2:62: error: invalid operands to binary expression ('__private S' and '__private S')"
        ),
        "{log}"
    );
    let log = build_error("kernel void k(global int *p) { p[0] = this != 0; }\n");
    assert!(
        log.contains("error: invalid use of 'this' outside of a non-static member function"),
        "{log}"
    );
}

#[test]
fn base_classes_lend_their_members_and_convert() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "inheritance").expect("kernel");
    let floats = buffer_with(&context, &queue, &[f32::NAN; 3]);
    let ints = buffer_with(&context, &queue, &[i32::MIN; 6]);
    set_arg(&kernel, 0, &floats);
    set_arg(&kernel, 1, &ints);
    run_1d(&queue, &kernel, 1, 1);
    assert_eq!(read_buffer::<f32>(&queue, &floats, 3), [18.0, 3.0, 8.0]);
    // sizeof: Shape, Named, the empty base taking no room, and `side`;
    // Base2 and `w`.
    assert_eq!(
        read_buffer::<i32>(&queue, &ints, 6),
        [77, 31, 12, 85, 1208, 2]
    );
}

#[test]
fn function_objects_are_called_through_their_call_operator() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "functors").expect("kernel");
    let floats = buffer_with(&context, &queue, &[f32::NAN; 3]);
    let ints = buffer_with(&context, &queue, &[i32::MIN; 1]);
    set_arg(&kernel, 0, &floats);
    set_arg(&kernel, 1, &ints);
    run_1d(&queue, &kernel, 1, 1);
    // 2 * 3; (1 * 3) * 3; 4 * 2 + 1; (2 + 3 + 10) + (1 + 100).
    assert_eq!(read_buffer::<f32>(&queue, &floats, 3), [6.0, 9.0, 9.0]);
    assert_eq!(read_buffer::<i32>(&queue, &ints, 1), [116]);
}

#[test]
fn static_data_members_are_class_scoped_globals_and_constants() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "static_data").expect("kernel");
    let out = buffer_with(&context, &queue, &[i32::MIN; 5]);
    set_arg(&kernel, 0, &out);
    run_1d(&queue, &kernel, 1, 1);
    // data's sum + M; arr[M - 1] + N; the counter bumped twice through
    // objects, then by 10, then once by a static member function; the
    // sizes of double and short from a class template's constant.
    assert_eq!(read_buffer::<i32>(&queue, &out, 5), [18, 9, 12, 10, 13]);
    // Defined outside the class: (100 + 7) * 0.5.
    let kernel = Kernel::create(&program, "static_definitions").expect("kernel");
    let floats = buffer_with(&context, &queue, &[f32::NAN; 1]);
    set_arg(&kernel, 0, &floats);
    run_1d(&queue, &kernel, 1, 1);
    assert_eq!(read_buffer::<f32>(&queue, &floats, 1), [53.5]);
}

#[test]
fn destructors_run_where_scopes_end() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "destructors").expect("kernel");
    let log = buffer_with(&context, &queue, &[0i32; 16]);
    let out = buffer_with(&context, &queue, &[i32::MIN; 2]);
    set_arg(&kernel, 0, &log);
    set_arg(&kernel, 1, &out);
    run_1d(&queue, &kernel, 1, 1);
    // 10 constructions and 10 destructions, in order: a block's two, last
    // first; each return's, inner scope first; the loop's at its body's
    // end, at `continue` and at `break`; the kernel's own at its end.
    let want = [10, 10, 2, 1, 20, 10, 30, 10, 100, 101, 102, 7, 0, 0, 0, 0];
    assert_eq!(read_buffer::<i32>(&queue, &log, 16), want);
    assert_eq!(read_buffer::<i32>(&queue, &out, 2), [2, -1]);
}

#[test]
fn class_template_specializations_are_chosen_by_their_arguments() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "specializations").expect("kernel");
    let out = buffer_with(&context, &queue, &[i32::MIN; 5]);
    set_arg(&kernel, 0, &out);
    run_1d(&queue, &kernel, 1, 1);
    // The template for int; the explicit specialization for float; the
    // partial ones for short * (T = short) and Duo<double> (T = double);
    // 5! through Fact<0>.
    assert_eq!(
        read_buffer::<i32>(&queue, &out, 5),
        [100, 210, 322, 448, 120]
    );
}

#[test]
fn member_types_name_types_through_their_class() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_traits.cl");
    let kernel = Kernel::create(&program, "traits").expect("kernel");
    let out = buffer_with(&context, &queue, &[f32::NAN; 3]);
    set_arg(&kernel, 0, &out);
    run_1d(&queue, &kernel, 1, 1);
    // `S::value_type`, `Box<int>::value_type`, `typename C::value_type`
    // in a template, and an `enable_if` and `is_float` made of
    // specializations and member types.
    assert_eq!(read_buffer::<f32>(&queue, &out, 3), [15.0, 1.5, 14.0]);
}

#[test]
fn substitution_failure_rules_templates_out_of_a_call() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_traits.cl");
    let kernel = Kernel::create(&program, "sfinae").expect("kernel");
    let floats = buffer_with(&context, &queue, &[f32::NAN; 1]);
    let ints = buffer_with(&context, &queue, &[i32::MIN; 1]);
    set_arg(&kernel, 0, &floats);
    set_arg(&kernel, 1, &ints);
    run_1d(&queue, &kernel, 1, 1);
    // 5.0 / 2 for a float, 9 >> 1 for an int.
    assert_eq!(read_buffer::<f32>(&queue, &floats, 1), [2.5]);
    assert_eq!(read_buffer::<i32>(&queue, &ints, 1), [4]);
}

#[test]
fn alias_templates_name_the_types_they_stand_for() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_traits.cl");
    let kernel = Kernel::create(&program, "aliases").expect("kernel");
    let ints = buffer_with(&context, &queue, &[i32::MIN; 1]);
    set_arg(&kernel, 0, &ints);
    run_1d(&queue, &kernel, 1, 1);
    // 3 through `IntBox<float>` and `Ptr<int>`, and 10 + 1 from a
    // function whose return type is an `enable_if_t`.
    assert_eq!(read_buffer::<i32>(&queue, &ints, 1), [14]);
}

#[test]
fn increment_and_decrement_operators_call_their_functions() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "increments").expect("kernel");
    let out = buffer_with(&context, &queue, &[i32::MIN; 4]);
    set_arg(&kernel, 0, &out);
    run_1d(&queue, &kernel, 1, 1);
    // 5, ++ to 6, ++ (postfix, giving 6) to 7, -- by 10 to -3; ++ of the
    // result to -2; 3 doubled twice by a function of the program.
    assert_eq!(read_buffer::<i32>(&queue, &out, 4), [-3, 6, -2, 12]);
}

#[test]
fn explicit_specializations_replace_a_function_templates_instances() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_traits.cl");
    let kernel = Kernel::create(&program, "function_specializations").expect("kernel");
    let floats = buffer_with(&context, &queue, &[f32::NAN; 1]);
    let ints = buffer_with(&context, &queue, &[i32::MIN; 2]);
    set_arg(&kernel, 0, &floats);
    set_arg(&kernel, 1, &ints);
    run_1d(&queue, &kernel, 1, 1);
    // float and int take their specializations; double the template.
    assert_eq!(read_buffer::<f32>(&queue, &floats, 1), [15.0]);
    assert_eq!(read_buffer::<i32>(&queue, &ints, 2), [1003, 4]);
}

#[test]
fn memberwise_copy_constructors_and_assignments_are_declared_and_copy() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "copies").expect("kernel");
    let out = buffer_with(&context, &queue, &[f32::NAN; 1]);
    set_arg(&kernel, 0, &out);
    run_1d(&queue, &kernel, 1, 1);
    // (1, 2, 3) twice, added: 12; and 4 copied.
    assert_eq!(read_buffer::<f32>(&queue, &out, 1), [16.0]);
    let kernel = Kernel::create(&program, "assignments").expect("kernel");
    set_arg(&kernel, 0, &out);
    run_1d(&queue, &kernel, 1, 1);
    assert_eq!(read_buffer::<f32>(&queue, &out, 1), [3.5]);
}

#[test]
fn conversion_functions_convert_objects_where_values_are_wanted() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "conversions").expect("kernel");
    let out = buffer_with(&context, &queue, &[f32::NAN; 3]);
    set_arg(&kernel, 0, &out);
    run_1d(&queue, &kernel, 1, 1);
    // 384 / 256 = 1.5: initialised, passed (doubled), cast to int; cast
    // by static_cast; and a bool from `operator bool`.
    assert_eq!(read_buffer::<f32>(&queue, &out, 3), [5.5, 3.0, 1.0]);
    // `if`, `while`, `?:` and `!` of objects with `operator bool`.
    let kernel = Kernel::create(&program, "truth").expect("kernel");
    let ints = buffer_with(&context, &queue, &[i32::MIN; 1]);
    set_arg(&kernel, 0, &ints);
    run_1d(&queue, &kernel, 1, 1);
    assert_eq!(read_buffer::<i32>(&queue, &ints, 1), [1101]);
}

#[test]
fn member_function_templates_are_deduced_at_each_call() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "member_templates").expect("kernel");
    let out = buffer_with(&context, &queue, &[i32::MIN; 5]);
    set_arg(&kernel, 0, &out);
    set_arg(&kernel, 1, &3.0f32);
    run_1d(&queue, &kernel, 1, 1);
    // apply<float>(3) = 9; apply<int>(4) = int(12.0f) = 12; the sum of
    // 3, 6 and 9 is 18; twice<int>(5) + twice<float>(1.25f) = 12.5.
    assert_eq!(read_buffer::<i32>(&queue, &out, 5), [33, 10, 1209, 18, 125]);
}

#[test]
fn default_member_initializers_fill_what_constructors_leave() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "member_defaults").expect("kernel");
    let input = [1, 2, 3, 9];
    let ints = buffer_with(&context, &queue, &input);
    let out = buffer_with(&context, &queue, &[i32::MIN; 5]);
    let floats = buffer_with(&context, &queue, &[f32::NAN; 2]);
    set_arg(&kernel, 0, &ints);
    set_arg(&kernel, 1, &out);
    set_arg(&kernel, 2, &floats);
    run_1d(&queue, &kernel, 1, 1);
    let total = 5 + input[0] + input[1] + input[2];
    // `DefaultPair(9)`: a from its default, b from the constructor; `DefaultPair()`:
    // both defaults.
    let want = [total, 100 + input[3] * 10 + 2, 70, 53, 15];
    assert_eq!(read_buffer::<i32>(&queue, &out, 5), want);
    assert_eq!(read_buffer::<f32>(&queue, &floats, 2), [2.5, 7.0]);
}

#[test]
fn member_templates_of_class_templates_deduce_and_take_arguments() {
    let (context, queue) = common::context_and_queue();
    let program = build_file(&context, "tests/kernels/cxx_classes.cl");
    let kernel = Kernel::create(&program, "member_templates_of_class_templates").expect("kernel");
    let (b, c) = (3, 2);
    let ints = buffer_with(&context, &queue, &[b, c]);
    let out = buffer_with(&context, &queue, &[i32::MIN; 4]);
    let floats = buffer_with(&context, &queue, &[f32::NAN; 2]);
    set_arg(&kernel, 0, &ints);
    set_arg(&kernel, 1, &out);
    set_arg(&kernel, 2, &floats);
    run_1d(&queue, &kernel, 1, 1);
    let cf = c as f32 * 1.25;
    let want = [b + 2, cf as i32, b * 2 * 5, b * 7];
    assert_eq!(read_buffer::<i32>(&queue, &out, 4), want);
    assert_eq!(
        read_buffer::<f32>(&queue, &floats, 2),
        [cf + 1.0, b as f32 / 2.0]
    );
}
