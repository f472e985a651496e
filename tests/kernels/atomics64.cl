// 64-bit atomics (cl_khr_int64_base_atomics / _extended_atomics) on a
// buffer and on __local memory: counts that pass 2^32, min/max of signed
// values, and a compare-and-swap loop. The host recomputes the results.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

__kernel void atomics64(__global ulong *sums, __global long *extremes, __global ulong *ticket)
{
    __local ulong group_sum;
    int i = get_global_id(0);
    if (get_local_id(0) == 0)
        group_sum = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atom_add(&group_sum, (ulong)i << 20);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        atom_add(&sums[0], group_sum);
    atom_add(&sums[1], 0x100000000ul);
    atom_inc(&sums[2]);
    atom_min(&extremes[0], (long)i * -3000000000l);
    atom_max(&extremes[1], (long)i * 3000000000l);
    atom_xor(&sums[3], (ulong)i * 0x9e3779b97f4a7c15ul);
    ulong old, want;
    do {
        old = ticket[0];
        want = old + (ulong)i;
    } while (atom_cmpxchg(&ticket[0], old, want) != old);
}
