// Work-item functions and a __local reduction with barriers over a
// non-uniform NDRange (OpenCL C 2.0): the last groups in each dimension
// are smaller than the enqueued size. Built as OpenCL C 1.2 too, to see
// the range refused.
#if __OPENCL_C_VERSION__ >= 200
#define LOCAL_LINEAR_ID ((uint)get_local_linear_id())
#define ENQUEUED_SIZE(d) get_enqueued_local_size(d)
#define GLOBAL_LINEAR_ID ((uint)get_global_linear_id())
#else
#define LOCAL_LINEAR_ID ((uint)(get_local_id(1) * get_local_size(0) + get_local_id(0)))
#define ENQUEUED_SIZE(d) get_local_size(d)
#define GLOBAL_LINEAR_ID 0u
#endif
__kernel void geometry(__global uint *out, __local uint *scratch) {
    size_t gx = get_global_id(0), gy = get_global_id(1);
    size_t w = get_global_size(0);
    uint lid = LOCAL_LINEAR_ID;
    uint size = (uint)(get_local_size(0) * get_local_size(1));
    scratch[lid] = lid + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint stride = 1; stride < size; stride *= 2) {
        uint v = (lid % (2 * stride) == 0 && lid + stride < size) ? scratch[lid + stride] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        scratch[lid] += v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    size_t x = gx - get_global_offset(0), y = gy - get_global_offset(1);
    __global uint *o = out + 10 * (y * w + x);
    o[0] = (uint)get_local_id(0) | (uint)get_local_id(1) << 16;
    o[1] = (uint)get_local_size(0) | (uint)get_local_size(1) << 16;
    o[2] = (uint)ENQUEUED_SIZE(0) | (uint)ENQUEUED_SIZE(1) << 16;
    o[3] = (uint)get_group_id(0) | (uint)get_group_id(1) << 16;
    o[4] = (uint)get_num_groups(0) | (uint)get_num_groups(1) << 16;
    o[5] = GLOBAL_LINEAR_ID;
    o[6] = scratch[0];
    o[7] = (uint)gx;
    o[8] = (uint)gy;
    o[9] = lid;
}
