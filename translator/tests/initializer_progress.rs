//! List initializers whose designators and brace elision once made the
//! checker's walk (`check/init.rs`, `Checker::fill`) loop for ever: a
//! designated member that takes its value by brace elision, or cannot take
//! it at all. Each build must come back, with clang's diagnostic where the
//! program is wrong and none where it is right.

use std::sync::mpsc;
use std::time::Duration;

use translator::{BuildError, DeviceCaps};

/// Far more than any of these needs in a debug build; past it, a hang.
const TIME_LIMIT: Duration = Duration::from_secs(30);

/// Builds `source` on its own thread: `Ok` with the log, `Err` with the
/// failed build's log, or a panic naming the hang.
fn build(source: &str) -> Result<String, String> {
    let (tx, rx) = mpsc::channel();
    let text = source.to_string();
    std::thread::spawn(move || {
        let result = match translator::build(&text, "", &DeviceCaps::full()) {
            Ok(p) => Ok(p.log),
            Err(BuildError::Compile { log }) => Err(log),
            Err(e) => Err(e.to_string()),
        };
        let _ = tx.send(result);
    });
    rx.recv_timeout(TIME_LIMIT)
        .unwrap_or_else(|_| panic!("the build did not come back (hang):\n{source}"))
}

fn errors_of(source: &str) -> String {
    match build(source) {
        Err(log) => log,
        Ok(log) => panic!("expected a build failure for:\n{source}\nlog:\n{log}"),
    }
}

#[test]
fn designated_vector_member_of_another_width_is_an_error() {
    // The reproducer: `.b` is a float2, the value a float4.
    let log = errors_of(
        "struct S { float2 b; };\n\
         kernel void k(global float *o){ struct S s = {.b = (float4)(1.0f)}; o[0]=s.b.x; }\n",
    );
    assert!(
        log.starts_with(
            "<source>:2:52: error: initializing 'float2' with an expression of incompatible type 'float4'\n"
        ),
        "{log}"
    );
    assert!(log.ends_with("1 error generated.\n"), "{log}");
}

#[test]
fn vector_members_are_never_split_by_brace_elision() {
    // As clang for OpenCL C: a value initialises a vector member whole.
    for (init, wrong) in [
        ("{ (int2)(1), 2 }", "int2"),
        ("{ .b = (float3)(1.0f), 2 }", "float3"),
        ("{ .c = 1, .b = (float8)(0.0f) }", "float8"),
    ] {
        let source = format!(
            "struct V {{ float2 b; int c; }};\n\
             kernel void k(global float *o) {{ struct V v = {init}; o[0] = v.b.x + v.c; }}\n"
        );
        let log = errors_of(&source);
        let expected = format!(
            "error: initializing 'float2' with an expression of incompatible type '{wrong}'"
        );
        assert!(log.contains(&expected), "for {init}: {log}");
    }
    // A scalar is splatted, and the next value goes to the next member.
    let ok = "struct V { float2 b; int c; };\n\
              kernel void k(global float *o) {\n\
              struct V v = { 1.0f, 2 }; struct V w = { .b = 3.0f, .c = 4 };\n\
              o[0] = v.b.y + v.c + w.b.x + w.c; }\n";
    build(ok).unwrap_or_else(|log| panic!("{log}"));
}

#[test]
fn designated_member_starts_brace_elision_into_it() {
    // `.a = 1, 2` fills `a.x` then `a.y` (C99 6.7.8p17), `3` goes to `z`;
    // `[1] = 5, 6` fills the second row.
    let ok = "struct A { int x; int y; };\n\
              struct T { struct A a; int z; };\n\
              union U { struct A a; int w; };\n\
              kernel void k(global int *o) {\n\
              struct T t = { .a = 1, 2, 3 };\n\
              int m[2][2] = { [1] = 5, 6 };\n\
              union U u = { .a = 7, 8 };\n\
              struct T n[2] = { [1].a = 9 };\n\
              o[0] = t.a.x + t.a.y + t.z + m[1][1] + u.a.y; }\n";
    build(ok).unwrap_or_else(|log| panic!("{log}"));
}

