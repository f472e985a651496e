// Luminance histogram of an RGBA8 image stored as uchar4 pixels, counting
// straight into global memory with atomic_inc on volatile __global ints.
__kernel void luminance_histogram(__global const uchar4 *pixels,
                                  const int width, const int height,
                                  volatile __global int *bins)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    const float4 rgba = convert_float4(pixels[y * width + x]);
    const float lum = dot(rgba.xyz, (float3)(0.299f, 0.587f, 0.114f));
    const int bin = clamp((int)lum, 0, 255);
    atomic_inc(bins + bin);
}
