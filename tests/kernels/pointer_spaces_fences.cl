// options: -cl-std=CL2.0
// Every fence flavour: atomic_work_item_fence with each flag, order and
// scope, and mem_fence/read_mem_fence/write_mem_fence with each flag.
// Work-items pass values to their neighbours through __local and global
// memory between barriers.

kernel void fences(global int *scratch, global int *out) {
    local int shared[64];
    int l = get_local_id(0);
    int g = get_global_id(0);
    int n = get_local_size(0);
    shared[l] = g * 3;
    scratch[g] = g * 5;
    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_acq_rel, memory_scope_all_svm_devices);
    atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_relaxed, memory_scope_work_group);
    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_seq_cst, memory_scope_sub_group);
    mem_fence(CLK_LOCAL_MEM_FENCE);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    write_mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_work_group);
    read_mem_fence(CLK_LOCAL_MEM_FENCE);
    read_mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    int next = (l + 1) % n;
    int group_base = g - l;
    out[g] = shared[next] + scratch[group_base + next];
}
