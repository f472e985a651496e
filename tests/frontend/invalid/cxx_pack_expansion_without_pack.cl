// options: -cl-std=CLC++
// expect: 5:60: error: pack expansion does not contain any unexpanded parameter packs
// The pattern of an expansion names a pack.
template <typename... Ts> void g(Ts... xs) {}
template <typename... Ts> void f(Ts... xs) { int y = 1; g(y...); }
__kernel void k(__global int *out) { f(1); }
