// Bilinear image resize on an RGBA float buffer without samplers: floor,
// fractional weights, clamped neighbour fetches and mix.
float4 fetch(__global const float4 *img, int w, int h, int x, int y)
{
    return img[clamp(y, 0, h - 1) * w + clamp(x, 0, w - 1)];
}

__kernel void resize_bilinear(__global const float4 *src, const int sw, const int sh,
                              __global float4 *dst, const int dw, const int dh)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= dw || y >= dh)
        return;
    const float2 scale = (float2)((float)sw / dw, (float)sh / dh);
    const float2 pos = ((float2)(x, y) + 0.5f) * scale - 0.5f;
    const float2 base = floor(pos);
    const float2 t = pos - base;
    const int2 p = convert_int2(base);
    const float4 top = mix(fetch(src, sw, sh, p.x, p.y), fetch(src, sw, sh, p.x + 1, p.y), t.x);
    const float4 bottom = mix(fetch(src, sw, sh, p.x, p.y + 1), fetch(src, sw, sh, p.x + 1, p.y + 1), t.x);
    dst[y * dw + x] = mix(top, bottom, t.y);
}
