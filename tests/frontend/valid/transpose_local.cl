// Matrix transpose through a padded __local tile (TILE+1 columns avoids
// bank conflicts), 2-D work-groups and bounds checks on both sides.
#define TILE 16

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void transpose(__global float *out, __global const float *in,
               const int width, const int height)
{
    __local float tile[TILE][TILE + 1];
    int x = get_group_id(0) * TILE + get_local_id(0);
    int y = get_group_id(1) * TILE + get_local_id(1);
    if (x < width && y < height)
        tile[get_local_id(1)][get_local_id(0)] = in[y * width + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    x = get_group_id(1) * TILE + get_local_id(0);
    y = get_group_id(0) * TILE + get_local_id(1);
    if (x < height && y < width)
        out[y * height + x] = tile[get_local_id(0)][get_local_id(1)];
}
