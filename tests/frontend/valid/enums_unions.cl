// Tagged values with a union for type punning, a named enum with explicit
// values, and enum constants in constant expressions.
enum Channel { RED = 0, GREEN = 1, BLUE = 2, CHANNELS };

typedef union {
    float f;
    uint u;
    int i;
    uchar bytes[4];
} Bits32;

typedef struct {
    int tag;
    union {
        float scalar;
        float4 vector;
    } payload;
} Tagged;

__kernel void unions(__global const float *in, __global uint *sign_bits,
                     __global uchar *low_bytes, __global const Tagged *tagged,
                     __global float *sums)
{
    const int i = get_global_id(0);
    Bits32 b;
    b.f = in[i];
    sign_bits[i] = b.u >> 31;
    low_bytes[i] = b.bytes[0];

    float channel_sum[CHANNELS];
    enum Channel c;
    for (c = RED; c < CHANNELS; c++)
        channel_sum[c] = (float)c;
    const Tagged t = tagged[i];
    float s = t.tag == 0 ? t.payload.scalar
                         : t.payload.vector.x + t.payload.vector.y + t.payload.vector.z;
    sums[i] = s + channel_sum[BLUE];
}
