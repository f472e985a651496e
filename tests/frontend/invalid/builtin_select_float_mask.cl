// expect: 6:12: error: no matching function for call to 'select'
// select's mask must be an integer vector.
__kernel void k(__global float4 *a, __global float4 *b)
{
    const int i = get_global_id(0);
    a[i] = select(a[i], b[i], b[i]);
}
