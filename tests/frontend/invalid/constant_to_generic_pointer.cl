// options: -cl-std=CL2.0
// expect: 5:10: error: changes address space of pointer
__kernel void k(__constant int *c, __global int *out)
{
    int *p = c;
    out[0] = *p;
}
