// expect: 8:7: error: different endian
// Assigning a host-endian pointer to a (default) device-endian one is an
// error (variable attributes in the OpenCL C spec); clang ignores the
// attribute, so the wording is ours. Reported at the '='.
__kernel void k(__global uint *data, __global uint *host_data __attribute__((endian(host))))
{
    __global uint *p = data;
    p = host_data;
    p[0] = 1u;
}
