// options: -cl-std=CLC++
// expect: 8:32: error: an initializer list is only supported after 'return' and as a function's argument by clvulkan's C++ for OpenCL yet
// `{...}` takes its type from its context; clvulkan has that context only
// after `return` and in arguments so far (clang would assign a temporary
// made from it).
struct P { int a, b; };
__kernel void k(__global int *out) {
    P p; p.a = 0; p.b = 0; p = {1, 2}; out[0] = p.a + p.b;
}
