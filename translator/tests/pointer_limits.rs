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
            "__kernel void k(__global float *out) {
                 ushort h[2] = {0x3c00, 0};
                 out[0] = vload_half(0, (half *)h);
             }",
            "reading or writing 'half' through a cast pointer",
        ),
        (
            "__kernel void k(__global float *out, __local float *words) {
                 ((__local uchar *)words)[get_local_id(0)] = 1;
                 out[0] = words[0];
             }",
            "storing part of a 'float' element of __local memory through a cast pointer",
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
