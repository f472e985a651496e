// options: -cl-std=CL3.0
// Sub-group functions (issue 23, cl_khr_subgroups): every reduction, scan
// and broadcast on each type, the ids and sizes, votes and the barrier.
// tests/sub_groups.rs computes each result on the host per sub-group.

#if !defined(cl_khr_subgroups) || !defined(__opencl_c_subgroups)
#error "sub-groups are not reported"
#endif

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// Ten results per work-item, each in a block of n: the reductions, the
// inclusive and exclusive scans (add, min, max), and the value of the
// sub-group's last work-item.
#define COLLECTIVES(T)                                                      \
  kernel void collectives_##T(global const T *in, global T *out) {          \
    size_t i = get_global_id(0), n = get_global_size(0);                    \
    T x = in[i];                                                            \
    out[i] = sub_group_reduce_add(x);                                       \
    out[n + i] = sub_group_reduce_min(x);                                   \
    out[2 * n + i] = sub_group_reduce_max(x);                               \
    out[3 * n + i] = sub_group_scan_inclusive_add(x);                       \
    out[4 * n + i] = sub_group_scan_inclusive_min(x);                       \
    out[5 * n + i] = sub_group_scan_inclusive_max(x);                       \
    out[6 * n + i] = sub_group_scan_exclusive_add(x);                       \
    out[7 * n + i] = sub_group_scan_exclusive_min(x);                       \
    out[8 * n + i] = sub_group_scan_exclusive_max(x);                       \
    out[9 * n + i] = sub_group_broadcast(x, get_sub_group_size() - 1);      \
  }

COLLECTIVES(int)
COLLECTIVES(uint)
COLLECTIVES(long)
COLLECTIVES(ulong)
COLLECTIVES(float)
COLLECTIVES(double)
#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
COLLECTIVES(half)
#endif

// The ids and sizes, the votes, and a sub-group barrier ordering __local
// memory: each work-item reads what the next one in its sub-group wrote.
kernel void ids(global uint *out, local uint *scratch) {
  size_t i = get_global_id(0), n = get_global_size(0);
  uint lid = get_local_id(0);
  out[i] = get_sub_group_id();
  out[n + i] = get_sub_group_local_id();
  out[2 * n + i] = get_sub_group_size();
  out[3 * n + i] = get_max_sub_group_size();
  out[4 * n + i] = get_num_sub_groups();
  out[5 * n + i] = get_enqueued_num_sub_groups();
  out[6 * n + i] = sub_group_all(i % 7 != 3);
  out[7 * n + i] = sub_group_any(get_sub_group_local_id() == 1);
  scratch[lid] = (uint)i * 3;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  uint first = lid - get_sub_group_local_id();
  uint next = first + (get_sub_group_local_id() + 1) % get_sub_group_size();
  out[8 * n + i] = scratch[next];
}
