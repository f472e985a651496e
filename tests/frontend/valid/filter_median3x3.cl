// 3x3 median filter with a min/max sorting network on uchar samples; the
// swap is a function-like macro, as in many image-processing kernels.
#define SWAP(a, b) { const uchar lo_ = min(a, b); b = max(a, b); a = lo_; }

__kernel void median3x3(__global const uchar *src, __global uchar *dst,
                        const int width, const int height)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    uchar v[9];
    int k = 0;
    for (int j = -1; j <= 1; j++)
        for (int i = -1; i <= 1; i++)
            v[k++] = src[clamp(y + j, 0, height - 1) * width + clamp(x + i, 0, width - 1)];

    SWAP(v[1], v[2]); SWAP(v[4], v[5]); SWAP(v[7], v[8]);
    SWAP(v[0], v[1]); SWAP(v[3], v[4]); SWAP(v[6], v[7]);
    SWAP(v[1], v[2]); SWAP(v[4], v[5]); SWAP(v[7], v[8]);
    SWAP(v[0], v[3]); SWAP(v[5], v[8]); SWAP(v[4], v[7]);
    SWAP(v[3], v[6]); SWAP(v[1], v[4]); SWAP(v[2], v[5]);
    SWAP(v[4], v[7]); SWAP(v[4], v[2]); SWAP(v[6], v[4]);
    SWAP(v[4], v[2]);
    dst[y * width + x] = v[4];
}
