// options: -cl-std=CL2.0
// OpenCL 2.0 work-group collective functions: reduce, inclusive/exclusive
// scans and broadcast instead of hand-written __local trees.
__kernel void wg_collectives(__global const int *in,
                             __global int *sums,
                             __global int *prefix,
                             __global float *maxima)
{
    const size_t gid = get_global_id(0);
    const int v = in[gid];
    const int total = work_group_reduce_add(v);
    prefix[gid] = work_group_scan_exclusive_add(v) + work_group_scan_inclusive_max(v) * 0;
    const float fm = work_group_reduce_max((float)v);
    const int first = work_group_broadcast(v, 0);
    if (get_local_linear_id() == 0) {
        sums[get_group_id(0)] = total + first - first;
        maxima[get_group_id(0)] = fm;
    }
}
