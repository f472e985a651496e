// Tiled SGEMM, C = A * B, row-major n x n matrices, n a multiple of 64.
// Each work-group computes a 64 x 64 tile of C with 64 x 4 work-items; each
// work-item owns one column of the tile and 16 of its rows (every 4th), so
// it reuses one B value from local memory for 16 multiply-adds. A and B are
// staged through __local tiles 16 deep in k. 256 work-items per group:
// NVIDIA's OpenCL allows no more for this kernel (512, with 8 rows per
// work-item, was refused).
#define TS 64
#define TK 16
#define WPT 16
#define RTS (TS / WPT)
#define THREADS (TS * RTS)

__kernel void sgemm(const int n, __global const float *a, __global const float *b,
                    __global float *c)
{
    __local float as[TS * TK];
    __local float bs[TK * TS];
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int tile_row = get_group_id(1) * TS;
    const int tile_col = get_group_id(0) * TS;
    const int lin = ty * TS + tx;
    float acc0 = 0.0f;
    float acc1 = 0.0f;
    float acc2 = 0.0f;
    float acc3 = 0.0f;
    float acc4 = 0.0f;
    float acc5 = 0.0f;
    float acc6 = 0.0f;
    float acc7 = 0.0f;
    float acc8 = 0.0f;
    float acc9 = 0.0f;
    float acc10 = 0.0f;
    float acc11 = 0.0f;
    float acc12 = 0.0f;
    float acc13 = 0.0f;
    float acc14 = 0.0f;
    float acc15 = 0.0f;
    for (int k0 = 0; k0 < n; k0 += TK) {
        // 256 work-items stage 1024 elements of each tile, four apiece.
        for (int l = 0; l < TS * TK / THREADS; l++) {
            const int idx = lin + l * THREADS;
            const int ar = idx / TK;
            const int ak = idx % TK;
            as[idx] = a[(tile_row + ar) * n + k0 + ak];
            const int bk = idx / TS;
            const int bc = idx % TS;
            bs[idx] = b[(k0 + bk) * n + tile_col + bc];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TK; k++) {
            const float bv = bs[k * TS + tx];
            acc0 = mad(as[(ty + 0 * RTS) * TK + k], bv, acc0);
            acc1 = mad(as[(ty + 1 * RTS) * TK + k], bv, acc1);
            acc2 = mad(as[(ty + 2 * RTS) * TK + k], bv, acc2);
            acc3 = mad(as[(ty + 3 * RTS) * TK + k], bv, acc3);
            acc4 = mad(as[(ty + 4 * RTS) * TK + k], bv, acc4);
            acc5 = mad(as[(ty + 5 * RTS) * TK + k], bv, acc5);
            acc6 = mad(as[(ty + 6 * RTS) * TK + k], bv, acc6);
            acc7 = mad(as[(ty + 7 * RTS) * TK + k], bv, acc7);
            acc8 = mad(as[(ty + 8 * RTS) * TK + k], bv, acc8);
            acc9 = mad(as[(ty + 9 * RTS) * TK + k], bv, acc9);
            acc10 = mad(as[(ty + 10 * RTS) * TK + k], bv, acc10);
            acc11 = mad(as[(ty + 11 * RTS) * TK + k], bv, acc11);
            acc12 = mad(as[(ty + 12 * RTS) * TK + k], bv, acc12);
            acc13 = mad(as[(ty + 13 * RTS) * TK + k], bv, acc13);
            acc14 = mad(as[(ty + 14 * RTS) * TK + k], bv, acc14);
            acc15 = mad(as[(ty + 15 * RTS) * TK + k], bv, acc15);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const int col = tile_col + tx;
    const int row = tile_row + ty;
    c[(row + 0 * RTS) * n + col] = acc0;
    c[(row + 1 * RTS) * n + col] = acc1;
    c[(row + 2 * RTS) * n + col] = acc2;
    c[(row + 3 * RTS) * n + col] = acc3;
    c[(row + 4 * RTS) * n + col] = acc4;
    c[(row + 5 * RTS) * n + col] = acc5;
    c[(row + 6 * RTS) * n + col] = acc6;
    c[(row + 7 * RTS) * n + col] = acc7;
    c[(row + 8 * RTS) * n + col] = acc8;
    c[(row + 9 * RTS) * n + col] = acc9;
    c[(row + 10 * RTS) * n + col] = acc10;
    c[(row + 11 * RTS) * n + col] = acc11;
    c[(row + 12 * RTS) * n + col] = acc12;
    c[(row + 13 * RTS) * n + col] = acc13;
    c[(row + 14 * RTS) * n + col] = acc14;
    c[(row + 15 * RTS) * n + col] = acc15;
}
