// expect: 7:30: error: 'endian' attribute only applies to pointer
// The endian attribute applies to pointer types only (variable attributes
// in the OpenCL C spec); clang ignores the attribute, so the wording is
// ours. Reported at the attribute name.
__kernel void k(__global float *data)
{
    int value __attribute__((endian(host))) = 0;
    data[get_global_id(0)] = value;
}
