// Kernels for the out-of-order queue test: each reads what the previous
// one in its chain wrote, so a missing dependency shows in the result.
__kernel void step(__global const uint *in, __global uint *out, uint add) {
    size_t i = get_global_id(0);
    // Slow enough that an unordered successor would overtake it.
    uint v = in[i];
    for (uint k = 0; k < 64; k++)
        v = v * 1664525u + 1013904223u;
    out[i] = v + add;
}
