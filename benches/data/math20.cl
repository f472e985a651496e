// A kernel calling 20 of the software math built-ins (issue 6 wants its
// translation under 3 ms): every call expands to tens or hundreds of naga
// expressions.
__kernel void math20(__global const float4 *x, __global const float4 *y, __global float4 *out)
{
    size_t i = get_global_id(0);
    float4 a = x[i], b = y[i];
    float4 r = exp(a) + exp2(a) + exp10(a) + expm1(a);
    r += log(b) + log2(b) + log10(b) + log1p(b);
    r += pow(b, a) + powr(b, a) + pown(b, (int4)(3)) + rootn(b, (int4)(5));
    r += cbrt(a) + hypot(a, b) + sinh(a) + cosh(a) + tanh(a);
    r += erf(a) + tgamma(b) + fmod(a, b);
    out[i] = r;
}
