// options: -cl-std=CL2.0
// Fences inside loops that work-items leave at different iterations, as
// the OpenCL-CTS's atomic_flag test has them: each work-item looks for the
// first critical section no one has claimed, each section guarded by an
// atomic_flag (in __local or __global memory), with atomic_work_item_fence
// and mem_fence between the flag and the plain accesses it guards. Every
// work-item must finish and claim a section of its own.

#define GROUP 256

__kernel void claim_local(__global int *owner, __global int *flags_after)
{
    __local atomic_flag flags[GROUP];
    uint lid = get_local_id(0);
    atomic_flag_clear_explicit(&flags[lid], memory_order_relaxed, memory_scope_work_group);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    uint base = get_group_id(0) * GROUP;
    bool stop = false;
    for (uint cnt = 0; !stop && cnt < GROUP; cnt++) {
        bool set = atomic_flag_test_and_set_explicit(&flags[cnt], memory_order_relaxed,
                                                     memory_scope_work_group);
        atomic_work_item_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE,
                               memory_order_acquire, memory_scope_work_group);
        if (!set) {
            if (owner[base + cnt] == -1) {
                owner[base + cnt] = get_global_id(0);
                stop = true;
            }
            atomic_work_item_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE,
                                   memory_order_release, memory_scope_work_group);
            atomic_flag_clear_explicit(&flags[cnt], memory_order_relaxed,
                                       memory_scope_work_group);
        }
    }
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    flags_after[base + lid] = atomic_flag_test_and_set(&flags[lid]);
}

// The sections are per work-group slices of __global flags; a plain
// mem_fence and read_mem_fence/write_mem_fence stand in for the C11 fences.
__kernel void claim_global(__global atomic_flag *flags, __global int *owner)
{
    uint base = get_group_id(0) * GROUP;
    bool stop = false;
    for (uint cnt = 0; !stop && cnt < GROUP; cnt++) {
        bool set = atomic_flag_test_and_set(&flags[base + cnt]);
        read_mem_fence(CLK_GLOBAL_MEM_FENCE);
        if (!set) {
            if (owner[base + cnt] == -1) {
                owner[base + cnt] = get_global_id(0);
                stop = true;
            }
            write_mem_fence(CLK_GLOBAL_MEM_FENCE);
            mem_fence(CLK_GLOBAL_MEM_FENCE);
            atomic_flag_clear(&flags[base + cnt]);
        }
    }
}
