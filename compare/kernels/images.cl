// Image filters as FFmpeg's OpenCL filters write them: literal samplers,
// image2d_t in and out.

// A 9-tap Gaussian (sigma 2), normalised; the host reference uses the
// same values.
__constant float WEIGHTS[9] = {
    0.02763055f, 0.06628225f, 0.12383154f, 0.18017382f, 0.20416369f,
    0.18017382f, 0.12383154f, 0.06628225f, 0.02763055f};

const sampler_t edge =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

// One pass of the separable blur along `step`: (1, 0) for rows, (0, 1)
// for columns.
__kernel void blur_pass(__read_only image2d_t src, __write_only image2d_t dst, int2 step)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 sum = (float4)(0.0f);
    for (int k = -4; k <= 4; k++)
        sum += WEIGHTS[k + 4] * read_imagef(src, edge, p + k * step);
    write_imagef(dst, p, sum);
}

const sampler_t bilinear =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;

// Bilinear resize of src to dst's size, sampling at the centre of each
// destination pixel.
__kernel void resize_bilinear(__read_only image2d_t src, __write_only image2d_t dst)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float2 size = convert_float2(get_image_dim(dst));
    float2 uv = (convert_float2(p) + 0.5f) / size;
    write_imagef(dst, p, read_imagef(src, bilinear, uv));
}
