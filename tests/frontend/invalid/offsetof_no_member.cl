// expect: 6:12: error: no member named 'z' in 'struct point'
// offsetof names a member the struct lacks; clang points at the offsetof.
struct point { float x, y; };
kernel void k(global int *out)
{
    out[0] = offsetof(struct point, z);
}
