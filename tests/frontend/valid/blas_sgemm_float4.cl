// Vectorised SGEMM: each work-item computes four consecutive columns of C
// with float4 loads (row-major A, B and C, N a multiple of 4).
__kernel void sgemm_float4(const int M, const int N, const int K,
                           __global const float *A,
                           __global const float *B,
                           __global float *C)
{
    const int row = get_global_id(1);
    const int col4 = get_global_id(0);
    if (row >= M || col4 * 4 >= N)
        return;
    float4 acc = (float4)(0.0f);
    for (int k = 0; k < K; k++) {
        const float a = A[row * K + k];
        const float4 b = vload4(col4, B + k * N);
        acc = mad((float4)(a), b, acc);
    }
    vstore4(acc, col4, C + row * N);
}
