// Streaming copy: one float4 read and one float4 write per work-item.
__kernel void copy4(__global const float4 *src, __global float4 *dst)
{
    size_t i = get_global_id(0);
    dst[i] = src[i];
}
