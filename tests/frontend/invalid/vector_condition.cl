// expect: 7:5: error: statement requires expression of scalar type
// An if condition must be a scalar; any() or all() is needed. clang
// reports it at the 'if'.
__kernel void k(__global const float4 *a, __global float4 *out)
{
    const int i = get_global_id(0);
    if (a[i] > 0.0f)
        out[i] = a[i];
}
