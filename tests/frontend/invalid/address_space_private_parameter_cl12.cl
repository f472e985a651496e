// expect: 11:21: error: changes address space of pointer
// In OpenCL C 1.2 an unqualified pointer parameter points to __private
// memory, so a __global pointer cannot be passed.
float first(float *p)
{
    return p[0];
}

__kernel void k(__global float *data)
{
    data[1] = first(data);
}
