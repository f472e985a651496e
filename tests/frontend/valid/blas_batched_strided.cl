// Batched strided GEMV: the batch index is the third NDRange dimension and
// strides are 64-bit (ulong), as in batched BLAS APIs.
__kernel void sgemv_batched(const int m, const int n,
                            __global const float *a, const ulong stride_a,
                            __global const float *x, const ulong stride_x,
                            __global float *y, const ulong stride_y)
{
    const int row = get_global_id(0);
    const size_t batch = get_global_id(2);
    if (row >= m)
        return;
    __global const float *ab = a + batch * stride_a;
    __global const float *xb = x + batch * stride_x;
    float sum = 0.0f;
    for (int j = 0; j < n; ++j)
        sum += ab[j * m + row] * xb[j];
    y[batch * stride_y + row] = sum;
}
