// 256-bin histogram of bytes, read four to a uint. Each work-group counts
// into __local bins with atomic_inc, then merges them into the global bins
// with one atomic_add per bin. The global bins are zeroed before each run.
#define BINS 256

__kernel void histogram256(__global const uint *data, const uint nwords,
                           __global uint *bins)
{
    __local uint local_bins[BINS];
    const uint lid = get_local_id(0);
    local_bins[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint stride = get_global_size(0);
    for (uint i = get_global_id(0); i < nwords; i += stride) {
        const uint w = data[i];
        atomic_inc(&local_bins[w & 0xffu]);
        atomic_inc(&local_bins[(w >> 8) & 0xffu]);
        atomic_inc(&local_bins[(w >> 16) & 0xffu]);
        atomic_inc(&local_bins[w >> 24]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&bins[lid], local_bins[lid]);
}
