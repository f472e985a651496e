// expect: 6:14: error: no member named 'z' in
// offsetof names a member the struct lacks; clang points at the offsetof.
struct point { float x, y; };
kernel void k(global int *out)
{
    out[0] = offsetof(struct point, z);
}
