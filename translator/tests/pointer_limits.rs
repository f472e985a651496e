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
        (
            "__global int *same(__global int *p) { return p; }
             __kernel void k(__global int *a, __global int *b, int c) {
                 *same(c ? a : b) = 1;
             }",
            "a function returning a pointer, given a pointer chosen at run time",
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
