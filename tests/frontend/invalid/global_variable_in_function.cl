// expect: 5:20: error: function scope variable cannot be declared in global address space
// A __global variable inside a kernel.
__kernel void k(__global float *data)
{
    __global float sum;
    data[get_global_id(0)] = 0.0f;
}
