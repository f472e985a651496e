// options: -cl-std=CLC++
// expect: 5:12: error: virtual functions are not supported in C++ for OpenCL
// C++ for OpenCL leaves virtual functions out: clang's error, not a "not
// yet".
struct B { virtual int f() { return 1; } };
__kernel void k(__global int *out) { out[0] = 0; }
