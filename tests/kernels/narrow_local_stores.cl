// Bytes and halves stored through cast pointers into __local arrays of
// float, ulong, float4, short and int4, by many work-items at once into
// the same words, over values stored typed before, the casts written on
// the arrays, on a helper's parameter, on a pointer variable and on one
// choosing between two arrays at run time; and into
// a private float array. Each store must change its own bytes only; the
// host computes the same bytes.
void store_byte(__local float *words, int at, uchar b)
{
    ((__local uchar *)words)[at] = b;
}

__kernel void narrow_local_stores(__global uint *out, __global uint *private_out, uchar seed)
{
    __local float f[16];
    __local ulong l[16];
    __local float4 v[4];
    __local short s[32];
    __local int4 i4[8];
    __local float h[16];
    __local ulong pv[8];
    __local float ca[16], cb[16];
    int lid = get_local_id(0);
    int group = get_group_id(0);
    uchar b = (uchar)(seed + lid * 7 + group * 13);
    if (lid < 16) {
        f[lid] = -1.0f;
        l[lid] = 0x0123456789abcdefUL;
    }
    if (lid < 4)
        v[lid] = (float4)(lid, -lid, 0.5f, 2.0f);
    if (lid < 32)
        s[lid] = (short)-lid;
    if (lid < 8)
        i4[lid] = (int4)(lid, -lid, lid * 1000, 7);
    if (lid < 16)
        h[lid] = 2.0f;
    if (lid < 8)
        pv[lid] = ~0UL;
    if (lid < 16)
        ca[lid] = cb[lid] = -0.5f;
    barrier(CLK_LOCAL_MEM_FENCE);

    if (lid & 1)
        ((__local uchar *)f)[lid] = b;
    if (lid < 48)
        ((__local ushort *)l)[lid] = (ushort)(b * 257u);
    __local uchar *vb = (__local uchar *)&v[0];
    if (lid % 5 != 0)
        vb[lid] = b;
    if (lid % 3 != 0)
        ((__local char *)s)[lid] = (char)b;
    if (lid % 4 != 3)
        ((__local ushort *)i4)[lid] = (ushort)(b * 3u + 1u);
    if (lid % 3 == 1)
        store_byte(h, lid, b);
    __local ulong *pp = pv + 1;
    __local uchar *pb = (__local uchar *)pp;
    if (lid < 56)
        pb[lid] = b ^ 0x33;
    __local float *chosen = (group & 1) ? ca : cb;
    if (lid % 4 != 0)
        ((__local uchar *)chosen)[lid] = b;
    barrier(CLK_LOCAL_MEM_FENCE);

    __global uint *o = out + group * 192;
    if (lid < 16) {
        o[lid] = as_uint(f[lid]);
        o[16 + 2 * lid] = (uint)l[lid];
        o[17 + 2 * lid] = (uint)(l[lid] >> 32);
    }
    if (lid < 4)
        vstore4(as_uint4(v[lid]), lid, o + 48);
    if (lid < 32)
        o[64 + lid] = (uint)(int)s[lid];
    if (lid < 8)
        vstore4(as_uint4(i4[lid]), lid, o + 96);
    if (lid < 16)
        o[128 + lid] = as_uint(h[lid]);
    if (lid < 8)
        vstore2(as_uint2(pv[lid]), lid, o + 144);
    if (lid < 16) {
        o[160 + lid] = as_uint(ca[lid]);
        o[176 + lid] = as_uint(cb[lid]);
    }

    float p[4] = {1.5f, -2.0f, 3.0f, 0.25f};
    ((uchar *)p)[lid & 15] = b;
    ((ushort *)p)[(lid >> 2) & 7] = (ushort)(lid * 1111);
    for (int k = 0; k < 4; k++)
        private_out[get_global_id(0) * 4 + k] = as_uint(p[k]);
}
