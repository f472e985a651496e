// Colour conversion: RGBA8 (uchar4) to grey and to YUV, with weights in a
// __constant float4 table and saturating, rounding conversions.
__constant float4 rgb_to_yuv[3] = {
    (float4)(0.299f, 0.587f, 0.114f, 0.0f),
    (float4)(-0.14713f, -0.28886f, 0.436f, 0.0f),
    (float4)(0.615f, -0.51499f, -0.10001f, 0.0f),
};

__kernel void rgba_to_gray(__global const uchar4 *src, __global uchar *dst, const int count)
{
    const int i = get_global_id(0);
    if (i < count) {
        const float4 p = convert_float4(src[i]);
        dst[i] = convert_uchar_sat_rte(dot(p, rgb_to_yuv[0]));
    }
}

__kernel void rgba_to_yuv(__global const uchar4 *src, __global uchar4 *dst, const int count)
{
    const int i = get_global_id(0);
    if (i >= count)
        return;
    const float4 p = convert_float4(src[i]);
    float4 yuv;
    yuv.x = dot(p, rgb_to_yuv[0]);
    yuv.y = dot(p, rgb_to_yuv[1]) + 128.0f;
    yuv.z = dot(p, rgb_to_yuv[2]) + 128.0f;
    yuv.w = p.w;
    dst[i] = convert_uchar4_sat_rte(yuv);
}
