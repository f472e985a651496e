// expect: 3:43: error: kernel parameter cannot be declared as a pointer to a pointer
// Kernel arguments cannot be pointers to pointers.
__kernel void k(__global float *__global *rows, const int n)
{
    rows[0][get_global_id(0)] = 0.0f;
}
