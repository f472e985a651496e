// Expressions checked by tests/vector_expressions.rs against host models:
// vector literals whose operands are casts, bitselect/select on floats,
// compound literals and members of structs returned by functions.
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

// xi: 8 ints, xf: 4 floats; oi: 32 ints, of: 16 floats.
kernel void literals_of_casts(global const int *xi, global const float *xf, global int *oi, global float *of) {
    char2 c2 = (char2)(char)xi[0];
    vstore2(convert_int2(c2), 0, oi);
    vstore4((float4)((float2)(xf[0], xf[1]), (float)xi[1], 4), 0, of);
    vstore4((int4)((int)xf[2], (int2)(xi[0], xi[1]), (int)(char)xi[2]), 0, oi + 2);
    uchar8 u8 = (uchar8)((uchar4)(uchar)xi[0], (uchar2)(1, 2), (uchar)xi[1], (uchar)xi[2]);
    vstore8(convert_int8(u8), 0, oi + 6);
    vstore2(convert_int2((short2)(short)-1), 0, oi + 14);
    vstore2((float2)(float)xi[3], 0, of + 4);
    long3 l3 = (long3)((long)xi[0], (long2)(long)xi[1]);
    vstore3(convert_int3(l3 >> 1), 0, oi + 16);
    vstore2((int2)(int)(float)xi[4], 0, oi + 19);
    // A cast applied to a literal, and a literal inside a cast's operand.
    vstore4(convert_float4((int4)(int)(char)xi[2]) + (float4)((float)1, (float3)(float)2), 0, of + 6);
}

// fa, fb, fm (mask bits), dm; of: float results, od: double results.
kernel void float_bitselect(global const float *fa, global const float *fb, global const uint *fm,
                            global const int *im, global float *of, global double *od,
                            global const double *da, global const double *db, global const ulong *dm,
                            global const long *lm) {
    of[0] = bitselect(fa[0], fb[0], as_float(fm[0]));
    vstore4(bitselect(vload4(0, fa), vload4(0, fb), as_float4(vload4(0, fm))), 0, of + 1);
    vstore8(bitselect(vload8(0, fa), vload8(0, fb), as_float8(vload8(0, fm))), 0, of + 5);
    vstore3(bitselect(vload3(0, fa), vload3(0, fb), as_float3(vload3(0, fm))), 0, of + 13);
    of[16] = select(fa[0], fb[0], im[0]);
    of[17] = select(fa[1], fb[1], fm[1]);
    vstore4(select(vload4(0, fa), vload4(0, fb), vload4(0, im)), 0, of + 18);
    vstore4(select(vload4(0, fa), vload4(0, fb), vload4(0, fm)), 0, of + 22);
    vstore16(select(vload16(0, fa), vload16(0, fb), vload16(0, im)), 0, of + 26);
#ifdef cl_khr_fp64
    od[0] = bitselect(da[0], db[0], as_double(dm[0]));
    vstore2(bitselect(vload2(0, da), vload2(0, db), as_double2(vload2(0, dm))), 0, od + 1);
    vstore4(bitselect(vload4(0, da), vload4(0, db), as_double4(vload4(0, dm))), 0, od + 3);
    od[7] = select(da[0], db[0], lm[0]);
    vstore2(select(vload2(0, da), vload2(0, db), vload2(0, lm)), 0, od + 8);
    vstore4(select(vload4(0, da), vload4(0, db), vload4(0, dm)), 0, od + 10);
#endif
}

typedef struct { int a; float b; } Pair;
float sum(const float *p, int n) {
    float s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}
int pair_a(Pair p) { return p.a; }
int2 twice(int2 v) { return v * 2; }

