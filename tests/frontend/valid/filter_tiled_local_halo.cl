// 5x5 convolution with a __local tile plus a 2-pixel halo loaded
// cooperatively, the filter in a __constant kernel argument.
#define TILE_W 16
#define TILE_H 16
#define HALO 2

__kernel __attribute__((reqd_work_group_size(TILE_W, TILE_H, 1)))
void conv5x5_tiled(__global const float *src, __global float *dst,
                   __constant float *filter5x5,
                   const int width, const int height)
{
    __local float tile[TILE_H + 2 * HALO][TILE_W + 2 * HALO];
    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int gx = get_global_id(0);
    const int gy = get_global_id(1);
    const int ox = get_group_id(0) * TILE_W - HALO;
    const int oy = get_group_id(1) * TILE_H - HALO;

    for (int j = ly; j < TILE_H + 2 * HALO; j += TILE_H) {
        for (int i = lx; i < TILE_W + 2 * HALO; i += TILE_W) {
            const int sx = clamp(ox + i, 0, width - 1);
            const int sy = clamp(oy + j, 0, height - 1);
            tile[j][i] = src[sy * width + sx];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    if (gx < width && gy < height) {
        float acc = 0.0f;
        #pragma unroll
        for (int j = 0; j < 5; j++) {
            #pragma unroll
            for (int i = 0; i < 5; i++)
                acc += filter5x5[j * 5 + i] * tile[ly + j][lx + i];
        }
        dst[gy * width + gx] = acc;
    }
}
