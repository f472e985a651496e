// expect: 6:21: error: changes address space of pointer
// Initializing a __global pointer with a __constant one: clang reports
// the declared name.
__kernel void k(__constant float *c, __global float *out)
{
    __global float *p = c;
    out[get_global_id(0)] = p[0];
}
