// expect: 7:13: error: use of undeclared identifier 'widht'
// A misspelt kernel argument name.
__kernel void blur_row(__global const float *in, __global float *out, const int width)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    out[y * widht + x] = in[y * width + x];
}
