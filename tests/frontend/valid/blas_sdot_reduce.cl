// BLAS level 1 dot product in two stages: each work-group reduces a strided
// slice into one partial sum, then a single work-group adds the partials.
__kernel void sdot_stage1(const int n,
                          __global const float *x,
                          __global const float *y,
                          __global float *partials,
                          __local float *scratch)
{
    const int lid = get_local_id(0);
    float acc = 0.0f;
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        acc += x[i] * y[i];
    scratch[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) >> 1; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partials[get_group_id(0)] = scratch[0];
}

__kernel void sdot_stage2(const int count,
                          __global const float *partials,
                          __global float *result)
{
    if (get_global_id(0) == 0) {
        float total = 0.0f;
        for (int i = 0; i < count; i++)
            total += partials[i];
        *result = total;
    }
}
