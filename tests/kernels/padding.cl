/* Objects seen through pointer casts outside buffers, bytes their naga
 * types would not hold, and initializers (tests/padding.rs).
 *
 * The first part is plain C too: tests/c/padding_host.c compiles it on
 * the host, whose outputs the device's must equal. The second part uses
 * vectors, and tests/padding.rs computes its outputs itself. */

typedef struct {
    int a;
    float b;
    char c;
    char e;
    short d;
} S;

/* A struct's bytes through a cast: read, one written, the members after. */
kernel void struct_bytes(global int *out) {
    int g = (int)get_global_id(0);
    S s = {g * 3 + 1, 1.5f * g, (char)g, (char)(g + 1), (short)(-g)};
    private uchar *b = (private uchar *)&s;
    out[g * 20] = b[g % 12];
    b[(g * 5) % 12] = (uchar)(0x40 + g);
    for (int k = 0; k < 12; k++)
        out[g * 20 + 1 + k] = b[k];
    out[g * 20 + 13] = s.a;
    out[g * 20 + 14] = s.c;
    out[g * 20 + 15] = s.e;
    out[g * 20 + 16] = s.d;
    /* An array of them, read as ints. */
    S two[2] = {{g, 2.0f, 3, 4, 5}, {-g, 6.0f, 7, 8, (short)(g * 100)}};
    private int *w = (private int *)two;
    w[3 + g % 3] = g * 7;
    out[g * 20 + 17] = two[1].a;
    out[g * 20 + 18] = two[1].c + two[1].e * 256;
    out[g * 20 + 19] = two[1].d;
}

/* bools through a cast to bytes, and back. */
kernel void bool_bytes(global int *out) {
    int g = (int)get_global_id(0);
    bool flags[4] = {g & 1, g & 2, 0, 1};
    private uchar *b = (private uchar *)flags;
    for (int k = 0; k < 4; k++)
        out[g * 8 + k] = b[k];
    b[g % 4] = (uchar)((g / 4) & 1);
    for (int k = 0; k < 4; k++)
        out[g * 8 + 4 + k] = flags[k] ? 10 + k : 0;
}

typedef struct {
    short lo, hi;
} P;

/* A struct seen as another struct, bools as bytes and bytes as bools. */
kernel void struct_views(global int *out) {
    int g = (int)get_global_id(0);
    S s = {g, 2.0f, (char)(g & 1), 4, (short)(g * 3)};
    private P *p = (private P *)&s;
    p[g % 3].hi = (short)(77 + g);
    out[g * 8] = p[0].lo;
    out[g * 8 + 1] = p[(g + 1) % 3].hi;
    out[g * 8 + 2] = s.a;
    out[g * 8 + 3] = s.d;
    bool flags[4] = {1, 0, g & 1, 0};
    private uchar *b = (private uchar *)flags;
    private bool *bb = (private bool *)(b + 1);
    out[g * 8 + 4] = bb[1] ? 5 : 6;
    bb[g % 3] = true;
    out[g * 8 + 5] = flags[1] + 2 * flags[2] + 4 * flags[3];
    private bool *sb = (private bool *)&s;
    out[g * 8 + 6] = sb[8] ? 1 : 2;
    sb[9] = false;
    out[g * 8 + 7] = s.e;
}

typedef struct {
    int a;
    float b;
} Q;

/* Floats seen as structs. */
kernel void float_views(global int *out) {
    int g = (int)get_global_id(0);
    float f[4] = {g * 1.5f, 2.0f, -3.0f, 4.25f};
    private Q *q = (private Q *)f;
    out[g * 4] = q[1].a;
    out[g * 4 + 1] = (int)q[g % 2].b;
    q[g % 2].a = g * 1000;
    q[1].b = 0.5f;
    out[g * 4 + 2] = q[0].a;
    out[g * 4 + 3] = (int)(f[3] * 4);
}

typedef struct {
    int a;
    char b;
} RT;

/* Pointers cast to bytes and back to the object's own type; a union's
 * bytes. */
