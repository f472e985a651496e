// The two-stage float sum of reduce.cl through sub-group reductions
// (cl_khr_subgroups, or OpenCL C 3.0's __opencl_c_subgroups): each
// work-item sums a strided slice, sub_group_reduce_add combines each
// sub-group's sums, their first work-items leave them in __local memory,
// and the first sub-group adds those up. One barrier instead of log2(256).
#define GROUP 256

__kernel void reduce_sum(__global const float *in, const uint n, __global float *out)
{
    __local float partial[GROUP];
    const uint stride = get_global_size(0);
    float sum = 0.0f;
    for (uint i = get_global_id(0); i < n; i += stride)
        sum += in[i];
    sum = sub_group_reduce_add(sum);
    if (get_sub_group_local_id() == 0)
        partial[get_sub_group_id()] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_sub_group_id() == 0) {
        const uint count = get_num_sub_groups();
        float total = 0.0f;
        for (uint k = get_sub_group_local_id(); k < count; k += get_sub_group_size())
            total += partial[k];
        total = sub_group_reduce_add(total);
        if (get_sub_group_local_id() == 0)
            out[get_group_id(0)] = total;
    }
}
