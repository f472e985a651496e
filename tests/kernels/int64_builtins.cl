// options: -cl-std=CL2.0
// Integer built-ins on 64-bit lanes (clz, ctz, popcount, rotate, mul_hi,
// mad_hi, mad_sat), and mad_sat/upsample on every width.
__kernel void ulong_ops(__global const ulong *a, __global const ulong *b,
                        __global ulong *o) {
    size_t i = get_global_id(0);
    ulong x = a[i], y = b[i];
    __global ulong *r = o + 8 * i;
    r[0] = clz(x);
    r[1] = ctz(x);
    r[2] = popcount(x);
    r[3] = rotate(x, y);
    r[4] = mul_hi(x, y);
    r[5] = mad_hi(x, y, x);
    r[6] = mad_sat(x, y >> (y & 63), x);
    ulong2 v = mul_hi((ulong2)(x, y), (ulong2)(y, x)) + clz((ulong2)(y, x));
    r[7] = v.x ^ v.y;
}

__kernel void long_ops(__global const long *a, __global const long *b,
                       __global long *o) {
    size_t i = get_global_id(0);
    long x = a[i], y = b[i];
    __global long *r = o + 5 * i;
    r[0] = mul_hi(x, y);
    r[1] = mad_sat(x, y >> (y & 63), x);
    r[2] = rotate(x, y);
    r[3] = clz(x) + 100 * popcount(y);
    r[4] = mad_hi(x, y, y);
}

__kernel void narrow_ops(__global const int *a, __global const int *b,
                         __global int *o) {
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    __global int *r = o + 8 * i;
    r[0] = mad_sat((char)x, (char)y, (char)(x >> 8));
    r[1] = mad_sat((uchar)x, (uchar)y, (uchar)(x >> 8));
    r[2] = mad_sat((short)x, (short)y, (short)(x >> 16));
    r[3] = mad_sat((ushort)x, (ushort)y, (ushort)(x >> 16));
    r[4] = mad_sat(x, y, x ^ y);
    r[5] = (int)mad_sat((uint)x, (uint)y, (uint)(x ^ y));
    r[6] = upsample((short)(x >> 16), (ushort)y);
    r[7] = upsample((char)(x >> 24), (uchar)y);
}

__kernel void upsample_long(__global const int *a, __global const int *b,
                            __global long *o) {
    size_t i = get_global_id(0);
    o[i] = upsample(a[i], (uint)b[i]);
}
