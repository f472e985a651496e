// options: -cl-std=CL2.0
// expect: 4:15: error: program scope variable must reside in global or constant address space
// Even in OpenCL C 2.0, a program-scope variable cannot be __local.
__local float shared_value;

__kernel void k(__global float *data)
{
    data[get_global_id(0)] = 0.0f;
}
