// expect: 5:22: error: changes address space of pointer
// Casting a __global pointer to a __local one.
__kernel void k(__global int *g)
{
    __local int *l = (__local int *)g;
    l[0] = 1;
}
