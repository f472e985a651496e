// expect: 3:16: error: program scope variable must reside in constant address space
// Program-scope __global variables need OpenCL C 2.0.
__global float running_total;

__kernel void k(__global float *data)
{
    data[get_global_id(0)] = 0.0f;
}
