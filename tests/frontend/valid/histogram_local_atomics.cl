// 256-bin byte histogram: per-work-group sub-histograms in __local memory
// with atomic_inc, merged into the global histogram with atomic_add.
#define BINS 256

__kernel void histogram256(__global const uchar *data, const uint n,
                           __global uint *histogram)
{
    __local uint local_hist[BINS];
    const uint lid = get_local_id(0);
    const uint lsize = get_local_size(0);

    for (uint b = lid; b < BINS; b += lsize)
        local_hist[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&local_hist[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint b = lid; b < BINS; b += lsize) {
        const uint count = local_hist[b];
        if (count != 0)
            atomic_add(&histogram[b], count);
    }
}
