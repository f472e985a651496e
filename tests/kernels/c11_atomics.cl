// options: -cl-std=CL2.0
// OpenCL 2.0 atomics: atomic_init, fetch_add with and without _explicit
// (relaxed, work-group scope, on __local), fetch_max acq_rel, a
// compare-exchange that exactly one work-item wins, atomic_load_explicit
// acquire, atomic_flag_test_and_set once per group, and 64-bit
// atomic_long. The host checks every count.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

__kernel void c11_atomics(__global atomic_int *counter, __global atomic_uint *max_value,
                          __global atomic_int *winner, __global atomic_flag *flags,
                          __global atomic_long *big, __global int *out)
{
    __local atomic_int local_count;
    int i = get_global_id(0);
    if (get_local_id(0) == 0)
        atomic_init(&local_count, 0);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    atomic_fetch_add_explicit(&local_count, 1, memory_order_relaxed, memory_scope_work_group);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);

    atomic_fetch_add(counter, 2);
    atomic_fetch_max_explicit(max_value, (uint)i * 3u, memory_order_acq_rel, memory_scope_device);
    int expected = 0;
    bool won = atomic_compare_exchange_strong(winner, &expected, i + 1);
    bool was_set = atomic_flag_test_and_set(&flags[get_group_id(0)]);
    atomic_fetch_add(big, 1l << 33);
    int seen = atomic_load_explicit(&local_count, memory_order_acquire, memory_scope_work_group);
    out[i] = (won ? 1 : 0) | (was_set ? 0 : 2) | (seen << 2) | ((won ? 0 : expected != 0) << 20);
}
