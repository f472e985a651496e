//! Wrong kernels give clang-style diagnostics at the right line and column,
//! all of them in one build log.

use translator::{BuildError, DeviceCaps};

fn log_of(source: &str) -> String {
    log_with(source, "")
}

fn log_with(source: &str, options: &str) -> String {
    match translator::build(source, options, &DeviceCaps::full()) {
        Err(BuildError::Compile { log }) => log,
        Err(e) => panic!("unexpected error: {e}"),
        Ok(_) => panic!("expected a build failure for:\n{source}"),
    }
}

#[test]
fn every_error_is_reported_with_line_column_source_and_caret() {
    let log = log_of(
        "__kernel void k(__global float *a)\n\
         {\n\
         \x20   int i = get_global_id(0)\n\
         \x20   a[i] = 1.0f;\n\
         \x20   a[0] = nothing;\n\
         \x20   return 1;\n\
         }\n",
    );
    let expected = "<source>:3:29: error: expected ';' at end of declaration\n\
                    \x20   int i = get_global_id(0)\n\
                    \x20                           ^\n";
    assert!(log.starts_with(expected), "{log}");
    assert!(
        log.contains("<source>:5:12: error: use of undeclared identifier 'nothing'"),
        "{log}"
    );
    assert!(
        log.contains("<source>:6:5: error: void function should not return a value"),
        "{log}"
    );
    assert!(log.ends_with("3 errors generated.\n"), "{log}");
}

#[test]
fn kernel_rules() {
    let cases: &[(&str, &str)] = &[
        ("__kernel int k(void) { return 0; }", "1:14: error: kernel must have void return type"),
        ("__kernel void k(float *p) {}", "1:24: error: pointer arguments to kernel functions must reside in '__global', '__constant' or '__local' address space"),
        ("__kernel void k(bool b) {}", "1:22: error: 'bool' cannot be used as the type of a kernel parameter"),
        ("__kernel void k(__constant float *p) { p[0] = 1.0f; }", "1:45: error: read-only variable is not assignable"),
        ("__kernel void k(__global int *p) { p[0] = 1 % 2.0f; }", "1:45: error: invalid operands to binary expression ('int' % 'float')"),
        ("__kernel void k(__global int *p) { p[0] = sqrt(1, 2); }", "1:43: error: too many arguments to function call 'sqrt', expected 1, have 2"),
        ("__kernel void k(__global float4 *p) { p[0].xq = 1; }", "1:43: error: illegal vector component name 'xq'"),
        ("__kernel void k(__global int *p) { break; }", "1:36: error: 'break' statement not in loop or switch statement"),
        ("__kernel void k(__global float2 *p) { float x = 0; x *= p[0]; }", "1:54: error: assigning to 'float' from incompatible type 'float2'"),
    ];
    for (source, expected) in cases {
        let log = log_of(source);
        assert!(
            log.contains(expected),
            "for {source}\nexpected {expected}\ngot:\n{log}"
        );
    }
}

#[test]
fn invalid_options_are_typed() {
    match translator::build(
        "__kernel void k(void) {}",
        "-cl-std=CL9.9",
        &DeviceCaps::full(),
    ) {
        Err(BuildError::InvalidOptions(_)) => {}
        other => panic!("expected InvalidOptions, got {other:?}"),
    }
}

/// An integer becomes a pointer only where it was computed from one by
/// adding or subtracting byte counts (or is 0); one rounded by a mask, or
/// held in a variable assigned again, is a build error that names the
/// construct at the cast.
#[test]
fn integers_converted_to_pointers_name_the_construct() {
    // In helpers: a kernel decodes such integers (tests/pointer_spaces.rs).
    let masked = log_of(
        "void f(__global int *o) {\n\
         \x20   uintptr_t kept = (uintptr_t)o;\n\
         \x20   __global int *p = (__global int *)(kept & ~15UL);\n\
         \x20   p[0] = 1;\n\
         }\n\
         __kernel void k(__global int *o) { f(o); }\n",
    );
    let reassigned = log_of(
        "void f(__global int *o, ulong a) {\n\
         \x20   uintptr_t moved = (uintptr_t)o;\n\
         \x20   moved += a;\n\
         \x20   __global int *q = (__global int *)moved;\n\
         \x20   q[0] = 1;\n\
         }\n\
         __kernel void k(__global int *o, ulong a) { f(o, a); }\n",
    );
    for (log, at) in [(masked, "3:23"), (reassigned, "4:23")] {
        assert!(
            log.contains(&format!(
                "<source>:{at}: error: converting an integer to a pointer is not supported by this translator"
            )),
            "{log}"
        );
        assert!(log.contains("'(T *)((uintptr_t)p + n)'"), "{log}");
    }
}

