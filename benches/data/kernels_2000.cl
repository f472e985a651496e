// Translation benchmark input, large: about 2,000 lines of macro-heavy
// OpenCL C, kernels_1000.cl and a renamed second copy of it (see
// make_sources.py, which generates this file). benches/translate.rs turns
// it into SPIR-V; it must build without errors.
// Front-end benchmark input: about 1,000 lines of BLAS-style, stencil,
// image and particle kernels, written the way real OpenCL C libraries are:
// function-like macros that stamp out kernels, helper functions taking
// __global pointers, float4 arithmetic, swizzles and vector literals.
// benches/frontend.rs measures preprocess + parse + check of this file; it
// must stay free of errors (only features the checker supports today).

#ifndef TILE
#define TILE 4
#endif
#define UNROLL 4
#define VEC_WIDTH 4

#if defined(__OPENCL_VERSION__) && __OPENCL_VERSION__ >= 120
#define HAS_FMA 1
#else
#define HAS_FMA 0
#endif

#if HAS_FMA
#define MADD(a, b, c) fma((a), (b), (c))
#else
#define MADD(a, b, c) mad((a), (b), (c))
#endif

typedef float real_t;
typedef float2 real2_t;
typedef float3 real3_t;
typedef float4 real4_t;
typedef int index_t;
typedef unsigned int count_t;

enum blas_order { ROW_MAJOR = 101, COL_MAJOR = 102 };
enum blas_trans { NO_TRANS = 111, TRANS = 112 };
enum limits { MAX_ITER = 64, BLOCK = TILE * UNROLL, HALO = 1 };

#define IDX2(r, c, ld) ((r) * (ld) + (c))
#define IDX3(x, y, z, nx, ny) (((z) * (ny) + (y)) * (nx) + (x))
#define SQR(x) ((x) * (x))
#define CUBE(x) ((x) * (x) * (x))
#define CLAMP(x, lo, hi) min(max((x), (lo)), (hi))
#define LERP(a, b, t) MADD((t), (b) - (a), (a))
#define GID(d) ((index_t)get_global_id(d))
#define LID(d) ((index_t)get_local_id(d))
#define GRP(d) ((index_t)get_group_id(d))
#define GSZ(d) ((index_t)get_global_size(d))
#define LSZ(d) ((index_t)get_local_size(d))
#define NGRP(d) ((index_t)get_num_groups(d))
#define GRID_STRIDE(i, n) for (index_t i = GID(0); i < (n); i += GSZ(0))
#define IN_RANGE(i, n) ((i) >= 0 && (i) < (n))
#define DOT4(a, b) ((a).x * (b).x + (a).y * (b).y + (a).z * (b).z + (a).w * (b).w)
#define DOT3(a, b) ((a).x * (b).x + (a).y * (b).y + (a).z * (b).z)
#define SUM4(v) (((v).x + (v).y) + ((v).z + (v).w))
#define LOAD4(p, i) ((real4_t)((p)[(i)], (p)[(i) + 1], (p)[(i) + 2], (p)[(i) + 3]))
#define STORE4(p, i, v)          \
    do {                         \
        (p)[(i)] = (v).x;        \
        (p)[(i) + 1] = (v).y;    \
        (p)[(i) + 2] = (v).z;    \
        (p)[(i) + 3] = (v).w;    \
    } while (0)
#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)
#define KNAME(prefix, op) XCAT(prefix, XCAT(_, op))

// ---- helpers ----

real_t sq(real_t v) { return v * v; }

real_t clampf(real_t v, real_t lo, real_t hi) { return fmin(fmax(v, lo), hi); }

