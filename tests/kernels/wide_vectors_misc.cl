// 8- and 16-element vectors in the remaining places: program-scope
// __constant tables, initializer lists, helper functions taking, returning
// and writing them through pointers, lane-wise && and ||, and
// vload_half8/16 with vstore_half8/16. The host recomputes every lane.
__constant float8 table[2] = {(float8)(1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f),
                              (float8)(0.5f)};
__constant int16 splat = (int16)(3);
__constant uint8 pieces = (uint8)((uint2)(1, 2), 3, (uint4)(4), 5);

typedef struct {
    int a;
    float8 v;
} Pair;

float8 twice(float8 v, __global int16 *out)
{
    *out = convert_int16((float16)(v, v.s76543210));
    return v * 2.0f;
}

__kernel void misc(__global float8 *floats, __global int16 *ints,
                   __global int8 *logic, __constant int16 *constants)
{
    int g = get_global_id(0);
    int8 a = (int8)(g) - 3;
    int8 b = (int8)(1, 0, 2, 0, 3, 0, 4, 0);
    logic[2 * g] = a && b;
    logic[2 * g + 1] = (a || b) + (a && 1);
    int8 arr[2] = {(int8)(1), a};
    Pair p = {g, (float8)(2.0f)};
    float8 init = {1.0f, 2.0f};
    float8 chosen = (g & 1) ? p.v : init;
    floats[g] = twice(table[g & 1] + p.v * (float)p.a + chosen, ints + g)
              + convert_float8(arr[1] + splat.lo + as_int8(pieces) + constants[g].hi);
}

__kernel void halfs16(__global half *h16, __global half *h8, __global float16 *widened)
{
    size_t g = get_global_id(0);
    float16 v = vload_half16(g, h16);
    widened[g] = v;
    vstore_half16(v * 2.0f, g, h16);
    vstore_half8(vload_half8(0, h8 + 1 + g * 8).s13570246, 0, h8 + 1 + g * 8);
}

// shuffle/shuffle2 with constant masks (a gather of known lanes) and masks
// known only at run time (only the low bits that index the inputs count).
__kernel void shuffles(__global const float8 *x, __global const uint8 *masks,
                       __global float8 *out, __global const short16 *s,
                       __global short16 *sout, __global const ulong2 *l,
                       __global ulong4 *lout)
{
    size_t g = get_global_id(0);
    float8 a = x[g];
    out[3 * g] = shuffle(a, masks[g]);
    out[3 * g + 1] = shuffle2(a, a * 2.0f, masks[g] >> 1);
    out[3 * g + 2] = shuffle((float4)(1.0f, 2.0f, 3.0f, 4.0f), (uint8)(3, 2, 1, 0, 0, 1, 2, 3))
                   + shuffle(a, (uint8)(7, 6, 5, 4, 11, 2, 1, 0));
    sout[g] = shuffle2(s[g], s[g] + (short)1, convert_ushort16(s[g]));
    lout[g] = shuffle(l[g], (ulong4)(1, 0, 1, 1))
            + shuffle2(l[g], l[g] << 1, (ulong4)(l[g].s0, 2, 3, 0));
}

// v[i] with a run-time index: lanes of private vectors, through a swizzle,
// of buffer elements (32-bit and word-viewed) as targets, and of values.
__kernel void subscripts(__global int16 *v, __global const int *idx,
                         __global uchar8 *bytes, __global int *out)
{
    size_t g = get_global_id(0);
    int i = idx[g];
    int16 x = v[g];
    x[i] = 100 + (int)g;
    x.hi[i & 7] += 1;
    v[g] = x;
    v[g][i ^ 3] = -1;
    bytes[g][i & 7] = (uchar)i;
    out[g] = (x * 2)[i] + bytes[g].odd[i & 3];
}