/// `%s` of something that is not a `char` pointer names the argument.
#[test]
fn printf_string_of_a_non_char_pointer_is_an_error() {
    let log = log_of("__kernel void k(__global int *o) { printf(\"%s\\n\", o); }");
    assert!(
        log.contains("1:51: error: '%s' needs a pointer to char"),
        "{log}"
    );
}

/// 10,000 errors on one 100 KB line once made a 1.2 GB log, each error
/// copying the line: the log now stops at clang's error limit and shows
/// only the part of a long line around each caret.
#[test]
fn a_source_full_of_errors_gives_a_small_log() {
    let line = "a[0] = b; ".repeat(10_000);
    let log = log_of(&format!("kernel void k(global int *a) {{ {line} }}\n"));
    assert!(
        log.ends_with(
            "fatal error: too many errors emitted, stopping now [-ferror-limit=]\n\
             20 errors generated.\n"
        ),
        "{}",
        &log[log.len().saturating_sub(500)..]
    );
    assert_eq!(
        log.matches("error: use of undeclared identifier 'b'")
            .count(),
        20
    );
    assert!(log.len() < 20 * 600, "{} bytes", log.len());
}

/// Errors in many declarations: the first 20 are shown, in order.
#[test]
fn errors_in_many_declarations_show_the_first_twenty() {
    let source: String = (0..5_000)
        .map(|i| format!("int f{i}(void) {{ return nothing; }}\n"))
        .collect();
    let log = log_of(&source);
    assert!(log.ends_with("20 errors generated.\n"), "{log}");
    assert!(
        log.contains("<source>:20:24: error: use of undeclared identifier 'nothing'"),
        "{log}"
    );
    assert!(!log.contains("<source>:21:"), "{log}");
}

