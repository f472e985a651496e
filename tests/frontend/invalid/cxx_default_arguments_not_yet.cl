// options: -cl-std=CLC++
// expect: 4:13: error: default arguments are not supported by clvulkan's C++ for OpenCL yet, which takes the language's C subset
// (clang accepts this file.)
int f(int x = 2) { return x; }
__kernel void k(__global int *out) { out[0] = f(); }
