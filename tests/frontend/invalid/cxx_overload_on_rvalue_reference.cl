// options: -cl-std=CLC++
// expect: 6:6: error: overloading 'take' on lvalue and rvalue references is not supported by clvulkan's C++ for OpenCL yet, which takes the language's C subset
// Rvalue references bind objects too (casts need no value category), so
// overloads told apart only by '&' and '&&' cannot be chosen between.
void take(int &x) { x = 1; }
void take(int &&x) { x = 2; }
__kernel void k(__global int *out) { int v = 0; take(v); out[0] = v; }
