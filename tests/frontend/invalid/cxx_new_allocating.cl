// options: -cl-std=CLC++
// expect: 6:14: error: 'default new' is not supported in C++ for OpenCL
// C++ for OpenCL leaves out allocating new.
__kernel void k(__global int *out)
{
    int *p = new int(3);
    out[0] = *p;
}
