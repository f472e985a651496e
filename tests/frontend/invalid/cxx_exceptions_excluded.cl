// options: -cl-std=CLC++
// expect: 4:38: error: cannot use 'throw' with exceptions disabled
// C++ for OpenCL has no exceptions: clang's error.
__kernel void k(__global int *out) { throw 1; }
