// expect: 6:7: error: changes address space of pointer
// Assigning a __local pointer to a __global pointer variable.
__kernel void k(__global float *g, __local float *l)
{
    __global float *p = g;
    p = l;
    p[get_global_id(0)] = 0.0f;
}
