// options: -cl-std=CLC++
// expect: 4:57: error: 'x' does not refer to the name of a parameter pack
// sizeof... takes a parameter pack.
template <typename T> int count(T x) { return sizeof...(x); }
__kernel void k(__global int *out) { out[0] = count(1); }
