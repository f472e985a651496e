// expect: 3:12: error: extern variable must reside in constant address space
// An extern declaration of a private program-scope variable (OpenCL C 1.2).
extern int table_size;

__kernel void k(__global int *data)
{
    data[get_global_id(0)] = 0;
}
