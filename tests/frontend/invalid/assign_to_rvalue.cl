// expect: 6:17: error: expression is not assignable
// The left side of '=' must be an lvalue.
__kernel void k(__global float *a, __global float *b)
{
    const int i = get_global_id(0);
    a[i] + b[i] = 0.0f;
}
