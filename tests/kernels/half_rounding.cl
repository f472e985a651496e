// vstore_half with every rounding mode (seed 003): each value is stored
// round-to-nearest-even, toward zero, toward +inf and toward -inf; the
// host compares with an exact reference over all halves.
__kernel void half_rounding(__global const float *in, __global half *out)
{
    size_t i = get_global_id(0);
    float x = in[i];
    vstore_half_rte(x, 4 * i, out);
    vstore_half_rtz(x, 4 * i + 1, out);
    vstore_half_rtp(x, 4 * i + 2, out);
    vstore_half_rtn(x, 4 * i + 3, out);
}
