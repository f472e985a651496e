// options: -cl-std=CLC++
// expect: 7:51: error: an initializer list is only supported after 'return' by clvulkan's C++ for OpenCL yet
// `{...}` takes its type from its context; clvulkan has that context only
// after `return` so far (clang would construct the parameter from it).
struct P { int a, b; };
int sum(P p) { return p.a + p.b; }
__kernel void k(__global int *out) { out[0] = sum({1, 2}); }
