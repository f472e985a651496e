// expect: 3:62: error: redefinition of parameter 'n'
// Two parameters with the same name.
__kernel void k(__global float *data, const int n, const int n)
{
    data[get_global_id(0)] = n;
}