kernel void compound_literals(global const int *xi, global const float *xf, global int *oi, global float *of) {
    vstore2((int2){5, 6} + (int2){xi[0], 1}, 0, oi);
    vstore2(twice((int2){xi[1], xi[2]}), 0, oi + 2);
    Pair p = (Pair){.a = xi[0], .b = 2};
    oi[4] = p.a;
    of[0] = p.b + (Pair){.b = xf[0]}.b;
    oi[5] = pair_a((Pair){xi[1], 1}) + (Pair){.b = 1, .a = xi[2]}.a;
    of[1] = sum((float[]){1, 2, xf[0]}, 3);
    oi[6] = ((int[]){xi[0], xi[1], 7})[2] + ((int[]){xi[0], xi[1], 7})[xi[5] & 1];
    oi[7] = sizeof((int[]){1, 2, 3}) + sizeof((float[5]){1});
    float *q = (float[4]){xf[1], 5};
    of[2] = q[0] + q[1] + q[3];
    // Evaluated anew each time: the literal's object takes the loop's values.
    float acc = 0;
    for (int i = 0; i < 3; i++)
        acc += sum((float[]){(float)i, xf[2]}, 2) * (float4){1, 2, 3, 4}.y;
    of[3] = acc;
    of[4] = (float){xf[3]} + (int){xi[3]};
}

typedef struct { float re, im; float4 v; int arr[4]; } Complex;
typedef struct { short s; char c; int i; } Narrow;
typedef union { float f; uint u; uchar b[4]; } Pun;
typedef struct { Complex z; Narrow n; } Outer;

Complex mk(float a, int k) {
    Complex c = {a, 2 * a, (float4)(a, a + 1, a + 2, a + 3), {k, k + 1, k + 2, k + 3}};
    return c;
}
Narrow mk_narrow(int k) { Narrow n = {(short)(k * 3), (char)(k + 1), k * 5}; return n; }
Pun mk_pun(float f) { Pun p; p.f = f; return p; }
Outer mk_outer(float a, int k) { Outer o = {mk(a, k), mk_narrow(k)}; return o; }

kernel void returned_members(global const int *xi, global const float *xf, global int *oi, global float *of) {
    int i = xi[5] & 3;
    of[0] = mk(xf[0], xi[0]).re;
    of[1] = mk(xf[0], xi[0]).im;
    of[2] = mk(xf[1], xi[0]).v.y;
    of[3] = mk(xf[1], xi[0]).v.s3;
    vstore2(mk(xf[2], xi[0]).v.zw, 0, of + 4);
    oi[0] = mk(xf[0], xi[1]).arr[i];
    oi[1] = mk(xf[0], xi[1]).arr[3];
    oi[2] = mk_narrow(xi[2]).s;
    oi[3] = mk_narrow(xi[2]).c;
    oi[4] = mk_narrow(xi[2]).i;
    oi[5] = mk_pun(xf[3]).u;
    oi[6] = mk_pun(xf[3]).b[3];
    of[6] = mk_outer(xf[1], xi[3]).z.v.x + mk_outer(xf[1], xi[3]).z.arr[i];
    oi[7] = mk_outer(xf[1], xi[3]).n.c;
    of[7] = (xi[6] > 0 ? mk(xf[0], 1) : mk(xf[1], 2)).im;
}

typedef struct { int tag; int arr[6]; struct { short pad; int inner[3]; } nested; } Holder;
int sum2(global const int *p) { return p[0] + p[1]; }
int sum3_at(global const int *p, int k) { return p[k] + p[k + 1] + p[k + 2]; }
void bump(global int *p, int by) { p[0] += by; p[2] += by; }

// A struct's array member passed as a pointer: h is two Holders.
kernel void member_arrays(global Holder *h, global int *oi, int i) {
    oi[0] = sum2(h->arr);
    oi[1] = sum2(&h[1].arr[1]);
    oi[2] = sum3_at(h[1].arr, i);
    oi[3] = sum2(h[i & 1].nested.inner);
    oi[4] = sum2(&h->nested.inner[1]);
    global int *q = h[1].arr + 2;
    oi[5] = q[0] * q[3];
    bump(h[1].arr, 100);
    bump(&h->nested.inner[0], 1000);
    oi[6] = *&h[1].tag;
}

