// Vector literals in all their forms: splats, per-component lists, and
// lists built from smaller vectors (float4 from two float2, int8 from
// int4 + int2 + two scalars).
__kernel void literals(__global float4 *f4, __global int8 *i8, __global float2 *f2)
{
    const int i = get_global_id(0);
    const float2 a = (float2)(1.0f, 2.0f);
    const float2 b = (float2)(3.0f);
    const float4 c = (float4)(a, b);
    const float4 d = (float4)(a.x, b, 4.0f);
    const float4 e = (float4)(c.zw, d.xy);
    const int4 k = (int4)(1, 2, 3, 4);
    const int2 m = (int2)(i, -i);
    f4[i] = c + d * e;
    i8[i] = (int8)(k, m, 7, 8);
    f2[i] = (float2)(e.w) + a;
}
