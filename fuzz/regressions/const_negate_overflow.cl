// Constant folding of an array size negated the most negative i128,
// which overflows: a panic in a debug build.
kernel void k(global int *a) { int x[-(1 << 127) ? 1 : 2]; a[0] = sizeof(x); }
