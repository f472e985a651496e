// Neighbouring work-items write neighbouring halfs, which share 32-bit
// words: no write may be lost (cl_khr_fp16).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void neighbours(__global const half *in, __global half *out, __global half *acc)
{
    size_t i = get_global_id(0);
    half v = in[i];
    out[i] = v * 2.0h;
    acc[i] += v;
}

__kernel void local_halfs(__global const half *in, __global half *out)
{
    __local half tile[64];
    size_t l = get_local_id(0);
    tile[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[63 - l] + tile[l];
}

// A private array of half indexed at run time, and half mixed with float
// (the usual arithmetic conversions make it float).
__kernel void private_halfs(__global const half *in, __global half *out, __global float *mixed)
{
    size_t i = get_global_id(0);
    size_t n = get_global_size(0);
    half a[8];
    for (int k = 0; k < 8; k++)
        a[k] = in[(i + k) % n];
    int j = (int)(i & 7);
    out[i] = a[j] + a[7 - j];
    mixed[i] = a[0] * 3.0f + 1;
}

// A work-group copy of halfs into __local memory and back out.
__kernel void async_halfs(__global const half *in, __global half *out)
{
    __local half tile[64];
    event_t e = async_work_group_copy(tile, in + get_group_id(0) * 64, 64, 0);
    wait_group_events(1, &e);
    size_t l = get_local_id(0);
    tile[l] = tile[l] * 0.5h;
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_copy(out + get_group_id(0) * 64, tile, 64, 0);
    wait_group_events(1, &e);
}
