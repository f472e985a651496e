// The math library on double: one kernel per function over x (and y, or
// an int n), for tests/math_double_accuracy.rs.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define UNARY(f) \
    __kernel void k_##f(__global const double *x, __global double *out) \
    { size_t i = get_global_id(0); out[i] = f(x[i]); }
#define BINARY(f) \
    __kernel void k_##f(__global const double *x, __global const double *y, __global double *out) \
    { size_t i = get_global_id(0); out[i] = f(x[i], y[i]); }
#define WITH_INT(f) \
    __kernel void k_##f(__global const double *x, __global const int *n, __global double *out) \
    { size_t i = get_global_id(0); out[i] = f(x[i], n[i]); }

UNARY(exp) UNARY(exp2) UNARY(exp10) UNARY(expm1)
UNARY(log) UNARY(log2) UNARY(log10) UNARY(log1p)
UNARY(cbrt) UNARY(rsqrt) UNARY(sqrt) UNARY(fabs) UNARY(floor) UNARY(ceil) UNARY(trunc)
UNARY(round) UNARY(rint) UNARY(logb)
UNARY(sinh) UNARY(cosh) UNARY(tanh) UNARY(asinh) UNARY(acosh) UNARY(atanh)
UNARY(sinpi) UNARY(cospi) UNARY(tanpi)
UNARY(asin) UNARY(acos) UNARY(atan) UNARY(asinpi) UNARY(acospi) UNARY(atanpi)
BINARY(atan2) BINARY(atan2pi)
UNARY(sin) UNARY(cos) UNARY(tan) UNARY(erf) UNARY(erfc) UNARY(tgamma) UNARY(lgamma)

__kernel void k_lgamma_r(__global const double *x, __global double *out, __global int *sign)
{
    size_t i = get_global_id(0);
    int s;
    out[i] = lgamma_r(x[i], &s);
    sign[i] = s;
}
BINARY(pow) BINARY(powr) BINARY(hypot) BINARY(fmod) BINARY(remainder)
BINARY(copysign) BINARY(fmin) BINARY(fmax) BINARY(fdim) BINARY(nextafter)
BINARY(maxmag) BINARY(minmag)
WITH_INT(pown) WITH_INT(rootn) WITH_INT(ldexp)

__kernel void k_fma(__global const double *x, __global const double *y, __global const double *z, __global double *out)
{
    size_t i = get_global_id(0);
    out[i] = fma(x[i], y[i], z[i]);
}

__kernel void k_mad(__global const double *x, __global const double *y, __global const double *z, __global double *out)
{
    size_t i = get_global_id(0);
    out[i] = mad(x[i], y[i], z[i]);
}

// ilogb's int result and the functions with a second result through a
// pointer.
__kernel void k_ilogb(__global const double *x, __global int *out)
{
    size_t i = get_global_id(0);
    out[i] = ilogb(x[i]);
}

__kernel void k_frexp(__global const double *x, __global double *out, __global int *e)
{
    size_t i = get_global_id(0);
    int k;
    out[i] = frexp(x[i], &k);
    e[i] = k;
}

__kernel void k_modf(__global const double *x, __global double *out, __global double *whole)
{
    size_t i = get_global_id(0);
    double w;
    out[i] = modf(x[i], &w);
    whole[i] = w;
}

__kernel void k_fract(__global const double *x, __global double *out, __global double *fl)
{
    size_t i = get_global_id(0);
    double w;
    out[i] = fract(x[i], &w);
    fl[i] = w;
}

__kernel void k_remquo(__global const double *x, __global const double *y, __global double *out, __global int *q)
{
    size_t i = get_global_id(0);
    int k;
    out[i] = remquo(x[i], y[i], &k);
    q[i] = k;
}

__kernel void k_nan(__global const ulong *code, __global double *out)
{
    size_t i = get_global_id(0);
    out[i] = nan(code[i]);
}

// Vector forms: each lane must equal the scalar function.
__kernel void k_vectors(__global const double4 *x, __global const double4 *y, __global double4 *out)
{
    size_t i = get_global_id(0);
    __global double4 *r = out + 8 * i;
    r[0] = exp(x[i]);
    r[1] = log(fabs(x[i]));
    r[2] = pow(fabs(x[i]), y[i]);
    r[3] = fmod(x[i], y[i]);
    r[4] = ldexp(x[i], 3);
    r[5] = hypot(x[i], y[i]);
    r[6] = sin(x[i]);
    r[7] = tan(x[i]);
}

__kernel void k_sincos(__global const double *x, __global double *out, __global double *c)
{
    size_t i = get_global_id(0);
    double w;
    out[i] = sincos(x[i], &w);
    c[i] = w;
}
