// double8/double16 when the device has cl_khr_fp64: arithmetic, built-ins
// split into parts, conversions, vload8/vstore16, and reinterpretation to
// and from other lane counts of the same size. Every result is exact.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void double_ops(__global const double8 *a, __global double8 *out,
                         __global double *joined, __global float8 *halves,
                         double8 k)
{
    size_t g = get_global_id(0);
    double8 x = a[g];
    double8 same = vload8(g, (__global const double *)a);
    __global double8 *o = out + g * 4;
    o[0] = x * 2.0 + k;
    o[1] = fmax(x, 1.0) - floor(x);
    o[2] = convert_double8(convert_int8(x)) + convert_double8(x > k);
    o[3] = as_double8(as_long8(same) ^ (long8)(1));
    vstore16((double16)(x, x.s76543210), g, joined);
    halves[g] = as_float8(as_double4(x.lo)) + as_float8(x.hi.lo.s0101);
}
