// expect: 3:5: error: program scope variable must reside in constant address space
// A program-scope variable without __constant in OpenCL C 1.2.
int counter;

__kernel void k(__global int *data)
{
    data[get_global_id(0)] = 0;
}
