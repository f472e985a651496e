// expect: 5:29: error: no matching function for call to 'dot'
// dot is defined for floating vectors only.
__kernel void k(__global int4 *a, __global int *out)
{
    out[get_global_id(0)] = dot(a[0], a[1]);
}
