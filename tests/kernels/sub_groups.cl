// options: -cl-std=CL3.0
// Sub-group functions (issue 23, cl_khr_subgroups): every reduction, scan
// and broadcast on each type, the ids and sizes, votes and the barrier.
// tests/sub_groups.rs computes each result on the host per sub-group.

#ifndef __opencl_c_subgroups
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

// The extensions after cl_khr_subgroups, in work-groups of whole
// sub-groups: shuffles (cl_khr_subgroup_shuffle, _shuffle_relative),
// rotates (cl_khr_subgroup_rotate), votes (_non_uniform_vote) and
// ballots (_ballot). Results a work-item may not rely on are -1.
kernel void extensions(global const int *in, global int *out) {
  size_t i = get_global_id(0), n = get_global_size(0);
  int x = in[i];
  uint lane = get_sub_group_local_id(), size = get_sub_group_size();
  out[i] = sub_group_shuffle(x, (lane * 3 + 1) % size);
  out[n + i] = sub_group_shuffle_xor(x, 5 % size);
  int up = sub_group_shuffle_up(x, 1);
  out[2 * n + i] = lane >= 1 ? up : -1;
  int down = sub_group_shuffle_down(x, 2);
  out[3 * n + i] = lane + 2 < size ? down : -1;
  out[4 * n + i] = sub_group_rotate(x, 3);
  out[5 * n + i] = sub_group_rotate(x, -1);
  out[6 * n + i] = sub_group_clustered_rotate(x, 1, 4);
  out[7 * n + i] = sub_group_broadcast_first(x);
  out[8 * n + i] = sub_group_non_uniform_broadcast(x, 2);
  out[9 * n + i] = sub_group_elect();
  out[10 * n + i] = sub_group_non_uniform_all_equal(x / 1000);
  out[11 * n + i] = -1;
  out[12 * n + i] = -1;
  out[13 * n + i] = -1;
  if (lane % 2 == 1) {
    // Only the odd work-items: the first of them answers.
    out[11 * n + i] = sub_group_broadcast_first(x);
    out[12 * n + i] = sub_group_elect();
    out[13 * n + i] = sub_group_non_uniform_all(x % 2 == 1) + 2 * sub_group_non_uniform_any(x % 5 == 0);
  }
  uint4 b = sub_group_ballot(x % 3 == 0);
  out[14 * n + i] = sub_group_ballot_bit_count(b);
  out[15 * n + i] = sub_group_ballot_inclusive_scan(b);
  out[16 * n + i] = sub_group_ballot_exclusive_scan(b);
  out[17 * n + i] = sub_group_ballot_find_lsb(b);
  out[18 * n + i] = sub_group_ballot_find_msb(b);
  out[19 * n + i] = sub_group_inverse_ballot(b);
  out[20 * n + i] = sub_group_ballot_bit_extract(b, (lane + 1) % size);
  out[21 * n + i] = sub_group_ballot_bit_count(get_sub_group_ge_mask()) * 1000000 +
                    sub_group_ballot_bit_count(get_sub_group_gt_mask()) * 10000 +
                    sub_group_ballot_bit_count(get_sub_group_le_mask()) * 100 +
                    sub_group_ballot_bit_count(get_sub_group_lt_mask());
  out[22 * n + i] = sub_group_ballot_bit_extract(get_sub_group_eq_mask(), lane) +
                    2 * sub_group_ballot_bit_count(get_sub_group_eq_mask());
  out[23 * n + i] = b.x;
}

// Shuffles of other types move their bits unchanged.
kernel void shuffle_types(global const char *c, global const long *l,
                          global const double *d, global char *oc,
                          global long *ol, global double *od) {
  size_t i = get_global_id(0);
  uint lane = get_sub_group_local_id(), size = get_sub_group_size();
  uint from = (lane + 1) % size;
  oc[i] = sub_group_shuffle(c[i], from);
  ol[i] = sub_group_shuffle(l[i], from);
  od[i] = sub_group_shuffle(d[i], from);
}

// Arithmetic over the active work-items (cl_khr_subgroup_non_uniform_
// arithmetic), inside a branch a third of them skip, and over clusters
// (cl_khr_subgroup_clustered_reduce).
kernel void arithmetic(global const int *in, global int *out,
                       global const char *c, global char *c_sum) {
  size_t i = get_global_id(0), n = get_global_size(0);
  int x = in[i];
  if (get_sub_group_local_id() % 3 != 1) {
    out[i] = sub_group_non_uniform_reduce_add(x);
    out[n + i] = sub_group_non_uniform_reduce_mul(x % 3 + 1);
    out[2 * n + i] = sub_group_non_uniform_reduce_min(x);
    out[3 * n + i] = sub_group_non_uniform_reduce_xor(x);
    out[4 * n + i] = sub_group_non_uniform_reduce_logical_or(x % 11 == 0);
    out[5 * n + i] = sub_group_non_uniform_scan_inclusive_add(x);
    out[6 * n + i] = sub_group_non_uniform_scan_exclusive_mul(x % 3 + 1);
    out[7 * n + i] = sub_group_non_uniform_scan_inclusive_max(x);
    out[8 * n + i] = sub_group_non_uniform_scan_exclusive_min(x);
    out[9 * n + i] = sub_group_non_uniform_scan_inclusive_or(x);
    out[10 * n + i] = sub_group_non_uniform_scan_exclusive_and(x | 0x100);
    out[11 * n + i] = sub_group_non_uniform_scan_inclusive_logical_xor(x % 2 == 0);
    c_sum[i] = sub_group_non_uniform_reduce_add(c[i]);
  }
  out[12 * n + i] = sub_group_clustered_reduce_add(x, 4);
  out[13 * n + i] = sub_group_clustered_reduce_max(x, 2);
  out[14 * n + i] = sub_group_clustered_reduce_and(x | 0xF0, 8);
  out[15 * n + i] = sub_group_clustered_reduce_logical_and(x > 100, 4);
}

// cl_khr_subgroup_extended_types: char and short in the broadcasts,
// reductions and scans (their sums wrap), and vectors in the broadcasts.
kernel void extended_types(global const char *c, global const ushort *s,
                           global const int16 *v, global char *c_out,
                           global ushort *s_out, global int16 *v_out,
                           global float3 *f_out) {
  size_t i = get_global_id(0), n = get_global_size(0);
  c_out[i] = sub_group_reduce_add(c[i]);
  c_out[n + i] = sub_group_scan_inclusive_add(c[i]);
  c_out[2 * n + i] = sub_group_scan_exclusive_min(c[i]);
  c_out[3 * n + i] = sub_group_broadcast(c[i], 1);
  s_out[i] = sub_group_reduce_add(s[i]);
  s_out[n + i] = sub_group_scan_inclusive_max(s[i]);
  v_out[i] = sub_group_broadcast(v[i], 3);
  uint last = get_sub_group_size() - 1;
  f_out[i] = sub_group_non_uniform_broadcast(convert_float3(v[i].s123), last);
}
