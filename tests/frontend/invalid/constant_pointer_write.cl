// expect: 6:15: error: read-only variable is not assignable
// Writing through a __constant pointer.
__kernel void k(__constant float *coeffs, __global float *out)
{
    const int i = get_global_id(0);
    coeffs[i] = out[i];
}