kernel void round_trips(global int *out) {
    int g = (int)get_global_id(0);
    RT r = {g, (char)(g + 1)};
    private RT *rp = (private RT *)(private uchar *)&r;
    rp->a += 5;
    out[g * 4] = rp->b;
    out[g * 4 + 1] = r.a;
    bool b = g & 1;
    private bool *bp = (private bool *)(private uchar *)&b;
    out[g * 4 + 2] = *bp ? 7 : 8;
    union {
        float f;
        uint u;
        uchar b[4];
    } un;
    un.f = g * 0.75f;
    private uchar *ub = (private uchar *)&un;
    ub[g % 4] ^= (uchar)g;
    out[g * 4 + 3] = (int)un.u;
}

typedef struct {
    int a[2][2];
    struct {
        int x, y;
    } in;
    int tail;
} T;

typedef struct {
    union {
        struct {
            float x, y;
        };
        struct {
            float re, im;
        };
    };
    int n;
} C;

/* Nested designators, and designators naming members of anonymous
 * members; the items after a designator go on from the object it named. */
kernel void designators(global int *out) {
    int g = (int)get_global_id(0);
    T t = {.a[1][0] = g, g + 1, .in.x = 2 * g, .tail = 7};
    T u = {.in = {.y = g}, .a[0][1] = 5, 6};
    T arr[2] = {[1].in.y = 3 + g, [0].a[1] = {8, 9}, [1].a[0][0] = g, 4};
    C c = {.re = g + 0.5f, .im = 2.0f};
    C d = {.im = 3.0f, .n = g};
    C e = {.y = 1.5f, 9};
    global int *p = &out[g * 40];
    int n = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            p[n++] = t.a[i][j];
            p[n++] = u.a[i][j];
            p[n++] = arr[0].a[i][j];
            p[n++] = arr[1].a[i][j];
        }
    p[n++] = t.in.x;
    p[n++] = t.in.y;
    p[n++] = t.tail;
    p[n++] = u.in.x;
    p[n++] = u.in.y;
    p[n++] = u.tail;
    p[n++] = arr[0].in.x;
    p[n++] = arr[0].in.y;
    p[n++] = arr[1].in.x;
    p[n++] = arr[1].in.y;
    p[n++] = arr[1].tail;
    p[n++] = (int)(c.x * 4);
    p[n++] = (int)(c.y * 4);
    p[n++] = c.n;
    p[n++] = (int)(d.re * 4);
    p[n++] = (int)(d.im * 4);
    p[n++] = d.n;
    p[n++] = (int)(e.x * 4);
    p[n++] = (int)(e.im * 4);
    p[n++] = e.n;
}

typedef struct {
    char tag;
    struct {
        short s;
        int v[3];
    } rows[4];
} R;

/* __builtin_offsetof with indices known only at run time. */
kernel void offsets(global int *out) {
    int g = (int)get_global_id(0);
    out[g * 3] = (int)__builtin_offsetof(T, a[g % 2][(g / 2) % 2]);
    out[g * 3 + 1] = (int)__builtin_offsetof(R, rows[g % 4].v[(g / 4) % 3]);
    out[g * 3 + 2] = (int)__builtin_offsetof(R, rows[g % 4]);
}

#ifdef __OPENCL_VERSION__

constant S cs = {1, 2.0f, 3, 4, 5};

/* __local structs and bools, and a __constant struct, as bytes; run in
 * work-groups of 32. */
kernel void local_views(global int *out) {
    int g = (int)get_global_id(0);
    int l = (int)get_local_id(0);
    local S shared[4];
    local bool flags[32];
    if (l < 4)
        shared[l] = cs;
    flags[l] = l % 3 == 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    local uchar *bytes = (local uchar *)shared;
    bytes[l + 8] = (uchar)(0x80 + l);
    ((local uchar *)flags)[(l + 1) % 32] = (uchar)(l % 2);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g * 5] = shared[l % 4].a;
    out[g * 5 + 1] = shared[l % 4].d;
    out[g * 5 + 2] = ((constant uchar *)&cs)[l % 12];
    out[g * 5 + 3] = flags[l] ? 1 : 0;
    out[g * 5 + 4] = ((local uchar *)flags)[31 - l];
}

