// expect: 6:33: error: which are pointers to non-overlapping address spaces
// Pointers into two different named spaces have no common type in `?:`;
// only the generic space includes both.
__kernel void k(__global int *g, __local int *l, __global int *out)
{
    out[0] = *(get_global_id(0) ? g : l);
}
