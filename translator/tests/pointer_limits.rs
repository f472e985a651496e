//! What the pointer model still cannot express is a build error naming the
//! construct, never a wrong result.

use translator::{BuildError, DeviceCaps};

fn log_of(source: &str) -> String {
    match translator::build(source, "-cl-std=CL2.0", &DeviceCaps::full()) {
        Err(BuildError::Compile { log }) => log,
        Err(e) => panic!("unexpected error: {e}"),
        Ok(_) => panic!("expected a build failure for:\n{source}"),
    }
}

#[test]
fn unsupported_pointer_constructs_name_themselves() {
    let cases: &[(&str, &str)] = &[
        (
            "__kernel void k(__global int *out, __local uint *words) {
                 atomic_min((volatile __local int *)words, -1);
             }",
            "2:28: error: atomic minimum and maximum on 'int' through a pointer cast from 'uint' __local memory are not supported",
        ),
        (
            "__kernel void k(__global int *out, __local int4 *v) {
                 atomic_add((volatile __local int *)v, 1);
             }",
            "2:28: error: atomic operations on 'int' through a pointer cast from 'int4' memory are not supported",
        ),
        (
            "int *local_address(int v) { int x = v; return &x; }
             __kernel void k(__global int *out) { out[0] = *local_address(1); }",
            "returning a pointer to a local variable",
        ),
        // A pointer kept in a buffer may be read by another launch, which
        // cannot know its buffer.
        (
            "typedef struct { __global int *p; } S;
             __kernel void k(__global int *a, __global S *s) {
                 s[0].p = a;
             }",
            "3:22: error: a pointer stored in __global or __constant memory is not supported: it outlives the launch",
        ),
        (
            "__kernel void k(__global int *a, __global int *__global *pp) {
                 *pp[0] = 1;
             }",
            "kernel parameter cannot be declared as a pointer to a pointer",
        ),
        // Private memory of the kernel that a helper reaches only through
        // a stored pointer.
        (
            "typedef struct { float *p; int n; } PView;
             float first(PView v) { return v.p[0]; }
             __kernel void k(__global float *out) {
                 float tmp[4] = {1, 2, 3, 4};
                 PView v = { tmp, 4 };
                 out[0] = first(v);
             }",
            "2:45: error: member 'p' of 'struct (anonymous)' holds a pointer to a private variable of the kernel, which this function cannot reach",
        ),
        (
            "void f(int **pp) { **pp = 3; }
             __kernel void k(__global int *out) {
                 int t = 1;
                 int *p = &t;
                 f(&p);
                 out[0] = t;
             }",
            "1:21: error: the '__generic int*' a pointer to a pointer reaches here holds a pointer to a private variable of the kernel",
        ),
        (
            "__constant int t0[2] = {1, 2};
             typedef struct { __constant int *p; int n; } CS;
             __global CS cs = { t0, 2 };
             __kernel void k(__global int *out) { out[0] = cs.p[1]; }",
            "4:62: error: a pointer stored in __global or __constant memory is not supported",
        ),
        (
            "typedef struct { __global int *p; char c; } SC;
             __kernel void k(__global int *a, __global int *out) {
                 SC s = { a, 1 };
                 out[0] = s.p[1] + s.c;
             }",
            "3:27: error: a pointer member of a union, or of a struct held as bytes",
        ),
        (
            "typedef struct { __global int *p; } S;
             __kernel void k(S s, __global int *out) { out[0] = *s.p; }",
            "2:32: error: struct kernel parameters may not contain pointers",
        ),
        (
            "__kernel void k(__global int *a, ulong bits) {
                 __global int *p = (__global int *)bits;
                 p[0] = 1;
             }",
            "converting an integer to a pointer is not supported",
        ),
    ];
    for (source, expected) in cases {
        let log = log_of(source);
        assert!(
            log.contains(expected),
            "for {source}\nexpected {expected}\ngot:\n{log}"
        );
    }
}

/// `global int *ptrs[2]` is a private array of pointers to `__global`
/// memory (the qualifier is the pointee's, as in clang), not a function
/// scope variable in the global address space; a variable that is one is
/// still an error.
#[test]
fn address_space_of_an_array_of_pointers_is_the_pointees() {
    let ok = "__kernel void k(__global int *a, __global int *b, __global int *out, int i) {
                  __global int *ptrs[2] = { a, b };
                  const __global int *ro[2] = { a, b };
                  ro[1] = a + 1;
                  __global int *p = ptrs[i];
                  out[0] = *p + *ro[1];
              }";
    if let Err(e) = translator::build(ok, "-cl-std=CL3.0", &DeviceCaps::full()) {
        panic!("an array of pointers to __global memory must build: {e}");
    }
    let log = log_of(
        "__kernel void k(__global int *out) {
             __global int xs[2];
             out[0] = xs[0];
         }",
    );
    assert!(
        log.contains(
            "2:27: error: function scope variable cannot be declared in global address space"
        ),
        "got:\n{log}"
    );
}

/// A pointer read from a struct member or array element that nothing
/// stores into is null, not a root the analysis missed.
#[test]
fn pointers_read_from_members_never_given_one_are_null() {
    let source = "typedef struct { __global float *p; int n; } View;
                  __kernel void k(__global float *out) {
                      View w;
                      __global float *q = w.p;
                      __global float *ptrs[2];
                      __global float *r = ptrs[1];
                      out[0] = (q == 0) + (r == 0);
                  }";
    if let Err(e) = translator::build(source, "-cl-std=CL3.0", &DeviceCaps::full()) {
        panic!("must build: {e}");
    }
}
