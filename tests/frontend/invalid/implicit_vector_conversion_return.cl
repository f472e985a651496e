// expect: 6:12: error: returning
// expect: 6:12: error: incompatible result type
// Returning a float2 from a function declared to return int2.
int2 to_pixel(float2 uv)
{
    return uv * 512.0f;
}

__kernel void k(__global const float2 *in, __global int2 *out)
{
    out[get_global_id(0)] = to_pixel(in[get_global_id(0)]);
}
