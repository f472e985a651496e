// Writing through swizzles and selectors: .xy = , .s3 = , .hi = , .odd =,
// and compound assignment on a component, on private and global vectors.
__kernel void component_writes(__global float4 *v4, __global int8 *v8)
{
    const int i = get_global_id(0);
    float4 a = v4[i];
    a.xy = a.yx;
    a.s3 = 1.0f;
    a.z *= 2.0f;
    a.wz = (float2)(0.5f, 0.25f);
    v4[i] = a;
    v4[i].x = a.w;

    int8 b = v8[i];
    b.hi = b.lo;
    b.odd = (int4)(1, 3, 5, 7);
    b.s7 += b.s0;
    v8[i] = b;
    v8[i].s01 = (int2)(i, i + 1);
}
