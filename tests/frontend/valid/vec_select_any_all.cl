// Vector relational built-ins: comparisons giving int4 masks, select with
// integer masks, any/all, isnan/isinf and bitselect.
__kernel void relational(__global const float4 *a, __global const float4 *b,
                         __global float4 *out, __global int *flags)
{
    const int i = get_global_id(0);
    const float4 x = a[i];
    const float4 y = b[i];
    const int4 gt = x > y;
    float4 r = select(y, x, gt);
    r = select(r, (float4)(0.0f), isnan(r));
    const int4 inf = isinf(x);
    int f = 0;
    if (any(gt))
        f |= 1;
    if (all(x == y))
        f |= 2;
    if (any(inf))
        f |= 4;
    f |= isgreater(x.x, y.x) << 3;
    out[i] = bitselect(r, x, as_float4((uint4)(0x80000000u)));
    flags[i] = f;
    const int s = select(1, 2, f > 3);
    flags[i] += s;
}
