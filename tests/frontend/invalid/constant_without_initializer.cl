// expect: 3:18: error: variable in constant address space must be initialized
// A program-scope __constant variable must have an initializer.
__constant float scale;

__kernel void k(__global float *data)
{
    data[get_global_id(0)] *= scale;
}
