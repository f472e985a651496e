// The trigonometric built-ins on every vector width: lane k of each result
// must equal the scalar function of lane k (tests/math_trig_accuracy.rs).

#define WIDTHS(f)                                                        \
    __kernel void v_##f(__global const float *x, __global float *y) {   \
        size_t i = get_global_id(0);                                     \
        vstore2(f(vload2(i, x)), i, y);                                  \
        vstore3(f(vload3(i, x + 2 * get_global_size(0))), i,             \
                y + 2 * get_global_size(0));                             \
        vstore4(f(vload4(i, x + 5 * get_global_size(0))), i,             \
                y + 5 * get_global_size(0));                             \
        vstore8(f(vload8(i, x + 9 * get_global_size(0))), i,             \
                y + 9 * get_global_size(0));                             \
        vstore16(f(vload16(i, x + 17 * get_global_size(0))), i,          \
                 y + 17 * get_global_size(0));                           \
    }

WIDTHS(sin)
WIDTHS(cos)
WIDTHS(tan)
WIDTHS(sinpi)
WIDTHS(cospi)
WIDTHS(tanpi)
WIDTHS(asin)
WIDTHS(acos)
WIDTHS(atan)
WIDTHS(asinpi)
WIDTHS(acospi)
WIDTHS(atanpi)

#define atan2_x(v) atan2(v, v * 0.75f - 1.0f)
#define atan2pi_x(v) atan2pi(v, v * 0.75f - 1.0f)
WIDTHS(atan2_x)
WIDTHS(atan2pi_x)

__kernel void v_sincos(__global const float *x, __global float *s,
                       __global float *c) {
    size_t i = get_global_id(0);
    float4 cv;
    vstore4(sincos(vload4(i, x), &cv), i, s);
    vstore4(cv, i, c);
}

// sincos on 8- and 16-element vectors, into private and buffer memory.
__kernel void v_sincos_wide(__global const float *x, __global float *s,
                            __global float *c) {
    size_t i = get_global_id(0);
    float8 c8;
    vstore8(sincos(vload8(i, x), &c8), i, s);
    vstore8(c8, i, c);
    size_t second = 8 * get_global_size(0);
    __global float16 *c16 = (__global float16 *)(c + second);
    vstore16(sincos(vload16(i, x + second), c16 + i), i, s + second);
}
