// 8- and 16-element vectors: the same operations instantiated for several
// element types and both widths. The host recomputes every output lane.
// Inputs keep divisors positive and floats small multiples of 1/4, so every
// result is exact and the host reference is bit-for-bit.

// Integer element types: arithmetic, bitwise, shifts (masked to the width),
// compound assignment, lane writes through swizzles (incl. nested), pre/post
// increment, vector literals of halves and even/odd lanes, built-ins split
// into 4-lane parts, saturating conversions, comparisons, any/all, and a
// kernel argument by value (8 lanes, so that a ulong16 kernel's arguments
// still fit the 128 bytes of push constants Vulkan guarantees).
#define WIDEN_8(T, v) (v)
#define WIDEN_16(T, v) (T##16)(v, v)
#define INT_OPS(T, N)                                                          \
__kernel void int_ops_##T##N(__global const T##N *a, __global const T##N *b,   \
                             __global T##N *out, __global int##N *cmp,         \
                             T##8 k8)                                          \
{                                                                              \
    size_t g = get_global_id(0);                                               \
    T##N x = a[g], y = b[g];                                                   \
    T##N k = WIDEN_##N(T, k8);                                                 \
    __global T##N *o = out + g * 12;                                           \
    T##N d = (y & (T)0x3f) | (T##N)(1);                                        \
    o[0] = x + y * k;                                                          \
    o[1] = x / d - x % d;                                                      \
    o[2] = (x & y) ^ (~x | y);                                                 \
    o[3] = (x << y) + (x >> (T##N)(3)) + (y >> (T)1);                          \
    T##N z = x;                                                                \
    z += y;                                                                    \
    z *= (T)3;                                                                 \
    z >>= (T)1;                                                                \
    z.s0 = y.s1;                                                               \
    z.s7 -= (T)1;                                                              \
    z.hi.lo = y.lo.hi;                                                         \
    o[4] = z;                                                                  \
    z.odd = x.even;                                                            \
    o[5] = z;                                                                  \
    T##N w = x;                                                                \
    T##N before = w++;                                                         \
    ++w;                                                                       \
    w--;                                                                       \
    o[6] = w - before + -y;                                                    \
    o[7] = (T##N)(x.lo, y.hi);                                                 \
    o[8] = (T##N)(x.odd, y.even);                                              \
    o[9] = select(x, y, x > y) + min(x, y) + (T)g;                             \
    o[10] = convert_##T##N##_sat(convert_long##N(x) - convert_long##N(y) * 2); \
    o[11] = clamp(x, (T)10, (T)100) + as_##T##N(abs_diff(x, y))                \
          + hadd(x, y) + add_sat(x, y);                                        \
    __global int##N *c = cmp + g * 4;                                          \
    c[0] = convert_int##N(x < y);                                              \
    c[1] = convert_int##N(x == y) + convert_int##N(x >= y) * 2;                \
    c[2] = convert_int##N(!x) + convert_int##N(x != y) * 4;                    \
    c[3] = (int##N)(any(x > y)) + (int##N)(all(x != y)) * 2                   \
         + (int##N)(vec_step(x)) * 4;                                          \
}

INT_OPS(int, 8)
INT_OPS(int, 16)
INT_OPS(uchar, 8)
INT_OPS(uchar, 16)
INT_OPS(short, 8)
INT_OPS(short, 16)
INT_OPS(ulong, 8)
INT_OPS(ulong, 16)

// Floats: exact arithmetic, negation, comparisons, min/max/clamp/floor/
// fabs/mix-free built-ins, saturating conversions to int and the bits
// through as_int.
#define FLOAT_OPS(N)                                                           \
__kernel void float_ops_##N(__global const float##N *a,                        \
                            __global const float##N *b,                        \
                            __global float##N *out, __global int##N *bits,     \
                            float##N k)                                        \
{                                                                              \
    size_t g = get_global_id(0);                                               \
    float##N x = a[g], y = b[g];                                               \
    __global float##N *o = out + g * 8;                                        \
    o[0] = x + y * k;                                                          \
    o[1] = -x - y * 0.5f + 1.0f;                                               \
    o[2] = fmax(x, y) + fmin(x, 2.0f) + floor(x) + fabs(y);                    \
    o[3] = clamp(x, -1.0f, 1.0f) + select(x, y, x > y);                        \
    float##N z = x;                                                            \
    z *= 2.0f;                                                                 \
    z.s1 = y.s0;                                                               \
    z.hi.hi = x.lo.lo;                                                         \
    z.even += y.odd;                                                           \
    z++;                                                                       \
    o[4] = z;                                                                  \
    o[5] = (float##N)(y.hi, x.lo);                                             \
    o[6] = convert_float##N(convert_int##N(x * 4.0f)) + convert_float##N(x > y); \
    o[7] = (float##N)(1.5f);                                                   \
    __global int##N *c = bits + g * 4;                                         \
    c[0] = x < y;                                                              \
    c[1] = convert_int##N##_sat(x * 1.0e9f);                                   \
    c[2] = as_int##N(x) ^ as_int##N(y);                                        \
    c[3] = convert_int##N##_rtn(x) + (int##N)(any(x > y)) * 100 + (int##N)(all(x != 0.0f)) * 1000; \
}

FLOAT_OPS(8)
FLOAT_OPS(16)

// vloadN/vstoreN for every address space at element-aligned offsets
// (`__global`, `__constant`, `__local` and private memory).
#define MEMORY(T, N)                                                           \
__kernel void memory_##T##N(__constant T *src, __global T *dst,                \
                            __global const T *odd)                             \
{                                                                              \
    size_t g = get_global_id(0);                                               \
    size_t l = get_local_id(0);                                                \
    __local T shared[4 * N + 1];                                               \
    T priv[N + 1];                                                             \
    T##N v = vload##N(g, src);                                                 \
    T##N u = vload##N(0, odd + 1 + g * N);                                     \
    vstore##N(v + u, 0, shared + 1 + l * N);                                   \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    T##N s = vload##N(0, shared + 1 + ((l + 1) % 4) * N);                      \
    vstore##N(s, 0, priv + 1);                                                 \
    T##N p = vload##N(0, priv + 1);                                            \
    vstore##N(p, 0, dst + 1 + g * N);                                          \
}

MEMORY(float, 8)
MEMORY(float, 16)
MEMORY(int, 16)
MEMORY(uchar, 8)
MEMORY(uchar, 16)
MEMORY(short, 8)
MEMORY(short, 16)
MEMORY(ulong, 8)

// Wide vectors in buffers of the vector type, in struct members, in
// __local and private arrays, by value and as reinterpreted bits.
typedef struct {
    int tag;
    float8 f;
    int16 i;
    ulong8 l;
} Record;

__kernel void aggregates(__global Record *records, __global uchar16 *bytes,
                         __global short8 *shorts, __global char16 *reinterpreted,
                         uchar8 scale, short16 offset)
{
    size_t g = get_global_id(0);
    size_t l = get_local_id(0);
    __local float8 staged[4];
    float8 arr[2];
    Record r = records[g];
    arr[0] = r.f;
    arr[1] = convert_float8(r.i.lo) * (float)r.tag;
    staged[l] = arr[0] + arr[1];
    barrier(CLK_LOCAL_MEM_FENCE);
    r.f = staged[(l + 1) % 4];
    r.i = r.i.sfedcba9876543210 + (int16)(r.tag);
    r.l = (r.l << (ulong)4) | convert_ulong8(bytes[g].lo);
    records[g] = r;
    uchar16 b = bytes[g];
    b.lo = b.lo * scale;
    bytes[g] = b;
    bytes[g].s9 = (uchar)g;
    bytes[g].sCA += (uchar2)(1, 2);
    short8 s = shorts[g];
    shorts[g] = s + offset.even - offset.hi;
    shorts[g].hi.s1 = (short)g;
    char16 rr = as_char16(as_int4(r.f.lo)) + as_char16(s);
    rr.sF = as_char16(r.l.s01).s1;
    reinterpreted[g] = rr;
}
