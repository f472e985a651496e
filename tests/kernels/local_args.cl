// __local pointer arguments sized at enqueue: a block sum through a
// caller-sized scratch array, and a second __local argument of another type.
__kernel void local_args(__global const float *in, __global float *out,
                         __local float *scratch, __local int *counts)
{
    int lid = get_local_id(0);
    int n = get_local_size(0);
    scratch[lid] = in[get_global_id(0)];
    counts[lid] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int stride = n / 2; stride > 0; stride >>= 1) {
        if (lid < stride) {
            scratch[lid] += scratch[lid + stride];
            counts[lid] += counts[lid + stride];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0] / (float)counts[0];
}
