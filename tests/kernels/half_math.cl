// The math, common, geometric and relational built-ins on half
// (cl_khr_fp16), one kernel per function, for the ULP harness.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define UNARY(f) __kernel void h_##f(__global const half *x, __global half *o) \
    { size_t i = get_global_id(0); o[i] = f(x[i]); }
#define BINARY(f) __kernel void h_##f(__global const half *x, __global const half *y, \
                                      __global half *o) \
    { size_t i = get_global_id(0); o[i] = f(x[i], y[i]); }

UNARY(acos) UNARY(acosh) UNARY(acospi) UNARY(asin) UNARY(asinh) UNARY(asinpi)
UNARY(atan) UNARY(atanh) UNARY(atanpi) UNARY(cbrt) UNARY(ceil) UNARY(cos)
UNARY(cosh) UNARY(cospi) UNARY(erf) UNARY(erfc) UNARY(exp) UNARY(exp2)
UNARY(exp10) UNARY(expm1) UNARY(fabs) UNARY(floor) UNARY(log) UNARY(log2)
UNARY(log10) UNARY(log1p) UNARY(logb) UNARY(rint) UNARY(round) UNARY(rsqrt)
UNARY(sin) UNARY(sinh) UNARY(sinpi) UNARY(sqrt) UNARY(tan) UNARY(tanh)
UNARY(tanpi) UNARY(tgamma) UNARY(trunc) UNARY(sign) UNARY(degrees)
UNARY(radians)

BINARY(atan2) BINARY(atan2pi) BINARY(copysign) BINARY(fdim) BINARY(fmax)
BINARY(fmin) BINARY(fmod) BINARY(hypot) BINARY(maxmag) BINARY(minmag)
BINARY(nextafter) BINARY(pow) BINARY(powr) BINARY(remainder) BINARY(step)
BINARY(max) BINARY(min)

__kernel void h_pown(__global const half *x, __global const int *n, __global half *o)
{ size_t i = get_global_id(0); o[i] = pown(x[i], n[i]); }
__kernel void h_rootn(__global const half *x, __global const int *n, __global half *o)
{ size_t i = get_global_id(0); o[i] = rootn(x[i], n[i]); }
__kernel void h_ldexp(__global const half *x, __global const int *n, __global half *o)
{ size_t i = get_global_id(0); o[i] = ldexp(x[i], n[i]); }
__kernel void h_ilogb(__global const half *x, __global int *o)
{ size_t i = get_global_id(0); o[i] = ilogb(x[i]); }

// Built-ins that also write through a pointer: two results per item.
__kernel void h_outputs(__global const half *x, __global const half *y, __global half *o,
                        __global int *k)
{
    size_t i = get_global_id(0);
    __global half *r = o + 8 * i;
    __private half ip;
    r[0] = fract(x[i], &ip);
    r[1] = ip;
    r[2] = modf(x[i], r + 3);
    r[4] = frexp(x[i], k + 2 * i);
    r[5] = remquo(x[i], y[i], k + 2 * i + 1);
    r[6] = sincos(x[i], r + 7);
}

__kernel void h_sincos8(__global const half8 *x, __global half8 *s, __global half8 *c)
{
    size_t i = get_global_id(0);
    s[i] = sincos(x[i], c + i);
}

// Relational functions: scalars give int 0/1, vectors short -1/0.
__kernel void h_relational(__global const half *x, __global const half *y, __global int *o)
{
    size_t i = get_global_id(0);
    half a = x[i], b = y[i];
    __global int *r = o + 10 * i;
    r[0] = isnan(a);
    r[1] = isinf(a);
    r[2] = isfinite(a);
    r[3] = isnormal(a);
    r[4] = signbit(a);
    r[5] = isless(a, b);
    r[6] = isunordered(a, b);
    short2 v = isequal((half2)(a, b), (half2)(b, b));
    r[7] = v.x;
    r[8] = isordered((half2)(a, b), (half2)(b, a)).x;
    r[9] = isunordered((half2)(a, b), (half2)(b, a)).y;
}

// fma on vectors: correctly rounded, lane by lane.
__kernel void h_fma4(__global const half4 *x, __global const half4 *y, __global half4 *o)
{
    size_t i = get_global_id(0);
    o[i] = fma(x[i], y[i], x[i].wzyx);
}

// Geometric functions and clamp/mix on half vectors; three results per
// work-item: length, dot, distance, then normalize's and mix's lanes.
__kernel void h_geometric(__global const half4 *x, __global const half4 *y, __global half *o,
                          __global half4 *n, __global half4 *m)
{
    size_t i = get_global_id(0);
    half4 a = x[i], b = y[i];
    o[3 * i] = length(a);
    o[3 * i + 1] = dot(a, b);
    o[3 * i + 2] = distance(a, b);
    n[i] = normalize(a);
    m[i] = mix(a, b, (half)0.25h) + clamp(a, (half)-1.0h, (half)1.0h);
}

__kernel void h_print(half x, __global const half4 *v)
{
    printf("H: half %.3f vector %v4hf\n", x, v[0]);
}
