// expect: 8:12: error: initializing
// expect: 8:12: error: uchar4
// expect: 8:12: error: incompatible type
// Initializing a uchar4 with a float4.
__kernel void k(__global const float4 *in, __global uchar4 *out)
{
    const float4 f = in[get_global_id(0)] * 255.0f;
    uchar4 c = f;
    out[get_global_id(0)] = c;
}
