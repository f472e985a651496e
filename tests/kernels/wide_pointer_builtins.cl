// Built-ins with an output pointer on 8- and 16-element vectors: fract,
// modf, frexp, remquo, sincos and lgamma_r, with outputs to private
// variables, a private array, and `__global` buffers through `p + i`.
// The `pointer_builtins_*` kernels call them on whole vectors; the
// `parts_*` kernels call the same built-ins on the 4-lane parts, which the
// wide results must match bit for bit. Built with -D WITH_DOUBLE (when
// the device reports cl_khr_fp64) it also has the double8 and double16
// forms.

// Per work-item: 6 results in `values`, 3 float outputs (fract's, modf's,
// sincos's) in `outputs`, 3 int outputs (frexp's, remquo's, lgamma_r's)
// in `int_outputs`; `evaluations` counts how often the pointer argument
// `&parts[k++]` was evaluated.
#define WIDE_POINTER_BUILTINS(T, I, N)                                        \
    __kernel void pointer_builtins_##T##N(                                    \
        __global const T##N *x, __global const T##N *y,                       \
        __global T##N *values, __global T##N *outputs,                        \
        __global I##N *int_outputs, __global int *evaluations)                \
    {                                                                         \
        size_t g = get_global_id(0);                                          \
        T##N a = x[g], b = y[g];                                              \
        T##N parts[2];                                                        \
        I##N exponent;                                                        \
        T##N cosine;                                                          \
        int k = 0;                                                            \
        __global T##N *v = values + 6 * g;                                    \
        v[0] = fract(a, &parts[k++]);                                         \
        v[1] = modf(a, outputs + 3 * g + 1);                                  \
        v[2] = frexp(a, &exponent);                                           \
        v[3] = remquo(a, b, int_outputs + 3 * g + 1);                         \
        v[4] = sincos(a, &cosine);                                            \
        v[5] = lgamma_r(a, &int_outputs[3 * g + 2]);                          \
        outputs[3 * g] = parts[0];                                            \
        outputs[3 * g + 2] = cosine;                                          \
        int_outputs[3 * g] = exponent;                                        \
        evaluations[g] = k;                                                   \
    }                                                                         \
                                                                              \
    __kernel void parts_##T##N(                                               \
        __global const T##4 *x, __global const T##4 *y,                       \
        __global T##4 *values, __global T##4 *outputs,                        \
        __global I##4 *int_outputs)                                           \
    {                                                                         \
        size_t g = get_global_id(0);                                          \
        const int n = N / 4;                                                  \
        for (int q = 0; q < n; ++q) {                                         \
            T##4 a = x[g * n + q], b = y[g * n + q];                          \
            T##4 f;                                                           \
            I##4 e;                                                           \
            values[(6 * g + 0) * n + q] = fract(a, &f);                       \
            outputs[(3 * g + 0) * n + q] = f;                                 \
            values[(6 * g + 1) * n + q] = modf(a, &f);                        \
            outputs[(3 * g + 1) * n + q] = f;                                 \
            values[(6 * g + 2) * n + q] = frexp(a, &e);                       \
            int_outputs[(3 * g + 0) * n + q] = e;                             \
            values[(6 * g + 3) * n + q] = remquo(a, b, &e);                   \
            int_outputs[(3 * g + 1) * n + q] = e;                             \
            values[(6 * g + 4) * n + q] = sincos(a, &f);                      \
            outputs[(3 * g + 2) * n + q] = f;                                 \
            values[(6 * g + 5) * n + q] = lgamma_r(a, &e);                    \
            int_outputs[(3 * g + 2) * n + q] = e;                             \
        }                                                                     \
    }

// The same outputs written to `__local` memory (a variable, an array
// element, struct members) and to a private struct's members, then copied
// out: `local_builtins_*` has `pointer_builtins_*`'s arguments and
// results. Launched with one work-item per work-group, as its `__local`
// variables are one per work-group.
#define LOCAL_POINTER_BUILTINS(T, I, N)                                       \
    typedef struct {                                                          \
        int tag;                                                              \
        T##N whole;                                                           \
        I##N sign;                                                            \
    } local_record_##T##N;                                                    \
                                                                              \
    __kernel void local_builtins_##T##N(                                      \
        __global const T##N *x, __global const T##N *y,                       \
        __global T##N *values, __global T##N *outputs,                        \
        __global I##N *int_outputs, __global int *evaluations)                \
    {                                                                         \
        size_t g = get_global_id(0);                                          \
        T##N a = x[g], b = y[g];                                              \
        __local T##N floor_part;                                              \
        __local T##N cosines[3];                                              \
        __local I##N quotients[2];                                            \
        __local local_record_##T##N shared;                                   \
        local_record_##T##N own;                                              \
        int k = 0;                                                            \
        __global T##N *v = values + 6 * g;                                    \
        v[0] = fract(a, &floor_part);                                         \
        v[1] = modf(a, &shared.whole);                                        \
        v[2] = frexp(a, &own.sign);                                           \
        v[3] = remquo(a, b, &quotients[++k]);                                 \
        v[4] = sincos(a, &cosines[2]);                                        \
        v[5] = lgamma_r(a, &shared.sign);                                     \
        outputs[3 * g] = floor_part;                                          \
        outputs[3 * g + 1] = shared.whole;                                    \
        outputs[3 * g + 2] = cosines[2];                                      \
        int_outputs[3 * g] = own.sign;                                        \
        int_outputs[3 * g + 1] = quotients[1];                                \
        int_outputs[3 * g + 2] = shared.sign;                                 \
        evaluations[g] = k;                                                   \
    }                                                                         \
                                                                              \
    __kernel void private_record_builtins_##T##N(                             \
        __global const T##N *x, __global const T##N *y,                       \
        __global T##N *values, __global T##N *outputs,                        \
        __global I##N *int_outputs, __global int *evaluations)                \
    {                                                                         \
        size_t g = get_global_id(0);                                          \
        T##N a = x[g], b = y[g];                                              \
        local_record_##T##N r[2];                                             \
        local_record_##T##N s;                                                \
        __global T##N *v = values + 6 * g;                                    \
        v[0] = fract(a, &r[1].whole);                                         \
        v[1] = modf(a, &s.whole);                                             \
        v[2] = frexp(a, &r[0].sign);                                          \
        v[3] = remquo(a, b, &s.sign);                                         \
        outputs[3 * g] = r[1].whole;                                          \
        outputs[3 * g + 1] = s.whole;                                         \
        int_outputs[3 * g] = r[0].sign;                                       \
        int_outputs[3 * g + 1] = s.sign;                                      \
        v[4] = sincos(a, &r[0].whole);                                        \
        v[5] = lgamma_r(a, &r[1].sign);                                       \
        outputs[3 * g + 2] = r[0].whole;                                      \
        int_outputs[3 * g + 2] = r[1].sign;                                   \
        evaluations[g] = 1;                                                   \
    }

WIDE_POINTER_BUILTINS(float, int, 8)
WIDE_POINTER_BUILTINS(float, int, 16)
LOCAL_POINTER_BUILTINS(float, int, 8)
LOCAL_POINTER_BUILTINS(float, int, 16)

#ifdef WITH_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
WIDE_POINTER_BUILTINS(double, int, 8)
WIDE_POINTER_BUILTINS(double, int, 16)
LOCAL_POINTER_BUILTINS(double, int, 8)
LOCAL_POINTER_BUILTINS(double, int, 16)
#endif
