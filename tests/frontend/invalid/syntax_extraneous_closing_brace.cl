// expect: 8:1: error: extraneous closing brace ('}')
// One closing brace too many after a kernel.
__kernel void copy(__global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    out[i] = in[i];
}
}
