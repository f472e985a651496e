// Bilateral filter on a grey float image: spatial weights from exp of the
// squared distance, range weights with native_exp, normalised at the end.
__kernel void bilateral(__global const float *src, __global float *dst,
                        const int width, const int height,
                        const int radius, const float sigma_space, const float sigma_range)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    const float center = src[y * width + x];
    const float inv_space = -0.5f / (sigma_space * sigma_space);
    const float inv_range = -0.5f / (sigma_range * sigma_range);
    float sum = 0.0f, weights = 0.0f;
    for (int dy = -radius; dy <= radius; dy++) {
        const int sy = clamp(y + dy, 0, height - 1);
        for (int dx = -radius; dx <= radius; dx++) {
            const int sx = clamp(x + dx, 0, width - 1);
            const float v = src[sy * width + sx];
            const float d = v - center;
            const float w = exp((float)(dx * dx + dy * dy) * inv_space) *
                            native_exp(d * d * inv_range);
            sum += w * v;
            weights += w;
        }
    }
    dst[y * width + x] = sum / weights;
}
