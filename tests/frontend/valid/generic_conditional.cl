// options: -cl-std=CL2.0
// A pointer into a named space and a generic one meet in `?:` as a
// generic pointer (OpenCL C 6.5.15), and the address-space functions take
// the result.
__kernel void k(__global int *g, __local int *l, __global int *out)
{
    int x = 3;
    int *p = get_local_id(0) ? (int *)l : &x;
    int *q = get_global_id(0) & 1 ? g : p;
    const int *r = get_global_id(0) & 2 ? q : (const __global int *)g;
    out[get_global_id(0)] = (to_global(q) != 0) + (to_local(q) != 0) * 2
        + (int)get_fence(r) + *r;
}
