// expect: 6:19: error: use of undeclared identifier 'get_globl_id'
// A misspelt work-item function: OpenCL C has no implicit function
// declarations.
__kernel void k(__global float *data)
{
    const int i = get_globl_id(0);
    data[i] = 0.0f;
}
