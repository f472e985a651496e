// expect: 3:26: error: unknown type name 'atomic_int'
// atomic_int exists from OpenCL C 2.0 on; the default is OpenCL C 1.2.
__kernel void k(__global atomic_int *counter)
{
}
