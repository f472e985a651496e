// options: -cl-std=CL2.0
// Every work-group collective function on one type: ten results per
// work-item (reductions, exclusive and inclusive scans, a broadcast from
// the group's last work-item).
#define COLLECTIVES(T)                                                        \
    kernel void collectives_##T(global const T *in, global T *out) {          \
        size_t i = get_global_id(0);                                          \
        T x = in[i];                                                          \
        global T *o = out + 10 * i;                                           \
        o[0] = work_group_reduce_add(x);                                      \
        o[1] = work_group_reduce_min(x);                                      \
        o[2] = work_group_reduce_max(x);                                      \
        o[3] = work_group_scan_exclusive_add(x);                              \
        o[4] = work_group_scan_exclusive_min(x);                              \
        o[5] = work_group_scan_exclusive_max(x);                              \
        o[6] = work_group_scan_inclusive_add(x);                              \
        o[7] = work_group_scan_inclusive_min(x);                              \
        o[8] = work_group_scan_inclusive_max(x);                              \
        o[9] = work_group_broadcast(x, get_local_size(0) - 1);                \
    }

COLLECTIVES(int)
COLLECTIVES(uint)
COLLECTIVES(long)
COLLECTIVES(ulong)
COLLECTIVES(float)
#ifdef cl_khr_fp64
COLLECTIVES(double)
#endif

// A collective in a helper function shares the kernel's scratch array.
int all_nonzero(int v) {
    return work_group_all(v);
}

// work_group_all / work_group_any: is every operand nonzero, is any 7.
kernel void truth(global const int *in, global int *out) {
    size_t i = get_global_id(0);
    out[2 * i] = all_nonzero(in[i]);
    out[2 * i + 1] = work_group_any(in[i] == 7);
}

// Broadcasts from a 2-D and a 3-D local id, in groups of any shape.
kernel void broadcast_2d(global const int *in, global int *out) {
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    out[i] = work_group_broadcast(in[i], get_local_size(0) - 1, get_local_size(1) / 2);
}

kernel void broadcast_3d(global const long *in, global long *out) {
    size_t i = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0)
        + get_global_id(0);
    out[i] = work_group_broadcast(in[i], get_local_size(0) / 2, get_local_size(1) - 1,
                                  get_local_size(2) - 1);
}
