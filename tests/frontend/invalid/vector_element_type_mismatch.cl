// expect: 6:17: error: implicit conversions between vector types
// Multiplying a float4 by an int4.
__kernel void k(__global float4 *a, __global int4 *b)
{
    const int i = get_global_id(0);
    a[i] = a[i] * b[i];
}
