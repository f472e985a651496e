// options: -cl-std=CLC++
// expect: 6:35: error: partial specialization patterns other than 'T', 'const T', 'T *', 'C<...>' and constants are not supported
// A pattern clvulkan cannot match is an error where it is declared,
// never a specialization that silently matches nothing (clang accepts it).
template <typename T> struct Rank { int r; };
template <typename T> struct Rank<T **> { int r; };
__kernel void k(__global int *out) { Rank<int> x = {1}; out[0] = x.r; }
