// Macro-heavy BLAS code generated for one precision and vector width, as
// auto-tuned libraries do: function-like macros for indexing, token pasting
// to build type and built-in names, and #if on configuration macros.
#ifndef PRECISION
#define PRECISION 32
#endif
#ifndef VW
#define VW 4
#endif

#if PRECISION == 32
  #define real float
  #define ZERO 0.0f
#else
  #pragma OPENCL EXTENSION cl_khr_fp64 : enable
  #define real double
  #define ZERO 0.0
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define realV CAT(real, VW)
#define VLOAD CAT(vload, VW)
#define VSTORE CAT(vstore, VW)

#define A_(i, j) a[(j) * lda + (i)]
#define B_(i, j) b[(j) * ldb + (i)]
#define MULADD(acc, x, y) ((acc) = mad((x), (y), (acc)))
#define IS_ZERO(v) ((v) == ZERO)

__kernel void xgemm_naive(const int m, const int n, const int k,
                          const real alpha,
                          __global const real *a, const int lda,
                          __global const real *b, const int ldb,
                          const real beta,
                          __global real *c, const int ldc)
{
    const int i = get_global_id(0);
    const int j = get_global_id(1);
    if (i >= m || j >= n)
        return;
    real acc = ZERO;
    for (int l = 0; l < k; ++l)
        MULADD(acc, A_(i, l), B_(l, j));
    real old = IS_ZERO(beta) ? ZERO : beta * c[j * ldc + i];
    c[j * ldc + i] = alpha * acc + old;
}

__kernel void xscal_vector(const int n_vectors, const real alpha, __global real *x)
{
    const int id = get_global_id(0);
    if (id < n_vectors) {
        realV v = VLOAD(id, x);
        v *= alpha;
        VSTORE(v, id, x);
    }
}
