// expect: 5:15: error: variable length arrays are not supported in OpenCL
// Array sizes must be constants: reported at the size expression.
__kernel void k(__global float *data, const int n)
{
    float tmp[n];
    tmp[0] = data[0];
    data[get_global_id(0)] = tmp[0];
}
