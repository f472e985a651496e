// Each trigonometric built-in over a buffer of inputs, for the accuracy
// sweeps of tests/math_trig_accuracy.rs.

#define UNARY(f)                                                      \
    __kernel void k_##f(__global const float *x, __global float *y) { \
        size_t i = get_global_id(0);                                  \
        y[i] = f(x[i]);                                               \
    }

UNARY(sin)
UNARY(cos)
UNARY(tan)
UNARY(sinpi)
UNARY(cospi)
UNARY(tanpi)
UNARY(asin)
UNARY(acos)
UNARY(atan)
UNARY(asinpi)
UNARY(acospi)
UNARY(atanpi)

__kernel void k_atan2(__global const float *y, __global const float *x,
                      __global float *out) {
    size_t i = get_global_id(0);
    out[i] = atan2(y[i], x[i]);
}

__kernel void k_atan2pi(__global const float *y, __global const float *x,
                        __global float *out) {
    size_t i = get_global_id(0);
    out[i] = atan2pi(y[i], x[i]);
}

// sincos through a private variable and straight into a buffer.
__kernel void k_sincos(__global const float *x, __global float *s,
                       __global float *c) {
    size_t i = get_global_id(0);
    float cv;
    s[i] = sincos(x[i], &cv);
    c[i] = cv;
}

__kernel void k_sincos_global(__global const float *x, __global float *s,
                              __global float *c) {
    size_t i = get_global_id(0);
    s[i] = sincos(x[i], c + i);
}
