// Separable box filter as two kernels (horizontal then vertical pass) with
// the radius fixed at build time; float4 RGBA pixels.
#ifndef RADIUS
#define RADIUS 3
#endif
#define WINDOW (2 * RADIUS + 1)

__kernel void box_horizontal(__global const float4 *src, __global float4 *dst,
                             const int width, const int height)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    float4 sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; k++)
        sum += src[y * width + clamp(x + k, 0, width - 1)];
    dst[y * width + x] = sum / (float)WINDOW;
}

__kernel void box_vertical(__global const float4 *src, __global float4 *dst,
                           const int width, const int height)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    float4 sum = (float4)(0.0f, 0.0f, 0.0f, 0.0f);
    for (int k = -RADIUS; k <= RADIUS; k++)
        sum += src[clamp(y + k, 0, height - 1) * width + x];
    dst[y * width + x] = sum * (1.0f / WINDOW);
}
