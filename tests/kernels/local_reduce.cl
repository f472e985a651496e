// A work-group reduction through __local memory and barriers: each group
// of 64 sums its inputs; out[group] gets the sum, and every work-item
// writes back the group's maximum through a second __local array.
#define GROUP 64

__kernel void local_reduce(__global const int *in, __global int *sums, __global int *maxes)
{
    __local int scratch[GROUP];
    __local int peak[GROUP];
    int lid = get_local_id(0);
    int gid = get_global_id(0);
    scratch[lid] = in[gid];
    peak[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int stride = GROUP / 2; stride > 0; stride >>= 1) {
        if (lid < stride) {
            scratch[lid] += scratch[lid + stride];
            peak[lid] = max(peak[lid], peak[lid + stride]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        sums[get_group_id(0)] = scratch[0];
    maxes[gid] = peak[0];
}
