// The math built-ins under test by tests/math_accuracy.rs: one kernel per
// function, unary ones on float4 (exercising the vector path), binary
// ones on float.

__kernel void k_exp(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = exp(x[i]); }
__kernel void k_exp2(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = exp2(x[i]); }
__kernel void k_exp10(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = exp10(x[i]); }
__kernel void k_expm1(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = expm1(x[i]); }
__kernel void k_log(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = log(x[i]); }
__kernel void k_log2(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = log2(x[i]); }
__kernel void k_log10(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = log10(x[i]); }
__kernel void k_log1p(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = log1p(x[i]); }
__kernel void k_cbrt(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = cbrt(x[i]); }
__kernel void k_sinh(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = sinh(x[i]); }
__kernel void k_cosh(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = cosh(x[i]); }
__kernel void k_tanh(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = tanh(x[i]); }
__kernel void k_asinh(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = asinh(x[i]); }
__kernel void k_acosh(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = acosh(x[i]); }
__kernel void k_atanh(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = atanh(x[i]); }
__kernel void k_round(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = round(x[i]); }
__kernel void k_rint(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = rint(x[i]); }
__kernel void k_logb(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = logb(x[i]); }
__kernel void k_erf(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = erf(x[i]); }
__kernel void k_erfc(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = erfc(x[i]); }
__kernel void k_tgamma(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = tgamma(x[i]); }
__kernel void k_lgamma(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = lgamma(x[i]); }
__kernel void k_half_recip(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = half_recip(x[i]); }
__kernel void k_half_sqrt(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = half_sqrt(x[i]); }
__kernel void k_half_rsqrt(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = half_rsqrt(x[i]); }
__kernel void k_half_exp(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = half_exp(x[i]); }
__kernel void k_half_exp2(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = half_exp2(x[i]); }
__kernel void k_half_exp10(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = half_exp10(x[i]); }
__kernel void k_half_log(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = half_log(x[i]); }
__kernel void k_half_log2(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = half_log2(x[i]); }
__kernel void k_half_log10(__global const float4 *x, __global float4 *out) { size_t i = get_global_id(0); out[i] = half_log10(x[i]); }
__kernel void k_pow(__global const float *x, __global const float *y, __global float *out) { size_t i = get_global_id(0); out[i] = pow(x[i], y[i]); }
__kernel void k_powr(__global const float *x, __global const float *y, __global float *out) { size_t i = get_global_id(0); out[i] = powr(x[i], y[i]); }
__kernel void k_hypot(__global const float *x, __global const float *y, __global float *out) { size_t i = get_global_id(0); out[i] = hypot(x[i], y[i]); }
__kernel void k_fmin(__global const float *x, __global const float *y, __global float *out) { size_t i = get_global_id(0); out[i] = fmin(x[i], y[i]); }
__kernel void k_fmax(__global const float *x, __global const float *y, __global float *out) { size_t i = get_global_id(0); out[i] = fmax(x[i], y[i]); }
__kernel void k_fmod(__global const float *x, __global const float *y, __global float *out) { size_t i = get_global_id(0); out[i] = fmod(x[i], y[i]); }
__kernel void k_remainder(__global const float *x, __global const float *y, __global float *out) { size_t i = get_global_id(0); out[i] = remainder(x[i], y[i]); }
__kernel void k_nextafter(__global const float *x, __global const float *y, __global float *out) { size_t i = get_global_id(0); out[i] = nextafter(x[i], y[i]); }
__kernel void k_copysign(__global const float *x, __global const float *y, __global float *out) { size_t i = get_global_id(0); out[i] = copysign(x[i], y[i]); }
__kernel void k_fdim(__global const float *x, __global const float *y, __global float *out) { size_t i = get_global_id(0); out[i] = fdim(x[i], y[i]); }
__kernel void k_maxmag(__global const float *x, __global const float *y, __global float *out) { size_t i = get_global_id(0); out[i] = maxmag(x[i], y[i]); }
__kernel void k_minmag(__global const float *x, __global const float *y, __global float *out) { size_t i = get_global_id(0); out[i] = minmag(x[i], y[i]); }
__kernel void k_half_divide(__global const float *x, __global const float *y, __global float *out) { size_t i = get_global_id(0); out[i] = half_divide(x[i], y[i]); }
__kernel void k_half_powr(__global const float *x, __global const float *y, __global float *out) { size_t i = get_global_id(0); out[i] = half_powr(x[i], y[i]); }
__kernel void k_pown(__global const float *x, __global const int *n, __global float *out) { size_t i = get_global_id(0); out[i] = pown(x[i], n[i]); }
__kernel void k_rootn(__global const float *x, __global const int *n, __global float *out) { size_t i = get_global_id(0); out[i] = rootn(x[i], n[i]); }
__kernel void k_ldexp(__global const float *x, __global const int *n, __global float *out) { size_t i = get_global_id(0); out[i] = ldexp(x[i], n[i]); }

