// expect: 5:30: error: invalid operands to binary expression
// Pointers cannot be multiplied.
__kernel void k(__global float *data)
{
    __global float *p = data * 2;
    p[0] = 1.0f;
}
