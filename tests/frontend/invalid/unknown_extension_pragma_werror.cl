// options: -Werror
// expect: 5:26: error: OpenCL extension 'foo' unknown or does not require pragma - ignoring
// An extension no compiler knows is a warning, which -Werror makes an
// error as clang does.
#pragma OPENCL EXTENSION foo : enable
kernel void k(global int *out) { out[0] = 1; }
