// expect: 3:22: error: kernel functions cannot be declared static
// Kernels are entry points and cannot have internal linkage.
static __kernel void hidden(__global float *data)
{
    data[get_global_id(0)] = 0.0f;
}
