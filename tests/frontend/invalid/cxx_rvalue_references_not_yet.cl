// options: -cl-std=CLC++
// expect: 4:14: error: rvalue references are not supported by clvulkan's C++ for OpenCL yet, which takes the language's C subset
// Rvalue references end the parse with one error (clang accepts this file).
void set(int &&x) { x = 1; }
__kernel void k(__global int *out) { set(1); out[0] = 0; }
