// Mandelbrot set: complex numbers as float2, an escape-time while loop with
// an iteration cap, and a colour written as uchar4.
__kernel void mandelbrot(__global uchar4 *image, const int width, const int height,
                         const float2 center, const float scale, const int max_iter)
{
    const int px = get_global_id(0);
    const int py = get_global_id(1);
    if (px >= width || py >= height)
        return;
    const float2 c = center + (float2)(px - width / 2, py - height / 2) * scale;
    float2 z = (float2)(0.0f, 0.0f);
    int iter = 0;
    while (iter < max_iter && dot(z, z) <= 4.0f) {
        z = (float2)(z.x * z.x - z.y * z.y, 2.0f * z.x * z.y) + c;
        ++iter;
    }
    const float t = (float)iter / (float)max_iter;
    const uchar shade = (uchar)(255.0f * sqrt(t));
    image[py * width + px] = iter == max_iter ? (uchar4)(0, 0, 0, 255)
                                              : (uchar4)(shade, shade / 2, 255 - shade, 255);
}
