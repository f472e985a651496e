// expect: 5:29: error: invalid conversion between ext-vector type
// Casts between vector types are not allowed: convert_int4 is needed.
__kernel void k(__global const float4 *in, __global int4 *out)
{
    out[get_global_id(0)] = (int4)in[get_global_id(0)];
}
