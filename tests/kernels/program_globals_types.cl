// options: -cl-std=CL2.0
// Program-scope __global variables of the types that take other paths:
// byte images (a struct of chars, a union), narrow scalars and vectors in
// 32-bit words, 3-vectors, 64-bit and 8-element vectors.

struct rgb {
    uchar r, g, b;
};

union bits {
    int i;
    float f;
};

global struct rgb colours[3] = { { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 9 } };
global union bits word = { 0x3f800000 };
global short shorts[3] = { 1, -2, 3 };
global char3 chars = (char3)(-1, 2, -3);
global float3 point = (float3)(1.5f, 2.5f, 3.5f);
global ulong wide_bits = 0xffffffff00000001UL;
global int8 eight = (int8)(1, 2, 3, 4, 5, 6, 7, 8);

// Each reads the variables, then changes them; a second launch shows both
// the first launch's writes and that reads see them.
kernel void read_and_update(global int *out)
{
    if (get_global_id(0) != 0)
        return;
    for (int i = 0; i < 3; i++) {
        out[i * 3 + 0] = colours[i].r;
        out[i * 3 + 1] = colours[i].g;
        out[i * 3 + 2] = colours[i].b;
        out[9 + i] = shorts[i];
        colours[i].g += 10;
        shorts[i] *= 2;
    }
    out[12] = word.i;
    out[13] = (int)(word.f * 4.0f);
    out[14] = chars.x;
    out[15] = chars.y;
    out[16] = chars.z;
    out[17] = (int)(point.x * 2.0f);
    out[18] = (int)(point.z * 2.0f);
    out[19] = (int)(wide_bits >> 32);
    out[20] = (int)wide_bits;
    out[21] = eight.s0 + eight.s7;
    word.f = 2.0f;
    chars.y = 20;
    point.z = 10.0f;
    wide_bits += 1;
    eight.s7 = 80;
}
