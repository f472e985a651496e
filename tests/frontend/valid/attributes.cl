// Kernel and type attributes: reqd_work_group_size, work_group_size_hint,
// vec_type_hint, aligned variables and typedefs, and attributes placed
// before or after __kernel.
typedef float aligned_float4_array[4] __attribute__((aligned(16)));

__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void fixed_group(__global float *data)
{
    __local float buffer[64] __attribute__((aligned(16)));
    const int lid = get_local_id(0);
    buffer[lid] = data[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    data[get_global_id(0)] = buffer[63 - lid];
}

__kernel __attribute__((work_group_size_hint(128, 1, 1)))
__attribute__((vec_type_hint(float4)))
void hinted(__global float4 *data)
{
    aligned_float4_array tmp;
    const float4 v = data[get_global_id(0)];
    tmp[0] = v.x; tmp[1] = v.y; tmp[2] = v.z; tmp[3] = v.w;
    data[get_global_id(0)] = (float4)(tmp[3], tmp[2], tmp[1], tmp[0]);
}
