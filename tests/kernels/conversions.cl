// convert_* with _sat and the rounding modes: from float to int, uint,
// char, uchar (scalars and a uchar4), and from int to narrower and
// unsigned types. The host recomputes them (Rust's saturating casts are
// OpenCL's _sat: out-of-range values clamp, NaN becomes 0).
__kernel void conversions(__global const float *f, __global const int *n,
                          __global int *out, __global uchar4 *pixels)
{
    int i = get_global_id(0);
    float x = f[i];
    int k = 12 * i;
    out[k + 0] = convert_int_sat(x);
    out[k + 1] = convert_int_sat_rte(x);
    out[k + 2] = convert_int_sat_rtp(x);
    out[k + 3] = convert_int_sat_rtn(x);
    out[k + 4] = convert_uchar_sat(x);
    out[k + 5] = convert_uchar_sat_rte(x);
    out[k + 6] = convert_char_sat(x);
    out[k + 7] = (int)convert_uint_sat(x);
    out[k + 8] = convert_short_sat(n[i]);
    out[k + 9] = convert_uchar_sat(n[i]);
    out[k + 10] = (int)convert_uint_sat(n[i]);
    out[k + 11] = isnan(x) || fabs(x) > 1e8f ? 0 : convert_int_rtn(x) + 3 * convert_int_rte(x);
    pixels[i] = convert_uchar4_sat_rte((float4)(x, x * 2.0f, -x, x + 0.5f));
}