constant float3 table[2] = {(float3)(1.0f, 2.0f, 3.0f), (float3)(4.0f, 5.0f, 6.0f)};

/* A store through a cast pointer a helper makes of its argument. */
void cast_store(private float3 *v, uint at, float3 x) {
    vstore3(x, 0, (private float *)v + at);
}

/* Four float3s (sixteen floats with their padding) zeroed through a cast,
 * one float3 stored at float g % 14 through it (on padding for some g),
 * then all sixteen read through the cast and the four vectors as typed. */
kernel void vstore3_private(global const float *src, global float *out, int helper) {
    uint g = get_global_id(0);
    float3 v[4];
    for (int k = 0; k < 16; k++)
        ((private float *)v)[k] = 0.0f;
    float3 x = vload3(g, src);
    if (helper)
        cast_store(v, g % 14, x);
    else
        vstore3(x, 0, (private float *)v + g % 14);
    for (int k = 0; k < 16; k++)
        out[g * 28 + k] = ((private float *)v)[k];
    for (int k = 0; k < 4; k++)
        vstore3(v[k], 0, out + g * 28 + 16 + 3 * k);
}

/* The same with chars and longs. */
kernel void vstore3_narrow_wide(global const char *cs, global const long *ls,
                                global char *cout, global long *lout) {
    uint g = get_global_id(0);
    char3 c[4];
    long3 l[4];
    for (int k = 0; k < 16; k++) {
        ((private char *)c)[k] = 0;
        ((private long *)l)[k] = 0;
    }
    vstore3(vload3(g, cs), 0, (private char *)c + g % 14);
    vstore3(vload3(g, ls), 0, (private long *)l + g % 14);
    for (int k = 0; k < 16; k++) {
        cout[g * 28 + k] = ((private char *)c)[k];
        lout[g * 28 + k] = ((private long *)l)[k];
    }
    for (int k = 0; k < 4; k++) {
        vstore3(c[k], 0, cout + g * 28 + 16 + 3 * k);
        vstore3(l[k], 0, lout + g * 28 + 16 + 3 * k);
    }
}

/* The same in __local memory, each work-item in a region of its own. */
kernel void vstore3_local(global const float *src, global float *out) {
    local float3 shared[4 * 64];
    uint g = get_global_id(0);
    uint l = get_local_id(0);
    local float *mine = (local float *)(shared + 4 * l);
    for (int k = 0; k < 16; k++)
        mine[k] = 0.0f;
    vstore3(vload3(g, src), 0, mine + g % 14);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 16; k++)
        out[g * 28 + k] = mine[k];
    for (int k = 0; k < 4; k++)
        vstore3(shared[4 * l + k], 0, out + g * 28 + 16 + 3 * k);
}

/* A __constant table's floats, padding (zero, as C initialises it)
 * included. */
kernel void constant_padding(global float *out) {
    uint g = get_global_id(0);
    out[g] = ((constant float *)table)[g % 8];
}

/* A float3 through a cast to floats and back. */
kernel void vector_round_trip(global float *out) {
    uint g = get_global_id(0);
    float3 v = (float3)(g, 2.0f * g, 3.0f * g);
    private float *f = (private float *)&v;
    f[3] = 9.0f;
    f[1] = -1.0f;
    private float3 *back = (private float3 *)f;
    vstore3(*back, 0, out + 4 * g);
    out[4 * g + 3] = f[3];
}

/* A struct with a float3 member, through a cast to floats. */
typedef struct {
    float3 v;
    float w;
} V;

kernel void struct_vector(global const float *src, global float *out) {
    uint g = get_global_id(0);
    V s;
    private float *f = (private float *)&s;
    for (int k = 0; k < 8; k++)
        f[k] = -1.0f;
    s.v = vload3(g, src);
    f[3] = 100.0f + g;
    s.w = 0.5f * g;
    for (int k = 0; k < 8; k++)
        out[g * 8 + k] = f[k];
}

#endif
