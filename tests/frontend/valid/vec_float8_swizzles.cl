// 8-wide float vectors: .lo/.hi/.even/.odd halves, numeric .sN selectors
// and vload8/vstore8, as in wide SIMD-style kernels.
__kernel void float8_ops(__global const float *in, __global float *out,
                         __global float4 *halves)
{
    const int i = get_global_id(0);
    float8 v = vload8(i, in);
    const float4 lo = v.lo;
    const float4 hi = v.hi;
    const float4 ev = v.even;
    const float4 od = v.odd;
    v.lo = hi;
    v.hi = lo;
    v.s0 = v.s7 + v.s3;
    v.s12 = (float2)(ev.x, od.w);
    const float8 w = (float8)(lo, hi) * v;
    vstore8(w + v, i, out);
    halves[2 * i] = ev + od;
    halves[2 * i + 1] = v.s0246 - v.s1357;
}
