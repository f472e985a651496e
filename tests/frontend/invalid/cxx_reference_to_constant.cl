// options: -cl-std=CLC++
// expect: 6:16: error: changes address space
// A reference is generic by default, and generic memory is never __constant.
__kernel void k(__constant int *c, __global int *out)
{
    const int &r = c[0];
    out[0] = r;
}
