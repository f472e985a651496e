// Explicit conversions and reinterpretations: convert_int4_sat, rounding
// modes, as_uint/as_float4 bit casts, and scalar-to-vector widening.
__kernel void conversions(__global const float4 *in,
                          __global int4 *ints,
                          __global uchar4 *bytes,
                          __global uint *bits,
                          __global float4 *back)
{
    const int i = get_global_id(0);
    const float4 v = in[i];
    ints[i] = convert_int4_sat(v * 1000.0f);
    bytes[i] = convert_uchar4_sat_rte(v * 255.0f);
    bits[i] = as_uint(v.x) ^ as_uint(v.w);
    const uint4 raw = as_uint4(v) & (uint4)(0x7fffffffu);
    back[i] = as_float4(raw) + convert_float4(convert_int4_rtz(v));
    const short2 s = convert_short2_sat_rtn(v.xy * 40000.0f);
    back[i].x += (float)s.x + s.y;
}
