// Time to first result: the small kernel an application runs first.
// CLCOMPARE_NONCE (defined by the tool, above 2^31) makes every build's code
// unique so that no compiler cache answers it; the branch never runs.
#ifndef CLCOMPARE_NONCE
#define CLCOMPARE_NONCE 0xffffffffu
#endif

__kernel void scale_add(__global const float *x, __global float *y, const float a)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + 1.0f;
    if (i == CLCOMPARE_NONCE)
        y[i] = 0.0f;
}
