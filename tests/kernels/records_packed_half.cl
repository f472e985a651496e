// Packed struct members at every byte offset, and structs with half
// members (tests/records_packed_half.rs declares the same types with
// #[repr(C)]). Neighbouring work-items write members that share 32-bit
// words with each other's, so no write may be lost.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// 25 bytes: in an array, members start at every offset modulo 4.
typedef struct __attribute__((packed)) {
    char c;
    long l;
    double d;
    int i;
    short s;
    half h;
} Packed;

Packed changed(Packed x, uint k) {
    Packed y;
    y.c = x.c + 1;
    y.l = x.l ^ ((long)k << 40 | k);
    y.d = x.d * 2.0;
    y.i = x.i - (int)k;
    y.s = -x.s;
    y.h = x.h * 2.0h;
    return y;
}

// Members read from and written into a buffer one by one, by neighbours at
// the same time; the whole value copied out through private memory.
__kernel void packed_members(__global Packed *p, __global Packed *copies,
                             __global long *sums) {
    uint k = get_global_id(0);
    Packed x = p[k];
    copies[k] = changed(x, k);
    sums[k] = x.l + x.i + x.s + x.c + (long)x.d + (long)x.h;
    p[k].l = x.l + 1;
    p[k].d = -x.d;
    p[k].i = ~x.i;
    p[k].s = x.s + 3;
    p[k].h = -x.h;
    p[k].c = x.c - 1;
}

// The same through __local memory: each work-item writes its element's
// members, then reads its neighbour's whole element.
__kernel void packed_local(__global const Packed *in, __global Packed *out) {
    __local Packed shared[64];
    uint l = get_local_id(0);
    uint g = get_global_id(0);
    Packed x = in[g];
    shared[l].c = x.c;
    shared[l].l = x.l;
    shared[l].d = x.d;
    shared[l].i = x.i;
    shared[l].s = x.s;
    shared[l].h = x.h;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = changed(shared[(l + 1) % 64], g);
}

typedef struct {
    half h;
    char c;
    half2 v;
    float f;
    half4 w;
    half3 t;
} Halves;

// Half members copied (bits unchanged, subnormals and NaNs included),
// computed with, and written member by member and lane by lane.
__kernel void half_members(__global Halves *p, __global float *out, Halves by_value) {
    uint k = get_global_id(0);
    Halves x = p[k];
    out[k] = (float)x.h + (float)x.v.y + x.f + (float)x.w.z + (float)x.t.x
             + (float)by_value.w.y;
    __local Halves shared[64];
    uint l = get_local_id(0);
    shared[l] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    Halves n = shared[(l + 1) % 64];
    p[k].h = x.w.w;
    p[k].v = x.v.yx;
    p[k].w = (half4)(n.h, x.t.z, x.t.y, x.h);
    p[k].t.y = x.v.x;
    p[k].t.x = by_value.h;
    p[k].f = (float)(x.h + x.v.x);
    p[k].c = x.c + 1;
}

// A packed struct by value (in the push constants or the launch block) and
// in a __constant table.
__constant Packed table[3] = {
    {-3, 0x0102030405060708L, -2.5, 0x11223344, -7, 1.5h},
    {4, -1L, 1e300, -1, 0x7fff, -0.25h},
    {0x7f, 0x7fffffffffffffffL, 0.0, 0, -32768, 65504.0h},
};

__kernel void packed_by_value(__global Packed *out, Packed v) {
    uint k = get_global_id(0);
    out[k] = k < 3 ? table[k] : changed(v, k);
}
