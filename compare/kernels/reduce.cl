// Two-stage float sum. Stage one: every work-item sums a strided slice,
// then each work-group reduces its 256 partial sums in __local memory to
// one. Stage two is the same kernel over the per-group sums with a single
// work-group.
#define GROUP 256

__kernel void reduce_sum(__global const float *in, const uint n, __global float *out)
{
    __local float scratch[GROUP];
    const uint lid = get_local_id(0);
    const uint stride = get_global_size(0);
    float sum = 0.0f;
    for (uint i = get_global_id(0); i < n; i += stride)
        sum += in[i];
    scratch[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = GROUP / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0];
}
