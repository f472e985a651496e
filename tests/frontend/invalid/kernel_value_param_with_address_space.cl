// expect: 3:52: error: parameter may not be qualified with an address space
// A by-value parameter cannot live in __global memory.
__kernel void k(__global float *data, __global int n)
{
    data[get_global_id(0)] = n;
}
