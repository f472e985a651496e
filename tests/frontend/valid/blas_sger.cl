// BLAS level 2 rank-1 update A += alpha * x * y^T over a 2-D NDRange, with
// explicit size_t index arithmetic for large matrices.
__kernel void sger(const uint m, const uint n, const float alpha,
                   __global const float *x, __global const float *y,
                   __global float *a, const uint lda)
{
    const size_t i = get_global_id(0);
    const size_t j = get_global_id(1);
    if (i < m && j < n) {
        const size_t idx = j * (size_t)lda + i;
        a[idx] += alpha * x[i] * y[j];
    }
}