/// Nested designators and designators naming members of anonymous
/// members: clang-15's diagnostics, at its lines and columns (but for a
/// field designator that cannot initialize a scalar, which clang puts at
/// its `.`, here at its name).
#[test]
fn nested_designators_are_diagnosed_as_clang_does() {
    let source = "typedef struct { int a[2][2]; struct { int x, y; } in; int tail; } T;\n\
                  typedef struct { union { struct { float x, y; }; struct { float re, im; }; }; } C;\n\
                  kernel void k(global int *o, int n) {\n\
                  \x20 T t = { .in.z = 1 };\n\
                  \x20 T u = { .a[1][2] = 1 };\n\
                  \x20 T v = { .a[-1][0] = 1 };\n\
                  \x20 T w = { .a[n][0] = 1 };\n\
                  \x20 T x = { .tail.x = 1 };\n\
                  \x20 C c = { .re = 1.0f, .imag = 2.0f };\n\
                  \x20 o[0] = t.tail + u.tail + v.tail + w.tail + x.tail + (int)c.x;\n\
                  }\n";
    let log = errors_of(source);
    for expected in [
        // (clang names the type 'struct (unnamed struct at ...)' and
        // '__private C'.)
        "<source>:4:15: error: field designator 'z' does not refer to any field in type '",
        "<source>:5:17: error: array designator index (2) exceeds array bounds (2)",
        "<source>:6:14: error: array designator value '-1' is negative",
        "<source>:7:14: error: expression is not an integer constant expression",
        "error: field designator cannot initialize a non-struct, non-union type 'int'",
        "<source>:9:24: error: field designator 'imag' does not refer to any field in type '",
    ] {
        assert!(log.contains(expected), "{expected}:\n{log}");
    }
    assert!(log.ends_with("6 errors generated.\n"), "{log}");
}

#[test]
fn empty_aggregates_cannot_take_a_value_by_brace_elision() {
    // clang: "initializer for aggregate with no elements requires explicit
    // braces", the value skipped and the walk going on after it.
    for (init, column) in [
        ("{ .e = 1 }", 52),
        ("{ 1, 2 }", 47),
        ("{ .e = 1, .x = 2 }", 52),
    ] {
        let source = format!(
            "struct E {{}}; struct A {{ struct E e; int x; }};\n\
             kernel void k(global int *o) {{ struct A a = {init}; o[0] = a.x; }}\n"
        );
        let log = errors_of(&source);
        let expected = format!(
            "<source>:2:{column}: error: initializer for aggregate with no elements requires explicit braces\n"
        );
        assert!(log.starts_with(&expected), "for {init}:\n{log}");
        assert!(log.ends_with("1 error generated.\n"), "for {init}:\n{log}");
    }
    // With its braces, the empty member is fine for the checker; the
    // lowering names what it cannot hold rather than emitting invalid IR.
    let braced = "struct E {}; struct A { struct E e; int x; };\n\
                  kernel void k(global int *o) { struct A a = { {}, 2 }; o[0] = a.x; }\n";
    translator::check_source(braced, "", &DeviceCaps::full()).unwrap_or_else(|e| panic!("{e}"));
    let log = errors_of(braced);
    assert!(
        log.contains("error: empty structs are not supported yet by this translator"),
        "{log}"
    );
}

/// A vector is no array to a designator, as in clang.
#[test]
fn array_designators_cannot_initialize_vectors() {
    let source = "typedef struct { float4 v; int n; } W;\n\
                  kernel void k(global float *o) {\n\
                  \x20 W w = { .v[1] = 2.0f, 3 };\n\
                  \x20 o[0] = w.v.y + w.n;\n\
                  }\n";
    let log = errors_of(source);
    assert!(
        log.contains(
            "<source>:3:14: error: array designator cannot initialize non-array type 'float4'"
        ),
        "{log}"
    );
}
