// __local memory of chars and shorts at its real size: a 16 KiB __local
// uchar argument, __local uchar/short2 array variables and a __local
// ushort argument, together near the 32 KiB a CPU device offers. Work-items
// write interleaved bytes (neighbours share 32-bit words), then read
// another's after the barrier.

__kernel void local_bytes(__global const uchar *in, __global uchar *out,
                          __local uchar *scratch, __global uint *words)
{
    __local uchar tile[12288];
    __local short2 pairs[512];
    uint l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
    uint per_item = 16384 / n;
    for (uint k = 0; k < per_item; k++)
        scratch[k * n + l] = (uchar)(in[g * 16384 + k * n + l] + 1);
    for (uint k = 0; k < 12288 / n; k++)
        tile[k * n + l] = (uchar)(k * 7 + l);
    for (uint k = 0; k < 512 / n; k++)
        pairs[k * n + l] = (short2)((short)(l - k), (short)(k * 300));
    barrier(CLK_LOCAL_MEM_FENCE);
    uint r = n - 1 - l;
    for (uint k = 0; k < per_item; k++)
        out[g * 16384 + k * n + r] = scratch[k * n + r] ^ tile[(k * n + r) % 12288];
    // The argument's words as the host packs the bytes: little-endian.
    words[g * 4096 + l] = ((__local uint *)scratch)[l];
    short2 p = pairs[(l * 5) % 512];
    words[g * 4096 + n + l] = (uint)(ushort)p.x | (uint)(ushort)p.y << 16;
}

__kernel void local_shorts(__global const short *in, __global short *out, __local short *s,
                           __local char3 *c)
{
    uint l = get_local_id(0), n = get_local_size(0);
    s[l] = (short)(in[l] * 3);
    c[l] = (char3)((char)l, (char)-l, (char)(l * 3));
    barrier(CLK_LOCAL_MEM_FENCE);
    char3 v = c[n - 1 - l];
    out[l] = (short)(s[n - 1 - l] + v.x + v.y + v.z);
}
