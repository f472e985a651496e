// Math built-ins over floats: exp/log/pow/sin/cos, native_ and half_
// variants, fma/mad, and the pointer-output forms sincos, fract and frexp
// writing to private variables.
__kernel void math_mix(__global const float *in, __global float4 *out)
{
    const int i = get_global_id(0);
    const float x = in[i];
    float c;
    const float s = sincos(x, &c);
    float whole;
    const float frac = fract(x, &whole);
    int e;
    const float m = frexp(x, &e);
    float4 r;
    r.x = exp(x) + log(fabs(x) + 1.0f) + pow(fabs(x), 1.5f) + exp2(x) + log2(x * x + 1.0f);
    r.y = sin(x) * cos(x) + tan(x * 0.1f) + atan2(x, 1.0f) + s * c;
    r.z = native_exp(x) + native_log(fabs(x) + 1.0f) + native_sqrt(fabs(x)) + half_recip(2.0f);
    r.w = fma(x, x, 1.0f) + mad(x, 2.0f, whole) + frac + ldexp(m, e) + hypot(x, 1.0f);
    out[i] = r + (float4)(M_PI_F, M_E_F, FLT_EPSILON, cbrt(x));
}
