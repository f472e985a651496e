// Tone mapping through a small piecewise-linear curve in a program-scope
// __constant table, plus a gamma kernel using pow and native_powr.
#define LUT_SIZE 17
__constant float tone_curve[LUT_SIZE] = {
    0.000f, 0.048f, 0.110f, 0.178f, 0.250f, 0.326f, 0.404f, 0.484f, 0.566f,
    0.648f, 0.729f, 0.806f, 0.876f, 0.933f, 0.971f, 0.992f, 1.000f
};

__kernel void tone_map(__global float4 *pixels, const int count)
{
    const int i = get_global_id(0);
    if (i >= count)
        return;
    float4 p = pixels[i];
    float rgb[3] = { p.x, p.y, p.z };
    for (int c = 0; c < 3; c++) {
        const float t = clamp(rgb[c], 0.0f, 1.0f) * (LUT_SIZE - 1);
        const int idx = min((int)t, LUT_SIZE - 2);
        const float f = t - idx;
        rgb[c] = mix(tone_curve[idx], tone_curve[idx + 1], f);
    }
    pixels[i] = (float4)(rgb[0], rgb[1], rgb[2], p.w);
}

__kernel void gamma_correct(__global float *values, const float gamma, const int count)
{
    const int i = get_global_id(0);
    if (i < count) {
        const float v = fmax(values[i], 0.0f);
        values[i] = (gamma == 2.2f) ? native_powr(v, 1.0f / 2.2f) : pow(v, 1.0f / gamma);
    }
}
