// options: -cl-std=CLC++
// expect: 4:23: error: variadic class and alias templates are not supported by clvulkan's C++ for OpenCL yet
// Function templates take parameter packs; class templates do not yet.
template <typename... Ts> struct Tuple { int n = sizeof...(Ts); };
__kernel void k(__global int *out) { Tuple<int, float> t; out[0] = t.n; }
