// One radix-2 Cooley-Tukey FFT pass over complex float2 data: complex
// multiply as a helper, twiddles from sincos, and M_PI_F.
float2 cmul(float2 a, float2 b)
{
    return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

__kernel void fft_pass(__global const float2 *in, __global float2 *out,
                       const int p, const int half_n)
{
    const int i = get_global_id(0);
    const int k = i & (p - 1);
    const float2 u = in[i];
    const float2 v = in[i + half_n];
    float c;
    const float s = sincos(-M_PI_F * (float)k / (float)p, &c);
    const float2 t = cmul(v, (float2)(c, s));
    const int j = ((i - k) << 1) + k;
    out[j] = u + t;
    out[j + p] = u - t;
}
