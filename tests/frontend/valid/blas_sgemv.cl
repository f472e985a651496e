// BLAS level 2: y = alpha * A * x + beta * y, one work-group per row with a
// __local partial-sum buffer passed as a kernel argument.
__kernel void sgemv_rows(const int m, const int n,
                         const float alpha, const float beta,
                         __global const float *a, const int lda,
                         __global const float *x,
                         __global float *y,
                         __local float *partial)
{
    const int row = get_group_id(0);
    const int lid = get_local_id(0);
    const int lsz = get_local_size(0);
    float sum = 0.0f;
    if (row < m) {
        for (int col = lid; col < n; col += lsz)
            sum += a[row * lda + col] * x[col];
    }
    partial[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int offset = lsz / 2; offset > 0; offset >>= 1) {
        if (lid < offset)
            partial[lid] += partial[lid + offset];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0 && row < m)
        y[row] = alpha * partial[0] + beta * y[row];
}
