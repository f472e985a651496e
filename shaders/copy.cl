// clEnqueueCopyBuffer as a compute dispatch. On some drivers a copy
// shader moves data several times faster than vkCmdCopyBuffer on a compute
// queue (NVIDIA H100/H200: ~4 TB/s against ~0.85 TB/s). Offsets and counts
// count elements; each work-item strides over the range, so one dispatch of
// any size covers a copy of any length.

__kernel void copy_uint4(__global uint4 *dst, __global const uint4 *src,
                         uint dst_first, uint src_first, uint count)
{
    for (uint i = get_global_id(0); i < count; i += get_global_size(0))
        dst[dst_first + i] = src[src_first + i];
}

__kernel void copy_uint(__global uint *dst, __global const uint *src,
                        uint dst_first, uint src_first, uint count)
{
    for (uint i = get_global_id(0); i < count; i += get_global_size(0))
        dst[dst_first + i] = src[src_first + i];
}
