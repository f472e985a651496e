// half arithmetic (cl_khr_fp16): operators on scalars, a by-value half
// argument, literals, comparisons and the vector widths.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void arith(__global const half *x, __global const half *y, half k,
                    __global half *out, __global int *cmp)
{
    size_t i = get_global_id(0);
    half a = x[i], b = y[i];
    __global half *o = out + 8 * i;
    o[0] = a + b;
    o[1] = a - b;
    o[2] = a * b;
    o[3] = a / b;
    o[4] = -a;
    o[5] = a * k;
    half c = a;
    c += 1.5h;
    c *= b;
    o[6] = c;
    o[7] = fma(a, b, k);
    __global int *r = cmp + 6 * i;
    r[0] = a < b;
    r[1] = a <= b;
    r[2] = a == b;
    r[3] = a != b;
    r[4] = a > b ? 1 : 0;
    r[5] = (int)a;
}

// Each width: v * w - v, lane by lane (no contraction into fma on half).
__kernel void vectors(__global const half *x, __global const half *y,
                      __global half *o2, __global half *o3, __global half *o4,
                      __global half *o8, __global half *o16)
{
    size_t i = get_global_id(0);
    half2 a2 = vload2(i, x), b2 = vload2(i, y);
    vstore2(a2 * b2 - a2, i, o2);
    half3 a3 = vload3(i, x), b3 = vload3(i, y);
    vstore3(a3 * b3 - a3, i, o3);
    __global const half4 *x4 = (__global const half4 *)x;
    __global const half4 *y4 = (__global const half4 *)y;
    ((__global half4 *)o4)[i] = x4[i] * y4[i] - x4[i];
    half8 a8 = vload8(i, x), b8 = vload8(i, y);
    vstore8(a8 * b8 - a8, i, o8);
    half16 a16 = vload16(i, x), b16 = vload16(i, y);
    vstore16(a16 * b16 - a16, i, o16);
}

// Swizzles, shuffle, select and as_type on vectors of half.
// `c` is a by-value half4 argument.
__kernel void shuffles(__global const half4 *x, __global half4 *out, __global ushort4 *bits,
                       __global uint2 *words, half4 c)
{
    size_t i = get_global_id(0);
    half4 v = x[i];
    half4 r = v.wzyx + c;
    out[i] = select(r, v, isgreater(v, (half4)0.0h));
    bits[i] = as_ushort4(shuffle(v, (ushort4)(2, 0, 3, 1)));
    words[i] = as_uint2(v);
}