real_t smooth(real_t e0, real_t e1, real_t x)
{
    real_t t = clampf((x - e0) / (e1 - e0), 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}

real_t length3(real3_t v) { return sqrt(DOT3(v, v)); }

real4_t load4(__global const real_t *p, index_t i)
{
    return LOAD4(p, i);
}

void store4(__global real_t *p, index_t i, real4_t v)
{
    STORE4(p, i, v);
}

real_t dot_range(__global const real_t *x, __global const real_t *y, index_t n)
{
    real4_t acc4 = (real4_t)(0.0f);
    index_t i = 0;
    for (; i + VEC_WIDTH <= n; i += VEC_WIDTH)
        acc4 = MADD(load4(x, i), load4(y, i), acc4);
    real_t acc = SUM4(acc4);
    for (; i < n; i++)
        acc = MADD(x[i], y[i], acc);
    return acc;
}

real_t asum_range(__global const real_t *x, index_t n, index_t incx)
{
    real_t s = 0.0f;
    for (index_t i = 0; i < n; i++)
        s += fabs(x[i * incx]);
    return s;
}

index_t wrap(index_t i, index_t n)
{
    if (i < 0)
        return i + n;
    if (i >= n)
        return i - n;
    return i;
}

count_t collatz_steps(count_t v)
{
    count_t steps = 0;
    while (v != 1u && steps < (count_t)MAX_ITER) {
        v = (v & 1u) ? 3u * v + 1u : v >> 1;
        steps++;
    }
    return steps;
}

// ---- level 1, stamped out per type and operation ----

#define DEFINE_AXPY(T)                                                     \
    __kernel void KNAME(T, axpy)(const index_t n, const T alpha,           \
                                 __global const T *x, __global T *y)       \
    {                                                                      \
        GRID_STRIDE(i, n) y[i] = alpha * x[i] + y[i];                      \
    }

#define DEFINE_SCAL(T)                                                     \
    __kernel void KNAME(T, scal)(const index_t n, const T alpha,           \
                                 __global T *x)                            \
    {                                                                      \
        GRID_STRIDE(i, n) x[i] *= alpha;                                   \
    }

#define DEFINE_COPY(T)                                                     \
    __kernel void KNAME(T, copy)(const index_t n, __global const T *x,     \
                                 const index_t incx, __global T *y,        \
                                 const index_t incy)                       \
    {                                                                      \
        GRID_STRIDE(i, n) y[i * incy] = x[i * incx];                       \
    }

#define DEFINE_SWAP(T)                                                     \
    __kernel void KNAME(T, swap)(const index_t n, __global T *x,           \
                                 __global T *y)                            \
    {                                                                      \
        GRID_STRIDE(i, n)                                                  \
        {                                                                  \
            T t = x[i];                                                    \
            x[i] = y[i];                                                   \
            y[i] = t;                                                      \
        }                                                                  \
    }

#define DEFINE_MAP(T, NAME, EXPR)                                          \
    __kernel void KNAME(T, NAME)(const index_t n, __global const T *a,     \
                                 __global const T *b, __global T *c)       \
    {                                                                      \
        GRID_STRIDE(i, n)                                                  \
        {                                                                  \
            const T u = a[i];                                              \
            const T v = b[i];                                              \
            c[i] = (EXPR);                                                 \
        }                                                                  \
    }

#define DEFINE_LEVEL1(T)                                                   \
    DEFINE_AXPY(T)                                                         \
    DEFINE_SCAL(T)                                                         \
    DEFINE_COPY(T)                                                         \
    DEFINE_SWAP(T)

DEFINE_LEVEL1(float)
DEFINE_LEVEL1(int)
DEFINE_LEVEL1(uint)
DEFINE_LEVEL1(long)

DEFINE_MAP(float, add, u + v)
DEFINE_MAP(float, sub, u - v)
DEFINE_MAP(float, mul, u * v)
DEFINE_MAP(float, div, u / v)
DEFINE_MAP(float, min, fmin(u, v))
DEFINE_MAP(float, max, fmax(u, v))
DEFINE_MAP(float, hypot, sqrt(MADD(u, u, v * v)))
DEFINE_MAP(float, absdiff, fabs(u - v))
DEFINE_MAP(float, lerp_half, LERP(u, v, 0.5f))
DEFINE_MAP(int, add, u + v)
DEFINE_MAP(int, sub, u - v)
DEFINE_MAP(int, min, min(u, v))
DEFINE_MAP(int, max, max(u, v))
DEFINE_MAP(int, and, u & v)
DEFINE_MAP(int, xor, u ^ v)
DEFINE_MAP(uint, shl, u << (v & 31u))
DEFINE_MAP(uint, avg, (u >> 1) + (v >> 1) + (u & v & 1u))

// ---- level 1 reductions: one partial result per work-item ----

__kernel void sdot_partial(const index_t n, __global const real_t *x,
                           __global const real_t *y, __global real_t *partial)
{
    const index_t chunk = (n + GSZ(0) - 1) / GSZ(0);
    const index_t start = GID(0) * chunk;
    const index_t len = CLAMP(n - start, 0, chunk);
    partial[GID(0)] = len > 0 ? dot_range(x + start, y + start, len) : 0.0f;
}

__kernel void sasum_partial(const index_t n, __global const real_t *x,
                            const index_t incx, __global real_t *partial)
{
    const index_t chunk = (n + GSZ(0) - 1) / GSZ(0);
    const index_t start = GID(0) * chunk;
    const index_t len = CLAMP(n - start, 0, chunk);
    partial[GID(0)] = asum_range(x + start * incx, len, incx);
}

__kernel void snrm2_partial(const index_t n, __global const real_t *x,
                            __global real_t *partial_scale,
                            __global real_t *partial_ssq)
{
    real_t scale = 0.0f;
    real_t ssq = 1.0f;
    GRID_STRIDE(i, n)
    {
        const real_t a = fabs(x[i]);
        if (a > 0.0f) {
            if (scale < a) {
                ssq = 1.0f + ssq * sq(scale / a);
                scale = a;
            } else {
                ssq += sq(a / scale);
            }
        }
    }
    partial_scale[GID(0)] = scale;
    partial_ssq[GID(0)] = ssq;
}

__kernel void isamax_partial(const index_t n, __global const real_t *x,
                             __global real_t *best_value,
                             __global index_t *best_index)
{
    real_t best = -1.0f;
    index_t at = -1;
    GRID_STRIDE(i, n)
    {
        const real_t a = fabs(x[i]);
        if (a > best) {
            best = a;
            at = i;
        }
    }
    best_value[GID(0)] = best;
    best_index[GID(0)] = at;
}

__kernel void srot(const index_t n, __global real_t *x, __global real_t *y,
                   const real_t c, const real_t s)
{
    GRID_STRIDE(i, n)
    {
        const real_t xi = x[i];
        const real_t yi = y[i];
        x[i] = MADD(c, xi, s * yi);
        y[i] = MADD(c, yi, -s * xi);
    }
}

__kernel void saxpy_vec4(const index_t n4, const real_t alpha,
                         __global const real_t *x, __global real_t *y)
{
    GRID_STRIDE(i, n4)
    {
        const real4_t xv = load4(x, i * VEC_WIDTH);
        const real4_t yv = load4(y, i * VEC_WIDTH);
        store4(y, i * VEC_WIDTH, MADD((real4_t)(alpha), xv, yv));
    }
}

__kernel void sgemv_n(const index_t M, const index_t N, const real_t alpha,
                     __global const real_t *A, const index_t lda,
                     __global const real_t *x, const real_t beta,
                     __global real_t *y)
{
    const index_t row = GID(0);
    if (row >= M)
        return;
    real_t acc = 0.0f;
    for (index_t k = 0; k < N; k++)
        acc = MADD(A[IDX2(row, k, lda)], x[k], acc);
    y[row] = beta == 0.0f ? alpha * acc : MADD(alpha, acc, beta * y[row]);
}

__kernel void sgemv_n_unroll4(const index_t M, const index_t N, const real_t alpha,
                     __global const real_t *A, const index_t lda,
                     __global const real_t *x, const real_t beta,
                     __global real_t *y)
{
    const index_t row = GID(0);
    if (row >= M)
        return;
    real_t acc = 0.0f;
    index_t k = 0;
    real4_t acc4 = (real4_t)(0.0f);
    for (; k + UNROLL <= N; k += UNROLL) {
        const real4_t a = load4(A, IDX2(row, k, lda));
        const real4_t b = load4(x, k);
        acc4 = MADD(a, b, acc4);
    }
    acc = SUM4(acc4);
    for (; k < N; k++)
        acc = MADD(A[IDX2(row, k, lda)], x[k], acc);
    y[row] = beta == 0.0f ? alpha * acc : MADD(alpha, acc, beta * y[row]);
}

__kernel void sgemv_t(const index_t M, const index_t N, const real_t alpha,
                      __global const real_t *A, const index_t lda,
                      __global const real_t *x, const real_t beta,
                      __global real_t *y)
{
    const index_t col = GID(0);
    if (col >= N)
        return;
    real_t acc = 0.0f;
    for (index_t k = 0; k < M; k++)
        acc = MADD(A[IDX2(k, col, lda)], x[k], acc);
    y[col] = MADD(alpha, acc, beta * y[col]);
}

__kernel void sger(const index_t M, const index_t N, const real_t alpha,
                   __global const real_t *x, __global const real_t *y,
                   __global real_t *A, const index_t lda)
{
    const index_t col = GID(0);
    const index_t row = GID(1);
    if (row < M && col < N)
        A[IDX2(row, col, lda)] = MADD(alpha * x[row], y[col], A[IDX2(row, col, lda)]);
}

__kernel void ssyr_upper(const index_t N, const real_t alpha,
                         __global const real_t *x, __global real_t *A,
                         const index_t lda)
{
    const index_t col = GID(0);
    const index_t row = GID(1);
    if (row <= col && col < N)
        A[IDX2(row, col, lda)] += alpha * x[row] * x[col];
}

__kernel void strmv_lower(const index_t N, __global const real_t *A,
                          const index_t lda, __global const real_t *x,
                          __global real_t *y, const int unit_diag)
{
    const index_t row = GID(0);
    if (row >= N)
        return;
    real_t acc = unit_diag ? x[row] : A[IDX2(row, row, lda)] * x[row];
    for (index_t k = 0; k < row; k++)
        acc = MADD(A[IDX2(row, k, lda)], x[k], acc);
    y[row] = acc;
}

// ---- level 3 ----

#define GEMM_EPILOGUE(C, idx, acc, alpha, beta) \
    C[idx] = (beta) == 0.0f ? (alpha) * (acc) : MADD((alpha), (acc), (beta) * C[idx])

__kernel void sgemm_naive(const index_t M, const index_t N, const index_t K,
                          const real_t alpha, __global const real_t *A,
                          __global const real_t *B, const real_t beta,
                          __global real_t *C)
{
    const index_t col = GID(0);
    const index_t row = GID(1);
    if (row >= M || col >= N)
        return;
    real_t acc = 0.0f;
    for (index_t k = 0; k < K; k++)
        acc = MADD(A[IDX2(row, k, K)], B[IDX2(k, col, N)], acc);
    GEMM_EPILOGUE(C, IDX2(row, col, N), acc, alpha, beta);
}

#define GEMM_STEP4(acc, a, B, k, N, col)                        \
    do {                                                        \
        const real4_t b4 = load4(B, IDX2((k), (col), (N)));     \
        acc = MADD((real4_t)(a), b4, acc);                      \
    } while (0)

// Each work-item computes a 1x4 block of C with float4 accumulators.
__kernel void sgemm_block1x4(const index_t M, const index_t N, const index_t K,
                               const real_t alpha, __global const real_t *A,
                               __global const real_t *B, const real_t beta,
                               __global real_t *C)
{
    const index_t col = GID(0) * 4;
    const index_t row = GID(1) * 1;
    if (row + 1 > M || col + 4 > N)
        return;
    real4_t acc0 = (real4_t)(0.0f);
    for (index_t k = 0; k < K; k++) {
        GEMM_STEP4(acc0, A[IDX2(row + 0, k, K)], B, k, N, col);
    }
    store4(C, IDX2(row + 0, col, N), MADD((real4_t)(alpha), acc0, (real4_t)(beta) * load4(C, IDX2(row + 0, col, N))));
}

// Each work-item computes a 2x4 block of C with float4 accumulators.
__kernel void sgemm_block2x4(const index_t M, const index_t N, const index_t K,
                               const real_t alpha, __global const real_t *A,
                               __global const real_t *B, const real_t beta,
                               __global real_t *C)
{
    const index_t col = GID(0) * 4;
    const index_t row = GID(1) * 2;
    if (row + 2 > M || col + 4 > N)
        return;
    real4_t acc0 = (real4_t)(0.0f);
    real4_t acc1 = (real4_t)(0.0f);
    for (index_t k = 0; k < K; k++) {
        GEMM_STEP4(acc0, A[IDX2(row + 0, k, K)], B, k, N, col);
        GEMM_STEP4(acc1, A[IDX2(row + 1, k, K)], B, k, N, col);
    }
    store4(C, IDX2(row + 0, col, N), MADD((real4_t)(alpha), acc0, (real4_t)(beta) * load4(C, IDX2(row + 0, col, N))));
    store4(C, IDX2(row + 1, col, N), MADD((real4_t)(alpha), acc1, (real4_t)(beta) * load4(C, IDX2(row + 1, col, N))));
}

// Each work-item computes a 4x4 block of C with float4 accumulators.
__kernel void sgemm_block4x4(const index_t M, const index_t N, const index_t K,
                               const real_t alpha, __global const real_t *A,
                               __global const real_t *B, const real_t beta,
                               __global real_t *C)
{
    const index_t col = GID(0) * 4;
    const index_t row = GID(1) * 4;
    if (row + 4 > M || col + 4 > N)
        return;
    real4_t acc0 = (real4_t)(0.0f);
    real4_t acc1 = (real4_t)(0.0f);
    real4_t acc2 = (real4_t)(0.0f);
    real4_t acc3 = (real4_t)(0.0f);
    for (index_t k = 0; k < K; k++) {
        GEMM_STEP4(acc0, A[IDX2(row + 0, k, K)], B, k, N, col);
        GEMM_STEP4(acc1, A[IDX2(row + 1, k, K)], B, k, N, col);
        GEMM_STEP4(acc2, A[IDX2(row + 2, k, K)], B, k, N, col);
        GEMM_STEP4(acc3, A[IDX2(row + 3, k, K)], B, k, N, col);
    }
    store4(C, IDX2(row + 0, col, N), MADD((real4_t)(alpha), acc0, (real4_t)(beta) * load4(C, IDX2(row + 0, col, N))));
    store4(C, IDX2(row + 1, col, N), MADD((real4_t)(alpha), acc1, (real4_t)(beta) * load4(C, IDX2(row + 1, col, N))));
    store4(C, IDX2(row + 2, col, N), MADD((real4_t)(alpha), acc2, (real4_t)(beta) * load4(C, IDX2(row + 2, col, N))));
    store4(C, IDX2(row + 3, col, N), MADD((real4_t)(alpha), acc3, (real4_t)(beta) * load4(C, IDX2(row + 3, col, N))));
}

__kernel void sgemm_batched_strided(const index_t M, const index_t N, const index_t K,
                                    __global const real_t *A, const index_t stride_a,
                                    __global const real_t *B, const index_t stride_b,
                                    __global real_t *C, const index_t stride_c)
{
    const index_t col = GID(0);
    const index_t row = GID(1);
    const index_t batch = GID(2);
    if (row >= M || col >= N)
        return;
    __global const real_t *a = A + batch * stride_a;
    __global const real_t *b = B + batch * stride_b;
    real_t acc = 0.0f;
    index_t k = 0;
    for (; k + 4 <= K; k += 4) {
        acc = MADD(a[IDX2(row, k, K)], b[IDX2(k, col, N)], acc);
        acc = MADD(a[IDX2(row, k + 1, K)], b[IDX2(k + 1, col, N)], acc);
        acc = MADD(a[IDX2(row, k + 2, K)], b[IDX2(k + 2, col, N)], acc);
        acc = MADD(a[IDX2(row, k + 3, K)], b[IDX2(k + 3, col, N)], acc);
    }
    for (; k < K; k++)
        acc = MADD(a[IDX2(row, k, K)], b[IDX2(k, col, N)], acc);
    C[batch * stride_c + IDX2(row, col, N)] = acc;
}

__kernel void transpose(const index_t rows, const index_t cols,
                        __global const real_t *in, __global real_t *out)
{
    const index_t c = GID(0);
    const index_t r = GID(1);
    if (r < rows && c < cols)
        out[IDX2(c, r, rows)] = in[IDX2(r, c, cols)];
}

// ---- stencils ----

#define AT(p, x, y, w) (p)[IDX2((y), (x), (w))]
#define CLAMPED(p, x, y, w, h) AT(p, CLAMP((x), 0, (w) - 1), CLAMP((y), 0, (h) - 1), w)

__kernel void jacobi2d(__global const real_t *in, __global real_t *out,
                     const index_t w, const index_t h)
{
    const index_t x = GID(0);
    const index_t y = GID(1);
    if (x >= w || y >= h)
        return;
    AT(out, x, y, w) = 0.25f * (CLAMPED(in, x - 1, y, w, h) + CLAMPED(in, x + 1, y, w, h) +
                          CLAMPED(in, x, y - 1, w, h) + CLAMPED(in, x, y + 1, w, h));
}

__kernel void laplace5(__global const real_t *in, __global real_t *out,
                     const index_t w, const index_t h)
{
    const index_t x = GID(0);
    const index_t y = GID(1);
    if (x >= w || y >= h)
        return;
    AT(out, x, y, w) = CLAMPED(in, x - 1, y, w, h) + CLAMPED(in, x + 1, y, w, h) +
                          CLAMPED(in, x, y - 1, w, h) + CLAMPED(in, x, y + 1, w, h) - 4.0f * AT(in, x, y, w);
}

__kernel void blur3x3(__global const real_t *in, __global real_t *out,
                     const index_t w, const index_t h)
{
    const index_t x = GID(0);
    const index_t y = GID(1);
    if (x >= w || y >= h)
        return;
    AT(out, x, y, w) = (CLAMPED(in, x - 1, y - 1, w, h) + 2.0f * CLAMPED(in, x, y - 1, w, h) + CLAMPED(in, x + 1, y - 1, w, h) +
                          2.0f * CLAMPED(in, x - 1, y, w, h) + 4.0f * AT(in, x, y, w) + 2.0f * CLAMPED(in, x + 1, y, w, h) +
                          CLAMPED(in, x - 1, y + 1, w, h) + 2.0f * CLAMPED(in, x, y + 1, w, h) + CLAMPED(in, x + 1, y + 1, w, h)) / 16.0f;
}

__kernel void sobel_x(__global const real_t *in, __global real_t *out,
                     const index_t w, const index_t h)
{
    const index_t x = GID(0);
    const index_t y = GID(1);
    if (x >= w || y >= h)
        return;
    AT(out, x, y, w) = (CLAMPED(in, x + 1, y - 1, w, h) + 2.0f * CLAMPED(in, x + 1, y, w, h) + CLAMPED(in, x + 1, y + 1, w, h)) -
                          (CLAMPED(in, x - 1, y - 1, w, h) + 2.0f * CLAMPED(in, x - 1, y, w, h) + CLAMPED(in, x - 1, y + 1, w, h));
}

__kernel void sobel_y(__global const real_t *in, __global real_t *out,
                     const index_t w, const index_t h)
{
    const index_t x = GID(0);
    const index_t y = GID(1);
    if (x >= w || y >= h)
        return;
    AT(out, x, y, w) = (CLAMPED(in, x - 1, y + 1, w, h) + 2.0f * CLAMPED(in, x, y + 1, w, h) + CLAMPED(in, x + 1, y + 1, w, h)) -
                          (CLAMPED(in, x - 1, y - 1, w, h) + 2.0f * CLAMPED(in, x, y - 1, w, h) + CLAMPED(in, x + 1, y - 1, w, h));
}

__kernel void heat3d(__global const real_t *in, __global real_t *out,
                     const index_t nx, const index_t ny, const index_t nz,
                     const real_t alpha)
{
    const index_t x = GID(0);
    const index_t y = GID(1);
    const index_t z = GID(2);
    if (x < HALO || y < HALO || z < HALO || x >= nx - HALO || y >= ny - HALO || z >= nz - HALO)
        return;
    const real_t c = in[IDX3(x, y, z, nx, ny)];
    real_t sum = in[IDX3(x - 1, y, z, nx, ny)] + in[IDX3(x + 1, y, z, nx, ny)];
    sum += in[IDX3(x, y - 1, z, nx, ny)] + in[IDX3(x, y + 1, z, nx, ny)];
    sum += in[IDX3(x, y, z - 1, nx, ny)] + in[IDX3(x, y, z + 1, nx, ny)];
    out[IDX3(x, y, z, nx, ny)] = MADD(alpha, sum - 6.0f * c, c);
}

__kernel void game_of_life(__global const int *in, __global int *out,
                           const index_t w, const index_t h)
{
    const index_t x = GID(0);
    const index_t y = GID(1);
    if (x >= w || y >= h)
        return;
    int alive = 0;
    for (index_t dy = -1; dy <= 1; dy++) {
        for (index_t dx = -1; dx <= 1; dx++) {
            if (dx == 0 && dy == 0)
                continue;
            alive += in[IDX2(wrap(y + dy, h), wrap(x + dx, w), w)];
        }
    }
    const int self = in[IDX2(y, x, w)];
    out[IDX2(y, x, w)] = (alive == 3 || (self && alive == 2)) ? 1 : 0;
}

// ---- pixels: RGBA as four consecutive floats ----

real4_t pixel(__global const real_t *img, index_t x, index_t y, index_t w)
{
    return load4(img, IDX2(y, x, w) * 4);
}

real_t luminance(real4_t c)
{
    const real4_t weights = (real4_t)(0.2126f, 0.7152f, 0.0722f, 0.0f);
    return DOT4(c, weights);
}

__kernel void rgba_to_gray(__global const real_t *src, __global real_t *dst,
                     const index_t w, const index_t h, const real_t param)
{
    const index_t x = GID(0);
    const index_t y = GID(1);
    if (x >= w || y >= h)
        return;
    real4_t c = pixel(src, x, y, w);
    const real_t g = luminance(c);
    c = (real4_t)(g, g, g, c.w);
    store4(dst, IDX2(y, x, w) * 4, c);
}

__kernel void rgba_brightness(__global const real_t *src, __global real_t *dst,
                     const index_t w, const index_t h, const real_t param)
{
    const index_t x = GID(0);
    const index_t y = GID(1);
    if (x >= w || y >= h)
        return;
    real4_t c = pixel(src, x, y, w);
    c.xyz = c.xyz * param;
    c = (real4_t)(clampf(c.x, 0.0f, 1.0f), clampf(c.y, 0.0f, 1.0f), clampf(c.z, 0.0f, 1.0f), c.w);
    store4(dst, IDX2(y, x, w) * 4, c);
}

__kernel void rgba_invert(__global const real_t *src, __global real_t *dst,
                     const index_t w, const index_t h, const real_t param)
{
    const index_t x = GID(0);
    const index_t y = GID(1);
    if (x >= w || y >= h)
        return;
    real4_t c = pixel(src, x, y, w);
    c = (real4_t)(1.0f - c.x, 1.0f - c.y, 1.0f - c.z, c.w);
    store4(dst, IDX2(y, x, w) * 4, c);
}

__kernel void rgba_swap_rb(__global const real_t *src, __global real_t *dst,
                     const index_t w, const index_t h, const real_t param)
{
    const index_t x = GID(0);
    const index_t y = GID(1);
    if (x >= w || y >= h)
        return;
    real4_t c = pixel(src, x, y, w);
    c = c.zyxw;
    store4(dst, IDX2(y, x, w) * 4, c);
}

__kernel void rgba_threshold(__global const real_t *src, __global real_t *dst,
                     const index_t w, const index_t h, const real_t param)
{
    const index_t x = GID(0);
    const index_t y = GID(1);
    if (x >= w || y >= h)
        return;
    real4_t c = pixel(src, x, y, w);
    const real_t g = luminance(c) > param ? 1.0f : 0.0f;
    c = (real4_t)(g, g, g, 1.0f);
    store4(dst, IDX2(y, x, w) * 4, c);
}

__kernel void rgba_contrast(__global const real_t *src, __global real_t *dst,
                     const index_t w, const index_t h, const real_t param)
{
    const index_t x = GID(0);
    const index_t y = GID(1);
    if (x >= w || y >= h)
        return;
    real4_t c = pixel(src, x, y, w);
    const real4_t mid = (real4_t)(0.5f, 0.5f, 0.5f, 0.0f);
    c = MADD(c - mid, (real4_t)(param, param, param, 1.0f), mid);
    store4(dst, IDX2(y, x, w) * 4, c);
}

__kernel void rgba_premultiply(__global const real_t *src, __global real_t *dst,
                     const index_t w, const index_t h, const real_t param)
{
    const index_t x = GID(0);
    const index_t y = GID(1);
    if (x >= w || y >= h)
        return;
    real4_t c = pixel(src, x, y, w);
    c.xyz = c.xyz * c.w;
    store4(dst, IDX2(y, x, w) * 4, c);
}

__kernel void rgba_vignette(__global const real_t *src, __global real_t *dst,
                     const index_t w, const index_t h, const real_t param)
{
    const index_t x = GID(0);
    const index_t y = GID(1);
    if (x >= w || y >= h)
        return;
    real4_t c = pixel(src, x, y, w);
    const real_t dx = (real_t)x / (real_t)w - 0.5f;
    const real_t dy = (real_t)y / (real_t)h - 0.5f;
    const real_t v = 1.0f - smooth(0.3f, 0.75f, sqrt(dx * dx + dy * dy) * param);
    c.xyz = c.xyz * v;
    store4(dst, IDX2(y, x, w) * 4, c);
}

__kernel void box_blur_rgba(__global const real_t *src, __global real_t *dst,
                            const index_t w, const index_t h, const index_t radius)
{
    const index_t x = GID(0);
    const index_t y = GID(1);
    if (x >= w || y >= h)
        return;
    real4_t sum = (real4_t)(0.0f);
    real_t count = 0.0f;
    for (index_t dy = -radius; dy <= radius; dy++) {
        const index_t yy = CLAMP(y + dy, 0, h - 1);
        for (index_t dx = -radius; dx <= radius; dx++) {
            const index_t xx = CLAMP(x + dx, 0, w - 1);
            sum += pixel(src, xx, yy, w);
            count += 1.0f;
        }
    }
    store4(dst, IDX2(y, x, w) * 4, sum / count);
}

__kernel void bilateral_gray(__global const real_t *src, __global real_t *dst,
                             const index_t w, const index_t h,
                             const real_t sigma_s, const real_t sigma_r)
{
    const index_t x = GID(0);
    const index_t y = GID(1);
    if (x >= w || y >= h)
        return;
    const real_t center = src[IDX2(y, x, w)];
    real_t sum = 0.0f;
    real_t norm = 0.0f;
    for (index_t dy = -2; dy <= 2; dy++) {
        for (index_t dx = -2; dx <= 2; dx++) {
            const real_t v = CLAMPED(src, x + dx, y + dy, w, h);
            const real_t ds = (real_t)(dx * dx + dy * dy) / (2.0f * sigma_s * sigma_s);
            const real_t dr = sq(v - center) / (2.0f * sigma_r * sigma_r);
            const real_t weight = 1.0f / (1.0f + ds + dr);
            sum = MADD(weight, v, sum);
            norm += weight;
        }
    }
    dst[IDX2(y, x, w)] = sum / norm;
}

// ---- particles: positions and velocities as float4 (w = mass) ----

#define SOFTENING 1e-3f

real3_t pair_accel(real4_t pi, real4_t pj)
{
    const real3_t d = pj.xyz - pi.xyz;
    const real_t r2 = DOT3(d, d) + SOFTENING;
    const real_t inv = 1.0f / sqrt(r2);
    return d * (pj.w * inv * inv * inv);
}

__kernel void nbody_step(const index_t n, const real_t dt,
                         __global const real_t *pos_in, __global real_t *pos_out,
                         __global real_t *vel)
{
    const index_t i = GID(0);
    if (i >= n)
        return;
    const real4_t p = load4(pos_in, i * 4);
    real3_t acc = (real3_t)(0.0f);
    for (index_t j = 0; j < n; j++)
        acc += pair_accel(p, load4(pos_in, j * 4));
    real4_t v = load4(vel, i * 4);
    v.xyz = MADD(acc, (real3_t)(dt), v.xyz);
    real4_t q = p;
    q.xyz = MADD(v.xyz, (real3_t)(dt), p.xyz);
    store4(vel, i * 4, v);
    store4(pos_out, i * 4, q);
}

__kernel void verlet_integrate(const index_t n, const real_t dt, const real_t damping,
                               __global real_t *pos, __global real_t *prev,
                               __global const real_t *force)
{
    GRID_STRIDE(i, n)
    {
        const real4_t p = load4(pos, i * 4);
        const real4_t q = load4(prev, i * 4);
        const real4_t f = load4(force, i * 4);
        real4_t next = p + (p - q) * damping + f * (dt * dt);
        next.w = p.w;
        store4(prev, i * 4, p);
        store4(pos, i * 4, next);
    }
}

__kernel void bounce_walls(const index_t n, __global real_t *pos, __global real_t *vel,
                           const real_t lo, const real_t hi)
{
    GRID_STRIDE(i, n)
    {
        real4_t p = load4(pos, i * 4);
        real4_t v = load4(vel, i * 4);
        if (p.x < lo || p.x > hi) v.x = -v.x;
        if (p.y < lo || p.y > hi) v.y = -v.y;
        if (p.z < lo || p.z > hi) v.z = -v.z;
        p.x = clampf(p.x, lo, hi);
        p.y = clampf(p.y, lo, hi);
        p.z = clampf(p.z, lo, hi);
        store4(pos, i * 4, p);
        store4(vel, i * 4, v);
    }
}

__kernel void kinetic_energy(const index_t n, __global const real_t *vel,
                             __global real_t *energy)
{
    GRID_STRIDE(i, n)
    {
        const real4_t v = load4(vel, i * 4);
        energy[i] = 0.5f * v.w * DOT3(v, v);
    }
}

// ---- integers ----

int abs_int(int v) { return v < 0 ? -v : v; }

__kernel void collatz(const index_t n, __global const uint *start, __global uint *steps)
{
    GRID_STRIDE(i, n) steps[i] = collatz_steps(max(start[i], 1u));
}

__kernel void histogram_private(const index_t n, __global const uint *keys,
                                const uint bins, __global uint *counts)
{
    const uint bin = (uint)GID(0);
    if (bin >= bins)
        return;
    uint c = 0;
    for (index_t i = 0; i < n; i++)
        c += keys[i] % bins == bin ? 1u : 0u;
    counts[bin] = c;
}

__kernel void popcount_naive(const index_t n, __global const uint *in, __global uint *out)
{
    GRID_STRIDE(i, n)
    {
        uint v = in[i];
        uint c = 0;
        while (v) {
            v &= v - 1u;
            c++;
        }
        out[i] = c;
    }
}

__kernel void gcd_pairs(const index_t n, __global const int *a, __global const int *b,
                        __global int *g)
{
    GRID_STRIDE(i, n)
    {
        int x = abs_int(a[i]);
        int y = abs_int(b[i]);
        do {
            const int t = y == 0 ? 0 : x % y;
            x = y == 0 ? x : y;
            y = t;
        } while (y != 0);
        g[i] = x;
    }
}

__kernel void prefix_sum_serial(const index_t n, __global const int *in, __global int *out)
{
    if (GID(0) != 0)
        return;
    int running = 0;
    for (index_t i = 0; i < n; i++) {
        running += in[i];
        out[i] = running;
    }
}

__kernel void compact_flags(const index_t n, __global const real_t *values,
                            const real_t threshold, __global int *flags)
{
    GRID_STRIDE(i, n) flags[i] = values[i] > threshold ? 1 : 0;
}

__kernel void reduce_minmax(const index_t n, __global const real_t *x,
                            __global real_t *partial)
{
    real2_t acc = (real2_t)(1e30f, -1e30f);
    GRID_STRIDE(i, n)
    {
        const real_t v = x[i];
        acc = (real2_t)(fmin(acc.x, v), fmax(acc.y, v));
    }
    partial[2 * GID(0)] = acc.x;
    partial[2 * GID(0) + 1] = acc.y;
}

__kernel void reduce_sum_sumsq(const index_t n, __global const real_t *x,
                            __global real_t *partial)
{
    real2_t acc = (real2_t)(0.0f);
    GRID_STRIDE(i, n)
    {
        const real_t v = x[i];
        acc += (real2_t)(v, v * v);
    }
    partial[2 * GID(0)] = acc.x;
    partial[2 * GID(0) + 1] = acc.y;
}

__kernel void reduce_mean_abs_max(const index_t n, __global const real_t *x,
                            __global real_t *partial)
{
    real2_t acc = (real2_t)(0.0f);
    GRID_STRIDE(i, n)
    {
        const real_t v = x[i];
        acc = (real2_t)(acc.x + fabs(v), fmax(acc.y, fabs(v)));
    }
    partial[2 * GID(0)] = acc.x;
    partial[2 * GID(0) + 1] = acc.y;
}

// ---- sparse and sorting ----

__kernel void csr_spmv(const index_t rows, __global const index_t *row_ptr,
                       __global const index_t *col_idx, __global const real_t *vals,
                       __global const real_t *x, __global real_t *y)
{
    const index_t row = GID(0);
    if (row >= rows)
        return;
    real_t acc = 0.0f;
    const index_t end = row_ptr[row + 1];
    for (index_t k = row_ptr[row]; k < end; k++)
        acc = MADD(vals[k], x[col_idx[k]], acc);
    y[row] = acc;
}

__kernel void bitonic_step(__global real_t *keys, const uint stage, const uint pass)
{
    const uint i = (uint)GID(0);
    const uint distance = 1u << (stage - pass);
    const uint left = ((i >> (stage - pass)) << (stage - pass + 1u)) + (i & (distance - 1u));
    const uint right = left + distance;
    const int ascending = ((i >> stage) & 1u) == 0u;
    const real_t a = keys[left];
    const real_t b = keys[right];
    keys[left] = ascending ? fmin(a, b) : fmax(a, b);
    keys[right] = ascending ? fmax(a, b) : fmin(a, b);
}

__kernel void normalize_rows(const index_t rows, const index_t cols,
                             __global real_t *m, const real_t eps)
{
    const index_t r = GID(0);
    if (r >= rows)
        return;
    real_t ss = 0.0f;
    for (index_t c = 0; c < cols; c++)
        ss = MADD(m[IDX2(r, c, cols)], m[IDX2(r, c, cols)], ss);
    const real_t inv = 1.0f / sqrt(ss + eps);
    for (index_t c = 0; c < cols; c++)
        m[IDX2(r, c, cols)] *= inv;
}

__kernel void bin_values(const index_t n, __global const real_t *values,
                         const real_t lo, const real_t hi, const index_t bins,
                         __global index_t *bin_of)
{
    const real_t scale = (real_t)bins / (hi - lo);
    GRID_STRIDE(i, n)
    {
        const real_t v = clampf(values[i], lo, hi);
        bin_of[i] = CLAMP((index_t)floor((v - lo) * scale), 0, bins - 1);
    }
}

__kernel void fract_floor_ceil(const index_t n, __global const real_t *x,
                               __global real_t *lo, __global real_t *hi,
                               __global real_t *frac)
{
    GRID_STRIDE(i, n)
    {
        const real_t v = x[i];
        const real_t f = floor(v);
        lo[i] = f;
        hi[i] = ceil(v);
        frac[i] = v - f;
    }
}


#ifndef TILE_2
#define TILE_2 4
#endif
#define UNROLL_2 4
#define VEC_WIDTH_2 4

#if defined(__OPENCL_VERSION__) && __OPENCL_VERSION__ >= 120
#define HAS_FMA_2 1
#else
#define HAS_FMA_2 0
#endif

#if HAS_FMA_2
#define MADD_2(a, b, c) fma((a), (b), (c))
#else
#define MADD_2(a, b, c) mad((a), (b), (c))
#endif

typedef float real_t_2;
typedef float2 real2_t_2;
typedef float3 real3_t_2;
typedef float4 real4_t_2;
typedef int index_t_2;
typedef unsigned int count_t_2;

enum blas_order_2 { ROW_MAJOR_2 = 101, COL_MAJOR_2 = 102 };
enum blas_trans_2 { NO_TRANS_2 = 111, TRANS_2 = 112 };
enum limits_2 { MAX_ITER_2 = 64, BLOCK_2 = TILE_2 * UNROLL_2, HALO_2 = 1 };

#define IDX2_2(r, c, ld) ((r) * (ld) + (c))
#define IDX3_2(x, y, z, nx, ny) (((z) * (ny) + (y)) * (nx) + (x))
#define SQR_2(x) ((x) * (x))
#define CUBE_2(x) ((x) * (x) * (x))
#define CLAMP_2(x, lo, hi) min(max((x), (lo)), (hi))
#define LERP_2(a, b, t) MADD_2((t), (b) - (a), (a))
#define GID_2(d) ((index_t_2)get_global_id(d))
#define LID_2(d) ((index_t_2)get_local_id(d))
#define GRP_2(d) ((index_t_2)get_group_id(d))
#define GSZ_2(d) ((index_t_2)get_global_size(d))
#define LSZ_2(d) ((index_t_2)get_local_size(d))
#define NGRP_2(d) ((index_t_2)get_num_groups(d))
#define GRID_STRIDE_2(i, n) for (index_t_2 i = GID_2(0); i < (n); i += GSZ_2(0))
#define IN_RANGE_2(i, n) ((i) >= 0 && (i) < (n))
#define DOT4_2(a, b) ((a).x * (b).x + (a).y * (b).y + (a).z * (b).z + (a).w * (b).w)
#define DOT3_2(a, b) ((a).x * (b).x + (a).y * (b).y + (a).z * (b).z)
#define SUM4_2(v) (((v).x + (v).y) + ((v).z + (v).w))
#define LOAD4_2(p, i) ((real4_t_2)((p)[(i)], (p)[(i) + 1], (p)[(i) + 2], (p)[(i) + 3]))
#define STORE4_2(p, i, v)          \
    do {                         \
        (p)[(i)] = (v).x;        \
        (p)[(i) + 1] = (v).y;    \
        (p)[(i) + 2] = (v).z;    \
        (p)[(i) + 3] = (v).w;    \
    } while (0)
#define CAT_2(a, b) a##b
#define XCAT_2(a, b) CAT_2(a, b)
#define KNAME_2(prefix, op) XCAT_2(prefix, XCAT_2(_, XCAT_2(op, _2)))

// ---- helpers ----

real_t_2 sq_2(real_t_2 v) { return v * v; }

real_t_2 clampf_2(real_t_2 v, real_t_2 lo, real_t_2 hi) { return fmin(fmax(v, lo), hi); }

real_t_2 smooth_2(real_t_2 e0, real_t_2 e1, real_t_2 x)
{
    real_t_2 t = clampf_2((x - e0) / (e1 - e0), 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}

real_t_2 length3_2(real3_t_2 v) { return sqrt(DOT3_2(v, v)); }

real4_t_2 load4_2(__global const real_t_2 *p, index_t_2 i)
{
    return LOAD4_2(p, i);
}

void store4_2(__global real_t_2 *p, index_t_2 i, real4_t_2 v)
{
    STORE4_2(p, i, v);
}

real_t_2 dot_range_2(__global const real_t_2 *x, __global const real_t_2 *y, index_t_2 n)
{
    real4_t_2 acc4 = (real4_t_2)(0.0f);
    index_t_2 i = 0;
    for (; i + VEC_WIDTH_2 <= n; i += VEC_WIDTH_2)
        acc4 = MADD_2(load4_2(x, i), load4_2(y, i), acc4);
    real_t_2 acc = SUM4_2(acc4);
    for (; i < n; i++)
        acc = MADD_2(x[i], y[i], acc);
    return acc;
}

real_t_2 asum_range_2(__global const real_t_2 *x, index_t_2 n, index_t_2 incx)
{
    real_t_2 s = 0.0f;
    for (index_t_2 i = 0; i < n; i++)
        s += fabs(x[i * incx]);
    return s;
}

index_t_2 wrap_2(index_t_2 i, index_t_2 n)
{
    if (i < 0)
        return i + n;
    if (i >= n)
        return i - n;
    return i;
}

count_t_2 collatz_steps_2(count_t_2 v)
{
    count_t_2 steps = 0;
    while (v != 1u && steps < (count_t_2)MAX_ITER_2) {
        v = (v & 1u) ? 3u * v + 1u : v >> 1;
        steps++;
    }
    return steps;
}

// ---- level 1, stamped out per type and operation ----

#define DEFINE_AXPY_2(T)                                                     \
    __kernel void KNAME_2(T, axpy)(const index_t_2 n, const T alpha,           \
                                 __global const T *x, __global T *y)       \
    {                                                                      \
        GRID_STRIDE_2(i, n) y[i] = alpha * x[i] + y[i];                      \
    }

#define DEFINE_SCAL_2(T)                                                     \
    __kernel void KNAME_2(T, scal)(const index_t_2 n, const T alpha,           \
                                 __global T *x)                            \
    {                                                                      \
        GRID_STRIDE_2(i, n) x[i] *= alpha;                                   \
    }

#define DEFINE_COPY_2(T)                                                     \
    __kernel void KNAME_2(T, copy)(const index_t_2 n, __global const T *x,     \
                                 const index_t_2 incx, __global T *y,        \
                                 const index_t_2 incy)                       \
    {                                                                      \
        GRID_STRIDE_2(i, n) y[i * incy] = x[i * incx];                       \
    }

#define DEFINE_SWAP_2(T)                                                     \
    __kernel void KNAME_2(T, swap)(const index_t_2 n, __global T *x,           \
                                 __global T *y)                            \
    {                                                                      \
        GRID_STRIDE_2(i, n)                                                  \
        {                                                                  \
            T t = x[i];                                                    \
            x[i] = y[i];                                                   \
            y[i] = t;                                                      \
        }                                                                  \
    }

#define DEFINE_MAP_2(T, NAME, EXPR)                                          \
    __kernel void KNAME_2(T, NAME)(const index_t_2 n, __global const T *a,     \
                                 __global const T *b, __global T *c)       \
    {                                                                      \
        GRID_STRIDE_2(i, n)                                                  \
        {                                                                  \
            const T u = a[i];                                              \
            const T v = b[i];                                              \
            c[i] = (EXPR);                                                 \
        }                                                                  \
    }

#define DEFINE_LEVEL1_2(T)                                                   \
    DEFINE_AXPY_2(T)                                                         \
    DEFINE_SCAL_2(T)                                                         \
    DEFINE_COPY_2(T)                                                         \
    DEFINE_SWAP_2(T)

DEFINE_LEVEL1_2(float)
DEFINE_LEVEL1_2(int)
DEFINE_LEVEL1_2(uint)
DEFINE_LEVEL1_2(long)

DEFINE_MAP_2(float, add, u + v)
DEFINE_MAP_2(float, sub, u - v)
DEFINE_MAP_2(float, mul, u * v)
DEFINE_MAP_2(float, div, u / v)
DEFINE_MAP_2(float, min, fmin(u, v))
DEFINE_MAP_2(float, max, fmax(u, v))
DEFINE_MAP_2(float, hypot, sqrt(MADD_2(u, u, v * v)))
DEFINE_MAP_2(float, absdiff, fabs(u - v))
DEFINE_MAP_2(float, lerp_half, LERP_2(u, v, 0.5f))
DEFINE_MAP_2(int, add, u + v)
DEFINE_MAP_2(int, sub, u - v)
DEFINE_MAP_2(int, min, min(u, v))
DEFINE_MAP_2(int, max, max(u, v))
DEFINE_MAP_2(int, and, u & v)
DEFINE_MAP_2(int, xor, u ^ v)
DEFINE_MAP_2(uint, shl, u << (v & 31u))
DEFINE_MAP_2(uint, avg, (u >> 1) + (v >> 1) + (u & v & 1u))

// ---- level 1 reductions: one partial result per work-item ----

__kernel void sdot_partial_2(const index_t_2 n, __global const real_t_2 *x,
                           __global const real_t_2 *y, __global real_t_2 *partial)
{
    const index_t_2 chunk = (n + GSZ_2(0) - 1) / GSZ_2(0);
    const index_t_2 start = GID_2(0) * chunk;
    const index_t_2 len = CLAMP_2(n - start, 0, chunk);
    partial[GID_2(0)] = len > 0 ? dot_range_2(x + start, y + start, len) : 0.0f;
}

__kernel void sasum_partial_2(const index_t_2 n, __global const real_t_2 *x,
                            const index_t_2 incx, __global real_t_2 *partial)
{
    const index_t_2 chunk = (n + GSZ_2(0) - 1) / GSZ_2(0);
    const index_t_2 start = GID_2(0) * chunk;
    const index_t_2 len = CLAMP_2(n - start, 0, chunk);
    partial[GID_2(0)] = asum_range_2(x + start * incx, len, incx);
}

__kernel void snrm2_partial_2(const index_t_2 n, __global const real_t_2 *x,
                            __global real_t_2 *partial_scale,
                            __global real_t_2 *partial_ssq)
{
    real_t_2 scale = 0.0f;
    real_t_2 ssq = 1.0f;
    GRID_STRIDE_2(i, n)
    {
        const real_t_2 a = fabs(x[i]);
        if (a > 0.0f) {
            if (scale < a) {
                ssq = 1.0f + ssq * sq_2(scale / a);
                scale = a;
            } else {
                ssq += sq_2(a / scale);
            }
        }
    }
    partial_scale[GID_2(0)] = scale;
    partial_ssq[GID_2(0)] = ssq;
}

__kernel void isamax_partial_2(const index_t_2 n, __global const real_t_2 *x,
                             __global real_t_2 *best_value,
                             __global index_t_2 *best_index)
{
    real_t_2 best = -1.0f;
    index_t_2 at = -1;
    GRID_STRIDE_2(i, n)
    {
        const real_t_2 a = fabs(x[i]);
        if (a > best) {
            best = a;
            at = i;
        }
    }
    best_value[GID_2(0)] = best;
    best_index[GID_2(0)] = at;
}

__kernel void srot_2(const index_t_2 n, __global real_t_2 *x, __global real_t_2 *y,
                   const real_t_2 c, const real_t_2 s)
{
    GRID_STRIDE_2(i, n)
    {
        const real_t_2 xi = x[i];
        const real_t_2 yi = y[i];
        x[i] = MADD_2(c, xi, s * yi);
        y[i] = MADD_2(c, yi, -s * xi);
    }
}

__kernel void saxpy_vec4_2(const index_t_2 n4, const real_t_2 alpha,
                         __global const real_t_2 *x, __global real_t_2 *y)
{
    GRID_STRIDE_2(i, n4)
    {
        const real4_t_2 xv = load4_2(x, i * VEC_WIDTH_2);
        const real4_t_2 yv = load4_2(y, i * VEC_WIDTH_2);
        store4_2(y, i * VEC_WIDTH_2, MADD_2((real4_t_2)(alpha), xv, yv));
    }
}

__kernel void sgemv_n_2(const index_t_2 M, const index_t_2 N, const real_t_2 alpha,
                     __global const real_t_2 *A, const index_t_2 lda,
                     __global const real_t_2 *x, const real_t_2 beta,
                     __global real_t_2 *y)
{
    const index_t_2 row = GID_2(0);
    if (row >= M)
        return;
    real_t_2 acc = 0.0f;
    for (index_t_2 k = 0; k < N; k++)
        acc = MADD_2(A[IDX2_2(row, k, lda)], x[k], acc);
    y[row] = beta == 0.0f ? alpha * acc : MADD_2(alpha, acc, beta * y[row]);
}

__kernel void sgemv_n_unroll4_2(const index_t_2 M, const index_t_2 N, const real_t_2 alpha,
                     __global const real_t_2 *A, const index_t_2 lda,
                     __global const real_t_2 *x, const real_t_2 beta,
                     __global real_t_2 *y)
{
    const index_t_2 row = GID_2(0);
    if (row >= M)
        return;
    real_t_2 acc = 0.0f;
    index_t_2 k = 0;
    real4_t_2 acc4 = (real4_t_2)(0.0f);
    for (; k + UNROLL_2 <= N; k += UNROLL_2) {
        const real4_t_2 a = load4_2(A, IDX2_2(row, k, lda));
        const real4_t_2 b = load4_2(x, k);
        acc4 = MADD_2(a, b, acc4);
    }
    acc = SUM4_2(acc4);
    for (; k < N; k++)
        acc = MADD_2(A[IDX2_2(row, k, lda)], x[k], acc);
    y[row] = beta == 0.0f ? alpha * acc : MADD_2(alpha, acc, beta * y[row]);
}

__kernel void sgemv_t_2(const index_t_2 M, const index_t_2 N, const real_t_2 alpha,
                      __global const real_t_2 *A, const index_t_2 lda,
                      __global const real_t_2 *x, const real_t_2 beta,
                      __global real_t_2 *y)
{
    const index_t_2 col = GID_2(0);
    if (col >= N)
        return;
    real_t_2 acc = 0.0f;
    for (index_t_2 k = 0; k < M; k++)
        acc = MADD_2(A[IDX2_2(k, col, lda)], x[k], acc);
    y[col] = MADD_2(alpha, acc, beta * y[col]);
}

__kernel void sger_2(const index_t_2 M, const index_t_2 N, const real_t_2 alpha,
                   __global const real_t_2 *x, __global const real_t_2 *y,
                   __global real_t_2 *A, const index_t_2 lda)
{
    const index_t_2 col = GID_2(0);
    const index_t_2 row = GID_2(1);
    if (row < M && col < N)
        A[IDX2_2(row, col, lda)] = MADD_2(alpha * x[row], y[col], A[IDX2_2(row, col, lda)]);
}

__kernel void ssyr_upper_2(const index_t_2 N, const real_t_2 alpha,
                         __global const real_t_2 *x, __global real_t_2 *A,
                         const index_t_2 lda)
{
    const index_t_2 col = GID_2(0);
    const index_t_2 row = GID_2(1);
    if (row <= col && col < N)
        A[IDX2_2(row, col, lda)] += alpha * x[row] * x[col];
}

__kernel void strmv_lower_2(const index_t_2 N, __global const real_t_2 *A,
                          const index_t_2 lda, __global const real_t_2 *x,
                          __global real_t_2 *y, const int unit_diag)
{
    const index_t_2 row = GID_2(0);
    if (row >= N)
        return;
    real_t_2 acc = unit_diag ? x[row] : A[IDX2_2(row, row, lda)] * x[row];
    for (index_t_2 k = 0; k < row; k++)
        acc = MADD_2(A[IDX2_2(row, k, lda)], x[k], acc);
    y[row] = acc;
}

// ---- level 3 ----

#define GEMM_EPILOGUE_2(C, idx, acc, alpha, beta) \
    C[idx] = (beta) == 0.0f ? (alpha) * (acc) : MADD_2((alpha), (acc), (beta) * C[idx])

__kernel void sgemm_naive_2(const index_t_2 M, const index_t_2 N, const index_t_2 K,
                          const real_t_2 alpha, __global const real_t_2 *A,
                          __global const real_t_2 *B, const real_t_2 beta,
                          __global real_t_2 *C)
{
    const index_t_2 col = GID_2(0);
    const index_t_2 row = GID_2(1);
    if (row >= M || col >= N)
        return;
    real_t_2 acc = 0.0f;
    for (index_t_2 k = 0; k < K; k++)
        acc = MADD_2(A[IDX2_2(row, k, K)], B[IDX2_2(k, col, N)], acc);
    GEMM_EPILOGUE_2(C, IDX2_2(row, col, N), acc, alpha, beta);
}

#define GEMM_STEP4_2(acc, a, B, k, N, col)                        \
    do {                                                        \
        const real4_t_2 b4 = load4_2(B, IDX2_2((k), (col), (N)));     \
        acc = MADD_2((real4_t_2)(a), b4, acc);                      \
    } while (0)

// Each work-item computes a 1x4 block of C with float4 accumulators.
__kernel void sgemm_block1x4_2(const index_t_2 M, const index_t_2 N, const index_t_2 K,
                               const real_t_2 alpha, __global const real_t_2 *A,
                               __global const real_t_2 *B, const real_t_2 beta,
                               __global real_t_2 *C)
{
    const index_t_2 col = GID_2(0) * 4;
    const index_t_2 row = GID_2(1) * 1;
    if (row + 1 > M || col + 4 > N)
        return;
    real4_t_2 acc0 = (real4_t_2)(0.0f);
    for (index_t_2 k = 0; k < K; k++) {
        GEMM_STEP4_2(acc0, A[IDX2_2(row + 0, k, K)], B, k, N, col);
    }
    store4_2(C, IDX2_2(row + 0, col, N), MADD_2((real4_t_2)(alpha), acc0, (real4_t_2)(beta) * load4_2(C, IDX2_2(row + 0, col, N))));
}

// Each work-item computes a 2x4 block of C with float4 accumulators.
__kernel void sgemm_block2x4_2(const index_t_2 M, const index_t_2 N, const index_t_2 K,
                               const real_t_2 alpha, __global const real_t_2 *A,
                               __global const real_t_2 *B, const real_t_2 beta,
                               __global real_t_2 *C)
{
    const index_t_2 col = GID_2(0) * 4;
    const index_t_2 row = GID_2(1) * 2;
    if (row + 2 > M || col + 4 > N)
        return;
    real4_t_2 acc0 = (real4_t_2)(0.0f);
    real4_t_2 acc1 = (real4_t_2)(0.0f);
    for (index_t_2 k = 0; k < K; k++) {
        GEMM_STEP4_2(acc0, A[IDX2_2(row + 0, k, K)], B, k, N, col);
        GEMM_STEP4_2(acc1, A[IDX2_2(row + 1, k, K)], B, k, N, col);
    }
    store4_2(C, IDX2_2(row + 0, col, N), MADD_2((real4_t_2)(alpha), acc0, (real4_t_2)(beta) * load4_2(C, IDX2_2(row + 0, col, N))));
    store4_2(C, IDX2_2(row + 1, col, N), MADD_2((real4_t_2)(alpha), acc1, (real4_t_2)(beta) * load4_2(C, IDX2_2(row + 1, col, N))));
}

// Each work-item computes a 4x4 block of C with float4 accumulators.
__kernel void sgemm_block4x4_2(const index_t_2 M, const index_t_2 N, const index_t_2 K,
                               const real_t_2 alpha, __global const real_t_2 *A,
                               __global const real_t_2 *B, const real_t_2 beta,
                               __global real_t_2 *C)
{
    const index_t_2 col = GID_2(0) * 4;
    const index_t_2 row = GID_2(1) * 4;
    if (row + 4 > M || col + 4 > N)
        return;
    real4_t_2 acc0 = (real4_t_2)(0.0f);
    real4_t_2 acc1 = (real4_t_2)(0.0f);
    real4_t_2 acc2 = (real4_t_2)(0.0f);
    real4_t_2 acc3 = (real4_t_2)(0.0f);
    for (index_t_2 k = 0; k < K; k++) {
        GEMM_STEP4_2(acc0, A[IDX2_2(row + 0, k, K)], B, k, N, col);
        GEMM_STEP4_2(acc1, A[IDX2_2(row + 1, k, K)], B, k, N, col);
        GEMM_STEP4_2(acc2, A[IDX2_2(row + 2, k, K)], B, k, N, col);
        GEMM_STEP4_2(acc3, A[IDX2_2(row + 3, k, K)], B, k, N, col);
    }
    store4_2(C, IDX2_2(row + 0, col, N), MADD_2((real4_t_2)(alpha), acc0, (real4_t_2)(beta) * load4_2(C, IDX2_2(row + 0, col, N))));
    store4_2(C, IDX2_2(row + 1, col, N), MADD_2((real4_t_2)(alpha), acc1, (real4_t_2)(beta) * load4_2(C, IDX2_2(row + 1, col, N))));
    store4_2(C, IDX2_2(row + 2, col, N), MADD_2((real4_t_2)(alpha), acc2, (real4_t_2)(beta) * load4_2(C, IDX2_2(row + 2, col, N))));
    store4_2(C, IDX2_2(row + 3, col, N), MADD_2((real4_t_2)(alpha), acc3, (real4_t_2)(beta) * load4_2(C, IDX2_2(row + 3, col, N))));
}

__kernel void sgemm_batched_strided_2(const index_t_2 M, const index_t_2 N, const index_t_2 K,
                                    __global const real_t_2 *A, const index_t_2 stride_a,
                                    __global const real_t_2 *B, const index_t_2 stride_b,
                                    __global real_t_2 *C, const index_t_2 stride_c)
{
    const index_t_2 col = GID_2(0);
    const index_t_2 row = GID_2(1);
    const index_t_2 batch = GID_2(2);
    if (row >= M || col >= N)
        return;
    __global const real_t_2 *a = A + batch * stride_a;
    __global const real_t_2 *b = B + batch * stride_b;
    real_t_2 acc = 0.0f;
    index_t_2 k = 0;
    for (; k + 4 <= K; k += 4) {
        acc = MADD_2(a[IDX2_2(row, k, K)], b[IDX2_2(k, col, N)], acc);
        acc = MADD_2(a[IDX2_2(row, k + 1, K)], b[IDX2_2(k + 1, col, N)], acc);
        acc = MADD_2(a[IDX2_2(row, k + 2, K)], b[IDX2_2(k + 2, col, N)], acc);
        acc = MADD_2(a[IDX2_2(row, k + 3, K)], b[IDX2_2(k + 3, col, N)], acc);
    }
    for (; k < K; k++)
        acc = MADD_2(a[IDX2_2(row, k, K)], b[IDX2_2(k, col, N)], acc);
    C[batch * stride_c + IDX2_2(row, col, N)] = acc;
}

__kernel void transpose_2(const index_t_2 rows, const index_t_2 cols,
                        __global const real_t_2 *in, __global real_t_2 *out)
{
    const index_t_2 c = GID_2(0);
    const index_t_2 r = GID_2(1);
    if (r < rows && c < cols)
        out[IDX2_2(c, r, rows)] = in[IDX2_2(r, c, cols)];
}

// ---- stencils ----

#define AT_2(p, x, y, w) (p)[IDX2_2((y), (x), (w))]
#define CLAMPED_2(p, x, y, w, h) AT_2(p, CLAMP_2((x), 0, (w) - 1), CLAMP_2((y), 0, (h) - 1), w)

__kernel void jacobi2d_2(__global const real_t_2 *in, __global real_t_2 *out,
                     const index_t_2 w, const index_t_2 h)
{
    const index_t_2 x = GID_2(0);
    const index_t_2 y = GID_2(1);
    if (x >= w || y >= h)
        return;
    AT_2(out, x, y, w) = 0.25f * (CLAMPED_2(in, x - 1, y, w, h) + CLAMPED_2(in, x + 1, y, w, h) +
                          CLAMPED_2(in, x, y - 1, w, h) + CLAMPED_2(in, x, y + 1, w, h));
}

__kernel void laplace5_2(__global const real_t_2 *in, __global real_t_2 *out,
                     const index_t_2 w, const index_t_2 h)
{
    const index_t_2 x = GID_2(0);
    const index_t_2 y = GID_2(1);
    if (x >= w || y >= h)
        return;
    AT_2(out, x, y, w) = CLAMPED_2(in, x - 1, y, w, h) + CLAMPED_2(in, x + 1, y, w, h) +
                          CLAMPED_2(in, x, y - 1, w, h) + CLAMPED_2(in, x, y + 1, w, h) - 4.0f * AT_2(in, x, y, w);
}

__kernel void blur3x3_2(__global const real_t_2 *in, __global real_t_2 *out,
                     const index_t_2 w, const index_t_2 h)
{
    const index_t_2 x = GID_2(0);
    const index_t_2 y = GID_2(1);
    if (x >= w || y >= h)
        return;
    AT_2(out, x, y, w) = (CLAMPED_2(in, x - 1, y - 1, w, h) + 2.0f * CLAMPED_2(in, x, y - 1, w, h) + CLAMPED_2(in, x + 1, y - 1, w, h) +
                          2.0f * CLAMPED_2(in, x - 1, y, w, h) + 4.0f * AT_2(in, x, y, w) + 2.0f * CLAMPED_2(in, x + 1, y, w, h) +
                          CLAMPED_2(in, x - 1, y + 1, w, h) + 2.0f * CLAMPED_2(in, x, y + 1, w, h) + CLAMPED_2(in, x + 1, y + 1, w, h)) / 16.0f;
}

__kernel void sobel_x_2(__global const real_t_2 *in, __global real_t_2 *out,
                     const index_t_2 w, const index_t_2 h)
{
    const index_t_2 x = GID_2(0);
    const index_t_2 y = GID_2(1);
    if (x >= w || y >= h)
        return;
    AT_2(out, x, y, w) = (CLAMPED_2(in, x + 1, y - 1, w, h) + 2.0f * CLAMPED_2(in, x + 1, y, w, h) + CLAMPED_2(in, x + 1, y + 1, w, h)) -
                          (CLAMPED_2(in, x - 1, y - 1, w, h) + 2.0f * CLAMPED_2(in, x - 1, y, w, h) + CLAMPED_2(in, x - 1, y + 1, w, h));
}

__kernel void sobel_y_2(__global const real_t_2 *in, __global real_t_2 *out,
                     const index_t_2 w, const index_t_2 h)
{
    const index_t_2 x = GID_2(0);
    const index_t_2 y = GID_2(1);
    if (x >= w || y >= h)
        return;
    AT_2(out, x, y, w) = (CLAMPED_2(in, x - 1, y + 1, w, h) + 2.0f * CLAMPED_2(in, x, y + 1, w, h) + CLAMPED_2(in, x + 1, y + 1, w, h)) -
                          (CLAMPED_2(in, x - 1, y - 1, w, h) + 2.0f * CLAMPED_2(in, x, y - 1, w, h) + CLAMPED_2(in, x + 1, y - 1, w, h));
}

__kernel void heat3d_2(__global const real_t_2 *in, __global real_t_2 *out,
                     const index_t_2 nx, const index_t_2 ny, const index_t_2 nz,
                     const real_t_2 alpha)
{
    const index_t_2 x = GID_2(0);
    const index_t_2 y = GID_2(1);
    const index_t_2 z = GID_2(2);
    if (x < HALO_2 || y < HALO_2 || z < HALO_2 || x >= nx - HALO_2 || y >= ny - HALO_2 || z >= nz - HALO_2)
        return;
    const real_t_2 c = in[IDX3_2(x, y, z, nx, ny)];
    real_t_2 sum = in[IDX3_2(x - 1, y, z, nx, ny)] + in[IDX3_2(x + 1, y, z, nx, ny)];
    sum += in[IDX3_2(x, y - 1, z, nx, ny)] + in[IDX3_2(x, y + 1, z, nx, ny)];
    sum += in[IDX3_2(x, y, z - 1, nx, ny)] + in[IDX3_2(x, y, z + 1, nx, ny)];
    out[IDX3_2(x, y, z, nx, ny)] = MADD_2(alpha, sum - 6.0f * c, c);
}

__kernel void game_of_life_2(__global const int *in, __global int *out,
                           const index_t_2 w, const index_t_2 h)
{
    const index_t_2 x = GID_2(0);
    const index_t_2 y = GID_2(1);
    if (x >= w || y >= h)
        return;
    int alive = 0;
    for (index_t_2 dy = -1; dy <= 1; dy++) {
        for (index_t_2 dx = -1; dx <= 1; dx++) {
            if (dx == 0 && dy == 0)
                continue;
            alive += in[IDX2_2(wrap_2(y + dy, h), wrap_2(x + dx, w), w)];
        }
    }
    const int self = in[IDX2_2(y, x, w)];
    out[IDX2_2(y, x, w)] = (alive == 3 || (self && alive == 2)) ? 1 : 0;
}

// ---- pixels: RGBA as four consecutive floats ----

real4_t_2 pixel_2(__global const real_t_2 *img, index_t_2 x, index_t_2 y, index_t_2 w)
{
    return load4_2(img, IDX2_2(y, x, w) * 4);
}

real_t_2 luminance_2(real4_t_2 c)
{
    const real4_t_2 weights = (real4_t_2)(0.2126f, 0.7152f, 0.0722f, 0.0f);
    return DOT4_2(c, weights);
}

__kernel void rgba_to_gray_2(__global const real_t_2 *src, __global real_t_2 *dst,
                     const index_t_2 w, const index_t_2 h, const real_t_2 param)
{
    const index_t_2 x = GID_2(0);
    const index_t_2 y = GID_2(1);
    if (x >= w || y >= h)
        return;
    real4_t_2 c = pixel_2(src, x, y, w);
    const real_t_2 g = luminance_2(c);
    c = (real4_t_2)(g, g, g, c.w);
    store4_2(dst, IDX2_2(y, x, w) * 4, c);
}

__kernel void rgba_brightness_2(__global const real_t_2 *src, __global real_t_2 *dst,
                     const index_t_2 w, const index_t_2 h, const real_t_2 param)
{
    const index_t_2 x = GID_2(0);
    const index_t_2 y = GID_2(1);
    if (x >= w || y >= h)
        return;
    real4_t_2 c = pixel_2(src, x, y, w);
    c.xyz = c.xyz * param;
    c = (real4_t_2)(clampf_2(c.x, 0.0f, 1.0f), clampf_2(c.y, 0.0f, 1.0f), clampf_2(c.z, 0.0f, 1.0f), c.w);
    store4_2(dst, IDX2_2(y, x, w) * 4, c);
}

__kernel void rgba_invert_2(__global const real_t_2 *src, __global real_t_2 *dst,
                     const index_t_2 w, const index_t_2 h, const real_t_2 param)
{
    const index_t_2 x = GID_2(0);
    const index_t_2 y = GID_2(1);
    if (x >= w || y >= h)
        return;
    real4_t_2 c = pixel_2(src, x, y, w);
    c = (real4_t_2)(1.0f - c.x, 1.0f - c.y, 1.0f - c.z, c.w);
    store4_2(dst, IDX2_2(y, x, w) * 4, c);
}

__kernel void rgba_swap_rb_2(__global const real_t_2 *src, __global real_t_2 *dst,
                     const index_t_2 w, const index_t_2 h, const real_t_2 param)
{
    const index_t_2 x = GID_2(0);
    const index_t_2 y = GID_2(1);
    if (x >= w || y >= h)
        return;
    real4_t_2 c = pixel_2(src, x, y, w);
    c = c.zyxw;
    store4_2(dst, IDX2_2(y, x, w) * 4, c);
}

__kernel void rgba_threshold_2(__global const real_t_2 *src, __global real_t_2 *dst,
                     const index_t_2 w, const index_t_2 h, const real_t_2 param)
{
    const index_t_2 x = GID_2(0);
    const index_t_2 y = GID_2(1);
    if (x >= w || y >= h)
        return;
    real4_t_2 c = pixel_2(src, x, y, w);
    const real_t_2 g = luminance_2(c) > param ? 1.0f : 0.0f;
    c = (real4_t_2)(g, g, g, 1.0f);
    store4_2(dst, IDX2_2(y, x, w) * 4, c);
}

__kernel void rgba_contrast_2(__global const real_t_2 *src, __global real_t_2 *dst,
                     const index_t_2 w, const index_t_2 h, const real_t_2 param)
{
    const index_t_2 x = GID_2(0);
    const index_t_2 y = GID_2(1);
    if (x >= w || y >= h)
        return;
    real4_t_2 c = pixel_2(src, x, y, w);
    const real4_t_2 mid = (real4_t_2)(0.5f, 0.5f, 0.5f, 0.0f);
    c = MADD_2(c - mid, (real4_t_2)(param, param, param, 1.0f), mid);
    store4_2(dst, IDX2_2(y, x, w) * 4, c);
}

__kernel void rgba_premultiply_2(__global const real_t_2 *src, __global real_t_2 *dst,
                     const index_t_2 w, const index_t_2 h, const real_t_2 param)
{
    const index_t_2 x = GID_2(0);
    const index_t_2 y = GID_2(1);
    if (x >= w || y >= h)
        return;
    real4_t_2 c = pixel_2(src, x, y, w);
    c.xyz = c.xyz * c.w;
    store4_2(dst, IDX2_2(y, x, w) * 4, c);
}

__kernel void rgba_vignette_2(__global const real_t_2 *src, __global real_t_2 *dst,
                     const index_t_2 w, const index_t_2 h, const real_t_2 param)
{
    const index_t_2 x = GID_2(0);
    const index_t_2 y = GID_2(1);
    if (x >= w || y >= h)
        return;
    real4_t_2 c = pixel_2(src, x, y, w);
    const real_t_2 dx = (real_t_2)x / (real_t_2)w - 0.5f;
    const real_t_2 dy = (real_t_2)y / (real_t_2)h - 0.5f;
    const real_t_2 v = 1.0f - smooth_2(0.3f, 0.75f, sqrt(dx * dx + dy * dy) * param);
    c.xyz = c.xyz * v;
    store4_2(dst, IDX2_2(y, x, w) * 4, c);
}

__kernel void box_blur_rgba_2(__global const real_t_2 *src, __global real_t_2 *dst,
                            const index_t_2 w, const index_t_2 h, const index_t_2 radius)
{
    const index_t_2 x = GID_2(0);
    const index_t_2 y = GID_2(1);
    if (x >= w || y >= h)
        return;
    real4_t_2 sum = (real4_t_2)(0.0f);
    real_t_2 count = 0.0f;
    for (index_t_2 dy = -radius; dy <= radius; dy++) {
        const index_t_2 yy = CLAMP_2(y + dy, 0, h - 1);
        for (index_t_2 dx = -radius; dx <= radius; dx++) {
            const index_t_2 xx = CLAMP_2(x + dx, 0, w - 1);
            sum += pixel_2(src, xx, yy, w);
            count += 1.0f;
        }
    }
    store4_2(dst, IDX2_2(y, x, w) * 4, sum / count);
}

__kernel void bilateral_gray_2(__global const real_t_2 *src, __global real_t_2 *dst,
                             const index_t_2 w, const index_t_2 h,
                             const real_t_2 sigma_s, const real_t_2 sigma_r)
{
    const index_t_2 x = GID_2(0);
    const index_t_2 y = GID_2(1);
    if (x >= w || y >= h)
        return;
    const real_t_2 center = src[IDX2_2(y, x, w)];
    real_t_2 sum = 0.0f;
    real_t_2 norm = 0.0f;
    for (index_t_2 dy = -2; dy <= 2; dy++) {
        for (index_t_2 dx = -2; dx <= 2; dx++) {
            const real_t_2 v = CLAMPED_2(src, x + dx, y + dy, w, h);
            const real_t_2 ds = (real_t_2)(dx * dx + dy * dy) / (2.0f * sigma_s * sigma_s);
            const real_t_2 dr = sq_2(v - center) / (2.0f * sigma_r * sigma_r);
            const real_t_2 weight = 1.0f / (1.0f + ds + dr);
            sum = MADD_2(weight, v, sum);
            norm += weight;
        }
    }
    dst[IDX2_2(y, x, w)] = sum / norm;
}

// ---- particles: positions and velocities as float4 (w = mass) ----

#define SOFTENING_2 1e-3f

real3_t_2 pair_accel_2(real4_t_2 pi, real4_t_2 pj)
{
    const real3_t_2 d = pj.xyz - pi.xyz;
    const real_t_2 r2 = DOT3_2(d, d) + SOFTENING_2;
    const real_t_2 inv = 1.0f / sqrt(r2);
    return d * (pj.w * inv * inv * inv);
}

__kernel void nbody_step_2(const index_t_2 n, const real_t_2 dt,
                         __global const real_t_2 *pos_in, __global real_t_2 *pos_out,
                         __global real_t_2 *vel)
{
    const index_t_2 i = GID_2(0);
    if (i >= n)
        return;
    const real4_t_2 p = load4_2(pos_in, i * 4);
    real3_t_2 acc = (real3_t_2)(0.0f);
    for (index_t_2 j = 0; j < n; j++)
        acc += pair_accel_2(p, load4_2(pos_in, j * 4));
    real4_t_2 v = load4_2(vel, i * 4);
    v.xyz = MADD_2(acc, (real3_t_2)(dt), v.xyz);
    real4_t_2 q = p;
    q.xyz = MADD_2(v.xyz, (real3_t_2)(dt), p.xyz);
    store4_2(vel, i * 4, v);
    store4_2(pos_out, i * 4, q);
}

__kernel void verlet_integrate_2(const index_t_2 n, const real_t_2 dt, const real_t_2 damping,
                               __global real_t_2 *pos, __global real_t_2 *prev,
                               __global const real_t_2 *force)
{
    GRID_STRIDE_2(i, n)
    {
        const real4_t_2 p = load4_2(pos, i * 4);
        const real4_t_2 q = load4_2(prev, i * 4);
        const real4_t_2 f = load4_2(force, i * 4);
        real4_t_2 next = p + (p - q) * damping + f * (dt * dt);
        next.w = p.w;
        store4_2(prev, i * 4, p);
        store4_2(pos, i * 4, next);
    }
}

__kernel void bounce_walls_2(const index_t_2 n, __global real_t_2 *pos, __global real_t_2 *vel,
                           const real_t_2 lo, const real_t_2 hi)
{
    GRID_STRIDE_2(i, n)
    {
        real4_t_2 p = load4_2(pos, i * 4);
        real4_t_2 v = load4_2(vel, i * 4);
        if (p.x < lo || p.x > hi) v.x = -v.x;
        if (p.y < lo || p.y > hi) v.y = -v.y;
        if (p.z < lo || p.z > hi) v.z = -v.z;
        p.x = clampf_2(p.x, lo, hi);
        p.y = clampf_2(p.y, lo, hi);
        p.z = clampf_2(p.z, lo, hi);
        store4_2(pos, i * 4, p);
        store4_2(vel, i * 4, v);
    }
}

__kernel void kinetic_energy_2(const index_t_2 n, __global const real_t_2 *vel,
                             __global real_t_2 *energy)
{
    GRID_STRIDE_2(i, n)
    {
        const real4_t_2 v = load4_2(vel, i * 4);
        energy[i] = 0.5f * v.w * DOT3_2(v, v);
    }
}

// ---- integers ----

int abs_int_2(int v) { return v < 0 ? -v : v; }

__kernel void collatz_2(const index_t_2 n, __global const uint *start, __global uint *steps)
{
    GRID_STRIDE_2(i, n) steps[i] = collatz_steps_2(max(start[i], 1u));
}

__kernel void histogram_private_2(const index_t_2 n, __global const uint *keys,
                                const uint bins, __global uint *counts)
{
    const uint bin = (uint)GID_2(0);
    if (bin >= bins)
        return;
    uint c = 0;
    for (index_t_2 i = 0; i < n; i++)
        c += keys[i] % bins == bin ? 1u : 0u;
    counts[bin] = c;
}

__kernel void popcount_naive_2(const index_t_2 n, __global const uint *in, __global uint *out)
{
    GRID_STRIDE_2(i, n)
    {
        uint v = in[i];
        uint c = 0;
        while (v) {
            v &= v - 1u;
            c++;
        }
        out[i] = c;
    }
}

__kernel void gcd_pairs_2(const index_t_2 n, __global const int *a, __global const int *b,
                        __global int *g)
{
    GRID_STRIDE_2(i, n)
    {
        int x = abs_int_2(a[i]);
        int y = abs_int_2(b[i]);
        do {
            const int t = y == 0 ? 0 : x % y;
            x = y == 0 ? x : y;
            y = t;
        } while (y != 0);
        g[i] = x;
    }
}

__kernel void prefix_sum_serial_2(const index_t_2 n, __global const int *in, __global int *out)
{
    if (GID_2(0) != 0)
        return;
    int running = 0;
    for (index_t_2 i = 0; i < n; i++) {
        running += in[i];
        out[i] = running;
    }
}

__kernel void compact_flags_2(const index_t_2 n, __global const real_t_2 *values,
                            const real_t_2 threshold, __global int *flags)
{
    GRID_STRIDE_2(i, n) flags[i] = values[i] > threshold ? 1 : 0;
}

__kernel void reduce_minmax_2(const index_t_2 n, __global const real_t_2 *x,
                            __global real_t_2 *partial)
{
    real2_t_2 acc = (real2_t_2)(1e30f, -1e30f);
    GRID_STRIDE_2(i, n)
    {
        const real_t_2 v = x[i];
        acc = (real2_t_2)(fmin(acc.x, v), fmax(acc.y, v));
    }
    partial[2 * GID_2(0)] = acc.x;
    partial[2 * GID_2(0) + 1] = acc.y;
}

__kernel void reduce_sum_sumsq_2(const index_t_2 n, __global const real_t_2 *x,
                            __global real_t_2 *partial)
{
    real2_t_2 acc = (real2_t_2)(0.0f);
    GRID_STRIDE_2(i, n)
    {
        const real_t_2 v = x[i];
        acc += (real2_t_2)(v, v * v);
    }
    partial[2 * GID_2(0)] = acc.x;
    partial[2 * GID_2(0) + 1] = acc.y;
}

__kernel void reduce_mean_abs_max_2(const index_t_2 n, __global const real_t_2 *x,
                            __global real_t_2 *partial)
{
    real2_t_2 acc = (real2_t_2)(0.0f);
    GRID_STRIDE_2(i, n)
    {
        const real_t_2 v = x[i];
        acc = (real2_t_2)(acc.x + fabs(v), fmax(acc.y, fabs(v)));
    }
    partial[2 * GID_2(0)] = acc.x;
    partial[2 * GID_2(0) + 1] = acc.y;
}

// ---- sparse and sorting ----

__kernel void csr_spmv_2(const index_t_2 rows, __global const index_t_2 *row_ptr,
                       __global const index_t_2 *col_idx, __global const real_t_2 *vals,
                       __global const real_t_2 *x, __global real_t_2 *y)
{
    const index_t_2 row = GID_2(0);
    if (row >= rows)
        return;
    real_t_2 acc = 0.0f;
    const index_t_2 end = row_ptr[row + 1];
    for (index_t_2 k = row_ptr[row]; k < end; k++)
        acc = MADD_2(vals[k], x[col_idx[k]], acc);
    y[row] = acc;
}

__kernel void bitonic_step_2(__global real_t_2 *keys, const uint stage, const uint pass)
{
    const uint i = (uint)GID_2(0);
    const uint distance = 1u << (stage - pass);
    const uint left = ((i >> (stage - pass)) << (stage - pass + 1u)) + (i & (distance - 1u));
    const uint right = left + distance;
    const int ascending = ((i >> stage) & 1u) == 0u;
    const real_t_2 a = keys[left];
    const real_t_2 b = keys[right];
    keys[left] = ascending ? fmin(a, b) : fmax(a, b);
    keys[right] = ascending ? fmax(a, b) : fmin(a, b);
}

__kernel void normalize_rows_2(const index_t_2 rows, const index_t_2 cols,
                             __global real_t_2 *m, const real_t_2 eps)
{
    const index_t_2 r = GID_2(0);
    if (r >= rows)
        return;
    real_t_2 ss = 0.0f;
    for (index_t_2 c = 0; c < cols; c++)
        ss = MADD_2(m[IDX2_2(r, c, cols)], m[IDX2_2(r, c, cols)], ss);
    const real_t_2 inv = 1.0f / sqrt(ss + eps);
    for (index_t_2 c = 0; c < cols; c++)
        m[IDX2_2(r, c, cols)] *= inv;
}

__kernel void bin_values_2(const index_t_2 n, __global const real_t_2 *values,
                         const real_t_2 lo, const real_t_2 hi, const index_t_2 bins,
                         __global index_t_2 *bin_of)
{
    const real_t_2 scale = (real_t_2)bins / (hi - lo);
    GRID_STRIDE_2(i, n)
    {
        const real_t_2 v = clampf_2(values[i], lo, hi);
        bin_of[i] = CLAMP_2((index_t_2)floor((v - lo) * scale), 0, bins - 1);
    }
}

__kernel void fract_floor_ceil_2(const index_t_2 n, __global const real_t_2 *x,
                               __global real_t_2 *lo, __global real_t_2 *hi,
                               __global real_t_2 *frac)
{
    GRID_STRIDE_2(i, n)
    {
        const real_t_2 v = x[i];
        const real_t_2 f = floor(v);
        lo[i] = f;
        hi[i] = ceil(v);
        frac[i] = v - f;
    }
}
