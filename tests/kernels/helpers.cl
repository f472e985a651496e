// Helper functions: by value, and taking __global pointers (specialised per
// buffer), plus pointer arithmetic and a 2-D NDRange with a global offset.
float square(float v) { return v * v; }

void accumulate(__global float *dst, const __global float *src, int n)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += square(src[i]);
    *dst = s;
}

__kernel void helpers(__global const float *in, __global float *out, int width)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    int row = y - (int)get_global_offset(1);
    __global const float *line = in + row * width;
    accumulate(out + row * (int)get_global_size(0) + (x - (int)get_global_offset(0)),
               line + x - (int)get_global_offset(0), 2);
}
