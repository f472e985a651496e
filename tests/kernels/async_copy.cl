// async_work_group_copy / async_work_group_strided_copy / wait_group_events
// / prefetch: each work-group stages a tile of `in` in __local memory,
// reverses it in place, and copies it out; a strided copy gathers every
// 4th float4 of `in4`. The host recomputes both outputs.
#define TILE 64

__kernel void async_copy(__global const int *in, __global int *out,
                         __global const float4 *in4, __global float4 *out4)
{
    __local int tile[TILE];
    __local int reversed[TILE];
    __local float4 gathered[TILE];
    const int group = get_group_id(0);
    const int l = get_local_id(0);

    prefetch(in + group * TILE, TILE);
    event_t e = async_work_group_copy(tile, in + group * TILE, TILE, 0);
    wait_group_events(1, &e);
    reversed[l] = tile[TILE - 1 - l] * 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t events[2];
    events[0] = async_work_group_copy(out + group * TILE, reversed, TILE, 0);
    events[1] = async_work_group_strided_copy(gathered, in4 + group * TILE * 4, TILE, 4, 0);
    wait_group_events(2, events);
    gathered[l].y += 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t back = async_work_group_strided_copy(out4 + group * TILE * 2, gathered, TILE, 2, 0);
    wait_group_events(1, &back);
}
