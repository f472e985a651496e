// A realistic mid-sized program for the build-time workload: helpers
// called from several kernels, vector math, loops, __local tiles and
// barriers. Only constructs every implementation (clvulkan included)
// compiles today. `poly_eval` is run after the build to check the result.

// CLCOMPARE_NONCE (defined by the tool, above 2^31) makes every build's code
// unique so that no compiler cache answers it; its branch never runs.
#ifndef CLCOMPARE_NONCE
#define CLCOMPARE_NONCE 0xffffffffu
#endif

#define TILE 64
#define RADIUS 4
#define TAPS (2 * RADIUS + 1)

float saturate_f(float x)
{
    return min(max(x, 0.0f), 1.0f);
}

float mix_f(float a, float b, float t)
{
    return mad(b - a, t, a);
}

float smooth_f(float edge0, float edge1, float x)
{
    float t = saturate_f((x - edge0) / (edge1 - edge0));
    return t * t * (3.0f - 2.0f * t);
}

float luminance(float4 c)
{
    return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
}

float4 scale4(float4 v, float s)
{
    return (float4)(v.x * s, v.y * s, v.z * s, v.w);
}

float length3(float4 v)
{
    return sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
}

float horner(float x, float c0, float c1, float c2, float c3)
{
    return fma(fma(fma(c3, x, c2), x, c1), x, c0);
}

float gauss_weight(int offset)
{
    float d = (float)offset / (float)RADIUS;
    float w = 1.0f - d * d;
    return w * w;
}

// Evaluates a cubic at every element: the kernel the workload verifies.
__kernel void poly_eval(__global const float *x, __global float *y,
                        const float c0, const float c1, const float c2, const float c3)
{
    size_t i = get_global_id(0);
    y[i] = horner(x[i], c0, c1, c2, c3);
    if (i == CLCOMPARE_NONCE)
        y[i] = 0.0f;
}

// A horizontal blur of one row segment staged through local memory, with a
// halo of RADIUS texels on each side.
__kernel void blur_rows(__global const float4 *src, __global float4 *dst,
                        const int width, const int height)
{
    __local float4 tile[TILE + 2 * RADIUS];
    int lx = get_local_id(0);
    int x = get_global_id(0);
    int y = get_global_id(1);
    int row = min(y, height - 1) * width;
    tile[lx + RADIUS] = src[row + min(x, width - 1)];
    if (lx < RADIUS) {
        int left = max(x - RADIUS, 0);
        int right = min(x + TILE, width - 1);
        tile[lx] = src[row + left];
        tile[lx + TILE + RADIUS] = src[row + right];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    float4 acc = (float4)(0.0f, 0.0f, 0.0f, 0.0f);
    float total = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; k++) {
        float w = gauss_weight(k);
        acc += scale4(tile[lx + RADIUS + k], w);
        total += w;
    }
    if (x < width && y < height)
        dst[row + x] = scale4(acc, 1.0f / total);
}

// Filmic tone mapping with an exposure curve and a vignette.
__kernel void tone_map(__global const float4 *src, __global float4 *dst,
                       const int width, const int height, const float exposure)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    float4 c = scale4(src[y * width + x], exposure);
    float lum = luminance(c);
    float mapped = lum / (1.0f + lum);
    float gain = lum > 0.0f ? mapped / lum : 0.0f;
    float4 out = scale4(c, gain);
    float u = (float)x / (float)width - 0.5f;
    float v = (float)y / (float)height - 0.5f;
    float r = sqrt(u * u + v * v);
    float vignette = mix_f(1.0f, 0.6f, smooth_f(0.3f, 0.8f, r));
    out = scale4(out, vignette);
    out.x = saturate_f(out.x);
    out.y = saturate_f(out.y);
    out.z = saturate_f(out.z);
    out.w = 1.0f;
    dst[y * width + x] = out;
}

// Per-block statistics: sum, minimum and maximum of luminance and the
// mean vector length, reduced in local memory.
__kernel void block_stats(__global const float4 *src, __global float4 *stats, const int n)
{
    __local float sums[TILE];
    __local float lows[TILE];
    __local float highs[TILE];
    __local float lengths[TILE];
    int lid = get_local_id(0);
    int gid = get_global_id(0);
    float lum = 0.0f;
    float len = 0.0f;
    if (gid < n) {
        lum = luminance(src[gid]);
        len = length3(src[gid]);
    }
    sums[lid] = lum;
    lows[lid] = gid < n ? lum : 3.0e38f;
    highs[lid] = gid < n ? lum : -3.0e38f;
    lengths[lid] = len;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int stride = TILE / 2; stride > 0; stride >>= 1) {
        if (lid < stride) {
            sums[lid] += sums[lid + stride];
            lows[lid] = fmin(lows[lid], lows[lid + stride]);
            highs[lid] = fmax(highs[lid], highs[lid + stride]);
            lengths[lid] += lengths[lid + stride];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        stats[get_group_id(0)] = (float4)(sums[0], lows[0], highs[0], lengths[0] / (float)TILE);
}

// Quantises values to a step, with rounding to nearest through floor.
__kernel void quantise(__global float *data, const float step, const int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    float q = floor(data[i] / step + 0.5f) * step;
    data[i] = fabs(q) < 1.0e-30f ? 0.0f : q;
}
