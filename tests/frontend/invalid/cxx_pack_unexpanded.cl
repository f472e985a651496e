// options: -cl-std=CLC++
// expect: 4:52: error: expression contains unexpanded parameter pack 'xs'
// A function parameter pack is named only in an expansion.
template <typename... Ts> int f(Ts... xs) { return xs; }
__kernel void k(__global int *out) { out[0] = f(1, 2); }
