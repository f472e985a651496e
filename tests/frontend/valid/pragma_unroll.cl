// Loop-unrolling hints as vendors accept them: #pragma unroll with and
// without a count, and unroll-friendly constant trip counts.
#define TAPS 8

__kernel void fir8(__global const float *x, __constant float *h, __global float *y,
                   const int n)
{
    const int i = get_global_id(0);
    if (i + TAPS > n)
        return;
    float acc = 0.0f;
    #pragma unroll
    for (int k = 0; k < TAPS; ++k)
        acc = mad(h[k], x[i + k], acc);
    float acc2 = 0.0f;
    #pragma unroll 4
    for (int k = 0; k < TAPS; ++k)
        acc2 += x[i + k];
    #pragma unroll 1
    for (int k = 0; k < 2; ++k)
        acc2 *= 0.5f;
    y[i] = acc + acc2 * 0.0f;
}
