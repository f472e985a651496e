// double vectors under cl_khr_fp64: double4 arithmetic, comparisons giving
// long4 masks, conversions to and from float4.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void double_vectors(__global const double4 *a, __global const float4 *b,
                             __global double4 *out, __global float4 *narrowed)
{
    const int i = get_global_id(0);
    const double4 x = a[i];
    const double4 y = convert_double4(b[i]);
    const long4 mask = x < y;
    double4 r = select(x, y, mask);
    r = fma(r, (double4)(0.5), sqrt(fabs(x)));
    out[i] = r;
    narrowed[i] = convert_float4(r);
    const double s = dot(r.xy, r.zw);
    out[i].w += s;
}
