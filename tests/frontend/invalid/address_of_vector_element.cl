// expect: 6:16: error: address of vector element requested
// Vector components have no address.
__kernel void k(__global float4 *v, __global float *out)
{
    float4 a = v[get_global_id(0)];
    float *p = &a.y;
    out[get_global_id(0)] = *p;
}
