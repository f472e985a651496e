// 3x3 Gaussian blur on a single-channel float image held in a buffer, with
// the filter weights in a program-scope __constant table and clamp-to-edge
// addressing.
__constant float gaussian3x3[9] = {
    1.0f / 16, 2.0f / 16, 1.0f / 16,
    2.0f / 16, 4.0f / 16, 2.0f / 16,
    1.0f / 16, 2.0f / 16, 1.0f / 16,
};

__kernel void blur3x3(__global const float *src, __global float *dst,
                      const int width, const int height)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    float acc = 0.0f;
    for (int dy = -1; dy <= 1; dy++) {
        for (int dx = -1; dx <= 1; dx++) {
            const int sx = clamp(x + dx, 0, width - 1);
            const int sy = clamp(y + dy, 0, height - 1);
            acc = mad(gaussian3x3[(dy + 1) * 3 + (dx + 1)], src[sy * width + sx], acc);
        }
    }
    dst[y * width + x] = acc;
}
