// expect: 5:16: error: variables in function scope cannot be declared static
// A static local in private memory (OpenCL C 1.2).
__kernel void k(__global int *data)
{
    static int calls = 0;
    data[get_global_id(0)] = calls;
}
