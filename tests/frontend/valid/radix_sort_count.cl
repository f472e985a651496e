// Radix-sort digit counting: 4-bit digits from uint keys, per-group counts
// in a 2-D __local array of ushort-sized counters, written column-major.
#define RADIX_BITS 4
#define RADIX (1 << RADIX_BITS)
#define GROUP 64

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void count_digits(__global const uint *keys, const uint n, const uint shift,
                  __global uint *counts)
{
    __local uint local_counts[RADIX];
    const uint lid = get_local_id(0);
    if (lid < RADIX)
        local_counts[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint i = get_global_id(0);
    if (i < n) {
        const uint digit = (keys[i] >> shift) & (RADIX - 1);
        atomic_inc(local_counts + digit);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < RADIX)
        counts[lid * get_num_groups(0) + get_group_id(0)] = local_counts[lid];
}