// Built-ins with a second result through a pointer, and integer ones.
__kernel void k_ilogb(__global const float *x, __global int *out) { size_t i = get_global_id(0); out[i] = ilogb(x[i]); }
__kernel void k_nan(__global const uint *x, __global float *out) { size_t i = get_global_id(0); out[i] = nan(x[i]); }
__kernel void k_frexp(__global const float *x, __global float *out, __global int *e) { size_t i = get_global_id(0); out[i] = frexp(x[i], &e[i]); }
__kernel void k_fract(__global const float *x, __global float *out, __global float *whole) { size_t i = get_global_id(0); float w; out[i] = fract(x[i], &w); whole[i] = w; }
__kernel void k_modf(__global const float4 *x, __global float4 *out, __global float4 *whole) { size_t i = get_global_id(0); out[i] = modf(x[i], &whole[i]); }
__kernel void k_lgamma_r(__global const float *x, __global float *out, __global int *sign) { size_t i = get_global_id(0); out[i] = lgamma_r(x[i], &sign[i]); }
__kernel void k_remquo(__global const float *x, __global const float *y, __global float *out, __global int *quo) { size_t i = get_global_id(0); int q; out[i] = remquo(x[i], y[i], &q); quo[i] = q; }

// Every width computes what the scalar function does, lane by lane (the
// host compares each lane with k_widths_scalar's result).
__kernel void k_widths(__global const float16 *x, __global float16 *out)
{
    size_t i = get_global_id(0);
    float16 v = x[i];
    float16 r = (float16)(0.0f);
    r.s01 = pow(v.s01, (float2)(1.5f));
    r.s234 = exp(v.s234) + log(fabs(v.s234));
    r.s5678 = tanh(v.s5678) + fmin(v.s5678, 0.25f);
    out[2 * i] = r;
    float8 w = hypot(v.s01234567, v.s89abcdef) + ldexp(v.s89abcdef, 3);
    out[2 * i + 1] = (float16)(w, fmod(v.s01234567, (float8)(0.75f)));
}

__kernel void k_widths_scalar(__global const float *x, __global float *out)
{
    size_t i = get_global_id(0);
    __global const float *v = x + 16 * i;
    __global float *r = out + 32 * i;
    for (int k = 0; k < 2; k++) r[k] = pow(v[k], 1.5f);
    for (int k = 2; k < 5; k++) r[k] = exp(v[k]) + log(fabs(v[k]));
    for (int k = 5; k < 9; k++) r[k] = tanh(v[k]) + fmin(v[k], 0.25f);
    for (int k = 9; k < 16; k++) r[k] = 0.0f;
    for (int k = 0; k < 8; k++) r[16 + k] = hypot(v[k], v[8 + k]) + ldexp(v[8 + k], 3);
    for (int k = 0; k < 8; k++) r[24 + k] = fmod(v[k], 0.75f);
}

// Math built-ins inside a helper function (the library's functions are
// made before the helper that calls them).
static float softplus(float x) { return log1p(exp(x)) + pow(fabs(x), 0.5f) * 0.0f; }
__kernel void k_helper(__global const float *x, __global float *out) { size_t i = get_global_id(0); out[i] = softplus(x[i]) + exp(x[i]); }
