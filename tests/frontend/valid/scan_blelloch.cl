// Work-efficient exclusive scan (Blelloch): up-sweep and down-sweep over a
// __local array, two elements per work-item, with the block total saved for
// a second pass.
__kernel void scan_exclusive(__global const uint *input,
                             __global uint *output,
                             __global uint *block_sums,
                             __local uint *temp,
                             const uint n)
{
    const uint thid = get_local_id(0);
    const uint block = get_group_id(0);
    const uint m = get_local_size(0) * 2;
    const uint base = block * m;
    uint offset = 1;

    temp[2 * thid] = (base + 2 * thid < n) ? input[base + 2 * thid] : 0u;
    temp[2 * thid + 1] = (base + 2 * thid + 1 < n) ? input[base + 2 * thid + 1] : 0u;

    for (uint d = m >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (thid < d) {
            const uint ai = offset * (2 * thid + 1) - 1;
            const uint bi = offset * (2 * thid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (thid == 0) {
        block_sums[block] = temp[m - 1];
        temp[m - 1] = 0;
    }
    for (uint d = 1; d < m; d *= 2) {
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (thid < d) {
            const uint ai = offset * (2 * thid + 1) - 1;
            const uint bi = offset * (2 * thid + 2) - 1;
            const uint t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (base + 2 * thid < n)
        output[base + 2 * thid] = temp[2 * thid];
    if (base + 2 * thid + 1 < n)
        output[base + 2 * thid + 1] = temp[2 * thid + 1];
}

__kernel void scan_add_block_sums(__global uint *data, __global const uint *block_sums,
                                  const uint n)
{
    const uint i = get_global_id(0);
    const uint block = i / (get_local_size(0) * 2);
    if (i < n)
        data[i] += block_sums[block];
}
