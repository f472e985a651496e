// char/short vectors in buffers (the 32-bit word view): uchar4 pixels
// read and written a word at a time, short4 spanning two words, uchar3
// padded to 4 bytes, and char2 halves of a word written by neighbouring
// work-items (lane by lane, atomically). Arithmetic on them wraps like the
// C types. The host recomputes every output.
__kernel void narrow_vectors(__global const uchar4 *pixels,
                             __global uchar4 *brighter,
                             __global short4 *wide,
                             __global uchar3 *rgb,
                             __global char2 *pairs)
{
    int i = get_global_id(0);
    uchar4 p = pixels[i];
    float4 f = convert_float4(p) * 1.5f;
    uchar4 b = convert_uchar4(min(f, (float4)(255.0f)));
    brighter[i] = b;
    short4 s = convert_short4(p) - (short4)(128);
    wide[i] = s * (short4)(300);
    rgb[i] = p.zyx + (uchar3)(i);
    pairs[i] = (char2)((char)p.x, (char)(p.y + p.w));
}
