// Parallel sum reduction: each work-item loads two elements, then the
// work-group halves the active stride in __local memory every step.
__kernel void reduce_sum(__global const float *input,
                         __global float *group_sums,
                         __local float *scratch,
                         const uint n)
{
    const uint lid = get_local_id(0);
    const uint group_size = get_local_size(0);
    const uint i = get_group_id(0) * (group_size * 2) + lid;

    float v = 0.0f;
    if (i < n)
        v = input[i];
    if (i + group_size < n)
        v += input[i + group_size];
    scratch[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint stride = group_size / 2; stride > 0; stride >>= 1) {
        if (lid < stride)
            scratch[lid] += scratch[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        group_sums[get_group_id(0)] = scratch[0];
}
