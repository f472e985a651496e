// options: -cl-std=CLC++
// expect: 5:22: error: default arguments other than constants are not supported by clvulkan's C++ for OpenCL yet, which takes the language's C subset
// Only constant default arguments are there yet (clang refuses this one
// too: a default argument may not name a parameter).
int g(int a, int b = a);
__kernel void k(__global int *out) { out[0] = 1; }
