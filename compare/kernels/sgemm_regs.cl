// Register-blocked SGEMM in the style of Cedric Nugteren's myGEMM kernels
// 6 and 7: C = A * B, row-major n x n matrices, n a multiple of 128.
// Each work-group of 16 x 16 work-items computes a 128 x 128 tile of C;
// each work-item keeps an 8 x 8 block of it in the private array `acc`
// (rows tidm + wm * 16, columns tidn + wn * 16, so the stores coalesce).
// A and B are staged through __local tiles 16 deep in k. Every loop over
// the private arrays has a constant trip count and asks to be unrolled,
// which is what lets a compiler keep `acc` and `Breg` in registers.
#define TSM 128                          // rows of C per work-group
#define TSN 128                          // columns of C per work-group
#define TSK 16                           // depth of the __local tiles
#define WPTM 8                           // rows of C per work-item
#define WPTN 8                           // columns of C per work-item
#define RTSM (TSM / WPTM)                // work-items per group along rows
#define RTSN (TSN / WPTN)                // work-items per group along columns
#define THREADS (RTSM * RTSN)
#define LPTA (TSK * TSM / THREADS)       // A elements each work-item stages
#define LPTB (TSK * TSN / THREADS)       // B elements each work-item stages
// Two floats of padding per row of the A tile: its stores are transposed
// (16 work-items write one column), which without it hit one bank.
#define APAD 2

__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void sgemm_regs(const int n, __global const float *A, __global const float *B,
                __global float *C)
{
    const int tidn = get_local_id(0);
    const int tidm = get_local_id(1);
    const int offset_n = TSN * get_group_id(0);
    const int offset_m = TSM * get_group_id(1);
    const int tid = tidm * RTSN + tidn;

    __local float Asub[TSK][TSM + APAD];
    __local float Bsub[TSK][TSN];

    float Areg;
    float Breg[WPTN];
    float acc[WPTM][WPTN];

#pragma unroll
    for (int wm = 0; wm < WPTM; wm++) {
#pragma unroll
        for (int wn = 0; wn < WPTN; wn++) {
            acc[wm][wn] = 0.0f;
        }
    }

    for (int t = 0; t < n; t += TSK) {
        // Consecutive work-items read consecutive k of a row of A, and
        // consecutive columns of a row of B.
#pragma unroll
        for (int la = 0; la < LPTA; la++) {
            const int id = la * THREADS + tid;
            const int row = id / TSK;
            const int k = id % TSK;
            Asub[k][row] = A[(offset_m + row) * n + t + k];
        }
#pragma unroll
        for (int lb = 0; lb < LPTB; lb++) {
            const int id = lb * THREADS + tid;
            const int k = id / TSN;
            const int col = id % TSN;
            Bsub[k][col] = B[(t + k) * n + offset_n + col];
        }
        barrier(CLK_LOCAL_MEM_FENCE);

#pragma unroll
        for (int k = 0; k < TSK; k++) {
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++) {
                Breg[wn] = Bsub[k][tidn + wn * RTSN];
            }
#pragma unroll
            for (int wm = 0; wm < WPTM; wm++) {
                Areg = Asub[k][tidm + wm * RTSM];
#pragma unroll
                for (int wn = 0; wn < WPTN; wn++) {
                    acc[wm][wn] += Areg * Breg[wn];
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

#pragma unroll
    for (int wm = 0; wm < WPTM; wm++) {
        const int row = offset_m + tidm + wm * RTSM;
#pragma unroll
        for (int wn = 0; wn < WPTN; wn++) {
            C[row * n + offset_n + tidn + wn * RTSN] = acc[wm][wn];
        }
    }
}
