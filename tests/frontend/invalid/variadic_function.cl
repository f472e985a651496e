// expect: 3:7: error: variadic arguments are not allowed in OpenCL
// Variadic functions other than printf are not allowed.
float sum_all(int count, ...);

__kernel void k(__global float *data)
{
    data[get_global_id(0)] = 0.0f;
}
