// A 16-bin histogram: each work-group counts into __local bins with
// atomic_inc, then adds them to the global bins with atomic_add; a global
// atomic_max and atomic_cmpxchg-based counter check the other operations.
#define BINS 16

__kernel void histogram_atomics(__global const uint *data, __global uint *bins,
                                __global int *stats)
{
    __local uint local_bins[BINS];
    uint lid = get_local_id(0);
    if (lid < BINS)
        local_bins[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint value = data[get_global_id(0)];
    atomic_inc(&local_bins[value % BINS]);
    atomic_max(&stats[0], (int)value);
    // A lock-free increment through compare-and-swap.
    int seen = stats[1];
    int old;
    do {
        old = seen;
        seen = atomic_cmpxchg(&stats[1], old, old + 1);
    } while (seen != old);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < BINS)
        atomic_add(&bins[lid], local_bins[lid]);
}
