// Sobel edge detection on an 8-bit grey image: int arithmetic on uchar
// samples, abs, and a saturating conversion back to uchar.
__constant int sobel_x[3][3] = { { -1, 0, 1 }, { -2, 0, 2 }, { -1, 0, 1 } };
__constant int sobel_y[3][3] = { { -1, -2, -1 }, { 0, 0, 0 }, { 1, 2, 1 } };

__kernel void sobel(__global const uchar *in, __global uchar *out,
                    const int width, const int height)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1) {
        if (x < width && y < height)
            out[y * width + x] = 0;
        return;
    }
    int gx = 0, gy = 0;
    for (int j = -1; j <= 1; ++j) {
        for (int i = -1; i <= 1; ++i) {
            const int p = in[(y + j) * width + (x + i)];
            gx += sobel_x[j + 1][i + 1] * p;
            gy += sobel_y[j + 1][i + 1] * p;
        }
    }
    const uint magnitude = abs(gx) + abs(gy);
    out[y * width + x] = convert_uchar_sat(magnitude);
}
