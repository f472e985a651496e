// options: -cl-std=CLC++
// expect: 4:14: error: references are not supported by clvulkan's C++ for OpenCL yet, which takes the language's C subset
// References end the parse with one error (clang accepts this file).
void set(int &x) { x = 1; }
__kernel void k(__global int *out) { int v = 0; set(v); out[0] = v; }
