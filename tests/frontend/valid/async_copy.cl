// Staging global data in __local memory with async_work_group_copy and
// wait_group_events, then a moving average over the staged tile.
#define TILE 256

__kernel void moving_average(__global const float *in, __global float *out, const int n)
{
    __local float tile[TILE + 2];
    const int group_base = get_group_id(0) * TILE;
    event_t ev = async_work_group_copy(tile, in + group_base, (size_t)(TILE + 2), 0);
    wait_group_events(1, &ev);
    const int lid = get_local_id(0);
    if (group_base + lid + 2 < n)
        out[group_base + lid] = (tile[lid] + tile[lid + 1] + tile[lid + 2]) / 3.0f;
}

__kernel void strided_gather(__global const float4 *in, __global float4 *out, const int stride)
{
    __local float4 staged[64];
    event_t e = async_work_group_strided_copy(staged, in + get_group_id(0), 64, (size_t)stride, 0);
    wait_group_events(1, &e);
    out[get_global_id(0)] = staged[get_local_id(0) % 64] * 2.0f;
}