typedef struct { int tag; int arr[4]; } Small;
int psum2(const int *p) { return p[0] + p[1]; }
int psum2_twice(const int *p) { return psum2(p) + psum2(p + 1); }
void pbump(int *p, int by) { p[0] += by; p[1] *= 2; }
int lsum2(local const int *p) { return p[0] + p[1]; }
void lbump(local int *p, int by) { p[0] += by; p[1] *= 2; }

// The same for private and __local structs (and arrays of them); x holds
// 16 ints, oi gets 16 results and the structs' final contents.
kernel void member_arrays_private_local(global const int *x, global int *oi) {
    Small s = {x[0], {x[1], x[2], x[3], x[4]}};
    Small two[2] = {{x[5], {x[6], x[7], x[8], x[9]}}, {x[10], {x[11], x[12], x[13], x[14]}}};
    Holder h = {0};
    h.nested.inner[0] = x[15];
    h.nested.inner[1] = x[1];
    local Small ls;
    local Small lt[2];
    ls = s;
    lt[0] = two[0];
    lt[1] = two[1];
    int k = x[0] & 1;
    oi[0] = psum2(s.arr);
    oi[1] = psum2(&s.arr[2]);
    oi[2] = psum2_twice(two[1].arr);
    oi[3] = psum2(&two[k].arr[1]);
    oi[4] = psum2(h.nested.inner);
    int *q = s.arr + 1;
    oi[5] = q[0] * q[2];
    oi[6] = lsum2(ls.arr);
    oi[7] = lsum2(&lt[1].arr[2]);
    local int *lq = &lt[k].arr[0];
    oi[8] = lq[3] - lq[0];
    pbump(s.arr, 10);
    pbump(&two[1].arr[2], 20);
    lbump(ls.arr, 30);
    lbump(&lt[0].arr[1], 40);
    vstore4(vload4(0, s.arr), 0, oi + 9);
    vstore4(vload4(0, two[1].arr), 0, oi + 13);
    oi[17] = s.tag + two[1].tag;
    vstore4(vload4(0, ls.arr), 0, oi + 18);
    vstore4(vload4(0, lt[0].arr), 0, oi + 22);
}

typedef struct { char c; int a; uchar4 vec; short s[3]; } Mixed;

// Addresses of scalar and vector members (through a pointer and in a
// private variable), read as other types: p is two Mixed.
kernel void member_addresses(global Mixed *p, global int *oi) {
    Mixed m = {-3, 70000, (uchar4)(1, 2, 250, 4), {-5, 6, 7}};
    private uchar *b = (private uchar *)&(m.vec);
    oi[0] = b[2] + b[3] * 1000;
    int *a = &m.a;
    *a += 1;
    oi[1] = m.a;
    short *s = &m.s[1];
    s[1] = -s[-1];
    oi[2] = m.s[2];
    global int *q = &p[0].a;
    *q = 123;
    oi[3] = *(&p[1].c);
    global uchar *vb = (global uchar *)&p[1].vec;
    oi[4] = vb[0] + vb[3];
    global short *gs = p[1].s;
    gs[2] = gs[0] + gs[1];
}

// Private memory seen through casts and passed to helpers (and on from
// them): bytes of an int, the bits of floats, written through.
int byte_at(const uchar *p, int k) { return p[k]; }
int byte_sum(const uchar *p) { return byte_at(p, 0) + byte_at(p, 1) * 3 + byte_at(p, 3) * 5; }
void set_byte(uchar *p, int k, uchar v) { p[k] = v; }
uint bits_of(const uint *p, int k) { return p[k]; }
void flip_sign(uint *p) { p[0] ^= 0x80000000u; }

kernel void private_casts_to_helpers(global const int *x, global int *oi, global float *of) {
    int v = x[0];
    oi[0] = byte_sum((const uchar *)&v);
    int arr[3] = {x[1], x[2], x[3]};
    oi[1] = byte_at((uchar *)arr, 4 + (x[4] & 3));
    set_byte((uchar *)&arr[2], 1, 0xAB);
    oi[2] = arr[2];
    float f[2] = {(float)x[5], 0.5f};
    oi[3] = bits_of((const uint *)f, 1);
    flip_sign((uint *)&f[0]);
    of[0] = f[0];
}
