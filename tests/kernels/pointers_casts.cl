// Pointer casts on __local, __constant and private memory, read and
// written as other types, wider and narrower.

__constant uint table[4] = {0x04030201u, 0x08070605u, 0x0c0b0a09u, 0x100f0e0du};
__constant float halves[2] = {0.5f, -2.0f};

__kernel void local_vectors(__global const float *in, __global float *out) {
    __local float lds[64];
    int l = get_local_id(0);
    int g = get_global_id(0);
    lds[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local float4 *v = (__local float4 *)lds;
    float4 q = v[l / 4];
    float lane = v[l / 4].y;
    barrier(CLK_LOCAL_MEM_FENCE);
    // Each work-item of the first 16 rewrites one whole float4.
    if (l < 16)
        v[l] = (float4)(l, l + 0.25f, l + 0.5f, l + 0.75f);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = q.x + q.w * 10.0f + lane * 100.0f + lds[l] * 1000.0f;
}

__kernel void private_bits(__global const float *in, __global uint *out) {
    int i = get_global_id(0);
    float f = in[i];
    uint bits = *(uint *)&f;
    int x = (int)bits;
    uchar *bytes = (uchar *)&x;
    bytes[1] = (uchar)(0xa0 + i);
    short hi = ((short *)&x)[1];
    uchar c[8];
    for (int k = 0; k < 8; k++)
        c[k] = (uchar)(i + k * 16);
    uint word = ((uint *)c)[1];
    *(uint *)c = 0xdeadbeefu;
    ulong wide = (ulong)bits << 20 | (ulong)i;
    uint *halves32 = (uint *)&wide;
    char4 v = (char4)(-1, 2, -3, (char)i);
    int packed = *(int *)&v;
    out[i * 8 + 0] = bits;
    out[i * 8 + 1] = (uint)x;
    out[i * 8 + 2] = (uint)(int)hi;
    out[i * 8 + 3] = word;
    out[i * 8 + 4] = (uint)c[0] | (uint)c[3] << 8 | (uint)c[4] << 16;
    out[i * 8 + 5] = halves32[0];
    out[i * 8 + 6] = halves32[1];
    out[i * 8 + 7] = (uint)packed;
}

__kernel void constant_bytes(__global uint *out) {
    int i = get_global_id(0);
    __constant uchar *bytes = (__constant uchar *)table;
    __constant ushort *shorts = (__constant ushort *)table;
    __constant uint *bits = (__constant uint *)halves;
    out[i * 3 + 0] = bytes[i % 16];
    out[i * 3 + 1] = shorts[i % 8];
    out[i * 3 + 2] = bits[i & 1];
}

// Bytes and shorts of __local int/uint arrays written by different
// work-items at once (atomically), then read back through both views.
__kernel void local_bytes(__global const uchar *in, __global uint *words_out,
                          __global int *ints_out, __global uint *readback) {
    __local uint words[16];
    __local int ints[16];
    int l = get_local_id(0);
    int g = get_global_id(0);
    if (l < 16) {
        words[l] = 0xffffffffu;
        ints[l] = -1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    __local uchar *bytes = (__local uchar *)words;
    bytes[l] = in[g];
    __local short *halves = (__local short *)ints;
    if (l < 32)
        halves[l] = (short)(in[g] * -3);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 16) {
        words_out[g / 64 * 16 + l] = words[l];
        ints_out[g / 64 * 16 + l] = ints[l];
    }
    readback[g] = (uint)bytes[63 - l] | (uint)(ushort)halves[l & 31] << 16;
}
