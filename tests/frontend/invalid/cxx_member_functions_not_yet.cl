// options: -cl-std=CLC++
// expect: 5:23: error: member functions are not supported by clvulkan's C++ for OpenCL yet, which takes the language's C subset
// A method is named at its declaration, and the parse ends there (clang
// accepts this file).
struct S { int x; int get() { return x; } };
__kernel void k(__global int *out) { S s = { 1 }; out[0] = s.x; }
