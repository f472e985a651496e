// options: -cl-std=CLC++
// expect: 6:66: error: 'this' argument to member function 'get' has type 'const __private S', but function is not marked const
// A `const` object needs a `const` member function (clang's error, at the
// object).
struct S { int x; int get() { return x; } };
__kernel void k(__global int *out) { const S s = { 1 }; out[0] = s.get(); }
