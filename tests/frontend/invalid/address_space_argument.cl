// expect: 11:11: error: changes address space of pointer
// Passing a __local pointer where the helper wants a __global one.
void clear(__global float *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = 0.0f;
}

__kernel void k(__local float *scratch)
{
    clear(scratch, 16);
}
