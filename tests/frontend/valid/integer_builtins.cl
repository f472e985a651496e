// Integer built-ins: mul24/mad24, mul_hi/mad_hi, rotate, popcount, clz,
// abs/abs_diff, saturating add/sub, hadd/rhadd and upsample.
__kernel void int_ops(__global const int *a, __global const int *b,
                      __global uint *u, __global int *s, __global ulong *wide)
{
    const int i = get_global_id(0);
    const int x = a[i];
    const int y = b[i];
    s[i] = mul24(x, y) + mad24(x, 3, y) + mul_hi(x, y) + mad_hi(x, y, 1);
    s[i] += add_sat(x, y) - sub_sat(x, y) + hadd(x, y) + rhadd(x, y);
    s[i] += clamp(x, -100, 100) + min(x, y) * max(x, y);
    const uint ux = (uint)x;
    u[i] = rotate(ux, 7u) ^ popcount(ux) ^ clz(ux) ^ abs(x) ^ abs_diff(x, y);
    wide[i] = upsample((uint)x, (uint)y) + upsample((ushort)1, (ushort)2);
    const uint4 v = (uint4)(ux, ux >> 8, ux >> 16, ux >> 24);
    const uint4 bits = popcount(v) + clz(v) + rotate(v, (uint4)(1, 2, 3, 4));
    u[i] += bits.x + bits.y + bits.z + bits.w;
}
