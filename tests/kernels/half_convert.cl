// Conversions to and from half (cl_khr_fp16): every rounding mode from
// float, int and double, saturating conversions to integers, as_type.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define ROUNDINGS(x, o) o[0] = convert_half(x); o[1] = convert_half_rtz(x); \
                        o[2] = convert_half_rtp(x); o[3] = convert_half_rtn(x); \
                        o[4] = convert_half_rte(x);

__kernel void from_float(__global const float *f, __global const int *n, __global half *o)
{
    size_t i = get_global_id(0);
    __global half *r = o + 16 * i;
    ROUNDINGS(f[i], r)
    ROUNDINGS(n[i], (r + 5))
    r[10] = (half)f[i];
    r[11] = (half)n[i];
    r[12] = as_half((short)n[i]);
    r[13] = convert_half((uint)n[i]);
    r[14] = convert_half_rtz((ulong)(long)n[i]);
    r[15] = convert_half_rtp((long)n[i]);
}

__kernel void to_integers(__global const half *h, __global int *o, __global float *f)
{
    size_t i = get_global_id(0);
    half x = h[i];
    __global int *r = o + 10 * i;
    r[0] = convert_int(x);
    r[1] = convert_int_sat(x);
    r[2] = convert_int_sat_rte(x);
    r[3] = convert_int_sat_rtp(x);
    r[4] = convert_int_sat_rtn(x);
    r[5] = convert_uchar_sat(x);
    r[6] = convert_short_sat_rte(x);
    r[7] = (int)convert_long_sat(x);
    r[8] = as_short(x);
    r[9] = convert_char_sat_rtz(x);
    f[i] = x;
}

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void from_double(__global const double *d, __global half *o, __global double *back)
{
    size_t i = get_global_id(0);
    __global half *r = o + 5 * i;
    ROUNDINGS(d[i], r)
    back[i] = convert_double(r[0]);
}
#endif
