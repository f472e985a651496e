// expect: 6:30: error: illegal vector component name
// xyzw and numeric selectors cannot be mixed in one swizzle.
__kernel void k(__global float4 *v, __global float2 *out)
{
    const float4 a = v[get_global_id(0)];
    out[get_global_id(0)] = a.xs1;
}
