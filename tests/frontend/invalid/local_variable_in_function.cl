// expect: 5:19: error: non-kernel function variable cannot be declared in local address space
// __local variables can only be declared in kernels.
float helper(float v)
{
    __local float cache[64];
    cache[get_local_id(0)] = v;
    return cache[0];
}

__kernel void k(__global float *data)
{
    data[get_global_id(0)] = helper(data[get_global_id(0)]);
}
