// expect: 6:10: error: vector is not assignable (contains duplicate components)
// A swizzle that names a component twice cannot be assigned to.
__kernel void k(__global float4 *v)
{
    float4 a = v[get_global_id(0)];
    a.xx = (float2)(1.0f, 2.0f);
    v[get_global_id(0)] = a;
}
