// options: -cl-std=CLC++
// expect: 6:7: error: overloading 'f' is not supported by clvulkan's C++ for OpenCL yet, which takes the language's C subset
// Without overloading, a second signature for a name is an error that
// says so rather than C's "conflicting types" (clang accepts this file).
int f(int x) { return x; }
float f(float x) { return x; }
__kernel void k(__global float *out) { out[0] = f(1.0f); }
