// Addresses of members of private and __local structs: read and written
// bytewise through casts, and the target of atomics.

typedef struct { int a; float4 vec; } with_vector;
typedef struct { uint count; float f; int flags; } counters;

void bump(int *p) { *p += 5; }

kernel void member_bytes(global const float *in, global uint *out) {
    int g = get_global_id(0);
    with_vector s;
    s.a = g;
    s.vec = vload4(g, in);
    private uchar *b = (private uchar *)&(s.vec);
    b[0] ^= 1;
    b[7] = (uchar)g;
    uint acc = 0;
    for (int j = 0; j < 16; j++) acc = acc * 31 + b[j];
    bump(&s.a);
    with_vector pair[2];
    pair[0] = s;
    pair[1].a = -g;
    pair[1].vec = (float4)(1.0f, 3.0f, 3.0f, 4.0f);
    ushort *h = (ushort *)&pair[g & 1].vec + 2;
    h[1] = 0x4000;
    float *f = (float *)&pair[1].vec + 3;
    *f += 0.5f;
    out[8 * g] = acc;
    out[8 * g + 1] = as_uint(s.vec.x);
    out[8 * g + 2] = as_uint(s.vec.y);
    out[8 * g + 3] = (uint)s.a;
    out[8 * g + 4] = as_uint(pair[0].vec.y);
    out[8 * g + 5] = as_uint(pair[1].vec.y);
    out[8 * g + 6] = as_uint(pair[1].vec.w);
    out[8 * g + 7] = (uint)pair[1].a;
}

kernel void member_atomics(global uint *out) {
    local counters c;
    int l = get_local_id(0);
    if (l == 0) {
        c.count = 0;
        c.f = 1.5f;
        c.flags = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add((volatile local uint *)&c.count, 1);
    atomic_or((volatile local int *)&c.flags, 1 << (l & 7));
    atomic_inc(&c.count);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        int group = get_group_id(0);
        out[3 * group] = c.count;
        out[3 * group + 1] = as_uint(c.f);
        out[3 * group + 2] = (uint)c.flags;
    }
}
