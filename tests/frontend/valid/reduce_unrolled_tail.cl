// Reduction with the last steps unrolled on a volatile __local pointer (the
// well-known vendor sample style), templated on the block size by macro.
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

void tail_reduce(volatile __local int *s, const uint tid)
{
    if (BLOCK_SIZE >= 64) s[tid] += s[tid + 32];
    if (BLOCK_SIZE >= 32) s[tid] += s[tid + 16];
    if (BLOCK_SIZE >= 16) s[tid] += s[tid + 8];
    if (BLOCK_SIZE >= 8) s[tid] += s[tid + 4];
    if (BLOCK_SIZE >= 4) s[tid] += s[tid + 2];
    if (BLOCK_SIZE >= 2) s[tid] += s[tid + 1];
}

__kernel void reduce_int(__global const int *g_idata, __global int *g_odata,
                         const uint n)
{
    __local int sdata[BLOCK_SIZE];
    const uint tid = get_local_id(0);
    uint i = get_group_id(0) * (BLOCK_SIZE * 2) + tid;
    const uint grid = BLOCK_SIZE * 2 * get_num_groups(0);
    int sum = 0;
    while (i < n) {
        sum += g_idata[i];
        if (i + BLOCK_SIZE < n)
            sum += g_idata[i + BLOCK_SIZE];
        i += grid;
    }
    sdata[tid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (BLOCK_SIZE >= 512) { if (tid < 256) sdata[tid] += sdata[tid + 256]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (BLOCK_SIZE >= 256) { if (tid < 128) sdata[tid] += sdata[tid + 128]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (BLOCK_SIZE >= 128) { if (tid < 64) sdata[tid] += sdata[tid + 64]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (tid < 32)
        tail_reduce(sdata, tid);
    if (tid == 0)
        g_odata[get_group_id(0)] = sdata[0];
}