/// Dropping `const` from a pointer implicitly is clang's warning, and the
/// buffer stays writable through the new pointer: the build succeeds.
#[test]
fn implicitly_dropped_const_warns_and_builds() {
    let program = translator::build(
        "kernel void k(global const float *in) { global float *p = in; *p = 1.0f; }",
        "",
        &DeviceCaps::full(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        program.log.contains(
            "1:55: warning: initializing '__global float*' with an expression of type '__global const float*' discards qualifiers"
        ),
        "{}",
        program.log
    );
}

/// An output pointer of another type converts as clang converts it: with
/// its incompatible-pointer warning at the argument, and the build goes on.
#[test]
fn output_pointers_of_other_types_warn_and_build() {
    let program = translator::build(
        "kernel void k(global float *o) {\n    vstore2(fract(vload2(0, o), o + 2), 2, o);\n}\n",
        "",
        &DeviceCaps::full(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        program.log.contains(
            "2:33: warning: incompatible pointer types passing '__global float*' to parameter of type '__global float2*'"
        ),
        "{}",
        program.log
    );
}

#[test]
fn a_kernel_may_define_its_own_offsetof_under_werror() {
    // Written for compilers without <stddef.h>'s macro: ours is replaced
    // silently, so -Werror still builds it.
    let source = "#define offsetof(s, m) ((size_t) & (((s *)0)->m))\n\
                  typedef struct { int a; float b; } S;\n\
                  kernel void k(global int *o) { o[0] = offsetof(S, b); }\n";
    let program =
        translator::build(source, "-Werror", &DeviceCaps::full()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(program.log, "");
    // Redefining any other predefined macro still warns.
    let source = "#define INT_MAX 3\nkernel void k(global int *o) { o[0] = INT_MAX; }\n";
    assert!(translator::build(source, "-Werror", &DeviceCaps::full()).is_err());
}

/// `__builtin_offsetof` with an index known only at run time is no
/// constant: clang-15's errors where one is needed, and for an index that
/// is no integer.
#[test]
fn offsetof_with_a_run_time_index_is_not_a_constant() {
    let log = log_of(
        "typedef struct { int a; float b[4]; } T;\n\
         kernel void k(global ulong *o, int n, float f) {\n\
         \x20 o[0] = __builtin_offsetof(T, b[f]);\n\
         \x20 int arr[__builtin_offsetof(T, b[n])];\n\
         \x20 o[1] = arr[0] + __builtin_offsetof(T, b[n]);\n\
         }\n",
    );
    assert!(
        log.contains("<source>:3:34: error: array subscript is not an integer"),
        "{log}"
    );
    assert!(
        log.contains("error: variable length arrays are not supported in OpenCL"),
        "{log}"
    );
    assert!(log.ends_with("2 errors generated.\n"), "{log}");
}

/// `goto` and labels are diagnosed as clang-15 does, at its line and column.
#[test]
fn goto_and_label_errors_are_clangs() {
    let cases: &[(&str, &[&str])] = &[
        (
            "kernel void k(global int *p) { goto missing; }",
            &["1:37: error: use of undeclared label 'missing'"],
        ),
        (
            "kernel void k(global int *p) {\nagain: p[0] = 1;\nagain: p[1] = 2;\n    goto again;\n}",
            &[
                "3:1: error: redefinition of label 'again'",
                "2:1: note: previous definition is here",
            ],
        ),
        // Labels belong to one function.
        (
            "void f(void) { a: ; } kernel void k(global int *p) { goto a; }",
            &["1:59: error: use of undeclared label 'a'"],
        ),
        // Before C23 a label names a statement.
        (
            "kernel void k(global int *p) { { p[1] = 2; end: } }",
            &["1:49: error: expected statement"],
        ),
        (
            "kernel void k(global int *p) { lab: int x = 4; p[0] = x; goto lab; }",
            &["1:37: error: expected expression"],
        ),
        (
            "kernel void k(global int *p) { goto 5; }",
            &["1:37: error: expected identifier"],
        ),
    ];
    for (source, expected) in cases {
        let log = log_of(source);
        for expected in *expected {
            assert!(
                log.contains(expected),
                "for {source}\nexpected {expected}\ngot:\n{log}"
            );
        }
    }
}

/// A label no goto names, a label before a case label, gotos in several
/// functions, and jumps into statements whose conditions are a pointer and
/// a float build.
#[test]
fn labels_and_gotos_that_clang_accepts_build() {
    let source = "void f(global int *p) { p[0] = 1; unused: p[1] = 2; }\n\
                  int g(int x) { if (x) goto out; x = 3; out: return x; }\n\
                  kernel void k(global int *p) {\n\
                  \x20   switch (p[0]) { L: case 1: p[1] = 0; break; case 2: goto L; }\n\
                  \x20   f(p); p[2] = g(p[3]);\n\
                  \x20   global int *q = p[4] ? p : 0; float h = p[5];\n\
                  \x20   if (p[6]) goto in_if; if (p[7]) goto in_while;\n\
                  \x20   if (q) { in_if: p[8] = 1; }\n\
                  \x20   while (h) { h -= 1.0f; in_while: p[9]++; }\n\
                  }\n";
    if let Err(e) = translator::build(source, "", &DeviceCaps::full()) {
        panic!("{e}");
    }
}

/// The vector conditional operator's rules, in clang's words and places:
/// an integer condition, and a result with as many lanes of the same
/// size as the condition.
#[test]
fn vector_conditions_must_match_their_result() {
    let cases: &[(&str, &str)] = &[
        ("__kernel void k(__global int4 *c, __global char4 *a) { a[0] = c[0] ? a[1] : a[2]; }", "1:68: error: vector condition type 'int4' and result type 'char4' do not have elements of the same size"),
        ("__kernel void k(__global int4 *c, __global int2 *a) { a[0] = c[0] ? a[1] : a[2]; }", "1:67: error: vector condition type 'int4' and result type 'int2' do not have the same number of elements"),
        ("__kernel void k(__global float4 *c) { c[0] = c[1] ? c[2] : c[3]; }", "1:51: error: used type 'float4' where floating point type is not allowed"),
        ("__kernel void k(__global short4 *c) { c[0] = c[1] ? 1 : 2; }", "1:51: error: vector condition type 'short4' and result type 'int4' do not have elements of the same size"),
    ];
    for (source, expected) in cases {
        let log = log_of(source);
        assert!(
            log.contains(expected),
            "for {source}\nexpected {expected}\ngot:\n{log}"
        );
    }
}

#[test]
fn every_float_h_constant_of_double_is_predefined() {
    // The OpenCL-CTS's kernel_numeric_constants: DBL_RADIX was missing.
    let source = "kernel void k(global long *o) {\n\
                  char radix_is_two[DBL_RADIX == 2 && FLT_RADIX == 2 ? 1 : -1];\n\
                  o[0] = DBL_DIG + DBL_MANT_DIG + DBL_MAX_10_EXP + DBL_MAX_EXP\n\
                  \x20   + DBL_MIN_10_EXP + DBL_MIN_EXP + sizeof radix_is_two;\n\
                  }\n";
    if let Err(e) = translator::build(source, "", &DeviceCaps::full()) {
        panic!("{e}");
    }
}

#[test]
fn addresses_of_misaligned_packed_members_are_refused() {
    // `&t.vec` at byte 1 used to be rounded down to byte 0, a silent wrong
    // pointer. Cast at once to a pointer whose pointee's size divides the
    // offset (the OpenCL-CTS's vec_align_packed_struct), it is exact.
    let source = |pre: &str, body: &str| {
        format!(
            "typedef struct __attribute__((packed)) {{ {pre} char2 vec; }} T;\n\
             kernel void k(global uint *o) {{ T t; {body} }}\n"
        )
    };
    let kept = "char2 *p = &t.vec; o[0] = (*p).x;";
    let cast = "o[0] = (uint)((uchar *)&t.vec - (uchar *)&t);";
    let log = log_of(&source("char c;", kept));
    assert!(
        log.contains("2:49: error: taking the address of a 'char2' member that sits at an offset that is not a multiple of its size"),
        "{log}"
    );
    for (pre, body) in [
        ("char c;", cast),
        ("short c;", kept),
        ("char c[4];", kept),
        ("", kept),
    ] {
        if let Err(e) = translator::build(&source(pre, body), "", &DeviceCaps::full()) {
            panic!("{pre} {body}: {e}");
        }
    }
}

#[test]
fn compound_literals_are_lvalues_and_call_results_are_not() {
    let literals = "struct S { int a; float b; };\n\
                    kernel void k(global int *o) {\n\
                    int *p = &(int){5}; struct S *s = &(struct S){1, 2.0f};\n\
                    int *q = &(int[]){1, 2}[1]; int *m = &(struct S){3, 1.0f}.a;\n\
                    o[0] = *p + s->a + *q + *m;\n\
                    }\n";
    if let Err(e) = translator::build(literals, "", &DeviceCaps::full()) {
        panic!("{e}");
    }
    // clang-15's words and places.
    let log = log_of(
        "typedef struct { int a; } S;\nS mk(int x) { S s = {x}; return s; }\n\
         kernel void k(global int *o) { int *p = &mk(3).a; o[0] = *p; }\n\
         kernel void l(global int *o) { int x = 1; int *q = &(x = 2, x); o[0] = *q; }\n",
    );
    assert!(
        log.contains("3:41: error: cannot take the address of an rvalue of type 'int'"),
        "{log}"
    );
    assert!(
        log.contains("4:52: error: cannot take the address of an rvalue of type 'int'"),
        "{log}"
    );
}
