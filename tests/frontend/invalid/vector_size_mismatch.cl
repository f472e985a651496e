// expect: 6:17: error: implicit conversions between vector types
// Adding a float4 and a float2: reported at the operator.
__kernel void k(__global float4 *a, __global float2 *b)
{
    const int i = get_global_id(0);
    a[i] = a[i] + b[i];
}
