// 64-bit division and remainder (done in software, see
// translator/src/lower/divide64.rs), scalar and vector, signed and
// unsigned, followed by code that keeps both operands live: the pattern
// NVIDIA's compiler got wrong around its own 64-bit division.
__kernel void divide_u64(__global const ulong *a, __global const ulong *b,
                         __global ulong *out) {
    size_t i = get_global_id(0);
    ulong x = a[i], y = b[i];
    out[4 * i] = x / y;
    out[4 * i + 1] = x % y;
    out[4 * i + 2] = add_sat(x, y);
    ulong2 v = (ulong2)(x, y) / (ulong2)(y | 1, 3);
    out[4 * i + 3] = v.x ^ v.y;
}

__kernel void divide_s64(__global const long *a, __global const long *b,
                         __global long *out) {
    size_t i = get_global_id(0);
    long x = a[i], y = b[i];
    out[3 * i] = x / y;
    out[3 * i + 1] = x % y;
    long4 v = (long4)(x, -x, x, 7) % (long4)(y, y, -y, -3);
    out[3 * i + 2] = v.x + 3 * v.y + 5 * v.z + 7 * v.w;
}
