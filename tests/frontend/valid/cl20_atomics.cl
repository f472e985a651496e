// options: -cl-std=CL2.0
// C11-style atomics from OpenCL 2.0: atomic_int/atomic_uint objects in
// global and local memory, explicit memory orders and scopes, and
// atomic_work_item_fence.
__kernel void c11_atomics(__global atomic_int *counter, __global atomic_uint *maxima,
                          __global const uint *values, __global int *tickets)
{
    __local atomic_int local_count;
    const size_t gid = get_global_id(0);
    if (get_local_id(0) == 0)
        atomic_init(&local_count, 0);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    atomic_fetch_add_explicit(&local_count, 1, memory_order_relaxed, memory_scope_work_group);
    const int ticket = atomic_fetch_add_explicit(counter, 1, memory_order_relaxed,
                                                 memory_scope_device);
    atomic_fetch_max_explicit(maxima, values[gid], memory_order_relaxed, memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    tickets[gid] = ticket + atomic_load_explicit(&local_count, memory_order_relaxed,
                                                 memory_scope_work_group) * 0;
    int expected = 0;
    atomic_compare_exchange_strong_explicit(counter, &expected, 1, memory_order_relaxed,
                                            memory_order_relaxed, memory_scope_device);
}
