// options: -cl-std=CLC++
// expect: 7:5: error: 'default delete' is not supported in C++ for OpenCL
// C++ for OpenCL leaves out delete.
__kernel void k(__global int *out)
{
    int *p = out;
    delete p;
}
