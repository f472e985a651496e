// options: -cl-std=CLC++
// expect: 8:13: error: constructing an array of more than 256 objects is not supported by clvulkan's C++ for OpenCL yet, which takes the language's C subset
// Each element of an array of objects is constructed by a call of its
// own, unrolled: past 256 elements that is a named error, never an array
// left unconstructed.
struct Counter { int n; Counter() : n(1) {} };
__kernel void k(__global int *out) {
    Counter many[300];
    out[0] = many[299].n;
}
