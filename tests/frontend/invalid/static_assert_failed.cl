// expect: 4:1: error: static assertion failed
// A false assertion fails at its keyword (clang 15 adds the condition's
// text to the message).
_Static_assert(sizeof(long) == 4, "long is 32 bits");
__kernel void k(__global int *out) { out[0] = 1; }
