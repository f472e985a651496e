// expect: 7:7: error: from incompatible type
// expect: 7:7: error: float
// Assigning a float to a pointer.
__kernel void k(__global float *data)
{
    __global float *p = data;
    p = data[0];
    p[0] = 1.0f;
}
