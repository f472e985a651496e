// expect: 6:11: error: read-only variable is not assignable
// Writing through a pointer to const global memory.
__kernel void k(__global const float *in, __global float *out)
{
    const int i = get_global_id(0);
    in[i] = 0.0f;
    out[i] = in[i];
}
